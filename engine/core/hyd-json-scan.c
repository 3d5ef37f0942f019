/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-json-scan.c — a strict JSON check before json-glib parses.
 *
 * One pass over the text with an explicit stack (never recursion), so its
 * cost is linear in the length and its memory is bounded by the depth and
 * the keys of the open objects. Grammar: RFC 8259 (Bray, 2017) §2–§7;
 * surrogate pairs: The Unicode Standard 15.0, §3.8. Line and column are
 * computed only for an error, from the byte offset where it starts. */
#include "hyd-json-scan.h"
#include "hyd-diagnostic.h"
#include "hyd-i18n.h"
#include "hyd-json-writer.h"

#include <math.h>
#include <string.h>

typedef struct {
  const char *data;
  gsize length;
  gsize pos;
  guint max_depth;
  guint depth;
  char *kinds;             /* [max_depth] '[' or '{' of each open container */
  gsize *opened;           /* [max_depth] offset of its bracket */
  GHashTable **keys;       /* [max_depth] decoded key → offset + 1, for objects */
  GString *key_text;       /* the key being read, decoded */
  gsize error_pos;
  char *message;           /* the English sentence of the refusal */
  const char *template;    /* its template (N_()-marked) */
  char **args;             /* and the template's arguments */
  /* building (hyd_json_doc_parse): the document, its open containers
   * and the decoded text of the string value being read */
  gboolean build;
  HydJsonDoc *doc;
  guint *open_value;       /* [max_depth] the value of each open container */
  guint *last_child;       /* [max_depth] its last child so far (0: none) */
  guint key;               /* pool offset of the key just read */
  GString *value;
  gboolean duplicate;      /* a duplicate key was found while building */
} Scan;

/* One value of a document: its kind, its next sibling (0: none; the root
 * is value 0 and no one's sibling) and, for a member, the pool offset of
 * its key. */
typedef struct {
  guint32 kind;            /* HydJsonKind */
  guint32 next;
  guint32 key;
  guint32 count;           /* array or object: its number of children */
  union {
    gint64 i;
    double d;
    guint32 str;           /* string: pool offset of the decoded text */
    guint32 first;         /* array or object: its first child (0: none) */
  } v;
} Value;

struct _HydJsonDoc {
  Value *values;
  guint n_values, cap;
  GString *pool;           /* decoded strings and keys, each NUL-terminated */
};

static gboolean fail (Scan *s, gsize pos, const char *template, ...) G_GNUC_NULL_TERMINATED;

/* Refuses the text at pos: a template (N_()-marked, so that the message
 * can be shown translated) and its arguments (const char *, then NULL). */
static gboolean
fail (Scan *s, gsize pos, const char *template, ...)
{
  va_list ap;

  va_start (ap, template);
  g_autoptr (HydDiagnostic) d = hyd_diagnostic_new_valist (HYD_DIAGNOSTIC_PARSE, HYD_SEVERITY_ERROR, template, ap);
  va_end (ap);
  g_strfreev (s->args);
  s->args = g_strdupv (d->args);
  s->template = template;
  g_free (s->message);
  s->message = g_strdup (d->message);
  s->error_pos = pos;
  return FALSE;
}

static void
position_of (const char *data, gsize pos, guint *line, guint *column)
{
  guint l = 1, c = 1;

  for (gsize i = 0; i < pos; i++)
    {
      if (data[i] == '\n')
        {
          l++;
          c = 1;
        }
      else if (((guchar) data[i] & 0xc0) != 0x80)
        c++;
    }
  *line = l;
  *column = c;
}

