/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-window-files.c — open, save, save as, the unsaved-changes prompt,
 * recent files, the examples gallery, exports and autosave. */
#define G_LOG_DOMAIN "hyd-window-files"

#include "bramah-config.h"
#include "hyd-window-private.h"

#include <glib/gi18n.h>
#include <string.h>
#include <unistd.h>
#include "hyd-autosave.h"
#include "hyd-examples.h"
#include "hyd-examples-dialog.h"
#include "hyd-schematic.h"

#define MIME_TYPE "application/x-bramah-circuit"
#define N_RECENT 10
/* Export scales: device units per canvas unit (1 unit = 1 px at 100 %). */
#define EXPORT_PNG_SCALE 2.0
#define EXPORT_VECTOR_SCALE 0.75

static guint next_autosave_serial = 1;

typedef struct {
  HydWindow *self;
  HydWindowContinuation then;
  gpointer user_data;
} Pending;

static Pending *
pending_new (HydWindow *self, HydWindowContinuation then, gpointer user_data)
{
  Pending *p = g_new0 (Pending, 1);
  p->self = g_object_ref (self);
  p->then = then;
  p->user_data = user_data;
  return p;
}

static void
pending_finish (Pending *p, gboolean go_on)
{
  if (go_on && p->then)
    p->then (p->self, p->user_data);
  g_object_unref (p->self);
  g_free (p);
}

static GtkFileFilter *
circuit_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("Bramah circuits"));
  gtk_file_filter_add_pattern (filter, "*.bramah");
  gtk_file_filter_add_mime_type (filter, MIME_TYPE);
  return filter;
}

static void
set_chooser_folder (HydWindow *self, GtkFileChooser *chooser)
{
  g_autofree char *folder = NULL;
  if (self->path)
    folder = g_path_get_dirname (self->path);
  else if (self->settings)
    folder = g_settings_get_string (self->settings, "last-folder");
  if (folder == NULL || *folder == '\0' || !g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_free (folder);
      const char *docs = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
      folder = g_strdup (docs && g_file_test (docs, G_FILE_TEST_IS_DIR) ? docs : g_get_home_dir ());
    }
  g_autoptr (GFile) file = g_file_new_for_path (folder);
  gtk_file_chooser_set_current_folder (chooser, file, NULL);
}

static void
remember_folder (HydWindow *self, const char *path)
{
  if (self->settings == NULL || path == NULL)
    return;
  g_autofree char *folder = g_path_get_dirname (path);
  g_settings_set_string (self->settings, "last-folder", folder);
}

static void
add_recent (const char *path)
{
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  if (uri == NULL)
    return;
  GtkRecentData data = { 0 };
  data.mime_type = (char *) MIME_TYPE;
  data.app_name = (char *) g_get_application_name ();
  data.app_exec = (char *) "bramah %u";
  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

/* ---- the unsaved-changes prompt ---- */

enum {
  PROMPT_CANCEL,
  PROMPT_DISCARD,
  PROMPT_SAVE,
};

static void
prompt_response_cb (GtkDialog *dialog, int response, Pending *p)
{
  /* the dialog outlives this emission; it must not point at a window that
   * its answer may close */
  gtk_window_set_transient_for (GTK_WINDOW (dialog), NULL);
  gtk_window_destroy (GTK_WINDOW (dialog));
  switch (response)
    {
    case PROMPT_SAVE:
      _hyd_window_save (p->self, p->then, p->user_data);
      pending_finish (p, FALSE);
      break;
    case PROMPT_DISCARD:
      pending_finish (p, TRUE);
      break;
    default:
      pending_finish (p, FALSE);
      break;
    }
}

void
_hyd_window_confirm_discard (HydWindow *self, HydWindowContinuation then, gpointer user_data)
{
  if (!_hyd_window_get_modified (self))
    {
      if (then)
        then (self, user_data);
      return;
    }
  g_autofree char *name = self->path ? g_path_get_basename (self->path) : g_strdup (_("Untitled circuit"));
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  GtkWidget *dialog
      = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, _("Save changes to “%s”?"), name);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                            _("If you don’t save, the changes to the circuit will be lost."));
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), PROMPT_CANCEL);
  GtkWidget *discard = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Discard"), PROMPT_DISCARD);
  gtk_widget_add_css_class (discard, "destructive-action");
  GtkWidget *save = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Save"), PROMPT_SAVE);
  gtk_widget_add_css_class (save, "suggested-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), PROMPT_SAVE);
  G_GNUC_END_IGNORE_DEPRECATIONS
  g_signal_connect (dialog, "response", G_CALLBACK (prompt_response_cb), pending_new (self, then, user_data));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ---- new and open ---- */

static void
new_confirmed (HydWindow *self, gpointer user_data)
{
  g_autoptr (HydDocument) document = hyd_document_new ();
  hyd_autosave_remove (self->autosave_path);
  g_clear_pointer (&self->autosave_path, g_free);
  _hyd_window_hide_info (self);
  _hyd_window_set_document (self, document, NULL);
}

void
_hyd_window_new_document (HydWindow *self)
{
  _hyd_window_confirm_discard (self, new_confirmed, NULL);
}

static gboolean
load_path (HydWindow *self, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydDocument) document = hyd_document_new_from_file (path, &error);
  if (document == NULL)
    {
      g_autofree char *name = g_filename_display_basename (path);
      /* translators: "Could not open “circuit.bramah”: <reason>" */
      g_autofree char *why = hyd_diagnostic_dup_error_message (error, GETTEXT_PACKAGE);
      g_autofree char *message = g_strdup_printf (_("Could not open “%s”: %s"), name, why);
      _hyd_window_show_message (self, GTK_MESSAGE_ERROR, message);
      return FALSE;
    }
  hyd_autosave_remove (self->autosave_path);
  g_clear_pointer (&self->autosave_path, g_free);
  if (self->info_kind == HYD_INFO_MESSAGE)
    _hyd_window_hide_info (self);
  _hyd_window_set_document (self, document, path);
  add_recent (path);
  remember_folder (self, path);
  return TRUE;
}

