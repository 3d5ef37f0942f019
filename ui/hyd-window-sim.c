/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-window-sim.c — the live simulation in the window: Run, Pause, Stop
 * and Reset, the locked editing while a run goes, the canvas animation, the
 * plots, the status line, the what-if changes (sliders and lever valves
 * clicked on the canvas) and the errors, shown in the info bar. */
#define G_LOG_DOMAIN "hyd-window-sim"

#include "bramah-config.h"
#include "hyd-message.h"
#include "hyd-window-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "hyd-catalogue.h"
#include "hyd-diagnostic.h"
#include "hyd-display-units.h"
#include "hyd-symbol.h"
#include "hyd-symbol-render.h"
#include "hyd-system.h"
#include "hyd-ui-util.h"

/* The status line is refreshed at most this often while a run streams. */
#define STATUS_INTERVAL_US (G_USEC_PER_SEC / 10)
/* Hit tolerance of a lever valve's symbol, in modules (the guide's 0.3 M). */
#define LEVER_HIT_TOLERANCE 0.3
/* The variable list of the plots follows edits after this pause. */
#define VARIABLES_DELAY_MS 400
/* BRAMAH_DEBUG_LATENCY: how often the main loop is asked to wake. */
#define LATENCY_INTERVAL_MS 10

/* ---- the canvas's live callbacks ---- */

/* A node with a void (the engine's "<port>.void" > 0) cavitates whatever
 * its pressure: it is shown in the cavitation colour, as one below the
 * cavitation pressure. */
static double
live_pressure_cb (const char *component_id, const char *port, gpointer user_data)
{
  HydWindow *self = user_data;
  double volume;
  if (hyd_simulation_port_void (self->simulation, component_id, port, &volume) && volume > 0)
    return self->cavitation_pressure - 1e5;
  g_autofree char *name = g_strdup_printf ("%s.%s.p", component_id, port);
  double value;
  return hyd_simulation_lookup (self->simulation, name, &value) ? value : NAN;
}

/* ---- the pressure legend: the canvas's scale, truthfully ---- */

#define LEGEND_WIDTH 290
#define LEGEND_CAVITATION_WIDTH 80

void
_hyd_window_draw_legend (HydWindow *self, GtkDrawingArea *area, cairo_t *cr, int width, int height)
{
  HydSymbolStyle style;
  hyd_canvas_get_style (self->canvas, &style);

  const double bar_x = 8, bar_y = 6, bar_h = 10;
  const double bar_w = width - 16 - LEGEND_CAVITATION_WIDTH;
  for (int i = 0; i < (int) bar_w; i++)
    {
      double p = style.pressure_min + (style.pressure_max - style.pressure_min) * i / (bar_w - 1);
      HydRgba c;
      hyd_symbol_style_pressure_colour (&style, p, &c);
      hyd_rgba_set_source (cr, &c);
      cairo_rectangle (cr, bar_x + i, bar_y, 1, bar_h);
      cairo_fill (cr);
    }
  hyd_rgba_set_source (cr, &style.line);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, bar_x + 0.5, bar_y + 0.5, bar_w - 1, bar_h - 1);
  cairo_stroke (cr);

  /* the cavitation swatch */
  double sw_x = bar_x + bar_w + 14;
  hyd_rgba_set_source (cr, &style.cavitation);
  cairo_rectangle (cr, sw_x, bar_y, 24, bar_h);
  cairo_fill (cr);
  hyd_rgba_set_source (cr, &style.line);
  cairo_rectangle (cr, sw_x + 0.5, bar_y + 0.5, 23, bar_h - 1);
  cairo_stroke (cr);

  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (area), NULL);
  const double marks[] = { 0, 0.5, 1 };
  for (guint i = 0; i < G_N_ELEMENTS (marks); i++)
    {
      double p = style.pressure_min + (style.pressure_max - style.pressure_min) * marks[i];
      g_autofree char *number = g_strdup_printf ("%.4g", p * 1e-5);
      /* the top colour stands for every pressure above the scale */
      g_autofree char *text = i == 2 ? g_strdup_printf (_("≥ %s bar"), number) : g_strdup (number);
      pango_layout_set_text (layout, text, -1);
      int tw, th;
      pango_layout_get_pixel_size (layout, &tw, &th);
      double x = bar_x + bar_w * marks[i] - tw * marks[i];
      cairo_move_to (cr, x, bar_y + bar_h + 2);
      pango_cairo_show_layout (cr, layout);
    }
  /* translators: the legend entry of the colour of cavitating oil */
  pango_layout_set_text (layout, _("cavitation"), -1);
  cairo_move_to (cr, sw_x, bar_y + bar_h + 2);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static gboolean
live_variable_cb (const char *component_id, const char *variable, double *value, gpointer user_data)
{
  HydWindow *self = user_data;
  if (component_id == NULL)
    return hyd_simulation_lookup (self->simulation, variable, value); /* "t": the sample's time */
  g_autofree char *name = g_strdup_printf ("%s.%s", component_id, variable);
  return hyd_simulation_lookup (self->simulation, name, value);
}

/* The electrical nets (docs/electrical.md): a wire carrying current is red. */
static gboolean
live_level_cb (const char *component_id, const char *port, guint *level, gpointer user_data)
{
  HydWindow *self = user_data;
  return hyd_simulation_get_elec_level (self->simulation, component_id, port, level);
}

/* ---- what a diagnostic concerns, highlighted ---- */

/* The component a diagnostic names (a box) and its port (a ring), when the
 * circuit has that component; NULL when it names none. */
static GStrv
diagnostic_highlight (HydWindow *self, const HydDiagnostic *d)
{
  const HydCircuit *circuit = hyd_document_get_circuit (self->document);
  if (d == NULL || d->component == NULL || hyd_circuit_find_component (circuit, d->component) == NULL)
    return NULL;
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_strv_builder_add (builder, d->component);
  g_autofree char *port = d->port ? g_strconcat (d->component, ".", d->port, NULL) : NULL;
  if (port)
    g_strv_builder_add (builder, port);
  for (guint i = 0; d->related && d->related[i]; i++)
    if (hyd_circuit_find_component (circuit, d->related[i]) != NULL)
      g_strv_builder_add (builder, d->related[i]);
  return g_strv_builder_end (builder);
}

