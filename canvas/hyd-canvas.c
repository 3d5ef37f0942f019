/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-canvas.c — the schematic editor widget (issue 4).
 *
 * HydCanvas turns pointer and key input into document commands
 * (hyd-canvas-edit.c) and paints through HydCanvasView (hyd-canvas-view.c).
 * Where things are comes from a HydCanvasScene rebuilt whenever the
 * document changes. While a selection is dragged, the move is applied to a
 * scratch copy of the document and that copy is shown; the real document
 * gets one command when the button is released.
 *
 * This file holds the object, its state and the public API, drawing and
 * the view; input is in hyd-canvas-input.c, actions and the clipboard in
 * hyd-canvas-actions.c. */
#include "hyd-canvas-private.h"
#include "hyd-canvas-edit.h"
#include "hyd-references.h"

#include <glib/gi18n.h>

#include <math.h>
#include <string.h>

G_DEFINE_FINAL_TYPE (HydCanvas, hyd_canvas, GTK_TYPE_WIDGET)
G_DEFINE_ENUM_TYPE (HydCanvasTool, hyd_canvas_tool,
                    G_DEFINE_ENUM_VALUE (HYD_CANVAS_TOOL_SELECT, "select"),
                    G_DEFINE_ENUM_VALUE (HYD_CANVAS_TOOL_WIRE, "wire"),
                    G_DEFINE_ENUM_VALUE (HYD_CANVAS_TOOL_PROBE, "probe"))

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_TOOL,
  PROP_ZOOM,
  PROP_SHOW_LABELS,
  PROP_DARK,
  N_PROPS
};

enum {
  SIGNAL_SELECTION_CHANGED,
  SIGNAL_PROBE,
  SIGNAL_COMPONENT_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

void
_hyd_canvas_emit_probe (HydCanvas *self, const char *variable)
{
  g_signal_emit (self, signals[SIGNAL_PROBE], 0, variable);
}

void
_hyd_canvas_emit_activated (HydCanvas *self, const char *id)
{
  g_signal_emit (self, signals[SIGNAL_COMPONENT_ACTIVATED], 0, id);
}

/* ---------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------- */

static const HydCircuit *
shown_circuit (HydCanvas *self)
{
  if (self->preview)
    return hyd_document_get_circuit (self->preview);
  return self->document ? hyd_document_get_circuit (self->document) : NULL;
}

static gboolean
is_live (HydCanvas *self)
{
  return self->live_pressure != NULL || self->live_variable != NULL;
}

/* Live and locked: a run is going (not a replay after it). */
static gboolean
is_locked (HydCanvas *self)
{
  return is_live (self) && !self->replay;
}

gboolean
_hyd_canvas_can_edit (HydCanvas *self)
{
  return self->document != NULL && !is_locked (self);
}

static void
redraw_layer (HydCanvas *self)
{
  self->serial++;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_hyd_canvas_rebuild_scene (HydCanvas *self)
{
  g_clear_pointer (&self->scene, hyd_canvas_scene_free);
  const HydCircuit *c = shown_circuit (self);
  if (c)
    self->scene = hyd_canvas_scene_new (c, self->library);
  /* the hover pointed into the old scene */
  self->hover.kind = HYD_CANVAS_HIT_NONE;
  g_clear_pointer (&self->hover_key, g_free);
  redraw_layer (self);
}

static void
set_cursor (HydCanvas *self, const char *name)
{
  if (g_strcmp0 (self->cursor, name) == 0)
    return;
  self->cursor = name;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), name);
}

void
_hyd_canvas_widget_to_canvas (HydCanvas *self, double wx, double wy, double *x, double *y)
{
  hyd_canvas_view_to_canvas (&self->view, wx, wy, x, y);
}

double
_hyd_canvas_pixel (HydCanvas *self)
{
  return 1.0 / self->view.zoom;
}

static void
style_update (HydCanvas *self)
{
  if (self->dark)
    hyd_symbol_style_init_dark (&self->style);
  else
    hyd_symbol_style_init_light (&self->style);
  if (self->pressure_max > self->pressure_min)
    {
      self->style.pressure_min = self->pressure_min;
      self->style.pressure_max = self->pressure_max;
    }
  hyd_canvas_view_invalidate (&self->view);
  redraw_layer (self);
}

/* The GTK dark preference, or a theme whose text is light. */
static gboolean
theme_is_dark (HydCanvas *self)
{
  GtkSettings *settings = gtk_widget_get_settings (GTK_WIDGET (self));
  gboolean prefer = FALSE;
  g_autofree char *theme = NULL;
  if (settings)
    g_object_get (settings, "gtk-application-prefer-dark-theme", &prefer, "gtk-theme-name", &theme, NULL);
  if (prefer || (theme && g_str_has_suffix (theme, "-dark")))
    return TRUE;
  GdkRGBA fg;
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), &fg);
  return 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
}

static void
follow_theme (HydCanvas *self)
{
  if (self->dark_explicit)
    return;
  gboolean dark = theme_is_dark (self);
  if (dark != self->dark)
    {
      self->dark = dark;
      style_update (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DARK]);
    }
}

/* ---------------------------------------------------------------------------
 * Selection
 * ------------------------------------------------------------------------- */

static char *
wire_key (const HydCircuitConnection *cn)
{
  return g_strdup_printf ("%s\n%s", cn->from ? cn->from : "", cn->to ? cn->to : "");
}

void
_hyd_canvas_selection_changed (HydCanvas *self)
{
  _hyd_canvas_update_actions (self);
  /* selected symbols carry a halo in the static layer */
  redraw_layer (self);
  g_signal_emit (self, signals[SIGNAL_SELECTION_CHANGED], 0);
}

static void
clear_wires (HydCanvas *self)
{
  g_array_set_size (self->selected_wires, 0);
  g_ptr_array_set_size (self->selected_wire_keys, 0);
}

gboolean
_hyd_canvas_wire_selected (HydCanvas *self, guint wire, guint *position)
{
  for (guint k = 0; k < self->selected_wires->len; k++)
    if (g_array_index (self->selected_wires, guint, k) == wire)
      {
        if (position)
          *position = k;
        return TRUE;
      }
  return FALSE;
}