char *
hyd_json_quote_excerpt (const char *text, gssize length)
{
  const char *p = text, *end;
  GString *out = g_string_new ("\"");
  guint n = 0;

  if (text == NULL)
    return g_string_free (out, FALSE);
  end = text + (length < 0 ? strlen (text) : (gsize) length);
  while (p < end && n < HYD_JSON_EXCERPT_MAX)
    {
      guchar c = (guchar) *p;

      n++;
      if (c == '"' || c == '\\')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) c);
          p++;
        }
      else if (c == '\n')
        g_string_append (out, "\\n"), p++;
      else if (c == '\t')
        g_string_append (out, "\\t"), p++;
      else if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\u%04x", c), p++;
      else if (c < 0x80)
        g_string_append_c (out, (char) c), p++;
      else
        {
          gunichar u = g_utf8_get_char_validated (p, end - p);

          if (u == (gunichar) -1 || u == (gunichar) -2)
            {
              g_string_append_printf (out, "\\x%02X", c);
              p++;
            }
          else if (u < 0xa0 || u == 0x2028 || u == 0x2029)
            {
              /* C1 controls (a terminal's CSI) and line separators */
              g_string_append_printf (out, "\\u%04x", u);
              p = g_utf8_next_char (p);
            }
          else
            {
              const char *next = g_utf8_next_char (p);
              g_string_append_len (out, p, next - p);
              p = next;
            }
        }
    }
  if (p < end)
    g_string_append (out, "…");
  g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

static gboolean
is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static gboolean
is_delimiter (char c)
{
  return is_space (c) || c == ',' || c == ']' || c == '}' || c == ':';
}

static void
skip_space (Scan *s)
{
  while (s->pos < s->length && is_space (s->data[s->pos]))
    s->pos++;
}

/* The word at pos, quoted, for "got …" in messages. */
static char *
token_at (Scan *s, gsize pos)
{
  gsize end = pos;

  if (pos >= s->length)
    return g_strdup ("the end of the file");
  while (end < s->length && !is_delimiter (s->data[end]) && s->data[end] != '"'
         && s->data[end] != '[' && s->data[end] != '{' && end - pos < 4 * HYD_JSON_EXCERPT_MAX)
    end++;
  if (end == pos)
    end = pos + 1;
  return hyd_json_quote_excerpt (s->data + pos, end - pos);
}

/* fail with a template ending in " (got %s)": the n bytes at pos */
static gboolean
fail_excerpt (Scan *s, gsize pos, gsize n, const char *template)
{
  g_autofree char *got = hyd_json_quote_excerpt (s->data + pos, (gssize) n);
  return fail (s, pos, template, got, NULL);
}

/* fail with a template ending in " (got %s)": the word at pos */
static gboolean
fail_got (Scan *s, gsize pos, const char *template)
{
  g_autofree char *got = token_at (s, pos);
  return fail (s, pos, template, got, NULL);
}

static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* The four hex digits of a \u escape at pos ("\uXXXX"), or −1. */
static int
read_u_escape (Scan *s, gsize pos)
{
  int value = 0;

  if (pos + 6 > s->length || s->data[pos] != '\\' || s->data[pos + 1] != 'u')
    return -1;
  for (guint i = 2; i < 6; i++)
    {
      int h = hex_value (s->data[pos + i]);
      if (h < 0)
        return -1;
      value = 16 * value + h;
    }
  return value;
}

/* A new value of the given kind, put into the open container (or made the
 * root); a member takes the key just read. */
static Value *
add_value (Scan *s, HydJsonKind kind)
{
  HydJsonDoc *doc = s->doc;
  guint v;
  Value *value;

  if (doc->n_values == doc->cap)
    {
      doc->cap = MAX (2 * doc->cap, 64);
      doc->values = g_renew (Value, doc->values, doc->cap);
    }
  v = doc->n_values++;
  value = &doc->values[v];
  memset (value, 0, sizeof *value);
  value->kind = kind;
  if (s->depth > 0)
    {
      guint d = s->depth - 1;
      Value *parent = &doc->values[s->open_value[d]];

      if (s->last_child[d] == 0)
        parent->v.first = v;
      else
        doc->values[s->last_child[d]].next = v;
      s->last_child[d] = v;
      parent->count++;
      if (s->kinds[d] == '{')
        value->key = s->key;
    }
  return value;
}

static guint32
pool_add (Scan *s, const GString *text)
{
  guint32 at = (guint32) s->doc->pool->len;

  g_string_append_len (s->doc->pool, text->str, (gssize) text->len);
  g_string_append_c (s->doc->pool, '\0');
  return at;
}

static gboolean
never_closed (Scan *s)
{
  gsize at = s->opened[s->depth - 1];

  char bracket[2] = { s->kinds[s->depth - 1], '\0' };

  return fail (s, at, N_("this '%s' is never closed: the file ends inside it"), bracket, NULL);
}

