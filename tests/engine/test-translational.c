/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-translational.c — the cylinder's rod as a translational port and the
 * translational parts built on it: each law's analytic partials against
 * central differences (locally and in the assembled system), and circuits
 * against independent truth: a version 1 cylinder against the same cylinder
 * with part of its mass on the rod's node; the natural frequency of a mass
 * on a spring, √(k/m), and of a mass on the oil column, √(β·A²·(1/V_A +
 * 1/V_B)/m) (Merritt 1967, Hydraulic Control Systems, §5.2). */
#include <math.h>
#include <string.h>

#include "fd-harness.h"
#include "hyd-catalogue.h"
#include "hyd-circuit.h"
#include "hyd-run.h"
#include "hyd-system.h"

#define HEAD "{\"format\": \"bramah-circuit\", \"version\": 2, "
#define CONSTANT_FLUID "\"fluid\": {\"bulk_modulus_model\": \"constant\"}, "

/* ------------------------------------------------------------- helpers */

static HydSystem *
compile_json (const char *json, GError **error)
{
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "test.bramah", error);
  if (circuit == NULL)
    return NULL;
  return hyd_system_compile (circuit, error);
}

static HydSystem *
compile_ok (const char *json)
{
  g_autoptr (GError) error = NULL;
  HydSystem *sys = compile_json (json, &error);
  g_assert_no_error (error);
  g_assert_nonnull (sys);
  return sys;
}

typedef HydTestRows Rows;
#define ROW HYD_TEST_ROW
#define N_ROWS HYD_TEST_N_ROWS

/* Runs sys to t_end at rtol, sampling `names` every dt. */
static Rows
run (HydSystem *sys, const char *const *names, guint n_names, double t_end, double dt, double rtol)
{
  return hyd_test_run (sys, names, n_names, t_end, dt, rtol, -1, NULL);
}

/* The assembled Jacobian (dense and sparse) and ∂f/∂t against central
 * differences at (t, y): each entry within 1e-6 of max(|FD|, its row's
 * scale), the sparse values equal to the dense ones. */
static void
check_jacobian (HydSystem *sys, double t, const double *y)
{
  guint n = hyd_system_get_n_states (sys);
  g_autofree double *J = g_new0 (double, n * n);
  g_autofree double *ft = g_new0 (double, n);
  g_autofree double *yy = g_memdup2 (y, n * sizeof (double));
  g_autofree double *fp = g_new0 (double, n);
  g_autofree double *fm = g_new0 (double, n);
  g_autofree double *D = g_new0 (double, n * n);
  g_autofree double *rowmax = g_new0 (double, n);
  g_assert_cmpint (hyd_system_jacobian (sys, t, y, J, ft), ==, 0);
  for (guint j = 0; j < n; j++)
    {
      double h = 1e-6 * MAX (fabs (y[j]), 1e-3);
      yy[j] = y[j] + h;
      g_assert_cmpint (hyd_system_rhs (sys, t, yy, fp), ==, 0);
      yy[j] = y[j] - h;
      g_assert_cmpint (hyd_system_rhs (sys, t, yy, fm), ==, 0);
      yy[j] = y[j];
      for (guint i = 0; i < n; i++)
        {
          D[i + j * n] = (fp[i] - fm[i]) / (2 * h);
          rowmax[i] = MAX (rowmax[i], fabs (D[i + j * n]) * MAX (fabs (y[j]), 1e-3));
        }
    }
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        double scale = MAX (fabs (D[i + j * n]), rowmax[i] / MAX (fabs (y[j]), 1e-3) * 1e-3);
        if (fabs (J[i + j * n] - D[i + j * n]) > 1e-6 * MAX (scale, 1e-9))
          g_error ("J[%s, %s] = %.10g, finite differences %.10g", hyd_system_get_state_name (sys, i),
                   hyd_system_get_state_name (sys, j), J[i + j * n], D[i + j * n]);
      }
  /* the sparse assembly gives the same values */
  guint nnz;
  const guint *colptr, *rowind;
  hyd_system_get_pattern (sys, &nnz, &colptr, &rowind);
  g_autofree double *Js = g_new0 (double, nnz + 1);
  g_assert_cmpint (hyd_system_jacobian_sparse (sys, t, y, Js, NULL), ==, 0);
  for (guint j = 0; j < n; j++)
    for (guint k = colptr[j]; k < colptr[j + 1]; k++)
      g_assert_cmpfloat (Js[k], ==, J[rowind[k] + j * n]);
  double h = 1e-6;
  hyd_system_set_interval (sys, t - 1.0, t + 1.0);
  g_assert_cmpint (hyd_system_rhs (sys, t + h, y, fp), ==, 0);
  g_assert_cmpint (hyd_system_rhs (sys, t - h, y, fm), ==, 0);
  for (guint i = 0; i < n; i++)
    {
      double d = (fp[i] - fm[i]) / (2 * h);
      if (fabs (ft[i] - d) > 1e-6 * MAX (fabs (d), fabs (ft[i])) + 1e-9)
        g_error ("df/dt[%s] = %.10g, finite differences %.10g", hyd_system_get_state_name (sys, i), ft[i], d);
    }
}

static int
state_index (HydSystem *sys, const char *name)
{
  for (guint k = 0; k < hyd_system_get_n_states (sys); k++)
    if (strcmp (hyd_system_get_state_name (sys, k), name) == 0)
      return (int) k;
  g_error ("no state %s", name);
  return -1;
}

/* ------------------------------------------------- the rod: local partials */

/* The wired cylinder's partials at random points, at the friction's
 * velocity scales and in and beyond the end stops' blend (as the version 1
 * checks in test-components-b, now with the rod's velocity as a column). */
