/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-hydparts.c — the hydraulic parts of issue 11: the cooler and the
 * hydraulic pilot operation of the directional valves. Each law's analytic
 * partials against central differences (fd-harness), values against hand
 * calculations, and small circuits run and checked against the same
 * numbers. */
#include <math.h>
#include <string.h>

#include "fd-harness.h"
#include "hyd-catalogue.h"
#include "hyd-circuit.h"
#include "hyd-run.h"
#include "hyd-smooth.h"
#include "hyd-system.h"

static int
output_index (const HydComp *comp, const char *name)
{
  for (guint k = 0; k < comp->n_outputs; k++)
    if (strcmp (comp->outputs[k].name, name) == 0)
      return (int) k;
  g_error ("%s has no output %s", comp->type->id, name);
  return -1;
}

#define HEAD "{\"format\": \"bramah-circuit\", \"version\": 2, "

static HydSystem *
compile_ok (const char *json)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "test.bramah", &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  g_assert_nonnull (sys);
  return sys;
}

typedef HydTestRows Rows;
#define ROW HYD_TEST_ROW
#define N_ROWS HYD_TEST_N_ROWS

/* Runs sys to t_end at rtol 1e-8, sampling `names` every dt. */
static Rows
run (HydSystem *sys, const char *const *names, guint n_names, double t_end, double dt)
{
  return hyd_test_run (sys, names, n_names, t_end, dt, 1e-8, -1, NULL);
}

/* ================================================================ cooler */

