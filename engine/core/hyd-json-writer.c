/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-json-writer.c — deterministic JSON text for JsonNode trees.
 *
 * json-glib's generator writes doubles with 17 significant digits ("0.1"
 * becomes 0.10000000000000001), which makes saved circuits noisy; this
 * writer picks the shortest of %.15g, %.16g and %.17g that reads back
 * exactly, with g_ascii_formatd so the decimal point is always '.'. */
#include "hyd-json-writer.h"

#include <math.h>
#include <string.h>

/* Arrays of numbers nested in arrays (points, routes) stay on one line up to
 * this many characters; longer ones put one element on each line. */
#define COMPACT_NESTED_MAX 60

/* "1e-09" → "1e-9", "1e+20" → "1e20": both are valid JSON, the short form
 * reads better. */
static void
trim_exponent (char *buf)
{
  char *e = strchr (buf, 'e');
  char *digits, *src;

  if (e == NULL)
    return;
  digits = e + 1;
  if (*digits == '+')
    memmove (digits, digits + 1, strlen (digits + 1) + 1);
  else if (*digits == '-')
    digits++;
  src = digits;
  while (*src == '0' && src[1] != '\0')
    src++;
  if (src != digits)
    memmove (digits, src, strlen (src) + 1);
}

char *
hyd_json_format_double (double value, char buf[HYD_JSON_DOUBLE_BUF_SIZE])
{
  static const char *const formats[] = { "%.15g", "%.16g", "%.17g" };

  if (isnan (value))
    return strcpy (buf, "null");
  if (isinf (value))
    return strcpy (buf, value > 0 ? "1e999" : "-1e999");
  /* −0 would read back as the integer 0; both are zero. */
  if (value == 0.0)
    return strcpy (buf, "0");

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_ascii_formatd (buf, HYD_JSON_DOUBLE_BUF_SIZE, formats[i], value);
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }
  trim_exponent (buf);
  return buf;
}

/* Writes only what hyd_json_scan accepts: valid UTF-8 passes through, every
 * control character is escaped, and a byte that is not part of valid UTF-8
 * (a string built in memory; a loaded one is always valid) becomes U+FFFD,
 * the replacement character. */
static void
write_string (GString *out, const char *str)
{
  const char *p = str;

  g_string_append_c (out, '"');
  while (*p != '\0')
    {
      guchar c = (guchar) *p;

      switch (c)
        {
        case '"': g_string_append (out, "\\\""); p++; continue;
        case '\\': g_string_append (out, "\\\\"); p++; continue;
        case '\n': g_string_append (out, "\\n"); p++; continue;
        case '\r': g_string_append (out, "\\r"); p++; continue;
        case '\t': g_string_append (out, "\\t"); p++; continue;
        case '\b': g_string_append (out, "\\b"); p++; continue;
        case '\f': g_string_append (out, "\\f"); p++; continue;
        default:
          break;
        }
      if (c < 0x20 || c == 0x7f)
        {
          g_string_append_printf (out, "\\u%04x", c);
          p++;
        }
      else if (c < 0x80)
        {
          g_string_append_c (out, (char) c);
          p++;
        }
      else
        {
          /* at most 4 bytes: the string ends at its NUL in any case */
          gunichar u = g_utf8_get_char_validated (p, -1);

          if (u == (gunichar) -1 || u == (gunichar) -2)
            {
              g_string_append (out, "\xef\xbf\xbd");
              p++;
            }
          else
            {
              const char *next = g_utf8_next_char (p);
              g_string_append_len (out, p, next - p);
              p = next;
            }
        }
    }
  g_string_append_c (out, '"');
}

