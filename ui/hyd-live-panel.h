/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-live-panel.h — every live-tunable parameter of the running circuit
 * on one page: a slider for each parameter that accepts a profile
 * (HYD_PARAM_PROFILE: set-points, gains, valve commands, pump speeds,
 * loads), grouped by component, so that a class can tune a loop while it
 * runs and watch it ring or settle. The list is built once when a run
 * starts (never per frame); while it runs the sliders follow the run's
 * values (at most four times a second, and only while the page is shown)
 * except the one being moved. A moved slider emits "live-change" at most
 * ten times a second, the last value always, as the property panel's
 * sliders do; the window sends it to the run, which logs it with its time
 * and marks it on the plots. */
#pragma once

#include <gtk/gtk.h>
#include "hyd-circuit.h"

G_BEGIN_DECLS

#define HYD_TYPE_LIVE_PANEL (hyd_live_panel_get_type ())
G_DECLARE_FINAL_TYPE (HydLivePanel, hyd_live_panel, HYD, LIVE_PANEL, GtkWidget)

/* At most this many sliders are listed (a circuit of thousands of parts
 * would otherwise build thousands of widgets); the rest are named by count,
 * still reachable through the property panel. */
#define HYD_LIVE_PANEL_MAX_SLIDERS 120

GtkWidget *hyd_live_panel_new (void);
/* A run of `circuit` has started: list its live parameters (the circuit is
 * read now, not kept). A second call during the same run changes nothing.
 * NULL: no run; the list is dropped and a note says what the page is for. */
void hyd_live_panel_set_run (HydLivePanel *self, const HydCircuit *circuit);
gboolean hyd_live_panel_get_running (HydLivePanel *self);
/* The run's value of a parameter: what was asked live, else its profile now. */
typedef gboolean (*HydLivePanelLookup) (const char *component, const char *param, double *value,
                                        gpointer user_data);
void hyd_live_panel_set_lookup (HydLivePanel *self, HydLivePanelLookup lookup, gpointer user_data);
/* Let the sliders follow the run (throttled; nothing while unmapped). */
void hyd_live_panel_refresh (HydLivePanel *self);
/* Move a slider to a value the run reports (a lever thrown on the canvas)
 * without emitting "live-change". */
void hyd_live_panel_show_value (HydLivePanel *self, const char *component, const char *param, double value);

/* The slider of a component's parameter (GtkScale), or NULL; the number of
 * sliders and of live parameters left out (beyond the maximum). */
GtkWidget *hyd_live_panel_get_slider (HydLivePanel *self, const char *component, const char *param);
guint hyd_live_panel_get_n_sliders (HydLivePanel *self);
guint hyd_live_panel_get_n_omitted (HydLivePanel *self);
/* "C.param" of slider i (i < n_sliders), for the window's geometry dump. */
const char *hyd_live_panel_get_slider_name (HydLivePanel *self, guint i, GtkWidget **slider);

/* Signals:
 *   "live-change" (const char *component, const char *param, double value) */

G_END_DECLS
