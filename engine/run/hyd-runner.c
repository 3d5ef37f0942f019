/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-runner.c — a live simulation run: a worker thread running
 * hyd_run_execute, and the messages it posts to the consumer's main context.
 *
 * The runner (a GObject, main thread) and its job (plain, reference-counted,
 * shared with the worker) are apart: the job holds the compiled system, the
 * controls (pause, real-time factor, cancel flag, requested changes) and the
 * queue of messages for the main context; it refers to the runner only
 * through a GWeakRef, so messages that arrive after the runner is gone are
 * dropped. Messages go through one queue drained by one idle source at a
 * time, so they arrive in the order the worker posted them. The worker never
 * calls g_main_context_invoke: from a thread that does not own a context it
 * may acquire the default context and run the function right there. */
#include "hyd-runner.h"

#include <math.h>
#include <string.h>

#define FLUSH_INTERVAL_US (G_USEC_PER_SEC / 30)
/* A run more than this behind real time stops catching up: it paces from
 * where it is rather than rushing through the backlog. */
#define MAX_LAG_US (G_USEC_PER_SEC / 4)
/* Longest single wait while pacing (stop and pause also wake it). */
#define PACE_SLICE_US (G_USEC_PER_SEC / 10)

typedef enum {
  MSG_ROWS,
  MSG_CHANGE,
  MSG_WARNING,
  MSG_DONE,
} MsgKind;

typedef struct {
  MsgKind kind;
  double *rows;               /* MSG_ROWS: n_rows × n_columns */
  guint n_rows;
  HydRunnerProgress progress; /* MSG_ROWS, MSG_DONE */
  HydRunChange *change;       /* MSG_CHANGE */
  char *text;                 /* MSG_WARNING */
  HydDiagnostic *diag;        /* MSG_WARNING: the same, as data */
  HydOdeResult result;        /* MSG_DONE */
} Msg;

typedef struct {
  gatomicrefcount ref;

  /* Fixed before the worker starts. */
  HydSystem *sys;
  HydSimOptions sim;
  int *columns;
  guint n_columns;
  GMainContext *context;
  GWeakRef owner;            /* the HydRunner */
  GAsyncQueue *requests;     /* of HydRunChange*: live changes asked for */

  gint cancel;               /* atomic */

  GMutex lock;
  GCond cond;                /* pause, resume, stop, factor changed */
  gboolean paused;
  double factor;             /* real-time factor */
  guint factor_serial;       /* bumped at every change of factor */
  GQueue messages;           /* of Msg*, for the main context */
  gboolean drain_pending;    /* an idle source will drain messages */

  /* The worker's own. */
  GArray *batch;             /* of double: rows not posted yet */
  guint batch_rows;
  gint64 last_flush;
  gint64 wall_start;
  gint64 paused_us;
  double last_t;
  guint64 samples;
  HydOdeStats stats;         /* HydRunSpec.progress */
  GPtrArray *warnings;       /* of char*: the run's, posted up to n_posted */
  GPtrArray *diagnostics;    /* of HydDiagnostic*: the same, as data */
  guint n_posted;
  double anchor_t;           /* pacing: simulated time anchor_t was at */
  gint64 anchor_wall;        /*   wall time anchor_wall; 0: not anchored */
  guint seen_serial;
} RunJob;

struct _HydRunner {
  GObject parent_instance;

  RunJob *job;
  GThread *thread;
  HydRunnerState state;
  HydRunnerProgress progress;
  HydOdeResult result;
  gboolean has_result;
  GPtrArray *change_log;     /* of HydRunChange* */
  GPtrArray *warnings;       /* of char* */
  GPtrArray *diagnostics;    /* of HydDiagnostic*: the same, as data */
};

G_DEFINE_FINAL_TYPE (HydRunner, hyd_runner, G_TYPE_OBJECT)

