/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-window.c — the main window: layout, wiring and window state. */
#define G_LOG_DOMAIN "hyd-window"

#include "bramah-config.h"
#include "hyd-window-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "hyd-autosave.h"
#include "hyd-catalogue.h"
#include "hyd-explain-view.h"
#include "hyd-sparsity-view.h"
#include "hyd-solver-lab.h"
#include "hyd-linear-view.h"
#include "hyd-study-dialog.h"
#include "hyd-help.h"
#include "hyd-param-value.h"
#include "hyd-symbol-render.h"
#include "hyd-system.h"
#include "hyd-ui-util.h"

/* How often BRAMAH_DEBUG_GEOMETRY looks for a change of layout. */
#define GEOMETRY_INTERVAL_MS 250
/* The plot area below the schematic when nothing is remembered. */
#define DEFAULT_PLOT_AREA_HEIGHT 230
/* A bar about a circuit that could not run is checked again this long
 * after the last edit. */
#define RECHECK_DELAY_MS 200

G_DEFINE_FINAL_TYPE (HydWindow, hyd_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_PROBE_MODE,
  PROP_PAUSED,
  PROP_SHOW_LABELS,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

/* ---- title ---- */

gboolean
_hyd_window_get_modified (HydWindow *self)
{
  return self->document != NULL
         && (hyd_document_get_modified (self->document) || self->plots_dirty || self->recovered);
}

void
_hyd_window_update_title (HydWindow *self)
{
  const HydCircuit *circuit = self->document ? hyd_document_get_circuit (self->document) : NULL;
  g_autofree char *name = NULL;
  if (self->path)
    name = g_path_get_basename (self->path);
  else if (circuit && circuit->title && *circuit->title)
    name = g_strdup (circuit->title);
  else
    name = g_strdup (_("Untitled circuit"));

  gboolean modified = _hyd_window_get_modified (self);
  g_autofree char *shown = modified ? g_strdup_printf ("• %s", name) : g_strdup (name);
  gtk_label_set_text (self->title_label, shown);

  g_autofree char *subtitle = NULL;
  if (self->path)
    {
      g_autofree char *dir = g_path_get_dirname (self->path);
      const char *home = g_get_home_dir ();
      if (home && g_str_has_prefix (dir, home) && (dir[strlen (home)] == '/' || dir[strlen (home)] == '\0'))
        subtitle = g_strconcat ("~", dir + strlen (home), NULL);
      else
        subtitle = g_steal_pointer (&dir);
    }
  else if (self->recovered)
    subtitle = g_strdup (_("Recovered — not saved yet"));
  else
    subtitle = g_strdup (_("Not saved"));
  gtk_label_set_text (self->subtitle_label, subtitle);

  /* translators: the window title, e.g. "• circuit.bramah — Bramah" */
  g_autofree char *title = g_strdup_printf (_("%s — Bramah"), shown);
  gtk_window_set_title (GTK_WINDOW (self), title);
}

/* ---- the info bar: errors and offers, never a modal dialog ---- */

/* Removes the offer's buttons. This runs inside a button's own "clicked"
 * (Recover → "could not recover" replaces the offer), so: the window's
 * default widget, which gtk_info_bar_set_default_response made the Recover
 * button and which GtkWindow does not hold a reference to, is unset first
 * (GTK 4.8 otherwise later reads and writes the freed button in
 * gtk_window_set_default_widget), and each button is kept alive until the
 * main loop is idle again, past the end of its signal emission. */
static gboolean
release_when_idle (gpointer data)
{
  return G_SOURCE_REMOVE; /* the destroy notify drops the reference */
}

static void
clear_info_buttons (HydWindow *self)
{
  GtkWindow *window = GTK_WINDOW (self);
  for (guint i = 0; i < self->info_buttons->len; i++)
    {
      GtkWidget *button = g_ptr_array_index (self->info_buttons, i);
      if (gtk_window_get_default_widget (window) == button)
        gtk_window_set_default_widget (window, NULL);
      if (gtk_root_get_focus (GTK_ROOT (window)) == button)
        gtk_root_set_focus (GTK_ROOT (window), NULL);
      g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, release_when_idle, g_object_ref (button), g_object_unref);
      gtk_info_bar_remove_action_widget (self->info_bar, button);
    }
  g_ptr_array_set_size (self->info_buttons, 0);
}

static void
add_info_button (HydWindow *self, const char *label, int response)
{
  g_ptr_array_add (self->info_buttons, gtk_info_bar_add_button (self->info_bar, label, response));
}

void
_hyd_window_show_message (HydWindow *self, GtkMessageType type, const char *message)
{
  clear_info_buttons (self);
  self->info_kind = HYD_INFO_MESSAGE;
  gtk_info_bar_set_message_type (self->info_bar, type);
  gtk_label_set_text (self->info_label, message);
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
}

void
_hyd_window_hide_info (HydWindow *self)
{
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
  self->info_kind = HYD_INFO_NONE;
  if (self->canvas)
    hyd_canvas_set_highlight (self->canvas, NULL);
}

