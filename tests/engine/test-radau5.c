/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-radau5.c — RADAU5 (Hairer–Wanner): convergence order at constant
 * step and with error control, L-stability, the stiff test set at rtol 1e-6
 * and (as the benchmark's reference solver) at 1e-10, the collocation dense
 * output, restarts at breakpoints and events, Jacobian and LU reuse, sparse
 * LU, a Newton iteration that fails at a large step and recovers at a
 * smaller one, cancellation inside the Newton loop. */
#include "ode-harness.h"

#include <math.h>
#include <string.h>

static void
log_stats (const char *what, const HydOdeResult *r)
{
  g_test_message ("%s: %s, steps %" G_GUINT64_FORMAT ", rejected %"
                  G_GUINT64_FORMAT ", f %" G_GUINT64_FORMAT ", jac %"
                  G_GUINT64_FORMAT ", lu %" G_GUINT64_FORMAT ", newton %"
                  G_GUINT64_FORMAT ", %.3f s", what,
                  hyd_ode_status_name (r->status), r->stats.steps,
                  r->stats.rejected, r->stats.f_evals, r->stats.jac_evals,
                  r->stats.lu, r->stats.newton, r->stats.wall_s);
}

/* ---- solver list ------------------------------------------------------- */

static void
test_info (void)
{
  const HydSolverInfo *info = hyd_solver_lookup ("radau5");

  g_assert_nonnull (info);
  g_assert_cmpstr (info->id, ==, "radau5");
  g_assert_cmpstr (info->family, ==, "implicit RK, Radau IIA, 3 stages");
  g_assert_cmpstr (info->order, ==, "5");
  g_assert_true (info->implicit && info->adaptive && !info->multistep);
}

/* ---- convergence order ------------------------------------------------- */

static void
test_order_fixed (void)
{
  HydOdeResult r = { 0 };
  double e10 = ode_harness_smooth_fixed ("radau5", NULL, 10, 1e-13, FALSE, NULL);
  double e20 = ode_harness_smooth_fixed ("radau5", NULL, 20, 1e-13, FALSE, NULL);
  double e40 = ode_harness_smooth_fixed ("radau5", NULL, 40, 1e-13, FALSE, NULL);
  double e80 = ode_harness_smooth_fixed ("radau5", NULL, 80, 1e-13, FALSE, &r);
  double p1 = log2 (e10 / e20), p2 = log2 (e20 / e40), p3 = log2 (e40 / e80);

  g_test_message ("radau5 fixed step h = 0.2, 0.1, 0.05, 0.025: errors %.3e "
                  "%.3e %.3e %.3e, orders %.3f %.3f %.3f", e10, e20, e40, e80,
                  p1, p2, p3);
  log_stats ("80 steps", &r);
  g_assert_cmpfloat (fabs (p2 - 5.0), <=, 0.2);
  g_assert_cmpfloat (fabs (p3 - 5.0), <=, 0.2);
  /* Every step solved its Newton iteration (at least one iteration). */
  g_assert_cmpuint (r.stats.newton, >=, r.stats.steps);
  hyd_ode_result_clear (&r);
}

static double
smooth_adaptive_error (double rtol, HydOdeResult *r)
{
  double err;

  g_assert_cmpint (ode_harness_smooth_adaptive ("radau5", rtol, 0.0, NULL, &err, r), ==,
                   HYD_ODE_SUCCESS);
  return err;
}

static void
test_order_adaptive (void)
{
  /* With HW's transformed tolerances (rtol' = 0.1·rtol^(2/3)) the global
   * error follows rtol: each 100× smaller rtol gives an about 100× smaller
   * error, while the steps grow like rtol'^(−1/4) = rtol^(−1/6). (At loose
   * tolerances, 1e-4, radau5.f itself lands 40× off on this problem: one
   * Newton iteration is accepted when the previous step's contraction was
   * fast; the code here reproduces radau5.f's counts exactly.) */
  static const double rtols[] = { 1e-6, 1e-8, 1e-10, 1e-12 };
  double err[4];
  guint64 steps[4];

  for (guint k = 0; k < 4; k++)
    {
      HydOdeResult r = { 0 };
      err[k] = smooth_adaptive_error (rtols[k], &r);
      steps[k] = r.stats.steps;
      g_autofree char *what = g_strdup_printf ("rtol %g: error %.3e (%.2f·rtol)",
                                               rtols[k], err[k],
                                               err[k] / rtols[k]);
      log_stats (what, &r);
      g_assert_cmpfloat (err[k], <, 3.0 * rtols[k]);
      hyd_ode_result_clear (&r);
    }
  for (guint k = 0; k + 1 < 4; k++)
    {
      double slope = log10 (err[k] / err[k + 1]) / 2.0;
      double work = log10 ((double) steps[k + 1] / steps[k]) / 2.0;
      g_test_message ("rtol %g → %g: error slope %.2f, step-count slope %.3f",
                      rtols[k], rtols[k + 1], slope, work);
      g_assert_cmpfloat (slope, >, 0.6);
      g_assert_cmpfloat (slope, <, 1.5);
      g_assert_cmpfloat (work, >, 0.1);
      g_assert_cmpfloat (work, <, 0.25);
    }
}

/* ---- L-stability ------------------------------------------------------- */

/* Stability function of the 3-stage Radau IIA method (HW IV.5, (5.23)). */
static double
radau_iia3_r (double z)
{
  return (1.0 + 2.0 * z / 5.0 + z * z / 20.0)
         / (1.0 - 3.0 * z / 5.0 + 3.0 * z * z / 20.0 - z * z * z / 60.0);
}

static void
test_l_stability (void)
{
  double lambda = -1e6, y = 1.0, atol = 1e-8;
  HydOdeProblem p = ode_linear_problem (&lambda);
  HydOdeOptions o;
  HydOdeResult r = { 0 };

  /* One step of h = 1: hλ = −1e6. */
  hyd_ode_options_init (&o);
  o.t_end = 1.0;
  o.fixed_step = 1.0;
  o.rtol = 1e-8;
  o.atol = &atol;
  g_assert_cmpint (hyd_ode_solve ("radau5", &p, &o, &y, &r), ==,
                   HYD_ODE_SUCCESS);
  g_assert_cmpuint (r.stats.steps, ==, 1);
  double expect = radau_iia3_r (lambda);
  g_test_message ("hλ = −1e6: y1/y0 = %.6e (R(z) = %.6e, R(−∞) = 0)", y, expect);
  g_assert_cmpfloat (fabs (y), <, 1e-5);
  g_assert_cmpfloat_with_epsilon (y, expect, 1e-9 * fabs (expect));
  hyd_ode_result_clear (&r);

  /* The stability function itself at a moderate hλ = −2 (to rounding). */
  lambda = -2.0;
  y = 1.0;
  g_assert_cmpint (hyd_ode_solve ("radau5", &p, &o, &y, &r), ==,
                   HYD_ODE_SUCCESS);
  g_assert_cmpfloat_with_epsilon (y, radau_iia3_r (-2.0), 1e-12);
  hyd_ode_result_clear (&r);
}

/* ---- Jacobian and LU reuse --------------------------------------------- */

/* y1' = −y1 + y2, y2' = −1000·y2 + cos t: linear, so with the exact J the
 * simplified Newton iteration converges at once (θ ≪ 0.001) and radau5.f
 * keeps the Jacobian after accepted steps; small step changes keep the LU. */
static int
lin2_rhs (double t, const double *y, double *f, gpointer user)
{
  f[0] = -y[0] + y[1];
  f[1] = -1000.0 * y[1] + cos (t);
  return 0;
}

static int
lin2_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  J[0] = -1.0; J[1] = 0.0; J[2] = 1.0; J[3] = -1000.0;
  if (dfdt != NULL)
    {
      dfdt[0] = 0.0;
      dfdt[1] = -sin (t);
    }
  return 0;
}

