/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-system-check.h — everything the engine has to say about a circuit
 * before it runs, as one list of diagnostics (hyd-diagnostic.h). */
#pragma once

#include "hyd-system.h"

G_BEGIN_DECLS

/* Validates and compiles `circuit` and lists, in order: the validation's
 * error; else every unconnected required port
 * (hyd_circuit_unconnected_ports); else the compiler's error; else the
 * compile warnings (the lint). The circuit can run when the list holds no
 * error (hyd_diagnostic_list_find (list, HYD_SEVERITY_ERROR) is NULL).
 * When `system` is not NULL it receives the compiled system (or NULL). */
GPtrArray *hyd_system_diagnose (const HydCircuit *circuit, HydSystem **system);

G_END_DECLS
