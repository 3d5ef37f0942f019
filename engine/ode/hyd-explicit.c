/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-explicit.c — explicit Runge–Kutta methods: dopri5, bs23, rk4, euler.
 *
 * One tableau-driven implementation (Hairer, Nørsett & Wanner, Solving ODEs
 * I, §II.4–II.6). The adaptive pairs are used as in HW dopri5.f: local
 * extrapolation (the higher order propagates), first same as last (the last
 * stage is f(t + h, y1) and becomes the next step's first, handed to the
 * driver through the fsal hook), HW's step-size controller, and HW's
 * stiffness detection: when h·ρ, estimated from two stages, sits at the
 * stability boundary step after step, the problem is stiff for an explicit
 * method; the run goes on and says so in HydOdeResult.note.
 *
 * Explicit methods never need the Jacobian: prepare does nothing. */
#include "hyd-ode-private.h"

#include <math.h>
#include <string.h>

#define ERK_MAX_STAGES 7

typedef enum {
  ERK_DENSE_HERMITE,   /* cubic Hermite on (y0, f0, y1, f1) */
  ERK_DENSE_DOPRI5,    /* HW dopri5.f CONTD5, order 4 */
} ErkDense;

typedef enum {
  ERK_STIFF_NONE,
  /* HW dopri5.f: the last two stages both sit at t + h; their difference
   * quotient ‖k7 − k6‖/‖y1 − y6‖ estimates ρ(J) along a vector where the
   * smooth solution nearly cancels. Free. */
  ERK_STIFF_STAGES,
  /* bs23 has one stage at t + h only: every few steps (and every step once
   * suspicious) one extra f at the embedded solution ŷ1 gives the same
   * quotient ‖f(ŷ1) − f(y1)‖/‖ŷ1 − y1‖ (the difference is the error
   * estimate, where a stiff component shows first). */
  ERK_STIFF_EMBEDDED,
} ErkStiff;

typedef struct {
  guint s;
  double c[ERK_MAX_STAGES];
  double a[ERK_MAX_STAGES][ERK_MAX_STAGES];  /* a[i][j], j < i */
  double b[ERK_MAX_STAGES];                  /* propagated solution */
  double e[ERK_MAX_STAGES];                  /* b − b̂ (error estimate) */
  gboolean has_error;
  /* Stage s − 1 is f(t + h, y1) (a[s − 1] = b, c = 1). */
  gboolean fsal;

  /* Stiffness detection (HW dopri5.f: h·ρ > 3.25 for 15 accepted steps,
   * reset after 6 below). */
  ErkStiff stiff;
  guint sti_stage;       /* ERK_STIFF_STAGES: the stage compared with the last */
  double hlamb_max;      /* near the real stability boundary */
  guint stiff_every;     /* check every this many accepted steps */

  /* Step-size controller (HW dopri5.f): h_new = h·fac, with
   * fac = safe / (err^(1/q − 0.75·β) · err_old^(−β)) in [fac_min, fac_max]. */
  double beta;
  double fac_min, fac_max;

  ErkDense dense;
  double d[ERK_MAX_STAGES];   /* HW dopri5.f dense weights (stage order) */
} ErkTable;

/* Dormand–Prince 5(4), HW dopri5.f (Solving ODEs I, Table II.5.2). */
static const ErkTable dopri5_table = {
  .s = 7,
  .c = { 0.0, 0.2, 0.3, 0.8, 8.0 / 9.0, 1.0, 1.0 },
  .a = {
    { 0 },
    { 0.2 },
    { 3.0 / 40.0, 9.0 / 40.0 },
    { 44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0 },
    { 19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0 },
    { 9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0, 49.0 / 176.0,
      -5103.0 / 18656.0 },
    { 35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0,
      11.0 / 84.0 },
  },
  .b = { 35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0,
         11.0 / 84.0, 0.0 },
  /* dopri5.f E1 … E7 */
  .e = { 71.0 / 57600.0, 0.0, -71.0 / 16695.0, 71.0 / 1920.0,
         -17253.0 / 339200.0, 22.0 / 525.0, -1.0 / 40.0 },
  .has_error = TRUE,
  .fsal = TRUE,
  .stiff = ERK_STIFF_STAGES,
  .sti_stage = 5,
  .hlamb_max = 3.25,
  .stiff_every = 1,
  /* dopri5.f defaults: BETA = 0.04, FAC1 = 0.2, FAC2 = 10. */
  .beta = 0.04,
  .fac_min = 0.2,
  .fac_max = 10.0,
  .dense = ERK_DENSE_DOPRI5,
  /* dopri5.f D1 … D7 (D2 = 0) */
  .d = { -12715105075.0 / 11282082432.0, 0.0, 87487479700.0 / 32700410799.0,
         -10690763975.0 / 1880347072.0, 701980252875.0 / 199316789632.0,
         -1453857185.0 / 822651844.0, 69997945.0 / 29380423.0 },
};

