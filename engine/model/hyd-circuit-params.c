/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-circuit-params.c — a component's parameters: resolved to SI values and profiles, the typed view, values from the command line. */
#define _GNU_SOURCE /* O_TMPFILE */
#include "hyd-circuit-private.h"

/* ---------------------------------------------------------------------------
 * Parameters
 * ------------------------------------------------------------------------- */

static char *
param_names (const HydComponentType *type)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < type->n_params; i++)
    g_string_append_printf (names, "%s%s", i ? ", " : "", type->params[i].name);
  return g_string_free (names, FALSE);
}

static gboolean
unknown_param_error (const HydCircuitComponent *component, const HydComponentType *type,
                     const char *name, GError **error)
{
  g_autofree char *names = NULL;
  g_autofree char *id = hcp_quote (component->id);
  g_autofree char *quoted = hcp_quote (name);

  if (type->n_params == 0)
    return hcp_component_error (error, HYD_DIAGNOSTIC_UNKNOWN_PARAM, component->id, NULL, name,
                            N_("component %s (%s): unknown parameter %s (it has no parameters)"),
                            id, type->id, quoted, NULL);
  names = param_names (type);
  return hcp_component_error (error, HYD_DIAGNOSTIC_UNKNOWN_PARAM, component->id, NULL, name,
                          N_("component %s (%s): unknown parameter %s (valid: %s)"),
                          id, type->id, quoted, names, NULL);
}

static char *
choice_list (const HydParamInfo *info)
{
  GString *list = g_string_new (NULL);

  for (guint i = 0; info->choices != NULL && info->choices[i] != NULL; i++)
    g_string_append_printf (list, "%s\"%s\"", i ? ", " : "", info->choices[i]);
  return g_string_free (list, FALSE);
}

static gboolean
range_error (const HydCircuitComponent *component, const HydParamInfo *info,
             double lo, double hi, gboolean is_profile, GError **error)
{
  g_autofree char *range = hcp_range_text (info->min, info->max, info->flags);
  char lo_text[NUMBER_TEXT_SIZE], hi_text[NUMBER_TEXT_SIZE];

  hcp_number_text (lo, lo_text);
  hcp_number_text (hi, hi_text);
  if (is_profile)
    return hcp_component_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, component->id, NULL, info->name,
                            N_("component \"%s\", parameter \"%s\": the profile takes values "
                               "from %s to %s, but the value must be %s"),
                            component->id, info->name, lo_text, hi_text, range, NULL);
  return hcp_component_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, component->id, NULL, info->name,
                          N_("component \"%s\", parameter \"%s\": %s is out of range "
                             "(must be %s)"),
                          component->id, info->name, lo_text, range, NULL);
}

