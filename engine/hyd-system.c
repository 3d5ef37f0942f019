/* hyd-system.c — compiling a circuit into an ODE system with analytic J.
 *
 * Node equation (circuit-format.md, Nodes), for a node n with state ψ_n
 * (its pressure, or for the cavitation-safe models the pseudo-pressure of
 * hyd-fluid.h, with p_n = F(ψ_n) what the components see):
 *   C_n·ψ̇_n = R_n,  R_n = −Σ_X q̂_X − φ(ψ_n)·Σ_X Σ_k (∂V_X/∂y_k)·ẏ_k,
 *   C_n = V_n·c(ψ_n) + Σ_X C_X(p_n)·F'(ψ_n),  V_n = wire volumes + Σ_X V_X(y),
 * with c = 1/B(p), φ = 1, F(ψ) = ψ for "constant" and "tait" (the contract's
 * equation) and the liquid fraction φ and capacity c of a node that may hold
 * a void otherwise (mass conservation: V·c·ψ̇ + φ·V̇ = Σ q_in).
 * So ∂ψ̇_n/∂z = (∂R_n/∂z − ψ̇_n·∂C_n/∂z)/C_n, assembled by scattering each
 * component's local block (Esqué 2008 §4.4), every column of a node's
 * pressure times F'(ψ) of that node (the chain rule through p = F(ψ)).
 * Boundary node pressures are not states; their time derivative enters
 * ∂f/∂t by the chain rule through the columns that would belong to them. */
#include "hyd-system.h"
#include "hyd-catalogue.h"

#include <math.h>
#include <string.h>

typedef enum {
  VAR_TIME,
  VAR_NODE_P,
  VAR_PORT_Q,
  VAR_STATE,
  VAR_OUTPUT,
  VAR_NODE_VOID,
} VarKind;

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
  int *vpos;             /* [ns] position in comp->vstates, or −1 */
  int *col;              /* [nl] global column of each local variable; ≥ n: boundary node n_states + b; −1 none */
  double *p;             /* [np] local port pressures */
  double *q, *xdot, *jac, *q_t, *x_t, *V, *dV, *d2V, *C, *dC, *out;
  double *pflow;         /* [np] reported port flows */
  int meter;             /* index into meters or −1 */
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
  GPtrArray *warnings;
  guint n_events;
  char **event_names;    /* [n_events] "C1: retracted end stop" */
  guint n_meters;
  SysMeter *meters;
  /* variables */
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
};

/* ---------- union-find ---------- */

static guint
uf_find (guint *parent, guint i)
{
  while (parent[i] != i)
    {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
  return i;
}

static void
uf_union (guint *parent, guint a, guint b)
{
  a = uf_find (parent, a);
  b = uf_find (parent, b);
  if (a != b)
    parent[MAX (a, b)] = MIN (a, b);
}

/* ---------- helpers ---------- */

static char *
port_name (const HydSystem *sys, guint gp)
{
  const HydComp *c = sys->comps[sys->port_comp[gp]].comp;
  return g_strconcat (c->id, ".", c->type->ports[sys->port_index[gp]].name, NULL);
}

static void
add_var (HydSystem *sys, const char *name, HydUnit unit, VarKind kind, int a, int b)
{
  if (g_hash_table_contains (sys->var_index, name))
    return;
  Var v = { g_strdup (name), unit, kind, a, b };
  g_array_append_val (sys->vars, v);
  g_hash_table_insert (sys->var_index, v.name, GINT_TO_POINTER (sys->vars->len));
}

static void
sys_comp_alloc (SysComp *sc)
{
  HydComp *c = sc->comp;
  guint np = c->type->n_ports, ns = c->n_states, nv = c->n_vstates;
  sc->p = g_new0 (double, np + 1);
  sc->q = g_new0 (double, np + 1);
  sc->xdot = g_new0 (double, ns + 1);
  sc->jac = g_new0 (double, c->nnz + 1);
  sc->q_t = g_new0 (double, np + 1);
  sc->x_t = g_new0 (double, ns + 1);
  sc->V = g_new0 (double, np + 1);
  sc->dV = g_new0 (double, np * nv + 1);
  sc->d2V = g_new0 (double, np * nv * nv + 1);
  sc->C = g_new0 (double, np + 1);
  sc->dC = g_new0 (double, np + 1);
  sc->out = g_new0 (double, c->n_outputs + 1);
  sc->pflow = g_new0 (double, np + 1);
  sc->vpos = g_new (int, ns + 1);
  for (guint k = 0; k < ns; k++)
    sc->vpos[k] = -1;
  for (guint j = 0; j < nv; j++)
    sc->vpos[c->vstates[j]] = (int) j;
}

static void
sys_comp_clear (SysComp *sc)
{
  if (sc->comp == NULL)
    return;
  for (guint k = 0; k < sc->comp->type->n_params; k++)
    if (sc->prof && sc->prof[k])
      hyd_profile_free (sc->prof[k]);
  g_free (sc->prof);
  g_free (sc->port_node);
  g_free (sc->vpos);
  g_free (sc->col);
  g_free (sc->p); g_free (sc->q); g_free (sc->xdot); g_free (sc->jac);
  g_free (sc->q_t); g_free (sc->x_t); g_free (sc->V); g_free (sc->dV);
  g_free (sc->d2V); g_free (sc->C); g_free (sc->dC); g_free (sc->out);
  g_free (sc->pflow);
  g_free (sc->jpos);
  g_free (sc->vrpos);
  g_free (sc->xvpos);
  hyd_comp_free (sc->comp);
}

void
hyd_system_free (HydSystem *sys)
{
  if (sys == NULL)
    return;
  for (guint i = 0; i < sys->n_comps; i++)
    sys_comp_clear (&sys->comps[i]);
  g_free (sys->comps);
  g_free (sys->port_comp);
  g_free (sys->port_index);
  for (guint i = 0; i < sys->n_nodes; i++)
    {
      g_array_unref (sys->nodes[i].ports);
      if (sys->node_info)
        {
          g_free (sys->node_info[i].name);
          g_ptr_array_unref (sys->node_info[i].ports);
        }
    }
  g_free (sys->nodes);
  g_free (sys->node_info);
  g_free (sys->bnode_node);
  for (guint i = 0; i < sys->n; i++)
    g_free (sys->state_names[i]);
  g_free (sys->state_names);
  g_free (sys->state_units);
  if (sys->event_names)
    g_strfreev (sys->event_names);
  g_free (sys->y0);
  if (sys->breakpoints)
    g_array_unref (sys->breakpoints);
  if (sys->warnings)
    g_ptr_array_unref (sys->warnings);
  for (guint i = 0; i < sys->n_meters; i++)
    g_array_unref (sys->meters[i].side);
  g_free (sys->meters);
  if (sys->vars)
    {
      for (guint i = 0; i < sys->vars->len; i++)
        g_free (g_array_index (sys->vars, Var, i).name);
      g_array_unref (sys->vars);
    }
  if (sys->var_index)
    g_hash_table_unref (sys->var_index);
  if (sys->var_aliases)
    g_ptr_array_unref (sys->var_aliases);
  g_free (sys->colptr);
  g_free (sys->rowind);
  g_free (sys->f_scratch);
  g_free (sys->dfdt_scratch);
  g_free (sys->bpdot);
  g_free (sys);
}

/* ---------- evaluation ---------- */

static void
refresh_params (HydSystem *sys, double t)
{
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      for (guint k = 0; k < sc->comp->type->n_params; k++)
        if (sc->prof[k] && !hyd_profile_is_constant (sc->prof[k]))
          sc->comp->par[k] = hyd_profile_eval (sc->prof[k], t, sys->t_piece, &sc->comp->par_dt[k]);
    }
}

/* Evaluate every component and the node sums; fills f (may be NULL). */
static int
eval_all (HydSystem *sys, double t, const double *y, double *f, gboolean want_jac)
{
  refresh_params (sys, t);

  for (guint b = 0; b < sys->n_nodes; b++)
    {
      SysNode *nd = &sys->nodes[b];
      if (nd->boundary)
        {
          nd->p = nd->bprof ? hyd_profile_eval (nd->bprof, t, sys->t_piece, &nd->pdot) : 0.0;
          if (nd->bprof == NULL)
            nd->pdot = 0.0;
          sys->bpdot[nd->bindex] = nd->pdot;
          /* a prescribed pressure: no void, p itself is the variable */
          double dB, B = hyd_fluid_bulk_modulus (&sys->fluid, nd->p, &dB);
          nd->nf = (HydNodeFluid) { .p = nd->p, .dp = 1.0, .phi = 1.0, .phi_full = 1.0,
                                    .c = 1.0 / B, .dc = -dB / (B * B) };
        }
      else
        {
          hyd_fluid_node (&sys->fluid, y[nd->state], &nd->nf);
          nd->p = nd->nf.p;
        }
      nd->V = nd->wire_volume;
      nd->Csum = 0.0;
      nd->dCsum = 0.0;
      nd->Q = 0.0;
      nd->Vdot = 0.0;
    }

  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      guint np = c->type->n_ports, ns = c->n_states, nv = c->n_vstates;
      for (guint X = 0; X < np; X++)
        sc->p[X] = sc->port_node[X] >= 0 ? sys->nodes[sc->port_node[X]].p : 0.0;
      memset (sc->q, 0, sizeof (double) * np);
      memset (sc->xdot, 0, sizeof (double) * ns);
      memset (sc->q_t, 0, sizeof (double) * np);
      memset (sc->x_t, 0, sizeof (double) * ns);
      memset (sc->V, 0, sizeof (double) * np);
      memset (sc->dV, 0, sizeof (double) * np * nv);
      memset (sc->d2V, 0, sizeof (double) * np * nv * nv);
      memset (sc->C, 0, sizeof (double) * np);
      memset (sc->dC, 0, sizeof (double) * np);
      memset (sc->out, 0, sizeof (double) * c->n_outputs);
      if (want_jac)
        memset (sc->jac, 0, sizeof (double) * c->nnz);
      HydEvalIn in = { t, sc->p, y + sc->state0 };
      HydEvalOut out = {
        sc->q, sc->xdot, want_jac ? sc->jac : NULL, sc->q_t, sc->x_t,
        sc->V, sc->dV, sc->d2V, sc->C, sc->dC, sc->out
      };
      c->type->eval (c, &in, &out);

      if (f)
        memcpy (f + sc->state0, sc->xdot, sizeof (double) * ns);

      for (guint X = 0; X < np; X++)
        {
          int n = sc->port_node[X];
          if (n < 0)
            continue;
          SysNode *nd = &sys->nodes[n];
          nd->V += sc->V[X];
          nd->Csum += sc->C[X];
          nd->dCsum += sc->dC[X];
          double rate = 0.0;
          for (guint j = 0; j < nv; j++)
            rate += sc->dV[X * nv + j] * sc->xdot[c->vstates[j]];
          nd->Q += sc->q[X];
          nd->Vdot += rate;
        }
    }

  int status = 0;
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      SysNode *nd = &sys->nodes[b];
      const HydNodeFluid *nf = &nd->nf;
      /* C = V·c + Σ C_X·F',  ∂C/∂ψ = V·c' + Σ (∂C_X/∂p)·F'² + Σ C_X·F'' */
      hyd_fluid_node_capacity (nf, nd->V, nd->Csum, nd->dCsum, &nd->C, &nd->dCdp);
      nd->R = hyd_fluid_node_inflow (nf, -nd->Q, nd->Vdot);
      nd->void_volume = nd->V * nf->voidf;
      if (nd->boundary)
        {
          nd->f = nd->pdot;
          continue;
        }
      nd->f = nd->R / nd->C;
      if (f)
        f[nd->state] = nd->f;
    }
  if (f)
    for (guint i = 0; i < sys->n; i++)
      if (!isfinite (f[i]))
        status = 1;
  return status;
}

