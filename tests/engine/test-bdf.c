/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-bdf.c — `bdf` (variable-order BDF 1–5) and the θ-methods
 * `trapezoid` and `backward_euler`: observed orders on the smooth
 * non-autonomous problem (bdf at each pinned order 1–5), stability (backward
 * Euler damps a λ = −1e6 mode in one step, the trapezoid rings: Esqué
 * 2008, Fig. 4.4), the stiff test set at rtol 1e-6, the HASP thesis's (§2.56) 2×2 linear
 * stiff example against its exact solution, and bdf's restart at
 * breakpoints. */
#include "ode-harness.h"

#include <math.h>
#include <string.h>

/* ---- helpers ----------------------------------------------------------- */

/* ---- solver list -------------------------------------------------------- */

static void
test_solver_list (void)
{
  const HydSolverInfo *bdf = hyd_solver_lookup ("bdf");
  const HydSolverInfo *tr = hyd_solver_lookup ("trapezoid");
  const HydSolverInfo *be = hyd_solver_lookup ("backward_euler");

  g_assert_nonnull (bdf);
  g_assert_nonnull (tr);
  g_assert_nonnull (be);
  g_assert_cmpstr (bdf->family, ==, "variable-order BDF 1–5 (Gear)");
  g_assert_cmpstr (bdf->order, ==, "1–5");
  g_assert_true (bdf->implicit && bdf->adaptive && bdf->multistep);
  g_assert_cmpstr (tr->order, ==, "2");
  g_assert_cmpstr (be->order, ==, "1");
  g_assert_true (tr->implicit && tr->adaptive && !tr->multistep);
  g_assert_true (be->implicit && be->adaptive && !be->multistep);

  /* A multistep method has no fixed-step mode. */
  const HydTestProblem *s = hyd_testset_smooth ();
  double y[2] = { 1.0, 0.0 }, atol[2];
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  hyd_ode_options_init (&o);
  o.t_end = 1.0;
  o.fixed_step = 0.1;
  ode_harness_tolerances (&o, atol, 2, 1e-6, 1e-6);
  g_assert_cmpint (hyd_ode_solve ("bdf", &s->problem, &o, y, &r), ==,
                   HYD_ODE_BAD_INPUT);
  g_assert_nonnull (strstr (r.message, "multistep"));
  hyd_ode_result_clear (&r);
}

/* ---- observed orders ---------------------------------------------------- */

/* bdf pinned to order q, constant step (t_end − t0)/n_steps after a
 * start-up from h0 = 1e-6 of it: error at t_end. */
static double
bdf_pinned_error (int q, guint n_steps)
{
  const HydTestProblem *s = hyd_testset_smooth ();
  double h = (s->t_end - s->t0) / n_steps;
  HydOdeMethod *m = hyd_bdf_method_pinned_new (q, h);
  double y[2], atol[2];
  HydOdeOptions o;
  HydOdeResult r = { 0 };

  hyd_ode_options_init (&o);
  o.t0 = s->t0;
  o.t_end = s->t_end;
  o.h0 = 1e-6 * h;
  /* Only the Newton iteration sees the tolerances in the pinned mode. */
  ode_harness_tolerances (&o, atol, 2, 1e-12, 1e-12);
  memcpy (y, s->y0, sizeof y);
  g_assert_cmpint (hyd_ode_solve_method (m, &s->problem, &o, y, &r), ==,
                   HYD_ODE_SUCCESS);
  g_assert_cmpuint (r.stats.rejected, ==, 0);
  /* The start-up is a fixed number of steps, the rest are steps of h. */
  g_assert_cmpuint (r.stats.steps, >=, n_steps);
  g_assert_cmpuint (r.stats.steps, <=, n_steps + 200);
  hyd_ode_result_clear (&r);
  g_free (m);
  return ode_harness_smooth_error (y);
}

