/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-canvas-input.c — what the pointer and the keys do on the canvas:
 * hover, drawing wires, dragging the selection (shown live on a scratch
 * copy of the document), rubber bands, panning, zooming, the probe, drops
 * from the palette and tooltips. Every edit goes through hyd-canvas-edit.c. */
#include "hyd-canvas-private.h"
#include "hyd-canvas-edit.h"
#include "hyd-canvas-route.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Wires
 * ------------------------------------------------------------------------- */

static void
wire_clear (HydCanvas *self)
{
  g_array_set_size (self->wire_vertices, 0);
  g_array_set_size (self->wire_preview, 0);
  g_clear_pointer (&self->wire_start_ref, g_free);
  self->wire_toggled = FALSE;
  self->wire_moved = FALSE;
}

/* Snap a point on a wire's segment to the grid along the segment, keeping
 * it on the segment and off the wire's ends. */
static void
wire_point (HydCanvas *self, const HydCanvasHit *h, double *x, double *y)
{
  const HydCanvasSceneWire *w = hyd_canvas_scene_get_wire (self->scene, h->wire);
  const double *p = (const double *) w->points->data;
  guint n = w->points->len / 2;
  double ax = p[2 * h->segment], ay = p[2 * h->segment + 1], bx = p[2 * h->segment + 2], by = p[2 * h->segment + 3];
  *x = h->x;
  *y = h->y;
  gboolean horizontal = fabs (ay - by) < 1e-9;
  double lo = horizontal ? MIN (ax, bx) : MIN (ay, by), hi = horizontal ? MAX (ax, bx) : MAX (ay, by);
  double v = hyd_canvas_snap (horizontal ? *x : *y);
  if (v < lo || v > hi)
    v = horizontal ? *x : *y;
  /* not on a port at the wire's end */
  gboolean at_start = h->segment == 0 && fabs (v - (horizontal ? ax : ay)) < 1e-6;
  gboolean at_end = h->segment + 2 == n && fabs (v - (horizontal ? bx : by)) < 1e-6;
  if ((at_start || at_end) && hi - lo >= 2 * HYD_CANVAS_GRID)
    v += (at_start == ((horizontal ? ax : ay) < (horizontal ? bx : by))) ? HYD_CANVAS_GRID : -HYD_CANVAS_GRID;
  /* ending a wire: close to straight across from its last bend (or its
   * port) is straight across, so it meets the line without a jog */
  guint nv = self->wire_vertices->len / 2;
  if (self->mode == MODE_WIRE && nv >= 1)
    {
      const double *last = (const double *) self->wire_vertices->data + 2 * (nv - 1);
      double along = horizontal ? last[0] : last[1];
      if (along > lo && along < hi && fabs (along - v) <= 2 * HYD_CANVAS_GRID)
        v = along;
    }
  if (horizontal)
    {
      *x = v;
      *y = ay;
    }
  else
    {
      *x = ax;
      *y = v;
    }
}

static gboolean
wire_begin (HydCanvas *self, const HydCanvasHit *h)
{
  double x = h->x, y = h->y;
  wire_clear (self);
  self->wire_has_dir = FALSE;
  switch (h->kind)
    {
    case HYD_CANVAS_HIT_PORT:
      self->wire_start_ref = g_strdup_printf ("%s.%s", h->id, h->port);
      self->wire_has_dir = TRUE;
      self->wire_dir = h->dir;
      self->wire_domain = hyd_canvas_scene_ref_domain (self->scene, self->wire_start_ref);
      break;
    case HYD_CANVAS_HIT_JUNCTION:
      self->wire_start_ref = g_strdup (h->id);
      self->wire_domain = hyd_canvas_scene_ref_domain (self->scene, h->id);
      break;
    case HYD_CANVAS_HIT_WIRE:
      wire_point (self, h, &x, &y);
      self->wire_start_wire = h->wire;
      self->wire_domain = hyd_canvas_scene_wire_domain (self->scene, h->wire);
      break;
    default:
      return FALSE;
    }
  g_array_append_val (self->wire_vertices, x);
  g_array_append_val (self->wire_vertices, y);
  g_array_append_vals (self->wire_preview, self->wire_vertices->data, 2);
  self->mode = MODE_WIRE;
  _hyd_canvas_update_hover (self);
  return TRUE;
}

/* Can the wire end on what the pointer is over? */
static gboolean
wire_target_ok (HydCanvas *self, const HydCanvasHit *h)
{
  if (h->kind == HYD_CANVAS_HIT_PORT)
    {
      g_autofree char *ref = g_strdup_printf ("%s.%s", h->id, h->port);
      if (g_strcmp0 (ref, self->wire_start_ref) == 0)
        return FALSE;
      int dom = hyd_canvas_scene_port_domain (self->scene, hyd_canvas_scene_find_component (self->scene, h->id),
                                              h->port);
      return !(dom >= 0 && self->wire_domain >= 0 && dom != self->wire_domain);
    }
  if (h->kind == HYD_CANVAS_HIT_JUNCTION)
    {
      if (g_strcmp0 (h->id, self->wire_start_ref) == 0)
        return FALSE;
      int dom = hyd_canvas_scene_ref_domain (self->scene, h->id);
      return !(dom >= 0 && self->wire_domain >= 0 && dom != self->wire_domain);
    }
  if (h->kind == HYD_CANVAS_HIT_WIRE)
    {
      const double *v = (const double *) self->wire_vertices->data;
      double x, y;
      wire_point (self, h, &x, &y);
      if (self->wire_vertices->len == 2 && fabs (x - v[0]) < 1e-6 && fabs (y - v[1]) < 1e-6)
        return FALSE;
      int dom = hyd_canvas_scene_wire_domain (self->scene, h->wire);
      return !(dom >= 0 && self->wire_domain >= 0 && dom != self->wire_domain);
    }
  return FALSE;
}

