/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-references.c — reference parameters seen from the editor. */
#include "hyd-references.h"

#include <string.h>
#include "hyd-catalogue.h"
#include "hyd-fluid.h"

static gboolean
comp_has_variable (const HydComp *comp, const char *variable)
{
  for (guint j = 0; j < comp->n_states; j++)
    if (g_strcmp0 (comp->states[j].name, variable) == 0)
      return TRUE;
  for (guint j = 0; j < comp->n_dstates; j++)
    if (g_strcmp0 (comp->dstates[j].name, variable) == 0)
      return TRUE;
  return FALSE;
}

gboolean
hyd_type_has_variable (const HydComponentType *type, const char *variable)
{
  static GMutex lock;
  static GHashTable *known; /* "type\nvariable" → 1 + has */
  g_return_val_if_fail (type != NULL && variable != NULL, FALSE);
  g_autofree char *key = g_strconcat (type->id, "\n", variable, NULL);
  g_mutex_lock (&lock);
  if (known == NULL)
    known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  int cached = GPOINTER_TO_INT (g_hash_table_lookup (known, key));
  g_mutex_unlock (&lock);
  if (cached)
    return cached == 2;
  /* the states a type declares in setup, with its defaults and no wires */
  HydFluid fluid;
  hyd_fluid_init_default (&fluid);
  g_autoptr (HydComp) comp = hyd_comp_new (type, "probe", &fluid);
  g_autoptr (GError) error = NULL;
  gboolean has = type->setup && type->setup (comp, &error) && comp_has_variable (comp, variable);
  g_mutex_lock (&lock);
  g_hash_table_insert (known, g_steal_pointer (&key), GINT_TO_POINTER (has ? 2 : 1));
  g_mutex_unlock (&lock);
  return has;
}

const char *
hyd_reference_get (const HydCircuitComponent *component, const HydParamInfo *info)
{
  g_return_val_if_fail (component != NULL && info != NULL, NULL);
  if (!(info->flags & HYD_PARAM_REFERENCE) || component->params == NULL
      || !json_object_has_member (component->params, info->name))
    return NULL;
  JsonNode *node = json_object_get_member (component->params, info->name);
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  const char *id = json_node_get_string (node);
  return id && *id ? id : NULL;
}

GStrv
hyd_reference_candidates (const HydCircuit *circuit, const char *self_id, const HydParamInfo *info)
{
  g_return_val_if_fail (circuit != NULL && info != NULL, NULL);
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  for (guint i = 0; info->ref_var && i < circuit->components->len; i++)
    {
      const HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      const HydComponentType *type = hyd_catalogue_lookup (comp->type);
      if (type && g_strcmp0 (comp->id, self_id) != 0 && hyd_type_has_variable (type, info->ref_var))
        g_strv_builder_add (builder, comp->id);
    }
  return g_strv_builder_end (builder);
}

GStrv
hyd_reference_links (const HydCircuit *circuit, const char *id)
{
  g_return_val_if_fail (circuit != NULL, NULL);
  if (id == NULL)
    return NULL;
  const HydCircuitComponent *self = hyd_circuit_find_component (circuit, id);
  g_autoptr (GHashTable) linked = g_hash_table_new (g_str_hash, g_str_equal);
  const HydComponentType *type = self ? hyd_catalogue_lookup (self->type) : NULL;
  for (guint k = 0; type && k < type->n_params; k++)
    {
      const char *named = hyd_reference_get (self, &type->params[k]);
      if (named)
        g_hash_table_add (linked, (gpointer) named);
    }
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  guint n = 0;
  for (guint i = 0; i < circuit->components->len; i++)
    {
      const HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      if (g_strcmp0 (comp->id, id) == 0)
        continue;
      gboolean is_linked = g_hash_table_contains (linked, comp->id);
      const HydComponentType *t = hyd_catalogue_lookup (comp->type);
      for (guint k = 0; t && k < t->n_params && !is_linked; k++)
        is_linked = g_strcmp0 (hyd_reference_get (comp, &t->params[k]), id) == 0;
      if (is_linked)
        {
          g_strv_builder_add (builder, comp->id);
          n++;
        }
    }
  return n ? g_strv_builder_end (builder) : NULL;
}
