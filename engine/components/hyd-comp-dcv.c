/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-comp-dcv.c — directional control valves dcv_4_3, dcv_4_2, dcv_3_2,
 * dcv_2_2 (spec/components.md, "Directional control valves").
 *
 * A spool valve is an orifice per port pair plus a spool block that sets the
 * pairs' areas (Esqué 2008, §3.2.4, Fig. 3.4). Each pair XY has
 *   A_XY = a·(λ_XY + (1 − λ_XY)·Σ_c f_c(u)),  a = A_nom (nominal flow at the
 * nominal pressure drop), λ_XY = leakage_fraction on metering pairs, else 0,
 * and the contributions f_c are open01 of the spool position u (no branch on
 * the sign of u). The spool follows the command, or, with a time constant
 * τ > 0, the state `spool` with τ·u̇ = command − u (a first-order spool). */
#include "hyd-component.h"
#include "hyd-i18n.h"
#include "hyd-smooth.h"

typedef enum {
  DCV_4_3,
  DCV_4_2,
  DCV_3_2,
  DCV_2_2,
} DcvKind;

enum {
  DCV_NOMINAL_FLOW,
  DCV_NOMINAL_DP,
  DCV_COMMAND,
  DCV_ACTUATION,
  DCV_TAU,
  DCV_LEAKAGE,
  DCV_CENTRE, /* dcv_4_3 only */
};

typedef enum {
  CENTRE_CLOSED,
  CENTRE_OPEN,
  CENTRE_TANDEM,
  CENTRE_FLOAT,
} DcvCentre;

/* What opens a pair, as a function of the spool position u. */
typedef enum {
  F_U,             /* open01(u) */
  F_MINUS_U,       /* open01(−u) */
  F_ONE_MINUS_U,   /* open01(1 − u) */
  F_CENTRE,        /* c(u) = open01(1 − 16u²) */
} DcvContribution;

#define DCV_MAX_PAIRS 5
#define DCV_MAX_CONTRIB 2

typedef struct {
  guint x, y;         /* ports; q_XY > 0 from X to Y */
  gboolean metering;  /* λ_XY = leakage_fraction, else 0 */
  guint n_contrib;
  DcvContribution contrib[DCV_MAX_CONTRIB];
} DcvPair;

typedef struct {
  guint n_pairs;
  DcvPair pairs[DCV_MAX_PAIRS];
} DcvPriv;

/* ---------------------------------------------------------------------------
 * metadata
 * ------------------------------------------------------------------------- */

enum { P4_P, P4_T, P4_A, P4_B };
enum { P3_P, P3_A, P3_T };
enum { P2_A, P2_B };

static const HydPortInfo dcv4_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pressure (supply)") },
  { "T", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Tank (return)") },
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Work port A") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Work port B") },
};

static const HydPortInfo dcv3_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pressure (supply)") },
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Work port A") },
  { "T", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Tank (return)") },
};

static const HydPortInfo dcv2_ports[] = {
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Inlet (positive flow A→B)") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Outlet") },
};

static const char *const actuation_choices[] = { N_("lever"), N_("solenoid"), NULL };
static const char *const centre_choices[] = { N_("closed"), N_("open"), N_("tandem"), N_("float"), NULL };

#define DCV_FLOW_PARAMS \
  { "nominal_flow", N_("Nominal flow"), HYD_UNIT_FLOW, 40e-3 / 60.0 /* 40 L/min */, 0.0, INFINITY, \
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Flow of each fully open path at the nominal pressure drop") }, \
  { "nominal_pressure_drop", N_("Nominal pressure drop"), HYD_UNIT_PRESSURE, 5e5, 0.0, INFINITY, \
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Pressure drop at which a fully open path passes the nominal flow") }

