/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-mechanics.c — the translational catalogue types (mass, fixed_point,
 * spring, damper, force_source): each law's analytic partials against
 * central differences, locally and in the assembled system, and small
 * circuits against their closed-form solutions (Karnopp, Margolis &
 * Rosenberg, System Dynamics, 5th ed., 2012, ch. 3–4). */
#include <math.h>
#include <string.h>

#include "fd-harness.h"
#include "hyd-catalogue.h"
#include "hyd-circuit.h"
#include "hyd-run.h"
#include "hyd-system.h"

/* ------------------------------------------------------ local partials */

static void
eval_local (HydComp *comp, double t, const double *a, const double *pos, double *q, double *q_t,
            double *jac, double *C)
{
  guint np = comp->type->n_ports, nl = hyd_comp_n_local (comp);
  double xdot[1] = { 0 }, V[4] = { 0 }, dV[4] = { 0 }, d2V[4] = { 0 }, dC[4] = { 0 }, x_t[1] = { 0 };
  memset (q, 0, sizeof (double) * np);
  memset (q_t, 0, sizeof (double) * np);
  memset (jac, 0, sizeof (double) * np * nl);
  memset (C, 0, sizeof (double) * np);
  HydEvalIn in = { .t = t, .p = a, .x = NULL, .pos = pos };
  HydEvalOut out = { q, xdot, jac, q_t, x_t, V, dV, d2V, C, dC, NULL };
  comp->type->eval (comp, &in, &out);
}

/* Every ∂F̂_X/∂(v, s) and ∂F̂_X/∂t against central differences (step
 * 1e-6), to 1e-7 of the row's largest entry; returns the number of misses. */
static guint
check_local (HydComp *comp, double t, const double *a, const double *pos, const char *where)
{
  guint np = comp->type->n_ports, nl = hyd_comp_n_local (comp), misses = 0;
  g_assert_cmpuint (comp->n_states, ==, 0);
  g_assert_cmpuint (comp->n_pos, ==, np);
  g_assert_cmpuint (comp->nnz, ==, np * nl);
  double q[2], q_t[2], C[2], jac[8], qp[2], qm[2], dummy_t[2], dummy_j[8], dummy_C[2];
  eval_local (comp, t, a, pos, q, q_t, jac, C);
  double z[4], zz[4];
  for (guint X = 0; X < np; X++)
    z[X] = a[X], z[np + X] = pos[X];
  for (guint r = 0; r < np; r++)
    {
      double scale = 0;
      for (guint c = 0; c < nl; c++)
        scale = MAX (scale, fabs (jac[r * nl + c]));
      for (guint c = 0; c <= nl; c++)
        {
          double h = 1e-6, D;
          if (c < nl)
            {
              memcpy (zz, z, sizeof z);
              zz[c] = z[c] + h;
              eval_local (comp, t, zz, zz + np, qp, dummy_t, dummy_j, dummy_C);
              zz[c] = z[c] - h;
              eval_local (comp, t, zz, zz + np, qm, dummy_t, dummy_j, dummy_C);
            }
          else
            {
              /* the compiler moves profile parameters with t: par ± par_dt·h */
              for (guint k = 0; k < comp->type->n_params; k++)
                comp->par[k] += comp->par_dt[k] * h;
              eval_local (comp, t + h, a, pos, qp, dummy_t, dummy_j, dummy_C);
              for (guint k = 0; k < comp->type->n_params; k++)
                comp->par[k] -= 2 * comp->par_dt[k] * h;
              eval_local (comp, t - h, a, pos, qm, dummy_t, dummy_j, dummy_C);
              for (guint k = 0; k < comp->type->n_params; k++)
                comp->par[k] += comp->par_dt[k] * h;
            }
          D = (qp[r] - qm[r]) / (2 * h);
          double J = c < nl ? jac[r * nl + c] : q_t[r];
          if (fabs (J - D) > 1e-7 * MAX (scale, fabs (D)) + 1e-9)
            {
              g_test_message ("%s %s: ∂F̂_%u/∂z_%u = %.10g, finite differences %.10g", where,
                              comp->id, r, c, J, D);
              misses++;
            }
        }
    }
  return misses;
}

