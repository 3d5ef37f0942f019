/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-system-tlm.c — a circuit stepped by transmission-line modelling
 * (Burton 1994, "Parallel simulation of hydraulic systems using
 * transmission-line modelling", PhD thesis, University of Bath; the solver
 * side is ode/hyd-tlm.c).
 *
 * Every node's fluid volume becomes a TLM element. With the step Δ and the
 * node's capacity C = dV_oil/dp (its volume over the bulk modulus, plus
 * the compliances at it), each of its n ports meets the node through a
 * lossless line of delay Δ/2 and capacitance C/n; the lines meet at a
 * junction of no volume (Burton's junction, §3.6, eqs 3.34–3.37). Each line
 * has the impedance Z = n·Δ/(2·C) (eq. 3.12 for its delay and capacitance),
 * the capacitance is kept and a parasitic inertance Z·Δ/2 per line comes
 * with it. A wave leaving port k reaches the junction and comes back
 * scattered to every port one step later:
 *   c_in,k(t + Δ) = (2/n)·Σ_j c_out,j(t) − c_out,k(t)
 * For n = 2 that is exactly Burton's capacitive line of delay Δ and
 * Z = Δ·B/V between the two ports (eq. 3.12); for n = 1 a closed line. A
 * node's mean port pressure then obeys C·dp/dt = Σ inflow (the sum of the
 * n port relations over two steps), whatever n.
 *
 * Every component is solved on its own at each step (eq. 3.35 at each of
 * its ports): its port pressures P_k and its states x at t + Δ from
 *   P_k + Z_k·q_k(P, x) = c_in,k            (q_k: the flow into the
 *                                             component at port k, q̂ + V̇)
 *   x − x₀ = Δ/2·(ẋ₀ + ẋ(P, x))            (trapezoidal rule, Burton's
 *                                             bilinear transform, §4.1)
 * by Newton's method on its own Jacobian block: the analytic partials its
 * eval returns (the same model and derivatives the other solvers use,
 * never a second model). A port on a prescribed pressure (a tank, a
 * pressure source) takes that pressure. Then c_out,k = 2·P_k − c_in,k.
 *
 * Characteristic pressures are low-pass filtered (eq. 3.16, after Krus et
 * al. 1990), c'(t) = (1 − α)·c(t) + α·c'(t − Δ), with Z scaled by 1/(1 − α).
 * When Δ or a node's capacity changes, each line's pair of waves is
 * re-scaled so that its pressure and flow are kept (eq. 3.27). The error of
 * a step (§3.5) is the largest pressure difference between two ports of a
 * node (|P_a − P_b| for a line), or for a node with one port the drop
 * Z·|q| its line takes.
 *
 * Components joined by something other than oil are solved together:
 * the components on a mechanical node (a cylinder's rod, the mass on it, a
 * damper to a fixed point) form a cluster whose ports, states and node
 * velocities and positions are one Newton iteration, the node's equation
 * m·v̇ = −ΣF̂ by the same trapezoidal rule. A spring is not in a cluster:
 * it is a mechanical TLM element (Burton §4.2), a line between its ends
 * that decouples the masses on them, its force difference a length error
 * |F_A − F_B|/k for the step control. Signals are instantaneous
 * one-way links (Burton §3.7): clusters are solved in the order of their
 * signals, a driver's outputs computed from its solved values before its
 * readers are solved; a loop of signals takes the value of the step before
 * where it closes. Discrete states switch at events between steps, as with
 * every solver.
 *
 * Parallel: clusters joined by signals are tasks, split into contiguous
 * runs of equal estimated cost, one per thread; after them the nodes and
 * springs are updated on the threads too. Not yet (docs/solvers.md,
 * "TLM"): a void at a component's own port. */
#include "hyd-system-private.h"
#include "hyd-ode.h"
#include "hyd-task-pool.h"

#define TLM_NEWTON_MAX 60
#define TLM_REL_TOL    1e-10   /* Newton: update below this relative size */
#define TLM_ROUNDOFF   1e-13   /* the ports' scaled residual at rounding */

typedef struct {
  guint first, n;          /* its ports: tport[first .. first + n) */
  guint node;              /* the circuit's node */
  int state;               /* its state in y */
  double C;                /* capacity dV_oil/dp (m³/Pa), accepted */
  double C_trial;
  double V;                /* its volume, accepted (m³) */
  double phi, phi_t;       /* the liquid's share φ of a growing volume (hyd-fluid.h; without the
                            * void's part, which the junction tracks), accepted and trial */
  double void_acc, void_t; /* the volume of its void at the vapour pressure (m³), accepted and trial */
} TlmNode;

typedef struct {
  guint first, n;          /* its components: cl_comp[first .. first + n) */
  guint mfirst, mn;        /* its mechanical nodes with states: cl_mnode[mfirst .. mfirst + mn) */
  guint sfirst, sn;        /* the spring ends on them: cl_send[sfirst .. sfirst + sn) */
} TlmCluster;

/* A spring as a mechanical TLM element (Burton §1.11 of his survey, §4.2):
 * force the analogue of pressure, velocity of flow. Its compliance 1/k is
 * a line of delay Δ and impedance Z = k·Δ/(1 − α) between its ends (the
 * hydraulic node's junction with n = 2), which decouples the masses at its
 * two ends; the tension at end A is F_A = c_A − Z·v_A, at end B
 * F_B = c_B + Z·v_B (the line's inflow is −v_A and +v_B). Ends 2s and
 * 2s + 1 of spring s. */
typedef struct {
  guint comp;
  int mn[2];               /* the mechanical node at A and B, −1: a fixed point's (v = 0) */
  int xstate[2];           /* its position's state, or −1 */
} TlmSpring;

/* A thread's Newton scratch (m ≤ mmax unknowns, local blocks ≤ nlmax). */
typedef struct {
  double *A, *r, *G, *u;
  int *uvar;               /* [mmax] ≥ 0: state; < 0: TLM port −1 − k */
  int *lmap;               /* [nlmax] a component's local column → unknown, or −1 */
  int *piv;
  double *block;           /* all of the above, padded: no cache line with another thread's */
} TlmScratch;

/* Doubles of padding around a thread's scratch: two cache lines. */
#define TLM_PAD 16

typedef struct {
  HydSystem *sys;
  double alpha;            /* filter constant of the characteristic pressures */
  guint n;                 /* states */
  guint ntp;               /* TLM ports: hydraulic ports on nodes that are not boundaries */
  guint *tp_gp;            /* [ntp] global port */
  guint *tp_tn;            /* [ntp] its TLM node */
  guint *node_port;        /* [ntp] the TLM ports node by node (TlmNode.first, .n index it); the
                            * ports themselves are numbered task by task, so that the threads
                            * write apart (a shared manifold's ports would share cache lines) */
  int *gp_tp;              /* [n_ports_total] TLM port, or −1 */
  guint *port0;            /* [n_comps] global index of each component's port 0 */
  double *Z;               /* [ntp] impedance the accepted waves are for (0: none yet) */
  double *Zt;              /* [ntp] this attempt's impedance */
  double *cin;             /* [ntp] incoming (filtered) characteristic for the next step */
  double *cin_t;           /* [ntp] this attempt's, after compensation */
  double *cout;            /* [ntp] outgoing of the accepted step */
  double *cout_t;          /* [ntp] this attempt's */
  double *cnext_t;         /* [ntp] incoming for the step after this attempt */
  double *P, *P_t;         /* [ntp] port pressures, accepted and trial */
  guint nn;
  TlmNode *nodes;
  /* clusters, in the order they are solved */
  guint ncl;
  TlmCluster *cl;
  guint *cl_comp;          /* components, cluster by cluster */
  guint *cl_mnode;         /* mechanical nodes with states, cluster by cluster */
  guint *cl_send;          /* spring ends on those nodes, cluster by cluster */
  /* springs as TLM elements, and their ends' waves (as the ports'
   * arrays, end e = 2·spring + side) */
  guint nsp;
  TlmSpring *sp;
  gboolean *comp_is_line;  /* [n_comps] a spring stepped as a line, in no cluster */
  double *sZ, *sZt, *scin, *scin_t, *scout, *scout_t, *scnext_t, *sF, *sF_t;
  double *serr;            /* [nsp] |F_A − F_B|/k of the trial step (m) */
  double *net_acc;         /* [n_signals] signal values at the accepted point */
  double *xdot, *xdot_t;   /* [n] ẋ at the accepted point and trial (states of components and mechanical nodes) */
  double *y_t;             /* [n] trial state vector */
  guint mmax, nlmax;
  int *unk_state;          /* [n] unknown index of each state in its cluster */
  int *unk_tp;             /* [ntp] unknown index of each TLM port in its cluster */
  /* parallel: tasks (runs of clusters joined by signals, cl_task[t] ..
   * cl_task[t + 1]) on threads (tasks part_start[k] .. part_start[k + 1]) */
  guint ntask;
  guint *cl_task;          /* [ntask + 1] */
  double *task_cost;       /* [ntask] */
  guint nthreads;
  guint *part_start;       /* [nthreads + 1] */
  guint *node_start;       /* [nthreads + 1] the TLM nodes each thread updates */
  double *part_err;        /* [nthreads · TLM_PAD] each thread's largest pressure error */
  guint *timed_first;      /* [n_comps + 1] each component's timed parameters: sys->timed pairs */
  /* the event functions at the step's end, on the threads (a circuit of
   * oil only: hyd_system_events needs no whole evaluation there) */
  guint nev;               /* components with event functions */
  guint *ev_comp;          /* [nev] */
  guint *ev_start;         /* [nthreads + 1] */
  double *ev_g;            /* where the tasks write them */
  HydTaskPool *pool;       /* NULL: one thread */
  TlmScratch *scr;         /* [nthreads] */
  guint *task_fail;        /* [ntask] 1 + the cluster that failed, or 0 */
  guint64 *task_iters;     /* [ntask] Newton iterations of the last step */
  gboolean measure;        /* timing the tasks, to balance the threads by what they take */
  double *task_time;       /* [ntask] µs spent, while measuring */
  guint64 nsteps;          /* steps taken (attempts) */
  double step_t, step_h;   /* the step the tasks solve */
  const double *step_y;
  char *why;
} TlmModel;

