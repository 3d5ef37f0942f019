/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-jacobian-check.c — `bramah-cli jacobian-check CIRCUIT [--points N]`:
 * the analytic Jacobian and ∂f/∂t against central differences at t = 0 and
 * at N points of a trajectory (docs/cli.md), judged by hyd-fdcheck's rule. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli-circuit.h"
#include "cli-commands.h"
#include "hyd-fdcheck.h"
#include "hyd-run.h"
#include "hyd-system.h"

typedef struct {
  GArray *times;
  GArray *states;  /* n per sample */
  guint n;
  HydSystem *sys;
  GArray *discrete; /* nd per sample: the discrete states in force there */
  guint nd;
} Trajectory;

static gboolean
collect_states (double t, const double *values, guint nv, gpointer user)
{
  Trajectory *tr = user;
  g_array_append_val (tr->times, t);
  g_array_append_vals (tr->states, values + 1, tr->n);
  if (tr->nd > 0)
    {
      guint at = tr->discrete->len;
      g_array_set_size (tr->discrete, at + tr->nd);
      hyd_system_get_discrete (tr->sys, &g_array_index (tr->discrete, double, at));
    }
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
  g_autofree double *J = g_new0 (double, (gsize) n * n + 1);
  g_autofree double *dfdt = g_new0 (double, n + 1);
  g_autofree double *fp = g_new (double, n + 1), *fm = g_new (double, n + 1);
  g_autofree double *D1 = g_new (double, n + 1), *D2 = g_new (double, n + 1);
  g_autofree double *yy = g_new (double, n + 1);
  g_autofree double *scale = g_new (double, n + 1);
  g_autofree double *f0 = g_new (double, n + 1), *noise = g_new (double, n + 1);
  hyd_system_jacobian (sys, t, y, J, dfdt);
  hyd_system_rhs (sys, t, y, f0);
  for (guint i = 0; i < n; i++)
    noise[i] = hyd_fd_row_noise (f0[i], J + i, n, y, n);
  for (guint j = 0; j < n; j++)
    scale[j] = hyd_unit_fd_scale (hyd_system_get_state_unit (sys, j));
  g_autofree double *rowmax = g_new0 (double, n + 1);
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
}

static int
run (int argc, char **argv)
{
  g_autofree char *points_s = NULL;
  GOptionEntry entries[] = {
    { "points", 0, 0, G_OPTION_ARG_STRING, &points_s,
      "States along the trajectory to check, 0 to 10000 (default 5)", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("CIRCUIT — compare the analytic Jacobian with finite differences");
  g_option_context_add_main_entries (ctx, entries, NULL);
  int st = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  if (st)
    return st;
  if (argc != 2)
    return hyd_cli_usage_error (ctx, "jacobian-check takes one CIRCUIT file");
  gint64 points = 5;
  if (points_s && !hyd_cli_parse_int ("--points", points_s, 0, HYD_CLI_MAX_POINTS, &points))
    return HYD_CLI_EXIT_USAGE;
  g_auto (HydSimOptions) sim = { 0 };
  g_autoptr (HydSystem) sys = hyd_cli_compile_circuit (argv[1], NULL, &sim, &st);
  if (!sys)
    return st;
  guint n = hyd_system_get_n_states (sys);
  /* a dense n × n Jacobian and the states at the points, within half the
   * memory available (docs/cli.md) */
  double need = ((double) n * n + (double) (points + 2) * n) * sizeof (double);
  guint64 avail;
  if (hyd_cli_memory_available (&avail) && need > 0.5 * (double) avail)
    {
      g_autofree char *need_s = hyd_cli_format_size (need);
      g_autofree char *avail_s = hyd_cli_format_size ((double) avail);
      return hyd_cli_failed ("%s: jacobian-check of %u states at %" G_GINT64_FORMAT " points needs %s, more "
                             "than half the %s of memory available", hyd_cli_qpath (argv[1]), n, points,
                             need_s, avail_s);
    }

  /* a trajectory with the circuit's own solver, sampled at the points */
  g_autoptr (GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) states = g_array_new (FALSE, FALSE, sizeof (double));
  /* a point is checked with the discrete states in force there (docs/domains.md),
   * not with those the run ended with */
  guint nd = hyd_system_get_n_discrete (sys);
  g_autoptr (GArray) discrete = g_array_new (FALSE, FALSE, sizeof (double));
  Trajectory tr = { times, states, n, sys, discrete, nd };
  g_autoptr (GArray) vars = g_array_new (FALSE, FALSE, sizeof (int));
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
      g_auto (HydOdeResult) res = { 0 };
      if (hyd_run_execute (sys, &spec, &res, NULL) != HYD_ODE_SUCCESS)
        hyd_cli_warning ("the trajectory stopped early (%s); checking the states reached",
                         res.message ? res.message : "");
    }

  g_autoptr (GArray) worst = g_array_new (FALSE, FALSE, sizeof (HydFdEntry));
  guint n_fail = 0, n_seam = 0, n_points = 0;
  if (nd > 0 && tr.times->len > 0)
    hyd_system_set_discrete (sys, &g_array_index (discrete, double, 0));
  check_point (sys, 0.0, hyd_system_get_initial_state (sys), sim.t_end, worst, &n_fail, &n_seam);
  n_points++;
  for (guint k = 1; k < tr.times->len; k++)
    {
      if (nd > 0)
        hyd_system_set_discrete (sys, &g_array_index (discrete, double, (gsize) k * nd));
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
  return n_fail ? HYD_CLI_EXIT_FAILED : HYD_CLI_EXIT_OK;
}

const HydCliCommand hyd_cli_jacobian_check_command = {
  "jacobian-check", "compare the analytic Jacobian with finite differences", run,
};
