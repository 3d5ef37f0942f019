/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-state-diagram.c — the displacement–step diagram: rows, samples,
 * drawing, export (hyd-state-diagram.h). */
#include "hyd-state-diagram.h"

#include "hyd-dtoa.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hyd-catalogue.h"

G_DEFINE_QUARK (hyd-state-diagram-error-quark, hyd_state_diagram_error)

/* ---- rows ---- */

HydStateRow *
hyd_state_row_copy (const HydStateRow *row)
{
  HydStateRow *copy = g_new (HydStateRow, 1);
  *copy = *row;
  copy->component = g_strdup (row->component);
  copy->variable = g_strdup (row->variable);
  copy->label = g_strdup (row->label);
  return copy;
}

void
hyd_state_row_free (HydStateRow *row)
{
  if (row == NULL)
    return;
  g_free (row->component);
  g_free (row->variable);
  g_free (row->label);
  g_free (row);
}

static HydStateRow *
row_new (const char *component, const char *variable, const char *label, HydStateRowKind kind, double full,
         gboolean by_default)
{
  HydStateRow *row = g_new0 (HydStateRow, 1);
  row->component = g_strdup (component);
  row->variable = g_strdup (variable);
  row->label = g_strdup (label);
  row->kind = kind;
  row->full = full;
  row->by_default = by_default;
  return row;
}

static gboolean
type_has_param (const HydComponentType *type, const char *name)
{
  for (guint k = 0; k < type->n_params; k++)
    if (strcmp (type->params[k].name, name) == 0)
      return TRUE;
  return FALSE;
}

/* An actuator's row: its position variable and the parameter it is a
 * fraction of, when the run has that variable and the value is usable. */
static HydStateRow *
actuator_row (const HydCircuitComponent *comp, const HydComponentType *type, GHashTable *names)
{
  static const struct {
    const char *param, *state;
    HydStateRowKind kind;
  } kinds[] = {
    { "stroke", "x", HYD_STATE_ROW_STROKE },
    { "swivel_angle", "theta", HYD_STATE_ROW_SWIVEL },
  };
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      if (!type_has_param (type, kinds[k].param))
        continue;
      g_autofree char *var = g_strconcat (comp->id, ".", kinds[k].state, NULL);
      if (!g_hash_table_contains (names, var))
        continue;
      g_autoptr (HydComponentParams) params = hyd_circuit_component_get_params (comp, NULL, NULL);
      double full = params ? hyd_component_params_get (params, kinds[k].param) : NAN;
      if (!(isfinite (full) && full > 0))
        continue;
      return row_new (comp->id, var, comp->id, kinds[k].kind, full, TRUE);
    }
  return NULL;
}

/* Discrete states of the electrical control that repeat another row or keep
 * the type's own books (docs/electrical.md's table): offered, not shown by
 * default. A relay's contacts follow its coil at once; a relay contact's
 * state is its relay's; a timer's start time and a counter's last seen
 * coil state are bookkeeping. */
static const struct {
  const char *type, *state;
} not_by_default[] = {
  { "relay", "contacts" },
  { "relay_contact", "actuated" },
  { "timer_relay", "since" },
  { "counter", "seen" },
};

static gboolean
shown_by_default (const HydComponentType *type, const char *component, const char *variable)
{
  if (type->category != HYD_CATEGORY_ELECTRICAL)
    return FALSE;
  const char *state = variable + strlen (component) + 1;
  for (guint k = 0; k < G_N_ELEMENTS (not_by_default); k++)
    if (strcmp (type->id, not_by_default[k].type) == 0 && strcmp (state, not_by_default[k].state) == 0)
      return FALSE;
  return TRUE;
}

