/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-explain-view.c — the "Stiffness" window: the spectrum of the
 * Jacobian at a moment of a run (engine/analysis/, docs/analysis.md), drawn
 * with Cairo in the complex plane on symmetric logarithmic axes, listed with
 * time constants, frequencies, damping and components; hovering a mode
 * highlights its components on the schematic. */
#include "hyd-explain-view.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "hyd-eigen.h"
#include "hyd-linearize.h"
#include "hyd-sparsity-view.h"
#include "hyd-system.h"

#define MIN_SHARE 0.05   /* states and components shown for a mode */
#define MAX_COMPONENTS 6

/* What the worker computes. */
typedef struct {
  HydSpectrum *s;
  HydOperatingPoint *op;
  GPtrArray *state_names;   /* of char* */
  GPtrArray *state_words;   /* of char*: "the node of C1.A, V1.P" or the name */
  GPtrArray *state_comps;   /* of GPtrArray* of char* */
} ExplainData;

static void
explain_data_free (ExplainData *d)
{
  hyd_spectrum_free (d->s);
  hyd_operating_point_free (d->op);
  g_clear_pointer (&d->state_names, g_ptr_array_unref);
  g_clear_pointer (&d->state_words, g_ptr_array_unref);
  g_clear_pointer (&d->state_comps, g_ptr_array_unref);
  g_free (d);
}

struct _HydExplainView
{
  GtkWindow parent_instance;
  HydCircuit *circuit;
  double t;
  HydCanvas *canvas;          /* weak */
  GCancellable *cancellable;
  ExplainData *data;
  char *error;
  char *summary;
  GArray *order;              /* of guint: eigenvalue index of each mode shown */
  GPtrArray *mode_comps;      /* of GStrv, per mode */
  int hovered;

  GtkLabel *title;
  GtkLabel *summary_label;
  GtkDrawingArea *plane;
  GtkListBox *list;
};

G_DEFINE_FINAL_TYPE (HydExplainView, hyd_explain_view, GTK_TYPE_WINDOW)

enum { SIGNAL_READY, N_SIGNALS };
static guint signals[N_SIGNALS];

/* ---- the worker ---- */

