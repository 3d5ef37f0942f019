/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-canvas-route.c — orthogonal wires while drawing and after moves.
 *
 * The elbows themselves come from hyd_schematic_route (symbols/), the one
 * router the drawing uses, so what the editor previews is what is drawn. */
#include "hyd-canvas-route.h"
#include "hyd-schematic.h"

#include <math.h>

#define EPS 1e-6

static void
push (GArray *a, double x, double y)
{
  g_array_append_val (a, x);
  g_array_append_val (a, y);
}

static gboolean
dir_vertical (HydDirection d)
{
  return d == HYD_DIR_UP || d == HYD_DIR_DOWN;
}

void
hyd_canvas_route_simplify (GArray *points)
{
  g_autoptr (GArray) out = g_array_sized_new (FALSE, FALSE, sizeof (double), points->len);
  const double *p = (const double *) points->data;
  for (guint i = 0; i < points->len / 2; i++)
    {
      double x = p[2 * i], y = p[2 * i + 1];
      guint k = out->len / 2;
      const double *o = (const double *) out->data;
      if (k >= 1 && fabs (o[2 * k - 2] - x) < EPS && fabs (o[2 * k - 1] - y) < EPS)
        continue;
      if (k >= 2)
        {
          double ux = o[2 * k - 2] - o[2 * k - 4], uy = o[2 * k - 1] - o[2 * k - 3];
          double vx = x - o[2 * k - 2], vy = y - o[2 * k - 1];
          /* on one line: the middle point adds nothing (and a wire that
           * doubles back on itself only hides its own end) */
          if (fabs (ux * vy - uy * vx) < EPS)
            {
              g_array_set_size (out, out->len - 2);
              /* the point before may now repeat this one */
              k = out->len / 2;
              o = (const double *) out->data;
              if (fabs (o[2 * k - 2] - x) < EPS && fabs (o[2 * k - 1] - y) < EPS)
                continue;
            }
        }
      push (out, x, y);
    }
  g_array_set_size (points, 0);
  g_array_append_vals (points, out->data, out->len);
}

gboolean
hyd_canvas_route_is_orthogonal (const double *p, guint n)
{
  for (guint i = 0; i + 1 < n; i++)
    if (fabs (p[2 * i] - p[2 * i + 2]) > EPS && fabs (p[2 * i + 1] - p[2 * i + 3]) > EPS)
      return FALSE;
  return TRUE;
}

gboolean
hyd_canvas_route_leg_vertical_first (int prev_axis, gboolean has_dir, HydDirection dir, double x0, double y0,
                                     double x1, double y1, gboolean toggled)
{
  gboolean vertical;
  if (prev_axis)
    vertical = prev_axis == 1;
  else if (has_dir)
    {
      /* along the port's axis, unless the pointer is behind the port:
       * then across first, so the wire does not run back over the symbol */
      int dx, dy;
      hyd_direction_vector (dir, &dx, &dy);
      vertical = dir_vertical (dir);
      if ((x1 - x0) * dx + (y1 - y0) * dy < 0)
        vertical = !vertical;
    }
  else
    vertical = fabs (y1 - y0) > fabs (x1 - x0);
  return toggled ? !vertical : vertical;
}

static void
append_leg (GArray *out, gboolean has_dir0, HydDirection dir0, double px, double py, gboolean toggled)
{
  guint n = out->len / 2;
  const double *v = (const double *) out->data;
  double x0 = v[2 * n - 2], y0 = v[2 * n - 1];
  int prev_axis = 0;
  if (n >= 2)
    prev_axis = fabs (v[2 * n - 4] - x0) > EPS ? 1 : 2;
  if (fabs (px - x0) > EPS && fabs (py - y0) > EPS)
    {
      gboolean vfirst = hyd_canvas_route_leg_vertical_first (prev_axis, n == 1 && has_dir0, dir0, x0, y0, px, py,
                                                             toggled);
      if (vfirst)
        push (out, x0, py);
      else
        push (out, px, y0);
    }
  push (out, px, py);
}

void
hyd_canvas_route_preview (const GArray *vertices, gboolean has_dir0, HydDirection dir0, double px, double py,
                          gboolean toggled, GArray *out)
{
  g_return_if_fail (vertices != NULL && vertices->len >= 2);
  g_array_set_size (out, 0);
  g_array_append_vals (out, vertices->data, vertices->len);
  append_leg (out, has_dir0, dir0, px, py, toggled);
  hyd_canvas_route_simplify (out);
}

void
hyd_canvas_route_add_leg (GArray *vertices, gboolean has_dir0, HydDirection dir0, double px, double py,
                          gboolean toggled)
{
  g_return_if_fail (vertices != NULL && vertices->len >= 2);
  append_leg (vertices, has_dir0, dir0, px, py, toggled);
  hyd_canvas_route_simplify (vertices);
}

