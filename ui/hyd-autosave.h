/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-autosave.h — where unsaved circuits are kept between crashes.
 *
 * Every window writes its modified circuit every 30 s to
 * $XDG_STATE_HOME/bramah/autosave/<pid>-<serial>.bramah, with a small key
 * file beside it (<pid>-<serial>.info: the file it came from, its title and
 * when it was written). A clean close removes both. At the next start the
 * files whose process is gone are offered for recovery. No GTK here: the
 * path logic is tested headless.
 *
 * The files are written by the engine's saver (hyd_circuit_save_data_to_file:
 * atomic, never larger than the reader accepts) with mode 0600, the user's
 * private drawing state; the window makes the text on the main thread and
 * writes it in a worker thread (hyd_autosave_write_async). */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define HYD_AUTOSAVE_INTERVAL_SECONDS 30
#define HYD_AUTOSAVE_FILE_MODE 0600
/* The longest interval BRAMAH_AUTOSAVE_INTERVAL may ask for: one day. */
#define HYD_AUTOSAVE_INTERVAL_MAX_SECONDS 86400

/* The autosave interval in seconds from BRAMAH_AUTOSAVE_INTERVAL's text: a
 * whole number from 1 to HYD_AUTOSAVE_INTERVAL_MAX_SECONDS. NULL, empty,
 * zero, negative, out of range or not a number give the default
 * (HYD_AUTOSAVE_INTERVAL_SECONDS) and, except for NULL or empty, a
 * warning that says so. */
guint hyd_autosave_parse_interval (const char *text);

typedef struct {
  char *path;         /* the autosaved circuit */
  char *info_path;    /* its key file */
  char *origin;       /* the file it was opened from, or NULL (a new circuit) */
  char *title;        /* the circuit's title, or NULL */
  gint64 saved_at;    /* unix time of the autosave */
  guint pid;
  guint serial;
} HydAutosaveEntry;

void hyd_autosave_entry_free (HydAutosaveEntry *entry);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydAutosaveEntry, hyd_autosave_entry_free)

/* $XDG_STATE_HOME/bramah/autosave (not created). */
char *hyd_autosave_get_directory (void);
/* "<pid>-<serial>.bramah" */
char *hyd_autosave_file_name (guint pid, guint serial);
/* The inverse: FALSE when `name` is not an autosave file name. */
gboolean hyd_autosave_parse_file_name (const char *name, guint *pid, guint *serial);

/* directory/<pid>-<serial>.bramah */
char *hyd_autosave_path (const char *directory, guint pid, guint serial);

/* Write `data` (the circuit's JSON) and its key file into `directory`
 * (created when missing, 0700), atomically, both with mode 0600. A text
 * larger than HYD_CIRCUIT_MAX_FILE_SIZE is refused (the old autosave stays).
 * Returns the circuit's path. */
char *hyd_autosave_write (const char *directory, guint pid, guint serial, const char *data,
                          const char *origin, const char *title, GError **error);
/* The same in a worker thread; `data` is the text, made by the caller.
 * Cancelling `cancellable` before the write starts skips it (the error is
 * G_IO_ERROR_CANCELLED); writes and hyd_autosave_remove take turns, so a
 * cancel followed by a remove leaves no file behind. */
void hyd_autosave_write_async (const char *directory, guint pid, guint serial, GBytes *data,
                               const char *origin, const char *title, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data);
/* The autosave's path, or NULL with the error. */
char *hyd_autosave_write_finish (GAsyncResult *result, GError **error);
/* Remove an autosave and its key file (missing files are no error); waits
 * for a write under way. */
void hyd_autosave_remove (const char *path);

typedef gboolean (*HydAutosaveAliveFunc) (guint pid, gpointer user_data);
/* The autosaves in `directory` whose process is not alive (alive may be NULL:
 * a POSIX kill (pid, 0) check), newest first. */
GPtrArray *hyd_autosave_list_orphans (const char *directory, HydAutosaveAliveFunc alive,
                                      gpointer user_data);

G_END_DECLS
