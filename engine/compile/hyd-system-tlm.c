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
 * Not yet (docs/solvers.md, "TLM"): components joined by mechanical
 * nodes, signals or electrical nets; cavitation's void tracking (§3.3);
 * parallel partitions. A circuit with them is refused with what and where. */
#include "hyd-system-private.h"
#include "hyd-ode.h"

#define TLM_NEWTON_MAX 40
#define TLM_REL_TOL    1e-10   /* Newton: update below this relative size */

typedef struct {
  guint first, n;          /* its ports: tport[first .. first + n) */
  int state;               /* its state in y */
  double C;                /* capacity dV_oil/dp (m³/Pa), accepted */
  double C_trial;
} TlmNode;

typedef struct {
  HydSystem *sys;
  double alpha;            /* filter constant of the characteristic pressures */
  guint n;                 /* states */
  guint ntp;               /* TLM ports: hydraulic ports on nodes that are not boundaries */
  guint *tp_gp;            /* [ntp] global port */
  guint *tp_node;          /* [ntp] TLM node */
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
  int *node_tn;            /* [n_nodes] TLM node, or −1 */
  double *xdot, *xdot_t;   /* [n] ẋ of the components at the accepted point and trial */
  double *y_t;             /* [n] trial state vector */
  /* Newton scratch: m ≤ mmax unknowns */
  guint mmax, nlmax;
  double *A, *r, *G, *u;
  int *ucol;               /* [mmax] what each unknown is: ≥ 0 port X, < 0 state −1 − i */
  int *piv;
  char *why;
} TlmModel;

static double
boundary_pressure (HydSystem *sys, const SysNode *nd, double t)
{
  return nd->bprof ? hyd_profile_eval (nd->bprof, t, sys->t_piece, NULL) : 0.0;
}

/* The sentence why the circuit is beyond this TLM, or NULL. */
static char *
tlm_unsupported (HydSystem *sys)
{
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      const HydComponentType *type = sc->comp->type;
      for (guint X = 0; X < type->n_ports; X++)
        {
          gboolean mech = sc->port_mnode != NULL && sc->port_mnode[X] >= 0;
          gboolean sig = sc->port_signal != NULL && sc->port_signal[X] >= 0;
          gboolean elec = sys->n_enets > 0 && sys->port_enet[sys->comp_port0[i] + X] >= 0;
          if (mech || sig || elec)
            return g_strdup_printf ("%s.%s is a %s connection; this TLM joins components by their "
                                    "fluid volumes only, so far (docs/solvers.md, \"TLM\")",
                                    sc->comp->id, type->ports[X].name,
                                    hyd_domain_name (type->ports[X].domain));
        }
    }
  return NULL;
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
      double s = b[k];
      for (guint j = k + 1; j < m; j++)
        s -= A[k * m + j] * b[j];
      b[k] = s / A[k * m + k];
    }
  return TRUE;
}

/* Evaluate component i at time t with its ports' pressures from P (TLM
 * ports) or the boundaries, its states from M->y_t. */
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
  memset (sc->q, 0, sizeof (double) * sc->n_zero);
  if (want_jac)
    memset (sc->jac, 0, sizeof (double) * c->nnz);
  HydEvalIn in = { t, sc->p, M->y_t + sc->state0, sc->pos, sc->d };
  HydEvalOut out = {
    sc->q, sc->xdot, want_jac ? sc->jac : NULL, NULL, NULL,
    sc->V, sc->dV, sc->d2V, sc->C, sc->dC, sc->out
  };
  c->type->eval (c, &in, &out);
}

/* q̂_X + V̇_X: the flow into the evaluated component at port X. */
static double
flow_in (const SysComp *sc, guint X)
{
  const HydComp *c = sc->comp;
  guint nv = c->n_vstates;
  double q = sc->q[X];
  for (guint j = 0; j < nv; j++)
    q += sc->dV[X * nv + j] * sc->xdot[c->vstates[j]];
  return q;
}

/* Solve component i over the step (t, t + h): Newton on its ports'
 * pressures and its states. 0, or 1 when it does not converge. */
