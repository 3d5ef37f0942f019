/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-property-panel.c — the parameters of the selected component. */
#define G_LOG_DOMAIN "hyd-property-panel"

#include "bramah-config.h"
#include "hyd-property-panel.h"
#include "hyd-diagnostic.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>
#include "hyd-catalogue.h"
#include "hyd-display-units.h"
#include "hyd-help-text.h"
#include "hyd-param-value.h"
#include "hyd-references.h"
#include "hyd-ui-util.h"

/* A slider edits the document once it has rested this long (one undo step
 * per gesture rather than one per pixel). */
#define SLIDER_EDIT_DELAY_MS 300
/* A slider the user moved is left alone this long before it follows the
 * run again. */
#define LIVE_FOLLOW_DELAY_US (G_USEC_PER_SEC / 2)
/* Live changes are sent at most this often while a slider moves. */
#define LIVE_CHANGE_INTERVAL_US (G_USEC_PER_SEC / 10)
/* The fluid's default discharge coefficient (circuit-format.md, fluid). */
#define DEFAULT_DISCHARGE_COEFFICIENT 0.7

typedef struct _ParamRow ParamRow;

struct _HydPropertyPanel
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkStack *stack;
  GtkEntry *title_entry;
  GtkTextView *description_view;
  GtkLabel *multiple_label;
  GtkDrawingArea *symbol_area;
  GtkLabel *id_label;
  GtkLabel *type_label;
  GtkEntry *name_entry;
  GtkWidget *running_banner;
  GtkGrid *params_grid;
  GtkWidget *no_live_label;

  /* Owned */
  HydDocument *document;
  char *component_id;        /* the component shown, or NULL */
  char *type_id;
  GPtrArray *rows;           /* of ParamRow* */
  HydPropertyPanelLiveLookup live_lookup;
  gpointer live_lookup_data;

  guint running : 1;
  guint updating : 1;
};

struct _ParamRow
{
  HydPropertyPanel *panel;   /* borrowed */
  const HydParamInfo *info;
  GtkWidget *label;
  GtkWidget *editor;         /* GtkEntry or GtkDropDown */
  GtkWidget *unit;
  GtkWidget *reset;
  GtkWidget *message;
  GtkWidget *scale;          /* profile parameters only */
  guint scale_edit_source;
  gint64 last_live_change;
  double pending_live_value;
  guint live_source;
  gboolean range_set;        /* the slider's span was chosen */
  gboolean typed;            /* the entry's text was typed and not yet committed */
};

G_DEFINE_FINAL_TYPE (HydPropertyPanel, hyd_property_panel, GTK_TYPE_WIDGET)

enum {
  SIGNAL_LIVE_CHANGE,
  SIGNAL_HELP_REQUESTED,
  SIGNAL_STUDY_REQUESTED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static void
param_row_free (ParamRow *row)
{
  g_clear_handle_id (&row->scale_edit_source, g_source_remove);
  g_clear_handle_id (&row->live_source, g_source_remove);
  g_free (row);
}

/* ---- the document's view of the shown component ---- */

static const HydCircuitComponent *
shown_component (HydPropertyPanel *self)
{
  if (self->document == NULL || self->component_id == NULL)
    return NULL;
  return hyd_circuit_find_component (hyd_document_get_circuit (self->document), self->component_id);
}

static JsonNode *
written_value (HydPropertyPanel *self, const HydParamInfo *info)
{
  const HydCircuitComponent *comp = shown_component (self);
  if (comp == NULL || !json_object_has_member (comp->params, info->name))
    return NULL;
  return json_object_get_member (comp->params, info->name);
}

static double
fluid_discharge_coefficient (HydPropertyPanel *self)
{
  HydFluid fluid;
  if (self->document && hyd_circuit_get_fluid (hyd_document_get_circuit (self->document), &fluid, NULL))
    return fluid.discharge_coefficient;
  return DEFAULT_DISCHARGE_COEFFICIENT;
}

static void
show_message (ParamRow *row, const char *message)
{
  if (message)
    {
      gtk_label_set_text (GTK_LABEL (row->message), message);
      gtk_widget_set_visible (row->message, TRUE);
      gtk_widget_add_css_class (row->editor, "error");
    }
  else
    {
      gtk_widget_set_visible (row->message, FALSE);
      gtk_widget_remove_css_class (row->editor, "error");
    }
}

static gboolean
set_param (ParamRow *row, JsonNode *value)
{
  HydPropertyPanel *self = row->panel;
  g_autoptr (GError) error = NULL;
  if (self->document == NULL || self->component_id == NULL)
    return FALSE;
  /* the sync after the edit must not fight the edit */
  if (!hyd_document_set_param (self->document, self->component_id, row->info->name, value, &error))
    {
      g_autofree char *why = hyd_diagnostic_dup_error_message (error, GETTEXT_PACKAGE);
      show_message (row, why);
      return FALSE;
    }
  show_message (row, NULL);
  return TRUE;
}

static void sync_rows (HydPropertyPanel *self);

/* ---- numeric entries ---- */

static gboolean
is_blank (const char *text)
{
  for (; *text; text++)
    if (!g_ascii_isspace (*text))
      return FALSE;
  return TRUE;
}

static void
entry_changed_cb (GtkEditable *editable, ParamRow *row)
{
  if (row->panel->updating)
    return;
  row->typed = TRUE;
  /* what was typed can always be taken back to the default */
  gtk_widget_set_sensitive (row->reset, !row->panel->running);
  const char *text = gtk_editable_get_text (editable);
  g_autofree char *message = NULL;
  /* an empty entry over a profile keeps the profile; over a parameter
   * that may be unset (optional, no limit) it leaves it unset */
  if (*text == '\0' && written_value (row->panel, row->info) != NULL
      && JSON_NODE_HOLDS_OBJECT (written_value (row->panel, row->info)))
    show_message (row, NULL);
  else if (is_blank (text) && written_value (row->panel, row->info) == NULL
           && hyd_param_value_may_be_unset (row->info))
    show_message (row, NULL);
  else if (!hyd_param_value_parse (row->info, text, NULL, &message))
    show_message (row, message);
  else
    show_message (row, NULL);
}

static void
commit_entry (ParamRow *row)
{
  HydPropertyPanel *self = row->panel;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (row->editor));
  JsonNode *written = written_value (self, row->info);
  if (*text == '\0' && written && JSON_NODE_HOLDS_OBJECT (written))
    return;
  if (is_blank (text) && written == NULL && hyd_param_value_may_be_unset (row->info))
    {
      show_message (row, NULL);
      row->typed = FALSE;
      return;
    }

