/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-sim-bar.c — the simulation bar. */
#define G_LOG_DOMAIN "hyd-sim-bar"

#include "bramah-config.h"
#include "hyd-sim-bar.h"
#include "hyd-diagnostic.h"

#include <glib/gi18n.h>
#include <math.h>
#include "hyd-ode.h"

/* The real-time factors of the speed choices, in the template's order. */
static const double speed_factors[] = { 0.0, 1.0, 0.1 };
/* The speed of a circuit whose file names none: real time. */
#define SPEED_DEFAULT 1

struct _HydSimBar
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *box;
  GtkDropDown *solver_dropdown;
  GtkEntry *t_end_entry;
  GtkEntry *rtol_entry;
  GtkDropDown *speed_dropdown;
  GtkWidget *tlm_box;
  GtkSpinButton *threads_spin;
  GtkSpinButton *filter_spin;
  GtkCheckButton *ghost_check;
  GtkProgressBar *progress_bar;
  GtkScale *time_scale;

  /* Owned */
  HydDocument *document;
  GPtrArray *solver_ids;     /* of const char*, in the dropdown's order */

  guint updating : 1;
  guint running : 1;
};

G_DEFINE_FINAL_TYPE (HydSimBar, hyd_sim_bar, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_REAL_TIME_FACTOR,
  PROP_KEEP_GHOST,
  PROP_TLM_THREADS,
  PROP_TLM_FILTER,
  N_PROPS
};
enum { SIGNAL_REPLAY, N_SIGNALS };
static guint signals[N_SIGNALS];

static GParamSpec *properties[N_PROPS];

/* ---- reading the document's settings ---- */

static void
set_entry_text_unless_focused (GtkEntry *entry, const char *text)
{
  GtkWidget *widget = GTK_WIDGET (entry);
  /* never overwrite what the user is typing */
  if (gtk_widget_has_focus (widget) || gtk_widget_is_focus (widget)
      || gtk_widget_has_css_class (widget, "error"))
    return;
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (entry)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (entry), text);
}

static void
sync_from_document (HydSimBar *self, gboolean with_speed)
{
  if (self->document == NULL)
    return;
  HydSimOptions opts = { 0 };
  if (!hyd_circuit_get_sim_options (hyd_document_get_circuit (self->document), &opts, NULL))
    {
      hyd_sim_options_clear (&opts);
      return;
    }

  self->updating = TRUE;
  for (guint i = 0; i < self->solver_ids->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->solver_ids, i), opts.solver) == 0)
      gtk_drop_down_set_selected (self->solver_dropdown, i);

  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *t_end = g_strdup (g_ascii_formatd (buf, sizeof buf, "%g", opts.t_end));
  set_entry_text_unless_focused (self->t_end_entry, t_end);
  set_entry_text_unless_focused (self->rtol_entry, g_ascii_formatd (buf, sizeof buf, "%g", opts.rtol));

  if (with_speed)
    {
      /* A circuit that does not ask for a speed is watched in real time
       * (issue 8): "as fast as possible" finishes most examples before
       * anything is seen. The engine's own default (bramah-cli) stays 0. */
      const HydCircuit *circuit = hyd_document_get_circuit (self->document);
      gboolean asked = circuit->simulation && json_object_has_member (circuit->simulation, "real_time_factor");
      guint speed = SPEED_DEFAULT;
      for (guint i = 0; asked && i < G_N_ELEMENTS (speed_factors); i++)
        if (fabs (opts.real_time_factor - speed_factors[i]) < 1e-9)
          speed = i;
      gtk_drop_down_set_selected (self->speed_dropdown, speed);
    }
  self->updating = FALSE;

  hyd_sim_options_clear (&opts);
}

static void
document_changed_cb (HydSimBar *self, HydDocument *document)
{
  sync_from_document (self, FALSE);
}

/* ---- editing them ---- */

