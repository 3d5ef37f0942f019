/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-render.c — `bramah-cli render CIRCUIT OUT.svg|pdf|png [--scale S]`:
 * the schematic as the canvas draws it (spec/cli.md), through the symbol
 * library's exporter. With --at T it first simulates to time T and draws
 * that moment as the canvas animates it: wires and chambers in the teaching
 * pressure colours, spools, pistons, balls and readings where they are. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli-circuit.h"
#include "cli-commands.h"
#include "hyd-catalogue.h"
#include "hyd-circuit.h"
#include "hyd-run.h"
#include "hyd-schematic.h"
#include "hyd-system.h"

/* The values of one moment of a run, by variable name. */
typedef struct {
  GHashTable *values;      /* "C1.x" → double* */
  GPtrArray *names;        /* variable names asked for, in run order */
  double *last;            /* the latest sample */
  guint n;
  double t;
} Moment;

static gboolean
keep_sample (double t, const double *values, guint n_values, gpointer user)
{
  Moment *m = user;
  memcpy (m->last, values, n_values * sizeof (double));
  m->t = t;
  return TRUE;
}

static double
moment_lookup (const Moment *m, const char *name)
{
  const double *v = g_hash_table_lookup (m->values, name);
  return v ? *v : NAN;
}

static double
moment_pressure (const char *component_id, const char *port, gpointer user_data)
{
  g_autofree char *name = g_strdup_printf ("%s.%s.p", component_id, port);
  return moment_lookup (user_data, name);
}

/* Every variable of the moment that belongs to this component, under its
 * short name: "C1.x" → x, "C1.A.p" → A.p. */
static void
moment_state (const HydCircuitComponent *component, HydSymbolState *state, gpointer user_data)
{
  const Moment *m = user_data;
  size_t len = strlen (component->id);
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, m->values);
  while (g_hash_table_iter_next (&it, &k, &v))
    if (strncmp (k, component->id, len) == 0 && ((const char *) k)[len] == '.' && !isnan (*(double *) v))
      hyd_symbol_state_set (state, (const char *) k + len + 1, *(double *) v);
  hyd_symbol_state_set (state, "t", m->t);
}

static void
add_variable (HydSystem *sys, GArray *vars, GPtrArray *names, const char *name)
{
  int v = hyd_system_find_variable (sys, name);
  if (v < 0)
    return;
  for (guint i = 0; i < names->len; i++)
    if (strcmp (g_ptr_array_index (names, i), name) == 0)
      return;
  g_array_append_val (vars, v);
  g_ptr_array_add (names, g_strdup (name));
}

/* Simulate the circuit to time `at` and collect what its symbols show. */
static gboolean
simulate_moment (HydCircuit *circuit, HydSymbolLibrary *library, double at, Moment *m, GError **error)
{
  g_auto (HydSimOptions) sim = { 0 };
  if (!hyd_circuit_get_sim_options (circuit, &sim, error))
    return FALSE;
  hyd_sim_options_set_t_end (&sim, at);
  g_autoptr (HydSystem) sys = hyd_system_compile (circuit, error);
  if (sys == NULL)
    return FALSE;
  g_autoptr (GArray) vars = g_array_new (FALSE, FALSE, sizeof (int));
  m->names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < circuit->components->len; i++)
    {
      HydCircuitComponent *c = g_ptr_array_index (circuit->components, i);
      const HydComponentType *t = hyd_catalogue_lookup (c->type);
      HydSymbol *sym = hyd_symbol_library_lookup (library, c->type);
      for (guint k = 0; t && k < t->n_ports; k++)
        {
          g_autofree char *name = g_strdup_printf ("%s.%s.p", c->id, t->ports[k].name);
          add_variable (sys, vars, m->names, name);
        }
      /* the variables the symbol file binds its moving parts to */
      for (guint k = 0; sym && k < hyd_symbol_get_n_variables (sym); k++)
        {
          const HydSymbolVariable *v = hyd_symbol_get_variable (sym, k);
          if (v->is_string)
            continue;
          g_autofree char *name = g_strdup_printf ("%s.%s", c->id, v->name);
          add_variable (sys, vars, m->names, name);
        }
    }
  m->n = vars->len;
  m->last = g_new0 (double, MAX (m->n, 1));
  HydRunSpec spec = { .sim = &sim, .vars = (const int *) vars->data, .n_vars = vars->len,
                      .sample = keep_sample, .user = m };
  g_auto (HydOdeResult) res = { 0 };
  HydOdeStatus status = at > 0 ? hyd_run_execute (sys, &spec, &res, NULL) : HYD_ODE_SUCCESS;
  if (at <= 0)
    hyd_system_eval_variables (sys, 0, hyd_system_get_initial_state (sys), (const int *) vars->data, vars->len,
                               m->last);
  gboolean ok = status == HYD_ODE_SUCCESS;
  if (!ok)
    g_set_error (error, HYD_SYMBOL_ERROR, HYD_SYMBOL_ERROR_EXPORT, "the simulation to t = %g s failed: %s", at,
                 res.message ? res.message : hyd_ode_status_name (status));
  m->values = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < m->n; i++)
    g_hash_table_insert (m->values, g_ptr_array_index (m->names, i), &m->last[i]);
  return ok;
}

