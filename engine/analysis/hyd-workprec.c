/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-workprec.c — work-precision runs (hyd-workprec.h): the runs, the
 * reference and the error measure of `bramah-cli bench`, for the CLI and
 * the solver lab. */
#include "hyd-workprec.h"

#include <math.h>
#include <string.h>

double
hyd_workprec_now (clockid_t clock)
{
  struct timespec ts;
  clock_gettime (clock, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

gboolean
hyd_workprec_init (HydWorkPrec *wp, HydSystem *sys, const HydSimOptions *sim,
                   const char *where, guint64 max_samples, GError **error)
{
  memset (wp, 0, sizeof *wp);
  wp->sys = sys;
  wp->sim = sim;
  wp->n = hyd_system_get_n_states (sys);
  wp->atol = g_new (double, wp->n + 1);
  hyd_system_get_atol (sys, sim, wp->atol);
  wp->events = sim->events;
  wp->ref_solver = hyd_solver_lookup ("radau5") != NULL ? "radau5" : HYD_SOLVER_DEFAULT;

  /* Samples t_k = k·Δ while t_k < t_end − 1e-9·Δ, then t_end
   * (circuit-format.md; hyd-ode.c counts them the same way). */
  wp->out_dt = sim->output_interval;
  double limit = sim->t_end - 1e-9 * wp->out_dt;
  guint64 k = (guint64) MAX (0.0, ceil (limit / wp->out_dt));
  while (k > 0 && !((double) (k - 1) * wp->out_dt < limit))
    k--;
  while ((double) k * wp->out_dt < limit)
    k++;
  if (k > max_samples)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "%s: %" G_GUINT64_FORMAT " output samples are too many for a benchmark",
                   where, k);
      hyd_workprec_clear (wp);
      return FALSE;
    }
  wp->n_regular = k;
  wp->n_samples = (guint) k + 1;
  return TRUE;
}

void
hyd_workprec_clear (HydWorkPrec *wp)
{
  g_clear_pointer (&wp->atol, g_free);
  g_clear_pointer (&wp->y_ref, g_free);
}

void
hyd_workprec_samples_init (const HydWorkPrec *wp, HydWorkPrecSamples *s)
{
  s->buf = g_new (double, (gsize) wp->n_samples * wp->n + 1);
  s->n = wp->n;
  s->cap = wp->n_samples;
  s->count = 0;
}

gboolean
hyd_workprec_collect (double t, const double *y, gpointer user)
{
  HydWorkPrecSamples *s = user;
  if (s->count < s->cap)
    memcpy (s->buf + (gsize) s->count * s->n, y, s->n * sizeof (double));
  s->count++;
  return TRUE;
}

HydOdeStatus
hyd_workprec_solve (HydWorkPrec *wp, const char *solver, double rtol, const double *atol,
                    gboolean fd_jacobian, const gint *cancel, HydOdeStepLog *step_log,
                    clockid_t clock, HydWorkPrecSamples *s, HydOdeResult *res, double *seconds)
{
  HydOdeProblem problem;
  HydOdeOptions opts;
  g_autofree double *y = g_memdup2 (hyd_system_get_initial_state (wp->sys),
                                    (wp->n + 1) * sizeof (double));
  g_autofree double *atol_scaled = NULL;
  const GArray *bp = hyd_system_get_breakpoints (wp->sys);

  if (atol == NULL)
    {
      /* work-precision convention: atol tightens with rtol, so that
       * pressures (atol 100 Pa) do not stop improving below 1e-5 */
      atol_scaled = g_new (double, wp->n + 1);
      for (guint i = 0; i < wp->n; i++)
        atol_scaled[i] = wp->atol[i] * rtol / wp->sim->rtol;
      atol = atol_scaled;
    }
  hyd_system_get_problem (wp->sys, &problem);
  hyd_ode_options_init (&opts);
  opts.t0 = 0.0;
  opts.t_end = wp->sim->t_end;
  opts.rtol = rtol;
  opts.atol = atol;
  opts.max_step = wp->sim->max_step;
  opts.output_interval = wp->out_dt;
  opts.breakpoints = (const double *) bp->data;
  opts.n_breakpoints = bp->len;
  opts.fd_jacobian = fd_jacobian;
  opts.events = wp->events;
  opts.cancel = cancel;
  opts.output = hyd_workprec_collect;
  opts.output_user = s;
  opts.step_log = step_log;

  s->count = 0;
  hyd_ode_result_clear (res);
  double t0 = hyd_workprec_now (clock);
  HydOdeStatus status = hyd_ode_solve (solver, &problem, &opts, y, res);
  *seconds = hyd_workprec_now (clock) - t0;
  return status;
}

gboolean
hyd_workprec_reference (HydWorkPrec *wp, const char *where, const gint *cancel,
                        clockid_t clock, GError **error)
{
  g_autofree double *atol = g_new (double, wp->n + 1);
  HydWorkPrecSamples s;
  g_auto (HydOdeResult) res = { 0 };
  double seconds;

  wp->ref_factor = HYD_WORKPREC_REF_RTOL / MAX (wp->sim->rtol, HYD_WORKPREC_RTOL_REF);
  for (guint i = 0; i < wp->n; i++)
    atol[i] = wp->atol[i] * wp->ref_factor;
  hyd_workprec_samples_init (wp, &s);
  HydOdeStatus st = hyd_workprec_solve (wp, wp->ref_solver, HYD_WORKPREC_REF_RTOL, atol, FALSE,
                                        cancel, NULL, clock, &s, &res, &seconds);
  if (st != HYD_ODE_SUCCESS || s.count != wp->n_samples)
    {
      g_set_error (error, G_IO_ERROR, st == HYD_ODE_CANCELLED ? G_IO_ERROR_CANCELLED : G_IO_ERROR_FAILED,
                   "%s: the reference run (%s, rtol %g) failed (%s): %s", where, wp->ref_solver,
                   HYD_WORKPREC_REF_RTOL, hyd_ode_status_name (st),
                   res.message ? res.message : "missing samples");
      g_free (s.buf);
      return FALSE;
    }
  g_free (wp->y_ref);
  wp->y_ref = s.buf;
  wp->ref_steps = res.stats.steps;
  wp->ref_seconds = seconds;
  return TRUE;
}

double
hyd_workprec_error (const HydWorkPrec *wp, const HydWorkPrecSamples *s)
{
  if (wp->y_ref == NULL || s->count != wp->n_samples)
    return NAN;
  double worst = 0.0;
  for (guint k = 0; k < wp->n_samples; k++)
    for (guint i = 0; i < wp->n; i++)
      {
        double yr = wp->y_ref[(gsize) k * wp->n + i];
        double e = fabs (s->buf[(gsize) k * wp->n + i] - yr)
                   / (wp->atol[i] + HYD_WORKPREC_RTOL_REF * fabs (yr));
        if (isnan (e))
          return NAN;
        worst = MAX (worst, e);
      }
  return worst;
}
