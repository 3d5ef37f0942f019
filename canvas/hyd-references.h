/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-references.h — the labels that link the current-path diagram and the
 * hydraulics (docs/electrical.md, "References"): which components a
 * reference parameter may name, and which components a selection is linked
 * to. No GTK. */
#pragma once

#include "hyd-circuit.h"
#include "hyd-component.h"

G_BEGIN_DECLS

/* Whether a component of `type` (with its default parameters) has a state
 * or a discrete state named `variable` (a cylinder's "x", a relay's
 * "contacts", a solenoid's "energised"): asked of an instance set up once
 * per type and remembered. */
gboolean hyd_type_has_variable (const HydComponentType *type, const char *variable);

/* The ids a reference parameter `info` of component `self_id` may name:
 * the circuit's components whose type has the parameter's ref_var, in the
 * circuit's order, never the component itself. An empty vector when none. */
GStrv hyd_reference_candidates (const HydCircuit *circuit, const char *self_id, const HydParamInfo *info);

/* The components linked to component `id` by reference parameters: those
 * it names (a valve's solenoid Y1, a contact's relay K1) and those that
 * name it (the valve Y1 drives, K1's contacts, the limit switches on a
 * cylinder), in the circuit's order, without `id`. NULL when none. */
GStrv hyd_reference_links (const HydCircuit *circuit, const char *id);

/* The id a component's reference parameter names, or NULL (unset). */
const char *hyd_reference_get (const HydCircuitComponent *component, const HydParamInfo *info);

G_END_DECLS
