/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-rodas4.c — the solver layer with RODAS4: convergence order (fixed
 * step and dense output), the stiff test set against the Bari reference
 * values, breakpoints and output samples, cancellation and failures. */
#include "ode-harness.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ---- helpers ----------------------------------------------------------- */

/* ---- solver list ------------------------------------------------------- */

static void
test_solver_list (void)
{
  guint n = 0;
  const HydSolverInfo *list = hyd_solver_list (&n);
  const HydSolverInfo *info = hyd_solver_lookup ("rodas4");

  g_assert_cmpuint (n, >=, 1);
  g_assert_nonnull (info);
  g_assert_true (info >= list && info < list + n);
  g_assert_cmpstr (info->order, ==, "4(3)");
  g_assert_true (info->implicit && info->adaptive && !info->multistep);
  g_assert_null (hyd_solver_lookup ("no-such-solver"));
  g_assert_cmpstr (hyd_ode_status_name (HYD_ODE_STEP_UNDERFLOW), ==,
                   "step-underflow");

  const HydTestProblem *s = hyd_testset_smooth ();
  double y[2] = { 1.0, 0.0 }, atol[2];
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  hyd_ode_options_init (&o);
  o.t_end = 1.0;
  ode_harness_tolerances (&o, atol, 2, 1e-6, 1e-6);
  g_assert_cmpint (hyd_ode_solve ("no-such-solver", &s->problem, &o, y, &r),
                   ==, HYD_ODE_UNKNOWN_SOLVER);
  g_assert_nonnull (strstr (r.message, "no-such-solver"));
  hyd_ode_result_clear (&r);
}

/* ---- convergence order ------------------------------------------------- */

static int
smooth_jac_without_ft (double t, const double *y, double *J, double *dfdt,
                       gpointer user)
{
  const HydTestProblem *s = hyd_testset_smooth ();
  int rc = s->problem.jac (t, y, J, dfdt, s->problem.user);
  if (dfdt != NULL)
    dfdt[0] = dfdt[1] = 0.0;
  return rc;
}

static void
test_order_fixed (void)
{
  const HydTestProblem *s = hyd_testset_smooth ();
  double e40 = ode_harness_smooth_fixed ("rodas4", NULL, 40, 1e-6, FALSE, NULL);
  double e80 = ode_harness_smooth_fixed ("rodas4", NULL, 80, 1e-6, FALSE, NULL);
  double e160 = ode_harness_smooth_fixed ("rodas4", NULL, 160, 1e-6, FALSE, NULL);
  double p1 = log2 (e40 / e80), p2 = log2 (e80 / e160);

  g_test_message ("rodas4 fixed step: errors %.3e %.3e %.3e, orders %.3f %.3f",
                  e40, e80, e160, p1, p2);
  g_assert_cmpfloat (fabs (p1 - 4.0), <=, 0.2);
  g_assert_cmpfloat (fabs (p2 - 4.0), <=, 0.2);

  /* The same without the γ_i·h·∂f/∂t term (as the code of Esqué 2008, App. A/B): order ≈ 1. */
  HydOdeProblem no_ft = s->problem;
  no_ft.jac = smooth_jac_without_ft;
  double f80 = ode_harness_smooth_fixed ("rodas4", &no_ft, 80, 1e-6, FALSE, NULL);
  double f160 = ode_harness_smooth_fixed ("rodas4", &no_ft, 160, 1e-6, FALSE, NULL);
  g_test_message ("without ∂f/∂t: errors %.3e %.3e, order %.3f",
                  f80, f160, log2 (f80 / f160));
}

static void
test_order_dense (void)
{
  /* HW rodas.f dense output is of order 3: local error O(h⁴), so the
   * samples between step points converge like the steps themselves. */
  double e40 = ode_harness_smooth_fixed ("rodas4", NULL, 40, 1e-6, TRUE, NULL);
  double e80 = ode_harness_smooth_fixed ("rodas4", NULL, 80, 1e-6, TRUE, NULL);
  double e160 = ode_harness_smooth_fixed ("rodas4", NULL, 160, 1e-6, TRUE, NULL);
  double p = log2 (e80 / e160);

  g_test_message ("dense output: errors %.3e %.3e %.3e, orders %.3f %.3f",
                  e40, e80, e160, log2 (e40 / e80), p);
  g_assert_cmpfloat (fabs (p - 4.0), <=, 0.2);
}