  double si;
  g_autofree char *message = NULL;
  if (!hyd_param_value_parse (row->info, text, &si, &message))
    {
      show_message (row, message);
      return;
    }
  double current;
  if (hyd_param_value_get (row->info, written, fluid_discharge_coefficient (self), &current)
      && (written == NULL || !JSON_NODE_HOLDS_OBJECT (written)))
    {
      /* unchanged as shown: leave the exact value (and the file) alone */
      g_autofree char *shown_now = hyd_param_value_format (row->info, current);
      g_autofree char *shown_new = hyd_param_value_format (row->info, si);
      if (g_strcmp0 (shown_now, shown_new) == 0)
        {
          show_message (row, NULL);
          row->typed = FALSE;
          return;
        }
    }
  g_autoptr (JsonNode) node = json_node_init_double (json_node_alloc (), si);
  if (set_param (row, node))
    row->typed = FALSE;
}

static void
entry_activate_cb (GtkEntry *entry, ParamRow *row)
{
  if (!row->panel->running)
    commit_entry (row);
}

static void
entry_focus_leave_cb (GtkEventControllerFocus *controller, ParamRow *row)
{
  if (!row->panel->running && row->panel->document)
    commit_entry (row);
}

/* ---- choices ---- */

static void
dropdown_changed_cb (GtkDropDown *dropdown, GParamSpec *pspec, ParamRow *row)
{
  if (row->panel->updating || row->panel->running)
    return;
  guint i = gtk_drop_down_get_selected (dropdown);
  if (row->info->choices == NULL || i == GTK_INVALID_LIST_POSITION)
    return;
  JsonNode *written = written_value (row->panel, row->info);
  const char *current = written && JSON_NODE_HOLDS_VALUE (written)
                        && json_node_get_value_type (written) == G_TYPE_STRING
                        ? json_node_get_string (written) : row->info->choices[(guint) row->info->def];
  if (g_strcmp0 (current, row->info->choices[i]) == 0)
    return;
  g_autoptr (JsonNode) node = json_node_init_string (json_node_alloc (), row->info->choices[i]);
  set_param (row, node);
}

/* ---- references (docs/electrical.md): the id of another component ---- */

/* The ids a reference may name now: "none", then the suitable components
 * (hyd_reference_candidates), then the id it names when that is none of
 * them (a file naming a component of the wrong type shows what it says). */
static GStrv
reference_items (HydPropertyPanel *self, const HydParamInfo *info, guint *selected)
{
  const HydCircuitComponent *comp = shown_component (self);
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  /* translators: a reference parameter that names no component */
  g_strv_builder_add (builder, _("none"));
  *selected = 0;
  if (comp == NULL)
    return g_strv_builder_end (builder);
  g_auto (GStrv) ids = hyd_reference_candidates (hyd_document_get_circuit (self->document), comp->id, info);
  const char *current = hyd_reference_get (comp, info);
  guint n = 1;
  for (guint i = 0; ids && ids[i]; i++, n++)
    {
      g_strv_builder_add (builder, ids[i]);
      if (g_strcmp0 (ids[i], current) == 0)
        *selected = n;
    }
  if (current && *selected == 0)
    {
      g_strv_builder_add (builder, current);
      *selected = n;
    }
  return g_strv_builder_end (builder);
}

static void
sync_reference (HydPropertyPanel *self, ParamRow *row)
{
  guint selected = 0;
  g_auto (GStrv) items = reference_items (self, row->info, &selected);
  GtkStringList *list = GTK_STRING_LIST (gtk_drop_down_get_model (GTK_DROP_DOWN (row->editor)));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));
  gboolean same = n == g_strv_length (items);
  for (guint i = 0; same && i < n; i++)
    same = g_strcmp0 (gtk_string_list_get_string (list, i), items[i]) == 0;
  if (!same)
    gtk_string_list_splice (list, 0, n, (const char *const *) items);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (row->editor), selected);
}

static void
reference_changed_cb (GtkDropDown *dropdown, GParamSpec *pspec, ParamRow *row)
{
  if (row->panel->updating || row->panel->running)
    return;
  guint i = gtk_drop_down_get_selected (dropdown);
  const HydCircuitComponent *comp = shown_component (row->panel);
  if (comp == NULL || i == GTK_INVALID_LIST_POSITION)
    return;
  const char *id = i == 0 ? NULL
                          : gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (dropdown)), i);
  if (g_strcmp0 (id, hyd_reference_get (comp, row->info)) == 0)
    return;
  g_autoptr (JsonNode) node = id ? json_node_init_string (json_node_alloc (), id) : NULL;
  set_param (row, node);
}

