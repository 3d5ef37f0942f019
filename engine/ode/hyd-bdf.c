/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-bdf.c — `bdf`: variable-order (1–5), variable-step BDF (Gear), the
 * method of HASP (HASP thesis, Bath) and of CVODE/DASSL.
 *
 * The fixed-leading-coefficient form on a Nordsieck history, as CVODE
 * (Hindmarsh et al., ACM TOMS 31 (2005) 363; Jackson & Sacks-Davis, ACM TOMS
 * 6 (1980) 295; Byrne & Hindmarsh, ACM TOMS 1 (1975) 71). The history at t_n
 * is z_n = [y_n, h·y'_n, …, h^q·y^(q)_n/q!] for the step h, and a step is
 *
 *   predictor  z_n(0) = P·z_{n−1}            (Pascal triangle)
 *   corrector  z_n = z_n(0) + ℓ·Δ,  Δ the root of
 *              Δ − γ·f(t_n, y_n(0) + Δ) + z_n(0)[1]/ℓ_1 = 0,   γ = h/ℓ_1,
 *
 * with ℓ from the last q step sizes, so a change of step size is a
 * rescaling z[j] ← η^j·z[j] (cvRescale) and a change of order an adjustment
 * of the columns (cvIncreaseBDF / cvDecreaseBDF). The corrector is solved by
 * simplified Newton on I − γJ, with J at a step's start (CVODE takes the
 * predicted point; f is known at the start). J is kept over many steps and
 * renewed after a convergence failure, when the iteration converges
 * slowly, at a discontinuity or after MSBJ steps; the LU is renewed when γ
 * (step or order) changed by more than DGMAX, after any failure, or after
 * MSBP steps.
 *
 * The local error is tq[2]·‖Δ‖ (the predictor–corrector difference). After
 * every q + 1 steps orders q − 1 and q + 1 are judged as well, from ‖z_n[q]‖
 * and from Δ_n − c·Δ_{n−1}, and the order with the largest admissible step
 * is taken (cvPrepareNextStep). Every integration interval (t0, each
 * breakpoint or event) restarts at order 1: a breakpoint is a discontinuity
 * and the history before it describes another right-hand side. Dense output
 * is the history's interpolating polynomial, Σ z_n[j]·((t − t_n)/h)^j.
 *
 * Two additions to CVODE: the local error is held at a tenth of the
 * tolerance (TOL_SCALE), and a step that flips the sign of a component
 * within the tolerance of zero is redone at order 1
 * (unresolved_sign_change); without the latter ROBER and E5 blow up at
 * atol = rtol, as they do with CVODE.
 *
 * Constants and formulas follow cvode.c (SUNDIALS 6); the driver
 * (hyd-ode.c) asks for the attempts, and this file's own controller
 * (`propose`) returns h_next/h and picks the order. */
#include "hyd-ode-private.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define QMAX 5

/* cvode.c, cvode_ls.c */
#define THRESH    1.5      /* a smaller gain leaves h and q unchanged */
#define ETAMX1    10000.0  /* the largest growth after the first step */
#define ETAMX2    10.0     /* … after the others */
#define ETAMXF    0.2      /* after two error-test failures in one step */
#define ETAMIN    0.1
#define ADDON     1e-6
#define BIAS1     6.0      /* order q − 1 */
#define BIAS2     6.0      /* order q */
#define BIAS3     10.0     /* order q + 1 */
#define MXNEF1    3        /* error failures before the order is forced down */
#define SMALL_NEF 2
#define LONG_WAIT 10       /* steps at order 1 after a restart of the history */
#define DGMAX     0.3      /* |γ/γ_LU − 1| beyond it: a new LU */
#define MSBP      20       /* steps between LUs */
#define MSBJ      50       /* steps between Jacobians */
#define CORTES    0.1      /* Newton tolerance, relative to the error test */
#define CRDOWN    0.3      /* convergence-rate memory */
#define RDIV      2.0      /* divergence: a correction twice the last */
#define MAXCOR    3        /* Newton iterations per attempt */
/* Not CVODE: a rate above this renews J for the next step (“converging
 * slowly”), before the slowness turns into failures. */
#define CRATE_SLOW 0.6
/* Not CVODE: the local error is held at a tenth of the requested tolerance
 * (the error weights are 10/(atol + rtol·|y|)). With CVODE's own setting
 * the global error is 10–100 times the tolerance and varies at random with
 * the history: OREGO at rtol = atol = 1e-6 ends with mescd 3.4 … 4.8
 * depending on the first step size alone (measured over twelve h0); held
 * at a tenth it is 4.6 … 6.8, every test-set problem ≥ 4.6, for about a
 * third more steps. */
