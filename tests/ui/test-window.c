/* test-window.c — the main window driven through its actions: open an
 * example, run it to its end (the circuit stays unmodified), and a circuit
 * that fails its check is not run. Skips (77) without a display. */
#include <gtk/gtk.h>
#include <string.h>
#include "hyd-simulation.h"
#include "hyd-window.h"
#include "hyd-ui-util.h"

static gboolean
idle_once (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Let the main loop handle what is queued. */
static void
iterate (void)
{
  gboolean done = FALSE;
  g_idle_add (idle_once, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static void
test_open_and_run (void)
{
  HydWindow *window = hyd_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (hyd_window_is_pristine (window));
  HydSimulation *sim = hyd_window_get_simulation (window);
  g_assert_cmpint (hyd_simulation_get_state (sim), ==, HYD_RUNNER_READY);

  g_autofree char *path
      = g_build_filename (g_getenv ("BRAMAH_EXAMPLES_DIR"), "cylinder-extend-retract.bramah", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_assert_true (hyd_window_open_file (window, file));
  iterate ();
  g_assert_false (hyd_window_is_pristine (window));
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (window)), "cylinder-extend-retract.bramah"));
  HydDocument *doc = hyd_window_get_document (window);
  g_assert_cmpuint (hyd_document_get_circuit (doc)->components->len, ==, 7);
  g_assert_false (hyd_document_get_modified (doc));

  /* a file that does not load leaves the window as it was */
  g_autoptr (GFile) missing = g_file_new_for_path ("/nonexistent/circuit.bramah");
  g_assert_false (hyd_window_open_file (window, missing));
  g_assert_true (hyd_window_get_document (window) == doc);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "sim.run", NULL));
  g_assert_true (hyd_simulation_get_active (sim));
  /* a circuit that names no speed runs in real time (issue 8) */
  g_assert_cmpfloat (hyd_simulation_get_real_time_factor (sim), ==, 1.0);
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (hyd_simulation_get_active (sim) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (hyd_simulation_get_state (sim), ==, HYD_RUNNER_FINISHED);
  g_assert_cmpuint (hyd_trace_store_get_n_rows (hyd_simulation_get_store (sim)), ==, 1501);
  iterate ();
  /* the run changed nothing in the circuit */
  g_assert_false (hyd_document_get_modified (doc));

  /* a broken circuit (a tank removed, its pump left open) is reported, not run */
  const char *ids[] = { "T1", NULL };
  hyd_document_remove_items (doc, ids);
  iterate ();
  HydTraceStore *before = hyd_simulation_get_store (sim);
  gtk_widget_activate_action (GTK_WIDGET (window), "sim.run", NULL);
  iterate ();
  g_assert_false (hyd_simulation_get_active (sim));
  g_assert_true (hyd_simulation_get_store (sim) == before);
  gtk_widget_activate_action (GTK_WIDGET (window), "doc.undo", NULL);
  iterate ();
  g_assert_false (hyd_document_get_modified (doc));

  /* reset forgets the run */
  gtk_widget_activate_action (GTK_WIDGET (window), "sim.reset", NULL);
  iterate ();
  g_assert_null (hyd_simulation_get_store (sim));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Software OpenGL is recognised by its GL_RENDERER string (issue 8). */
static void
test_software_gl (void)
{
  g_assert_true (hyd_ui_gl_renderer_is_software ("llvmpipe (LLVM 15.0.6, 256 bits)"));
  g_assert_true (hyd_ui_gl_renderer_is_software ("softpipe"));
  g_assert_true (hyd_ui_gl_renderer_is_software ("Software Rasterizer"));
  g_assert_true (hyd_ui_gl_renderer_is_software ("Mesa X11 swrast"));
  g_assert_false (hyd_ui_gl_renderer_is_software ("Mesa Intel(R) UHD Graphics 620 (KBL GT2)"));
  g_assert_false (hyd_ui_gl_renderer_is_software ("NVIDIA GeForce GTX 1050/PCIe/SSE2"));
  g_assert_false (hyd_ui_gl_renderer_is_software ("AMD Radeon RX 580 Series (polaris10, LLVM 15.0.6, DRM 3.49)"));
  g_assert_false (hyd_ui_gl_renderer_is_software (NULL));
  /* a renderer asked for is kept */
  g_setenv ("GSK_RENDERER", "gl", TRUE);
  g_assert_null (hyd_ui_choose_renderer (gdk_display_get_default (), NULL));
  g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "gl");
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
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
  g_test_add_func ("/ui/window/open-and-run", test_open_and_run);
  g_test_add_func ("/ui/window/software-gl", test_software_gl);
  return g_test_run ();
}
