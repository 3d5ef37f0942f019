/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-circuit-settings.c — the fluid and simulation settings of a document, with their defaults and ranges. */
#define _GNU_SOURCE /* O_TMPFILE */
#include "hyd-circuit-private.h"

/* ---------------------------------------------------------------------------
 * Fluid and simulation settings
 * ------------------------------------------------------------------------- */

/* Reads an optional number key of fluid or simulation and checks its range. */
static gboolean
setting_number (JsonObject *object, const char *section, const char *key,
                double min, double max, guint flags,
                double *value, gboolean *present, GError **error)
{
  JsonNode *node = object ? json_object_get_member (object, key) : NULL;
  double v;

  if (present)
    *present = FALSE;
  if (node == NULL)
    return TRUE;
  if (!hyd_json_node_get_number (node, &v))
    {
      g_autofree char *got = hcp_describe_node (node);
      return hcp_error (error, HYD_DIAGNOSTIC_SIMULATION, N_("%s: \"%s\" must be a number (got %s)"),
                        section, key, got, NULL);
    }
  if (!hcp_value_in_range (v, min, max, flags))
    {
      g_autofree char *range = hcp_range_text (min, max, flags);
      char buf[NUMBER_TEXT_SIZE];
      return hcp_error (error, HYD_DIAGNOSTIC_SIMULATION, N_("%s: \"%s\" must be %s (got %s)"),
                        section, key, range, hcp_number_text (v, buf), NULL);
    }
  *value = v;
  if (present)
    *present = TRUE;
  return TRUE;
}

gboolean
hyd_circuit_get_fluid (const HydCircuit *circuit, HydFluid *fluid, GError **error)
{
  JsonObject *f;
  HydFluid result;
  JsonNode *node;

  g_return_val_if_fail (circuit != NULL, FALSE);
  g_return_val_if_fail (fluid != NULL, FALSE);

  hyd_fluid_init_default (&result);
  f = circuit->fluid;
  if (f != NULL)
    {
      if (!setting_number (f, "fluid", "density", 0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE,
                           &result.density, NULL, error)
          || !setting_number (f, "fluid", "kinematic_viscosity", 0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE,
                              &result.kinematic_viscosity, NULL, error)
          || !setting_number (f, "fluid", "bulk_modulus", 0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE,
                              &result.bulk_modulus, NULL, error)
          || !setting_number (f, "fluid", "tait_a", 0, 0.5, HYD_PARAM_MIN_EXCLUSIVE,
                              &result.tait_a, NULL, error)
          || !setting_number (f, "fluid", "air_fraction", 0, 0.5, HYD_PARAM_MAX_EXCLUSIVE,
                              &result.air_fraction, NULL, error)
          || !setting_number (f, "fluid", "vapour_pressure", -100000, 0, 0,
                              &result.vapour_pressure, NULL, error)
          || !setting_number (f, "fluid", "transition_reynolds", 0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE,
                              &result.transition_reynolds, NULL, error)
          || !setting_number (f, "fluid", "discharge_coefficient", 0, 1, HYD_PARAM_MIN_EXCLUSIVE,
                              &result.discharge_coefficient, NULL, error))
        return FALSE;

      node = json_object_get_member (f, "bulk_modulus_model");
      if (node != NULL)
        {
          const char *name = hcp_node_get_string (node);
          if (name == NULL || !hyd_bulk_model_from_name (name, &result.bulk_model))
            {
              g_autofree char *got = hcp_describe_node (node);
              return hcp_error (error, HYD_DIAGNOSTIC_SIMULATION,
                                N_("fluid: \"bulk_modulus_model\" must be \"cavitating\", "
                                   "\"constant\", \"tait\" or \"air\" (got %s)"), got, NULL);
            }
        }
    }
  *fluid = result;
  return TRUE;
}

static void
sim_options_resolve_defaults (HydSimOptions *opts, double max_step, double output_interval)
{
  opts->max_step = opts->max_step_set ? max_step : opts->t_end / 10.0;
  opts->output_interval = opts->output_interval_set ? output_interval : opts->t_end / 1000.0;
}