static void
test_jacobian_reuse (void)
{
  HydOdeProblem p = { .n = 2, .rhs = lin2_rhs, .jac = lin2_jac };
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  double y[2] = { 1.0, 0.0 }, atol[2];

  hyd_ode_options_init (&o);
  o.t_end = 10.0;
  ode_harness_tolerances (&o, atol, 2, 1e-8, 1e-8);
  g_assert_cmpint (hyd_ode_solve ("radau5", &p, &o, y, &r), ==,
                   HYD_ODE_SUCCESS);
  log_stats ("linear stiff 2×2", &r);
  /* One at the start, and one after each rejection that finds J from an
   * earlier point (radau5.f re-evaluates it then). */
  g_assert_cmpuint (r.stats.jac_evals, <=, 1 + r.stats.rejected);
  g_assert_cmpuint (10 * r.stats.jac_evals, <, r.stats.steps);
  g_assert_cmpuint (r.stats.lu, <, r.stats.steps + r.stats.rejected);
  g_assert_cmpuint (r.stats.steps, >, 10);
  hyd_ode_result_clear (&r);
}

/* ---- the stiff test set ------------------------------------------------ */

typedef struct {
  const char *id;
  double rtol;
  double min_mescd;
} TestsetCase;

static void
run_testset_case (gconstpointer data)
{
  const TestsetCase *tc = data;
  HydOdeResult r = { 0 };

  double mescd = ode_harness_testset ("radau5", tc->id, tc->rtol, tc->rtol, &r);
  g_assert_cmpfloat (mescd, >=, tc->min_mescd);
  /* Newton iterations are counted, and each attempt factors at most once. */
  g_assert_cmpuint (r.stats.newton, >=, r.stats.steps);
  g_assert_cmpuint (r.stats.lu, <=, r.stats.steps + r.stats.rejected);
  hyd_ode_result_clear (&r);
}

