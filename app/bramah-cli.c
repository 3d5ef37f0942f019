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
#include <sys/stat.h>
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
  &hyd_cli_state_diagram_command,
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

/* Circuit files from this size on are read with a huge-page heap. */
#define HUGE_PAGE_FILE_SIZE (1 << 20)

/* A large circuit (10^5 components take about 240 MB) spends most of its
 * load and compile in the kernel's page faults, one per 4 KiB touched, and
 * on a virtual machine each costs microseconds. glibc's malloc can ask for
 * transparent huge pages instead (the tunable glibc.malloc.hugetlb=1,
 * glibc 2.35 and later: madvise (MADV_HUGEPAGE) on its heap), but reads
 * tunables only when a process starts: so, when an argument is a circuit
 * file of 1 MiB or more, restart once with it set. It halves `check` of
 * 10^5 components on a 2-core VM (README, Performance). Not under the
 * sanitizers or valgrind (their own allocators), nor with
 * BRAMAH_HUGE_PAGES=0; a failed exec simply goes on without. */
static void
restart_with_huge_pages (int argc, char **argv)
{
#if defined(__SANITIZE_ADDRESS__)
  (void) argc;
  (void) argv;
#else
  const char *tunables = g_getenv ("GLIBC_TUNABLES");
  const char *preload = g_getenv ("LD_PRELOAD");
  gboolean large = FALSE;

  if (g_strcmp0 (g_getenv ("BRAMAH_HUGE_PAGES"), "0") == 0
      || (tunables != NULL && strstr (tunables, "glibc.malloc.hugetlb") != NULL)
      || (preload != NULL && strstr (preload, "vgpreload") != NULL))
    return;
  for (int i = 2; i < argc && !large; i++)
    {
      struct stat st;
      large = g_str_has_suffix (argv[i], ".bramah") && stat (argv[i], &st) == 0
              && S_ISREG (st.st_mode) && st.st_size >= HUGE_PAGE_FILE_SIZE;
    }
  if (!large)
    return;
  g_autofree char *value = tunables && *tunables
                           ? g_strconcat (tunables, ":glibc.malloc.hugetlb=1", NULL)
                           : g_strdup ("glibc.malloc.hugetlb=1");
  if (g_setenv ("GLIBC_TUNABLES", value, TRUE))
    execv ("/proc/self/exe", argv);
  /* no /proc, or no exec: the same run, with small pages */
  if (tunables)
    g_setenv ("GLIBC_TUNABLES", tunables, TRUE);
  else
    g_unsetenv ("GLIBC_TUNABLES");
#endif
}

int
main (int argc, char **argv)
{
  restart_with_huge_pages (argc, argv);
  setlocale (LC_ALL, "");
  hyd_cli_init_i18n ();
  atexit (close_stdout);
  /* A failed write inside stdio loses its errno before close_stdout sees
   * the stream's error flag, so a listing longer than stdio's 4 KiB buffer
   * (`components`) on a full disk said only "a write failed". With one
   * large buffer the listings fail at the final flush, where the errno is
   * kept; `simulate` keeps its own first errno (cli-util.c) whatever the
   * buffer. A terminal keeps its line buffering. */
  static char stdout_buffer[1 << 18]; /* glibc ignores the size without a buffer */
  if (!isatty (STDOUT_FILENO))
    setvbuf (stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
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
