/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-param-value.c — the property panel's values in engineering units:
 * formatting, parsing, range checks and messages go through the display
 * units (no display needed). */
#include <locale.h>
#include <math.h>
#include <string.h>
#include "hyd-catalogue.h"
#include "hyd-display-units.h"
#include "hyd-param-value.h"

static const HydParamInfo *
param (const char *type_id, const char *name)
{
  const HydComponentType *type = hyd_catalogue_lookup (type_id);
  g_assert_nonnull (type);
  int i = hyd_component_type_find_param (type, name);
  g_assert_cmpint (i, >=, 0);
  return &type->params[i];
}

typedef struct {
  const char *type, *param;
  double si;
  const char *shown;      /* in the entry */
  const char *unit;
} FormatCase;

static void
test_format (void)
{
  static const FormatCase cases[] = {
    { "relief_valve", "cracking_pressure", 1e7, "100", "bar" },
    { "relief_valve", "nominal_flow", 1.6666666666667e-3, "100", "L/min" },
    { "cylinder_double", "piston_diameter", 0.05, "50", "mm" },
    { "cylinder_double", "load_force", 4000, "4", "kN" },
    { "fixed_pump", "displacement", 10e-6 / (2 * G_PI), "10", "cm³/rev" },
    { "fixed_pump", "speed", 1500 * 2 * G_PI / 60, "1500", "rpm" },
    { "dcv_4_3", "command", 0.5, "0.5", "" },
    { "accumulator", "gas_volume", 1e-3, "1", "L" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const FormatCase *c = &cases[i];
      const HydParamInfo *info = param (c->type, c->param);
      g_autofree char *text = hyd_param_value_format (info, c->si);
      g_assert_cmpstr (text, ==, c->shown);
      g_assert_cmpstr (hyd_param_value_unit (info), ==, c->unit);
      /* what is shown reads back to the value */
      double back;
      g_assert_true (hyd_param_value_parse (info, text, &back, NULL));
      g_assert_cmpfloat_with_epsilon (back, c->si, 1e-5 * fabs (c->si));
    }
}

static void
test_parse_units (void)
{
  const HydParamInfo *p = param ("relief_valve", "cracking_pressure");
  double si;
  g_assert_true (hyd_param_value_parse (p, "150", &si, NULL));
  g_assert_cmpfloat_with_epsilon (si, 1.5e7, 1);
  g_assert_true (hyd_param_value_parse (p, " 150 bar ", &si, NULL));
  g_assert_cmpfloat_with_epsilon (si, 1.5e7, 1);
  g_assert_true (hyd_param_value_parse (p, "1.5e7 Pa", &si, NULL));
  g_assert_cmpfloat_with_epsilon (si, 1.5e7, 1);
  g_assert_true (hyd_param_value_parse (p, "15 MPa", &si, NULL));
  g_assert_cmpfloat_with_epsilon (si, 1.5e7, 1);

  const HydParamInfo *d = param ("cylinder_double", "piston_diameter");
  g_assert_true (hyd_param_value_parse (d, "63", &si, NULL));
  g_assert_cmpfloat_with_epsilon (si, 0.063, 1e-12);
}

static void
test_reject (void)
{
  const HydParamInfo *p = param ("relief_valve", "cracking_pressure");
  double si = 42;
  g_autofree char *empty = NULL, *text = NULL, *range = NULL;

  g_assert_false (hyd_param_value_parse (p, "", &si, &empty));
  g_assert_nonnull (empty);
  g_assert_false (hyd_param_value_parse (p, "lots", &si, &text));
  g_assert_nonnull (strstr (text, "bar"));
  /* a pressure must be more than 0: the message gives the range in bar */
  g_assert_false (hyd_param_value_parse (p, "-3", &si, &range));
  g_assert_nonnull (strstr (range, "more than 0 bar and at most 10000 bar"));
  g_assert_cmpfloat (si, ==, 42);

  /* [−1, 1]: both ends allowed, nothing beyond */
  const HydParamInfo *cmd = param ("dcv_4_3", "command");
  g_assert_true (hyd_param_value_parse (cmd, "-1", &si, NULL));
  g_assert_true (hyd_param_value_parse (cmd, "1", &si, NULL));
  g_assert_false (hyd_param_value_parse (cmd, "1.01", &si, NULL));

  /* [0, 1): the upper end excluded */
  const HydParamInfo *leak = param ("dcv_4_3", "leakage_fraction");
  g_assert_true (hyd_param_value_parse (leak, "0", &si, NULL));
  g_assert_false (hyd_param_value_parse (leak, "1", &si, NULL));
  g_autofree char *leak_range = hyd_param_value_describe_range (leak);
  g_assert_cmpstr (leak_range, ==, "at least 0 and less than 1");
}

static void
test_whole_numbers (void)
{
  const HydParamInfo *seg = param ("line", "segments");
  double si;
  g_autofree char *message = NULL;
  g_assert_true (seg->flags & HYD_PARAM_INTEGER);
  g_assert_true (hyd_param_value_parse (seg, "12", &si, NULL));
  g_assert_false (hyd_param_value_parse (seg, "12.5", &si, &message));
  g_assert_nonnull (strstr (message, "whole"));
}

static void
test_ranges_described (void)
{
  g_autofree char *a = hyd_param_value_describe_range (param ("relief_valve", "cracking_pressure"));
  g_assert_cmpstr (a, ==, "more than 0 bar and at most 10000 bar");
  g_autofree char *b = hyd_param_value_describe_range (param ("dcv_4_3", "command"));
  g_assert_cmpstr (b, ==, "between -1 and 1");
  g_autofree char *c = hyd_param_value_describe_range (param ("cylinder_double", "load_force"));
  g_assert_cmpstr (c, ==, "between -1e+06 kN and 1e+06 kN");
}

/* Issue 8, item 12: a 1e30 L dead volume, 1e99, -5 and "abc" were
 * accepted or silently kept; the editor's range closes the catalogue's open
 * sides at a plausible magnitude, and says so. */
static void
test_plausible (void)
{
  const HydParamInfo *dead = param ("cylinder_double", "dead_volume_a");
  double si = 42;
  g_autofree char *m1 = NULL, *m2 = NULL, *m3 = NULL, *m4 = NULL;
  g_assert_true (hyd_param_value_parse (dead, "0.05", &si, NULL));
  g_assert_cmpfloat_with_epsilon (si, 5e-5, 1e-15);
  g_assert_true (hyd_param_value_parse (dead, "100000", &si, NULL));
  g_assert_false (hyd_param_value_parse (dead, "1e30", &si, &m1));
  g_assert_nonnull (strstr (m1, "100000 L"));
  g_assert_false (hyd_param_value_parse (dead, "1e99", &si, &m2));
  g_assert_false (hyd_param_value_parse (dead, "-5", &si, &m3));
  g_assert_false (hyd_param_value_parse (dead, "abc", &si, &m4));
  g_assert_nonnull (strstr (m4, "L"));
  g_assert_false (hyd_param_value_in_range (dead, 1e27));
  const HydParamInfo *rod = param ("cylinder_double", "rod_diameter");
  g_assert_false (hyd_param_value_in_range (rod, 1e96));
  g_assert_true (hyd_param_value_in_range (rod, 0.028));
  /* a bound the catalogue gives is kept as it is */
  double lo, hi;
  hyd_param_value_bounds (param ("dcv_4_3", "command"), &lo, &hi);
  g_assert_cmpfloat (lo, ==, -1.0);
  g_assert_cmpfloat (hi, ==, 1.0);
  g_assert_cmpfloat (hyd_param_value_clamp (dead, 1e30), ==, 100.0);
}

static void
test_clamp (void)
{
  const HydParamInfo *cmd = param ("dcv_4_3", "command");
  g_assert_cmpfloat (hyd_param_value_clamp (cmd, 3), ==, 1);
  g_assert_cmpfloat (hyd_param_value_clamp (cmd, -3), ==, -1);
  g_assert_cmpfloat (hyd_param_value_clamp (cmd, 0.25), ==, 0.25);
}

static JsonNode *
parse_json (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  return json_node_copy (json_parser_get_root (parser));
}

static void
test_written_values (void)
{
  const HydParamInfo *p = param ("relief_valve", "cracking_pressure");
  double si;
  /* left out: the default */
  g_assert_true (hyd_param_value_get (p, NULL, 0.7, &si));
  g_assert_cmpfloat (si, ==, p->def);
  /* a number */
  g_autoptr (JsonNode) number = parse_json ("12000000");
  g_assert_true (hyd_param_value_get (p, number, 0.7, &si));
  g_assert_cmpfloat (si, ==, 1.2e7);
  /* a profile: its value just after t = 0, and a summary for the entry */
  const HydParamInfo *cmd = param ("dcv_4_3", "command");
  g_autoptr (JsonNode) step = parse_json ("{\"step\": {\"times\": [0.5, 3.5], \"values\": [0, 1, -1]}}");
  g_assert_true (hyd_param_value_get (cmd, step, 0.7, &si));
  g_assert_cmpfloat (si, ==, 0);
  g_autofree char *summary = hyd_param_value_describe_profile (step);
  g_assert_cmpstr (summary, ==, "step profile, 2 changes");
  g_assert_null (hyd_param_value_describe_profile (number));
  /* the fluid's discharge coefficient as a default */
  const HydParamInfo *cd = param ("orifice", "discharge_coefficient");
  g_assert_true (cd->flags & HYD_PARAM_FLUID_CD);
  g_assert_true (hyd_param_value_get (cd, NULL, 0.61, &si));
  g_assert_cmpfloat (si, ==, 0.61);
  /* an enum has no number */
  g_assert_false (hyd_param_value_get (param ("dcv_4_3", "centre"), NULL, 0.7, &si));
}

/* A limit whose default is no limit (±∞, a controller's output limits) is
 * unset when left out, as an optional parameter is: no value, nothing to
 * refuse; a number written for it is read as any other. */
static void
test_unbounded_default (void)
{
  const HydComponentType *pid = hyd_catalogue_lookup ("pid");
  g_assert_nonnull (pid);
  /* the PID's limits are optional parameters (unset: no limit) */
  const HydParamInfo *pid_lower = &pid->params[hyd_component_type_find_param (pid, "lower")];
  g_assert_true (hyd_param_value_may_be_unset (pid_lower));
  /* a limit written with an infinite default, as a type may declare it */
  static const HydParamInfo unbounded = { "lower", "Lower output limit", HYD_UNIT_NONE, -INFINITY,
                                          -INFINITY, INFINITY, 0, NULL, "lower limit" };
  const HydParamInfo *lower = &unbounded;
  const HydParamInfo *kp = &pid->params[hyd_component_type_find_param (pid, "kp")];
  g_assert_true (isinf (lower->def));
  g_assert_true (hyd_param_value_may_be_unset (lower));
  g_assert_false (hyd_param_value_may_be_unset (kp));
  double v = 0;
  g_assert_false (hyd_param_value_get (lower, NULL, 0.7, &v));
  g_assert_true (hyd_param_value_get (kp, NULL, 0.7, &v));
  g_assert_cmpfloat (v, ==, kp->def);
  g_autoptr (JsonNode) written = json_node_init_double (json_node_alloc (), -5.0);
  g_assert_true (hyd_param_value_get (lower, written, 0.7, &v));
  g_assert_cmpfloat (v, ==, -5.0);
}

int
main (int argc, char *argv[])
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/param-value/format", test_format);
  g_test_add_func ("/ui/param-value/parse-units", test_parse_units);
  g_test_add_func ("/ui/param-value/reject", test_reject);
  g_test_add_func ("/ui/param-value/whole-numbers", test_whole_numbers);
  g_test_add_func ("/ui/param-value/ranges-described", test_ranges_described);
  g_test_add_func ("/ui/param-value/plausible", test_plausible);
  g_test_add_func ("/ui/param-value/clamp", test_clamp);
  g_test_add_func ("/ui/param-value/written-values", test_written_values);
  g_test_add_func ("/ui/param-value/unbounded-default", test_unbounded_default);
  return g_test_run ();
}
