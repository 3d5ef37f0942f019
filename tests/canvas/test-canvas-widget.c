/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-canvas-widget.c — HydCanvas in a real window: actions, placing,
 * wiring, moving, rubber bands, keys, the clipboard, live lock, probes,
 * checks. Pointer input goes through the entry points the widget's
 * gestures call (hyd-canvas-private.h); the xdotool session in
 * tests/canvas/README.md drives the gestures themselves. Skips (77)
 * without a display. */
#include <math.h>
#include <string.h>

#include "hyd-canvas-private.h"
#include "hyd-canvas-scene.h"

typedef struct {
  GtkWidget *window;
  HydCanvas *canvas;
  HydDocument *doc;
} Fixture;

static void
iterate (void)
{
  for (int k = 0; k < 50 && g_main_context_pending (NULL); k++)
    g_main_context_iteration (NULL, FALSE);
}

static void
wait_allocated (GtkWidget *w)
{
  gint64 until = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (gtk_widget_get_width (w) <= 0 && g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (gtk_widget_get_width (w), >, 0);
  iterate ();
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->doc = hyd_document_new ();
  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 800, 600);
  f->canvas = HYD_CANVAS (hyd_canvas_new ());
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->canvas));
  hyd_canvas_set_document (f->canvas, f->doc);
  gtk_window_present (GTK_WINDOW (f->window));
  wait_allocated (GTK_WIDGET (f->canvas));
  /* a known view: 100 %, canvas origin at the top left */
  hyd_canvas_set_zoom (f->canvas, 1.0);
  HydCanvasView *v = _hyd_canvas_get_view (f->canvas);
  v->ox = 0;
  v->oy = 0;
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  iterate ();
  g_object_unref (f->doc);
}

static const HydCircuitComponent *
component (Fixture *f, const char *id)
{
  return hyd_circuit_find_component (hyd_document_get_circuit (f->doc), id);
}

static void
click (Fixture *f, double x, double y, GdkModifierType state)
{
  double wx, wy;
  hyd_canvas_doc_to_widget (f->canvas, x, y, &wx, &wy);
  _hyd_canvas_pointer_motion (f->canvas, wx, wy, state);
  _hyd_canvas_pointer_press (f->canvas, wx, wy, GDK_BUTTON_PRIMARY, state);
  _hyd_canvas_pointer_release (f->canvas, wx, wy, GDK_BUTTON_PRIMARY, state);
}

static void
drag (Fixture *f, double x0, double y0, double x1, double y1)
{
  double wx0, wy0, wx1, wy1;
  hyd_canvas_doc_to_widget (f->canvas, x0, y0, &wx0, &wy0);
  hyd_canvas_doc_to_widget (f->canvas, x1, y1, &wx1, &wy1);
  _hyd_canvas_pointer_motion (f->canvas, wx0, wy0, 0);
  _hyd_canvas_pointer_press (f->canvas, wx0, wy0, GDK_BUTTON_PRIMARY, 0);
  for (int k = 1; k <= 10; k++)
    _hyd_canvas_pointer_motion (f->canvas, wx0 + (wx1 - wx0) * k / 10, wy0 + (wy1 - wy0) * k / 10, 0);
  _hyd_canvas_pointer_release (f->canvas, wx1, wy1, GDK_BUTTON_PRIMARY, 0);
}

static void
port_position (Fixture *f, const char *ref, double *x, double *y)
{
  g_autoptr (HydCanvasScene) s = hyd_canvas_scene_new (hyd_document_get_circuit (f->doc),
                                                       hyd_symbol_library_get_default (NULL));
  HydDirection d;
  gboolean has;
  g_assert_true (hyd_canvas_scene_endpoint (s, ref, x, y, &d, &has));
}

static void
render (Fixture *f)
{
  /* the widget's own snapshot, as GTK calls it */
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GTK_WIDGET_GET_CLASS (f->canvas)->snapshot (GTK_WIDGET (f->canvas), snapshot);
  GskRenderNode *node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  gsk_render_node_unref (node);
}

