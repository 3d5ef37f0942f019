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

typedef struct {
  GArray *rows;
  guint n;
} Rows;

static gboolean
keep_row (double t, const double *values, guint n, gpointer user)
{
  Rows *r = user;
  r->n = n + 1;
  g_array_append_val (r->rows, t);
  g_array_append_vals (r->rows, values, n);
  return TRUE;
}

/* Runs sys to t_end at rtol 1e-8, sampling `names` every dt. */
static Rows
run (HydSystem *sys, const char *const *names, guint n_names, double t_end, double dt)
{
  HydSimOptions sim;
  g_autoptr (HydCircuit) empty = hyd_circuit_new ();
  g_assert_true (hyd_circuit_get_sim_options (empty, &sim, NULL));
  sim.t_end = t_end;
  sim.output_interval = dt;
  sim.rtol = 1e-8;
  for (guint k = 0; k < HYD_ATOL_N_KINDS; k++)
    sim.atol[k] *= 1e-8 / 1e-4;
  int vars[6];
  g_assert_cmpuint (n_names, <=, G_N_ELEMENTS (vars));
  for (guint k = 0; k < n_names; k++)
    {
      vars[k] = hyd_system_find_variable (sys, names[k]);
      if (vars[k] < 0)
        g_error ("no variable %s", names[k]);
    }
  Rows r = { g_array_new (FALSE, FALSE, sizeof (double)), 0 };
  HydRunSpec spec = { .sim = &sim, .vars = vars, .n_vars = n_names, .sample = keep_row, .user = &r };
  HydOdeResult res = { 0 };
  HydOdeStatus st = hyd_run_execute (sys, &spec, &res, NULL);
  if (st != HYD_ODE_SUCCESS)
    g_error ("run failed: %s", res.message);
  hyd_ode_result_clear (&res);
  hyd_sim_options_clear (&sim);
  return r;
}

#define ROW(r, i) (&g_array_index ((r).rows, double, (gsize) (i) * (r).n))
#define N_ROWS(r) ((r).rows->len / (r).n)

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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/hydparts/cooler/values", test_cooler_values);
  g_test_add_func ("/engine/hydparts/cooler/jacobian", test_cooler_jacobian);
  g_test_add_func ("/engine/hydparts/cooler/circuit", test_cooler_circuit);
  return g_test_run ();
}
