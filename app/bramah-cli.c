/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bramah-cli.c — the headless face of the engine (spec/cli.md,
 * docs/cli.md): the table of commands and main. Each command lives in its
 * own app/cli-<command>.c as a HydCliCommand (cli-commands.h); to add one,
 * write that file, list it in app/meson.build and add it to the table.
 *
 * Exit status: 0 success, 1 the circuit or the simulation failed (message on
 * stderr naming the component, parameter or time), 2 usage error. */
#include <glib.h>
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli-commands.h"
#include "cli-diagnostic.h"

/* In the order of `bramah-cli --help`. */
static const HydCliCommand *const commands[] = {
  &hyd_cli_simulate_command,
  &hyd_cli_check_command,
  &hyd_cli_describe_command,
  &hyd_cli_jacobian_check_command,
  &hyd_cli_components_command,
  &hyd_cli_solvers_command,
  &hyd_cli_verify_command,
  &hyd_cli_bench_command,
  &hyd_cli_render_command,
  &hyd_cli_migrate_command,
};

static void
print_main_help (FILE *f)
{
  fprintf (f, "Usage: bramah-cli COMMAND [OPTIONS] ...\n\nCommands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (f, "  %-16s %s\n", commands[i]->name, commands[i]->summary);
  fprintf (f, "\n'bramah-cli COMMAND --help' describes each command.\n");
}

/* What went to stdout must have arrived: `check >/dev/full` fails. At exit,
 * so that it also covers --help, which GOption prints and then exits. */
static void
close_stdout (void)
{
  errno = 0;
  int e = fflush (stdout) != 0 ? errno : 0;
  gboolean bad = e != 0 || ferror (stdout);
  if (fclose (stdout) != 0 && !bad)
    {
      e = errno;
      bad = TRUE;
    }
  if (bad)
    {
      fprintf (stderr, "bramah-cli: cannot write standard output: %s%s\n",
               e ? g_strerror (e) : "a write failed", e == ENOSPC ? " (disk full)" : "");
      _exit (HYD_CLI_EXIT_FAILED);
    }
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  hyd_cli_init_i18n ();
  atexit (close_stdout);
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
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i]->name) == 0)
      {
        g_autofree char *prg = g_strdup_printf ("bramah-cli %s", commands[i]->name);
        g_set_prgname (prg);
        return commands[i]->run (argc - 1, argv + 1);
      }
  int st = hyd_cli_usage_error (NULL, "unknown command '%s'", argv[1]);
  print_main_help (stderr);
  return st;
}