/* Bogacki–Shampine 3(2) (Appl. Math. Lett. 2, 1989; MATLAB ode23). */
static const ErkTable bs23_table = {
  .s = 4,
  .c = { 0.0, 0.5, 0.75, 1.0 },
  .a = {
    { 0 },
    { 0.5 },
    { 0.0, 0.75 },
    { 2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0 },
  },
  .b = { 2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0, 0.0 },
  /* b̂ = (7/24, 1/4, 1/3, 1/8) */
  .e = { 2.0 / 9.0 - 7.0 / 24.0, 1.0 / 3.0 - 0.25, 4.0 / 9.0 - 1.0 / 3.0,
         -0.125 },
  .has_error = TRUE,
  .fsal = TRUE,
  .stiff = ERK_STIFF_EMBEDDED,
  /* The real stability boundary of the order-3 polynomial is −2.5127; the
   * threshold keeps HW's ratio 3.25/3.3066 to dopri5's boundary. */
  .hlamb_max = 2.47,
  .stiff_every = 10,
  /* An I-controller with q = 3 and ode23's growth limit 5. */
  .beta = 0.0,
  .fac_min = 0.2,
  .fac_max = 5.0,
  .dense = ERK_DENSE_HERMITE,
};

/* The classical fourth-order method (Kutta 1901). */
static const ErkTable rk4_table = {
  .s = 4,
  .c = { 0.0, 0.5, 0.5, 1.0 },
  .a = {
    { 0 },
    { 0.5 },
    { 0.0, 0.5 },
    { 0.0, 0.0, 1.0 },
  },
  .b = { 1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0 },
  .dense = ERK_DENSE_HERMITE,
};

static const ErkTable euler_table = {
  .s = 1,
  .c = { 0.0 },
  .b = { 1.0 },
  .dense = ERK_DENSE_HERMITE,
};

#define STIFF_COUNT     15   /* dopri5.f IASTI */
#define NONSTIFF_RESET  6    /* dopri5.f NONSTI */

typedef struct {
  const ErkTable *tab;
  const char *id;
  double q;             /* error order: the controller uses err^(1/q) */
  guint n;
  double *k;            /* s stage derivatives, n each */
  double *ystage;
  double *ysti;         /* the input of stage sti_stage */
  double *errv;
  double *cont;         /* dopri5 dense coefficients, 5·n */
  double *f1;           /* f(t + h, y1) for Hermite without FSAL */
  double *yhat, *fhat;  /* embedded solution and f there (stiffness test) */

  /* The last attempt, for the continuous extension. */
  double t, h;
  double *y0, *y1;
  gboolean dense_ready;
  gboolean f1_valid;

  /* Controller (dopri5.f FACOLD). */
  double err_old;

  /* Stiffness detection. */
  double hlamb;         /* h·ρ estimate of the last attempt, or −1 */
  guint n_stiff, n_nonstiff;
  guint64 n_checked;
  gboolean reported;
} ErkWork;

static gpointer
erk_workspace_new (const HydOdeMethod *method, guint n)
{
  const ErkTable *tab = method->data;
  ErkWork *w = g_new0 (ErkWork, 1);

  g_assert (tab->s <= ERK_MAX_STAGES);
  w->tab = tab;
  w->id = method->info.id;
  w->q = method->error_order;
  w->n = n;
  w->k = g_new0 (double, (gsize) n * tab->s);
  w->ystage = g_new0 (double, n);
  w->ysti = g_new0 (double, n);
  w->errv = g_new0 (double, n);
  w->cont = g_new0 (double, (gsize) n * 5);
  w->f1 = g_new0 (double, n);
  w->yhat = g_new0 (double, n);
  w->fhat = g_new0 (double, n);
  w->y0 = g_new0 (double, n);
  w->y1 = g_new0 (double, n);
  w->err_old = 1e-4;
  w->hlamb = -1.0;
  return w;
}

