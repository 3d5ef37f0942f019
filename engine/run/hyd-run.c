/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-run.c — one simulation run of a compiled system.
 *
 * A run is one stepper (hyd-ode.h) advanced from 0 to t_end. Parameters that
 * change during it (hyd-run.h) stop the advance at an output sample; the
 * parameter is overridden and the same integrator is reinitialised there
 * (hyd_ode_stepper_reinit), going on on the same sample grid. The live
 * runner (hyd-runner.c) and a replay of its change log take the same path,
 * so they give the same samples. */
#include "hyd-run.h"
#include "hyd-i18n.h"

#include <math.h>
#include <string.h>

HydRunChange *
hyd_run_change_new (double t, const char *component, const char *param,
                    double old_value, double new_value)
{
  HydRunChange *change = g_new0 (HydRunChange, 1);
  change->t = t;
  change->component = g_strdup (component);
  change->param = g_strdup (param);
  change->old_value = old_value;
  change->new_value = new_value;
  return change;
}

HydRunChange *
hyd_run_change_copy (const HydRunChange *change)
{
  g_return_val_if_fail (change != NULL, NULL);
  return hyd_run_change_new (change->t, change->component, change->param,
                             change->old_value, change->new_value);
}

void
hyd_run_change_free (HydRunChange *change)
{
  if (change == NULL)
    return;
  g_free (change->component);
  g_free (change->param);
  g_free (change);
}

typedef struct {
  HydSystem *sys;
  const HydRunSpec *spec;
  double *values;
  gboolean *below_vapour;
  double vapour;
  /* cavitation of the floored fluids: per node, the first void episode */
  gboolean floored;
  double *voids;          /* [n_nodes] scratch */
  double *cav_onset;      /* time the first void appeared, NAN before */
  double *cav_max;        /* the largest void so far, m³ */
  double *cav_t_max;      /* and when */
  GPtrArray *warnings;
  GArray *limits;         /* of HydFlowLimit (relief valves), checked per sample */
  gboolean *over_limit;   /* [limits->len] already reported */
  /* one evaluation a sample: the run's variables, then the relief valves'
   * flows (values and eval_vars: [spec->n_vars + limits->len]) */
  int *eval_vars;
  gboolean stopped;
  /* integrations separated by changes */
  guint n;
  double t_end;
  double tol;             /* sample times within 1e-9·Δ are the same */
  double seg_t0;          /* start of the current integration */
  const HydOdeStats *stats; /* the stepper's, summed over the run */
  guint next_replay;      /* first entry of spec->replay not applied */
  GPtrArray *requests;    /* of HydRunChange*: live requests pending */
  gboolean restart;       /* stopped for changes at t_restart */
  double t_restart;
  double *y_restart;
} RunState;

static gboolean
replay_due (const RunState *rs, double t)
{
  const GPtrArray *replay = rs->spec->replay;
  if (replay == NULL || rs->next_replay >= replay->len)
    return FALSE;
  const HydRunChange *c = g_ptr_array_index (replay, rs->next_replay);
  return c->t <= t + rs->tol;
}

static gboolean
wants_warnings (const RunState *rs)
{
  return rs->warnings != NULL || rs->spec->diagnostics != NULL;
}

/* A run warning (takes the reference): its text to `warnings`, itself to
 * the spec's diagnostics. */
static void
run_warn (RunState *rs, HydDiagnostic *d)
{
  if (rs->warnings)
    g_ptr_array_add (rs->warnings, g_strdup (d->message));
  if (rs->spec->diagnostics)
    g_ptr_array_add (rs->spec->diagnostics, d);
  else
    hyd_diagnostic_unref (d);
}

/* The component and port a node's name ("C1.A.p", "C1.A") begins with. */
static void
set_node_place (HydDiagnostic *d, const char *node_name)
{
  g_auto (GStrv) parts = g_strsplit (node_name, ".", 3);
  if (parts[0] && parts[1])
    {
      hyd_diagnostic_set_component (d, parts[0]);
      hyd_diagnostic_set_port (d, parts[1]);
    }
}

