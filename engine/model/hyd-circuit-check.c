/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-circuit-check.c — wiring checks the compiler and the editor share
 * (hyd-circuit-check.h). */
#include "hyd-circuit-check.h"
#include "hyd-catalogue.h"
#include "hyd-i18n.h"

HydDiagnostic *
hyd_circuit_unconnected_port_new (const char *component, const HydComponentType *type, guint port)
{
  g_return_val_if_fail (component != NULL && type != NULL && port < type->n_ports, NULL);
  const char *name = type->ports[port].name;
  g_autofree char *ref = g_strconcat (component, ".", name, NULL);
  HydDiagnostic *d = hyd_diagnostic_new (HYD_DIAGNOSTIC_UNCONNECTED, HYD_SEVERITY_ERROR,
                                         N_("port %s is not connected: every %s port of a %s "
                                            "must be wired"),
                                         ref, name, type->id, NULL);
  hyd_diagnostic_set_component (d, component);
  hyd_diagnostic_set_port (d, name);
  return d;
}

GPtrArray *
hyd_circuit_unconnected_ports (const HydCircuit *circuit)
{
  g_return_val_if_fail (circuit != NULL, NULL);
  GPtrArray *list = hyd_diagnostic_list_new ();
  g_autoptr (GHashTable) ends = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint k = 0; k < circuit->connections->len; k++)
    {
      const HydCircuitConnection *c = g_ptr_array_index (circuit->connections, k);
      if (c->from)
        g_hash_table_add (ends, c->from);
      if (c->to)
        g_hash_table_add (ends, c->to);
    }
  for (guint i = 0; i < circuit->components->len; i++)
    {
      const HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      const HydComponentType *type = comp->id ? hyd_catalogue_lookup (comp->type) : NULL;
      for (guint p = 0; type && p < type->n_ports; p++)
        {
          if (type->ports[p].optional)
            continue;
          g_autofree char *ref = g_strconcat (comp->id, ".", type->ports[p].name, NULL);
          if (!g_hash_table_contains (ends, ref))
            g_ptr_array_add (list, hyd_circuit_unconnected_port_new (comp->id, type, p));
        }
    }
  return list;
}
