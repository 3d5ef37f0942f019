/* ==== The assembly (the same operations, in the same order, as Bramah's
 * engine/compile/hyd-system-eval.c and hyd-system-domains.c) ==== */

static double bx_bpdot[N_BOUNDARY + 1];  /* ṗ of each boundary node */

static void
bx_comp_setup (BxComp *bc)
{
  const HydComponentType *type = bc->type;
  HydComp *c = bc->make ? bc->make () : hyd_comp_new (type, bc->id, &bx_fluid);
  guint np = type->n_ports;
  for (guint k = 0; k < type->n_params; k++)
    c->par[k] = bc->par[k];
  c->connected = bc->connected;
  if (!type->setup (c, NULL) || (int) c->n_states != bc->n_states)
    {
      fprintf (stderr, "%s: the model's setup does not give the compiled layout\n", bc->id);
      exit (1);
    }
  bc->c = c;
  guint ns = c->n_states, nv = c->n_vstates, nl = hyd_comp_n_local (c);
  bc->col = bx_alloc (sizeof (int) * (nl + 1));
  for (guint l = 0; l < nl; l++)
    bc->col[l] = -1;  /* positions of unwired mechanical ports: none */
  /* the positions of its mechanical ports, which are not wired: 0 */
  bc->pos = c->n_pos > 0 ? bx_alloc (sizeof (double) * (np + 1)) : NULL;
  for (guint X = 0; X < np; X++)
    {
      int b = bc->port_node[X];
      bc->col[X] = b < 0 ? -1 : bx_nodes[b].state >= 0 ? bx_nodes[b].state
                                                         : N_STATES + bx_nodes[b].bindex;
    }
  for (guint k = 0; k < ns; k++)
    bc->col[np + k] = bc->state0 + (int) k;
  for (guint X = 0; X < np; X++)
    if (bc->port_signal[X] >= 0 && type->ports[X].direction == HYD_PORT_INPUT)
      bc->col[X] = -2 - bc->port_signal[X];  /* a signal input: its net's columns */
  for (guint X = 0; X < np; X++)
    if (bc->port_mnode[X] >= 0)
      {
        /* a fixed point's node: constants, no column */
        const BxMech *mn = &bx_mnodes[bc->port_mnode[X]];
        bc->col[X] = mn->state;
        bc->col[hyd_comp_pos_col (c, X)] = mn->state < 0 ? -1 : mn->state + 1;
      }
  bc->vpos = bx_alloc (sizeof (int) * (ns + 1));
  for (guint k = 0; k < ns; k++)
    {
      bc->vpos[k] = -1;
      for (guint j = 0; j < nv; j++)
        if (c->vstates[j] == k)
          bc->vpos[k] = (int) j;
    }
  /* q, xdot, q_t, x_t, V, dV, d2V, C, dC, out: one block, cleared per call */
  size_t n_zero = np + ns + np + ns + np + np * nv + np * nv * nv + np + np + c->n_outputs;
  double *block = bx_alloc (sizeof (double) * (n_zero + np + 1));
  bc->p = block;
  bc->q = bc->p + np;
  bc->xdot = bc->q + np;
  bc->q_t = bc->xdot + ns;
  bc->x_t = bc->q_t + np;
  bc->V = bc->x_t + ns;
  bc->dV = bc->V + np;
  bc->d2V = bc->dV + np * nv;
  bc->C = bc->d2V + np * nv * nv;
  bc->dC = bc->C + np;
  bc->out = bc->dC + np;
  bc->n_zero = n_zero;
  bc->jac = bx_alloc (sizeof (double) * (c->nnz + 1));
  bc->s = bx_alloc (sizeof (double) * (2 * np + (size_t) np * nl + 1));
  bc->s_t = bc->s + np;
  bc->ds = bc->s_t + np;
  bc->d = bx_alloc (sizeof (double) * (c->n_dstates + 1));
  for (guint k = 0; k < c->n_dstates; k++)
    bc->d[k] = c->d0[k];
}

/* A component's inputs beyond its hydraulic ports: the velocity and
 * position of its mechanical nodes, the value of the signals it reads. */
static void
bx_comp_inputs (BxComp *bc)
{
  guint np = bc->type->n_ports;
  for (guint X = 0; X < np; X++)
    if (bc->port_mnode[X] >= 0)
      {
        bc->p[X] = bx_mnodes[bc->port_mnode[X]].v;
        bc->pos[X] = bx_mnodes[bc->port_mnode[X]].x;
      }
    else if (bc->port_signal[X] >= 0)
      bc->p[X] = bc->type->ports[X].direction == HYD_PORT_INPUT ? bx_signals[bc->port_signal[X]].value : 0.0;
}

static int
index_of (const int *cols, int n, int col)
{
  for (int j = 0; j < n; j++)
    if (cols[j] == col)
      return j;
  return -1;
}