#define TOL_SCALE 10.0

/* Test mode (hyd_bdf_method_pinned_new): order and step pinned. The step
 * grows to the pinned one by at most this factor per step: the
 * fixed-leading-coefficient BDF4/5 are not zero-stable under repeated
 * doubling (measured: the history blows up within ten doublings), 1.1 is
 * harmless. */
#define PIN_RAMP 1.1

typedef struct {
  int order;
  double h;
} BdfPin;

typedef struct {
  HydOdeMethod method;   /* first: the method pointer is the allocation */
  BdfPin pin;
} BdfPinnedMethod;

typedef enum {
  NEWTON_CONVERGED,
  NEWTON_FAILED,
  NEWTON_RECOVERABLE,
  NEWTON_FATAL,
  NEWTON_CANCELLED,
} NewtonResult;

typedef struct {
  const BdfPin *pin;     /* NULL: the solver as users see it */
  guint n;
  double *block;         /* all vectors below */

  /* The Nordsieck history at the last accepted point, scaled to hscale. */
  double *zn[QMAX + 1];
  /* The attempted step's array: predicted, then corrected. */
  double *znew[QMAX + 1];
  /* Δ of an earlier step, for the error at order q + 1 and for the new
   * column when the order rises (CVODE keeps it in zn[qmax]). */
  double *zsave;
  double *acor;          /* Δ of the attempt */
  double *ftemp, *x;     /* Newton work */
  double *wt;            /* TOL_SCALE/(atol + rtol·|y|) at the step's start */
  double *y0, *f0;       /* the step's start */

  int q;                 /* current order */
  int qprime;            /* order of the next attempt (changed there) */
  int qwait;             /* steps before an order change is considered */
  double hscale;         /* the step the history is scaled to */
  double tau[QMAX + 2];  /* tau[1..q]: the last step sizes, tau[1] newest */
  double l[QMAX + 1];    /* ℓ of the attempt */
  double tq[6];          /* tq[1..5]: CVODE's test quantities */
  double saved_tq5;
  double etamax;
  guint64 nst;           /* accepted steps since the interval started */
  int nef;               /* error-test failures in the current step */

  /* The last successful attempt, for propose, dense and accept. */
  gboolean have_try;
  gboolean dense_in_zn;  /* accept has moved it into zn */
  double h_try, dsm;
  int q_try;

  /* propose's decisions for accept */
  int qprime_next, qwait_next;
  gboolean save_acor, store_increase;

  /* Simplified Newton */
  HydJac *J;
  HydLinSolver *lu;
  double t0;             /* the step's start, where J is evaluated */
  gboolean jac_valid;    /* J belongs to this interval */
  gboolean jac_here;     /* J was evaluated at the step's start */
  gboolean lu_valid;
  gboolean force_setup;  /* a new LU for the next attempt */
  gboolean force_jac;    /* and a new J */
  guint64 nst_lu, nst_jac;
  double gammap;         /* γ of the LU */
  double crate;          /* estimated convergence rate */
  double last_rate;      /* the last iteration's ratio ‖Δ_m‖/‖Δ_{m−1}‖, or 0 */
} BdfWork;

/* ---- workspace ---------------------------------------------------------- */

static gpointer
bdf_workspace_new (const HydOdeMethod *method, guint n)
{
  BdfWork *w = g_new0 (BdfWork, 1);
  guint n_vec = 2 * (QMAX + 1) + 7;
  double *p;

  w->pin = method->data;
  w->n = n;
  w->block = g_new0 (double, (gsize) n * n_vec);
  p = w->block;
  for (guint j = 0; j <= QMAX; j++, p += n)
    w->zn[j] = p;
  for (guint j = 0; j <= QMAX; j++, p += n)
    w->znew[j] = p;
  w->zsave = p; p += n;
  w->acor = p; p += n;
  w->ftemp = p; p += n;
  w->x = p; p += n;
  w->wt = p; p += n;
  w->y0 = p; p += n;
  w->f0 = p;
  w->q = w->qprime = 1;
  w->hscale = 1.0;
  return w;
}

static void
bdf_workspace_free (gpointer ws)
{
  BdfWork *w = ws;

  if (w == NULL)
    return;
  hyd_jac_free (w->J);
  hyd_linsolver_free (w->lu);
  g_free (w->block);
  g_free (w);
}

/* Weighted RMS norm with the weights of the step's start (CVODE ewt, but
 * TOL_SCALE times larger). */