static void
test_order_bdf (gconstpointer data)
{
  int q = GPOINTER_TO_INT (data);
  double e40 = bdf_pinned_error (q, 40);
  double e80 = bdf_pinned_error (q, 80);
  double e160 = bdf_pinned_error (q, 160);
  double p1 = log2 (e40 / e80), p2 = log2 (e80 / e160);

  g_test_message ("bdf order %d: errors %.3e %.3e %.3e, observed %.3f %.3f",
                  q, e40, e80, e160, p1, p2);
  g_assert_cmpfloat (fabs (p1 - q), <=, 0.2);
  g_assert_cmpfloat (fabs (p2 - q), <=, 0.2);
}

static double
fixed_step_error (const char *solver, guint n_steps)
{
  HydOdeResult r = { 0 };
  double e = ode_harness_smooth_fixed (solver, NULL, n_steps, 1e-10, FALSE, &r);

  g_assert_cmpuint (r.stats.newton, >=, n_steps);
  hyd_ode_result_clear (&r);
  return e;
}

static void
test_order_theta (gconstpointer data)
{
  const char *solver = data;
  double nominal = g_str_equal (solver, "trapezoid") ? 2.0 : 1.0;
  double e40 = fixed_step_error (solver, 40);
  double e80 = fixed_step_error (solver, 80);
  double e160 = fixed_step_error (solver, 160);
  double p1 = log2 (e40 / e80), p2 = log2 (e80 / e160);

  g_test_message ("%s fixed step: errors %.3e %.3e %.3e, observed %.3f %.3f",
                  solver, e40, e80, e160, p1, p2);
  g_assert_cmpfloat (fabs (p1 - nominal), <=, 0.2);
  g_assert_cmpfloat (fabs (p2 - nominal), <=, 0.2);
}

static void
test_dense_theta (void)
{
  double e40 = ode_harness_smooth_fixed ("trapezoid", NULL, 40, 1e-10, TRUE, NULL);
  double e80 = ode_harness_smooth_fixed ("trapezoid", NULL, 80, 1e-10, TRUE, NULL);
  double p = log2 (e40 / e80);

  g_test_message ("trapezoid dense output: errors %.3e %.3e, order %.3f",
                  e40, e80, p);
  g_assert_cmpfloat (fabs (p - 2.0), <=, 0.2);
}

/* Adaptive bdf on the smooth problem: tolerance proportionality, dense
 * output from the Nordsieck history, Jacobians kept over many steps, and
 * few steps at a tight tolerance (the order has risen well above 1). */
static void
test_adaptive_bdf (void)
{
  double rtols[2] = { 1e-5, 1e-9 };
  double err[2];
  guint64 steps[2];

  for (guint k = 0; k < 2; k++)
    {
      HydOdeResult r = { 0 };
      OdeDenseCheck c = { 0.0, 0 };

      g_assert_cmpint (ode_harness_smooth_adaptive ("bdf", rtols[k], 0.01, &c, &err[k], &r), ==,
                       HYD_ODE_SUCCESS);
      steps[k] = r.stats.steps;
      g_test_message ("bdf rtol %g: error %.3e, dense %.3e, steps %"
                      G_GUINT64_FORMAT ", rejected %" G_GUINT64_FORMAT
                      ", jac %" G_GUINT64_FORMAT ", lu %" G_GUINT64_FORMAT
                      ", newton %" G_GUINT64_FORMAT, rtols[k], err[k],
                      c.max_err, r.stats.steps, r.stats.rejected,
                      r.stats.jac_evals, r.stats.lu, r.stats.newton);
      g_assert_cmpuint (c.n, ==, 201);
      g_assert_cmpfloat (err[k], <, 50.0 * rtols[k]);
      g_assert_cmpfloat (c.max_err, <, 50.0 * rtols[k]);
      /* Simplified Newton: J reused over several steps. */
      g_assert_cmpuint (r.stats.jac_evals * 4, <, r.stats.steps);
      g_assert_cmpuint (r.stats.lu, <, r.stats.steps + r.stats.rejected);
      hyd_ode_result_clear (&r);
    }
  g_assert_cmpfloat (err[1], <, err[0] / 100.0);
  /* At order 1 the 1e-9 run would take ~10⁴·√10 times more steps than
   * at 1e-5 cost; variable order keeps it within a small factor. */
  g_assert_cmpuint (steps[1], <, 12 * steps[0]);
}

