/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-state-diagram-pane.c — the state-diagram page of the window: it
 * follows a run live (its samples grow with the store's while the run
 * streams), offers every cylinder and discrete state as a row, shows the
 * default rows (the cylinder; no electrical control here) until a row is
 * chosen, draws each switching state's bars at the samples where the
 * store's column changes, and exports CSV, SVG and PDF through the same
 * renderer as bramah-cli. The circuit is tests/cli/data/state-diagram.bramah
 * (a lever-valve cylinder, a position sensor on its rod read by a
 * hysteresis block, a step at 1 s). Skips (77) without a display. */
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "hyd-simulation.h"
#include "hyd-state-diagram-pane.h"

typedef struct {
  HydStateDiagramPane *pane;
  HydSimulation *sim;
  guint finished;
  guint live;          /* samples signals at which the diagram held every store row */
  guint partial;       /* ... and the run was not over yet */
} Watch;

static void
samples_cb (HydSimulation *sim, Watch *w)
{
  HydTraceStore *store = hyd_simulation_get_store (sim);
  const HydStateDiagram *d = hyd_state_diagram_pane_get_diagram (w->pane);
  if (d == NULL || store == NULL)
    return;
  guint n = hyd_trace_store_get_n_rows (store);
  if (hyd_state_diagram_get_n_samples (d) == n)
    w->live++;
  double t_end = hyd_trace_store_get_t_end (store);
  if (n > 0 && hyd_trace_store_get_column (store, 0)[n - 1] < t_end - 0.5)
    w->partial++;
}

static void
finished_cb (HydSimulation *sim, Watch *w)
{
  w->finished++;
}

static gboolean
timeout_cb (gpointer data)
{
  g_error ("the run did not finish in time");
  return G_SOURCE_REMOVE;
}

static char *
read_text (const char *path)
{
  char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  return text;
}

