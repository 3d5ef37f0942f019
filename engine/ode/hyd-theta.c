/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-theta.c — the θ-methods `trapezoid` (θ = ½) and `backward_euler`
 * (θ = 1):
 *
 *   y1 = y0 + h·((1 − θ)·f(t0, y0) + θ·f(t1, y1))
 *
 * solved for z = y1 − y0 by simplified Newton on (I − θhJ), J at (t0, y0),
 * with the convergence control of HW radau5.f (contraction estimate, FNEWT).
 * Backward Euler is L-stable, R(z) = 1/(1 − z); the trapezoidal rule is
 * A-stable but |R(∞)| = 1, so stiff modes ring instead of decaying
 * (Esqué 2008, §4.2, Fig. 4.4).
 *
 * Error estimates, for the driver's controller:
 *   backward Euler: the classic (h/2)·(f1 − f0) ≈ −(h²/2)·y'', i.e. half the
 *     distance to the explicit Euler step;
 *   trapezoid: the Milne device with the explicit Taylor-2 predictor
 *     y0 + h·f0 + (h²/2)·y''0, y''0 = J·f0 + ∂f/∂t; the local errors are
 *     −h³/12·y''' and h³/6·y''', so err = −(y1 − y_pred)/3
 *     = −(h/6)·(f1 − f0 − h·y''0).
 * Both are filtered by (I − θhJ)⁻¹ (Shampine; as HW radau5), which leaves
 * non-stiff components alone and keeps a stiff component from forcing the
 * step down where the method already damps it (the trapezoid's twice, see
 * ThetaTable).
 *
 * f1 = f(t1, y1) comes from the Newton iteration, (z − (1 − θ)·h·f0)/(θh),
 * and is replaced by the driver's evaluation at the new point when the step
 * is accepted; the dense output is the cubic Hermite interpolant on
 * (y0, f0, y1, f1). */
#include "hyd-ode-private.h"

#include <float.h>
#include <math.h>
#include <string.h>

typedef struct {
  double theta;
  gboolean trapezoid;   /* the error estimate needs y''0 = J·f0 + ∂f/∂t */
  int n_filter;         /* times the estimate is filtered by (I − θhJ)⁻¹ */
  double err_scale;     /* local error target: tolerance / err_scale */
} ThetaTable;

/* Trapezoid: filtered twice. A stiff mode rings with |R| ≈ 1 and its
 * amplitude a stays in the solution; the Milne estimate of that mode is
 * ≈ (z²/6)·a (z = hλ), once filtered ≈ (|z|/3)·a, which forbids any large
 * step on ROBER or E5 (ten million steps); twice filtered ≈ (2/3)·a, the
 * error the ringing actually carries.
 * Backward Euler: its global error is the plain sum of its local errors
 * (N ≈ 5·10⁴ steps on OREGO at rtol 1e-6: mescd 1.45), so it aims each step
 * at 1/30 of the tolerance (measured: OREGO mescd 2.2, the rest ≥ 3.5). */
static const ThetaTable trapezoid_table = { 0.5, TRUE, 2, 1.0 };
static const ThetaTable backward_euler_table = { 1.0, FALSE, 1, 30.0 };

#define NEWTON_MAXIT        10   /* HW radau5.f NIT = 7; the trapezoid's
                                  * ringing modes contract more slowly */
#define NEWTON_MAXIT_FIXED  30   /* fixed step: no smaller step to retry with */

typedef struct {
  const ThetaTable *tab;
  guint n;
  HydJac *J;
  HydLinSolver *lu;
  double lu_shift;
  gboolean lu_valid;
  double faccon;         /* last contraction factor θ/(1 − θ) (radau5 FACCON) */
  double *block;
  double *fx, *z, *dz, *ycur, *fcur, *e, *sk;
  /* The last attempt, for the continuous extension. */
  double t, h;
  double *y0, *y1, *f0, *f1;
} ThetaWork;

static gpointer
theta_workspace_new (const HydOdeMethod *method, guint n)
{
  ThetaWork *w = g_new0 (ThetaWork, 1);
  double *p;

  w->tab = method->data;
  w->n = n;
  w->faccon = 1.0;
  w->block = g_new0 (double, (gsize) n * 11);
  p = w->block;
  w->fx = p; p += n;
  w->z = p; p += n;
  w->dz = p; p += n;
  w->ycur = p; p += n;
  w->fcur = p; p += n;
  w->e = p; p += n;
  w->sk = p; p += n;
  w->y0 = p; p += n;
  w->y1 = p; p += n;
  w->f0 = p; p += n;
  w->f1 = p;
  return w;
}

static void
theta_workspace_free (gpointer ws)
{
  ThetaWork *w = ws;

  if (w == NULL)
    return;
  hyd_jac_free (w->J);
  hyd_linsolver_free (w->lu);
  g_free (w->block);
  g_free (w);
}