static void
test_adaptive_smooth (void)
{
  /* Tolerance proportionality: a 100× smaller rtol gives a smaller error. */
  double err[2];
  double rtols[2] = { 1e-5, 1e-7 };

  for (guint k = 0; k < 2; k++)
    {
      HydOdeResult r = { 0 };
      g_assert_cmpint (ode_harness_smooth_adaptive ("rodas4", rtols[k], 0.0, NULL, &err[k], &r),
                       ==, HYD_ODE_SUCCESS);
      g_assert_cmpfloat (err[k], <, 10.0 * rtols[k]);
      g_assert_cmpuint (r.stats.newton, ==, 0);
      g_assert_cmpuint (r.stats.lu, ==, r.stats.steps + r.stats.rejected);
      hyd_ode_result_clear (&r);
    }
  g_assert_cmpfloat (err[1], <, err[0] / 10.0);
}

/* ---- the stiff test set ------------------------------------------------ */

static void
check_jacobian (const HydTestProblem *p, const double *y, double t)
{
  guint n = p->n;
  g_autofree double *J = g_new (double, n * n);
  g_autofree double *ft = g_new (double, n);
  g_autofree double *fp = g_new (double, n);
  g_autofree double *fm = g_new (double, n);
  g_autofree double *yy = g_memdup2 (y, n * sizeof (double));

  g_assert_cmpint (p->problem.jac (t, y, J, ft, p->problem.user), ==, 0);
  for (guint j = 0; j <= n; j++)
    {
      /* Column j of J by central differences; j == n is ∂f/∂t. */
      double base = j < n ? y[j] : t;
      double d = 1e-6 * MAX (fabs (base), 1e-3);
      if (j < n)
        {
          yy[j] = base + d;
          p->problem.rhs (t, yy, fp, p->problem.user);
          yy[j] = base - d;
          p->problem.rhs (t, yy, fm, p->problem.user);
          yy[j] = base;
        }
      else
        {
          p->problem.rhs (t + d, y, fp, p->problem.user);
          p->problem.rhs (t - d, y, fm, p->problem.user);
        }
      for (guint i = 0; i < n; i++)
        {
          double fd = (fp[i] - fm[i]) / (2.0 * d);
          double an = j < n ? J[i + j * n] : ft[i];
          /* Truncation and round-off (cancellation in fp − fm). */
          double tol = 1e-5 * MAX (1.0, MAX (fabs (fd), fabs (an)))
                       + 1e3 * DBL_EPSILON * MAX (fabs (fp[i]), fabs (fm[i])) / d;
          if (fabs (fd - an) > tol)
            g_error ("%s: ∂f%u/∂%s%u analytic %g, differences %g", p->id, i,
                     j < n ? "y" : "t", j, an, fd);
        }
    }
}

static void
test_testset_jacobians (void)
{
  guint np;
  const HydTestProblem *ps = hyd_testset_list (&np);

  g_assert_cmpuint (np, ==, 6);
  for (guint k = 0; k <= np; k++)
    {
      const HydTestProblem *p = k < np ? &ps[k] : hyd_testset_smooth ();
      g_autofree double *y = g_new (double, p->n);

      g_assert_true (hyd_testset_lookup (p->id) == p);
      check_jacobian (p, p->y0, p->t0);
      /* A point away from the initial value, every state non-zero. */
      for (guint i = 0; i < p->n; i++)
        y[i] = 0.5 * (p->y0[i] + p->y_ref[i]) * (1.0 + 0.01 * i)
               + 1e-9 * (i + 1);
      check_jacobian (p, y, 0.7 * p->t_end);
    }
}

typedef struct {
  const char *id;
  double atol_factor;   /* atol = factor·rtol */
} TestsetCase;

