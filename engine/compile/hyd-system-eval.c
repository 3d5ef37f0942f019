/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-system-eval.c — evaluating a compiled system: f, the Jacobian (one
 * assembly, written dense or sparse) and the variables (the node equation
 * is in hyd-system.c's header). */
#include "hyd-system-private.h"

/* ---------- evaluation ---------- */

void
hyd_sys_refresh_params (HydSystem *sys, double t)
{
  if (!sys->timed_valid)
    {
      g_free (sys->timed);
      GArray *pairs = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint i = 0; i < sys->n_comps; i++)
        {
          SysComp *sc = &sys->comps[i];
          for (guint k = 0; k < sc->comp->type->n_params; k++)
            if (sc->prof[k] && !hyd_profile_is_constant (sc->prof[k]))
              {
                g_array_append_val (pairs, i);
                g_array_append_val (pairs, k);
              }
        }
      sys->n_timed = pairs->len / 2;
      sys->timed = (guint *) g_array_free (pairs, FALSE);
      sys->timed_valid = TRUE;
    }
  for (guint j = 0; j < sys->n_timed; j++)
    {
      SysComp *sc = &sys->comps[sys->timed[2 * j]];
      guint k = sys->timed[2 * j + 1];
      sc->comp->par[k] = hyd_profile_eval (sc->prof[k], t, sys->t_piece, &sc->comp->par_dt[k]);
    }
}

/* A component's own evaluation on its buffers (cleared by the caller),
 * its port pressures and inputs set. */
static inline void
comp_call_eval (SysComp *sc, double t, const double *y, gboolean want_jac)
{
  HydComp *c = sc->comp;
  HydEvalIn in = { t, sc->p, y + sc->state0, sc->pos, sc->d };
  HydEvalOut out = {
    sc->q, sc->xdot, want_jac ? sc->jac : NULL, sc->q_t, sc->x_t,
    sc->V, sc->dV, sc->d2V, sc->C, sc->dC, sc->out
  };
  c->type->eval (c, &in, &out);
}

/* Evaluate every component and the node sums; fills f (may be NULL). */
int
hyd_sys_eval_all (HydSystem *sys, double t, const double *y, double *f, gboolean want_jac)
{
  hyd_sys_refresh_params (sys, t);

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
  if (sys->has_domains)
    hyd_sys_domains_pre_eval (sys, t, y, want_jac);

  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      guint np = c->type->n_ports, ns = c->n_states, nv = c->n_vstates;
      for (guint X = 0; X < np; X++)
        sc->p[X] = sc->port_node[X] >= 0 ? sys->nodes[sc->port_node[X]].p : 0.0;
      /* q, xdot, q_t, x_t, V, dV, d2V, C, dC and out: one block */
      memset (sc->q, 0, sizeof (double) * sc->n_zero);
      if (want_jac)
        memset (sc->jac, 0, sizeof (double) * c->nnz);
      if (sc->ext)
        hyd_sys_domains_inputs (sys, sc);
      comp_call_eval (sc, t, y, want_jac);

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
      if (sc->ext)
        hyd_sys_domains_accumulate (sys, sc);
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
  if (sys->n_mnodes > 0)
    hyd_sys_domains_rhs (sys, f);
  if (f)
    for (guint i = 0; i < sys->n; i++)
      if (!isfinite (f[i]))
        status = 1;
  return status;
}

int
hyd_system_rhs (HydSystem *sys, double t, const double *y, double *f)
{
  return hyd_sys_eval_all (sys, t, y, f, FALSE);
}

/* ---------- the Jacobian: one walk, two sinks ----------
 *
 * assemble_jacobian walks the components' local blocks and the node terms
 * once and hands every contribution to a sink: the dense matrix at
 * J[row + col·n], or the values of the system's CSC pattern at the position
 * build_positions found for it at compile time (O(nnz) per call, no n²
 * storage). Both forms thus make the same additions in the same order, and
 * a change to the node equation is made here once. A column ≥ n is a
 * boundary node's pressure: its term goes to ∂f/∂t through the pressure's
 * rate of change. */

