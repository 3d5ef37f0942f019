/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-simulation.c — the live run behind a window. */
#define G_LOG_DOMAIN "hyd-simulation"

#include "bramah-config.h"
#include "hyd-simulation.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>
#include "hyd-catalogue.h"
#include "hyd-display-units.h"
#include "hyd-profile.h"

struct _HydSimulation
{
  GObject parent_instance;

  /* Owned */
  HydRunner *runner;
  HydTraceStore *store;
  HydTraceStore *ghost;
  HydCircuit *circuit;       /* the circuit the run was compiled from */
  GHashTable *params;        /* "comp\nparam" → double*: last values asked for */
  double *latest;            /* [n_columns]: the latest sample */
  double *shown;             /* [n_columns]: the sample replayed (show_time), when replaying */
  double shown_t;            /* NaN: the latest sample is shown */
  GHashTable *void_columns;  /* "comp.port" → column of its node's void + 1 (0: none) */
  guint n_columns;
  gboolean has_sample;
  guint64 sample_serial;     /* counts the samples shown: latest and replayed */

  /* Electrical control (docs/electrical.md): a second compile of the
   * circuit, owned by the main thread, whose network gives the level of
   * every electrical net for the discrete states of the sample shown. */
  HydSystem *elec;           /* NULL when the circuit has no electrical net */
  int *elec_columns;         /* [n_discrete]: column of each discrete state, or −1 */
  double *elec_d;            /* [n_discrete] */
  guint8 *elec_levels;       /* [n_elec_nets] */
  guint64 elec_serial;       /* the sample_serial elec_levels were found for (0: none) */
  GHashTable *elec_nets;     /* "comp.port" → net + 1 (0: none) */

  double real_time_factor;
  double tlm_filter;         /* the application's settings for tlm (NaN: the engine's default) */
  guint threads;
  guint keep_ghost : 1;
  GCancellable *starting;    /* a run being compiled by a worker (start_async), or NULL */
};

G_DEFINE_FINAL_TYPE (HydSimulation, hyd_simulation, G_TYPE_OBJECT)

