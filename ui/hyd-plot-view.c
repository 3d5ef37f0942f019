/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-plot-view.c — a plot pane: PLplot (extcairo) into a cached surface.
 *
 * Rendering.  Every render is one self-contained PLplot session on the main
 * thread (plmkstrm … plend1, as gtkmm-plplot does per frame): the view gets
 * its own stream number from plmkstrm, makes it current with plsstrm before
 * each group of PLplot calls, and ends it before returning, so any number of
 * views can exist and none depends on which stream another left current.
 * The session draws into an image surface the view owns (never into GTK's
 * snapshot); the surface becomes a texture that snapshot paints as it is,
 * with the cursor read-out on top.  A render happens when the size, the
 * theme, the traces or the range change, and while a run streams rows in
 * on the window's live beat (about 6 times a second, HYD_UI_LIVE_PLOT_US),
 * in the same frame as the other panes and the schematic.
 *
 * Units.  Traces are converted to engineering display units
 * (hyd-display-units.c).  Traces of different units never share a y axis: the
 * pane is split into stacked strips, one per unit in the order the traces
 * were added, sharing the time axis, each with its own y axis labelled with
 * the quantity and its unit ("Pressure [bar]").  Normalising would lose the
 * values engineers read off the axis, and a second y axis only helps for two
 * units.  hyd_plot_view_set_y_range() fixes the first trace's unit (the
 * primary strip); hyd_plot_view_set_unit_y_range() fixes any other.
 *
 * Large traces.  Each trace is reduced to at most four points per pixel
 * column — the first, the minimum, the maximum and the last sample of the
 * column, min and max in time order — so the drawn line covers exactly the
 * envelope of all samples of the column (hyd_plot_decimate()).
 *
 * Steps.  render_plot() runs plan → decimate → layout and axes → draw.  The
 * plan (which strips, which traces in each, the time window, the markers),
 * the decimation and the y ranges and ticks are plain data computed in
 * hyd-plot-plan.c, with no GTK, cairo or PLplot; this file measures text to
 * lay out the legends and margins, and only turns the plan into PLplot and
 * cairo calls.
 *
 * Drawn by PLplot: axes, ticks, tick labels (through a locale-aware label
 * function), grid, axis labels, title, traces, ghost traces and marker lines.
 * Drawn with Cairo and Pango on the same surface after PLplot: the legend
 * rows above each strip and the marker labels (both need measured, ellipsised
 * text).  Drawn in snapshot: the cursor line and read-out. */
#include "hyd-plot-view.h"

#include <glib/gi18n.h>
#include "hyd-display-units.h"
#include "hyd-plot-plan.h"
#include "hyd-ui-util.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <plplot.h>

/* ---------------------------------------------------------------- layout -- */

#define RENDER_INTERVAL_US   (G_USEC_PER_SEC / 30)  /* ~30 fps while streaming */
#define EXPORT_WIDTH         900                    /* unrealised view export size */
#define EXPORT_HEIGHT        560
#define FONT_PX              12.0    /* tick labels, axis labels, legend */
#define SMALL_FONT_PX        10.5    /* marker labels */
#define TITLE_FONT_PX        13.5
/* PLplot scales its default character height with the page size; an
 * explicit height in mm (at the cairo driver's 72 dpi) keeps text the same
 * size in every pane: 3.6 mm ≈ FONT_PX glyphs. */
#define PLPLOT_CHAR_MM       3.6
#define MARGIN_RIGHT         16.0
#define MARGIN_TOP           8.0
#define TITLE_HEIGHT         24.0
#define LEGEND_ROW_HEIGHT    18.0
#define LEGEND_SWATCH        20.0
#define STRIP_GAP            6.0
#define BOTTOM_AXIS_HEIGHT   50.0
#define Y_LABEL_WIDTH        22.0
#define TIME_LABEL_OFFSET    36.0   /* baseline of "Time [s]" below the plot */
#define TICK_LABEL_PAD       10.0
#define MIN_STRIP_HEIGHT     24.0
#define Y_TICK_SPACING_PX    42.0   /* wanted pixels between y ticks */
#define X_TICK_SPACING_PX    90.0
#define TRACE_WIDTH          1.5
#define GHOST_ALPHA          0.35
#define FAR_OUTSIDE          100.0  /* spans beyond a range at which values are clamped */
#define N_TRACE_COLOURS      10

/* cmap0 indices */
enum {
  COL_BG = 0,
  COL_FG,
  COL_BOX,
  COL_LABEL,
  COL_GRID,
  COL_MARKER,
  COL_TRACE0,                                 /* N_TRACE_COLOURS of them */
  COL_GHOST0 = COL_TRACE0 + N_TRACE_COLOURS,  /* the same, faded */
  N_COLOURS = COL_GHOST0 + N_TRACE_COLOURS
};

typedef struct {
  double r, g, b, a;
} Rgba;

typedef struct {
  Rgba bg, fg, box, label, grid, marker, dim;
  Rgba trace[N_TRACE_COLOURS];
} Palette;

#define RGB(hex, alpha) { ((hex) >> 16 & 0xff) / 255.0, ((hex) >> 8 & 0xff) / 255.0, ((hex) & 0xff) / 255.0, alpha }

static const Palette light_palette = {
  .bg = RGB (0xffffff, 1.0),
  .fg = RGB (0x241f31, 1.0),
  .box = RGB (0x878490, 1.0),   /* opaque: it is drawn over the labels' axis line */
  .label = RGB (0x241f31, 0.85),
  .grid = RGB (0x000000, 0.09),
  .marker = RGB (0x613583, 0.75),
  .dim = RGB (0x241f31, 0.55),
  .trace = {
    RGB (0x1f77b4, 1.0), RGB (0xd62728, 1.0), RGB (0x2ca02c, 1.0), RGB (0xff7f0e, 1.0),
    RGB (0x9467bd, 1.0), RGB (0x8c564b, 1.0), RGB (0xe377c2, 1.0), RGB (0x17becf, 1.0),
    RGB (0x7f7f7f, 1.0), RGB (0xbcbd22, 1.0),
  },
};

static const Palette dark_palette = {
  .bg = RGB (0x1e1e1e, 1.0),
  .fg = RGB (0xdeddda, 1.0),
  .box = RGB (0x7e7d7c, 1.0),
  .label = RGB (0xdeddda, 0.85),
  .grid = RGB (0xffffff, 0.10),
  .marker = RGB (0xdc8add, 0.80),
  .dim = RGB (0xdeddda, 0.55),
  .trace = {
    RGB (0x62a0ea, 1.0), RGB (0xf66151, 1.0), RGB (0x57e389, 1.0), RGB (0xffa348, 1.0),
    RGB (0xc061cb, 1.0), RGB (0xcdab8f, 1.0), RGB (0xf48fb1, 1.0), RGB (0x5bc8d9, 1.0),
    RGB (0xc0bfbc, 1.0), RGB (0xf8e45c, 1.0),
  },
};

typedef struct {
  char *name;
  guint colour;        /* index into Palette.trace, kept while the trace lives */
  HydPlotEnvelope *envelopes;   /* [0] current run, [1] ghost */
} Trace;

typedef struct {
  gboolean manual;
  double lo, hi;       /* display units */
} UnitRange;

/* One strip of the last render, for the cursor read-out (logical pixels). */
typedef struct {
  HydUnit unit;
  double top, bottom;  /* plot area */
  double lo, hi;       /* y range, display units */
} Strip;

struct _HydPlotView
{
  GtkWidget parent_instance;

  /* Owned references */
  HydTraceStore *store;
  HydTraceStore *ghost;
  GHashTable *known_units;   /* name → unit + 1, for traces before a run, or NULL */
  GdkTexture *texture;
  cairo_surface_t *cache;

  char *title;
  GPtrArray *traces;          /* Trace* */
  UnitRange ranges[HYD_UNIT_N_KINDS];
  UnitRange pending_range;    /* set_y_range before any trace */
  gboolean autoscale;
  gboolean dark;

  gulong store_appended_id;
  gulong store_marker_id;
  guint render_source;
  gint64 last_render_us;
  int cache_width, cache_height, cache_scale;
  gboolean dirty;

  /* Geometry of the last render, in logical pixels */
  double plot_left, plot_right;
  double x0, x1;
  GArray *strips;             /* Strip */