#define DCV_SPOOL_PARAMS \
  { "actuation", N_("Actuation"), HYD_UNIT_NONE, 0.0, 0.0, 1.0, HYD_PARAM_ENUM, actuation_choices, \
    N_("How the spool is operated (symbol and GUI handling only)") }, \
  { "spool_time_constant", N_("Spool time constant"), HYD_UNIT_TIME, 0.0, 0.0, INFINITY, 0, NULL, \
    N_("First-order lag of the spool behind the command (0 = follows at once)") }, \
  { "leakage_fraction", N_("Leakage fraction"), HYD_UNIT_NONE, 0.0, 0.0, 1.0, \
    HYD_PARAM_MAX_EXCLUSIVE, NULL, N_("Area of a closed metering path as a fraction of the full area") }

static const HydParamInfo dcv_4_3_params[] = {
  DCV_FLOW_PARAMS,
  { "command", N_("Command"), HYD_UNIT_NONE, 0.0, -1.0, 1.0, HYD_PARAM_PROFILE, NULL,
    N_("Spool command: +1 opens P→A and B→T, −1 opens P→B and A→T, 0 is the centre") },
  DCV_SPOOL_PARAMS,
  { "centre", N_("Centre position"), HYD_UNIT_NONE, 0.0, 0.0, 3.0, HYD_PARAM_ENUM, centre_choices,
    N_("Paths of the centre position: closed, open (all ports), tandem (P–T) or float (A, B–T)") },
};

static const HydParamInfo dcv_4_2_params[] = {
  DCV_FLOW_PARAMS,
  { "command", N_("Command"), HYD_UNIT_NONE, 0.0, 0.0, 1.0, HYD_PARAM_PROFILE, NULL,
    N_("Spool command: 0 connects P→B and A→T, 1 connects P→A and B→T") },
  DCV_SPOOL_PARAMS,
};

static const HydParamInfo dcv_3_2_params[] = {
  DCV_FLOW_PARAMS,
  { "command", N_("Command"), HYD_UNIT_NONE, 0.0, 0.0, 1.0, HYD_PARAM_PROFILE, NULL,
    N_("Spool command: 0 connects A→T, 1 connects P→A") },
  DCV_SPOOL_PARAMS,
};

static const HydParamInfo dcv_2_2_params[] = {
  DCV_FLOW_PARAMS,
  { "command", N_("Command"), HYD_UNIT_NONE, 0.0, 0.0, 1.0, HYD_PARAM_PROFILE, NULL,
    N_("Spool command: 0 closed, 1 open A→B") },
  DCV_SPOOL_PARAMS,
};

static const HydVarInfo spool_state[] = {
  { "spool", HYD_UNIT_NONE, N_("Spool position u") },
};

/* ---------------------------------------------------------------------------
 * model
 * ------------------------------------------------------------------------- */

extern const HydComponentType hyd_dcv_4_3_type;
extern const HydComponentType hyd_dcv_4_2_type;
extern const HydComponentType hyd_dcv_3_2_type;

static DcvKind
dcv_kind (const HydComp *comp)
{
  if (comp->type == &hyd_dcv_4_3_type)
    return DCV_4_3;
  if (comp->type == &hyd_dcv_4_2_type)
    return DCV_4_2;
  if (comp->type == &hyd_dcv_3_2_type)
    return DCV_3_2;
  return DCV_2_2;
}

static gboolean
dcv_has_spool_state (const HydComp *comp)
{
  return comp->par[DCV_TAU] > 0.0;
}

static void
add_pair (DcvPriv *priv, guint x, guint y, gboolean metering, DcvContribution f)
{
  DcvPair *pair = &priv->pairs[priv->n_pairs++];
  pair->x = x;
  pair->y = y;
  pair->metering = metering;
  pair->n_contrib = 1;
  pair->contrib[0] = f;
}

static void
add_centre (DcvPair *pair)
{
  pair->contrib[pair->n_contrib++] = F_CENTRE;
}

