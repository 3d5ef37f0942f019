/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-task-pool.h — a persistent pool of worker threads for very fine-grained
 * parallel loops (a TLM step of a small circuit costs 2–50 µs, less than one
 * mutex and condition-variable hand-off), and the partition of a row of tasks
 * into contiguous ranges of balanced cost.
 *
 * A run hands each part a fixed, contiguous range of tasks: part 0 runs on the
 * calling thread, part k (1 ≤ k < n_threads) always on the pool's worker k.
 * Within a part the tasks run in increasing order. Which thread runs a task
 * therefore depends only on the partition, never on timing, so a computation
 * whose tasks write disjoint results is bitwise identical for any number of
 * threads.
 *
 * Hand-off: workers wait for the next run by spinning on an atomic generation
 * counter for about HYD_TASK_POOL_SPIN_US microseconds after their last task,
 * then block on a condition variable (an idle pool burns no core); the caller
 * waits for the workers the same way. An empty run on 2 threads costs about
 * 0.4 µs (median wall time per run on a 2-core VM while both CPUs were free)
 * against 11 µs for a mutex and condition-variable hand-off
 * (tests/engine/bench-task-pool.c); when other processes compete for the
 * CPUs a partner is often descheduled and a run costs 1–30 µs. More threads than CPUs cost a scheduler
 * time slice per run now and then (tens of µs per run on average): give the
 * pool at most as many threads as there are CPUs.
 *
 * One caller at a time: hyd_task_pool_run is not reentrant and must not be
 * called from two threads at once, nor from inside a task. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* how long an idle worker (or the waiting caller) spins before it blocks */
#define HYD_TASK_POOL_SPIN_US 50

typedef struct _HydTaskPool HydTaskPool;

/* fn (task, part, user): one task; part is the part whose range holds task */
typedef void (*HydTaskFunc) (guint task, guint part, gpointer user);

/* A pool running n_threads parts at once: n_threads − 1 worker threads plus
 * the caller. n_threads = 1 starts no thread (runs are plain loops). */
HydTaskPool *hyd_task_pool_new (guint n_threads);

/* the n_threads the pool was made with */
guint hyd_task_pool_get_n_threads (const HydTaskPool *pool);

/* Runs fn (task, k, user) for task = part_start[k] … part_start[k+1] − 1 on
 * part k, for every k < n_threads (part_start has n_threads + 1
 * nondecreasing entries; an empty part is allowed), and returns when every
 * task has finished. Everything the tasks wrote is visible to the caller
 * after the return, and everything the caller wrote before the call is
 * visible to the tasks (full barrier on both sides). */
void hyd_task_pool_run (HydTaskPool *pool, const guint *part_start, HydTaskFunc fn, gpointer user);

/* Stops and joins the worker threads and frees the pool (not during a run). */
void hyd_task_pool_free (HydTaskPool *pool);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydTaskPool, hyd_task_pool_free)

/* Splits tasks 0 … n_tasks − 1 into n_parts contiguous ranges, part k being
 * part_start[k] … part_start[k+1] − 1 (part_start has n_parts + 1 entries,
 * part_start[0] = 0, part_start[n_parts] = n_tasks), so that the largest
 * sum of cost over a part is as small as possible (exact, on the prefix sums
 * of cost; O(n_parts · n_tasks) time, O(n_tasks) memory). Among the optimal
 * partitions it takes the one that fills each part in turn as far as the
 * optimal bound allows, so trailing parts may be empty. cost[i] must be
 * finite and ≥ 0 (a negative or NaN cost counts as 0). Deterministic. */
void hyd_partition_contiguous (const double *cost, guint n_tasks, guint n_parts, guint *part_start);

G_END_DECLS
