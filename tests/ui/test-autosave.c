/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-autosave.c — where autosaves go and which are offered after a crash
 * (no display). */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "hyd-autosave.h"
#include "hyd-circuit.h"

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

static guint
file_mode (const char *path)
{
  GStatBuf st;
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return st.st_mode & 07777;
}

static guint
count_files (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  guint n = 0;
  while (g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static void
remove_tree (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_remove (path);
    }
  g_rmdir (dir);
}

/* The autosave is the user's private drawing state: 0600 whatever the
 * umask, also over an older autosave that was readable by others. */
static void
test_private_mode (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bramah-autosave-XXXXXX", &error);
  g_assert_no_error (error);
  mode_t old_umask = umask (022);

  g_autofree char *path = hyd_autosave_write (dir, 500, 1, "{\"a\": 1}", "/home/u/x.bramah", "X", &error);
  g_assert_no_error (error);
  g_autofree char *info = g_build_filename (dir, "500-1.info", NULL);
  g_assert_cmpuint (file_mode (path), ==, 0600);
  g_assert_cmpuint (file_mode (info), ==, 0600);

  g_assert_cmpint (g_chmod (path, 0644), ==, 0);
  g_assert_cmpint (g_chmod (info, 0644), ==, 0);
  g_free (hyd_autosave_write (dir, 500, 1, "{\"a\": 2}", NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (file_mode (path), ==, 0600);
  g_assert_cmpuint (file_mode (info), ==, 0600);
  /* no temporaries left beside them */
  g_assert_cmpuint (count_files (dir), ==, 2);

  umask (old_umask);
  remove_tree (dir);
}

/* Never write what the loader refuses: a text over the reader's cap is not
 * written and the last good autosave stays. */
static void
test_size_cap (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bramah-autosave-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *path = hyd_autosave_write (dir, 501, 1, "{\"good\": 1}", NULL, NULL, &error);
  g_assert_no_error (error);

  gsize n = (gsize) HYD_CIRCUIT_MAX_FILE_SIZE + 1;
  g_autofree char *big = g_malloc (n + 1);
  memset (big, ' ', n);
  big[0] = '{';
  big[n - 1] = '}';
  big[n] = '\0';
  g_autofree char *none = hyd_autosave_write (dir, 501, 1, big, NULL, NULL, &error);
  g_assert_null (none);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_FILE);
  g_assert_nonnull (strstr (error->message, "32 MiB"));

  g_autofree char *contents = NULL;
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "{\"good\": 1}");
  g_assert_cmpuint (count_files (dir), ==, 2);
  remove_tree (dir);
}

typedef struct {
  gboolean done;
  char *path;
  GError *error;
} AsyncResult;

static void
written_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  AsyncResult *r = user_data;
  g_assert_true (g_main_context_is_owner (g_main_context_default ()));
  r->path = hyd_autosave_write_finish (result, &r->error);
  r->done = TRUE;
}

/* The window makes the text and a worker thread writes it: the file
 * appears while the main loop does not run, and the result comes back to
 * the main loop. */
static void
test_async (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bramah-autosave-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *sub = g_build_filename (dir, "autosave", NULL);
  g_autoptr (GBytes) data = g_bytes_new_static ("{\"async\": 1}", strlen ("{\"async\": 1}"));

  AsyncResult r = { 0 };
  hyd_autosave_write_async (sub, 502, 3, data, "/home/u/a.bramah", "A", NULL, written_cb, &r);
  g_autofree char *expected = hyd_autosave_path (sub, 502, 3);
  g_autofree char *info = g_build_filename (sub, "502-3.info", NULL);
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (!g_file_test (info, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < end)
    g_usleep (1000);
  g_assert_true (g_file_test (info, G_FILE_TEST_EXISTS));
  g_assert_false (r.done);
  while (!r.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (r.error);
  g_assert_cmpstr (r.path, ==, expected);
  g_autofree char *contents = NULL;
  g_assert_true (g_file_get_contents (expected, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "{\"async\": 1}");
  g_assert_cmpuint (file_mode (expected), ==, 0600);
  g_free (r.path);

  /* a closed window cancels: a write not started is skipped */
  hyd_autosave_remove (expected);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_cancellable_cancel (cancellable);
  AsyncResult c = { 0 };
  hyd_autosave_write_async (sub, 502, 3, data, NULL, NULL, cancellable, written_cb, &c);
  while (!c.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (c.path);
  g_assert_true (g_error_matches (c.error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
  g_clear_error (&c.error);
  g_assert_false (g_file_test (expected, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_files (sub), ==, 0);

  remove_tree (sub);
  g_rmdir (dir);
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
  g_test_add_func ("/ui/autosave/private-mode", test_private_mode);
  g_test_add_func ("/ui/autosave/size-cap", test_size_cap);
  g_test_add_func ("/ui/autosave/async", test_async);
  g_test_add_func ("/ui/autosave/interval", test_interval);
  return g_test_run ();
}
