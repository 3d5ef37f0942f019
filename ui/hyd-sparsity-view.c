/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-sparsity-view.c — the "Jacobian Sparsity" window: the structural
 * non-zeros of the analytic Jacobian at a moment of a run, drawn with Cairo
 * (only the part in view; a pixel shows the largest entry under it when
 * entries are smaller than two pixels), states grouped by component, linked
 * both ways with the schematic (docs/analysis.md). */
#include "hyd-sparsity-view.h"

#include <glib/gi18n.h>
#include <klu.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hyd-eigen.h"
#include "hyd-help-text.h"
#include "hyd-linearize.h"
#include "hyd-system.h"

#define MARGIN_LEFT 150.0   /* px: the row labels */
#define MARGIN_TOP 110.0    /* px: the column labels */
#define LABEL_MIN_CELL 8.0  /* px: state names from this entry size on */
#define MAX_CELL 48.0
#define AGGREGATE_BELOW 2.0 /* px: entries smaller than this are drawn per pixel */
#define MIN_GROUP_SPAN 6.0  /* px: average group height below which no separators */
#define MIN_NAMED_GROUP 14.0 /* px: average group height from which groups are named */
#define COLOUR_DECADES 12.0 /* the colour scale's largest span */

/* What the worker computes. Positions are those of the drawing (grouped by
 * component); states are the engine's indices. */
typedef struct {
  double t;
  guint n, nnz;
  GPtrArray *names;       /* of char*, per state */
  GPtrArray *comps;       /* of GPtrArray* of char*, per state */
  guint *perm;            /* [n] position → state */
  guint *pos;             /* [n] state → position */
  guint *colptr;          /* [n + 1] compressed columns by position */
  guint *rowind;          /* [nnz] positions, ascending in each column */
  double *value;          /* [nnz] J_ij */
  double *lraw;           /* [nnz] log10 |J_ij|, NAN when 0 */
  double *lscaled;        /* [nnz] log10 |J_ij·atol_j/atol_i|, NAN when 0 */
  double *atol;           /* [n] per state */
  GArray *group_start;    /* of guint: first position of each group, then n */
  GPtrArray *group_name;  /* of char* */
  guint lower, upper;     /* bandwidth in the engine's order */
  guint dlower, dupper;   /* and as drawn */
  guint a_nnz;            /* non-zeros of shift·I − J (J's and the diagonal) */
  long lu_nnz;            /* KLU: L + U + off-diagonal blocks; −1 unknown */
} SparsityData;

static void
sparsity_data_free (SparsityData *d)
{
  g_clear_pointer (&d->names, g_ptr_array_unref);
  g_clear_pointer (&d->comps, g_ptr_array_unref);
  g_free (d->perm);
  g_free (d->pos);
  g_free (d->colptr);
  g_free (d->rowind);
  g_free (d->value);
  g_free (d->lraw);
  g_free (d->lscaled);
  g_free (d->atol);
  g_clear_pointer (&d->group_start, g_array_unref);
  g_clear_pointer (&d->group_name, g_ptr_array_unref);
  g_free (d);
}

struct _HydSparsityView
{
  GtkWindow parent_instance;
  HydCircuit *circuit;
  double t;
  HydCanvas *canvas;          /* weak */
  GCancellable *cancellable;
  SparsityData *data;
  char *error;
  char *summary;
  gboolean scaled;
  double lmin, lmax;          /* the colour scale, decades */
  double lmin_data;           /* the smallest entry's decade */
  double cell;                /* px per entry */
  gboolean fit;
  double pointer_x, pointer_y; /* the last pointer position over the matrix */
  int hover_row, hover_col;   /* states, −1 */
  char *hover_text;
  gboolean *marked;           /* [n] per state */
  gboolean lit;               /* we set the canvas's highlight */
  guint n_draws;

  GtkLabel *title;
  GtkLabel *summary_label;
  GtkLabel *status;
  GtkDrawingArea *area;
  GtkAdjustment *hadj, *vadj;
  GtkCheckButton *scale_check;
  GtkLabel *help_label;
};

G_DEFINE_FINAL_TYPE (HydSparsityView, hyd_sparsity_view, GTK_TYPE_WINDOW)

enum { SIGNAL_READY, N_SIGNALS };
static guint signals[N_SIGNALS];

/* ---- the worker ---- */

typedef struct {
  guint owner;   /* the group's component, by its place in the circuit */
  guint state;
} OrderKey;

static int
compare_order (const void *a, const void *b)
{
  const OrderKey *x = a, *y = b;
  if (x->owner != y->owner)
    return x->owner < y->owner ? -1 : 1;
  return (x->state > y->state) - (x->state < y->state);
}

typedef struct {
  guint row;
  double v;
} Entry;

static int
compare_entries (const void *a, const void *b)
{
  const Entry *x = a, *y = b;
  return (x->row > y->row) - (x->row < y->row);
}

/* L + U of KLU's factors of shift·I − J, the iteration matrix the implicit
 * solvers factor (engine/ode/hyd-linsolver.c: KLU's defaults, AMD ordering
 * of the blocks BTF finds, pivot tolerance 0.1). The shift exceeds every
 * column's absolute sum, so every diagonal pivot is accepted and the count
 * is the ordering's own fill (the small steps of a stiff run, where
 * 1/(γh) dominates J); the entries of the off-diagonal blocks count too.
 * −1 when KLU fails. */
static long
klu_lu_nonzeros (guint n, const guint *colptr, const guint *rowind, const double *value, guint *a_nnz)
{
  g_autofree int *Ap = g_new0 (int, n + 1);
  g_autofree int *Ai = g_new0 (int, colptr[n] + n + 1);
  g_autofree double *Ax = g_new0 (double, colptr[n] + n + 1);
  double shift = 1;
  for (guint j = 0; j < n; j++)
    {
      double s = 0;
      for (guint k = colptr[j]; k < colptr[j + 1]; k++)
        s += fabs (value[k]);
      shift = MAX (shift, 2 * s + 1);
    }
  guint a = 0;
  for (guint j = 0; j < n; j++)
    {
      gboolean diag = FALSE;
      for (guint k = colptr[j]; k < colptr[j + 1]; k++)
        {
          if (!diag && rowind[k] > j)
            {
              Ai[a] = (int) j;
              Ax[a++] = shift;
              diag = TRUE;
            }
          Ai[a] = (int) rowind[k];
          Ax[a++] = (rowind[k] == j ? shift : 0) - value[k];
          diag = diag || rowind[k] == j;
        }
      if (!diag)
        {
          Ai[a] = (int) j;
          Ax[a++] = shift;
        }
      Ap[j + 1] = (int) a;
    }
  *a_nnz = a;
  klu_common common;
  klu_defaults (&common);
  common.tol = 0.1;
  klu_symbolic *symbolic = klu_analyze ((int) n, Ap, Ai, &common);
  if (symbolic == NULL)
    return -1;
  klu_numeric *numeric = klu_factor (Ap, Ai, Ax, symbolic, &common);
  long lu = -1;
  if (numeric != NULL)
    {
      /* L's unit diagonal is no entry: lnz and unz both count the diagonal */
      lu = (long) numeric->lnz + numeric->unz - (long) n + numeric->nzoff;
      klu_free_numeric (&numeric, &common);
    }
  klu_free_symbolic (&symbolic, &common);
  return lu;
}