static void
test_rotate_action (Fixture *f, gconstpointer data)
{
  g_autofree char *id = hyd_document_add_component (f->doc, "dcv_4_3", 100, 100);
  const char *ids[] = { id, NULL };
  hyd_canvas_set_selection (f->canvas, ids);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.rotate", NULL));
  g_assert_cmpint (component (f, id)->rotation, ==, 90);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.rotate-ccw", NULL);
  g_assert_cmpint (component (f, id)->rotation, ==, 0);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.mirror", NULL);
  g_assert_true (component (f, id)->mirror);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.undo", NULL);
  g_assert_false (component (f, id)->mirror);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.redo", NULL);
  g_assert_true (component (f, id)->mirror);
  g_auto (GStrv) sel = hyd_canvas_get_selection (f->canvas);
  g_assert_cmpstrv (sel, ids);
  render (f);
}

static void
test_place_click (Fixture *f, gconstpointer data)
{
  hyd_canvas_begin_place (f->canvas, "relief_valve");
  /* R turns the part before it goes down */
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.rotate", NULL);
  click (f, 303, 198, 0);
  const HydCircuitComponent *rv = component (f, "RV1");
  g_assert_nonnull (rv);
  g_assert_cmpint (rv->rotation, ==, 90);
  /* on the grid, its symbol centred on the click */
  g_assert_cmpfloat (fmod (rv->x, 10), ==, 0);
  g_assert_cmpfloat (fmod (rv->y, 10), ==, 0);
  g_autoptr (HydCanvasScene) s = hyd_canvas_scene_new (hyd_document_get_circuit (f->doc),
                                                       hyd_symbol_library_get_default (NULL));
  const HydCanvasSceneComponent *c = hyd_canvas_scene_find_component (s, "RV1");
  g_assert_cmpfloat (fabs ((c->bounds.x0 + c->bounds.x1) / 2 - 300), <=, 10);
  g_assert_cmpfloat (fabs ((c->bounds.y0 + c->bounds.y1) / 2 - 200), <=, 10);
  g_auto (GStrv) sel = hyd_canvas_get_selection (f->canvas);
  g_assert_cmpstr (sel[0], ==, "RV1");
  /* the tool is spent: another click selects nothing new */
  click (f, 600, 400, 0);
  g_assert_cmpuint (hyd_document_get_circuit (f->doc)->components->len, ==, 1);

  /* Escape cancels an armed place tool */
  hyd_canvas_begin_place (f->canvas, "tank");
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.cancel", NULL);
  click (f, 500, 300, 0);
  g_assert_cmpuint (hyd_document_get_circuit (f->doc)->components->len, ==, 1);

  /* Shift keeps placing; the pose is remembered per type */
  hyd_canvas_begin_place (f->canvas, "relief_valve");
  click (f, 100, 400, GDK_SHIFT_MASK);
  click (f, 200, 400, 0);
  g_assert_cmpint (component (f, "RV2")->rotation, ==, 90);
  g_assert_cmpint (component (f, "RV3")->rotation, ==, 90);

  /* a drop from the palette */
  g_assert_true (_hyd_canvas_drop (f->canvas, "tank", 400, 500));
  g_assert_nonnull (component (f, "T1"));
  g_assert_false (_hyd_canvas_drop (f->canvas, "no_such_type", 400, 500));
  hyd_canvas_begin_place (f->canvas, "no_such_type");
  render (f);
}

