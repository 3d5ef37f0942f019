/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-comp-storage.c — volume, accumulator and line (spec/components.md,
 * Storage and lines; Esqué 2008, §3.2.3).
 *
 * Volumes and line halves are port volumes the node adds to its own; the
 * accumulator's gas and a line's walls are compliances C(p). Only the
 * distributed line has internal pressure states, and it keeps a sparse
 * (banded) local pattern so that a line of 100000 segments stays O(N).
 * Under the floored fluids ("cavitating", "air") its internal points are
 * nodes of the fluid with a vapour floor and a void, like the circuit's
 * (line_eval_distributed_floored). */
#include "hyd-component.h"
#include "hyd-i18n.h"
#include "hyd-smooth.h"

#include <math.h>

/* ---------------------------------------------------------------- volume */

enum {
  VOL_VOLUME,
  VOL_INITIAL_PRESSURE,
  VOL_N_PARAMS
};

static const HydPortInfo volume_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("connection") },
  { "P2", HYD_DOMAIN_HYDRAULIC, TRUE, N_("second connection to the same volume") },
  { "P3", HYD_DOMAIN_HYDRAULIC, TRUE, N_("third connection to the same volume") },
  { "P4", HYD_DOMAIN_HYDRAULIC, TRUE, N_("fourth connection to the same volume") },
};

static const guint volume_joined[][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 } };

static const HydParamInfo volume_params[VOL_N_PARAMS] = {
  [VOL_VOLUME] = { "volume", N_("Volume"), HYD_UNIT_VOLUME, 1e-3, 0.0, INFINITY,
                   HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("oil volume added to the node") },
  [VOL_INITIAL_PRESSURE] = { "initial_pressure", N_("Initial pressure"), HYD_UNIT_PRESSURE, 0.0,
                             -HYD_P_ATM, INFINITY, HYD_PARAM_OPTIONAL, NULL,
                             N_("pressure of the node at t = 0 (unset: the node's or the simulation's)") },
};

static gboolean
volume_setup (HydComp *comp, GError **error)
{
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static gboolean
volume_port_initial_pressure (const HydComp *comp, guint port, double *p)
{
  double p0 = comp->par[VOL_INITIAL_PRESSURE];
  if (port != 0 || isnan (p0))
    return FALSE;
  *p = p0;
  return TRUE;
}

/* The node does the physics: C·ṗ = Σq with C = V/B(p) (Esqué eq. 3.3). */
static void
volume_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  if (out->V)
    out->V[0] = comp->par[VOL_VOLUME];
}

const HydComponentType hyd_volume_type = {
  .id = "volume",
  .label = N_("Volume"),
  .category = HYD_CATEGORY_STORAGE,
  .iso_symbol = N_("none in ISO 1219-1 (house symbol: rounded box marked V)"),
  .description =
    N_("A fixed hydraulic volume (receiver, manifold, chamber) added to the node of "
       "its ports P…P4, which are one node. The node pressure follows "
       "(V/B(p))·ṗ = Σq (Esqué 2008 eq. 3.3)."),
  .ports = volume_ports,
  .n_ports = G_N_ELEMENTS (volume_ports),
  .params = volume_params,
  .n_params = G_N_ELEMENTS (volume_params),
  .joined_ports = volume_joined,
  .n_joined_ports = G_N_ELEMENTS (volume_joined),
  .boundary_param = -1,
  .designator = "VOL",
  .roles = HYD_ROLE_STORES_OIL,
  .setup = volume_setup,
  .port_initial_pressure = volume_port_initial_pressure,
  .eval = volume_eval,
};

/* ----------------------------------------------------------- accumulator */

enum {
  ACC_PRECHARGE_PRESSURE,
  ACC_GAS_VOLUME,
  ACC_POLYTROPIC_EXPONENT,
  ACC_INITIAL_PRESSURE,
  ACC_N_PARAMS
};

/* Half-width of the C² ramp that starts the accumulator taking oil (Pa). */
#define ACC_RAMP_H 5e3

static const HydPortInfo accumulator_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("oil connection") },
};