static void
erk_workspace_free (gpointer ws)
{
  ErkWork *w = ws;

  if (w == NULL)
    return;
  g_free (w->k);
  g_free (w->ystage);
  g_free (w->ysti);
  g_free (w->errv);
  g_free (w->cont);
  g_free (w->f1);
  g_free (w->yhat);
  g_free (w->fhat);
  g_free (w->y0);
  g_free (w->y1);
  g_free (w);
}

static int
erk_prepare (gpointer ws, HydOdeDriver *d, double t, const double *y,
             const double *f0)
{
  return 0;
}

static void
erk_reset (gpointer ws, HydOdeDriver *d, double t, const double *y,
           const double *f0)
{
  ErkWork *w = ws;

  /* A discontinuity: the controller starts afresh (dopri5.f FACOLD). The
   * stiffness counters carry on: stiffness belongs to the problem. */
  w->err_old = 1e-4;
}

static HydAttempt
erk_attempt (gpointer ws, HydOdeDriver *d, double t, const double *y,
             const double *f0, double h, double *y_new, double *err)
{
  ErkWork *w = ws;
  const ErkTable *tab = w->tab;
  guint n = w->n, s = tab->s;

  w->dense_ready = FALSE;
  w->f1_valid = FALSE;
  w->hlamb = -1.0;
  memcpy (w->k, f0, n * sizeof (double));

  for (guint i = 1; i < s; i++)
    {
      for (guint q = 0; q < n; q++)
        {
          double v = 0.0;
          for (guint j = 0; j < i; j++)
            v += tab->a[i][j] * w->k[(gsize) j * n + q];
          w->ystage[q] = y[q] + h * v;
        }
      if (tab->stiff == ERK_STIFF_STAGES && i == tab->sti_stage)
        memcpy (w->ysti, w->ystage, n * sizeof (double));
      /* The FSAL stage's argument is y1 itself. */
      double ti = tab->c[i] == 1.0 ? t + h : t + tab->c[i] * h;
      int rc = hyd_ode_driver_rhs (d, ti, w->ystage, w->k + (gsize) i * n);
      if (rc < 0)
        return HYD_ATTEMPT_FATAL;
      if (rc > 0)
        return HYD_ATTEMPT_RECOVERABLE;
    }

  if (tab->fsal)
    memcpy (y_new, w->ystage, n * sizeof (double));
  else
    for (guint q = 0; q < n; q++)
      {
        double v = 0.0;
        for (guint j = 0; j < s; j++)
          v += tab->b[j] * w->k[(gsize) j * n + q];
        y_new[q] = y[q] + h * v;
      }

  *err = 0.0;
  if (tab->has_error)
    {
      for (guint q = 0; q < n; q++)
        {
          double v = 0.0;
          for (guint j = 0; j < s; j++)
            v += tab->e[j] * w->k[(gsize) j * n + q];
          w->errv[q] = h * v;
        }
      *err = hyd_ode_driver_error_norm (d, y, y_new, w->errv);
    }

  if (tab->stiff == ERK_STIFF_STAGES)
    {
      /* dopri5.f: HLAMB = H·‖K7 − K6‖/‖Y1 − YSTI‖ */
      const double *k6 = w->k + (gsize) tab->sti_stage * n;
      const double *k7 = w->k + (gsize) (s - 1) * n;
      double num = 0.0, den = 0.0;
      for (guint q = 0; q < n; q++)
        {
          num += (k7[q] - k6[q]) * (k7[q] - k6[q]);
          den += (y_new[q] - w->ysti[q]) * (y_new[q] - w->ysti[q]);
        }
      if (den > 0.0)
        w->hlamb = h * sqrt (num / den);
    }

  w->t = t;
  w->h = h;
  memcpy (w->y0, y, n * sizeof (double));
  memcpy (w->y1, y_new, n * sizeof (double));
  return HYD_ATTEMPT_OK;
}

static const double *
erk_fsal (gpointer ws)
{
  ErkWork *w = ws;

  if (!w->tab->fsal)
    return NULL;
  return w->k + (gsize) (w->tab->s - 1) * w->n;
}

