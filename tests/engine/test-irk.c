/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-irk.c — the implicit Runge–Kutta methods of Treeaporn 2005 (radau3,
 * lobatto3c4, lobatto3c6, sdirk4): observed order (fixed step) and order of
 * the dense output on the smooth non-autonomous problem, the stability
 * function against its closed form (Treeaporn 2005, §3.1–3.2) and L-stability,
 * the stiff test set at rtol 1e-6, and the five DETEST problems of Treeaporn 2005
 * (A2, B1, C1, D4, E1; §6) against the references of §7.4, with rodas4 for
 * comparison. The thesis's Table 5.1 step counts come from a code that never
 * solved the stage equations (§7.3): they are not a target here. */
#include "ode-harness.h"

#include <float.h>
#include <math.h>
#include <string.h>

typedef struct {
  const char *id;
  double order;          /* nominal */
  double dense_order;    /* of the samples between step points */
  guint steps[3];        /* fixed-step runs of the order test */
  /* The stability function R(z) in closed form (Treeaporn 2005, §3.1–3.2). */
  double (*stability) (double z);
} IrkCase;

static double
radau3_r (double z)
{
  return (1.0 + z / 3.0) / (1.0 - 2.0 * z / 3.0 + z * z / 6.0);
}

static double
lobatto3c4_r (double z)
{
  return (1.0 + z / 4.0) / (1.0 - 3.0 * z / 4.0 + z * z / 4.0 - z * z * z / 24.0);
}

static double
lobatto3c6_r (double z)
{
  double z2 = z * z;
  return (1.0 + z / 3.0 + z2 / 30.0)
         / (1.0 - 2.0 * z / 3.0 + z2 / 5.0 - z2 * z / 30.0 + z2 * z2 / 360.0);
}

static double
sdirk4_r (double z)
{
  double z2 = z * z;
  return (1.0 - z / 4.0 - z2 / 8.0 + z2 * z / 96.0 + 7.0 * z2 * z2 / 768.0)
         / pow (1.0 - z / 4.0, 5.0);
}

static const IrkCase irk_cases[] = {
  { "radau3", 3.0, 3.0, { 40, 80, 160 }, radau3_r },
  { "lobatto3c4", 4.0, 4.0, { 20, 40, 80 }, lobatto3c4_r },
  { "lobatto3c6", 6.0, 5.0, { 8, 16, 32 }, lobatto3c6_r },
  { "sdirk4", 4.0, 4.0, { 40, 80, 160 }, sdirk4_r },
};

/* ---- helpers ----------------------------------------------------------- */

static const char *
stats_text (const HydOdeResult *r)
{
  static char buf[200];

  g_snprintf (buf, sizeof buf, "steps %" G_GUINT64_FORMAT ", rejected %"
              G_GUINT64_FORMAT ", f %" G_GUINT64_FORMAT ", jac %"
              G_GUINT64_FORMAT ", lu %" G_GUINT64_FORMAT ", newton %"
              G_GUINT64_FORMAT, r->stats.steps, r->stats.rejected,
              r->stats.f_evals, r->stats.jac_evals, r->stats.lu,
              r->stats.newton);
  return buf;
}

/* ---- solver list ------------------------------------------------------- */

static void
test_solver_list (void)
{
  guint n = 0;
  const HydSolverInfo *list = hyd_solver_list (&n);
  static const char *const order[] = { "3", "4", "6", "4(3)" };
  int prev = -1;

  for (guint c = 0; c < G_N_ELEMENTS (irk_cases); c++)
    {
      const HydSolverInfo *info = hyd_solver_lookup (irk_cases[c].id);
      g_assert_nonnull (info);
      g_assert_cmpstr (info->order, ==, order[c]);
      g_assert_true (info->implicit && info->adaptive && !info->multistep);
      g_assert_nonnull (info->family);
      g_assert_nonnull (info->notes);
      /* In the order of spec/solvers.md, right after radau5. */
      int idx = (int) (info - list);
      g_assert_cmpint (idx, >, prev);
      if (c == 0)
        {
          const HydSolverInfo *r5 = hyd_solver_lookup ("radau5");
          if (r5 != NULL)
            g_assert_cmpint (idx, ==, (int) (r5 - list) + 1);
        }
      else
        g_assert_cmpint (idx, ==, prev + 1);
      prev = idx;
    }
}