/* ---- stability ---------------------------------------------------------- */

typedef struct {
  guint dim;            /* states of the problem, ≤ 2 */
  guint n;
  double t[64];
  double y[64][2];
} Trace;

static gboolean
trace_output (double t, const double *y, gpointer user)
{
  Trace *tr = user;

  if (tr->n < G_N_ELEMENTS (tr->t))
    {
      tr->t[tr->n] = t;
      for (guint i = 0; i < tr->dim; i++)
        tr->y[tr->n][i] = y[i];
      tr->n++;
    }
  return TRUE;
}

/* y' = −1e6·y, steps h = 1 (hλ = −1e6), samples at every step. */
static void
run_stiff_mode (const char *solver, guint n_steps, Trace *tr)
{
  double lambda = -1e6, y = 1.0;
  HydOdeProblem p = ode_linear_problem (&lambda);
  HydOdeOptions o;
  HydOdeResult r = { 0 };

  memset (tr, 0, sizeof *tr);
  tr->dim = 1;
  hyd_ode_options_init (&o);
  o.t_end = n_steps;
  o.fixed_step = 1.0;      /* no tolerances: fixed step needs none */
  o.output = trace_output;
  o.output_user = tr;
  g_assert_cmpint (hyd_ode_solve (solver, &p, &o, &y, &r), ==, HYD_ODE_SUCCESS);
  g_assert_cmpuint (tr->n, ==, n_steps + 1);
  hyd_ode_result_clear (&r);
}

static void
test_stiff_mode (void)
{
  Trace tr;

  /* Backward Euler: R(−1e6) = 1/(1 + 1e6). */
  run_stiff_mode ("backward_euler", 1, &tr);
  g_test_message ("backward_euler, hλ = −1e6: y1/y0 = %.3e", tr.y[1][0]);
  g_assert_cmpfloat (fabs (tr.y[1][0]), <, 1e-5);
  g_assert_cmpfloat (fabs (tr.y[1][0] - 1.0 / (1.0 + 1e6)), <, 1e-12);

  /* The trapezoid: R(−1e6) = (1 − 5e5)/(1 + 5e5) ≈ −1 + 4e-6, so the
   * mode rings at full amplitude, step after step. */
  run_stiff_mode ("trapezoid", 10, &tr);
  g_test_message ("trapezoid, hλ = −1e6: y1/y0 = %.7f, y10 = %.7f",
                  tr.y[1][0], tr.y[10][0]);
  g_assert_cmpfloat (fabs (tr.y[1][0] - (1.0 - 5e5) / (1.0 + 5e5)), <, 1e-9);
  for (guint k = 1; k <= 10; k++)
    {
      g_assert_cmpfloat (fabs (tr.y[k][0]), >, 0.99);
      g_assert_cmpfloat (tr.y[k][0] * tr.y[k - 1][0], <, 0.0);
    }
}

/* Esqué (2008) Fig. 4.4: two volumes, the second 100 times the
 * first, fed through an orifice; the eigenvalue ratio is ≈ 100
 * (λ ≈ −101, −0.99). From rest under a step inflow p1 rises monotonically;
 * with hλ_fast ≈ −10 the trapezoid overshoots and oscillates (R ≈ −2/3),
 * backward Euler does not. */
static int
volumes_rhs (double t, const double *y, double *f, gpointer user)
{
  f[0] = 100.0 - 100.0 * (y[0] - y[1]);
  f[1] = (y[0] - y[1]) - y[1];
  return 0;
}

static int
volumes_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  J[0] = -100.0; J[1] = 1.0;     /* column 0 */
  J[2] = 100.0; J[3] = -2.0;     /* column 1 */
  if (dfdt != NULL)
    dfdt[0] = dfdt[1] = 0.0;
  return 0;
}

