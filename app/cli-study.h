/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-study.h — what `sweep` and `optimize` share (cli-sweep.c): the run
 * options of `simulate` without --stats, and a study set up from them. */
#pragma once

#include <glib.h>

#include "cli-run.h"
#include "hyd-study.h"

/* The run options of simulate (cli-run.h) but --stats, into entries
 * (HYD_CLI_RUN_N_ENTRIES − 1 of them). */
guint hyd_cli_study_run_entries (HydCliRunArgs *args, GOptionEntry *entries);

/* Load, --set, options and compile as simulate does (the compile's
 * warnings printed), then a study of it with the --vary and --metric
 * texts and the design, prepared. A run keeps its metrics' samples: more
 * than HYD_RUN_MAX_SAMPLES a run, or `jobs` runs at a time needing more
 * than half the memory available, is refused. 0, or the status of the
 * error printed (a malformed --vary or --metric is a usage error). */
int hyd_cli_study_prepare (const char *path, const HydCliRunArgs *args, GOptionContext *ctx, char **vary,
                           char **metrics, HydStudyDesign design, guint64 n, guint64 seed, guint jobs,
                           HydStudy **study);
