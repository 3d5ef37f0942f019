/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-solver-lab.c — the "Solver Lab" window (ui/hyd-solver-lab.c) on
 * motor-relief:
 *  - rodas4 and bdf at rtol 1e-4 and 1e-6 give four rows in that order,
 *    each with a finite error, smaller at the tighter tolerance; the errors
 *    are those of the engine's own work-precision runs (hyd-workprec.h);
 *  - selecting rodas4 at 1e-4 lights on the schematic the components whose
 *    states limited its steps, the hottest at level 1 — the component
 *    computed here from the engine's step log of the same run;
 *  - Cancel during a long run (backward_euler at 1e-8, after the 1e-7 run)
 *    stops it: one row, "cancelled";
 *  - a circuit that does not compile is reported, naming the component;
 *  - closing the window during a run neither crashes nor leaks the window
 *    (it is finalised once the worker has stopped), and clears the heat map;
 *  - Simulation → Solver Lab… (win.solver-lab) opens it over the window.
 * With BRAMAH_SCREENSHOT=FILE.png it writes the lab window after its runs
 * (docs/images/solver-lab.png), with BRAMAH_SCREENSHOT_WINDOW=FILE.png the
 * main window with the heat map (docs/images/solver-lab-heatmap.png).
 * Skips (77) without a display. */
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "hyd-canvas.h"
#include "hyd-document.h"
#include "hyd-linearize.h"
#include "hyd-solver-lab.h"
#include "hyd-window.h"
#include "hyd-workprec.h"
#include "ui-test-util.h"

static gboolean
timeout_cb (gpointer data)
{
  g_error ("%s did not come in time", (const char *) data);
  return G_SOURCE_REMOVE;
}

static void
ready_cb (HydSolverLab *lab, gpointer data)
{
  *(gboolean *) data = TRUE;
}

/* Run with the choice made, until "ready". */
static void
run_and_wait (HydSolverLab *lab)
{
  gboolean ready = FALSE;
  gulong id = g_signal_connect (lab, "ready", G_CALLBACK (ready_cb), &ready);
  hyd_solver_lab_run (lab);
  g_assert_true (hyd_solver_lab_get_running (lab));
  guint timeout = g_timeout_add_seconds (120, timeout_cb, (gpointer) "the runs");
  while (!ready)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
  g_signal_handler_disconnect (lab, id);
  g_assert_false (hyd_solver_lab_get_running (lab));
}

static char *
example_path (void)
{
  return g_build_filename (g_getenv ("BRAMAH_EXAMPLES_DIR"), "motor-relief.bramah", NULL);
}

/* The engine's own run of solver at rtol: its error and the component whose
 * states limited the most accepted steps (a node's pressure counting for
 * every component on the node). */
static char *
engine_hottest (const HydCircuit *circuit, const char *solver, double rtol, double *error_out)
{
  g_autoptr (GError) error = NULL;
  g_auto (HydSimOptions) sim = { 0 };
  g_assert_true (hyd_circuit_get_sim_options (circuit, &sim, &error));
  g_autoptr (HydSystem) sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  HydWorkPrec wp;
  g_assert_true (hyd_workprec_init (&wp, sys, &sim, "motor-relief", 1000000, &error));
  g_assert_true (hyd_workprec_reference (&wp, "motor-relief", NULL, CLOCK_MONOTONIC, &error));
  HydWorkPrecSamples s;
  hyd_workprec_samples_init (&wp, &s);
  g_autoptr (HydOdeStepLog) log = hyd_ode_step_log_new (wp.n);
  g_auto (HydOdeResult) res = { 0 };
  double seconds;
  g_assert_cmpint (hyd_workprec_solve (&wp, solver, rtol, NULL, FALSE, NULL, log, CLOCK_MONOTONIC, &s,
                                       &res, &seconds), ==, HYD_ODE_SUCCESS);
  *error_out = hyd_workprec_error (&wp, &s);
  const guint64 *limited = hyd_ode_step_log_get_limited (log);
  g_autoptr (GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; i < wp.n; i++)
    {
      g_autoptr (GPtrArray) comps = hyd_system_state_components (sys, i);
      for (guint c = 0; c < comps->len; c++)
        {
          guint64 *v = g_hash_table_lookup (counts, g_ptr_array_index (comps, c));
          if (v == NULL)
            {
              v = g_new0 (guint64, 1);
              g_hash_table_insert (counts, g_strdup (g_ptr_array_index (comps, c)), v);
            }
          *v += limited[i];
        }
    }
  char *best = NULL;
  guint64 best_n = 0;
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, counts);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (*(guint64 *) value > best_n)
      {
        best_n = *(guint64 *) value;
        best = key;
      }
  g_assert_nonnull (best);
  g_test_message ("engine: %s at %g, error %g, hottest %s (%" G_GUINT64_FORMAT " steps)", solver, rtol,
                  *error_out, best, best_n);
  char *out = g_strdup (best);
  g_free (s.buf);
  hyd_workprec_clear (&wp);
  return out;
}