int
hyd_system_rhs (HydSystem *sys, double t, const double *y, double *f)
{
  return eval_all (sys, t, y, f, FALSE);
}

static inline void
jac_add (HydSystem *sys, double *J, double *dfdt, guint row, int col, double v)
{
  if (col < 0 || v == 0.0)
    return;
  if ((guint) col < sys->n)
    J[row + (gsize) col * sys->n] += v;
  else if (dfdt)
    dfdt[row] += v * sys->bpdot[col - sys->n];
}

/* A component's local Jacobian entry e with the chain rule through p = F(ψ)
 * applied to a node-pressure column (boundary nodes have F' = 1). */
static inline double
local_entry (const HydSystem *sys, const SysComp *sc, guint e)
{
  const HydComp *c = sc->comp;
  double v = sc->jac[e];
  guint jc = c->jcol[e];
  if (jc < c->type->n_ports && sc->port_node[jc] >= 0)
    v *= sys->nodes[sc->port_node[jc]].nf.dp;
  return v;
}

int
hyd_system_jacobian (HydSystem *sys, double t, const double *y, double *J, double *dfdt)
{
  guint n = sys->n;
  int status = eval_all (sys, t, y, sys->f_scratch, TRUE);
  memset (J, 0, sizeof (double) * n * n);
  if (dfdt)
    memset (dfdt, 0, sizeof (double) * n);

  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      guint np = c->type->n_ports, nv = c->n_vstates;

      for (guint e = 0; e < c->nnz; e++)
        {
          if (sc->jac[e] == 0.0)
            continue;
          double v = local_entry (sys, sc, e);
          guint r = c->jrow[e];
          int col = sc->col[c->jcol[e]];
          if (r < np)
            {
              int nn = sc->port_node[r];
              if (nn >= 0 && !sys->nodes[nn].boundary)
                jac_add (sys, J, dfdt, sys->nodes[nn].state, col, -v / sys->nodes[nn].C);
            }
          else
            {
              guint k = r - np;
              jac_add (sys, J, dfdt, sc->state0 + k, col, v);
              int jv = sc->vpos[k];
              if (jv < 0)
                continue;
              /* volume-rate term: −φ_n·(∂V_X/∂y_k)·∂ẏ_k/∂z */
              for (guint X = 0; X < np; X++)
                {
                  int nn = sc->port_node[X];
                  if (nn < 0 || sys->nodes[nn].boundary)
                    continue;
                  const SysNode *nd = &sys->nodes[nn];
                  double dv = sc->dV[X * nv + jv];
                  if (dv != 0.0)
                    jac_add (sys, J, dfdt, nd->state, col, -nd->nf.phi * dv * v / nd->C);
                }
            }
        }

      /* time derivatives of the component's own rows */
      if (dfdt)
        for (guint k = 0; k < c->n_states; k++)
          dfdt[sc->state0 + k] += sc->x_t[k];

      for (guint X = 0; X < np; X++)
        {
          int nn = sc->port_node[X];
          if (nn < 0 || sys->nodes[nn].boundary)
            continue;
          SysNode *nd = &sys->nodes[nn];
          guint row = nd->state;
          if (dfdt)
            {
              double rt = 0.0;
              for (guint j = 0; j < nv; j++)
                rt -= sc->dV[X * nv + j] * sc->x_t[c->vstates[j]];
              dfdt[row] += (-sc->q_t[X] + nd->nf.phi * rt) / nd->C;
            }
          for (guint j = 0; j < nv; j++)
            {
              guint sj = c->vstates[j];
              int colj = sc->col[np + sj];
              /* −φ·(∂²V/∂y_j∂y_k)·ẏ_j and −ψ̇·∂C/∂y_k, ∂C/∂y_k = (∂V/∂y_k)·c */
              for (guint kk = 0; kk < nv; kk++)
                {
                  double d2 = sc->d2V[(X * nv + j) * nv + kk];
                  if (d2 != 0.0)
                    jac_add (sys, J, dfdt, row, sc->col[np + c->vstates[kk]],
                             -nd->nf.phi * d2 * sc->xdot[sj] / nd->C);
                }
              double dv = sc->dV[X * nv + j];
              if (dv != 0.0)
                jac_add (sys, J, dfdt, row, colj, -nd->f * (dv * nd->nf.c) / nd->C);
            }
        }
    }

  /* −(ψ̇_n·∂C_n/∂ψ_n + φ'·V̇_n)/C_n on the diagonal */
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      SysNode *nd = &sys->nodes[b];
      if (nd->boundary)
        continue;
      J[nd->state + (gsize) nd->state * n] -= (nd->f * nd->dCdp + nd->nf.dphi * nd->Vdot) / nd->C;
    }

  for (gsize k = 0; k < (gsize) n * n && status == 0; k++)
    if (!isfinite (J[k]))
      status = 1;
  return status;
}

/* The same sums as hyd_system_jacobian, scattered into the CSC values of
 * the system's pattern through the positions found at compile time
 * (build_positions): O(nnz) per call, no n² storage. */
static inline void
sjac_add (HydSystem *sys, double *values, double *dfdt, guint row, int col, int pos, double v)
{
  if (col < 0 || v == 0.0)
    return;
  if ((guint) col < sys->n)
    values[pos] += v;
  else if (dfdt)
    dfdt[row] += v * sys->bpdot[col - sys->n];
}

int
hyd_system_jacobian_sparse (HydSystem *sys, double t, const double *y, double *values,
                            double *dfdt)
{
  int status = eval_all (sys, t, y, sys->f_scratch, TRUE);
  memset (values, 0, sizeof (double) * sys->nnz);
  if (dfdt)
    memset (dfdt, 0, sizeof (double) * sys->n);

  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      guint np = c->type->n_ports, nv = c->n_vstates;

      for (guint e = 0; e < c->nnz; e++)
        {
          if (sc->jac[e] == 0.0)
            continue;
          double v = local_entry (sys, sc, e);
          guint r = c->jrow[e];
          int col = sc->col[c->jcol[e]];
          if (r < np)
            {
              int nn = sc->port_node[r];
              if (nn >= 0 && !sys->nodes[nn].boundary)
                sjac_add (sys, values, dfdt, sys->nodes[nn].state, col, sc->jpos[e],
                          -v / sys->nodes[nn].C);
            }
          else
            {
              guint k = r - np;
              sjac_add (sys, values, dfdt, sc->state0 + k, col, sc->jpos[e], v);
              int jv = sc->vpos[k];
              if (jv < 0)
                continue;
              /* volume-rate term: −φ_n·(∂V_X/∂y_k)·∂ẏ_k/∂z */
              for (guint X = 0; X < np; X++)
                {
                  int nn = sc->port_node[X];
                  if (nn < 0 || sys->nodes[nn].boundary)
                    continue;
                  const SysNode *nd = &sys->nodes[nn];
                  double dv = sc->dV[X * nv + jv];
                  if (dv != 0.0)
                    sjac_add (sys, values, dfdt, nd->state, col,
                              sc->vrpos[(gsize) e * np + X], -nd->nf.phi * dv * v / nd->C);
                }
            }
        }

      if (dfdt)
        for (guint k = 0; k < c->n_states; k++)
          dfdt[sc->state0 + k] += sc->x_t[k];

      for (guint X = 0; X < np; X++)
        {
          int nn = sc->port_node[X];
          if (nn < 0 || sys->nodes[nn].boundary)
            continue;
          SysNode *nd = &sys->nodes[nn];
          if (dfdt)
            {
              double rt = 0.0;
              for (guint j = 0; j < nv; j++)
                rt -= sc->dV[X * nv + j] * sc->x_t[c->vstates[j]];
              dfdt[nd->state] += (-sc->q_t[X] + nd->nf.phi * rt) / nd->C;
            }
          for (guint j = 0; j < nv; j++)
            {
              guint sj = c->vstates[j];
              for (guint kk = 0; kk < nv; kk++)
                {
                  double d2 = sc->d2V[(X * nv + j) * nv + kk];
                  if (d2 != 0.0)
                    values[sc->xvpos[X * nv + kk]] -= nd->nf.phi * d2 * sc->xdot[sj] / nd->C;
                }
              double dv = sc->dV[X * nv + j];
              if (dv != 0.0)
                values[sc->xvpos[X * nv + j]] -= nd->f * (dv * nd->nf.c) / nd->C;
            }
        }
    }

  for (guint b = 0; b < sys->n_nodes; b++)
    {
      SysNode *nd = &sys->nodes[b];
      if (!nd->boundary)
        values[nd->diag_pos] -= (nd->f * nd->dCdp + nd->nf.dphi * nd->Vdot) / nd->C;
    }

  for (guint k = 0; k < sys->nnz && status == 0; k++)
    if (!isfinite (values[k]))
      status = 1;
  return status;
}

/* ---------- compile ---------- */