static void
apply_one (RunState *rs, double t, const char *component, const char *param, double value)
{
  g_autoptr (GError) error = NULL;
  double old_value, new_value;

  if (!hyd_system_override_param (rs->sys, t, component, param, value,
                                  &old_value, &new_value, &error))
    {
      if (wants_warnings (rs))
        {
          g_autofree char *time = g_strdup_printf ("%.6g", t);
          g_autofree char *wanted = g_strdup_printf ("%g", value);
          HydDiagnostic *d = hyd_diagnostic_new (HYD_DIAGNOSTIC_CHANGE_REFUSED, HYD_SEVERITY_WARNING,
                                                 N_("t = %s s: %s.%s not changed to %s: %s"),
                                                 time, component, param, wanted, error->message,
                                                 NULL);
          hyd_diagnostic_set_phrase_from_error (d, 4, error);
          hyd_diagnostic_set_component (d, component);
          hyd_diagnostic_set_parameter (d, param);
          hyd_diagnostic_set_time (d, t);
          run_warn (rs, d);
        }
      return;
    }
  HydRunChange *change = hyd_run_change_new (t, component, param, old_value, new_value);
  if (rs->spec->changed)
    rs->spec->changed (change, rs->spec->user);
  if (rs->spec->change_log)
    g_ptr_array_add (rs->spec->change_log, change);
  else
    hyd_run_change_free (change);
}

/* The replayed changes due at t, then the live requests, in order. */
static void
apply_changes (RunState *rs, double t)
{
  while (replay_due (rs, t))
    {
      const HydRunChange *c = g_ptr_array_index (rs->spec->replay, rs->next_replay);
      rs->next_replay++;
      apply_one (rs, t, c->component, c->param, c->new_value);
    }
  for (guint i = 0; i < rs->requests->len; i++)
    {
      const HydRunChange *c = g_ptr_array_index (rs->requests, i);
      apply_one (rs, t, c->component, c->param, c->new_value);
    }
  g_ptr_array_set_size (rs->requests, 0);
}

/* "V1.B" of "V1.B.p" */
static char *
node_label (const HydNodeInfo *ni)
{
  return g_str_has_suffix (ni->name, ".p") ? g_strndup (ni->name, strlen (ni->name) - 2)
                                            : g_strdup (ni->name);
}

/* The warning for a node that cavitated: when its first void appeared, at
 * what pressure, and how large the void grew and when (in the panel's
 * units: bar, L or cm³). */
static void
report_cavitation (RunState *rs, guint b)
{
  if (!wants_warnings (rs))
    return;
  g_autofree char *label = node_label (hyd_system_get_node (rs->sys, b));
  double litres = rs->cav_max[b] * 1e3;
  g_autofree char *size = litres >= 0.1
                          ? g_strdup_printf ("%.3g L", litres)
                          : g_strdup_printf ("%.3g cm³", litres * 1e3);
  g_autofree char *onset = g_strdup_printf ("%.3g", rs->cav_onset[b]);
  g_autofree char *vapour = g_strdup_printf ("%.2f", rs->vapour * 1e-5);
  g_autofree char *t_max = g_strdup_printf ("%.3g", rs->cav_t_max[b]);
  HydDiagnostic *d = hyd_diagnostic_new (HYD_DIAGNOSTIC_CAVITATION, HYD_SEVERITY_WARNING,
                                         N_("%s cavitates at t = %s s (vapour pressure %s bar; "
                                            "largest void %s, at t = %s s)"),
                                         label, onset, vapour, size, t_max, NULL);
  set_node_place (d, label);
  hyd_diagnostic_set_time (d, rs->cav_onset[b]);
  run_warn (rs, d);
}

/* Cavitation of the floored fluids (hyd-fluid.h): a node holds a void while
 * its state ψ is below the vapour pressure. Per node the time of the first
 * void and the largest void are kept; the run reports them once, at its end. */
static void
track_cavitation (RunState *rs, double t, const double *y)
{
  HydSystem *sys = rs->sys;
  guint nn = hyd_system_get_n_nodes (sys);
  gboolean any = FALSE;
  for (guint b = 0; b < nn && !any; b++)
    any = hyd_system_node_cavitating (sys, b, y, NULL);
  if (!any)
    return;
  hyd_system_node_voids (sys, t, y, rs->voids);
  for (guint b = 0; b < nn; b++)
    {
      if (!hyd_system_node_cavitating (sys, b, y, NULL))
        continue;
      if (isnan (rs->cav_onset[b]))
        rs->cav_onset[b] = t;
      if (rs->voids[b] > rs->cav_max[b])
        {
          rs->cav_max[b] = rs->voids[b];
          rs->cav_t_max[b] = t;
        }
    }
}

