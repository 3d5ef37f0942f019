/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-main.h — the start of a bramah-cli process, shared by its two
 * executables (app/meson.build): bramah-cli, which runs the engine's
 * commands itself, and bramah-cli-graphics, which runs those that draw or
 * compare against SUNDIALS (render, state-diagram, bench) and which
 * bramah-cli executes in its place for them. */
#pragma once

#include "cli-commands.h"

/* Replaces this process with `program` (argv[0] included, as given), with
 * glibc's huge-page heap when an argument is a circuit file of 1 MiB or
 * more (docs/cli.md, Environment). With `always` FALSE it executes only
 * for such a file: bramah-cli restarting itself ("/proc/self/exe"). It
 * returns only when it did not execute: 0, or the errno of the failed exec
 * (the environment is then as it was). */
int hyd_cli_exec (const char *program, char **argv, gboolean always);

/* What every command's process does first: the user's locale
 * (setlocale; the "bramah" catalogue is bound at the first translation,
 * cli-diagnostic.c), then hyd_cli_init_stdout. */
void hyd_cli_init_process (void);
/* Standard output's buffer, and at exit the check that everything written
 * to it arrived. Alone for bramah-cli's own help, which is not translated:
 * it needs no locale. */
void hyd_cli_init_stdout (void);

/* Runs one command: argv from the command word on; the program name
 * becomes "bramah-cli COMMAND" (GOption's help, "Try ... --help"). */
int hyd_cli_run_command (const HydCliCommand *command, int argc, char **argv);

/* Where bramah-cli-graphics is: in the build tree when bramah-cli runs
 * from it (hyd_running_uninstalled), else beside the installation —
 * LIBEXECDIR relative to the running bramah-cli's BINDIR, so that an
 * installation moved as a whole or unpacked under a DESTDIR finds its own
 * helper (an absolute LIBEXECDIR outside the prefix is used as it is).
 * Free the result. */
char *hyd_cli_graphics_path (void);