gboolean
hyd_window_open_file (HydWindow *self, GFile *file)
{
  g_return_val_if_fail (HYD_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_autofree char *path = g_file_get_path (file);
  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);
      g_autofree char *message
          = g_strdup_printf (_("Could not open “%s”: only local files can be opened"), uri);
      _hyd_window_show_message (self, GTK_MESSAGE_ERROR, message);
      return FALSE;
    }
  return load_path (self, path);
}

static void
open_response_cb (GtkNativeDialog *chooser, int response, HydWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      if (file)
        hyd_window_open_file (self, file);
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
}

static void
open_confirmed (HydWindow *self, gpointer user_data)
{
  GtkFileChooserNative *chooser =
    gtk_file_chooser_native_new (_("Open Circuit"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                 _("_Open"), _("_Cancel"));
  g_autoptr (GtkFileFilter) circuits = circuit_filter ();
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), circuits);
  g_autoptr (GtkFileFilter) all = gtk_file_filter_new ();
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), all);
  set_chooser_folder (self, GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (open_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
_hyd_window_open_dialog (HydWindow *self)
{
  _hyd_window_confirm_discard (self, open_confirmed, NULL);
}

static void
open_recent_confirmed (HydWindow *self, gpointer user_data)
{
  g_autofree char *uri = user_data;
  g_autoptr (GFile) file = g_file_new_for_uri (uri);
  hyd_window_open_file (self, file);
}

void
_hyd_window_open_recent (HydWindow *self, const char *uri)
{
  _hyd_window_confirm_discard (self, open_recent_confirmed, g_strdup (uri));
}

static void
example_chosen_cb (HydExamplesDialog *dialog, const char *path, HydWindow *self)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  if (hyd_window_is_pristine (self))
    {
      hyd_window_open_file (self, file);
      return;
    }
  /* an example never replaces the user's work: it gets its own window */
  HydWindow *window = hyd_window_new (gtk_window_get_application (GTK_WINDOW (self)));
  gtk_window_present (GTK_WINDOW (window));
  hyd_window_open_file (window, file);
}

void
_hyd_window_examples (HydWindow *self)
{
  HydExamplesDialog *dialog = hyd_examples_dialog_new (GTK_WINDOW (self));
  g_signal_connect_object (dialog, "example-chosen", G_CALLBACK (example_chosen_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

void
_hyd_window_update_recent_menu (HydWindow *self)
{
  g_menu_remove_all (self->recent_section);
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  guint n = 0;
  for (GList *l = items; l && n < N_RECENT; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      const char *uri = gtk_recent_info_get_uri (info);
      if (!g_str_has_suffix (uri, ".bramah") || !gtk_recent_info_exists (info))
        continue;
      g_autoptr (GMenuItem) item = g_menu_item_new (gtk_recent_info_get_display_name (info), NULL);
      g_menu_item_set_action_and_target_value (item, "win.open-recent", g_variant_new_string (uri));
      g_menu_append_item (self->recent_section, item);
      n++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  if (n == 0)
    {
      g_autoptr (GMenuItem) item = g_menu_item_new (_("No recent circuits"), "win.recent-none");
      g_menu_append_item (self->recent_section, item);
    }
}

/* ---- save ---- */

/* The plot panes are part of the file ("plots") but not of the undoable
 * document: they are written into the circuit when it is saved. */
static void
store_plots (HydWindow *self)
{
  if (!self->plots_dirty)
    return;
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, HYD_CIRCUIT_FORMAT);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, HYD_CIRCUIT_VERSION);
  json_builder_set_member_name (builder, "components");
  json_builder_begin_array (builder);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "connections");
  json_builder_begin_array (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  g_autoptr (JsonNode) root = json_builder_get_root (builder);
  json_object_set_array_member (json_node_get_object (root), "plots",
                                hyd_plot_panes_to_json (self->plot_panes));
  g_autofree char *text = json_to_string (root, FALSE);

  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) holder = hyd_circuit_load_from_data (text, -1, NULL, &error);
  if (holder == NULL)
    {
      g_warning ("the plot panes could not be stored: %s", error->message);
      return;
    }
  /* plots are layout outside the undo history (hyd-document.h has no
   * command for them), so they are swapped into the circuit directly */
  HydCircuit *circuit = (HydCircuit *) hyd_document_get_circuit (self->document);
  GPtrArray *old = circuit->plots;
  circuit->plots = g_steal_pointer (&holder->plots);
  holder->plots = old;
}

static char *
document_data (HydWindow *self)
{
  store_plots (self);
  return hyd_document_to_data (self->document);
}

static void
report_problems (HydWindow *self, const char *path)
{
  g_auto (GStrv) problems = hyd_canvas_check (self->canvas);
  if (problems == NULL || problems[0] == NULL)
    return;
  g_autofree char *list = g_strjoinv (", ", problems);
  g_autofree char *name = g_filename_display_basename (path);
  /* translators: a warning after saving, e.g. "Saved “x.bramah”, but it is not complete: C1.B, ..." */
  g_autofree char *message
      = g_strdup_printf (_("Saved “%s”, but the circuit is not complete and will not run "
                           "yet: %s"),
                         name, list);
  _hyd_window_show_message (self, GTK_MESSAGE_WARNING, message);
  g_autoptr (GStrvBuilder) ids = g_strv_builder_new ();
  for (guint i = 0; problems[i]; i++)
    {
      g_autofree char *id = g_strdup (problems[i]);
      char *dot = strchr (id, '.');
      if (dot)
        *dot = '\0';
      g_strv_builder_add (ids, id);
    }
  g_auto (GStrv) highlight = g_strv_builder_end (ids);
  hyd_canvas_set_highlight (self->canvas, (const char *const *) highlight);
}

static gboolean
save_to (HydWindow *self, const char *path)
{
  g_autoptr (GError) error = NULL;
  store_plots (self);
  if (!hyd_document_save (self->document, path, &error))
    {
      g_autofree char *name = g_filename_display_basename (path);
      g_autofree char *message = g_strdup_printf (_("Could not save “%s”: %s"), name, error->message);
      _hyd_window_show_message (self, GTK_MESSAGE_ERROR, message);
      return FALSE;
    }
  if (g_strcmp0 (self->path, path) != 0)
    {
      g_free (self->path);
      self->path = g_strdup (path);
    }
  self->plots_dirty = FALSE;
  self->recovered = FALSE;
  hyd_autosave_remove (self->autosave_path);
  g_clear_pointer (&self->autosave_path, g_free);
  self->autosaved_edits = self->edits;
  if (self->info_kind == HYD_INFO_MESSAGE)
    _hyd_window_hide_info (self);
  report_problems (self, path);
  add_recent (path);
  remember_folder (self, path);
  _hyd_window_update_title (self);
  _hyd_window_actions_update (self);
  return TRUE;
}

void
_hyd_window_save (HydWindow *self, HydWindowContinuation then, gpointer user_data)
{
  if (self->path == NULL)
    {
      _hyd_window_save_as (self, then, user_data);
      return;
    }
  if (save_to (self, self->path) && then)
    then (self, user_data);
}

static void
save_as_response_cb (GtkNativeDialog *chooser, int response, Pending *p)
{
  gboolean saved = FALSE;
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      if (path && !g_str_has_suffix (path, ".bramah"))
        {
          char *with_ext = g_strconcat (path, ".bramah", NULL);
          g_free (path);
          path = with_ext;
        }
      if (path)
        saved = save_to (p->self, path);
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
  pending_finish (p, saved);
}

void
_hyd_window_save_as (HydWindow *self, HydWindowContinuation then, gpointer user_data)
{
  GtkFileChooserNative *chooser =
    gtk_file_chooser_native_new (_("Save Circuit"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                 _("_Save"), _("_Cancel"));
  g_autoptr (GtkFileFilter) circuits = circuit_filter ();
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), circuits);
  set_chooser_folder (self, GTK_FILE_CHOOSER (chooser));
  g_autofree char *name = NULL;
  if (self->path)
    name = g_path_get_basename (self->path);
  else
    name = g_strdup (_("circuit.bramah"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (save_as_response_cb),
                    pending_new (self, then, user_data));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* ---- exports ---- */

typedef enum {
  EXPORT_SCHEMATIC,
  EXPORT_RUN_CSV,
  EXPORT_PLOT,
} ExportKind;

typedef struct {
  HydWindow *self;
  ExportKind kind;
  guint pane;
  char *format;           /* for a plot */
} Export;

static void
export_free (Export *e)
{
  g_object_unref (e->self);
  g_free (e->format);
  g_free (e);
}

static const char *
default_extension (GtkFileChooser *chooser, const char *fallback)
{
  GtkFileFilter *filter = gtk_file_chooser_get_filter (chooser);
  const char *ext = filter ? g_object_get_data (G_OBJECT (filter), "hyd-extension") : NULL;
  return ext ? ext : fallback;
}

static void
export_response_cb (GtkNativeDialog *chooser, int response, Export *e)
{
  HydWindow *self = e->self;
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      g_autoptr (GError) error = NULL;
      gboolean ok = FALSE;
      if (path && strrchr (path, '.') <= strrchr (path, '/'))
        {
          char *with_ext
              = g_strconcat (path, ".", default_extension (GTK_FILE_CHOOSER (chooser), "svg"), NULL);
          g_free (path);
          path = with_ext;
        }
      if (path)
        switch (e->kind)
          {
          case EXPORT_SCHEMATIC:
            {
              double scale = g_str_has_suffix (path, ".png") ? EXPORT_PNG_SCALE : EXPORT_VECTOR_SCALE;
              ok = hyd_schematic_export (hyd_document_get_circuit (self->document), path, scale, NULL,
                                         &error);
            }
            break;
          case EXPORT_RUN_CSV:
            {
              HydTraceStore *store = hyd_simulation_get_store (self->simulation);
              if (store)
                ok = hyd_trace_store_write_csv (store, NULL, path, &error);
              else
                g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no run to export"));
            }
            break;
          case EXPORT_PLOT:
            {
              HydPlotView *view = hyd_plot_panes_get_view (self->plot_panes, e->pane);
              if (view)
                ok = hyd_plot_view_export (view, path, &error);
            }
            break;
          default:
            break;
          }
      if (path && !ok)
        {
          g_autofree char *name = g_filename_display_basename (path);
          g_autofree char *message = g_strdup_printf (_("Could not export “%s”: %s"), name,
                                                      error ? error->message : _("unknown error"));
          _hyd_window_show_message (self, GTK_MESSAGE_ERROR, message);
        }
      else if (path)
        {
          g_autofree char *name = g_filename_display_basename (path);
          g_autofree char *message = g_strdup_printf (_("Exported “%s”"), name);
          gtk_label_set_text (self->mode_label, message);
        }
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
  export_free (e);
}

static void
add_export_filter (GtkFileChooser *chooser, const char *name, const char *extension)
{
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, name);
  g_autofree char *pattern = g_strconcat ("*.", extension, NULL);
  gtk_file_filter_add_pattern (filter, pattern);
  g_object_set_data_full (G_OBJECT (filter), "hyd-extension", g_strdup (extension), g_free);
  gtk_file_chooser_add_filter (chooser, filter);
}

static char *
export_base_name (HydWindow *self)
{
  if (self->path)
    {
      g_autofree char *base = g_path_get_basename (self->path);
      char *dot = strrchr (base, '.');
      if (dot)
        *dot = '\0';
      return g_steal_pointer (&base);
    }
  return g_strdup (_("circuit"));
}

static void
run_export_dialog (HydWindow *self, ExportKind kind, guint pane, const char *format, const char *title)
{
  GtkFileChooserNative *chooser =
    gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"),
                                 _("_Cancel"));
  g_autofree char *base = export_base_name (self);
  g_autofree char *name = NULL;
  switch (kind)
    {
    case EXPORT_SCHEMATIC:
      add_export_filter (GTK_FILE_CHOOSER (chooser), _("SVG image"), "svg");
      add_export_filter (GTK_FILE_CHOOSER (chooser), _("PDF document"), "pdf");
      add_export_filter (GTK_FILE_CHOOSER (chooser), _("PNG image"), "png");
      name = g_strconcat (base, ".svg", NULL);
      break;
    case EXPORT_RUN_CSV:
      add_export_filter (GTK_FILE_CHOOSER (chooser), _("CSV table"), "csv");
      name = g_strconcat (base, "-run.csv", NULL);
      break;
    case EXPORT_PLOT:
    default:
      add_export_filter (GTK_FILE_CHOOSER (chooser), format, format);
      name = g_strdup_printf ("%s-plot%u.%s", base, pane + 1, format);
      break;
    }
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  set_chooser_folder (self, GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);

  Export *e = g_new0 (Export, 1);
  e->self = g_object_ref (self);
  e->kind = kind;
  e->pane = pane;
  e->format = g_strdup (format);
  g_signal_connect (chooser, "response", G_CALLBACK (export_response_cb), e);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
_hyd_window_export_schematic (HydWindow *self)
{
  run_export_dialog (self, EXPORT_SCHEMATIC, 0, NULL, _("Export Schematic"));
}

void
_hyd_window_export_csv (HydWindow *self)
{
  if (hyd_simulation_get_store (self->simulation) == NULL)
    return;
  run_export_dialog (self, EXPORT_RUN_CSV, 0, "csv", _("Export Run as CSV"));
}

void
_hyd_window_export_plot (HydWindow *self, guint pane, const char *format)
{
  run_export_dialog (self, EXPORT_PLOT, pane, format, _("Export Plot"));
}

/* ---- autosave and recovery ---- */

typedef struct {
  HydWindow *window;        /* a reference */
  guint64 edits;            /* the edits the text holds */
  char *remove_when_saved;  /* a recovered autosave, removed once this one is written */
} AutosaveJob;

static void autosave_write (HydWindow *self, const char *remove_when_saved);

static void
autosave_written_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  AutosaveJob *job = user_data;
  HydWindow *self = job->window;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = hyd_autosave_write_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
      || g_cancellable_is_cancelled (self->autosave_cancellable))
    goto out; /* the window is gone: it removed its autosave */
  self->autosave_writing = FALSE;
  if (path == NULL)
    {
      /* the user must know that the drawing is not safe (the last good
       * autosave, if any, stays); said once, not every 30 s */
      g_message ("autosave failed: %s", error->message);
      if (!self->autosave_failed && self->info_kind == HYD_INFO_NONE)
        {
          /* translators: "Autosave failed: <why>. Save the circuit to keep your changes." */
          g_autofree char *message
              = g_strdup_printf (_("Autosave failed: %s. Save the circuit to keep your changes."),
                                 error->message);
          _hyd_window_show_message (self, GTK_MESSAGE_WARNING, message);
        }
      self->autosave_failed = TRUE;
      goto out;
    }
  self->autosave_failed = FALSE;
  g_free (self->autosave_path);
  self->autosave_path = g_steal_pointer (&path);
  self->autosaved_edits = job->edits;
  if (!_hyd_window_get_modified (self))
    {
      /* saved while this was written: nothing left to recover */
      hyd_autosave_remove (self->autosave_path);
      g_clear_pointer (&self->autosave_path, g_free);
    }
  else if (job->remove_when_saved)
    /* the recovered circuit is safe in this window's own autosave */
    hyd_autosave_remove (job->remove_when_saved);
  if (self->autosave_again)
    {
      self->autosave_again = FALSE;
      autosave_write (self, NULL);
    }
out:
  g_object_unref (job->window);
  g_free (job->remove_when_saved);
  g_free (job);
}