static void
test_partials (void)
{
  double a[2] = { 0.7, -0.3 }, pos[2] = { 0.02, 0.15 };
  guint misses = 0;

  HydComp *spring = hyd_test_make_comp ("spring", NULL, "stiffness", "2500", "preload", "-40", NULL);
  misses += check_local (spring, 0.3, a, pos, "spring");
  double q[2], q_t[2], jac[8], C[2];
  eval_local (spring, 0.3, a, pos, q, q_t, jac, C);
  /* tension 2500·(0.15 − 0.02) − 40 = 285 N pulls A forward, B back */
  g_assert_cmpfloat (fabs (q[0] + 285.0), <, 1e-9);
  g_assert_cmpfloat (fabs (q[1] - 285.0), <, 1e-9);
  hyd_comp_free (spring);

  HydComp *damper = hyd_test_make_comp ("damper", NULL, "damping", "80", NULL);
  misses += check_local (damper, 0.3, a, pos, "damper");
  eval_local (damper, 0.3, a, pos, q, q_t, jac, C);
  /* 80·(−0.3 − 0.7) = −80 N: B moves back relative to A and pushes A back */
  g_assert_cmpfloat (fabs (q[0] - 80.0), <, 1e-9);
  g_assert_cmpfloat (fabs (q[1] + 80.0), <, 1e-9);
  hyd_comp_free (damper);

  HydComp *force = hyd_test_make_comp ("force_source", NULL, "force", "120", NULL);
  hyd_test_set_param_rate (force, "force", 35.0);
  misses += check_local (force, 0.3, a, pos, "force_source");
  eval_local (force, 0.3, a, pos, q, q_t, jac, C);
  g_assert_cmpfloat (q[0], ==, -120.0);
  g_assert_cmpfloat (q_t[0], ==, -35.0);
  hyd_comp_free (force);

  HydComp *mass = hyd_test_make_comp ("mass", NULL, "mass", "3.5", NULL);
  misses += check_local (mass, 0.3, a, pos, "mass");
  eval_local (mass, 0.3, a, pos, q, q_t, jac, C);
  g_assert_cmpfloat (C[0], ==, 3.5);
  g_assert_cmpfloat (q[0], ==, 0.0);
  hyd_comp_free (mass);

  HydComp *fixed = hyd_test_make_comp ("fixed_point", NULL, "position", "0.25", NULL);
  g_assert_cmpint (fixed->type->boundary_param, ==, 0);
  misses += check_local (fixed, 0.3, a, pos, "fixed_point");
  hyd_comp_free (fixed);

  g_assert_cmpuint (misses, ==, 0);
}

/* ------------------------------------------------------------- circuits */

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

/* The assembled Jacobian and ∂f/∂t against central differences at (t, y). */
static void
check_jacobian (HydSystem *sys, double t, const double *y)
{
  guint n = hyd_system_get_n_states (sys);
  g_autofree double *J = g_new0 (double, n * n);
  g_autofree double *ft = g_new0 (double, n);
  g_autofree double *yy = g_memdup2 (y, n * sizeof (double));
  g_autofree double *fp = g_new0 (double, n);
  g_autofree double *fm = g_new0 (double, n);
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
          double D = (fp[i] - fm[i]) / (2 * h);
          if (fabs (J[i + j * n] - D) > 1e-6 * MAX (fabs (D), 1.0))
            g_error ("J[%s, %s] = %.10g, finite differences %.10g", hyd_system_get_state_name (sys, i),
                     hyd_system_get_state_name (sys, j), J[i + j * n], D);
        }
    }
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

/* A constant force F = 10 N on a mass m = 2 kg from rest:
 * x = F·t²/(2m), v = F·t/m (Newton's second law). */
static void
test_force_on_mass (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"M1\", \"type\": \"mass\", \"params\": {\"mass\": 2}},"
    "{\"id\": \"F1\", \"type\": \"force_source\", \"params\": {\"force\": 10}}],"
    "\"connections\": [{\"from\": \"F1.A\", \"to\": \"M1.A\"}]}");
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 2);
  double y[2] = { 0.4, 0.1 };
  check_jacobian (sys, 0.2, y);
  const char *names[] = { "M1.A.x", "M1.A.v" };
  Rows r = run (sys, names, 2, 2.0, 0.01);
  double worst_x = 0, worst_v = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      double t = row[0];
      worst_x = MAX (worst_x, fabs (row[1] - 10 * t * t / 4));
      worst_v = MAX (worst_v, fabs (row[2] - 10 * t / 2));
    }
  g_test_message ("force on a mass: x(2 s) = %.9g m (exact 10 m); worst |x − F t²/2m| = %.3g m, "
                  "|v − F t/m| = %.3g m/s", ROW (r, N_ROWS (r) - 1)[1], worst_x, worst_v);
  g_assert_cmpfloat (worst_x, <, 1e-6);
  g_assert_cmpfloat (worst_v, <, 1e-6);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* A mass m = 2 kg on a spring k = 200 N/m to a fixed point at 0 (A at the
 * wall, B at the mass), preload −4 N (compressed: it pushes the mass
 * forward), a force 10 N from rest at x = 0: m·ẍ = F − k·x − F₀, so
 * x = (F − F₀)/k·(1 − cos ω t), ω = √(k/m) = 10 rad/s, amplitude 0.07 m. */