static void
inner_points (const GArray *polyline, GArray *route)
{
  g_array_set_size (route, 0);
  guint n = polyline->len / 2;
  if (n > 2)
    g_array_append_vals (route, (const double *) polyline->data + 2, 2 * (n - 2));
}

void
hyd_canvas_route_finish (const GArray *vertices, gboolean has_dir0, HydDirection dir0, double x1, double y1,
                         gboolean has_dir1, HydDirection dir1, GArray *polyline, GArray *route)
{
  g_return_if_fail (vertices != NULL && vertices->len >= 2);
  const double *v = (const double *) vertices->data;
  guint n_via = vertices->len / 2 - 1;
  hyd_schematic_route (v[0], v[1], has_dir0, dir0, n_via ? v + 2 : NULL, n_via, x1, y1, has_dir1, dir1, polyline);
  hyd_canvas_route_simplify (polyline);
  if (route)
    inner_points (polyline, route);
}

static void
reverse_points (GArray *a)
{
  guint n = a->len / 2;
  double *p = (double *) a->data;
  for (guint i = 0; i < n / 2; i++)
    {
      guint j = n - 1 - i;
      double tx = p[2 * i], ty = p[2 * i + 1];
      p[2 * i] = p[2 * j];
      p[2 * i + 1] = p[2 * j + 1];
      p[2 * j] = tx;
      p[2 * j + 1] = ty;
    }
}

/* The points that take a wire out of a port at (nx, ny) facing `dir` to
 * (tx, ty), without running back over the port's symbol: along the port's
 * axis first when the target is ahead, else one grid step out and then
 * across. The target itself is not added. */
static void
leave_port (double nx, double ny, HydDirection dir, double tx, double ty, GArray *out)
{
  int dx, dy;
  hyd_direction_vector (dir, &dx, &dy);
  gboolean vertical = dir_vertical (dir);
  if ((tx - nx) * dx + (ty - ny) * dy > EPS)
    {
      if (vertical)
        push (out, nx, ty);
      else
        push (out, tx, ny);
      return;
    }
  double sx = nx + dx * 10.0, sy = ny + dy * 10.0; /* one grid step (M) */
  push (out, sx, sy);
  if (vertical)
    push (out, tx, sy);
  else
    push (out, sx, ty);
}

void
hyd_canvas_route_reroute (const double *old, guint n_old, gboolean moved_start, double nx, double ny,
                          gboolean has_dir, HydDirection dir, double fx, double fy, gboolean far_has_dir,
                          HydDirection far_dir, gboolean keep_axis, GArray *route)
{
  g_array_set_size (route, 0);
  if (old == NULL || n_old < 3)
    return; /* no bends: the router draws an elbow or a Z by itself */
  g_autoptr (GArray) pts = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_append_vals (pts, old, 2 * n_old);
  if (!moved_start)
    reverse_points (pts);
  /* work from the moved end: pts[0] is where it was */
  g_autoptr (GArray) inner = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_append_vals (inner, (const double *) pts->data + 2, 2 * (n_old - 2));
  const double *p = (const double *) pts->data;
  double *q = (double *) inner->data;
  gboolean join = !keep_axis;
  if (keep_axis)
    {
      /* slide the first bend across with the end, so the first segment keeps
       * its axis and the one after it stays where it was */
      gboolean vertical = fabs (p[0] - q[0]) < EPS;
      if (vertical)
        q[0] = nx;
      else
        q[1] = ny;
      if (has_dir)
        {
          int dx, dy;
          hyd_direction_vector (dir, &dx, &dy);
          if ((q[0] - nx) * dx + (q[1] - ny) * dy <= EPS)
            {
              /* the end moved past its first bend: that bend would take
               * the wire back over the symbol, so go round to the next */
              g_array_remove_range (inner, 0, 2);
              join = TRUE;
            }
        }
    }
  /* (a turned port, or a bend dropped) every remaining bend stays; new
   * points take the wire out of the port to the first of them */
  g_autoptr (GArray) via = g_array_new (FALSE, FALSE, sizeof (double));
  if (join && has_dir)
    {
      double tx = inner->len ? g_array_index (inner, double, 0) : fx;
      double ty = inner->len ? g_array_index (inner, double, 1) : fy;
      leave_port (nx, ny, dir, tx, ty, via);
    }
  g_array_append_vals (via, inner->data, inner->len);

  g_autoptr (GArray) line = g_array_new (FALSE, FALSE, sizeof (double));
  guint n_via = via->len / 2;
  hyd_schematic_route (nx, ny, has_dir, dir, n_via ? (const double *) via->data : NULL, n_via, fx, fy, far_has_dir,
                       far_dir, line);
  hyd_canvas_route_simplify (line);
  inner_points (line, route);
  if (!moved_start)
    reverse_points (route);
}

