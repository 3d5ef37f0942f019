/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-json-scan.c — a strict JSON check before json-glib parses.
 *
 * One pass over the text with an explicit stack (never recursion), so its
 * cost is linear in the length and its memory is bounded by the depth and
 * the keys of the open objects. Grammar: RFC 8259 (Bray, 2017) §2–§7;
 * surrogate pairs: The Unicode Standard 15.0, §3.8. Line and column are
 * computed only for an error, from the byte offset where it starts. */
#include "hyd-json-scan.h"
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
  GString *key;            /* the key being read, decoded */
  gsize error_pos;
  char *message;
  /* building (hyd_json_parse): the tree, its open containers and the
   * decoded text of the string value being read */
  gboolean build;
  JsonNode *root;
  JsonNode **nodes;        /* [max_depth] the node of each open container */
  GString *value;
  gboolean duplicate;      /* a duplicate key was found while building */
} Scan;

static gboolean fail (Scan *s, gsize pos, const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (Scan *s, gsize pos, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  s->message = g_strdup_vprintf (format, args);
  va_end (args);
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

/* fail with " (got EXCERPT)" after the message: the n bytes at pos */
static gboolean
fail_excerpt (Scan *s, gsize pos, gsize n, const char *what)
{
  g_autofree char *got = hyd_json_quote_excerpt (s->data + pos, (gssize) n);
  return fail (s, pos, "%s (got %s)", what, got);
}

/* fail with " (got WORD)": the word at pos */
static gboolean
fail_got (Scan *s, gsize pos, const char *what)
{
  g_autofree char *got = token_at (s, pos);
  return fail (s, pos, "%s (got %s)", what, got);
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

/* Puts a new value into the open container (or makes it the root); a
 * member takes the key just read. */
static void
attach (Scan *s, JsonNode *node)
{
  JsonNode *parent;

  if (s->depth == 0)
    {
      s->root = node;
      return;
    }
  parent = s->nodes[s->depth - 1];
  if (s->kinds[s->depth - 1] == '[')
    json_array_add_element (json_node_get_array (parent), node);
  else
    json_object_set_member (json_node_get_object (parent), s->key->str, node);
}

static gboolean
never_closed (Scan *s)
{
  gsize at = s->opened[s->depth - 1];

  return fail (s, at, "this '%c' is never closed: the file ends inside it",
               s->kinds[s->depth - 1]);
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
        return fail (s, start, "the string that starts here is never closed");
      c = (guchar) s->data[s->pos];
      if (c == '"')
        {
          s->pos++;
          return TRUE;
        }
      if (c < 0x20)
        return fail (s, s->pos, "a control character (U+%04X) in a string must be written "
                     "as an escape (\\n, \\t or \\u%04x)", c, c);
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
                                   "\\u must be followed by four hexadecimal digits");
            if (u == 0)
              return fail (s, esc, "\\u0000 (the NUL character) is not allowed in a string");
            if (u >= 0xdc00 && u <= 0xdfff)
              return fail (s, esc, "\\u%04x is a lone low surrogate: it is only valid after a "
                           "high surrogate (\\ud800–\\udbff), and is not a character", u);
            s->pos += 6;
            if (u >= 0xd800 && u <= 0xdbff)
              {
                low = read_u_escape (s, s->pos);
                if (low < 0xdc00 || low > 0xdfff)
                  return fail (s, esc, "\\u%04x is a lone high surrogate: a low surrogate "
                               "(\\udc00–\\udfff) must follow it, and alone it is not a "
                               "character", u);
                u = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
                s->pos += 6;
              }
            if (decoded)
              g_string_append_unichar (decoded, (gunichar) u);
            break;
          default:
            return fail_excerpt (s, esc, MIN (2, s->length - esc),
                                 "unknown escape in a string (valid: \\\" \\\\ \\/ \\b \\f "
                                 "\\n \\r \\t \\uXXXX)");
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
    return fail_got (s, start, "a number needs a digit after '-'");
  if (s->data[s->pos] == '0')
    {
      s->pos++;
      if (s->pos < s->length && (s->data[s->pos] == 'x' || s->data[s->pos] == 'X'))
        return fail_got (s, start, "hexadecimal numbers are not JSON: write it in decimal");
      if (is_digit (s, s->pos))
        return fail_got (s, start, "a number cannot start with 0 followed by more digits");
    }
  while (is_digit (s, s->pos))
    s->pos++;
  if (s->pos < s->length && s->data[s->pos] == '.')
    {
      s->pos++;
      whole = FALSE;
      if (!is_digit (s, s->pos))
        return fail_got (s, start, "a digit must follow the decimal point");
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
        return fail_got (s, start, "the exponent of a number needs digits");
      while (is_digit (s, s->pos))
        s->pos++;
    }
  if (s->pos < s->length && !is_delimiter (s->data[s->pos]))
    return fail_got (s, start, "not a number");

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
          return fail (s, start, "the whole number %s is beyond the 64-bit range "
                       "(±9223372036854775807); write it with an exponent, as %s", got,
                       suggestion);
        }
    }
  else if (!isfinite (d = g_ascii_strtod (text, NULL)))
    {
      g_autofree char *got = hyd_json_quote_excerpt (text, -1);
      return fail (s, start, "the number %s is too large: the largest is about 1.8e308", got);
    }
  if (s->build)
    {
      /* as json-glib: a whole number is a 64-bit integer, any other a double */
      JsonNode *node = json_node_alloc ();

      if (whole)
        json_node_init_int (node, i);
      else
        json_node_init_double (node, d);
      attach (s, node);
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
            {
              JsonNode *node = json_node_alloc ();

              if (i == 2)
                json_node_init_null (node);
              else
                json_node_init_boolean (node, i == 0);
              attach (s, node);
            }
          return TRUE;
        }
    }
  return fail_got (s, s->pos, "expected a value: a number, a string in double quotes, an "
                   "object, an array, true, false or null");
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
        return fail (s, s->pos, "nested deeper than %u levels of objects and arrays",
                     s->max_depth);
      if (s->build)
        {
          JsonNode *node = json_node_alloc ();

          json_node_init (node, c == '{' ? JSON_NODE_OBJECT : JSON_NODE_ARRAY);
          if (c == '{')
            json_node_take_object (node, json_object_new ());
          else
            json_node_take_array (node, json_array_new ());
          attach (s, node);
          s->nodes[s->depth] = node;
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
      {
        JsonNode *node = json_node_alloc ();

        json_node_init_string (node, s->value->str);
        attach (s, node);
      }
      return TRUE;
    case '-':
      return scan_number (s);
    case '/':
      return fail (s, s->pos, "comments are not allowed in JSON");
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
    return fail_got (s, s->pos, "expected a key in double quotes");
  if (!scan_string (s, s->key))
    return FALSE;
  if (s->build)
    {
      /* the tree's object finds a duplicate without a second table; the
       * message (with the first key's place) comes from a check-only scan */
      if (json_object_has_member (json_node_get_object (s->nodes[s->depth - 1]), s->key->str))
        {
          s->duplicate = TRUE;
          return fail (s, at, "duplicate key");
        }
      goto colon;
    }
  keys = s->keys[s->depth - 1];
  if (keys == NULL)
    keys = s->keys[s->depth - 1] = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  first = g_hash_table_lookup (keys, s->key->str);
  if (first != NULL)
    {
      g_autofree char *name = hyd_json_quote_excerpt (s->key->str, (gssize) s->key->len);
      guint line, column;

      position_of (s->data, GPOINTER_TO_SIZE (first) - 1, &line, &column);
      return fail (s, at, "duplicate key %s in one object (first at %u:%u)", name, line, column);
    }
  g_hash_table_insert (keys, g_strndup (s->key->str, s->key->len), GSIZE_TO_POINTER (at + 1));
colon:
  skip_space (s);
  if (s->pos >= s->length)
    return never_closed (s);
  if (s->data[s->pos] != ':')
    return fail_got (s, s->pos, "expected ':' after the key");
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
        return fail (s, at, "a NUL byte: this is not a text file (or not UTF-8 text)");
      return fail (s, at, "invalid UTF-8 (byte 0x%02X): the file must be UTF-8 text",
                   (guchar) s->data[at]);
    }
  if (s->length >= 3 && memcmp (s->data, "\xef\xbb\xbf", 3) == 0)
    s->pos = 3;   /* a byte order mark (RFC 8259 §8.1 lets a reader ignore it) */
  skip_space (s);
  if (s->pos == s->length)
    return fail (s, 0, "the file is empty");

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
            return fail_got (s, s->pos, "text after the end of the JSON value: a file holds "
                             "one value");
          if (c == ',')
            {
              s->pos++;
              state = s->kinds[s->depth - 1] == '[' ? VALUE : KEY;
            }
          else if (c == (s->kinds[s->depth - 1] == '[' ? ']' : '}'))
            close_container (s);
          else if (s->kinds[s->depth - 1] == '[')
            return fail_got (s, s->pos, "expected ',' or ']' after an element of an array");
          else
            return fail_got (s, s->pos, "expected ',' or '}' after a member of an object");
          break;
        }
    }
}