GPtrArray *
hyd_state_diagram_list_rows (const HydCircuit *circuit, const HydStateVariable *variables, guint n_variables)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_state_row_free);
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  /* component id → GPtrArray of its discrete state variables, in run order */
  g_autoptr (GHashTable) discrete = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                           (GDestroyNotify) g_ptr_array_unref);
  for (guint v = 0; v < n_variables; v++)
    {
      g_hash_table_add (names, (gpointer) variables[v].name);
      if (variables[v].discrete_of == NULL)
        continue;
      GPtrArray *list = g_hash_table_lookup (discrete, variables[v].discrete_of);
      if (list == NULL)
        {
          list = g_ptr_array_new ();
          g_hash_table_insert (discrete, (gpointer) variables[v].discrete_of, list);
        }
      g_ptr_array_add (list, (gpointer) variables[v].name);
    }
  for (guint i = 0; i < circuit->components->len; i++)
    {
      const HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      const HydComponentType *type = hyd_catalogue_lookup (comp->type);
      if (type == NULL)
        continue;
      HydStateRow *row = actuator_row (comp, type, names);
      if (row)
        g_ptr_array_add (rows, row);
      GPtrArray *list = g_hash_table_lookup (discrete, comp->id);
      for (guint k = 0; list && k < list->len; k++)
        {
          const char *var = g_ptr_array_index (list, k);
          g_ptr_array_add (rows, row_new (comp->id, var, var, HYD_STATE_ROW_SWITCH, 0,
                                          shown_by_default (type, comp->id, var)));
        }
    }
  return rows;
}

static void
add_unique (GPtrArray *chosen, const HydStateRow *row)
{
  for (guint i = 0; i < chosen->len; i++)
    if (strcmp (((HydStateRow *) g_ptr_array_index (chosen, i))->variable, row->variable) == 0)
      return;
  g_ptr_array_add (chosen, hyd_state_row_copy (row));
}

GPtrArray *
hyd_state_diagram_choose_rows (const GPtrArray *rows, const char *items, GError **error)
{
  g_autoptr (GPtrArray) chosen = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_state_row_free);
  if (items == NULL || *items == '\0')
    {
      for (guint i = 0; i < rows->len; i++)
        {
          const HydStateRow *row = g_ptr_array_index (rows, i);
          if (row->by_default)
            add_unique (chosen, row);
        }
      return g_steal_pointer (&chosen);
    }
  g_auto (GStrv) list = g_strsplit (items, ",", -1);
  for (guint k = 0; list[k]; k++)
    {
      const char *item = g_strstrip (list[k]);
      if (*item == '\0')
        continue;
      gboolean found = FALSE;
      for (guint i = 0; i < rows->len; i++)
        {
          const HydStateRow *row = g_ptr_array_index (rows, i);
          if (strcmp (row->variable, item) == 0 || strcmp (row->component, item) == 0)
            {
              add_unique (chosen, row);
              found = TRUE;
            }
        }
      if (!found)
        {
          g_autoptr (GString) there = g_string_new (NULL);
          for (guint i = 0; i < rows->len; i++)
            g_string_append_printf (there, "%s%s", i ? ", " : "",
                                    ((HydStateRow *) g_ptr_array_index (rows, i))->variable);
          g_set_error (error, HYD_STATE_DIAGRAM_ERROR, HYD_STATE_DIAGRAM_ERROR_ITEM,
                       "'%s' is neither a cylinder, a semi-rotary actuator nor a discrete state of this "
                       "circuit (its rows: %s)", item, rows->len ? there->str : "none");
          return NULL;
        }
    }
  return g_steal_pointer (&chosen);
}

/* ---- the diagram and its samples ---- */

struct _HydStateDiagram
{
  GPtrArray *rows;    /* of HydStateRow* */
  char *title;
  GArray *t;          /* of double */
  GArray **values;    /* [n_rows] of double */
  double t0, t1;      /* NaN: the samples' span */
  double cursor;
};

