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
  guint n = circuit->components->len;
  g_autofree const HydComponentType **types = g_new (const HydComponentType *, n + 1);
  g_autofree guint *port_offset = g_new (guint, n + 1);
  g_autoptr (GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);

  /* every port a connection names, marked without building "C.P" strings */
  port_offset[0] = 0;
  for (guint i = 0; i < n; i++)
    {
      const HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      types[i] = comp->id ? hyd_catalogue_lookup (comp->type) : NULL;
      port_offset[i + 1] = port_offset[i] + (types[i] ? types[i]->n_ports : 0);
      if (types[i])
        g_hash_table_insert (ids, comp->id, GUINT_TO_POINTER (i + 1));
    }
  g_autofree gboolean *wired = g_new0 (gboolean, port_offset[n] + 1);
  for (guint k = 0; k < circuit->connections->len; k++)
    {
      const HydCircuitConnection *c = g_ptr_array_index (circuit->connections, k);
      const char *ends[2] = { c->from, c->to };
      for (guint e = 0; e < 2; e++)
        {
          gpointer found;
          const char *port;
          if (ends[e] == NULL || !hyd_circuit_lookup_port_ref (ids, ends[e], &found, &port)
              || found == NULL)
            continue;
          guint i = GPOINTER_TO_UINT (found) - 1;
          int p = hyd_component_type_find_port (types[i], port);
          if (p >= 0)
            wired[port_offset[i] + (guint) p] = TRUE;
        }
    }
  for (guint i = 0; i < n; i++)
    {
      const HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      for (guint p = 0; types[i] && p < types[i]->n_ports; p++)
        if (!types[i]->ports[p].optional && !wired[port_offset[i] + p])
          g_ptr_array_add (list, hyd_circuit_unconnected_port_new (comp->id, types[i], p));
    }
  return list;
}