static int
solve_comp (TlmModel *M, guint i, double t, double h, const double *y0)
{
  HydSystem *sys = M->sys;
  SysComp *sc = &sys->comps[i];
  HydComp *c = sc->comp;
  guint np = c->type->n_ports, ns = c->n_states, nl = hyd_comp_n_local (c), nv = c->n_vstates;
  guint gp0 = M->port0[i];
  double t1 = t + h;
  guint m = 0;

  for (guint X = 0; X < np; X++)
    if (M->gp_tp[gp0 + X] >= 0)
      M->ucol[m++] = (int) X;
  for (guint j = 0; j < ns; j++)
    M->ucol[m++] = -1 - (int) j;
  if (m == 0)
    {
      eval_comp (M, i, t1, M->P_t, FALSE);
      return 0;
    }

  double *x = M->y_t + sc->state0;
  const double *xa = y0 + sc->state0;
  const double *xda = M->xdot + sc->state0;
  for (int it = 0; it < TLM_NEWTON_MAX; it++)
    {
      eval_comp (M, i, t1, M->P_t, TRUE);
      /* the local Jacobian as a dense (np + ns) × nl block */
      memset (M->G, 0, sizeof (double) * (np + ns) * nl);
      for (guint e = 0; e < c->nnz; e++)
        M->G[c->jrow[e] * nl + c->jcol[e]] += sc->jac[e];
#define G_(r, col) M->G[(r) * nl + (col)]
      for (guint a = 0; a < m; a++)
        {
          int ua = M->ucol[a];
          double *row = M->A + a * m;
          if (ua >= 0)
            {
              /* P_k + Z_k·(q̂_X + Σ_j ∂V_X/∂x_j·ẋ_j) − c_in,k */
              guint X = (guint) ua;
              int k = M->gp_tp[gp0 + X];
              double Zk = M->Zt[k];
              M->r[a] = M->P_t[k] + Zk * flow_in (sc, X) - M->cin_t[k];
              for (guint b = 0; b < m; b++)
                {
                  int ub = M->ucol[b];
                  guint col = ub >= 0 ? (guint) ub : np + (guint) (-1 - ub);
                  double d = G_(X, col);
                  for (guint j = 0; j < nv; j++)
                    {
                      guint vs = c->vstates[j];
                      d += sc->dV[X * nv + j] * G_(np + vs, col);
                      if (ub < 0)
                        for (guint kk = 0; kk < nv; kk++)
                          if ((int) c->vstates[kk] == -1 - ub)
                            d += sc->d2V[(X * nv + j) * nv + kk] * sc->xdot[vs];
                    }
                  row[b] = Zk * d + (b == a ? 1.0 : 0.0);
                }
            }
          else
            {
              /* x − x₀ − Δ/2·(ẋ₀ + ẋ) */
              guint s = (guint) (-1 - ua);
              M->r[a] = x[s] - xa[s] - 0.5 * h * (xda[s] + sc->xdot[s]);
              for (guint b = 0; b < m; b++)
                {
                  int ub = M->ucol[b];
                  guint col = ub >= 0 ? (guint) ub : np + (guint) (-1 - ub);
                  row[b] = -0.5 * h * G_(np + s, col) + (b == a ? 1.0 : 0.0);
                }
            }
        }
#undef G_
      for (guint a = 0; a < m; a++)
        {
          M->u[a] = -M->r[a];
          if (!isfinite (M->u[a]))
            return 1;
        }
      if (!lu_solve (M->A, M->u, M->piv, m))
        return 1;
      gboolean small = TRUE;
      for (guint a = 0; a < m; a++)
        {
          int ua = M->ucol[a];
          double *v = ua >= 0 ? &M->P_t[M->gp_tp[gp0 + (guint) ua]] : &x[-1 - ua];
          double scale = ua >= 0 ? fabs (*v) + 1e3 : fabs (*v) + 1e-6;
          if (!isfinite (M->u[a]))
            return 1;
          if (fabs (M->u[a]) > TLM_REL_TOL * scale)
            small = FALSE;
          *v += M->u[a];
        }
      if (small)
        {
          /* the flows, volumes and ẋ at the solution */
          eval_comp (M, i, t1, M->P_t, FALSE);
          return 0;
        }
    }
  return 1;
}

static void
why_set (TlmModel *M, char *text)
{
  g_free (M->why);
  M->why = text;
}