/* A TLM node's oil: its volume, the compliances at it and their slope, from
 * the last evaluation of its ports' components. */
static void
node_oil (const TlmModel *M, const SysNode *nd, const TlmNode *tn, double *V, double *Cw, double *dCw)
{
  const HydSystem *sys = M->sys;
  *V = nd->wire_volume;
  *Cw = *dCw = 0.0;
  for (guint j = 0; j < tn->n; j++)
    {
      guint gp = M->tp_gp[M->node_port[tn->first + j]];
      const SysComp *sc = &sys->comps[sys->port_comp[gp]];
      guint X = sys->port_index[gp];
      *V += sc->V[X];
      *Cw += sc->C[X];
      *dCw += sc->dC[X];
    }
}

/* The capacity dV_oil/dp (m³/Pa) of V of oil with the compliances Cw at
 * state ψ. */
static double
node_capacity (const HydFluid *fluid, double psi, double V, double Cw, double dCw, HydNodeFluid *nf)
{
  double C, dC;
  hyd_fluid_node (fluid, psi, nf);
  hyd_fluid_node_capacity (nf, V, Cw, dCw, &C, &dC);
  return nf->dp > 0.0 ? C / nf->dp : C;
}

static double
boundary_pressure (HydSystem *sys, const SysNode *nd, double t)
{
  return nd->bprof ? hyd_profile_eval (nd->bprof, t, sys->t_piece, NULL) : 0.0;
}

static gboolean
lu_solve (double *A, double *b, int *piv, guint m)
{
  /* Gaussian elimination with partial pivoting, A row-major m×m. */
  for (guint k = 0; k < m; k++)
    {
      guint p = k;
      double best = fabs (A[k * m + k]);
      for (guint i = k + 1; i < m; i++)
        if (fabs (A[i * m + k]) > best)
          {
            best = fabs (A[i * m + k]);
            p = i;
          }
      if (!(best > 0.0) || !isfinite (best))
        return FALSE;
      piv[k] = (int) p;
      if (p != k)
        {
          for (guint j = 0; j < m; j++)
            {
              double tmp = A[k * m + j];
              A[k * m + j] = A[p * m + j];
              A[p * m + j] = tmp;
            }
          double tb = b[k];
          b[k] = b[p];
          b[p] = tb;
        }
      double inv = 1.0 / A[k * m + k];
      for (guint i = k + 1; i < m; i++)
        {
          double l = A[i * m + k] * inv;
          if (l == 0.0)
            continue;
          for (guint j = k + 1; j < m; j++)
            A[i * m + j] -= l * A[k * m + j];
          b[i] -= l * b[k];
        }
    }
  for (guint k = m; k-- > 0;)
    {
      double sum = b[k];
      for (guint j = k + 1; j < m; j++)
        sum -= A[k * m + j] * b[j];
      b[k] = sum / A[k * m + k];
    }
  return TRUE;
}

/* The mechanical nodes' velocities and positions from the trial state. */
static void
mnodes_from (TlmModel *M, const TlmCluster *cl)
{
  HydSystem *sys = M->sys;
  for (guint j = 0; j < cl->n; j++)
    {
      SysComp *sc = &sys->comps[M->cl_comp[cl->first + j]];
      if (sc->port_mnode == NULL)
        continue;
      for (guint X = 0; X < sc->comp->type->n_ports; X++)
        {
          int k = sc->port_mnode[X];
          if (k < 0)
            continue;
          SysMechNode *mn = &sys->mnodes[k];
          if (mn->state < 0)
            {
              mn->v = 0.0;
              mn->x = sys->comps[mn->bcomp].comp->par[mn->bparam];
            }
          else
            {
              mn->v = M->y_t[mn->state];
              mn->x = M->y_t[mn->state + 1];
            }
          mn->F = 0.0;
          mn->m = 0.0;
        }
    }
}

/* The values of the signals component i drives, from its evaluated inputs
 * and states (Burton's one-way links). */
static void
drive_signals (TlmModel *M, guint i, double t)
{
  HydSystem *sys = M->sys;
  SysComp *sc = &sys->comps[i];
  HydComp *c = sc->comp;
  if (sc->s == NULL || c->type->signals == NULL)
    return;
  guint np = c->type->n_ports;
  memset (sc->s, 0, sizeof (double) * 2 * np);
  HydEvalIn in = { t, sc->p, M->y_t + sc->state0, sc->pos, sc->d };
  c->type->signals (c, &in, sc->s, NULL, sc->s_t);
  for (guint X = 0; X < np; X++)
    if (sc->port_signal[X] >= 0 && c->type->ports[X].direction == HYD_PORT_OUTPUT)
      sys->signals[sc->port_signal[X]].value = sc->s[X];
}

/* The reference nets that read component i's states. */
static void
drive_taps (TlmModel *M, guint i)
{
  HydSystem *sys = M->sys;
  for (guint k = 0; k < sys->n_signals; k++)
    {
      SysSignal *net = &sys->signals[k];
      if (!net->tap || net->tap_comp != i)
        continue;
      const SysComp *tc = &sys->comps[i];
      net->value = net->tap_state >= 0 ? M->y_t[tc->state0 + (guint) net->tap_state] : tc->d[net->tap_dstate];
    }
}

/* Evaluate component i at time t: hydraulic ports from P (TLM ports) or the
 * boundaries, mechanical and signal ports from their nodes and nets, states
 * from M->y_t. */
static void
eval_comp (TlmModel *M, guint i, double t, const double *P, gboolean want_jac)
{
  HydSystem *sys = M->sys;
  SysComp *sc = &sys->comps[i];
  HydComp *c = sc->comp;
  guint np = c->type->n_ports;
  guint gp0 = M->port0[i];

  for (guint X = 0; X < np; X++)
    {
      int k = M->gp_tp[gp0 + X];
      if (k >= 0)
        sc->p[X] = P[k];
      else if (sc->port_node[X] >= 0)
        sc->p[X] = boundary_pressure (sys, &sys->nodes[sc->port_node[X]], t);
      else
        sc->p[X] = 0.0;
    }
  if (sc->port_mnode != NULL || sc->port_signal != NULL)
    hyd_sys_domains_inputs (sys, sc);
  memset (sc->q, 0, sizeof (double) * sc->n_zero);
  if (want_jac)
    memset (sc->jac, 0, sizeof (double) * c->nnz);
  HydEvalIn in = { t, sc->p, M->y_t + sc->state0, sc->pos, sc->d };
  HydEvalOut out = {
    sc->q, sc->xdot, want_jac ? sc->jac : NULL, NULL, NULL,
    sc->V, sc->dV, sc->d2V, sc->C, sc->dC, sc->out
  };
  c->type->eval (c, &in, &out);
  if (sc->port_mnode != NULL)
    hyd_sys_domains_accumulate (sys, sc);
  drive_signals (M, i, t);
}

/* The local Jacobian of an evaluated component as a dense (np + ns) × nl
 * block in M->G, and the map of its local columns to the cluster's
 * unknowns in M->lmap. */
