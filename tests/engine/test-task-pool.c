/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-task-pool.c — the worker pool and the contiguous partition
 * (engine/core/hyd-task-pool.h).
 *
 *   - every task runs exactly once, on its part's thread (part 0 on the
 *     caller's), with the right part number, in increasing order in its part,
 *     for 1 … 4 threads and partitions with empty parts;
 *   - 200 000 runs of tiny tasks on 2 threads finish and every run sees every
 *     task's write (no deadlock, no lost wake-up), also with pauses that let
 *     the workers and the caller fall asleep;
 *   - a deterministic stencil computation gives bitwise the same result on
 *     1, 2 and 3 threads;
 *   - the partition's largest part cost equals brute force's on every small
 *     random case (GRand seeded with 20261127), integer and real costs;
 *   - edge cases: no tasks, more parts than tasks, zero costs, one part,
 *     100 000 tasks; freeing a pool before its workers start, while they
 *     spin and while they sleep. */
#include <string.h>

#include <glib.h>

#include "hyd-task-pool.h"

/* ---- every task once, on its thread ------------------------------------ */

typedef struct
{
  guint n_tasks;
  const guint *part_start;
  gint *count;
  guint *part_of;
  GThread **thread_of;
  guint *seq_of;
  guint *next_seq; /* per part: written only by that part's thread */
} OnceCtx;

static void
once_task (guint task, guint part, gpointer user)
{
  OnceCtx *c = user;
  g_atomic_int_inc (&c->count[task]);
  c->part_of[task] = part;
  c->thread_of[task] = g_thread_self ();
  c->seq_of[task] = c->next_seq[part]++;
}

static void
check_once (HydTaskPool *pool, const guint *part_start, guint n_parts)
{
  guint n = part_start[n_parts];
  OnceCtx c = {
    .n_tasks = n,
    .part_start = part_start,
    .count = g_new0 (gint, n + 1),
    .part_of = g_new0 (guint, n + 1),
    .thread_of = g_new0 (GThread *, n + 1),
    .seq_of = g_new0 (guint, n + 1),
    .next_seq = g_new0 (guint, n_parts),
  };
  hyd_task_pool_run (pool, part_start, once_task, &c);

  GThread **part_thread = g_new0 (GThread *, n_parts);
  for (guint k = 0; k < n_parts; k++)
    for (guint t = part_start[k]; t < part_start[k + 1]; t++)
      {
        g_assert_cmpint (c.count[t], ==, 1);
        g_assert_cmpuint (c.part_of[t], ==, k);
        g_assert_cmpuint (c.seq_of[t], ==, t - part_start[k]); /* increasing order */
        if (part_thread[k] == NULL)
          part_thread[k] = c.thread_of[t];
        g_assert_true (c.thread_of[t] == part_thread[k]);
      }
  if (part_thread[0] != NULL)
    g_assert_true (part_thread[0] == g_thread_self ());
  for (guint k = 0; k < n_parts; k++)
    for (guint l = k + 1; l < n_parts; l++)
      if (part_thread[k] != NULL && part_thread[l] != NULL)
        g_assert_true (part_thread[k] != part_thread[l]);

  g_free (part_thread);
  g_free (c.count);
  g_free (c.part_of);
  g_free (c.thread_of);
  g_free (c.seq_of);
  g_free (c.next_seq);
}

static void
test_each_task_once (void)
{
  for (guint nt = 1; nt <= 4; nt++)
    {
      g_autoptr (HydTaskPool) pool = hyd_task_pool_new (nt);
      g_assert_cmpuint (hyd_task_pool_get_n_threads (pool), ==, nt);
      guint *ps = g_new (guint, nt + 1);

      /* even split of 1000 tasks */
      for (guint k = 0; k <= nt; k++)
        ps[k] = 1000 * k / nt;
      for (int rep = 0; rep < 20; rep++)
        check_once (pool, ps, nt);

      /* empty parts: everything on the last part, then on part 0 */
      for (guint k = 0; k < nt; k++)
        ps[k] = 0;
      ps[nt] = 37;
      check_once (pool, ps, nt);
      for (guint k = 1; k <= nt; k++)
        ps[k] = 37;
      check_once (pool, ps, nt);

      /* no tasks at all */
      for (guint k = 0; k <= nt; k++)
        ps[k] = 0;
      check_once (pool, ps, nt);

      /* after the workers fell asleep (past the spin time) */
      g_usleep (20 * HYD_TASK_POOL_SPIN_US);
      for (guint k = 0; k <= nt; k++)
        ps[k] = 11 * k;
      check_once (pool, ps, nt);
      g_free (ps);
    }
}

/* freeing a pool whose workers have not started yet, spin, or sleep */
static void
test_free_idle (void)
{
  for (guint nt = 1; nt <= 3; nt++)
    {
      hyd_task_pool_free (hyd_task_pool_new (nt));

      HydTaskPool *pool = hyd_task_pool_new (nt);
      g_usleep (20 * HYD_TASK_POOL_SPIN_US); /* the workers block */
      hyd_task_pool_free (pool);

      pool = hyd_task_pool_new (nt);
      guint *ps = g_new0 (guint, nt + 1);
      hyd_task_pool_run (pool, ps, once_task, NULL); /* no tasks: fn never called */
      hyd_task_pool_free (pool); /* right after a run: the workers still spin */
      g_free (ps);
    }
  hyd_task_pool_free (NULL);
}

