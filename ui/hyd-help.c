/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-help.c — the component help window. */
#define G_LOG_DOMAIN "hyd-help"

#include "bramah-config.h"
#include "hyd-help.h"

#include <glib/gi18n.h>
#include <string.h>
#include "hyd-catalogue.h"
#include "hyd-help-text.h"
#include "hyd-ui-util.h"

struct _HydHelpWindow
{
  GtkWindow parent_instance;

  /* Template widgets */
  GtkSearchEntry *search_entry;
  GtkListBox *type_list;
  GtkScrolledWindow *page_scroller;
  GtkDrawingArea *symbol_area;
  GtkLabel *title_label;
  GtkLabel *subtitle_label;
  GtkLabel *description_label;
  GtkGrid *ports_grid;
  GtkGrid *params_grid;
  GtkWidget *ports_heading;
  GtkWidget *params_heading;

  /* Owned */
  char *type_id;
};

G_DEFINE_FINAL_TYPE (HydHelpWindow, hyd_help_window, GTK_TYPE_WINDOW)

static HydHelpWindow *the_help_window;

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

static GtkWidget *
cell (const char *text, gboolean wrap, const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (wrap)
    {
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 48);
      gtk_widget_set_hexpand (label, TRUE);
    }
  if (css_class)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static gboolean
is_fluid_page (const char *id)
{
  return g_strcmp0 (id, HYD_HELP_PAGE_FLUID) == 0;
}

static void
symbol_draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  HydHelpWindow *self = user_data;
  if (self->type_id == NULL || is_fluid_page (self->type_id))
    return;
  hyd_ui_draw_symbol_preview (GTK_WIDGET (area), cr, self->type_id, width, height, 14);
}

static void
show_component_parts (HydHelpWindow *self, gboolean visible)
{
  gtk_widget_set_visible (GTK_WIDGET (self->symbol_area), visible);
  gtk_widget_set_visible (self->ports_heading, visible);
  gtk_widget_set_visible (GTK_WIDGET (self->ports_grid), visible);
  gtk_widget_set_visible (self->params_heading, visible);
  gtk_widget_set_visible (GTK_WIDGET (self->params_grid), visible);
}

/* The page on the fluid models: the text of hyd_help_fluid_dup_text, its
 * first two lines as title and subtitle. */
static void
fill_fluid_page (HydHelpWindow *self)
{
  g_autofree char *text = hyd_help_fluid_dup_text ();
  g_auto (GStrv) parts = g_strsplit (text, "\n", 3);
  show_component_parts (self, FALSE);
  gtk_label_set_text (self->title_label, parts[0] ? parts[0] : "");
  gtk_label_set_text (self->subtitle_label, parts[0] && parts[1] ? parts[1] : "");
  g_autofree char *body = g_strstrip (g_strdup (parts[0] && parts[1] && parts[2] ? parts[2] : ""));
  gtk_label_set_text (self->description_label, body);
  clear_grid (self->ports_grid);
  clear_grid (self->params_grid);
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (self->page_scroller);
  gtk_adjustment_set_value (adj, 0);
}

