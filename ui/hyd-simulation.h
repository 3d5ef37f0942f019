/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-simulation.h — the window's live simulation: one HydRunner at a time
 * (engine/run/hyd-runner.h), its samples streamed into a HydTraceStore for the
 * plots, the latest sample for the canvas's animation, the previous run kept
 * as a ghost, and the live parameter changes marked on the plots. Main
 * thread only; no GTK. */
#pragma once

#include <gio/gio.h>
#include "hyd-circuit.h"
#include "hyd-runner.h"
#include "hyd-trace-store.h"

G_BEGIN_DECLS

#define HYD_TYPE_SIMULATION (hyd_simulation_get_type ())
G_DECLARE_FINAL_TYPE (HydSimulation, hyd_simulation, HYD, SIMULATION, GObject)

HydSimulation *hyd_simulation_new (void);

/* Compile `circuit` and start a run (a running one is stopped first). With
 * keep-ghost, the previous run's store becomes the ghost. `sim` may be NULL
 * (the circuit's own options with hyd_simulation_set_tlm's settings). On error nothing runs and the stores stay. */
gboolean hyd_simulation_start (HydSimulation *self, const HydCircuit *circuit, const HydSimOptions *sim,
                               GError **error);
/* As hyd_simulation_start, with the compile in a worker thread, so that a
 * large circuit never blocks input (the circuit is copied first, with the
 * circuit's own options and hyd_simulation_set_tlm's settings). The run starts on the main thread when the
 * compile ends, before `callback` is called; hyd_simulation_start_finish
 * then gives TRUE, or the compile's error, or G_IO_ERROR_CANCELLED when a
 * stop, a reset or another start came first (then nothing starts). While
 * it compiles, the simulation is starting, and active. */
void hyd_simulation_start_async (HydSimulation *self, const HydCircuit *circuit,
                                 GAsyncReadyCallback callback, gpointer user_data);
gboolean hyd_simulation_start_finish (HydSimulation *self, GAsyncResult *result, GError **error);
gboolean hyd_simulation_get_starting (HydSimulation *self);
void hyd_simulation_pause (HydSimulation *self);
void hyd_simulation_resume (HydSimulation *self);
void hyd_simulation_stop (HydSimulation *self);
/* Stop, and forget the current run and the ghost. */
void hyd_simulation_reset (HydSimulation *self);

/* READY when there is no run. */
HydRunnerState hyd_simulation_get_state (HydSimulation *self);
/* Starting (start_async), running or paused. */
gboolean hyd_simulation_get_active (HydSimulation *self);
HydRunner *hyd_simulation_get_runner (HydSimulation *self);
HydTraceStore *hyd_simulation_get_store (HydSimulation *self);
HydTraceStore *hyd_simulation_get_ghost (HydSimulation *self);
void hyd_simulation_set_keep_ghost (HydSimulation *self, gboolean keep_ghost);
gboolean hyd_simulation_get_keep_ghost (HydSimulation *self);
void hyd_simulation_set_real_time_factor (HydSimulation *self, double factor);
double hyd_simulation_get_real_time_factor (HydSimulation *self);
/* The application's settings for the tlm solver, which the circuit file does
 * not hold: its filter constant (NaN: the engine's default, 0.2) and the
 * threads its partitions step in (0 or 1: one). Every later start without
 * explicit options (`sim` NULL, start_async) runs with them; other solvers
 * ignore them. */
void hyd_simulation_set_tlm (HydSimulation *self, double filter, guint threads);
void hyd_simulation_get_tlm (HydSimulation *self, double *filter, guint *threads);

/* A live what-if change (clamped to the range by the runner). */
gboolean hyd_simulation_set_param (HydSimulation *self, const char *component, const char *param,
                                   double value, GError **error);
/* The value of a parameter in the run now: what a live change last asked
 * for, else the circuit's value (its profile at the latest sample): for
 * sliders and lever toggles. FALSE when unknown. */
gboolean hyd_simulation_get_param (HydSimulation *self, const char *component, const char *param,
                                   double *value);

/* The latest sample of a variable ("C1.x", "PU1.P.p"): FALSE before the
 * first sample or for an unknown name. */
