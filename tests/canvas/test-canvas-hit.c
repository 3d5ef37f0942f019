/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-canvas-hit.c — hit testing of the canvas scene: points on ports,
 * symbol bodies, junctions, wires and empty space, under all eight
 * rotation/mirror poses; rubber bands; the pre-save check; probe names;
 * components whose symbol is missing. No display needed. */
#include <math.h>
#include <string.h>

#include "hyd-canvas-scene.h"
#include "hyd-circuit-check.h"

static HydSymbolLibrary *
library (void)
{
  GError *error = NULL;
  HydSymbolLibrary *lib = hyd_symbol_library_get_default (&error);
  g_assert_no_error (error);
  g_assert_nonnull (lib);
  return lib;
}

static HydCircuitComponent *
add_component (HydCircuit *c, const char *id, const char *type, double x, double y, int rotation, gboolean mirror)
{
  HydCircuitComponent *k = hyd_circuit_component_new (id, type);
  k->x = x;
  k->y = y;
  k->rotation = rotation;
  k->mirror = mirror;
  k->has_position = k->has_rotation = k->has_mirror = TRUE;
  g_ptr_array_add (c->components, k);
  return k;
}

static void
add_junction (HydCircuit *c, const char *id, double x, double y)
{
  HydCircuitJunction *j = hyd_circuit_junction_new (id);
  j->x = x;
  j->y = y;
  j->has_position = TRUE;
  g_ptr_array_add (c->junctions, j);
}

static void
add_wire (HydCircuit *c, const char *from, const char *to)
{
  g_ptr_array_add (c->connections, hyd_circuit_connection_new (from, to));
}

typedef struct {
  int rotation;
  gboolean mirror;
} Pose;

static const Pose poses[] = {
  { 0, FALSE }, { 90, FALSE }, { 180, FALSE }, { 270, FALSE },
  { 0, TRUE },  { 90, TRUE },  { 180, TRUE },  { 270, TRUE },
};

/* A relief valve in a pose, its P port wired to a junction far away. */
static HydCircuit *
pose_circuit (const Pose *p)
{
  HydCircuit *c = hyd_circuit_new ();
  add_component (c, "RV1", "relief_valve", 200, 200, p->rotation, p->mirror);
  add_junction (c, "J1", 500, 520);
  add_wire (c, "RV1.P", "J1");
  return c;
}

static void
test_ports (void)
{
  HydSymbolLibrary *lib = library ();
  HydSymbol *sym = hyd_symbol_library_lookup (lib, "relief_valve");
  g_assert_nonnull (sym);
  for (guint i = 0; i < G_N_ELEMENTS (poses); i++)
    {
      g_autoptr (HydCircuit) c = pose_circuit (&poses[i]);
      g_autoptr (HydCanvasScene) s = hyd_canvas_scene_new (c, lib);
      HydSymbolPose pose;
      hyd_symbol_pose_init (&pose, 200, 200, poses[i].rotation, poses[i].mirror);
      for (guint k = 0; k < hyd_symbol_get_n_ports (sym); k++)
        {
          const HydSymbolPort *port = hyd_symbol_get_port (sym, k);
          double px, py;
          HydDirection dir;
          g_assert_true (hyd_symbol_port_world_position (sym, &pose, port->name, &px, &py, &dir));
          /* ports stay on the grid in every pose (design §1.2) */
          g_assert_cmpfloat (fmod (fabs (px), HYD_CANVAS_GRID), ==, 0);
          g_assert_cmpfloat (fmod (fabs (py), HYD_CANVAS_GRID), ==, 0);
          HydCanvasHit hit;
          g_assert_cmpint (hyd_canvas_scene_hit (s, px + 2, py - 3, 1.0, HYD_CANVAS_HIT_ALL, &hit), ==,
                           HYD_CANVAS_HIT_PORT);
          g_assert_cmpstr (hit.id, ==, "RV1");
          g_assert_cmpstr (hit.port, ==, port->name);
          g_assert_true (hit.has_dir);
          g_assert_cmpint (hit.dir, ==, dir);
          g_assert_cmpint (hit.dir, ==, hyd_symbol_pose_direction (&pose, port->dir));
          g_assert_cmpfloat (hit.x, ==, px);
          g_assert_cmpfloat (hit.y, ==, py);
          /* beyond the capture radius it is not the port */
          HydCanvasHit far;
          hyd_canvas_scene_hit (s, px + 9 * (dir == HYD_DIR_RIGHT) - 9 * (dir == HYD_DIR_LEFT),
                                py + 9 * (dir == HYD_DIR_DOWN) - 9 * (dir == HYD_DIR_UP), 1.0, HYD_CANVAS_HIT_PORT,
                                &far);
          g_assert_cmpint (far.kind, ==, HYD_CANVAS_HIT_NONE);
          /* zoomed out to 10 %, five screen pixels are 50 units */
          g_assert_cmpint (hyd_canvas_scene_hit (s, px + 30, py, 10.0, HYD_CANVAS_HIT_PORT, &far), ==,
                           HYD_CANVAS_HIT_PORT);
        }
    }
}

