/* hyd-message.h — the engine's messages in the words and units of the
 * panel. The engine and the command line speak SI and internal names
 * ("node V1.B.p: pressure -1.044e+05 Pa", "C1.rod_diameter: 1e+96 m"); in
 * the application the same message reads "line at V1.B: pressure -1.04
 * bar", "“Rod diameter” of C1: 1e+99 mm". No GTK here: tested headless. */
#pragma once

#include <glib.h>
#include "hyd-circuit.h"

G_BEGIN_DECLS

/* `text` with every SI quantity ("<number> Pa", "m³/s", "m/s", "m", "N",
 * "N·m", "W", "kg") in its display unit, every "node X.P.p" as "line at
 * X.P", and every "X.param" (a component of `circuit` and one of its
 * parameters) as "“<human name>” of X". `circuit` may be NULL (units only). */
char *hyd_message_humanize (const HydCircuit *circuit, const char *text);

G_END_DECLS
