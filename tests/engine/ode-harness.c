/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ode-harness.c — the solver-conformance harness (ode-harness.h). */
#include "ode-harness.h"

#include <math.h>
#include <string.h>

void
ode_harness_tolerances (HydOdeOptions *o, double *atol, guint n, double rtol,
                        double atol_value)
{
  for (guint i = 0; i < n; i++)
    atol[i] = atol_value;
  o->rtol = rtol;
  o->atol = atol;
}

double
ode_harness_smooth_error (const double *y)
{
  const HydTestProblem *s = hyd_testset_smooth ();

  return MAX (fabs (y[0] - s->y_ref[0]), fabs (y[1] - s->y_ref[1]));
}

gboolean
ode_harness_dense_output (double t, const double *y, gpointer user)
{
  OdeDenseCheck *c = user;
  double ex[2];

  if (c->exact != NULL)
    c->exact (t, ex);
  else
    hyd_testset_smooth ()->exact (t, ex);
  c->max_err = MAX (c->max_err, MAX (fabs (y[0] - ex[0]), fabs (y[1] - ex[1])));
  c->n++;
  return TRUE;
}

double
ode_harness_smooth_fixed (const char *id, const HydOdeProblem *problem,
                          guint n_steps, double tol, gboolean dense,
                          HydOdeResult *r_out)
{
  const HydTestProblem *s = hyd_testset_smooth ();
  double y[2], atol[2];
  HydOdeOptions o;
  HydOdeResult local = { 0 };
  HydOdeResult *r = r_out != NULL ? r_out : &local;
  OdeDenseCheck c = { 0.0, 0 };

  hyd_ode_options_init (&o);
  o.t0 = s->t0;
  o.t_end = s->t_end;
  o.fixed_step = (s->t_end - s->t0) / n_steps;
  if (dense)
    {
      /* Samples at many positions θ inside the steps. */
      o.output_interval = 0.0937 * o.fixed_step;
      o.output = ode_harness_dense_output;
      o.output_user = &c;
    }
  ode_harness_tolerances (&o, atol, 2, tol, tol);
  memcpy (y, s->y0, sizeof y);
  g_assert_cmpint (hyd_ode_solve (id, problem != NULL ? problem : &s->problem, &o, y, r),
                   ==, HYD_ODE_SUCCESS);
  g_assert_cmpuint (r->stats.steps, ==, n_steps);
  g_assert_cmpuint (r->stats.rejected, ==, 0);
  g_assert_cmpfloat (r->t, ==, s->t_end);
  hyd_ode_result_clear (&local);
  if (dense)
    {
      g_assert_cmpuint (c.n, >, 10 * n_steps);
      return c.max_err;
    }
  return ode_harness_smooth_error (y);
}

HydOdeStatus
ode_harness_smooth_adaptive (const char *id, double tol, double output_interval,
                             OdeDenseCheck *c, double *err, HydOdeResult *r)
{
  const HydTestProblem *s = hyd_testset_smooth ();
  double y[2], atol[2];
  HydOdeOptions o;

  hyd_ode_options_init (&o);
  o.t0 = s->t0;
  o.t_end = s->t_end;
  if (c != NULL)
    {
      o.output_interval = output_interval;
      o.output = ode_harness_dense_output;
      o.output_user = c;
    }
  ode_harness_tolerances (&o, atol, 2, tol, tol);
  memcpy (y, s->y0, sizeof y);
  HydOdeStatus status = hyd_ode_solve (id, &s->problem, &o, y, r);
  *err = ode_harness_smooth_error (y);
  return status;
}