static void
test_bodies (void)
{
  HydSymbolLibrary *lib = library ();
  /* points of the valve's square (local 0..4 M), clear of its arrow */
  const double local[][2] = { { 0.4, 3.6 }, { 3.6, 3.6 }, { 0.4, 0.4 }, { 2.5, 2.5 } };
  for (guint i = 0; i < G_N_ELEMENTS (poses); i++)
    {
      g_autoptr (HydCircuit) c = pose_circuit (&poses[i]);
      g_autoptr (HydCanvasScene) s = hyd_canvas_scene_new (c, lib);
      HydSymbolPose pose;
      hyd_symbol_pose_init (&pose, 200, 200, poses[i].rotation, poses[i].mirror);
      for (guint k = 0; k < G_N_ELEMENTS (local); k++)
        {
          double x, y;
          hyd_symbol_pose_to_world (&pose, local[k][0], local[k][1], &x, &y);
          HydCanvasHit hit;
          g_assert_cmpint (hyd_canvas_scene_hit (s, x, y, 1.0, HYD_CANVAS_HIT_ALL, &hit), ==,
                           HYD_CANVAS_HIT_COMPONENT);
          g_assert_cmpstr (hit.id, ==, "RV1");
          /* with only junctions asked for, the body is not an answer */
          g_assert_cmpint (hyd_canvas_scene_hit (s, x, y, 1.0, HYD_CANVAS_HIT_JUNCTION, NULL), ==,
                           HYD_CANVAS_HIT_NONE);
        }
      /* far from everything: nothing */
      g_assert_cmpint (hyd_canvas_scene_hit (s, -400, -300, 1.0, HYD_CANVAS_HIT_ALL, NULL), ==, HYD_CANVAS_HIT_NONE);
      g_assert_cmpint (hyd_canvas_scene_hit (s, 900, 100, 1.0, HYD_CANVAS_HIT_ALL, NULL), ==, HYD_CANVAS_HIT_NONE);
    }
}