static void
test_wire_by_drag_and_clicks (Fixture *f, gconstpointer data)
{
  g_autofree char *p = hyd_document_add_component (f->doc, "fixed_pump", 200, 400);
  g_autofree char *v = hyd_document_add_component (f->doc, "dcv_4_3", 100, 100);
  g_autofree char *t = hyd_document_add_component (f->doc, "tank", 400, 500);
  double px, py, vx, vy, tx, ty;
  port_position (f, "P1.P", &px, &py);
  port_position (f, "V1.P", &vx, &vy);
  port_position (f, "T1.T", &tx, &ty);

  /* drag out of the pump's P onto the valve's P */
  drag (f, px, py, vx, vy);
  const HydCircuit *c = hyd_document_get_circuit (f->doc);
  g_assert_cmpuint (c->connections->len, ==, 1);
  HydCircuitConnection *w = g_ptr_array_index (c->connections, 0);
  g_assert_cmpstr (w->from, ==, "P1.P");
  g_assert_cmpstr (w->to, ==, "V1.P");
  render (f);

  /* the wire tool: click the valve's T, a bend, then the tank */
  hyd_canvas_set_tool (f->canvas, HYD_CANVAS_TOOL_WIRE);
  double sx, sy;
  port_position (f, "V1.T", &sx, &sy);
  click (f, sx, sy, 0);
  click (f, sx, sy + 60, 0);
  click (f, tx + 70, sy + 60, 0);
  render (f);
  click (f, tx, ty, 0);
  g_assert_cmpuint (c->connections->len, ==, 2);
  w = g_ptr_array_index (c->connections, 1);
  g_assert_cmpstr (w->from, ==, "V1.T");
  g_assert_cmpstr (w->to, ==, "T1.T");
  g_assert_nonnull (w->route);

  /* Escape while drawing: nothing is left behind */
  port_position (f, "V1.A", &sx, &sy);
  click (f, sx, sy, 0);
  click (f, sx, sy - 50, 0);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.cancel", NULL);
  g_assert_cmpuint (c->connections->len, ==, 2);

  /* ending on a wire makes a junction */
  port_position (f, "V1.B", &sx, &sy);
  click (f, sx, sy, 0);
  double mx = px, my = (py + vy) / 2;
  g_autoptr (HydCanvasScene) s = hyd_canvas_scene_new (c, hyd_symbol_library_get_default (NULL));
  const HydCanvasSceneWire *w0 = hyd_canvas_scene_get_wire (s, 0);
  const double *pts = (const double *) w0->points->data;
  /* the middle of the first wire's longest vertical segment */
  for (guint k = 0; k + 1 < w0->points->len / 2; k++)
    if (pts[2 * k] == pts[2 * k + 2] && fabs (pts[2 * k + 3] - pts[2 * k + 1]) >= 40)
      {
        mx = pts[2 * k];
        my = hyd_canvas_snap ((pts[2 * k + 1] + pts[2 * k + 3]) / 2);
      }
  click (f, mx, my, 0);
  g_assert_cmpuint (c->junctions->len, ==, 1);
  g_assert_cmpuint (c->connections->len, ==, 4);
  g_auto (GStrv) problems = hyd_canvas_check (f->canvas);
  g_assert_true (g_strv_contains ((const char *const *) problems, "V1.A"));
  g_assert_false (g_strv_contains ((const char *const *) problems, "V1.B"));
  hyd_canvas_set_highlight (f->canvas, (const char *const *) problems);
  render (f);
  /* one undo takes the junction and the new wire away */
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.undo", NULL);
  g_assert_cmpuint (c->junctions->len, ==, 0);
  g_assert_cmpuint (c->connections->len, ==, 2);
}

/* The centre of a component's drawing, off its ports. */
static void
body_centre (Fixture *f, const char *id, double *x, double *y)
{
  g_autoptr (HydCanvasScene) s = hyd_canvas_scene_new (hyd_document_get_circuit (f->doc),
                                                       hyd_symbol_library_get_default (NULL));
  const HydCanvasSceneComponent *c = hyd_canvas_scene_find_component (s, id);
  g_assert_nonnull (c);
  *x = (c->bounds.x0 + c->bounds.x1) / 2;
  *y = (c->bounds.y0 + c->bounds.y1) / 2;
}

