/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-palette.c — the palette: every catalogue type by category, search,
 * activation and the help request. Skips (77) without a display. */
#include <gtk/gtk.h>
#include <libintl.h>
#include <locale.h>
#include <string.h>
#include "hyd-catalogue.h"
#include "hyd-help-text.h"
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
  /* the relief valve, then the proportional one (catalogue order) */
  g_assert_cmpuint (g_strv_length (relief), ==, 2);
  g_assert_cmpstr (relief[0], ==, "relief_valve");
  g_assert_cmpstr (relief[1], ==, "proportional_relief_valve");

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

static GtkLabel *
find_label (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    return GTK_LABEL (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkLabel *found = find_label (c);
      if (found)
        return found;
    }
  return NULL;
}

static gboolean
iterate_once (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Issue 8, item 16: in German the palette hyphenated
 * "Druckbegrenzungsven-til". Entry names wrap between words only, at the
 * palette's width in the window (240 px). Run in German too
 * (test-palette-de: LANGUAGE=de). */
static void
test_names_wrap_at_words (void)
{
  /* the application's style sheet (its paddings narrow the names) */
  GtkCssProvider *css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/org/bramah/Bramah/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  GtkWidget *window = gtk_window_new ();
  HydPalette *palette = HYD_PALETTE (hyd_palette_new ());
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (palette));
  /* narrower than the window gives it: the window may grow to what the
   * names need, but must not cut them */
  gtk_window_set_default_size (GTK_WINDOW (window), 200, 700);
  gtk_window_present (GTK_WINDOW (window));
  gint64 end = g_get_monotonic_time () + G_USEC_PER_SEC / 2;
  while (g_get_monotonic_time () < end)
    {
      gboolean done = FALSE;
      g_timeout_add (10, iterate_once, &done);
      while (!done)
        g_main_context_iteration (NULL, TRUE);
    }

  guint n_types, n_checked = 0;
  const HydComponentType *const *types = hyd_catalogue_list (&n_types);
  for (guint i = 0; i < n_types; i++)
    {
      GtkWidget *row = hyd_palette_get_entry (palette, types[i]->id);
      GtkLabel *label = find_label (row);
      g_assert_nonnull (label);
      const char *text = gtk_label_get_text (label);
      g_assert_cmpstr (text, ==, hyd_help_type_label (types[i]));
      PangoLayout *layout = gtk_label_get_layout (label);
      for (GSList *l = pango_layout_get_lines_readonly (layout); l && l->next; l = l->next)
        {
          PangoLayoutLine *line = l->data;
          int at = line->start_index + line->length;
          g_assert_cmpint (at, >, 0);
          gunichar before = g_utf8_get_char (g_utf8_prev_char (text + at));
          gunichar after = g_utf8_get_char (text + at);
          if (g_unichar_isalnum (before) && g_unichar_isalnum (after))
            g_error ("“%s” is broken inside a word at byte %d", text, at);
        }
      n_checked++;
    }
  g_assert_cmpuint (n_checked, ==, n_types);
  if (g_strcmp0 (g_getenv ("LANGUAGE"), "de") == 0)
    g_assert_cmpstr (hyd_help_type_label (hyd_catalogue_lookup ("relief_valve")), ==, "Druckbegrenzungsventil");
  gtk_window_destroy (GTK_WINDOW (window));
  gtk_style_context_remove_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css));
  g_object_unref (css);
}

int
main (int argc, char *argv[])
{
  setlocale (LC_ALL, "");
  const char *locale_dir = g_getenv ("BRAMAH_TEST_LOCALE_DIR");
  if (locale_dir)
    {
      bindtextdomain ("bramah", locale_dir);
      bind_textdomain_codeset ("bramah", "UTF-8");
      textdomain ("bramah");
    }
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_print ("SKIP: no display\n");
      return 77;
    }
  g_test_add_func ("/ui/palette/entries-search", test_palette);
  g_test_add_func ("/ui/palette/names-wrap-at-words", test_names_wrap_at_words);
  return g_test_run ();
}