/* ---- dense output ------------------------------------------------------ */

static double
dense_error_adaptive (double rtol)
{
  HydOdeResult r = { 0 };
  OdeDenseCheck c = { 0.0, 0 };
  double err_end;

  g_assert_cmpint (ode_harness_smooth_adaptive ("radau5", rtol, 0.00937, &c, &err_end, &r), ==,
                   HYD_ODE_SUCCESS);
  g_assert_cmpuint (c.n, >, 200);
  hyd_ode_result_clear (&r);
  return c.max_err;
}

static void
test_dense_output (void)
{
  /* The collocation polynomial has local error O(h⁴) (stage order 3), so
   * between the step points the error converges with order 4. */
  double e10 = ode_harness_smooth_fixed ("radau5", NULL, 10, 1e-13, TRUE, NULL);
  double e20 = ode_harness_smooth_fixed ("radau5", NULL, 20, 1e-13, TRUE, NULL);
  double e40 = ode_harness_smooth_fixed ("radau5", NULL, 40, 1e-13, TRUE, NULL);
  double p1 = log2 (e10 / e20), p2 = log2 (e20 / e40);

  g_test_message ("dense output, fixed step 0.2, 0.1, 0.05: errors %.3e %.3e "
                  "%.3e, orders %.3f %.3f", e10, e20, e40, p1, p2);
  g_assert_cmpfloat (fabs (p2 - 4.0), <=, 0.3);

  /* With error control: the polynomial's O(h⁴) error is of the size of the
   * error estimate, which radau5.f holds at the transformed tolerance
   * rtol' = 0.1·rtol^(2/3) (not at rtol, like the step points). */
  for (double rtol = 1e-5; rtol >= 1e-11; rtol *= 1e-2)
    {
      double e = dense_error_adaptive (rtol);
      double rtol_t = 0.1 * pow (rtol, 2.0 / 3.0);
      g_test_message ("dense output, rtol %g: max sample error %.3e "
                      "(%.2f·rtol')", rtol, e, e / rtol_t);
      g_assert_cmpfloat (e, <, 10.0 * rtol_t);
    }
}