/* A string at s->pos (on its opening quote); decoded into `decoded` if not NULL. */
static gboolean
scan_string (Scan *s, GString *decoded)
{
  gsize start = s->pos;

  if (decoded)
    g_string_truncate (decoded, 0);
  s->pos++;
  for (;;)
    {
      guchar c;

      if (s->pos >= s->length)
        return fail (s, start, N_("the string that starts here is never closed"), NULL);
      c = (guchar) s->data[s->pos];
      if (c == '"')
        {
          s->pos++;
          return TRUE;
        }
      if (c < 0x20)
        {
          char upper[8], lower[8];

          g_snprintf (upper, sizeof upper, "%04X", c);
          g_snprintf (lower, sizeof lower, "%04x", c);
          return fail (s, s->pos, N_("a control character (U+%s) in a string must be written "
                                     "as an escape (\\n, \\t or \\u%s)"), upper, lower, NULL);
        }
      if (c != '\\')
        {
          gsize run = s->pos + 1;

          while (run < s->length && s->data[run] != '"' && s->data[run] != '\\'
                 && (guchar) s->data[run] >= 0x20)
            run++;
          if (decoded)
            g_string_append_len (decoded, s->data + s->pos, (gssize) (run - s->pos));
          s->pos = run;
          continue;
        }

      {
        gsize esc = s->pos;
        char e = esc + 1 < s->length ? s->data[esc + 1] : '\0';
        int u, low;
        char hex[8];

        switch (e)
          {
          case '"': case '\\': case '/':
            if (decoded)
              g_string_append_c (decoded, e);
            s->pos += 2;
            break;
          case 'b': case 'f': case 'n': case 'r': case 't':
            if (decoded)
              g_string_append_c (decoded, e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n'
                                          : e == 'r' ? '\r' : '\t');
            s->pos += 2;
            break;
          case 'u':
            u = read_u_escape (s, esc);
            if (u < 0)
              return fail_excerpt (s, esc, MIN (6, s->length - esc),
                                   N_("\\u must be followed by four hexadecimal digits (got %s)"));
            if (u == 0)
              return fail (s, esc, N_("\\u0000 (the NUL character) is not allowed in a string"), NULL);
            g_snprintf (hex, sizeof hex, "%04x", (guint) u);
            if (u >= 0xdc00 && u <= 0xdfff)
              return fail (s, esc, N_("\\u%s is a lone low surrogate: it is only valid after a "
                                      "high surrogate (\\ud800–\\udbff), and is not a character"),
                           hex, NULL);
            s->pos += 6;
            if (u >= 0xd800 && u <= 0xdbff)
              {
                low = read_u_escape (s, s->pos);
                if (low < 0xdc00 || low > 0xdfff)
                  return fail (s, esc, N_("\\u%s is a lone high surrogate: a low surrogate "
                                          "(\\udc00–\\udfff) must follow it, and alone it is not a "
                                          "character"), hex, NULL);
                u = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
                s->pos += 6;
              }
            if (decoded)
              g_string_append_unichar (decoded, (gunichar) u);
            break;
          default:
            return fail_excerpt (s, esc, MIN (2, s->length - esc),
                                 N_("unknown escape in a string (valid: \\\" \\\\ \\/ \\b \\f "
                                    "\\n \\r \\t \\uXXXX) (got %s)"));
          }
      }
    }
}

static gboolean
is_digit (Scan *s, gsize pos)
{
  return pos < s->length && g_ascii_isdigit (s->data[pos]);
}