static double
wnorm (const BdfWork *w, const double *v)
{
  double sum = 0.0;

  for (guint i = 0; i < w->n; i++)
    {
      double q = v[i] * w->wt[i];
      sum += q * q;
    }
  return sqrt (sum / w->n);
}

/* ---- the history -------------------------------------------------------- */

/* z[j] ← η^j·z[j], j = 1…q (cvRescale). */
static void
rescale (BdfWork *w, double h)
{
  double eta = h / w->hscale, factor = eta;

  for (int j = 1; j <= w->q; j++)
    {
      for (guint i = 0; i < w->n; i++)
        w->zn[j][i] *= factor;
      factor *= eta;
    }
  w->hscale = h;
}

/* A new column z[q+1] from the saved Δ, and the adjustment of z[2..q] by the
 * coefficients of x²·(x + ξ_1)…(x + ξ_{q−1}), ξ_j = (t_n − t_{n−j})/h
 * (cvIncreaseBDF). */
static void
increase_order (BdfWork *w)
{
  int q = w->q;
  double l[QMAX + 2] = { 0 };
  double alpha0 = -1.0, alpha1 = 1.0, prod = 1.0, xiold = 1.0;
  double hsum = w->hscale;

  l[2] = 1.0;
  for (int j = 1; j < q; j++)
    {
      hsum += w->tau[j + 1];
      double xi = hsum / w->hscale;
      prod *= xi;
      alpha0 -= 1.0 / (j + 1);
      alpha1 += 1.0 / xi;
      for (int i = j + 2; i >= 2; i--)
        l[i] = l[i] * xiold + l[i - 1];
      xiold = xi;
    }
  double a1 = (-alpha0 - alpha1) / prod;
  double *znq1 = w->zn[q + 1];
  for (guint i = 0; i < w->n; i++)
    znq1[i] = a1 * w->zsave[i];
  for (int j = 2; j <= q; j++)
    for (guint i = 0; i < w->n; i++)
      w->zn[j][i] += l[j] * znq1[i];
}

/* Drop the column z[q]: z[2..q−1] adjusted by the coefficients of
 * x²·(x + ξ_1)…(x + ξ_{q−2}) (cvDecreaseBDF). From order 2 nothing changes. */
static void
decrease_order (BdfWork *w)
{
  int q = w->q;
  double l[QMAX + 2] = { 0 };
  double hsum = 0.0;

  if (q <= 2)
    return;
  l[2] = 1.0;
  for (int j = 1; j <= q - 2; j++)
    {
      hsum += w->tau[j];
      double xi = hsum / w->hscale;
      for (int i = j + 2; i >= 2; i--)
        l[i] = l[i] * xi + l[i - 1];
    }
  for (int j = 2; j < q; j++)
    for (guint i = 0; i < w->n; i++)
      w->zn[j][i] -= l[j] * w->zn[q][i];
}

/* ℓ and the test quantities for order q and step h after the steps tau
 * (cvSetBDF, cvSetTqBDF). ℓ are the coefficients of
 * Λ(x) = (1 + x/ξ*_q)·Π_{i<q} (1 + x/ξ_i); tq[2] turns ‖Δ‖ into the local
 * error at order q, tq[1] and tq[3] those of orders q − 1 and q + 1, tq[5]
 * relates Δ to the derivative of order q + 2. */
static void
set_coefficients (BdfWork *w, double h)
{
  int q = w->q;
  double *l = w->l, *tq = w->tq;
  double alpha0 = -1.0, alpha0_hat = -1.0, xi_inv = 1.0, xistar_inv = 1.0;
  double hsum = h;

  l[0] = l[1] = 1.0;
  for (int i = 2; i <= QMAX; i++)
    l[i] = 0.0;
  if (q > 1)
    {
      for (int j = 2; j < q; j++)
        {
          hsum += w->tau[j - 1];
          xi_inv = h / hsum;
          alpha0 -= 1.0 / j;
          for (int i = j; i >= 1; i--)
            l[i] += l[i - 1] * xi_inv;
        }
      alpha0 -= 1.0 / q;
      xistar_inv = -l[1] - alpha0;
      hsum += w->tau[q - 1];
      xi_inv = h / hsum;
      alpha0_hat = -l[1] - xi_inv;
      for (int i = q; i >= 1; i--)
        l[i] += l[i - 1] * xistar_inv;
    }

  double a1 = 1.0 - alpha0_hat + alpha0;
  double a2 = 1.0 + q * a1;
  tq[2] = fabs (a1 / (alpha0 * a2));
  tq[5] = fabs (a2 * xistar_inv / (l[q] * xi_inv));
  if (w->qwait == 1)
    {
      if (q > 1)
        {
          double c = xistar_inv / l[q];
          double a3 = alpha0 + 1.0 / q;
          double a4 = alpha0_hat + xi_inv;
          double cpinv = (1.0 - a4 + a3) / a3;
          tq[1] = fabs (c * cpinv);
        }
      else
        tq[1] = 1.0;
      hsum += w->tau[q];
      xi_inv = h / hsum;
      double a5 = alpha0 - 1.0 / (q + 1);
      double a6 = alpha0_hat - xi_inv;
      double cppinv = (1.0 - a6 + a5) / a2;
      tq[3] = fabs (cppinv / (xi_inv * (q + 2) * a5));
    }
  tq[4] = CORTES / tq[2];
}