static const HydParamInfo accumulator_params[ACC_N_PARAMS] = {
  [ACC_PRECHARGE_PRESSURE] = { "precharge_pressure", N_("Precharge pressure"), HYD_UNIT_PRESSURE, 5e6,
                               0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
                               N_("gauge gas pressure with no oil inside") },
  [ACC_GAS_VOLUME] = { "gas_volume", N_("Gas volume"), HYD_UNIT_VOLUME, 1e-3, 0.0, INFINITY,
                       HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("total gas volume at precharge") },
  [ACC_POLYTROPIC_EXPONENT] = { "polytropic_exponent", N_("Polytropic exponent"), HYD_UNIT_NONE, 1.4,
                                1.0, 1.67, 0, NULL,
                                N_("exponent n of P·V^n = const (1 isothermal, 1.4 adiabatic)") },
  [ACC_INITIAL_PRESSURE] = { "initial_pressure", N_("Initial pressure"), HYD_UNIT_PRESSURE, 0.0,
                             -HYD_P_ATM, INFINITY, HYD_PARAM_OPTIONAL, NULL,
                             N_("pressure of the node at t = 0 (unset: the node's or the simulation's)") },
};

static const HydVarInfo accumulator_outputs[] = {
  { "oil_volume", HYD_UNIT_VOLUME, N_("oil stored in the accumulator") },
};

static gboolean
accumulator_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (accumulator_outputs), accumulator_outputs);
  comp->own_compliance[0] = TRUE;
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static gboolean
accumulator_port_initial_pressure (const HydComp *comp, guint port, double *p)
{
  double p0 = comp->par[ACC_INITIAL_PRESSURE];
  if (port != 0 || isnan (p0))
    return FALSE;
  *p = p0;
  return TRUE;
}

/* Polytropic gas, P_e·V_g^n = P0·V0^n, with the effective pressure
 * P_e = P0 + r(p − p0) and the C² ramp r of components.md. Its oil volume
 * V_oil = V0 − V_g enters the node only through C_acc = ∂V_oil/∂p. */
static void
accumulator_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  const double *par = comp->par;
  const double h = ACC_RAMP_H;
  double p0 = par[ACC_PRECHARGE_PRESSURE];
  double V0 = par[ACC_GAS_VOLUME];
  double n = par[ACC_POLYTROPIC_EXPONENT];
  double z = in->p[0] - p0;
  double r, r1, r2;

  /* Below the ramp nothing is evaluated: no NaN below vacuum. */
  if (z <= -h)
    return;
  if (z >= h)
    {
      r = z;
      r1 = 1.0;
      r2 = 0.0;
    }
  else
    {
      double h3 = h * h * h;
      double zp = z + h;
      r = zp * zp * zp * (3.0 * h - z) / (16.0 * h3);
      r1 = zp * zp * (2.0 * h - z) / (4.0 * h3);
      r2 = 3.0 * zp * (h - z) / (4.0 * h3);
    }

  double P0 = p0 + HYD_P_ATM;
  double Pe = P0 + r;
  double Vg = V0 * pow (P0 / Pe, 1.0 / n);

  if (out->C)
    {
      out->C[0] = Vg / (n * Pe) * r1;
      out->dC[0] = -(1.0 + 1.0 / n) * Vg / (n * Pe * Pe) * r1 * r1 + Vg / (n * Pe) * r2;
    }
  if (out->out)
    out->out[0] = V0 - Vg;
}

const HydComponentType hyd_accumulator_type = {
  .id = "accumulator",
  .label = N_("Accumulator"),
  .category = HYD_CATEGORY_STORAGE,
  .iso_symbol = N_("gas-charged accumulator"),
  .description =
    N_("Gas-charged (bladder) accumulator. The gas follows P·V_g^n = P0·V0^n "
       "(absolute pressures); the oil volume V_oil = V0 − V_g is taken above the "
       "precharge pressure, blended in over the 5 kPa below it by a C² ramp. It "
       "adds the compliance C = ∂V_oil/∂p to its node."),
  .ports = accumulator_ports,
  .n_ports = G_N_ELEMENTS (accumulator_ports),
  .params = accumulator_params,
  .n_params = G_N_ELEMENTS (accumulator_params),
  .boundary_param = -1,
  .designator = "A",
  .roles = HYD_ROLE_PRESSURE_LIMITER | HYD_ROLE_STORES_OIL,
  .setup = accumulator_setup,
  .port_initial_pressure = accumulator_port_initial_pressure,
  .eval = accumulator_eval,
};

/* ------------------------------------------------------------------ line */