void
hyd_window_offer_recovery (HydWindow *self, GPtrArray *entries)
{
  g_return_if_fail (HYD_IS_WINDOW (self));
  if (entries == NULL || entries->len == 0)
    return;
  g_clear_pointer (&self->recovery, g_ptr_array_unref);
  self->recovery = g_ptr_array_ref (entries);

  const HydAutosaveEntry *entry = g_ptr_array_index (entries, 0);
  g_autoptr (GDateTime) when = g_date_time_new_from_unix_local (entry->saved_at);
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  gboolean today = when && g_date_time_get_day_of_year (when) == g_date_time_get_day_of_year (now)
                   && g_date_time_get_year (when) == g_date_time_get_year (now);
  /* translators: time formats of an autosave: today, or another day */
  g_autofree char *time
      = when ? g_date_time_format (when, today ? _("%H:%M") : _("%x %H:%M")) : g_strdup ("?");
  g_autofree char *what = NULL;
  if (entry->origin)
    {
      g_autofree char *name = g_filename_display_basename (entry->origin);
      /* translators: what was autosaved: "the changes to “circuit.bramah”" */
      what = g_strdup_printf (_("the changes to “%s”"), name);
    }
  else if (entry->title)
    what = g_strdup_printf (_("the new circuit “%s”"), entry->title);
  else
    what = g_strdup (_("a new circuit"));
  g_autofree char *message = NULL;
  if (entries->len == 1)
    /* translators: "Recover unsaved circuit from 14:32? Bramah did not close properly; <what> was autosaved."
     */
    message = g_strdup_printf (_("Recover unsaved circuit from %s? Bramah did not close properly; %s was "
                                 "autosaved."), time, what);
  else
    message
        = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                        "Recover unsaved circuits from %s? Bramah did not close properly; %s "
                                        "and %u more circuit were autosaved.",
                                        "Recover unsaved circuits from %s? Bramah did not close properly; %s "
                                        "and %u more circuits were autosaved.",
                                        entries->len - 1),
                           time, what, entries->len - 1);

  clear_info_buttons (self);
  self->info_kind = HYD_INFO_RECOVERY;
  gtk_info_bar_set_message_type (self->info_bar, GTK_MESSAGE_QUESTION);
  gtk_label_set_text (self->info_label, message);
  add_info_button (self, _("_Discard"), HYD_RESPONSE_DISCARD);
  add_info_button (self, _("_Recover"), HYD_RESPONSE_RECOVER);
  gtk_info_bar_set_default_response (self->info_bar, HYD_RESPONSE_RECOVER);
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
}

static void
info_bar_response_cb (HydWindow *self, int response, GtkInfoBar *info_bar)
{
  switch (response)
    {
    case HYD_RESPONSE_RECOVER:
      _hyd_window_hide_info (self);
      _hyd_window_recover (self);
      break;
    case HYD_RESPONSE_DISCARD:
      _hyd_window_hide_info (self);
      _hyd_window_discard_recovery (self);
      break;
    default:
      _hyd_window_hide_info (self);
      break;
    }
}

/* ---- parameters checked before a run ---- */

/* Point at one parameter: the component selected (the panel shows it), the
 * field focused, the component highlighted and the info bar saying what is
 * wrong. */
static void
point_at_parameter (HydWindow *self, const char *component, const char *param, const char *message)
{
  const char *ids[] = { component, NULL };
  if (g_strcmp0 (hyd_property_panel_get_component (self->property_panel), component) != 0)
    hyd_canvas_set_selection (self->canvas, ids);
  _hyd_window_show_message (self, GTK_MESSAGE_ERROR, message);
  hyd_canvas_set_highlight (self->canvas, ids);
  GtkWidget *editor = hyd_property_panel_get_editor (self->property_panel, param);
  if (editor && gtk_widget_get_visible (editor))
    gtk_widget_grab_focus (editor);
}

/* The first parameter problem: a field not valid, or a value of the circuit
 * out of the editor's range. Returns the message (NULL when none) and the
 * component and parameter concerned. */
static char *
find_parameter_problem (HydWindow *self, gboolean commit, char **component, const char **param_out)
{
  const HydCircuit *circuit = hyd_document_get_circuit (self->document);

  /* the fields first: what the user typed and sees */
  g_autofree char *why = NULL;
  const char *param = hyd_property_panel_check_entries (self->property_panel, commit, &why);
  const char *shown = hyd_property_panel_get_component (self->property_panel);
  if (param && shown)
    {
      const HydCircuitComponent *comp = hyd_circuit_find_component (circuit, shown);
      const HydComponentType *type = comp ? hyd_catalogue_lookup (comp->type) : NULL;
      int k = type ? hyd_component_type_find_param (type, param) : -1;
      const HydParamInfo *info = k >= 0 ? &type->params[k] : NULL;
      *component = g_strdup (shown);
      *param_out = param;
      return g_strdup_printf (
          /* translators: "Cannot run: the field “Dead volume A” of C1 is not valid: Must be at most
           * 100000 L. Correct it, or restore the default with the arrow beside it." */
          _("Cannot run: the field “%s” of %s is not valid: %s. Correct it, or restore the default with the "
            "arrow beside it."),
          info ? _(info->label) : param, shown, why);
    }

  /* then every value the circuit holds (a file may bring 1e30 L) */
  HydFluid fluid;
  double fluid_cd = hyd_circuit_get_fluid (circuit, &fluid, NULL) ? fluid.discharge_coefficient : 0.7;
  for (guint i = 0; i < circuit->components->len; i++)
    {
      const HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      const HydComponentType *type = hyd_catalogue_lookup (comp->type);
      for (guint k = 0; type && k < type->n_params; k++)
        {
          const HydParamInfo *info = &type->params[k];
          JsonNode *written = json_object_has_member (comp->params, info->name)
                              ? json_object_get_member (comp->params, info->name) : NULL;
          double value;
          if ((info->flags & HYD_PARAM_ENUM) || (written && !JSON_NODE_HOLDS_VALUE (written))
              || !hyd_param_value_get (info, written, fluid_cd, &value) || hyd_param_value_in_range (info, value))
            continue;
          g_autofree char *number = hyd_param_value_format (info, value);
          const char *unit = hyd_param_value_unit (info);
          g_autofree char *range = hyd_param_value_describe_range (info);
          *component = g_strdup (comp->id);
          *param_out = info->name;
          return g_strdup_printf (
              /* translators: "Cannot run: “Dead volume A” of C1 is 1e+30 L; it must be between 1e-06 L and
               * 100000 L." */
              _("Cannot run: “%s” of %s is %s%s%s; it must be %s."), _(info->label), comp->id,
              number[0] ? number : _("not a number"), *unit && number[0] ? " " : "", number[0] ? unit : "",
              range);
        }
    }
  return NULL;
}

