/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-auto.c — `auto`: picks a method from the Jacobian's spectrum and the
 * tolerance, runs it, and says which and why (HydOdeResult.note).
 *
 * The HASP thesis proposed, and did not build, a solver that decides for
 * itself between non-stiff and stiff formulae (HASP thesis, Bath, §1.14–1.16, §8.25–8.40,
 * after Petzold's LSODA): a problem is stiff when stability, not accuracy,
 * limits an explicit method's step (§8.39). Done here once per run, at the
 * start, from eigenvalues:
 *
 *  - J at (t0, y0), and at a probe point one explicit Euler step further
 *    (of the size the initial-step heuristic of HW dopri5.f HINIT would
 *    take): stiffness often appears only once the fast states move (ROBER
 *    has ρ(J) = 0.04 at t0 and 10⁴ a moment later).
 *  - ρ = the largest |λ| of either; the modes still active at the end are
 *    those that do not decay below the tolerance over the run,
 *    −Re λ·(t_end − t0) < ln(1/rtol); s = the largest active |λ|, at least
 *    1/(t_end − t0): the rate the solution itself changes at.
 *  - The explicit candidate (dopri5, or bs23 for rtol ≥ 1e-3; order p,
 *    real stability boundary β) would need h ≈ rtol^(1/p)/s for accuracy
 *    and h ≤ β/ρ for stability. When stability binds by more than
 *    AUTO_COST_RATIO (an implicit step's cost in explicit steps, the M of
 *    Petzold's switching rule, HASP thesis eq. 8.49), the problem is stiff:
 *    rodas4, or rodas5p below rtol 1e-5 (Steinebach 2023: no order
 *    reduction, the fastest of ours there on every benchmark circuit), or
 *    bdf for very large systems.
 *  - Fixed-step runs: explicit when fixed_step·ρ is inside dopri5's
 *    stability region, else rodas4; never a multistep method.
 *
 * Eigenvalues by LAPACK dgeev for n ≤ AUTO_EIG_MAX; above that Gershgorin's
 * bound on ρ (no active-mode analysis: s = 1/(t_end − t0)).
 *
 * The chosen method then runs the integration: every vtable call is
 * forwarded to it. Its own step-size controller is used; a method with the
 * driver's default one gets the same (HW rodas.f with Gustafsson) here,
 * with its own error order. The only difference from choosing the method
 * by name is the first step, which the driver estimates with auto's order
 * before the choice. At each later interval start (a breakpoint or an
 * event: the methods restart there anyway) an explicit choice is checked
 * again over the remaining time and replaced by an implicit one when the
 * problem has turned stiff; the note says when and why. */
#include "hyd-ode-private.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#define AUTO_EIG_MAX      500    /* dgeev costs ~10n³: 0.1 s at n = 500 */
#define AUTO_LARGE        2000   /* bdf for stiff systems above this */
#define AUTO_COST_RATIO   4.0
/* rodas5p below, rodas4 at or above: from the work-precision benchmark of
 * every example against CVODE (README, "Performance"), rodas5p has the
 * lowest geometric-mean time ratio at rtol 1e-6, 1e-7 and 1e-8 (0.46,
 * 0.54, 0.65 against rodas4's 0.51, 0.64, 0.85 and radau5's 0.60, 0.64,
 * 0.67) and a worst case at 1e-8 of 1.23 against rodas4's 3.48 and
 * radau5's 2.80; at 1e-4 and 1e-5 rodas4 is within the noise of the best
 * (0.39, 0.44). Our bdf was slower than both at every tolerance
 * (0.75–0.98). */
#define AUTO_TIGHT_RTOL   1e-5
#define AUTO_LOOSE_RTOL   1e-3   /* bs23 at or above, dopri5 below */

/* HW rodas.f step-size selection (as the driver's default). */
#define CTRL_FAC_MIN    (1.0 / 6.0)
#define CTRL_FAC_MAX    5.0
#define CTRL_SAFE       0.9

typedef struct {
  guint n;
  const HydOdeMethod *m;    /* the chosen method, after the first reset */
  gpointer ws;
  /* The default controller for a chosen method without propose. */
  guint64 n_accepted;       /* in the current interval */
  double h_acc, err_acc;
} AutoWork;

/* What the spectrum says. */
typedef struct {
  gboolean ok;
  gboolean bound;           /* Gershgorin bound, no eigenvalues */
  double rho;               /* largest |λ| */
  double rho_t;             /* where it was found */
  double active;            /* largest |λ| among the modes active to t_end */
} Spectrum;

static gpointer
auto_workspace_new (const HydOdeMethod *method, guint n)
{
  AutoWork *w = g_new0 (AutoWork, 1);

  w->n = n;
  return w;
}

static void
auto_workspace_free (gpointer ws)
{
  AutoWork *w = ws;

  if (w == NULL)
    return;
  if (w->m != NULL)
    w->m->workspace_free (w->ws);
  g_free (w);
}

/* Gershgorin: ρ ≤ max_i Σ_j |J_ij|. */
static double
gershgorin_bound (const HydJac *J)
{
  guint n = J->n;
  g_autofree double *row = g_new0 (double, n);
  double rho = 0.0;

  if (!J->sparse)
    {
      for (guint j = 0; j < n; j++)
        for (guint i = 0; i < n; i++)
          row[i] += fabs (J->dense[i + (gsize) j * n]);
    }
  else
    {
      for (guint j = 0; j < n; j++)
        for (guint k = J->colptr[j]; k < J->colptr[j + 1]; k++)
          row[J->rowind[k]] += fabs (J->values[k]);
    }
  for (guint i = 0; i < n; i++)
    rho = MAX (rho, row[i]);
  return rho;
}

/* The spectrum of J at (t, y) folded into sp. */
static void
analyse_at (HydOdeDriver *d, HydJac *J, double t, const double *y,
            const double *f, double horizon, double rtol, Spectrum *sp)
{
  guint n = J->n;

  if (hyd_ode_driver_jacobian (d, t, y, f, J, NULL) != 0)
    return;

  double rho = 0.0, active = 0.0;
  gboolean bound = TRUE;
  if (!J->sparse && n <= AUTO_EIG_MAX)
    {
      g_autofree double *A = g_memdup2 (J->dense, (gsize) n * n * sizeof (double));
      g_autofree double *wr = g_new (double, n);
      g_autofree double *wi = g_new (double, n);
      lapack_int info = LAPACKE_dgeev (LAPACK_COL_MAJOR, 'N', 'N', (lapack_int) n,
                                       A, (lapack_int) n, wr, wi, NULL, 1, NULL, 1);
      if (info == 0)
        {
          bound = FALSE;
          /* A mode decays below the tolerance when −Re λ·T > ln(1/rtol). */
          double decayed = log (1.0 / CLAMP (rtol, 1e-14, 0.5));
          for (guint i = 0; i < n; i++)
            {
              double mag = hypot (wr[i], wi[i]);
              rho = MAX (rho, mag);
              if (-wr[i] * horizon < decayed)
                active = MAX (active, mag);
            }
        }
    }
  if (bound)
    {
      rho = gershgorin_bound (J);
      active = 0.0;
    }
  if (!isfinite (rho))
    return;
  if (!sp->ok || rho > sp->rho)
    {
      sp->rho = rho;
      sp->rho_t = t;
      sp->bound = bound;
    }
  sp->active = sp->ok ? MAX (sp->active, active) : active;
  sp->ok = TRUE;
}

/* The probe: one explicit Euler step of HW dopri5.f HINIT's first guess,
 * 0.01·‖y‖/‖f‖ in the tolerance-weighted norm. */
static void
probe (HydOdeDriver *d, HydJac *J, double t, const double *y, const double *f0,
       double horizon, Spectrum *sp)
{
  const HydOdeOptions *o = hyd_ode_driver_options (d);
  guint n = hyd_ode_driver_n (d);
  double dny = 0.0, dnf = 0.0;

  for (guint i = 0; i < n; i++)
    {
      double base = o->atol != NULL ? o->atol[i] : o->rtol > 0.0 ? o->rtol : 1e-6;
      double sk = MAX (base + o->rtol * fabs (y[i]), 1e-300);
      dny += (y[i] / sk) * (y[i] / sk);
      dnf += (f0[i] / sk) * (f0[i] / sk);
    }
  double h = dny <= 1e-10 || dnf <= 1e-10 ? 1e-6 * horizon : 0.01 * sqrt (dny / dnf);
  h = MIN (h, 0.1 * horizon);
  if (!(h > 0.0) || !isfinite (h))
    return;

  g_autofree double *yp = g_new (double, n);
  g_autofree double *fp = g_new (double, n);
  for (guint i = 0; i < n; i++)
    yp[i] = y[i] + h * f0[i];
  if (hyd_ode_driver_rhs (d, t + h, yp, fp) != 0)
    return;
  analyse_at (d, J, t + h, yp, fp, horizon, o->rtol, sp);
}

static const HydOdeMethod *
lookup_first (const char *const *ids, const char **missing)
{
  *missing = NULL;
  for (guint i = 0; ids[i] != NULL; i++)
    {
      const HydOdeMethod *m = hyd_ode_method_lookup (ids[i]);
      if (m != NULL)
        return m;
      if (*missing == NULL)
        *missing = ids[i];
    }
  return NULL;
}

/* The method for the rest of the run from (t, y), with the reasons in
 * *why and, when the preferred one is not built, its id in *missing. */
static const HydOdeMethod *
decide (HydOdeDriver *d, guint n, double t, const double *y, const double *f0,
        char **why, const char **missing)
{
  const HydOdeOptions *o = hyd_ode_driver_options (d);
  double horizon = o->t_end - t;
  double rtol = o->rtol;
  gboolean fixed = o->fixed_step > 0.0;
  Spectrum sp = { 0 };

  /* Dense storage for the eigenvalues (the driver converts a sparse
   * Jacobian); the run's own kind for the bound of a large system. */
  g_autoptr (HydJac) J = n <= AUTO_EIG_MAX ? hyd_jac_new_dense (n)
                                           : hyd_ode_driver_jac_new (d);
  analyse_at (d, J, t, y, f0, horizon, rtol, &sp);
  probe (d, J, t, y, f0, horizon, &sp);

  static const char *const stiff_ids[] = { "rodas4", "radau5", "bdf", NULL };
  static const char *const tight_ids[] = { "rodas5p", "radau5", "rodas4", NULL };
  static const char *const large_ids[] = { "bdf", "rodas4", NULL };
  static const char *const dopri5_ids[] = { "dopri5", "bs23", "rodas4", NULL };
  static const char *const bs23_ids[] = { "bs23", "dopri5", "rodas4", NULL };
  static const char *const fixed_explicit_ids[] = { "dopri5", "rk4", "rodas4", NULL };
  static const char *const fixed_stiff_ids[] = { "rodas4", "radau5", NULL };
  const char *const *ids;

  gboolean loose = rtol >= AUTO_LOOSE_RTOL;
  const char *explicit_id = loose ? "bs23" : "dopri5";
  double p = loose ? 3.0 : 5.0;
  double beta = loose ? 2.51 : 3.31;   /* real stability boundaries */
  g_autofree char *where = NULL;
  if (sp.ok && sp.rho_t != t)
    where = g_strdup_printf (" at t = %.3g (a probe step on)", sp.rho_t);

  if (!sp.ok)
    {
      ids = fixed ? fixed_stiff_ids : stiff_ids;
      *why = g_strdup ("the Jacobian could not be evaluated; an L-stable "
                       "method is the safe choice");
    }
  else if (fixed)
    {
      double hr = o->fixed_step * sp.rho;
      gboolean stable = hr <= 0.9 * 3.31;
      ids = stable ? fixed_explicit_ids : fixed_stiff_ids;
      *why = g_strdup_printf ("fixed step %.3g × largest |λ| %.3g s⁻¹%s%s = %.3g, "
                              "%s dopri5's stability limit 3.3",
                              o->fixed_step, sp.rho, sp.bound ? " (Gershgorin bound)" : "",
                              where != NULL ? where : "", hr,
                              stable ? "inside" : "outside");
    }
  else
    {
      double s = MAX (sp.active, 1.0 / horizon);
      double h_acc = pow (rtol > 0.0 ? rtol : 1e-6, 1.0 / p) / s;
      double h_stab = sp.rho > 0.0 ? beta / sp.rho : INFINITY;
      double ratio = sp.rho / s;
      gboolean stiff = h_acc > AUTO_COST_RATIO * h_stab;
      g_autofree char *numbers =
        g_strdup_printf ("largest |λ| %.3g s⁻¹%s%s, fastest mode still active "
                         "at t_end %.3g s⁻¹: stiffness ratio %.3g; %s "
                         "would be held to h ≤ %.3g by stability against "
                         "h ≈ %.3g for accuracy at rtol %g",
                         sp.rho, sp.bound ? " (Gershgorin bound)" : "",
                         where != NULL ? where : "", s, ratio, explicit_id,
                         h_stab, h_acc, rtol);
      if (!stiff)
        {
          ids = loose ? bs23_ids : dopri5_ids;
          *why = g_strdup_printf ("not stiff: %s", numbers);
        }
      else if (n > AUTO_LARGE)
        {
          ids = large_ids;
          *why = g_strdup_printf ("stiff and large (%u states): %s", n, numbers);
        }
      else if (rtol < AUTO_TIGHT_RTOL)
        {
          ids = tight_ids;
          *why = g_strdup_printf ("stiff, tight tolerance (rtol < %g): %s",
                                  AUTO_TIGHT_RTOL, numbers);
        }
      else
        {
          ids = stiff_ids;
          *why = g_strdup_printf ("stiff: %s", numbers);
        }
    }

  const HydOdeMethod *m = lookup_first (ids, missing);
  if (m == NULL)
    {
      /* The default solver is always built. */
      m = hyd_ode_method_lookup (HYD_SOLVER_DEFAULT);
      *missing = ids[0];
    }
  g_assert (m != NULL);
  if (*missing != NULL && g_strcmp0 (*missing, m->info.id) == 0)
    *missing = NULL;
  return m;
}

/* The first choice, at t0. */
static void
choose (AutoWork *w, HydOdeDriver *d, double t, const double *y, const double *f0)
{
  g_autofree char *why = NULL;
  const char *missing = NULL;

  w->m = decide (d, w->n, t, y, f0, &why, &missing);
  if (missing != NULL)
    hyd_ode_driver_note (d, "auto chose %s (%s is not in this build): %s",
                         w->m->info.id, missing, why);
  else
    hyd_ode_driver_note (d, "auto chose %s: %s", w->m->info.id, why);
  w->ws = w->m->workspace_new (w->m, w->n);
}

/* At a breakpoint or an event an explicit choice is checked again: a
 * circuit may turn stiff when a valve closes. An implicit one stays (it is
 * never badly wrong, and the check costs two Jacobians). */
static void
reconsider (AutoWork *w, HydOdeDriver *d, double t, const double *y,
            const double *f0)
{
  g_autofree char *why = NULL;
  const char *missing = NULL;

  if (w->m->info.implicit || !(hyd_ode_driver_options (d)->t_end > t))
    return;
  const HydOdeMethod *m = decide (d, w->n, t, y, f0, &why, &missing);
  if (!m->info.implicit)
    return;
  hyd_ode_driver_note (d, "at t = %.6g auto switched from %s to %s: %s",
                       t, w->m->info.id, m->info.id, why);
  w->m->workspace_free (w->ws);
  w->m = m;
  w->ws = m->workspace_new (m, w->n);
}

static void
auto_reset (gpointer ws, HydOdeDriver *d, double t, const double *y,
            const double *f0)
{
  AutoWork *w = ws;

  if (w->m == NULL)
    choose (w, d, t, y, f0);
  else
    reconsider (w, d, t, y, f0);
  w->n_accepted = 0;
  w->h_acc = 0.0;
  if (w->m->reset != NULL)
    w->m->reset (w->ws, d, t, y, f0);
}

static int
auto_prepare (gpointer ws, HydOdeDriver *d, double t, const double *y,
              const double *f0)
{
  AutoWork *w = ws;

  return w->m->prepare (w->ws, d, t, y, f0);
}

static HydAttempt
auto_attempt (gpointer ws, HydOdeDriver *d, double t, const double *y,
              const double *f0, double h, double *y_new, double *err)
{
  AutoWork *w = ws;

  return w->m->attempt (w->ws, d, t, y, f0, h, y_new, err);
}

static int
auto_dense (gpointer ws, HydOdeDriver *d, double theta, double *y_out)
{
  AutoWork *w = ws;

  return w->m->dense (w->ws, d, theta, y_out);
}

static double
auto_propose (gpointer ws, HydOdeDriver *d, double h, double err,
              gboolean accepted, gboolean after_reject)
{
  AutoWork *w = ws;
  double q = w->m->error_order;

  if (w->m->propose != NULL)
    return w->m->propose (w->ws, d, h, err, accepted, after_reject);

  /* The driver's default: HW rodas.f with Gustafsson's predictive control. */
  double fac = CLAMP (pow (err, 1.0 / q) / CTRL_SAFE, CTRL_FAC_MIN, CTRL_FAC_MAX);
  if (!accepted)
    return w->n_accepted == 0 ? 0.1 : 1.0 / fac;
  if (w->n_accepted > 0 && w->h_acc > 0.0)
    {
      double facgus = (w->h_acc / h) * pow (err * err / w->err_acc, 1.0 / q)
                      / CTRL_SAFE;
      fac = MAX (fac, CLAMP (facgus, CTRL_FAC_MIN, CTRL_FAC_MAX));
    }
  w->h_acc = h;
  w->err_acc = MAX (1e-2, err);
  double ratio = 1.0 / fac;
  return after_reject ? MIN (ratio, 1.0) : ratio;
}

static void
auto_accept (gpointer ws, HydOdeDriver *d, double t_new, const double *y_new,
             const double *f_new)
{
  AutoWork *w = ws;

  w->n_accepted++;
  if (w->m->accept != NULL)
    w->m->accept (w->ws, d, t_new, y_new, f_new);
}

static const double *
auto_fsal (gpointer ws)
{
  AutoWork *w = ws;

  return w->m->fsal != NULL ? w->m->fsal (w->ws) : NULL;
}

static const HydOdeMethod auto_method = {
  .info = {
    .id = "auto",
    .family = "selection",
    .order = "—",
    .implicit = TRUE,
    .adaptive = TRUE,
    .multistep = FALSE,
    .notes = "picks dopri5/bs23 (non-stiff), rodas4, rodas5p (rtol "
             "below 1e-5) or bdf (very large) from the Jacobian's eigenvalues "
             "and the tolerance, and says which and why in the result's note",
  },
  .order = 4,
  .error_order = 4.0,
  .workspace_new = auto_workspace_new,
  .workspace_free = auto_workspace_free,
  .prepare = auto_prepare,
  .attempt = auto_attempt,
  .dense = auto_dense,
  .reset = auto_reset,
  .propose = auto_propose,
  .accept = auto_accept,
  .fsal = auto_fsal,
};

static const HydOdeMethod *const auto_members[] = {
  &auto_method,
};

const HydOdeMethod *const *
hyd_ode_family_auto (guint *n)
{
  *n = G_N_ELEMENTS (auto_members);
  return auto_members;
}
