/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-solver-lab.c — the "Solver Lab" window (hyd-solver-lab.h): the runs
 * in a worker thread (hyd-workprec.h, with a step log each), the
 * work-precision diagram and the step-size history drawn by PLplot
 * (extcairo), the table of statistics, the heat map on the schematic. */
#include "hyd-solver-lab.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>
#include <plplot.h>

#include "hyd-help-text.h"
#include "hyd-linearize.h"
#include "hyd-system.h"
#include "hyd-workprec.h"

#define MAX_STATE_LINES 6      /* states listed under the h(t) plot */

static const double offered_rtols[] = { 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8 };
static const char *const default_solvers[] = { "rodas4", "radau5", "bdf", "sdirk4", "dopri5", NULL };
static const double default_rtols[] = { 1e-4, 1e-5, 1e-6, 1e-7 };

/* One run of the lab. */
typedef struct {
  char *solver;
  double rtol;
  double error;            /* NAN when the run failed */
  double seconds;          /* the worker thread's CPU time */
  HydOdeStats stats;
  HydOdeStatus status;
  char *message;
  HydOdeStepLog *log;
} LabRun;

static void
lab_run_free (LabRun *r)
{
  g_free (r->solver);
  g_free (r->message);
  hyd_ode_step_log_free (r->log);
  g_free (r);
}

/* What the worker and the window share (an atomic reference count: the
 * worker's task and the window each hold one). The worker writes runs
 * under the lock; the window reads them under it. */
typedef struct {
  HydCircuit *circuit;
  GStrv solvers;
  GArray *rtols;
  gint cancel;             /* atomic: non-zero stops the run at its next step */
  gint done;               /* atomic: runs finished (the reference not counted) */
  gint reference_done;     /* atomic */
  guint total;
  GMutex lock;
  GPtrArray *runs;         /* of LabRun* */
  char *error;
  GPtrArray *state_names;  /* of char* */
  GPtrArray *state_comps;  /* of GPtrArray* of char* */
} LabJob;

static void
lab_job_clear (gpointer p)
{
  LabJob *j = p;
  hyd_circuit_free (j->circuit);
  g_strfreev (j->solvers);
  g_array_unref (j->rtols);
  g_mutex_clear (&j->lock);
  g_ptr_array_unref (j->runs);
  g_free (j->error);
  g_clear_pointer (&j->state_names, g_ptr_array_unref);
  g_clear_pointer (&j->state_comps, g_ptr_array_unref);
}

static void
lab_job_unref (LabJob *j)
{
  g_atomic_rc_box_release_full (j, lab_job_clear);
}

struct _HydSolverLab
{
  GtkWindow parent_instance;
  HydCircuit *circuit;
  HydCanvas *canvas;          /* weak */
  LabJob *job;                /* the last run's, or NULL */
  GCancellable *cancellable;
  guint poll_id;
  gboolean running, cancelled, highlighted;
  int selected;
  GStrv heat;                 /* components of the heat map, hottest first */

  GPtrArray *solver_checks;   /* of GtkCheckButton, data "id" */
  GPtrArray *rtol_checks;     /* of GtkCheckButton, data "rtol" */
  GtkButton *run_button, *cancel_button;
  GtkProgressBar *progress;
  GtkLabel *status;
  GtkDrawingArea *wp_plot, *h_plot;
  GtkListBox *table;
  GtkLabel *limit_label;
};

G_DEFINE_FINAL_TYPE (HydSolverLab, hyd_solver_lab, GTK_TYPE_WINDOW)

enum { SIGNAL_READY, N_SIGNALS };
static guint signals[N_SIGNALS];

/* ---- the worker ---- */

static void
lab_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  LabJob *job = task_data;
  GError *error = NULL;
  g_auto (HydSimOptions) sim = { 0 };
  g_autoptr (HydSystem) sys = NULL;
  HydWorkPrec wp = { 0 };
  gboolean wp_set = FALSE;

  if (!hyd_circuit_get_sim_options (job->circuit, &sim, &error)
      || (sys = hyd_system_compile (job->circuit, &error)) == NULL
      || !(wp_set = hyd_workprec_init (&wp, sys, &sim, _("the circuit"), 1000000, &error))
      || !hyd_workprec_reference (&wp, _("the circuit"), &job->cancel, CLOCK_THREAD_CPUTIME_ID, &error))
    {
      g_mutex_lock (&job->lock);
      job->error = g_strdup (error->message);
      g_mutex_unlock (&job->lock);
      g_error_free (error);
      if (wp_set)
        hyd_workprec_clear (&wp);
      g_task_return_boolean (task, FALSE);
      return;
    }
  g_atomic_int_set (&job->reference_done, 1);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *comps = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < wp.n; i++)
    {
      g_ptr_array_add (names, g_strdup (hyd_system_get_state_name (sys, i)));
      g_ptr_array_add (comps, hyd_system_state_components (sys, i));
    }
  g_mutex_lock (&job->lock);
  job->state_names = names;
  job->state_comps = comps;
  g_mutex_unlock (&job->lock);

  HydWorkPrecSamples s;
  hyd_workprec_samples_init (&wp, &s);
  for (guint k = 0; job->solvers[k] && !g_atomic_int_get (&job->cancel); k++)
    for (guint j = 0; j < job->rtols->len && !g_atomic_int_get (&job->cancel); j++)
      {
        LabRun *r = g_new0 (LabRun, 1);
        g_auto (HydOdeResult) res = { 0 };
        r->solver = g_strdup (job->solvers[k]);
        r->rtol = g_array_index (job->rtols, double, j);
        r->log = hyd_ode_step_log_new (wp.n);
        r->status = hyd_workprec_solve (&wp, r->solver, r->rtol, NULL, FALSE, &job->cancel, r->log,
                                        CLOCK_THREAD_CPUTIME_ID, &s, &res, &r->seconds);
        if (r->status == HYD_ODE_CANCELLED)
          {
            lab_run_free (r);
            break;
          }
        r->stats = res.stats;
        r->error = r->status == HYD_ODE_SUCCESS ? hyd_workprec_error (&wp, &s) : NAN;
        r->message = g_strdup (res.message);
        g_mutex_lock (&job->lock);
        g_ptr_array_add (job->runs, r);
        g_mutex_unlock (&job->lock);
        g_atomic_int_inc (&job->done);
      }
  g_free (s.buf);
  hyd_workprec_clear (&wp);
  g_task_return_boolean (task, TRUE);
}