/* A wire released on a symbol's body, not on its port (the near miss of a
 * student), ends on the symbol's free port of its domain nearest to the
 * pointer; not on the symbol it starts from, and not on a port that has a
 * wire: there the release is a bend, as before. */
static void
test_wire_onto_body (Fixture *f, gconstpointer data)
{
  g_autofree char *p = hyd_document_add_component (f->doc, "fixed_pump", 200, 400);
  g_autofree char *o = hyd_document_add_component (f->doc, "orifice", 400, 200);
  g_autofree char *t = hyd_document_add_component (f->doc, "tank", 600, 400);
  const HydCircuit *c = hyd_document_get_circuit (f->doc);
  double px, py, ox, oy, tx, ty, bx, by;
  port_position (f, "P1.P", &px, &py);
  port_position (f, "OR1.A", &ox, &oy);

  /* onto the orifice's body, nearer its A than its B */
  body_centre (f, "OR1", &bx, &by);
  g_assert_true (hypot (ox - (bx - 4), oy - by) < hypot (ox - bx, oy - by) + 1e-9);
  drag (f, px, py, bx - 4, by);
  g_assert_cmpuint (c->connections->len, ==, 1);
  HydCircuitConnection *w = g_ptr_array_index (c->connections, 0);
  g_assert_cmpstr (w->from, ==, "P1.P");
  g_assert_cmpstr (w->to, ==, "OR1.A");

  /* from OR1.B onto the tank's body: its one port */
  port_position (f, "OR1.B", &ox, &oy);
  body_centre (f, "T1", &tx, &ty);
  drag (f, ox, oy, tx, ty);
  g_assert_cmpuint (c->connections->len, ==, 2);
  w = g_ptr_array_index (c->connections, 1);
  g_assert_cmpstr (w->from, ==, "OR1.B");
  g_assert_cmpstr (w->to, ==, "T1.T");

  /* from the pump's inlet onto the tank's body: its port has a wire, so
   * the release is a bend and the wire is still being drawn */
  port_position (f, "P1.T", &px, &py);
  drag (f, px, py, tx, ty);
  g_assert_cmpuint (c->connections->len, ==, 2);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.cancel", NULL);
  /* onto the pump's own body: no wire from a symbol to itself */
  body_centre (f, "P1", &bx, &by);
  drag (f, px, py, bx, by);
  g_assert_cmpuint (c->connections->len, ==, 2);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.cancel", NULL);
  render (f);
}

static void
test_move_and_band (Fixture *f, gconstpointer data)
{
  g_autofree char *t = hyd_document_add_component (f->doc, "tank", 200, 300);
  g_autofree char *r = hyd_document_add_component (f->doc, "relief_valve", 180, 100);
  GError *error = NULL;
  hyd_document_add_connection (f->doc, "RV1.T", "T1.T", NULL, 0, &error);
  g_assert_no_error (error);
  g_autofree char *before = hyd_document_to_data (f->doc);

  /* drag the tank by its body: snapped, one command */
  drag (f, 200, 325, 247, 378);
  const HydCircuitComponent *tank = component (f, "T1");
  g_assert_cmpfloat (tank->x, ==, 250);
  g_assert_cmpfloat (tank->y, ==, 350);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.undo", NULL);
  g_autofree char *undone = hyd_document_to_data (f->doc);
  g_assert_cmpstr (undone, ==, before);

  /* a rubber band around both, then the arrow keys */
  drag (f, 100, 40, 400, 420);
  g_auto (GStrv) sel = hyd_canvas_get_selection (f->canvas);
  g_assert_cmpuint (g_strv_length (sel), ==, 2);
  guint nw = 0;
  g_autofree guint *wires = hyd_canvas_get_selected_wires (f->canvas, &nw);
  g_assert_cmpuint (nw, ==, 1);
  g_assert_true (_hyd_canvas_key (f->canvas, GDK_KEY_Right, 0, TRUE));
  g_assert_cmpfloat (component (f, "T1")->x, ==, 210);
  g_assert_true (_hyd_canvas_key (f->canvas, GDK_KEY_Down, GDK_SHIFT_MASK, TRUE));
  g_assert_cmpfloat (component (f, "RV1")->y, ==, 200);

  /* a click on empty space clears; on the wire selects the wire */
  click (f, 700, 50, 0);
  g_auto (GStrv) none = hyd_canvas_get_selection (f->canvas);
  g_assert_cmpuint (g_strv_length (none), ==, 0);
  double x0, y0, x1, y1;
  port_position (f, "RV1.T", &x0, &y0);
  port_position (f, "T1.T", &x1, &y1);
  g_autoptr (HydCanvasScene) s = hyd_canvas_scene_new (hyd_document_get_circuit (f->doc),
                                                       hyd_symbol_library_get_default (NULL));
  const HydCanvasSceneWire *w = hyd_canvas_scene_get_wire (s, 0);
  const double *p = (const double *) w->points->data;
  click (f, (p[0] + p[2]) / 2, (p[1] + p[3]) / 2, 0);
  g_free (wires);
  wires = hyd_canvas_get_selected_wires (f->canvas, &nw);
  g_assert_cmpuint (nw, ==, 1);
  /* Delete removes the selected wire */
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.delete", NULL);
  g_assert_cmpuint (hyd_document_get_circuit (f->doc)->connections->len, ==, 0);
  render (f);
}