/* ---- convergence order ------------------------------------------------- */

static void
test_order_fixed (gconstpointer data)
{
  const IrkCase *c = data;
  double e[3];

  for (guint k = 0; k < 3; k++)
    e[k] = ode_harness_smooth_fixed (c->id, NULL, c->steps[k], 1e-13, FALSE, NULL);
  double p1 = log2 (e[0] / e[1]), p2 = log2 (e[1] / e[2]);
  g_test_message ("%s fixed step (%u, %u, %u steps): errors %.3e %.3e %.3e, "
                  "orders %.3f %.3f", c->id, c->steps[0], c->steps[1],
                  c->steps[2], e[0], e[1], e[2], p1, p2);
  g_assert_cmpfloat (fabs (p2 - c->order), <=, 0.2);
  g_assert_cmpfloat (fabs (p1 - c->order), <=, 0.3);
}

static void
test_order_dense (gconstpointer data)
{
  const IrkCase *c = data;
  double e[3];

  for (guint k = 0; k < 3; k++)
    e[k] = ode_harness_smooth_fixed (c->id, NULL, c->steps[k], 1e-13, TRUE, NULL);
  double p1 = log2 (e[0] / e[1]), p2 = log2 (e[1] / e[2]);
  g_test_message ("%s dense output: errors %.3e %.3e %.3e, orders %.3f %.3f",
                  c->id, e[0], e[1], e[2], p1, p2);
  g_assert_cmpfloat (fabs (p2 - c->dense_order), <=, 0.3);
}

/* ---- stability --------------------------------------------------------- */

/* One fixed step of size 1 on y' = z·y from y = 1: R(z). */
static double
one_step_amplification (const char *id, double z)
{
  double lambda = z, y = 1.0, atol = 1e-14;
  HydOdeProblem p = ode_linear_problem (&lambda);
  HydOdeOptions o;
  HydOdeResult r = { 0 };

  hyd_ode_options_init (&o);
  o.t_end = 1.0;
  o.fixed_step = 1.0;
  o.rtol = 1e-14;
  o.atol = &atol;
  g_assert_cmpint (hyd_ode_solve (id, &p, &o, &y, &r), ==, HYD_ODE_SUCCESS);
  g_assert_cmpuint (r.stats.steps, ==, 1);
  hyd_ode_result_clear (&r);
  return y;
}

static void
test_stability (gconstpointer data)
{
  const IrkCase *c = data;
  static const double zs[] = { -0.3, -2.0, -10.0, -150.0, 0.5 };

  /* The computed one-step map is the method's stability function: checks
   * the tableau and that the stage equations are really solved. */
  for (guint k = 0; k < G_N_ELEMENTS (zs); k++)
    {
      double rz = one_step_amplification (c->id, zs[k]);
      double ex = c->stability (zs[k]);
      g_assert_cmpfloat (fabs (rz - ex), <=, 1e-12 + 1e-10 * fabs (ex));
    }

  /* L-stable: a λ = −1e6 mode is damped in one step, and R(z) → 0 as
   * z → −∞ (|R| keeps falling with |z|: like 1/|z| or faster). */
  double r6 = one_step_amplification (c->id, -1e6);
  double r8 = one_step_amplification (c->id, -1e8);
  double r10 = one_step_amplification (c->id, -1e10);
  g_test_message ("%s: R(-1e6) = %.3e (closed form %.3e), R(-1e8) = %.3e, "
                  "R(-1e10) = %.3e", c->id, r6, c->stability (-1e6), r8, r10);
  g_assert_cmpfloat (fabs (r6), <, 2e-5);
  g_assert_cmpfloat (fabs (r6 - c->stability (-1e6)), <=, 1e-9);
  g_assert_cmpfloat (fabs (r8), <=, fabs (r6) / 50.0 + 1e-15);
  g_assert_cmpfloat (fabs (r10), <=, fabs (r8) / 50.0 + 1e-15);
  g_assert_cmpfloat (fabs (c->stability (-1e30)), <, 1e-25);
}

/* ---- the stiff test set ------------------------------------------------ */

typedef struct {
  const IrkCase *c;
  const char *problem;
} TestsetCase;

