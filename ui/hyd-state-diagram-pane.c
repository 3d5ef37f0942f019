/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-state-diagram-pane.c — the state-diagram page (hyd-state-diagram-pane.h).
 * The rows and samples live in a HydStateDiagram fed from the run's trace
 * store; drawing and export are the renderer's, as in bramah-cli. */
#define G_LOG_DOMAIN "hyd-state-diagram-pane"

#include "bramah-config.h"
#include "hyd-state-diagram-pane.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "hyd-ui-util.h"

struct _HydStateDiagramPane
{
  GtkWidget parent_instance;

  GtkWidget *box;           /* toolbar, then the drawing or the placeholder */
  GtkWidget *rows_button;
  GtkWidget *rows_list;     /* GtkBox of GtkCheckButtons, in the popover */
  GtkWidget *export_buttons[3];
  GtkWidget *status;
  GtkWidget *stack;         /* "empty" or "diagram" */
  GtkWidget *area;
  GtkAdjustment *vadjustment; /* of the drawing's scroller */

  HydSimulation *simulation;
  HydTraceStore *store;     /* the store the diagram follows */
  gulong compacted_id;
  GPtrArray *all_rows;      /* of HydStateRow*: what the run offers */
  GHashTable *shown;        /* variable → 1 shown / 0 hidden, as the user chose */
  HydStateDiagram *diagram;
  char *title;              /* the run's circuit's, for exports */
  int *columns;             /* [n_rows] store column of each row */
  guint n_taken;            /* store rows already in the diagram */
  guint beat_source;
  guint resize_source;
};

G_DEFINE_FINAL_TYPE (HydStateDiagramPane, hyd_state_diagram_pane, GTK_TYPE_WIDGET)

static const char *const formats[] = { "csv", "svg", "pdf" };

static gboolean
row_shown (HydStateDiagramPane *self, const HydStateRow *row)
{
  gpointer value;
  if (g_hash_table_lookup_extended (self->shown, row->variable, NULL, &value))
    return GPOINTER_TO_INT (value) != 0;
  return row->by_default;
}

/* Take the store's rows not yet in the diagram (all of them after the
 * store thinned its rows). */
static void
take_samples (HydStateDiagramPane *self)
{
  if (self->diagram == NULL || self->store == NULL)
    return;
  guint n = hyd_trace_store_get_n_rows (self->store);
  if (n < self->n_taken)
    {
      hyd_state_diagram_clear (self->diagram);
      self->n_taken = 0;
    }
  guint n_rows = hyd_state_diagram_get_n_rows (self->diagram);
  const double *t = hyd_trace_store_get_column (self->store, 0);
  g_autofree const double **cols = g_new0 (const double *, MAX (n_rows, 1));
  for (guint i = 0; i < n_rows; i++)
    cols[i] = self->columns[i] >= 0 ? hyd_trace_store_get_column (self->store, (guint) self->columns[i]) : NULL;
  g_autofree double *values = g_new0 (double, MAX (n_rows, 1));
  for (guint k = self->n_taken; k < n; k++)
    {
      for (guint i = 0; i < n_rows; i++)
        values[i] = cols[i] ? cols[i][k] : NAN;
      hyd_state_diagram_append (self->diagram, t[k], values);
    }
  self->n_taken = n;
}

static void
update_sensitivity (HydStateDiagramPane *self)
{
  gboolean has = self->diagram && hyd_state_diagram_get_n_rows (self->diagram) > 0;
  for (guint i = 0; i < G_N_ELEMENTS (self->export_buttons); i++)
    gtk_widget_set_sensitive (self->export_buttons[i], has && hyd_state_diagram_get_n_samples (self->diagram) > 0);
  gtk_widget_set_sensitive (self->rows_button, self->all_rows && self->all_rows->len > 0);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), has ? "diagram" : "empty");
}

/* The rows fit the page's height down to 75 % of their natural size (a
 * low pane shows them all), and scroll below that; never stretched. */
#define MIN_ROW_SCALE 0.75