static void
test_runs (void)
{
  g_autofree char *path = example_path ();
  g_autoptr (GError) error = NULL;
  g_autoptr (HydDocument) doc = hyd_document_new_from_file (path, &error);
  g_assert_no_error (error);
  GtkWidget *canvas = hyd_canvas_new ();
  g_object_ref_sink (canvas);
  hyd_canvas_set_document (HYD_CANVAS (canvas), doc);

  HydSolverLab *lab = hyd_solver_lab_new (NULL, hyd_document_get_circuit (doc), HYD_CANVAS (canvas));
  gtk_window_present (GTK_WINDOW (lab));
  const char *solvers[] = { "rodas4", "bdf", NULL };
  const double rtols[] = { 1e-4, 1e-6 };
  hyd_solver_lab_set_choice (lab, solvers, rtols, 2);
  run_and_wait (lab);
  g_assert_null (hyd_solver_lab_get_error (lab));
  g_assert_false (hyd_solver_lab_get_cancelled (lab));
  g_assert_cmpuint (hyd_solver_lab_get_n_runs (lab), ==, 4);
  for (guint k = 0; k < 4; k++)
    {
      g_assert_cmpstr (hyd_solver_lab_get_run_solver (lab, k), ==, solvers[k / 2]);
      g_assert_cmpfloat (hyd_solver_lab_get_run_rtol (lab, k), ==, rtols[k % 2]);
      g_assert_true (isfinite (hyd_solver_lab_get_run_error (lab, k)));
      g_assert_cmpfloat (hyd_solver_lab_get_run_error (lab, k), >, 0);
    }
  g_assert_cmpfloat (hyd_solver_lab_get_run_error (lab, 1), <, hyd_solver_lab_get_run_error (lab, 0));
  g_assert_cmpfloat (hyd_solver_lab_get_run_error (lab, 3), <, hyd_solver_lab_get_run_error (lab, 2));

  /* the heat map of rodas4 at 1e-4 against the engine's step log */
  double engine_error;
  g_autofree char *hottest = engine_hottest (hyd_document_get_circuit (doc), "rodas4", 1e-4, &engine_error);
  g_assert_cmpfloat (hyd_solver_lab_get_run_error (lab, 0), ==, engine_error);
  hyd_solver_lab_select_run (lab, 0);
  g_auto (GStrv) heat = hyd_solver_lab_dup_heat_components (lab);
  g_assert_nonnull (heat);
  g_assert_cmpstr (heat[0], ==, hottest);
  g_assert_cmpfloat (hyd_canvas_get_highlight_level (HYD_CANVAS (canvas), hottest), ==, 1.0);
  g_auto (GStrv) lit = hyd_canvas_dup_highlight (HYD_CANVAS (canvas));
  g_assert_nonnull (lit);
  g_assert_cmpuint (g_strv_length (lit), ==, g_strv_length (heat));
  for (guint k = 1; heat[k]; k++)
    {
      double l = hyd_canvas_get_highlight_level (HYD_CANVAS (canvas), heat[k]);
      g_assert_cmpfloat (l, >=, 0.0);
      g_assert_cmpfloat (l, <=, hyd_canvas_get_highlight_level (HYD_CANVAS (canvas), heat[k - 1]));
    }

  const char *shot = g_getenv ("BRAMAH_SCREENSHOT");
  if (shot && *shot)
    hyd_test_save_screenshot (GTK_WIDGET (lab), shot);

  /* another row: another map */
  hyd_solver_lab_select_run (lab, 2);
  g_assert_nonnull (hyd_canvas_dup_highlight (HYD_CANVAS (canvas)));
  /* another window's highlight since (the Stiffness window's hover) is not
   * the lab's to clear */
  const char *other[] = { "PU1", NULL };
  hyd_canvas_set_highlight (HYD_CANVAS (canvas), other);
  hyd_solver_lab_select_run (lab, 2);
  g_assert_cmpfloat (hyd_canvas_get_highlight_level (HYD_CANVAS (canvas), heat[0]), >=, 0.0);
  hyd_canvas_set_highlight (HYD_CANVAS (canvas), other);
  g_assert_cmpfloat (hyd_canvas_get_highlight_level (HYD_CANVAS (canvas), "PU1"), ==, -1.0);

  /* Cancel during a long run: the first one stays */
  const char *slow[] = { "backward_euler", NULL };
  const double slow_rtols[] = { 1e-7, 1e-8 };
  hyd_solver_lab_set_choice (lab, slow, slow_rtols, 2);
  gboolean ready = FALSE;
  g_signal_connect (lab, "ready", G_CALLBACK (ready_cb), &ready);
  hyd_solver_lab_run (lab);
  g_auto (GStrv) kept = hyd_canvas_dup_highlight (HYD_CANVAS (canvas));
  g_assert_nonnull (kept);
  g_assert_cmpstrv (kept, other);
  hyd_canvas_set_highlight (HYD_CANVAS (canvas), NULL);
  guint timeout = g_timeout_add_seconds (120, timeout_cb, (gpointer) "the first slow run");
  while (hyd_solver_lab_get_n_runs (lab) < 1 && !ready)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
  g_assert_false (ready);
  hyd_solver_lab_cancel (lab);
  timeout = g_timeout_add_seconds (60, timeout_cb, (gpointer) "the cancel");
  while (!ready)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
  g_assert_true (hyd_solver_lab_get_cancelled (lab));
  g_assert_null (hyd_solver_lab_get_error (lab));
  g_assert_cmpuint (hyd_solver_lab_get_n_runs (lab), ==, 1);
  g_assert_cmpstr (hyd_solver_lab_get_run_solver (lab, 0), ==, "backward_euler");
  g_assert_cmpfloat (hyd_solver_lab_get_run_rtol (lab, 0), ==, 1e-7);
  /* (its h(t) of 385 000 steps, drawn reduced to the pixel columns) */
  const char *shot_long = g_getenv ("BRAMAH_SCREENSHOT_LONG");
  if (shot_long && *shot_long)
    hyd_test_save_screenshot (GTK_WIDGET (lab), shot_long);

  /* the window going clears its heat map */
  g_assert_nonnull (hyd_canvas_dup_highlight (HYD_CANVAS (canvas)));
  gtk_window_destroy (GTK_WINDOW (lab));
  g_assert_null (hyd_canvas_dup_highlight (HYD_CANVAS (canvas)));
  g_object_unref (canvas);
}