static void
local_block (TlmModel *M, TlmScratch *W, const SysComp *sc, guint gp0)
{
  HydSystem *sys = M->sys;
  const HydComp *c = sc->comp;
  guint np = c->type->n_ports, ns = c->n_states, nl = hyd_comp_n_local (c);
  memset (W->G, 0, sizeof (double) * (np + ns) * nl);
  for (guint e = 0; e < c->nnz; e++)
    W->G[c->jrow[e] * nl + c->jcol[e]] += sc->jac[e];
  for (guint lc = 0; lc < nl; lc++)
    W->lmap[lc] = -1;
  for (guint X = 0; X < np; X++)
    {
      int k = M->gp_tp[gp0 + X];
      if (k >= 0)
        W->lmap[X] = M->unk_tp[k];
      else if (sc->port_mnode != NULL && sc->port_mnode[X] >= 0)
        {
          const SysMechNode *mn = &sys->mnodes[sc->port_mnode[X]];
          if (mn->state >= 0)
            {
              W->lmap[X] = M->unk_state[mn->state];
              if (c->n_pos > 0)
                W->lmap[hyd_comp_pos_col (c, X)] = M->unk_state[mn->state + 1];
            }
        }
    }
  for (guint j = 0; j < ns; j++)
    W->lmap[np + j] = M->unk_state[sc->state0 + j];
}

/* Port k's impedance for the step Δ = h from its node's accepted capacity;
 * a change re-scales the line's waves, keeping its pressure and flow
 * (eq. 3.27). */
static inline double
compensated (double Z_old, double Z, double cin, double cout)
{
  if (Z_old > 0.0 && Z_old != Z)
    {
      double g = Z / Z_old;
      return 0.5 * (1.0 + g) * cin + 0.5 * (1.0 - g) * cout;
    }
  return cin;
}

/* Component i's parameters that follow a profile, at t. */
static void
refresh_timed (TlmModel *M, guint i, double t)
{
  HydSystem *sys = M->sys;
  SysComp *sc = &sys->comps[i];
  for (guint e = M->timed_first[i]; e < M->timed_first[i + 1]; e++)
    {
      guint kp = sys->timed[2 * e + 1];
      sc->comp->par[kp] = hyd_profile_eval (sc->prof[kp], t, sys->t_piece, &sc->comp->par_dt[kp]);
    }
}

static void
port_for_step (TlmModel *M, guint k, double h)
{
  const TlmNode *tn = &M->nodes[M->tp_tn[k]];
  double Z = (double) tn->n * h / (2.0 * tn->C * (1.0 - M->alpha));
  M->cin_t[k] = compensated (M->Z[k], Z, M->cin[k], M->cout[k]);
  M->Zt[k] = Z;
  M->P_t[k] = M->P[k];
}

/* The tension at spring end e moving at v, and the force F̂ its node
 * exerts on the spring there (−F at A, +F at B; ∂F̂/∂v = Z at both). */
static inline double
spring_tension (const TlmModel *M, guint e, double v)
{
  return e % 2 == 0 ? M->scin_t[e] - M->sZt[e] * v : M->scin_t[e] + M->sZt[e] * v;
}

static inline double
spring_end_force (const TlmModel *M, guint e, double v)
{
  double F = spring_tension (M, e, v);
  return e % 2 == 0 ? -F : F;
}

/* Solve cluster `ci` over the step (t, t + h): Newton on its components'
 * TLM ports and states and its mechanical nodes' v and x. 0, or 1 when it
 * does not converge (the component named in M->why). */
static int
solve_cluster (TlmModel *M, TlmScratch *W, guint ci, double t, double h, const double *y0,
               guint64 *iters)
{
  HydSystem *sys = M->sys;
  const TlmCluster *cl = &M->cl[ci];
  double t1 = t + h;
  guint m = 0;

  /* the unknowns */
  for (guint j = 0; j < cl->n; j++)
    {
      guint i = M->cl_comp[cl->first + j];
      SysComp *sc = &sys->comps[i];
      guint np = sc->comp->type->n_ports, gp0 = M->port0[i];
      for (guint X = 0; X < np; X++)
        {
          int k = M->gp_tp[gp0 + X];
          if (k >= 0)
            {
              M->unk_tp[k] = (int) m;
              W->uvar[m++] = -1 - k;
              port_for_step (M, (guint) k, h);
            }
        }
      refresh_timed (M, i, t1);   /* its parameters that follow a profile, at t + Δ */
      for (guint s = 0; s < sc->comp->n_states; s++)
        {
          M->unk_state[sc->state0 + s] = (int) m;
          W->uvar[m++] = (int) (sc->state0 + s);
        }
    }
  for (guint j = 0; j < cl->mn; j++)
    {
      const SysMechNode *mn = &sys->mnodes[M->cl_mnode[cl->mfirst + j]];
      for (guint s = 0; s < 2; s++)
        {
          M->unk_state[mn->state + s] = (int) m;
          W->uvar[m++] = (int) (mn->state + s);
        }
    }

  int status = 1, halvings = 0;
  double rnorm_prev = INFINITY, rsnorm_prev = INFINITY, lambda = 1.0;
  for (int it = 0; it < TLM_NEWTON_MAX && status != 0; it++)
    {
      (*iters)++;
      mnodes_from (M, cl);
      memset (W->A, 0, sizeof (double) * m * m);
      /* the components: port rows and state rows */
      for (guint j = 0; j < cl->n; j++)
        {
          guint i = M->cl_comp[cl->first + j];
          SysComp *sc = &sys->comps[i];
          HydComp *c = sc->comp;
          guint np = c->type->n_ports, ns = c->n_states, nl = hyd_comp_n_local (c), nv = c->n_vstates;
          guint gp0 = M->port0[i];
          eval_comp (M, i, t1, M->P_t, TRUE);
          local_block (M, W, sc, gp0);
#define G_(r, col) W->G[(r) * nl + (col)]
          for (guint X = 0; X < np; X++)
            {
              int k = M->gp_tp[gp0 + X];
              if (k < 0)
                continue;
              /* P_k + Z_k·(q̂_X + φ·Σ_j ∂V_X/∂x_j·ẋ_j) − c_in,k: of a
               * growing chamber, the liquid fills the share φ (the rest
               * is the air the oil carries, as in every solver's node
               * equation) */
              guint a = (guint) M->unk_tp[k];
              double Zk = M->Zt[k], phi = M->nodes[M->tp_tn[k]].phi;
              double *row = W->A + a * m;
              W->r[a] = M->P_t[k] + Zk * (sc->q[X] + phi * (hyd_sys_port_flow_hat (sc, X) - sc->q[X])) - M->cin_t[k];
              row[a] += 1.0;
              for (guint lc = 0; lc < nl; lc++)
                {
                  int b = W->lmap[lc];
                  if (b < 0)
                    continue;
                  double dv = 0.0;
                  for (guint jv = 0; jv < nv; jv++)
                    {
                      guint vs = c->vstates[jv];
                      dv += sc->dV[X * nv + jv] * G_(np + vs, lc);
                      if (lc >= np && lc < np + ns)
                        for (guint kk = 0; kk < nv; kk++)
                          if (c->vstates[kk] == lc - np)
                            dv += sc->d2V[(X * nv + jv) * nv + kk] * sc->xdot[vs];
                    }
                  row[b] += Zk * (G_(X, lc) + phi * dv);
                }
            }
          for (guint s = 0; s < ns; s++)
            {
              /* x − x₀ − Δ/2·(ẋ₀ + ẋ) */
              guint gs = sc->state0 + s;
              guint a = (guint) M->unk_state[gs];
              double *row = W->A + a * m;
              W->r[a] = M->y_t[gs] - y0[gs] - 0.5 * h * (M->xdot[gs] + sc->xdot[s]);
              M->xdot_t[gs] = sc->xdot[s];
              row[a] += 1.0;
              for (guint lc = 0; lc < nl; lc++)
                if (W->lmap[lc] >= 0)
                  row[W->lmap[lc]] -= 0.5 * h * G_(np + s, lc);
            }
          /* the forces on the cluster's mechanical nodes: m·v̇ = −ΣF̂ */
          if (sc->port_mnode != NULL)
            for (guint X = 0; X < np; X++)
              {
                int mk = sc->port_mnode[X];
                if (mk < 0 || sys->mnodes[mk].state < 0)
                  continue;
                guint a = (guint) M->unk_state[sys->mnodes[mk].state];
                double *row = W->A + a * m;
                /* divided by the node's mass below, once it is summed */
                for (guint lc = 0; lc < nl; lc++)
                  if (W->lmap[lc] >= 0)
                    row[W->lmap[lc]] += 0.5 * h * G_(X, lc);
              }
#undef G_
        }
      /* the springs' tensions at the cluster's ends of them */
      for (guint j = 0; j < cl->sn; j++)
        {
          guint e = M->cl_send[cl->sfirst + j];
          SysMechNode *mn = &sys->mnodes[M->sp[e / 2].mn[e % 2]];
          guint av = (guint) M->unk_state[mn->state];
          mn->F += spring_end_force (M, e, M->y_t[mn->state]);
          W->A[av * m + av] += 0.5 * h * M->sZt[e];
        }
      for (guint j = 0; j < cl->mn; j++)
        {
          const SysMechNode *mn = &sys->mnodes[M->cl_mnode[cl->mfirst + j]];
          guint av = (guint) M->unk_state[mn->state], ax = (guint) M->unk_state[mn->state + 1];
          double *rv = W->A + av * m, *rx = W->A + ax * m;
          double f = -mn->F / mn->m;
          /* v − v₀ − Δ/2·(f₀ + f), f = −ΣF̂/m */
          for (guint b = 0; b < m; b++)
            rv[b] /= mn->m;
          rv[av] += 1.0;
          W->r[av] = M->y_t[mn->state] - y0[mn->state] - 0.5 * h * (M->xdot[mn->state] + f);
          M->xdot_t[mn->state] = f;
          /* x − x₀ − Δ/2·(v₀ + v) */
          rx[ax] += 1.0;
          rx[av] -= 0.5 * h;
          W->r[ax] = M->y_t[mn->state + 1] - y0[mn->state + 1] - 0.5 * h * (y0[mn->state] + M->y_t[mn->state]);
          M->xdot_t[mn->state + 1] = M->y_t[mn->state];
        }
      if (m == 0)
        {
          status = 0;
          break;
        }
      /* Backtracking (Dennis & Schnabel 1983, §6.3): an update that does
       * not shrink the ports' scaled residual by a tenth is halved, up to
       * 12 times. Newton's
       * step can cycle on a square-root orifice law whose conductance near
       * zero flow is huge (a large valve); Burton solved his orifices in
       * closed form (his §4.4.3), this keeps the iteration general. */
      double rn = 0.0, rs = 0.0;
      for (guint a = 0; a < m; a++)
        {
          int var = W->uvar[a];
          if (!isfinite (W->r[a]))
            return 1;
          /* the ports' rows (Pa): the orifice laws that make Newton cycle
           * are there. A state's row near x = 0 has no scale of its own
           * and would swamp them in one norm; it counts apart, relative to
           * its value and its change over the step. */
          if (var < 0)
            rn = MAX (rn, fabs (W->r[a]) / (fabs (M->P_t[-1 - var]) + fabs (M->cin_t[-1 - var]) + 1e3));
          else
            rs = MAX (rs, fabs (W->r[a]) / (fabs (M->y_t[var]) + fabs (y0[var]) + 1e-300));
        }
      /* an update that moved the states a decade closer to their rule is
       * kept even when the ports' residual grew: a spool that starts to
       * open makes flows (and their residual) where there were none */
      if (rn > 0.9 * rnorm_prev && rn > TLM_ROUNDOFF && halvings < 12 && !(rs < 0.1 * rsnorm_prev))
        {
          lambda *= 0.5;
          for (guint a = 0; a < m; a++)
            {
              int var = W->uvar[a];
              double *v = var < 0 ? &M->P_t[-1 - var] : &M->y_t[var];
              *v -= lambda * W->u[a];
            }
          halvings++;
          continue;
        }
      rnorm_prev = rn;
      rsnorm_prev = rs;
      halvings = 0;
      lambda = 1.0;
      for (guint a = 0; a < m; a++)
        W->u[a] = -W->r[a];
      if (!lu_solve (W->A, W->u, W->piv, m))
        return 1;
      /* converged: every update below 1e-10 of its value; or, with the
       * ports' residual at rounding, the states' below 1e-7 (a state near
       * 0 whose derivative is a difference of large terms, a poppet at
       * rest, cannot be settled to 1e-10 of itself) */
      gboolean small = TRUE, fair = rn <= TLM_ROUNDOFF && it > 0;
      for (guint a = 0; a < m; a++)
        {
          int var = W->uvar[a];
          double *v = var < 0 ? &M->P_t[-1 - var] : &M->y_t[var];
          double scale = var < 0 ? fabs (*v) + 1e3 : fabs (*v) + 1e-6;
          if (!isfinite (W->u[a]))
            return 1;
          if (fabs (W->u[a]) > TLM_REL_TOL * scale)
            small = FALSE;
          if (fabs (W->u[a]) > 1e-7 * scale)
            fair = FALSE;
          *v += W->u[a];
        }
      if (small || fair)
        status = 0;
    }
  if (status != 0)
    return 1;

  /* the flows, volumes, ẋ and signals of the last evaluation: at the
   * solution but for the last update, below 1e-10 of each value */
  for (guint j = 0; j < cl->n; j++)
    {
      SysComp *sc = &sys->comps[M->cl_comp[cl->first + j]];
      memcpy (M->xdot_t + sc->state0, sc->xdot, sc->comp->n_states * sizeof (double));
    }
  for (guint j = 0; j < cl->mn; j++)
    {
      const SysMechNode *mn = &sys->mnodes[M->cl_mnode[cl->mfirst + j]];
      M->xdot_t[mn->state] = -mn->F / mn->m;
      M->xdot_t[mn->state + 1] = M->y_t[mn->state];
    }
  for (guint j = 0; j < cl->sn; j++)
    {
      guint e = M->cl_send[cl->sfirst + j];
      M->sF_t[e] = spring_tension (M, e, M->y_t[sys->mnodes[M->sp[e / 2].mn[e % 2]].state]);
    }
  for (guint j = 0; j < cl->n; j++)
    drive_taps (M, M->cl_comp[cl->first + j]);
  return 0;
}

