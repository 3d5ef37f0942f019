/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-util.c — what every bramah-cli command shares (cli-commands.h):
 * numeric options parsed with their range, text from a circuit file made
 * safe for a terminal, and output files written to a temporary in the same
 * directory and renamed into place only when complete. */
#include <glib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cli-commands.h"

/* ---------------- text for the terminal ---------------- */

/* Characters a terminal would act on instead of showing: C0 controls (but
 * the newline and tab of a message), DEL, C1 controls (the 8-bit ESC family)
 * and the bidirectional overrides and isolates that reorder what follows
 * (Boucher and Anderson 2021, "Trojan Source: Invisible Vulnerabilities"). */
static gboolean
needs_escape (gunichar c, gboolean keep_newlines)
{
  if (keep_newlines && (c == '\n' || c == '\t'))
    return FALSE;
  return c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e)
         || (c >= 0x2066 && c <= 0x2069) || c == 0x200e || c == 0x200f || c == 0x061c
         || c == 0x2028 || c == 0x2029;
}

/* One character of text: its code point (or (gunichar) −1 for a byte that
 * is not UTF-8) and where the next starts. */
static const char *
next_char (const char *p, gunichar *c)
{
  *c = g_utf8_get_char_validated (p, -1);
  if (*c == (gunichar) -1 || *c == (gunichar) -2)
    {
      *c = (gunichar) -1;
      return p + 1;
    }
  return g_utf8_next_char (p);
}

static gboolean
is_space (gunichar c)
{
  return c == ' ' || c == '\n' || c == '\t';
}

/* Characters in the run of non-blank text at p, counted up to limit + 1. */
static gsize
word_length (const char *p, gsize limit)
{
  gsize n = 0;
  gunichar c;
  while (*p && n <= limit)
    {
      const char *next = next_char (p, &c);
      if (is_space (c))
        break;
      n++;
      p = next;
    }
  return n;
}

/* In a message, a run of non-blank text longer than this (a 10 kB id) is
 * cut to its first HYD_CLI_QUOTE_MAX characters, so that the rest of the
 * message still says what is wrong. */
#define WORD_MAX 200

static char *
escape_text (const char *text, gsize max_chars, gboolean message)
{
  if (text == NULL)
    return g_strdup ("(null)");
  GString *out = g_string_new (NULL);
  const char *p = text;
  gsize chars = 0;
  gboolean word_start = TRUE;
  gsize keep = G_MAXSIZE;   /* characters of the current word still shown */
  while (*p)
    {
      if (chars >= max_chars)
        {
          g_string_append (out, "…");
          break;
        }
      gunichar c;
      const char *next = next_char (p, &c);
      if (message && is_space (c))
        {
          word_start = TRUE;
          keep = G_MAXSIZE;
        }
      else if (message && word_start)
        {
          word_start = FALSE;
          if (word_length (p, WORD_MAX) > WORD_MAX)
            keep = HYD_CLI_QUOTE_MAX;
        }
      if (keep == 0)
        {
          /* the rest of a cut word */
          p = next;
          continue;
        }
      if (keep != G_MAXSIZE && --keep == 0)
        {
          g_string_append (out, "…");
          chars++;
          p = next;
          continue;
        }
      if (c == (gunichar) -1)
        g_string_append_printf (out, "\\x%02x", (guchar) *p);   /* not UTF-8: the byte */
      else if (!needs_escape (c, message))
        g_string_append_len (out, p, next - p);
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c == 0x1b)
        g_string_append (out, "\\e");
      else if (c < 0x80)
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_printf (out, "\\u%04x", c);
      p = next;
      chars++;
    }
  return g_string_free (out, FALSE);
}

char *
hyd_cli_quote (const char *text, gsize max_chars)
{
  return escape_text (text, max_chars, FALSE);
}

/* Quoted strings live until HYD_CLI_Q_SLOTS later calls (of either
 * function): enough for the arguments of one printf. */
#define HYD_CLI_Q_SLOTS 32

