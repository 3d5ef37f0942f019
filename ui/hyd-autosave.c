/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-autosave.c — autosave files and their recovery after a crash. */
#define G_LOG_DOMAIN "hyd-autosave"

#include "hyd-autosave.h"

#include "hyd-circuit.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#define INFO_GROUP "Autosave"

/* Writes (in the worker threads) and removals (in the main thread) take
 * turns, so a removal never races a write of the same file. */
static GMutex autosave_lock;

void
hyd_autosave_entry_free (HydAutosaveEntry *entry)
{
  if (entry == NULL)
    return;
  g_free (entry->path);
  g_free (entry->info_path);
  g_free (entry->origin);
  g_free (entry->title);
  g_free (entry);
}

char *
hyd_autosave_get_directory (void)
{
  return g_build_filename (g_get_user_state_dir (), "bramah", "autosave", NULL);
}

char *
hyd_autosave_file_name (guint pid, guint serial)
{
  return g_strdup_printf ("%u-%u.bramah", pid, serial);
}

gboolean
hyd_autosave_parse_file_name (const char *name, guint *pid, guint *serial)
{
  g_return_val_if_fail (name != NULL, FALSE);

  const char *dash = strchr (name, '-');
  if (dash == NULL || dash == name || !g_str_has_suffix (name, ".bramah"))
    return FALSE;
  const char *end = name + strlen (name) - strlen (".bramah");
  if (end <= dash + 1)
    return FALSE;
  for (const char *c = name; c < end; c++)
    if (c != dash && !g_ascii_isdigit (*c))
      return FALSE;

  guint64 p = g_ascii_strtoull (name, NULL, 10);
  guint64 s = g_ascii_strtoull (dash + 1, NULL, 10);
  if (p == 0 || p > G_MAXUINT || s > G_MAXUINT)
    return FALSE;
  if (pid)
    *pid = (guint) p;
  if (serial)
    *serial = (guint) s;
  return TRUE;
}

static char *
info_path_for (const char *path)
{
  g_autofree char *stem = g_strndup (path, strlen (path) - strlen (".bramah"));
  return g_strconcat (stem, ".info", NULL);
}

char *
hyd_autosave_path (const char *directory, guint pid, guint serial)
{
  g_autofree char *name = hyd_autosave_file_name (pid, serial);
  return g_build_filename (directory, name, NULL);
}

static char *
write_unlocked (const char *directory, guint pid, guint serial, const char *data, gsize length,
                const char *origin, const char *title, GError **error)
{
  if (g_mkdir_with_parents (directory, 0700) != 0)
    {
      int saved_errno = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "%s: %s", directory, g_strerror (saved_errno));
      return NULL;
    }

  g_autofree char *path = hyd_autosave_path (directory, pid, serial);
  g_autofree char *info_path = info_path_for (path);

  g_autoptr (GKeyFile) info = g_key_file_new ();
  if (origin)
    g_key_file_set_string (info, INFO_GROUP, "origin", origin);
  if (title)
    g_key_file_set_string (info, INFO_GROUP, "title", title);
  g_key_file_set_int64 (info, INFO_GROUP, "saved-at", g_get_real_time () / G_USEC_PER_SEC);
  gsize info_length;
  g_autofree char *info_data = g_key_file_to_data (info, &info_length, NULL);

  /* the engine's saver: atomic, the reader's size cap, and the user's
   * private state stays private (0600, whatever the umask) */
  if (!hyd_circuit_save_data_to_file (data, length, path, HYD_AUTOSAVE_FILE_MODE, error)
      || !hyd_circuit_save_data_to_file (info_data, info_length, info_path, HYD_AUTOSAVE_FILE_MODE,
                                         error))
    return NULL;
  return g_steal_pointer (&path);
}

char *
hyd_autosave_write (const char *directory, guint pid, guint serial, const char *data,
                    const char *origin, const char *title, GError **error)
{
  g_return_val_if_fail (directory != NULL, NULL);
  g_return_val_if_fail (data != NULL, NULL);

  g_mutex_lock (&autosave_lock);
  char *path = write_unlocked (directory, pid, serial, data, strlen (data), origin, title, error);
  g_mutex_unlock (&autosave_lock);
  return path;
}

typedef struct {
  char *directory;
  guint pid;
  guint serial;
  GBytes *data;
  char *origin;
  char *title;
} WriteJob;

static void
write_job_free (WriteJob *job)
{
  g_free (job->directory);
  g_bytes_unref (job->data);
  g_free (job->origin);
  g_free (job->title);
  g_free (job);
}

static void
write_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  WriteJob *job = task_data;
  GError *error = NULL;
  char *path = NULL;

  g_mutex_lock (&autosave_lock);
  /* a window that was closed while this waited removed its autosave: do
   * not write it again */
  if (!g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      gsize length;
      const char *data = g_bytes_get_data (job->data, &length);
      path = write_unlocked (job->directory, job->pid, job->serial, data ? data : "", length, job->origin,
                             job->title, &error);
    }
  g_mutex_unlock (&autosave_lock);

  if (path)
    g_task_return_pointer (task, path, g_free);
  else
    g_task_return_error (task, error);
}