/* A number at s->pos: RFC 8259 §6, and one json-glib reads as written. */
static gboolean
scan_number (Scan *s)
{
  gsize start = s->pos;
  gboolean whole = TRUE;
  g_autofree char *long_text = NULL;
  char buf[64];
  const char *text;
  double d = 0;
  gint64 i = 0;

  if (s->data[s->pos] == '-')
    s->pos++;
  if (!is_digit (s, s->pos))
    return fail_got (s, start, N_("a number needs a digit after '-' (got %s)"));
  if (s->data[s->pos] == '0')
    {
      s->pos++;
      if (s->pos < s->length && (s->data[s->pos] == 'x' || s->data[s->pos] == 'X'))
        return fail_got (s, start, N_("hexadecimal numbers are not JSON: write it in decimal (got %s)"));
      if (is_digit (s, s->pos))
        return fail_got (s, start, N_("a number cannot start with 0 followed by more digits (got %s)"));
    }
  while (is_digit (s, s->pos))
    s->pos++;
  if (s->pos < s->length && s->data[s->pos] == '.')
    {
      s->pos++;
      whole = FALSE;
      if (!is_digit (s, s->pos))
        return fail_got (s, start, N_("a digit must follow the decimal point (got %s)"));
      while (is_digit (s, s->pos))
        s->pos++;
    }
  if (s->pos < s->length && (s->data[s->pos] == 'e' || s->data[s->pos] == 'E'))
    {
      s->pos++;
      whole = FALSE;
      if (s->pos < s->length && (s->data[s->pos] == '+' || s->data[s->pos] == '-'))
        s->pos++;
      if (!is_digit (s, s->pos))
        return fail_got (s, start, N_("the exponent of a number needs digits (got %s)"));
      while (is_digit (s, s->pos))
        s->pos++;
    }
  if (s->pos < s->length && !is_delimiter (s->data[s->pos]))
    return fail_got (s, start, N_("not a number (got %s)"));

  if (s->pos - start < sizeof buf)
    {
      memcpy (buf, s->data + start, s->pos - start);
      buf[s->pos - start] = '\0';
      text = buf;
    }
  else
    text = long_text = g_strndup (s->data + start, s->pos - start);
  if (whole)
    {
      /* json-glib keeps a whole number as a 64-bit integer and wraps
       * beyond it: 2^64 would read as −1. */
      if (!g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, &i, NULL))
        {
          g_autofree char *got = hyd_json_quote_excerpt (text, -1);
          char suggestion[HYD_JSON_DOUBLE_BUF_SIZE];

          hyd_json_format_double (g_ascii_strtod (text, NULL), suggestion);
          return fail (s, start, N_("the whole number %s is beyond the 64-bit range "
                                    "(±9223372036854775807); write it with an exponent, as %s"),
                       got, suggestion, NULL);
        }
    }
  else if (!isfinite (d = g_ascii_strtod (text, NULL)))
    {
      g_autofree char *got = hyd_json_quote_excerpt (text, -1);
      return fail (s, start, N_("the number %s is too large: the largest is about 1.8e308"), got, NULL);
    }
  if (s->build)
    {
      /* as json-glib: a whole number is a 64-bit integer, any other a double */
      if (whole)
        add_value (s, HYD_JSON_INT)->v.i = i;
      else
        add_value (s, HYD_JSON_DOUBLE)->v.d = d;
    }
  return TRUE;
}

static gboolean
scan_literal (Scan *s)
{
  static const char *const words[] = { "true", "false", "null" };

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      gsize n = strlen (words[i]);

      if (s->length - s->pos >= n && memcmp (s->data + s->pos, words[i], n) == 0
          && (s->pos + n == s->length || is_delimiter (s->data[s->pos + n])))
        {
          s->pos += n;
          if (s->build)
            add_value (s, i == 2 ? HYD_JSON_NULL : i == 0 ? HYD_JSON_TRUE : HYD_JSON_FALSE);
          return TRUE;
        }
    }
  return fail_got (s, s->pos, N_("expected a value: a number, a string in double quotes, an "
                                 "object, an array, true, false or null (got %s)"));
}

static gboolean
scan_value_start (Scan *s, gboolean *opened)
{
  char c = s->data[s->pos];

  *opened = FALSE;
  switch (c)
    {
    case '{':
    case '[':
      if (s->depth == s->max_depth)
        {
          g_autofree char *levels = g_strdup_printf ("%u", s->max_depth);
          return fail (s, s->pos, N_("nested deeper than %s levels of objects and arrays"), levels,
                       NULL);
        }
      if (s->build)
        {
          add_value (s, c == '{' ? HYD_JSON_OBJECT : HYD_JSON_ARRAY);
          s->open_value[s->depth] = s->doc->n_values - 1;
          s->last_child[s->depth] = 0;
        }
      s->kinds[s->depth] = c;
      s->opened[s->depth] = s->pos;
      s->depth++;
      s->pos++;
      *opened = TRUE;
      return TRUE;
    case '"':
      if (!s->build)
        return scan_string (s, NULL);
      if (!scan_string (s, s->value))
        return FALSE;
      add_value (s, HYD_JSON_STRING)->v.str = pool_add (s, s->value);
      return TRUE;
    case '-':
      return scan_number (s);
    case '/':
      return fail (s, s->pos, N_("comments are not allowed in JSON"), NULL);
    default:
      if (g_ascii_isdigit (c))
        return scan_number (s);
      return scan_literal (s);
    }
}

