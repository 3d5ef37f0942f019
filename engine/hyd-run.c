/* hyd-run.c — one simulation run of a compiled system. */
#include "hyd-run.h"

#include <math.h>
#include <string.h>

typedef struct {
  HydSystem *sys;
  const HydRunSpec *spec;
  double *values;
  gboolean *below_vapour;
  double vapour;
  GPtrArray *warnings;
  gboolean stopped;
} RunState;

static gboolean
on_output (double t, const double *y, gpointer user)
{
  RunState *rs = user;
  HydSystem *sys = rs->sys;
  /* a node pressure first falling below the vapour pressure is worth a
   * warning (circuit-format.md, fluid.vapour_pressure) */
  for (guint b = 0; b < hyd_system_get_n_nodes (sys); b++)
    {
      const HydNodeInfo *ni = hyd_system_get_node (sys, b);
      if (ni->boundary || rs->below_vapour[b] || y[ni->state] >= rs->vapour)
        continue;
      rs->below_vapour[b] = TRUE;
      if (rs->warnings)
        g_ptr_array_add (rs->warnings,
                         g_strdup_printf ("node %s: pressure %.4g Pa fell below the vapour "
                                          "pressure %.4g Pa at t = %.6g s",
                                          ni->name, y[ni->state], rs->vapour, t));
    }
  if (rs->spec->sample == NULL)
    return TRUE;
  hyd_system_eval_variables (sys, t, y, rs->spec->vars, rs->spec->n_vars, rs->values);
  if (!rs->spec->sample (t, rs->values, rs->spec->n_vars, rs->spec->user))
    {
      rs->stopped = TRUE;
      return FALSE;
    }
  return TRUE;
}

HydOdeStatus
hyd_run_execute (HydSystem *sys, const HydRunSpec *spec, HydOdeResult *result, GPtrArray *warnings)
{
  const HydSimOptions *sim = spec->sim;
  guint n = hyd_system_get_n_states (sys);
  double *y = g_new (double, n + 1);
  double *atol = g_new (double, n + 1);
  memcpy (y, hyd_system_get_initial_state (sys), sizeof (double) * n);
  hyd_system_get_atol (sys, sim, atol);

  RunState rs = { 0 };
  rs.sys = sys;
  rs.spec = spec;
  rs.values = g_new0 (double, spec->n_vars + 1);
  rs.below_vapour = g_new0 (gboolean, hyd_system_get_n_nodes (sys) + 1);
  rs.warnings = warnings;
  rs.vapour = hyd_system_get_fluid (sys)->vapour_pressure;

  HydOdeProblem problem;
  hyd_system_get_problem (sys, &problem);

  HydOdeOptions opts;
  hyd_ode_options_init (&opts);
  opts.t0 = 0.0;
  opts.t_end = sim->t_end;
  opts.rtol = sim->rtol;
  opts.atol = atol;
  opts.max_step = sim->max_step;
  opts.fixed_step = sim->fixed_step;
  opts.output_interval = sim->output_interval;
  const GArray *bp = hyd_system_get_breakpoints (sys);
  opts.breakpoints = (const double *) bp->data;
  opts.n_breakpoints = bp->len;
  opts.fd_jacobian = spec->fd_jacobian;
  opts.events = sim->events;
  opts.cancel = spec->cancel;
  opts.output = on_output;
  opts.output_user = &rs;

  HydOdeStatus status = hyd_ode_solve (sim->solver, &problem, &opts, y, result);

  g_free (rs.values);
  g_free (rs.below_vapour);
  g_free (y);
  g_free (atol);
  return status;
}