static void
test_wires_and_junctions (void)
{
  HydSymbolLibrary *lib = library ();
  for (guint i = 0; i < G_N_ELEMENTS (poses); i++)
    {
      g_autoptr (HydCircuit) c = pose_circuit (&poses[i]);
      g_autoptr (HydCanvasScene) s = hyd_canvas_scene_new (c, lib);
      const HydCanvasSceneWire *w = hyd_canvas_scene_get_wire (s, 0);
      g_assert_nonnull (w->points);
      const double *p = (const double *) w->points->data;
      guint n = w->points->len / 2;
      g_assert_cmpuint (n, >=, 2);
      /* the wire starts at the port and ends at the junction */
      double px, py;
      HydDirection d;
      gboolean has_dir;
      g_assert_true (hyd_canvas_scene_endpoint (s, "RV1.P", &px, &py, &d, &has_dir));
      g_assert_true (has_dir);
      g_assert_cmpfloat (p[0], ==, px);
      g_assert_cmpfloat (p[1], ==, py);
      g_assert_cmpfloat (p[2 * n - 2], ==, 500);
      g_assert_cmpfloat (p[2 * n - 1], ==, 520);
      /* the middle of its longest segment, and 3 units off it */
      guint best = 0;
      double len = 0;
      for (guint k = 0; k + 1 < n; k++)
        {
          double l = fabs (p[2 * k + 2] - p[2 * k]) + fabs (p[2 * k + 3] - p[2 * k + 1]);
          if (l > len)
            {
              len = l;
              best = k;
            }
        }
      double mx = (p[2 * best] + p[2 * best + 2]) / 2, my = (p[2 * best + 1] + p[2 * best + 3]) / 2;
      gboolean horizontal = p[2 * best + 1] == p[2 * best + 3];
      HydCanvasHit hit;
      g_assert_cmpint (hyd_canvas_scene_hit (s, mx, my, 1.0, HYD_CANVAS_HIT_ALL, &hit), ==, HYD_CANVAS_HIT_WIRE);
      g_assert_cmpuint (hit.wire, ==, 0);
      g_assert_cmpuint (hit.segment, ==, best);
      g_assert_cmpint (hyd_canvas_scene_hit (s, mx + (horizontal ? 0 : 3), my + (horizontal ? 3 : 0), 1.0,
                                             HYD_CANVAS_HIT_ALL, &hit),
                       ==, HYD_CANVAS_HIT_WIRE);
      g_assert_cmpfloat (hit.x, ==, mx);
      g_assert_cmpfloat (hit.y, ==, my);
      /* 8 units off is empty space at 100 % */
      g_assert_cmpint (hyd_canvas_scene_hit (s, mx + (horizontal ? 0 : 8), my + (horizontal ? 8 : 0), 1.0,
                                             HYD_CANVAS_HIT_ALL, NULL),
                       ==, HYD_CANVAS_HIT_NONE);
      /* the junction wins over the wire ending on it */
      g_assert_cmpint (hyd_canvas_scene_hit (s, 502, 518, 1.0, HYD_CANVAS_HIT_ALL, &hit), ==,
                       HYD_CANVAS_HIT_JUNCTION);
      g_assert_cmpstr (hit.id, ==, "J1");
    }
}

static void
test_rubber_band (void)
{
  HydSymbolLibrary *lib = library ();
  g_autoptr (HydCircuit) c = pose_circuit (&poses[0]);
  g_autoptr (HydCanvasScene) s = hyd_canvas_scene_new (c, lib);
  const HydCanvasSceneComponent *rv = hyd_canvas_scene_find_component (s, "RV1");
  g_assert_nonnull (rv);
  HydRect b = rv->bounds;

  /* wholly inside */
  HydRect around = { b.x0 - 5, b.y0 - 5, b.x1 + 5, b.y1 + 5 };
  g_autoptr (GPtrArray) ids = g_ptr_array_new ();
  g_autoptr (GArray) wires = g_array_new (FALSE, FALSE, sizeof (guint));
  hyd_canvas_scene_items_in_rect (s, &around, FALSE, ids, wires);
  g_assert_cmpuint (ids->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (ids, 0), ==, "RV1");
  g_assert_cmpuint (wires->len, ==, 0);

  /* half of it: only a crossing band takes it; drawn backwards too */
  HydRect half = { (b.x0 + b.x1) / 2, b.y1 + 5, b.x1 + 5, b.y0 - 5 };
  g_ptr_array_set_size (ids, 0);
  hyd_canvas_scene_items_in_rect (s, &half, FALSE, ids, wires);
  g_assert_cmpuint (ids->len, ==, 0);
  hyd_canvas_scene_items_in_rect (s, &half, TRUE, ids, wires);
  g_assert_cmpuint (ids->len, ==, 1);

  /* everything */
  HydRect big = { -1000, -1000, 2000, 2000 };
  g_ptr_array_set_size (ids, 0);
  g_array_set_size (wires, 0);
  hyd_canvas_scene_items_in_rect (s, &big, FALSE, ids, wires);
  g_assert_cmpuint (ids->len, ==, 2);
  g_assert_cmpuint (wires->len, ==, 1);
}

