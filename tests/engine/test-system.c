/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-system.c — the system compiler: nodes, layout, graph errors,
 * reported flows and the assembled Jacobian. */
#include <math.h>
#include <string.h>

#include "hyd-circuit.h"
#include "hyd-fdcheck.h"
#include "hyd-run.h"
#include "hyd-system.h"

static HydSystem *
compile_json (const char *json, GError **error)
{
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "test.bramah", error);
  if (circuit == NULL)
    return NULL;
  return hyd_system_compile (circuit, error);
}

#define HEAD "{\"format\": \"bramah-circuit\", \"version\": 1, "

/* flow source → V (wire) → orifice → tank */
static const char *two_node =
  HEAD "\"components\": ["
  "{\"id\": \"Q1\", \"type\": \"flow_source\", \"params\": {\"flow\": 1e-4}},"
  "{\"id\": \"O1\", \"type\": \"orifice\", \"params\": {\"diameter\": 0.002}},"
  "{\"id\": \"O2\", \"type\": \"orifice\", \"params\": {\"diameter\": 0.003}},"
  "{\"id\": \"T1\", \"type\": \"tank\"}],"
  "\"connections\": ["
  "{\"from\": \"Q1.P\", \"to\": \"O1.A\", \"length\": 1.0},"
  "{\"from\": \"O1.B\", \"to\": \"O2.A\", \"length\": 2.0, \"initial_pressure\": 1e5},"
  "{\"from\": \"O2.B\", \"to\": \"T1.T\", \"length\": 0.5}]}";

static void
test_layout (void)
{
  GError *error = NULL;
  HydSystem *sys = compile_json (two_node, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 2);
  g_assert_cmpuint (hyd_system_get_n_nodes (sys), ==, 3);
  /* the default fluid may hold a void: its node states are pseudo-pressures
   * ψ, named ".psi", found as variables but not listed (hyd-system.h) */
  g_assert_cmpstr (hyd_system_get_state_name (sys, 0), ==, "Q1.P.psi");
  g_assert_cmpstr (hyd_system_get_state_name (sys, 1), ==, "O1.B.psi");
  {
    int v = hyd_system_find_variable (sys, "O1.B.psi");
    g_assert_cmpint (v, >=, (int) hyd_system_get_n_variables (sys));
    for (guint k = 0; k < hyd_system_get_n_variables (sys); k++)
      g_assert_false (g_str_has_suffix (hyd_system_get_variable_name (sys, k), ".psi"));
  }
  g_assert_cmpfloat (hyd_system_get_initial_state (sys)[1], ==, 1e5);
  g_assert_cmpfloat (hyd_system_get_initial_state (sys)[0], ==, 0.0);
  /* wire volumes: π·d²/4·L */
  const HydNodeInfo *n0 = hyd_system_get_node (sys, 0);
  g_assert_cmpfloat_with_epsilon (n0->wire_volume, G_PI * 1e-4 / 4 * 1.0, 1e-15);
  g_assert_false (n0->boundary);
  g_assert_true (hyd_system_get_node (sys, 2)->boundary);

  /* default columns and aliases */
  GArray *def = hyd_system_get_default_variables (sys);
  g_assert_cmpuint (def->len, ==, 3);
  g_assert_cmpstr (hyd_system_get_variable_name (sys, g_array_index (def, int, 0)), ==, "t");
  g_array_unref (def);
  {
    /* any port of a node names its pressure, with or without ".p" */
    int vars[3] = { hyd_system_find_variable (sys, "Q1.P.p"), hyd_system_find_variable (sys, "O1.A.p"),
                    hyd_system_find_variable (sys, "O1.A") };
    double y[2] = { 4.5e6, 2e6 }, v[3];
    g_assert_cmpint (vars[1], >=, 0);
    g_assert_cmpint (vars[2], ==, vars[1]);
    hyd_system_eval_variables (sys, 0.0, y, vars, 3, v);
    g_assert_cmpfloat (v[0], ==, 4.5e6);
    g_assert_cmpfloat (v[1], ==, 4.5e6);
  }
  g_assert_cmpint (hyd_system_find_variable (sys, "nope.p"), <, 0);

  /* pattern: node 0 couples to itself and node 1 */
  guint nnz;
  const guint *colptr, *rowind;
  hyd_system_get_pattern (sys, &nnz, &colptr, &rowind);
  g_assert_cmpuint (nnz, ==, 4);
  hyd_system_free (sys);
}

static void
test_reported_flows (void)
{
  GError *error = NULL;
  HydSystem *sys = compile_json (two_node, &error);
  g_assert_no_error (error);
  double y[2] = { 3e6, 1e6 };
  int vars[4] = {
    hyd_system_find_variable (sys, "O1.A.q"), hyd_system_find_variable (sys, "O2.B.q"),
    hyd_system_find_variable (sys, "T1.T.q"), hyd_system_find_variable (sys, "Q1.P.q"),
  };
  double v[4];
  hyd_system_eval_variables (sys, 0.0, y, vars, 4, v);
  g_assert_cmpfloat (v[0], >, 0.0);       /* flows into O1 at A */
  g_assert_cmpfloat (v[1], <, 0.0);       /* and out of O2 at B */
  g_assert_cmpfloat_with_epsilon (v[2], -v[1], 1e-15); /* the tank takes what O2 delivers */
  g_assert_cmpfloat_with_epsilon (v[3], -1e-4, 1e-15); /* q_P = −flow */
  hyd_system_free (sys);
}

