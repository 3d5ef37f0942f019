/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-window-actions.c — the window's actions (win.*, doc.*, sim.*), their
 * keys, and the one function that recomputes which are enabled. */
#define G_LOG_DOMAIN "hyd-window-actions"

#include "bramah-config.h"
#include "hyd-window-private.h"

#include <glib/gi18n.h>
#include "hyd-help.h"

static void
new_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _hyd_window_new_document (HYD_WINDOW (widget));
}

static void
open_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _hyd_window_open_dialog (HYD_WINDOW (widget));
}

static void
open_recent_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _hyd_window_open_recent (HYD_WINDOW (widget), g_variant_get_string (param, NULL));
}

static void
examples_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _hyd_window_examples (HYD_WINDOW (widget));
}

static void
save_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _hyd_window_save (HYD_WINDOW (widget), NULL, NULL);
}

static void
save_as_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _hyd_window_save_as (HYD_WINDOW (widget), NULL, NULL);
}

static void
export_schematic_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _hyd_window_export_schematic (HYD_WINDOW (widget));
}

static void
export_csv_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _hyd_window_export_csv (HYD_WINDOW (widget));
}

static void
zoom_fit_action (GtkWidget *widget, const char *name, GVariant *param)
{
  hyd_canvas_zoom_to_fit (HYD_WINDOW (widget)->canvas);
}

static void
undo_action (GtkWidget *widget, const char *name, GVariant *param)
{
  HydWindow *self = HYD_WINDOW (widget);
  if (!hyd_simulation_get_active (self->simulation))
    hyd_document_undo (self->document);
}

static void
redo_action (GtkWidget *widget, const char *name, GVariant *param)
{
  HydWindow *self = HYD_WINDOW (widget);
  if (!hyd_simulation_get_active (self->simulation))
    hyd_document_redo (self->document);
}

static void
run_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _hyd_window_run (HYD_WINDOW (widget));
}

static void
stop_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _hyd_window_stop (HYD_WINDOW (widget));
}

static void
reset_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _hyd_window_reset (HYD_WINDOW (widget));
}

static void
focus_search_action (GtkWidget *widget, const char *name, GVariant *param)
{
  hyd_palette_focus_search (HYD_WINDOW (widget)->palette);
}

/* F1: the help page of the selected component (the first one when several
 * are), of the type being placed, or the page shown before. */
static void
help_action (GtkWidget *widget, const char *name, GVariant *param)
{
  HydWindow *self = HYD_WINDOW (widget);
  g_autofree char *topic = hyd_window_get_help_topic (self);
  hyd_help_window_present_for (GTK_WINDOW (self), topic);
}

void
_hyd_window_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.new", NULL, new_action);
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.examples", NULL, examples_action);
  gtk_widget_class_install_action (widget_class, "win.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", NULL, save_as_action);
  gtk_widget_class_install_action (widget_class, "win.export-schematic", NULL, export_schematic_action);
  gtk_widget_class_install_action (widget_class, "win.export-csv", NULL, export_csv_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-fit", NULL, zoom_fit_action);
  gtk_widget_class_install_action (widget_class, "win.find-component", NULL, focus_search_action);
  gtk_widget_class_install_action (widget_class, "win.help", NULL, help_action);
  gtk_widget_class_install_property_action (widget_class, "win.probe", "probe-mode");
  gtk_widget_class_install_property_action (widget_class, "win.show-labels", "show-labels");
  gtk_widget_class_install_action (widget_class, "doc.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "doc.redo", NULL, redo_action);
  gtk_widget_class_install_action (widget_class, "sim.run", NULL, run_action);
  gtk_widget_class_install_property_action (widget_class, "sim.pause", "paused");
  gtk_widget_class_install_action (widget_class, "sim.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "sim.reset", NULL, reset_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "win.new", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_O, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.examples", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.save", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_S, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.save-as", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export-schematic",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_E, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.export-csv", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.find-component", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_p, 0, "win.probe", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK, "win.show-labels", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "doc.undo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Z, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "doc.redo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "sim.run", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, GDK_SHIFT_MASK, "sim.stop", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F6, 0, "sim.pause", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F7, 0, "sim.reset", NULL);
}

void
_hyd_window_actions_update (HydWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  if (self->document == NULL || self->simulation == NULL)
    return;

  HydRunnerState state = hyd_simulation_get_state (self->simulation);
  gboolean running = state == HYD_RUNNER_RUNNING || state == HYD_RUNNER_PAUSED;
  /* a run being compiled is active too: Stop cancels it */
  gboolean active = hyd_simulation_get_active (self->simulation);
  gboolean starting = hyd_simulation_get_starting (self->simulation);
  HydTraceStore *store = hyd_simulation_get_store (self->simulation);
  gboolean has_rows = store != NULL && hyd_trace_store_get_n_rows (store) > 0;
  const HydCircuit *circuit = hyd_document_get_circuit (self->document);

  gtk_widget_action_set_enabled (widget, "doc.undo", !active && hyd_document_can_undo (self->document));
  gtk_widget_action_set_enabled (widget, "doc.redo", !active && hyd_document_can_redo (self->document));
  gtk_widget_action_set_enabled (widget, "sim.run",
                                 state != HYD_RUNNER_RUNNING && !starting && circuit->components->len > 0);
  gtk_widget_action_set_enabled (widget, "sim.pause", running);
  gtk_widget_action_set_enabled (widget, "sim.stop", active);
  gtk_widget_action_set_enabled (widget, "sim.reset",
                                 store != NULL || hyd_simulation_get_ghost (self->simulation));
  gtk_widget_action_set_enabled (widget, "win.export-csv", has_rows);
  gtk_widget_action_set_enabled (widget, "win.export-schematic", circuit->components->len > 0);
}