gboolean hyd_simulation_lookup (HydSimulation *self, const char *name, double *value);
/* Replay (issue 8): show the run's sample at time t (the last one at or
 * before t) instead of the latest: hyd_simulation_lookup, the voids and the
 * cavitation then read that sample, so the schematic shows the circuit as it
 * was at t. NaN follows the run again (the latest sample). A new run
 * follows. */
void hyd_simulation_show_time (HydSimulation *self, double t);
/* The time of the sample shown by hyd_simulation_show_time, or NaN. */
double hyd_simulation_get_shown_time (HydSimulation *self);
/* Electrical control (docs/electrical.md): the level of the electrical net
 * a component's port is on, in the sample shown (the latest, or the one
 * replayed): bit 0 joined to +24 V, bit 1 to 0 V, bit 2 carries current
 * (hyd_system_get_elec_levels). The levels come from a second compile of
 * the circuit made with the run's (only when it has electrical ports) and
 * the discrete states of that sample, worked out once per sample shown.
 * FALSE before the first sample, for a port on no electrical net, or with
 * no run. */
gboolean hyd_simulation_get_elec_level (HydSimulation *self, const char *component, const char *port,
                                        guint *level);
/* The variable names of the current run (without "t"), or NULL. */
GStrv hyd_simulation_dup_variables (HydSimulation *self);
void hyd_simulation_get_progress (HydSimulation *self, HydRunnerProgress *progress);
const HydOdeResult *hyd_simulation_get_result (HydSimulation *self);
/* The circuit the current run was compiled from (a copy), or NULL. */
const HydCircuit *hyd_simulation_get_circuit (HydSimulation *self);

/* Signals:
 *   "state-changed" ()       started, paused, resumed, finished, reset
 *   "samples" ()             new rows are in the store
 *   "warning" (const char *)
 *   "finished" ()            the run ended (hyd_simulation_get_result) */

/* The live schematic: whether the latest sample `row` (n values, t first)
 * would change what the schematic shows since the sample it last drew: some
 * variable moved by more than 0.2 % of the largest magnitude it has had in
 * the run (less than a pixel of a stroke or a step of the colour scale).
 * `drawn` (a GArray of double, empty at the start of a run) keeps the sample
 * drawn and the magnitudes; it takes `row` when TRUE is returned. */
gboolean hyd_live_sample_changed (GArray *drawn, const double *row, guint n);

/* ---- the pressure colour scale and cavitation (issue 8) ----
 *
 * The scale the schematic colours pressures on, and that its legend shows:
 * from 0 bar gauge to 1.2 × the highest pressure a component of the circuit
 * sets (relief valve cracking pressure, pressure source), rounded up to a
 * round number of bar (a multiple of half a power of ten: 120 → 150 bar,
 * 12 → 15 bar); 200 bar when nothing sets one. The 20 % leave room for a
 * relief valve's override. Pressures above the top take the top colour. */
double hyd_pressure_scale_max (const HydCircuit *circuit); /* Pa */
#define HYD_PRESSURE_SCALE_DEFAULT 2e7

/* The cavitating nodes of a sample, for the status line: a node whose
 * "<first port>.void" variable (m³) is > 0, named with its void in litres
 * ("C1.B (0.26 L)"); with no void variable for a node, one whose pressure
 * "<port>.p" is below p_cavitation (Pa gauge), named with its pressure in
 * bar ("C1.B (−0.95 bar)"). names[n] and values[n] are the columns and one
 * row of them. NULL when none cavitates; at most four are named, then
 * "and N more". */
char *hyd_cavitation_describe (const char *const *names, const double *values, guint n, double p_cavitation);
/* The same for the sample shown now (hyd_simulation_lookup). */
char *hyd_simulation_describe_cavitation (HydSimulation *self, double p_cavitation);
/* The void volume (m³) of the node a port belongs to in the sample shown
 * now: FALSE when the run has no void variable for it (the engine does not
 * track voids, or the node is a boundary). */
gboolean hyd_simulation_port_void (HydSimulation *self, const char *component, const char *port, double *volume);

G_END_DECLS
