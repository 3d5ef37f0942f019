/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-run.h — what the commands that run a circuit share (cli-run.c):
 * `simulate` and `state-diagram` take the same run options, load, override
 * and compile the circuit the same way, and report a run's end the same
 * way. */
#pragma once

#include <glib.h>

#include "cli-circuit.h"
#include "hyd-run.h"
#include "hyd-system.h"

/* The run options as typed (NULL: not given). */
typedef struct {
  char *solver, *t_end, *rtol, *atol, *fixed_step, *output_interval, *events, *tlm_filter, *threads;
  char **sets;
  gboolean stats, fd_jacobian;
  HydOdeStepLog *step_log;   /* not an option: simulate's --step-log (the caller's) */
} HydCliRunArgs;

void hyd_cli_run_args_clear (HydCliRunArgs *args);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HydCliRunArgs, hyd_cli_run_args_clear)

/* The options' entries, in the order `--help` lists them: the first
 * HYD_CLI_RUN_N_MODEL (solver, t-end, rtol, atol, fixed-step,
 * output-interval, set), then stats, fd-jacobian, events, tlm-filter,
 * threads. */
enum {
  HYD_CLI_RUN_N_MODEL = 7,
  HYD_CLI_RUN_N_ENTRIES = 12,
};
void hyd_cli_run_entries (HydCliRunArgs *args, GOptionEntry entries[HYD_CLI_RUN_N_ENTRIES]);

/* Load `path`, apply --set, read its simulation options with the
 * overrides, compile, print the compile's warnings. 0, or the status of
 * the error printed (ctx for the usage hint; may be NULL). */
int hyd_cli_run_prepare (const char *path, const HydCliRunArgs *args, GOptionContext *ctx, HydCircuit **circuit,
                         HydSimOptions *sim, HydSystem **sys);

/* Run with the sample callback; prints the run's warnings, its note and
 * (--stats) its statistics. The status, the result for hyd_cli_run_report. */
HydOdeStatus hyd_cli_run_execute (HydSystem *sys, const HydSimOptions *sim, const HydCliRunArgs *args,
                                  const GArray *vars, HydRunSampleFunc sample, gpointer user,
                                  gboolean skip, HydOdeResult *res);
/* After the output is written: the note, --stats and the failure of a run
 * that did not succeed ("simulation failed (...)"), unless quiet (the
 * output's own error was reported). Returns `st`, or the failure's status. */
int hyd_cli_run_report (HydOdeStatus status, const HydOdeResult *res, const HydCliRunArgs *args, gboolean quiet,
                        int st);
