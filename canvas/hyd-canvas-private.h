/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-canvas-private.h — what the canvas's own files share (hyd-canvas.c,
 * hyd-canvas-input.c, hyd-canvas-actions.c), and the entry points its tests
 * use.
 *
 * The pointer entry points are what the widget's gestures call; the
 * widget tests drive the same code with them where no real input device
 * exists (the end-to-end test drives the gestures themselves with
 * xdotool). */
#pragma once

#include "hyd-canvas.h"
#include "hyd-canvas-scene.h"
#include "hyd-canvas-view.h"

G_BEGIN_DECLS

#define HYD_CANVAS_CLIPBOARD_MIME "application/x-bramah-circuit"
#define HYD_CANVAS_ZOOM_STEP 1.25
#define HYD_CANVAS_ZOOM_SETTLE_MS 160
#define HYD_CANVAS_FIT_MARGIN 24.0
/* The strip at the top of the view kept free by a fit (the window's info
 * and running bars float there, over the schematic). */
#define HYD_CANVAS_FIT_TOP_INSET 48.0
/* A fit never zooms in past 100 %: a lone part placed on an empty page is
 * shown at its natural size, not blown up to fill the view. */
#define HYD_CANVAS_FIT_MAX_ZOOM 1.0
/* After a fit, resizes this soon are the window finding its size and fit
 * again; later ones (an info bar, the running banner, a wider panel) keep
 * the zoom and leave the schematic where it is on the screen. */
#define HYD_CANVAS_FIT_SETTLE_US (G_USEC_PER_SEC)

typedef enum {
  MODE_IDLE,
  MODE_PRESS,   /* primary button down, not dragged yet */
  MODE_MOVE,    /* dragging the selection */
  MODE_BAND,    /* rubber band */
  MODE_PAN,     /* middle button, or Space + primary */
  MODE_WIRE,    /* drawing a wire: follows the pointer until it ends on something */
} HydCanvasMode;

struct _HydCanvas {
  GtkWidget parent_instance;

  /* Owned references */
  HydDocument *document;
  HydDocument *preview;          /* scratch copy shown while dragging */
  HydCanvasScene *scene;         /* of the circuit shown */
  GHashTable *selection;         /* component and junction ids (owned keys) */
  GHashTable *linked;            /* ids linked to the selection by references (owned keys) */
  GArray *selected_wires;        /* connection indices */
  GPtrArray *selected_wire_keys; /* "from\nto" of each, to find them again after edits */
  GHashTable *highlight;         /* ids and port refs (owned) */
  GHashTable *place_poses;       /* type id → last rotation/mirror used (packed) */
  char *place_type;              /* armed place tool, or NULL */
  char *drop_type;               /* a palette drag over the canvas */

  /* Borrowed references */
  HydSymbolLibrary *library;
  gulong changed_id;

  HydCanvasView view;
  GdkTexture *layer_texture;     /* the view's layer, for GL renderers */
  guint texture_renders;
  HydSymbolStyle style;
  double pressure_min, pressure_max;  /* the colour scale; max <= min: the style's */
  guint64 serial;
  HydCanvasTool tool;
  guint show_labels : 1;
  guint dark : 1;
  guint dark_explicit : 1;
  guint replay : 1;              /* live state shown after a run: editing allowed */
  guint paused : 1;              /* the locked run is paused (the pill says so) */
  guint fit_pending : 1;
  guint view_fitted : 1;         /* the view is still the fit: a resize while the window
                                  * settles (HYD_CANVAS_FIT_SETTLE_US) fits again */
  gint64 fit_time;               /* when the view was last fitted */
  guint pointer_inside : 1;
  guint space_down : 1;
  guint place_mirror : 1;
  int place_rotation;

  /* pointer */
  double pointer_wx, pointer_wy;
  HydCanvasHit hover;
  char *hover_key;               /* identity of the hover, to redraw only on change */
  const char *cursor;

