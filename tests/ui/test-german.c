/* test-german.c — a German interface on a locale whose decimal point is '.'
 * (LANGUAGE=de, LC_ALL=C.UTF-8, the catalogue of the build tree): fields
 * take a decimal comma, and the status line's wall-clock time is not called
 * "Echtzeit" (real time). Issue 8, item 16. Skips (77) when the C library
 * cannot honour LANGUAGE here. */
#include <glib.h>
#include <libintl.h>
#include <locale.h>
#include <string.h>
#include "hyd-display-units.h"

#define GETTEXT_PACKAGE "bramah"

static void
test_decimal_comma (void)
{
  double si = 0;
  g_assert_true (hyd_display_parse (HYD_UNIT_PRESSURE, "0,1", &si));
  g_assert_cmpfloat_with_epsilon (si, 1e4, 1e-6);
  g_assert_true (hyd_display_parse (HYD_UNIT_PRESSURE, "1,5 bar", &si));
  g_assert_cmpfloat_with_epsilon (si, 1.5e5, 1e-6);
  g_assert_true (hyd_display_parse (HYD_UNIT_NONE, "0,1", &si));
  g_assert_cmpfloat_with_epsilon (si, 0.1, 1e-12);
  /* the point still works */
  g_assert_true (hyd_display_parse (HYD_UNIT_NONE, "0.25", &si));
  g_assert_cmpfloat_with_epsilon (si, 0.25, 1e-12);
  g_assert_false (hyd_display_parse (HYD_UNIT_NONE, "abc", &si));
}

static void
test_wall_clock_wording (void)
{
  const char *status = g_dgettext (GETTEXT_PACKAGE, "t = %s of %s  ·  %s steps (%s rejected)  ·  wall %s  ·  %s");
  g_assert_nonnull (strstr (status, "Schritte")); /* translated at all */
  g_assert_null (strstr (status, "Echtzeit"));    /* real time is something else */
  g_assert_nonnull (strstr (status, "Rechenzeit"));
}

/* the schematic's pill while a run is paused (not "Läuft") */
static void
test_paused_pill (void)
{
  const char *pill = g_dgettext (GETTEXT_PACKAGE, "Paused — editing locked");
  g_assert_cmpstr (pill, ==, "Angehalten – Bearbeiten gesperrt");
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  const char *messages = setlocale (LC_MESSAGES, NULL);
  if (messages == NULL || strcmp (messages, "C") == 0 || strcmp (messages, "POSIX") == 0)
    {
      g_print ("1..0 # SKIP no usable locale for LANGUAGE=de\n");
      return 77;
    }
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("BRAMAH_TEST_LOCALE_DIR"));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/german/decimal-comma", test_decimal_comma);
  g_test_add_func ("/ui/german/wall-clock-wording", test_wall_clock_wording);
  g_test_add_func ("/ui/german/paused-pill", test_paused_pill);
  return g_test_run ();
}
