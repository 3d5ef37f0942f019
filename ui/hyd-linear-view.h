/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-linear-view.h — the "Linear Analysis" window (docs/analysis.md): the
 * linear model of one input (a profile parameter of a component) and one
 * output (a variable) around the state a run reaches at t, as `bramah-cli
 * linearize` builds it: its Bode plot (Cairo) and its poles and zeros. A
 * worker thread runs the circuit to t with the default solver. */
#pragma once

#include <gtk/gtk.h>
#include "hyd-circuit.h"

G_BEGIN_DECLS

#define HYD_TYPE_LINEAR_VIEW (hyd_linear_view_get_type ())
G_DECLARE_FINAL_TYPE (HydLinearView, hyd_linear_view, HYD, LINEAR_VIEW, GtkWindow)

/* A window over parent for `circuit` (copied) at t (s, ≥ 0). Nothing is
 * computed until an input and an output are chosen (or set). */
HydLinearView *hyd_linear_view_new (GtkWindow *parent, const HydCircuit *circuit, double t);

/* The inputs offered ("C1.load_force", …: every profile parameter) and the
 * outputs (the circuit's variables); NULL-terminated, owned by the view. */
const char *const *hyd_linear_view_get_inputs (HydLinearView *self);
const char *const *hyd_linear_view_get_outputs (HydLinearView *self);
/* Choose and compute (as the drop-downs do). FALSE for a name not offered. */
gboolean hyd_linear_view_set_pair (HydLinearView *self, const char *input, const char *output);

/* TRUE once the last requested model is there or failed. Signal
 * "ready" () when it is. */
gboolean hyd_linear_view_get_ready (HydLinearView *self);
const char *hyd_linear_view_get_error (HydLinearView *self);
/* The frequency (Hz) of the largest magnitude on the Bode grid, NAN before. */
double hyd_linear_view_get_peak_frequency (HydLinearView *self);
/* The text beside the plot: poles and zeros. */
const char *hyd_linear_view_get_text (HydLinearView *self);

G_END_DECLS