/* ---- restore default ---- */

static void
reset_clicked_cb (GtkButton *button, ParamRow *row)
{
  if (row->panel->running)
    return;
  /* the field shows the default again, whatever was typed */
  row->typed = FALSE;
  set_param (row, NULL);
  sync_rows (row->panel);
}

/* ---- sliders ---- */

static gboolean
scale_edit_timeout_cb (gpointer data)
{
  ParamRow *row = data;
  row->scale_edit_source = 0;
  double value = hyd_param_value_clamp (row->info, gtk_range_get_value (GTK_RANGE (row->scale)));
  g_autoptr (JsonNode) node = json_node_init_double (json_node_alloc (), value);
  set_param (row, node);
  return G_SOURCE_REMOVE;
}

static void
send_live_change (ParamRow *row, double value)
{
  HydPropertyPanel *self = row->panel;
  row->last_live_change = g_get_monotonic_time ();
  if (self->component_id)
    g_signal_emit (self, signals[SIGNAL_LIVE_CHANGE], 0, self->component_id, row->info->name, value);
}

static gboolean
live_change_timeout_cb (gpointer data)
{
  ParamRow *row = data;
  row->live_source = 0;
  send_live_change (row, row->pending_live_value);
  return G_SOURCE_REMOVE;
}

static void
scale_value_changed_cb (GtkRange *range, ParamRow *row)
{
  HydPropertyPanel *self = row->panel;
  if (self->updating)
    return;
  double value = hyd_param_value_clamp (row->info, gtk_range_get_value (range));
  if (self->running)
    {
      /* at most ten changes a second reach the run; the last one always */
      gint64 now = g_get_monotonic_time ();
      g_clear_handle_id (&row->live_source, g_source_remove);
      if (now - row->last_live_change >= LIVE_CHANGE_INTERVAL_US)
        send_live_change (row, value);
      else
        {
          row->pending_live_value = value;
          row->live_source
              = g_timeout_add ((LIVE_CHANGE_INTERVAL_US - (now - row->last_live_change)) / 1000 + 1,
                               live_change_timeout_cb, row);
        }
      return;
    }
  g_clear_handle_id (&row->scale_edit_source, g_source_remove);
  row->scale_edit_source = g_timeout_add (SLIDER_EDIT_DELAY_MS, scale_edit_timeout_cb, row);
}

/* ---- building and syncing the rows ---- */

static void
sync_row (HydPropertyPanel *self, ParamRow *row)
{
  JsonNode *written = written_value (self, row->info);
  gboolean is_profile = written && JSON_NODE_HOLDS_OBJECT (written);

  gtk_widget_set_sensitive (row->reset, (written != NULL || row->typed) && !self->running);

  if (row->info->flags & HYD_PARAM_REFERENCE)
    sync_reference (self, row);
  else if (GTK_IS_DROP_DOWN (row->editor))
    {
      guint selected = (guint) row->info->def;
      if (written && JSON_NODE_HOLDS_VALUE (written) && json_node_get_value_type (written) == G_TYPE_STRING)
        for (guint i = 0; row->info->choices && row->info->choices[i]; i++)
          if (g_strcmp0 (row->info->choices[i], json_node_get_string (written)) == 0)
            selected = i;
      gtk_drop_down_set_selected (GTK_DROP_DOWN (row->editor), selected);
    }
  else
    {
      /* what the user typed and has not committed is left alone; a field
       * that shows the circuit (even focused, even red because the circuit
       * held a value out of range) follows it, e.g. after an undo */
      if (!row->typed)
        {
          show_message (row, NULL);
          double value;
          if (is_profile)
            {
              g_autofree char *summary = hyd_param_value_describe_profile (written);
              gtk_editable_set_text (GTK_EDITABLE (row->editor), "");
              gtk_entry_set_placeholder_text (GTK_ENTRY (row->editor), summary);
            }
          else if (hyd_param_value_get (row->info, written, fluid_discharge_coefficient (self), &value))
            {
              g_autofree char *text = hyd_param_value_format (row->info, value);
              gtk_editable_set_text (GTK_EDITABLE (row->editor), text);
              gtk_entry_set_placeholder_text (GTK_ENTRY (row->editor), NULL);
              /* a value out of range that the circuit holds is shown red */
              g_autofree char *why = NULL;
              if (!hyd_param_value_parse (row->info, text, NULL, &why))
                show_message (row, why);
            }
          else
            {
              gtk_editable_set_text (GTK_EDITABLE (row->editor), "");
              gtk_entry_set_placeholder_text (GTK_ENTRY (row->editor), (row->info->flags & HYD_PARAM_OPTIONAL)
                                                                           ? _("unset") : _("no limit"));
            }
        }
    }

  if (row->scale && row->scale_edit_source == 0 && !self->running)
    {
      double value = 0;
      if (!hyd_param_value_get (row->info, written, fluid_discharge_coefficient (self), &value))
        value = 0;
      /* keep the slider's span while the value stays inside it, so the
       * thumb does not jump under the pointer after an edit */
      GtkAdjustment *adj = gtk_range_get_adjustment (GTK_RANGE (row->scale));
      if (!row->range_set || value < gtk_adjustment_get_lower (adj) || value > gtk_adjustment_get_upper (adj))
        {
          double lo, hi;
          hyd_param_value_slider_range (row->info, value, &lo, &hi);
          gtk_range_set_range (GTK_RANGE (row->scale), lo, hi);
          row->range_set = TRUE;
        }
      gtk_range_set_value (GTK_RANGE (row->scale), value);
    }
}

