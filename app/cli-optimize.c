/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-optimize.c — `bramah-cli optimize CIRCUIT --vary ID.PARAM=LO:HI ...
 * --minimize KIND:VAR`: the values within the bounds that minimise a
 * metric of a run, found by NLopt's derivative-free methods (docs/cli.md,
 * "optimize"). Each evaluation is a run of the study (hyd-study.h): the
 * values set as --set sets them, compiled and run. A build without NLopt
 * says so. --timeout and the child processes (--no-isolate: none) as for
 * sweep: an evaluation over the limit, or whose process crashed, is a
 * failed one. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#ifdef BRAMAH_HAVE_NLOPT
#include <nlopt.h>
#endif

#include "cli-circuit.h"
#include "cli-commands.h"
#include "cli-diagnostic.h"
#include "cli-study.h"
#include "hyd-dtoa.h"
#include "hyd-study.h"

#ifdef BRAMAH_HAVE_NLOPT
/* What an evaluation that failed (or whose metric is undefined) counts as:
 * worse than any value, finite so that the methods' arithmetic holds. */
#define FAILED_VALUE 1e300

typedef struct {
  HydStudy *study;
  HydStudyWorker *worker;
  HydStudyProcess *process;   /* the child process, or NULL (--no-isolate): the worker */
  double *metrics;
  GPtrArray *rows;      /* every evaluation's row, in order */
  guint64 runs, failed;
  double best;
  double *best_x;
  gboolean quiet;
} Objective;

static double
objective (unsigned n, const double *x, double *grad, void *data)
{
  Objective *o = data;
  g_autofree char *message = NULL;
  const char *status = o->process ? hyd_study_process_run (o->process, x, o->metrics, &message)
                                   : hyd_study_worker_run (o->worker, x, o->metrics, &message, NULL);
  gboolean ok = strcmp (status, "ok") == 0;
  double f = ok && isfinite (o->metrics[0]) ? o->metrics[0] : FAILED_VALUE;
  g_ptr_array_add (o->rows, hyd_study_format_row (o->study, o->runs, x, status, o->metrics, message));
  o->runs++;
  o->failed += f == FAILED_VALUE;
  if (f < o->best)
    {
      o->best = f;
      memcpy (o->best_x, x, n * sizeof (double));
    }
  if (!o->quiet)
    {
      char buf[HYD_DTOA_BUF_SIZE];
      hyd_dtoa_shortest (o->best, buf);
      fprintf (stderr, "optimize: run %" G_GUINT64_FORMAT ", best %s\n", o->runs, o->best == FAILED_VALUE ? "none yet" : buf);
    }
  return f;
}
#endif

