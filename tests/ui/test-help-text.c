/* test-help-text.c — the in-app help is generated for every component of
 * the catalogue: its description, ports and a parameter table with units,
 * defaults and ranges (no display). */
#include <locale.h>
#include <string.h>
#include "hyd-catalogue.h"
#include "hyd-help-text.h"

static void
test_every_type (void)
{
  guint n_types;
  const HydComponentType *const *types = hyd_catalogue_list (&n_types);
  g_assert_cmpuint (n_types, >=, 23);
  for (guint i = 0; i < n_types; i++)
    {
      const HydComponentType *type = types[i];
      g_autofree char *text = hyd_help_dup_text (type);
      g_assert_nonnull (strstr (text, type->id));
      g_assert_nonnull (strstr (text, type->label));
      g_assert_cmpstr (hyd_help_category_label (type->category), !=, "");
      g_assert_nonnull (strstr (text, hyd_help_category_label (type->category)));
      /* the law is the catalogue's description */
      g_assert_nonnull (type->description);
      g_assert_nonnull (strstr (text, type->description));
      for (guint p = 0; p < type->n_ports; p++)
        g_assert_nonnull (strstr (text, type->ports[p].name));

      g_autoptr (GPtrArray) rows = hyd_help_param_rows (type);
      g_assert_cmpuint (rows->len, ==, type->n_params);
      for (guint p = 0; p < rows->len; p++)
        {
          const HydHelpParamRow *row = g_ptr_array_index (rows, p);
          g_assert_cmpstr (row->key, ==, type->params[p].name);
          g_assert_cmpstr (row->label, ==, type->params[p].label);
          g_assert_cmpuint (strlen (row->default_text), >, 0);
          g_assert_cmpuint (strlen (row->range), >, 0);
          g_assert_cmpint (row->profile, ==, (type->params[p].flags & HYD_PARAM_PROFILE) != 0);
          g_assert_nonnull (strstr (text, row->key));
        }
    }
}

static const HydHelpParamRow *
row_of (GPtrArray *rows, const char *key)
{
  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (((HydHelpParamRow *) g_ptr_array_index (rows, i))->key, key) == 0)
      return g_ptr_array_index (rows, i);
  g_assert_not_reached ();
}

static void
test_engineering_units (void)
{
  g_autoptr (GPtrArray) relief = hyd_help_param_rows (hyd_catalogue_lookup ("relief_valve"));
  const HydHelpParamRow *cracking = row_of (relief, "cracking_pressure");
  g_assert_cmpstr (cracking->default_text, ==, "100 bar");
  g_assert_cmpstr (cracking->unit, ==, "bar");
  g_assert_cmpstr (cracking->range, ==, "more than 0 bar and at most 10000 bar");
  g_assert_cmpstr (row_of (relief, "nominal_flow")->default_text, ==, "100.02 L/min");

  g_autoptr (GPtrArray) dcv = hyd_help_param_rows (hyd_catalogue_lookup ("dcv_4_3"));
  const HydHelpParamRow *centre = row_of (dcv, "centre");
  g_assert_cmpstr (centre->default_text, ==, "closed");
  g_assert_cmpstr (centre->range, ==, "one of closed, open, tandem, float");
  g_assert_true (row_of (dcv, "command")->profile);
  g_assert_false (row_of (dcv, "nominal_flow")->profile);

  g_autoptr (GPtrArray) line = hyd_help_param_rows (hyd_catalogue_lookup ("line"));
  g_assert_nonnull (strstr (row_of (line, "segments")->range, "whole number"));

  g_autoptr (GPtrArray) orifice = hyd_help_param_rows (hyd_catalogue_lookup ("orifice"));
  g_assert_nonnull (strstr (row_of (orifice, "discharge_coefficient")->default_text, "fluid"));
}

/* The page on the fluid models explains every model the file format has,
 * the cavitating default with its numbers, and cites the literature. */
static void
test_fluid_page (void)
{
  g_autofree char *text = hyd_help_fluid_dup_text ();
  g_assert_true (g_str_has_prefix (text, hyd_help_fluid_title ()));
  const char *const *models = hyd_help_fluid_models ();
  guint n = 0;
  for (; models[n]; n++)
    {
      g_autofree char *entry = g_strdup_printf ("\n%s", models[n]);
      g_assert_nonnull (strstr (text, entry));
    }
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpstr (models[0], ==, "cavitating");
  g_assert_nonnull (strstr (text, "cavitating (the default)"));
  g_assert_nonnull (strstr (text, "1.5 GPa"));
  g_assert_nonnull (strstr (text, "−1 bar"));
  g_assert_nonnull (strstr (text, "bulk_modulus_model"));
  static const char *const citations[] = { "Burton 1994", "Merritt 1967", "Manring 2005" };
  for (guint i = 0; i < G_N_ELEMENTS (citations); i++)
    g_assert_nonnull (strstr (text, citations[i]));
  /* no paths a student cannot open */
  g_assert_null (strstr (text, "research/"));
  g_assert_null (strstr (text, "../shared"));
}

int
main (int argc, char *argv[])
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/help/every-type", test_every_type);
  g_test_add_func ("/ui/help/engineering-units", test_engineering_units);
  g_test_add_func ("/ui/help/fluid-page", test_fluid_page);
  return g_test_run ();
}