static void
run_testset_case (gconstpointer data)
{
  const TestsetCase *tc = data;
  double rtol = 1e-6;

  g_assert_cmpfloat (ode_harness_testset ("rodas4", tc->id, rtol, tc->atol_factor * rtol, NULL),
                     >=, 4.0);
}

static void
test_fd_jacobian (void)
{
  const HydTestProblem *p = hyd_testset_lookup ("hires");
  double rtol = 1e-6;
  double y[8], atol[8];
  HydOdeOptions o;
  HydOdeResult r = { 0 };

  hyd_ode_options_init (&o);
  o.t_end = p->t_end;
  o.fd_jacobian = TRUE;
  ode_harness_tolerances (&o, atol, 8, rtol, rtol);
  memcpy (y, p->y0, sizeof y);
  g_assert_cmpint (hyd_ode_solve ("rodas4", &p->problem, &o, y, &r), ==,
                   HYD_ODE_SUCCESS);
  double mescd = hyd_testset_mescd (8, y, p->y_ref, rtol, rtol);
  g_test_message ("HIRES, finite-difference Jacobian: mescd %.2f, f %"
                  G_GUINT64_FORMAT ", jac %" G_GUINT64_FORMAT,
                  mescd, r.stats.f_evals, r.stats.jac_evals);
  g_assert_cmpfloat (mescd, >=, 4.0);
  /* n + 1 evaluations per Jacobian are counted as f evaluations. */
  g_assert_cmpuint (r.stats.f_evals, >=, 9 * r.stats.jac_evals);
  hyd_ode_result_clear (&r);

  /* Non-autonomous: ∂f/∂t by differences keeps the order. */
  const HydTestProblem *s = hyd_testset_smooth ();
  HydOdeProblem no_jac = s->problem;
  no_jac.jac = NULL;
  double y2[2];
  memcpy (y2, s->y0, sizeof y2);
  hyd_ode_options_init (&o);
  o.t_end = s->t_end;
  o.fd_jacobian = TRUE;
  ode_harness_tolerances (&o, atol, 2, 1e-8, 1e-8);
  g_assert_cmpint (hyd_ode_solve ("rodas4", &no_jac, &o, y2, &r), ==,
                   HYD_ODE_SUCCESS);
  g_assert_cmpfloat (fabs (y2[0] - s->y_ref[0]), <, 1e-6);
  g_assert_cmpfloat (fabs (y2[1] - s->y_ref[1]), <, 1e-6);
  hyd_ode_result_clear (&r);
}

/* ---- breakpoints and output samples ------------------------------------ */

static void
jump_setup (OdeJump *jp, HydOdeProblem *p, HydOdeOptions *o, double *atol)
{
  /* Sorted, with one before t0, a near-duplicate and one at t_end: only
   * 1 and 1.5 are breakpoints. */
  static const double bps[] = { -1.0, 1.0, 1.0 + 1e-15, 1.5, 2.0 };

  ode_jump_problem (jp, p);
  hyd_ode_options_init (o);
  o->t_end = 2.0;
  o->breakpoints = bps;
  o->n_breakpoints = G_N_ELEMENTS (bps);
  o->output = ode_jump_output;
  o->output_user = jp;
  ode_harness_tolerances (o, atol, 1, 1e-8, 1e-10);
}

static void
check_intervals (const OdeJump *jp)
{
  static const double expect[3][2] = { { 0.0, 1.0 }, { 1.0, 1.5 }, { 1.5, 2.0 } };

  g_assert_cmpuint (jp->n_intervals, ==, 3);
  for (guint k = 0; k < 3; k++)
    {
      g_assert_cmpfloat (jp->intervals[k][0], ==, expect[k][0]);
      g_assert_cmpfloat (jp->intervals[k][1], ==, expect[k][1]);
    }
  /* Every evaluation inside the interval of its piece. */
  g_assert_cmpfloat (jp->outside, <=, 0.0);
}