static void
test_rod_partials (void)
{
  guint failures = 0;
  GRand *rng = g_rand_new_with_seed (1107);
  HydComp *cd = hyd_test_make_comp_wired ("cylinder_double", NULL, 1u << 2, "coulomb_friction", "300",
                                          "static_friction", "500", "leakage", "1e-12",
                                          "load_force", "2000", NULL);
  hyd_test_set_param_rate (cd, "load_force", 1500.0);
  HydComp *cs = hyd_test_make_comp_wired ("cylinder_single", NULL, 1u << 1, "coulomb_friction", "200",
                                          "static_friction", "400", "load_force", "-300", NULL);
  hyd_test_set_param_rate (cs, "load_force", -700.0);
  g_assert_cmpuint (cd->n_states, ==, 1);
  g_assert_cmpuint (cs->n_states, ==, 1);
  g_assert_cmpuint (cd->n_pos, ==, 3);
  const double vs[] = { 0.0, 1e-5, -3e-4, 1e-3, -2.5e-3, 0.02, -0.035, 0.1 };
  const double xs[] = { 0.2, 1e-7, -5e-7, -3e-6, -9.99e-5, -1.5e-4, -0.03,
                        0.5 - 1e-4, 0.5 + 5e-7, 0.5 + 5e-5, 0.5 + 0.05 };
  for (guint i = 0; i < 40; i++)
    {
      double p[3] = { g_rand_double_range (rng, -5e4, 3e7), g_rand_double_range (rng, -5e4, 3e7),
                      g_rand_double_range (rng, -0.5, 0.5) };
      double x[1] = { g_rand_double_range (rng, -2e-4, 0.5 + 2e-4) };
      double pos[3] = { 0.0, 0.0, g_rand_double_range (rng, -1, 1) };
      failures += hyd_test_check_component_pos (cd, 0.7, p, x, pos, "random");
      double ps[2] = { p[0], p[2] };
      failures += hyd_test_check_component_pos (cs, 0.7, ps, x, pos, "random");
    }
  /* the single-acting one at version 1's points (test-components-b) */
  const double xs1[] = { 0.1, -1e-6, -5e-5, -1.2e-4, -0.01, -0.03, 0.5 + 1e-6, 0.5 + 5e-5, 0.5 + 2e-4 };
  for (guint i = 0; i < G_N_ELEMENTS (vs); i++)
    {
      for (guint j = 0; j < G_N_ELEMENTS (xs); j++)
        {
          double p[3] = { 8e6, 1e6, vs[i] }, x[1] = { xs[j] };
          g_autofree char *where = g_strdup_printf ("friction/stop x=%g v=%g", xs[j], vs[i]);
          failures += hyd_test_check_component_pos (cd, 0.3, p, x, NULL, where);
        }
      for (guint j = 0; j < G_N_ELEMENTS (xs1); j++)
        {
          double ps[2] = { 3e6, vs[i] }, x[1] = { xs1[j] };
          g_autofree char *where = g_strdup_printf ("friction/stop x=%g v=%g", xs1[j], vs[i]);
          failures += hyd_test_check_component_pos (cs, 0.3, ps, x, NULL, where);
        }
    }

  /* the rod's force and the mass it puts on the node: −F̂_R is the net
   * force on the piston, as the version 1 cylinder's m·v̇ */
  HydComp *v1 = hyd_test_make_comp ("cylinder_double", NULL, "coulomb_friction", "300", "static_friction",
                                    "500", "leakage", "1e-12", "load_force", "2000", NULL);
  double p1[3] = { 8e6, 1e6, 0.0 }, x1[2] = { 0.2, 0.013 }, q1[3], xd1[2], o1[2];
  double p2[3] = { 8e6, 1e6, 0.013 }, x2[1] = { 0.2 }, q2[3], xd2[1], o2[3];
  hyd_test_eval (v1, 0.0, p1, x1, q1, xd1, o1);
  hyd_test_eval (cd, 0.0, p2, x2, q2, xd2, o2);
  g_assert_cmpfloat (fabs (-q2[2] - 100.0 * xd1[1]), <=, 1e-9 * fabs (q2[2]));
  g_assert_cmpfloat (xd2[0], ==, 0.013);
  g_assert_cmpfloat (o2[0], ==, o1[0]);
  g_assert_cmpfloat (o2[2], ==, 0.013);
  g_assert_cmpfloat (q2[0], ==, q1[0]);
  hyd_comp_free (v1);

  hyd_comp_free (cd);
  hyd_comp_free (cs);
  g_rand_free (rng);
  g_assert_cmpuint (failures, ==, 0);
}

/* ---------------------------------------------- the rod: compiled circuits */

/* A pressure source drives a cylinder through an orifice, its rod side
 * drains through another; the stroke ends at 0.2 m so the run hits the end
 * stop. MASS: the cylinder's mass; ROD: extra components and wires. */
#define DRIVE_CIRCUIT(MASS, ROD_COMPONENTS, ROD_WIRES) \
  HEAD "\"components\": [" \
  "{\"id\": \"PS\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 1e7}}," \
  "{\"id\": \"T1\", \"type\": \"tank\"}," \
  "{\"id\": \"O1\", \"type\": \"orifice\", \"params\": {\"diameter\": 0.003}}," \
  "{\"id\": \"O2\", \"type\": \"orifice\", \"params\": {\"diameter\": 0.003}}," \
  "{\"id\": \"C1\", \"type\": \"cylinder_double\", \"params\": {\"stroke\": 0.2, \"mass\": " MASS "," \
  " \"coulomb_friction\": 150, \"static_friction\": 250, \"load_force\": 800}}" ROD_COMPONENTS "]," \
  "\"connections\": [{\"from\": \"PS.P\", \"to\": \"O1.A\"}, {\"from\": \"O1.B\", \"to\": \"C1.A\", \"initial_pressure\": 5e6}," \
  "{\"from\": \"C1.B\", \"to\": \"O2.A\", \"initial_pressure\": 1e6}, {\"from\": \"O2.B\", \"to\": \"T1.T\"}" ROD_WIRES "]}"

/* Unwired, the rod makes no node: the states are version 1's (two nodes,
 * C1.x and C1.v), nothing asks for a mass, nothing is called C1.R. */