static void
compute_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  const HydCircuit *circuit = task_data;
  HydSparsityView *self = source;
  GError *error = NULL;
  g_auto (HydSimOptions) sim = { 0 };
  g_autoptr (HydSystem) sys = NULL;
  if (!hyd_circuit_get_sim_options (circuit, &sim, &error) || (sys = hyd_system_compile (circuit, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_autoptr (HydOperatingPoint) op = hyd_operating_point_run (sys, &sim, self->t, NULL, &error);
  if (op == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;
  guint n = hyd_system_get_n_states (sys), nnz;
  const guint *colptr, *rowind;
  hyd_system_get_pattern (sys, &nnz, &colptr, &rowind);
  g_autofree double *values = g_new0 (double, nnz + 1);
  if (n > 0 && hyd_system_jacobian_sparse (sys, op->t, op->y, values, NULL) != 0)
    {
      g_task_return_new_error (task, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_NUMERIC,
                               _("the Jacobian cannot be evaluated at t = %g s (a value is not finite)"), op->t);
      return;
    }
  SparsityData *d = g_new0 (SparsityData, 1);
  d->t = op->t;
  d->n = n;
  d->nnz = nnz;
  d->names = g_ptr_array_new_with_free_func (g_free);
  d->comps = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  d->atol = g_new0 (double, n + 1);
  hyd_system_get_atol (sys, &sim, d->atol);

  /* Groups: a component's states go under it; a node's pressure under the
   * first component (in the circuit's order) with a port on the node. */
  g_autoptr (GHashTable) place = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint c = 0; c < circuit->components->len; c++)
    {
      const HydCircuitComponent *cc = g_ptr_array_index (circuit->components, c);
      g_hash_table_insert (place, cc->id, GUINT_TO_POINTER (c + 1));
    }
  g_autofree OrderKey *keys = g_new0 (OrderKey, n + 1);
  for (guint k = 0; k < n; k++)
    {
      g_ptr_array_add (d->names, g_strdup (hyd_system_get_state_name (sys, k)));
      GPtrArray *comps = hyd_system_state_components (sys, k);
      g_ptr_array_add (d->comps, comps);
      keys[k].state = k;
      keys[k].owner = G_MAXUINT;
      for (guint c = 0; c < comps->len; c++)
        {
          guint p = GPOINTER_TO_UINT (g_hash_table_lookup (place, g_ptr_array_index (comps, c)));
          if (p > 0 && p - 1 < keys[k].owner)
            keys[k].owner = p - 1;
        }
    }
  qsort (keys, n, sizeof *keys, compare_order);
  d->perm = g_new0 (guint, n + 1);
  d->pos = g_new0 (guint, n + 1);
  d->group_start = g_array_new (FALSE, FALSE, sizeof (guint));
  d->group_name = g_ptr_array_new_with_free_func (g_free);
  for (guint p = 0; p < n; p++)
    {
      d->perm[p] = keys[p].state;
      d->pos[keys[p].state] = p;
      if (p == 0 || keys[p].owner != keys[p - 1].owner)
        {
          g_array_append_val (d->group_start, p);
          const HydCircuitComponent *cc = keys[p].owner < circuit->components->len
                                            ? g_ptr_array_index (circuit->components, keys[p].owner) : NULL;
          g_ptr_array_add (d->group_name, g_strdup (cc ? cc->id : "—"));
        }
    }
  g_array_append_val (d->group_start, n);

  /* The pattern by position; the bandwidth in the engine's order. */
  d->colptr = g_new0 (guint, n + 1);
  d->rowind = g_new0 (guint, nnz + 1);
  d->value = g_new0 (double, nnz + 1);
  d->lraw = g_new0 (double, nnz + 1);
  d->lscaled = g_new0 (double, nnz + 1);
  g_autofree Entry *col = g_new0 (Entry, n + 1);
  guint a = 0;
  for (guint c = 0; c < n; c++)
    {
      guint j = d->perm[c], len = 0;
      for (guint k = colptr[j]; k < colptr[j + 1]; k++)
        {
          guint i = rowind[k];
          col[len++] = (Entry) { d->pos[i], values[k] };
          d->lower = MAX (d->lower, i > j ? i - j : 0);
          d->upper = MAX (d->upper, j > i ? j - i : 0);
        }
      qsort (col, len, sizeof *col, compare_entries);
      for (guint m = 0; m < len; m++)
        {
          guint i = d->perm[col[m].row];
          double v = col[m].v;
          d->dlower = MAX (d->dlower, col[m].row > c ? col[m].row - c : 0);
          d->dupper = MAX (d->dupper, c > col[m].row ? c - col[m].row : 0);
          d->rowind[a] = col[m].row;
          d->value[a] = v;
          d->lraw[a] = v != 0 ? log10 (fabs (v)) : NAN;
          d->lscaled[a] = v != 0 ? log10 (fabs (v) * d->atol[j] / d->atol[i]) : NAN;
          a++;
        }
      d->colptr[c + 1] = a;
    }
  if (g_task_return_error_if_cancelled (task))
    {
      sparsity_data_free (d);
      return;
    }
  d->lu_nnz = n > 0 ? klu_lu_nonzeros (n, colptr, rowind, values, &d->a_nnz) : 0;
  g_task_return_pointer (task, d, (GDestroyNotify) sparsity_data_free);
}

/* ---- geometry ---- */

static void
visible_range (HydSparsityView *self, double off, double extent, guint *lo, guint *hi)
{
  guint n = self->data->n;
  double a = floor (off / self->cell), b = ceil ((off + extent) / self->cell);
  *lo = (guint) CLAMP (a, 0, n);
  *hi = (guint) CLAMP (b, 0, n);
}

static void
update_adjustments (HydSparsityView *self)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self->area)), h = gtk_widget_get_height (GTK_WIDGET (self->area));
  double mw = MAX (w - MARGIN_LEFT, 1), mh = MAX (h - MARGIN_TOP, 1);
  guint n = self->data ? self->data->n : 0;
  if (self->fit && n > 0)
    self->cell = MIN (MAX_CELL, MIN (mw, mh) / n);
  double total = n * self->cell;
  gtk_adjustment_configure (self->hadj, CLAMP (gtk_adjustment_get_value (self->hadj), 0, MAX (total - mw, 0)), 0,
                            MAX (total, mw), 20, mw * 0.9, mw);
  gtk_adjustment_configure (self->vadj, CLAMP (gtk_adjustment_get_value (self->vadj), 0, MAX (total - mh, 0)), 0,
                            MAX (total, mh), 20, mh * 0.9, mh);
}