static void
on_changed (HydDocument *doc, gboolean *flag)
{
  *flag = TRUE;
}

static void
test_clipboard_and_duplicate (Fixture *f, gconstpointer data)
{
  g_autofree char *t = hyd_document_add_component (f->doc, "tank", 200, 300);
  const char *ids[] = { "T1", NULL };
  hyd_canvas_set_selection (f->canvas, ids);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.duplicate", NULL);
  const HydCircuitComponent *copy = component (f, "T2");
  g_assert_nonnull (copy);
  g_assert_cmpfloat (copy->x, ==, 220);
  g_assert_cmpfloat (copy->y, ==, 320);
  g_auto (GStrv) sel = hyd_canvas_get_selection (f->canvas);
  g_assert_cmpstr (sel[0], ==, "T2");

  /* through the clipboard */
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.copy", NULL);
  gboolean changed = FALSE;
  gulong id = g_signal_connect (f->doc, "changed", G_CALLBACK (on_changed), &changed);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.paste", NULL);
  gint64 until = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (!changed && g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (f->doc, id);
  g_assert_true (changed);
  g_assert_nonnull (component (f, "T3"));

  /* cut */
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.cut", NULL);
  g_assert_null (component (f, "T3"));
  /* select all takes everything */
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.select-all", NULL);
  g_auto (GStrv) all = hyd_canvas_get_selection (f->canvas);
  g_assert_cmpuint (g_strv_length (all), ==, 2);
}

static double
fake_pressure (const char *component_id, const char *port, gpointer user_data)
{
  return 5e6;
}

static gboolean
fake_variable (const char *component_id, const char *variable, double *value, gpointer user_data)
{
  if (strcmp (variable, "x") != 0)
    return FALSE;
  *value = 0.3;
  return TRUE;
}

static void
test_live_locks_editing (Fixture *f, gconstpointer data)
{
  g_autofree char *c = hyd_document_add_component (f->doc, "cylinder_double", 100, 100);
  g_autofree char *v = hyd_document_add_component (f->doc, "dcv_4_3", 100, 300);
  const char *ids[] = { "C1", NULL };
  hyd_canvas_set_selection (f->canvas, ids);
  g_autofree char *before = hyd_document_to_data (f->doc);
  hyd_canvas_set_live (f->canvas, fake_pressure, fake_variable, NULL, NULL);
  render (f);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.rotate", NULL);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.delete", NULL);
  _hyd_canvas_key (f->canvas, GDK_KEY_Left, 0, TRUE);
  drag (f, 150, 120, 300, 200);
  hyd_canvas_begin_place (f->canvas, "tank");
  click (f, 500, 500, 0);
  g_assert_false (_hyd_canvas_drop (f->canvas, "tank", 400, 400));
  g_autofree char *after = hyd_document_to_data (f->doc);
  g_assert_cmpstr (after, ==, before);
  hyd_canvas_queue_live_redraw (f->canvas);
  render (f);
  hyd_canvas_clear_live (f->canvas);
  hyd_canvas_set_selection (f->canvas, ids);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.rotate", NULL);
  g_assert_cmpint (component (f, "C1")->rotation, ==, 90);
}