static void
sync_live_slider (HydPropertyPanel *self, ParamRow *row)
{
  double value;
  if (row->scale == NULL || self->live_lookup == NULL || self->component_id == NULL)
    return;
  if ((gtk_widget_get_state_flags (row->scale) & GTK_STATE_FLAG_ACTIVE) || row->live_source
      || g_get_monotonic_time () - row->last_live_change < LIVE_FOLLOW_DELAY_US)
    return;
  if (!self->live_lookup (self->component_id, row->info->name, &value, self->live_lookup_data))
    return;
  GtkAdjustment *adj = gtk_range_get_adjustment (GTK_RANGE (row->scale));
  double lo = gtk_adjustment_get_lower (adj), hi = gtk_adjustment_get_upper (adj);
  if (value < lo || value > hi)
    {
      hyd_param_value_slider_range (row->info, value, &lo, &hi);
      gtk_range_set_range (GTK_RANGE (row->scale), lo, hi);
    }
  gboolean was = self->updating;
  self->updating = TRUE;
  gtk_range_set_value (GTK_RANGE (row->scale), value);
  self->updating = was;
}

static void
sync_rows (HydPropertyPanel *self)
{
  const HydCircuitComponent *comp = shown_component (self);
  if (comp == NULL)
    return;
  self->updating = TRUE;
  gtk_label_set_text (self->id_label, comp->id);
  if (!gtk_widget_has_focus (GTK_WIDGET (self->name_entry))
      && !gtk_widget_has_focus (gtk_widget_get_first_child (GTK_WIDGET (self->name_entry))))
    gtk_editable_set_text (GTK_EDITABLE (self->name_entry), comp->label ? comp->label : "");
  for (guint i = 0; i < self->rows->len; i++)
    {
      sync_row (self, g_ptr_array_index (self->rows, i));
      if (self->running)
        sync_live_slider (self, g_ptr_array_index (self->rows, i));
    }
  self->updating = FALSE;
}

static void
apply_running (HydPropertyPanel *self)
{
  guint n_live = 0;
  for (guint i = 0; i < self->rows->len; i++)
    {
      ParamRow *row = g_ptr_array_index (self->rows, i);
      gboolean live = row->scale != NULL;
      gboolean show = !self->running || live;
      gtk_widget_set_visible (row->label, show);
      gtk_widget_set_visible (row->editor, !self->running);
      gtk_widget_set_visible (row->unit, !self->running);
      gtk_widget_set_visible (row->reset, !self->running);
      if (self->running)
        gtk_widget_set_visible (row->message, FALSE);
      n_live += live;
    }
  gtk_widget_set_visible (self->running_banner, self->running);
  gtk_widget_set_visible (self->no_live_label, self->running && n_live == 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->name_entry), !self->running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->title_entry), !self->running);
  gtk_text_view_set_editable (self->description_view, !self->running);
}

static void
clear_rows (HydPropertyPanel *self)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->params_grid))) != NULL)
    gtk_grid_remove (self->params_grid, child);
  g_ptr_array_set_size (self->rows, 0);
}

/* ---- "Vary in a Study…" (the parameter study dialog, hyd-study-dialog.h) ---- */

static void
vary_in_study_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  HydPropertyPanel *self = HYD_PROPERTY_PANEL (widget);
  if (self->component_id)
    g_signal_emit (self, signals[SIGNAL_STUDY_REQUESTED], 0, self->component_id,
                   g_variant_get_string (parameter, NULL));
}

/* A choice list whose button may shrink below its longest choice (shown
 * with "…"; the popup shows every choice whole): a long choice, in German
 * above all, would otherwise widen the whole side pane and the schematic
 * beside it would shrink and grow with the selection. */
static void
choice_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer ellipsize)
{
  GtkWidget *label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (ellipsize)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (item, label);
}

static void
choice_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer ellipsize)
{
  GtkStringObject *choice = gtk_list_item_get_item (item);
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), gtk_string_object_get_string (choice));
}

static GtkListItemFactory *
choice_factory (gboolean ellipsize)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (choice_setup_cb), GINT_TO_POINTER (ellipsize));
  g_signal_connect (factory, "bind", G_CALLBACK (choice_bind_cb), GINT_TO_POINTER (ellipsize));
  return factory;
}

static GtkWidget *
choice_drop_down_new (GListModel *model)
{
  GtkWidget *dd = gtk_drop_down_new (model, NULL);
  g_autoptr (GtkListItemFactory) button = choice_factory (TRUE);
  g_autoptr (GtkListItemFactory) list = choice_factory (FALSE);
  gtk_drop_down_set_factory (GTK_DROP_DOWN (dd), button);
  gtk_drop_down_set_list_factory (GTK_DROP_DOWN (dd), list);
  return dd;
}

static GMenuModel *
study_menu (const char *param)
{
  GMenu *menu = g_menu_new ();
  GMenuItem *item = g_menu_item_new (_("Vary in a Study…"), NULL);
  g_menu_item_set_action_and_target_value (item, "panel.vary-in-study", g_variant_new_string (param));
  g_menu_append_item (menu, item);
  g_object_unref (item);
  return G_MENU_MODEL (menu);
}

static gboolean
unparent_idle (gpointer popover)
{
  gtk_widget_unparent (GTK_WIDGET (popover));
  g_object_unref (popover);
  return G_SOURCE_REMOVE;
}

/* Later: the item's action is looked up through the popover's parent
 * after the popover closes. */
