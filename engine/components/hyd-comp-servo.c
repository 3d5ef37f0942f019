/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-comp-servo.c — signal-driven hydraulics: the servo / proportional 4/3
 * valve (servo_valve) and the proportional relief valve
 * (proportional_relief_valve).
 *
 * servo_valve: a critically centred, overlapped or underlapped four-way spool
 * valve with four metering edges P→A, B→T, P→B, A→T (Merritt 1967,
 * *Hydraulic Control Systems*, §2.4–2.6). The spool position x_v follows the
 * command r (metres of spool travel, from the signal input U when it is
 * wired, else the `command` parameter) through a second-order lag,
 *   ẍ_v = ω²·(sat(r) − x_v) − 2ζω·ẋ_v,
 * sat(r) limiting the command to ±x_max. Edge e opens
 *   h_e = ramp(s_e·x_v − o_e),  s_e = +1 for P→A, B→T, −1 for P→B, A→T,
 * o_e its overlap (> 0) or underlap (< 0), and passes
 *   q_e = orifice(Δp_e, C_q·π·d·f_e·h_e) + G·Δp_e
 * on the project's orifice law (turbulent C_q·A·√(2Δp/ρ) above the laminar
 * transition; hyd-smooth.h), d the spool diameter, f_e the fraction of the
 * circumference the edge's port opens, G an optional laminar leakage per
 * edge. ramp(z) = soft_ramp(z + ε/2, ε) with ε = 10⁻³·x_max: exactly z for
 * z ≥ ε/2 and 0 for z ≤ −ε/2. */
#include "hyd-component.h"
#include "hyd-error.h"
#include "hyd-i18n.h"
#include "hyd-smooth.h"

#include <math.h>

/* The edge smoothing width as a fraction of x_max. */
#define SERVO_EDGE_EPS 1e-3

enum { SV_P, SV_T, SV_A, SV_B, SV_U };

enum {
  SV_COMMAND,
  SV_CD,
  SV_DIAMETER,
  SV_XMAX,
  SV_OMEGA,
  SV_ZETA,
  SV_F_PA,
  SV_F_BT,
  SV_F_PB,
  SV_F_AT,
  SV_O_PA,
  SV_O_BT,
  SV_O_PB,
  SV_O_AT,
  SV_LEAKAGE,
};

enum { SV_X, SV_V };

static const HydPortInfo servo_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pressure (supply)") },
  { "T", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Tank (return)") },
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Work port A") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Work port B") },
  { "U", HYD_DOMAIN_SIGNAL, TRUE,
    N_("signal input: the spool position command in metres (overrides `command` when wired)"),
    HYD_PORT_INPUT, "command" },
};

#define EDGE_FRACTION(key, label, desc) \
  { key, label, HYD_UNIT_NONE, 1.0, 0.0, 1.0, HYD_PARAM_MIN_EXCLUSIVE, NULL, desc }
#define EDGE_OVERLAP(key, label, desc) \
  { key, label, HYD_UNIT_LENGTH, 0.0, -INFINITY, INFINITY, 0, NULL, desc }