HydStateDiagram *
hyd_state_diagram_new (const GPtrArray *rows)
{
  HydStateDiagram *d = g_new0 (HydStateDiagram, 1);
  d->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_state_row_free);
  for (guint i = 0; rows && i < rows->len; i++)
    g_ptr_array_add (d->rows, hyd_state_row_copy (g_ptr_array_index (rows, i)));
  d->t = g_array_new (FALSE, FALSE, sizeof (double));
  d->values = g_new0 (GArray *, MAX (d->rows->len, 1));
  for (guint i = 0; i < d->rows->len; i++)
    d->values[i] = g_array_new (FALSE, FALSE, sizeof (double));
  d->t0 = d->t1 = d->cursor = NAN;
  return d;
}

void
hyd_state_diagram_free (HydStateDiagram *d)
{
  if (d == NULL)
    return;
  for (guint i = 0; i < d->rows->len; i++)
    g_array_unref (d->values[i]);
  g_free (d->values);
  g_ptr_array_unref (d->rows);
  g_array_unref (d->t);
  g_free (d->title);
  g_free (d);
}

guint
hyd_state_diagram_get_n_rows (const HydStateDiagram *d)
{
  return d->rows->len;
}

const HydStateRow *
hyd_state_diagram_get_row (const HydStateDiagram *d, guint row)
{
  g_return_val_if_fail (row < d->rows->len, NULL);
  return g_ptr_array_index (d->rows, row);
}

void
hyd_state_diagram_set_title (HydStateDiagram *d, const char *title)
{
  g_free (d->title);
  d->title = title && *title ? g_strdup (title) : NULL;
}

void
hyd_state_diagram_append (HydStateDiagram *d, double t, const double *values)
{
  g_array_append_val (d->t, t);
  for (guint i = 0; i < d->rows->len; i++)
    g_array_append_val (d->values[i], values[i]);
}

void
hyd_state_diagram_clear (HydStateDiagram *d)
{
  g_array_set_size (d->t, 0);
  for (guint i = 0; i < d->rows->len; i++)
    g_array_set_size (d->values[i], 0);
}

guint
hyd_state_diagram_get_n_samples (const HydStateDiagram *d)
{
  return d->t->len;
}

void
hyd_state_diagram_set_time_range (HydStateDiagram *d, double t0, double t1)
{
  d->t0 = t0;
  d->t1 = t1;
}

void
hyd_state_diagram_set_cursor (HydStateDiagram *d, double t)
{
  d->cursor = t;
}

/* A value that differs from the one before: a switching edge. NaN (a
 * failed evaluation) never counts as a state of its own. */
static gboolean
differs (double a, double b)
{
  return !isnan (a) && !isnan (b) && a != b;
}

guint
hyd_state_diagram_get_edges (const HydStateDiagram *d, guint row, double **times, double **values)
{
  g_return_val_if_fail (row < d->rows->len, 0);
  GArray *tt = g_array_new (FALSE, FALSE, sizeof (double));
  GArray *vv = g_array_new (FALSE, FALSE, sizeof (double));
  const double *t = (const double *) d->t->data, *v = (const double *) d->values[row]->data;
  for (guint k = 1; k < d->t->len; k++)
    if (differs (v[k - 1], v[k]))
      {
        g_array_append_val (tt, t[k]);
        g_array_append_val (vv, v[k]);
      }
  guint n = tt->len;
  if (times)
    *times = (double *) g_array_free (tt, FALSE);
  else
    g_array_free (tt, TRUE);
  if (values)
    *values = (double *) g_array_free (vv, FALSE);
  else
    g_array_free (vv, TRUE);
  return n;
}

/* ---- layout ---- */

#define MARGIN 12.0
#define TITLE_H 22.0
#define AXIS_H 30.0
#define ACTUATOR_H 56.0
#define SWITCH_H 24.0
#define GAP 4.0
#define FONT_LABEL 11.0
#define FONT_TICK 9.0

static double
row_height (const HydStateRow *row)
{
  return row->kind == HYD_STATE_ROW_SWITCH ? SWITCH_H : ACTUATOR_H;
}