/* ---- breakpoints ------------------------------------------------------- */

static void
test_breakpoints (void)
{
  static const double bps[] = { 1.0, 1.5 };
  OdeJump jp;
  HydOdeProblem p;
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  double y = 0.0, atol = 1e-10;
  static const double expect[3][2] = { { 0.0, 1.0 }, { 1.0, 1.5 }, { 1.5, 2.0 } };

  ode_jump_problem (&jp, &p);
  hyd_ode_options_init (&o);
  o.t_end = 2.0;
  o.breakpoints = bps;
  o.n_breakpoints = G_N_ELEMENTS (bps);
  o.output = ode_jump_output;
  o.output_user = &jp;
  o.output_interval = 0.05;
  o.rtol = 1e-8;
  o.atol = &atol;
  g_assert_cmpint (hyd_ode_solve ("radau5", &p, &o, &y, &r), ==,
                   HYD_ODE_SUCCESS);
  log_stats ("step profile with breakpoints 1, 1.5", &r);

  /* Three intervals, every evaluation (stages t + c_i·h, the estimate's
   * f(t, ·)) inside the one of its piece. */
  g_assert_cmpuint (jp.n_intervals, ==, 3);
  for (guint k = 0; k < 3; k++)
    {
      g_assert_cmpfloat (jp.intervals[k][0], ==, expect[k][0]);
      g_assert_cmpfloat (jp.intervals[k][1], ==, expect[k][1]);
    }
  g_assert_cmpfloat (jp.outside, <=, 0.0);
  /* A restart per interval: the Jacobian is evaluated again after each
   * discontinuity, otherwise only after a rejection (the problem is
   * linear: the Newton iteration always converges at once). */
  g_assert_cmpuint (r.stats.jac_evals, <=, 3 + r.stats.rejected);

  /* Samples from the dense output, each with the piece of its time; the
   * ones at 1 and 1.5 hold the values after the change. */
  g_assert_cmpuint (jp.n_samples, ==, 41);
  double worst = 0.0;
  for (guint k = 0; k < jp.n_samples; k++)
    {
      g_assert_cmpfloat_with_epsilon (jp.times[k], 0.05 * k, 1e-12);
      g_assert_cmpfloat (jp.pieces[k], ==, ode_jump_piece (jp.times[k]));
      worst = MAX (worst, fabs (jp.values[k] - ode_jump_exact (jp.times[k])));
    }
  g_test_message ("max sample error %.3e", worst);
  g_assert_cmpfloat (worst, <, 1e-7);
  g_assert_cmpfloat_with_epsilon (y, ode_jump_exact (2.0), 1e-8);
  hyd_ode_result_clear (&r);

  /* Constant step: shortened onto each breakpoint, then restarted. */
  memset (&jp, 0, sizeof jp);
  o.output_interval = 0.0;
  o.fixed_step = 0.3;
  y = 0.0;
  g_assert_cmpint (hyd_ode_solve ("radau5", &p, &o, &y, &r), ==,
                   HYD_ODE_SUCCESS);
  g_assert_cmpuint (r.stats.steps, ==, 8);
  static const double fixed_times[] = { 0.0, 0.3, 0.6, 0.9, 1.0, 1.3, 1.5, 1.8, 2.0 };
  g_assert_cmpuint (jp.n_samples, ==, G_N_ELEMENTS (fixed_times));
  for (guint k = 0; k < jp.n_samples; k++)
    {
      g_assert_cmpfloat_with_epsilon (jp.times[k], fixed_times[k], 1e-12);
      g_assert_cmpfloat_with_epsilon (jp.values[k], ode_jump_exact (jp.times[k]),
                                      1e-5);
    }
  g_assert_cmpfloat (jp.outside, <=, 0.0);
  hyd_ode_result_clear (&r);
}

