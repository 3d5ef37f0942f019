/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-palette.c — the component palette. */
#define G_LOG_DOMAIN "hyd-palette"

#include "bramah-config.h"
#include "hyd-palette.h"

#include <glib/gi18n.h>
#include <string.h>
#include "hyd-catalogue.h"
#include "hyd-help-text.h"
#include "hyd-ui-util.h"

#define PREVIEW_WIDTH 52
#define PREVIEW_HEIGHT 36
#define PREVIEW_MAX_MODULE 7

struct _HydPalette
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *box;
  GtkSearchEntry *search_entry;
  GtkBox *categories_box;
  GtkWidget *empty_label;
  GMenuModel *entry_menu;

  /* Owned */
  GtkWidget *entry_menu_popover;
  char *context_type_id;

  /* The categories the catalogue uses, in the enum's order (values
   * appended to HydCategory later come last, with no change here), and
   * per category its heading and list (borrowed) */
  GArray *categories;        /* of HydCategory */
  GPtrArray *headings;
  GPtrArray *lists;
};

G_DEFINE_FINAL_TYPE (HydPalette, hyd_palette, GTK_TYPE_WIDGET)

enum {
  SIGNAL_TYPE_ACTIVATED,
  SIGNAL_HELP_REQUESTED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static const char *
row_type_id (GtkWidget *row)
{
  return g_object_get_data (G_OBJECT (row), "hyd-type-id");
}

static gboolean
type_matches (HydPalette *self, const HydComponentType *type)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  if (text == NULL || *text == '\0')
    return TRUE;
  g_autofree char *needle = g_utf8_casefold (text, -1);
  g_autofree char *label = g_utf8_casefold (hyd_help_type_label (type), -1);
  g_autofree char *category = g_utf8_casefold (hyd_help_category_title (type->category), -1);
  g_autofree char *english = g_utf8_casefold (type->label, -1);
  return strstr (label, needle) || strstr (english, needle) || strstr (type->id, needle)
         || strstr (category, needle);
}

static gboolean
filter_func (GtkListBoxRow *row, gpointer user_data)
{
  HydPalette *self = user_data;
  const HydComponentType *type = hyd_catalogue_lookup (row_type_id (GTK_WIDGET (row)));
  return type != NULL && type_matches (self, type);
}

static void
search_changed_cb (HydPalette *self, GtkSearchEntry *entry)
{
  guint total = 0;
  guint n_types;
  const HydComponentType *const *types = hyd_catalogue_list (&n_types);
  for (guint c = 0; c < self->categories->len; c++)
    {
      guint matches = 0;
      for (guint i = 0; i < n_types; i++)
        if (types[i]->category == g_array_index (self->categories, HydCategory, c) && type_matches (self, types[i]))
          matches++;
      gtk_list_box_invalidate_filter (g_ptr_array_index (self->lists, c));
      gtk_widget_set_visible (g_ptr_array_index (self->headings, c), matches > 0);
      gtk_widget_set_visible (g_ptr_array_index (self->lists, c), matches > 0);
      total += matches;
    }
  gtk_widget_set_visible (self->empty_label, total == 0);
}

static void
search_activate_cb (HydPalette *self, GtkSearchEntry *entry)
{
  g_auto (GStrv) visible = hyd_palette_dup_visible_types (self);
  if (visible && visible[0])
    g_signal_emit (self, signals[SIGNAL_TYPE_ACTIVATED], 0, visible[0]);
}

static void
stop_search_cb (HydPalette *self, GtkSearchEntry *entry)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
}

static void
row_activated_cb (GtkListBox *list, GtkListBoxRow *row, HydPalette *self)
{
  g_signal_emit (self, signals[SIGNAL_TYPE_ACTIVATED], 0, row_type_id (GTK_WIDGET (row)));
}

static GdkContentProvider *
drag_prepare_cb (GtkDragSource *source, double x, double y, GtkWidget *row)
{
  return gdk_content_provider_new_typed (G_TYPE_STRING, row_type_id (row));
}

static void
drag_begin_cb (GtkDragSource *source, GdkDrag *drag, GtkWidget *row)
{
  GtkWidget *preview = g_object_get_data (G_OBJECT (row), "hyd-preview");
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (preview);
  gtk_drag_source_set_icon (source, paintable, PREVIEW_WIDTH / 2, PREVIEW_HEIGHT / 2);
}

