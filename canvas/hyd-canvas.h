/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-canvas.h — the schematic editor widget (issue 4).
 *
 * HydCanvas shows a HydDocument with the ISO 1219 symbols of symbols/ and
 * edits it only through the document's undoable commands. Coordinates: the
 * document's canvas units (1 unit = 1 px at 100 % zoom, grid = 10). */
#pragma once

#include <gtk/gtk.h>
#include "hyd-document.h"
#include "hyd-symbol-render.h"

G_BEGIN_DECLS

#define HYD_TYPE_CANVAS (hyd_canvas_get_type ())
G_DECLARE_FINAL_TYPE (HydCanvas, hyd_canvas, HYD, CANVAS, GtkWidget)

typedef enum {
  HYD_CANVAS_TOOL_SELECT,  /* select, move, rubber band; wires start by dragging from a port */
  HYD_CANVAS_TOOL_WIRE,    /* click a port, click bends, click a port or a wire to finish */
  HYD_CANVAS_TOOL_PROBE,   /* click a port or a component: emits "probe" */
} HydCanvasTool;

GtkWidget *hyd_canvas_new (void);

void hyd_canvas_set_document (HydCanvas *self, HydDocument *document);
HydDocument *hyd_canvas_get_document (HydCanvas *self);

/* Tools. begin_place arms the place tool: the next click on the canvas (or a
 * drop from the palette's drag source, whose content is the type id as a
 * string) places a component of that type; Escape cancels. */
void hyd_canvas_set_tool (HydCanvas *self, HydCanvasTool tool);
HydCanvasTool hyd_canvas_get_tool (HydCanvas *self);
void hyd_canvas_begin_place (HydCanvas *self, const char *type_id);
/* The type the armed place tool places, or NULL. */
const char *hyd_canvas_get_place_type (HydCanvas *self);

/* Selection (component and junction ids). "selection-changed" is emitted. */
GStrv hyd_canvas_get_selection (HydCanvas *self);
void hyd_canvas_set_selection (HydCanvas *self, const char *const *ids);
void hyd_canvas_select_all (HydCanvas *self);

/* View. */
void hyd_canvas_zoom_to_fit (HydCanvas *self);
void hyd_canvas_set_zoom (HydCanvas *self, double zoom);   /* 1.0 = 100 % */
double hyd_canvas_get_zoom (HydCanvas *self);
void hyd_canvas_set_show_labels (HydCanvas *self, gboolean show);
gboolean hyd_canvas_get_show_labels (HydCanvas *self);
void hyd_canvas_set_dark (HydCanvas *self, gboolean dark);   /* theme for dark backgrounds */
/* Canvas-unit point under a widget point, and back. */
void hyd_canvas_widget_to_doc (HydCanvas *self, double wx, double wy, double *x, double *y);
void hyd_canvas_doc_to_widget (HydCanvas *self, double x, double y, double *wx, double *wy);

/* Problems to report before saving: unconnected required ports ("C1.B",
 * the engine's check, hyd_circuit_unconnected_ports), junctions with one
 * wire, wires that end nowhere. NULL when there are none. */
GStrv hyd_canvas_check (HydCanvas *self);
/* Highlight components (e.g. those a failed check names); NULL clears. */
void hyd_canvas_set_highlight (HydCanvas *self, const char *const *ids);
/* What is highlighted now, sorted; NULL when nothing is. */
GStrv hyd_canvas_dup_highlight (HydCanvas *self);
/* A heat map (the solver lab): highlight components with an intensity
 * levels[k] in [0, 1] each (clamped), drawn from pale yellow to red in
 * proportion; NULL ids clears. hyd_canvas_dup_highlight lists them too. */
void hyd_canvas_set_highlight_levels (HydCanvas *self, const char *const *ids, const double *levels);
/* The intensity of a component highlighted by set_highlight_levels, or −1
 * (not highlighted, or highlighted without one). */
double hyd_canvas_get_highlight_level (HydCanvas *self, const char *id);
/* The components linked to the selection by reference parameters
 * (docs/electrical.md), drawn with a light halo: what a selected solenoid
 * Y1 drives, a relay's contacts, the component a contact or limit switch
 * names. Sorted; NULL when none. */
GStrv hyd_canvas_dup_linked (HydCanvas *self);

/* Live state while a simulation runs (issue 5): node pressures colour the
 * wires, component variables move rods and spools. The callbacks are asked
 * during drawing; call hyd_canvas_queue_live_redraw after new data. */
