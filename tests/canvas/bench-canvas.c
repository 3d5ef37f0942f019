/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-canvas.c — frame times of the canvas with 500 components and 600
 * wires (issue 4: "pan and zoom at 60 frames per second").
 *
 *   bench-canvas [--frames N] [--png LAST.png] [--save CIRCUIT.bramah]
 *
 * It builds a grid of 100 cells (a cylinder, a 4/3 valve, a pump, a relief
 * valve and a tank with six wires each), then paints 1280 × 800 frames
 * through hyd_canvas_view_draw — the function the widget's snapshot calls —
 * while it pans and zooms the way a user does: a drag pan at the fitted
 * zoom and at 100 %, a wheel zoom in and out about the pointer, a pinch.
 * Zoom gestures show the cached layer scaled until they settle, as the
 * widget does, and the settling frame (drawn sharp) is counted. It also
 * times full redraws (no cache) at three zooms, the cost when the content
 * changes (an edit, a new frame of a running simulation), and a drag of
 * a valve with its wires re-routed live, step by grid step, as the widget
 * does it on its scratch copy of the document. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyd-canvas-edit.h"
#include "hyd-canvas-scene.h"
#include "hyd-canvas-view.h"

#define WIDTH 1280
#define HEIGHT 800
#define CELLS 10

static void
add_component (HydCircuit *c, const char *id, const char *type, double x, double y)
{
  HydCircuitComponent *k = hyd_circuit_component_new (id, type);
  k->x = x;
  k->y = y;
  k->has_position = TRUE;
  g_ptr_array_add (c->components, k);
}

static void
add_wire (HydCircuit *c, const char *from, const char *to, const double *route, guint n)
{
  HydCircuitConnection *w = hyd_circuit_connection_new (from, to);
  if (n)
    {
      w->route = g_array_new (FALSE, FALSE, sizeof (double));
      g_array_append_vals (w->route, route, 2 * n);
    }
  g_ptr_array_add (c->connections, w);
}

/* 100 cells of 5 components and 6 wires: 500 components, 600 wires. */
static HydCircuit *
build_circuit (void)
{
  HydCircuit *c = hyd_circuit_new ();
  c->title = g_strdup ("Canvas benchmark: 500 components, 600 wires");
  for (int i = 0; i < CELLS; i++)
    for (int j = 0; j < CELLS; j++)
      {
        double ox = i * 300, oy = j * 400;
        int n = i * CELLS + j;
        char cyl[16], valve[16], pump[16], tank[16], relief[16], a[32], b[32];
        g_snprintf (cyl, sizeof cyl, "C%d", n);
        g_snprintf (valve, sizeof valve, "V%d", n);
        g_snprintf (pump, sizeof pump, "P%d", n);
        g_snprintf (tank, sizeof tank, "T%d", n);
        g_snprintf (relief, sizeof relief, "RV%d", n);
        add_component (c, cyl, "cylinder_double", ox, oy);
        add_component (c, valve, "dcv_4_3", ox, oy + 120);
        add_component (c, pump, "fixed_pump", ox + 50, oy + 260);
        add_component (c, tank, "tank", ox + 50, oy + 350);
        add_component (c, relief, "relief_valve", ox + 150, oy + 230);
#define WIRE(f, fp, t, tp, ...)                                                                                 \
  do                                                                                                            \
    {                                                                                                           \
      const double r[] = { __VA_ARGS__ };                                                                       \
      g_snprintf (a, sizeof a, "%s.%s", f, fp);                                                                 \
      g_snprintf (b, sizeof b, "%s.%s", t, tp);                                                                 \
      add_wire (c, a, b, r, G_N_ELEMENTS (r) / 2 - 1);                                                          \
    }                                                                                                           \
  while (0)
        WIRE (valve, "A", cyl, "A", ox + 50, oy + 80, ox + 10, oy + 80, 0, 0);
        WIRE (valve, "B", cyl, "B", ox + 70, oy + 80, ox + 90, oy + 80, 0, 0);
        WIRE (pump, "P", valve, "P", 0, 0);
        WIRE (pump, "S", tank, "T", 0, 0);
        WIRE (relief, "P", pump, "P", ox + 170, oy + 200, ox + 50, oy + 200, 0, 0);
        WIRE (relief, "T", tank, "T", ox + 170, oy + 330, ox + 50, oy + 330, 0, 0);
#undef WIRE
      }
  return c;
}

