/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-radau5.c — RADAU5 of Hairer & Wanner (Solving ODEs II, §IV.8, and
 * their radau5.f): the 3-stage Radau IIA collocation method of order 5,
 * solved by a simplified Newton iteration on the transformed system.
 *
 * With Z_i = Y_i − y (the stage increments) the collocation equations are
 * Z = h·(A ⊗ I)·F(Z). T⁻¹A⁻¹T = diag(γ, [[α, −β], [β, α]]), so with
 * W = (T⁻¹ ⊗ I)·Z one Newton step needs one real LU of (γ/h)·I − J and one
 * complex LU of ((α + iβ)/h)·I − J instead of a 3n×3n one. The Jacobian is
 * kept over steps while the iteration converges fast (HW's θ ≤ 0.001), the
 * LU over steps while the step size stays (h_new/h ∈ [1, 1.2]).
 *
 * Error estimate (HW ESTRAD): err = ((γ/h)·I − J)⁻¹·(f(t, y) + (1/h)·Σ e_i·Z_i),
 * filtered once more through the same LU after a rejection or on the first
 * step. As in radau5.f, the user's tolerances are transformed,
 * rtol' = 0.1·rtol^(2/3), because this estimate is of order 3 (h⁴) while
 * the method is of order 5: the global error then follows rtol. Step-size
 * control: HW's with Gustafsson's predictive controller (propose hook).
 * Dense output: the collocation polynomial (HW CONTR5).
 *
 * One deliberate departure from radau5.f (which this code otherwise follows
 * step for step: with the original starting values it reproduces radau5.f's
 * counts of steps, f, J, LU and Newton iterations exactly on the smooth test
 * problem): the previous collocation polynomial is extrapolated as starting
 * value only for a step no longer than the previous one; otherwise Newton
 * starts from zero (radau5.f's IWORK(4) option) and its contraction rate is
 * measured from the second increment on. See radau5_attempt for why. */
#include "hyd-ode-private.h"

#include <math.h>
#include <string.h>

/* radau5.f defaults (WORK(1..9), IWORK(3)). */
#define R5_UROUND 1e-16      /* the rounding unit radau5.f assumes */
#define R5_SAFE   0.9        /* safety factor of the step-size prediction */
#define R5_THET   0.001      /* θ below this: keep the Jacobian */
#define R5_NIT    7          /* Newton iterations per attempt */
#define R5_NIT_FIXED 20      /* fixed step: h cannot shrink, iterate longer */
#define R5_QUOT1  1.0        /* h_new/h in [QUOT1, QUOT2]: keep h and the LU */
#define R5_QUOT2  1.2
#define R5_FACL   5.0        /* 1/FACL ≤ h_new/h ≤ 1/FACR: 0.2 … 8 */
#define R5_FACR   0.125

/* The constants of radau5.f RADCOR, computed as there (√6, ∛81, ∛9). */
typedef struct {
  double c1, c2, c1m1, c2m1, c1mc2;
  double dd1, dd2, dd3;      /* error-estimate weights e_i/γ₀ */
  double u1, alph, beta;     /* eigenvalues of A⁻¹: γ and α ± iβ */
  double t[3][3], ti[3][3];  /* T and T⁻¹ */
} Radau5Consts;

static const Radau5Consts *
radau5_consts (void)
{
  static Radau5Consts k;
  static gsize done;

  if (g_once_init_enter (&done))
    {
      double sq6 = sqrt (6.0);
      double cb81 = cbrt (81.0), cb9 = cbrt (9.0);

      k.c1 = (4.0 - sq6) / 10.0;
      k.c2 = (4.0 + sq6) / 10.0;
      k.c1m1 = k.c1 - 1.0;
      k.c2m1 = k.c2 - 1.0;
      k.c1mc2 = k.c1 - k.c2;
      k.dd1 = -(13.0 + 7.0 * sq6) / 3.0;
      k.dd2 = (-13.0 + 7.0 * sq6) / 3.0;
      k.dd3 = -1.0 / 3.0;
      double u1 = (6.0 + cb81 - cb9) / 30.0;
      double alph = (12.0 - cb81 + cb9) / 60.0;
      double beta = (cb81 + cb9) * sqrt (3.0) / 60.0;
      double cno = alph * alph + beta * beta;
      k.u1 = 1.0 / u1;
      k.alph = alph / cno;
      k.beta = beta / cno;
      /* T and T⁻¹ of radau5.f (T32 = 1, T33 = 0). */
      static const double t[3][3] = {
        { 9.1232394870892942792e-02, -0.14125529502095420843,
          -3.0029194105147424492e-02 },
        { 0.24171793270710701896, 0.20412935229379993199,
          0.38294211275726193779 },
        { 0.96604818261509293619, 1.0, 0.0 },
      };
      static const double ti[3][3] = {
        { 4.3255798900631553510, 0.33919925181580986954,
          0.54177053993587487119 },
        { -4.1787185915519047273, -0.32768282076106238708,
          0.47662355450055045196 },
        { -0.50287263494578687595, 2.5719269498556054292,
          -0.59603920482822492497 },
      };
      memcpy (k.t, t, sizeof t);
      memcpy (k.ti, ti, sizeof ti);
      g_once_init_leave (&done, 1);
    }
  return &k;
}

typedef struct {
  const Radau5Consts *k;
  guint n;

  HydJac *J;
  HydLinSolver *lu;
  gboolean jac_here;       /* J was evaluated at the current point (CALJAC) */
  gboolean need_jac;       /* the next point needs a fresh J */
  gboolean lu_valid;       /* the factors belong to J and h_lu */
  double h_lu;

  /* Tolerances (radau5.f): scal_i = q·(atol_i + rtol·|y_i|). */
  double tol_q;
  double fnewt;            /* Newton stopping criterion */
  double *scal;

  double *z1, *z2, *z3;    /* stage increments Z_i */
  double *w1, *w2, *w3;    /* transformed, W = T⁻¹Z */
  double *ystage, *fstage, *ferr, *e;

  /* History of the interval. */
  gboolean first;          /* no step accepted since the last restart */
  guint attempts;          /* from the current point */
  double h_try;            /* the last successful attempt's step */
  double h_old;            /* the last accepted step */
  double faccon, theta;    /* Newton contraction (radau5.f) */
  guint newt;              /* iterations of the last attempt */
  double newton_fac;       /* > 0: the last attempt's Newton iteration was
                            * too slow; the step factor radau5.f chooses */
  guint n_accepted;        /* for Gustafsson's controller */
  double h_acc, err_acc;

  /* Collocation polynomial of the last successful attempt (dense output)
   * and of the last accepted step (starting values of the next one). */
  double *cont_try;        /* [4n] */
  double *cont;            /* [4n] */
} Radau5Work;

static gpointer
radau5_workspace_new (const HydOdeMethod *method, guint n)
{
  Radau5Work *w = g_new0 (Radau5Work, 1);

  w->k = radau5_consts ();
  w->n = n;
  w->scal = g_new0 (double, n);
  w->z1 = g_new0 (double, n);
  w->z2 = g_new0 (double, n);
  w->z3 = g_new0 (double, n);
  w->w1 = g_new0 (double, n);
  w->w2 = g_new0 (double, n);
  w->w3 = g_new0 (double, n);
  w->ystage = g_new0 (double, n);
  w->fstage = g_new0 (double, n);
  w->ferr = g_new0 (double, n);
  w->e = g_new0 (double, n);
  w->cont_try = g_new0 (double, 4 * (gsize) n);
  w->cont = g_new0 (double, 4 * (gsize) n);
  w->faccon = 1.0;
  w->first = TRUE;
  w->need_jac = TRUE;
  return w;
}

static void
radau5_workspace_free (gpointer ws)
{
  Radau5Work *w = ws;

  if (w == NULL)
    return;
  hyd_jac_free (w->J);
  hyd_linsolver_free (w->lu);
  g_free (w->scal);
  g_free (w->z1);
  g_free (w->z2);
  g_free (w->z3);
  g_free (w->w1);
  g_free (w->w2);
  g_free (w->w3);
  g_free (w->ystage);
  g_free (w->fstage);
  g_free (w->ferr);
  g_free (w->e);
  g_free (w->cont_try);
  g_free (w->cont);
  g_free (w);
}

/* radau5.f transforms the tolerances so that the order-3 estimate gives a
 * global error about rtol: rtol' = 0.1·rtol^(2/3), atol' = atol·rtol'/rtol,
 * i.e. every scale is multiplied by q = 0.1·rtol^(−1/3). Pure absolute
 * tolerances (rtol = 0) take the smallest atol as the reference. */
static void
radau5_setup_tolerances (Radau5Work *w, const HydOdeOptions *o)
{
  double tol = o->rtol;

  if (!(tol > 0.0) && o->atol != NULL)
    {
      tol = INFINITY;
      for (guint i = 0; i < w->n; i++)
        if (o->atol[i] > 0.0)
          tol = MIN (tol, o->atol[i]);
    }
  if (!(tol > 0.0) || !isfinite (tol))
    tol = 1e-6;
  tol = MAX (tol, 10.0 * R5_UROUND);
  double tolst = 0.1 * pow (tol, 2.0 / 3.0);
  w->tol_q = tolst / tol;
  w->fnewt = MAX (10.0 * R5_UROUND / tolst, MIN (0.03, sqrt (tolst)));
}

static void
radau5_reset (gpointer ws, HydOdeDriver *d, double t, const double *y,
              const double *f0)
{
  Radau5Work *w = ws;

  /* A discontinuity: restart as radau5.f does at its first step. */
  radau5_setup_tolerances (w, hyd_ode_driver_options (d));
  w->first = TRUE;
  w->need_jac = TRUE;
  w->attempts = 0;
  w->faccon = 1.0;
  w->theta = 1.0;
  w->newton_fac = 0.0;
  w->n_accepted = 0;
  w->h_acc = 0.0;
  w->err_acc = 0.0;
}

static int
radau5_fresh_jacobian (Radau5Work *w, HydOdeDriver *d, double t,
                       const double *y, const double *f0)
{
  int rc = hyd_ode_driver_jacobian (d, t, y, f0, w->J, NULL);

  /* A failed evaluation may have left J half-written. */
  w->lu_valid = FALSE;
  w->jac_here = rc == 0;
  w->need_jac = rc != 0;
  return rc;
}

static int
radau5_prepare (gpointer ws, HydOdeDriver *d, double t, const double *y,
                const double *f0)
{
  Radau5Work *w = ws;

  if (w->J == NULL)
    {
      w->J = hyd_ode_driver_jac_new (d);
      w->lu = hyd_linsolver_new (w->J);
    }
  w->attempts = 0;
  /* radau5.f: after an accepted step the Jacobian is recomputed unless the
   * Newton iteration converged fast (θ ≤ THET, e.g. in one iteration). */
  if (w->need_jac || w->theta > R5_THET)
    return radau5_fresh_jacobian (w, d, t, y, f0);
  w->jac_here = FALSE;
  return 0;
}

/* Weighted RMS of a vector with the transformed scales (radau5.f SCAL). */
static inline double
radau5_sumsq (const Radau5Work *w, const double *v)
{
  double s = 0.0;

  for (guint i = 0; i < w->n; i++)
    {
      double q = v[i] / w->scal[i];
      s += q * q;
    }
  return s;
}

/* The error estimate of radau5.f ESTRAD; e ← the filtered error vector. */
static HydAttempt
radau5_estimate (Radau5Work *w, HydOdeDriver *d, double t, const double *y,
                 const double *f0, double h, gboolean refilter, double *err)
{
  const Radau5Consts *k = w->k;
  guint n = w->n;
  double hee1 = k->dd1 / h, hee2 = k->dd2 / h, hee3 = k->dd3 / h;

  for (guint i = 0; i < n; i++)
    {
      w->ferr[i] = hee1 * w->z1[i] + hee2 * w->z2[i] + hee3 * w->z3[i];
      w->e[i] = w->ferr[i] + f0[i];
    }
  hyd_linsolver_solve (w->lu, w->e);
  /* The driver's norm with y0 = y1 = y has radau5.f's scales atol + rtol·|y|
   * (and remembers the worst state); q makes them the transformed ones. */
  *err = MAX (hyd_ode_driver_error_norm (d, y, y, w->e) / w->tol_q, 1e-10);
  if (*err < 1.0 || !refilter)
    return HYD_ATTEMPT_OK;

  /* First step or after a rejection: a stiff component may make the first
   * estimate far too large; filter it once more (HW IV.8, (8.20)). */
  for (guint i = 0; i < n; i++)
    w->ystage[i] = y[i] + w->e[i];
  int rc = hyd_ode_driver_rhs (d, t, w->ystage, w->fstage);
  if (rc < 0)
    return HYD_ATTEMPT_FATAL;
  if (rc > 0)
    return HYD_ATTEMPT_RECOVERABLE;
  for (guint i = 0; i < n; i++)
    w->e[i] = w->fstage[i] + w->ferr[i];
  hyd_linsolver_solve (w->lu, w->e);
  *err = MAX (hyd_ode_driver_error_norm (d, y, y, w->e) / w->tol_q, 1e-10);
  return HYD_ATTEMPT_OK;
}

/* The collocation polynomial through y at s = −1 and y + Z_i at s = c_i − 1
 * (s = (t − t_new)/h), in Newton form (radau5.f after an accepted step). */
static void
radau5_build_cont (Radau5Work *w, const double *y_new)
{
  const Radau5Consts *k = w->k;
  guint n = w->n;
  double *c0 = w->cont_try, *c1 = c0 + n, *c2 = c1 + n, *c3 = c2 + n;

  for (guint i = 0; i < n; i++)
    {
      double z1 = w->z1[i], z2 = w->z2[i], z3 = w->z3[i];
      c0[i] = y_new[i];
      c1[i] = (z2 - z3) / k->c2m1;
      double ak = (z1 - z2) / k->c1mc2;
      double acont3 = z1 / k->c1;
      acont3 = (ak - acont3) / k->c2;
      c2[i] = (ak - c1[i]) / k->c1m1;
      c3[i] = c2[i] - acont3;
    }
}

static HydAttempt
radau5_attempt (gpointer ws, HydOdeDriver *d, double t, const double *y,
                const double *f0, double h, double *y_new, double *err)
{
  Radau5Work *w = ws;
  const Radau5Consts *k = w->k;
  const HydOdeOptions *o = hyd_ode_driver_options (d);
  HydOdeStats *st = hyd_ode_driver_stats (d);
  gboolean fixed = o->fixed_step > 0.0;
  guint n = w->n, nit = fixed ? R5_NIT_FIXED : R5_NIT;
  int rc;

  w->newton_fac = 0.0;
  *err = 0.0;

  /* radau5.f: a retry from the same point (after any rejection) uses a
   * Jacobian evaluated there. */
  if (w->attempts > 0 && !w->jac_here)
    {
      rc = radau5_fresh_jacobian (w, d, t, y, f0);
      if (rc < 0)
        return HYD_ATTEMPT_FATAL;
      if (rc > 0)
        return HYD_ATTEMPT_RECOVERABLE;
    }
  gboolean after_reject = w->attempts > 0;
  w->attempts++;

  double fac1 = k->u1 / h, alphn = k->alph / h, betan = k->beta / h;
  /* A new LU for a new h; at constant step h = t_new − t varies in its
   * last bits, which only the residual (exact in h) needs to see. */
  if (!w->lu_valid || fabs (h - w->h_lu) > 1e-12 * h)
    {
      st->lu++;   /* one for both, as radau5.f's NDEC */
      w->lu_valid = FALSE;
      int info = hyd_linsolver_factor (w->lu, fac1, w->J);
      if (info == 0)
        info = hyd_linsolver_factor_complex (w->lu, alphn, betan, w->J);
      if (info != 0)
        {
          hyd_ode_driver_note_singular (d, info > 0 && (guint) info <= n ? info - 1 : -1);
          return HYD_ATTEMPT_SINGULAR;
        }
      w->lu_valid = TRUE;
      w->h_lu = h;
    }

  for (guint i = 0; i < n; i++)
    {
      double sk = (o->atol != NULL ? o->atol[i] : o->rtol > 0.0 ? o->rtol : 1e-6)
                  + o->rtol * fabs (y[i]);
      w->scal[i] = MAX (sk, 1e-300) * w->tol_q;
    }

  /* Starting values: the last accepted step's collocation polynomial,
   * extrapolated (radau5.f), but at most one step length ahead; zero after
   * a restart and for a longer step (radau5.f's IWORK(4) alternative).
   * Extrapolated further, the cubic can put Newton in the basin of a
   * spurious root of the collocation equations: on E5 (atol = rtol)
   * radau5.f itself then drives the near-zero species negative, where the
   * ODE is unstable, and ends in a step-size underflow at every tolerance;
   * ROBER at rtol 1e-4…3e-6 ends with no correct digit. */
  gboolean zero_start = w->first || h > w->h_old;
  if (zero_start)
    {
      memset (w->z1, 0, n * sizeof (double));
      memset (w->z2, 0, n * sizeof (double));
      memset (w->z3, 0, n * sizeof (double));
      memset (w->w1, 0, n * sizeof (double));
      memset (w->w2, 0, n * sizeof (double));
      memset (w->w3, 0, n * sizeof (double));
    }
  else
    {
      const double *a1 = w->cont + n, *a2 = a1 + n, *a3 = a2 + n;
      double c3q = h / w->h_old, c1q = k->c1 * c3q, c2q = k->c2 * c3q;
      for (guint i = 0; i < n; i++)
        {
          double z1 = c1q * (a1[i] + (c1q - k->c2m1) * (a2[i] + (c1q - k->c1m1) * a3[i]));
          double z2 = c2q * (a1[i] + (c2q - k->c2m1) * (a2[i] + (c2q - k->c1m1) * a3[i]));
          double z3 = c3q * (a1[i] + (c3q - k->c2m1) * (a2[i] + (c3q - k->c1m1) * a3[i]));
          w->z1[i] = z1;
          w->z2[i] = z2;
          w->z3[i] = z3;
          w->w1[i] = k->ti[0][0] * z1 + k->ti[0][1] * z2 + k->ti[0][2] * z3;
          w->w2[i] = k->ti[1][0] * z1 + k->ti[1][1] * z2 + k->ti[1][2] * z3;
          w->w3[i] = k->ti[2][0] * z1 + k->ti[2][1] * z2 + k->ti[2][2] * z3;
        }
    }

  /* The simplified Newton iteration (radau5.f loop 40). */
  double dynold = 0.0, thqold = 0.0;
  const double ct[3] = { k->c1, k->c2, 1.0 };
  w->newt = 0;
  w->faccon = pow (MAX (w->faccon, R5_UROUND), 0.8);
  w->theta = fabs (R5_THET);
  for (;;)
    {
      if (w->newt >= nit)
        return HYD_ATTEMPT_DIVERGED;
      if (o->cancel != NULL && g_atomic_int_get (o->cancel) != 0)
        return HYD_ATTEMPT_DIVERGED;   /* the driver reports the cancellation */

      /* F(Z) at the three stages, then T⁻¹ applied to it. */
      double *z[3] = { w->z1, w->z2, w->z3 };
      for (guint s = 0; s < 3; s++)
        {
          for (guint i = 0; i < n; i++)
            w->ystage[i] = y[i] + z[s][i];
          rc = hyd_ode_driver_rhs (d, t + ct[s] * h, w->ystage, w->fstage);
          if (rc < 0)
            return HYD_ATTEMPT_FATAL;
          if (rc > 0)
            return HYD_ATTEMPT_RECOVERABLE;
          /* z[s] is free now that its stage is evaluated: keep F there. */
          memcpy (z[s], w->fstage, n * sizeof (double));
        }
      for (guint i = 0; i < n; i++)
        {
          double a1 = w->z1[i], a2 = w->z2[i], a3 = w->z3[i];
          double r1 = k->ti[0][0] * a1 + k->ti[0][1] * a2 + k->ti[0][2] * a3;
          double r2 = k->ti[1][0] * a1 + k->ti[1][1] * a2 + k->ti[1][2] * a3;
          double r3 = k->ti[2][0] * a1 + k->ti[2][1] * a2 + k->ti[2][2] * a3;
          /* radau5.f SLVRAD: right-hand sides of the real and the complex
           * block, (γ/h)·ΔW1 − J·ΔW1 = r1 − (γ/h)·W1, and likewise. */
          double s2 = -w->w2[i], s3 = -w->w3[i];
          w->z1[i] = r1 - w->w1[i] * fac1;
          w->z2[i] = r2 + s2 * alphn - s3 * betan;
          w->z3[i] = r3 + s3 * alphn + s2 * betan;
        }
      hyd_linsolver_solve (w->lu, w->z1);
      hyd_linsolver_solve_complex (w->lu, w->z2, w->z3);
      w->newt++;
      st->newton++;

      double dyno = sqrt ((radau5_sumsq (w, w->z1) + radau5_sumsq (w, w->z2)
                           + radau5_sumsq (w, w->z3)) / (3.0 * n));
      if (!isfinite (dyno))
        return HYD_ATTEMPT_DIVERGED;

      /* Bad convergence or too many iterations ahead (radau5.f). From zero
       * starting values the first increment takes out the linear part of
       * the step and shrinks the second one far more than the iteration
       * contracts later: the contraction rate θ is measured from the second
       * increment on, else the iteration stops early (HIRES then loses two
       * digits). */
      guint first_ratio = zero_start ? 3 : 2;
      if (zero_start && w->newt == 2 && dyno >= 0.99 * dynold)
        return HYD_ATTEMPT_DIVERGED;   /* even the flattering ratio grows */
      if (w->newt >= first_ratio && w->newt < nit)
        {
          double thq = dyno / dynold;
          w->theta = w->newt == first_ratio ? thq : sqrt (thq * thqold);
          thqold = thq;
          if (w->theta < 0.99)
            {
              w->faccon = w->theta / (1.0 - w->theta);
              double dyth = w->faccon * dyno
                            * pow (w->theta, (double) (nit - 1 - w->newt)) / w->fnewt;
              if (dyth >= 1.0 && !fixed)
                {
                  /* It would not converge within NIT iterations: retry
                   * with the smaller step radau5.f predicts from θ. */
                  double qnewt = MAX (1e-4, MIN (20.0, dyth));
                  w->newton_fac = 0.8 * pow (qnewt, -1.0 / (4.0 + nit - 1 - w->newt));
                  memcpy (y_new, y, n * sizeof (double));
                  /* Reported as a rejection; propose returns newton_fac. */
                  *err = 1.0 / w->newton_fac;
                  return HYD_ATTEMPT_OK;
                }
            }
          else
            return HYD_ATTEMPT_DIVERGED;
        }
      dynold = MAX (dyno, R5_UROUND);

      /* W += ΔW, Z = T·W (T32 = 1, T33 = 0). */
      for (guint i = 0; i < n; i++)
        {
          double f1 = w->w1[i] + w->z1[i];
          double f2 = w->w2[i] + w->z2[i];
          double f3 = w->w3[i] + w->z3[i];
          w->w1[i] = f1;
          w->w2[i] = f2;
          w->w3[i] = f3;
          w->z1[i] = k->t[0][0] * f1 + k->t[0][1] * f2 + k->t[0][2] * f3;
          w->z2[i] = k->t[1][0] * f1 + k->t[1][1] * f2 + k->t[1][2] * f3;
          w->z3[i] = k->t[2][0] * f1 + f2;
        }
      /* Converged when the estimated remaining error θ/(1 − θ)·‖ΔW‖ is
       * below FNEWT. Without a θ yet (the second increment from zero), when
       * ‖ΔW‖ ≤ FNEWT/10: the estimate then holds for any θ ≤ 0.9 (a
       * linear problem converges here). */
      if (zero_start && w->newt < first_ratio)
        {
          if (w->newt == first_ratio - 1 && dyno <= 0.1 * w->fnewt)
            break;
        }
      else if (w->faccon * dyno <= w->fnewt)
        break;
    }

  if (!fixed)
    {
      HydAttempt res = radau5_estimate (w, d, t, y, f0, h,
                                        w->first || after_reject, err);
      if (res != HYD_ATTEMPT_OK)
        return res;
    }

  /* Radau IIA is stiffly accurate: y_new = y + Z3. */
  for (guint i = 0; i < n; i++)
    y_new[i] = y[i] + w->z3[i];
  radau5_build_cont (w, y_new);
  w->h_try = h;
  return HYD_ATTEMPT_OK;
}

/* HW radau5.f step-size selection with Gustafsson's predictive controller. */
static double
radau5_propose (gpointer ws, HydOdeDriver *d, double h, double err,
                gboolean accepted, gboolean after_reject)
{
  Radau5Work *w = ws;

  if (w->newton_fac > 0.0)
    {
      double fac = w->newton_fac;
      w->newton_fac = 0.0;
      return fac;
    }

  /* The more Newton iterations, the more cautious (CFAC). */
  double cfac = R5_SAFE * (1 + 2 * R5_NIT);
  double fac = MIN (R5_SAFE, cfac / (w->newt + 2 * R5_NIT));
  double quot = MAX (R5_FACR, MIN (R5_FACL, pow (err, 0.25) / fac));

  if (!accepted)
    return w->first ? 0.1 : 1.0 / quot;

  w->n_accepted++;
  if (w->n_accepted > 1)
    {
      double facgus = (w->h_acc / h) * pow (err * err / w->err_acc, 0.25) / R5_SAFE;
      facgus = MAX (R5_FACR, MIN (R5_FACL, facgus));
      quot = MAX (quot, facgus);
    }
  w->h_acc = h;
  w->err_acc = MAX (1e-2, err);

  double qt = 1.0 / quot;
  if (after_reject)
    qt = MIN (qt, 1.0);
  /* A small change is not worth a new LU when the Newton iteration
   * converges fast: keep h (radau5.f QUOT1, QUOT2). */
  if (w->theta <= R5_THET && qt >= R5_QUOT1 && qt <= R5_QUOT2)
    return 1.0;
  return qt;
}

static void
radau5_accept (gpointer ws, HydOdeDriver *d, double t_new, const double *y_new,
               const double *f_new)
{
  Radau5Work *w = ws;

  w->first = FALSE;
  w->h_old = w->h_try;
  memcpy (w->cont, w->cont_try, 4 * (gsize) w->n * sizeof (double));
}

static int
radau5_dense (gpointer ws, HydOdeDriver *d, double theta, double *y_out)
{
  Radau5Work *w = ws;
  const Radau5Consts *k = w->k;
  guint n = w->n;
  const double *c0 = w->cont_try, *c1 = c0 + n, *c2 = c1 + n, *c3 = c2 + n;
  double s = theta - 1.0;   /* HW CONTR5: s = (t − t_new)/h */

  for (guint i = 0; i < n; i++)
    y_out[i] = c0[i] + s * (c1[i] + (s - k->c2m1) * (c2[i] + (s - k->c1m1) * c3[i]));
  return 0;
}

static const HydOdeMethod radau5_method = {
  .info = {
    .id = "radau5",
    .family = "implicit RK, Radau IIA, 3 stages",
    .order = "5",
    .implicit = TRUE,
    .adaptive = TRUE,
    .multistep = FALSE,
    .notes = "Hairer–Wanner RADAU5: simplified Newton on the transformed real "
             "and complex systems, HW error estimate and step control "
             "(Gustafsson), collocation dense output; L-stable, stiffly "
             "accurate",
  },
  .order = 5,
  .error_order = 4.0,
  .workspace_new = radau5_workspace_new,
  .workspace_free = radau5_workspace_free,
  .prepare = radau5_prepare,
  .attempt = radau5_attempt,
  .dense = radau5_dense,
  .reset = radau5_reset,
  .propose = radau5_propose,
  .accept = radau5_accept,
};

static const HydOdeMethod *const radau5_members[] = {
  &radau5_method,
};

const HydOdeMethod *const *
hyd_ode_family_radau5 (guint *n)
{
  *n = G_N_ELEMENTS (radau5_members);
  return radau5_members;
}