enum {
  SIGNAL_SAMPLES,
  SIGNAL_CHANGE,
  SIGNAL_WARNING,
  SIGNAL_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

const char *
hyd_runner_state_name (HydRunnerState state)
{
  switch (state)
    {
    case HYD_RUNNER_READY:    return "ready";
    case HYD_RUNNER_RUNNING:  return "running";
    case HYD_RUNNER_PAUSED:   return "paused";
    case HYD_RUNNER_FINISHED: return "finished";
    case HYD_RUNNER_STOPPED:  return "stopped";
    case HYD_RUNNER_FAILED:   return "failed";
    default:                  return "unknown";
    }
}

/* ---------- the job ---------- */

static void
msg_free (Msg *msg)
{
  g_free (msg->rows);
  hyd_run_change_free (msg->change);
  g_free (msg->text);
  g_clear_pointer (&msg->diag, hyd_diagnostic_unref);
  g_free (msg->result.message);
  g_strfreev (msg->result.message_parts);
  g_free (msg->result.note);
  g_free (msg);
}

static RunJob *
job_ref (RunJob *job)
{
  g_atomic_ref_count_inc (&job->ref);
  return job;
}

static void
job_unref (gpointer data)
{
  RunJob *job = data;
  if (!g_atomic_ref_count_dec (&job->ref))
    return;
  hyd_system_free (job->sys);
  hyd_sim_options_clear (&job->sim);
  g_free (job->columns);
  if (job->context)
    g_main_context_unref (job->context);
  g_weak_ref_clear (&job->owner);
  g_async_queue_unref (job->requests);
  g_queue_clear_full (&job->messages, (GDestroyNotify) msg_free);
  g_mutex_clear (&job->lock);
  g_cond_clear (&job->cond);
  if (job->batch)
    g_array_unref (job->batch);
  if (job->warnings)
    g_ptr_array_unref (job->warnings);
  if (job->diagnostics)
    g_ptr_array_unref (job->diagnostics);
  g_free (job);
}

static gboolean
job_cancelled (RunJob *job)
{
  return g_atomic_int_get (&job->cancel) != 0;
}

/* ---------- delivery, on the main context ---------- */

static void
deliver (HydRunner *self, Msg *msg)
{
  switch (msg->kind)
    {
    case MSG_ROWS:
      self->progress = msg->progress;
      g_signal_emit (self, signals[SIGNAL_SAMPLES], 0, msg->rows, msg->n_rows);
      break;
    case MSG_CHANGE:
      g_ptr_array_add (self->change_log, hyd_run_change_copy (msg->change));
      g_signal_emit (self, signals[SIGNAL_CHANGE], 0, msg->change);
      break;
    case MSG_WARNING:
      g_ptr_array_add (self->warnings, g_strdup (msg->text));
      if (msg->diag)
        g_ptr_array_add (self->diagnostics, hyd_diagnostic_ref (msg->diag));
      g_signal_emit (self, signals[SIGNAL_WARNING], 0, msg->text);
      break;
    case MSG_DONE:
      self->progress = msg->progress;
      self->result = msg->result;
      memset (&msg->result, 0, sizeof msg->result);
      self->has_result = TRUE;
      if (self->result.status == HYD_ODE_SUCCESS)
        self->state = HYD_RUNNER_FINISHED;
      else if (self->result.status == HYD_ODE_CANCELLED)
        self->state = HYD_RUNNER_STOPPED;
      else
        self->state = HYD_RUNNER_FAILED;
      /* the worker ends right after posting this */
      g_clear_pointer (&self->thread, g_thread_join);
      g_signal_emit (self, signals[SIGNAL_FINISHED], 0);
      break;
    default:
      g_assert_not_reached ();
    }
}

static gboolean
drain (gpointer data)
{
  RunJob *job = data;
  GQueue pending = G_QUEUE_INIT;

  g_mutex_lock (&job->lock);
  pending = job->messages;
  g_queue_init (&job->messages);
  job->drain_pending = FALSE;
  g_mutex_unlock (&job->lock);

  /* The runner may be gone (disposed during the run), or go while we
   * deliver (its last owner drops it in a handler): then the rest is
   * dropped. It is held only while one message is delivered. */
  Msg *msg;
  while ((msg = g_queue_pop_head (&pending)) != NULL)
    {
      HydRunner *self = g_weak_ref_get (&job->owner);
      if (self != NULL && self->job == job)
        deliver (self, msg);
      g_clear_object (&self);
      msg_free (msg);
    }
  return G_SOURCE_REMOVE;
}

/* Worker: queue a message; one idle source on the context drains them. */
static void
post (RunJob *job, Msg *msg)
{
  gboolean schedule;

  g_mutex_lock (&job->lock);
  g_queue_push_tail (&job->messages, msg);
  schedule = !job->drain_pending;
  job->drain_pending = TRUE;
  g_mutex_unlock (&job->lock);

  if (schedule)
    {
      GSource *source = g_idle_source_new ();
      g_source_set_priority (source, G_PRIORITY_DEFAULT);
      g_source_set_callback (source, drain, job_ref (job), job_unref);
      g_source_set_static_name (source, "[bramah] run delivery");
      g_source_attach (source, job->context);
      g_source_unref (source);
    }
}

/* ---------- the worker ---------- */

static void
fill_progress (RunJob *job, HydRunnerProgress *p)
{
  gint64 now = g_get_monotonic_time ();
  p->t = job->last_t;
  p->t_end = job->sim.t_end;
  p->samples = job->samples;
  p->steps = job->stats.steps;
  p->rejected = job->stats.rejected;
  p->wall_s = MAX (0, now - job->wall_start - job->paused_us) * 1e-6;
  p->ratio = p->wall_s > 0.0 ? p->t / p->wall_s : 0.0;
}

static void
flush_rows (RunJob *job)
{
  job->last_flush = g_get_monotonic_time ();
  if (job->batch_rows == 0)
    return;
  Msg *msg = g_new0 (Msg, 1);
  msg->kind = MSG_ROWS;
  msg->n_rows = job->batch_rows;
  msg->rows = (double *) (gpointer) g_array_free (job->batch, FALSE);
  fill_progress (job, &msg->progress);
  job->batch = g_array_sized_new (FALSE, FALSE, sizeof (double), job->n_columns);
  job->batch_rows = 0;
  post (job, msg);
}

/* Warnings the run added since the last call, after the rows before them. */
static void
post_warnings (RunJob *job)
{
  if (job->n_posted >= job->warnings->len)
    return;
  flush_rows (job);
  for (; job->n_posted < job->warnings->len; job->n_posted++)
    {
      Msg *msg = g_new0 (Msg, 1);
      msg->kind = MSG_WARNING;
      msg->text = g_strdup (g_ptr_array_index (job->warnings, job->n_posted));
      if (job->n_posted < job->diagnostics->len)
        msg->diag = hyd_diagnostic_ref (g_ptr_array_index (job->diagnostics, job->n_posted));
      post (job, msg);
    }
}

/* Blocks while paused (until resumed or stopped). TRUE when it blocked. */
static gboolean
wait_while_paused (RunJob *job)
{
  g_mutex_lock (&job->lock);
  gboolean paused = job->paused && !job_cancelled (job);
  g_mutex_unlock (&job->lock);
  if (!paused)
    return FALSE;

  /* the consumer sees everything up to the pause */
  flush_rows (job);
  gint64 start = g_get_monotonic_time ();
  g_mutex_lock (&job->lock);
  while (job->paused && !job_cancelled (job))
    g_cond_wait (&job->cond, &job->lock);
  g_mutex_unlock (&job->lock);
  job->paused_us += g_get_monotonic_time () - start;
  return TRUE;
}

/* Before reporting the sample at t: honour a pause and, with a real-time
 * factor, wait until wall time catches up with t. */
static void
pace (RunJob *job, double t)
{
  for (;;)
    {
      if (job_cancelled (job))
        return;
      if (wait_while_paused (job))
        job->anchor_wall = 0;

      g_mutex_lock (&job->lock);
      double factor = job->factor;
      guint serial = job->factor_serial;
      g_mutex_unlock (&job->lock);

      gint64 now = g_get_monotonic_time ();
      if (serial != job->seen_serial || job->anchor_wall == 0)
        {
          /* pace from the last sample reported, as of now */
          job->seen_serial = serial;
          job->anchor_t = job->samples > 0 ? MIN (job->last_t, t) : t;
          job->anchor_wall = now;
        }
      if (!(factor > 0.0))
        return;

      gint64 target = job->anchor_wall
                      + (gint64) ((t - job->anchor_t) / factor * G_USEC_PER_SEC);
      if (now >= target)
        {
          if (now - target > MAX_LAG_US)
            {
              job->anchor_t = t;
              job->anchor_wall = now;
            }
          return;
        }

      g_mutex_lock (&job->lock);
      if (!job_cancelled (job) && !job->paused && job->factor_serial == serial)
        g_cond_wait_until (&job->cond, &job->lock, MIN (target, now + PACE_SLICE_US));
      g_mutex_unlock (&job->lock);
    }
}

static gboolean
worker_sample (double t, const double *values, guint n_values, gpointer user)
{
  RunJob *job = user;

  post_warnings (job);
  pace (job, t);
  if (job_cancelled (job))
    return FALSE;

  g_array_append_vals (job->batch, values, n_values);
  job->batch_rows++;
  job->samples++;
  job->last_t = t;
  if (g_get_monotonic_time () - job->last_flush >= FLUSH_INTERVAL_US)
    flush_rows (job);
  return TRUE;
}

static gboolean
worker_poll (double t, GPtrArray *requests, gpointer user)
{
  RunJob *job = user;
  HydRunChange *change;

  while ((change = g_async_queue_try_pop (job->requests)) != NULL)
    g_ptr_array_add (requests, change);
  return requests->len > 0;
}

static void
worker_changed (const HydRunChange *change, gpointer user)
{
  RunJob *job = user;

  /* the rows before the change go first */
  flush_rows (job);
  Msg *msg = g_new0 (Msg, 1);
  msg->kind = MSG_CHANGE;
  msg->change = hyd_run_change_copy (change);
  post (job, msg);
}

static gpointer
worker (gpointer data)
{
  RunJob *job = data;
  HydRunSpec spec = {
    .sim = &job->sim,
    .cancel = &job->cancel,
    .vars = job->columns,
    .n_vars = job->n_columns,
    .sample = worker_sample,
    .user = job,
    .poll = worker_poll,
    .changed = worker_changed,
    .progress = &job->stats,
    .diagnostics = job->diagnostics,
  };
  HydOdeResult result = { 0 };

  job->wall_start = job->last_flush = g_get_monotonic_time ();
  hyd_run_execute (job->sys, &spec, &result, job->warnings);

  post_warnings (job);
  flush_rows (job);
  if (result.status == HYD_ODE_CANCELLED)
    {
      g_free (result.message);
      g_clear_pointer (&result.message_parts, g_strfreev);
      result.message = g_strdup_printf ("stopped at t = %.6g s", job->last_t);
    }
  Msg *msg = g_new0 (Msg, 1);
  msg->kind = MSG_DONE;
  msg->result = result;
  fill_progress (job, &msg->progress);
  msg->progress.steps = result.stats.steps;
  msg->progress.rejected = result.stats.rejected;
  post (job, msg);

  job_unref (job);
  return NULL;
}

/* ---------- the runner ---------- */

static void
hyd_runner_dispose (GObject *object)
{
  HydRunner *self = HYD_RUNNER (object);

  if (self->thread != NULL)
    {
      /* stop the worker and wait for it: it holds no reference to us, and
       * what it posted is dropped by the weak reference */
      g_atomic_int_set (&self->job->cancel, 1);
      g_mutex_lock (&self->job->lock);
      g_cond_broadcast (&self->job->cond);
      g_mutex_unlock (&self->job->lock);
      g_clear_pointer (&self->thread, g_thread_join);
    }
  G_OBJECT_CLASS (hyd_runner_parent_class)->dispose (object);
}

static void
hyd_runner_finalize (GObject *object)
{
  HydRunner *self = HYD_RUNNER (object);

  g_clear_pointer (&self->job, job_unref);
  g_free (self->result.message);
  g_strfreev (self->result.message_parts);
  g_free (self->result.note);
  g_ptr_array_unref (self->change_log);
  g_ptr_array_unref (self->warnings);
  g_ptr_array_unref (self->diagnostics);
  G_OBJECT_CLASS (hyd_runner_parent_class)->finalize (object);
}

static void
hyd_runner_class_init (HydRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = hyd_runner_dispose;
  object_class->finalize = hyd_runner_finalize;

  signals[SIGNAL_SAMPLES] =
    g_signal_new ("samples", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_POINTER, G_TYPE_UINT);
  signals[SIGNAL_CHANGE] =
    g_signal_new ("change", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIGNAL_WARNING] =
    g_signal_new ("warning", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_FINISHED] =
    g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
hyd_runner_init (HydRunner *self)
{
  self->state = HYD_RUNNER_READY;
  self->result.worst_state = -1;
  self->change_log = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_run_change_free);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  self->diagnostics = hyd_diagnostic_list_new ();
}

HydRunner *
hyd_runner_new (const HydCircuit *circuit, const HydSimOptions *sim, GError **error)
{
  g_return_val_if_fail (circuit != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  HydSimOptions opts;
  if (sim != NULL)
    {
      opts = *sim;
      opts.solver = g_strdup (sim->solver);
    }
  else if (!hyd_circuit_get_sim_options (circuit, &opts, error))
    return NULL;

  HydSystem *sys = hyd_system_compile (circuit, error);
  if (sys == NULL)
    {
      hyd_sim_options_clear (&opts);
      return NULL;
    }

  RunJob *job = g_new0 (RunJob, 1);
  g_atomic_ref_count_init (&job->ref);
  job->sys = sys;
  job->sim = opts;
  job->n_columns = hyd_system_get_n_variables (sys);
  job->columns = g_new (int, job->n_columns + 1);
  for (guint v = 0; v < job->n_columns; v++)
    job->columns[v] = (int) v;
  job->requests = g_async_queue_new_full ((GDestroyNotify) hyd_run_change_free);
  g_mutex_init (&job->lock);
  g_cond_init (&job->cond);
  g_queue_init (&job->messages);
  job->factor = isfinite (opts.real_time_factor) ? MAX (0.0, opts.real_time_factor) : 0.0;
  job->warnings = g_ptr_array_new_with_free_func (g_free);
  job->diagnostics = hyd_diagnostic_list_new ();

  HydRunner *self = g_object_new (HYD_TYPE_RUNNER, NULL);
  self->job = job;
  g_weak_ref_init (&job->owner, self);
  GPtrArray *compile_warnings = hyd_system_get_warnings (sys);
  for (guint i = 0; i < compile_warnings->len; i++)
    g_ptr_array_add (self->warnings, g_strdup (g_ptr_array_index (compile_warnings, i)));
  GPtrArray *compile_diagnostics = hyd_system_get_diagnostics (sys);
  for (guint i = 0; i < compile_diagnostics->len; i++)
    g_ptr_array_add (self->diagnostics, hyd_diagnostic_ref (g_ptr_array_index (compile_diagnostics, i)));
  return self;
}

const HydSimOptions *
hyd_runner_get_sim_options (HydRunner *self)
{
  g_return_val_if_fail (HYD_IS_RUNNER (self), NULL);
  return &self->job->sim;
}

gboolean
hyd_runner_set_columns (HydRunner *self, const char *const *names, GError **error)
{
  g_return_val_if_fail (HYD_IS_RUNNER (self), FALSE);
  g_return_val_if_fail (names != NULL, FALSE);
  g_return_val_if_fail (self->state == HYD_RUNNER_READY, FALSE);

  guint n = g_strv_length ((char **) names);
  int *columns = g_new (int, n + 1);
  for (guint i = 0; i < n; i++)
    {
      columns[i] = hyd_system_find_variable (self->job->sys, names[i]);
      if (columns[i] < 0)
        {
          g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE,
                       "no variable '%s' in the circuit", names[i]);
          g_free (columns);
          return FALSE;
        }
    }
  g_free (self->job->columns);
  self->job->columns = columns;
  self->job->n_columns = n;
  return TRUE;
}

guint
hyd_runner_get_n_columns (HydRunner *self)
{
  g_return_val_if_fail (HYD_IS_RUNNER (self), 0);
  return self->job->n_columns;
}

const char *
hyd_runner_get_column_name (HydRunner *self, guint column)
{
  g_return_val_if_fail (HYD_IS_RUNNER (self), NULL);
  g_return_val_if_fail (column < self->job->n_columns, NULL);
  return hyd_system_get_variable_name (self->job->sys, (guint) self->job->columns[column]);
}

HydUnit
hyd_runner_get_column_unit (HydRunner *self, guint column)
{
  g_return_val_if_fail (HYD_IS_RUNNER (self), HYD_UNIT_NONE);
  g_return_val_if_fail (column < self->job->n_columns, HYD_UNIT_NONE);
  return hyd_system_get_variable_unit (self->job->sys, (guint) self->job->columns[column]);
}

const char *
hyd_runner_get_column_discrete (HydRunner *self, guint column)
{
  g_return_val_if_fail (HYD_IS_RUNNER (self), NULL);
  g_return_val_if_fail (column < self->job->n_columns, NULL);
  return hyd_system_get_variable_discrete (self->job->sys, (guint) self->job->columns[column]);
}

/* The node whose pressure a variable name is ("C1.A.p" or "C1.A"), or −1. */
static int
pressure_node (const HydSystem *sys, const char *name)
{
  g_autofree char *port = g_str_has_suffix (name, ".p")
                          ? g_strndup (name, strlen (name) - 2) : g_strdup (name);
  for (guint b = 0; b < hyd_system_get_n_nodes (sys); b++)
    {
      const HydNodeInfo *ni = hyd_system_get_node (sys, b);
      for (guint k = 0; k < ni->ports->len; k++)
        if (strcmp (g_ptr_array_index (ni->ports, k), port) == 0)
          return (int) b;
    }
  return -1;
}

int
hyd_runner_find_column (HydRunner *self, const char *name)
{
  g_return_val_if_fail (HYD_IS_RUNNER (self), -1);
  g_return_val_if_fail (name != NULL, -1);

  HydSystem *sys = self->job->sys;
  int v = hyd_system_find_variable (sys, name);
  if (v < 0)
    return -1;
  for (guint c = 0; c < self->job->n_columns; c++)
    if (self->job->columns[c] == v)
      return (int) c;
  /* another port of the same node */
  int node = pressure_node (sys, name);
  if (node < 0)
    return -1;
  for (guint c = 0; c < self->job->n_columns; c++)
    if (hyd_system_get_variable_unit (sys, (guint) self->job->columns[c]) == HYD_UNIT_PRESSURE
        && pressure_node (sys, hyd_system_get_variable_name (sys, (guint) self->job->columns[c])) == node)
      return (int) c;
  return -1;
}

void
hyd_runner_start (HydRunner *self, GMainContext *context)
{
  g_return_if_fail (HYD_IS_RUNNER (self));
  g_return_if_fail (self->thread == NULL && !self->has_result);

  /* stopped before the start */
  if (self->state != HYD_RUNNER_READY)
    return;
  RunJob *job = self->job;
  if (context == NULL)
    context = g_main_context_get_thread_default ();
  if (context == NULL)
    context = g_main_context_default ();
  job->context = g_main_context_ref (context);
  job->batch = g_array_sized_new (FALSE, FALSE, sizeof (double), job->n_columns);
  g_mutex_lock (&job->lock);
  self->state = job->paused ? HYD_RUNNER_PAUSED : HYD_RUNNER_RUNNING;
  g_mutex_unlock (&job->lock);
  self->thread = g_thread_new ("bramah-run", worker, job_ref (job));
}

void
hyd_runner_pause (HydRunner *self)
{
  g_return_if_fail (HYD_IS_RUNNER (self));

  if (self->state != HYD_RUNNER_RUNNING && self->state != HYD_RUNNER_READY)
    return;
  g_mutex_lock (&self->job->lock);
  self->job->paused = TRUE;
  g_cond_broadcast (&self->job->cond);
  g_mutex_unlock (&self->job->lock);
  if (self->state == HYD_RUNNER_RUNNING)
    self->state = HYD_RUNNER_PAUSED;
}

void
hyd_runner_resume (HydRunner *self)
{
  g_return_if_fail (HYD_IS_RUNNER (self));

  if (self->state != HYD_RUNNER_PAUSED && self->state != HYD_RUNNER_READY)
    return;
  g_mutex_lock (&self->job->lock);
  self->job->paused = FALSE;
  g_cond_broadcast (&self->job->cond);
  g_mutex_unlock (&self->job->lock);
  if (self->state == HYD_RUNNER_PAUSED)
    self->state = HYD_RUNNER_RUNNING;
}

void
hyd_runner_stop (HydRunner *self)
{
  g_return_if_fail (HYD_IS_RUNNER (self));

  if (self->state == HYD_RUNNER_READY)
    {
      self->state = HYD_RUNNER_STOPPED;
      return;
    }
  if (self->state != HYD_RUNNER_RUNNING && self->state != HYD_RUNNER_PAUSED)
    return;
  g_atomic_int_set (&self->job->cancel, 1);
  g_mutex_lock (&self->job->lock);
  g_cond_broadcast (&self->job->cond);
  g_mutex_unlock (&self->job->lock);
}

void
hyd_runner_set_real_time_factor (HydRunner *self, double factor)
{
  g_return_if_fail (HYD_IS_RUNNER (self));
  g_return_if_fail (factor >= 0.0 && isfinite (factor));

  g_mutex_lock (&self->job->lock);
  if (self->job->factor != factor)
    {
      self->job->factor = factor;
      self->job->factor_serial++;
      g_cond_broadcast (&self->job->cond);
    }
  g_mutex_unlock (&self->job->lock);
}

double
hyd_runner_get_real_time_factor (HydRunner *self)
{
  g_return_val_if_fail (HYD_IS_RUNNER (self), 0.0);

  g_mutex_lock (&self->job->lock);
  double factor = self->job->factor;
  g_mutex_unlock (&self->job->lock);
  return factor;
}

gboolean
hyd_runner_set_param (HydRunner *self, const char *comp_id, const char *param,
                      double value, GError **error)
{
  g_return_val_if_fail (HYD_IS_RUNNER (self), FALSE);
  g_return_val_if_fail (comp_id != NULL && param != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->state != HYD_RUNNER_READY && self->state != HYD_RUNNER_RUNNING
      && self->state != HYD_RUNNER_PAUSED)
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_SIMULATION,
                   "%s.%s: the run has ended", comp_id, param);
      return FALSE;
    }
  /* reads only what compiling fixed: safe while the worker runs */
  if (!hyd_system_check_override (self->job->sys, comp_id, param, value, error))
    return FALSE;
  g_async_queue_push (self->job->requests,
                      hyd_run_change_new (NAN, comp_id, param, NAN, value));
  return TRUE;
}