static void
run_testset_case (gconstpointer data)
{
  const TestsetCase *tc = data;
  HydOdeResult r = { 0 };

  g_assert_cmpfloat (ode_harness_testset (tc->c->id, tc->problem, 1e-6, 1e-6, &r), >=, 4.0);
  g_assert_cmpuint (r.stats.newton, >=, r.stats.steps);
  hyd_ode_result_clear (&r);
}

/* ---- the DETEST problems of Treeaporn (2005), App. A ------------------- */

typedef struct {
  const char *id;
  guint n;
  const double *y0;
  double rtol, atol;
  guint n_ref;
  const double *t_ref;
  const double *y_ref;      /* n_ref × n */
  HydOdeProblem problem;
} Detest;

/* A2: linear, real eigenvalues −2000.5 … −0.10 (circuit theory). */
static int
a2_rhs (double t, const double *y, double *f, gpointer user)
{
  f[0] = -1800.0 * y[0] + 900.0 * y[1];
  for (guint i = 1; i < 8; i++)
    f[i] = y[i - 1] - 2.0 * y[i] + y[i + 1];
  f[8] = 1000.0 * y[7] - 2000.0 * y[8] + 1000.0;
  return 0;
}

static int
a2_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  memset (J, 0, 81 * sizeof (double));
  J[0 + 0 * 9] = -1800.0;
  J[0 + 1 * 9] = 900.0;
  for (guint i = 1; i < 8; i++)
    {
      J[i + (i - 1) * 9] = 1.0;
      J[i + i * 9] = -2.0;
      J[i + (i + 1) * 9] = 1.0;
    }
  J[8 + 7 * 9] = 1000.0;
  J[8 + 8 * 9] = -2000.0;
  if (dfdt != NULL)
    memset (dfdt, 0, 9 * sizeof (double));
  return 0;
}

/* B1: linear, eigenvalues −1 ± 10i and −100 ± 100i. */
static int
b1_rhs (double t, const double *y, double *f, gpointer user)
{
  f[0] = -y[0] + y[1];
  f[1] = -100.0 * y[0] - y[1];
  f[2] = -100.0 * y[2] + y[3];
  f[3] = -10000.0 * y[2] - 100.0 * y[3];
  return 0;
}

static int
b1_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  static const double jb[16] = {
    -1.0, -100.0, 0.0, 0.0,
    1.0, -1.0, 0.0, 0.0,
    0.0, 0.0, -100.0, -10000.0,
    0.0, 0.0, 1.0, -100.0,
  };
  memcpy (J, jb, sizeof jb);
  if (dfdt != NULL)
    memset (dfdt, 0, 4 * sizeof (double));
  return 0;
}

/* C1: non-linear coupling, eigenvalues −1, −10, −40, −100. */
static int
c1_rhs (double t, const double *y, double *f, gpointer user)
{
  double s34 = y[2] * y[2] + y[3] * y[3];
  f[0] = -y[0] + y[1] * y[1] + s34;
  f[1] = -10.0 * y[1] + 10.0 * s34;
  f[2] = -40.0 * y[2] + 40.0 * y[3] * y[3];
  f[3] = -100.0 * y[3] + 2.0;
  return 0;
}

static int
c1_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  memset (J, 0, 16 * sizeof (double));
  J[0 + 0 * 4] = -1.0;
  J[0 + 1 * 4] = 2.0 * y[1];
  J[0 + 2 * 4] = 2.0 * y[2];
  J[0 + 3 * 4] = 2.0 * y[3];
  J[1 + 1 * 4] = -10.0;
  J[1 + 2 * 4] = 20.0 * y[2];
  J[1 + 3 * 4] = 20.0 * y[3];
  J[2 + 2 * 4] = -40.0;
  J[2 + 3 * 4] = 80.0 * y[3];
  J[3 + 3 * 4] = -100.0;
  if (dfdt != NULL)
    memset (dfdt, 0, 4 * sizeof (double));
  return 0;
}

/* D4: non-linear, real eigenvalues (chemistry); the DETEST sign −0.013 in
 * y3' (the thesis prints +0.013, App. A, set D). */
static int
d4_rhs (double t, const double *y, double *f, gpointer user)
{
  f[0] = -0.013 * y[0] - 1000.0 * y[0] * y[2];
  f[1] = -2500.0 * y[1] * y[2];
  f[2] = -0.013 * y[0] - 1000.0 * y[0] * y[2] - 2500.0 * y[1] * y[2];
  return 0;
}