gboolean
_hyd_window_check_parameters (HydWindow *self)
{
  g_autofree char *component = NULL;
  const char *param = NULL;
  g_autofree char *message = find_parameter_problem (self, TRUE, &component, &param);
  if (message == NULL)
    return TRUE;
  point_at_parameter (self, component, param, message);
  self->info_kind = HYD_INFO_CIRCUIT;
  return FALSE;
}

/* After an edit, a bar that says why the circuit could not run goes once
 * the circuit is fine (an undo that fixed it), and follows the new first
 * problem otherwise. */
static gboolean
recheck_timeout_cb (gpointer user_data)
{
  HydWindow *self = user_data;
  self->recheck_source = 0;
  if (self->info_kind != HYD_INFO_CIRCUIT || self->document == NULL
      || hyd_simulation_get_active (self->simulation))
    return G_SOURCE_REMOVE;

  g_autofree char *component = NULL;
  const char *param = NULL;
  g_autofree char *message = find_parameter_problem (self, FALSE, &component, &param);
  if (message == NULL)
    {
      g_auto (GStrv) problems = hyd_canvas_check (self->canvas);
      if (problems && problems[0])
        return G_SOURCE_REMOVE; /* still not connected: the bar stays as it is */
      /* the compile that says the circuit is fine runs in a worker */
      _hyd_window_compile_check_async (self);
      return G_SOURCE_REMOVE;
    }
  gtk_label_set_text (self->info_label, message);
  const char *ids[] = { component, NULL };
  hyd_canvas_set_highlight (self->canvas, ids);
  return G_SOURCE_REMOVE;
}

void
_hyd_window_recheck_soon (HydWindow *self)
{
  if (self->info_kind != HYD_INFO_CIRCUIT)
    return;
  g_clear_handle_id (&self->recheck_source, g_source_remove);
  self->recheck_source = g_timeout_add_full (G_PRIORITY_LOW, RECHECK_DELAY_MS, recheck_timeout_cb, self, NULL);
}

/* ---- the document ---- */

static void
document_changed_cb (HydWindow *self, HydDocument *document)
{
  self->edits++;
  _hyd_window_sim_document_changed (self);
  _hyd_window_recheck_soon (self);
  _hyd_window_update_title (self);
  _hyd_window_actions_update (self);
}

static void
document_notify_cb (HydWindow *self, GParamSpec *pspec, HydDocument *document)
{
  _hyd_window_update_title (self);
  _hyd_window_actions_update (self);
}

void
_hyd_window_set_document (HydWindow *self, HydDocument *document, const char *path)
{
  g_return_if_fail (HYD_IS_DOCUMENT (document));

  _hyd_window_reset (self);
  if (self->document)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  g_free (self->path);
  self->path = g_strdup (path);
  self->plots_dirty = FALSE;
  self->recovered = FALSE;
  self->edits = self->autosaved_edits = 0;

  g_signal_connect_swapped (document, "changed", G_CALLBACK (document_changed_cb), self);
  g_signal_connect_swapped (document, "notify::modified", G_CALLBACK (document_notify_cb), self);
  g_signal_connect_swapped (document, "notify::can-undo", G_CALLBACK (document_notify_cb), self);
  g_signal_connect_swapped (document, "notify::can-redo", G_CALLBACK (document_notify_cb), self);

  hyd_canvas_set_document (self->canvas, document);
  hyd_canvas_set_highlight (self->canvas, NULL);
  hyd_property_panel_set_document (self->property_panel, document);
  hyd_sim_bar_set_document (self->sim_bar, document);
  hyd_plot_panes_load (self->plot_panes, hyd_document_get_circuit (document));
  _hyd_window_sim_document_changed (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->legend_area));

  _hyd_window_update_title (self);
  _hyd_window_actions_update (self);
}

/* ---- widgets' signals ---- */

static void
palette_type_activated_cb (HydWindow *self, const char *type_id)
{
  if (hyd_simulation_get_active (self->simulation))
    {
      _hyd_window_show_message (
          self, GTK_MESSAGE_INFO,
          _("Stop the simulation to edit the circuit: editing is locked while it runs."));
      return;
    }
  const HydComponentType *type = hyd_catalogue_lookup (type_id);
  if (type == NULL)
    return;
  if (self->probe_mode)
    g_object_set (self, "probe-mode", FALSE, NULL);
  hyd_canvas_begin_place (self->canvas, type_id);
  gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
  /* translators: %s is a component type, e.g. "Fixed-displacement pump" */
  g_autofree char *hint = g_strdup_printf (_("Click on the schematic to place a %s (R turns it, Shift+click "
                                             "places another, Esc cancels)"), _(type->label));
  gtk_label_set_text (self->mode_label, hint);
}

char *
hyd_window_get_help_topic (HydWindow *self)
{
  g_return_val_if_fail (HYD_IS_WINDOW (self), NULL);
  g_auto (GStrv) ids = hyd_canvas_get_selection (self->canvas);
  const HydCircuit *circuit = self->document ? hyd_document_get_circuit (self->document) : NULL;
  for (guint i = 0; circuit && ids && ids[i]; i++)
    {
      const HydCircuitComponent *comp = hyd_circuit_find_component (circuit, ids[i]);
      if (comp && hyd_catalogue_lookup (comp->type))
        return g_strdup (comp->type);
    }
  const char *placing = hyd_canvas_get_place_type (self->canvas);
  return placing ? g_strdup (placing) : NULL;
}