static void
test_rod_unwired (void)
{
  HydSystem *sys = compile_ok (DRIVE_CIRCUIT ("100", "", ""));
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 4);
  g_assert_cmpint (hyd_system_find_variable (sys, "C1.x"), >=, 0);
  g_assert_cmpint (hyd_system_find_variable (sys, "C1.v"), >=, 0);
  g_assert_cmpint (hyd_system_find_variable (sys, "C1.R.v"), <, 0);
  hyd_system_free (sys);

  /* a wired rod without any mass but the cylinder's own is fine: the
   * cylinder puts its mass there */
  sys = compile_ok (DRIVE_CIRCUIT ("100", ",{\"id\": \"F1\", \"type\": \"force_source\"}",
                                   ",{\"from\": \"C1.R\", \"to\": \"F1.A\"}"));
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 5);
  g_assert_cmpint (hyd_system_find_variable (sys, "C1.x"), >=, 0);
  g_assert_cmpint (hyd_system_find_variable (sys, "C1.v"), >=, 0); /* the output */
  hyd_system_free (sys);

  /* the rod's node starts where the piston does, at its velocity, unless
   * a wire says otherwise */
#define START_CIRCUIT(WIRE) \
  HEAD "\"components\": [" \
  "{\"id\": \"T1\", \"type\": \"tank\"}," \
  "{\"id\": \"C1\", \"type\": \"cylinder_single\", \"params\": {\"initial_velocity\": 0.1, \"initial_position\": 0.05}}," \
  "{\"id\": \"M1\", \"type\": \"mass\"}]," \
  "\"connections\": [{\"from\": \"T1.T\", \"to\": \"C1.A\"}, {\"from\": \"C1.R\", \"to\": \"M1.A\"" WIRE "}]}"
  sys = compile_ok (START_CIRCUIT (""));
  const double *y0 = hyd_system_get_initial_state (sys);
  g_assert_cmpfloat (y0[state_index (sys, "C1.R.v")], ==, 0.1);
  g_assert_cmpfloat (y0[state_index (sys, "C1.R.x")], ==, 0.05);
  g_assert_cmpfloat (y0[state_index (sys, "C1.x")], ==, 0.05);
  hyd_system_free (sys);
  sys = compile_ok (START_CIRCUIT (", \"initial_position\": 0.3"));
  y0 = hyd_system_get_initial_state (sys);
  g_assert_cmpfloat (y0[state_index (sys, "C1.R.v")], ==, 0.1);
  g_assert_cmpfloat (y0[state_index (sys, "C1.R.x")], ==, 0.3);
  g_assert_cmpfloat (y0[state_index (sys, "C1.x")], ==, 0.05);
  hyd_system_free (sys);

  /* two pistons on one rod node that start at different places */
  g_autoptr (GError) error = NULL;
  sys = compile_json (HEAD "\"components\": ["
                      "{\"id\": \"T1\", \"type\": \"tank\"}, {\"id\": \"T2\", \"type\": \"tank\"},"
                      "{\"id\": \"C1\", \"type\": \"cylinder_single\", \"params\": {\"initial_position\": 0.1}},"
                      "{\"id\": \"C2\", \"type\": \"cylinder_single\", \"params\": {\"initial_position\": 0.2}}],"
                      "\"connections\": [{\"from\": \"T1.T\", \"to\": \"C1.A\"}, {\"from\": \"T2.T\", \"to\": \"C2.A\"},"
                      "{\"from\": \"C1.R\", \"to\": \"C2.R\"}]}",
                      &error);
  g_assert_null (sys);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "C1"));
  g_assert_nonnull (strstr (error->message, "C2"));
  g_assert_nonnull (strstr (error->message, "initial_position"));
}

/* A version 1 cylinder of mass 100 kg against the same cylinder of 40 kg
 * with a 60 kg mass on its rod: the same motion (friction, the load, the
 * end stop at 0.2 m and the pressures). The bound, chosen before the run:
 * both at rtol 1e-8, within 1e-6 m and 1e-3 bar. */
static void
test_rod_equivalence (void)
{
  HydSystem *a = compile_ok (DRIVE_CIRCUIT ("100", "", ""));
  HydSystem *b = compile_ok (DRIVE_CIRCUIT ("40", ",{\"id\": \"M1\", \"type\": \"mass\", \"params\": {\"mass\": 60}}",
                                            ",{\"from\": \"C1.R\", \"to\": \"M1.A\"}"));
  const char *na[] = { "C1.x", "C1.v", "C1.A.p" };
  const char *nb[] = { "C1.x", "C1.R.v", "C1.A.p", "C1.R.x" };
  Rows ra = run (a, na, 3, 1.5, 0.005, 1e-8);
  Rows rb = run (b, nb, 4, 1.5, 0.005, 1e-8);
  g_assert_cmpuint (N_ROWS (ra), ==, N_ROWS (rb));
  double worst_x = 0, worst_v = 0, worst_p = 0, worst_rod = 0, x_end = ROW (ra, N_ROWS (ra) - 1)[1];
  for (guint i = 0; i < N_ROWS (ra); i++)
    {
      const double *ya = ROW (ra, i), *yb = ROW (rb, i);
      g_assert_cmpfloat (ya[0], ==, yb[0]);
      worst_x = MAX (worst_x, fabs (ya[1] - yb[1]));
      worst_v = MAX (worst_v, fabs (ya[2] - yb[2]));
      worst_p = MAX (worst_p, fabs (ya[3] - yb[3]));
      worst_rod = MAX (worst_rod, fabs (yb[4] - yb[1])); /* the node follows the piston */
    }
  g_test_message ("v1 cylinder 100 kg against 40 kg + 60 kg on R: x(1.5 s) = %.9g m (stroke 0.2 m); "
                  "worst |Δx| = %.3g m, |Δv| = %.3g m/s, |Δp_A| = %.3g Pa; |x_R − x| ≤ %.3g m",
                  x_end, worst_x, worst_v, worst_p, worst_rod);
  g_assert_cmpfloat (fabs (x_end - 0.2), <, 1e-4);   /* it reached the end stop */
  g_assert_cmpfloat (worst_x, <, 1e-6);
  g_assert_cmpfloat (worst_v, <, 1e-5);
  g_assert_cmpfloat (worst_p, <, 100.0);
  g_assert_cmpfloat (worst_rod, <, 1e-9);

  /* the assembled Jacobian at states along the run, in the stop too */
  guint n = hyd_system_get_n_states (b);
  g_autofree double *y = g_new0 (double, n);
  for (guint k = 0; k < n; k++)
    y[k] = hyd_system_get_initial_state (b)[k];
  int ix = state_index (b, "C1.x"), iv = state_index (b, "C1.R.v");
  const double xs[] = { 0.1, 0.2 + 3e-5, -2e-5 }, vv[] = { 0.03, -0.002, 1e-4 };
  for (guint k = 0; k < G_N_ELEMENTS (xs); k++)
    {
      y[ix] = xs[k];
      y[iv] = vv[k];
      check_jacobian (b, 0.4, y);
    }
  g_array_unref (ra.rows);
  g_array_unref (rb.rows);
  hyd_system_free (a);
  hyd_system_free (b);
}

