/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-property-panel.c — the property panel on a real document: values in
 * engineering units, checking as you type, edits through the undo stack,
 * restore default, choices, sliders for profile parameters and the running
 * mode. Skips (77) without a display. */
#include <gtk/gtk.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <math.h>
#include <string.h>
#include "hyd-catalogue.h"
#include "hyd-document.h"
#include "hyd-property-panel.h"
#include "elec-test-types.h"

static void
spin (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static double
written_number (HydDocument *doc, const char *id, const char *param, gboolean *present)
{
  const HydCircuitComponent *comp = hyd_circuit_find_component (hyd_document_get_circuit (doc), id);
  g_assert_nonnull (comp);
  *present = json_object_has_member (comp->params, param);
  return *present ? json_object_get_double_member (comp->params, param) : NAN;
}

static void
test_edit (void)
{
  g_autoptr (HydDocument) doc = hyd_document_new ();
  g_autofree char *rv = hyd_document_add_component (doc, "relief_valve", 100, 100);
  g_autofree char *dcv = hyd_document_add_component (doc, "dcv_4_3", 200, 100);
  HydPropertyPanel *panel = HYD_PROPERTY_PANEL (g_object_ref_sink (hyd_property_panel_new ()));
  GtkWidget *window = gtk_window_new ();
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (panel));
  gtk_window_present (GTK_WINDOW (window));
  hyd_property_panel_set_document (panel, doc);

  const char *sel[] = { rv, NULL };
  hyd_property_panel_set_selection (panel, sel);
  spin ();
  g_assert_cmpstr (hyd_property_panel_get_component (panel), ==, rv);

  /* the default 1e7 Pa is shown in bar */
  GtkWidget *entry = hyd_property_panel_get_editor (panel, "cracking_pressure");
  g_assert_true (GTK_IS_ENTRY (entry));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "100");
  GtkWidget *message = hyd_property_panel_get_message (panel, "cracking_pressure");
  g_assert_false (gtk_widget_get_visible (message));
  /* not a profile parameter: no slider */
  g_assert_null (hyd_property_panel_get_slider (panel, "cracking_pressure"));

  /* checked as typed: red, with the reason */
  gtk_editable_set_text (GTK_EDITABLE (entry), "-5");
  g_assert_true (gtk_widget_has_css_class (entry, "error"));
  g_assert_true (gtk_widget_get_visible (message));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (message)), "more than 0 bar"));
  /* Enter on a bad value changes nothing */
  g_signal_emit_by_name (entry, "activate");
  gboolean present;
  written_number (doc, rv, "cracking_pressure", &present);
  g_assert_false (present);

  /* a good value: in bar on screen, in Pa in the document, undoable */
  gtk_editable_set_text (GTK_EDITABLE (entry), "120");
  g_assert_false (gtk_widget_has_css_class (entry, "error"));
  g_signal_emit_by_name (entry, "activate");
  spin ();
  g_assert_cmpfloat (written_number (doc, rv, "cracking_pressure", &present), ==, 1.2e7);
  g_assert_true (hyd_document_can_undo (doc));
  hyd_document_undo (doc);
  spin ();
  written_number (doc, rv, "cracking_pressure", &present);
  g_assert_false (present);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "100");
  hyd_document_redo (doc);
  spin ();
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "120");

  /* another unit: the override in bar too */
  GtkWidget *flow = hyd_property_panel_get_editor (panel, "nominal_flow");
  gtk_editable_set_text (GTK_EDITABLE (flow), "20 L/min");
  g_signal_emit_by_name (flow, "activate");
  g_assert_cmpfloat_with_epsilon (written_number (doc, rv, "nominal_flow", &present), 20.0 / 60000, 1e-12);

  /* a choice */
  const char *sel2[] = { dcv, NULL };
  hyd_property_panel_set_selection (panel, sel2);
  spin ();
  GtkWidget *centre = hyd_property_panel_get_editor (panel, "centre");
  g_assert_true (GTK_IS_DROP_DOWN (centre));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (centre), 2);
  spin ();
  const HydCircuitComponent *comp = hyd_circuit_find_component (hyd_document_get_circuit (doc), dcv);
  g_assert_cmpstr (json_object_get_string_member (comp->params, "centre"), ==, "tandem");

  /* the valve's command is a profile parameter: it has a lever */
  GtkWidget *lever = hyd_property_panel_get_slider (panel, "command");
  g_assert_true (GTK_IS_SCALE (lever));
  g_assert_true (gtk_widget_has_css_class (lever, "lever"));

  /* while running, only the sliders: moving one is a live change, not an edit */
  hyd_property_panel_set_running (panel, TRUE);
  spin ();
  g_assert_false (gtk_widget_get_visible (centre));
  g_assert_true (gtk_widget_get_visible (lever));
  gtk_range_set_value (GTK_RANGE (lever), 1.0);
  spin ();
  comp = hyd_circuit_find_component (hyd_document_get_circuit (doc), dcv);
  g_assert_false (json_object_has_member (comp->params, "command"));
  hyd_property_panel_set_running (panel, FALSE);
  spin ();
  g_assert_true (gtk_widget_get_visible (centre));

  /* restore the default (the button beside the value) */
  hyd_property_panel_set_selection (panel, sel);
  spin ();
  g_assert_true (hyd_document_set_param (doc, rv, "cracking_pressure", NULL, NULL));
  spin ();
  written_number (doc, rv, "cracking_pressure", &present);
  g_assert_false (present);

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (panel);
}