/* A wire drawn straight to its target (no bend clicked) goes round the
 * symbols instead of through them (a tank line under a pump looked like a
 * third port). TRUE when `line` was replaced. */
static gboolean
route_round_symbols (HydCanvas *self, double tx, double ty, gboolean has_dir1, HydDirection dir1, GArray *line)
{
  if (self->wire_vertices->len != 2 || self->scene == NULL)
    return FALSE; /* the user's own bends are kept as clicked */
  guint n = hyd_canvas_scene_get_n_components (self->scene);
  g_autoptr (GArray) boxes = g_array_sized_new (FALSE, FALSE, sizeof (HydRect), n);
  for (guint i = 0; i < n; i++)
    g_array_append_val (boxes, hyd_canvas_scene_get_component (self->scene, i)->bounds);
  const double *v = (const double *) self->wire_vertices->data;
  return hyd_canvas_route_avoid (v[0], v[1], self->wire_has_dir, self->wire_dir, tx, ty, has_dir1, dir1,
                                 (const HydRect *) boxes->data, boxes->len, line);
}

static void
wire_update (HydCanvas *self)
{
  double x, y;
  _hyd_canvas_widget_to_canvas (self, self->pointer_wx, self->pointer_wy, &x, &y);
  const HydCanvasHit *h = &self->hover;
  const double *v = (const double *) self->wire_vertices->data;
  if (h->kind != HYD_CANVAS_HIT_NONE && wire_target_ok (self, h))
    {
      double tx = h->x, ty = h->y;
      if (h->kind == HYD_CANVAS_HIT_WIRE)
        wire_point (self, h, &tx, &ty);
      hyd_canvas_route_finish (self->wire_vertices, self->wire_has_dir, self->wire_dir, tx, ty,
                               h->kind == HYD_CANVAS_HIT_PORT, h->dir, self->wire_preview, NULL);
      route_round_symbols (self, tx, ty, h->kind == HYD_CANVAS_HIT_PORT, h->dir, self->wire_preview);
    }
  else
    hyd_canvas_route_preview (self->wire_vertices, self->wire_has_dir, self->wire_dir, hyd_canvas_snap (x),
                              hyd_canvas_snap (y), self->wire_toggled, self->wire_preview);
  guint n = self->wire_vertices->len / 2;
  if (fabs (hyd_canvas_snap (x) - v[2 * n - 2]) > 1e-6 || fabs (hyd_canvas_snap (y) - v[2 * n - 1]) > 1e-6)
    self->wire_moved = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
wire_end_mode (HydCanvas *self)
{
  wire_clear (self);
  self->mode = MODE_IDLE;
  _hyd_canvas_update_hover (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A wire released or clicked on a symbol's body rather than on one of its
 * ports (a student's near miss): the symbol's free port of the wire's
 * domain nearest to the pointer, as a port hit in *out; FALSE when it has
 * none (the click then does nothing, as before). */
static gboolean
nearest_free_port (HydCanvas *self, const HydCanvasHit *h, HydCanvasHit *out)
{
  const HydCanvasSceneComponent *c = hyd_canvas_scene_find_component (self->scene, h->id);
  if (c == NULL || c->symbol == NULL)
    return FALSE;
  /* not back onto the symbol the wire starts from */
  gsize len = strlen (h->id);
  if (self->wire_start_ref && strncmp (self->wire_start_ref, h->id, len) == 0 && self->wire_start_ref[len] == '.')
    return FALSE;
  double px, py;
  _hyd_canvas_widget_to_canvas (self, self->pointer_wx, self->pointer_wy, &px, &py);
  double best = G_MAXDOUBLE;
  for (guint i = 0; i < hyd_symbol_get_n_ports (c->symbol); i++)
    {
      const HydSymbolPort *port = hyd_symbol_get_port (c->symbol, i);
      g_autofree char *ref = g_strdup_printf ("%s.%s", h->id, port->name);
      double x, y;
      HydDirection dir;
      gboolean has_dir;
      if (hyd_canvas_scene_wire_count (self->scene, ref) > 0
          || !hyd_canvas_scene_endpoint (self->scene, ref, &x, &y, &dir, &has_dir))
        continue;
      HydCanvasHit candidate = { .kind = HYD_CANVAS_HIT_PORT, .id = h->id, .port = port->name,
                                 .x = x, .y = y, .dir = dir, .has_dir = has_dir };
      double d = hypot (x - px, y - py);
      if (wire_target_ok (self, &candidate) && d < best)
        {
          best = d;
          *out = candidate;
        }
    }
  return best < G_MAXDOUBLE;
}

/* A click while drawing: end the wire on a target, or add a bend. */
static void
wire_click (HydCanvas *self)
{
  HydCanvasHit body, snapped;
  const HydCanvasHit *h = &self->hover;
  if (h->kind == HYD_CANVAS_HIT_NONE)
    {
      /* the hover shows ports, junctions and wires only while drawing */
      double x, y;
      _hyd_canvas_widget_to_canvas (self, self->pointer_wx, self->pointer_wy, &x, &y);
      if (hyd_canvas_scene_hit (self->scene, x, y, _hyd_canvas_pixel (self), HYD_CANVAS_HIT_COMPONENT, &body)
          && nearest_free_port (self, &body, &snapped))
        h = &snapped;
    }
  if (h->kind != HYD_CANVAS_HIT_NONE)
    {
      if (!wire_target_ok (self, h))
        {
          if (h->kind == HYD_CANVAS_HIT_PORT || h->kind == HYD_CANVAS_HIT_JUNCTION)
            gtk_widget_error_bell (GTK_WIDGET (self));
          if (h->kind != HYD_CANVAS_HIT_WIRE)
            return;
        }
      else
        {
          HydCanvasWireEnd from = { self->wire_start_ref, self->wire_start_wire,
                                    g_array_index (self->wire_vertices, double, 0),
                                    g_array_index (self->wire_vertices, double, 1) };
          g_autofree char *ref = NULL;
          HydCanvasWireEnd to = { NULL, h->wire, h->x, h->y };
          if (h->kind == HYD_CANVAS_HIT_PORT)
            ref = g_strdup_printf ("%s.%s", h->id, h->port);
          else if (h->kind == HYD_CANVAS_HIT_JUNCTION)
            ref = g_strdup (h->id);
          else
            wire_point (self, h, &to.x, &to.y);
          to.ref = ref;
          g_autoptr (GArray) line = g_array_new (FALSE, FALSE, sizeof (double));
          g_autoptr (GArray) route = g_array_new (FALSE, FALSE, sizeof (double));
          hyd_canvas_route_finish (self->wire_vertices, self->wire_has_dir, self->wire_dir, to.x, to.y,
                                   h->kind == HYD_CANVAS_HIT_PORT, h->dir, line, route);
          if (route_round_symbols (self, to.x, to.y, h->kind == HYD_CANVAS_HIT_PORT, h->dir, line))
            {
              g_array_set_size (route, 0);
              if (line->len > 4)
                g_array_append_vals (route, (const double *) line->data + 2, line->len - 4);
            }
          if (h->kind == HYD_CANVAS_HIT_PORT || h->kind == HYD_CANVAS_HIT_JUNCTION)
            {
              /* the route ends at the target's position as the scene has it */
              to.x = h->x;
              to.y = h->y;
            }
          g_autoptr (GError) error = NULL;
          /* the document's "changed" rebuilds the scene: end the mode first */
          g_autofree char *start_ref = g_strdup (self->wire_start_ref);
          from.ref = start_ref;
          wire_clear (self);
          self->mode = MODE_IDLE;
          if (!hyd_canvas_edit_connect (self->document, self->library, &from, &to,
                                        route->len ? (const double *) route->data : NULL, route->len / 2, &error))
            {
              g_debug ("wire refused: %s", error ? error->message : "");
              gtk_widget_error_bell (GTK_WIDGET (self));
            }
          _hyd_canvas_update_hover (self);
          gtk_widget_queue_draw (GTK_WIDGET (self));
          return;
        }
    }
  /* a bend where the pointer is */
  double x, y;
  _hyd_canvas_widget_to_canvas (self, self->pointer_wx, self->pointer_wy, &x, &y);
  x = hyd_canvas_snap (x);
  y = hyd_canvas_snap (y);
  hyd_canvas_route_add_leg (self->wire_vertices, self->wire_has_dir, self->wire_dir, x, y, self->wire_toggled);
  self->wire_toggled = FALSE;
  self->wire_moved = FALSE;
  wire_update (self);
}

/* ---------------------------------------------------------------------------
 * Moving
 * ------------------------------------------------------------------------- */

static void
move_begin (HydCanvas *self)
{
  g_auto (GStrv) ids = _hyd_canvas_selection_ids (self);
  if (ids == NULL || ids[0] == NULL)
    {
      self->mode = MODE_IDLE;
      return;
    }
  g_strfreev (self->move_ids);
  self->move_ids = g_steal_pointer (&ids);
  self->move_dx = self->move_dy = 0;
  self->preview = hyd_document_new_for_circuit (hyd_circuit_copy (hyd_document_get_circuit (self->document)));
  self->mode = MODE_MOVE;
  _hyd_canvas_rebuild_scene (self);
  _hyd_canvas_update_cursor (self);
}

static void
move_update (HydCanvas *self, double x, double y)
{
  double dx = hyd_canvas_snap (x - self->press_x), dy = hyd_canvas_snap (y - self->press_y);
  if (dx == self->move_dx && dy == self->move_dy)
    return;
  /* the scratch copy shows exactly the command the release will make */
  if (self->move_dx != 0 || self->move_dy != 0)
    hyd_document_undo (self->preview);
  hyd_canvas_edit_move (self->preview, self->library, (const char *const *) self->move_ids, dx, dy);
  self->move_dx = dx;
  self->move_dy = dy;
  _hyd_canvas_rebuild_scene (self);
}

static void
move_end (HydCanvas *self, gboolean commit)
{
  double dx = self->move_dx, dy = self->move_dy;
  g_auto (GStrv) ids = g_steal_pointer (&self->move_ids);
  g_clear_object (&self->preview);
  self->mode = MODE_IDLE;
  if (commit && (dx != 0 || dy != 0) && ids)
    hyd_canvas_edit_move (self->document, self->library, (const char *const *) ids, dx, dy);
  else
    _hyd_canvas_rebuild_scene (self);
  _hyd_canvas_update_hover (self);
}

/* Cancel whatever the pointer is doing (Escape, a new document, live). */
void
_hyd_canvas_cancel_gesture (HydCanvas *self)
{
  switch (self->mode)
    {
    case MODE_MOVE:
      move_end (self, FALSE);
      break;
    case MODE_WIRE:
      wire_end_mode (self);
      break;
    default:
      self->mode = MODE_IDLE;
      break;
    }
  g_clear_pointer (&self->press_id, g_free);
  g_clear_pointer (&self->press_port, g_free);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---------------------------------------------------------------------------
 * Pointer input
 * ------------------------------------------------------------------------- */

static gboolean
is_double_click (HydCanvas *self, double wx, double wy)
{
  GtkSettings *settings = gtk_widget_get_settings (GTK_WIDGET (self));
  int time = 400, distance = 5;
  if (settings)
    g_object_get (settings, "gtk-double-click-time", &time, "gtk-double-click-distance", &distance, NULL);
  double now = g_get_monotonic_time () / 1000.0;
  gboolean dbl = now - self->last_press_time <= time && fabs (wx - self->last_press_wx) <= distance
                 && fabs (wy - self->last_press_wy) <= distance;
  self->last_press_time = dbl ? 0 : now;
  self->last_press_wx = wx;
  self->last_press_wy = wy;
  return dbl;
}

static void
probe_at (HydCanvas *self, double x, double y)
{
  HydCanvasHit h;
  g_autofree char *var = NULL;
  switch (hyd_canvas_scene_hit (self->scene, x, y, _hyd_canvas_pixel (self), HYD_CANVAS_HIT_ALL, &h))
    {
    case HYD_CANVAS_HIT_PORT:
      var = hyd_canvas_scene_probe_port (self->scene, h.id, h.port);
      break;
    case HYD_CANVAS_HIT_COMPONENT:
      var = hyd_canvas_scene_probe_variable (self->scene, h.id);
      break;
    case HYD_CANVAS_HIT_WIRE:
      var = hyd_canvas_scene_probe_wire (self->scene, h.wire);
      break;
    case HYD_CANVAS_HIT_JUNCTION:
      {
        /* a junction has the pressure of its net */
        for (guint i = 0; var == NULL && i < hyd_canvas_scene_get_n_wires (self->scene); i++)
          {
            const HydCanvasSceneWire *w = hyd_canvas_scene_get_wire (self->scene, i);
            if (g_strcmp0 (w->conn->from, h.id) == 0 || g_strcmp0 (w->conn->to, h.id) == 0)
              var = hyd_canvas_scene_probe_wire (self->scene, i);
          }
      }
      break;
    default:
      break;
    }
  if (var)
    _hyd_canvas_emit_probe (self, var);
}

static void
remember_press_hit (HydCanvas *self, const HydCanvasHit *h)
{
  g_clear_pointer (&self->press_id, g_free);
  g_clear_pointer (&self->press_port, g_free);
  self->press_kind = h->kind;
  self->press_id = g_strdup (h->id);
  self->press_port = g_strdup (h->port);
  self->press_wire = h->wire;
}

void
_hyd_canvas_pointer_press (HydCanvas *self, double wx, double wy, guint button, GdkModifierType state)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  GtkWidget *widget = GTK_WIDGET (self);
  if (gtk_widget_get_focusable (widget))
    gtk_widget_grab_focus (widget);
  self->pointer_wx = wx;
  self->pointer_wy = wy;
  self->pointer_inside = TRUE;
  double x, y;
  _hyd_canvas_widget_to_canvas (self, wx, wy, &x, &y);
  gboolean dbl = button == GDK_BUTTON_PRIMARY && is_double_click (self, wx, wy);

  if (button == GDK_BUTTON_MIDDLE || (button == GDK_BUTTON_PRIMARY && self->space_down))
    {
      if (self->mode == MODE_MOVE)
        move_end (self, FALSE);
      if (self->mode != MODE_WIRE)
        self->mode = MODE_PAN;
      self->press_button = button;
      self->pan_wx = wx;
      self->pan_wy = wy;
      _hyd_canvas_update_cursor (self);
      return;
    }
  if (button != GDK_BUTTON_PRIMARY || self->scene == NULL)
    return;
  if (self->mode == MODE_WIRE)
    {
      /* bends and the end are clicks: they act on release */
      self->press_button = button;
      return;
    }
  self->press_button = button;
  self->press_wx = wx;
  self->press_wy = wy;
  self->press_x = x;
  self->press_y = y;
  self->press_state = state;
  self->mode = MODE_PRESS;

  if (dbl && !self->place_type)
    {
      HydCanvasHit h;
      if (hyd_canvas_scene_hit (self->scene, x, y, _hyd_canvas_pixel (self), HYD_CANVAS_HIT_COMPONENT, &h))
        {
          self->mode = MODE_IDLE;
          _hyd_canvas_emit_activated (self, h.id);
          return;
        }
    }

  if (self->place_type)
    {
      if (!_hyd_canvas_can_edit (self))
        return;
      g_autofree char *type = g_strdup (self->place_type);
      g_autofree char *id = _hyd_canvas_place_at (self, type, wx, wy);
      /* Shift keeps the tool for another one */
      if (!(state & GDK_SHIFT_MASK))
        {
          g_clear_pointer (&self->place_type, g_free);
          _hyd_canvas_update_actions (self);
        }
      self->mode = MODE_IDLE;
      _hyd_canvas_update_hover (self);
      return;
    }

  if (self->tool == HYD_CANVAS_TOOL_PROBE)
    {
      self->mode = MODE_IDLE;
      probe_at (self, x, y);
      return;
    }

  if (self->tool == HYD_CANVAS_TOOL_WIRE)
    {
      HydCanvasHit h;
      self->mode = MODE_IDLE;
      if (!_hyd_canvas_can_edit (self))
        return;
      if (hyd_canvas_scene_hit (self->scene, x, y, _hyd_canvas_pixel (self),
                                HYD_CANVAS_HIT_PORT | HYD_CANVAS_HIT_JUNCTION | HYD_CANVAS_HIT_WIRE, &h))
        {
          wire_begin (self, &h);
          wire_update (self);
        }
      else
        gtk_widget_error_bell (widget);
      return;
    }

  /* the select tool */
  HydCanvasHit h;
  guint kinds = _hyd_canvas_can_edit (self) ? HYD_CANVAS_HIT_ALL : HYD_CANVAS_HIT_COMPONENT | HYD_CANVAS_HIT_WIRE
                                                       | HYD_CANVAS_HIT_JUNCTION;
  hyd_canvas_scene_hit (self->scene, x, y, _hyd_canvas_pixel (self), kinds, &h);
  remember_press_hit (self, &h);
  gboolean shift = (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK)) != 0;
  if (h.kind == HYD_CANVAS_HIT_COMPONENT || h.kind == HYD_CANVAS_HIT_JUNCTION)
    {
      self->press_was_selected = g_hash_table_contains (self->selection, h.id);
      if (!self->press_was_selected)
        {
          if (!shift)
            _hyd_canvas_select_only (self, h.id);
          else
            g_hash_table_add (self->selection, g_strdup (h.id));
          _hyd_canvas_selection_changed (self);
        }
    }
  else if (h.kind == HYD_CANVAS_HIT_WIRE)
    {
      self->press_was_selected = _hyd_canvas_wire_selected (self, h.wire, NULL);
      if (!self->press_was_selected)
        {
          if (!shift)
            _hyd_canvas_select_only (self, NULL);
          _hyd_canvas_select_wire (self, h.wire, TRUE);
          _hyd_canvas_selection_changed (self);
        }
    }
}

void
_hyd_canvas_pointer_motion (HydCanvas *self, double wx, double wy, GdkModifierType state)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  self->pointer_wx = wx;
  self->pointer_wy = wy;
  self->pointer_inside = TRUE;
  double x, y;
  _hyd_canvas_widget_to_canvas (self, wx, wy, &x, &y);
  switch (self->mode)
    {
    case MODE_PAN:
      self->view_fitted = FALSE;
      self->view.ox -= (wx - self->pan_wx) / self->view.zoom;
      self->view.oy -= (wy - self->pan_wy) / self->view.zoom;
      hyd_canvas_view_align (&self->view);
      self->pan_wx = wx;
      self->pan_wy = wy;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    case MODE_PRESS:
      {
        int threshold = 4;
        if (hypot (wx - self->press_wx, wy - self->press_wy) < threshold)
          return;
        if (self->press_kind == HYD_CANVAS_HIT_PORT && _hyd_canvas_can_edit (self))
          {
            /* a wire dragged out of a port */
            HydCanvasHit h;
            if (hyd_canvas_scene_hit (self->scene, self->press_x, self->press_y, _hyd_canvas_pixel (self), HYD_CANVAS_HIT_PORT,
                                      &h))
              {
                wire_begin (self, &h);
                _hyd_canvas_update_hover (self);
                wire_update (self);
                return;
              }
          }
        if ((self->press_kind == HYD_CANVAS_HIT_COMPONENT || self->press_kind == HYD_CANVAS_HIT_JUNCTION)
            && _hyd_canvas_can_edit (self))
          {
            if (!g_hash_table_contains (self->selection, self->press_id))
              {
                g_hash_table_add (self->selection, g_strdup (self->press_id));
                _hyd_canvas_selection_changed (self);
              }
            move_begin (self);
            move_update (self, x, y);
            return;
          }
        if (self->press_kind != HYD_CANVAS_HIT_NONE && self->press_kind != HYD_CANVAS_HIT_WIRE)
          {
            /* nothing to drag while editing is locked */
            self->mode = MODE_IDLE;
            return;
          }
        self->mode = MODE_BAND;
        self->band = (HydRect) { self->press_x, self->press_y, x, y };
        self->band_crossing = x < self->press_x;
        _hyd_canvas_update_hover (self);
        gtk_widget_queue_draw (GTK_WIDGET (self));
        return;
      }
    case MODE_MOVE:
      move_update (self, x, y);
      return;
    case MODE_BAND:
      self->band.x1 = x;
      self->band.y1 = y;
      self->band_crossing = x < self->band.x0;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    case MODE_WIRE:
      _hyd_canvas_update_hover (self);
      wire_update (self);
      return;
    default:
      _hyd_canvas_update_hover (self);
      if (self->place_type)
        gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
}

void
_hyd_canvas_pointer_release (HydCanvas *self, double wx, double wy, guint button, GdkModifierType state)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  self->pointer_wx = wx;
  self->pointer_wy = wy;
  double x, y;
  _hyd_canvas_widget_to_canvas (self, wx, wy, &x, &y);
  switch (self->mode)
    {
    case MODE_PAN:
      if (button == self->press_button)
        {
          self->mode = MODE_IDLE;
          _hyd_canvas_update_hover (self);
        }
      return;
    case MODE_MOVE:
      move_end (self, TRUE);
      return;
    case MODE_BAND:
      {
        self->mode = MODE_IDLE;
        gboolean add = (self->press_state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK)) != 0;
        if (!add)
          _hyd_canvas_select_only (self, NULL);
        g_autoptr (GPtrArray) ids = g_ptr_array_new ();
        g_autoptr (GArray) wires = g_array_new (FALSE, FALSE, sizeof (guint));
        HydRect r = self->band;
        hyd_canvas_scene_items_in_rect (self->scene, &r, self->band_crossing, ids, wires);
        for (guint k = 0; k < ids->len; k++)
          g_hash_table_add (self->selection, g_strdup (g_ptr_array_index (ids, k)));
        for (guint k = 0; k < wires->len; k++)
          _hyd_canvas_select_wire (self, g_array_index (wires, guint, k), TRUE);
        _hyd_canvas_selection_changed (self);
        _hyd_canvas_update_hover (self);
        return;
      }
    case MODE_WIRE:
      if (button != GDK_BUTTON_PRIMARY)
        return;
      _hyd_canvas_update_hover (self);
      /* the release of the press that started the wire is not a click */
      if (!self->wire_moved && self->wire_vertices->len == 2)
        return;
      wire_click (self);
      return;
    case MODE_PRESS:
      {
        self->mode = MODE_IDLE;
        gboolean shift = (self->press_state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK)) != 0;
        switch (self->press_kind)
          {
          case HYD_CANVAS_HIT_PORT:
            {
              /* a click on a free port starts a wire; on a used one selects */
              g_autofree char *ref = g_strdup_printf ("%s.%s", self->press_id, self->press_port);
              HydCanvasHit h;
              if (_hyd_canvas_can_edit (self) && hyd_canvas_scene_wire_count (self->scene, ref) == 0
                  && hyd_canvas_scene_hit (self->scene, self->press_x, self->press_y, _hyd_canvas_pixel (self),
                                           HYD_CANVAS_HIT_PORT, &h))
                {
                  wire_begin (self, &h);
                  wire_update (self);
                  return;
                }
              if (!shift)
                _hyd_canvas_select_only (self, self->press_id);
              else if (!g_hash_table_remove (self->selection, self->press_id))
                g_hash_table_add (self->selection, g_strdup (self->press_id));
              _hyd_canvas_selection_changed (self);
            }
            break;
          case HYD_CANVAS_HIT_COMPONENT:
          case HYD_CANVAS_HIT_JUNCTION:
            if (self->press_was_selected)
              {
                if (shift)
                  g_hash_table_remove (self->selection, self->press_id);
                else
                  _hyd_canvas_select_only (self, self->press_id);
                _hyd_canvas_selection_changed (self);
              }
            break;
          case HYD_CANVAS_HIT_WIRE:
            if (self->press_was_selected)
              {
                if (shift)
                  _hyd_canvas_select_wire (self, self->press_wire, FALSE);
                else
                  {
                    _hyd_canvas_select_only (self, NULL);
                    _hyd_canvas_select_wire (self, self->press_wire, TRUE);
                  }
                _hyd_canvas_selection_changed (self);
              }
            break;
          default:
            if (!shift && (g_hash_table_size (self->selection) || self->selected_wires->len))
              {
                _hyd_canvas_select_only (self, NULL);
                _hyd_canvas_selection_changed (self);
              }
            break;
          }
        _hyd_canvas_update_hover (self);
        return;
      }
    default:
      return;
    }
}

