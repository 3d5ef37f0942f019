/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-study-dialog.c — the "Parameter Study" window: the set-up, a study
 * on threads (HydStudyPool, engine/study/hyd-study.h), its progress and
 * its plots (PLplot, extcairo, on the main thread as hyd-plot-view.c).
 *
 * Threads. The pool's `jobs` threads run every run of the study and give
 * back its CSV row (hyd_study_format_row, the bytes `sweep` writes); the
 * main thread takes them without waiting (hyd_study_pool_pop with timeout
 * 0) ten times a second and reads each back (hyd_study_row_parse). The
 * traces: a run keeps only its metrics' variables, so one more thread runs
 * up to HYD_STUDY_DIALOG_MAX_TRACES runs of the study again with a traced
 * worker (hyd_study_worker_new_traced) and hands over each trace reduced
 * to HYD_STUDY_DIALOG_TRACE_POINTS points. Cancel (and closing the window,
 * and closing its parent) cancels both; the runs under way stop at their
 * next step; the threads are joined before the study is freed. */
#include "hyd-study-dialog.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <plplot.h>
#include <string.h>

#include "hyd-catalogue.h"
#include "hyd-display-units.h"
#include "hyd-dtoa.h"
#include "hyd-help-text.h"
#include "hyd-message.h"
#include "hyd-param-value.h"
#include "hyd-study.h"
#include "hyd-system.h"

#define POLL_MS 100
#define REDRAW_US (300 * 1000)
#define MAX_FAILED_LISTED 200
#define MAX_POINTS_DRAWN 5000
#define DEFAULT_DISCHARGE_COEFFICIENT 0.7

/* the metrics the drop-down offers (any `sweep --metric` through the API) */
static const struct { const char *kind, *label; } metric_kinds[] = {
  { "final", N_("Final value") },
  { "min", N_("Minimum") },
  { "max", N_("Maximum") },
  { "mean", N_("Mean") },
  { "rms", N_("RMS") },
  { "overshoot", N_("Overshoot") },
  /* xgettext:no-c-format */
  { "settling", N_("Settling time (2 %)") },
  { "itae", N_("ITAE") },
  { "ise", N_("ISE") },
  { "iae", N_("IAE") },
  /* time_to:VAR>=X and VAR<=X, X typed in the variable's display unit */
  { "time_to>=", N_("Time to reach ≥") },
  { "time_to<=", N_("Time to fall to ≤") },
};

typedef struct {
  char *component, *param;
  const HydParamInfo *info;
  GtkWidget *label, *lo, *hi, *n, *remove;
} VaryRow;

static void
vary_row_free (VaryRow *r)
{
  g_free (r->component);
  g_free (r->param);
  g_free (r);
}

typedef struct {
  guint64 run;
  guint n;
  double *t, *v;
  double colour_value;   /* the run's first varied value (SI) */
} Trace;

static void
trace_free (Trace *t)
{
  g_free (t->t);
  g_free (t->v);
  g_free (t);
}

/* The thread that runs the traced runs again. */
typedef struct {
  HydStudy *study;
  char *var;
  guint64 *runs;
  guint n_runs;
  gint cancel;
  GAsyncQueue *out;   /* Trace *, then a Trace with n == G_MAXUINT at the end */
} Tracer;

static gpointer
tracer_thread (gpointer data)
{
  Tracer *tr = data;
  guint nv = hyd_study_get_n_vary (tr->study), nm = hyd_study_get_n_metrics (tr->study);
  g_autoptr (HydStudyWorker) w = hyd_study_worker_new_traced (tr->study, tr->var, NULL);
  g_autofree double *values = g_new0 (double, nv + 1);
  g_autofree double *metrics = g_new0 (double, nm + 1);
  for (guint k = 0; w && k < tr->n_runs && !g_atomic_int_get (&tr->cancel); k++)
    {
      hyd_study_get_values (tr->study, tr->runs[k], values);
      g_autofree char *message = NULL;
      const char *status = hyd_study_worker_run (w, values, metrics, &message, &tr->cancel);
      if (strcmp (status, "ok") != 0)
        continue;
      Trace *t = g_new0 (Trace, 1);
      t->run = tr->runs[k];
      t->colour_value = values[0];
      t->n = hyd_study_worker_get_trace (w, HYD_STUDY_DIALOG_TRACE_POINTS, &t->t, &t->v);
      g_async_queue_push (tr->out, t);
    }
  Trace *end = g_new0 (Trace, 1);
  end->n = G_MAXUINT;
  g_async_queue_push (tr->out, end);
  return NULL;
}

struct _HydStudyDialog
{
  GtkWindow parent_instance;
  HydDocument *document;            /* weak */
  GPtrArray *params;                /* of HydParamChoice: what "Add" offers */
  GStrv var_names;                  /* the circuit's variables (not t) */
  HydUnit *var_units;
  GPtrArray *rows;                  /* of VaryRow */
  GPtrArray *metric_specs;          /* of char * */
  HydStudyDialogDesign design;
  guint jobs;
  gboolean lists_stale;             /* the circuit changed since the lists were made */
  gboolean trace_chosen;            /* the user picked the traces' variable */

  /* set-up widgets */
  GtkDropDown *param_box, *design_box, *kind_box, *var_box, *trace_box, *plot_metric_box;
  GtkGrid *vary_grid;
  GtkWidget *lo_header, *hi_header, *n_header;
  GtkSpinButton *samples_spin, *seed_spin, *jobs_spin, *timeout_spin;
  GtkWidget *samples_row, *plot_metric_row, *threshold_row;
  GtkEntry *threshold_entry;
  GtkLabel *threshold_unit;
  GtkBox *metrics_box;
  GtkWidget *setup;
  GtkButton *start_button, *cancel_button, *save_button;
  GtkProgressBar *progress;
  GtkLabel *status, *command_label, *failed_label, *failed_tab;
  GtkNotebook *notebook;
  GtkDrawingArea *traces_area, *metric_area, *hist_area;
  char *message, *command;

  /* the study */
  HydStudy *study;
  HydStudyPool *pool;
  guint64 *todo;
  Tracer *tracer;
  GThread *tracer_thread;
  gboolean tracer_done;
  guint poll_id;
  gboolean running, cancelled;
  guint64 n_runs, n_done, n_failed;
  gint64 start_time, last_draw;
  char **rows_text;                 /* per run: its row, NULL until it came */
  double *values, *metrics;         /* per run: n_vary, n_metrics */
  char **status_of;                 /* per run */
  GString *failed_text;
  guint n_failed_listed;
  GPtrArray *traces;                /* of Trace */
  HydUnit *vary_units, *metric_units;
  double *metric_scale;             /* SI → shown for metrics of a variable's unit (else 1) */
  char **metric_labels, **vary_labels;
  char *trace_label;
  HydUnit trace_unit;
  double t_end;
  guint *hist_counts;
  guint hist_bins;
  double hist_lo, hist_width;
};

G_DEFINE_FINAL_TYPE (HydStudyDialog, hyd_study_dialog, GTK_TYPE_WINDOW)

