/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-canvas-route.h — orthogonal wires while they are drawn and after
 * the parts they join have moved (private, no GTK).
 *
 * Polylines are GArrays of double (x, y pairs). A connection stores only
 * its inner points (its "route"); the ends are the ports' lead ends, and
 * hyd_schematic_route adds an elbow wherever two points are not aligned. */
#pragma once

#include <glib.h>
#include "hyd-symbol.h"

G_BEGIN_DECLS

/* Drop repeated points and the middle one of three that run on in the same
 * direction. */
void hyd_canvas_route_simplify (GArray *points);
/* Is every segment horizontal or vertical? */
gboolean hyd_canvas_route_is_orthogonal (const double *points, guint n_points);

/* Which way the next leg of a wire being drawn starts, from its last
 * vertex (x0, y0) towards (x1, y1): along the port's axis when it leaves a
 * port (has_dir), across the previous segment after a bend (prev_axis 1 =
 * horizontal, 2 = vertical, 0 = none), else along the longer distance.
 * `toggled` (Space) turns the choice round. TRUE: vertical first. */
gboolean hyd_canvas_route_leg_vertical_first (int prev_axis, gboolean has_dir, HydDirection dir, double x0,
                                              double y0, double x1, double y1, gboolean toggled);

/* The wire being drawn: `vertices` are its start and the bends clicked so
 * far (at least the start); the free end follows the pointer (px, py) with
 * one elbow. `out` is overwritten with the whole polyline. */
void hyd_canvas_route_preview (const GArray *vertices, gboolean has_dir0, HydDirection dir0, double px, double py,
                               gboolean toggled, GArray *out);
/* Add the leg to (px, py) to the vertices (its elbow and the point), as a
 * click does. */
void hyd_canvas_route_add_leg (GArray *vertices, gboolean has_dir0, HydDirection dir0, double px, double py,
                               gboolean toggled);
/* The wire finished on an end at (x1, y1) (with the port's direction when
 * it has one): `polyline` gets the drawn line and `route` (may be NULL) its
 * inner points, the route to store. */
void hyd_canvas_route_finish (const GArray *vertices, gboolean has_dir0, HydDirection dir0, double x1, double y1,
                              gboolean has_dir1, HydDirection dir1, GArray *polyline, GArray *route);

/* Re-route a wire one of whose ends moved. `old` is the drawn polyline
 * before (n_old points, ends included); `moved_start` says which end moved;
 * (nx, ny, has_dir, dir) is that end now and (fx, fy, far_has_dir, far_dir)
 * the end that stayed. With `keep_axis` (a move) the first segment moves
 * with the port and keeps its axis, so every other bend stays; without it
 * (a rotation, where the port turned) every bend stays and a new elbow
 * leaves the port along its new axis to the first one. `route` gets the new inner
 * points, from the wire's start. */
void hyd_canvas_route_reroute (const double *old, guint n_old, gboolean moved_start, double nx, double ny,
                               gboolean has_dir, HydDirection dir, double fx, double fy, gboolean far_has_dir,
                               HydDirection far_dir, gboolean keep_axis, GArray *route);

/* Does any segment of the polyline run through the inside of a box? (Along
 * an edge or touching a corner is not through.) */
gboolean hyd_canvas_route_crosses (const double *points, guint n_points, const HydRect *boxes, guint n_boxes);
/* A wire drawn straight from (x0, y0) to (x1, y1), without bends clicked,
 * that would run through a symbol (`boxes`, the symbols' bodies) is routed
 * round them instead: the shortest orthogonal path with the fewest bends
 * (each bend costs HYD_CANVAS_ROUTE_BEND_COST units of length) on the lines
 * one grid step outside the boxes, leaving and reaching the ports along
 * their axes. A box that holds an end (the component the wire starts from)
 * is no obstacle for that end's first step. Returns TRUE and replaces
 * `polyline` (ends included) when it found such a path; FALSE leaves
 * `polyline` alone (it crossed nothing, or no way round exists). */
gboolean hyd_canvas_route_avoid (double x0, double y0, gboolean has_dir0, HydDirection dir0, double x1, double y1,
                                 gboolean has_dir1, HydDirection dir1, const HydRect *boxes, guint n_boxes,
                                 GArray *polyline);
#define HYD_CANVAS_ROUTE_BEND_COST 30.0

G_END_DECLS
