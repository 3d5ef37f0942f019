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