enum { SIGNAL_FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

typedef struct {
  char *component, *param;
  const HydParamInfo *info;
} HydParamChoice;

static void
param_choice_free (HydParamChoice *c)
{
  g_free (c->component);
  g_free (c->param);
  g_free (c);
}

/* ---------------------------------------------------------- the circuit -- */

static const HydCircuit *
circuit_of (HydStudyDialog *self)
{
  return self->document ? hyd_document_get_circuit (self->document) : NULL;
}

static const HydParamInfo *
find_param (const HydCircuit *circuit, const char *component, const char *param)
{
  const HydCircuitComponent *c = circuit ? hyd_circuit_find_component (circuit, component) : NULL;
  const HydComponentType *type = c ? hyd_catalogue_lookup (c->type) : NULL;
  for (guint k = 0; type && k < type->n_params; k++)
    if (strcmp (type->params[k].name, param) == 0)
      return (type->params[k].flags & (HYD_PARAM_ENUM | HYD_PARAM_REFERENCE)) ? NULL : &type->params[k];
  return NULL;
}

/* The value in force of a parameter (SI), as the property panel shows it. */
static gboolean
param_value (const HydCircuit *circuit, const char *component, const HydParamInfo *info, double *si)
{
  const HydCircuitComponent *c = hyd_circuit_find_component (circuit, component);
  HydFluid fluid;
  double cd = hyd_circuit_get_fluid (circuit, &fluid, NULL) ? fluid.discharge_coefficient
                                                              : DEFAULT_DISCHARGE_COEFFICIENT;
  JsonNode *written = c && json_object_has_member (c->params, info->name)
                          ? json_object_get_member (c->params, info->name) : NULL;
  return hyd_param_value_get (info, written, cd, si);
}

static char *
param_title (const char *component, const HydParamInfo *info)
{
  const char *unit = hyd_param_value_unit (info);
  return *unit ? g_strdup_printf ("%s · %s [%s]", component, _(info->label), unit)
               : g_strdup_printf ("%s · %s", component, _(info->label));
}

/* What "Add" offers: every numeric parameter of every component. */
static void
list_params (HydStudyDialog *self)
{
  g_ptr_array_set_size (self->params, 0);
  const HydCircuit *circuit = circuit_of (self);
  GtkStringList *labels = gtk_string_list_new (NULL);
  for (guint i = 0; circuit && i < circuit->components->len; i++)
    {
      const HydCircuitComponent *c = g_ptr_array_index (circuit->components, i);
      const HydComponentType *type = hyd_catalogue_lookup (c->type);
      for (guint k = 0; type && k < type->n_params; k++)
        {
          const HydParamInfo *info = &type->params[k];
          if (info->flags & (HYD_PARAM_ENUM | HYD_PARAM_REFERENCE))
            continue;
          HydParamChoice *ch = g_new0 (HydParamChoice, 1);
          ch->component = g_strdup (c->id);
          ch->param = g_strdup (info->name);
          ch->info = info;
          g_ptr_array_add (self->params, ch);
          g_autofree char *title = param_title (c->id, info);
          gtk_string_list_append (labels, title);
        }
    }
  gtk_drop_down_set_model (self->param_box, G_LIST_MODEL (labels));
  g_object_unref (labels);
}

static int
var_index (HydStudyDialog *self, const char *name)
{
  for (guint k = 0; self->var_names && self->var_names[k]; k++)
    if (strcmp (self->var_names[k], name) == 0)
      return (int) k;
  return -1;
}

/* The circuit's variables, as the plots name them ("C1: Position [mm]"). */
static void
list_variables (HydStudyDialog *self)
{
  guint was = gtk_drop_down_get_selected (self->trace_box);
  g_autofree char *trace = self->var_names && was < g_strv_length (self->var_names)
                               ? g_strdup (self->var_names[was]) : NULL;
  g_clear_pointer (&self->var_names, g_strfreev);
  g_clear_pointer (&self->var_units, g_free);
  const HydCircuit *circuit = circuit_of (self);
  g_autoptr (HydSystem) sys = circuit ? hyd_system_compile (circuit, NULL) : NULL;
  GStrvBuilder *b = g_strv_builder_new ();
  GArray *units = g_array_new (FALSE, FALSE, sizeof (HydUnit));
  GtkStringList *labels = gtk_string_list_new (NULL);
  for (guint v = 0; sys && v < hyd_system_get_n_variables (sys); v++)
    {
      const char *name = hyd_system_get_variable_name (sys, v);
      if (strcmp (name, "t") == 0)
        continue;
      HydUnit unit = hyd_system_get_variable_unit (sys, v);
      g_strv_builder_add (b, name);
      g_array_append_val (units, unit);
      g_autofree char *header = hyd_message_column_header (name, unit);
      g_autofree char *label = g_strdup_printf ("%s  (%s)", header, name);
      gtk_string_list_append (labels, label);
    }
  self->var_names = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  self->var_units = (HydUnit *) g_array_free (units, FALSE);
  gtk_drop_down_set_model (self->var_box, G_LIST_MODEL (labels));
  g_signal_handlers_block_matched (self->trace_box, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  gtk_drop_down_set_model (self->trace_box, G_LIST_MODEL (labels));
  int k = trace ? var_index (self, trace) : -1;
  if (k >= 0)
    gtk_drop_down_set_selected (self->trace_box, (guint) k);
  g_signal_handlers_unblock_matched (self->trace_box, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  g_object_unref (labels);
}

/* The circuit was edited: the lists are made again when the window is
 * next used (compiling a large circuit at every edit would slow the
 * editor). */
static void
document_changed_cb (HydStudyDialog *self)
{
  self->lists_stale = TRUE;
  if (gtk_window_is_active (GTK_WINDOW (self)))
    {
      self->lists_stale = FALSE;
      list_params (self);
      list_variables (self);
    }
}

static void
active_changed_cb (HydStudyDialog *self)
{
  if (self->lists_stale && gtk_window_is_active (GTK_WINDOW (self)))
    {
      self->lists_stale = FALSE;
      list_params (self);
      list_variables (self);
    }
}

static void
trace_chosen_cb (HydStudyDialog *self)
{
  self->trace_chosen = TRUE;
}


/* ------------------------------------------------------------- messages -- */

static void
say (HydStudyDialog *self, const char *text)
{
  g_free (self->message);
  self->message = g_strdup (text ? text : "");
  gtk_label_set_text (self->status, self->message);
}

/* ---------------------------------------------------------- the set-up -- */

static void update_design (HydStudyDialog *self);

static void
remove_row_cb (GtkButton *button, gpointer user)
{
  HydStudyDialog *self = user;
  VaryRow *row = g_object_get_data (G_OBJECT (button), "hyd-row");
  gtk_grid_remove (self->vary_grid, row->label);
  gtk_grid_remove (self->vary_grid, row->lo);
  gtk_grid_remove (self->vary_grid, row->hi);
  gtk_grid_remove (self->vary_grid, row->n);
  gtk_grid_remove (self->vary_grid, row->remove);
  g_ptr_array_remove (self->rows, row);
  update_design (self);
}

static VaryRow *
find_row (HydStudyDialog *self, const char *component, const char *param)
{
  for (guint k = 0; k < self->rows->len; k++)
    {
      VaryRow *r = self->rows->pdata[k];
      if (strcmp (r->component, component) == 0 && strcmp (r->param, param) == 0)
        return r;
    }
  return NULL;
}

static GtkWidget *
small_entry (int chars)
{
  GtkWidget *e = gtk_entry_new ();
  gtk_editable_set_width_chars (GTK_EDITABLE (e), chars);
  gtk_editable_set_max_width_chars (GTK_EDITABLE (e), chars);
  gtk_entry_set_alignment (GTK_ENTRY (e), 1.0);
  return e;
}

static char *
shown_number (const HydParamInfo *info, double si)
{
  return hyd_param_value_format (info, si);
}

gboolean
hyd_study_dialog_add_parameter (HydStudyDialog *self, const char *component, const char *param)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), FALSE);
  if (self->lists_stale)
    {
      self->lists_stale = FALSE;
      list_params (self);
      list_variables (self);
    }
  const HydCircuit *circuit = circuit_of (self);
  const HydParamInfo *info = find_param (circuit, component, param);
  if (info == NULL)
    {
      g_autofree char *msg = g_strdup_printf (_("%s has no numeric parameter “%s” to vary."), component, param);
      say (self, msg);
      return FALSE;
    }
  if (find_row (self, component, param))
    return TRUE;
  double v, lo, hi, bmin, bmax;
  if (!param_value (circuit, component, info, &v) || !isfinite (v))
    v = info->def;
  hyd_param_value_bounds (info, &bmin, &bmax);
  if (isfinite (v) && v != 0)
    {
      lo = v - 0.2 * fabs (v);
      hi = v + 0.2 * fabs (v);
    }
  else
    hyd_param_value_slider_range (info, isfinite (v) ? v : 0, &lo, &hi);
  lo = MAX (lo, bmin);
  hi = MIN (hi, bmax);
  if (info->flags & HYD_PARAM_MIN_EXCLUSIVE && lo <= info->min)
    lo = info->min + 0.01 * (hi - info->min);
  if (info->flags & HYD_PARAM_MAX_EXCLUSIVE && hi >= info->max)
    hi = info->max - 0.01 * (info->max - lo);

  VaryRow *row = g_new0 (VaryRow, 1);
  row->component = g_strdup (component);
  row->param = g_strdup (param);
  row->info = info;
  g_autofree char *title = param_title (component, info);
  row->label = gtk_label_new (title);
  gtk_label_set_xalign (GTK_LABEL (row->label), 0);
  gtk_label_set_wrap (GTK_LABEL (row->label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (row->label), 22);
  gtk_widget_set_hexpand (row->label, TRUE);
  g_autofree char *range = hyd_param_value_describe_range (info);
  g_autofree char *tip = g_strdup_printf (_("%s.%s, allowed: %s"), component, param, range);
  gtk_widget_set_tooltip_text (row->label, tip);
  row->lo = small_entry (8);
  row->hi = small_entry (8);
  row->n = small_entry (4);
  /* the fields keep both ranges: From/To for grids and samples, Mean/SD
   * for Monte Carlo (set when the design changes) */
  g_autofree char *lo_s = shown_number (info, lo), *hi_s = shown_number (info, hi);
  g_autofree char *mean_s = shown_number (info, isfinite (v) ? v : 0.5 * (lo + hi));
  double sd = isfinite (v) && v != 0 ? 0.05 * fabs (v) : (hi - lo) / 8;
  g_autofree char *sd_s = hyd_display_format_number (hyd_display_from_si (info->unit, sd)
                                                         - hyd_display_from_si (info->unit, 0), 3);
  g_object_set_data_full (G_OBJECT (row->lo), "hyd-range", g_strdup (lo_s), g_free);
  g_object_set_data_full (G_OBJECT (row->hi), "hyd-range", g_strdup (hi_s), g_free);
  g_object_set_data_full (G_OBJECT (row->lo), "hyd-normal", g_strdup (mean_s), g_free);
  g_object_set_data_full (G_OBJECT (row->hi), "hyd-normal", g_strdup (sd_s), g_free);
  gboolean normal = self->design == HYD_STUDY_DIALOG_NORMAL;
  gtk_editable_set_text (GTK_EDITABLE (row->lo), normal ? mean_s : lo_s);
  gtk_editable_set_text (GTK_EDITABLE (row->hi), normal ? sd_s : hi_s);
  gtk_editable_set_text (GTK_EDITABLE (row->n), "5");
  gtk_widget_set_visible (row->n, self->design == HYD_STUDY_DIALOG_GRID);
  row->remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
  gtk_widget_add_css_class (row->remove, "flat");
  gtk_widget_set_tooltip_text (row->remove, _("Remove from the study"));
  g_object_set_data (G_OBJECT (row->remove), "hyd-row", row);
  g_signal_connect (row->remove, "clicked", G_CALLBACK (remove_row_cb), self);
  int y = 1;
  while (gtk_grid_get_child_at (self->vary_grid, 0, y) != NULL)
    y++;
  gtk_grid_attach (self->vary_grid, row->label, 0, y, 1, 1);
  gtk_grid_attach (self->vary_grid, row->lo, 1, y, 1, 1);
  gtk_grid_attach (self->vary_grid, row->hi, 2, y, 1, 1);
  gtk_grid_attach (self->vary_grid, row->n, 3, y, 1, 1);
  gtk_grid_attach (self->vary_grid, row->remove, 4, y, 1, 1);
  g_ptr_array_add (self->rows, row);
  update_design (self);
  return TRUE;
}

gboolean
hyd_study_dialog_set_range (HydStudyDialog *self, const char *component, const char *param, const char *lo,
                            const char *hi, const char *n)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), FALSE);
  VaryRow *row = find_row (self, component, param);
  if (row == NULL)
    return FALSE;
  if (lo)
    gtk_editable_set_text (GTK_EDITABLE (row->lo), lo);
  if (hi)
    gtk_editable_set_text (GTK_EDITABLE (row->hi), hi);
  if (n)
    gtk_editable_set_text (GTK_EDITABLE (row->n), n);
  return TRUE;
}

static void
add_clicked_cb (GtkButton *button, gpointer user)
{
  HydStudyDialog *self = user;
  guint k = gtk_drop_down_get_selected (self->param_box);
  if (k == GTK_INVALID_LIST_POSITION || k >= self->params->len)
    return;
  HydParamChoice *c = self->params->pdata[k];
  hyd_study_dialog_add_parameter (self, c->component, c->param);
}

/* A metric's label: "Final value of C1: Position [mm]" (its unit as the
 * metric shows it). */
static char *
metric_label (HydStudyDialog *self, const HydStudyMetric *m, HydUnit *unit, double *scale)
{
  const char *kind_label = NULL;
  const char *kind = NULL;
  static const char *const names[] = { "final", "min", "max", "mean", "rms", "overshoot", "settling", "time_to",
                                       "itae", "ise", "iae" };
  if ((guint) m->kind < G_N_ELEMENTS (names))
    kind = names[m->kind];
  for (guint k = 0; kind && k < G_N_ELEMENTS (metric_kinds); k++)
    if (strcmp (metric_kinds[k].kind, kind) == 0)
      kind_label = _(metric_kinds[k].label);
  int v = var_index (self, m->var);
  HydUnit vu = v >= 0 ? self->var_units[v] : HYD_UNIT_NONE;
  g_autofree char *where = hyd_message_variable_label (m->var, vu);
  *scale = 1;
  *unit = HYD_UNIT_NONE;
  const char *sym = "";
  switch (m->kind)
    {
    case HYD_STUDY_METRIC_FINAL:
    case HYD_STUDY_METRIC_MIN:
    case HYD_STUDY_METRIC_MAX:
    case HYD_STUDY_METRIC_MEAN:
    case HYD_STUDY_METRIC_RMS:
      *unit = vu;
      sym = hyd_display_symbol (vu);
      break;
    case HYD_STUDY_METRIC_OVERSHOOT:
      sym = "%";
      break;
    case HYD_STUDY_METRIC_SETTLING:
    case HYD_STUDY_METRIC_TIME_TO:
      sym = "s";
      break;
    default:
      sym = _("SI");
      break;
    }
  if (m->kind == HYD_STUDY_METRIC_TIME_TO)
    {
      static const char *const ops[] = { "≥", "≤", ">", "<" };
      g_autofree char *x = hyd_display_format (vu, m->x);
      return g_strdup_printf (_("Time until %s %s %s [s]"), where, ops[MIN ((guint) m->op, 3u)], x);
    }
  if (kind_label == NULL)
    kind_label = m->name;
  return *sym ? g_strdup_printf (_("%s of %s [%s]"), kind_label, where, sym)
              : g_strdup_printf (_("%s of %s"), kind_label, where);
}