static void
fill_page (HydHelpWindow *self, const HydComponentType *type)
{
  show_component_parts (self, TRUE);
  gtk_label_set_text (self->title_label, hyd_help_type_label (type));
  g_autofree char *subtitle
      = type->iso_symbol ? g_strdup_printf ("%s · %s · %s", type->id,
                                            hyd_help_category_title (type->category), _ (type->iso_symbol))
                         : g_strdup_printf ("%s · %s", type->id, hyd_help_category_title (type->category));
  gtk_label_set_text (self->subtitle_label, subtitle);
  gtk_label_set_text (self->description_label, type->description ? _(type->description) : "");
  gtk_widget_queue_draw (GTK_WIDGET (self->symbol_area));

  clear_grid (self->ports_grid);
  for (guint i = 0; i < type->n_ports; i++)
    {
      const HydPortInfo *port = &type->ports[i];
      g_autofree char *desc = g_strdup_printf ("%s%s", port->description ? _(port->description) : "",
                                               port->optional ? _(" (optional)") : "");
      gtk_grid_attach (self->ports_grid, cell (port->name, FALSE, "help-key"), 0, i, 1, 1);
      g_autofree char *kind = hyd_help_port_kind (port);
      gtk_grid_attach (self->ports_grid, cell (kind, FALSE, "dim-label"), 1, i,
                       1, 1);
      gtk_grid_attach (self->ports_grid, cell (desc, TRUE, NULL), 2, i, 1, 1);
    }

  clear_grid (self->params_grid);
  const char *headers[] = { N_("Parameter"), N_("Default"), N_("Range"), N_("Description") };
  for (guint c = 0; c < G_N_ELEMENTS (headers); c++)
    gtk_grid_attach (self->params_grid, cell (_(headers[c]), FALSE, "heading"), c, 0, 1, 1);

  g_autoptr (GPtrArray) rows = hyd_help_param_rows (type);
  for (guint i = 0; i < rows->len; i++)
    {
      HydHelpParamRow *row = g_ptr_array_index (rows, i);
      g_autofree char *name
          = g_strdup_printf ("%s\n<small><tt>%s</tt></small>%s", row->label, row->key,
                             row->profile ? _("\n<small>live: profile or slider</small>") : "");
      GtkWidget *name_label = cell (NULL, FALSE, NULL);
      gtk_label_set_markup (GTK_LABEL (name_label), name);
      gtk_grid_attach (self->params_grid, name_label, 0, i + 1, 1, 1);
      gtk_grid_attach (self->params_grid, cell (row->default_text, FALSE, NULL), 1, i + 1, 1, 1);
      gtk_grid_attach (self->params_grid, cell (row->range, TRUE, NULL), 2, i + 1, 1, 1);
      gtk_grid_attach (self->params_grid, cell (row->description, TRUE, "dim-label"), 3, i + 1, 1, 1);
    }

  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (self->page_scroller);
  gtk_adjustment_set_value (adj, 0);
}

static void
row_selected_cb (HydHelpWindow *self, GtkListBoxRow *row)
{
  if (row == NULL)
    return;
  const char *type_id = g_object_get_data (G_OBJECT (row), "hyd-type-id");
  if (is_fluid_page (type_id))
    {
      g_free (self->type_id);
      self->type_id = g_strdup (type_id);
      fill_fluid_page (self);
      return;
    }
  const HydComponentType *type = hyd_catalogue_lookup (type_id);
  if (type == NULL)
    return;
  g_free (self->type_id);
  self->type_id = g_strdup (type_id);
  fill_page (self, type);
}

static gboolean
filter_func (GtkListBoxRow *row, gpointer user_data)
{
  HydHelpWindow *self = user_data;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  if (text == NULL || *text == '\0')
    return TRUE;
  g_autofree char *needle = g_utf8_casefold (text, -1);
  if (is_fluid_page (g_object_get_data (G_OBJECT (row), "hyd-type-id")))
    {
      g_autofree char *page = hyd_help_fluid_dup_text ();
      g_autofree char *folded = g_utf8_casefold (page, -1);
      return strstr (folded, needle) != NULL;
    }
  const HydComponentType *type = hyd_catalogue_lookup (g_object_get_data (G_OBJECT (row), "hyd-type-id"));
  if (type == NULL)
    return FALSE;
  g_autofree char *label = g_utf8_casefold (hyd_help_type_label (type), -1);
  g_autofree char *category = g_utf8_casefold (hyd_help_category_title (type->category), -1);
  return strstr (label, needle) || strstr (type->id, needle) || strstr (category, needle);
}

/* Escape in the search clears it, then closes the window. */
static void
stop_search_cb (HydHelpWindow *self, GtkSearchEntry *entry)
{
  if (*gtk_editable_get_text (GTK_EDITABLE (entry)) != '\0')
    gtk_editable_set_text (GTK_EDITABLE (entry), "");
  else
    gtk_window_close (GTK_WINDOW (self));
}

