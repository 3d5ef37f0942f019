/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-plot-panes.c — the plot panes. */
#define G_LOG_DOMAIN "hyd-plot-panes"

#include "bramah-config.h"
#include "hyd-plot-panes.h"

#include <glib/gi18n.h>
#include <string.h>

#define DEFAULT_N_PANES 2

typedef struct {
  HydPlotPanes *panes;       /* borrowed */
  GtkWidget *box;            /* the pane: the view, its tools over it */
  char *title;
  HydPlotView *view;
  GtkWidget *trace_list;     /* GtkListBox of the variable popover */
  GtkWidget *trace_search;
  char *y_unit;
} Pane;

struct _HydPlotPanes
{
  GtkWidget parent_instance;

  /* Owned */
  GtkWidget *box;            /* panes, then the "+" button */
  GtkWidget *split;          /* the paned tree, or the single pane */
  GtkWidget *add_button;
  GPtrArray *panes;          /* of Pane* */
  HydTraceStore *store;
  HydTraceStore *ghost;
  GStrv variables;
  GStrv unit_names;          /* the circuit's variables with units[] below, or NULL */
  HydUnit *units;
  guint active;
  guint equalize : 1;
};

G_DEFINE_FINAL_TYPE (HydPlotPanes, hyd_plot_panes, GTK_TYPE_WIDGET)

enum {
  SIGNAL_CHANGED,
  SIGNAL_EXPORT_REQUESTED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static void rebuild_split (HydPlotPanes *self);

static void
pane_free (Pane *pane)
{
  g_clear_object (&pane->box);
  g_free (pane->title);
  g_free (pane->y_unit);
  g_free (pane);
}

static guint
pane_index (HydPlotPanes *self, Pane *pane)
{
  guint index = 0;
  g_ptr_array_find (self->panes, pane, &index);
  return index;
}

static void
set_active (HydPlotPanes *self, guint index)
{
  self->active = index;
  for (guint i = 0; i < self->panes->len; i++)
    {
      Pane *pane = g_ptr_array_index (self->panes, i);
      if (i == index)
        gtk_widget_add_css_class (pane->box, "active-pane");
      else
        gtk_widget_remove_css_class (pane->box, "active-pane");
    }
}

static gboolean
has_trace (Pane *pane, const char *name)
{
  g_auto (GStrv) traces = hyd_plot_view_get_traces (pane->view);
  return traces && g_strv_contains ((const char *const *) traces, name);
}

/* ---- the variable list ---- */

static void
fill_trace_list (Pane *pane)
{
  HydPlotPanes *self = pane->panes;
  GtkListBox *list = GTK_LIST_BOX (pane->trace_list);
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);

  g_auto (GStrv) traces = hyd_plot_view_get_traces (pane->view);
  for (guint i = 0; self->variables && self->variables[i]; i++)
    {
      const char *name = self->variables[i];
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");
      gtk_widget_set_opacity (check, traces && g_strv_contains ((const char *const *) traces, name) ? 1 : 0);
      gtk_box_append (GTK_BOX (row), check);
      GtkWidget *label = gtk_label_new (name);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_box_append (GTK_BOX (row), label);
      gtk_list_box_append (list, row);
      GtkWidget *list_row = gtk_widget_get_parent (row);
      g_object_set_data_full (G_OBJECT (list_row), "hyd-variable", g_strdup (name), g_free);
    }
  if (self->variables == NULL || self->variables[0] == NULL)
    {
      GtkWidget *label = gtk_label_new (_("Run the circuit (or fix its errors) to list its variables"));
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_list_box_append (list, label);
    }
}

static gboolean
trace_filter (GtkListBoxRow *row, gpointer user_data)
{
  Pane *pane = user_data;
  const char *name = g_object_get_data (G_OBJECT (row), "hyd-variable");
  const char *text = gtk_editable_get_text (GTK_EDITABLE (pane->trace_search));
  if (name == NULL || text == NULL || *text == '\0')
    return TRUE;
  g_autofree char *a = g_utf8_casefold (name, -1);
  g_autofree char *b = g_utf8_casefold (text, -1);
  return strstr (a, b) != NULL;
}

static void
trace_search_changed_cb (GtkSearchEntry *entry, Pane *pane)
{
  gtk_list_box_invalidate_filter (GTK_LIST_BOX (pane->trace_list));
}