typedef struct {
  double *J;         /* dense: n×n column-major; sparse: values[nnz] */
  double *dfdt;      /* [n], or NULL: not wanted */
  gboolean sparse;
} JacSink;

/* v at (row, col); pos is its position in the CSC values (sparse only). */
G_ALWAYS_INLINE static inline void
sink_add (const HydSystem *sys, const JacSink *sink, guint row, int col, int pos, double v)
{
  if (col < 0 || v == 0.0)
    return;
  if ((guint) col < sys->n)
    sink->J[sink->sparse ? (gsize) pos : row + (gsize) col * sys->n] += v;
  else if (sink->dfdt)
    sink->dfdt[row] += v * sys->bpdot[col - sys->n];
}

/* v at (row, col) for a column known to be a state's (col < n). */
G_ALWAYS_INLINE static inline void
sink_add_state (const HydSystem *sys, const JacSink *sink, guint row, guint col, int pos, double v)
{
  sink->J[sink->sparse ? (gsize) pos : row + (gsize) col * sys->n] += v;
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

/* ---- the domains beyond hydraulics (docs/domains.md) ----
 * A block's entries the hydraulic walk does not place: the rows of its
 * mechanical ports (−∂F̂/∂z / m) and every entry in a signal input's
 * column, spread by the chain rule over the columns its net depends on
 * (∂r/∂y_j = ∂r/∂a · ∂s/∂y_j, and ∂s/∂t into ∂f/∂t). Positions are looked
 * up (few entries; the hydraulic ones keep their precomputed ones). */

static void
ext_add (const HydSystem *sys, const JacSink *sink, guint row, int col, double v)
{
  if (col < 0 || v == 0.0)
    return;
  int pos = sink->sparse && (guint) col < sys->n ? hyd_sys_pattern_pos (sys, row, col) : 0;
  g_assert (pos >= 0);
  sink_add (sys, sink, row, col, pos, v);
}

static void
ext_add_cols (const HydSystem *sys, const JacSink *sink, guint row, int col, double v)
{
  if (col >= 0)
    ext_add (sys, sink, row, col, v);
  else if (col <= HYD_SYS_SIGNAL_COL (0))
    {
      const SysSignal *net = &sys->signals[HYD_SYS_SIGNAL_NET (col)];
      for (guint j = 0; j < net->n_cols; j++)
        ext_add (sys, sink, row, net->cols[j], v * net->vals[j]);
      if (sink->dfdt)
        sink->dfdt[row] += v * net->s_t;
    }
}

static void
assemble_ext (const HydSystem *sys, const SysComp *sc, const JacSink *sink)
{
  const HydComp *c = sc->comp;
  guint np = c->type->n_ports, nv = c->n_vstates;
  for (guint e = 0; e < c->nnz; e++)
    {
      if (sc->jac[e] == 0.0)
        continue;
      double v = local_entry (sys, sc, e);
      guint r = c->jrow[e];
      int col = sc->col[c->jcol[e]];
      gboolean sig = col <= HYD_SYS_SIGNAL_COL (0);
      if (r < np)
        {
          int nn = sc->port_node[r];
          if (sc->port_mnode && sc->port_mnode[r] >= 0)
            {
              const SysMechNode *mn = &sys->mnodes[sc->port_mnode[r]];
              if (mn->state >= 0)
                ext_add_cols (sys, sink, mn->state, col, -v / mn->m);
            }
          else if (sig && nn >= 0 && !sys->nodes[nn].boundary)
            ext_add_cols (sys, sink, sys->nodes[nn].state, col, -v / sys->nodes[nn].C);
          continue;
        }
      if (!sig)
        continue;
      guint k = r - np;
      ext_add_cols (sys, sink, sc->state0 + k, col, v);
      int jv = sc->vpos[k];
      if (jv < 0)
        continue;
      for (guint X = 0; X < np; X++)
        {
          int nn = sc->port_node[X];
          if (nn < 0 || sys->nodes[nn].boundary)
            continue;
          const SysNode *nd = &sys->nodes[nn];
          double dv = sc->dV[X * nv + jv];
          if (dv != 0.0)
            ext_add_cols (sys, sink, nd->state, col, -nd->nf.phi * dv * v / nd->C);
        }
    }
  if (sink->dfdt && sc->port_mnode)
    for (guint X = 0; X < np; X++)
      if (sc->port_mnode[X] >= 0)
        {
          const SysMechNode *mn = &sys->mnodes[sc->port_mnode[X]];
          if (mn->state >= 0)
            sink->dfdt[mn->state] -= sc->q_t[X] / mn->m;
        }
}

/* Inlined into its two callers with sink.sparse a constant, so that each
 * form compiles to its own loop without the other's index arithmetic. */
G_ALWAYS_INLINE static inline int
assemble_jacobian (HydSystem *sys, double t, const double *y, JacSink sink)
{
  guint n = sys->n;
  gsize len = sink.sparse ? sys->nnz : (gsize) n * n;
  int status = hyd_sys_eval_all (sys, t, y, sys->f_scratch, TRUE);
  memset (sink.J, 0, sizeof (double) * len);
  if (sink.dfdt)
    memset (sink.dfdt, 0, sizeof (double) * n);

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
              /* a port flow: −∂q_X/∂z / C_n on its node's row */
              int nn = sc->port_node[r];
              if (nn >= 0 && !sys->nodes[nn].boundary)
                sink_add (sys, &sink, sys->nodes[nn].state, col, sc->jpos[e],
                          -v / sys->nodes[nn].C);
            }
          else
            {
              guint k = r - np;
              sink_add (sys, &sink, sc->state0 + k, col, sc->jpos[e], v);
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
                    sink_add (sys, &sink, nd->state, col, sc->vrpos[(gsize) e * np + X],
                              -nd->nf.phi * dv * v / nd->C);
                }
            }
        }

      /* time derivatives of the component's own rows */
      if (sink.dfdt)
        for (guint k = 0; k < c->n_states; k++)
          sink.dfdt[sc->state0 + k] += sc->x_t[k];

      for (guint X = 0; X < np; X++)
        {
          int nn = sc->port_node[X];
          if (nn < 0 || sys->nodes[nn].boundary)
            continue;
          SysNode *nd = &sys->nodes[nn];
          guint row = nd->state;
          if (sink.dfdt)
            {
              double rt = 0.0;
              for (guint j = 0; j < nv; j++)
                rt -= sc->dV[X * nv + j] * sc->x_t[c->vstates[j]];
              sink.dfdt[row] += (-sc->q_t[X] + nd->nf.phi * rt) / nd->C;
            }
          for (guint j = 0; j < nv; j++)
            {
              guint sj = c->vstates[j];
              /* −φ·(∂²V/∂y_j∂y_k)·ẏ_j and −ψ̇·∂C/∂y_k, ∂C/∂y_k = (∂V/∂y_k)·c */
              for (guint kk = 0; kk < nv; kk++)
                {
                  double d2 = sc->d2V[(X * nv + j) * nv + kk];
                  if (d2 != 0.0)
                    sink_add_state (sys, &sink, row, sc->col[np + c->vstates[kk]],
                                    sc->xvpos[X * nv + kk], -nd->nf.phi * d2 * sc->xdot[sj] / nd->C);
                }
              double dv = sc->dV[X * nv + j];
              if (dv != 0.0)
                sink_add_state (sys, &sink, row, sc->col[np + sj], sc->xvpos[X * nv + j],
                                -nd->f * (dv * nd->nf.c) / nd->C);
            }
        }
      if (sc->ext)
        assemble_ext (sys, sc, &sink);
    }

  /* ẋ = v of every mechanical node */
  for (guint k = 0; k < sys->n_mnodes; k++)
    if (sys->mnodes[k].state >= 0)
      ext_add (sys, &sink, sys->mnodes[k].state + 1, sys->mnodes[k].state, 1.0);

  /* −(ψ̇_n·∂C_n/∂ψ_n + φ'·V̇_n)/C_n on the diagonal */
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      SysNode *nd = &sys->nodes[b];
      if (!nd->boundary)
        sink_add_state (sys, &sink, nd->state, nd->state, nd->diag_pos,
                        -((nd->f * nd->dCdp + nd->nf.dphi * nd->Vdot) / nd->C));
    }

  for (gsize k = 0; k < len && status == 0; k++)
    if (!isfinite (sink.J[k]))
      status = 1;
  return status;
}

