/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-canvas-view.c — the view transform, the cached static layer and the
 * overlay painted over it each frame. */
#include "hyd-canvas-view.h"

#include <math.h>
#include <string.h>

void
hyd_canvas_view_init (HydCanvasView *view)
{
  memset (view, 0, sizeof *view);
  view->zoom = 1.0;
  view->scale = 1;
}

void
hyd_canvas_view_clear (HydCanvasView *view)
{
  g_clear_pointer (&view->layer, cairo_surface_destroy);
  view->layer_valid = FALSE;
}

void
hyd_canvas_view_invalidate (HydCanvasView *view)
{
  view->layer_valid = FALSE;
}

void
hyd_canvas_view_to_canvas (const HydCanvasView *view, double wx, double wy, double *x, double *y)
{
  *x = view->ox + wx / view->zoom;
  *y = view->oy + wy / view->zoom;
}

void
hyd_canvas_view_to_widget (const HydCanvasView *view, double x, double y, double *wx, double *wy)
{
  *wx = (x - view->ox) * view->zoom;
  *wy = (y - view->oy) * view->zoom;
}

void
hyd_canvas_view_align (HydCanvasView *view)
{
  double k = view->zoom * MAX (view->scale, 1);
  view->ox = round (view->ox * k) / k;
  view->oy = round (view->oy * k) / k;
}

void
hyd_canvas_view_zoom_at (HydCanvasView *view, double zoom, double wx, double wy)
{
  if (!isfinite (zoom))
    return;
  zoom = CLAMP (zoom, HYD_CANVAS_ZOOM_MIN, HYD_CANVAS_ZOOM_MAX);
  double x, y;
  hyd_canvas_view_to_canvas (view, wx, wy, &x, &y);
  view->zoom = zoom;
  view->ox = x - wx / zoom;
  view->oy = y - wy / zoom;
  hyd_canvas_view_align (view);
}

void
hyd_canvas_view_fit (HydCanvasView *view, const HydRect *r, double margin, double max_zoom)
{
  double w = MAX (r->x1 - r->x0, 1.0), h = MAX (r->y1 - r->y0, 1.0);
  double aw = MAX (view->width - 2 * margin, 1.0), ah = MAX (view->height - 2 * margin, 1.0);
  double zoom = MIN (aw / w, ah / h);
  zoom = CLAMP (MIN (zoom, max_zoom), HYD_CANVAS_ZOOM_MIN, HYD_CANVAS_ZOOM_MAX);
  view->zoom = zoom;
  view->ox = (r->x0 + r->x1) / 2 - view->width / 2.0 / zoom;
  view->oy = (r->y0 + r->y1) / 2 - view->height / 2.0 / zoom;
  hyd_canvas_view_align (view);
}

void
hyd_canvas_view_visible (const HydCanvasView *view, HydRect *rect)
{
  rect->x0 = view->ox;
  rect->y0 = view->oy;
  rect->x1 = view->ox + view->width / view->zoom;
  rect->y1 = view->oy + view->height / view->zoom;
}

/* ---------------------------------------------------------------------------
 * The static layer
 * ------------------------------------------------------------------------- */

/* Dots at grid points, never closer than 8 device pixels: when zoomed out
 * every 5th, 10th... point is shown. They are written straight into the
 * layer's pixels (an opaque ARGB32 image): tens of thousands of tiny
 * rectangles through cairo would cost more than the whole schematic. */
