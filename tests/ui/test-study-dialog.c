/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-study-dialog.c — the "Parameter Study" window (ui/hyd-study-dialog.c)
 * on data/examples/throttle-vs-flow-control.bramah: the throttle's
 * diameter TH1.max_diameter from 0.8 to 1.6 mm in 5 points, the cylinder's
 * final position final:C1.x. The metrics equal hyd_study_worker_run's for
 * the same values bit for bit, and the saved CSV is byte for byte what
 * `bramah-cli sweep` writes for the same study; a Monte Carlo study's
 * histogram counts every ok run; a range outside the parameter's is
 * refused naming it; Cancel stops a long study promptly and the window
 * stays usable; closing the window, or its parent, mid-study neither
 * crashes nor leaves threads; the main loop stays responsive; the property
 * panel's "Vary in a Study…" names its parameter. With
 * BRAMAH_SCREENSHOT=FILE.png it writes the window after a 9-point study
 * (docs/images/parameter-study.png). Skips (77) without a display. */
#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "hyd-circuit.h"
#include "hyd-document.h"
#include "hyd-property-panel.h"
#include "hyd-study.h"
#include "hyd-study-dialog.h"
#include "ui-test-util.h"

static char *
example_path (void)
{
  return g_build_filename (g_getenv ("BRAMAH_EXAMPLES_DIR"), "throttle-vs-flow-control.bramah", NULL);
}

static HydDocument *
load_document (void)
{
  g_autofree char *path = example_path ();
  g_autoptr (GError) error = NULL;
  HydDocument *doc = hyd_document_new_from_file (path, &error);
  g_assert_no_error (error);
  return doc;
}

static gboolean
timeout_cb (gpointer data)
{
  g_error ("%s", (const char *) data);
  return G_SOURCE_REMOVE;
}

static void
finished_cb (HydStudyDialog *dialog, gboolean cancelled, gpointer user)
{
  int *state = user;
  *state = cancelled ? 2 : 1;
}

/* The longest the main loop went without running a 20 ms timer. */
typedef struct {
  gint64 last, worst;
} Beat;

static gboolean
beat_cb (gpointer user)
{
  Beat *b = user;
  gint64 now = g_get_monotonic_time ();
  if (b->last)
    b->worst = MAX (b->worst, now - b->last);
  b->last = now;
  return G_SOURCE_CONTINUE;
}

static int
run_to_end (HydStudyDialog *dialog, Beat *beat)
{
  int state = 0;
  gulong id = g_signal_connect (dialog, "finished", G_CALLBACK (finished_cb), &state);
  guint beat_id = beat ? g_timeout_add (20, beat_cb, beat) : 0;
  guint timeout = g_timeout_add_seconds (120, timeout_cb, (gpointer) "the study did not end in time");
  g_assert_true (hyd_study_dialog_start (dialog));
  g_assert_true (hyd_study_dialog_is_running (dialog));
  while (state == 0)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
  if (beat_id)
    g_source_remove (beat_id);
  g_signal_handler_disconnect (dialog, id);
  return state;
}

static HydStudyDialog *
grid_dialog (HydDocument *doc, const char *n)
{
  HydStudyDialog *dialog = hyd_study_dialog_new (NULL, doc);
  g_assert_true (hyd_study_dialog_add_parameter (dialog, "TH1", "max_diameter"));
  g_assert_true (hyd_study_dialog_set_range (dialog, "TH1", "max_diameter", "0.8", "1.6", n));
  g_assert_true (hyd_study_dialog_add_metric (dialog, "final:C1.x"));
  g_assert_true (hyd_study_dialog_set_trace_variable (dialog, "C1.x"));
  hyd_study_dialog_set_jobs (dialog, 2);
  return dialog;
}

