/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-system-private.h — what the files of compile/ share: the compiled
 * system's layout (nodes, components, variables, pattern) and the internal
 * functions one file defines and another calls. Not installed, not seen
 * above compile/. */
#pragma once

#include "hyd-system.h"
#include "hyd-catalogue.h"
#include "hyd-diagnostic.h"
#include "hyd-i18n.h"

#include <math.h>
#include <string.h>

G_BEGIN_DECLS

typedef enum {
  VAR_TIME,
  VAR_NODE_P,
  VAR_PORT_Q,
  VAR_STATE,
  VAR_OUTPUT,
  VAR_NODE_VOID,
  VAR_SIGNAL,     /* a signal net's value (a = net) */
  VAR_DSTATE,     /* a discrete state (a = component, b = its index) */
} VarKind;

/* A signal input's entry in SysComp.col: a column ≤ −2 stands for its net,
 * whose value's sensitivities the chain rule spreads (docs/domains.md). */
#define HYD_SYS_SIGNAL_COL(net) (-2 - (int) (net))
#define HYD_SYS_SIGNAL_NET(col) ((guint) (-2 - (col)))

typedef struct {
  char *name;
  HydUnit unit;
  VarKind kind;
  int a;          /* node, component or state index */
  int b;          /* port or output index */
} Var;

typedef struct {
  HydComp *comp;
  HydProfile **prof;     /* [n_params], NULL for non-profile parameters */
  int *port_node;        /* [np] node index, −1 for a port outside the hydraulic domain */
  guint state0;          /* global index of its first state */
  guint event0;          /* global index of its first event function */
  int *vpos;             /* [ns] position in comp->vstates, or −1 (in p's block) */
  int *col;              /* [nl] global column of each local variable; ≥ n: boundary node n_states + b; −1 none */
  double *p;             /* [np] local port pressures; one block with q … pflow */
  double *q, *xdot, *jac, *q_t, *x_t, *V, *dV, *d2V, *C, *dC, *out;
  double *pflow;         /* [np] reported port flows */
  guint n_zero;          /* doubles from q to the end of out, cleared by every evaluation */
  int meter;             /* index into meters or −1 */
  /* Domains beyond hydraulics (hyd-system-domains.c); NULL / FALSE for a
   * purely hydraulic component. */
  int *port_mnode;       /* [np] mechanical node of each port or −1; NULL: none */
  int *port_signal;      /* [np] signal net of each port or −1; NULL: none */
  double *pos;           /* [np] positions of mechanical ports (n_pos > 0) */
  double *d;             /* [n_dstates] discrete states */
  double *s, *s_t, *ds;  /* signal outputs, ∂/∂t, dense ∂/∂z (blocks only) */
  gboolean ext;          /* takes part in the extra steps of eval and assembly */
  /* Sparse assembly (build_positions): where each contribution lands in the
   * values of the system's CSC pattern, −1 where it does not. */
  int *jpos;             /* [nnz] entry e at (its row's global row, col[jcol[e]]) */
  int *vrpos;            /* [nnz·np] volume-rate term of a vstate row e at port X's node */
  int *xvpos;            /* [np·nv] (node of port X, column of vstate j) */
} SysComp;

typedef struct {
  GArray *ports;         /* of guint: global port index */
  gboolean boundary;
  int state;
  int bindex;            /* boundary index, or −1 */
  double wire_volume;
  double p0;
  const HydProfile *bprof;
  int reporter;          /* global port that reports the boundary flow, −1 */
  /* scratch */
  double p, pdot, V, Csum, dCsum, R, C, dCdp, f;
  double Q, Vdot;        /* Σ q̂_X and Σ V̇_X over the node's ports */
  HydNodeFluid nf;       /* p = F(ψ), F', φ, c ... (identity for boundary nodes) */
  double void_volume;    /* V·(1 − φ), m³ */
  int diag_pos;          /* position of (state, state) in the CSC values */
} SysNode;

/* A translational or rotational node: states v, x (ω, φ) at state and
 * state + 1; m·v̇ = −ΣF̂, ẋ = v. */
typedef struct {
  GArray *ports;         /* of guint: global port index */
  HydDomain domain;
  int state;             /* −1: a fixed point's node (no states) */
  int bcomp, bparam;     /* the fixed point: component and its position parameter */
  double v0, x0;         /* initial values */
  /* scratch */
  double v, x, m, F, f;
} SysMechNode;