static guint
volumes_sign_changes (const char *solver, double *last_swing)
{
  HydOdeProblem p = { .n = 2, .rhs = volumes_rhs, .jac = volumes_jac };
  double y[2] = { 0.0, 0.0 }, atol[2];
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  Trace tr;
  guint changes = 0;

  memset (&tr, 0, sizeof tr);
  tr.dim = 2;
  hyd_ode_options_init (&o);
  o.t_end = 3.0;
  o.fixed_step = 0.1;
  o.output = trace_output;
  o.output_user = &tr;
  ode_harness_tolerances (&o, atol, 2, 1e-6, 1e-6);
  g_assert_cmpint (hyd_ode_solve (solver, &p, &o, y, &r), ==, HYD_ODE_SUCCESS);
  g_assert_cmpuint (tr.n, ==, 31);
  for (guint k = 2; k < tr.n; k++)
    {
      double d0 = tr.y[k - 1][0] - tr.y[k - 2][0];
      double d1 = tr.y[k][0] - tr.y[k - 1][0];
      if (d0 * d1 < 0.0)
        changes++;
    }
  *last_swing = fabs (tr.y[tr.n - 1][0] - tr.y[tr.n - 2][0]);
  hyd_ode_result_clear (&r);
  return changes;
}

static void
test_ringing (void)
{
  double swing_tr, swing_be;
  guint tr = volumes_sign_changes ("trapezoid", &swing_tr);
  guint be = volumes_sign_changes ("backward_euler", &swing_be);

  g_test_message ("two volumes, h = 0.1: p1 turns %u times with the "
                  "trapezoid, %u with backward Euler", tr, be);
  g_assert_cmpuint (tr, >=, 10);
  g_assert_cmpuint (be, ==, 0);
  /* The spurious oscillation decays (|R| ≈ 2/3 < 1: A-stable). */
  g_assert_cmpfloat (swing_tr, <, 1e-2);
}

/* ---- the stiff test set ------------------------------------------------- */

typedef struct {
  const char *solver;
  const char *id;
  double min_mescd;
} TestsetCase;

static void
run_testset_case (gconstpointer data)
{
  const TestsetCase *tc = data;
  double rtol = 1e-6;
  HydOdeResult r = { 0 };

  g_assert_cmpfloat (ode_harness_testset (tc->solver, tc->id, rtol, rtol, &r), >=,
                     tc->min_mescd);
  if (g_str_equal (tc->solver, "bdf"))
    g_assert_cmpuint (r.stats.jac_evals * 3, <, r.stats.steps);
  hyd_ode_result_clear (&r);
}

/* E5 at its prescribed atol = 1.7e-24 (Hairer & Wanner 1996, §IV.10). Its
 * y4 rings with an amplitude near atol under the trapezoid (R(∞) = −1); the
 * Milne estimate of that mode, formed before filtering, was ≈ (z²/6)·a and
 * its rounding alone (ε·z²·a/6 ≈ atol at h ≈ 2·10⁵, z = −hC) capped the
 * step: ten million steps did not reach t = 10¹³. */
static void
test_trapezoid_e5_prescribed (void)
{
  const HydTestProblem *p = hyd_testset_lookup ("e5");
  double rtol = 1e-6, atol_value = hyd_testset_atol (p, rtol);
  g_autofree double *y = g_memdup2 (p->y0, p->n * sizeof (double));
  g_autofree double *atol = g_new (double, p->n);
  HydOdeOptions o;
  HydOdeResult r = { 0 };

  g_assert_cmpfloat (atol_value, ==, 1.7e-24);
  hyd_ode_options_init (&o);
  o.t0 = p->t0;
  o.t_end = p->t_end;
  o.max_steps = 100000;
  ode_harness_tolerances (&o, atol, p->n, rtol, atol_value);
  HydOdeStatus status = hyd_ode_solve ("trapezoid", &p->problem, &o, y, &r);
  double mescd = hyd_testset_mescd (p->n, y, p->y_ref, atol_value, rtol);

  g_test_message ("trapezoid E5 rtol %g atol %g: %s, mescd %.2f, steps %"
                  G_GUINT64_FORMAT ", rejected %" G_GUINT64_FORMAT,
                  rtol, atol_value, hyd_ode_status_name (status), mescd,
                  r.stats.steps, r.stats.rejected);
  g_assert_cmpint (status, ==, HYD_ODE_SUCCESS);
  g_assert_cmpfloat (r.t, ==, p->t_end);
  g_assert_cmpfloat (mescd, >=, 2.0);
  hyd_ode_result_clear (&r);
}