void
_hyd_canvas_select_wire (HydCanvas *self, guint wire, gboolean on)
{
  const HydCircuit *c = self->document ? hyd_document_get_circuit (self->document) : NULL;
  guint pos;
  gboolean was = _hyd_canvas_wire_selected (self, wire, &pos);
  if (on && !was && c && wire < c->connections->len)
    {
      g_array_append_val (self->selected_wires, wire);
      g_ptr_array_add (self->selected_wire_keys, wire_key (g_ptr_array_index (c->connections, wire)));
    }
  else if (!on && was)
    {
      g_array_remove_index (self->selected_wires, pos);
      g_ptr_array_remove_index (self->selected_wire_keys, pos);
    }
}

/* After an edit: drop what is gone, find moved wires again by their ends. */
static gboolean
prune_selection (HydCanvas *self)
{
  const HydCircuit *c = self->document ? hyd_document_get_circuit (self->document) : NULL;
  gboolean changed = FALSE;
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init (&it, self->selection);
  while (g_hash_table_iter_next (&it, &key, NULL))
    if (c == NULL || (hyd_circuit_find_component (c, key) == NULL && hyd_circuit_find_junction (c, key) == NULL))
      {
        g_hash_table_iter_remove (&it);
        changed = TRUE;
      }
  g_autoptr (GArray) wires = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  for (guint k = 0; c && k < self->selected_wires->len; k++)
    {
      guint w = g_array_index (self->selected_wires, guint, k);
      const char *want = g_ptr_array_index (self->selected_wire_keys, k);
      int found = -1;
      if (w < c->connections->len)
        {
          g_autofree char *have = wire_key (g_ptr_array_index (c->connections, w));
          if (strcmp (have, want) == 0)
            found = (int) w;
        }
      for (guint i = 0; found < 0 && i < c->connections->len; i++)
        {
          g_autofree char *have = wire_key (g_ptr_array_index (c->connections, i));
          if (strcmp (have, want) == 0)
            found = (int) i;
        }
      if (found >= 0)
        {
          guint f = (guint) found;
          g_array_append_val (wires, f);
          g_ptr_array_add (keys, g_strdup (want));
        }
      if (found != (int) w)
        changed = TRUE;
    }
  if (c == NULL && self->selected_wires->len)
    changed = TRUE;
  clear_wires (self);
  g_array_append_vals (self->selected_wires, wires->data, wires->len);
  for (guint k = 0; k < keys->len; k++)
    g_ptr_array_add (self->selected_wire_keys, g_strdup (g_ptr_array_index (keys, k)));
  return changed;
}

void
_hyd_canvas_select_only (HydCanvas *self, const char *id)
{
  g_hash_table_remove_all (self->selection);
  clear_wires (self);
  if (id)
    g_hash_table_add (self->selection, g_strdup (id));
}

/* The selected ids in document order (components, then junctions). */
GStrv
_hyd_canvas_selection_ids (HydCanvas *self)
{
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  const HydCircuit *c = self->document ? hyd_document_get_circuit (self->document) : NULL;
  for (guint i = 0; c && i < c->components->len; i++)
    {
      HydCircuitComponent *comp = g_ptr_array_index (c->components, i);
      if (comp->id && g_hash_table_contains (self->selection, comp->id))
        g_strv_builder_add (b, comp->id);
    }
  for (guint i = 0; c && i < c->junctions->len; i++)
    {
      HydCircuitJunction *j = g_ptr_array_index (c->junctions, i);
      if (j->id && g_hash_table_contains (self->selection, j->id))
        g_strv_builder_add (b, j->id);
    }
  return g_strv_builder_end (b);
}

void
_hyd_canvas_select_ids (HydCanvas *self, const char *const *ids)
{
  g_hash_table_remove_all (self->selection);
  clear_wires (self);
  for (guint k = 0; ids && ids[k]; k++)
    g_hash_table_add (self->selection, g_strdup (ids[k]));
}

/* ---------------------------------------------------------------------------
 * Document
 * ------------------------------------------------------------------------- */

static void
document_changed (HydCanvas *self)
{
  if (self->mode == MODE_MOVE || self->mode == MODE_WIRE)
    _hyd_canvas_cancel_gesture (self);
  _hyd_canvas_rebuild_scene (self);
  gboolean changed = prune_selection (self);
  _hyd_canvas_update_hover (self);
  _hyd_canvas_update_actions (self);
  if (changed)
    g_signal_emit (self, signals[SIGNAL_SELECTION_CHANGED], 0);
}

void
hyd_canvas_set_document (HydCanvas *self, HydDocument *document)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  g_return_if_fail (document == NULL || HYD_IS_DOCUMENT (document));
  if (self->document == document)
    return;
  _hyd_canvas_cancel_gesture (self);
  if (self->document)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_set_object (&self->document, document);
  if (document)
    self->changed_id = g_signal_connect_swapped (document, "changed", G_CALLBACK (document_changed), self);
  gboolean had = g_hash_table_size (self->selection) > 0 || self->selected_wires->len > 0;
  _hyd_canvas_select_only (self, NULL);
  g_hash_table_remove_all (self->highlight);
  _hyd_canvas_rebuild_scene (self);
  _hyd_canvas_update_actions (self);
  /* centre and fit it once the widget has a size */
  self->fit_pending = TRUE;
  if (gtk_widget_get_width (GTK_WIDGET (self)) > 0)
    hyd_canvas_zoom_to_fit (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
  if (had)
    g_signal_emit (self, signals[SIGNAL_SELECTION_CHANGED], 0);
}

HydDocument *
hyd_canvas_get_document (HydCanvas *self)
{
  g_return_val_if_fail (HYD_IS_CANVAS (self), NULL);
  return self->document;
}

/* ---------------------------------------------------------------------------
 * Live state
 * ------------------------------------------------------------------------- */