static void
on_probe (HydCanvas *canvas, const char *variable, char **out)
{
  g_free (*out);
  *out = g_strdup (variable);
}

static void
test_probe_and_activate (Fixture *f, gconstpointer data)
{
  g_autofree char *c = hyd_document_add_component (f->doc, "cylinder_double", 100, 100);
  g_autofree char *probed = NULL;
  g_signal_connect (f->canvas, "probe", G_CALLBACK (on_probe), &probed);
  g_signal_connect (f->canvas, "component-activated", G_CALLBACK (on_probe), &probed);
  hyd_canvas_set_tool (f->canvas, HYD_CANVAS_TOOL_PROBE);
  g_assert_cmpint (hyd_canvas_get_tool (f->canvas), ==, HYD_CANVAS_TOOL_PROBE);
  click (f, 150, 102, 0);
  g_assert_cmpstr (probed, ==, "C1.x");
  double ax, ay;
  port_position (f, "C1.A", &ax, &ay);
  click (f, ax, ay, 0);
  g_assert_cmpstr (probed, ==, "C1.A.p");
  hyd_canvas_set_tool (f->canvas, HYD_CANVAS_TOOL_SELECT);
  g_clear_pointer (&probed, g_free);
  click (f, 150, 102, 0);
  click (f, 150, 102, 0);
  g_assert_cmpstr (probed, ==, "C1");
}

