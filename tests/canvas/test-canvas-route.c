/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-canvas-route.c — orthogonal routing: wires being drawn leave a
 * port along its outward direction and pass through every bend clicked;
 * after a move or a turn the wires stay attached, orthogonal, and keep
 * their far bends; finishing on a wire makes a junction; every edit is one
 * undo step that restores the exact JSON. No display needed. */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "hyd-canvas-edit.h"
#include "hyd-canvas-route.h"
#include "hyd-canvas-scene.h"

static HydSymbolLibrary *
library (void)
{
  GError *error = NULL;
  HydSymbolLibrary *lib = hyd_symbol_library_get_default (&error);
  g_assert_no_error (error);
  return lib;
}

static GArray *
points (guint n, ...)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (double));
  va_list ap;
  va_start (ap, n);
  for (guint i = 0; i < 2 * n; i++)
    {
      double v = va_arg (ap, double);
      g_array_append_val (a, v);
    }
  va_end (ap);
  return a;
}

static gboolean
contains_point (const GArray *a, double x, double y)
{
  for (guint k = 0; k < a->len / 2; k++)
    if (fabs (g_array_index (a, double, 2 * k) - x) < 1e-9 && fabs (g_array_index (a, double, 2 * k + 1) - y) < 1e-9)
      return TRUE;
  return FALSE;
}

/* Does the polyline pass through (x, y), on a vertex or along a segment? */
static gboolean
passes_through (const GArray *a, double x, double y)
{
  const double *p = (const double *) a->data;
  for (guint k = 0; k + 1 < a->len / 2; k++)
    if (hyd_canvas_segment_distance (p[2 * k], p[2 * k + 1], p[2 * k + 2], p[2 * k + 3], x, y, NULL, NULL) < 1e-9)
      return TRUE;
  return FALSE;
}

static void
test_simplify (void)
{
  g_autoptr (GArray) a = points (7, 0.0, 0.0, 0.0, 0.0, 0.0, 10.0, 0.0, 20.0, 10.0, 20.0, 30.0, 20.0, 30.0, 20.0);
  hyd_canvas_route_simplify (a);
  g_assert_cmpuint (a->len, ==, 6);
  g_assert_true (contains_point (a, 0, 20));
  g_assert_false (contains_point (a, 0, 10));
  /* a spike back over itself goes */
  g_autoptr (GArray) b = points (4, 0.0, 0.0, 0.0, 30.0, 0.0, 10.0, 20.0, 10.0);
  hyd_canvas_route_simplify (b);
  g_assert_cmpuint (b->len / 2, ==, 3);
  g_assert_true (hyd_canvas_route_is_orthogonal ((const double *) b->data, b->len / 2));
}

/* The first leg from a port goes along its outward axis; Space turns it. */
static void
test_preview_leaves_port (void)
{
  const HydDirection dirs[] = { HYD_DIR_UP, HYD_DIR_DOWN, HYD_DIR_LEFT, HYD_DIR_RIGHT };
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      int dx, dy;
      hyd_direction_vector (dirs[i], &dx, &dy);
      g_autoptr (GArray) v = points (1, 100.0, 100.0);
      g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (double));
      /* a pointer ahead of the port and off to one side */
      double px = 100 + 60 * dx + 40 * (dx == 0), py = 100 + 60 * dy + 40 * (dy == 0);
      hyd_canvas_route_preview (v, TRUE, dirs[i], px, py, FALSE, out);
      const double *p = (const double *) out->data;
      g_assert_cmpuint (out->len / 2, ==, 3);
      g_assert_true (hyd_canvas_route_is_orthogonal (p, 3));
      /* first segment along the direction, pointing outward */
      double sx = p[2] - p[0], sy = p[3] - p[1];
      g_assert_cmpfloat (sx * dx + sy * dy, >, 0);
      g_assert_cmpfloat (fabs (sx * dy - sy * dx), ==, 0);
      g_assert_cmpfloat (p[4], ==, px);
      g_assert_cmpfloat (p[5], ==, py);
      /* toggled: across first */
      hyd_canvas_route_preview (v, TRUE, dirs[i], px, py, TRUE, out);
      p = (const double *) out->data;
      sx = p[2] - p[0], sy = p[3] - p[1];
      g_assert_cmpfloat (sx * dx + sy * dy, ==, 0);
    }
}

