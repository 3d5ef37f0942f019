/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-linear-view.c — the "Linear Analysis" window: Bode plot, poles and
 * zeros of the linear model of one input and one output
 * (engine/analysis/hyd-linearize.c, docs/analysis.md). */
#include "hyd-linear-view.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "hyd-catalogue.h"
#include "hyd-eigen.h"
#include "hyd-linearize.h"
#include "hyd-system.h"

#define BODE_POINTS 600

typedef struct {
  char *input, *output;
  guint64 serial;
} Request;

typedef struct {
  guint64 serial;
  double *f, *db, *phase;   /* [BODE_POINTS], phase unwrapped (°) */
  double peak_f;
  char *text;
} Result;

static void
result_free (Result *r)
{
  g_free (r->f);
  g_free (r->db);
  g_free (r->phase);
  g_free (r->text);
  g_free (r);
}

struct _HydLinearView
{
  GtkWindow parent_instance;
  HydCircuit *circuit;
  double t;
  GStrv inputs, outputs;
  GCancellable *cancellable;
  guint64 serial;           /* of the latest request */
  gboolean ready;
  char *error;
  Result *result;

  GtkDropDown *input_box, *output_box;
  GtkLabel *status;
  GtkDrawingArea *plot;
  GtkLabel *text;
};

G_DEFINE_FINAL_TYPE (HydLinearView, hyd_linear_view, GTK_TYPE_WINDOW)

enum { SIGNAL_READY, N_SIGNALS };
static guint signals[N_SIGNALS];

/* ---- the worker ---- */

typedef struct {
  HydCircuit *circuit;
  double t;
  Request req;
} Job;

static void
job_free (Job *j)
{
  hyd_circuit_free (j->circuit);
  g_free (j->req.input);
  g_free (j->req.output);
  g_free (j);
}

static void
append_root (GString *s, double re, double im)
{
  if (im != 0)
    g_string_append_printf (s, "  %.6g %+.6gi  (%.4g Hz, ζ = %.3g)\n", re, im, hypot (re, im) / (2 * G_PI),
                            -re / hypot (re, im));
  else
    g_string_append_printf (s, "  %.6g\n", re);
}

