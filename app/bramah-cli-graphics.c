/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bramah-cli-graphics.c — the commands of bramah-cli that draw or compare
 * against SUNDIALS CVODE: render (Cairo), state-diagram (Cairo) and bench
 * (SUNDIALS, PLplot); and the parameter studies sweep (Open MPI, when
 * built with it) and optimize (NLopt). bramah-cli executes this program in its place for
 * them (bramah-cli.c), with the same arguments, so that bramah-cli itself
 * loads none of those libraries (app/meson.build). Installed in
 * LIBEXECDIR: not a command for people; run directly it takes the same
 * arguments as bramah-cli (`bramah-cli-graphics render ...`). */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "cli-commands.h"
#include "cli-main.h"

static const HydCliCommand *const commands[] = {
  &hyd_cli_bench_command,
  &hyd_cli_render_command,
  &hyd_cli_state_diagram_command,
  &hyd_cli_sweep_command,
  &hyd_cli_optimize_command,
};

int
main (int argc, char **argv)
{
  /* bramah-cli set the huge-page heap already when it executed this */
  hyd_cli_exec ("/proc/self/exe", argv, FALSE);
  hyd_cli_init_process ();
  for (guint i = 0; argc >= 2 && i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i]->name) == 0)
      return hyd_cli_run_command (commands[i], argc - 1, argv + 1);
  fprintf (stderr, "bramah-cli-graphics runs bramah-cli's commands");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stderr, "%s %s", i == 0 ? "" : i + 1 == G_N_ELEMENTS (commands) ? " and" : ",",
             commands[i]->name);
  fprintf (stderr, "; run them as 'bramah-cli COMMAND ...' ('bramah-cli --help').\n");
  return HYD_CLI_EXIT_USAGE;
}