/* Each click adds a bend; later legs start across the previous segment;
 * finishing on a port passes through every bend and arrives along the
 * port's axis. */
static void
test_bends_and_finish (void)
{
  g_autoptr (GArray) v = points (1, 0.0, 0.0);
  hyd_canvas_route_add_leg (v, TRUE, HYD_DIR_UP, 50, -40, FALSE);  /* up, then right */
  g_assert_true (contains_point (v, 0, -40));
  g_assert_true (contains_point (v, 50, -40));
  hyd_canvas_route_add_leg (v, TRUE, HYD_DIR_UP, 90, -80, FALSE);  /* after a horizontal: up first */
  g_assert_true (contains_point (v, 50, -80));
  g_assert_true (hyd_canvas_route_is_orthogonal ((const double *) v->data, v->len / 2));

  g_autoptr (GArray) line = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) route = g_array_new (FALSE, FALSE, sizeof (double));
  /* a port to the right pointing down: the wire must come in from below */
  hyd_canvas_route_finish (v, TRUE, HYD_DIR_UP, 150, -30, TRUE, HYD_DIR_DOWN, line, route);
  const double *p = (const double *) line->data;
  guint n = line->len / 2;
  g_assert_true (hyd_canvas_route_is_orthogonal (p, n));
  g_assert_cmpfloat (p[0], ==, 0);
  g_assert_cmpfloat (p[1], ==, 0);
  g_assert_cmpfloat (p[2 * n - 2], ==, 150);
  g_assert_cmpfloat (p[2 * n - 1], ==, -30);
  g_assert_cmpfloat (p[2 * n - 4], ==, 150); /* last segment vertical */
  for (guint k = 1; k < v->len / 2; k++)
    g_assert_true (passes_through (line, g_array_index (v, double, 2 * k), g_array_index (v, double, 2 * k + 1)));
  /* the stored route is the inner points */
  g_assert_cmpuint (route->len, ==, line->len - 4);
}

static char *
circuit_json (HydDocument *doc)
{
  return hyd_document_to_data (doc);
}

static HydDocument *
two_part_document (void)
{
  /* a pump below a valve, wired P to P with two bends off to the side */
  HydDocument *doc = hyd_document_new ();
  g_autofree char *v = hyd_document_add_component (doc, "dcv_4_3", 0, 0);
  g_autofree char *p = hyd_document_add_component (doc, "fixed_pump", 200, 200);
  g_assert_cmpstr (v, ==, "V1");
  g_assert_cmpstr (p, ==, "P1");
  /* P1.P is at (200, 160) pointing up; V1.P at (50, 50) pointing down */
  const double route[] = { 200, 120, 120, 120, 120, 90, 50, 90 };
  GError *error = NULL;
  g_assert_cmpint (hyd_document_add_connection (doc, "P1.P", "V1.P", route, 4, &error), ==, 0);
  g_assert_no_error (error);
  return doc;
}

static void
wire_line (HydDocument *doc, guint index, GArray *out)
{
  g_autoptr (HydCanvasScene) s = hyd_canvas_scene_new (hyd_document_get_circuit (doc), library ());
  const HydCanvasSceneWire *w = hyd_canvas_scene_get_wire (s, index);
  g_assert_nonnull (w->points);
  g_array_set_size (out, 0);
  g_array_append_vals (out, w->points->data, w->points->len);
}