static void
test_breakpoints (void)
{
  OdeJump jp;
  HydOdeProblem p;
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  double y = 0.0, atol;

  jump_setup (&jp, &p, &o, &atol);
  g_assert_cmpint (hyd_ode_solve ("rodas4", &p, &o, &y, &r), ==,
                   HYD_ODE_SUCCESS);
  check_intervals (&jp);
  g_assert_cmpfloat (r.t, ==, 2.0);
  g_assert_cmpfloat_with_epsilon (y, ode_jump_exact (2.0), 1e-7);

  /* Every step: t0, the step ends, each breakpoint once after the change,
   * and t_end. */
  g_assert_cmpfloat (jp.times[0], ==, 0.0);
  g_assert_cmpfloat (jp.times[jp.n_samples - 1], ==, 2.0);
  g_assert_cmpuint (jp.n_samples, ==, r.stats.steps + 1);
  guint seen = 0;
  for (guint k = 0; k < jp.n_samples; k++)
    {
      if (k > 0)
        g_assert_cmpfloat (jp.times[k], >, jp.times[k - 1]);
      g_assert_cmpfloat (jp.pieces[k], ==, ode_jump_piece (jp.times[k]));
      g_assert_cmpfloat_with_epsilon (jp.values[k], ode_jump_exact (jp.times[k]),
                                      1e-7);
      if (jp.times[k] == 1.0 || jp.times[k] == 1.5)
        seen++;
    }
  g_assert_cmpuint (seen, ==, 2);
  hyd_ode_result_clear (&r);
}

static void
test_samples (void)
{
  OdeJump jp;
  HydOdeProblem p;
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  double y = 0.0, atol;

  jump_setup (&jp, &p, &o, &atol);
  o.output_interval = 0.1;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &p, &o, &y, &r), ==,
                   HYD_ODE_SUCCESS);
  check_intervals (&jp);

  /* t_k = k·0.1 for k = 0..19, then t_end; 15·0.1 is 1.5000000000000002
   * and counts as the breakpoint 1.5. */
  g_assert_cmpuint (jp.n_samples, ==, 21);
  for (guint k = 0; k < jp.n_samples; k++)
    {
      double tk = k < 20 ? k * 0.1 : 2.0;
      g_assert_cmpfloat_with_epsilon (jp.times[k], tk, 1e-12);
      /* At a breakpoint the sample holds the values after the change. */
      g_assert_cmpfloat (jp.pieces[k], ==, ode_jump_piece (jp.times[k]));
      g_assert_cmpfloat_with_epsilon (jp.values[k], ode_jump_exact (tk), 1e-7);
    }
  g_assert_cmpfloat (jp.times[10], ==, 1.0);
  g_assert_cmpfloat (jp.pieces[10], ==, -2.0);
  g_assert_cmpfloat (jp.times[15], ==, 1.5);
  g_assert_cmpfloat (jp.pieces[15], ==, 0.5);
  g_assert_cmpfloat (jp.times[20], ==, 2.0);
  g_test_message ("%" G_GUINT64_FORMAT " steps for %u samples",
                  r.stats.steps, jp.n_samples);
  hyd_ode_result_clear (&r);

  /* A last regular sample within 1e-9·Δ of t_end is not repeated. */
  jump_setup (&jp, &p, &o, &atol);
  o.output_interval = 0.4;
  o.t_end = 2.0 + 1e-11;
  y = 0.0;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &p, &o, &y, &r), ==,
                   HYD_ODE_SUCCESS);
  g_assert_cmpuint (jp.n_samples, ==, 6);
  g_assert_cmpfloat (jp.times[5], ==, o.t_end);
  hyd_ode_result_clear (&r);
}