/* The ports of `circuit` a message names as "C1.R" (a component id, a dot
 * and one of its ports), each with its component: what a solver that
 * refuses a circuit names in its sentence. NULL when none. */
static GStrv
named_ports (const HydCircuit *circuit, const char *message)
{
  if (message == NULL)
    return NULL;
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) words = g_strsplit_set (message, " \t;,:()\"'", -1);
  guint n = 0;
  for (guint i = 0; words[i]; i++)
    {
      const char *dot = strchr (words[i], '.');
      if (dot == NULL || dot == words[i] || strchr (dot + 1, '.') != NULL)
        continue;
      g_autofree char *id = g_strndup (words[i], dot - words[i]);
      const HydCircuitComponent *c = hyd_circuit_find_component (circuit, id);
      const HydComponentType *type = c ? hyd_catalogue_lookup (c->type) : NULL;
      if (type == NULL || hyd_component_type_find_port (type, dot + 1) < 0)
        continue;
      g_strv_builder_add (builder, id);
      g_strv_builder_add (builder, words[i]);
      n++;
    }
  return n > 0 ? g_strv_builder_end (builder) : NULL;
}

/* Shows an error (already in the interface's language) and highlights what
 * `ids` names (components, "C1.B" ports, junctions; NULL: nothing). */
static void
show_error_with_highlight (HydWindow *self, const char *engine_message, const char *const *ids)
{
  /* the engine's SI and internal names in the panel's units and words */
  g_autofree char *message = hyd_message_humanize (hyd_document_get_circuit (self->document), engine_message);
  _hyd_window_show_message (self, GTK_MESSAGE_ERROR, message);
  hyd_canvas_set_highlight (self->canvas, ids && ids[0] ? ids : NULL);
}

/* ---- BRAMAH_DEBUG_LATENCY: is the UI responsive while a run streams? ----
 * A timer asks the main loop to wake every 10 ms; how late it comes is the
 * latency a click or a redraw would see. The figures of each run are
 * printed when it ends. */

static gboolean
latency_tick_cb (gpointer user_data)
{
  HydWindow *self = user_data;
  gint64 now = g_get_monotonic_time ();
  double late_ms = (now - self->latency_last) / 1000.0 - LATENCY_INTERVAL_MS;
  g_array_append_val (self->latency, late_ms);
  self->latency_last = now;
  return G_SOURCE_CONTINUE;
}

static void
latency_paint_cb (GdkFrameClock *clock, HydWindow *self)
{
  self->latency_frames++;
}

static void
latency_disconnect_paint (HydWindow *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));
  if (self->latency_paint_id && clock)
    g_signal_handler_disconnect (clock, self->latency_paint_id);
  self->latency_paint_id = 0;
}

static void
latency_start (HydWindow *self)
{
  if (!g_getenv ("BRAMAH_DEBUG_LATENCY"))
    return;
  g_clear_handle_id (&self->latency_source, g_source_remove);
  latency_disconnect_paint (self);
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));
  if (clock)
    self->latency_paint_id = g_signal_connect (clock, "after-paint", G_CALLBACK (latency_paint_cb), self);
  self->latency_frames = 0;
  self->latency_start_us = g_get_monotonic_time ();
  if (self->latency == NULL)
    self->latency = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_set_size (self->latency, 0);
  self->latency_last = g_get_monotonic_time ();
  self->latency_source = g_timeout_add (LATENCY_INTERVAL_MS, latency_tick_cb, self);
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static void
latency_report (HydWindow *self)
{
  if (self->latency_source == 0)
    return;
  g_clear_handle_id (&self->latency_source, g_source_remove);
  latency_disconnect_paint (self);
  double run_s = (g_get_monotonic_time () - self->latency_start_us) / (double) G_USEC_PER_SEC;
  guint n = self->latency->len;
  if (n == 0)
    return;
  g_array_sort (self->latency, compare_double);
  const double *v = (const double *) self->latency->data;
  double sum = 0;
  for (guint i = 0; i < n; i++)
    sum += MAX (v[i], 0);
  printf ("BRAMAH-LATENCY ticks %u mean %.2f p50 %.2f p99 %.2f max %.2f ms frames %u in %.2f s\n", n, sum / n,
          MAX (v[n / 2], 0), MAX (v[MIN (n - 1, (guint) (0.99 * n))], 0), MAX (v[n - 1], 0), self->latency_frames,
          run_s);
  fflush (stdout);
}

/* ---- state of the window around a run ---- */

static void
update_status (HydWindow *self, gboolean force)
{
  gint64 now = g_get_monotonic_time ();
  if (!force && now - self->last_status_update < STATUS_INTERVAL_US)
    return;
  self->last_status_update = now;

  HydRunnerState state = hyd_simulation_get_state (self->simulation);
  if (state == HYD_RUNNER_READY && hyd_simulation_get_store (self->simulation) == NULL)
    {
      gtk_inscription_set_text (self->status_label, _("Ready"));
      hyd_sim_bar_set_progress (self->sim_bar, 0, _("Ready"));
      return;
    }
  HydRunnerProgress progress;
  hyd_simulation_get_progress (self->simulation, &progress);
  double fraction = progress.t_end > 0 ? progress.t / progress.t_end : 0;

  g_autofree char *t = hyd_ui_format_seconds (progress.t);
  g_autofree char *t_end = hyd_ui_format_seconds (progress.t_end);
  g_autofree char *wall = hyd_ui_format_seconds (progress.wall_s);
  g_autofree char *ratio = NULL;
  if (progress.wall_s > 0 && progress.t > 0)
    /* translators: simulated seconds per wall-clock second */
    ratio = g_strdup_printf (_("%.3g× real time"), progress.ratio);
  else
    ratio = g_strdup ("—");
  /* translators: the status line: simulated time, steps, wall time, real-time ratio */
  g_autofree char *steps = g_strdup_printf ("%" G_GUINT64_FORMAT, progress.steps);
  g_autofree char *rejected = g_strdup_printf ("%" G_GUINT64_FORMAT, progress.rejected);
  g_autofree char *status = g_strdup_printf (
      _("t = %s of %s  ·  %s steps (%s rejected)  ·  wall %s  ·  %s"),
      t, t_end, steps, rejected, wall, ratio);
  g_autofree char *cavitating = hyd_simulation_describe_cavitation (self->simulation, self->cavitation_pressure);
  if (cavitating)
    {
      /* translators: appended to the status line: "cavitation: C1.B (0.26 L)" */
      g_autofree char *more = g_strdup_printf (_("%s  ·  cavitation: %s"), status, cavitating);
      g_free (status);
      status = g_steal_pointer (&more);
    }
  gtk_inscription_set_text (self->status_label, status);

  const char *what;
  switch (state)
    {
    case HYD_RUNNER_RUNNING: what = _("Running"); break;
    case HYD_RUNNER_PAUSED: what = _("Paused"); break;
    case HYD_RUNNER_FINISHED: what = _("Finished"); break;
    case HYD_RUNNER_STOPPED: what = _("Stopped"); break;
    case HYD_RUNNER_FAILED: what = _("Failed"); break;
    case HYD_RUNNER_READY:
    default: what = _("Ready"); break;
    }
  g_autofree char *text = g_strdup_printf ("%s  %.0f %%", what, 100 * CLAMP (fraction, 0, 1));
  hyd_sim_bar_set_progress (self->sim_bar, fraction, text);
  hyd_property_panel_refresh_live (self->property_panel);
  hyd_live_panel_refresh (self->live_panel);
}

