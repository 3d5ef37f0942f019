/* test-window.c — the main window driven through its actions: open an
 * example, run it to its end (the circuit stays unmodified), and a circuit
 * that fails its check is not run. Skips (77) without a display. */
#include <gtk/gtk.h>
#include <string.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include "hyd-autosave.h"
#include "hyd-help.h"
#include "hyd-help-text.h"
#include "hyd-simulation.h"
#include "hyd-window.h"
#include "hyd-window-private.h"

static gboolean
idle_once (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Let the main loop handle what is queued. */
static void
iterate (void)
{
  gboolean done = FALSE;
  g_idle_add (idle_once, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static void
test_open_and_run (void)
{
  HydWindow *window = hyd_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (hyd_window_is_pristine (window));
  HydSimulation *sim = hyd_window_get_simulation (window);
  g_assert_cmpint (hyd_simulation_get_state (sim), ==, HYD_RUNNER_READY);

  g_autofree char *path
      = g_build_filename (g_getenv ("BRAMAH_EXAMPLES_DIR"), "cylinder-extend-retract.bramah", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_assert_true (hyd_window_open_file (window, file));
  iterate ();
  g_assert_false (hyd_window_is_pristine (window));
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (window)), "cylinder-extend-retract.bramah"));
  HydDocument *doc = hyd_window_get_document (window);
  g_assert_cmpuint (hyd_document_get_circuit (doc)->components->len, ==, 7);
  g_assert_false (hyd_document_get_modified (doc));

  /* a file that does not load leaves the window as it was */
  g_autoptr (GFile) missing = g_file_new_for_path ("/nonexistent/circuit.bramah");
  g_assert_false (hyd_window_open_file (window, missing));
  g_assert_true (hyd_window_get_document (window) == doc);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "sim.run", NULL));
  g_assert_true (hyd_simulation_get_active (sim));
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (hyd_simulation_get_active (sim) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (hyd_simulation_get_state (sim), ==, HYD_RUNNER_FINISHED);
  g_assert_cmpuint (hyd_trace_store_get_n_rows (hyd_simulation_get_store (sim)), ==, 1501);
  iterate ();
  /* the run changed nothing in the circuit */
  g_assert_false (hyd_document_get_modified (doc));

  /* a broken circuit (a tank removed, its pump left open) is reported, not run */
  const char *ids[] = { "T1", NULL };
  hyd_document_remove_items (doc, ids);
  iterate ();
  HydTraceStore *before = hyd_simulation_get_store (sim);
  gtk_widget_activate_action (GTK_WIDGET (window), "sim.run", NULL);
  iterate ();
  g_assert_false (hyd_simulation_get_active (sim));
  g_assert_true (hyd_simulation_get_store (sim) == before);
  gtk_widget_activate_action (GTK_WIDGET (window), "doc.undo", NULL);
  iterate ();
  g_assert_false (hyd_document_get_modified (doc));

  /* reset forgets the run */
  gtk_widget_activate_action (GTK_WIDGET (window), "sim.reset", NULL);
  iterate ();
  g_assert_null (hyd_simulation_get_store (sim));

  gtk_window_destroy (GTK_WINDOW (window));
}

