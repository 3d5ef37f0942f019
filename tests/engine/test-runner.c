/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-runner.c — the live run: streaming to a main loop, pause, stop,
 * real-time pacing, live parameter changes and their replay, and a consumer
 * or a runner destroyed during the run. */
#include <math.h>
#include <string.h>

#include "hyd-circuit.h"
#include "hyd-run.h"
#include "hyd-runner.h"
#include "hyd-system.h"

/* Pump into a closed-centre valve: the pump pressure settles on the relief
 * valve RV1 (cracking 10 MPa, 10.76 MPa at the pump's flow) until the valve
 * shifts at 0.5 s. Samples every 5 ms. */
#define EXAMPLE "cylinder-extend-retract.bramah"
#define DT 0.005

static HydCircuit *
load_example (void)
{
  g_autofree char *path = g_build_filename (HYD_TEST_DATA_DIR, "examples", EXAMPLE, NULL);
  GError *error = NULL;
  HydCircuit *circuit = hyd_circuit_load_from_file (path, &error);
  g_assert_no_error (error);
  return circuit;
}

static void
sim_options (const HydCircuit *circuit, double t_end, double factor, HydSimOptions *sim)
{
  GError *error = NULL;
  g_assert_true (hyd_circuit_get_sim_options (circuit, sim, &error));
  g_assert_no_error (error);
  hyd_sim_options_set_t_end (sim, t_end);
  g_assert_cmpfloat (sim->output_interval, ==, DT);
  sim->real_time_factor = factor;
}

static HydRunner *
new_runner (double t_end, double factor)
{
  g_autoptr (HydCircuit) circuit = load_example ();
  HydSimOptions sim;
  GError *error = NULL;

  sim_options (circuit, t_end, factor, &sim);
  HydRunner *runner = hyd_runner_new (circuit, &sim, &error);
  g_assert_no_error (error);
  hyd_sim_options_clear (&sim);
  /* the run owns its copy: the document may go now */
  return runner;
}

/* ---------- what a consumer collects ---------- */

typedef struct {
  HydRunner *runner;
  GMainLoop *loop;
  guint n_cols;
  GArray *rows;          /* of double, n_cols a row */
  guint n_batches;
  guint n_changes;
  double change_t;
  GPtrArray *warnings;
  gboolean finished;
  gint64 start_us, end_us;
  /* what to do on a batch */
  double act_at;         /* act on the first batch reaching this time */
  gboolean acted;
  void (*act) (gpointer data);
} Consumer;

static guint
n_rows (const Consumer *c)
{
  return c->rows->len / c->n_cols;
}

static double
row_value (const Consumer *c, guint r, guint col)
{
  return g_array_index (c->rows, double, (gsize) r * c->n_cols + col);
}

static void
on_samples (HydRunner *runner, gpointer rows, guint n, gpointer data)
{
  Consumer *c = data;
  g_assert_true (runner == c->runner);
  g_assert_false (c->finished);
  g_assert_cmpuint (n, >, 0);
  g_array_append_vals (c->rows, rows, n * c->n_cols);
  c->n_batches++;
  double t = row_value (c, n_rows (c) - 1, 0);
  if (c->act != NULL && !c->acted && t >= c->act_at)
    {
      c->acted = TRUE;
      c->act (c);
    }
}

static void
on_change (HydRunner *runner, gpointer change, gpointer data)
{
  Consumer *c = data;
  const HydRunChange *ch = change;
  c->n_changes++;
  c->change_t = ch->t;
  /* every row before the change has arrived, none after */
  g_assert_cmpuint (n_rows (c), >, 0);
  g_assert_cmpfloat (row_value (c, n_rows (c) - 1, 0), <, ch->t);
}

static void
on_warning (HydRunner *runner, const char *message, gpointer data)
{
  Consumer *c = data;
  g_ptr_array_add (c->warnings, g_strdup (message));
}

static void
on_finished (HydRunner *runner, gpointer data)
{
  Consumer *c = data;
  g_assert_false (c->finished);
  c->finished = TRUE;
  c->end_us = g_get_monotonic_time ();
  g_main_loop_quit (c->loop);
}

static gboolean
on_timeout (gpointer data)
{
  g_error ("the run did not finish in time");
  return G_SOURCE_REMOVE;
}