static int
d4_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  J[0 + 0 * 3] = -0.013 - 1000.0 * y[2];
  J[0 + 1 * 3] = 0.0;
  J[0 + 2 * 3] = -1000.0 * y[0];
  J[1 + 0 * 3] = 0.0;
  J[1 + 1 * 3] = -2500.0 * y[2];
  J[1 + 2 * 3] = -2500.0 * y[1];
  J[2 + 0 * 3] = -0.013 - 1000.0 * y[2];
  J[2 + 1 * 3] = -2500.0 * y[2];
  J[2 + 2 * 3] = -1000.0 * y[0] - 2500.0 * y[1];
  if (dfdt != NULL)
    memset (dfdt, 0, 3 * sizeof (double));
  return 0;
}

/* E1: non-linear, complex eigenvalues, badly scaled (control theory). */
#define E1_K 100.0

static int
e1_rhs (double t, const double *y, double *f, gpointer user)
{
  double k2 = E1_K * E1_K, k3 = k2 * E1_K, k4 = k3 * E1_K;
  f[0] = y[1];
  f[1] = y[2];
  f[2] = y[3];
  f[3] = (y[0] * y[0] - sin (y[0]) - k4) * y[0]
         + (y[1] * y[2] / (y[0] * y[0] + 1.0) - 4.0 * k3) * y[1]
         + (1.0 - 6.0 * k2) * y[2]
         + (10.0 * exp (-y[3] * y[3]) - 4.0 * E1_K) * y[3] + 1.0;
  return 0;
}

static int
e1_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  double k2 = E1_K * E1_K, k3 = k2 * E1_K, k4 = k3 * E1_K;
  double q = y[0] * y[0] + 1.0;

  memset (J, 0, 16 * sizeof (double));
  J[0 + 1 * 4] = 1.0;
  J[1 + 2 * 4] = 1.0;
  J[2 + 3 * 4] = 1.0;
  J[3 + 0 * 4] = 3.0 * y[0] * y[0] - sin (y[0]) - y[0] * cos (y[0]) - k4
                 - 2.0 * y[0] * y[1] * y[1] * y[2] / (q * q);
  J[3 + 1 * 4] = 2.0 * y[1] * y[2] / q - 4.0 * k3;
  J[3 + 2 * 4] = y[1] * y[1] / q + 1.0 - 6.0 * k2;
  J[3 + 3 * 4] = 10.0 * exp (-y[3] * y[3]) * (1.0 - 2.0 * y[3] * y[3])
                 - 4.0 * E1_K;
  if (dfdt != NULL)
    memset (dfdt, 0, 4 * sizeof (double));
  return 0;
}

static const double a2_y0[9] = { 0 };
static const double a2_t[] = { 20.0, 120.0 };
static const double a2_ref[] = {
  7.7609408729e-2, 1.5522133540e-1, 2.3736529668e-1, 3.2585297765e-1,
  4.2185835869e-1, 5.2579625926e-1, 6.3727623222e-1, 7.5513820434e-1,
  8.7756796016e-1,
  9.99991255294e-2, 1.99998251157e-1, 2.99997554319e-1, 3.99997105752e-1,
  4.99996950994e-1, 5.99997105755e-1, 6.99997554324e-1, 7.99998251165e-1,
  8.99999125538e-1,
};
static const double b1_y0[4] = { 1.0, 0.0, 1.0, 0.0 };
static const double b1_t[] = { 20.0 };
static const double b1_ref[] = { 1.00416864115e-9, 1.79999988762e-8, 0.0, 0.0 };
static const double c1_y0[4] = { 1.0, 1.0, 1.0, 1.0 };
static const double c1_t[] = { 20.0 };
static const double c1_ref[] = {
  4.0032239269e-4, 4.0016000000e-4, 4.0000000000e-4, 2.0000000000e-2,
};
static const double d4_y0[3] = { 1.0, 1.0, 0.0 };
static const double d4_t[] = { 10.0, 20.0, 50.0 };
static const double d4_ref[] = {
  9.0916832363e-1, 1.0908284260, -3.2503998003e-6,
  8.2299076738e-1, 1.1770063913, -2.8412957472e-6,
  5.9765469807e-1, 1.4023434085, -1.8933865404e-6,
};
static const double e1_y0[4] = { 0 };
static const double e1_t[] = { 1.0 };
static const double e1_ref[] = { 1.0000000000e-8, 0.0, 0.0, 0.0 };