double
ode_harness_testset (const char *id, const char *problem, double rtol,
                     double atol_value, HydOdeResult *r_out)
{
  const HydTestProblem *p = hyd_testset_lookup (problem);
  g_autofree double *y = g_memdup2 (p->y0, p->n * sizeof (double));
  g_autofree double *atol = g_new (double, p->n);
  HydOdeOptions o;
  HydOdeResult local = { 0 };
  HydOdeResult *r = r_out != NULL ? r_out : &local;

  hyd_ode_options_init (&o);
  o.t0 = p->t0;
  o.t_end = p->t_end;
  ode_harness_tolerances (&o, atol, p->n, rtol, atol_value);
  HydOdeStatus status = hyd_ode_solve (id, &p->problem, &o, y, r);
  double mescd = hyd_testset_mescd (p->n, y, p->y_ref, atol_value, rtol);

  g_test_message ("%s %s rtol %g atol %g: %s, mescd %.2f, steps %" G_GUINT64_FORMAT
                  ", rejected %" G_GUINT64_FORMAT ", f %" G_GUINT64_FORMAT
                  ", jac %" G_GUINT64_FORMAT ", lu %" G_GUINT64_FORMAT
                  ", newton %" G_GUINT64_FORMAT ", %.3f s",
                  p->name, id, rtol, atol_value, hyd_ode_status_name (status), mescd,
                  r->stats.steps, r->stats.rejected, r->stats.f_evals, r->stats.jac_evals,
                  r->stats.lu, r->stats.newton, r->stats.wall_s);
  if (r->message != NULL)
    g_test_message ("%s", r->message);
  g_assert_cmpint (status, ==, HYD_ODE_SUCCESS);
  g_assert_null (r->message);
  g_assert_cmpfloat (r->t, ==, p->t_end);
  hyd_ode_result_clear (&local);
  return mescd;
}

/* ---- a source with jumps ---------------------------------------------- */

const double ode_jump_bp[2] = { 1.0, 1.5 };
static const double jump_u[] = { 1.0, -2.0, 0.5 };

double
ode_jump_piece (double t)
{
  return t < ode_jump_bp[0] ? jump_u[0] : t < ode_jump_bp[1] ? jump_u[1] : jump_u[2];
}

/* The exact solution from y(t0) = y0. */
static double
jump_exact_from (double t0, double y0, double t)
{
  double y = y0, a = t0;

  for (guint k = 0; k < 3; k++)
    {
      double b = k < 2 ? ode_jump_bp[k] : INFINITY;
      if (a >= b)
        continue;
      double tt = MIN (t, b);
      y = jump_u[k] + (y - jump_u[k]) * exp (-(tt - a));
      if (t <= b)
        break;
      a = b;
    }
  return y;
}

double
ode_jump_exact (double t)
{
  return jump_exact_from (0.0, 0.0, t);
}

static void
jump_set_interval (double lo, double hi, gpointer user)
{
  OdeJump *jp = user;

  jp->lo = lo;
  jp->hi = hi;
  jp->u = ode_jump_piece (0.5 * (lo + hi));
  if (jp->n_intervals < G_N_ELEMENTS (jp->intervals))
    {
      jp->intervals[jp->n_intervals][0] = lo;
      jp->intervals[jp->n_intervals][1] = hi;
    }
  jp->n_intervals++;
}

static int
jump_rhs (double t, const double *y, double *f, gpointer user)
{
  OdeJump *jp = user;

  if (!jp->undeclared)
    jp->outside = MAX (jp->outside, MAX (jp->lo - t, t - jp->hi));
  f[0] = -y[0] + (jp->undeclared ? ode_jump_piece (t) : jp->u);
  return 0;
}

static int
jump_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  J[0] = -1.0;
  if (dfdt != NULL)
    dfdt[0] = 0.0;
  return 0;
}

void
ode_jump_problem (OdeJump *jp, HydOdeProblem *p)
{
  memset (jp, 0, sizeof *jp);
  *p = (HydOdeProblem) {
    .n = 1, .user = jp, .rhs = jump_rhs, .jac = jump_jac,
    .set_interval = jump_set_interval,
  };
}