/* ---- drawing ---- */

typedef struct {
  const double *x, *y;     /* log10 values where the axis is logarithmic */
  guint n;
  int colour;              /* cmap0 index */
  gboolean points;         /* markers only */
  const char *label;
} Series;

static const guint8 palette[][3] = {
  { 31, 119, 180 }, { 214, 39, 40 }, { 44, 160, 44 }, { 148, 103, 189 }, { 255, 127, 14 },
  { 140, 86, 75 }, { 227, 119, 194 }, { 127, 127, 127 }, { 188, 189, 34 }, { 23, 190, 207 },
};
#define COL_FIRST 3

static gboolean
extcairo_available (void)
{
  static gsize once;
  static gboolean have;
  if (g_once_init_enter (&once))
    {
      enum { MAX_DEVICES = 128 };
      const char *menu_storage[MAX_DEVICES], *device_storage[MAX_DEVICES];
      const char **menu = menu_storage, **devices = device_storage;
      int n = MAX_DEVICES;
      plgDevs (&menu, &devices, &n);
      for (int i = 0; i < n; i++)
        if (g_strcmp0 (devices[i], "extcairo") == 0)
          have = TRUE;
      g_once_init_leave (&once, 1);
    }
  return have;
}

static void
draw_message (cairo_t *cr, int w, int h, const char *text)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, (w - 20) * PANGO_SCALE);
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  int tw, th;
  pango_layout_get_pixel_size (layout, &tw, &th);
  cairo_set_source_rgb (cr, 0.4, 0.4, 0.4);
  cairo_move_to (cr, 10, (h - th) / 2.0);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

/* One PLplot session into cr (a white w × h page): axes (logarithmic where
 * asked), the series, a legend of the labelled ones. */
static void
plot_series (cairo_t *cr, int w, int h, const char *xlabel, const char *ylabel, gboolean logx,
             gboolean logy, const Series *series, guint n_series, const char *empty)
{
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (guint s = 0; s < n_series; s++)
    for (guint i = 0; i < series[s].n; i++)
      if (isfinite (series[s].x[i]) && isfinite (series[s].y[i]))
        {
          x0 = MIN (x0, series[s].x[i]);
          x1 = MAX (x1, series[s].x[i]);
          y0 = MIN (y0, series[s].y[i]);
          y1 = MAX (y1, series[s].y[i]);
        }
  if (!isfinite (x0) || w < 80 || h < 60)
    {
      draw_message (cr, w, h, empty);
      return;
    }
  if (!extcairo_available ())
    {
      draw_message (cr, w, h, _("PLplot's cairo driver (plplot-driver-cairo) is not installed."));
      return;
    }
  /* a logarithmic axis from decade to decade (PLplot labels the decades);
   * a margin on a linear one */
  if (logx)
    {
      x0 = floor (x0 - 0.02);
      x1 = ceil (x1 + 0.02);
    }
  if (logy)
    {
      y0 = floor (y0 - 0.02);
      y1 = ceil (y1 + 0.02);
    }
  double dx = x1 - x0, dy = y1 - y0;
  if (dx <= 0)
    dx = logx ? 1 : MAX (fabs (x0), 1e-9);
  if (dy <= 0)
    dy = logy ? 1 : MAX (fabs (y0), 1e-9);
  if (!logx)
    {
      x0 -= 0.05 * dx;
      x1 += 0.05 * dx;
    }
  if (!logy)
    {
      y0 -= 0.08 * dy;
      y1 += 0.08 * dy;
    }

  PLINT stream;
  plmkstrm (&stream);
  if (stream < 0)
    return;
  plsstrm (stream);
  plsdev ("extcairo");
  plspage (0, 0, w, h, 0, 0);
  plscmap0n (COL_FIRST + G_N_ELEMENTS (palette));
  plscol0 (0, 255, 255, 255);
  plscol0 (1, 40, 40, 40);
  plscol0 (2, 210, 210, 210);
  for (guint c = 0; c < G_N_ELEMENTS (palette); c++)
    plscol0 ((PLINT) (COL_FIRST + c), palette[c][0], palette[c][1], palette[c][2]);
  plinit ();
  cairo_save (cr);
  pl_cmd (PLESC_DEVINIT, cr);
  pladv (0);
  plschr (0, 0.75);
  plvpor (0.13, 0.97, 0.14, 0.95);
  plwind (x0, x1, y0, y1);
  plcol0 (2);
  plbox (logx ? "gl" : "g", 0, 0, logy ? "gl" : "g", 0, 0);
  plcol0 (1);
  plbox (logx ? "bcnstl" : "bcnst", 0, 0, logy ? "bcnstvl" : "bcnstv", 0, 0);
  pllab (xlabel, ylabel, "");
  for (guint s = 0; s < n_series; s++)
    {
      const Series *se = &series[s];
      if (se->n == 0)
        continue;
      plcol0 (se->colour);
      plwidth (1.5);
      if (se->points)
        plpoin ((PLINT) se->n, se->x, se->y, 5);
      else
        {
          plline ((PLINT) se->n, se->x, se->y);
          if (se->label != NULL)
            plpoin ((PLINT) se->n, se->x, se->y, 17);
        }
    }
  /* legend: labelled series, top right */
  double ly = 0.93;
  for (guint s = 0; s < n_series; s++)
    if (series[s].label != NULL)
      {
        plcol0 (series[s].colour);
        plmtex ("rv", -1.0, ly, 1.0, series[s].label);
        ly -= 0.06;
      }
  plend1 ();
  cairo_restore (cr);
}