static void
remove_metric_cb (GtkButton *button, gpointer user)
{
  HydStudyDialog *self = user;
  GtkWidget *line = gtk_widget_get_parent (GTK_WIDGET (button));
  const char *spec = g_object_get_data (G_OBJECT (line), "hyd-spec");
  for (guint k = 0; k < self->metric_specs->len; k++)
    if (strcmp (self->metric_specs->pdata[k], spec) == 0)
      {
        g_ptr_array_remove_index (self->metric_specs, k);
        break;
      }
  gtk_box_remove (self->metrics_box, line);
}

gboolean
hyd_study_dialog_add_metric (HydStudyDialog *self, const char *spec)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), FALSE);
  HydStudyMetric m = { 0 };
  g_autoptr (GError) error = NULL;
  if (!hyd_study_metric_parse (spec, &m, &error))
    {
      say (self, error->message);
      return FALSE;
    }
  for (guint k = 0; k < self->metric_specs->len; k++)
    if (strcmp (self->metric_specs->pdata[k], spec) == 0)
      {
        hyd_study_metric_clear (&m);
        return TRUE;
      }
  HydUnit unit;
  double scale;
  g_autofree char *label = metric_label (self, &m, &unit, &scale);
  hyd_study_metric_clear (&m);
  g_ptr_array_add (self->metric_specs, g_strdup (spec));
  /* the traces show the first metric's variable unless chosen */
  if (!self->trace_chosen && self->metric_specs->len == 1)
    {
      HydStudyMetric first = { 0 };
      if (hyd_study_metric_parse (spec, &first, NULL))
        {
          int k = var_index (self, first.var);
          g_signal_handlers_block_by_func (self->trace_box, trace_chosen_cb, self);
          if (k >= 0)
            gtk_drop_down_set_selected (self->trace_box, (guint) k);
          g_signal_handlers_unblock_by_func (self->trace_box, trace_chosen_cb, self);
        }
      hyd_study_metric_clear (&first);
    }
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  g_object_set_data_full (G_OBJECT (line), "hyd-spec", g_strdup (spec), g_free);
  GtkWidget *l = gtk_label_new (label);
  gtk_label_set_xalign (GTK_LABEL (l), 0);
  gtk_label_set_ellipsize (GTK_LABEL (l), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (l, TRUE);
  gtk_widget_set_tooltip_text (l, spec);
  GtkWidget *rm = gtk_button_new_from_icon_name ("list-remove-symbolic");
  gtk_widget_add_css_class (rm, "flat");
  gtk_widget_set_tooltip_text (rm, _("Remove the metric"));
  g_signal_connect (rm, "clicked", G_CALLBACK (remove_metric_cb), self);
  gtk_box_append (GTK_BOX (line), l);
  gtk_box_append (GTK_BOX (line), rm);
  gtk_box_append (self->metrics_box, line);
  return TRUE;
}

static void
append_si (GString *s, double v)
{
  char buf[HYD_DTOA_BUF_SIZE];
  hyd_dtoa_shortest (v, buf);
  g_string_append (s, buf);
}

gboolean
hyd_study_dialog_add_metric_as_shown (HydStudyDialog *self, const char *kind, const char *var,
                                      const char *threshold)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), FALSE);
  int v = var_index (self, var);
  if (v < 0)
    return FALSE;
  g_autofree char *spec = NULL;
  if (g_str_has_prefix (kind, "time_to"))
    {
      /* the threshold in the variable's display unit, to SI */
      double x;
      if (threshold == NULL || !hyd_display_parse (self->var_units[v], threshold, &x) || !isfinite (x))
        {
          g_autofree char *msg = g_strdup_printf (_("Threshold: “%s” is not a number."), threshold ? threshold : "");
          say (self, msg);
          gtk_widget_grab_focus (GTK_WIDGET (self->threshold_entry));
          return FALSE;
        }
      GString *sp = g_string_new (NULL);
      g_string_append_printf (sp, "time_to:%s%s", var, kind + strlen ("time_to"));
      append_si (sp, x);
      spec = g_string_free (sp, FALSE);
    }
  else
    spec = g_strdup_printf ("%s:%s", kind, var);
  return hyd_study_dialog_add_metric (self, spec);
}

static void
add_metric_clicked_cb (GtkButton *button, gpointer user)
{
  HydStudyDialog *self = user;
  guint k = gtk_drop_down_get_selected (self->kind_box), v = gtk_drop_down_get_selected (self->var_box);
  if (k >= G_N_ELEMENTS (metric_kinds) || self->var_names == NULL || v >= g_strv_length (self->var_names))
    return;
  if (hyd_study_dialog_add_metric_as_shown (self, metric_kinds[k].kind, self->var_names[v],
                                            gtk_editable_get_text (GTK_EDITABLE (self->threshold_entry))))
    say (self, NULL);   /* an earlier "Add a metric" no longer holds */
}

/* The threshold's row shows for the time_to kinds, with the variable's unit. */
static void
metric_choice_changed_cb (HydStudyDialog *self)
{
  guint k = gtk_drop_down_get_selected (self->kind_box), v = gtk_drop_down_get_selected (self->var_box);
  gboolean time_to = k < G_N_ELEMENTS (metric_kinds) && g_str_has_prefix (metric_kinds[k].kind, "time_to");
  gtk_widget_set_visible (self->threshold_row, time_to);
  gboolean known = self->var_names && v < g_strv_length (self->var_names);
  gtk_label_set_text (self->threshold_unit, known ? hyd_display_symbol (self->var_units[v]) : "");
}

gboolean
hyd_study_dialog_set_trace_variable (HydStudyDialog *self, const char *var)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), FALSE);
  int k = var_index (self, var);
  if (k < 0)
    return FALSE;
  gtk_drop_down_set_selected (self->trace_box, (guint) k);
  return TRUE;
}

void
hyd_study_dialog_set_timeout (HydStudyDialog *self, double seconds)
{
  g_return_if_fail (HYD_IS_STUDY_DIALOG (self));
  gtk_spin_button_set_value (self->timeout_spin, MAX (0, seconds));
}

void
hyd_study_dialog_set_jobs (HydStudyDialog *self, guint jobs)
{
  g_return_if_fail (HYD_IS_STUDY_DIALOG (self));
  gtk_spin_button_set_value (self->jobs_spin, MAX (1, jobs));
}

/* The design changed: the columns' names, and Mean/SD ↔ From/To. */
static void
update_design (HydStudyDialog *self)
{
  HydStudyDialogDesign d = gtk_drop_down_get_selected (self->design_box);
  if (d > HYD_STUDY_DIALOG_NORMAL)
    d = HYD_STUDY_DIALOG_GRID;
  gboolean was_normal = self->design == HYD_STUDY_DIALOG_NORMAL, normal = d == HYD_STUDY_DIALOG_NORMAL;
  for (guint k = 0; k < self->rows->len; k++)
    {
      VaryRow *r = self->rows->pdata[k];
      if (was_normal != normal)
        {
          GtkWidget *fields[2] = { r->lo, r->hi };
          for (guint f = 0; f < 2; f++)
            {
              /* keep what was typed for the other design */
              g_object_set_data_full (G_OBJECT (fields[f]), was_normal ? "hyd-normal" : "hyd-range",
                                      g_strdup (gtk_editable_get_text (GTK_EDITABLE (fields[f]))), g_free);
              const char *t = g_object_get_data (G_OBJECT (fields[f]), normal ? "hyd-normal" : "hyd-range");
              gtk_editable_set_text (GTK_EDITABLE (fields[f]), t ? t : "");
            }
        }
      gtk_widget_set_visible (r->n, d == HYD_STUDY_DIALOG_GRID);
    }
  self->design = d;
  gtk_label_set_text (GTK_LABEL (self->lo_header), normal ? _("Mean") : _("From"));
  gtk_label_set_text (GTK_LABEL (self->hi_header), normal ? _("SD") : _("To"));
  gtk_widget_set_visible (self->lo_header, self->rows->len > 0);
  gtk_widget_set_visible (self->hi_header, self->rows->len > 0);
  gtk_widget_set_visible (self->n_header, d == HYD_STUDY_DIALOG_GRID && self->rows->len > 0);
  gtk_widget_set_visible (self->samples_row, d != HYD_STUDY_DIALOG_GRID);
}

static void
design_changed_cb (GObject *obj, GParamSpec *pspec, gpointer user)
{
  update_design (user);
}

void
hyd_study_dialog_set_design (HydStudyDialog *self, HydStudyDialogDesign design, guint n, guint seed)
{
  g_return_if_fail (HYD_IS_STUDY_DIALOG (self));
  gtk_drop_down_set_selected (self->design_box, design);
  if (n > 0)
    gtk_spin_button_set_value (self->samples_spin, n);
  gtk_spin_button_set_value (self->seed_spin, seed);
}

/* ------------------------------------------------------- a study's spec -- */


/* The --vary texts of the rows (SI, as `sweep` takes them), checked in
 * display units against each parameter's range. NULL and *message. */
static GStrv
vary_specs (HydStudyDialog *self, char **message)
{
  if (self->rows->len == 0)
    {
      *message = g_strdup (_("Add a parameter to vary (pick it above, or right-click a parameter in the "
                             "property panel: Vary in a Study…)."));
      return NULL;
    }
  GStrvBuilder *b = g_strv_builder_new ();
  for (guint k = 0; k < self->rows->len; k++)
    {
      VaryRow *r = self->rows->pdata[k];
      g_autofree char *title = param_title (r->component, r->info);
      const char *lo_t = gtk_editable_get_text (GTK_EDITABLE (r->lo));
      const char *hi_t = gtk_editable_get_text (GTK_EDITABLE (r->hi));
      double lo, hi;
      g_autofree char *why = NULL;
      GString *spec = g_string_new (NULL);
      g_string_append_printf (spec, "%s.%s=", r->component, r->param);
      if (self->design == HYD_STUDY_DIALOG_NORMAL)
        {
          double sd_shown;
          if (!hyd_param_value_parse (r->info, lo_t, &lo, &why))
            *message = g_strdup_printf (_("%s, mean: %s"), title, why);
          else if (!hyd_display_parse (HYD_UNIT_NONE, hi_t, &sd_shown) || !(sd_shown > 0) || !isfinite (sd_shown))
            *message = g_strdup_printf (_("%s, SD: “%s” is not a number greater than 0."), title, hi_t);
          else
            {
              /* a spread in display units → SI (an offset unit's zero cancels) */
              hi = hyd_display_to_si (r->info->unit, sd_shown) - hyd_display_to_si (r->info->unit, 0);
              g_string_append (spec, "normal:");
              append_si (spec, lo);
              g_string_append_c (spec, ':');
              append_si (spec, hi);
            }
        }
      else
        {
          gint64 n = 0;
          const char *n_t = gtk_editable_get_text (GTK_EDITABLE (r->n));
          if (!hyd_param_value_parse (r->info, lo_t, &lo, &why))
            *message = g_strdup_printf (_("%s, from: %s"), title, why);
          else if (!hyd_param_value_parse (r->info, hi_t, &hi, &why))
            *message = g_strdup_printf (_("%s, to: %s"), title, why);
          else if (!(lo < hi))
            *message = g_strdup_printf (_("%s: “from” must be less than “to”."), title);
          else if (self->design == HYD_STUDY_DIALOG_GRID
                   && (!g_ascii_string_to_signed (n_t, 10, 1, 1000000, &n, NULL)))
            *message = g_strdup_printf (_("%s, points: “%s” is not a whole number from 1 to 1000000."), title,
                                        n_t);
          else
            {
              append_si (spec, lo);
              g_string_append_c (spec, ':');
              append_si (spec, hi);
              if (self->design == HYD_STUDY_DIALOG_GRID)
                g_string_append_printf (spec, ":%" G_GINT64_FORMAT, n);
            }
        }
      if (*message)
        {
          g_string_free (spec, TRUE);
          g_strv_builder_unref (b);
          gtk_widget_grab_focus (r->lo);
          return NULL;
        }
      g_strv_builder_add (b, spec->str);
      g_string_free (spec, TRUE);
    }
  GStrv out = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return out;
}