enum {
  SIGNAL_STATE_CHANGED,
  SIGNAL_SAMPLES,
  SIGNAL_WARNING,
  SIGNAL_FINISHED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

/* The sample the schematic shows: the latest, or the one replayed. */
static const double *
shown_sample (HydSimulation *self)
{
  return isnan (self->shown_t) ? self->latest : self->shown;
}

static void
runner_samples_cb (HydRunner *runner, gpointer rows, guint n_rows, HydSimulation *self)
{
  if (runner != self->runner || n_rows == 0)
    return;
  hyd_trace_store_append (self->store, rows, n_rows);
  memcpy (self->latest, (const double *) rows + (gsize) (n_rows - 1) * self->n_columns,
          sizeof (double) * self->n_columns);
  self->has_sample = TRUE;
  self->sample_serial++;
  g_signal_emit (self, signals[SIGNAL_SAMPLES], 0);
}

static const HydParamInfo *
find_param_info (HydSimulation *self, const char *component, const char *param)
{
  const HydCircuitComponent *comp
      = self->circuit ? hyd_circuit_find_component (self->circuit, component) : NULL;
  const HydComponentType *type = comp ? hyd_catalogue_lookup (comp->type) : NULL;
  int index = type ? hyd_component_type_find_param (type, param) : -1;
  return index >= 0 ? &type->params[index] : NULL;
}

static void
runner_change_cb (HydRunner *runner, gpointer data, HydSimulation *self)
{
  const HydRunChange *change = data;
  if (runner != self->runner)
    return;
  const HydParamInfo *info = find_param_info (self, change->component, change->param);
  HydUnit unit = info ? info->unit : HYD_UNIT_NONE;
  g_autofree char *old_text = hyd_display_format (unit, change->old_value);
  g_autofree char *new_text = hyd_display_format (unit, change->new_value);
  g_autofree char *label = g_strdup_printf ("%s.%s %s → %s", change->component, change->param, old_text,
                                            new_text);
  hyd_trace_store_add_marker (self->store, change->t, label);
  g_signal_emit (self, signals[SIGNAL_SAMPLES], 0);
}

static void
runner_warning_cb (HydRunner *runner, const char *message, HydSimulation *self)
{
  if (runner == self->runner)
    g_signal_emit (self, signals[SIGNAL_WARNING], 0, message);
}

static void
runner_finished_cb (HydRunner *runner, HydSimulation *self)
{
  if (runner != self->runner)
    return;
  g_signal_emit (self, signals[SIGNAL_STATE_CHANGED], 0);
  g_signal_emit (self, signals[SIGNAL_FINISHED], 0);
}

static void
drop_runner (HydSimulation *self)
{
  if (self->runner == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->runner, self);
  HydRunnerState state = hyd_runner_get_state (self->runner);
  if (state == HYD_RUNNER_RUNNING || state == HYD_RUNNER_PAUSED)
    hyd_runner_stop (self->runner);
  g_clear_object (&self->runner);
}

static void
drop_elec (HydSimulation *self)
{
  g_clear_pointer (&self->elec, hyd_system_free);
  g_clear_pointer (&self->elec_columns, g_free);
  g_clear_pointer (&self->elec_d, g_free);
  g_clear_pointer (&self->elec_levels, g_free);
  self->elec_serial = 0;
  g_hash_table_remove_all (self->elec_nets);
}

/* Whether a circuit has a component of the electrical domain: only then is
 * it compiled a second time for the schematic's current paths. */
static gboolean
circuit_has_electrical (const HydCircuit *circuit)
{
  for (guint i = 0; i < circuit->components->len; i++)
    {
      const HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      const HydComponentType *type = hyd_catalogue_lookup (comp->type);
      for (guint X = 0; type && X < type->n_ports; X++)
        if (type->ports[X].domain == HYD_DOMAIN_ELECTRICAL)
          return TRUE;
    }
  return FALSE;
}

/* The compile for the schematic (in the worker with the run's own): a
 * circuit without electrical nets has none. */
static HydSystem *
compile_elec (const HydCircuit *circuit)
{
  if (!circuit_has_electrical (circuit))
    return NULL;
  HydSystem *system = hyd_system_compile (circuit, NULL);
  if (system && hyd_system_get_n_elec_nets (system) == 0)
    g_clear_pointer (&system, hyd_system_free);
  return system;
}

/* Forgets a run being compiled: its worker finishes, and nothing starts. */
static gboolean
cancel_start (HydSimulation *self)
{
  if (self->starting == NULL)
    return FALSE;
  g_cancellable_cancel (self->starting);
  g_clear_object (&self->starting);
  return TRUE;
}

static void
hyd_simulation_dispose (GObject *object)
{
  HydSimulation *self = HYD_SIMULATION (object);
  cancel_start (self);
  drop_runner (self);
  drop_elec (self);
  g_clear_object (&self->store);
  g_clear_object (&self->ghost);
  G_OBJECT_CLASS (hyd_simulation_parent_class)->dispose (object);
}

static void
hyd_simulation_finalize (GObject *object)
{
  HydSimulation *self = HYD_SIMULATION (object);
  g_clear_pointer (&self->circuit, hyd_circuit_free);
  g_clear_pointer (&self->params, g_hash_table_unref);
  g_clear_pointer (&self->latest, g_free);
  g_clear_pointer (&self->shown, g_free);
  g_clear_pointer (&self->void_columns, g_hash_table_unref);
  g_clear_pointer (&self->elec_nets, g_hash_table_unref);
  G_OBJECT_CLASS (hyd_simulation_parent_class)->finalize (object);
}

static void
hyd_simulation_class_init (HydSimulationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = hyd_simulation_dispose;
  object_class->finalize = hyd_simulation_finalize;

  /**
   * HydSimulation::state-changed:
   *
   * A run started, paused, resumed or ended, or the simulation was reset.
   */
  signals[SIGNAL_STATE_CHANGED] =
    g_signal_new ("state-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  /**
   * HydSimulation::samples:
   *
   * New samples (or a change marker) are in the store.
   */
  signals[SIGNAL_SAMPLES] =
    g_signal_new ("samples", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  /**
   * HydSimulation::warning:
   * @message: what happened
   *
   * The run reported a warning (vapour pressure reached, a change refused).
   */
  signals[SIGNAL_WARNING] =
    g_signal_new ("warning", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
  /**
   * HydSimulation::finished:
   *
   * The run ended: at t_end, stopped, or failed (see the result).
   */
  signals[SIGNAL_FINISHED] =
    g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
hyd_simulation_init (HydSimulation *self)
{
  self->keep_ghost = TRUE;
  self->tlm_filter = NAN;
  self->params = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->shown_t = NAN;
  self->void_columns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->elec_nets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

HydSimulation *
hyd_simulation_new (void)
{
  return g_object_new (HYD_TYPE_SIMULATION, NULL);
}

/* Makes `runner` (compiled from `circuit`, which this takes) the current run
 * and starts it; `elec` (taken, may be NULL) is the circuit's compile for
 * the electrical levels (compile_elec). */
static void
install_runner (HydSimulation *self, HydRunner *owned_runner, HydCircuit *circuit, HydSystem *elec)
{
  g_autoptr (HydRunner) runner = owned_runner;

  drop_runner (self);
  drop_elec (self);
  self->elec = elec;

  guint n = hyd_runner_get_n_columns (runner);
  g_autofree const char **names = g_new0 (const char *, n + 1);
  g_autofree HydUnit *units = g_new0 (HydUnit, n + 1);
  for (guint i = 0; i < n; i++)
    {
      names[i] = hyd_runner_get_column_name (runner, i);
      units[i] = hyd_runner_get_column_unit (runner, i);
    }

  if (self->keep_ghost && self->store && hyd_trace_store_get_n_rows (self->store) > 0)
    g_set_object (&self->ghost, self->store);
  else if (!self->keep_ghost)
    g_clear_object (&self->ghost);
  g_clear_object (&self->store);
  self->store = hyd_trace_store_new (names, units, n);
  /* the plots span the whole run from its start */
  HydRunnerProgress progress = { 0 };
  hyd_runner_get_progress (runner, &progress);
  if (progress.t_end > 0)
    hyd_trace_store_set_t_end (self->store, progress.t_end);

  g_clear_pointer (&self->circuit, hyd_circuit_free);
  self->circuit = circuit;
  g_hash_table_remove_all (self->params);
  g_hash_table_remove_all (self->void_columns);
  g_free (self->latest);
  self->latest = g_new0 (double, n + 1);
  g_free (self->shown);
  self->shown = g_new0 (double, n + 1);
  self->shown_t = NAN;
  self->n_columns = n;
  self->has_sample = FALSE;
  self->sample_serial++;
  if (self->elec)
    {
      guint n_d = hyd_system_get_n_discrete (self->elec);
      self->elec_columns = g_new (int, n_d + 1);
      self->elec_d = g_new0 (double, n_d + 1);
      self->elec_levels = g_new0 (guint8, hyd_system_get_n_elec_nets (self->elec) + 1);
      /* a discrete state the run does not stream keeps its initial value */
      hyd_system_get_discrete (self->elec, self->elec_d);
      for (guint k = 0; k < n_d; k++)
        {
          g_autofree char *name = hyd_system_dup_discrete_name (self->elec, k);
          self->elec_columns[k] = name ? hyd_runner_find_column (runner, name) : -1;
        }
    }

  self->runner = g_steal_pointer (&runner);
  g_signal_connect (self->runner, "samples", G_CALLBACK (runner_samples_cb), self);
  g_signal_connect (self->runner, "change", G_CALLBACK (runner_change_cb), self);
  g_signal_connect (self->runner, "warning", G_CALLBACK (runner_warning_cb), self);
  g_signal_connect (self->runner, "finished", G_CALLBACK (runner_finished_cb), self);
  hyd_runner_set_real_time_factor (self->runner, self->real_time_factor);
  hyd_runner_start (self->runner, NULL);

  g_signal_emit (self, signals[SIGNAL_STATE_CHANGED], 0);
}


/* The circuit's own options with the application's settings for tlm. */
static gboolean
run_options (const HydCircuit *circuit, double tlm_filter, guint threads, HydSimOptions *opts, GError **error)
{
  if (!hyd_circuit_get_sim_options (circuit, opts, error))
    return FALSE;
  opts->tlm_filter = tlm_filter;
  opts->threads = threads;
  return TRUE;
}

gboolean
hyd_simulation_start (HydSimulation *self, const HydCircuit *circuit, const HydSimOptions *sim,
                      GError **error)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), FALSE);
  g_return_val_if_fail (circuit != NULL, FALSE);

  g_auto (HydSimOptions) own = { 0 };
  if (sim == NULL)
    {
      if (!run_options (circuit, self->tlm_filter, self->threads, &own, error))
        return FALSE;
      sim = &own;
    }
  HydRunner *runner = hyd_runner_new (circuit, sim, error);
  if (runner == NULL)
    return FALSE;
  cancel_start (self);
  install_runner (self, runner, hyd_circuit_copy (circuit), compile_elec (circuit));
  return TRUE;
}

/* What the worker compiles: a copy of the circuit, with the application's
 * settings that are not in the file. */
typedef struct {
  HydCircuit *circuit;
  double tlm_filter;
  guint threads;
} StartData;

static void
start_data_free (StartData *data)
{
  g_clear_pointer (&data->circuit, hyd_circuit_free);
  g_free (data);
}

/* What the worker compiled: the run, and the schematic's electrical levels. */
typedef struct {
  HydRunner *runner;
  HydSystem *elec;
} Compiled;

static void
compiled_free (Compiled *compiled)
{
  g_clear_object (&compiled->runner);
  g_clear_pointer (&compiled->elec, hyd_system_free);
  g_free (compiled);
}

/* In the worker: the compile (task data: the circuit's copy). */
static void
start_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  StartData *start = data;
  g_auto (HydSimOptions) opts = { 0 };
  HydRunner *runner = run_options (start->circuit, start->tlm_filter, start->threads, &opts, &error)
                      ? hyd_runner_new (start->circuit, &opts, &error)
                      : NULL;

  (void) source;
  (void) cancellable;
  if (runner == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  Compiled *compiled = g_new0 (Compiled, 1);
  compiled->runner = runner;
  compiled->elec = compile_elec (start->circuit);
  g_task_return_pointer (task, compiled, (GDestroyNotify) compiled_free);
}

/* Back on the main thread: start the run, unless it was cancelled. */
static void
start_done (GObject *source, GAsyncResult *result, gpointer data)
{
  HydSimulation *self = HYD_SIMULATION (source);
  g_autoptr (GTask) outer = data;
  GTask *inner = G_TASK (result);
  GError *error = NULL;
  Compiled *compiled = g_task_propagate_pointer (inner, &error);
  g_autoptr (HydRunner) runner = compiled ? g_steal_pointer (&compiled->runner) : NULL;
  g_autoptr (HydSystem) elec = compiled ? g_steal_pointer (&compiled->elec) : NULL;
  g_clear_pointer (&compiled, compiled_free);
  gboolean current = self->starting != NULL && self->starting == g_task_get_cancellable (outer);

  if (current)
    g_clear_object (&self->starting);
  if (g_task_return_error_if_cancelled (outer))
    {
      g_clear_error (&error);
      return;
    }
  if (runner == NULL)
    {
      g_task_return_error (outer, error);
      g_signal_emit (self, signals[SIGNAL_STATE_CHANGED], 0);
      return;
    }
  install_runner (self, g_steal_pointer (&runner), hyd_circuit_copy (((StartData *) g_task_get_task_data (inner))->circuit),
                  g_steal_pointer (&elec));
  g_task_return_boolean (outer, TRUE);
}

void
hyd_simulation_start_async (HydSimulation *self, const HydCircuit *circuit,
                            GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (HYD_IS_SIMULATION (self));
  g_return_if_fail (circuit != NULL);

  cancel_start (self);
  self->starting = g_cancellable_new ();
  GTask *outer = g_task_new (self, self->starting, callback, user_data);
  g_task_set_source_tag (outer, hyd_simulation_start_async);
  GTask *inner = g_task_new (self, NULL, start_done, outer);
  StartData *start = g_new0 (StartData, 1);
  start->circuit = hyd_circuit_copy (circuit);
  start->tlm_filter = self->tlm_filter;
  start->threads = self->threads;
  g_task_set_task_data (inner, start, (GDestroyNotify) start_data_free);
  g_task_run_in_thread (inner, start_thread);
  g_object_unref (inner);
  g_signal_emit (self, signals[SIGNAL_STATE_CHANGED], 0);
}

gboolean
hyd_simulation_start_finish (HydSimulation *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
hyd_simulation_get_starting (HydSimulation *self)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), FALSE);
  return self->starting != NULL;
}

void
hyd_simulation_pause (HydSimulation *self)
{
  g_return_if_fail (HYD_IS_SIMULATION (self));
  if (self->runner && hyd_runner_get_state (self->runner) == HYD_RUNNER_RUNNING)
    {
      hyd_runner_pause (self->runner);
      g_signal_emit (self, signals[SIGNAL_STATE_CHANGED], 0);
    }
}

void
hyd_simulation_resume (HydSimulation *self)
{
  g_return_if_fail (HYD_IS_SIMULATION (self));
  if (self->runner && hyd_runner_get_state (self->runner) == HYD_RUNNER_PAUSED)
    {
      hyd_runner_resume (self->runner);
      g_signal_emit (self, signals[SIGNAL_STATE_CHANGED], 0);
    }
}

void
hyd_simulation_stop (HydSimulation *self)
{
  g_return_if_fail (HYD_IS_SIMULATION (self));
  if (cancel_start (self))
    {
      g_signal_emit (self, signals[SIGNAL_STATE_CHANGED], 0);
      return;
    }
  if (hyd_simulation_get_active (self))
    hyd_runner_stop (self->runner);
}

void
hyd_simulation_reset (HydSimulation *self)
{
  g_return_if_fail (HYD_IS_SIMULATION (self));
  cancel_start (self);
  drop_runner (self);
  drop_elec (self);
  g_clear_object (&self->store);
  g_clear_object (&self->ghost);
  g_clear_pointer (&self->circuit, hyd_circuit_free);
  g_hash_table_remove_all (self->params);
  self->has_sample = FALSE;
  g_signal_emit (self, signals[SIGNAL_STATE_CHANGED], 0);
}

HydRunnerState
hyd_simulation_get_state (HydSimulation *self)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), HYD_RUNNER_READY);
  return self->runner ? hyd_runner_get_state (self->runner) : HYD_RUNNER_READY;
}