static int
theta_prepare (gpointer ws, HydOdeDriver *d, double t, const double *y,
               const double *f0)
{
  ThetaWork *w = ws;

  if (w->J == NULL)
    {
      w->J = hyd_ode_driver_jac_new (d);
      w->lu = hyd_linsolver_new (w->J);
    }
  w->lu_valid = FALSE;
  return hyd_ode_driver_jacobian (d, t, y, f0, w->J,
                                  w->tab->trapezoid ? w->fx : NULL);
}

/* RMS of v/sk. */
static double
scaled_norm (const ThetaWork *w, const double *v)
{
  double sum = 0.0;

  for (guint i = 0; i < w->n; i++)
    {
      double q = v[i] / w->sk[i];
      sum += q * q;
    }
  return sqrt (sum / w->n);
}

static HydAttempt
theta_attempt (gpointer ws, HydOdeDriver *d, double t, const double *y,
               const double *f0, double h, double *y_new, double *err)
{
  ThetaWork *w = ws;
  const HydOdeOptions *o = hyd_ode_driver_options (d);
  HydOdeStats *st = hyd_ode_driver_stats (d);
  guint n = w->n;
  double theta = w->tab->theta;
  double hth = theta * h, h1 = (1.0 - theta) * h, shift = 1.0 / hth;
  gboolean fixed = o->fixed_step > 0.0;

  /* Newton scale (radau5 SCAL) and tolerance (FNEWT); in fixed-step mode
   * the tolerances may be absent, and rtol alone then sets the scale. */
  double rtol = o->rtol > 0.0 ? o->rtol : 1e-6;
  for (guint i = 0; i < n; i++)
    {
      double atol = o->atol != NULL ? o->atol[i] : rtol;
      w->sk[i] = MAX (atol + o->rtol * fabs (y[i]), 1e-300);
    }
  double fnewt = MAX (10.0 * DBL_EPSILON / rtol, MIN (0.03, sqrt (rtol)));

  if (!w->lu_valid || w->lu_shift != shift)
    {
      int info = hyd_linsolver_factor (w->lu, shift, w->J);
      st->lu++;
      if (info != 0)
        {
          w->lu_valid = FALSE;
          hyd_ode_driver_note_singular (d, info > 0 && (guint) info <= n
                                           ? info - 1 : -1);
          return HYD_ATTEMPT_SINGULAR;
        }
      w->lu_valid = TRUE;
      w->lu_shift = shift;
    }

  /* z = 0 to start: the first iteration is then the linearly implicit
   * (Rosenbrock) θ-step, safe however stiff the problem. */
  memset (w->z, 0, n * sizeof (double));
  double faccon = pow (MAX (w->faccon, DBL_EPSILON), 0.8);
  double dn_old = 0.0;
  int maxit = fixed ? NEWTON_MAXIT_FIXED : NEWTON_MAXIT;
  gboolean converged = FALSE;

  for (int k = 0; k < maxit && !converged; k++)
    {
      if (o->cancel != NULL && g_atomic_int_get (o->cancel) != 0)
        return HYD_ATTEMPT_DIVERGED;   /* the driver reports the cancellation */
      for (guint i = 0; i < n; i++)
        w->ycur[i] = y[i] + w->z[i];
      int rc = hyd_ode_driver_rhs (d, t + h, w->ycur, w->fcur);
      if (rc < 0)
        return HYD_ATTEMPT_FATAL;
      if (rc > 0)
        return HYD_ATTEMPT_RECOVERABLE;
      st->newton++;

      /* (I − θhJ)·Δz = h1·f0 + θh·f(y0 + z) − z, over θh */
      for (guint i = 0; i < n; i++)
        w->dz[i] = (h1 * f0[i] + hth * w->fcur[i] - w->z[i]) * shift;
      hyd_linsolver_solve (w->lu, w->dz);
      for (guint i = 0; i < n; i++)
        w->z[i] += w->dz[i];

      double dn = scaled_norm (w, w->dz);
      if (!isfinite (dn))
        break;
      if (k >= 1)
        {
          double thq = dn_old > 0.0 ? dn / dn_old : 0.0;
          if (thq >= 0.99)
            break;
          faccon = thq / (1.0 - thq);
          /* radau5: the contraction cannot reach FNEWT in the iterations
           * left (not with a fixed step: there is nothing else to try). */
          if (!fixed && faccon * dn * pow (thq, maxit - 1 - k) > fnewt)
            break;
        }
      if (faccon * dn <= fnewt)
        converged = TRUE;
      dn_old = dn;
    }
  w->faccon = converged ? faccon : 1.0;
  /* Adaptive: the driver halves h; fixed step: the run ends there
   * (no-convergence). */
  if (!converged)
    return HYD_ATTEMPT_DIVERGED;

  for (guint i = 0; i < n; i++)
    {
      y_new[i] = y[i] + w->z[i];
      w->f1[i] = (w->z[i] - h1 * f0[i]) * shift;
    }

  if (w->tab->trapezoid)
    {
      /* Milne device, Taylor-2 predictor, −(h/6)·(f1 − f0 − h·(J·f0 + f_t)),
       * filtered twice. Formed as written, a ringing stiff mode of
       * amplitude a makes it ≈ (z²/6)·a (z = hλ), and its rounding,
       * ε·(z²/6)·a, lands on the non-stiff components the filter leaves
       * alone: on E5 (z ≈ −2·10⁸, a ≈ 10⁻²⁴) that noise alone is of the
       * size of atol = 1.7·10⁻²⁴ and capped h near 2·10⁵ (ten million
       * steps). With −hJ = 2·(I − hJ/2) − 2·I the once-filtered estimate
       * is −(h/6)·((I − hJ/2)⁻¹·(f1 − 3·f0 − h·f_t) + 2·f0): the same
       * vector, no term larger than ≈ (|z|/3)·a. */
      for (guint i = 0; i < n; i++)
        w->e[i] = (w->f1[i] - 3.0 * f0[i] - h * w->fx[i]) * shift;
      hyd_linsolver_solve (w->lu, w->e);
      for (guint i = 0; i < n; i++)
        w->e[i] = -(h / 6.0) * (w->e[i] + 2.0 * f0[i]);
    }
  else
    {
      /* (h/2)·(f1 − f0) */
      for (guint i = 0; i < n; i++)
        w->e[i] = 0.5 * (w->z[i] - h * f0[i]);
    }
  /* Filter: (I − θhJ)⁻¹·e = ((1/θh)·I − J)⁻¹·e/(θh) */
  for (int k = w->tab->trapezoid ? 1 : 0; k < w->tab->n_filter; k++)
    {
      for (guint i = 0; i < n; i++)
        w->e[i] *= shift;
      hyd_linsolver_solve (w->lu, w->e);
    }
  *err = w->tab->err_scale * hyd_ode_driver_error_norm (d, y, y_new, w->e);

  w->t = t;
  w->h = h;
  memcpy (w->y0, y, n * sizeof (double));
  memcpy (w->y1, y_new, n * sizeof (double));
  memcpy (w->f0, f0, n * sizeof (double));
  return HYD_ATTEMPT_OK;
}

