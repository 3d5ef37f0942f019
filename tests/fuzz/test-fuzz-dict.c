/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-fuzz-dict.c — the fuzzing dictionary (tests/fuzz/bramah.dict) parses
 * as libFuzzer reads it and names every component type, port, parameter,
 * choice and solver of this build, so a new component is fuzzed with its
 * words from the start. */
#include <string.h>
#include <gio/gio.h>
#include "hyd-catalogue.h"
#include "hyd-ode.h"

static GHashTable *tokens; /* unescaped dictionary values */

/* libFuzzer's ParseDictionaryFile: `name="value"` (name optional), value
 * with \\, \" and \xAB escapes; '#' lines and blank lines are comments. */
static char *
parse_line (const char *line, GError **error)
{
  const char *q = strchr (line, '"');
  gsize len = strlen (line);

  if (q == NULL || len < 2 || line[len - 1] != '"' || q == line + len - 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "not name=\"value\": %s", line);
      return NULL;
    }
  for (const char *c = line; c < q; c++)
    if (!(g_ascii_isalnum (*c) || *c == '_' || (*c == '=' && c == q - 1)))
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "bad name: %s", line);
        return NULL;
      }
  GString *value = g_string_new (NULL);
  for (const char *c = q + 1; c < line + len - 1; c++)
    {
      if (*c != '\\')
        {
          if (*c == '"')
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "unescaped quote: %s", line);
              g_string_free (value, TRUE);
              return NULL;
            }
          g_string_append_c (value, *c);
          continue;
        }
      c++;
      if (*c == '\\' || *c == '"')
        g_string_append_c (value, *c);
      else if (*c == 'x' && g_ascii_isxdigit (c[1]) && g_ascii_isxdigit (c[2]))
        {
          g_string_append_c (value, (char) (g_ascii_xdigit_value (c[1]) * 16 + g_ascii_xdigit_value (c[2])));
          c += 2;
        }
      else
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "bad escape: %s", line);
          g_string_free (value, TRUE);
          return NULL;
        }
    }
  return g_string_free (value, FALSE);
}

static void
test_dict_parses (void)
{
  g_assert_cmpuint (g_hash_table_size (tokens), >, 100);
}

static void
expect (const char *token)
{
  if (!g_hash_table_contains (tokens, token))
    g_test_fail_printf ("bramah.dict lacks %s", token);
}

static void
test_dict_names_catalogue (void)
{
  guint n_types;
  const HydComponentType *const *types = hyd_catalogue_list (&n_types);

  g_assert_cmpuint (n_types, >, 0);
  for (guint i = 0; i < n_types; i++)
    {
      const HydComponentType *t = types[i];
      g_autofree char *id = g_strdup_printf ("\"%s\"", t->id);
      expect (id);
      for (guint p = 0; p < t->n_ports; p++)
        {
          g_autofree char *port = g_strdup_printf (".%s\"", t->ports[p].name);
          expect (port);
        }
      for (guint p = 0; p < t->n_params; p++)
        {
          g_autofree char *key = g_strdup_printf ("\"%s\":", t->params[p].name);
          expect (key);
          for (const char *const *c = t->params[p].choices; c != NULL && *c != NULL; c++)
            {
              g_autofree char *choice = g_strdup_printf ("\"%s\"", *c);
              expect (choice);
            }
        }
    }
}

static void
test_dict_names_solvers (void)
{
  guint n;
  const HydSolverInfo *solvers = hyd_solver_list (&n);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("\"%s\"", solvers[i].id);
      expect (id);
    }
}

int
main (int argc, char **argv)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  g_test_init (&argc, &argv, NULL);
  if (!g_file_get_contents (HYD_FUZZ_DICT, &text, NULL, &error))
    g_error ("%s", error->message);
  tokens = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = g_strstrip (lines[i]);
      if (line[0] == '\0' || line[0] == '#')
        continue;
      char *value = parse_line (line, &error);
      if (value == NULL)
        g_error ("bramah.dict line %u: %s", i + 1, error->message);
      g_hash_table_add (tokens, value);
    }

  g_test_add_func ("/fuzz/dict/parses", test_dict_parses);
  g_test_add_func ("/fuzz/dict/names-catalogue", test_dict_names_catalogue);
  g_test_add_func ("/fuzz/dict/names-solvers", test_dict_names_solvers);
  int rc = g_test_run ();
  g_hash_table_unref (tokens);
  return rc;
}
