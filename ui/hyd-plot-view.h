/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-plot-view.h — one plot pane drawn with PLplot (extcairo, main thread,
 * into a cached surface), with live traces from a HydTraceStore. */
#pragma once

#include <gtk/gtk.h>
#include "hyd-trace-store.h"
#include "hyd-plot-plan.h"

G_BEGIN_DECLS

#define HYD_TYPE_PLOT_VIEW (hyd_plot_view_get_type ())
G_DECLARE_FINAL_TYPE (HydPlotView, hyd_plot_view, HYD, PLOT_VIEW, GtkWidget)

GtkWidget *hyd_plot_view_new (void);
void hyd_plot_view_set_title (HydPlotView *self, const char *title);
const char *hyd_plot_view_get_title (HydPlotView *self);
/* The current run (redraws as it grows) and, optionally, the previous run
 * drawn faded for comparison (NULL: none). */
void hyd_plot_view_set_store (HydPlotView *self, HydTraceStore *store);
void hyd_plot_view_set_ghost (HydPlotView *self, HydTraceStore *ghost);
/* Traces by variable name ("C1.x", "C1.A.p"); units come from the store. */
/* The units of the circuit's variables (names NULL-terminated, units[i]
 * that of names[i]), for the axes before a run has a store; NULL: none. */
void hyd_plot_view_set_variable_units (HydPlotView *self, const char *const *names, const HydUnit *units);
void hyd_plot_view_add_trace (HydPlotView *self, const char *name);
void hyd_plot_view_remove_trace (HydPlotView *self, const char *name);
GStrv hyd_plot_view_get_traces (HydPlotView *self);
/* Y range: automatic, or fixed in display units. */
void hyd_plot_view_set_autoscale (HydPlotView *self, gboolean autoscale);
void hyd_plot_view_set_y_range (HydPlotView *self, double ymin, double ymax);
/* Export by extension: .png, .svg, .pdf (the plot) or .csv (its traces, in
 * the plot's words and units: hyd_trace_store_write_csv). */
gboolean hyd_plot_view_export (HydPlotView *self, const char *path, GError **error);

/* Additions. */
HydTraceStore *hyd_plot_view_get_store (HydPlotView *self);
gboolean hyd_plot_view_get_autoscale (HydPlotView *self);
/* Traces of different units are drawn in stacked strips, one per unit, that
 * share the time axis. set_y_range fixes the strip of the first trace's unit;
 * this fixes the strip of any unit (display units). set_autoscale (FALSE)
 * holds the ranges shown; set_autoscale (TRUE) frees them all. */
void hyd_plot_view_set_unit_y_range (HydPlotView *self, HydUnit unit, double ymin, double ymax);
/* The y range of a unit's strip in the last render on screen (or in the last
 * export, for a view never shown), in display units; FALSE when no strip
 * shows that unit. */
gboolean hyd_plot_view_get_y_range (HydPlotView *self, HydUnit unit, double *ymin, double *ymax);
/* Export at a given size in pixels (points for SVG and PDF), whether or not
 * the view is shown; ≤ 0 picks 900 × 560. hyd_plot_view_export uses the
 * view's size when it is shown. */
gboolean hyd_plot_view_export_with_size (HydPlotView *self, const char *path, int width, int height,
                                         GError **error);

/* Min/max decimation (used by the view, public for tests): reduce samples
 * (t ascending) inside [x0, x1] to a polyline for a plot n_columns pixels
 * wide. Per column it keeps the first, the minimum, the maximum and the last
 * sample, in time order, all at the column's centre, so the line covers the
 * envelope of every sample of the column; with at most 4·n_columns samples
 * they are kept as they are. One sample on each side of [x0, x1] is kept so
 * the line reaches the edges. A NaN (or infinite) value breaks the line: a
 * NaN pair is written there. xs and ys (GArrays of double) are overwritten;
 * returns their length. */
/* (declared in hyd-plot-plan.h, which this header includes) */

/* The replay cursor (issue 8): a line at simulated time t over the plot,
 * drawn over the cached render (NaN: none). */
void hyd_plot_view_set_replay_time (HydPlotView *self, double t);
double hyd_plot_view_get_replay_time (HydPlotView *self);
/* What the last render (on screen or export) drew: its time axis, how many
 * strips got a legend, how many marker labels were written (a label with
 * no free place beside the others is left out). Any output may be NULL. */
void hyd_plot_view_get_render_info (HydPlotView *self, double *t0, double *t1, guint *n_legends,
                                    guint *n_marker_labels);

G_END_DECLS