static void
finalized_cb (gpointer data, GObject *where)
{
  *(gboolean *) data = TRUE;
}

/* Closed while a run is in progress: no crash, the window goes once the
 * worker has stopped. */
static void
test_close_while_running (void)
{
  g_autofree char *path = example_path ();
  g_autoptr (GError) error = NULL;
  g_autoptr (HydDocument) doc = hyd_document_new_from_file (path, &error);
  g_assert_no_error (error);
  GtkWidget *canvas = hyd_canvas_new ();
  g_object_ref_sink (canvas);
  hyd_canvas_set_document (HYD_CANVAS (canvas), doc);
  HydSolverLab *lab = hyd_solver_lab_new (NULL, hyd_document_get_circuit (doc), HYD_CANVAS (canvas));
  gtk_window_present (GTK_WINDOW (lab));
  const char *slow[] = { "backward_euler", NULL };
  const double rtols[] = { 1e-8 };
  hyd_solver_lab_set_choice (lab, slow, rtols, 1);
  gboolean finalized = FALSE;
  g_object_weak_ref (G_OBJECT (lab), finalized_cb, &finalized);
  hyd_solver_lab_run (lab);
  for (int k = 0; k < 30; k++)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (10000);
    }
  g_assert_true (hyd_solver_lab_get_running (lab));
  gtk_window_destroy (GTK_WINDOW (lab));
  guint timeout = g_timeout_add_seconds (60, timeout_cb, (gpointer) "the window's end");
  while (!finalized)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
  g_assert_null (hyd_canvas_dup_highlight (HYD_CANVAS (canvas)));
  g_object_unref (canvas);
}