enum {
  LINE_LENGTH,
  LINE_DIAMETER,
  LINE_WALL_BULK_MODULUS,
  LINE_MINOR_LOSS_COEFFICIENT,
  LINE_SEGMENTS,
  LINE_MODEL,
  LINE_N_PARAMS
};

typedef enum {
  LINE_MODEL_VOLUME,
  LINE_MODEL_INERTIA,
  LINE_MODEL_DISTRIBUTED,
  LINE_MODEL_TLM,
} LineModel;

static const char *const line_models[] = { N_("volume"), N_("inertia"), N_("distributed"), N_("tlm"), NULL };

static const HydPortInfo line_ports[] = {
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("first end") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("second end") },
};

static const HydParamInfo line_params[LINE_N_PARAMS] = {
  [LINE_LENGTH] = { "length", N_("Length"), HYD_UNIT_LENGTH, 2.0, 0.0, INFINITY,
                    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("length of the pipe or hose") },
  [LINE_DIAMETER] = { "diameter", N_("Inner diameter"), HYD_UNIT_LENGTH, 0.01, 0.0, INFINITY,
                      HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("inner diameter of the pipe or hose") },
  [LINE_WALL_BULK_MODULUS] = { "wall_bulk_modulus", N_("Wall bulk modulus"), HYD_UNIT_PRESSURE, 0.0,
                               0.0, INFINITY, 0, NULL,
                               N_("effective bulk modulus of the wall (0 = rigid); adds V/B_wall compliance") },
  [LINE_MINOR_LOSS_COEFFICIENT] = { "minor_loss_coefficient", N_("Minor loss coefficient"), HYD_UNIT_NONE, 0.0,
                                    0.0, INFINITY, 0, NULL,
                                    N_("ξ of the turbulent losses (bends, fittings) over the whole line") },
  [LINE_SEGMENTS] = { "segments", N_("Segments"), HYD_UNIT_NONE, 10.0, 2.0, 100000.0,
                      HYD_PARAM_INTEGER, NULL, N_("number of segments of the distributed model") },
  [LINE_MODEL] = { "model", N_("Model"), HYD_UNIT_NONE, LINE_MODEL_VOLUME, 0.0, 3.0,
                   HYD_PARAM_ENUM, line_models,
                   N_("volume (quasi-static), inertia (one flow state), distributed (segments), tlm") },
};

/* Room for a state or output name of the distributed model, "q100000",
 * "p99999" or "psi99999". */
#define LINE_NAME_SLOT 12

typedef struct {
  LineModel model;
  guint n_seg;      /* segments of the distributed model, 1 otherwise */
  gboolean floored; /* distributed model under "cavitating" or "air": the
                       internal points hold ψ (hyd-fluid.h) */
  char *names;      /* distributed model: its state names, then (floored)
                       its output names, LINE_NAME_SLOT apart */
} LinePriv;

static void
line_priv_free (gpointer data)
{
  LinePriv *priv = data;
  g_free (priv->names);
  g_free (priv);
}

typedef struct {
  double volume;  /* total line volume, m³ */
  double K_L;     /* laminar resistance 128νρL/(πD⁴) */
  double K_T;     /* minor-loss coefficient 8ρξ/(π²D⁴) */
  double iner;    /* A/(ρL): ∂q̇/∂Δp of the whole line */
  double inv_Bw;  /* 1/B_wall, 0 when rigid */
} LineCoeffs;

/* Esqué (2008) eqs. 3.4–3.5 (§3.2.3). */
static void
line_coeffs (const HydComp *comp, LineCoeffs *c)
{
  const double *par = comp->par;
  double L = par[LINE_LENGTH], D = par[LINE_DIAMETER];
  double rho = comp->fluid->density, nu = comp->fluid->kinematic_viscosity;
  double area = G_PI * D * D / 4.0;
  double D4 = D * D * D * D;

  c->volume = area * L;
  c->K_L = 128.0 * nu * rho * L / (G_PI * D4);
  c->K_T = 8.0 * rho * par[LINE_MINOR_LOSS_COEFFICIENT] / (G_PI * G_PI * D4);
  c->iner = area / (rho * L);
  c->inv_Bw = par[LINE_WALL_BULK_MODULUS] > 0.0 ? 1.0 / par[LINE_WALL_BULK_MODULUS] : 0.0;
}

static LineModel
line_model (const HydComp *comp)
{
  LineModel model = (LineModel) (int) comp->par[LINE_MODEL];
  /* Under a centralised solver the TLM element is the distributed line. */
  return model == LINE_MODEL_TLM ? LINE_MODEL_DISTRIBUTED : model;
}