/* ---- HASP thesis §2.56: the 2×2 linear stiff example -------------------- */

static void
test_hasp_linear (void)
{
  HydOdeProblem p = ode_hasp2_problem;
  double y[2] = { 0.0, -2.0 }, atol[2], ex[2];
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  OdeDenseCheck c = { 0.0, 0, ode_hasp2_exact };

  ode_hasp2_exact (0.0, ex);
  g_assert_cmpfloat (fabs (ex[0] - y[0]), <, 1e-15);
  g_assert_cmpfloat (fabs (ex[1] - y[1]), <, 1e-15);

  hyd_ode_options_init (&o);
  o.t_end = 10.0;
  o.output_interval = 1e-3;   /* samples inside the fast transient too */
  o.output = ode_harness_dense_output;
  o.output_user = &c;
  ode_harness_tolerances (&o, atol, 2, 1e-6, 1e-6);
  g_assert_cmpint (hyd_ode_solve ("bdf", &p, &o, y, &r), ==, HYD_ODE_SUCCESS);
  ode_hasp2_exact (10.0, ex);
  double end_err = MAX (fabs (y[0] - ex[0]), fabs (y[1] - ex[1]));
  g_test_message ("HASP thesis §2.56 with bdf: %" G_GUINT64_FORMAT " steps "
                  "(RK4 needs > 7600), %" G_GUINT64_FORMAT " rejected, "
                  "error at t = 10 %.2e, largest over %u samples %.2e",
                  r.stats.steps, r.stats.rejected, end_err, c.n, c.max_err);
  g_assert_cmpuint (c.n, ==, 10001);
  g_assert_cmpfloat (end_err, <, 2e-5);
  g_assert_cmpfloat (c.max_err, <, 1e-4);
  g_assert_cmpuint (r.stats.steps, <, 400);
  hyd_ode_result_clear (&r);
}

/* ---- breakpoints: a jump in f ------------------------------------------- */

static void
run_jump (OdeJump *jp, gboolean with_breakpoints, HydOdeResult *r)
{
  HydOdeProblem p;
  HydOdeOptions o;
  double y = 0.0, atol = 1e-8;

  ode_jump_problem (jp, &p);
  jp->undeclared = !with_breakpoints;
  hyd_ode_options_init (&o);
  o.t_end = 2.0;
  if (with_breakpoints)
    {
      o.breakpoints = ode_jump_bp;
      o.n_breakpoints = G_N_ELEMENTS (ode_jump_bp);
    }
  o.output_interval = 0.01;
  o.output = ode_jump_output;
  o.output_user = jp;
  o.rtol = 1e-6;
  o.atol = &atol;
  g_assert_cmpint (hyd_ode_solve ("bdf", &p, &o, &y, r), ==, HYD_ODE_SUCCESS);
  jp->max_err = MAX (jp->max_err, fabs (y - ode_jump_exact (2.0)));
}