/* What `bramah-cli sweep` writes for the same study. */
static char *
cli_sweep (const char *const *extra)
{
  g_autofree char *path = example_path ();
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) g_getenv ("BRAMAH_CLI"));
  g_ptr_array_add (argv, "sweep");
  g_ptr_array_add (argv, path);
  for (guint k = 0; extra[k]; k++)
    g_ptr_array_add (argv, (gpointer) extra[k]);
  g_ptr_array_add (argv, NULL);
  char *out = NULL;
  int status;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

static void
test_grid (void)
{
  g_autoptr (HydDocument) doc = load_document ();
  HydStudyDialog *dialog = grid_dialog (doc, "5");
  gtk_window_present (GTK_WINDOW (dialog));
  Beat beat = { 0 };
  g_assert_cmpint (run_to_end (dialog, &beat), ==, 1);
  g_test_message ("main loop: longest gap %.0f ms", beat.worst / 1e3);
  g_assert_cmpint (beat.worst, <, 2 * G_USEC_PER_SEC);
  g_assert_cmpuint (hyd_study_dialog_get_n_runs (dialog), ==, 5);
  g_assert_cmpuint (hyd_study_dialog_get_n_done (dialog), ==, 5);
  g_assert_cmpuint (hyd_study_dialog_get_n_failed (dialog), ==, 0);
  g_assert_cmpuint (hyd_study_dialog_get_n_traces (dialog), ==, 5);
  g_test_message ("%s", hyd_study_dialog_get_command (dialog));
  g_assert_nonnull (strstr (hyd_study_dialog_get_command (dialog), "--vary TH1.max_diameter=0.0008:0.0016:5"));

  /* the same study by hand: the worker's metrics, bit for bit */
  g_autoptr (GError) error = NULL;
  g_auto (HydSimOptions) sim = { 0 };
  const HydCircuit *circuit = hyd_document_get_circuit (doc);
  g_assert_true (hyd_circuit_get_sim_options (circuit, &sim, &error));
  g_autoptr (HydStudy) study = hyd_study_new (circuit, &sim, FALSE);
  g_assert_true (hyd_study_add_vary (study, "TH1.max_diameter=0.0008:0.0016:5", &error));
  g_assert_true (hyd_study_add_metric (study, "final:C1.x", &error));
  hyd_study_set_design (study, HYD_STUDY_DESIGN_GRID, 0, 0);
  g_assert_true (hyd_study_prepare (study, &error));
  g_autoptr (HydStudyWorker) w = hyd_study_worker_new (study);
  for (guint64 run = 0; run < 5; run++)
    {
      double want_v, want_m, got_v, got_m;
      const char *status;
      hyd_study_get_values (study, run, &want_v);
      g_autofree char *message = NULL;
      g_assert_cmpstr (hyd_study_worker_run (w, &want_v, &want_m, &message, NULL), ==, "ok");
      g_assert_true (hyd_study_dialog_get_run (dialog, run, &got_v, &got_m, &status));
      g_assert_cmpstr (status, ==, "ok");
      g_assert_cmpmem (&got_v, sizeof (double), &want_v, sizeof (double));
      g_assert_cmpmem (&got_m, sizeof (double), &want_m, sizeof (double));
    }

  /* Save CSV… = bramah-cli sweep, byte for byte */
  g_autofree char *dir = g_dir_make_tmp ("test-study-dialog-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *csv_path = g_build_filename (dir, "study.csv", NULL);
  g_assert_true (hyd_study_dialog_save_csv (dialog, csv_path, &error));
  g_autofree char *saved = NULL;
  g_assert_true (g_file_get_contents (csv_path, &saved, NULL, &error));
  const char *args[] = { "-q", "--jobs", "1", "--vary", "TH1.max_diameter=0.0008:0.0016:5", "--metric",
                         "final:C1.x", NULL };
  g_autofree char *cli = cli_sweep (args);
  g_assert_cmpstr (saved, ==, cli);
  g_unlink (csv_path);
  g_rmdir (dir);

  /* a bound outside the parameter's range is refused, naming it */
  g_assert_true (hyd_study_dialog_set_range (dialog, "TH1", "max_diameter", "-1", NULL, NULL));
  g_assert_false (hyd_study_dialog_start (dialog));
  g_test_message ("%s", hyd_study_dialog_get_message (dialog));
  g_assert_nonnull (strstr (hyd_study_dialog_get_message (dialog), "TH1"));
  g_assert_nonnull (strstr (hyd_study_dialog_get_message (dialog), "from"));
  g_assert_false (hyd_study_dialog_is_running (dialog));
  /* a parameter that is not there, or not a number */
  g_assert_false (hyd_study_dialog_add_parameter (dialog, "TH1", "nosuch"));
  g_assert_false (hyd_study_dialog_add_metric (dialog, "final"));
  g_assert_false (hyd_study_dialog_set_trace_variable (dialog, "C9.x"));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* The study runs the circuit as it was at Start: halving the pump's speed
 * mid-study changes nothing in its CSV (still `sweep`'s of the file), and
 * the next study sees the new speed. */
static void
test_edit_mid_study (void)
{
  g_autoptr (HydDocument) doc = load_document ();
  HydStudyDialog *dialog = grid_dialog (doc, "5");
  gtk_window_present (GTK_WINDOW (dialog));
  int state = 0;
  g_signal_connect (dialog, "finished", G_CALLBACK (finished_cb), &state);
  g_assert_true (hyd_study_dialog_start (dialog));
  g_autoptr (JsonNode) speed = json_node_new (JSON_NODE_VALUE);
  json_node_set_double (speed, 157.07963267948966 / 2);
  g_autoptr (GError) error = NULL;
  g_assert_true (hyd_document_set_param (doc, "PU1", "speed", speed, &error));
  guint timeout = g_timeout_add_seconds (120, timeout_cb, (gpointer) "the study did not end in time");
  while (state == 0)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
  g_assert_cmpint (state, ==, 1);
  const char *args[] = { "-q", "--vary", "TH1.max_diameter=0.0008:0.0016:5", "--metric", "final:C1.x", NULL };
  g_autofree char *cli = cli_sweep (args);
  g_autofree char *csv = hyd_study_dialog_get_csv (dialog);
  g_assert_cmpstr (csv, ==, cli);
  /* the next study runs the edited circuit: another CSV */
  state = 0;
  g_assert_true (hyd_study_dialog_start (dialog));
  while (state == 0)
    g_main_context_iteration (NULL, TRUE);
  g_autofree char *csv2 = hyd_study_dialog_get_csv (dialog);
  g_assert_cmpstr (csv2, !=, cli);
  g_signal_handlers_disconnect_by_func (dialog, finished_cb, &state);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* A time_to metric added as the metric row does, its threshold typed in
 * mm: the column `sweep --metric 'time_to:C1.x>=0.2'` writes, byte for
 * byte; a threshold that is no number is refused. With a time limit a run
 * (100 s, never reached) the rows are `sweep --timeout 100`'s. */
static void
test_time_to (void)
{
  g_autoptr (HydDocument) doc = load_document ();
  HydStudyDialog *dialog = grid_dialog (doc, "5");
  g_assert_false (hyd_study_dialog_add_metric_as_shown (dialog, "time_to>=", "C1.x", "two hundred"));
  g_assert_nonnull (strstr (hyd_study_dialog_get_message (dialog), "two hundred"));
  g_assert_true (hyd_study_dialog_add_metric_as_shown (dialog, "time_to>=", "C1.x", "200"));
  g_assert_true (hyd_study_dialog_add_metric_as_shown (dialog, "max", "C1.A.p", NULL));
  hyd_study_dialog_set_timeout (dialog, 100);
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_cmpint (run_to_end (dialog, NULL), ==, 1);
  g_assert_nonnull (strstr (hyd_study_dialog_get_command (dialog), " --timeout 100 "));
  const char *args[] = { "-q", "--timeout", "100", "--vary", "TH1.max_diameter=0.0008:0.0016:5", "--metric", "final:C1.x", "--metric",
                         "time_to:C1.x>=0.2", "--metric", "max:C1.A.p", NULL };
  g_autofree char *cli = cli_sweep (args);
  g_autofree char *csv = hyd_study_dialog_get_csv (dialog);
  g_assert_cmpstr (csv, ==, cli);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Monte Carlo: 30 normal samples; the histogram counts every ok run. */
static void
test_monte_carlo (void)
{
  g_autoptr (HydDocument) doc = load_document ();
  HydStudyDialog *dialog = grid_dialog (doc, "5");
  hyd_study_dialog_set_design (dialog, HYD_STUDY_DIALOG_NORMAL, 30, 3);
  g_assert_true (hyd_study_dialog_set_range (dialog, "TH1", "max_diameter", "1.2", "0.1", NULL));
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_cmpint (run_to_end (dialog, NULL), ==, 1);
  g_assert_cmpuint (hyd_study_dialog_get_n_done (dialog), ==, 30);
  g_assert_nonnull (strstr (hyd_study_dialog_get_command (dialog),
                            "--vary TH1.max_diameter=normal:0.0012:0.0001"));
  const guint *counts;
  double lo, width;
  guint bins = hyd_study_dialog_get_histogram (dialog, 0, &counts, &lo, &width);
  g_assert_cmpuint (bins, >=, 5);
  guint64 sum = 0;
  for (guint b = 0; b < bins; b++)
    sum += counts[b];
  g_assert_cmpuint (sum, ==, hyd_study_dialog_get_n_done (dialog) - hyd_study_dialog_get_n_failed (dialog));
  g_assert_cmpuint (sum, >, 0);
  /* the edges hold every ok value */
  for (guint64 run = 0; run < 30; run++)
    {
      double v, m;
      const char *status;
      g_assert_true (hyd_study_dialog_get_run (dialog, run, &v, &m, &status));
      if (strcmp (status, "ok") == 0)
        {
          g_assert_cmpfloat (m, >=, lo);
          g_assert_cmpfloat (m, <=, lo + width * bins * (1 + 1e-12));
        }
    }
  hyd_study_dialog_show_page (dialog, 1);
  for (int k = 0; k < 5; k++)
    g_main_context_iteration (NULL, FALSE);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* The threads of this process named by the study (g_thread_new names
 * them: the pool's "hyd-study", the traces' "hyd-study-trace", 15 characters at most). */
static guint
count_study_threads (void)
{
  guint n = 0;
  g_autoptr (GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
  const char *tid;
  while (dir && (tid = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc/self/task", tid, "comm", NULL);
      g_autofree char *comm = NULL;
      if (g_file_get_contents (path, &comm, NULL, NULL) && g_str_has_prefix (comm, "hyd-study"))
        n++;
    }
  return n;
}

/* Monte Carlo around a tiny diameter with a wide spread: the negative
 * samples are failed runs (invalid-value) with their message, listed on
 * the "Failed Runs" page; the study goes on and every run has its row. */
static void
test_failed_runs (void)
{
  g_autoptr (HydDocument) doc = load_document ();
  HydStudyDialog *dialog = grid_dialog (doc, "5");
  hyd_study_dialog_set_design (dialog, HYD_STUDY_DIALOG_NORMAL, 20, 1);
  g_assert_true (hyd_study_dialog_set_range (dialog, "TH1", "max_diameter", "0.05", "0.5", NULL));
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_cmpint (run_to_end (dialog, NULL), ==, 1);
  g_assert_cmpuint (hyd_study_dialog_get_n_done (dialog), ==, 20);
  guint64 failed = hyd_study_dialog_get_n_failed (dialog);
  g_test_message ("%" G_GUINT64_FORMAT " of 20 failed", failed);
  g_assert_cmpuint (failed, >=, 1);
  g_assert_cmpuint (failed, <, 20);
  const char *text = hyd_study_dialog_get_failed_text (dialog);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "invalid-value"));
  g_assert_nonnull (strstr (text, "max_diameter"));
  guint lines = 0;
  for (const char *p = text; (p = strchr (p, '\n')) != NULL; p++)
    lines++;
  g_assert_cmpuint (lines, ==, failed);
  g_autofree char *csv = hyd_study_dialog_get_csv (dialog);
  guint rows = 0;
  for (const char *p = csv; (p = strchr (p, '\n')) != NULL; p++)
    rows++;
  g_assert_cmpuint (rows, ==, 21);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Start with a parameter but no metric added: the study takes the metric
 * the pickers show, as a person who did not press "Add Metric" expects,
 * instead of asking for one (found by clicking through the window). */
static void
test_metric_as_shown (void)
{
  g_autoptr (HydDocument) doc = load_document ();
  HydStudyDialog *dialog = hyd_study_dialog_new (NULL, doc);
  g_assert_true (hyd_study_dialog_add_parameter (dialog, "TH1", "max_diameter"));
  g_assert_true (hyd_study_dialog_set_range (dialog, "TH1", "max_diameter", "0.8", "1.6", "3"));
  hyd_study_dialog_set_jobs (dialog, 2);
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_cmpint (run_to_end (dialog, NULL), ==, 1);
  g_assert_cmpuint (hyd_study_dialog_get_n_done (dialog), ==, 3);
  g_assert_nonnull (strstr (hyd_study_dialog_get_command (dialog), "--metric "));
  g_autofree char *csv = hyd_study_dialog_get_csv (dialog);
  g_assert_true (g_str_has_prefix (csv, "run,TH1.max_diameter,status,"));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
wait_done (HydStudyDialog *dialog, guint64 n)
{
  guint timeout = g_timeout_add_seconds (120, timeout_cb, (gpointer) "no run ended in time");
  while (hyd_study_dialog_get_n_done (dialog) < n)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
}

/* Cancel a study of 3000 runs after a few: it ends within 2 s with the
 * rows it has, and the window runs another study. */
static void
test_cancel (void)
{
  g_autoptr (HydDocument) doc = load_document ();
  HydStudyDialog *dialog = grid_dialog (doc, "3000");
  gtk_window_present (GTK_WINDOW (dialog));
  int state = 0;
  g_signal_connect (dialog, "finished", G_CALLBACK (finished_cb), &state);
  g_assert_true (hyd_study_dialog_start (dialog));
  wait_done (dialog, 3);
  gint64 t0 = g_get_monotonic_time ();
  hyd_study_dialog_cancel (dialog);
  guint timeout = g_timeout_add_seconds (60, timeout_cb, (gpointer) "cancel did not end the study");
  while (state == 0)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
  double secs = (g_get_monotonic_time () - t0) / 1e6;
  g_test_message ("cancelled after %" G_GUINT64_FORMAT " runs in %.3f s", hyd_study_dialog_get_n_done (dialog),
                  secs);
  g_assert_cmpint (state, ==, 2);
  g_assert_cmpfloat (secs, <, 2.0);
  g_assert_cmpuint (count_study_threads (), ==, 0);
  g_assert_false (hyd_study_dialog_is_running (dialog));
  g_assert_cmpuint (hyd_study_dialog_get_n_done (dialog), <, 3000);
  /* usable again */
  g_assert_true (hyd_study_dialog_set_range (dialog, "TH1", "max_diameter", NULL, NULL, "5"));
  g_signal_handlers_disconnect_by_func (dialog, finished_cb, &state);
  g_assert_cmpint (run_to_end (dialog, NULL), ==, 1);
  g_assert_cmpuint (hyd_study_dialog_get_n_done (dialog), ==, 5);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Close the window mid-study, then a parent window with its study window
 * mid-study: both are finalized (their threads joined in dispose). */
static void
test_close_mid_study (void)
{
  g_autoptr (HydDocument) doc = load_document ();
  HydStudyDialog *dialog = grid_dialog (doc, "3000");
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_true (hyd_study_dialog_start (dialog));
  wait_done (dialog, 2);
  g_assert_cmpuint (count_study_threads (), ==, 3);   /* 2 jobs and the traces' */
  gpointer weak = dialog;
  g_object_add_weak_pointer (G_OBJECT (dialog), &weak);
  gtk_window_destroy (GTK_WINDOW (dialog));
  for (int k = 0; k < 10; k++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_null (weak);
  g_assert_cmpuint (count_study_threads (), ==, 0);

  GtkWidget *parent = gtk_window_new ();
  gtk_window_present (GTK_WINDOW (parent));
  dialog = hyd_study_dialog_get_for (GTK_WINDOW (parent), doc);
  g_assert_true (hyd_study_dialog_get_for (GTK_WINDOW (parent), doc) == dialog);
  g_assert_true (hyd_study_dialog_add_parameter (dialog, "TH1", "max_diameter"));
  g_assert_true (hyd_study_dialog_set_range (dialog, "TH1", "max_diameter", NULL, NULL, "3000"));
  g_assert_true (hyd_study_dialog_add_metric (dialog, "max:C1.A.p"));
  g_assert_true (hyd_study_dialog_set_trace_variable (dialog, "C1.x"));
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_true (hyd_study_dialog_start (dialog));
  wait_done (dialog, 2);
  weak = dialog;
  g_object_add_weak_pointer (G_OBJECT (dialog), &weak);
  g_assert_cmpuint (count_study_threads (), >, 0);
  gtk_window_destroy (GTK_WINDOW (parent));
  for (int k = 0; k < 10; k++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_null (weak);
  g_assert_cmpuint (count_study_threads (), ==, 0);
}

static void
study_requested_cb (HydPropertyPanel *panel, const char *component, const char *param, gpointer user)
{
  char **got = user;
  *got = g_strdup_printf ("%s.%s", component, param);
}

/* The property panel's "Vary in a Study…" (its action) names the shown
 * component and the parameter; the window's handler adds that row. */
static void
test_property_panel_hook (void)
{
  g_autoptr (HydDocument) doc = load_document ();
  GtkWidget *win = gtk_window_new ();
  GtkWidget *panel = hyd_property_panel_new ();
  gtk_window_set_child (GTK_WINDOW (win), panel);
  hyd_property_panel_set_document (HYD_PROPERTY_PANEL (panel), doc);
  const char *ids[] = { "TH1", NULL };
  hyd_property_panel_set_selection (HYD_PROPERTY_PANEL (panel), ids);
  gtk_window_present (GTK_WINDOW (win));
  g_autofree char *got = NULL;
  g_signal_connect (panel, "study-requested", G_CALLBACK (study_requested_cb), &got);
  GtkWidget *entry = hyd_property_panel_get_editor (HYD_PROPERTY_PANEL (panel), "max_diameter");
  g_assert_true (GTK_IS_ENTRY (entry));
  g_assert_nonnull (gtk_entry_get_extra_menu (GTK_ENTRY (entry)));
  g_assert_true (gtk_widget_activate_action (entry, "panel.vary-in-study", "s", "max_diameter"));
  g_assert_cmpstr (got, ==, "TH1.max_diameter");
  gtk_window_destroy (GTK_WINDOW (win));
}

static GtkWidget *
find_descendant (GtkWidget *w, gboolean (*match) (GtkWidget *, gpointer), gpointer data)
{
  if (match (w, data))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_descendant (c, match, data);
      if (found)
        return found;
    }
  return NULL;
}

static gboolean
is_param_label (GtkWidget *w, gpointer param)
{
  return GTK_IS_LABEL (w) && g_strcmp0 (g_object_get_data (G_OBJECT (w), "hyd-param"), param) == 0;
}

static gboolean
is_model_button (GtkWidget *w, gpointer data)
{
  return strcmp (G_OBJECT_TYPE_NAME (w), "GtkModelButton") == 0;
}

/* As a person does it: right-click the parameter's name, click "Vary in a
 * Study…" in the menu that opens (the menu closes before its item acts:
 * the action must still be found). */
static void
test_property_panel_menu (void)
{
  g_autoptr (HydDocument) doc = load_document ();
  GtkWidget *win = gtk_window_new ();
  GtkWidget *panel = hyd_property_panel_new ();
  gtk_window_set_child (GTK_WINDOW (win), panel);
  hyd_property_panel_set_document (HYD_PROPERTY_PANEL (panel), doc);
  const char *ids[] = { "TH1", NULL };
  hyd_property_panel_set_selection (HYD_PROPERTY_PANEL (panel), ids);
  gtk_window_present (GTK_WINDOW (win));
  for (int k = 0; k < 20; k++)
    g_main_context_iteration (NULL, FALSE);
  g_autofree char *got = NULL;
  g_signal_connect (panel, "study-requested", G_CALLBACK (study_requested_cb), &got);
  GtkWidget *label = find_descendant (panel, is_param_label, (gpointer) "max_diameter");
  g_assert_nonnull (label);
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (label);
  GtkGesture *click = NULL;
  for (guint k = 0; k < g_list_model_get_n_items (controllers); k++)
    {
      g_autoptr (GObject) c = g_list_model_get_item (controllers, k);
      if (GTK_IS_GESTURE_CLICK (c))
        click = GTK_GESTURE (c);
    }
  g_assert_nonnull (click);
  g_signal_emit_by_name (click, "pressed", 1, 4.0, 4.0);
  GtkWidget *popover = NULL;
  for (GtkWidget *c = gtk_widget_get_first_child (label); c; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_POPOVER_MENU (c))
      popover = c;
  g_assert_nonnull (popover);
  for (int k = 0; k < 20; k++)
    g_main_context_iteration (NULL, FALSE);
  GtkWidget *item = find_descendant (popover, is_model_button, NULL);
  g_assert_nonnull (item);
  g_signal_emit_by_name (item, "clicked");
  for (int k = 0; k < 20; k++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpstr (got, ==, "TH1.max_diameter");
  gtk_window_destroy (GTK_WINDOW (win));
}

static void
screenshot (void)
{
  g_autoptr (HydDocument) doc = load_document ();
  HydStudyDialog *dialog = grid_dialog (doc, "9");
  g_assert_true (hyd_study_dialog_add_metric (dialog, "max:C1.A.p"));
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_cmpint (run_to_end (dialog, NULL), ==, 1);
  hyd_test_save_screenshot (GTK_WIDGET (dialog), g_getenv ("BRAMAH_SCREENSHOT"));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    return 77;
  const char *shot = g_getenv ("BRAMAH_SCREENSHOT");
  if (shot && *shot)
    {
      screenshot ();
      return 0;
    }
  g_test_add_func ("/ui/study-dialog/grid", test_grid);
  g_test_add_func ("/ui/study-dialog/edit-mid-study", test_edit_mid_study);
  g_test_add_func ("/ui/study-dialog/time-to", test_time_to);
  g_test_add_func ("/ui/study-dialog/monte-carlo", test_monte_carlo);
  g_test_add_func ("/ui/study-dialog/failed-runs", test_failed_runs);
  g_test_add_func ("/ui/study-dialog/metric-as-shown", test_metric_as_shown);
  g_test_add_func ("/ui/study-dialog/cancel", test_cancel);
  g_test_add_func ("/ui/study-dialog/close-mid-study", test_close_mid_study);
  g_test_add_func ("/ui/study-dialog/property-panel-hook", test_property_panel_hook);
  g_test_add_func ("/ui/study-dialog/property-panel-menu", test_property_panel_menu);
  return g_test_run ();
}
