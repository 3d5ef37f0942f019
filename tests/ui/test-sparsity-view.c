/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-sparsity-view.c — the "Jacobian Sparsity" window
 * (ui/hyd-sparsity-view.c):
 *  - on tests/cli/data/motor-two-volumes.bramah (a motor M1 between the
 *    volumes VA and VB: the nodes VA.P.p and VB.P.p, M1.theta and M1.w) it
 *    draws as many non-zeros as the engine's pattern has; hovering
 *    (M1.w, VA.P.p) lights exactly M1 and VA on the schematic, leaving
 *    clears it; selecting VA on the schematic marks only VA's node, M1
 *    marks all four states;
 *  - on tests/cli/data/orifice-chain.bramah (VA —OR1— VB —OR2— VC) there is
 *    no entry between VA's node and VC's: hovering it lights nothing, and
 *    the summary counts 3 states, 7 non-zeros, bandwidth 1 and 1;
 *  - a circuit that does not compile is reported; one without states
 *    shows nothing and does not crash;
 *  - closed while it computes, it does not crash;
 *  - the Stiffness window's "Jacobian Sparsity…" opens it at the same
 *    moment on the same schematic;
 *  - 125 copies of centres-compared (3000 states, build-aux/gen-copies.py)
 *    open, draw whole and zoomed in, while the main loop keeps turning
 *    (a generous guard, no timing).
 * With BRAMAH_SCREENSHOT=FILE.png it writes the window on
 * centres-compared at t = 1 s (BRAMAH_SCREENSHOT_T) with the entry
 * BRAMAH_SCREENSHOT_ENTRY=ROW_STATE/COL_STATE hovered and the component
 * BRAMAH_SCREENSHOT_SELECT selected (docs/images/sparsity-view.png); with
 * BRAMAH_SCREENSHOT_WINDOW=FILE.png the main window too; with
 * BRAMAH_SCREENSHOT_LARGE=FILE.png the 3000 states, whole. Skips (77) without a display. */
#include <gtk/gtk.h>
#include <string.h>

#include "hyd-canvas.h"
#include "hyd-document.h"
#include "hyd-explain-view.h"
#include "hyd-help-text.h"
#include "hyd-sparsity-view.h"
#include "hyd-system.h"
#include "hyd-window.h"
#include "ui-test-util.h"

static gboolean
timeout_cb (gpointer data)
{
  g_error ("%s did not come in time", (const char *) data);
  return G_SOURCE_REMOVE;
}

static gboolean
count_cb (gpointer data)
{
  (*(guint *) data)++;
  return G_SOURCE_CONTINUE;
}

static void
wait_ready (HydSparsityView *view)
{
  guint timeout = g_timeout_add_seconds (120, timeout_cb, "the Jacobian");
  while (!hyd_sparsity_view_get_ready (view))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
}

/* Let the window lay out and paint until it has drawn `after` times more. */
static void
wait_drawn (HydSparsityView *view, guint before)
{
  guint timeout = g_timeout_add_seconds (120, timeout_cb, "a drawing");
  while (hyd_sparsity_view_get_n_draws (view) <= before)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
}

static HydDocument *
load (const char *dir_env, const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv (dir_env), name, NULL);
  g_autoptr (GError) error = NULL;
  HydDocument *doc = hyd_document_new_from_file (path, &error);
  g_assert_no_error (error);
  return doc;
}

/* The state named `name` of the circuit, by the engine. */
static int
state_index (const HydCircuit *circuit, const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydSystem) sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  for (guint k = 0; k < hyd_system_get_n_states (sys); k++)
    if (strcmp (hyd_system_get_state_name (sys, k), name) == 0)
      return (int) k;
  g_error ("no state %s", name);
  return -1;
}

static void
assert_lit (HydCanvas *canvas, const char *const *want)
{
  g_auto (GStrv) lit = hyd_canvas_dup_highlight (canvas);
  g_autofree char *got = lit ? g_strjoinv (" ", lit) : g_strdup ("(nothing)");
  g_autofree char *expected = want ? g_strjoinv (" ", (char **) want) : g_strdup ("(nothing)");
  g_test_message ("lit: %s", got);
  g_assert_cmpstr (got, ==, expected);
}