/* The entry of the structural pattern at position (r, c), its index, or −1. */
static int
entry_index (const SparsityData *d, guint r, guint c)
{
  guint lo = d->colptr[c], hi = d->colptr[c + 1];
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (d->rowind[mid] < r)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < d->colptr[c + 1] && d->rowind[lo] == r ? (int) lo : -1;
}

/* The first entry of column c at position ≥ r. */
static guint
first_at_or_below (const SparsityData *d, guint c, guint r)
{
  guint lo = d->colptr[c], hi = d->colptr[c + 1];
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (d->rowind[mid] < r)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* ---- colours ---- */

/* viridis (van der Walt & Smith 2015), five stops */
static void
colour_of (double u, double *r, double *g, double *b)
{
  static const double stops[5][3] = {
    { 0.267, 0.005, 0.329 }, { 0.229, 0.322, 0.546 }, { 0.128, 0.567, 0.551 },
    { 0.369, 0.789, 0.383 }, { 0.993, 0.906, 0.144 },
  };
  u = CLAMP (u, 0, 1) * 4;
  int k = MIN ((int) u, 3);
  double f = u - k;
  *r = stops[k][0] + f * (stops[k + 1][0] - stops[k][0]);
  *g = stops[k][1] + f * (stops[k + 1][1] - stops[k][1]);
  *b = stops[k][2] + f * (stops[k + 1][2] - stops[k][2]);
}

static double
scale_position (HydSparsityView *self, double l)
{
  return self->lmax > self->lmin ? (l - self->lmin) / (self->lmax - self->lmin) : 1.0;
}

static void
update_colour_range (HydSparsityView *self)
{
  const double *l = self->scaled ? self->data->lscaled : self->data->lraw;
  double lo = INFINITY, hi = -INFINITY;
  for (guint k = 0; k < self->data->nnz; k++)
    if (!isnan (l[k]))
      {
        lo = MIN (lo, l[k]);
        hi = MAX (hi, l[k]);
      }
  self->lmax = isfinite (hi) ? ceil (hi) : 1;
  self->lmin_data = isfinite (lo) ? floor (lo) : 0;
  /* a lone entry at rounding level (1e-20 beside 1e6) would squeeze every
   * other colour together: the scale spans at most COLOUR_DECADES, smaller
   * entries take its lowest colour */
  self->lmin = isfinite (lo) ? MAX (floor (lo), self->lmax - COLOUR_DECADES) : 0;
}

/* ---- drawing ---- */

static void
draw_entries (HydSparsityView *self, cairo_t *cr, double mw, double mh, double xo, double yo)
{
  const SparsityData *d = self->data;
  const double *l = self->scaled ? d->lscaled : d->lraw;
  guint c0, c1, r0, r1;
  visible_range (self, xo, mw, &c0, &c1);
  visible_range (self, yo, mh, &r0, &r1);
  double cell = self->cell;
  if (cell >= AGGREGATE_BELOW)
    {
      double gap = cell > 5 ? 1 : 0;
      for (guint c = c0; c < c1; c++)
        for (guint k = first_at_or_below (d, c, r0); k < d->colptr[c + 1] && d->rowind[k] < r1; k++)
          {
            double x = MARGIN_LEFT + c * cell - xo, y = MARGIN_TOP + d->rowind[k] * cell - yo;
            if (isnan (l[k]))
              {
                /* in the pattern, 0 here */
                cairo_set_source_rgb (cr, 0.6, 0.6, 0.6);
                cairo_set_line_width (cr, 1);
                cairo_rectangle (cr, x + gap / 2 + 0.5, y + gap / 2 + 0.5, MAX (cell - gap - 1, 0.5),
                                 MAX (cell - gap - 1, 0.5));
                cairo_stroke (cr);
                continue;
              }
            double r, g, b;
            colour_of (scale_position (self, l[k]), &r, &g, &b);
            cairo_set_source_rgb (cr, r, g, b);
            cairo_rectangle (cr, x + gap / 2, y + gap / 2, cell - gap, cell - gap);
            cairo_fill (cr);
          }
      return;
    }
  /* Smaller than two pixels: each pixel shows the largest entry under it
   * (grey: only entries that are 0 here). */
  int pw = (int) ceil (mw), ph = (int) ceil (mh);
  g_autofree float *best = g_new (float, (gsize) pw * ph);
  for (gsize k = 0; k < (gsize) pw * ph; k++)
    best[k] = NAN;
  for (guint c = c0; c < c1; c++)
    {
      int px = (int) floor (c * cell - xo);
      if (px < 0 || px >= pw)
        continue;
      for (guint k = first_at_or_below (d, c, r0); k < d->colptr[c + 1] && d->rowind[k] < r1; k++)
        {
          int py = (int) floor (d->rowind[k] * cell - yo);
          if (py < 0 || py >= ph)
            continue;
          float *b = &best[(gsize) py * pw + px];
          float v = isnan (l[k]) ? -INFINITY : (float) l[k];
          if (isnan (*b) || v > *b)
            *b = v;
        }
    }
  cairo_surface_t *img = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, pw, ph);
  if (cairo_surface_status (img) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (img);
      return;
    }
  cairo_surface_flush (img);
  unsigned char *px = cairo_image_surface_get_data (img);
  int stride = cairo_image_surface_get_stride (img);
  for (int y = 0; y < ph; y++)
    {
      guint32 *row = (guint32 *) (px + (gsize) y * stride);
      for (int x = 0; x < pw; x++)
        {
          float v = best[(gsize) y * pw + x];
          double r, g, b;
          if (isnan (v))
            {
              row[x] = 0;
              continue;
            }
          if (isinf (v))
            r = g = b = 0.6;
          else
            colour_of (scale_position (self, v), &r, &g, &b);
          row[x] = 0xff000000u | ((guint32) (r * 255) << 16) | ((guint32) (g * 255) << 8) | (guint32) (b * 255);
        }
    }
  cairo_surface_mark_dirty (img);
  cairo_set_source_surface (cr, img, MARGIN_LEFT, MARGIN_TOP);
  cairo_paint (cr);
  cairo_surface_destroy (img);
}