/* The text is made here, on the main thread (it reads the document); the
 * file is written in a worker thread, so a large drawing does not stall the
 * window. */
static void
autosave_write (HydWindow *self, const char *remove_when_saved)
{
  if (self->document == NULL || !_hyd_window_get_modified (self) || self->edits == self->autosaved_edits)
    return;
  if (self->autosave_writing)
    {
      self->autosave_again = TRUE;
      return;
    }
  if (self->autosave_serial == 0)
    self->autosave_serial = next_autosave_serial++;
  if (self->autosave_cancellable == NULL)
    self->autosave_cancellable = g_cancellable_new ();
  g_autofree char *directory = hyd_autosave_get_directory ();
  char *data = document_data (self);
  g_autoptr (GBytes) bytes = g_bytes_new_take (data, strlen (data));
  const HydCircuit *circuit = hyd_document_get_circuit (self->document);

  AutosaveJob *job = g_new0 (AutosaveJob, 1);
  job->window = g_object_ref (self);
  job->edits = self->edits;
  job->remove_when_saved = g_strdup (remove_when_saved);
  self->autosave_writing = TRUE;
  hyd_autosave_write_async (directory, (guint) getpid (), self->autosave_serial, bytes, self->path,
                            circuit->title, self->autosave_cancellable, autosave_written_cb, job);
}

