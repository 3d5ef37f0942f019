/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-live-panel.c — the Live page: one slider for every parameter that
 * can change during a run (HYD_PARAM_PROFILE), found from the catalogue (a
 * type registered here appears without any change to the panel), grouped by
 * component, built once per run, following the run, and its changes sent
 * at most ten times a second with the last value always. Skips (77) without
 * a display. */
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>
#include "hyd-catalogue.h"
#include "hyd-live-panel.h"

static void
spin (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* A signal block as the signal helpers add them: a set-point and a gain
 * that may change in time, a whole number and a choice that may not. */
static const char *const mode_choices[] = { "linear", "square", NULL };
static const HydPortInfo block_ports[] = { { "Y", HYD_DOMAIN_SIGNAL, FALSE, "out", HYD_PORT_OUTPUT } };
static const HydParamInfo block_params[] = {
  { "setpoint", "Set-point", HYD_UNIT_NONE, 0.2, -INFINITY, INFINITY, HYD_PARAM_PROFILE, NULL, "the target" },
  { "gain", "Gain", HYD_UNIT_NONE, 2.0, 0, 100, HYD_PARAM_PROFILE, NULL, "the gain" },
  { "order", "Order", HYD_UNIT_NONE, 1, 1, 4, HYD_PARAM_INTEGER, NULL, "the order" },
  { "mode", "Mode", HYD_UNIT_NONE, 0, 0, 1, HYD_PARAM_ENUM, mode_choices, "the mode" },
};
static const HydComponentType block_type = {
  .id = "test_live_block", .label = "test block", .ports = block_ports, .n_ports = 1,
  .params = block_params, .n_params = G_N_ELEMENTS (block_params), .boundary_param = -1,
};

typedef struct {
  char *component;
  char *param;
  double value;
  guint count;
} LiveChange;

static void
live_change_cb (HydLivePanel *panel, const char *component, const char *param, double value, LiveChange *lc)
{
  g_free (lc->component);
  g_free (lc->param);
  lc->component = g_strdup (component);
  lc->param = g_strdup (param);
  lc->value = value;
  lc->count++;
}

static gboolean
lookup_cb (const char *component, const char *param, double *value, gpointer user_data)
{
  /* the run's values: the pump turns at 100 rad/s, the set-point is 0.7 */
  if (strcmp (component, "PU1") == 0 && strcmp (param, "speed") == 0)
    *value = 100;
  else if (strcmp (component, "B1") == 0 && strcmp (param, "setpoint") == 0)
    *value = *(const double *) user_data;
  else
    return FALSE;
  return TRUE;
}

static HydCircuit *
circuit (void)
{
  GError *error = NULL;
  HydCircuit *c = hyd_circuit_load_from_data (
      "{\"format\": \"bramah-circuit\", \"version\": 2, \"components\": ["
      "{\"id\": \"T1\", \"type\": \"tank\", \"position\": [0, 0]},"
      "{\"id\": \"PU1\", \"type\": \"fixed_pump\", \"position\": [100, 0], \"label\": \"Main pump\"},"
      "{\"id\": \"B1\", \"type\": \"test_live_block\", \"position\": [200, 0]},"
      "{\"id\": \"M1\", \"type\": \"mass\", \"position\": [300, 0]},"
      "{\"id\": \"F1\", \"type\": \"force_source\", \"position\": [400, 0]}], \"connections\": []}",
      -1, "live.bramah", &error);
  g_assert_no_error (error);
  return c;
}

static void
test_sliders_from_catalogue (void)
{
  g_autoptr (HydCircuit) c = circuit ();
  HydLivePanel *panel = HYD_LIVE_PANEL (g_object_ref_sink (hyd_live_panel_new ()));
  GtkWidget *window = gtk_window_new ();
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (panel));
  gtk_window_present (GTK_WINDOW (window));
  double setpoint = 0.7;
  hyd_live_panel_set_lookup (panel, lookup_cb, &setpoint);

  /* no run: no sliders */
  g_assert_false (hyd_live_panel_get_running (panel));
  g_assert_cmpuint (hyd_live_panel_get_n_sliders (panel), ==, 0);

  hyd_live_panel_set_run (panel, c);
  spin ();
  g_assert_true (hyd_live_panel_get_running (panel));
  /* the pump's speed, the block's set-point and gain, the force source's
   * force; not the block's whole number or choice, nothing of the tank or
   * the mass (no profile parameter) */
  g_assert_nonnull (hyd_live_panel_get_slider (panel, "PU1", "speed"));
  g_assert_nonnull (hyd_live_panel_get_slider (panel, "B1", "setpoint"));
  g_assert_nonnull (hyd_live_panel_get_slider (panel, "B1", "gain"));
  g_assert_nonnull (hyd_live_panel_get_slider (panel, "F1", "force"));
  g_assert_null (hyd_live_panel_get_slider (panel, "B1", "order"));
  g_assert_null (hyd_live_panel_get_slider (panel, "B1", "mode"));
  g_assert_null (hyd_live_panel_get_slider (panel, "M1", "mass"));
  g_assert_null (hyd_live_panel_get_slider (panel, "T1", "pressure"));
  g_assert_cmpuint (hyd_live_panel_get_n_omitted (panel), ==, 0);
  /* in the circuit's order: PU1, B1 (set-point, gain), F1 */
  GtkWidget *slider;
  g_assert_cmpstr (hyd_live_panel_get_slider_name (panel, 0, &slider), ==, "PU1.speed");
  g_assert_cmpstr (hyd_live_panel_get_slider_name (panel, 1, &slider), ==, "B1.setpoint");
  g_assert_cmpstr (hyd_live_panel_get_slider_name (panel, 2, &slider), ==, "B1.gain");

  /* the sliders start at the run's values */
  GtkWidget *speed = hyd_live_panel_get_slider (panel, "PU1", "speed");
  GtkWidget *sp = hyd_live_panel_get_slider (panel, "B1", "setpoint");
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (speed)), ==, 100);
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (sp)), ==, 0.7);
  /* the gain's slider starts at its minimum and spans its value (the run
   * has none for it: its default) */
  GtkWidget *gain = hyd_live_panel_get_slider (panel, "B1", "gain");
  GtkAdjustment *adj = gtk_range_get_adjustment (GTK_RANGE (gain));
  g_assert_cmpfloat (gtk_adjustment_get_lower (adj), ==, 0);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >, 2);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), <=, 100);
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (gain)), ==, 2);

  /* a second start during the same run builds nothing anew */
  g_object_add_weak_pointer (G_OBJECT (speed), (gpointer *) &speed);
  hyd_live_panel_set_run (panel, c);
  g_assert_true (speed == hyd_live_panel_get_slider (panel, "PU1", "speed"));

  /* following the run: the run's set-point moves, the slider follows
   * (the follow is at most four a second) */
  setpoint = 0.3;
  gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC;
  while (gtk_range_get_value (GTK_RANGE (sp)) != 0.3 && g_get_monotonic_time () < until)
    {
      hyd_live_panel_refresh (panel);
      g_usleep (20000);
      spin ();
    }
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (sp)), ==, 0.3);
  /* and a lever thrown elsewhere is shown */
  hyd_live_panel_show_value (panel, "B1", "setpoint", 0.45);
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (sp)), ==, 0.45);
  g_assert_nonnull (speed);

  /* the run ends: the list goes */
  hyd_live_panel_set_run (panel, NULL);
  spin ();
  g_assert_null (speed);
  g_assert_cmpuint (hyd_live_panel_get_n_sliders (panel), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (panel);
}

