/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-plot-plan.h — what a plot pane draws, as plain data: the strips (one
 * per unit) with their traces, the time window, the decimated series, the
 * y ranges and ticks, the event markers. No GTK, cairo or PLplot here, so
 * the data maths is tested without a display (tests/ui/test-plot-plan.c);
 * hyd-plot-view.c measures text, lays out and draws. */
#pragma once

#include <glib.h>
#include "hyd-trace-store.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------ decimate -- */

/* Reduce the samples (t[i], y[i]), i < n, of a trace to a polyline for a
 * plot n_columns pixels wide (see hyd_plot_decimate in hyd-plot-view.h). */
guint hyd_plot_decimate (const double *t, const double *y, gsize n, double x0, double x1,
                         guint n_columns, GArray *xs, GArray *ys);

typedef struct _HydPlotColumn HydPlotColumn;

/* The decimation of one trace, fed incrementally: a run streams rows in
 * while the time axis stays [0, t_end], so each render only reads the new
 * rows. Valid for one store, column, range and width. Zero-initialised is
 * empty; the fields are private. */
typedef struct {
  HydTraceStore *store;   /* owned; NULL: empty */
  int column;
  double x0, x1;
  guint n_columns;
  gsize n_done;           /* rows consumed */
  gsize n_inside;         /* of which inside [x0, x1] */
  guint compactions;      /* the store's thinning count when fed (its rows move then) */
  HydPlotColumn *cols;
} HydPlotEnvelope;

void hyd_plot_envelope_clear (HydPlotEnvelope *e);
/* The polyline of column `column` of store over [x0, x1], through e. */
void hyd_plot_envelope_update (HydPlotEnvelope *e, HydTraceStore *store, int column, double x0, double x1,
                               guint n_columns, GArray *xs, GArray *ys);

/* ---------------------------------------------------------------- axes -- */

#define HYD_PLOT_AUTOSCALE_PAD 0.04   /* fraction of the span added each side */

/* A "nice" step (1, 2, 2.5 or 5 × 10^k) near span / n_wanted. */
double hyd_plot_nice_step (double span, double n_wanted);
/* Make [lo, hi] a usable, finite, non-empty range. */
void hyd_plot_valid_range (double *lo, double *hi);

/* How an axis writes its tick labels. */
typedef struct {
  int decimals;
  gboolean exponent;   /* values too large or small for plain decimals */
  double step;
} HydPlotAxisFormat;

HydPlotAxisFormat hyd_plot_axis_format (double lo, double hi, double step);
/* A tick label (a typographic minus; "%.*f" in the current locale). */
char *hyd_plot_format_tick (const HydPlotAxisFormat *f, double value);

/* A strip's y range and tick step from the range of its data (display
 * units; data_lo > data_hi: no data) and the ticks its height has room for.
 * A manual range is kept as given (made valid); an automatic one gets
 * HYD_PLOT_AUTOSCALE_PAD of the span each side, keeps zero as the edge of
 * data that never crosses it, and is snapped outwards to half steps. */
void hyd_plot_y_range (double data_lo, double data_hi, gboolean manual, double manual_lo, double manual_hi,
                       double n_ticks, double *lo, double *hi, double *step);

/* The ticks lo ≤ v ≤ hi, multiples of step (at most ~200): calls
 * each (label, data) with the formatted label; returns how many. */
guint hyd_plot_foreach_tick (double lo, double hi, const HydPlotAxisFormat *f,
                             void (*each) (const char *label, gpointer data), gpointer data);

/* The time window: from the first sample (or 0) to the run's end time, or
 * to the last sample when the end is unknown; the current run alone sets
 * it, the ghost only when there is no current run. Either may be NULL. */
void hyd_plot_time_window (HydTraceStore *store, HydTraceStore *ghost, double *x0, double *x1);

/* The pixel column of time t on a time axis [x0, x1] drawn from left to
 * right; FALSE (x untouched) when t is outside the window or either
 * interval is empty. */
gboolean hyd_plot_time_to_x (double t, double x0, double x1, double left, double right, double *x);

/* The value of column `column` of store at time t, linearly interpolated
 * between samples; NaN outside the samples (the cursor read-out). */
double hyd_plot_value_at (HydTraceStore *store, int column, double t);

/* ---------------------------------------------------------------- plan -- */

typedef struct {
  HydUnit unit;
  GArray *traces;           /* guint: the traces in this strip, in order (its legend) */
  double data_lo, data_hi;  /* display units, samples inside the window (lo > hi: none) */
  double lo, hi, step;      /* the y axis, once hyd_plot_plan_set_y_axis ran */
  HydPlotAxisFormat format;
} HydPlotStrip;

typedef struct {
  double x0, x1;            /* the time window, s */
  guint n_strips;           /* ≥ 1 (one empty strip without traces) */
  HydPlotStrip *strips;
  guint n_traces;
  guint *trace_strip;       /* the strip of each trace */
  GArray **xs, **ys;        /* [2·trace + g], g = 0 the run, 1 the ghost:
                             * decimated, y in display units */
  GArray *markers;          /* double: the run's marker times inside the window */
  gboolean ghost_entry;     /* the first strip's legend ends with "previous run" */
} HydPlotPlan;

/* The strips of traces with these units (one per distinct unit, in the
 * order of first use), the time window and the markers of store and ghost
 * (either may be NULL). The series are empty until added. */
HydPlotPlan *hyd_plot_plan_new (const HydUnit *trace_units, guint n_traces, HydTraceStore *store,
                                HydTraceStore *ghost);
void hyd_plot_plan_free (HydPlotPlan *plan);
/* Take the decimated series (SI) of trace i, g = 0 the run, 1 the ghost:
 * converts it to display units and widens its strip's data range. */
void hyd_plot_plan_set_series (HydPlotPlan *plan, guint i, guint g, GArray *xs, GArray *ys);
/* Set strip s's y axis (hyd_plot_y_range) and tick format. */
void hyd_plot_plan_set_y_axis (HydPlotPlan *plan, guint s, gboolean manual, double manual_lo, double manual_hi,
                               double n_ticks);
/* The legend entries of strip s: its traces, plus "previous run". */
guint hyd_plot_plan_legend_entries (const HydPlotPlan *plan, guint s);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydPlotPlan, hyd_plot_plan_free)

G_END_DECLS
