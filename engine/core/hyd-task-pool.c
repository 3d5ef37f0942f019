/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-task-pool.c — persistent worker threads with a spinning hand-off, and
 * the contiguous min–max partition (see the header).
 *
 * Hand-off protocol (all g_atomic_int operations are sequentially consistent):
 *   run:    write the job (part_start, fn, user), n_done = 0, generation++,
 *           then, if a worker sleeps, broadcast under the mutex; run part 0;
 *           wait until n_done = n_workers (spin, then block).
 *   worker: wait until generation differs from the last it ran (spin, then
 *           block), read the job, run its part, n_done++; the worker whose
 *           increment completes the count wakes the caller if it sleeps.
 * A sleeper registers itself (n_sleeping, caller_sleeping) and re-checks its
 * condition under the mutex before waiting; the waker changes the condition
 * before it reads the registration, so one of the two always sees the other
 * (no lost wake-up). */
#include "hyd-task-pool.h"

#include <math.h>

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause ()
#elif defined(__aarch64__) || defined(__arm__)
#define cpu_relax() __asm__ __volatile__ ("yield" ::: "memory")
#else
#define cpu_relax() do { } while (0)
#endif

typedef struct
{
  HydTaskPool *pool;
  guint part;
  GThread *thread;
} Worker;

struct _HydTaskPool
{
  guint n_threads;
  Worker *workers; /* n_threads − 1 of them, worker k − 1 runs part k */

  /* the job of the current run: written by the caller before generation++ */
  const guint *part_start;
  HydTaskFunc fn;
  gpointer user;
  gboolean quit;

  /* each on its own cache line: workers spin on generation, the caller on
   * n_done; generation may wrap around (it is only compared for equality) */
  gint generation __attribute__ ((aligned (64)));
  gint n_done __attribute__ ((aligned (64)));
  gint n_sleeping __attribute__ ((aligned (64)));
  gint caller_sleeping;

  GMutex mutex;
  GCond work_cond;
  GCond done_cond;
};

/* Spins until *p ≠ old (TRUE) or about HYD_TASK_POOL_SPIN_US have passed (FALSE). */
static gboolean
spin_until_changed (const gint *p, gint old)
{
  gint64 deadline = 0;
  for (guint i = 1;; i++)
    {
      if (g_atomic_int_get (p) != old)
        return TRUE;
      cpu_relax ();
      /* after about 15 µs of pure spinning (512 pauses of ~27 ns on the
       * development VM), offer the CPU now and then: when there are more
       * threads than CPUs, the thread this one waits for may be the one
       * waiting for a CPU (3 threads on 2 CPUs: ~30 µs per empty run with
       * this, ~200 µs without) */
      if (i > 512 && (i & 15) == 0)
        g_thread_yield ();
      if ((i & 63) == 0)
        {
          gint64 now = g_get_monotonic_time ();
          if (deadline == 0)
            deadline = now + HYD_TASK_POOL_SPIN_US;
          else if (now > deadline)
            return FALSE;
        }
    }
}

static void
run_part (HydTaskPool *pool, guint part)
{
  guint end = pool->part_start[part + 1];
  for (guint task = pool->part_start[part]; task < end; task++)
    pool->fn (task, part, pool->user);
}

static gpointer
worker_main (gpointer data)
{
  Worker *w = data;
  HydTaskPool *pool = w->pool;
  gint seen = 0;

  for (;;)
    {
      if (!spin_until_changed (&pool->generation, seen))
        {
          g_mutex_lock (&pool->mutex);
          g_atomic_int_inc (&pool->n_sleeping);
          while (g_atomic_int_get (&pool->generation) == seen)
            g_cond_wait (&pool->work_cond, &pool->mutex);
          g_atomic_int_add (&pool->n_sleeping, -1);
          g_mutex_unlock (&pool->mutex);
        }
      seen = g_atomic_int_get (&pool->generation);
      if (pool->quit)
        break;

      run_part (pool, w->part);

      if (g_atomic_int_add (&pool->n_done, 1) + 1 == (gint) pool->n_threads - 1
          && g_atomic_int_get (&pool->caller_sleeping))
        {
          g_mutex_lock (&pool->mutex);
          g_cond_signal (&pool->done_cond);
          g_mutex_unlock (&pool->mutex);
        }
    }
  return NULL;
}

HydTaskPool *
hyd_task_pool_new (guint n_threads)
{
  g_return_val_if_fail (n_threads >= 1, NULL);

  HydTaskPool *pool = g_new0 (HydTaskPool, 1);
  pool->n_threads = n_threads;
  g_mutex_init (&pool->mutex);
  g_cond_init (&pool->work_cond);
  g_cond_init (&pool->done_cond);
  pool->workers = g_new0 (Worker, n_threads - 1);
  for (guint k = 1; k < n_threads; k++)
    {
      Worker *w = &pool->workers[k - 1];
      char name[32];
      w->pool = pool;
      w->part = k;
      g_snprintf (name, sizeof name, "hyd-pool-%u", k);
      w->thread = g_thread_new (name, worker_main, w);
    }
  return pool;
}

guint
hyd_task_pool_get_n_threads (const HydTaskPool *pool)
{
  g_return_val_if_fail (pool != NULL, 0);
  return pool->n_threads;
}