static void
test_changes_sent (void)
{
  g_autoptr (HydCircuit) c = circuit ();
  HydLivePanel *panel = HYD_LIVE_PANEL (g_object_ref_sink (hyd_live_panel_new ()));
  double setpoint = 0.2;
  hyd_live_panel_set_lookup (panel, lookup_cb, &setpoint);
  LiveChange lc = { 0 };
  g_signal_connect (panel, "live-change", G_CALLBACK (live_change_cb), &lc);
  hyd_live_panel_set_run (panel, c);
  GtkWidget *sp = hyd_live_panel_get_slider (panel, "B1", "setpoint");
  g_assert_nonnull (sp);
  /* showing the run's values sends nothing */
  g_assert_cmpuint (lc.count, ==, 0);

  gtk_range_set_value (GTK_RANGE (sp), 0.5);
  g_assert_cmpuint (lc.count, ==, 1);
  g_assert_cmpstr (lc.component, ==, "B1");
  g_assert_cmpstr (lc.param, ==, "setpoint");
  g_assert_cmpfloat (lc.value, ==, 0.5);
  /* two more at once: held back, then the last one goes */
  gtk_range_set_value (GTK_RANGE (sp), 0.6);
  gtk_range_set_value (GTK_RANGE (sp), 0.65);
  g_assert_cmpuint (lc.count, ==, 1);
  gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC;
  while (lc.count < 2 && g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (lc.count, ==, 2);
  g_assert_cmpfloat (lc.value, ==, 0.65);
  /* each slider keeps its own pace: the gain's change goes at once */
  GtkWidget *gain = hyd_live_panel_get_slider (panel, "B1", "gain");
  gtk_range_set_value (GTK_RANGE (gain), 5);
  g_assert_cmpuint (lc.count, ==, 3);
  g_assert_cmpstr (lc.param, ==, "gain");
  g_assert_cmpfloat (lc.value, ==, 5);

  /* no run, no change sent */
  hyd_live_panel_set_run (panel, NULL);
  g_assert_null (hyd_live_panel_get_slider (panel, "B1", "gain"));
  g_assert_cmpuint (lc.count, ==, 3);
  g_free (lc.component);
  g_free (lc.param);
  g_object_unref (panel);
}

/* More live parameters than sliders listed: the rest are counted. */
static void
test_many_components (void)
{
  GString *json = g_string_new ("{\"format\": \"bramah-circuit\", \"version\": 2, \"components\": [");
  guint n = HYD_LIVE_PANEL_MAX_SLIDERS + 7;
  for (guint i = 0; i < n; i++)
    g_string_append_printf (json, "%s{\"id\": \"F%u\", \"type\": \"force_source\", \"position\": [%u, 0]}",
                            i ? "," : "", i + 1, 10 * i);
  g_string_append (json, "], \"connections\": []}");
  GError *error = NULL;
  g_autoptr (HydCircuit) c = hyd_circuit_load_from_data (json->str, -1, "many.bramah", &error);
  g_assert_no_error (error);
  g_string_free (json, TRUE);
  HydLivePanel *panel = HYD_LIVE_PANEL (g_object_ref_sink (hyd_live_panel_new ()));
  hyd_live_panel_set_run (panel, c);
  g_assert_cmpuint (hyd_live_panel_get_n_sliders (panel), ==, HYD_LIVE_PANEL_MAX_SLIDERS);
  g_assert_cmpuint (hyd_live_panel_get_n_omitted (panel), ==, 7);
  g_object_unref (panel);
}

/* A parameter that a wired input replaces has no slider: the force
 * source's force while its input S is wired (its slider would move
 * nothing); unwired, it has one (above). */
static void
test_overridden_parameter (void)
{
  GError *error = NULL;
  g_autoptr (HydCircuit) c = hyd_circuit_load_from_data (
      "{\"format\": \"bramah-circuit\", \"version\": 2, \"components\": ["
      "{\"id\": \"B1\", \"type\": \"test_live_block\", \"position\": [200, 0]},"
      "{\"id\": \"M1\", \"type\": \"mass\", \"position\": [300, 0]},"
      "{\"id\": \"F1\", \"type\": \"force_source\", \"position\": [400, 0]},"
      "{\"id\": \"F2\", \"type\": \"force_source\", \"position\": [500, 0]}],"
      "\"connections\": [{\"from\": \"B1.Y\", \"to\": \"F1.S\"},"
      "{\"from\": \"F1.A\", \"to\": \"M1.A\"}, {\"from\": \"F2.A\", \"to\": \"M1.A\"}]}",
      -1, "wired.bramah", &error);
  g_assert_no_error (error);
  HydLivePanel *panel = HYD_LIVE_PANEL (g_object_ref_sink (hyd_live_panel_new ()));
  GtkWidget *window = gtk_window_new ();
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (panel));
  gtk_window_present (GTK_WINDOW (window));
  double setpoint = 0.7;
  hyd_live_panel_set_lookup (panel, lookup_cb, &setpoint);
  hyd_live_panel_set_run (panel, c);
  spin ();
  g_assert_null (hyd_live_panel_get_slider (panel, "F1", "force"));
  g_assert_nonnull (hyd_live_panel_get_slider (panel, "F2", "force"));
  g_assert_nonnull (hyd_live_panel_get_slider (panel, "B1", "setpoint"));
  hyd_live_panel_set_run (panel, NULL);
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (panel);
}