gboolean
hyd_simulation_get_active (HydSimulation *self)
{
  HydRunnerState state = hyd_simulation_get_state (self);
  return self->starting != NULL || state == HYD_RUNNER_RUNNING || state == HYD_RUNNER_PAUSED;
}

HydRunner *
hyd_simulation_get_runner (HydSimulation *self)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), NULL);
  return self->runner;
}

HydTraceStore *
hyd_simulation_get_store (HydSimulation *self)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), NULL);
  return self->store;
}

HydTraceStore *
hyd_simulation_get_ghost (HydSimulation *self)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), NULL);
  return self->ghost;
}

void
hyd_simulation_set_keep_ghost (HydSimulation *self, gboolean keep_ghost)
{
  g_return_if_fail (HYD_IS_SIMULATION (self));
  self->keep_ghost = !!keep_ghost;
  if (!keep_ghost && self->ghost)
    {
      g_clear_object (&self->ghost);
      g_signal_emit (self, signals[SIGNAL_STATE_CHANGED], 0);
    }
}

gboolean
hyd_simulation_get_keep_ghost (HydSimulation *self)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), FALSE);
  return self->keep_ghost;
}

void
hyd_simulation_set_real_time_factor (HydSimulation *self, double factor)
{
  g_return_if_fail (HYD_IS_SIMULATION (self));
  self->real_time_factor = MAX (factor, 0.0);
  if (self->runner && hyd_simulation_get_active (self))
    hyd_runner_set_real_time_factor (self->runner, self->real_time_factor);
}