static gboolean
set_compile_error (GError **error, int code, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

static gboolean
set_compile_error (GError **error, int code, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error_literal (error, HYD_CIRCUIT_ERROR, code, msg);
  g_free (msg);
  return FALSE;
}

static char *
node_port_list (const HydSystem *sys, GArray *ports)
{
  GString *s = g_string_new ("{");
  for (guint k = 0; k < ports->len; k++)
    {
      char *pn = port_name (sys, g_array_index (ports, guint, k));
      g_string_append_printf (s, "%s%s", k ? ", " : "", pn);
      g_free (pn);
    }
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

/* Global port index of "C.P", or a junction (n_ports_total + j); −1 if
 * unknown. comp_ids and junction_ids map ids to index + 1: hashed, so that
 * resolving is linear in the connections (a scan made 10^5 take minutes). */
static int
resolve_ref (const HydSystem *sys, GHashTable *comp_ids, GHashTable *junction_ids,
             const guint *port_offset, const char *ref)
{
  g_autofree char *cid = NULL;
  g_autofree char *pname = NULL;
  guint i;

  if (hyd_circuit_split_port_ref (ref, &cid, &pname))
    {
      i = GPOINTER_TO_UINT (g_hash_table_lookup (comp_ids, cid));
      if (i == 0)
        return -1;
      int k = hyd_component_type_find_port (sys->comps[i - 1].comp->type, pname);
      return k >= 0 ? (int) (port_offset[i - 1] + k) : -1;
    }
  i = GPOINTER_TO_UINT (g_hash_table_lookup (junction_ids, ref));
  return i > 0 ? (int) (sys->n_ports_total + i - 1) : -1;
}

static void
add_pattern (GArray *pairs, guint row, int col, guint n)
{
  if (col < 0 || (guint) col >= n)
    return;
  guint64 key = ((guint64) (guint) col << 32) | row;
  g_array_append_val (pairs, key);
}

static int
cmp_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

static void
build_pattern (HydSystem *sys)
{
  GArray *pairs = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint n = sys->n;
  for (guint b = 0; b < sys->n_nodes; b++)
    if (!sys->nodes[b].boundary)
      add_pattern (pairs, sys->nodes[b].state, sys->nodes[b].state, n);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      guint np = c->type->n_ports;
      for (guint e = 0; e < c->nnz; e++)
        {
          guint r = c->jrow[e];
          int col = sc->col[c->jcol[e]];
          if (r < np)
            {
              int nn = sc->port_node[r];
              if (nn >= 0 && !sys->nodes[nn].boundary)
                add_pattern (pairs, sys->nodes[nn].state, col, n);
            }
          else
            {
              add_pattern (pairs, sc->state0 + (r - np), col, n);
              if (sc->vpos[r - np] >= 0)
                for (guint X = 0; X < np; X++)
                  {
                    int nn = sc->port_node[X];
                    if (nn >= 0 && !sys->nodes[nn].boundary)
                      add_pattern (pairs, sys->nodes[nn].state, col, n);
                  }
            }
        }
      for (guint X = 0; X < np; X++)
        {
          int nn = sc->port_node[X];
          if (nn < 0 || sys->nodes[nn].boundary)
            continue;
          for (guint j = 0; j < c->n_vstates; j++)
            add_pattern (pairs, sys->nodes[nn].state, sc->col[np + c->vstates[j]], n);
        }
    }
  g_array_sort (pairs, cmp_u64);
  sys->colptr = g_new0 (guint, n + 1);
  sys->rowind = g_new (guint, pairs->len + 1);
  guint nnz = 0;
  guint64 last = G_MAXUINT64;
  for (guint k = 0; k < pairs->len; k++)
    {
      guint64 key = g_array_index (pairs, guint64, k);
      if (key == last)
        continue;
      last = key;
      guint col = (guint) (key >> 32);
      sys->rowind[nnz++] = (guint) (key & 0xffffffffu);
      sys->colptr[col + 1]++;
    }
  for (guint j = 0; j < n; j++)
    sys->colptr[j + 1] += sys->colptr[j];
  sys->nnz = nnz;
  g_array_unref (pairs);
}

/* Position of (row, col) in the pattern's values (rows sorted in each
 * column), or −1. */
static int
pattern_pos (const HydSystem *sys, guint row, int col)
{
  if (col < 0 || (guint) col >= sys->n)
    return -1;
  guint lo = sys->colptr[col], hi = sys->colptr[col + 1];
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (sys->rowind[mid] < row)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < sys->colptr[col + 1] && sys->rowind[lo] == row ? (int) lo : -1;
}

/* For the sparse assembly, once: where every term of hyd_system_jacobian
 * lands in the CSC values (the pattern of build_pattern holds them all). */
static void
build_positions (HydSystem *sys)
{
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      SysNode *nd = &sys->nodes[b];
      nd->diag_pos = nd->boundary ? -1 : pattern_pos (sys, nd->state, nd->state);
    }
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      guint np = c->type->n_ports, nv = c->n_vstates;
      sc->jpos = g_new (int, c->nnz + 1);
      sc->vrpos = nv > 0 ? g_new (int, (gsize) c->nnz * np + 1) : NULL;
      sc->xvpos = g_new (int, np * nv + 1);
      for (guint e = 0; e < c->nnz; e++)
        {
          guint r = c->jrow[e];
          int col = sc->col[c->jcol[e]];
          sc->jpos[e] = -1;
          if (r < np)
            {
              int nn = sc->port_node[r];
              if (nn >= 0 && !sys->nodes[nn].boundary)
                sc->jpos[e] = pattern_pos (sys, sys->nodes[nn].state, col);
            }
          else
            sc->jpos[e] = pattern_pos (sys, sc->state0 + (r - np), col);
          /* build_pattern holds every (row, state column) assembled */
          g_assert (sc->jpos[e] >= 0 || col < 0 || (guint) col >= sys->n
                    || (r < np && (sc->port_node[r] < 0 || sys->nodes[sc->port_node[r]].boundary)));
          if (sc->vrpos == NULL)
            continue;
          for (guint X = 0; X < np; X++)
            {
              int nn = sc->port_node[X];
              sc->vrpos[(gsize) e * np + X] =
                r >= np && sc->vpos[r - np] >= 0 && nn >= 0 && !sys->nodes[nn].boundary
                ? pattern_pos (sys, sys->nodes[nn].state, col) : -1;
            }
        }
      for (guint X = 0; X < np; X++)
        {
          int nn = sc->port_node[X];
          for (guint j = 0; j < nv; j++)
            sc->xvpos[X * nv + j] = nn >= 0 && !sys->nodes[nn].boundary
                                    ? pattern_pos (sys, sys->nodes[nn].state,
                                                   sc->col[np + c->vstates[j]])
                                    : -1;
        }
    }
}

static const HydProfile *
boundary_profile (const SysComp *sc)
{
  int k = sc->comp->type->boundary_param;
  return k >= 0 ? sc->prof[k] : NULL;
}

/* What a component is to the lint's search for a flow path. */
typedef enum {
  REACH_BLOCKS,   /* the search does not pass it */
  REACH_PASSES,   /* flow passes it to its other ports' nodes */
  REACH_FOUND,    /* what the search looks for */
} ReachVerdict;

typedef ReachVerdict (*ReachJudge) (const char *type_id);

/* Breadth-first over the nodes from start, through the components judge lets
 * pass (never through component skip); TRUE when it meets one judged FOUND,
 * or a boundary node when boundary_found. */
static gboolean
reaches (HydSystem *sys, int start, int skip, ReachJudge judge, gboolean boundary_found)
{
  g_autofree gboolean *seen = g_new0 (gboolean, sys->n_nodes);
  GQueue queue = G_QUEUE_INIT;
  g_queue_push_tail (&queue, GINT_TO_POINTER (start));
  seen[start] = TRUE;
  gboolean found = FALSE;
  while (!g_queue_is_empty (&queue) && !found)
    {
      int nd = GPOINTER_TO_INT (g_queue_pop_head (&queue));
      if (boundary_found && sys->nodes[nd].boundary)
        found = TRUE;
      for (guint j = 0; j < sys->n_comps && !found; j++)
        {
          SysComp *sc = &sys->comps[j];
          guint np = sc->comp->type->n_ports;
          gboolean touches = FALSE;
          for (guint X = 0; X < np; X++)
            touches = touches || sc->port_node[X] == nd;
          if (!touches || (int) j == skip)
            continue;
          ReachVerdict v = judge (sc->comp->type->id);
          if (v == REACH_FOUND)
            found = TRUE;
          if (v != REACH_PASSES)
            continue;
          for (guint X = 0; X < np; X++)
            {
              int m = sc->port_node[X];
              if (m >= 0 && !seen[m])
                {
                  seen[m] = TRUE;
                  g_queue_push_tail (&queue, GINT_TO_POINTER (m));
                }
            }
        }
    }
  g_queue_clear (&queue);
  return found;
}

/* A pump's delivery: a relief valve, a pressure source or an accumulator
 * limits it; flow passes everything with two or more ports except a
 * cylinder (its chambers are dead ends). */
static ReachVerdict
judge_relief_path (const char *t)
{
  if (strcmp (t, "relief_valve") == 0 || strcmp (t, "pressure_source") == 0
      || strcmp (t, "accumulator") == 0)
    return REACH_FOUND;
  return g_str_has_prefix (t, "cylinder") ? REACH_BLOCKS : REACH_PASSES;
}

/* A cylinder chamber: lines and meters are only conduits; volumes, gauges,
 * accumulators and chambers store oil; anything else can pass flow. */
static ReachVerdict
judge_flow_path (const char *t)
{
  if (strcmp (t, "line") == 0 || strcmp (t, "flow_meter") == 0)
    return REACH_PASSES;
  if (strcmp (t, "volume") == 0 || strcmp (t, "accumulator") == 0
      || strcmp (t, "pressure_gauge") == 0 || g_str_has_prefix (t, "cylinder"))
    return REACH_BLOCKS;
  return REACH_FOUND;
}

/* A parameter's largest magnitude over the run: its profile's range, or
 * its value. */
static double
param_max_abs (const SysComp *sc, const char *name)
{
  int k = hyd_component_type_find_param (sc->comp->type, name);
  if (k < 0)
    return 0.0;
  if (sc->prof[k] != NULL)
    {
      double lo, hi;
      hyd_profile_get_range (sc->prof[k], &lo, &hi);
      return MAX (fabs (lo), fabs (hi));
    }
  return fabs (sc->comp->par[k]);
}

static double
param_value (const SysComp *sc, const char *name)
{
  int k = hyd_component_type_find_param (sc->comp->type, name);
  return k >= 0 ? sc->comp->par[k] : NAN;
}

/* The tank whose boundary node n is, or NULL. */
static const HydComp *
node_tank (const HydSystem *sys, int n)
{
  if (n < 0 || !sys->nodes[n].boundary)
    return NULL;
  const GArray *ports = sys->nodes[n].ports;
  for (guint k = 0; k < ports->len; k++)
    {
      const HydComp *c = sys->comps[sys->port_comp[g_array_index (ports, guint, k)]].comp;
      if (strcmp (c->type->id, "tank") == 0)
        return c;
    }
  return NULL;
}

/* A check valve fed from a tank (a make-up or anti-cavitation valve) has at
 * most p_tank − p_vapour (about 1 bar) across it: the B side cannot go lower.
 * If cracking + opening range exceeds that, it can never open fully and
 * the B side sits near the vapour pressure instead of near tank pressure. */
static void
lint_makeup_check_valve (HydSystem *sys, const SysComp *sc)
{
  const HydComp *tank = node_tank (sys, sc->port_node[0]);
  if (tank == NULL)
    return;
  const HydProfile *bp = sys->nodes[sc->port_node[0]].bprof;
  double lo = 0.0, hi = 0.0;
  if (bp != NULL)
    hyd_profile_get_range (bp, &lo, &hi);
  double available = hi - sys->fluid.vapour_pressure;
  double crack = param_value (sc, "cracking_pressure");
  double range = param_value (sc, "opening_range");
  if (crack + range <= available)
    return;
  g_ptr_array_add (sys->warnings,
                   g_strdup_printf ("%s: this check valve takes oil from tank %s but can never open "
                                    "fully: it needs %.3g bar (cracking %.3g bar + opening range "
                                    "%.3g bar), and the tank can push at most %.3g bar before the "
                                    "%s.B side reaches the vapour pressure. As a make-up "
                                    "(anti-cavitation) valve use a low cracking pressure and "
                                    "opening range, e.g. 0.1 bar + 0.3 bar",
                                    sc->comp->id, tank->id, (crack + range) / 1e5, crack / 1e5,
                                    range / 1e5, available / 1e5, sc->comp->id));
}

