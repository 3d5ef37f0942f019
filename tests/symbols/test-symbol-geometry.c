/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-symbol-geometry.c — poses (all eight rotations and mirrors), port
 * positions, bounds, hit testing and wire routing. */
#include "hyd-schematic.h"
#include "symbol-cases.h"

#include <math.h>
#include <string.h>

typedef struct {
  int rotation;
  gboolean mirror;
  double x, y;            /* expected world position of dcv_4_3.P placed at (300, 250) */
  HydDirection dir;
} PoseCase;

/* Worked by hand from world = (300, 250) + 10·R·F·(5, 5), R clockwise on
 * screen, F negating local x; P points down in the symbol's frame. */
static const PoseCase pose_cases[] = {
  { 0, FALSE, 350, 300, HYD_DIR_DOWN },
  { 90, FALSE, 250, 300, HYD_DIR_LEFT },
  { 180, FALSE, 250, 200, HYD_DIR_UP },
  { 270, FALSE, 350, 200, HYD_DIR_RIGHT },
  { 0, TRUE, 250, 300, HYD_DIR_DOWN },
  { 90, TRUE, 250, 200, HYD_DIR_LEFT },
  { 180, TRUE, 350, 200, HYD_DIR_UP },
  { 270, TRUE, 350, 300, HYD_DIR_RIGHT },
};

static void
test_port_world_positions (void)
{
  HydSymbol *sym = hyd_symbol_library_lookup (symbol_cases_library (), "dcv_4_3");
  g_assert_nonnull (sym);
  for (guint i = 0; i < G_N_ELEMENTS (pose_cases); i++)
    {
      const PoseCase *c = &pose_cases[i];
      HydSymbolPose pose;
      hyd_symbol_pose_init (&pose, 300, 250, c->rotation, c->mirror);
      double x, y;
      HydDirection d;
      g_assert_true (hyd_symbol_port_world_position (sym, &pose, "P", &x, &y, &d));
      g_assert_cmpfloat_with_epsilon (x, c->x, 1e-9);
      g_assert_cmpfloat_with_epsilon (y, c->y, 1e-9);
      g_assert_cmpint (d, ==, c->dir);
      g_assert_false (hyd_symbol_port_world_position (sym, &pose, "Q", &x, &y, &d));
    }
  /* mirrored: A (5, −1) and B (7, −1) swap sides */
  HydSymbolPose m;
  hyd_symbol_pose_init (&m, 0, 0, 0, TRUE);
  double ax, bx;
  hyd_symbol_port_world_position (sym, &m, "A", &ax, NULL, NULL);
  hyd_symbol_port_world_position (sym, &m, "B", &bx, NULL, NULL);
  g_assert_cmpfloat (ax, >, bx);
}

/* For every symbol and every pose on the grid: ports land on grid points,
 * the world direction agrees with transforming the direction vector, the
 * inverse transform returns the local point, and the bounds hold the ports. */
static void
test_all_symbols_all_poses (void)
{
  HydSymbolLibrary *lib = symbol_cases_library ();
  guint n;
  g_autofree const char **types = hyd_symbol_library_list (lib, &n);
  for (guint t = 0; t < n; t++)
    {
      HydSymbol *sym = hyd_symbol_library_lookup (lib, types[t]);
      for (int r = 0; r < 360; r += 90)
        for (int mirror = 0; mirror < 2; mirror++)
          {
            HydSymbolPose pose;
            hyd_symbol_pose_init (&pose, 120, -70, r, mirror);
            HydRect b;
            hyd_symbol_placed_bounds (sym, &pose, &b);
            for (guint i = 0; i < hyd_symbol_get_n_ports (sym); i++)
              {
                const HydSymbolPort *p = hyd_symbol_get_port (sym, i);
                double x, y;
                HydDirection d;
                hyd_symbol_port_world_position (sym, &pose, p->name, &x, &y, &d);
                g_assert_cmpfloat (fabs (x / 10 - round (x / 10)), <, 1e-9);
                g_assert_cmpfloat (fabs (y / 10 - round (y / 10)), <, 1e-9);
                int dx, dy, wdx, wdy;
                hyd_direction_vector (p->dir, &dx, &dy);
                hyd_direction_vector (d, &wdx, &wdy);
                double ox, oy;
                hyd_symbol_pose_to_world (&pose, p->x + dx, p->y + dy, &ox, &oy);
                g_assert_cmpfloat_with_epsilon (ox - x, 10.0 * wdx, 1e-9);
                g_assert_cmpfloat_with_epsilon (oy - y, 10.0 * wdy, 1e-9);
                double lx, ly;
                hyd_symbol_pose_to_local (&pose, x, y, &lx, &ly);
                g_assert_cmpfloat_with_epsilon (lx, p->x, 1e-9);
                g_assert_cmpfloat_with_epsilon (ly, p->y, 1e-9);
                g_assert_true (x >= b.x0 - 1e-9 && x <= b.x1 + 1e-9 && y >= b.y0 - 1e-9 && y <= b.y1 + 1e-9);
                /* the port is its own hit within the capture radius */
                g_assert_true (hyd_symbol_hit_port (sym, &pose, x + 3, y - 2, 0.6) == p);
              }
          }
    }
}