static void
set_setting (HydSimBar *self, const char *key, JsonNode *value, GtkWidget *widget)
{
  g_autoptr (GError) error = NULL;
  if (self->document == NULL)
    return;
  if (!hyd_document_set_setting (self->document, "simulation", key, value, &error))
    {
      if (widget)
        {
          gtk_widget_add_css_class (widget, "error");
          g_autofree char *why = hyd_diagnostic_dup_error_message (error, GETTEXT_PACKAGE);
          gtk_widget_set_tooltip_text (widget, why);
        }
      return;
    }
}

static gboolean
parse_number (const char *text, double *value)
{
  g_autofree char *s = g_strstrip (g_strdup (text));
  /* the locale's decimal comma is accepted as well as '.' */
  g_strdelimit (s, ",", '.');
  char *end = NULL;
  double v = g_ascii_strtod (s, &end);
  if (end == s || *end != '\0' || !isfinite (v))
    return FALSE;
  *value = v;
  return TRUE;
}

static gboolean
validate_entry (GtkEntry *entry, double lo, double hi, const char *message, double *value)
{
  double v;
  gboolean ok = parse_number (gtk_editable_get_text (GTK_EDITABLE (entry)), &v) && v > lo && v < hi;
  if (ok)
    {
      gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry), NULL);
      if (value)
        *value = v;
    }
  else
    {
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry), message);
    }
  return ok;
}

static void
t_end_changed_cb (HydSimBar *self, GtkEntry *entry)
{
  if (!self->updating)
    validate_entry (entry, 0, INFINITY, _("The end time must be a number of seconds above 0"), NULL);
}

static void
commit_t_end (HydSimBar *self)
{
  double v;
  if (!validate_entry (self->t_end_entry, 0, INFINITY, _("The end time must be a number of seconds above 0"),
                       &v))
    return;
  HydSimOptions opts = { 0 };
  gboolean same = hyd_circuit_get_sim_options (hyd_document_get_circuit (self->document), &opts, NULL)
                  && opts.t_end == v;
  hyd_sim_options_clear (&opts);
  if (same)
    return;
  g_autoptr (JsonNode) node = json_node_init_double (json_node_alloc (), v);
  set_setting (self, "t_end", node, GTK_WIDGET (self->t_end_entry));
}

static void
t_end_activate_cb (HydSimBar *self, GtkEntry *entry)
{
  if (self->document)
    commit_t_end (self);
}

static void
rtol_changed_cb (HydSimBar *self, GtkEntry *entry)
{
  if (!self->updating)
    validate_entry (entry, 0, 1, _("The tolerance must be a number between 0 and 1, e.g. 1e-4"), NULL);
}

static void
commit_rtol (HydSimBar *self)
{
  double v;
  if (!validate_entry (self->rtol_entry, 0, 1,
                       _("The tolerance must be a number between 0 and 1, e.g. 1e-4"), &v))
    return;
  HydSimOptions opts = { 0 };
  gboolean same = hyd_circuit_get_sim_options (hyd_document_get_circuit (self->document), &opts, NULL)
                  && opts.rtol == v;
  hyd_sim_options_clear (&opts);
  if (same)
    return;
  g_autoptr (JsonNode) node = json_node_init_double (json_node_alloc (), v);
  set_setting (self, "rtol", node, GTK_WIDGET (self->rtol_entry));
}

static void
rtol_activate_cb (HydSimBar *self, GtkEntry *entry)
{
  if (self->document)
    commit_rtol (self);
}

static void
entry_focus_leave_cb (GtkEventControllerFocus *controller, HydSimBar *self)
{
  GtkWidget *entry = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  if (self->document == NULL)
    return;
  if (entry == GTK_WIDGET (self->t_end_entry))
    commit_t_end (self);
  else
    commit_rtol (self);
}