static gboolean
read_atol (JsonNode *node, double *atol, GError **error)
{
  char buf[NUMBER_TEXT_SIZE];
  double v;

  if (hyd_json_node_get_number (node, &v))
    {
      if (!(v > 0))
        return hcp_error (error, HYD_DIAGNOSTIC_SIMULATION, N_("simulation: \"atol\" must be > 0 (got %s)"),
                          hcp_number_text (v, buf), NULL);
      for (guint k = 0; k < HYD_ATOL_N_KINDS; k++)
        atol[k] = v;
      return TRUE;
    }

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      g_autoptr(GList) members = json_object_get_members (object);

      for (GList *l = members; l != NULL; l = l->next)
        {
          const char *key = l->data;
          guint kind;

          for (kind = 0; kind < HYD_ATOL_N_KINDS; kind++)
            if (strcmp (key, hyd_atol_kind_name (kind)) == 0)
              break;
          if (kind == HYD_ATOL_N_KINDS)
            {
              g_autoptr(GString) kinds = g_string_new (NULL);
              for (guint k = 0; k < HYD_ATOL_N_KINDS; k++)
                g_string_append_printf (kinds, "%s%s", k ? ", " : "", hyd_atol_kind_name (k));
              g_autofree char *quoted = hcp_quote (key);
              return hcp_error (error, HYD_DIAGNOSTIC_SIMULATION,
                                N_("simulation: \"atol\": unknown kind of state %s (kinds: %s)"),
                                quoted, kinds->str, NULL);
            }
          if (!hyd_json_node_get_number (json_object_get_member (object, key), &v) || !(v > 0))
            {
              g_autofree char *got = hcp_describe_node (json_object_get_member (object, key));
              return hcp_error (error, HYD_DIAGNOSTIC_SIMULATION,
                                N_("simulation: \"atol\": \"%s\" must be a number > 0 (got %s)"),
                                key, got, NULL);
            }
          atol[kind] = v;
        }
      return TRUE;
    }

  {
    g_autofree char *got = hcp_describe_node (node);
    return hcp_error (error, HYD_DIAGNOSTIC_SIMULATION,
                      N_("simulation: \"atol\" must be a number > 0 or an object of numbers "
                         "per kind of state (got %s)"), got, NULL);
  }
}

gboolean
hyd_circuit_get_sim_options (const HydCircuit *circuit, HydSimOptions *opts, GError **error)
{
  HydSimOptions result = { 0 };
  g_autofree char *solver = NULL;
  double max_step = 0, output_interval = 0;
  JsonObject *s;
  JsonNode *node;

  g_return_val_if_fail (circuit != NULL, FALSE);
  g_return_val_if_fail (opts != NULL, FALSE);

  result.t_end = 5.0;
  result.rtol = 1e-4;
  for (guint k = 0; k < HYD_ATOL_N_KINDS; k++)
    result.atol[k] = hyd_atol_kind_default (k);
  result.fixed_step = 0.0;
  result.tlm_filter = NAN;
  result.threads = 0;
  result.initial_pressure = 0.0;
  result.real_time_factor = 0.0;
  result.events = TRUE;
  solver = g_strdup ("rodas4");

  s = circuit->simulation;
  if (s != NULL)
    {
      if (!setting_number (s, "simulation", "t_end", 0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE,
                           &result.t_end, NULL, error)
          || !setting_number (s, "simulation", "rtol", 0, 1,
                              HYD_PARAM_MIN_EXCLUSIVE | HYD_PARAM_MAX_EXCLUSIVE,
                              &result.rtol, NULL, error)
          || !setting_number (s, "simulation", "max_step", 0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE,
                              &max_step, &result.max_step_set, error)
          || !setting_number (s, "simulation", "output_interval", 0, INFINITY,
                              HYD_PARAM_MIN_EXCLUSIVE,
                              &output_interval, &result.output_interval_set, error)
          || !setting_number (s, "simulation", "initial_pressure", -HYD_P_ATM, INFINITY, 0,
                              &result.initial_pressure, NULL, error)
          || !setting_number (s, "simulation", "real_time_factor", 0, INFINITY, 0,
                              &result.real_time_factor, NULL, error))
        return FALSE;

      node = json_object_get_member (s, "fixed_step");
      if (node != NULL && !hcp_node_is_null (node)
          && !setting_number (s, "simulation", "fixed_step", 0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE,
                              &result.fixed_step, NULL, error))
        return FALSE;

      node = json_object_get_member (s, "solver");
      if (node != NULL)
        {
          if (hcp_node_get_string (node) == NULL)
            {
              g_autofree char *got = hcp_describe_node (node);
              return hcp_error (error, HYD_DIAGNOSTIC_SIMULATION,
                                N_("simulation: \"solver\" must be a solver id (got %s)"), got, NULL);
            }
          g_free (solver);
          solver = g_strdup (hcp_node_get_string (node));
        }

      node = json_object_get_member (s, "atol");
      if (node != NULL && !read_atol (node, result.atol, error))
        return FALSE;

      /* Extension (docs/circuit-format.md): "events": true|false */
      node = json_object_get_member (s, "events");
      if (node != NULL)
        {
          if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
            {
              g_autofree char *got = hcp_describe_node (node);
              return hcp_error (error, HYD_DIAGNOSTIC_SIMULATION,
                                N_("simulation: \"events\" must be true or false (got %s)"), got, NULL);
            }
          result.events = json_node_get_boolean (node);
        }
    }

  sim_options_resolve_defaults (&result, max_step, output_interval);
  result.solver = g_steal_pointer (&solver);
  *opts = result;
  return TRUE;
}

void
hyd_sim_options_clear (HydSimOptions *opts)
{
  g_return_if_fail (opts != NULL);
  g_clear_pointer (&opts->solver, g_free);
}

void
hyd_sim_options_set_t_end (HydSimOptions *opts, double t_end)
{
  g_return_if_fail (opts != NULL);

  opts->t_end = t_end;
  sim_options_resolve_defaults (opts, opts->max_step, opts->output_interval);
}