  /* the gesture in progress */
  HydCanvasMode mode;
  guint press_button;
  double press_wx, press_wy;
  double press_x, press_y;       /* canvas */
  GdkModifierType press_state;
  HydCanvasHitKind press_kind;
  char *press_id;                /* component, junction or port owner */
  char *press_port;
  guint press_wire;
  gboolean press_was_selected;
  double last_press_time;
  double last_press_wx, last_press_wy;
  /* move */
  GStrv move_ids;
  double move_dx, move_dy;
  /* band */
  HydRect band;
  gboolean band_crossing;
  /* pan */
  double pan_wx, pan_wy;
  /* wire */
  GArray *wire_vertices;         /* start and bends so far */
  GArray *wire_preview;          /* the polyline shown */
  char *wire_start_ref;          /* port or junction; NULL: a point on a wire */
  guint wire_start_wire;
  gboolean wire_has_dir;
  HydDirection wire_dir;
  int wire_domain;
  gboolean wire_toggled;
  gboolean wire_moved;           /* the pointer left the start since the last click */

  /* live state */
  HydCanvasPressureFunc live_pressure;
  HydCanvasVariableFunc live_variable;
  HydCanvasLevelFunc live_level;
  gpointer live_data;
  GDestroyNotify live_destroy;

  /* zoom gestures */
  double pinch_zoom0;
  guint settle_id;
};

/* hyd-canvas.c */
gboolean _hyd_canvas_can_edit (HydCanvas *self);
double _hyd_canvas_pixel (HydCanvas *self);
char *_hyd_canvas_place_at (HydCanvas *self, const char *type, double wx, double wy);
void _hyd_canvas_rebuild_scene (HydCanvas *self);
void _hyd_canvas_recall_pose (HydCanvas *self, const char *type);
void _hyd_canvas_select_ids (HydCanvas *self, const char *const *ids);
void _hyd_canvas_select_only (HydCanvas *self, const char *id);
void _hyd_canvas_select_wire (HydCanvas *self, guint wire, gboolean on);
void _hyd_canvas_selection_changed (HydCanvas *self);
GStrv _hyd_canvas_selection_ids (HydCanvas *self);
void _hyd_canvas_update_cursor (HydCanvas *self);
void _hyd_canvas_update_hover (HydCanvas *self);
void _hyd_canvas_view_changed (HydCanvas *self);
void _hyd_canvas_widget_to_canvas (HydCanvas *self, double wx, double wy, double *x, double *y);
gboolean _hyd_canvas_wire_selected (HydCanvas *self, guint wire, guint *position);
void _hyd_canvas_zoom_about (HydCanvas *self, double zoom);
void _hyd_canvas_zoom_interactive (HydCanvas *self, double zoom, double wx, double wy);
void _hyd_canvas_emit_probe (HydCanvas *self, const char *variable);
void _hyd_canvas_emit_activated (HydCanvas *self, const char *id);

/* hyd-canvas-input.c */
void _hyd_canvas_cancel_gesture (HydCanvas *self);
void _hyd_canvas_init_input (HydCanvas *self);

/* hyd-canvas-actions.c */
void _hyd_canvas_update_actions (HydCanvas *self);
void _hyd_canvas_class_init_actions (GtkWidgetClass *widget_class);

/* ---- for the tests ---- */

/* Widget coordinates; button 1 primary, 2 middle; state: GdkModifierType. */
void _hyd_canvas_pointer_press (HydCanvas *self, double wx, double wy, guint button, GdkModifierType state);
void _hyd_canvas_pointer_motion (HydCanvas *self, double wx, double wy, GdkModifierType state);
void _hyd_canvas_pointer_release (HydCanvas *self, double wx, double wy, guint button, GdkModifierType state);
/* A key as the canvas's key controller sees it; TRUE when handled. */
gboolean _hyd_canvas_key (HydCanvas *self, guint keyval, GdkModifierType state, gboolean pressed);
/* Place a component of `type_id` as a drop from the palette at (wx, wy). */
gboolean _hyd_canvas_drop (HydCanvas *self, const char *type_id, double wx, double wy);
HydCanvasView *_hyd_canvas_get_view (HydCanvas *self);
/* What is painted over the static layer this frame, and painting it alone
 * (tests: the wire being drawn). */
void _hyd_canvas_fill_overlay (HydCanvas *self, HydCanvasOverlay *overlay);
void _hyd_canvas_draw_overlay (HydCanvas *self, cairo_t *cr);

G_END_DECLS