static void
why_set (TlmModel *M, char *text)
{
  g_free (M->why);
  M->why = text;
}

/* One task: its clusters in order; the first that fails is remembered. */
static void
run_task (guint task, guint part, gpointer user)
{
  TlmModel *M = user;
  guint64 iters = 0;   /* counted here: the tasks' counters share cache lines */
  guint fail = 0;
  gint64 t0 = M->measure ? g_get_monotonic_time () : 0;
  for (guint ci = M->cl_task[task]; ci < M->cl_task[task + 1] && fail == 0; ci++)
    if (solve_cluster (M, &M->scr[part], ci, M->step_t, M->step_h, M->step_y, &iters) != 0)
      fail = ci + 1;
  M->task_fail[task] = fail;
  M->task_iters[task] = iters;
  if (M->measure)
    M->task_time[task] += (double) (g_get_monotonic_time () - t0);
}

/* The list of parameters that follow a profile, component by component
 * (sys->timed, made again after a live change). */
static void
timed_by_comp (TlmModel *M, double t)
{
  HydSystem *sys = M->sys;
  hyd_sys_refresh_params (sys, t);
  guint e = 0;
  for (guint i = 0; i <= sys->n_comps; i++)
    {
      while (e < sys->n_timed && sys->timed[2 * e] < i)
        e++;
      M->timed_first[i] = e;
    }
}

/* TLM node b after its ports are solved: its pressure, capacity and void,
 * the waves of the next step, and its pressure error (the largest in the
 * thread's part_err). Nodes write only their own ports and state. */
static void
update_spring (TlmModel *M, guint s)
{
  double a1 = 1.0 - M->alpha, S = 0.0;
  for (guint e = 2 * s; e < 2 * s + 2; e++)
    {
      if (M->sp[s].mn[e % 2] < 0)
        M->sF_t[e] = M->scin_t[e];   /* a fixed end: v = 0 */
      M->scout_t[e] = 2.0 * M->sF_t[e] - M->scin_t[e];
      S += M->scout_t[e];
    }
  for (guint e = 2 * s; e < 2 * s + 2; e++)
    M->scnext_t[e] = a1 * (S - M->scout_t[e]) + M->alpha * M->scin_t[e];
  M->serr[s] = fabs (M->sF_t[2 * s] - M->sF_t[2 * s + 1]) / M->sys->comps[M->sp[s].comp].comp->par[0];
}

