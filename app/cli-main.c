/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-main.c — the start of a bramah-cli process (cli-main.h). */
#include <glib.h>
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli-main.h"
#include "hyd-uninstalled.h"

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
 * file of 1 MiB or more, the process is (re)started with it set. It halves
 * `check` of 10^5 components on a 2-core VM (README, Performance). Not
 * under the sanitizers or valgrind (their own allocators), nor with
 * BRAMAH_HUGE_PAGES=0. */
static gboolean
wants_huge_pages (int argc, char **argv)
{
#if defined(__SANITIZE_ADDRESS__)
  (void) argc;
  (void) argv;
  return FALSE;
#else
  const char *tunables = g_getenv ("GLIBC_TUNABLES");
  const char *preload = g_getenv ("LD_PRELOAD");

  if (g_strcmp0 (g_getenv ("BRAMAH_HUGE_PAGES"), "0") == 0
      || (tunables != NULL && strstr (tunables, "glibc.malloc.hugetlb") != NULL)
      || (preload != NULL && strstr (preload, "vgpreload") != NULL))
    return FALSE;
  for (int i = 2; i < argc; i++)
    {
      struct stat st;
      if (g_str_has_suffix (argv[i], ".bramah") && stat (argv[i], &st) == 0
          && S_ISREG (st.st_mode) && st.st_size >= HUGE_PAGE_FILE_SIZE)
        return TRUE;
    }
  return FALSE;
#endif
}

int
hyd_cli_exec (const char *program, char **argv, gboolean always)
{
  int argc = 0;
  while (argv[argc])
    argc++;
  gboolean huge = wants_huge_pages (argc, argv);
  if (!huge && !always)
    return 0;

  g_autofree char *old = g_strdup (g_getenv ("GLIBC_TUNABLES"));
  gboolean set = FALSE;
  if (huge)
    {
      g_autofree char *value = old && *old ? g_strconcat (old, ":glibc.malloc.hugetlb=1", NULL)
                                           : g_strdup ("glibc.malloc.hugetlb=1");
      set = g_setenv ("GLIBC_TUNABLES", value, TRUE);
    }
  if (set || always)
    execv (program, argv);
  int e = set || always ? errno : 0;
  /* no /proc, or no exec: the same run, with small pages */
  if (set)
    {
      if (old)
        g_setenv ("GLIBC_TUNABLES", old, TRUE);
      else
        g_unsetenv ("GLIBC_TUNABLES");
    }
  return e;
}

void
hyd_cli_init_process (void)
{
  setlocale (LC_ALL, "");
  hyd_cli_init_stdout ();
}

void
hyd_cli_init_stdout (void)
{
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
}

int
hyd_cli_run_command (const HydCliCommand *command, int argc, char **argv)
{
  g_autofree char *prg = g_strdup_printf ("bramah-cli %s", command->name);
  g_set_prgname (prg);
  return command->run (argc, argv);
}

char *
hyd_cli_graphics_path (void)
{
  if (hyd_running_uninstalled ())
    return g_strdup (BRAMAH_BUILD_GRAPHICS_PATH);
#ifdef BRAMAH_GRAPHICS_FROM_BINDIR
  g_autofree char *exe = realpath ("/proc/self/exe", NULL);
  if (exe)
    {
      g_autofree char *dir = g_path_get_dirname (exe);
      return g_canonicalize_filename (BRAMAH_GRAPHICS_FROM_BINDIR, dir);
    }
#endif
  return g_strdup (BRAMAH_GRAPHICS_INSTALL_PATH);
}