static void
resize_area (HydStateDiagramPane *self)
{
  if (self->diagram == NULL)
    return;
  double natural = hyd_state_diagram_natural_height (self->diagram);
  double page = gtk_adjustment_get_page_size (self->vadjustment);
  double least = hyd_state_diagram_height_at_scale (self->diagram, MIN_ROW_SCALE);
  double h = page > 0 ? CLAMP (page, least, natural) : natural;
  int content = (int) floor (h);
  if (content != gtk_drawing_area_get_content_height (GTK_DRAWING_AREA (self->area)))
    gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->area), content);
}

static gboolean
resize_idle_cb (gpointer user_data)
{
  HydStateDiagramPane *self = user_data;
  self->resize_source = 0;
  resize_area (self);
  return G_SOURCE_REMOVE;
}

/* The page's height changes while GTK allocates: size the drawing after. */
static void
page_size_cb (GtkAdjustment *adjustment, GParamSpec *pspec, HydStateDiagramPane *self)
{
  if (self->resize_source == 0)
    self->resize_source = g_idle_add (resize_idle_cb, self);
}

/* A new diagram of the rows shown, from the store's samples. */
static void
rebuild_diagram (HydStateDiagramPane *self)
{
  g_clear_pointer (&self->diagram, hyd_state_diagram_free);
  g_clear_pointer (&self->columns, g_free);
  self->n_taken = 0;
  if (self->all_rows && self->store)
    {
      g_autoptr (GPtrArray) chosen = g_ptr_array_new ();
      for (guint i = 0; i < self->all_rows->len; i++)
        {
          HydStateRow *row = g_ptr_array_index (self->all_rows, i);
          if (row_shown (self, row))
            g_ptr_array_add (chosen, row);
        }
      self->diagram = hyd_state_diagram_new (chosen);
      self->columns = g_new0 (int, MAX (chosen->len, 1));
      for (guint i = 0; i < chosen->len; i++)
        self->columns[i] = hyd_trace_store_find (self->store, ((HydStateRow *) g_ptr_array_index (chosen, i))->variable);
      double t_end = hyd_trace_store_get_t_end (self->store);
      hyd_state_diagram_set_time_range (self->diagram, isfinite (t_end) ? 0 : NAN, t_end);
      take_samples (self);
      resize_area (self);
    }
  update_sensitivity (self);
  gtk_widget_queue_draw (self->area);
}

static void
row_toggled_cb (GtkCheckButton *check, HydStateDiagramPane *self)
{
  const char *variable = g_object_get_data (G_OBJECT (check), "hyd-variable");
  hyd_state_diagram_pane_set_row_shown (self, variable, gtk_check_button_get_active (check));
}

static void
fill_rows_list (HydStateDiagramPane *self)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (self->rows_list)) != NULL)
    gtk_box_remove (GTK_BOX (self->rows_list), child);
  for (guint i = 0; self->all_rows && i < self->all_rows->len; i++)
    {
      HydStateRow *row = g_ptr_array_index (self->all_rows, i);
      GtkWidget *check = gtk_check_button_new_with_label (row->kind == HYD_STATE_ROW_SWITCH ? row->variable
                                                          : row->label);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), row_shown (self, row));
      g_object_set_data_full (G_OBJECT (check), "hyd-variable", g_strdup (row->variable), g_free);
      g_signal_connect (check, "toggled", G_CALLBACK (row_toggled_cb), self);
      gtk_box_append (GTK_BOX (self->rows_list), check);
    }
}

static void
store_compacted_cb (HydTraceStore *store, HydStateDiagramPane *self)
{
  if (self->diagram)
    {
      hyd_state_diagram_clear (self->diagram);
      self->n_taken = 0;
    }
}