static void
test_hit_test (void)
{
  HydSymbol *sym = hyd_symbol_library_lookup (symbol_cases_library (), "dcv_4_3");
  HydSymbolPose pose;
  hyd_symbol_pose_init (&pose, 300, 250, 0, FALSE);
  /* inside the centre envelope, inside a side envelope */
  g_assert_true (hyd_symbol_hit_test (sym, &pose, NULL, 360, 270, 0.3));
  g_assert_true (hyd_symbol_hit_test (sym, &pose, NULL, 315, 265, 0.3));
  /* 2 units (0.2 M) above the top edge: within the tolerance of the outline */
  g_assert_true (hyd_symbol_hit_test (sym, &pose, NULL, 330, 248, 0.3));
  /* 8 units above, away from the port leads: outside */
  g_assert_false (hyd_symbol_hit_test (sym, &pose, NULL, 330, 242, 0.3));
  g_assert_false (hyd_symbol_hit_test (sym, &pose, NULL, 100, 100, 0.3));

  /* rotated a quarter turn, the envelope block is tall and thin */
  HydSymbolPose r;
  hyd_symbol_pose_init (&r, 300, 250, 90, FALSE);
  g_assert_true (hyd_symbol_hit_test (sym, &r, NULL, 280, 310, 0.3));
  g_assert_false (hyd_symbol_hit_test (sym, &r, NULL, 360, 270, 0.3));

  /* ports: the nearest within the radius */
  const HydSymbolPort *p = hyd_symbol_hit_port (sym, &pose, 352, 297, 0.6);
  g_assert_nonnull (p);
  g_assert_cmpstr (p->name, ==, "P");
  g_assert_null (hyd_symbol_hit_port (sym, &pose, 360, 290, 0.6));

  /* a cylinder's rod reaches further when extended */
  HydSymbol *cyl = hyd_symbol_library_lookup (symbol_cases_library (), "cylinder_double");
  HydSymbolPose cp;
  hyd_symbol_pose_init (&cp, 0, 0, 0, FALSE);
  g_autoptr (HydSymbolState) st = hyd_symbol_state_new ();
  hyd_symbol_state_set (st, "stroke", 0.3);
  hyd_symbol_state_set (st, "x", 0.3);
  HydRect rest, ext;
  hyd_symbol_placed_bounds (cyl, &cp, &rest);
  hyd_symbol_state_bounds (cyl, &cp, st, &ext);
  g_assert_cmpfloat (rest.x1, <, 125);
  g_assert_cmpfloat (ext.x1, >, 180);
  g_assert_false (hyd_symbol_hit_test (cyl, &cp, NULL, 175, 20, 0.3));
  g_assert_true (hyd_symbol_hit_test (cyl, &cp, st, 175, 20, 0.3));
}

