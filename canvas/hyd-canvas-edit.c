/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-canvas-edit.c — the canvas's edits as document commands. */
#include "hyd-canvas-edit.h"
#include "hyd-canvas-route.h"

#include <math.h>
#include <string.h>

static gboolean
strv_has (const char *const *ids, const char *id)
{
  for (guint k = 0; ids && id && ids[k]; k++)
    if (strcmp (ids[k], id) == 0)
      return TRUE;
  return FALSE;
}

/* The component or junction a wire end belongs to: "C1.A" → "C1". */
static gboolean
end_in (const char *ref, const char *const *ids)
{
  if (ref == NULL)
    return FALSE;
  const char *dot = strchr (ref, '.');
  if (dot == NULL)
    return strv_has (ids, ref);
  g_autofree char *owner = g_strndup (ref, dot - ref);
  return strv_has (ids, owner);
}

/* A wire with exactly one end among the moved items, and bends to keep. */
typedef struct {
  guint index;
  GArray *old;           /* drawn polyline before the edit */
  gboolean moved_start;
} Attached;

static void
attached_clear (gpointer data)
{
  Attached *a = data;
  g_clear_pointer (&a->old, g_array_unref);
}

static GArray *
collect_attached (const HydCanvasScene *scene, const char *const *ids)
{
  GArray *list = g_array_new (FALSE, TRUE, sizeof (Attached));
  g_array_set_clear_func (list, attached_clear);
  for (guint i = 0; i < hyd_canvas_scene_get_n_wires (scene); i++)
    {
      const HydCanvasSceneWire *w = hyd_canvas_scene_get_wire (scene, i);
      gboolean a = end_in (w->conn->from, ids), b = end_in (w->conn->to, ids);
      /* wires without bends are drawn afresh by the router */
      if (a == b || w->points == NULL || w->conn->route == NULL || w->conn->route->len == 0)
        continue;
      Attached at = { i, g_array_copy (w->points), a };
      g_array_append_val (list, at);
    }
  return list;
}

static gboolean
same_route (const HydCircuitConnection *cn, const GArray *route)
{
  guint n = cn->route ? cn->route->len : 0;
  if (n != route->len)
    return FALSE;
  for (guint k = 0; k < n; k++)
    if (fabs (g_array_index (cn->route, double, k) - g_array_index (route, double, k)) > 1e-9)
      return FALSE;
  return TRUE;
}

/* After the items moved or turned: give each attached wire its new route. */
static void
reroute_attached (HydDocument *doc, HydSymbolLibrary *library, GArray *attached, gboolean keep_axis)
{
  if (attached->len == 0)
    return;
  const HydCircuit *circuit = hyd_document_get_circuit (doc);
  g_autoptr (HydCanvasScene) scene = hyd_canvas_scene_new (circuit, library);
  g_autoptr (GArray) route = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint k = 0; k < attached->len; k++)
    {
      Attached *a = &g_array_index (attached, Attached, k);
      if (a->index >= circuit->connections->len)
        continue;
      HydCircuitConnection *cn = g_ptr_array_index (circuit->connections, a->index);
      const char *moved = a->moved_start ? cn->from : cn->to;
      const char *fixed = a->moved_start ? cn->to : cn->from;
      double nx, ny, fx, fy;
      HydDirection nd = HYD_DIR_UP, fd = HYD_DIR_UP;
      gboolean nh, fh;
      if (!hyd_canvas_scene_endpoint (scene, moved, &nx, &ny, &nd, &nh)
          || !hyd_canvas_scene_endpoint (scene, fixed, &fx, &fy, &fd, &fh))
        continue;
      hyd_canvas_route_reroute ((const double *) a->old->data, a->old->len / 2, a->moved_start, nx, ny, nh, nd, fx,
                                fy, fh, fd, keep_axis, route);
      if (!same_route (cn, route))
        hyd_document_set_route (doc, a->index, route->len ? (const double *) route->data : NULL, route->len / 2);
    }
}

void
hyd_canvas_edit_move (HydDocument *doc, HydSymbolLibrary *library, const char *const *ids_in, double dx, double dy)
{
  g_return_if_fail (HYD_IS_DOCUMENT (doc));
  if ((dx == 0.0 && dy == 0.0) || ids_in == NULL || ids_in[0] == NULL)
    return;
  /* the ids may point into the document, which the edits replace */
  g_auto (GStrv) ids = g_strdupv ((char **) ids_in);
  g_autoptr (HydCanvasScene) scene = hyd_canvas_scene_new (hyd_document_get_circuit (doc), library);
  g_autoptr (GArray) attached = collect_attached (scene, (const char *const *) ids);
  g_clear_pointer (&scene, hyd_canvas_scene_free);
  hyd_document_begin_group (doc, "Move");
  hyd_document_move_items (doc, (const char *const *) ids, dx, dy);
  reroute_attached (doc, library, attached, TRUE);
  hyd_document_end_group (doc);
}

