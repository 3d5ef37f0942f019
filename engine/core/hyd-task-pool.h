/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-task-pool.h — a persistent pool of threads for fine-grained parallel
 * loops (the tlm solver's partitions step by step), and the contiguous
 * partition of tasks of known cost. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _HydTaskPool HydTaskPool;

/* n_threads ≥ 1 parts; part 0 runs on the calling thread. */
HydTaskPool *hyd_task_pool_new (guint n_threads);
/* Runs fn (task, part, user) for the tasks part_start[k] … part_start[k+1]−1
 * of each part k on its thread, in increasing order, and returns when all
 * are done (their writes visible to the caller). */
void hyd_task_pool_run (HydTaskPool *pool, const guint *part_start,
                        void (*fn) (guint task, guint part, gpointer user), gpointer user);
void hyd_task_pool_free (HydTaskPool *pool);

/* Splits tasks 0 … n_tasks−1 into n_parts contiguous runs (part_start has
 * n_parts + 1 entries) so that the largest sum of cost is least. */
void hyd_partition_contiguous (const double *cost, guint n_tasks, guint n_parts, guint *part_start);

G_END_DECLS
