/* test-autosave.c — where autosaves go and which are offered after a crash
 * (no display). */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>
#include "hyd-autosave.h"

static void
test_directory (void)
{
  g_autofree char *dir = hyd_autosave_get_directory ();
  g_autofree char *expected = g_build_filename (g_get_user_state_dir (), "bramah", "autosave", NULL);
  g_assert_cmpstr (dir, ==, expected);
  /* the test's environment points XDG_STATE_HOME into the build tree */
  const char *state = g_getenv ("XDG_STATE_HOME");
  if (state)
    g_assert_true (g_str_has_prefix (dir, state));
}

static void
test_names (void)
{
  g_autofree char *name = hyd_autosave_file_name (4242, 7);
  g_assert_cmpstr (name, ==, "4242-7.bramah");
  guint pid = 0, serial = 0;
  g_assert_true (hyd_autosave_parse_file_name (name, &pid, &serial));
  g_assert_cmpuint (pid, ==, 4242);
  g_assert_cmpuint (serial, ==, 7);

  static const char *const bad[] = {
    "4242-7.info", "circuit.bramah", "-7.bramah", "4242-.bramah", "4242.bramah", "42a2-7.bramah",
    "0-1.bramah", "4242-7-1.bramah", "99999999999-1.bramah", "",
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    g_assert_false (hyd_autosave_parse_file_name (bad[i], NULL, NULL));
}

static gboolean
only_pid_100_alive (guint pid, gpointer user_data)
{
  return pid == 100;
}

static void
test_write_list_remove (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bramah-autosave-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *sub = g_build_filename (dir, "deep", "autosave", NULL);

  /* the folder is created on the first write */
  g_autofree char *a
      = hyd_autosave_write (sub, 100, 1, "{\"alive\": 1}", "/home/u/live.bramah", "Live", &error);
  g_assert_no_error (error);
  g_autofree char *b = hyd_autosave_write (sub, 200, 1, "{\"dead\": 1}", "/home/u/crashed.bramah", "Crashed",
                                           &error);
  g_assert_no_error (error);
  g_autofree char *c = hyd_autosave_write (sub, 300, 2, "{\"dead\": 2}", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (b, "/200-1.bramah"));

  g_autofree char *contents = NULL;
  g_assert_true (g_file_get_contents (b, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "{\"dead\": 1}");

  /* make c the newer one */
  g_autofree char *c_info = g_build_filename (sub, "300-2.info", NULL);
  g_autoptr (GKeyFile) info = g_key_file_new ();
  g_assert_true (g_key_file_load_from_file (info, c_info, G_KEY_FILE_NONE, NULL));
  g_key_file_set_int64 (info, "Autosave", "saved-at", g_get_real_time () / G_USEC_PER_SEC + 100);
  g_assert_true (g_key_file_save_to_file (info, c_info, NULL));

  g_autoptr (GPtrArray) orphans = hyd_autosave_list_orphans (sub, only_pid_100_alive, NULL);
  g_assert_cmpuint (orphans->len, ==, 2);
  const HydAutosaveEntry *newest = g_ptr_array_index (orphans, 0);
  const HydAutosaveEntry *older = g_ptr_array_index (orphans, 1);
  g_assert_cmpstr (newest->path, ==, c);
  g_assert_null (newest->origin);
  g_assert_null (newest->title);
  g_assert_cmpuint (newest->pid, ==, 300);
  g_assert_cmpuint (newest->serial, ==, 2);
  g_assert_cmpstr (older->path, ==, b);
  g_assert_cmpstr (older->origin, ==, "/home/u/crashed.bramah");
  g_assert_cmpstr (older->title, ==, "Crashed");
  g_assert_cmpint (older->saved_at, >, 0);

  /* this very process is alive: its own autosave is never an orphan */
  g_autofree char *own = hyd_autosave_write (sub, (guint) getpid (), 1, "{}", NULL, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (GPtrArray) default_check = hyd_autosave_list_orphans (sub, NULL, NULL);
  for (guint i = 0; i < default_check->len; i++)
    g_assert_cmpstr (((HydAutosaveEntry *) g_ptr_array_index (default_check, i))->path, !=, own);

  hyd_autosave_remove (own);
  hyd_autosave_remove (a);
  hyd_autosave_remove (b);
  hyd_autosave_remove (c);
  hyd_autosave_remove (NULL);
  g_assert_false (g_file_test (b, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (c_info, G_FILE_TEST_EXISTS));
  g_autoptr (GPtrArray) none = hyd_autosave_list_orphans (sub, only_pid_100_alive, NULL);
  g_assert_cmpuint (none->len, ==, 0);

  g_rmdir (sub);
  g_autofree char *deep = g_build_filename (dir, "deep", NULL);
  g_rmdir (deep);
  g_rmdir (dir);
}

static void
test_no_folder (void)
{
  g_autoptr (GPtrArray) none = hyd_autosave_list_orphans ("/nonexistent/bramah/autosave", NULL, NULL);
  g_assert_cmpuint (none->len, ==, 0);
}

/* Issue 9, item 15: BRAMAH_AUTOSAVE_INTERVAL is parsed with bounds;
 * 4294967296 wrapped to 0 (a busy autosave loop). */
static void
test_interval (void)
{
  g_assert_cmpuint (hyd_autosave_parse_interval (NULL), ==, HYD_AUTOSAVE_INTERVAL_SECONDS);
  g_assert_cmpuint (hyd_autosave_parse_interval (""), ==, HYD_AUTOSAVE_INTERVAL_SECONDS);
  g_assert_cmpuint (hyd_autosave_parse_interval ("1"), ==, 1);
  g_assert_cmpuint (hyd_autosave_parse_interval ("2"), ==, 2);
  g_assert_cmpuint (hyd_autosave_parse_interval ("86400"), ==, 86400);
  const char *bad[] = { "4294967296", "4294967297", "18446744073709551616", "0", "-1", "86401", "abc", "5s",
                        " 5", "1e3" };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_test_expect_message ("hyd-autosave", G_LOG_LEVEL_WARNING, "*BRAMAH_AUTOSAVE_INTERVAL*");
      g_assert_cmpuint (hyd_autosave_parse_interval (bad[i]), ==, HYD_AUTOSAVE_INTERVAL_SECONDS);
      g_test_assert_expected_messages ();
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/autosave/directory", test_directory);
  g_test_add_func ("/ui/autosave/names", test_names);
  g_test_add_func ("/ui/autosave/write-list-remove", test_write_list_remove);
  g_test_add_func ("/ui/autosave/no-folder", test_no_folder);
  g_test_add_func ("/ui/autosave/interval", test_interval);
  return g_test_run ();
}