static void
expect_error (const char *json, int code, const char *const *substrings)
{
  GError *error = NULL;
  HydSystem *sys = compile_json (json, &error);
  g_assert_null (sys);
  g_assert_error (error, HYD_CIRCUIT_ERROR, code);
  for (int k = 0; substrings[k]; k++)
    if (strstr (error->message, substrings[k]) == NULL)
      g_error ("message '%s' lacks '%s'", error->message, substrings[k]);
  g_test_message ("%s", error->message);
  g_error_free (error);
}

static void
test_no_volume (void)
{
  const char *json = HEAD "\"components\": ["
    "{\"id\": \"Q1\", \"type\": \"flow_source\"},"
    "{\"id\": \"O1\", \"type\": \"orifice\"},"
    "{\"id\": \"T1\", \"type\": \"tank\"}],"
    "\"connections\": [{\"from\": \"Q1.P\", \"to\": \"O1.A\", \"length\": 0},"
    "{\"from\": \"O1.B\", \"to\": \"T1.T\"}]}";
  const char *subs[] = { "node {Q1.P, O1.A} has no volume", "give the connection a length", NULL };
  expect_error (json, HYD_CIRCUIT_ERROR_NO_VOLUME, subs);
}

static void
test_short_circuit (void)
{
  const char *json = HEAD "\"components\": ["
    "{\"id\": \"T1\", \"type\": \"tank\"},"
    "{\"id\": \"PS1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 1e6}}],"
    "\"connections\": [{\"from\": \"T1.T\", \"to\": \"PS1.P\"}]}";
  const char *subs[] = { "short circuit between T1 and PS1", NULL };
  expect_error (json, HYD_CIRCUIT_ERROR_SHORT_CIRCUIT, subs);

  /* the same pressure in one node is fine */
  const char *same = HEAD "\"components\": ["
    "{\"id\": \"T1\", \"type\": \"tank\"}, {\"id\": \"T2\", \"type\": \"tank\"}],"
    "\"connections\": [{\"from\": \"T1.T\", \"to\": \"T2.T\"}]}";
  GError *error = NULL;
  HydSystem *sys = compile_json (same, &error);
  g_assert_no_error (error);
  hyd_system_free (sys);
}

static void
test_unconnected (void)
{
  const char *json = HEAD "\"components\": ["
    "{\"id\": \"Q1\", \"type\": \"flow_source\"},"
    "{\"id\": \"O1\", \"type\": \"orifice\"}],"
    "\"connections\": [{\"from\": \"Q1.P\", \"to\": \"O1.A\"}]}";
  const char *subs[] = { "port O1.B is not connected", NULL };
  expect_error (json, HYD_CIRCUIT_ERROR_UNCONNECTED, subs);

  /* optional ports may stay open: a volume's P2..P4, a gauge's signal port */
  const char *optional = HEAD "\"components\": ["
    "{\"id\": \"V1\", \"type\": \"volume\"},"
    "{\"id\": \"G1\", \"type\": \"pressure_gauge\"}],"
    "\"connections\": [{\"from\": \"V1.P\", \"to\": \"G1.P\"}]}";
  GError *error = NULL;
  HydSystem *sys = compile_json (optional, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 1);
  hyd_system_free (sys);
}

static void
test_initial_pressure (void)
{
  const char *json = HEAD "\"components\": ["
    "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"initial_pressure\": 2e6}},"
    "{\"id\": \"V2\", \"type\": \"volume\", \"params\": {\"initial_pressure\": 3e6}}],"
    "\"connections\": [{\"from\": \"V1.P\", \"to\": \"V2.P\"}]}";
  const char *subs[] = { "conflicting initial pressures", "V1.P", NULL };
  expect_error (json, HYD_CIRCUIT_ERROR_INITIAL_PRESSURE, subs);

  /* a wire's initial pressure overrides the components' */
  const char *wire = HEAD "\"simulation\": {\"initial_pressure\": 5e5}, \"components\": ["
    "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"initial_pressure\": 2e6}},"
    "{\"id\": \"V2\", \"type\": \"volume\"}, {\"id\": \"V3\", \"type\": \"volume\"}],"
    "\"connections\": [{\"from\": \"V1.P\", \"to\": \"V2.P\", \"initial_pressure\": 7e6},"
    "{\"from\": \"V3.P\", \"to\": \"V3.P2\"}]}";
  GError *error = NULL;
  HydSystem *sys = compile_json (wire, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (hyd_system_get_initial_state (sys)[0], ==, 7e6);
  g_assert_cmpfloat (hyd_system_get_initial_state (sys)[1], ==, 5e5); /* simulation default */
  hyd_system_free (sys);
}

static void
test_flow_meter_errors (void)
{
  const char *bypass = HEAD "\"components\": ["
    "{\"id\": \"V1\", \"type\": \"volume\"}, {\"id\": \"FM1\", \"type\": \"flow_meter\"}],"
    "\"connections\": [{\"from\": \"V1.P\", \"to\": \"FM1.A\"}, {\"from\": \"V1.P2\", \"to\": \"FM1.B\"}]}";
  const char *subs[] = { "FM1", "bypassed", NULL };
  expect_error (bypass, HYD_CIRCUIT_ERROR_FLOW_METER, subs);

  const char *both = HEAD "\"components\": ["
    "{\"id\": \"T1\", \"type\": \"tank\"}, {\"id\": \"T2\", \"type\": \"tank\"},"
    "{\"id\": \"FM1\", \"type\": \"flow_meter\"}],"
    "\"connections\": [{\"from\": \"T1.T\", \"to\": \"FM1.A\"}, {\"from\": \"T2.T\", \"to\": \"FM1.B\"}]}";
  const char *subs2[] = { "FM1", "both sides", NULL };
  expect_error (both, HYD_CIRCUIT_ERROR_FLOW_METER, subs2);
}

static void
test_domain_mismatch (void)
{
  const char *json = HEAD "\"components\": ["
    "{\"id\": \"V1\", \"type\": \"volume\"}, {\"id\": \"G1\", \"type\": \"pressure_gauge\"}],"
    "\"connections\": [{\"from\": \"V1.P\", \"to\": \"G1.P\"}, {\"from\": \"G1.S\", \"to\": \"V1.P2\"}]}";
  GError *error = NULL;
  g_autoptr (HydCircuit) c = hyd_circuit_load_from_data (json, -1, NULL, &error);
  g_assert_null (c);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_DOMAIN);
  g_assert_nonnull (strstr (error->message, "G1.S"));
  g_test_message ("%s", error->message);
  g_error_free (error);
}