/* A reference parameter (docs/electrical.md): a drop-down of "none" and the
 * ids of the components whose type has the variable it reads (a limit
 * switch's cylinder: those with a position x), written as the id. */
static void
test_reference (void)
{
  elec_test_types_register ();
  g_autoptr (HydDocument) doc = hyd_document_new ();
  g_autofree char *cyl = hyd_document_add_component (doc, "cylinder_double", 100, 100);
  g_autofree char *pump = hyd_document_add_component (doc, "fixed_pump", 100, 300);
  g_autofree char *sw = hyd_document_add_component (doc, "test_elec_limit", 300, 100);
  HydPropertyPanel *panel = HYD_PROPERTY_PANEL (g_object_ref_sink (hyd_property_panel_new ()));
  GtkWidget *window = gtk_window_new ();
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (panel));
  gtk_window_present (GTK_WINDOW (window));
  hyd_property_panel_set_document (panel, doc);
  const char *sel[] = { sw, NULL };
  hyd_property_panel_set_selection (panel, sel);
  spin ();

  GtkWidget *editor = hyd_property_panel_get_editor (panel, "cylinder");
  g_assert_true (GTK_IS_DROP_DOWN (editor));
  GListModel *model = gtk_drop_down_get_model (GTK_DROP_DOWN (editor));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), 1), ==, cyl);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (editor)), ==, 0);

  gtk_drop_down_set_selected (GTK_DROP_DOWN (editor), 1);
  spin ();
  const HydCircuitComponent *comp = hyd_circuit_find_component (hyd_document_get_circuit (doc), sw);
  g_assert_cmpstr (json_object_get_string_member (comp->params, "cylinder"), ==, cyl);
  /* an undo shows "none" again */
  hyd_document_undo (doc);
  spin ();
  comp = hyd_circuit_find_component (hyd_document_get_circuit (doc), sw);
  g_assert_false (json_object_has_member (comp->params, "cylinder"));
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (editor)), ==, 0);
  /* a second cylinder joins the list */
  g_autofree char *cyl2 = hyd_document_add_component (doc, "cylinder_double", 100, 500);
  spin ();
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), 2), ==, cyl2);
  (void) pump;

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (panel);
}

typedef struct {
  char *component, *param;
  double value;
  guint count;
} LiveChange;

static void
live_change_cb (HydPropertyPanel *panel, const char *component, const char *param, double value,
                LiveChange *lc)
{
  g_free (lc->component);
  g_free (lc->param);
  lc->component = g_strdup (component);
  lc->param = g_strdup (param);
  lc->value = value;
  lc->count++;
}