double
hyd_simulation_get_real_time_factor (HydSimulation *self)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), 0.0);
  return self->real_time_factor;
}

void
hyd_simulation_set_tlm (HydSimulation *self, double filter, guint threads)
{
  g_return_if_fail (HYD_IS_SIMULATION (self));
  self->tlm_filter = filter;
  self->threads = threads;
}

void
hyd_simulation_get_tlm (HydSimulation *self, double *filter, guint *threads)
{
  g_return_if_fail (HYD_IS_SIMULATION (self));
  if (filter)
    *filter = self->tlm_filter;
  if (threads)
    *threads = self->threads;
}

static char *
param_key (const char *component, const char *param)
{
  return g_strconcat (component, "\n", param, NULL);
}

gboolean
hyd_simulation_set_param (HydSimulation *self, const char *component, const char *param, double value,
                          GError **error)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), FALSE);
  if (!hyd_simulation_get_active (self))
    {
      g_set_error_literal (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_SIMULATION, _("No simulation is running"));
      return FALSE;
    }
  const HydParamInfo *info = find_param_info (self, component, param);
  if (info)
    {
      if (isfinite (info->min) && value < info->min)
        value = info->min;
      if (isfinite (info->max) && value > info->max)
        value = info->max;
    }
  if (!hyd_runner_set_param (self->runner, component, param, value, error))
    return FALSE;
  double *stored = g_new (double, 1);
  *stored = value;
  g_hash_table_insert (self->params, param_key (component, param), stored);
  return TRUE;
}