static void
assert_attached (HydDocument *doc, guint index, const char *from, const char *to)
{
  g_autoptr (HydCanvasScene) s = hyd_canvas_scene_new (hyd_document_get_circuit (doc), library ());
  const HydCanvasSceneWire *w = hyd_canvas_scene_get_wire (s, index);
  const double *p = (const double *) w->points->data;
  guint n = w->points->len / 2;
  double x, y;
  HydDirection d;
  gboolean has;
  g_assert_true (hyd_canvas_scene_endpoint (s, from, &x, &y, &d, &has));
  g_assert_cmpfloat (p[0], ==, x);
  g_assert_cmpfloat (p[1], ==, y);
  g_assert_true (hyd_canvas_scene_endpoint (s, to, &x, &y, &d, &has));
  g_assert_cmpfloat (p[2 * n - 2], ==, x);
  g_assert_cmpfloat (p[2 * n - 1], ==, y);
  g_assert_true (hyd_canvas_route_is_orthogonal (p, n));
  /* the stored route alone is orthogonal with its ends too: nothing is
   * left to the router's elbows but what was there */
  const HydCircuitConnection *cn = w->conn;
  g_assert_true (cn->route == NULL || cn->route->len % 2 == 0);
}

static void
test_move_keeps_bends (void)
{
  g_autoptr (HydDocument) doc = two_part_document ();
  g_autoptr (GArray) before = g_array_new (FALSE, FALSE, sizeof (double));
  wire_line (doc, 0, before);
  g_assert_true (contains_point (before, 120, 90));
  g_autofree char *json_before = circuit_json (doc);

  /* move the pump right and down: the bend at the valve's end stays */
  const char *ids[] = { "P1", NULL };
  hyd_canvas_edit_move (doc, library (), ids, 30, 20);
  assert_attached (doc, 0, "P1.P", "V1.P");
  g_autoptr (GArray) after = g_array_new (FALSE, FALSE, sizeof (double));
  wire_line (doc, 0, after);
  g_assert_true (contains_point (after, 120, 90));
  g_assert_true (contains_point (after, 50, 90));
  /* the first segment still leaves the pump's P upwards */
  const double *p = (const double *) after->data;
  g_assert_cmpfloat (p[2], ==, p[0]);
  g_assert_cmpfloat (p[3], <, p[1]);

  /* one undo step gives the exact JSON back */
  g_assert_true (hyd_document_undo (doc));
  g_autofree char *json_undone = circuit_json (doc);
  g_assert_cmpstr (json_undone, ==, json_before);

  /* move the valve: the bends at the pump's end stay */
  const char *vids[] = { "V1", NULL };
  hyd_canvas_edit_move (doc, library (), vids, -40, -30);
  assert_attached (doc, 0, "P1.P", "V1.P");
  wire_line (doc, 0, after);
  g_assert_true (contains_point (after, 200, 120));
  g_assert_true (contains_point (after, 120, 120));

  /* moving both moves the bends with them */
  g_assert_true (hyd_document_undo (doc));
  const char *both[] = { "V1", "P1", NULL };
  hyd_canvas_edit_move (doc, library (), both, 100, 0);
  wire_line (doc, 0, after);
  g_assert_true (contains_point (after, 220, 90));
  assert_attached (doc, 0, "P1.P", "V1.P");
}