static void
test_live_rows_export (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("BRAMAH_TEST_CIRCUIT_DIR"), "state-diagram.bramah", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_file (path, &error);
  g_assert_no_error (error);

  GtkWidget *window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 300);
  HydStateDiagramPane *pane = HYD_STATE_DIAGRAM_PANE (hyd_state_diagram_pane_new ());
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (pane));
  gtk_window_present (GTK_WINDOW (window));

  g_autoptr (HydSimulation) sim = hyd_simulation_new ();
  /* four times real time: 7.5 s of run in about 2 s, in many batches */
  hyd_simulation_set_real_time_factor (sim, 4.0);
  Watch w = { pane, sim, 0, 0, 0 };
  hyd_state_diagram_pane_set_simulation (pane, sim);
  g_assert_null (hyd_state_diagram_pane_get_diagram (pane));
  g_signal_connect (sim, "samples", G_CALLBACK (samples_cb), &w);
  g_signal_connect (sim, "finished", G_CALLBACK (finished_cb), &w);
  g_assert_true (hyd_simulation_start (sim, circuit, NULL, &error));
  g_assert_no_error (error);

  /* the rows the run offers, the cylinder alone shown by default */
  const GPtrArray *rows = hyd_state_diagram_pane_get_rows (pane);
  g_assert_nonnull (rows);
  g_assert_cmpuint (rows->len, ==, 3);
  const char *want[] = { "C1.x", "HY1.on", "ST1.stepped" };
  for (guint i = 0; i < 3; i++)
    g_assert_cmpstr (((HydStateRow *) g_ptr_array_index (rows, i))->variable, ==, want[i]);
  g_assert_true (hyd_state_diagram_pane_get_row_shown (pane, "C1.x"));
  g_assert_false (hyd_state_diagram_pane_get_row_shown (pane, "HY1.on"));
  g_assert_cmpuint (hyd_state_diagram_get_n_rows (hyd_state_diagram_pane_get_diagram (pane)), ==, 1);
  /* choose the hysteresis block's state too, while the run goes */
  hyd_state_diagram_pane_set_row_shown (pane, "HY1.on", TRUE);
  const HydStateDiagram *d = hyd_state_diagram_pane_get_diagram (pane);
  g_assert_cmpuint (hyd_state_diagram_get_n_rows (d), ==, 2);
  g_assert_cmpstr (hyd_state_diagram_get_row (d, 1)->variable, ==, "HY1.on");

  guint id = g_timeout_add_seconds (60, timeout_cb, NULL);
  while (w.finished == 0)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (id);
  g_test_message ("%u sample batches seen whole, %u of them before the end", w.live, w.partial);
  g_assert_cmpuint (w.live, >, 2);
  g_assert_cmpuint (w.partial, >, 0);

  /* after the run: every sample, and HY1.on's edges where the store's
   * column changes */
  HydTraceStore *store = hyd_simulation_get_store (sim);
  d = hyd_state_diagram_pane_get_diagram (pane);
  guint n = hyd_trace_store_get_n_rows (store);
  g_assert_cmpuint (hyd_state_diagram_get_n_samples (d), ==, n);
  const double *t = hyd_trace_store_get_column (store, 0);
  const double *on = hyd_trace_store_get_column (store, (guint) hyd_trace_store_find (store, "HY1.on"));
  g_autoptr (GArray) changes = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint k = 1; k < n; k++)
    if (on[k] != on[k - 1])
      g_array_append_val (changes, t[k]);
  g_autofree double *edges = NULL;
  guint n_edges = hyd_state_diagram_get_edges (d, 1, &edges, NULL);
  g_test_message ("HY1.on switches %u times; first at %g s", changes->len,
                  changes->len ? g_array_index (changes, double, 0) : NAN);
  /* on while the rod passes 0.2 m out, off below 0.1 m back: twice */
  g_assert_cmpuint (changes->len, ==, 2);
  g_assert_cmpuint (n_edges, ==, changes->len);
  for (guint k = 0; k < n_edges; k++)
    g_assert_cmpfloat (edges[k], ==, g_array_index (changes, double, k));

  /* drawn: in a pane lower than the rows need, they shrink to no less than
   * 75 % of their size and scroll */
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 150);
  for (int i = 0; i < 200; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  GtkWidget *stack = gtk_widget_get_last_child (gtk_widget_get_first_child (GTK_WIDGET (pane)));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "diagram");
  GtkWidget *area = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (gtk_stack_get_visible_child (GTK_STACK (stack))));
  if (GTK_IS_VIEWPORT (area))
    area = gtk_viewport_get_child (GTK_VIEWPORT (area));
  g_assert_true (GTK_IS_DRAWING_AREA (area));
  int h = gtk_widget_get_height (area), page = gtk_widget_get_height (gtk_stack_get_visible_child (GTK_STACK (stack)));
  double least = hyd_state_diagram_height_at_scale (d, 0.75), natural = hyd_state_diagram_natural_height (d);
  g_test_message ("drawing %d px high in a page of %d px (rows at 75 %%: %.0f px, natural %.0f px)", h, page, least,
                  natural);
  g_assert_cmpint (page, <, (int) natural);
  g_assert_cmpfloat (h, >=, floor (least) - 1);
  g_assert_cmpfloat (h, <=, natural);
  g_assert_cmpint (gtk_drawing_area_get_content_height (GTK_DRAWING_AREA (area)), ==,
                   (int) floor (CLAMP ((double) page, least, natural)));

  /* exports */
  g_autofree char *dir = g_dir_make_tmp ("bramah-state-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *csv = g_build_filename (dir, "d.csv", NULL);
  g_autofree char *svg = g_build_filename (dir, "d.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "d.pdf", NULL);
  g_assert_true (hyd_state_diagram_pane_export (pane, csv, &error));
  g_assert_no_error (error);
  g_assert_true (hyd_state_diagram_pane_export (pane, svg, &error));
  g_assert_no_error (error);
  g_assert_true (hyd_state_diagram_pane_export (pane, pdf, &error));
  g_assert_no_error (error);
  g_autofree char *csv_text = read_text (csv);
  g_assert_true (g_str_has_prefix (csv_text, "t,C1.x,C1.x/stroke,HY1.on\n"));
  g_auto (GStrv) lines = g_strsplit (csv_text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, n + 2);   /* header, n rows, "" */
  g_autofree char *svg_text = read_text (svg);
  g_assert_nonnull (strstr (svg_text, "<desc>"));
  g_assert_nonnull (strstr (svg_text, "HY1.on"));
  g_assert_nonnull (strstr (svg_text, "State diagram test"));   /* the circuit's title */
  g_autofree char *pdf_text = read_text (pdf);
  g_assert_true (g_str_has_prefix (pdf_text, "%PDF-"));
  g_assert_false (hyd_state_diagram_pane_export (pane, "/nonexistent-dir/d.svg", &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "/nonexistent-dir/d.svg"));
  g_clear_error (&error);
  g_unlink (csv);
  g_unlink (svg);
  g_unlink (pdf);
  g_rmdir (dir);

  /* the Rows popover: ticking ST1.stepped's check adds its row */
  GtkWidget *bar = gtk_widget_get_first_child (gtk_widget_get_first_child (GTK_WIDGET (pane)));
  GtkWidget *rows_button = gtk_widget_get_first_child (bar);
  g_assert_true (GTK_IS_MENU_BUTTON (rows_button));
  GtkWidget *scroller = gtk_popover_get_child (gtk_menu_button_get_popover (GTK_MENU_BUTTON (rows_button)));
  GtkWidget *list = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller));
  if (GTK_IS_VIEWPORT (list))
    list = gtk_viewport_get_child (GTK_VIEWPORT (list));
  guint n_checks = 0, n_active = 0;
  GtkWidget *step_check = NULL;
  for (GtkWidget *c = gtk_widget_get_first_child (list); c; c = gtk_widget_get_next_sibling (c))
    {
      n_checks++;
      n_active += gtk_check_button_get_active (GTK_CHECK_BUTTON (c));
      if (g_strcmp0 (gtk_check_button_get_label (GTK_CHECK_BUTTON (c)), "ST1.stepped") == 0)
        step_check = c;
    }
  g_assert_cmpuint (n_checks, ==, 3);
  g_assert_cmpuint (n_active, ==, 2);   /* C1 and HY1.on */
  g_assert_nonnull (step_check);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (step_check), TRUE);
  d = hyd_state_diagram_pane_get_diagram (pane);
  g_assert_cmpuint (hyd_state_diagram_get_n_rows (d), ==, 3);
  g_assert_cmpuint (hyd_state_diagram_get_n_samples (d), ==, n);
  hyd_state_diagram_pane_set_row_shown (pane, "ST1.stepped", FALSE);
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (step_check)));

  /* a reset forgets the run: no diagram */
  hyd_simulation_reset (sim);
  g_assert_null (hyd_state_diagram_pane_get_diagram (pane));
  /* the choice holds for the next run */
  g_assert_true (hyd_simulation_start (sim, circuit, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hyd_state_diagram_get_n_rows (hyd_state_diagram_pane_get_diagram (pane)), ==, 2);
  hyd_simulation_stop (sim);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_print ("SKIP: no display\n");
      return 77;
    }
  g_test_add_func ("/ui/state-diagram-pane/live-rows-export", test_live_rows_export);
  return g_test_run ();
}