/* The Live page lists the run's sliders while a run is going. A run
 * started with no component shown turns to it (with one shown, the
 * property panel keeps its sliders, as before); its end turns back. */
static void
apply_live_panel (HydWindow *self, gboolean active)
{
  gboolean was = hyd_live_panel_get_running (self->live_panel);
  if (active && !was)
    {
      hyd_live_panel_set_run (self->live_panel, hyd_document_get_circuit (self->document));
      _hyd_window_keep_side_width (self);
      if (hyd_property_panel_get_component (self->property_panel) == NULL
          && hyd_live_panel_get_n_sliders (self->live_panel) > 0)
        {
          gtk_stack_set_visible_child_name (self->side_stack, "live");
          self->live_shown_by_run = TRUE;
        }
    }
  else if (!active && was)
    {
      hyd_live_panel_set_run (self->live_panel, NULL);
      if (self->live_shown_by_run && g_strcmp0 (gtk_stack_get_visible_child_name (self->side_stack), "live") == 0)
        gtk_stack_set_visible_child_name (self->side_stack, "properties");
      self->live_shown_by_run = FALSE;
    }
}

static void
apply_state (HydWindow *self)
{
  HydRunnerState state = hyd_simulation_get_state (self->simulation);
  /* a run being compiled counts: editing is locked, Stop cancels it */
  gboolean active = hyd_simulation_get_active (self->simulation);

  gtk_widget_set_visible (self->running_banner, active);

  hyd_property_panel_set_running (self->property_panel, active);
  apply_live_panel (self, active);
  hyd_sim_bar_set_running (self->sim_bar, active);
  hyd_palette_set_sensitive_entries (self->palette, !active);
  HydTraceStore *store = hyd_simulation_get_store (self->simulation);
  guint n_rows = store ? hyd_trace_store_get_n_rows (store) : 0;
  if (active)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->canvas_overlay), "running");
      hyd_canvas_set_replay (self->canvas, FALSE);
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->canvas_overlay), "running");
      /* editing comes back with the end of the run; the schematic keeps
       * the run's state (its last sample, or the one replayed) until the
       * circuit is edited or the run reset */
      if (n_rows > 0 && hyd_simulation_get_runner (self->simulation))
        hyd_canvas_set_replay (self->canvas, TRUE);
      else
        hyd_canvas_clear_live (self->canvas);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->legend_area),
                          active || (n_rows > 0 && hyd_simulation_get_runner (self->simulation)));
  /* the replay slider: after a run and while one is paused */
  if (state != HYD_RUNNER_RUNNING && n_rows > 1 && hyd_simulation_get_runner (self->simulation))
    {
      const double *t = hyd_trace_store_get_column (store, 0);
      double shown = hyd_simulation_get_shown_time (self->simulation);
      hyd_sim_bar_set_replay (self->sim_bar, t[0], t[n_rows - 1], shown);
    }
  else
    {
      hyd_sim_bar_set_replay (self->sim_bar, NAN, NAN, NAN);
      hyd_simulation_show_time (self->simulation, NAN);
      hyd_plot_panes_set_replay_time (self->plot_panes, NAN);
    }

  gboolean paused = state == HYD_RUNNER_PAUSED;
  hyd_canvas_set_paused (self->canvas, paused);
  gtk_label_set_text (self->running_label,
                      paused
                          ? _("Paused — editing is locked until the run is stopped. Click a lever valve or a "
                              "pushbutton, or move a slider, then resume (F6).")
                          : _("Running — editing is locked. Click a lever valve or a pushbutton to operate "
                              "it, or move a slider on the right."));
  if (self->paused != paused)
    {
      self->paused = paused;
      g_object_notify (G_OBJECT (self), "paused");
    }
  update_status (self, TRUE);
  _hyd_window_actions_update (self);
}

static void
simulation_state_changed_cb (HydWindow *self, HydSimulation *simulation)
{
  apply_state (self);
}

/* The live beat (hyd_ui_live_beat_add): however often rows arrive, the
 * schematic and the status line change at most HYD_UI_LIVE_FRAME_US apart,
 * in the frame the plots use too. */
static gboolean
live_beat_cb (gpointer user_data)
{
  HydWindow *self = user_data;
  self->live_source = 0;
  HydTraceStore *store = hyd_simulation_get_store (self->simulation);
  guint n_rows = store ? hyd_trace_store_get_n_rows (store) : 0;
  guint n = store ? hyd_trace_store_get_n_columns (store) : 0;
  gboolean changed = TRUE;
  if (n_rows > 0 && n > 0)
    {
      g_autofree double *row = g_new (double, n);
      for (guint c = 0; c < n; c++)
        row[c] = hyd_trace_store_get_column (store, c)[n_rows - 1];
      changed = hyd_live_sample_changed (self->live_drawn, row, n);
    }
  if (changed)
    hyd_canvas_queue_live_redraw (self->canvas);
  update_status (self, TRUE);
  return G_SOURCE_REMOVE;
}