static void
test_motor (void)
{
  g_autoptr (HydDocument) doc = load ("BRAMAH_TEST_CIRCUIT_DIR", "motor-two-volumes.bramah");
  const HydCircuit *circuit = hyd_document_get_circuit (doc);
  GtkWidget *canvas = hyd_canvas_new ();
  g_object_ref_sink (canvas);
  hyd_canvas_set_document (HYD_CANVAS (canvas), doc);

  HydSparsityView *view = hyd_sparsity_view_new (NULL, circuit, 0, HYD_CANVAS (canvas));
  gtk_window_present (GTK_WINDOW (view));
  wait_ready (view);
  g_assert_null (hyd_sparsity_view_get_error (view));
  g_autoptr (GError) error = NULL;
  g_autoptr (HydSystem) sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  guint nnz;
  const guint *colptr, *rowind;
  hyd_system_get_pattern (sys, &nnz, &colptr, &rowind);
  g_assert_cmpuint (hyd_sparsity_view_get_n_states (view), ==, 4);
  g_assert_cmpuint (hyd_sparsity_view_get_n_nonzeros (view), ==, nnz);
  g_test_message ("%s", hyd_sparsity_view_get_summary (view));
  /* the help button says which scaling the colours use */
  g_autofree char *help = hyd_help_sparsity_dup_text ();
  g_assert_cmpstr (hyd_sparsity_view_get_help (view), ==, help);
  g_assert_nonnull (strstr (help, "|J_ij|·atol_j/atol_i"));

  int va = state_index (circuit, "VA.P.p"), vb = state_index (circuit, "VB.P.p");
  int th = state_index (circuit, "M1.theta"), w = state_index (circuit, "M1.w");
  /* grouped by component in the circuit's order VA, VB, M1: each volume's
   * node under it, M1's states last */
  g_assert_cmpuint (hyd_sparsity_view_get_position (view, va), ==, 0);
  g_assert_cmpuint (hyd_sparsity_view_get_position (view, vb), ==, 1);
  g_assert_cmpuint (hyd_sparsity_view_get_position (view, th), >=, 2);
  g_assert_cmpuint (hyd_sparsity_view_get_position (view, w), >=, 2);

  /* ∂(dw/dt)/∂p_A = D/J = 1e-6 (describe-stiffness.sh): M1 and VA lit */
  g_assert_true (hyd_sparsity_view_hover_entry (view, w, va));
  const char *tip = hyd_sparsity_view_get_hover_text (view);
  g_test_message ("%s", tip);
  g_assert_nonnull (strstr (tip, "∂(dM1.w/dt)/∂VA.P.p = 1e-06"));
  assert_lit (HYD_CANVAS (canvas), (const char *const[]) { "M1", "VA", NULL });
  g_assert_true (hyd_sparsity_view_hover_entry (view, vb, vb));
  assert_lit (HYD_CANVAS (canvas), (const char *const[]) { "M1", "VB", NULL });
  hyd_sparsity_view_hover_entry (view, -1, -1);
  assert_lit (HYD_CANVAS (canvas), NULL);
  g_assert_null (hyd_sparsity_view_get_hover_text (view));

  /* the schematic's selection marks rows and columns */
  hyd_canvas_set_selection (HYD_CANVAS (canvas), (const char *const[]) { "VA", NULL });
  g_assert_true (hyd_sparsity_view_is_marked (view, va));
  g_assert_false (hyd_sparsity_view_is_marked (view, vb));
  g_assert_false (hyd_sparsity_view_is_marked (view, th));
  g_assert_false (hyd_sparsity_view_is_marked (view, w));
  hyd_canvas_set_selection (HYD_CANVAS (canvas), (const char *const[]) { "M1", NULL });
  for (int k = 0; k < 4; k++)
    g_assert_true (hyd_sparsity_view_is_marked (view, k));
  hyd_canvas_set_selection (HYD_CANVAS (canvas), NULL);
  for (int k = 0; k < 4; k++)
    g_assert_false (hyd_sparsity_view_is_marked (view, k));

  /* the window going clears what it lit */
  g_assert_true (hyd_sparsity_view_hover_entry (view, va, w));
  gtk_window_destroy (GTK_WINDOW (view));
  assert_lit (HYD_CANVAS (canvas), NULL);
  /* and the schematic's selection no longer reaches it */
  hyd_canvas_set_selection (HYD_CANVAS (canvas), (const char *const[]) { "M1", NULL });
  g_object_unref (canvas);
}