static void
draw_grid (cairo_surface_t *layer, const HydCanvasContent *content, double ox, double oy, double zoom, int scale)
{
  double step = HYD_CANVAS_GRID;
  static const double factors[] = { 5, 2, 5, 2, 5, 2, 5 };
  for (guint k = 0; step * zoom * scale < 8 && k < G_N_ELEMENTS (factors); k++)
    step *= factors[k];
  const HydRgba *bg = &content->style->background, *fg = &content->style->line;
  double a = step > HYD_CANVAS_GRID ? 0.22 : 0.3;
  guint32 r = (guint32) round (255 * (bg->r + a * (fg->r - bg->r)));
  guint32 g = (guint32) round (255 * (bg->g + a * (fg->g - bg->g)));
  guint32 b = (guint32) round (255 * (bg->b + a * (fg->b - bg->b)));
  guint32 pixel = 0xff000000u | (r << 16) | (g << 8) | b;
  int dot = MAX (1, (int) round (MIN (zoom, 2.0) * scale));

  cairo_surface_flush (layer);
  unsigned char *data = cairo_image_surface_get_data (layer);
  int stride = cairo_image_surface_get_stride (layer);
  int w = cairo_image_surface_get_width (layer), h = cairo_image_surface_get_height (layer);
  double k = zoom * scale; /* device pixels per canvas unit */
  double x0 = ceil (ox / step) * step, y0 = ceil (oy / step) * step;
  for (double gy = y0;; gy += step)
    {
      int py = (int) round ((gy - oy) * k) - dot / 2;
      if (py >= h)
        break;
      for (int dy = 0; dy < dot; dy++)
        {
          if (py + dy < 0 || py + dy >= h)
            continue;
          guint32 *row = (guint32 *) (data + (gsize) (py + dy) * stride);
          for (double gx = x0;; gx += step)
            {
              int px = (int) round ((gx - ox) * k) - dot / 2;
              if (px >= w)
                break;
              for (int dx = 0; dx < dot; dx++)
                if (px + dx >= 0 && px + dx < w)
                  row[px + dx] = pixel;
            }
        }
    }
  cairo_surface_mark_dirty (layer);
}

static void
render_layer (HydCanvasView *view, const HydCanvasContent *content)
{
  /* a quarter of the window on every side: panning that far costs a copy.
   * Not while a run animates it: the layer is drawn again for each live
   * frame, and a margin would more than double the pixels drawn. */
  gboolean live = content->component_state != NULL || content->port_pressure != NULL || content->port_level != NULL;
  int mx = live ? 0 : MAX (view->width / 4, 64), my = live ? 0 : MAX (view->height / 4, 64);
  int lw = view->width + 2 * mx, lh = view->height + 2 * my;
  int scale = MAX (view->scale, 1);
  /* a new surface when the old one is still shown elsewhere (the
   * widget's texture of it) or has the wrong size */
  if (view->layer == NULL || view->layer_w != lw || view->layer_h != lh || view->layer_scale != scale
      || cairo_surface_get_reference_count (view->layer) > 1)
    {
      g_clear_pointer (&view->layer, cairo_surface_destroy);
      view->layer = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, lw * scale, lh * scale);
      view->layer_w = lw;
      view->layer_h = lh;
      view->layer_scale = scale;
    }
  view->layer_zoom = view->zoom;
  view->layer_ox = view->ox - mx / view->zoom;
  view->layer_oy = view->oy - my / view->zoom;

  /* Drawn in device pixels, so the symbols' pixel snapping is exact on
   * HiDPI screens too; the device scale is set for painting it afterwards. */
  cairo_surface_set_device_scale (view->layer, 1, 1);
  cairo_t *cr = cairo_create (view->layer);
  hyd_rgba_set_source (cr, &content->style->background);
  cairo_paint (cr);
  if (content->show_grid)
    {
      cairo_surface_flush (view->layer);
      draw_grid (view->layer, content, view->layer_ox, view->layer_oy, view->zoom, scale);
    }
  if (content->circuit)
    {
      cairo_scale (cr, view->zoom * scale, view->zoom * scale);
      cairo_translate (cr, -view->layer_ox, -view->layer_oy);
      HydSchematicOptions opts;
      hyd_schematic_options_init (&opts);
      opts.library = content->library;
      opts.style = content->style;
      opts.flags = content->schematic_flags & ~HYD_SCHEMATIC_BACKGROUND;
      /* design §4: below 4 device pixels per M text is not drawn (labels
       * would be 5 px high): a far view shows the drawing, not names */
      if (HYD_SYMBOL_MODULE * view->zoom * scale < 4.0)
        opts.flags &= ~(HYD_SCHEMATIC_SHOW_IDS | HYD_SCHEMATIC_SHOW_NAMES);
      opts.component_state = content->component_state;
      opts.port_pressure = content->port_pressure;
      opts.port_level = content->port_level;
      opts.component_flags = content->component_flags;
      opts.user_data = content->user_data;
      hyd_schematic_render (cr, content->circuit, &opts);
    }
  cairo_destroy (cr);
  cairo_surface_flush (view->layer);
  cairo_surface_set_device_scale (view->layer, scale, scale);
  view->layer_serial = content->serial;
  view->layer_valid = TRUE;
  view->n_layer_renders++;
}