static void
study_popover_closed_cb (GtkPopover *popover)
{
  g_idle_add (unparent_idle, g_object_ref (popover));
}

/* A right click on a numeric parameter's name: the same menu. */
static void
label_pressed_cb (GtkGestureClick *gesture, int n_press, double x, double y, gpointer user)
{
  GtkWidget *label = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  const char *param = g_object_get_data (G_OBJECT (label), "hyd-param");
  g_autoptr (GMenuModel) menu = study_menu (param);
  GtkWidget *popover = gtk_popover_menu_new_from_model (menu);
  gtk_widget_set_parent (popover, label);
  gtk_popover_set_pointing_to (GTK_POPOVER (popover), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  g_signal_connect (popover, "closed", G_CALLBACK (study_popover_closed_cb), NULL);
  gtk_popover_popup (GTK_POPOVER (popover));
}

static void
build_rows (HydPropertyPanel *self, const HydComponentType *type)
{
  clear_rows (self);
  int y = 0;
  for (guint i = 0; i < type->n_params; i++)
    {
      const HydParamInfo *info = &type->params[i];
      ParamRow *row = g_new0 (ParamRow, 1);
      row->panel = self;
      row->info = info;

      g_autofree char *range
          = (info->flags & (HYD_PARAM_ENUM | HYD_PARAM_REFERENCE)) ? NULL : hyd_param_value_describe_range (info);
      /* the description and range are plain text inside markup */
      g_autofree char *desc = g_markup_escape_text (info->description ? _(info->description) : "", -1);
      g_autofree char *rng = range ? g_markup_escape_text (range, -1) : NULL;
      g_autofree char *escaped_tooltip = g_strdup_printf (
          "%s%s%s\n<small><tt>%s</tt>%s</small>", desc, rng ? _("\nAllowed: ") : "", rng ? rng : "",
          info->name,
          (info->flags & HYD_PARAM_PROFILE) ? _(" · can change over time and live while running") : "");

      row->label = gtk_label_new (_(info->label));
      gtk_label_set_xalign (GTK_LABEL (row->label), 0);
      gtk_label_set_wrap (GTK_LABEL (row->label), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (row->label), 14);
      gtk_widget_set_hexpand (row->label, TRUE);
      gtk_widget_set_tooltip_markup (row->label, escaped_tooltip);
      gtk_widget_add_css_class (row->label, "param-name");

      if (info->flags & HYD_PARAM_REFERENCE)
        {
          /* the ids of the components it may name (sync_reference) */
          row->editor = choice_drop_down_new (G_LIST_MODEL (gtk_string_list_new (NULL)));
          g_signal_connect (row->editor, "notify::selected", G_CALLBACK (reference_changed_cb), row);
        }
      else if (info->flags & HYD_PARAM_ENUM)
        {
          /* shown translated; the index maps back to the English choice */
          g_autoptr (GStrvBuilder) shown = g_strv_builder_new ();
          for (guint c = 0; info->choices && info->choices[c]; c++)
            g_strv_builder_add (shown, _(info->choices[c]));
          g_auto (GStrv) labels = g_strv_builder_end (shown);
          row->editor = choice_drop_down_new (G_LIST_MODEL (gtk_string_list_new ((const char *const *) labels)));
          g_signal_connect (row->editor, "notify::selected", G_CALLBACK (dropdown_changed_cb), row);
        }
      else
        {
          row->editor = gtk_entry_new ();
          gtk_editable_set_width_chars (GTK_EDITABLE (row->editor), 9);
          gtk_editable_set_max_width_chars (GTK_EDITABLE (row->editor), 10);
          gtk_entry_set_alignment (GTK_ENTRY (row->editor), 1.0);
          gtk_entry_set_input_purpose (GTK_ENTRY (row->editor), GTK_INPUT_PURPOSE_NUMBER);
          g_signal_connect (row->editor, "changed", G_CALLBACK (entry_changed_cb), row);
          g_signal_connect (row->editor, "activate", G_CALLBACK (entry_activate_cb), row);
          /* its context menu and a right click on its name offer "Vary in a Study…" */
          g_autoptr (GMenuModel) menu = study_menu (info->name);
          gtk_entry_set_extra_menu (GTK_ENTRY (row->editor), menu);
          g_object_set_data_full (G_OBJECT (row->label), "hyd-param", g_strdup (info->name), g_free);
          GtkGesture *click = gtk_gesture_click_new ();
          gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
          g_signal_connect (click, "pressed", G_CALLBACK (label_pressed_cb), NULL);
          gtk_widget_add_controller (row->label, GTK_EVENT_CONTROLLER (click));
          GtkEventController *focus = gtk_event_controller_focus_new ();
          g_signal_connect (focus, "leave", G_CALLBACK (entry_focus_leave_cb), row);
          gtk_widget_add_controller (row->editor, focus);
        }
      gtk_widget_set_tooltip_markup (row->editor, escaped_tooltip);
      gtk_widget_set_valign (row->editor, GTK_ALIGN_CENTER);
      g_object_set_data_full (G_OBJECT (row->editor), "hyd-param", g_strdup (info->name), g_free);

      row->unit = gtk_label_new (hyd_param_value_unit (info));
      gtk_label_set_xalign (GTK_LABEL (row->unit), 0);
      gtk_widget_add_css_class (row->unit, "dim-label");
      gtk_widget_add_css_class (row->unit, "param-unit");

      row->reset = gtk_button_new_from_icon_name ("edit-undo-symbolic");
      gtk_widget_add_css_class (row->reset, "flat");
      gtk_widget_set_valign (row->reset, GTK_ALIGN_CENTER);
      {
        g_autofree char *def = NULL;
        if (info->flags & HYD_PARAM_REFERENCE)
          def = g_strdup (_("none"));
        else if (info->flags & HYD_PARAM_ENUM)
          def = g_strdup (info->choices ? _(info->choices[(guint) info->def]) : "");
        else if (info->flags & HYD_PARAM_OPTIONAL)
          def = g_strdup (_("unset"));
        else if (hyd_param_value_may_be_unset (info))
          def = g_strdup (_("no limit"));
        else
          {
            double d = (info->flags & HYD_PARAM_FLUID_CD) ? fluid_discharge_coefficient (self) : info->def;
            g_autofree char *number = hyd_param_value_format (info, d);
            const char *unit = hyd_param_value_unit (info);
            def = *unit ? g_strdup_printf ("%s %s", number, unit) : g_steal_pointer (&number);
          }
        g_autofree char *reset_tip = g_strdup_printf (_("Restore the default (%s)"), def);
        gtk_widget_set_tooltip_text (row->reset, reset_tip);
      }
      g_signal_connect (row->reset, "clicked", G_CALLBACK (reset_clicked_cb), row);

      row->message = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (row->message), 0);
      gtk_label_set_wrap (GTK_LABEL (row->message), TRUE);
      gtk_widget_add_css_class (row->message, "param-error");
      gtk_widget_set_visible (row->message, FALSE);

      gtk_grid_attach (self->params_grid, row->label, 0, y, 1, 1);
      gtk_grid_attach (self->params_grid, row->editor, 1, y, 1, 1);
      gtk_grid_attach (self->params_grid, row->unit, 2, y, 1, 1);
      gtk_grid_attach (self->params_grid, row->reset, 3, y, 1, 1);
      y++;
      gtk_grid_attach (self->params_grid, row->message, 0, y, 4, 1);
      y++;

      if (info->flags & HYD_PARAM_PROFILE)
        {
          row->scale = hyd_ui_param_scale_new (type, info);
          gtk_widget_set_tooltip_markup (row->scale, escaped_tooltip);
          gtk_widget_add_css_class (row->scale, "live-slider");
          g_signal_connect (row->scale, "value-changed", G_CALLBACK (scale_value_changed_cb), row);
          gtk_grid_attach (self->params_grid, row->scale, 0, y, 4, 1);
          y++;
        }
      g_ptr_array_add (self->rows, row);
    }
}