int
hyd_system_jacobian (HydSystem *sys, double t, const double *y, double *J, double *dfdt)
{
  return assemble_jacobian (sys, t, y, (JacSink) { .J = J, .dfdt = dfdt, .sparse = FALSE });
}

int
hyd_system_jacobian_sparse (HydSystem *sys, double t, const double *y, double *values,
                            double *dfdt)
{
  return assemble_jacobian (sys, t, y, (JacSink) { .J = values, .dfdt = dfdt, .sparse = TRUE });
}

/* ---------- variables ---------- */

int
hyd_system_find_variable (const HydSystem *sys, const char *name)
{
  hyd_sys_ensure_variables (sys);
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
  hyd_sys_ensure_variables (sys);
  return sys->n_listed_vars;
}

const char *
hyd_system_get_variable_name (const HydSystem *sys, guint v)
{
  hyd_sys_ensure_variables (sys);
  g_return_val_if_fail (v < sys->vars->len, NULL);
  return g_array_index (sys->vars, Var, v).name;
}

HydUnit
hyd_system_get_variable_unit (const HydSystem *sys, guint v)
{
  hyd_sys_ensure_variables (sys);
  g_return_val_if_fail (v < sys->vars->len, HYD_UNIT_NONE);
  return g_array_index (sys->vars, Var, v).unit;
}