static guint
solver_colour (HydSolverLab *self, const char *solver)
{
  for (guint k = 0; self->job->solvers[k]; k++)
    if (strcmp (self->job->solvers[k], solver) == 0)
      return COL_FIRST + k % G_N_ELEMENTS (palette);
  return 1;
}

static void
draw_wp (GtkDrawingArea *area, cairo_t *cr, int w, int h, gpointer data)
{
  HydSolverLab *self = data;
  g_autoptr (GArray) series = g_array_new (FALSE, TRUE, sizeof (Series));
  g_autoptr (GPtrArray) bufs = g_ptr_array_new_with_free_func (g_free);
  if (self->job != NULL)
    {
      g_mutex_lock (&self->job->lock);
      for (guint k = 0; self->job->solvers[k]; k++)
        {
          const char *id = self->job->solvers[k];
          double *x = g_new (double, self->job->runs->len + 1), *y = g_new (double, self->job->runs->len + 1);
          guint n = 0;
          for (guint r = 0; r < self->job->runs->len; r++)
            {
              LabRun *run = g_ptr_array_index (self->job->runs, r);
              if (strcmp (run->solver, id) != 0 || !(run->error > 0) || !(run->seconds > 0))
                continue;
              x[n] = log10 (run->seconds);
              y[n] = log10 (run->error);
              n++;
            }
          g_ptr_array_add (bufs, x);
          g_ptr_array_add (bufs, y);
          Series s = { x, y, n, (int) solver_colour (self, id), FALSE, id };
          g_array_append_val (series, s);
        }
      g_mutex_unlock (&self->job->lock);
    }
  plot_series (cr, w, h, _("CPU time [s]"), _("error (vs. reference)"), TRUE, TRUE,
               (const Series *) series->data, series->len,
               self->running ? _("Running…") : _("Tick solvers and tolerances, then Run."));
}

/* At most four points per pixel column of the accepted steps (the first,
 * the smallest, the largest and the last h of the column, in time order),
 * and one rejected step per column and pixel row: a run of a million steps
 * draws as fast as one of a thousand, and looks the same. */
static guint
decimate (double *t, double *y, guint n, double t0, double t1, int columns, gboolean points)
{
  if (n <= (guint) (4 * columns) || !(t1 > t0))
    return n;
  guint out = 0;
  guint i = 0;
  while (i < n)
    {
      int col = (int) floor ((t[i] - t0) / (t1 - t0) * columns);
      guint j = i, lo = i, hi = i;
      while (j < n && (int) floor ((t[j] - t0) / (t1 - t0) * columns) == col)
        {
          if (y[j] < y[lo])
            lo = j;
          if (y[j] > y[hi])
            hi = j;
          j++;
        }
      if (points)
        {
          /* one marker per 1/200 of a decade */
          double last = NAN;
          for (guint k = i; k < j; k++)
            {
              double q = round (y[k] * 200.0);
              gboolean seen = FALSE;
              for (guint m = out; m > 0 && t[m - 1] >= t[i] && !seen; m--)
                seen = round (y[m - 1] * 200.0) == q;
              if (seen || q == last)
                continue;
              last = q;
              t[out] = t[k];
              y[out++] = y[k];
            }
        }
      else
        {
          guint pick[4] = { i, MIN (lo, hi), MAX (lo, hi), j - 1 };
          double pt[4], py[4];
          for (guint k = 0; k < 4; k++)
            {
              pt[k] = t[pick[k]];
              py[k] = y[pick[k]];
            }
          for (guint k = 0; k < 4; k++)
            if (k == 0 || pick[k] != pick[k - 1])
              {
                t[out] = pt[k];
                y[out++] = py[k];
              }
        }
      i = j;
    }
  return out;
}