static gboolean
scan_key (Scan *s)
{
  gsize at = s->pos;
  GHashTable *keys;
  gpointer first;

  if (s->data[s->pos] != '"')
    return fail_got (s, s->pos, N_("expected a key in double quotes (got %s)"));
  if (!scan_string (s, s->key_text))
    return FALSE;
  if (s->build)
    {
      /* a small object's keys are compared one by one; the message (with
       * the first key's place) comes from a check-only scan */
      const Value *object = &s->doc->values[s->open_value[s->depth - 1]];

      if (object->count < 16)
        {
          for (guint m = object->v.first; object->count > 0 && m != 0; m = s->doc->values[m].next)
            if (strcmp (s->doc->pool->str + s->doc->values[m].key, s->key_text->str) == 0)
              {
                s->duplicate = TRUE;
                return fail (s, at, "duplicate key", NULL);
              }
          s->key = pool_add (s, s->key_text);
          goto colon;
        }
      if (object->count == 16)
        {
          /* a large one's keys go into a table (emptied when an object
           * at this depth closes), the first 16 too */
          keys = s->keys[s->depth - 1];
          if (keys == NULL)
            keys = s->keys[s->depth - 1] = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
          for (guint m = object->v.first; m != 0; m = s->doc->values[m].next)
            g_hash_table_insert (keys, g_strdup (s->doc->pool->str + s->doc->values[m].key),
                                 GSIZE_TO_POINTER (1));
        }
      if (g_hash_table_contains (s->keys[s->depth - 1], s->key_text->str))
        {
          s->duplicate = TRUE;
          return fail (s, at, "duplicate key", NULL);
        }
      g_hash_table_insert (s->keys[s->depth - 1], g_strdup (s->key_text->str), GSIZE_TO_POINTER (1));
      s->key = pool_add (s, s->key_text);
      goto colon;
    }
  keys = s->keys[s->depth - 1];
  if (keys == NULL)
    keys = s->keys[s->depth - 1] = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  first = g_hash_table_lookup (keys, s->key_text->str);
  if (first != NULL)
    {
      g_autofree char *name = hyd_json_quote_excerpt (s->key_text->str, (gssize) s->key_text->len);
      guint line, column;

      position_of (s->data, GPOINTER_TO_SIZE (first) - 1, &line, &column);
      g_autofree char *first_at = g_strdup_printf ("%u:%u", line, column);
      return fail (s, at, N_("duplicate key %s in one object (first at %s)"), name, first_at, NULL);
    }
  g_hash_table_insert (keys, g_strndup (s->key_text->str, s->key_text->len), GSIZE_TO_POINTER (at + 1));
colon:
  skip_space (s);
  if (s->pos >= s->length)
    return never_closed (s);
  if (s->data[s->pos] != ':')
    return fail_got (s, s->pos, N_("expected ':' after the key (got %s)"));
  s->pos++;
  return TRUE;
}

static void
close_container (Scan *s)
{
  s->depth--;
  if (s->keys[s->depth] != NULL)
    g_hash_table_remove_all (s->keys[s->depth]);
  s->pos++;
}