/* The relief valves on a pump's (or flow source's) own line must pass all
 * its delivery when the circuit takes none (every valve closed, a cylinder
 * at its stop). */
static void
lint_relief_rating (HydSystem *sys, const SysComp *pump)
{
  gboolean source = strcmp (pump->comp->type->id, "flow_source") == 0;
  int node = pump->port_node[source ? 0 : 1];
  if (node < 0)
    return;
  double q_pump = source ? param_max_abs (pump, "flow")
                         : param_max_abs (pump, "displacement") * param_max_abs (pump, "speed");
  if (strcmp (pump->comp->type->id, "variable_pump") == 0)
    q_pump *= param_max_abs (pump, "fraction");
  double q_rated = 0.0;
  g_autoptr (GString) ids = g_string_new (NULL);
  for (guint j = 0; j < sys->n_comps; j++)
    {
      const SysComp *sc = &sys->comps[j];
      if (strcmp (sc->comp->type->id, "relief_valve") != 0 || sc->port_node[0] != node)
        continue;
      q_rated += param_value (sc, "nominal_flow");
      g_string_append_printf (ids, "%s%s", ids->len ? ", " : "", sc->comp->id);
    }
  if (ids->len == 0 || q_rated >= q_pump * (1.0 - 1e-6))
    return;
  g_ptr_array_add (sys->warnings,
                   g_strdup_printf ("%s: the relief valve on the line of %s %s is rated for "
                                    "%.3g L/min (nominal_flow) but it delivers up to %.3g "
                                    "L/min; when the circuit takes no oil the valve must pass all "
                                    "of it, %.2g times its rating. Raise nominal_flow to at least "
                                    "%.3g L/min",
                                    ids->str, source ? "flow source" : "pump", pump->comp->id,
                                    q_rated * 6e4, q_pump * 6e4,
                                    q_pump / q_rated, q_pump * 6e4));
}

static void
lint (HydSystem *sys)
{
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const HydComp *c = sys->comps[i].comp;
      const char *tid = c->type->id;
      /* a pump whose path closes builds pressure without limit */
      if (strcmp (tid, "fixed_pump") == 0 || strcmp (tid, "variable_pump") == 0)
        {
          int start = sys->comps[i].port_node[1];
          if (start >= 0 && !reaches (sys, start, (int) i, judge_relief_path, FALSE))
            g_ptr_array_add (sys->warnings,
                             g_strdup_printf ("%s: the pump has no relief path (no relief valve "
                                              "or accumulator reachable from %s.P)", c->id, c->id));
          lint_relief_rating (sys, &sys->comps[i]);
        }
      if (strcmp (tid, "flow_source") == 0)
        lint_relief_rating (sys, &sys->comps[i]);
      if (strcmp (tid, "check_valve") == 0)
        lint_makeup_check_valve (sys, &sys->comps[i]);
      /* a chamber that reaches nothing that passes flow is locked in every
       * valve position */
      if (g_str_has_prefix (tid, "cylinder"))
        for (guint X = 0; X < c->type->n_ports; X++)
          {
            int start = sys->comps[i].port_node[X];
            if (start >= 0 && !reaches (sys, start, -1, judge_flow_path, TRUE))
              g_ptr_array_add (sys->warnings,
                               g_strdup_printf ("%s.%s is blocked in every valve position: its node "
                                                "reaches no valve, pump, orifice or tank, so that "
                                                "side of the piston is hydraulically locked",
                                                c->id, c->type->ports[X].name));
          }
    }
}

/* Run checks (hyd-run.c): a relief valve passing more than
 * HYD_RELIEF_OVERFLOW times its nominal flow is used far beyond its rating
 * (its opening is not limited above unless max_opening is set). */
GArray *
hyd_system_get_flow_limits (const HydSystem *sys)
{
  GArray *limits = g_array_new (FALSE, FALSE, sizeof (HydFlowLimit));
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const SysComp *sc = &sys->comps[i];
      if (strcmp (sc->comp->type->id, "relief_valve") != 0)
        continue;
      g_autofree char *name = g_strconcat (sc->comp->id, ".q", NULL);
      HydFlowLimit l = {
        .var = hyd_system_find_variable (sys, name),
        .nominal = param_value (sc, "nominal_flow"),
        .component = sc->comp->id,
      };
      l.limit = HYD_RELIEF_OVERFLOW * l.nominal;
      if (l.var >= 0)
        g_array_append_val (limits, l);
    }
  return limits;
}

/* What compiling needs between its stages and drops afterwards. */
typedef struct {
  const HydCircuit *circuit;
  guint *port_offset;     /* [n_comps + 1] first global port of each component */
  guint n_items;          /* ports, then junctions */
  guint *parent;          /* union-find over items, internal joins included */
  guint *parent_nometer;  /* the same without the flow meters' joins */
  int *conn_ends;         /* [2 · connections] the item at each end */
  int *class_node;        /* [n_items] node of an item's class, or −1 */
  int *p0_level;          /* per node: 0 none, 1 asked by a component, 2 on a wire */
  double sim_p0;          /* simulation.initial_pressure */
} Build;

static void
build_clear (Build *b)
{
  g_free (b->port_offset);
  g_free (b->parent);
  g_free (b->parent_nometer);
  g_free (b->conn_ends);
  g_free (b->class_node);
  g_free (b->p0_level);
}

static double
wire_volume (const HydCircuitConnection *cn)
{
  double len = cn->has_length ? cn->length : 0.5;
  double dia = cn->has_diameter ? cn->diameter : 0.01;
  return G_PI * dia * dia / 4.0 * len;
}

/* Instances with resolved parameters and profiles; global port numbering. */
static gboolean
build_components (HydSystem *sys, Build *b, GError **error)
{
  const HydCircuit *circuit = b->circuit;
  sys->n_comps = circuit->components->len;
  sys->comps = g_new0 (SysComp, MAX (sys->n_comps, 1));
  b->port_offset = g_new0 (guint, sys->n_comps + 1);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const HydCircuitComponent *doc = g_ptr_array_index (circuit->components, i);
      const HydComponentType *type = hyd_catalogue_lookup (doc->type);
      if (type == NULL)
        return set_compile_error (error, HYD_CIRCUIT_ERROR_UNKNOWN_TYPE,
                                  "%s: unknown component type '%s'", doc->id, doc->type);
      SysComp *sc = &sys->comps[i];
      sc->comp = hyd_comp_new (type, doc->id, &sys->fluid);
      sc->prof = g_new0 (HydProfile *, type->n_params + 1);
      sc->meter = -1;
      if (!hyd_circuit_component_resolve_params (doc, &sys->fluid, sc->comp->par, sc->prof, error))
        return FALSE;
      /* a boundary pressure is always a profile (a constant one at least) so
       * boundary nodes compare and evaluate one way */
      if (type->boundary_param >= 0 && sc->prof[type->boundary_param] == NULL)
        sc->prof[type->boundary_param] = hyd_profile_new_constant (sc->comp->par[type->boundary_param]);
      b->port_offset[i + 1] = b->port_offset[i] + type->n_ports;
    }
  sys->n_ports_total = b->port_offset[sys->n_comps];
  sys->port_comp = g_new (guint, sys->n_ports_total + 1);
  sys->port_index = g_new (guint, sys->n_ports_total + 1);
  for (guint i = 0; i < sys->n_comps; i++)
    for (guint X = 0; X < sys->comps[i].comp->type->n_ports; X++)
      {
        sys->port_comp[b->port_offset[i] + X] = i;
        sys->port_index[b->port_offset[i] + X] = X;
      }
  return TRUE;
}

static int
compare_time (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Sorted distinct breakpoints; parameters take the piece in force just after 0. */
static void
collect_breakpoints (HydSystem *sys)
{
  GArray *bp = sys->breakpoints;
  for (guint i = 0; i < sys->n_comps; i++)
    for (guint k = 0; k < sys->comps[i].comp->type->n_params; k++)
      if (sys->comps[i].prof[k])
        hyd_profile_collect_breakpoints (sys->comps[i].prof[k], bp);
  g_array_sort (bp, compare_time);
  double *v = (double *) bp->data;
  guint w = 0;
  for (guint a = 0; a < bp->len; a++)
    if (w == 0 || v[a] != v[w - 1])
      v[w++] = v[a];
  g_array_set_size (bp, w);

  double next = G_MAXDOUBLE;
  for (guint a = 0; a < bp->len && next == G_MAXDOUBLE; a++)
    if (v[a] > 0.0)
      next = v[a];
  sys->t_piece = next < G_MAXDOUBLE ? 0.5 * next : 1.0;
  refresh_params (sys, 0.0);
}

/* Union-find over ports and junctions; every required port must be wired. */
static gboolean
build_connectivity (HydSystem *sys, Build *b, GError **error)
{
  const HydCircuit *circuit = b->circuit;
  b->n_items = sys->n_ports_total + circuit->junctions->len;
  b->parent = g_new (guint, b->n_items + 1);
  for (guint k = 0; k < b->n_items; k++)
    b->parent[k] = k;
  g_autofree gboolean *connected = g_new0 (gboolean, b->n_items + 1);
  b->conn_ends = g_new (int, 2 * circuit->connections->len + 1);
  /* a duplicated id (refused by validation) resolves as the scans this
   * replaces did: the last component, the first junction */
  g_autoptr (GHashTable) comp_ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) junction_ids = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < sys->n_comps; i++)
    g_hash_table_insert (comp_ids, (gpointer) sys->comps[i].comp->id, GUINT_TO_POINTER (i + 1));
  for (guint j = 0; j < circuit->junctions->len; j++)
    {
      HydCircuitJunction *jn = g_ptr_array_index (circuit->junctions, j);
      if (!g_hash_table_contains (junction_ids, jn->id))
        g_hash_table_insert (junction_ids, jn->id, GUINT_TO_POINTER (j + 1));
    }
  for (guint k = 0; k < circuit->connections->len; k++)
    {
      HydCircuitConnection *cn = g_ptr_array_index (circuit->connections, k);
      int ea = resolve_ref (sys, comp_ids, junction_ids, b->port_offset, cn->from);
      int eb = resolve_ref (sys, comp_ids, junction_ids, b->port_offset, cn->to);
      if (ea < 0 || eb < 0)
        return set_compile_error (error, HYD_CIRCUIT_ERROR_REFERENCE,
                                  "connection %u (%s → %s): '%s' does not exist", k + 1,
                                  cn->from, cn->to, ea < 0 ? cn->from : cn->to);
      b->conn_ends[2 * k] = ea;
      b->conn_ends[2 * k + 1] = eb;
      connected[ea] = connected[eb] = TRUE;
      uf_union (b->parent, (guint) ea, (guint) eb);
    }
  /* a copy without the meters' internal joins, to find their sides */
  b->parent_nometer = g_memdup2 (b->parent, sizeof (guint) * (b->n_items + 1));
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const HydComponentType *t = sys->comps[i].comp->type;
      for (guint j = 0; j < t->n_joined_ports; j++)
        {
          guint pa = b->port_offset[i] + t->joined_ports[j][0];
          guint pb = b->port_offset[i] + t->joined_ports[j][1];
          uf_union (b->parent, pa, pb);
          if (!t->is_flow_meter)
            uf_union (b->parent_nometer, pa, pb);
        }
    }

  for (guint gp = 0; gp < sys->n_ports_total; gp++)
    {
      const HydComponentType *t = sys->comps[sys->port_comp[gp]].comp->type;
      const HydPortInfo *pi = &t->ports[sys->port_index[gp]];
      if (connected[gp] || pi->optional)
        continue;
      g_autofree char *pn = port_name (sys, gp);
      return set_compile_error (error, HYD_CIRCUIT_ERROR_UNCONNECTED,
                                "port %s is not connected: every %s port of a %s must be wired",
                                pn, pi->name, t->id);
    }
  return TRUE;
}