static void
simulation_samples_cb (HydWindow *self, HydSimulation *simulation)
{
  if (self->live_source == 0)
    {
      /* GTK's GL renderer on a software rasteriser repaints the whole
       * window on the CPU each frame: there the schematic and the status
       * line follow the plots' beat, one frame for all of them */
      gboolean software_gl = gtk_widget_has_css_class (GTK_WIDGET (self), "software-gl");
      self->live_source
          = hyd_ui_live_beat_add (software_gl ? HYD_UI_LIVE_PLOT_US : HYD_UI_LIVE_FRAME_US, live_beat_cb, self);
    }
}

static void
simulation_warning_cb (HydWindow *self, const char *engine_message, HydSimulation *simulation)
{
  /* the diagnostic the runner delivered with this warning, in the
   * interface's language */
  HydRunner *runner = hyd_simulation_get_runner (simulation);
  GPtrArray *diagnostics = runner ? hyd_runner_get_diagnostics (runner) : NULL;
  const HydDiagnostic *d = diagnostics && diagnostics->len
                           ? g_ptr_array_index (diagnostics, diagnostics->len - 1) : NULL;
  g_autofree char *text = d && g_strcmp0 (d->message, engine_message) == 0
                          ? hyd_diagnostic_dup_message (d, GETTEXT_PACKAGE)
                          : g_strdup (engine_message);
  g_autofree char *message = hyd_message_humanize (hyd_document_get_circuit (self->document), text);
  if (!gtk_info_bar_get_revealed (self->info_bar))
    _hyd_window_show_message (self, GTK_MESSAGE_WARNING, message);
  gtk_label_set_text (self->mode_label, message);
}

static void
simulation_finished_cb (HydWindow *self, HydSimulation *simulation)
{
  const HydOdeResult *result = hyd_simulation_get_result (simulation);
  latency_report (self);
  update_status (self, TRUE);
  if (result == NULL)
    return;
  switch (hyd_simulation_get_state (simulation))
    {
    case HYD_RUNNER_FAILED:
      if (result->status == HYD_ODE_BAD_INPUT)
        {
          /* the solver refused the circuit before its first step (a
           * fixed-step solver without a fixed step, tlm on what it cannot
           * model): no tolerance helps, another solver does */
          HydRunner *runner = hyd_simulation_get_runner (simulation);
          g_autoptr (HydDiagnostic) failure = runner ? hyd_runner_dup_failure (runner) : NULL;
          g_autofree char *why = failure ? hyd_diagnostic_dup_message (failure, GETTEXT_PACKAGE)
                                         : g_strdup (result->message ? result->message
                                                                     : hyd_ode_status_name (result->status));
          /* the engine's sentence begins "the tlm solver: " where ours says it */
          g_autofree char *prefix = g_strdup_printf ("the %s solver: ", hyd_sim_bar_get_solver (self->sim_bar));
          const char *reason = g_str_has_prefix (why, prefix) ? why + strlen (prefix) : why;
          /* translators: "The tlm solver cannot run this circuit: <the solver's reason>. ..." */
          g_autofree char *message
              = g_strdup_printf (_("The %s solver cannot run this circuit: %s. Choose another solver in "
                                   "the run bar; the drawing is unchanged."),
                                 hyd_sim_bar_get_solver (self->sim_bar), reason);
          g_auto (GStrv) ids = diagnostic_highlight (self, failure);
          if (ids == NULL)
            ids = named_ports (hyd_document_get_circuit (self->document), failure ? failure->message : why);
          show_error_with_highlight (self, message, (const char *const *) ids);
          break;
        }
      {
        g_autofree char *t = hyd_ui_format_seconds (result->t);
        /* the solver's sentence, translated; the state of the largest
         * error names the component */
        HydRunner *runner = hyd_simulation_get_runner (simulation);
        g_autoptr (HydDiagnostic) failure = runner ? hyd_runner_dup_failure (runner) : NULL;
        g_autofree char *why = failure ? hyd_diagnostic_dup_message (failure, GETTEXT_PACKAGE)
                                       : g_strdup (hyd_ode_status_name (result->status));
        /* translators: "The solver failed at t = 1.234 s: <message naming the state>" */
        g_autofree char *message
            = g_strdup_printf (_("The solver failed at t = %s: %s. The traces up to that "
                                 "moment are kept; try a tighter tolerance or another "
                                 "solver."),
                               t, why);
        g_auto (GStrv) ids = diagnostic_highlight (self, failure);
        show_error_with_highlight (self, message, (const char *const *) ids);
      }
      break;
    case HYD_RUNNER_FINISHED:
      if (result->note)
        gtk_label_set_text (self->mode_label, result->note);
      break;
    default:
      break;
    }
}

/* The run outgrew the plots' memory cap (issue 9): say so once. */
static void
store_compacted_cb (HydWindow *self, HydTraceStore *store)
{
  if (hyd_trace_store_get_n_compactions (store) != 1)
    return;
  g_autofree char *size = g_format_size (hyd_trace_store_get_max_bytes (store));
  g_autofree char *message = g_strdup_printf (
      _("This run has more samples than the plots keep (%s): older samples are thinned to their minimum and "
        "maximum, so peaks stay but fine detail goes, and an export of the run has the thinned samples. "
        "bramah-cli simulate -o writes every sample."),
      size);
  _hyd_window_show_message (self, GTK_MESSAGE_INFO, message);
}

/* ---- run, pause, stop, reset ---- */

/* The run's compile ended (hyd_simulation_start_async): show its error, or
 * set the window up for the run. */