/* The initial position drives the rest drawing of a cylinder. */
static void
test_state_from_component (void)
{
  const char *json = "{\"format\": \"bramah-circuit\", \"version\": 1, \"components\": ["
                     "{\"id\": \"C1\", \"type\": \"cylinder_double\", \"position\": [0, 0], "
                     "\"params\": {\"stroke\": 0.4, \"initial_position\": 0.4}},"
                     "{\"id\": \"D1\", \"type\": \"dcv_4_3\", \"params\": {\"centre\": \"tandem\", "
                     "\"command\": {\"step\": {\"times\": [1], \"values\": [0.5, 1]}}}}],"
                     "\"connections\": []}";
  GError *error = NULL;
  g_autoptr (HydCircuit) c = hyd_circuit_load_from_data (json, -1, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (HydSymbolState) st = hyd_symbol_state_new ();
  hyd_symbol_state_set_component_params (st, g_ptr_array_index (c->components, 0));
  double v;
  g_assert_true (hyd_symbol_state_lookup (st, "stroke", &v));
  g_assert_cmpfloat (v, ==, 0.4);
  g_assert_true (hyd_symbol_state_lookup (st, "initial_position", &v));
  g_assert_cmpfloat (v, ==, 0.4);
  g_assert_true (hyd_symbol_state_lookup (st, "rod_diameter", &v)); /* a default */
  HydSymbol *cyl = hyd_symbol_library_lookup (symbol_cases_library (), "cylinder_double");
  HydSymbolPose pose = { 0, 0, 0, FALSE };
  HydRect b;
  hyd_symbol_state_bounds (cyl, &pose, st, &b);
  g_assert_cmpfloat (b.x1, >, 180); /* drawn extended: x comes from initial_position */

  hyd_symbol_state_clear (st);
  hyd_symbol_state_set_component_params (st, g_ptr_array_index (c->components, 1));
  g_assert_cmpstr (hyd_symbol_state_lookup_string (st, "centre"), ==, "tandem");
  g_assert_cmpstr (hyd_symbol_state_lookup_string (st, "actuation"), ==, "lever");
  g_assert_true (hyd_symbol_state_lookup (st, "command", &v));
  g_assert_cmpfloat (v, ==, 0.5);
}

static void
assert_points (GArray *pts, const double *expect, guint n)
{
  if (pts->len != 2 * n)
    {
      GString *s = g_string_new (NULL);
      for (guint i = 0; i < pts->len / 2; i++)
        g_string_append_printf (s, " (%g, %g)", g_array_index (pts, double, 2 * i),
                                g_array_index (pts, double, 2 * i + 1));
      g_error ("expected %u points, got%s", n, s->str);
    }
  for (guint i = 0; i < 2 * n; i++)
    g_assert_cmpfloat_with_epsilon (g_array_index (pts, double, i), expect[i], 1e-9);
}

static void
test_route (void)
{
  g_autoptr (GArray) pts = g_array_new (FALSE, FALSE, sizeof (double));
  /* port pointing up to a port pointing right: one elbow, leaving vertically */
  hyd_schematic_route (0, 0, TRUE, HYD_DIR_UP, NULL, 0, 50, -40, TRUE, HYD_DIR_RIGHT, pts);
  assert_points (pts, (double[]) { 0, 0, 0, -40, 50, -40 }, 3);
  /* two ports facing each other vertically: a Z with the middle leg halfway */
  hyd_schematic_route (0, 0, TRUE, HYD_DIR_UP, NULL, 0, 40, -60, TRUE, HYD_DIR_DOWN, pts);
  assert_points (pts, (double[]) { 0, 0, 0, -30, 40, -30, 40, -60 }, 4);
  /* through route points, with collinear and repeated points dropped */
  hyd_schematic_route (0, 0, TRUE, HYD_DIR_DOWN, (double[]) { 0, 20, 0, 20, 0, 30, 40, 30 }, 4, 40, 60, TRUE,
                       HYD_DIR_UP, pts);
  assert_points (pts, (double[]) { 0, 0, 0, 30, 40, 30, 40, 60 }, 4);
  /* junction to junction, not aligned: horizontal first */
  hyd_schematic_route (0, 0, FALSE, HYD_DIR_UP, NULL, 0, 30, 30, FALSE, HYD_DIR_UP, pts);
  assert_points (pts, (double[]) { 0, 0, 30, 0, 30, 30 }, 3);
  /* a diagonal leg after a vertical one continues vertically */
  hyd_schematic_route (0, 0, TRUE, HYD_DIR_DOWN, (double[]) { 0, 20 }, 1, 30, 50, FALSE, HYD_DIR_UP, pts);
  assert_points (pts, (double[]) { 0, 0, 0, 50, 30, 50 }, 3);
}

/* Every wire of every example is orthogonal and ends on its ports. */
static void
test_example_wires (void)
{
  g_autoptr (GDir) dir = g_dir_open (HYD_EXAMPLES_DIR, 0, NULL);
  g_assert_nonnull (dir);
  const char *name;
  HydSymbolLibrary *lib = symbol_cases_library ();
  g_autoptr (GArray) pts = g_array_new (FALSE, FALSE, sizeof (double));
  while ((name = g_dir_read_name (dir)))
    {
      if (!g_str_has_suffix (name, ".bramah"))
        continue;
      g_autofree char *path = g_build_filename (HYD_EXAMPLES_DIR, name, NULL);
      GError *error = NULL;
      g_autoptr (HydCircuit) c = hyd_circuit_load_from_file (path, &error);
      g_assert_no_error (error);
      for (guint i = 0; i < c->connections->len; i++)
        {
          HydCircuitConnection *conn = g_ptr_array_index (c->connections, i);
          g_assert_true (hyd_schematic_wire_points (c, lib, conn, pts));
          g_assert_cmpuint (pts->len, >=, 4);
          const double *p = (const double *) pts->data;
          guint n = pts->len / 2;
          for (guint k = 0; k + 1 < n; k++)
            if (!(fabs (p[2 * k] - p[2 * k + 2]) < 1e-9 || fabs (p[2 * k + 1] - p[2 * k + 3]) < 1e-9))
              g_error ("%s: wire %s → %s has a slanted segment", name, conn->from, conn->to);
          double x, y;
          HydDirection d;
          gboolean has;
          g_assert_true (hyd_schematic_endpoint (c, lib, conn->from, &x, &y, &d, &has));
          g_assert_cmpfloat (p[0], ==, x);
          g_assert_cmpfloat (p[1], ==, y);
          g_assert_true (hyd_schematic_endpoint (c, lib, conn->to, &x, &y, &d, &has));
          g_assert_cmpfloat (p[2 * n - 2], ==, x);
          g_assert_cmpfloat (p[2 * n - 1], ==, y);
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/symbols/pose/port-world-positions", test_port_world_positions);
  g_test_add_func ("/symbols/pose/all-symbols-all-poses", test_all_symbols_all_poses);
  g_test_add_func ("/symbols/hit/test", test_hit_test);
  g_test_add_func ("/symbols/state/from-component", test_state_from_component);
  g_test_add_func ("/symbols/wires/route", test_route);
  g_test_add_func ("/symbols/wires/examples", test_example_wires);
  return g_test_run ();
}