static void
draw_h (GtkDrawingArea *area, cairo_t *cr, int w, int h, gpointer data)
{
  HydSolverLab *self = data;
  g_autofree double *ta = NULL, *ha = NULL, *tr = NULL, *hr = NULL;
  Series s[2] = { { 0 } };
  guint n_series = 0;
  if (self->job != NULL && self->selected >= 0)
    {
      g_mutex_lock (&self->job->lock);
      LabRun *run = (guint) self->selected < self->job->runs->len
                      ? g_ptr_array_index (self->job->runs, self->selected) : NULL;
      if (run != NULL)
        {
          gsize n;
          const HydOdeStepRecord *rec = hyd_ode_step_log_get_records (run->log, &n);
          ta = g_new (double, n + 1);
          ha = g_new (double, n + 1);
          tr = g_new (double, n + 1);
          hr = g_new (double, n + 1);
          guint na = 0, nr = 0;
          for (gsize i = 0; i < n; i++)
            if (rec[i].outcome == HYD_STEP_ACCEPTED)
              {
                ta[na] = rec[i].t;
                ha[na++] = log10 (rec[i].h);
              }
            else
              {
                tr[nr] = rec[i].t;
                hr[nr++] = log10 (rec[i].h);
              }
          double t_lo = n > 0 ? rec[0].t : 0, t_hi = n > 0 ? rec[n - 1].t + rec[n - 1].h : 1;
          na = decimate (ta, ha, na, t_lo, t_hi, MAX (w, 1), FALSE);
          nr = decimate (tr, hr, nr, t_lo, t_hi, MAX (w, 1), TRUE);
          s[0] = (Series) { ta, ha, na, (int) solver_colour (self, run->solver), FALSE, NULL };
          s[1] = (Series) { tr, hr, nr, COL_FIRST + 1, TRUE, NULL };
          n_series = 2;
        }
      g_mutex_unlock (&self->job->lock);
    }
  plot_series (cr, w, h, _("t [s]"), _("step size h [s]; × rejected"), FALSE, TRUE, s, n_series,
               _("Select a run in the table for its step sizes."));
}

/* ---- the table and the heat map ---- */

static GtkWidget *
row_box (const char *const *cells, gboolean header)
{
  static const int widths[] = { 15, 8, 10, 9, 8, 9, 9, 10, 7, 8, 14 };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  for (guint c = 0; c < G_N_ELEMENTS (widths); c++)
    {
      GtkWidget *l = gtk_label_new (NULL);
      if (header)
        {
          g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>", cells[c]);
          gtk_label_set_markup (GTK_LABEL (l), markup);
        }
      else
        gtk_label_set_text (GTK_LABEL (l), cells[c]);
      gtk_label_set_width_chars (GTK_LABEL (l), widths[c]);
      gtk_label_set_max_width_chars (GTK_LABEL (l), widths[c]);
      gtk_label_set_ellipsize (GTK_LABEL (l), PANGO_ELLIPSIZE_END);
      gtk_label_set_xalign (GTK_LABEL (l), c < 2 || c == 10 ? 0.0f : 1.0f);
      gtk_widget_add_css_class (l, "numeric");
      gtk_box_append (GTK_BOX (box), l);
    }
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  return box;
}

static void
add_table_row (HydSolverLab *self, const LabRun *r)
{
  char rt[32], err[32], sec[32], steps[24], rej[24], fe[24], je[24], lu[24], nw[24];
  g_snprintf (rt, sizeof rt, "%g", r->rtol);
  if (isnan (r->error))
    g_strlcpy (err, "—", sizeof err);
  else
    g_snprintf (err, sizeof err, "%.3g", r->error);
  g_snprintf (sec, sizeof sec, "%.3g", r->seconds);
  g_snprintf (steps, sizeof steps, "%" G_GUINT64_FORMAT, r->stats.steps);
  g_snprintf (rej, sizeof rej, "%" G_GUINT64_FORMAT, r->stats.rejected);
  g_snprintf (fe, sizeof fe, "%" G_GUINT64_FORMAT, r->stats.f_evals);
  g_snprintf (je, sizeof je, "%" G_GUINT64_FORMAT, r->stats.jac_evals);
  g_snprintf (lu, sizeof lu, "%" G_GUINT64_FORMAT, r->stats.lu);
  g_snprintf (nw, sizeof nw, "%" G_GUINT64_FORMAT, r->stats.newton);
  const char *cells[] = { r->solver, rt, err, sec, steps, rej, fe, je, lu, nw,
                          hyd_ode_status_name (r->status) };
  GtkWidget *row = gtk_list_box_row_new ();
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), row_box (cells, FALSE));
  if (r->message != NULL)
    gtk_widget_set_tooltip_text (row, r->message);
  gtk_list_box_append (self->table, row);
}

static guint
table_rows (HydSolverLab *self)
{
  guint n = 0;
  while (gtk_list_box_get_row_at_index (self->table, (int) n) != NULL)
    n++;
  return n;
}

/* New runs into the table. */
static void
sync_table (HydSolverLab *self)
{
  if (self->job == NULL)
    return;
  g_mutex_lock (&self->job->lock);
  for (guint k = table_rows (self); k < self->job->runs->len; k++)
    add_table_row (self, g_ptr_array_index (self->job->runs, k));
  g_mutex_unlock (&self->job->lock);
}

/* Clears the heat map, unless another window has highlighted something else
 * on the schematic since (its hottest component no longer has a level). */
static void
clear_heat (HydSolverLab *self)
{
  if (self->canvas != NULL && self->highlighted && self->heat != NULL && self->heat[0] != NULL
      && hyd_canvas_get_highlight_level (self->canvas, self->heat[0]) >= 0)
    hyd_canvas_set_highlight (self->canvas, NULL);
  self->highlighted = FALSE;
  g_clear_pointer (&self->heat, g_strfreev);
}

/* Run k's heat map: each component's share is the accepted steps limited by
 * the states it makes (a node's pressure counts for every component on the
 * node), relative to the hottest. */