gboolean
ode_jump_output (double t, const double *y, gpointer user)
{
  OdeJump *jp = user;

  /* At a breakpoint the sample holds the values after the change. */
  if (jp->check_piece)
    g_assert_cmpfloat (jp->u, ==, ode_jump_piece (t));
  /* At a jump both sides are sampled; the exact value is continuous. */
  jp->max_err = MAX (jp->max_err, fabs (y[0] - ode_jump_exact (t)));
  if (jp->n_samples < G_N_ELEMENTS (jp->times))
    {
      jp->times[jp->n_samples] = t;
      jp->values[jp->n_samples] = y[0];
      jp->pieces[jp->n_samples] = jp->u;
    }
  jp->n_samples++;
  if (jp->cancel_after > 0 && jp->n_samples == jp->cancel_after)
    g_atomic_int_set (jp->cancel, 1);
  return !(jp->stop_after > 0 && jp->n_samples >= jp->stop_after);
}

/* ---- y' = λ·y ---------------------------------------------------------- */

static int
linear_rhs (double t, const double *y, double *f, gpointer user)
{
  f[0] = *(const double *) user * y[0];
  return 0;
}

static int
linear_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  J[0] = *(const double *) user;
  if (dfdt != NULL)
    dfdt[0] = 0.0;
  return 0;
}

HydOdeProblem
ode_linear_problem (const double *lambda)
{
  return (HydOdeProblem) {
    .n = 1, .user = (gpointer) lambda, .rhs = linear_rhs, .jac = linear_jac,
  };
}

/* ---- HASP thesis §2.56 ------------------------------------------------- */

static int
hasp2_rhs (double t, const double *y, double *f, gpointer user)
{
  f[0] = -2000.0 * y[0] + 999.75 * y[1] + 1000.25;
  f[1] = y[0] - y[1];
  return 0;
}

static int
hasp2_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  J[0] = -2000.0; J[1] = 1.0;     /* column 0 */
  J[2] = 999.75;  J[3] = -1.0;    /* column 1 */
  if (dfdt != NULL)
    dfdt[0] = dfdt[1] = 0.0;
  return 0;
}

const HydOdeProblem ode_hasp2_problem = {
  .n = 2, .rhs = hasp2_rhs, .jac = hasp2_jac,
};

/* λ = −2000.5, −0.5 (the thesis's 0.4999875 is a misprint for 0.499875,
 * which y1(0) = 0 requires). */
void
ode_hasp2_exact (double t, double *y)
{
  double slow = exp (-0.5 * t), fast = exp (-2000.5 * t);

  y[0] = -1.499875 * slow + 0.499875 * fast + 1.0;
  y[1] = -2.99975 * slow - 0.00025 * fast + 1.0;
}

/* ---- cancellation inside a Newton iteration ---------------------------- */

static int
cancel_rhs (double t, const double *y, double *f, gpointer user)
{
  OdeNewtonCancel *cp = user;

  if (++cp->calls == cp->cancel_at)
    g_atomic_int_set (&cp->cancel, 1);
  f[0] = -1000.0 * (y[0] - cos (t));
  return 0;
}

static int
cancel_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  J[0] = -100.0;
  if (dfdt != NULL)
    dfdt[0] = -1000.0 * sin (t);
  return 0;
}

HydOdeProblem
ode_newton_cancel_problem (OdeNewtonCancel *cp)
{
  return (HydOdeProblem) { .n = 1, .user = cp, .rhs = cancel_rhs, .jac = cancel_jac };
}

guint
ode_harness_cancel_in_newton (const char *id, guint cancel_at, double *y, HydOdeResult *r)
{
  OdeNewtonCancel cp = { .cancel_at = cancel_at };
  HydOdeProblem p = ode_newton_cancel_problem (&cp);
  HydOdeOptions o;
  double atol = 1e-6;

  hyd_ode_options_init (&o);
  o.t_end = 0.5;
  o.h0 = 1e-3;
  o.rtol = 1e-6;
  o.atol = &atol;
  o.cancel = &cp.cancel;
  *y = 1.0;
  g_assert_cmpint (hyd_ode_solve (id, &p, &o, y, r), ==, HYD_ODE_CANCELLED);
  g_test_message ("%s: %s after %u evaluations", id, r->message, cp.calls);
  return cp.calls;
}

/* ---- y' = y² ----------------------------------------------------------- */