static void
drag_begin_cb (GtkGestureDrag *gesture, double x, double y, HydCanvas *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  _hyd_canvas_pointer_press (self, x, y, button, state);
}

static void
drag_update_cb (GtkGestureDrag *gesture, double dx, double dy, HydCanvas *self)
{
  double sx, sy;
  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  _hyd_canvas_pointer_motion (self, sx + dx, sy + dy, state);
}

static void
drag_end_cb (GtkGestureDrag *gesture, double dx, double dy, HydCanvas *self)
{
  double sx, sy;
  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  _hyd_canvas_pointer_release (self, sx + dx, sy + dy, button, state);
}

static void
motion_cb (GtkEventControllerMotion *controller, double x, double y, HydCanvas *self)
{
  /* with a button down the drag gesture reports the motion */
  if (self->mode == MODE_PRESS || self->mode == MODE_MOVE || self->mode == MODE_BAND || self->mode == MODE_PAN)
    return;
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  _hyd_canvas_pointer_motion (self, x, y, state);
}

static void
leave_cb (GtkEventControllerMotion *controller, HydCanvas *self)
{
  self->pointer_inside = FALSE;
  _hyd_canvas_update_hover (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller, double dx, double dy, HydCanvas *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  gboolean wheel = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL;
  if (state & GDK_CONTROL_MASK)
    {
      double steps = wheel ? dy : dy / 20.0;
      double wx = self->pointer_inside ? self->pointer_wx : self->view.width / 2.0;
      double wy = self->pointer_inside ? self->pointer_wy : self->view.height / 2.0;
      _hyd_canvas_zoom_interactive (self, self->view.zoom * pow (HYD_CANVAS_ZOOM_STEP, -steps), wx, wy);
      return TRUE;
    }
  double px = wheel ? dx * 60 : dx, py = wheel ? dy * 60 : dy;
  self->view_fitted = FALSE;
  if ((state & GDK_SHIFT_MASK) && px == 0)
    {
      px = py;
      py = 0;
    }
  self->view.ox += px / self->view.zoom;
  self->view.oy += py / self->view.zoom;
  hyd_canvas_view_align (&self->view);
  _hyd_canvas_view_changed (self);
  if (self->mode == MODE_WIRE)
    wire_update (self);
  return TRUE;
}

static void
pinch_begin_cb (GtkGesture *gesture, GdkEventSequence *sequence, HydCanvas *self)
{
  self->pinch_zoom0 = self->view.zoom;
}

static void
pinch_cb (GtkGestureZoom *gesture, double scale, HydCanvas *self)
{
  double cx, cy;
  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    {
      cx = self->view.width / 2.0;
      cy = self->view.height / 2.0;
    }
  _hyd_canvas_zoom_interactive (self, self->pinch_zoom0 * scale, cx, cy);
}

/* ---------------------------------------------------------------------------
 * Keys
 * ------------------------------------------------------------------------- */

gboolean
_hyd_canvas_key (HydCanvas *self, guint keyval, GdkModifierType state, gboolean pressed)
{
  g_return_val_if_fail (HYD_IS_CANVAS (self), FALSE);
  if (keyval == GDK_KEY_space)
    {
      if (pressed && self->mode == MODE_WIRE)
        {
          /* H–V or V–H for the leg that follows the pointer */
          self->wire_toggled = !self->wire_toggled;
          wire_update (self);
          return TRUE;
        }
      self->space_down = pressed;
      _hyd_canvas_update_cursor (self);
      return TRUE;
    }
  if (!pressed)
    return FALSE;
  int dx = 0, dy = 0;
  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      dx = -1;
      break;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      dx = 1;
      break;
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      dy = -1;
      break;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      dy = 1;
      break;
    default:
      return FALSE;
    }
  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK))
    return FALSE;
  g_auto (GStrv) ids = _hyd_canvas_selection_ids (self);
  if (!_hyd_canvas_can_edit (self) || self->mode != MODE_IDLE || ids == NULL || ids[0] == NULL)
    return FALSE;
  double step = (state & GDK_SHIFT_MASK) ? 10 * HYD_CANVAS_GRID : HYD_CANVAS_GRID;
  hyd_canvas_edit_move (self->document, self->library, (const char *const *) ids, dx * step, dy * step);
  return TRUE;
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller, guint keyval, guint keycode, GdkModifierType state,
                HydCanvas *self)
{
  return _hyd_canvas_key (self, keyval, state, TRUE);
}