double
hyd_state_diagram_height_at_scale (const HydStateDiagram *d, double row_scale)
{
  double h = 2 * MARGIN + AXIS_H + (d->title ? TITLE_H : 0);
  for (guint i = 0; i < d->rows->len; i++)
    h += row_height (g_ptr_array_index (d->rows, i)) * row_scale + GAP;
  return h;
}

double
hyd_state_diagram_natural_height (const HydStateDiagram *d)
{
  return hyd_state_diagram_height_at_scale (d, 1);
}

/* A switch row whose values are all 0 or 1 draws bars; one with other
 * values (a counter's count) draws a stepped level with its values. */
static gboolean
row_is_binary (const HydStateDiagram *d, guint row)
{
  const double *v = (const double *) d->values[row]->data;
  for (guint k = 0; k < d->values[row]->len; k++)
    if (!(v[k] == 0 || v[k] == 1 || isnan (v[k])))
      return FALSE;
  return TRUE;
}

static void
time_span (const HydStateDiagram *d, double *t0, double *t1)
{
  double a = d->t0, b = d->t1;
  if (isnan (a))
    a = d->t->len ? g_array_index (d->t, double, 0) : 0;
  if (isnan (b))
    b = d->t->len ? g_array_index (d->t, double, d->t->len - 1) : 1;
  if (!(b > a))
    b = a + 1;
  *t0 = a;
  *t1 = b;
}