static double
live_port_pressure (const char *component_id, const char *port, gpointer user_data)
{
  HydCanvas *self = user_data;
  if (self->live_pressure == NULL)
    return NAN;
  return self->live_pressure (component_id, port, self->live_data);
}

static gboolean
live_level (const char *component_id, const char *port, guint *level, gpointer user_data)
{
  HydCanvas *self = user_data;
  return self->live_level && self->live_level (component_id, port, level, self->live_data);
}

/* The run's values of the symbol's variables (hyd_canvas_live_symbol_state). */
static void
live_component_state (const HydCircuitComponent *component, HydSymbolState *state, gpointer user_data)
{
  HydCanvas *self = user_data;
  HydSymbol *sym = self->library ? hyd_symbol_library_lookup (self->library, component->type) : NULL;
  hyd_canvas_live_symbol_state (sym, component, self->live_variable, self->live_data, state);
}

static guint
component_flags (const HydCircuitComponent *component, gpointer user_data)
{
  HydCanvas *self = user_data;
  if (component->id && g_hash_table_contains (self->selection, component->id))
    return HYD_SYMBOL_RENDER_SELECTED;
  /* what a selected coil drives, a selected relay's contacts ... */
  return component->id && g_hash_table_contains (self->linked, component->id) ? HYD_SYMBOL_RENDER_HOVER : 0;
}

static int compare_strings (const void *a, const void *b);

/* Selections of up to this many parts show what they are linked to (each
 * costs a pass over the circuit). */
#define LINKED_MAX_SELECTION 16

/* The components the selection is linked to by reference parameters
 * (docs/electrical.md): selecting Y1 highlights the coil and the valve it
 * drives, a relay its contacts, a cylinder its limit switches. */
static void
update_linked (HydCanvas *self, const HydCircuit *circuit)
{
  g_hash_table_remove_all (self->linked);
  if (circuit == NULL || g_hash_table_size (self->selection) > LINKED_MAX_SELECTION)
    return;
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init (&it, self->selection);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      g_auto (GStrv) ids = hyd_reference_links (circuit, key);
      for (guint i = 0; ids && ids[i]; i++)
        if (!g_hash_table_contains (self->selection, ids[i]))
          g_hash_table_add (self->linked, g_strdup (ids[i]));
    }
}

GStrv
hyd_canvas_dup_linked (HydCanvas *self)
{
  g_return_val_if_fail (HYD_IS_CANVAS (self), NULL);
  update_linked (self, shown_circuit (self));
  if (g_hash_table_size (self->linked) == 0)
    return NULL;
  guint n = 0;
  g_autofree gpointer *keys = g_hash_table_get_keys_as_array (self->linked, &n);
  GStrv ids = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    ids[i] = g_strdup (keys[i]);
  qsort (ids, n, sizeof (char *), compare_strings);
  return ids;
}

void
hyd_canvas_set_live (HydCanvas *self, HydCanvasPressureFunc pressure, HydCanvasVariableFunc variable,
                     gpointer user_data, GDestroyNotify destroy)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  if (self->live_destroy)
    self->live_destroy (self->live_data);
  _hyd_canvas_cancel_gesture (self);
  g_clear_pointer (&self->place_type, g_free);
  self->live_pressure = pressure;
  self->live_variable = variable;
  self->live_data = user_data;
  self->live_destroy = destroy;
  _hyd_canvas_update_actions (self);
  _hyd_canvas_update_hover (self);
  redraw_layer (self);
}

void
hyd_canvas_clear_live (HydCanvas *self)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  if (self->live_destroy)
    self->live_destroy (self->live_data);
  self->live_pressure = NULL;
  self->live_variable = NULL;
  self->live_level = NULL;
  self->live_data = NULL;
  self->live_destroy = NULL;
  self->replay = FALSE;
  self->paused = FALSE;
  _hyd_canvas_update_actions (self);
  redraw_layer (self);
}

void
hyd_canvas_set_live_levels (HydCanvas *self, HydCanvasLevelFunc level)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  self->live_level = level;
  redraw_layer (self);
}

void
hyd_canvas_queue_live_redraw (HydCanvas *self)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  redraw_layer (self);
}

void
hyd_canvas_set_replay (HydCanvas *self, gboolean replay)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  if (self->replay == !!replay)
    return;
  self->replay = !!replay;
  _hyd_canvas_update_actions (self);
  _hyd_canvas_update_hover (self);
  redraw_layer (self);
}

void
hyd_canvas_set_paused (HydCanvas *self, gboolean paused)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  if (self->paused == !!paused)
    return;
  self->paused = !!paused;
  redraw_layer (self);
}

void
hyd_canvas_set_pressure_range (HydCanvas *self, double p_min, double p_max)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  if (self->pressure_min == p_min && self->pressure_max == p_max)
    return;
  self->pressure_min = p_min;
  self->pressure_max = p_max;
  style_update (self);
}

void
hyd_canvas_get_style (HydCanvas *self, HydSymbolStyle *style)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  follow_theme (self);
  *style = self->style;
}

/* ---------------------------------------------------------------------------
 * Drawing
 * ------------------------------------------------------------------------- */

static void
fill_content (HydCanvas *self, HydCanvasContent *content)
{
  memset (content, 0, sizeof *content);
  content->circuit = shown_circuit (self);
  content->library = self->library;
  content->style = &self->style;
  content->show_grid = TRUE;
  content->serial = self->serial;
  content->user_data = self;
  content->component_flags = component_flags;
  update_linked (self, content->circuit);
  if (self->show_labels)
    content->schematic_flags |= HYD_SCHEMATIC_SHOW_IDS | HYD_SCHEMATIC_SHOW_NAMES;
  if (is_live (self))
    {
      content->component_state = live_component_state;
      if (self->live_level)
        content->port_level = live_level;
      if (self->live_pressure)
        {
          content->schematic_flags |= HYD_SCHEMATIC_PRESSURE_COLOURS;
          content->port_pressure = live_port_pressure;
        }
    }
  else
    content->schematic_flags |= HYD_SCHEMATIC_FREE_PORT_MARKERS;
}