/* Every signal block in dependency order (SIG_ORDER): its outputs into
 * their nets, and with want_jac their sensitivities by the chain rule
 * (∂s/∂y_j = Σ_c ∂g/∂z_c·∂z_c/∂y_j: a hydraulic port through F'(ψ), a
 * signal input through its own net). The nodes are evaluated. */
static void
bx_signals_eval (double t, const double *y, int want_jac)
{
  for (int o = 0; o < N_SIG_ORDER; o++)
    {
      BxComp *bc = &bx_comps[SIG_ORDER[o]];
      HydComp *c = bc->c;
      guint np = c->type->n_ports, nl = hyd_comp_n_local (c);
      for (guint X = 0; X < np; X++)
        bc->p[X] = bc->port_node[X] >= 0 ? bx_nodes[bc->port_node[X]].p : 0.0;
      bx_comp_inputs (bc);
      memset (bc->s, 0, sizeof (double) * (2 * np + (size_t) np * nl));
      HydEvalIn in = { t, bc->p, y + bc->state0, bc->pos, bc->d };
      c->type->signals (c, &in, bc->s, want_jac ? bc->ds : NULL, bc->s_t);
      for (guint X = 0; X < np; X++)
        {
          if (bc->port_signal[X] < 0 || c->type->ports[X].direction != HYD_PORT_OUTPUT)
            continue;
          BxSignal *net = &bx_signals[bc->port_signal[X]];
          net->value = bc->s[X];
          net->s_t = bc->s_t[X];
          if (!want_jac || !net->used)
            continue;
          memset (net->vals, 0, sizeof (double) * (size_t) net->n_cols);
          const double *row = bc->ds + (size_t) X * nl;
          for (guint lc = 0; lc < nl; lc++)
            {
              double v = row[lc];
              int col = bc->col[lc];
              if (v == 0.0 || col == -1)
                continue;
              if (col >= 0)
                {
                  if (lc < np && bc->port_node[lc] >= 0)
                    v *= bx_nodes[bc->port_node[lc]].nf.dp;
                  int at = index_of (net->cols, net->n_cols, col);
                  if (at >= 0)
                    net->vals[at] += v;
                }
              else
                {
                  const BxSignal *in_net = &bx_signals[-2 - col];
                  for (int j = 0; j < in_net->n_cols; j++)
                    {
                      int at = index_of (net->cols, net->n_cols, in_net->cols[j]);
                      if (at >= 0)
                        net->vals[at] += v * in_net->vals[j];
                    }
                  net->s_t += v * in_net->s_t;
                }
            }
        }
    }
}

static void
bx_nodes_begin (double t, const double *y)
{
  for (int b = 0; b < N_NODES; b++)
    {
      BxNode *nd = &bx_nodes[b];
      if (nd->state < 0)
        {
          /* a prescribed pressure: no void, p itself is the variable */
          nd->p = nd->bprof ? hyd_profile_eval (nd->bprof, t, bx_t_piece, &nd->pdot) : 0.0;
          if (nd->bprof == NULL)
            nd->pdot = 0.0;
          bx_bpdot[nd->bindex] = nd->pdot;
          double dB, B = hyd_fluid_bulk_modulus (&bx_fluid, nd->p, &dB);
          memset (&nd->nf, 0, sizeof nd->nf);
          nd->nf.p = nd->p;
          nd->nf.dp = 1.0;
          nd->nf.phi = 1.0;
          nd->nf.phi_full = 1.0;
          nd->nf.c = 1.0 / B;
          nd->nf.dc = -dB / (B * B);
        }
      else
        {
          hyd_fluid_node (&bx_fluid, y[nd->state], &nd->nf);
          nd->p = nd->nf.p;
        }
      nd->V = nd->wire_volume;
      nd->Csum = 0.0;
      nd->dCsum = 0.0;
      nd->Q = 0.0;
      nd->Vdot = 0.0;
    }
  for (int k = 0; k < N_MNODES; k++)
    {
      BxMech *mn = &bx_mnodes[k];
      if (mn->state < 0)
        {
          mn->v = 0.0;
          mn->x = bx_comps[mn->bcomp].c->par[mn->bparam];
        }
      else
        {
          mn->v = y[mn->state];
          mn->x = y[mn->state + 1];
        }
      mn->m = 0.0;
      mn->F = 0.0;
    }
}

