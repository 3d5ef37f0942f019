/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-canvas-actions.c — the canvas's actions ("canvas.rotate"...), their
 * keys, which of them are enabled, and the clipboard (circuit JSON as
 * application/x-bramah-circuit and as text). */
#include "hyd-canvas-private.h"
#include "hyd-canvas-edit.h"

#include <string.h>

/* ---------------------------------------------------------------------------
 * Actions
 * ------------------------------------------------------------------------- */

void
_hyd_canvas_update_actions (HydCanvas *self)
{
  GtkWidget *w = GTK_WIDGET (self);
  gboolean edit = _hyd_canvas_can_edit (self);
  gboolean items = g_hash_table_size (self->selection) > 0;
  gboolean any = items || self->selected_wires->len > 0;
  const HydCircuit *c = self->document ? hyd_document_get_circuit (self->document) : NULL;
  gboolean placing = self->place_type != NULL;
  gtk_widget_action_set_enabled (w, "canvas.rotate", edit && (items || placing));
  gtk_widget_action_set_enabled (w, "canvas.rotate-ccw", edit && (items || placing));
  gtk_widget_action_set_enabled (w, "canvas.mirror", edit && (items || placing));
  gtk_widget_action_set_enabled (w, "canvas.delete", edit && any);
  gtk_widget_action_set_enabled (w, "canvas.duplicate", edit && items);
  gtk_widget_action_set_enabled (w, "canvas.cut", edit && items);
  gtk_widget_action_set_enabled (w, "canvas.copy", self->document != NULL && items);
  gtk_widget_action_set_enabled (w, "canvas.paste", edit);
  gtk_widget_action_set_enabled (w, "canvas.select-all",
                                 c && (c->components->len || c->junctions->len || c->connections->len));
  gtk_widget_action_set_enabled (w, "canvas.undo", edit && hyd_document_can_undo (self->document));
  gtk_widget_action_set_enabled (w, "canvas.redo", edit && hyd_document_can_redo (self->document));
  gtk_widget_action_set_enabled (w, "canvas.tool-wire", edit);
}

static void
action_rotate (GtkWidget *widget, const char *name, GVariant *param)
{
  HydCanvas *self = HYD_CANVAS (widget);
  int turns = g_str_equal (name, "canvas.rotate-ccw") ? 3 : 1;
  if (!_hyd_canvas_can_edit (self))
    return;
  if (self->place_type || self->drop_type)
    {
      self->place_rotation = (self->place_rotation + 90 * turns) % 360;
      gtk_widget_queue_draw (widget);
      return;
    }
  g_auto (GStrv) ids = _hyd_canvas_selection_ids (self);
  hyd_canvas_edit_rotate (self->document, self->library, (const char *const *) ids, turns);
}

static void
action_mirror (GtkWidget *widget, const char *name, GVariant *param)
{
  HydCanvas *self = HYD_CANVAS (widget);
  if (!_hyd_canvas_can_edit (self))
    return;
  if (self->place_type || self->drop_type)
    {
      /* a mirrored pose turns the other way: keep what is on screen */
      self->place_mirror = !self->place_mirror;
      gtk_widget_queue_draw (widget);
      return;
    }
  g_auto (GStrv) ids = _hyd_canvas_selection_ids (self);
  hyd_canvas_edit_mirror (self->document, self->library, (const char *const *) ids);
}

static void
action_delete (GtkWidget *widget, const char *name, GVariant *param)
{
  HydCanvas *self = HYD_CANVAS (widget);
  if (!_hyd_canvas_can_edit (self))
    return;
  g_auto (GStrv) ids = _hyd_canvas_selection_ids (self);
  g_autoptr (GArray) wires = g_array_copy (self->selected_wires);
  _hyd_canvas_select_only (self, NULL);
  hyd_canvas_edit_delete (self->document, (const char *const *) ids, (const guint *) wires->data, wires->len);
  _hyd_canvas_selection_changed (self);
}

static GdkContentProvider *
clipboard_content (const char *text)
{
  GdkContentProvider *providers[3];
  g_autoptr (GBytes) bytes = g_bytes_new (text, strlen (text));
  providers[0] = gdk_content_provider_new_for_bytes (HYD_CANVAS_CLIPBOARD_MIME, bytes);
  providers[1] = gdk_content_provider_new_for_bytes ("text/plain;charset=utf-8", bytes);
  providers[2] = gdk_content_provider_new_for_bytes ("text/plain", bytes);
  return gdk_content_provider_new_union (providers, 3);
}