/* Rows and columns of the marked states (the schematic's selection) and of
 * the hovered entry, as bands. */
static void
draw_bands (HydSparsityView *self, cairo_t *cr, double mw, double mh, double xo, double yo)
{
  const SparsityData *d = self->data;
  guint r0, r1, c0, c1;
  visible_range (self, yo, mh, &r0, &r1);
  visible_range (self, xo, mw, &c0, &c1);
  double cell = MAX (self->cell, 1);
  cairo_set_source_rgba (cr, 0.95, 0.55, 0.0, 0.22);
  for (guint p = r0; p < r1; p++)
    if (self->marked[d->perm[p]])
      cairo_rectangle (cr, MARGIN_LEFT, MARGIN_TOP + p * self->cell - yo, mw, cell);
  for (guint p = c0; p < c1; p++)
    if (self->marked[d->perm[p]])
      cairo_rectangle (cr, MARGIN_LEFT + p * self->cell - xo, MARGIN_TOP, cell, mh);
  cairo_fill (cr);
  if (self->hover_row >= 0)
    {
      double y = MARGIN_TOP + d->pos[self->hover_row] * self->cell - yo;
      double x = MARGIN_LEFT + d->pos[self->hover_col] * self->cell - xo;
      cairo_set_source_rgba (cr, 0.2, 0.45, 0.95, 0.15);
      cairo_rectangle (cr, MARGIN_LEFT, y, mw, cell);
      cairo_rectangle (cr, x, MARGIN_TOP, cell, mh);
      cairo_fill (cr);
    }
}

static void
draw_hover_box (HydSparsityView *self, cairo_t *cr, double xo, double yo)
{
  if (self->hover_row < 0)
    return;
  const SparsityData *d = self->data;
  double y = MARGIN_TOP + d->pos[self->hover_row] * self->cell - yo;
  double x = MARGIN_LEFT + d->pos[self->hover_col] * self->cell - xo;
  double s = MAX (self->cell, 6);
  cairo_set_source_rgb (cr, 0.95, 0.3, 0.0);
  cairo_set_line_width (cr, 2);
  cairo_rectangle (cr, x + self->cell / 2 - s / 2 - 1, y + self->cell / 2 - s / 2 - 1, s + 2, s + 2);
  cairo_stroke (cr);
}

static void
draw_separators (HydSparsityView *self, cairo_t *cr, double mw, double mh, double xo, double yo)
{
  const SparsityData *d = self->data;
  double total = d->n * self->cell;
  cairo_set_line_width (cr, 1);
  cairo_set_source_rgba (cr, 0.3, 0.3, 0.3, 0.45);
  double last = -10;
  /* groups of a few pixels on average: lines would hide the entries */
  guint n_groups = d->group_start->len - 1;
  for (guint g = 1; g < n_groups && total >= MIN_GROUP_SPAN * n_groups; g++)
    {
      double at = g_array_index (d->group_start, guint, g) * self->cell;
      if (at - last < 3)
        continue;
      last = at;
      double x = round (MARGIN_LEFT + at - xo) + 0.5, y = round (MARGIN_TOP + at - yo) + 0.5;
      if (x > MARGIN_LEFT && x < MARGIN_LEFT + mw)
        {
          cairo_move_to (cr, x, MARGIN_TOP);
          cairo_line_to (cr, x, MARGIN_TOP + MIN (mh, total - yo));
        }
      if (y > MARGIN_TOP && y < MARGIN_TOP + mh)
        {
          cairo_move_to (cr, MARGIN_LEFT, y);
          cairo_line_to (cr, MARGIN_LEFT + MIN (mw, total - xo), y);
        }
    }
  cairo_stroke (cr);
  /* the matrix's border */
  cairo_set_source_rgba (cr, 0.3, 0.3, 0.3, 0.8);
  cairo_rectangle (cr, MARGIN_LEFT - xo + 0.5, MARGIN_TOP - yo + 0.5, total, total);
  cairo_stroke (cr);
}

/* A label ending 4 px before the matrix's edge at (x, y), centred on the
 * row; a column's reads upwards from the edge. */
static void
draw_label (cairo_t *cr, const char *text, double x, double y, gboolean column)
{
  cairo_text_extents_t ext;
  cairo_text_extents (cr, text, &ext);
  cairo_save (cr);
  cairo_translate (cr, x, y);
  if (column)
    {
      cairo_rotate (cr, -G_PI / 2);
      cairo_move_to (cr, 4, ext.height / 2 - 1);
    }
  else
    cairo_move_to (cr, -ext.x_advance - 4, ext.height / 2 - 1);
  cairo_show_text (cr, text);
  cairo_restore (cr);
}

static void
draw_labels (HydSparsityView *self, cairo_t *cr, double mw, double mh, double xo, double yo, const GdkRGBA *fg)
{
  const SparsityData *d = self->data;
  guint r0, r1, c0, c1;
  visible_range (self, yo, mh, &r0, &r1);
  visible_range (self, xo, mw, &c0, &c1);
  for (int column = 0; column <= 1; column++)
    {
      cairo_save (cr);
      if (column)
        cairo_rectangle (cr, MARGIN_LEFT, 0, mw, MARGIN_TOP);
      else
        cairo_rectangle (cr, 0, MARGIN_TOP, MARGIN_LEFT, mh);
      cairo_clip (cr);
      double off = column ? xo : yo;
      guint lo = column ? c0 : r0, hi = column ? c1 : r1;
      if (self->cell >= LABEL_MIN_CELL)
        {
          cairo_set_font_size (cr, MIN (11, self->cell - 1));
          for (guint p = lo; p < hi; p++)
            {
              guint k = d->perm[p];
              gboolean hot = self->marked[k] || (int) k == (column ? self->hover_col : self->hover_row);
              if (hot)
                cairo_set_source_rgb (cr, 0.85, 0.4, 0.0);
              else
                cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.9);
              double at = (column ? MARGIN_LEFT : MARGIN_TOP) + (p + 0.5) * self->cell - off;
              draw_label (cr, g_ptr_array_index (d->names, k), column ? at : MARGIN_LEFT, column ? MARGIN_TOP : at,
                          column);
            }
        }
      else if (d->n * self->cell < MIN_NAMED_GROUP * (d->group_start->len - 1))
        {
          /* too small for names: positions at round steps, 40 px apart or more */
          cairo_set_font_size (cr, 10);
          cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.9);
          double step = pow (10, floor (log10 (40 / self->cell)));
          if (step * self->cell < 20)
            step *= 5;
          else if (step * self->cell < 40)
            step *= 2;
          step = MAX (step, 1);
          for (double p = ceil (lo / step) * step; p < hi; p += step)
            {
              char num[16];
              g_snprintf (num, sizeof num, "%.0f", p);
              double at = (column ? MARGIN_LEFT : MARGIN_TOP) + (p + 0.5) * self->cell - off;
              draw_label (cr, num, column ? at : MARGIN_LEFT, column ? MARGIN_TOP : at, column);
            }
        }
      else
        {
          /* too small for names: the components of the groups tall enough */
          cairo_set_font_size (cr, 10);
          cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.9);
          for (guint g = 0; g + 1 < d->group_start->len; g++)
            {
              guint s = g_array_index (d->group_start, guint, g), e = g_array_index (d->group_start, guint, g + 1);
              if (e <= lo || s >= hi || (e - s) * self->cell < 12)
                continue;
              double at = (column ? MARGIN_LEFT : MARGIN_TOP) + (s + e) / 2.0 * self->cell - off;
              draw_label (cr, g_ptr_array_index (d->group_name, g), column ? at : MARGIN_LEFT,
                          column ? MARGIN_TOP : at, column);
            }
        }
      cairo_restore (cr);
    }
}