/* One component: its port pressures, its model, its sums into the nodes. */
static void
bx_comp_eval (BxComp *bc, double t, const double *y, double *f, int want_jac)
{
  HydComp *c = bc->c;
  guint np = c->type->n_ports, ns = c->n_states, nv = c->n_vstates;
  for (guint X = 0; X < np; X++)
    bc->p[X] = bc->port_node[X] >= 0 ? bx_nodes[bc->port_node[X]].p : 0.0;
  bx_comp_inputs (bc);
  memset (bc->q, 0, sizeof (double) * bc->n_zero);
  if (want_jac)
    memset (bc->jac, 0, sizeof (double) * c->nnz);
  HydEvalIn in = { t, bc->p, y + bc->state0, bc->pos, bc->d };
  HydEvalOut out = { bc->q, bc->xdot, want_jac ? bc->jac : NULL, bc->q_t, bc->x_t,
                     bc->V, bc->dV, bc->d2V, bc->C, bc->dC, bc->out };
  c->type->eval (c, &in, &out);
  if (f)
    memcpy (f + bc->state0, bc->xdot, sizeof (double) * ns);
  for (guint X = 0; X < np; X++)
    {
      int n = bc->port_node[X];
      if (n < 0)
        continue;
      BxNode *nd = &bx_nodes[n];
      nd->V += bc->V[X];
      nd->Csum += bc->C[X];
      nd->dCsum += bc->dC[X];
      double rate = 0.0;
      for (guint j = 0; j < nv; j++)
        rate += bc->dV[X * nv + j] * bc->xdot[c->vstates[j]];
      nd->Q += bc->q[X];
      nd->Vdot += rate;
    }
  for (guint X = 0; X < np; X++)
    if (bc->port_mnode[X] >= 0)
      {
        /* force (torque) into the component, mass (inertia) it adds */
        BxMech *mn = &bx_mnodes[bc->port_mnode[X]];
        mn->F += bc->q[X];
        mn->m += bc->C[X];
      }
}

/* The node equations; 1 when a value is not finite. */
static int
bx_nodes_end (double *f)
{
  for (int b = 0; b < N_NODES; b++)
    {
      BxNode *nd = &bx_nodes[b];
      const HydNodeFluid *nf = &nd->nf;
      hyd_fluid_node_capacity (nf, nd->V, nd->Csum, nd->dCsum, &nd->C, &nd->dCdp);
      nd->R = hyd_fluid_node_inflow (nf, -nd->Q, nd->Vdot);
      if (nd->state < 0)
        {
          nd->f = nd->pdot;
          continue;
        }
      nd->f = nd->R / nd->C;
      if (f)
        f[nd->state] = nd->f;
    }
  /* m·v̇ = −ΣF̂, ẋ = v (J·ω̇ = −Στ̂, φ̇ = ω) */
  for (int k = 0; k < N_MNODES; k++)
    {
      BxMech *mn = &bx_mnodes[k];
      if (mn->state < 0)
        continue;
      mn->f = -mn->F / mn->m;
      if (f)
        {
          f[mn->state] = mn->f;
          f[mn->state + 1] = mn->v;
        }
    }
  int status = 0;
  if (f)
    for (int i = 0; i < N_STATES; i++)
      if (!isfinite (f[i]))
        status = 1;
  return status;
}

/* v at (row, col) of the dense column-major J; a boundary column goes to
 * ∂f/∂t through the boundary's ṗ. */
static void
bx_add (double *J, double *dfdt, int row, int col, double v)
{
  if (col < 0 || v == 0.0)
    return;
  if (col < N_STATES)
    J[row + (size_t) col * N_STATES] += v;
  else if (dfdt)
    dfdt[row] += v * bx_bpdot[col - N_STATES];
}

/* v at (row, a signal net's column): by the chain rule over the columns
 * the net depends on, and its ∂/∂t into ∂f/∂t. */
static void
bx_add_net (double *J, double *dfdt, int row, int col, double v)
{
  const BxSignal *net = &bx_signals[-2 - col];
  for (int j = 0; j < net->n_cols; j++)
    bx_add (J, dfdt, row, net->cols[j], v * net->vals[j]);
  if (dfdt)
    dfdt[row] += v * net->s_t;
}