static int
square_rhs (double t, const double *y, double *f, gpointer user)
{
  f[0] = y[0] * y[0];
  return 0;
}

static int
square_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  J[0] = 2.0 * y[0];
  if (dfdt != NULL)
    dfdt[0] = 0.0;
  return 0;
}

const HydOdeProblem ode_square_problem = {
  .n = 1, .rhs = square_rhs, .jac = square_jac,
};

/* ---- conformance ------------------------------------------------------- */

/* Every solver at rtol 1e-8, atol 1e-10; a fixed-step-only one at the
 * constant step 0.003. */
#define CONF_RTOL 1e-8
#define CONF_ATOL 1e-10
#define CONF_FIXED_STEP 0.003

/* What a solver is known not to do, measured and stated in docs/solvers.md
 * ("Known limits"): the check is skipped for it, with a message. */
static const struct {
  const char *id;
  const char *check;
  const char *why;
} known_limits[] = {
  { "rodas3", "blowup",
    "rodas3 steps over the pole of y' = y² (5 steps, y(2) = −1 on the branch "
    "beyond it): its embedded error estimate does not see the pole" },
  { "ros4", "breakpoints-inside",
    "ros4's second stage lies at t + 1.14564·h (HW ros4.f METH 6): f is "
    "evaluated up to 0.146·h past an interval's end (with that interval's piece)" },
  { "expo", "event-time",
    "expo locates events on cubic Hermite interpolation over its long steps "
    "(y' = 1 − y is exact for it, so they grow tenfold): the time is 2.7e-3 off" },
};

static gboolean
known_limit (const char *id, const char *check)
{
  for (guint i = 0; i < G_N_ELEMENTS (known_limits); i++)
    if (g_str_equal (known_limits[i].id, id) && g_str_equal (known_limits[i].check, check))
      {
        g_test_message ("known limit, not checked: %s", known_limits[i].why);
        return TRUE;
      }
  return FALSE;
}

static gboolean
fixed_only (const char *id)
{
  return !hyd_solver_lookup (id)->adaptive;
}

/* The accuracy asked of the samples: first-order methods (euler,
 * backward_euler, expo) 2e-3, the others 1e-6 (chosen before measuring, as
 * the explicit family's breakpoint test had it). */
static double
sample_tolerance (const char *id)
{
  return g_strcmp0 (hyd_solver_lookup (id)->order, "1") == 0 ? 2e-3 : 1e-6;
}

static void
conf_options (const char *id, HydOdeOptions *o, double *atol)
{
  hyd_ode_options_init (o);
  ode_harness_tolerances (o, atol, 1, CONF_RTOL, CONF_ATOL);
  if (fixed_only (id))
    o->fixed_step = CONF_FIXED_STEP;
}

/* The jump problem on [0, 2], samples every 0.05, its jumps declared. */
static void
jump_options (const char *id, OdeJump *jp, HydOdeProblem *p, HydOdeOptions *o,
              double *atol)
{
  ode_jump_problem (jp, p);
  conf_options (id, o, atol);
  o->t_end = 2.0;
  o->breakpoints = ode_jump_bp;
  o->n_breakpoints = G_N_ELEMENTS (ode_jump_bp);
  o->output_interval = 0.05;
  o->output = ode_jump_output;
  o->output_user = jp;
}

