/* SPDX-License-Identifier: GPL-3.0-or-later */
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
#include "hyd-system-private.h"

/* ---------- union-find ---------- */

guint
hyd_sys_uf_find (guint *parent, guint i)
{
  while (parent[i] != i)
    {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
  return i;
}

void
hyd_sys_uf_union (guint *parent, guint a, guint b)
{
  a = hyd_sys_uf_find (parent, a);
  b = hyd_sys_uf_find (parent, b);
  if (a != b)
    parent[MAX (a, b)] = MIN (a, b);
}

/* ---------- helpers ---------- */

char *
hyd_sys_port_name (const HydSystem *sys, guint gp)
{
  const HydComp *c = sys->comps[sys->port_comp[gp]].comp;
  /* a hose's ends are those of its connection ("C1.A", or "J1") */
  if (hyd_sys_comp_is_hose (c))
    {
      const HydSysHose *h = c->priv;
      return g_strdup (sys->port_index[gp] == 0 ? h->from : h->to);
    }
  return g_strconcat (c->id, ".", c->type->ports[sys->port_index[gp]].name, NULL);
}

void
hyd_sys_add_var (HydSystem *sys, char *name, HydUnit unit, VarKind kind, int a, int b)
{
  if (g_hash_table_contains (sys->var_index, name))
    {
      g_free (name);
      return;
    }
  Var v = { name, unit, kind, a, b };
  g_array_append_val (sys->vars, v);
  g_hash_table_insert (sys->var_index, v.name, GINT_TO_POINTER (sys->vars->len));
}

/* The evaluation buffers of a component, in one block (sc->p owns it):
 * p, jac and pflow first, then q … out, the buffers every evaluation starts
 * from zero, contiguous so that one memset clears them (sc->n_zero
 * doubles from sc->q on). */
void
hyd_sys_comp_alloc (SysComp *sc)
{
  HydComp *c = sc->comp;
  gsize np = c->type->n_ports, ns = c->n_states, nv = c->n_vstates;
  gsize len[] = { np, c->nnz, np, np, ns, np, ns, np, np * nv, np * nv * nv, np, np, c->n_outputs };
  double **arr[] = { &sc->p, &sc->jac, &sc->pflow, &sc->q, &sc->xdot, &sc->q_t, &sc->x_t, &sc->V,
                     &sc->dV, &sc->d2V, &sc->C, &sc->dC, &sc->out };
  enum { FIRST_ZEROED = 3 };
  gsize total = 0;
  for (guint k = 0; k < G_N_ELEMENTS (len); k++)
    total += len[k] + 1;
  /* the states' vpos (ints) after the doubles */
  double *block = g_malloc0 (total * sizeof (double) + (ns + 1) * sizeof (int));
  for (guint k = 0, at = 0; k < G_N_ELEMENTS (len); k++)
    {
      *arr[k] = block + at;
      at += len[k] + 1;
    }
  sc->n_zero = (guint) (block + total - sc->q);
  g_assert (*arr[FIRST_ZEROED] == sc->q);
  sc->vpos = (int *) (block + total);
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
  if (sc->port_mnode || sc->port_signal || sc->d)
    {
      g_free (sc->port_mnode);
      g_free (sc->port_signal);
      g_free (sc->pos);
      g_free (sc->d);
      g_free (sc->s);
    }
  g_free (sc->col);
  g_free (sc->p); /* the block of hyd_sys_comp_alloc: q … pflow, vpos too */
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
  g_free (sys->timed);
  g_free (sys->comp_mark);
  g_free (sys->node_mark);
  g_free (sys->port_comp);
  g_free (sys->port_index);
  for (guint i = 0; i < sys->n_nodes; i++)
    {
      g_array_unref (sys->nodes[i].ports);
      if (sys->node_info)
        {
          g_free (sys->node_info[i].name);
          if (sys->node_info[i].ports)
            g_ptr_array_unref (sys->node_info[i].ports);
        }
    }
  g_free (sys->nodes);
  g_free (sys->node_info);
  g_free (sys->bnode_node);
  for (guint i = 0; i < sys->n; i++)
    if (sys->state_names)
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
  if (sys->diagnostics)
    g_ptr_array_unref (sys->diagnostics);
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
  hyd_sys_domains_free (sys);
  g_free (sys);
}

/* ---------- accessors ---------- */

guint
hyd_system_get_n_events (const HydSystem *sys)
{
  return sys->n_events;
}

guint
hyd_system_get_n_discrete (const HydSystem *sys)
{
  return sys->n_dstates;
}

void
hyd_system_get_discrete (const HydSystem *sys, double *d)
{
  guint k = 0;
  for (guint i = 0; i < sys->n_comps; i++)
    for (guint j = 0; sys->comps[i].d && j < sys->comps[i].comp->n_dstates; j++)
      d[k++] = sys->comps[i].d[j];
}

void
hyd_system_set_discrete (HydSystem *sys, const double *d)
{
  guint k = 0;
  for (guint i = 0; i < sys->n_comps; i++)
    for (guint j = 0; sys->comps[i].d && j < sys->comps[i].comp->n_dstates; j++)
      sys->comps[i].d[j] = d[k++];
}

char *
hyd_system_dup_discrete_name (const HydSystem *sys, guint k)
{
  g_return_val_if_fail (sys != NULL, NULL);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const HydComp *c = sys->comps[i].comp;
      guint n = sys->comps[i].d ? c->n_dstates : 0;
      if (k < n)
        return g_strconcat (c->id, ".", c->dstates[k].name, NULL);
      k -= n;
    }
  return NULL;
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
  if (sys->has_domains)
    {
      /* signals, mechanical nodes and discrete states in what the events
       * see: one whole evaluation */
      hyd_sys_eval_all (sys, t, y, NULL, FALSE);
      for (guint i = 0; i < sys->n_comps; i++)
        {
          SysComp *sc = &sys->comps[i];
          HydComp *c = sc->comp;
          if (c->type->events == NULL || c->n_events == 0)
            continue;
          HydEvalIn in = { t, sc->p, y + sc->state0, sc->pos, sc->d };
          c->type->events (c, &in, g + sc->event0);
        }
      for (guint k = 0; k < sys->n_events; k++)
        if (!isfinite (g[k]))
          return 1;
      return 0;
    }
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

GPtrArray *
hyd_system_get_diagnostics (const HydSystem *sys)
{
  return sys->diagnostics;
}

void
hyd_sys_warn (HydSystem *sys, HydDiagnostic *warning)
{
  g_ptr_array_add (sys->warnings, g_strdup (warning->message));
  g_ptr_array_add (sys->diagnostics, warning);
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
  hyd_sys_ensure_names (sys);
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
  hyd_sys_ensure_names (sys);
  return &sys->node_info[i];
}

void
hyd_system_node_voids (HydSystem *sys, double t, const double *y, double *void_volume)
{
  hyd_sys_eval_all (sys, t, y, NULL, FALSE);
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
          hyd_sys_eval_all (sys, sys->t_piece, y, NULL, FALSE);
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

static int
problem_event_located (double t, const double *y, const int *crossed, gpointer user)
{
  return hyd_sys_domains_update (user, t, y, crossed);
}

static char *
problem_event_message (gpointer user)
{
  const HydSystem *sys = user;
  return g_strdup (sys->update_error);
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
  problem->tlm = hyd_sys_tlm_ops ();
  if (sys->n_dstates > 0)
    {
      /* switching is the model: its events are always located, and each
       * run starts from the compiled discrete states */
      problem->event_located = problem_event_located;
      problem->event_message = problem_event_message;
      problem->events_required = TRUE;
      hyd_sys_domains_reset (sys);
    }
}