typedef double (*HydCanvasPressureFunc) (const char *component_id, const char *port, gpointer user_data);
typedef gboolean (*HydCanvasVariableFunc) (const char *component_id, const char *variable,
                                           double *value, gpointer user_data);
void hyd_canvas_set_live (HydCanvas *self, HydCanvasPressureFunc pressure,
                          HydCanvasVariableFunc variable, gpointer user_data, GDestroyNotify destroy);
void hyd_canvas_clear_live (HydCanvas *self);
/* Electrical control (docs/electrical.md), with the live callbacks' data:
 * the level of the electrical net of a component's port (bit 2: it carries
 * current), FALSE when unknown. Wires and port leads on a net carrying
 * current are drawn in the style's current colour. Set after
 * hyd_canvas_set_live; hyd_canvas_clear_live clears it. The variable
 * callback is also asked for the time of the sample shown, with a NULL
 * component and the variable "t". */
typedef gboolean (*HydCanvasLevelFunc) (const char *component_id, const char *port, guint *level,
                                        gpointer user_data);
void hyd_canvas_set_live_levels (HydCanvas *self, HydCanvasLevelFunc level);
void hyd_canvas_queue_live_redraw (HydCanvas *self);
/* Replay after a run (issue 8): the live callbacks still draw the state (a
 * replayed sample) but editing is not locked. hyd_canvas_clear_live ends it. */
void hyd_canvas_set_replay (HydCanvas *self, gboolean replay);
/* The run is paused: editing stays locked, the pill over the schematic
 * says "Paused — editing locked" instead of "Running — editing locked". */
void hyd_canvas_set_paused (HydCanvas *self, gboolean paused);
/* The pill's text while editing is locked by a run (translated), else NULL. */
const char *hyd_canvas_get_lock_message (HydCanvas *self);
/* The pressure colour scale (Pa gauge): pressures colour wires and chambers
 * on a ramp from p_min to p_max (hyd_symbol_style_pressure_colour); the
 * window's legend shows the same range. p_max <= p_min: the style's own
 * (0–200 bar). */
void hyd_canvas_set_pressure_range (HydCanvas *self, double p_min, double p_max);
/* The style the live schematic is drawn with (colours, pressure range). */
void hyd_canvas_get_style (HydCanvas *self, HydSymbolStyle *style);

/* ---- additions (issue 4) ---- */

/* GType of HydCanvasTool (the "tool" property). */
#define HYD_TYPE_CANVAS_TOOL (hyd_canvas_tool_get_type ())
GType hyd_canvas_tool_get_type (void);
/* Selected wires (connection indices, in the order they were selected);
 * free with g_free. Delete removes them with the selected items. */
guint *hyd_canvas_get_selected_wires (HydCanvas *self, guint *n_wires);
/* The theme in use: dark when set so, else when GTK prefers a dark theme. */
gboolean hyd_canvas_get_dark (HydCanvas *self);
/* (hyd_canvas_check names a required port with no wire "C1.B", a junction
 * where only one wire ends "J2", and a wire end that names nothing by that
 * name; hyd_canvas_set_highlight takes the same strings: a part gets a box,
 * a port or junction a ring.) */

/* Properties: "document", "tool", "zoom", "show-labels", "dark".
 * Signals:
 *   "selection-changed" ()
 *   "probe" (const char *variable)   — HYD_CANVAS_TOOL_PROBE: "C1.A.p", "C1.x"...
 *   "component-activated" (const char *id) — double click on a component
 * Actions (gtk_widget_class_install_action, prefix "canvas."): rotate (R),
 * mirror (M), delete (Delete), duplicate (Ctrl+D), cut, copy, paste
 * (Ctrl+X/C/V through the GdkClipboard as circuit JSON, so also between
 * windows and programs), select-all (Ctrl+A), undo (Ctrl+Z), redo
 * (Ctrl+Shift+Z), zoom-in (+), zoom-out (−), zoom-fit, toggle-labels.
 * Also: rotate-ccw (Shift+R), zoom-fit on Home and F, tool-select,
 * tool-wire (W), tool-probe, cancel (Escape: the wire or move in progress,
 * then the part being placed, then the tool, then the selection). Keys
 * without actions: arrows move the selection one grid step (Shift: ten),
 * Space toggles H–V/V–H while a wire is drawn and pans with a drag
 * otherwise. While a part is placed, R and M turn it before it goes down. */

G_END_DECLS
