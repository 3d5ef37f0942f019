/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-canvas-view.h — how the canvas paints a frame (private, no GTK).
 *
 * The view maps canvas units to widget pixels (zoom and origin) and keeps
 * the static layer — the page, the grid and the schematic drawn by
 * hyd_schematic_render — in an image surface a little larger than the
 * window. Panning inside it only copies pixels; the layer is drawn again
 * when the content changes (its serial), when the zoom changes, or when the
 * view leaves it. What changes from frame to frame (hover, the wire being
 * drawn, the rubber band, port markers, a part being placed) is painted on
 * top. The widget's snapshot and the benchmark both paint through
 * hyd_canvas_view_draw, so the benchmark measures what the user sees. */
#pragma once

#include <cairo.h>
#include "hyd-canvas-scene.h"
#include "hyd-schematic.h"

G_BEGIN_DECLS

#define HYD_CANVAS_ZOOM_MIN 0.05
#define HYD_CANVAS_ZOOM_MAX 8.0

typedef struct {
  /* the transform: widget = (canvas − origin) · zoom */
  double zoom;
  double ox, oy;
  int width, height;     /* widget pixels */
  int scale;             /* device pixels per widget pixel */
  /* While a zoom gesture runs, the layer may be shown scaled until it
   * settles (the widget redraws it sharp afterwards). */
  gboolean zooming;

  /* the static layer */
  cairo_surface_t *layer;
  double layer_zoom, layer_ox, layer_oy;
  int layer_w, layer_h, layer_scale;  /* widget pixels, device scale */
  guint64 layer_serial;
  gboolean layer_valid;
  guint n_layer_renders;  /* statistics for the benchmark */
} HydCanvasView;

/* What the static layer shows. */
typedef struct {
  const HydCircuit *circuit;
  HydSymbolLibrary *library;
  const HydSymbolStyle *style;
  guint schematic_flags;                    /* HydSchematicFlags */
  HydSchematicStateFunc component_state;
  HydSchematicPressureFunc port_pressure;
  HydSchematicFlagsFunc component_flags;
  gpointer user_data;
  gboolean show_grid;
  guint64 serial;                           /* change it to redraw the layer */
  HydSchematicLevelFunc port_level;         /* electrical nets carrying current, or NULL */
} HydCanvasContent;

/* The live values of a component's symbol (issue 5, docs/electrical.md):
 * every numeric variable of `symbol` that the run has as
 * "<component>.<variable>" (a rod's x, a spool, a gauge's p, a discrete
 * state such as a coil's energised or a counter's count, and a parameter
 * that is also a discrete state, as a pushbutton's actuated) is set from
 * `variable`; a component with a discrete state "since" and a parameter
 * "delay" (a timer relay) gets "remaining": the run's own variable
 * "<component>.remaining" when it has one, else delay − (t − since) while
 * since ≥ 0 and 0 ≤ t − since < delay, t asked as (NULL, "t"). `state` already holds the
 * parameters. */
typedef gboolean (*HydCanvasLiveVariableFunc) (const char *component_id, const char *variable, double *value,
                                               gpointer user_data);
void hyd_canvas_live_symbol_state (const HydSymbol *symbol, const HydCircuitComponent *component,
                                   HydCanvasLiveVariableFunc variable, gpointer user_data, HydSymbolState *state);

/* What is painted over it, in canvas units. */
/* The heat-map level of a highlight entry (hyd_canvas_set_highlight_levels:
 * 1 + 1000·level in the value), or −1 for a plain highlight (value == key). */
static inline double
hyd_canvas_highlight_level_of (gconstpointer key, gconstpointer value)
{
  guintptr v = GPOINTER_TO_SIZE (value);
  return value != key && v >= 1 && v <= 1001 ? (double) (v - 1) / 1000.0 : -1.0;
}

typedef struct {
  HydCanvasHit hover;                       /* kind NONE: nothing */
  GHashTable *selection;                    /* selected ids: junctions get a halo here */
  const guint *selected_wires;
  guint n_selected_wires;
  GHashTable *highlight;                    /* ids and "C.P" port refs, or NULL */
  gboolean band;                            /* the rubber band */
  HydRect band_rect;
  gboolean band_crossing;
  const GArray *wire;                       /* the wire being drawn, or NULL */
  int wire_domain;                          /* its domain, −1 unknown: the style it is drawn in */
  int wire_arrow;                           /* a signal's arrowhead: +1 at its free end, −1 at its start (an input) */
  gboolean port_markers;                    /* a marker on every port (while wiring) */
  HydSymbol *ghost;                         /* a part being placed, or NULL */
  HydSymbolPose ghost_pose;
  const char *message;                      /* a note in the bottom-left corner, or NULL */
} HydCanvasOverlay;

void hyd_canvas_view_init (HydCanvasView *view);
void hyd_canvas_view_clear (HydCanvasView *view);
/* Forget the layer (e.g. the theme changed). */
void hyd_canvas_view_invalidate (HydCanvasView *view);

void hyd_canvas_view_to_canvas (const HydCanvasView *view, double wx, double wy, double *x, double *y);
void hyd_canvas_view_to_widget (const HydCanvasView *view, double x, double y, double *wx, double *wy);
/* Put the origin on a whole device pixel, so the layer is copied 1:1. */
void hyd_canvas_view_align (HydCanvasView *view);
/* Zoom to `zoom` (clamped) keeping the canvas point under widget (wx, wy). */
void hyd_canvas_view_zoom_at (HydCanvasView *view, double zoom, double wx, double wy);
/* Show a canvas rectangle whole, centred, with `margin` pixels around,
 * the zoom at most max_zoom. */
void hyd_canvas_view_fit (HydCanvasView *view, const HydRect *rect, double margin, double max_zoom);
/* The canvas rectangle the widget shows. */
void hyd_canvas_view_visible (const HydCanvasView *view, HydRect *rect);

/* Paint a frame: the static layer (drawn again if needed), then the
 * overlay, then the note. `cr`'s user space is widget pixels. */
void hyd_canvas_view_draw (HydCanvasView *view, cairo_t *cr, const HydCanvasContent *content,
                           const HydCanvasScene *scene, const HydCanvasOverlay *overlay);

/* The same in steps, for a caller that composites the layer itself (the
 * widget hands it to GSK as a texture, which a GL renderer keeps on the
 * GPU): bring the layer up to date (TRUE when it was drawn again); where
 * it goes in widget pixels (scaled while a zoom gesture runs); the overlay
 * and the note. The layer is an opaque ARGB32 image in device pixels with
 * its device scale set. */
gboolean hyd_canvas_view_update_layer (HydCanvasView *view, const HydCanvasContent *content);
void hyd_canvas_view_layer_rect (const HydCanvasView *view, HydRect *rect);
void hyd_canvas_view_draw_overlay (HydCanvasView *view, cairo_t *cr, const HydCanvasContent *content,
                                   const HydCanvasScene *scene, const HydCanvasOverlay *overlay);

/* The state a component is drawn in (parameters, connected ports, live
 * values through content's callbacks): the same as the layer draws. */
void hyd_canvas_component_state (const HydCanvasContent *content, const HydCanvasScene *scene,
                                 const HydCanvasSceneComponent *c, HydSymbolState *state);

G_END_DECLS