static void
trace_row_activated_cb (GtkListBox *list, GtkListBoxRow *row, Pane *pane)
{
  const char *name = g_object_get_data (G_OBJECT (row), "hyd-variable");
  if (name == NULL)
    return;
  if (has_trace (pane, name))
    hyd_plot_view_remove_trace (pane->view, name);
  else
    hyd_plot_view_add_trace (pane->view, name);
  GtkWidget *box = gtk_list_box_row_get_child (row);
  gtk_widget_set_opacity (gtk_widget_get_first_child (box), has_trace (pane, name) ? 1 : 0);
  set_active (pane->panes, pane_index (pane->panes, pane));
  g_signal_emit (pane->panes, signals[SIGNAL_CHANGED], 0);
}

static void
trace_popover_show_cb (GtkPopover *popover, Pane *pane)
{
  gtk_editable_set_text (GTK_EDITABLE (pane->trace_search), "");
  fill_trace_list (pane);
  gtk_widget_grab_focus (pane->trace_search);
}

/* ---- pane actions ---- */

static void
pane_export_cb (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  Pane *pane = user_data;
  g_signal_emit (pane->panes, signals[SIGNAL_EXPORT_REQUESTED], 0, pane_index (pane->panes, pane),
                 g_variant_get_string (param, NULL));
}

typedef struct {
  HydPlotPanes *self;
  Pane *pane;
} CloseData;

/* Closing happens after the menu that asked for it is gone. */
static gboolean
close_idle_cb (gpointer user_data)
{
  CloseData *data = user_data;
  HydPlotPanes *self = data->self;
  if (self->panes == NULL || !g_ptr_array_remove (self->panes, data->pane))
    return G_SOURCE_REMOVE;
  if (self->active >= self->panes->len)
    self->active = self->panes->len ? self->panes->len - 1 : 0;
  rebuild_split (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
  return G_SOURCE_REMOVE;
}

static void
close_data_free (CloseData *data)
{
  g_object_unref (data->self);
  g_free (data);
}

static void
pane_close_cb (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  Pane *pane = user_data;
  CloseData *data = g_new0 (CloseData, 1);
  data->self = g_object_ref (pane->panes);
  data->pane = pane;
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, close_idle_cb, data, (GDestroyNotify) close_data_free);
}

static void
pane_clear_cb (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  Pane *pane = user_data;
  g_auto (GStrv) traces = hyd_plot_view_get_traces (pane->view);
  for (guint i = 0; traces && traces[i]; i++)
    hyd_plot_view_remove_trace (pane->view, traces[i]);
  g_signal_emit (pane->panes, signals[SIGNAL_CHANGED], 0);
}

static void
pane_pressed_cb (GtkGestureClick *gesture, int n_press, double x, double y, Pane *pane)
{
  set_active (pane->panes, pane_index (pane->panes, pane));
}