gboolean
hyd_simulation_get_param (HydSimulation *self, const char *component, const char *param, double *value)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), FALSE);
  g_autofree char *key = param_key (component, param);
  const double *stored = g_hash_table_lookup (self->params, key);
  if (stored)
    {
      *value = *stored;
      return TRUE;
    }
  /* the run's own value: the profile in force at the last sample */
  const HydCircuitComponent *comp
      = self->circuit ? hyd_circuit_find_component (self->circuit, component) : NULL;
  const HydComponentType *type = comp ? hyd_catalogue_lookup (comp->type) : NULL;
  int index = type ? hyd_component_type_find_param (type, param) : -1;
  if (index < 0)
    return FALSE;
  HydFluid fluid;
  if (!hyd_circuit_get_fluid (self->circuit, &fluid, NULL))
    return FALSE;
  g_autoptr (HydComponentParams) params = hyd_circuit_component_get_params (comp, &fluid, NULL);
  if (params == NULL)
    return FALSE;
  HydRunnerProgress progress = { 0 };
  if (self->runner)
    hyd_runner_get_progress (self->runner, &progress);
  *value = hyd_component_params_get_at (params, param, progress.t);
  return isfinite (*value);
}

gboolean
hyd_simulation_lookup (HydSimulation *self, const char *name, double *value)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), FALSE);
  if (self->runner == NULL || !self->has_sample)
    return FALSE;
  int column = hyd_runner_find_column (self->runner, name);
  if (column < 0 || (guint) column >= self->n_columns)
    return FALSE;
  *value = shown_sample (self)[column];
  return TRUE;
}