static gboolean
run_scan (const char *data, gsize length, guint max_depth, JsonNode **root,
          guint *line, guint *column, char **message)
{
  Scan s = { 0 };
  gboolean ok;

  s.data = data ? data : "";
  s.length = length;
  s.max_depth = max_depth;
  s.kinds = g_new (char, max_depth);
  s.opened = g_new (gsize, max_depth);
  s.keys = g_new0 (GHashTable *, max_depth);
  s.key = g_string_new (NULL);
  s.build = root != NULL;
  if (s.build)
    {
      s.nodes = g_new0 (JsonNode *, max_depth);
      s.value = g_string_new (NULL);
    }

  ok = scan_text (&s);
  if (!ok && s.duplicate)
    {
      /* the check-only scan names the duplicate and where its first is */
      g_clear_pointer (&s.message, g_free);
      ok = run_scan (data, length, max_depth, NULL, line, column, message);
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
    }
  if (root != NULL)
    *root = ok ? g_steal_pointer (&s.root) : NULL;

  g_clear_pointer (&s.root, json_node_unref);
  g_free (s.message);
  for (guint i = 0; i < max_depth; i++)
    if (s.keys[i] != NULL)
      g_hash_table_unref (s.keys[i]);
  g_free (s.keys);
  g_free (s.opened);
  g_free (s.kinds);
  g_free (s.nodes);
  g_string_free (s.key, TRUE);
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

  return run_scan (data, length, max_depth, NULL, line, column, message);
}

JsonNode *
hyd_json_parse (const char *data, gsize length, guint max_depth,
                guint *line, guint *column, char **message)
{
  JsonNode *root = NULL;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (max_depth > 0, NULL);

  run_scan (data, length, max_depth, &root, line, column, message);
  return root;
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