static HydStudyDesign
engine_design (HydStudyDialogDesign d)
{
  switch (d)
    {
    case HYD_STUDY_DIALOG_GRID:
      return HYD_STUDY_DESIGN_GRID;
    case HYD_STUDY_DIALOG_LHS:
      return HYD_STUDY_DESIGN_LHS;
    default:
      return HYD_STUDY_DESIGN_RANDOM;
    }
}

/* A word of a shell command: quoted only when it must be. */
static char *
shell_word (const char *text)
{
  for (const char *p = text; *p; p++)
    if (!g_ascii_isalnum (*p) && !strchr ("_.:=/+,-@%", *p))
      return g_shell_quote (text);
  return *text ? g_strdup (text) : g_shell_quote (text);
}

static void
update_command (HydStudyDialog *self, GStrv vary)
{
  const char *path = self->document ? hyd_document_get_path (self->document) : NULL;
  g_autofree char *base = path ? g_path_get_basename (path) : g_strdup ("CIRCUIT.bramah");
  g_autofree char *qbase = shell_word (base);
  GString *c = g_string_new ("bramah-cli sweep ");
  g_string_append (c, qbase);
  for (guint k = 0; vary && vary[k]; k++)
    {
      g_autofree char *q = shell_word (vary[k]);
      g_string_append_printf (c, " --vary %s", q);
    }
  for (guint k = 0; k < self->metric_specs->len; k++)
    {
      g_autofree char *q = shell_word (self->metric_specs->pdata[k]);
      g_string_append_printf (c, " --metric %s", q);
    }
  if (self->design != HYD_STUDY_DIALOG_GRID)
    g_string_append_printf (c, " --%s %d --seed %d", self->design == HYD_STUDY_DIALOG_LHS ? "lhs" : "random",
                            gtk_spin_button_get_value_as_int (self->samples_spin),
                            gtk_spin_button_get_value_as_int (self->seed_spin));
  double timeout = gtk_spin_button_get_value (self->timeout_spin);
  if (timeout > 0)
    {
      char buf[HYD_DTOA_BUF_SIZE];
      hyd_dtoa_shortest (timeout, buf);
      g_string_append_printf (c, " --timeout %s", buf);
    }
  g_string_append_printf (c, " --jobs %d -o study.csv", gtk_spin_button_get_value_as_int (self->jobs_spin));
  g_free (self->command);
  self->command = g_string_free (c, FALSE);
  g_autofree char *text = g_strdup_printf (_("The same study on the command line (the circuit as saved):\n%s"),
                                           self->command);
  gtk_label_set_text (self->command_label, text);
}

/* ------------------------------------------------------------ the study -- */

static void
set_running (HydStudyDialog *self, gboolean running)
{
  self->running = running;
  gtk_widget_set_sensitive (self->setup, !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->start_button), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->cancel_button), running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), !running && self->n_done > 0);
}

/* Stop everything and join the threads; the rows stay. */
static void
stop_threads (HydStudyDialog *self)
{
  if (self->poll_id)
    {
      g_source_remove (self->poll_id);
      self->poll_id = 0;
    }
  if (self->tracer)
    g_atomic_int_set (&self->tracer->cancel, 1);
  g_clear_pointer (&self->pool, hyd_study_pool_free);
  if (self->tracer_thread)
    {
      g_thread_join (self->tracer_thread);
      self->tracer_thread = NULL;
    }
  if (self->tracer)
    {
      Trace *t;
      while ((t = g_async_queue_try_pop (self->tracer->out)) != NULL)
        trace_free (t);
      g_async_queue_unref (self->tracer->out);
      g_free (self->tracer->var);
      g_free (self->tracer->runs);
      g_free (self->tracer);
      self->tracer = NULL;
    }
  g_clear_pointer (&self->todo, g_free);
}

static void
clear_results (HydStudyDialog *self)
{
  stop_threads (self);
  if (self->rows_text)
    for (guint64 k = 0; k < self->n_runs; k++)
      {
        g_free (self->rows_text[k]);
        g_free (self->status_of[k]);
      }
  g_clear_pointer (&self->rows_text, g_free);
  g_clear_pointer (&self->status_of, g_free);
  g_clear_pointer (&self->values, g_free);
  g_clear_pointer (&self->metrics, g_free);
  g_clear_pointer (&self->vary_units, g_free);
  g_clear_pointer (&self->metric_units, g_free);
  g_clear_pointer (&self->metric_scale, g_free);
  g_clear_pointer (&self->metric_labels, g_strfreev);
  g_clear_pointer (&self->vary_labels, g_strfreev);
  g_clear_pointer (&self->trace_label, g_free);
  g_clear_pointer (&self->hist_counts, g_free);
  self->hist_bins = 0;
  g_ptr_array_set_size (self->traces, 0);
  g_clear_pointer (&self->study, hyd_study_free);
  if (self->failed_text)
    g_string_truncate (self->failed_text, 0);
  self->n_failed_listed = 0;
  self->n_runs = self->n_done = self->n_failed = 0;
}

static void
redraw (HydStudyDialog *self)
{
  self->last_draw = g_get_monotonic_time ();
  gtk_widget_queue_draw (GTK_WIDGET (self->traces_area));
  gtk_widget_queue_draw (GTK_WIDGET (self->metric_area));
  gtk_widget_queue_draw (GTK_WIDGET (self->hist_area));
}

static void compute_histogram (HydStudyDialog *self);

static void
show_progress (HydStudyDialog *self, gboolean final)
{
  double secs = (g_get_monotonic_time () - self->start_time) / 1e6;
  double rate = secs > 0 ? self->n_done / secs : 0;
  gtk_progress_bar_set_fraction (self->progress, self->n_runs ? (double) self->n_done / (double) self->n_runs : 0);
  g_autofree char *done = g_strdup_printf ("%" G_GUINT64_FORMAT, self->n_done);
  g_autofree char *all = g_strdup_printf ("%" G_GUINT64_FORMAT, self->n_runs);
  g_autofree char *failed = g_strdup_printf ("%" G_GUINT64_FORMAT, self->n_failed);
  g_autofree char *text = NULL;
  if (final && self->cancelled)
    text = g_strdup_printf (_("Cancelled: %s of %s runs done, %s failed, %.3g runs/s."), done, all, failed, rate);
  else if (final)
    text = g_strdup_printf (_("Done: %s runs, %s failed, %.3g runs/s, %.1f s."), done, failed, rate, secs);
  else if (rate > 0 && self->n_done > 0)
    text = g_strdup_printf (_("%s of %s runs, %s failed, %.3g runs/s, about %.0f s left"), done, all, failed, rate,
                            (double) (self->n_runs - self->n_done) / rate);
  else
    text = g_strdup_printf (_("%s of %s runs, %s failed"), done, all, failed);
  say (self, text);
}

static void
take_row (HydStudyDialog *self, guint64 run, char *row)
{
  guint nv = hyd_study_get_n_vary (self->study), nm = hyd_study_get_n_metrics (self->study);
  if (run >= self->n_runs || self->rows_text[run] != NULL)
    {
      g_free (row);
      return;
    }
  guint64 r;
  char *status = NULL, *message = NULL;
  if (!hyd_study_row_parse (self->study, row, &r, self->values + run * nv, &status, self->metrics + run * nm,
                            &message))
    {
      status = g_strdup ("unreadable-row");
      message = g_strdup (row);
    }
  self->rows_text[run] = row;
  self->status_of[run] = status;
  self->n_done++;
  if (strcmp (status, "ok") != 0)
    {
      self->n_failed++;
      if (self->n_failed_listed < MAX_FAILED_LISTED)
        {
          g_autofree char *human = NULL;
          if (strcmp (status, "invalid-value") == 0)
            /* the engine's words are SI: say it in the panel's units */
            for (guint j = 0; j < nv && human == NULL; j++)
              {
                VaryRow *vr = j < self->rows->len ? self->rows->pdata[j] : NULL;
                double v = self->values[run * nv + j];
                if (vr && vr->info->unit == self->vary_units[j] && !hyd_param_value_in_range (vr->info, v))
                  {
                    g_autofree char *range = hyd_param_value_describe_range (vr->info);
                    g_autofree char *shown = hyd_display_format (vr->info->unit, v);
                    human = g_strdup_printf (_("“%s” of %s: %s is out of its range (%s)"), _(vr->info->label),
                                             vr->component, shown, range);
                  }
              }
          if (human == NULL && message)
            human = hyd_message_humanize (circuit_of (self), message);
          g_autofree char *run_s = g_strdup_printf ("%" G_GUINT64_FORMAT, run);
          g_string_append_printf (self->failed_text, _("Run %s ("), run_s);
          for (guint j = 0; j < nv; j++)
            {
              g_autofree char *v = hyd_display_format (self->vary_units[j], self->values[run * nv + j]);
              g_string_append_printf (self->failed_text, "%s%s = %s", j ? ", " : "",
                                      hyd_study_get_vary (self->study, j)->name, v);
            }
          g_string_append_printf (self->failed_text, "): %s%s%s\n", status, human ? " — " : "", human ? human : "");
          self->n_failed_listed++;
        }
    }
  g_free (message);
}

static void
finish (HydStudyDialog *self)
{
  stop_threads (self);
  compute_histogram (self);
  set_running (self, FALSE);
  show_progress (self, TRUE);
  GString *f = g_string_new (NULL);
  if (self->n_failed == 0)
    g_string_append (f, _("No run failed."));
  else
    {
      g_string_append (f, self->failed_text->str);
      if (self->n_failed > self->n_failed_listed)
        {
          g_autofree char *more = g_strdup_printf ("%" G_GUINT64_FORMAT, self->n_failed - self->n_failed_listed);
          g_string_append_printf (f, _("… and %s more (all in the CSV)."), more);
        }
    }
  gtk_label_set_text (self->failed_label, f->str);
  g_string_free (f, TRUE);
  g_autofree char *n_failed = g_strdup_printf ("%" G_GUINT64_FORMAT, self->n_failed);
  g_autofree char *tab = g_strdup_printf (_("Failed Runs (%s)"), n_failed);
  gtk_label_set_text (self->failed_tab, tab);
  redraw (self);
  g_signal_emit (self, signals[SIGNAL_FINISHED], 0, self->cancelled);
}

