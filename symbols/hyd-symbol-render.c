/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-symbol-render.c — one walk over a symbol's elements serves four uses:
 * drawing, the selection halo, extents and hit testing. Paths are built in
 * the symbol's frame (M) and stroked in device space, so line widths and
 * dashes do not scale with a group's rotation or the pose's mirror, and the
 * widths can be clamped and snapped to device pixels. */
#include "hyd-symbol-render.h"
#include "hyd-symbol-private.h"
#include "hyd-units.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Styles and colours
 * ------------------------------------------------------------------------- */

static HydRgba
rgb_hex (guint32 hex, double alpha)
{
  HydRgba c = { ((hex >> 16) & 0xff) / 255.0, ((hex >> 8) & 0xff) / 255.0, (hex & 0xff) / 255.0, alpha };
  return c;
}

void
hyd_symbol_style_init_light (HydSymbolStyle *style)
{
  memset (style, 0, sizeof *style);
  style->background = rgb_hex (0xffffff, 1);
  style->fill = rgb_hex (0xffffff, 1);
  style->line = rgb_hex (0x1c1c1c, 1);
  style->text = rgb_hex (0x1c1c1c, 1);
  style->label = rgb_hex (0x2a4a78, 1);
  style->highlight = rgb_hex (0xf6d32d, 1);
  style->selection = rgb_hex (0x3584e4, 0.45);
  style->hover = rgb_hex (0x3584e4, 0.22);
  style->port_free = rgb_hex (0xc01c28, 1);
  style->port_connected = rgb_hex (0x1c1c1c, 1);
  style->port_incompatible = rgb_hex (0xc01c28, 1);
  style->signal = rgb_hex (0x0000bb, 1);
  /* the guide's colour-blind-safe ends (§3.2) */
  style->pressure_low = rgb_hex (0x2166ac, 1);
  style->pressure_high = rgb_hex (0xb2182b, 1);
  style->cavitation = rgb_hex (0xc000c0, 1);
  style->pressure_min = 0;
  style->pressure_max = 2e7;
  style->cavitation_pressure = -0.9e5;
  style->line_width = 0.15;
  style->min_line_width = 1.0;
  style->junction_diameter = 0.75;
  style->halo_width = 0.3;
  style->port_text_size = 1.0;
  style->label_text_size = 1.2;
  style->font_family = "Sans";
  style->snap = TRUE;
  style->level_of_detail = TRUE;
  style->port_labels = HYD_PORT_LABELS_AUTO;
  style->current = rgb_hex (0xe01b24, 1);
}

void
hyd_symbol_style_init_dark (HydSymbolStyle *style)
{
  hyd_symbol_style_init_light (style);
  style->background = rgb_hex (0x1e1e1e, 1);
  style->fill = rgb_hex (0x1e1e1e, 1);
  style->line = rgb_hex (0xe8e8e8, 1);
  style->text = rgb_hex (0xe8e8e8, 1);
  style->label = rgb_hex (0x99c1f1, 1);
  style->highlight = rgb_hex (0xc88800, 1);
  style->selection = rgb_hex (0x62a0ea, 0.5);
  style->hover = rgb_hex (0x62a0ea, 0.25);
  style->port_free = rgb_hex (0xff7b63, 1);
  style->port_connected = rgb_hex (0xe8e8e8, 1);
  style->port_incompatible = rgb_hex (0xff7b63, 1);
  style->signal = rgb_hex (0x8fa8ff, 1);
  /* lighter ends of the same diverging ramp read better on a dark page */
  style->pressure_low = rgb_hex (0x4393c3, 1);
  style->pressure_high = rgb_hex (0xe0604d, 1);
  style->cavitation = rgb_hex (0xff55ff, 1);
  style->current = rgb_hex (0xff5a5a, 1);
}

void
hyd_symbol_style_init_print (HydSymbolStyle *style)
{
  hyd_symbol_style_init_light (style);
  style->line = rgb_hex (0x000000, 1);
  style->text = rgb_hex (0x000000, 1);
  style->line_width = 0.1;
  style->junction_diameter = 0.5;
  style->snap = FALSE;
  style->level_of_detail = FALSE;
}

void
hyd_rgba_set_source (cairo_t *cr, const HydRgba *c)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, c->a);
}