static const HydVarInfo line_outputs[] = {
  { "q_A", HYD_UNIT_FLOW, N_("flow entering the line at A") },
  { "q_B", HYD_UNIT_FLOW, N_("flow entering the line at B (minus the flow leaving at B)") },
  /* distributed model under a floored fluid only: */
  { "void", HYD_UNIT_VOLUME, N_("void (vapour and released gas) at the internal points of the line") },
};

static gboolean
line_setup (HydComp *comp, GError **error)
{
  LinePriv *priv = g_new0 (LinePriv, 1);
  g_clear_pointer (&comp->priv, line_priv_free);
  hyd_comp_set_states (comp, 0, NULL);
  priv->model = line_model (comp);
  priv->n_seg = 1;
  priv->floored = priv->model == LINE_MODEL_DISTRIBUTED && hyd_fluid_has_floor (comp->fluid);
  comp->priv = priv;
  hyd_comp_set_outputs (comp, 2, line_outputs);

  switch (priv->model)
    {
    case LINE_MODEL_INERTIA:
      hyd_comp_add_state (comp, "q", HYD_UNIT_FLOW, N_("flow through the line, A to B"));
      hyd_comp_use_dense_pattern (comp);
      break;

    case LINE_MODEL_DISTRIBUTED:
    case LINE_MODEL_TLM:
      {
        guint N = (guint) comp->par[LINE_SEGMENTS];
        priv->n_seg = N;
        /* The 2N − 1 states in one allocation, their names in one buffer
         * owned by priv rather than interned: 2·10⁵ interned names would
         * stay forever in GLib's quark table, which grows by copying. */
        const char *q_desc = g_intern_static_string (N_("flow through a segment, A to B"));
        const char *p_desc = g_intern_static_string (N_("pressure between two segments"));
        const char *psi_desc = g_intern_static_string (N_("pseudo-pressure ψ between two segments "
                                                          "(the pressure above the vapour pressure, "
                                                          "the void below it)"));
        /* Under a floored fluid the internal states are ψ_i ("psi1" …) and
         * the pressures p_i = F(ψ_i) are outputs ("p1" …) after q_A, q_B
         * and void, so that "L1.p3" names a pressure under every fluid. */
        guint n_out = priv->floored ? 3 + N - 1 : 0;
        g_free (comp->states);
        comp->n_states = comp->states_cap = 2 * N - 1;
        comp->states = g_new (HydVarInfo, comp->n_states);
        priv->names = g_new (char, ((gsize) comp->n_states + n_out) * LINE_NAME_SLOT);
        for (guint s = 0; s < comp->n_states; s++)
          {
            char *name = priv->names + (gsize) s * LINE_NAME_SLOT;
            gboolean is_flow = s < N;
            if (is_flow)
              g_snprintf (name, LINE_NAME_SLOT, "q%u", s + 1);
            else
              g_snprintf (name, LINE_NAME_SLOT, "%s%u", priv->floored ? "psi" : "p", s - N + 1);
            comp->states[s] = (HydVarInfo) {
              name, is_flow ? HYD_UNIT_FLOW : HYD_UNIT_PRESSURE,
              is_flow ? q_desc : priv->floored ? psi_desc : p_desc
            };
          }
        if (priv->floored)
          {
            g_free (comp->outputs);
            comp->n_outputs = comp->outputs_cap = n_out;
            comp->outputs = g_new (HydVarInfo, n_out);
            for (guint o = 0; o < 3; o++)
              comp->outputs[o] = line_outputs[o];
            for (guint i = 1; i < N; i++)
              {
                char *name = priv->names + ((gsize) comp->n_states + 2 + i) * LINE_NAME_SLOT;
                g_snprintf (name, LINE_NAME_SLOT, "p%u", i);
                comp->outputs[2 + i] = (HydVarInfo) { name, HYD_UNIT_PRESSURE, p_desc };
              }
          }

        /* Local numbering: 0 = p_A, 1 = p_B, 2 + k − 1 = q_k, 2 + N + i − 1 = p_i.
         * Entries: q̂_A: q1; q̂_B: qN; q̇_k: p_{k−1}, p_k, q_k; ṗ_i: q_i, q_{i+1}, p_i. */
        guint nnz = 6 * N - 1;
        guint *rows = g_new (guint, nnz), *cols = g_new (guint, nnz);
        guint e = 0;
#define PNODE(j) ((j) == 0 ? 0u : (j) == N ? 1u : 2u + N + (j) - 1u)
        rows[e] = 0; cols[e] = 2; e++;
        rows[e] = 1; cols[e] = 2 + N - 1; e++;
        for (guint k = 1; k <= N; k++)
          {
            guint r = 2 + k - 1;
            rows[e] = r; cols[e] = PNODE (k - 1); e++;
            rows[e] = r; cols[e] = PNODE (k); e++;
            rows[e] = r; cols[e] = r; e++;
          }
        for (guint i = 1; i < N; i++)
          {
            guint r = 2 + N + i - 1;
            rows[e] = r; cols[e] = 2 + i - 1; e++;
            rows[e] = r; cols[e] = 2 + i; e++;
            rows[e] = r; cols[e] = r; e++;
          }
#undef PNODE
        g_assert (e == nnz);
        hyd_comp_set_pattern (comp, nnz, rows, cols);
        g_free (rows);
        g_free (cols);
      }
      break;

    case LINE_MODEL_VOLUME:
    default:
      hyd_comp_use_dense_pattern (comp);
      break;
    }
  return TRUE;
}