static void
help_requested_cb (HydWindow *self, const char *type_id)
{
  hyd_help_window_present_for (GTK_WINDOW (self), type_id);
}

static void
canvas_selection_changed_cb (HydWindow *self, HydCanvas *canvas)
{
  g_auto (GStrv) ids = hyd_canvas_get_selection (canvas);
  hyd_property_panel_set_selection (self->property_panel, (const char *const *) ids);
  _hyd_window_keep_side_width (self);
  if (!self->probe_mode)
    gtk_label_set_text (self->mode_label, "");
  _hyd_window_actions_update (self);
}

void
_hyd_window_keep_side_width (HydWindow *self)
{
  int min = 0;
  gtk_widget_measure (self->side_box, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  if (min > self->side_width)
    {
      self->side_width = min;
      gtk_widget_set_size_request (self->side_box, min, -1);
    }
}

static void
canvas_probe_cb (HydWindow *self, const char *variable, HydCanvas *canvas)
{
  hyd_plot_panes_add_trace (self->plot_panes, variable);
  /* translators: %s is a variable such as "C1.x" */
  g_autofree char *text = g_strdup_printf (_("Plotting %s"), variable);
  gtk_label_set_text (self->mode_label, text);
}

static void
canvas_component_activated_cb (HydWindow *self, const char *id, HydCanvas *canvas)
{
  const char *ids[] = { id, NULL };
  hyd_canvas_set_selection (canvas, ids);
  GtkWidget *editor = NULL;
  const HydCircuitComponent *comp
      = hyd_circuit_find_component (hyd_document_get_circuit (self->document), id);
  const HydComponentType *type = comp ? hyd_catalogue_lookup (comp->type) : NULL;
  if (type && type->n_params > 0)
    editor = hyd_property_panel_get_editor (self->property_panel, type->params[0].name);
  if (editor && gtk_widget_get_visible (editor))
    gtk_widget_grab_focus (editor);
}

static void
panel_live_change_cb (HydWindow *self, const char *component, const char *param, double value)
{
  _hyd_window_live_change (self, component, param, value);
}

static void
live_panel_change_cb (HydWindow *self, const char *component, const char *param, double value)
{
  _hyd_window_live_change (self, component, param, value);
}

static void
plots_changed_cb (HydWindow *self, HydPlotPanes *panes)
{
  self->plots_dirty = TRUE;
  self->edits++;
  _hyd_window_update_title (self);
  _hyd_window_actions_update (self);
}

static void
plot_export_requested_cb (HydWindow *self, guint pane, const char *format, HydPlotPanes *panes)
{
  _hyd_window_export_plot (self, pane, format);
}

/* ---- the pressure legend over the canvas (hyd-window-sim.c) ---- */

static void
legend_draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  _hyd_window_draw_legend (user_data, area, cr, width, height);
}

/* ---- BRAMAH_DEBUG_GEOMETRY: where things are, for the end-to-end tests ---- */

static gboolean
to_surface (GtkWidget *widget, double x, double y, int *sx, int *sy)
{
  GtkNative *native = gtk_widget_get_native (widget);
  if (native == NULL)
    return FALSE;
  graphene_point_t in = GRAPHENE_POINT_INIT (x, y), out;
  if (!gtk_widget_compute_point (widget, GTK_WIDGET (native), &in, &out))
    return FALSE;
  double tx, ty;
  gtk_native_get_surface_transform (native, &tx, &ty);
  *sx = (int) lround (out.x + tx);
  *sy = (int) lround (out.y + ty);
  return TRUE;
}

static void
append_widget (GString *s, const char *what, GtkWidget *widget)
{
  int x0, y0, x1, y1;
  if (widget && gtk_widget_get_mapped (widget) && to_surface (widget, 0, 0, &x0, &y0)
      && to_surface (widget, gtk_widget_get_width (widget), gtk_widget_get_height (widget), &x1, &y1))
    g_string_append_printf (s, "%s %d %d %d %d\n", what, x0, y0, x1, y1);
}