static const char *
escape_in_slot (const char *text, gsize max)
{
  static char *slots[HYD_CLI_Q_SLOTS];
  static guint next;
  guint k = next++ % HYD_CLI_Q_SLOTS;
  g_free (slots[k]);
  slots[k] = escape_text (text, max, FALSE);
  return slots[k];
}

const char *
hyd_cli_q (const char *text)
{
  return escape_in_slot (text, HYD_CLI_QUOTE_MAX);
}

const char *
hyd_cli_qpath (const char *path)
{
  return escape_in_slot (path, HYD_CLI_PATH_MAX);
}

char *
hyd_cli_sanitize_message (const char *text)
{
  return escape_text (text, HYD_CLI_MESSAGE_MAX, TRUE);
}

void
hyd_cli_print_error (const char *message)
{
  g_autofree char *safe = hyd_cli_sanitize_message (message);
  fprintf (stderr, "bramah-cli: %s\n", safe);
}

/* ---------------- numeric options ---------------- */

static void
range_text (GString *s, double min, double max, guint flags, const char *unit, gboolean integer)
{
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append_printf (s, "%s %s%s, %s%s", integer ? "a whole number in" : "a number in",
                          (flags & HYD_CLI_MIN_EXCLUSIVE) ? "(" : "[",
                          g_ascii_formatd (a, sizeof a, "%g", min), g_ascii_formatd (b, sizeof b, "%g", max),
                          (flags & HYD_CLI_MAX_EXCLUSIVE) ? ")" : "]");
  if (unit && *unit)
    g_string_append_printf (s, " %s", unit);
}

static gboolean
in_range (double v, double min, double max, guint flags)
{
  gboolean lo = (flags & HYD_CLI_MIN_EXCLUSIVE) ? v > min : v >= min;
  gboolean hi = (flags & HYD_CLI_MAX_EXCLUSIVE) ? v < max : v <= max;
  return isfinite (v) && lo && hi;
}

static gboolean
option_error (const char *option, const char *text, const char *what, double min, double max,
              guint flags, const char *unit, gboolean integer)
{
  GString *s = g_string_new (NULL);
  range_text (s, min, max, flags, unit, integer);
  fprintf (stderr, "bramah-cli: %s: '%s' %s (%s)\n", option, hyd_cli_q (text), what, s->str);
  g_string_free (s, TRUE);
  return FALSE;
}

gboolean
hyd_cli_parse_double (const char *option, const char *text, double min, double max, guint flags,
                      const char *unit, double *value)
{
  char *end = NULL;
  if (text == NULL || *text == '\0' || g_ascii_isspace (*text))
    return option_error (option, text ? text : "", "is not a number", min, max, flags, unit, FALSE);
  errno = 0;
  double v = g_ascii_strtod (text, &end);
  /* decimal only: g_ascii_strtod would take 0x10 and "infinity" */
  if (end == text || *end != '\0' || isnan (v) || strpbrk (text, "xXnN") != NULL)
    return option_error (option, text, "is not a number", min, max, flags, unit, FALSE);
  /* 1e999 overflows to ±inf, 1e-999 underflows: out of range either way */
  if (errno == ERANGE || !in_range (v, min, max, flags))
    return option_error (option, text, "is out of range", min, max, flags, unit, FALSE);
  *value = v;
  return TRUE;
}

gboolean
hyd_cli_parse_int (const char *option, const char *text, gint64 min, gint64 max, gint64 *value)
{
  char *end = NULL;
  if (text == NULL || *text == '\0' || g_ascii_isspace (*text))
    return option_error (option, text ? text : "", "is not a whole number", (double) min, (double) max,
                         0, NULL, TRUE);
  errno = 0;
  gint64 v = g_ascii_strtoll (text, &end, 10);
  if (end == text || *end != '\0')
    {
      /* 1e999, 2.5: a number, but not a whole one in range */
      char *dend = NULL;
      double d = g_ascii_strtod (text, &dend);
      gboolean number = dend != text && *dend == '\0' && !isnan (d);
      return option_error (option, text,
                           number && !(d >= (double) min && d <= (double) max) ? "is out of range"
                                                                                : "is not a whole number",
                           (double) min, (double) max, 0, NULL, TRUE);
    }
  if (errno == ERANGE || v < min || v > max)
    return option_error (option, text, "is out of range", (double) min, (double) max, 0, NULL, TRUE);
  *value = v;
  return TRUE;
}