/* A signal net: one output (driver) and its readers. */
typedef struct {
  GArray *ports;         /* of guint */
  int driver;            /* global port of the output, or −1 */
  gboolean used;         /* has an input */
  int *cols;             /* [n_cols] state (≥ n: boundary) columns the value depends on */
  guint n_cols;
  /* scratch */
  double value, s_t;
  double *vals;          /* [n_cols] ∂value/∂y at cols */
  /* A reference's implicit net (docs/electrical.md, "References"): no
   * driver; its value is a state or a discrete state of tap_comp. */
  gboolean tap;
  guint tap_comp;
  int tap_state, tap_dstate; /* local index, or −1 */
  const char *tap_var;       /* the variable's name (the type's ref_var) */
  guint tap_reader;          /* global port of the hidden input */
  const char *tap_param;     /* the reference parameter */
} SysSignal;

typedef struct {
  guint comp;            /* component index */
  gboolean from_b;       /* compute from the B side, negated */
  GArray *side;          /* global ports of the side used */
  double side_wire_volume;
  int node;
} SysMeter;

struct _HydSystem {
  HydFluid fluid;
  guint n_comps;
  SysComp *comps;
  guint n_ports_total;
  guint *port_comp;      /* [n_ports_total] */
  guint *port_index;
  guint n_nodes;
  SysNode *nodes;
  HydNodeInfo *node_info;
  guint n_bnodes;
  int *bnode_node;       /* [n_bnodes] node index of each boundary node */
  guint n;
  char **state_names;
  HydUnit *state_units;
  double *y0;
  GArray *breakpoints;
  double t_piece;
  GPtrArray *warnings;       /* of char*: the English text of diagnostics */
  GPtrArray *diagnostics;    /* of HydDiagnostic*, the warnings as data */
  guint n_events;
  char **event_names;    /* [n_events] "C1: retracted end stop" */
  guint n_meters;
  SysMeter *meters;
  /* variables: built on first use (hyd_sys_ensure_variables) */
  gsize vars_built;      /* g_once flag */
  gsize names_built;     /* g_once flag: state_names and node_info's names */
  GArray *vars;          /* of Var */
  guint n_listed_vars;   /* the first n_listed_vars are listed; the rest are found only */
  GHashTable *var_index; /* name → index + 1 */
  GPtrArray *var_aliases; /* of char*: extra keys of var_index (".void" of other ports) */
  /* pattern */
  guint nnz;
  guint *colptr, *rowind;
  /* scratch */
  double *f_scratch;
  double *dfdt_scratch;
  double *bpdot;         /* [n_bnodes] */
  /* domains beyond hydraulics (hyd-system-domains.c) */
  guint n_mnodes;
  SysMechNode *mnodes;
  guint n_signals;
  SysSignal *signals;
  guint n_sig_order;
  guint *sig_order;      /* components with read signal outputs, in dependency order */
  guint n_dstates;
  gboolean any_domains;  /* a port that is not hydraulic, a discrete state, or version ≥ 2 */
  gboolean has_domains;  /* any of the above: eval takes the extra steps */
  /* electrical control (hyd-system-electrical.c) */
  guint n_enets;
  int *port_enet;        /* [n_ports_total] electrical net of each port, −1 */
  guint n_elec;
  guint *elec;           /* components that take part in the network */
  guint *comp_port0;     /* [n_comps] global index of each component's port 0 */
  guint *enet_parent;    /* [n_enets] scratch union-find */
  char *update_error;    /* why the last update failed (short circuit, chattering) */
  /* the parameters that follow a profile of time (hyd_sys_refresh_params):
   * pairs (component, parameter), made on first use and again after a change */
  guint *timed;
  guint n_timed;
  gboolean timed_valid;
  /* hyd_system_eval_variables: components evaluated and node pressures
   * computed for this call (== mark_gen) */
  guint *comp_mark;
  guint *node_mark;
  guint mark_gen;
};


/* q̂_X + Σ_j ∂V_X/∂x_j·ẋ_j: the flow into an evaluated component at port
 * X, its chamber's growth included, before its own compliance's share. */
static inline double
hyd_sys_port_flow_hat (const SysComp *sc, guint X)
{
  const HydComp *c = sc->comp;
  guint nv = c->n_vstates;
  double qx = sc->q[X];
  for (guint j = 0; j < nv; j++)
    qx += sc->dV[X * nv + j] * sc->xdot[c->vstates[j]];
  return qx;
}

/* shared between the files of compile/ */
const HydProfile *hyd_sys_boundary_profile (const SysComp *sc);
char *hyd_sys_port_name (const HydSystem *sys, guint gp);
void hyd_sys_refresh_params (HydSystem *sys, double t);
int hyd_sys_eval_all (HydSystem *sys, double t, const double *y, double *f, gboolean want_jac);
void hyd_sys_lint (HydSystem *sys);
/* A compile error about component `component` (its port or parameter, may
 * be NULL) as a diagnostic; the template's arguments are const char *,
 * then NULL. Returns FALSE. */