/* ---- Newton divergence ------------------------------------------------- */

/* y' = −1000·(y − cos t), whose Jacobian callback reports −100 instead of
 * −1000 (an inexact Jacobian, as a circuit with a stale or approximate
 * one would give). The simplified Newton iteration then contracts by about
 * 900·h/(γ + 100·h) per iteration (γ ≈ 3.64, the real eigenvalue of A⁻¹):
 * it diverges at h = 0.1 and converges below h ≈ 4e-3, so only a reduction
 * of the step driven by the Newton failures can succeed. */
typedef struct {
  double jac_value;
  guint n_samples;
  double first_t;
} StiffCos;

static int
stiffcos_rhs (double t, const double *y, double *f, gpointer user)
{
  f[0] = -1000.0 * (y[0] - cos (t));
  return 0;
}

static int
stiffcos_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  J[0] = ((const StiffCos *) user)->jac_value;
  if (dfdt != NULL)
    dfdt[0] = -1000.0 * sin (t);
  return 0;
}

static double
stiffcos_exact (double t)
{
  /* y = a·cos t + b·sin t + (1 − a)·e^(−1000 t), y(0) = 1. */
  double a = 1e6 / (1e6 + 1.0), b = 1e3 / (1e6 + 1.0);
  return a * cos (t) + b * sin (t) + (1.0 - a) * exp (-1000.0 * t);
}

static gboolean
stiffcos_output (double t, const double *y, gpointer user)
{
  StiffCos *sc = user;

  if (sc->n_samples++ == 1)
    sc->first_t = t;   /* the first accepted step's end */
  return TRUE;
}

static HydOdeStatus
run_stiffcos (StiffCos *sc, double *y, HydOdeResult *r)
{
  HydOdeProblem p = { .n = 1, .user = sc, .rhs = stiffcos_rhs,
                      .jac = stiffcos_jac };
  HydOdeOptions o;
  double atol = 1e-6;

  hyd_ode_options_init (&o);
  o.t_end = 0.5;
  o.h0 = 0.1;
  o.rtol = 1e-6;
  o.atol = &atol;
  o.output = stiffcos_output;
  o.output_user = sc;
  *y = 1.0;
  return hyd_ode_solve ("radau5", &p, &o, y, r);
}

static void
test_newton_divergence (void)
{
  StiffCos exact_jac = { -1000.0, 0, 0.0 }, bad_jac = { -100.0, 0, 0.0 };
  HydOdeResult r = { 0 };
  double y;

  /* Reference: with the exact Jacobian the first step of 0.1 passes. */
  g_assert_cmpint (run_stiffcos (&exact_jac, &y, &r), ==, HYD_ODE_SUCCESS);
  log_stats ("exact Jacobian", &r);
  g_assert_cmpfloat (exact_jac.first_t, ==, 0.1);
  g_assert_cmpfloat_with_epsilon (y, stiffcos_exact (0.5), 1e-6);
  guint64 steps_exact = r.stats.steps;
  hyd_ode_result_clear (&r);

  /* Inexact Jacobian: the Newton iteration fails at h = 0.1 (a rejection
   * without an error estimate), the step shrinks until it converges, and
   * the result is as accurate: Newton converges to the same collocation
   * solution whatever matrix it iterates with. */
  g_assert_cmpint (run_stiffcos (&bad_jac, &y, &r), ==, HYD_ODE_SUCCESS);
  log_stats ("Jacobian −100 for −1000", &r);
  g_test_message ("first accepted step ends at %.4g", bad_jac.first_t);
  g_assert_cmpfloat (bad_jac.first_t, <, 0.1 / 16.0);
  g_assert_cmpuint (r.stats.rejected, >=, 4);
  g_assert_cmpuint (r.stats.steps, >, steps_exact);
  g_assert_cmpfloat_with_epsilon (y, stiffcos_exact (0.5), 1e-6);
  hyd_ode_result_clear (&r);
}