/* A component's part of J and ∂f/∂t (after circuit_f with want_jac). */
static void
bx_comp_jacobian (const BxComp *bc, double *J, double *dfdt)
{
  const HydComp *c = bc->c;
  guint np = c->type->n_ports, nv = c->n_vstates;
  for (guint e = 0; e < c->nnz; e++)
    {
      if (bc->jac[e] == 0.0)
        continue;
      /* the chain rule through p = F(ψ) in a node-pressure column */
      double v = bc->jac[e];
      guint jc = c->jcol[e];
      if (jc < np && bc->port_node[jc] >= 0)
        v *= bx_nodes[bc->port_node[jc]].nf.dp;
      guint r = c->jrow[e];
      int col = bc->col[jc];
      if (r < np)
        {
          /* a port flow: −∂q_X/∂z / C_n on its node's row */
          int nn = bc->port_node[r];
          if (nn >= 0 && bx_nodes[nn].state >= 0)
            bx_add (J, dfdt, bx_nodes[nn].state, col, -v / bx_nodes[nn].C);
          /* a port force: −∂F_X/∂z / m on its mechanical node's row */
          int mk = bc->port_mnode[r];
          if (mk >= 0 && bx_mnodes[mk].state >= 0)
            bx_add (J, dfdt, bx_mnodes[mk].state, col, -v / bx_mnodes[mk].m);
        }
      else
        {
          guint k = r - np;
          bx_add (J, dfdt, bc->state0 + (int) k, col, v);
          int jv = bc->vpos[k];
          if (jv < 0)
            continue;
          /* volume-rate term: −φ_n·(∂V_X/∂y_k)·∂ẏ_k/∂z */
          for (guint X = 0; X < np; X++)
            {
              int nn = bc->port_node[X];
              if (nn < 0 || bx_nodes[nn].state < 0)
                continue;
              const BxNode *nd = &bx_nodes[nn];
              double dv = bc->dV[X * nv + (guint) jv];
              if (dv != 0.0)
                bx_add (J, dfdt, nd->state, col, -nd->nf.phi * dv * v / nd->C);
            }
        }
    }
  /* time derivatives of the component's own rows */
  if (dfdt)
    for (guint k = 0; k < c->n_states; k++)
      dfdt[bc->state0 + (int) k] += bc->x_t[k];
  for (guint X = 0; X < np; X++)
    {
      int nn = bc->port_node[X];
      if (nn < 0 || bx_nodes[nn].state < 0)
        continue;
      const BxNode *nd = &bx_nodes[nn];
      int row = nd->state;
      if (dfdt)
        {
          double rt = 0.0;
          for (guint j = 0; j < nv; j++)
            rt -= bc->dV[X * nv + j] * bc->x_t[c->vstates[j]];
          dfdt[row] += (-bc->q_t[X] + nd->nf.phi * rt) / nd->C;
        }
      for (guint j = 0; j < nv; j++)
        {
          guint sj = c->vstates[j];
          /* −φ·(∂²V/∂y_j∂y_k)·ẏ_j and −ψ̇·∂C/∂y_k, ∂C/∂y_k = (∂V/∂y_k)·c */
          for (guint kk = 0; kk < nv; kk++)
            {
              double d2 = bc->d2V[(X * nv + j) * nv + kk];
              if (d2 != 0.0)
                J[row + (size_t) bc->col[np + c->vstates[kk]] * N_STATES] +=
                  -nd->nf.phi * d2 * bc->xdot[sj] / nd->C;
            }
          double dv = bc->dV[X * nv + j];
          if (dv != 0.0)
            J[row + (size_t) bc->col[np + sj] * N_STATES] += -nd->f * (dv * nd->nf.c) / nd->C;
        }
    }
  /* entries in a signal input's column, spread over its net's columns */
  for (guint e = 0; e < c->nnz; e++)
    {
      int col = bc->col[c->jcol[e]];
      if (bc->jac[e] == 0.0 || col > -2)
        continue;
      double v = bc->jac[e];
      guint r = c->jrow[e];
      if (r < np)
        {
          int mk = bc->port_mnode[r], nn = bc->port_node[r];
          if (mk >= 0)
            {
              if (bx_mnodes[mk].state >= 0)
                bx_add_net (J, dfdt, bx_mnodes[mk].state, col, -v / bx_mnodes[mk].m);
            }
          else if (nn >= 0 && bx_nodes[nn].state >= 0)
            bx_add_net (J, dfdt, bx_nodes[nn].state, col, -v / bx_nodes[nn].C);
          continue;
        }
      guint k = r - np;
      bx_add_net (J, dfdt, bc->state0 + (int) k, col, v);
      int jv = bc->vpos[k];
      if (jv < 0)
        continue;
      for (guint X = 0; X < np; X++)
        {
          int nn = bc->port_node[X];
          if (nn < 0 || bx_nodes[nn].state < 0)
            continue;
          const BxNode *nd = &bx_nodes[nn];
          double dv = bc->dV[X * nv + (guint) jv];
          if (dv != 0.0)
            bx_add_net (J, dfdt, nd->state, col, -nd->nf.phi * dv * v / nd->C);
        }
    }
  if (dfdt)
    for (guint X = 0; X < np; X++)
      if (bc->port_mnode[X] >= 0 && bx_mnodes[bc->port_mnode[X]].state >= 0)
        {
          const BxMech *mn = &bx_mnodes[bc->port_mnode[X]];
          dfdt[mn->state] -= bc->q_t[X] / mn->m;
        }
}