static void
test_breakpoints (void)
{
  OdeJump with, without;
  HydOdeResult r1 = { 0 }, r2 = { 0 };

  run_jump (&with, TRUE, &r1);
  run_jump (&without, FALSE, &r2);
  g_test_message ("jump in f, bdf: with breakpoints %" G_GUINT64_FORMAT
                  " steps, %" G_GUINT64_FORMAT " rejected, error %.2e; "
                  "undeclared %" G_GUINT64_FORMAT " steps, %" G_GUINT64_FORMAT
                  " rejected, error %.2e", r1.stats.steps, r1.stats.rejected,
                  with.max_err, r2.stats.steps, r2.stats.rejected,
                  without.max_err);
  /* Each interval restarts at order 1 with a fresh Jacobian, and every
   * evaluation stays inside its piece. */
  g_assert_cmpfloat (with.outside, <=, 0.0);
  g_assert_cmpuint (r1.stats.jac_evals, >=, 3);
  g_assert_cmpuint (with.n_samples, ==, 201);
  g_assert_cmpfloat (with.max_err, <, 1e-5);
  /* Undeclared, the jumps are found by failed steps (the history across
   * them is wrong) and cost accuracy. */
  g_assert_cmpuint (r1.stats.rejected, <, r2.stats.rejected);
  g_assert_cmpfloat (with.max_err, <, without.max_err);
  hyd_ode_result_clear (&r1);
  hyd_ode_result_clear (&r2);
}

/* ---- events ------------------------------------------------------------- */

static void
test_events (void)
{
  double t_seen = -1.0, y = 0.0, atol = 1e-10;
  HydOdeProblem p = ode_relax_problem (&t_seen);
  HydOdeOptions o;
  HydOdeResult r = { 0 };

  hyd_ode_options_init (&o);
  o.t_end = 3.0;
  o.rtol = 1e-8;
  o.atol = &atol;
  o.events = TRUE;
  g_assert_cmpint (hyd_ode_solve ("bdf", &p, &o, &y, &r), ==, HYD_ODE_SUCCESS);
  g_test_message ("bdf, event at y = 1/2: located at t = %.9f (ln 2 = %.9f), "
                  "%" G_GUINT64_FORMAT " steps", t_seen, log (2.0),
                  r.stats.steps);
  g_assert_cmpuint (r.stats.events, ==, 1);
  g_assert_cmpfloat (fabs (t_seen - log (2.0)), <, 1e-6);
  g_assert_cmpfloat (fabs (y - (1.0 - exp (-3.0))), <, 1e-6);
  hyd_ode_result_clear (&r);
}

/* ---- failure ------------------------------------------------------------ */

/* Cancellation raised from inside f, as another thread would during a
 * Newton iteration: the iteration stops before evaluating f again (the
 * driver's f at the new point may still follow when that iteration was the
 * last). */
typedef struct {
  gint cancel;
  guint evals;
  guint evals_after;
} CancelProblem;

static int
cancel_rhs (double t, const double *y, double *f, gpointer user)
{
  CancelProblem *cp = user;

  if (g_atomic_int_get (&cp->cancel))
    cp->evals_after++;
  else if (++cp->evals == 40)
    g_atomic_int_set (&cp->cancel, 1);
  f[0] = -1000.0 * (y[0] - cos (t));
  return 0;
}

static int
cancel_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  J[0] = -1000.0;
  if (dfdt != NULL)
    dfdt[0] = -1000.0 * sin (t);
  return 0;
}

static void
test_cancel (gconstpointer data)
{
  const char *solver = data;
  CancelProblem cp = { 0, 0, 0 };
  HydOdeProblem p = { .n = 1, .user = &cp, .rhs = cancel_rhs,
                      .jac = cancel_jac };
  double y = 1.0, atol = 1e-8;
  HydOdeOptions o;
  HydOdeResult r = { 0 };

  hyd_ode_options_init (&o);
  o.t_end = 10.0;
  o.rtol = 1e-8;
  o.atol = &atol;
  o.cancel = &cp.cancel;
  g_assert_cmpint (hyd_ode_solve (solver, &p, &o, &y, &r), ==,
                   HYD_ODE_CANCELLED);
  g_assert_cmpuint (cp.evals_after, <=, 1);
  g_assert_cmpfloat (r.t, <, 10.0);
  g_assert_true (isfinite (y));
  hyd_ode_result_clear (&r);
}