static void
compute_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  const HydCircuit *circuit = task_data;
  GError *error = NULL;
  g_auto (HydSimOptions) sim = { 0 };
  g_autoptr (HydSystem) sys = NULL;
  HydExplainView *self = source;
  if (!hyd_circuit_get_sim_options (circuit, &sim, &error) || (sys = hyd_system_compile (circuit, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  guint n = hyd_system_get_n_states (sys);
  if (n > 2000)
    {
      g_task_return_new_error (task, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_REQUEST,
                               _("%u states are more than the 2000 the stiffness view handles"), n);
      return;
    }
  ExplainData *d = g_new0 (ExplainData, 1);
  d->op = hyd_operating_point_run (sys, &sim, self->t, NULL, &error);
  g_autofree double *J = g_new0 (double, MAX ((gsize) n * n, 1));
  if (d->op != NULL && n > 0 && hyd_system_jacobian (sys, d->op->t, d->op->y, J, NULL) != 0)
    g_set_error (&error, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_NUMERIC, "the Jacobian cannot be evaluated");
  if (error == NULL)
    d->s = hyd_spectrum_compute (J, n, &error);
  if (error != NULL)
    {
      explain_data_free (d);
      g_task_return_error (task, error);
      return;
    }
  d->state_names = g_ptr_array_new_with_free_func (g_free);
  d->state_words = g_ptr_array_new_with_free_func (g_free);
  d->state_comps = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint k = 0; k < n; k++)
    {
      g_ptr_array_add (d->state_names, g_strdup (hyd_system_get_state_name (sys, k)));
      const HydNodeInfo *ni = hyd_system_state_node (sys, k);
      if (ni != NULL)
        {
          GString *ports = g_string_new (NULL);
          for (guint j = 0; j < ni->ports->len && j < 4; j++)
            g_string_append_printf (ports, "%s%s", j ? ", " : "", (char *) g_ptr_array_index (ni->ports, j));
          if (ni->ports->len > 4)
            g_string_append (ports, ", …");
          g_ptr_array_add (d->state_words, g_strdup_printf (_("the pressure of the node of %s"), ports->str));
          g_string_free (ports, TRUE);
        }
      else
        g_ptr_array_add (d->state_words, g_strdup (hyd_system_get_state_name (sys, k)));
      g_ptr_array_add (d->state_comps, hyd_system_state_components (sys, k));
    }
  g_task_return_pointer (task, d, (GDestroyNotify) explain_data_free);
}

/* ---- text ---- */

static char *
format_time (double s)
{
  static const struct { double f; const char *u; } units[] = {
    { 1, "s" }, { 1e-3, "ms" }, { 1e-6, "µs" }, { 1e-9, "ns" },
  };
  guint k = 0;
  while (k + 1 < G_N_ELEMENTS (units) && fabs (s) < units[k].f)
    k++;
  return g_strdup_printf ("%.3g %s", s / units[k].f, units[k].u);
}

static int
compare_modes (gconstpointer a, gconstpointer b, gpointer user)
{
  const HydSpectrum *s = user;
  guint i = *(const guint *) a, j = *(const guint *) b;
  if (s->zero[i] != s->zero[j])
    return s->zero[i] ? 1 : -1;
  double mi = hypot (s->re[i], s->im[i]), mj = hypot (s->re[j], s->im[j]);
  return mi > mj ? -1 : mi < mj ? 1 : (i > j) - (i < j);
}

/* The components of eigenvalue i, largest share first (the share of a
 * component: the participation of the states it makes). */
static GStrv
mode_components (const ExplainData *d, guint i)
{
  const HydSpectrum *s = d->s;
  g_autoptr (GPtrArray) ids = g_ptr_array_new ();
  g_autoptr (GArray) shares = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint k = 0; k < s->n; k++)
    {
      GPtrArray *comps = g_ptr_array_index (d->state_comps, k);
      double p = s->participation[k + (gsize) i * s->n];
      for (guint c = 0; c < comps->len; c++)
        {
          const char *id = g_ptr_array_index (comps, c);
          guint j = 0;
          while (j < ids->len && strcmp (g_ptr_array_index (ids, j), id) != 0)
            j++;
          if (j == ids->len)
            {
              g_ptr_array_add (ids, (gpointer) id);
              double zero = 0;
              g_array_append_val (shares, zero);
            }
          g_array_index (shares, double, j) += p;
        }
    }
  GStrvBuilder *b = g_strv_builder_new ();
  for (guint m = 0; m < MAX_COMPONENTS; m++)
    {
      int best = -1;
      for (guint j = 0; j < ids->len; j++)
        if (g_array_index (shares, double, j) >= MIN_SHARE
            && (best < 0 || g_array_index (shares, double, j) > g_array_index (shares, double, best)))
          best = (int) j;
      if (best < 0)
        break;
      g_strv_builder_add (b, g_ptr_array_index (ids, best));
      g_array_index (shares, double, best) = -1;
    }
  GStrv out = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return out;
}

static char *
mode_text (const ExplainData *d, guint i, GStrv comps)
{
  const HydSpectrum *s = d->s;
  GString *t = g_string_new (NULL);
  if (s->im[i] != 0)
    g_string_append_printf (t, "λ = %.6g ± %.6gi 1/s — ", s->re[i], fabs (s->im[i]));
  else
    g_string_append_printf (t, "λ = %.6g 1/s — ", s->re[i]);
  if (s->zero[i])
    g_string_append (t, _("zero within rounding: not a mode"));
  else if (s->im[i] != 0)
    {
      double wn = hypot (s->re[i], s->im[i]);
      g_string_append_printf (t, _("oscillates at %.4g Hz, damping ζ = %.3g"), fabs (s->im[i]) / (2 * G_PI),
                              -s->re[i] / wn);
    }
  else if (s->re[i] < 0)
    {
      g_autofree char *tau = format_time (-1 / s->re[i]);
      g_string_append_printf (t, _("time constant %s"), tau);
    }
  else
    g_string_append (t, _("grows: unstable here"));
  if (!s->zero[i])
    {
      guint top[3];
      guint m = hyd_spectrum_top_states (s, i, MIN_SHARE, top, 3);
      g_string_append (t, "\n");
      for (guint k = 0; k < m; k++)
        g_string_append_printf (t, "%s%s %.0f %%", k ? ", " : "", (char *) g_ptr_array_index (d->state_names, top[k]),
                                100 * s->participation[top[k] + (gsize) i * s->n]);
      g_autofree char *ids = g_strjoinv (", ", comps);
      g_string_append (t, " — ");
      g_string_append_printf (t, _("components: %s"), ids);
    }
  return g_string_free (t, FALSE);
}