/* A cylinder whose chambers are open to the tank (no hydraulic force) and
 * whose rod holds a spring k = 4000 N/m to a fixed point: a mass–spring of
 * the cylinder's mass (10 kg) and a mass on the rod (30 kg), started at
 * 0.05 m/s from x = 0.1 m: x = 0.1 + v₀/ω·sin ωt, ω = √(k/m) = 10 rad/s
 * (Karnopp, Margolis & Rosenberg 2012, ch. 4). Bound, chosen before: 1e-6 m. */
static void
test_rod_mass_spring (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"T1\", \"type\": \"tank\"}, {\"id\": \"T2\", \"type\": \"tank\"},"
    "{\"id\": \"C1\", \"type\": \"cylinder_double\", \"params\": {\"mass\": 10, \"viscous_friction\": 0,"
    " \"initial_position\": 0.1}},"
    "{\"id\": \"M1\", \"type\": \"mass\", \"params\": {\"mass\": 30}},"
    "{\"id\": \"K1\", \"type\": \"spring\", \"params\": {\"stiffness\": 4000}},"
    "{\"id\": \"X1\", \"type\": \"fixed_point\", \"params\": {\"position\": 0.1}}],"
    "\"connections\": [{\"from\": \"T1.T\", \"to\": \"C1.A\"}, {\"from\": \"C1.B\", \"to\": \"T2.T\"},"
    "{\"from\": \"C1.R\", \"to\": \"M1.A\", \"initial_velocity\": 0.05, \"initial_position\": 0.1},"
    "{\"from\": \"X1.A\", \"to\": \"K1.A\"}, {\"from\": \"K1.B\", \"to\": \"M1.A\"}]}");
  const char *names[] = { "C1.x", "C1.R.x" };
  Rows r = run (sys, names, 2, 2.0, 0.005, 1e-9);
  double w = sqrt (4000.0 / 40.0), worst = 0, worst_rod = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      worst = MAX (worst, fabs (row[1] - (0.1 + 0.05 / w * sin (w * row[0]))));
      worst_rod = MAX (worst_rod, fabs (row[2] - row[1]));
    }
  g_test_message ("mass–spring on the rod: ω = √(k/m) = %g rad/s; worst |x − x_exact| = %.3g m "
                  "(amplitude %g m), |x_R − x| ≤ %.3g m", w, worst, 0.05 / w, worst_rod);
  g_assert_cmpfloat (worst, <, 1e-6);
  g_assert_cmpfloat (worst_rod, <, 1e-12);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* Both chambers closed (each by a volume), 100 bar on the cap side and the
 * pressure that balances it on the rod side, a 200 kg mass on the rod
 * (cylinder 20 kg, no friction) started at 1 mm/s: it oscillates on the
 * oil column at ω_h = √(β·(A_A²/V_A + A_B²/V_B)/m) (Merritt 1967, §5.2; for
 * a symmetric cylinder β·A²·(1/V_A + 1/V_B)/m), the volumes including the
 * hoses (0.5 m × 10 mm each). The period from the up-crossings of the
 * velocity over 7 periods; bound, chosen before: 2e-3 of ω_h. */
