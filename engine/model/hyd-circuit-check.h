/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-circuit-check.h — checks of a circuit's wiring that the compiler and
 * the editor share: the compiler refuses the first unconnected port
 * (hyd-system.h), the canvas lists them all before a run or a save, in the
 * same words (hyd-diagnostic.h). */
#pragma once

#include "hyd-circuit.h"
#include "hyd-diagnostic.h"

G_BEGIN_DECLS

/* The error for required port `port` (an index into type->ports) of
 * component `component` having no wire: HYD_DIAGNOSTIC_UNCONNECTED, naming
 * the component and the port. */
HydDiagnostic *hyd_circuit_unconnected_port_new (const char *component,
                                                 const HydComponentType *type, guint port);

/* Every required (not optional) port of a component of known type that no
 * connection names, in file order (components, then their ports), as those
 * errors; an empty list when every one is wired. */
GPtrArray *hyd_circuit_unconnected_ports (const HydCircuit *circuit);

G_END_DECLS