/* A relief valve passing far more than its nominal flow (hyd-system.c,
 * hyd_system_get_flow_limits) is worth a warning, once per valve. */
static gboolean
checks_flow_limits (RunState *rs)
{
  return rs->limits->len > 0 && wants_warnings (rs);
}

/* flows: the valves' flows at t, in the order of rs->limits */
static void
check_flow_limits (RunState *rs, double t, const double *flows)
{
  GArray *lim = rs->limits;
  for (guint k = 0; k < lim->len; k++)
    {
      const HydFlowLimit *l = &g_array_index (lim, HydFlowLimit, k);
      double q = fabs (flows[k]);
      if (rs->over_limit[k] || !(q > l->limit))
        continue;
      rs->over_limit[k] = TRUE;
      g_autofree char *flow = g_strdup_printf ("%.3g", q * 6e4);
      g_autofree char *time = g_strdup_printf ("%.4g", t);
      g_autofree char *times = g_strdup_printf ("%.2g", q / l->nominal);
      g_autofree char *nominal = g_strdup_printf ("%.3g", l->nominal * 6e4);
      HydDiagnostic *d = hyd_diagnostic_new (
          HYD_DIAGNOSTIC_RELIEF_OVERFLOW, HYD_SEVERITY_WARNING,
          N_("%s: the relief valve passes %s L/min at t = %s s, %s times its nominal flow of "
             "%s L/min; a valve of that rating cannot open so far (raise nominal_flow, or limit "
             "the opening with max_opening)"),
          l->component, flow, time, times, nominal, NULL);
      hyd_diagnostic_set_component (d, l->component);
      hyd_diagnostic_set_parameter (d, "nominal_flow");
      hyd_diagnostic_set_time (d, t);
      run_warn (rs, d);
    }
}

static gboolean
on_output (double t, const double *y, gpointer user)
{
  RunState *rs = user;
  HydSystem *sys = rs->sys;

  /* Changes wanted from this sample on: stop before reporting it; the next
   * integration starts here and reports it with the values after them. */
  if (t > rs->seg_t0 && t < rs->t_end)
    {
      gboolean due = replay_due (rs, t);
      if (rs->spec->poll != NULL)
        {
          rs->spec->poll (t, rs->requests, rs->spec->user);
          due = due || rs->requests->len > 0;
        }
      if (due)
        {
          rs->restart = TRUE;
          rs->t_restart = t;
          memcpy (rs->y_restart, y, sizeof (double) * rs->n);
          return FALSE;
        }
    }

  if (rs->floored)
    track_cavitation (rs, t, y);
  else
    /* a node pressure first falling below the vapour pressure is worth a
     * warning (circuit-format.md, fluid.vapour_pressure) */
    for (guint b = 0; b < hyd_system_get_n_nodes (sys); b++)
      {
        const HydNodeInfo *ni = hyd_system_get_node (sys, b);
        if (ni->boundary || rs->below_vapour[b] || y[ni->state] >= rs->vapour)
          continue;
        rs->below_vapour[b] = TRUE;
        if (wants_warnings (rs))
          {
            g_autofree char *p = g_strdup_printf ("%.4g", y[ni->state]);
            g_autofree char *pv = g_strdup_printf ("%.4g", rs->vapour);
            g_autofree char *time = g_strdup_printf ("%.6g", t);
            HydDiagnostic *d = hyd_diagnostic_new (
                HYD_DIAGNOSTIC_BELOW_VAPOUR, HYD_SEVERITY_WARNING,
                N_("node %s: pressure %s Pa fell below the vapour pressure %s Pa at t = %s s"),
                ni->name, p, pv, time, NULL);
            set_node_place (d, ni->name);
            hyd_diagnostic_set_time (d, t);
            run_warn (rs, d);
          }
      }
  /* the sample's variables and the valves' flows in one evaluation, which
   * shares the node pressures and components they both need */
  guint nv = rs->spec->n_vars, first = rs->spec->sample != NULL ? 0 : nv;
  gboolean limits = checks_flow_limits (rs);
  guint count = nv - first + (limits ? rs->limits->len : 0);
  if (count > 0)
    hyd_system_eval_variables (sys, t, y, rs->eval_vars + first, count, rs->values + first);
  if (limits)
    check_flow_limits (rs, t, rs->values + nv);
  if (rs->spec->progress != NULL)
    {
      *rs->spec->progress = *rs->stats;
    }
  if (rs->spec->sample == NULL)
    return TRUE;
  if (!rs->spec->sample (t, rs->values, nv, rs->spec->user))
    {
      rs->stopped = TRUE;
      return FALSE;
    }
  return TRUE;
}

