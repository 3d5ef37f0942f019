/* bramah.c — the Bramah application (`bramah [FILE.bramah...]`). */
#define G_LOG_DOMAIN "bramah"

#include "bramah-config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include "hyd-application.h"

int
main (int argc, char *argv[])
{
  setlocale (LC_ALL, "");
  /* Installed translations; from the build tree, the catalogues meson built
   * there (so `build/app/bramah` speaks German without `meson install`). */
  const char *localedir = LOCALEDIR;
  if (!g_file_test (LOCALEDIR "/de/LC_MESSAGES/" GETTEXT_PACKAGE ".mo", G_FILE_TEST_EXISTS)
      && g_file_test (BRAMAH_BUILD_LOCALE_DIR "/de/LC_MESSAGES/" GETTEXT_PACKAGE ".mo", G_FILE_TEST_EXISTS))
    localedir = BRAMAH_BUILD_LOCALE_DIR;
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_autoptr (HydApplication) app = hyd_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