static void
test_chain (void)
{
  g_autoptr (HydDocument) doc = load ("BRAMAH_TEST_CIRCUIT_DIR", "orifice-chain.bramah");
  const HydCircuit *circuit = hyd_document_get_circuit (doc);
  GtkWidget *canvas = hyd_canvas_new ();
  g_object_ref_sink (canvas);
  hyd_canvas_set_document (HYD_CANVAS (canvas), doc);
  HydSparsityView *view = hyd_sparsity_view_new (NULL, circuit, 0.01, HYD_CANVAS (canvas));
  wait_ready (view);
  g_assert_null (hyd_sparsity_view_get_error (view));
  int a = state_index (circuit, "VA.P.p"), b = state_index (circuit, "OR1.B.p"), c = state_index (circuit, "OR2.B.p");
  g_assert_cmpuint (hyd_sparsity_view_get_n_nonzeros (view), ==, 7);
  const char *summary = hyd_sparsity_view_get_summary (view);
  g_test_message ("%s", summary);
  g_assert_nonnull (strstr (summary, "3 states, 7 structural non-zeros"));
  g_assert_nonnull (strstr (summary, "1 below and 1 above the diagonal in the engine's order, 1 and 1 as drawn"));
  /* a tridiagonal matrix factors without fill-in */
  g_assert_nonnull (strstr (summary, "(7 non-zeros) hold 7: fill-in 0"));
  g_assert_false (hyd_sparsity_view_hover_entry (view, a, c));
  g_assert_false (hyd_sparsity_view_hover_entry (view, c, a));
  assert_lit (HYD_CANVAS (canvas), NULL);
  /* VB's node: OR1, VB and OR2 have ports on it */
  g_assert_true (hyd_sparsity_view_hover_entry (view, b, b));
  assert_lit (HYD_CANVAS (canvas), (const char *const[]) { "OR1", "OR2", "VB", NULL });
  g_assert_true (hyd_sparsity_view_hover_entry (view, a, b));
  assert_lit (HYD_CANVAS (canvas), (const char *const[]) { "OR1", "OR2", "VA", "VB", NULL });
  gtk_window_destroy (GTK_WINDOW (view));
  g_object_unref (canvas);
}

/* A circuit that does not compile: the window says why; one without
 * states: nothing to draw, no crash. */
static void
test_error_and_empty (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) bad = hyd_circuit_load_from_data (
    "{\"format\": \"bramah-circuit\", \"version\": 2, \"components\": ["
    "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"volume\": 1e-3}}], \"connections\": []}",
    -1, NULL, &error);
  g_assert_no_error (error);
  HydSparsityView *view = hyd_sparsity_view_new (NULL, bad, 0, NULL);
  gtk_window_present (GTK_WINDOW (view));
  wait_ready (view);
  g_assert_nonnull (hyd_sparsity_view_get_error (view));
  g_test_message ("%s", hyd_sparsity_view_get_error (view));
  g_assert_nonnull (strstr (hyd_sparsity_view_get_error (view), "V1"));
  g_assert_cmpuint (hyd_sparsity_view_get_n_nonzeros (view), ==, 0);
  g_assert_false (hyd_sparsity_view_hover_entry (view, 0, 0));
  gtk_window_destroy (GTK_WINDOW (view));

  g_autoptr (HydCircuit) empty = hyd_circuit_load_from_data (
    "{\"format\": \"bramah-circuit\", \"version\": 2, \"components\": ["
    "{\"id\": \"PS1\", \"type\": \"pressure_source\", \"params\": {}},"
    "{\"id\": \"OR1\", \"type\": \"orifice\", \"params\": {}},"
    "{\"id\": \"T1\", \"type\": \"tank\", \"params\": {}}],"
    "\"connections\": [{\"from\": \"PS1.P\", \"to\": \"OR1.A\"}, {\"from\": \"OR1.B\", \"to\": \"T1.T\"}]}",
    -1, NULL, &error);
  g_assert_no_error (error);
  view = hyd_sparsity_view_new (NULL, empty, 0, NULL);
  gtk_window_present (GTK_WINDOW (view));
  wait_ready (view);
  g_assert_null (hyd_sparsity_view_get_error (view));
  g_assert_cmpuint (hyd_sparsity_view_get_n_states (view), ==, 0);
  g_assert_nonnull (strstr (hyd_sparsity_view_get_summary (view), "0 states, 0 structural non-zeros"));
  g_assert_false (hyd_sparsity_view_hover_entry (view, 0, 0));
  for (int k = 0; k < 20; k++)
    g_main_context_iteration (NULL, FALSE);
  gtk_window_destroy (GTK_WINDOW (view));
}