/* A new run (or none): the rows it offers, then the diagram. */
static void
follow_store (HydStateDiagramPane *self, HydTraceStore *store)
{
  if (self->store && self->compacted_id)
    g_signal_handler_disconnect (self->store, self->compacted_id);
  self->compacted_id = 0;
  g_set_object (&self->store, store);
  g_clear_pointer (&self->all_rows, g_ptr_array_unref);
  g_clear_pointer (&self->title, g_free);
  HydRunner *runner = self->simulation ? hyd_simulation_get_runner (self->simulation) : NULL;
  const HydCircuit *circuit = self->simulation ? hyd_simulation_get_circuit (self->simulation) : NULL;
  if (store && runner && circuit)
    {
      self->compacted_id = g_signal_connect (store, "compacted", G_CALLBACK (store_compacted_cb), self);
      guint n = hyd_runner_get_n_columns (runner);
      g_autofree HydStateVariable *offer = g_new0 (HydStateVariable, MAX (n, 1));
      for (guint c = 0; c < n; c++)
        {
          offer[c].name = hyd_runner_get_column_name (runner, c);
          offer[c].discrete_of = hyd_runner_get_column_discrete (runner, c);
        }
      self->all_rows = hyd_state_diagram_list_rows (circuit, offer, n);
      self->title = g_strdup (circuit->title);
    }
  fill_rows_list (self);
  rebuild_diagram (self);
}

static gboolean
beat_cb (gpointer user_data)
{
  HydStateDiagramPane *self = user_data;
  self->beat_source = 0;
  take_samples (self);
  update_sensitivity (self);
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    gtk_widget_queue_draw (self->area);
  return G_SOURCE_REMOVE;
}

static void
follow_simulation (HydStateDiagramPane *self)
{
  HydTraceStore *store = self->simulation ? hyd_simulation_get_store (self->simulation) : NULL;
  if (store != self->store)
    follow_store (self, store);
  else if (self->beat_source == 0)
    self->beat_source = hyd_ui_live_beat_add (HYD_UI_LIVE_PLOT_US, beat_cb, self);
}

static void
simulation_changed_cb (HydSimulation *simulation, HydStateDiagramPane *self)
{
  follow_simulation (self);
}

static void
draw_cb (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  HydStateDiagramPane *self = user_data;
  if (self->diagram == NULL)
    return;
  /* the replay's cursor, as on the plots */
  hyd_state_diagram_set_cursor (self->diagram, self->simulation ? hyd_simulation_get_shown_time (self->simulation)
                                                                : NAN);
  hyd_state_diagram_draw (self->diagram, cr, width, height);
}

/* ---- export ---- */

static void
export_response_cb (GtkNativeDialog *chooser, int response, gpointer user_data)
{
  HydStateDiagramPane *self = user_data;
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      g_autoptr (GError) error = NULL;
      if (path && hyd_state_diagram_pane_export (self, path, &error))
        {
          g_autofree char *name = g_filename_display_basename (path);
          g_autofree char *text = g_strdup_printf (_("Exported “%s”"), name);
          gtk_label_set_text (GTK_LABEL (self->status), text);
        }
      else if (error)
        gtk_label_set_text (GTK_LABEL (self->status), error->message);
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
  g_object_unref (self);
}

