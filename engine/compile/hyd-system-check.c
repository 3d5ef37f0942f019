/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-system-check.c — a circuit's diagnostics before a run
 * (hyd-system-check.h). */
#include "hyd-system-check.h"
#include "hyd-circuit-check.h"

GPtrArray *
hyd_system_diagnose (const HydCircuit *circuit, HydSystem **system)
{
  g_return_val_if_fail (circuit != NULL, NULL);
  GPtrArray *list = hyd_diagnostic_list_new ();
  g_autoptr (GError) error = NULL;
  if (system)
    *system = NULL;
  if (!hyd_circuit_validate (circuit, &error))
    {
      g_ptr_array_add (list, hyd_diagnostic_from_error (error));
      return list;
    }
  g_autoptr (GPtrArray) unwired = hyd_circuit_unconnected_ports (circuit);
  if (unwired->len > 0)
    {
      g_ptr_array_extend_and_steal (list, g_steal_pointer (&unwired));
      return list;
    }
  HydSystem *sys = hyd_system_compile (circuit, &error);
  if (sys == NULL)
    {
      g_ptr_array_add (list, hyd_diagnostic_from_error (error));
      return list;
    }
  GPtrArray *warnings = hyd_system_get_diagnostics (sys);
  for (guint i = 0; i < warnings->len; i++)
    g_ptr_array_add (list, hyd_diagnostic_ref (g_ptr_array_index (warnings, i)));
  if (system)
    *system = sys;
  else
    hyd_system_free (sys);
  return list;
}