typedef struct {
  const char *name;
  GArray *times; /* ms */
} Series;

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static void
series_stats (const GArray *t, double *mean, double *p95, double *max)
{
  g_autoptr (GArray) s = g_array_copy ((GArray *) t);
  g_array_sort (s, compare_double);
  double sum = 0;
  for (guint i = 0; i < s->len; i++)
    sum += g_array_index (s, double, i);
  *mean = s->len ? sum / s->len : 0;
  *p95 = s->len ? g_array_index (s, double, (guint) MIN (s->len - 1, ceil (0.95 * s->len) - 1)) : 0;
  *max = s->len ? g_array_index (s, double, s->len - 1) : 0;
}

typedef struct {
  HydCanvasView view;
  HydCanvasContent content;
  HydCanvasScene *scene;
  HydCanvasOverlay overlay;
  cairo_surface_t *target;
  guint selected_wire;
} Bench;

static double
frame (Bench *b)
{
  gint64 t0 = g_get_monotonic_time ();
  cairo_t *cr = cairo_create (b->target);
  hyd_canvas_view_draw (&b->view, cr, &b->content, b->scene, &b->overlay);
  cairo_destroy (cr);
  cairo_surface_flush (b->target);
  return (g_get_monotonic_time () - t0) / 1000.0;
}

static void
record (Series *s, double ms)
{
  g_array_append_val (s->times, ms);
}