static void
test_view (Fixture *f, gconstpointer data)
{
  /* an empty document draws; so does none */
  render (f);
  hyd_canvas_set_document (f->canvas, NULL);
  render (f);
  click (f, 10, 10, 0);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.select-all", NULL);
  g_assert_null (hyd_canvas_check (f->canvas));

  g_autofree char *path = g_build_filename (HYD_TEST_DATA_DIR, "examples", "meter-in-meter-out.bramah", NULL);
  GError *error = NULL;
  g_autoptr (HydDocument) doc = hyd_document_new_from_file (path, &error);
  g_assert_no_error (error);
  hyd_canvas_set_document (f->canvas, doc);
  iterate ();
  /* fitted and centred: the circuit's middle is the window's */
  double zoom = hyd_canvas_get_zoom (f->canvas);
  g_assert_cmpfloat (zoom, >, 0.3);
  g_assert_cmpfloat (zoom, <=, 2.0);
  const HydCircuitComponent *c1 = hyd_circuit_find_component (hyd_document_get_circuit (doc), "C1");
  double wx, wy;
  hyd_canvas_doc_to_widget (f->canvas, c1->x, c1->y, &wx, &wy);
  g_assert_cmpfloat (wx, >, 0);
  g_assert_cmpfloat (wx, <, 800);
  g_assert_cmpfloat (wy, >, 0);
  g_assert_cmpfloat (wy, <, 600);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.zoom-in", NULL);
  g_assert_cmpfloat_with_epsilon (hyd_canvas_get_zoom (f->canvas), zoom * 1.25, 1e-9);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.zoom-out", NULL);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.zoom-out", NULL);
  g_assert_cmpfloat_with_epsilon (hyd_canvas_get_zoom (f->canvas), zoom / 1.25, 1e-9);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.zoom-fit", NULL);
  g_assert_cmpfloat_with_epsilon (hyd_canvas_get_zoom (f->canvas), zoom, 1e-9);
  /* the transform is invertible */
  double x, y;
  hyd_canvas_widget_to_doc (f->canvas, 123, 45, &x, &y);
  hyd_canvas_doc_to_widget (f->canvas, x, y, &wx, &wy);
  g_assert_cmpfloat_with_epsilon (wx, 123, 1e-9);
  g_assert_cmpfloat_with_epsilon (wy, 45, 1e-9);
  /* labels and the theme */
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.toggle-labels", NULL);
  g_assert_false (hyd_canvas_get_show_labels (f->canvas));
  hyd_canvas_set_dark (f->canvas, TRUE);
  g_assert_true (hyd_canvas_get_dark (f->canvas));
  render (f);
  /* the middle button pans */
  double ox = _hyd_canvas_get_view (f->canvas)->ox;
  _hyd_canvas_pointer_press (f->canvas, 400, 300, GDK_BUTTON_MIDDLE, 0);
  _hyd_canvas_pointer_motion (f->canvas, 350, 300, 0);
  _hyd_canvas_pointer_release (f->canvas, 350, 300, GDK_BUTTON_MIDDLE, 0);
  g_assert_cmpfloat_with_epsilon (_hyd_canvas_get_view (f->canvas)->ox, ox + 50 / hyd_canvas_get_zoom (f->canvas),
                                  1e-6);
  /* Space + drag pans too, without selecting */
  _hyd_canvas_key (f->canvas, GDK_KEY_space, 0, TRUE);
  _hyd_canvas_pointer_press (f->canvas, 400, 300, GDK_BUTTON_PRIMARY, 0);
  _hyd_canvas_pointer_motion (f->canvas, 400, 250, 0);
  _hyd_canvas_pointer_release (f->canvas, 400, 250, GDK_BUTTON_PRIMARY, 0);
  _hyd_canvas_key (f->canvas, GDK_KEY_space, 0, FALSE);
  g_auto (GStrv) sel = hyd_canvas_get_selection (f->canvas);
  g_assert_cmpuint (g_strv_length (sel), ==, 0);
  hyd_canvas_set_document (f->canvas, f->doc);
}

static guint32
surface_pixel (cairo_surface_t *s, int x, int y)
{
  cairo_surface_flush (s);
  return *(const guint32 *) (cairo_image_surface_get_data (s) + y * cairo_image_surface_get_stride (s) + 4 * x);
}

/* The wire being drawn is drawn as it will be (design §1.3): out of a
 * mechanical port a double line (two lines with the fill between them),
 * out of a signal output a dashed line whose free end is an arrowhead. */