static void
test_check (void)
{
  HydSymbolLibrary *lib = library ();
  g_autoptr (HydCircuit) c = pose_circuit (&poses[0]);
  add_component (c, "G1", "pressure_gauge", 600, 100, 0, FALSE);
  add_component (c, "T1", "tank", 200, 400, 0, FALSE);
  add_wire (c, "RV1.T", "T1.T");
  add_wire (c, "J1", "X9.P");
  g_autoptr (HydCanvasScene) s = hyd_canvas_scene_new (c, lib);
  g_auto (GStrv) problems = hyd_canvas_scene_check (s);
  g_assert_nonnull (problems);
  /* the gauge's P is required; its signal output S is optional */
  g_assert_true (g_strv_contains ((const char *const *) problems, "G1.P"));
  g_assert_false (g_strv_contains ((const char *const *) problems, "G1.S"));
  g_assert_false (g_strv_contains ((const char *const *) problems, "RV1.T"));
  /* J1 has two wire ends, one of which names a missing component */
  g_assert_false (g_strv_contains ((const char *const *) problems, "J1"));
  g_assert_true (g_strv_contains ((const char *const *) problems, "X9.P"));
  /* the unconnected ports are the engine's (issue 10, item 4): the same
   * ports, in the same order, first in the list */
  g_autoptr (GPtrArray) unwired = hyd_circuit_unconnected_ports (c);
  g_assert_cmpuint (unwired->len, >, 0);
  for (guint i = 0; i < unwired->len; i++)
    {
      const HydDiagnostic *d = g_ptr_array_index (unwired, i);
      g_autofree char *ref = g_strconcat (d->component, ".", d->port, NULL);
      g_assert_nonnull (problems[i]);
      g_assert_cmpstr (problems[i], ==, ref);
    }

  g_autoptr (HydCircuit) ok = hyd_circuit_new ();
  add_component (ok, "T1", "tank", 0, 0, 0, FALSE);
  add_component (ok, "PS1", "pressure_source", 100, 0, 0, FALSE);
  add_wire (ok, "T1.T", "PS1.P");
  g_autoptr (HydCanvasScene) s2 = hyd_canvas_scene_new (ok, lib);
  g_auto (GStrv) none = hyd_canvas_scene_check (s2);
  g_assert_null (none);

  /* a junction with one wire is a wire that ends nowhere */
  g_autoptr (HydCircuit) dangling = hyd_circuit_new ();
  add_component (dangling, "T1", "tank", 0, 0, 0, FALSE);
  add_junction (dangling, "J1", 0, -100);
  add_wire (dangling, "T1.T", "J1");
  g_autoptr (HydCanvasScene) s3 = hyd_canvas_scene_new (dangling, lib);
  g_auto (GStrv) p3 = hyd_canvas_scene_check (s3);
  g_assert_true (g_strv_contains ((const char *const *) p3, "J1"));
}

static void
test_probe (void)
{
  HydSymbolLibrary *lib = library ();
  g_autoptr (HydCircuit) c = hyd_circuit_new ();
  add_component (c, "C1", "cylinder_double", 0, 0, 0, FALSE);
  add_component (c, "M1", "motor_fixed", 200, 0, 0, FALSE);
  add_component (c, "V1", "dcv_4_3", 400, 0, 0, FALSE);
  add_component (c, "RV1", "relief_valve", 600, 0, 0, FALSE);
  add_component (c, "T1", "tank", 800, 0, 0, FALSE);
  add_component (c, "P1", "fixed_pump", 900, 0, 0, FALSE);
  add_junction (c, "J1", 900, -100);
  add_wire (c, "P1.P", "J1");
  add_wire (c, "J1", "RV1.P");
  g_autoptr (HydCanvasScene) s = hyd_canvas_scene_new (c, lib);
  const struct {
    const char *id, *want;
  } cases[] = { { "C1", "C1.x" }, { "M1", "M1.w" }, { "V1", "V1.spool" }, { "RV1", "RV1.opening" },
                { "T1", "T1.T.p" } };
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autofree char *v = hyd_canvas_scene_probe_variable (s, cases[k].id);
      g_assert_cmpstr (v, ==, cases[k].want);
    }
  g_assert_null (hyd_canvas_scene_probe_variable (s, "nothing"));
  /* a wire from a junction reports a port of its net */
  g_autofree char *w = hyd_canvas_scene_probe_wire (s, 1);
  g_assert_cmpstr (w, ==, "RV1.P.p");
  g_assert_cmpint (hyd_canvas_scene_ref_domain (s, "J1"), ==, HYD_DOMAIN_HYDRAULIC);
  g_autofree char *p = hyd_canvas_scene_probe_port (s, "V1", "A");
  g_assert_cmpstr (p, ==, "V1.A.p");
}