static void
context_pressed_cb (GtkGestureClick *gesture, int n_press, double x, double y, GtkWidget *row)
{
  HydPalette *self = HYD_PALETTE (gtk_widget_get_ancestor (row, HYD_TYPE_PALETTE));
  graphene_point_t in_row = GRAPHENE_POINT_INIT (x, y), in_self;

  g_free (self->context_type_id);
  self->context_type_id = g_strdup (row_type_id (row));
  if (!gtk_widget_compute_point (row, GTK_WIDGET (self), &in_row, &in_self))
    in_self = in_row;
  gtk_popover_set_pointing_to (GTK_POPOVER (self->entry_menu_popover),
                               &(GdkRectangle) { (int) in_self.x, (int) in_self.y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->entry_menu_popover));
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static GtkWidget *
create_row (HydPalette *self, const HydComponentType *type)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  GtkWidget *preview
      = hyd_ui_symbol_preview_new (type->id, PREVIEW_WIDTH, PREVIEW_HEIGHT, PREVIEW_MAX_MODULE);
  gtk_box_append (GTK_BOX (box), preview);
  GtkWidget *label = gtk_label_new (hyd_help_type_label (type));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  /* wrap between words only: a long German compound ("Druckbegrenzungsventil")
   * stays whole (the label asks for its width) rather than being cut into
   * "Druckbegrenzungsven-til" */
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 18);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (box), label);

  GtkWidget *row = gtk_list_box_row_new ();
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_widget_add_css_class (row, "palette-entry");
  g_object_set_data_full (G_OBJECT (row), "hyd-type-id", g_strdup (type->id), g_free);
  g_object_set_data (G_OBJECT (row), "hyd-preview", preview);

  g_autofree char *label_text = g_markup_escape_text (hyd_help_type_label (type), -1);
  g_autofree char *description = g_markup_escape_text (type->description ? _(type->description) : "", -1);
  g_autofree char *tooltip = g_strdup_printf (_("<b>%s</b>\n%s\n<i>Click, then click on the schematic "
                                                "to place it, or drag it there. Right-click for help.</i>"),
                                              label_text, description);
  gtk_widget_set_tooltip_markup (row, tooltip);

  GtkDragSource *drag = gtk_drag_source_new ();
  gtk_drag_source_set_actions (drag, GDK_ACTION_COPY);
  g_signal_connect (drag, "prepare", G_CALLBACK (drag_prepare_cb), row);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), row);
  gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (drag));

  GtkGesture *context = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (context), GDK_BUTTON_SECONDARY);
  g_signal_connect (context, "pressed", G_CALLBACK (context_pressed_cb), row);
  gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (context));
  return row;
}

static void
place_action (GtkWidget *widget, const char *action_name, GVariant *param)
{
  HydPalette *self = HYD_PALETTE (widget);
  if (self->context_type_id)
    g_signal_emit (self, signals[SIGNAL_TYPE_ACTIVATED], 0, self->context_type_id);
}

static void
help_action (GtkWidget *widget, const char *action_name, GVariant *param)
{
  HydPalette *self = HYD_PALETTE (widget);
  if (self->context_type_id)
    g_signal_emit (self, signals[SIGNAL_HELP_REQUESTED], 0, self->context_type_id);
}

static void
hyd_palette_dispose (GObject *object)
{
  HydPalette *self = HYD_PALETTE (object);
  g_clear_pointer (&self->entry_menu_popover, gtk_widget_unparent);
  gtk_widget_dispose_template (GTK_WIDGET (self), HYD_TYPE_PALETTE);
  G_OBJECT_CLASS (hyd_palette_parent_class)->dispose (object);
}

static void
hyd_palette_finalize (GObject *object)
{
  HydPalette *self = HYD_PALETTE (object);
  g_clear_pointer (&self->context_type_id, g_free);
  g_clear_pointer (&self->categories, g_array_unref);
  g_clear_pointer (&self->headings, g_ptr_array_unref);
  g_clear_pointer (&self->lists, g_ptr_array_unref);
  G_OBJECT_CLASS (hyd_palette_parent_class)->finalize (object);
}

static void
hyd_palette_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  HydPalette *self = HYD_PALETTE (widget);
  GTK_WIDGET_CLASS (hyd_palette_parent_class)->size_allocate (widget, width, height, baseline);
  if (self->entry_menu_popover)
    gtk_popover_present (GTK_POPOVER (self->entry_menu_popover));
}