static int
tlm_step (gpointer model, double t, const double *y, double h, double *y_new, double *pe)
{
  TlmModel *M = model;
  HydSystem *sys = M->sys;
  double t1 = t + h;
  double a1 = 1.0 - M->alpha;

  /* impedances for this Δ and the accepted capacities; a change re-scales
   * each line's waves, keeping its pressure and flow (eq. 3.27) */
  for (guint b = 0; b < M->nn; b++)
    {
      TlmNode *tn = &M->nodes[b];
      double Z = (double) tn->n * h / (2.0 * tn->C * a1);
      for (guint j = 0; j < tn->n; j++)
        {
          guint k = tn->first + j;
          M->Zt[k] = Z;
          if (M->Z[k] > 0.0 && M->Z[k] != Z)
            {
              double g = Z / M->Z[k];
              M->cin_t[k] = 0.5 * (1.0 + g) * M->cin[k] + 0.5 * (1.0 - g) * M->cout[k];
            }
          else
            M->cin_t[k] = M->cin[k];
          M->P_t[k] = M->P[k];
        }
    }
  memcpy (M->y_t, y, M->n * sizeof (double));
  hyd_sys_refresh_params (sys, t1);

  for (guint i = 0; i < sys->n_comps; i++)
    {
      if (solve_comp (M, i, t, h, y) != 0)
        {
          why_set (M, g_strdup_printf ("the iteration of %s did not converge", sys->comps[i].comp->id));
          return 1;
        }
      SysComp *sc = &sys->comps[i];
      memcpy (M->xdot_t + sc->state0, sc->xdot, sc->comp->n_states * sizeof (double));
    }

  /* nodes: pressure, capacity, error, and the waves of the next step */
  double err = 0.0;
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      int tnb = M->node_tn[b];
      if (tnb < 0)
        continue;
      SysNode *nd = &sys->nodes[b];
      TlmNode *tn = &M->nodes[tnb];
      double V = nd->wire_volume, Cw = 0.0, dCw = 0.0, S = 0.0, Pm = 0.0;
      double pmin = INFINITY, pmax = -INFINITY;
      for (guint j = 0; j < tn->n; j++)
        {
          guint k = tn->first + j;
          guint gp = M->tp_gp[k];
          SysComp *sc = &sys->comps[sys->port_comp[gp]];
          guint X = sys->port_index[gp];
          V += sc->V[X];
          Cw += sc->C[X];
          dCw += sc->dC[X];
          M->cout_t[k] = 2.0 * M->P_t[k] - M->cin_t[k];
          S += M->cout_t[k];
          Pm += M->P_t[k];
          pmin = MIN (pmin, M->P_t[k]);
          pmax = MAX (pmax, M->P_t[k]);
        }
      Pm /= tn->n;
      double e = tn->n > 1 ? pmax - pmin : fabs (M->cout_t[tn->first] - M->P_t[tn->first]);
      err = MAX (err, e);
      for (guint j = 0; j < tn->n; j++)
        {
          guint k = tn->first + j;
          double c_next = 2.0 * S / tn->n - M->cout_t[k];
          M->cnext_t[k] = a1 * c_next + M->alpha * M->cin_t[k];
        }
      double psi = hyd_fluid_node_state_for_pressure (&sys->fluid, Pm);
      y_new[tn->state] = psi;
      HydNodeFluid nf;
      double C, dC;
      hyd_fluid_node (&sys->fluid, psi, &nf);
      hyd_fluid_node_capacity (&nf, V, Cw, dCw, &C, &dC);
      tn->C_trial = nf.dp > 0.0 ? C / nf.dp : C;
      if (!(tn->C_trial > 0.0) || !isfinite (Pm))
        {
          why_set (M, g_strdup_printf ("the oil at %s has no capacity left",
                                       hyd_sys_port_name (sys, M->tp_gp[tn->first])));
          return 1;
        }
    }
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      memcpy (y_new + sc->state0, M->y_t + sc->state0, sc->comp->n_states * sizeof (double));
    }
  *pe = err;
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
  for (guint b = 0; b < M->nn; b++)
    M->nodes[b].C = M->nodes[b].C_trial;
}

static void
tlm_destroy (gpointer model)
{
  TlmModel *M = model;
  if (M == NULL)
    return;
  g_free (M->tp_gp);
  g_free (M->tp_node);
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
  g_free (M->node_tn);
  g_free (M->xdot);
  g_free (M->xdot_t);
  g_free (M->y_t);
  g_free (M->A);
  g_free (M->r);
  g_free (M->G);
  g_free (M->u);
  g_free (M->ucol);
  g_free (M->piv);
  g_free (M->why);
  g_free (M);
}

static char *
tlm_why (gpointer model)
{
  TlmModel *M = model;
  return g_strdup (M->why);
}