/* Nodes: the classes holding hydraulic ports, numbered by their first port. */
static void
build_nodes (HydSystem *sys, Build *b)
{
  b->class_node = g_new (int, b->n_items + 1);
  for (guint k = 0; k < b->n_items; k++)
    b->class_node[k] = -1;
  GArray *nodes = g_array_new (FALSE, TRUE, sizeof (SysNode));
  for (guint gp = 0; gp < sys->n_ports_total; gp++)
    {
      const HydComponentType *t = sys->comps[sys->port_comp[gp]].comp->type;
      if (t->ports[sys->port_index[gp]].domain != HYD_DOMAIN_HYDRAULIC)
        continue;
      guint root = uf_find (b->parent, gp);
      if (b->class_node[root] < 0)
        {
          SysNode nd = { 0 };
          nd.ports = g_array_new (FALSE, FALSE, sizeof (guint));
          nd.state = -1;
          nd.bindex = -1;
          nd.reporter = -1;
          nd.p0 = NAN;
          b->class_node[root] = (int) nodes->len;
          g_array_append_val (nodes, nd);
        }
      g_array_append_val (g_array_index (nodes, SysNode, b->class_node[root]).ports, gp);
    }
  sys->n_nodes = nodes->len;
  sys->nodes = (SysNode *) g_array_free (nodes, FALSE);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      guint np = sc->comp->type->n_ports;
      sc->port_node = g_new (int, np + 1);
      for (guint X = 0; X < np; X++)
        sc->port_node[X] = sc->comp->type->ports[X].domain == HYD_DOMAIN_HYDRAULIC
                             ? b->class_node[uf_find (b->parent, b->port_offset[i] + X)] : -1;
    }
  b->p0_level = g_new0 (int, sys->n_nodes + 1);
}

/* A node's initial pressure from a wire or junction (the top level). */
static gboolean
set_wire_p0 (HydSystem *sys, Build *b, int nn, double p0, const char *where, GError **error)
{
  SysNode *nd = &sys->nodes[nn];
  if (b->p0_level[nn] == 2 && nd->p0 != p0)
    {
      g_autofree char *pl = node_port_list (sys, nd->ports);
      return set_compile_error (error, HYD_CIRCUIT_ERROR_INITIAL_PRESSURE,
                                "node %s: conflicting initial pressures %g Pa and %g Pa (%s)",
                                pl, nd->p0, p0, where);
    }
  nd->p0 = p0;
  b->p0_level[nn] = 2;
  return TRUE;
}

/* Hose volumes and the initial pressures set on wires and junctions. */
static gboolean
apply_wire_settings (HydSystem *sys, Build *b, GError **error)
{
  const HydCircuit *circuit = b->circuit;
  for (guint k = 0; k < circuit->connections->len; k++)
    {
      HydCircuitConnection *cn = g_ptr_array_index (circuit->connections, k);
      int nn = b->class_node[uf_find (b->parent, (guint) b->conn_ends[2 * k])];
      if (nn < 0)
        continue;
      sys->nodes[nn].wire_volume += wire_volume (cn);
      if (cn->has_initial_pressure)
        {
          g_autofree char *where = g_strdup_printf ("connection %s → %s", cn->from, cn->to);
          if (!set_wire_p0 (sys, b, nn, cn->initial_pressure, where, error))
            return FALSE;
        }
    }
  for (guint j = 0; j < circuit->junctions->len; j++)
    {
      HydCircuitJunction *jn = g_ptr_array_index (circuit->junctions, j);
      int nn = b->class_node[uf_find (b->parent, sys->n_ports_total + j)];
      if (nn < 0 || !jn->has_initial_pressure)
        continue;
      g_autofree char *where = g_strdup_printf ("junction %s", jn->id);
      if (!set_wire_p0 (sys, b, nn, jn->initial_pressure, where, error))
        return FALSE;
    }
  return TRUE;
}

/* Boundary nodes (tank, pressure source) and short circuits between them. */
static gboolean
find_boundaries (HydSystem *sys, Build *b, GError **error)
{
  sys->bnode_node = g_new (int, sys->n_nodes + 1);
  for (guint nb = 0; nb < sys->n_nodes; nb++)
    {
      SysNode *nd = &sys->nodes[nb];
      guint first_gp = 0;
      for (guint k = 0; k < nd->ports->len; k++)
        {
          guint gp = g_array_index (nd->ports, guint, k);
          SysComp *sc = &sys->comps[sys->port_comp[gp]];
          if (sc->comp->type->boundary_param < 0)
            continue;
          const HydProfile *bp = boundary_profile (sc);
          if (!nd->boundary)
            {
              nd->boundary = TRUE;
              nd->bprof = bp;
              nd->reporter = (int) gp;
              first_gp = gp;
            }
          else if (!(bp && nd->bprof && hyd_profile_equal (bp, nd->bprof)))
            return set_compile_error (error, HYD_CIRCUIT_ERROR_SHORT_CIRCUIT,
                                      "short circuit between %s and %s: two boundary pressures "
                                      "in one node", sys->comps[sys->port_comp[first_gp]].comp->id,
                                      sc->comp->id);
        }
      if (!nd->boundary)
        continue;
      nd->bindex = (int) sys->n_bnodes;
      sys->bnode_node[sys->n_bnodes++] = (int) nb;
      if (b->p0_level[nb] == 2)
        {
          g_autofree char *pl = node_port_list (sys, nd->ports);
          g_ptr_array_add (sys->warnings,
                           g_strdup_printf ("node %s: initial_pressure ignored in a boundary node", pl));
        }
    }
  sys->bpdot = g_new0 (double, sys->n_bnodes + 1);
  return TRUE;
}

/* Each component decides its states, pattern and events. */
static gboolean
setup_components (HydSystem *sys, GError **error)
{
  for (guint i = 0; i < sys->n_comps; i++)
    {
      HydComp *c = sys->comps[i].comp;
      if (!c->type->setup (c, error))
        return FALSE;
      if (c->nnz == 0 && hyd_comp_n_local (c) > 0)
        hyd_comp_use_dense_pattern (c);
      sys_comp_alloc (&sys->comps[i]);
    }
  GPtrArray *names = g_ptr_array_new ();
  for (guint i = 0; i < sys->n_comps; i++)
    {
      HydComp *c = sys->comps[i].comp;
      sys->comps[i].event0 = names->len;
      if (c->type->events == NULL)
        continue;
      for (guint k = 0; k < c->n_events; k++)
        g_ptr_array_add (names, g_strdup_printf ("%s: %s", c->id, c->events[k].name));
    }
  sys->n_events = names->len;
  g_ptr_array_add (names, NULL);
  sys->event_names = (char **) g_ptr_array_free (names, FALSE);
  return TRUE;
}

/* Initial pressures components ask for (accumulator, volume), below wires. */
static gboolean
component_initial_pressures (HydSystem *sys, Build *b, GError **error)
{
  for (guint i = 0; i < sys->n_comps; i++)
    {
      HydComp *c = sys->comps[i].comp;
      if (c->type->port_initial_pressure == NULL)
        continue;
      for (guint X = 0; X < c->type->n_ports; X++)
        {
          double p;
          int nn = sys->comps[i].port_node[X];
          if (nn < 0 || !c->type->port_initial_pressure (c, X, &p) || b->p0_level[nn] == 2)
            continue;
          SysNode *nd = &sys->nodes[nn];
          if (b->p0_level[nn] == 1 && nd->p0 != p)
            {
              g_autofree char *pl = node_port_list (sys, nd->ports);
              return set_compile_error (error, HYD_CIRCUIT_ERROR_INITIAL_PRESSURE,
                                        "node %s: conflicting initial pressures %g Pa and %g Pa "
                                        "asked by its components (%s)", pl, nd->p0, p, c->id);
            }
          if (nd->boundary)
            continue;
          nd->p0 = p;
          b->p0_level[nn] = 1;
        }
    }
  return TRUE;
}

/* State vector: node pressures, then component states; initial values;
 * the global column of every component's local variable. */
static void
layout_states (HydSystem *sys, Build *b)
{
  guint n = 0;
  for (guint nb = 0; nb < sys->n_nodes; nb++)
    if (!sys->nodes[nb].boundary)
      sys->nodes[nb].state = (int) n++;
  for (guint i = 0; i < sys->n_comps; i++)
    {
      sys->comps[i].state0 = n;
      n += sys->comps[i].comp->n_states;
    }
  sys->n = n;
  sys->state_names = g_new0 (char *, n + 1);
  sys->state_units = g_new0 (HydUnit, n + 1);
  sys->y0 = g_new0 (double, n + 1);
  sys->f_scratch = g_new0 (double, n + 1);
  sys->dfdt_scratch = g_new0 (double, n + 1);
  sys->node_info = g_new0 (HydNodeInfo, sys->n_nodes + 1);
  for (guint nb = 0; nb < sys->n_nodes; nb++)
    {
      SysNode *nd = &sys->nodes[nb];
      HydNodeInfo *ni = &sys->node_info[nb];
      g_autofree char *first = port_name (sys, g_array_index (nd->ports, guint, 0));
      ni->name = g_strconcat (first, ".p", NULL);
      ni->ports = g_ptr_array_new_with_free_func (g_free);
      for (guint k = 0; k < nd->ports->len; k++)
        g_ptr_array_add (ni->ports, port_name (sys, g_array_index (nd->ports, guint, k)));
      ni->boundary = nd->boundary;
      ni->state = nd->state;
      ni->wire_volume = nd->wire_volume;
      if (nd->boundary)
        nd->p0 = nd->bprof ? hyd_profile_value_after (nd->bprof, 0.0) : 0.0;
      else if (isnan (nd->p0))
        nd->p0 = b->sim_p0;
      ni->initial_pressure = nd->p0;
      if (!nd->boundary)
        {
          /* the state is the pressure, or the pseudo-pressure ψ of a node
           * that may hold a void ("<first port>.psi", hyd-fluid.h) */
          sys->state_names[nd->state] = hyd_fluid_has_floor (&sys->fluid)
                                        ? g_strconcat (first, ".psi", NULL)
                                        : g_strdup (ni->name);
          sys->state_units[nd->state] = HYD_UNIT_PRESSURE;
          sys->y0[nd->state] = hyd_fluid_node_state_for_pressure (&sys->fluid, nd->p0);
        }
    }
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      guint np = c->type->n_ports;
      for (guint k = 0; k < c->n_states; k++)
        {
          sys->state_names[sc->state0 + k] = g_strconcat (c->id, ".", c->states[k].name, NULL);
          sys->state_units[sc->state0 + k] = c->states[k].unit;
        }
      for (guint X = 0; X < np; X++)
        sc->p[X] = sc->port_node[X] >= 0 ? sys->nodes[sc->port_node[X]].p0 : 0.0;
      if (c->type->init_states)
        c->type->init_states (c, sc->p, sys->y0 + sc->state0);
      sc->col = g_new (int, np + c->n_states + 1);
      for (guint X = 0; X < np; X++)
        {
          int nn = sc->port_node[X];
          if (nn < 0)
            sc->col[X] = -1;
          else if (sys->nodes[nn].boundary)
            sc->col[X] = (int) (sys->n + sys->nodes[nn].bindex);
          else
            sc->col[X] = sys->nodes[nn].state;
        }
      for (guint k = 0; k < c->n_states; k++)
        sc->col[np + k] = (int) (sc->state0 + k);
    }
}

