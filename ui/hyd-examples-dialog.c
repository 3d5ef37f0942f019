/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-examples-dialog.c — the examples gallery. */
#define G_LOG_DOMAIN "hyd-examples-dialog"

#include "bramah-config.h"
#include "hyd-examples-dialog.h"

#include <glib/gi18n.h>
#include <string.h>
#include "hyd-examples.h"
#include "hyd-schematic.h"

#define THUMB_WIDTH 240
#define THUMB_HEIGHT 160

struct _HydExamplesDialog
{
  GtkWindow parent_instance;

  /* Template widgets */
  GtkWidget *open_button;
  GtkSearchEntry *search_entry;
  GtkFlowBox *flowbox;
  GtkLabel *empty_label;

  /* Owned */
  GPtrArray *examples;       /* of HydExample*, in the flow box's order */
  GPtrArray *pictures;       /* of GtkPicture* (borrowed), same order */
  guint thumb_source;
  guint next_thumb;
};

G_DEFINE_FINAL_TYPE (HydExamplesDialog, hyd_examples_dialog, GTK_TYPE_WINDOW)

enum {
  SIGNAL_EXAMPLE_CHOSEN,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

/* The schematic of a circuit scaled into a thumbnail (never larger than
 * 100 %, so small circuits do not look blown up). */
static GdkTexture *
render_thumbnail (const char *path, int scale_factor)
{
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_file (path, NULL);
  if (circuit == NULL)
    return NULL;

  HydSchematicOptions options;
  hyd_schematic_options_init (&options);
  options.flags = HYD_SCHEMATIC_BACKGROUND;
  HydRect bounds;
  hyd_schematic_get_bounds (circuit, &options, &bounds);
  double bw = MAX (bounds.x1 - bounds.x0, 1), bh = MAX (bounds.y1 - bounds.y0, 1);
  double scale = MIN (1.0, MIN ((THUMB_WIDTH - 16) / bw, (THUMB_HEIGHT - 16) / bh));

  int w = THUMB_WIDTH * scale_factor, h = THUMB_HEIGHT * scale_factor;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_scale (cr, scale_factor, scale_factor);
  cairo_translate (cr, THUMB_WIDTH / 2.0, THUMB_HEIGHT / 2.0);
  cairo_scale (cr, scale, scale);
  cairo_translate (cr, -(bounds.x0 + bounds.x1) / 2, -(bounds.y0 + bounds.y1) / 2);
  hyd_schematic_render (cr, circuit, &options);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  int stride = cairo_image_surface_get_stride (surface);
  g_autoptr (GBytes) bytes = g_bytes_new (cairo_image_surface_get_data (surface), (gsize) stride * h);
  cairo_surface_destroy (surface);
  return gdk_memory_texture_new (w, h, GDK_MEMORY_DEFAULT, bytes, stride);
}

static gboolean
thumbnail_idle_cb (gpointer user_data)
{
  HydExamplesDialog *self = user_data;
  if (self->next_thumb >= self->examples->len)
    {
      self->thumb_source = 0;
      return G_SOURCE_REMOVE;
    }
  guint i = self->next_thumb++;
  const HydExample *example = g_ptr_array_index (self->examples, i);
  GtkPicture *picture = g_ptr_array_index (self->pictures, i);
  g_autoptr (GdkTexture) texture
      = render_thumbnail (example->path, gtk_widget_get_scale_factor (GTK_WIDGET (self)));
  if (texture)
    gtk_picture_set_paintable (picture, GDK_PAINTABLE (texture));
  return G_SOURCE_CONTINUE;
}

static GtkWidget *
create_card (HydExamplesDialog *self, const HydExample *example)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_size_request (box, THUMB_WIDTH, -1);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);

  GtkWidget *picture = gtk_picture_new ();
  gtk_widget_set_size_request (picture, THUMB_WIDTH, THUMB_HEIGHT);
  gtk_widget_set_halign (picture, GTK_ALIGN_CENTER);
  gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
  gtk_widget_add_css_class (picture, "example-thumbnail");
  gtk_box_append (GTK_BOX (box), picture);
  g_ptr_array_add (self->pictures, picture);

  GtkWidget *title = gtk_label_new (example->title);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (title), 20);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (box), title);

  g_autofree char *summary = hyd_example_dup_summary (example);
  GtkWidget *desc = gtk_label_new (summary);
  gtk_label_set_wrap (GTK_LABEL (desc), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (desc), 20);
  gtk_label_set_lines (GTK_LABEL (desc), 4);
  gtk_label_set_ellipsize (GTK_LABEL (desc), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (desc), 0);
  gtk_widget_add_css_class (desc, "dim-label");
  gtk_box_append (GTK_BOX (box), desc);

  g_autofree char *tooltip = g_strdup_printf ("%s\n\n%s", example->name, example->description);
  gtk_widget_set_tooltip_text (box, tooltip);
  return box;
}

static const HydExample *
selected_example (HydExamplesDialog *self)
{
  GList *selected = gtk_flow_box_get_selected_children (self->flowbox);
  const HydExample *example = NULL;
  if (selected)
    {
      int i = gtk_flow_box_child_get_index (selected->data);
      if (i >= 0 && (guint) i < self->examples->len)
        example = g_ptr_array_index (self->examples, i);
    }
  g_list_free (selected);
  return example;
}

