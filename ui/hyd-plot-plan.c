/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-plot-plan.c — the data side of a plot pane: decimation, time window,
 * strips, y ranges, ticks and markers (see hyd-plot-plan.h). Plain C on
 * GLib: no GTK, cairo or PLplot. */

#include "hyd-plot-plan.h"

#include "hyd-display-units.h"

#include <math.h>

/* ------------------------------------------------------------ decimation -- */

/* First index in t[lo, hi) with t[i] ≥ x (t ascending; NaN times sort last). */
static gsize
lower_bound (const double *t, gsize lo, gsize hi, double x)
{
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (t[mid] < x)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
push_point (GArray *xs, GArray *ys, double x, double y)
{
  g_array_append_val (xs, x);
  g_array_append_val (ys, y);
}

/* A NaN pair ends the current line (not twice, not at the start). */
static void
push_break (GArray *xs, GArray *ys)
{
  if (xs->len == 0 || isnan (g_array_index (xs, double, xs->len - 1)))
    return;
  push_point (xs, ys, NAN, NAN);
}

/* The min/max state of one pixel column. */
typedef struct _HydPlotColumn {
  guint used : 1;
  guint broken : 1;   /* a NaN value fell in it: the line breaks after it */
  double first, last, min, max;
  gsize i_min, i_max;
} Column;

typedef HydPlotEnvelope Envelope;

static void
envelope_clear (Envelope *e)
{
  g_clear_object (&e->store);
  g_clear_pointer (&e->cols, g_free);
  e->n_done = e->n_inside = 0;
}

static void
envelope_reset (Envelope *e, HydTraceStore *store, int column, double x0, double x1, guint n_columns)
{
  envelope_clear (e);
  e->store = store ? g_object_ref (store) : NULL;
  e->column = column;
  e->x0 = x0;
  e->x1 = x1;
  e->n_columns = MAX (n_columns, 1);
  e->compactions = store ? hyd_trace_store_get_n_compactions (store) : 0;
  e->cols = g_new0 (Column, e->n_columns);
}

static void
envelope_feed (Envelope *e, const double *t, const double *y, gsize n)
{
  double width = (e->x1 - e->x0) / e->n_columns;
  for (gsize i = e->n_done; i < n; i++)
    {
      double ti = t[i];
      if (!(ti >= e->x0 && ti <= e->x1))
        continue;
      e->n_inside++;
      Column *c = &e->cols[(guint) CLAMP ((ti - e->x0) / width, 0.0, (double) (e->n_columns - 1))];
      double v = y[i];
      if (!isfinite (v))
        c->broken = TRUE;
      else if (!c->used)
        {
          c->used = TRUE;
          c->first = c->min = c->max = c->last = v;
          c->i_min = c->i_max = i;
        }
      else
        {
          if (v < c->min)
            {
              c->min = v;
              c->i_min = i;
            }
          else if (v > c->max)
            {
              c->max = v;
              c->i_max = i;
            }
          c->last = v;
        }
    }
  e->n_done = MAX (e->n_done, n);
}

static void
push_sample (GArray *xs, GArray *ys, double t, double y)
{
  if (isfinite (t) && isfinite (y))
    push_point (xs, ys, t, y);
  else
    push_break (xs, ys);
}

static void
column_emit (const Column *c, double xc, GArray *xs, GArray *ys)
{
  if (c->used)
    {
      double v[4];
      int n = 0;
      v[n++] = c->first;
      v[n++] = c->i_min <= c->i_max ? c->min : c->max;
      v[n++] = c->i_min <= c->i_max ? c->max : c->min;
      v[n++] = c->last;
      for (int k = 0; k < n; k++)
        if (k == 0 || v[k] != v[k - 1])
          push_point (xs, ys, xc, v[k]);
    }
  if (c->broken)
    push_break (xs, ys);
}

/* The polyline of the samples consumed so far (t, y: the whole columns). */
static void
envelope_emit (const Envelope *e, const double *t, const double *y, gsize n, GArray *xs, GArray *ys)
{
  g_array_set_size (xs, 0);
  g_array_set_size (ys, 0);
  n = MIN (n, e->n_done);
  if (n == 0)
    return;

  /* samples inside [x0, x1], plus one on each side so the line reaches the
   * edges of the plot (PLplot clips it there) */
  gsize lo = lower_bound (t, 0, n, e->x0);
  gsize hi = lower_bound (t, lo, n, e->x1);
  while (hi < n && t[hi] <= e->x1)
    hi++;

  if (e->n_inside <= 4 * (gsize) e->n_columns)
    {
      /* few enough: every sample as it is */
      for (gsize i = lo > 0 ? lo - 1 : 0; i < MIN (hi + 1, n); i++)
        push_sample (xs, ys, t[i], y[i]);
      return;
    }
  if (lo > 0)
    push_sample (xs, ys, t[lo - 1], y[lo - 1]);
  double width = (e->x1 - e->x0) / e->n_columns;
  for (guint k = 0; k < e->n_columns; k++)
    column_emit (&e->cols[k], e->x0 + (k + 0.5) * width, xs, ys);
  if (hi < n)
    push_sample (xs, ys, t[hi], y[hi]);
}

guint
hyd_plot_decimate (const double *t, const double *y, gsize n, double x0, double x1,
                   guint n_columns, GArray *xs, GArray *ys)
{
  g_return_val_if_fail (xs != NULL && ys != NULL, 0);
  g_array_set_size (xs, 0);
  g_array_set_size (ys, 0);
  if (n == 0 || t == NULL || y == NULL || !(x1 > x0) || !isfinite (x0) || !isfinite (x1))
    return 0;
  Envelope e = { 0 };
  envelope_reset (&e, NULL, 0, x0, x1, n_columns);
  envelope_feed (&e, t, y, n);
  envelope_emit (&e, t, y, n, xs, ys);
  envelope_clear (&e);
  return xs->len;
}


void
hyd_plot_envelope_clear (HydPlotEnvelope *e)
{
  g_return_if_fail (e != NULL);
  envelope_clear (e);
}

/* A trace's polyline from its store, through its cached envelope. */
void
hyd_plot_envelope_update (HydPlotEnvelope *e, HydTraceStore *store, int column, double x0, double x1, guint n_columns,
                          GArray *xs, GArray *ys)
{
  guint n = hyd_trace_store_get_n_rows (store);
  if (e->store != store || e->column != column || e->x0 != x0 || e->x1 != x1
      || e->n_columns != MAX (n_columns, 1) || n < e->n_done
      || e->compactions != hyd_trace_store_get_n_compactions (store))
    envelope_reset (e, store, column, x0, x1, n_columns);
  const double *t = hyd_trace_store_get_column (store, 0);
  const double *y = hyd_trace_store_get_column (store, column);
  envelope_feed (e, t, y, n);
  envelope_emit (e, t, y, n, xs, ys);
}

/* ------------------------------------------------------------- numbers -- */

/* A "nice" step (1, 2, 2.5 or 5 × 10^k) near span / n_wanted. */
double
hyd_plot_nice_step (double span, double n_wanted)
{
  if (!(span > 0) || !isfinite (span))
    return 1.0;
  double raw = span / MAX (n_wanted, 1.0);
  double mag = pow (10.0, floor (log10 (raw)));
  double f = raw / mag;
  double nice = f < 1.5 ? 1.0 : f < 2.25 ? 2.0 : f < 3.5 ? 2.5 : f < 7.5 ? 5.0 : 10.0;
  return nice * mag;
}

/* Digits after the decimal point that a tick step needs. */
static int
step_decimals (double step)
{
  if (!(step > 0) || !isfinite (step))
    return 0;
  int d = (int) ceil (-log10 (step) - 1e-9);
  /* 2.5 × 10^k needs one more */
  double scaled = step * pow (10.0, d);
  if (fabs (scaled - round (scaled)) > 1e-6)
    d++;
  return CLAMP (d, 0, 12);
}

/* Make [lo, hi] a usable, finite, non-empty range. */
void
hyd_plot_valid_range (double *lo, double *hi)
{
  if (!isfinite (*lo) || !isfinite (*hi))
    {
      *lo = 0.0;
      *hi = 1.0;
      return;
    }
  if (*lo > *hi)
    {
      double tmp = *lo;
      *lo = *hi;
      *hi = tmp;
    }
  double span = *hi - *lo;
  double mag = MAX (fabs (*lo), fabs (*hi));
  if (!(span > mag * 1e-12) || span < 1e-300)
    {
      double pad = mag > 0 ? mag * 0.1 : 1.0;
      *lo -= pad;
      *hi += pad;
    }
  if (!isfinite (*hi - *lo))
    {
      *lo = -1e300;
      *hi = 1e300;
    }
}

HydPlotAxisFormat
hyd_plot_axis_format (double lo, double hi, double step)
{
  HydPlotAxisFormat f = { step_decimals (step), FALSE, step };
  double mag = MAX (fabs (lo), fabs (hi));
  if (mag >= 1e7 || step < 1e-5)
    f.exponent = TRUE;
  return f;
}

char *
hyd_plot_format_tick (const HydPlotAxisFormat *f, double value)
{
  if (fabs (value) < f->step * 1e-6)
    value = 0.0;
  char *s = f->exponent ? g_strdup_printf ("%.3g", value) : g_strdup_printf ("%.*f", f->decimals, value);
  if (s[0] == '-')
    {
      /* a typographic minus */
      char *t = g_strconcat ("−", s + 1, NULL);
      g_free (s);
      s = t;
    }
  return s;
}

/* ---------------------------------------------------------------- axes -- */

void
hyd_plot_y_range (double data_lo, double data_hi, gboolean manual, double manual_lo, double manual_hi,
                  double n_ticks, double *lo_out, double *hi_out, double *step_out)
{
  double lo = data_lo, hi = data_hi, step;
  if (manual)
    {
      lo = manual_lo;
      hi = manual_hi;
      hyd_plot_valid_range (&lo, &hi);
      step = hyd_plot_nice_step (hi - lo, n_ticks);
    }
  else
    {
      if (!(lo <= hi))
        {
          lo = 0.0;
          hi = 1.0;
        }
      hyd_plot_valid_range (&lo, &hi);
      double pad = (hi - lo) * HYD_PLOT_AUTOSCALE_PAD;
      /* data that never goes below (above) zero keeps zero as its edge */
      double plo = lo >= 0 && lo - pad < 0 ? 0.0 : lo - pad;
      double phi = hi <= 0 && hi + pad > 0 ? 0.0 : hi + pad;
      step = hyd_plot_nice_step (phi - plo, n_ticks);
      /* snapped outwards to half steps: stable while a run streams in,
       * without the empty band a whole step can leave */
      double half = step / 2;
      double nlo = floor (plo / half + 1e-9) * half;
      double nhi = ceil (phi / half - 1e-9) * half;
      if (isfinite (nlo) && isfinite (nhi) && nhi > nlo)
        {
          lo = nlo;
          hi = nhi;
        }
      else
        {
          lo = plo;
          hi = phi;
        }
    }
  *lo_out = lo;
  *hi_out = hi;
  *step_out = step;
}

guint
hyd_plot_foreach_tick (double lo, double hi, const HydPlotAxisFormat *f,
                       void (*each) (const char *label, gpointer data), gpointer data)
{
  g_return_val_if_fail (f != NULL, 0);
  double step = f->step;
  guint n = 0;
  for (double v = ceil (lo / step) * step; v <= hi + step * 1e-6 && step > 0; v += step)
    {
      g_autofree char *label = hyd_plot_format_tick (f, v);
      if (each)
        each (label, data);
      n++;
      if ((hi - lo) / step > 200)
        break;
    }
  return n;
}

static void
store_time_span (HydTraceStore *store, double *t_first, double *t_last)
{
  guint n = store ? hyd_trace_store_get_n_rows (store) : 0;
  if (store && hyd_trace_store_get_n_columns (store) > 0 && n > 0)
    {
      const double *t = hyd_trace_store_get_column (store, 0);
      if (isfinite (t[0]))
        *t_first = MIN (*t_first, t[0]);
      for (guint i = n; i-- > 0;)
        if (isfinite (t[i]))
          {
            *t_last = MAX (*t_last, t[i]);
            break;
          }
    }
  double t_end = store ? hyd_trace_store_get_t_end (store) : NAN;
  if (isfinite (t_end))
    *t_last = MAX (*t_last, t_end);
}

/* A longer ghost is cut at the current run's edge rather than squeezing the
 * run being watched (issue 8). */
void
hyd_plot_time_window (HydTraceStore *store, HydTraceStore *ghost, double *x0, double *x1)
{
  double first = INFINITY, last = -INFINITY;
  store_time_span (store, &first, &last);
  if (!isfinite (last))
    store_time_span (ghost, &first, &last);
  if (!isfinite (first))
    first = 0.0;
  first = MIN (first, 0.0);   /* runs start at 0; show that start */
  if (!isfinite (last) || !(last > first))
    last = first + 1.0;
  *x0 = first;
  *x1 = last;
  hyd_plot_valid_range (x0, x1);
}

gboolean
hyd_plot_time_to_x (double t, double x0, double x1, double left, double right, double *x)
{
  if (!(right > left) || !(x1 > x0) || !(t >= x0 && t <= x1))
    return FALSE;
  *x = left + (t - x0) / (x1 - x0) * (right - left);
  return TRUE;
}

/* The cursor read-out. */
double
hyd_plot_value_at (HydTraceStore *store, int column, double t)
{
  guint n = hyd_trace_store_get_n_rows (store);
  if (n == 0 || column <= 0)
    return NAN;
  const double *ts = hyd_trace_store_get_column (store, 0);
  const double *ys = hyd_trace_store_get_column (store, column);
  if (!(t >= ts[0]) || !(t <= ts[n - 1]))
    return NAN;
  gsize i = lower_bound (ts, 0, n, t);
  if (i >= n)
    return ys[n - 1];
  if (i == 0 || ts[i] == t)
    return ys[i];
  double ta = ts[i - 1], tb = ts[i];
  if (!(tb > ta))
    return ys[i];
  return ys[i - 1] + (ys[i] - ys[i - 1]) * (t - ta) / (tb - ta);
}

/* ---------------------------------------------------------------- plan -- */

HydPlotPlan *
hyd_plot_plan_new (const HydUnit *trace_units, guint n_traces, HydTraceStore *store, HydTraceStore *ghost)
{
  g_return_val_if_fail (trace_units != NULL || n_traces == 0, NULL);
  HydPlotPlan *plan = g_new0 (HydPlotPlan, 1);

  /* one strip per distinct unit, in the order the traces were added */
  g_autoptr(GArray) units = g_array_new (FALSE, FALSE, sizeof (HydUnit));
  for (guint i = 0; i < n_traces; i++)
    {
      gboolean seen = FALSE;
      for (guint j = 0; j < units->len && !seen; j++)
        seen = g_array_index (units, HydUnit, j) == trace_units[i];
      if (!seen)
        g_array_append_val (units, trace_units[i]);
    }
  plan->n_strips = MAX (units->len, 1);
  plan->strips = g_new0 (HydPlotStrip, plan->n_strips);
  for (guint s = 0; s < plan->n_strips; s++)
    {
      HydPlotStrip *st = &plan->strips[s];
      st->unit = s < units->len ? g_array_index (units, HydUnit, s) : HYD_UNIT_NONE;
      st->traces = g_array_new (FALSE, FALSE, sizeof (guint));
      st->data_lo = INFINITY;
      st->data_hi = -INFINITY;
      st->lo = 0.0;
      st->hi = 1.0;
      st->step = 1.0;
      st->format = hyd_plot_axis_format (0.0, 1.0, 1.0);
    }

  plan->n_traces = n_traces;
  plan->trace_strip = g_new0 (guint, MAX (n_traces, 1));
  plan->xs = g_new0 (GArray *, 2 * MAX (n_traces, 1));
  plan->ys = g_new0 (GArray *, 2 * MAX (n_traces, 1));
  for (guint i = 0; i < n_traces; i++)
    {
      guint s = 0;
      while (s < plan->n_strips - 1 && plan->strips[s].unit != trace_units[i])
        s++;
      plan->trace_strip[i] = s;
      g_array_append_val (plan->strips[s].traces, i);
      for (guint g = 0; g < 2; g++)
        {
          plan->xs[2 * i + g] = g_array_new (FALSE, FALSE, sizeof (double));
          plan->ys[2 * i + g] = g_array_new (FALSE, FALSE, sizeof (double));
        }
    }
  plan->ghost_entry = ghost != NULL && n_traces > 0;

  hyd_plot_time_window (store, ghost, &plan->x0, &plan->x1);

  plan->markers = g_array_new (FALSE, FALSE, sizeof (double));
  guint nm = store ? hyd_trace_store_get_n_markers (store) : 0;
  for (guint m = 0; m < nm; m++)
    {
      double t;
      hyd_trace_store_get_marker (store, m, &t, NULL);
      if (isfinite (t) && t >= plan->x0 && t <= plan->x1)
        g_array_append_val (plan->markers, t);
    }
  return plan;
}

void
hyd_plot_plan_free (HydPlotPlan *plan)
{
  if (plan == NULL)
    return;
  for (guint s = 0; s < plan->n_strips; s++)
    g_array_unref (plan->strips[s].traces);
  g_free (plan->strips);
  for (guint i = 0; i < 2 * plan->n_traces; i++)
    {
      g_array_unref (plan->xs[i]);
      g_array_unref (plan->ys[i]);
    }
  g_free (plan->xs);
  g_free (plan->ys);
  g_free (plan->trace_strip);
  g_array_unref (plan->markers);
  g_free (plan);
}

void
hyd_plot_plan_set_series (HydPlotPlan *plan, guint i, guint g, GArray *xs, GArray *ys)
{
  g_return_if_fail (plan != NULL && i < plan->n_traces && g < 2);
  g_return_if_fail (xs != NULL && ys != NULL && xs->len == ys->len);
  GArray *ax = plan->xs[2 * i + g], *ay = plan->ys[2 * i + g];
  g_array_set_size (ax, 0);
  g_array_set_size (ay, 0);
  g_array_append_vals (ax, xs->data, xs->len);
  g_array_append_vals (ay, ys->data, ys->len);
  HydPlotStrip *st = &plan->strips[plan->trace_strip[i]];
  const HydDisplayUnit *du = hyd_display_unit_for (st->unit);
  double *py = (double *) ay->data;
  const double *px = (const double *) ax->data;
  for (guint j = 0; j < ay->len; j++)
    {
      if (isnan (py[j]))
        continue;
      py[j] = py[j] * du->scale + du->offset;
      if (px[j] >= plan->x0 && px[j] <= plan->x1)
        {
          st->data_lo = MIN (st->data_lo, py[j]);
          st->data_hi = MAX (st->data_hi, py[j]);
        }
    }
}

void
hyd_plot_plan_set_y_axis (HydPlotPlan *plan, guint s, gboolean manual, double manual_lo, double manual_hi,
                          double n_ticks)
{
  g_return_if_fail (plan != NULL && s < plan->n_strips);
  HydPlotStrip *st = &plan->strips[s];
  hyd_plot_y_range (st->data_lo, st->data_hi, manual, manual_lo, manual_hi, n_ticks, &st->lo, &st->hi, &st->step);
  st->format = hyd_plot_axis_format (st->lo, st->hi, st->step);
}

guint
hyd_plot_plan_legend_entries (const HydPlotPlan *plan, guint s)
{
  g_return_val_if_fail (plan != NULL && s < plan->n_strips, 0);
  guint n = plan->strips[s].traces->len;
  return n + (s == 0 && plan->ghost_entry ? 1 : 0);
}