static void
test_fixed_step_breakpoints (void)
{
  OdeJump jp;
  HydOdeProblem p;
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  double y = 0.0, atol;
  /* Constant step 0.3 from each interval start; shortened onto 1, 1.5, 2. */
  static const double expect[] = { 0.0, 0.3, 0.6, 0.9, 1.0, 1.3, 1.5, 1.8, 2.0 };

  jump_setup (&jp, &p, &o, &atol);
  o.fixed_step = 0.3;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &p, &o, &y, &r), ==,
                   HYD_ODE_SUCCESS);
  check_intervals (&jp);
  g_assert_cmpuint (r.stats.steps, ==, 8);
  g_assert_cmpuint (r.stats.rejected, ==, 0);
  g_assert_cmpuint (jp.n_samples, ==, G_N_ELEMENTS (expect));
  for (guint k = 0; k < jp.n_samples; k++)
    {
      g_assert_cmpfloat_with_epsilon (jp.times[k], expect[k], 1e-12);
      g_assert_cmpfloat (jp.pieces[k], ==, ode_jump_piece (jp.times[k]));
      g_assert_cmpfloat_with_epsilon (jp.values[k], ode_jump_exact (jp.times[k]),
                                      1e-4);
    }
  g_assert_cmpfloat (jp.times[4], ==, 1.0);
  g_assert_cmpfloat (jp.times[6], ==, 1.5);
  g_assert_cmpfloat (jp.times[8], ==, 2.0);
  hyd_ode_result_clear (&r);
}

/* ---- cancellation and failures ----------------------------------------- */

static void
test_cancel (void)
{
  OdeJump jp;
  HydOdeProblem p;
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  double y = 0.0, atol;
  gint cancel = 0;

  /* Raised from the output callback, as another thread would. */
  jump_setup (&jp, &p, &o, &atol);
  o.output_interval = 0.01;
  o.cancel = &cancel;
  jp.cancel = &cancel;
  jp.cancel_after = 30;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &p, &o, &y, &r), ==,
                   HYD_ODE_CANCELLED);
  g_assert_nonnull (strstr (r.message, "cancelled"));
  g_assert_cmpfloat (r.t, >=, 0.29);
  g_assert_cmpfloat (r.t, <, 2.0);
  g_assert_cmpfloat_with_epsilon (y, ode_jump_exact (r.t), 1e-7);
  g_assert_cmpuint (jp.n_samples, ==, 30);
  hyd_ode_result_clear (&r);

  /* Already set: nothing is integrated. */
  jump_setup (&jp, &p, &o, &atol);
  o.cancel = &cancel;
  y = 0.0;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &p, &o, &y, &r), ==,
                   HYD_ODE_CANCELLED);
  g_assert_cmpfloat (r.t, ==, 0.0);
  g_assert_cmpuint (r.stats.steps, ==, 0);
  g_assert_cmpfloat (y, ==, 0.0);
  hyd_ode_result_clear (&r);

  /* The output callback asks to stop. */
  jump_setup (&jp, &p, &o, &atol);
  o.output_interval = 0.1;
  jp.stop_after = 4;
  y = 0.0;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &p, &o, &y, &r), ==,
                   HYD_ODE_CANCELLED);
  g_assert_nonnull (strstr (r.message, "output"));
  g_assert_cmpuint (jp.n_samples, ==, 4);
  hyd_ode_result_clear (&r);
}

/* A model that breaks for good once evaluated after t = 0.5: from then on
 * the valve opening is NaN (or the callback fails), whatever the step. */
typedef struct {
  gboolean broken;
  int fail_code;      /* 0: NaN in f[1]; else the return value */
} BreakingModel;

static const char *
breaking_state_name (guint i, gpointer user)
{
  return i == 0 ? "pump.q" : "valve.x";
}

static int
breaking_rhs (double t, const double *y, double *f, gpointer user)
{
  BreakingModel *bm = user;

  if (t > 0.5)
    bm->broken = TRUE;
  f[0] = -y[0] + cos (t);
  f[1] = y[0] - 2.0 * y[1];
  if (bm->broken)
    {
      if (bm->fail_code != 0)
        return bm->fail_code;
      f[1] = NAN;
    }
  return 0;
}

static int
breaking_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  J[0] = -1.0; J[1] = 1.0; J[2] = 0.0; J[3] = -2.0;
  if (dfdt != NULL)
    {
      dfdt[0] = -sin (t);
      dfdt[1] = 0.0;
    }
  return 0;
}

