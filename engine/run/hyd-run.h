/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-run.h — a simulation run: a compiled system integrated with a solver,
 * streaming the chosen variables at every output sample.
 *
 * The same job runs synchronously for the CLI and the tests, and in a worker
 * thread for the GUI (design/architecture.md, Runs and threads). */
#pragma once

#include "hyd-system.h"

G_BEGIN_DECLS

/* Called at every output sample with the values of the run's variables.
 * Return FALSE to stop the run (status CANCELLED). */
typedef gboolean (*HydRunSampleFunc) (double t, const double *values, guint n_values, gpointer user);

/* One entry of a run's change log: a parameter made constant from time t on
 * (design/architecture.md: the plots mark it, a saved run replays it). */
typedef struct {
  double t;           /* s: the output sample at which it took effect */
  char *component;    /* component id */
  char *param;        /* parameter name */
  double old_value;   /* SI: the value in force just before */
  double new_value;   /* SI: the value from t on, clamped to the range */
} HydRunChange;

HydRunChange *hyd_run_change_new (double t, const char *component, const char *param,
                                  double old_value, double new_value);
HydRunChange *hyd_run_change_copy (const HydRunChange *change);
void hyd_run_change_free (HydRunChange *change);

/* Live changes: called at every output sample t before it is reported,
 * except the first of an integration and the last (t_end). Appends the
 * changes wanted from t on to `requests` (new HydRunChange with component,
 * param and new_value; t and old_value are filled in when applied) and
 * returns TRUE when it appended any. */
typedef gboolean (*HydRunPollFunc) (double t, GPtrArray *requests, gpointer user);
/* Called for every change applied (live or replayed), with its record. */
typedef void (*HydRunChangeFunc) (const HydRunChange *change, gpointer user);

typedef struct {
  const HydSimOptions *sim;   /* t_end, solver, tolerances, steps, output interval */
  gboolean fd_jacobian;
  const gint *cancel;         /* atomic cancel flag, may be NULL */
  const int *vars;            /* variables to report (hyd_system_find_variable) */
  guint n_vars;
  HydRunSampleFunc sample;
  gpointer user;             /* for sample, poll and changed */

  /* Parameter changes during the run (all optional; hyd-runner.h drives
   * them live). A change is applied at an output sample t: the integration
   * stops there before the sample is reported, the parameter becomes the
   * constant (hyd_system_override_param), and the same integrator is
   * reinitialised at (t, y(t)) (hyd_ode_stepper_reinit: fresh step control
   * and Jacobian) on the same sample grid, its first sample t holding the
   * values after the change (as at a breakpoint). */
  const GPtrArray *replay;   /* of HydRunChange*, by time: each is applied at
                                the first output sample at or after its t
                                (before the run when t ≤ 0), so a logged run
                                replays exactly */
  HydRunPollFunc poll;       /* live requests */
  HydRunChangeFunc changed;  /* each change applied */
  GPtrArray *change_log;     /* may be NULL: applied changes are appended
                                (new HydRunChange*; give the array
                                hyd_run_change_free as free function) */
  HydOdeStats *progress;     /* may be NULL: the run's statistics so far,
                                kept up to date before every sample call */
  GPtrArray *diagnostics;    /* may be NULL: the run's warnings as data are
                                appended (HydDiagnostic*, with the time; give
                                the array hyd_diagnostic_list_new), the same
                                ones, in the same order, as the text of the
                                `warnings` of hyd_run_execute */
  HydOdeStepLog *step_log;   /* may be NULL: every attempted step is recorded
                                (HydOdeOptions.step_log) */
} HydRunSpec;

/* The most output samples one run reports (10^8): a bound that a file's
 * output_interval and t_end cannot exceed, whoever consumes the samples
 * (a CSV of 10^8 rows of a few columns is already gigabytes). Callers that
 * store or write samples check their own budget (memory, free disk space)
 * with hyd_run_count_samples before the run. */
#define HYD_RUN_MAX_SAMPLES 1e8

/* An upper bound of the samples a run of `sim` reports: the grid points
 * k·output_interval before t_end, and t_end (changes and breakpoints add
 * none). INFINITY when output_interval is not > 0 (every step). */
double hyd_run_count_samples (const HydSimOptions *sim);

/* Integrate sys from its initial state. Warnings (vapour pressure reached,
 * a requested change refused, ...) are appended to `warnings` (may be NULL).
 * The result holds the status, statistics (summed over the integrations
 * that changes separate) and a message naming the time and the state on
 * failure. A run of more than HYD_RUN_MAX_SAMPLES samples does not start:
 * HYD_ODE_BAD_INPUT, with a message naming output_interval and t_end. A change modifies sys: run a fresh compile to start over. */
HydOdeStatus hyd_run_execute (HydSystem *sys, const HydRunSpec *spec,
                              HydOdeResult *result, GPtrArray *warnings);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydRunChange, hyd_run_change_free)

G_END_DECLS
