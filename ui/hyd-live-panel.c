/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-live-panel.c — the live sliders of the whole circuit during a run. */
#define G_LOG_DOMAIN "hyd-live-panel"

#include "bramah-config.h"
#include "hyd-live-panel.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>
#include "hyd-catalogue.h"
#include "hyd-help-text.h"
#include "hyd-param-value.h"
#include "hyd-ui-util.h"

/* A slider the user moved is left alone this long before it follows the
 * run again (as in the property panel). */
#define LIVE_FOLLOW_DELAY_US (G_USEC_PER_SEC / 2)
/* Live changes are sent at most this often while a slider moves. */
#define LIVE_CHANGE_INTERVAL_US (G_USEC_PER_SEC / 10)
/* The sliders follow the run at most this often: each follow asks the run
 * for every value, cheap but not free with a hundred sliders on two cores. */
#define REFRESH_INTERVAL_US (G_USEC_PER_SEC / 4)

typedef struct _LiveRow LiveRow;

struct _HydLivePanel
{
  GtkWidget parent_instance;

  GtkWidget *scrolled;     /* borrowed: the child */
  GtkWidget *list;         /* borrowed: the groups, rebuilt at each run start */
  GtkWidget *note;         /* borrowed: what the page is for, or that nothing is live */
  GtkWidget *more;         /* borrowed: how many were left out */

  GPtrArray *rows;         /* of LiveRow* */
  HydLivePanelLookup lookup;
  gpointer lookup_data;
  gint64 last_refresh;
  guint n_omitted;
  gboolean running;
  gboolean updating;
};

struct _LiveRow
{
  HydLivePanel *panel;     /* borrowed */
  char *component;
  char *name;              /* "C.param" */
  const HydParamInfo *info;
  GtkWidget *scale;        /* borrowed (in the list) */
  gint64 last_change;
  double pending_value;
  guint source;
};

G_DEFINE_FINAL_TYPE (HydLivePanel, hyd_live_panel, GTK_TYPE_WIDGET)

enum {
  SIGNAL_LIVE_CHANGE,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static void
live_row_free (LiveRow *row)
{
  g_clear_handle_id (&row->source, g_source_remove);
  g_free (row->component);
  g_free (row->name);
  g_free (row);
}

/* ---- a slider moved ---- */

static void
send_change (LiveRow *row, double value)
{
  row->last_change = g_get_monotonic_time ();
  g_signal_emit (row->panel, signals[SIGNAL_LIVE_CHANGE], 0, row->component, row->info->name, value);
}

static gboolean
change_timeout_cb (gpointer data)
{
  LiveRow *row = data;
  row->source = 0;
  send_change (row, row->pending_value);
  return G_SOURCE_REMOVE;
}

static void
scale_value_changed_cb (GtkRange *range, LiveRow *row)
{
  HydLivePanel *self = row->panel;
  if (self->updating || !self->running)
    return;
  double value = hyd_param_value_clamp (row->info, gtk_range_get_value (range));
  /* at most ten changes a second reach the run; the last one always */
  gint64 now = g_get_monotonic_time ();
  g_clear_handle_id (&row->source, g_source_remove);
  if (now - row->last_change >= LIVE_CHANGE_INTERVAL_US)
    send_change (row, value);
  else
    {
      row->pending_value = value;
      row->source = g_timeout_add ((guint) ((LIVE_CHANGE_INTERVAL_US - (now - row->last_change)) / 1000 + 1),
                                   change_timeout_cb, row);
    }
}

/* ---- following the run ---- */

static void
set_scale_value (HydLivePanel *self, LiveRow *row, double value)
{
  GtkAdjustment *adj = gtk_range_get_adjustment (GTK_RANGE (row->scale));
  double lo = gtk_adjustment_get_lower (adj), hi = gtk_adjustment_get_upper (adj);
  gboolean was = self->updating;
  self->updating = TRUE;
  if (value < lo || value > hi)
    {
      hyd_param_value_slider_range (row->info, value, &lo, &hi);
      gtk_range_set_range (GTK_RANGE (row->scale), lo, hi);
    }
  /* an unchanged value queues nothing: most parameters stay put */
  if (gtk_adjustment_get_value (adj) != value)
    gtk_range_set_value (GTK_RANGE (row->scale), value);
  self->updating = was;
}

static void
follow_run (HydLivePanel *self, LiveRow *row)
{
  double value;
  if (self->lookup == NULL)
    return;
  if ((gtk_widget_get_state_flags (row->scale) & GTK_STATE_FLAG_ACTIVE) || row->source
      || g_get_monotonic_time () - row->last_change < LIVE_FOLLOW_DELAY_US)
    return;
  if (self->lookup (row->component, row->info->name, &value, self->lookup_data))
    set_scale_value (self, row, value);
}

static void
refresh_now (HydLivePanel *self)
{
  self->last_refresh = g_get_monotonic_time ();
  for (guint i = 0; i < self->rows->len; i++)
    follow_run (self, g_ptr_array_index (self->rows, i));
}

static void
map_cb (HydLivePanel *self)
{
  /* the page was hidden while the run went on: catch up at once */
  if (self->running)
    refresh_now (self);
}

/* ---- building the list ---- */

static void
clear_list (HydLivePanel *self)
{
  g_ptr_array_set_size (self->rows, 0);
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (self->list)) != NULL)
    gtk_box_remove (GTK_BOX (self->list), child);
  self->n_omitted = 0;
}