static char *
summary_text (HydExplainView *self)
{
  const ExplainData *d = self->data;
  const HydSpectrum *s = d->s;
  GString *t = g_string_new (NULL);
  guint n_zero;
  double ratio = hyd_spectrum_stiffness_ratio (s, &n_zero);
  if (isfinite (ratio))
    g_string_append_printf (t, _("Stiffness ratio %.3g over the decaying modes (%u eigenvalues zero within "
                                 "rounding not counted)."), ratio, n_zero);
  else
    g_string_append (t, _("No mode decays here: the stiffness ratio is undefined."));
  int f = -1;
  double limit = INFINITY;
  for (guint i = 0; i < s->n; i++)
    {
      double h = hyd_spectrum_euler_step_limit (s, i);
      if (!s->zero[i] && s->re[i] < 0 && h < limit)
        {
          limit = h;
          f = (int) i;
        }
    }
  if (f >= 0)
    {
      guint top[1];
      hyd_spectrum_top_states (s, f, 0.0, top, 1);
      g_autofree char *lim = format_time (limit);
      g_string_append (t, " ");
      g_string_append_printf (t, _("The fastest mode is mostly %s: an explicit method would need steps under %s."),
                              (char *) g_ptr_array_index (d->state_words, top[0]), lim);
      if (isfinite (d->op->h_last))
        {
          g_autofree char *h = format_time (d->op->h_last);
          g_string_append (t, " ");
          if (d->op->h_last > limit)
            g_string_append_printf (t, _("%s's last step before t was %s, %.3g times that: it is implicit and "
                                         "L-stable, so accuracy, not this mode, sets its step."),
                                    d->op->solver, h, d->op->h_last / limit);
          else
            g_string_append_printf (t, _("%s's last step before t was %s, within that limit."), d->op->solver, h);
        }
    }
  return g_string_free (t, FALSE);
}

/* ---- the plane ---- */

/* Symmetric logarithmic axis: sign(v)·log10(1 + |v|) (1/s). */
static double
symlog (double v)
{
  return copysign (log10 (1 + fabs (v)), v);
}

static void
plane_geometry (HydExplainView *self, int width, int height, double *x0, double *y0, double *sx, double *sy)
{
  double mre = 1, mim = 1;
  for (guint k = 0; self->data && k < self->data->s->n; k++)
    {
      mre = MAX (mre, symlog (fabs (self->data->s->re[k])));
      mim = MAX (mim, symlog (fabs (self->data->s->im[k])));
    }
  mre = ceil (mre);
  mim = ceil (mim);
  const double margin = 44;
  *x0 = width / 2.0;
  *y0 = height / 2.0;
  *sx = (width / 2.0 - margin) / mre;
  *sy = (height / 2.0 - margin / 2) / mim;
}

