/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-tlm.c — transmission-line modelling as a solver (Burton 1994).
 *
 * TLM is not a method for y' = f(y): the problem steps itself through
 * HydOdeProblem.tlm (the circuit replaces every fluid volume by lines whose
 * delay is the step Δ and solves each component on its own against the
 * characteristic pressures its lines bring, compile/hyd-system-tlm.c). This
 * file is the part the driver sees: a trial step, its error, the next Δ,
 * dense output.
 *
 * Error and step (Burton 1994, §3.5): in a lossless line any difference
 * between the pressures at its two ends is the parasitic inertance's, so
 * the largest such difference over all lines, P_e, is the error. A step is
 * rejected when P_e exceeds ten times the reference P_ref (his 0.1 bar and
 * 1 bar); err = P_e / (10·P_ref) is what the driver compares with 1. The
 * reference follows the relative tolerance: P_ref = rtol · 10⁸ Pa, so the
 * default rtol 1e-4 gives Burton's 0.1 bar (docs/solvers.md, "TLM").
 * Next step, from the error smoothed over two steps (his eq. 3.31,
 * after Jansson et al. 1992): accepted, Δ·(P_ref/P̂_e)^a·(P̂_e,prev/P̂_e)^b
 * (eq. 3.29) within [Δ/5, 2Δ]; rejected, Δ·(P_ref/P_e)^0.7 (eq. 3.30);
 * never below Δ_min = 1 µs unless the driver must end an interval. The
 * parasitic pressure error grows as Δ² (I = Δ²·B/V times dQ/dt), so
 * a = 0.15 and b = 0.2 are Gustafsson's PI gains (0.3/p, 0.4/p) for p = 2;
 * Burton's own a = 10⁻³, b = 5·10⁻³ leave Δ almost where it starts. With
 * --fixed-step the driver keeps Δ and ignores the error.
 *
 * Dense output is linear between the step's ends: TLM is of low order and
 * its steps are short. */
#include "hyd-ode-private.h"

#include <math.h>
#include <string.h>

#define TLM_ALPHA_DEFAULT 0.2   /* Burton's α (his eq. 3.16, after Krus et al. 1990) */
#define TLM_PREF_PER_RTOL 1e8   /* P_ref = rtol · 10⁸ Pa: 0.1 bar at 1e-4 */
#define TLM_REJECT_FACTOR 10.0  /* reject above 10·P_ref (Burton: 1 bar) */
#define TLM_DT_MIN        1e-6  /* Burton's Δ_min */
#define TLM_GAIN_I        0.15
#define TLM_GAIN_P        0.2
#define TLM_REJECT_EXP    0.7

typedef struct {
  guint n;
  gpointer model;
  const HydTlmOps *ops;
  double *y0, *y1;    /* the last step's ends (dense output) */
  double *fd;         /* (y1 − y0)/h: the f the driver keeps */
  double *est;        /* the components' states' error estimate */
  double pe;          /* the last attempt's pressure error (Pa) */
  double e;           /* the last attempt's error, 1 = the rejection threshold */
  double pe_smooth_prev; /* the smoothed error of the last accepted step (units of the reference) */
  double pe_acc;      /* the last accepted step's error (units of the reference) */
  gboolean have_acc;
  char *partition;    /* how the model runs on threads, for the run's note */
} TlmWs;

static gpointer
tlm_workspace_new (const HydOdeMethod *method, guint n)
{
  TlmWs *w = g_new0 (TlmWs, 1);
  w->n = n;
  w->y0 = g_new0 (double, n + 1);
  w->y1 = g_new0 (double, n + 1);
  w->fd = g_new0 (double, n + 1);
  w->est = g_new0 (double, n + 1);
  return w;
}

static void
tlm_workspace_free (gpointer ws)
{
  TlmWs *w = ws;
  if (w->model != NULL)
    w->ops->destroy (w->model);
  g_free (w->y0);
  g_free (w->y1);
  g_free (w->fd);
  g_free (w->est);
  g_free (w->partition);
  g_free (w);
}

gboolean
hyd_tlm_attach (gpointer ws, const HydOdeProblem *problem, const HydOdeOptions *options,
                const double *y0, char **why)
{
  TlmWs *w = ws;
  double alpha = isnan (options->tlm_filter) ? TLM_ALPHA_DEFAULT : options->tlm_filter;
  if (!(alpha >= 0.0 && alpha < 1.0))
    {
      *why = g_strdup_printf ("the filter constant %g is outside [0, 1)", alpha);
      return FALSE;
    }
  w->ops = problem->tlm;
  w->model = w->ops->create (problem->user, options->t0, y0, alpha, options->threads, why);
  if (w->model != NULL && w->ops->partition != NULL)
    w->partition = w->ops->partition (w->model);
  return w->model != NULL;
}

static int
tlm_prepare (gpointer ws, HydOdeDriver *d, double t, const double *y, const double *f0)
{
  TlmWs *w = ws;
  if (w->partition != NULL)
    {
      hyd_ode_driver_note (d, "tlm: %s", w->partition);
      g_clear_pointer (&w->partition, g_free);
    }
  return 0;
}