  /* Cursor */
  gboolean cursor_inside;
  double cursor_x, cursor_y;
  double replay_t;           /* the replay cursor's time, NaN: none */
  guint n_legends;           /* legends drawn by the last render */
  guint n_marker_labels;     /* marker labels drawn by the last render */

  /* The PLplot stream of the render in progress (−1 when none) */
  PLINT stream;
};

G_DEFINE_FINAL_TYPE (HydPlotView, hyd_plot_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_STORE,
  PROP_GHOST,
  PROP_AUTOSCALE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean plplot_available;

static void schedule_render (HydPlotView *self);

/* -------------------------------------------------------------- labels -- */

/* PLplot's custom tick labels (plbox option "o"): the locale's decimal point. */
static void
plplot_label_func (PLINT axis, PLFLT value, char *label, PLINT length, PLPointer data)
{
  const HydPlotAxisFormat *formats = data;
  const HydPlotAxisFormat *f = &formats[axis == PL_X_AXIS ? 0 : 1];
  g_autofree char *s = hyd_plot_format_tick (f, value);
  g_strlcpy (label, s, length);
}

/* PLplot treats '#' as its escape character. */
static char *
pl_escape (const char *text)
{
  GString *s = g_string_new (NULL);
  for (const char *p = text ? text : ""; *p; p++)
    {
      if (*p == '#')
        g_string_append_c (s, '#');
      g_string_append_c (s, *p);
    }
  return g_string_free (s, FALSE);
}

static char *
quantity_label (HydUnit unit)
{
  const char *symbol = hyd_display_symbol (unit);
  const char *name = hyd_display_quantity_name (unit);
  if (symbol[0] == '\0')
    return g_strdup (name);
  return g_strdup_printf ("%s [%s]", name, symbol);
}

/* ------------------------------------------------------------- helpers -- */

static void
trace_free (gpointer data)
{
  Trace *tr = data;
  hyd_plot_envelope_clear (&tr->envelopes[0]);
  hyd_plot_envelope_clear (&tr->envelopes[1]);
  g_free (tr->envelopes);
  g_free (tr->name);
  g_free (tr);
}

static int
trace_index (HydPlotView *self, const char *name)
{
  for (guint i = 0; i < self->traces->len; i++)
    if (g_strcmp0 (((Trace *) g_ptr_array_index (self->traces, i))->name, name) == 0)
      return (int) i;
  return -1;
}

/* The unit of a trace: from the current store, else the ghost; NONE when
 * neither has it (it then draws nothing but keeps its place). */
static HydUnit
trace_unit (HydPlotView *self, const char *name)
{
  int k;
  if (self->store && (k = hyd_trace_store_find (self->store, name)) > 0)
    return hyd_trace_store_get_unit (self->store, k);
  if (self->ghost && (k = hyd_trace_store_find (self->ghost, name)) > 0)
    return hyd_trace_store_get_unit (self->ghost, k);
  gpointer u;
  if (self->known_units && (u = g_hash_table_lookup (self->known_units, name)) != NULL)
    return (HydUnit) (GPOINTER_TO_INT (u) - 1);
  return HYD_UNIT_NONE;
}

/* The distinct units of the traces, in the order the traces were added. */

static void
set_pango_font (PangoLayout *layout, double px)
{
  PangoFontDescription *desc = pango_font_description_from_string ("Sans");
  pango_font_description_set_absolute_size (desc, px * PANGO_SCALE);
  pango_layout_set_font_description (layout, desc);
  pango_font_description_free (desc);
}

static double
text_width (cairo_t *cr, const char *text, double px)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  set_pango_font (layout, px);
  pango_layout_set_text (layout, text, -1);
  int w, h;
  pango_layout_get_pixel_size (layout, &w, &h);
  g_object_unref (layout);
  return w;
}

static void
set_source (cairo_t *cr, const Rgba *c)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, c->a);
}

static void
pl_colour (PLINT index, const Rgba *c)
{
  plscol0a (index, (PLINT) lround (c->r * 255), (PLINT) lround (c->g * 255), (PLINT) lround (c->b * 255), c->a);
}

/* PLplot's normalised device coordinates of a pixel rectangle. */
static void
pl_viewport (double w, double h, double left, double right, double top, double bottom)
{
  plvpor (left / w, right / w, 1.0 - bottom / h, 1.0 - top / h);
}

/* Draw a polyline with NaN breaks as separate PLplot lines. */
static void
pl_polyline (PLINT stream, const double *x, const double *y, guint n)
{
  plsstrm (stream);
  guint start = 0;
  for (guint i = 0; i <= n; i++)
    if (i == n || isnan (x[i]))
      {
        if (i - start >= 2)
          plline ((PLINT) (i - start), x + start, y + start);
        else if (i - start == 1)
          {
            /* a lone sample: a dot, so it is not lost */
            PLFLT px = x[start], py = y[start];
            plpoin (1, &px, &py, 1);
          }
        start = i + 1;
      }
}

/* ---------------------------------------------------------- the render -- */

/* The pixel layout of one strip of a render (the plan's data is in
 * HydPlotStrip). */
typedef struct {
  HydUnit unit;
  GPtrArray *legend;      /* Trace* shown in this strip, in order */
  double legend_top;
  guint legend_rows;
  double top, bottom;
  double lo, hi, step;
} StripPlan;

/* Legend rows a strip needs for its traces at this width. */
static guint
legend_rows (cairo_t *cr, GPtrArray *legend, gboolean ghost_entry, double width)
{
  if (legend->len == 0)
    return 0;
  guint rows = 1;
  double x = 0;
  for (guint i = 0; i <= legend->len; i++)
    {
      const char *text;
      if (i < legend->len)
        text = ((Trace *) g_ptr_array_index (legend, i))->name;
      else if (ghost_entry)
        text = _("previous run");
      else
        break;
      double w = LEGEND_SWATCH + 5 + text_width (cr, text, FONT_PX) + 16;
      if (x > 0 && x + w > width)
        {
          rows++;
          x = 0;
        }
      x += w;
    }
  return rows;
}

static void
draw_legend (cairo_t *cr, const Palette *pal, GPtrArray *legend, gboolean ghost_entry,
             double left, double top, double width)
{
  double x = 0, y = 0;
  PangoLayout *layout = pango_cairo_create_layout (cr);
  set_pango_font (layout, FONT_PX);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_set_width (layout, (int) (MAX (width - LEGEND_SWATCH - 5, 10) * PANGO_SCALE));
  for (guint i = 0; i <= legend->len; i++)
    {
      const char *text;
      Rgba colour;
      gboolean ghost = FALSE;
      if (i < legend->len)
        {
          const Trace *tr = g_ptr_array_index (legend, i);
          text = tr->name;
          colour = pal->trace[tr->colour];
        }
      else if (ghost_entry)
        {
          text = _("previous run");
          colour = pal->fg;
          colour.a = GHOST_ALPHA + 0.1;
          ghost = TRUE;
        }
      else
        break;
      pango_layout_set_text (layout, text, -1);
      int tw, th;
      pango_layout_get_pixel_size (layout, &tw, &th);
      double w = LEGEND_SWATCH + 5 + tw + 16;
      if (x > 0 && x + w > width)
        {
          x = 0;
          y += LEGEND_ROW_HEIGHT;
        }
      double cy = top + y + LEGEND_ROW_HEIGHT / 2;
      set_source (cr, &colour);
      cairo_set_line_width (cr, ghost ? 2.0 : 2.5);
      cairo_move_to (cr, left + x, cy);
      cairo_line_to (cr, left + x + LEGEND_SWATCH, cy);
      cairo_stroke (cr);
      set_source (cr, ghost ? &pal->dim : &pal->fg);
      cairo_move_to (cr, left + x + LEGEND_SWATCH + 5, cy - th / 2.0);
      pango_cairo_show_layout (cr, layout);
      x += w;
    }
  g_object_unref (layout);
}

/* A legend in one row (inside a low strip): short swatches, the names cut
 * to share the width. */