static gboolean
poll_cb (gpointer user)
{
  HydStudyDialog *self = user;
  gboolean changed = FALSE, done = FALSE;
  /* take what came, never waiting */
  for (guint k = 0; k < 5000 && self->pool; k++)
    {
      guint64 run;
      char *row;
      gboolean ok;
      if (!hyd_study_pool_pop (self->pool, 0, &run, &row, &ok, &done))
        break;
      take_row (self, run, row);
      changed = TRUE;
    }
  Trace *t;
  while (self->tracer && (t = g_async_queue_try_pop (self->tracer->out)) != NULL)
    {
      if (t->n == G_MAXUINT)
        {
          self->tracer_done = TRUE;
          trace_free (t);
          continue;
        }
      if (t->n > 0)
        g_ptr_array_add (self->traces, t);
      else
        trace_free (t);
      changed = TRUE;
    }
  if (done && (self->tracer_done || self->cancelled))
    {
      self->poll_id = 0;
      finish (self);
      return G_SOURCE_REMOVE;
    }
  show_progress (self, FALSE);
  if (changed && g_get_monotonic_time () - self->last_draw > REDRAW_US)
    {
      compute_histogram (self);
      redraw (self);
    }
  return G_SOURCE_CONTINUE;
}

gboolean
hyd_study_dialog_start (HydStudyDialog *self)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), FALSE);
  if (self->running)
    return FALSE;
  const HydCircuit *circuit = circuit_of (self);
  if (circuit == NULL)
    {
      say (self, _("There is no circuit."));
      return FALSE;
    }
  g_autofree char *message = NULL;
  g_auto (GStrv) vary = vary_specs (self, &message);
  if (vary == NULL)
    {
      say (self, message);
      return FALSE;
    }
  /* no metric added yet: the one the pickers show, as a person expects */
  if (self->metric_specs->len == 0)
    add_metric_clicked_cb (NULL, self);
  update_command (self, vary);
  if (self->metric_specs->len == 0)
    {
      say (self, _("Add a metric: what to keep of each run (such as the final value of a position)."));
      return FALSE;
    }
  guint tv = gtk_drop_down_get_selected (self->trace_box);
  if (self->var_names == NULL || tv >= g_strv_length (self->var_names))
    {
      say (self, _("Choose the variable to draw for each run (Traces)."));
      return FALSE;
    }
  clear_results (self);
  /* the circuit as it is now: later edits do not touch the study */
  g_autoptr (GError) error = NULL;
  g_auto (HydSimOptions) sim = { 0 };
  if (!hyd_circuit_get_sim_options (circuit, &sim, &error))
    {
      g_autofree char *human = hyd_message_humanize (circuit, error->message);
      say (self, human);
      return FALSE;
    }
  if (!(hyd_run_count_samples (&sim) <= HYD_RUN_MAX_SAMPLES))
    {
      g_autofree char *msg = g_strdup_printf (_("Each run would report %.0f samples, more than %.0f: raise the "
                                                "output interval or shorten the run."),
                                              hyd_run_count_samples (&sim), HYD_RUN_MAX_SAMPLES);
      say (self, msg);
      return FALSE;
    }
  HydStudy *study = hyd_study_new (circuit, &sim, FALSE);
  gboolean ok = TRUE;
  for (guint k = 0; ok && vary[k]; k++)
    ok = hyd_study_add_vary (study, vary[k], &error);
  for (guint k = 0; ok && k < self->metric_specs->len; k++)
    ok = hyd_study_add_metric (study, self->metric_specs->pdata[k], &error);
  guint n = (guint) gtk_spin_button_get_value_as_int (self->samples_spin);
  guint seed = (guint) gtk_spin_button_get_value_as_int (self->seed_spin);
  double timeout = gtk_spin_button_get_value (self->timeout_spin);
  if (timeout > 0)
    hyd_study_set_timeout (study, timeout);
  if (ok)
    {
      hyd_study_set_design (study, engine_design (self->design), n, seed);
      ok = hyd_study_prepare (study, &error);
    }
  if (!ok)
    {
      g_autofree char *human = hyd_message_humanize (circuit, error->message);
      g_autofree char *msg = g_strdup_printf (_("The study cannot start: %s"), human);
      say (self, msg);
      hyd_study_free (study);
      return FALSE;
    }
  if (hyd_study_get_n_runs (study) > HYD_STUDY_DIALOG_MAX_RUNS)
    {
      g_autofree char *n_s = g_strdup_printf ("%" G_GUINT64_FORMAT, hyd_study_get_n_runs (study));
      g_autofree char *msg = g_strdup_printf (_("The study has %s runs; this window keeps every row and takes at "
                                                "most %d: run it with bramah-cli sweep (the command below)."),
                                              n_s, HYD_STUDY_DIALOG_MAX_RUNS);
      say (self, msg);
      hyd_study_free (study);
      return FALSE;
    }
  self->study = study;
  self->n_runs = hyd_study_get_n_runs (study);
  self->t_end = sim.t_end;
  guint nv = hyd_study_get_n_vary (study), nm = hyd_study_get_n_metrics (study);
  self->rows_text = g_new0 (char *, self->n_runs);
  self->status_of = g_new0 (char *, self->n_runs);
  self->values = g_new0 (double, self->n_runs * nv);
  self->metrics = g_new0 (double, self->n_runs * nm);
  self->vary_units = g_new0 (HydUnit, nv);
  self->vary_labels = g_new0 (char *, nv + 1);
  for (guint j = 0; j < nv; j++)
    {
      VaryRow *r = self->rows->pdata[j];
      self->vary_units[j] = r->info->unit;
      self->vary_labels[j] = param_title (r->component, r->info);
    }
  self->metric_units = g_new0 (HydUnit, nm);
  self->metric_scale = g_new0 (double, nm);
  self->metric_labels = g_new0 (char *, nm + 1);
  GtkStringList *mlabels = gtk_string_list_new (NULL);
  for (guint i = 0; i < nm; i++)
    {
      self->metric_labels[i] = metric_label (self, hyd_study_get_metric (study, i), &self->metric_units[i],
                                             &self->metric_scale[i]);
      gtk_string_list_append (mlabels, self->metric_labels[i]);
    }
  gtk_drop_down_set_model (self->plot_metric_box, G_LIST_MODEL (mlabels));
  g_object_unref (mlabels);
  gtk_drop_down_set_selected (self->plot_metric_box, 0);
  gtk_widget_set_visible (self->plot_metric_row, TRUE);
  self->trace_unit = self->var_units[tv];
  self->trace_label = hyd_message_column_header (self->var_names[tv], self->trace_unit);

  /* every run to the pool; up to MAX_TRACES of them again for traces */
  self->todo = g_new (guint64, self->n_runs);
  for (guint64 k = 0; k < self->n_runs; k++)
    self->todo[k] = k;
  guint jobs = (guint) gtk_spin_button_get_value_as_int (self->jobs_spin);
  self->pool = hyd_study_pool_new (study, (guint) MIN ((guint64) MAX (jobs, 1), self->n_runs), self->todo,
                                   self->n_runs);
  Tracer *tr = g_new0 (Tracer, 1);
  tr->study = study;
  tr->var = g_strdup (self->var_names[tv]);
  tr->n_runs = (guint) MIN (self->n_runs, (guint64) HYD_STUDY_DIALOG_MAX_TRACES);
  tr->runs = g_new (guint64, tr->n_runs);
  for (guint k = 0; k < tr->n_runs; k++)
    tr->runs[k] = tr->n_runs == self->n_runs || tr->n_runs == 1
                      ? k : (guint64) k * (self->n_runs - 1) / (tr->n_runs - 1);
  tr->out = g_async_queue_new ();
  self->tracer = tr;
  self->tracer_done = FALSE;
  self->tracer_thread = g_thread_new ("hyd-study-trace", tracer_thread, tr);
  self->cancelled = FALSE;
  self->start_time = g_get_monotonic_time ();
  self->last_draw = 0;
  gtk_label_set_text (self->failed_label, "");
  gtk_label_set_text (self->failed_tab, _("Failed Runs"));
  set_running (self, TRUE);
  show_progress (self, FALSE);
  redraw (self);
  self->poll_id = g_timeout_add (POLL_MS, poll_cb, self);
  return TRUE;
}

void
hyd_study_dialog_cancel (HydStudyDialog *self)
{
  g_return_if_fail (HYD_IS_STUDY_DIALOG (self));
  if (!self->running)
    return;
  self->cancelled = TRUE;
  if (self->pool)
    hyd_study_pool_cancel (self->pool);
  if (self->tracer)
    g_atomic_int_set (&self->tracer->cancel, 1);
  say (self, _("Cancelling…"));
}

static void
start_clicked_cb (GtkButton *b, gpointer user)
{
  hyd_study_dialog_start (user);
}

static void
cancel_clicked_cb (GtkButton *b, gpointer user)
{
  hyd_study_dialog_cancel (user);
}

/* ------------------------------------------------------------- results -- */

char *
hyd_study_dialog_get_csv (HydStudyDialog *self)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), NULL);
  if (self->study == NULL)
    return NULL;
  g_autofree char *header = hyd_study_header (self->study);
  GString *csv = g_string_new (header);
  for (guint64 k = 0; k < self->n_runs; k++)
    if (self->rows_text[k])
      g_string_append (csv, self->rows_text[k]);
  return g_string_free (csv, FALSE);
}

gboolean
hyd_study_dialog_save_csv (HydStudyDialog *self, const char *path, GError **error)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), FALSE);
  g_autofree char *csv = hyd_study_dialog_get_csv (self);
  if (csv == NULL)
    {
      g_set_error_literal (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, _("No study has run yet."));
      return FALSE;
    }
  return g_file_set_contents (path, csv, -1, error);
}

static void
save_response_cb (GtkNativeDialog *chooser, int response, gpointer user)
{
  HydStudyDialog *self = user;
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      g_autoptr (GError) error = NULL;
      if (path && !hyd_study_dialog_save_csv (self, path, &error))
        {
          g_autofree char *msg = g_strdup_printf (_("Cannot save %s: %s"), path, error->message);
          say (self, msg);
        }
      else if (path)
        {
          g_autofree char *msg = g_strdup_printf (_("Saved %s."), path);
          say (self, msg);
        }
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
  g_object_unref (self);
}

static void
save_clicked_cb (GtkButton *b, gpointer user)
{
  HydStudyDialog *self = user;
  GtkFileChooserNative *chooser = gtk_file_chooser_native_new (_("Save Study as CSV"), GTK_WINDOW (self),
                                                               GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"),
                                                               _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "study.csv");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (save_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

guint64
hyd_study_dialog_get_n_runs (HydStudyDialog *self)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), 0);
  return self->n_runs;
}

guint64
hyd_study_dialog_get_n_done (HydStudyDialog *self)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), 0);
  return self->n_done;
}

guint64
hyd_study_dialog_get_n_failed (HydStudyDialog *self)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), 0);
  return self->n_failed;
}