static void
compute_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  g_auto (HydSimOptions) sim = { 0 };
  g_autoptr (HydSystem) sys = NULL;
  if (!hyd_circuit_get_sim_options (job->circuit, &sim, &error)
      || (sys = hyd_system_compile (job->circuit, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  const char *dot = strchr (job->req.input, '.');
  g_autofree char *comp = g_strndup (job->req.input, dot - job->req.input);
  g_autoptr (HydOperatingPoint) op = hyd_operating_point_run (sys, &sim, job->t, NULL, &error);
  g_autoptr (HydLinearModel) m = op ? hyd_linearize (sys, &sim, op->t, op->y, comp, dot + 1, job->req.output, &error)
                                    : NULL;
  g_autoptr (HydSpectrum) s = m ? hyd_spectrum_compute (m->A, m->n, &error) : NULL;
  g_autofree double *zr = NULL, *zi = NULL;
  int nz = s ? hyd_linear_model_zeros (m, &zr, &zi, &error) : -1;
  if (nz < 0)
    {
      g_task_return_error (task, error);
      return;
    }
  /* the frequency range: two decades around the poles that are modes */
  double wmin = INFINITY, wmax = 0;
  for (guint i = 0; i < s->n; i++)
    if (!s->zero[i])
      {
        wmin = MIN (wmin, hypot (s->re[i], s->im[i]));
        wmax = MAX (wmax, hypot (s->re[i], s->im[i]));
      }
  if (!(wmax > 0))
    wmin = wmax = 2 * G_PI;
  double fmin = pow (10, floor (log10 (wmin / (2 * G_PI)) - 1)), fmax = pow (10, ceil (log10 (wmax / (2 * G_PI)) + 1));
  Result *r = g_new0 (Result, 1);
  r->serial = job->req.serial;
  r->f = g_new (double, BODE_POINTS);
  r->db = g_new (double, BODE_POINTS);
  r->phase = g_new (double, BODE_POINTS);
  double best = -INFINITY, prev = NAN, unwrapped = NAN;
  r->peak_f = NAN;
  for (guint k = 0; k < BODE_POINTS; k++)
    {
      double f = fmin * pow (fmax / fmin, (double) k / (BODE_POINTS - 1)), re, im;
      if (!hyd_linear_model_response (m, 2 * G_PI * f, &re, &im))
        re = im = NAN;
      double ph = atan2 (im, re) * 180 / G_PI;
      if (isnan (unwrapped))
        unwrapped = ph;
      else if (!isnan (ph))
        {
          double d = ph - prev;
          d -= 360 * floor ((d + 180) / 360);
          unwrapped += d;
        }
      if (!isnan (ph))
        prev = ph;
      r->f[k] = f;
      r->db[k] = 20 * log10 (hypot (re, im));
      r->phase[k] = unwrapped;
      if (r->db[k] > best)
        {
          best = r->db[k];
          r->peak_f = f;
        }
    }
  GString *t = g_string_new (NULL);
  g_string_append_printf (t, _("At t = %g s: %s = %.6g, %s = %.6g"), op->t, job->req.input, m->u0, job->req.output,
                          m->y0);
  g_string_append (t, "\n");
  g_string_append_printf (t, _("Largest magnitude %.4g dB at %.5g Hz"), best, r->peak_f);
  g_string_append (t, "\n\n");
  g_string_append (t, _("Poles (1/s):"));
  g_string_append (t, "\n");
  for (guint i = 0; i < s->n; i++)
    if (!s->zero[i] && s->im[i] >= 0)
      append_root (t, s->re[i], s->im[i]);
  guint n_zero;
  hyd_spectrum_stiffness_ratio (s, &n_zero);
  if (n_zero)
    {
      g_string_append_printf (t, _("  and %u zero within rounding"), n_zero);
      g_string_append (t, "\n");
    }
  g_string_append (t, "\n");
  g_string_append (t, _("Zeros (1/s):"));
  g_string_append (t, "\n");
  for (int k = 0; k < nz; k++)
    if (zi[k] >= 0)
      append_root (t, zr[k], zi[k]);
  r->text = g_string_free (t, FALSE);
  g_task_return_pointer (task, r, (GDestroyNotify) result_free);
}

static void
computed_cb (GObject *source, GAsyncResult *res, gpointer user)
{
  g_autoptr (GError) error = NULL;
  Result *r = g_task_propagate_pointer (G_TASK (res), &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  HydLinearView *self = HYD_LINEAR_VIEW (source);
  Job *job = g_task_get_task_data (G_TASK (res));
  if (job->req.serial != self->serial)
    {
      g_clear_pointer (&r, result_free);
      return;  /* a newer request is under way */
    }
  g_clear_pointer (&self->result, result_free);
  g_clear_pointer (&self->error, g_free);
  if (r == NULL)
    {
      self->error = g_strdup (error->message);
      g_autofree char *msg = g_strdup_printf (_("The linear model could not be built: %s"), error->message);
      gtk_label_set_text (self->status, msg);
      gtk_label_set_text (self->text, "");
    }
  else
    {
      self->result = r;
      gtk_label_set_text (self->status, "");
      gtk_label_set_text (self->text, r->text);
    }
  self->ready = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self->plot));
  g_signal_emit (self, signals[SIGNAL_READY], 0);
}

static void
request (HydLinearView *self, const char *input, const char *output)
{
  Job *job = g_new0 (Job, 1);
  job->circuit = hyd_circuit_copy (self->circuit);
  job->t = self->t;
  job->req.input = g_strdup (input);
  job->req.output = g_strdup (output);
  job->req.serial = ++self->serial;
  self->ready = FALSE;
  gtk_label_set_text (self->status, _("Computing…"));
  g_autoptr (GTask) task = g_task_new (self, self->cancellable, computed_cb, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, compute_thread);
}

/* ---- the plot: magnitude above, phase below, log frequency ---- */

static void
draw_curve (cairo_t *cr, const double *f, const double *v, guint n, double x0, double y0, double w, double h,
            double lf0, double lf1, double v0, double v1)
{
  gboolean pen = FALSE;
  for (guint k = 0; k < n; k++)
    {
      if (!isfinite (v[k]))
        {
          pen = FALSE;
          continue;
        }
      double x = x0 + (log10 (f[k]) - lf0) / (lf1 - lf0) * w, y = y0 + h - (v[k] - v0) / (v1 - v0) * h;
      if (pen)
        cairo_line_to (cr, x, y);
      else
        cairo_move_to (cr, x, y);
      pen = TRUE;
    }
  cairo_stroke (cr);
}

static void
draw_panel (cairo_t *cr, GdkRGBA *fg, const Result *r, const double *v, double x0, double y0, double w, double h,
            const char *label, double step)
{
  double lf0 = log10 (r->f[0]), lf1 = log10 (r->f[BODE_POINTS - 1]);
  double v0 = INFINITY, v1 = -INFINITY;
  for (guint k = 0; k < BODE_POINTS; k++)
    if (isfinite (v[k]))
      {
        v0 = MIN (v0, v[k]);
        v1 = MAX (v1, v[k]);
      }
  if (!isfinite (v0))
    return;
  v0 = step * floor (v0 / step);
  v1 = step * ceil (v1 / step);
  if (v1 <= v0)
    v1 = v0 + step;
  cairo_set_font_size (cr, 10);
  cairo_set_line_width (cr, 1);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.25);
  for (double lf = ceil (lf0); lf <= lf1; lf++)
    {
      double x = x0 + (lf - lf0) / (lf1 - lf0) * w;
      cairo_move_to (cr, x, y0);
      cairo_line_to (cr, x, y0 + h);
    }
  guint lines = (guint) ((v1 - v0) / step);
  double vstep = step * MAX (1, lines / 6);
  for (double g = v0; g <= v1 + 1e-9; g += vstep)
    {
      double y = y0 + h - (g - v0) / (v1 - v0) * h;
      cairo_move_to (cr, x0, y);
      cairo_line_to (cr, x0 + w, y);
    }
  cairo_stroke (cr);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.8);
  cairo_rectangle (cr, x0, y0, w, h);
  cairo_stroke (cr);
  for (double g = v0; g <= v1 + 1e-9; g += vstep)
    {
      char buf[32];
      g_snprintf (buf, sizeof buf, "%g", g);
      cairo_move_to (cr, x0 - 44, y0 + h - (g - v0) / (v1 - v0) * h + 4);
      cairo_show_text (cr, buf);
    }
  for (double lf = ceil (lf0); lf <= lf1; lf++)
    {
      char buf[32];
      g_snprintf (buf, sizeof buf, "%g", pow (10, lf));
      cairo_move_to (cr, x0 + (lf - lf0) / (lf1 - lf0) * w - 8, y0 + h + 12);
      cairo_show_text (cr, buf);
    }
  cairo_move_to (cr, x0 + 6, y0 + 12);
  cairo_show_text (cr, label);
  cairo_set_source_rgb (cr, 0.15, 0.4, 0.85);
  cairo_set_line_width (cr, 1.5);
  draw_curve (cr, r->f, v, BODE_POINTS, x0, y0, w, h, lf0, lf1, v0, v1);
}