/* 125 copies of centres-compared, made at build time. */
static HydDocument *
load_large (void)
{
  g_autoptr (GError) error = NULL;
  HydDocument *doc = hyd_document_new_from_file (g_getenv ("BRAMAH_TEST_LARGE_CIRCUIT"), &error);
  g_assert_no_error (error);
  return doc;
}

/* Closed while the worker computes: no crash, the object goes once the
 * worker is done. */
static void
test_close_early (void)
{
  g_autoptr (HydDocument) doc = load_large ();
  GtkWidget *canvas = hyd_canvas_new ();
  g_object_ref_sink (canvas);
  hyd_canvas_set_document (HYD_CANVAS (canvas), doc);
  for (int k = 0; k < 3; k++)
    {
      HydSparsityView *view = hyd_sparsity_view_new (NULL, hyd_document_get_circuit (doc), k == 2 ? 0.001 : 0,
                                                     HYD_CANVAS (canvas));
      gtk_window_present (GTK_WINDOW (view));
      g_object_add_weak_pointer (G_OBJECT (view), (gpointer *) &view);
      for (int i = 0; i < k * 3; i++)
        g_main_context_iteration (NULL, FALSE);
      gtk_window_destroy (GTK_WINDOW (view));
      hyd_canvas_set_selection (HYD_CANVAS (canvas), (const char *const[]) { "PU1_0", NULL });
      guint timeout = g_timeout_add_seconds (120, timeout_cb, "the worker's end");
      while (view != NULL)
        g_main_context_iteration (NULL, TRUE);
      g_source_remove (timeout);
    }
  assert_lit (HYD_CANVAS (canvas), NULL);
  g_object_unref (canvas);
}