/* The colour scale in the corner above the row labels. */
static void
draw_legend (HydSparsityView *self, cairo_t *cr, const GdkRGBA *fg)
{
  const double x = 10, y = 12, w = 110, h = 10;
  for (int k = 0; k < (int) w; k++)
    {
      double r, g, b;
      colour_of (k / (w - 1), &r, &g, &b);
      cairo_set_source_rgb (cr, r, g, b);
      cairo_rectangle (cr, x + k, y, 1, h);
      cairo_fill (cr);
    }
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.9);
  cairo_set_font_size (cr, 10);
  char label[32];
  g_snprintf (label, sizeof label, "%s1e%.0f", self->lmin > self->lmin_data ? "≤" : "", self->lmin);
  cairo_move_to (cr, x, y + h + 12);
  cairo_show_text (cr, label);
  g_snprintf (label, sizeof label, "1e%.0f", self->lmax);
  cairo_text_extents_t ext;
  cairo_text_extents (cr, label, &ext);
  cairo_move_to (cr, x + w - ext.x_advance, y + h + 12);
  cairo_show_text (cr, label);
  cairo_move_to (cr, x, y + h + 26);
  cairo_show_text (cr, self->scaled ? _("|J_ij|·atol_j/atol_i (1/s)") : _("|J_ij| (SI units)"));
  cairo_set_source_rgb (cr, 0.6, 0.6, 0.6);
  cairo_rectangle (cr, x + 0.5, y + h + 34.5, 7, 7);
  cairo_stroke (cr);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.9);
  cairo_move_to (cr, x + 12, y + h + 42);
  cairo_show_text (cr, _("0 here"));
}