static void
run_started_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (HydWindow) self = data;
  g_autoptr (GError) error = NULL;

  if (!hyd_simulation_start_finish (HYD_SIMULATION (source), result, &error))
    {
      /* stopped, reset or started again first; or the window closed */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->simulation == NULL)
        return;
      g_autofree char *text = hyd_diagnostic_dup_error_message (error, GETTEXT_PACKAGE);
      g_autofree char *message = g_strdup_printf (_("The circuit cannot run: %s"), text);
      g_auto (GStrv) ids = diagnostic_highlight (self, hyd_diagnostic_peek_error (error));
      show_error_with_highlight (self, message, (const char *const *) ids);
      self->info_kind = HYD_INFO_CIRCUIT;
      apply_state (self);
      return;
    }
  if (self->simulation == NULL)
    return;
  const HydCircuit *circuit = hyd_document_get_circuit (self->document);

  _hyd_window_hide_info (self);
  g_signal_connect_object (hyd_simulation_get_store (self->simulation), "compacted",
                           G_CALLBACK (store_compacted_cb), self, G_CONNECT_SWAPPED);
  hyd_plot_panes_set_stores (self->plot_panes, hyd_simulation_get_store (self->simulation),
                             hyd_simulation_get_ghost (self->simulation));
  g_auto (GStrv) variables = hyd_simulation_dup_variables (self->simulation);
  hyd_plot_panes_set_variables (self->plot_panes, (const char *const *) variables);
  g_hash_table_remove_all (self->lever_last);
  g_array_set_size (self->live_drawn, 0);
  if (self->probe_mode)
    gtk_label_set_text (self->mode_label, "");
  /* one pressure scale for the schematic and its legend */
  hyd_canvas_set_pressure_range (self->canvas, 0, hyd_pressure_scale_max (circuit));
  HydSymbolStyle style;
  hyd_canvas_get_style (self->canvas, &style);
  self->cavitation_pressure = style.cavitation_pressure;
  hyd_canvas_set_live (self->canvas, live_pressure_cb, live_variable_cb, self, NULL);
  hyd_canvas_set_live_levels (self->canvas, live_level_cb);
  latency_start (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->legend_area));
  apply_state (self);
}


void
_hyd_window_run (HydWindow *self)
{
  HydRunnerState state = hyd_simulation_get_state (self->simulation);
  if (state == HYD_RUNNER_PAUSED)
    {
      hyd_simulation_resume (self->simulation);
      return;
    }
  if (state == HYD_RUNNER_RUNNING || hyd_simulation_get_starting (self->simulation))
    return;

  const HydCircuit *circuit = hyd_document_get_circuit (self->document);
  if (circuit->components->len == 0)
    {
      _hyd_window_show_message (
          self, GTK_MESSAGE_INFO,
          _("The circuit is empty: place components from the palette, or open an example."));
      return;
    }

  /* a field left red, or a value out of range, stops the run at that field */
  if (!_hyd_window_check_parameters (self))
    return;

  /* problems the canvas knows first: unconnected ports, wires ending nowhere */
  g_auto (GStrv) problems = hyd_canvas_check (self->canvas);
  if (problems && problems[0])
    {
      g_autofree char *list = g_strjoinv (", ", problems);
      /* translators: %s lists ports ("C1.B, V1.T") */
      g_autofree char *message
          = g_strdup_printf (_("The circuit cannot run yet: not connected: %s. Draw a wire "
                               "from each to the circuit (a tank for a return line), or "
                               "delete what it belongs to."),
                             list);
      /* the engine's unconnected ports (hyd-circuit-check.h) name their
       * component and port: a box and a ring; junctions and wire ends a ring */
      g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
      for (guint i = 0; problems[i]; i++)
        {
          const char *dot = strchr (problems[i], '.');
          g_autofree char *component = dot ? g_strndup (problems[i], dot - problems[i]) : NULL;
          if (component)
            g_strv_builder_add (builder, component);
          g_strv_builder_add (builder, problems[i]);
        }
      g_auto (GStrv) ids = g_strv_builder_end (builder);
      show_error_with_highlight (self, message, (const char *const *) ids);
      self->info_kind = HYD_INFO_CIRCUIT;
      return;
    }

  hyd_simulation_set_keep_ghost (self->simulation, hyd_sim_bar_get_keep_ghost (self->sim_bar));
  hyd_simulation_set_real_time_factor (self->simulation, hyd_sim_bar_get_real_time_factor (self->sim_bar));
  /* the application's settings for tlm (other solvers ignore them) */
  hyd_simulation_set_tlm (self->simulation, hyd_sim_bar_get_tlm_filter (self->sim_bar),
                          hyd_sim_bar_get_tlm_threads (self->sim_bar));
  /* compiled by a worker: a large circuit does not block input; the
   * window stays alive for the callback */
  hyd_simulation_start_async (self->simulation, circuit, run_started_cb, g_object_ref (self));
  apply_state (self);
}

void
_hyd_window_set_paused (HydWindow *self, gboolean paused)
{
  if (paused)
    hyd_simulation_pause (self->simulation);
  else
    hyd_simulation_resume (self->simulation);
}

void
_hyd_window_stop (HydWindow *self)
{
  hyd_simulation_stop (self->simulation);
}

void
_hyd_window_reset (HydWindow *self)
{
  if (self->simulation == NULL)
    return;
  hyd_simulation_reset (self->simulation);
  hyd_canvas_clear_live (self->canvas);
  hyd_plot_panes_set_stores (self->plot_panes, NULL, NULL);
  apply_state (self);
}

/* ---- what-if ---- */

static const HydParamInfo *
param_info (HydWindow *self, const char *component, const char *param, const HydCircuitComponent **comp_out)
{
  const HydCircuitComponent *comp
      = hyd_circuit_find_component (hyd_document_get_circuit (self->document), component);
  const HydComponentType *type = comp ? hyd_catalogue_lookup (comp->type) : NULL;
  int index = type ? hyd_component_type_find_param (type, param) : -1;
  if (comp_out)
    *comp_out = comp;
  return index >= 0 ? &type->params[index] : NULL;
}

void
_hyd_window_live_change (HydWindow *self, const char *component, const char *param, double value)
{
  g_autoptr (GError) error = NULL;
  if (!hyd_simulation_set_param (self->simulation, component, param, value, &error))
    {
      g_autofree char *why = hyd_diagnostic_dup_error_message (error, GETTEXT_PACKAGE);
      gtk_label_set_text (self->mode_label, why);
      return;
    }
  const HydParamInfo *info = param_info (self, component, param, NULL);
  g_autofree char *shown = hyd_display_format (info ? info->unit : HYD_UNIT_NONE, value);
  g_autofree char *text = g_strdup_printf ("%s.%s → %s", component, param, shown);
  gtk_label_set_text (self->mode_label, text);
}