static gboolean
copy_selection (HydCanvas *self)
{
  g_auto (GStrv) ids = _hyd_canvas_selection_ids (self);
  if (self->document == NULL || ids == NULL || ids[0] == NULL)
    return FALSE;
  g_autofree char *text = hyd_document_copy_items (self->document, (const char *const *) ids);
  if (text == NULL)
    return FALSE;
  g_autoptr (GdkContentProvider) content = clipboard_content (text);
  gdk_clipboard_set_content (gtk_widget_get_clipboard (GTK_WIDGET (self)), content);
  return TRUE;
}

static void
action_copy (GtkWidget *widget, const char *name, GVariant *param)
{
  copy_selection (HYD_CANVAS (widget));
}

static void
action_cut (GtkWidget *widget, const char *name, GVariant *param)
{
  HydCanvas *self = HYD_CANVAS (widget);
  if (!_hyd_canvas_can_edit (self) || !copy_selection (self))
    return;
  g_auto (GStrv) ids = _hyd_canvas_selection_ids (self);
  _hyd_canvas_select_only (self, NULL);
  hyd_canvas_edit_delete (self->document, (const char *const *) ids, NULL, 0);
  _hyd_canvas_selection_changed (self);
}

/* Paste a fragment: at the pointer when it is over the canvas, else two
 * grid steps away from where it was copied. */
static void
paste_text (HydCanvas *self, const char *text, gboolean at_pointer)
{
  if (!_hyd_canvas_can_edit (self) || text == NULL)
    return;
  double dx = 2 * HYD_CANVAS_GRID, dy = 2 * HYD_CANVAS_GRID;
  g_autoptr (HydCircuit) fragment = hyd_circuit_load_from_data (text, -1, NULL, NULL);
  if (fragment == NULL)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  if (at_pointer && self->pointer_inside)
    {
      g_autoptr (HydCanvasScene) scene = hyd_canvas_scene_new (fragment, self->library);
      HydRect b;
      if (hyd_canvas_scene_get_bounds (scene, &b))
        {
          double x, y;
          _hyd_canvas_widget_to_canvas (self, self->pointer_wx, self->pointer_wy, &x, &y);
          dx = hyd_canvas_snap (x - (b.x0 + b.x1) / 2);
          dy = hyd_canvas_snap (y - (b.y0 + b.y1) / 2);
        }
    }
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) ids = hyd_document_paste (self->document, text, dx, dy, &error);
  if (ids == NULL)
    {
      g_debug ("paste refused: %s", error ? error->message : "");
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  _hyd_canvas_select_ids (self, (const char *const *) ids);
  _hyd_canvas_selection_changed (self);
}

static void
paste_ready (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (HydCanvas) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, &error);
  if (text == NULL)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  paste_text (self, text, TRUE);
}

static void
action_paste (GtkWidget *widget, const char *name, GVariant *param)
{
  HydCanvas *self = HYD_CANVAS (widget);
  if (!_hyd_canvas_can_edit (self))
    return;
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, paste_ready, g_object_ref (self));
}

static void
action_duplicate (GtkWidget *widget, const char *name, GVariant *param)
{
  HydCanvas *self = HYD_CANVAS (widget);
  g_auto (GStrv) ids = _hyd_canvas_selection_ids (self);
  if (!_hyd_canvas_can_edit (self) || ids == NULL || ids[0] == NULL)
    return;
  g_autofree char *text = hyd_document_copy_items (self->document, (const char *const *) ids);
  paste_text (self, text, FALSE);
}

static void
action_select_all (GtkWidget *widget, const char *name, GVariant *param)
{
  hyd_canvas_select_all (HYD_CANVAS (widget));
}

static void
action_undo (GtkWidget *widget, const char *name, GVariant *param)
{
  HydCanvas *self = HYD_CANVAS (widget);
  if (_hyd_canvas_can_edit (self))
    {
      _hyd_canvas_cancel_gesture (self);
      hyd_document_undo (self->document);
    }
}

static void
action_redo (GtkWidget *widget, const char *name, GVariant *param)
{
  HydCanvas *self = HYD_CANVAS (widget);
  if (_hyd_canvas_can_edit (self))
    {
      _hyd_canvas_cancel_gesture (self);
      hyd_document_redo (self->document);
    }
}

static void
action_zoom (GtkWidget *widget, const char *name, GVariant *param)
{
  HydCanvas *self = HYD_CANVAS (widget);
  if (g_str_equal (name, "canvas.zoom-in"))
    _hyd_canvas_zoom_about (self, self->view.zoom * HYD_CANVAS_ZOOM_STEP);
  else if (g_str_equal (name, "canvas.zoom-out"))
    _hyd_canvas_zoom_about (self, self->view.zoom / HYD_CANVAS_ZOOM_STEP);
  else
    hyd_canvas_zoom_to_fit (self);
}