static gpointer
tlm_create (gpointer user, double t0, const double *y0, double alpha, guint threads, char **why)
{
  HydSystem *sys = user;
  char *no = tlm_unsupported (sys);
  if (no != NULL)
    {
      *why = no;
      return NULL;
    }

  TlmModel *M = g_new0 (TlmModel, 1);
  M->sys = sys;
  M->alpha = alpha;
  M->n = sys->n;
  M->node_tn = g_new (int, sys->n_nodes + 1);
  M->gp_tp = g_new (int, sys->n_ports_total + 1);
  M->port0 = g_new0 (guint, sys->n_comps + 1);
  for (guint q = sys->n_ports_total; q-- > 0;)
    M->port0[sys->port_comp[q]] = q;
  for (guint gp = 0; gp < sys->n_ports_total; gp++)
    M->gp_tp[gp] = -1;
  GArray *tp = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *nodes = g_array_new (FALSE, TRUE, sizeof (TlmNode));
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      SysNode *nd = &sys->nodes[b];
      M->node_tn[b] = -1;
      if (nd->boundary || nd->state < 0 || nd->ports->len == 0)
        continue;
      TlmNode tn = { .first = tp->len, .n = nd->ports->len, .state = nd->state };
      M->node_tn[b] = (int) nodes->len;
      for (guint k = 0; k < nd->ports->len; k++)
        {
          guint gp = g_array_index (nd->ports, guint, k);
          M->gp_tp[gp] = (int) tp->len;
          g_array_append_val (tp, gp);
        }
      g_array_append_val (nodes, tn);
    }
  M->ntp = tp->len;
  M->tp_gp = (guint *) g_array_free (tp, FALSE);
  M->nn = nodes->len;
  M->nodes = (TlmNode *) g_array_free (nodes, FALSE);
  guint ntp = M->ntp + 1;
  M->tp_node = g_new0 (guint, ntp);
  M->Z = g_new0 (double, ntp);
  M->Zt = g_new0 (double, ntp);
  M->cin = g_new0 (double, ntp);
  M->cin_t = g_new0 (double, ntp);
  M->cout = g_new0 (double, ntp);
  M->cout_t = g_new0 (double, ntp);
  M->cnext_t = g_new0 (double, ntp);
  M->P = g_new0 (double, ntp);
  M->P_t = g_new0 (double, ntp);
  M->xdot = g_new0 (double, sys->n + 1);
  M->xdot_t = g_new0 (double, sys->n + 1);
  M->y_t = g_new0 (double, sys->n + 1);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      HydComp *c = sys->comps[i].comp;
      M->mmax = MAX (M->mmax, c->type->n_ports + c->n_states);
      M->nlmax = MAX (M->nlmax, hyd_comp_n_local (c));
    }
  M->A = g_new0 (double, M->mmax * M->mmax + 1);
  M->r = g_new0 (double, M->mmax + 1);
  M->u = g_new0 (double, M->mmax + 1);
  M->ucol = g_new0 (int, M->mmax + 1);
  M->piv = g_new0 (int, M->mmax + 1);
  M->G = g_new0 (double, M->mmax * M->nlmax + 1);

  /* at rest: every wave at its node's pressure (no flow, Burton §3.2) */
  for (guint b = 0; b < M->nn; b++)
    {
      TlmNode *tn = &M->nodes[b];
      HydNodeFluid nf;
      hyd_fluid_node (&sys->fluid, y0[tn->state], &nf);
      for (guint j = 0; j < tn->n; j++)
        {
          guint k = tn->first + j;
          M->tp_node[k] = b;
          M->P[k] = M->cin[k] = M->cout[k] = nf.p;
        }
    }
  /* ẋ and the capacities at the start */
  memcpy (M->y_t, y0, sys->n * sizeof (double));
  hyd_sys_refresh_params (sys, t0);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      eval_comp (M, i, t0, M->P, FALSE);
      memcpy (M->xdot + sc->state0, sc->xdot, sc->comp->n_states * sizeof (double));
    }
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      int tnb = M->node_tn[b];
      if (tnb < 0)
        continue;
      SysNode *nd = &sys->nodes[b];
      TlmNode *tn = &M->nodes[tnb];
      double V = nd->wire_volume, Cw = 0.0, dCw = 0.0, C, dC;
      for (guint j = 0; j < tn->n; j++)
        {
          guint gp = M->tp_gp[tn->first + j];
          SysComp *sc = &sys->comps[sys->port_comp[gp]];
          guint X = sys->port_index[gp];
          V += sc->V[X];
          Cw += sc->C[X];
          dCw += sc->dC[X];
        }
      HydNodeFluid nf;
      hyd_fluid_node (&sys->fluid, y0[tn->state], &nf);
      hyd_fluid_node_capacity (&nf, V, Cw, dCw, &C, &dC);
      tn->C = nf.dp > 0.0 ? C / nf.dp : C;
      if (!(tn->C > 0.0))
        {
          *why = g_strdup_printf ("the node at %s holds no oil: TLM needs a volume at every node "
                                  "(give a connection a length, or add a volume)",
                                  hyd_sys_port_name (sys, M->tp_gp[tn->first]));
          tlm_destroy (M);
          return NULL;
        }
    }
  return M;
}

static const HydTlmOps tlm_ops = {
  .create = tlm_create,
  .destroy = tlm_destroy,
  .step = tlm_step,
  .accept = tlm_accept,
  .why = tlm_why,
};

const HydTlmOps *
hyd_sys_tlm_ops (void)
{
  return &tlm_ops;
}
