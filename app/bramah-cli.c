/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bramah-cli.c — the headless face of the engine (spec/cli.md,
 * docs/cli.md): the table of commands and main. Each command lives in its
 * own app/cli-<command>.c as a HydCliCommand (cli-commands.h); to add one,
 * write that file, list it in app/meson.build and add it to the table.
 *
 * The commands that draw or compare against SUNDIALS (render,
 * state-diagram, bench) and the parameter studies (sweep, optimize: Open
 * MPI, NLopt) live in a second executable,
 * bramah-cli-graphics (bramah-cli-graphics.c), so that this one loads no
 * Cairo, PLplot or SUNDIALS (app/meson.build says why): their entries here
 * have a name and a summary but no run, and main executes the helper in
 * its place with the same arguments.
 *
 * Exit status: 0 success, 1 the circuit or the simulation failed (message on
 * stderr naming the component, parameter or time), 2 usage error. */
#include <glib.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-commands.h"
#include "cli-main.h"

/* The commands of bramah-cli-graphics (cli-commands.h). */
static const HydCliCommand bench_command = { HYD_CLI_BENCH_NAME_SUMMARY, NULL };
static const HydCliCommand render_command = { HYD_CLI_RENDER_NAME_SUMMARY, NULL };
static const HydCliCommand state_diagram_command = { HYD_CLI_STATE_DIAGRAM_NAME_SUMMARY, NULL };
static const HydCliCommand sweep_command = { HYD_CLI_SWEEP_NAME_SUMMARY, NULL };
static const HydCliCommand optimize_command = { HYD_CLI_OPTIMIZE_NAME_SUMMARY, NULL };

/* In the order of `bramah-cli --help`. */
static const HydCliCommand *const commands[] = {
  &hyd_cli_simulate_command,
  &hyd_cli_check_command,
  &hyd_cli_describe_command,
  &hyd_cli_explain_command,
  &hyd_cli_linearize_command,
  &hyd_cli_jacobian_check_command,
  &hyd_cli_components_command,
  &hyd_cli_solvers_command,
  &hyd_cli_verify_command,
  &bench_command,
  &render_command,
  &state_diagram_command,
  &hyd_cli_migrate_command,
  &hyd_cli_export_c_command,
  &sweep_command,
  &optimize_command,
};

static void
print_main_help (FILE *f)
{
  fprintf (f, "Usage: bramah-cli COMMAND [OPTIONS] ...\n\nCommands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (f, "  %-16s %s\n", commands[i]->name, commands[i]->summary);
  fprintf (f, "\n'bramah-cli COMMAND --help' describes each command.\n");
}

/* A command of bramah-cli-graphics: replace this process with it. Returns
 * only when that failed. */
static int
run_graphics (const HydCliCommand *command, int argc, char **argv)
{
  g_autofree char *path = hyd_cli_graphics_path ();
  g_autofree char **args = g_new0 (char *, argc + 1);
  args[0] = path;
  for (int i = 1; i < argc; i++)
    args[i] = argv[i];
  int e = hyd_cli_exec (path, args, TRUE);
  hyd_cli_init_process ();
  if (e == ENOENT)
    return hyd_cli_failed ("cannot run '%s': its helper program %s is missing (is Bramah installed completely?)",
                           command->name, hyd_cli_qpath (path));
  return hyd_cli_failed ("cannot run '%s': its helper program %s cannot be executed: %s",
                         command->name, hyd_cli_qpath (path), g_strerror (e));
}

int
main (int argc, char **argv)
{
  const HydCliCommand *command = NULL;
  for (guint i = 0; argc >= 2 && i < G_N_ELEMENTS (commands) && !command; i++)
    if (strcmp (argv[1], commands[i]->name) == 0)
      command = commands[i];
  if (command && command->run == NULL)
    return run_graphics (command, argc, argv);
  if (command)
    {
      hyd_cli_exec ("/proc/self/exe", argv, FALSE);
      hyd_cli_init_process ();
      return hyd_cli_run_command (command, argc - 1, argv + 1);
    }
  hyd_cli_init_stdout ();
  if (argc < 2)
    {
      print_main_help (stderr);
      return HYD_CLI_EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_main_help (stdout);
      return HYD_CLI_EXIT_OK;
    }
  int st = hyd_cli_usage_error (NULL, "unknown command '%s'", argv[1]);
  print_main_help (stderr);
  return st;
}
