/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-application.c — the Bramah application. */
#define G_LOG_DOMAIN "hyd-application"

#include "bramah-config.h"
#include "hyd-application.h"

#include <glib/gi18n.h>
#include "hyd-autosave.h"
#include "hyd-help.h"
#include "hyd-help-text.h"
#include "hyd-ui-util.h"
#include "hyd-window.h"

struct _HydApplication
{
  GtkApplication parent_instance;

  guint recovery_offered : 1;
};

G_DEFINE_FINAL_TYPE (HydApplication, hyd_application, GTK_TYPE_APPLICATION)

static HydWindow *
active_window (HydApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));
  return HYD_IS_WINDOW (window) ? HYD_WINDOW (window) : NULL;
}

/* After a crash, the first window offers what the crashed instance had not
 * saved. */
static void
offer_recovery (HydApplication *self, HydWindow *window)
{
  if (self->recovery_offered)
    return;
  self->recovery_offered = TRUE;
  g_autofree char *directory = hyd_autosave_get_directory ();
  g_autoptr (GPtrArray) orphans = hyd_autosave_list_orphans (directory, NULL, NULL);
  if (orphans->len > 0)
    hyd_window_offer_recovery (window, orphans);
}

static void
hyd_application_activate (GApplication *application)
{
  HydApplication *self = HYD_APPLICATION (application);
  HydWindow *window = active_window (self);
  if (window == NULL)
    window = hyd_window_new (GTK_APPLICATION (self));
  gtk_window_present (GTK_WINDOW (window));
  offer_recovery (self, window);
}

static void
hyd_application_open (GApplication *application, GFile **files, int n_files, const char *hint)
{
  HydApplication *self = HYD_APPLICATION (application);
  HydWindow *first = NULL;
  for (int i = 0; i < n_files; i++)
    {
      /* reuse a new, empty window; never replace the user's work */
      HydWindow *window = active_window (self);
      if (window == NULL || !hyd_window_is_pristine (window))
        window = hyd_window_new (GTK_APPLICATION (self));
      gtk_window_present (GTK_WINDOW (window));
      hyd_window_open_file (window, files[i]);
      if (first == NULL)
        first = window;
    }
  if (first == NULL)
    {
      hyd_application_activate (application);
      return;
    }
  offer_recovery (self, first);
}

/* ---- app actions ---- */

static void
quit_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  HydApplication *self = user_data;
  /* each window asks about its unsaved changes; the application ends when
   * the last one is gone */
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));
  for (GList *l = windows; l; l = l->next)
    gtk_window_close (GTK_WINDOW (l->data));
  g_list_free (windows);
}

static void
about_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  HydApplication *self = user_data;
  static const char *authors[] = { "The Bramah developers", NULL };
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  gtk_show_about_dialog (
      parent, "program-name", "Bramah", "logo-icon-name", APP_ID, "version", PACKAGE_VERSION, "comments",
      _("Draw hydraulic circuits with ISO 1219 symbols and simulate them live: "
        "pressures, flows and motions, with what-if changes while it runs."),
      "license-type", GTK_LICENSE_GPL_3_0, "authors", authors,
      /* translators: put your name here to be credited */
      "translator-credits", _("translator-credits"), "copyright", "© 2026 The Bramah developers", "website",
      "https://github.com/bramah-hydraulics/bramah", NULL);
}

static void
help_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  HydApplication *self = user_data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));
  /* a window knows what its user looks at: the selected component's page */
  if (HYD_IS_WINDOW (window) && gtk_widget_activate_action (GTK_WIDGET (window), "win.help", NULL))
    return;
  hyd_help_window_present_for (window, NULL);
}

/* The help page on the fluid models (hyd-help-text.h). */
static void
help_fluid_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  HydApplication *self = user_data;
  hyd_help_window_present_for (gtk_application_get_active_window (GTK_APPLICATION (self)),
                               HYD_HELP_PAGE_FLUID);
}

static void
new_window_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  HydWindow *window = hyd_window_new (GTK_APPLICATION (user_data));
  gtk_window_present (GTK_WINDOW (window));
}

static const GActionEntry app_actions[] = {
  { .name = "quit", .activate = quit_action },
  { .name = "about", .activate = about_action },
  { .name = "help", .activate = help_action },
  { .name = "help-fluid", .activate = help_fluid_action },
  { .name = "new-window", .activate = new_window_action },
};

static void
hyd_application_startup (GApplication *application)
{
  HydApplication *self = HYD_APPLICATION (application);

  G_APPLICATION_CLASS (hyd_application_parent_class)->startup (application);
  /* before the first window: cairo on software OpenGL (issue 8) */
  hyd_ui_choose_renderer (gdk_display_get_default (), NULL);

  g_set_application_name ("Bramah");
  gtk_window_set_default_icon_name (APP_ID);
  gtk_icon_theme_add_resource_path (gtk_icon_theme_get_for_display (gdk_display_get_default ()),
                                    BRAMAH_RESOURCE_PREFIX "/icons");

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions), self);
  static const char *quit_accels[] = { "<Primary>q", NULL };
  static const char *help_accels[] = { "F1", NULL };
  static const char *new_window_accels[] = { "<Primary><Shift>n", NULL };
  static const char *close_accels[] = { "<Primary>w", NULL };
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit", quit_accels);
  /* F1 is the window's help: the page of the selected component */
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.help", help_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.new-window", new_window_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "window.close", close_accels);

  GtkCssProvider *css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, BRAMAH_RESOURCE_PREFIX "/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_unref (css);
}

static void
hyd_application_class_init (HydApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = hyd_application_activate;
  app_class->open = hyd_application_open;
  app_class->startup = hyd_application_startup;
}

static void
hyd_application_init (HydApplication *self)
{
}

/* A session bus to register on: without one (a bare X server in a test or
 * a container) the application runs as its own instance rather than fail
 * to start. */
static gboolean
session_bus_available (void)
{
  const char *address = g_getenv ("DBUS_SESSION_BUS_ADDRESS");
  if (address && *address)
    return TRUE;
  g_autofree char *socket = g_build_filename (g_get_user_runtime_dir (), "bus", NULL);
  return g_file_test (socket, G_FILE_TEST_EXISTS);
}

HydApplication *
hyd_application_new (void)
{
  GApplicationFlags flags = G_APPLICATION_HANDLES_OPEN;
  if (!session_bus_available ())
    flags |= G_APPLICATION_NON_UNIQUE;
  return g_object_new (HYD_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", flags,
                       "resource-base-path", BRAMAH_RESOURCE_PREFIX,
                       NULL);
}