static void
draw_area (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user)
{
  HydSparsityView *self = user;
  GdkRGBA fg;
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  if (self->data == NULL || self->data->n == 0)
    return;
  self->n_draws++;
  double mw = MAX (width - MARGIN_LEFT, 1), mh = MAX (height - MARGIN_TOP, 1);
  double xo = gtk_adjustment_get_value (self->hadj), yo = gtk_adjustment_get_value (self->vadj);
  double total = self->data->n * self->cell;
  cairo_save (cr);
  /* the part of the matrix in view, its border included */
  cairo_rectangle (cr, MARGIN_LEFT, MARGIN_TOP, MIN (mw, total - xo + 1), MIN (mh, total - yo + 1));
  cairo_clip (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  draw_bands (self, cr, mw, mh, xo, yo);
  draw_entries (self, cr, mw, mh, xo, yo);
  draw_separators (self, cr, mw, mh, xo, yo);
  draw_hover_box (self, cr, xo, yo);
  cairo_restore (cr);
  draw_labels (self, cr, mw, mh, xo, yo, &fg);
  draw_legend (self, cr, &fg);
}

/* ---- interaction ---- */

/* The entry under widget point (x, y): states, FALSE when none. */
static gboolean
entry_at (HydSparsityView *self, double x, double y, int *row, int *col)
{
  if (self->data == NULL || x < MARGIN_LEFT || y < MARGIN_TOP)
    return FALSE;
  double c = floor ((x - MARGIN_LEFT + gtk_adjustment_get_value (self->hadj)) / self->cell);
  double r = floor ((y - MARGIN_TOP + gtk_adjustment_get_value (self->vadj)) / self->cell);
  if (c < 0 || r < 0 || c >= self->data->n || r >= self->data->n)
    return FALSE;
  if (entry_index (self->data, (guint) r, (guint) c) < 0)
    return FALSE;
  *row = (int) self->data->perm[(guint) r];
  *col = (int) self->data->perm[(guint) c];
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *c, double x, double y, gpointer user)
{
  HydSparsityView *self = user;
  int row = -1, col = -1;
  self->pointer_x = x;
  self->pointer_y = y;
  if (!entry_at (self, x, y, &row, &col))
    row = -1;
  if (row != self->hover_row || col != self->hover_col)
    hyd_sparsity_view_hover_entry (self, row, col);
}

static void
leave_cb (GtkEventControllerMotion *c, gpointer user)
{
  hyd_sparsity_view_hover_entry (user, -1, -1);
}

static gboolean
query_tooltip_cb (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, gpointer user)
{
  HydSparsityView *self = user;
  int row, col;
  if (keyboard || !entry_at (self, x, y, &row, &col))
    return FALSE;
  if (row != self->hover_row || col != self->hover_col)
    hyd_sparsity_view_hover_entry (self, row, col);
  if (self->hover_text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, self->hover_text);
  return TRUE;
}

/* Zoom by factor about widget point (x, y) of the matrix. */
static void
zoom_about (HydSparsityView *self, double factor, double x, double y)
{
  if (self->data == NULL || self->data->n == 0)
    return;
  double old = self->cell;
  int w = gtk_widget_get_width (GTK_WIDGET (self->area)), h = gtk_widget_get_height (GTK_WIDGET (self->area));
  double fit = MIN (MAX_CELL, MIN (MAX (w - MARGIN_LEFT, 1), MAX (h - MARGIN_TOP, 1)) / self->data->n);
  double cell = CLAMP (old * factor, MIN (fit, MAX_CELL), MAX_CELL);
  double ux = MAX (x - MARGIN_LEFT, 0), uy = MAX (y - MARGIN_TOP, 0);
  double px = (gtk_adjustment_get_value (self->hadj) + ux) / old;
  double py = (gtk_adjustment_get_value (self->vadj) + uy) / old;
  self->fit = cell <= fit;
  self->cell = cell;
  update_adjustments (self);
  gtk_adjustment_set_value (self->hadj, px * cell - ux);
  gtk_adjustment_set_value (self->vadj, py * cell - uy);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

static gboolean
scroll_cb (GtkEventControllerScroll *c, double dx, double dy, gpointer user)
{
  HydSparsityView *self = user;
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (c));
  gboolean discrete = gtk_event_controller_scroll_get_unit (c) == GDK_SCROLL_UNIT_WHEEL;
  if (mods & GDK_CONTROL_MASK)
    {
      zoom_about (self, dy < 0 ? 1.25 : 0.8, self->pointer_x, self->pointer_y);
      return TRUE;
    }
  double step = discrete ? 48 : 1;
  if (mods & GDK_SHIFT_MASK)
    {
      dx = dy;
      dy = 0;
    }
  gtk_adjustment_set_value (self->hadj, gtk_adjustment_get_value (self->hadj) + dx * step);
  gtk_adjustment_set_value (self->vadj, gtk_adjustment_get_value (self->vadj) + dy * step);
  return TRUE;
}

static void
adjustment_changed_cb (GtkAdjustment *adj, gpointer user)
{
  HydSparsityView *self = user;
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

static void
resize_cb (GtkDrawingArea *area, int width, int height, gpointer user)
{
  update_adjustments (user);
}

static void
zoom_in_cb (GtkButton *b, gpointer user)
{
  HydSparsityView *self = user;
  zoom_about (self, 1.5, MARGIN_LEFT, MARGIN_TOP);
}

static void
zoom_out_cb (GtkButton *b, gpointer user)
{
  HydSparsityView *self = user;
  zoom_about (self, 1 / 1.5, MARGIN_LEFT, MARGIN_TOP);
}

static void
zoom_fit_cb (GtkButton *b, gpointer user)
{
  HydSparsityView *self = user;
  self->fit = TRUE;
  gtk_adjustment_set_value (self->hadj, 0);
  gtk_adjustment_set_value (self->vadj, 0);
  update_adjustments (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

static void
scale_toggled_cb (GtkCheckButton *check, gpointer user)
{
  HydSparsityView *self = user;
  self->scaled = gtk_check_button_get_active (check);
  if (self->data == NULL)
    return;
  update_colour_range (self);
  int row = self->hover_row, col = self->hover_col;
  self->hover_row = self->hover_col = -1;
  hyd_sparsity_view_hover_entry (self, row, col);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

/* The schematic's selection marks the rows and columns of the states its
 * components make. */
static void
selection_changed_cb (HydCanvas *canvas, gpointer user)
{
  HydSparsityView *self = user;
  if (self->data == NULL)
    return;
  g_auto (GStrv) ids = hyd_canvas_get_selection (canvas);
  guint n_marked = 0;
  int first = -1;
  for (guint k = 0; k < self->data->n; k++)
    {
      GPtrArray *comps = g_ptr_array_index (self->data->comps, k);
      self->marked[k] = FALSE;
      for (guint c = 0; ids && c < comps->len && !self->marked[k]; c++)
        self->marked[k] = g_strv_contains ((const char *const *) ids, g_ptr_array_index (comps, c));
      if (self->marked[k])
        {
          n_marked++;
          if (first < 0 || self->data->pos[k] < (guint) first)
            first = (int) self->data->pos[k];
        }
    }
  /* bring the first marked row into view when it is not */
  if (first >= 0)
    {
      double y = first * self->cell, v = gtk_adjustment_get_value (self->vadj);
      if (y < v || y + self->cell > v + gtk_adjustment_get_page_size (self->vadj))
        {
          gtk_adjustment_set_value (self->vadj, y - self->cell);
          gtk_adjustment_set_value (self->hadj, y - self->cell);
        }
    }
  if (self->hover_text == NULL)
    {
      if (n_marked > 0)
        {
          g_autofree char *which = g_strjoinv (", ", ids);
          g_autofree char *text = g_strdup_printf (ngettext ("%s: %u state marked (its row and column)",
                                                             "%s: %u states marked (their rows and columns)", n_marked),
                                                   which, n_marked);
          gtk_label_set_text (self->status, text);
        }
      else
        gtk_label_set_text (self->status, _("Hover an entry, or select components on the schematic."));
    }
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

/* ---- filling in ---- */

static char *
summary_text (const SparsityData *d)
{
  GString *t = g_string_new (NULL);
  double density = d->n ? 100.0 * d->nnz / ((double) d->n * d->n) : 0;
  g_string_append_printf (t, _("%u states, %u structural non-zeros (%.3g %% dense); bandwidth: %u below and %u "
                               "above the diagonal in the engine's order, %u and %u as drawn."), d->n, d->nnz,
                          density, d->lower, d->upper, d->dlower, d->dupper);
  if (d->lu_nnz >= 0 && d->n > 0)
    {
      g_string_append (t, " ");
      g_string_append_printf (t, _("KLU's factors of the iteration matrix (%u non-zeros) hold %ld: fill-in %ld."),
                              d->a_nnz, d->lu_nnz, d->lu_nnz - (long) d->a_nnz);
    }
  return g_string_free (t, FALSE);
}

static void
computed_cb (GObject *source, GAsyncResult *result, gpointer user)
{
  g_autoptr (GError) error = NULL;
  SparsityData *d = g_task_propagate_pointer (G_TASK (result), &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  HydSparsityView *self = HYD_SPARSITY_VIEW (source);
  if (d == NULL)
    {
      self->error = g_strdup (error->message);
      g_autofree char *text = g_strdup_printf (_("The Jacobian could not be computed: %s"), error->message);
      gtk_label_set_text (self->summary_label, text);
      g_signal_emit (self, signals[SIGNAL_READY], 0);
      return;
    }
  self->data = d;
  self->marked = g_new0 (gboolean, d->n + 1);
  update_colour_range (self);
  self->summary = summary_text (d);
  gtk_label_set_text (self->summary_label, self->summary);
  if (self->canvas)
    selection_changed_cb (self->canvas, self);
  else
    gtk_label_set_text (self->status, _("Hover an entry to see its value."));
  update_adjustments (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
  g_signal_emit (self, signals[SIGNAL_READY], 0);
}

/* ---- the object ---- */

static void
hyd_sparsity_view_dispose (GObject *object)
{
  HydSparsityView *self = HYD_SPARSITY_VIEW (object);
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->canvas)
    {
      g_signal_handlers_disconnect_by_data (self->canvas, self);
      if (self->lit)
        hyd_canvas_set_highlight (self->canvas, NULL);
    }
  self->lit = FALSE;
  self->hover_row = self->hover_col = -1;
  g_clear_weak_pointer (&self->canvas);
  G_OBJECT_CLASS (hyd_sparsity_view_parent_class)->dispose (object);
}

static void
hyd_sparsity_view_finalize (GObject *object)
{
  HydSparsityView *self = HYD_SPARSITY_VIEW (object);
  g_clear_pointer (&self->circuit, hyd_circuit_free);
  g_clear_pointer (&self->data, sparsity_data_free);
  g_free (self->marked);
  g_free (self->error);
  g_free (self->summary);
  g_free (self->hover_text);
  G_OBJECT_CLASS (hyd_sparsity_view_parent_class)->finalize (object);
}

static void
hyd_sparsity_view_class_init (HydSparsityViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = hyd_sparsity_view_dispose;
  object_class->finalize = hyd_sparsity_view_finalize;
  /* Escape closes it, as the help and the examples windows */
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0, "window.close", NULL);
  signals[SIGNAL_READY] = g_signal_new ("ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                        NULL, G_TYPE_NONE, 0);
}

static GtkWidget *
icon_button (const char *icon, const char *tip, GCallback cb, gpointer user)
{
  GtkWidget *b = gtk_button_new_from_icon_name (icon);
  gtk_widget_set_tooltip_text (b, tip);
  g_signal_connect (b, "clicked", cb, user);
  return b;
}

static void
hyd_sparsity_view_init (HydSparsityView *self)
{
  self->hover_row = self->hover_col = -1;
  self->scaled = TRUE;
  self->fit = TRUE;
  self->cell = 10;
  self->pointer_x = MARGIN_LEFT;
  self->pointer_y = MARGIN_TOP;
  gtk_window_set_default_size (GTK_WINDOW (self), 820, 780);
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

  GtkWidget *tools = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->scale_check = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic (_("_Scale by the states' tolerances")));
  gtk_check_button_set_active (self->scale_check, TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->scale_check),
                               _("Colour by |J_ij|·atol_j/atol_i, a rate in 1/s, instead of |J_ij| in SI units"));
  g_signal_connect (self->scale_check, "toggled", G_CALLBACK (scale_toggled_cb), self);
  gtk_widget_set_hexpand (GTK_WIDGET (self->scale_check), TRUE);
  gtk_box_append (GTK_BOX (tools), GTK_WIDGET (self->scale_check));
  gtk_box_append (GTK_BOX (tools), icon_button ("zoom-out-symbolic", _("Zoom out (Ctrl+scroll)"),
                                                G_CALLBACK (zoom_out_cb), self));
  gtk_box_append (GTK_BOX (tools), icon_button ("zoom-fit-best-symbolic", _("The whole matrix"),
                                                G_CALLBACK (zoom_fit_cb), self));
  gtk_box_append (GTK_BOX (tools), icon_button ("zoom-in-symbolic", _("Zoom in (Ctrl+scroll)"),
                                                G_CALLBACK (zoom_in_cb), self));
  /* the window's help (hyd_help_sparsity_dup_text) in a popover */
  g_autofree char *help = hyd_help_sparsity_dup_text ();
  self->help_label = GTK_LABEL (gtk_label_new (help));
  gtk_label_set_wrap (self->help_label, TRUE);
  gtk_label_set_max_width_chars (self->help_label, 72);
  gtk_label_set_xalign (self->help_label, 0);
  GtkWidget *popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), GTK_WIDGET (self->help_label));
  GtkWidget *help_button = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (help_button), "help-about-symbolic");
  gtk_widget_set_tooltip_text (help_button, _("What this window shows"));
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (help_button), popover);
  gtk_box_append (GTK_BOX (tools), help_button);

  self->area = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->area), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->area), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self->area), 360, 300);
  gtk_drawing_area_set_draw_func (self->area, draw_area, self, NULL);
  g_signal_connect (self->area, "resize", G_CALLBACK (resize_cb), self);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self->area), TRUE);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->area), motion);
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->area), scroll);

  self->hadj = gtk_adjustment_new (0, 0, 1, 20, 100, 1);
  self->vadj = gtk_adjustment_new (0, 0, 1, 20, 100, 1);
  g_signal_connect (self->hadj, "value-changed", G_CALLBACK (adjustment_changed_cb), self);
  g_signal_connect (self->vadj, "value-changed", G_CALLBACK (adjustment_changed_cb), self);
  GtkWidget *grid = gtk_grid_new ();
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->area), 0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), gtk_scrollbar_new (GTK_ORIENTATION_VERTICAL, self->vadj), 1, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), gtk_scrollbar_new (GTK_ORIENTATION_HORIZONTAL, self->hadj), 0, 1, 1, 1);

  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->status, 0);
  gtk_label_set_wrap (self->status, TRUE);
  gtk_label_set_selectable (self->status, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->status), "dim-label");
  /* two lines whatever it says: a hover must not resize the matrix */
  PangoLayout *two = gtk_widget_create_pango_layout (GTK_WIDGET (self->status), "Ag\nAg");
  int two_h;
  pango_layout_get_pixel_size (two, NULL, &two_h);
  g_object_unref (two);
  gtk_widget_set_size_request (GTK_WIDGET (self->status), -1, two_h);

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->title));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->summary_label));
  gtk_box_append (GTK_BOX (box), tools);
  gtk_box_append (GTK_BOX (box), grid);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status));
  gtk_window_set_child (GTK_WINDOW (self), box);
}