static void
update_node (guint b, guint part, gpointer user)
{
  TlmModel *M = user;
  if (b >= M->nn)
    {
      update_spring (M, b - M->nn);
      return;
    }
  HydSystem *sys = M->sys;
  double h = M->step_h, a1 = 1.0 - M->alpha;
  double pv = sys->fluid.vapour_pressure;
  TlmNode *tn = &M->nodes[b];
  SysNode *nd = &sys->nodes[tn->node];
  double V, Cw, dCw, S = 0.0, Pm = 0.0;
  double pmin = INFINITY, pmax = -INFINITY;
  node_oil (M, nd, tn, &V, &Cw, &dCw);
  for (guint j = 0; j < tn->n; j++)
    {
      guint k = M->node_port[tn->first + j];
      M->cout_t[k] = 2.0 * M->P_t[k] - M->cin_t[k];
      S += M->cout_t[k];
      Pm += M->P_t[k];
      pmin = MIN (pmin, M->P_t[k]);
      pmax = MAX (pmax, M->P_t[k]);
    }
  Pm /= tn->n;
  guint k0 = M->node_port[tn->first];
  double e = tn->n > 1 ? pmax - pmin : fabs (M->cout_t[k0] - M->P_t[k0]);
  double *err = &M->part_err[part * TLM_PAD];
  *err = MAX (*err, e);
  /* the junction's pressure (its lines have equal impedances); at the
   * vapour pressure a void opens instead of the pressure falling below
   * it and takes up what the lines draw, until the oil refills it
   * (Burton §3.3, eq. 3.24, at the junction) */
  double PJ = S / tn->n;
  tn->void_t = 0.0;
  if (hyd_fluid_has_floor (&sys->fluid) && (tn->void_acc > 0.0 || PJ < pv))
    {
      double inflow = (S - tn->n * pv) / M->Zt[k0];
      double vv = tn->void_acc - h * inflow;
      if (vv > 0.0)
        {
          tn->void_t = vv;
          PJ = pv;
        }
    }
  for (guint j = 0; j < tn->n; j++)
    {
      guint k = M->node_port[tn->first + j];
      double c_next = 2.0 * PJ - M->cout_t[k];
      M->cnext_t[k] = a1 * c_next + M->alpha * M->cin_t[k];
    }
  /* the node's state: its mean port pressure, or deep in a void
   * ψ = p_v − B_l·V_void/V (hyd-fluid.h) */
  double psi = tn->void_t > 0.0
               ? MIN (pv - 0.5 * HYD_CAVITATION_SMOOTHING, pv - sys->fluid.bulk_modulus * tn->void_t / V)
               : hyd_fluid_node_state_for_pressure (&sys->fluid, Pm);
  tn->V = V;
  HydNodeFluid nf;
  tn->C_trial = node_capacity (&sys->fluid, psi, V, Cw, dCw, &nf);
  tn->phi_t = nf.phi_full;
  /* the step took the capacity of its start: had it taken its end's, the
   * pressure would have changed by ΔP·C/C_trial; the difference is an
   * error too (it counts where the capacity changes fast with pressure,
   * oil with air at low pressure, Burton §3.4). A capacity that collapses
   * within a step (an accumulator running empty) adds 10⁻³ of the pressure
   * per unit of relative change, so that the step shrinks before it: the
   * re-scaled waves of a line whose capacity fell 8000-fold in one 38 ms
   * step put ±15 kbar on its ends (accumulator-safety-block). A heuristic
   * weight, not Burton's. */
  double P0 = 0.0;
  for (guint j = 0; j < tn->n; j++)
    P0 += M->P[M->node_port[tn->first + j]];
  P0 /= tn->n;
  if (tn->C_trial > 0.0 && isfinite (tn->C_trial))
    *err = MAX (*err, fabs (Pm - P0) * fabs (tn->C_trial - tn->C) / tn->C_trial
                      + fabs (Pm) * fabs (tn->C_trial - tn->C) / MAX (tn->C_trial, tn->C) * 1e-3);
  M->y_t[tn->state] = psi;
  if (!(tn->C_trial > 0.0) || !isfinite (Pm))
    *err = INFINITY;   /* not a component's iteration: the driver names the state */
}

/* Component ev_comp[j]'s event functions at the end of the step, as
 * hyd_system_events computes them: its ports at their nodes' pressures
 * from the new state (a boundary's from its profile). */
static void
event_comp (guint j, guint part, gpointer user)
{
  TlmModel *M = user;
  HydSystem *sys = M->sys;
  double t1 = M->step_t + M->step_h;
  SysComp *sc = &sys->comps[M->ev_comp[j]];
  HydComp *c = sc->comp;
  for (guint X = 0; X < c->type->n_ports; X++)
    {
      int b = sc->port_node[X];
      if (b < 0)
        sc->p[X] = 0.0;
      else if (sys->nodes[b].boundary)
        sc->p[X] = boundary_pressure (sys, &sys->nodes[b], t1);
      else
        {
          HydNodeFluid nf;
          hyd_fluid_node (&sys->fluid, M->y_t[sys->nodes[b].state], &nf);
          sc->p[X] = nf.p;
        }
    }
  HydEvalIn in = { t1, sc->p, M->y_t + sc->state0 };
  c->type->events (c, &in, M->ev_g + sc->event0);
}

static int
tlm_events (gpointer model, double *g)
{
  TlmModel *M = model;
  if (M->ev_start == NULL)
    return 1;
  M->ev_g = g;
  if (M->pool != NULL)
    hyd_task_pool_run (M->pool, M->ev_start, event_comp, M);
  else
    for (guint j = 0; j < M->nev; j++)
      event_comp (j, 0, M);
  for (guint k = 0; k < M->sys->n_events; k++)
    if (!isfinite (g[k]))
      return 1;   /* the driver's own evaluation says which */
  return 0;
}

static int
tlm_step (gpointer model, double t, const double *y, double h, double *y_new, double *pe,
          double *est, guint64 *iterations)
{
  TlmModel *M = model;
  HydSystem *sys = M->sys;
  double t1 = t + h;

  memcpy (M->y_t, y, M->n * sizeof (double));
  for (guint k = 0; k < sys->n_signals; k++)
    sys->signals[k].value = M->net_acc[k];
  if (!sys->timed_valid)
    timed_by_comp (M, t1);
  /* the springs' impedances for this Δ and their stiffness at t + Δ; a
   * change re-scales the waves as at a node (eq. 3.27) */
  for (guint sidx = 0; sidx < M->nsp; sidx++)
    {
      guint i = M->sp[sidx].comp;
      refresh_timed (M, i, t1);
      double Z = sys->comps[i].comp->par[0] * h / (1.0 - M->alpha);
      for (guint e = 2 * sidx; e < 2 * sidx + 2; e++)
        {
          M->scin_t[e] = compensated (M->sZ[e], Z, M->scin[e], M->scout[e]);
          M->sZt[e] = Z;
        }
    }

  /* the tasks, on the threads of their partitions (each cluster takes its
   * ports' impedances for this Δ and its parameters at t + Δ first); each
   * writes only its own components', ports' and states' values, so the
   * result does not depend on the number of threads */
  M->step_t = t;
  M->step_h = h;
  M->step_y = y;
  /* with threads: time the tasks over steps 100 to 400, then split them
   * again by what they took (the estimate misses how many iterations a
   * component needs); which thread runs a task never changes a result */
  M->nsteps++;
  if (M->pool != NULL && M->nsteps == 100)
    M->measure = TRUE;
  if (M->measure && M->nsteps == 400)
    {
      M->measure = FALSE;
      hyd_partition_contiguous (M->task_time, M->ntask, M->nthreads, M->part_start);
    }
  if (M->pool != NULL)
    hyd_task_pool_run (M->pool, M->part_start, run_task, M);
  else
    for (guint k = 0; k < M->ntask; k++)
      run_task (k, 0, M);
  for (guint k = 0; k < M->ntask; k++)
    *iterations += M->task_iters[k];
  for (guint k = 0; k < M->ntask; k++)
    if (M->task_fail[k] != 0)
      {
        const TlmCluster *cl = &M->cl[M->task_fail[k] - 1];
        g_autoptr (GString) ids = g_string_new (NULL);
        for (guint j = 0; j < cl->n && j < 4; j++)
          g_string_append_printf (ids, "%s%s", j ? ", " : "", sys->comps[M->cl_comp[cl->first + j]].comp->id);
        if (cl->n > 4)
          g_string_append (ids, ", …");
        why_set (M, g_strdup (ids->str));
        return 1;
      }

  /* nodes: pressure, capacity, error, and the waves of the next step, on
   * the threads too (the largest error does not depend on their order) */
  for (guint part = 0; part < M->nthreads; part++)
    M->part_err[part * TLM_PAD] = 0.0;
  if (M->pool != NULL)
    hyd_task_pool_run (M->pool, M->node_start, update_node, M);
  else
    for (guint b = 0; b < M->nn + M->nsp; b++)
      update_node (b, 0, M);
  double err = 0.0;
  for (guint part = 0; part < M->nthreads; part++)
    err = MAX (err, M->part_err[part * TLM_PAD]);
  if (!isfinite (err))
    {
      why_set (M, NULL);
      return 1;
    }
  memcpy (y_new, M->y_t, M->n * sizeof (double));
  *pe = err;
  /* the trapezoidal rule's states: (Δ/2)·(ẋ − ẋ₀), the difference to an
   * explicit Euler step (h²/2·ẍ: conservative for a second-order rule) */
  for (guint i = 0; i < M->n; i++)
    est[i] = 0.5 * h * (M->xdot_t[i] - M->xdot[i]);
  for (guint b = 0; b < M->nn; b++)
    est[M->nodes[b].state] = 0.0;
  /* a spring's two ends disagree by |F_A − F_B|: a length error of
   * |F_A − F_B|/k at its ends' positions (Burton's force difference on a
   * mechanical line, weighed as every position is) */
  for (guint sidx = 0; sidx < M->nsp; sidx++)
    for (guint side = 0; side < 2; side++)
      {
        int xs = M->sp[sidx].xstate[side];
        if (xs >= 0)
          est[xs] = MAX (fabs (est[xs]), M->serr[sidx]);
      }
  return 0;
}