static void
conf_breakpoints (gconstpointer data)
{
  const char *id = data;
  static const double expect[3][2] = { { 0.0, 1.0 }, { 1.0, 1.5 }, { 1.5, 2.0 } };
  OdeJump jp;
  HydOdeProblem p;
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  double y = 0.0, atol;

  jump_options (id, &jp, &p, &o, &atol);
  jp.check_piece = TRUE;
  HydOdeStatus status = hyd_ode_solve (id, &p, &o, &y, &r);
  g_test_message ("%s, jumps at breakpoints: %s, sample error %.2e, %" G_GUINT64_FORMAT
                  " steps", id, hyd_ode_status_name (status), jp.max_err, r.stats.steps);
  g_assert_cmpint (status, ==, HYD_ODE_SUCCESS);
  g_assert_cmpfloat (r.t, ==, 2.0);
  g_assert_cmpuint (jp.n_samples, ==, 41);
  g_assert_cmpuint (jp.n_intervals, ==, 3);
  for (guint k = 0; k < 3; k++)
    {
      g_assert_cmpfloat (jp.intervals[k][0], ==, expect[k][0]);
      g_assert_cmpfloat (jp.intervals[k][1], ==, expect[k][1]);
    }
  /* Every evaluation inside the interval of its piece. */
  if (!known_limit (id, "breakpoints-inside"))
    g_assert_cmpfloat (jp.outside, <=, 0.0);
  g_assert_cmpfloat (jp.max_err, <=, sample_tolerance (id));
  hyd_ode_result_clear (&r);
}

typedef struct {
  double t_ev, y_ev;     /* the sample nearest y = 1/2 */
} EventSeen;

static int
relax_rhs (double t, const double *y, double *f, gpointer user)
{
  f[0] = 1.0 - y[0];
  return 0;
}

static int
relax_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  J[0] = -1.0;
  if (dfdt != NULL)
    dfdt[0] = 0.0;
  return 0;
}

static int
relax_events (double t, const double *y, double *g, gpointer user)
{
  double *t_seen = user;

  g[0] = y[0] - 0.5;
  if (t_seen != NULL && fabs (g[0]) < 1e-7)
    *t_seen = t;
  return 0;
}

HydOdeProblem
ode_relax_problem (double *t_seen)
{
  return (HydOdeProblem) { .n = 1, .user = t_seen, .rhs = relax_rhs, .jac = relax_jac,
                           .n_events = 1, .events = relax_events };
}

static gboolean
relax_output (double t, const double *y, gpointer user)
{
  EventSeen *seen = user;

  if (fabs (y[0] - 0.5) < fabs (seen->y_ev - 0.5))
    {
      seen->t_ev = t;
      seen->y_ev = y[0];
    }
  return TRUE;
}

static void
conf_events (gconstpointer data)
{
  const char *id = data;
  EventSeen seen = { -1.0, INFINITY };
  HydOdeProblem p = ode_relax_problem (NULL);
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  double y = 0.0, atol;
  gboolean first = sample_tolerance (id) > 1e-6;

  conf_options (id, &o, &atol);
  o.t_end = 3.0;
  o.events = TRUE;
  o.output = relax_output;    /* every step, the event's cut included */
  o.output_user = &seen;
  HydOdeStatus status = hyd_ode_solve (id, &p, &o, &y, &r);
  g_test_message ("%s, event at y = 1/2: %s at t = %.9f (ln 2 = %.9f), y = %.3g",
                  id, hyd_ode_status_name (status), seen.t_ev, log (2.0), seen.y_ev);
  g_assert_cmpint (status, ==, HYD_ODE_SUCCESS);
  g_assert_cmpuint (r.stats.events, ==, 1);
  /* Located on the continuous extension to 1e-7 of the step. */
  g_assert_cmpfloat (fabs (seen.y_ev - 0.5), <=, 1e-6);
  if (!known_limit (id, "event-time"))
    g_assert_cmpfloat (fabs (seen.t_ev - log (2.0)), <=, first ? 2e-3 : 1e-5);
  g_assert_cmpfloat (fabs (y - (1.0 - exp (-3.0))), <=, first ? 2e-3 : 1e-6);
  hyd_ode_result_clear (&r);
}