static void
consumer_init (Consumer *c, HydRunner *runner)
{
  memset (c, 0, sizeof *c);
  c->runner = runner;
  c->loop = g_main_loop_new (NULL, FALSE);
  c->n_cols = hyd_runner_get_n_columns (runner);
  c->rows = g_array_new (FALSE, FALSE, sizeof (double));
  c->warnings = g_ptr_array_new_with_free_func (g_free);
  c->act_at = INFINITY;
  g_signal_connect (runner, "samples", G_CALLBACK (on_samples), c);
  g_signal_connect (runner, "change", G_CALLBACK (on_change), c);
  g_signal_connect (runner, "warning", G_CALLBACK (on_warning), c);
  g_signal_connect (runner, "finished", G_CALLBACK (on_finished), c);
}

static void
consumer_clear (Consumer *c)
{
  g_main_loop_unref (c->loop);
  g_array_unref (c->rows);
  g_ptr_array_unref (c->warnings);
}

static void
start (Consumer *c)
{
  c->start_us = g_get_monotonic_time ();
  hyd_runner_start (c->runner, NULL);
}

static void
run_to_end (Consumer *c)
{
  guint id = g_timeout_add_seconds (20, on_timeout, NULL);
  if (!c->finished)
    g_main_loop_run (c->loop);
  g_source_remove (id);
  g_assert_true (c->finished);
}