static double
p_ref (HydOdeDriver *d)
{
  return MAX (hyd_ode_driver_rtol (d), 1e-12) * TLM_PREF_PER_RTOL;
}

static HydAttempt
tlm_attempt (gpointer ws, HydOdeDriver *d, double t, const double *y,
             const double *f0, double h, double *y_new, double *err)
{
  TlmWs *w = ws;
  HydOdeStats *st = hyd_ode_driver_stats (d);
  guint64 iterations = 0;
  int rc = w->ops->step (w->model, t, y, h, y_new, &w->pe, w->est, &iterations);
  st->newton += iterations;
  st->f_evals++;
  if (rc < 0)
    return HYD_ATTEMPT_FATAL;
  if (rc > 0)
    return HYD_ATTEMPT_DIVERGED;
  memcpy (w->y0, y, w->n * sizeof (double));
  memcpy (w->y1, y_new, w->n * sizeof (double));
  for (guint i = 0; i < w->n; i++)
    w->fd[i] = (y_new[i] - y[i]) / h;
  /* the lines' pressure error against 10·P_ref, the states' estimate
   * against the tolerances, as every other solver's */
  double e_states = hyd_ode_driver_error_norm (d, y, y_new, w->est);
  w->e = MAX (w->pe / (TLM_REJECT_FACTOR * p_ref (d)), e_states);
  *err = w->e;
  /* at Δ_min the step is taken whatever its error (Burton's Fig. 5.5b):
   * a jump in a flow shows as Z·ΔQ, which no step removes */
  if (h <= TLM_DT_MIN * (1.0 + 1e-9))
    *err = MIN (*err, 1.0);
  return HYD_ATTEMPT_OK;
}

static int
tlm_dense (gpointer ws, HydOdeDriver *d, double theta, double *y_out)
{
  TlmWs *w = ws;
  for (guint i = 0; i < w->n; i++)
    y_out[i] = w->y0[i] + theta * (w->y1[i] - w->y0[i]);
  return 0;
}

static double
tlm_propose (gpointer ws, HydOdeDriver *d, double h, double err,
             gboolean accepted, gboolean after_reject)
{
  TlmWs *w = ws;
  /* in units of the reference: Burton's P_e/P_ref, or ten times the
   * states' error norm (the step aims at a tenth of the tolerance, as at
   * a tenth of the rejection threshold for the lines) */
  double e = MAX (TLM_REJECT_FACTOR * w->e, 1e-6);
  double fac;

  if (!accepted)
    fac = pow (1.0 / e, TLM_REJECT_EXP);
  else
    {
      /* eq. 3.31: the error smoothed over this step and the last */
      double sm = w->have_acc ? 0.5 * (e + w->pe_acc) : e;
      fac = pow (1.0 / sm, TLM_GAIN_I);
      if (w->have_acc)
        fac *= pow (w->pe_smooth_prev / sm, TLM_GAIN_P);
      fac = CLAMP (fac, 0.2, 2.0);
      if (after_reject)
        fac = MIN (fac, 1.0);
      w->pe_smooth_prev = sm;
      w->pe_acc = e;
      w->have_acc = TRUE;
    }
  /* Burton's Δ_min: below it the error is let through (his Fig. 5.5b) */
  if (h * fac < TLM_DT_MIN)
    fac = TLM_DT_MIN / h;
  return fac;
}

static void
tlm_accept (gpointer ws, HydOdeDriver *d, double t_new, const double *y_new,
            const double *f_new)
{
  TlmWs *w = ws;
  w->ops->accept (w->model);
}

static char *
tlm_diverged_at (gpointer ws)
{
  TlmWs *w = ws;
  return w->ops->why != NULL ? w->ops->why (w->model) : NULL;
}

static const double *
tlm_fsal (gpointer ws)
{
  return ((TlmWs *) ws)->fd;
}

static int
tlm_step_events (gpointer ws, double *g)
{
  TlmWs *w = ws;
  return w->ops->events != NULL ? w->ops->events (w->model, g) : 1;
}

static const HydOdeMethod tlm_method = {
  .info = {
    .id = "tlm",
    .family = "transmission-line modelling",
    .order = "1",
    .implicit = FALSE,
    .adaptive = TRUE,
    .multistep = FALSE,
    .notes = "Burton 1994: every fluid volume a line of delay Δ, every "
             "component solved on its own (Newton on its own block); "
             "error = pressure difference across a line, P_ref = rtol·10⁸ Pa",
    .needs_model = TRUE,
  },
  .order = 1,
  .error_order = 2.0,
  .workspace_new = tlm_workspace_new,
  .workspace_free = tlm_workspace_free,
  .prepare = tlm_prepare,
  .attempt = tlm_attempt,
  .dense = tlm_dense,
  .propose = tlm_propose,
  .step_events = tlm_step_events,
  .accept = tlm_accept,
  .fsal = tlm_fsal,
  .diverged_at = tlm_diverged_at,
};

static const HydOdeMethod *const tlm_members[] = {
  &tlm_method,
};

const HydOdeMethod *const *
hyd_ode_family_tlm (guint *n)
{
  *n = G_N_ELEMENTS (tlm_members);
  return tlm_members;
}