static void
test_rod_oil_column (void)
{
  HydSystem *sys = compile_ok (
    HEAD CONSTANT_FLUID "\"components\": ["
    "{\"id\": \"C1\", \"type\": \"cylinder_double\", \"params\": {\"mass\": 20, \"viscous_friction\": 0,"
    " \"piston_diameter\": 0.05, \"rod_diameter\": 0.028, \"stroke\": 0.5, \"initial_position\": 0.2,"
    " \"dead_volume_a\": 5e-5, \"dead_volume_b\": 5e-5}},"
    "{\"id\": \"VA\", \"type\": \"volume\", \"params\": {\"volume\": 2e-4}},"
    "{\"id\": \"VB\", \"type\": \"volume\", \"params\": {\"volume\": 1e-4}},"
    "{\"id\": \"M1\", \"type\": \"mass\", \"params\": {\"mass\": 200}}],"
    "\"connections\": [{\"from\": \"C1.A\", \"to\": \"VA.P\", \"initial_pressure\": 1e7},"
    "{\"from\": \"C1.B\", \"to\": \"VB.P\", \"initial_pressure\": 14568764.6},"
    "{\"from\": \"C1.R\", \"to\": \"M1.A\", \"initial_velocity\": 0.001}]}");
  double AA = G_PI * 0.05 * 0.05 / 4, AB = G_PI * (0.05 * 0.05 - 0.028 * 0.028) / 4;
  double hose = G_PI * 0.01 * 0.01 / 4 * 0.5;
  double VA = 5e-5 + AA * 0.2 + 2e-4 + hose, VB = 5e-5 + AB * 0.3 + 1e-4 + hose;
  g_assert_cmpfloat (fabs (1e7 * AA / AB - 14568764.6), <, 1.0);
  double beta = 1.5e9;   /* the fluid's bulk_modulus, constant */
  double wh = sqrt (beta * (AA * AA / VA + AB * AB / VB) / 220.0);
  const char *names[] = { "C1.R.v" };
  double period = 2 * G_PI / wh;
  Rows r = run (sys, names, 1, 8.5 * period, period / 400, 1e-9);
  double first = NAN, last = NAN;
  guint crossings = 0;
  for (guint i = 1; i < N_ROWS (r); i++)
    {
      double v0 = ROW (r, i - 1)[1], v1 = ROW (r, i)[1];
      if (v0 < 0 && v1 >= 0)
        {
          double t = ROW (r, i - 1)[0] + (ROW (r, i)[0] - ROW (r, i - 1)[0]) * (-v0) / (v1 - v0);
          if (crossings == 0)
            first = t;
          last = t;
          crossings++;
        }
    }
  g_assert_cmpuint (crossings, >=, 8);
  double w = 2 * G_PI * (crossings - 1) / (last - first);
  g_test_message ("mass on the oil column: ω_h = √(β(A_A²/V_A + A_B²/V_B)/m) = %.6g rad/s, "
                  "measured %.6g rad/s over %u periods (rel. error %.2g)", wh, w, crossings - 1,
                  fabs (w - wh) / wh);
  g_assert_cmpfloat (fabs (w - wh) / wh, <, 2e-3);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* ---------------------------------- travel limits, signal force, sensors */

/* ∂S/∂z of a type's signal outputs against central differences (step 1e-7
 * of the variable's scale), z = [a, pos] (no states); misses returned. */
static guint
check_signals (HydComp *comp, const double *a, const double *pos, const char *where)
{
  guint np = comp->type->n_ports, nl = hyd_comp_n_local (comp), misses = 0;
  g_assert_cmpuint (comp->n_states, ==, 0);
  double z[8], zz[8], s[4], ds[4 * 8], st[4], sp[4], sm[4], dsd[4 * 8], std[4];
  g_assert_cmpuint (nl, <=, 8);
  memcpy (z, a, sizeof (double) * np);
  memcpy (z + np, pos, sizeof (double) * np);
  memset (s, 0, sizeof s);
  memset (ds, 0, sizeof ds);
  memset (st, 0, sizeof st);
  HydEvalIn in = { .t = 0.1, .p = z, .pos = z + np };
  comp->type->signals (comp, &in, s, ds, st);
  for (guint c = 0; c < nl; c++)
    {
      double h = 1e-7 * MAX (fabs (z[c]), 1e-3);
      memcpy (zz, z, sizeof z);
      HydEvalIn in2 = { .t = 0.1, .p = zz, .pos = zz + np };
      zz[c] = z[c] + h;
      memset (sp, 0, sizeof sp);
      comp->type->signals (comp, &in2, sp, dsd, std);
      zz[c] = z[c] - h;
      memset (sm, 0, sizeof sm);
      comp->type->signals (comp, &in2, sm, dsd, std);
      for (guint X = 0; X < np; X++)
        {
          if (comp->type->ports[X].direction != HYD_PORT_OUTPUT)
            continue;
          double D = (sp[X] - sm[X]) / (2 * h), J = ds[X * nl + c];
          if (fabs (J - D) > 1e-6 * MAX (fabs (D), 1.0))
            {
              g_test_message ("%s %s: ∂S_%u/∂z_%u = %.10g, finite differences %.10g", where,
                              comp->type->id, X, c, J, D);
              misses++;
            }
        }
    }
  return misses;
}

/* The partials of the mass's travel limits (in, at and beyond the 0.1 mm
 * blend of each), of the force source's signal input, of the load cell,
 * and the sensors' outputs. */
static void
test_mechanics_partials (void)
{
  guint failures = 0;
  HydComp *m = hyd_test_make_comp ("mass", NULL, "mass", "3", "x_min", "-0.1", "x_max", "0.25",
                                   "stop_stiffness", "2e8", "stop_damping", "3e5", NULL);
  g_assert_cmpuint (m->n_events, ==, 2);
  const double xs[] = { 0.0, -0.1 + 1e-6, -0.1 - 1e-6, -0.1 - 5e-5, -0.1 - 1e-4, -0.1 - 3e-4,
                        0.25 - 1e-6, 0.25 + 2e-6, 0.25 + 7e-5, 0.25 + 1e-4, 0.25 + 2e-3 };
  const double vs[] = { 0.0, 0.3, -0.02 };
  for (guint i = 0; i < G_N_ELEMENTS (xs); i++)
    for (guint j = 0; j < G_N_ELEMENTS (vs); j++)
      {
        double a[1] = { vs[j] }, pos[1] = { xs[i] };
        g_autofree char *where = g_strdup_printf ("mass x=%g v=%g", xs[i], vs[j]);
        failures += hyd_test_check_component_pos (m, 0.0, a, NULL, pos, where);
      }
  /* past x_max by 2 mm at rest: F̂ = k·(2e-3 − w/2) pushes it back */
  double q[1], a0[1] = { 0.0 }, p0[1] = { 0.25 + 2e-3 };
  HydComp *m_one = hyd_test_make_comp ("mass", NULL, "x_max", "0.25", NULL);
  g_assert_cmpuint (m_one->n_events, ==, 1);
  hyd_comp_free (m_one);
  {
    double xd[1], o[1];
    (void) xd; (void) o;
    double V[1] = { 0 }, dV[1] = { 0 }, d2V[1] = { 0 }, C[1] = { 0 }, dC[1] = { 0 };
    HydEvalIn in = { .t = 0, .p = a0, .pos = p0 };
    HydEvalOut out = { .q = q, .V = V, .dV = dV, .d2V = d2V, .C = C, .dC = dC };
    q[0] = 0;
    m->type->eval (m, &in, &out);
    g_assert_cmpfloat (fabs (q[0] - 2e8 * (2e-3 - 0.5e-4)), <, 1e-6);
    g_assert_cmpfloat (C[0], ==, 3.0);
  }
  hyd_comp_free (m);

  HydComp *f = hyd_test_make_comp_wired ("force_source", NULL, 1u << 1, "force", "55", NULL);
  double af[2] = { 0.4, -130.0 };
  failures += hyd_test_check_component_pos (f, 0.0, af, NULL, NULL, "force_source wired");
  hyd_comp_free (f);

  HydComp *lc = hyd_test_make_comp ("force_sensor", NULL, "stiffness", "3e7", "damping", "2e3", NULL);
  double alc[3] = { 0.2, -0.05, 0.0 }, plc[3] = { 0.1003, 0.1, 0.0 };
  failures += hyd_test_check_component_pos (lc, 0.0, alc, NULL, plc, "force_sensor");
  failures += check_signals (lc, alc, plc, "force_sensor");
  hyd_comp_free (lc);
  const char *sensors[] = { "position_sensor", "velocity_sensor" };
  for (guint k = 0; k < G_N_ELEMENTS (sensors); k++)
    {
      HydComp *c = hyd_test_make_comp (sensors[k], NULL, NULL);
      double as[2] = { -0.7, 0.0 }, ps[2] = { 0.33, 0.0 };
      failures += hyd_test_check_component_pos (c, 0.0, as, NULL, ps, sensors[k]);
      failures += check_signals (c, as, ps, sensors[k]);
      hyd_comp_free (c);
    }
  g_assert_cmpuint (failures, ==, 0);
}

/* A 10 N force drives 2 kg from rest at 0 into a stop at x_max = 0.05 m:
 * it arrives at t = √(2·x_max·m/F) = 0.1414 s (Newton), then rests
 * pressed in by z = √(2·w·F/k) = 1.41 µm (the stop's quadratic blend,
 * F = k·z²/(2w)). Bounds chosen before: contact within 2 ms of the sample
 * (1 ms) time, no rebound below x_max − 1 µm after it, the rest position
 * within 1e-9 m. */
static void
test_mass_stop (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"M1\", \"type\": \"mass\", \"params\": {\"mass\": 2, \"x_min\": -1, \"x_max\": 0.05}},"
    "{\"id\": \"F1\", \"type\": \"force_source\", \"params\": {\"force\": 10}}],"
    "\"connections\": [{\"from\": \"F1.A\", \"to\": \"M1.A\"}]}");
  g_assert_cmpuint (hyd_system_get_n_events (sys), ==, 2);
  const char *names[] = { "M1.A.x", "M1.A.v" };
  Rows r = run (sys, names, 2, 1.0, 0.001, 1e-8);
  double t_contact = NAN, lowest_after = INFINITY;
  for (guint i = 1; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      if (isnan (t_contact) && row[1] >= 0.05)
        t_contact = row[0];
      if (!isnan (t_contact))
        lowest_after = MIN (lowest_after, row[1]);
    }
  double x_end = ROW (r, N_ROWS (r) - 1)[1], v_end = ROW (r, N_ROWS (r) - 1)[2];
  double x_rest = 0.05 + sqrt (2 * 1e-4 * 10 / 1e9);
  g_test_message ("mass into a stop: contact at %.4f s (Newton %.4f s), lowest after %.9g m, rests at "
                  "%.12g m (F = k·z²/2w: %.12g m), v = %.3g m/s", t_contact, sqrt (2 * 0.05 * 2 / 10.0),
                  lowest_after, x_end, x_rest, v_end);
  g_assert_cmpfloat (fabs (t_contact - sqrt (2 * 0.05 * 2 / 10.0)), <, 2e-3);
  g_assert_cmpfloat (lowest_after, >, 0.05 - 1e-6);
  g_assert_cmpfloat (fabs (x_end - x_rest), <, 1e-9);
  double y[2] = { 0.05 + 3e-5, 0.2 };
  check_jacobian (sys, 0.5, y);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* Sensors in a loop: 2 kg on a spring 201 N/m and a damper 5 N·s/m to a
 * wall, plus two force sources commanded by a position sensor (F = x, in N
 * per m) and a velocity sensor (F = v): m·ẍ = −(k − 1)·x − (d − 1)·ẋ, so
 * ω_n = 10 rad/s, ζ = 0.1; from x₀ = 0.1 m at rest
 * x = x₀·e^(−ζω_n t)·(cos ω_d t + ζω_n/ω_d·sin ω_d t), ω_d = ω_n·√(1 − ζ²).
 * The assembled Jacobian goes through both signals by the chain rule.
 * Bound chosen before: 1e-6 m over 3 s. */
static void
test_sensor_feedback (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"M1\", \"type\": \"mass\", \"params\": {\"mass\": 2}},"
    "{\"id\": \"K1\", \"type\": \"spring\", \"params\": {\"stiffness\": 201}},"
    "{\"id\": \"D1\", \"type\": \"damper\", \"params\": {\"damping\": 5}},"
    "{\"id\": \"X1\", \"type\": \"fixed_point\"},"
    "{\"id\": \"BG1\", \"type\": \"position_sensor\"}, {\"id\": \"BS1\", \"type\": \"velocity_sensor\"},"
    "{\"id\": \"F1\", \"type\": \"force_source\"}, {\"id\": \"F2\", \"type\": \"force_source\"}],"
    "\"connections\": [{\"from\": \"M1.A\", \"to\": \"K1.B\", \"initial_position\": 0.1},"
    "{\"from\": \"K1.A\", \"to\": \"X1.A\"}, {\"from\": \"M1.A\", \"to\": \"D1.A\"}, {\"from\": \"D1.B\", \"to\": \"X1.A\"},"
    "{\"from\": \"M1.A\", \"to\": \"BG1.A\"}, {\"from\": \"M1.A\", \"to\": \"BS1.A\"},"
    "{\"from\": \"M1.A\", \"to\": \"F1.A\"}, {\"from\": \"M1.A\", \"to\": \"F2.A\"},"
    "{\"from\": \"BG1.S\", \"to\": \"F1.S\"}, {\"from\": \"BS1.S\", \"to\": \"F2.S\"}]}");
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 2);
  double y[2] = { 0.3, -0.04 };
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "M1.A.x", "BG1.S", "BS1.v" };
  Rows r = run (sys, names, 3, 3.0, 0.005, 1e-9);
  double zeta = 0.1, wn = 10.0, wd = wn * sqrt (1 - zeta * zeta), worst = 0, worst_s = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      double t = row[0];
      double x = 0.1 * exp (-zeta * wn * t) * (cos (wd * t) + zeta * wn / wd * sin (wd * t));
      worst = MAX (worst, fabs (row[1] - x));
      worst_s = MAX (worst_s, fabs (row[2] - row[1]));
    }
  g_test_message ("position and velocity sensors commanding forces: worst |x − x_exact| = %.3g m "
                  "(x₀ = 0.1 m, ζ = 0.1, ω_n = 10 rad/s); |S − x| ≤ %.3g", worst, worst_s);
  g_assert_cmpfloat (worst, <, 1e-6);
  g_assert_cmpfloat (worst_s, ==, 0.0);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* A load cell between a 1 kg body pushed by 100 N and a 4 kg body: once
 * its own mode (√(k/μ) ≈ 1.1e4 rad/s, ζ ≈ 0.56) has died out, the whole
 * accelerates at F/(m₁ + m₂) = 20 m/s² and the cell carries
 * m₂·a = 80 N (compression). Bound chosen before: 1e-6 N from 0.05 s on. */