static void
show_selection (HydPropertyPanel *self, const char *const *ids)
{
  guint n = ids ? g_strv_length ((char **) ids) : 0;
  const HydCircuit *circuit = self->document ? hyd_document_get_circuit (self->document) : NULL;
  const HydCircuitComponent *comp = n == 1 && circuit ? hyd_circuit_find_component (circuit, ids[0]) : NULL;
  const HydComponentType *type = comp ? hyd_catalogue_lookup (comp->type) : NULL;

  if (type == NULL)
    {
      g_clear_pointer (&self->component_id, g_free);
      g_clear_pointer (&self->type_id, g_free);
      clear_rows (self);
      if (n == 0)
        gtk_stack_set_visible_child_name (self->stack, "circuit");
      else
        {
          g_autofree char *text
              = n == 1 ? g_strdup_printf (
                    _("Junction %s: a branch point of wires, with no parameters of its own."), ids[0])
                       : g_strdup_printf (
                           g_dngettext (GETTEXT_PACKAGE, "%u item selected", "%u items selected", n), n);
          gtk_label_set_text (self->multiple_label, text);
          gtk_stack_set_visible_child_name (self->stack, "multiple");
        }
      return;
    }

  gboolean same = g_strcmp0 (self->component_id, comp->id) == 0 && g_strcmp0 (self->type_id, comp->type) == 0;
  if (!same)
    {
      g_free (self->component_id);
      self->component_id = g_strdup (comp->id);
      g_free (self->type_id);
      self->type_id = g_strdup (comp->type);
      gtk_label_set_text (self->type_label, hyd_help_type_label (type));
      gtk_widget_queue_draw (GTK_WIDGET (self->symbol_area));
      build_rows (self, type);
    }
  sync_rows (self);
  apply_running (self);
  gtk_stack_set_visible_child_name (self->stack, "component");
}

static void
sync_circuit_page (HydPropertyPanel *self)
{
  if (self->document == NULL)
    return;
  const HydCircuit *circuit = hyd_document_get_circuit (self->document);
  if (!gtk_widget_has_focus (gtk_widget_get_first_child (GTK_WIDGET (self->title_entry))))
    gtk_editable_set_text (GTK_EDITABLE (self->title_entry), circuit->title ? circuit->title : "");
  if (!gtk_widget_has_focus (GTK_WIDGET (self->description_view)))
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->description_view);
      gtk_text_buffer_set_text (buffer, circuit->description ? circuit->description : "", -1);
    }
}

static void
document_changed_cb (HydPropertyPanel *self, HydDocument *document)
{
  sync_circuit_page (self);
  if (self->component_id == NULL)
    return;
  if (shown_component (self) == NULL)
    {
      show_selection (self, NULL);
      return;
    }
  const char *ids[] = { self->component_id, NULL };
  g_autofree char *id = g_strdup (self->component_id);
  ids[0] = id;
  show_selection (self, ids);
}

/* ---- header and circuit page ---- */

static void
symbol_draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  HydPropertyPanel *self = user_data;
  hyd_ui_draw_symbol_preview (GTK_WIDGET (area), cr, self->type_id, width, height, 8);
}