static void
search_changed_cb (HydHelpWindow *self, GtkSearchEntry *entry)
{
  gtk_list_box_invalidate_filter (self->type_list);
  gtk_list_box_invalidate_headers (self->type_list);
}

/* By category (types of a category appended later come together, under
 * one heading), then in catalogue order; the fluid page last. */
static int
sort_func (GtkListBoxRow *a, GtkListBoxRow *b, gpointer user_data)
{
  const char *ia = g_object_get_data (G_OBJECT (a), "hyd-type-id"), *ib = g_object_get_data (G_OBJECT (b), "hyd-type-id");
  if (is_fluid_page (ia) || is_fluid_page (ib))
    return is_fluid_page (ia) - is_fluid_page (ib);
  const HydComponentType *ta = hyd_catalogue_lookup (ia), *tb = hyd_catalogue_lookup (ib);
  if (ta && tb && ta->category != tb->category)
    return ta->category < tb->category ? -1 : 1;
  guint oa = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (a), "hyd-order"));
  guint ob = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (b), "hyd-order"));
  return oa < ob ? -1 : oa > ob;
}

static void
header_func (GtkListBoxRow *row, GtkListBoxRow *before, gpointer user_data)
{
  const HydComponentType *type = hyd_catalogue_lookup (g_object_get_data (G_OBJECT (row), "hyd-type-id"));
  const HydComponentType *prev = before
    ? hyd_catalogue_lookup (g_object_get_data (G_OBJECT (before), "hyd-type-id")) : NULL;
  if (is_fluid_page (g_object_get_data (G_OBJECT (row), "hyd-type-id")))
    {
      GtkWidget *header = gtk_label_new (_("Circuit settings"));
      gtk_label_set_xalign (GTK_LABEL (header), 0);
      gtk_widget_add_css_class (header, "palette-heading");
      gtk_list_box_row_set_header (row, header);
    }
  else if (type && (prev == NULL || prev->category != type->category))
    {
      GtkWidget *header = gtk_label_new (hyd_help_category_title (type->category));
      gtk_label_set_xalign (GTK_LABEL (header), 0);
      gtk_widget_add_css_class (header, "palette-heading");
      gtk_list_box_row_set_header (row, header);
    }
  else
    gtk_list_box_row_set_header (row, NULL);
}

static void
copy_clicked_cb (HydHelpWindow *self)
{
  if (is_fluid_page (self->type_id))
    {
      g_autofree char *fluid = hyd_help_fluid_dup_text ();
      gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), fluid);
      return;
    }
  const HydComponentType *type = self->type_id ? hyd_catalogue_lookup (self->type_id) : NULL;
  if (type == NULL)
    return;
  g_autofree char *text = hyd_help_dup_text (type);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
}

static void
hyd_help_window_finalize (GObject *object)
{
  HydHelpWindow *self = (HydHelpWindow *) object;
  g_clear_pointer (&self->type_id, g_free);
  G_OBJECT_CLASS (hyd_help_window_parent_class)->finalize (object);
}

static void
hyd_help_window_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), HYD_TYPE_HELP_WINDOW);
  G_OBJECT_CLASS (hyd_help_window_parent_class)->dispose (object);
}

