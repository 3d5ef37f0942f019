/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-help-text.c — the in-app help is generated for every component of
 * the catalogue: its description, ports and a parameter table with units,
 * defaults and ranges (no display). */
#include <locale.h>
#include <math.h>
#include <string.h>
#include "hyd-catalogue.h"
#include "hyd-display-units.h"
#include "hyd-help-text.h"
#include "hyd-param-value.h"
#include "elec-test-types.h"

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
      g_assert_cmpstr (hyd_help_category_title (type->category), !=, "");
      g_assert_nonnull (strstr (text, hyd_help_category_title (type->category)));
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
  /* the default is exactly 100 L/min (docs/circuit-format.md, "Defaults") */
  const HydComponentType *relief_type = hyd_catalogue_lookup ("relief_valve");
  const HydParamInfo *q_nom =
    &relief_type->params[hyd_component_type_find_param (relief_type, "nominal_flow")];
  g_autofree char *q100 = hyd_param_value_format (q_nom, 100e-3 / 60.0);
  g_autofree char *q100_text = g_strdup_printf ("%s L/min", q100);
  g_assert_cmpstr (row_of (relief, "nominal_flow")->default_text, ==, q100_text);

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

/* Every default is the exact round engineering value it stands for: shown in
 * the panel's units it has at most three significant digits (1500 rpm, not
 * 1499.24; 10 cm³/rev, not 10.0531; 40 L/min, not 40.002). The one
 * exception is a numerical scale the contract gives in SI, not a rating:
 * the motor's friction_smoothing_velocity, 0.1 rad/s. */
static void
test_round_defaults (void)
{
  guint n_types;
  const HydComponentType *const *types = hyd_catalogue_list (&n_types);
  guint checked = 0;
  for (guint i = 0; i < n_types; i++)
    for (guint j = 0; j < types[i]->n_params; j++)
      {
        const HydParamInfo *info = &types[i]->params[j];
        if (info->unit == HYD_UNIT_NONE || info->choices != NULL || info->def == 0.0
            || !isfinite (info->def)
            || (g_str_equal (types[i]->id, "motor_fixed")
                && g_str_equal (info->name, "friction_smoothing_velocity")))
          continue;
        double shown = hyd_display_from_si (info->unit, info->def);
        double mag = pow (10.0, floor (log10 (fabs (shown))) - 2.0);
        double round3 = nearbyint (shown / mag) * mag;
        if (fabs (shown - round3) > 1e-9 * fabs (shown))
          g_test_message ("%s.%s: default %.10g %s", types[i]->id, info->name, shown,
                          hyd_display_symbol (info->unit));
        g_assert_cmpfloat (fabs (shown - round3), <=, 1e-9 * fabs (shown));
        checked++;
      }
  g_assert_cmpuint (checked, >=, 50);
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

/* The palette's sections come from the catalogue: a category appended to
 * HydCategory later (here one past every value this build names) gets its
 * own section and a heading, whatever this file knows of it. */
static void
test_categories (void)
{
  static const HydPortInfo out_port[] = { { "Y", HYD_DOMAIN_SIGNAL, FALSE, "out", HYD_PORT_OUTPUT } };
  static const HydComponentType later = {
    .id = "test_later", .label = "later", .category = (HydCategory) (HYD_CATEGORY_MECHANICS + 7),
    .ports = out_port, .n_ports = 1, .boundary_param = -1,
  };
  guint n;
  const HydComponentType *const *catalogue = hyd_catalogue_list (&n);
  g_autoptr (GPtrArray) types = g_ptr_array_new ();
  g_ptr_array_add (types, (gpointer) &later);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (types, (gpointer) catalogue[i]);
  g_autoptr (GArray) categories = hyd_help_categories ((const HydComponentType *const *) types->pdata, types->len);
  /* each once, in the enum's order, the new one last */
  for (guint c = 1; c < categories->len; c++)
    g_assert_cmpint (g_array_index (categories, HydCategory, c - 1), <, g_array_index (categories, HydCategory, c));
  g_assert_cmpint (g_array_index (categories, HydCategory, categories->len - 1), ==, later.category);
  for (guint i = 0; i < types->len; i++)
    {
      gboolean found = FALSE;
      for (guint c = 0; c < categories->len; c++)
        found |= g_array_index (categories, HydCategory, c) == ((const HydComponentType *) types->pdata[i])->category;
      g_assert_true (found);
    }
  /* its heading: the engine's name, capitalised */
  const char *title = hyd_help_category_title (later.category);
  g_assert_cmpstr (title, !=, "");
  g_assert_true (g_unichar_isupper (g_utf8_get_char (title)));
  g_autofree char *folded = g_utf8_strdown (title, -1);
  g_assert_cmpstr (folded, ==, hyd_category_name (later.category));
  /* a known one keeps its label */
  g_assert_cmpstr (hyd_help_category_title (HYD_CATEGORY_VALVES), ==, hyd_help_category_label (HYD_CATEGORY_VALVES));
}

/* The help lists each port with its domain, and a signal port's direction. */
static void
test_port_kinds (void)
{
  static const HydPortInfo in_port = { "U", HYD_DOMAIN_SIGNAL, FALSE, "in", HYD_PORT_INPUT };
  g_autofree char *in = hyd_help_port_kind (&in_port);
  g_assert_cmpstr (in, ==, "signal, input");
  const HydComponentType *gauge = hyd_catalogue_lookup ("pressure_gauge");
  g_autofree char *text = hyd_help_dup_text (gauge);
  g_assert_nonnull (strstr (text, "  S  signal, output  "));
  g_assert_nonnull (strstr (text, "  P  hydraulic  "));
  g_autofree char *mass = hyd_help_dup_text (hyd_catalogue_lookup ("mass"));
  g_assert_nonnull (strstr (mass, "  A  translational  "));
}

/* The palette and the help list the categories the types use
 * (hyd_help_categories): the electrical control types come under their own
 * heading, "Electrical control", with no change to the palette. */
static void
test_electrical_category (void)
{
  const HydComponentType *types[] = { hyd_catalogue_lookup ("tank"), &elt_supply, &elt_coil };
  g_assert_nonnull (types[0]);
  g_autoptr (GArray) categories = hyd_help_categories (types, G_N_ELEMENTS (types));
  g_assert_cmpuint (categories->len, ==, 2);
  g_assert_cmpint (g_array_index (categories, HydCategory, 1), ==, HYD_CATEGORY_ELECTRICAL);
  g_assert_cmpstr (hyd_help_category_title (HYD_CATEGORY_ELECTRICAL), ==, "Electrical control");
}

int
main (int argc, char *argv[])
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/help/every-type", test_every_type);
  g_test_add_func ("/ui/help/categories", test_categories);
  g_test_add_func ("/ui/help/electrical-category", test_electrical_category);
  g_test_add_func ("/ui/help/port-kinds", test_port_kinds);
  g_test_add_func ("/ui/help/engineering-units", test_engineering_units);
  g_test_add_func ("/ui/help/round-defaults", test_round_defaults);
  g_test_add_func ("/ui/help/fluid-page", test_fluid_page);
  return g_test_run ();
}