static char *
describe_geometry (HydWindow *self)
{
  GString *s = g_string_new ("BRAMAH-GEOMETRY begin\n");
  g_string_append_printf (s, "window %d %d\n", gtk_widget_get_width (GTK_WIDGET (self)),
                          gtk_widget_get_height (GTK_WIDGET (self)));
  g_string_append_printf (s, "run %s\n", hyd_runner_state_name (hyd_simulation_get_state (self->simulation)));
  if (hyd_simulation_get_state (self->simulation) == HYD_RUNNER_FINISHED)
    {
      /* the finished run's pace: simulated time, wall time (pauses
       * excluded) and their ratio (build-aux/real-time-check.sh) */
      HydRunnerProgress progress;
      hyd_simulation_get_progress (self->simulation, &progress);
      g_string_append_printf (s, "run-pace %.6g %.6g %.6g\n", progress.t, progress.wall_s, progress.ratio);
    }
  g_string_append_printf (s, "modified %d\n", _hyd_window_get_modified (self));
  g_string_append_printf (s, "path %s\n", self->path ? self->path : "");
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  g_string_append_printf (s, "focus %s\n", focus ? G_OBJECT_TYPE_NAME (focus) : "none");
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (self));
  g_string_append_printf (s, "renderer %s%s\n", renderer ? G_OBJECT_TYPE_NAME (renderer) : "none",
                          gtk_widget_has_css_class (GTK_WIDGET (self), "software-gl") ? " software-gl" : "");
  append_widget (s, "canvas", GTK_WIDGET (self->canvas));
  append_widget (s, "properties", GTK_WIDGET (self->property_panel));
  append_widget (s, "plots", GTK_WIDGET (self->plot_panes));
  append_widget (s, "plots-switcher", self->plots_switcher);
  append_widget (s, "state-diagram", GTK_WIDGET (self->state_diagram));
  append_widget (s, "state-diagram-csv", hyd_state_diagram_pane_get_export_button (self->state_diagram, "csv"));
  append_widget (s, "replay", hyd_sim_bar_get_replay_scale (self->sim_bar));
  append_widget (s, "simbar", GTK_WIDGET (self->sim_bar));
  append_widget (s, "solver-list", hyd_sim_bar_get_solver_widget (self->sim_bar));
  g_string_append_printf (s, "solver %s\n", hyd_sim_bar_get_solver (self->sim_bar));
  append_widget (s, "paned", GTK_WIDGET (self->main_paned));

  if (gtk_info_bar_get_revealed (self->info_bar))
    {
      append_widget (s, "info", GTK_WIDGET (self->info_bar));
      for (guint i = 0; i < self->info_buttons->len; i++)
        {
          GtkWidget *button = g_ptr_array_index (self->info_buttons, i);
          int x, y;
          if (gtk_widget_get_mapped (button)
              && to_surface (button, gtk_widget_get_width (button) / 2.0,
                             gtk_widget_get_height (button) / 2.0, &x, &y))
            g_string_append_printf (s, "info-button %s %d %d\n",
                                    gtk_button_get_label (GTK_BUTTON (button)), x, y);
        }
    }
  for (guint i = 0; i < hyd_plot_panes_get_n_panes (self->plot_panes); i++)
    {
      g_autofree char *what = g_strdup_printf ("pane %u", i);
      append_widget (s, what, GTK_WIDGET (hyd_plot_panes_get_view (self->plot_panes, i)));
      g_auto (GStrv) traces = hyd_plot_view_get_traces (hyd_plot_panes_get_view (self->plot_panes, i));
      for (guint k = 0; traces && traces[k]; k++)
        g_string_append_printf (s, "trace %u %s\n", i, traces[k]);
    }

  const char *shown = hyd_property_panel_get_component (self->property_panel);
  const HydCircuitComponent *shown_comp =
    shown && self->document ? hyd_circuit_find_component (hyd_document_get_circuit (self->document), shown) : NULL;
  const HydComponentType *shown_type = shown_comp ? hyd_catalogue_lookup (shown_comp->type) : NULL;
  for (guint i = 0; shown_type && i < shown_type->n_params; i++)
    {
      GtkWidget *slider = hyd_property_panel_get_slider (self->property_panel, shown_type->params[i].name);
      g_autofree char *what = g_strdup_printf ("slider %s.%s", shown, shown_type->params[i].name);
      if (slider)
        append_widget (s, what, slider);
    }

  for (guint i = 0; i < hyd_live_panel_get_n_sliders (self->live_panel); i++)
    {
      GtkWidget *slider = NULL;
      const char *name = hyd_live_panel_get_slider_name (self->live_panel, i, &slider);
      g_autofree char *what = g_strdup_printf ("live-slider %s", name);
      append_widget (s, what, slider);
    }
  {
    /* the page buttons, in order: properties, live */
    guint k = 0;
    for (GtkWidget *b = gtk_widget_get_first_child (self->side_switcher); b; b = gtk_widget_get_next_sibling (b))
      {
        int x, y;
        if (gtk_widget_get_mapped (b)
            && to_surface (b, gtk_widget_get_width (b) / 2.0, gtk_widget_get_height (b) / 2.0, &x, &y))
          g_string_append_printf (s, "side-tab %s %d %d\n", k == 0 ? "properties" : "live", x, y);
        k++;
      }
    g_string_append_printf (s, "side-page %s\n", gtk_stack_get_visible_child_name (self->side_stack));
  }

  g_auto (GStrv) visible = hyd_palette_dup_visible_types (self->palette);
  for (guint i = 0; visible && visible[i]; i++)
    {
      GtkWidget *row = hyd_palette_get_entry (self->palette, visible[i]);
      int x, y;
      if (row && gtk_widget_get_mapped (row)
          && to_surface (row, gtk_widget_get_width (row) / 2.0, gtk_widget_get_height (row) / 2.0, &x, &y))
        g_string_append_printf (s, "palette %s %d %d\n", visible[i], x, y);
    }

  HydSymbolLibrary *library = hyd_symbol_library_get_default (NULL);
  const HydCircuit *circuit = self->document ? hyd_document_get_circuit (self->document) : NULL;
  for (guint i = 0; circuit && library && i < circuit->components->len; i++)
    {
      const HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      HydSymbol *symbol = hyd_symbol_library_lookup (library, comp->type);
      if (symbol == NULL)
        continue;
      HydSymbolPose pose;
      hyd_symbol_pose_from_component (&pose, comp);
      HydRect bounds;
      hyd_symbol_placed_bounds (symbol, &pose, &bounds);
      double wx, wy;
      int x, y;
      hyd_canvas_doc_to_widget (self->canvas, (bounds.x0 + bounds.x1) / 2, (bounds.y0 + bounds.y1) / 2, &wx,
                                &wy);
      if (to_surface (GTK_WIDGET (self->canvas), wx, wy, &x, &y))
        g_string_append_printf (s, "component %s %s %d %d\n", comp->id, comp->type, x, y);
      for (guint k = 0; k < hyd_symbol_get_n_ports (symbol); k++)
        {
          const HydSymbolPort *port = hyd_symbol_get_port (symbol, k);
          double px, py;
          if (!hyd_symbol_port_world_position (symbol, &pose, port->name, &px, &py, NULL))
            continue;
          hyd_canvas_doc_to_widget (self->canvas, px, py, &wx, &wy);
          if (to_surface (GTK_WIDGET (self->canvas), wx, wy, &x, &y))
            g_string_append_printf (s, "port %s.%s %d %d\n", comp->id, port->name, x, y);
        }
    }
  g_string_append (s, "BRAMAH-GEOMETRY end\n");
  return g_string_free (s, FALSE);
}