static double
srgb_to_linear (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static double
linear_to_srgb (double c)
{
  c = CLAMP (c, 0.0, 1.0);
  return c <= 0.0031308 ? 12.92 * c : 1.055 * pow (c, 1 / 2.4) - 0.055;
}

/* Björn Ottosson's Oklab: perceptually even steps along the ramp. */
static void
rgb_to_oklab (const HydRgba *c, double lab[3])
{
  double r = srgb_to_linear (c->r), g = srgb_to_linear (c->g), b = srgb_to_linear (c->b);
  double l = cbrt (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  double m = cbrt (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  double s = cbrt (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  lab[0] = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s;
  lab[1] = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s;
  lab[2] = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s;
}

static void
oklab_to_rgb (const double lab[3], HydRgba *c)
{
  double l = lab[0] + 0.3963377774 * lab[1] + 0.2158037573 * lab[2];
  double m = lab[0] - 0.1055613458 * lab[1] - 0.0638541728 * lab[2];
  double s = lab[0] - 0.0894841775 * lab[1] - 1.2914855480 * lab[2];
  l = l * l * l, m = m * m * m, s = s * s * s;
  c->r = linear_to_srgb (4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s);
  c->g = linear_to_srgb (-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s);
  c->b = linear_to_srgb (-0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s);
  c->a = 1;
}

void
hyd_symbol_style_pressure_colour (const HydSymbolStyle *style, double p, HydRgba *colour)
{
  if (isnan (p))
    {
      *colour = style->line;
      return;
    }
  if (p < style->cavitation_pressure)
    {
      *colour = style->cavitation;
      return;
    }
  double span = style->pressure_max - style->pressure_min;
  double t = span > 0 ? (p - style->pressure_min) / span : 1.0;
  t = CLAMP (t, 0.0, 1.0);
  double a[3], b[3], m[3];
  rgb_to_oklab (&style->pressure_low, a);
  rgb_to_oklab (&style->pressure_high, b);
  for (int i = 0; i < 3; i++)
    m[i] = a[i] + t * (b[i] - a[i]);
  oklab_to_rgb (m, colour);
}

/* ---------------------------------------------------------------------------
 * Text
 * ------------------------------------------------------------------------- */

/* Unhinted outlines: text then scales evenly with the zoom and looks the same
 * in PNG, SVG and PDF (and golden images do not depend on hinting). */
static void
set_font (cairo_t *cr, const HydSymbolStyle *style, double size_dev, gboolean bold)
{
  cairo_select_font_face (cr, style->font_family ? style->font_family : "Sans", CAIRO_FONT_SLANT_NORMAL,
                          bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, size_dev);
  cairo_font_options_t *fo = cairo_font_options_create ();
  cairo_font_options_set_hint_style (fo, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_hint_metrics (fo, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_antialias (fo, CAIRO_ANTIALIAS_GRAY);
  cairo_set_font_options (cr, fo);
  cairo_font_options_destroy (fo);
}

/* Box of a text in device units: advance width and the cap height. */
static void
text_box (cairo_t *cr, const char *text, double *width, double *cap)
{
  cairo_text_extents_t te, he;
  cairo_text_extents (cr, text, &te);
  cairo_text_extents (cr, "H", &he);
  *width = te.x_advance;
  *cap = -he.y_bearing;
}

/* Text with its box's (halign, valign) fraction at a device point. The box
 * is the advance width by the cap height, so letters line up whatever their
 * descenders. */
static void
device_text (cairo_t *cr, const HydSymbolStyle *style, double dx, double dy, const char *text, double size_dev,
             gboolean bold, double halign, double valign, const HydRgba *colour, gboolean path_only)
{
  cairo_save (cr);
  cairo_identity_matrix (cr);
  set_font (cr, style, size_dev, bold);
  double w, cap;
  text_box (cr, text, &w, &cap);
  double x = dx - halign * w;
  double y = dy - valign * cap + cap;
  if (path_only)
    {
      cairo_rectangle (cr, x, y - cap, w, cap * 1.3);
    }
  else
    {
      hyd_rgba_set_source (cr, colour);
      cairo_move_to (cr, x, y);
      cairo_show_text (cr, text);
      cairo_new_path (cr);
    }
  cairo_restore (cr);
}

double
hyd_symbol_device_scale (cairo_t *cr)
{
  double dx = 1, dy = 0;
  cairo_user_to_device_distance (cr, &dx, &dy);
  return hypot (dx, dy);
}

void
hyd_symbol_draw_text (cairo_t *cr, const HydSymbolStyle *style, double wx, double wy, const char *text,
                      double size, gboolean bold, double halign, double valign, const HydRgba *colour)
{
  double scale = hyd_symbol_device_scale (cr);
  double dx = wx, dy = wy;
  cairo_user_to_device (cr, &dx, &dy);
  device_text (cr, style, dx, dy, text, size * HYD_SYMBOL_MODULE * scale, bold, halign, valign, colour, FALSE);
}

/* One scratch context per thread for measuring, extents and hit tests:
 * creating a surface per question would cost more than the question. */
static GPrivate scratch_key = G_PRIVATE_INIT ((GDestroyNotify) cairo_destroy);

static cairo_t *
scratch_context (void)
{
  cairo_t *cr = g_private_get (&scratch_key);
  if (cr == NULL)
    {
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
      cr = cairo_create (s);
      cairo_surface_destroy (s);
      g_private_set (&scratch_key, cr);
    }
  cairo_save (cr);
  cairo_identity_matrix (cr);
  cairo_new_path (cr);
  return cr;
}

static void
scratch_release (cairo_t *cr)
{
  cairo_new_path (cr);
  cairo_restore (cr);
}

void
hyd_symbol_measure_text (const HydSymbolStyle *style, const char *text, double size, gboolean bold,
                         double *width, double *height)
{
  cairo_t *cr = scratch_context ();
  set_font (cr, style, size * HYD_SYMBOL_MODULE, bold);
  double w, cap;
  text_box (cr, text, &w, &cap);
  scratch_release (cr);
  if (width)
    *width = w;
  if (height)
    *height = cap;
}

/* ---------------------------------------------------------------------------
 * The walk
 * ------------------------------------------------------------------------- */

typedef enum {
  WALK_DRAW,
  WALK_HALO,
  WALK_EXTENTS,
  WALK_HIT,
} WalkMode;

typedef struct {
  cairo_t *cr;
  WalkMode mode;
  const HydSymbol *sym;
  const HydSymbolState *state;
  const HydSymbolStyle *style;
  double unit;          /* device units per M */
  gboolean snap;
  gboolean detail;      /* arrowheads, T-blocks, springs, dots and text */
  HydRgba halo;
  gboolean have;        /* extents, device units */
  double x0, y0, x1, y1;
  double hx, hy;        /* hit point, device units */
  double tol;           /* hit tolerance, device units */
  gboolean hit;
} Walk;

static double
num_value (const Walk *w, const SymNum *n)
{
  if (n->var == NULL)
    return n->offset;
  double v;
  if (!_hyd_symbol_resolve_number (w->sym, w->state, n->var, &v))
    v = 0;
  if (n->per)
    {
      double d;
      if (_hyd_symbol_resolve_number (w->sym, w->state, n->per, &d) && d != 0)
        v /= d;
      else
        v = 0;
    }
  if (v < n->min)
    v = n->min;
  if (v > n->max)
    v = n->max;
  return n->offset + n->scale * v;
}

static void
point_value (const Walk *w, const SymPoint *p, double *x, double *y)
{
  *x = num_value (w, &p->x);
  *y = num_value (w, &p->y);
}

static gboolean
cond_holds (const Walk *w, const SymCond *c)
{
  double v;
  switch (c->op)
    {
    case COND_SET:
    case COND_UNSET:
      {
        gboolean set = w->state
                       && (hyd_symbol_state_lookup (w->state, c->var, NULL)
                           || hyd_symbol_state_lookup_string (w->state, c->var));
        return c->op == COND_SET ? set : !set;
      }
    case COND_EQ:
    case COND_NE:
      if (c->string)
        {
          const char *s = _hyd_symbol_resolve_string (w->sym, w->state, c->var);
          gboolean eq = s && strcmp (s, c->string) == 0;
          return c->op == COND_EQ ? eq : !eq;
        }
      if (!_hyd_symbol_resolve_number (w->sym, w->state, c->var, &v))
        return c->op == COND_NE;
      return c->op == COND_EQ ? v == c->number : v != c->number;
    default:
      if (!_hyd_symbol_resolve_number (w->sym, w->state, c->var, &v))
        return FALSE;
      switch (c->op)
        {
        case COND_GT:
          return v > c->number;
        case COND_LT:
          return v < c->number;
        case COND_GE:
          return v >= c->number;
        default:
          return v <= c->number;
        }
    }
}

static gboolean
conds_hold (const Walk *w, const GPtrArray *conds)
{
  if (conds == NULL)
    return TRUE;
  for (guint i = 0; i < conds->len; i++)
    if (!cond_holds (w, g_ptr_array_index (conds, i)))
      return FALSE;
  return TRUE;
}

/* Whether the state says the net of a port carries current ("1.current"
 * set to 1 by the live schematic, docs/electrical.md). */
static gboolean
port_carries_current (const HydSymbolState *state, const char *port)
{
  char name[96];
  double v;
  g_snprintf (name, sizeof name, "%s.current", port);
  return state && hyd_symbol_state_lookup (state, name, &v) && v > 0.5;
}

/* Colour of a paint; FALSE when nothing is to be painted. */
static gboolean
paint_colour (const Walk *w, const SymPaint *p, HydRgba *out)
{
  switch (p->kind)
    {
    case PAINT_NONE:
      return FALSE;
    case PAINT_BACKGROUND:
      *out = w->style->fill;
      return TRUE;
    case PAINT_LINE:
      *out = w->style->line;
      return TRUE;
    case PAINT_HIGHLIGHT:
      *out = w->style->highlight;
      return TRUE;
    case PAINT_PRESSURE:
      {
        g_autofree char *name = g_strconcat (p->port, ".p", NULL);
        double pr;
        if (w->state == NULL || !hyd_symbol_state_lookup (w->state, name, &pr))
          return FALSE;
        hyd_symbol_style_pressure_colour (w->style, pr, out);
        return TRUE;
      }
    case PAINT_CURRENT:
      *out = port_carries_current (w->state, p->port) ? w->style->current : w->style->line;
      return TRUE;
    }
  return FALSE;
}

static double
device_width (const Walk *w, double mult)
{
  return _hyd_symbol_device_line_width (w->style, mult, w->unit, w->snap);
}

double
_hyd_symbol_device_line_width (const HydSymbolStyle *style, double mult, double unit, gboolean snap)
{
  double lw = style->line_width * mult * unit;
  if (lw < style->min_line_width)
    lw = style->min_line_width;
  /* whole pixels keep snapped lines sharp; x.5 rounds down, so the 1.5 px
   * screen width at 100 % is one crisp pixel rather than a blurred two */
  if (snap)
    lw = MAX (1.0, floor (lw + 0.45));
  return lw;
}

void
_hyd_symbol_snap_point (cairo_t *cr, double lw, double *x, double *y)
{
  cairo_user_to_device (cr, x, y);
  double off = fmod (lw, 2.0) >= 0.5 && fmod (lw, 2.0) < 1.5 ? 0.5 : 0.0;
  *x = floor (*x - off + 0.5) + off;
  *y = floor (*y - off + 0.5) + off;
  cairo_device_to_user (cr, x, y);
}

/* Path vertices, snapped in device space when asked: to pixel centres for
 * odd widths, to pixel edges for even ones. */
static void
path_vertex (const Walk *w, double x, double y, gboolean move, double lw)
{
  if (w->snap)
    _hyd_symbol_snap_point (w->cr, lw, &x, &y);
  if (move)
    cairo_move_to (w->cr, x, y);
  else
    cairo_line_to (w->cr, x, y);
}

static void
extents_add (Walk *w, double x0, double y0, double x1, double y1)
{
  if (!w->have)
    {
      w->x0 = x0, w->y0 = y0, w->x1 = x1, w->y1 = y1;
      w->have = TRUE;
      return;
    }
  w->x0 = MIN (w->x0, x0);
  w->y0 = MIN (w->y0, y0);
  w->x1 = MAX (w->x1, x1);
  w->y1 = MAX (w->y1, y1);
}

static void
set_dash (const Walk *w, SymLineStyle ls)
{
  double u = w->unit;
  switch (ls)
    {
    case LINE_PILOT:
      {
        double d[] = { 1.0 * u, 0.5 * u };
        cairo_set_dash (w->cr, d, 2, 0);
        break;
      }
    case LINE_CHAIN:
      {
        double d[] = { 2.0 * u, 0.4 * u, 0.2 * u, 0.4 * u };
        cairo_set_dash (w->cr, d, 4, 0);
        break;
      }
    case LINE_SIGNAL:
      {
        double d[] = { 0.6 * u, 0.35 * u };
        cairo_set_dash (w->cr, d, 2, 0);
        break;
      }
    default:
      cairo_set_dash (w->cr, NULL, 0, 0);
      break;
    }
}

/* Fill the current path (keeping it). */
static void
do_fill (Walk *w, const HydRgba *colour)
{
  cairo_t *cr = w->cr;
  switch (w->mode)
    {
    case WALK_DRAW:
      hyd_rgba_set_source (cr, colour);
      cairo_fill_preserve (cr);
      break;
    case WALK_EXTENTS:
      {
        cairo_save (cr);
        cairo_identity_matrix (cr);
        double x0, y0, x1, y1;
        cairo_fill_extents (cr, &x0, &y0, &x1, &y1);
        cairo_restore (cr);
        if (x1 > x0 || y1 > y0)
          extents_add (w, x0, y0, x1, y1);
        break;
      }
    case WALK_HIT:
      {
        cairo_save (cr);
        cairo_identity_matrix (cr);
        if (cairo_in_fill (cr, w->hx, w->hy))
          w->hit = TRUE;
        cairo_restore (cr);
        break;
      }
    case WALK_HALO:
      break;
    }
}

/* Stroke the current path in device space, then clear it. */
static void
do_stroke (Walk *w, const HydRgba *colour, SymLineStyle ls, double lw)
{
  cairo_t *cr = w->cr;
  cairo_save (cr);
  cairo_identity_matrix (cr);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_MITER);
  cairo_set_miter_limit (cr, 4.0);
  switch (w->mode)
    {
    case WALK_DRAW:
      set_dash (w, ls);
      cairo_set_line_width (cr, lw);
      hyd_rgba_set_source (cr, ls == LINE_SIGNAL ? &w->style->signal : colour);
      cairo_stroke (cr);
      break;
    case WALK_HALO:
      cairo_set_line_width (cr, lw + 2 * w->style->halo_width * w->unit);
      cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
      hyd_rgba_set_source (cr, &w->halo);
      cairo_stroke (cr);
      break;
    case WALK_EXTENTS:
      {
        cairo_set_line_width (cr, lw);
        double x0, y0, x1, y1;
        cairo_stroke_extents (cr, &x0, &y0, &x1, &y1);
        if (x1 > x0 || y1 > y0)
          extents_add (w, x0, y0, x1, y1);
        cairo_new_path (cr);
        break;
      }
    case WALK_HIT:
      cairo_set_line_width (cr, lw + 2 * w->tol);
      if (cairo_in_stroke (cr, w->hx, w->hy))
        w->hit = TRUE;
      cairo_new_path (cr);
      break;
    }
  cairo_restore (cr);
  cairo_new_path (cr);
}

/* Fill and stroke the current path with the element's paints. */
static void
paint_path (Walk *w, const SymElement *el, gboolean fillable, double lw)
{
  HydRgba c;
  gboolean highlighted = el->highlight_if && conds_hold (w, el->highlight_if);
  if (fillable)
    {
      if (highlighted)
        do_fill (w, &w->style->highlight);
      else if (paint_colour (w, &el->fill, &c))
        do_fill (w, &c);
    }
  if (el->stroke.kind == PAINT_NONE)
    {
      /* a fill-only shape still has a body for the halo */
      if (w->mode == WALK_HALO && fillable && el->fill.kind != PAINT_NONE)
        do_stroke (w, &w->style->line, LINE_SOLID, lw);
      cairo_new_path (w->cr);
      return;
    }
  if (!paint_colour (w, &el->stroke, &c))
    c = w->style->line; /* an unknown pressure draws in the line colour */
  do_stroke (w, &c, el->line, lw);
}

/* Filled arrowhead with its tip at (tx, ty) pointing along (dx, dy). */
static void
arrow_head (Walk *w, const SymElement *el, double tx, double ty, double dx, double dy, double lw)
{
  double len = el->head_length, half = el->head_width / 2;
  double bx = tx - dx * len, by = ty - dy * len;
  cairo_move_to (w->cr, tx, ty);
  cairo_line_to (w->cr, bx - dy * half, by + dx * half);
  cairo_line_to (w->cr, bx + dy * half, by - dx * half);
  cairo_close_path (w->cr);
  HydRgba c;
  if (!paint_colour (w, &el->stroke, &c))
    c = w->style->line;
  do_fill (w, &c);
  /* a hairline outline in the same colour keeps small heads from looking thin */
  do_stroke (w, &c, LINE_SOLID, MIN (lw, w->style->min_line_width));
}

static void walk_elements (Walk *w, const GPtrArray *elements);

static void
draw_arrow (Walk *w, const SymElement *el, double lw)
{
  guint n = el->n_pts;
  double *x = g_newa (double, n), *y = g_newa (double, n);
  for (guint i = 0; i < n; i++)
    point_value (w, &el->pts[i], &x[i], &y[i]);

  double ex = x[n - 1] - x[n - 2], ey = y[n - 1] - y[n - 2];
  double el_len = hypot (ex, ey);
  double sx = x[1] - x[0], sy = y[1] - y[0];
  double s_len = hypot (sx, sy);
  if (el_len < 1e-9 || s_len < 1e-9)
    return;
  ex /= el_len, ey /= el_len, sx /= s_len, sy /= s_len;
  gboolean heads = w->detail;
  /* the shaft stops under the head's base so that the tip stays sharp */
  double cut = heads ? el->head_length * 0.6 : 0;
  for (guint i = 0; i < n; i++)
    {
      double px = x[i], py = y[i];
      if (i == n - 1)
        px -= ex * cut, py -= ey * cut;
      if (i == 0 && el->both_heads)
        px += sx * cut, py += sy * cut;
      path_vertex (w, px, py, i == 0, lw);
    }
  paint_path (w, el, FALSE, lw);
  if (!heads)
    return;
  arrow_head (w, el, x[n - 1], y[n - 1], ex, ey, lw);
  if (el->both_heads)
    arrow_head (w, el, x[0], y[0], -sx, -sy, lw);
}

static void
arc_three_points (Walk *w, const SymElement *el, double lw)
{
  double ax, ay, bx, by, cx, cy;
  point_value (w, &el->pts[0], &ax, &ay);
  point_value (w, &el->pts[1], &bx, &by);
  point_value (w, &el->pts[2], &cx, &cy);
  double d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by));
  if (fabs (d) < 1e-12)
    {
      path_vertex (w, ax, ay, TRUE, lw);
      path_vertex (w, cx, cy, FALSE, lw);
      return;
    }
  double a2 = ax * ax + ay * ay, b2 = bx * bx + by * by, c2 = cx * cx + cy * cy;
  double ox = (a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by)) / d;
  double oy = (a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax)) / d;
  double r = hypot (ax - ox, ay - oy);
  double t0 = atan2 (ay - oy, ax - ox), t1 = atan2 (by - oy, bx - ox), t2 = atan2 (cy - oy, cx - ox);
  /* clockwise on screen is increasing angle: does going that way from the
   * start meet the middle point before the end? */
  double to_mid = fmod (t1 - t0 + 4 * G_PI, 2 * G_PI), to_end = fmod (t2 - t0 + 4 * G_PI, 2 * G_PI);
  cairo_new_sub_path (w->cr);
  if (to_mid <= to_end)
    cairo_arc (w->cr, ox, oy, r, t0, t2);
  else
    cairo_arc_negative (w->cr, ox, oy, r, t0, t2);
}

static void
walk_element (Walk *w, const SymElement *el)
{
  cairo_t *cr = w->cr;
  if (!conds_hold (w, el->conds))
    return;
  double lw = device_width (w, el->width);
  double x, y;

  switch (el->kind)
    {
    case EL_LINE:
    case EL_POLYLINE:
      for (guint i = 0; i < el->n_pts; i++)
        {
          point_value (w, &el->pts[i], &x, &y);
          path_vertex (w, x, y, i == 0, lw);
        }
      if (el->closed)
        cairo_close_path (cr);
      paint_path (w, el, el->closed, lw);
      break;

    case EL_POLYGON:
      for (guint i = 0; i < el->n_pts; i++)
        {
          point_value (w, &el->pts[i], &x, &y);
          if (i == 0)
            cairo_move_to (cr, x, y);
          else
            cairo_line_to (cr, x, y);
        }
      cairo_close_path (cr);
      paint_path (w, el, TRUE, lw);
      break;

    case EL_RECT:
      {
        point_value (w, &el->pts[0], &x, &y);
        double rw = num_value (w, &el->size_w), rh = num_value (w, &el->size_h);
        double r = num_value (w, &el->radius);
        if (rw < 0)
          x += rw, rw = -rw;
        if (rh < 0)
          y += rh, rh = -rh;
        if (rw < 1e-9 && rh < 1e-9)
          break;
        if (r > 0)
          {
            r = MIN (r, MIN (rw, rh) / 2);
            cairo_new_sub_path (cr);
            cairo_arc (cr, x + rw - r, y + r, r, -G_PI / 2, 0);
            cairo_arc (cr, x + rw - r, y + rh - r, r, 0, G_PI / 2);
            cairo_arc (cr, x + r, y + rh - r, r, G_PI / 2, G_PI);
            cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
            cairo_close_path (cr);
          }
        else
          {
            path_vertex (w, x, y, TRUE, lw);
            path_vertex (w, x + rw, y, FALSE, lw);
            path_vertex (w, x + rw, y + rh, FALSE, lw);
            path_vertex (w, x, y + rh, FALSE, lw);
            cairo_close_path (cr);
          }
        paint_path (w, el, TRUE, lw);
        break;
      }

    case EL_CIRCLE:
      {
        point_value (w, &el->pts[0], &x, &y);
        double r = num_value (w, &el->radius);
        if (r <= 0)
          break;
        cairo_new_sub_path (cr);
        cairo_arc (cr, x, y, r, 0, 2 * G_PI);
        cairo_close_path (cr);
        paint_path (w, el, TRUE, lw);
        break;
      }

    case EL_ARC:
      if (el->arc_three_points)
        arc_three_points (w, el, lw);
      else
        {
          point_value (w, &el->pts[0], &x, &y);
          double r = num_value (w, &el->radius);
          double a0 = num_value (w, &el->start) * G_PI / 180, a1 = num_value (w, &el->end) * G_PI / 180;
          if (r <= 0)
            break;
          cairo_new_sub_path (cr);
          cairo_arc (cr, x, y, r, a0, a1);
        }
      paint_path (w, el, FALSE, lw);
      break;

    case EL_ARROW:
      draw_arrow (w, el, lw);
      break;

    case EL_BLOCK:
      {
        if (!w->detail)
          break;
        int tx, ty;
        hyd_direction_vector (el->toward, &tx, &ty);
        point_value (w, &el->pts[0], &x, &y);
        double ex = x + tx * el->block_length, ey = y + ty * el->block_length;
        double h = el->block_bar / 2;
        path_vertex (w, x, y, TRUE, lw);
        path_vertex (w, ex, ey, FALSE, lw);
        path_vertex (w, ex - ty * h, ey + tx * h, TRUE, lw);
        path_vertex (w, ex + ty * h, ey - tx * h, FALSE, lw);
        paint_path (w, el, FALSE, lw);
        break;
      }

    case EL_SPRING:
      {
        double ax, ay, bx, by;
        point_value (w, &el->pts[0], &ax, &ay);
        point_value (w, &el->pts[1], &bx, &by);
        double len = hypot (bx - ax, by - ay);
        if (len < 1e-6)
          break;
        if (!w->detail)
          {
            path_vertex (w, ax, ay, TRUE, lw);
            path_vertex (w, bx, by, FALSE, lw);
            paint_path (w, el, FALSE, lw);
            break;
          }
        double ux = (bx - ax) / len, uy = (by - ay) / len;
        double nx = -uy, ny = ux, half = el->amplitude / 2;
        int n = 2 * el->peaks;
        cairo_move_to (cr, ax, ay);
        for (int j = 0; j < n; j++)
          {
            double t = (j + 0.5) / n * len, s = (j % 2 == 0 ? -half : half);
            cairo_line_to (cr, ax + ux * t + nx * s, ay + uy * t + ny * s);
          }
        cairo_line_to (cr, bx, by);
        paint_path (w, el, FALSE, lw);
        break;
      }

    case EL_DOT:
      {
        if (!w->detail)
          break;
        point_value (w, &el->pts[0], &x, &y);
        double d = el->diameter > 0 ? el->diameter : w->style->junction_diameter;
        cairo_new_sub_path (cr);
        cairo_arc (cr, x, y, d / 2, 0, 2 * G_PI);
        cairo_close_path (cr);
        HydRgba c;
        if (!paint_colour (w, &el->fill, &c))
          c = w->style->line;
        do_fill (w, &c);
        if (w->mode == WALK_HALO)
          do_stroke (w, &c, LINE_SOLID, lw);
        cairo_new_path (cr);
        break;
      }

    case EL_TEXT:
      {
        if (!w->detail || w->mode == WALK_HALO || w->mode == WALK_HIT)
          break;
        g_autoptr (GString) s = g_string_new (NULL);
        if (!_hyd_symbol_expand_text (w->sym, w->state, el->text, s) || s->len == 0)
          break;
        point_value (w, &el->pts[0], &x, &y);
        cairo_user_to_device (cr, &x, &y);
        static const double frac[] = { 0.0, 0.5, 1.0, 0.0 };
        double va = el->valign == ALIGN_BASELINE ? 1.0 : frac[el->valign];
        HydRgba c = w->style->text;
        if (el->stroke.kind == PAINT_PRESSURE || el->stroke.kind == PAINT_HIGHLIGHT
            || el->stroke.kind == PAINT_CURRENT)
          paint_colour (w, &el->stroke, &c);
        if (w->mode == WALK_EXTENTS)
          {
            device_text (cr, w->style, x, y, s->str, el->text_size * w->unit, el->bold, frac[el->halign], va,
                         &c, TRUE);
            cairo_save (cr);
            cairo_identity_matrix (cr);
            double x0, y0, x1, y1;
            cairo_fill_extents (cr, &x0, &y0, &x1, &y1);
            cairo_restore (cr);
            extents_add (w, x0, y0, x1, y1);
            cairo_new_path (cr);
          }
        else
          device_text (cr, w->style, x, y, s->str, el->text_size * w->unit, el->bold, frac[el->halign], va, &c,
                       FALSE);
        break;
      }

    case EL_GROUP:
      {
        cairo_save (cr);
        cairo_translate (cr, num_value (w, &el->tx), num_value (w, &el->ty));
        double angle = num_value (w, &el->rotate);
        if (angle != 0)
          {
            double px, py;
            point_value (w, &el->about, &px, &py);
            cairo_translate (cr, px, py);
            cairo_rotate (cr, angle * G_PI / 180);
            cairo_translate (cr, -px, -py);
          }
        walk_elements (w, el->children);
        cairo_restore (cr);
        break;
      }
    }
  cairo_new_path (cr);
}

static void
walk_elements (Walk *w, const GPtrArray *elements)
{
  for (guint i = 0; i < elements->len; i++)
    walk_element (w, g_ptr_array_index (elements, i));
}

static gboolean
port_drawn (const Walk *w, const HydSymbolPort *p)
{
  return !p->optional || (w->state && hyd_symbol_state_get_port_connected (w->state, p->name));
}

/* The port leads (design §1.2): fixed in the symbol frame whatever moves
 * inside, drawn in the pressure colour of their node when it is known. */
static void
walk_ports (Walk *w)
{
  double lw = device_width (w, 1.0);
  for (guint i = 0; i < hyd_symbol_get_n_ports (w->sym); i++)
    {
      const HydSymbolPort *p = hyd_symbol_get_port (w->sym, i);
      if (!port_drawn (w, p) || p->lead <= 0)
        continue;
      int dx, dy;
      hyd_direction_vector (p->dir, &dx, &dy);
      path_vertex (w, p->x - dx * p->lead, p->y - dy * p->lead, TRUE, lw);
      path_vertex (w, p->x, p->y, FALSE, lw);
      HydRgba c = w->style->line;
      g_autofree char *name = g_strconcat (p->name, ".p", NULL);
      double pr;
      if (w->state && hyd_symbol_state_lookup (w->state, name, &pr))
        hyd_symbol_style_pressure_colour (w->style, pr, &c);
      else if (port_carries_current (w->state, p->name))
        c = w->style->current;
      do_stroke (w, &c, p->signal ? LINE_SIGNAL : LINE_SOLID, p->signal ? MAX (1.0, lw * 0.7) : lw);
    }
}

/* Port letters beside their leads, upright (design §1.7). The side is the
 * one facing away from the symbol's centre unless the file says. */
static void
walk_port_labels (Walk *w)
{
  const HydSymbolStyle *st = w->style;
  if (!w->detail || st->port_labels == HYD_PORT_LABELS_NONE
      || (st->port_labels == HYD_PORT_LABELS_AUTO && !w->sym->port_labels))
    return;
  if (w->mode != WALK_DRAW && w->mode != WALK_EXTENTS)
    return;
  double cx = (w->sym->bounds.x0 + w->sym->bounds.x1) / 2, cy = (w->sym->bounds.y0 + w->sym->bounds.y1) / 2;
  for (guint i = 0; i < hyd_symbol_get_n_ports (w->sym); i++)
    {
      const HydSymbolPort *p = hyd_symbol_get_port (w->sym, i);
      if (!port_drawn (w, p))
        continue;
      int dx, dy;
      hyd_direction_vector (p->dir, &dx, &dy);
      double nx = -dy, ny = dx; /* right of the outward direction */
      int side = p->label_side;
      if (side == 0)
        {
          double d = nx * (p->x - cx) + ny * (p->y - cy);
          side = d < -1e-9 ? -1 : 1;
        }
      double lead = p->lead > 0 ? p->lead : 1.0;
      double ax = p->x - dx * lead / 2 + side * nx * 0.35, ay = p->y - dy * lead / 2 + side * ny * 0.35;
      /* which way the label's side points on the device decides the alignment */
      double vx = side * nx, vy = side * ny;
      cairo_user_to_device_distance (w->cr, &vx, &vy);
      double ha, va;
      if (fabs (vx) > fabs (vy))
        ha = vx > 0 ? 0.0 : 1.0, va = 0.5;
      else
        ha = 0.5, va = vy > 0 ? 0.0 : 1.0;
      cairo_user_to_device (w->cr, &ax, &ay);
      device_text (w->cr, st, ax, ay, p->name, st->port_text_size * w->unit, FALSE, ha, va, &st->text,
                   w->mode == WALK_EXTENTS);
      if (w->mode == WALK_EXTENTS)
        {
          cairo_save (w->cr);
          cairo_identity_matrix (w->cr);
          double x0, y0, x1, y1;
          cairo_fill_extents (w->cr, &x0, &y0, &x1, &y1);
          cairo_restore (w->cr);
          extents_add (w, x0, y0, x1, y1);
          cairo_new_path (w->cr);
        }
    }
}

static void
walk_symbol (Walk *w)
{
  walk_elements (w, w->sym->elements);
  walk_ports (w);
  walk_port_labels (w);
}

/* The local→world matrix of a pose: world = (x, y) + M·R·F·local. */
static void
pose_matrix (const HydSymbolPose *pose, cairo_matrix_t *m)
{
  double ox, oy, ax, ay, bx, by;
  hyd_symbol_pose_to_world (pose, 0, 0, &ox, &oy);
  hyd_symbol_pose_to_world (pose, 1, 0, &ax, &ay);
  hyd_symbol_pose_to_world (pose, 0, 1, &bx, &by);
  cairo_matrix_init (m, ax - ox, ay - oy, bx - ox, by - oy, ox, oy);
}

static void
walk_init (Walk *w, cairo_t *cr, WalkMode mode, const HydSymbol *sym, const HydSymbolState *state,
           const HydSymbolStyle *style)
{
  memset (w, 0, sizeof *w);
  w->cr = cr;
  w->mode = mode;
  w->sym = sym;
  w->state = state;
  w->style = style;
  w->unit = hyd_symbol_device_scale (cr);
  w->snap = style->snap && (mode == WALK_DRAW || mode == WALK_HALO);
  w->detail = !style->level_of_detail || w->unit >= 4.0;
}

void
_hyd_symbol_compute_rest_bounds (const HydSymbol *symbol, HydRect *bounds)
{
  HydSymbolStyle style;
  hyd_symbol_style_init_light (&style);
  style.snap = FALSE;
  style.level_of_detail = FALSE;
  cairo_t *cr = scratch_context ();
  /* 64 device units per M: plenty of precision in Cairo's fixed point */
  const double k = 64;
  cairo_scale (cr, k, k);
  Walk w;
  walk_init (&w, cr, WALK_EXTENTS, symbol, NULL, &style);
  /* port letters need the bounds' centre; give them the ports' box first */
  HydSymbol *mut = (HydSymbol *) symbol;
  mut->bounds = (HydRect) { 0, 0, 0, 0 };
  for (guint i = 0; i < hyd_symbol_get_n_ports (symbol); i++)
    {
      const HydSymbolPort *p = hyd_symbol_get_port (symbol, i);
      if (i == 0)
        mut->bounds = (HydRect) { p->x, p->y, p->x, p->y };
      mut->bounds.x0 = MIN (mut->bounds.x0, p->x);
      mut->bounds.y0 = MIN (mut->bounds.y0, p->y);
      mut->bounds.x1 = MAX (mut->bounds.x1, p->x);
      mut->bounds.y1 = MAX (mut->bounds.y1, p->y);
    }
  walk_elements (&w, symbol->elements);
  walk_ports (&w);
  if (w.have)
    {
      /* centre of the drawing without its letters, for choosing their side */
      mut->bounds = (HydRect) { w.x0 / k, w.y0 / k, w.x1 / k, w.y1 / k };
    }
  walk_port_labels (&w);
  scratch_release (cr);
  if (w.have)
    *bounds = (HydRect) { w.x0 / k, w.y0 / k, w.x1 / k, w.y1 / k };
  else
    *bounds = (HydRect) { -1, -1, 1, 1 };
  /* optional ports are not drawn at rest, but they are still places to wire to */
  for (guint i = 0; i < hyd_symbol_get_n_ports (symbol); i++)
    {
      const HydSymbolPort *p = hyd_symbol_get_port (symbol, i);
      bounds->x0 = MIN (bounds->x0, p->x);
      bounds->y0 = MIN (bounds->y0, p->y);
      bounds->x1 = MAX (bounds->x1, p->x);
      bounds->y1 = MAX (bounds->y1, p->y);
    }
}

/* ---------------------------------------------------------------------------
 * Text templates: "{p:bar} bar", "{length:m} m"
 * ------------------------------------------------------------------------- */

static void
append_number (GString *s, const char *fmt, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (buf, sizeof buf, fmt, v);
  /* "-0" reads oddly on a gauge */
  if (strcmp (buf, "-0") == 0 || strcmp (buf, "-0.0") == 0)
    memmove (buf, buf + 1, strlen (buf));
  g_string_append (s, buf);
}

static gboolean
elements_show (const GPtrArray *elements, const char *open, const char *open_unit)
{
  for (guint i = 0; elements && i < elements->len; i++)
    {
      const SymElement *el = g_ptr_array_index (elements, i);
      if (el->kind == EL_TEXT && el->text && (strstr (el->text, open) || strstr (el->text, open_unit)))
        return TRUE;
      if (el->kind == EL_GROUP && elements_show (el->children, open, open_unit))
        return TRUE;
    }
  return FALSE;
}

gboolean
_hyd_symbol_shows_variable (const HydSymbol *symbol, const char *name)
{
  g_autofree char *open = g_strdup_printf ("{%s}", name);
  g_autofree char *open_unit = g_strdup_printf ("{%s:", name);
  return symbol && elements_show (symbol->elements, open, open_unit);
}

gboolean
_hyd_symbol_expand_text (const HydSymbol *sym, const HydSymbolState *state, const char *text, GString *out)
{
  const char *p = text;
  while (*p)
    {
      if (*p != '{')
        {
          g_string_append_c (out, *p++);
          continue;
        }
      const char *close = strchr (p, '}');
      if (close == NULL)
        {
          g_string_append (out, p);
          break;
        }
      g_autofree char *spec = g_strndup (p + 1, close - p - 1);
      p = close + 1;
      char *colon = strchr (spec, ':');
      const char *unit = "";
      if (colon)
        {
          *colon = '\0';
          unit = colon + 1;
        }
      double v;
      if (!_hyd_symbol_resolve_number (sym, state, spec, &v))
        {
          const char *str = _hyd_symbol_resolve_string (sym, state, spec);
          if (str == NULL)
            return FALSE; /* a reading not known yet: no text rather than a wrong one */
          g_string_append (out, str);
          continue;
        }
      /* the factors are the application's display units (hyd-units.h) */
      if (strcmp (unit, "bar") == 0)
        append_number (out, "%.1f", hyd_display_value (HYD_UNIT_PRESSURE, v));
      else if (strcmp (unit, "mm") == 0)
        append_number (out, "%.3g", hyd_display_value (HYD_UNIT_POSITION, v));
      else if (strcmp (unit, "lpm") == 0)
        append_number (out, "%.1f", hyd_display_value (HYD_UNIT_FLOW, v));
      else if (strcmp (unit, "pct") == 0)
        append_number (out, "%.0f", v * 100);
      else if (strcmp (unit, "s") == 0)
        append_number (out, "%.1f", v);
      else if (strcmp (unit, "rpm") == 0)
        append_number (out, "%.0f", hyd_display_value (HYD_UNIT_ANGULAR_VELOCITY, v));
      else
        append_number (out, "%.3g", v);
    }
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Public drawing entry points
 * ------------------------------------------------------------------------- */

static void
apply_pose (cairo_t *cr, const HydSymbolPose *pose)
{
  cairo_matrix_t m;
  pose_matrix (pose, &m);
  cairo_transform (cr, &m);
}

/* Far out, a symbol is only its box (design §4, level of detail). */
static gboolean
draw_as_box (cairo_t *cr, const HydSymbol *symbol, const HydSymbolStyle *style, double unit)
{
  if (!style->level_of_detail || unit >= 2.0)
    return FALSE;
  const HydRect *b = &symbol->bounds;
  cairo_rectangle (cr, b->x0, b->y0, b->x1 - b->x0, b->y1 - b->y0);
  cairo_save (cr);
  cairo_identity_matrix (cr);
  hyd_rgba_set_source (cr, &style->line);
  cairo_set_line_width (cr, style->min_line_width);
  cairo_stroke (cr);
  cairo_restore (cr);
  return TRUE;
}

void
hyd_symbol_render (cairo_t *cr, const HydSymbol *symbol, const HydSymbolPose *pose,
                   const HydSymbolState *state, const HydSymbolStyle *style, guint flags)
{
  g_return_if_fail (cr != NULL && symbol != NULL && pose != NULL && style != NULL);
  cairo_save (cr);
  cairo_new_path (cr);
  apply_pose (cr, pose);
  Walk w;
  walk_init (&w, cr, WALK_DRAW, symbol, state, style);
  if (!draw_as_box (cr, symbol, style, w.unit))
    {
      if (flags & (HYD_SYMBOL_RENDER_SELECTED | HYD_SYMBOL_RENDER_HOVER))
        {
          Walk h;
          walk_init (&h, cr, WALK_HALO, symbol, state, style);
          h.halo = (flags & HYD_SYMBOL_RENDER_SELECTED) ? style->selection : style->hover;
          /* one group so that overlapping halo strokes do not darken each other */
          cairo_push_group (cr);
          HydRgba opaque = h.halo;
          opaque.a = 1;
          h.halo = opaque;
          walk_elements (&h, symbol->elements);
          walk_ports (&h);
          cairo_pop_group_to_source (cr);
          cairo_paint_with_alpha (cr, (flags & HYD_SYMBOL_RENDER_SELECTED) ? style->selection.a : style->hover.a);
        }
      walk_symbol (&w);
    }
  cairo_restore (cr);
}

void
hyd_symbol_render_preview (cairo_t *cr, const HydSymbol *symbol, const HydSymbolState *state,
                           const HydSymbolStyle *style, double x, double y, double width, double height,
                           double max_module)
{
  HydRect b;
  hyd_symbol_state_bounds (symbol, &(HydSymbolPose) { 0, 0, 0, FALSE }, state, &b);
  double bw = MAX (b.x1 - b.x0, 1e-6), bh = MAX (b.y1 - b.y0, 1e-6);
  double k = MIN (width / bw, height / bh);
  if (max_module > 0)
    k = MIN (k, max_module / HYD_SYMBOL_MODULE);
  cairo_save (cr);
  cairo_translate (cr, x + width / 2, y + height / 2);
  cairo_scale (cr, k, k);
  HydSymbolPose pose = { -(b.x0 + b.x1) / 2, -(b.y0 + b.y1) / 2, 0, FALSE };
  hyd_symbol_render (cr, symbol, &pose, state, style, 0);
  cairo_restore (cr);
}

void
hyd_symbol_render_port_marker (cairo_t *cr, double wx, double wy, HydPortStatus status,
                               const HydSymbolStyle *style)
{
  double scale = hyd_symbol_device_scale (cr);
  double dx = wx, dy = wy;
  cairo_user_to_device (cr, &dx, &dy);
  double unit = HYD_SYMBOL_MODULE * scale;
  double lw = MAX (style->min_line_width, style->line_width * unit);
  cairo_save (cr);
  cairo_identity_matrix (cr);
  cairo_new_path (cr);
  cairo_set_line_width (cr, lw);
  switch (status)
    {
    case HYD_PORT_FREE:
      cairo_arc (cr, dx, dy, 0.35 * unit, 0, 2 * G_PI);
      hyd_rgba_set_source (cr, &style->fill);
      cairo_fill_preserve (cr);
      hyd_rgba_set_source (cr, &style->port_free);
      cairo_stroke (cr);
      break;
    case HYD_PORT_CONNECTED:
      cairo_arc (cr, dx, dy, 0.2 * unit, 0, 2 * G_PI);
      hyd_rgba_set_source (cr, &style->port_connected);
      cairo_fill (cr);
      break;
    case HYD_PORT_INCOMPATIBLE:
      {
        double h = 0.4 * unit;
        cairo_move_to (cr, dx - h, dy - h);
        cairo_line_to (cr, dx + h, dy + h);
        cairo_move_to (cr, dx - h, dy + h);
        cairo_line_to (cr, dx + h, dy - h);
        hyd_rgba_set_source (cr, &style->port_incompatible);
        cairo_set_line_width (cr, lw * 1.5);
        cairo_stroke (cr);
        break;
      }
    case HYD_PORT_HOVER:
      cairo_arc (cr, dx, dy, 0.6 * unit, 0, 2 * G_PI);
      hyd_rgba_set_source (cr, &style->hover);
      cairo_fill_preserve (cr);
      hyd_rgba_set_source (cr, &style->selection);
      cairo_stroke (cr);
      break;
    }
  cairo_restore (cr);
}

gboolean
hyd_symbol_hit_test (const HydSymbol *symbol, const HydSymbolPose *pose, const HydSymbolState *state,
                     double wx, double wy, double tolerance)
{
  g_return_val_if_fail (symbol != NULL && pose != NULL, FALSE);
  /* cheap rejection first: the canvas asks this on every pointer motion */
  HydRect b;
  hyd_symbol_state_bounds (symbol, pose, state, &b);
  double t = tolerance * HYD_SYMBOL_MODULE;
  if (wx < b.x0 - t || wx > b.x1 + t || wy < b.y0 - t || wy > b.y1 + t)
    return FALSE;
  HydSymbolStyle style;
  hyd_symbol_style_init_light (&style);
  style.snap = FALSE;
  style.level_of_detail = FALSE;
  cairo_t *cr = scratch_context ();
  apply_pose (cr, pose);
  Walk w;
  walk_init (&w, cr, WALK_HIT, symbol, state, &style);
  w.hx = wx;
  w.hy = wy;
  w.tol = t;
  walk_elements (&w, symbol->elements);
  walk_ports (&w);
  scratch_release (cr);
  return w.hit;
}

void
hyd_symbol_state_bounds (const HydSymbol *symbol, const HydSymbolPose *pose, const HydSymbolState *state,
                         HydRect *bounds)
{
  g_return_if_fail (symbol != NULL && pose != NULL && bounds != NULL);
  /* walked with the pose, not the rest box turned: text stays upright, so a
   * rotated symbol's text reaches sideways, not along the rotated frame */
  HydSymbolStyle style;
  hyd_symbol_style_init_light (&style);
  style.snap = FALSE;
  style.level_of_detail = FALSE;
  cairo_t *cr = scratch_context ();
  apply_pose (cr, pose);
  Walk w;
  walk_init (&w, cr, WALK_EXTENTS, symbol, state, &style);
  walk_symbol (&w);
  scratch_release (cr);
  HydRect rest;
  hyd_symbol_placed_bounds (symbol, pose, &rest);
  if (!w.have)
    {
      *bounds = rest;
      return;
    }
  /* never smaller than the rest box: the canvas keeps the rest box as the body */
  bounds->x0 = MIN (w.x0, rest.x0);
  bounds->y0 = MIN (w.y0, rest.y0);
  bounds->x1 = MAX (w.x1, rest.x1);
  bounds->y1 = MAX (w.y1, rest.y1);
}

static void sweep_bounds_walk (const HydSymbol *symbol, const HydSymbolPose *pose, const HydSymbolState *state,
                               HydRect *bounds);

void
hyd_symbol_sweep_bounds (const HydSymbol *symbol, const HydSymbolPose *pose, const HydSymbolState *state,
                         HydRect *bounds)
{
  g_return_if_fail (symbol != NULL && pose != NULL && bounds != NULL);
  if (state != NULL)
    {
      sweep_bounds_walk (symbol, pose, state, bounds);
      return;
    }
  /* at default values the sweep only depends on the orientation: keep it,
   * since the schematic asks for every symbol's on every redraw */
  static GMutex lock;
  guint slot = ((pose->rotation / 90) & 3) + (pose->mirror ? 4 : 0);
  HydSymbol *mut = (HydSymbol *) symbol;
  g_mutex_lock (&lock);
  if (!mut->sweep_valid[slot])
    {
      HydSymbolPose origin = { 0, 0, pose->rotation, pose->mirror };
      sweep_bounds_walk (symbol, &origin, NULL, &mut->sweep[slot]);
      mut->sweep_valid[slot] = TRUE;
    }
  *bounds = mut->sweep[slot];
  g_mutex_unlock (&lock);
  bounds->x0 += pose->x;
  bounds->x1 += pose->x;
  bounds->y0 += pose->y;
  bounds->y1 += pose->y;
}

static void
rect_union (HydRect *into, const HydRect *r)
{
  into->x0 = MIN (into->x0, r->x0);
  into->y0 = MIN (into->y0, r->y0);
  into->x1 = MAX (into->x1, r->x1);
  into->y1 = MAX (into->y1, r->y1);
}

/* The union of the bounds with each numeric variable at each of its listed
 * values, the others as in st. */
static void
sweep_numeric (const HydSymbol *symbol, const HydSymbolPose *pose, HydSymbolState *st, HydRect *bounds)
{
  HydRect b;
  hyd_symbol_state_bounds (symbol, pose, st, &b);
  rect_union (bounds, &b);
  for (guint i = 0; i < hyd_symbol_get_n_variables (symbol); i++)
    {
      const HydSymbolVariable *v = hyd_symbol_get_variable (symbol, i);
      if (v->is_string || v->n_test_values == 0)
        continue;
      double saved;
      gboolean had = hyd_symbol_state_lookup (st, v->name, &saved);
      for (guint k = 0; k < v->n_test_values; k++)
        {
          hyd_symbol_state_set (st, v->name, v->test_values[k]);
          hyd_symbol_state_bounds (symbol, pose, st, &b);
          rect_union (bounds, &b);
        }
      if (had)
        hyd_symbol_state_set (st, v->name, saved);
      else
        hyd_symbol_state_unset (st, v->name);
    }
}

/* With a state, its string variables (the component's choices) stand; with
 * none, every combination of them is swept too: a solenoid valve reaches
 * further than a lever one when its block moves. */
static void
sweep_bounds_walk (const HydSymbol *symbol, const HydSymbolPose *pose, const HydSymbolState *state,
                   HydRect *bounds)
{
  hyd_symbol_state_bounds (symbol, pose, state, bounds);
  g_autoptr (HydSymbolState) st = state ? hyd_symbol_state_copy (state) : hyd_symbol_state_new ();
  g_autoptr (GPtrArray) strs = g_ptr_array_new ();
  for (guint i = 0; state == NULL && i < hyd_symbol_get_n_variables (symbol); i++)
    {
      const HydSymbolVariable *v = hyd_symbol_get_variable (symbol, i);
      if (v->is_string)
        g_ptr_array_add (strs, (gpointer) v);
    }
  g_autofree guint *idx = g_new0 (guint, strs->len + 1);
  for (;;)
    {
      for (guint k = 0; k < strs->len; k++)
        {
          const HydSymbolVariable *v = g_ptr_array_index (strs, k);
          hyd_symbol_state_set_string (st, v->name, v->values[idx[k]]);
        }
      sweep_numeric (symbol, pose, st, bounds);
      guint k = 0;
      while (k < strs->len)
        {
          const HydSymbolVariable *v = g_ptr_array_index (strs, k);
          if (v->values[++idx[k]] != NULL)
            break;
          idx[k++] = 0;
        }
      if (k == strs->len)
        break;
    }
}
