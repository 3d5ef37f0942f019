/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-canvas-edit.h — the canvas's edits as document commands (private,
 * no GTK).
 *
 * Each function is one undoable command on the HydDocument (a group of its
 * primitive edits): moving, turning and mirroring keep wires attached and
 * orthogonal, placing turns a new part the way the user chose, finishing a
 * wire on another wire splits it with a junction. The same functions drive
 * the canvas's live preview on a scratch copy of the document, so what is
 * shown while dragging is exactly what is committed. */
#pragma once

#include "hyd-document.h"
#include "hyd-canvas-scene.h"

G_BEGIN_DECLS

/* Move components and junctions by (dx, dy); wires with one end among
 * them are re-routed, keeping their bends (hyd_canvas_route_reroute). */
void hyd_canvas_edit_move (HydDocument *doc, HydSymbolLibrary *library, const char *const *ids, double dx,
                           double dy);
/* Turn clockwise by quarter turns, or mirror left–right, keeping the
 * selection's centre where it was (on the grid). */
void hyd_canvas_edit_rotate (HydDocument *doc, HydSymbolLibrary *library, const char *const *ids,
                             int quarter_turns);
void hyd_canvas_edit_mirror (HydDocument *doc, HydSymbolLibrary *library, const char *const *ids);
/* A new component at (x, y) turned by `rotation` degrees and mirrored.
 * Returns its id, or NULL for an unknown type. */
char *hyd_canvas_edit_place (HydDocument *doc, const char *type, double x, double y, int rotation,
                             gboolean mirror);
/* Delete wires (connection indices) and items in one command. */
void hyd_canvas_edit_delete (HydDocument *doc, const char *const *ids, const guint *wires, guint n_wires);
/* Split a wire with a new junction at (x, y) (on the drawn wire), sharing
 * its length by the drawn lengths of the pieces. Returns the junction id. */
char *hyd_canvas_edit_split_wire (HydDocument *doc, HydSymbolLibrary *library, guint wire, double x, double y);

/* One end of a wire being finished: a port or junction (`ref`), or a point
 * on an existing wire, where a junction will be made. */
typedef struct {
  const char *ref;      /* "C1.A" or "J1"; NULL for a point on a wire */
  guint wire;           /* with ref NULL: the wire */
  double x, y;          /* with ref NULL: the point on it */
} HydCanvasWireEnd;

/* Add a wire through `route` (inner points). Ends on wires are split first,
 * all in one command. On error nothing changes. */
gboolean hyd_canvas_edit_connect (HydDocument *doc, HydSymbolLibrary *library, const HydCanvasWireEnd *from,
                                  const HydCanvasWireEnd *to, const double *route, guint n_points, GError **error);

G_END_DECLS