static HydWindow *
modified_window (void)
{
  HydWindow *window = hyd_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  g_autofree char *path
      = g_build_filename (g_getenv ("BRAMAH_EXAMPLES_DIR"), "cylinder-extend-retract.bramah", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_assert_true (hyd_window_open_file (window, file));
  iterate ();
  const char *ids[] = { "T1", NULL };
  hyd_document_remove_items (hyd_window_get_document (window), ids);
  iterate ();
  g_assert_true (hyd_document_get_modified (hyd_window_get_document (window)));
  return window;
}

/* The window's autosave is written in a worker thread with mode 0600, and a
 * window that closes leaves none behind, also when it closes while the
 * write is under way. */
static void
test_autosave (void)
{
  HydWindow *window = modified_window ();
  _hyd_window_autosave_now (window);
  g_assert_true (window->autosave_writing);
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (window->autosave_path == NULL && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (window->autosave_path);
  g_autofree char *path = g_strdup (window->autosave_path);
  GStatBuf st;
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpuint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpuint (window->autosaved_edits, ==, window->edits);
  gtk_window_destroy (GTK_WINDOW (window));
  iterate ();
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  /* closed while its write is under way */
  window = modified_window ();
  _hyd_window_autosave_now (window);
  g_autofree char *directory = hyd_autosave_get_directory ();
  g_autofree char *pending = hyd_autosave_path (directory, (guint) getpid (), window->autosave_serial);
  gtk_window_destroy (GTK_WINDOW (window));
  end = g_get_monotonic_time () + G_USEC_PER_SEC / 2;
  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  g_assert_false (g_file_test (pending, G_FILE_TEST_EXISTS));
}

/* A failed autosave is said in the window (once), not only on stderr. */
static void
test_autosave_failure (void)
{
  g_autofree char *directory = hyd_autosave_get_directory ();
  g_rmdir (directory); /* empty, or absent */
  g_autofree char *parent = g_path_get_dirname (directory);
  g_mkdir_with_parents (parent, 0700);
  /* a file where the folder should be: the write fails even as root */
  g_assert_true (g_file_set_contents (directory, "", 0, NULL));

  HydWindow *window = modified_window ();
  _hyd_window_autosave_now (window);
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (window->autosave_writing && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (window->autosave_writing);
  g_assert_null (window->autosave_path);
  g_assert_true (window->autosave_failed);
  const char *message = gtk_label_get_text (window->info_label);
  g_assert_nonnull (strstr (message, "Autosave failed"));
  g_assert_nonnull (strstr (message, "Save the circuit"));
  gtk_window_destroy (GTK_WINDOW (window));
  iterate ();
  g_assert_cmpint (g_remove (directory), ==, 0);
}

static gboolean
none_alive (guint pid, gpointer user_data)
{
  return FALSE;
}

/* An autosave that no longer loads is not deleted by Recover: the message
 * says why and where it is kept. */
static void
test_recover_unloadable (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bramah-recover-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *path = hyd_autosave_write (dir, 4000001, 1, "{\"format\": \"bramah-circuit\", ", NULL,
                                              "Broken", &error);
  g_assert_no_error (error);
  g_autoptr (GPtrArray) entries = hyd_autosave_list_orphans (dir, none_alive, NULL);
  g_assert_cmpuint (entries->len, ==, 1);

  HydWindow *window = hyd_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  iterate ();
  hyd_window_offer_recovery (window, entries);
  iterate ();
  _hyd_window_recover (window);
  iterate ();
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  const char *message = gtk_label_get_text (window->info_label);
  g_assert_nonnull (strstr (message, "Could not recover"));
  g_assert_nonnull (strstr (message, "kept"));
  g_assert_nonnull (strstr (message, path));
  gtk_window_destroy (GTK_WINDOW (window));
  iterate ();
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));

  hyd_autosave_remove (path);
  g_rmdir (dir);
}

/* Recover: the old autosave goes only once the recovered circuit is safe
 * in the window's own (written in the background, 0600). */
static void
test_recover (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bramah-recover-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *example
      = g_build_filename (g_getenv ("BRAMAH_EXAMPLES_DIR"), "cylinder-extend-retract.bramah", NULL);
  g_autofree char *data = NULL;
  g_assert_true (g_file_get_contents (example, &data, NULL, NULL));
  g_autofree char *old = hyd_autosave_write (dir, 4000002, 1, data, example, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (GPtrArray) entries = hyd_autosave_list_orphans (dir, none_alive, NULL);
  g_assert_cmpuint (entries->len, ==, 1);

  HydWindow *window = hyd_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  iterate ();
  hyd_window_offer_recovery (window, entries);
  _hyd_window_recover (window);
  g_assert_true (window->recovered);
  g_assert_cmpuint (hyd_document_get_circuit (hyd_window_get_document (window))->components->len, ==, 7);
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (window->autosave_path == NULL && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (window->autosave_path);
  g_assert_false (g_file_test (old, G_FILE_TEST_EXISTS));
  GStatBuf st;
  g_assert_cmpint (g_stat (window->autosave_path, &st), ==, 0);
  g_assert_cmpuint (st.st_mode & 0777, ==, 0600);
  g_autofree char *mine = g_strdup (window->autosave_path);
  gtk_window_destroy (GTK_WINDOW (window));
  iterate ();
  g_assert_false (g_file_test (mine, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

static gboolean
find_label_containing (GtkWidget *widget, const char *needle)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget)
      && strstr (gtk_label_get_text (GTK_LABEL (widget)), needle))
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    if (find_label_containing (child, needle))
      return TRUE;
  return FALSE;
}

/* The help window has a page on the fluid models. */
static void
test_help_fluid_page (void)
{
  HydHelpWindow *help = hyd_help_window_new ();
  gtk_window_present (GTK_WINDOW (help));
  hyd_help_window_show_type (help, HYD_HELP_PAGE_FLUID);
  iterate ();
  g_assert_cmpstr (hyd_help_window_get_type_id (help), ==, HYD_HELP_PAGE_FLUID);
  g_assert_true (find_label_containing (GTK_WIDGET (help), "cavitating (the default)"));
  g_assert_true (find_label_containing (GTK_WIDGET (help), "Burton 1994"));
  /* and back to a component */
  hyd_help_window_show_type (help, "tank");
  iterate ();
  g_assert_cmpstr (hyd_help_window_get_type_id (help), ==, "tank");
  g_assert_false (find_label_containing (GTK_WIDGET (help), "Burton 1994"));
  gtk_window_destroy (GTK_WINDOW (help));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  /* this test's own autosave folder (before GLib reads the variable) */
  g_autofree char *state = g_dir_make_tmp ("bramah-test-window-XXXXXX", NULL);
  g_assert_nonnull (state);
  g_setenv ("XDG_STATE_HOME", state, TRUE);
  if (!gtk_init_check ())
    {
      g_print ("SKIP: no display\n");
      return 77;
    }
  g_test_add_func ("/ui/window/open-and-run", test_open_and_run);
  g_test_add_func ("/ui/window/autosave", test_autosave);
  g_test_add_func ("/ui/window/autosave-failure", test_autosave_failure);
  g_test_add_func ("/ui/window/recover", test_recover);
  g_test_add_func ("/ui/window/recover-unloadable", test_recover_unloadable);
  g_test_add_func ("/ui/window/help-fluid-page", test_help_fluid_page);
  int status = g_test_run ();
  g_autofree char *autosave = hyd_autosave_get_directory ();
  g_autofree char *bramah = g_path_get_dirname (autosave);
  g_rmdir (autosave);
  g_rmdir (bramah);
  g_rmdir (state);
  return status;
}