/* ---------------- output files ---------------- */

struct _HydCliOutput {
  FILE *file;         /* NULL for an output written by someone else (render) */
  char *path;         /* what the user named; NULL for standard output */
  char *target;       /* the file replaced: path, or a symbolic link's target */
  char *tmp;          /* the temporary in target's directory, NULL when direct */
  int error;          /* errno of the first failed write, 0 */
  char *buf;          /* file's stdio buffer (OUTPUT_BUFFER bytes), or NULL */
};

/* A file's stdio buffer: a 2048-row CSV of ten columns is ~400 KB, which
 * the default 4 KiB buffer writes in a hundred system calls. */
#define OUTPUT_BUFFER (256 * 1024)

static void
output_buffer (HydCliOutput *o)
{
  o->buf = g_malloc (OUTPUT_BUFFER);
  setvbuf (o->file, o->buf, _IOFBF, OUTPUT_BUFFER);
}

/* The temporary being written, removed by a fatal signal (one at a time:
 * a command writes one output file). */
static char *volatile pending_tmp;

static void
on_fatal_signal (int sig)
{
  char *tmp = pending_tmp;
  if (tmp != NULL)
    unlink (tmp);
  signal (sig, SIG_DFL);
  raise (sig);
}

static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static struct sigaction saved_actions[G_N_ELEMENTS (fatal_signals)];

/* Catch the fatal signals while tmp exists, and give back the actions there
 * were (tmp NULL). A signal ignored before (nohup, a background job's
 * SIGINT) stays ignored. */
static void
watch_signals (char *tmp)
{
  char *was = pending_tmp;
  if (tmp != NULL)
    pending_tmp = tmp;   /* before the handler can run */
  if (tmp != NULL && was == NULL)
    for (guint i = 0; i < G_N_ELEMENTS (fatal_signals); i++)
      {
        sigaction (fatal_signals[i], NULL, &saved_actions[i]);
        if (saved_actions[i].sa_handler == SIG_IGN)
          continue;
        struct sigaction sa = { 0 };
        sa.sa_handler = on_fatal_signal;
        sigemptyset (&sa.sa_mask);
        sigaction (fatal_signals[i], &sa, NULL);
      }
  else if (tmp == NULL && was != NULL)
    {
      for (guint i = 0; i < G_N_ELEMENTS (fatal_signals); i++)
        sigaction (fatal_signals[i], &saved_actions[i], NULL);
      pending_tmp = NULL;
    }
}

/* "dir/name.csv" → "dir/name.tmp-XXXXXX.csv": the same directory (so the
 * rename is atomic) and the same extension (render picks the format by it). */
static char *
tmp_template (const char *target)
{
  g_autofree char *dir = g_path_get_dirname (target);
  g_autofree char *base = g_path_get_basename (target);
  const char *dot = strrchr (base, '.');
  if (dot == NULL || dot == base)
    dot = base + strlen (base);
  g_autofree char *stem = g_strndup (base, dot - base);
  g_autofree char *name = g_strdup_printf ("%s.tmp-XXXXXX%s", stem, dot);
  return g_build_filename (dir, name, NULL);
}