static void
test_load_cell (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"M1\", \"type\": \"mass\", \"params\": {\"mass\": 1}},"
    "{\"id\": \"M2\", \"type\": \"mass\", \"params\": {\"mass\": 4}},"
    "{\"id\": \"BW1\", \"type\": \"force_sensor\"},"
    "{\"id\": \"F1\", \"type\": \"force_source\", \"params\": {\"force\": 100}}],"
    "\"connections\": [{\"from\": \"F1.A\", \"to\": \"M1.A\"}, {\"from\": \"M1.A\", \"to\": \"BW1.A\"},"
    "{\"from\": \"BW1.B\", \"to\": \"M2.A\"}]}");
  double y[4] = { 0.3, 0.01, 0.29, 0.0099 };
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "BW1.F", "M2.A.v" };
  Rows r = run (sys, names, 2, 0.2, 0.001, 1e-9);
  double worst = 0, worst_v = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      if (row[0] >= 0.05)
        worst = MAX (worst, fabs (row[1] - 80.0));
      worst_v = MAX (worst_v, fabs (row[2] - 20.0 * row[0]));
    }
  g_test_message ("load cell: |F − m₂·a| ≤ %.3g N after 0.05 s (80 N), |v − F·t/(m₁ + m₂)| ≤ %.3g m/s",
                  worst, worst_v);
  g_assert_cmpfloat (worst, <, 1e-6);
  g_assert_cmpfloat (worst_v, <, 1e-3);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* ------------------------------------------------------ friction (LuGre) */

