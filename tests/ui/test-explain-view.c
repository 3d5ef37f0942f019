/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-explain-view.c — the "Stiffness" window (ui/hyd-explain-view.c) on
 * motor-relief at t = 0.5 s: it lists one row per mode (six real
 * eigenvalues), its summary gives the explicit step limit that
 * `bramah-cli explain --at 0.5` gives (1.81 ms, forward Euler on the
 * pump's node), hovering the fastest mode highlights the components of the
 * pump's node on the schematic and leaving clears it, and a circuit that
 * cannot run is reported, not shown. With BRAMAH_SCREENSHOT=FILE.png it
 * writes the window (the fastest mode hovered) to FILE.png
 * (docs/images/explain-view.png), with BRAMAH_SCREENSHOT_WINDOW=FILE.png
 * the main window with the fastest mode's components lit
 * (docs/images/explain-highlight.png). Skips (77) without a display. */
#include <gtk/gtk.h>
#include <string.h>

#include "hyd-canvas.h"
#include "hyd-document.h"
#include "hyd-explain-view.h"
#include "hyd-window.h"
#include "ui-test-util.h"

static gboolean
timeout_cb (gpointer data)
{
  g_error ("the eigenvalues did not come in time");
  return G_SOURCE_REMOVE;
}

static void
wait_ready (HydExplainView *view)
{
  guint timeout = g_timeout_add_seconds (60, timeout_cb, NULL);
  while (!hyd_explain_view_get_ready (view))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
}

static void
test_motor_relief (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("BRAMAH_EXAMPLES_DIR"), "motor-relief.bramah", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (HydDocument) doc = hyd_document_new_from_file (path, &error);
  g_assert_no_error (error);
  GtkWidget *canvas = hyd_canvas_new ();
  g_object_ref_sink (canvas);
  hyd_canvas_set_document (HYD_CANVAS (canvas), doc);

  HydExplainView *view = hyd_explain_view_new (NULL, hyd_document_get_circuit (doc), 0.5, HYD_CANVAS (canvas));
  gtk_window_present (GTK_WINDOW (view));
  wait_ready (view);
  g_assert_null (hyd_explain_view_get_error (view));
  g_assert_cmpuint (hyd_explain_view_get_n_modes (view), ==, 6);
  const char *summary = hyd_explain_view_get_summary (view);
  g_test_message ("%s", summary);
  g_assert_nonnull (strstr (summary, "The fastest mode is mostly the pressure of the node of DCV1.P, PU1.P, RV1.P: an explicit method would need steps under 1.81 ms"));
  g_assert_nonnull (strstr (summary, "rodas4's last step before t was 288 ms"));

  /* the fastest mode: the node of the pump, the relief valve and the
   * directional valve */
  g_auto (GStrv) comps = hyd_explain_view_dup_mode_components (view, 0);
  g_assert_true (g_strv_contains ((const char *const *) comps, "PU1"));
  g_assert_true (g_strv_contains ((const char *const *) comps, "RV1"));
  g_assert_true (g_strv_contains ((const char *const *) comps, "DCV1"));
  hyd_explain_view_hover_mode (view, 0);
  g_auto (GStrv) lit = hyd_canvas_dup_highlight (HYD_CANVAS (canvas));
  g_assert_nonnull (lit);
  g_assert_cmpuint (g_strv_length (lit), ==, g_strv_length (comps));
  for (guint k = 0; comps[k]; k++)
    g_assert_true (g_strv_contains ((const char *const *) lit, comps[k]));

  const char *shot = g_getenv ("BRAMAH_SCREENSHOT");
  if (shot && *shot)
    hyd_test_save_screenshot (GTK_WIDGET (view), shot);

  hyd_explain_view_hover_mode (view, -1);
  g_auto (GStrv) none = hyd_canvas_dup_highlight (HYD_CANVAS (canvas));
  g_assert_null (none);

  /* the window going clears what it lit */
  hyd_explain_view_hover_mode (view, 1);
  g_auto (GStrv) lit2 = hyd_canvas_dup_highlight (HYD_CANVAS (canvas));
  g_assert_nonnull (lit2);
  gtk_window_destroy (GTK_WINDOW (view));
  g_auto (GStrv) after = hyd_canvas_dup_highlight (HYD_CANVAS (canvas));
  g_assert_null (after);
  g_object_unref (canvas);
}

/* A circuit that does not compile: the window says why. */
static void
test_error (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (
    "{\"format\": \"bramah-circuit\", \"version\": 2, \"components\": ["
    "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"volume\": 1e-3}}], \"connections\": []}",
    -1, NULL, &error);
  g_assert_no_error (error);
  HydExplainView *view = hyd_explain_view_new (NULL, circuit, 0, NULL);
  wait_ready (view);
  g_assert_nonnull (hyd_explain_view_get_error (view));
  g_test_message ("%s", hyd_explain_view_get_error (view));
  g_assert_nonnull (strstr (hyd_explain_view_get_error (view), "V1"));
  g_assert_cmpuint (hyd_explain_view_get_n_modes (view), ==, 0);
  gtk_window_destroy (GTK_WINDOW (view));
}

/* The window's menu item (win.explain-stiffness) with no run: the open
 * circuit at t = 0, the window's schematic lit by hovering. */
static void
test_window_action (void)
{
  HydWindow *window = hyd_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  g_autofree char *path = g_build_filename (g_getenv ("BRAMAH_EXAMPLES_DIR"), "motor-relief.bramah", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_assert_true (hyd_window_open_file (window, file));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.explain-stiffness", NULL));
  HydExplainView *view = (HydExplainView *) hyd_test_find_toplevel (HYD_TYPE_EXPLAIN_VIEW);
  g_assert_nonnull (view);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (view)) == GTK_WINDOW (window));
  wait_ready (view);
  g_assert_null (hyd_explain_view_get_error (view));
  g_assert_cmpuint (hyd_explain_view_get_n_modes (view), ==, 6);
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (view)), "t = 0 s"));
  hyd_explain_view_hover_mode (view, 0);
  GtkWidget *canvas = hyd_test_find_descendant (GTK_WIDGET (window), HYD_TYPE_CANVAS);
  g_assert_nonnull (canvas);
  g_auto (GStrv) lit = hyd_canvas_dup_highlight (HYD_CANVAS (canvas));
  g_assert_nonnull (lit);
  g_assert_true (g_strv_contains ((const char *const *) lit, "PU1"));
  const char *shot = g_getenv ("BRAMAH_SCREENSHOT_WINDOW");
  if (shot && *shot)
    {
      gtk_window_set_default_size (GTK_WINDOW (window), 1100, 700);
      hyd_test_save_screenshot (GTK_WIDGET (window), shot);
    }
  gtk_window_destroy (GTK_WINDOW (view));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    return 77;
  g_test_add_func ("/ui/explain-view/motor-relief", test_motor_relief);
  g_test_add_func ("/ui/explain-view/error", test_error);
  g_test_add_func ("/ui/explain-view/window-action", test_window_action);
  return g_test_run ();
}
