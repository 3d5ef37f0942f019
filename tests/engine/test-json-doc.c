/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-json-doc.c — the strict reader's flat document (hyd-json-scan.h):
 * the same values json-glib's parser gives, duplicate keys found in small
 * and large objects, and the accessors the circuit reader uses. */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "hyd-json-scan.h"

static char *
tree_text (JsonNode *node)
{
  return json_to_string (node, FALSE);
}

/* A random JSON value of at most `depth` levels, written into text. */
static void
random_value (GRand *rand, GString *text, guint depth)
{
  guint kind = g_rand_int_range (rand, 0, depth > 0 ? 8 : 6);

  switch (kind)
    {
    case 0: g_string_append (text, "null"); break;
    case 1: g_string_append (text, g_rand_boolean (rand) ? "true" : "false"); break;
    case 2: g_string_append_printf (text, "%d", g_rand_int_range (rand, -100000, 100000)); break;
    case 3:
      {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        g_string_append (text, g_ascii_dtostr (buf, sizeof buf, g_rand_double_range (rand, -1e6, 1e6)));
        if (strchr (buf, '.') == NULL && strchr (buf, 'e') == NULL)
          g_string_append (text, ".5");
        break;
      }
    case 4:
    case 5:
      g_string_append_printf (text, "\"s%u\\n\\u00e9\"", g_rand_int_range (rand, 0, 1000));
      break;
    case 6:
      {
        guint n = g_rand_int_range (rand, 0, 5);
        g_string_append_c (text, '[');
        for (guint i = 0; i < n; i++)
          {
            if (i)
              g_string_append_c (text, ',');
            random_value (rand, text, depth - 1);
          }
        g_string_append_c (text, ']');
        break;
      }
    default:
      {
        /* up to 40 members: past the 16 the reader compares one by one */
        guint n = g_rand_int_range (rand, 0, g_rand_boolean (rand) ? 5 : 40);
        g_string_append_c (text, '{');
        for (guint i = 0; i < n; i++)
          {
            g_string_append_printf (text, "%s\"k%u\": ", i ? ", " : "", i);
            random_value (rand, text, depth - 1);
          }
        g_string_append_c (text, '}');
        break;
      }
    }
}

/* Every accepted text gives the tree json-glib gives. */
static void
test_same_tree (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261126);

  for (guint round = 0; round < 2000; round++)
    {
      g_autoptr (GString) text = g_string_new (NULL);
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (JsonNode) ours = NULL;
      g_autofree char *message = NULL;
      g_autofree char *a = NULL, *b = NULL;

      random_value (rand, text, 5);
      ours = hyd_json_parse (text->str, text->len, HYD_JSON_MAX_DEPTH, NULL, NULL, &message);
      g_assert_no_error (NULL);
      if (ours == NULL)
        g_error ("refused %s: %s", text->str, message);
      g_assert_true (json_parser_load_from_data (parser, text->str, (gssize) text->len, NULL));
      a = tree_text (ours);
      b = tree_text (json_parser_get_root (parser));
      g_assert_cmpstr (a, ==, b);
    }
}

/* An object with n distinct keys and, if dup_at < n, key number dup_of
 * written again at position dup_at. */
static char *
object_text (guint n, guint dup_of, guint dup_at)
{
  GString *text = g_string_new ("{");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s\"k%u\": %u", i ? ", " : "", i == dup_at ? dup_of : i, i);
  g_string_append_c (text, '}');
  return g_string_free (text, FALSE);
}

/* A duplicate is found wherever both keys stand, in objects of every size
 * (the reader compares small objects' keys one by one and puts a large
 * one's into a table), and the message names the first one's place. */
static void
test_duplicates (void)
{
  for (guint n = 2; n <= 40; n++)
    for (guint first = 0; first < n; first++)
      for (guint at = first + 1; at < n; at++)
        {
          g_autofree char *text = object_text (n, first, at);
          g_autofree char *message = NULL;
          g_autoptr (HydJsonDoc) doc = hyd_json_doc_parse (text, strlen (text), HYD_JSON_MAX_DEPTH,
                                                           NULL, NULL, &message);
          g_autofree char *key = g_strdup_printf ("duplicate key \"k%u\"", first);
          if (doc != NULL)
            g_error ("accepted a duplicate: %s", text);
          g_assert_nonnull (strstr (message, key));
        }
}

/* The table of a large object is emptied when it closes: a second large
 * object at the same depth still finds a duplicate among its first 16
 * keys, and a key of the first object is no duplicate in the second. */