void
hyd_simulation_show_time (HydSimulation *self, double t)
{
  g_return_if_fail (HYD_IS_SIMULATION (self));
  guint n_rows = self->store ? hyd_trace_store_get_n_rows (self->store) : 0;
  self->sample_serial++;
  if (isnan (t) || n_rows == 0 || self->shown == NULL)
    {
      self->shown_t = NAN;
      return;
    }
  const double *time = hyd_trace_store_get_column (self->store, 0);
  /* the last sample at or before t (the first before the run's start) */
  guint lo = 0, hi = n_rows;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;
      if (time[mid] <= t)
        lo = mid;
      else
        hi = mid;
    }
  guint n = MIN (self->n_columns, hyd_trace_store_get_n_columns (self->store));
  for (guint c = 0; c < n; c++)
    self->shown[c] = hyd_trace_store_get_column (self->store, c)[lo];
  self->shown_t = time[lo];
}

double
hyd_simulation_get_shown_time (HydSimulation *self)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), NAN);
  return self->shown_t;
}

GStrv
hyd_simulation_dup_variables (HydSimulation *self)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), NULL);
  if (self->runner == NULL)
    return NULL;
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  for (guint i = 0; i < hyd_runner_get_n_columns (self->runner); i++)
    {
      const char *name = hyd_runner_get_column_name (self->runner, i);
      if (g_strcmp0 (name, "t") != 0)
        g_strv_builder_add (builder, name);
    }
  return g_strv_builder_end (builder);
}