/* ---- the corrector ------------------------------------------------------ */

/* Δ by simplified Newton on (I − γ_LU·J)·x = γ·f(y(0) + Δ) − z(0)[1]/ℓ_1 − Δ,
 * with CVODE's correction 2/(1 + γ/γ_LU) for a factorisation made at another
 * γ (cvLsSolve) and its convergence test (cvNlsConvTest). ycur: work. */
static NewtonResult
newton (BdfWork *w, HydOdeDriver *d, double t_new, double gamma,
        gboolean from_start, double *ycur)
{
  const HydOdeOptions *o = hyd_ode_driver_options (d);
  HydOdeStats *st = hyd_ode_driver_stats (d);
  guint n = w->n;
  double rl1 = 1.0 / w->l[1];
  double gamrat = gamma / w->gammap;
  double corr = gamrat != 1.0 ? 2.0 / (1.0 + gamrat) : 1.0;
  double delp = 0.0;
  /* Pinned (tests of the order): the corrector is solved to the end, so the
   * measured error is the formula's. */
  int maxcor = w->pin != NULL ? 12 : MAXCOR;

  if (from_start)
    for (guint i = 0; i < n; i++)
      w->acor[i] = w->y0[i] - w->znew[0][i];
  else
    memset (w->acor, 0, n * sizeof (double));
  w->last_rate = 0.0;
  for (int m = 0; m < maxcor; m++)
    {
      if (o->cancel != NULL && g_atomic_int_get (o->cancel) != 0)
        return NEWTON_CANCELLED;
      for (guint i = 0; i < n; i++)
        ycur[i] = w->znew[0][i] + w->acor[i];
      int rc = hyd_ode_driver_rhs (d, t_new, ycur, w->ftemp);
      if (rc < 0)
        return NEWTON_FATAL;
      if (rc > 0)
        return NEWTON_RECOVERABLE;
      st->newton++;

      /* (I − γ_p·J) = γ_p·((1/γ_p)·I − J) */
      for (guint i = 0; i < n; i++)
        w->x[i] = (gamma * w->ftemp[i] - rl1 * w->znew[1][i] - w->acor[i])
                  / w->gammap;
      hyd_linsolver_solve (w->lu, w->x);
      for (guint i = 0; i < n; i++)
        {
          w->x[i] *= corr;
          w->acor[i] += w->x[i];
        }

      double del = wnorm (w, w->x);
      if (m > 0)
        {
          w->last_rate = del / delp;
          w->crate = MAX (CRDOWN * w->crate, w->last_rate);
        }
      double dcon = del * MIN (1.0, w->crate) / w->tq[4];
      if (dcon <= 1.0)
        return NEWTON_CONVERGED;
      if (!isfinite (del) || (m >= 1 && del > RDIV * delp))
        return NEWTON_FAILED;
      delp = del;
    }
  return NEWTON_FAILED;
}

/* A new LU of (1/γ)·I − J, after a new J when asked. */
static HydAttempt
setup (BdfWork *w, HydOdeDriver *d, double gamma, gboolean new_jac)
{
  if (new_jac && !w->jac_here)
    {
      int rc = hyd_ode_driver_jacobian (d, w->t0, w->y0, w->f0, w->J, NULL);
      if (rc < 0)
        return HYD_ATTEMPT_FATAL;
      if (rc > 0)
        return HYD_ATTEMPT_RECOVERABLE;
      w->jac_valid = TRUE;
      w->jac_here = TRUE;
      w->force_jac = FALSE;
      w->nst_jac = w->nst;
    }
  int info = hyd_linsolver_factor (w->lu, 1.0 / gamma, w->J);
  hyd_ode_driver_stats (d)->lu++;
  if (info != 0)
    {
      hyd_ode_driver_note_singular (d, info > 0 && (guint) info <= w->n
                                       ? info - 1 : -1);
      w->lu_valid = FALSE;
      return HYD_ATTEMPT_SINGULAR;
    }
  w->lu_valid = TRUE;
  w->force_setup = FALSE;
  w->gammap = gamma;
  w->crate = 1.0;
  w->nst_lu = w->nst;
  return HYD_ATTEMPT_OK;
}