static gboolean
scan_text (Scan *s)
{
  const char *end = NULL;
  enum { VALUE, AFTER_VALUE, KEY } state = VALUE;

  if (!g_utf8_validate_len (s->data, s->length, &end))
    {
      gsize at = end - s->data;

      if (s->data[at] == '\0')
        return fail (s, at, N_("a NUL byte: this is not a text file (or not UTF-8 text)"), NULL);
      {
        char byte[4];

        g_snprintf (byte, sizeof byte, "%02X", (guchar) s->data[at]);
        return fail (s, at, N_("invalid UTF-8 (byte 0x%s): the file must be UTF-8 text"), byte, NULL);
      }
    }
  if (s->length >= 3 && memcmp (s->data, "\xef\xbb\xbf", 3) == 0)
    s->pos = 3;   /* a byte order mark (RFC 8259 §8.1 lets a reader ignore it) */
  skip_space (s);
  if (s->pos == s->length)
    return fail (s, 0, N_("the file is empty"), NULL);

  for (;;)
    {
      gboolean opened;
      char c;

      skip_space (s);
      if (s->pos == s->length)
        {
          if (s->depth == 0)
            return TRUE;
          return never_closed (s);
        }
      c = s->data[s->pos];
      switch (state)
        {
        case VALUE:
          if (!scan_value_start (s, &opened))
            return FALSE;
          state = AFTER_VALUE;
          if (opened)
            {
              char close = s->kinds[s->depth - 1] == '[' ? ']' : '}';

              skip_space (s);
              if (s->pos < s->length && s->data[s->pos] == close)
                close_container (s);
              else
                state = close == ']' ? VALUE : KEY;
            }
          break;

        case KEY:
          if (!scan_key (s))
            return FALSE;
          state = VALUE;
          break;

        case AFTER_VALUE:
        default:
          if (s->depth == 0)
            return fail_got (s, s->pos, N_("text after the end of the JSON value: a file holds "
                                           "one value (got %s)"));
          if (c == ',')
            {
              s->pos++;
              state = s->kinds[s->depth - 1] == '[' ? VALUE : KEY;
            }
          else if (c == (s->kinds[s->depth - 1] == '[' ? ']' : '}'))
            close_container (s);
          else if (s->kinds[s->depth - 1] == '[')
            return fail_got (s, s->pos, N_("expected ',' or ']' after an element of an array (got %s)"));
          else
            return fail_got (s, s->pos, N_("expected ',' or '}' after a member of an object (got %s)"));
          break;
        }
    }
}

static void
doc_free (HydJsonDoc *doc)
{
  if (doc == NULL)
    return;
  g_free (doc->values);
  g_string_free (doc->pool, TRUE);
  g_free (doc);
}

static gboolean
run_scan (const char *data, gsize length, guint max_depth, HydJsonDoc **doc,
          guint *line, guint *column, char **message, const char **template, char ***args)
{
  Scan s = { 0 };
  gboolean ok;

  s.data = data ? data : "";
  s.length = length;
  s.max_depth = max_depth;
  s.kinds = g_new (char, max_depth);
  s.opened = g_new (gsize, max_depth);
  s.keys = g_new0 (GHashTable *, max_depth);
  s.key_text = g_string_new (NULL);
  s.build = doc != NULL;
  if (s.build)
    {
      s.doc = g_new0 (HydJsonDoc, 1);
      /* about one value for every 8 bytes of a circuit's text */
      s.doc->cap = (guint) MIN (length / 8 + 64, G_MAXUINT / 2);
      s.doc->values = g_new (Value, s.doc->cap);
      s.doc->pool = g_string_sized_new (length / 2 + 16);
      s.open_value = g_new (guint, max_depth);
      s.last_child = g_new (guint, max_depth);
      s.value = g_string_new (NULL);
    }

  ok = scan_text (&s);
  if (!ok && s.duplicate)
    {
      /* the check-only scan names the duplicate and where its first is */
      g_clear_pointer (&s.message, g_free);
      ok = run_scan (data, length, max_depth, NULL, line, column, message, template, args);
      g_assert (!ok);
    }
  else if (!ok)
    {
      guint l, c;

      position_of (s.data, s.error_pos, &l, &c);
      if (line)
        *line = l;
      if (column)
        *column = c;
      if (message)
        *message = g_steal_pointer (&s.message);
      if (template)
        *template = s.template;
      if (args)
        *args = g_steal_pointer (&s.args);
    }
  if (doc != NULL)
    *doc = ok ? g_steal_pointer (&s.doc) : NULL;

  doc_free (s.doc);
  g_free (s.message);
  g_strfreev (s.args);
  for (guint i = 0; i < max_depth; i++)
    if (s.keys[i] != NULL)
      g_hash_table_unref (s.keys[i]);
  g_free (s.keys);
  g_free (s.opened);
  g_free (s.kinds);
  g_free (s.open_value);
  g_free (s.last_child);
  g_string_free (s.key_text, TRUE);
  if (s.value != NULL)
    g_string_free (s.value, TRUE);
  return ok;
}