/* A valve the user operates by hand or foot (its type has an operation
 * parameter, and the typed view says "lever", "pushbutton" or "pedal"). */
static gboolean
is_lever_valve (const HydCircuitComponent *comp)
{
  const HydComponentType *type = hyd_catalogue_lookup (comp->type);
  if (type == NULL || type->operation_param == NULL)
    return FALSE;
  /* the operation does not depend on the fluid */
  g_autoptr (HydComponentParams) params = hyd_circuit_component_get_params (comp, NULL, NULL);
  if (params == NULL || !hyd_operation_is_manual (hyd_component_params_get_operation (params)))
    return FALSE;
  /* a valve whose solenoids are named is worked by its coils, not by hand */
  for (guint X = 0; X < type->n_ports; X++)
    if (type->ports[X].hidden && type->ports[X].overrides
        && g_strcmp0 (type->ports[X].overrides, type->command_param) == 0
        && hyd_circuit_component_reference_sets_port (comp, type->ports[X].name))
      return FALSE;
  return TRUE;
}

/* A switch of the current-path diagram the user works by hand while the
 * circuit runs (docs/electrical.md): an electrical type whose "actuated"
 * (or its command_param) is a profile parameter, a pushbutton. */
static gboolean
is_manual_switch (const HydCircuitComponent *comp)
{
  const HydComponentType *type = hyd_catalogue_lookup (comp->type);
  if (type == NULL || type->category != HYD_CATEGORY_ELECTRICAL)
    return FALSE;
  int k = hyd_component_type_find_param (type, type->command_param ? type->command_param : "actuated");
  return k >= 0 && (type->params[k].flags & HYD_PARAM_PROFILE);
}

/* The parameter a click sets: a valve's command, a switch's "actuated". */
static const char *
manual_command (const HydCircuitComponent *comp)
{
  const HydComponentType *type = hyd_catalogue_lookup (comp->type);
  if (type == NULL)
    return NULL;
  if (type->command_param)
    return type->command_param;
  return is_manual_switch (comp) ? "actuated" : NULL;
}

/* The choice an enum parameter of a component holds (its default when
 * unset), or NULL. */
static const char *
param_choice (const HydCircuitComponent *comp, const char *name)
{
  const HydComponentType *type = hyd_catalogue_lookup (comp->type);
  int k = type && name ? hyd_component_type_find_param (type, name) : -1;
  if (k < 0 || !(type->params[k].flags & HYD_PARAM_ENUM) || type->params[k].choices == NULL)
    return NULL;
  JsonNode *node = comp->params ? json_object_get_member (comp->params, name) : NULL;
  if (node && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);
  return type->params[k].choices[(guint) type->params[k].def];
}

/* TRUE when the valve's operator springs back when released, or the
 * switch is a momentary pushbutton (closed only while the mouse is held). */
static gboolean
is_spring_return (const HydCircuitComponent *comp)
{
  const HydComponentType *type = hyd_catalogue_lookup (comp->type);
  g_autoptr (HydComponentParams) params = type ? hyd_circuit_component_get_params (comp, NULL, NULL) : NULL;
  if (params != NULL && hyd_component_type_get_spring_return (type, params->values))
    return TRUE;
  return type && (g_strcmp0 (param_choice (comp, type->return_param), "momentary") == 0
                  || g_strcmp0 (param_choice (comp, "operation"), "momentary") == 0);
}

static const HydCircuitComponent *
lever_valve_at (HydWindow *self, double wx, double wy)
{
  HydSymbolLibrary *library = hyd_symbol_library_get_default (NULL);
  const HydCircuit *circuit = hyd_document_get_circuit (self->document);
  double x, y;
  hyd_canvas_widget_to_doc (self->canvas, wx, wy, &x, &y);
  /* the last drawn is on top */
  for (guint i = circuit->components->len; library && i-- > 0;)
    {
      const HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      if (!is_lever_valve (comp) && !is_manual_switch (comp))
        continue;
      HydSymbol *symbol = hyd_symbol_library_lookup (library, comp->type);
      if (symbol == NULL)
        continue;
      HydSymbolPose pose;
      hyd_symbol_pose_from_component (&pose, comp);
      HydRect bounds;
      hyd_symbol_placed_bounds (symbol, &pose, &bounds);
      if (hyd_symbol_hit_test (symbol, &pose, NULL, x, y, LEVER_HIT_TOLERANCE)
          || (x >= bounds.x0 && x <= bounds.x1 && y >= bounds.y0 && y <= bounds.y1))
        return comp;
    }
  return NULL;
}

/* A click on a manual operator. Detent: it toggles (a 4/3: centre, one
 * side, centre, the other side ...) and stays. Spring return: the press
 * shifts it (a 4/3 to the side opposite the last one) and the release
 * (operator_released) lets it spring back to the neutral command. */
static void
operate_lever (HydWindow *self, const HydCircuitComponent *comp)
{
  const char *command = manual_command (comp);
  const HydParamInfo *info = command ? param_info (self, comp->id, command, NULL) : NULL;
  if (info == NULL)
    return;
  double current = 0;
  hyd_simulation_get_param (self->simulation, comp->id, command, &current);
  double next;
  gboolean spring = is_spring_return (comp);
  if (spring)
    {
      int last = GPOINTER_TO_INT (g_hash_table_lookup (self->lever_last, comp->id));
      next = info->min < 0 && last > 0 ? -1 : 1;
      if (info->min < 0)
        g_hash_table_insert (self->lever_last, g_strdup (comp->id), GINT_TO_POINTER ((int) next));
      g_free (self->held_valve);
      self->held_valve = g_strdup (comp->id);
    }
  else if (info->min < 0)
    {
      /* a 4/3 lever: centre, one side, centre, the other side ... */
      if (fabs (current) > 0.5)
        {
          g_hash_table_insert (self->lever_last, g_strdup (comp->id), GINT_TO_POINTER (current > 0 ? 1 : -1));
          next = 0;
        }
      else
        next = GPOINTER_TO_INT (g_hash_table_lookup (self->lever_last, comp->id)) > 0 ? -1 : 1;
    }
  else
    next = current > 0.5 ? 0 : 1;
  next = CLAMP (next, info->min, info->max);
  _hyd_window_live_change (self, comp->id, command, next);
  hyd_property_panel_show_live_value (self->property_panel, comp->id, command, next);
  hyd_live_panel_show_value (self->live_panel, comp->id, command, next);
}