static gboolean
layer_covers (const HydCanvasView *view)
{
  HydRect v;
  hyd_canvas_view_visible (view, &v);
  double lx1 = view->layer_ox + view->layer_w / view->layer_zoom;
  double ly1 = view->layer_oy + view->layer_h / view->layer_zoom;
  double eps = 0.5 / view->zoom;
  return v.x0 >= view->layer_ox - eps && v.y0 >= view->layer_oy - eps && v.x1 <= lx1 + eps && v.y1 <= ly1 + eps;
}

gboolean
hyd_canvas_view_update_layer (HydCanvasView *view, const HydCanvasContent *content)
{
  gboolean fresh = view->layer_valid && view->layer && view->layer_serial == content->serial
                   && view->layer_scale == MAX (view->scale, 1);
  gboolean same_zoom = fabs (view->layer_zoom - view->zoom) < 1e-12;
  /* during a zoom gesture a layer that still covers the window is shown
   * scaled; the widget draws it sharp when the gesture settles */
  if (fresh && layer_covers (view) && (same_zoom || view->zooming))
    return FALSE;
  render_layer (view, content);
  return TRUE;
}

void
hyd_canvas_view_layer_rect (const HydCanvasView *view, HydRect *rect)
{
  if (fabs (view->layer_zoom - view->zoom) < 1e-12)
    {
      /* whole device pixels: a 1:1 copy */
      int scale = MAX (view->scale, 1);
      rect->x0 = round ((view->layer_ox - view->ox) * view->zoom * scale) / scale;
      rect->y0 = round ((view->layer_oy - view->oy) * view->zoom * scale) / scale;
      rect->x1 = rect->x0 + view->layer_w;
      rect->y1 = rect->y0 + view->layer_h;
      return;
    }
  double k = view->zoom / view->layer_zoom;
  rect->x0 = (view->layer_ox - view->ox) * view->zoom;
  rect->y0 = (view->layer_oy - view->oy) * view->zoom;
  rect->x1 = rect->x0 + view->layer_w * k;
  rect->y1 = rect->y0 + view->layer_h * k;
}

static void
paint_layer (HydCanvasView *view, cairo_t *cr, const HydCanvasContent *content)
{
  hyd_canvas_view_update_layer (view, content);
  HydRect r;
  hyd_canvas_view_layer_rect (view, &r);
  gboolean same_zoom = fabs (view->layer_zoom - view->zoom) < 1e-12;
  cairo_save (cr);
  if (same_zoom)
    {
      cairo_set_source_surface (cr, view->layer, r.x0, r.y0);
      cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
    }
  else
    {
      double k = view->zoom / view->layer_zoom;
      cairo_translate (cr, r.x0, r.y0);
      cairo_scale (cr, k, k);
      cairo_set_source_surface (cr, view->layer, 0, 0);
      cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_BILINEAR);
    }
  cairo_paint (cr);
  cairo_restore (cr);
}

/* ---------------------------------------------------------------------------
 * The overlay
 * ------------------------------------------------------------------------- */

