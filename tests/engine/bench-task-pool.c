/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-task-pool.c — the round-trip cost of hyd_task_pool_run: runs of
 * empty tasks (one per part) on a pool of T threads, back to back. Built, not
 * run as a test.
 *
 *   bench-task-pool [THREADS [RUNS_PER_BATCH [BATCHES]]]   (default 2, 100 000, 15)
 *
 * Prints the median over the batches of the wall time per run (ns), and of
 * the process CPU time per run (all threads; the spinning included), the
 * fastest batch's wall time (on a machine shared with other jobs the median
 * moves with their load: a spinning partner that is descheduled makes a run
 * cost a time slice), and for comparison the same with a plain GMutex/GCond
 * hand-off to one worker. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <glib.h>

#include "hyd-task-pool.h"

static double
cpu_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

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

static double
minimum (const double *x, int n)
{
  double m = x[0];
  for (int i = 1; i < n; i++)
    m = x[i] < m ? x[i] : m;
  return m;
}

static double
median (double *x, int n)
{
  qsort (x, (size_t) n, sizeof *x, cmp_double);
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

static void
empty_task (guint task, guint part, gpointer user)
{
  (void) task;
  (void) part;
  (void) user;
}

/* the hand-off the pool replaces: one worker woken by a condition variable per run */
typedef struct
{
  GMutex m;
  GCond c;
  guint64 posted, done;
  gboolean quit;
} CondPool;

static gpointer
cond_worker (gpointer data)
{
  CondPool *p = data;
  guint64 seen = 0;
  g_mutex_lock (&p->m);
  for (;;)
    {
      while (p->posted == seen && !p->quit)
        g_cond_wait (&p->c, &p->m);
      if (p->quit)
        break;
      seen = p->posted;
      p->done = seen;
      g_cond_broadcast (&p->c);
    }
  g_mutex_unlock (&p->m);
  return NULL;
}

int
main (int argc, char **argv)
{
  guint n_threads = argc > 1 ? (guint) atoi (argv[1]) : 2;
  long runs = argc > 2 ? atol (argv[2]) : 100000;
  int batches = argc > 3 ? atoi (argv[3]) : 15;
  if (n_threads < 1 || runs < 1 || batches < 1)
    {
      fprintf (stderr, "usage: bench-task-pool [THREADS [RUNS_PER_BATCH [BATCHES]]]\n");
      return 2;
    }

  HydTaskPool *pool = hyd_task_pool_new (n_threads);
  guint *ps = g_new (guint, n_threads + 1);
  for (guint k = 0; k <= n_threads; k++)
    ps[k] = k; /* one empty task per part */
  double *wall = g_new (double, batches), *cpu = g_new (double, batches);

  for (long r = 0; r < runs / 10; r++) /* warm up */
    hyd_task_pool_run (pool, ps, empty_task, NULL);
  for (int b = 0; b < batches; b++)
    {
      double w0 = wall_seconds (), c0 = cpu_seconds ();
      for (long r = 0; r < runs; r++)
        hyd_task_pool_run (pool, ps, empty_task, NULL);
      wall[b] = (wall_seconds () - w0) / runs * 1e9;
      cpu[b] = (cpu_seconds () - c0) / runs * 1e9;
    }
  double best = minimum (wall, batches);
  printf ("hyd_task_pool_run, %u threads, empty tasks: median %.0f ns wall, %.0f ns CPU per run, "
          "fastest batch %.0f ns wall (%d batches of %ld)\n",
          n_threads, median (wall, batches), median (cpu, batches), best, batches, runs);
  hyd_task_pool_free (pool);

  /* mutex/condvar hand-off, fewer runs (it is slow) */
  CondPool cp = { 0 };
  g_mutex_init (&cp.m);
  g_cond_init (&cp.c);
  GThread *th = g_thread_new ("cond-worker", cond_worker, &cp);
  long cruns = MAX (1, runs / 20);
  for (int b = 0; b < batches; b++)
    {
      double w0 = wall_seconds (), c0 = cpu_seconds ();
      for (long r = 0; r < cruns; r++)
        {
          g_mutex_lock (&cp.m);
          cp.posted++;
          g_cond_broadcast (&cp.c);
          while (cp.done != cp.posted)
            g_cond_wait (&cp.c, &cp.m);
          g_mutex_unlock (&cp.m);
        }
      wall[b] = (wall_seconds () - w0) / cruns * 1e9;
      cpu[b] = (cpu_seconds () - c0) / cruns * 1e9;
    }
  g_mutex_lock (&cp.m);
  cp.quit = TRUE;
  g_cond_broadcast (&cp.c);
  g_mutex_unlock (&cp.m);
  g_thread_join (th);
  best = minimum (wall, batches);
  printf ("GMutex/GCond hand-off to 1 worker: median %.0f ns wall, %.0f ns CPU per run, "
          "fastest batch %.0f ns wall (%d batches of %ld)\n",
          median (wall, batches), median (cpu, batches), best, batches, cruns);

  g_free (ps);
  g_free (wall);
  g_free (cpu);
  return 0;
}
