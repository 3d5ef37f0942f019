/* SPDX-License-Identifier: GPL-3.0-or-later */
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

/* A variable of a run in the words of the plots (the GUI's CSV exports head
 * their columns with it): where, then the quantity as the plot's axis names
 * it — "V1.P: Pressure" for V1.P.p, "C1: Position" for C1.x, "DCV1 P→A:
 * Flow" for DCV1.q_PA, "L1 point 3: Pressure" for L1.p3, "Time" for t.
 * Words the unit alone does not give (the spool's position, a valve's
 * opening ...) come from a short table; a name it does not know keeps its
 * own word when dimensionless. Translated. */
char *hyd_message_variable_label (const char *name, HydUnit unit);
/* The label and the unit the plots show it in: "V1.P: Pressure [bar]",
 * "Time [s]"; no brackets for a dimensionless variable. */
char *hyd_message_column_header (const char *name, HydUnit unit);

G_END_DECLS