/* Tolerances: rtol 1e-6 throughout; atol below the scale of the smallest
 * component that carries information (B1 decays to 1e-9, D4's y3 is
 * ~1e-6, E1's y1 ≤ 1e-8: Treeaporn 2005, App. A, set E). */
static const Detest detests[] = {
  { "A2", 9, a2_y0, 1e-6, 1e-8, 2, a2_t, a2_ref,
    { .n = 9, .rhs = a2_rhs, .jac = a2_jac } },
  { "B1", 4, b1_y0, 1e-6, 1e-10, 1, b1_t, b1_ref,
    { .n = 4, .rhs = b1_rhs, .jac = b1_jac } },
  { "C1", 4, c1_y0, 1e-6, 1e-10, 1, c1_t, c1_ref,
    { .n = 4, .rhs = c1_rhs, .jac = c1_jac } },
  { "D4", 3, d4_y0, 1e-6, 1e-12, 3, d4_t, d4_ref,
    { .n = 3, .rhs = d4_rhs, .jac = d4_jac } },
  { "E1", 4, e1_y0, 1e-6, 1e-14, 1, e1_t, e1_ref,
    { .n = 4, .rhs = e1_rhs, .jac = e1_jac } },
};

static void
check_jacobian (const Detest *p, const double *y, double t)
{
  guint n = p->n;
  g_autofree double *J = g_new (double, n * n);
  g_autofree double *fp = g_new (double, n);
  g_autofree double *fm = g_new (double, n);
  g_autofree double *yy = g_memdup2 (y, n * sizeof (double));

  g_assert_cmpint (p->problem.jac (t, y, J, NULL, NULL), ==, 0);
  for (guint j = 0; j < n; j++)
    {
      double d = 1e-6 * MAX (fabs (y[j]), 1e-3);
      yy[j] = y[j] + d;
      p->problem.rhs (t, yy, fp, NULL);
      yy[j] = y[j] - d;
      p->problem.rhs (t, yy, fm, NULL);
      yy[j] = y[j];
      for (guint i = 0; i < n; i++)
        {
          double fd = (fp[i] - fm[i]) / (2.0 * d);
          double an = J[i + j * n];
          double tol = 1e-5 * MAX (1.0, MAX (fabs (fd), fabs (an)))
                       + 1e3 * DBL_EPSILON * MAX (fabs (fp[i]), fabs (fm[i])) / d;
          if (fabs (fd - an) > tol)
            g_error ("%s: ∂f%u/∂y%u analytic %g, differences %g", p->id, i, j,
                     an, fd);
        }
    }
}

static void
test_detest_jacobians (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (detests); k++)
    {
      const Detest *p = &detests[k];
      g_autofree double *y = g_new (double, p->n);
      check_jacobian (p, p->y0, 0.0);
      for (guint i = 0; i < p->n; i++)
        y[i] = 0.3 + 0.1 * i;
      check_jacobian (p, y, 1.0);
    }
}

typedef struct {
  const Detest *p;
  guint k;             /* next reference time */
  double worst;        /* max over references of the weighted error */
  double abs_err;
} DetestRun;

static gboolean
detest_output (double t, const double *y, gpointer user)
{
  DetestRun *dr = user;
  const Detest *p = dr->p;

  if (dr->k < p->n_ref && fabs (t - p->t_ref[dr->k]) <= 1e-12 * p->t_ref[dr->k])
    {
      const double *ref = p->y_ref + (gsize) dr->k * p->n;
      for (guint i = 0; i < p->n; i++)
        {
          double e = fabs (y[i] - ref[i]);
          dr->abs_err = MAX (dr->abs_err, e);
          dr->worst = MAX (dr->worst, e / (p->atol + p->rtol * fabs (ref[i])));
        }
      dr->k++;
    }
  return TRUE;
}