static HydAttempt
solve_corrector (BdfWork *w, HydOdeDriver *d, double t_new, double gamma,
                 gboolean from_start, double *ycur)
{
  /* The pinned test mode renews J and LU every step: nothing but the
   * formula is measured there. */
  gboolean call_setup = !w->lu_valid || w->force_setup || w->pin != NULL
                        || w->nst >= w->nst_lu + MSBP
                        || fabs (gamma / w->gammap - 1.0) > DGMAX;
  gboolean jbad = !w->jac_valid || w->force_jac || w->pin != NULL
                  || w->nst >= w->nst_jac + MSBJ;

  for (int pass = 0; pass < 2; pass++)
    {
      if (call_setup)
        {
          HydAttempt res = setup (w, d, gamma, jbad);
          if (res != HYD_ATTEMPT_OK)
            return res;
        }
      switch (newton (w, d, t_new, gamma, from_start, ycur))
        {
        case NEWTON_CONVERGED:
          if (w->last_rate > CRATE_SLOW)
            w->force_jac = w->force_setup = TRUE;
          return HYD_ATTEMPT_OK;
        case NEWTON_FATAL:
          return HYD_ATTEMPT_FATAL;
        case NEWTON_RECOVERABLE:
          return HYD_ATTEMPT_RECOVERABLE;
        case NEWTON_CANCELLED:
          /* The driver sees the flag before the retry. */
          return HYD_ATTEMPT_DIVERGED;
        case NEWTON_FAILED:
        default:
          break;
        }
      /* A Jacobian from an earlier point may be the cause: once more with
       * a fresh one (CVODE, CV_FAIL_BAD_J). */
      if (w->jac_here)
        break;
      call_setup = jbad = TRUE;
    }
  return HYD_ATTEMPT_DIVERGED;
}

/* ---- the method --------------------------------------------------------- */

static void
bdf_reset (gpointer ws, HydOdeDriver *d, double t, const double *y,
           const double *f0)
{
  BdfWork *w = ws;
  guint n = w->n;

  /* Order 1 from (y, f): zn[1] = h·f once the first h is known (the
   * history is scaled to h = 1 until then). */
  memcpy (w->zn[0], y, n * sizeof (double));
  memcpy (w->zn[1], f0, n * sizeof (double));
  w->hscale = 1.0;
  w->q = w->qprime = 1;
  w->qwait = 2;
  memset (w->tau, 0, sizeof w->tau);
  w->saved_tq5 = 0.0;
  w->etamax = ETAMX1;
  w->nst = 0;
  w->nef = 0;
  w->have_try = FALSE;
  /* J and its LU belong to the other side of the discontinuity. */
  w->jac_valid = FALSE;
  w->jac_here = FALSE;
  w->lu_valid = FALSE;
  w->force_setup = FALSE;
  w->force_jac = FALSE;
}

static int
bdf_prepare (gpointer ws, HydOdeDriver *d, double t, const double *y,
             const double *f0)
{
  BdfWork *w = ws;
  const HydOdeOptions *o = hyd_ode_driver_options (d);
  guint n = w->n;

  if (w->J == NULL)
    {
      w->J = hyd_ode_driver_jac_new (d);
      w->lu = hyd_linsolver_new (w->J);
    }
  w->t0 = t;
  memcpy (w->y0, y, n * sizeof (double));
  memcpy (w->f0, f0, n * sizeof (double));
  for (guint i = 0; i < n; i++)
    {
      double atol = o->atol != NULL ? o->atol[i] : o->rtol;
      double sk = atol + o->rtol * fabs (y[i]);
      w->wt[i] = TOL_SCALE / MAX (sk, 1e-300);
    }
  w->jac_here = FALSE;
  w->nef = 0;
  return 0;
}

/* Predictor, corrector and the corrected history znew at the current order
 * for the step h (the history already scaled to h). */