static void
show_heat (HydSolverLab *self, const LabRun *run)
{
  clear_heat (self);
  const LabJob *job = self->job;
  guint n = hyd_ode_step_log_get_n_states (run->log);
  const guint64 *limited = hyd_ode_step_log_get_limited (run->log);
  if (job->state_comps == NULL || job->state_comps->len != n)
    return;
  g_autoptr (GPtrArray) ids = g_ptr_array_new ();
  g_autoptr (GArray) counts = g_array_new (FALSE, TRUE, sizeof (double));
  guint64 total = hyd_ode_step_log_get_unlimited (run->log);
  for (guint i = 0; i < n; i++)
    {
      total += limited[i];
      if (limited[i] == 0)
        continue;
      GPtrArray *comps = g_ptr_array_index (job->state_comps, i);
      for (guint c = 0; c < comps->len; c++)
        {
          const char *id = g_ptr_array_index (comps, c);
          guint j = 0;
          while (j < ids->len && strcmp (g_ptr_array_index (ids, j), id) != 0)
            j++;
          if (j == ids->len)
            {
              g_ptr_array_add (ids, (gpointer) id);
              g_array_set_size (counts, ids->len);
            }
          g_array_index (counts, double, j) += (double) limited[i];
        }
    }
  /* hottest first */
  GStrvBuilder *b = g_strv_builder_new ();
  g_autofree double *levels = g_new (double, ids->len + 1);
  double top = 0;
  for (guint j = 0; j < ids->len; j++)
    top = MAX (top, g_array_index (counts, double, j));
  for (guint m = 0; m < ids->len; m++)
    {
      guint best = 0;
      for (guint j = 1; j < ids->len; j++)
        if (g_array_index (counts, double, j) > g_array_index (counts, double, best))
          best = j;
      g_strv_builder_add (b, g_ptr_array_index (ids, best));
      levels[m] = g_array_index (counts, double, best) / top;
      g_array_index (counts, double, best) = -1;
    }
  self->heat = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  if (self->canvas != NULL && self->heat[0] != NULL)
    {
      hyd_canvas_set_highlight_levels (self->canvas, (const char *const *) self->heat, levels);
      self->highlighted = TRUE;
    }

  /* the states, most steps first */
  GString *t = g_string_new (NULL);
  char total_s[24];
  g_snprintf (total_s, sizeof total_s, "%" G_GUINT64_FORMAT, total);
  g_string_append_printf (t, _("%s at rtol %g: the states that limited its %s accepted steps —"),
                          run->solver, run->rtol, total_s);
  g_autofree guint64 *left = g_memdup2 (limited, n * sizeof (guint64) + 1);
  for (guint m = 0; m < MAX_STATE_LINES; m++)
    {
      guint best = 0;
      for (guint i = 1; i < n; i++)
        if (left[i] > left[best])
          best = i;
      if (n == 0 || left[best] == 0)
        break;
      GPtrArray *comps = g_ptr_array_index (job->state_comps, best);
      g_autoptr (GString) cl = g_string_new (NULL);
      for (guint c = 0; c < comps->len; c++)
        g_string_append_printf (cl, "%s%s", c ? ", " : "", (char *) g_ptr_array_index (comps, c));
      g_string_append_printf (t, "\n  %s (%s): %" G_GUINT64_FORMAT " (%.0f %%)",
                              (char *) g_ptr_array_index (job->state_names, best), cl->str, left[best],
                              100.0 * (double) left[best] / (double) MAX (total, 1));
      left[best] = 0;
    }
  if (hyd_ode_step_log_get_unlimited (run->log) > 0)
    g_string_append_printf (t, "\n  %s: %" G_GUINT64_FORMAT, _("no error estimate"),
                            hyd_ode_step_log_get_unlimited (run->log));
  gtk_label_set_text (self->limit_label, t->str);
  g_string_free (t, TRUE);
}

void
hyd_solver_lab_select_run (HydSolverLab *self, guint k)
{
  g_return_if_fail (HYD_IS_SOLVER_LAB (self));
  if (self->job == NULL)
    return;
  g_mutex_lock (&self->job->lock);
  LabRun *run = k < self->job->runs->len ? g_ptr_array_index (self->job->runs, k) : NULL;
  if (run != NULL)
    {
      self->selected = (int) k;
      show_heat (self, run);
    }
  g_mutex_unlock (&self->job->lock);
  if (run == NULL)
    return;
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->table, (int) k);
  if (row != NULL && gtk_list_box_get_selected_row (self->table) != row)
    gtk_list_box_select_row (self->table, row);
  gtk_widget_queue_draw (GTK_WIDGET (self->h_plot));
}

static void
row_selected_cb (GtkListBox *box, GtkListBoxRow *row, gpointer data)
{
  HydSolverLab *self = data;
  if (row != NULL && gtk_list_box_row_get_index (row) != self->selected)
    hyd_solver_lab_select_run (self, (guint) gtk_list_box_row_get_index (row));
}

/* ---- running ---- */

static void
update_progress (HydSolverLab *self)
{
  if (self->job == NULL)
    return;
  guint done = (guint) g_atomic_int_get (&self->job->done);
  gboolean ref = g_atomic_int_get (&self->job->reference_done) != 0;
  gtk_progress_bar_set_fraction (self->progress,
                                 (double) (done + (ref ? 1 : 0)) / (double) (self->job->total + 1));
  g_autofree char *text = ref ? g_strdup_printf (_("%u of %u runs"), done, self->job->total)
                              : g_strdup (_("the reference run (radau5, rtol 1e-10)…"));
  gtk_progress_bar_set_text (self->progress, text);
}

static gboolean
poll_cb (gpointer data)
{
  HydSolverLab *self = data;
  update_progress (self);
  guint before = table_rows (self);
  sync_table (self);
  if (table_rows (self) != before)
    gtk_widget_queue_draw (GTK_WIDGET (self->wp_plot));
  return G_SOURCE_CONTINUE;
}