static gboolean
centre_of (HydDocument *doc, HydSymbolLibrary *library, const char *const *ids, double *cx, double *cy)
{
  g_autoptr (HydCanvasScene) scene = hyd_canvas_scene_new (hyd_document_get_circuit (doc), library);
  HydRect b;
  if (!hyd_canvas_scene_items_bounds (scene, ids, &b))
    return FALSE;
  *cx = (b.x0 + b.x1) / 2;
  *cy = (b.y0 + b.y1) / 2;
  return TRUE;
}

static void
turn (HydDocument *doc, HydSymbolLibrary *library, const char *const *ids_in, int quarter_turns, gboolean mirror)
{
  if (ids_in == NULL || ids_in[0] == NULL)
    return;
  g_auto (GStrv) ids = g_strdupv ((char **) ids_in);
  const char *const *cids = (const char *const *) ids;
  double cx0, cy0, cx1, cy1;
  if (!centre_of (doc, library, cids, &cx0, &cy0))
    return;
  g_autoptr (HydCanvasScene) scene = hyd_canvas_scene_new (hyd_document_get_circuit (doc), library);
  g_autoptr (GArray) attached = collect_attached (scene, cids);
  g_clear_pointer (&scene, hyd_canvas_scene_free);
  hyd_document_begin_group (doc, mirror ? "Mirror" : "Rotate");
  if (mirror)
    hyd_document_mirror_items (doc, cids);
  else
    hyd_document_rotate_items (doc, cids, quarter_turns);
  /* the document turns about the selection's origin; bring its middle back
   * to where it was, so a part turns where it stands */
  if (centre_of (doc, library, cids, &cx1, &cy1))
    {
      double dx = hyd_canvas_snap (cx0 - cx1), dy = hyd_canvas_snap (cy0 - cy1);
      if (dx != 0 || dy != 0)
        hyd_document_move_items (doc, cids, dx, dy);
    }
  reroute_attached (doc, library, attached, FALSE);
  hyd_document_end_group (doc);
}

void
hyd_canvas_edit_rotate (HydDocument *doc, HydSymbolLibrary *library, const char *const *ids, int quarter_turns)
{
  g_return_if_fail (HYD_IS_DOCUMENT (doc));
  if (((quarter_turns % 4) + 4) % 4 == 0)
    return;
  turn (doc, library, ids, quarter_turns, FALSE);
}

void
hyd_canvas_edit_mirror (HydDocument *doc, HydSymbolLibrary *library, const char *const *ids)
{
  g_return_if_fail (HYD_IS_DOCUMENT (doc));
  turn (doc, library, ids, 0, TRUE);
}

char *
hyd_canvas_edit_place (HydDocument *doc, const char *type, double x, double y, int rotation, gboolean mirror)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), NULL);
  if (type == NULL || hyd_catalogue_lookup (type) == NULL)
    return NULL;
  hyd_document_begin_group (doc, "Add");
  char *id = hyd_document_add_component (doc, type, x, y);
  if (id)
    {
      const char *ids[] = { id, NULL };
      /* a single part turns about its own position: it stays at (x, y) */
      if (mirror)
        hyd_document_mirror_items (doc, ids);
      int q = ((rotation / 90) % 4 + 4) % 4;
      if (q)
        hyd_document_rotate_items (doc, ids, q);
    }
  hyd_document_end_group (doc);
  return id;
}

void
hyd_canvas_edit_delete (HydDocument *doc, const char *const *ids_in, const guint *wires, guint n_wires)
{
  g_return_if_fail (HYD_IS_DOCUMENT (doc));
  g_auto (GStrv) ids = g_strdupv ((char **) ids_in);
  const HydCircuit *c = hyd_document_get_circuit (doc);
  g_autoptr (GArray) valid = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint k = 0; k < n_wires; k++)
    if (wires[k] < c->connections->len)
      g_array_append_val (valid, wires[k]);
  if (valid->len == 0 && (ids == NULL || ids[0] == NULL))
    return;
  hyd_document_begin_group (doc, "Delete");
  /* wires first: removing items renumbers the connections */
  if (valid->len)
    hyd_document_remove_connections (doc, (const guint *) valid->data, valid->len);
  if (ids && ids[0])
    hyd_document_remove_items (doc, (const char *const *) ids);
  hyd_document_end_group (doc);
}

static void
push (GArray *a, double x, double y)
{
  g_array_append_val (a, x);
  g_array_append_val (a, y);
}