static void
draw_plane (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user)
{
  HydExplainView *self = user;
  GdkRGBA fg;
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  double x0, y0, sx, sy;
  plane_geometry (self, width, height, &x0, &y0, &sx, &sy);
  cairo_set_line_width (cr, 1);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.35);
  /* axes with a tick at each power of ten */
  cairo_move_to (cr, 0, y0);
  cairo_line_to (cr, width, y0);
  cairo_move_to (cr, x0, 0);
  cairo_line_to (cr, x0, height);
  cairo_stroke (cr);
  cairo_set_font_size (cr, 10);
  for (int e = 0; e <= 12; e++)
    {
      double u = symlog (pow (10, e));
      if (u * sx > width / 2.0 - 20)
        break;
      for (int sg = -1; sg <= 1; sg += 2)
        {
          double x = x0 + sg * u * sx;
          cairo_move_to (cr, x, y0 - 3);
          cairo_line_to (cr, x, y0 + 3);
          cairo_stroke (cr);
          if (e % 2 == 0 || sx > 40)
            {
              char label[16];
              g_snprintf (label, sizeof label, "%s1e%d", sg < 0 ? "−" : "", e);
              cairo_move_to (cr, x - 12, y0 + 14);
              cairo_show_text (cr, label);
            }
        }
    }
  for (int e = 0; e <= 12; e++)
    {
      double u = symlog (pow (10, e));
      if (u * sy > height / 2.0 - 10)
        break;
      for (int sg = -1; sg <= 1; sg += 2)
        {
          double y = y0 - sg * u * sy;
          cairo_move_to (cr, x0 - 3, y);
          cairo_line_to (cr, x0 + 3, y);
          cairo_stroke (cr);
          char label[16];
          g_snprintf (label, sizeof label, "%s1e%di", sg < 0 ? "−" : "", e);
          cairo_move_to (cr, x0 + 5, y + 4);
          cairo_show_text (cr, label);
        }
    }
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.8);
  cairo_move_to (cr, width - 90, y0 - 6);
  cairo_show_text (cr, _("Re λ (1/s)"));
  cairo_move_to (cr, x0 + 6, 12);
  cairo_show_text (cr, _("Im λ (rad/s)"));
  if (self->data == NULL)
    return;
  const HydSpectrum *s = self->data->s;
  int hovered_eig = self->hovered >= 0 ? (int) g_array_index (self->order, guint, self->hovered) : -1;
  for (guint k = 0; k < s->n; k++)
    {
      double x = x0 + symlog (s->re[k]) * sx, y = y0 - symlog (s->im[k]) * sy;
      gboolean hot = (int) k == hovered_eig || (hovered_eig >= 0 && s->im[k] < 0 && (int) k == hovered_eig + 1);
      if (s->zero[k])
        cairo_set_source_rgb (cr, 0.55, 0.55, 0.55);
      else if (s->re[k] > 0)
        cairo_set_source_rgb (cr, 0.85, 0.2, 0.15);
      else
        cairo_set_source_rgb (cr, 0.15, 0.4, 0.85);
      cairo_arc (cr, x, y, hot ? 7 : 4, 0, 2 * G_PI);
      cairo_fill (cr);
      if (hot)
        {
          cairo_set_source_rgb (cr, 0.95, 0.6, 0.0);
          cairo_set_line_width (cr, 2);
          cairo_arc (cr, x, y, 10, 0, 2 * G_PI);
          cairo_stroke (cr);
          cairo_set_line_width (cr, 1);
        }
    }
}

/* The mode whose point is within 10 px of (x, y), or −1. */
static int
mode_at (HydExplainView *self, double px, double py)
{
  if (self->data == NULL)
    return -1;
  int width = gtk_widget_get_width (GTK_WIDGET (self->plane)), height = gtk_widget_get_height (GTK_WIDGET (self->plane));
  double x0, y0, sx, sy, best = 100;
  plane_geometry (self, width, height, &x0, &y0, &sx, &sy);
  int found = -1;
  const HydSpectrum *s = self->data->s;
  for (guint m = 0; m < self->order->len; m++)
    {
      guint k = g_array_index (self->order, guint, m);
      for (int conj = 1; conj >= -1; conj -= 2)
        {
          double x = x0 + symlog (s->re[k]) * sx, y = y0 - conj * symlog (s->im[k]) * sy;
          double d2 = (x - px) * (x - px) + (y - py) * (y - py);
          if (d2 < best)
            {
              best = d2;
              found = (int) m;
            }
        }
    }
  return found;
}

static void
plane_motion_cb (GtkEventControllerMotion *c, double x, double y, gpointer user)
{
  HydExplainView *self = user;
  int m = mode_at (self, x, y);
  if (m != self->hovered)
    hyd_explain_view_hover_mode (self, m);
}

static void
plane_leave_cb (GtkEventControllerMotion *c, gpointer user)
{
  hyd_explain_view_hover_mode (user, -1);
}

static void
row_enter_cb (GtkEventControllerMotion *c, double x, double y, gpointer user)
{
  HydExplainView *self = user;
  GtkWidget *row = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (c));
  hyd_explain_view_hover_mode (self, gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (row)));
}

static void
row_leave_cb (GtkEventControllerMotion *c, gpointer user)
{
  hyd_explain_view_hover_mode (user, -1);
}

/* ---- filling in ---- */