/* The tlm solver's settings show only while tlm is chosen. */
static void
update_tlm_box (HydSimBar *self)
{
  gtk_widget_set_visible (self->tlm_box, g_strcmp0 (hyd_sim_bar_get_solver (self), "tlm") == 0);
}

/* The button that opens them (an icon: the bar has no room for more) says
 * in its tooltip what they are now. */
static void
update_tlm_label (HydSimBar *self)
{
  /* translators: the tooltip of the tlm solver's settings button in the run
   * bar: "Settings of the tlm solver: threads 2, filter 0.20. ..." */
  g_autofree char *tip = g_strdup_printf (_("Settings of the tlm solver: threads %u, filter %.2f. Settings of this "
                                            "computer, not saved in the circuit."),
                                          hyd_sim_bar_get_tlm_threads (self), hyd_sim_bar_get_tlm_filter (self));
  gtk_widget_set_tooltip_text (self->tlm_box, tip);
}

static void
threads_changed_cb (HydSimBar *self, GtkSpinButton *spin)
{
  update_tlm_label (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TLM_THREADS]);
}

static void
filter_changed_cb (HydSimBar *self, GtkSpinButton *spin)
{
  update_tlm_label (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TLM_FILTER]);
}

static void
solver_changed_cb (GObject *object, GParamSpec *pspec, HydSimBar *self)
{
  update_tlm_box (self);
  guint i = gtk_drop_down_get_selected (self->solver_dropdown);
  if (self->updating || self->document == NULL || i >= self->solver_ids->len)
    return;
  const char *id = g_ptr_array_index (self->solver_ids, i);
  HydSimOptions opts = { 0 };
  gboolean same = hyd_circuit_get_sim_options (hyd_document_get_circuit (self->document), &opts, NULL)
                  && g_strcmp0 (opts.solver, id) == 0;
  hyd_sim_options_clear (&opts);
  if (same)
    return;
  g_autoptr (JsonNode) node = json_node_init_string (json_node_alloc (), id);
  set_setting (self, "solver", node, GTK_WIDGET (self->solver_dropdown));
}

/* The playback speed is read from the file but not written back: choosing
 * how fast to watch a run does not change the circuit. */
static void
speed_changed_cb (HydSimBar *self, GParamSpec *pspec, GtkDropDown *dropdown)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REAL_TIME_FACTOR]);
}

static void
time_scale_changed_cb (HydSimBar *self, GtkRange *range)
{
  if (self->updating)
    return;
  g_signal_emit (self, signals[SIGNAL_REPLAY], 0, gtk_range_get_value (range));
}

static void
ghost_toggled_cb (HydSimBar *self, GtkCheckButton *check)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KEEP_GHOST]);
}

/* ---- the solver list ---- */

static void
solver_item_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data)
{
  GtkWidget *label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_list_item_set_child (item, label);
}

static void
solver_item_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data)
{
  gboolean detailed = GPOINTER_TO_INT (user_data);
  GtkStringObject *object = gtk_list_item_get_item (item);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  const char *id = gtk_string_object_get_string (object);
  const HydSolverInfo *info = hyd_solver_lookup (id);
  if (!detailed || info == NULL)
    {
      gtk_label_set_text (label, id);
      return;
    }
  g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>  <small>%s · %s%s</small>", id, info->family,
                                                     info->order ? info->order : "",
                                                     info->implicit ? _(" · implicit") : _(" · explicit"));
  gtk_label_set_markup (label, markup);
}

/* ---- GObject ---- */