/* The value of one parameter (and its profile, for profile parameters). */
static gboolean
resolve_param (const HydCircuitComponent *component, const HydParamInfo *info,
               JsonNode *node, const HydFluid *fluid,
               double *value, HydProfile **profile, GError **error)
{
  char buf[NUMBER_TEXT_SIZE];
  double v;

  *profile = NULL;

  if (node == NULL || (hcp_node_is_null (node) && (info->flags & HYD_PARAM_OPTIONAL)))
    {
      if (info->flags & HYD_PARAM_OPTIONAL)
        v = NAN;
      else if (info->flags & HYD_PARAM_FLUID_CD)
        v = fluid->discharge_coefficient;
      else
        v = info->def;
      if ((info->flags & HYD_PARAM_PROFILE) && !isnan (v))
        *profile = hyd_profile_new_constant (v);
      *value = v;
      return TRUE;
    }

  if (info->flags & HYD_PARAM_REFERENCE)
    {
      /* a component's id; whether it exists is the circuit's check
       * (hyd_circuit_validate), what it has the compiler's */
      const char *s = hcp_node_get_string (node);
      if (s == NULL || s[0] == '\0')
        {
          g_autofree char *got = hcp_describe_node (node);
          return hcp_component_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, component->id, NULL,
                                      info->name,
                                      N_("component \"%s\", parameter \"%s\": expected the id of a "
                                         "component (got %s)"),
                                      component->id, info->name, got, NULL);
        }
      *value = NAN;
      return TRUE;
    }

  if (info->flags & HYD_PARAM_ENUM)
    {
      const char *s = hcp_node_get_string (node);

      for (guint i = 0; s != NULL && info->choices != NULL && info->choices[i] != NULL; i++)
        if (strcmp (s, info->choices[i]) == 0)
          {
            *value = i;
            return TRUE;
          }
      {
        g_autofree char *choices = choice_list (info);
        g_autofree char *got = hcp_describe_node (node);
        return hcp_component_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, component->id, NULL,
                                info->name,
                                N_("component \"%s\", parameter \"%s\": expected one of %s "
                                   "(got %s)"),
                                component->id, info->name, choices, got, NULL);
      }
    }

  if (info->flags & HYD_PARAM_PROFILE)
    {
      g_autoptr(GError) local_error = NULL;
      g_autoptr(HydProfile) p = hyd_profile_new_from_json (node, &local_error);
      double lo, hi;

      if (p == NULL)
        {
          /* the profile's own sentence is translated with this one */
          HydDiagnostic *d = hyd_diagnostic_new ((HydDiagnosticCode) local_error->code, HYD_SEVERITY_ERROR,
                                                 N_("component \"%s\", parameter \"%s\": %s"),
                                                 component->id, info->name, local_error->message, NULL);
          hyd_diagnostic_set_phrase_from_error (d, 2, local_error);
          hyd_diagnostic_set_component (d, component->id);
          hyd_diagnostic_set_parameter (d, info->name);
          return hyd_diagnostic_set_error (error, d);
        }
      hyd_profile_get_range (p, &lo, &hi);
      if (!hcp_value_in_range (lo, info->min, info->max, info->flags)
          || !hcp_value_in_range (hi, info->min, info->max, info->flags))
        return range_error (component, info, lo, hi, !hyd_profile_is_constant (p), error);
      if ((info->flags & HYD_PARAM_INTEGER) && hyd_profile_is_constant (p) && lo != floor (lo))
        return hcp_component_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, component->id, NULL,
                                info->name,
                                N_("component \"%s\", parameter \"%s\": must be a whole number "
                                   "(got %s)"),
                                component->id, info->name, hcp_number_text (lo, buf), NULL);
      *value = hyd_profile_value_after (p, 0.0);
      *profile = g_steal_pointer (&p);
      return TRUE;
    }

  if (!hyd_json_node_get_number (node, &v))
    {
      g_autofree char *got = hcp_describe_node (node);

      if (JSON_NODE_HOLDS_OBJECT (node))
        return hcp_component_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, component->id, NULL,
                                info->name,
                                N_("component \"%s\", parameter \"%s\": takes a number, not a "
                                   "profile"),
                                component->id, info->name, NULL);
      return hcp_component_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, component->id, NULL, info->name,
                              N_("component \"%s\", parameter \"%s\": expected a number "
                                 "(got %s)"),
                              component->id, info->name, got, NULL);
    }
  if ((info->flags & HYD_PARAM_INTEGER) && v != floor (v))
    return hcp_component_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, component->id, NULL, info->name,
                            N_("component \"%s\", parameter \"%s\": must be a whole number "
                               "(got %s)"),
                            component->id, info->name, hcp_number_text (v, buf), NULL);
  if (!hcp_value_in_range (v, info->min, info->max, info->flags))
    return range_error (component, info, v, v, FALSE, error);
  *value = v;
  return TRUE;
}

/* Parameters of one type fit on the stack (the catalogue's largest has a
 * dozen); more go to the heap. */
#define RESOLVE_STACK_PARAMS 32