static GtkWidget *
group_heading (const HydCircuitComponent *comp, const HydComponentType *type)
{
  /* "PU1 · Fixed-displacement pump", then its label when it has one */
  g_autofree char *id = g_markup_escape_text (comp->id, -1);
  g_autofree char *what = g_markup_escape_text (hyd_help_type_label (type), -1);
  g_autofree char *label = comp->label && *comp->label ? g_markup_escape_text (comp->label, -1) : NULL;
  g_autofree char *markup = label ? g_strdup_printf ("<b>%s</b> · %s\n<small>%s</small>", id, what, label)
                                  : g_strdup_printf ("<b>%s</b> · %s", id, what);
  GtkWidget *heading = gtk_label_new (NULL);
  gtk_label_set_markup (GTK_LABEL (heading), markup);
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_label_set_wrap (GTK_LABEL (heading), TRUE);
  gtk_widget_add_css_class (heading, "live-heading");
  return heading;
}

static void
add_row (HydLivePanel *self, GtkWidget *group, const HydCircuitComponent *comp, const HydComponentType *type,
         const HydParamInfo *info)
{
  LiveRow *row = g_new0 (LiveRow, 1);
  row->panel = self;
  row->component = g_strdup (comp->id);
  row->name = g_strdup_printf ("%s.%s", comp->id, info->name);
  row->info = info;

  GtkWidget *label = gtk_label_new (_(info->label));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "live-param");
  g_autofree char *tip = g_strdup_printf ("%s\n%s", info->description ? _(info->description) : "", row->name);
  gtk_widget_set_tooltip_text (label, tip);
  gtk_box_append (GTK_BOX (group), label);

  row->scale = hyd_ui_param_scale_new (type, info);
  gtk_widget_set_tooltip_text (row->scale, tip);
  gtk_widget_add_css_class (row->scale, "live-slider");
  /* its span from the value the run starts with */
  double value = 0, lo, hi;
  if (self->lookup == NULL || !self->lookup (comp->id, info->name, &value, self->lookup_data))
    value = isfinite (info->def) ? info->def : 0;
  if (!gtk_widget_has_css_class (row->scale, "lever"))
    {
      hyd_param_value_slider_range (info, value, &lo, &hi);
      gtk_range_set_range (GTK_RANGE (row->scale), lo, hi);
    }
  set_scale_value (self, row, value);
  g_signal_connect (row->scale, "value-changed", G_CALLBACK (scale_value_changed_cb), row);
  gtk_box_append (GTK_BOX (group), row->scale);
  g_ptr_array_add (self->rows, row);
}

/* Is the parameter replaced by a port of the component that the circuit
 * wires (a force source's force by its input S)? Its slider would move
 * nothing. */