static void
line_init_states (const HydComp *comp, const double *p0, double *x0)
{
  const LinePriv *priv = comp->priv;
  guint N = priv->n_seg;

  for (guint s = 0; s < comp->n_states; s++)
    x0[s] = 0.0;
  if (priv->model != LINE_MODEL_DISTRIBUTED)
    return;
  /* internal pressures linear between the end nodes' initial pressures
   * (under a floored fluid the state ψ with that pressure and no void) */
  for (guint i = 1; i < N; i++)
    {
      double p = p0[0] + (p0[1] - p0[0]) * (double) i / N;
      x0[N + i - 1] = priv->floored ? hyd_fluid_node_state_for_pressure (comp->fluid, p) : p;
    }
}

/* Quasi-static loss law: the root of K_L·q + K_T·q·|q| = Δp,
 * q = 2Δp/(K_L + √(K_L² + 4K_T|Δp|)), ∂q/∂Δp = 1/(K_L + 2K_T|q|). */
static double
line_loss_flow (double K_L, double K_T, double dp, double *dq_ddp)
{
  double q = 2.0 * dp / (K_L + sqrt (K_L * K_L + 4.0 * K_T * fabs (dp)));
  *dq_ddp = 1.0 / (K_L + 2.0 * K_T * fabs (q));
  return q;
}

/* End volumes and wall compliances, shared by every model. */
static void
line_end_volumes (const LineCoeffs *c, double v_end, HydEvalOut *out)
{
  if (out->V)
    {
      out->V[0] = v_end;
      out->V[1] = v_end;
    }
  if (out->C)
    {
      out->C[0] = v_end * c->inv_Bw;
      out->C[1] = v_end * c->inv_Bw;
    }
}

/* Distributed line: N segments of inertance ρ(L/N)/A and losses K_L/N,
 * K_T/N between N + 1 pressure points (Esqué 2008, eqs. 3.4–3.6, applied per segment);
 * the N − 1 internal points hold V/N each, capacitance V/N·(1/B(p) + 1/B_wall). */
static void
line_eval_distributed (const HydComp *comp, const LineCoeffs *c, guint N,
                       const HydEvalIn *in, HydEvalOut *out)
{
  const double *q = in->x;
  const double *pi = in->x + N;
  double iner = c->iner * N;
  double KL = c->K_L / N, KT = c->K_T / N;
  double Vn = c->volume / N;
  double *jac = out->jac;
  guint e = 0;

#define NODE_P(j) ((j) == 0 ? in->p[0] : (j) == N ? in->p[1] : pi[(j) - 1])
  out->q[0] = q[0];
  out->q[1] = -q[N - 1];
  if (jac)
    {
      jac[e++] = 1.0;
      jac[e++] = -1.0;
    }

  for (guint k = 1; k <= N; k++)
    {
      double qk = q[k - 1];
      double dp = NODE_P (k - 1) - NODE_P (k);
      out->xdot[k - 1] = iner * (dp - KL * qk - KT * qk * fabs (qk));
      if (jac)
        {
          jac[e++] = iner;
          jac[e++] = -iner;
          jac[e++] = -iner * (KL + 2.0 * KT * fabs (qk));
        }
    }
#undef NODE_P

  for (guint i = 1; i < N; i++)
    {
      double dB;
      double B = hyd_fluid_bulk_modulus (comp->fluid, pi[i - 1], &dB);
      double C = Vn * (1.0 / B + c->inv_Bw);
      double dC = -Vn * dB / (B * B);
      double net = q[i - 1] - q[i];
      out->xdot[N + i - 1] = net / C;
      if (jac)
        {
          jac[e++] = 1.0 / C;
          jac[e++] = -1.0 / C;
          jac[e++] = -net * dC / (C * C);
        }
    }

  line_end_volumes (c, c->volume / (2.0 * N), out);
  if (out->out)
    {
      out->out[0] = q[0];
      out->out[1] = -q[N - 1];
    }
}