gboolean hyd_sys_component_error (GError **error, HydDiagnosticCode code, const char *component,
                                  const char *port, const char *parameter,
                                  const char *template, ...) G_GNUC_NULL_TERMINATED;
/* Adds a compile warning (takes the reference) to both lists. */
void hyd_sys_warn (HydSystem *sys, HydDiagnostic *warning);
guint hyd_sys_uf_find (guint *parent, guint i);
void hyd_sys_uf_union (guint *parent, guint a, guint b);
/* name is taken (freed when a variable of that name exists). */
void hyd_sys_add_var (HydSystem *sys, char *name, HydUnit unit, VarKind kind, int a, int b);
/* Builds the variable list and index once, on the first call (from any
 * thread): a check that asks for no variable never names them. */
void hyd_sys_ensure_variables (const HydSystem *sys);
void hyd_sys_ensure_names (const HydSystem *sys);
void hyd_sys_comp_alloc (SysComp *sc);
/* Position of (row, col) in the CSC values, or −1. */
int hyd_sys_pattern_pos (const HydSystem *sys, guint row, int col);

/* hyd-system-hose.c: the friction of a hose (docs/circuit-format.md,
 * Version 3). A connection with friction is compiled as an instance of
 * hyd_sys_hose_type (not in the catalogue) between two nodes, appended
 * after the circuit's components; its id is "<from>-<to>" and its ports A
 * and B are named after the connection's ends (hyd_sys_port_name). */
typedef struct {
  double length, diameter;  /* m */
  double volume;            /* π·d²·L/4, half at each end */
  char *from, *to;          /* the connection's ends ("C1.A" or a junction id) */
  guint connection;         /* its index in the circuit's connections */
} HydSysHose;
extern const HydComponentType hyd_sys_hose_type;
HydComp *hyd_sys_hose_new (const HydFluid *fluid, const char *from, const char *to, guint connection,
                           double length, double diameter);
/* The quasi-static flow (m³/s, positive for dp > 0) through a hose of
 * `length` and `diameter` (m) under the pressure drop dp (Pa), for a fluid
 * of `density` (kg/m³) and kinematic viscosity nu (m²/s); *dq_ddp its
 * derivative, *reynolds the Reynolds number (either may be NULL). */
double hyd_hose_flow (double length, double diameter, double density, double nu, double dp,
                      double *dq_ddp, double *reynolds);
/* The Darcy friction factor the hose law uses at Reynolds number re > 0. */
double hyd_hose_friction_factor (double re);

static inline gboolean
hyd_sys_comp_is_hose (const HydComp *comp)
{
  return comp->type == &hyd_sys_hose_type;
}

/* hyd-system-domains.c */
gboolean hyd_sys_build_domains (HydSystem *sys, const HydCircuit *circuit, guint *parent,
                                const guint *port_offset, const int *conn_ends, GError **error);
gboolean hyd_sys_order_signals (HydSystem *sys, GError **error);
void hyd_sys_domains_setup (HydSystem *sys);
guint hyd_sys_domains_count_states (HydSystem *sys, guint n);
void hyd_sys_domains_layout (HydSystem *sys);
void hyd_sys_domains_names (HydSystem *sys);
gboolean hyd_sys_domains_check_storage (HydSystem *sys, GError **error);
void hyd_sys_domains_inputs (HydSystem *sys, SysComp *sc);
void hyd_sys_domains_pre_eval (HydSystem *sys, double t, const double *y, gboolean want_jac);
void hyd_sys_domains_accumulate (HydSystem *sys, SysComp *sc);
void hyd_sys_domains_rhs (HydSystem *sys, double *f);
int hyd_sys_domains_update (HydSystem *sys, double t, const double *y, const int *crossed);
void hyd_sys_domains_reset (HydSystem *sys);
void hyd_sys_domains_pattern (const HydSystem *sys, GArray *pairs);
void hyd_sys_domains_variables (HydSystem *sys);
void hyd_sys_domains_free (HydSystem *sys);

/* hyd-system-tlm.c: the circuit stepped by transmission-line modelling
 * (HydOdeProblem.tlm, the tlm solver). */
const HydTlmOps *hyd_sys_tlm_ops (void);

/* hyd-system-electrical.c */
gboolean hyd_sys_build_electrical (HydSystem *sys, const int *port_root_enet, guint n_enets, GError **error);
gboolean hyd_sys_resolve_taps (HydSystem *sys, GError **error);
int hyd_sys_elec_solve (HydSystem *sys, double t, gboolean *changed);
void hyd_sys_elec_lint (HydSystem *sys);
void hyd_sys_electrical_free (HydSystem *sys);

G_END_DECLS