static void
test_friction_partials (void)
{
  guint failures = 0;
  HydComp *f = hyd_test_make_comp ("friction", NULL, "coulomb_friction", "80", "static_friction", "130",
                                   "stribeck_velocity", "0.02", "viscous_friction", "60",
                                   "bristle_stiffness", "3e6", "bristle_damping", "2e3", NULL);
  const double vs[] = { 1e-6, -1e-6, 3e-4, -0.004, 0.02, -0.03, 0.5 };
  const double zs[] = { 0.0, 2e-5, -4e-5, 6e-6 };
  for (guint i = 0; i < G_N_ELEMENTS (vs); i++)
    for (guint j = 0; j < G_N_ELEMENTS (zs); j++)
      {
        double a[2] = { 0.1, 0.1 + vs[i] }, x[1] = { zs[j] }, pos[2] = { 0.3, 0.2 };
        g_autofree char *where = g_strdup_printf ("v=%g z=%g", vs[i], zs[j]);
        failures += hyd_test_check_component_pos (f, 0.0, a, x, pos, where);
      }
  hyd_comp_free (f);
  g_assert_cmpuint (failures, ==, 0);
}

#define FRICTION_CIRCUIT(FORCE, V0) \
  HEAD "\"components\": [" \
  "{\"id\": \"M1\", \"type\": \"mass\", \"params\": {\"mass\": 10}}," \
  "{\"id\": \"R1\", \"type\": \"friction\"}," \
  "{\"id\": \"X1\", \"type\": \"fixed_point\"}," \
  "{\"id\": \"F1\", \"type\": \"force_source\", \"params\": {\"force\": " FORCE "}}]," \
  "\"connections\": [{\"from\": \"F1.A\", \"to\": \"M1.A\", \"initial_velocity\": " V0 "}," \
  "{\"from\": \"X1.A\", \"to\": \"R1.A\"}, {\"from\": \"R1.B\", \"to\": \"M1.A\"}]}"

/* 10 kg held by the default friction (F_C 100 N, F_S 150 N, σ₀ 1e7 N/m,
 * σ₁ 1e5 N·s/m: the bristles critically damped or more) and pushed by
 * 135 N = 0.9·F_S from rest. In pre-sliding the bristles slip a little:
 * dz/dx = 1 − σ₀·z/g(v), g ≈ F_S at v ≪ v_s, so the body rests at
 * x_ps = −(F_S/σ₀)·ln(1 − F/F_S) = 34.5 µm, not at F/σ₀ = 13.5 µm (a
 * first bound of 2·F/σ₀, the ideal spring's, was wrong for this reason).
 * Bounds: |x| ≤ 2·x_ps at all times, the rest position within 5 % of x_ps,
 * and from 1 s to 5 s less than 1e-9 m of motion: no creep (the cylinder's
 * smoothed law creeps at about v_ε·F/F_S = 0.9 mm/s, 3.6 mm in 4 s). */