/* Where the symbol of a type sits relative to its position, so that a part
 * being placed is centred on the pointer (on the grid). */
static void
place_offset (HydCanvas *self, HydSymbol *sym, int rotation, gboolean mirror, double *dx, double *dy)
{
  *dx = *dy = 0;
  if (sym == NULL)
    return;
  HydSymbolPose pose;
  hyd_symbol_pose_init (&pose, 0, 0, rotation, mirror);
  HydRect b;
  hyd_symbol_placed_bounds (sym, &pose, &b);
  *dx = hyd_canvas_snap ((b.x0 + b.x1) / 2);
  *dy = hyd_canvas_snap ((b.y0 + b.y1) / 2);
}

static void
place_position (HydCanvas *self, const char *type, double wx, double wy, int rotation, gboolean mirror, double *x,
                double *y)
{
  HydSymbol *sym = self->library && type ? hyd_symbol_library_lookup (self->library, type) : NULL;
  double px, py, ox, oy;
  _hyd_canvas_widget_to_canvas (self, wx, wy, &px, &py);
  place_offset (self, sym, rotation, mirror, &ox, &oy);
  *x = hyd_canvas_snap (px) - ox;
  *y = hyd_canvas_snap (py) - oy;
}

static const char *
ghost_type (HydCanvas *self)
{
  if (self->drop_type)
    return self->drop_type;
  return self->place_type && self->pointer_inside ? self->place_type : NULL;
}

/* Whether the wire being drawn leaves a signal input: information flows
 * toward its start, so the preview's arrowhead points there. */
static gboolean
wire_starts_at_input (HydCanvas *self)
{
  g_autofree char *id = NULL, *port = NULL;
  if (self->wire_start_ref == NULL || self->scene == NULL
      || !hyd_circuit_split_port_ref (self->wire_start_ref, &id, &port))
    return FALSE;
  const HydCanvasSceneComponent *c = hyd_canvas_scene_find_component (self->scene, id);
  for (guint k = 0; c && c->type && k < c->type->n_ports; k++)
    if (strcmp (c->type->ports[k].name, port) == 0)
      return c->type->ports[k].direction == HYD_PORT_INPUT;
  return FALSE;
}

void
_hyd_canvas_fill_overlay (HydCanvas *self, HydCanvasOverlay *o)
{
  memset (o, 0, sizeof *o);
  o->hover = self->hover;
  o->selection = self->preview ? NULL : self->selection;
  o->selected_wires = (const guint *) self->selected_wires->data;
  o->n_selected_wires = self->preview ? 0 : self->selected_wires->len;
  o->highlight = self->highlight;
  o->wire_domain = -1;
  if (self->mode == MODE_BAND)
    {
      o->band = TRUE;
      o->band_rect = self->band;
      o->band_crossing = self->band_crossing;
    }
  if (self->mode == MODE_WIRE)
    {
      o->wire = self->wire_preview;
      o->wire_domain = self->wire_domain;
      if (self->wire_domain == HYD_DOMAIN_SIGNAL)
        o->wire_arrow = wire_starts_at_input (self) ? -1 : 1;
      o->port_markers = TRUE;
    }
  const char *type = ghost_type (self);
  if (type && self->library)
    {
      o->ghost = hyd_symbol_library_lookup (self->library, type);
      double x, y;
      place_position (self, type, self->pointer_wx, self->pointer_wy, self->place_rotation, self->place_mirror, &x,
                      &y);
      hyd_symbol_pose_init (&o->ghost_pose, x, y, self->place_rotation, self->place_mirror);
    }
  o->message = hyd_canvas_get_lock_message (self);
}

const char *
hyd_canvas_get_lock_message (HydCanvas *self)
{
  g_return_val_if_fail (HYD_IS_CANVAS (self), NULL);
  if (!is_locked (self))
    return NULL;
  return self->paused ? _("Paused — editing locked") : _("Running — editing locked");
}

/* GL renderers keep a texture on the GPU as long as it lives: the layer
 * goes to GSK as a texture, so panning moves a quad instead of uploading
 * the window's pixels every frame. The cairo renderer paints the layer
 * directly (a texture would be copied back to memory each frame). */
static gboolean
renderer_is_cairo (HydCanvas *self)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (self));
  GskRenderer *renderer = native ? gtk_native_get_renderer (native) : NULL;
  return renderer == NULL || GSK_IS_CAIRO_RENDERER (renderer);
}

static void
update_layer_texture (HydCanvas *self)
{
  cairo_surface_t *layer = self->view.layer;
  if (self->layer_texture && self->texture_renders == self->view.n_layer_renders)
    return;
  g_clear_object (&self->layer_texture);
  if (layer == NULL)
    return;
  int w = cairo_image_surface_get_width (layer), h = cairo_image_surface_get_height (layer);
  int stride = cairo_image_surface_get_stride (layer);
  /* the texture holds the surface: the view draws its next layer in a new one */
  g_autoptr (GBytes) bytes = g_bytes_new_with_free_func (cairo_image_surface_get_data (layer), (gsize) stride * h,
                                                         (GDestroyNotify) cairo_surface_destroy,
                                                         cairo_surface_reference (layer));
  self->layer_texture = gdk_memory_texture_new (w, h, GDK_MEMORY_DEFAULT, bytes, stride);
  self->texture_renders = self->view.n_layer_renders;
}

void
_hyd_canvas_draw_overlay (HydCanvas *self, cairo_t *cr)
{
  HydCanvasContent content;
  HydCanvasOverlay overlay;
  fill_content (self, &content);
  _hyd_canvas_fill_overlay (self, &overlay);
  hyd_canvas_view_draw_overlay (&self->view, cr, &content, self->scene, &overlay);
}