static void
test_duplicates_in_siblings (void)
{
  g_autofree char *unique = object_text (30, 0, 30);
  g_autofree char *twice = object_text (30, 3, 20);
  g_autofree char *ok_text = g_strdup_printf ("[%s, %s]", unique, unique);
  g_autofree char *bad_text = g_strdup_printf ("[%s, %s]", unique, twice);
  g_autofree char *message = NULL;
  g_autoptr (HydJsonDoc) ok = hyd_json_doc_parse (ok_text, strlen (ok_text), HYD_JSON_MAX_DEPTH,
                                                  NULL, NULL, NULL);
  g_autoptr (HydJsonDoc) bad = hyd_json_doc_parse (bad_text, strlen (bad_text), HYD_JSON_MAX_DEPTH,
                                                   NULL, NULL, &message);

  g_assert_nonnull (ok);
  g_assert_null (bad);
  g_assert_nonnull (strstr (message, "duplicate key \"k3\""));
}

static void
test_accessors (void)
{
  const char *text = "{\"a\": [1, 2.5, \"x\\u00e9\", true, null, {}],"
                     " \"b\": {\"c\": -9223372036854775807}, \"\": 1e308}";
  g_autoptr (HydJsonDoc) doc = hyd_json_doc_parse (text, strlen (text), HYD_JSON_MAX_DEPTH,
                                                   NULL, NULL, NULL);
  HydJsonRef a, b, c, e;
  double d;
  gint64 i;

  g_assert_nonnull (doc);
  g_assert_cmpint (hyd_json_doc_kind (doc, 0), ==, HYD_JSON_OBJECT);
  g_assert_cmpuint (hyd_json_doc_length (doc, 0), ==, 3);
  a = hyd_json_doc_member (doc, 0, "a");
  b = hyd_json_doc_member (doc, 0, "b");
  g_assert_cmpuint (a, ==, hyd_json_doc_first (doc, 0));
  g_assert_cmpuint (b, ==, hyd_json_doc_next (doc, a));
  g_assert_cmpstr (hyd_json_doc_key (doc, b), ==, "b");
  g_assert_cmpuint (hyd_json_doc_member (doc, 0, "z"), ==, 0);
  g_assert_cmpuint (hyd_json_doc_member (doc, a, "a"), ==, 0);   /* not an object */
  g_assert_cmpstr (hyd_json_doc_key (doc, hyd_json_doc_next (doc, b)), ==, "");

  g_assert_cmpuint (hyd_json_doc_length (doc, a), ==, 6);
  g_assert_true (hyd_json_doc_int (doc, hyd_json_doc_element (doc, a, 0), &i) && i == 1);
  g_assert_false (hyd_json_doc_int (doc, hyd_json_doc_element (doc, a, 1), &i));
  g_assert_true (hyd_json_doc_number (doc, hyd_json_doc_element (doc, a, 1), &d) && d == 2.5);
  g_assert_cmpstr (hyd_json_doc_string (doc, hyd_json_doc_element (doc, a, 2)), ==, "x\xc3\xa9");
  g_assert_null (hyd_json_doc_string (doc, hyd_json_doc_element (doc, a, 0)));
  g_assert_cmpint (hyd_json_doc_kind (doc, hyd_json_doc_element (doc, a, 3)), ==, HYD_JSON_TRUE);
  g_assert_cmpint (hyd_json_doc_kind (doc, hyd_json_doc_element (doc, a, 4)), ==, HYD_JSON_NULL);
  e = hyd_json_doc_element (doc, a, 5);
  g_assert_cmpint (hyd_json_doc_kind (doc, e), ==, HYD_JSON_OBJECT);
  g_assert_cmpuint (hyd_json_doc_length (doc, e), ==, 0);
  g_assert_cmpuint (hyd_json_doc_first (doc, e), ==, 0);
  g_assert_cmpuint (hyd_json_doc_element (doc, a, 6), ==, 0);

  c = hyd_json_doc_member (doc, b, "c");
  g_assert_true (hyd_json_doc_int (doc, c, &i) && i == -G_MAXINT64);
  {
    g_autoptr (JsonNode) node = hyd_json_doc_to_node (doc, b);
    g_autofree char *json = tree_text (node);
    g_assert_cmpstr (json, ==, "{\"c\":-9223372036854775807}");
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/json-doc/same-tree", test_same_tree);
  g_test_add_func ("/engine/json-doc/duplicates", test_duplicates);
  g_test_add_func ("/engine/json-doc/duplicates-in-siblings", test_duplicates_in_siblings);
  g_test_add_func ("/engine/json-doc/accessors", test_accessors);
  return g_test_run ();
}