static gboolean
all_finite (const double *v, gsize n)
{
  for (gsize k = 0; k < n; k++)
    if (!isfinite (v[k]))
      return FALSE;
  return TRUE;
}

/* The parameter most likely to make a component's derived quantities
 * overflow: the numeric one furthest, in decades, from its default (or from
 * 1 in SI units where the default is 0); −1 when it has none. */
static int
extreme_param (const HydComp *c)
{
  int best = -1;
  double best_decades = -1.0;
  for (guint k = 0; k < c->type->n_params; k++)
    {
      const HydParamInfo *info = &c->type->params[k];
      double v = c->par[k];
      if ((info->flags & HYD_PARAM_ENUM) || isnan (v) || v == 0.0)
        continue;
      double scale = info->def != 0.0 && isfinite (info->def) ? fabs (info->def) : 1.0;
      double decades = fabs (log10 (fabs (v)) - log10 (scale));
      if (decades > best_decades)
        {
          best_decades = decades;
          best = (int) k;
        }
    }
  return best;
}

/* At t = 0 every component's flows, volumes, compliances and rates must be
 * finite: a parameter in range can still make a derived quantity overflow
 * (a 1e308 m piston diameter gives an infinite area and a NaN volume), and
 * the run would fail at once as "nonfinite", or check would blame the node
 * ("has no volume"). Name the component and the parameter instead. */
static gboolean
check_finite_components (HydSystem *sys, GError **error)
{
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const SysComp *sc = &sys->comps[i];
      const HydComp *c = sc->comp;
      guint np = c->type->n_ports, ns = c->n_states, nv = c->n_vstates;
      if (all_finite (sc->q, np) && all_finite (sc->xdot, ns) && all_finite (sc->V, np)
          && all_finite (sc->dV, (gsize) np * nv) && all_finite (sc->d2V, (gsize) np * nv * nv)
          && all_finite (sc->C, np) && all_finite (sc->dC, np) && all_finite (sc->out, c->n_outputs)
          && all_finite (sys->y0 + sc->state0, ns))
        continue;
      int k = extreme_param (c);
      if (k < 0)
        return set_compile_error (error, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                                  "component \"%s\" (%s): its flows, volumes or areas are not finite "
                                  "at t = 0", c->id, c->type->id);
      const HydParamInfo *info = &c->type->params[k];
      const char *unit = hyd_unit_symbol (info->unit);
      return set_compile_error (error, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                                "component \"%s\", parameter \"%s\": %.6g%s%s is so extreme that "
                                "the %s's derived quantities (areas, volumes, displacement or flows) "
                                "are not finite; use a realistic value",
                                c->id, info->name, c->par[k], unit && *unit ? " " : "", unit ? unit : "",
                                c->type->id);
    }
  return TRUE;
}

/* Every non-boundary node needs a volume (a compliance does not count). */
static gboolean
check_volumes (HydSystem *sys, GError **error)
{
  eval_all (sys, 0.0, sys->y0, NULL, FALSE);
  if (!check_finite_components (sys, error))
    return FALSE;
  /* each component's volume finite, but their sum not (two 1e308 m³
   * volumes): name the node and its largest contributor */
  for (guint nb = 0; nb < sys->n_nodes; nb++)
    {
      SysNode *nd = &sys->nodes[nb];
      if (nd->boundary || (isfinite (nd->V) && isfinite (nd->C) && isfinite (nd->dCdp)))
        continue;
      g_autofree char *pl = node_port_list (sys, nd->ports);
      const HydComp *largest = NULL;
      double largest_v = -1.0;
      for (guint k = 0; k < nd->ports->len; k++)
        {
          guint gp = g_array_index (nd->ports, guint, k);
          const SysComp *sc = &sys->comps[sys->port_comp[gp]];
          double v = fabs (sc->V[sys->port_index[gp]]) + fabs (sc->C[sys->port_index[gp]]);
          if (v > largest_v)
            {
              largest_v = v;
              largest = sc->comp;
            }
        }
      int k = largest ? extreme_param (largest) : -1;
      if (k < 0)
        return set_compile_error (error, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                                  "node %s: its volume or compliance is not finite", pl);
      const HydParamInfo *info = &largest->type->params[k];
      const char *unit = hyd_unit_symbol (info->unit);
      return set_compile_error (error, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                                "node %s: the volumes on it add up to more than a number can hold; "
                                "component \"%s\", parameter \"%s\": %.6g%s%s is too extreme",
                                pl, largest->id, info->name, largest->par[k], unit && *unit ? " " : "",
                                unit ? unit : "");
    }
  for (guint nb = 0; nb < sys->n_nodes; nb++)
    {
      SysNode *nd = &sys->nodes[nb];
      if (nd->boundary || nd->V > 0.0)
        continue;
      g_autofree char *pl = node_port_list (sys, nd->ports);
      return set_compile_error (error, HYD_CIRCUIT_ERROR_NO_VOLUME,
                                "node %s has no volume: give the connection a length or add a volume", pl);
    }
  return TRUE;
}

/* Flow meters: which side of the node each reports from, and their errors. */
static gboolean
build_meters (HydSystem *sys, Build *b, GError **error)
{
  const HydCircuit *circuit = b->circuit;
  sys->meters = g_new0 (SysMeter, sys->n_comps + 1);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      if (!sc->comp->type->is_flow_meter)
        continue;
      guint ga = b->port_offset[i], gb = b->port_offset[i] + 1;
      guint ra = uf_find (b->parent_nometer, ga), rb = uf_find (b->parent_nometer, gb);
      if (ra == rb)
        return set_compile_error (error, HYD_CIRCUIT_ERROR_FLOW_METER,
                                  "%s: the flow meter is bypassed (%s.B is reachable from %s.A "
                                  "without passing through the meter)",
                                  sc->comp->id, sc->comp->id, sc->comp->id);
      gboolean bnd[2] = { FALSE, FALSE };
      GArray *sides[2] = { g_array_new (FALSE, FALSE, sizeof (guint)), g_array_new (FALSE, FALSE, sizeof (guint)) };
      double wv[2] = { 0, 0 };
      for (guint gp = 0; gp < sys->n_ports_total; gp++)
        {
          guint r = uf_find (b->parent_nometer, gp);
          int side = r == ra ? 0 : r == rb ? 1 : -1;
          if (side < 0 || gp == ga || gp == gb)
            continue;
          g_array_append_val (sides[side], gp);
          if (sys->comps[sys->port_comp[gp]].comp->type->boundary_param >= 0)
            bnd[side] = TRUE;
        }
      for (guint k = 0; k < circuit->connections->len; k++)
        {
          guint r = uf_find (b->parent_nometer, (guint) b->conn_ends[2 * k]);
          if (r == ra)
            wv[0] += wire_volume (g_ptr_array_index (circuit->connections, k));
          if (r == rb)
            wv[1] += wire_volume (g_ptr_array_index (circuit->connections, k));
        }
      if (bnd[0] && bnd[1])
        {
          g_array_unref (sides[0]);
          g_array_unref (sides[1]);
          return set_compile_error (error, HYD_CIRCUIT_ERROR_FLOW_METER,
                                    "%s: the flow meter has boundary ports (tank or pressure source) "
                                    "on both sides", sc->comp->id);
        }
      SysMeter *m = &sys->meters[sys->n_meters];
      m->comp = i;
      m->node = sc->port_node[0];
      m->from_b = bnd[0];
      m->side = sides[m->from_b ? 1 : 0];
      m->side_wire_volume = wv[m->from_b ? 1 : 0];
      g_array_unref (sides[m->from_b ? 0 : 1]);
      sc->meter = (int) sys->n_meters++;
    }
  return TRUE;
}

/* Variable names: t, port pressures and flows, states, outputs. */
static void
build_variables (HydSystem *sys)
{
  add_var (sys, "t", HYD_UNIT_TIME, VAR_TIME, 0, 0);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      for (guint X = 0; X < c->type->n_ports; X++)
        {
          if (sc->port_node[X] < 0)
            continue;
          g_autofree char *pname = g_strconcat (c->id, ".", c->type->ports[X].name, ".p", NULL);
          add_var (sys, pname, HYD_UNIT_PRESSURE, VAR_NODE_P, sc->port_node[X], 0);
          g_autofree char *qname = g_strconcat (c->id, ".", c->type->ports[X].name, ".q", NULL);
          add_var (sys, qname, HYD_UNIT_FLOW, VAR_PORT_Q, (int) i, (int) X);
        }
      for (guint k = 0; k < c->n_states; k++)
        add_var (sys, sys->state_names[sc->state0 + k], c->states[k].unit, VAR_STATE,
                 (int) (sc->state0 + k), 0);
      for (guint k = 0; k < c->n_outputs; k++)
        {
          g_autofree char *oname = g_strconcat (c->id, ".", c->outputs[k].name, NULL);
          add_var (sys, oname, c->outputs[k].unit, VAR_OUTPUT, (int) i, (int) k);
        }
    }

  /* "<first port>.void": the void volume of every non-boundary node; the
   * node's other ports name it too, as they name its pressure */
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      SysNode *nd = &sys->nodes[b];
      if (nd->boundary)
        continue;
      g_autofree char *first = port_name (sys, g_array_index (nd->ports, guint, 0));
      g_autofree char *vname = g_strconcat (first, ".void", NULL);
      add_var (sys, vname, HYD_UNIT_VOLUME, VAR_NODE_VOID, (int) b, 0);
      int idx = GPOINTER_TO_INT (g_hash_table_lookup (sys->var_index, vname));
      for (guint k = 1; k < nd->ports->len; k++)
        {
          g_autofree char *pn = port_name (sys, g_array_index (nd->ports, guint, k));
          char *alias = g_strconcat (pn, ".void", NULL);
          if (g_hash_table_contains (sys->var_index, alias))
            {
              g_free (alias);
              continue;
            }
          g_ptr_array_add (sys->var_aliases, alias);
          g_hash_table_insert (sys->var_index, alias, GINT_TO_POINTER (idx));
        }
    }
  sys->n_listed_vars = sys->vars->len;

  /* The node states of the cavitation-safe models ("<first port>.psi") are
   * found, so that tools can record states by name, but not listed: the
   * pressure and the void are what a user plots. */
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      SysNode *nd = &sys->nodes[b];
      if (!nd->boundary && hyd_fluid_has_floor (&sys->fluid))
        add_var (sys, sys->state_names[nd->state], HYD_UNIT_PRESSURE, VAR_STATE, nd->state, 0);
    }
}