static HydCliOutput *
output_open (const char *path, gboolean open_file, GError **error)
{
  HydCliOutput *o = g_new0 (HydCliOutput, 1);
  if (path == NULL)
    {
      o->file = stdout;
      return o;
    }
  o->path = g_strdup (path);
  o->target = g_strdup (path);

  /* write through a symbolic link to its target */
  struct stat st;
  if (g_lstat (path, &st) == 0 && S_ISLNK (st.st_mode))
    {
      char *real = realpath (path, NULL);
      if (real != NULL)
        {
          g_free (o->target);
          o->target = g_strdup (real);
          free (real);
        }
    }
  gboolean exists = g_stat (o->target, &st) == 0;
  /* a write beyond ulimit -f fails with EFBIG, reported like a full disk,
   * instead of killing the command before it can remove its temporary */
  signal (SIGXFSZ, SIG_IGN);
  if (exists && S_ISREG (st.st_mode) && g_access (o->target, W_OK) != 0)
    {
      /* renaming over a file one may not write would replace it anyway */
      int e = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "cannot write %s: %s",
                   hyd_cli_qpath (path), g_strerror (e));
      hyd_cli_output_abort (o);
      return NULL;
    }
  if (exists && !S_ISREG (st.st_mode))
    {
      /* a device or a FIFO (/dev/null, /dev/stdout): written in place */
      if (open_file && (o->file = g_fopen (o->target, "w")) == NULL)
        {
          int e = errno;
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "cannot write %s: %s",
                       hyd_cli_qpath (path), g_strerror (e));
          hyd_cli_output_abort (o);
          return NULL;
        }
      if (open_file)
        output_buffer (o);
      return o;
    }

  o->tmp = tmp_template (o->target);
  int fd = g_mkstemp_full (o->tmp, O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int e = errno;
      g_autofree char *dir = g_path_get_dirname (o->target);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "cannot write %s (a temporary in %s): %s",
                   hyd_cli_qpath (path), hyd_cli_qpath (dir), g_strerror (e));
      g_clear_pointer (&o->tmp, g_free);
      hyd_cli_output_abort (o);
      return NULL;
    }
  /* the mode a new file gets (0666 less the umask), or the old file's */
  mode_t mode;
  if (exists)
    mode = st.st_mode & 07777;
  else
    {
      mode_t mask = umask (0);
      umask (mask);
      mode = 0666 & ~mask;
    }
  if (fchmod (fd, mode) != 0)
    { /* keep 0600: safe, and no reason to fail the command */ }
  watch_signals (o->tmp);
  if (open_file)
    {
      o->file = fdopen (fd, "w");
      if (o->file == NULL)
        {
          int e = errno;
          close (fd);
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "cannot write %s: %s",
                       hyd_cli_qpath (path), g_strerror (e));
          hyd_cli_output_abort (o);
          return NULL;
        }
      output_buffer (o);
    }
  else
    close (fd);
  return o;
}

HydCliOutput *
hyd_cli_output_open (const char *path, GError **error)
{
  return output_open (path, TRUE, error);
}

HydCliOutput *
hyd_cli_output_open_path (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  return output_open (path, FALSE, error);
}

FILE *
hyd_cli_output_file (HydCliOutput *o)
{
  return o->file;
}

const char *
hyd_cli_output_write_path (HydCliOutput *o)
{
  return o->tmp ? o->tmp : o->target;
}

const char *
hyd_cli_output_name (HydCliOutput *o)
{
  return o->path ? hyd_cli_qpath (o->path) : "standard output";
}

gboolean
hyd_cli_output_puts (HydCliOutput *o, const char *text)
{
  if (o->error)
    return FALSE;
  if (fputs (text, o->file) < 0)
    {
      o->error = errno ? errno : EIO;
      return FALSE;
    }
  return TRUE;
}

gboolean
hyd_cli_output_write (HydCliOutput *o, const char *data, gsize len)
{
  if (o->error)
    return FALSE;
  if (len > 0 && fwrite (data, 1, len, o->file) != len)
    {
      o->error = errno ? errno : EIO;
      return FALSE;
    }
  return TRUE;
}

gboolean
hyd_cli_output_printf (HydCliOutput *o, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *text = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  return hyd_cli_output_puts (o, text);
}

gboolean
hyd_cli_output_flush (HydCliOutput *o)
{
  if (o->error)
    return FALSE;
  if (fflush (o->file) != 0)
    {
      o->error = errno ? errno : EIO;
      return FALSE;
    }
  return TRUE;
}

int
hyd_cli_output_error (HydCliOutput *o)
{
  return o->error;
}