void
hyd_simulation_get_progress (HydSimulation *self, HydRunnerProgress *progress)
{
  g_return_if_fail (HYD_IS_SIMULATION (self));
  if (self->runner)
    hyd_runner_get_progress (self->runner, progress);
  else
    memset (progress, 0, sizeof *progress);
}

const HydOdeResult *
hyd_simulation_get_result (HydSimulation *self)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), NULL);
  return self->runner ? hyd_runner_get_result (self->runner) : NULL;
}

const HydCircuit *
hyd_simulation_get_circuit (HydSimulation *self)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), NULL);
  return self->runner ? self->circuit : NULL;
}

/* Whether the latest sample would change what the schematic shows: some
 * variable moved by more than LIVE_CHANGE_FRACTION of the largest magnitude
 * it has had in the run (0.2 % of a 100 bar pressure colour scale, 0.6 mm of
 * a 300 mm stroke: less than a pixel or a colour step). A still circuit (a
 * clamped cylinder, a run settled) then costs no redraw. */
#define LIVE_CHANGE_FRACTION 2e-3

gboolean
hyd_live_sample_changed (GArray *drawn, const double *row, guint n)
{
  if (drawn->len != 2 * n)
    {
      g_array_set_size (drawn, 2 * n);
      double *d = (double *) drawn->data;
      for (guint c = 0; c < n; c++)
        {
          d[c] = row[c];
          d[n + c] = isfinite (row[c]) ? fabs (row[c]) : 0;
        }
      return TRUE;
    }
  double *d = (double *) drawn->data;
  gboolean changed = FALSE;
  /* column 0 is t: time alone changes nothing drawn */
  for (guint c = 1; c < n; c++)
    {
      if (isfinite (row[c]))
        d[n + c] = MAX (d[n + c], fabs (row[c]));
      double tol = LIVE_CHANGE_FRACTION * d[n + c];
      if (!(fabs (row[c] - d[c]) <= tol) && !(isnan (row[c]) && isnan (d[c])))
        changed = TRUE;
    }
  if (changed)
    memcpy (d, row, n * sizeof (double));
  return changed;
}

/* ---- the pressure colour scale and cavitation ---- */

double
hyd_pressure_scale_max (const HydCircuit *circuit)
{
  double p_max = 0;
  HydFluid fluid;
  if (circuit == NULL || !hyd_circuit_get_fluid (circuit, &fluid, NULL))
    return HYD_PRESSURE_SCALE_DEFAULT;
  for (guint i = 0; i < circuit->components->len; i++)
    {
      const HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      const HydComponentType *type = hyd_catalogue_lookup (comp->type);
      if (type == NULL || type->scale_param == NULL)
        continue;
      g_autoptr (HydComponentParams) params = hyd_circuit_component_get_params (comp, &fluid, NULL);
      double v = params ? hyd_component_params_get (params, type->scale_param) : NAN;
      if (isfinite (v))
        p_max = MAX (p_max, v);
    }
  if (!(p_max > 0))
    return HYD_PRESSURE_SCALE_DEFAULT;
  double top = 1.2 * p_max * 1e-5; /* bar */
  double step = pow (10, floor (log10 (top))) / 2;
  return ceil (top / step - 1e-9) * step * 1e5;
}

#define CAVITATION_NAMED 4

char *
hyd_cavitation_describe (const char *const *names, const double *values, guint n, double p_cavitation)
{
  g_autoptr (GPtrArray) named = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) with_void = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint c = 0; c < n; c++)
    if (g_str_has_suffix (names[c], ".void"))
      {
        g_autofree char *node = g_strndup (names[c], strlen (names[c]) - 5);
        if (values[c] > 0)
          {
            g_autofree char *litres = hyd_display_format_number (values[c] * 1e3, 2);
            g_ptr_array_add (named, g_strdup_printf ("%s (%s L)", node, litres));
          }
        g_hash_table_add (with_void, g_steal_pointer (&node));
      }
  for (guint c = 0; c < n; c++)
    {
      const char *name = names[c];
      const char *dot = strchr (name, '.');
      if (!g_str_has_suffix (name, ".p") || dot == NULL || strchr (dot + 1, '.') == NULL)
        continue; /* node pressures are "<comp>.<port>.p" */
      g_autofree char *node = g_strndup (name, strlen (name) - 2);
      if (g_hash_table_contains (with_void, node) || !(values[c] < p_cavitation))
        continue;
      g_autofree char *bar = hyd_display_format_number (values[c] * 1e-5, 2);
      g_ptr_array_add (named, g_strdup_printf ("%s (%s bar)", node, bar));
    }
  if (named->len == 0)
    return NULL;
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < MIN (named->len, CAVITATION_NAMED); i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      g_string_append (s, g_ptr_array_index (named, i));
    }
  if (named->len > CAVITATION_NAMED)
    /* translators: after a list of cavitating nodes */
    g_string_append_printf (s, _(" and %u more"), named->len - CAVITATION_NAMED);
  return g_string_free (s, FALSE);
}