HydSystem *
hyd_system_compile (const HydCircuit *circuit, GError **error)
{
  g_return_val_if_fail (circuit != NULL, NULL);

  HydSystem *sys = g_new0 (HydSystem, 1);
  sys->warnings = g_ptr_array_new_with_free_func (g_free);
  sys->vars = g_array_new (FALSE, TRUE, sizeof (Var));
  sys->var_index = g_hash_table_new (g_str_hash, g_str_equal);
  sys->var_aliases = g_ptr_array_new_with_free_func (g_free);
  sys->breakpoints = g_array_new (FALSE, FALSE, sizeof (double));

  Build b = { .circuit = circuit };
  HydSimOptions opts;
  gboolean ok = hyd_circuit_get_fluid (circuit, &sys->fluid, error)
                && hyd_circuit_get_sim_options (circuit, &opts, error);
  if (ok)
    {
      b.sim_p0 = opts.initial_pressure;
      hyd_sim_options_clear (&opts);
    }
  ok = ok && build_components (sys, &b, error);
  if (ok)
    collect_breakpoints (sys);
  ok = ok && build_connectivity (sys, &b, error);
  if (ok)
    build_nodes (sys, &b);
  ok = ok && apply_wire_settings (sys, &b, error)
       && find_boundaries (sys, &b, error)
       && setup_components (sys, error)
       && component_initial_pressures (sys, &b, error);
  if (ok)
    layout_states (sys, &b);
  ok = ok && check_volumes (sys, error) && build_meters (sys, &b, error);
  build_clear (&b);
  if (!ok)
    {
      hyd_system_free (sys);
      return NULL;
    }

  build_variables (sys);
  build_pattern (sys);
  build_positions (sys);
  lint (sys);
  return sys;
}

/* ---------- accessors ---------- */

guint
hyd_system_get_n_events (const HydSystem *sys)
{
  return sys->n_events;
}

const char *
hyd_system_get_event_name (const HydSystem *sys, guint k)
{
  g_return_val_if_fail (k < sys->n_events, NULL);
  return sys->event_names[k];
}

int
hyd_system_events (HydSystem *sys, double t, const double *y, double *g)
{
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      SysNode *nd = &sys->nodes[b];
      if (nd->boundary)
        nd->p = nd->bprof ? hyd_profile_eval (nd->bprof, t, sys->t_piece, NULL) : 0.0;
      else
        {
          hyd_fluid_node (&sys->fluid, y[nd->state], &nd->nf);
          nd->p = nd->nf.p;
        }
    }
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      if (c->type->events == NULL || c->n_events == 0)
        continue;
      for (guint X = 0; X < c->type->n_ports; X++)
        sc->p[X] = sc->port_node[X] >= 0 ? sys->nodes[sc->port_node[X]].p : 0.0;
      HydEvalIn in = { t, sc->p, y + sc->state0 };
      c->type->events (c, &in, g + sc->event0);
    }
  for (guint k = 0; k < sys->n_events; k++)
    if (!isfinite (g[k]))
      return 1;
  return 0;
}

const HydFluid *
hyd_system_get_fluid (const HydSystem *sys)
{
  return &sys->fluid;
}

GPtrArray *
hyd_system_get_warnings (const HydSystem *sys)
{
  return sys->warnings;
}

guint
hyd_system_get_n_states (const HydSystem *sys)
{
  return sys->n;
}

const char *
hyd_system_get_state_name (const HydSystem *sys, guint i)
{
  g_return_val_if_fail (i < sys->n, NULL);
  return sys->state_names[i];
}

const char *
hyd_system_describe_state (const HydSystem *sys, guint i)
{
  return hyd_system_get_state_name (sys, i);
}

HydUnit
hyd_system_get_state_unit (const HydSystem *sys, guint i)
{
  g_return_val_if_fail (i < sys->n, HYD_UNIT_NONE);
  return sys->state_units[i];
}

const double *
hyd_system_get_initial_state (const HydSystem *sys)
{
  return sys->y0;
}

void
hyd_system_get_atol (const HydSystem *sys, const HydSimOptions *options, double *atol)
{
  for (guint i = 0; i < sys->n; i++)
    atol[i] = options->atol[hyd_unit_atol_kind (sys->state_units[i])];
}

guint
hyd_system_get_n_nodes (const HydSystem *sys)
{
  return sys->n_nodes;
}

const HydNodeInfo *
hyd_system_get_node (const HydSystem *sys, guint i)
{
  g_return_val_if_fail (i < sys->n_nodes, NULL);
  return &sys->node_info[i];
}

void
hyd_system_node_voids (HydSystem *sys, double t, const double *y, double *void_volume)
{
  eval_all (sys, t, y, NULL, FALSE);
  for (guint b = 0; b < sys->n_nodes; b++)
    void_volume[b] = sys->nodes[b].void_volume;
}

gboolean
hyd_system_node_cavitating (HydSystem *sys, guint node, const double *y, double *void_volume)
{
  g_return_val_if_fail (node < sys->n_nodes, FALSE);
  const SysNode *nd = &sys->nodes[node];
  gboolean cav = !nd->boundary && hyd_fluid_has_floor (&sys->fluid)
                 && y[nd->state] < sys->fluid.vapour_pressure;
  if (void_volume)
    {
      if (nd->boundary || !hyd_fluid_has_floor (&sys->fluid))
        *void_volume = 0.0;
      else
        {
          /* the node's volume needs its components' states: one evaluation
           * at the time the current interval's parameters hold */
          eval_all (sys, sys->t_piece, y, NULL, FALSE);
          *void_volume = nd->void_volume;
        }
    }
  return cav;
}

const GArray *
hyd_system_get_breakpoints (const HydSystem *sys)
{
  return sys->breakpoints;
}

void
hyd_system_set_interval (HydSystem *sys, double t_lo, double t_hi)
{
  sys->t_piece = 0.5 * (t_lo + t_hi);
}

void
hyd_system_get_pattern (const HydSystem *sys, guint *nnz, const guint **colptr, const guint **rowind)
{
  *nnz = sys->nnz;
  *colptr = sys->colptr;
  *rowind = sys->rowind;
}

static int
problem_rhs (double t, const double *y, double *f, gpointer user)
{
  return hyd_system_rhs (user, t, y, f);
}

static int
problem_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  return hyd_system_jacobian (user, t, y, J, dfdt);
}

static int
problem_jac_sparse (double t, const double *y, double *values, double *dfdt, gpointer user)
{
  return hyd_system_jacobian_sparse (user, t, y, values, dfdt);
}

static void
problem_interval (double t_lo, double t_hi, gpointer user)
{
  hyd_system_set_interval (user, t_lo, t_hi);
}

static const char *
problem_state_name (guint i, gpointer user)
{
  return hyd_system_get_state_name (user, i);
}

static int
problem_events (double t, const double *y, double *g, gpointer user)
{
  return hyd_system_events (user, t, y, g);
}

static const char *
problem_event_name (guint k, gpointer user)
{
  return hyd_system_get_event_name (user, k);
}

void
hyd_system_get_problem (HydSystem *sys, HydOdeProblem *problem)
{
  memset (problem, 0, sizeof *problem);
  problem->n = sys->n;
  problem->user = sys;
  problem->rhs = problem_rhs;
  problem->jac = problem_jac;
  problem->set_interval = problem_interval;
  problem->state_name = problem_state_name;
  problem->nnz = sys->nnz;
  problem->colptr = sys->colptr;
  problem->rowind = sys->rowind;
  problem->jac_sparse = problem_jac_sparse;
  problem->n_events = sys->n_events;
  problem->events = problem_events;
  problem->event_name = problem_event_name;
}

/* ---------- variables ---------- */

int
hyd_system_find_variable (const HydSystem *sys, const char *name)
{
  int idx = GPOINTER_TO_INT (g_hash_table_lookup (sys->var_index, name));
  if (idx > 0)
    return idx - 1;
  /* any port of a node is an alias for its pressure: "C1.A" too */
  char *withp = g_strconcat (name, ".p", NULL);
  idx = GPOINTER_TO_INT (g_hash_table_lookup (sys->var_index, withp));
  g_free (withp);
  return idx - 1;
}

guint
hyd_system_get_n_variables (const HydSystem *sys)
{
  return sys->n_listed_vars;
}

const char *
hyd_system_get_variable_name (const HydSystem *sys, guint v)
{
  g_return_val_if_fail (v < sys->vars->len, NULL);
  return g_array_index (sys->vars, Var, v).name;
}

HydUnit
hyd_system_get_variable_unit (const HydSystem *sys, guint v)
{
  g_return_val_if_fail (v < sys->vars->len, HYD_UNIT_NONE);
  return g_array_index (sys->vars, Var, v).unit;
}

GArray *
hyd_system_get_default_variables (const HydSystem *sys)
{
  GArray *list = g_array_new (FALSE, FALSE, sizeof (int));
  int t = 0;
  g_array_append_val (list, t);
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      if (sys->nodes[b].boundary)
        continue;
      int v = hyd_system_find_variable (sys, sys->node_info[b].name);
      g_array_append_val (list, v);
    }
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      for (guint k = 0; k < sc->comp->n_states; k++)
        {
          int v = hyd_system_find_variable (sys, sys->state_names[sc->state0 + k]);
          g_array_append_val (list, v);
        }
    }
  return list;
}

/* Port flows q_X = q̂_X + Σ_k (∂V_X/∂y_k)·ẏ_k + C_X^own·ṗ, boundary port
 * flows from the balance of their node, meter flows from their side. Needs
 * eval_all with f. */
static void
compute_port_flows (HydSystem *sys)
{
  for (guint b = 0; b < sys->n_nodes; b++)
    sys->nodes[b].R = 0.0; /* reused: Σ over non-boundary ports of (q̂ + V̇) */
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      guint np = c->type->n_ports, nv = c->n_vstates;
      for (guint X = 0; X < np; X++)
        {
          int nn = sc->port_node[X];
          double qx = sc->q[X];
          for (guint j = 0; j < nv; j++)
            qx += sc->dV[X * nv + j] * sc->xdot[c->vstates[j]];
          if (nn >= 0)
            {
              sys->nodes[nn].R += qx;
              /* C_X·ṗ, ṗ = F'(ψ)·ψ̇ */
              if (c->own_compliance[X])
                qx += sc->C[X] * sys->nodes[nn].nf.dp * sys->nodes[nn].f;
            }
          sc->pflow[X] = qx;
        }
    }
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      SysNode *nd = &sys->nodes[b];
      if (!nd->boundary)
        continue;
      for (guint k = 0; k < nd->ports->len; k++)
        {
          guint gp = g_array_index (nd->ports, guint, k);
          SysComp *sc = &sys->comps[sys->port_comp[gp]];
          if (sc->comp->type->boundary_param < 0)
            continue;
          /* q = −Σ (q̂ + V̇) − C_n·ṗ over the node's other ports */
          sc->pflow[sys->port_index[gp]] =
            (int) gp == nd->reporter ? -nd->R - nd->C * nd->pdot : 0.0;
        }
    }
}