static void
run_breaking (BreakingModel *bm, HydOdeStatus expect, HydOdeResult *r,
              double *y)
{
  HydOdeProblem p = {
    .n = 2, .user = bm, .rhs = breaking_rhs, .jac = breaking_jac,
    .state_name = breaking_state_name,
  };
  HydOdeOptions o;
  double atol[2];

  hyd_ode_options_init (&o);
  o.t_end = 1.0;
  ode_harness_tolerances (&o, atol, 2, 1e-6, 1e-6);
  y[0] = 1.0;
  y[1] = 0.0;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &p, &o, y, r), ==, expect);
  g_test_message ("%s: %s", hyd_ode_status_name (r->status), r->message);
  g_assert_cmpfloat (r->t, >, 0.0);
  g_assert_cmpfloat (r->t, <=, 0.5);
  g_assert_true (isfinite (y[0]) && isfinite (y[1]));
}

static void
test_nonfinite (void)
{
  BreakingModel bm = { FALSE, 0 };
  HydOdeResult r = { 0 };
  double y[2];

  run_breaking (&bm, HYD_ODE_NONFINITE, &r, y);
  g_assert_nonnull (strstr (r.message, "valve.x"));
  g_assert_nonnull (strstr (r.message, "t = 0."));
  g_assert_cmpint (r.worst_state, ==, 1);
  g_assert_cmpuint (r.stats.rejected, >=, 10);
  hyd_ode_result_clear (&r);

  /* A recoverable code (> 0) on every retry ends the same way. */
  bm = (BreakingModel) { FALSE, 2 };
  run_breaking (&bm, HYD_ODE_NONFINITE, &r, y);
  g_assert_nonnull (strstr (r.message, "t = 0."));
  hyd_ode_result_clear (&r);
}

static void
test_callback_failed (void)
{
  BreakingModel bm = { FALSE, -3 };
  HydOdeResult r = { 0 };
  double y[2];

  run_breaking (&bm, HYD_ODE_CALLBACK_FAILED, &r, y);
  g_assert_nonnull (strstr (r.message, "-3"));
  hyd_ode_result_clear (&r);
}

static void
test_singular (void)
{
  /* y' = 40·y: E = 1/(hγ) − 40 is exactly singular at h = 0.1 (γ = 1/4). */
  double lambda = 40.0, y = 1.0, atol = 1e-10;
  HydOdeProblem p = ode_linear_problem (&lambda);
  HydOdeOptions o;
  HydOdeResult r = { 0 };

  hyd_ode_options_init (&o);
  o.t_end = 0.1;
  o.fixed_step = 0.1;
  o.rtol = 1e-8;
  o.atol = &atol;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &p, &o, &y, &r), ==,
                   HYD_ODE_SINGULAR);
  g_assert_nonnull (strstr (r.message, "y[0]"));
  g_assert_cmpint (r.worst_state, ==, 0);
  g_assert_cmpfloat (y, ==, 1.0);
  hyd_ode_result_clear (&r);

  /* Adaptive: the step halving cures it. */
  o.fixed_step = 0.0;
  o.h0 = 0.1;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &p, &o, &y, &r), ==,
                   HYD_ODE_SUCCESS);
  g_assert_cmpuint (r.stats.rejected, >=, 1);
  g_assert_cmpfloat_with_epsilon (y, exp (4.0), 1e-5 * exp (4.0));
  hyd_ode_result_clear (&r);
}

static void
test_limits (void)
{
  /* y' = y over [0, 50] in no more than 20 steps. */
  double one = 1.0, y = 1.0, atol = 1e-8;
  HydOdeProblem p = ode_linear_problem (&one);
  HydOdeOptions o;
  HydOdeResult r = { 0 };

  hyd_ode_options_init (&o);
  o.t_end = 50.0;
  o.atol = &atol;
  o.max_steps = 20;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &p, &o, &y, &r), ==,
                   HYD_ODE_TOO_MANY_STEPS);
  g_assert_nonnull (strstr (r.message, "y[0]"));
  g_assert_cmpfloat (r.t, >, 0.0);
  g_assert_cmpfloat (r.t, <, 50.0);
  g_assert_cmpfloat_with_epsilon (y, exp (r.t), 1e-5 * exp (r.t));
  hyd_ode_result_clear (&r);
}