static void
test_blowup (gconstpointer data)
{
  /* y' = y² blows up at t = 1: a clean status naming the state. */
  const char *solver = data;
  double y = 1.0, atol = 1e-8;
  HydOdeOptions o;
  HydOdeResult r = { 0 };

  hyd_ode_options_init (&o);
  o.t_end = 2.0;
  o.atol = &atol;
  HydOdeStatus status = hyd_ode_solve (solver, &ode_square_problem, &o, &y, &r);
  g_test_message ("%s, y' = y²: %s", solver, r.message);
  g_assert_true (status == HYD_ODE_STEP_UNDERFLOW
                 || status == HYD_ODE_NONFINITE);
  g_assert_nonnull (strstr (r.message, "y[0]"));
  g_assert_cmpfloat (r.t, <=, 1.0);
  g_assert_cmpfloat (r.t, >, 0.99);
  g_assert_true (isfinite (y));
  hyd_ode_result_clear (&r);
}

int
main (int argc, char **argv)
{
  static const char *const ids[] = {
    "hires", "vdpol", "rober", "orego", "e5", "pollu",
  };
  static const struct {
    const char *solver;
    double min_mescd;
  } solvers[] = {
    { "bdf", 4.0 },
    { "trapezoid", 2.0 },
    { "backward_euler", 2.0 },
  };
  static TestsetCase cases[G_N_ELEMENTS (solvers) * G_N_ELEMENTS (ids)];

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/bdf/solver-list", test_solver_list);
  for (int q = 1; q <= 5; q++)
    {
      g_autofree char *path = g_strdup_printf ("/engine/bdf/order/bdf%d", q);
      g_test_add_data_func (path, GINT_TO_POINTER (q), test_order_bdf);
    }
  g_test_add_data_func ("/engine/bdf/order/trapezoid", "trapezoid",
                        test_order_theta);
  g_test_add_data_func ("/engine/bdf/order/backward-euler", "backward_euler",
                        test_order_theta);
  g_test_add_func ("/engine/bdf/order/trapezoid-dense", test_dense_theta);
  g_test_add_func ("/engine/bdf/order/adaptive", test_adaptive_bdf);
  g_test_add_func ("/engine/bdf/stability/stiff-mode", test_stiff_mode);
  g_test_add_func ("/engine/bdf/stability/ringing", test_ringing);
  for (guint s = 0; s < G_N_ELEMENTS (solvers); s++)
    for (guint k = 0; k < G_N_ELEMENTS (ids); k++)
      {
        TestsetCase *tc = &cases[s * G_N_ELEMENTS (ids) + k];
        *tc = (TestsetCase) { solvers[s].solver, ids[k], solvers[s].min_mescd };
        g_autofree char *path = g_strdup_printf ("/engine/bdf/testset/%s/%s",
                                                 tc->solver, tc->id);
        g_test_add_data_func (path, tc, run_testset_case);
      }
  g_test_add_func ("/engine/bdf/testset-prescribed/trapezoid/e5",
                   test_trapezoid_e5_prescribed);
  g_test_add_func ("/engine/bdf/hasp-linear-2x2", test_hasp_linear);
  g_test_add_func ("/engine/bdf/breakpoints", test_breakpoints);
  g_test_add_func ("/engine/bdf/events", test_events);
  g_test_add_data_func ("/engine/bdf/failure/bdf", "bdf", test_blowup);
  g_test_add_data_func ("/engine/bdf/cancel/bdf", "bdf", test_cancel);
  g_test_add_data_func ("/engine/bdf/cancel/trapezoid", "trapezoid",
                        test_cancel);
  g_test_add_data_func ("/engine/bdf/cancel/backward-euler", "backward_euler",
                        test_cancel);
  g_test_add_data_func ("/engine/bdf/failure/trapezoid", "trapezoid",
                        test_blowup);
  g_test_add_data_func ("/engine/bdf/failure/backward-euler",
                        "backward_euler", test_blowup);

  ode_harness_add_conformance ("bdf");
  ode_harness_add_conformance ("trapezoid");
  ode_harness_add_conformance ("backward_euler");

  return g_test_run ();
}