/* The release of a spring-return operator: back to the neutral command. */
static void
operator_released (HydWindow *self)
{
  g_autofree char *id = g_steal_pointer (&self->held_valve);
  if (id == NULL || !hyd_simulation_get_active (self->simulation))
    return;
  const HydCircuitComponent *comp = hyd_circuit_find_component (hyd_document_get_circuit (self->document), id);
  const char *command = comp ? manual_command (comp) : NULL;
  const HydParamInfo *info = command ? param_info (self, id, command, NULL) : NULL;
  if (info == NULL)
    return;
  double neutral = CLAMP (0.0, info->min, info->max);
  _hyd_window_live_change (self, id, command, neutral);
  hyd_property_panel_show_live_value (self->property_panel, id, command, neutral);
  hyd_live_panel_show_value (self->live_panel, id, command, neutral);
}

/* The button's release, wherever the pointer is then (the click gesture
 * may have given up on a long press: the raw event is the sure sign). */
static gboolean
overlay_event_cb (GtkEventControllerLegacy *controller, GdkEvent *event, HydWindow *self)
{
  if (self->held_valve && gdk_event_get_event_type (event) == GDK_BUTTON_RELEASE)
    operator_released (self);
  return FALSE;
}

static void
overlay_pressed_cb (GtkGestureClick *gesture, int n_press, double x, double y, HydWindow *self)
{
  /* the bars over the schematic (info, running) take their own clicks */
  GtkWidget *picked = gtk_widget_pick (GTK_WIDGET (self->canvas_overlay), x, y, GTK_PICK_DEFAULT);
  if (picked && picked != GTK_WIDGET (self->canvas) && !gtk_widget_is_ancestor (picked, GTK_WIDGET (self->canvas)))
    return;
  /* keys go to the schematic once it is clicked (not to a field that had
   * the focus) */
  gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
  if (!hyd_simulation_get_active (self->simulation) || self->probe_mode || n_press != 1)
    return;
  if (gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture)) != GDK_BUTTON_PRIMARY)
    return;
  graphene_point_t in = GRAPHENE_POINT_INIT (x, y), out;
  if (!gtk_widget_compute_point (GTK_WIDGET (self->canvas_overlay), GTK_WIDGET (self->canvas), &in, &out))
    return;
  const HydCircuitComponent *comp = lever_valve_at (self, out.x, out.y);
  if (comp)
    {
      operate_lever (self, comp);
      /* the click throws the lever and nothing else: the schematic does not
       * select the valve, so the panel keeps the sliders it showed (a drag
       * meant for the pump's speed must not move the valve) */
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
    }
}

/* ---- the variables the plots offer before a run ---- */

/* The list needs a compiled circuit: a large one takes long to compile
 * (10^4 components, a fifth of a second), so a worker compiles a copy of
 * the document and the main loop only hands the names to the plots. A
 * result that an edit made meanwhile has outdated is dropped. */
typedef struct {
  HydCircuit *circuit;
  guint64 generation;
  GThread *thread;       /* where it was compiled */
  HydUnit *units;        /* variables_thread: the unit of each name it returns */
} VariablesJob;

static void
variables_job_free (gpointer data)
{
  VariablesJob *job = data;
  hyd_circuit_free (job->circuit);
  g_free (job->units);
  g_free (job);
}

static void
variables_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  VariablesJob *job = task_data;
  job->thread = g_thread_self ();
  HydSystem *system = hyd_system_compile (job->circuit, NULL);
  if (system == NULL)
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  GArray *units = g_array_new (TRUE, TRUE, sizeof (HydUnit));
  for (guint v = 0; v < hyd_system_get_n_variables (system); v++)
    {
      const char *name = hyd_system_get_variable_name (system, v);
      if (g_strcmp0 (name, "t") != 0)
        {
          g_strv_builder_add (builder, name);
          HydUnit unit = hyd_system_get_variable_unit (system, v);
          g_array_append_val (units, unit);
        }
    }
  hyd_system_free (system);
  job->units = (HydUnit *) g_array_free (units, FALSE);
  g_task_return_pointer (task, g_strv_builder_end (builder), (GDestroyNotify) g_strfreev);
}

static void
variables_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  HydWindow *self = HYD_WINDOW (source);
  VariablesJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) names = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->plot_panes == NULL)
    return;
  if (job->thread != g_thread_self ())
    self->variables_compiles++;
  if (job->generation != self->variables_generation)
    return; /* an edit came after this copy; its own job follows */
  hyd_plot_panes_set_variables (self->plot_panes, (const char *const *) names);
  /* the axes name their quantities before the first run */
  hyd_plot_panes_set_variable_units (self->plot_panes, (const char *const *) names, job->units);
}

static gboolean
variables_timeout_cb (gpointer user_data)
{
  HydWindow *self = user_data;
  self->variables_source = 0;
  if (self->document == NULL || hyd_simulation_get_runner (self->simulation))
    return G_SOURCE_REMOVE;
  VariablesJob *job = g_new0 (VariablesJob, 1);
  job->circuit = hyd_circuit_copy (hyd_document_get_circuit (self->document));
  job->generation = self->variables_generation;
  if (self->variables_cancellable == NULL)
    self->variables_cancellable = g_cancellable_new ();
  g_autoptr (GTask) task = g_task_new (self, self->variables_cancellable, variables_done, NULL);
  g_task_set_source_tag (task, variables_timeout_cb);
  g_task_set_task_data (task, job, variables_job_free);
  g_task_run_in_thread (task, variables_thread);
  return G_SOURCE_REMOVE;
}

/* The check behind the error bar (hyd-window.c): a worker compiles a copy;
 * when it compiles and no edit came meanwhile, the bar goes. */