static HydAttempt
step_at_order (BdfWork *w, HydOdeDriver *d, double t, double h,
               gboolean from_start, double *y_new)
{
  guint n = w->n;
  int q = w->q;

  for (int j = 0; j <= q; j++)
    memcpy (w->znew[j], w->zn[j], n * sizeof (double));
  for (int k = 1; k <= q; k++)
    for (int j = q; j >= k; j--)
      for (guint i = 0; i < n; i++)
        w->znew[j - 1][i] += w->znew[j][i];

  set_coefficients (w, h);
  HydAttempt res = solve_corrector (w, d, t + h, h / w->l[1], from_start,
                                    y_new);
  if (res != HYD_ATTEMPT_OK)
    return res;

  for (int j = 0; j <= q; j++)
    for (guint i = 0; i < n; i++)
      w->znew[j][i] += w->l[j] * w->acor[i];
  memcpy (y_new, w->znew[0], n * sizeof (double));
  return HYD_ATTEMPT_OK;
}

/* A component that changed sign in the step while both of its values are
 * within the requested tolerance of zero (SIGN_NOISE = TOL_SCALE internal
 * error-test units): its sign is below what the tolerance resolves. BDF of
 * order ≥ 2 combines the history with negative weights, and its Newton
 * iteration starts from an extrapolation and stops at a fraction of the
 * tolerance, so such a component can be carried through zero by the
 * method alone. In kinetics-like models (ROBER, E5:
 * concentrations far below atol) the model is unstable on the other side
 * and the solution blows up: CVODE itself does so at atol = rtol = 1e-6
 * (measured with SUNDIALS 6.4: ROBER ends at y1 ≈ −5e7, E5 fails). Such a
 * step is redone at order 1 with the iteration started from the step's
 * start, so that its first iterate is the linearly implicit Euler step
 * rather than an extrapolation: backward Euler keeps such components on
 * their side. A crossing that the tolerance resolves (cos t through zero)
 * is left alone; an unresolved genuine one is taken at order 1, after which
 * the order rises again. A crossing that the model pulls back towards zero
 * (y_new·f(y_new) < 0: stable on the new side) is left alone, so the
 * guard acts only where, as the models above, the other side is unstable:
 * the rounding noise of a decayed stable mode (a fast pressure transient
 * long over) flips sign from step to step as it decays, and redoing those
 * steps at order 1 kept bdf there, every order increase rejected
 * (test-step-log, /step-log/bdf-decayed-noise: 1405 steps and 424
 * rejections, now 157 and 2). f is evaluated only when a crossing within
 * the tolerance is seen. ROBER at atol = rtol = 1e-4, 1e-6, 1e-8 runs as
 * before, step for step; E5 at those tolerances ends with 7.35, 9.08 and
 * 10.62 correct digits (7.88, 7.62, 10.26 with every crossing redone). */
#define SIGN_NOISE TOL_SCALE

static gboolean
unresolved_sign_change (BdfWork *w, HydOdeDriver *d, double t_new, const double *y, const double *y_new)
{
  gboolean have_f = FALSE;
  for (guint i = 0; i < w->n; i++)
    {
      double noise = SIGN_NOISE / w->wt[i];   /* = atol + rtol·|y| */
      if (y[i] * y_new[i] < 0.0 && fabs (y[i]) <= noise
          && fabs (y_new[i]) <= noise)
        {
          /* f at the new point, once (ftemp is free after the step) */
          if (!have_f)
            {
              if (hyd_ode_driver_rhs (d, t_new, y_new, w->ftemp) != 0)
                return TRUE;
              have_f = TRUE;
            }
          if (y_new[i] * w->ftemp[i] >= 0.0)
            return TRUE;
        }
    }
  return FALSE;
}

static HydAttempt
bdf_attempt (gpointer ws, HydOdeDriver *d, double t, const double *y,
             const double *f0, double h, double *y_new, double *err)
{
  BdfWork *w = ws;

  w->have_try = FALSE;

  /* The order chosen after the last step, then the step size (the history
   * is adjusted at the old scale, cvAdjustParams). */
  if (w->qprime != w->q)
    {
      if (w->qprime > w->q)
        increase_order (w);
      else
        decrease_order (w);
      w->q = w->qprime;
      w->qwait = w->q + 1;
    }
  if (h != w->hscale)
    rescale (w, h);

  HydAttempt res = step_at_order (w, d, t, h, FALSE, y_new);
  if (res == HYD_ATTEMPT_OK && w->pin == NULL
      && unresolved_sign_change (w, d, t + h, y, y_new))
    {
      while (w->q > 1)
        {
          decrease_order (w);
          w->q--;
        }
      w->qprime = 1;
      w->qwait = 2;
      res = step_at_order (w, d, t, h, TRUE, y_new);
    }
  if (res != HYD_ATTEMPT_OK)
    {
      /* cvHandleNFlag: no growth after this step; a new LU at the next try. */
      w->etamax = 1.0;
      w->force_setup = TRUE;
      return res;
    }

  /* CVODE's weights (the step's start, TOL_SCALE); the driver's norm only
   * to note the state with the largest error for a failure message. */
  hyd_ode_driver_error_norm (d, y, y_new, w->acor);
  w->dsm = w->tq[2] * wnorm (w, w->acor);
  w->h_try = h;
  w->q_try = w->q;
  w->have_try = TRUE;
  w->dense_in_zn = FALSE;
  /* Pinned: every step is taken, whatever its error. */
  *err = w->pin != NULL ? 0.0 : w->dsm;
  return HYD_ATTEMPT_OK;
}