static void
hyd_help_window_class_init (HydHelpWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hyd_help_window_dispose;
  object_class->finalize = hyd_help_window_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, BRAMAH_RESOURCE_PREFIX "/ui/hyd-help.ui");
  gtk_widget_class_bind_template_child (widget_class, HydHelpWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, HydHelpWindow, type_list);
  gtk_widget_class_bind_template_child (widget_class, HydHelpWindow, page_scroller);
  gtk_widget_class_bind_template_child (widget_class, HydHelpWindow, symbol_area);
  gtk_widget_class_bind_template_child (widget_class, HydHelpWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, HydHelpWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, HydHelpWindow, description_label);
  gtk_widget_class_bind_template_child (widget_class, HydHelpWindow, ports_grid);
  gtk_widget_class_bind_template_child (widget_class, HydHelpWindow, params_grid);
  gtk_widget_class_bind_template_child (widget_class, HydHelpWindow, ports_heading);
  gtk_widget_class_bind_template_child (widget_class, HydHelpWindow, params_heading);
  gtk_widget_class_bind_template_callback (widget_class, row_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, copy_clicked_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
hyd_help_window_init (HydHelpWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_drawing_area_set_draw_func (self->symbol_area, symbol_draw, self, NULL);
  gtk_list_box_set_filter_func (self->type_list, filter_func, self, NULL);
  gtk_list_box_set_header_func (self->type_list, header_func, self, NULL);
  gtk_list_box_set_sort_func (self->type_list, sort_func, NULL, NULL);
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self));

  guint n_types;
  const HydComponentType *const *types = hyd_catalogue_list (&n_types);
  for (guint i = 0; i < n_types; i++)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
      gtk_box_append (GTK_BOX (box), hyd_ui_symbol_preview_new (types[i]->id, 36, 26, 6));
      GtkWidget *label = gtk_label_new (hyd_help_type_label (types[i]));
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_box_append (GTK_BOX (box), label);
      GtkWidget *row = gtk_list_box_row_new ();
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      g_object_set_data_full (G_OBJECT (row), "hyd-type-id", g_strdup (types[i]->id), g_free);
      g_object_set_data (G_OBJECT (row), "hyd-order", GUINT_TO_POINTER (i + 1));
      gtk_list_box_append (self->type_list, row);
    }

  /* after the components: the circuit's fluid settings */
  GtkWidget *label = gtk_label_new (hyd_help_fluid_title ());
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_margin_start (label, 44);
  GtkWidget *row = gtk_list_box_row_new ();
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
  g_object_set_data_full (G_OBJECT (row), "hyd-type-id", g_strdup (HYD_HELP_PAGE_FLUID), g_free);
  gtk_list_box_append (self->type_list, row);
}

HydHelpWindow *
hyd_help_window_new (void)
{
  return g_object_new (HYD_TYPE_HELP_WINDOW, NULL);
}

void
hyd_help_window_show_type (HydHelpWindow *self, const char *type_id)
{
  g_return_if_fail (HYD_IS_HELP_WINDOW (self));

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->type_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (!GTK_IS_LIST_BOX_ROW (child))
        continue;
      const char *id = g_object_get_data (G_OBJECT (child), "hyd-type-id");
      if (type_id == NULL || g_strcmp0 (id, type_id) == 0)
        {
          /* the search must not hide the page asked for */
          if (type_id && !gtk_widget_get_child_visible (child))
            gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
          gtk_list_box_select_row (self->type_list, GTK_LIST_BOX_ROW (child));
          return;
        }
    }
}

const char *
hyd_help_window_get_type_id (HydHelpWindow *self)
{
  g_return_val_if_fail (HYD_IS_HELP_WINDOW (self), NULL);
  return self->type_id;
}

HydHelpWindow *
hyd_help_window_present_for (GtkWindow *parent, const char *type_id)
{
  if (the_help_window == NULL)
    {
      the_help_window = hyd_help_window_new ();
      g_object_add_weak_pointer (G_OBJECT (the_help_window), (gpointer *) &the_help_window);
      if (parent)
        gtk_window_set_application (GTK_WINDOW (the_help_window), gtk_window_get_application (parent));
    }
  if (parent)
    gtk_window_set_transient_for (GTK_WINDOW (the_help_window), parent);
  if (type_id || the_help_window->type_id == NULL)
    hyd_help_window_show_type (the_help_window, type_id);
  gtk_window_present (GTK_WINDOW (the_help_window));
  return the_help_window;
}
