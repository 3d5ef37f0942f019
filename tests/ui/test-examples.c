/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-examples.c — the examples gallery's list (no display). */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include "hyd-catalogue.h"
#include "hyd-circuit.h"
#include "hyd-display-units.h"
#include "hyd-examples.h"
#include "hyd-param-value.h"

static void
test_shipped (void)
{
  const char *dir = hyd_examples_get_directory ();
  g_assert_true (g_file_test (dir, G_FILE_TEST_IS_DIR));
  g_autoptr (GPtrArray) examples = hyd_examples_list (dir);

  /* every .bramah file of the folder is there */
  guint n_files = 0;
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while ((name = g_dir_read_name (d)))
    n_files += g_str_has_suffix (name, ".bramah");
  g_assert_cmpuint (n_files, >=, 12);
  g_assert_cmpuint (examples->len, ==, n_files);

  for (guint i = 0; i < examples->len; i++)
    {
      const HydExample *e = g_ptr_array_index (examples, i);
      g_assert_true (g_file_test (e->path, G_FILE_TEST_IS_REGULAR));
      g_assert_true (g_str_has_suffix (e->path, ".bramah"));
      g_assert_false (g_str_has_suffix (e->name, ".bramah"));
      /* the shipped examples all have a title and a description */
      g_assert_cmpstr (e->title, !=, e->name);
      g_assert_cmpuint (strlen (e->description), >, 40);
      g_autofree char *summary = hyd_example_dup_summary (e);
      g_assert_cmpuint (strlen (summary), >, 0);
      g_assert_null (strstr (summary, "\n\n"));
      g_assert_true (g_str_has_prefix (e->description, summary));
      /* sorted by title */
      if (i > 0)
        {
          const HydExample *prev = g_ptr_array_index (examples, i - 1);
          g_autofree char *a = g_utf8_collate_key (prev->title, -1);
          g_autofree char *b = g_utf8_collate_key (e->title, -1);
          g_assert_cmpint (strcmp (a, b), <=, 0);
        }
    }
}

static void
test_bad_files_left_out (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bramah-examples-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *good = g_build_filename (dir, "b-good.bramah", NULL);
  g_autofree char *untitled = g_build_filename (dir, "a-untitled.bramah", NULL);
  g_autofree char *bad = g_build_filename (dir, "broken.bramah", NULL);
  g_autofree char *other = g_build_filename (dir, "notes.txt", NULL);
  g_assert_true (g_file_set_contents (good,
                                      "{\"format\": \"bramah-circuit\", \"version\": 1, \"title\": \"zeta\", "
                                      "\"description\": \"First.\\n\\nSecond.\", \"components\": [], "
                                      "\"connections\": []}",
                                      -1, NULL));
  g_assert_true (g_file_set_contents (untitled, "{\"format\": \"bramah-circuit\", \"version\": 1, "
                                      "\"components\": [], \"connections\": []}", -1, NULL));
  g_assert_true (g_file_set_contents (bad, "{ not json", -1, NULL));
  g_assert_true (g_file_set_contents (other, "hello", -1, NULL));

  g_test_expect_message ("hyd-examples", G_LOG_LEVEL_WARNING, "*broken.bramah*");
  g_autoptr (GPtrArray) examples = hyd_examples_list (dir);
  g_test_assert_expected_messages ();
  g_assert_cmpuint (examples->len, ==, 2);
  /* a file without a title goes by its name: "zeta" sorts after "a-untitled" */
  const HydExample *first = g_ptr_array_index (examples, 0);
  const HydExample *second = g_ptr_array_index (examples, 1);
  g_assert_cmpstr (first->title, ==, "a-untitled");
  g_assert_cmpstr (first->description, ==, "");
  g_assert_cmpstr (second->title, ==, "zeta");
  g_autofree char *summary = hyd_example_dup_summary (second);
  g_assert_cmpstr (summary, ==, "First.");

  g_remove (good);
  g_remove (untitled);
  g_remove (bad);
  g_remove (other);
  g_rmdir (dir);
}

static void
test_missing_folder (void)
{
  g_autoptr (GPtrArray) examples = hyd_examples_list ("/nonexistent/bramah/examples");
  g_assert_nonnull (examples);
  g_assert_cmpuint (examples->len, ==, 0);
}

/* Every value the examples hold is inside the editor's range (which closes
 * the catalogue's open sides at a plausible magnitude): Run never refuses
 * a shipped example. */
