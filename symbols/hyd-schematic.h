/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-schematic.h — drawing a whole circuit: symbols at their poses, wires,
 * junction dots, labels and teaching colours; export to SVG, PDF and PNG. */
#pragma once

#include <cairo.h>
#include "hyd-circuit.h"
#include "hyd-symbol.h"
#include "hyd-symbol-render.h"

G_BEGIN_DECLS

typedef enum {
  HYD_SCHEMATIC_SHOW_IDS = 1 << 0,          /* component ids beside the symbols */
  HYD_SCHEMATIC_SHOW_NAMES = 1 << 1,        /* their labels ("Lift cylinder") */
  HYD_SCHEMATIC_PRESSURE_COLOURS = 1 << 2,  /* wires and port leads by node pressure (port_pressure) */
  HYD_SCHEMATIC_FREE_PORT_MARKERS = 1 << 3, /* a marker on every unconnected required port */
  HYD_SCHEMATIC_BACKGROUND = 1 << 4,        /* paint the page (exports do) */
} HydSchematicFlags;

typedef enum {
  HYD_SCHEMATIC_LAYER_WIRES = 1 << 0,
  HYD_SCHEMATIC_LAYER_JUNCTIONS = 1 << 1,
  HYD_SCHEMATIC_LAYER_SYMBOLS = 1 << 2,
  HYD_SCHEMATIC_LAYER_LABELS = 1 << 3,
  HYD_SCHEMATIC_LAYER_ALL = 0xf,
} HydSchematicLayer;

/* Fill a component's symbol state for animation (spool, x, opening, a
 * gauge's p ...). Called after the state holds the component's parameters,
 * its connected ports and, with pressure colours, its port pressures. */
typedef void (*HydSchematicStateFunc) (const HydCircuitComponent *component, HydSymbolState *state,
                                       gpointer user_data);
/* Pressure (Pa) of the node a component port belongs to; NAN if unknown. */
typedef double (*HydSchematicPressureFunc) (const char *component_id, const char *port, gpointer user_data);
/* HydSymbolRenderFlags for a component (selection and hover halos). */
typedef guint (*HydSchematicFlagsFunc) (const HydCircuitComponent *component, gpointer user_data);
/* Electrical control: the level of the electrical net a component port is
 * on (bit 2 set: it carries current, as hyd_system_get_elec_levels says);
 * FALSE when unknown. */
typedef gboolean (*HydSchematicLevelFunc) (const char *component_id, const char *port, guint *level,
                                           gpointer user_data);

typedef struct {
  HydSymbolLibrary *library;       /* NULL: hyd_symbol_library_get_default () */
  const HydSymbolStyle *style;     /* NULL: light (print for SVG and PDF exports) */
  guint flags;                     /* HydSchematicFlags */
  guint layers;                    /* HydSchematicLayer; 0 is taken as all */
  HydSchematicStateFunc component_state;
  HydSchematicPressureFunc port_pressure;
  HydSchematicFlagsFunc component_flags;
  gpointer user_data;
  double margin;                   /* M of page around the drawing in exports */
  HydSchematicLevelFunc port_level; /* NULL: no current shown; else wires carrying current are red */
} HydSchematicOptions;

/* Ids and names shown, all layers, a 2 M margin, the default library. */
void hyd_schematic_options_init (HydSchematicOptions *options);

/* World position of a wire end: "COMP.PORT" (the end of the port's lead,
 * with the port's outward direction) or a junction id (no direction). FALSE
 * when the reference names nothing drawable. */
gboolean hyd_schematic_endpoint (const HydCircuit *circuit, HydSymbolLibrary *library, const char *ref,
                                 double *x, double *y, HydDirection *dir, gboolean *has_dir);

/* The orthogonal polyline of a wire from (x0, y0) through `via` (n_via
 * points as x, y pairs) to (x1, y1): elbows are added where two points are
 * not aligned, so that the wire leaves a port along its outward direction
 * and arrives at one along its axis; collinear and repeated points are
 * dropped. `points` (of double, as x, y pairs) is overwritten. */
void hyd_schematic_route (double x0, double y0, gboolean has_dir0, HydDirection dir0, const double *via,
                          guint n_via, double x1, double y1, gboolean has_dir1, HydDirection dir1,
                          GArray *points);
/* The polyline of one connection of the circuit. FALSE when an end is missing. */
gboolean hyd_schematic_wire_points (const HydCircuit *circuit, HydSymbolLibrary *library,
                                    const HydCircuitConnection *connection, GArray *points);

/* How a wire is drawn, by the domain of its node (design §1.3): a working
 * line (hydraulic), a thin dashed line in the signal colour with an
 * arrowhead where it enters an input (a block diagram's directed line), a
 * double line for a mechanical link (translational, rotational), or a thin
 * solid line for an electrical wire (half a working line), drawn in the
 * style's current colour while it carries current. */
typedef enum {
  HYD_WIRE_WORKING,
  HYD_WIRE_SIGNAL,
  HYD_WIRE_MECHANICAL,
  HYD_WIRE_ELECTRICAL,   /* a thin solid line, as a current-path diagram draws it */
} HydWireStyle;

#define HYD_WIRE_DOUBLE_LINE_SPACING 0.8 /* M between the centres of a double line's lines */
#define HYD_WIRE_ARROW_LENGTH 1.0        /* M: a signal arrowhead, as a valve's flow-path arrow */
#define HYD_WIRE_ARROW_WIDTH 0.5         /* M across its base */

/* The style of a wire on a node of `domain` (a HydDomain). */
HydWireStyle hyd_schematic_wire_style (int domain);
/* Device width of the whole stroke of a wire whose working line is
 * `line_width` device units wide at `unit` device units per M. */
double hyd_schematic_wire_width (HydWireStyle wire_style, double line_width, double unit, gboolean snap);
/* Stroke a polyline (user space, n_points x, y pairs) in a wire style and
 * colour; `line_width` is the working line's width in device units.
 * `round` gives round caps and joins (a wire being drawn). */
void hyd_schematic_stroke_wire (cairo_t *cr, const HydSymbolStyle *style, const double *points, guint n_points,
                                HydWireStyle wire_style, const HydRgba *colour, double line_width, gboolean round);
/* A signal line's arrowhead with its tip at (tip_x, tip_y), pointing away
 * from (from_x, from_y) (user space). */
void hyd_schematic_draw_signal_arrow (cairo_t *cr, double tip_x, double tip_y, double from_x, double from_y,
                                      const HydRgba *colour);

/* Draw the circuit; the cairo's user space is the canvas (1 unit = 1 px at 100 %). */
void hyd_schematic_render (cairo_t *cr, const HydCircuit *circuit, const HydSchematicOptions *options);
/* Canvas-unit bounds of everything render draws (without the margin). */
void hyd_schematic_get_bounds (const HydCircuit *circuit, const HydSchematicOptions *options, HydRect *bounds);

/* Write the schematic to path; the format follows the extension (.svg, .pdf
 * or .png). `scale` is device units per canvas unit: pixels for PNG, points
 * for SVG and PDF. `options` may be NULL. */
gboolean hyd_schematic_export (const HydCircuit *circuit, const char *path, double scale,
                               const HydSchematicOptions *options, GError **error);

G_END_DECLS