static gboolean
geometry_timeout_cb (gpointer user_data)
{
  HydWindow *self = user_data;
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    return G_SOURCE_CONTINUE;
  g_autofree char *text = describe_geometry (self);
  if (g_strcmp0 (text, self->last_geometry) != 0)
    {
      fputs (text, stdout);
      fflush (stdout);
      g_free (self->last_geometry);
      self->last_geometry = g_steal_pointer (&text);
    }
  return G_SOURCE_CONTINUE;
}

/* ---- window state ---- */

static void
restore_plot_area_cb (HydWindow *self, GParamSpec *pspec, GtkPaned *paned)
{
  int total = gtk_widget_get_height (GTK_WIDGET (paned));
  if (total <= 0)
    return;
  int height = self->settings ? g_settings_get_int (self->settings, "plot-area-height")
                              : DEFAULT_PLOT_AREA_HEIGHT;
  gtk_paned_set_position (paned, MAX (total - height, total / 3));
  /* the first allocations can be of a window smaller than it will be
   * shown: follow them until it is on screen */
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    g_signal_handlers_disconnect_by_func (paned, restore_plot_area_cb, self);
}

static void
save_window_state (HydWindow *self)
{
  if (self->settings == NULL)
    return;
  gboolean maximized = gtk_window_is_maximized (GTK_WINDOW (self));
  g_settings_set_boolean (self->settings, "window-maximized", maximized);
  if (!maximized)
    {
      int width, height;
      gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
      if (width > 0 && height > 0)
        {
          g_settings_set_int (self->settings, "window-width", width);
          g_settings_set_int (self->settings, "window-height", height);
        }
    }
  int total = gtk_widget_get_height (GTK_WIDGET (self->main_paned));
  if (total > 0)
    g_settings_set_int (self->settings, "plot-area-height",
                        total - gtk_paned_get_position (self->main_paned));
  g_settings_set_boolean (self->settings, "keep-ghost", hyd_sim_bar_get_keep_ghost (self->sim_bar));
  g_settings_set_boolean (self->settings, "show-labels", hyd_canvas_get_show_labels (self->canvas));
}

static void
close_confirmed_cb (HydWindow *self, gpointer user_data)
{
  self->closing = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
hyd_window_close_request (GtkWindow *window)
{
  HydWindow *self = HYD_WINDOW (window);
  if (!self->closing && _hyd_window_get_modified (self))
    {
      _hyd_window_confirm_discard (self, close_confirmed_cb, NULL);
      return TRUE;
    }
  save_window_state (self);
  hyd_simulation_stop (self->simulation);
  _hyd_window_files_dispose (self);
  return GTK_WINDOW_CLASS (hyd_window_parent_class)->close_request (window);
}

/* Escape ends the probe tool, wherever the focus is (the canvas cancels
 * its own tools with it too). */
static gboolean
key_pressed_cb (GtkEventControllerKey *controller, guint keyval, guint keycode, GdkModifierType state,
                HydWindow *self)
{
  if (keyval == GDK_KEY_Escape)
    {
      /* whatever the hint said (placing, probing) is cancelled */
      if (self->probe_mode)
        g_object_set (self, "probe-mode", FALSE, NULL);
      gtk_label_set_text (self->mode_label, "");
    }
  return GDK_EVENT_PROPAGATE;
}

/* ---- dark theme ---- */

static void
update_dark (HydWindow *self)
{
  HydSymbolStyle style;
  hyd_ui_symbol_style_for_widget (GTK_WIDGET (self), &style);
  gboolean dark = style.background.r + style.background.g + style.background.b < 1.5;
  hyd_canvas_set_dark (self->canvas, dark);
}

static void
hyd_window_css_changed (GtkWidget *widget, GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (hyd_window_parent_class)->css_changed (widget, change);
  update_dark (HYD_WINDOW (widget));
}

/* ---- GObject ---- */

static void
hyd_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  HydWindow *self = HYD_WINDOW (object);
  switch (prop_id)
    {
    case PROP_PROBE_MODE:
      g_value_set_boolean (value, self->probe_mode);
      break;
    case PROP_PAUSED:
      g_value_set_boolean (value, self->paused);
      break;
    case PROP_SHOW_LABELS:
      g_value_set_boolean (value, self->canvas ? hyd_canvas_get_show_labels (self->canvas) : TRUE);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hyd_window_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  HydWindow *self = HYD_WINDOW (object);
  switch (prop_id)
    {
    case PROP_PROBE_MODE:
      {
        gboolean probe = g_value_get_boolean (value);
        if (self->probe_mode == probe)
          break;
        self->probe_mode = probe;
        hyd_canvas_set_tool (self->canvas, probe ? HYD_CANVAS_TOOL_PROBE : HYD_CANVAS_TOOL_SELECT);
        gtk_label_set_text (self->mode_label,
                            probe ? _("Probe: click a port, a wire or a component to plot it (P or Esc ends)")
                                  : "");
        if (probe)
          gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
        g_object_notify_by_pspec (object, pspec);
      }
      break;
    case PROP_PAUSED:
      _hyd_window_set_paused (self, g_value_get_boolean (value));
      break;
    case PROP_SHOW_LABELS:
      if (hyd_canvas_get_show_labels (self->canvas) != g_value_get_boolean (value))
        {
          hyd_canvas_set_show_labels (self->canvas, g_value_get_boolean (value));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* GTK's GL renderer on a software rasteriser (GSK_RENDERER=gl on llvmpipe:
 * the application picks cairo there unless told otherwise) repaints the
 * whole window on the CPU every frame, and blurs every blurred shadow again
 * each time: the window's drop shadow alone cost more than the rest of the
 * window. The "software-gl" style class draws the window and its buttons
 * without them (style.css). */
static void
hyd_window_realize (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (hyd_window_parent_class)->realize (widget);
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (widget));
  if (renderer && !GSK_IS_CAIRO_RENDERER (renderer) && hyd_ui_display_gl_is_software (gtk_widget_get_display (widget)))
    gtk_widget_add_css_class (widget, "software-gl");
}

static void
hyd_window_dispose (GObject *object)
{
  HydWindow *self = HYD_WINDOW (object);

  _hyd_window_sim_dispose (self);
  _hyd_window_files_dispose (self);
  g_clear_handle_id (&self->geometry_source, g_source_remove);
  g_clear_handle_id (&self->recheck_source, g_source_remove);
  if (self->document)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), HYD_TYPE_WINDOW);
  G_OBJECT_CLASS (hyd_window_parent_class)->dispose (object);
}