static void
draw_legend_row (cairo_t *cr, const Palette *pal, GPtrArray *legend, gboolean ghost_entry, double left,
                 double top, double width)
{
  guint n = legend->len + (ghost_entry ? 1 : 0);
  if (n == 0)
    return;
  const double swatch = 12;
  double slot = width / n;
  PangoLayout *layout = pango_cairo_create_layout (cr);
  set_pango_font (layout, SMALL_FONT_PX);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_set_width (layout, (int) (MAX (slot - swatch - 8, 10) * PANGO_SCALE));
  for (guint i = 0; i < n; i++)
    {
      const char *text;
      Rgba colour;
      if (i < legend->len)
        {
          const Trace *tr = g_ptr_array_index (legend, i);
          text = tr->name;
          colour = pal->trace[tr->colour];
        }
      else
        {
          text = _("previous run");
          colour = pal->fg;
          colour.a = GHOST_ALPHA + 0.1;
        }
      double x = left + i * slot, cy = top + LEGEND_ROW_HEIGHT / 2;
      set_source (cr, &colour);
      cairo_set_line_width (cr, 2.5);
      cairo_move_to (cr, x, cy);
      cairo_line_to (cr, x + swatch, cy);
      cairo_stroke (cr);
      pango_layout_set_text (layout, text, -1);
      int tw, th;
      pango_layout_get_pixel_size (layout, &tw, &th);
      set_source (cr, &pal->fg);
      cairo_move_to (cr, x + swatch + 4, cy - th / 2.0);
      pango_cairo_show_layout (cr, layout);
    }
  g_object_unref (layout);
}

/* Marker labels at the top of the first strip, staggered so they do not
 * overlap; each is ellipsised to a bounded width. */
static void
draw_marker_labels (cairo_t *cr, const Palette *pal, HydTraceStore *store, double x0, double x1,
                    double left, double right, double top, double bottom, guint *n_drawn)
{
  guint n = hyd_trace_store_get_n_markers (store);
  if (n == 0)
    return;
  PangoLayout *layout = pango_cairo_create_layout (cr);
  set_pango_font (layout, SMALL_FONT_PX);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  double max_w = MAX ((right - left) * 0.45, 40);
  pango_layout_set_width (layout, (int) (max_w * PANGO_SCALE));
  double row_h = SMALL_FONT_PX + 6;
  /* at most two rows, and only in the upper half of the strip: a label
   * with no room is left out (its line stays), never drawn over another */
  guint max_rows = (guint) MAX ((bottom - top) / 2 / row_h, 1);
  double row_end[2];
  guint n_rows = MIN (max_rows, G_N_ELEMENTS (row_end));
  for (guint r = 0; r < G_N_ELEMENTS (row_end); r++)
    row_end[r] = -G_MAXDOUBLE;

  for (guint i = 0; i < n; i++)
    {
      double t;
      const char *label;
      hyd_trace_store_get_marker (store, i, &t, &label);
      if (!isfinite (t) || t < x0 || t > x1 || label == NULL || label[0] == '\0')
        continue;
      double px = left + (t - x0) / (x1 - x0) * (right - left);
      pango_layout_set_text (layout, label, -1);
      int tw, th;
      pango_layout_get_pixel_size (layout, &tw, &th);
      /* right of the line, or left of it near the right edge */
      double lx = px + 4;
      if (lx + tw + 4 > right)
        lx = px - 4 - tw;
      lx = MAX (lx, left + 2);
      guint row = 0;
      while (row < n_rows && row_end[row] > lx - 6)
        row++;
      if (row == n_rows)
        continue;
      row_end[row] = MAX (row_end[row], lx + tw);
      double ly = top + 3 + row * row_h;
      (*n_drawn)++;

      /* translucent: the traces under a label stay visible */
      Rgba bg = pal->bg;
      bg.a = 0.5;
      set_source (cr, &bg);
      cairo_rectangle (cr, lx - 2, ly - 1, tw + 4, th + 2);
      cairo_fill (cr);
      set_source (cr, &pal->marker);
      cairo_move_to (cr, lx, ly);
      pango_cairo_show_layout (cr, layout);
    }
  g_object_unref (layout);
}

static void
plplot_abort_handler (const char *message)
{
  g_warning ("PLplot: %s", message);
}

/* Render the whole plot into cr (logical size w × h). */
/* ------------------------------------------------- plan, decimate, axes -- */

/* The plan: the strips and their traces, the time window, the markers. */
static HydPlotPlan *
plot_plan (HydPlotView *self)
{
  guint n = self->traces->len;
  g_autofree HydUnit *units = g_new (HydUnit, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    units[i] = trace_unit (self, ((Trace *) g_ptr_array_index (self->traces, i))->name);
  return hyd_plot_plan_new (units, n, self->store, self->ghost);
}

/* Every trace (current and ghost) decimated to the plot's pixel columns,
 * through the trace's cached envelopes, into the plan; this also finds
 * each strip's data range. */
static void
plot_decimate (HydPlotView *self, HydPlotPlan *plan, guint n_columns)
{
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ys = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < plan->n_traces; i++)
    {
      Trace *tr = g_ptr_array_index (self->traces, i);
      for (guint g = 0; g < 2; g++)
        {
          HydTraceStore *store = g == 0 ? self->store : self->ghost;
          int k = store ? hyd_trace_store_find (store, tr->name) : -1;
          if (k <= 0)
            continue;
          hyd_plot_envelope_update (&tr->envelopes[g], store, k, plan->x0, plan->x1, n_columns, xs, ys);
          hyd_plot_plan_set_series (plan, i, g, xs, ys);
        }
    }
}

/* Where the plan goes on the page (logical pixels). */
typedef struct {
  double title_h;
  double plot_w_guess;       /* the plot's width before the tick labels are measured */
  double left, right;        /* the plot area */
  double xstep;
  HydPlotAxisFormat xformat;
  gboolean legends_inside;   /* no room above the strips: one row inside each */
  StripPlan *strips;
} PlotLayout;

static void
plot_layout_clear (PlotLayout *lay, guint n_strips)
{
  for (guint s = 0; s < n_strips && lay->strips; s++)
    g_ptr_array_unref (lay->strips[s].legend);
  g_clear_pointer (&lay->strips, g_free);
}

/* The vertical layout: each strip's legend rows above it, the strips of
 * equal height below the title. */
static void
plot_layout_rows (HydPlotView *self, cairo_t *cr, const HydPlotPlan *plan, int h, PlotLayout *lay)
{
  guint n_strips = plan->n_strips;
  lay->strips = g_new0 (StripPlan, n_strips);
  for (guint s = 0; s < n_strips; s++)
    {
      const HydPlotStrip *st = &plan->strips[s];
      lay->strips[s].unit = st->unit;
      lay->strips[s].legend = g_ptr_array_new ();
      for (guint j = 0; j < st->traces->len; j++)
        g_ptr_array_add (lay->strips[s].legend,
                         g_ptr_array_index (self->traces, g_array_index (st->traces, guint, j)));
    }

  double avail = h - lay->title_h - BOTTOM_AXIS_HEIGHT;
  double legend_total = 0;
  for (guint s = 0; s < n_strips; s++)
    {
      lay->strips[s].legend_rows = legend_rows (cr, lay->strips[s].legend, plan->ghost_entry && s == 0,
                                                lay->plot_w_guess);
      legend_total += lay->strips[s].legend_rows * LEGEND_ROW_HEIGHT;
    }
  double strip_h = (avail - legend_total - STRIP_GAP * (n_strips - 1)) / n_strips;
  lay->legends_inside = FALSE;
  if (strip_h < MIN_STRIP_HEIGHT)
    {
      /* too small for legend rows above the strips (three units in a low
       * pane): the legends go inside the strips, over a translucent band,
       * rather than vanish */
      for (guint s = 0; s < n_strips; s++)
        lay->strips[s].legend_rows = 0;
      lay->legends_inside = TRUE;
      strip_h = (avail - STRIP_GAP * (n_strips - 1)) / n_strips;
    }
  double y = lay->title_h;
  for (guint s = 0; s < n_strips; s++)
    {
      lay->strips[s].legend_top = y;
      y += lay->strips[s].legend_rows * LEGEND_ROW_HEIGHT;
      lay->strips[s].top = y;
      lay->strips[s].bottom = y + MAX (strip_h, 4);
      y = lay->strips[s].bottom + STRIP_GAP;
    }
}

typedef struct {
  cairo_t *cr;
  double widest;
} TickMeasure;

