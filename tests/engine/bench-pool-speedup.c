/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-pool-speedup.c — what two threads can gain on this machine, with no
 * data shared between them: each step runs two tasks of independent
 * arithmetic on private memory (a 4 KiB array each, in cache), on a pool of
 * one thread (both tasks in turn) and on a pool of two (one task each), for
 * several amounts of work per step. The ratio of the two wall times is the
 * ceiling of hyd_task_pool for a step of that size: the tlm solver's steps
 * share data and have a serial part, so they gain less (docs/solvers.md,
 * "Parallel"). Built, not run as a test.
 *
 *   bench-pool-speedup [PAIRS]   (default 7)
 *
 * For each work size: PAIRS pairs of (1 thread, 2 threads) batches, each
 * batch about 0.3 s of steps; prints the median of the pairs' ratios and
 * their range. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <glib.h>

#include "hyd-task-pool.h"

#define WORDS 512

typedef struct
{
  double data[2][WORDS] __attribute__ ((aligned (128)));
  char pad[128];
  long sweeps; /* passes over the array per task */
  double sink[2][16];
} Work;

static double
wall_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static void
work_task (guint task, guint part, gpointer user)
{
  (void) part;
  Work *w = user;
  double *d = w->data[task];
  double acc = 0;
  for (long s = 0; s < w->sweeps; s++)
    for (int i = 0; i < WORDS; i++)
      {
        d[i] = d[i] * 0.999999 + 1e-9 * i;
        acc += d[i];
      }
  w->sink[task][0] = acc;
}

static double
batch (HydTaskPool *pool, const guint *ps, Work *w, long steps)
{
  double t0 = wall_seconds ();
  for (long r = 0; r < steps; r++)
    hyd_task_pool_run (pool, ps, work_task, w);
  return wall_seconds () - t0;
}

int
main (int argc, char **argv)
{
  int pairs = argc > 1 ? atoi (argv[1]) : 7;
  if (pairs < 1)
    {
      fprintf (stderr, "usage: bench-pool-speedup [PAIRS]\n");
      return 2;
    }
  HydTaskPool *one = hyd_task_pool_new (1), *two = hyd_task_pool_new (2);
  const guint ps1[] = { 0, 2 }, ps2[] = { 0, 1, 2 };
  Work *w = g_new0 (Work, 1);
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < WORDS; i++)
      w->data[k][i] = 1.0 + i;

  /* the time of one sweep of one task, to size the work in µs */
  w->sweeps = 20000;
  double t_sweep = batch (one, ps1, w, 1) / (2.0 * w->sweeps);
  const double task_us[] = { 1, 2.5, 5, 10, 25, 50, 100 };
  printf ("one sweep of %d words: %.0f ns\n", WORDS, t_sweep * 1e9);
  printf ("work per task (µs)  steps  1 thread (µs/step)  2 threads (µs/step)  speed-up median (range, %d pairs)\n",
          pairs);
  double *ratio = g_new (double, pairs), *a = g_new (double, pairs), *b = g_new (double, pairs);
  for (guint s = 0; s < G_N_ELEMENTS (task_us); s++)
    {
      w->sweeps = MAX (1, (long) (task_us[s] * 1e-6 / t_sweep + 0.5));
      long steps = MAX (100, (long) (0.3 / (2 * task_us[s] * 1e-6)));
      batch (two, ps2, w, steps / 10); /* warm up */
      for (int p = 0; p < pairs; p++)
        {
          a[p] = batch (one, ps1, w, steps) / steps * 1e6;
          b[p] = batch (two, ps2, w, steps) / steps * 1e6;
          ratio[p] = a[p] / b[p];
        }
      qsort (a, (size_t) pairs, sizeof *a, cmp_double);
      qsort (b, (size_t) pairs, sizeof *b, cmp_double);
      qsort (ratio, (size_t) pairs, sizeof *ratio, cmp_double);
      printf ("%18.3g  %6ld  %18.3g  %19.3g  %.2f× (%.2f–%.2f)\n", w->sweeps * t_sweep * 1e6, steps, a[pairs / 2],
              b[pairs / 2], ratio[pairs / 2], ratio[0], ratio[pairs - 1]);
    }
  g_free (ratio);
  g_free (a);
  g_free (b);
  g_free (w);
  hyd_task_pool_free (one);
  hyd_task_pool_free (two);
  return 0;
}