gboolean
hyd_json_scan (const char *data, gsize length, guint max_depth,
               guint *line, guint *column, char **message)
{
  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  g_return_val_if_fail (max_depth > 0, FALSE);

  return run_scan (data, length, max_depth, NULL, line, column, message, NULL, NULL);
}

HydJsonDoc *
hyd_json_doc_parse (const char *data, gsize length, guint max_depth,
                    guint *line, guint *column, char **message)
{
  HydJsonDoc *doc = NULL;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (max_depth > 0, NULL);

  run_scan (data, length, max_depth, &doc, line, column, message, NULL, NULL);
  return doc;
}

HydJsonDoc *
hyd_json_doc_parse_full (const char *data, gsize length, guint max_depth, guint *line,
                         guint *column, char **message, const char **template, char ***args)
{
  HydJsonDoc *doc = NULL;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (max_depth > 0, NULL);

  run_scan (data, length, max_depth, &doc, line, column, message, template, args);
  return doc;
}

void
hyd_json_doc_free (HydJsonDoc *doc)
{
  doc_free (doc);
}

static const Value *
doc_value (const HydJsonDoc *doc, HydJsonRef v)
{
  g_return_val_if_fail (doc != NULL && v < doc->n_values, NULL);
  return &doc->values[v];
}

HydJsonKind
hyd_json_doc_kind (const HydJsonDoc *doc, HydJsonRef v)
{
  const Value *value = doc_value (doc, v);
  return value ? (HydJsonKind) value->kind : HYD_JSON_NULL;
}

guint
hyd_json_doc_length (const HydJsonDoc *doc, HydJsonRef v)
{
  const Value *value = doc_value (doc, v);
  return value && (value->kind == HYD_JSON_ARRAY || value->kind == HYD_JSON_OBJECT)
         ? value->count : 0;
}

HydJsonRef
hyd_json_doc_first (const HydJsonDoc *doc, HydJsonRef v)
{
  const Value *value = doc_value (doc, v);
  return value && (value->kind == HYD_JSON_ARRAY || value->kind == HYD_JSON_OBJECT)
         && value->count > 0 ? value->v.first : 0;
}

HydJsonRef
hyd_json_doc_next (const HydJsonDoc *doc, HydJsonRef v)
{
  const Value *value = doc_value (doc, v);
  return value ? value->next : 0;
}

const char *
hyd_json_doc_key (const HydJsonDoc *doc, HydJsonRef v)
{
  const Value *value = doc_value (doc, v);
  return value ? doc->pool->str + value->key : NULL;
}

HydJsonRef
hyd_json_doc_member (const HydJsonDoc *doc, HydJsonRef object, const char *key)
{
  if (hyd_json_doc_kind (doc, object) != HYD_JSON_OBJECT)
    return 0;
  for (HydJsonRef m = hyd_json_doc_first (doc, object); m != 0; m = doc->values[m].next)
    if (strcmp (doc->pool->str + doc->values[m].key, key) == 0)
      return m;
  return 0;
}

HydJsonRef
hyd_json_doc_element (const HydJsonDoc *doc, HydJsonRef array, guint index)
{
  HydJsonRef e = 0;

  if (hyd_json_doc_kind (doc, array) != HYD_JSON_ARRAY || index >= doc->values[array].count)
    return 0;
  e = doc->values[array].v.first;
  for (guint k = 0; k < index; k++)
    e = doc->values[e].next;
  return e;
}

const char *
hyd_json_doc_string (const HydJsonDoc *doc, HydJsonRef v)
{
  const Value *value = doc_value (doc, v);
  return value && value->kind == HYD_JSON_STRING ? doc->pool->str + value->v.str : NULL;
}