static void
test_large (void)
{
  g_autoptr (HydDocument) doc = load_large ();
  GtkWidget *canvas = hyd_canvas_new ();
  g_object_ref_sink (canvas);
  hyd_canvas_set_document (HYD_CANVAS (canvas), doc);
  HydSparsityView *view = hyd_sparsity_view_new (NULL, hyd_document_get_circuit (doc), 0, HYD_CANVAS (canvas));
  gtk_window_present (GTK_WINDOW (view));
  /* the main loop turns while the worker computes */
  guint ticks = 0, ticker = g_timeout_add (10, count_cb, &ticks);
  wait_ready (view);
  g_assert_null (hyd_sparsity_view_get_error (view));
  guint n = hyd_sparsity_view_get_n_states (view);
  g_test_message ("%u states, %s; %u ticks of the main loop while computing", n,
                  hyd_sparsity_view_get_summary (view), ticks);
  g_assert_cmpuint (n, ==, 125 * 24);
  g_assert_cmpuint (hyd_sparsity_view_get_n_nonzeros (view), ==, 125 * 112);

  /* the whole matrix: under a pixel per entry */
  wait_drawn (view, 0);
  g_assert_cmpfloat (hyd_sparsity_view_get_cell_size (view), <, 1);
  /* zoomed in: squares, only those in view drawn */
  guint before = hyd_sparsity_view_get_n_draws (view);
  hyd_sparsity_view_set_cell_size (view, 12);
  wait_drawn (view, before);
  before = hyd_sparsity_view_get_n_draws (view);
  hyd_sparsity_view_set_cell_size (view, 3);
  wait_drawn (view, before);
  /* the selection of a component in the 100th copy marks its rows */
  hyd_canvas_set_selection (HYD_CANVAS (canvas), (const char *const[]) { "PU1_99", NULL });
  guint marked = 0;
  for (guint k = 0; k < n; k++)
    marked += hyd_sparsity_view_is_marked (view, k);
  g_assert_cmpuint (marked, >, 0);
  before = hyd_sparsity_view_get_n_draws (view);
  wait_drawn (view, before);
  const char *shot = g_getenv ("BRAMAH_SCREENSHOT_LARGE");
  if (shot && *shot)
    {
      hyd_sparsity_view_set_cell_size (view, 0.2);
      hyd_test_save_screenshot (GTK_WIDGET (view), shot);
    }
  g_source_remove (ticker);
  gtk_window_destroy (GTK_WINDOW (view));
  g_object_unref (canvas);
}

/* The View menu's item (win.jacobian-sparsity) with no run: the open
 * circuit at t = 0, over the window; the screenshot. */
static void
test_window_action (void)
{
  HydWindow *window = hyd_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  g_autofree char *path = g_build_filename (g_getenv ("BRAMAH_EXAMPLES_DIR"), "centres-compared.bramah", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_assert_true (hyd_window_open_file (window, file));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.jacobian-sparsity", NULL));
  HydSparsityView *view = (HydSparsityView *) hyd_test_find_toplevel (HYD_TYPE_SPARSITY_VIEW);
  g_assert_nonnull (view);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (view)) == GTK_WINDOW (window));
  wait_ready (view);
  g_assert_null (hyd_sparsity_view_get_error (view));
  g_assert_cmpuint (hyd_sparsity_view_get_n_states (view), ==, 24);
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (view)), "t = 0 s"));
  /* the whole matrix fits; hovering, which writes two lines under it,
   * does not resize it */
  wait_drawn (view, 0);
  double cell = hyd_sparsity_view_get_cell_size (view);
  g_assert_cmpfloat (cell, <, 48);
  g_assert_true (hyd_sparsity_view_hover_entry (view, 0, 0));
  guint drawn = hyd_sparsity_view_get_n_draws (view);
  wait_drawn (view, drawn);
  g_assert_cmpfloat (hyd_sparsity_view_get_cell_size (view), ==, cell);
  const char *shot = g_getenv ("BRAMAH_SCREENSHOT");
  if (shot && *shot)
    {
      /* at t = 1 s of a run (BRAMAH_SCREENSHOT_T), the pressures up */
      GtkWidget *canvas = hyd_test_find_descendant (GTK_WIDGET (window), HYD_TYPE_CANVAS);
      g_assert_nonnull (canvas);
      const HydCircuit *circuit = hyd_document_get_circuit (hyd_window_get_document (window));
      const char *at = g_getenv ("BRAMAH_SCREENSHOT_T");
      HydSparsityView *shown = hyd_sparsity_view_new (GTK_WINDOW (window), circuit, at ? g_ascii_strtod (at, NULL) : 1.0,
                                                      HYD_CANVAS (canvas));
      gtk_window_set_default_size (GTK_WINDOW (shown), 900, 900);
      gtk_window_present (GTK_WINDOW (shown));
      wait_ready (shown);
      g_assert_null (hyd_sparsity_view_get_error (shown));
      const char *select = g_getenv ("BRAMAH_SCREENSHOT_SELECT");
      if (select)
        hyd_canvas_set_selection (HYD_CANVAS (canvas), (const char *const[]) { select, NULL });
      /* BRAMAH_SCREENSHOT_ENTRY=ROW_STATE/COL_STATE, else the first entry
       * off the diagonal */
      const char *want = g_getenv ("BRAMAH_SCREENSHOT_ENTRY");
      g_auto (GStrv) pair = g_strsplit (want ? want : "", "/", 2);
      int row = -1, col = -1;
      if (want && g_strv_length (pair) == 2)
        {
          row = state_index (circuit, pair[0]);
          col = state_index (circuit, pair[1]);
        }
      else
        for (int r = 0; r < 24 && row < 0; r++)
          for (int c = 0; c < 24 && row < 0; c++)
            if (r != c && hyd_sparsity_view_hover_entry (shown, r, c))
              {
                row = r;
                col = c;
              }
      g_assert_true (hyd_sparsity_view_hover_entry (shown, row, col));
      hyd_test_save_screenshot (GTK_WIDGET (shown), shot);
      const char *shot_window = g_getenv ("BRAMAH_SCREENSHOT_WINDOW");
      if (shot_window && *shot_window)
        {
          gtk_window_set_default_size (GTK_WINDOW (window), 1100, 700);
          hyd_test_save_screenshot (GTK_WIDGET (window), shot_window);
        }
      gtk_window_destroy (GTK_WINDOW (shown));
    }
  gtk_window_destroy (GTK_WINDOW (view));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The first widget under root that is of `type` (and, for a button, has
 * the label `label`), depth first. */