static gboolean
dcv_setup (HydComp *comp, GError **error)
{
  DcvPriv *priv = g_new0 (DcvPriv, 1);
  const HydPortInfo *ports = comp->type->ports;

  switch (dcv_kind (comp))
    {
    case DCV_4_3:
      {
        DcvCentre centre = (DcvCentre) comp->par[DCV_CENTRE];
        /* metering: f_PA = f_BT = open01(u); f_PB = f_AT = open01(−u) */
        add_pair (priv, P4_P, P4_A, TRUE, F_U);
        add_pair (priv, P4_P, P4_B, TRUE, F_MINUS_U);
        add_pair (priv, P4_A, P4_T, TRUE, F_MINUS_U);
        add_pair (priv, P4_B, P4_T, TRUE, F_U);
        /* centre paths: c(u) on each direct path of the centre envelope */
        if (centre == CENTRE_OPEN)
          for (guint i = 0; i < 4; i++)
            add_centre (&priv->pairs[i]);
        else if (centre == CENTRE_FLOAT)
          {
            add_centre (&priv->pairs[2]);
            add_centre (&priv->pairs[3]);
          }
        else if (centre == CENTRE_TANDEM)
          add_pair (priv, P4_P, P4_T, FALSE, F_CENTRE);
      }
      break;
    case DCV_4_2:
      add_pair (priv, P4_P, P4_A, TRUE, F_U);
      add_pair (priv, P4_P, P4_B, TRUE, F_ONE_MINUS_U);
      add_pair (priv, P4_A, P4_T, TRUE, F_ONE_MINUS_U);
      add_pair (priv, P4_B, P4_T, TRUE, F_U);
      break;
    case DCV_3_2:
      add_pair (priv, P3_P, P3_A, TRUE, F_U);
      add_pair (priv, P3_A, P3_T, TRUE, F_ONE_MINUS_U);
      break;
    case DCV_2_2:
    default:
      add_pair (priv, P2_A, P2_B, TRUE, F_U);
      break;
    }

  g_free (comp->priv);
  comp->priv = priv;

  if (dcv_has_spool_state (comp))
    hyd_comp_set_states (comp, G_N_ELEMENTS (spool_state), spool_state);
  else
    hyd_comp_set_states (comp, 0, NULL);

  hyd_comp_set_outputs (comp, 0, NULL);
  hyd_comp_add_output (comp, "spool", HYD_UNIT_NONE, N_("Spool position u"));
  for (guint i = 0; i < priv->n_pairs; i++)
    {
      const DcvPair *pair = &priv->pairs[i];
      g_autofree char *name = g_strdup_printf ("q_%s%s", ports[pair->x].name, ports[pair->y].name);
      g_autofree char *desc = g_strdup_printf ("Flow from %s to %s", ports[pair->x].name,
                                               ports[pair->y].name);
      hyd_comp_add_output (comp, name, HYD_UNIT_FLOW, desc);
    }
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
dcv_init_states (const HydComp *comp, const double *p0, double *x0)
{
  /* components.md: spool = command(0) */
  if (dcv_has_spool_state (comp))
    x0[0] = comp->par[DCV_COMMAND];
}

/* Σ_c f_c(u) of one pair, and its derivative. */
static double
pair_opening (const DcvPair *pair, double u, double *d_du)
{
  double sum = 0.0, dsum = 0.0, d;

  for (guint k = 0; k < pair->n_contrib; k++)
    switch (pair->contrib[k])
      {
      case F_U:
        sum += hyd_open01 (u, HYD_SMOOTH_EPS, &d);
        dsum += d;
        break;
      case F_MINUS_U:
        sum += hyd_open01 (-u, HYD_SMOOTH_EPS, &d);
        dsum -= d;
        break;
      case F_ONE_MINUS_U:
        sum += hyd_open01 (1.0 - u, HYD_SMOOTH_EPS, &d);
        dsum -= d;
        break;
      case F_CENTRE:
      default:
        /* c(u) = open01(1 − 16u²): exactly 1 at u = 0, 0 for |u| ≥ ¼ */
        sum += hyd_open01 (1.0 - 16.0 * u * u, HYD_SMOOTH_EPS, &d);
        dsum += d * (-32.0 * u);
        break;
      }
  *d_du = dsum;
  return sum;
}

static void
dcv_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  const DcvPriv *priv = comp->priv;
  const double *par = comp->par;
  guint np = comp->type->n_ports;
  gboolean spool_state = dcv_has_spool_state (comp);
  double command = par[DCV_COMMAND];
  double command_t = comp->par_dt[DCV_COMMAND];
  double u = spool_state ? in->x[0] : command;
  double lambda = par[DCV_LEAKAGE];
  HydOrificeCoeffs c = hyd_fluid_orifice_coeffs (comp->fluid, 0.0);
  double a = hyd_orifice_nominal_area (&c, par[DCV_NOMINAL_FLOW], par[DCV_NOMINAL_DP]);

  for (guint i = 0; i < priv->n_pairs; i++)
    {
      const DcvPair *pair = &priv->pairs[i];
      double lam = pair->metering ? lambda : 0.0;
      double dS;
      double S = pair_opening (pair, u, &dS);
      /* components.md: A_XY = a·(λ_XY + (1 − λ_XY)·Σ_c f_c(u)) */
      double area = a * (lam + (1.0 - lam) * S);
      double dA_du = a * (1.0 - lam) * dS;
      double dqdp, dqda;
      double q = hyd_orifice_flow (&c, in->p[pair->x] - in->p[pair->y], area, &dqdp, &dqda);
      double dq_du = dqda * dA_du;

      out->q[pair->x] += q;
      out->q[pair->y] -= q;
      if (out->jac)
        {
          HYD_JAC (comp, out, pair->x, pair->x) += dqdp;
          HYD_JAC (comp, out, pair->x, pair->y) -= dqdp;
          HYD_JAC (comp, out, pair->y, pair->x) -= dqdp;
          HYD_JAC (comp, out, pair->y, pair->y) += dqdp;
          if (spool_state)
            {
              HYD_JAC (comp, out, pair->x, np) += dq_du;
              HYD_JAC (comp, out, pair->y, np) -= dq_du;
            }
        }
      if (out->q_t && !spool_state)
        {
          /* u = command(t): the profile moves the areas directly */
          out->q_t[pair->x] += dq_du * command_t;
          out->q_t[pair->y] -= dq_du * command_t;
        }
      if (out->out)
        out->out[1 + i] = q;
    }

  if (spool_state)
    {
      /* τ·u̇ = command − u (first-order spool) */
      double tau = par[DCV_TAU];
      out->xdot[0] = (command - u) / tau;
      if (out->jac)
        HYD_JAC (comp, out, np, np) = -1.0 / tau;
      if (out->x_t)
        out->x_t[0] = command_t / tau;
    }
  if (out->out)
    out->out[0] = u;
}