/* bs23: f at the embedded solution ŷ1 = y1 − err vector, one evaluation. */
static void
erk_embedded_hlamb (ErkWork *w, HydOdeDriver *d)
{
  guint n = w->n;
  const double *k_last = w->k + (gsize) (w->tab->s - 1) * n;
  double num = 0.0, den = 0.0;

  for (guint q = 0; q < n; q++)
    w->yhat[q] = w->y1[q] - w->errv[q];
  if (hyd_ode_driver_rhs (d, w->t + w->h, w->yhat, w->fhat) != 0)
    return;
  for (guint q = 0; q < n; q++)
    {
      num += (w->fhat[q] - k_last[q]) * (w->fhat[q] - k_last[q]);
      den += w->errv[q] * w->errv[q];
    }
  if (den > 0.0)
    w->hlamb = w->h * sqrt (num / den);
}

static void
erk_accept (gpointer ws, HydOdeDriver *d, double t_new, const double *y_new,
            const double *f_new)
{
  ErkWork *w = ws;
  const ErkTable *tab = w->tab;

  if (!tab->fsal && f_new != NULL)
    {
      memcpy (w->f1, f_new, w->n * sizeof (double));
      w->f1_valid = TRUE;
    }
  if (tab->stiff == ERK_STIFF_NONE)
    return;

  /* dopri5.f: tested every NSTIFF accepted steps, and at every step while
   * the count runs (IASTI > 0). */
  w->n_checked++;
  if (w->n_stiff == 0 && w->n_checked % tab->stiff_every != 0)
    return;
  if (tab->stiff == ERK_STIFF_EMBEDDED)
    erk_embedded_hlamb (w, d);
  if (w->hlamb < 0.0)
    return;
  if (w->hlamb > tab->hlamb_max)
    {
      w->n_nonstiff = 0;
      if (++w->n_stiff == STIFF_COUNT && !w->reported)
        {
          w->reported = TRUE;
          hyd_ode_driver_note (d, "%s: the problem seems stiff from t = %.6g "
                               "(h·ρ ≈ %.3g > %.3g, the stability limit, for "
                               "%d accepted steps); an implicit method "
                               "(rodas4, radau5) will take far fewer steps",
                               w->id, w->t, w->hlamb, tab->hlamb_max,
                               STIFF_COUNT);
        }
    }
  else if (++w->n_nonstiff == NONSTIFF_RESET)
    w->n_stiff = 0;
}

/* HW dopri5.f step-size selection with Lund stabilisation (β). */
static double
erk_propose (gpointer ws, HydOdeDriver *d, double h, double err,
             gboolean accepted, gboolean after_reject)
{
  ErkWork *w = ws;
  const ErkTable *tab = w->tab;
  const double safe = 0.9;
  double fac11 = pow (err, 1.0 / w->q - 0.75 * tab->beta);

  if (!accepted)
    return 1.0 / MIN (1.0 / tab->fac_min, fac11 / safe);
  double fac = fac11 / pow (w->err_old, tab->beta);
  fac = CLAMP (fac / safe, 1.0 / tab->fac_max, 1.0 / tab->fac_min);
  w->err_old = MAX (err, 1e-4);
  double ratio = 1.0 / fac;
  /* dopri5.f: no increase right after a rejection. */
  return after_reject ? MIN (ratio, 1.0) : ratio;
}