static Pane *
pane_new (HydPlotPanes *self, const char *title, const char *const *traces, const char *y_unit)
{
  Pane *pane = g_new0 (Pane, 1);
  pane->panes = self;
  pane->y_unit = g_strdup (y_unit);

  pane->title = g_strdup (title);
  pane->box = g_object_ref_sink (gtk_overlay_new ());
  gtk_widget_add_css_class (pane->box, "plot-pane");

  /* the pane's tools sit over the plot's top left corner, beside its
   * title, so the plot keeps the height */
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  gtk_widget_add_css_class (header, "plot-pane-tools");
  gtk_widget_set_halign (header, GTK_ALIGN_START);
  gtk_widget_set_valign (header, GTK_ALIGN_START);

  /* the variable list */
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *pbox = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  pane->trace_search = gtk_search_entry_new ();
  g_object_set (pane->trace_search, "placeholder-text", _("Search variables"), NULL);
  g_signal_connect (pane->trace_search, "search-changed", G_CALLBACK (trace_search_changed_cb), pane);
  gtk_box_append (GTK_BOX (pbox), pane->trace_search);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 320);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_widget_set_size_request (scroller, 240, -1);
  pane->trace_list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (pane->trace_list), GTK_SELECTION_NONE);
  gtk_list_box_set_filter_func (GTK_LIST_BOX (pane->trace_list), trace_filter, pane, NULL);
  g_signal_connect (pane->trace_list, "row-activated", G_CALLBACK (trace_row_activated_cb), pane);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), pane->trace_list);
  gtk_box_append (GTK_BOX (pbox), scroller);
  GtkWidget *hint = gtk_label_new (_("Or pick the probe tool (P) and click a port or a component."));
  gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (hint), 30);
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_box_append (GTK_BOX (pbox), hint);
  gtk_popover_set_child (GTK_POPOVER (popover), pbox);
  g_signal_connect (popover, "show", G_CALLBACK (trace_popover_show_cb), pane);

  GtkWidget *traces_button = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (traces_button), "list-add-symbolic");
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (traces_button), popover);
  gtk_widget_set_tooltip_text (traces_button, _("Add or remove traces"));
  gtk_widget_add_css_class (traces_button, "flat");
  gtk_box_append (GTK_BOX (header), traces_button);

  g_autoptr (GMenu) menu = g_menu_new ();
  g_autoptr (GMenu) export_section = g_menu_new ();
  g_menu_append (export_section, _("Export as PNG…"), "pane.export::png");
  g_menu_append (export_section, _("Export as SVG…"), "pane.export::svg");
  g_menu_append (export_section, _("Export as PDF…"), "pane.export::pdf");
  g_menu_append (export_section, _("Export Traces as CSV…"), "pane.export::csv");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (export_section));
  g_autoptr (GMenu) pane_section = g_menu_new ();
  g_menu_append (pane_section, _("Remove All Traces"), "pane.clear");
  g_menu_append (pane_section, _("Close Pane"), "pane.close");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (pane_section));
  GtkWidget *menu_button = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (menu_button), "view-more-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (menu_button), G_MENU_MODEL (menu));
  gtk_widget_set_tooltip_text (menu_button, _("Export this plot, or close the pane"));
  gtk_widget_add_css_class (menu_button, "flat");
  gtk_box_append (GTK_BOX (header), menu_button);

  pane->view = HYD_PLOT_VIEW (hyd_plot_view_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (pane->view), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (pane->view), TRUE);
  hyd_plot_view_set_title (pane->view, title);
  hyd_plot_view_set_store (pane->view, self->store);
  hyd_plot_view_set_ghost (pane->view, self->ghost);
  hyd_plot_view_set_variable_units (pane->view, (const char *const *) self->unit_names, self->units);
  for (guint i = 0; traces && traces[i]; i++)
    hyd_plot_view_add_trace (pane->view, traces[i]);
  gtk_overlay_set_child (GTK_OVERLAY (pane->box), GTK_WIDGET (pane->view));
  gtk_overlay_add_overlay (GTK_OVERLAY (pane->box), header);

  GSimpleActionGroup *group = g_simple_action_group_new ();
  const GActionEntry entries[] = {
    { .name = "export", .activate = pane_export_cb, .parameter_type = "s" },
    { .name = "close", .activate = pane_close_cb },
    { .name = "clear", .activate = pane_clear_cb },
  };
  g_action_map_add_action_entries (G_ACTION_MAP (group), entries, G_N_ELEMENTS (entries), pane);
  gtk_widget_insert_action_group (pane->box, "pane", G_ACTION_GROUP (group));
  g_object_unref (group);

  GtkGesture *click = gtk_gesture_click_new ();
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect (click, "pressed", G_CALLBACK (pane_pressed_cb), pane);
  gtk_widget_add_controller (pane->box, GTK_EVENT_CONTROLLER (click));
  return pane;
}

/* ---- the paned tree ---- */

static void
detach_panes (GtkWidget *split)
{
  if (!GTK_IS_PANED (split))
    return;
  GtkWidget *end = gtk_paned_get_end_child (GTK_PANED (split));
  gtk_paned_set_start_child (GTK_PANED (split), NULL);
  if (end)
    {
      g_object_ref (end);
      gtk_paned_set_end_child (GTK_PANED (split), NULL);
      detach_panes (end);
      g_object_unref (end);
    }
}

