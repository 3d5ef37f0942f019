/* test-palette.c — the palette: every catalogue type by category, search,
 * activation and the help request. Skips (77) without a display. */
#include <gtk/gtk.h>
#include <string.h>
#include "hyd-catalogue.h"
#include "hyd-palette.h"

static void
type_activated_cb (HydPalette *palette, const char *type_id, char **out)
{
  g_free (*out);
  *out = g_strdup (type_id);
}

static GtkWidget *
search_entry (GtkWidget *widget)
{
  if (GTK_IS_SEARCH_ENTRY (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = search_entry (c);
      if (found)
        return found;
    }
  return NULL;
}

static void
test_palette (void)
{
  HydPalette *palette = HYD_PALETTE (g_object_ref_sink (hyd_palette_new ()));
  guint n_types;
  const HydComponentType *const *types = hyd_catalogue_list (&n_types);

  /* every type has an entry with its description as tooltip */
  g_auto (GStrv) all = hyd_palette_dup_visible_types (palette);
  g_assert_cmpuint (g_strv_length (all), ==, n_types);
  for (guint i = 0; i < n_types; i++)
    {
      GtkWidget *row = hyd_palette_get_entry (palette, types[i]->id);
      g_assert_nonnull (row);
      const char *tooltip = gtk_widget_get_tooltip_markup (row);
      g_assert_nonnull (tooltip);
      g_assert_nonnull (strstr (tooltip, types[i]->label));
      /* each entry can be dragged to the canvas */
      gboolean has_drag = FALSE;
      GListModel *controllers = gtk_widget_observe_controllers (row);
      for (guint k = 0; k < g_list_model_get_n_items (controllers); k++)
        {
          g_autoptr (GObject) controller = g_list_model_get_item (controllers, k);
          has_drag |= GTK_IS_DRAG_SOURCE (controller);
        }
      g_object_unref (controllers);
      g_assert_true (has_drag);
    }

  /* search */
  GtkWidget *entry = search_entry (GTK_WIDGET (palette));
  g_assert_nonnull (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), "relief");
  g_signal_emit_by_name (entry, "search-changed");
  g_auto (GStrv) relief = hyd_palette_dup_visible_types (palette);
  g_assert_cmpuint (g_strv_length (relief), ==, 1);
  g_assert_cmpstr (relief[0], ==, "relief_valve");

  /* Enter in the search places the first match */
  char *activated = NULL;
  g_signal_connect (palette, "type-activated", G_CALLBACK (type_activated_cb), &activated);
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpstr (activated, ==, "relief_valve");

  /* a category name finds its members */
  gtk_editable_set_text (GTK_EDITABLE (entry), "actuators");
  g_signal_emit_by_name (entry, "search-changed");
  g_auto (GStrv) actuators = hyd_palette_dup_visible_types (palette);
  g_assert_true (g_strv_contains ((const char *const *) actuators, "cylinder_double"));
  g_assert_false (g_strv_contains ((const char *const *) actuators, "tank"));

  gtk_editable_set_text (GTK_EDITABLE (entry), "no such thing");
  g_signal_emit_by_name (entry, "search-changed");
  g_auto (GStrv) none = hyd_palette_dup_visible_types (palette);
  g_assert_cmpuint (g_strv_length (none), ==, 0);

  g_free (activated);
  g_object_unref (palette);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_print ("SKIP: no display\n");
      return 77;
    }
  g_test_add_func ("/ui/palette/entries-search", test_palette);
  return g_test_run ();
}
