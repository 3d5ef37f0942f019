/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-state-diagram-pane.h — the "State diagram" page beside the plots: the
 * displacement–step diagram of the window's run (symbols/hyd-state-diagram.h,
 * the renderer bramah-cli state-diagram uses), drawn live while the run
 * streams and kept after it; a list to choose its rows; CSV, SVG and PDF
 * export. */
#pragma once

#include <gtk/gtk.h>
#include "hyd-simulation.h"
#include "hyd-state-diagram.h"

G_BEGIN_DECLS

#define HYD_TYPE_STATE_DIAGRAM_PANE (hyd_state_diagram_pane_get_type ())
G_DECLARE_FINAL_TYPE (HydStateDiagramPane, hyd_state_diagram_pane, HYD, STATE_DIAGRAM_PANE, GtkWidget)

GtkWidget *hyd_state_diagram_pane_new (void);
/* Follow this simulation's runs (NULL: none). */
void hyd_state_diagram_pane_set_simulation (HydStateDiagramPane *self, HydSimulation *simulation);
/* The diagram drawn now (NULL before a run); owned by the pane. */
const HydStateDiagram *hyd_state_diagram_pane_get_diagram (HydStateDiagramPane *self);
/* Every row the run offers (HydStateRow*), and whether each is shown.
 * Choosing a row's visibility redraws; the choice holds for later runs of
 * the same rows. */
const GPtrArray *hyd_state_diagram_pane_get_rows (HydStateDiagramPane *self);
void hyd_state_diagram_pane_set_row_shown (HydStateDiagramPane *self, const char *variable, gboolean shown);
gboolean hyd_state_diagram_pane_get_row_shown (HydStateDiagramPane *self, const char *variable);
/* The export button of a format ("csv", "svg", "pdf"), for the
 * end-to-end tests' geometry; NULL for another. */
GtkWidget *hyd_state_diagram_pane_get_export_button (HydStateDiagramPane *self, const char *format);
/* Redraw the replay's cursor (the simulation's shown time; none at NaN). */
void hyd_state_diagram_pane_show_replay (HydStateDiagramPane *self);
/* Export by extension (.csv, .svg, .pdf, .png) at the pane's width. */
gboolean hyd_state_diagram_pane_export (HydStateDiagramPane *self, const char *path, GError **error);

G_END_DECLS