char *
hyd_canvas_edit_split_wire (HydDocument *doc, HydSymbolLibrary *library, guint wire, double x, double y)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), NULL);
  const HydCircuit *circuit = hyd_document_get_circuit (doc);
  g_return_val_if_fail (wire < circuit->connections->len, NULL);
  g_autoptr (HydCanvasScene) scene = hyd_canvas_scene_new (circuit, library);
  const HydCanvasSceneWire *w = hyd_canvas_scene_get_wire (scene, wire);
  if (w->points == NULL || w->points->len < 4)
    return hyd_document_split_connection (doc, wire, x, y);

  /* the segment of the drawn wire the point is on */
  const double *p = (const double *) w->points->data;
  guint n = w->points->len / 2, seg = 0;
  double best = G_MAXDOUBLE, sx = x, sy = y;
  for (guint k = 0; k + 1 < n; k++)
    {
      double qx, qy;
      double d = hyd_canvas_segment_distance (p[2 * k], p[2 * k + 1], p[2 * k + 2], p[2 * k + 3], x, y, &qx, &qy);
      if (d < best)
        {
          best = d;
          seg = k;
          sx = qx;
          sy = qy;
        }
    }
  /* The document shares the wire's length by the drawn lengths along its
   * route points: give it the whole drawn line, split point included, then
   * set each piece's own inner points. */
  g_autoptr (GArray) full = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) first = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) second = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint k = 0; k <= seg; k++)
    {
      push (full, p[2 * k], p[2 * k + 1]);
      push (first, p[2 * k], p[2 * k + 1]);
    }
  push (full, sx, sy);
  push (first, sx, sy);
  push (second, sx, sy);
  for (guint k = seg + 1; k < n; k++)
    {
      push (full, p[2 * k], p[2 * k + 1]);
      push (second, p[2 * k], p[2 * k + 1]);
    }
  hyd_canvas_route_simplify (first);
  hyd_canvas_route_simplify (second);
  g_clear_pointer (&scene, hyd_canvas_scene_free);

  hyd_document_begin_group (doc, "Add junction");
  hyd_document_set_route (doc, wire, (const double *) full->data, full->len / 2);
  char *jid = hyd_document_split_connection (doc, wire, sx, sy);
  guint second_index = hyd_document_get_circuit (doc)->connections->len - 1;
  guint nf = first->len / 2, ns = second->len / 2;
  hyd_document_set_route (doc, wire, nf > 2 ? (const double *) first->data + 2 : NULL, nf > 2 ? nf - 2 : 0);
  hyd_document_set_route (doc, second_index, ns > 2 ? (const double *) second->data + 2 : NULL,
                          ns > 2 ? ns - 2 : 0);
  hyd_document_end_group (doc);
  return jid;
}

static int
end_domain (const HydCanvasScene *scene, const HydCanvasWireEnd *end)
{
  return end->ref ? hyd_canvas_scene_ref_domain (scene, end->ref) : hyd_canvas_scene_wire_domain (scene, end->wire);
}

static gboolean
end_valid (const HydCanvasScene *scene, const HydCanvasWireEnd *end)
{
  if (end->ref)
    {
      double x, y;
      HydDirection d;
      gboolean h;
      return hyd_canvas_scene_endpoint (scene, end->ref, &x, &y, &d, &h);
    }
  return end->wire < hyd_canvas_scene_get_n_wires (scene);
}

gboolean
hyd_canvas_edit_connect (HydDocument *doc, HydSymbolLibrary *library, const HydCanvasWireEnd *from,
                         const HydCanvasWireEnd *to, const double *route, guint n_points, GError **error)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), FALSE);
  g_return_val_if_fail (from != NULL && to != NULL, FALSE);
  g_autoptr (HydCanvasScene) scene = hyd_canvas_scene_new (hyd_document_get_circuit (doc), library);
  if (!end_valid (scene, from) || !end_valid (scene, to))
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE, "the wire's end is gone");
      return FALSE;
    }
  if (from->ref && to->ref && strcmp (from->ref, to->ref) == 0)
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE, "%s: a wire needs two different ends",
                   from->ref);
      return FALSE;
    }
  int da = end_domain (scene, from), db = end_domain (scene, to);
  if (da >= 0 && db >= 0 && da != db)
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_DOMAIN,
                   "a %s port cannot be wired to a %s one", hyd_domain_name (da), hyd_domain_name (db));
      return FALSE;
    }

  gboolean split = from->ref == NULL || to->ref == NULL;
  hyd_document_begin_group (doc, "Add wire");
  g_autofree char *a = from->ref ? g_strdup (from->ref)
                                 : hyd_canvas_edit_split_wire (doc, library, from->wire, from->x, from->y);
  g_autofree char *b = NULL;
  if (to->ref)
    b = g_strdup (to->ref);
  else
    {
      /* the first split may have renumbered or cut the wire: find it again */
      guint index = to->wire;
      if (from->ref == NULL)
        {
          g_clear_pointer (&scene, hyd_canvas_scene_free);
          scene = hyd_canvas_scene_new (hyd_document_get_circuit (doc), library);
          HydCanvasHit hit;
          if (hyd_canvas_scene_hit_wire (scene, to->x, to->y, HYD_CANVAS_WIRE_TOLERANCE * HYD_SYMBOL_MODULE, &hit))
            index = hit.wire;
        }
      if (index < hyd_document_get_circuit (doc)->connections->len)
        b = hyd_canvas_edit_split_wire (doc, library, index, to->x, to->y);
    }
  int k = (a && b) ? hyd_document_add_connection (doc, a, b, route, n_points, error) : -1;
  if (k < 0 && (a == NULL || b == NULL))
    g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE, "the wire's end is gone");
  hyd_document_end_group (doc);
  if (k < 0 && split)
    hyd_document_undo (doc); /* take the junctions back */
  return k >= 0;
}