HydRunnerState
hyd_runner_get_state (HydRunner *self)
{
  g_return_val_if_fail (HYD_IS_RUNNER (self), HYD_RUNNER_READY);
  return self->state;
}

void
hyd_runner_get_progress (HydRunner *self, HydRunnerProgress *progress)
{
  g_return_if_fail (HYD_IS_RUNNER (self));
  g_return_if_fail (progress != NULL);

  *progress = self->progress;
  progress->t_end = self->job->sim.t_end;
}

const HydOdeResult *
hyd_runner_get_result (HydRunner *self)
{
  g_return_val_if_fail (HYD_IS_RUNNER (self), NULL);
  return self->has_result ? &self->result : NULL;
}

GPtrArray *
hyd_runner_get_change_log (HydRunner *self)
{
  g_return_val_if_fail (HYD_IS_RUNNER (self), NULL);
  return self->change_log;
}

GPtrArray *
hyd_runner_get_warnings (HydRunner *self)
{
  g_return_val_if_fail (HYD_IS_RUNNER (self), NULL);
  return self->warnings;
}

GPtrArray *
hyd_runner_get_diagnostics (HydRunner *self)
{
  g_return_val_if_fail (HYD_IS_RUNNER (self), NULL);
  return self->diagnostics;
}

/* The solver's message as a diagnostic: each of its parts (a sentence and
 * the clauses after it, hyd-ode.h) a phrase translated with it. */