static void
key_released_cb (GtkEventControllerKey *controller, guint keyval, guint keycode, GdkModifierType state,
                 HydCanvas *self)
{
  _hyd_canvas_key (self, keyval, state, FALSE);
}

/* ---------------------------------------------------------------------------
 * Drop from the palette
 * ------------------------------------------------------------------------- */

gboolean
_hyd_canvas_drop (HydCanvas *self, const char *type_id, double wx, double wy)
{
  g_return_val_if_fail (HYD_IS_CANVAS (self), FALSE);
  g_clear_pointer (&self->drop_type, g_free);
  if (!_hyd_canvas_can_edit (self) || type_id == NULL || hyd_catalogue_lookup (type_id) == NULL)
    return FALSE;
  self->pointer_wx = wx;
  self->pointer_wy = wy;
  if (g_strcmp0 (self->place_type, type_id) != 0)
    _hyd_canvas_recall_pose (self, type_id);
  g_autofree char *id = _hyd_canvas_place_at (self, type_id, wx, wy);
  g_clear_pointer (&self->place_type, g_free);
  _hyd_canvas_update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return id != NULL;
}

static const char *
drop_value (GtkDropTarget *target)
{
  const GValue *v = gtk_drop_target_get_value (target);
  return v && G_VALUE_HOLDS_STRING (v) ? g_value_get_string (v) : NULL;
}