static gboolean
quit_loop (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

/* Runs the main loop for ms milliseconds. */
static void
spin (Consumer *c, guint ms)
{
  g_timeout_add (ms, quit_loop, c->loop);
  g_main_loop_run (c->loop);
}

/* The rows' times are the sample grid k·Δ, each once, in order, from 0 up
 * to the last (t_end when the run finished). */
static void
assert_grid (const Consumer *c, double t_end, gboolean complete)
{
  guint n = n_rows (c);
  guint n_regular = (guint) ceil (t_end / DT - 1e-9);
  if (complete)
    g_assert_cmpuint (n, ==, n_regular + 1);
  for (guint r = 0; r < n; r++)
    {
      double t = row_value (c, r, 0);
      if (r < n_regular)
        g_assert_cmpfloat (t, ==, 0.0 + (double) r * DT);
      else
        g_assert_cmpfloat (t, ==, t_end);
    }
}

static gboolean
append_row (double t, const double *values, guint n, gpointer user)
{
  g_array_append_vals (user, values, n);
  return TRUE;
}

/* The same run, synchronously: every variable at every sample; solver
 * NULL: the file's; fixed_step 0: adaptive. */
static GArray *
run_sync_with (double t_end, const char *solver, double fixed_step,
               const GPtrArray *replay, GPtrArray *log)
{
  g_autoptr (HydCircuit) circuit = load_example ();
  HydSimOptions sim;
  GError *error = NULL;
  sim_options (circuit, t_end, 0.0, &sim);
  if (solver != NULL)
    {
      g_free (sim.solver);
      sim.solver = g_strdup (solver);
    }
  sim.fixed_step = fixed_step;
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  guint nv = hyd_system_get_n_variables (sys);
  int *vars = g_new (int, nv);
  for (guint v = 0; v < nv; v++)
    vars[v] = (int) v;

  GArray *rows = g_array_new (FALSE, FALSE, sizeof (double));
  HydRunSpec spec = { .sim = &sim, .vars = vars, .n_vars = nv, .sample = append_row,
                      .user = rows, .replay = replay, .change_log = log };
  HydOdeResult res = { 0 };
  g_assert_cmpint (hyd_run_execute (sys, &spec, &res, NULL), ==, HYD_ODE_SUCCESS);
  hyd_ode_result_clear (&res);
  g_free (vars);
  hyd_system_free (sys);
  hyd_sim_options_clear (&sim);
  return rows;
}

static GArray *
run_sync (double t_end, const GPtrArray *replay, GPtrArray *log)
{
  return run_sync_with (t_end, NULL, 0.0, replay, log);
}

/* ---------- tests ---------- */

static void
test_stream (void)
{
  HydRunner *runner = new_runner (0.4, 0.0);
  Consumer c;
  consumer_init (&c, runner);

  g_assert_cmpint (hyd_runner_get_state (runner), ==, HYD_RUNNER_READY);
  g_autoptr (HydCircuit) circuit = load_example ();
  HydSystem *sys = hyd_system_compile (circuit, NULL);
  g_assert_cmpuint (c.n_cols, ==, hyd_system_get_n_variables (sys));
  hyd_system_free (sys);
  g_assert_cmpstr (hyd_runner_get_column_name (runner, 0), ==, "t");
  g_assert_cmpint (hyd_runner_get_column_unit (runner, 0), ==, HYD_UNIT_TIME);
  int p_col = hyd_runner_find_column (runner, "DCV1.P.p");
  g_assert_cmpint (p_col, >, 0);
  g_assert_cmpint (hyd_runner_get_column_unit (runner, (guint) p_col), ==, HYD_UNIT_PRESSURE);
  /* a port alias finds the node's pressure column */
  g_assert_cmpint (hyd_runner_find_column (runner, "PU1.P.p"), >=, 0);
  g_assert_cmpint (hyd_runner_find_column (runner, "nothing.here"), ==, -1);

  start (&c);
  g_assert_cmpint (hyd_runner_get_state (runner), ==, HYD_RUNNER_RUNNING);
  run_to_end (&c);

  g_assert_cmpint (hyd_runner_get_state (runner), ==, HYD_RUNNER_FINISHED);
  const HydOdeResult *res = hyd_runner_get_result (runner);
  g_assert_nonnull (res);
  g_assert_cmpint (res->status, ==, HYD_ODE_SUCCESS);
  g_assert_cmpuint (res->stats.steps, >, 0);
  assert_grid (&c, 0.4, TRUE);
  g_assert_cmpuint (hyd_runner_get_change_log (runner)->len, ==, 0);

  HydRunnerProgress p;
  hyd_runner_get_progress (runner, &p);
  g_assert_cmpfloat (p.t, ==, 0.4);
  g_assert_cmpfloat (p.t_end, ==, 0.4);
  g_assert_cmpuint (p.samples, ==, n_rows (&c));
  g_assert_cmpuint (p.steps, ==, res->stats.steps);

  /* the same numbers as the synchronous run */
  GArray *ref = run_sync (0.4, NULL, NULL);
  g_assert_cmpuint (ref->len, ==, c.rows->len);
  g_assert_cmpmem (ref->data, ref->len * sizeof (double), c.rows->data, c.rows->len * sizeof (double));
  g_array_unref (ref);

  /* the run has ended: no more changes */
  GError *error = NULL;
  g_assert_false (hyd_runner_set_param (runner, "RV1", "cracking_pressure", 1e7, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_SIMULATION);
  g_clear_error (&error);

  g_object_unref (runner);
  consumer_clear (&c);
}

static void
test_columns (void)
{
  HydRunner *runner = new_runner (0.1, 0.0);
  const char *bad[] = { "t", "no.such", NULL };
  const char *names[] = { "t", "PU1.P.p", "C1.x", NULL };
  GError *error = NULL;

  g_assert_false (hyd_runner_set_columns (runner, bad, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE);
  g_clear_error (&error);
  g_assert_true (hyd_runner_set_columns (runner, names, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hyd_runner_get_n_columns (runner), ==, 3);
  /* PU1.P is an alias of the node named after DCV1.P */
  g_assert_cmpint (hyd_runner_find_column (runner, "DCV1.P.p"), ==, 1);

  Consumer c;
  consumer_init (&c, runner);
  start (&c);
  run_to_end (&c);
  assert_grid (&c, 0.1, TRUE);
  g_assert_cmpfloat (row_value (&c, n_rows (&c) - 1, 1), >, 1e7);
  g_object_unref (runner);
  consumer_clear (&c);
}

static void
pause_and_quit (gpointer data)
{
  Consumer *c = data;
  hyd_runner_pause (c->runner);
  g_main_loop_quit (c->loop);
}

static void
test_pause_resume (void)
{
  HydRunner *runner = new_runner (0.3, 1.0);
  Consumer c;
  consumer_init (&c, runner);

  /* paused from the start: blocked at the first sample */
  hyd_runner_pause (runner);
  start (&c);
  g_assert_cmpint (hyd_runner_get_state (runner), ==, HYD_RUNNER_PAUSED);
  spin (&c, 50);
  g_assert_cmpuint (n_rows (&c), ==, 0);
  g_assert_false (c.finished);
  hyd_runner_resume (runner);
  g_assert_cmpint (hyd_runner_get_state (runner), ==, HYD_RUNNER_RUNNING);

  /* paused mid-run */
  c.act_at = 0.1;
  c.act = pause_and_quit;
  g_main_loop_run (c.loop);
  g_assert_cmpint (hyd_runner_get_state (runner), ==, HYD_RUNNER_PAUSED);
  spin (&c, 60);
  guint n = n_rows (&c);
  spin (&c, 60);
  /* the worker is blocked: nothing more came, the run has not ended */
  g_assert_cmpuint (n_rows (&c), ==, n);
  g_assert_false (c.finished);
  g_assert_cmpuint (n, <, 61);

  hyd_runner_resume (runner);
  run_to_end (&c);
  g_assert_cmpint (hyd_runner_get_state (runner), ==, HYD_RUNNER_FINISHED);
  assert_grid (&c, 0.3, TRUE);

  /* a pause longer than the run is not counted as its wall time */
  HydRunnerProgress p;
  hyd_runner_get_progress (runner, &p);
  g_assert_cmpfloat (p.wall_s, <, (c.end_us - c.start_us) * 1e-6);

  g_object_unref (runner);
  consumer_clear (&c);
}

static void
stop_runner (gpointer data)
{
  Consumer *c = data;
  hyd_runner_stop (c->runner);
}

static void
test_stop (void)
{
  /* real time, so that the first batch comes long before the end */
  HydRunner *runner = new_runner (0.4, 1.0);
  Consumer c;
  consumer_init (&c, runner);
  c.act_at = 0.0;
  c.act = stop_runner;

  start (&c);
  run_to_end (&c);
  g_assert_cmpint (hyd_runner_get_state (runner), ==, HYD_RUNNER_STOPPED);
  const HydOdeResult *res = hyd_runner_get_result (runner);
  g_assert_cmpint (res->status, ==, HYD_ODE_CANCELLED);
  g_assert_nonnull (strstr (res->message, "stopped"));
  g_assert_cmpuint (n_rows (&c), <, 81);
  assert_grid (&c, 0.4, FALSE);
  /* well before the 0.4 s the whole run would take */
  g_assert_cmpint (c.end_us - c.start_us, <, 300000);

  g_object_unref (runner);
  consumer_clear (&c);

  /* stopped before the start: never runs */
  runner = new_runner (0.1, 0.0);
  hyd_runner_stop (runner);
  g_assert_cmpint (hyd_runner_get_state (runner), ==, HYD_RUNNER_STOPPED);
  hyd_runner_start (runner, NULL);
  g_assert_cmpint (hyd_runner_get_state (runner), ==, HYD_RUNNER_STOPPED);
  g_assert_null (hyd_runner_get_result (runner));
  g_object_unref (runner);
}

static void
test_stop_paused (void)
{
  HydRunner *runner = new_runner (0.4, 0.0);
  Consumer c;
  consumer_init (&c, runner);

  hyd_runner_pause (runner);
  start (&c);
  g_assert_cmpint (hyd_runner_get_state (runner), ==, HYD_RUNNER_PAUSED);
  spin (&c, 30);
  g_assert_false (c.finished);
  hyd_runner_stop (runner);
  run_to_end (&c);
  g_assert_cmpint (hyd_runner_get_state (runner), ==, HYD_RUNNER_STOPPED);
  g_assert_cmpuint (n_rows (&c), <, 81);
  assert_grid (&c, 0.4, FALSE);
  g_object_unref (runner);
  consumer_clear (&c);

  /* disposed while paused: the worker is woken and joined, no hang */
  runner = new_runner (0.4, 0.0);
  hyd_runner_start (runner, NULL);
  hyd_runner_pause (runner);
  g_usleep (20000);
  g_object_unref (runner);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
test_real_time (void)
{
  /* 0.3 s of simulated time at real time takes at least ~0.3 s of wall time
   * (a minimum only: a loaded machine may take longer) */
  HydRunner *runner = new_runner (0.3, 1.0);
  Consumer c;
  consumer_init (&c, runner);
  g_assert_cmpfloat (hyd_runner_get_real_time_factor (runner), ==, 1.0);
  start (&c);
  run_to_end (&c);
  g_assert_cmpint (hyd_runner_get_state (runner), ==, HYD_RUNNER_FINISHED);
  assert_grid (&c, 0.3, TRUE);
  g_assert_cmpint (c.end_us - c.start_us, >=, 250000);
  /* some batches, not one */
  g_assert_cmpuint (c.n_batches, >=, 3);
  HydRunnerProgress p;
  hyd_runner_get_progress (runner, &p);
  g_assert_cmpfloat (p.ratio, <, 1.1);
  g_object_unref (runner);
  consumer_clear (&c);

  /* slow motion: 20 ms at 0.1 take at least ~0.2 s; switched to as fast as
   * possible, the rest goes at once */
  runner = new_runner (0.04, 0.1);
  consumer_init (&c, runner);
  start (&c);
  spin (&c, 100);
  g_assert_false (c.finished);
  g_assert_cmpuint (n_rows (&c), <, 4);
  hyd_runner_set_real_time_factor (runner, 0.0);
  run_to_end (&c);
  g_assert_cmpint (hyd_runner_get_state (runner), ==, HYD_RUNNER_FINISHED);
  assert_grid (&c, 0.04, TRUE);
  g_assert_cmpint (c.end_us - c.start_us, <, 300000);
  g_object_unref (runner);
  consumer_clear (&c);
}

static void
raise_cracking (gpointer data)
{
  Consumer *c = data;
  GError *error = NULL;

  /* refused by the worker (the valve would gain states): a warning */
  g_assert_true (hyd_runner_set_param (c->runner, "RV1", "natural_frequency", 100.0, &error));
  g_assert_no_error (error);
  g_assert_true (hyd_runner_set_param (c->runner, "RV1", "cracking_pressure", 12e6, &error));
  g_assert_no_error (error);
}

static void
test_what_if (void)
{
  const double t_end = 0.5;
  HydRunner *runner = new_runner (t_end, 1.0);
  Consumer c;
  GError *error = NULL;
  consumer_init (&c, runner);
  c.act_at = 0.15;
  c.act = raise_cracking;

  /* refused at once */
  g_assert_false (hyd_runner_set_param (runner, "RV9", "cracking_pressure", 1e7, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE);
  g_clear_error (&error);
  g_assert_false (hyd_runner_set_param (runner, "RV1", "cracking", 1e7, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_UNKNOWN_PARAM);
  g_clear_error (&error);
  g_assert_false (hyd_runner_set_param (runner, "DCV1", "centre", 1, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_VALUE);
  g_clear_error (&error);
  g_assert_false (hyd_runner_set_param (runner, "RV1", "cracking_pressure", NAN, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_VALUE);
  g_clear_error (&error);

  start (&c);
  run_to_end (&c);
  g_assert_cmpint (hyd_runner_get_state (runner), ==, HYD_RUNNER_FINISHED);
  assert_grid (&c, t_end, TRUE);

  /* the log: one change, at a sample after it was asked for */
  GPtrArray *log = hyd_runner_get_change_log (runner);
  g_assert_cmpuint (log->len, ==, 1);
  g_assert_cmpuint (c.n_changes, ==, 1);
  const HydRunChange *ch = g_ptr_array_index (log, 0);
  g_assert_cmpstr (ch->component, ==, "RV1");
  g_assert_cmpstr (ch->param, ==, "cracking_pressure");
  g_assert_cmpfloat (ch->old_value, ==, 1e7);
  g_assert_cmpfloat (ch->new_value, ==, 12e6);
  g_assert_cmpfloat (ch->t, ==, c.change_t);
  g_assert_cmpfloat (ch->t, >, 0.15);
  g_assert_cmpfloat (ch->t, <, t_end);
  guint rc = (guint) round (ch->t / DT);
  g_assert_cmpfloat (ch->t, ==, (double) rc * DT);

  /* the refused one is a warning that says why */
  gboolean warned = FALSE;
  for (guint i = 0; i < c.warnings->len; i++)
    warned |= strstr (g_ptr_array_index (c.warnings, i), "natural_frequency") != NULL;
  g_assert_true (warned);
  g_assert_cmpuint (hyd_runner_get_warnings (runner)->len, >=, c.warnings->len);
  /* and the same warnings as diagnostics: the refused change names the
   * valve, the parameter and when (issue 10, item 4) */
  GPtrArray *diags = hyd_runner_get_diagnostics (runner);
  GPtrArray *texts = hyd_runner_get_warnings (runner);
  g_assert_cmpuint (diags->len, ==, texts->len);
  const HydDiagnostic *refused = NULL;
  for (guint i = 0; i < diags->len; i++)
    {
      const HydDiagnostic *d = g_ptr_array_index (diags, i);
      g_assert_cmpstr (d->message, ==, g_ptr_array_index (texts, i));
      if (d->code == HYD_DIAGNOSTIC_CHANGE_REFUSED)
        refused = d;
    }
  g_assert_nonnull (refused);
  g_assert_cmpstr (refused->component, ==, "RV1");
  g_assert_cmpstr (refused->parameter, ==, "natural_frequency");
  g_assert_cmpfloat (refused->time, >, 0.0);
  g_assert_cmpfloat (refused->time, <=, t_end);
  g_assert_null (hyd_runner_dup_failure (runner)); /* it finished */

  /* before the change (and at it: the state is continuous) the trajectory
   * is the unchanged run's; from it on the pressure settles higher */
  GArray *ref = run_sync (t_end, NULL, NULL);
  g_assert_cmpuint (ref->len, ==, c.rows->len);
  guint p_col = (guint) hyd_runner_find_column (runner, "DCV1.P.p");
  for (guint r = 0; r <= rc; r++)
    g_assert_cmpfloat (row_value (&c, r, p_col), ==,
                       g_array_index (ref, double, (gsize) r * c.n_cols + p_col));
  double p_ref = g_array_index (ref, double, (gsize) (n_rows (&c) - 1) * c.n_cols + p_col);
  double p_new = row_value (&c, n_rows (&c) - 1, p_col);
  g_assert_cmpfloat (p_ref, >, 10.5e6);
  g_assert_cmpfloat (p_ref, <, 11e6);
  g_assert_cmpfloat (p_new, >, 12.5e6);
  g_assert_cmpfloat (p_new, <, 13e6);
  g_array_unref (ref);

  /* replaying the log synchronously gives the same samples, and logs the
   * same change */
  GPtrArray *log2 = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_run_change_free);
  GArray *replay = run_sync (t_end, log, log2);
  g_assert_cmpuint (replay->len, ==, c.rows->len);
  guint n_differ = 0;
  for (guint i = 0; i < replay->len; i++)
    {
      double a = g_array_index (replay, double, i), b = g_array_index (c.rows, double, i);
      g_assert_cmpfloat (fabs (a - b), <=, 1e-12 * MAX (1.0, fabs (b)));
      n_differ += a != b;
    }
  g_test_message ("change at t = %g s: %.6g Pa then %.6g Pa at the end; replay: %u of %u values "
                  "not bit-identical", ch->t, p_ref, p_new, n_differ, replay->len);
  g_assert_cmpuint (log2->len, ==, 1);
  const HydRunChange *ch2 = g_ptr_array_index (log2, 0);
  g_assert_cmpfloat (ch2->t, ==, ch->t);
  g_assert_cmpfloat (ch2->old_value, ==, ch->old_value);
  g_assert_cmpfloat (ch2->new_value, ==, ch->new_value);
  g_array_unref (replay);
  g_ptr_array_unref (log2);

  g_object_unref (runner);
  consumer_clear (&c);
}

static void
test_override (void)
{
  g_autoptr (HydCircuit) circuit = load_example ();
  GError *error = NULL;
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  double old_value, new_value;

  /* command: a step profile on [−1, 1]; load_force steps at 1.5 and 2.5 */
  const GArray *bp = hyd_system_get_breakpoints (sys);
  g_assert_cmpuint (bp->len, ==, 6);
  g_assert_true (hyd_system_override_param (sys, 4.0, "DCV1", "command", 5.0,
                                            &old_value, &new_value, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (old_value, ==, 0.0);
  g_assert_cmpfloat (new_value, ==, 1.0);
  bp = hyd_system_get_breakpoints (sys);
  g_assert_cmpuint (bp->len, ==, 2);
  g_assert_cmpfloat (g_array_index (bp, double, 0), ==, 1.5);
  g_assert_cmpfloat (g_array_index (bp, double, 1), ==, 2.5);

  /* "> 0": clamped to the smallest positive number */
  g_assert_true (hyd_system_override_param (sys, 1.0, "RV1", "cracking_pressure", -3.0,
                                            &old_value, &new_value, &error));
  g_assert_cmpfloat (old_value, ==, 1e7);
  g_assert_cmpfloat (new_value, >, 0.0);
  g_assert_cmpfloat (new_value, <, 1e-300);

  /* a boundary pressure */
  g_assert_true (hyd_system_override_param (sys, 1.0, "T1", "pressure", 2e5,
                                            &old_value, &new_value, &error));
  g_assert_cmpfloat (old_value, ==, 0.0);
  g_assert_cmpfloat (new_value, ==, 2e5);

  /* a cross-parameter rule: the rod must be thinner than the piston */
  g_assert_false (hyd_system_override_param (sys, 1.0, "C1", "rod_diameter", 0.2,
                                             NULL, NULL, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  /* structure: a static relief valve cannot become a dynamic one */
  g_assert_false (hyd_system_override_param (sys, 1.0, "RV1", "natural_frequency", 100.0,
                                             NULL, NULL, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_VALUE);
  g_clear_error (&error);
  g_assert_false (hyd_system_check_override (sys, "DCV1", "centre", 0, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_VALUE);
  g_clear_error (&error);
  hyd_system_free (sys);
}

/* A written log replays with every kind of solver: changes at t ≤ 0 before
 * the run, others at the first sample at or after their time. */
static void
test_replay_solvers (void)
{
  const struct { const char *solver; double fixed_step; } cases[] = {
    { "rodas4", 0.0 }, { "radau5", 0.0 }, { "bdf", 0.0 }, { "auto", 0.0 },
    { "rodas4", 1e-3 },
  };
  GPtrArray *replay = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_run_change_free);
  g_ptr_array_add (replay, hyd_run_change_new (0.0, "PU1", "speed", NAN, 120.0));
  g_ptr_array_add (replay, hyd_run_change_new (0.1, "RV1", "cracking_pressure", NAN, 12e6));
  g_ptr_array_add (replay, hyd_run_change_new (0.1523, "RV1", "cracking_pressure", NAN, 8e6));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GPtrArray *log = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_run_change_free);
      GArray *rows = run_sync_with (0.3, cases[i].solver, cases[i].fixed_step, replay, log);
      Consumer c = { .rows = rows };
      g_autoptr (HydCircuit) circuit = load_example ();
      HydSystem *sys = hyd_system_compile (circuit, NULL);
      c.n_cols = hyd_system_get_n_variables (sys);
      guint p_col = (guint) hyd_system_find_variable (sys, "DCV1.P.p");
      hyd_system_free (sys);

      assert_grid (&c, 0.3, TRUE);
      g_assert_cmpuint (log->len, ==, 3);
      const HydRunChange *a = g_ptr_array_index (log, 0);
      const HydRunChange *b = g_ptr_array_index (log, 1);
      const HydRunChange *d = g_ptr_array_index (log, 2);
      g_assert_cmpfloat (a->t, ==, 0.0);
      g_assert_cmpfloat (a->old_value, ==, 157.07963267948966); /* the example's 1500 rpm */
      g_assert_cmpfloat (fabs (b->t - 0.1), <, 1e-15);
      g_assert_cmpfloat (b->old_value, ==, 1e7);
      g_assert_cmpfloat (d->t, ==, 31 * DT);
      g_assert_cmpfloat (d->old_value, ==, 12e6);
      /* settled on each cracking pressure in turn */
      double p1 = row_value (&c, 19, p_col), p2 = row_value (&c, 30, p_col);
      double p3 = row_value (&c, n_rows (&c) - 1, p_col);
      g_test_message ("%s (fixed step %g): %.6g, %.6g, %.6g Pa", cases[i].solver,
                      cases[i].fixed_step, p1, p2, p3);
      g_assert_cmpfloat (p1, >, 10.2e6);
      g_assert_cmpfloat (p1, <, 11e6);
      g_assert_cmpfloat (p2, >, 12.2e6);
      g_assert_cmpfloat (p2, <, 13e6);
      g_assert_cmpfloat (p3, >, 8.2e6);
      g_assert_cmpfloat (p3, <, 9e6);
      g_array_unref (rows);
      g_ptr_array_unref (log);
    }
  g_ptr_array_unref (replay);
}

/* A change is a reinitialisation of the run's one integrator
 * (hyd_ode_stepper_reinit), not a new solve: `auto` chooses its method
 * once, at the start, and reconsiders at a change as at a breakpoint; the
 * statistics sum over the whole run. */
static void
test_change_same_integrator (void)
{
  g_autoptr (HydCircuit) circuit = load_example ();
  HydSimOptions sim;
  GError *error = NULL;
  sim_options (circuit, 0.3, 0.0, &sim);
  g_free (sim.solver);
  sim.solver = g_strdup ("auto");
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  GPtrArray *replay = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_run_change_free);
  g_ptr_array_add (replay, hyd_run_change_new (0.1, "RV1", "cracking_pressure", NAN, 12e6));
  g_ptr_array_add (replay, hyd_run_change_new (0.1523, "RV1", "cracking_pressure", NAN, 8e6));
  GPtrArray *log = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_run_change_free);
  HydOdeStats progress = { 0 };
  HydRunSpec spec = { .sim = &sim, .replay = replay, .change_log = log,
                      .progress = &progress };
  HydOdeResult res = { 0 };

  g_assert_cmpint (hyd_run_execute (sys, &spec, &res, NULL), ==, HYD_ODE_SUCCESS);
  g_test_message ("auto with two changes: %s; %" G_GUINT64_FORMAT " steps",
                  res.note, res.stats.steps);
  g_assert_cmpuint (log->len, ==, 2);
  g_assert_nonnull (res.note);
  const char *first = strstr (res.note, "auto chose");
  g_assert_nonnull (first);
  g_assert_null (strstr (first + 1, "auto chose"));
  /* the statistics of the last sample are part of the run's */
  g_assert_cmpuint (progress.steps, >, 0);
  g_assert_cmpuint (progress.steps, <=, res.stats.steps);
  g_assert_cmpuint (progress.f_evals, <=, res.stats.f_evals);
  hyd_ode_result_clear (&res);
  g_ptr_array_unref (log);
  g_ptr_array_unref (replay);
  hyd_system_free (sys);
  hyd_sim_options_clear (&sim);
}

static void
count_call (HydRunner *runner, gpointer rows, guint n, gpointer data)
{
  GObject *consumer = data;
  guint *count = g_object_get_data (consumer, "count");
  (*count)++;
}

static void
destroy_consumer (gpointer data)
{
  GObject **consumer = g_object_get_data (G_OBJECT (((Consumer *) data)->runner), "consumer");
  g_clear_object (consumer);
}

static void
test_consumer_destroyed (void)
{
  HydRunner *runner = new_runner (0.3, 1.0);
  Consumer c;
  consumer_init (&c, runner);

  /* a consumer that goes away during the run, while the test's goes on */
  guint count = 0;
  GObject *consumer = g_object_new (G_TYPE_OBJECT, NULL);
  g_object_add_weak_pointer (consumer, (gpointer *) &consumer);
  g_object_set_data (consumer, "count", &count);
  g_signal_connect_object (runner, "samples", G_CALLBACK (count_call), consumer, 0);
  g_object_set_data (G_OBJECT (runner), "consumer", &consumer);
  c.act_at = 0.1;
  c.act = destroy_consumer;

  start (&c);
  run_to_end (&c);
  g_assert_null (consumer);
  g_assert_cmpuint (count, >=, 1);
  g_assert_cmpuint (count, <, c.n_batches);
  assert_grid (&c, 0.3, TRUE);
  g_object_unref (runner);
  consumer_clear (&c);
}

static void
fail_samples (HydRunner *runner, gpointer rows, guint n, gpointer data)
{
  g_assert_not_reached ();
}

static void
fail_finished (HydRunner *runner, gpointer data)
{
  g_assert_not_reached ();
}

static void
test_runner_destroyed (void)
{
  /* disposed at once: the worker is stopped and joined; what it posted is
   * dropped */
  for (int i = 0; i < 5; i++)
    {
      HydRunner *runner = new_runner (0.4, 0.0);
      g_signal_connect (runner, "samples", G_CALLBACK (fail_samples), NULL);
      g_signal_connect (runner, "finished", G_CALLBACK (fail_finished), NULL);
      hyd_runner_start (runner, NULL);
      g_usleep (i * 1000);
      g_object_unref (runner);
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }

  /* disposed mid-run, with batches on their way */
  HydRunner *runner = new_runner (0.3, 1.0);
  Consumer c;
  consumer_init (&c, runner);
  g_signal_connect_swapped (runner, "samples", G_CALLBACK (g_main_loop_quit), c.loop);
  start (&c);
  g_main_loop_run (c.loop);
  guint n = c.n_batches;
  g_assert_cmpuint (n, >=, 1);
  g_assert_false (c.finished);
  g_usleep (50000);
  g_object_unref (runner);
  spin (&c, 50);
  g_assert_cmpuint (c.n_batches, ==, n);
  g_assert_false (c.finished);
  consumer_clear (&c);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/runner/stream", test_stream);
  g_test_add_func ("/engine/runner/columns", test_columns);
  g_test_add_func ("/engine/runner/pause-resume", test_pause_resume);
  g_test_add_func ("/engine/runner/stop", test_stop);
  g_test_add_func ("/engine/runner/stop-paused", test_stop_paused);
  g_test_add_func ("/engine/runner/real-time", test_real_time);
  g_test_add_func ("/engine/runner/override", test_override);
  g_test_add_func ("/engine/runner/what-if", test_what_if);
  g_test_add_func ("/engine/runner/replay-solvers", test_replay_solvers);
  g_test_add_func ("/engine/runner/consumer-destroyed", test_consumer_destroyed);
  g_test_add_func ("/engine/runner/runner-destroyed", test_runner_destroyed);
  g_test_add_func ("/engine/runner/change-same-integrator", test_change_same_integrator);
  return g_test_run ();
}