static void
conf_cancel (gconstpointer data)
{
  const char *id = data;
  OdeJump jp;
  HydOdeProblem p;
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  double y = 0.0, atol;
  gint cancel = 0;

  /* The flag raised at the 10th sample (t = 0.45): no sample after it. */
  jump_options (id, &jp, &p, &o, &atol);
  jp.cancel_after = 10;
  jp.cancel = &cancel;
  o.cancel = &cancel;
  g_assert_cmpint (hyd_ode_solve (id, &p, &o, &y, &r), ==, HYD_ODE_CANCELLED);
  g_assert_nonnull (strstr (r.message, "cancelled"));
  g_assert_cmpuint (jp.n_samples, ==, 10);
  g_assert_cmpfloat (r.t, <, 2.0);
  g_assert_true (isfinite (y));
  hyd_ode_result_clear (&r);

  /* The output callback stopping the run: the same status, no more samples. */
  jump_options (id, &jp, &p, &o, &atol);
  jp.stop_after = 10;
  y = 0.0;
  g_assert_cmpint (hyd_ode_solve (id, &p, &o, &y, &r), ==, HYD_ODE_CANCELLED);
  g_assert_nonnull (strstr (r.message, "stopped by the output callback"));
  g_assert_cmpuint (jp.n_samples, ==, 10);
  g_assert_true (isfinite (y));
  hyd_ode_result_clear (&r);
}

static void
conf_blowup (gconstpointer data)
{
  /* y' = y² blows up at t = 1: a clean status naming the state. */
  const char *id = data;
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  double y = 1.0, atol = 1e-8;

  hyd_ode_options_init (&o);
  o.t_end = 2.0;
  o.atol = &atol;
  if (fixed_only (id))
    o.fixed_step = CONF_FIXED_STEP;
  HydOdeStatus status = hyd_ode_solve (id, &ode_square_problem, &o, &y, &r);
  g_test_message ("%s, y' = y²: %s at t = %.9g, y = %g", id, hyd_ode_status_name (status),
                  r.t, y);
  if (known_limit (id, "blowup"))
    {
      hyd_ode_result_clear (&r);
      return;
    }
  g_assert_true (status == HYD_ODE_STEP_UNDERFLOW || status == HYD_ODE_NONFINITE
                 || status == HYD_ODE_SINGULAR);
  g_assert_nonnull (strstr (r.message, "y[0]"));
  g_assert_true (isfinite (y));
  if (!fixed_only (id))
    {
      /* Error control does not step over the pole. How far the numerical
       * pole may lie from t = 1, derived (not measured): a relative error
       * ε of y at t_k moves the pole of the solution through (t_k, y_k) by
       * −ε·(1 − t_k)/(1 + ε), and along y = 1/(1 − t) the relative error
       * obeys ε' = y·ε, which carries a local error l_k made at t_k to
       * l_k·(1 − t_k)/(1 − t): each step's local error moves the pole by
       * at most |l_k|·(1 − t_k) ≤ |l_k|. Per-step error control keeps
       * |l_k| ≤ rtol + atol/|y_k| ≤ rtol + atol (y ≥ 1 here), so the
       * solver stops at most steps·(rtol + atol) past t = 1, to first
       * order in rtol. */
      double bound = 1.0 + (double) r.stats.steps * (o.rtol + atol);
      g_test_message ("%s: %" G_GUINT64_FORMAT " steps, stop %.3g past the pole, bound %.3g",
                      id, r.stats.steps, r.t - 1.0, bound - 1.0);
      g_assert_cmpfloat (r.t, <=, bound);
      g_assert_cmpfloat (r.t, >, 0.9);
    }
  hyd_ode_result_clear (&r);
}

static void
assert_same_samples (const OdeJump *a, const OdeJump *b)
{
  g_assert_cmpuint (a->n_samples, ==, b->n_samples);
  g_assert_cmpuint (a->n_samples, <=, G_N_ELEMENTS (a->times));
  for (guint k = 0; k < a->n_samples; k++)
    {
      g_assert_cmpfloat (a->times[k], ==, b->times[k]);
      g_assert_cmpfloat (a->values[k], ==, b->values[k]);
    }
}

static void
assert_same_stats (const HydOdeStats *a, const HydOdeStats *b)
{
  g_assert_cmpuint (a->steps, ==, b->steps);
  g_assert_cmpuint (a->rejected, ==, b->rejected);
  g_assert_cmpuint (a->f_evals, ==, b->f_evals);
  g_assert_cmpuint (a->jac_evals, ==, b->jac_evals);
  g_assert_cmpuint (a->lu, ==, b->lu);
  g_assert_cmpuint (a->newton, ==, b->newton);
}

