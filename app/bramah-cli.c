/* bramah-cli.c — the headless face of the engine (spec/cli.md).
 *
 * Exit status: 0 success, 1 the circuit or the simulation failed (message on
 * stderr naming the component, parameter or time), 2 usage error. */
#include <glib.h>
#include <glib/gstdio.h>
#include <lapacke.h>
#include <errno.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli-commands.h"
#include "cli-diagnostic.h"
#include "hyd-catalogue.h"
#include "hyd-circuit.h"
#include "hyd-fdcheck.h"
#include "hyd-run.h"
#include "hyd-system.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2

static int
usage_error (GOptionContext *ctx, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static int
usage_error (GOptionContext *ctx, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  hyd_cli_print_error (msg);
  if (ctx)
    fprintf (stderr, "Try '%s --help'.\n", g_get_prgname ());
  g_free (msg);
  return EXIT_USAGE;
}

static int
failed (const char *fmt, ...) G_GNUC_PRINTF (1, 2);

static int
failed (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  hyd_cli_print_error (msg);
  g_free (msg);
  return EXIT_FAILED;
}

/* An error from the engine, in the user's language (cli-diagnostic.h). */
static int
failed_error (const GError *error)
{
  hyd_cli_print_gerror (error);
  return EXIT_FAILED;
}

static const char *
fmt_num (char *buf, double v)
{
  if (isnan (v))
    return "nan";
  return g_ascii_formatd (buf, G_ASCII_DTOSTR_BUF_SIZE, "%.10g", v);
}

/* Parse argv with ctx; 0 on success, else an exit status. */
static int
parse_options (GOptionContext *ctx, int *argc, char ***argv)
{
  GError *error = NULL;
  if (!g_option_context_parse (ctx, argc, argv, &error))
    {
      int st = usage_error (ctx, "%s", error->message);
      g_error_free (error);
      return st;
    }
  return 0;
}

static HydCircuit *
load_circuit (const char *path, int *status)
{
  GError *error = NULL;
  HydCircuit *circuit = hyd_circuit_load_from_file (path, &error);
  if (circuit == NULL)
    {
      *status = failed_error (error);
      g_error_free (error);
    }
  return circuit;
}


/* The ranges of the numeric options (docs/cli.md): wide, but finite. */
#define MAX_TIME 1e9        /* s: --t-end, --fixed-step, --output-interval */
#define MAX_ATOL 1e10       /* SI: Pa, m, m³/s, ... */
#define MAX_POINTS 10000    /* jacobian-check --points */

/* ---------------- simulate ---------------- */

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
      g_string_append (w->line, fmt_num (buf, values[k]));
    }
  g_string_append_c (w->line, '\n');
  /* a failed write stops the run; cmd_simulate names the file and errno */
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
      if (!hyd_cli_parse_double ("--t-end", t_end, 0, MAX_TIME, HYD_CLI_MIN_EXCLUSIVE, "s", &v))
        return EXIT_USAGE;
      hyd_sim_options_set_t_end (sim, v);
    }
  if (rtol)
    {
      if (!hyd_cli_parse_double ("--rtol", rtol, 0, 1, HYD_CLI_MIN_EXCLUSIVE | HYD_CLI_MAX_EXCLUSIVE,
                                 NULL, &v))
        return EXIT_USAGE;
      sim->rtol = v;
    }
  if (atol)
    {
      if (!hyd_cli_parse_double ("--atol", atol, 0, MAX_ATOL, HYD_CLI_MIN_EXCLUSIVE, "(SI)", &v))
        return EXIT_USAGE;
      for (int k = 0; k < HYD_ATOL_N_KINDS; k++)
        sim->atol[k] = v;
    }
  if (fixed_step)
    {
      if (!hyd_cli_parse_double ("--fixed-step", fixed_step, 0, MAX_TIME, HYD_CLI_MIN_EXCLUSIVE, "s", &v))
        return EXIT_USAGE;
      sim->fixed_step = v;
    }
  if (output_interval)
    {
      if (!hyd_cli_parse_double ("--output-interval", output_interval, 0, MAX_TIME, HYD_CLI_MIN_EXCLUSIVE,
                                 "s", &v))
        return EXIT_USAGE;
      sim->output_interval = v;
      sim->output_interval_set = TRUE;
    }
  if (solver)
    {
      if (hyd_solver_lookup (solver) == NULL)
        {
          guint n;
          const HydSolverInfo *list = hyd_solver_list (&n);
          GString *ids = g_string_new (NULL);
          for (guint k = 0; k < n; k++)
            g_string_append_printf (ids, "%s%s", k ? ", " : "", list[k].id);
          int st = usage_error (NULL, "unknown solver '%s' (this build has: %s)", hyd_cli_q (solver), ids->str);
          g_string_free (ids, TRUE);
          return st;
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
  GError *error = NULL;
  if (!hyd_circuit_get_fluid (circuit, &fluid, &error))
    {
      int st = failed_error (error);
      g_error_free (error);
      return st;
    }
  for (int k = 0; sets && sets[k]; k++)
    {
      const char *eq = strchr (sets[k], '=');
      const char *dot = eq ? memchr (sets[k], '.', eq - sets[k]) : NULL;
      if (eq == NULL || dot == NULL)
        return usage_error (NULL, "--set takes COMP.PARAM=VALUE, not '%s'", hyd_cli_q (sets[k]));
      g_autofree char *cid = g_strndup (sets[k], dot - sets[k]);
      g_autofree char *pname = g_strndup (dot + 1, eq - dot - 1);
      /* a number beyond a double (1e999) would reach the parameter as
       * "not a number": say what it is */
      char *end = NULL;
      double num = g_ascii_strtod (eq + 1, &end);
      if (end != eq + 1 && *end == '\0' && isinf (num) && strpbrk (eq + 1, "nN") == NULL)
        return usage_error (NULL, "--set %s: '%s' is out of range (a number of magnitude below 1.8e308)",
                            hyd_cli_q (sets[k]), hyd_cli_q (eq + 1));
      HydCircuitComponent *comp = hyd_circuit_find_component (circuit, cid);
      if (comp == NULL)
        return failed ("--set %s: no component '%s' in the circuit", hyd_cli_q (sets[k]), hyd_cli_q (cid));
      if (!hyd_circuit_component_set_param_from_string (comp, pname, eq + 1, &fluid, &error))
        {
          g_autofree char *text = hyd_cli_dup_error_message (error);
          int st = failed ("--set %s: %s", hyd_cli_q (sets[k]), text);
          g_error_free (error);
          return st;
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
  GArray *vars = g_array_new (FALSE, FALSE, sizeof (int));
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
          *status = failed ("--vars: unknown variable '%s' (see 'bramah-cli describe' for the "
                            "states; ports give <comp>.<port>.p and .q, outputs <comp>.<output>)", hyd_cli_q (nm));
          g_array_unref (vars);
          return NULL;
        }
      g_array_append_val (vars, v);
    }
  return vars;
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
cmd_simulate (int argc, char **argv)
{
  char *solver = NULL, *t_end = NULL, *rtol = NULL, *atol = NULL, *fixed = NULL, *oi = NULL;
  char *vars_spec = NULL, *output = NULL, *events = NULL;
  char **sets = NULL;
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
  int st = parse_options (ctx, &argc, &argv);
  if (st)
    return st;
  if (argc != 2)
    return usage_error (ctx, "simulate takes one CIRCUIT file");

  HydCircuit *circuit = load_circuit (argv[1], &st);
  if (!circuit)
    return st;
  if ((st = apply_sets (circuit, sets)) != 0)
    goto out_circuit;

  HydSimOptions sim;
  GError *error = NULL;
  if (!hyd_circuit_get_sim_options (circuit, &sim, &error))
    {
      st = failed_error (error);
      g_error_free (error);
      goto out_circuit;
    }
  if ((st = apply_sim_overrides (&sim, solver, t_end, rtol, atol, fixed, oi)) != 0)
    goto out_sim;
  if (events)
    {
      if (g_strcmp0 (events, "on") != 0 && g_strcmp0 (events, "off") != 0)
        {
          st = usage_error (ctx, "--events takes on or off, not '%s'", hyd_cli_q (events));
          goto out_sim;
        }
      sim.events = g_strcmp0 (events, "on") == 0;
    }
  if (hyd_solver_lookup (sim.solver) == NULL)
    {
      st = failed ("%s: simulation.solver '%s' is not a solver this build has (bramah-cli solvers)",
                   hyd_cli_qpath (argv[1]), hyd_cli_q (sim.solver));
      goto out_sim;
    }

  HydSystem *sys = hyd_system_compile (circuit, &error);
  if (!sys)
    {
      st = failed_error (error);
      g_error_free (error);
      goto out_sim;
    }
  hyd_cli_print_diagnostics (hyd_system_get_diagnostics (sys));
  GArray *vars = resolve_vars (sys, vars_spec, &st);
  if (!vars)
    goto out_sys;

  /* the size of the output, before the run (docs/cli.md, Limits) */
  double n_samples = hyd_run_count_samples (&sim);
  /* every column at most "-1.234567891e-100" and a separator */
  double csv_bytes = n_samples * 18.0 * vars->len;
  if (!(n_samples <= HYD_RUN_MAX_SAMPLES))
    {
      g_autofree char *size = hyd_cli_format_size (csv_bytes);
      g_autofree char *as_csv = summary ? g_strdup ("") : g_strdup_printf (" (a CSV of up to %s)", size);
      st = failed ("%s: t_end %g s with output_interval %g s gives %.0f output samples%s, more than the "
                   "%.0f a run may report: raise simulation.output_interval (--output-interval) or "
                   "lower simulation.t_end (--t-end)",
                   hyd_cli_qpath (argv[1]), sim.t_end, sim.output_interval, n_samples, as_csv,
                   HYD_RUN_MAX_SAMPLES);
      g_array_unref (vars);
      goto out_sys;
    }
  HydCliOutput *out = hyd_cli_output_open (output, &error);
  if (out == NULL)
    {
      st = failed_error (error);
      g_error_free (error);
      g_array_unref (vars);
      goto out_sys;
    }
  guint64 free_bytes;
  if (!summary && hyd_cli_output_free_space (out, &free_bytes) && csv_bytes > (double) free_bytes)
    {
      g_autofree char *need = hyd_cli_format_size (csv_bytes);
      g_autofree char *have = hyd_cli_format_size ((double) free_bytes);
      st = failed ("%s: the CSV would take up to %s (%.0f rows of %u columns: t_end %g s, "
                   "output_interval %g s) but %s has only %s free: raise simulation.output_interval "
                   "(--output-interval), lower simulation.t_end (--t-end) or choose fewer --vars",
                   hyd_cli_qpath (argv[1]), need, n_samples, vars->len, sim.t_end, sim.output_interval,
                   hyd_cli_output_name (out), have);
      hyd_cli_output_abort (out);
      g_array_unref (vars);
      goto out_sys;
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

  CsvWriter w = { out, g_string_new (NULL), summary, vars->len,
                  g_new0 (double, vars->len), g_new0 (double, vars->len), g_new0 (double, vars->len), 0 };
  HydRunSpec spec = {
    .sim = &sim, .fd_jacobian = fd, .vars = (const int *) vars->data, .n_vars = vars->len,
    .sample = write_row, .user = &w, .diagnostics = hyd_diagnostic_list_new (),
  };
  HydOdeResult res = { 0 };
  HydOdeStatus status = hyd_cli_output_error (out) ? HYD_ODE_CANCELLED
                                                   : hyd_run_execute (sys, &spec, &res, NULL);
  hyd_cli_print_diagnostics (spec.diagnostics);
  g_ptr_array_unref (spec.diagnostics);
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
  g_free (w.min); g_free (w.max); g_free (w.last);
  g_string_free (w.line, TRUE);
  /* A failed write stopped the run (CANCELLED): say so, not "cancelled". A
   * run that failed otherwise keeps the CSV written so far (docs/cli.md). */
  gboolean write_failed = hyd_cli_output_error (out) != 0;
  if (!hyd_cli_output_commit (out, &error))
    {
      st = failed_error (error);
      g_error_free (error);
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
    st = failed ("simulation failed (%s): %s", hyd_ode_status_name (status),
                 res.message ? res.message : "no detail");
  hyd_ode_result_clear (&res);
  g_array_unref (vars);
out_sys:
  hyd_system_free (sys);
out_sim:
  hyd_sim_options_clear (&sim);
out_circuit:
  hyd_circuit_free (circuit);
  g_free (solver); g_free (t_end); g_free (rtol); g_free (atol); g_free (fixed); g_free (oi);
  g_free (vars_spec); g_free (output); g_free (events); g_strfreev (sets);
  return st;
}

/* ---------------- check ---------------- */

static int
cmd_check (int argc, char **argv)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new ("CIRCUIT — load and validate without simulating");
  int st = parse_options (ctx, &argc, &argv);
  if (st)
    return st;
  if (argc != 2)
    return usage_error (ctx, "check takes one CIRCUIT file");
  HydCircuit *circuit = load_circuit (argv[1], &st);
  if (!circuit)
    return st;
  GError *error = NULL;
  HydSimOptions sim;
  if (!hyd_circuit_get_sim_options (circuit, &sim, &error))
    {
      st = failed_error (error);
      g_error_free (error);
      hyd_circuit_free (circuit);
      return st;
    }
  if (hyd_solver_lookup (sim.solver) == NULL)
    st = failed ("%s: simulation.solver '%s' is not a solver this build has (bramah-cli solvers)",
                 hyd_cli_qpath (argv[1]), hyd_cli_q (sim.solver));
  hyd_sim_options_clear (&sim);
  if (st)
    {
      hyd_circuit_free (circuit);
      return st;
    }
  HydSystem *sys = hyd_system_compile (circuit, &error);
  if (!sys)
    {
      st = failed_error (error);
      g_error_free (error);
      hyd_circuit_free (circuit);
      return st;
    }
  hyd_cli_print_diagnostics (hyd_system_get_diagnostics (sys));
  printf ("%s: OK — %u components, %u nodes, %u states\n", hyd_cli_qpath (argv[1]), circuit->components->len,
          hyd_system_get_n_nodes (sys), hyd_system_get_n_states (sys));
  hyd_system_free (sys);
  hyd_circuit_free (circuit);
  return 0;
}

/* ---------------- describe ---------------- */

/* The eigenvalues of J (n × n, column-major; overwritten) and the stiffness
 * ratio over the decaying modes. An eigenvalue counts as zero — a
 * non-decaying mode — when its magnitude is within LAPACK's error bound
 * n·ε·‖J̃‖/s_i (J̃ the balanced matrix, s_i the reciprocal condition number
 * of λ_i; Anderson et al., LAPACK Users' Guide, 3rd ed. 1999, §4.8.1): a
 * conserved quantity (the oil volume of a closed circuit) or a structural
 * zero (a shaft angle that nothing depends on) gives λ = 0 exactly, which
 * dgeev returns as ±1e-16·max|λ| and which would otherwise make the ratio
 * 1e15–1e19. */
static void
print_spectrum (double *J, guint n)
{
  double *wr = g_new0 (double, n), *wi = g_new0 (double, n);
  double *vl = g_new (double, (gsize) n * n), *vr = g_new (double, (gsize) n * n);
  double *scale = g_new (double, n), *rconde = g_new (double, n), *rcondv = g_new (double, n);
  lapack_int ilo, ihi;
  double abnrm = 0.0;
  lapack_int info = LAPACKE_dgeevx (LAPACK_COL_MAJOR, 'B', 'V', 'V', 'E', (lapack_int) n, J,
                                    (lapack_int) n, wr, wi, vl, (lapack_int) n, vr, (lapack_int) n,
                                    &ilo, &ihi, scale, &abnrm, rconde, rcondv);
  if (info == 0)
    {
      printf ("Eigenvalues of J at t = 0:\n");
      double maxre = 0.0, minre = INFINITY;
      guint n_zero = 0;
      for (guint i = 0; i < n; i++)
        {
          double bound = n * DBL_EPSILON * abnrm / MAX (rconde[i], DBL_MIN);
          gboolean zero = hypot (wr[i], wi[i]) <= bound;
          printf ("  %14.6g %+14.6gi%s\n", wr[i], wi[i],
                  zero && (wr[i] != 0.0 || wi[i] != 0.0) ? "  (zero within rounding)" : "");
          if (zero)
            n_zero++;
          else if (wr[i] < 0)
            {
              maxre = MAX (maxre, -wr[i]);
              minre = MIN (minre, -wr[i]);
            }
        }
      if (minre > 0 && isfinite (minre))
        printf ("Stiffness ratio (max/min |Re λ| over decaying modes): %.4g\n", maxre / minre);
      else
        printf ("Stiffness ratio: undefined (no decaying modes)\n");
      if (n_zero)
        printf ("  (%u eigenvalue%s zero, exactly or within rounding: non-decaying, not counted)\n", n_zero,
                n_zero == 1 ? "" : "s");
    }
  else
    printf ("Eigenvalues: LAPACK dgeevx failed (info %d)\n", (int) info);
  g_free (wr); g_free (wi); g_free (vl); g_free (vr);
  g_free (scale); g_free (rconde); g_free (rcondv);
}

static int
cmd_describe (int argc, char **argv)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new ("CIRCUIT — print the assembled system");
  int st = parse_options (ctx, &argc, &argv);
  if (st)
    return st;
  if (argc != 2)
    return usage_error (ctx, "describe takes one CIRCUIT file");
  HydCircuit *circuit = load_circuit (argv[1], &st);
  if (!circuit)
    return st;
  GError *error = NULL;
  HydSystem *sys = hyd_system_compile (circuit, &error);
  if (!sys)
    {
      st = failed_error (error);
      g_error_free (error);
      hyd_circuit_free (circuit);
      return st;
    }
  hyd_cli_print_diagnostics (hyd_system_get_diagnostics (sys));
  guint n = hyd_system_get_n_states (sys);
  const double *y0 = hyd_system_get_initial_state (sys);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  printf ("States (%u):\n", n);
  for (guint i = 0; i < n; i++)
    {
      HydUnit u = hyd_system_get_state_unit (sys, i);
      printf ("  %3u  %-28s %-18s %s %s\n", i, hyd_system_get_state_name (sys, i),
              hyd_unit_name (u), fmt_num (buf, y0[i]), hyd_unit_symbol (u));
    }
  printf ("Nodes (%u):\n", hyd_system_get_n_nodes (sys));
  for (guint b = 0; b < hyd_system_get_n_nodes (sys); b++)
    {
      const HydNodeInfo *ni = hyd_system_get_node (sys, b);
      char pbuf[G_ASCII_DTOSTR_BUF_SIZE];
      printf ("  %-28s %s wire volume %s m³, initial %s Pa; ports:", ni->name,
              ni->boundary ? "boundary," : "state,   ", fmt_num (buf, ni->wire_volume),
              g_ascii_formatd (pbuf, sizeof pbuf, "%.6g", ni->initial_pressure));
      for (guint k = 0; k < ni->ports->len; k++)
        printf (" %s", (const char *) g_ptr_array_index (ni->ports, k));
      printf ("\n");
    }

  guint nnz;
  const guint *colptr, *rowind;
  hyd_system_get_pattern (sys, &nnz, &colptr, &rowind);
  printf ("Jacobian sparsity: %u × %u, %u structural non-zeros (%.1f%%)\n", n, n, nnz,
          n ? 100.0 * nnz / ((double) n * n) : 0.0);
  if (n <= 60)
    {
      gboolean *dense = g_new0 (gboolean, (gsize) n * n + 1);
      for (guint j = 0; j < n; j++)
        for (guint k = colptr[j]; k < colptr[j + 1]; k++)
          dense[rowind[k] * n + j] = TRUE;
      for (guint i = 0; i < n; i++)
        {
          printf ("  %3u ", i);
          for (guint j = 0; j < n; j++)
            putchar (dense[i * n + j] ? 'x' : '.');
          putchar ('\n');
        }
      g_free (dense);
    }

  if (n > 0 && n <= 2000)
    {
      double *J = g_new0 (double, (gsize) n * n);
      hyd_system_jacobian (sys, 0.0, y0, J, NULL);
      print_spectrum (J, n);
      g_free (J);
    }
  hyd_system_free (sys);
  hyd_circuit_free (circuit);
  return 0;
}

/* ---------------- jacobian-check ---------------- */

typedef struct {
  GArray *times;
  GArray *states;  /* n per sample */
  guint n;
} Trajectory;

static gboolean
collect_states (double t, const double *values, guint nv, gpointer user)
{
  Trajectory *tr = user;
  g_array_append_val (tr->times, t);
  g_array_append_vals (tr->states, values + 1, tr->n);
  return TRUE;
}

/* The interval [lo, hi] that contains t (a breakpoint starts the next one). */
static void
interval_at (HydSystem *sys, double t, double t_end, double *lo, double *hi)
{
  const GArray *bp = hyd_system_get_breakpoints (sys);
  *lo = 0.0;
  *hi = t_end;
  for (guint k = 0; k < bp->len; k++)
    {
      double b = g_array_index (bp, double, k);
      if (b <= 0.0 || b >= t_end)
        continue;
      if (b <= t)
        *lo = b;
      else
        {
          *hi = b;
          break;
        }
    }
}

static void
check_point (HydSystem *sys, double t, const double *y, double t_end, GArray *entries,
             guint *n_fail, guint *n_seam)
{
  guint n = hyd_system_get_n_states (sys);
  double lo, hi;
  interval_at (sys, t, t_end, &lo, &hi);
  hyd_system_set_interval (sys, lo, hi);
  double *J = g_new0 (double, (gsize) n * n + 1);
  double *dfdt = g_new0 (double, n + 1);
  double *fp = g_new (double, n + 1), *fm = g_new (double, n + 1);
  double *D1 = g_new (double, n + 1), *D2 = g_new (double, n + 1);
  double *yy = g_new (double, n + 1);
  double *scale = g_new (double, n + 1);
  double *f0 = g_new (double, n + 1), *noise = g_new (double, n + 1);
  hyd_system_jacobian (sys, t, y, J, dfdt);
  hyd_system_rhs (sys, t, y, f0);
  for (guint i = 0; i < n; i++)
    noise[i] = hyd_fd_row_noise (f0[i], J + i, n, y, n);
  for (guint j = 0; j < n; j++)
    scale[j] = hyd_unit_fd_scale (hyd_system_get_state_unit (sys, j));
  double *rowmax = g_new0 (double, n + 1);
  for (guint i = 0; i < n; i++)
    for (guint k = 0; k < n; k++)
      rowmax[i] = MAX (rowmax[i], fabs (J[i + (gsize) k * n]) * scale[k]);

  for (guint j = 0; j <= n; j++)
    {
      for (int pass = 0; pass < 2; pass++)
        {
          double *D = pass == 0 ? D1 : D2;
          if (j < n)
            {
              double h = 1e-7 * MAX (fabs (y[j]), scale[j]) / (pass ? 10.0 : 1.0);
              memcpy (yy, y, sizeof (double) * n);
              yy[j] = y[j] + h;
              hyd_system_rhs (sys, t, yy, fp);
              yy[j] = y[j] - h;
              hyd_system_rhs (sys, t, yy, fm);
              for (guint i = 0; i < n; i++)
                D[i] = (fp[i] - fm[i]) / (2.0 * h);
            }
          else
            {
              double h = 1e-7 * MAX (fabs (t), 1.0) / (pass ? 10.0 : 1.0);
              /* one-sided near a breakpoint, always inside the interval */
              double tp = t + h, tm = t - h;
              if (tm < lo) tm = t;
              if (tp > hi) tp = t;
              hyd_system_rhs (sys, tp, y, fp);
              hyd_system_rhs (sys, tm, y, fm);
              for (guint i = 0; i < n; i++)
                D[i] = (fp[i] - fm[i]) / (tp - tm);
            }
        }
      for (guint i = 0; i < n; i++)
        {
          double a = j < n ? J[i + (gsize) j * n] : dfdt[i];
          double floor = 1e-8 * rowmax[i] / (j < n ? scale[j] : 1.0);
          double err;
          HydFdVerdict v = hyd_fd_judge (a, D1[i], D2[i], floor, &err);
          double hj = j < n ? 1e-7 * MAX (fabs (y[j]), scale[j]) : 1e-7 * MAX (fabs (t), 1.0);
          gboolean unresolved = FALSE;
          if (v == HYD_FD_FAIL && hyd_fd_unresolved (a, D1[i], hj, noise[i]))
            {
              /* within the rounding level of f_i: no quotient can judge it */
              v = HYD_FD_SEAM;
              unresolved = TRUE;
            }
          if (v == HYD_FD_FAIL)
            (*n_fail)++;
          else if (v == HYD_FD_SEAM)
            (*n_seam)++;
          if (v != HYD_FD_OK || err > 1e-7)
            {
              HydFdEntry w = { v == HYD_FD_OK ? err : MAX (err, HYD_FD_TOL), i, j, a, D1[i], t, v,
                               unresolved };
              g_array_append_val (entries, w);
            }
        }
    }
  g_free (J); g_free (dfdt); g_free (fp); g_free (fm); g_free (D1); g_free (D2);
  g_free (yy); g_free (scale); g_free (rowmax); g_free (f0); g_free (noise);
}

static int
cmd_jacobian_check (int argc, char **argv)
{
  g_autofree char *points_s = NULL;
  GOptionEntry entries[] = {
    { "points", 0, 0, G_OPTION_ARG_STRING, &points_s,
      "States along the trajectory to check, 0 to 10000 (default 5)", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("CIRCUIT — compare the analytic Jacobian with finite differences");
  g_option_context_add_main_entries (ctx, entries, NULL);
  int st = parse_options (ctx, &argc, &argv);
  if (st)
    return st;
  if (argc != 2)
    return usage_error (ctx, "jacobian-check takes one CIRCUIT file");
  gint64 points = 5;
  if (points_s && !hyd_cli_parse_int ("--points", points_s, 0, MAX_POINTS, &points))
    return EXIT_USAGE;
  HydCircuit *circuit = load_circuit (argv[1], &st);
  if (!circuit)
    return st;
  GError *error = NULL;
  HydSimOptions sim;
  HydSystem *sys = NULL;
  if (!hyd_circuit_get_sim_options (circuit, &sim, &error)
      || (sys = hyd_system_compile (circuit, &error)) == NULL)
    {
      st = failed_error (error);
      g_error_free (error);
      hyd_circuit_free (circuit);
      return st;
    }
  guint n = hyd_system_get_n_states (sys);
  /* a dense n × n Jacobian and the states at the points, within half the
   * memory available (docs/cli.md) */
  double need = ((double) n * n + (double) (points + 2) * n) * sizeof (double);
  guint64 avail;
  if (hyd_cli_memory_available (&avail) && need > 0.5 * (double) avail)
    {
      g_autofree char *need_s = hyd_cli_format_size (need);
      g_autofree char *avail_s = hyd_cli_format_size ((double) avail);
      st = failed ("%s: jacobian-check of %u states at %" G_GINT64_FORMAT " points needs %s, more than "
                   "half the %s of memory available", hyd_cli_qpath (argv[1]), n, points, need_s, avail_s);
      hyd_system_free (sys);
      hyd_sim_options_clear (&sim);
      hyd_circuit_free (circuit);
      return st;
    }

  /* a trajectory with the circuit's own solver, sampled at the points */
  Trajectory tr = { g_array_new (FALSE, FALSE, sizeof (double)),
                    g_array_new (FALSE, FALSE, sizeof (double)), n };
  GArray *vars = g_array_new (FALSE, FALSE, sizeof (int));
  int tv = hyd_system_find_variable (sys, "t");
  g_array_append_val (vars, tv);
  for (guint i = 0; i < n; i++)
    {
      int v = hyd_system_find_variable (sys, hyd_system_get_state_name (sys, i));
      g_array_append_val (vars, v);
    }
  if (points > 0)
    {
      if (hyd_solver_lookup (sim.solver) == NULL)
        {
          g_free (sim.solver);
          sim.solver = g_strdup ("rodas4");
        }
      sim.output_interval = sim.t_end / points;
      HydRunSpec spec = { .sim = &sim, .vars = (const int *) vars->data, .n_vars = vars->len,
                          .sample = collect_states, .user = &tr };
      HydOdeResult res = { 0 };
      if (hyd_run_execute (sys, &spec, &res, NULL) != HYD_ODE_SUCCESS)
        fprintf (stderr, "warning: the trajectory stopped early (%s); checking the states reached\n",
                 res.message ? res.message : "");
      hyd_ode_result_clear (&res);
    }

  GArray *worst = g_array_new (FALSE, FALSE, sizeof (HydFdEntry));
  guint n_fail = 0, n_seam = 0, n_points = 0;
  check_point (sys, 0.0, hyd_system_get_initial_state (sys), sim.t_end, worst, &n_fail, &n_seam);
  n_points++;
  for (guint k = 1; k < tr.times->len; k++)
    {
      check_point (sys, g_array_index (tr.times, double, k),
                   &g_array_index (tr.states, double, (gsize) k * n), sim.t_end, worst, &n_fail, &n_seam);
      n_points++;
    }
  g_array_sort (worst, hyd_fd_entry_compare);
  printf ("jacobian-check %s: %u states, %u points, %u entries each (J and ∂f/∂t)\n", argv[1], n,
          n_points, n * (n + 1));
  /* the failing entries (they sort first; at most 40), then the worst others
   * up to 12 lines */
  guint shown = MIN (worst->len, MAX (MIN (n_fail, 40), 12));
  if (shown)
    printf (n_fail ? "Failing entries first, then the worst others (row ← column, component variable):\n"
                   : "Worst entries (row ← column, component variable):\n");
  for (guint k = 0; k < shown; k++)
    {
      HydFdEntry *w = &g_array_index (worst, HydFdEntry, k);
      printf ("  t=%-10.6g %-24s ← %-24s analytic %14.7g  FD %14.7g  err %.2g%s\n", w->t,
              hyd_system_get_state_name (sys, w->row),
              w->col < n ? hyd_system_get_state_name (sys, w->col) : "t",
              w->J, w->D, w->err,
              w->verdict == HYD_FD_FAIL ? "  FAIL"
              : w->unresolved ? "  unresolved (within rounding)"
              : w->verdict == HYD_FD_SEAM ? "  seam" : "");
    }
  if (n_fail > shown)
    printf ("  … and %u more failing entries\n", n_fail - shown);
  printf ("Result: %u failing, %u seam entries → %s\n", n_fail, n_seam, n_fail ? "FAIL" : "PASS");
  g_array_unref (worst);
  g_array_unref (vars);
  g_array_unref (tr.times);
  g_array_unref (tr.states);
  hyd_system_free (sys);
  hyd_sim_options_clear (&sim);
  hyd_circuit_free (circuit);
  return n_fail ? EXIT_FAILED : 0;
}

/* ---------------- components / solvers ---------------- */

static void
print_range (const HydParamInfo *p)
{
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
  if (p->flags & HYD_PARAM_ENUM)
    {
      printf ("one of");
      for (int c = 0; p->choices && p->choices[c]; c++)
        printf (" %s", p->choices[c]);
      return;
    }
  gboolean lo = isfinite (p->min), hi = isfinite (p->max);
  if (lo && hi)
    printf ("%s%s, %s%s", (p->flags & HYD_PARAM_MIN_EXCLUSIVE) ? "(" : "[",
            g_ascii_formatd (a, sizeof a, "%g", p->min), g_ascii_formatd (b, sizeof b, "%g", p->max),
            (p->flags & HYD_PARAM_MAX_EXCLUSIVE) ? ")" : "]");
  else if (lo)
    printf ("%s %s", (p->flags & HYD_PARAM_MIN_EXCLUSIVE) ? ">" : "≥", g_ascii_formatd (a, sizeof a, "%g", p->min));
  else if (hi)
    printf ("%s %s", (p->flags & HYD_PARAM_MAX_EXCLUSIVE) ? "<" : "≤", g_ascii_formatd (a, sizeof a, "%g", p->max));
  else
    printf ("any");
}

static void
print_type (const HydComponentType *t, gboolean full)
{
  printf ("%-26s %-14s %s\n", t->id, hyd_category_name (t->category), t->label ? t->label : "");
  if (!full)
    return;
  if (t->description)
    printf ("\n%s\n", t->description);
  if (t->iso_symbol)
    printf ("\nISO 1219 symbol: %s\n", t->iso_symbol);
  printf ("\nPorts:\n");
  for (guint i = 0; i < t->n_ports; i++)
    printf ("  %-6s %-10s%s  %s\n", t->ports[i].name, hyd_domain_name (t->ports[i].domain),
            t->ports[i].optional ? " optional" : "", t->ports[i].description ? t->ports[i].description : "");
  printf ("\nParameters:\n");
  for (guint i = 0; i < t->n_params; i++)
    {
      const HydParamInfo *p = &t->params[i];
      char d[G_ASCII_DTOSTR_BUF_SIZE];
      printf ("  %-28s ", p->name);
      if (p->flags & HYD_PARAM_ENUM)
        printf ("default %-12s", p->choices[(int) p->def]);
      else if (p->flags & HYD_PARAM_OPTIONAL)
        printf ("default %-12s", "(unset)");
      else if (p->flags & HYD_PARAM_FLUID_CD)
        printf ("default %-12s", "(fluid)");
      else
        printf ("default %-12s", g_ascii_formatd (d, sizeof d, "%g", p->def));
      printf (" %-10s ", hyd_unit_symbol (p->unit));
      print_range (p);
      printf ("%s\n      %s — %s\n", (p->flags & HYD_PARAM_PROFILE) ? "  (profile)" : "",
              p->label ? p->label : p->name, p->description ? p->description : "");
    }
}

static int
cmd_components (int argc, char **argv)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new ("[TYPE] — the component catalogue");
  int st = parse_options (ctx, &argc, &argv);
  if (st)
    return st;
  if (argc > 2)
    return usage_error (ctx, "components takes at most one TYPE");
  if (argc == 2)
    {
      const HydComponentType *t = hyd_catalogue_lookup (argv[1]);
      if (!t)
        return failed ("unknown component type '%s' (bramah-cli components lists them)", argv[1]);
      print_type (t, TRUE);
      return 0;
    }
  guint n;
  const HydComponentType *const *list = hyd_catalogue_list (&n);
  for (guint i = 0; i < n; i++)
    print_type (list[i], FALSE);
  return 0;
}

static char *
utf8_pad (const char *text, glong width)
{
  glong len = g_utf8_strlen (text, -1);
  GString *s = g_string_new (text);
  for (glong k = len; k < width; k++)
    g_string_append_c (s, ' ');
  return g_string_free (s, FALSE);
}

static int
cmd_solvers (int argc, char **argv)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new ("— solver ids, families and orders");
  int st = parse_options (ctx, &argc, &argv);
  if (st)
    return st;
  if (argc != 1)
    return usage_error (ctx, "solvers takes no arguments");
  guint n;
  const HydSolverInfo *list = hyd_solver_list (&n);
  printf ("%-16s %-36s %-8s %s\n", "id", "family", "order", "notes");
  for (guint i = 0; i < n; i++)
    {
      /* pad by characters, not bytes: "1–5", "Lobatto IIIC" */
      g_autofree char *family = utf8_pad (list[i].family, 36);
      g_autofree char *order = utf8_pad (list[i].order, 8);
      printf ("%-16s %s %s %s\n", list[i].id, family, order, list[i].notes ? list[i].notes : "");
    }
  return 0;
}

/* ---------------- main ---------------- */

static const struct {
  const char *name;
  int (*run) (int argc, char **argv);
  const char *summary;
} commands[] = {
  { "simulate", cmd_simulate, "run a circuit and write CSV" },
  { "check", cmd_check, "load and validate a circuit without simulating" },
  { "describe", cmd_describe, "print states, nodes, Jacobian pattern and eigenvalues" },
  { "jacobian-check", cmd_jacobian_check, "compare the analytic Jacobian with finite differences" },
  { "components", cmd_components, "list the component catalogue, or one type in full" },
  { "solvers", cmd_solvers, "list the solvers" },
  { "verify", hyd_cli_verify, "run the stiff test set and report mescd per solver" },
  { "bench", hyd_cli_bench, "work-precision benchmark, side by side with SUNDIALS CVODE" },
  { "render", hyd_cli_render, "draw the schematic to SVG, PDF or PNG" },
};

static void
print_main_help (FILE *f)
{
  fprintf (f, "Usage: bramah-cli COMMAND [OPTIONS] ...\n\nCommands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (f, "  %-16s %s\n", commands[i].name, commands[i].summary);
  fprintf (f, "\n'bramah-cli COMMAND --help' describes each command.\n");
}

/* What went to stdout must have arrived: `check >/dev/full` fails. At exit,
 * so that it also covers --help, which GOption prints and then exits. */
static void
close_stdout (void)
{
  errno = 0;
  int e = fflush (stdout) != 0 ? errno : 0;
  gboolean bad = e != 0 || ferror (stdout);
  if (fclose (stdout) != 0 && !bad)
    {
      e = errno;
      bad = TRUE;
    }
  if (bad)
    {
      fprintf (stderr, "bramah-cli: cannot write standard output: %s%s\n",
               e ? g_strerror (e) : "a write failed", e == ENOSPC ? " (disk full)" : "");
      _exit (EXIT_FAILED);
    }
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  hyd_cli_init_i18n ();
  atexit (close_stdout);
  if (argc < 2)
    {
      print_main_help (stderr);
      return EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_main_help (stdout);
      return 0;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      {
        g_autofree char *prg = g_strdup_printf ("bramah-cli %s", commands[i].name);
        g_set_prgname (prg);
        return commands[i].run (argc - 1, argv + 1);
      }
  fprintf (stderr, "bramah-cli: unknown command '%s'\n", argv[1]);
  print_main_help (stderr);
  return EXIT_USAGE;
}
