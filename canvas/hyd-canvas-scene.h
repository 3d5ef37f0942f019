/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-canvas-scene.h — what the canvas shows, as geometry (private).
 *
 * A scene is derived from a circuit and a symbol library: every component's
 * symbol and pose with its bounds, every wire's drawn polyline, the number of
 * wire ends at each port and junction, and the domain of each net. The canvas
 * rebuilds it whenever the document changes and asks it where things are:
 * hit tests, rubber-band selection, the problems to report before saving.
 * No GTK here, so all of it is unit-tested without a display. */
#pragma once

#include <math.h>

#include "hyd-circuit.h"
#include "hyd-catalogue.h"
#include "hyd-symbol.h"
#include "hyd-symbol-render.h"

G_BEGIN_DECLS

/* Design §4: port capture radius, wire pick tolerance, body margin (M). */
#define HYD_CANVAS_PORT_RADIUS 0.6
#define HYD_CANVAS_WIRE_TOLERANCE 0.5
#define HYD_CANVAS_BODY_TOLERANCE 0.3
/* Canvas units per grid step (circuit-format.md). */
#define HYD_CANVAS_GRID 10.0

typedef struct {
  HydCircuitComponent *comp;    /* borrowed from the circuit */
  HydSymbol *symbol;            /* borrowed from the library; NULL: a type without a symbol */
  const HydComponentType *type; /* NULL for an unknown type */
  HydSymbolPose pose;
  HydRect bounds;               /* the rest drawing, or the box drawn for a missing symbol */
} HydCanvasSceneComponent;

typedef struct {
  HydCircuitConnection *conn;   /* borrowed */
  GArray *points;               /* drawn polyline (x, y pairs); NULL when an end is missing */
  HydRect bounds;
} HydCanvasSceneWire;

typedef struct _HydCanvasScene HydCanvasScene;

HydCanvasScene *hyd_canvas_scene_new (const HydCircuit *circuit, HydSymbolLibrary *library);
void hyd_canvas_scene_free (HydCanvasScene *scene);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydCanvasScene, hyd_canvas_scene_free)

const HydCircuit *hyd_canvas_scene_get_circuit (const HydCanvasScene *scene);
HydSymbolLibrary *hyd_canvas_scene_get_library (const HydCanvasScene *scene);
guint hyd_canvas_scene_get_n_components (const HydCanvasScene *scene);
const HydCanvasSceneComponent *hyd_canvas_scene_get_component (const HydCanvasScene *scene, guint index);
const HydCanvasSceneComponent *hyd_canvas_scene_find_component (const HydCanvasScene *scene, const char *id);
guint hyd_canvas_scene_get_n_wires (const HydCanvasScene *scene);
const HydCanvasSceneWire *hyd_canvas_scene_get_wire (const HydCanvasScene *scene, guint index);
const HydCircuitJunction *hyd_canvas_scene_find_junction (const HydCanvasScene *scene, const char *id);

/* Number of wire ends at "COMP.PORT" or at a junction id. */
guint hyd_canvas_scene_wire_count (const HydCanvasScene *scene, const char *ref);
/* World position of a wire end ("COMP.PORT" or a junction id), with the
 * port's outward direction when it has one. FALSE when it names nothing. */
gboolean hyd_canvas_scene_endpoint (const HydCanvasScene *scene, const char *ref, double *x, double *y,
                                    HydDirection *dir, gboolean *has_dir);
/* Domain (HydDomain) of a port, or of the net a junction or wire belongs
 * to (the first port reached through wires); −1 when nothing decides it. */
int hyd_canvas_scene_ref_domain (const HydCanvasScene *scene, const char *ref);
int hyd_canvas_scene_wire_domain (const HydCanvasScene *scene, guint wire);
/* Domain of a port of a component, −1 if unknown. */
int hyd_canvas_scene_port_domain (const HydCanvasScene *scene, const HydCanvasSceneComponent *c, const char *port);