static GtkWidget *
build_tree (HydPlotPanes *self, guint from)
{
  Pane *pane = g_ptr_array_index (self->panes, from);
  if (from + 1 == self->panes->len)
    return pane->box;
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_wide_handle (GTK_PANED (paned), TRUE);
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_start_child (GTK_PANED (paned), pane->box);
  gtk_paned_set_end_child (GTK_PANED (paned), build_tree (self, from + 1));
  return paned;
}

static void
rebuild_split (HydPlotPanes *self)
{
  if (self->split)
    {
      detach_panes (self->split);
      if (gtk_widget_get_parent (self->split) == self->box)
        gtk_box_remove (GTK_BOX (self->box), self->split);
      self->split = NULL;
    }
  for (guint i = 0; i < self->panes->len; i++)
    {
      Pane *pane = g_ptr_array_index (self->panes, i);
      GtkWidget *parent = gtk_widget_get_parent (pane->box);
      if (parent && GTK_IS_BOX (parent))
        gtk_box_remove (GTK_BOX (parent), pane->box);
    }
  if (self->panes->len > 0)
    {
      self->split = build_tree (self, 0);
      gtk_widget_set_hexpand (self->split, TRUE);
      gtk_box_prepend (GTK_BOX (self->box), self->split);
      self->equalize = TRUE;
      gtk_widget_queue_allocate (GTK_WIDGET (self));
    }
  gtk_widget_set_sensitive (self->add_button, self->panes->len < HYD_PLOT_PANES_MAX);
  set_active (self, MIN (self->active, self->panes->len ? self->panes->len - 1 : 0));
}

static gboolean
equalize_idle_cb (gpointer data)
{
  HydPlotPanes *self = data;
  int width = self->split ? gtk_widget_get_width (self->split) : 0;
  GtkWidget *node = self->split;
  guint remaining = self->panes->len;
  while (node && GTK_IS_PANED (node) && remaining > 1)
    {
      gtk_paned_set_position (GTK_PANED (node), width / (int) remaining);
      width -= width / (int) remaining;
      remaining--;
      node = gtk_paned_get_end_child (GTK_PANED (node));
    }
  g_object_unref (self);
  return G_SOURCE_REMOVE;
}

static void
hyd_plot_panes_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  HydPlotPanes *self = HYD_PLOT_PANES (widget);
  /* below its minimum (a low window: the plots give way first, so the run
   * bar above them stays whole) the panes keep their minimum height and are
   * cut off at the bottom */
  int min_height;
  gtk_widget_measure (self->box, GTK_ORIENTATION_VERTICAL, width, &min_height, NULL, NULL, NULL);
  gtk_widget_allocate (self->box, width, MAX (height, min_height), baseline, NULL);
  if (self->equalize && width > 0)
    {
      self->equalize = FALSE;
      g_idle_add (equalize_idle_cb, g_object_ref (self));
    }
}

static void
hyd_plot_panes_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                        int *natural, int *minimum_baseline, int *natural_baseline)
{
  HydPlotPanes *self = HYD_PLOT_PANES (widget);
  if (orientation == GTK_ORIENTATION_HORIZONTAL && for_size >= 0)
    {
      int min_height;
      gtk_widget_measure (self->box, GTK_ORIENTATION_VERTICAL, -1, &min_height, NULL, NULL, NULL);
      for_size = MAX (for_size, min_height);
    }
  gtk_widget_measure (self->box, orientation, for_size, minimum, natural, minimum_baseline, natural_baseline);
  /* the plots may shrink to nothing in a low window (see size_allocate) */
  if (orientation == GTK_ORIENTATION_VERTICAL)
    {
      *minimum = 0;
      *minimum_baseline = -1;
      *natural_baseline = -1;
    }
}

