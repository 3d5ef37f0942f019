/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-verify.c — `bramah-cli verify`: the standard stiff test set
 * (spec/cli.md): HIRES, Van der Pol (μ = 1000), ROBER, OREGO, E5 and POLLU,
 * against the Bari test set's reference solutions, reported as mescd. Each
 * problem runs with the absolute tolerance the test set prescribes for it
 * (hyd-testset.c), printed before the table and in each row. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli-commands.h"
#include "hyd-ode.h"
#include "hyd-testset.h"

/* Fixed-step methods take h = t_end/1e4 (spec/cli.md); `tlm` does not take
 * part (it is judged on circuits). */
static gboolean
takes_part (const HydSolverInfo *info)
{
  return !info->needs_model;
}

static void
print_row (gboolean csv, const HydTestProblem *p, const char *solver, double rtol, double atol,
           HydOdeStatus status, double mescd, const HydOdeStats *st)
{
  char r[G_ASCII_DTOSTR_BUF_SIZE], w[G_ASCII_DTOSTR_BUF_SIZE], m[G_ASCII_DTOSTR_BUF_SIZE];
  char a[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (r, sizeof r, "%g", rtol);
  g_ascii_formatd (a, sizeof a, "%g", atol);
  g_ascii_formatd (w, sizeof w, "%.6g", st->wall_s);
  gboolean ok = status == HYD_ODE_SUCCESS;
  if (ok)
    g_ascii_formatd (m, sizeof m, "%.2f", mescd);
  else
    m[0] = '\0';
  if (csv)
    {
      printf ("%s,%s,%s,%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
              ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%s%s%s\n",
              p->id, solver, r, m, st->steps, st->rejected, st->f_evals, st->jac_evals, st->lu, w,
              ok ? "" : ",", ok ? "" : hyd_ode_status_name (status));
      return;
    }
  printf ("%-11s %-16s %-7s %-8s %7s %9" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT
          " %9" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT " %10s  %s\n",
          p->name, solver, r, a, ok ? m : "—", st->steps, st->rejected, st->f_evals, st->jac_evals,
          st->lu, w, hyd_ode_status_name (status));
}

static int
run (int argc, char **argv)
{
  g_autofree char *solver = NULL;
  g_autofree char *rtol_s = NULL;
  gboolean csv = FALSE;
  GOptionEntry entries[] = {
    { "solver", 0, 0, G_OPTION_ARG_STRING, &solver, "A solver id, or all (default all)", "ID|all" },
    { "rtol", 0, 0, G_OPTION_ARG_STRING, &rtol_s, "Relative tolerance (default 1e-6); atol follows each problem's prescribed rule", "R" },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, "Print CSV instead of a table", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("— run the stiff test set and report mescd");
  g_option_context_add_main_entries (ctx, entries, NULL);
  /* verify's usage errors have never carried the "Try ... --help" line */
  int st = hyd_cli_parse_options (ctx, FALSE, &argc, &argv);
  if (st)
    return st;
  if (argc != 1)
    return hyd_cli_usage_error (NULL, "verify takes no file arguments");
  double rtol = 1e-6;
  if (rtol_s && !hyd_cli_parse_double ("--rtol", rtol_s, 0, 1, HYD_CLI_MIN_EXCLUSIVE | HYD_CLI_MAX_EXCLUSIVE,
                                       NULL, &rtol))
    return HYD_CLI_EXIT_USAGE;

  guint n_solvers;
  const HydSolverInfo *solvers = hyd_solver_list (&n_solvers);
  g_autoptr (GPtrArray) chosen = g_ptr_array_new ();
  for (guint k = 0; k < n_solvers; k++)
    if (takes_part (&solvers[k])
        && (solver == NULL || g_strcmp0 (solver, "all") == 0 || g_strcmp0 (solver, solvers[k].id) == 0))
      g_ptr_array_add (chosen, (gpointer) &solvers[k]);
  if (chosen->len == 0)
    return hyd_cli_usage_error (NULL, "unknown solver '%s' (bramah-cli solvers lists them)", solver);

  guint n_problems;
  const HydTestProblem *problems = hyd_testset_list (&n_problems);

  /* the tolerances of each problem, before the table (on stderr with --csv,
   * whose stdout is the CSV of spec/cli.md) */
  FILE *tol_out = csv ? stderr : stdout;
  fprintf (tol_out, "Tolerances (rtol %g; mescd uses each problem's atol/rtol):\n", rtol);
  for (guint i = 0; i < n_problems; i++)
    fprintf (tol_out, "  %-11s rtol %-7g atol %-8g %s\n", problems[i].name, rtol,
             hyd_testset_atol (&problems[i], rtol), problems[i].tol.source);
  if (!csv)
    printf ("\n");

  if (csv)
    printf ("problem,solver,rtol,mescd,steps,rejected,f_evals,jac_evals,lu,wall_s\n");
  else
    printf ("%-11s %-16s %-7s %-8s %7s %9s %9s %10s %9s %9s %10s  %s\n", "problem", "solver", "rtol",
            "atol", "mescd", "steps", "rejected", "f_evals", "jac_evals", "lu", "wall_s", "status");

  int failures = 0;
  for (guint k = 0; k < chosen->len; k++)
    {
      const HydSolverInfo *info = g_ptr_array_index (chosen, k);
      for (guint i = 0; i < n_problems; i++)
        {
          const HydTestProblem *p = &problems[i];
          g_autofree double *y = g_memdup2 (p->y0, sizeof (double) * p->n);
          double atol_p = hyd_testset_atol (p, rtol);
          g_autofree double *atol = g_new (double, p->n);
          for (guint j = 0; j < p->n; j++)
            atol[j] = atol_p;
          HydOdeOptions o;
          hyd_ode_options_init (&o);
          o.t0 = p->t0;
          o.t_end = p->t_end;
          o.rtol = rtol;
          o.atol = atol;
          o.output_interval = p->t_end - p->t0; /* only the end matters */
          if (!info->adaptive)
            o.fixed_step = (p->t_end - p->t0) / 1e4;
          /* explicit methods may need very many steps on the stiff problems:
           * bound the work so that they end with a clean status */
          o.max_steps = info->implicit ? 0 : 2000000;
          g_auto (HydOdeResult) res = { 0 };
          HydOdeStatus status = hyd_ode_solve (info->id, &p->problem, &o, y, &res);
          double mescd = status == HYD_ODE_SUCCESS ? hyd_testset_mescd (p->n, y, p->y_ref, atol_p, rtol) : NAN;
          print_row (csv, p, info->id, rtol, atol_p, status, mescd, &res.stats);
          if (status != HYD_ODE_SUCCESS && !csv)
            fprintf (stderr, "  %s/%s: %s\n", p->name, info->id, res.message ? res.message : "");
          if (res.note && !csv)
            fprintf (stderr, "  %s/%s: %s\n", p->name, info->id, res.note);
          if (status != HYD_ODE_SUCCESS && info->implicit)
            failures++;
          fflush (stdout);
        }
    }
  /* an implicit or adaptive solver that fails the test set is a failure of
   * the build; explicit methods may stop cleanly on the very stiff problems */
  return failures ? HYD_CLI_EXIT_FAILED : HYD_CLI_EXIT_OK;
}

const HydCliCommand hyd_cli_verify_command = {
  "verify", "run the stiff test set and report mescd per solver", run,
};