static int
run (int argc, char **argv)
{
  g_auto (HydCliRunArgs) args = { 0 };
  g_auto (GStrv) vary = NULL;
  g_autofree char *minimize = NULL, *method = NULL, *max_runs_text = NULL, *xtol_text = NULL, *output = NULL;
  g_autofree char *timeout_text = NULL;
  gboolean quiet = FALSE, isolate = TRUE;
  GOptionEntry entries[HYD_CLI_RUN_N_ENTRIES + 10] = { { NULL } };
  GOptionEntry own[] = {
    { "vary", 0, 0, G_OPTION_ARG_STRING_ARRAY, &vary, "A parameter and its bounds (SI); repeatable", "ID.PARAM=LO:HI" },
    { "minimize", 0, 0, G_OPTION_ARG_STRING, &minimize, "The metric to minimise (the kinds of sweep --metric)", "KIND:VAR" },
    { "method", 0, 0, G_OPTION_ARG_STRING, &method, "bobyqa (default), neldermead or global (DIRECT-L)", "NAME" },
    { "max-runs", 0, 0, G_OPTION_ARG_STRING, &max_runs_text, "Stop after N runs (default 200)", "N" },
    { "xtol", 0, 0, G_OPTION_ARG_STRING, &xtol_text, "Stop when a step changes every value by less than this fraction (default 1e-4)", "R" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write every run as a CSV row (sweep's columns) to FILE", "FILE.csv" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "No progress on stderr", NULL },
    { "timeout", 0, 0, G_OPTION_ARG_STRING, &timeout_text, "Stop a run after this much wall-clock time: it counts as failed (default: no limit)", "SECONDS" },
    { "no-isolate", 0, G_OPTION_FLAG_REVERSE, G_OPTION_ARG_NONE, &isolate, "Run the runs in this process: a run that crashes ends the optimisation", NULL },
    { "isolate", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &isolate, "Run each run in a child process (the default): a run that crashes counts as failed", NULL },
  };
  guint n = 0;
  for (guint k = 0; k < G_N_ELEMENTS (own); k++)
    entries[n++] = own[k];
  hyd_cli_study_run_entries (&args, entries + n);
  g_autoptr (GOptionContext) ctx = g_option_context_new ("CIRCUIT — find the parameter values that minimise a metric");
  g_option_context_add_main_entries (ctx, entries, NULL);
  int st = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  if (st)
    return st;
  if (argc != 2)
    return hyd_cli_usage_error (ctx, "optimize takes one CIRCUIT file");
  if (minimize == NULL)
    return hyd_cli_usage_error (ctx, "optimize needs --minimize KIND:VAR");
  gint64 max_runs = 200;
  double xtol = 1e-4;
  if (max_runs_text && !hyd_cli_parse_int ("--max-runs", max_runs_text, 1, 100000000, &max_runs))
    return HYD_CLI_EXIT_USAGE;
  if (xtol_text && !hyd_cli_parse_double ("--xtol", xtol_text, 0, 1, HYD_CLI_MIN_EXCLUSIVE, NULL, &xtol))
    return HYD_CLI_EXIT_USAGE;
  double timeout = 0;
  if (timeout_text && !hyd_cli_parse_double ("--timeout", timeout_text, 0, 1e7, HYD_CLI_MIN_EXCLUSIVE, "s", &timeout))
    return HYD_CLI_EXIT_USAGE;
  if (method && strcmp (method, "bobyqa") != 0 && strcmp (method, "neldermead") != 0
      && strcmp (method, "global") != 0)
    return hyd_cli_usage_error (ctx, "--method takes bobyqa, neldermead or global, not '%s'", hyd_cli_q (method));
  for (guint k = 0; vary && vary[k]; k++)
    {
      HydStudyVary v;
      g_autoptr (GError) error = NULL;
      if (!hyd_study_vary_parse (vary[k], &v, &error))
        return hyd_cli_usage_error (ctx, "%s", error->message);
      gboolean range = v.kind == HYD_STUDY_VARY_RANGE;
      hyd_study_vary_clear (&v);
      if (!range)
        return hyd_cli_usage_error (ctx, "--vary %s: optimize takes the bounds LO:HI", hyd_cli_q (vary[k]));
    }
#ifndef BRAMAH_HAVE_NLOPT
  return hyd_cli_failed ("optimize: this bramah-cli was built without NLopt (Debian's libnlopt-dev; meson "
                         "option -Dnlopt=enabled); 'bramah-cli sweep' runs a grid or a random study instead");
#else
  char *metrics[] = { minimize, NULL };
  g_autoptr (HydStudy) study = NULL;
  /* a sampled design: the bounds are ranges (the design itself is unused) */
  if ((st = hyd_cli_study_prepare (argv[1], &args, ctx, vary, metrics, HYD_STUDY_DESIGN_RANDOM, 1, 1, 1, &study)) != 0)
    return st;
  hyd_study_set_timeout (study, timeout);
  guint nv = hyd_study_get_n_vary (study);
  g_autofree double *lo = g_new (double, nv), *hi = g_new (double, nv), *x = g_new (double, nv);
  g_autofree double *best_x = g_new (double, nv);
  g_autoptr (HydCircuit) base = NULL;
  {
    int lst = 0;
    base = hyd_cli_load_circuit (argv[1], &lst);
    if (base == NULL)
      return lst;
  }
  for (guint j = 0; j < nv; j++)
    {
      const HydStudyVary *v = hyd_study_get_vary (study, j);
      lo[j] = v->a;
      hi[j] = v->b;
      /* start from the circuit's value when it lies within the bounds */
      x[j] = 0.5 * (lo[j] + hi[j]);
      HydCircuitComponent *comp = hyd_circuit_find_component (base, v->component);
      g_autoptr (HydComponentParams) params = comp ? hyd_circuit_component_get_params (comp, NULL, NULL) : NULL;
      double now = params ? hyd_component_params_get (params, v->param) : NAN;
      if (isfinite (now) && now >= lo[j] && now <= hi[j])
        x[j] = now;
      best_x[j] = x[j];
    }
  const char *name = method ? method : "bobyqa";
  nlopt_algorithm alg = strcmp (name, "neldermead") == 0 ? NLOPT_LN_NELDERMEAD
                        : strcmp (name, "global") == 0  ? NLOPT_GN_DIRECT_L
                                                        : NLOPT_LN_BOBYQA;
  nlopt_opt opt = nlopt_create (alg, nv);
  nlopt_set_lower_bounds (opt, lo);
  nlopt_set_upper_bounds (opt, hi);
  nlopt_set_xtol_rel (opt, xtol);
  nlopt_set_maxeval (opt, (int) max_runs);
  g_autoptr (HydStudyWorker) worker = isolate ? NULL : hyd_study_worker_new (study);
  g_autoptr (HydStudyProcess) process = isolate ? hyd_study_process_new (study) : NULL;
  g_autofree double *metric = g_new0 (double, 1);
  Objective o = { study, worker, process, metric, g_ptr_array_new_with_free_func (g_free), 0, 0, FAILED_VALUE, best_x,
                  quiet };
  nlopt_set_min_objective (opt, objective, &o);
  double fmin = FAILED_VALUE;
  nlopt_result res = nlopt_optimize (opt, x, &fmin);
  nlopt_destroy (opt);

  if (output)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (HydCliOutput) out = hyd_cli_output_open (output, &error);
      if (out == NULL)
        st = hyd_cli_failed_error (error);
      else
        {
          g_autofree char *header = hyd_study_header (study);
          hyd_cli_output_puts (out, header);
          for (guint k = 0; k < o.rows->len; k++)
            hyd_cli_output_puts (out, o.rows->pdata[k]);
          if (!hyd_cli_output_commit (g_steal_pointer (&out), &error))
            st = hyd_cli_failed_error (error);
        }
    }
  g_ptr_array_unref (o.rows);
  if (o.best == FAILED_VALUE)
    return hyd_cli_failed ("optimize: none of the %" G_GUINT64_FORMAT " runs gave a value of %s (%s)", o.runs,
                           hyd_cli_q (minimize), nlopt_result_to_string (res));
  /* the best run: its values as --set takes them, then the metric */
  char buf[HYD_DTOA_BUF_SIZE];
  for (guint j = 0; j < nv; j++)
    {
      hyd_dtoa_shortest (o.best_x[j], buf);
      printf ("%s=%s\n", hyd_study_get_vary (study, j)->name, buf);
    }
  hyd_dtoa_shortest (o.best, buf);
  printf ("%s=%s\n", minimize, buf);
  if (!quiet)
    fprintf (stderr, "optimize: %s, %" G_GUINT64_FORMAT " runs (%" G_GUINT64_FORMAT " failed): %s\n", name, o.runs,
             o.failed, nlopt_result_to_string (res));
  if (res < 0 && res != NLOPT_ROUNDOFF_LIMITED)
    return hyd_cli_failed ("optimize: NLopt stopped: %s", nlopt_result_to_string (res));
  return st;
#endif
}

const HydCliCommand hyd_cli_optimize_command = {
  HYD_CLI_OPTIMIZE_NAME_SUMMARY, run,
};