/* The pinned test mode: the order rises by one whenever the history allows
 * it (every q + 1 steps) at the driver's first step size, up to the pinned
 * order; then the step grows by PIN_RAMP up to the pinned one and stays. */
static double
propose_pinned (BdfWork *w, double h, int qwait)
{
  int q = w->q;

  w->save_acor = qwait == 1 && q != QMAX;
  w->store_increase = FALSE;
  w->qprime_next = q;
  if (qwait <= 0)
    {
      qwait = 2;
      if (q < w->pin->order)
        {
          w->qprime_next = q + 1;
          w->store_increase = TRUE;
        }
    }
  w->qwait_next = qwait;
  if (q < w->pin->order || w->qprime_next != q)
    return 1.0;
  return MIN (PIN_RAMP, w->pin->h / h);
}

static double
bdf_propose (gpointer ws, HydOdeDriver *d, double h, double err,
             gboolean accepted, gboolean after_reject)
{
  BdfWork *w = ws;
  int q = w->q, L = q + 1;

  if (!accepted)
    {
      /* cvDoErrorTest */
      w->nef++;
      w->etamax = 1.0;
      w->force_setup = TRUE;
      if (w->nef <= MXNEF1)
        {
          double eta = 1.0 / (pow (BIAS2 * err, 1.0 / L) + ADDON);
          eta = MAX (ETAMIN, eta);
          if (w->nef >= SMALL_NEF)
            eta = MIN (eta, ETAMXF);
          return eta;
        }
      if (q > 1)
        {
          /* Repeated failures: one order lower (zn is still at scale h). */
          decrease_order (w);
          w->q = w->qprime = q - 1;
          w->qwait = q;
          return ETAMIN;
        }
      /* At order 1: the history afresh from f at the step's start. */
      memcpy (w->zn[1], w->f0, w->n * sizeof (double));
      w->hscale = 1.0;
      w->qwait = LONG_WAIT;
      return ETAMIN;
    }

  /* cvCompleteStep's bookkeeping, applied by accept. */
  int qwait = w->qwait - 1;

  if (w->pin != NULL)
    {
      w->etamax = ETAMX2;
      return propose_pinned (w, h, qwait);
    }

  gboolean save = qwait == 1 && q != QMAX;
  int qprime = q;
  gboolean store_increase = FALSE;
  double eta;

  if (w->etamax == 1.0)
    {
      /* A failure in this step: keep h and q for one more step. */
      qwait = MAX (qwait, 2);
      eta = 1.0;
    }
  else
    {
      /* cvPrepareNextStep */
      double etaq = 1.0 / (pow (BIAS2 * w->dsm, 1.0 / L) + ADDON);
      if (qwait != 0)
        eta = etaq;
      else
        {
          double etaqm1 = 0.0, etaqp1 = 0.0;

          qwait = 2;
          if (q > 1)
            {
              /* The new z[q] is h^q·y^(q)/q!: the error at order q − 1. */
              double ddn = wnorm (w, w->znew[q]) * w->tq[1];
              etaqm1 = 1.0 / (pow (BIAS1 * ddn, 1.0 / q) + ADDON);
            }
          if (q != QMAX && w->saved_tq5 != 0.0 && w->tau[1] > 0.0)
            {
              /* Δ_n − c·Δ_{n−1} ∝ the derivative of order q + 2. */
              double cquot = (w->tq[5] / w->saved_tq5) * pow (h / w->tau[1], L);
              for (guint i = 0; i < w->n; i++)
                w->ftemp[i] = w->acor[i] - cquot * w->zsave[i];
              double dup = wnorm (w, w->ftemp) * w->tq[3];
              etaqp1 = 1.0 / (pow (BIAS3 * dup, 1.0 / (L + 1)) + ADDON);
            }

          /* cvChooseEta: ties keep the order, then lower it. */
          double etam = MAX (etaqm1, MAX (etaq, etaqp1));
          if (etam < THRESH)
            eta = 1.0;
          else if (etam == etaq)
            eta = etaq;
          else if (etam == etaqm1)
            {
              eta = etaqm1;
              qprime = q - 1;
            }
          else
            {
              eta = etaqp1;
              qprime = q + 1;
              store_increase = TRUE;
            }
        }
      /* cvSetEta: small changes are not worth a new LU */
      if (eta < THRESH)
        eta = 1.0;
      else
        eta = MIN (eta, w->etamax);
    }

  w->etamax = ETAMX2;
  w->qwait_next = qwait;
  w->qprime_next = qprime;
  w->save_acor = save;
  w->store_increase = store_increase;
  return eta;
}