static void
measure_tick (const char *label, gpointer data)
{
  TickMeasure *m = data;
  m->widest = MAX (m->widest, text_width (m->cr, label, FONT_PX));
}

/* The axes: each strip's y range and ticks for its height; the widest
 * tick label sets the left margin, the last time label the right one. */
static void
plot_axes (HydPlotView *self, cairo_t *cr, HydPlotPlan *plan, int w, PlotLayout *lay)
{
  TickMeasure m = { cr, 0 };
  for (guint s = 0; s < plan->n_strips; s++)
    {
      StripPlan *p = &lay->strips[s];
      HydPlotStrip *st = &plan->strips[s];
      const UnitRange *r = &self->ranges[st->unit];
      hyd_plot_plan_set_y_axis (plan, s, r->manual, r->lo, r->hi, MAX ((p->bottom - p->top) / Y_TICK_SPACING_PX, 2));
      p->lo = st->lo;
      p->hi = st->hi;
      p->step = st->step;
      hyd_plot_foreach_tick (st->lo, st->hi, &st->format, measure_tick, &m);
    }
  double left = Y_LABEL_WIDTH + m.widest + TICK_LABEL_PAD + 4;
  double right = w - MARGIN_RIGHT;
  lay->xstep = hyd_plot_nice_step (plan->x1 - plan->x0, MAX ((right - left) / X_TICK_SPACING_PX, 2));
  lay->xformat = hyd_plot_axis_format (plan->x0, plan->x1, lay->xstep);
  {
    /* room for half the last time label past the plot's right edge */
    g_autofree char *last_label = hyd_plot_format_tick (&lay->xformat, floor (plan->x1 / lay->xstep + 1e-9) * lay->xstep);
    right = w - MAX (MARGIN_RIGHT, text_width (cr, last_label, FONT_PX) / 2 + 6);
  }
  if (right - left < 20)
    left = MAX (right - 20, 0);
  lay->left = left;
  lay->right = right;
}

/* ------------------------------------------------------------- drawing -- */

/* One strip: grid, traces (ghosts under the run), marker lines, ticks and
 * their labels, the frame, the quantity label; the last one also gets the
 * time axis's labels. */
static void
plot_draw_strip (HydPlotView *self, cairo_t *cr, int w, int h, HydPlotPlan *plan, const PlotLayout *lay,
                 guint s, HydPlotAxisFormat *formats)
{
  double left = lay->left, right = lay->right, xstep = lay->xstep;
  double x0 = plan->x0, x1 = plan->x1;
  const StripPlan *p = &lay->strips[s];
  gboolean last = s == plan->n_strips - 1;
  plsstrm (self->stream);
  formats[1] = plan->strips[s].format;
  pl_viewport (w, h, left, right, p->top, p->bottom);
  plwind (x0, x1, p->lo, p->hi);

  /* grid, then the traces, then the frame on top */
  plcol0 (COL_GRID);
  plwidth (1.0);
  pllsty (1);
  plbox ("g", xstep, 0, "g", p->step, 0);

  /* ghosts first, under the current run */
  for (guint g = 2; g-- > 0;)
    for (guint i = 0; i < plan->n_traces; i++)
      {
        Trace *tr = g_ptr_array_index (self->traces, i);
        GArray *ax = plan->xs[2 * i + g], *ay = plan->ys[2 * i + g];
        if (plan->trace_strip[i] != s || ax->len == 0)
          continue;
        /* PLplot maps world to integer device coordinates: values far
         * outside a manual range are pulled in where the clipped line
         * looks the same */
        double span = p->hi - p->lo;
        double *py = (double *) ay->data;
        for (guint j = 0; j < ay->len; j++)
          if (!isnan (py[j]))
            py[j] = CLAMP (py[j], p->lo - FAR_OUTSIDE * span, p->hi + FAR_OUTSIDE * span);
        plcol0 ((g ? COL_GHOST0 : COL_TRACE0) + tr->colour);
        plwidth (TRACE_WIDTH);
        pl_polyline (self->stream, (const double *) ax->data, (const double *) ay->data, ax->len);
      }

  /* markers: dashed vertical lines */
  if (self->store)
    {
      plcol0 (COL_MARKER);
      plwidth (1.0);
      pllsty (2);
      for (guint m = 0; m < plan->markers->len; m++)
        {
          double t = g_array_index (plan->markers, double, m);
          PLFLT mx[2] = { t, t }, my[2] = { p->lo, p->hi };
          plline (2, mx, my);
        }
      pllsty (1);
    }

  /* PLplot writes tick labels only with the edge and the ticks they
   * belong to: those first, then the opaque frame over them */
  plwidth (1.0);
  plcol0 (COL_LABEL);
  plbox (last ? "bnto" : "", xstep, 0, "bntvo", p->step, 0);
  plcol0 (COL_BOX);
  plbox ("bcst", xstep, 0, "bcst", p->step, 0);

  plcol0 (COL_FG);
  g_autofree char *qlabel = quantity_label (p->unit);
  /* a short strip only has room for the unit */
  if (text_width (cr, qlabel, FONT_PX) > p->bottom - p->top)
    {
      g_free (qlabel);
      const char *sym = hyd_display_symbol (p->unit);
      qlabel = g_strdup (text_width (cr, sym, FONT_PX) <= p->bottom - p->top ? sym : "");
    }
  g_autofree char *ylabel = pl_escape (qlabel);
  /* the rotated label at a fixed pixel position, whatever the tick widths */
  plvpor (0.0, 1.0, 0.0, 1.0);
  plwind (0.0, w, 0.0, h);
  plptex (Y_LABEL_WIDTH / 2 + 5, h - (p->top + p->bottom) / 2, 0.0, 1.0, 0.5, ylabel);
  if (last)
    plptex (left + (right - left) / 2, h - (p->bottom + TIME_LABEL_OFFSET), 1.0, 0.0, 0.5, _("Time [s]"));
}

/* Axes, grid, traces, marker lines and axis labels: one PLplot session;
 * FALSE when PLplot has no stream to give. */
static gboolean
plot_draw_plplot (HydPlotView *self, cairo_t *cr, int w, int h, const Palette *pal, HydPlotPlan *plan,
                  const PlotLayout *lay)
{
  guint n_strips = plan->n_strips;
  double left = lay->left, right = lay->right;
  HydPlotAxisFormat formats[2] = { lay->xformat, { 0 } };

  plmkstrm (&self->stream);
  if (self->stream < 0)
    {
      g_warning ("PLplot has no free stream");
      return FALSE;
    }
  plsstrm (self->stream);
  plsdev ("extcairo");
  plspage (0, 0, w, h, 0, 0);
  plscmap0n (N_COLOURS);
  pl_colour (COL_BG, &pal->bg);
  pl_colour (COL_FG, &pal->fg);
  pl_colour (COL_BOX, &pal->box);
  pl_colour (COL_LABEL, &pal->label);
  pl_colour (COL_GRID, &pal->grid);
  pl_colour (COL_MARKER, &pal->marker);
  for (guint c = 0; c < N_TRACE_COLOURS; c++)
    {
      Rgba faded = pal->trace[c];
      faded.a = GHOST_ALPHA;
      pl_colour (COL_TRACE0 + c, &pal->trace[c]);
      pl_colour (COL_GHOST0 + c, &faded);
    }
  plinit ();
  cairo_save (cr);
  pl_cmd (PLESC_DEVINIT, cr);
  pladv (0);
  plschr (PLPLOT_CHAR_MM, 1.0);
  plslabelfunc (plplot_label_func, formats);

  if (self->title && self->title[0])
    {
      g_autofree char *title = pl_escape (self->title);
      plvpor (0.0, 1.0, 0.0, 1.0);
      plwind (0.0, w, 0.0, h);
      plcol0 (COL_FG);
      plschr (PLPLOT_CHAR_MM * TITLE_FONT_PX / FONT_PX, 1.0);
      plptex (left + (right - left) / 2, h - lay->title_h / 2 - 5, 1.0, 0.0, 0.5, title);
      plschr (PLPLOT_CHAR_MM, 1.0);
    }

  for (guint s = 0; s < n_strips; s++)
    plot_draw_strip (self, cr, w, h, plan, lay, s, formats);

  plsstrm (self->stream);
  plend1 ();
  self->stream = -1;
  cairo_restore (cr);
  return TRUE;
}