void
_hyd_window_autosave_now (HydWindow *self)
{
  autosave_write (self, NULL);
}

static gboolean
autosave_timeout_cb (gpointer user_data)
{
  _hyd_window_autosave_now (HYD_WINDOW (user_data));
  return G_SOURCE_CONTINUE;
}

void
_hyd_window_recover (HydWindow *self)
{
  if (self->recovery == NULL)
    return;
  g_autoptr (GPtrArray) entries = g_steal_pointer (&self->recovery);
  for (guint i = 0; i < entries->len; i++)
    {
      HydAutosaveEntry *entry = g_ptr_array_index (entries, i);
      g_autoptr (GError) error = NULL;
      g_autoptr (HydDocument) document = hyd_document_new_from_file (entry->path, &error);
      if (document == NULL)
        {
          /* the autosave stays where it is: it is never deleted unrecovered */
          g_autofree char *display = g_filename_display_name (entry->path);
          /* translators: "Could not recover the autosaved circuit: <why>. The autosave is kept in <file>." */
          g_autofree char *why = hyd_diagnostic_dup_error_message (error, GETTEXT_PACKAGE);
          g_autofree char *message
              = g_strdup_printf (_("Could not recover the autosaved circuit: %s. The autosave is kept in "
                                   "%s."), why, display);
          _hyd_window_show_message (self, GTK_MESSAGE_ERROR, message);
          continue;
        }
      HydWindow *window = self;
      if (!hyd_window_is_pristine (self))
        {
          window = hyd_window_new (gtk_window_get_application (GTK_WINDOW (self)));
          gtk_window_present (GTK_WINDOW (window));
        }
      _hyd_window_set_document (window, document, entry->origin);
      window->recovered = TRUE;
      window->edits++;
      _hyd_window_update_title (window);
      /* the old autosave goes only once the recovered circuit is safe in
       * this window's own */
      autosave_write (window, entry->path);
    }
}

