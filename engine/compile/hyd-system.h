/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-system.h — the compiled circuit: nodes, state layout, f, analytic J.
 *
 * hyd_system_compile turns a HydCircuit into a HydSystem: it builds nodes
 * from connections, junctions and internally joined ports, checks the graph
 * (unconnected ports, nodes without volume, short circuits, bypassed flow
 * meters, conflicting initial pressures), lays out the state vector (node
 * pressures, then component states, in file order) and assembles
 * f(t, y), the analytic Jacobian and ∂f/∂t from each component's local
 * blocks (circuit-format.md, Nodes). A HydSystem is used by one thread at a
 * time (it keeps evaluation scratch). */
#pragma once

#include <glib.h>
#include "hyd-circuit.h"
#include "hyd-diagnostic.h"
#include "hyd-ode.h"

G_BEGIN_DECLS

typedef struct _HydSystem HydSystem;

typedef struct {
  char *name;          /* "<comp>.<port>.p" of its first port (its pressure variable;
                          the state is named "<comp>.<port>.psi" for the
                          cavitation-safe fluids, hyd-fluid.h) */
  GPtrArray *ports;    /* of char* "<comp>.<port>" */
  gboolean boundary;
  int state;           /* state index, or −1 for a boundary node */
  double wire_volume;  /* m³ from connections */
  double initial_pressure;
} HydNodeInfo;

HydSystem *hyd_system_compile (const HydCircuit *circuit, GError **error);
void hyd_system_free (HydSystem *system);

const HydFluid *hyd_system_get_fluid (const HydSystem *system);

/* Warnings found while compiling (hydraulic lint, ignored settings), as
 * English text, and the same warnings as diagnostics (hyd-diagnostic.h),
 * in the same order. */
GPtrArray *hyd_system_get_warnings (const HydSystem *system); /* of char* */
GPtrArray *hyd_system_get_diagnostics (const HydSystem *system); /* of HydDiagnostic* */

/* A flow a run should warn about once it exceeds `limit` (m³/s, either
 * direction): a relief valve passing more than HYD_RELIEF_OVERFLOW times its
 * nominal flow. */
#define HYD_RELIEF_OVERFLOW 1.5
typedef struct {
  int var;                 /* variable index (hyd_system_eval_variables) */
  double limit;
  double nominal;          /* the rating the limit derives from */
  const char *component;   /* id; lives as long as the system */
} HydFlowLimit;
GArray *hyd_system_get_flow_limits (const HydSystem *system); /* of HydFlowLimit; unref */

guint hyd_system_get_n_states (const HydSystem *system);
const char *hyd_system_get_state_name (const HydSystem *system, guint i);
HydUnit hyd_system_get_state_unit (const HydSystem *system, guint i);
const double *hyd_system_get_initial_state (const HydSystem *system);
/* Absolute tolerance per state from the per-kind settings. */
void hyd_system_get_atol (const HydSystem *system, const HydSimOptions *options, double *atol);

guint hyd_system_get_n_nodes (const HydSystem *system);
const HydNodeInfo *hyd_system_get_node (const HydSystem *system, guint i);

/* Cavitation (the "cavitating" and "air" fluids, hyd-fluid.h): TRUE when
 * non-boundary node `node` holds a void at state y, that is when its state ψ
 * is below the vapour pressure (its pressure is then the vapour pressure);
 * always FALSE for boundary nodes and for fluids without a floor. When
 * void_volume is not NULL it receives the void's volume in m³ (0 when full):
 * that costs one evaluation of the system at y, so for every node at once
 * use hyd_system_node_voids, or record the "<first port>.void" variables. */
gboolean hyd_system_node_cavitating (HydSystem *system, guint node, const double *y,
                                     double *void_volume);
/* The void volume (m³) of every node at (t, y), void_volume[n_nodes]. */
void hyd_system_node_voids (HydSystem *system, double t, const double *y, double *void_volume);

/* Sorted, distinct discontinuity times of every profile (all t; the solver
 * keeps those inside (0, t_end)). */
const GArray *hyd_system_get_breakpoints (const HydSystem *system);
/* Profiles are evaluated per integration interval [t_lo, t_hi]. */
void hyd_system_set_interval (HydSystem *system, double t_lo, double t_hi);

/* f(t, y). Returns 0, or 1 when a value is not finite. */
int hyd_system_rhs (HydSystem *system, double t, const double *y, double *f);
/* Dense Jacobian, column-major n×n, and ∂f/∂t (may be NULL). */
int hyd_system_jacobian (HydSystem *system, double t, const double *y, double *J, double *dfdt);
/* Structural sparsity pattern in compressed-column form. */
void hyd_system_get_pattern (const HydSystem *system, guint *nnz,
                             const guint **colptr, const guint **rowind);
/* The Jacobian's values in that pattern (values[nnz], in its order) and
 * ∂f/∂t (may be NULL): the same numbers as hyd_system_jacobian, assembled
 * in O(nnz) through positions mapped at compile time. */
int hyd_system_jacobian_sparse (HydSystem *system, double t, const double *y, double *values,
                                double *dfdt);