/* Bounds of everything (symbols, wires, junctions); FALSE when empty. */
gboolean hyd_canvas_scene_get_bounds (const HydCanvasScene *scene, HydRect *bounds);
/* Bounds of some components and junctions. FALSE when none exists. */
gboolean hyd_canvas_scene_items_bounds (const HydCanvasScene *scene, const char *const *ids, HydRect *bounds);

/* ---- hit testing ---- */

typedef enum {
  HYD_CANVAS_HIT_NONE = 0,
  HYD_CANVAS_HIT_PORT = 1 << 0,
  HYD_CANVAS_HIT_JUNCTION = 1 << 1,
  HYD_CANVAS_HIT_COMPONENT = 1 << 2,  /* on the drawing, or inside its box */
  HYD_CANVAS_HIT_WIRE = 1 << 3,
  HYD_CANVAS_HIT_ALL = 0xf,
} HydCanvasHitKind;

typedef struct {
  HydCanvasHitKind kind;
  const char *id;        /* component or junction id (borrowed from the circuit) */
  const char *port;      /* port name (borrowed from the symbol) */
  guint wire;            /* connection index */
  guint segment;         /* segment of the wire's polyline */
  double x, y;           /* the port or junction; the nearest point on the wire */
  HydDirection dir;      /* a port's outward direction */
  gboolean has_dir;
} HydCanvasHit;

/* What is at (x, y)? `pixel` is canvas units per screen pixel, so that
 * small things stay easy to hit when zoomed out. Order of preference: a
 * port, a junction, a symbol's drawing, a wire, a symbol's box. `kinds` is
 * a mask of HydCanvasHitKind. Returns the kind (NONE: nothing). */
HydCanvasHitKind hyd_canvas_scene_hit (const HydCanvasScene *scene, double x, double y, double pixel, guint kinds,
                                       HydCanvasHit *hit);
/* The wire nearest to (x, y) within tol, or FALSE. */
gboolean hyd_canvas_scene_hit_wire (const HydCanvasScene *scene, double x, double y, double tol, HydCanvasHit *hit);

/* Items a rubber band selects: `crossing` FALSE takes what lies wholly
 * inside (a drag to the right), TRUE what it touches (to the left).
 * Appends component and junction ids (borrowed) and wire indices. */
void hyd_canvas_scene_items_in_rect (const HydCanvasScene *scene, const HydRect *rect, gboolean crossing,
                                     GPtrArray *ids, GArray *wires);

/* Problems to report before saving: required ports with no wire
 * ("C1.B"), junctions where a wire ends with nothing else ("J2"), wires
 * that name a missing end ("C9.A"). NULL when there are none. */
GStrv hyd_canvas_scene_check (const HydCanvasScene *scene);

/* The variable the probe tool reports for a component's body: a state or
 * output that says what the part does (C1.x, M1.w, V1.spool, RV1.opening,
 * FM1.q), else its first discrete state (S1.actuated, K1.energised), else
 * the pressure at its first port. Free it. */
char *hyd_canvas_scene_probe_variable (const HydCanvasScene *scene, const char *component_id);
/* For a port: its node's pressure ("V1.P.p"); for an electrical port, which
 * has none, what its component does (hyd_canvas_scene_probe_variable). */
char *hyd_canvas_scene_probe_port (const HydCanvasScene *scene, const char *component_id, const char *port);
/* For a wire: what a port in its net reports (hyd_canvas_scene_probe_port). */
char *hyd_canvas_scene_probe_wire (const HydCanvasScene *scene, guint wire);

/* Distance from a point to a segment, and the nearest point on it. */
double hyd_canvas_segment_distance (double ax, double ay, double bx, double by, double px, double py, double *qx,
                                    double *qy);

static inline double
hyd_canvas_snap (double v)
{
  return HYD_CANVAS_GRID * floor (v / HYD_CANVAS_GRID + 0.5);
}

G_END_DECLS