/* A valve whose solenoid is named (solenoid_a → Y1) is worked by its coil:
 * no command slider; the same valve without the reference keeps it. */
static void
test_reference_overrides (void)
{
  GError *error = NULL;
  g_autoptr (HydCircuit) c = hyd_circuit_load_from_data (
      "{\"format\": \"bramah-circuit\", \"version\": 3, \"components\": ["
      "{\"id\": \"Y1\", \"type\": \"solenoid\", \"position\": [0, 0]},"
      "{\"id\": \"V1\", \"type\": \"dcv_4_2\", \"position\": [100, 0],"
      " \"params\": {\"actuation\": \"solenoid\", \"solenoid_a\": \"Y1\"}},"
      "{\"id\": \"V2\", \"type\": \"dcv_4_2\", \"position\": [300, 0],"
      " \"params\": {\"actuation\": \"solenoid\"}}],"
      "\"connections\": []}",
      -1, "solenoid.bramah", &error);
  g_assert_no_error (error);
  HydLivePanel *panel = HYD_LIVE_PANEL (g_object_ref_sink (hyd_live_panel_new ()));
  hyd_live_panel_set_run (panel, c);
  g_assert_null (hyd_live_panel_get_slider (panel, "V1", "command"));
  g_assert_nonnull (hyd_live_panel_get_slider (panel, "V2", "command"));
  hyd_live_panel_set_run (panel, NULL);
  g_object_unref (panel);
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
  g_assert_true (hyd_catalogue_register_test_type (&block_type));
  g_test_add_func ("/ui/live-panel/sliders-from-catalogue", test_sliders_from_catalogue);
  g_test_add_func ("/ui/live-panel/changes-sent", test_changes_sent);
  g_test_add_func ("/ui/live-panel/many-components", test_many_components);
  g_test_add_func ("/ui/live-panel/overridden-parameter", test_overridden_parameter);
  g_test_add_func ("/ui/live-panel/reference-overrides", test_reference_overrides);
  return g_test_run ();
}
