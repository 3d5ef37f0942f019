/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-export-c.h — a compiled circuit as one self-contained C99 program
 * (docs/export-c.md): its states and parameters, f(t, y), the analytic
 * Jacobian and ∂f/∂t, the engine's own model code of the component types it
 * uses, a RODAS4 integrator and a main that writes the run as CSV. */
#pragma once

#include <glib.h>
#include "hyd-circuit.h"
#include "hyd-system.h"

G_BEGIN_DECLS

/* The program's text, or NULL with an error (HYD_CIRCUIT_ERROR) naming the
 * component that export-c cannot write (electrical control, a reference).
 * `source` names the circuit in the program's heading. */
char *hyd_export_c (HydSystem *sys, const HydCircuit *circuit, const HydSimOptions *sim,
                    const char *source, GError **error);

/* The file of the engine that holds the model of component type type_id
 * ("engine/components/hyd-comp-sources.c"), or NULL when export-c has none. */
const char *hyd_export_c_type_source (const char *type_id);

/* For the tests: the declarations and every model file of the engine
 * together, as export-c writes them (a program's model part, whatever the
 * circuit): it must compile as one C99 translation unit. */
char *hyd_export_c_all_models (void);

G_END_DECLS
