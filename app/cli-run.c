/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-run.c — the run options, preparation and report that `simulate` and
 * `state-diagram` share (cli-run.h). */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli-run.h"
#include "cli-commands.h"
#include "cli-diagnostic.h"

void
hyd_cli_run_args_clear (HydCliRunArgs *a)
{
  g_clear_pointer (&a->solver, g_free);
  g_clear_pointer (&a->t_end, g_free);
  g_clear_pointer (&a->rtol, g_free);
  g_clear_pointer (&a->atol, g_free);
  g_clear_pointer (&a->fixed_step, g_free);
  g_clear_pointer (&a->output_interval, g_free);
  g_clear_pointer (&a->events, g_free);
  g_clear_pointer (&a->tlm_filter, g_free);
  g_clear_pointer (&a->threads, g_free);
  g_clear_pointer (&a->sets, g_strfreev);
}

void
hyd_cli_run_entries (HydCliRunArgs *a, GOptionEntry e[HYD_CLI_RUN_N_ENTRIES])
{
  const GOptionEntry list[HYD_CLI_RUN_N_ENTRIES] = {
    { "solver", 0, 0, G_OPTION_ARG_STRING, &a->solver, "Solver id (bramah-cli solvers)", "ID" },
    { "t-end", 0, 0, G_OPTION_ARG_STRING, &a->t_end, "End time (s)", "T" },
    { "rtol", 0, 0, G_OPTION_ARG_STRING, &a->rtol, "Relative tolerance", "R" },
    { "atol", 0, 0, G_OPTION_ARG_STRING, &a->atol, "Absolute tolerance for every state", "A" },
    { "fixed-step", 0, 0, G_OPTION_ARG_STRING, &a->fixed_step, "Constant step (s), no error control", "H" },
    { "output-interval", 0, 0, G_OPTION_ARG_STRING, &a->output_interval, "Spacing of output samples (s)", "DT" },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->sets, "Override a parameter (a number, a choice, or a profile as JSON)", "COMP.PARAM=VALUE" },
    { "stats", 0, 0, G_OPTION_ARG_NONE, &a->stats, "Print solver statistics to stderr", NULL },
    { "fd-jacobian", 0, 0, G_OPTION_ARG_NONE, &a->fd_jacobian, "Use a finite-difference Jacobian instead of the analytic one", NULL },
    { "events", 0, 0, G_OPTION_ARG_STRING, &a->events, "Locate end stops and valve seating and restart there (on|off; default: the file's simulation.events, else on)", "on|off" },
    { "tlm-filter", 0, 0, G_OPTION_ARG_STRING, &a->tlm_filter, "The tlm solver's filter constant of the characteristic pressures, in [0, 1) (default 0.2; docs/solvers.md, TLM)", "ALPHA" },
    { "threads", 0, 0, G_OPTION_ARG_STRING, &a->threads, "Threads the tlm solver's partitions step in, 1 to 256 (default 1; the result is the same for any number)", "N" },
  };
  memcpy (e, list, sizeof list);
}