static void
hyd_canvas_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  HydCanvas *self = HYD_CANVAS (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  if (w <= 0 || h <= 0)
    return;
  self->view.width = w;
  self->view.height = h;
  self->view.scale = gtk_widget_get_scale_factor (widget);
  follow_theme (self);

  HydCanvasContent content;
  HydCanvasOverlay overlay;
  fill_content (self, &content);
  _hyd_canvas_fill_overlay (self, &overlay);
  gint64 t0 = g_get_monotonic_time ();
  if (renderer_is_cairo (self))
    {
      g_clear_object (&self->layer_texture);
      cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
      hyd_canvas_view_draw (&self->view, cr, &content, self->scene, &overlay);
      cairo_destroy (cr);
    }
  else
    {
      hyd_canvas_view_update_layer (&self->view, &content);
      update_layer_texture (self);
      HydRect r;
      hyd_canvas_view_layer_rect (&self->view, &r);
      gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
      if (self->layer_texture)
        gtk_snapshot_append_texture (snapshot, self->layer_texture,
                                     &GRAPHENE_RECT_INIT (r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0));
      /* the overlay as a cairo node no larger than what it covers */
      cairo_surface_t *rec = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
      cairo_t *rcr = cairo_create (rec);
      hyd_canvas_view_draw_overlay (&self->view, rcr, &content, self->scene, &overlay);
      cairo_destroy (rcr);
      double ex, ey, ew, eh;
      cairo_recording_surface_ink_extents (rec, &ex, &ey, &ew, &eh);
      double x0 = MAX (0, floor (ex)), y0 = MAX (0, floor (ey));
      double x1 = MIN (w, ceil (ex + ew)), y1 = MIN (h, ceil (ey + eh));
      if (ew > 0 && eh > 0 && x1 > x0 && y1 > y0)
        {
          cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (x0, y0, x1 - x0, y1 - y0));
          cairo_set_source_surface (cr, rec, 0, 0);
          cairo_paint (cr);
          cairo_destroy (cr);
        }
      cairo_surface_destroy (rec);
      gtk_snapshot_pop (snapshot);
    }
  if (g_getenv ("BRAMAH_CANVAS_STATS"))
    g_printerr ("canvas snapshot: %.2f ms (layer renders %u)\n", (g_get_monotonic_time () - t0) / 1000.0,
                self->view.n_layer_renders);
}

static void
hyd_canvas_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  HydCanvas *self = HYD_CANVAS (widget);
  gboolean resized = width != self->view.width || height != self->view.height;
  self->view.width = width;
  self->view.height = height;
  self->view.scale = gtk_widget_get_scale_factor (widget);

  /* while the window finds its size, the circuit stays fitted and centred */
  if ((self->fit_pending
       || (self->view_fitted && resized && g_get_monotonic_time () - self->fit_time < HYD_CANVAS_FIT_SETTLE_US))
      && width > 0 && height > 0)
    {
      hyd_canvas_zoom_to_fit (self);
      return;
    }
  /* later (the panel beside it grows, the plots below take more room): the
   * same zoom and origin, so every part stays where it is on the screen and
   * nothing moves under the pointer (the info and running bars float over
   * the schematic and never resize it) */
  if (resized)
    {
      self->view_fitted = FALSE;
      _hyd_canvas_view_changed (self);
    }
}

static void
hyd_canvas_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural,
                    int *minimum_baseline, int *natural_baseline)
{
  *minimum = 100;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 800 : 600;
}

static void
hyd_canvas_css_changed (GtkWidget *widget, GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (hyd_canvas_parent_class)->css_changed (widget, change);
  follow_theme (HYD_CANVAS (widget));
}

/* ---------------------------------------------------------------------------
 * View
 * ------------------------------------------------------------------------- */

void
_hyd_canvas_view_changed (HydCanvas *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
  _hyd_canvas_update_hover (self);
}

static gboolean
zoom_settled (gpointer data)
{
  HydCanvas *self = data;
  self->settle_id = 0;
  self->view.zooming = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return G_SOURCE_REMOVE;
}

/* A zoom step of a gesture: show the layer scaled until it settles. */
void
_hyd_canvas_zoom_interactive (HydCanvas *self, double zoom, double wx, double wy)
{
  self->view_fitted = FALSE;
  double old = self->view.zoom;
  hyd_canvas_view_zoom_at (&self->view, zoom, wx, wy);
  if (self->view.zoom == old)
    return;
  self->view.zooming = TRUE;
  g_clear_handle_id (&self->settle_id, g_source_remove);
  self->settle_id = g_timeout_add (HYD_CANVAS_ZOOM_SETTLE_MS, zoom_settled, self);
  _hyd_canvas_view_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

void
_hyd_canvas_zoom_about (HydCanvas *self, double zoom)
{
  self->view_fitted = FALSE;
  double wx = self->view.width / 2.0, wy = self->view.height / 2.0;
  if (self->pointer_inside)
    {
      wx = self->pointer_wx;
      wy = self->pointer_wy;
    }
  double old = self->view.zoom;
  hyd_canvas_view_zoom_at (&self->view, zoom, wx, wy);
  if (self->view.zoom != old)
    {
      _hyd_canvas_view_changed (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
    }
}

void
hyd_canvas_zoom_to_fit (HydCanvas *self)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  int w = gtk_widget_get_width (GTK_WIDGET (self)), h = gtk_widget_get_height (GTK_WIDGET (self));
  if (w <= 0 || h <= 0)
    {
      self->fit_pending = TRUE;
      return;
    }
  self->fit_pending = FALSE;
  self->view_fitted = TRUE;
  self->fit_time = g_get_monotonic_time ();
  self->view.width = w;
  self->view.height = h;
  HydRect r;
  gboolean have = FALSE;
  const HydCircuit *c = shown_circuit (self);
  if (c && (c->components->len || c->junctions->len))
    {
      HydSchematicOptions opts;
      hyd_schematic_options_init (&opts);
      opts.library = self->library;
      if (!self->show_labels)
        opts.flags = 0;
      hyd_schematic_get_bounds (c, &opts, &r);
      have = TRUE;
    }
  if (have && h > HYD_CANVAS_FIT_TOP_INSET + 4 * HYD_CANVAS_FIT_MARGIN)
    {
      /* fitted below a strip at the top, where the info and running bars
       * float: they never cover the circuit as first shown */
      self->view.height = h - HYD_CANVAS_FIT_TOP_INSET;
      hyd_canvas_view_fit (&self->view, &r, HYD_CANVAS_FIT_MARGIN, HYD_CANVAS_FIT_MAX_ZOOM);
      self->view.height = h;
      self->view.oy -= HYD_CANVAS_FIT_TOP_INSET / self->view.zoom;
      hyd_canvas_view_align (&self->view);
    }
  else if (have)
    hyd_canvas_view_fit (&self->view, &r, HYD_CANVAS_FIT_MARGIN, HYD_CANVAS_FIT_MAX_ZOOM);
  else
    {
      /* an empty page: 100 %, the origin near the top left */
      self->view.zoom = 1.0;
      self->view.ox = -4 * HYD_CANVAS_GRID;
      self->view.oy = -4 * HYD_CANVAS_GRID;
    }
  _hyd_canvas_view_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

void
hyd_canvas_set_zoom (HydCanvas *self, double zoom)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  g_return_if_fail (zoom > 0);
  self->view_fitted = FALSE;
  double old = self->view.zoom;
  hyd_canvas_view_zoom_at (&self->view, zoom, self->view.width / 2.0, self->view.height / 2.0);
  if (old != self->view.zoom)
    {
      _hyd_canvas_view_changed (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
    }
}

double
hyd_canvas_get_zoom (HydCanvas *self)
{
  g_return_val_if_fail (HYD_IS_CANVAS (self), 1.0);
  return self->view.zoom;
}

void
hyd_canvas_set_show_labels (HydCanvas *self, gboolean show)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  show = !!show;
  if (self->show_labels == (guint) show)
    return;
  self->show_labels = show;
  redraw_layer (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_LABELS]);
}