static void
test_live_slider (void)
{
  g_autoptr (HydDocument) doc = hyd_document_new ();
  g_autofree char *pump = hyd_document_add_component (doc, "fixed_pump", 100, 100);
  HydPropertyPanel *panel = HYD_PROPERTY_PANEL (g_object_ref_sink (hyd_property_panel_new ()));
  hyd_property_panel_set_document (panel, doc);
  const char *sel[] = { pump, NULL };
  hyd_property_panel_set_selection (panel, sel);
  LiveChange lc = { 0 };
  g_signal_connect (panel, "live-change", G_CALLBACK (live_change_cb), &lc);

  GtkWidget *speed = hyd_property_panel_get_slider (panel, "speed");
  g_assert_nonnull (speed);
  hyd_property_panel_set_running (panel, TRUE);
  gtk_range_set_value (GTK_RANGE (speed), 100.0);
  g_assert_cmpuint (lc.count, ==, 1);
  g_assert_cmpstr (lc.component, ==, pump);
  g_assert_cmpstr (lc.param, ==, "speed");
  g_assert_cmpfloat (lc.value, ==, 100.0);
  /* nothing in the document */
  const HydCircuitComponent *comp = hyd_circuit_find_component (hyd_document_get_circuit (doc), pump);
  g_assert_false (json_object_has_member (comp->params, "speed"));
  g_free (lc.component);
  g_free (lc.param);
  g_object_unref (panel);
}

/* The side pane is HYD_PROPERTY_PANEL_WIDTH wide whatever is selected: no
 * type's panel (nor the circuit's) needs more in English, so selecting
 * another part never widens the pane and the schematic beside it keeps its
 * width (it jumped by up to 50 px between a tank and a pump). In German a
 * few panels need up to about 400 px (long words beside a slider's value):
 * the window then widens the pane once and keeps it so
 * (_hyd_window_keep_side_width). */
static void
test_fits_side_pane (void)
{
  g_autoptr (HydDocument) doc = hyd_document_new ();
  HydPropertyPanel *panel = HYD_PROPERTY_PANEL (g_object_ref_sink (hyd_property_panel_new ()));
  GtkWidget *win = gtk_window_new ();
  gtk_window_set_child (GTK_WINDOW (win), GTK_WIDGET (panel));
  hyd_property_panel_set_document (panel, doc);
  int min, widest = 0;
  gtk_widget_measure (GTK_WIDGET (panel), GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  g_assert_cmpint (min, <=, HYD_PROPERTY_PANEL_WIDTH);
  guint n;
  const HydComponentType *const *types = hyd_catalogue_list (&n);
  const char *widest_type = NULL;
  for (guint k = 0; k < n; k++)
    {
      g_autofree char *id = hyd_document_add_component (doc, types[k]->id, 100, 100);
      const char *sel[] = { id, NULL };
      hyd_property_panel_set_selection (panel, sel);
      gtk_widget_measure (GTK_WIDGET (panel), GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
      if (min > widest)
        {
          widest = min;
          widest_type = types[k]->id;
        }
    }
  g_test_message ("widest panel: %s, %d px (the pane: %d px)", widest_type, widest, HYD_PROPERTY_PANEL_WIDTH);
  g_assert_cmpint (widest, <=, HYD_PROPERTY_PANEL_WIDTH);
  gtk_window_destroy (GTK_WINDOW (win));
  g_object_unref (panel);
}

int
main (int argc, char *argv[])
{
  setlocale (LC_ALL, "");
  const char *locale_dir = g_getenv ("BRAMAH_TEST_LOCALE_DIR");
  if (locale_dir)
    {
      bindtextdomain ("bramah", locale_dir);
      bind_textdomain_codeset ("bramah", "UTF-8");
      textdomain ("bramah");
    }
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_print ("SKIP: no display\n");
      return 77;
    }
  g_test_add_func ("/ui/property-panel/edit", test_edit);
  g_test_add_func ("/ui/property-panel/live-slider", test_live_slider);
  g_test_add_func ("/ui/property-panel/reference", test_reference);
  g_test_add_func ("/ui/property-panel/fits-side-pane", test_fits_side_pane);
  return g_test_run ();
}