/* ---- sparse LU and events --------------------------------------------- */

static void
test_sparse_lu (void)
{
  /* POLLU with a complete (dense) pattern: the real and the complex LU go
   * through KLU instead of LAPACK, with the same result. */
  const HydTestProblem *p = hyd_testset_lookup ("pollu");
  guint n = p->n;
  g_autofree guint *colptr = g_new (guint, n + 1);
  g_autofree guint *rowind = g_new (guint, n * n);
  g_autofree double *atol = g_new (double, n);
  g_autofree double *y_dense = g_memdup2 (p->y0, n * sizeof (double));
  g_autofree double *y_sparse = g_memdup2 (p->y0, n * sizeof (double));
  HydOdeProblem sp = p->problem;
  HydOdeOptions o;
  HydOdeResult rd = { 0 }, rs = { 0 };

  for (guint j = 0; j <= n; j++)
    colptr[j] = j * n;
  for (guint k = 0; k < n * n; k++)
    rowind[k] = k % n;
  sp.nnz = n * n;
  sp.colptr = colptr;
  sp.rowind = rowind;

  hyd_ode_options_init (&o);
  o.t0 = p->t0;
  o.t_end = p->t_end;
  ode_harness_tolerances (&o, atol, n, 1e-6, 1e-6);
  o.linear_solver = HYD_LINEAR_SOLVER_DENSE;
  g_assert_cmpint (hyd_ode_solve ("radau5", &sp, &o, y_dense, &rd), ==,
                   HYD_ODE_SUCCESS);
  o.linear_solver = HYD_LINEAR_SOLVER_SPARSE;
  g_assert_cmpint (hyd_ode_solve ("radau5", &sp, &o, y_sparse, &rs), ==,
                   HYD_ODE_SUCCESS);
  log_stats ("POLLU, LAPACK", &rd);
  log_stats ("POLLU, KLU", &rs);
  double mescd = hyd_testset_mescd (n, y_sparse, p->y_ref, 1e-6, 1e-6);
  g_test_message ("KLU: mescd %.2f", mescd);
  g_assert_cmpfloat (mescd, >=, 4.0);
  for (guint i = 0; i < n; i++)
    g_assert_cmpfloat (fabs (y_sparse[i] - y_dense[i]), <=,
                       1e-9 * (1e-6 + fabs (y_dense[i])) + 1e-15);
  hyd_ode_result_clear (&rd);
  hyd_ode_result_clear (&rs);
}

/* Free fall y'' = −1 from y = 1: y = 1 − t²/2 crosses 0.5 at t = 1. */
static int
fall_rhs (double t, const double *y, double *f, gpointer user)
{
  f[0] = y[1];
  f[1] = -1.0;
  return 0;
}

static int
fall_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  J[0] = 0.0; J[1] = 0.0; J[2] = 1.0; J[3] = 0.0;
  if (dfdt != NULL)
    dfdt[0] = dfdt[1] = 0.0;
  return 0;
}

static int
fall_events (double t, const double *y, double *g, gpointer user)
{
  g[0] = y[0] - 0.5;
  return 0;
}

static gboolean
fall_output (double t, const double *y, gpointer user)
{
  double *closest = user;

  if (fabs (t - 1.0) < fabs (closest[0] - 1.0))
    {
      closest[0] = t;
      closest[1] = y[0];
    }
  return TRUE;
}