gboolean
hyd_canvas_get_show_labels (HydCanvas *self)
{
  g_return_val_if_fail (HYD_IS_CANVAS (self), FALSE);
  return self->show_labels;
}

void
hyd_canvas_set_dark (HydCanvas *self, gboolean dark)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  self->dark_explicit = TRUE;
  dark = !!dark;
  if (self->dark == (guint) dark)
    return;
  self->dark = dark;
  style_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DARK]);
}

gboolean
hyd_canvas_get_dark (HydCanvas *self)
{
  g_return_val_if_fail (HYD_IS_CANVAS (self), FALSE);
  return self->dark;
}

void
hyd_canvas_widget_to_doc (HydCanvas *self, double wx, double wy, double *x, double *y)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  hyd_canvas_view_to_canvas (&self->view, wx, wy, x, y);
}

void
hyd_canvas_doc_to_widget (HydCanvas *self, double x, double y, double *wx, double *wy)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  hyd_canvas_view_to_widget (&self->view, x, y, wx, wy);
}

/* ---------------------------------------------------------------------------
 * Tools
 * ------------------------------------------------------------------------- */

void
hyd_canvas_set_tool (HydCanvas *self, HydCanvasTool tool)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  g_return_if_fail (tool <= HYD_CANVAS_TOOL_PROBE);
  if (self->mode == MODE_WIRE)
    _hyd_canvas_cancel_gesture (self);
  g_clear_pointer (&self->place_type, g_free);
  if (self->tool == tool)
    {
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  self->tool = tool;
  set_cursor (self, tool == HYD_CANVAS_TOOL_SELECT ? "default" : "crosshair");
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOL]);
}

HydCanvasTool
hyd_canvas_get_tool (HydCanvas *self)
{
  g_return_val_if_fail (HYD_IS_CANVAS (self), HYD_CANVAS_TOOL_SELECT);
  return self->tool;
}

static void
remember_pose (HydCanvas *self, const char *type)
{
  g_hash_table_insert (self->place_poses, g_strdup (type),
                       GINT_TO_POINTER (1 + self->place_rotation / 90 + (self->place_mirror ? 4 : 0)));
}

void
_hyd_canvas_recall_pose (HydCanvas *self, const char *type)
{
  int v = GPOINTER_TO_INT (g_hash_table_lookup (self->place_poses, type));
  /* symbols are drawn the way textbooks show them: upright by default */
  self->place_rotation = v ? ((v - 1) % 4) * 90 : 0;
  self->place_mirror = v ? (v - 1) >= 4 : FALSE;
}

const char *
hyd_canvas_get_place_type (HydCanvas *self)
{
  g_return_val_if_fail (HYD_IS_CANVAS (self), NULL);
  return self->place_type;
}

void
hyd_canvas_begin_place (HydCanvas *self, const char *type_id)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  if (!_hyd_canvas_can_edit (self) || type_id == NULL || hyd_catalogue_lookup (type_id) == NULL)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  _hyd_canvas_cancel_gesture (self);
  g_free (self->place_type);
  self->place_type = g_strdup (type_id);
  _hyd_canvas_recall_pose (self, type_id);
  set_cursor (self, "crosshair");
  _hyd_canvas_update_actions (self);
  gtk_widget_grab_focus (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

char *
_hyd_canvas_place_at (HydCanvas *self, const char *type, double wx, double wy)
{
  double x, y;
  place_position (self, type, wx, wy, self->place_rotation, self->place_mirror, &x, &y);
  char *id = hyd_canvas_edit_place (self->document, type, x, y, self->place_rotation, self->place_mirror);
  if (id == NULL)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return NULL;
    }
  remember_pose (self, type);
  _hyd_canvas_select_only (self, id);
  _hyd_canvas_selection_changed (self);
  return id;
}

/* ---------------------------------------------------------------------------
 * Hover
 * ------------------------------------------------------------------------- */

static guint
hover_kinds (HydCanvas *self)
{
  if (self->place_type || self->drop_type || self->mode == MODE_MOVE || self->mode == MODE_BAND
      || self->mode == MODE_PAN)
    return HYD_CANVAS_HIT_NONE;
  if (self->mode == MODE_WIRE || self->tool == HYD_CANVAS_TOOL_WIRE)
    return HYD_CANVAS_HIT_PORT | HYD_CANVAS_HIT_JUNCTION | HYD_CANVAS_HIT_WIRE;
  if (is_locked (self) && self->tool == HYD_CANVAS_TOOL_SELECT)
    return HYD_CANVAS_HIT_COMPONENT | HYD_CANVAS_HIT_WIRE;
  return HYD_CANVAS_HIT_ALL;
}

