/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-german.c — a German interface on a locale whose decimal point is '.'
 * (LANGUAGE=de, LC_ALL=C.UTF-8, the catalogue of the build tree): fields
 * take a decimal comma, and the status line's wall-clock time is not called
 * "Echtzeit" (real time). Issue 8, item 16. Skips (77) when the C library
 * cannot honour LANGUAGE here. */
#include <glib.h>
#include <libintl.h>
#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>
#include "hyd-diagnostic.h"
#include "hyd-display-units.h"
#include "hyd-system.h"
#include "hyd-message.h"
#include "hyd-trace-store.h"

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

/* The GUI's CSV export speaks the interface's language (issue 8, item 14),
 * its numbers stay machine-readable: '.' and ',' whatever the language. */
static void
test_csv_header (void)
{
  g_autofree char *label = hyd_message_column_header ("DCV1.spool", HYD_UNIT_NONE);
  g_assert_cmpstr (label, ==, "DCV1: Schieberstellung");
  g_autofree char *point = hyd_message_column_header ("L1.p3", HYD_UNIT_PRESSURE);
  g_assert_cmpstr (point, ==, "L1 Punkt 3: Druck [bar]");

  const char *const names[] = { "t", "C1.x", "C1.A.p" };
  const HydUnit units[] = { HYD_UNIT_TIME, HYD_UNIT_POSITION, HYD_UNIT_PRESSURE };
  g_autoptr (HydTraceStore) store = hyd_trace_store_new (names, units, 3);
  const double rows[] = { 0.25, 0.0125, 1.5e5 };
  hyd_trace_store_append (store, rows, 1);
  g_autofree char *dir = g_dir_make_tmp ("hyd-german-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "run.csv", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (hyd_trace_store_write_csv (store, NULL, path, &error));
  g_assert_no_error (error);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "Zeit [s],C1: Position [mm],C1.A: Druck [bar]\n0.25,12.5,1.5\n");

  /* and its errors (the window shows them after "„run.csv“ konnte nicht
   * exportiert werden: ") */
  g_autofree char *bad = g_build_filename (dir, "fehlt", "run.csv", NULL);
  g_assert_false (hyd_trace_store_write_csv (store, NULL, bad, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "„"));
  g_assert_nonnull (strstr (error->message, "run.csv“ kann nicht geschrieben werden: "));
  g_clear_error (&error);
  const char *const unknown[] = { "C9.x", NULL };
  g_assert_false (hyd_trace_store_write_csv (store, unknown, path, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, "Der Lauf hat keine Variable „C9.x“");
  g_clear_error (&error);
  g_remove (path);
  g_rmdir (dir);
}

/* The engine's diagnostics reach the German interface as German sentences
 * (issue 10, item 4): the text the window shows for a circuit that cannot
 * run, through the same calls (hyd-window-sim.c). */
static void
test_diagnostic_message (void)
{
  const char *json = "{\"format\": \"bramah-circuit\", \"version\": 1, \"components\": ["
                     "{\"id\": \"Q1\", \"type\": \"flow_source\"},"
                     "{\"id\": \"O1\", \"type\": \"orifice\"}],"
                     "\"connections\": [{\"from\": \"Q1.P\", \"to\": \"O1.A\"}]}";
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "t.bramah", &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_null (sys);
  /* the GError itself stays English */
  g_assert_cmpstr (error->message, ==, "port O1.B is not connected: every B port of a orifice must be wired");
  g_autofree char *text = hyd_diagnostic_dup_error_message (error, GETTEXT_PACKAGE);
  g_autofree char *shown = hyd_message_humanize (circuit, text);
  g_assert_cmpstr (shown, ==,
                   "Anschluss O1.B ist nicht verbunden: jeder Anschluss B eines Bauteils vom Typ "
                   "orifice muss verdrahtet sein");
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
  textdomain (GETTEXT_PACKAGE); /* as the application: _() of hyd-message */
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/german/decimal-comma", test_decimal_comma);
  g_test_add_func ("/ui/german/wall-clock-wording", test_wall_clock_wording);
  g_test_add_func ("/ui/german/paused-pill", test_paused_pill);
  g_test_add_func ("/ui/german/csv-header", test_csv_header);
  g_test_add_func ("/ui/german/diagnostic-message", test_diagnostic_message);
  return g_test_run ();
}