static void
add_clicked_cb (GtkButton *button, HydPlotPanes *self)
{
  g_autofree char *title = g_strdup_printf (_("Plot %u"), self->panes->len + 1);
  hyd_plot_panes_add_pane (self, title, NULL);
  set_active (self, self->panes->len - 1);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
hyd_plot_panes_dispose (GObject *object)
{
  HydPlotPanes *self = HYD_PLOT_PANES (object);
  if (self->split)
    detach_panes (self->split);
  self->split = NULL;
  g_clear_pointer (&self->box, gtk_widget_unparent);
  if (self->panes)
    g_ptr_array_set_size (self->panes, 0);
  g_clear_object (&self->store);
  g_clear_object (&self->ghost);
  G_OBJECT_CLASS (hyd_plot_panes_parent_class)->dispose (object);
}

static void
hyd_plot_panes_finalize (GObject *object)
{
  HydPlotPanes *self = HYD_PLOT_PANES (object);
  g_clear_pointer (&self->panes, g_ptr_array_unref);
  g_clear_pointer (&self->variables, g_strfreev);
  g_clear_pointer (&self->unit_names, g_strfreev);
  g_clear_pointer (&self->units, g_free);
  G_OBJECT_CLASS (hyd_plot_panes_parent_class)->finalize (object);
}

static void
hyd_plot_panes_class_init (HydPlotPanesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hyd_plot_panes_dispose;
  object_class->finalize = hyd_plot_panes_finalize;
  widget_class->size_allocate = hyd_plot_panes_size_allocate;
  widget_class->measure = hyd_plot_panes_measure;
  gtk_widget_class_set_css_name (widget_class, "plotpanes");

  /**
   * HydPlotPanes::changed:
   *
   * A pane was added or closed, or its traces changed.
   */
  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  /**
   * HydPlotPanes::export-requested:
   * @pane: the pane's index
   * @format: "png", "svg", "pdf" or "csv"
   */
  signals[SIGNAL_EXPORT_REQUESTED] =
    g_signal_new ("export-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_STRING);
}

static void
hyd_plot_panes_init (HydPlotPanes *self)
{
  self->panes = g_ptr_array_new_with_free_func ((GDestroyNotify) pane_free);
  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  self->add_button = gtk_button_new_from_icon_name ("tab-new-symbolic");
  gtk_widget_set_tooltip_text (self->add_button, _("Add a plot pane"));
  gtk_widget_set_valign (self->add_button, GTK_ALIGN_START);
  gtk_widget_set_margin_start (self->add_button, 4);
  gtk_widget_set_margin_end (self->add_button, 4);
  gtk_widget_set_margin_top (self->add_button, 4);
  gtk_widget_add_css_class (self->add_button, "flat");
  g_signal_connect (self->add_button, "clicked", G_CALLBACK (add_clicked_cb), self);
  gtk_box_append (GTK_BOX (self->box), self->add_button);
}

GtkWidget *
hyd_plot_panes_new (void)
{
  return g_object_new (HYD_TYPE_PLOT_PANES, NULL);
}

void
hyd_plot_panes_load (HydPlotPanes *self, const HydCircuit *circuit)
{
  g_return_if_fail (HYD_IS_PLOT_PANES (self));

  g_ptr_array_set_size (self->panes, 0);
  if (self->split)
    {
      detach_panes (self->split);
      gtk_box_remove (GTK_BOX (self->box), self->split);
      self->split = NULL;
    }
  if (circuit && circuit->plots && circuit->plots->len > 0)
    for (guint i = 0; i < circuit->plots->len && i < HYD_PLOT_PANES_MAX; i++)
      {
        const HydCircuitPlot *plot = g_ptr_array_index (circuit->plots, i);
        g_autofree char *fallback = g_strdup_printf (_("Plot %u"), i + 1);
        g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
        for (guint k = 0; plot->traces && k < plot->traces->len; k++)
          g_strv_builder_add (builder, g_ptr_array_index (plot->traces, k));
        g_auto (GStrv) traces = g_strv_builder_end (builder);
        g_ptr_array_add (self->panes, pane_new (self, plot->title ? plot->title : fallback,
                                                (const char *const *) traces, plot->y_unit));
      }
  else
    for (guint i = 0; i < DEFAULT_N_PANES; i++)
      {
        g_autofree char *title = g_strdup_printf (_("Plot %u"), i + 1);
        g_ptr_array_add (self->panes, pane_new (self, title, NULL, NULL));
      }
  self->active = 0;
  rebuild_split (self);
}

JsonArray *
hyd_plot_panes_to_json (HydPlotPanes *self)
{
  g_return_val_if_fail (HYD_IS_PLOT_PANES (self), NULL);
  JsonArray *array = json_array_new ();
  for (guint i = 0; i < self->panes->len; i++)
    {
      Pane *pane = g_ptr_array_index (self->panes, i);
      JsonObject *plot = json_object_new ();
      json_object_set_string_member (plot, "title", pane->title);
      JsonArray *traces = json_array_new ();
      g_auto (GStrv) names = hyd_plot_view_get_traces (pane->view);
      for (guint k = 0; names && names[k]; k++)
        json_array_add_string_element (traces, names[k]);
      json_object_set_array_member (plot, "traces", traces);
      json_object_set_string_member (plot, "y_unit", pane->y_unit ? pane->y_unit : "auto");
      json_array_add_object_element (array, plot);
    }
  return array;
}

void
hyd_plot_panes_set_stores (HydPlotPanes *self, HydTraceStore *store, HydTraceStore *ghost)
{
  g_return_if_fail (HYD_IS_PLOT_PANES (self));
  g_set_object (&self->store, store);
  g_set_object (&self->ghost, ghost);
  for (guint i = 0; i < self->panes->len; i++)
    {
      Pane *pane = g_ptr_array_index (self->panes, i);
      hyd_plot_view_set_store (pane->view, store);
      hyd_plot_view_set_ghost (pane->view, ghost);
    }
}

const char *const *
hyd_plot_panes_get_variables (HydPlotPanes *self)
{
  g_return_val_if_fail (HYD_IS_PLOT_PANES (self), NULL);
  return (const char *const *) self->variables;
}

void
hyd_plot_panes_set_variables (HydPlotPanes *self, const char *const *names)
{
  g_return_if_fail (HYD_IS_PLOT_PANES (self));
  g_clear_pointer (&self->variables, g_strfreev);
  self->variables = g_strdupv ((char **) names);
}

void
hyd_plot_panes_set_variable_units (HydPlotPanes *self, const char *const *names, const HydUnit *units)
{
  g_return_if_fail (HYD_IS_PLOT_PANES (self));
  g_clear_pointer (&self->unit_names, g_strfreev);
  g_clear_pointer (&self->units, g_free);
  if (names != NULL && units != NULL)
    {
      guint n = g_strv_length ((char **) names);
      self->unit_names = g_strdupv ((char **) names);
      self->units = g_memdup2 (units, (n + 1) * sizeof (HydUnit));
    }
  for (guint i = 0; self->panes && i < self->panes->len; i++)
    {
      Pane *pane = g_ptr_array_index (self->panes, i);
      hyd_plot_view_set_variable_units (pane->view, (const char *const *) self->unit_names, self->units);
    }
}

void
hyd_plot_panes_add_trace (HydPlotPanes *self, const char *name)
{
  g_return_if_fail (HYD_IS_PLOT_PANES (self));
  g_return_if_fail (name != NULL);
  if (self->panes->len == 0)
    hyd_plot_panes_add_pane (self, name, NULL);
  Pane *pane = g_ptr_array_index (self->panes, MIN (self->active, self->panes->len - 1));
  if (!has_trace (pane, name))
    {
      hyd_plot_view_add_trace (pane->view, name);
      g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
    }
}

void
hyd_plot_panes_add_pane (HydPlotPanes *self, const char *title, const char *const *traces)
{
  g_return_if_fail (HYD_IS_PLOT_PANES (self));
  if (self->panes->len >= HYD_PLOT_PANES_MAX)
    return;
  g_ptr_array_add (self->panes, pane_new (self, title, traces, NULL));
  rebuild_split (self);
}

guint
hyd_plot_panes_get_n_panes (HydPlotPanes *self)
{
  g_return_val_if_fail (HYD_IS_PLOT_PANES (self), 0);
  return self->panes->len;
}

HydPlotView *
hyd_plot_panes_get_view (HydPlotPanes *self, guint index)
{
  g_return_val_if_fail (HYD_IS_PLOT_PANES (self), NULL);
  if (index >= self->panes->len)
    return NULL;
  return ((Pane *) g_ptr_array_index (self->panes, index))->view;
}

guint
hyd_plot_panes_get_active (HydPlotPanes *self)
{
  g_return_val_if_fail (HYD_IS_PLOT_PANES (self), 0);
  return self->active;
}

void
hyd_plot_panes_set_replay_time (HydPlotPanes *self, double t)
{
  for (guint i = 0; i < hyd_plot_panes_get_n_panes (self); i++)
    hyd_plot_view_set_replay_time (hyd_plot_panes_get_view (self, i), t);
}