/* A round tick step (1, 2 or 5 × 10^k) giving about `n` ticks over span. */
static double
tick_step (double span, double n)
{
  double raw = span / MAX (n, 1), mag = pow (10, floor (log10 (raw)));
  double f = raw / mag;
  return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

static char *
format_tick (double v, double step)
{
  int digits = step >= 1 ? 0 : (int) ceil (-log10 (step) - 1e-9);
  return g_strdup_printf ("%.*f", MIN (digits, 9), fabs (v) < step * 1e-9 ? 0.0 : v);
}

static double
text_width (cairo_t *cr, const char *text)
{
  cairo_text_extents_t e;
  cairo_text_extents (cr, text, &e);
  return e.x_advance;
}

/* "300 mm" or "90°": the full travel of an actuator row. */
static char *
full_label (const HydStateRow *row)
{
  if (row->kind == HYD_STATE_ROW_SWIVEL)
    return g_strdup_printf ("%.4g°", row->full * 180 / G_PI);
  return g_strdup_printf ("%.4g mm", row->full * 1e3);
}

static char *
format_level (double v)
{
  return g_strdup_printf ("%.6g", v);
}

/* The polyline of an actuator row, at most about four points per pixel
 * column: per column the first, lowest, highest and last sample. */
static void
draw_actuator_trace (const HydStateDiagram *d, guint row, cairo_t *cr, double x0, double x1, double t0, double t1,
                     double y_zero, double y_full)
{
  const HydStateRow *r = g_ptr_array_index (d->rows, row);
  const double *t = (const double *) d->t->data, *v = (const double *) d->values[row]->data;
  guint n = d->t->len;
  double sx = (x1 - x0) / (t1 - t0);
  gboolean pen = FALSE;
  long column = G_MINLONG;
  double lo = 0, hi = 0, last = 0, first = 0;
  for (guint k = 0; k <= n; k++)
    {
      double f = k < n ? v[k] / r->full : NAN;
      long c = k < n ? lround ((t[k] - t0) * sx) : G_MAXLONG;
      if (k < n && !isnan (f))
        f = CLAMP (f, -0.05, 1.05);
      if (k == n || c != column || isnan (f))
        {
          if (column != G_MINLONG)
            {
              /* flush the column: first, extremes in time order, last */
              double x = x0 + (double) column;
              double ys[4] = { first, lo, hi, last };
              for (guint j = 0; j < 4; j++)
                {
                  double y = y_zero + ys[j] * (y_full - y_zero);
                  if (pen)
                    cairo_line_to (cr, x, y);
                  else
                    cairo_move_to (cr, x, y);
                  pen = TRUE;
                }
            }
          column = G_MINLONG;
          if (k == n)
            break;
          if (isnan (f))
            {
              pen = FALSE;
              continue;
            }
          column = c;
          first = lo = hi = last = f;
          continue;
        }
      lo = MIN (lo, f);
      hi = MAX (hi, f);
      last = f;
    }
  cairo_stroke (cr);
}

void
hyd_state_diagram_draw (const HydStateDiagram *d, cairo_t *cr, double width, double height)
{
  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);

  double t0, t1;
  time_span (d, &t0, &t1);

  /* the label column: the longest label, and the travel labels beside it */
  cairo_set_font_size (cr, FONT_LABEL);
  double label_w = 40;
  for (guint i = 0; i < d->rows->len; i++)
    label_w = MAX (label_w, text_width (cr, ((HydStateRow *) g_ptr_array_index (d->rows, i))->label));
  cairo_set_font_size (cr, FONT_TICK);
  double scale_w = text_width (cr, "0");
  for (guint i = 0; i < d->rows->len; i++)
    {
      const HydStateRow *r = g_ptr_array_index (d->rows, i);
      if (r->kind != HYD_STATE_ROW_SWITCH)
        {
          g_autofree char *s = full_label (r);
          scale_w = MAX (scale_w, text_width (cr, s));
        }
    }
  double x0 = MARGIN + label_w + 10 + scale_w + 6, x1 = width - MARGIN - 8;
  if (x1 < x0 + 20)
    x1 = x0 + 20;

  double top = MARGIN;
  if (d->title)
    {
      cairo_set_font_size (cr, FONT_LABEL + 1);
      cairo_set_source_rgb (cr, 0, 0, 0);
      cairo_move_to (cr, MARGIN, top + FONT_LABEL + 2);
      cairo_show_text (cr, d->title);
      top += TITLE_H;
    }
  /* the rows share what the height leaves them in their natural proportion */
  double natural = hyd_state_diagram_natural_height (d);
  double fixed = 2 * MARGIN + AXIS_H + (d->title ? TITLE_H : 0) + GAP * d->rows->len;
  double scale = natural > fixed ? MAX (0.3, (height - fixed) / (natural - fixed)) : 1;
  double bottom = top;
  for (guint i = 0; i < d->rows->len; i++)
    bottom += row_height (g_ptr_array_index (d->rows, i)) * scale + GAP;

  /* time grid and axis */
  double sx = (x1 - x0) / (t1 - t0);
  double step = tick_step (t1 - t0, (x1 - x0) / 70);
  cairo_set_line_width (cr, 0.5);
  cairo_set_font_size (cr, FONT_TICK);
  for (double tk = ceil (t0 / step - 1e-9) * step; tk <= t1 + step * 1e-9; tk += step)
    {
      double x = x0 + (tk - t0) * sx;
      cairo_set_source_rgb (cr, 0.85, 0.85, 0.85);
      cairo_move_to (cr, x, top);
      cairo_line_to (cr, x, bottom);
      cairo_stroke (cr);
      cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
      cairo_move_to (cr, x, bottom);
      cairo_line_to (cr, x, bottom + 4);
      cairo_stroke (cr);
      g_autofree char *s = format_tick (tk, step);
      cairo_move_to (cr, x - text_width (cr, s) / 2, bottom + 5 + FONT_TICK);
      cairo_show_text (cr, s);
    }
  cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
  cairo_move_to (cr, x0, bottom);
  cairo_line_to (cr, x1, bottom);
  cairo_stroke (cr);
  cairo_move_to (cr, x1 - text_width (cr, "t [s]"), bottom + 5 + 2 * FONT_TICK + 3);
  cairo_show_text (cr, "t [s]");

  /* rows */
  double y = top;
  for (guint i = 0; i < d->rows->len; i++)
    {
      const HydStateRow *r = g_ptr_array_index (d->rows, i);
      double h = row_height (r) * scale;
      /* the band inside the row, inset in proportion (a squeezed row keeps
       * most of its height for the bar or the trace) */
      double inset = MIN (4, h * 0.15);
      double band_top = y + inset, band_bottom = y + h - inset;
      /* label, centred on the row */
      cairo_set_font_size (cr, FONT_LABEL);
      cairo_set_source_rgb (cr, 0, 0, 0);
      cairo_move_to (cr, MARGIN, y + h / 2 + FONT_LABEL * 0.35);
      cairo_show_text (cr, r->label);
      /* the row's frame: a light band and its baseline */
      cairo_set_source_rgb (cr, 0.96, 0.96, 0.96);
      cairo_rectangle (cr, x0, band_top, x1 - x0, band_bottom - band_top);
      cairo_fill (cr);
      cairo_set_line_width (cr, 0.6);
      cairo_set_source_rgb (cr, 0.6, 0.6, 0.6);
      cairo_move_to (cr, x0, band_bottom);
      cairo_line_to (cr, x1, band_bottom);
      cairo_stroke (cr);
      cairo_save (cr);
      cairo_rectangle (cr, x0, y, x1 - x0, h);
      cairo_clip (cr);
      if (r->kind != HYD_STATE_ROW_SWITCH)
        {
          /* 0 and the full travel, with their labels */
          cairo_set_source_rgb (cr, 0.6, 0.6, 0.6);
          cairo_move_to (cr, x0, band_top);
          cairo_line_to (cr, x1, band_top);
          cairo_stroke (cr);
          cairo_set_source_rgb (cr, 0.0, 0.25, 0.6);
          cairo_set_line_width (cr, 1.6);
          cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
          draw_actuator_trace (d, i, cr, x0, x1, t0, t1, band_bottom, band_top);
        }
      else
        {
          const double *t = (const double *) d->t->data, *v = (const double *) d->values[i]->data;
          guint n = d->t->len;
          gboolean binary = row_is_binary (d, i);
          double vmax = 1, vmin = 0;
          for (guint k = 0; !binary && k < n; k++)
            if (!isnan (v[k]))
              vmax = MAX (vmax, v[k]), vmin = MIN (vmin, v[k]);
          /* each run of equal values from the first sample showing it to the
           * first showing the next: a bar where on */
          guint k = 0;
          while (k < n)
            {
              guint j = k + 1;
              while (j < n && !differs (v[k], v[j]))
                j++;
              double ta = t[k], tb = j < n ? t[j] : t[n - 1];
              double xa = x0 + (ta - t0) * sx, xb = x0 + (tb - t0) * sx;
              if (binary && v[k] != 0 && !isnan (v[k]))
                {
                  cairo_set_source_rgb (cr, 0.85, 0.45, 0.1);
                  cairo_rectangle (cr, xa, band_top + inset / 2, MAX (xb - xa, 0.75), band_bottom - band_top - inset / 2);
                  cairo_fill (cr);
                }
              else if (!binary && !isnan (v[k]))
                {
                  double yl = band_bottom - (v[k] - vmin) / (vmax - vmin) * (band_bottom - band_top - inset / 2);
                  cairo_set_source_rgba (cr, 0.85, 0.45, 0.1, 0.35);
                  cairo_rectangle (cr, xa, yl, MAX (xb - xa, 0.75), band_bottom - yl);
                  cairo_fill (cr);
                  g_autofree char *s = format_level (v[k]);
                  cairo_set_font_size (cr, FONT_TICK);
                  if (text_width (cr, s) + 4 < xb - xa)
                    {
                      cairo_set_source_rgb (cr, 0, 0, 0);
                      cairo_move_to (cr, xa + 2, band_bottom - 2);
                      cairo_show_text (cr, s);
                    }
                }
              k = j;
            }
        }
      cairo_restore (cr);
      if (r->kind != HYD_STATE_ROW_SWITCH)
        {
          cairo_set_font_size (cr, FONT_TICK);
          cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
          g_autofree char *s = full_label (r);
          cairo_move_to (cr, x0 - 4 - text_width (cr, s), band_top + FONT_TICK * 0.75);
          cairo_show_text (cr, s);
          cairo_move_to (cr, x0 - 4 - text_width (cr, "0"), band_bottom);
          cairo_show_text (cr, "0");
        }
      y += h + GAP;
    }

  if (isfinite (d->cursor) && d->cursor >= t0 && d->cursor <= t1)
    {
      double x = x0 + (d->cursor - t0) * sx;
      cairo_set_source_rgb (cr, 0.8, 0.0, 0.0);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, x, top);
      cairo_line_to (cr, x, bottom);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

/* ---- CSV ---- */

/* as `bramah-cli simulate` writes them: shortest round trip (hyd-dtoa.h) */
static void
append_number (GString *out, double v)
{
  char buf[HYD_DTOA_BUF_SIZE];
  g_string_append_len (out, buf, hyd_dtoa_shortest (v, buf));
}

void
hyd_state_diagram_csv_header (const HydStateDiagram *d, GString *out)
{
  g_string_append (out, "t");
  for (guint i = 0; i < d->rows->len; i++)
    {
      const HydStateRow *r = g_ptr_array_index (d->rows, i);
      g_string_append_printf (out, ",%s", r->variable);
      if (r->kind == HYD_STATE_ROW_STROKE)
        g_string_append_printf (out, ",%s/stroke", r->variable);
      else if (r->kind == HYD_STATE_ROW_SWIVEL)
        g_string_append_printf (out, ",%s/swivel_angle", r->variable);
    }
  g_string_append_c (out, '\n');
}

void
hyd_state_diagram_csv_line (const HydStateDiagram *d, double t, const double *values, GString *out)
{
  append_number (out, t);
  for (guint i = 0; i < d->rows->len; i++)
    {
      const HydStateRow *r = g_ptr_array_index (d->rows, i);
      g_string_append_c (out, ',');
      append_number (out, values[i]);
      if (r->kind != HYD_STATE_ROW_SWITCH)
        {
          g_string_append_c (out, ',');
          append_number (out, values[i] / r->full);
        }
    }
  g_string_append_c (out, '\n');
}

/* ---- export ---- */

static cairo_status_t
append_to_string (void *closure, const unsigned char *data, unsigned int length)
{
  g_string_append_len (closure, (const char *) data, length);
  return CAIRO_STATUS_SUCCESS;
}

/* "C1 (stroke 300 mm), K1.energised, ..." */
static char *
describe_rows (const HydStateDiagram *d)
{
  GString *s = g_string_new ("Displacement-step diagram; rows: ");
  for (guint i = 0; i < d->rows->len; i++)
    {
      const HydStateRow *r = g_ptr_array_index (d->rows, i);
      g_string_append_printf (s, "%s%s", i ? ", " : "", r->label);
      if (r->kind != HYD_STATE_ROW_SWITCH)
        {
          g_autofree char *full = full_label (r);
          g_string_append_printf (s, " (%s %s)", r->kind == HYD_STATE_ROW_STROKE ? "stroke" : "swivel angle", full);
        }
    }
  if (d->rows->len == 0)
    g_string_append (s, "none");
  return g_string_free (s, FALSE);
}

/* Written as a circuit is saved (hyd_file_replace_contents): a reader never
 * sees a part of the file, and a failed export keeps the old one. */
static gboolean
write_file (const char *path, const char *data, gsize length, GError **error)
{
  g_autoptr (GError) inner = NULL;
  if (!hyd_file_replace_contents (path, data, length, 0, &inner))
    {
      int e = errno;
      g_set_error (error, HYD_STATE_DIAGRAM_ERROR, HYD_STATE_DIAGRAM_ERROR_EXPORT, "%s: %s%s", path,
                   g_strerror (e), e == ENOSPC ? " (disk full)" : "");
      return FALSE;
    }
  return TRUE;
}

static void
append_escaped (GString *out, const char *text)
{
  g_autofree char *esc = g_markup_escape_text (text, -1);
  g_string_append (out, esc);
}

gboolean
hyd_state_diagram_export_format (const HydStateDiagram *d, const char *path, const char *format, double width,
                                 double height, GError **error)
{
  if (g_strcmp0 (format, "csv") == 0)
    {
      g_autoptr (GString) out = g_string_new (NULL);
      hyd_state_diagram_csv_header (d, out);
      g_autofree double *row = g_new0 (double, MAX (d->rows->len, 1));
      for (guint k = 0; k < d->t->len; k++)
        {
          for (guint i = 0; i < d->rows->len; i++)
            row[i] = g_array_index (d->values[i], double, k);
          hyd_state_diagram_csv_line (d, g_array_index (d->t, double, k), row, out);
        }
      return write_file (path, out->str, out->len, error);
    }
  gboolean svg = g_strcmp0 (format, "svg") == 0, pdf = g_strcmp0 (format, "pdf") == 0;
  gboolean png = g_strcmp0 (format, "png") == 0;
  if (!svg && !pdf && !png)
    {
      g_set_error (error, HYD_STATE_DIAGRAM_ERROR, HYD_STATE_DIAGRAM_ERROR_EXPORT,
                   "%s: the file name must end in .csv, .svg, .pdf or .png", path);
      return FALSE;
    }
  if (!(width >= 100 && width <= 20000))
    {
      g_set_error (error, HYD_STATE_DIAGRAM_ERROR, HYD_STATE_DIAGRAM_ERROR_EXPORT,
                   "%s: the width must lie in [100, 20000], not %g", path, width);
      return FALSE;
    }
  if (height <= 0)
    height = hyd_state_diagram_natural_height (d);
  height = ceil (MIN (height, 20000));
  width = ceil (width);

  g_autoptr (GString) buffer = g_string_new (NULL);
  cairo_surface_t *surface;
  if (svg)
    surface = cairo_svg_surface_create_for_stream (append_to_string, buffer, width, height);
  else if (pdf)
    {
      surface = cairo_pdf_surface_create_for_stream (append_to_string, buffer, width, height);
      g_autofree char *desc = describe_rows (d);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, d->title ? d->title : "State diagram");
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_SUBJECT, desc);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Bramah");
    }
  else
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
  cairo_t *cr = cairo_create (surface);
  hyd_state_diagram_draw (d, cr, width, height);
  cairo_status_t status = cairo_status (cr);
  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS)
    {
      if (png)
        status = cairo_surface_write_to_png_stream (surface, append_to_string, buffer);
      else
        {
          cairo_surface_finish (surface);
          status = cairo_surface_status (surface);
        }
    }
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, HYD_STATE_DIAGRAM_ERROR, HYD_STATE_DIAGRAM_ERROR_EXPORT, "%s: %s", path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  if (png)
    return write_file (path, buffer->str, buffer->len, error);
  if (svg)
    {
      /* Cairo draws text as glyph outlines: name the diagram and its rows in
       * words too, after the <svg> tag, for readers and searches */
      const char *open = strstr (buffer->str, "<svg");
      const char *end = open ? strchr (open, '>') : NULL;
      if (end)
        {
          g_autoptr (GString) meta = g_string_new ("\n<title>");
          append_escaped (meta, d->title ? d->title : "State diagram");
          g_string_append (meta, "</title>\n<desc>");
          g_autofree char *desc = describe_rows (d);
          append_escaped (meta, desc);
          g_string_append (meta, "</desc>");
          g_string_insert (buffer, end + 1 - buffer->str, meta->str);
        }
    }
  return write_file (path, buffer->str, buffer->len, error);
}

gboolean
hyd_state_diagram_export (const HydStateDiagram *d, const char *path, double width, double height, GError **error)
{
  const char *dot = strrchr (path, '.');
  g_autofree char *format = g_ascii_strdown (dot ? dot + 1 : "", -1);
  return hyd_state_diagram_export_format (d, path, format, width, height, error);
}