static void
run_detest (gconstpointer data)
{
  const Detest *p = data;
  static const char *const ids[] = {
    "radau3", "lobatto3c4", "lobatto3c6", "sdirk4", "rodas4",
  };

  for (guint m = 0; m < G_N_ELEMENTS (ids); m++)
    {
      g_autofree double *y = g_memdup2 (p->y0, p->n * sizeof (double));
      g_autofree double *atol = g_new (double, p->n);
      DetestRun dr = { p, 0, 0.0, 0.0 };
      HydOdeOptions o;
      HydOdeResult r = { 0 };

      hyd_ode_options_init (&o);
      o.t_end = p->t_ref[p->n_ref - 1];
      ode_harness_tolerances (&o, atol, p->n, p->rtol, p->atol);
      /* The reference times are breakpoints: the solution is sampled
       * exactly there. */
      o.breakpoints = p->t_ref;
      o.n_breakpoints = p->n_ref;
      o.output = detest_output;
      o.output_user = &dr;
      HydOdeStatus status = hyd_ode_solve (ids[m], &p->problem, &o, y, &r);
      g_test_message ("DETEST %s %s rtol %g atol %g: %s, max error %.2e "
                      "(%.2f x tolerance), %s", p->id, ids[m], p->rtol, p->atol,
                      hyd_ode_status_name (status), dr.abs_err, dr.worst,
                      stats_text (&r));
      g_assert_cmpint (status, ==, HYD_ODE_SUCCESS);
      g_assert_cmpuint (dr.k, ==, p->n_ref);
      /* Tolerance-consistent: the global error within a few times the
       * local tolerance (the reference values have 11–12 digits). */
      g_assert_cmpfloat (dr.worst, <=, 20.0);
      /* Tens to hundreds of steps, as a correct implicit solver needs
       * (our measurement), not the thesis's 10⁴–10⁵. */
      g_assert_cmpuint (r.stats.steps, <, 20000);
      hyd_ode_result_clear (&r);
    }
}

/* The same run of A2 (tridiagonal) with the sparse LU (KLU, real and
 * complex factors) as with the dense one: the family only uses the
 * HydLinSolver interface. */
static void
test_sparse (gconstpointer data)
{
  const IrkCase *c = data;
  const Detest *p = &detests[0];
  guint colptr[10], rowind[25], nnz = 0;
  double y[2][9];
  HydOdeResult r[2] = { { 0 }, { 0 } };

  for (guint j = 0; j < 9; j++)
    {
      colptr[j] = nnz;
      for (guint i = j > 0 ? j - 1 : 0; i <= MIN (j + 1, 8); i++)
        rowind[nnz++] = i;
    }
  colptr[9] = nnz;
  for (guint k = 0; k < 2; k++)
    {
      HydOdeProblem prob = p->problem;
      HydOdeOptions o;
      double atol[9];
      hyd_ode_options_init (&o);
      o.t_end = 20.0;
      ode_harness_tolerances (&o, atol, 9, p->rtol, p->atol);
      if (k == 1)
        {
          prob.colptr = colptr;
          prob.rowind = rowind;
          prob.nnz = nnz;
          o.linear_solver = HYD_LINEAR_SOLVER_SPARSE;
        }
      memcpy (y[k], p->y0, sizeof y[k]);
      g_assert_cmpint (hyd_ode_solve (c->id, &prob, &o, y[k], &r[k]), ==,
                       HYD_ODE_SUCCESS);
    }
  double diff = 0.0;
  for (guint i = 0; i < 9; i++)
    diff = MAX (diff, fabs (y[0][i] - y[1][i]));
  g_test_message ("%s A2 dense vs sparse LU: max difference %.2e, steps %"
                  G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT, c->id, diff,
                  r[0].stats.steps, r[1].stats.steps);
  g_assert_cmpfloat (diff, <=, 1e-10);
  g_assert_cmpfloat (fabs (y[1][8] - a2_ref[8]), <=, 1e-6);
  hyd_ode_result_clear (&r[0]);
  hyd_ode_result_clear (&r[1]);
}

/* ---- Newton iteration -------------------------------------------------- */

/* y' = −y³·1e4 from y = 10 with a first step far too large: the Newton
 * iteration or the error test rejects it, and the step is retried smaller
 * until the solution is accurate. */
static int
cubic_rhs (double t, const double *y, double *f, gpointer user)
{
  f[0] = -1e4 * y[0] * y[0] * y[0];
  return 0;
}