/* Cairo on top of PLplot: legends, marker labels, the empty-state hint. */
static void
plot_draw_cairo (HydPlotView *self, cairo_t *cr, const Palette *pal, const HydPlotPlan *plan,
                 const PlotLayout *lay)
{
  guint n_strips = plan->n_strips;
  double left = lay->left, right = lay->right;
  const StripPlan *strips = lay->strips;
  self->n_legends = 0;
  for (guint s = 0; s < n_strips; s++)
    if (strips[s].legend_rows > 0)
      {
        draw_legend (cr, pal, strips[s].legend, self->ghost != NULL && s == 0, left,
                     strips[s].legend_top, right - left);
        self->n_legends++;
      }
    else if (lay->legends_inside && strips[s].legend->len > 0)
      {
        /* one row at the strip's top, ellipsised to the plot's width */
        Rgba band = pal->bg;
        band.a = 0.6;
        set_source (cr, &band);
        cairo_rectangle (cr, left + 1, strips[s].top + 1, right - left - 2, MIN (LEGEND_ROW_HEIGHT, strips[s].bottom - strips[s].top - 2));
        cairo_fill (cr);
        cairo_save (cr);
        cairo_rectangle (cr, left, strips[s].top, right - left, strips[s].bottom - strips[s].top);
        cairo_clip (cr);
        draw_legend_row (cr, pal, strips[s].legend, self->ghost != NULL && s == 0, left + 4, strips[s].top, right - left - 8);
        cairo_restore (cr);
        self->n_legends++;
      }
  self->n_marker_labels = 0;
  if (self->store)
    draw_marker_labels (cr, pal, self->store, plan->x0, plan->x1, left, right, strips[0].top, strips[0].bottom,
                        &self->n_marker_labels);
  if (plan->n_traces == 0 || (self->store == NULL && self->ghost == NULL))
    {
      PangoLayout *layout = pango_cairo_create_layout (cr);
      set_pango_font (layout, FONT_PX);
      pango_layout_set_text (layout, plan->n_traces == 0 ? _("No traces: add one with the probe tool or the variable list")
                                                         : _("No run yet"), -1);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      pango_layout_set_width (layout, (int) ((right - left - 8) * PANGO_SCALE));
      int tw, th;
      pango_layout_get_pixel_size (layout, &tw, &th);
      set_source (cr, &pal->dim);
      cairo_move_to (cr, left + (right - left - tw) / 2, (strips[0].top + strips[n_strips - 1].bottom - th) / 2);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
    }
}

/* Render the whole plot into cr (logical size w × h): plan, decimate, lay
 * out, axes, then draw. */
static void
render_plot (HydPlotView *self, cairo_t *cr, int w, int h, const Palette *pal, double device_scale)
{
  /* background */
  cairo_save (cr);
  set_source (cr, &pal->bg);
  cairo_paint (cr);
  cairo_restore (cr);

  if (w < 40 || h < 40)
    return;

  g_autoptr(HydPlotPlan) plan = plot_plan (self);

  PlotLayout lay = { 0 };
  lay.title_h = self->title && self->title[0] ? TITLE_HEIGHT : MARGIN_TOP;
  double left_guess = 70;
  lay.plot_w_guess = MAX (w - left_guess - MARGIN_RIGHT, 10);
  plot_decimate (self, plan, (guint) MAX (lay.plot_w_guess * device_scale, 1));

  plot_layout_rows (self, cr, plan, h, &lay);
  plot_axes (self, cr, plan, w, &lay);

  /* remember the geometry for the cursor */
  self->plot_left = lay.left;
  self->plot_right = lay.right;
  self->x0 = plan->x0;
  self->x1 = plan->x1;
  g_array_set_size (self->strips, 0);
  for (guint s = 0; s < plan->n_strips; s++)
    {
      Strip st = { lay.strips[s].unit, lay.strips[s].top, lay.strips[s].bottom, lay.strips[s].lo, lay.strips[s].hi };
      g_array_append_val (self->strips, st);
    }

  if (plot_draw_plplot (self, cr, w, h, pal, plan, &lay))
    plot_draw_cairo (self, cr, pal, plan, &lay);
  plot_layout_clear (&lay, plan->n_strips);
}

/* ------------------------------------------------------- the widget side -- */

static const Palette *
current_palette (HydPlotView *self)
{
  return self->dark ? &dark_palette : &light_palette;
}

/* Dark when the theme's text colour is light. */
static gboolean
theme_is_dark (HydPlotView *self)
{
  GdkRGBA fg;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
}

static void
render_cache_at_size (HydPlotView *self, int w, int h)
{
  GtkWidget *widget = GTK_WIDGET (self);
  int scale = gtk_widget_get_scale_factor (widget);

  g_clear_handle_id (&self->render_source, g_source_remove);
  if (w <= 0 || h <= 0)
    {
      self->dirty = TRUE;
      return;
    }
  self->dark = theme_is_dark (self);

  if (self->cache == NULL || w != self->cache_width || h != self->cache_height || scale != self->cache_scale)
    {
      g_clear_pointer (&self->cache, cairo_surface_destroy);
      self->cache = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w * scale, h * scale);
      cairo_surface_set_device_scale (self->cache, scale, scale);
      self->cache_width = w;
      self->cache_height = h;
      self->cache_scale = scale;
    }

  cairo_t *cr = cairo_create (self->cache);
  if (plplot_available)
    render_plot (self, cr, w, h, current_palette (self), scale);
  else
    {
      set_source (cr, &current_palette (self)->bg);
      cairo_paint (cr);
      PangoLayout *layout = pango_cairo_create_layout (cr);
      set_pango_font (layout, FONT_PX);
      pango_layout_set_width (layout, (w - 20) * PANGO_SCALE);
      pango_layout_set_wrap (layout, PANGO_WRAP_WORD);
      pango_layout_set_text (layout, _("Plots are unavailable: PLplot's cairo driver (package "
                                       "plplot-driver-cairo) is not installed."), -1);
      set_source (cr, &current_palette (self)->fg);
      cairo_move_to (cr, 10, 10);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
    }
  cairo_destroy (cr);
  cairo_surface_flush (self->cache);

  g_autoptr(GBytes) bytes = g_bytes_new (cairo_image_surface_get_data (self->cache),
                                         (gsize) cairo_image_surface_get_stride (self->cache) * h * scale);
  g_clear_object (&self->texture);
  self->texture = gdk_memory_texture_new (w * scale, h * scale, GDK_MEMORY_DEFAULT, bytes,
                                          cairo_image_surface_get_stride (self->cache));
  self->dirty = FALSE;
  self->last_render_us = g_get_monotonic_time ();
  gtk_widget_queue_draw (widget);
}

static void
render_cache (HydPlotView *self)
{
  render_cache_at_size (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)));
}

static gboolean
render_timeout_cb (gpointer data)
{
  HydPlotView *self = data;
  self->render_source = 0;
  render_cache (self);
  return G_SOURCE_REMOVE;
}

/* Re-render soon: at once if the last render is older than a frame at
 * 30 fps, else when that frame is due. */
static void
schedule_render (HydPlotView *self)
{
  self->dirty = TRUE;
  if (self->render_source != 0 || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  gint64 wait_us = self->last_render_us + RENDER_INTERVAL_US - g_get_monotonic_time ();
  guint wait_ms = wait_us > 0 ? (guint) (wait_us / 1000) : 0;
  self->render_source = g_timeout_add_full (G_PRIORITY_DEFAULT_IDLE - 10, wait_ms, render_timeout_cb, self, NULL);
  g_source_set_name_by_id (self->render_source, "[hyd-plot-view] render");
}

/* New rows of a streaming run: re-render on the live beat shared with the
 * canvas (hyd_ui_live_beat_add), so every pane and the schematic change in
 * one frame, a few times a second, however often rows arrive. */
static void
schedule_live_render (HydPlotView *self)
{
  self->dirty = TRUE;
  if (self->render_source != 0 || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  self->render_source = hyd_ui_live_beat_add (HYD_UI_LIVE_PLOT_US, render_timeout_cb, self);
  g_source_set_name_by_id (self->render_source, "[hyd-plot-view] live render");
}

static void
store_appended_cb (HydTraceStore *store, guint first, guint n, HydPlotView *self)
{
  schedule_live_render (self);
}

static void
store_marker_cb (HydTraceStore *store, guint index, HydPlotView *self)
{
  schedule_render (self);
}

static void
hyd_plot_view_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  HydPlotView *self = HYD_PLOT_VIEW (widget);
  if (width != self->cache_width || height != self->cache_height
      || gtk_widget_get_scale_factor (widget) != self->cache_scale || self->dirty)
    render_cache_at_size (self, width, height);
}

static void
hyd_plot_view_map (GtkWidget *widget)
{
  HydPlotView *self = HYD_PLOT_VIEW (widget);
  GTK_WIDGET_CLASS (hyd_plot_view_parent_class)->map (widget);
  if (self->dirty)
    schedule_render (self);
}

static void
hyd_plot_view_css_changed (GtkWidget *widget, GtkCssStyleChange *change)
{
  HydPlotView *self = HYD_PLOT_VIEW (widget);
  GTK_WIDGET_CLASS (hyd_plot_view_parent_class)->css_changed (widget, change);
  if (self->texture && theme_is_dark (self) != self->dark)
    schedule_render (self);
}

static void
hyd_plot_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                       int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 160 : 120;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 640 : 320;
}