/* ---- many rounds ------------------------------------------------------- */

typedef struct
{
  guint round;
  guint *val;
  guint slow_part; /* this part's tasks sleep briefly in some rounds (G_MAXUINT: none) */
} RoundCtx;

static void
round_task (guint task, guint part, gpointer user)
{
  RoundCtx *c = user;
  if (part == c->slow_part && task % 4 == 0)
    g_usleep (5 * HYD_TASK_POOL_SPIN_US / 4);
  c->val[task] = c->round + task;
}

static void
test_many_rounds (void)
{
  enum { N_TASKS = 4, N_ROUNDS = 200000 };
  g_autoptr (HydTaskPool) pool = hyd_task_pool_new (2);
  guint ps[3] = { 0, 2, N_TASKS };
  guint val[N_TASKS] = { 0 };
  RoundCtx c = { .val = val, .slow_part = G_MAXUINT };

  for (guint r = 1; r <= N_ROUNDS; r++)
    {
      c.round = r;
      /* now and then: let the workers fall asleep between runs, or make one side slow
       * so the other one blocks while it waits */
      c.slow_part = G_MAXUINT;
      if (r % 20000 == 0)
        g_usleep (4 * HYD_TASK_POOL_SPIN_US);
      else if (r % 20000 == 1)
        c.slow_part = 0;
      else if (r % 20000 == 2)
        c.slow_part = 1;
      hyd_task_pool_run (pool, ps, round_task, &c);
      for (guint t = 0; t < N_TASKS; t++)
        if (G_UNLIKELY (val[t] != r + t))
          g_error ("round %u: task %u wrote %u, expected %u", r, t, val[t], r + t);
    }
}

/* ---- bitwise identical for 1, 2, 3 threads ----------------------------- */

typedef struct
{
  guint n;
  const double *x;
  double *y;
} StencilCtx;

static void
stencil_task (guint i, guint part, gpointer user)
{
  (void) part;
  StencilCtx *c = user;
  double l = c->x[(i + c->n - 1) % c->n], m = c->x[i], r = c->x[(i + 1) % c->n];
  /* chaotic and rounding-sensitive, so any change of operation order would show */
  double s = 0.0;
  for (guint k = 0; k < 1 + i % 7; k++)
    s += 3.9 * m * (1.0 - m) / (1 + k);
  c->y[i] = 0.25 * l + 0.5 * (s - (int) s) + 0.25 * r;
}

static double *
stencil_run (guint n_threads, guint n, guint n_rounds)
{
  g_autoptr (HydTaskPool) pool = hyd_task_pool_new (n_threads);
  double *x = g_new (double, n), *y = g_new (double, n);
  double *cost = g_new (double, n);
  guint *ps = g_new (guint, n_threads + 1);
  for (guint i = 0; i < n; i++)
    {
      x[i] = 0.1 + 0.8 * i / n;
      cost[i] = 1 + i % 7;
    }
  hyd_partition_contiguous (cost, n, n_threads, ps);
  for (guint r = 0; r < n_rounds; r++)
    {
      StencilCtx c = { n, x, y };
      hyd_task_pool_run (pool, ps, stencil_task, &c);
      double *t = x;
      x = y;
      y = t;
    }
  g_free (y);
  g_free (cost);
  g_free (ps);
  return x;
}

static void
test_deterministic (void)
{
  enum { N = 1003, ROUNDS = 300 };
  g_autofree double *r1 = stencil_run (1, N, ROUNDS);
  g_autofree double *r2 = stencil_run (2, N, ROUNDS);
  g_autofree double *r3 = stencil_run (3, N, ROUNDS);
  g_assert_cmpmem (r1, N * sizeof (double), r2, N * sizeof (double));
  g_assert_cmpmem (r1, N * sizeof (double), r3, N * sizeof (double));
  /* the computation did not collapse to a constant (the check could not fail then) */
  g_assert_cmpfloat (r1[0], !=, r1[N / 2]);
}

/* ---- partition --------------------------------------------------------- */

/* the largest part sum of a partition, on prefix sums as the partition computes them */
static double
max_part (const double *S, const guint *ps, guint k)
{
  double m = 0.0;
  for (guint p = 0; p < k; p++)
    m = MAX (m, S[ps[p + 1]] - S[ps[p]]);
  return m;
}

/* brute force: every placement of the k − 1 inner boundaries */
static double
brute (const double *S, guint n, guint k, guint p, guint start, double sofar)
{
  if (p == k - 1)
    return MAX (sofar, S[n] - S[start]);
  double best = G_MAXDOUBLE;
  for (guint end = start; end <= n; end++)
    best = MIN (best, brute (S, n, k, p + 1, end, MAX (sofar, S[end] - S[start])));
  return best;
}