static int
cubic_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  J[0] = -3e4 * y[0] * y[0];
  if (dfdt != NULL)
    dfdt[0] = 0.0;
  return 0;
}

static void
test_large_first_step (gconstpointer data)
{
  const IrkCase *c = data;
  HydOdeProblem p = { .n = 1, .rhs = cubic_rhs, .jac = cubic_jac };
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  double y = 10.0, atol = 1e-8;

  hyd_ode_options_init (&o);
  o.t_end = 1.0;
  o.h0 = 1.0;
  o.rtol = 1e-6;
  o.atol = &atol;
  g_assert_cmpint (hyd_ode_solve (c->id, &p, &o, &y, &r), ==, HYD_ODE_SUCCESS);
  /* Exact: y = 1/sqrt(1/y0² + 2e4·t). */
  double ex = 1.0 / sqrt (0.01 + 2e4);
  g_test_message ("%s y' = -1e4*y^3, h0 = 1: y(1) = %.9e (exact %.9e), %s",
                  c->id, y, ex, stats_text (&r));
  g_assert_cmpuint (r.stats.rejected, >=, 1);
  g_assert_cmpfloat (fabs (y - ex), <=, 1e-5 * ex);
  hyd_ode_result_clear (&r);
}

static void
test_cancel_in_newton (gconstpointer data)
{
  const IrkCase *c = data;
  const guint cancel_at = 200;
  HydOdeResult r = { 0 };
  double y;

  guint calls = ode_harness_cancel_in_newton (c->id, cancel_at, &y, &r);
  /* The attempt under way stops at its next Newton iteration: at most the
   * remaining stage evaluations of the current one (and the one at the
   * new point if that attempt was just finishing). */
  g_assert_cmpuint (calls, <=, cancel_at + 5);
  g_assert_true (isfinite (y));
  hyd_ode_result_clear (&r);
}

int
main (int argc, char **argv)
{
  static const char *const problems[] = {
    "hires", "vdpol", "rober", "orego", "e5", "pollu",
  };
  static TestsetCase ts[G_N_ELEMENTS (irk_cases)][G_N_ELEMENTS (problems)];

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/irk/solver-list", test_solver_list);
  for (guint c = 0; c < G_N_ELEMENTS (irk_cases); c++)
    {
      const IrkCase *ic = &irk_cases[c];
      g_autofree char *p1 = g_strdup_printf ("/engine/irk/%s/order/fixed-step", ic->id);
      g_autofree char *p2 = g_strdup_printf ("/engine/irk/%s/order/dense-output", ic->id);
      g_autofree char *p3 = g_strdup_printf ("/engine/irk/%s/stability", ic->id);
      g_autofree char *p4 = g_strdup_printf ("/engine/irk/%s/large-first-step", ic->id);
      g_autofree char *p5 = g_strdup_printf ("/engine/irk/%s/sparse-lu", ic->id);
      g_autofree char *p6 = g_strdup_printf ("/engine/irk/%s/cancel-in-newton", ic->id);
      g_test_add_data_func (p1, ic, test_order_fixed);
      g_test_add_data_func (p2, ic, test_order_dense);
      g_test_add_data_func (p3, ic, test_stability);
      g_test_add_data_func (p4, ic, test_large_first_step);
      g_test_add_data_func (p5, ic, test_sparse);
      g_test_add_data_func (p6, ic, test_cancel_in_newton);
      for (guint k = 0; k < G_N_ELEMENTS (problems); k++)
        {
          ts[c][k] = (TestsetCase) { ic, problems[k] };
          g_autofree char *path = g_strdup_printf ("/engine/irk/%s/testset/%s",
                                                   ic->id, problems[k]);
          g_test_add_data_func (path, &ts[c][k], run_testset_case);
        }
    }
  g_test_add_func ("/engine/irk/detest/jacobians", test_detest_jacobians);
  for (guint k = 0; k < G_N_ELEMENTS (detests); k++)
    {
      g_autofree char *path = g_strdup_printf ("/engine/irk/detest/%s",
                                               detests[k].id);
      g_test_add_data_func (path, &detests[k], run_detest);
    }

  for (guint c = 0; c < G_N_ELEMENTS (irk_cases); c++)
    ode_harness_add_conformance (irk_cases[c].id);

  return g_test_run ();
}