static GtkWidget *
find_widget (GtkWidget *root, GType type, const char *label)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type)
          && (label == NULL || g_strcmp0 (gtk_button_get_label (GTK_BUTTON (c)), label) == 0))
        return c;
      GtkWidget *found = find_widget (c, type, label);
      if (found)
        return found;
    }
  return NULL;
}

static HydSparsityView *
find_sparsity_view (void)
{
  return (HydSparsityView *) hyd_test_find_toplevel (HYD_TYPE_SPARSITY_VIEW);
}

/* The Stiffness window's "Jacobian Sparsity…" button: the same circuit
 * and moment, the same schematic. */
static void
test_from_stiffness (void)
{
  g_autoptr (HydDocument) doc = load ("BRAMAH_TEST_CIRCUIT_DIR", "motor-two-volumes.bramah");
  const HydCircuit *circuit = hyd_document_get_circuit (doc);
  GtkWidget *canvas = hyd_canvas_new ();
  g_object_ref_sink (canvas);
  hyd_canvas_set_document (HYD_CANVAS (canvas), doc);
  HydExplainView *explain = hyd_explain_view_new (NULL, circuit, 0.5, HYD_CANVAS (canvas));
  gtk_window_present (GTK_WINDOW (explain));
  g_assert_null (find_sparsity_view ());
  GtkWidget *button = find_widget (GTK_WIDGET (explain), GTK_TYPE_BUTTON, "_Jacobian Sparsity…");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  HydSparsityView *view = find_sparsity_view ();
  g_assert_nonnull (view);
  wait_ready (view);
  g_assert_null (hyd_sparsity_view_get_error (view));
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (view)), "t = 0.5 s"));
  int w = state_index (circuit, "M1.w"), va = state_index (circuit, "VA.P.p");
  g_assert_true (hyd_sparsity_view_hover_entry (view, va, w));
  assert_lit (HYD_CANVAS (canvas), (const char *const[]) { "M1", "VA", NULL });
  gtk_window_destroy (GTK_WINDOW (view));
  gtk_window_destroy (GTK_WINDOW (explain));
  g_object_unref (canvas);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    return 77;
  g_test_add_func ("/ui/sparsity-view/motor", test_motor);
  g_test_add_func ("/ui/sparsity-view/chain", test_chain);
  g_test_add_func ("/ui/sparsity-view/error-and-empty", test_error_and_empty);
  g_test_add_func ("/ui/sparsity-view/close-early", test_close_early);
  g_test_add_func ("/ui/sparsity-view/large", test_large);
  g_test_add_func ("/ui/sparsity-view/window-action", test_window_action);
  g_test_add_func ("/ui/sparsity-view/from-stiffness", test_from_stiffness);
  return g_test_run ();
}