static void
export_clicked_cb (GtkButton *button, HydStateDiagramPane *self)
{
  const char *format = g_object_get_data (G_OBJECT (button), "hyd-format");
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *chooser
    = gtk_file_chooser_native_new (_("Export State Diagram"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *pattern = g_strconcat ("*.", format, NULL);
  gtk_file_filter_add_pattern (filter, pattern);
  gtk_file_filter_set_name (filter, strcmp (format, "csv") == 0 ? _("CSV table")
                                    : strcmp (format, "svg") == 0 ? _("SVG image") : _("PDF document"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  /* TRANSLATORS: the file name an exported state diagram is offered under */
  g_autofree char *name = g_strdup_printf ("%s.%s", _("state-diagram"), format);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (export_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* ---- the widget ---- */

static void
hyd_state_diagram_pane_dispose (GObject *object)
{
  HydStateDiagramPane *self = HYD_STATE_DIAGRAM_PANE (object);
  hyd_state_diagram_pane_set_simulation (self, NULL);
  g_clear_handle_id (&self->beat_source, g_source_remove);
  g_clear_handle_id (&self->resize_source, g_source_remove);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (hyd_state_diagram_pane_parent_class)->dispose (object);
}

static void
hyd_state_diagram_pane_finalize (GObject *object)
{
  HydStateDiagramPane *self = HYD_STATE_DIAGRAM_PANE (object);
  g_clear_pointer (&self->all_rows, g_ptr_array_unref);
  g_clear_pointer (&self->shown, g_hash_table_unref);
  g_clear_pointer (&self->diagram, hyd_state_diagram_free);
  g_clear_pointer (&self->columns, g_free);
  g_free (self->title);
  G_OBJECT_CLASS (hyd_state_diagram_pane_parent_class)->finalize (object);
}

static void
hyd_state_diagram_pane_class_init (HydStateDiagramPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = hyd_state_diagram_pane_dispose;
  object_class->finalize = hyd_state_diagram_pane_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "statediagram");
}

static void
hyd_state_diagram_pane_init (HydStateDiagramPane *self)
{
  self->shown = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_widget_set_margin_start (bar, 4);
  gtk_widget_set_margin_end (bar, 4);
  gtk_widget_set_margin_top (bar, 2);
  gtk_widget_set_margin_bottom (bar, 2);
  gtk_box_append (GTK_BOX (self->box), bar);

  self->rows_button = gtk_menu_button_new ();
  gtk_menu_button_set_label (GTK_MENU_BUTTON (self->rows_button), _("Rows"));
  gtk_widget_set_tooltip_text (self->rows_button,
                               _("Choose the rows: cylinders, switches, relays, solenoids and lamps"));
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 400);
  self->rows_list = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->rows_list);
  gtk_popover_set_child (GTK_POPOVER (popover), scroller);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (self->rows_button), popover);
  gtk_box_append (GTK_BOX (bar), self->rows_button);

  self->status = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->status), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->status), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (self->status, TRUE);
  gtk_widget_add_css_class (self->status, "dim-label");
  gtk_box_append (GTK_BOX (bar), self->status);

  const char *tips[] = {
    N_("Export the state diagram's samples as CSV"),
    N_("Export the state diagram as SVG"),
    N_("Export the state diagram as PDF"),
  };
  const char *labels[] = { N_("CSV"), N_("SVG"), N_("PDF") };
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      GtkWidget *button = gtk_button_new_with_label (_(labels[i]));
      gtk_widget_set_tooltip_text (button, _(tips[i]));
      g_object_set_data (G_OBJECT (button), "hyd-format", (gpointer) formats[i]);
      g_signal_connect (button, "clicked", G_CALLBACK (export_clicked_cb), self);
      gtk_box_append (GTK_BOX (bar), button);
      self->export_buttons[i] = button;
    }

  self->stack = gtk_stack_new ();
  gtk_stack_set_vhomogeneous (GTK_STACK (self->stack), FALSE);
  gtk_widget_set_vexpand (self->stack, TRUE);
  gtk_box_append (GTK_BOX (self->box), self->stack);
  GtkWidget *empty = gtk_label_new (_("Run the circuit to draw its state diagram: each cylinder's position "
                                      "and each switch, relay, solenoid and lamp over time."));
  gtk_label_set_wrap (GTK_LABEL (empty), TRUE);
  gtk_widget_add_css_class (empty, "dim-label");
  gtk_stack_add_named (GTK_STACK (self->stack), empty, "empty");
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  self->area = gtk_drawing_area_new ();
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw_cb, self, NULL);
  gtk_widget_set_valign (self->area, GTK_ALIGN_START);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->area);
  self->vadjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  g_signal_connect (self->vadjustment, "notify::page-size", G_CALLBACK (page_size_cb), self);
  gtk_stack_add_named (GTK_STACK (self->stack), scrolled, "diagram");
  update_sensitivity (self);
}

GtkWidget *
hyd_state_diagram_pane_new (void)
{
  return g_object_new (HYD_TYPE_STATE_DIAGRAM_PANE, NULL);
}