static void
test_values_in_editor_range (void)
{
  g_autoptr (GPtrArray) examples = hyd_examples_list (hyd_examples_get_directory ());
  guint checked = 0;
  for (guint i = 0; i < examples->len; i++)
    {
      const HydExample *e = g_ptr_array_index (examples, i);
      g_autoptr (GError) error = NULL;
      g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_file (e->path, &error);
      g_assert_no_error (error);
      for (guint c = 0; c < circuit->components->len; c++)
        {
          const HydCircuitComponent *comp = g_ptr_array_index (circuit->components, c);
          const HydComponentType *type = hyd_catalogue_lookup (comp->type);
          g_assert_nonnull (type);
          for (guint k = 0; k < type->n_params; k++)
            {
              const HydParamInfo *info = &type->params[k];
              JsonNode *written = json_object_has_member (comp->params, info->name)
                                  ? json_object_get_member (comp->params, info->name) : NULL;
              double v;
              if ((info->flags & HYD_PARAM_ENUM) || (written && !JSON_NODE_HOLDS_VALUE (written))
                  || !hyd_param_value_get (info, written, 0.7, &v))
                continue;
              if (!hyd_param_value_in_range (info, v))
                g_error ("%s: %s.%s = %g is outside the editor's range", e->name, comp->id, info->name, v);
              checked++;
            }
        }
    }
  g_assert_cmpuint (checked, >, 100);
}

/* Issue 8, item 15: the teaching examples give their parameters as the
 * exact SI value of a round engineering number, so the panel shows
 * "1500 rpm", "10 cm³/rev", "40 L/min" (not 1499.24 rpm, 9.9998 cm³/rev,
 * 40.0002 L/min): each numeric value, in the panel's unit, has at most 4
 * significant digits. (The thesis circuits keep the literature's numbers.) */
static guint
check_round (const char *example, const char *comp, const HydParamInfo *info, double si)
{
  double shown = hyd_display_from_si (info->unit, si);
  if (shown == 0.0)
    return 1;
  double mag = pow (10.0, floor (log10 (fabs (shown))) - 3.0);
  double round4 = nearbyint (shown / mag) * mag;
  if (fabs (shown - round4) > 1e-9 * fabs (shown))
    g_error ("%s: %s.%s shows as %.10g %s (more than 4 significant digits)", example, comp, info->name, shown,
             hyd_display_symbol (info->unit));
  return 1;
}

static void
test_teaching_values_round (void)
{
  static const char *const teaching[] = { "cylinder-extend-retract", "meter-in-meter-out", "motor-relief",
                                          "regenerative", "pressure-reducing-clamp", "accumulator-emergency" };
  guint checked = 0;
  for (guint i = 0; i < G_N_ELEMENTS (teaching); i++)
    {
      g_autofree char *file = g_strconcat (teaching[i], ".bramah", NULL);
      g_autofree char *path = g_build_filename (hyd_examples_get_directory (), file, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_file (path, &error);
      g_assert_no_error (error);
      for (guint c = 0; c < circuit->components->len; c++)
        {
          const HydCircuitComponent *comp = g_ptr_array_index (circuit->components, c);
          const HydComponentType *type = hyd_catalogue_lookup (comp->type);
          g_assert_nonnull (type);
          for (guint k = 0; k < type->n_params; k++)
            {
              const HydParamInfo *info = &type->params[k];
              if ((info->flags & HYD_PARAM_ENUM) || !json_object_has_member (comp->params, info->name))
                continue;
              JsonNode *written = json_object_get_member (comp->params, info->name);
              if (JSON_NODE_HOLDS_VALUE (written))
                {
                  if (json_node_get_value_type (written) != G_TYPE_STRING)
                    checked += check_round (teaching[i], comp->id, info, json_node_get_double (written));
                  continue;
                }
              /* a profile: its values are in the parameter's unit (times in s) */
              g_assert_true (JSON_NODE_HOLDS_OBJECT (written));
              JsonObject *profile = json_node_get_object (written);
              if (json_object_has_member (profile, "step"))
                {
                  JsonArray *values = json_object_get_array_member (json_object_get_object_member (profile, "step"),
                                                                    "values");
                  for (guint v = 0; v < json_array_get_length (values); v++)
                    checked += check_round (teaching[i], comp->id, info, json_array_get_double_element (values, v));
                }
              else if (json_object_has_member (profile, "ramp"))
                {
                  JsonArray *points = json_object_get_array_member (json_object_get_object_member (profile, "ramp"),
                                                                    "points");
                  for (guint v = 0; v < json_array_get_length (points); v++)
                    {
                      JsonArray *point = json_array_get_array_element (points, v);
                      checked += check_round (teaching[i], comp->id, info, json_array_get_double_element (point, 1));
                    }
                }
              else
                g_error ("%s: %s.%s: a profile this test does not read", teaching[i], comp->id, info->name);
            }
        }
    }
  g_test_message ("%u values checked", checked);
  g_assert_cmpuint (checked, >, 100);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/examples/shipped", test_shipped);
  g_test_add_func ("/ui/examples/bad-files-left-out", test_bad_files_left_out);
  g_test_add_func ("/ui/examples/missing-folder", test_missing_folder);
  g_test_add_func ("/ui/examples/values-in-editor-range", test_values_in_editor_range);
  g_test_add_func ("/ui/examples/teaching-values-round", test_teaching_values_round);
  return g_test_run ();
}
