/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-linear-view.c — the "Linear Analysis" window (ui/hyd-linear-view.c)
 * on the teaching case, tests/cli/data/cylinder-oil-column.bramah (a
 * cylinder with equal areas between two closed volumes): from the load
 * force to the position, the largest magnitude of its Bode grid (600
 * frequencies over the three decades 1–1000 Hz around the pole, neighbours
 * 1.16 % apart) lies within 1.2 % of the hydraulic natural frequency
 * √(β·A²·(1/V_A + 1/V_B)/m)/2π (Merritt 1967, §5.2); the inputs offered are
 * the profile parameters, the outputs the variables; an input that cannot
 * be varied is reported. With BRAMAH_SCREENSHOT=FILE.png it writes the
 * window (docs/images/linear-view.png). Skips (77) without a display. */
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "hyd-circuit.h"
#include "hyd-linear-view.h"
#include "ui-test-util.h"

static gboolean
timeout_cb (gpointer data)
{
  g_error ("the linear model did not come in time");
  return G_SOURCE_REMOVE;
}

static void
wait_ready (HydLinearView *view)
{
  guint timeout = g_timeout_add_seconds (60, timeout_cb, NULL);
  while (!hyd_linear_view_get_ready (view))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
}

static void
test_teaching_case (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("BRAMAH_TEST_CIRCUIT_DIR"), "cylinder-oil-column.bramah", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_file (path, &error);
  g_assert_no_error (error);
  HydLinearView *view = hyd_linear_view_new (NULL, circuit, 0.1);
  gtk_window_present (GTK_WINDOW (view));
  g_assert_true (g_strv_contains (hyd_linear_view_get_inputs (view), "C1.load_force"));
  g_assert_true (g_strv_contains (hyd_linear_view_get_outputs (view), "C1.x"));
  g_assert_false (g_strv_contains (hyd_linear_view_get_inputs (view), "C1.mass"));  /* not a profile */
  g_assert_false (hyd_linear_view_set_pair (view, "C1.nosuch", "C1.x"));
  g_assert_true (hyd_linear_view_set_pair (view, "C1.load_force", "C1.x"));
  wait_ready (view);
  g_assert_null (hyd_linear_view_get_error (view));
  double A = G_PI / 4 * 0.05 * 0.05, beta = 1.5e9, m = 100;
  double VA = 5e-5 + A * 0.2 + 5e-4, VB = 5e-5 + A * 0.3 + 1e-3;
  double fh = sqrt (beta * A * A * (1 / VA + 1 / VB) / m) / (2 * G_PI);
  double fp = hyd_linear_view_get_peak_frequency (view);
  g_test_message ("peak %.5g Hz, hydraulic natural frequency %.5g Hz", fp, fh);
  g_assert_cmpfloat (fabs (fp / fh - 1), <, 0.012);
  g_assert_nonnull (strstr (hyd_linear_view_get_text (view), "Poles"));
  const char *shot = g_getenv ("BRAMAH_SCREENSHOT");
  if (shot && *shot)
    hyd_test_save_screenshot (GTK_WIDGET (view), shot);

  /* the valve-less circuit's volumes: V1.initial_pressure is no profile;
   * a pressure output from the force works too */
  g_assert_true (hyd_linear_view_set_pair (view, "C1.load_force", "C1.A.p"));
  wait_ready (view);
  g_assert_null (hyd_linear_view_get_error (view));
  gtk_window_destroy (GTK_WINDOW (view));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    return 77;
  g_test_add_func ("/ui/linear-view/teaching-case", test_teaching_case);
  return g_test_run ();
}