static void
draw_plot (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user)
{
  HydLinearView *self = user;
  if (self->result == NULL)
    return;
  GdkRGBA fg;
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  double left = 52, right = 22, gap = 28, top = 8, bottom = 30;
  double h = (height - top - bottom - gap) / 2, w = width - left - right;
  draw_panel (cr, &fg, self->result, self->result->db, left, top, w, h, _("Magnitude (dB)"), 10);
  draw_panel (cr, &fg, self->result, self->result->phase, left, top + h + gap, w, h, _("Phase (°)"), 45);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.8);
  cairo_move_to (cr, left + w / 2 - 40, height - 4);
  cairo_show_text (cr, _("Frequency (Hz)"));
}

/* ---- choices ---- */

static void
choice_changed_cb (GObject *obj, GParamSpec *pspec, gpointer user)
{
  HydLinearView *self = user;
  guint i = gtk_drop_down_get_selected (self->input_box), o = gtk_drop_down_get_selected (self->output_box);
  if (i == GTK_INVALID_LIST_POSITION || o == GTK_INVALID_LIST_POSITION)
    return;
  request (self, self->inputs[i], self->outputs[o]);
}

static GStrv
list_inputs (const HydCircuit *circuit)
{
  GStrvBuilder *b = g_strv_builder_new ();
  for (guint i = 0; i < circuit->components->len; i++)
    {
      HydCircuitComponent *c = g_ptr_array_index (circuit->components, i);
      const HydComponentType *type = hyd_catalogue_lookup (c->type);
      for (guint k = 0; type && k < type->n_params; k++)
        if (type->params[k].flags & HYD_PARAM_PROFILE)
          {
            g_autofree char *name = g_strdup_printf ("%s.%s", c->id, type->params[k].name);
            g_strv_builder_add (b, name);
          }
    }
  GStrv out = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return out;
}