gboolean
hyd_study_dialog_get_run (HydStudyDialog *self, guint64 run, double *values, double *metrics, const char **status)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), FALSE);
  if (self->study == NULL || run >= self->n_runs || self->rows_text[run] == NULL)
    return FALSE;
  guint nv = hyd_study_get_n_vary (self->study), nm = hyd_study_get_n_metrics (self->study);
  if (values)
    memcpy (values, self->values + run * nv, nv * sizeof (double));
  if (metrics)
    memcpy (metrics, self->metrics + run * nm, nm * sizeof (double));
  if (status)
    *status = self->status_of[run];
  return TRUE;
}

const char *
hyd_study_dialog_get_failed_text (HydStudyDialog *self)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), NULL);
  return gtk_label_get_text (self->failed_label);
}

guint
hyd_study_dialog_get_n_traces (HydStudyDialog *self)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), 0);
  return self->traces->len;
}

gboolean
hyd_study_dialog_is_running (HydStudyDialog *self)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), FALSE);
  return self->running;
}

const char *
hyd_study_dialog_get_message (HydStudyDialog *self)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), NULL);
  return self->message ? self->message : "";
}

const char *
hyd_study_dialog_get_command (HydStudyDialog *self)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), NULL);
  return self->command;
}

void
hyd_study_dialog_show_page (HydStudyDialog *self, guint page)
{
  g_return_if_fail (HYD_IS_STUDY_DIALOG (self));
  gtk_notebook_set_current_page (self->notebook, (int) page);
}

static guint
plot_metric (HydStudyDialog *self)
{
  guint m = gtk_drop_down_get_selected (self->plot_metric_box);
  guint nm = self->study ? hyd_study_get_n_metrics (self->study) : 0;
  return m < nm ? m : 0;
}

/* Bins over the ok runs of the metric shown: ⌈√n⌉ of them, 5 to 40
 * (sqrt choice, Freedman & Diaconis would need the quartiles). */
static void
compute_histogram_of (HydStudyDialog *self, guint m)
{
  g_clear_pointer (&self->hist_counts, g_free);
  self->hist_bins = 0;
  if (self->study == NULL || m >= hyd_study_get_n_metrics (self->study))
    return;
  guint nm = hyd_study_get_n_metrics (self->study);
  double lo = INFINITY, hi = -INFINITY;
  guint64 n = 0;
  for (guint64 k = 0; k < self->n_runs; k++)
    if (self->status_of[k] && strcmp (self->status_of[k], "ok") == 0 && isfinite (self->metrics[k * nm + m]))
      {
        double v = self->metrics[k * nm + m];
        lo = MIN (lo, v);
        hi = MAX (hi, v);
        n++;
      }
  if (n == 0)
    return;
  guint bins = (guint) CLAMP (ceil (sqrt ((double) n)), 5, 40);
  double width = hi > lo ? (hi - lo) / bins : (fabs (lo) > 0 ? fabs (lo) * 1e-3 : 1.0);
  if (!(hi > lo))
    lo -= width * bins / 2.0;
  self->hist_counts = g_new0 (guint, bins);
  for (guint64 k = 0; k < self->n_runs; k++)
    if (self->status_of[k] && strcmp (self->status_of[k], "ok") == 0 && isfinite (self->metrics[k * nm + m]))
      {
        double x = (self->metrics[k * nm + m] - lo) / width;
        guint b = x >= bins ? bins - 1 : (guint) MAX (0.0, floor (x));
        self->hist_counts[b]++;
      }
  self->hist_bins = bins;
  self->hist_lo = lo;
  self->hist_width = width;
}

static void
compute_histogram (HydStudyDialog *self)
{
  compute_histogram_of (self, plot_metric (self));
}

guint
hyd_study_dialog_get_histogram (HydStudyDialog *self, guint metric, const guint **counts, double *lo,
                                double *width)
{
  g_return_val_if_fail (HYD_IS_STUDY_DIALOG (self), 0);
  compute_histogram_of (self, metric);
  *counts = self->hist_counts;
  *lo = self->hist_lo;
  *width = self->hist_width;
  guint bins = self->hist_bins;
  return bins;
}

static void
plot_metric_changed_cb (GObject *o, GParamSpec *p, gpointer user)
{
  HydStudyDialog *self = user;
  compute_histogram (self);
  redraw (self);
}

/* ---------------------------------------------------------------- plots -- */

/* PLplot reads '#' as an escape */
static char *
pl_text (const char *text)
{
  GString *s = g_string_new (NULL);
  for (const char *p = text; *p; p++)
    {
      if (*p == '#')
        g_string_append_c (s, '#');
      g_string_append_c (s, *p);
    }
  return g_string_free (s, FALSE);
}

/* viridis, five stops (van der Walt & Smith 2015) */
static void
pl_viridis (void)
{
  PLFLT pos[] = { 0.0, 0.25, 0.5, 0.75, 1.0 };
  PLFLT r[] = { 0.267, 0.231, 0.128, 0.365, 0.993 };
  PLFLT g[] = { 0.005, 0.322, 0.567, 0.786, 0.906 };
  PLFLT b[] = { 0.329, 0.546, 0.551, 0.388, 0.144 };
  plscmap1n (256);
  plscmap1l (1, 5, pos, r, g, b, NULL);
}

typedef struct {
  int w, h;
  double left, right, top, bottom;   /* pixels */
} Frame;

static gboolean
pl_begin (cairo_t *cr, int w, int h, PLINT *stream)
{
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  plmkstrm (stream);
  if (*stream < 0)
    return FALSE;
  plsstrm (*stream);
  plsdev ("extcairo");
  plspage (0, 0, w, h, 0, 0);
  plscmap0n (4);
  plscol0 (0, 255, 255, 255);
  plscol0 (1, 30, 30, 30);
  plscol0 (2, 200, 200, 200);
  plscol0 (3, 200, 40, 40);
  pl_viridis ();
  plinit ();
  cairo_save (cr);
  pl_cmd (PLESC_DEVINIT, cr);
  pladv (0);
  plschr (0, 0.8);
  return TRUE;
}

static void
pl_end (cairo_t *cr, PLINT stream)
{
  plsstrm (stream);
  plend1 ();
  cairo_restore (cr);
}

static void
pl_frame (const Frame *f, double x0, double x1, double y0, double y1, const char *xlabel, const char *ylabel,
          const char *title)
{
  plvpor (f->left / f->w, 1.0 - f->right / f->w, f->bottom / f->h, 1.0 - f->top / f->h);
  if (!(x1 > x0))
    {
      x0 -= fabs (x0) > 0 ? 0.1 * fabs (x0) : 1;
      x1 = x0 + (fabs (x0) > 0 ? 0.2 * fabs (x0) : 2);
    }
  if (!(y1 > y0))
    {
      double d = fabs (y0) > 0 ? 0.1 * fabs (y0) : 1;
      y0 -= d;
      y1 += d;
    }
  double pad = 0.04 * (y1 - y0);
  plwind (x0, x1, y0 - pad, y1 + pad);
  plcol0 (2);
  plwidth (0.5);
  plbox ("g", 0, 0, "g", 0, 0);
  plcol0 (1);
  plwidth (1);
  plbox ("bcnst", 0, 0, "bcnstv", 0, 0);
  g_autofree char *xl = pl_text (xlabel), *yl = pl_text (ylabel), *tl = pl_text (title ? title : "");
  pllab (xl, yl, tl);
}

/* A colour bar at the right of the frame: lo..hi of a parameter. */
static void
pl_colour_bar (const Frame *f, double lo, double hi, const char *label)
{
  double x0 = 1.0 - (f->right - 18) / f->w, x1 = 1.0 - (f->right - 34) / f->w;
  plvpor (x0, x1, f->bottom / f->h, 1.0 - f->top / f->h);
  if (!(hi > lo))
    hi = lo + (fabs (lo) > 0 ? 1e-6 * fabs (lo) : 1);
  plwind (0, 1, lo, hi);
  for (int k = 0; k < 64; k++)
    {
      PLFLT xs[4] = { 0, 1, 1, 0 };
      PLFLT ys[4] = { lo + (hi - lo) * k / 64.0, lo + (hi - lo) * k / 64.0, lo + (hi - lo) * (k + 1) / 64.0,
                      lo + (hi - lo) * (k + 1) / 64.0 };
      plcol1 ((k + 0.5) / 64.0);
      plfill (4, xs, ys);
    }
  plcol0 (1);
  plbox ("bc", 0, 0, "bcmstv", 0, 0);
  g_autofree char *l = pl_text (label);
  plmtex ("r", 5.0, 0.5, 0.5, l);
}

static void
empty_hint (cairo_t *cr, int w, int h, const char *text)
{
  cairo_set_source_rgb (cr, 0.4, 0.4, 0.4);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 13);
  cairo_text_extents_t ext;
  cairo_text_extents (cr, text, &ext);
  cairo_move_to (cr, (w - ext.width) / 2, h / 2.0);
  cairo_show_text (cr, text);
}

static void
draw_traces (GtkDrawingArea *area, cairo_t *cr, int w, int h, gpointer user)
{
  HydStudyDialog *self = user;
  if (self->traces->len == 0 || self->study == NULL)
    {
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      empty_hint (cr, w, h, self->running ? _("The traces come as their runs end…")
                                         : _("One trace per run, coloured by the first varied value."));
      return;
    }
  double ylo = INFINITY, yhi = -INFINITY, clo = INFINITY, chi = -INFINITY;
  for (guint k = 0; k < self->traces->len; k++)
    {
      const Trace *t = self->traces->pdata[k];
      clo = MIN (clo, t->colour_value);
      chi = MAX (chi, t->colour_value);
      for (guint i = 0; i < t->n; i++)
        if (isfinite (t->v[i]))
          {
            double y = hyd_display_from_si (self->trace_unit, t->v[i]);
            ylo = MIN (ylo, y);
            yhi = MAX (yhi, y);
          }
    }
  if (!isfinite (ylo))
    ylo = yhi = 0;
  PLINT stream;
  if (!pl_begin (cr, w, h, &stream))
    return;
  Frame f = { w, h, 86, 110, 30, 50 };
  g_autofree char *title = g_strdup_printf (_("%u traces (at most %d, of runs spread over the study)"),
                                            self->traces->len, HYD_STUDY_DIALOG_MAX_TRACES);
  pl_frame (&f, 0, self->t_end, ylo, yhi, _("Time [s]"), self->trace_label, title);
  double *y = g_new (double, HYD_STUDY_DIALOG_TRACE_POINTS + 1);
  plwidth (1.4);
  for (guint k = 0; k < self->traces->len; k++)
    {
      const Trace *t = self->traces->pdata[k];
      for (guint i = 0; i < t->n; i++)
        y[i] = hyd_display_from_si (self->trace_unit, t->v[i]);
      plcol1 (chi > clo ? (t->colour_value - clo) / (chi - clo) : 0.5);
      plline ((PLINT) t->n, t->t, y);
    }
  g_free (y);
  plwidth (1);
  /* the legend: what the colour says */
  double slo = hyd_display_from_si (self->vary_units[0], clo), shi = hyd_display_from_si (self->vary_units[0], chi);
  pl_colour_bar (&f, slo, shi, self->vary_labels[0]);
  pl_end (cr, stream);
}