/* ẋ = v, and −(ψ̇_n·∂C_n/∂ψ_n + φ'·V̇_n)/C_n on the diagonal of every node. */
static void
bx_nodes_jacobian (double *J)
{
  /* ẋ = v of every mechanical node */
  for (int k = 0; k < N_MNODES; k++)
    if (bx_mnodes[k].state >= 0)
      J[(bx_mnodes[k].state + 1) + (size_t) bx_mnodes[k].state * N_STATES] += 1.0;
  for (int b = 0; b < N_NODES; b++)
    {
      const BxNode *nd = &bx_nodes[b];
      if (nd->state >= 0)
        J[nd->state + (size_t) nd->state * N_STATES] +=
          -((nd->f * nd->dCdp + nd->nf.dphi * nd->Vdot) / nd->C);
    }
}

/* ==== Dense LU with partial pivoting (Golub & Van Loan 2013, Alg. 3.4.1) ==== */

/* A = P·L·U in place (column-major n×n); 0, or 1 when singular. */
static int
lu_factor (double *A, int n, int *piv)
{
  for (int k = 0; k < n; k++)
    {
      int p = k;
      double big = fabs (A[k + (size_t) k * n]);
      for (int i = k + 1; i < n; i++)
        if (fabs (A[i + (size_t) k * n]) > big)
          {
            big = fabs (A[i + (size_t) k * n]);
            p = i;
          }
      piv[k] = p;
      if (big == 0.0)
        return 1;
      if (p != k)
        for (int j = 0; j < n; j++)
          {
            double tmp = A[k + (size_t) j * n];
            A[k + (size_t) j * n] = A[p + (size_t) j * n];
            A[p + (size_t) j * n] = tmp;
          }
      double inv = 1.0 / A[k + (size_t) k * n];
      for (int i = k + 1; i < n; i++)
        A[i + (size_t) k * n] *= inv;
      for (int j = k + 1; j < n; j++)
        {
          double a = A[k + (size_t) j * n];
          if (a != 0.0)
            for (int i = k + 1; i < n; i++)
              A[i + (size_t) j * n] -= A[i + (size_t) k * n] * a;
        }
    }
  return 0;
}

static void
lu_solve (const double *A, int n, const int *piv, double *b)
{
  for (int k = 0; k < n; k++)
    {
      double tmp = b[k];
      b[k] = b[piv[k]];
      b[piv[k]] = tmp;
    }
  for (int j = 0; j < n; j++)
    for (int i = j + 1; i < n; i++)
      b[i] -= A[i + (size_t) j * n] * b[j];
  for (int j = n - 1; j >= 0; j--)
    {
      b[j] /= A[j + (size_t) j * n];
      for (int i = 0; i < j; i++)
        b[i] -= A[i + (size_t) j * n] * b[j];
    }
}

/* ==== RODAS4 ====
 * Hairer & Wanner, Solving Ordinary Differential Equations II (2nd ed.,
 * Springer 1996), §IV.7, Table 7.2 and their code rodas.f (METH = 1): a
 * stiffly accurate, L-stable Rosenbrock method of order 4 with an embedded
 * order-3 solution and a continuous extension. In their transformed form,
 * with W = I/(hγ) − J,
 *   W·k_i = f(t + α_i h, y + Σ_j a_ij k_j) + Σ_j (c_ij/h)·k_j + γ_i·h·∂f/∂t,
 *   y_new = y + Σ m_i k_i, error estimate k_6. */
#define RODAS_S 6
static const double ro_gamma = 0.25;
static const double ro_a[RODAS_S][RODAS_S] = {
  { 0 },
  { 1.544 },
  { 0.9466785280815826, 0.2557011698983284 },
  { 3.314825187068521, 2.896124015972201, 0.9986419139977817 },
  { 1.221224509226641, 6.019134481288629, 12.53708332932087, -0.6878860361058950 },
  { 1.221224509226641, 6.019134481288629, 12.53708332932087, -0.6878860361058950, 1.0 },
};
static const double ro_c[RODAS_S][RODAS_S] = {
  { 0 },
  { -5.6688 },
  { -2.430093356833875, -0.2063599157091915 },
  { -0.1073529058151375, -9.594562251023355, -20.47028614809616 },
  { 7.496443313967647, -10.24680431464352, -33.99990352819905, 11.70890893206160 },
  { 8.083246795921522, -7.981132988064893, -31.52159432874371, 16.31930543123136,
    -6.058818238834054 },
};
static const double ro_m[RODAS_S] = { 1.221224509226641, 6.019134481288629, 12.53708332932087,
                                      -0.6878860361058950, 1.0, 1.0 };
static const double ro_alpha[RODAS_S] = { 0.0, 0.386, 0.21, 0.63, 1.0, 1.0 };
static const double ro_gam[RODAS_S] = { 0.25, -0.1043, 0.1035, -0.3620000000000023e-1, 0.0, 0.0 };
/* the continuous extension y(t_old + θh) = (1−θ)·y_old + θ·(y_new + (1−θ)·(d1 + θ·d2)) */
static const double ro_d[2][RODAS_S] = {
  { 10.12623508344586, -7.487995877610167, -34.80091861555747, -7.992771707568823,
    1.025137723295662, 0.0 },
  { -0.6762803392801253, 6.087714651680015, 16.43084320892478, 24.76722511418386,
    -6.594389125716872, 0.0 },
};