static gboolean
param_overridden (const HydCircuit *circuit, const HydCircuitComponent *comp, const HydComponentType *type,
                  const char *param)
{
  for (guint X = 0; X < type->n_ports; X++)
    {
      const HydPortInfo *port = &type->ports[X];
      if (port->overrides == NULL || strcmp (port->overrides, param) != 0)
        continue;
      /* a hidden input is set by a reference (a valve's solenoid coil) */
      if (port->hidden && hyd_circuit_component_reference_sets_port (comp, port->name))
        return TRUE;
      g_autofree char *ref = g_strdup_printf ("%s.%s", comp->id, port->name);
      for (guint k = 0; k < circuit->connections->len; k++)
        {
          const HydCircuitConnection *cn = g_ptr_array_index (circuit->connections, k);
          if (g_strcmp0 (cn->from, ref) == 0 || g_strcmp0 (cn->to, ref) == 0)
            return TRUE;
        }
    }
  return FALSE;
}

static void
build_list (HydLivePanel *self, const HydCircuit *circuit)
{
  clear_list (self);
  for (guint i = 0; i < circuit->components->len; i++)
    {
      const HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      const HydComponentType *type = comp->id ? hyd_catalogue_lookup (comp->type) : NULL;
      GtkWidget *group = NULL;
      for (guint k = 0; type && k < type->n_params; k++)
        {
          const HydParamInfo *info = &type->params[k];
          /* what a run can change: a number that may vary in time (a choice
           * or a whole number shapes the model, and the run refuses it) */
          if (!(info->flags & HYD_PARAM_PROFILE) || (info->flags & (HYD_PARAM_ENUM | HYD_PARAM_INTEGER)))
            continue;
          if (param_overridden (circuit, comp, type, info->name))
            continue;
          if (self->rows->len >= HYD_LIVE_PANEL_MAX_SLIDERS)
            {
              self->n_omitted++;
              continue;
            }
          if (group == NULL)
            {
              group = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
              gtk_widget_add_css_class (group, "live-group");
              gtk_box_append (GTK_BOX (group), group_heading (comp, type));
              gtk_box_append (GTK_BOX (self->list), group);
            }
          add_row (self, group, comp, type, info);
        }
    }
  if (self->n_omitted > 0)
    {
      g_autofree char *text = g_strdup_printf (
          g_dngettext (GETTEXT_PACKAGE, "%u more live parameter: select its component to move its slider.",
                       "%u more live parameters: select a component to move its sliders.", self->n_omitted),
          self->n_omitted);
      gtk_label_set_text (GTK_LABEL (self->more), text);
    }
  gtk_widget_set_visible (self->more, self->n_omitted > 0);
}

static void
show_note (HydLivePanel *self)
{
  const char *text;
  if (!self->running)
    text = _("During a run every parameter that can change over time — set-points, gains, valve "
             "commands, pump speeds, loads — gets a slider here, grouped by component. Moving one "
             "changes the running simulation at once and leaves a marker on the plots.");
  else
    text = _("Nothing in this circuit can change while it runs.");
  gtk_label_set_text (GTK_LABEL (self->note), text);
  gtk_widget_set_visible (self->note, !self->running || self->rows->len == 0);
}

/* ---- GObject ---- */

static void
hyd_live_panel_dispose (GObject *object)
{
  HydLivePanel *self = HYD_LIVE_PANEL (object);
  if (self->rows)
    g_ptr_array_set_size (self->rows, 0);
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (hyd_live_panel_parent_class)->dispose (object);
}

static void
hyd_live_panel_finalize (GObject *object)
{
  HydLivePanel *self = HYD_LIVE_PANEL (object);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  G_OBJECT_CLASS (hyd_live_panel_parent_class)->finalize (object);
}

static void
hyd_live_panel_class_init (HydLivePanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = hyd_live_panel_dispose;
  object_class->finalize = hyd_live_panel_finalize;

  /**
   * HydLivePanel::live-change:
   * @component: the component's id
   * @param: the parameter's name
   * @value: the new value (SI)
   *
   * A slider moved while a run is going.
   */
  signals[SIGNAL_LIVE_CHANGE] =
    g_signal_new ("live-change", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_DOUBLE);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "livepanel");
}