static GStrv
list_outputs (const HydCircuit *circuit)
{
  GStrvBuilder *b = g_strv_builder_new ();
  g_autoptr (HydSystem) sys = hyd_system_compile (circuit, NULL);
  for (guint v = 0; sys && v < hyd_system_get_n_variables (sys); v++)
    if (strcmp (hyd_system_get_variable_name (sys, v), "t") != 0)
      g_strv_builder_add (b, hyd_system_get_variable_name (sys, v));
  GStrv out = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return out;
}

/* ---- the object ---- */

static void
hyd_linear_view_dispose (GObject *object)
{
  HydLinearView *self = HYD_LINEAR_VIEW (object);
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (hyd_linear_view_parent_class)->dispose (object);
}

static void
hyd_linear_view_finalize (GObject *object)
{
  HydLinearView *self = HYD_LINEAR_VIEW (object);
  g_clear_pointer (&self->circuit, hyd_circuit_free);
  g_clear_pointer (&self->result, result_free);
  g_strfreev (self->inputs);
  g_strfreev (self->outputs);
  g_free (self->error);
  G_OBJECT_CLASS (hyd_linear_view_parent_class)->finalize (object);
}

static void
hyd_linear_view_class_init (HydLinearViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = hyd_linear_view_dispose;
  object_class->finalize = hyd_linear_view_finalize;
  /* Escape closes it, as the help and the examples windows */
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0, "window.close", NULL);
  signals[SIGNAL_READY] = g_signal_new ("ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                        NULL, G_TYPE_NONE, 0);
}

static void
hyd_linear_view_init (HydLinearView *self)
{
  self->cancellable = g_cancellable_new ();
  gtk_window_set_default_size (GTK_WINDOW (self), 1060, 560);
}