void
hyd_canvas_component_state (const HydCanvasContent *content, const HydCanvasScene *scene,
                            const HydCanvasSceneComponent *c, HydSymbolState *state)
{
  hyd_symbol_state_clear (state);
  hyd_symbol_state_set_component_params (state, c->comp);
  for (guint k = 0; c->type && k < c->type->n_ports; k++)
    {
      const char *port = c->type->ports[k].name;
      char ref[160];
      g_snprintf (ref, sizeof ref, "%s.%s", c->comp->id, port);
      if (hyd_canvas_scene_wire_count (scene, ref) > 0)
        hyd_symbol_state_set_port_connected (state, port, TRUE);
      guint level = 0;
      if (content->port_level && c->type->ports[k].domain == HYD_DOMAIN_ELECTRICAL
          && content->port_level (c->comp->id, port, &level, content->user_data) && (level & 4))
        {
          /* its lead and "current:PORT" paints turn the current colour */
          char var[96];
          g_snprintf (var, sizeof var, "%s.current", port);
          hyd_symbol_state_set (state, var, 1);
        }
      if ((content->schematic_flags & HYD_SCHEMATIC_PRESSURE_COLOURS) && content->port_pressure)
        {
          double p = content->port_pressure (c->comp->id, port, content->user_data);
          if (!isnan (p))
            {
              char var[96];
              g_snprintf (var, sizeof var, "%s.p", port);
              hyd_symbol_state_set (state, var, p);
            }
        }
    }
  if (content->component_state)
    content->component_state (c->comp, state, content->user_data);
}

/* Device line width of the theme's working line (design §4). */
static double
device_line_width (const HydCanvasContent *content, double zoom, int scale)
{
  return MAX (content->style->min_line_width, content->style->line_width * HYD_SYMBOL_MODULE * zoom * scale);
}