static void
tlm_accept (gpointer model)
{
  TlmModel *M = model;
  memcpy (M->Z, M->Zt, M->ntp * sizeof (double));
  memcpy (M->cin, M->cnext_t, M->ntp * sizeof (double));
  memcpy (M->cout, M->cout_t, M->ntp * sizeof (double));
  memcpy (M->P, M->P_t, M->ntp * sizeof (double));
  memcpy (M->xdot, M->xdot_t, M->n * sizeof (double));
  gsize se = 2 * (gsize) M->nsp * sizeof (double);
  memcpy (M->sZ, M->sZt, se);
  memcpy (M->scin, M->scnext_t, se);
  memcpy (M->scout, M->scout_t, se);
  memcpy (M->sF, M->sF_t, se);
  for (guint b = 0; b < M->nn; b++)
    {
      M->nodes[b].C = M->nodes[b].C_trial;
      M->nodes[b].phi = M->nodes[b].phi_t;
      M->nodes[b].void_acc = M->nodes[b].void_t;
    }
  for (guint k = 0; k < M->sys->n_signals; k++)
    M->net_acc[k] = M->sys->signals[k].value;
}

static void
tlm_destroy (gpointer model)
{
  TlmModel *M = model;
  if (M == NULL)
    return;
  g_free (M->tp_gp);
  g_free (M->tp_tn);
  g_free (M->node_port);
  g_free (M->node_start);
  g_free (M->part_err);
  g_free (M->timed_first);
  g_free (M->ev_comp);
  g_free (M->ev_start);
  g_free (M->gp_tp);
  g_free (M->port0);
  g_free (M->Z);
  g_free (M->Zt);
  g_free (M->cin);
  g_free (M->cin_t);
  g_free (M->cout);
  g_free (M->cout_t);
  g_free (M->cnext_t);
  g_free (M->P);
  g_free (M->P_t);
  g_free (M->nodes);
  g_free (M->cl);
  g_free (M->cl_comp);
  g_free (M->cl_mnode);
  g_free (M->cl_send);
  g_free (M->sp);
  g_free (M->comp_is_line);
  g_free (M->sZ);
  g_free (M->sZt);
  g_free (M->scin);
  g_free (M->scin_t);
  g_free (M->scout);
  g_free (M->scout_t);
  g_free (M->scnext_t);
  g_free (M->sF);
  g_free (M->sF_t);
  g_free (M->serr);
  g_free (M->net_acc);
  g_free (M->unk_state);
  g_free (M->unk_tp);
  if (M->pool != NULL)
    hyd_task_pool_free (M->pool);
  for (guint k = 0; M->scr != NULL && k < M->nthreads; k++)
    {
      TlmScratch *W = &M->scr[k];
      g_free (W->block);
    }
  g_free (M->scr);
  g_free (M->cl_task);
  g_free (M->task_cost);
  g_free (M->part_start);
  g_free (M->task_fail);
  g_free (M->task_iters);
  g_free (M->task_time);
  g_free (M->xdot);
  g_free (M->xdot_t);
  g_free (M->y_t);
  g_free (M->why);
  g_free (M);
}

static char *
tlm_why (gpointer model)
{
  TlmModel *M = model;
  return g_strdup (M->why);
}

static gboolean
is_spring (const SysComp *sc)
{
  return sc->comp->type->eval == hyd_mech_spring_eval && sc->port_mnode != NULL;
}

/* The springs that become lines: each end on a fixed point or on a node
 * that something else (a mass, a cylinder's rod) is on; a spring on a
 * massless node between springs stays a component of its cluster. */
static void
find_springs (TlmModel *M)
{
  HydSystem *sys = M->sys;
  GArray *sp = g_array_new (FALSE, FALSE, sizeof (TlmSpring));
  M->comp_is_line = g_new0 (gboolean, sys->n_comps + 1);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const SysComp *sc = &sys->comps[i];
      if (!is_spring (sc))
        continue;
      TlmSpring t = { .comp = i };
      gboolean ok = TRUE;
      for (guint side = 0; side < 2 && ok; side++)
        {
          int k = sc->port_mnode[side];
          t.mn[side] = -1;
          t.xstate[side] = -1;
          if (k < 0)
            {
              ok = FALSE;
              continue;
            }
          const SysMechNode *mn = &sys->mnodes[k];
          if (mn->state < 0)
            continue;
          gboolean held = FALSE;
          for (guint j = 0; j < mn->ports->len && !held; j++)
            held = !is_spring (&sys->comps[sys->port_comp[g_array_index (mn->ports, guint, j)]]);
          ok = held;
          t.mn[side] = k;
          t.xstate[side] = mn->state + 1;
        }
      if (!ok)
        continue;
      M->comp_is_line[i] = TRUE;
      g_array_append_val (sp, t);
    }
  M->nsp = sp->len;
  M->sp = (TlmSpring *) g_array_free (sp, FALSE);
  gsize ne = 2 * (gsize) M->nsp + 1;
  M->sZ = g_new0 (double, ne);
  M->sZt = g_new0 (double, ne);
  M->scin = g_new0 (double, ne);
  M->scin_t = g_new0 (double, ne);
  M->scout = g_new0 (double, ne);
  M->scout_t = g_new0 (double, ne);
  M->scnext_t = g_new0 (double, ne);
  M->sF = g_new0 (double, ne);
  M->sF_t = g_new0 (double, ne);
  M->serr = g_new0 (double, M->nsp + 1);
}

/* The component a mechanical node's cluster is found by: its first that
 * is not a line, or −1. */
static int
mnode_anchor (const TlmModel *M, const SysMechNode *mn)
{
  for (guint j = 0; j < mn->ports->len; j++)
    {
      guint i = M->sys->port_comp[g_array_index (mn->ports, guint, j)];
      if (!M->comp_is_line[i])
        return (int) i;
    }
  return -1;
}

/* Clusters: the components joined by mechanical nodes (union-find; a
 * spring stepped as a line joins nothing), in the order of their signals
 * (Kahn; a loop is cut at its lowest cluster). */
static void
build_clusters (TlmModel *M)
{
  HydSystem *sys = M->sys;
  guint nc = sys->n_comps;
  g_autofree guint *parent = g_new (guint, nc + 1);
  for (guint i = 0; i < nc; i++)
    parent[i] = i;
  for (guint k = 0; k < sys->n_mnodes; k++)
    {
      const SysMechNode *mn = &sys->mnodes[k];
      int anchor = mnode_anchor (M, mn);
      for (guint j = 0; j < mn->ports->len && anchor >= 0; j++)
        {
          guint i = sys->port_comp[g_array_index (mn->ports, guint, j)];
          if (!M->comp_is_line[i])
            hyd_sys_uf_union (parent, (guint) anchor, i);
        }
    }
  /* the cluster of each component, numbered by its first component */
  g_autofree int *cid = g_new (int, nc + 1);
  g_autofree int *root_cl = g_new (int, nc + 1);
  guint ncl = 0;
  for (guint i = 0; i < nc; i++)
    root_cl[i] = -1;
  for (guint i = 0; i < nc; i++)
    {
      cid[i] = -1;
      if (M->comp_is_line[i])
        continue;
      guint r = hyd_sys_uf_find (parent, i);
      if (root_cl[r] < 0)
        root_cl[r] = (int) ncl++;
      cid[i] = root_cl[r];
    }
  /* signal edges between clusters: driver → reader */
  g_autoptr (GArray) edges = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint k = 0; k < sys->n_signals; k++)
    {
      const SysSignal *net = &sys->signals[k];
      int from = net->tap ? cid[net->tap_comp]
                 : net->driver >= 0 ? cid[sys->port_comp[net->driver]] : -1;
      if (from < 0)
        continue;
      for (guint j = 0; j <= net->ports->len; j++)
        {
          guint gp;
          if (j < net->ports->len)
            gp = g_array_index (net->ports, guint, j);
          else if (net->tap)
            gp = net->tap_reader;
          else
            break;
          int to = cid[sys->port_comp[gp]];
          if (to != from)
            {
              guint e[2] = { (guint) from, (guint) to };
              g_array_append_vals (edges, e, 2);
            }
        }
    }
  const guint *ed = (const guint *) edges->data;
  guint ne = edges->len / 2;
  g_autofree guint *indeg = g_new0 (guint, ncl + 1);
  for (guint e = 0; e < ne; e++)
    indeg[ed[2 * e + 1]]++;
  g_autofree guint *order = g_new (guint, ncl + 1);
  g_autofree gboolean *done = g_new0 (gboolean, ncl + 1);
  for (guint r = 0; r < ncl; r++)
    {
      guint pick = G_MAXUINT;
      for (guint c = 0; c < ncl && pick == G_MAXUINT; c++)
        if (!done[c] && indeg[c] == 0)
          pick = c;
      for (guint c = 0; c < ncl && pick == G_MAXUINT; c++)
        if (!done[c])
          pick = c;   /* a loop of signals: cut here */
      done[pick] = TRUE;
      order[r] = pick;
      for (guint e = 0; e < ne; e++)
        if (ed[2 * e] == pick && indeg[ed[2 * e + 1]] > 0)
          indeg[ed[2 * e + 1]]--;
    }
  /* components cluster by cluster in that order; inside a cluster, the
   * signal drivers first, in their dependency order */
  g_autofree guint *sig_pos = g_new (guint, nc + 1);
  for (guint i = 0; i < nc; i++)
    sig_pos[i] = sys->n_sig_order + i;
  for (guint o = 0; o < sys->n_sig_order; o++)
    sig_pos[sys->sig_order[o]] = o;
  M->ncl = ncl;
  M->cl = g_new0 (TlmCluster, ncl + 1);
  M->cl_comp = g_new (guint, nc + 1);
  M->cl_mnode = g_new (guint, sys->n_mnodes + 1);
  M->cl_send = g_new (guint, 2 * M->nsp + 1);
  guint nfill = 0, mfill = 0, sfill = 0;
  for (guint r = 0; r < ncl; r++)
    {
      guint c = order[r];
      TlmCluster *cl = &M->cl[r];
      cl->first = nfill;
      for (guint i = 0; i < nc; i++)
        if ((guint) cid[i] == c)
          M->cl_comp[nfill++] = i;
      cl->n = nfill - cl->first;
      for (guint a = cl->first + 1; a < nfill; a++)
        for (guint b = a; b > cl->first && sig_pos[M->cl_comp[b]] < sig_pos[M->cl_comp[b - 1]]; b--)
          {
            guint tmp = M->cl_comp[b];
            M->cl_comp[b] = M->cl_comp[b - 1];
            M->cl_comp[b - 1] = tmp;
          }
      cl->mfirst = mfill;
      for (guint k = 0; k < sys->n_mnodes; k++)
        {
          const SysMechNode *mn = &sys->mnodes[k];
          int anchor = mnode_anchor (M, mn);
          if (mn->state >= 0 && anchor >= 0 && (guint) cid[anchor] == c)
            M->cl_mnode[mfill++] = k;
        }
      cl->mn = mfill - cl->mfirst;
      cl->sfirst = sfill;
      for (guint e = 0; e < 2 * M->nsp; e++)
        {
          int k = M->sp[e / 2].mn[e % 2];
          if (k >= 0 && (guint) cid[mnode_anchor (M, &sys->mnodes[k])] == c)
            M->cl_send[sfill++] = e;
        }
      cl->sn = sfill - cl->sfirst;
    }
}