static void
test_rotate_mirror_keep_attached (void)
{
  g_autoptr (HydDocument) doc = two_part_document ();
  const char *ids[] = { "V1", NULL };
  const HydCircuit *c = hyd_document_get_circuit (doc);
  HydCircuitComponent *v = hyd_circuit_find_component (c, "V1");
  g_autoptr (HydCanvasScene) s0 = hyd_canvas_scene_new (c, library ());
  HydRect b0 = hyd_canvas_scene_find_component (s0, "V1")->bounds;
  for (int turn = 1; turn <= 4; turn++)
    {
      hyd_canvas_edit_rotate (doc, library (), ids, 1);
      v = hyd_circuit_find_component (c, "V1");
      g_assert_cmpint (v->rotation, ==, (90 * turn) % 360);
      assert_attached (doc, 0, "P1.P", "V1.P");
      /* it turns where it stands: its middle stays (within a grid step) */
      g_autoptr (HydCanvasScene) s = hyd_canvas_scene_new (c, library ());
      HydRect b = hyd_canvas_scene_find_component (s, "V1")->bounds;
      g_assert_cmpfloat (fabs ((b.x0 + b.x1) / 2 - (b0.x0 + b0.x1) / 2), <=, HYD_CANVAS_GRID);
      g_assert_cmpfloat (fabs ((b.y0 + b.y1) / 2 - (b0.y0 + b0.y1) / 2), <=, HYD_CANVAS_GRID);
      /* and the wire leaves its port along the port's new axis */
      const HydCanvasSceneWire *w = hyd_canvas_scene_get_wire (s, 0);
      const double *p = (const double *) w->points->data;
      guint n = w->points->len / 2;
      double x, y;
      HydDirection d;
      gboolean has;
      hyd_canvas_scene_endpoint (s, "V1.P", &x, &y, &d, &has);
      int dx, dy;
      hyd_direction_vector (d, &dx, &dy);
      double sx = p[2 * n - 4] - p[2 * n - 2], sy = p[2 * n - 3] - p[2 * n - 1];
      g_assert_cmpfloat (fabs (sx * dy - sy * dx), ==, 0);
    }
  hyd_canvas_edit_mirror (doc, library (), ids);
  g_assert_true (hyd_circuit_find_component (c, "V1")->mirror);
  assert_attached (doc, 0, "P1.P", "V1.P");
  /* each turn was one undo step */
  for (int k = 0; k < 5; k++)
    g_assert_true (hyd_document_undo (doc));
  g_assert_cmpint (hyd_circuit_find_component (c, "V1")->rotation, ==, 0);
  g_assert_false (hyd_circuit_find_component (c, "V1")->mirror);
}

/* A wire drawn from a port to the middle of another wire: a junction
 * there, three wires, the old wire's length shared, one undo step. */