/* The assembled analytic Jacobian and ∂f/∂t against central differences. */
static guint
check_assembled (HydSystem *sys, double t, const double *y)
{
  guint n = hyd_system_get_n_states (sys), fails = 0;
  double *J = g_new0 (double, n * n), *dfdt = g_new0 (double, n);
  double *fp = g_new (double, n), *fm = g_new (double, n), *yy = g_new (double, n);
  double *D[2] = { g_new (double, n * (n + 1)), g_new (double, n * (n + 1)) };
  double *sc = g_new (double, n + 1);
  hyd_system_jacobian (sys, t, y, J, dfdt);
  for (guint j = 0; j < n; j++)
    sc[j] = hyd_unit_fd_scale (hyd_system_get_state_unit (sys, j));
  sc[n] = 1.0;
  for (int pass = 0; pass < 2; pass++)
    for (guint j = 0; j <= n; j++)
      {
        double h;
        memcpy (yy, y, sizeof (double) * n);
        if (j < n)
          {
            h = 1e-7 * MAX (fabs (y[j]), sc[j]) / (pass ? 10 : 1);
            yy[j] += h;
            hyd_system_rhs (sys, t, yy, fp);
            yy[j] -= 2 * h;
            hyd_system_rhs (sys, t, yy, fm);
          }
        else
          {
            h = 1e-7 * MAX (fabs (t), 1.0) / (pass ? 10 : 1);
            hyd_system_rhs (sys, t + h, yy, fp);
            hyd_system_rhs (sys, t - h, yy, fm);
          }
        for (guint i = 0; i < n; i++)
          D[pass][i + j * n] = (fp[i] - fm[i]) / (2 * h);
      }
  for (guint i = 0; i < n; i++)
    {
      double rowmax = 0;
      for (guint k = 0; k < n; k++)
        rowmax = MAX (rowmax, fabs (J[i + k * n]) * sc[k]);
      for (guint j = 0; j <= n; j++)
        {
          double a = j < n ? J[i + j * n] : dfdt[i];
          double err;
          if (hyd_fd_judge (a, D[0][i + j * n], D[1][i + j * n], 1e-8 * rowmax / sc[j], &err) == HYD_FD_FAIL)
            {
              g_test_message ("FAIL d %s / d %s: analytic %g FD %g", hyd_system_get_state_name (sys, i),
                              j < n ? hyd_system_get_state_name (sys, j) : "t", a, D[0][i + j * n]);
              fails++;
            }
        }
    }
  g_free (J); g_free (dfdt); g_free (fp); g_free (fm); g_free (yy); g_free (D[0]); g_free (D[1]); g_free (sc);
  return fails;
}