char *
hyd_simulation_describe_cavitation (HydSimulation *self, double p_cavitation)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), NULL);
  if (self->runner == NULL || !self->has_sample)
    return NULL;
  g_autofree const char **names = g_new0 (const char *, self->n_columns + 1);
  for (guint c = 0; c < self->n_columns; c++)
    names[c] = hyd_runner_get_column_name (self->runner, c);
  return hyd_cavitation_describe (names, shown_sample (self), self->n_columns, p_cavitation);
}

gboolean
hyd_simulation_port_void (HydSimulation *self, const char *component, const char *port, double *volume)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), FALSE);
  if (self->runner == NULL || !self->has_sample)
    return FALSE;
  g_autofree char *key = g_strdup_printf ("%s.%s", component, port);
  gpointer found;
  int column;
  if (g_hash_table_lookup_extended (self->void_columns, key, NULL, &found))
    column = GPOINTER_TO_INT (found) - 1;
  else
    {
      /* the void is named after the node's first port, the pressure column
       * the runner finds for any port of the node */
      g_autofree char *p_name = g_strdup_printf ("%s.p", key);
      int p_column = hyd_runner_find_column (self->runner, p_name);
      column = -1;
      if (p_column >= 0)
        {
          const char *node_p = hyd_runner_get_column_name (self->runner, p_column);
          if (g_str_has_suffix (node_p, ".p"))
            {
              g_autofree char *base = g_strndup (node_p, strlen (node_p) - 2);
              g_autofree char *void_name = g_strdup_printf ("%s.void", base);
              column = hyd_runner_find_column (self->runner, void_name);
            }
        }
      g_hash_table_insert (self->void_columns, g_steal_pointer (&key), GINT_TO_POINTER (column + 1));
    }
  if (column < 0 || (guint) column >= self->n_columns)
    return FALSE;
  *volume = shown_sample (self)[column];
  return TRUE;
}

/* ---- electrical control ---- */

gboolean
hyd_simulation_get_elec_level (HydSimulation *self, const char *component, const char *port, guint *level)
{
  g_return_val_if_fail (HYD_IS_SIMULATION (self), FALSE);
  if (self->elec == NULL || !self->has_sample || component == NULL || port == NULL)
    return FALSE;
  g_autofree char *key = g_strdup_printf ("%s.%s", component, port);
  gpointer found;
  int net;
  if (g_hash_table_lookup_extended (self->elec_nets, key, NULL, &found))
    net = GPOINTER_TO_INT (found) - 1;
  else
    {
      net = hyd_system_get_elec_net (self->elec, component, port);
      g_hash_table_insert (self->elec_nets, g_steal_pointer (&key), GINT_TO_POINTER (net + 1));
    }
  if (net < 0)
    return FALSE;
  if (self->elec_serial != self->sample_serial)
    {
      /* once per sample shown: a union-find over the nets */
      const double *row = shown_sample (self);
      guint n_d = hyd_system_get_n_discrete (self->elec);
      for (guint k = 0; k < n_d; k++)
        if (self->elec_columns[k] >= 0 && (guint) self->elec_columns[k] < self->n_columns)
          self->elec_d[k] = row[self->elec_columns[k]];
      hyd_system_get_elec_levels (self->elec, self->elec_d, self->elec_levels);
      self->elec_serial = self->sample_serial;
    }
  *level = self->elec_levels[net];
  return TRUE;
}