static int
erk_dense (gpointer ws, HydOdeDriver *d, double theta, double *y_out)
{
  ErkWork *w = ws;
  const ErkTable *tab = w->tab;
  guint n = w->n, s = tab->s;
  double h = w->h, s1 = 1.0 - theta;
  const double *k0 = w->k;

  if (tab->dense == ERK_DENSE_DOPRI5)
    {
      double *c1 = w->cont + n, *c2 = c1 + n, *c3 = c2 + n, *c4 = c3 + n;
      if (!w->dense_ready)
        {
          /* dopri5.f: CONT(1..5) from the stages, K7 = f(t + h, y1) */
          const double *k7 = w->k + (gsize) (s - 1) * n;
          for (guint q = 0; q < n; q++)
            {
              double ydiff = w->y1[q] - w->y0[q];
              double bspl = h * k0[q] - ydiff;
              double v = 0.0;
              for (guint j = 0; j < s; j++)
                v += tab->d[j] * w->k[(gsize) j * n + q];
              c1[q] = ydiff;
              c2[q] = bspl;
              c3[q] = -h * k7[q] + ydiff - bspl;
              c4[q] = h * v;
            }
          w->dense_ready = TRUE;
        }
      /* dopri5.f CONTD5 */
      for (guint q = 0; q < n; q++)
        y_out[q] = w->y0[q]
                   + theta * (c1[q] + s1 * (c2[q] + theta * (c3[q] + s1 * c4[q])));
      return 0;
    }

  /* Cubic Hermite on (y0, f0, y1, f1). */
  const double *f1;
  if (tab->fsal)
    f1 = w->k + (gsize) (s - 1) * n;
  else
    {
      if (!w->f1_valid)
        {
          int rc = hyd_ode_driver_rhs (d, w->t + w->h, w->y1, w->f1);
          if (rc != 0)
            return rc;
          w->f1_valid = TRUE;
        }
      f1 = w->f1;
    }
  double h00 = (1.0 + 2.0 * theta) * s1 * s1;
  double h10 = theta * s1 * s1;
  double h01 = theta * theta * (3.0 - 2.0 * theta);
  double h11 = -theta * theta * s1;
  for (guint q = 0; q < n; q++)
    y_out[q] = h00 * w->y0[q] + h10 * h * k0[q] + h01 * w->y1[q] + h11 * h * f1[q];
  return 0;
}

#define ERK_VTABLE                           \
  .workspace_new = erk_workspace_new,        \
  .workspace_free = erk_workspace_free,      \
  .prepare = erk_prepare,                    \
  .attempt = erk_attempt,                    \
  .dense = erk_dense,                        \
  .reset = erk_reset,                        \
  .accept = erk_accept,                      \
  .fsal = erk_fsal

static const HydOdeMethod dopri5_method = {
  .info = {
    .id = "dopri5",
    .family = "explicit Runge–Kutta",
    .order = "5(4)",
    .implicit = FALSE,
    .adaptive = TRUE,
    .multistep = FALSE,
    .notes = "Dormand–Prince, HW dopri5.f: FSAL, dense output of order 4, "
             "stiffness detection (reported in the result's note); for "
             "non-stiff problems",
  },
  .data = &dopri5_table,
  .order = 5,
  .error_order = 5.0,
  ERK_VTABLE,
  .propose = erk_propose,
};

static const HydOdeMethod bs23_method = {
  .info = {
    .id = "bs23",
    .family = "explicit Runge–Kutta",
    .order = "3(2)",
    .implicit = FALSE,
    .adaptive = TRUE,
    .multistep = FALSE,
    .notes = "Bogacki–Shampine (MATLAB ode23): FSAL, Hermite dense output, "
             "stiffness detection; for non-stiff problems at loose tolerances",
  },
  .data = &bs23_table,
  .order = 3,
  .error_order = 3.0,
  ERK_VTABLE,
  .propose = erk_propose,
};

static const HydOdeMethod rk4_method = {
  .info = {
    .id = "rk4",
    .family = "explicit Runge–Kutta",
    .order = "4",
    .implicit = FALSE,
    .adaptive = FALSE,
    .multistep = FALSE,
    .notes = "classical Runge–Kutta, fixed step only; Hermite dense output",
  },
  .data = &rk4_table,
  .order = 4,
  .error_order = 4.0,
  ERK_VTABLE,
};

static const HydOdeMethod euler_method = {
  .info = {
    .id = "euler",
    .family = "explicit Runge–Kutta",
    .order = "1",
    .implicit = FALSE,
    .adaptive = FALSE,
    .multistep = FALSE,
    .notes = "forward Euler, fixed step only (teaching: stable only for "
             "h·|λ| < 2 on a real decay)",
  },
  .data = &euler_table,
  .order = 1,
  .error_order = 1.0,
  ERK_VTABLE,
};

static const HydOdeMethod *const explicit_members[] = {
  &dopri5_method,
  &bs23_method,
  &rk4_method,
  &euler_method,
};

const HydOdeMethod *const *
hyd_ode_family_explicit (guint *n)
{
  *n = G_N_ELEMENTS (explicit_members);
  return explicit_members;
}
