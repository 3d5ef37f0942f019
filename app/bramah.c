/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bramah.c — the Bramah application (`bramah [FILE.bramah...]`). */
#define G_LOG_DOMAIN "bramah"

#include "bramah-config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include "hyd-application.h"
#include "hyd-ui-util.h"

int
main (int argc, char *argv[])
{
  setlocale (LC_ALL, "");
  /* Installed translations; run from its build tree (hyd_running_uninstalled),
   * the catalogues meson built there, so `build/app/bramah` speaks German
   * without `meson install`. An installed binary never looks there. */
  const char *localedir = hyd_ui_locale_dir ();
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_autoptr (HydApplication) app = hyd_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