static const HydParamInfo servo_params[] = {
  { "command", N_("Command"), HYD_UNIT_POSITION, 0.0, -0.1, 0.1, HYD_PARAM_PROFILE, NULL,
    N_("Spool position command when the input U is not wired (> 0 opens P→A and B→T)") },
  { "discharge_coefficient", N_("Discharge coefficient"), HYD_UNIT_NONE, 0.67, 0.0, 1.0,
    HYD_PARAM_MIN_EXCLUSIVE | HYD_PARAM_FLUID_CD, NULL,
    N_("C_q of the metering edges (default: the fluid's)") },
  { "spool_diameter", N_("Spool diameter"), HYD_UNIT_LENGTH, 0.01, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Diameter d of the spool: an edge's full width is π·d") },
  { "max_spool_position", N_("Maximum spool position"), HYD_UNIT_LENGTH, 0.01, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("The command is limited to ±x_max") },
  { "natural_frequency", N_("Natural frequency"), HYD_UNIT_FREQUENCY, 200.0, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Spool natural frequency ω of the second-order lag") },
  { "damping_ratio", N_("Damping ratio"), HYD_UNIT_NONE, 1.0, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Spool damping ratio ζ of the second-order lag") },
  EDGE_FRACTION ("fraction_pa", N_("Circumference fraction P→A"),
                 N_("Fraction of the spool circumference that the edge P→A opens")),
  EDGE_FRACTION ("fraction_bt", N_("Circumference fraction B→T"),
                 N_("Fraction of the spool circumference that the edge B→T opens")),
  EDGE_FRACTION ("fraction_pb", N_("Circumference fraction P→B"),
                 N_("Fraction of the spool circumference that the edge P→B opens")),
  EDGE_FRACTION ("fraction_at", N_("Circumference fraction A→T"),
                 N_("Fraction of the spool circumference that the edge A→T opens")),
  EDGE_OVERLAP ("overlap_pa", N_("Overlap P→A"),
                N_("Overlap of the edge P→A (> 0 overlapped, < 0 underlapped, 0 critically centred)")),
  EDGE_OVERLAP ("overlap_bt", N_("Overlap B→T"),
                N_("Overlap of the edge B→T (> 0 overlapped, < 0 underlapped, 0 critically centred)")),
  EDGE_OVERLAP ("overlap_pb", N_("Overlap P→B"),
                N_("Overlap of the edge P→B (> 0 overlapped, < 0 underlapped, 0 critically centred)")),
  EDGE_OVERLAP ("overlap_at", N_("Overlap A→T"),
                N_("Overlap of the edge A→T (> 0 overlapped, < 0 underlapped, 0 critically centred)")),
  { "leakage", N_("Leakage coefficient"), HYD_UNIT_LEAKAGE, 0.0, 0.0, INFINITY, 0, NULL,
    N_("Laminar leakage of each edge per pascal of its pressure drop (0 = none)") },
};

static const HydVarInfo servo_states[] = {
  { "xv", HYD_UNIT_POSITION, N_("Spool position x_v") },
  { "vv", HYD_UNIT_VELOCITY, N_("Spool velocity") },
};

static const HydVarInfo servo_outputs[] = {
  { "xv", HYD_UNIT_POSITION, N_("Spool position x_v") },
  { "q_PA", HYD_UNIT_FLOW, N_("Flow from P to A") },
  { "q_BT", HYD_UNIT_FLOW, N_("Flow from B to T") },
  { "q_PB", HYD_UNIT_FLOW, N_("Flow from P to B") },
  { "q_AT", HYD_UNIT_FLOW, N_("Flow from A to T") },
};

/* The four edges in the order of the outputs: ports (flow x → y), the sign
 * of the spool travel that opens them and their parameters. */
static const struct {
  guint x, y;
  double sign;
  guint fraction, overlap;
} servo_edges[4] = {
  { SV_P, SV_A, +1.0, SV_F_PA, SV_O_PA },
  { SV_B, SV_T, +1.0, SV_F_BT, SV_O_BT },
  { SV_P, SV_B, -1.0, SV_F_PB, SV_O_PB },
  { SV_A, SV_T, -1.0, SV_F_AT, SV_O_AT },
};

static gboolean
servo_validate (const HydComp *comp, GError **error)
{
  const double *par = comp->par;
  for (guint e = 0; e < 4; e++)
    {
      double o = par[servo_edges[e].overlap];
      if (!(o < par[SV_XMAX]))
        {
          g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                       "%s: parameter %s = %g m must be smaller than max_spool_position = %g m, "
                       "or the edge never opens",
                       comp->id, comp->type->params[servo_edges[e].overlap].name, o, par[SV_XMAX]);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
servo_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_states (comp, G_N_ELEMENTS (servo_states), servo_states);
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (servo_outputs), servo_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

/* sat(r) = x_max·(2·clamp01((r/x_max + 1)/2, 0.01) − 1): r itself inside
 * ±0.99·x_max, ±x_max beyond ±1.01·x_max, C¹ between. */
static double
servo_saturate (double r, double xmax, double *d_dr)
{
  double dc;
  double c = hyd_clamp01 (0.5 * (r / xmax + 1.0), HYD_SMOOTH_EPS, &dc);
  *d_dr = dc;
  return xmax * (2.0 * c - 1.0);
}

static gboolean
servo_signal_wired (const HydComp *comp)
{
  return hyd_comp_port_connected (comp, SV_U);
}

static void
servo_init_states (const HydComp *comp, const double *p0, double *x0)
{
  double d;
  /* at rest at the command, or at the centre under a wired signal */
  x0[SV_X] = servo_signal_wired (comp) ? 0.0
                                      : servo_saturate (comp->par[SV_COMMAND], comp->par[SV_XMAX], &d);
  x0[SV_V] = 0.0;
}

static void
servo_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  const double *par = comp->par;
  guint np = comp->type->n_ports;
  gboolean wired = servo_signal_wired (comp);
  double xv = in->x[SV_X], vv = in->x[SV_V];
  double xmax = par[SV_XMAX];
  double eps = SERVO_EDGE_EPS * xmax;
  double G = par[SV_LEAKAGE];
  HydOrificeCoeffs c = hyd_fluid_orifice_coeffs (comp->fluid, par[SV_CD]);

  for (guint e = 0; e < 4; e++)
    {
      guint X = servo_edges[e].x, Y = servo_edges[e].y;
      double s = servo_edges[e].sign;
      double width = G_PI * par[SV_DIAMETER] * par[servo_edges[e].fraction];
      double dh;
      /* Merritt ch. 2: an edge opens by s·x_v − overlap */
      double h = hyd_soft_ramp (s * xv - par[servo_edges[e].overlap] + 0.5 * eps, eps, &dh);
      double dp = in->p[X] - in->p[Y];
      double dqdp, dqda;
      double q = hyd_orifice_flow (&c, dp, width * h, &dqdp, &dqda) + G * dp;
      double dq_dx = dqda * width * dh * s;
      dqdp += G;

      out->q[X] += q;
      out->q[Y] -= q;
      if (out->jac)
        {
          HYD_JAC (comp, out, X, X) += dqdp;
          HYD_JAC (comp, out, X, Y) -= dqdp;
          HYD_JAC (comp, out, Y, X) -= dqdp;
          HYD_JAC (comp, out, Y, Y) += dqdp;
          HYD_JAC (comp, out, X, np + SV_X) += dq_dx;
          HYD_JAC (comp, out, Y, np + SV_X) -= dq_dx;
        }
      if (out->out)
        out->out[1 + e] = q;
    }

  /* the spool: ẍ_v = ω²·(sat(r) − x_v) − 2ζω·ẋ_v */
  double w = par[SV_OMEGA], zeta = par[SV_ZETA];
  double r = wired ? in->p[SV_U] : par[SV_COMMAND];
  double dsat;
  double ref = servo_saturate (r, xmax, &dsat);
  out->xdot[SV_X] = vv;
  out->xdot[SV_V] = w * w * (ref - xv) - 2.0 * zeta * w * vv;
  if (out->jac)
    {
      HYD_JAC (comp, out, np + SV_X, np + SV_V) = 1.0;
      HYD_JAC (comp, out, np + SV_V, np + SV_X) = -w * w;
      HYD_JAC (comp, out, np + SV_V, np + SV_V) = -2.0 * zeta * w;
      if (wired)
        HYD_JAC (comp, out, np + SV_V, SV_U) = w * w * dsat;
    }
  if (out->x_t && !wired)
    out->x_t[SV_V] = w * w * dsat * comp->par_dt[SV_COMMAND];
  if (out->out)
    out->out[0] = xv;
}

const HydComponentType hyd_servo_valve_type = {
  .id = "servo_valve",
  .label = N_("Servo valve 4/3"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("4/3 servo valve: three envelopes with continuous-position lines, closed centre, signal operator with feedback"),
  .description = N_("Servo / proportional 4/3 valve with edges P→A, B→T (opened by x_v > 0) "
                    "and P→B, A→T (opened by x_v < 0). The spool follows the command r "
                    "(input U in metres when wired, else `command`): "
                    "ẍ_v = ω²·(sat(r) − x_v) − 2ζω·ẋ_v, sat limiting r to ±x_max. "
                    "Edge e opens h_e = ramp(±x_v − overlap_e) and passes "
                    "q_e = orifice(Δp_e, C_q·π·d·f_e·h_e) + leakage·Δp_e, turbulent "
                    "C_q·π·d·f_e·h_e·√(2Δp/ρ) (Merritt 1967, ch. 2: flow gain at null "
                    "K_q = C_q·w·√(p_s/ρ) critically centred, 2·C_q·w·√(p_s/ρ) and pressure "
                    "gain 2·p_s/U underlapped by U; w = π·d)."),
  .ports = servo_ports,
  .n_ports = G_N_ELEMENTS (servo_ports),
  .params = servo_params,
  .n_params = G_N_ELEMENTS (servo_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .validate = servo_validate,
  .setup = servo_setup,
  .init_states = servo_init_states,
  .eval = servo_eval,
};

/* ---------------------------------------------------------------------------
 * proportional_relief_valve
 *
 * A direct-acting relief valve P→T whose setting comes from a signal (a
 * proportional solenoid pushing the poppet), or from `setting` when the
 * input U is not wired: z = (Δp_PT − p_set)/override, A = soft_ramp(z,
 * 0.01)·A_nom, q = orifice(Δp_PT, A) — the static law of `relief_valve`
 * with a moving setting. A_nom passes nominal_flow at max_setting +
 * override, so the valve's size does not change with its setting.
 * ------------------------------------------------------------------------- */

enum { PR_P, PR_T, PR_U };
enum { PR_SETTING, PR_MAX_SETTING, PR_OVERRIDE, PR_NOMINAL_FLOW };

static const HydPortInfo prop_relief_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Inlet (protected line)") },
  { "T", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Outlet to tank") },
  { "U", HYD_DOMAIN_SIGNAL, TRUE,
    N_("signal input: the setting in pascals (overrides `setting` when wired)"), HYD_PORT_INPUT,
    "setting" },
};

static const HydParamInfo prop_relief_params[] = {
  { "setting", N_("Setting"), HYD_UNIT_PRESSURE, 1e7, 0.0, INFINITY, HYD_PARAM_PROFILE, NULL,
    N_("Δp_PT at which the valve starts to open, when the input U is not wired") },
  { "max_setting", N_("Maximum setting"), HYD_UNIT_PRESSURE, 2e7, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Rated (highest) setting: sizes the valve and the pressure scale") },
  { "override_pressure", N_("Override pressure"), HYD_UNIT_PRESSURE, 1e6, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Rise of Δp_PT above the setting that opens the valve to A_nom") },
  { "nominal_flow", N_("Nominal flow"), HYD_UNIT_FLOW, 100e-3 / 60.0, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Flow at max_setting + override pressure") },
};

static const HydVarInfo prop_relief_outputs[] = {
  { "q", HYD_UNIT_FLOW, N_("Relieved flow P→T") },
  { "opening", HYD_UNIT_NONE, N_("Opening A/A_nom") },
  { "setting", HYD_UNIT_PRESSURE, N_("Setting in force") },
};

static gboolean
prop_relief_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_states (comp, 0, NULL);
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (prop_relief_outputs), prop_relief_outputs);
  hyd_comp_add_event (comp, "cracking", N_("the valve starts to open or closes"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

/* The setting in force, and its derivatives with respect to the input and
 * to time. */
static double
prop_relief_setting (const HydComp *comp, const HydEvalIn *in, double *d_du, double *d_dt)
{
  if (hyd_comp_port_connected (comp, PR_U))
    {
      *d_du = 1.0;
      *d_dt = 0.0;
      return in->p[PR_U];
    }
  *d_du = 0.0;
  *d_dt = comp->par_dt[PR_SETTING];
  return comp->par[PR_SETTING];
}

static void
prop_relief_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  double du, dt;
  double set = prop_relief_setting (comp, in, &du, &dt);
  g[0] = (in->p[PR_P] - in->p[PR_T] - set) / comp->par[PR_OVERRIDE];
}

static void
prop_relief_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  const double *par = comp->par;
  HydOrificeCoeffs c = hyd_fluid_orifice_coeffs (comp->fluid, 0.0);
  double po = par[PR_OVERRIDE];
  double a_nom = hyd_orifice_nominal_area (&c, par[PR_NOMINAL_FLOW], par[PR_MAX_SETTING] + po);
  double dset_du, dset_dt;
  double set = prop_relief_setting (comp, in, &dset_du, &dset_dt);
  double dp = in->p[PR_P] - in->p[PR_T];
  double z = (dp - set) / po;
  double dopen, dqdp, dqda;
  double open = hyd_soft_ramp (z, HYD_SMOOTH_EPS, &dopen);
  double q = hyd_orifice_flow (&c, dp, open * a_nom, &dqdp, &dqda);
  /* ∂q/∂z through the area */
  double dq_dz = dqda * a_nom * dopen;

  out->q[PR_P] = q;
  out->q[PR_T] = -q;
  if (out->jac)
    {
      double dq_dpp = dqdp + dq_dz / po;
      HYD_JAC (comp, out, PR_P, PR_P) = dq_dpp;
      HYD_JAC (comp, out, PR_P, PR_T) = -dq_dpp;
      HYD_JAC (comp, out, PR_T, PR_P) = -dq_dpp;
      HYD_JAC (comp, out, PR_T, PR_T) = dq_dpp;
      HYD_JAC (comp, out, PR_P, PR_U) = -dq_dz * dset_du / po;
      HYD_JAC (comp, out, PR_T, PR_U) = dq_dz * dset_du / po;
    }
  if (out->q_t)
    {
      out->q_t[PR_P] = -dq_dz * dset_dt / po;
      out->q_t[PR_T] = dq_dz * dset_dt / po;
    }
  if (out->out)
    {
      out->out[0] = q;
      out->out[1] = open;
      out->out[2] = set;
    }
}

const HydComponentType hyd_proportional_relief_valve_type = {
  .id = "proportional_relief_valve",
  .label = N_("Proportional relief valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("pressure relief valve, direct-acting, with a proportional solenoid instead of the adjustable spring"),
  .description = N_("Direct-acting relief valve P→T whose setting p_set is the signal at U "
                    "in pascals when wired, else `setting`: z = (Δp_PT − p_set)/override, "
                    "A = soft_ramp(z, 0.01)·A_nom, q = orifice(Δp_PT, A), A_nom passing "
                    "nominal_flow at max_setting + override (the static law of the relief "
                    "valve with a moving setting)."),
  .ports = prop_relief_ports,
  .n_ports = G_N_ELEMENTS (prop_relief_ports),
  .params = prop_relief_params,
  .n_params = G_N_ELEMENTS (prop_relief_params),
  .boundary_param = -1,
  .designator = "RV",
  .roles = HYD_ROLE_PRESSURE_LIMITER | HYD_ROLE_RELIEF_VALVE,
  .rating_param = "nominal_flow",
  .scale_param = "max_setting",
  .setup = prop_relief_setup,
  .eval = prop_relief_eval,
  .events = prop_relief_events,
};