/* Electrical parts (docs/electrical.md): a port has no pressure, so the
 * probe reports what the part does, its first discrete state, on its body,
 * its ports and its wires. */
static void
test_probe_electrical (void)
{
  HydSymbolLibrary *lib = library ();
  g_autoptr (HydCircuit) c = hyd_circuit_new ();
  add_component (c, "K1", "relay", 0, 0, 0, FALSE);
  add_component (c, "H1", "lamp", 200, 0, 0, FALSE);
  add_component (c, "K1_1", "relay_contact", 400, 0, 0, FALSE);
  add_wire (c, "K1_1.4", "H1.X1");
  g_autoptr (HydCanvasScene) s = hyd_canvas_scene_new (c, lib);
  g_autofree char *k1 = hyd_canvas_scene_probe_variable (s, "K1");
  g_assert_cmpstr (k1, ==, "K1.energised");
  g_autofree char *h1 = hyd_canvas_scene_probe_port (s, "H1", "X2");
  g_assert_cmpstr (h1, ==, "H1.lit");
  g_autofree char *w = hyd_canvas_scene_probe_wire (s, 0);
  g_assert_cmpstr (w, ==, "K1_1.actuated");
}

/* A library without the symbol: the part is a box at its position, its
 * wires meet there, and nothing crashes. */
static void
test_missing_symbol (void)
{
  g_autoptr (HydSymbolLibrary) empty = hyd_symbol_library_new ();
  g_autoptr (HydCircuit) c = hyd_circuit_new ();
  add_component (c, "RV1", "relief_valve", 100, 100, 90, TRUE);
  add_component (c, "X1", "no_such_type", 300, 100, 0, FALSE);
  add_wire (c, "RV1.P", "X1.A");
  g_autoptr (HydCanvasScene) s = hyd_canvas_scene_new (c, empty);
  HydCanvasHit hit;
  g_assert_cmpint (hyd_canvas_scene_hit (s, 105, 110, 1.0, HYD_CANVAS_HIT_ALL, &hit), ==, HYD_CANVAS_HIT_COMPONENT);
  g_assert_cmpstr (hit.id, ==, "RV1");
  g_assert_cmpint (hyd_canvas_scene_hit (s, 300, 100, 1.0, HYD_CANVAS_HIT_ALL, &hit), ==, HYD_CANVAS_HIT_COMPONENT);
  g_assert_cmpstr (hit.id, ==, "X1");
  const HydCanvasSceneWire *w = hyd_canvas_scene_get_wire (s, 0);
  g_assert_nonnull (w->points);
  g_assert_cmpint (hyd_canvas_scene_hit (s, 200, 100, 1.0, HYD_CANVAS_HIT_ALL, &hit), ==, HYD_CANVAS_HIT_WIRE);
  g_auto (GStrv) problems = hyd_canvas_scene_check (s);
  g_assert_nonnull (problems);
  g_autofree char *probe = hyd_canvas_scene_probe_variable (s, "X1");
  g_assert_null (probe);

  /* an empty circuit */
  g_autoptr (HydCircuit) nothing = hyd_circuit_new ();
  g_autoptr (HydCanvasScene) s2 = hyd_canvas_scene_new (nothing, NULL);
  HydRect b;
  g_assert_false (hyd_canvas_scene_get_bounds (s2, &b));
  g_assert_cmpint (hyd_canvas_scene_hit (s2, 0, 0, 1.0, HYD_CANVAS_HIT_ALL, NULL), ==, HYD_CANVAS_HIT_NONE);
  g_assert_null (hyd_canvas_scene_check (s2));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/canvas/hit/ports-8-poses", test_ports);
  g_test_add_func ("/canvas/hit/bodies-8-poses", test_bodies);
  g_test_add_func ("/canvas/hit/wires-junctions-8-poses", test_wires_and_junctions);
  g_test_add_func ("/canvas/hit/rubber-band", test_rubber_band);
  g_test_add_func ("/canvas/hit/check", test_check);
  g_test_add_func ("/canvas/hit/probe", test_probe);
  g_test_add_func ("/canvas/hit/probe-electrical", test_probe_electrical);
  g_test_add_func ("/canvas/hit/missing-symbol", test_missing_symbol);
  return g_test_run ();
}