double
hyd_run_count_samples (const HydSimOptions *sim)
{
  g_return_val_if_fail (sim != NULL, INFINITY);
  if (!(sim->output_interval > 0) || !isfinite (sim->t_end))
    return INFINITY;
  if (!(sim->t_end > 0))
    return 1;
  /* k·Δ < t_end for k = 0 … ceil(t_end/Δ) − 1, then t_end itself; one
   * more for rounding */
  return ceil (sim->t_end / sim->output_interval) + 2;
}

HydOdeStatus
hyd_run_execute (HydSystem *sys, const HydRunSpec *spec, HydOdeResult *result, GPtrArray *warnings)
{
  const HydSimOptions *sim = spec->sim;
  double n_samples = hyd_run_count_samples (sim);
  if (!(n_samples <= HYD_RUN_MAX_SAMPLES))
    {
      if (result != NULL)
        {
          memset (result, 0, sizeof *result);
          result->status = HYD_ODE_BAD_INPUT;
          result->worst_state = -1;
          /* as a solver's message: a template and its arguments (hyd-ode.h) */
          g_autoptr (GStrvBuilder) parts = g_strv_builder_new ();
          g_strv_builder_add (parts, N_("t_end %s s with output_interval %s s gives %s output samples, "
                                        "more than the %s a run may report: raise output_interval or "
                                        "lower t_end"));
          g_autofree char *t_end = g_strdup_printf ("%g", sim->t_end);
          g_autofree char *interval = g_strdup_printf ("%g", sim->output_interval);
          g_autofree char *samples = g_strdup_printf ("%.0f", n_samples);
          g_autofree char *most = g_strdup_printf ("%.0f", HYD_RUN_MAX_SAMPLES);
          g_strv_builder_add_many (parts, t_end, interval, samples, most, NULL);
          result->message_parts = g_strv_builder_end (parts);
          result->message = hyd_diagnostic_expand (result->message_parts[0],
                                                   (const char *const *) result->message_parts + 1);
        }
      return HYD_ODE_BAD_INPUT;
    }
  guint n = hyd_system_get_n_states (sys);
  double *y = g_new (double, n + 1);
  double *atol = g_new (double, n + 1);
  memcpy (y, hyd_system_get_initial_state (sys), sizeof (double) * n);
  hyd_system_get_atol (sys, sim, atol);

  RunState rs = { 0 };
  rs.sys = sys;
  rs.spec = spec;
  rs.below_vapour = g_new0 (gboolean, hyd_system_get_n_nodes (sys) + 1);
  rs.warnings = warnings;
  rs.vapour = hyd_system_get_fluid (sys)->vapour_pressure;
  rs.floored = hyd_fluid_has_floor (hyd_system_get_fluid (sys));
  {
    guint nn = hyd_system_get_n_nodes (sys);
    rs.voids = g_new0 (double, nn + 1);
    rs.cav_onset = g_new (double, nn + 1);
    rs.cav_max = g_new0 (double, nn + 1);
    rs.cav_t_max = g_new0 (double, nn + 1);
    for (guint b = 0; b < nn; b++)
      rs.cav_onset[b] = NAN;
  }
  rs.limits = hyd_system_get_flow_limits (sys);
  rs.over_limit = g_new0 (gboolean, rs.limits->len + 1);
  rs.values = g_new0 (double, spec->n_vars + rs.limits->len + 1);
  rs.eval_vars = g_new0 (int, spec->n_vars + rs.limits->len + 1);
  if (spec->n_vars > 0)
    memcpy (rs.eval_vars, spec->vars, sizeof (int) * spec->n_vars);
  for (guint k = 0; k < rs.limits->len; k++)
    rs.eval_vars[spec->n_vars + k] = g_array_index (rs.limits, HydFlowLimit, k).var;
  rs.n = n;
  rs.t_end = sim->t_end;
  rs.tol = 1e-9 * sim->output_interval;
  rs.requests = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_run_change_free);
  rs.y_restart = g_new (double, n + 1);

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
  opts.tlm_filter = sim->tlm_filter;
  opts.threads = sim->threads;
  opts.output_interval = sim->output_interval;
  opts.fd_jacobian = spec->fd_jacobian;
  opts.events = sim->events;
  opts.cancel = spec->cancel;
  opts.output = on_output;
  opts.output_user = &rs;
  opts.step_log = spec->step_log;
  /* samples at k·Δ from 0, whichever integration reports them */
  opts.output_origin_set = TRUE;
  opts.output_origin = 0.0;

  HydOdeResult local = { 0 };
  if (result == NULL)
    result = &local;
  HydOdeStatus status;

  /* replayed changes at t ≤ 0 come before the run */
  apply_changes (&rs, 0.0);
  const GArray *bp = hyd_system_get_breakpoints (sys);
  opts.breakpoints = (const double *) bp->data;
  opts.n_breakpoints = bp->len;
  g_autoptr (GError) error = NULL;
  g_autoptr (HydOdeStepper) stepper = hyd_ode_stepper_new (sim->solver, &problem, &opts, y,
                                                           &error);
  if (stepper == NULL)
    {
      memset (result, 0, sizeof *result);
      result->status = status = (HydOdeStatus) error->code;
      result->worst_state = -1;
      result->message = g_strdup (error->message);
    }
  else
    {
      rs.stats = hyd_ode_stepper_get_stats (stepper);
      for (;;)
        {
          rs.restart = FALSE;
          status = hyd_ode_stepper_advance (stepper, sim->t_end, NULL);
          gboolean cancelled = spec->cancel != NULL && g_atomic_int_get (spec->cancel) != 0;
          if (status != HYD_ODE_CANCELLED || !rs.restart || cancelled)
            break;
          /* the sample at t_restart asked for changes: the same integrator
           * goes on from (t_restart, y(t_restart)) after them, as at a
           * breakpoint, with the breakpoints the changes may have moved */
          apply_changes (&rs, rs.t_restart);
          bp = hyd_system_get_breakpoints (sys);
          hyd_ode_stepper_set_breakpoints (stepper, (const double *) bp->data, bp->len);
          status = hyd_ode_stepper_reinit (stepper, rs.t_restart, rs.y_restart);
          if (status != HYD_ODE_SUCCESS)
            break;
          rs.seg_t0 = rs.t_restart;
        }

      /* the run's result: the stepper's, statistics summed over the run */
      const HydOdeResult *sr = hyd_ode_stepper_get_result (stepper);
      *result = *sr;
      result->message = g_strdup (sr->message);
      result->message_parts = g_strdupv (sr->message_parts);
      result->note = g_strdup (sr->note);
      if (status == HYD_ODE_CANCELLED && rs.restart)
        {
          g_free (result->message);
          g_clear_pointer (&result->message_parts, g_strfreev);
          result->message = g_strdup_printf ("cancelled at t = %.9g", rs.t_restart);
          result->t = rs.t_restart;
        }
    }

  /* once per run: every node that cavitated */
  for (guint b = 0; b < hyd_system_get_n_nodes (sys); b++)
    if (!isnan (rs.cav_onset[b]))
      report_cavitation (&rs, b);

  hyd_ode_result_clear (&local);
  g_ptr_array_unref (rs.requests);
  g_free (rs.y_restart);
  g_free (rs.values);
  g_free (rs.below_vapour);
  g_free (rs.voids);
  g_free (rs.cav_onset);
  g_free (rs.cav_max);
  g_free (rs.cav_t_max);
  g_array_unref (rs.limits);
  g_free (rs.over_limit);
  g_free (rs.eval_vars);
  g_free (y);
  g_free (atol);
  return status;
}