static void
set_running (HydSolverLab *self, gboolean running)
{
  self->running = running;
  gtk_widget_set_sensitive (GTK_WIDGET (self->run_button), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->cancel_button), running);
  for (guint k = 0; k < self->solver_checks->len; k++)
    gtk_widget_set_sensitive (g_ptr_array_index (self->solver_checks, k), !running);
  for (guint k = 0; k < self->rtol_checks->len; k++)
    gtk_widget_set_sensitive (g_ptr_array_index (self->rtol_checks, k), !running);
}

static void
done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  HydSolverLab *self = HYD_SOLVER_LAB (source);
  LabJob *job = data;
  /* a window closed meanwhile, or a job that is no longer the window's */
  if (self->cancellable == NULL || job != self->job)
    {
      lab_job_unref (job);
      return;
    }
  lab_job_unref (job);
  g_clear_handle_id (&self->poll_id, g_source_remove);
  set_running (self, FALSE);
  sync_table (self);
  update_progress (self);
  self->cancelled = g_atomic_int_get (&self->job->cancel) != 0;
  g_autofree char *text = NULL;
  if (self->cancelled)
    text = g_strdup_printf (_("Cancelled after %u of %u runs."), table_rows (self), self->job->total);
  else if (self->job->error != NULL)
    text = g_strdup_printf (_("The runs could not be made: %s"), self->job->error);
  else
    text = g_strdup_printf (_("%u runs. Error: the largest over the output samples and states of "
                              "|y − y_ref| / (atol + 1e-6·|y_ref|) against radau5 at rtol 1e-10; time: "
                              "the worker thread's CPU time. Select a run for its step sizes and its "
                              "heat map on the schematic."), table_rows (self));
  gtk_label_set_text (self->status, text);
  gtk_widget_queue_draw (GTK_WIDGET (self->wp_plot));
  if (self->selected < 0 && table_rows (self) > 0)
    hyd_solver_lab_select_run (self, 0);
  g_signal_emit (self, signals[SIGNAL_READY], 0);
}

void
hyd_solver_lab_run (HydSolverLab *self)
{
  g_return_if_fail (HYD_IS_SOLVER_LAB (self));
  if (self->running)
    return;
  GStrvBuilder *b = g_strv_builder_new ();
  for (guint k = 0; k < self->solver_checks->len; k++)
    {
      GtkCheckButton *c = g_ptr_array_index (self->solver_checks, k);
      if (gtk_check_button_get_active (c))
        g_strv_builder_add (b, g_object_get_data (G_OBJECT (c), "id"));
    }
  GStrv solvers = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  GArray *rtols = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint k = 0; k < self->rtol_checks->len; k++)
    if (gtk_check_button_get_active (g_ptr_array_index (self->rtol_checks, k)))
      g_array_append_val (rtols, offered_rtols[k]);
  if (solvers[0] == NULL || rtols->len == 0)
    {
      gtk_label_set_text (self->status, _("Tick at least one solver and one tolerance."));
      g_strfreev (solvers);
      g_array_unref (rtols);
      return;
    }

  clear_heat (self);
  gtk_label_set_text (self->limit_label, "");
  self->selected = -1;
  self->cancelled = FALSE;
  GtkListBoxRow *row;
  while ((row = gtk_list_box_get_row_at_index (self->table, 0)) != NULL)
    gtk_list_box_remove (self->table, GTK_WIDGET (row));
  g_clear_pointer (&self->job, lab_job_unref);

  LabJob *job = g_atomic_rc_box_new0 (LabJob);
  job->circuit = hyd_circuit_copy (self->circuit);
  job->solvers = solvers;
  job->rtols = rtols;
  job->total = g_strv_length (solvers) * rtols->len;
  g_mutex_init (&job->lock);
  job->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) lab_run_free);
  self->job = job;

  set_running (self, TRUE);
  gtk_label_set_text (self->status, _("Running…"));
  update_progress (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->wp_plot));
  gtk_widget_queue_draw (GTK_WIDGET (self->h_plot));
  self->poll_id = g_timeout_add (150, poll_cb, self);
  /* the task holds the window and a reference of the job until it ends */
  GTask *task = g_task_new (self, NULL, done_cb, g_atomic_rc_box_acquire (job));
  g_task_set_task_data (task, g_atomic_rc_box_acquire (job), (GDestroyNotify) lab_job_unref);
  g_task_run_in_thread (task, lab_thread);
  g_object_unref (task);
}

void
hyd_solver_lab_cancel (HydSolverLab *self)
{
  g_return_if_fail (HYD_IS_SOLVER_LAB (self));
  if (self->job != NULL && self->running)
    {
      g_atomic_int_set (&self->job->cancel, 1);
      gtk_label_set_text (self->status, _("Cancelling…"));
    }
}

static void
run_clicked_cb (GtkButton *button, gpointer data)
{
  hyd_solver_lab_run (HYD_SOLVER_LAB (data));
}

static void
cancel_clicked_cb (GtkButton *button, gpointer data)
{
  hyd_solver_lab_cancel (HYD_SOLVER_LAB (data));
}

/* ---- the object ---- */

static void
hyd_solver_lab_dispose (GObject *object)
{
  HydSolverLab *self = HYD_SOLVER_LAB (object);
  if (self->job != NULL)
    g_atomic_int_set (&self->job->cancel, 1);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->poll_id, g_source_remove);
  clear_heat (self);
  g_clear_weak_pointer (&self->canvas);
  G_OBJECT_CLASS (hyd_solver_lab_parent_class)->dispose (object);
}

