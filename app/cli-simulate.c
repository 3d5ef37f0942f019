/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-simulate.c — `bramah-cli simulate CIRCUIT`: run a circuit and write
 * CSV (or, with --summary, each column's minimum, maximum and final value)
 * to stdout or an output file written atomically (docs/cli.md). */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli-circuit.h"
#include "cli-commands.h"
#include "cli-diagnostic.h"
#include "hyd-run.h"
#include "hyd-system.h"

typedef struct {
  HydCliOutput *out;
  GString *line;
  gboolean summary;   /* accumulate min/max/final instead of writing rows */
  guint n;
  double *min, *max, *last;
  guint64 rows;
} CsvWriter;

static gboolean
write_row (double t, const double *values, guint n, gpointer user)
{
  CsvWriter *w = user;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (w->summary)
    {
      for (guint k = 0; k < n; k++)
        {
          w->min[k] = w->rows ? MIN (w->min[k], values[k]) : values[k];
          w->max[k] = w->rows ? MAX (w->max[k], values[k]) : values[k];
          w->last[k] = values[k];
        }
      w->rows++;
      return TRUE;
    }
  g_string_truncate (w->line, 0);
  for (guint k = 0; k < n; k++)
    {
      if (k)
        g_string_append_c (w->line, ',');
      g_string_append (w->line, hyd_cli_format_number (buf, values[k]));
    }
  g_string_append_c (w->line, '\n');
  /* a failed write stops the run; run () names the file and errno */
  return hyd_cli_output_puts (w->out, w->line->str);
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

/* Resolve --vars into variable indices, with t first. */
static GArray *
resolve_vars (HydSystem *sys, const char *spec, int *status)
{
  if (spec == NULL)
    return hyd_system_get_default_variables (sys);
  g_autoptr (GArray) vars = g_array_new (FALSE, FALSE, sizeof (int));
  int t = hyd_system_find_variable (sys, "t");
  g_array_append_val (vars, t);
  g_auto (GStrv) names = g_strsplit (spec, ",", -1);
  for (int k = 0; names[k]; k++)
    {
      char *nm = g_strstrip (names[k]);
      if (*nm == '\0' || strcmp (nm, "t") == 0)
        continue;
      int v = hyd_system_find_variable (sys, nm);
      if (v < 0)
        {
          *status = hyd_cli_failed ("--vars: unknown variable '%s' (see 'bramah-cli describe' for the "
                                    "states; ports give <comp>.<port>.p and .q, outputs <comp>.<output>)",
                                    hyd_cli_q (nm));
          return NULL;
        }
      g_array_append_val (vars, v);
    }
  return g_steal_pointer (&vars);
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

static int
run (int argc, char **argv)
{
  g_autofree char *solver = NULL, *t_end = NULL, *rtol = NULL, *atol = NULL, *fixed = NULL, *oi = NULL;
  g_autofree char *vars_spec = NULL, *output = NULL, *events = NULL;
  g_auto (GStrv) sets = NULL;
  gboolean stats = FALSE, fd = FALSE, summary = FALSE;
  GOptionEntry entries[] = {
    { "solver", 0, 0, G_OPTION_ARG_STRING, &solver, "Solver id (bramah-cli solvers)", "ID" },
    { "t-end", 0, 0, G_OPTION_ARG_STRING, &t_end, "End time (s)", "T" },
    { "rtol", 0, 0, G_OPTION_ARG_STRING, &rtol, "Relative tolerance", "R" },
    { "atol", 0, 0, G_OPTION_ARG_STRING, &atol, "Absolute tolerance for every state", "A" },
    { "fixed-step", 0, 0, G_OPTION_ARG_STRING, &fixed, "Constant step (s), no error control", "H" },
    { "output-interval", 0, 0, G_OPTION_ARG_STRING, &oi, "Spacing of output samples (s)", "DT" },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a parameter (a number, a choice, or a profile as JSON)", "COMP.PARAM=VALUE" },
    { "vars", 0, 0, G_OPTION_ARG_STRING, &vars_spec, "Columns to write (default: node pressures and states)", "NAME,NAME..." },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the CSV to FILE (default: stdout)", "FILE.csv" },
    { "stats", 0, 0, G_OPTION_ARG_NONE, &stats, "Print solver statistics to stderr", NULL },
    { "fd-jacobian", 0, 0, G_OPTION_ARG_NONE, &fd, "Use a finite-difference Jacobian instead of the analytic one", NULL },
    { "events", 0, 0, G_OPTION_ARG_STRING, &events, "Locate end stops and valve seating and restart there (on|off; default: the file's simulation.events, else on)", "on|off" },
    { "summary", 0, 0, G_OPTION_ARG_NONE, &summary, "Print a table of each variable's minimum, maximum and final value instead of CSV", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("CIRCUIT — run a circuit and write CSV");
  g_option_context_add_main_entries (ctx, entries, NULL);
  int st = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  if (st)
    return st;
  if (argc != 2)
    return hyd_cli_usage_error (ctx, "simulate takes one CIRCUIT file");

  g_autoptr (HydCircuit) circuit = hyd_cli_load_circuit (argv[1], &st);
  if (!circuit)
    return st;
  if ((st = apply_sets (circuit, sets)) != 0)
    return st;

  g_auto (HydSimOptions) sim = { 0 };
  g_autoptr (GError) error = NULL;
  if (!hyd_circuit_get_sim_options (circuit, &sim, &error))
    return hyd_cli_failed_error (error);
  if ((st = apply_sim_overrides (&sim, solver, t_end, rtol, atol, fixed, oi)) != 0)
    return st;
  if (events)
    {
      if (g_strcmp0 (events, "on") != 0 && g_strcmp0 (events, "off") != 0)
        return hyd_cli_usage_error (ctx, "--events takes on or off, not '%s'", hyd_cli_q (events));
      sim.events = g_strcmp0 (events, "on") == 0;
    }
  if (hyd_solver_lookup (sim.solver) == NULL)
    return hyd_cli_failed ("%s: simulation.solver '%s' is not a solver this build has (bramah-cli solvers)",
                           hyd_cli_qpath (argv[1]), hyd_cli_q (sim.solver));

  g_autoptr (HydSystem) sys = hyd_system_compile (circuit, &error);
  if (!sys)
    return hyd_cli_failed_error (error);
  hyd_cli_print_diagnostics (hyd_system_get_diagnostics (sys));
  g_autoptr (GArray) vars = resolve_vars (sys, vars_spec, &st);
  if (!vars)
    return st;

  /* the size of the output, before the run (docs/cli.md, Limits) */
  double n_samples = hyd_run_count_samples (&sim);
  /* every column at most "-1.234567891e-100" and a separator */
  double csv_bytes = n_samples * 18.0 * vars->len;
  if (!(n_samples <= HYD_RUN_MAX_SAMPLES))
    {
      g_autofree char *size = hyd_cli_format_size (csv_bytes);
      g_autofree char *as_csv = summary ? g_strdup ("") : g_strdup_printf (" (a CSV of up to %s)", size);
      return hyd_cli_failed ("%s: t_end %g s with output_interval %g s gives %.0f output samples%s, more than "
                             "the %.0f a run may report: raise simulation.output_interval (--output-interval) "
                             "or lower simulation.t_end (--t-end)",
                             hyd_cli_qpath (argv[1]), sim.t_end, sim.output_interval, n_samples, as_csv,
                             HYD_RUN_MAX_SAMPLES);
    }
  /* not committed: aborted, the temporary removed */
  g_autoptr (HydCliOutput) out = hyd_cli_output_open (output, &error);
  if (out == NULL)
    return hyd_cli_failed_error (error);
  guint64 free_bytes;
  if (!summary && hyd_cli_output_free_space (out, &free_bytes) && csv_bytes > (double) free_bytes)
    {
      g_autofree char *need = hyd_cli_format_size (csv_bytes);
      g_autofree char *have = hyd_cli_format_size ((double) free_bytes);
      return hyd_cli_failed ("%s: the CSV would take up to %s (%.0f rows of %u columns: t_end %g s, "
                             "output_interval %g s) but %s has only %s free: raise simulation.output_interval "
                             "(--output-interval), lower simulation.t_end (--t-end) or choose fewer --vars",
                             hyd_cli_qpath (argv[1]), need, n_samples, vars->len, sim.t_end,
                             sim.output_interval, hyd_cli_output_name (out), have);
    }
  if (!summary)
    {
      for (guint k = 0; k < vars->len; k++)
        hyd_cli_output_printf (out, "%s%s", k ? "," : "",
                               hyd_system_get_variable_name (sys, g_array_index (vars, int, k)));
      hyd_cli_output_puts (out, "\n");
    }
  else
    {
      /* a title may be longer than an id: cut at 200 characters */
      g_autofree char *title = circuit->title ? hyd_cli_quote (circuit->title, 200) : g_strdup (hyd_cli_qpath (argv[1]));
      hyd_cli_output_printf (out, "%s\n%u components, %u nodes, %u states; solver %s, t_end %g s\n\n",
                             title, circuit->components->len,
                             hyd_system_get_n_nodes (sys), hyd_system_get_n_states (sys),
                             hyd_cli_q (sim.solver), sim.t_end);
    }

  g_autoptr (GString) line = g_string_new (NULL);
  g_autofree double *min = g_new0 (double, vars->len);
  g_autofree double *max = g_new0 (double, vars->len);
  g_autofree double *last = g_new0 (double, vars->len);
  CsvWriter w = { out, line, summary, vars->len, min, max, last, 0 };
  HydRunSpec spec = {
    .sim = &sim, .fd_jacobian = fd, .vars = (const int *) vars->data, .n_vars = vars->len,
    .sample = write_row, .user = &w,
  };
  g_auto (HydOdeResult) res = { 0 };
  g_autoptr (GPtrArray) diagnostics = hyd_diagnostic_list_new ();
  spec.diagnostics = diagnostics;
  HydOdeStatus status = hyd_cli_output_error (out) ? HYD_ODE_CANCELLED
                                                   : hyd_run_execute (sys, &spec, &res, NULL);
  hyd_cli_print_diagnostics (diagnostics);
  if (summary)
    {
      hyd_cli_output_printf (out, "%-28s %14s %14s %14s  %s\n", "variable", "min", "max", "final", "unit");
      for (guint k = 1; k < vars->len; k++)
        {
          int v = g_array_index (vars, int, k);
          hyd_cli_output_printf (out, "%-28s %14.6g %14.6g %14.6g  %s\n",
                                 hyd_cli_q (hyd_system_get_variable_name (sys, v)),
                                 w.min[k], w.max[k], w.last[k],
                                 hyd_unit_symbol (hyd_system_get_variable_unit (sys, v)));
        }
      hyd_cli_output_printf (out, "\n%" G_GUINT64_FORMAT " samples up to t = %g s\n", w.rows,
                             w.rows ? w.last[0] : 0.0);
    }
  /* A failed write stopped the run (CANCELLED): say so, not "cancelled". A
   * run that failed otherwise keeps the CSV written so far (docs/cli.md). */
  gboolean write_failed = hyd_cli_output_error (out) != 0;
  if (!hyd_cli_output_commit (g_steal_pointer (&out), &error))
    {
      st = hyd_cli_failed_error (error);
      write_failed = TRUE;
    }
  if (res.note)
    {
      g_autofree char *note = hyd_cli_sanitize_message (res.note);
      fprintf (stderr, "note: %s\n", note);
    }
  if (stats)
    print_stats (&res);
  if (status != HYD_ODE_SUCCESS && !write_failed)
    {
      g_autofree char *why = res.message ? hyd_cli_dup_solver_message (&res) : NULL;
      g_autofree char *text = hyd_cli_expand (N_("simulation failed (%s): %s"), hyd_ode_status_name (status),
                                              why ? why : "no detail", NULL);
      st = hyd_cli_failed ("%s", text);
    }
  return st;
}

const HydCliCommand hyd_cli_simulate_command = {
  "simulate", "run a circuit and write CSV", run,
};