/* Publishes a new generation and wakes the workers that sleep. */
static void
publish (HydTaskPool *pool)
{
  g_atomic_int_inc (&pool->generation);
  if (g_atomic_int_get (&pool->n_sleeping) > 0)
    {
      g_mutex_lock (&pool->mutex);
      g_cond_broadcast (&pool->work_cond);
      g_mutex_unlock (&pool->mutex);
    }
}

void
hyd_task_pool_run (HydTaskPool *pool, const guint *part_start, HydTaskFunc fn, gpointer user)
{
  g_return_if_fail (pool != NULL);
  g_return_if_fail (part_start != NULL);
  g_return_if_fail (fn != NULL);
  for (guint k = 0; k < pool->n_threads; k++)
    g_return_if_fail (part_start[k] <= part_start[k + 1]);

  pool->part_start = part_start;
  pool->fn = fn;
  pool->user = user;

  if (pool->n_threads == 1)
    {
      run_part (pool, 0);
      return;
    }

  gint n_workers = (gint) pool->n_threads - 1;
  g_atomic_int_set (&pool->n_done, 0);
  publish (pool);

  run_part (pool, 0);

  /* wait for the workers: n_done only grows to n_workers during this run */
  for (;;)
    {
      gint done = g_atomic_int_get (&pool->n_done);
      if (done == n_workers)
        break;
      if (spin_until_changed (&pool->n_done, done))
        continue;
      g_mutex_lock (&pool->mutex);
      g_atomic_int_set (&pool->caller_sleeping, 1);
      while (g_atomic_int_get (&pool->n_done) != n_workers)
        g_cond_wait (&pool->done_cond, &pool->mutex);
      g_atomic_int_set (&pool->caller_sleeping, 0);
      g_mutex_unlock (&pool->mutex);
      break;
    }
}

void
hyd_task_pool_free (HydTaskPool *pool)
{
  if (pool == NULL)
    return;
  if (pool->n_threads > 1)
    {
      pool->quit = TRUE;
      publish (pool);
      for (guint k = 1; k < pool->n_threads; k++)
        g_thread_join (pool->workers[k - 1].thread);
    }
  g_free (pool->workers);
  g_mutex_clear (&pool->mutex);
  g_cond_clear (&pool->work_cond);
  g_cond_clear (&pool->done_cond);
  g_free (pool);
}

/* ---- partition --------------------------------------------------------- */

void
hyd_partition_contiguous (const double *cost, guint n_tasks, guint n_parts, guint *part_start)
{
  g_return_if_fail (n_parts >= 1);
  g_return_if_fail (part_start != NULL);
  g_return_if_fail (cost != NULL || n_tasks == 0);

  /* prefix sums S (rounding is monotone, so S is nondecreasing and every
   * difference S[i] − S[m] is monotone in i and in m: the exactness and the
   * greedy reconstruction below rely on this) */
  double *S = g_new (double, (gsize) n_tasks + 1);
  S[0] = 0.0;
  for (guint i = 0; i < n_tasks; i++)
    {
      double c = cost[i];
      S[i + 1] = S[i] + (c > 0.0 && isfinite (c) ? c : 0.0);
    }

  /* f_j(i): the least largest part sum of tasks 0 … i − 1 in j parts (empty
   * parts allowed), nondecreasing in i. f_j(i) = min over m ≤ i of
   * max (f_{j−1}(m), S[i] − S[m]); the first term grows and the second shrinks
   * with m, so the optimum is at c(i), the least m with f_{j−1}(m) ≥ S[i] − S[m],
   * or just before it; c(i) does not decrease as i grows (two pointers). */
  double best;
  if (n_parts == 1 || n_tasks == 0)
    best = S[n_tasks];
  else
    {
      double *prev = g_new (double, (gsize) n_tasks + 1);
      double *cur = g_new (double, (gsize) n_tasks + 1);
      for (guint i = 0; i <= n_tasks; i++)
        prev[i] = S[i];
      guint n_rows = MIN (n_parts, n_tasks); /* more parts than tasks do not help */
      for (guint j = 2; j <= n_rows; j++)
        {
          guint c = 0;
          for (guint i = 0; i <= n_tasks; i++)
            {
              while (c < i && prev[c] < S[i] - S[c])
                c++;
              double v = MAX (prev[c], S[i] - S[c]);
              if (c > 0)
                {
                  double u = MAX (prev[c - 1], S[i] - S[c - 1]);
                  if (u < v)
                    v = u;
                }
              cur[i] = v;
            }
          double *t = prev;
          prev = cur;
          cur = t;
        }
      best = prev[n_tasks];
      g_free (prev);
      g_free (cur);
    }

  /* reconstruct: each part takes as many tasks as the bound allows (this
   * needs at most n_parts parts because an optimal partition exists and the
   * greedy ends are never behind its ends) */
  guint start = 0;
  part_start[0] = 0;
  for (guint k = 1; k < n_parts; k++)
    {
      guint end = start;
      while (end < n_tasks && S[end + 1] - S[start] <= best)
        end++;
      part_start[k] = end;
      start = end;
    }
  part_start[n_parts] = n_tasks;
  g_free (S);
}