/* The flow through a meter: what its side of the node takes in, that is
 * Σ q̂ + φ·Σ V̇ + (V_side·c + Σ C_X·F')·ψ̇ over the side's ports. */
static double
meter_flow (HydSystem *sys, const SysMeter *m)
{
  const SysNode *nd = &sys->nodes[m->node];
  double sum = 0.0, V = m->side_wire_volume, Cx = 0.0;
  for (guint k = 0; k < m->side->len; k++)
    {
      guint gp = g_array_index (m->side, guint, k);
      SysComp *sc = &sys->comps[sys->port_comp[gp]];
      guint X = sys->port_index[gp];
      guint nv = sc->comp->n_vstates;
      double rate = 0.0;
      for (guint j = 0; j < nv; j++)
        rate += sc->dV[X * nv + j] * sc->xdot[sc->comp->vstates[j]];
      sum += sc->q[X] + nd->nf.phi * rate;
      V += sc->V[X];
      Cx += sc->C[X];
    }
  double C = V * nd->nf.c + Cx * nd->nf.dp;
  double inflow = sum + C * nd->f;
  return m->from_b ? inflow : -inflow;
}

int
hyd_system_eval_variables (HydSystem *sys, double t, const double *y,
                           const int *vars, guint nvars, double *values)
{
  int status = eval_all (sys, t, y, sys->f_scratch, FALSE);
  compute_port_flows (sys);
  for (guint k = 0; k < nvars; k++)
    {
      if (vars[k] < 0 || (guint) vars[k] >= sys->vars->len)
        {
          values[k] = NAN;
          continue;
        }
      const Var *v = &g_array_index (sys->vars, Var, vars[k]);
      switch (v->kind)
        {
        case VAR_TIME:
          values[k] = t;
          break;
        case VAR_NODE_P:
          values[k] = sys->nodes[v->a].p;
          break;
        case VAR_NODE_VOID:
          values[k] = sys->nodes[v->a].void_volume;
          break;
        case VAR_PORT_Q:
          if (sys->comps[v->a].meter >= 0)
            {
              /* FM.A.q = q, FM.B.q = −q */
              double qm = meter_flow (sys, &sys->meters[sys->comps[v->a].meter]);
              values[k] = v->b == 0 ? qm : -qm;
            }
          else
            values[k] = sys->comps[v->a].pflow[v->b];
          break;
        case VAR_STATE:
          values[k] = y[v->a];
          break;
        case VAR_OUTPUT:
          {
            SysComp *sc = &sys->comps[v->a];
            const char *oname = sc->comp->outputs[v->b].name;
            if (sc->meter >= 0 && strcmp (oname, "q") == 0)
              values[k] = meter_flow (sys, &sys->meters[sc->meter]);
            else if (sc->comp->type->boundary_param >= 0 && strcmp (oname, "flow") == 0)
              values[k] = -sc->pflow[0];
            else
              values[k] = sc->out[v->b];
          }
          break;
        }
    }
  return status;
}

/* ---------- live parameter changes ---------- */

static int
find_comp_index (const HydSystem *sys, const char *id)
{
  for (guint i = 0; i < sys->n_comps; i++)
    if (strcmp (sys->comps[i].comp->id, id) == 0)
      return (int) i;
  return -1;
}

/* The parameter's index, or −1 with error set; *comp_index its component. */
static int
override_lookup (const HydSystem *sys, const char *comp_id, const char *name, double value,
                 int *comp_index, GError **error)
{
  int ci = find_comp_index (sys, comp_id);
  if (ci < 0)
    {
      set_compile_error (error, HYD_CIRCUIT_ERROR_REFERENCE,
                         "no component '%s' in the running circuit", comp_id);
      return -1;
    }
  const HydComponentType *type = sys->comps[ci].comp->type;
  int k = hyd_component_type_find_param (type, name);
  if (k < 0)
    {
      set_compile_error (error, HYD_CIRCUIT_ERROR_UNKNOWN_PARAM,
                         "%s: a %s has no parameter '%s'", comp_id, type->id, name);
      return -1;
    }
  const HydParamInfo *info = &type->params[k];
  if (info->flags & (HYD_PARAM_ENUM | HYD_PARAM_INTEGER))
    {
      set_compile_error (error, HYD_CIRCUIT_ERROR_PARAM_VALUE,
                         "%s.%s: %s shapes the model and cannot be changed during a run",
                         comp_id, name,
                         (info->flags & HYD_PARAM_ENUM) ? "a choice" : "a whole number");
      return -1;
    }
  if (!isfinite (value))
    {
      set_compile_error (error, HYD_CIRCUIT_ERROR_PARAM_VALUE,
                         "%s.%s: %g is not a finite number", comp_id, name, value);
      return -1;
    }
  *comp_index = ci;
  return k;
}

gboolean
hyd_system_check_override (const HydSystem *sys, const char *comp_id, const char *name,
                           double value, GError **error)
{
  int ci;
  g_return_val_if_fail (sys != NULL && comp_id != NULL && name != NULL, FALSE);
  return override_lookup (sys, comp_id, name, value, &ci, error) >= 0;
}

/* A slider's clamp: into [min, max], an exclusive bound to the nearest
 * number inside it. */
static double
clamp_to_param_range (const HydParamInfo *info, double v)
{
  if (v < info->min)
    v = info->min;
  if (v > info->max)
    v = info->max;
  if ((info->flags & HYD_PARAM_MIN_EXCLUSIVE) && v <= info->min)
    v = nextafter (info->min, INFINITY);
  if ((info->flags & HYD_PARAM_MAX_EXCLUSIVE) && v >= info->max)
    v = nextafter (info->max, -INFINITY);
  return v;
}

/* TRUE when set-up gave both instances the same states, outputs, pattern,
 * volume states, events and compliances: the compiled layout still holds. */
static gboolean
same_structure (const HydComp *a, const HydComp *b)
{
  if (a->n_states != b->n_states || a->n_outputs != b->n_outputs
      || a->n_vstates != b->n_vstates || a->nnz != b->nnz
      || a->n_events != b->n_events || a->dense_pattern != b->dense_pattern)
    return FALSE;
  for (guint s = 0; s < a->n_states; s++)
    if (a->states[s].unit != b->states[s].unit
        || g_strcmp0 (a->states[s].name, b->states[s].name) != 0)
      return FALSE;
  for (guint o = 0; o < a->n_outputs; o++)
    if (g_strcmp0 (a->outputs[o].name, b->outputs[o].name) != 0)
      return FALSE;
  if (a->n_vstates > 0 && memcmp (a->vstates, b->vstates, a->n_vstates * sizeof (guint)) != 0)
    return FALSE;
  if (a->nnz > 0
      && (memcmp (a->jrow, b->jrow, a->nnz * sizeof (guint)) != 0
          || memcmp (a->jcol, b->jcol, a->nnz * sizeof (guint)) != 0))
    return FALSE;
  for (guint X = 0; X < a->type->n_ports; X++)
    if (!a->own_compliance[X] != !b->own_compliance[X])
      return FALSE;
  return TRUE;
}

static int
compare_times (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The breakpoints of the profiles now in force, sorted and distinct. */
static void
collect_breakpoints_again (HydSystem *sys)
{
  GArray *bp = sys->breakpoints;
  g_array_set_size (bp, 0);
  for (guint i = 0; i < sys->n_comps; i++)
    for (guint k = 0; k < sys->comps[i].comp->type->n_params; k++)
      if (sys->comps[i].prof[k])
        hyd_profile_collect_breakpoints (sys->comps[i].prof[k], bp);
  g_array_sort (bp, compare_times);
  double *v = (double *) bp->data;
  guint w = 0;
  for (guint a = 0; a < bp->len; a++)
    if (w == 0 || v[a] != v[w - 1])
      v[w++] = v[a];
  g_array_set_size (bp, w);
}

gboolean
hyd_system_override_param (HydSystem *sys, double t, const char *comp_id, const char *name,
                           double value, double *old_value, double *new_value, GError **error)
{
  g_return_val_if_fail (sys != NULL && comp_id != NULL && name != NULL, FALSE);

  int ci = -1;
  int k = override_lookup (sys, comp_id, name, value, &ci, error);
  if (k < 0)
    return FALSE;
  SysComp *sc = &sys->comps[ci];
  HydComp *c = sc->comp;
  const HydComponentType *type = c->type;
  double v = clamp_to_param_range (&type->params[k], value);

  /* The type's cross-parameter rules and the model's structure, checked on
   * a scratch instance with the new value. */
  {
    HydComp *scratch = hyd_comp_new (type, c->id, c->fluid);
    gboolean ok = TRUE;
    memcpy (scratch->par, c->par, type->n_params * sizeof (double));
    scratch->par[k] = v;
    if (type->validate != NULL)
      ok = type->validate (scratch, error);
    if (ok)
      ok = type->setup (scratch, error);
    if (ok && scratch->nnz == 0 && hyd_comp_n_local (scratch) > 0)
      hyd_comp_use_dense_pattern (scratch);
    if (ok && !same_structure (c, scratch))
      {
        ok = FALSE;
        set_compile_error (error, HYD_CIRCUIT_ERROR_PARAM_VALUE,
                           "%s.%s: %g would change the component's model (its states or "
                           "equations); it cannot be changed during a run",
                           comp_id, name, v);
      }
    hyd_comp_free (scratch);
    if (!ok)
      return FALSE;
  }

  /* A boundary pressure: its node must have no other boundary port. */
  if (k == type->boundary_param)
    for (guint X = 0; X < type->n_ports; X++)
      {
        if (sc->port_node[X] < 0)
          continue;
        const SysNode *nd = &sys->nodes[sc->port_node[X]];
        for (guint j = 0; nd->boundary && j < nd->ports->len; j++)
          {
            guint gp = g_array_index (nd->ports, guint, j);
            const SysComp *other = &sys->comps[sys->port_comp[gp]];
            if ((int) sys->port_comp[gp] != ci && other->comp->type->boundary_param >= 0)
              return set_compile_error (error, HYD_CIRCUIT_ERROR_SHORT_CIRCUIT,
                                        "%s.%s: %s shares its node, so changing the pressure "
                                        "would make a short circuit between %s and %s",
                                        comp_id, name, other->comp->id, comp_id,
                                        other->comp->id);
          }
      }

  double old = sc->prof[k] ? hyd_profile_eval (sc->prof[k], t, sys->t_piece, NULL) : c->par[k];
  if (sc->prof[k])
    {
      HydProfile *replaced = sc->prof[k];
      sc->prof[k] = hyd_profile_new_constant (v);
      for (guint b = 0; b < sys->n_nodes; b++)
        if (sys->nodes[b].bprof == replaced)
          sys->nodes[b].bprof = sc->prof[k];
      hyd_profile_free (replaced);
      collect_breakpoints_again (sys);
    }
  c->par[k] = v;
  c->par_dt[k] = 0.0;
  if (old_value)
    *old_value = old;
  if (new_value)
    *new_value = v;
  return TRUE;
}