const char *
hyd_system_get_variable_discrete (const HydSystem *sys, guint v)
{
  hyd_sys_ensure_variables (sys);
  g_return_val_if_fail (v < sys->vars->len, NULL);
  const Var *var = &g_array_index (sys->vars, Var, v);
  return var->kind == VAR_DSTATE ? sys->comps[var->a].comp->id : NULL;
}

GArray *
hyd_system_get_default_variables (const HydSystem *sys)
{
  GArray *list = g_array_new (FALSE, FALSE, sizeof (int));
  int t = 0;
  hyd_sys_ensure_names (sys);
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
  for (guint k = 0; k < sys->n_mnodes; k++)
    for (int s = 0; s < 2 && sys->mnodes[k].state >= 0; s++)
      {
        int v = hyd_system_find_variable (sys, sys->state_names[sys->mnodes[k].state + s]);
        g_array_append_val (list, v);
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
      guint np = c->type->n_ports;
      for (guint X = 0; X < np; X++)
        {
          int nn = sc->port_node[X];
          double qx = hyd_sys_port_flow_hat (sc, X);
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

/* ---- output samples: evaluate only what the requested variables need ----
 *
 * A sample of states, node pressures and discrete states needs no
 * component at all: p = F(ψ) per node (or the boundary's profile). A flow
 * at the port of a hydraulic component that stores no oil of its own at
 * that port and is not a meter is q̂_X + Σ ∂V_X/∂x_j·ẋ_j of that component
 * alone (what compute_port_flows gives). Anything else — signals, outputs,
 * voids, meters, boundary flows — evaluates the whole system. */

/* What a variable needs: 0 nothing, 1 node pressures, 2 its component
 * alone (and the pressures), 3 everything. */
static int
var_need (const HydSystem *sys, const Var *v)
{
  switch (v->kind)
    {
    case VAR_TIME:
    case VAR_STATE:
    case VAR_DSTATE:
      return 0;
    case VAR_NODE_P:
      return 1;
    case VAR_PORT_Q:
      {
        const SysComp *sc = &sys->comps[v->a];
        if (sc->meter >= 0 || sc->ext || sc->comp->own_compliance[v->b] || sc->port_node[v->b] < 0
            || sc->comp->type->boundary_param >= 0)
          return 3;
        return 2;
      }
    default:
      return 3;
    }
}

/* Node b's pressure at (t, y), computed once per call of
 * hyd_system_eval_variables (sys->node_mark). */
static double
node_p (HydSystem *sys, guint b, double t, const double *y)
{
  SysNode *nd = &sys->nodes[b];
  if (sys->node_mark[b] != sys->mark_gen)
    {
      sys->node_mark[b] = sys->mark_gen;
      if (nd->boundary)
        nd->p = nd->bprof ? hyd_profile_eval (nd->bprof, t, sys->t_piece, NULL) : 0.0;
      else
        {
          hyd_fluid_node (&sys->fluid, y[nd->state], &nd->nf);
          nd->p = nd->nf.p;
        }
    }
  return nd->p;
}

/* Component i alone at (t, y), its node pressures set: q, xdot, V … */
static void
eval_one (HydSystem *sys, guint i, double t, const double *y)
{
  SysComp *sc = &sys->comps[i];
  guint np = sc->comp->type->n_ports;
  for (guint X = 0; X < np; X++)
    sc->p[X] = sc->port_node[X] >= 0 ? node_p (sys, (guint) sc->port_node[X], t, y) : 0.0;
  memset (sc->q, 0, sizeof (double) * sc->n_zero);
  comp_call_eval (sc, t, y, FALSE);
  /* what compute_port_flows gives a port without compliance of its own */
  for (guint X = 0; X < np; X++)
    sc->pflow[X] = hyd_sys_port_flow_hat (sc, X);
}

int
hyd_system_eval_variables (HydSystem *sys, double t, const double *y,
                           const int *vars, guint nvars, double *values)
{
  hyd_sys_ensure_variables (sys);
  int need = 0;
  for (guint k = 0; k < nvars && need < 3; k++)
    if (vars[k] >= 0 && (guint) vars[k] < sys->vars->len)
      need = MAX (need, var_need (sys, &g_array_index (sys->vars, Var, vars[k])));
  int status = 0;
  if (need == 3)
    {
      status = hyd_sys_eval_all (sys, t, y, sys->f_scratch, FALSE);
      compute_port_flows (sys);
    }
  else if (need > 0)
    {
      /* node pressures and components asked for, each once */
      if (sys->comp_mark == NULL)
        {
          sys->comp_mark = g_new0 (guint, sys->n_comps + 1);
          sys->node_mark = g_new0 (guint, sys->n_nodes + 1);
        }
      if (++sys->mark_gen == 0)
        {
          memset (sys->comp_mark, 0, sizeof (guint) * sys->n_comps);
          memset (sys->node_mark, 0, sizeof (guint) * sys->n_nodes);
          sys->mark_gen = 1;
        }
      if (need == 2)
        hyd_sys_refresh_params (sys, t);
      for (guint k = 0; k < nvars; k++)
        if (vars[k] >= 0 && (guint) vars[k] < sys->vars->len)
          {
            const Var *v = &g_array_index (sys->vars, Var, vars[k]);
            if (v->kind == VAR_NODE_P)
              node_p (sys, (guint) v->a, t, y);
            else if (v->kind == VAR_PORT_Q && sys->comp_mark[v->a] != sys->mark_gen)
              {
                sys->comp_mark[v->a] = sys->mark_gen;
                eval_one (sys, (guint) v->a, t, y);
              }
          }
    }
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
        case VAR_SIGNAL:
          values[k] = sys->signals[v->a].value;
          break;
        case VAR_DSTATE:
          values[k] = sys->comps[v->a].d[v->b];
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