static void
hyd_solver_lab_finalize (GObject *object)
{
  HydSolverLab *self = HYD_SOLVER_LAB (object);
  g_clear_pointer (&self->circuit, hyd_circuit_free);
  g_clear_pointer (&self->job, lab_job_unref);
  g_clear_pointer (&self->solver_checks, g_ptr_array_unref);
  g_clear_pointer (&self->rtol_checks, g_ptr_array_unref);
  g_strfreev (self->heat);
  G_OBJECT_CLASS (hyd_solver_lab_parent_class)->finalize (object);
}

static void
plplot_abort_handler (const char *message)
{
  g_warning ("PLplot: %s", message);
}

static void
hyd_solver_lab_class_init (HydSolverLabClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = hyd_solver_lab_dispose;
  object_class->finalize = hyd_solver_lab_finalize;
  /* Escape closes it, as the help and the examples windows */
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0, "window.close", NULL);
  signals[SIGNAL_READY] = g_signal_new ("ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                        NULL, G_TYPE_NONE, 0);
  /* a PLplot error warns instead of ending the program */
  plsabort (plplot_abort_handler);
}

static void
hyd_solver_lab_init (HydSolverLab *self)
{
  self->selected = -1;
  self->cancellable = g_cancellable_new ();
  self->solver_checks = g_ptr_array_new ();
  self->rtol_checks = g_ptr_array_new ();
  gtk_window_set_default_size (GTK_WINDOW (self), 1100, 780);
  gtk_window_set_title (GTK_WINDOW (self), _("Solver Lab"));

  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_start (box, 10);
  gtk_widget_set_margin_end (box, 10);
  gtk_widget_set_margin_top (box, 10);
  gtk_widget_set_margin_bottom (box, 10);

  /* the choice: solvers (adaptive, not tlm), tolerances */
  GtkWidget *solvers = gtk_flow_box_new ();
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (solvers), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (solvers), 14);
  /* else its minimum height is one solver a line */
  gtk_flow_box_set_min_children_per_line (GTK_FLOW_BOX (solvers), 8);
  guint n;
  const HydSolverInfo *list = hyd_solver_list (&n);
  for (guint k = 0; k < n; k++)
    {
      if (!list[k].adaptive || list[k].needs_model || strcmp (list[k].id, "auto") == 0)
        continue;
      GtkWidget *c = gtk_check_button_new_with_label (list[k].id);
      g_object_set_data (G_OBJECT (c), "id", (gpointer) list[k].id);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (c),
                                   g_strv_contains (default_solvers, list[k].id));
      gtk_widget_set_tooltip_text (c, list[k].notes);
      gtk_flow_box_append (GTK_FLOW_BOX (solvers), c);
      g_ptr_array_add (self->solver_checks, c);
    }
  GtkWidget *tols = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_box_append (GTK_BOX (tols), gtk_label_new (_("Tolerances (rtol; atol follows):")));
  for (guint k = 0; k < G_N_ELEMENTS (offered_rtols); k++)
    {
      char label[16];
      g_snprintf (label, sizeof label, "%g", offered_rtols[k]);
      GtkWidget *c = gtk_check_button_new_with_label (label);
      gboolean on = FALSE;
      for (guint j = 0; j < G_N_ELEMENTS (default_rtols); j++)
        on |= default_rtols[j] == offered_rtols[k];
      gtk_check_button_set_active (GTK_CHECK_BUTTON (c), on);
      gtk_box_append (GTK_BOX (tols), c);
      g_ptr_array_add (self->rtol_checks, c);
    }
  self->run_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Run")));
  gtk_widget_add_css_class (GTK_WIDGET (self->run_button), "suggested-action");
  self->cancel_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Cancel")));
  gtk_widget_set_sensitive (GTK_WIDGET (self->cancel_button), FALSE);
  g_signal_connect (self->run_button, "clicked", G_CALLBACK (run_clicked_cb), self);
  g_signal_connect (self->cancel_button, "clicked", G_CALLBACK (cancel_clicked_cb), self);
  self->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_progress_bar_set_show_text (self->progress, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->progress), TRUE);
  gtk_widget_set_valign (GTK_WIDGET (self->progress), GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (tols), GTK_WIDGET (self->progress));
  gtk_box_append (GTK_BOX (tols), GTK_WIDGET (self->run_button));
  gtk_box_append (GTK_BOX (tols), GTK_WIDGET (self->cancel_button));
  /* the help: what the diagrams, the table and the heat map show */
  g_autofree char *help_text = hyd_help_solver_lab_dup_text ();
  GtkWidget *help_label = gtk_label_new (help_text);
  gtk_label_set_wrap (GTK_LABEL (help_label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (help_label), 70);
  gtk_label_set_xalign (GTK_LABEL (help_label), 0);
  GtkWidget *popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), help_label);
  GtkWidget *help = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (help), "help-about-symbolic");
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (help), popover);
  gtk_widget_set_tooltip_text (help, _("What the Solver Lab shows"));
  gtk_box_append (GTK_BOX (tols), help);

  self->status = GTK_LABEL (gtk_label_new (_("Tick solvers and tolerances, then Run.")));
  gtk_label_set_xalign (self->status, 0);
  gtk_label_set_wrap (self->status, TRUE);

  /* the two diagrams side by side */
  GtkWidget *plots = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_box_set_homogeneous (GTK_BOX (plots), TRUE);
  self->wp_plot = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  self->h_plot = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  gtk_drawing_area_set_draw_func (self->wp_plot, draw_wp, self, NULL);
  gtk_drawing_area_set_draw_func (self->h_plot, draw_h, self, NULL);
  gtk_widget_set_size_request (GTK_WIDGET (self->wp_plot), 360, 280);
  gtk_widget_set_size_request (GTK_WIDGET (self->h_plot), 360, 280);
  gtk_widget_set_vexpand (plots, TRUE);
  gtk_box_append (GTK_BOX (plots), GTK_WIDGET (self->wp_plot));
  gtk_box_append (GTK_BOX (plots), GTK_WIDGET (self->h_plot));

  /* the table and the limiting states */
  const char *head[] = { _("solver"), "rtol", _("error"), _("CPU [s]"), _("steps"), _("rejected"),
                         _("f evals"), _("Jacobians"), _("LU"), _("Newton"), _("status") };
  GtkWidget *header = row_box (head, TRUE);
  self->table = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->table, GTK_SELECTION_SINGLE);
  g_signal_connect (self->table, "row-selected", G_CALLBACK (row_selected_cb), self);
  GtkWidget *scroll = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), GTK_WIDGET (self->table));
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroll), 150);
  self->limit_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->limit_label, 0);
  gtk_label_set_wrap (self->limit_label, TRUE);
  gtk_label_set_selectable (self->limit_label, TRUE);

  gtk_box_append (GTK_BOX (box), solvers);
  gtk_box_append (GTK_BOX (box), tols);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status));
  gtk_box_append (GTK_BOX (box), plots);
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), scroll);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->limit_label));
  gtk_window_set_child (GTK_WINDOW (self), box);
}