/* Zero-crossing functions of the components (end stops, valve seating):
 * n of them, named "C1: retracted end stop"; g = their values at (t, y). */
guint hyd_system_get_n_events (const HydSystem *system);
const char *hyd_system_get_event_name (const HydSystem *system, guint k);
int hyd_system_events (HydSystem *system, double t, const double *y, double *g);
/* The discrete states of the components (docs/domains.md), in component
 * order: how many, their values now, and setting them (to evaluate the
 * system at a point of a trajectory with the states in force there, as
 * jacobian-check does). */
guint hyd_system_get_n_discrete (const HydSystem *system);
/* Electrical control (docs/electrical.md): the nets of electrical ports,
 * the net of a component's port (−1: none), and each net's level with the
 * given discrete states (all, in the order of hyd_system_get_discrete):
 * bit 0 joined to +24 V, bit 1 to 0 V, bit 2 carries current (its set
 * joins a supply to a terminal of an energised load). Not thread-safe:
 * call from the thread that owns the system. */
guint hyd_system_get_n_elec_nets (const HydSystem *system);
int hyd_system_get_elec_net (const HydSystem *system, const char *component, const char *port);
void hyd_system_get_elec_levels (HydSystem *system, const double *dstates, guint8 *levels);
void hyd_system_get_discrete (const HydSystem *system, double *d);
void hyd_system_set_discrete (HydSystem *system, const double *d);
/* The variable name of discrete state k in that order ("K1.energised",
 * as the run's samples name it), or NULL past the last. Free it. */
char *hyd_system_dup_discrete_name (const HydSystem *system, guint k);

/* A HydOdeProblem over this system (with its events). A system with
 * discrete states (docs/domains.md) requires its events and updates them at
 * each one (event_located); getting the problem resets them to their
 * initial values, settled at t = 0: call it once per run. */
void hyd_system_get_problem (HydSystem *system, HydOdeProblem *problem);

/* Variables (circuit-format.md, Variable names): t, node pressures by any
 * port alias, port flows, states and outputs, and "<first port>.void", the
 * void volume of each non-boundary node in m³ (0 when full, and always 0
 * for a fluid without a floor), named by any port of the node as well
 * ("V1.B.void"), not among the default columns. Node pressure variables
 * report the pressure p = F(ψ), never the state ψ. The node states of the
 * cavitation-safe models ("<first port>.psi") are found by
 * hyd_system_find_variable but not counted by hyd_system_get_n_variables:
 * variables 0 … n_variables − 1 are the listed ones. */
int hyd_system_find_variable (const HydSystem *system, const char *name);
guint hyd_system_get_n_variables (const HydSystem *system);
const char *hyd_system_get_variable_name (const HydSystem *system, guint v);
HydUnit hyd_system_get_variable_unit (const HydSystem *system, guint v);
/* The id of the component whose discrete state variable v is
 * ("K1.energised" → "K1"), or NULL when v is not a discrete state. */
const char *hyd_system_get_variable_discrete (const HydSystem *system, guint v);
/* Default CSV columns: t, one pressure per non-boundary node, every state. */
GArray *hyd_system_get_default_variables (const HydSystem *system); /* of int */
/* Values of variables vars[0..n) at (t, y). */
int hyd_system_eval_variables (HydSystem *system, double t, const double *y,
                               const int *vars, guint n, double *values);
/* Which component and local state a state index belongs to (for messages);
 * node states give the node name. */
const char *hyd_system_describe_state (const HydSystem *system, guint i);

/* Live parameter changes (the GUI's what-if sliders; hyd-run.h replays them).
 *
 * hyd_system_check_override tells whether parameter `name` of component
 * `comp_id` may be changed during a run to `value`: the component and the
 * parameter exist, the parameter is a number (not a choice nor a whole
 * number such as a line's segments, which shape the model) and the value is
 * finite. It reads only what compiling fixed, so another thread may call it
 * while one runs the system. Errors are HYD_CIRCUIT_ERROR_REFERENCE (no such
 * component), _UNKNOWN_PARAM and _PARAM_VALUE.
 *
 * hyd_system_override_param makes the parameter the constant `value` from
 * time t on: the value is clamped to the parameter's range, as a slider is
 * (an exclusive bound to the nearest number inside it); a profile is replaced
 * by that constant and the breakpoints are collected again without it.
 * Refused, with nothing changed: what hyd_system_check_override refuses, a
 * value breaking one of the type's cross-parameter rules (_PARAM_RANGE), a
 * change of the model's structure (a relief valve's natural_frequency from 0
 * to > 0 would add states: _PARAM_VALUE), and a boundary pressure shared
 * with another boundary port of its node (_SHORT_CIRCUIT). old_value (may
 * be NULL) receives the value in force at t in the current integration
 * interval, new_value (may be NULL) the clamped value. The caller restarts
 * the integration at t (hyd-run.c does). */
gboolean hyd_system_check_override (const HydSystem *system, const char *comp_id,
                                    const char *name, double value, GError **error);
gboolean hyd_system_override_param (HydSystem *system, double t, const char *comp_id,
                                    const char *name, double value,
                                    double *old_value, double *new_value,
                                    GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydSystem, hyd_system_free)

G_END_DECLS
