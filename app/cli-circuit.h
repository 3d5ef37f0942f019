/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-circuit.h — what the commands that read a circuit share
 * (cli-command.c): loading it with the error printed, its warnings, and
 * numbers as the CSV writes them. */
#pragma once

#include <glib.h>

#include "cli-commands.h"
#include "cli-diagnostic.h"
#include "hyd-circuit.h"

/* Load a circuit; on failure print the loader's message (in the user's
 * language, cli-diagnostic.h) and set *status to HYD_CLI_EXIT_FAILED. */
HydCircuit *hyd_cli_load_circuit (const char *path, int *status);
/* %.10g whatever the locale, "nan" for NaN; returns buf. */
const char *hyd_cli_format_number (char buf[G_ASCII_DTOSTR_BUF_SIZE], double v);

/* The ranges of the numeric options (docs/cli.md): wide, but finite. */
#define HYD_CLI_MAX_TIME 1e9      /* s: --t-end, --fixed-step, --output-interval, --at */
#define HYD_CLI_MAX_ATOL 1e10     /* SI: Pa, m, m³/s, ... */
#define HYD_CLI_MAX_POINTS 10000  /* jacobian-check --points */