/* A circuit that does not compile: the window says why, no rows. */
static void
test_error (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (
    "{\"format\": \"bramah-circuit\", \"version\": 2, \"components\": ["
    "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"volume\": 1e-3}}], \"connections\": []}",
    -1, NULL, &error);
  g_assert_no_error (error);
  HydSolverLab *lab = hyd_solver_lab_new (NULL, circuit, NULL);
  const char *solvers[] = { "rodas4", NULL };
  const double rtols[] = { 1e-4 };
  hyd_solver_lab_set_choice (lab, solvers, rtols, 1);
  run_and_wait (lab);
  g_assert_nonnull (hyd_solver_lab_get_error (lab));
  g_test_message ("%s", hyd_solver_lab_get_error (lab));
  g_assert_nonnull (strstr (hyd_solver_lab_get_error (lab), "V1"));
  g_assert_cmpuint (hyd_solver_lab_get_n_runs (lab), ==, 0);
  gtk_window_destroy (GTK_WINDOW (lab));
}


/* The menu item (win.solver-lab): over the window, the heat map on its
 * schematic. */
static void
test_window_action (void)
{
  HydWindow *window = hyd_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 700);
  gtk_window_present (GTK_WINDOW (window));
  g_autofree char *path = example_path ();
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_assert_true (hyd_window_open_file (window, file));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.solver-lab", NULL));
  HydSolverLab *lab = (HydSolverLab *) hyd_test_find_toplevel (HYD_TYPE_SOLVER_LAB);
  g_assert_nonnull (lab);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (lab)) == GTK_WINDOW (window));
  const char *solvers[] = { "rodas4", NULL };
  const double rtols[] = { 1e-5 };
  hyd_solver_lab_set_choice (lab, solvers, rtols, 1);
  run_and_wait (lab);
  g_assert_cmpuint (hyd_solver_lab_get_n_runs (lab), ==, 1);
  /* the first run is shown at once */
  g_auto (GStrv) heat = hyd_solver_lab_dup_heat_components (lab);
  g_assert_nonnull (heat);
  GtkWidget *canvas = hyd_test_find_descendant (GTK_WIDGET (window), HYD_TYPE_CANVAS);
  g_assert_nonnull (canvas);
  g_assert_cmpfloat (hyd_canvas_get_highlight_level (HYD_CANVAS (canvas), heat[0]), ==, 1.0);
  const char *shot = g_getenv ("BRAMAH_SCREENSHOT_WINDOW");
  if (shot && *shot)
    hyd_test_save_screenshot (GTK_WIDGET (window), shot);
  gtk_window_destroy (GTK_WINDOW (lab));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    return 77;
  g_test_add_func ("/ui/solver-lab/runs", test_runs);
  g_test_add_func ("/ui/solver-lab/close-while-running", test_close_while_running);
  g_test_add_func ("/ui/solver-lab/error", test_error);
  g_test_add_func ("/ui/solver-lab/window-action", test_window_action);
  return g_test_run ();
}