static void
draw_cursor (HydPlotView *self, cairo_t *cr)
{
  const Palette *pal = current_palette (self);
  if (self->strips->len == 0 || !(self->plot_right > self->plot_left))
    return;
  double top = g_array_index (self->strips, Strip, 0).top;
  double bottom = g_array_index (self->strips, Strip, self->strips->len - 1).bottom;
  double cx = self->cursor_x;
  if (cx < self->plot_left || cx > self->plot_right || self->cursor_y < top || self->cursor_y > bottom)
    return;
  double t = self->x0 + (cx - self->plot_left) / (self->plot_right - self->plot_left) * (self->x1 - self->x0);

  cairo_save (cr);
  Rgba line = pal->fg;
  line.a = 0.6;
  set_source (cr, &line);
  cairo_set_line_width (cr, 1.0);
  cairo_move_to (cr, floor (cx) + 0.5, top);
  cairo_line_to (cr, floor (cx) + 0.5, bottom);
  cairo_stroke (cr);

  /* a dot where the line crosses each trace */
  for (guint i = 0; i < self->traces->len; i++)
    {
      Trace *tr = g_ptr_array_index (self->traces, i);
      int k = self->store ? hyd_trace_store_find (self->store, tr->name) : -1;
      HydUnit u = trace_unit (self, tr->name);
      double v = k > 0 ? hyd_display_from_si (u, hyd_plot_value_at (self->store, k, t)) : NAN;
      for (guint s = 0; s < self->strips->len && isfinite (v); s++)
        {
          const Strip *st = &g_array_index (self->strips, Strip, s);
          if (st->unit != u || !(st->hi > st->lo) || v < st->lo || v > st->hi)
            continue;
          double py = st->bottom - (v - st->lo) / (st->hi - st->lo) * (st->bottom - st->top);
          cairo_new_sub_path (cr);
          cairo_arc (cr, cx, py, 3.5, 0, 2 * G_PI);
          set_source (cr, &pal->trace[tr->colour]);
          cairo_fill_preserve (cr);
          set_source (cr, &pal->bg);
          cairo_set_line_width (cr, 1.0);
          cairo_stroke (cr);
        }
    }

  /* the read-out: time, then every trace's value in its display unit */
  PangoLayout *layout = pango_cairo_create_layout (cr);
  set_pango_font (layout, FONT_PX);
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *tval = hyd_display_format_number (t, 4);
  g_ptr_array_add (lines, g_strdup_printf ("t = %s s", tval));
  for (guint i = 0; i < self->traces->len; i++)
    {
      Trace *tr = g_ptr_array_index (self->traces, i);
      int k = self->store ? hyd_trace_store_find (self->store, tr->name) : -1;
      HydUnit u = trace_unit (self, tr->name);
      double v = k > 0 ? hyd_plot_value_at (self->store, k, t) : NAN;
      g_autofree char *val = hyd_display_format (u, v);
      g_ptr_array_add (lines, g_strdup_printf ("%s  %s", tr->name, val));
    }
  double box_w = 0, line_h = FONT_PX + 5;
  for (guint i = 0; i < lines->len; i++)
    {
      pango_layout_set_text (layout, g_ptr_array_index (lines, i), -1);
      int tw, th;
      pango_layout_get_pixel_size (layout, &tw, &th);
      box_w = MAX (box_w, tw + (i ? 16 : 0));
    }
  box_w += 14;
  double box_h = lines->len * line_h + 8;
  /* the corner away from the cursor */
  double bx = cx < (self->plot_left + self->plot_right) / 2 ? self->plot_right - box_w - 6 : self->plot_left + 6;
  double by = top + 6;
  Rgba bg = pal->bg;
  bg.a = 0.9;
  set_source (cr, &bg);
  cairo_rectangle (cr, bx, by, box_w, box_h);
  cairo_fill_preserve (cr);
  set_source (cr, &pal->box);
  cairo_set_line_width (cr, 1.0);
  cairo_stroke (cr);
  for (guint i = 0; i < lines->len; i++)
    {
      double ly = by + 4 + i * line_h;
      double lx = bx + 7;
      if (i > 0)
        {
          Trace *tr = g_ptr_array_index (self->traces, i - 1);
          set_source (cr, &pal->trace[tr->colour]);
          cairo_rectangle (cr, lx, ly + line_h / 2 - 4, 10, 3);
          cairo_fill (cr);
          lx += 16;
        }
      set_source (cr, &pal->fg);
      pango_layout_set_text (layout, g_ptr_array_index (lines, i), -1);
      cairo_move_to (cr, lx, ly);
      pango_cairo_show_layout (cr, layout);
    }
  g_ptr_array_unref (lines);
  g_object_unref (layout);
  cairo_restore (cr);
}

/* The replay cursor: a line at the replayed time across every strip. */
static void
draw_replay_cursor (HydPlotView *self, cairo_t *cr)
{
  double cx;
  if (self->strips->len == 0
      || !hyd_plot_time_to_x (self->replay_t, self->x0, self->x1, self->plot_left, self->plot_right, &cx))
    return;
  double top = g_array_index (self->strips, Strip, 0).top;
  double bottom = g_array_index (self->strips, Strip, self->strips->len - 1).bottom;
  const Palette *pal = current_palette (self);
  Rgba line = pal->marker;
  line.a = 0.9;
  set_source (cr, &line);
  cairo_set_line_width (cr, 2.0);
  cairo_move_to (cr, round (cx), top);
  cairo_line_to (cr, round (cx), bottom);
  cairo_stroke (cr);
}

static void
hyd_plot_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  HydPlotView *self = HYD_PLOT_VIEW (widget);
  int w = gtk_widget_get_width (widget);
  int h = gtk_widget_get_height (widget);
  if (self->texture == NULL || w <= 0 || h <= 0)
    return;
  /* the cache as it is (stretched for a frame while a resize renders) */
  gtk_snapshot_append_texture (snapshot, self->texture,
                               &GRAPHENE_RECT_INIT (0, 0, self->cache_width, self->cache_height));
  if (isfinite (self->replay_t))
    {
      cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
      draw_replay_cursor (self, cr);
      cairo_destroy (cr);
    }
  if (self->cursor_inside)
    {
      cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
      draw_cursor (self, cr);
      cairo_destroy (cr);
    }
}

