/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-plot-panes.h — the plot panes below the schematic: two or three
 * HydPlotViews side by side in paned splits, restored from the circuit's
 * "plots", with a "+" to add a pane. Each pane has a variable list to add
 * and remove traces, and exports (PNG, SVG, PDF, CSV). The canvas's probe
 * tool adds traces to the active pane (the one last clicked). */
#pragma once

#include <gtk/gtk.h>
#include "hyd-circuit.h"
#include "hyd-plot-view.h"
#include "hyd-trace-store.h"

G_BEGIN_DECLS

#define HYD_TYPE_PLOT_PANES (hyd_plot_panes_get_type ())
G_DECLARE_FINAL_TYPE (HydPlotPanes, hyd_plot_panes, HYD, PLOT_PANES, GtkWidget)

#define HYD_PLOT_PANES_MAX 6

GtkWidget *hyd_plot_panes_new (void);
/* Panes as the circuit's "plots" say (two empty ones when it has none). */
void hyd_plot_panes_load (HydPlotPanes *self, const HydCircuit *circuit);
/* The panes as a "plots" array for the file (JSON, new reference). */
JsonArray *hyd_plot_panes_to_json (HydPlotPanes *self);
void hyd_plot_panes_set_stores (HydPlotPanes *self, HydTraceStore *store, HydTraceStore *ghost);
/* The variables the trace lists offer (NULL-terminated). */
void hyd_plot_panes_set_variables (HydPlotPanes *self, const char *const *names);
/* The units of the circuit's variables, for the axes of every pane before
 * a run (hyd_plot_view_set_variable_units); units has one entry more than
 * names has names (copied). */
void hyd_plot_panes_set_variable_units (HydPlotPanes *self, const char *const *names, const HydUnit *units);
/* the names the "+" list offers (NULL: none yet) */
const char *const *hyd_plot_panes_get_variables (HydPlotPanes *self);
/* Add a trace to the active pane (a new pane when there is none). */
void hyd_plot_panes_add_trace (HydPlotPanes *self, const char *name);
void hyd_plot_panes_add_pane (HydPlotPanes *self, const char *title, const char *const *traces);
guint hyd_plot_panes_get_n_panes (HydPlotPanes *self);
HydPlotView *hyd_plot_panes_get_view (HydPlotPanes *self, guint index);
guint hyd_plot_panes_get_active (HydPlotPanes *self);
/* The replay cursor of every pane (NaN: none). */
void hyd_plot_panes_set_replay_time (HydPlotPanes *self, double t);

/* Signals:
 *   "changed" ()  the user changed the panes or their traces (saved with
 *                 the circuit)
 *   "export-requested" (guint pane, const char *format) */

G_END_DECLS