/* Tasks: runs of clusters that signals join (a signal chain stays on one
 * thread, Burton §6.3), each costed by its Newton iteration (m³/3 for the
 * LU plus its components' local blocks); the threads take contiguous runs
 * of tasks of about equal cost. */
static void
build_tasks (TlmModel *M, guint threads)
{
  HydSystem *sys = M->sys;
  guint ncl = M->ncl;
  g_autofree int *cl_of = g_new (int, sys->n_comps + 1);
  for (guint ci = 0; ci < ncl; ci++)
    for (guint j = 0; j < M->cl[ci].n; j++)
      cl_of[M->cl_comp[M->cl[ci].first + j]] = (int) ci;
  g_autofree guint *parent = g_new (guint, ncl + 1);
  for (guint ci = 0; ci < ncl; ci++)
    parent[ci] = ci;
  for (guint k = 0; k < sys->n_signals; k++)
    {
      const SysSignal *net = &sys->signals[k];
      int from = net->tap ? cl_of[net->tap_comp]
                 : net->driver >= 0 ? cl_of[sys->port_comp[net->driver]] : -1;
      if (from < 0)
        continue;
      for (guint j = 0; j < net->ports->len; j++)
        hyd_sys_uf_union (parent, (guint) from, (guint) cl_of[sys->port_comp[g_array_index (net->ports, guint, j)]]);
      if (net->tap)
        hyd_sys_uf_union (parent, (guint) from, (guint) cl_of[sys->port_comp[net->tap_reader]]);
    }
  /* clusters regrouped task by task, each task's in their solving order */
  g_autofree TlmCluster *cl = g_new (TlmCluster, ncl + 1);
  g_autofree gboolean *taken = g_new0 (gboolean, ncl + 1);
  M->cl_task = g_new0 (guint, ncl + 2);
  M->task_cost = g_new0 (double, ncl + 1);
  guint fill = 0, nt = 0;
  for (guint a = 0; a < ncl; a++)
    {
      if (taken[a])
        continue;
      guint root = hyd_sys_uf_find (parent, a);
      M->cl_task[nt] = fill;
      double cost = 0.0;
      for (guint b = a; b < ncl; b++)
        if (!taken[b] && hyd_sys_uf_find (parent, b) == root)
          {
            taken[b] = TRUE;
            cl[fill++] = M->cl[b];
            double m = 2.0 * M->cl[b].mn;
            for (guint j = 0; j < M->cl[b].n; j++)
              {
                const HydComp *c = sys->comps[M->cl_comp[M->cl[b].first + j]].comp;
                double nl = hyd_comp_n_local (c);
                m += c->type->n_ports + c->n_states;
                cost += 4.0 * nl * nl + 20.0;
              }
            cost += m * m * m / 3.0 + 2.0 * m * m;
          }
      M->task_cost[nt++] = cost;
    }
  M->cl_task[nt] = fill;
  memcpy (M->cl, cl, ncl * sizeof (TlmCluster));
  M->ntask = nt;
  M->task_fail = g_new0 (guint, nt + 1);
  M->task_iters = g_new0 (guint64, nt + 1);
  M->task_time = g_new0 (double, nt + 1);
  M->nthreads = CLAMP (threads, 1, MAX (nt, 1));
  M->part_start = g_new0 (guint, M->nthreads + 1);
  hyd_partition_contiguous (M->task_cost, nt, M->nthreads, M->part_start);
  /* the nodes' update: contiguous runs of about equal numbers of ports */
  g_autofree double *ncost = g_new (double, M->nn + M->nsp + 1);
  for (guint b = 0; b < M->nn; b++)
    ncost[b] = 4.0 + M->nodes[b].n;
  for (guint b = M->nn; b < M->nn + M->nsp; b++)
    ncost[b] = 3.0;
  M->node_start = g_new0 (guint, M->nthreads + 1);
  hyd_partition_contiguous (ncost, M->nn + M->nsp, M->nthreads, M->node_start);
  M->part_err = g_new0 (double, (gsize) M->nthreads * TLM_PAD + 1);
  if (!sys->has_domains && sys->n_events > 0)
    {
      M->ev_comp = g_new (guint, sys->n_comps + 1);
      for (guint i = 0; i < sys->n_comps; i++)
        if (sys->comps[i].comp->type->events != NULL && sys->comps[i].comp->n_events > 0)
          M->ev_comp[M->nev++] = i;
      g_autofree double *ecost = g_new (double, M->nev + 1);
      for (guint j = 0; j < M->nev; j++)
        ecost[j] = 1.0 + sys->comps[M->ev_comp[j]].comp->type->n_ports;
      M->ev_start = g_new0 (guint, M->nthreads + 1);
      hyd_partition_contiguous (ecost, M->nev, M->nthreads, M->ev_start);
    }
  M->scr = g_new0 (TlmScratch, M->nthreads);
  for (guint k = 0; k < M->nthreads; k++)
    {
      TlmScratch *W = &M->scr[k];
      gsize mm = (gsize) M->mmax * M->mmax + 1, m1 = M->mmax + 1, gg = (gsize) M->nlmax * M->nlmax + 1;
      gsize ints = 2 * m1 + M->nlmax + 1;   /* uvar, piv, lmap */
      gsize total = TLM_PAD + mm + 2 * m1 + gg + (ints + 1) / 2 + TLM_PAD;
      W->block = g_new0 (double, total);
      double *at = W->block + TLM_PAD;
      W->A = at;
      at += mm;
      W->r = at;
      at += m1;
      W->u = at;
      at += m1;
      W->G = at;
      at += gg;
      W->uvar = (int *) at;
      W->piv = W->uvar + m1;
      W->lmap = W->piv + m1;
    }
  if (M->nthreads > 1)
    M->pool = hyd_task_pool_new (M->nthreads);
}

/* The TLM ports numbered in the order the tasks solve them (their nodes
 * keep lists of them): each thread then writes its own stretch of every
 * per-port array. Numbered node by node, the ports of a manifold that many
 * valves share sat side by side, and two threads updating neighbours
 * fought over the cache lines on every Newton iteration (the work of a step
 * took 1.9 times as long on two threads as on one). */
