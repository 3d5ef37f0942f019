/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui-test-util.c — see ui-test-util.h. */
#include "ui-test-util.h"

void
hyd_test_save_screenshot (GtkWidget *widget, const char *path)
{
  for (int k = 0; k < 50; k++)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (10000);
    }
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  g_autoptr (GdkTexture) texture = gsk_renderer_render_texture (renderer, node, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("wrote %s", path);
}

GtkWindow *
hyd_test_find_toplevel (GType type)
{
  GListModel *tops = gtk_window_get_toplevels ();  /* transfer none */
  for (guint k = 0; k < g_list_model_get_n_items (tops); k++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (tops, k);
      if (G_TYPE_CHECK_INSTANCE_TYPE (w, type))
        return GTK_WINDOW (w);   /* the list keeps it */
    }
  return NULL;
}

GtkWidget *
hyd_test_find_descendant (GtkWidget *root, GType type)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type))
        return c;
      GtkWidget *found = hyd_test_find_descendant (c, type);
      if (found)
        return found;
    }
  return NULL;
}