static void
test_underflow (void)
{
  /* y' = y² blows up at t = 1: the step size collapses there. */
  double y = 1.0, atol = 1e-8;
  HydOdeOptions o;
  HydOdeResult r = { 0 };

  hyd_ode_options_init (&o);
  o.t_end = 2.0;
  o.atol = &atol;
  HydOdeStatus status = hyd_ode_solve ("rodas4", &ode_square_problem, &o, &y, &r);
  g_test_message ("y' = y²: %s", r.message);
  g_assert_true (status == HYD_ODE_STEP_UNDERFLOW
                 || status == HYD_ODE_NONFINITE);
  g_assert_nonnull (strstr (r.message, "y[0]"));
  g_assert_cmpfloat_with_epsilon (r.t, 1.0, 1e-4);
  g_assert_true (isfinite (y));
  hyd_ode_result_clear (&r);
}

static void
test_bad_input (void)
{
  const HydTestProblem *s = hyd_testset_smooth ();
  double y[2] = { 1.0, 0.0 }, atol[2] = { 1e-6, 1e-6 };
  HydOdeOptions o;
  HydOdeResult r = { 0 };

  hyd_ode_options_init (&o);
  o.t_end = 0.0;
  o.atol = atol;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &s->problem, &o, y, &r), ==,
                   HYD_ODE_BAD_INPUT);
  g_assert_nonnull (strstr (r.message, "t_end"));
  hyd_ode_result_clear (&r);

  o.t_end = 1.0;
  o.atol = NULL;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &s->problem, &o, y, &r), ==,
                   HYD_ODE_BAD_INPUT);
  hyd_ode_result_clear (&r);

  o.atol = atol;
  y[1] = NAN;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &s->problem, &o, y, &r), ==,
                   HYD_ODE_BAD_INPUT);
  g_assert_nonnull (strstr (r.message, "y[1]"));
  hyd_ode_result_clear (&r);
  y[1] = 0.0;

  HydOdeProblem no_jac = s->problem;
  no_jac.jac = NULL;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &no_jac, &o, y, &r), ==,
                   HYD_ODE_BAD_INPUT);
  hyd_ode_result_clear (&r);

  /* A NULL result is allowed. */
  g_assert_cmpint (hyd_ode_solve ("rodas4", &s->problem, &o, y, NULL), ==,
                   HYD_ODE_SUCCESS);
}

int
main (int argc, char **argv)
{
  static const TestsetCase cases[] = {
    { "hires", 1.0 },
    { "vdpol", 1.0 },
    { "rober", 1.0 },
    { "orego", 1.0 },
    { "e5", 1.0 },
    { "pollu", 1.0 },
  };

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/rodas4/solver-list", test_solver_list);
  g_test_add_func ("/engine/rodas4/order/fixed-step", test_order_fixed);
  g_test_add_func ("/engine/rodas4/order/dense-output", test_order_dense);
  g_test_add_func ("/engine/rodas4/order/adaptive", test_adaptive_smooth);
  g_test_add_func ("/engine/rodas4/testset/jacobians", test_testset_jacobians);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/engine/rodas4/testset/%s",
                                               cases[i].id);
      g_test_add_data_func (path, &cases[i], run_testset_case);
    }
  g_test_add_func ("/engine/rodas4/testset/fd-jacobian", test_fd_jacobian);
  g_test_add_func ("/engine/rodas4/breakpoints/every-step", test_breakpoints);
  g_test_add_func ("/engine/rodas4/breakpoints/samples", test_samples);
  g_test_add_func ("/engine/rodas4/breakpoints/fixed-step",
                   test_fixed_step_breakpoints);
  g_test_add_func ("/engine/rodas4/failure/cancel", test_cancel);
  g_test_add_func ("/engine/rodas4/failure/nonfinite", test_nonfinite);
  g_test_add_func ("/engine/rodas4/failure/callback", test_callback_failed);
  g_test_add_func ("/engine/rodas4/failure/singular", test_singular);
  g_test_add_func ("/engine/rodas4/failure/too-many-steps", test_limits);
  g_test_add_func ("/engine/rodas4/failure/underflow", test_underflow);
  g_test_add_func ("/engine/rodas4/failure/bad-input", test_bad_input);

  ode_harness_add_conformance ("rodas4");

  return g_test_run ();
}