/* The distributed line under a floored fluid ("cavitating", "air"): the
 * N − 1 internal points are nodes of the fluid like the circuit's own
 * (hyd-fluid.h, docs/circuit-format.md "The node state and equation"):
 * each holds a pseudo-pressure ψ_i, the segments see p_i = F(ψ_i) ≥ p_v,
 * and below the floor the point holds the void V/N·w(ψ_i)/B_l, which grows
 * by what the segments take out over what they bring in and closes when
 * they have refilled it (mass balance C_i·ψ̇_i = q_i − q_{i+1} with
 * C_i = V/N·c(ψ_i) + V/N/B_wall·F'(ψ_i), the node's equation of a rigid
 * volume with a wall compliance). This is the discrete vapour cavity model
 * of Wylie & Streeter (Fluid Transients in Systems, 1993; reviewed by
 * Bergant, Simpson & Tijsseling 2006, J. Fluids Struct. 22: a cavity at
 * each computing section where the pressure would fall below the vapour
 * pressure, its volume from the continuity of the flows in and out, the
 * pressure held at p_v while it is open) in the lumped form of Burton's
 * vapour-only void tracking (Burton 1994, §3.3 eq. 3.24), and the same
 * code as the nodes (hyd_fluid_node, hyd_fluid_node_capacity,
 * hyd_fluid_node_inflow). Local Jacobian entries of a ψ_i column carry
 * F'(ψ_i); those of the end pressures are ∂/∂p (the system applies the
 * nodes' F'). Outputs: q_A, q_B, the void of the internal points (the end
 * halves belong to the end nodes and their `.void`), p_1 … p_{N−1}. */
static void
line_eval_distributed_floored (const HydComp *comp, const LineCoeffs *c, guint N,
                               const HydEvalIn *in, HydEvalOut *out)
{
  const HydFluid *fluid = comp->fluid;
  const double *q = in->x;
  const double *psi = in->x + N;
  double iner = c->iner * N;
  double KL = c->K_L / N, KT = c->K_T / N;
  double Vn = c->volume / N;
  double *jac = out->jac;
  double void_total = 0.0;

  out->q[0] = q[0];
  out->q[1] = -q[N - 1];
  if (jac)
    {
      jac[0] = 1.0;
      jac[1] = -1.0;
    }

  /* one pass: the point k − 1 (from the step before) and the point k;
   * the flow row of segment k and the row of the internal point k */
  HydNodeFluid prev = { .p = in->p[0], .dp = 1.0 }, cur;
  for (guint k = 1; k <= N; k++)
    {
      if (k < N)
        hyd_fluid_node (fluid, psi[k - 1], &cur);
      else
        cur = (HydNodeFluid) { .p = in->p[1], .dp = 1.0 };

      double qk = q[k - 1];
      out->xdot[k - 1] = iner * (prev.p - cur.p - KL * qk - KT * qk * fabs (qk));
      if (jac)
        {
          gsize e = 2 + 3 * (gsize) (k - 1);
          jac[e] = iner * prev.dp;
          jac[e + 1] = -iner * cur.dp;
          jac[e + 2] = -iner * (KL + 2.0 * KT * fabs (qk));
        }

      if (k < N)
        {
          double C, dC;
          hyd_fluid_node_capacity (&cur, Vn, Vn * c->inv_Bw, 0.0, &C, &dC);
          double R = hyd_fluid_node_inflow (&cur, qk - q[k], 0.0);
          out->xdot[N + k - 1] = R / C;
          if (jac)
            {
              gsize e = 2 + 3 * (gsize) N + 3 * (gsize) (k - 1);
              jac[e] = 1.0 / C;
              jac[e + 1] = -1.0 / C;
              jac[e + 2] = -R * dC / (C * C);
            }
          void_total += Vn * cur.voidf;
          if (out->out)
            out->out[2 + k] = cur.p;
        }
      prev = cur;
    }

  line_end_volumes (c, c->volume / (2.0 * N), out);
  if (out->out)
    {
      out->out[0] = q[0];
      out->out[1] = -q[N - 1];
      out->out[2] = void_total;
    }
}

