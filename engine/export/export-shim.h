/* ---- The few GLib names the engine's model code uses, in plain C99 ----
 * (Bramah's engine is written against GLib; this program needs only the C
 * library and libm.) */
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int gboolean;
typedef int gint;
typedef unsigned int guint;
typedef unsigned char guint8;
typedef uint64_t guint64;
typedef uintptr_t guintptr;
typedef size_t gsize;
typedef void *gpointer;
typedef const void *gconstpointer;
typedef char gchar;
typedef double gdouble;
typedef struct { int domain, code; char *message; } GError;

#define TRUE 1
#define FALSE 0
#define G_BEGIN_DECLS
#define G_END_DECLS
#define G_N_ELEMENTS(a) (sizeof (a) / sizeof ((a)[0]))
#define G_PI 3.1415926535897932384626433832795028841971693993751
#define G_GUINT64_CONSTANT(x) UINT64_C (x)
#define G_GNUC_PRINTF(a, b)
#define G_GNUC_NULL_TERMINATED
#define G_GNUC_CONST
#define G_GNUC_UNUSED
#define G_ALWAYS_INLINE
#define G_DEFINE_AUTOPTR_CLEANUP_FUNC(type, func)
#ifndef MAX
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif
#define ABS(a) ((a) < 0 ? -(a) : (a))
#define CLAMP(x, lo, hi) ((x) > (hi) ? (hi) : ((x) < (lo) ? (lo) : (x)))
#define N_(s) (s)
#define _(s) (s)
#define g_autofree
#define g_assert(e) assert (e)
#define g_return_val_if_fail(e, v) do { if (!(e)) return (v); } while (0)
#define g_return_if_fail(e) do { if (!(e)) return; } while (0)
/* Setup errors cannot happen here: Bramah checked the circuit. */
#define g_set_error(...) ((void) 0)
#define g_snprintf snprintf
#define g_free free
#define g_new(T, n) ((T *) bx_alloc (sizeof (T) * (size_t) (n)))
#define g_new0(T, n) ((T *) bx_alloc (sizeof (T) * (size_t) (n)))
#define g_malloc0(n) bx_alloc (n)
#define g_renew(T, p, n) ((T *) bx_realloc ((p), sizeof (T) * (size_t) (n)))
#define g_clear_pointer(pp, destroy) \
  do { if (*(pp)) { destroy (*(pp)); *(pp) = NULL; } } while (0)
#define g_once_init_enter(p) (*(p) == 0)
#define g_once_init_leave(p, v) (*(p) = (v))
#define g_intern_static_string(s) (s)

static void *
bx_alloc (size_t n)
{
  void *p = calloc (1, n ? n : 1);
  if (!p)
    {
      fputs ("out of memory\n", stderr);
      exit (1);
    }
  return p;
}

static void *
bx_realloc (void *p, size_t n)
{
  p = realloc (p, n ? n : 1);
  if (!p)
    {
      fputs ("out of memory\n", stderr);
      exit (1);
    }
  return p;
}

static void *
g_memdup2 (const void *mem, size_t n)
{
  void *p = bx_alloc (n);
  if (n)
    memcpy (p, mem, n);
  return p;
}

/* Interned strings live as long as the program: a copy, never freed. */
static const char *
g_intern_string (const char *s)
{
  return g_memdup2 (s, strlen (s) + 1);
}

static char *
g_strdup_printf (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  int n = vsnprintf (NULL, 0, fmt, ap);
  va_end (ap);
  char *s = bx_alloc ((size_t) n + 1);
  va_start (ap, fmt);
  vsnprintf (s, (size_t) n + 1, fmt, ap);
  va_end (ap);
  return s;
}

static char *
g_strdup (const char *s)
{
  return s ? g_memdup2 (s, strlen (s) + 1) : NULL;
}

/* The strings up to a NULL, joined. */
static char *
g_strconcat (const char *first, ...)
{
  va_list ap;
  size_t len = 0;
  va_start (ap, first);
  for (const char *s = first; s; s = va_arg (ap, const char *))
    len += strlen (s);
  va_end (ap);
  char *out = bx_alloc (len + 1);
  va_start (ap, first);
  for (const char *s = first; s; s = va_arg (ap, const char *))
    strcat (out, s);
  va_end (ap);
  return out;
}

static int
g_strcmp0 (const char *a, const char *b)
{
  if (!a || !b)
    return a == b ? 0 : (a ? 1 : -1);
  return strcmp (a, b);
}

static guint
g_strv_length (char **v)
{
  guint n = 0;
  while (v[n])
    n++;
  return n;
}