/* Apply --t-end, --rtol, ... and --set to a loaded circuit's options. */
static int
apply_sim_overrides (HydSimOptions *sim, const char *solver, const char *t_end, const char *rtol,
                     const char *atol, const char *fixed_step, const char *output_interval)
{
  double v;
  if (t_end)
    {
      if (!hyd_cli_parse_double ("--t-end", t_end, 0, HYD_CLI_MAX_TIME, HYD_CLI_MIN_EXCLUSIVE, "s", &v))
        return HYD_CLI_EXIT_USAGE;
      hyd_sim_options_set_t_end (sim, v);
    }
  if (rtol)
    {
      if (!hyd_cli_parse_double ("--rtol", rtol, 0, 1, HYD_CLI_MIN_EXCLUSIVE | HYD_CLI_MAX_EXCLUSIVE,
                                 NULL, &v))
        return HYD_CLI_EXIT_USAGE;
      sim->rtol = v;
    }
  if (atol)
    {
      if (!hyd_cli_parse_double ("--atol", atol, 0, HYD_CLI_MAX_ATOL, HYD_CLI_MIN_EXCLUSIVE, "(SI)", &v))
        return HYD_CLI_EXIT_USAGE;
      for (int k = 0; k < HYD_ATOL_N_KINDS; k++)
        sim->atol[k] = v;
    }
  if (fixed_step)
    {
      if (!hyd_cli_parse_double ("--fixed-step", fixed_step, 0, HYD_CLI_MAX_TIME, HYD_CLI_MIN_EXCLUSIVE, "s", &v))
        return HYD_CLI_EXIT_USAGE;
      sim->fixed_step = v;
    }
  if (output_interval)
    {
      if (!hyd_cli_parse_double ("--output-interval", output_interval, 0, HYD_CLI_MAX_TIME, HYD_CLI_MIN_EXCLUSIVE,
                                 "s", &v))
        return HYD_CLI_EXIT_USAGE;
      sim->output_interval = v;
      sim->output_interval_set = TRUE;
    }
  if (solver)
    {
      if (hyd_solver_lookup (solver) == NULL)
        {
          guint n;
          const HydSolverInfo *list = hyd_solver_list (&n);
          g_autoptr (GString) ids = g_string_new (NULL);
          for (guint k = 0; k < n; k++)
            g_string_append_printf (ids, "%s%s", k ? ", " : "", list[k].id);
          return hyd_cli_usage_error (NULL, "unknown solver '%s' (this build has: %s)", hyd_cli_q (solver),
                                      ids->str);
        }
      g_free (sim->solver);
      sim->solver = g_strdup (solver);
    }
  return 0;
}

static int
apply_sets (HydCircuit *circuit, char **sets)
{
  HydFluid fluid;
  g_autoptr (GError) error = NULL;
  if (!hyd_circuit_get_fluid (circuit, &fluid, &error))
    return hyd_cli_failed_error (error);
  for (int k = 0; sets && sets[k]; k++)
    {
      const char *eq = strchr (sets[k], '=');
      const char *dot = eq ? memchr (sets[k], '.', eq - sets[k]) : NULL;
      if (eq == NULL || dot == NULL)
        return hyd_cli_usage_error (NULL, "--set takes COMP.PARAM=VALUE, not '%s'", hyd_cli_q (sets[k]));
      g_autofree char *cid = g_strndup (sets[k], dot - sets[k]);
      g_autofree char *pname = g_strndup (dot + 1, eq - dot - 1);
      /* a number beyond a double (1e999) would reach the parameter as
       * "not a number": say what it is */
      char *end = NULL;
      double num = g_ascii_strtod (eq + 1, &end);
      if (end != eq + 1 && *end == '\0' && isinf (num) && strpbrk (eq + 1, "nN") == NULL)
        return hyd_cli_usage_error (NULL, "--set %s: '%s' is out of range (a number of magnitude below 1.8e308)",
                            hyd_cli_q (sets[k]), hyd_cli_q (eq + 1));
      HydCircuitComponent *comp = hyd_circuit_find_component (circuit, cid);
      if (comp == NULL)
        return hyd_cli_failed ("--set %s: no component '%s' in the circuit", hyd_cli_q (sets[k]),
                               hyd_cli_q (cid));
      if (!hyd_circuit_component_set_param_from_string (comp, pname, eq + 1, &fluid, &error))
        {
          g_autofree char *text = hyd_cli_dup_error_message (error);
          return hyd_cli_failed ("--set %s: %s", hyd_cli_q (sets[k]), text);
        }
    }
  return 0;
}

static void
print_stats (const HydOdeResult *res)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  fprintf (stderr, "steps: %" G_GUINT64_FORMAT "\n", res->stats.steps);
  fprintf (stderr, "rejected: %" G_GUINT64_FORMAT "\n", res->stats.rejected);
  fprintf (stderr, "f_evals: %" G_GUINT64_FORMAT "\n", res->stats.f_evals);
  fprintf (stderr, "jac_evals: %" G_GUINT64_FORMAT "\n", res->stats.jac_evals);
  fprintf (stderr, "lu: %" G_GUINT64_FORMAT "\n", res->stats.lu);
  fprintf (stderr, "newton: %" G_GUINT64_FORMAT "\n", res->stats.newton);
  fprintf (stderr, "events: %" G_GUINT64_FORMAT "\n", res->stats.events);
  fprintf (stderr, "wall_s: %s\n", g_ascii_formatd (buf, sizeof buf, "%.6g", res->stats.wall_s));
}

