/* SPDX-License-Identifier: GPL-3.0-or-later */
/* print-paths.c — where this build reads its data from, as the application
 * decides it (issue 9, item 14): run from the build tree, the source and
 * build trees; copied elsewhere (as an installed binary is), the installed
 * directories only. check-installed-paths.sh runs it both ways. */
#include <gio/gio.h>
#include <stdio.h>
#include "hyd-examples.h"
#include "hyd-symbol.h"
#include "hyd-ui-util.h"

int
main (void)
{
  printf ("uninstalled: %s\n", hyd_running_uninstalled () ? "yes" : "no");
  printf ("examples: %s\n", hyd_examples_get_directory ());
  printf ("symbols: %s\n", hyd_symbol_library_default_directory ());
  printf ("locale: %s\n", hyd_ui_locale_dir ());
  g_autoptr (GSettings) settings = hyd_ui_settings_new ();
  printf ("settings: %s\n", settings ? "found" : "none");
  return 0;
}