static void
number_ports_by_task (TlmModel *M)
{
  HydSystem *sys = M->sys;
  guint ntp = M->ntp;
  g_autofree guint *renum = g_new (guint, ntp + 1);
  g_autofree gboolean *done = g_new0 (gboolean, ntp + 1);
  guint next = 0;
  for (guint ci = 0; ci < M->ncl; ci++)
    for (guint j = 0; j < M->cl[ci].n; j++)
      {
        guint i = M->cl_comp[M->cl[ci].first + j];
        for (guint X = 0; X < sys->comps[i].comp->type->n_ports; X++)
          {
            int k = M->gp_tp[M->port0[i] + X];
            if (k >= 0 && !done[k])
              {
                done[k] = TRUE;
                renum[k] = next++;
              }
          }
      }
  for (guint k = 0; k < ntp; k++)
    if (!done[k])
      renum[k] = next++;
  g_autofree guint *gp = g_memdup2 (M->tp_gp, ntp * sizeof (guint));
  g_autofree guint *tn = g_memdup2 (M->tp_tn, ntp * sizeof (guint));
  for (guint k = 0; k < ntp; k++)
    {
      M->tp_gp[renum[k]] = gp[k];
      M->tp_tn[renum[k]] = tn[k];
      M->gp_tp[gp[k]] = (int) renum[k];
      M->node_port[k] = renum[k];   /* node b's ports were first .. first + n */
    }
}

static gpointer
tlm_create (gpointer user, double t0, const double *y0, double alpha, guint threads, char **why)
{
  HydSystem *sys = user;

  TlmModel *M = g_new0 (TlmModel, 1);
  M->sys = sys;
  M->alpha = alpha;
  M->n = sys->n;
  M->gp_tp = g_new (int, sys->n_ports_total + 1);
  M->port0 = g_new0 (guint, sys->n_comps + 1);
  for (guint q = sys->n_ports_total; q-- > 0;)
    M->port0[sys->port_comp[q]] = q;
  for (guint gp = 0; gp < sys->n_ports_total; gp++)
    M->gp_tp[gp] = -1;
  /* every hydraulic port on a node with a state, node by node (a hose's
   * ends are on their nodes though not in the nodes' port lists) */
  g_autofree guint *count = g_new0 (guint, sys->n_nodes + 1);
  for (guint gp = 0; gp < sys->n_ports_total; gp++)
    {
      int b = sys->comps[sys->port_comp[gp]].port_node[sys->port_index[gp]];
      if (b >= 0 && !sys->nodes[b].boundary && sys->nodes[b].state >= 0)
        count[b]++;
    }
  GArray *tp = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *nodes = g_array_new (FALSE, TRUE, sizeof (TlmNode));
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      SysNode *nd = &sys->nodes[b];
      if (count[b] == 0)
        continue;
      TlmNode tn = { .first = tp->len, .n = count[b], .node = b, .state = nd->state };
      for (guint gp = 0; gp < sys->n_ports_total; gp++)
        if (sys->comps[sys->port_comp[gp]].port_node[sys->port_index[gp]] == (int) b)
          {
            M->gp_tp[gp] = (int) tp->len;
            g_array_append_val (tp, gp);
          }
      g_array_append_val (nodes, tn);
    }
  M->ntp = tp->len;
  M->tp_gp = (guint *) g_array_free (tp, FALSE);
  M->nn = nodes->len;
  M->nodes = (TlmNode *) g_array_free (nodes, FALSE);
  M->tp_tn = g_new0 (guint, M->ntp + 1);
  M->node_port = g_new0 (guint, M->ntp + 1);
  for (guint b = 0; b < M->nn; b++)
    for (guint j = 0; j < M->nodes[b].n; j++)
      {
        M->tp_tn[M->nodes[b].first + j] = b;
        M->node_port[M->nodes[b].first + j] = M->nodes[b].first + j;
      }
  M->timed_first = g_new0 (guint, sys->n_comps + 2);
  timed_by_comp (M, t0);
  guint ntp = M->ntp + 1;
  M->Z = g_new0 (double, ntp);
  M->Zt = g_new0 (double, ntp);
  M->cin = g_new0 (double, ntp);
  M->cin_t = g_new0 (double, ntp);
  M->cout = g_new0 (double, ntp);
  M->cout_t = g_new0 (double, ntp);
  M->cnext_t = g_new0 (double, ntp);
  M->P = g_new0 (double, ntp);
  M->P_t = g_new0 (double, ntp);
  M->unk_tp = g_new0 (int, ntp);
  M->xdot = g_new0 (double, sys->n + 1);
  M->xdot_t = g_new0 (double, sys->n + 1);
  M->y_t = g_new0 (double, sys->n + 1);
  M->unk_state = g_new0 (int, sys->n + 1);
  M->net_acc = g_new0 (double, sys->n_signals + 1);
  find_springs (M);
  build_clusters (M);
  for (guint ci = 0; ci < M->ncl; ci++)
    {
      const TlmCluster *cl = &M->cl[ci];
      guint m = 2 * cl->mn;
      for (guint j = 0; j < cl->n; j++)
        {
          HydComp *c = sys->comps[M->cl_comp[cl->first + j]].comp;
          m += c->type->n_ports + c->n_states;
          M->nlmax = MAX (M->nlmax, hyd_comp_n_local (c));
        }
      M->mmax = MAX (M->mmax, m);
    }
  build_tasks (M, threads);
  number_ports_by_task (M);

  /* at rest: every wave at its node's pressure (no flow, Burton §3.2) */
  for (guint b = 0; b < M->nn; b++)
    {
      TlmNode *tn = &M->nodes[b];
      HydNodeFluid nf;
      hyd_fluid_node (&sys->fluid, y0[tn->state], &nf);
      for (guint j = 0; j < tn->n; j++)
        {
          guint k = M->node_port[tn->first + j];
          M->P[k] = M->cin[k] = M->cout[k] = nf.p;
        }
    }
  /* ẋ, the signals and the volumes at the start: the whole system's
   * evaluation, every port at its node's pressure */
  if (hyd_sys_eval_all (sys, t0, y0, M->xdot, FALSE) != 0)
    {
      *why = g_strdup ("the circuit cannot be evaluated at its initial state");
      tlm_destroy (M);
      return NULL;
    }
  for (guint k = 0; k < sys->n_signals; k++)
    M->net_acc[k] = sys->signals[k].value;
  /* the springs at rest at their initial tension */
  for (guint e = 0; e < 2 * M->nsp; e++)
    M->scin[e] = M->scout[e] = M->sF[e] = sys->comps[M->sp[e / 2].comp].q[1];
  for (guint b = 0; b < M->nn; b++)
    {
      TlmNode *tn = &M->nodes[b];
      SysNode *nd = &sys->nodes[tn->node];
      double V, Cw, dCw;
      HydNodeFluid nf;
      node_oil (M, nd, tn, &V, &Cw, &dCw);
      tn->C = node_capacity (&sys->fluid, y0[tn->state], V, Cw, dCw, &nf);
      tn->phi = nf.phi_full;
      tn->V = V;
      tn->void_acc = hyd_fluid_has_floor (&sys->fluid) ? V * nf.voidf : 0.0;
      if (!(tn->C > 0.0))
        {
          *why = g_strdup_printf ("the node at %s holds no oil: TLM needs a volume at every node "
                                  "(give a connection a length, or add a volume)",
                                  hyd_sys_port_name (sys, M->tp_gp[M->node_port[tn->first]]));
          tlm_destroy (M);
          return NULL;
        }
    }
  return M;
}

static char *
tlm_partition (gpointer model)
{
  TlmModel *M = model;
  HydSystem *sys = M->sys;
  if (M->nthreads <= 1)
    return NULL;
  double total = 0.0;
  for (guint k = 0; k < M->ntask; k++)
    total += M->task_cost[k];
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "%u threads, the components' share of the estimated cost:", M->nthreads);
  for (guint part = 0; part < M->nthreads; part++)
    {
      double cost = 0.0;
      guint shown = 0, count = 0;
      GString *ids = g_string_new (NULL);
      for (guint k = M->part_start[part]; k < M->part_start[part + 1]; k++)
        {
          cost += M->task_cost[k];
          for (guint ci = M->cl_task[k]; ci < M->cl_task[k + 1]; ci++)
            for (guint j = 0; j < M->cl[ci].n; j++, count++)
              if (shown < 8)
                g_string_append_printf (ids, "%s%s", shown++ ? " " : "",
                                        sys->comps[M->cl_comp[M->cl[ci].first + j]].comp->id);
        }
      if (count > shown)
        g_string_append_printf (ids, " … (%u)", count);
      g_string_append_printf (s, "%s thread %u: %.0f %% {%s}", part ? ";" : "", part + 1,
                              total > 0.0 ? 100.0 * cost / total : 0.0, ids->str);
      g_string_free (ids, TRUE);
    }
  return g_string_free (s, FALSE);
}

static const HydTlmOps tlm_ops = {
  .create = tlm_create,
  .destroy = tlm_destroy,
  .step = tlm_step,
  .accept = tlm_accept,
  .why = tlm_why,
  .partition = tlm_partition,
  .events = tlm_events,
};

const HydTlmOps *
hyd_sys_tlm_ops (void)
{
  return &tlm_ops;
}