HydLinearView *
hyd_linear_view_new (GtkWindow *parent, const HydCircuit *circuit, double t)
{
  g_return_val_if_fail (circuit != NULL && t >= 0 && isfinite (t), NULL);
  HydLinearView *self = g_object_new (HYD_TYPE_LINEAR_VIEW, NULL);
  if (parent)
    gtk_window_set_transient_for (GTK_WINDOW (self), parent);
  self->circuit = hyd_circuit_copy (circuit);
  self->t = t;
  self->inputs = list_inputs (circuit);
  self->outputs = list_outputs (circuit);
  g_autofree char *title = g_strdup_printf (_("Linear Analysis at t = %g s"), t);
  gtk_window_set_title (GTK_WINDOW (self), title);

  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_start (box, 10);
  gtk_widget_set_margin_end (box, 10);
  gtk_widget_set_margin_top (box, 10);
  gtk_widget_set_margin_bottom (box, 10);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->input_box = GTK_DROP_DOWN (gtk_drop_down_new_from_strings ((const char *const *) self->inputs));
  self->output_box = GTK_DROP_DOWN (gtk_drop_down_new_from_strings ((const char *const *) self->outputs));
  gtk_drop_down_set_enable_search (self->output_box, TRUE);
  gtk_box_append (GTK_BOX (row), gtk_label_new (_("Input")));
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->input_box));
  gtk_box_append (GTK_BOX (row), gtk_label_new (_("Output")));
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->output_box));
  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->status, TRUE);
  gtk_label_set_xalign (self->status, 0);
  GtkWidget *body = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  self->plot = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->plot), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->plot), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self->plot), 480, 360);
  gtk_drawing_area_set_draw_func (self->plot, draw_plot, self, NULL);
  self->text = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->text, 0);
  gtk_label_set_yalign (self->text, 0);
  gtk_label_set_selectable (self->text, TRUE);
  GtkWidget *scroll = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), GTK_WIDGET (self->text));
  gtk_widget_set_size_request (scroll, 330, -1);
  gtk_box_append (GTK_BOX (body), GTK_WIDGET (self->plot));
  gtk_box_append (GTK_BOX (body), scroll);
  gtk_box_append (GTK_BOX (box), row);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status));
  gtk_box_append (GTK_BOX (box), body);
  gtk_window_set_child (GTK_WINDOW (self), box);
  gtk_drop_down_set_selected (self->input_box, GTK_INVALID_LIST_POSITION);
  gtk_drop_down_set_selected (self->output_box, GTK_INVALID_LIST_POSITION);
  gtk_label_set_text (self->status, _("Choose an input (a profile parameter) and an output (a variable)."));
  g_signal_connect (self->input_box, "notify::selected", G_CALLBACK (choice_changed_cb), self);
  g_signal_connect (self->output_box, "notify::selected", G_CALLBACK (choice_changed_cb), self);
  return self;
}

const char *const *
hyd_linear_view_get_inputs (HydLinearView *self)
{
  return (const char *const *) self->inputs;
}

const char *const *
hyd_linear_view_get_outputs (HydLinearView *self)
{
  return (const char *const *) self->outputs;
}

static guint
index_of (GStrv list, const char *name)
{
  for (guint k = 0; list[k]; k++)
    if (strcmp (list[k], name) == 0)
      return k;
  return GTK_INVALID_LIST_POSITION;
}

gboolean
hyd_linear_view_set_pair (HydLinearView *self, const char *input, const char *output)
{
  g_return_val_if_fail (HYD_IS_LINEAR_VIEW (self), FALSE);
  guint i = index_of (self->inputs, input), o = index_of (self->outputs, output);
  if (i == GTK_INVALID_LIST_POSITION || o == GTK_INVALID_LIST_POSITION)
    return FALSE;
  g_signal_handlers_block_by_func (self->input_box, choice_changed_cb, self);
  gtk_drop_down_set_selected (self->input_box, i);
  g_signal_handlers_unblock_by_func (self->input_box, choice_changed_cb, self);
  g_signal_handlers_block_by_func (self->output_box, choice_changed_cb, self);
  gtk_drop_down_set_selected (self->output_box, o);
  g_signal_handlers_unblock_by_func (self->output_box, choice_changed_cb, self);
  request (self, input, output);
  return TRUE;
}

gboolean
hyd_linear_view_get_ready (HydLinearView *self)
{
  return self->ready;
}

const char *
hyd_linear_view_get_error (HydLinearView *self)
{
  return self->error;
}

double
hyd_linear_view_get_peak_frequency (HydLinearView *self)
{
  return self->result ? self->result->peak_f : NAN;
}

const char *
hyd_linear_view_get_text (HydLinearView *self)
{
  return self->result ? self->result->text : NULL;
}