static void
test_friction_stiction (void)
{
  HydSystem *sys = compile_ok (FRICTION_CIRCUIT ("135", "0"));
  double y[3];
  memcpy (y, hyd_system_get_initial_state (sys), sizeof y);
  y[state_index (sys, "R1.z")] = 1e-5;
  y[state_index (sys, "M1.A.v")] = 2e-3;
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "M1.A.x", "R1.F" };
  Rows r = run (sys, names, 2, 5.0, 0.001, 1e-8);
  double worst = 0, x1 = NAN, x5 = ROW (r, N_ROWS (r) - 1)[1];
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      worst = MAX (worst, fabs (row[1]));
      if (isnan (x1) && row[0] >= 1.0)
        x1 = row[1];
    }
  double x_ps = -150.0 / 1e7 * log (1.0 - 135.0 / 150.0);
  g_test_message ("stiction: 135 N < F_S = 150 N on 10 kg: |x| ≤ %.4g m (x_ps = %.4g m), x(1 s) = %.9g m, "
                  "x(5 s) − x(1 s) = %.3g m, friction %.6g N", worst, x_ps, x1, x5 - x1,
                  ROW (r, N_ROWS (r) - 1)[2]);
  g_assert_cmpfloat (worst, <=, 2 * x_ps);
  g_assert_cmpfloat (fabs (x5 - x_ps), <, 0.05 * x_ps);
  g_assert_cmpfloat (fabs (x5 - x1), <, 1e-9);
  g_assert_cmpfloat (fabs (ROW (r, N_ROWS (r) - 1)[2] - 135.0), <, 1e-6);
  g_array_unref (r.rows);
  hyd_system_free (sys);

  /* above the break-away force it slides off */
  sys = compile_ok (FRICTION_CIRCUIT ("160", "0"));
  const char *nv[] = { "M1.A.v" };
  r = run (sys, nv, 1, 1.0, 0.01, 1e-8);
  g_test_message ("160 N > F_S: v(1 s) = %.6g m/s", ROW (r, N_ROWS (r) - 1)[1]);
  g_assert_cmpfloat (ROW (r, N_ROWS (r) - 1)[1], >, 0.3);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* At constant speed the friction is the Stribeck curve
 * F = F_C + (F_S − F_C)·e^(−(v/v_s)²) + σ₂·v (Canudas de Wit et al. 1995,
 * eq. 6): started at v* with the force F(v*), the body keeps v* (on the
 * curve's rising branch, where it is stable: 0.03, 0.1 and 1 m/s). Bound
 * chosen before: |v(2 s) − v*| < 1e-6·v* and |F − F(v*)| < 1e-6 N. */
static void
test_friction_stribeck (void)
{
  const double targets[] = { 0.03, 0.1, 1.0 };
  for (guint k = 0; k < G_N_ELEMENTS (targets); k++)
    {
      double v = targets[k];
      double F = 100.0 + 50.0 * exp (-(v / 0.01) * (v / 0.01)) + 100.0 * v;
      g_autofree char *fs = g_strdup_printf ("%.17g", F), *vs = g_strdup_printf ("%.17g", v);
      g_autofree char *json = g_strdup_printf (FRICTION_CIRCUIT ("%s", "%s"), fs, vs);
      HydSystem *sys = compile_ok (json);
      const char *names[] = { "M1.A.v", "R1.F" };
      Rows r = run (sys, names, 2, 2.0, 0.01, 1e-9);
      const double *last = ROW (r, N_ROWS (r) - 1);
      g_test_message ("Stribeck curve at %g m/s: F(v) = %.9g N, v(2 s) = %.12g m/s, friction %.9g N", v, F,
                      last[1], last[2]);
      g_assert_cmpfloat (fabs (last[1] - v), <, 1e-6 * v);
      g_assert_cmpfloat (fabs (last[2] - F), <, 1e-6);
      g_array_unref (r.rows);
      hyd_system_free (sys);
    }
}

/* Parameters that contradict each other are refused, naming the component
 * and both parameters. */
static void
test_refusals (void)
{
  static const char *const cases[][3] = {
    { "{\"id\": \"M1\", \"type\": \"mass\", \"params\": {\"x_min\": 0.2, \"x_max\": 0.1}}", "x_min", "x_max" },
    { "{\"id\": \"R1\", \"type\": \"friction\", \"params\": {\"coulomb_friction\": 200, \"static_friction\": 150}}",
      "static_friction", "coulomb_friction" },
  };
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autofree char *json = g_strdup_printf (HEAD "\"components\": [%s, {\"id\": \"X1\", \"type\": \"fixed_point\"},"
                                               "{\"id\": \"M9\", \"type\": \"mass\"}, {\"id\": \"K9\", \"type\": \"spring\"}],"
                                               "\"connections\": [{\"from\": \"X1.A\", \"to\": \"%s.A\"},"
                                               "{\"from\": \"K9.A\", \"to\": \"X1.A\"}, {\"from\": \"K9.B\", \"to\": \"%s\"}]}",
                                               cases[k][0], k == 0 ? "K9" : "R1", k == 0 ? "M1.A" : "R1.B");
      g_autoptr (GError) error = NULL;
      HydSystem *sys = compile_json (json, &error);
      g_assert_null (sys);
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, k == 0 ? "M1" : "R1"));
      g_assert_nonnull (strstr (error->message, cases[k][1]));
      g_assert_nonnull (strstr (error->message, cases[k][2]));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/translational/rod-partials", test_rod_partials);
  g_test_add_func ("/engine/translational/rod-unwired", test_rod_unwired);
  g_test_add_func ("/engine/translational/rod-equivalence", test_rod_equivalence);
  g_test_add_func ("/engine/translational/rod-mass-spring", test_rod_mass_spring);
  g_test_add_func ("/engine/translational/rod-oil-column", test_rod_oil_column);
  g_test_add_func ("/engine/translational/partials", test_mechanics_partials);
  g_test_add_func ("/engine/translational/mass-stop", test_mass_stop);
  g_test_add_func ("/engine/translational/sensor-feedback", test_sensor_feedback);
  g_test_add_func ("/engine/translational/load-cell", test_load_cell);
  g_test_add_func ("/engine/translational/friction-partials", test_friction_partials);
  g_test_add_func ("/engine/translational/friction-stiction", test_friction_stiction);
  g_test_add_func ("/engine/translational/friction-stribeck", test_friction_stribeck);
  g_test_add_func ("/engine/translational/refusals", test_refusals);
  return g_test_run ();
}