static void
motion_cb (GtkEventControllerMotion *controller, double x, double y, HydPlotView *self)
{
  self->cursor_inside = TRUE;
  self->cursor_x = x;
  self->cursor_y = y;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
leave_cb (GtkEventControllerMotion *controller, HydPlotView *self)
{
  self->cursor_inside = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
disconnect_store (HydPlotView *self)
{
  if (self->store)
    {
      g_clear_signal_handler (&self->store_appended_id, self->store);
      g_clear_signal_handler (&self->store_marker_id, self->store);
    }
  g_clear_object (&self->store);
}

static void
hyd_plot_view_dispose (GObject *object)
{
  HydPlotView *self = HYD_PLOT_VIEW (object);
  g_clear_handle_id (&self->render_source, g_source_remove);
  disconnect_store (self);
  g_clear_object (&self->ghost);
  g_clear_object (&self->texture);
  g_clear_pointer (&self->cache, cairo_surface_destroy);
  G_OBJECT_CLASS (hyd_plot_view_parent_class)->dispose (object);
}

static void
hyd_plot_view_finalize (GObject *object)
{
  HydPlotView *self = HYD_PLOT_VIEW (object);
  g_free (self->title);
  g_clear_pointer (&self->known_units, g_hash_table_unref);
  g_ptr_array_unref (self->traces);
  g_array_unref (self->strips);
  G_OBJECT_CLASS (hyd_plot_view_parent_class)->finalize (object);
}

static void
hyd_plot_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  HydPlotView *self = HYD_PLOT_VIEW (object);
  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;
    case PROP_GHOST:
      g_value_set_object (value, self->ghost);
      break;
    case PROP_AUTOSCALE:
      g_value_set_boolean (value, self->autoscale);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hyd_plot_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  HydPlotView *self = HYD_PLOT_VIEW (object);
  switch (prop_id)
    {
    case PROP_TITLE:
      hyd_plot_view_set_title (self, g_value_get_string (value));
      break;
    case PROP_STORE:
      hyd_plot_view_set_store (self, g_value_get_object (value));
      break;
    case PROP_GHOST:
      hyd_plot_view_set_ghost (self, g_value_get_object (value));
      break;
    case PROP_AUTOSCALE:
      hyd_plot_view_set_autoscale (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Is PLplot's extcairo device there? Without it plsdev would prompt on stdin. */
static gboolean
check_extcairo (void)
{
  enum { MAX_DEVICES = 128 };
  const char *menu_storage[MAX_DEVICES], *device_storage[MAX_DEVICES];
  const char **menu = menu_storage, **devices = device_storage;
  int n = MAX_DEVICES;
  plgDevs (&menu, &devices, &n);
  for (int i = 0; i < n; i++)
    if (g_strcmp0 (devices[i], "extcairo") == 0)
      return TRUE;
  g_warning ("PLplot's extcairo device is missing (install plplot-driver-cairo); plots are disabled");
  return FALSE;
}

static void
hyd_plot_view_class_init (HydPlotViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hyd_plot_view_dispose;
  object_class->finalize = hyd_plot_view_finalize;
  object_class->get_property = hyd_plot_view_get_property;
  object_class->set_property = hyd_plot_view_set_property;

  widget_class->snapshot = hyd_plot_view_snapshot;
  widget_class->size_allocate = hyd_plot_view_size_allocate;
  widget_class->measure = hyd_plot_view_measure;
  widget_class->map = hyd_plot_view_map;
  widget_class->css_changed = hyd_plot_view_css_changed;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL, HYD_TYPE_TRACE_STORE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_GHOST] =
    g_param_spec_object ("ghost", NULL, NULL, HYD_TYPE_TRACE_STORE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_AUTOSCALE] =
    g_param_spec_boolean ("autoscale", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "plotview");

  plsabort (plplot_abort_handler);
  plplot_available = check_extcairo ();
}

static void
hyd_plot_view_init (HydPlotView *self)
{
  self->traces = g_ptr_array_new_with_free_func (trace_free);
  self->strips = g_array_new (FALSE, FALSE, sizeof (Strip));
  self->autoscale = TRUE;
  self->dirty = TRUE;
  self->replay_t = NAN;
  self->stream = -1;

  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "enter", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
}

/* ------------------------------------------------------------ public API -- */

/* Forget the traces' decimations of the current run (0) or the ghost (1),
 * and the references they hold on the store. */
static void
drop_envelopes (HydPlotView *self, guint which)
{
  for (guint i = 0; i < self->traces->len; i++)
    hyd_plot_envelope_clear (&((Trace *) g_ptr_array_index (self->traces, i))->envelopes[which]);
}

GtkWidget *
hyd_plot_view_new (void)
{
  return g_object_new (HYD_TYPE_PLOT_VIEW, NULL);
}

void
hyd_plot_view_set_title (HydPlotView *self, const char *title)
{
  g_return_if_fail (HYD_IS_PLOT_VIEW (self));
  if (g_strcmp0 (self->title, title) == 0)
    return;
  g_free (self->title);
  self->title = g_strdup (title);
  schedule_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

const char *
hyd_plot_view_get_title (HydPlotView *self)
{
  g_return_val_if_fail (HYD_IS_PLOT_VIEW (self), NULL);
  return self->title;
}

void
hyd_plot_view_set_store (HydPlotView *self, HydTraceStore *store)
{
  g_return_if_fail (HYD_IS_PLOT_VIEW (self));
  g_return_if_fail (store == NULL || HYD_IS_TRACE_STORE (store));
  if (self->store == store)
    return;
  disconnect_store (self);
  drop_envelopes (self, 0);
  if (store)
    {
      self->store = g_object_ref (store);
      self->store_appended_id = g_signal_connect (store, "appended", G_CALLBACK (store_appended_cb), self);
      self->store_marker_id = g_signal_connect (store, "marker-added", G_CALLBACK (store_marker_cb), self);
    }
  schedule_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STORE]);
}

void
hyd_plot_view_set_variable_units (HydPlotView *self, const char *const *names, const HydUnit *units)
{
  g_return_if_fail (HYD_IS_PLOT_VIEW (self));
  g_clear_pointer (&self->known_units, g_hash_table_unref);
  if (names != NULL && units != NULL)
    {
      self->known_units = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      for (guint i = 0; names[i]; i++)
        g_hash_table_insert (self->known_units, g_strdup (names[i]), GINT_TO_POINTER ((int) units[i] + 1));
    }
  schedule_render (self);
}

HydTraceStore *
hyd_plot_view_get_store (HydPlotView *self)
{
  g_return_val_if_fail (HYD_IS_PLOT_VIEW (self), NULL);
  return self->store;
}

void
hyd_plot_view_set_ghost (HydPlotView *self, HydTraceStore *ghost)
{
  g_return_if_fail (HYD_IS_PLOT_VIEW (self));
  g_return_if_fail (ghost == NULL || HYD_IS_TRACE_STORE (ghost));
  if (g_set_object (&self->ghost, ghost))
    {
      drop_envelopes (self, 1);
      schedule_render (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GHOST]);
    }
}

void
hyd_plot_view_add_trace (HydPlotView *self, const char *name)
{
  g_return_if_fail (HYD_IS_PLOT_VIEW (self));
  g_return_if_fail (name != NULL);
  if (trace_index (self, name) >= 0)
    return;

  /* the first colour no other trace uses */
  guint colour = 0;
  for (; colour < N_TRACE_COLOURS; colour++)
    {
      gboolean used = FALSE;
      for (guint i = 0; i < self->traces->len && !used; i++)
        used = ((Trace *) g_ptr_array_index (self->traces, i))->colour == colour;
      if (!used)
        break;
    }
  Trace *tr = g_new0 (Trace, 1);
  tr->name = g_strdup (name);
  tr->colour = colour % N_TRACE_COLOURS;
  tr->envelopes = g_new0 (HydPlotEnvelope, 2);
  g_ptr_array_add (self->traces, tr);

  if (self->traces->len == 1 && self->pending_range.manual)
    {
      self->ranges[trace_unit (self, name)] = self->pending_range;
      self->pending_range.manual = FALSE;
    }
  schedule_render (self);
}

void
hyd_plot_view_remove_trace (HydPlotView *self, const char *name)
{
  g_return_if_fail (HYD_IS_PLOT_VIEW (self));
  int i = trace_index (self, name);
  if (i < 0)
    return;
  g_ptr_array_remove_index (self->traces, (guint) i);
  schedule_render (self);
}

GStrv
hyd_plot_view_get_traces (HydPlotView *self)
{
  g_return_val_if_fail (HYD_IS_PLOT_VIEW (self), NULL);
  GStrv names = g_new0 (char *, self->traces->len + 1);
  for (guint i = 0; i < self->traces->len; i++)
    names[i] = g_strdup (((Trace *) g_ptr_array_index (self->traces, i))->name);
  return names;
}

void
hyd_plot_view_set_autoscale (HydPlotView *self, gboolean autoscale)
{
  g_return_if_fail (HYD_IS_PLOT_VIEW (self));
  autoscale = !!autoscale;
  if (autoscale)
    {
      for (guint u = 0; u < HYD_UNIT_N_KINDS; u++)
        self->ranges[u].manual = FALSE;
      self->pending_range.manual = FALSE;
    }
  else
    {
      /* hold the ranges shown now */
      for (guint s = 0; s < self->strips->len; s++)
        {
          const Strip *st = &g_array_index (self->strips, Strip, s);
          if (!self->ranges[st->unit].manual)
            self->ranges[st->unit] = (UnitRange) { TRUE, st->lo, st->hi };
        }
    }
  if (self->autoscale != autoscale)
    {
      self->autoscale = autoscale;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AUTOSCALE]);
    }
  schedule_render (self);
}