gboolean
hyd_circuit_component_resolve_params (const HydCircuitComponent *component,
                                      const HydFluid *fluid,
                                      double *values,
                                      HydProfile **profiles,
                                      GError **error)
{
  const HydComponentType *type;
  double vals_stack[RESOLVE_STACK_PARAMS];
  HydProfile *profs_stack[RESOLVE_STACK_PARAMS];
  g_autofree double *vals_heap = NULL;
  g_autofree HydProfile **profs_heap = NULL;
  double *vals = vals_stack;
  HydProfile **profs = profs_stack;
  HydFluid default_fluid;
  JsonObjectIter iter;
  const char *member;
  gboolean ok = TRUE;
  guint n;

  g_return_val_if_fail (component != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  type = hyd_catalogue_lookup (component->type);
  if (type == NULL)
    {
      g_autofree char *id = hcp_quote (component->id);
      g_autofree char *type_name = hcp_quote (component->type);
      return hcp_component_error (error, HYD_DIAGNOSTIC_UNKNOWN_TYPE, component->id, NULL, NULL,
                              N_("component %s: unknown type %s"), id, type_name, NULL);
    }
  if (fluid == NULL)
    {
      hyd_fluid_init_default (&default_fluid);
      fluid = &default_fluid;
    }

  /* in the order written, so that the first unknown one is named */
  json_object_iter_init_ordered (&iter, component->params);
  while (json_object_iter_next_ordered (&iter, &member, NULL))
    if (hyd_component_type_find_param (type, member) < 0)
      return unknown_param_error (component, type, member, error);

  n = type->n_params;
  if (n > RESOLVE_STACK_PARAMS)
    {
      vals = vals_heap = g_new0 (double, n);
      profs = profs_heap = g_new0 (HydProfile *, n);
    }
  memset (profs, 0, n * sizeof (HydProfile *));
  for (guint i = 0; i < n && ok; i++)
    {
      const HydParamInfo *info = &type->params[i];
      JsonNode *node = json_object_get_member (component->params, info->name);

      ok = resolve_param (component, info, node, fluid, &vals[i], &profs[i], error);
    }

  if (ok && type->validate != NULL)
    {
      /* the type's cross rules read the values through an instance: one on
       * the stack, whose par are these values */
      double zeros[RESOLVE_STACK_PARAMS] = { 0 };
      g_autofree double *zeros_heap = n > RESOLVE_STACK_PARAMS ? g_new0 (double, n) : NULL;
      HydComp comp = {
        .type = type,
        .id = component->id,
        .fluid = fluid,
        .par = vals,
        .par_dt = zeros_heap ? zeros_heap : zeros,
      };
      ok = type->validate (&comp, error);
    }

  if (ok && values != NULL)
    memcpy (values, vals, n * sizeof (double));
  for (guint i = 0; i < n; i++)
    {
      if (ok && profiles != NULL)
        profiles[i] = profs[i];
      else if (profs[i] != NULL)
        hyd_profile_free (profs[i]);
    }
  return ok;
}

HydComponentParams *
hyd_circuit_component_get_params (const HydCircuitComponent *component, const HydFluid *fluid,
                                  GError **error)
{
  g_return_val_if_fail (component != NULL, NULL);
  const HydComponentType *type = hyd_catalogue_lookup (component->type);
  guint n = type ? type->n_params : 0;
  /* one block: the view, then values, then profiles */
  gsize head = (sizeof (HydComponentParams) + sizeof (double) - 1) / sizeof (double) * sizeof (double);
  HydComponentParams *params = g_malloc0 (head + (n + 1) * (sizeof (double) + sizeof (HydProfile *)));
  params->type = type;
  params->values = (double *) ((char *) params + head);
  params->profiles = (HydProfile **) (params->values + n + 1);
  if (!hyd_circuit_component_resolve_params (component, fluid, params->values, params->profiles, error))
    {
      g_free (params);
      return NULL;
    }
  return params;
}

void
hyd_component_params_free (HydComponentParams *params)
{
  if (params == NULL)
    return;
  for (guint i = 0; i < params->type->n_params; i++)
    if (params->profiles[i] != NULL)
      hyd_profile_free (params->profiles[i]);
  g_free (params);
}

double
hyd_component_params_get (const HydComponentParams *params, const char *name)
{
  g_return_val_if_fail (params != NULL, NAN);
  int k = name ? hyd_component_type_find_param (params->type, name) : -1;
  return k >= 0 ? params->values[k] : NAN;
}

double
hyd_component_params_get_at (const HydComponentParams *params, const char *name, double t)
{
  g_return_val_if_fail (params != NULL, NAN);
  int k = name ? hyd_component_type_find_param (params->type, name) : -1;
  if (k < 0)
    return NAN;
  return params->profiles[k] != NULL ? hyd_profile_value_after (params->profiles[k], t) : params->values[k];
}

const char *
hyd_circuit_component_get_reference (const HydCircuitComponent *component, const char *name)
{
  g_return_val_if_fail (component != NULL && name != NULL, NULL);
  JsonNode *node = component->params ? json_object_get_member (component->params, name) : NULL;
  const char *s = node ? hcp_node_get_string (node) : NULL;
  return s != NULL && s[0] != '\0' ? s : NULL;
}

gboolean
hyd_circuit_component_reference_sets_port (const HydCircuitComponent *component, const char *port)
{
  const HydComponentType *type = component ? hyd_catalogue_lookup (component->type) : NULL;
  for (guint k = 0; type && port && k < type->n_params; k++)
    {
      const HydParamInfo *info = &type->params[k];
      if ((info->flags & HYD_PARAM_REFERENCE) && g_strcmp0 (info->ref_port, port) == 0
          && hyd_circuit_component_get_reference (component, info->name) != NULL)
        return TRUE;
    }
  return FALSE;
}

const char *
hyd_component_params_get_choice (const HydComponentParams *params, const char *name)
{
  g_return_val_if_fail (params != NULL, NULL);
  int k = name ? hyd_component_type_find_param (params->type, name) : -1;
  if (k < 0 || !(params->type->params[k].flags & HYD_PARAM_ENUM))
    return NULL;
  return params->type->params[k].choices[(guint) params->values[k]];
}

HydOperation
hyd_component_params_get_operation (const HydComponentParams *params)
{
  g_return_val_if_fail (params != NULL, HYD_OPERATION_NONE);
  return hyd_component_type_get_operation (params->type, params->values);
}

/* A value from the command line: a number, else JSON (a profile object or a
 * quoted string), else the bare text (an enum choice). */
static JsonNode *
param_node_from_string (const char *text)
{
  g_autofree char *value = g_strstrip (g_strdup (text));
  JsonNode *node;
  gint64 i;
  char *end = NULL;
  double d;

  if (g_ascii_string_to_signed (value, 10, G_MININT64, G_MAXINT64, &i, NULL))
    return hcp_new_int_node (i);
  d = g_ascii_strtod (value, &end);
  if (*value != '\0' && end != NULL && *end == '\0' && isfinite (d))
    return hcp_new_double_node (d);

  node = hyd_json_parse (value, strlen (value), HYD_JSON_MAX_DEPTH, NULL, NULL, NULL);
  return node != NULL ? node : hcp_new_string_node (value);
}

gboolean
hyd_circuit_component_set_param_from_string (HydCircuitComponent *component,
                                             const char *name,
                                             const char *value,
                                             const HydFluid *fluid,
                                             GError **error)
{
  const HydComponentType *type;
  HydCircuitComponent trial;
  g_autoptr(JsonObject) params = NULL;
  JsonNode *node;

  g_return_val_if_fail (component != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  type = hyd_catalogue_lookup (component->type);
  if (type == NULL)
    {
      g_autofree char *id = hcp_quote (component->id);
      g_autofree char *type_name = hcp_quote (component->type);
      return hcp_component_error (error, HYD_DIAGNOSTIC_UNKNOWN_TYPE, component->id, NULL, NULL,
                                  N_("component %s: unknown type %s"), id, type_name, NULL);
    }
  if (hyd_component_type_find_param (type, name) < 0)
    return unknown_param_error (component, type, name, error);

  {
    g_autofree char *number = g_strstrip (g_strdup (value));
    char *end = NULL;
    double d = g_ascii_strtod (number, &end);

    if (*number != '\0' && *end == '\0' && !isfinite (d))
      {
        g_autofree char *id = hcp_quote (component->id);
        g_autofree char *quoted = hcp_quote (number);
        return hcp_component_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, component->id, NULL, name,
                                    N_("component %s, parameter \"%s\": %s is not a finite number "
                                       "(the largest is about 1.8e308)"), id, name, quoted, NULL);
      }
  }
  node = param_node_from_string (value);
  params = hcp_object_deep_copy (component->params);
  json_object_set_member (params, name, json_node_copy (node));
  trial = *component;
  trial.params = params;
  if (!hyd_circuit_component_resolve_params (&trial, fluid, NULL, NULL, error))
    {
      json_node_unref (node);
      return FALSE;
    }
  json_object_set_member (component->params, name, node);
  return TRUE;
}