static void
computed_cb (GObject *source, GAsyncResult *result, gpointer user)
{
  g_autoptr (GError) error = NULL;
  ExplainData *d = g_task_propagate_pointer (G_TASK (result), &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  HydExplainView *self = HYD_EXPLAIN_VIEW (source);
  if (d == NULL)
    {
      self->error = g_strdup (error->message);
      g_autofree char *text = g_strdup_printf (_("The eigenvalues could not be computed: %s"), error->message);
      gtk_label_set_text (self->summary_label, text);
      g_signal_emit (self, signals[SIGNAL_READY], 0);
      return;
    }
  self->data = d;
  self->order = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < d->s->n; i++)
    if (!(d->s->im[i] < 0))
      g_array_append_val (self->order, i);
  g_array_sort_with_data (self->order, compare_modes, d->s);
  self->mode_comps = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  for (guint m = 0; m < self->order->len; m++)
    {
      guint i = g_array_index (self->order, guint, m);
      GStrv comps = mode_components (d, i);
      g_ptr_array_add (self->mode_comps, comps);
      g_autofree char *text = mode_text (d, i, comps);
      GtkWidget *label = gtk_label_new (text);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_set_margin_start (label, 8);
      gtk_widget_set_margin_end (label, 8);
      gtk_widget_set_margin_top (label, 4);
      gtk_widget_set_margin_bottom (label, 4);
      GtkWidget *row = gtk_list_box_row_new ();
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      GtkEventController *motion = gtk_event_controller_motion_new ();
      g_signal_connect (motion, "enter", G_CALLBACK (row_enter_cb), self);
      g_signal_connect (motion, "leave", G_CALLBACK (row_leave_cb), self);
      gtk_widget_add_controller (row, motion);
      gtk_list_box_append (self->list, row);
    }
  self->summary = summary_text (self);
  gtk_label_set_text (self->summary_label, self->summary);
  gtk_widget_queue_draw (GTK_WIDGET (self->plane));
  g_signal_emit (self, signals[SIGNAL_READY], 0);
}

/* "Jacobian Sparsity…": the same moment's pattern (hyd-sparsity-view.h). */
static void
sparsity_clicked_cb (GtkButton *button, gpointer user)
{
  HydExplainView *self = user;
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  HydSparsityView *view = hyd_sparsity_view_new (parent ? parent : GTK_WINDOW (self), self->circuit, self->t,
                                                 self->canvas);
  gtk_window_present (GTK_WINDOW (view));
}

/* ---- the object ---- */

static void
hyd_explain_view_dispose (GObject *object)
{
  HydExplainView *self = HYD_EXPLAIN_VIEW (object);
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->canvas && self->hovered >= 0)
    hyd_canvas_set_highlight (self->canvas, NULL);
  self->hovered = -1;
  g_clear_weak_pointer (&self->canvas);
  G_OBJECT_CLASS (hyd_explain_view_parent_class)->dispose (object);
}

static void
hyd_explain_view_finalize (GObject *object)
{
  HydExplainView *self = HYD_EXPLAIN_VIEW (object);
  g_clear_pointer (&self->circuit, hyd_circuit_free);
  g_clear_pointer (&self->data, explain_data_free);
  g_clear_pointer (&self->order, g_array_unref);
  g_clear_pointer (&self->mode_comps, g_ptr_array_unref);
  g_free (self->error);
  g_free (self->summary);
  G_OBJECT_CLASS (hyd_explain_view_parent_class)->finalize (object);
}

static void
hyd_explain_view_class_init (HydExplainViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = hyd_explain_view_dispose;
  object_class->finalize = hyd_explain_view_finalize;
  /* Escape closes it, as the help and the examples windows */
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0, "window.close", NULL);
  signals[SIGNAL_READY] = g_signal_new ("ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                        NULL, G_TYPE_NONE, 0);
}