static void
test_cooler_values (void)
{
  double qn = 100e-3 / 60.0, q[2], out[3];

  /* laminar (default): 100 L/min at 1 bar, so 0.3 bar passes 30 L/min */
  HydComp *comp = hyd_test_make_comp ("cooler", NULL, NULL);
  int idp = output_index (comp, "dp"), iheat = output_index (comp, "heat");
  double p[2] = { 2e5 + 0.3e5, 2e5 };
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (q[0] / 5e-4, 1.0, 1e-12);
  g_assert_cmpfloat (q[1], ==, -q[0]);
  g_assert_cmpfloat_with_epsilon (out[idp], 0.3e5, 1e-6);
  g_assert_cmpfloat (out[iheat], ==, 0.0); /* no rating: no heat */
  hyd_comp_free (comp);

  /* turbulent: the rated point, then a quarter of the drop passes half the
   * flow (q ∝ √Δp), in either direction */
  comp = hyd_test_make_comp ("cooler", NULL, "pressure_drop_law", "turbulent",
                             "nominal_pressure_drop", "2e5", NULL);
  double pt[2] = { 2e5, 0.0 };
  hyd_test_eval (comp, 0.0, pt, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (q[0] / qn, 1.0, 1e-9);
  pt[0] = 0.0, pt[1] = 0.5e5;
  hyd_test_eval (comp, 0.0, pt, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (q[0] / (-0.5 * qn), 1.0, 1e-9);
  hyd_comp_free (comp);

  /* heat: 10 kW rated at 100 L/min with NTU 1. At 50 L/min (r = ½) by hand:
   * 10 kW·½·(1 − e⁻²)/(1 − e⁻¹) = 5000·0.8646647168/0.6321205588 = 6839.3972 W;
   * at the rated flow 10 kW exactly */
  comp = hyd_test_make_comp ("cooler", NULL, "rated_heat_rejection", "1e4", "nominal_ntu", "1", NULL);
  double ph[2] = { 0.5e5, 0.0 };
  hyd_test_eval (comp, 0.0, ph, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (q[0] / (0.5 * qn), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (out[iheat], 6839.3972, 1e-4);
  ph[0] = 0.0, ph[1] = 1e5; /* reverse flow removes the same heat */
  hyd_test_eval (comp, 0.0, ph, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (out[iheat], 1e4, 1e-8);
  hyd_comp_free (comp);
}

static void
test_cooler_jacobian (void)
{
  static const char *const laws[] = { "laminar", "turbulent" };
  GRand *r = g_rand_new_with_seed (1101);
  guint failures = 0;
  for (guint l = 0; l < G_N_ELEMENTS (laws); l++)
    {
      HydComp *comp = hyd_test_make_comp ("cooler", NULL, "pressure_drop_law", laws[l],
                                          "rated_heat_rejection", "5e3", NULL);
      for (guint i = 0; i < 40; i++)
        {
          double pb = g_rand_double_range (r, 0.0, 2e7);
          double dp = g_rand_double_range (r, -3e5, 3e5);
          if (i < 4)
            dp = (i - 1.5) * 10.0; /* the laminar branch of the orifice law */
          double p[2] = { pb + dp, pb };
          g_autofree char *where = g_strdup_printf ("cooler %s p=(%g, %g)", laws[l], p[0], p[1]);
          failures += hyd_test_check_component (comp, 0.0, p, NULL, where);
        }
      hyd_comp_free (comp);
    }
  g_rand_free (r);
  g_assert_cmpuint (failures, ==, 0);
}

/* A flow source of 60 L/min through a cooler (1 bar at 100 L/min, laminar)
 * into a tank: the source's node settles at 0.6 bar. */
static void
test_cooler_circuit (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"Q1\", \"type\": \"flow_source\", \"params\": {\"flow\": 0.001}},"
    "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"volume\": 1e-4}},"
    "{\"id\": \"HE1\", \"type\": \"cooler\", \"params\": {\"rated_heat_rejection\": 8000}},"
    "{\"id\": \"T1\", \"type\": \"tank\", \"params\": {}}],"
    "\"connections\": [{\"from\": \"Q1.P\", \"to\": \"V1.P\"}, {\"from\": \"V1.P\", \"to\": \"HE1.A\"},"
    "{\"from\": \"HE1.B\", \"to\": \"T1.T\"}]}");
  const char *names[] = { "V1.P.p", "HE1.q", "HE1.heat" };
  Rows r = run (sys, names, 3, 0.5, 0.05);
  const double *last = ROW (r, N_ROWS (r) - 1);
  g_assert_cmpfloat_with_epsilon (last[1] / 0.6e5, 1.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (last[2] / 1e-3, 1.0, 1e-6);
  /* r = 0.6, NTU 1: 4800·(1 − e^(−1.6667))/(1 − e⁻¹) = 4800·0.811124/0.632121 = 6159.26 W */
  g_assert_cmpfloat_with_epsilon (last[3] / 6159.26, 1.0, 1e-4);
  g_array_free (r.rows, TRUE);
  hyd_system_free (sys);
}


/* ========================================================= pilot-operated DCVs */

static const char *const pilot_types[] = { "dcv_4_3_pilot", "dcv_4_2_pilot", "dcv_3_2_pilot",
                                           "dcv_2_2_pilot" };

static void
test_pilot_jacobian (void)
{
  static const char *const taus[] = { "0", "0.02" };
  GRand *r = g_rand_new_with_seed (1102);
  guint failures = 0;
  for (guint k = 0; k < G_N_ELEMENTS (pilot_types); k++)
    for (guint j = 0; j < G_N_ELEMENTS (taus); j++)
      {
        HydComp *comp = hyd_test_make_comp (pilot_types[k], NULL, "spool_time_constant", taus[j],
                                            "pilot_pressure", "5e5", "pilot_pressure_range", "2e5",
                                            "leakage_fraction", "0.01", NULL);
        guint np = comp->type->n_ports;
        int X = hyd_component_type_find_port (comp->type, "X");
        int Y = hyd_component_type_find_port (comp->type, "Y");
        g_assert_cmpint (X, >=, 0);
        g_assert_cmpuint (comp->n_events, ==, Y >= 0 ? 4 : 2);
        for (guint i = 0; i < 60; i++)
          {
            double p[6], x[1];
            for (guint q = 0; q < np; q++)
              p[q] = g_rand_double_range (r, 0.0, 1e7);
            /* pilots over the whole shifting range and its corners */
            p[X] = g_rand_double_range (r, 4e5, 8e5);
            if (i < 8)
              p[X] = 5e5 + (i < 4 ? 1.0 : 2e5) + (i % 4) * 20.0 - 30.0;
            if (Y >= 0)
              p[Y] = g_rand_double_range (r, 4e5, 8e5);
            x[0] = g_rand_double_range (r, Y >= 0 ? -1.0 : 0.0, 1.0);
            g_autofree char *where = g_strdup_printf ("%s τ=%s p_X=%g", pilot_types[k], taus[j], p[X]);
            failures += hyd_test_check_component (comp, 0.0, p, comp->n_states ? x : NULL, where);
          }
        hyd_comp_free (comp);
      }
  g_rand_free (r);
  g_assert_cmpuint (failures, ==, 0);
}

/* The spool by hand: pilot setting 5 bar, range 2 bar. open01 is exactly 0
 * below the setting, ½ at its middle (open01(½) = clamp01(½) = ½) and 1 from
 * the top of the range on; Y pushes the other way. */
static void
test_pilot_spool (void)
{
  HydComp *comp = hyd_test_make_comp ("dcv_4_3_pilot", NULL, "pilot_pressure", "5e5",
                                      "pilot_pressure_range", "2e5", NULL);
  int ispool = output_index (comp, "spool"), ipa = output_index (comp, "q_PA");
  int ipb = output_index (comp, "q_PB");
  double q[6], out[8];
  struct { double px, py, spool; } cases[] = {
    { 0.0, 0.0, 0.0 }, { 4.99e5, 0.0, 0.0 }, { 6e5, 0.0, 0.5 }, { 7e5, 0.0, 1.0 },
    { 20e5, 0.0, 1.0 }, { 0.0, 6e5, -0.5 }, { 0.0, 9e5, -1.0 }, { 8e5, 6e5, 0.5 }, { 9e5, 9e5, 0.0 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      /* P 100 bar, A 50 bar, B 50 bar, T 0 */
      double p[6] = { 1e7, 0.0, 5e6, 5e6, cases[i].px, cases[i].py };
      hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
      g_assert_cmpfloat (fabs (out[ispool] - cases[i].spool), <, 1e-12);
      g_assert_cmpfloat (q[4], ==, 0.0); /* the pilots take no flow */
      g_assert_cmpfloat (q[5], ==, 0.0);
      if (cases[i].spool <= 0.0)
        g_assert_cmpfloat (out[ipa], ==, 0.0);
      if (cases[i].spool >= 0.0)
        g_assert_cmpfloat (out[ipb], ==, 0.0);
    }
  /* fully shifted by X: P→A passes the nominal 40 L/min at the nominal 5 bar */
  double p[6] = { 5e5, 0.0, 0.0, 0.0, 8e5, 0.0 };
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (out[ipa] / (40e-3 / 60.0), 1.0, 1e-9);
  hyd_comp_free (comp);
}

/* A pilot-operated 3/2 valve (setting 5 bar, range 2 bar) whose pilot X
 * follows a ramp of 10 bar/s: the spool stays at rest until t = 0.5 s,
 * is half over at 0.6 s and fully shifted from 0.7 s; the cylinder-side
 * node A, fed through P→A from 50 bar, follows. The run locates the
 * switching events. */
static void
test_pilot_circuit (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"PS1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 5e6}},"
    "{\"id\": \"PX\", \"type\": \"pressure_source\", \"params\": {\"pressure\": "
    "{\"ramp\": {\"points\": [[0, 0], [1, 1e6]]}}}},"
    "{\"id\": \"V1\", \"type\": \"dcv_3_2_pilot\", \"params\": {\"pilot_pressure\": 5e5, "
    "\"pilot_pressure_range\": 2e5}},"
    "{\"id\": \"VOL\", \"type\": \"volume\", \"params\": {\"volume\": 1e-4}},"
    "{\"id\": \"O1\", \"type\": \"orifice\", \"params\": {\"diameter\": 0.001}},"
    "{\"id\": \"T1\", \"type\": \"tank\", \"params\": {}},"
    "{\"id\": \"T2\", \"type\": \"tank\", \"params\": {}}],"
    "\"connections\": [{\"from\": \"PS1.P\", \"to\": \"V1.P\"}, {\"from\": \"PX.P\", \"to\": \"V1.X\"},"
    "{\"from\": \"V1.A\", \"to\": \"VOL.P\"}, {\"from\": \"VOL.P2\", \"to\": \"O1.A\"},"
    "{\"from\": \"O1.B\", \"to\": \"T1.T\"}, {\"from\": \"V1.T\", \"to\": \"T2.T\"}]}");
  const char *names[] = { "V1.spool", "V1.X.p", "VOL.P.p" };
  Rows r = run (sys, names, 3, 1.0, 0.01);
  gboolean seen_half = FALSE;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      double t = row[0];
      g_assert_cmpfloat (fabs (row[2] - 1e6 * t), <, 1e-3);
      if (t <= 0.499)
        {
          g_assert_cmpfloat (row[1], ==, 0.0);
          g_assert_cmpfloat (fabs (row[3]), <, 1.0); /* A open to tank only */
        }
      else if (t >= 0.701)
        {
          g_assert_cmpfloat (fabs (row[1] - 1.0), <, 1e-12);
          /* P→A fully open (40 L/min at 5 bar) into the orifice: A well
           * above half the supply */
          g_assert_cmpfloat (row[3], >, 2.5e6);
        }
      else if (fabs (t - 0.6) < 1e-9)
        {
          g_assert_cmpfloat (fabs (row[1] - 0.5), <, 1e-6);
          seen_half = TRUE;
        }
    }
  g_assert_true (seen_half);
  g_array_free (r.rows, TRUE);
  hyd_system_free (sys);
}

/* ============================================================ operators */

/* Every operated valve offers lever, solenoid, pushbutton and pedal, and a
 * spring return (the default: the springs its symbol has always drawn) or a
 * detent; the flow law does not see either (the command is the spool). */
static void
test_operators (void)
{
  static const char *const types[] = { "dcv_4_3", "dcv_4_2", "dcv_3_2", "dcv_2_2" };
  static const struct { const char *choice; HydOperation op; gboolean manual; } ops[] = {
    { "lever", HYD_OPERATION_LEVER, TRUE }, { "solenoid", HYD_OPERATION_SOLENOID, FALSE },
    { "pushbutton", HYD_OPERATION_PUSHBUTTON, TRUE }, { "pedal", HYD_OPERATION_PEDAL, TRUE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      const HydComponentType *type = hyd_catalogue_lookup (types[i]);
      g_assert_nonnull (type);
      g_assert_cmpstr (type->return_param, ==, "operator_return");
      /* the default: a lever with spring return, as before */
      g_assert_cmpint (hyd_component_type_get_operation (type, NULL), ==, HYD_OPERATION_LEVER);
      g_assert_true (hyd_component_type_get_spring_return (type, NULL));
      int ka = hyd_component_type_find_param (type, "actuation");
      int kr = hyd_component_type_find_param (type, "operator_return");
      /* appended: the spec's indices stay; then the solenoids and their
       * switching time (docs/circuit-format.md, "Solenoid valves") */
      g_assert_cmpint (kr, ==, (int) type->n_params - 4);
      g_assert_cmpint (hyd_component_type_find_param (type, "solenoid_a"), ==, kr + 1);
      g_assert_cmpint (hyd_component_type_find_param (type, "solenoid_b"), ==, kr + 2);
      g_assert_cmpint (hyd_component_type_find_param (type, "switching_time"), ==, kr + 3);
      double values[16];
      g_assert_cmpuint (type->n_params, <=, G_N_ELEMENTS (values));
      for (guint k = 0; k < type->n_params; k++)
        values[k] = type->params[k].def;
      for (guint o = 0; o < G_N_ELEMENTS (ops); o++)
        {
          g_assert_cmpstr (type->params[ka].choices[o], ==, ops[o].choice);
          values[ka] = o;
          g_assert_cmpint (hyd_component_type_get_operation (type, values), ==, ops[o].op);
          g_assert_cmpint (hyd_operation_is_manual (ops[o].op), ==, ops[o].manual);
        }
      values[kr] = 1;
      g_assert_cmpstr (type->params[kr].choices[1], ==, "detent");
      g_assert_false (hyd_component_type_get_spring_return (type, values));

      /* the same flows with either return and any operator */
      HydComp *a = hyd_test_make_comp (types[i], NULL, "command", "0.6", NULL);
      HydComp *b = hyd_test_make_comp (types[i], NULL, "command", "0.6", "actuation", "pedal",
                                       "operator_return", "detent", NULL);
      /* the 4-way valves' P, T, A, B (the hidden solenoid inputs after them at 0) */
      double p[8] = { 1e7, 0.0, 3e6, 2e6 }, qa[8], qb[8];
      g_assert_cmpuint (type->n_ports, <=, G_N_ELEMENTS (p));
      hyd_test_eval (a, 0.0, p, NULL, qa, NULL, NULL);
      hyd_test_eval (b, 0.0, p, NULL, qb, NULL, NULL);
      for (guint X = 0; X < type->n_ports; X++)
        g_assert_cmpfloat (qa[X], ==, qb[X]);
      hyd_comp_free (a);
      hyd_comp_free (b);
    }
  /* the pilot-operated valves have no manual operator */
  for (guint k = 0; k < G_N_ELEMENTS (pilot_types); k++)
    {
      const HydComponentType *type = hyd_catalogue_lookup (pilot_types[k]);
      g_assert_cmpint (hyd_component_type_get_operation (type, NULL), ==, HYD_OPERATION_NONE);
      g_assert_false (hyd_component_type_get_spring_return (type, NULL));
    }

  /* a file names them; an unknown choice is refused with its parameter */
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (
    HEAD "\"components\": [{\"id\": \"V1\", \"type\": \"dcv_4_3\", \"params\": "
    "{\"actuation\": \"pushbutton\", \"operator_return\": \"detent\"}}], \"connections\": []}", -1, "t.bramah", &error);
  g_assert_no_error (error);
  const HydCircuitComponent *v1 = hyd_circuit_find_component (circuit, "V1");
  g_autoptr (HydComponentParams) params = hyd_circuit_component_get_params (v1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (hyd_component_params_get_operation (params), ==, HYD_OPERATION_PUSHBUTTON);
  g_assert_false (hyd_component_type_get_spring_return (params->type, params->values));
  g_autoptr (HydCircuit) bad = hyd_circuit_load_from_data (
    HEAD "\"components\": [{\"id\": \"V1\", \"type\": \"dcv_3_2\", \"params\": "
    "{\"operator_return\": \"ratchet\"}}], \"connections\": []}", -1, "t.bramah", &error);
  if (bad != NULL)
    {
      g_autoptr (HydComponentParams) bp = hyd_circuit_component_get_params (
        hyd_circuit_find_component (bad, "V1"), NULL, &error);
      g_assert_null (bp);
    }
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "operator_return"));
}

/* ============================================== accumulator safety block */

static void
test_safety_block_values (void)
{
  HydComp *comp = hyd_test_make_comp ("accumulator_safety_block", NULL, NULL);
  int ipa = output_index (comp, "q_PA"), irel = output_index (comp, "q_relief");
  int idis = output_index (comp, "q_discharge");
  double q[3], out[4];

  /* shut-off open: 5 bar across passes the nominal 40 L/min; relief shut
   * below 200 bar; discharge shut */
  double p[3] = { 100e5, 95e5, 0.0 };
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (out[ipa] / (40e-3 / 60.0), 1.0, 1e-9);
  g_assert_cmpfloat (out[irel], ==, 0.0);
  g_assert_cmpfloat (out[idis], ==, 0.0);
  g_assert_cmpfloat (q[0] + q[1] + q[2], ==, 0.0);
  /* the relief at cracking + override (z = 1) opens soft_ramp(1, 0.01) =
   * 1 − 0.005 of its area, as relief_valve: 0.995 of its 20 L/min */
  double pr[3] = { 210e5, 210e5, 0.0 };
  hyd_test_eval (comp, 0.0, pr, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (out[irel] / (0.995 * 20e-3 / 60.0), 1.0, 1e-9);
  g_assert_cmpfloat (out[ipa], ==, 0.0);
  g_assert_cmpfloat_with_epsilon (q[2] / (-0.995 * 20e-3 / 60.0), 1.0, 1e-9);
  hyd_comp_free (comp);

  /* shut-off shut, discharge half open: nothing P–A; 5 bar A–T passes half
   * of the discharge's 10 L/min (open01(½) = ½, turbulent: q ∝ area) */
  comp = hyd_test_make_comp ("accumulator_safety_block", NULL, "shutoff_opening", "0",
                             "discharge_opening", "0.5", NULL);
  double pd[3] = { 150e5, 5e5, 0.0 };
  hyd_test_eval (comp, 0.0, pd, NULL, q, NULL, out);
  g_assert_cmpfloat (out[ipa], ==, 0.0);
  g_assert_cmpfloat_with_epsilon (out[idis] / (5e-3 / 60.0), 1.0, 1e-9);
  hyd_comp_free (comp);
}

static void
test_safety_block_jacobian (void)
{
  GRand *r = g_rand_new_with_seed (1104);
  guint failures = 0;
  HydComp *comp = hyd_test_make_comp ("accumulator_safety_block", NULL, NULL);
  hyd_test_set_param_rate (comp, "shutoff_opening", -0.7);
  hyd_test_set_param_rate (comp, "discharge_opening", 0.4);
  for (guint i = 0; i < 60; i++)
    {
      comp->par[2] = g_rand_double_range (r, 0.0, 1.0);
      comp->par[3] = g_rand_double_range (r, 0.0, 1.0);
      double pt = g_rand_double_range (r, 0.0, 2e5);
      double pa = pt + (i < 10 ? 2e7 + ((int) i - 3) * 1e3 : g_rand_double_range (r, 0.0, 2.2e7));
      double p[3] = { pa + g_rand_double_range (r, -5e5, 5e5), pa, pt };
      g_autofree char *where = g_strdup_printf ("safety block p=(%g, %g, %g) open=(%g, %g)", p[0], p[1],
                                                p[2], comp->par[2], comp->par[3]);
      failures += hyd_test_check_component (comp, 0.0, p, NULL, where);
    }
  hyd_comp_free (comp);
  g_rand_free (r);
  g_assert_cmpuint (failures, ==, 0);
}

/* 10 L/min into the block's P with nothing else to take it: it fills the
 * accumulator side until the relief passes it all. By hand (static relief,
 * area soft_ramp(z, 0.01) = z − 0.005 of the area passing 20 L/min at
 * 210 bar, turbulent): q/q_r = (z − 0.005)·√(Δp/210 bar) with Δp =
 * 200 bar + z·10 bar; ½ = (z − 0.005)·√((200 + 10z)/210) gives, iterating
 * z ← ½/√((200 + 10z)/210) + 0.005 from ½, z = 0.510926, Δp_AT =
 * 205.1093 bar. Then
 * the shut-off closes at 1 s (its P side now has its own relief) and the
 * discharge opens at 1.5 s: the accumulator side falls to tank pressure. */
static void
test_safety_block_circuit (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"Q1\", \"type\": \"flow_source\", \"params\": {\"flow\": 1.6666666666666666e-4}},"
    "{\"id\": \"VP\", \"type\": \"volume\", \"params\": {\"volume\": 1e-4}},"
    "{\"id\": \"RV\", \"type\": \"relief_valve\", \"params\": {\"cracking_pressure\": 3e7}},"
    "{\"id\": \"SB\", \"type\": \"accumulator_safety_block\", \"params\": {"
    "\"shutoff_opening\": {\"step\": {\"times\": [1], \"values\": [1, 0]}},"
    "\"discharge_opening\": {\"step\": {\"times\": [1.5], \"values\": [0, 1]}}}},"
    "{\"id\": \"VA\", \"type\": \"volume\", \"params\": {\"volume\": 1e-4}},"
    "{\"id\": \"T1\", \"type\": \"tank\", \"params\": {}},"
    "{\"id\": \"T2\", \"type\": \"tank\", \"params\": {}}],"
    "\"connections\": [{\"from\": \"Q1.P\", \"to\": \"VP.P\"}, {\"from\": \"VP.P2\", \"to\": \"SB.P\"},"
    "{\"from\": \"VP.P3\", \"to\": \"RV.P\"}, {\"from\": \"RV.T\", \"to\": \"T2.T\"},"
    "{\"from\": \"SB.A\", \"to\": \"VA.P\"}, {\"from\": \"SB.T\", \"to\": \"T1.T\"}]}");
  const char *names[] = { "VA.P.p", "SB.q_relief", "SB.q_PA", "VP.P.p" };
  Rows r = run (sys, names, 4, 2.5, 0.05);
  gboolean seen = FALSE;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      if (fabs (row[0] - 0.95) < 1e-9)
        {
          g_assert_cmpfloat_with_epsilon (row[1] / 205.1093e5, 1.0, 1e-5);
          g_assert_cmpfloat_with_epsilon (row[2] / 1.6666666666666666e-4, 1.0, 1e-5);
          seen = TRUE;
        }
      if (row[0] > 1.05 && row[0] < 1.45)
        {
          g_assert_cmpfloat (fabs (row[3]), <, 1e-12); /* shut: nothing passes */
          g_assert_cmpfloat (row[4], >, 2.9e7);       /* the pump side on its own relief */
        }
    }
  g_assert_true (seen);
  const double *last = ROW (r, N_ROWS (r) - 1);
  g_assert_cmpfloat (fabs (last[1]), <, 1e3); /* discharged to tank */
  g_array_free (r.rows, TRUE);
  hyd_system_free (sys);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/hydparts/cooler/values", test_cooler_values);
  g_test_add_func ("/engine/hydparts/cooler/jacobian", test_cooler_jacobian);
  g_test_add_func ("/engine/hydparts/cooler/circuit", test_cooler_circuit);
  g_test_add_func ("/engine/hydparts/pilot-dcv/jacobian", test_pilot_jacobian);
  g_test_add_func ("/engine/hydparts/pilot-dcv/spool", test_pilot_spool);
  g_test_add_func ("/engine/hydparts/pilot-dcv/circuit", test_pilot_circuit);
  g_test_add_func ("/engine/hydparts/operators", test_operators);
  g_test_add_func ("/engine/hydparts/safety-block/values", test_safety_block_values);
  g_test_add_func ("/engine/hydparts/safety-block/jacobian", test_safety_block_jacobian);
  g_test_add_func ("/engine/hydparts/safety-block/circuit", test_safety_block_circuit);
  return g_test_run ();
}