/* Each description ends with the area law of all four valves (spelt out in
 * each, so that it reaches the translation template whole). */
const HydComponentType hyd_dcv_4_3_type = {
  .id = "dcv_4_3",
  .label = N_("4/3 directional valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("4/3 directional control valve (three envelopes, centre per `centre`, spring-centred, lever or solenoid operator)"),
  .description = N_("4/3 directional valve: f_PA = f_BT = open01(u), f_PB = f_AT = "
                    "open01(−u); centre contributions c(u) = open01(1 − 16u²) on "
                    "P–A, P–B, A–T, B–T (open), P–T (tandem), A–T and B–T (float), "
                    "none (closed). "
                    "A_XY = a·(λ_XY + (1 − λ_XY)·Σ f_c(u)), a passing nominal_flow at "
                    "nominal_pressure_drop, λ = leakage_fraction on metering paths; each pair "
                    "is an orifice (Esqué eq. 3.7). Spool u = command, or τ·u̇ = command − u "
                    "when spool_time_constant τ > 0 (a first-order spool)."),
  .ports = dcv4_ports,
  .n_ports = G_N_ELEMENTS (dcv4_ports),
  .params = dcv_4_3_params,
  .n_params = G_N_ELEMENTS (dcv_4_3_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .operation_param = "actuation",
  .command_param = "command",
  .setup = dcv_setup,
  .init_states = dcv_init_states,
  .eval = dcv_eval,
};

const HydComponentType hyd_dcv_4_2_type = {
  .id = "dcv_4_2",
  .label = N_("4/2 directional valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("4/2 directional control valve (two envelopes, spring return, lever or solenoid operator)"),
  .description = N_("4/2 directional valve: f_PA = f_BT = open01(u), f_PB = f_AT = "
                    "open01(1 − u). "
                    "A_XY = a·(λ_XY + (1 − λ_XY)·Σ f_c(u)), a passing nominal_flow at "
                    "nominal_pressure_drop, λ = leakage_fraction on metering paths; each pair "
                    "is an orifice (Esqué eq. 3.7). Spool u = command, or τ·u̇ = command − u "
                    "when spool_time_constant τ > 0 (a first-order spool)."),
  .ports = dcv4_ports,
  .n_ports = G_N_ELEMENTS (dcv4_ports),
  .params = dcv_4_2_params,
  .n_params = G_N_ELEMENTS (dcv_4_2_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .operation_param = "actuation",
  .command_param = "command",
  .setup = dcv_setup,
  .init_states = dcv_init_states,
  .eval = dcv_eval,
};

const HydComponentType hyd_dcv_3_2_type = {
  .id = "dcv_3_2",
  .label = N_("3/2 directional valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("3/2 directional control valve (two envelopes, spring return, lever or solenoid operator)"),
  .description = N_("3/2 directional valve: f_PA = open01(u), f_AT = open01(1 − u). "
                    "A_XY = a·(λ_XY + (1 − λ_XY)·Σ f_c(u)), a passing nominal_flow at "
                    "nominal_pressure_drop, λ = leakage_fraction on metering paths; each pair "
                    "is an orifice (Esqué eq. 3.7). Spool u = command, or τ·u̇ = command − u "
                    "when spool_time_constant τ > 0 (a first-order spool)."),
  .ports = dcv3_ports,
  .n_ports = G_N_ELEMENTS (dcv3_ports),
  .params = dcv_3_2_params,
  .n_params = G_N_ELEMENTS (dcv_3_2_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .operation_param = "actuation",
  .command_param = "command",
  .setup = dcv_setup,
  .init_states = dcv_init_states,
  .eval = dcv_eval,
};

const HydComponentType hyd_dcv_2_2_type = {
  .id = "dcv_2_2",
  .label = N_("2/2 directional valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("2/2 directional control valve, normally closed (two envelopes, spring return, lever or solenoid operator)"),
  .description = N_("2/2 directional valve, normally closed: f_AB = open01(u). "
                    "A_XY = a·(λ_XY + (1 − λ_XY)·Σ f_c(u)), a passing nominal_flow at "
                    "nominal_pressure_drop, λ = leakage_fraction on metering paths; each pair "
                    "is an orifice (Esqué eq. 3.7). Spool u = command, or τ·u̇ = command − u "
                    "when spool_time_constant τ > 0 (a first-order spool)."),
  .ports = dcv2_ports,
  .n_ports = G_N_ELEMENTS (dcv2_ports),
  .params = dcv_2_2_params,
  .n_params = G_N_ELEMENTS (dcv_2_2_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .operation_param = "actuation",
  .command_param = "command",
  .setup = dcv_setup,
  .init_states = dcv_init_states,
  .eval = dcv_eval,
};