static void
action_toggle_labels (GtkWidget *widget, const char *name, GVariant *param)
{
  HydCanvas *self = HYD_CANVAS (widget);
  hyd_canvas_set_show_labels (self, !self->show_labels);
}

static void
action_tool (GtkWidget *widget, const char *name, GVariant *param)
{
  HydCanvas *self = HYD_CANVAS (widget);
  if (g_str_equal (name, "canvas.tool-wire"))
    hyd_canvas_set_tool (self, HYD_CANVAS_TOOL_WIRE);
  else if (g_str_equal (name, "canvas.tool-probe"))
    hyd_canvas_set_tool (self, HYD_CANVAS_TOOL_PROBE);
  else
    hyd_canvas_set_tool (self, HYD_CANVAS_TOOL_SELECT);
}

/* Escape: whatever is in progress, else the placing, else the tool, else
 * the selection. */
static void
action_cancel (GtkWidget *widget, const char *name, GVariant *param)
{
  HydCanvas *self = HYD_CANVAS (widget);
  if (self->mode != MODE_IDLE)
    _hyd_canvas_cancel_gesture (self);
  else if (self->place_type)
    {
      g_clear_pointer (&self->place_type, g_free);
      _hyd_canvas_update_actions (self);
      _hyd_canvas_update_cursor (self);
      gtk_widget_queue_draw (widget);
    }
  else if (self->tool != HYD_CANVAS_TOOL_SELECT)
    hyd_canvas_set_tool (self, HYD_CANVAS_TOOL_SELECT);
  else if (g_hash_table_size (self->selection) || self->selected_wires->len)
    {
      _hyd_canvas_select_only (self, NULL);
      _hyd_canvas_selection_changed (self);
    }
  _hyd_canvas_update_hover (self);
}

/* Installed by the class: the actions and their keys. */
void
_hyd_canvas_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "canvas.rotate", NULL, action_rotate);
  gtk_widget_class_install_action (widget_class, "canvas.rotate-ccw", NULL, action_rotate);
  gtk_widget_class_install_action (widget_class, "canvas.mirror", NULL, action_mirror);
  gtk_widget_class_install_action (widget_class, "canvas.delete", NULL, action_delete);
  gtk_widget_class_install_action (widget_class, "canvas.duplicate", NULL, action_duplicate);
  gtk_widget_class_install_action (widget_class, "canvas.cut", NULL, action_cut);
  gtk_widget_class_install_action (widget_class, "canvas.copy", NULL, action_copy);
  gtk_widget_class_install_action (widget_class, "canvas.paste", NULL, action_paste);
  gtk_widget_class_install_action (widget_class, "canvas.select-all", NULL, action_select_all);
  gtk_widget_class_install_action (widget_class, "canvas.undo", NULL, action_undo);
  gtk_widget_class_install_action (widget_class, "canvas.redo", NULL, action_redo);
  gtk_widget_class_install_action (widget_class, "canvas.zoom-in", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "canvas.zoom-out", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "canvas.zoom-fit", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "canvas.toggle-labels", NULL, action_toggle_labels);
  gtk_widget_class_install_action (widget_class, "canvas.tool-select", NULL, action_tool);
  gtk_widget_class_install_action (widget_class, "canvas.tool-wire", NULL, action_tool);
  gtk_widget_class_install_action (widget_class, "canvas.tool-probe", NULL, action_tool);
  gtk_widget_class_install_action (widget_class, "canvas.cancel", NULL, action_cancel);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, 0, "canvas.rotate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_R, GDK_SHIFT_MASK, "canvas.rotate-ccw", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, 0, "canvas.mirror", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "canvas.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Delete, 0, "canvas.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "canvas.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_CONTROL_MASK, "canvas.duplicate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_x, GDK_CONTROL_MASK, "canvas.cut", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "canvas.copy", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_v, GDK_CONTROL_MASK, "canvas.paste", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, GDK_CONTROL_MASK, "canvas.select-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "canvas.undo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Z, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "canvas.redo",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_y, GDK_CONTROL_MASK, "canvas.redo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "canvas.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_SHIFT_MASK, "canvas.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "canvas.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "canvas.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "canvas.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "canvas.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "canvas.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "canvas.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, 0, "canvas.tool-wire", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "canvas.cancel", NULL);
}