static void
hyd_window_finalize (GObject *object)
{
  HydWindow *self = HYD_WINDOW (object);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->last_geometry, g_free);
  g_clear_pointer (&self->recovery, g_ptr_array_unref);
  g_clear_pointer (&self->autosave_path, g_free);
  g_clear_object (&self->autosave_cancellable);
  g_clear_pointer (&self->lever_last, g_hash_table_unref);
  g_clear_pointer (&self->held_valve, g_free);
  g_clear_pointer (&self->info_buttons, g_ptr_array_unref);
  G_OBJECT_CLASS (hyd_window_parent_class)->finalize (object);
}

/* The moment the schematic shows and its circuit (win.explain-stiffness,
 * win.linear-analysis): the time slider's sample, else the run's latest,
 * else t = 0 (no run); the run's circuit, else the document's. */
static const HydCircuit *
shown_moment (HydWindow *self, double *t_out)
{
  const HydCircuit *circuit = hyd_simulation_get_circuit (self->simulation);
  double t = 0;
  if (circuit != NULL)
    {
      t = hyd_simulation_get_shown_time (self->simulation);
      if (isnan (t))
        {
          HydRunnerProgress progress;
          hyd_simulation_get_progress (self->simulation, &progress);
          t = progress.t;
        }
    }
  else
    circuit = hyd_document_get_circuit (self->document);
  if (!(t >= 0) || !isfinite (t))
    t = 0;
  *t_out = t;
  return circuit;
}

static void
explain_stiffness_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  HydWindow *self = HYD_WINDOW (widget);
  double t;
  const HydCircuit *circuit = shown_moment (self, &t);
  HydExplainView *view = hyd_explain_view_new (GTK_WINDOW (self), circuit, t, self->canvas);
  gtk_window_present (GTK_WINDOW (view));
}

/* win.linear-analysis: the "Linear Analysis" window (hyd-linear-view.h). */
static void
linear_analysis_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  HydWindow *self = HYD_WINDOW (widget);
  double t;
  const HydCircuit *circuit = shown_moment (self, &t);
  HydLinearView *view = hyd_linear_view_new (GTK_WINDOW (self), circuit, t);
  gtk_window_present (GTK_WINDOW (view));
}

/* win.solver-lab: the "Solver Lab" window (hyd-solver-lab.h) for the
 * document's circuit, the heat map on this window's schematic. */
static void
solver_lab_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  HydWindow *self = HYD_WINDOW (widget);
  HydSolverLab *lab = hyd_solver_lab_new (GTK_WINDOW (self), hyd_document_get_circuit (self->document),
                                          self->canvas);
  gtk_window_present (GTK_WINDOW (lab));
}

/* win.jacobian-sparsity: the "Jacobian Sparsity" window (hyd-sparsity-view.h). */
static void
jacobian_sparsity_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  HydWindow *self = HYD_WINDOW (widget);
  double t;
  const HydCircuit *circuit = shown_moment (self, &t);
  HydSparsityView *view = hyd_sparsity_view_new (GTK_WINDOW (self), circuit, t, self->canvas);
  gtk_window_present (GTK_WINDOW (view));
}

/* win.parameter-study: the "Parameter Study" window (hyd-study-dialog.h),
 * one per window. */
static void
parameter_study_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  HydWindow *self = HYD_WINDOW (widget);
  gtk_window_present (GTK_WINDOW (hyd_study_dialog_get_for (GTK_WINDOW (self), self->document)));
}