HydSparsityView *
hyd_sparsity_view_new (GtkWindow *parent, const HydCircuit *circuit, double t, HydCanvas *canvas)
{
  g_return_val_if_fail (circuit != NULL && t >= 0 && isfinite (t), NULL);
  HydSparsityView *self = g_object_new (HYD_TYPE_SPARSITY_VIEW, NULL);
  if (parent)
    gtk_window_set_transient_for (GTK_WINDOW (self), parent);
  self->circuit = hyd_circuit_copy (circuit);
  self->t = t;
  g_set_weak_pointer (&self->canvas, canvas);
  if (canvas)
    g_signal_connect (canvas, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  g_autofree char *title = g_strdup_printf (_("Jacobian sparsity at t = %g s"), t);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_text (self->title, title);
  g_autofree char *wait = g_strdup_printf (_("Computing the Jacobian at t = %g s…"), t);
  gtk_label_set_text (self->summary_label, wait);
  self->cancellable = g_cancellable_new ();
  g_autoptr (GTask) task = g_task_new (self, self->cancellable, computed_cb, NULL);
  g_task_set_task_data (task, self->circuit, NULL);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, compute_thread);
  return self;
}

gboolean
hyd_sparsity_view_get_ready (HydSparsityView *self)
{
  g_return_val_if_fail (HYD_IS_SPARSITY_VIEW (self), FALSE);
  return self->data != NULL || self->error != NULL;
}

