/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-sim-bar.h — the simulation bar: Run / Pause / Stop / Reset (the
 * window's sim.* actions), the solver (every solver the engine has), end
 * time and tolerance (edits of the document's simulation settings, so they
 * are saved and undoable), the tlm solver's threads and filter (application
 * settings, shown while tlm is chosen), the real-time factor, the ghost toggle and the
 * run's progress. */
#pragma once

#include <gtk/gtk.h>
#include "hyd-document.h"

G_BEGIN_DECLS

#define HYD_TYPE_SIM_BAR (hyd_sim_bar_get_type ())
G_DECLARE_FINAL_TYPE (HydSimBar, hyd_sim_bar, HYD, SIM_BAR, GtkWidget)

GtkWidget *hyd_sim_bar_new (void);
void hyd_sim_bar_set_document (HydSimBar *self, HydDocument *document);
/* While a run is going the settings that shape it are locked. */
void hyd_sim_bar_set_running (HydSimBar *self, gboolean running);
/* fraction in [0, 1]; text may be NULL. */
void hyd_sim_bar_set_progress (HydSimBar *self, double fraction, const char *text);
/* 0 = as fast as possible, 1 = real time, 0.1 = slow motion. */
double hyd_sim_bar_get_real_time_factor (HydSimBar *self);
gboolean hyd_sim_bar_get_keep_ghost (HydSimBar *self);
void hyd_sim_bar_set_keep_ghost (HydSimBar *self, gboolean keep_ghost);
/* The solver chosen (an id of hyd_solver_list). */
const char *hyd_sim_bar_get_solver (HydSimBar *self);
/* The solver list's button (BRAMAH_DEBUG_GEOMETRY reports where it is). */
GtkWidget *hyd_sim_bar_get_solver_widget (HydSimBar *self);

/* The tlm solver's settings (shown only while tlm is chosen, locked while a
 * run goes): the threads its partitions step in, 1 to the processors of this
 * computer, and its filter constant, 0 to HYD_SIM_BAR_TLM_FILTER_MAX.
 * Application settings (the window keeps them in GSettings), not the
 * circuit's. */
#define HYD_SIM_BAR_TLM_FILTER_MAX 0.95
#define HYD_SIM_BAR_TLM_FILTER_DEFAULT 0.2
guint hyd_sim_bar_get_tlm_threads (HydSimBar *self);
void hyd_sim_bar_set_tlm_threads (HydSimBar *self, guint threads);
double hyd_sim_bar_get_tlm_filter (HydSimBar *self);
void hyd_sim_bar_set_tlm_filter (HydSimBar *self, double filter);

/* The replay slider (issue 8): shown after a run and while one is paused,
 * over the run's time span [t0, t1], at t (NaN: t1); hidden when t1 <= t0
 * or either is NaN. Moving it emits "replay" (double time, s). */
void hyd_sim_bar_set_replay (HydSimBar *self, double t0, double t1, double t);
/* The time on the slider, NaN when it is hidden. */
double hyd_sim_bar_get_replay_time (HydSimBar *self);
GtkWidget *hyd_sim_bar_get_replay_scale (HydSimBar *self);

/* Properties: "real-time-factor" (double), "keep-ghost" (boolean),
 * "tlm-threads" (uint), "tlm-filter" (double).
 * Signals: "replay" (double time). */

G_END_DECLS