static HydDiagnostic *
solver_message (const HydOdeResult *r)
{
  static const char *const joined[] = { "%s", "%s%s", "%s%s%s", "%s%s%s%s" };
  g_autoptr (GPtrArray) templates = g_ptr_array_new ();
  g_autoptr (GPtrArray) english = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) part_args = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  for (guint at = 0; r->message_parts != NULL && r->message_parts[at] != NULL
                     && templates->len < G_N_ELEMENTS (joined);)
    {
      const char *template = r->message_parts[at++];
      g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
      for (const char *p = strstr (template, "%s"); p != NULL && r->message_parts[at] != NULL;
           p = strstr (p + 2, "%s"))
        g_strv_builder_add (builder, r->message_parts[at++]);
      char **args = g_strv_builder_end (builder);
      g_ptr_array_add (templates, (gpointer) template);
      g_ptr_array_add (english, hyd_diagnostic_expand (template, (const char *const *) args));
      g_ptr_array_add (part_args, args);
    }
  if (templates->len == 0)
    return hyd_diagnostic_new (HYD_DIAGNOSTIC_SOLVER_FAILED, HYD_SEVERITY_ERROR, "%s",
                               r->message ? r->message : hyd_ode_status_name (r->status), NULL);
  g_ptr_array_add (english, NULL);
  HydDiagnostic *d = hyd_diagnostic_newv (HYD_DIAGNOSTIC_SOLVER_FAILED, HYD_SEVERITY_ERROR,
                                          joined[templates->len - 1],
                                          (const char *const *) english->pdata);
  for (guint k = 0; k < templates->len; k++)
    hyd_diagnostic_set_phrase (d, k, g_ptr_array_index (templates, k),
                               g_ptr_array_index (part_args, k));
  return d;
}

HydDiagnostic *
hyd_runner_dup_failure (HydRunner *self)
{
  g_return_val_if_fail (HYD_IS_RUNNER (self), NULL);
  const HydOdeResult *r = &self->result;
  if (!self->has_result || r->status == HYD_ODE_SUCCESS || r->status == HYD_ODE_CANCELLED)
    return NULL;
  HydDiagnostic *d = solver_message (r);
  hyd_diagnostic_set_time (d, r->t);
  if (r->worst_state >= 0 && self->job != NULL
      && (guint) r->worst_state < hyd_system_get_n_states (self->job->sys))
    {
      const char *state = hyd_system_get_state_name (self->job->sys, (guint) r->worst_state);
      hyd_diagnostic_set_state (d, state);
      /* "C1.x": the component; "C1.A.p" (a node): its first port too */
      g_auto (GStrv) parts = g_strsplit (state, ".", 3);
      if (parts[0] && parts[1])
        {
          hyd_diagnostic_set_component (d, parts[0]);
          if (parts[2])
            hyd_diagnostic_set_port (d, parts[1]);
        }
    }
  return d;
}