/* ---- round the symbols ---- */

/* Clearance kept from a symbol: one grid step (M). */
#define ROUTE_CLEARANCE 10.0
/* Inside means deeper than this: a wire along an edge is not through. */
#define ROUTE_TOUCH 0.5

static gboolean
segment_crosses_box (double ax, double ay, double bx, double by, const HydRect *r)
{
  double x0 = r->x0 + ROUTE_TOUCH, x1 = r->x1 - ROUTE_TOUCH, y0 = r->y0 + ROUTE_TOUCH, y1 = r->y1 - ROUTE_TOUCH;
  if (x1 <= x0 || y1 <= y0)
    return FALSE;
  double lx = MIN (ax, bx), hx = MAX (ax, bx), ly = MIN (ay, by), hy = MAX (ay, by);
  return hx > x0 && lx < x1 && hy > y0 && ly < y1;
}

static gboolean
point_inside_box (double x, double y, const HydRect *r)
{
  return x > r->x0 + ROUTE_TOUCH && x < r->x1 - ROUTE_TOUCH && y > r->y0 + ROUTE_TOUCH && y < r->y1 - ROUTE_TOUCH;
}

gboolean
hyd_canvas_route_crosses (const double *p, guint n, const HydRect *boxes, guint n_boxes)
{
  for (guint i = 0; i + 1 < n; i++)
    for (guint b = 0; b < n_boxes; b++)
      if (segment_crosses_box (p[2 * i], p[2 * i + 1], p[2 * i + 2], p[2 * i + 3], &boxes[b]))
        return TRUE;
  return FALSE;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static void
sort_unique (GArray *v)
{
  g_array_sort (v, compare_double);
  guint k = 0;
  for (guint i = 0; i < v->len; i++)
    if (k == 0 || fabs (g_array_index (v, double, i) - g_array_index (v, double, k - 1)) > EPS)
      g_array_index (v, double, k++) = g_array_index (v, double, i);
  g_array_set_size (v, k);
}

static guint
index_of (const GArray *v, double x)
{
  for (guint i = 0; i < v->len; i++)
    if (fabs (g_array_index (v, double, i) - x) < EPS)
      return i;
  return G_MAXUINT;
}

/* Dijkstra over the grid of candidate lines; a state is a node and the axis
 * it was reached along (0 horizontal, 1 vertical). */
typedef struct {
  double cost;
  guint state;
} QueueItem;

static int
compare_item (gconstpointer a, gconstpointer b)
{
  const QueueItem *x = a, *y = b;
  return x->cost < y->cost ? -1 : x->cost > y->cost;
}

gboolean
hyd_canvas_route_avoid (double x0, double y0, gboolean has_dir0, HydDirection dir0, double x1, double y1,
                        gboolean has_dir1, HydDirection dir1, const HydRect *boxes, guint n_boxes,
                        GArray *polyline)
{
  if (n_boxes == 0 || !hyd_canvas_route_crosses ((const double *) polyline->data, polyline->len / 2, boxes, n_boxes))
    return FALSE;

  /* one step out of each port, along its axis */
  int dx0 = 0, dy0 = 0, dx1 = 0, dy1 = 0;
  if (has_dir0)
    hyd_direction_vector (dir0, &dx0, &dy0);
  if (has_dir1)
    hyd_direction_vector (dir1, &dx1, &dy1);
  double sx = x0 + dx0 * ROUTE_CLEARANCE, sy = y0 + dy0 * ROUTE_CLEARANCE;
  double ex = x1 + dx1 * ROUTE_CLEARANCE, ey = y1 + dy1 * ROUTE_CLEARANCE;

  /* the obstacles: every box but those the ends' first steps start in */
  g_autoptr (GArray) obstacles = g_array_new (FALSE, FALSE, sizeof (HydRect));
  for (guint b = 0; b < n_boxes; b++)
    {
      if (point_inside_box (sx, sy, &boxes[b]) || point_inside_box (ex, ey, &boxes[b])
          || point_inside_box (x0, y0, &boxes[b]) || point_inside_box (x1, y1, &boxes[b]))
        continue;
      g_array_append_val (obstacles, boxes[b]);
    }
  const HydRect *obs = (const HydRect *) obstacles->data;
  guint n_obs = obstacles->len;
  for (guint b = 0; b < n_obs; b++)
    if (segment_crosses_box (x0, y0, sx, sy, &obs[b]) || segment_crosses_box (ex, ey, x1, y1, &obs[b]))
      return FALSE;

  /* candidate lines: the ends' steps and one step outside every box */
  g_autoptr (GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) ys = g_array_new (FALSE, FALSE, sizeof (double));
  double v;
  v = sx; g_array_append_val (xs, v);
  v = ex; g_array_append_val (xs, v);
  v = sy; g_array_append_val (ys, v);
  v = ey; g_array_append_val (ys, v);
  for (guint b = 0; b < n_obs; b++)
    {
      v = floor ((obs[b].x0 - ROUTE_CLEARANCE) / ROUTE_CLEARANCE) * ROUTE_CLEARANCE;
      g_array_append_val (xs, v);
      v = ceil ((obs[b].x1 + ROUTE_CLEARANCE) / ROUTE_CLEARANCE) * ROUTE_CLEARANCE;
      g_array_append_val (xs, v);
      v = floor ((obs[b].y0 - ROUTE_CLEARANCE) / ROUTE_CLEARANCE) * ROUTE_CLEARANCE;
      g_array_append_val (ys, v);
      v = ceil ((obs[b].y1 + ROUTE_CLEARANCE) / ROUTE_CLEARANCE) * ROUTE_CLEARANCE;
      g_array_append_val (ys, v);
    }
  sort_unique (xs);
  sort_unique (ys);
  guint nx = xs->len, ny = ys->len, n_nodes = nx * ny;
  const double *X = (const double *) xs->data, *Y = (const double *) ys->data;
  guint start = index_of (ys, sy) * nx + index_of (xs, sx);
  guint goal = index_of (ys, ey) * nx + index_of (xs, ex);

  g_autofree double *dist = g_new (double, 2 * n_nodes);
  g_autofree guint *prev = g_new (guint, 2 * n_nodes);
  for (guint i = 0; i < 2 * n_nodes; i++)
    {
      dist[i] = INFINITY;
      prev[i] = G_MAXUINT;
    }
  g_autoptr (GArray) queue = g_array_new (FALSE, FALSE, sizeof (QueueItem));
  /* leaving the start along the port's axis costs nothing; across it, a bend */
  for (guint axis = 0; axis < 2; axis++)
    {
      double c = 0;
      if (has_dir0 && (axis == 1) != dir_vertical (dir0))
        c = HYD_CANVAS_ROUTE_BEND_COST;
      dist[2 * start + axis] = c;
      QueueItem item = { c, 2 * start + axis };
      g_array_append_val (queue, item);
    }
  guint best = G_MAXUINT;
  double best_cost = INFINITY;
  while (queue->len > 0)
    {
      /* the cheapest item (a linear scan: a few thousand nodes at most) */
      guint m = 0;
      for (guint i = 1; i < queue->len; i++)
        if (compare_item (&g_array_index (queue, QueueItem, i), &g_array_index (queue, QueueItem, m)) < 0)
          m = i;
      QueueItem it = g_array_index (queue, QueueItem, m);
      g_array_remove_index_fast (queue, m);
      if (it.cost > dist[it.state])
        continue;
      guint node = it.state / 2, axis = it.state % 2;
      if (node == goal)
        {
          double c = it.cost;
          if (has_dir1 && (axis == 1) != dir_vertical (dir1))
            c += HYD_CANVAS_ROUTE_BEND_COST;
          if (c < best_cost)
            {
              best_cost = c;
              best = it.state;
            }
          continue;
        }
      guint ix = node % nx, iy = node / nx;
      static const int steps[4][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 1 }, { 0, -1, 1 } };
      for (guint k = 0; k < 4; k++)
        {
          int jx = (int) ix + steps[k][0], jy = (int) iy + steps[k][1];
          if (jx < 0 || jy < 0 || jx >= (int) nx || jy >= (int) ny)
            continue;
          double ax = X[ix], ay = Y[iy], bx = X[jx], by = Y[jy];
          gboolean blocked = FALSE;
          for (guint b = 0; b < n_obs && !blocked; b++)
            blocked = segment_crosses_box (ax, ay, bx, by, &obs[b]) || point_inside_box (bx, by, &obs[b]);
          if (blocked)
            continue;
          guint new_axis = (guint) steps[k][2];
          double c = it.cost + fabs (bx - ax) + fabs (by - ay) + (new_axis != axis ? HYD_CANVAS_ROUTE_BEND_COST : 0);
          guint st = 2 * ((guint) jy * nx + (guint) jx) + new_axis;
          if (c < dist[st] - EPS)
            {
              dist[st] = c;
              prev[st] = it.state;
              QueueItem item = { c, st };
              g_array_append_val (queue, item);
            }
        }
    }
  if (best == G_MAXUINT)
    return FALSE;

  /* the path, from the goal back */
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint st = best; st != G_MAXUINT; st = prev[st])
    push (path, X[(st / 2) % nx], Y[(st / 2) / nx]);
  reverse_points (path);
  g_array_set_size (polyline, 0);
  push (polyline, x0, y0);
  g_array_append_vals (polyline, path->data, path->len);
  push (polyline, x1, y1);
  hyd_canvas_route_simplify (polyline);
  return TRUE;
}