gboolean
hyd_cli_output_free_space (HydCliOutput *o, guint64 *bytes)
{
  struct statvfs vfs;
  struct stat st;
  int fd = o->file ? fileno (o->file) : -1;
  if (o->file == NULL && o->tmp == NULL)
    return FALSE;
  if (o->file == NULL)
    {
      g_autofree char *dir = g_path_get_dirname (o->tmp);
      if (statvfs (dir, &vfs) != 0)
        return FALSE;
    }
  else if (fd < 0 || fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || fstatvfs (fd, &vfs) != 0)
    return FALSE;   /* a pipe, a terminal, a device: nothing to measure */
  *bytes = (guint64) vfs.f_bavail * (guint64) vfs.f_frsize;
  return TRUE;
}

static void
output_free (HydCliOutput *o)
{
  if (o->tmp && pending_tmp == o->tmp)
    watch_signals (NULL);
  g_free (o->path);
  g_free (o->target);
  g_free (o->tmp);
  g_free (o->buf); /* after its file's fclose */
  g_free (o);
}

void
hyd_cli_output_abort (HydCliOutput *o)
{
  if (o == NULL)
    return;
  if (o->file && o->file != stdout)
    fclose (o->file);
  else if (o->file == stdout)
    fflush (stdout);
  if (o->tmp)
    g_unlink (o->tmp);
  output_free (o);
}

gboolean
hyd_cli_output_commit (HydCliOutput *o, GError **error)
{
  int e = o->error;
  if (o->file == stdout)
    {
      if (fflush (stdout) != 0 && e == 0)
        e = errno ? errno : EIO;
      if (ferror (stdout) && e == 0)
        e = -1;
      /* reported here: main's last check of stdout need not repeat it */
      clearerr (stdout);
    }
  else if (o->file)
    {
      if (fflush (o->file) != 0 && e == 0)
        e = errno ? errno : EIO;
      if (ferror (o->file) && e == 0)
        e = -1;
      /* the data on disk before the name points at it */
      if (e == 0 && o->tmp && fsync (fileno (o->file)) != 0 && errno != EINVAL)
        e = errno;
      if (fclose (o->file) != 0 && e == 0)
        e = errno ? errno : EIO;
      o->file = NULL;
    }
  if (e == 0 && o->tmp && g_rename (o->tmp, o->target) != 0)
    {
      e = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "cannot write %s: renaming %s: %s",
                   hyd_cli_output_name (o), hyd_cli_qpath (o->tmp), g_strerror (e));
      hyd_cli_output_abort (o);
      return FALSE;
    }
  if (e != 0)
    {
      /* e = −1: stdio saw a write fail, and its errno is gone */
      g_set_error (error, G_FILE_ERROR, e > 0 ? g_file_error_from_errno (e) : G_FILE_ERROR_IO,
                   "cannot write %s: %s%s", hyd_cli_output_name (o),
                   e > 0 ? g_strerror (e) : "a write failed", e == ENOSPC ? " (disk full)" : "");
      hyd_cli_output_abort (o);
      return FALSE;
    }
  output_free (o);
  return TRUE;
}

/* ---------------- sizes ---------------- */

char *
hyd_cli_format_size (double bytes)
{
  if (!isfinite (bytes) || bytes > 1e18)
    return g_strdup_printf ("%.3g bytes", bytes);
  return g_format_size ((guint64) bytes);
}

gboolean
hyd_cli_memory_available (guint64 *bytes)
{
  /* MemAvailable counts the page cache the kernel can give back, which
   * sysconf's free pages do not (Linux ≥ 3.14) */
  g_autofree char *meminfo = NULL;
  if (g_file_get_contents ("/proc/meminfo", &meminfo, NULL, NULL))
    {
      const char *line = strstr (meminfo, "MemAvailable:");
      if (line != NULL)
        {
          guint64 kb = g_ascii_strtoull (line + strlen ("MemAvailable:"), NULL, 10);
          if (kb > 0)
            {
              *bytes = kb * 1024;
              return TRUE;
            }
        }
    }
  long pages = sysconf (_SC_AVPHYS_PAGES), size = sysconf (_SC_PAGESIZE);
  if (pages <= 0 || size <= 0)
    return FALSE;
  *bytes = (guint64) pages * (guint64) size;
  return TRUE;
}
