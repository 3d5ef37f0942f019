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
#include "cli-output-h5.h"
#include "cli-run.h"
#include "hyd-dtoa.h"
#include "hyd-linearize.h"
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
  /* every number in its shortest form that reads back exactly (hyd-dtoa.h) */
  g_string_set_size (w->line, (gsize) n * HYD_DTOA_BUF_SIZE + 1);
  char *at = w->line->str;
  for (guint k = 0; k < n; k++)
    {
      if (k)
        *at++ = ',';
      at += hyd_dtoa_shortest (values[k], at);
    }
  *at++ = '\n';
  /* a failed write stops the run; run () names the file and errno */
  return hyd_cli_output_write (w->out, w->line->str, (gsize) (at - w->line->str));
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

/* --step-log FILE.csv: every attempted step (t, h, accepted, how it ended,
 * its weighted error norm, the state that limited it), then on stderr the
 * accepted steps each state limited, with the components that make it
 * (docs/analysis.md, Solver lab). 0, or the status of the error printed. */
static int
write_step_log (const char *path, HydSystem *sys, const HydOdeStepLog *log)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCliOutput) out = hyd_cli_output_open (path, &error);
  if (out == NULL)
    return hyd_cli_failed_error (error);
  gsize n_rec;
  const HydOdeStepRecord *rec = hyd_ode_step_log_get_records (log, &n_rec);
  char tb[HYD_DTOA_MAX_LEN + 1], hb[HYD_DTOA_MAX_LEN + 1], eb[HYD_DTOA_MAX_LEN + 1];
  hyd_cli_output_puts (out, "t,h,accepted,outcome,error_norm,limiting_state\n");
  for (gsize k = 0; k < n_rec && hyd_cli_output_error (out) == 0; k++)
    {
      const HydOdeStepRecord *r = &rec[k];
      hyd_dtoa_shortest (r->t, tb);
      hyd_dtoa_shortest (r->h, hb);
      if (isnan (r->err))
        eb[0] = '\0';
      else
        hyd_dtoa_shortest (r->err, eb);
      hyd_cli_output_printf (out, "%s,%s,%d,%s,%s,%s\n", tb, hb, r->outcome == HYD_STEP_ACCEPTED,
                             hyd_step_outcome_name (r->outcome), eb,
                             r->limiting_state >= 0
                               ? hyd_system_get_state_name (sys, (guint) r->limiting_state) : "");
    }
  if (!hyd_cli_output_commit (g_steal_pointer (&out), &error))
    return hyd_cli_failed_error (error);

  const guint64 *limited = hyd_ode_step_log_get_limited (log);
  guint n = hyd_ode_step_log_get_n_states (log);
  guint64 total = hyd_ode_step_log_get_unlimited (log);
  for (guint i = 0; i < n; i++)
    total += limited[i];
  fprintf (stderr, "step log: %" G_GSIZE_FORMAT " attempted steps, %" G_GUINT64_FORMAT
           " accepted, written to %s\n", n_rec, total, hyd_cli_qpath (path));
  fprintf (stderr, "%-24s %10s %7s  %s\n", "limiting state", "steps", "share", "components");
  /* most steps first, then in state order */
  g_autofree guint *order = g_new (guint, n + 1);
  for (guint i = 0; i < n; i++)
    order[i] = i;
  for (guint a = 1; a < n; a++)
    for (guint b = a; b > 0 && limited[order[b]] > limited[order[b - 1]]; b--)
      {
        guint tmp = order[b];
        order[b] = order[b - 1];
        order[b - 1] = tmp;
      }
  for (guint k = 0; k < n; k++)
    {
      guint i = order[k];
      if (limited[i] == 0)
        continue;
      g_autoptr (GPtrArray) comps = hyd_system_state_components (sys, i);
      g_ptr_array_add (comps, NULL);
      g_autofree char *list = g_strjoinv (", ", (char **) comps->pdata);
      fprintf (stderr, "%-24s %10" G_GUINT64_FORMAT " %6.1f%%  %s\n",
               hyd_cli_q (hyd_system_get_state_name (sys, i)), limited[i],
               100.0 * (double) limited[i] / (double) MAX (total, 1), list);
    }
  if (hyd_ode_step_log_get_unlimited (log) > 0)
    fprintf (stderr, "%-24s %10" G_GUINT64_FORMAT " %6.1f%%\n", "(none: no error estimate)",
             hyd_ode_step_log_get_unlimited (log),
             100.0 * (double) hyd_ode_step_log_get_unlimited (log) / (double) MAX (total, 1));

  /* per component: the steps its states limited (a node's pressure counts
   * for every component on the node), as the solver lab's heat map */
  g_autoptr (GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) counts = g_array_new (FALSE, TRUE, sizeof (guint64));
  for (guint i = 0; i < n; i++)
    {
      if (limited[i] == 0)
        continue;
      g_autoptr (GPtrArray) comps = hyd_system_state_components (sys, i);
      for (guint c = 0; c < comps->len; c++)
        {
          guint j = 0;
          while (j < ids->len && strcmp (g_ptr_array_index (ids, j), g_ptr_array_index (comps, c)) != 0)
            j++;
          if (j == ids->len)
            {
              g_ptr_array_add (ids, g_strdup (g_ptr_array_index (comps, c)));
              g_array_set_size (counts, ids->len);
            }
          g_array_index (counts, guint64, j) += limited[i];
        }
    }
  if (ids->len > 0)
    fprintf (stderr, "\n%-24s %10s\n", "component", "steps");
  for (guint m = 0; m < ids->len; m++)
    {
      guint best = 0;
      for (guint j = 1; j < ids->len; j++)
        if (g_array_index (counts, guint64, j) > g_array_index (counts, guint64, best))
          best = j;
      fprintf (stderr, "%-24s %10" G_GUINT64_FORMAT "\n", hyd_cli_q (g_ptr_array_index (ids, best)),
               g_array_index (counts, guint64, best));
      g_array_index (counts, guint64, best) = 0;
    }
  return 0;
}

