/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-circuit.h — what the commands that read a circuit share
 * (cli-command.c): loading it with the error printed, its warnings, and
 * numbers as the CSV writes them. */
#pragma once

#include <glib.h>

#include "cli-commands.h"
#include "cli-diagnostic.h"
#include "hyd-circuit.h"
#include "hyd-linearize.h"
#include "hyd-system.h"

/* Load a circuit; on failure print the loader's message (in the user's
 * language, cli-diagnostic.h) and set *status to HYD_CLI_EXIT_FAILED. */
HydCircuit *hyd_cli_load_circuit (const char *path, int *status);
/* Load a circuit, read its simulation settings into *sim and compile it,
 * printing the compile's warnings; *circuit (when not NULL) gets the
 * circuit. On failure the error is printed, *status set, NULL returned. */
HydSystem *hyd_cli_compile_circuit (const char *path, HydCircuit **circuit, HydSimOptions *sim, int *status);
/* For the commands that work on the dense Jacobian at a moment (explain,
 * linearize): refuse more than 2000 states, saying what `command` needs
 * them for (`dense`), then run sys to `at` with the circuit's tolerances
 * (hyd_operating_point_run). On failure the error is printed, *status
 * set, NULL returned. */
HydOperatingPoint *hyd_cli_run_to (const char *path, const char *command, const char *dense, HydSystem *sys,
                                   const HydSimOptions *sim, double at, int *status);
/* %.10g whatever the locale, "nan" for NaN; returns buf. */
const char *hyd_cli_format_number (char buf[G_ASCII_DTOSTR_BUF_SIZE], double v);

/* The ranges of the numeric options (docs/cli.md): wide, but finite. */
#define HYD_CLI_MAX_TIME 1e9      /* s: --t-end, --fixed-step, --output-interval, --at */
#define HYD_CLI_MAX_ATOL 1e10     /* SI: Pa, m, m³/s, ... */
#define HYD_CLI_MAX_POINTS 10000  /* jacobian-check --points */