const char *
hyd_sparsity_view_get_error (HydSparsityView *self)
{
  g_return_val_if_fail (HYD_IS_SPARSITY_VIEW (self), NULL);
  return self->error;
}

guint
hyd_sparsity_view_get_n_states (HydSparsityView *self)
{
  g_return_val_if_fail (HYD_IS_SPARSITY_VIEW (self), 0);
  return self->data ? self->data->n : 0;
}

guint
hyd_sparsity_view_get_n_nonzeros (HydSparsityView *self)
{
  g_return_val_if_fail (HYD_IS_SPARSITY_VIEW (self), 0);
  return self->data ? self->data->nnz : 0;
}

const char *
hyd_sparsity_view_get_summary (HydSparsityView *self)
{
  g_return_val_if_fail (HYD_IS_SPARSITY_VIEW (self), NULL);
  return self->summary;
}

guint
hyd_sparsity_view_get_position (HydSparsityView *self, guint state)
{
  g_return_val_if_fail (HYD_IS_SPARSITY_VIEW (self) && self->data && state < self->data->n, 0);
  return self->data->pos[state];
}

static char *
join_ids (const GPtrArray *ids)
{
  GString *t = g_string_new (NULL);
  for (guint k = 0; k < ids->len; k++)
    g_string_append_printf (t, "%s%s", k ? ", " : "", (const char *) g_ptr_array_index (ids, k));
  return g_string_free (t, FALSE);
}

gboolean
hyd_sparsity_view_hover_entry (HydSparsityView *self, int row, int col)
{
  g_return_val_if_fail (HYD_IS_SPARSITY_VIEW (self), FALSE);
  const SparsityData *d = self->data;
  int k = -1;
  if (d != NULL && row >= 0 && col >= 0 && (guint) row < d->n && (guint) col < d->n)
    k = entry_index (d, d->pos[row], d->pos[col]);
  if (k < 0)
    row = col = -1;
  if (row == self->hover_row && col == self->hover_col)
    return k >= 0;
  self->hover_row = row;
  self->hover_col = col;
  g_clear_pointer (&self->hover_text, g_free);
  if (k >= 0)
    {
      char v[G_ASCII_DTOSTR_BUF_SIZE];
      g_ascii_formatd (v, sizeof v, "%.6g", d->value[k]);
      GString *t = g_string_new (NULL);
      g_string_append_printf (t, "∂(d%s/dt)/∂%s = %s", (char *) g_ptr_array_index (d->names, row),
                              (char *) g_ptr_array_index (d->names, col), v);
      if (self->scaled && d->value[k] != 0)
        {
          g_ascii_formatd (v, sizeof v, "%.3g", d->value[k] * d->atol[col] / d->atol[row]);
          g_string_append_printf (t, _(" (scaled by the tolerances: %s 1/s)"), v);
        }
      g_autofree char *rs = join_ids (g_ptr_array_index (d->comps, row));
      g_autofree char *cs = join_ids (g_ptr_array_index (d->comps, col));
      g_string_append (t, "\n");
      g_string_append_printf (t, _("row: %s; column: %s"), rs, cs);
      self->hover_text = g_string_free (t, FALSE);
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->area), self->hover_text);
  if (self->hover_text)
    gtk_label_set_text (self->status, self->hover_text);
  else if (self->canvas && self->data)
    selection_changed_cb (self->canvas, self);
  if (self->canvas)
    {
      if (k >= 0)
        {
          g_autoptr (GPtrArray) ids = g_ptr_array_new ();
          GPtrArray *both[2] = { g_ptr_array_index (d->comps, row), g_ptr_array_index (d->comps, col) };
          for (int s = 0; s < 2; s++)
            for (guint c = 0; c < both[s]->len; c++)
              {
                const char *id = g_ptr_array_index (both[s], c);
                gboolean seen = FALSE;
                for (guint m = 0; m < ids->len && !seen; m++)
                  seen = strcmp (g_ptr_array_index (ids, m), id) == 0;
                if (!seen)
                  g_ptr_array_add (ids, (gpointer) id);
              }
          g_ptr_array_add (ids, NULL);
          hyd_canvas_set_highlight (self->canvas, (const char *const *) ids->pdata);
          self->lit = TRUE;
        }
      else if (self->lit)
        {
          hyd_canvas_set_highlight (self->canvas, NULL);
          self->lit = FALSE;
        }
    }
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
  return k >= 0;
}

const char *
hyd_sparsity_view_get_hover_text (HydSparsityView *self)
{
  g_return_val_if_fail (HYD_IS_SPARSITY_VIEW (self), NULL);
  return self->hover_text;
}

gboolean
hyd_sparsity_view_is_marked (HydSparsityView *self, guint state)
{
  g_return_val_if_fail (HYD_IS_SPARSITY_VIEW (self), FALSE);
  return self->data && state < self->data->n && self->marked[state];
}

void
hyd_sparsity_view_set_cell_size (HydSparsityView *self, double px)
{
  g_return_if_fail (HYD_IS_SPARSITY_VIEW (self) && px > 0);
  self->cell = MIN (px, MAX_CELL);
  self->fit = FALSE;
  update_adjustments (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

double
hyd_sparsity_view_get_cell_size (HydSparsityView *self)
{
  g_return_val_if_fail (HYD_IS_SPARSITY_VIEW (self), 0);
  return self->cell;
}

const char *
hyd_sparsity_view_get_help (HydSparsityView *self)
{
  g_return_val_if_fail (HYD_IS_SPARSITY_VIEW (self), NULL);
  return gtk_label_get_text (self->help_label);
}

guint
hyd_sparsity_view_get_n_draws (HydSparsityView *self)
{
  g_return_val_if_fail (HYD_IS_SPARSITY_VIEW (self), 0);
  return self->n_draws;
}