/* ==== Events: where a component's model switches regime ====
 * The components' zero-crossing functions g_k(t, y) (an end stop reached,
 * a valve seating); with USE_EVENTS the integrator ends a step where one
 * changes sign and restarts there, as Bramah's solvers do (simulation.events). */
static void
circuit_events (double t, const double *y, double *g)
{
  int k = 0;
  circuit_f (t, y, NULL, 0);
  for (int i = 0; i < N_COMPS; i++)
    {
      BxComp *bc = &bx_comps[i];
      HydComp *c = bc->c;
      if (c->type->events == NULL || c->n_events == 0)
        continue;
      HydEvalIn in = { t, bc->p, y + bc->state0, bc->pos, bc->d };
      c->type->events (c, &in, g + k);
      k += (int) c->n_events;
    }
}

static int
crosses (double a, double b)
{
  return (a < 0.0 && b >= 0.0) || (a > 0.0 && b <= 0.0);
}

/* At an event (crossed[k]: +1 when function k went up through 0, −1 down,
 * 0 not; NULL: the settling at t = 0 and the later rounds), every
 * component's update of its discrete states, repeated until none changes
 * (Bramah docs/domains.md); 1 when 256 rounds do not settle. */
static int
bx_update (double t, const double *y, const int *crossed)
{
  for (int round = 0; round < 256; round++)
    {
      int changed = 0, e0 = 0;
      circuit_f (t, y, NULL, 0);
      for (int i = 0; i < N_COMPS; i++)
        {
          BxComp *bc = &bx_comps[i];
          HydComp *c = bc->c;
          int ne = (int) c->n_events;
          e0 += ne;
          if (c->type->update == NULL || c->n_dstates == 0)
            continue;
          HydEvalIn in = { t, bc->p, y + bc->state0, bc->pos, bc->d };
          const int *cr = round == 0 && crossed != NULL && ne > 0 ? crossed + e0 - ne : NULL;
          int any = 0;
          for (int k = 0; cr && k < ne; k++)
            any = any || cr[k] != 0;
          changed = c->type->update (c, &in, any ? cr : NULL, bc->d) || changed;
        }
      if (!changed)
        return 0;
    }
  fprintf (stderr, "the discrete states do not settle at t = %.9g s\n", t);
  return 1;
}

/* The interval [lo, hi] between breakpoints that holds t (a breakpoint
 * starts the next one), made the one in force. */
static double
set_interval_at (double t)
{
  double lo = 0.0, hi = T_END;
  for (int k = 0; k < N_BREAKPOINTS; k++)
    {
      if (BREAKPOINTS[k] <= t)
        lo = BREAKPOINTS[k];
      else
        {
          hi = BREAKPOINTS[k];
          break;
        }
    }
  bx_t_piece = 0.5 * (lo + hi);
  return hi;
}

/* y(t_old + θh) = (1−θ)·y_old + θ·(y_new + (1−θ)·(d1 + θ·d2)) */
static void
dense (double th, const double *yo, const double *yn, const double *d1, const double *d2, double *out)
{
  for (int i = 0; i < N_STATES; i++)
    out[i] = (1.0 - th) * yo[i] + th * (yn[i] + (1.0 - th) * (d1[i] + th * d2[i]));
}

static void
write_row (double t, const double *y)
{
  double v[N_OUTPUTS];
  circuit_outputs (t, y, v);
  for (int k = 0; k < N_OUTPUTS; k++)
    printf (k ? ",%.10g" : "%.10g", v[k]);
  printf ("\n");
}

/* Integrates from 0 to T_END and writes a CSV row every OUTPUT_INTERVAL;
 * 0, or 1 when the step size underflows or f is not finite. */