static void
check_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  VariablesJob *job = task_data;
  job->thread = g_thread_self ();
  HydSystem *system = hyd_system_compile (job->circuit, NULL);
  gboolean ok = system != NULL;
  if (system)
    hyd_system_free (system);
  g_task_return_boolean (task, ok);
}

static void
check_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  HydWindow *self = HYD_WINDOW (source);
  VariablesJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->document == NULL)
    return;
  if (job->thread != g_thread_self ())
    self->check_compiles++;
  if (ok && job->generation == self->variables_generation && self->info_kind == HYD_INFO_CIRCUIT
      && !hyd_simulation_get_active (self->simulation))
    _hyd_window_hide_info (self);
}

void
_hyd_window_compile_check_async (HydWindow *self)
{
  VariablesJob *job = g_new0 (VariablesJob, 1);
  job->circuit = hyd_circuit_copy (hyd_document_get_circuit (self->document));
  job->generation = self->variables_generation;
  if (self->variables_cancellable == NULL)
    self->variables_cancellable = g_cancellable_new ();
  g_autoptr (GTask) task = g_task_new (self, self->variables_cancellable, check_done, NULL);
  g_task_set_source_tag (task, _hyd_window_compile_check_async);
  g_task_set_task_data (task, job, variables_job_free);
  g_task_run_in_thread (task, check_thread);
}

void
_hyd_window_sim_document_changed (HydWindow *self)
{
  if (self->simulation == NULL)
    return;
  if (!hyd_simulation_get_active (self->simulation))
    {
      hyd_canvas_set_highlight (self->canvas, NULL);
      /* an edited circuit is no longer the one the run replays */
      hyd_canvas_clear_live (self->canvas);
      hyd_sim_bar_set_replay (self->sim_bar, NAN, NAN, NAN);
      hyd_simulation_show_time (self->simulation, NAN);
      hyd_plot_panes_set_replay_time (self->plot_panes, NAN);
    }
  g_clear_handle_id (&self->variables_source, g_source_remove);
  self->variables_generation++;
  self->variables_source = g_timeout_add_full (G_PRIORITY_LOW, VARIABLES_DELAY_MS, variables_timeout_cb,
                                               self, NULL);
  _hyd_window_actions_update (self);
}

static gboolean
panel_live_lookup_cb (const char *component, const char *param, double *value, gpointer user_data)
{
  HydWindow *self = user_data;
  return hyd_simulation_get_param (self->simulation, component, param, value);
}

/* The replay slider moved: the schematic shows the run at that time, and
 * the plots a cursor there. */
static void
replay_cb (HydWindow *self, double t, HydSimBar *bar)
{
  if (hyd_simulation_get_store (self->simulation) == NULL)
    return;
  hyd_simulation_show_time (self->simulation, t);
  hyd_plot_panes_set_replay_time (self->plot_panes, hyd_simulation_get_shown_time (self->simulation));
  hyd_state_diagram_pane_show_replay (self->state_diagram);
  hyd_canvas_queue_live_redraw (self->canvas);
}

static void
speed_changed_cb (HydWindow *self, GParamSpec *pspec, HydSimBar *bar)
{
  hyd_simulation_set_real_time_factor (self->simulation, hyd_sim_bar_get_real_time_factor (bar));
}

static void
ghost_changed_cb (HydWindow *self, GParamSpec *pspec, HydSimBar *bar)
{
  hyd_simulation_set_keep_ghost (self->simulation, hyd_sim_bar_get_keep_ghost (bar));
  hyd_plot_panes_set_stores (self->plot_panes, hyd_simulation_get_store (self->simulation),
                             hyd_simulation_get_ghost (self->simulation));
}

void
_hyd_window_sim_init (HydWindow *self)
{
  self->simulation = hyd_simulation_new ();
  self->live_drawn = g_array_new (FALSE, FALSE, sizeof (double));
  self->cavitation_pressure = -0.9e5;
  gtk_drawing_area_set_content_width (self->legend_area, LEGEND_WIDTH);
  g_signal_connect_swapped (self->simulation, "state-changed", G_CALLBACK (simulation_state_changed_cb),
                            self);
  g_signal_connect_swapped (self->simulation, "samples", G_CALLBACK (simulation_samples_cb), self);
  g_signal_connect_swapped (self->simulation, "warning", G_CALLBACK (simulation_warning_cb), self);
  g_signal_connect_swapped (self->simulation, "finished", G_CALLBACK (simulation_finished_cb), self);
  hyd_state_diagram_pane_set_simulation (self->state_diagram, self->simulation);

  hyd_property_panel_set_live_lookup (self->property_panel, panel_live_lookup_cb, self);
  hyd_live_panel_set_lookup (self->live_panel, panel_live_lookup_cb, self);
  g_signal_connect_object (self->sim_bar, "notify::real-time-factor", G_CALLBACK (speed_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->sim_bar, "notify::keep-ghost", G_CALLBACK (ghost_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->sim_bar, "replay", G_CALLBACK (replay_cb), self, G_CONNECT_SWAPPED);

  GtkGesture *click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), 0);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect (click, "pressed", G_CALLBACK (overlay_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->canvas_overlay), GTK_EVENT_CONTROLLER (click));
  GtkEventController *raw = gtk_event_controller_legacy_new ();
  gtk_event_controller_set_propagation_phase (raw, GTK_PHASE_CAPTURE);
  g_signal_connect (raw, "event", G_CALLBACK (overlay_event_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->canvas_overlay), raw);
}

void
_hyd_window_sim_dispose (HydWindow *self)
{
  g_clear_handle_id (&self->variables_source, g_source_remove);
  if (self->variables_cancellable)
    g_cancellable_cancel (self->variables_cancellable);
  g_clear_object (&self->variables_cancellable);
  g_clear_handle_id (&self->latency_source, g_source_remove);
  latency_disconnect_paint (self);
  g_clear_handle_id (&self->live_source, g_source_remove);
  g_clear_pointer (&self->live_drawn, g_array_unref);
  g_clear_pointer (&self->latency, g_array_unref);
  if (self->simulation)
    {
      g_signal_handlers_disconnect_by_data (self->simulation, self);
      hyd_simulation_stop (self->simulation);
    }
  g_clear_object (&self->simulation);
}