gboolean
hyd_plot_view_get_autoscale (HydPlotView *self)
{
  g_return_val_if_fail (HYD_IS_PLOT_VIEW (self), TRUE);
  return self->autoscale;
}

void
hyd_plot_view_set_unit_y_range (HydPlotView *self, HydUnit unit, double ymin, double ymax)
{
  g_return_if_fail (HYD_IS_PLOT_VIEW (self));
  g_return_if_fail ((guint) unit < HYD_UNIT_N_KINDS);
  g_return_if_fail (isfinite (ymin) && isfinite (ymax));
  hyd_plot_valid_range (&ymin, &ymax);
  self->ranges[unit] = (UnitRange) { TRUE, ymin, ymax };
  if (self->autoscale)
    {
      self->autoscale = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AUTOSCALE]);
    }
  schedule_render (self);
}

void
hyd_plot_view_set_y_range (HydPlotView *self, double ymin, double ymax)
{
  g_return_if_fail (HYD_IS_PLOT_VIEW (self));
  g_return_if_fail (isfinite (ymin) && isfinite (ymax));
  if (self->traces->len == 0)
    {
      hyd_plot_valid_range (&ymin, &ymax);
      self->pending_range = (UnitRange) { TRUE, ymin, ymax };
      if (self->autoscale)
        {
          self->autoscale = FALSE;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AUTOSCALE]);
        }
      return;
    }
  HydUnit primary = trace_unit (self, ((Trace *) g_ptr_array_index (self->traces, 0))->name);
  hyd_plot_view_set_unit_y_range (self, primary, ymin, ymax);
}

gboolean
hyd_plot_view_get_y_range (HydPlotView *self, HydUnit unit, double *ymin, double *ymax)
{
  g_return_val_if_fail (HYD_IS_PLOT_VIEW (self), FALSE);
  for (guint s = 0; s < self->strips->len; s++)
    {
      const Strip *st = &g_array_index (self->strips, Strip, s);
      if (st->unit == unit)
        {
          if (ymin)
            *ymin = st->lo;
          if (ymax)
            *ymax = st->hi;
          return TRUE;
        }
    }
  return FALSE;
}

static cairo_status_t
append_bytes (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

/* Draw the plot for a file, always in the light palette (printable). The
 * file is made in memory and written as a circuit is saved
 * (hyd_file_replace_contents): never seen half-written, and a failed
 * export keeps the old file. */
static gboolean
export_to_surface (HydPlotView *self, const char *path, const char *ext, int w, int h, GError **error)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  cairo_surface_t *surface;
  if (g_ascii_strcasecmp (ext, "png") == 0)
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  else if (g_ascii_strcasecmp (ext, "svg") == 0)
    surface = cairo_svg_surface_create_for_stream (append_bytes, bytes, w, h);
  else
    surface = cairo_pdf_surface_create_for_stream (append_bytes, bytes, w, h);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      g_autofree char *display = g_filename_display_name (path);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot write “%s”: %s"), display,
                   cairo_status_to_string (cairo_surface_status (surface)));
      cairo_surface_destroy (surface);
      return FALSE;
    }

  /* the geometry kept for the cursor belongs to the widget's own render, if
   * there is one (a view never shown keeps the export's) */
  g_autoptr(GArray) strips = g_array_copy (self->strips);
  double saved[4] = { self->plot_left, self->plot_right, self->x0, self->x1 };

  cairo_t *cr = cairo_create (surface);
  if (plplot_available)
    render_plot (self, cr, w, h, &light_palette, 1.0);
  cairo_status_t status = cairo_status (cr);
  cairo_destroy (cr);

  if (self->texture != NULL)
    {
      g_array_set_size (self->strips, 0);
      g_array_append_vals (self->strips, strips->data, strips->len);
      self->plot_left = saved[0];
      self->plot_right = saved[1];
      self->x0 = saved[2];
      self->x1 = saved[3];
    }

  if (status == CAIRO_STATUS_SUCCESS && g_ascii_strcasecmp (ext, "png") == 0)
    status = cairo_surface_write_to_png_stream (surface, append_bytes, bytes);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_autofree char *display = g_filename_display_name (path);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot write “%s”: %s"), display,
                   cairo_status_to_string (status));
      return FALSE;
    }
  if (!plplot_available)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("PLplot’s cairo driver (plplot-driver-cairo) is not installed"));
      return FALSE;
    }
  g_autoptr(GError) inner = NULL;
  if (!hyd_file_replace_contents (path, (const char *) bytes->data, bytes->len, 0, &inner))
    {
      int errsv = errno;
      g_autofree char *display = g_filename_display_name (path);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv), _("Cannot write “%s”: %s"), display,
                   g_strerror (errsv));
      return FALSE;
    }
  return TRUE;
}

gboolean
hyd_plot_view_export_with_size (HydPlotView *self, const char *path, int width, int height, GError **error)
{
  g_return_val_if_fail (HYD_IS_PLOT_VIEW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  const char *dot = strrchr (path, '.');
  const char *ext = dot && !strchr (dot, G_DIR_SEPARATOR) ? dot + 1 : "";

  if (g_ascii_strcasecmp (ext, "csv") == 0)
    {
      HydTraceStore *store = self->store ? self->store : self->ghost;
      if (store == NULL)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("There is no run to export"));
          return FALSE;
        }
      /* the traces this store has, t first */
      g_autoptr(GPtrArray) names = g_ptr_array_new ();
      for (guint i = 0; i < self->traces->len; i++)
        {
          const char *name = ((Trace *) g_ptr_array_index (self->traces, i))->name;
          if (hyd_trace_store_find (store, name) > 0)
            g_ptr_array_add (names, (gpointer) name);
        }
      g_ptr_array_add (names, NULL);
      return hyd_trace_store_write_csv (store, (const char *const *) names->pdata, path, error);
    }

  if (g_ascii_strcasecmp (ext, "png") != 0 && g_ascii_strcasecmp (ext, "svg") != 0
      && g_ascii_strcasecmp (ext, "pdf") != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Cannot export to “%s”: use .png, .svg, .pdf or .csv"), ext);
      return FALSE;
    }
  if (width <= 0 || height <= 0)
    {
      width = EXPORT_WIDTH;
      height = EXPORT_HEIGHT;
    }
  return export_to_surface (self, path, ext, width, height, error);
}

gboolean
hyd_plot_view_export (HydPlotView *self, const char *path, GError **error)
{
  g_return_val_if_fail (HYD_IS_PLOT_VIEW (self), FALSE);
  int w = gtk_widget_get_width (GTK_WIDGET (self));
  int h = gtk_widget_get_height (GTK_WIDGET (self));
  if (w < 200 || h < 150)
    w = h = 0;
  return hyd_plot_view_export_with_size (self, path, w, h, error);
}

void
hyd_plot_view_set_replay_time (HydPlotView *self, double t)
{
  g_return_if_fail (HYD_IS_PLOT_VIEW (self));
  if (self->replay_t == t || (isnan (self->replay_t) && isnan (t)))
    return;
  self->replay_t = t;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
hyd_plot_view_get_replay_time (HydPlotView *self)
{
  g_return_val_if_fail (HYD_IS_PLOT_VIEW (self), NAN);
  return self->replay_t;
}

void
hyd_plot_view_get_render_info (HydPlotView *self, double *t0, double *t1, guint *n_legends, guint *n_marker_labels)
{
  g_return_if_fail (HYD_IS_PLOT_VIEW (self));
  if (t0)
    *t0 = self->x0;
  if (t1)
    *t1 = self->x1;
  if (n_legends)
    *n_legends = self->n_legends;
  if (n_marker_labels)
    *n_marker_labels = self->n_marker_labels;
}