/* Advancing in pieces (to every other sample time, as a co-simulation
 * master reading outputs would) is the one-shot solve, bit for bit: the same
 * steps, samples and end state; y(t_out) is the sample at t_out. */
static void
conf_stepper_pieces (gconstpointer data)
{
  const char *id = data;
  OdeJump ja, jb;
  HydOdeProblem pa, pb;
  HydOdeOptions oa, ob;
  HydOdeResult r = { 0 };
  double ya = 0.0, yb = 0.0, y_out = NAN, atol_a, atol_b;
  g_autoptr (GError) error = NULL;

  jump_options (id, &ja, &pa, &oa, &atol_a);
  g_assert_cmpint (hyd_ode_solve (id, &pa, &oa, &ya, &r), ==, HYD_ODE_SUCCESS);

  jump_options (id, &jb, &pb, &ob, &atol_b);
  g_autoptr (HydOdeStepper) s = hyd_ode_stepper_new (id, &pb, &ob, &yb, &error);
  g_assert_no_error (error);
  g_assert_nonnull (s);
  for (guint k = 1; k <= 20; k++)
    {
      double t_out = (double) (2 * k) * ob.output_interval;
      g_assert_cmpint (hyd_ode_stepper_advance (s, t_out, &y_out), ==, HYD_ODE_SUCCESS);
      g_assert_cmpfloat (hyd_ode_stepper_get_time (s), >=, t_out);
      g_assert_cmpfloat (ja.times[2 * k], ==, t_out);
      g_assert_cmpfloat (y_out, ==, ja.values[2 * k]);
      if (k == 5)
        {
          /* Beyond t_end, or back before the last step: refused, and
           * nothing changes. */
          g_assert_cmpint (hyd_ode_stepper_advance (s, 2.5, &y_out), ==,
                           HYD_ODE_BAD_INPUT);
          g_assert_nonnull (strstr (hyd_ode_stepper_get_result (s)->message, "t_out"));
          g_assert_cmpint (hyd_ode_stepper_advance (s, 0.1, &y_out), ==,
                           HYD_ODE_BAD_INPUT);
          /* Again at the same t_out: the same value. */
          g_assert_cmpint (hyd_ode_stepper_advance (s, t_out, &y_out), ==, HYD_ODE_SUCCESS);
          g_assert_cmpfloat (y_out, ==, ja.values[2 * k]);
        }
    }
  g_assert_cmpfloat (y_out, ==, ya);
  assert_same_samples (&ja, &jb);
  assert_same_stats (&r.stats, hyd_ode_stepper_get_stats (s));
  g_assert_cmpint (hyd_ode_stepper_get_result (s)->status, ==, HYD_ODE_SUCCESS);
  g_assert_cmpfloat (hyd_ode_stepper_get_result (s)->t, ==, 2.0);
  hyd_ode_result_clear (&r);
}

/* A co-simulation master: communication points every 0.25 declared as
 * breakpoints, advance to each and reinit there with the state reached
 * (nothing changes). Bit for bit the one-shot solve with the same
 * breakpoints; within tolerance of the one without them: its sample error
 * at most twice that run's plus 10·(atol + rtol) (chosen before measuring).
 * Then a reinit with another state restarts from it. */