static GdkDragAction
drop_motion_cb (GtkDropTarget *target, double x, double y, HydCanvas *self)
{
  if (!_hyd_canvas_can_edit (self))
    return 0;
  self->pointer_wx = x;
  self->pointer_wy = y;
  self->pointer_inside = TRUE;
  const char *type = drop_value (target);
  if (type && hyd_catalogue_lookup (type) && g_strcmp0 (type, self->drop_type) != 0)
    {
      g_free (self->drop_type);
      self->drop_type = g_strdup (type);
      _hyd_canvas_recall_pose (self, type);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return GDK_ACTION_COPY;
}

static void
drop_leave_cb (GtkDropTarget *target, HydCanvas *self)
{
  g_clear_pointer (&self->drop_type, g_free);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
drop_cb (GtkDropTarget *target, const GValue *value, double x, double y, HydCanvas *self)
{
  if (!G_VALUE_HOLDS_STRING (value))
    return FALSE;
  return _hyd_canvas_drop (self, g_value_get_string (value), x, y);
}

/* ---------------------------------------------------------------------------
 * Tooltips
 * ------------------------------------------------------------------------- */

static gboolean
query_tooltip_cb (GtkWidget *widget, int wx, int wy, gboolean keyboard, GtkTooltip *tooltip, HydCanvas *self)
{
  if (keyboard || self->scene == NULL || self->mode != MODE_IDLE || self->place_type)
    return FALSE;
  double x, y;
  _hyd_canvas_widget_to_canvas (self, wx, wy, &x, &y);
  HydCanvasHit h;
  g_autofree char *text = NULL;
  switch (hyd_canvas_scene_hit (self->scene, x, y, _hyd_canvas_pixel (self), HYD_CANVAS_HIT_ALL, &h))
    {
    case HYD_CANVAS_HIT_PORT:
      {
        const HydCanvasSceneComponent *c = hyd_canvas_scene_find_component (self->scene, h.id);
        const char *what = NULL;
        for (guint k = 0; c && c->type && k < c->type->n_ports; k++)
          if (strcmp (c->type->ports[k].name, h.port) == 0)
            what = c->type->ports[k].description ? _(c->type->ports[k].description) : NULL;
        double p = self->live_pressure ? self->live_pressure (h.id, h.port, self->live_data) : NAN;
        if (!isnan (p))
          text = g_strdup_printf ("%s.%s: %.2f bar", h.id, h.port, p / 1e5);
        else
          text = g_strdup_printf ("%s.%s%s%s", h.id, h.port, what ? " — " : "", what ? what : "");
      }
      break;
    case HYD_CANVAS_HIT_COMPONENT:
      {
        const HydCanvasSceneComponent *c = hyd_canvas_scene_find_component (self->scene, h.id);
        if (c)
          text = g_strdup_printf ("%s — %s%s%s", h.id, c->type ? _(c->type->label) : c->comp->type,
                                  c->comp->label ? "\n" : "", c->comp->label ? c->comp->label : "");
      }
      break;
    default:
      break;
    }
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* The controllers: one drag gesture for every button (primary: select,
 * move, wire, rubber band; middle: pan), motion for hover, scroll, pinch,
 * keys, and the drop target for the palette. */
void
_hyd_canvas_init_input (HydCanvas *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  g_signal_connect (widget, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);

  GtkGesture *drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drag));

  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (widget, motion);

  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (widget, scroll);

  GtkGesture *pinch = gtk_gesture_zoom_new ();
  g_signal_connect (pinch, "begin", G_CALLBACK (pinch_begin_cb), self);
  g_signal_connect (pinch, "scale-changed", G_CALLBACK (pinch_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (pinch));

  GtkEventController *keys = gtk_event_controller_key_new ();
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  g_signal_connect (keys, "key-released", G_CALLBACK (key_released_cb), self);
  gtk_widget_add_controller (widget, keys);

  GtkDropTarget *drop = gtk_drop_target_new (G_TYPE_STRING, GDK_ACTION_COPY);
  gtk_drop_target_set_preload (drop, TRUE);
  g_signal_connect (drop, "enter", G_CALLBACK (drop_motion_cb), self);
  g_signal_connect (drop, "motion", G_CALLBACK (drop_motion_cb), self);
  g_signal_connect (drop, "leave", G_CALLBACK (drop_leave_cb), self);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drop));
}