static void
test_wire_preview_style (Fixture *f, gconstpointer data)
{
  g_autofree char *k = hyd_document_add_component (f->doc, "spring", 200, 200);
  g_autofree char *g = hyd_document_add_component (f->doc, "pressure_gauge", 200, 400);
  double bx, by;
  port_position (f, "K1.B", &bx, &by);
  hyd_canvas_set_tool (f->canvas, HYD_CANVAS_TOOL_WIRE);
  click (f, bx, by, 0);
  double wx, wy;
  hyd_canvas_doc_to_widget (f->canvas, bx + 100, by, &wx, &wy);
  _hyd_canvas_pointer_motion (f->canvas, wx, wy, 0);
  HydCanvasOverlay o;
  _hyd_canvas_fill_overlay (f->canvas, &o);
  g_assert_nonnull (o.wire);
  g_assert_cmpint (o.wire_domain, ==, HYD_DOMAIN_TRANSLATIONAL);
  g_assert_cmpint (o.wire_arrow, ==, 0);

  int w = gtk_widget_get_width (GTK_WIDGET (f->canvas)), h = gtk_widget_get_height (GTK_WIDGET (f->canvas));
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  _hyd_canvas_draw_overlay (f->canvas, cr);
  cairo_destroy (cr);
  /* at 100 %: the lines 4 px either side of the axis, opaque; the middle
   * another colour (the fill) */
  int x = (int) (bx + 50), y = (int) by;
  guint32 mid = surface_pixel (s, x, y);
  g_assert_cmpuint (mid >> 24, ==, 0xff);
  for (int side = -1; side <= 1; side += 2)
    {
      gboolean line = FALSE;
      for (int d = 2; d <= 6; d++)
        {
          guint32 v = surface_pixel (s, x, y + side * d);
          int diff = ABS ((int) (v & 0xff) - (int) (mid & 0xff));
          line |= (v >> 24) >= 0xcc && diff > 100;
        }
      g_assert_true (line);
    }
  cairo_surface_destroy (s);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.cancel", NULL);

  /* from the gauge's signal output: the arrowhead at the free end */
  double sx, sy;
  port_position (f, "G1.S", &sx, &sy);
  hyd_canvas_set_tool (f->canvas, HYD_CANVAS_TOOL_WIRE);
  click (f, sx, sy, 0);
  hyd_canvas_doc_to_widget (f->canvas, sx + 100, sy, &wx, &wy);
  _hyd_canvas_pointer_motion (f->canvas, wx, wy, 0);
  _hyd_canvas_fill_overlay (f->canvas, &o);
  g_assert_nonnull (o.wire);
  g_assert_cmpint (o.wire_domain, ==, HYD_DOMAIN_SIGNAL);
  g_assert_cmpint (o.wire_arrow, ==, 1);
  s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cr = cairo_create (s);
  _hyd_canvas_draw_overlay (f->canvas, cr);
  cairo_destroy (cr);
  /* 9 px behind the tip, 1 to 2 px off the axis: inside the arrowhead
   * (0.5 M wide at its base, 1 M long), not on the thin dashed line (only
   * the faint halo there) */
  g_assert_cmpuint (surface_pixel (s, (int) (sx + 91), (int) sy + 1) >> 24, >, 200);
  g_assert_cmpuint (surface_pixel (s, (int) (sx + 50), (int) sy + 1) >> 24, <, 100);
  cairo_surface_destroy (s);
  gtk_widget_activate_action (GTK_WIDGET (f->canvas), "canvas.cancel", NULL);
  render (f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* no accessibility bus in a virtual X server */
  g_setenv ("GTK_A11Y", "none", FALSE);
  if (!gtk_init_check ())
    {
      g_printerr ("no display: skipped\n");
      return 77;
    }
  g_test_add ("/canvas/widget/rotate-action", Fixture, NULL, fixture_setup, test_rotate_action, fixture_teardown);
  g_test_add ("/canvas/widget/place", Fixture, NULL, fixture_setup, test_place_click, fixture_teardown);
  g_test_add ("/canvas/widget/wire", Fixture, NULL, fixture_setup, test_wire_by_drag_and_clicks, fixture_teardown);
  g_test_add ("/canvas/widget/wire-onto-body", Fixture, NULL, fixture_setup, test_wire_onto_body, fixture_teardown);
  g_test_add ("/canvas/widget/wire-preview-style", Fixture, NULL, fixture_setup, test_wire_preview_style,
              fixture_teardown);
  g_test_add ("/canvas/widget/move-band-keys", Fixture, NULL, fixture_setup, test_move_and_band, fixture_teardown);
  g_test_add ("/canvas/widget/clipboard", Fixture, NULL, fixture_setup, test_clipboard_and_duplicate,
              fixture_teardown);
  g_test_add ("/canvas/widget/live-lock", Fixture, NULL, fixture_setup, test_live_locks_editing, fixture_teardown);
  g_test_add ("/canvas/widget/probe-activate", Fixture, NULL, fixture_setup, test_probe_and_activate,
              fixture_teardown);
  g_test_add ("/canvas/widget/view", Fixture, NULL, fixture_setup, test_view, fixture_teardown);
  return g_test_run ();
}