static void
hyd_sim_bar_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  HydSimBar *self = HYD_SIM_BAR (object);
  switch (prop_id)
    {
    case PROP_REAL_TIME_FACTOR:
      g_value_set_double (value, hyd_sim_bar_get_real_time_factor (self));
      break;
    case PROP_KEEP_GHOST:
      g_value_set_boolean (value, hyd_sim_bar_get_keep_ghost (self));
      break;
    case PROP_TLM_THREADS:
      g_value_set_uint (value, hyd_sim_bar_get_tlm_threads (self));
      break;
    case PROP_TLM_FILTER:
      g_value_set_double (value, hyd_sim_bar_get_tlm_filter (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hyd_sim_bar_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  HydSimBar *self = HYD_SIM_BAR (object);
  switch (prop_id)
    {
    case PROP_KEEP_GHOST:
      hyd_sim_bar_set_keep_ghost (self, g_value_get_boolean (value));
      break;
    case PROP_TLM_THREADS:
      hyd_sim_bar_set_tlm_threads (self, g_value_get_uint (value));
      break;
    case PROP_TLM_FILTER:
      hyd_sim_bar_set_tlm_filter (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hyd_sim_bar_dispose (GObject *object)
{
  HydSimBar *self = HYD_SIM_BAR (object);
  if (self->document)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  gtk_widget_dispose_template (GTK_WIDGET (self), HYD_TYPE_SIM_BAR);
  G_OBJECT_CLASS (hyd_sim_bar_parent_class)->dispose (object);
}

static void
hyd_sim_bar_finalize (GObject *object)
{
  HydSimBar *self = HYD_SIM_BAR (object);
  g_clear_pointer (&self->solver_ids, g_ptr_array_unref);
  G_OBJECT_CLASS (hyd_sim_bar_parent_class)->finalize (object);
}

static void
hyd_sim_bar_class_init (HydSimBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = hyd_sim_bar_get_property;
  object_class->set_property = hyd_sim_bar_set_property;
  object_class->dispose = hyd_sim_bar_dispose;
  object_class->finalize = hyd_sim_bar_finalize;

  properties[PROP_REAL_TIME_FACTOR] =
    g_param_spec_double ("real-time-factor", NULL, NULL, 0, G_MAXDOUBLE, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_KEEP_GHOST] =
    g_param_spec_boolean ("keep-ghost", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TLM_THREADS] =
    g_param_spec_uint ("tlm-threads", NULL, NULL, 1, G_MAXUINT, 1,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TLM_FILTER] =
    g_param_spec_double ("tlm-filter", NULL, NULL, 0, HYD_SIM_BAR_TLM_FILTER_MAX, HYD_SIM_BAR_TLM_FILTER_DEFAULT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, BRAMAH_RESOURCE_PREFIX "/ui/hyd-sim-bar.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "simbar");
  gtk_widget_class_bind_template_child (widget_class, HydSimBar, box);
  gtk_widget_class_bind_template_child (widget_class, HydSimBar, solver_dropdown);
  gtk_widget_class_bind_template_child (widget_class, HydSimBar, t_end_entry);
  gtk_widget_class_bind_template_child (widget_class, HydSimBar, rtol_entry);
  gtk_widget_class_bind_template_child (widget_class, HydSimBar, speed_dropdown);
  gtk_widget_class_bind_template_child (widget_class, HydSimBar, ghost_check);
  gtk_widget_class_bind_template_child (widget_class, HydSimBar, tlm_box);
  gtk_widget_class_bind_template_child (widget_class, HydSimBar, threads_spin);
  gtk_widget_class_bind_template_child (widget_class, HydSimBar, filter_spin);
  gtk_widget_class_bind_template_callback (widget_class, threads_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_child (widget_class, HydSimBar, progress_bar);
  gtk_widget_class_bind_template_callback (widget_class, t_end_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, t_end_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, rtol_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, rtol_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, speed_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, time_scale_changed_cb);
  gtk_widget_class_bind_template_child (widget_class, HydSimBar, time_scale);
  /**
   * HydSimBar::replay:
   * @time: the simulated time chosen on the replay slider, in s
   */
  signals[SIGNAL_REPLAY] = g_signal_new ("replay", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                         NULL, G_TYPE_NONE, 1, G_TYPE_DOUBLE);
  gtk_widget_class_bind_template_callback (widget_class, ghost_toggled_cb);
}

static void
hyd_sim_bar_init (HydSimBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->solver_ids = g_ptr_array_new ();
  g_autoptr (GtkStringList) ids = gtk_string_list_new (NULL);
  guint n_solvers;
  const HydSolverInfo *solvers = hyd_solver_list (&n_solvers);
  for (guint i = 0; i < n_solvers; i++)
    {
      gtk_string_list_append (ids, solvers[i].id);
      g_ptr_array_add (self->solver_ids, (gpointer) solvers[i].id);
    }
  gtk_drop_down_set_model (self->solver_dropdown, G_LIST_MODEL (ids));
  /* the button shows the id; the list says what each method is */
  g_autoptr (GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (solver_item_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (solver_item_bind_cb), GINT_TO_POINTER (FALSE));
  gtk_drop_down_set_factory (self->solver_dropdown, factory);
  g_autoptr (GtkListItemFactory) list_factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (list_factory, "setup", G_CALLBACK (solver_item_setup_cb), NULL);
  g_signal_connect (list_factory, "bind", G_CALLBACK (solver_item_bind_cb), GINT_TO_POINTER (TRUE));
  gtk_drop_down_set_list_factory (self->solver_dropdown, list_factory);
  g_signal_connect (self->solver_dropdown, "notify::selected", G_CALLBACK (solver_changed_cb), self);

  GtkWidget *entries[] = { GTK_WIDGET (self->t_end_entry), GTK_WIDGET (self->rtol_entry) };
  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      GtkEventController *focus = gtk_event_controller_focus_new ();
      g_signal_connect (focus, "leave", G_CALLBACK (entry_focus_leave_cb), self);
      gtk_widget_add_controller (entries[i], focus);
    }

  gtk_check_button_set_active (self->ghost_check, TRUE);

  /* threads: one to the processors this computer has */
  gtk_spin_button_set_range (self->threads_spin, 1, MAX (1, g_get_num_processors ()));
  update_tlm_box (self);
  update_tlm_label (self);
}

GtkWidget *
hyd_sim_bar_new (void)
{
  return g_object_new (HYD_TYPE_SIM_BAR, NULL);
}

void
hyd_sim_bar_set_document (HydSimBar *self, HydDocument *document)
{
  g_return_if_fail (HYD_IS_SIM_BAR (self));
  if (self->document)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  if (document)
    {
      g_signal_connect_swapped (document, "changed", G_CALLBACK (document_changed_cb), self);
      GtkWidget *entries[] = { GTK_WIDGET (self->t_end_entry), GTK_WIDGET (self->rtol_entry) };
      for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
        {
          gtk_widget_remove_css_class (entries[i], "error");
          gtk_widget_set_tooltip_text (entries[i], NULL);
        }
      sync_from_document (self, TRUE);
    }
}

void
hyd_sim_bar_set_running (HydSimBar *self, gboolean running)
{
  g_return_if_fail (HYD_IS_SIM_BAR (self));
  self->running = !!running;
  gtk_widget_set_sensitive (GTK_WIDGET (self->solver_dropdown), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->t_end_entry), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->rtol_entry), !running);
  gtk_widget_set_sensitive (self->tlm_box, !running);
}

void
hyd_sim_bar_set_progress (HydSimBar *self, double fraction, const char *text)
{
  g_return_if_fail (HYD_IS_SIM_BAR (self));
  gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (isfinite (fraction) ? fraction : 0, 0, 1));
  gtk_progress_bar_set_text (self->progress_bar, text);
}

double
hyd_sim_bar_get_real_time_factor (HydSimBar *self)
{
  g_return_val_if_fail (HYD_IS_SIM_BAR (self), 0);
  guint i = gtk_drop_down_get_selected (self->speed_dropdown);
  return i < G_N_ELEMENTS (speed_factors) ? speed_factors[i] : 0;
}

gboolean
hyd_sim_bar_get_keep_ghost (HydSimBar *self)
{
  g_return_val_if_fail (HYD_IS_SIM_BAR (self), FALSE);
  return gtk_check_button_get_active (self->ghost_check);
}

void
hyd_sim_bar_set_keep_ghost (HydSimBar *self, gboolean keep_ghost)
{
  g_return_if_fail (HYD_IS_SIM_BAR (self));
  gtk_check_button_set_active (self->ghost_check, keep_ghost);
}

const char *
hyd_sim_bar_get_solver (HydSimBar *self)
{
  g_return_val_if_fail (HYD_IS_SIM_BAR (self), NULL);
  guint i = gtk_drop_down_get_selected (self->solver_dropdown);
  return i < self->solver_ids->len ? g_ptr_array_index (self->solver_ids, i) : HYD_SOLVER_DEFAULT;
}

GtkWidget *
hyd_sim_bar_get_solver_widget (HydSimBar *self)
{
  g_return_val_if_fail (HYD_IS_SIM_BAR (self), NULL);
  return GTK_WIDGET (self->solver_dropdown);
}

guint
hyd_sim_bar_get_tlm_threads (HydSimBar *self)
{
  g_return_val_if_fail (HYD_IS_SIM_BAR (self), 1);
  return (guint) MAX (1, gtk_spin_button_get_value_as_int (self->threads_spin));
}

void
hyd_sim_bar_set_tlm_threads (HydSimBar *self, guint threads)
{
  g_return_if_fail (HYD_IS_SIM_BAR (self));
  /* clamped to the processors of this computer */
  gtk_spin_button_set_value (self->threads_spin, threads);
}

double
hyd_sim_bar_get_tlm_filter (HydSimBar *self)
{
  g_return_val_if_fail (HYD_IS_SIM_BAR (self), HYD_SIM_BAR_TLM_FILTER_DEFAULT);
  return CLAMP (gtk_spin_button_get_value (self->filter_spin), 0, HYD_SIM_BAR_TLM_FILTER_MAX);
}

void
hyd_sim_bar_set_tlm_filter (HydSimBar *self, double filter)
{
  g_return_if_fail (HYD_IS_SIM_BAR (self));
  gtk_spin_button_set_value (self->filter_spin, isfinite (filter) ? filter : HYD_SIM_BAR_TLM_FILTER_DEFAULT);
}

void
hyd_sim_bar_set_replay (HydSimBar *self, double t0, double t1, double t)
{
  g_return_if_fail (HYD_IS_SIM_BAR (self));
  gboolean show = isfinite (t0) && isfinite (t1) && t1 > t0;
  gtk_widget_set_visible (GTK_WIDGET (self->time_scale), show);
  if (!show)
    return;
  self->updating = TRUE;
  double span = t1 - t0;
  gtk_range_set_range (GTK_RANGE (self->time_scale), t0, t1);
  gtk_range_set_increments (GTK_RANGE (self->time_scale), span / 500, span / 20);
  gtk_scale_set_digits (self->time_scale, span >= 100 ? 0 : span >= 10 ? 1 : span >= 1 ? 2 : 3);
  gtk_range_set_value (GTK_RANGE (self->time_scale), isfinite (t) ? CLAMP (t, t0, t1) : t1);
  self->updating = FALSE;
}

double
hyd_sim_bar_get_replay_time (HydSimBar *self)
{
  g_return_val_if_fail (HYD_IS_SIM_BAR (self), NAN);
  if (!gtk_widget_get_visible (GTK_WIDGET (self->time_scale)))
    return NAN;
  return gtk_range_get_value (GTK_RANGE (self->time_scale));
}

GtkWidget *
hyd_sim_bar_get_replay_scale (HydSimBar *self)
{
  g_return_val_if_fail (HYD_IS_SIM_BAR (self), NULL);
  return GTK_WIDGET (self->time_scale);
}