static void
test_mass_spring (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"M1\", \"type\": \"mass\", \"params\": {\"mass\": 2}},"
    "{\"id\": \"K1\", \"type\": \"spring\", \"params\": {\"stiffness\": 200, \"preload\": -4}},"
    "{\"id\": \"X1\", \"type\": \"fixed_point\", \"params\": {\"position\": 0}},"
    "{\"id\": \"F1\", \"type\": \"force_source\", \"params\": {\"force\": 10}}],"
    "\"connections\": [{\"from\": \"F1.A\", \"to\": \"M1.A\"}, {\"from\": \"M1.A\", \"to\": \"K1.B\"},"
    "{\"from\": \"K1.A\", \"to\": \"X1.A\"}]}");
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 2);
  double y[2] = { -0.2, 0.13 };
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "M1.A.x" };
  Rows r = run (sys, names, 1, 3.0, 0.005);
  double w = sqrt (200.0 / 2.0), X = (10.0 + 4.0) / 200.0, worst = 0;
  /* the first return to x = 0 after t = 0 (the period 2π/ω), from the samples */
  double t_return = NAN;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      worst = MAX (worst, fabs (row[1] - X * (1 - cos (w * row[0]))));
      if (i > 0 && isnan (t_return) && row[0] > 0.1 && row[1] < ROW (r, i - 1)[1]
          && ROW (r, i + 1 < N_ROWS (r) ? i + 1 : i)[1] >= row[1])
        t_return = row[0];
    }
  g_test_message ("mass–spring: ω = √(k/m) = %g rad/s, period %.4f s, first minimum at %.3f s; "
                  "worst |x − x_exact| = %.3g m (amplitude %g m)", w, 2 * G_PI / w, t_return, worst, X);
  g_assert_cmpfloat (worst, <, 1e-6);
  g_assert_cmpfloat (fabs (t_return - 2 * G_PI / w), <=, 0.005);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* A force F = 10 N on a mass m = 2 kg held by a damper d = 4 N·s/m to a
 * fixed point (A at the mass, B at the wall), from rest:
 * v = F/d·(1 − e^(−d t/m)), terminal speed 2.5 m/s, time constant 0.5 s. */
static void
test_damper (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"M1\", \"type\": \"mass\", \"params\": {\"mass\": 2}},"
    "{\"id\": \"D1\", \"type\": \"damper\", \"params\": {\"damping\": 4}},"
    "{\"id\": \"X1\", \"type\": \"fixed_point\", \"params\": {\"position\": 0.5}},"
    "{\"id\": \"F1\", \"type\": \"force_source\", \"params\": {\"force\": 10}}],"
    "\"connections\": [{\"from\": \"F1.A\", \"to\": \"M1.A\"}, {\"from\": \"M1.A\", \"to\": \"D1.A\"},"
    "{\"from\": \"D1.B\", \"to\": \"X1.A\"}]}");
  double y[2] = { 1.3, -0.4 };
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "M1.A.v" };
  Rows r = run (sys, names, 1, 3.0, 0.01);
  double worst = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      worst = MAX (worst, fabs (row[1] - 2.5 * (1 - exp (-2.0 * row[0]))));
    }
  g_test_message ("damper: v(3 s) = %.7g m/s (exact %.7g); worst |v − v_exact| = %.3g m/s",
                  ROW (r, N_ROWS (r) - 1)[1], 2.5 * (1 - exp (-6.0)), worst);
  g_assert_cmpfloat (worst, <, 1e-6);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* A spring whose ends are both free of a mass names the node. */
static void
test_no_mass (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (
    HEAD "\"components\": ["
    "{\"id\": \"K1\", \"type\": \"spring\"}, {\"id\": \"X1\", \"type\": \"fixed_point\"},"
    "{\"id\": \"F1\", \"type\": \"force_source\"}],"
    "\"connections\": [{\"from\": \"X1.A\", \"to\": \"K1.A\"}, {\"from\": \"K1.B\", \"to\": \"F1.A\"}]}",
    -1, "test.bramah", &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_null (sys);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "K1.B"));
  g_assert_nonnull (strstr (error->message, "mass"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/mechanics/partials", test_partials);
  g_test_add_func ("/engine/mechanics/force-on-mass", test_force_on_mass);
  g_test_add_func ("/engine/mechanics/mass-spring", test_mass_spring);
  g_test_add_func ("/engine/mechanics/damper", test_damper);
  g_test_add_func ("/engine/mechanics/no-mass", test_no_mass);
  return g_test_run ();
}