static void
help_clicked_cb (HydPropertyPanel *self)
{
  if (self->type_id)
    g_signal_emit (self, signals[SIGNAL_HELP_REQUESTED], 0, self->type_id);
}

static void
commit_name (HydPropertyPanel *self)
{
  const HydCircuitComponent *comp = shown_component (self);
  if (comp == NULL || self->running)
    return;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->name_entry));
  const char *label = *text ? text : NULL;
  if (g_strcmp0 (label, comp->label) != 0)
    hyd_document_set_label (self->document, comp->id, label);
}

static void
name_activate_cb (HydPropertyPanel *self)
{
  commit_name (self);
}

static void
commit_title (HydPropertyPanel *self)
{
  if (self->document == NULL || self->running)
    return;
  const HydCircuit *circuit = hyd_document_get_circuit (self->document);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->title_entry));
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->description_view);
  GtkTextIter start, end;
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  g_autofree char *description = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  const char *title = *text ? text : NULL;
  const char *desc = *description ? description : NULL;
  if (g_strcmp0 (title, circuit->title) != 0 || g_strcmp0 (desc, circuit->description) != 0)
    hyd_document_set_title (self->document, title, desc);
}

static void
title_activate_cb (HydPropertyPanel *self)
{
  commit_title (self);
}

static void
focus_leave_cb (GtkEventControllerFocus *controller, HydPropertyPanel *self)
{
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  if (widget == GTK_WIDGET (self->name_entry))
    commit_name (self);
  else
    commit_title (self);
}

/* ---- GObject ---- */

static void
hyd_property_panel_dispose (GObject *object)
{
  HydPropertyPanel *self = HYD_PROPERTY_PANEL (object);
  if (self->document)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  if (self->rows)
    g_ptr_array_set_size (self->rows, 0);
  gtk_widget_dispose_template (GTK_WIDGET (self), HYD_TYPE_PROPERTY_PANEL);
  G_OBJECT_CLASS (hyd_property_panel_parent_class)->dispose (object);
}

static void
hyd_property_panel_finalize (GObject *object)
{
  HydPropertyPanel *self = HYD_PROPERTY_PANEL (object);
  g_clear_pointer (&self->component_id, g_free);
  g_clear_pointer (&self->type_id, g_free);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  G_OBJECT_CLASS (hyd_property_panel_parent_class)->finalize (object);
}

static void
hyd_property_panel_class_init (HydPropertyPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hyd_property_panel_dispose;
  object_class->finalize = hyd_property_panel_finalize;

  /**
   * HydPropertyPanel::live-change:
   * @component: the component id
   * @param: the parameter
   * @value: the new value (SI, inside the range)
   *
   * A slider moved while a run is going.
   */
  signals[SIGNAL_LIVE_CHANGE] =
    g_signal_new ("live-change", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_DOUBLE);
  /**
   * HydPropertyPanel::help-requested:
   * @type_id: the component type
   */
  signals[SIGNAL_HELP_REQUESTED] =
    g_signal_new ("help-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
  /**
   * HydPropertyPanel::study-requested:
   * @component: the component id
   * @param: a numeric parameter
   *
   * "Vary in a Study…" was chosen on the parameter (its field's context
   * menu, or a right click on its name).
   */
  signals[SIGNAL_STUDY_REQUESTED] =
    g_signal_new ("study-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
  gtk_widget_class_install_action (widget_class, "panel.vary-in-study", "s", vary_in_study_action);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               BRAMAH_RESOURCE_PREFIX "/ui/hyd-property-panel.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "propertypanel");
  gtk_widget_class_bind_template_child (widget_class, HydPropertyPanel, stack);
  gtk_widget_class_bind_template_child (widget_class, HydPropertyPanel, title_entry);
  gtk_widget_class_bind_template_child (widget_class, HydPropertyPanel, description_view);
  gtk_widget_class_bind_template_child (widget_class, HydPropertyPanel, multiple_label);
  gtk_widget_class_bind_template_child (widget_class, HydPropertyPanel, symbol_area);
  gtk_widget_class_bind_template_child (widget_class, HydPropertyPanel, id_label);
  gtk_widget_class_bind_template_child (widget_class, HydPropertyPanel, type_label);
  gtk_widget_class_bind_template_child (widget_class, HydPropertyPanel, name_entry);
  gtk_widget_class_bind_template_child (widget_class, HydPropertyPanel, running_banner);
  gtk_widget_class_bind_template_child (widget_class, HydPropertyPanel, params_grid);
  gtk_widget_class_bind_template_child (widget_class, HydPropertyPanel, no_live_label);
  gtk_widget_class_bind_template_callback (widget_class, help_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, name_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, title_activate_cb);
}

static void
hyd_property_panel_init (HydPropertyPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) param_row_free);
  gtk_drawing_area_set_draw_func (self->symbol_area, symbol_draw, self, NULL);

  GtkWidget *focus_widgets[] = {
    GTK_WIDGET (self->name_entry), GTK_WIDGET (self->title_entry), GTK_WIDGET (self->description_view),
  };
  for (guint i = 0; i < G_N_ELEMENTS (focus_widgets); i++)
    {
      GtkEventController *focus = gtk_event_controller_focus_new ();
      g_signal_connect (focus, "leave", G_CALLBACK (focus_leave_cb), self);
      gtk_widget_add_controller (focus_widgets[i], focus);
    }
}

GtkWidget *
hyd_property_panel_new (void)
{
  return g_object_new (HYD_TYPE_PROPERTY_PANEL, NULL);
}