static int
run (int argc, char **argv)
{
  g_auto (HydCliRunArgs) args = { 0 };
  g_autofree char *vars_spec = NULL, *output = NULL, *format = NULL, *step_log_path = NULL;
  gboolean summary = FALSE;
  GOptionEntry run_entries[HYD_CLI_RUN_N_ENTRIES];
  hyd_cli_run_entries (&args, run_entries);
  GOptionEntry own[] = {
    { "vars", 0, 0, G_OPTION_ARG_STRING, &vars_spec, "Columns to write (default: node pressures and states)", "NAME,NAME..." },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the CSV to FILE (default: stdout); FILE.h5 or FILE.hdf5 writes HDF5", "FILE.csv" },
    { "summary", 0, 0, G_OPTION_ARG_NONE, &summary, "Print a table of each variable's minimum, maximum and final value instead of CSV", NULL },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, "Output format (default: hdf5 for -o FILE.h5 or FILE.hdf5, else csv)", "csv|hdf5" },
    { "step-log", 0, 0, G_OPTION_ARG_FILENAME, &step_log_path, "Write every attempted step (t,h,accepted,outcome,error_norm,limiting_state) to FILE.csv and print the steps each state limited", "FILE.csv" },
  };
  /* in the order --help has always listed them */
  GOptionEntry entries[HYD_CLI_RUN_N_ENTRIES + G_N_ELEMENTS (own) + 1] = { { NULL } };
  guint n = 0;
  for (guint k = 0; k < HYD_CLI_RUN_N_MODEL; k++)
    entries[n++] = run_entries[k];
  entries[n++] = own[0];
  entries[n++] = own[1];
  for (guint k = HYD_CLI_RUN_N_MODEL; k < HYD_CLI_RUN_N_ENTRIES; k++)
    entries[n++] = run_entries[k];
  entries[n++] = own[2];
  entries[n++] = own[3];
  entries[n++] = own[4];
  g_autoptr (GOptionContext) ctx = g_option_context_new ("CIRCUIT — run a circuit and write CSV");
  g_option_context_add_main_entries (ctx, entries, NULL);
  int st = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  if (st)
    return st;
  if (argc != 2)
    return hyd_cli_usage_error (ctx, "simulate takes one CIRCUIT file");
  gboolean hdf5;
  if ((st = hyd_cli_simulate_choose_format (ctx, format, output, summary, &hdf5)) != 0)
    return st;

  g_autoptr (HydCircuit) circuit = NULL;
  g_autoptr (HydSystem) sys = NULL;
  g_auto (HydSimOptions) sim = { 0 };
  g_autoptr (GError) error = NULL;
  if ((st = hyd_cli_run_prepare (argv[1], &args, ctx, &circuit, &sim, &sys)) != 0)
    return st;
  g_autoptr (HydOdeStepLog) step_log = NULL;
  if (step_log_path != NULL)
    args.step_log = step_log = hyd_ode_step_log_new (hyd_system_get_n_states (sys));
  g_autoptr (GArray) vars = resolve_vars (sys, vars_spec, &st);
  if (!vars)
    return st;
  /* the size of the output, before the run (docs/cli.md, Limits) */
  double n_samples = hyd_run_count_samples (&sim);
  if (hdf5 && n_samples <= HYD_RUN_MAX_SAMPLES)
    {
      st = hyd_cli_simulate_hdf5 (argv[1], output, circuit, sys, &sim, &args, vars, n_samples);
      if (step_log != NULL)
        {
          int lst = write_step_log (step_log_path, sys, step_log);
          st = st != 0 ? st : lst;
        }
      return st;
    }
  /* every column at most "-2.2250738585072014e-308" (hyd-dtoa.h) and a separator */
  double csv_bytes = n_samples * (double) (HYD_DTOA_MAX_LEN + 1) * vars->len;
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
  g_auto (HydOdeResult) res = { 0 };
  HydOdeStatus status = hyd_cli_run_execute (sys, &sim, &args, vars, write_row, &w,
                                             hyd_cli_output_error (out) != 0, &res);
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
  if (step_log != NULL)
    {
      int lst = write_step_log (step_log_path, sys, step_log);
      st = st != 0 ? st : lst;
    }
  return hyd_cli_run_report (status, &res, &args, write_failed, st);
}

const HydCliCommand hyd_cli_simulate_command = {
  "simulate", "run a circuit and write CSV", run,
};
