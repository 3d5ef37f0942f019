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

typedef struct {
  const HydSimOptions *sim;   /* t_end, solver, tolerances, steps, output interval */
  gboolean fd_jacobian;
  const gint *cancel;         /* atomic cancel flag, may be NULL */
  const int *vars;            /* variables to report (hyd_system_find_variable) */
  guint n_vars;
  HydRunSampleFunc sample;
  gpointer user;
} HydRunSpec;

/* Integrate sys from its initial state. Warnings (vapour pressure reached,
 * ...) are appended to `warnings` (may be NULL). The result holds the status,
 * statistics and a message naming the time and the state on failure. */
HydOdeStatus hyd_run_execute (HydSystem *sys, const HydRunSpec *spec,
                              HydOdeResult *result, GPtrArray *warnings);

G_END_DECLS