void
hyd_autosave_write_async (const char *directory, guint pid, guint serial, GBytes *data,
                          const char *origin, const char *title, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (directory != NULL);
  g_return_if_fail (data != NULL);

  WriteJob *job = g_new0 (WriteJob, 1);
  job->directory = g_strdup (directory);
  job->pid = pid;
  job->serial = serial;
  job->data = g_bytes_ref (data);
  job->origin = g_strdup (origin);
  job->title = g_strdup (title);

  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, hyd_autosave_write_async);
  g_task_set_task_data (task, job, (GDestroyNotify) write_job_free);
  g_task_run_in_thread (task, write_thread);
}

char *
hyd_autosave_write_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

guint
hyd_autosave_parse_interval (const char *text)
{
  if (text == NULL || *text == '\0')
    return HYD_AUTOSAVE_INTERVAL_SECONDS;
  guint64 value = 0;
  g_autoptr (GError) error = NULL;
  /* bounded parse: 4294967296 must not wrap to 0 (a busy autosave loop) */
  if (!g_ascii_string_to_unsigned (text, 10, 1, HYD_AUTOSAVE_INTERVAL_MAX_SECONDS, &value, &error))
    {
      g_warning ("BRAMAH_AUTOSAVE_INTERVAL=%s ignored (%s): autosaving every %d s", text, error->message,
                 HYD_AUTOSAVE_INTERVAL_SECONDS);
      return HYD_AUTOSAVE_INTERVAL_SECONDS;
    }
  return (guint) value;
}

void
hyd_autosave_remove (const char *path)
{
  if (path == NULL || !g_str_has_suffix (path, ".bramah"))
    return;
  g_autofree char *info_path = info_path_for (path);
  g_mutex_lock (&autosave_lock);
  g_remove (path);
  g_remove (info_path);
  g_mutex_unlock (&autosave_lock);
}

/* A process is alive when it exists; where /proc tells its name, it must
 * also be a Bramah (a recycled pid of another program does not hide an
 * orphaned autosave). */
static gboolean
default_alive (guint pid, gpointer user_data)
{
  if (pid == (guint) getpid ())
    return TRUE;
  g_autofree char *comm_path = g_strdup_printf ("/proc/%u/comm", pid);
  g_autofree char *comm = NULL;
  if (g_file_get_contents (comm_path, &comm, NULL, NULL))
    return g_str_has_prefix (comm, "bramah");
  if (g_file_test ("/proc/self", G_FILE_TEST_IS_DIR))
    return FALSE;
  return kill ((pid_t) pid, 0) == 0 || errno == EPERM;
}

static int
compare_newest_first (gconstpointer a, gconstpointer b)
{
  const HydAutosaveEntry *ea = *(HydAutosaveEntry *const *) a;
  const HydAutosaveEntry *eb = *(HydAutosaveEntry *const *) b;
  if (ea->saved_at != eb->saved_at)
    return ea->saved_at < eb->saved_at ? 1 : -1;
  return g_strcmp0 (ea->path, eb->path);
}

GPtrArray *
hyd_autosave_list_orphans (const char *directory, HydAutosaveAliveFunc alive, gpointer user_data)
{
  g_return_val_if_fail (directory != NULL, NULL);

  GPtrArray *entries = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_autosave_entry_free);
  g_autoptr (GDir) dir = g_dir_open (directory, 0, NULL);
  if (dir == NULL)
    return entries;
  if (alive == NULL)
    alive = default_alive;

  const char *name;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      guint pid, serial;
      if (!hyd_autosave_parse_file_name (name, &pid, &serial) || alive (pid, user_data))
        continue;

      HydAutosaveEntry *entry = g_new0 (HydAutosaveEntry, 1);
      entry->path = g_build_filename (directory, name, NULL);
      entry->info_path = info_path_for (entry->path);
      entry->pid = pid;
      entry->serial = serial;

      g_autoptr (GKeyFile) info = g_key_file_new ();
      if (g_key_file_load_from_file (info, entry->info_path, G_KEY_FILE_NONE, NULL))
        {
          entry->origin = g_key_file_get_string (info, INFO_GROUP, "origin", NULL);
          entry->title = g_key_file_get_string (info, INFO_GROUP, "title", NULL);
          entry->saved_at = g_key_file_get_int64 (info, INFO_GROUP, "saved-at", NULL);
        }
      if (entry->saved_at == 0)
        {
          GStatBuf st;
          if (g_stat (entry->path, &st) == 0)
            entry->saved_at = st.st_mtime;
        }
      g_ptr_array_add (entries, entry);
    }
  g_ptr_array_sort (entries, compare_newest_first);
  return entries;
}