gboolean
hyd_json_doc_int (const HydJsonDoc *doc, HydJsonRef v, gint64 *out)
{
  const Value *value = doc_value (doc, v);
  if (value == NULL || value->kind != HYD_JSON_INT)
    return FALSE;
  *out = value->v.i;
  return TRUE;
}

gboolean
hyd_json_doc_number (const HydJsonDoc *doc, HydJsonRef v, double *out)
{
  const Value *value = doc_value (doc, v);
  if (value == NULL)
    return FALSE;
  if (value->kind == HYD_JSON_INT)
    *out = (double) value->v.i;
  else if (value->kind == HYD_JSON_DOUBLE)
    *out = value->v.d;
  else
    return FALSE;
  return isfinite (*out);
}

static JsonNode *
leaf_node (const HydJsonDoc *doc, const Value *value)
{
  JsonNode *node = json_node_alloc ();

  switch ((HydJsonKind) value->kind)
    {
    case HYD_JSON_NULL: return json_node_init_null (node);
    case HYD_JSON_TRUE: return json_node_init_boolean (node, TRUE);
    case HYD_JSON_FALSE: return json_node_init_boolean (node, FALSE);
    case HYD_JSON_INT: return json_node_init_int (node, value->v.i);
    case HYD_JSON_DOUBLE: return json_node_init_double (node, value->v.d);
    case HYD_JSON_STRING: return json_node_init_string (node, doc->pool->str + value->v.str);
    case HYD_JSON_OBJECT: return json_node_init_object (node, NULL);
    case HYD_JSON_ARRAY: return json_node_init_array (node, NULL);
    default: break;
    }
  g_return_val_if_reached (json_node_init_null (node));
}

/* The tree json-glib would build of value v: made without recursion (a
 * stack of the containers being filled, as deep as the document). */
JsonNode *
hyd_json_doc_to_node (const HydJsonDoc *doc, HydJsonRef v)
{
  typedef struct { JsonNode *node; HydJsonRef next; } Open;
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (Open));
  const Value *value = doc_value (doc, v);
  JsonNode *root;

  if (value == NULL)
    return NULL;
  root = leaf_node (doc, value);
  if (value->kind == HYD_JSON_OBJECT)
    json_node_take_object (root, json_object_new ());
  else if (value->kind == HYD_JSON_ARRAY)
    json_node_take_array (root, json_array_new ());
  else
    return root;
  g_array_append_val (stack, ((Open) { root, hyd_json_doc_first (doc, v) }));
  while (stack->len > 0)
    {
      Open *top = &g_array_index (stack, Open, stack->len - 1);
      HydJsonRef c = top->next;
      const Value *child;
      JsonNode *node;

      if (c == 0)
        {
          g_array_set_size (stack, stack->len - 1);
          continue;
        }
      child = &doc->values[c];
      top->next = child->next;
      node = leaf_node (doc, child);
      if (child->kind == HYD_JSON_OBJECT)
        json_node_take_object (node, json_object_new ());
      else if (child->kind == HYD_JSON_ARRAY)
        json_node_take_array (node, json_array_new ());
      if (JSON_NODE_HOLDS_ARRAY (top->node))
        json_array_add_element (json_node_get_array (top->node), node);
      else
        json_object_set_member (json_node_get_object (top->node), doc->pool->str + child->key, node);
      if (child->kind == HYD_JSON_OBJECT || child->kind == HYD_JSON_ARRAY)
        g_array_append_val (stack, ((Open) { node, hyd_json_doc_first (doc, c) }));
    }
  return root;
}

JsonNode *
hyd_json_parse (const char *data, gsize length, guint max_depth,
                guint *line, guint *column, char **message)
{
  g_autoptr (HydJsonDoc) doc = NULL;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (max_depth > 0, NULL);

  if (!run_scan (data, length, max_depth, &doc, line, column, message, NULL, NULL))
    return NULL;
  return hyd_json_doc_to_node (doc, 0);
}

gboolean
hyd_json_node_get_number (JsonNode *node, double *value)
{
  GType type;

  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE)
    return FALSE;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    *value = (double) json_node_get_int (node);
  else if (type == G_TYPE_DOUBLE)
    *value = json_node_get_double (node);
  else
    return FALSE;
  return isfinite (*value);
}