static void
draw_metric (GtkDrawingArea *area, cairo_t *cr, int w, int h, gpointer user)
{
  HydStudyDialog *self = user;
  guint nm = self->study ? hyd_study_get_n_metrics (self->study) : 0;
  guint nv = self->study ? hyd_study_get_n_vary (self->study) : 0;
  guint m = plot_metric (self);
  GArray *xs = g_array_new (FALSE, FALSE, sizeof (double)), *ys = g_array_new (FALSE, FALSE, sizeof (double)),
         *cs = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint64 k = 0; k < self->n_runs && nm; k++)
    if (self->status_of[k] && strcmp (self->status_of[k], "ok") == 0 && isfinite (self->metrics[k * nm + m]))
      {
        double x = hyd_display_from_si (self->vary_units[0], self->values[k * nv]);
        double y = hyd_display_from_si (self->metric_units[m], self->metrics[k * nm + m]);
        g_array_append_val (xs, x);
        g_array_append_val (ys, y);
        if (nv > 1)
          {
            double c = hyd_display_from_si (self->vary_units[1], self->values[k * nv + 1]);
            g_array_append_val (cs, c);
          }
      }
  if (xs->len == 0)
    {
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      empty_hint (cr, w, h, _("A metric against the first varied parameter."));
      goto out;
    }
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY, c0 = INFINITY, c1 = -INFINITY;
  for (guint k = 0; k < xs->len; k++)
    {
      double x = g_array_index (xs, double, k), y = g_array_index (ys, double, k);
      x0 = MIN (x0, x);
      x1 = MAX (x1, x);
      y0 = MIN (y0, y);
      y1 = MAX (y1, y);
      if (nv > 1)
        {
          c0 = MIN (c0, g_array_index (cs, double, k));
          c1 = MAX (c1, g_array_index (cs, double, k));
        }
    }
  PLINT stream;
  if (!pl_begin (cr, w, h, &stream))
    goto out;
  Frame f = { w, h, 86, nv > 1 ? 110 : 30, 30, 50 };
  double xpad = 0.03 * (x1 - x0);
  pl_frame (&f, x0 - xpad, x1 + xpad, y0, y1, self->vary_labels[0], self->metric_labels[m], NULL);
  double *x = (double *) xs->data, *y = (double *) ys->data;
  /* at most MAX_POINTS_DRAWN points (every stride-th run), so that a large
   * study does not slow the window; the CSV has every row */
  guint stride = (xs->len + MAX_POINTS_DRAWN - 1) / MAX_POINTS_DRAWN;
  if (stride > 1)
    {
      g_autofree char *note = g_strdup_printf (_("every %u-th of %u runs drawn"), stride, xs->len);
      plcol0 (1);
      plmtex ("t", 1.0, 0.5, 0.5, note);
    }
  if (nv == 1 && self->design == HYD_STUDY_DIALOG_GRID && xs->len > 1)
    {
      /* a grid of one parameter: the runs in order of the value */
      plcol1 (0.25);
      plwidth (1.5);
      plline ((PLINT) xs->len, x, y);
    }
  plwidth (1);
  for (guint k = 0; k < xs->len; k += stride)
    {
      plcol1 (nv > 1 ? (c1 > c0 ? (g_array_index (cs, double, k) - c0) / (c1 - c0) : 0.5) : 0.25);
      plpoin (1, &x[k], &y[k], 17);
    }
  if (nv > 1)
    pl_colour_bar (&f, c0, c1, self->vary_labels[1]);
  pl_end (cr, stream);
out:
  g_array_unref (xs);
  g_array_unref (ys);
  g_array_unref (cs);
}

static void
draw_histogram (GtkDrawingArea *area, cairo_t *cr, int w, int h, gpointer user)
{
  HydStudyDialog *self = user;
  if (self->study && self->design == HYD_STUDY_DIALOG_GRID)
    {
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      empty_hint (cr, w, h, _("A histogram is drawn for random, Latin-hypercube and Monte Carlo studies."));
      return;
    }
  if (self->hist_bins == 0)
    {
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      empty_hint (cr, w, h, _("The histogram of a metric over the runs."));
      return;
    }
  guint m = plot_metric (self), nm = hyd_study_get_n_metrics (self->study);
  /* mean and SD (sample, n − 1) of the ok runs, Welford's update */
  double mean = 0, m2 = 0;
  guint64 n = 0;
  for (guint64 k = 0; k < self->n_runs; k++)
    if (self->status_of[k] && strcmp (self->status_of[k], "ok") == 0 && isfinite (self->metrics[k * nm + m]))
      {
        double v = self->metrics[k * nm + m], d = v - mean;
        n++;
        mean += d / n;
        m2 += d * (v - mean);
      }
  double sd = n > 1 ? sqrt (m2 / (n - 1)) : 0;
  guint top = 0;
  for (guint b = 0; b < self->hist_bins; b++)
    top = MAX (top, self->hist_counts[b]);
  HydUnit u = self->metric_units[m];
  double lo = hyd_display_from_si (u, self->hist_lo);
  double hi = hyd_display_from_si (u, self->hist_lo + self->hist_width * self->hist_bins);
  double bw = (hi - lo) / self->hist_bins;
  PLINT stream;
  if (!pl_begin (cr, w, h, &stream))
    return;
  Frame f = { w, h, 86, 30, 30, 50 };
  g_autofree char *ms = hyd_display_format_number (hyd_display_from_si (u, mean), 4);
  g_autofree char *ss = hyd_display_format_number (hyd_display_from_si (u, sd) - hyd_display_from_si (u, 0), 3);
  g_autofree char *ns = g_strdup_printf ("%" G_GUINT64_FORMAT, n);
  g_autofree char *title = g_strdup_printf (_("%s runs: mean %s, SD %s"), ns, ms, ss);
  pl_frame (&f, lo, hi, 0, top, self->metric_labels[m], _("Runs"), title);
  for (guint b = 0; b < self->hist_bins; b++)
    {
      PLFLT xs[4] = { lo + b * bw, lo + (b + 1) * bw, lo + (b + 1) * bw, lo + b * bw };
      PLFLT ys[4] = { 0, 0, self->hist_counts[b], self->hist_counts[b] };
      plcol1 (0.35);
      plfill (4, xs, ys);
      plcol0 (0);
      plline (4, xs, ys);
    }
  /* the mean (solid) and mean ± SD (dashed) */
  double mx = hyd_display_from_si (u, mean), sx = hyd_display_from_si (u, sd) - hyd_display_from_si (u, 0);
  PLFLT ly[2] = { 0, top * 1.04 };
  plcol0 (3);
  plwidth (2);
  PLFLT lx[2] = { mx, mx };
  plline (2, lx, ly);
  pllsty (2);
  plwidth (1.2);
  for (int s = -1; s <= 1; s += 2)
    {
      PLFLT dx[2] = { mx + s * sx, mx + s * sx };
      plline (2, dx, ly);
    }
  pllsty (1);
  pl_end (cr, stream);
}

/* -------------------------------------------------------------- object -- */

static void
hyd_study_dialog_dispose (GObject *object)
{
  HydStudyDialog *self = HYD_STUDY_DIALOG (object);
  /* closing mid-study: cancel, join the threads, then free */
  if (self->pool)
    hyd_study_pool_cancel (self->pool);
  clear_results (self);
  g_clear_weak_pointer (&self->document);
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  if (parent && g_object_get_data (G_OBJECT (parent), "hyd-study-dialog") == self)
    g_object_set_data (G_OBJECT (parent), "hyd-study-dialog", NULL);
  G_OBJECT_CLASS (hyd_study_dialog_parent_class)->dispose (object);
}

static void
hyd_study_dialog_finalize (GObject *object)
{
  HydStudyDialog *self = HYD_STUDY_DIALOG (object);
  g_ptr_array_unref (self->params);
  g_ptr_array_unref (self->rows);
  g_ptr_array_unref (self->metric_specs);
  g_ptr_array_unref (self->traces);
  g_strfreev (self->var_names);
  g_free (self->var_units);
  g_free (self->message);
  g_free (self->command);
  if (self->failed_text)
    g_string_free (self->failed_text, TRUE);
  G_OBJECT_CLASS (hyd_study_dialog_parent_class)->finalize (object);
}

static void
hyd_study_dialog_class_init (HydStudyDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = hyd_study_dialog_dispose;
  object_class->finalize = hyd_study_dialog_finalize;
  signals[SIGNAL_FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                           NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

static void
hyd_study_dialog_init (HydStudyDialog *self)
{
  self->params = g_ptr_array_new_with_free_func ((GDestroyNotify) param_choice_free);
  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) vary_row_free);
  self->metric_specs = g_ptr_array_new_with_free_func (g_free);
  self->traces = g_ptr_array_new_with_free_func ((GDestroyNotify) trace_free);
  self->failed_text = g_string_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (self), 1180, 720);
  gtk_window_set_title (GTK_WINDOW (self), _("Parameter Study"));
}

static GtkWidget *
heading (const char *text)
{
  GtkWidget *l = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (l), 0);
  gtk_widget_add_css_class (l, "heading");
  gtk_widget_set_margin_top (l, 6);
  return l;
}

static GtkDropDown *
searchable_dropdown (void)
{
  GtkExpression *expr = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");
  GtkDropDown *d = GTK_DROP_DOWN (gtk_drop_down_new (NULL, expr));
  gtk_drop_down_set_enable_search (d, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (d), TRUE);
  return d;
}

static GtkWidget *
labelled (const char *text, GtkWidget *w)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *l = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (l), 0);
  gtk_box_append (GTK_BOX (row), l);
  gtk_box_append (GTK_BOX (row), w);
  return row;
}

static GtkDrawingArea *
plot_area (HydStudyDialog *self, GtkDrawingAreaDrawFunc func)
{
  GtkDrawingArea *a = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (a), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (a), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (a), 480, 240);
  gtk_drawing_area_set_draw_func (a, func, self, NULL);
  return a;
}