static const char *composite =
  HEAD "\"fluid\": {\"bulk_modulus_model\": \"tait\"},"
  "\"components\": ["
  "{\"id\": \"T1\", \"type\": \"tank\"},"
  "{\"id\": \"PS1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": {\"ramp\": {\"points\": [[0, 5e6], [2, 1.2e7]]}}}},"
  "{\"id\": \"P1\", \"type\": \"fixed_pump\", \"params\": {\"leakage\": 1e-12}},"
  "{\"id\": \"RV1\", \"type\": \"relief_valve\", \"params\": {\"cracking_pressure\": 8e6, \"natural_frequency\": 2000}},"
  "{\"id\": \"V1\", \"type\": \"dcv_4_3\", \"params\": {\"command\": {\"sine\": {\"offset\": 0.2, \"amplitude\": 0.7, \"frequency\": 1}}, \"centre\": \"tandem\", \"spool_time_constant\": 0.01}},"
  "{\"id\": \"C1\", \"type\": \"cylinder_double\", \"params\": {\"initial_position\": 0.1, \"coulomb_friction\": 200, \"static_friction\": 400, \"load_force\": {\"sine\": {\"offset\": 100, \"amplitude\": 50, \"frequency\": 2}}}},"
  "{\"id\": \"A1\", \"type\": \"accumulator\", \"params\": {\"precharge_pressure\": 3e6}},"
  "{\"id\": \"CV1\", \"type\": \"check_valve\"},"
  "{\"id\": \"L1\", \"type\": \"line\", \"params\": {\"model\": \"inertia\", \"minor_loss_coefficient\": 2}},"
  "{\"id\": \"M1\", \"type\": \"motor_fixed\", \"params\": {\"coulomb_friction\": 0.5}},"
  "{\"id\": \"FM1\", \"type\": \"flow_meter\"}],"
  "\"connections\": ["
  "{\"from\": \"P1.S\", \"to\": \"T1.T\"},"
  "{\"from\": \"P1.P\", \"to\": \"CV1.A\", \"length\": 0.3},"
  "{\"from\": \"CV1.B\", \"to\": \"V1.P\", \"length\": 1.0},"
  "{\"from\": \"V1.P\", \"to\": \"RV1.P\", \"length\": 0.2},"
  "{\"from\": \"RV1.T\", \"to\": \"T1.T\"},"
  "{\"from\": \"V1.P\", \"to\": \"A1.P\", \"length\": 0.2},"
  "{\"from\": \"V1.A\", \"to\": \"L1.A\", \"length\": 0.2},"
  "{\"from\": \"L1.B\", \"to\": \"C1.A\", \"length\": 0.2},"
  "{\"from\": \"V1.B\", \"to\": \"FM1.A\", \"length\": 0.5},"
  "{\"from\": \"FM1.B\", \"to\": \"C1.B\", \"length\": 0.5},"
  "{\"from\": \"V1.T\", \"to\": \"M1.A\", \"length\": 0.5},"
  "{\"from\": \"M1.B\", \"to\": \"T1.T\"},"
  "{\"from\": \"PS1.P\", \"to\": \"CV1.A\"}]}";

static void
test_assembled_jacobian (void)
{
  GError *error = NULL;
  HydSystem *sys = compile_json (composite, &error);
  g_assert_no_error (error);
  guint n = hyd_system_get_n_states (sys);
  g_test_message ("composite circuit: %u states", n);
  g_assert_cmpuint (n, >=, 12);
  GRand *rand = g_rand_new_with_seed (20261121);
  double *y = g_new (double, n);
  guint fails = 0;
  for (int trial = 0; trial < 40; trial++)
    {
      double t = g_rand_double_range (rand, 0.01, 1.9);
      hyd_system_set_interval (sys, 0.0, 2.0);
      for (guint i = 0; i < n; i++)
        {
          HydUnit u = hyd_system_get_state_unit (sys, i);
          double base = hyd_system_get_initial_state (sys)[i];
          switch (u)
            {
            case HYD_UNIT_PRESSURE: y[i] = g_rand_double_range (rand, 1e5, 1.5e7); break;
            case HYD_UNIT_POSITION: y[i] = g_rand_double_range (rand, -1e-4, 0.5001); break;
            case HYD_UNIT_VELOCITY: y[i] = g_rand_double_range (rand, -0.05, 0.05); break;
            case HYD_UNIT_ANGULAR_VELOCITY: y[i] = g_rand_double_range (rand, -5, 5); break;
            case HYD_UNIT_FLOW: y[i] = g_rand_double_range (rand, -1e-4, 1e-4); break;
            default: y[i] = base + g_rand_double_range (rand, -0.3, 0.3); break;
            }
        }
      fails += check_assembled (sys, t, y);
    }
  g_assert_cmpuint (fails, ==, 0);
  g_rand_free (rand);
  g_free (y);
  hyd_system_free (sys);
}

static gboolean
has_warning (HydSystem *sys, const char *needle)
{
  GPtrArray *w = hyd_system_get_warnings (sys);
  for (guint k = 0; k < w->len; k++)
    if (strstr (g_ptr_array_index (w, k), needle))
      return TRUE;
  return FALSE;
}

static void
test_lint (void)
{
  /* a pump into a closed cylinder chamber with no relief; the rod side
   * only has a volume */
  const char *json = HEAD "\"components\": ["
    "{\"id\": \"T1\", \"type\": \"tank\"}, {\"id\": \"P1\", \"type\": \"fixed_pump\"},"
    "{\"id\": \"C1\", \"type\": \"cylinder_double\"}, {\"id\": \"V1\", \"type\": \"volume\"}],"
    "\"connections\": [{\"from\": \"P1.S\", \"to\": \"T1.T\"}, {\"from\": \"P1.P\", \"to\": \"C1.A\"},"
    "{\"from\": \"C1.B\", \"to\": \"V1.P\"}]}";
  GError *error = NULL;
  HydSystem *sys = compile_json (json, &error);
  g_assert_no_error (error);
  g_assert_true (has_warning (sys, "P1: the pump has no relief path"));
  g_assert_true (has_warning (sys, "C1.B is blocked in every valve position"));
  g_assert_false (has_warning (sys, "C1.A is blocked"));
  hyd_system_free (sys);

  /* the composite circuit has a relief valve and valves on both chambers */
  sys = compile_json (composite, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hyd_system_get_warnings (sys)->len, ==, 0);
  hyd_system_free (sys);
}

/* ---- events ---- */

typedef struct {
  GArray *t;
} StepTimes;

static gboolean
record_time (double t, const double *y, gpointer user)
{
  g_array_append_val (((StepTimes *) user)->t, t);
  return TRUE;
}

/* A frictionless piston pushed by a constant pressure: x = x0 + a·t²/2 with
 * a = p·A/m, so it reaches the stroke at t_c = √(2·(stroke − x0)/a). With
 * events on, a step ends exactly there. */
static void
test_event_end_stop (void)
{
  const char *json = HEAD "\"components\": ["
    "{\"id\": \"PS1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 1e6}},"
    "{\"id\": \"C1\", \"type\": \"cylinder_single\", \"params\": {\"piston_diameter\": 0.05,"
    " \"stroke\": 0.2, \"mass\": 50, \"viscous_friction\": 0, \"spring_stiffness\": 0,"
    " \"spring_preload\": 0, \"initial_position\": 0.05}}],"
    "\"connections\": [{\"from\": \"PS1.P\", \"to\": \"C1.A\"}]}";
  GError *error = NULL;
  HydSystem *sys = compile_json (json, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hyd_system_get_n_events (sys), ==, 2);
  g_assert_cmpstr (hyd_system_get_event_name (sys, 1), ==, "C1: extended end stop");

  double area = G_PI * 0.05 * 0.05 / 4, a = 1e6 * area / 50;
  double t_c = sqrt (2 * (0.2 - 0.05) / a);
  for (int on = 0; on < 2; on++)
    {
      HydOdeProblem problem;
      hyd_system_get_problem (sys, &problem);
      guint n = hyd_system_get_n_states (sys);
      double *y = g_memdup2 (hyd_system_get_initial_state (sys), sizeof (double) * n);
      double atol[2] = { 1e-6, 1e-5 };
      HydOdeOptions o;
      hyd_ode_options_init (&o);
      o.t_end = 0.2;
      o.rtol = 1e-6;
      o.atol = atol;
      o.events = on;
      o.output = record_time;
      StepTimes st = { g_array_new (FALSE, FALSE, sizeof (double)) };
      o.output_user = &st;
      HydOdeResult res = { 0 };
      g_assert_cmpint (hyd_ode_solve ("rodas4", &problem, &o, y, &res), ==, HYD_ODE_SUCCESS);
      double closest = INFINITY;
      for (guint k = 0; k < st.t->len; k++)
        closest = MIN (closest, fabs (g_array_index (st.t, double, k) - t_c));
      g_test_message ("events %s: %" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT
                      " steps, a step end within %.3g s of the contact at %.9g s",
                      on ? "on" : "off", res.stats.events, res.stats.steps, closest, t_c);
      if (on)
        {
          g_assert_cmpuint (res.stats.events, ==, 1);
          g_assert_cmpfloat (closest, <, 1e-9);
        }
      else
        g_assert_cmpuint (res.stats.events, ==, 0);
      g_array_unref (st.t);
      hyd_ode_result_clear (&res);
      g_free (y);
    }
  hyd_system_free (sys);
}

typedef struct {
  GArray *rows;
  guint n;
} Rows;

static gboolean
keep_row (double t, const double *values, guint n, gpointer user)
{
  Rows *r = user;
  r->n = n;
  g_array_append_vals (r->rows, values, n);
  return TRUE;
}

static Rows
run_example (const char *name, double rtol, gboolean events)
{
  g_autofree char *path = g_build_filename (HYD_TEST_DATA_DIR, "examples", name, NULL);
  GError *error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_file (path, &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  HydSimOptions sim;
  g_assert_true (hyd_circuit_get_sim_options (circuit, &sim, &error));
  sim.rtol = rtol;
  sim.events = events;
  GArray *vars = hyd_system_get_default_variables (sys);
  Rows r = { g_array_new (FALSE, FALSE, sizeof (double)), 0 };
  HydRunSpec spec = { .sim = &sim, .vars = (const int *) vars->data, .n_vars = vars->len,
                      .sample = keep_row, .user = &r };
  HydOdeResult res = { 0 };
  g_assert_cmpint (hyd_run_execute (sys, &spec, &res, NULL), ==, HYD_ODE_SUCCESS);
  hyd_ode_result_clear (&res);
  hyd_sim_options_clear (&sim);
  g_array_unref (vars);
  hyd_system_free (sys);
  return r;
}

/* Max relative deviation from the reference over the samples of one column. */
static double
column_error (const Rows *a, const Rows *ref, guint col, double floor)
{
  double worst = 0;
  guint rows = MIN (a->rows->len, ref->rows->len) / a->n;
  for (guint k = 0; k < rows; k++)
    {
      double x = g_array_index (a->rows, double, k * a->n + col);
      double xr = g_array_index (ref->rows, double, k * a->n + col);
      worst = MAX (worst, fabs (x - xr) / (floor + 1e-4 * fabs (xr)));
    }
  return worst;
}

/* Events help where a piston strikes its end stop: Burton's cylinders run
 * into their stiff stops. Against a tight reference, the run with events is
 * closer at the default tolerance. */
static void
test_event_accuracy (void)
{
  Rows ref = run_example ("burton-two-actuator.bramah", 1e-9, TRUE);
  Rows on = run_example ("burton-two-actuator.bramah", 1e-4, TRUE);
  Rows off = run_example ("burton-two-actuator.bramah", 1e-4, FALSE);
  double e_on = 0, e_off = 0;
  for (guint c = 1; c < on.n; c++)
    {
      e_on = MAX (e_on, column_error (&on, &ref, c, 1e-3));
      e_off = MAX (e_off, column_error (&off, &ref, c, 1e-3));
    }
  g_test_message ("Burton two-actuator at rtol 1e-4: error (in units of 1e-3 + 1e-4*|y|) "
                  "%.3g with events, %.3g without", e_on, e_off);
  g_assert_cmpfloat (e_on, <, e_off);
  g_array_unref (ref.rows);
  g_array_unref (on.rows);
  g_array_unref (off.rows);
}

/* ---- relief valve rating and make-up check valves (issue 8) ---- */

/* flow source Q (m³/s) → node (1 L) → relief valve (nominal Qn) → tank;
 * extra: more relief parameters as JSON members. */
static char *
relief_circuit (double q, double qn, const char *extra)
{
  return g_strdup_printf (HEAD "\"simulation\": {\"t_end\": 3, \"output_interval\": 0.01},"
                          "\"components\": ["
                          "{\"id\": \"FS1\", \"type\": \"flow_source\", \"params\": {\"flow\": %.17g}},"
                          "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"volume\": 1e-3}},"
                          "{\"id\": \"RV1\", \"type\": \"relief_valve\", \"params\": {"
                          "\"cracking_pressure\": 1e7, \"override_pressure\": 1e6, "
                          "\"nominal_flow\": %.17g%s}},"
                          "{\"id\": \"T1\", \"type\": \"tank\"}],"
                          "\"connections\": [{\"from\": \"FS1.P\", \"to\": \"V1.P\"},"
                          "{\"from\": \"V1.P2\", \"to\": \"RV1.P\"}, {\"from\": \"RV1.T\", \"to\": \"T1.T\"}]}",
                          q, qn, extra);
}

static void
test_lint_relief_rating (void)
{
  GError *error = NULL;
  /* 25 L/min into a valve rated 10 L/min (esque-circuit2 before issue 8) */
  g_autofree char *low = relief_circuit (25.0 / 6e4, 10.0 / 6e4, "");
  HydSystem *sys = compile_json (low, &error);
  g_assert_no_error (error);
  g_assert_true (has_warning (sys, "RV1: the relief valve on the line of flow source FS1 is "
                                   "rated for 10 L/min"));
  hyd_system_free (sys);
  /* rated for the flow: quiet */
  g_autofree char *ok = relief_circuit (25.0 / 6e4, 30.0 / 6e4, "");
  sys = compile_json (ok, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hyd_system_get_warnings (sys)->len, ==, 0);
  hyd_system_free (sys);

  /* a pump whose speed profile reaches 3000 rpm: its largest flow counts */
  const char *json = HEAD "\"components\": ["
    "{\"id\": \"T1\", \"type\": \"tank\"},"
    "{\"id\": \"P1\", \"type\": \"fixed_pump\", \"params\": {\"displacement\": 1.6e-6,"
    " \"speed\": {\"step\": {\"times\": [1], \"values\": [157, 314]}}}},"
    "{\"id\": \"RV1\", \"type\": \"relief_valve\", \"params\": {\"nominal_flow\": 3.5e-4}}],"
    "\"connections\": [{\"from\": \"P1.S\", \"to\": \"T1.T\"}, {\"from\": \"P1.P\", \"to\": \"RV1.P\"},"
    "{\"from\": \"RV1.T\", \"to\": \"T1.T\"}]}";
  sys = compile_json (json, &error);
  g_assert_no_error (error);
  g_assert_true (has_warning (sys, "line of pump P1"));
  hyd_system_free (sys);
}

/* tank → CV1 (params) → V1 → O1 → tank */
static char *
makeup_circuit (const char *params)
{
  return g_strdup_printf (HEAD "\"components\": ["
                          "{\"id\": \"T1\", \"type\": \"tank\"}, {\"id\": \"CV1\", \"type\": \"check_valve\"%s},"
                          "{\"id\": \"V1\", \"type\": \"volume\"}, {\"id\": \"O1\", \"type\": \"orifice\"}],"
                          "\"connections\": [{\"from\": \"T1.T\", \"to\": \"CV1.A\"}, {\"from\": \"CV1.B\", \"to\": \"V1.P\"},"
                          "{\"from\": \"V1.P2\", \"to\": \"O1.A\"}, {\"from\": \"O1.B\", \"to\": \"T1.T\"}]}",
                          params);
}

static void
test_lint_makeup_check (void)
{
  GError *error = NULL;
  /* the contract's defaults, 0.5 + 2 bar, fed from the tank */
  g_autofree char *defaults = makeup_circuit ("");
  HydSystem *sys = compile_json (defaults, &error);
  g_assert_no_error (error);
  g_assert_true (has_warning (sys, "CV1: this check valve takes oil from tank T1 but can never "
                                   "open fully: it needs 2.5 bar"));
  hyd_system_free (sys);
  /* a make-up valve: 0.1 + 0.3 bar */
  g_autofree char *makeup = makeup_circuit (", \"params\": {\"cracking_pressure\": 1e4, "
                                            "\"opening_range\": 3e4}");
  sys = compile_json (makeup, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hyd_system_get_warnings (sys)->len, ==, 0);
  hyd_system_free (sys);
  /* the same defaults not fed from a tank: quiet (O1 feeds A from the volume's side) */
  const char *json = HEAD "\"components\": ["
    "{\"id\": \"PS1\", \"type\": \"pressure_source\"}, {\"id\": \"O1\", \"type\": \"orifice\"},"
    "{\"id\": \"V0\", \"type\": \"volume\"}, {\"id\": \"CV1\", \"type\": \"check_valve\"},"
    "{\"id\": \"V1\", \"type\": \"volume\"}],"
    "\"connections\": [{\"from\": \"PS1.P\", \"to\": \"O1.A\"}, {\"from\": \"O1.B\", \"to\": \"V0.P\"},"
    "{\"from\": \"V0.P2\", \"to\": \"CV1.A\"}, {\"from\": \"CV1.B\", \"to\": \"V1.P\"}]}";
  sys = compile_json (json, &error);
  g_assert_no_error (error);
  g_assert_false (has_warning (sys, "check valve takes oil from tank"));
  hyd_system_free (sys);
}

/* Runs a circuit to its end; returns the run's warnings and the last value
 * of variable `var`. */
static GPtrArray *
run_warnings (const char *json, const char *var, double *last)
{
  GError *error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "test.bramah", &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  HydSimOptions sim;
  g_assert_true (hyd_circuit_get_sim_options (circuit, &sim, &error));
  int v = hyd_system_find_variable (sys, var);
  g_assert_cmpint (v, >=, 0);
  Rows r = { g_array_new (FALSE, FALSE, sizeof (double)), 0 };
  HydRunSpec spec = { .sim = &sim, .vars = &v, .n_vars = 1, .sample = keep_row, .user = &r };
  GPtrArray *warnings = g_ptr_array_new_with_free_func (g_free);
  HydOdeResult res = { 0 };
  g_assert_cmpint (hyd_run_execute (sys, &spec, &res, warnings), ==, HYD_ODE_SUCCESS);
  *last = g_array_index (r.rows, double, r.rows->len - 1);
  hyd_ode_result_clear (&res);
  hyd_sim_options_clear (&sim);
  g_array_unref (r.rows);
  hyd_system_free (sys);
  return warnings;
}

static gboolean
any_contains (GPtrArray *w, const char *needle)
{
  for (guint k = 0; k < w->len; k++)
    if (strstr (g_ptr_array_index (w, k), needle))
      return TRUE;
  return FALSE;
}

/* A relief valve passing far more than its rating warns during the run;
 * with max_opening M it ends as an orifice of M·A_nom: 25 L/min through a
 * 10 L/min valve (rated at 110 bar) opened at most 1.2 needs
 * Δp = 110 bar·(25/(10·1.2))² = 477.4 bar. */
static void
test_run_relief_overflow (void)
{
  double p;
  g_autofree char *free_v = relief_circuit (25.0 / 6e4, 10.0 / 6e4, "");
  g_autoptr (GPtrArray) w = run_warnings (free_v, "RV1.P.p", &p);
  g_assert_true (any_contains (w, "RV1: the relief valve passes"));
  g_assert_true (any_contains (w, "times its nominal flow of 10 L/min"));
  /* the contract's unlimited valve: s = 2.36 at about 123.6 bar */
  g_assert_cmpfloat (p, >, 1.2e7);
  g_assert_cmpfloat (p, <, 1.25e7);

  g_autofree char *limited = relief_circuit (25.0 / 6e4, 10.0 / 6e4, ", \"max_opening\": 1.2");
  g_autoptr (GPtrArray) w2 = run_warnings (limited, "RV1.P.p", &p);
  double dp = 1.1e7 * pow (25.0 / 12.0, 2);
  g_test_message ("max_opening 1.2: %.6g Pa, closed form %.6g Pa", p, dp);
  g_assert_cmpfloat (fabs (p - dp) / dp, <, 1e-3);
  g_assert_true (any_contains (w2, "RV1: the relief valve passes"));

  g_autofree char *rated = relief_circuit (25.0 / 6e4, 30.0 / 6e4, "");
  g_autoptr (GPtrArray) w3 = run_warnings (rated, "RV1.P.p", &p);
  g_assert_false (any_contains (w3, "relief valve passes"));
}

/* A chain of k volumes and orifices (the shape of a 10^5-component
 * check): flow source → (volume, orifice) × k → tank. */
static char *
chain_json (guint k)
{
  GString *s = g_string_new (HEAD "\"components\": [{\"id\": \"FS1\", \"type\": \"flow_source\", "
                                  "\"params\": {\"flow\": 0.001}}");
  for (guint i = 1; i <= k; i++)
    g_string_append_printf (s, ", {\"id\": \"V%u\", \"type\": \"volume\", \"params\": {\"volume\": 1e-4}}"
                               ", {\"id\": \"OR%u\", \"type\": \"orifice\", \"params\": {\"diameter\": 0.004}}",
                            i, i);
  g_string_append (s, ", {\"id\": \"T1\", \"type\": \"tank\"}], \"connections\": [");
  for (guint i = 1; i <= k; i++)
    {
      if (i == 1)
        g_string_append (s, "{\"from\": \"FS1.P\", \"to\": \"V1.P\"}");
      else
        g_string_append_printf (s, ", {\"from\": \"OR%u.B\", \"to\": \"V%u.P\"}", i - 1, i);
      g_string_append_printf (s, ", {\"from\": \"V%u.P2\", \"to\": \"OR%u.A\"}", i, i);
    }
  g_string_append_printf (s, ", {\"from\": \"OR%u.B\", \"to\": \"T1.T\"}]}", k);
  return g_string_free (s, FALSE);
}

typedef struct {
  HydSystem *sys;
  guint k;
  int *found;  /* [k] index of "V<i>.P.void" */
} ChainLookup;

static gpointer
chain_lookup_thread (gpointer data)
{
  ChainLookup *cl = data;
  for (guint i = 1; i <= cl->k; i++)
    {
      g_autofree char *name = g_strdup_printf ("V%u.P.void", i);
      cl->found[i - 1] = hyd_system_find_variable (cl->sys, name);
    }
  return NULL;
}

/* The compiled chain: nodes, states, the tridiagonal pattern in sorted
 * compressed columns, and the variables, named on first use from several
 * threads at once exactly as one thread names them. */
static void
test_large_chain (void)
{
  const guint k = 3000;
  g_autofree char *json = chain_json (k);
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "chain.bramah", &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hyd_system_get_n_nodes (sys), ==, k + 1);
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, k);

  guint nnz;
  const guint *colptr, *rowind;
  hyd_system_get_pattern (sys, &nnz, &colptr, &rowind);
  g_assert_cmpuint (nnz, ==, 3 * k - 2);
  for (guint j = 0; j < k; j++)
    {
      guint expect_rows = (j == 0 || j == k - 1) ? 2 : 3;
      g_assert_cmpuint (colptr[j + 1] - colptr[j], ==, expect_rows);
      for (guint e = colptr[j]; e < colptr[j + 1]; e++)
        {
          g_assert_cmpuint (rowind[e] + 1, >=, j);
          g_assert_cmpuint (rowind[e], <=, j + 1);
          if (e > colptr[j])
            g_assert_cmpuint (rowind[e], >, rowind[e - 1]);
        }
    }

  /* one thread's answer, then four at once on a fresh system */
  int *serial = g_new (int, k);
  ChainLookup one = { sys, k, serial };
  chain_lookup_thread (&one);
  HydSystem *fresh = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  ChainLookup many[4];
  GThread *threads[4];
  for (guint t = 0; t < 4; t++)
    {
      many[t] = (ChainLookup) { fresh, k, g_new (int, k) };
      threads[t] = g_thread_new ("lookup", chain_lookup_thread, &many[t]);
    }
  for (guint t = 0; t < 4; t++)
    {
      g_thread_join (threads[t]);
      g_assert_cmpmem (many[t].found, k * sizeof (int), serial, k * sizeof (int));
      g_free (many[t].found);
    }
  /* "V<i>.P.void" is the void of the node whose first port is OR<i−1>.B */
  for (guint i = 2; i <= k; i++)
    {
      g_autofree char *first = g_strdup_printf ("OR%u.B.void", i - 1);
      g_assert_cmpint (serial[i - 1], >=, 0);
      g_assert_cmpint (serial[i - 1], ==, hyd_system_find_variable (sys, first));
      g_assert_cmpstr (hyd_system_get_variable_name (sys, (guint) serial[i - 1]), ==, first);
    }
  g_assert_cmpint (serial[0], ==, hyd_system_find_variable (sys, "FS1.P.void"));
  g_assert_cmpuint (hyd_system_get_n_variables (sys), ==, hyd_system_get_n_variables (fresh));
  for (guint v = 0; v < hyd_system_get_n_variables (sys); v++)
    g_assert_cmpstr (hyd_system_get_variable_name (sys, v), ==, hyd_system_get_variable_name (fresh, v));
  g_free (serial);
  hyd_system_free (fresh);
  hyd_system_free (sys);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/system/layout", test_layout);
  g_test_add_func ("/engine/system/reported-flows", test_reported_flows);
  g_test_add_func ("/engine/system/error/no-volume", test_no_volume);
  g_test_add_func ("/engine/system/error/short-circuit", test_short_circuit);
  g_test_add_func ("/engine/system/error/unconnected", test_unconnected);
  g_test_add_func ("/engine/system/error/initial-pressure", test_initial_pressure);
  g_test_add_func ("/engine/system/error/flow-meter", test_flow_meter_errors);
  g_test_add_func ("/engine/system/error/domain-mismatch", test_domain_mismatch);
  g_test_add_func ("/engine/system/assembled-jacobian", test_assembled_jacobian);
  g_test_add_func ("/engine/system/lint", test_lint);
  g_test_add_func ("/engine/system/lint/relief-rating", test_lint_relief_rating);
  g_test_add_func ("/engine/system/lint/makeup-check-valve", test_lint_makeup_check);
  g_test_add_func ("/engine/system/run/relief-overflow", test_run_relief_overflow);
  g_test_add_func ("/engine/system/events/end-stop-located", test_event_end_stop);
  g_test_add_func ("/engine/system/events/on-off-accuracy", test_event_accuracy);
  g_test_add_func ("/engine/system/large-chain", test_large_chain);
  return g_test_run ();
}