static void
hyd_live_panel_init (HydLivePanel *self)
{
  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) live_row_free);

  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));

  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 10);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), box);

  self->note = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->note), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->note), 0);
  gtk_widget_add_css_class (self->note, "dim-label");
  gtk_box_append (GTK_BOX (box), self->note);

  self->list = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_box_append (GTK_BOX (box), self->list);

  self->more = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->more), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->more), 0);
  gtk_widget_add_css_class (self->more, "dim-label");
  gtk_widget_set_visible (self->more, FALSE);
  gtk_box_append (GTK_BOX (box), self->more);

  g_signal_connect_swapped (self, "map", G_CALLBACK (map_cb), self);
  show_note (self);
}

GtkWidget *
hyd_live_panel_new (void)
{
  return g_object_new (HYD_TYPE_LIVE_PANEL, NULL);
}

void
hyd_live_panel_set_run (HydLivePanel *self, const HydCircuit *circuit)
{
  g_return_if_fail (HYD_IS_LIVE_PANEL (self));
  if (circuit != NULL && self->running)
    return;
  self->running = circuit != NULL;
  if (circuit)
    build_list (self, circuit);
  else
    {
      clear_list (self);
      gtk_widget_set_visible (self->more, FALSE);
    }
  self->last_refresh = g_get_monotonic_time ();
  show_note (self);
}

gboolean
hyd_live_panel_get_running (HydLivePanel *self)
{
  g_return_val_if_fail (HYD_IS_LIVE_PANEL (self), FALSE);
  return self->running;
}

void
hyd_live_panel_set_lookup (HydLivePanel *self, HydLivePanelLookup lookup, gpointer user_data)
{
  g_return_if_fail (HYD_IS_LIVE_PANEL (self));
  self->lookup = lookup;
  self->lookup_data = user_data;
}

void
hyd_live_panel_refresh (HydLivePanel *self)
{
  g_return_if_fail (HYD_IS_LIVE_PANEL (self));
  if (!self->running || self->rows->len == 0 || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  if (g_get_monotonic_time () - self->last_refresh < REFRESH_INTERVAL_US)
    return;
  refresh_now (self);
}

static LiveRow *
find_row (HydLivePanel *self, const char *component, const char *param)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      LiveRow *row = g_ptr_array_index (self->rows, i);
      if (g_strcmp0 (row->component, component) == 0 && g_strcmp0 (row->info->name, param) == 0)
        return row;
    }
  return NULL;
}

void
hyd_live_panel_show_value (HydLivePanel *self, const char *component, const char *param, double value)
{
  g_return_if_fail (HYD_IS_LIVE_PANEL (self));
  LiveRow *row = find_row (self, component, param);
  if (row)
    set_scale_value (self, row, value);
}

GtkWidget *
hyd_live_panel_get_slider (HydLivePanel *self, const char *component, const char *param)
{
  g_return_val_if_fail (HYD_IS_LIVE_PANEL (self), NULL);
  LiveRow *row = find_row (self, component, param);
  return row ? row->scale : NULL;
}

guint
hyd_live_panel_get_n_sliders (HydLivePanel *self)
{
  g_return_val_if_fail (HYD_IS_LIVE_PANEL (self), 0);
  return self->rows->len;
}

guint
hyd_live_panel_get_n_omitted (HydLivePanel *self)
{
  g_return_val_if_fail (HYD_IS_LIVE_PANEL (self), 0);
  return self->n_omitted;
}

const char *
hyd_live_panel_get_slider_name (HydLivePanel *self, guint i, GtkWidget **slider)
{
  g_return_val_if_fail (HYD_IS_LIVE_PANEL (self), NULL);
  g_return_val_if_fail (i < self->rows->len, NULL);
  LiveRow *row = g_ptr_array_index (self->rows, i);
  if (slider)
    *slider = row->scale;
  return row->name;
}