static void
test_event (void)
{
  /* The event is located on the collocation polynomial of the step that
   * crosses it (before that step is accepted), and the method restarts
   * there. */
  HydOdeProblem p = { .n = 2, .rhs = fall_rhs, .jac = fall_jac,
                      .n_events = 1, .events = fall_events };
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  double y[2] = { 1.0, 0.0 }, atol[2], closest[2] = { INFINITY, 0.0 };

  hyd_ode_options_init (&o);
  o.t_end = 1.5;
  o.events = TRUE;
  o.output = fall_output;
  o.output_user = closest;
  ode_harness_tolerances (&o, atol, 2, 1e-8, 1e-8);
  g_assert_cmpint (hyd_ode_solve ("radau5", &p, &o, y, &r), ==,
                   HYD_ODE_SUCCESS);
  log_stats ("free fall with an event at t = 1", &r);
  g_test_message ("event at t = %.12f, y = %.12f", closest[0], closest[1]);
  g_assert_cmpuint (r.stats.events, ==, 1);
  g_assert_cmpfloat_with_epsilon (closest[0], 1.0, 1e-7);
  g_assert_cmpfloat_with_epsilon (closest[1], 0.5, 1e-7);
  g_assert_cmpfloat_with_epsilon (y[0], 1.0 - 1.125, 1e-10);
  g_assert_cmpfloat_with_epsilon (y[1], -1.5, 1e-10);
  hyd_ode_result_clear (&r);
}

/* ---- cancellation ------------------------------------------------------ */

static void
test_cancel_in_newton (void)
{
  /* Evaluation 1 is f(t0) (the driver's); 2, 3, 4 are the stages of the
   * first Newton iteration of the first step. The flag rises at 2. */
  const guint cancel_at = 2;
  HydOdeResult r = { 0 };
  double y;

  guint calls = ode_harness_cancel_in_newton ("radau5", cancel_at, &y, &r);
  /* The attempt stops at its next Newton iteration, after the current
   * iteration's stages (it would need at least three from zero starting
   * values, nine evaluations, to finish). */
  g_assert_cmpuint (calls, ==, cancel_at + 2);
  g_assert_cmpuint (r.stats.steps, ==, 0);
  g_assert_cmpuint (r.stats.newton, ==, 1);
  g_assert_cmpfloat (r.t, ==, 0.0);
  g_assert_cmpfloat (y, ==, 1.0);
  hyd_ode_result_clear (&r);
}

int
main (int argc, char **argv)
{
  static const TestsetCase cases[] = {
    { "hires", 1e-6, 4.0 },
    { "vdpol", 1e-6, 4.0 },
    { "rober", 1e-6, 4.0 },
    { "orego", 1e-6, 4.0 },
    { "e5", 1e-6, 4.0 },
    { "pollu", 1e-6, 4.0 },
    /* The benchmark's reference solver must hold at 1e-10. */
    { "hires", 1e-10, 8.0 },
    { "rober", 1e-10, 8.0 },
  };

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/radau5/info", test_info);
  g_test_add_func ("/engine/radau5/order/fixed-step", test_order_fixed);
  g_test_add_func ("/engine/radau5/order/adaptive", test_order_adaptive);
  g_test_add_func ("/engine/radau5/l-stability", test_l_stability);
  g_test_add_func ("/engine/radau5/jacobian-reuse", test_jacobian_reuse);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/engine/radau5/testset/%s/%g",
                                               cases[i].id, cases[i].rtol);
      g_test_add_data_func (path, &cases[i], run_testset_case);
    }
  g_test_add_func ("/engine/radau5/dense-output", test_dense_output);
  g_test_add_func ("/engine/radau5/breakpoints", test_breakpoints);
  g_test_add_func ("/engine/radau5/sparse-lu", test_sparse_lu);
  g_test_add_func ("/engine/radau5/event", test_event);
  g_test_add_func ("/engine/radau5/newton-divergence", test_newton_divergence);
  g_test_add_func ("/engine/radau5/cancel-in-newton", test_cancel_in_newton);

  ode_harness_add_conformance ("radau5");

  return g_test_run ();
}
