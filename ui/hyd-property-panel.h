/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-property-panel.h — the parameters of the selected component.
 *
 * For every parameter: its human name, its value in engineering units with
 * the unit shown (hyd-param-value.h), checked against the range as it is
 * typed (the entry turns red and says why), its description as a tooltip
 * and a button that restores the default. Choices are drop-downs. Edits go
 * through hyd_document_set_param, so they are undoable. Profile parameters
 * (valve command, pump speed, load force ...) also get a slider — a lever
 * for a valve's command — which, while a run is going, emits "live-change"
 * (the window forwards it to the running simulation) and otherwise edits the
 * document. While running, only those sliders are shown. */
#pragma once

#include <gtk/gtk.h>
#include "hyd-document.h"

G_BEGIN_DECLS

/* The side pane's width in pixels: every type's panel fits it (checked in
 * test-property-panel, in English and German), so selecting another part
 * never resizes the schematic beside it. */
#define HYD_PROPERTY_PANEL_WIDTH 360

#define HYD_TYPE_PROPERTY_PANEL (hyd_property_panel_get_type ())
G_DECLARE_FINAL_TYPE (HydPropertyPanel, hyd_property_panel, HYD, PROPERTY_PANEL, GtkWidget)

GtkWidget *hyd_property_panel_new (void);
void hyd_property_panel_set_document (HydPropertyPanel *self, HydDocument *document);
/* Component and junction ids, as the canvas reports its selection. */
void hyd_property_panel_set_selection (HydPropertyPanel *self, const char *const *ids);
const char *hyd_property_panel_get_component (HydPropertyPanel *self);
void hyd_property_panel_set_running (HydPropertyPanel *self, gboolean running);
/* While running, the sliders show the run's values: what was asked live,
 * else the parameter's profile now. */
typedef gboolean (*HydPropertyPanelLiveLookup) (const char *component, const char *param, double *value,
                                                gpointer user_data);
void hyd_property_panel_set_live_lookup (HydPropertyPanel *self, HydPropertyPanelLiveLookup lookup,
                                         gpointer user_data);
/* Let the sliders follow the run (those the user is not moving). */
void hyd_property_panel_refresh_live (HydPropertyPanel *self);
/* Move a slider to a value a run reports (a lever operated on the canvas),
 * without emitting "live-change". */
void hyd_property_panel_show_live_value (HydPropertyPanel *self, const char *component, const char *param,
                                         double value);

/* Before a run (commit TRUE): commits every field whose text is valid and
 * differs from the circuit (F5 pressed with the cursor still in a field).
 * Returns the name of the first parameter whose text is not valid (with why
 * in *message, translated), or NULL when every field is fine. */
const char *hyd_property_panel_check_entries (HydPropertyPanel *self, gboolean commit, char **message);

/* For tests: the editor widget of a parameter of the shown component (a
 * GtkEntry or a GtkDropDown), its slider (GtkScale, or NULL) and its
 * message label. */
GtkWidget *hyd_property_panel_get_editor (HydPropertyPanel *self, const char *param);
GtkWidget *hyd_property_panel_get_slider (HydPropertyPanel *self, const char *param);
GtkWidget *hyd_property_panel_get_message (HydPropertyPanel *self, const char *param);
/* ... and its "restore the default" button. */
GtkWidget *hyd_property_panel_get_reset (HydPropertyPanel *self, const char *param);

/* Signals:
 *   "live-change" (const char *component, const char *param, double value)
 *   "help-requested" (const char *type_id)
 *   "study-requested" (const char *component, const char *param): "Vary in
 *     a Study…" on a numeric parameter (its field's context menu, or a
 *     right click on its name; the action panel.vary-in-study, target the
 *     parameter) */

G_END_DECLS