static void
hyd_explain_view_init (HydExplainView *self)
{
  self->hovered = -1;
  gtk_window_set_default_size (GTK_WINDOW (self), 720, 760);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_start (box, 10);
  gtk_widget_set_margin_end (box, 10);
  gtk_widget_set_margin_top (box, 10);
  gtk_widget_set_margin_bottom (box, 10);
  self->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->title, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->title), "heading");
  self->summary_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->summary_label, 0);
  gtk_label_set_wrap (self->summary_label, TRUE);
  self->plane = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  gtk_widget_set_size_request (GTK_WIDGET (self->plane), 400, 320);
  gtk_drawing_area_set_draw_func (self->plane, draw_plane, self, NULL);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (plane_motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (plane_leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->plane), motion);
  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_SINGLE);
  GtkWidget *scroll = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), GTK_WIDGET (self->list));
  gtk_widget_set_vexpand (scroll, TRUE);
  GtkWidget *heading = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_hexpand (GTK_WIDGET (self->title), TRUE);
  gtk_box_append (GTK_BOX (heading), GTK_WIDGET (self->title));
  GtkWidget *sparsity = gtk_button_new_with_mnemonic (_("_Jacobian Sparsity…"));
  gtk_widget_set_tooltip_text (sparsity, _("The Jacobian's non-zeros at this moment, linked with the schematic"));
  g_signal_connect (sparsity, "clicked", G_CALLBACK (sparsity_clicked_cb), self);
  gtk_box_append (GTK_BOX (heading), sparsity);
  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->summary_label));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->plane));
  gtk_box_append (GTK_BOX (box), scroll);
  gtk_window_set_child (GTK_WINDOW (self), box);
}

HydExplainView *
hyd_explain_view_new (GtkWindow *parent, const HydCircuit *circuit, double t, HydCanvas *canvas)
{
  g_return_val_if_fail (circuit != NULL && t >= 0 && isfinite (t), NULL);
  HydExplainView *self = g_object_new (HYD_TYPE_EXPLAIN_VIEW, NULL);
  if (parent)
    gtk_window_set_transient_for (GTK_WINDOW (self), parent);
  self->circuit = hyd_circuit_copy (circuit);
  self->t = t;
  g_set_weak_pointer (&self->canvas, canvas);
  g_autofree char *title = g_strdup_printf (_("Stiffness at t = %g s"), t);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_text (self->title, title);
  g_autofree char *wait = g_strdup_printf (_("Computing the eigenvalues at t = %g s…"), t);
  gtk_label_set_text (self->summary_label, wait);
  self->cancellable = g_cancellable_new ();
  g_autoptr (GTask) task = g_task_new (self, self->cancellable, computed_cb, NULL);
  g_task_set_task_data (task, self->circuit, NULL);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, compute_thread);
  return self;
}

gboolean
hyd_explain_view_get_ready (HydExplainView *self)
{
  g_return_val_if_fail (HYD_IS_EXPLAIN_VIEW (self), FALSE);
  return self->data != NULL || self->error != NULL;
}

const char *
hyd_explain_view_get_error (HydExplainView *self)
{
  g_return_val_if_fail (HYD_IS_EXPLAIN_VIEW (self), NULL);
  return self->error;
}

guint
hyd_explain_view_get_n_modes (HydExplainView *self)
{
  g_return_val_if_fail (HYD_IS_EXPLAIN_VIEW (self), 0);
  return self->order ? self->order->len : 0;
}

const char *
hyd_explain_view_get_summary (HydExplainView *self)
{
  g_return_val_if_fail (HYD_IS_EXPLAIN_VIEW (self), NULL);
  return self->summary;
}

GStrv
hyd_explain_view_dup_mode_components (HydExplainView *self, guint mode)
{
  g_return_val_if_fail (HYD_IS_EXPLAIN_VIEW (self), NULL);
  g_return_val_if_fail (self->mode_comps != NULL && mode < self->mode_comps->len, NULL);
  return g_strdupv (g_ptr_array_index (self->mode_comps, mode));
}

void
hyd_explain_view_hover_mode (HydExplainView *self, int mode)
{
  g_return_if_fail (HYD_IS_EXPLAIN_VIEW (self));
  if (self->mode_comps == NULL || mode >= (int) self->mode_comps->len)
    mode = -1;
  if (mode == self->hovered)
    return;
  self->hovered = mode;
  if (self->canvas)
    hyd_canvas_set_highlight (self->canvas,
                              mode >= 0 ? (const char *const *) g_ptr_array_index (self->mode_comps, mode) : NULL);
  /* the row of the mode hovered in the plane, shown as selected */
  if (mode >= 0)
    gtk_list_box_select_row (self->list, gtk_list_box_get_row_at_index (self->list, mode));
  else
    gtk_list_box_unselect_all (self->list);
  gtk_widget_queue_draw (GTK_WIDGET (self->plane));
}