static int
rodas4_run (double rtol, double atol_scale, double *y)
{
  const int n = N_STATES;
  double *J = bx_alloc (sizeof (double) * (size_t) n * n), *W = bx_alloc (sizeof (double) * (size_t) n * n);
  double *ft = bx_alloc (sizeof (double) * n), *f = bx_alloc (sizeof (double) * n);
  double *ys = bx_alloc (sizeof (double) * n), *yn = bx_alloc (sizeof (double) * n);
  double *k = bx_alloc (sizeof (double) * RODAS_S * n), *d1 = bx_alloc (sizeof (double) * n);
  double *d2 = bx_alloc (sizeof (double) * n), *yo = bx_alloc (sizeof (double) * n);
  int *piv = bx_alloc (sizeof (int) * n);
  double *g_prev = bx_alloc (sizeof (double) * (N_EVENTS + 1));
  double *g_new = bx_alloc (sizeof (double) * (N_EVENTS + 1));
  double *g_try = bx_alloc (sizeof (double) * (N_EVENTS + 1));
  double t = 0.0, h = fmin (1e-6 * T_END, MAX_STEP);
  long i_out = 1, n_out = (long) floor (T_END / OUTPUT_INTERVAL + 1e-9);
  int reject = 0;
  int *crossed = bx_alloc (sizeof (int) * (N_EVENTS + 1));
  double t_hi = set_interval_at (0.0);
  if (N_DSTATES > 0 && bx_update (0.0, y, NULL) != 0)
    return 1;
  if (USE_EVENTS)
    circuit_events (0.0, y, g_prev);

  write_row (0.0, y);
  while (t < T_END)
    {
      if (h < 1e-14 * fmax (1.0, fabs (t)))
        {
          fprintf (stderr, "step size underflow at t = %g s\n", t);
          return 1;
        }
      if (t + h > t_hi)
        h = t_hi - t;
      if (circuit_jacobian (t, y, J, ft) != 0)
        {
          h *= 0.25;
          continue;
        }
      double fac = 1.0 / (h * ro_gamma);
      for (size_t e = 0; e < (size_t) n * n; e++)
        W[e] = -J[e];
      for (int i = 0; i < n; i++)
        W[i + (size_t) i * n] += fac;
      if (lu_factor (W, n, piv) != 0)
        {
          h *= 0.25;
          continue;
        }
      int bad = 0;
      for (int s = 0; s < RODAS_S && !bad; s++)
        {
          double *ks = k + (size_t) s * n;
          for (int i = 0; i < n; i++)
            {
              ys[i] = y[i];
              for (int j = 0; j < s; j++)
                ys[i] += ro_a[s][j] * k[(size_t) j * n + i];
            }
          bad = circuit_f (t + ro_alpha[s] * h, ys, f, 0);
          for (int i = 0; i < n; i++)
            {
              ks[i] = f[i] + ro_gam[s] * h * ft[i];
              for (int j = 0; j < s; j++)
                ks[i] += ro_c[s][j] / h * k[(size_t) j * n + i];
            }
          lu_solve (W, n, piv, ks);
        }
      /* y_new and the error's weighted RMS norm (Hairer & Wanner, §IV.8) */
      double err = 0.0;
      for (int i = 0; i < n; i++)
        {
          yn[i] = y[i];
          for (int s = 0; s < RODAS_S; s++)
            yn[i] += ro_m[s] * k[(size_t) s * n + i];
          double sc = atol_scale * ATOL[i] + rtol * fmax (fabs (y[i]), fabs (yn[i]));
          double e = k[(size_t) (RODAS_S - 1) * n + i] / sc;
          err += e * e;
          if (!isfinite (yn[i]))
            bad = 1;
        }
      err = sqrt (err / n);
      if (bad || !isfinite (err))
        {
          h *= 0.25;
          reject = 1;
          continue;
        }
      /* h_new = h·min(6, max(0.2, 0.9·err^(−1/4))) (rodas.f's FAC1, FAC2, SAFE) */
      double hnew = h * fmin (6.0, fmax (0.2, 0.9 * pow (fmax (err, 1e-10), -0.25)));
      if (err > 1.0)
        {
          h = hnew;
          reject = 1;
          continue;
        }
      for (int i = 0; i < n; i++)
        {
          d1[i] = d2[i] = 0.0;
          for (int s = 0; s < RODAS_S; s++)
            {
              d1[i] += ro_d[0][s] * k[(size_t) s * n + i];
              d2[i] += ro_d[1][s] * k[(size_t) s * n + i];
            }
          yo[i] = y[i];
          y[i] = yn[i];
        }
      double t_old = t;
      t = (t + h >= t_hi) ? t_hi : t + h;
      int event = 0;
      if (USE_EVENTS)
        {
          /* the earliest sign change in the step, located on the dense
           * output by the Illinois method to max(1e-12·|t|, 1e-7·h) */
          circuit_events (t, y, g_new);
          double best = 2.0, tol = fmax (1e-12 * fmax (fabs (t_old), 1.0), 1e-7 * h) / h;
          for (int e = 0; e < N_EVENTS; e++)
            {
              if (!crosses (g_prev[e], g_new[e]))
                continue;
              double a = 0.0, b = 1.0, ga = g_prev[e], gb = g_new[e];
              int side = 0;
              for (int it = 0; it < 100 && b - a > tol; it++)
                {
                  double th = (a * gb - b * ga) / (gb - ga);
                  if (!(th > a && th < b))
                    th = 0.5 * (a + b);
                  dense (th, yo, y, d1, d2, ys);
                  circuit_events (t_old + th * h, ys, g_try);
                  if (crosses (ga, g_try[e]))
                    {
                      b = th;
                      gb = g_try[e];
                      if (side == -1)
                        ga *= 0.5;
                      side = -1;
                    }
                  else
                    {
                      a = th;
                      ga = g_try[e];
                      if (side == 1)
                        gb *= 0.5;
                      side = 1;
                    }
                }
              best = fmin (best, b);
            }
          if (best <= 1.0)
            {
              event = 1;
              dense (best, yo, y, d1, d2, ys);
              memcpy (y, ys, sizeof (double) * n);
              t = t_old + best * h;
              if (N_DSTATES > 0)
                {
                  /* which functions crossed by t, and which way: the new regime */
                  circuit_events (t, y, g_try);
                  for (int e = 0; e < N_EVENTS; e++)
                    crossed[e] = crosses (g_prev[e], g_try[e]) ? (g_prev[e] < 0.0 ? 1 : -1) : 0;
                  if (bx_update (t, y, crossed) != 0)
                    return 1;
                }
              circuit_events (t, y, g_new);
            }
          memcpy (g_prev, g_new, sizeof (double) * N_EVENTS);
        }
      while (i_out <= n_out && i_out * OUTPUT_INTERVAL <= t * (1.0 + 1e-12))
        {
          double to = fmin (i_out * OUTPUT_INTERVAL, T_END);
          dense ((to - t_old) / h, yo, yn, d1, d2, ys);
          write_row (to, ys);
          i_out++;
        }
      if (t >= T_END && (n_out * OUTPUT_INTERVAL < T_END * (1.0 - 1e-12)))
        write_row (t, y);
      if (reject)
        hnew = fmin (hnew, h);
      reject = 0;
      h = fmin (hnew, MAX_STEP);
      if (event)
        h = fmin (1e-6 * T_END, MAX_STEP);  /* restart at the event */
      if (t == t_hi && t < T_END)
        {
          t_hi = set_interval_at (t);  /* past a breakpoint: the next piece */
          if (USE_EVENTS)
            circuit_events (t, y, g_prev);
        }
    }
  return 0;
}