static void
conf_stepper_reinit (gconstpointer data)
{
  const char *id = data;
  static const double comm[] = { 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 1.0, 1.5 };
  OdeJump ja, jb, jc;
  HydOdeProblem pa, pb, pc;
  HydOdeOptions oa, ob, oc;
  HydOdeResult ra = { 0 }, rb = { 0 };
  double ya = 0.0, yb = 0.0, yc = 0.0, y_out = NAN, atol_a, atol_b, atol_c;
  g_autoptr (GError) error = NULL;

  jump_options (id, &ja, &pa, &oa, &atol_a);
  g_assert_cmpint (hyd_ode_solve (id, &pa, &oa, &ya, &ra), ==, HYD_ODE_SUCCESS);
  jump_options (id, &jb, &pb, &ob, &atol_b);
  ob.breakpoints = comm;
  ob.n_breakpoints = G_N_ELEMENTS (comm);
  g_assert_cmpint (hyd_ode_solve (id, &pb, &ob, &yb, &rb), ==, HYD_ODE_SUCCESS);

  jump_options (id, &jc, &pc, &oc, &atol_c);
  oc.breakpoints = comm;
  oc.n_breakpoints = G_N_ELEMENTS (comm);
  g_autoptr (HydOdeStepper) s = hyd_ode_stepper_new (id, &pc, &oc, &yc, &error);
  g_assert_no_error (error);
  for (guint k = 1; k <= 8; k++)
    {
      double t_k = 0.25 * k;
      g_assert_cmpint (hyd_ode_stepper_advance (s, t_k, &y_out), ==, HYD_ODE_SUCCESS);
      g_assert_cmpfloat (hyd_ode_stepper_get_time (s), ==, t_k);
      if (k < 8)
        g_assert_cmpint (hyd_ode_stepper_reinit (s, t_k, &y_out), ==, HYD_ODE_SUCCESS);
    }
  g_assert_cmpfloat (y_out, ==, yb);
  assert_same_samples (&jb, &jc);
  assert_same_stats (&rb.stats, hyd_ode_stepper_get_stats (s));
  g_test_message ("%s: sample error %.3e in one solve, %.3e reinitialised every 0.25",
                  id, ja.max_err, jc.max_err);
  g_assert_cmpfloat (jc.max_err, <=, 2.0 * ja.max_err + 10.0 * (CONF_ATOL + CONF_RTOL));

  /* At t_end nothing is left to reinitialise; a state that is not finite
   * is refused. */
  g_assert_cmpint (hyd_ode_stepper_reinit (s, 2.0, &y_out), ==, HYD_ODE_BAD_INPUT);
  double bad = NAN;
  g_assert_cmpint (hyd_ode_stepper_reinit (s, 0.5, &bad), ==, HYD_ODE_BAD_INPUT);
  g_assert_nonnull (strstr (hyd_ode_stepper_get_result (s)->message, "y[0]"));

  /* Back to t = 0.5 with y = 0 (a state the caller changed): the run goes
   * on from there, samples from 0.5 on again, statistics summed. */
  guint64 steps = hyd_ode_stepper_get_stats (s)->steps;
  double zero = 0.0;
  jc.n_samples = 0;
  g_assert_cmpint (hyd_ode_stepper_reinit (s, 0.5, &zero), ==, HYD_ODE_SUCCESS);
  g_assert_cmpint (hyd_ode_stepper_advance (s, 2.0, &y_out), ==, HYD_ODE_SUCCESS);
  g_assert_cmpuint (jc.n_samples, ==, 31);
  g_assert_cmpfloat (jc.times[0], ==, 0.5);
  g_assert_cmpfloat (jc.values[0], ==, 0.0);
  g_assert_cmpuint (hyd_ode_stepper_get_stats (s)->steps, >, steps);
  g_assert_cmpfloat (fabs (y_out - jump_exact_from (0.5, 0.0, 2.0)), <=,
                     sample_tolerance (id));
  hyd_ode_result_clear (&ra);
  hyd_ode_result_clear (&rb);
}

void
ode_harness_add_conformance (const char *id)
{
  static const struct {
    const char *name;
    GTestDataFunc func;
  } cases[] = {
    { "breakpoints", conf_breakpoints },
    { "events", conf_events },
    { "cancel", conf_cancel },
    { "blowup", conf_blowup },
    { "stepper-pieces", conf_stepper_pieces },
    { "stepper-reinit", conf_stepper_reinit },
  };

  g_assert_nonnull (hyd_solver_lookup (id));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/conformance/%s/%s", id, cases[i].name);
      g_test_add_data_func (path, id, cases[i].func);
    }
}