/* Stroke a polyline in device space with a given device width. */
static void
stroke_polyline (cairo_t *cr, const double *p, guint n, double width, const HydRgba *colour, gboolean dashed,
                 double unit)
{
  if (n < 2)
    return;
  cairo_new_path (cr);
  for (guint k = 0; k < n; k++)
    {
      double x = p[2 * k], y = p[2 * k + 1];
      if (k == 0)
        cairo_move_to (cr, x, y);
      else
        cairo_line_to (cr, x, y);
    }
  cairo_save (cr);
  cairo_identity_matrix (cr);
  cairo_set_line_width (cr, width);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  if (dashed)
    {
      double d[] = { 0.6 * unit, 0.35 * unit };
      cairo_set_dash (cr, d, 2, 0);
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
    }
  hyd_rgba_set_source (cr, colour);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* A halo round a wire's whole stroke (a double line is wider). */
static double
wire_halo_width (const HydCanvasScene *scene, guint wire, double lw, double unit, const HydCanvasContent *content)
{
  HydWireStyle ws = hyd_schematic_wire_style (hyd_canvas_scene_wire_domain (scene, wire));
  return hyd_schematic_wire_width (ws, lw, unit, FALSE) + 2 * content->style->halo_width * unit;
}

static gboolean
rect_visible (const HydRect *v, const HydRect *r, double margin)
{
  return r->x1 >= v->x0 - margin && r->x0 <= v->x1 + margin && r->y1 >= v->y0 - margin && r->y0 <= v->y1 + margin;
}

static void
draw_component_halo (cairo_t *cr, const HydCanvasContent *content, const HydCanvasScene *scene,
                     const HydCanvasSceneComponent *c, guint flags)
{
  if (c->symbol == NULL)
    {
      cairo_new_path (cr);
      cairo_rectangle (cr, c->bounds.x0, c->bounds.y0, c->bounds.x1 - c->bounds.x0, c->bounds.y1 - c->bounds.y0);
      hyd_rgba_set_source (cr, (flags & HYD_SYMBOL_RENDER_SELECTED) ? &content->style->selection
                                                                    : &content->style->hover);
      cairo_fill (cr);
      return;
    }
  g_autoptr (HydSymbolState) state = hyd_symbol_state_new ();
  hyd_canvas_component_state (content, scene, c, state);
  hyd_symbol_render (cr, c->symbol, &c->pose, state, content->style, flags);
}

/* A box around an item the application wants noticed (a failed check);
 * with a heat-map level ≥ 0 (the solver lab) a solid box from pale yellow
 * (0) to red (1), more opaque as it rises. */
static void
draw_highlight_box (cairo_t *cr, const HydCanvasContent *content, const HydRect *r, double zoom,
                    double level)
{
  double pad = 0.5 * HYD_SYMBOL_MODULE;
  HydRgba edge = content->style->port_incompatible;
  if (level >= 0)
    edge = (HydRgba) { 1.0, 0.85 * (1.0 - level) + 0.1, 0.2 * (1.0 - level), 1.0 };
  HydRgba fill = edge;
  fill.a = level >= 0 ? 0.15 + 0.45 * level : 0.10;
  cairo_new_path (cr);
  cairo_rectangle (cr, r->x0 - pad, r->y0 - pad, r->x1 - r->x0 + 2 * pad, r->y1 - r->y0 + 2 * pad);
  hyd_rgba_set_source (cr, &fill);
  cairo_fill_preserve (cr);
  cairo_save (cr);
  cairo_identity_matrix (cr);
  double d[] = { 4, 3 };
  if (level < 0)
    cairo_set_dash (cr, d, 2, 0);
  cairo_set_line_width (cr, level >= 0 ? 1.0 + 2.0 * level : 1.5);
  hyd_rgba_set_source (cr, &edge);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_ring (cairo_t *cr, double x, double y, double radius_px, const HydRgba *colour, double width)
{
  cairo_user_to_device (cr, &x, &y);
  cairo_save (cr);
  cairo_identity_matrix (cr);
  cairo_new_path (cr);
  cairo_arc (cr, x, y, radius_px, 0, 2 * G_PI);
  cairo_set_line_width (cr, width);
  hyd_rgba_set_source (cr, colour);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_highlight (cairo_t *cr, const HydCanvasContent *content, const HydCanvasScene *scene,
                const HydCanvasOverlay *o, const HydRect *visible, double zoom, int scale)
{
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, o->highlight);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      const char *ref = key;
      if (strchr (ref, '.'))
        {
          double x, y;
          HydDirection d;
          gboolean has_dir;
          if (hyd_canvas_scene_endpoint (scene, ref, &x, &y, &d, &has_dir))
            draw_ring (cr, x, y, MAX (6.0, 0.7 * HYD_SYMBOL_MODULE * zoom) * scale,
                       &content->style->port_incompatible, 2.0 * scale);
          continue;
        }
      const HydCanvasSceneComponent *c = hyd_canvas_scene_find_component (scene, ref);
      if (c && rect_visible (visible, &c->bounds, HYD_SYMBOL_MODULE))
        draw_highlight_box (cr, content, &c->bounds, zoom, hyd_canvas_highlight_level_of (key, value));
      const HydCircuitJunction *j = hyd_canvas_scene_find_junction (scene, ref);
      if (j)
        draw_ring (cr, j->x, j->y, MAX (6.0, 0.7 * HYD_SYMBOL_MODULE * zoom) * scale,
                   &content->style->port_incompatible, 2.0 * scale);
    }
}

/* Markers on every port in view while a wire is drawn: free, connected, or
 * of another domain than the wire (it cannot end there). */
static void
draw_port_markers (cairo_t *cr, const HydCanvasContent *content, const HydCanvasScene *scene,
                   const HydCanvasOverlay *o, const HydRect *visible)
{
  for (guint i = 0; i < hyd_canvas_scene_get_n_components (scene); i++)
    {
      const HydCanvasSceneComponent *c = hyd_canvas_scene_get_component (scene, i);
      if (c->symbol == NULL || !rect_visible (visible, &c->bounds, HYD_SYMBOL_MODULE))
        continue;
      for (guint k = 0; k < hyd_symbol_get_n_ports (c->symbol); k++)
        {
          const HydSymbolPort *p = hyd_symbol_get_port (c->symbol, k);
          double x, y;
          if (!hyd_symbol_port_world_position (c->symbol, &c->pose, p->name, &x, &y, NULL))
            continue;
          char ref[160];
          g_snprintf (ref, sizeof ref, "%s.%s", c->comp->id, p->name);
          int dom = hyd_canvas_scene_port_domain (scene, c, p->name);
          HydPortStatus status;
          if (o->wire_domain >= 0 && dom >= 0 && dom != o->wire_domain)
            status = HYD_PORT_INCOMPATIBLE;
          else if (hyd_canvas_scene_wire_count (scene, ref) > 0)
            status = HYD_PORT_CONNECTED;
          else
            status = HYD_PORT_FREE;
          hyd_symbol_render_port_marker (cr, x, y, status, content->style);
        }
    }
}

static void
draw_hover (cairo_t *cr, const HydCanvasContent *content, const HydCanvasScene *scene, const HydCanvasOverlay *o,
            double lw, double unit)
{
  const HydCanvasHit *h = &o->hover;
  switch (h->kind)
    {
    case HYD_CANVAS_HIT_COMPONENT:
      {
        const HydCanvasSceneComponent *c = hyd_canvas_scene_find_component (scene, h->id);
        if (c)
          draw_component_halo (cr, content, scene, c, HYD_SYMBOL_RENDER_HOVER);
      }
      break;
    case HYD_CANVAS_HIT_WIRE:
      if (h->wire < hyd_canvas_scene_get_n_wires (scene))
        {
          const HydCanvasSceneWire *w = hyd_canvas_scene_get_wire (scene, h->wire);
          if (w->points)
            stroke_polyline (cr, (const double *) w->points->data, w->points->len / 2,
                             wire_halo_width (scene, h->wire, lw, unit, content), &content->style->hover, FALSE,
                             unit);
        }
      break;
    case HYD_CANVAS_HIT_PORT:
      {
        HydPortStatus status = HYD_PORT_HOVER;
        if (o->wire && o->wire_domain >= 0)
          {
            const HydCanvasSceneComponent *c = hyd_canvas_scene_find_component (scene, h->id);
            int dom = hyd_canvas_scene_port_domain (scene, c, h->port);
            if (dom >= 0 && dom != o->wire_domain)
              status = HYD_PORT_INCOMPATIBLE;
          }
        hyd_symbol_render_port_marker (cr, h->x, h->y, status, content->style);
      }
      break;
    case HYD_CANVAS_HIT_JUNCTION:
      hyd_symbol_render_port_marker (cr, h->x, h->y, HYD_PORT_HOVER, content->style);
      break;
    default:
      break;
    }
}

static void
draw_band (cairo_t *cr, const HydCanvasContent *content, const HydCanvasOverlay *o)
{
  HydRect r = o->band_rect;
  double x0 = MIN (r.x0, r.x1), y0 = MIN (r.y0, r.y1), x1 = MAX (r.x0, r.x1), y1 = MAX (r.y0, r.y1);
  cairo_user_to_device (cr, &x0, &y0);
  cairo_user_to_device (cr, &x1, &y1);
  cairo_save (cr);
  cairo_identity_matrix (cr);
  x0 = floor (x0) + 0.5, y0 = floor (y0) + 0.5, x1 = floor (x1) + 0.5, y1 = floor (y1) + 0.5;
  cairo_rectangle (cr, x0, y0, x1 - x0, y1 - y0);
  HydRgba fill = content->style->selection;
  fill.a = 0.12;
  hyd_rgba_set_source (cr, &fill);
  cairo_fill_preserve (cr);
  HydRgba edge = content->style->selection;
  edge.a = 0.9;
  if (o->band_crossing)
    {
      /* touching selects: a dashed edge, as in KiCad */
      double d[] = { 5, 3 };
      cairo_set_dash (cr, d, 2, 0);
    }
  cairo_set_line_width (cr, 1);
  hyd_rgba_set_source (cr, &edge);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_message (cairo_t *cr, const HydCanvasContent *content, const HydCanvasView *view, const char *message)
{
  const double size = 1.1; /* M at 100 %: 11 px */
  double w, h;
  hyd_symbol_measure_text (content->style, message, size, FALSE, &w, &h);
  double pad = 6, x = 10, y = view->height - 10 - h - 2 * pad;
  cairo_save (cr);
  cairo_new_path (cr);
  double r = 4, bw = w + 2 * pad, bh = h + 2 * pad;
  cairo_arc (cr, x + bw - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + bw - r, y + bh - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + bh - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
  HydRgba bg = content->style->text;
  bg.a = 0.08;
  hyd_rgba_set_source (cr, &bg);
  cairo_fill (cr);
  HydRgba fg = content->style->text;
  fg.a = 0.7;
  hyd_symbol_draw_text (cr, content->style, x + pad, y + pad, message, size, FALSE, 0, 0, &fg);
  cairo_restore (cr);
}

void
hyd_canvas_view_draw_overlay (HydCanvasView *view, cairo_t *cr, const HydCanvasContent *content,
                              const HydCanvasScene *scene, const HydCanvasOverlay *o)
{
  /* The widget's cairo has the device scale in its surface: its device
   * space, where line widths are set, is in widget pixels. */
  int scale = 1;
  double unit = HYD_SYMBOL_MODULE * view->zoom; /* pixels per M */
  double lw = device_line_width (content, view->zoom, scale);
  HydRect visible;
  hyd_canvas_view_visible (view, &visible);

  cairo_save (cr);
  cairo_scale (cr, view->zoom, view->zoom);
  cairo_translate (cr, -view->ox, -view->oy);

  if (scene)
    {
      for (guint k = 0; k < o->n_selected_wires; k++)
        {
          if (o->selected_wires[k] >= hyd_canvas_scene_get_n_wires (scene))
            continue;
          const HydCanvasSceneWire *w = hyd_canvas_scene_get_wire (scene, o->selected_wires[k]);
          if (w->points && rect_visible (&visible, &w->bounds, HYD_SYMBOL_MODULE))
            stroke_polyline (cr, (const double *) w->points->data, w->points->len / 2,
                             wire_halo_width (scene, o->selected_wires[k], lw, unit, content),
                             &content->style->selection, FALSE, unit);
        }
      if (o->selection && g_hash_table_size (o->selection) > 0)
        {
          const HydCircuit *c = hyd_canvas_scene_get_circuit (scene);
          double r = MAX (4.0, content->style->junction_diameter * unit / 2 + content->style->halo_width * unit);
          for (guint i = 0; i < c->junctions->len; i++)
            {
              const HydCircuitJunction *j = g_ptr_array_index (c->junctions, i);
              if (j->id == NULL || !g_hash_table_contains (o->selection, j->id))
                continue;
              double x = j->x, y = j->y;
              cairo_user_to_device (cr, &x, &y);
              cairo_save (cr);
              cairo_identity_matrix (cr);
              cairo_new_path (cr);
              cairo_arc (cr, x, y, r, 0, 2 * G_PI);
              hyd_rgba_set_source (cr, &content->style->selection);
              cairo_fill (cr);
              cairo_restore (cr);
            }
        }
      if (o->highlight && g_hash_table_size (o->highlight) > 0)
        draw_highlight (cr, content, scene, o, &visible, view->zoom, scale);
      if (o->port_markers)
        draw_port_markers (cr, content, scene, o, &visible);
      draw_hover (cr, content, scene, o, lw, unit);
    }

  if (o->wire && o->wire->len >= 4)
    {
      /* drawn as it will be: in the style of its domain */
      HydWireStyle ws = hyd_schematic_wire_style (o->wire_domain);
      const HydRgba *colour = ws == HYD_WIRE_SIGNAL ? &content->style->signal : &content->style->line;
      HydRgba halo = content->style->selection;
      halo.a = 0.25;
      const double *p = (const double *) o->wire->data;
      guint n = o->wire->len / 2;
      stroke_polyline (cr, p, n, hyd_schematic_wire_width (ws, lw, unit, FALSE) + 2 * content->style->halo_width * unit,
                       &halo, FALSE, unit);
      hyd_schematic_stroke_wire (cr, content->style, p, n, ws, colour, lw, TRUE);
      if (ws == HYD_WIRE_SIGNAL && o->wire_arrow > 0)
        hyd_schematic_draw_signal_arrow (cr, p[2 * n - 2], p[2 * n - 1], p[2 * n - 4], p[2 * n - 3], colour);
      else if (ws == HYD_WIRE_SIGNAL && o->wire_arrow < 0)
        hyd_schematic_draw_signal_arrow (cr, p[0], p[1], p[2], p[3], colour);
      /* the free end */
      double ex = p[2 * n - 2], ey = p[2 * n - 1];
      cairo_user_to_device (cr, &ex, &ey);
      cairo_save (cr);
      cairo_identity_matrix (cr);
      cairo_new_path (cr);
      cairo_arc (cr, ex, ey, MAX (2.0 * scale, lw * 1.6), 0, 2 * G_PI);
      hyd_rgba_set_source (cr, colour);
      cairo_fill (cr);
      cairo_restore (cr);
    }

  if (o->ghost)
    {
      cairo_push_group (cr);
      hyd_symbol_render (cr, o->ghost, &o->ghost_pose, NULL, content->style, 0);
      cairo_pop_group_to_source (cr);
      cairo_paint_with_alpha (cr, 0.55);
    }

  if (o->band)
    draw_band (cr, content, o);
  cairo_restore (cr);

  if (o->message && *o->message)
    draw_message (cr, content, view, o->message);
}

void
hyd_canvas_view_draw (HydCanvasView *view, cairo_t *cr, const HydCanvasContent *content,
                      const HydCanvasScene *scene, const HydCanvasOverlay *overlay)
{
  g_return_if_fail (view != NULL && cr != NULL && content != NULL && content->style != NULL);
  if (view->width <= 0 || view->height <= 0 || !(view->zoom > 0))
    return;
  paint_layer (view, cr, content);
  if (overlay)
    hyd_canvas_view_draw_overlay (view, cr, content, scene, overlay);
}

/* ---------------------------------------------------------------------------
 * Live symbol state
 * ------------------------------------------------------------------------- */

void
hyd_canvas_live_symbol_state (const HydSymbol *symbol, const HydCircuitComponent *component,
                              HydCanvasLiveVariableFunc variable, gpointer user_data, HydSymbolState *state)
{
  if (variable == NULL || component->id == NULL)
    return;
  for (guint k = 0; symbol && k < hyd_symbol_get_n_variables (symbol); k++)
    {
      const HydSymbolVariable *v = hyd_symbol_get_variable (symbol, k);
      if (v->is_string)
        continue;
      /* a parameter's name is a variable of the run only when the type
       * made it a discrete state too */
      double value;
      if (variable (component->id, v->name, &value, user_data) && isfinite (value))
        hyd_symbol_state_set (state, v->name, value);
    }
  /* a timer's time left: the run's own "remaining" when it has one, else
   * from when it started timing ("since", −1 while it is not) */
  double since, delay, t, remaining;
  if (variable (component->id, "remaining", &remaining, user_data))
    {
      if (isfinite (remaining))
        hyd_symbol_state_set (state, "remaining", remaining);
    }
  else if (variable (component->id, "since", &since, user_data) && isfinite (since) && since >= 0
           && hyd_symbol_state_lookup (state, "delay", &delay) && variable (NULL, "t", &t, user_data)
           && isfinite (t))
    {
      double elapsed = t - since;
      if (elapsed >= 0 && elapsed < delay)
        hyd_symbol_state_set (state, "remaining", delay - elapsed);
    }
}
