/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proctime.c — process start-up and run times, for the README's figures
 * (issue 13; not built by meson):
 *   cc -O2 -o /tmp/proctime build-aux/proctime.c
 *   /tmp/proctime 40 -- OLD/bramah-cli --help -- build/app/bramah-cli --help -- /bin/true
 * runs each command N times, interleaved (round r runs every command once,
 * the order rotated), stdout and stderr to /dev/null, and prints for each
 * the median wall time, the median CPU time (user + system of the process,
 * wait4) and the median of its per-round ratios to the first command's.
 * Commands are paths (posix_spawn, no PATH search). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
extern char **environ;
static int cmpd (const void *a, const void *b) { double x = *(const double *) a, y = *(const double *) b; return x < y ? -1 : x > y; }
static double med (double *v, int n) { double *c = malloc (n * sizeof *c); memcpy (c, v, n * sizeof *c); qsort (c, n, sizeof *c, cmpd); double m = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]); free (c); return m; }
int main (int argc, char **argv) {
  int n = atoi (argv[1]);
  char **cmds[32]; int nc = 0;
  for (int i = 2; i < argc; i++) if (strcmp (argv[i], "--") == 0) { argv[i] = NULL; cmds[nc++] = &argv[i + 1]; }
  double *wall = calloc (nc * n, sizeof (double)), *cpu = calloc (nc * n, sizeof (double));
  posix_spawn_file_actions_t fa; posix_spawn_file_actions_init (&fa);
  posix_spawn_file_actions_addopen (&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen (&fa, 2, "/dev/null", O_WRONLY, 0);
  for (int r = 0; r < n; r++)
    for (int k = 0; k < nc; k++) {
      int c = (k + r) % nc;
      struct timespec t0, t1; pid_t pid; int st; struct rusage ru;
      clock_gettime (CLOCK_MONOTONIC, &t0);
      if (posix_spawn (&pid, cmds[c][0], &fa, NULL, cmds[c], environ) != 0) { perror ("spawn"); return 1; }
      wait4 (pid, &st, 0, &ru);
      clock_gettime (CLOCK_MONOTONIC, &t1);
      wall[c * n + r] = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6;
      cpu[c * n + r] = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-3;
      if (r == 0 && (!WIFEXITED (st) || WEXITSTATUS (st) != 0)) fprintf (stderr, "warning: command %d exit %d\n", c, WEXITSTATUS (st));
    }
  for (int c = 0; c < nc; c++) {
    double rw[4096], rc[4096];
    for (int r = 0; r < n; r++) { rw[r] = wall[c * n + r] / wall[r]; rc[r] = cpu[c * n + r] / (cpu[r] > 0 ? cpu[r] : 1e-9); }
    printf ("cmd %d: wall median %.3f ms  cpu median %.3f ms  paired ratio vs cmd0: wall %.3f cpu %.3f   [", c, med (wall + c * n, n), med (cpu + c * n, n), med (rw, n), med (rc, n));
    for (char **a = cmds[c]; *a; a++) printf (" %s", *a);
    printf (" ]\n");
  }
  return 0;
}
