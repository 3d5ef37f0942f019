/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-output-h5.h — `bramah-cli simulate -o FILE.h5`: the run streamed
 * into an HDF5 file (cli-output-h5.c, docs/cli.md "HDF5 output"). */
#pragma once

#include <glib.h>

#include "cli-run.h"

/* Run the prepared circuit and write its samples to `output` (an HDF5
 * file, written atomically like the CSV). The command's exit status. */
int hyd_cli_simulate_hdf5 (const char *circuit_path, const char *output, HydCircuit *circuit, HydSystem *sys,
                           const HydSimOptions *sim, const HydCliRunArgs *args, const GArray *vars,
                           double n_samples);

/* --format and -o's extension: *hdf5 TRUE for HDF5 output (--format hdf5,
 * or -o FILE.h5 / FILE.hdf5 without --format). 0, or the status of the
 * usage error printed (a MAT file, HDF5 to stdout, HDF5 with --summary). */
int hyd_cli_simulate_choose_format (GOptionContext *ctx, const char *format, const char *output, gboolean summary,
                                    gboolean *hdf5);