HydStudyDialog *
hyd_study_dialog_new (GtkWindow *parent, HydDocument *document)
{
  HydStudyDialog *self = g_object_new (HYD_TYPE_STUDY_DIALOG, NULL);
  if (parent)
    {
      gtk_window_set_transient_for (GTK_WINDOW (self), parent);
      gtk_window_set_destroy_with_parent (GTK_WINDOW (self), TRUE);
    }
  g_set_weak_pointer (&self->document, document);

  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  /* ---- the set-up, on the left ---- */
  GtkWidget *left = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_start (left, 10);
  gtk_widget_set_margin_end (left, 10);
  gtk_widget_set_margin_top (left, 8);
  gtk_widget_set_margin_bottom (left, 8);
  GtkWidget *setup = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  self->setup = setup;

  gtk_box_append (GTK_BOX (setup), heading (_("Parameters")));
  GtkWidget *add_row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->param_box = searchable_dropdown ();
  GtkWidget *add = gtk_button_new_with_mnemonic (_("_Add"));
  gtk_widget_set_tooltip_text (add, _("Vary this parameter (or right-click a parameter in the property panel)"));
  g_signal_connect (add, "clicked", G_CALLBACK (add_clicked_cb), self);
  gtk_box_append (GTK_BOX (add_row), GTK_WIDGET (self->param_box));
  gtk_box_append (GTK_BOX (add_row), add);
  gtk_box_append (GTK_BOX (setup), add_row);
  self->vary_grid = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_column_spacing (self->vary_grid, 6);
  gtk_grid_set_row_spacing (self->vary_grid, 4);
  self->lo_header = gtk_label_new (_("From"));
  self->hi_header = gtk_label_new (_("To"));
  self->n_header = gtk_label_new (_("Points"));
  gtk_grid_attach (self->vary_grid, gtk_label_new (""), 0, 0, 1, 1);
  gtk_grid_attach (self->vary_grid, self->lo_header, 1, 0, 1, 1);
  gtk_grid_attach (self->vary_grid, self->hi_header, 2, 0, 1, 1);
  gtk_grid_attach (self->vary_grid, self->n_header, 3, 0, 1, 1);
  gtk_box_append (GTK_BOX (setup), GTK_WIDGET (self->vary_grid));

  gtk_box_append (GTK_BOX (setup), heading (_("Design")));
  const char *designs[] = { N_("Grid: every combination"), N_("Random samples (uniform)"),
                            N_("Latin hypercube samples"), N_("Monte Carlo (normal: mean, SD)"), NULL };
  const char *shown[G_N_ELEMENTS (designs)];
  for (guint k = 0; k < G_N_ELEMENTS (designs); k++)
    shown[k] = designs[k] ? _(designs[k]) : NULL;
  self->design_box = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (shown));
  gtk_box_append (GTK_BOX (setup), GTK_WIDGET (self->design_box));
  self->samples_spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (1, HYD_STUDY_DIALOG_MAX_RUNS, 1));
  gtk_spin_button_set_value (self->samples_spin, 100);
  self->seed_spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, G_MAXINT, 1));
  gtk_spin_button_set_value (self->seed_spin, 1);
  self->samples_row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_box_append (GTK_BOX (self->samples_row), labelled (_("Samples"), GTK_WIDGET (self->samples_spin)));
  gtk_box_append (GTK_BOX (self->samples_row), labelled (_("Seed"), GTK_WIDGET (self->seed_spin)));
  gtk_box_append (GTK_BOX (setup), self->samples_row);

  gtk_box_append (GTK_BOX (setup), heading (_("Metrics")));
  GtkWidget *metric_row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  const char *kinds[G_N_ELEMENTS (metric_kinds) + 1];
  for (guint k = 0; k < G_N_ELEMENTS (metric_kinds); k++)
    kinds[k] = _(metric_kinds[k].label);
  kinds[G_N_ELEMENTS (metric_kinds)] = NULL;
  self->kind_box = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (kinds));
  self->var_box = searchable_dropdown ();
  GtkWidget *add_metric = gtk_button_new_with_mnemonic (_("Add _Metric"));
  g_signal_connect (add_metric, "clicked", G_CALLBACK (add_metric_clicked_cb), self);
  gtk_box_append (GTK_BOX (metric_row), GTK_WIDGET (self->kind_box));
  gtk_box_append (GTK_BOX (metric_row), GTK_WIDGET (self->var_box));
  gtk_box_append (GTK_BOX (metric_row), add_metric);
  gtk_box_append (GTK_BOX (setup), metric_row);
  self->threshold_entry = GTK_ENTRY (small_entry (10));
  self->threshold_unit = GTK_LABEL (gtk_label_new (NULL));
  self->threshold_row = labelled (_("Threshold"), GTK_WIDGET (self->threshold_entry));
  gtk_box_append (GTK_BOX (self->threshold_row), GTK_WIDGET (self->threshold_unit));
  gtk_widget_set_visible (self->threshold_row, FALSE);
  gtk_box_append (GTK_BOX (setup), self->threshold_row);
  g_signal_connect_swapped (self->kind_box, "notify::selected", G_CALLBACK (metric_choice_changed_cb), self);
  g_signal_connect_swapped (self->var_box, "notify::selected", G_CALLBACK (metric_choice_changed_cb), self);
  self->metrics_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 2));
  gtk_box_append (GTK_BOX (setup), GTK_WIDGET (self->metrics_box));

  gtk_box_append (GTK_BOX (setup), heading (_("Traces")));
  self->trace_box = searchable_dropdown ();
  gtk_box_append (GTK_BOX (setup), labelled (_("Variable"), GTK_WIDGET (self->trace_box)));
  self->jobs_spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (1, 1024, 1));
  gtk_spin_button_set_value (self->jobs_spin, g_get_num_processors ());
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->jobs_spin), _("Runs at a time (threads); default: the number "
                                                               "of processors"));
  gtk_box_append (GTK_BOX (setup), labelled (_("Jobs"), GTK_WIDGET (self->jobs_spin)));
  self->timeout_spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, 1e7, 1));
  gtk_spin_button_set_digits (self->timeout_spin, 1);
  gtk_spin_button_set_value (self->timeout_spin, 0);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->timeout_spin),
                               _("Seconds of wall-clock time for each run (0: no limit); a run over it stops "
                                 "and its row says timeout, as bramah-cli sweep --timeout"));
  gtk_box_append (GTK_BOX (setup), labelled (_("Time limit a run [s]"), GTK_WIDGET (self->timeout_spin)));

  GtkWidget *scroll = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), setup);
  gtk_widget_set_vexpand (scroll, TRUE);
  gtk_box_append (GTK_BOX (left), scroll);

  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->start_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Start")));
  gtk_widget_add_css_class (GTK_WIDGET (self->start_button), "suggested-action");
  self->cancel_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Cancel")));
  self->save_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("Save _CSV…")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->save_button), _("The rows bramah-cli sweep writes, sorted by run"));
  g_signal_connect (self->start_button, "clicked", G_CALLBACK (start_clicked_cb), self);
  g_signal_connect (self->cancel_button, "clicked", G_CALLBACK (cancel_clicked_cb), self);
  g_signal_connect (self->save_button, "clicked", G_CALLBACK (save_clicked_cb), self);
  gtk_box_append (GTK_BOX (buttons), GTK_WIDGET (self->start_button));
  gtk_box_append (GTK_BOX (buttons), GTK_WIDGET (self->cancel_button));
  gtk_box_append (GTK_BOX (buttons), GTK_WIDGET (self->save_button));
  /* the help paragraph (hyd-help-text.c) */
  g_autofree char *help = hyd_help_study_dup_text (HYD_STUDY_DIALOG_MAX_TRACES, HYD_STUDY_DIALOG_TRACE_POINTS,
                                                   MAX_POINTS_DRAWN, HYD_STUDY_DIALOG_MAX_RUNS);
  GtkWidget *help_label = gtk_label_new (help);
  gtk_label_set_wrap (GTK_LABEL (help_label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (help_label), 70);
  gtk_label_set_xalign (GTK_LABEL (help_label), 0);
  gtk_label_set_selectable (GTK_LABEL (help_label), TRUE);
  GtkWidget *help_popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (help_popover), help_label);
  GtkWidget *help_button = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (help_button), "help-about-symbolic");
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (help_button), help_popover);
  gtk_widget_set_tooltip_text (help_button, _("What this window does"));
  gtk_widget_set_hexpand (help_button, TRUE);
  gtk_widget_set_halign (help_button, GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (buttons), help_button);
  gtk_box_append (GTK_BOX (left), buttons);
  self->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_box_append (GTK_BOX (left), GTK_WIDGET (self->progress));
  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->status, TRUE);
  gtk_label_set_xalign (self->status, 0);
  gtk_label_set_selectable (self->status, TRUE);
  gtk_box_append (GTK_BOX (left), GTK_WIDGET (self->status));
  self->command_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->command_label, TRUE);
  gtk_label_set_wrap_mode (self->command_label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (self->command_label, 0);
  gtk_label_set_selectable (self->command_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->command_label), "dim-label");
  gtk_box_append (GTK_BOX (left), GTK_WIDGET (self->command_label));
  gtk_widget_set_size_request (left, 440, -1);

  /* ---- the results, on the right ---- */
  GtkWidget *right = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_end (right, 8);
  gtk_widget_set_margin_top (right, 8);
  gtk_widget_set_margin_bottom (right, 8);
  self->plot_metric_box = GTK_DROP_DOWN (gtk_drop_down_new_from_strings ((const char *const[]) { NULL }));
  g_signal_connect (self->plot_metric_box, "notify::selected", G_CALLBACK (plot_metric_changed_cb), self);
  self->plot_metric_row = labelled (_("Metric shown"), GTK_WIDGET (self->plot_metric_box));
  gtk_widget_set_visible (self->plot_metric_row, FALSE);   /* until a study has metrics */
  gtk_box_append (GTK_BOX (right), self->plot_metric_row);
  self->notebook = GTK_NOTEBOOK (gtk_notebook_new ());
  self->traces_area = plot_area (self, draw_traces);
  self->metric_area = plot_area (self, draw_metric);
  self->hist_area = plot_area (self, draw_histogram);
  /* the traces above the metric against the parameter */
  GtkWidget *plots = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_start_child (GTK_PANED (plots), GTK_WIDGET (self->traces_area));
  gtk_paned_set_end_child (GTK_PANED (plots), GTK_WIDGET (self->metric_area));
  gtk_paned_set_position (GTK_PANED (plots), 360);
  gtk_notebook_append_page (self->notebook, plots, gtk_label_new (_("Traces and Metric")));
  gtk_notebook_append_page (self->notebook, GTK_WIDGET (self->hist_area), gtk_label_new (_("Histogram")));
  self->failed_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->failed_label, 0);
  gtk_label_set_yalign (self->failed_label, 0);
  gtk_label_set_wrap (self->failed_label, TRUE);
  gtk_label_set_selectable (self->failed_label, TRUE);
  GtkWidget *fscroll = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (fscroll), GTK_WIDGET (self->failed_label));
  self->failed_tab = GTK_LABEL (gtk_label_new (_("Failed Runs")));
  gtk_notebook_append_page (self->notebook, fscroll, GTK_WIDGET (self->failed_tab));
  gtk_widget_set_vexpand (GTK_WIDGET (self->notebook), TRUE);
  gtk_box_append (GTK_BOX (right), GTK_WIDGET (self->notebook));

  gtk_paned_set_start_child (GTK_PANED (paned), left);
  gtk_paned_set_resize_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_end_child (GTK_PANED (paned), right);
  gtk_window_set_child (GTK_WINDOW (self), paned);

  list_params (self);
  list_variables (self);
  g_signal_connect_swapped (self->trace_box, "notify::selected", G_CALLBACK (trace_chosen_cb), self);
  if (document)
    g_signal_connect_object (document, "changed", G_CALLBACK (document_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::is-active", G_CALLBACK (active_changed_cb), NULL);
  g_signal_connect (self->design_box, "notify::selected", G_CALLBACK (design_changed_cb), self);
  update_design (self);
  set_running (self, FALSE);
  say (self, _("Add parameters and metrics, then Start. The study runs a copy of the circuit as it is now."));
  return self;
}

HydStudyDialog *
hyd_study_dialog_get_for (GtkWindow *parent, HydDocument *document)
{
  HydStudyDialog *self = parent ? g_object_get_data (G_OBJECT (parent), "hyd-study-dialog") : NULL;
  if (self && self->document == document)
    return self;
  self = hyd_study_dialog_new (parent, document);
  if (parent)
    g_object_set_data (G_OBJECT (parent), "hyd-study-dialog", self);   /* forgotten in dispose */
  return self;
}