/* The property panel's "Vary in a Study…" on a parameter. */
static void
study_requested_cb (HydWindow *self, const char *component, const char *param, HydPropertyPanel *panel)
{
  HydStudyDialog *dialog = hyd_study_dialog_get_for (GTK_WINDOW (self), self->document);
  hyd_study_dialog_add_parameter (dialog, component, param);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
hyd_window_class_init (HydWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->get_property = hyd_window_get_property;
  object_class->set_property = hyd_window_set_property;
  object_class->dispose = hyd_window_dispose;
  object_class->finalize = hyd_window_finalize;
  widget_class->css_changed = hyd_window_css_changed;
  widget_class->realize = hyd_window_realize;
  window_class->close_request = hyd_window_close_request;

  properties[PROP_PROBE_MODE] =
    g_param_spec_boolean ("probe-mode", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PAUSED] =
    g_param_spec_boolean ("paused", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_LABELS] =
    g_param_spec_boolean ("show-labels", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (HYD_TYPE_CANVAS);
  g_type_ensure (HYD_TYPE_PALETTE);
  g_type_ensure (HYD_TYPE_PROPERTY_PANEL);
  g_type_ensure (HYD_TYPE_LIVE_PANEL);
  g_type_ensure (HYD_TYPE_SIM_BAR);
  g_type_ensure (HYD_TYPE_PLOT_PANES);
  g_type_ensure (HYD_TYPE_STATE_DIAGRAM_PANE);

  gtk_widget_class_install_action (widget_class, "win.explain-stiffness", NULL, explain_stiffness_action);
  gtk_widget_class_install_action (widget_class, "win.linear-analysis", NULL, linear_analysis_action);
  gtk_widget_class_install_action (widget_class, "win.jacobian-sparsity", NULL, jacobian_sparsity_action);
  gtk_widget_class_install_action (widget_class, "win.parameter-study", NULL, parameter_study_action);
  gtk_widget_class_install_action (widget_class, "win.solver-lab", NULL, solver_lab_action);

  gtk_widget_class_set_template_from_resource (widget_class, BRAMAH_RESOURCE_PREFIX "/ui/hyd-window.ui");
  gtk_widget_class_bind_template_child (widget_class, HydWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, recent_section);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, info_bar);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, info_label);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, main_paned);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, left_paned);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, right_paned);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, canvas_overlay);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, canvas);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, running_banner);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, running_label);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, legend_area);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, palette);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, property_panel);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, side_stack);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, side_box);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, side_switcher);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, live_panel);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, sim_bar);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, plot_panes);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, plots_stack);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, state_diagram);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, plots_switcher);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, HydWindow, mode_label);
  gtk_widget_class_bind_template_callback (widget_class, info_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, palette_type_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, help_requested_cb);
  gtk_widget_class_bind_template_callback (widget_class, study_requested_cb);
  gtk_widget_class_bind_template_callback (widget_class, canvas_selection_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, canvas_probe_cb);
  gtk_widget_class_bind_template_callback (widget_class, canvas_component_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, panel_live_change_cb);
  gtk_widget_class_bind_template_callback (widget_class, live_panel_change_cb);
  gtk_widget_class_bind_template_callback (widget_class, plots_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, plot_export_requested_cb);

  _hyd_window_class_actions_init (widget_class);
}

static void
hyd_window_init (HydWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->info_buttons = g_ptr_array_new ();
  self->lever_last = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->settings = hyd_ui_settings_new ();
  if (self->settings)
    {
      gtk_window_set_default_size (GTK_WINDOW (self), g_settings_get_int (self->settings, "window-width"),
                                   g_settings_get_int (self->settings, "window-height"));
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      hyd_sim_bar_set_keep_ghost (self->sim_bar, g_settings_get_boolean (self->settings, "keep-ghost"));
      /* the tlm solver's settings, kept as they change */
      g_settings_bind (self->settings, "tlm-threads", self->sim_bar, "tlm-threads", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (self->settings, "tlm-filter", self->sim_bar, "tlm-filter", G_SETTINGS_BIND_DEFAULT);
      hyd_canvas_set_show_labels (self->canvas, g_settings_get_boolean (self->settings, "show-labels"));
    }
  else
    gtk_window_set_default_size (GTK_WINDOW (self), 1200, 760);
  g_signal_connect_swapped (self->main_paned, "notify::max-position", G_CALLBACK (restore_plot_area_cb),
                            self);
  gtk_paned_set_position (self->right_paned, 10000);
  self->side_width = HYD_PROPERTY_PANEL_WIDTH;
  gtk_widget_set_size_request (self->side_box, self->side_width, -1);
  gtk_drawing_area_set_draw_func (self->legend_area, legend_draw, self, NULL);
  /* the simulation keys work wherever the focus is: F6 would otherwise
   * move the focus between the panes of a GtkPaned before reaching here */
  GtkEventController *sim_keys = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (sim_keys, GTK_PHASE_CAPTURE);
  static const struct { guint key; GdkModifierType mods; const char *action; } sim_shortcuts[] = {
    { GDK_KEY_F5, 0, "sim.run" },
    { GDK_KEY_F5, GDK_SHIFT_MASK, "sim.stop" },
    { GDK_KEY_F6, 0, "sim.pause" },
    { GDK_KEY_F7, 0, "sim.reset" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (sim_shortcuts); i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (sim_keys),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (sim_shortcuts[i].key,
                                                                                    sim_shortcuts[i].mods),
                                                            gtk_named_action_new (sim_shortcuts[i].action)));
  gtk_widget_add_controller (GTK_WIDGET (self), sim_keys);
  GtkEventController *keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);

  _hyd_window_sim_init (self);
  _hyd_window_files_init (self);

  g_autoptr (HydDocument) document = hyd_document_new ();
  _hyd_window_set_document (self, document, NULL);

  if (g_getenv ("BRAMAH_DEBUG_GEOMETRY"))
    self->geometry_source = g_timeout_add (GEOMETRY_INTERVAL_MS, geometry_timeout_cb, self);
}

HydWindow *
hyd_window_new (GtkApplication *application)
{
  return g_object_new (HYD_TYPE_WINDOW, "application", application, NULL);
}

HydDocument *
hyd_window_get_document (HydWindow *self)
{
  g_return_val_if_fail (HYD_IS_WINDOW (self), NULL);
  return self->document;
}

HydSimulation *
hyd_window_get_simulation (HydWindow *self)
{
  g_return_val_if_fail (HYD_IS_WINDOW (self), NULL);
  return self->simulation;
}

GtkWidget *
hyd_window_get_live_panel (HydWindow *self)
{
  g_return_val_if_fail (HYD_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->live_panel);
}

gboolean
hyd_window_is_pristine (HydWindow *self)
{
  g_return_val_if_fail (HYD_IS_WINDOW (self), FALSE);
  const HydCircuit *circuit = hyd_document_get_circuit (self->document);
  return self->path == NULL && !_hyd_window_get_modified (self) && circuit->components->len == 0
         && !hyd_simulation_get_active (self->simulation);
}