static char *
hit_key (const HydCanvasHit *h)
{
  switch (h->kind)
    {
    case HYD_CANVAS_HIT_NONE:
      return NULL;
    case HYD_CANVAS_HIT_WIRE:
      return g_strdup_printf ("w%u", h->wire);
    default:
      return g_strdup_printf ("%d:%s.%s", h->kind, h->id ? h->id : "", h->port ? h->port : "");
    }
}

void
_hyd_canvas_update_cursor (HydCanvas *self)
{
  const char *name = "default";
  if (self->mode == MODE_PAN)
    name = "grabbing";
  else if (self->space_down)
    name = "grab";
  else if (self->mode == MODE_MOVE)
    name = "move";
  else if (self->place_type || self->mode == MODE_WIRE || self->tool != HYD_CANVAS_TOOL_SELECT)
    name = "crosshair";
  else if (self->hover.kind == HYD_CANVAS_HIT_PORT && _hyd_canvas_can_edit (self))
    name = "crosshair";
  else if ((self->hover.kind == HYD_CANVAS_HIT_COMPONENT || self->hover.kind == HYD_CANVAS_HIT_JUNCTION)
           && _hyd_canvas_can_edit (self))
    name = "pointer";
  set_cursor (self, name);
}

void
_hyd_canvas_update_hover (HydCanvas *self)
{
  HydCanvasHit hit = { 0 };
  guint kinds = hover_kinds (self);
  if (self->scene && self->pointer_inside && kinds)
    {
      double x, y;
      _hyd_canvas_widget_to_canvas (self, self->pointer_wx, self->pointer_wy, &x, &y);
      hyd_canvas_scene_hit (self->scene, x, y, _hyd_canvas_pixel (self), kinds, &hit);
    }
  g_autofree char *key = hit_key (&hit);
  self->hover = hit;
  if (g_strcmp0 (key, self->hover_key) != 0)
    {
      g_free (self->hover_key);
      self->hover_key = g_steal_pointer (&key);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  _hyd_canvas_update_cursor (self);
}

/* ---------------------------------------------------------------------------
 * Public API: selection, checks, highlight
 * ------------------------------------------------------------------------- */

GStrv
hyd_canvas_get_selection (HydCanvas *self)
{
  g_return_val_if_fail (HYD_IS_CANVAS (self), NULL);
  return _hyd_canvas_selection_ids (self);
}

void
hyd_canvas_set_selection (HydCanvas *self, const char *const *ids)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  _hyd_canvas_select_ids (self, ids);
  prune_selection (self);
  _hyd_canvas_selection_changed (self);
}

guint *
hyd_canvas_get_selected_wires (HydCanvas *self, guint *n_wires)
{
  g_return_val_if_fail (HYD_IS_CANVAS (self), NULL);
  if (n_wires)
    *n_wires = self->selected_wires->len;
  return g_memdup2 (self->selected_wires->data, MAX (self->selected_wires->len, 1) * sizeof (guint));
}

void
hyd_canvas_select_all (HydCanvas *self)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  const HydCircuit *c = self->document ? hyd_document_get_circuit (self->document) : NULL;
  _hyd_canvas_select_only (self, NULL);
  for (guint i = 0; c && i < c->components->len; i++)
    g_hash_table_add (self->selection, g_strdup (((HydCircuitComponent *) g_ptr_array_index (c->components, i))->id));
  for (guint i = 0; c && i < c->junctions->len; i++)
    g_hash_table_add (self->selection, g_strdup (((HydCircuitJunction *) g_ptr_array_index (c->junctions, i))->id));
  for (guint i = 0; c && i < c->connections->len; i++)
    _hyd_canvas_select_wire (self, i, TRUE);
  _hyd_canvas_selection_changed (self);
}

GStrv
hyd_canvas_check (HydCanvas *self)
{
  g_return_val_if_fail (HYD_IS_CANVAS (self), NULL);
  if (self->document == NULL)
    return NULL;
  g_autoptr (HydCanvasScene) scene = hyd_canvas_scene_new (hyd_document_get_circuit (self->document), self->library);
  return hyd_canvas_scene_check (scene);
}

void
hyd_canvas_set_highlight (HydCanvas *self, const char *const *ids)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  g_hash_table_remove_all (self->highlight);
  for (guint k = 0; ids && ids[k]; k++)
    g_hash_table_add (self->highlight, g_strdup (ids[k]));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Heat-map levels ride in the highlight table's values: a plain highlight
 * is stored as a set entry (value == key), a level as 1 + 1000·level
 * (never a heap address); hyd_canvas_highlight_level_of (hyd-canvas-view.h)
 * decodes it. */