static void
hyd_palette_class_init (HydPaletteClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hyd_palette_dispose;
  object_class->finalize = hyd_palette_finalize;
  widget_class->size_allocate = hyd_palette_size_allocate;

  /**
   * HydPalette::type-activated:
   * @type_id: the component type to place
   *
   * An entry was clicked (or chosen with Enter in the search).
   */
  signals[SIGNAL_TYPE_ACTIVATED] =
    g_signal_new ("type-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
  /**
   * HydPalette::help-requested:
   * @type_id: the component type
   *
   * "Component Help" was chosen from an entry's context menu.
   */
  signals[SIGNAL_HELP_REQUESTED] =
    g_signal_new ("help-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, BRAMAH_RESOURCE_PREFIX "/ui/hyd-palette.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "palette");
  gtk_widget_class_bind_template_child (widget_class, HydPalette, box);
  gtk_widget_class_bind_template_child (widget_class, HydPalette, search_entry);
  gtk_widget_class_bind_template_child (widget_class, HydPalette, categories_box);
  gtk_widget_class_bind_template_child (widget_class, HydPalette, empty_label);
  gtk_widget_class_bind_template_child (widget_class, HydPalette, entry_menu);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);

  gtk_widget_class_install_action (widget_class, "palette.place", NULL, place_action);
  gtk_widget_class_install_action (widget_class, "palette.help", NULL, help_action);
}

static void
hyd_palette_init (HydPalette *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  guint n_types;
  const HydComponentType *const *types = hyd_catalogue_list (&n_types);
  self->categories = hyd_help_categories (types, n_types);
  self->headings = g_ptr_array_new ();
  self->lists = g_ptr_array_new ();

  for (guint c = 0; c < self->categories->len; c++)
    {
      GtkWidget *heading = gtk_label_new (hyd_help_category_title (g_array_index (self->categories, HydCategory, c)));
      gtk_label_set_xalign (GTK_LABEL (heading), 0);
      gtk_widget_add_css_class (heading, "palette-heading");
      gtk_box_append (self->categories_box, heading);
      g_ptr_array_add (self->headings, heading);

      GtkWidget *list = gtk_list_box_new ();
      gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
      gtk_list_box_set_activate_on_single_click (GTK_LIST_BOX (list), TRUE);
      gtk_list_box_set_filter_func (GTK_LIST_BOX (list), filter_func, self, NULL);
      gtk_widget_add_css_class (list, "palette-list");
      g_signal_connect (list, "row-activated", G_CALLBACK (row_activated_cb), self);
      gtk_box_append (self->categories_box, list);
      g_ptr_array_add (self->lists, list);
    }

  for (guint i = 0; i < n_types; i++)
    for (guint c = 0; c < self->categories->len; c++)
      if (g_array_index (self->categories, HydCategory, c) == types[i]->category)
        gtk_list_box_append (g_ptr_array_index (self->lists, c), create_row (self, types[i]));

  self->entry_menu_popover = gtk_popover_menu_new_from_model (self->entry_menu);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->entry_menu_popover), FALSE);
  gtk_widget_set_halign (self->entry_menu_popover, GTK_ALIGN_START);
  gtk_widget_set_parent (self->entry_menu_popover, GTK_WIDGET (self));
}

GtkWidget *
hyd_palette_new (void)
{
  return g_object_new (HYD_TYPE_PALETTE, NULL);
}

void
hyd_palette_focus_search (HydPalette *self)
{
  g_return_if_fail (HYD_IS_PALETTE (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

GStrv
hyd_palette_dup_visible_types (HydPalette *self)
{
  g_return_val_if_fail (HYD_IS_PALETTE (self), NULL);
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  for (guint c = 0; c < self->lists->len; c++)
    for (GtkWidget *row = gtk_widget_get_first_child (g_ptr_array_index (self->lists, c));
         row != NULL;
         row = gtk_widget_get_next_sibling (row))
      {
        const char *type_id = row_type_id (row);
        const HydComponentType *type = type_id ? hyd_catalogue_lookup (type_id) : NULL;
        if (type && type_matches (self, type))
          g_strv_builder_add (builder, type_id);
      }
  return g_strv_builder_end (builder);
}

GtkWidget *
hyd_palette_get_entry (HydPalette *self, const char *type_id)
{
  g_return_val_if_fail (HYD_IS_PALETTE (self), NULL);
  for (guint c = 0; c < self->lists->len; c++)
    for (GtkWidget *row = gtk_widget_get_first_child (g_ptr_array_index (self->lists, c));
         row != NULL;
         row = gtk_widget_get_next_sibling (row))
      if (g_strcmp0 (row_type_id (row), type_id) == 0)
        return row;
  return NULL;
}

void
hyd_palette_set_sensitive_entries (HydPalette *self, gboolean sensitive)
{
  g_return_if_fail (HYD_IS_PALETTE (self));
  for (guint c = 0; c < self->lists->len; c++)
    gtk_widget_set_sensitive (g_ptr_array_index (self->lists, c), sensitive);
}
