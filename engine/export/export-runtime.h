/* ---- The assembly: nodes and component instances ----
 * The circuit's equations (Bramah docs/circuit-format.md, Nodes): each
 * node that is not a boundary holds one state ψ (its pressure p = F(ψ)),
 * and C(ψ)·ψ̇ = Σ q − φ·Σ V̇ with C = V·c(p) + Σ C_X·F'(ψ); each component
 * adds its flows q̂_X into the nodes of its ports, its port volumes V_X and
 * compliances C_X, and its own state derivatives ẋ. The component laws
 * are the engine's own code, copied below the integrator. */
typedef struct {
  const char *name;      /* the node's pressure variable, "<comp>.<port>.p" */
  int state;             /* its state index, or −1 for a boundary node */
  int bindex;            /* boundary nodes: index among them, else −1 */
  double wire_volume;    /* m³ of the connections */
  const HydProfile *bprof; /* boundary nodes: the prescribed pressure (Pa), or NULL: 0 */
  /* evaluation scratch */
  double p, pdot, V, Csum, dCsum, Q, Vdot, R, C, dCdp, f;
  HydNodeFluid nf;
} BxNode;

/* A translational or rotational node: states v, x (ω, φ) at state and
 * state + 1, m·v̇ = −ΣF̂, ẋ = v; a fixed point's node has no states and
 * stands at the position parameter bparam of component bcomp. */
typedef struct {
  int state;             /* −1: a fixed point's node */
  int bcomp, bparam;
  /* evaluation scratch */
  double v, x, m, F, f;
} BxMech;

/* A signal net: the value of its driver's output, and its sensitivities:
 * vals[j] = ∂value/∂y at the columns cols[j] (≥ N_STATES: a boundary
 * node's pressure), s_t = ∂value/∂t (Bramah docs/domains.md, "Signals"). */
typedef struct {
  int n_cols;
  const int *cols;
  double *vals;
  int used;              /* a component reads it */
  /* evaluation scratch */
  double value, s_t;
} BxSignal;

typedef struct {
  const HydComponentType *type;
  const char *id;
  const double *par;          /* [n_params], in the order of type->params */
  guint64 connected;          /* bit X: port X is wired */
  int state0;                 /* global index of its first state */
  int n_states;               /* as compiled by Bramah (checked at start) */
  const int *port_node;       /* [n_ports] node of each port, −1 none */
  const int *port_mnode;      /* [n_ports] mechanical node of each port, −1 none */
  const int *port_signal;     /* [n_ports] signal net of each port, −1 none */
  HydComp *(*make) (void);    /* NULL, or how the instance is made (a hose) */
  /* made by bx_comp_setup */
  HydComp *c;
  int *col;                   /* [n_local] global column (≥ N_STATES: a boundary node) */
  int *vpos;                  /* [n_states] index in c->vstates, −1 */
  double *pos;                /* [n_ports] positions when c->n_pos > 0, else NULL */
  double *p, *q, *xdot, *jac, *q_t, *x_t, *V, *dV, *d2V, *C, *dC, *out;
  size_t n_zero;
  double *s, *s_t, *ds;       /* signal outputs, ∂/∂t, dense ∂/∂z (blocks with outputs) */
  double *d;                  /* [c->n_dstates] discrete states (a step block's "stepped") */
} BxComp;

/* Profiles are evaluated per integration interval [lo, hi]: the piece in
 * force is the one at t_piece = (lo + hi)/2, so a value at an interval's
 * end is its left limit (Bramah docs/circuit-format.md, Profiles). */
static double bx_t_piece;

static void bx_comp_setup (BxComp *bc);
static void bx_nodes_begin (double t, const double *y);
static void bx_signals_eval (double t, const double *y, int want_jac);
static void bx_comp_eval (BxComp *bc, double t, const double *y, double *f, int want_jac);
static int bx_nodes_end (double *f);
static void bx_comp_jacobian (const BxComp *bc, double *J, double *dfdt);
static void bx_nodes_jacobian (double *J);
