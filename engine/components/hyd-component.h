/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-component.h — the component interface (design/architecture.md).
 *
 * A component type is a const vtable plus metadata, one C file per type or
 * family, registered in the catalogue (hyd-catalogue.c). An instance (HydComp)
 * is created by the system compiler from a circuit component: its parameter
 * values are in `par` (numbers; an enum parameter holds its choice index; an
 * unset optional parameter holds NAN), and the compiler refreshes par/par_dt
 * from the profiles before every evaluation.
 *
 * Ports have a domain (docs/domains.md): hydraulic, translational,
 * rotational, signal or electrical. Local variables of an instance:
 * z = [a_0 … a_{np−1}, x_0 … x_{ns−1}, s_0 … s_{np−1}]: the across value at
 * each port (pressure; velocity; angular speed; a signal input's value; 0 at
 * a signal output or an electrical port), its own states, and — only when the
 * type has a mechanical port (comp->n_pos = np, else 0) — the position or
 * angle at each port. Local equations: rows [q̂_0 … q̂_{np−1}, ẋ_0 … ẋ_{ns−1}]:
 * the through value into the component at each physical port (flow; force;
 * torque; 0 at signal and electrical ports), then the state derivatives.
 * `eval` returns the values and the analytic partial
 * derivatives of every row with respect to every local variable (the local
 * Jacobian block, in the instance's sparsity pattern), with respect to time
 * (through profiles), plus the port volumes V_X(x) with ∂V/∂x and ∂²V/∂x², and
 * the port storage C_X: compliance C_X(p) with ∂C/∂p (circuit-format.md,
 * Nodes), or the mass (translational) or inertia (rotational) the component
 * contributes to the node at X. Signal outputs are computed by `signals`,
 * discrete states changed by `update` at events (docs/domains.md). */
#pragma once

#include <glib.h>
#include "hyd-units.h"
#include "hyd-fluid.h"
#include <math.h>

G_BEGIN_DECLS

/* The domain of a port (docs/domains.md). Values are stable: 0 and 2 are
 * those of version 1 (its unused "mechanical" 1 is now translational). */
typedef enum {
  HYD_DOMAIN_HYDRAULIC = 0,     /* across p (Pa), through q (m³/s), storage compliance */
  HYD_DOMAIN_TRANSLATIONAL = 1, /* across v (m/s) and x (m), through F (N), storage mass */
  HYD_DOMAIN_SIGNAL = 2,        /* a value; directed, no storage */
  HYD_DOMAIN_ROTATIONAL = 3,    /* across ω (rad/s) and φ (rad), through τ (N·m), storage inertia */
  HYD_DOMAIN_ELECTRICAL = 4,    /* switching level, solved at events (issue 12) */
  HYD_N_DOMAINS
} HydDomain;

const char *hyd_domain_name (HydDomain domain);

/* TRUE for the domains whose nodes hold mechanical states (v, x or ω, φ). */
static inline gboolean
hyd_domain_is_mechanical (HydDomain domain)
{
  return domain == HYD_DOMAIN_TRANSLATIONAL || domain == HYD_DOMAIN_ROTATIONAL;
}

/* A signal port's direction; physical ports are HYD_PORT_BIDIRECTIONAL. */
typedef enum {
  HYD_PORT_BIDIRECTIONAL = 0,
  HYD_PORT_OUTPUT,    /* a signal the component computes (`signals`) */
  HYD_PORT_INPUT,     /* a signal the component reads (its a_X) */
} HydPortDirection;

typedef enum {
  HYD_CATEGORY_SOURCES,
  HYD_CATEGORY_PUMPS,
  HYD_CATEGORY_VALVES,
  HYD_CATEGORY_ACTUATORS,
  HYD_CATEGORY_STORAGE,   /* storage and lines */
  HYD_CATEGORY_MEASUREMENT,
  HYD_CATEGORY_MECHANICS,  /* translational mechanics (docs/domains.md) */
  HYD_CATEGORY_SIGNALS,    /* signal blocks (docs/domains.md, "Signals") */
  HYD_CATEGORY_ELECTRICAL, /* electrical control (docs/electrical.md) */
} HydCategory;

const char *hyd_category_name (HydCategory category);

/* What a type is to the parts of the program that look at a circuit as a
 * whole (the lint, the run checks); they read these roles and never name a
 * type. */
typedef enum {
  HYD_ROLE_TANK = 1 << 0,              /* the reservoir a make-up valve draws from */
  HYD_ROLE_PRESSURE_LIMITER = 1 << 1,  /* limits a pump's pressure (a relief path ends here) */
  HYD_ROLE_RELIEF_VALVE = 1 << 2,      /* must pass a pump's delivery; rated by rating_param at port 0 */
  HYD_ROLE_PUMP = 1 << 3,              /* a displacement pump: needs a relief path from its delivery port */
  HYD_ROLE_FLOW_SOURCE = 1 << 4,       /* an ideal flow source: delivers whatever the pressure */
  HYD_ROLE_CHAMBERS = 1 << 5,          /* its ports are dead-end chambers: flow does not pass it,
                                          and a chamber that reaches no flow path is locked */
  HYD_ROLE_CONDUIT = 1 << 6,           /* only conducts oil (a line, a meter) */
  HYD_ROLE_STORES_OIL = 1 << 7,        /* stores oil but passes no flow path (volume, gauge) */
  HYD_ROLE_MAKEUP_VALVE = 1 << 8,      /* a check valve: fed from a tank at port 0 it is a
                                          make-up valve, fully open at cracking_param +
                                          opening_range_param */
  HYD_ROLE_ELEC_SUPPLY = 1 << 9,       /* its port 0 is at +24 V (docs/electrical.md) */
  HYD_ROLE_ELEC_GROUND = 1 << 10,      /* its port 0 is at 0 V */
} HydRole;

/* How a valve is operated, from its operation_param's choice. */
typedef enum {
  HYD_OPERATION_NONE,      /* not an operated valve */
  HYD_OPERATION_LEVER,     /* by hand: the command is a lever the user moves */
  HYD_OPERATION_SOLENOID,  /* by a solenoid: the command is a signal (a profile) */
  HYD_OPERATION_PUSHBUTTON, /* by hand, a pushbutton (as a lever: the user sets the command) */
  HYD_OPERATION_PEDAL,     /* by foot, a pedal (as a lever) */
} HydOperation;

/* TRUE for the operators the user works by hand or foot in a run (lever,
 * pushbutton, pedal): the command is theirs to set. */
static inline gboolean
hyd_operation_is_manual (HydOperation op)
{
  return op == HYD_OPERATION_LEVER || op == HYD_OPERATION_PUSHBUTTON || op == HYD_OPERATION_PEDAL;
}

typedef struct {
  const char *name;
  HydDomain domain;
  gboolean optional;
  const char *description;
  HydPortDirection direction; /* signal ports: output or input */
  /* An optional port that, wired, replaces a parameter (a force source's
   * input S replaces "force"): that parameter's name, else NULL. The GUI
   * offers no live slider for a parameter its wired port replaces. */
  const char *overrides;
  /* A hidden port is never drawn nor wired: a reference parameter
   * (HYD_PARAM_REFERENCE, its ref_port) connects it to a variable of the
   * component it names (docs/electrical.md, "References"). */
  gboolean hidden;
} HydPortInfo;

/* An electrical conducting path between two electrical ports of a type (a
 * contact): it conducts when the type's elec_conducts says so. */
typedef struct {
  guint a, b;
} HydElecPath;

/* An electrical load between two electrical ports (a coil, a lamp): the
 * network solution writes 1 into discrete state `dstate` when one port is
 * at +24 V and the other at 0 V, else 0 (docs/electrical.md). */
typedef struct {
  guint a, b;
  guint dstate;
} HydElecLoad;

typedef enum {
  HYD_PARAM_PROFILE = 1 << 0,       /* accepts a profile; can be a live slider */
  HYD_PARAM_MIN_EXCLUSIVE = 1 << 1, /* value > min (">0") */
  HYD_PARAM_MAX_EXCLUSIVE = 1 << 2, /* value < max ("[0, 1)") */
  HYD_PARAM_OPTIONAL = 1 << 3,      /* no default: unset unless given (NAN) */
  HYD_PARAM_ENUM = 1 << 4,          /* a string from `choices`; par = index */
  HYD_PARAM_FLUID_CD = 1 << 5,      /* default is the fluid's discharge_coefficient */
  HYD_PARAM_INTEGER = 1 << 6,       /* must be a whole number */
  HYD_PARAM_REFERENCE = 1 << 7,     /* a string: the id of another component (or unset);
                                       par holds NAN (docs/electrical.md, "References") */
} HydParamFlags;

typedef struct {
  const char *name;        /* key in params */
  const char *label;       /* human name, e.g. "Cracking pressure" */
  HydUnit unit;
  double def;              /* default (enum: index of the default choice) */
  double min, max;         /* range (−INFINITY / INFINITY when open-ended) */
  guint flags;             /* HydParamFlags */
  const char *const *choices; /* NULL-terminated, for HYD_PARAM_ENUM */
  const char *description; /* one line */
  /* HYD_PARAM_REFERENCE: the hidden signal input of this type the
   * reference drives, and the name of the referenced component's state or
   * discrete state it reads (a cylinder's "x", a relay's "contacts"). */
  const char *ref_port;
  const char *ref_var;
} HydParamInfo;

typedef struct {
  const char *name;
  HydUnit unit;
  const char *description;
} HydVarInfo;

typedef struct _HydComp HydComp;
typedef struct _HydComponentType HydComponentType;

/* Evaluation input: across values at the ports (pressure, velocity,
 * angular speed, signal input; 0 at signal outputs and electrical ports),
 * states, positions of mechanical ports and discrete states. */
typedef struct {
  double t;
  const double *p;   /* [n_ports] across values a_X */
  const double *x;   /* [n_states] */
  const double *pos; /* [n_ports] position / angle s_X when comp->n_pos > 0, else NULL */
  const double *d;   /* [n_dstates] discrete states (NULL when none) */
} HydEvalIn;

/* Evaluation output. The compiler zeroes every array before calling eval, so
 * a component writes only what is non-zero. Arrays the caller does not need
 * are NULL (check before writing: jac, q_t/x_t, out may be NULL). */
typedef struct {
  double *q;      /* [np] through values into the component: flow q̂_X, force, torque */
  double *xdot;   /* [ns] state derivatives */
  double *jac;    /* [nnz] ∂(q̂, ẋ)/∂(p, x), in the pattern order (or NULL) */
  double *q_t;    /* [np] ∂q̂/∂t through profiles (or NULL) */
  double *x_t;    /* [ns] ∂ẋ/∂t through profiles (or NULL) */
  double *V;      /* [np] port volumes V_X (m³) */
  double *dV;     /* [np·nvs] ∂V_X/∂x_{vs[j]}: row-major, X then j */
  double *d2V;    /* [np·nvs·nvs] ∂²V_X/∂x_{vs[j]}∂x_{vs[k]} */
  double *C;      /* [np] port storage: compliance C_X(p_X) (m³/Pa); mass (kg) at a
                     translational port, inertia (kg·m²) at a rotational one */
  double *dC;     /* [np] ∂C_X/∂p_X (hydraulic only; masses and inertias are constant) */
  double *out;    /* [n_outputs] derived outputs (or NULL) */
} HydEvalOut;

struct _HydComponentType {
  const char *id;          /* type id in files */
  const char *label;       /* human name */
  HydCategory category;
  const char *iso_symbol;  /* what ISO 1219-1 symbol it is drawn with */
  const char *description; /* short help text, including the law and its source */
  const HydPortInfo *ports;
  guint n_ports;
  const HydParamInfo *params;
  guint n_params;
  /* Ports joined internally into one node (pairs of port indices), e.g. a
   * volume's P..P4 or a flow meter's A and B. */
  const guint (*joined_ports)[2];
  guint n_joined_ports;
  /* A flow meter reports the flow between its two joined ports (spec). */
  gboolean is_flow_meter;
  /* A boundary port prescribes its node's pressure (tank, pressure_source):
   * index of the parameter holding the pressure, or −1. */
  int boundary_param;
  /* Textbook designator: the prefix of new ids (P1 pump, V1 valve, ...). */
  const char *designator;
  /* HydRole flags. */
  guint roles;
  /* A pump or flow source: the port it delivers at and the parameters whose
   * product is its delivery in m³/s (the largest magnitude of each over the
   * run), NULL-terminated. */
  guint delivery_port;
  const char *const *delivery_params;
  /* A relief valve: the parameter holding its rated flow. */
  const char *rating_param;
  /* A make-up valve: the pressures at which it starts to open and over
   * which it opens fully. */
  const char *cracking_param;
  const char *opening_range_param;
  /* An operated valve: the enum parameter whose choice ("lever",
   * "solenoid") says how, and the parameter the operator sets (its range
   * gives the positions: −1, 0, 1 or 0, 1). NULL otherwise. */
  const char *operation_param;
  const char *command_param;
  /* The enum parameter ("spring", "detent") that says whether a manual
   * operator springs back to the neutral command when released or stays
   * where it was put; NULL: no such choice. */
  const char *return_param;
  /* The pressure parameter that sets the top of the pressure colour scale
   * (a relief valve's setting, a pressure source's pressure), or NULL. */
  const char *scale_param;

  /* Cross-parameter rules beyond each range (e.g. rod < piston). Optional.
   * Errors name the component (comp->id) and the parameter. */
  gboolean (*validate) (const HydComp *comp, GError **error);
  /* Decide states, outputs, volume states and the local pattern from the
   * parameters; allocate comp->priv. Required. */
  gboolean (*setup) (HydComp *comp, GError **error);
  /* Initial pressure a component asks for at a port (accumulator, volume):
   * return TRUE and write *p. Optional. */
  gboolean (*port_initial_pressure) (const HydComp *comp, guint port, double *p);
  /* Initial states, from parameters (in force just after t = 0, already in
   * par) and the nodes' initial port pressures p0. Optional: zeros. */
  void (*init_states) (const HydComp *comp, const double *p0, double *x0);
  /* The model. Required. */
  void (*eval) (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out);
  void (*free_priv) (gpointer priv);
  /* Optional zero-crossing functions g_k(t, p, x) marking where the model
   * switches regime (an end stop reached, a valve seating or cracking):
   * comp->n_events of them, declared in setup with hyd_comp_add_event. The
   * solver locates their sign changes and restarts there when events are on. */
  void (*events) (const HydComp *comp, const HydEvalIn *in, double *g);

  /* Signal outputs (ports with direction HYD_PORT_OUTPUT), evaluated before
   * `eval` in dependency order: s[X] = g_X(z, t) for each output port X,
   * ds (or NULL) the dense rows ∂g_X/∂z, ds[X·nl + c] with nl =
   * hyd_comp_n_local, and s_t[X] = ∂g_X/∂t (or NULL). Only output entries
   * are read; the arrays are zeroed before the call. Required when the type
   * has a signal output. */
  void (*signals) (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t);
  /* TRUE: the signal outputs do not depend on the signal inputs (an
   * integrator, a lag), so the block breaks algebraic loops. */
  gboolean signal_feedthrough_free;
  /* At a located event (t, z where the crossing function has its new sign
   * or is 0): set the discrete states d (comp->n_dstates, holding their
   * values) for the new regime; return TRUE when one changed. crossed[k]
   * (k < n_events) is +1 when its event function k went up through 0 at
   * this event, −1 down, 0 not; crossed is NULL when no function of it
   * crossed: the settling at t = 0 and the further rounds of the fixed-point
   * iteration (docs/domains.md). Optional. */
  gboolean (*update) (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d);
  /* Initial velocity and position a component asks for at its mechanical
   * port X (a cylinder's rod: its piston's): return TRUE and write *v, *x.
   * A connection's or junction's initial_velocity / initial_position wins;
   * two components asking different values of one node are an error.
   * Optional. */
  gboolean (*port_initial_motion) (const HydComp *comp, guint port, double *v, double *x);

  /* Electrical control (docs/electrical.md). Contacts: the conducting
   * paths between its electrical ports and whether path k conducts with the
   * discrete states d (and comp->par). Loads: coils and lamps, whose
   * discrete state the network solution sets. A supply or ground has the
   * role HYD_ROLE_ELEC_SUPPLY / _GROUND at its port 0. */
  const HydElecPath *elec_paths;
  guint n_elec_paths;
  gboolean (*elec_conducts) (const HydComp *comp, const double *d, guint path);
  const HydElecLoad *elec_loads;
  guint n_elec_loads;
};

struct _HydComp {
  const HydComponentType *type;
  char *id;
  const HydFluid *fluid;

  double *par;      /* [n_params] values in force (numbers; enum index; NAN unset) */
  double *par_dt;   /* [n_params] d/dt of profile parameters (0 otherwise) */

  /* Filled by setup (helpers below). */
  guint n_states;
  HydVarInfo *states;       /* [n_states], names owned by the comp */
  guint n_outputs;
  HydVarInfo *outputs;      /* [n_outputs] */
  guint n_vstates;          /* states the port volumes depend on */
  guint *vstates;           /* [n_vstates] state indices */
  gboolean *own_compliance; /* [n_ports] TRUE: C_X is oil the component stores
                               (accumulator), reported in its port flow */
  guint nnz;                /* local Jacobian pattern */
  guint *jrow, *jcol;       /* [nnz] local row and column of each entry */
  gboolean dense_pattern;   /* pattern is the full (np+ns)² block, row-major */
  gboolean pattern_shared;  /* jrow/jcol are the process's shared dense pattern */
  guint states_cap, outputs_cap; /* allocated lengths of states / outputs */
  guint n_events;           /* zero-crossing functions (type->events) */
  HydVarInfo *events;       /* [n_events] their names */
  guint events_cap;
  guint n_pos;              /* np when the type has a mechanical port (position
                               columns after the states), else 0 */
  guint n_dstates;          /* discrete states (hyd_comp_add_discrete_state) */
  HydVarInfo *dstates;      /* [n_dstates] */
  double *d0;               /* [n_dstates] initial values */
  guint dstates_cap;
  /* Bit X set when port X (X < 64) is an end of a connection in the
   * circuit, filled by the compiler before `setup`: a type may change its
   * model with it (an optional signal input that overrides a parameter, a
   * mechanical port that takes over the body's motion). 0 outside a
   * compiled circuit (the finite-difference harness sets it itself). */
  guint64 connected;

  gpointer priv;
};

static inline gboolean
hyd_comp_port_connected (const HydComp *comp, guint X)
{
  return X < 64 && (comp->connected >> X) & 1;
}

/* A fresh instance with default parameter values (the compiler fills par).
 * id, par, par_dt and own_compliance live in the instance's own block:
 * never free or replace them apart from it. */
HydComp *hyd_comp_new (const HydComponentType *type, const char *id, const HydFluid *fluid);
void hyd_comp_free (HydComp *comp);

/* Helpers for setup. */
void hyd_comp_set_states (HydComp *comp, guint n, const HydVarInfo *states);
/* Adds one state with a name built at run time (e.g. "q3"). */
void hyd_comp_add_state (HydComp *comp, const char *name, HydUnit unit, const char *description);
void hyd_comp_set_outputs (HydComp *comp, guint n, const HydVarInfo *outputs);
void hyd_comp_add_output (HydComp *comp, const char *name, HydUnit unit, const char *description);
void hyd_comp_set_vstates (HydComp *comp, guint n, const guint *vstates);
/* Declares a discrete state with its initial value (docs/domains.md). */
void hyd_comp_add_discrete_state (HydComp *comp, const char *name, double initial, const char *description);
/* Declares one event function (named for messages, e.g. "retracted end stop"). */
void hyd_comp_add_event (HydComp *comp, const char *name, const char *description);
/* Dense local pattern: entry (r, c) is jac[r·nl + c], nl = hyd_comp_n_local,
 * rows r < np + ns. The default. */
void hyd_comp_use_dense_pattern (HydComp *comp);
/* Sparse local pattern: nnz (row, col) pairs, copied. */
void hyd_comp_set_pattern (HydComp *comp, guint nnz, const guint *rows, const guint *cols);

static inline guint
hyd_comp_n_local (const HydComp *comp)
{
  return comp->type->n_ports + comp->n_states + comp->n_pos;
}

/* Local column of the position (angle) at port X; only when n_pos > 0. */
static inline guint
hyd_comp_pos_col (const HydComp *comp, guint X)
{
  return comp->type->n_ports + comp->n_states + X;
}

/* Dense-pattern Jacobian element: row r (q̂ rows first, then ẋ), column c
 * (across values first, then states, then positions). Only for dense
 * patterns. */
#define HYD_JAC(comp, out, r, c) \
  ((out)->jac[(r) * hyd_comp_n_local (comp) + (c)])

/* The operation of a type whose parameter values (in the order of params,
 * an enum as its choice index) are `values`; values NULL: the default. */
HydOperation hyd_component_type_get_operation (const HydComponentType *type, const double *values);
/* TRUE when the type's manual operator springs back to the neutral command
 * on release (its return_param says "spring"); FALSE for a detent or when
 * the type has no return_param. values NULL: the default. */
gboolean hyd_component_type_get_spring_return (const HydComponentType *type, const double *values);

/* Parameter lookup by name (−1 if absent). */
int hyd_component_type_find_param (const HydComponentType *type, const char *name);
int hyd_component_type_find_port (const HydComponentType *type, const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydComp, hyd_comp_free)

/* The linear two-port spring (parameters stiffness, preload) and damper
 * (parameter damping) of a mechanical domain: translational and rotational
 * types share them (hyd-comp-mechanics.c). */
void hyd_mech_spring_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out);
void hyd_mech_damper_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out);

G_END_DECLS