/* The top of the pressure ramp: the highest relief setting, or 200 bar
 * (design §3.2). */
static double
ramp_top (const HydCircuit *circuit)
{
  double top = 0;
  for (guint i = 0; i < circuit->components->len; i++)
    {
      HydCircuitComponent *c = g_ptr_array_index (circuit->components, i);
      const HydComponentType *type = hyd_catalogue_lookup (c->type);
      if (type == NULL || !(type->roles & HYD_ROLE_RELIEF_VALVE) || type->scale_param == NULL)
        continue;
      g_autoptr (HydComponentParams) params = hyd_circuit_component_get_params (c, NULL, NULL);
      double p = params ? hyd_component_params_get (params, type->scale_param) : NAN;
      if (isfinite (p))
        top = MAX (top, p);
    }
  return top > 0 ? top : 2e7;
}

static void
moment_clear (Moment *m)
{
  g_clear_pointer (&m->values, g_hash_table_unref);
  g_clear_pointer (&m->names, g_ptr_array_unref);
  g_clear_pointer (&m->last, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Moment, moment_clear)

static int
run (int argc, char **argv)
{
  g_autofree char *scale_s = NULL;
  g_autofree char *theme = NULL;
  g_autofree char *labels = NULL;
  g_autofree char *at_s = NULL;
  GOptionEntry entries[] = {
    { "scale", 0, 0, G_OPTION_ARG_STRING, &scale_s,
      "Device units per canvas unit: pixels for PNG, points for SVG and PDF (default 1 = 100 % zoom)", "S" },
    { "theme", 0, 0, G_OPTION_ARG_STRING, &theme, "light (default) or dark", "THEME" },
    { "labels", 0, 0, G_OPTION_ARG_STRING, &labels, "Component labels: all (default), ids or none", "WHICH" },
    { "at", 0, 0, G_OPTION_ARG_STRING, &at_s,
      "Simulate to time T (s) and draw that moment: pressure colours, moving parts, readings", "T" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("CIRCUIT OUT.svg|pdf|png — draw the schematic");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx, "The format follows the extension of OUT. Without --at the drawing is "
                                         "the rest state of every component, as ISO 1219 asks.");
  int st = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  if (st)
    return st;
  if (argc != 3)
    return hyd_cli_usage_error (ctx, "render needs a circuit and an output file");

  double scale = 1.0;
  if (scale_s && !hyd_cli_parse_double ("--scale", scale_s, 0, 100, HYD_CLI_MIN_EXCLUSIVE, NULL, &scale))
    return HYD_CLI_EXIT_USAGE;

  double at = -1;
  /* the same bound as simulate --t-end (docs/cli.md) */
  if (at_s && !hyd_cli_parse_double ("--at", at_s, 0, HYD_CLI_MAX_TIME, 0, "s", &at))
    return HYD_CLI_EXIT_USAGE;

  const char *out = argv[2];
  g_autofree char *lower = g_ascii_strdown (out, -1);
  if (!g_str_has_suffix (lower, ".svg") && !g_str_has_suffix (lower, ".pdf") && !g_str_has_suffix (lower, ".png"))
    return hyd_cli_usage_error (NULL, "the output file must end in .svg, .pdf or .png, not '%s'",
                                hyd_cli_qpath (out));

  HydSchematicOptions opts;
  hyd_schematic_options_init (&opts);
  if (labels && strcmp (labels, "ids") == 0)
    opts.flags &= ~HYD_SCHEMATIC_SHOW_NAMES;
  else if (labels && strcmp (labels, "none") == 0)
    opts.flags &= ~(HYD_SCHEMATIC_SHOW_IDS | HYD_SCHEMATIC_SHOW_NAMES);
  else if (labels && strcmp (labels, "all") != 0)
    return hyd_cli_usage_error (NULL, "--labels must be all, ids or none, not '%s'", hyd_cli_q (labels));
  /* light is the exporter's own choice: the screen theme for PNG, print
   * widths for SVG and PDF */
  HydSymbolStyle style;
  gboolean dark = theme && strcmp (theme, "dark") == 0;
  if (dark)
    {
      hyd_symbol_style_init_dark (&style);
      opts.style = &style;
    }
  else if (theme && strcmp (theme, "light") != 0)
    return hyd_cli_usage_error (NULL, "--theme must be light or dark, not '%s'", hyd_cli_q (theme));

  g_autoptr (HydCircuit) circuit = hyd_cli_load_circuit (argv[1], &st);
  if (circuit == NULL)
    return st;
  g_autoptr (GError) error = NULL;
  opts.library = hyd_symbol_library_get_default (&error);
  if (opts.library == NULL)
    return hyd_cli_failed_error (error);
  g_auto (Moment) moment = { 0 };
  if (at >= 0)
    {
      if (!simulate_moment (circuit, opts.library, at, &moment, &error))
        return hyd_cli_failed_error (error);
      /* colours need a style to carry the ramp's range */
      if (!dark)
        {
          g_autofree char *lower_out = g_ascii_strdown (out, -1);
          if (g_str_has_suffix (lower_out, ".png"))
            hyd_symbol_style_init_light (&style);
          else
            hyd_symbol_style_init_print (&style);
        }
      style.pressure_max = ramp_top (circuit);
      opts.style = &style;
      opts.flags |= HYD_SCHEMATIC_PRESSURE_COLOURS;
      opts.port_pressure = moment_pressure;
      opts.component_state = moment_state;
      opts.user_data = &moment;
    }
  /* drawn to a temporary beside OUT and renamed over it when complete: a
   * failed export leaves OUT as it was (no empty file) */
  g_autoptr (HydCliOutput) target = hyd_cli_output_open_path (out, &error);
  gboolean ok = target != NULL
                && hyd_schematic_export (circuit, hyd_cli_output_write_path (target), scale, &opts, &error);
  moment_clear (&moment);
  if (ok)
    ok = hyd_cli_output_commit (g_steal_pointer (&target), &error);
  if (!ok && target != NULL)
    {
      /* the exporter names the file it wrote: the user's is OUT */
      g_auto (GStrv) parts = g_strsplit (error->message, hyd_cli_output_write_path (target), -1);
      g_autofree char *message = g_strjoinv (out, parts);
      g_free (error->message);
      error->message = g_steal_pointer (&message);
    }
  if (!ok)
    return hyd_cli_failed_error (error);
  return HYD_CLI_EXIT_OK;
}

const HydCliCommand hyd_cli_render_command = {
  HYD_CLI_RENDER_NAME_SUMMARY, run,
};