static void
bdf_accept (gpointer ws, HydOdeDriver *d, double t_new, const double *y_new,
            const double *f_new)
{
  BdfWork *w = ws;
  int q = w->q;

  g_return_if_fail (w->have_try);

  /* cvCompleteStep */
  w->nst++;
  for (int i = q; i >= 2; i--)
    w->tau[i] = w->tau[i - 1];
  if (q == 1 && w->nst > 1)
    w->tau[2] = w->tau[1];
  w->tau[1] = w->h_try;

  for (int j = 0; j <= QMAX; j++)
    {
      double *tmp = w->zn[j];
      w->zn[j] = w->znew[j];
      w->znew[j] = tmp;
    }
  w->hscale = w->h_try;
  w->dense_in_zn = TRUE;

  if (w->save_acor)
    {
      memcpy (w->zsave, w->acor, w->n * sizeof (double));
      w->saved_tq5 = w->tq[5];
    }
  if (w->store_increase)
    memcpy (w->zsave, w->acor, w->n * sizeof (double));
  w->qwait = w->qwait_next;
  w->qprime = w->qprime_next;
  w->nef = 0;
}

/* y(t_n + s·h) = Σ z[j]·s^j, s = θ − 1 ∈ [−1, 0] (CVodeGetDky, k = 0). */
static int
bdf_dense (gpointer ws, HydOdeDriver *d, double theta, double *y_out)
{
  BdfWork *w = ws;
  double *const *z = w->dense_in_zn ? w->zn : w->znew;
  double s = theta - 1.0;
  int q = w->q_try;

  g_return_val_if_fail (w->have_try, -1);
  memcpy (y_out, z[q], w->n * sizeof (double));
  for (int j = q - 1; j >= 0; j--)
    for (guint i = 0; i < w->n; i++)
      y_out[i] = y_out[i] * s + z[j][i];
  return 0;
}

static const HydOdeMethod bdf_method = {
  .info = {
    .id = "bdf",
    .family = "variable-order BDF 1–5 (Gear)",
    .order = "1–5",
    .implicit = TRUE,
    .adaptive = TRUE,
    .multistep = TRUE,
    .notes = "fixed-leading-coefficient BDF on a Nordsieck history, order "
             "and step chosen as CVODE (local error held at a tenth of the "
             "tolerance); restarts at order 1 at each breakpoint; the "
             "method of HASP (HASP thesis, Bath)",
  },
  .data = NULL,
  /* Read only by the driver's initial-step heuristic, h^order·‖y''‖ ≈ 0.01:
   * order 1 starts, but its local error is O(h²), and with 1 the heuristic
   * gives h ≈ 0.01/‖y''‖, below the time resolution after a steep jump
   * (esque-circuit1-step at t = 2: h = 2e-15, step underflow). */
  .order = 2,
  .error_order = 2.0,
  .workspace_new = bdf_workspace_new,
  .workspace_free = bdf_workspace_free,
  .prepare = bdf_prepare,
  .attempt = bdf_attempt,
  .dense = bdf_dense,
  .reset = bdf_reset,
  .propose = bdf_propose,
  .accept = bdf_accept,
};

HydOdeMethod *
hyd_bdf_method_pinned_new (int order, double h)
{
  BdfPinnedMethod *pm;

  g_return_val_if_fail (order >= 1 && order <= QMAX, NULL);
  g_return_val_if_fail (h > 0.0 && isfinite (h), NULL);
  pm = g_new0 (BdfPinnedMethod, 1);
  pm->method = bdf_method;
  pm->pin.order = order;
  pm->pin.h = h;
  pm->method.data = &pm->pin;
  return &pm->method;
}

static const HydOdeMethod *const bdf_members[] = {
  &bdf_method,
};

const HydOdeMethod *const *
hyd_ode_family_bdf (guint *n)
{
  *n = G_N_ELEMENTS (bdf_members);
  return bdf_members;
}