/* --eval: for every line "t y_0 … y_{n−1} d_0 … d_{N_DSTATES−1}" on stdin
 * (the discrete states in component order), f (n numbers), J (n·n, row by
 * row) and ∂f/∂t (n) on one line each, %.17g. */
static int
eval_mode (void)
{
  const int n = N_STATES;
  double *y = bx_alloc (sizeof (double) * n), *f = bx_alloc (sizeof (double) * n);
  double *J = bx_alloc (sizeof (double) * (size_t) n * n), *ft = bx_alloc (sizeof (double) * n);
  double t;
  while (scanf ("%lf", &t) == 1)
    {
      set_interval_at (t);
      for (int i = 0; i < n; i++)
        if (scanf ("%lf", &y[i]) != 1)
          return 1;
      /* then the discrete states, component by component */
      for (int i = 0; i < N_COMPS; i++)
        for (guint k = 0; k < bx_comps[i].c->n_dstates; k++)
          if (scanf ("%lf", &bx_comps[i].d[k]) != 1)
            return 1;
      circuit_f (t, y, f, 0);
      for (int i = 0; i < n; i++)
        printf (i ? " %.17g" : "%.17g", f[i]);
      printf ("\n");
      circuit_jacobian (t, y, J, ft);
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          printf (i || j ? " %.17g" : "%.17g", J[i + (size_t) j * n]);
      printf ("\n");
      for (int i = 0; i < n; i++)
        printf (i ? " %.17g" : "%.17g", ft[i]);
      printf ("\n");
    }
  return 0;
}

int
main (int argc, char **argv)
{
  double rtol = RTOL, atol_scale = 1.0;
  int eval = 0;
  for (int a = 1; a < argc; a++)
    {
      if (strcmp (argv[a], "--eval") == 0)
        eval = 1;
      else if (strcmp (argv[a], "--rtol") == 0 && a + 1 < argc)
        rtol = strtod (argv[++a], NULL);
      else if (strcmp (argv[a], "--atol-scale") == 0 && a + 1 < argc)
        atol_scale = strtod (argv[++a], NULL);
      else
        {
          fprintf (stderr, "usage: %s [--rtol R] [--atol-scale F] [--eval]\n"
                   "  writes the run as CSV on stdout (--atol-scale multiplies every absolute\n"
                   "  tolerance); --eval reads lines \"t y... d...\" on stdin\n"
                   "  and writes f, J (row by row) and df/dt there\n", argv[0]);
          return 2;
        }
    }
  circuit_setup ();
  if (eval)
    return eval_mode ();
  double y[N_STATES];
  memcpy (y, Y0, sizeof y);
  printf ("%s", CSV_HEADER);
  if (!(rtol > 0.0) || !(atol_scale > 0.0))
    {
      fprintf (stderr, "--rtol and --atol-scale take numbers > 0\n");
      return 2;
    }
  return rodas4_run (rtol, atol_scale, y);
}