static void
line_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  const LinePriv *priv = comp->priv;
  LineCoeffs c;
  line_coeffs (comp, &c);

  switch (priv->model)
    {
    case LINE_MODEL_INERTIA:
      {
        /* (ρL/A)·q̇ = Δp_AB − K_L·q − K_T·q·|q|  (Esqué eqs. 3.4–3.6) */
        double q = in->x[0];
        double dp = in->p[0] - in->p[1];
        out->q[0] = q;
        out->q[1] = -q;
        out->xdot[0] = c.iner * (dp - c.K_L * q - c.K_T * q * fabs (q));
        if (out->jac)
          {
            HYD_JAC (comp, out, 0, 2) = 1.0;
            HYD_JAC (comp, out, 1, 2) = -1.0;
            HYD_JAC (comp, out, 2, 0) = c.iner;
            HYD_JAC (comp, out, 2, 1) = -c.iner;
            HYD_JAC (comp, out, 2, 2) = -c.iner * (c.K_L + 2.0 * c.K_T * fabs (q));
          }
        line_end_volumes (&c, 0.5 * c.volume, out);
        if (out->out)
          {
            out->out[0] = q;
            out->out[1] = -q;
          }
      }
      break;

    case LINE_MODEL_DISTRIBUTED:
    case LINE_MODEL_TLM:
      if (priv->floored)
        line_eval_distributed_floored (comp, &c, priv->n_seg, in, out);
      else
        line_eval_distributed (comp, &c, priv->n_seg, in, out);
      break;

    case LINE_MODEL_VOLUME:
    default:
      {
        double g;
        double q = line_loss_flow (c.K_L, c.K_T, in->p[0] - in->p[1], &g);
        out->q[0] = q;
        out->q[1] = -q;
        if (out->jac)
          {
            HYD_JAC (comp, out, 0, 0) = g;
            HYD_JAC (comp, out, 0, 1) = -g;
            HYD_JAC (comp, out, 1, 0) = -g;
            HYD_JAC (comp, out, 1, 1) = g;
          }
        line_end_volumes (&c, 0.5 * c.volume, out);
        if (out->out)
          {
            out->out[0] = q;
            out->out[1] = -q;
          }
      }
      break;
    }
}

const HydComponentType hyd_line_type = {
  .id = "line",
  .label = N_("Line"),
  .category = HYD_CATEGORY_STORAGE,
  .iso_symbol = N_("working line (house: line with two segment ticks; hose arc when flexible)"),
  .description =
    N_("Pipe or hose between A and B with laminar (Hagen–Poiseuille) losses "
       "K_L = 128νρL/(πD⁴) and minor losses K_T = 8ρξ/(π²D⁴) (Esqué 2008 eq. 3.4). "
       "volume: half the line volume at each end, q = 2Δp/(K_L + √(K_L² + 4K_T|Δp|)); "
       "inertia: (ρL/A)·q̇ = Δp − K_L·q − K_T·q·|q| (eqs. 3.5–3.6); distributed and "
       "tlm: N such segments with N − 1 internal volumes; under the cavitating and "
       "air fluids these, like the nodes, stop at the vapour pressure and hold a void "
       "instead (Wylie & Streeter 1993, discrete vapour cavity model), reported as the "
       "output void. A wall bulk modulus > 0 adds the compliance V/B_wall of every line "
       "volume."),
  .ports = line_ports,
  .n_ports = G_N_ELEMENTS (line_ports),
  .params = line_params,
  .n_params = G_N_ELEMENTS (line_params),
  .boundary_param = -1,
  .designator = "L",
  .roles = HYD_ROLE_CONDUIT,
  .setup = line_setup,
  .init_states = line_init_states,
  .eval = line_eval,
  .free_priv = line_priv_free,
};
