/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-task-pool.c — see hyd-task-pool.h. A round is announced by bumping a
 * generation counter; workers spin on it for a while (a step of a small
 * circuit takes microseconds, a futex hand-off about as long) and then
 * sleep on a condition variable; the caller runs part 0 and waits for the
 * count of pending parts to reach 0 the same way. A side signals the
 * condition only when the other sleeps (each re-checks its condition under
 * the mutex after saying it sleeps, so no wake-up is lost): a round where
 * both spin makes no system call. */
#include "hyd-task-pool.h"

/* How long a side spins before it sleeps: longer than the serial part of
 * a step (the driver's events, error, output: tens of µs for hundreds of
 * components), so that in a run the workers rarely sleep; a futex wake-up
 * costs more than that on a VM. */
#define SPIN_PAUSES 20000   /* about 0.1–1 ms, by the CPU's PAUSE latency */

/* A polite spin (x86 PAUSE: the sibling hyper-thread keeps the core). */
static inline void
spin_pause (void)
{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause ();
#endif
}

/* TRUE while a spin has not yet paused SPIN_PAUSES times (counted, not
 * timed: reading the clock can be a system call on a VM). */
static inline gboolean
keep_spinning (gint64 *t0, guint *count)
{
  (void) t0;
  spin_pause ();
  return ++*count < SPIN_PAUSES;
}

struct _HydTaskPool {
  guint n;
  GThread **threads;
  gint gen, pending, quit;
  gint sleepers;           /* workers asleep on `wake` */
  gint caller_asleep;      /* the caller asleep on `done` */
  const guint *part_start;
  void (*fn) (guint task, guint part, gpointer user);
  gpointer user;
  GMutex mutex;
  GCond wake, done;
};

typedef struct {
  HydTaskPool *pool;
  guint part;
} Worker;

static void
run_part (HydTaskPool *p, guint k)
{
  for (guint t = p->part_start[k]; t < p->part_start[k + 1]; t++)
    p->fn (t, k, p->user);
}

static gpointer
worker_main (gpointer data)
{
  Worker *w = data;
  HydTaskPool *p = w->pool;
  gint seen = 0;
  for (;;)
    {
      gint64 t0 = 0;
      guint spins = 0;
      while (g_atomic_int_get (&p->gen) == seen && !g_atomic_int_get (&p->quit))
        if (!keep_spinning (&t0, &spins))
          {
            g_mutex_lock (&p->mutex);
            g_atomic_int_inc (&p->sleepers);
            while (g_atomic_int_get (&p->gen) == seen && !g_atomic_int_get (&p->quit))
              g_cond_wait (&p->wake, &p->mutex);
            g_atomic_int_dec_and_test (&p->sleepers);
            g_mutex_unlock (&p->mutex);
            t0 = 0;
            spins = 0;
          }
      if (g_atomic_int_get (&p->quit))
        break;
      seen = g_atomic_int_get (&p->gen);
      run_part (p, w->part);
      if (g_atomic_int_dec_and_test (&p->pending) && g_atomic_int_get (&p->caller_asleep))
        {
          g_mutex_lock (&p->mutex);
          g_cond_signal (&p->done);
          g_mutex_unlock (&p->mutex);
        }
    }
  g_free (w);
  return NULL;
}

HydTaskPool *
hyd_task_pool_new (guint n_threads)
{
  HydTaskPool *p = g_new0 (HydTaskPool, 1);
  p->n = MAX (n_threads, 1);
  g_mutex_init (&p->mutex);
  g_cond_init (&p->wake);
  g_cond_init (&p->done);
  p->threads = g_new0 (GThread *, p->n);
  for (guint k = 1; k < p->n; k++)
    {
      Worker *w = g_new (Worker, 1);
      w->pool = p;
      w->part = k;
      p->threads[k] = g_thread_new ("bramah-tlm", worker_main, w);
    }
  return p;
}

void
hyd_task_pool_run (HydTaskPool *p, const guint *part_start,
                   void (*fn) (guint task, guint part, gpointer user), gpointer user)
{
  p->part_start = part_start;
  p->fn = fn;
  p->user = user;
  if (p->n == 1)
    {
      run_part (p, 0);
      return;
    }
  g_atomic_int_set (&p->pending, (gint) p->n - 1);
  g_atomic_int_inc (&p->gen);
  if (g_atomic_int_get (&p->sleepers) > 0)
    {
      g_mutex_lock (&p->mutex);
      g_cond_broadcast (&p->wake);
      g_mutex_unlock (&p->mutex);
    }
  run_part (p, 0);
  gint64 t0 = 0;
  guint spins = 0;
  while (g_atomic_int_get (&p->pending) != 0)
    if (!keep_spinning (&t0, &spins))
      {
        g_mutex_lock (&p->mutex);
        g_atomic_int_set (&p->caller_asleep, 1);
        while (g_atomic_int_get (&p->pending) != 0)
          g_cond_wait (&p->done, &p->mutex);
        g_atomic_int_set (&p->caller_asleep, 0);
        g_mutex_unlock (&p->mutex);
      }
}

void
hyd_task_pool_free (HydTaskPool *p)
{
  if (p == NULL)
    return;
  g_mutex_lock (&p->mutex);
  g_atomic_int_set (&p->quit, 1);
  g_cond_broadcast (&p->wake);
  g_mutex_unlock (&p->mutex);
  for (guint k = 1; k < p->n; k++)
    g_thread_join (p->threads[k]);
  g_free (p->threads);
  g_mutex_clear (&p->mutex);
  g_cond_clear (&p->wake);
  g_cond_clear (&p->done);
  g_free (p);
}

/* The fewest parts needed when no part may exceed `bound`. */
static guint
parts_needed (const double *cost, guint n, double bound)
{
  guint parts = 1;
  double sum = 0.0;
  for (guint t = 0; t < n; t++)
    {
      if (sum + cost[t] > bound && sum > 0.0)
        {
          parts++;
          sum = 0.0;
        }
      sum += cost[t];
    }
  return parts;
}

void
hyd_partition_contiguous (const double *cost, guint n_tasks, guint n_parts, guint *part_start)
{
  double lo = 0.0, hi = 0.0;
  for (guint t = 0; t < n_tasks; t++)
    {
      lo = MAX (lo, cost[t]);
      hi += cost[t];
    }
  /* bisection on the largest part's cost (parts_needed falls as it rises) */
  for (int it = 0; it < 100 && hi - lo > 1e-12 * MAX (hi, 1.0); it++)
    {
      double mid = 0.5 * (lo + hi);
      if (parts_needed (cost, n_tasks, mid) <= n_parts)
        hi = mid;
      else
        lo = mid;
    }
  /* greedy fill under the bound, then the parts left empty at the end */
  guint k = 0;
  double sum = 0.0;
  part_start[0] = 0;
  for (guint t = 0; t < n_tasks; t++)
    {
      if (sum + cost[t] > hi && sum > 0.0 && k + 1 < n_parts)
        {
          part_start[++k] = t;
          sum = 0.0;
        }
      sum += cost[t];
    }
  while (k + 1 < n_parts)
    part_start[++k] = n_tasks;
  part_start[n_parts] = n_tasks;
}