static void
test_connect_to_wire (void)
{
  g_autoptr (HydDocument) doc = two_part_document ();
  g_autofree char *rv = hyd_document_add_component (doc, "relief_valve", 300, 0);
  g_autofree char *json_before = circuit_json (doc);
  const HydCircuit *c = hyd_document_get_circuit (doc);
  double len0 = 0.5;

  /* RV1.P is at (320, -10), pointing up; the wire runs along y = 120 from
   * x = 200 to 120 */
  HydCanvasWireEnd from = { "RV1.P", 0, 0, 0 };
  HydCanvasWireEnd to = { NULL, 0, 160, 120 };
  const double route[] = { 320, -30, 160, -30 };
  GError *error = NULL;
  g_assert_true (hyd_canvas_edit_connect (doc, library (), &from, &to, route, 2, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c->connections->len, ==, 3);
  g_assert_cmpuint (c->junctions->len, ==, 1);
  HydCircuitJunction *j = g_ptr_array_index (c->junctions, 0);
  g_assert_cmpfloat (j->x, ==, 160);
  g_assert_cmpfloat (j->y, ==, 120);
  HydCircuitConnection *a = g_ptr_array_index (c->connections, 0), *b = g_ptr_array_index (c->connections, 1);
  g_assert_cmpfloat_with_epsilon (a->length + b->length, len0, 1e-12);
  /* the pieces keep the drawing: 40 of the 190 units drawn before the
   * junction from the pump */
  g_assert_cmpfloat_with_epsilon (a->length, len0 * 80 / 260, 1e-9);
  assert_attached (doc, 0, "P1.P", j->id);
  assert_attached (doc, 1, j->id, "V1.P");
  assert_attached (doc, 2, "RV1.P", j->id);
  g_autoptr (GArray) line = g_array_new (FALSE, FALSE, sizeof (double));
  wire_line (doc, 2, line);
  g_assert_true (passes_through (line, 320, -30));
  g_assert_true (passes_through (line, 160, -30));

  g_assert_true (hyd_document_undo (doc));
  g_autofree char *json_undone = circuit_json (doc);
  g_assert_cmpstr (json_undone, ==, json_before);

  /* ports of another domain refuse, and nothing changes */
  g_autofree char *g = hyd_document_add_component (doc, "pressure_gauge", 500, 0);
  g_autofree char *json_gauge = circuit_json (doc);
  HydCanvasWireEnd sig = { "G1.S", 0, 0, 0 };
  HydCanvasWireEnd rvp = { "RV1.T", 0, 0, 0 };
  g_assert_false (hyd_canvas_edit_connect (doc, library (), &sig, &rvp, NULL, 0, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_DOMAIN);
  g_clear_error (&error);
  HydCanvasWireEnd on_wire = { NULL, 0, 160, 120 };
  g_assert_false (hyd_canvas_edit_connect (doc, library (), &sig, &on_wire, NULL, 0, &error));
  g_clear_error (&error);
  g_autofree char *json_after = circuit_json (doc);
  g_assert_cmpstr (json_after, ==, json_gauge);
  /* a wire needs two ends */
  g_assert_false (hyd_canvas_edit_connect (doc, library (), &rvp, &rvp, NULL, 0, &error));
  g_clear_error (&error);
}

static void
test_place_and_delete (void)
{
  g_autoptr (HydDocument) doc = two_part_document ();
  g_autofree char *id = hyd_canvas_edit_place (doc, "check_valve", 300, 300, 270, TRUE);
  g_assert_cmpstr (id, ==, "CV1");
  const HydCircuit *c = hyd_document_get_circuit (doc);
  HydCircuitComponent *cv = hyd_circuit_find_component (c, "CV1");
  g_assert_cmpfloat (cv->x, ==, 300);
  g_assert_cmpfloat (cv->y, ==, 300);
  g_assert_cmpint (cv->rotation, ==, 270);
  g_assert_true (cv->mirror);
  g_assert_null (hyd_canvas_edit_place (doc, "no_such_type", 0, 0, 0, FALSE));

  /* a wire and a part in one command */
  g_autofree char *before = circuit_json (doc);
  const char *ids[] = { "CV1", NULL };
  const guint wires[] = { 0, 7 };
  hyd_canvas_edit_delete (doc, ids, wires, 2);
  g_assert_cmpuint (c->connections->len, ==, 0);
  g_assert_null (hyd_circuit_find_component (c, "CV1"));
  g_assert_true (hyd_document_undo (doc));
  g_autofree char *undone = circuit_json (doc);
  g_assert_cmpstr (undone, ==, before);
}

/* The re-route on its own: a polyline one of whose ends moved. */
static void
test_reroute_function (void)
{
  /* from a port at (0, 0) facing up, over the top, down into a port at
   * (100, −10) that also faces up */
  const double old[] = { 0, 0, 0, -50, 100, -50, 100, -10 };
  g_autoptr (GArray) route = g_array_new (FALSE, FALSE, sizeof (double));
  hyd_canvas_route_reroute (old, 4, TRUE, 30, 20, TRUE, HYD_DIR_UP, 100, -10, TRUE, HYD_DIR_UP, TRUE, route);
  g_assert_cmpuint (route->len, ==, 4);
  g_assert_true (contains_point (route, 30, -50));
  g_assert_true (contains_point (route, 100, -50));
  /* the end that moved is the last one */
  hyd_canvas_route_reroute (old, 4, FALSE, 70, 0, TRUE, HYD_DIR_UP, 0, 0, TRUE, HYD_DIR_UP, TRUE, route);
  g_assert_cmpuint (route->len, ==, 4);
  g_assert_true (contains_point (route, 0, -50));
  g_assert_true (contains_point (route, 70, -50));
  /* moved up past its first bend: the wire does not double back over the
   * symbol; it leaves upwards and joins the next bend */
  hyd_canvas_route_reroute (old, 4, TRUE, 0, -80, TRUE, HYD_DIR_UP, 100, -10, TRUE, HYD_DIR_UP, TRUE, route);
  g_autoptr (GArray) line = g_array_new (FALSE, FALSE, sizeof (double));
  const double moved[] = { 0, -80 };
  g_array_append_vals (line, moved, 2);
  g_array_append_vals (line, route->data, route->len);
  const double far[] = { 100, -10 };
  g_array_append_vals (line, far, 2);
  g_assert_true (hyd_canvas_route_is_orthogonal ((const double *) line->data, line->len / 2));
  g_assert_cmpfloat (g_array_index (line, double, 3), <, -80);
  /* a turn keeps the bends; the wire leaves along the new axis (a step
   * out first, as the bend is behind the port) and goes round */
  hyd_canvas_route_reroute (old, 4, TRUE, 20, 0, TRUE, HYD_DIR_RIGHT, 100, -10, TRUE, HYD_DIR_UP, FALSE, route);
  g_array_set_size (line, 0);
  const double start[] = { 20, 0 };
  g_array_append_vals (line, start, 2);
  g_array_append_vals (line, route->data, route->len);
  g_array_append_vals (line, far, 2);
  guint n = line->len / 2;
  g_assert_true (hyd_canvas_route_is_orthogonal ((const double *) line->data, n));
  g_assert_cmpfloat (g_array_index (line, double, 2), >, 20); /* leaves to the right */
  g_assert_cmpfloat (g_array_index (line, double, 3), ==, 0);
  g_assert_true (contains_point (route, 100, -50));
  g_assert_cmpfloat (g_array_index (line, double, 2 * n - 3), <, -10); /* comes into the far port from above */
  /* no bends: nothing to store */
  const double straight[] = { 0, 0, 0, -50 };
  hyd_canvas_route_reroute (straight, 2, TRUE, 10, 0, TRUE, HYD_DIR_UP, 0, -50, TRUE, HYD_DIR_DOWN, TRUE, route);
  g_assert_cmpuint (route->len, ==, 0);
}

/* Issue 8, item 11: wires were routed under symbols (a tank line looked
 * like a third pump port). A wire drawn straight from port to port goes
 * round every symbol's body, one grid step clear, leaving and reaching the
 * ports along their axes. */
static void
check_avoids (double x0, double y0, HydDirection d0, double x1, double y1, HydDirection d1, const HydRect *boxes,
              guint n_boxes)
{
  g_autoptr (GArray) start = points (1, x0, y0);
  g_autoptr (GArray) line = g_array_new (FALSE, FALSE, sizeof (double));
  hyd_canvas_route_finish (start, TRUE, d0, x1, y1, TRUE, d1, line, NULL);
  /* the plain router runs through a body: that is the case to fix */
  g_assert_true (hyd_canvas_route_crosses ((const double *) line->data, line->len / 2, boxes, n_boxes));
  g_assert_true (hyd_canvas_route_avoid (x0, y0, TRUE, d0, x1, y1, TRUE, d1, boxes, n_boxes, line));
  const double *p = (const double *) line->data;
  guint n = line->len / 2;
  g_assert_false (hyd_canvas_route_crosses (p, n, boxes, n_boxes));
  g_assert_true (hyd_canvas_route_is_orthogonal (p, n));
  g_assert_cmpfloat (p[0], ==, x0);
  g_assert_cmpfloat (p[1], ==, y0);
  g_assert_cmpfloat (p[2 * n - 2], ==, x1);
  g_assert_cmpfloat (p[2 * n - 1], ==, y1);
  /* leaves the first port along its outward direction, and comes into the
   * second from outside */
  int dx, dy;
  hyd_direction_vector (d0, &dx, &dy);
  g_assert_cmpfloat ((p[2] - x0) * dx + (p[3] - y0) * dy, >, 0);
  hyd_direction_vector (d1, &dx, &dy);
  g_assert_cmpfloat ((p[2 * n - 4] - x1) * dx + (p[2 * n - 3] - y1) * dy, >, 0);
  g_assert_cmpuint (n, <=, 8); /* a few bends, not a staircase */
}

static void
test_avoid_symbols (void)
{
  /* a box straight between two ports facing each other */
  const HydRect box = { 40, -20, 60, 20 };
  check_avoids (0, 0, HYD_DIR_RIGHT, 100, 0, HYD_DIR_LEFT, &box, 1);
  /* an elbow whose corner lies in a box */
  const HydRect corner = { 80, -30, 120, 10 };
  check_avoids (0, 0, HYD_DIR_RIGHT, 100, -100, HYD_DIR_DOWN, &corner, 1);

  /* a real pump: a tank below it wired to a port above it, the straight
   * way runs through the pump's circle */
  HydSymbolLibrary *lib = library ();
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (
      "{ \"format\": \"bramah-circuit\", \"version\": 1, \"components\": ["
      " { \"id\": \"PU1\", \"type\": \"fixed_pump\", \"position\": [200, 200] },"
      " { \"id\": \"T1\", \"type\": \"tank\", \"position\": [200, 320] },"
      " { \"id\": \"T2\", \"type\": \"tank\", \"position\": [200, 80], \"rotation\": 180 } ],"
      " \"connections\": [] }", -1, "test", &error);
  g_assert_no_error (error);
  g_autoptr (HydCanvasScene) scene = hyd_canvas_scene_new (circuit, lib);
  HydRect boxes[3];
  for (guint i = 0; i < 3; i++)
    boxes[i] = hyd_canvas_scene_get_component (scene, i)->bounds;
  double tx, ty, ux, uy;
  HydDirection td, ud;
  gboolean th, uh;
  g_assert_true (hyd_canvas_scene_endpoint (scene, "T1.T", &tx, &ty, &td, &th));
  g_assert_true (hyd_canvas_scene_endpoint (scene, "T2.T", &ux, &uy, &ud, &uh));
  g_assert_true (th && uh);
  check_avoids (tx, ty, td, ux, uy, ud, boxes, 3);

  /* nothing in the way: the line is left as it is */
  g_autoptr (GArray) start = points (1, 0.0, 0.0);
  g_autoptr (GArray) line = g_array_new (FALSE, FALSE, sizeof (double));
  hyd_canvas_route_finish (start, TRUE, HYD_DIR_RIGHT, 100, 0, TRUE, HYD_DIR_LEFT, line, NULL);
  const HydRect aside = { 40, 20, 60, 60 };
  g_assert_false (hyd_canvas_route_avoid (0, 0, TRUE, HYD_DIR_RIGHT, 100, 0, TRUE, HYD_DIR_LEFT, &aside, 1, line));
  g_assert_cmpuint (line->len, ==, 4);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/canvas/route/simplify", test_simplify);
  g_test_add_func ("/canvas/route/avoid-symbols", test_avoid_symbols);
  g_test_add_func ("/canvas/route/preview-leaves-port", test_preview_leaves_port);
  g_test_add_func ("/canvas/route/bends-and-finish", test_bends_and_finish);
  g_test_add_func ("/canvas/route/reroute", test_reroute_function);
  g_test_add_func ("/canvas/route/move-keeps-bends", test_move_keeps_bends);
  g_test_add_func ("/canvas/route/rotate-mirror-attached", test_rotate_mirror_keep_attached);
  g_test_add_func ("/canvas/route/connect-to-wire", test_connect_to_wire);
  g_test_add_func ("/canvas/route/place-and-delete", test_place_and_delete);
  return g_test_run ();
}