static void
check_partition_valid (const guint *ps, guint n, guint k)
{
  g_assert_cmpuint (ps[0], ==, 0);
  g_assert_cmpuint (ps[k], ==, n);
  for (guint p = 0; p < k; p++)
    g_assert_cmpuint (ps[p], <=, ps[p + 1]);
}

static void
test_partition_brute (void)
{
  g_autoptr (GRand) rng = g_rand_new_with_seed (20261127);
  for (int c = 0; c < 3000; c++)
    {
      guint n = g_rand_int_range (rng, 0, 11);
      guint k = g_rand_int_range (rng, 1, 6);
      gboolean integer = c % 2 == 0;
      double cost[10], S[11];
      guint ps[7];
      S[0] = 0.0;
      for (guint i = 0; i < n; i++)
        {
          cost[i] = integer ? g_rand_int_range (rng, 0, 10) : g_rand_double_range (rng, 0.0, 5.0);
          S[i + 1] = S[i] + cost[i];
        }
      hyd_partition_contiguous (cost, n, k, ps);
      check_partition_valid (ps, n, k);
      double got = max_part (S, ps, k), want = brute (S, n, k, 0, 0, 0.0);
      if (got != want)
        g_error ("case %d (n %u, k %u): largest part %.17g, brute force %.17g", c, n, k, got, want);
    }
}

static void
test_partition_edges (void)
{
  guint ps[8];

  /* no tasks */
  hyd_partition_contiguous (NULL, 0, 4, ps);
  for (guint k = 0; k <= 4; k++)
    g_assert_cmpuint (ps[k], ==, 0);

  /* more parts than tasks: each task alone (the optimum is the largest cost) */
  double two[2] = { 3.0, 1.0 };
  hyd_partition_contiguous (two, 2, 7, ps);
  check_partition_valid (ps, 2, 7);
  g_assert_cmpuint (ps[1], ==, 1);
  g_assert_cmpuint (ps[2], ==, 2);

  /* one part */
  hyd_partition_contiguous (two, 2, 1, ps);
  g_assert_cmpuint (ps[0], ==, 0);
  g_assert_cmpuint (ps[1], ==, 2);

  /* zero costs: any split is optimal, a valid one is returned */
  double zero[5] = { 0 };
  hyd_partition_contiguous (zero, 5, 3, ps);
  check_partition_valid (ps, 5, 3);

  /* a dominant task sits alone */
  double big[6] = { 1, 1, 100, 1, 1, 1 };
  hyd_partition_contiguous (big, 6, 3, ps);
  double S[7] = { 0 };
  for (int i = 0; i < 6; i++)
    S[i + 1] = S[i] + big[i];
  g_assert_cmpfloat (max_part (S, ps, 3), ==, 100.0);
  g_assert_cmpfloat (max_part (S, ps, 3), ==, brute (S, 6, 3, 0, 0, 0.0));

  /* equal costs split evenly */
  double ones[12];
  for (int i = 0; i < 12; i++)
    ones[i] = 1.0;
  hyd_partition_contiguous (ones, 12, 4, ps);
  for (guint k = 0; k <= 4; k++)
    g_assert_cmpuint (ps[k], ==, 3 * k);
}

static void
test_partition_large (void)
{
  enum { N = 100000, K = 8 };
  g_autoptr (GRand) rng = g_rand_new_with_seed (20261127);
  double *cost = g_new (double, N);
  double *S = g_new (double, N + 1);
  guint ps[K + 1];
  double cmax = 0.0;
  S[0] = 0.0;
  for (guint i = 0; i < N; i++)
    {
      cost[i] = g_rand_double_range (rng, 0.5, 50.0);
      S[i + 1] = S[i] + cost[i];
      cmax = MAX (cmax, cost[i]);
    }
  gint64 t0 = g_get_monotonic_time ();
  hyd_partition_contiguous (cost, N, K, ps);
  g_test_message ("partition of %d tasks into %d parts: %.1f ms", N, K,
                  (g_get_monotonic_time () - t0) / 1000.0);
  check_partition_valid (ps, N, K);
  /* the optimum lies between the mean part and the mean part plus one task */
  double m = max_part (S, ps, K);
  g_assert_cmpfloat (m, >=, S[N] / K);
  g_assert_cmpfloat (m, <=, S[N] / K + cmax);
  /* the same partition again (deterministic) */
  guint ps2[K + 1];
  hyd_partition_contiguous (cost, N, K, ps2);
  g_assert_cmpmem (ps, sizeof ps, ps2, sizeof ps2);
  g_free (cost);
  g_free (S);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/task-pool/each-task-once-on-its-thread", test_each_task_once);
  g_test_add_func ("/engine/task-pool/free-idle", test_free_idle);
  g_test_add_func ("/engine/task-pool/many-rounds", test_many_rounds);
  g_test_add_func ("/engine/task-pool/deterministic-1-2-3-threads", test_deterministic);
  g_test_add_func ("/engine/task-pool/partition-brute-force", test_partition_brute);
  g_test_add_func ("/engine/task-pool/partition-edges", test_partition_edges);
  g_test_add_func ("/engine/task-pool/partition-large", test_partition_large);
  return g_test_run ();
}