HydSolverLab *
hyd_solver_lab_new (GtkWindow *parent, const HydCircuit *circuit, HydCanvas *canvas)
{
  g_return_val_if_fail (circuit != NULL, NULL);
  HydSolverLab *self = g_object_new (HYD_TYPE_SOLVER_LAB, NULL);
  if (parent)
    gtk_window_set_transient_for (GTK_WINDOW (self), parent);
  self->circuit = hyd_circuit_copy (circuit);
  g_set_weak_pointer (&self->canvas, canvas);
  if (circuit->title != NULL)
    {
      g_autofree char *title = g_strdup_printf (_("Solver Lab — %s"), circuit->title);
      gtk_window_set_title (GTK_WINDOW (self), title);
    }
  return self;
}

void
hyd_solver_lab_set_choice (HydSolverLab *self, const char *const *solvers, const double *rtols,
                           guint n_rtols)
{
  g_return_if_fail (HYD_IS_SOLVER_LAB (self));
  for (guint k = 0; k < self->solver_checks->len; k++)
    {
      GtkCheckButton *c = g_ptr_array_index (self->solver_checks, k);
      gtk_check_button_set_active (c, solvers != NULL
                                        && g_strv_contains (solvers, g_object_get_data (G_OBJECT (c), "id")));
    }
  for (guint k = 0; k < self->rtol_checks->len; k++)
    {
      gboolean on = FALSE;
      for (guint j = 0; j < n_rtols; j++)
        on |= rtols[j] == offered_rtols[k];
      gtk_check_button_set_active (g_ptr_array_index (self->rtol_checks, k), on);
    }
}

gboolean
hyd_solver_lab_get_running (HydSolverLab *self)
{
  g_return_val_if_fail (HYD_IS_SOLVER_LAB (self), FALSE);
  return self->running;
}

const char *
hyd_solver_lab_get_error (HydSolverLab *self)
{
  g_return_val_if_fail (HYD_IS_SOLVER_LAB (self), NULL);
  return self->job != NULL && !self->running && !self->cancelled ? self->job->error : NULL;
}

gboolean
hyd_solver_lab_get_cancelled (HydSolverLab *self)
{
  g_return_val_if_fail (HYD_IS_SOLVER_LAB (self), FALSE);
  return self->cancelled;
}

guint
hyd_solver_lab_get_n_runs (HydSolverLab *self)
{
  g_return_val_if_fail (HYD_IS_SOLVER_LAB (self), 0);
  return table_rows (self);
}

static const LabRun *
run_at (HydSolverLab *self, guint k)
{
  if (self->job == NULL || self->running || k >= self->job->runs->len)
    return NULL;
  return g_ptr_array_index (self->job->runs, k);
}

const char *
hyd_solver_lab_get_run_solver (HydSolverLab *self, guint k)
{
  g_return_val_if_fail (HYD_IS_SOLVER_LAB (self), NULL);
  const LabRun *r = run_at (self, k);
  return r != NULL ? r->solver : NULL;
}

double
hyd_solver_lab_get_run_rtol (HydSolverLab *self, guint k)
{
  g_return_val_if_fail (HYD_IS_SOLVER_LAB (self), NAN);
  const LabRun *r = run_at (self, k);
  return r != NULL ? r->rtol : NAN;
}

double
hyd_solver_lab_get_run_error (HydSolverLab *self, guint k)
{
  g_return_val_if_fail (HYD_IS_SOLVER_LAB (self), NAN);
  const LabRun *r = run_at (self, k);
  return r != NULL ? r->error : NAN;
}

GStrv
hyd_solver_lab_dup_heat_components (HydSolverLab *self)
{
  g_return_val_if_fail (HYD_IS_SOLVER_LAB (self), NULL);
  return self->heat != NULL ? g_strdupv (self->heat) : NULL;
}