void
hyd_property_panel_set_document (HydPropertyPanel *self, HydDocument *document)
{
  g_return_if_fail (HYD_IS_PROPERTY_PANEL (self));
  if (self->document)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  if (document)
    g_signal_connect_swapped (document, "changed", G_CALLBACK (document_changed_cb), self);
  g_clear_pointer (&self->component_id, g_free);
  g_clear_pointer (&self->type_id, g_free);
  sync_circuit_page (self);
  show_selection (self, NULL);
}

void
hyd_property_panel_set_selection (HydPropertyPanel *self, const char *const *ids)
{
  g_return_if_fail (HYD_IS_PROPERTY_PANEL (self));
  show_selection (self, ids);
}

const char *
hyd_property_panel_get_component (HydPropertyPanel *self)
{
  g_return_val_if_fail (HYD_IS_PROPERTY_PANEL (self), NULL);
  return self->component_id;
}

void
hyd_property_panel_set_running (HydPropertyPanel *self, gboolean running)
{
  g_return_if_fail (HYD_IS_PROPERTY_PANEL (self));
  if (self->running == !!running)
    return;
  self->running = !!running;
  for (guint i = 0; i < self->rows->len; i++)
    {
      ParamRow *row = g_ptr_array_index (self->rows, i);
      /* a pending document edit from a slider lands before the lock */
      if (row->scale_edit_source)
        {
          g_clear_handle_id (&row->scale_edit_source, g_source_remove);
          if (!running)
            continue;
          gboolean was = self->running;
          self->running = FALSE;
          scale_edit_timeout_cb (row);
          self->running = was;
        }
      g_clear_handle_id (&row->live_source, g_source_remove);
    }
  sync_rows (self);
  apply_running (self);
}

void
hyd_property_panel_set_live_lookup (HydPropertyPanel *self, HydPropertyPanelLiveLookup lookup,
                                    gpointer user_data)
{
  g_return_if_fail (HYD_IS_PROPERTY_PANEL (self));
  self->live_lookup = lookup;
  self->live_lookup_data = user_data;
}

void
hyd_property_panel_refresh_live (HydPropertyPanel *self)
{
  g_return_if_fail (HYD_IS_PROPERTY_PANEL (self));
  if (!self->running)
    return;
  for (guint i = 0; i < self->rows->len; i++)
    sync_live_slider (self, g_ptr_array_index (self->rows, i));
}

void
hyd_property_panel_show_live_value (HydPropertyPanel *self, const char *component, const char *param,
                                    double value)
{
  g_return_if_fail (HYD_IS_PROPERTY_PANEL (self));
  if (g_strcmp0 (component, self->component_id) != 0)
    return;
  GtkWidget *scale = hyd_property_panel_get_slider (self, param);
  if (scale == NULL)
    return;
  self->updating = TRUE;
  gtk_range_set_value (GTK_RANGE (scale), value);
  self->updating = FALSE;
}

static ParamRow *
find_row (HydPropertyPanel *self, const char *param)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      ParamRow *row = g_ptr_array_index (self->rows, i);
      if (g_strcmp0 (row->info->name, param) == 0)
        return row;
    }
  return NULL;
}

const char *
hyd_property_panel_check_entries (HydPropertyPanel *self, gboolean commit, char **message)
{
  g_return_val_if_fail (HYD_IS_PROPERTY_PANEL (self), NULL);
  if (self->rows == NULL || self->document == NULL || self->component_id == NULL || self->running)
    return NULL;
  for (guint i = 0; i < self->rows->len; i++)
    {
      ParamRow *row = g_ptr_array_index (self->rows, i);
      if (!GTK_IS_ENTRY (row->editor))
        continue;
      const char *text = gtk_editable_get_text (GTK_EDITABLE (row->editor));
      JsonNode *written = written_value (self, row->info);
      if (*text == '\0' && written && JSON_NODE_HOLDS_OBJECT (written))
        continue;
      /* an optional parameter left empty stays unset */
      if (is_blank (text) && written == NULL && hyd_param_value_may_be_unset (row->info))
        continue;
      g_autofree char *why = NULL;
      if (!hyd_param_value_parse (row->info, text, NULL, &why))
        {
          show_message (row, why);
          if (message)
            *message = g_steal_pointer (&why);
          return row->info->name;
        }
      /* what the field shows is what runs: commit a valid, unsaved text */
      if (commit)
        commit_entry (row);
    }
  return NULL;
}

GtkWidget *
hyd_property_panel_get_editor (HydPropertyPanel *self, const char *param)
{
  g_return_val_if_fail (HYD_IS_PROPERTY_PANEL (self), NULL);
  ParamRow *row = find_row (self, param);
  return row ? row->editor : NULL;
}

GtkWidget *
hyd_property_panel_get_slider (HydPropertyPanel *self, const char *param)
{
  g_return_val_if_fail (HYD_IS_PROPERTY_PANEL (self), NULL);
  ParamRow *row = find_row (self, param);
  return row ? row->scale : NULL;
}

GtkWidget *
hyd_property_panel_get_reset (HydPropertyPanel *self, const char *param)
{
  g_return_val_if_fail (HYD_IS_PROPERTY_PANEL (self), NULL);
  ParamRow *row = find_row (self, param);
  return row ? row->reset : NULL;
}

GtkWidget *
hyd_property_panel_get_message (HydPropertyPanel *self, const char *param)
{
  g_return_val_if_fail (HYD_IS_PROPERTY_PANEL (self), NULL);
  ParamRow *row = find_row (self, param);
  return row ? row->message : NULL;
}