int
hyd_cli_run_prepare (const char *path, const HydCliRunArgs *a, GOptionContext *ctx, HydCircuit **circuit_out,
                     HydSimOptions *sim, HydSystem **sys_out)
{
  int st = 0;
  g_autoptr (HydCircuit) circuit = hyd_cli_load_circuit (path, &st);
  if (!circuit)
    return st;
  if ((st = apply_sets (circuit, a->sets)) != 0)
    return st;

  g_autoptr (GError) error = NULL;
  if (!hyd_circuit_get_sim_options (circuit, sim, &error))
    return hyd_cli_failed_error (error);
  if ((st = apply_sim_overrides (sim, a->solver, a->t_end, a->rtol, a->atol, a->fixed_step, a->output_interval)) != 0)
    return st;
  if (a->events)
    {
      if (g_strcmp0 (a->events, "on") != 0 && g_strcmp0 (a->events, "off") != 0)
        return hyd_cli_usage_error (ctx, "--events takes on or off, not '%s'", hyd_cli_q (a->events));
      sim->events = g_strcmp0 (a->events, "on") == 0;
    }
  if (a->tlm_filter)
    {
      double v;
      if (!hyd_cli_parse_double ("--tlm-filter", a->tlm_filter, 0, 1, HYD_CLI_MAX_EXCLUSIVE, NULL, &v))
        return HYD_CLI_EXIT_USAGE;
      sim->tlm_filter = v;
    }
  if (a->threads)
    {
      double v;
      if (!hyd_cli_parse_double ("--threads", a->threads, 1, 256, 0, NULL, &v) || v != floor (v))
        return hyd_cli_usage_error (ctx, "--threads takes a whole number from 1 to 256, not '%s'",
                                    hyd_cli_q (a->threads));
      sim->threads = (guint) v;
    }
  if (hyd_solver_lookup (sim->solver) == NULL)
    return hyd_cli_failed ("%s: simulation.solver '%s' is not a solver this build has (bramah-cli solvers)",
                           hyd_cli_qpath (path), hyd_cli_q (sim->solver));

  HydSystem *sys = hyd_system_compile (circuit, &error);
  if (!sys)
    return hyd_cli_failed_error (error);
  hyd_cli_print_diagnostics (hyd_system_get_diagnostics (sys));
  *sys_out = sys;
  *circuit_out = g_steal_pointer (&circuit);
  return 0;
}

HydOdeStatus
hyd_cli_run_execute (HydSystem *sys, const HydSimOptions *sim, const HydCliRunArgs *a, const GArray *vars,
                     HydRunSampleFunc sample, gpointer user, gboolean skip, HydOdeResult *res)
{
  HydRunSpec spec = {
    .sim = sim, .fd_jacobian = a->fd_jacobian, .vars = (const int *) vars->data, .n_vars = vars->len,
    .sample = sample, .user = user, .step_log = a->step_log,
  };
  g_autoptr (GPtrArray) diagnostics = hyd_diagnostic_list_new ();
  spec.diagnostics = diagnostics;
  HydOdeStatus status = skip ? HYD_ODE_CANCELLED : hyd_run_execute (sys, &spec, res, NULL);
  hyd_cli_print_diagnostics (diagnostics);
  return status;
}

int
hyd_cli_run_report (HydOdeStatus status, const HydOdeResult *res, const HydCliRunArgs *a, gboolean quiet, int st)
{
  if (res->note)
    {
      g_autofree char *note = hyd_cli_sanitize_message (res->note);
      fprintf (stderr, "note: %s\n", note);
    }
  if (a->stats)
    print_stats (res);
  if (status != HYD_ODE_SUCCESS && !quiet)
    {
      g_autofree char *why = res->message ? hyd_cli_dup_solver_message (res) : NULL;
      g_autofree char *text = hyd_cli_expand (N_("simulation failed (%s): %s"), hyd_ode_status_name (status),
                                              why ? why : "no detail", NULL);
      st = hyd_cli_failed ("%s", text);
    }
  return st;
}