void
hyd_state_diagram_pane_set_simulation (HydStateDiagramPane *self, HydSimulation *simulation)
{
  g_return_if_fail (HYD_IS_STATE_DIAGRAM_PANE (self));
  if (self->simulation == simulation)
    return;
  if (self->simulation)
    g_signal_handlers_disconnect_by_data (self->simulation, self);
  g_set_object (&self->simulation, simulation);
  if (simulation)
    {
      g_signal_connect (simulation, "state-changed", G_CALLBACK (simulation_changed_cb), self);
      g_signal_connect (simulation, "samples", G_CALLBACK (simulation_changed_cb), self);
      g_signal_connect (simulation, "finished", G_CALLBACK (simulation_changed_cb), self);
    }
  follow_store (self, NULL);
  follow_simulation (self);
}

const HydStateDiagram *
hyd_state_diagram_pane_get_diagram (HydStateDiagramPane *self)
{
  g_return_val_if_fail (HYD_IS_STATE_DIAGRAM_PANE (self), NULL);
  take_samples (self);
  return self->diagram;
}

const GPtrArray *
hyd_state_diagram_pane_get_rows (HydStateDiagramPane *self)
{
  g_return_val_if_fail (HYD_IS_STATE_DIAGRAM_PANE (self), NULL);
  return self->all_rows;
}

void
hyd_state_diagram_pane_set_row_shown (HydStateDiagramPane *self, const char *variable, gboolean shown)
{
  g_return_if_fail (HYD_IS_STATE_DIAGRAM_PANE (self));
  g_hash_table_insert (self->shown, g_strdup (variable), GINT_TO_POINTER (shown ? 1 : 0));
  /* the check in the list follows a change made here */
  for (GtkWidget *c = gtk_widget_get_first_child (self->rows_list); c; c = gtk_widget_get_next_sibling (c))
    if (g_strcmp0 (g_object_get_data (G_OBJECT (c), "hyd-variable"), variable) == 0
        && gtk_check_button_get_active (GTK_CHECK_BUTTON (c)) != shown)
      gtk_check_button_set_active (GTK_CHECK_BUTTON (c), shown);
  rebuild_diagram (self);
}

gboolean
hyd_state_diagram_pane_get_row_shown (HydStateDiagramPane *self, const char *variable)
{
  g_return_val_if_fail (HYD_IS_STATE_DIAGRAM_PANE (self), FALSE);
  for (guint i = 0; self->all_rows && i < self->all_rows->len; i++)
    {
      HydStateRow *row = g_ptr_array_index (self->all_rows, i);
      if (strcmp (row->variable, variable) == 0)
        return row_shown (self, row);
    }
  return FALSE;
}

GtkWidget *
hyd_state_diagram_pane_get_export_button (HydStateDiagramPane *self, const char *format)
{
  g_return_val_if_fail (HYD_IS_STATE_DIAGRAM_PANE (self), NULL);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_strcmp0 (formats[i], format) == 0)
      return self->export_buttons[i];
  return NULL;
}

void
hyd_state_diagram_pane_show_replay (HydStateDiagramPane *self)
{
  g_return_if_fail (HYD_IS_STATE_DIAGRAM_PANE (self));
  gtk_widget_queue_draw (self->area);
}

gboolean
hyd_state_diagram_pane_export (HydStateDiagramPane *self, const char *path, GError **error)
{
  g_return_val_if_fail (HYD_IS_STATE_DIAGRAM_PANE (self), FALSE);
  take_samples (self);
  if (self->diagram == NULL)
    {
      g_set_error (error, HYD_STATE_DIAGRAM_ERROR, HYD_STATE_DIAGRAM_ERROR_EXPORT,
                   _("%s: there is no state diagram to export yet (run the circuit)"), path);
      return FALSE;
    }
  int width = gtk_widget_get_width (self->area);
  hyd_state_diagram_set_title (self->diagram, self->title);
  gboolean ok = hyd_state_diagram_export (self->diagram, path, width >= 100 ? width : 800, 0, error);
  hyd_state_diagram_set_title (self->diagram, NULL);
  return ok;
}
