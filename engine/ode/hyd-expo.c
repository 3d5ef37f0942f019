/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-expo.c — `expo`, the diagonal exponential predictor–corrector of the
 * HASP thesis (Bath; "FOM", §3.2–3.5, §4.8–4.14, App. C).
 *
 * Each state equation is written y_i' = a_i·y_i + b_i with a_i frozen over
 * the step and solved exactly (HASP thesis §3.2–3.5, eqs. 3.5–3.7):
 *
 *   predictor (explicit, a and b at t_n):
 *     y^p = y_n·e^{ah} + (b_n/a)(e^{ah} − 1) = y_n + h·φ1(ah)·f(t_n, y_n)
 *   corrector (implicit I, b at t_{n+1}):
 *     y^c = y_n·e^{ah} + h·φ1(ah)·b(y^c),  b(y) = f(t_{n+1}, y) − a·y
 *
 * with φ1(z) = (e^z − 1)/z. Here a_i = J_ii, the diagonal of the analytic
 * Jacobian at the accepted point, and b_i = f_i − a_i·y_i (our choice,
 * not the thesis's): no hand-made (a, b) split per model, the thesis's main obstacle.
 * Dividing the corrector by e^{ah} gives y^c − y_n = d ∘ f(t_{n+1}, y^c),
 * d_i = (1 − e^{−a_i h})/a_i: backward Euler with a per-row step (§2.4).
 *
 * Both forms are first order with equal and opposite leading local errors
 * ±(h²/2)(y'' − a·y') (§2.2), so (y^c − y^p)/2 estimates the error (4.19).
 * That expansion needs |a|·h ≪ 1. A stiff component riding a slow manifold
 * with |a|·h ≳ 1 costs the predictor a lag of about h·y' (b frozen at t_n),
 * which then dominates the estimate: the steps are held near tol/|y'|
 * there (the thesis's 2×2 example, §2.56: 2626 steps at rtol 1e−3, 14047 at
 * 1e−4). The estimate is kept as the thesis has it: filtering it through
 * the corrector's damping (as RADAU5 does) let unstable steps through on
 * Robertson.
 *
 * Departures from the thesis (documented in §2.3–2.6 as defects or as
 * choices left open):
 *  - a is frozen at t_n for both forms (the thesis's implicit I re-evaluates
 *    it at t_{n+1}; with a = J_ii that would cost a Jacobian per iteration).
 *    The leading error terms stay equal and opposite, so (4.19) holds.
 *  - The corrector is solved by simplified Newton with the full matrix
 *    diag(1/d) − J(t_n) (as the thesis's ch. 3 / App. A code, which inverted
 *    the full Jacobian), not FOM's diagonal-only Newton–Jacobi, which fails
 *    on strongly coupled systems (ROBER, orifice–motor, §2.4).
 *  - The error is weighted per component, atol + rtol·|y| in the RMS norm
 *    of the other methods, not FOM's absolute max-norm (§6.5: the absolute
 *    norm gave 6–16 % errors on Robertson, the relative one 6436 steps), and
 *    is taken from the converged corrector, not the first correction.
 *  - Step control keeps the thesis's rule (App. B, B.3): h_opt = h·√(TOL/ERR);
 *    reject when h > 0.84·h_opt and redo with h_opt/2; grow to 2/3·h_opt when
 *    h < 0.25·h_opt; else keep h. The growth is capped at 10× per step (the
 *    thesis capped steps at HMAX = 1e−2 s instead, which is no rule for
 *    other time scales); step increases are kept (the FOM listing loses
 *    them) and a retried step is checked again (FOM accepts it blindly).
 *  - A Newton failure halves the step (the driver's rule; FOM quarters it).
 *
 * Dense output: cubic Hermite on (y_n, f_n, y_{n+1}, f_{n+1}). */
#include "hyd-ode-private.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* App. B: C1 = 0.25, C2 = 0.84, increase to 2/3·h_opt, decrease to h_opt/2. */
#define EXPO_C1        0.25
#define EXPO_C2        0.84
#define EXPO_GROW      (2.0 / 3.0)
#define EXPO_SHRINK    0.5
#define EXPO_FAC_MAX   10.0
#define EXPO_FAC_MIN   0.01

#define EXPO_NIT       7      /* FOM: 6 iterations on one Jacobian */
#define EXPO_NIT_FIXED 20     /* no smaller step can help in fixed-step mode */
#define EXPO_KAPPA     0.05   /* Newton error, in units of the tolerance */

typedef struct {
  guint n;
  HydJac *J;        /* at the prepared point */
  HydJac *M;        /* J with its diagonal shifted: 1/h·I − M = diag(1/d) − J */
  HydLinSolver *lu;
  int *diag_pos;    /* sparse: index of (i, i) in the values, or −1 */
  double *a;        /* J_ii */
  double *hphi;     /* h·φ1(a·h) */
  double *invd;     /* 1/d = a/(1 − e^{−ah}) */
  double *yp, *yc, *fc, *dy, *e;
  double eta;       /* Newton contraction estimate carried between steps */

  /* The last attempt, for the continuous extension. */
  double t, h;
  double *y0, *y1, *f0, *f1;
  gboolean f1_valid;
} ExpoWork;

static gpointer
expo_workspace_new (const HydOdeMethod *method, guint n)
{
  ExpoWork *w = g_new0 (ExpoWork, 1);

  w->n = n;
  w->a = g_new0 (double, n);
  w->hphi = g_new0 (double, n);
  w->invd = g_new0 (double, n);
  w->yp = g_new0 (double, n);
  w->yc = g_new0 (double, n);
  w->fc = g_new0 (double, n);
  w->dy = g_new0 (double, n);
  w->e = g_new0 (double, n);
  w->y0 = g_new0 (double, n);
  w->y1 = g_new0 (double, n);
  w->f0 = g_new0 (double, n);
  w->f1 = g_new0 (double, n);
  w->eta = 1.0;
  return w;
}

static void
expo_workspace_free (gpointer ws)
{
  ExpoWork *w = ws;

  if (w == NULL)
    return;
  hyd_jac_free (w->J);
  hyd_jac_free (w->M);
  hyd_linsolver_free (w->lu);
  g_free (w->diag_pos);
  g_free (w->a);
  g_free (w->hphi);
  g_free (w->invd);
  g_free (w->yp);
  g_free (w->yc);
  g_free (w->fc);
  g_free (w->dy);
  g_free (w->e);
  g_free (w->y0);
  g_free (w->y1);
  g_free (w->f0);
  g_free (w->f1);
  g_free (w);
}

/* φ1(z) = (e^z − 1)/z, accurate near 0 (HASP thesis §3.2–3.5). */
static inline double
phi1 (double z)
{
  if (fabs (z) < 1e-5)
    return 1.0 + z * (0.5 + z / 6.0);
  return expm1 (z) / z;
}

static int
expo_prepare (gpointer ws, HydOdeDriver *d, double t, const double *y,
              const double *f0)
{
  ExpoWork *w = ws;

  if (w->J == NULL)
    {
      w->J = hyd_ode_driver_jac_new (d);
      w->M = hyd_ode_driver_jac_new (d);
      w->lu = hyd_linsolver_new (w->M);
      if (w->J->sparse)
        {
          w->diag_pos = g_new (int, w->n);
          for (guint i = 0; i < w->n; i++)
            {
              w->diag_pos[i] = -1;
              for (guint k = w->J->colptr[i]; k < w->J->colptr[i + 1]; k++)
                if (w->J->rowind[k] == i)
                  w->diag_pos[i] = (int) k;
            }
        }
    }
  /* a_i = J_ii at (t_n, y_n), kept over rejected attempts. */
  int rc = hyd_ode_driver_jacobian (d, t, y, f0, w->J, NULL);
  if (rc != 0)
    return rc;
  hyd_jac_get_diagonal (w->J, w->a);
  return 0;
}

/* M = J + diag(1/h − 1/d), so that (1/h)·I − M = diag(1/d) − J, the
 * corrector's Newton matrix divided row-wise by d. Rows with a_i = 0 have
 * 1/d_i = 1/h and need no entry (a sparse pattern may lack it). */
static void
expo_build_matrix (ExpoWork *w, double h)
{
  HydJac *M = w->M;
  guint n = w->n;

  hyd_jac_copy (M, w->J);
  for (guint i = 0; i < n; i++)
    {
      double delta = 1.0 / h - w->invd[i];
      if (delta == 0.0)
        continue;
      if (!M->sparse)
        M->dense[i + (gsize) i * n] += delta;
      else if (w->diag_pos[i] >= 0)
        M->values[w->diag_pos[i]] += delta;
    }
}

/* The weighted RMS norm of a Newton increment; also without atol (a
 * fixed-step run may have none), as HW radau5.f's SCAL. */
static double
newton_norm (const HydOdeOptions *o, guint n, const double *y0,
             const double *y1, const double *v)
{
  double sum = 0.0;

  for (guint i = 0; i < n; i++)
    {
      double base = o->atol != NULL ? o->atol[i] : o->rtol > 0.0 ? o->rtol : 1e-6;
      double sk = MAX (base + o->rtol * MAX (fabs (y0[i]), fabs (y1[i])), 1e-300);
      sum += (v[i] / sk) * (v[i] / sk);
    }
  return sqrt (sum / n);
}

static HydAttempt
expo_attempt (gpointer ws, HydOdeDriver *d, double t, const double *y,
              const double *f0, double h, double *y_new, double *err)
{
  ExpoWork *w = ws;
  const HydOdeOptions *o = hyd_ode_driver_options (d);
  HydOdeStats *st = hyd_ode_driver_stats (d);
  gboolean fixed = o->fixed_step > 0.0;
  guint n = w->n, nit = fixed ? EXPO_NIT_FIXED : EXPO_NIT;
  double t1 = t + h;

  w->f1_valid = FALSE;
  *err = 0.0;

  /* Predictor, eq. 3.6: y^p = y + h·φ1(ah)·f0. */
  for (guint i = 0; i < n; i++)
    {
      double z = w->a[i] * h;
      w->hphi[i] = h * phi1 (z);
      /* 1/d = 1/(h·φ1(−ah)): 0 for a very stiff row (d = ∞), a for a
       * strongly growing one. */
      w->invd[i] = 1.0 / (h * phi1 (-z));
      w->yp[i] = y[i] + w->hphi[i] * f0[i];
    }
  for (guint i = 0; i < n; i++)
    if (!isfinite (w->yp[i]) || !isfinite (w->invd[i]))
      return HYD_ATTEMPT_DIVERGED;   /* e^{ah} overflows: a_i > 0, h too long */

  expo_build_matrix (w, h);
  int info = hyd_linsolver_factor (w->lu, 1.0 / h, w->M);
  st->lu++;
  if (info != 0)
    {
      hyd_ode_driver_note_singular (d, info > 0 && (guint) info <= n ? info - 1 : -1);
      return HYD_ATTEMPT_SINGULAR;
    }

  /* Corrector, eq. 3.7 in the form y − y_n − d ∘ f(t_{n+1}, y) = 0, by
   * simplified Newton from the predictor (HASP thesis §2.70–2.76, §3.38). */
  memcpy (w->yc, w->yp, n * sizeof (double));
  double dn_old = 0.0, eta = pow (MAX (w->eta, 1e-16), 0.8);
  gboolean converged = FALSE;
  for (guint it = 0; it < nit && !converged; it++)
    {
      if (o->cancel != NULL && g_atomic_int_get (o->cancel) != 0)
        return HYD_ATTEMPT_DIVERGED;   /* the driver reports the cancellation */
      int rc = hyd_ode_driver_rhs (d, t1, w->yc, w->fc);
      if (rc < 0)
        return HYD_ATTEMPT_FATAL;
      if (rc > 0)
        return HYD_ATTEMPT_RECOVERABLE;
      /* (diag(1/d) − J)·Δ = −((y − y_n)/d − f) */
      for (guint i = 0; i < n; i++)
        w->dy[i] = w->fc[i] - w->invd[i] * (w->yc[i] - y[i]);
      hyd_linsolver_solve (w->lu, w->dy);
      st->newton++;
      for (guint i = 0; i < n; i++)
        w->yc[i] += w->dy[i];

      double dn = newton_norm (o, n, y, w->yc, w->dy);
      if (!isfinite (dn))
        return HYD_ATTEMPT_DIVERGED;
      if (it > 0)
        {
          double theta = dn / MAX (dn_old, DBL_MIN);
          if (theta >= 0.99)
            return HYD_ATTEMPT_DIVERGED;
          eta = theta / (1.0 - theta);
        }
      /* HW radau5.f: the remaining error of a contracting iteration is
       * about η·‖Δ‖. */
      converged = eta * dn <= EXPO_KAPPA || dn <= 1e-3 * EXPO_KAPPA;
      dn_old = dn;
    }
  if (!converged)
    return HYD_ATTEMPT_DIVERGED;
  w->eta = eta;

  /* Error estimate, eq. 4.19: (y^c − y^p)/2, in units of the tolerance;
   * reported relative to the rejection threshold C2² so that err ≤ 1
   * accepts exactly when h ≤ 0.84·h_opt (App. B). */
  for (guint i = 0; i < n; i++)
    w->e[i] = 0.5 * (w->yc[i] - w->yp[i]);
  if (o->atol != NULL)
    *err = hyd_ode_driver_error_norm (d, y, w->yc, w->e) / (EXPO_C2 * EXPO_C2);

  memcpy (y_new, w->yc, n * sizeof (double));
  w->t = t;
  w->h = h;
  memcpy (w->y0, y, n * sizeof (double));
  memcpy (w->y1, w->yc, n * sizeof (double));
  memcpy (w->f0, f0, n * sizeof (double));
  return HYD_ATTEMPT_OK;
}

/* HASP thesis App. B, B.3, with err = ERR/TOL/C2² (see expo_attempt). */
static double
expo_propose (gpointer ws, HydOdeDriver *d, double h, double err,
              gboolean accepted, gboolean after_reject)
{
  double ratio = err * EXPO_C2 * EXPO_C2;   /* ERR/TOL */
  double hopt = ratio > 0.0 ? 1.0 / sqrt (ratio) : INFINITY;  /* h_opt/h */

  if (!accepted)
    return CLAMP (EXPO_SHRINK * hopt, EXPO_FAC_MIN, EXPO_SHRINK);
  if (after_reject)
    return 1.0;
  if (1.0 < EXPO_C1 * hopt)
    return MIN (EXPO_GROW * hopt, EXPO_FAC_MAX);
  return 1.0;
}

static void
expo_accept (gpointer ws, HydOdeDriver *d, double t_new, const double *y_new,
             const double *f_new)
{
  ExpoWork *w = ws;

  if (f_new != NULL)
    {
      memcpy (w->f1, f_new, w->n * sizeof (double));
      w->f1_valid = TRUE;
    }
}

static void
expo_reset (gpointer ws, HydOdeDriver *d, double t, const double *y,
            const double *f0)
{
  ExpoWork *w = ws;

  w->eta = 1.0;
}

static int
expo_dense (gpointer ws, HydOdeDriver *d, double theta, double *y_out)
{
  ExpoWork *w = ws;
  guint n = w->n;
  double s1 = 1.0 - theta;

  if (!w->f1_valid)
    {
      int rc = hyd_ode_driver_rhs (d, w->t + w->h, w->y1, w->f1);
      if (rc != 0)
        return rc;
      w->f1_valid = TRUE;
    }
  double h00 = (1.0 + 2.0 * theta) * s1 * s1;
  double h10 = theta * s1 * s1;
  double h01 = theta * theta * (3.0 - 2.0 * theta);
  double h11 = -theta * theta * s1;
  for (guint i = 0; i < n; i++)
    y_out[i] = h00 * w->y0[i] + h10 * w->h * w->f0[i]
               + h01 * w->y1[i] + h11 * w->h * w->f1[i];
  return 0;
}

static const HydOdeMethod expo_method = {
  .info = {
    .id = "expo",
    .family = "exponential predictor–corrector",
    .order = "1",
    .implicit = TRUE,
    .adaptive = TRUE,
    .multistep = FALSE,
    .notes = "the HASP thesis's method (Bath, \"FOM\"): y' = a·y + b per "
             "state with a = J_ii, explicit exponential predictor, implicit "
             "corrector by Newton, error (y^c − y^p)/2 and the thesis's step "
             "control; first order",
  },
  .order = 1,
  .error_order = 2.0,
  .workspace_new = expo_workspace_new,
  .workspace_free = expo_workspace_free,
  .prepare = expo_prepare,
  .attempt = expo_attempt,
  .dense = expo_dense,
  .reset = expo_reset,
  .propose = expo_propose,
  .accept = expo_accept,
};

static const HydOdeMethod *const expo_members[] = {
  &expo_method,
};

const HydOdeMethod *const *
hyd_ode_family_expo (guint *n)
{
  *n = G_N_ELEMENTS (expo_members);
  return expo_members;
}