static void
write_value (GString *out, JsonNode *node)
{
  GType type = json_node_get_value_type (node);

  if (type == G_TYPE_INT64)
    g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
  else if (type == G_TYPE_DOUBLE)
    {
      char buf[HYD_JSON_DOUBLE_BUF_SIZE];
      double value = json_node_get_double (node);

      /* JSON has no infinity or NaN, and a reader refuses 1e999 */
      if (isfinite (value))
        g_string_append (out, hyd_json_format_double (value, buf));
      else
        g_string_append (out, "null");
    }
  else if (type == G_TYPE_BOOLEAN)
    g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
  else if (type == G_TYPE_STRING)
    write_string (out, json_node_get_string (node));
  else
    g_string_append (out, "null");
}

static gboolean
is_number (JsonNode *node)
{
  GType type;

  if (JSON_NODE_TYPE (node) != JSON_NODE_VALUE)
    return FALSE;
  type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

/* An array of numbers, or of such arrays. *nested is set when it holds arrays. */
static gboolean
is_numeric_array (JsonArray *array, gboolean *nested)
{
  guint n = json_array_get_length (array);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      gboolean inner_nested;

      if (JSON_NODE_HOLDS_ARRAY (element))
        {
          if (!is_numeric_array (json_node_get_array (element), &inner_nested))
            return FALSE;
          *nested = TRUE;
        }
      else if (!is_number (element))
        return FALSE;
    }
  return TRUE;
}

static void
write_compact_array (GString *out, JsonArray *array)
{
  guint n = json_array_get_length (array);

  g_string_append_c (out, '[');
  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (i > 0)
        g_string_append (out, ", ");
      if (JSON_NODE_HOLDS_ARRAY (element))
        write_compact_array (out, json_node_get_array (element));
      else
        write_value (out, element);
    }
  g_string_append_c (out, ']');
}

static void
write_indent (GString *out, guint indent)
{
  for (guint i = 0; i < indent; i++)
    g_string_append (out, "  ");
}

static void
write_array (GString *out, JsonArray *array, guint indent)
{
  guint n = json_array_get_length (array);
  gboolean nested = FALSE;

  if (n == 0)
    {
      g_string_append (out, "[]");
      return;
    }

  if (is_numeric_array (array, &nested))
    {
      gsize start = out->len;

      write_compact_array (out, array);
      if (!nested || out->len - start <= COMPACT_NESTED_MAX)
        return;
      g_string_truncate (out, start);
    }

  g_string_append (out, "[\n");
  for (guint i = 0; i < n; i++)
    {
      write_indent (out, indent + 1);
      hyd_json_write_node (out, json_array_get_element (array, i), indent + 1);
      g_string_append (out, i + 1 < n ? ",\n" : "\n");
    }
  write_indent (out, indent);
  g_string_append_c (out, ']');
}

static void
write_object (GString *out, JsonObject *object, guint indent)
{
  g_autoptr(GList) members = json_object_get_members (object);

  if (members == NULL)
    {
      g_string_append (out, "{}");
      return;
    }

  g_string_append (out, "{\n");
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;

      write_indent (out, indent + 1);
      write_string (out, name);
      g_string_append (out, ": ");
      hyd_json_write_node (out, json_object_get_member (object, name), indent + 1);
      g_string_append (out, l->next != NULL ? ",\n" : "\n");
    }
  write_indent (out, indent);
  g_string_append_c (out, '}');
}

void
hyd_json_write_node (GString *out, JsonNode *node, guint indent)
{
  g_return_if_fail (out != NULL);

  if (node == NULL)
    {
      g_string_append (out, "null");
      return;
    }

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      write_object (out, json_node_get_object (node), indent);
      break;
    case JSON_NODE_ARRAY:
      write_array (out, json_node_get_array (node), indent);
      break;
    case JSON_NODE_VALUE:
      write_value (out, node);
      break;
    case JSON_NODE_NULL:
    default:
      g_string_append (out, "null");
      break;
    }
}

char *
hyd_json_to_string (JsonNode *node, gsize *length)
{
  GString *out = g_string_new (NULL);

  hyd_json_write_node (out, node, 0);
  g_string_append_c (out, '\n');
  if (length)
    *length = out->len;
  return g_string_free (out, FALSE);
}
