/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-runner.h — a live simulation run for the GUI (design/architecture.md,
 * Runs and threads).
 *
 * A HydRunner is an immutable job: hyd_runner_new compiles its own system
 * from the circuit and copies the simulation options, so nothing in it points
 * into the caller's document. hyd_runner_start integrates it in a worker
 * thread ("bramah-run") with hyd_run_execute and streams what happens to the
 * main context it was given, in order:
 *
 *   "samples"  (const double *rows, guint n_rows): rows of every column
 *              (hyd_runner_get_n_columns; by default every variable of the
 *              system, "t" first), row-major, on the output sample grid,
 *              about 30 batches a second; each sample exactly once. The
 *              rows are valid during the emission only.
 *   "change"   (const HydRunChange *change): a parameter change took effect
 *              at change->t; the rows from t on follow it (a plot marker).
 *              Valid during the emission only; the log keeps a copy.
 *   "warning"  (const char *message): vapour pressure reached, a change
 *              refused, ...
 *   "finished" (): the final state (hyd_runner_get_state) and result
 *              (hyd_runner_get_result) are set; the worker has ended.
 *
 * The signals are emitted on the thread that runs the context, never on the
 * worker. A consumer connected with g_signal_connect_object is not called
 * after it is destroyed; a runner that is disposed during its run stops and
 * joins its worker, and what the worker had posted is dropped.
 *
 * Pause blocks the worker at its next output sample; stop ends the run at
 * once (state STOPPED). With a real-time factor r > 0 the worker sleeps until
 * wall time catches up with simulated time / r (1 = real time, 0.1 = slow
 * motion; 0 = as fast as possible). hyd_runner_set_param changes a parameter
 * live (a what-if slider): the worker applies it at its next output sample
 * as a discontinuity and records it in the change log, which
 * hyd_run_execute (HydRunSpec.replay) replays to the same samples.
 *
 * Every function is for the thread that runs the context given to
 * hyd_runner_start (before it: the caller's). */
#pragma once

#include <glib-object.h>
#include "hyd-run.h"

G_BEGIN_DECLS

#define HYD_TYPE_RUNNER (hyd_runner_get_type ())
G_DECLARE_FINAL_TYPE (HydRunner, hyd_runner, HYD, RUNNER, GObject)

typedef enum {
  HYD_RUNNER_READY,     /* created, not started */
  HYD_RUNNER_RUNNING,
  HYD_RUNNER_PAUSED,
  HYD_RUNNER_FINISHED,  /* reached t_end */
  HYD_RUNNER_STOPPED,   /* hyd_runner_stop */
  HYD_RUNNER_FAILED,    /* the solver failed: the result says when and why */
} HydRunnerState;

const char *hyd_runner_state_name (HydRunnerState state); /* "running", ... */

/* What the status line shows; as of the last batch delivered. */
typedef struct {
  double t;          /* s: time of the last sample delivered */
  double t_end;      /* s */
  guint64 samples;   /* samples delivered */
  guint64 steps;     /* accepted steps so far */
  guint64 rejected;  /* rejected steps so far */
  double wall_s;     /* wall time of the run so far, pauses excluded */
  double ratio;      /* t / wall_s: simulated seconds per wall second */
} HydRunnerProgress;

/* Compiles circuit. sim: the options to run with (copied), or NULL for the
 * circuit's own. Errors are those of hyd_system_compile and
 * hyd_circuit_get_sim_options. */
HydRunner *hyd_runner_new (const HydCircuit *circuit, const HydSimOptions *sim,
                           GError **error);

const HydSimOptions *hyd_runner_get_sim_options (HydRunner *runner);

/* The streamed columns. By default every variable of the system
 * (hyd_system_get_n_variables), in its order; before hyd_runner_start,
 * hyd_runner_set_columns may choose fewer (a NULL-terminated list of
 * variable names, any port alias accepted; an unknown name is a
 * HYD_CIRCUIT_ERROR_REFERENCE error and nothing changes). */
gboolean hyd_runner_set_columns (HydRunner *runner, const char *const *names, GError **error);
guint hyd_runner_get_n_columns (HydRunner *runner);
const char *hyd_runner_get_column_name (HydRunner *runner, guint column);
HydUnit hyd_runner_get_column_unit (HydRunner *runner, guint column);
/* The component whose discrete state the column is, or NULL
 * (hyd_system_get_variable_discrete). */
const char *hyd_runner_get_column_discrete (HydRunner *runner, guint column);
/* The column of a variable (any name hyd_system_find_variable knows; a
 * node's pressure by any of its ports), or −1. */
int hyd_runner_find_column (HydRunner *runner, const char *name);

/* Starts the worker; the signals are emitted on context (NULL: the thread
 * default context). Once. */
void hyd_runner_start (HydRunner *runner, GMainContext *context);
/* Paused before the start, a run starts paused (at its first sample). */
void hyd_runner_pause (HydRunner *runner);
void hyd_runner_resume (HydRunner *runner);
/* Stops a run (state STOPPED once "finished" arrives); before the start, the
 * runner is STOPPED at once and never starts. */
void hyd_runner_stop (HydRunner *runner);

/* ≥ 0; takes effect at the next sample, pacing from there. */
void hyd_runner_set_real_time_factor (HydRunner *runner, double factor);
double hyd_runner_get_real_time_factor (HydRunner *runner);

/* Asks for parameter `param` of component `comp_id` to become the constant
 * `value` (SI) at the run's next output sample. Checked at once with
 * hyd_system_check_override (unknown component or parameter, a choice, a
 * whole number, a value that is not finite: FALSE and error); the rest
 * (clamping to the range, cross-parameter rules, the model's structure) when
 * applied: a refused change becomes a "warning", an applied one a "change".
 * After the run has ended: HYD_CIRCUIT_ERROR_SIMULATION. */
gboolean hyd_runner_set_param (HydRunner *runner, const char *comp_id, const char *param,
                               double value, GError **error);

HydRunnerState hyd_runner_get_state (HydRunner *runner);
void hyd_runner_get_progress (HydRunner *runner, HydRunnerProgress *progress);
/* The final result (status, message, statistics, note) once "finished" was
 * emitted, else NULL. A stopped run has status HYD_ODE_CANCELLED. */
const HydOdeResult *hyd_runner_get_result (HydRunner *runner);
/* The changes delivered so far (of HydRunChange*, in time order): after
 * "finished", the run's change log, for HydRunSpec.replay. */
GPtrArray *hyd_runner_get_change_log (HydRunner *runner);
/* Compile warnings, then the warnings delivered so far (of char*). */
GPtrArray *hyd_runner_get_warnings (HydRunner *runner);
/* The same warnings as diagnostics (of HydDiagnostic*, hyd-diagnostic.h),
 * in the same order: each is in the list when "warning" is emitted. */
GPtrArray *hyd_runner_get_diagnostics (HydRunner *runner);
/* After a failed run (HYD_RUNNER_FAILED): the failure as a diagnostic
 * (HYD_DIAGNOSTIC_SOLVER_FAILED) with its time and the state of the
 * largest error and its component (and port, for a node's state); else
 * NULL. Unref it. */
HydDiagnostic *hyd_runner_dup_failure (HydRunner *runner);

G_END_DECLS