static void
theta_accept (gpointer ws, HydOdeDriver *d, double t_new, const double *y_new,
              const double *f_new)
{
  ThetaWork *w = ws;

  /* The driver's f at the new point, where it has one (not at b). */
  if (f_new != NULL)
    memcpy (w->f1, f_new, w->n * sizeof (double));
}

/* Cubic Hermite on (y0, f0, y1, f1). */
static int
theta_dense (gpointer ws, HydOdeDriver *d, double theta, double *y_out)
{
  ThetaWork *w = ws;
  double s1 = 1.0 - theta;
  double h00 = (1.0 + 2.0 * theta) * s1 * s1;
  double h10 = theta * s1 * s1;
  double h01 = theta * theta * (3.0 - 2.0 * theta);
  double h11 = -theta * theta * s1;

  for (guint k = 0; k < w->n; k++)
    y_out[k] = h00 * w->y0[k] + h10 * w->h * w->f0[k]
               + h01 * w->y1[k] + h11 * w->h * w->f1[k];
  return 0;
}

#define THETA_VTABLE                           \
  .workspace_new = theta_workspace_new,        \
  .workspace_free = theta_workspace_free,      \
  .prepare = theta_prepare,                    \
  .attempt = theta_attempt,                    \
  .dense = theta_dense,                        \
  .accept = theta_accept

static const HydOdeMethod trapezoid_method = {
  .info = {
    .id = "trapezoid",
    .family = "trapezoidal rule",
    .order = "2",
    .implicit = TRUE,
    .adaptive = TRUE,
    .multistep = FALSE,
    .notes = "A-stable, not L-stable: stiff modes ring (Esqué 2008, Fig. 4.4); "
             "Milne-device error estimate; Newton iteration",
  },
  .data = &trapezoid_table,
  .order = 2,
  .error_order = 3.0,
  THETA_VTABLE,
};

static const HydOdeMethod backward_euler_method = {
  .info = {
    .id = "backward_euler",
    .family = "implicit Euler",
    .order = "1",
    .implicit = TRUE,
    .adaptive = TRUE,
    .multistep = FALSE,
    .notes = "L-stable; error estimate (h/2)·(f1 − f0), aimed at 1/30 of "
             "the tolerance; Newton iteration",
  },
  .data = &backward_euler_table,
  /* The driver's initial-step exponent, not the method's order: see
   * hyd-bdf.c (with 1 a steep jump gives h below the time resolution). */
  .order = 2,
  .error_order = 2.0,
  THETA_VTABLE,
};

static const HydOdeMethod *const theta_members[] = {
  &trapezoid_method,
  &backward_euler_method,
};

const HydOdeMethod *const *
hyd_ode_family_theta (guint *n)
{
  *n = G_N_ELEMENTS (theta_members);
  return theta_members;
}