int
main (int argc, char **argv)
{
  int frames = 240;
  char *png = NULL, *save = NULL;
  GOptionEntry entries[] = {
    { "frames", 0, 0, G_OPTION_ARG_INT, &frames, "Frames per pan sequence (default 240)", "N" },
    { "png", 0, 0, G_OPTION_ARG_FILENAME, &png, "Write the last frame", "FILE" },
    { "save", 0, 0, G_OPTION_ARG_FILENAME, &save, "Write the generated circuit", "FILE" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("— canvas frame times");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  HydSymbolLibrary *lib = hyd_symbol_library_get_default (&error);
  if (lib == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  g_autoptr (HydCircuit) circuit = build_circuit ();
  if (!hyd_circuit_validate (circuit, &error))
    {
      g_printerr ("the generated circuit is invalid: %s\n", error->message);
      return 1;
    }
  if (save && !hyd_circuit_save_to_file (circuit, save, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  HydSymbolStyle style;
  hyd_symbol_style_init_light (&style);
  Bench b = { 0 };
  hyd_canvas_view_init (&b.view);
  b.view.width = WIDTH;
  b.view.height = HEIGHT;
  b.scene = hyd_canvas_scene_new (circuit, lib);
  b.content = (HydCanvasContent) { .circuit = circuit, .library = lib, .style = &style,
                                   .schematic_flags = HYD_SCHEMATIC_SHOW_IDS | HYD_SCHEMATIC_SHOW_NAMES
                                                      | HYD_SCHEMATIC_FREE_PORT_MARKERS,
                                   .show_grid = TRUE, .serial = 1 };
  /* what a user has on screen: a hovered valve and a selected wire */
  b.overlay.hover = (HydCanvasHit) { .kind = HYD_CANVAS_HIT_COMPONENT, .id = "V55" };
  b.selected_wire = 330;
  b.overlay.selected_wires = &b.selected_wire;
  b.overlay.n_selected_wires = 1;
  b.overlay.wire_domain = -1;
  b.target = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);

  HydRect all;
  hyd_canvas_scene_get_bounds (b.scene, &all);
  hyd_canvas_view_fit (&b.view, &all, 24, 2.0);
  double fit_zoom = b.view.zoom;
  frame (&b); /* warm up: fonts, the symbols' caches */

  Series pan_fit = { "drag pan, fitted (all 500 visible)", g_array_new (FALSE, FALSE, sizeof (double)) };
  Series pan_100 = { "drag pan, 100 %", g_array_new (FALSE, FALSE, sizeof (double)) };
  Series wheel = { "wheel zoom in and out (+ settling)", g_array_new (FALSE, FALSE, sizeof (double)) };
  Series pinch = { "pinch zoom (+ settling)", g_array_new (FALSE, FALSE, sizeof (double)) };
  Series full[3] = { { "full redraw, fitted", g_array_new (FALSE, FALSE, sizeof (double)) },
                     { "full redraw, 100 %", g_array_new (FALSE, FALSE, sizeof (double)) },
                     { "full redraw, 200 %", g_array_new (FALSE, FALSE, sizeof (double)) } };
  guint renders0 = b.view.n_layer_renders;

  /* a drag pan: 6 px a frame, turning every 60 frames */
  for (int f = 0; f < frames; f++)
    {
      double dx = ((f / 60) % 2 ? -6 : 6), dy = ((f / 30) % 2 ? 3 : -3);
      b.view.ox -= dx / b.view.zoom;
      b.view.oy -= dy / b.view.zoom;
      hyd_canvas_view_align (&b.view);
      record (&pan_fit, frame (&b));
    }

  /* the wheel: a notch every 3rd frame (20 a second), 12 in then 12 out,
   * about points across the window; the gesture settles 10 frames after
   * the last notch (the widget waits 160 ms) and is drawn sharp */
  for (int k = 0; k < 24; k++)
    {
      double wx = 200 + 880.0 * (k % 5) / 4, wy = 150 + 500.0 * (k % 3) / 2;
      double z = b.view.zoom * (k < 12 ? 1.25 : 1 / 1.25);
      hyd_canvas_view_zoom_at (&b.view, z, wx, wy);
      b.view.zooming = TRUE;
      for (int f = 0; f < 3; f++)
        record (&wheel, frame (&b));
    }
  for (int f = 0; f < 10; f++)
    record (&wheel, frame (&b));
  b.view.zooming = FALSE;
  record (&wheel, frame (&b));

  /* a pinch: the zoom changes every frame for a second, then settles */
  double z0 = b.view.zoom;
  for (int f = 0; f < 60; f++)
    {
      double s = 1 + 1.5 * sin (G_PI * f / 60.0);
      hyd_canvas_view_zoom_at (&b.view, z0 * s, WIDTH / 2.0, HEIGHT / 2.0);
      b.view.zooming = TRUE;
      record (&pinch, frame (&b));
    }
  b.view.zooming = FALSE;
  record (&pinch, frame (&b));

  /* a drag pan at 100 % in the middle of the circuit */
  hyd_canvas_view_zoom_at (&b.view, 1.0, WIDTH / 2.0, HEIGHT / 2.0);
  b.view.ox = 1200;
  b.view.oy = 1500;
  hyd_canvas_view_align (&b.view);
  for (int f = 0; f < frames; f++)
    {
      double dx = ((f / 60) % 2 ? -6 : 6), dy = ((f / 40) % 2 ? 4 : -4);
      b.view.ox -= dx / b.view.zoom;
      b.view.oy -= dy / b.view.zoom;
      hyd_canvas_view_align (&b.view);
      record (&pan_100, frame (&b));
    }
  guint renders = b.view.n_layer_renders - renders0;

  /* the content changes every frame: no cache */
  const double zooms[] = { fit_zoom, 1.0, 2.0 };
  for (guint z = 0; z < 3; z++)
    {
      hyd_canvas_view_fit (&b.view, &all, 24, 2.0);
      hyd_canvas_view_zoom_at (&b.view, zooms[z], WIDTH / 2.0, HEIGHT / 2.0);
      for (int f = 0; f < 40; f++)
        {
          b.content.serial++;
          record (&full[z], frame (&b));
        }
    }

  /* dragging a valve: each grid step undoes the last preview move, moves
   * again (re-routing its wires), rebuilds the scene and draws the layer */
  Series drag = { "drag a valve, live re-route, 100 %", g_array_new (FALSE, FALSE, sizeof (double)) };
  {
    g_autoptr (HydDocument) preview = hyd_document_new_for_circuit (hyd_circuit_copy (circuit));
    const char *ids[] = { "V55", NULL };
    hyd_canvas_view_fit (&b.view, &all, 24, 2.0);
    hyd_canvas_view_zoom_at (&b.view, 1.0, WIDTH / 2.0, HEIGHT / 2.0);
    const HydCircuitComponent *v = hyd_circuit_find_component (circuit, "V55");
    b.view.ox = v->x - WIDTH / 2.0;
    b.view.oy = v->y - HEIGHT / 2.0;
    b.content.circuit = hyd_document_get_circuit (preview);
    b.overlay.hover.kind = HYD_CANVAS_HIT_NONE;
    b.overlay.n_selected_wires = 0;
    for (int f = 0; f < 60; f++)
      {
        gint64 t0 = g_get_monotonic_time ();
        if (f > 0)
          hyd_document_undo (preview);
        hyd_canvas_edit_move (preview, lib, ids, 10.0 * (f % 20), 10.0 * ((f / 20) % 3));
        hyd_canvas_scene_free (b.scene);
        b.scene = hyd_canvas_scene_new (hyd_document_get_circuit (preview), lib);
        b.content.serial++;
        double ms = (g_get_monotonic_time () - t0) / 1000.0;
        record (&drag, ms + frame (&b));
      }
  }

  if (png)
    cairo_surface_write_to_png (b.target, png);

  printf ("bench-canvas: %u components, %u wires, %d × %d, fitted zoom %.0f %%\n", circuit->components->len,
          circuit->connections->len, WIDTH, HEIGHT, 100 * fit_zoom);
  printf ("%-40s %7s %8s %8s %8s\n", "sequence", "frames", "mean ms", "p95 ms", "max ms");
  Series *interactive[] = { &pan_fit, &wheel, &pinch, &pan_100 };
  g_autoptr (GArray) all_times = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint k = 0; k < G_N_ELEMENTS (interactive); k++)
    {
      double mean, p95, max;
      series_stats (interactive[k]->times, &mean, &p95, &max);
      printf ("%-40s %7u %8.2f %8.2f %8.2f\n", interactive[k]->name, interactive[k]->times->len, mean, p95, max);
      g_array_append_vals (all_times, interactive[k]->times->data, interactive[k]->times->len);
    }
  double mean, p95, max;
  series_stats (all_times, &mean, &p95, &max);
  printf ("%-40s %7u %8.2f %8.2f %8.2f   (%u layer redraws)\n", "ALL PAN AND ZOOM", all_times->len, mean, p95, max,
          renders);
  for (guint z = 0; z < 3; z++)
    {
      series_stats (full[z].times, &mean, &p95, &max);
      printf ("%-40s %7u %8.2f %8.2f %8.2f\n", full[z].name, full[z].times->len, mean, p95, max);
    }
  series_stats (drag.times, &mean, &p95, &max);
  printf ("%-40s %7u %8.2f %8.2f %8.2f\n", drag.name, drag.times->len, mean, p95, max);
  g_array_unref (drag.times);
  series_stats (all_times, &mean, &p95, &max);
  printf ("60 fps budget 16.7 ms: pan/zoom p95 %.2f ms — %s\n", p95, p95 < 16.7 ? "met" : "NOT met");

  for (guint k = 0; k < G_N_ELEMENTS (interactive); k++)
    g_array_unref (interactive[k]->times);
  for (guint z = 0; z < 3; z++)
    g_array_unref (full[z].times);
  cairo_surface_destroy (b.target);
  hyd_canvas_view_clear (&b.view);
  hyd_canvas_scene_free (b.scene);
  g_free (png);
  g_free (save);
  return p95 < 16.7 ? 0 : 1;
}