static void
choose (HydExamplesDialog *self, const HydExample *example)
{
  if (example == NULL)
    return;
  g_autofree char *path = g_strdup (example->path);
  g_object_ref (self);
  gtk_window_close (GTK_WINDOW (self));
  g_signal_emit (self, signals[SIGNAL_EXAMPLE_CHOSEN], 0, path);
  g_object_unref (self);
}

static void
open_clicked_cb (HydExamplesDialog *self)
{
  choose (self, selected_example (self));
}

static void
child_activated_cb (HydExamplesDialog *self, GtkFlowBoxChild *child)
{
  int i = gtk_flow_box_child_get_index (child);
  if (i >= 0 && (guint) i < self->examples->len)
    choose (self, g_ptr_array_index (self->examples, i));
}

static void
selection_changed_cb (HydExamplesDialog *self)
{
  gtk_widget_set_sensitive (self->open_button, selected_example (self) != NULL);
}

static gboolean
filter_func (GtkFlowBoxChild *child, gpointer user_data)
{
  HydExamplesDialog *self = user_data;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  int i = gtk_flow_box_child_get_index (child);
  if (text == NULL || *text == '\0' || i < 0 || (guint) i >= self->examples->len)
    return TRUE;
  const HydExample *example = g_ptr_array_index (self->examples, i);
  g_autofree char *needle = g_utf8_casefold (text, -1);
  g_autofree char *hay = g_utf8_casefold (example->title, -1);
  g_autofree char *desc = g_utf8_casefold (example->description, -1);
  return strstr (hay, needle) || strstr (desc, needle) || strstr (example->name, needle);
}

/* Escape in the search clears it, then closes the window. */
static void
stop_search_cb (HydExamplesDialog *self, GtkSearchEntry *entry)
{
  if (*gtk_editable_get_text (GTK_EDITABLE (entry)) != '\0')
    gtk_editable_set_text (GTK_EDITABLE (entry), "");
  else
    gtk_window_close (GTK_WINDOW (self));
}

static void
search_changed_cb (HydExamplesDialog *self)
{
  gtk_flow_box_invalidate_filter (self->flowbox);
}

static void
hyd_examples_dialog_dispose (GObject *object)
{
  HydExamplesDialog *self = HYD_EXAMPLES_DIALOG (object);
  g_clear_handle_id (&self->thumb_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), HYD_TYPE_EXAMPLES_DIALOG);
  G_OBJECT_CLASS (hyd_examples_dialog_parent_class)->dispose (object);
}

static void
hyd_examples_dialog_finalize (GObject *object)
{
  HydExamplesDialog *self = HYD_EXAMPLES_DIALOG (object);
  g_clear_pointer (&self->examples, g_ptr_array_unref);
  g_clear_pointer (&self->pictures, g_ptr_array_unref);
  G_OBJECT_CLASS (hyd_examples_dialog_parent_class)->finalize (object);
}

static void
hyd_examples_dialog_class_init (HydExamplesDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hyd_examples_dialog_dispose;
  object_class->finalize = hyd_examples_dialog_finalize;

  /**
   * HydExamplesDialog::example-chosen:
   * @path: the example's file
   */
  signals[SIGNAL_EXAMPLE_CHOSEN] =
    g_signal_new ("example-chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               BRAMAH_RESOURCE_PREFIX "/ui/hyd-examples-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, HydExamplesDialog, open_button);
  gtk_widget_class_bind_template_child (widget_class, HydExamplesDialog, search_entry);
  gtk_widget_class_bind_template_child (widget_class, HydExamplesDialog, flowbox);
  gtk_widget_class_bind_template_child (widget_class, HydExamplesDialog, empty_label);
  gtk_widget_class_bind_template_callback (widget_class, open_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, child_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, selection_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
hyd_examples_dialog_init (HydExamplesDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  const char *directory = hyd_examples_get_directory ();
  self->examples = hyd_examples_list (directory);
  self->pictures = g_ptr_array_new ();
  for (guint i = 0; i < self->examples->len; i++)
    gtk_flow_box_append (self->flowbox, create_card (self, g_ptr_array_index (self->examples, i)));
  gtk_flow_box_set_filter_func (self->flowbox, filter_func, self, NULL);

  if (self->examples->len == 0)
    {
      g_autofree char *text = g_strdup_printf (_("No examples were found in %s."), directory);
      gtk_label_set_text (self->empty_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->empty_label), TRUE);
    }
  self->thumb_source = g_idle_add (thumbnail_idle_cb, self);
}

HydExamplesDialog *
hyd_examples_dialog_new (GtkWindow *parent)
{
  return g_object_new (HYD_TYPE_EXAMPLES_DIALOG, "transient-for", parent,
                       "application", parent ? gtk_window_get_application (parent) : NULL, NULL);
}

guint
hyd_examples_dialog_get_n_examples (HydExamplesDialog *self)
{
  g_return_val_if_fail (HYD_IS_EXAMPLES_DIALOG (self), 0);
  return self->examples->len;
}