void
hyd_canvas_set_highlight_levels (HydCanvas *self, const char *const *ids, const double *levels)
{
  g_return_if_fail (HYD_IS_CANVAS (self));
  g_hash_table_remove_all (self->highlight);
  for (guint k = 0; ids && ids[k]; k++)
    {
      double l = levels != NULL && isfinite (levels[k]) ? CLAMP (levels[k], 0.0, 1.0) : 1.0;
      g_hash_table_insert (self->highlight, g_strdup (ids[k]), GUINT_TO_POINTER (1 + (guint) lround (1000.0 * l)));
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
hyd_canvas_get_highlight_level (HydCanvas *self, const char *id)
{
  g_return_val_if_fail (HYD_IS_CANVAS (self), -1.0);
  gpointer key, value;
  if (id == NULL || !g_hash_table_lookup_extended (self->highlight, id, &key, &value))
    return -1.0;
  return hyd_canvas_highlight_level_of (key, value);
}

static int
compare_strings (const void *a, const void *b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

GStrv
hyd_canvas_dup_highlight (HydCanvas *self)
{
  g_return_val_if_fail (HYD_IS_CANVAS (self), NULL);
  if (g_hash_table_size (self->highlight) == 0)
    return NULL;
  guint n = 0;
  g_autofree gpointer *keys = g_hash_table_get_keys_as_array (self->highlight, &n);
  GStrv ids = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    ids[i] = g_strdup (keys[i]);
  qsort (ids, n, sizeof (char *), compare_strings);
  return ids;
}

HydCanvasView *
_hyd_canvas_get_view (HydCanvas *self)
{
  return &self->view;
}

/* ---------------------------------------------------------------------------
 * GObject
 * ------------------------------------------------------------------------- */

static void
hyd_canvas_dispose (GObject *object)
{
  HydCanvas *self = HYD_CANVAS (object);
  if (self->document)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_clear_object (&self->document);
  g_clear_object (&self->preview);
  g_clear_object (&self->layer_texture);
  g_clear_handle_id (&self->settle_id, g_source_remove);
  if (self->live_destroy)
    self->live_destroy (self->live_data);
  self->live_destroy = NULL;
  self->live_pressure = NULL;
  self->live_variable = NULL;
  self->live_level = NULL;
  G_OBJECT_CLASS (hyd_canvas_parent_class)->dispose (object);
}

static void
hyd_canvas_finalize (GObject *object)
{
  HydCanvas *self = HYD_CANVAS (object);
  g_clear_pointer (&self->scene, hyd_canvas_scene_free);
  hyd_canvas_view_clear (&self->view);
  g_hash_table_unref (self->selection);
  g_hash_table_unref (self->linked);
  g_array_unref (self->selected_wires);
  g_ptr_array_unref (self->selected_wire_keys);
  g_hash_table_unref (self->highlight);
  g_hash_table_unref (self->place_poses);
  g_free (self->place_type);
  g_free (self->drop_type);
  g_free (self->hover_key);
  g_free (self->press_id);
  g_free (self->press_port);
  g_strfreev (self->move_ids);
  g_array_unref (self->wire_vertices);
  g_array_unref (self->wire_preview);
  g_free (self->wire_start_ref);
  G_OBJECT_CLASS (hyd_canvas_parent_class)->finalize (object);
}

static void
hyd_canvas_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  HydCanvas *self = HYD_CANVAS (object);
  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_TOOL:
      g_value_set_enum (value, self->tool);
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->view.zoom);
      break;
    case PROP_SHOW_LABELS:
      g_value_set_boolean (value, self->show_labels);
      break;
    case PROP_DARK:
      g_value_set_boolean (value, self->dark);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hyd_canvas_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  HydCanvas *self = HYD_CANVAS (object);
  switch (prop_id)
    {
    case PROP_DOCUMENT:
      hyd_canvas_set_document (self, g_value_get_object (value));
      break;
    case PROP_TOOL:
      hyd_canvas_set_tool (self, g_value_get_enum (value));
      break;
    case PROP_ZOOM:
      hyd_canvas_set_zoom (self, g_value_get_double (value));
      break;
    case PROP_SHOW_LABELS:
      hyd_canvas_set_show_labels (self, g_value_get_boolean (value));
      break;
    case PROP_DARK:
      hyd_canvas_set_dark (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hyd_canvas_class_init (HydCanvasClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hyd_canvas_dispose;
  object_class->finalize = hyd_canvas_finalize;
  object_class->get_property = hyd_canvas_get_property;
  object_class->set_property = hyd_canvas_set_property;
  widget_class->snapshot = hyd_canvas_snapshot;
  widget_class->size_allocate = hyd_canvas_size_allocate;
  widget_class->measure = hyd_canvas_measure;
  widget_class->css_changed = hyd_canvas_css_changed;

  properties[PROP_DOCUMENT] = g_param_spec_object ("document", NULL, NULL, HYD_TYPE_DOCUMENT,
                                                   G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                   | G_PARAM_STATIC_STRINGS);
  properties[PROP_TOOL] = g_param_spec_enum ("tool", NULL, NULL, HYD_TYPE_CANVAS_TOOL, HYD_CANVAS_TOOL_SELECT,
                                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM] = g_param_spec_double ("zoom", NULL, NULL, HYD_CANVAS_ZOOM_MIN, HYD_CANVAS_ZOOM_MAX, 1.0,
                                               G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_LABELS] = g_param_spec_boolean ("show-labels", NULL, NULL, TRUE,
                                                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                       | G_PARAM_STATIC_STRINGS);
  properties[PROP_DARK] = g_param_spec_boolean ("dark", NULL, NULL, FALSE,
                                                G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_SELECTION_CHANGED] = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass),
                                                    G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_PROBE] = g_signal_new ("probe", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_COMPONENT_ACTIVATED] = g_signal_new ("component-activated", G_TYPE_FROM_CLASS (klass),
                                                      G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                                      G_TYPE_STRING);

  _hyd_canvas_class_init_actions (widget_class);

  gtk_widget_class_set_css_name (widget_class, "hydcanvas");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
hyd_canvas_init (HydCanvas *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  hyd_canvas_view_init (&self->view);
  hyd_symbol_style_init_light (&self->style);
  self->library = hyd_symbol_library_get_default (NULL);
  self->show_labels = TRUE;
  self->selection = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->linked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->selected_wires = g_array_new (FALSE, FALSE, sizeof (guint));
  self->selected_wire_keys = g_ptr_array_new_with_free_func (g_free);
  self->highlight = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->place_poses = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->wire_vertices = g_array_new (FALSE, FALSE, sizeof (double));
  self->wire_preview = g_array_new (FALSE, FALSE, sizeof (double));
  self->wire_domain = -1;
  self->fit_pending = TRUE;

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_has_tooltip (widget, TRUE);

  _hyd_canvas_init_input (self);

  _hyd_canvas_update_actions (self);
}

GtkWidget *
hyd_canvas_new (void)
{
  return g_object_new (HYD_TYPE_CANVAS, NULL);
}
