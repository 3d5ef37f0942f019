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
 * component, parameter or connection that export-c cannot write (a profile
 * of time, a domain other than hydraulic, a hose). `source` names the
 * circuit in the program's heading. */
char *hyd_export_c (HydSystem *sys, const HydCircuit *circuit, const HydSimOptions *sim,
                    const char *source, GError **error);

G_END_DECLS