void
_hyd_window_discard_recovery (HydWindow *self)
{
  if (self->recovery == NULL)
    return;
  for (guint i = 0; i < self->recovery->len; i++)
    hyd_autosave_remove (((HydAutosaveEntry *) g_ptr_array_index (self->recovery, i))->path);
  g_clear_pointer (&self->recovery, g_ptr_array_unref);
}

static void
recent_changed_cb (GtkRecentManager *manager, HydWindow *self)
{
  _hyd_window_update_recent_menu (self);
}

void
_hyd_window_files_init (HydWindow *self)
{
  guint interval = hyd_autosave_parse_interval (g_getenv ("BRAMAH_AUTOSAVE_INTERVAL"));
  self->autosave_source = g_timeout_add_seconds (interval, autosave_timeout_cb, self);
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed", G_CALLBACK (recent_changed_cb), self,
                           0);
  _hyd_window_update_recent_menu (self);
}

void
_hyd_window_files_dispose (HydWindow *self)
{
  g_clear_handle_id (&self->autosave_source, g_source_remove);
  /* a window closed by the user, saved or not (they were asked), leaves
   * nothing to recover: a write not yet started is skipped, one under way
   * finishes before the file is removed */
  if (self->autosave_cancellable)
    g_cancellable_cancel (self->autosave_cancellable);
  if (self->autosave_serial != 0)
    {
      g_autofree char *directory = hyd_autosave_get_directory ();
      g_autofree char *path = hyd_autosave_path (directory, (guint) getpid (), self->autosave_serial);
      hyd_autosave_remove (path);
    }
  hyd_autosave_remove (self->autosave_path);
  g_clear_pointer (&self->autosave_path, g_free);
}
