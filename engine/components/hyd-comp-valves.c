/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-comp-valves.c — restrictors and pressure/flow valves
 * (spec/components.md, "Valves"): orifice, throttle_valve, check_valve,
 * relief_valve, pressure_reducing_valve, flow_control_valve; and the
 * extensions (docs/circuit-format.md, "Component types added by Bramah"):
 * pilot_check_valve, sequence_valve, one_way_flow_control_valve,
 * shuttle_valve, counterbalance_valve, filter, cooler,
 * accumulator_safety_block.
 *
 * Every path is the shared two-regime orifice law hyd_orifice_flow
 * (Ellman–Piché; Esqué 2008, §3.2.4, eq. 3.7) of an open area A
 * that the valve sets; the chain rule through ∂q/∂A gives the derivatives
 * with respect to whatever moves A. Area fractions limited to [0, 1] use
 * open01 so that a closed valve has exactly zero flow. */
#include "hyd-component.h"
#include "hyd-i18n.h"
#include "hyd-smooth.h"

/* Every valve here has two hydraulic ports, the inlet first: rows and
 * columns 0 and 1 of the local Jacobian. */
enum { PORT_IN, PORT_OUT };

/* The flow q from port 0 to port 1 of a two-port path: q̂_0 = q, q̂_1 = −q.
 * dq0 and dq1 are ∂q/∂p_0 and ∂q/∂p_1. */
static void
two_port_write (const HydComp *comp, HydEvalOut *out, double q, double dq0, double dq1)
{
  out->q[PORT_IN] = q;
  out->q[PORT_OUT] = -q;
  if (out->jac)
    {
      HYD_JAC (comp, out, PORT_IN, PORT_IN) = dq0;
      HYD_JAC (comp, out, PORT_IN, PORT_OUT) = dq1;
      HYD_JAC (comp, out, PORT_OUT, PORT_IN) = -dq0;
      HYD_JAC (comp, out, PORT_OUT, PORT_OUT) = -dq1;
    }
}

static double
circle_area (double d)
{
  return G_PI * d * d / 4.0;
}

static const HydVarInfo q_output[] = {
  { "q", HYD_UNIT_FLOW, N_("Flow through the valve, positive from the first port to the second") },
};

static const HydVarInfo q_opening_outputs[] = {
  { "q", HYD_UNIT_FLOW, N_("Flow through the valve, positive from the first port to the second") },
  { "opening", HYD_UNIT_NONE, N_("Open-area fraction") },
};

static gboolean
q_output_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (q_output), q_output);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

/* Orifice and throttle (extension, docs/circuit-format.md): q, and `laminar`,
 * 1 while the flow is in the laminar branch of the orifice law (the canvas
 * marks it: a student sees where the quadratic law no longer holds). */
static const HydVarInfo q_laminar_outputs[] = {
  { "q", HYD_UNIT_FLOW, N_("Flow through the valve, positive from the first port to the second") },
  { "laminar", HYD_UNIT_NONE, N_("1 while the flow is in the laminar branch of the orifice law, else 0") },
};

static gboolean
q_laminar_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (q_laminar_outputs), q_laminar_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static gboolean
q_opening_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (q_opening_outputs), q_opening_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * orifice
 * ------------------------------------------------------------------------- */

enum { OR_DIAMETER, OR_CD };

static const HydPortInfo ab_ports[] = {
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Inlet (positive flow A→B)") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Outlet") },
};

static const HydParamInfo orifice_params[] = {
  { "diameter", N_("Diameter"), HYD_UNIT_LENGTH, 2e-3, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
    N_("Bore of the restrictor") },
  { "discharge_coefficient", N_("Discharge coefficient"), HYD_UNIT_NONE, 0.7, 0.0, 1.0,
    HYD_PARAM_MIN_EXCLUSIVE | HYD_PARAM_FLUID_CD, NULL,
    N_("C_d of the restrictor (default: the fluid's)") },
};

static void
orifice_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  /* components.md: q_A = orifice(Δp_AB, πd²/4) = −q_B (Esqué eq. 3.7). */
  HydOrificeCoeffs c = hyd_fluid_orifice_coeffs (comp->fluid, comp->par[OR_CD]);
  double dqdp;
  double q = hyd_orifice_flow (&c, in->p[PORT_IN] - in->p[PORT_OUT],
                               circle_area (comp->par[OR_DIAMETER]), &dqdp, NULL);

  two_port_write (comp, out, q, dqdp, -dqdp);
  if (out->out)
    {
      out->out[0] = q;
      out->out[1] = hyd_orifice_is_laminar (&c, in->p[PORT_IN] - in->p[PORT_OUT],
                                            circle_area (comp->par[OR_DIAMETER]));
    }
}

const HydComponentType hyd_orifice_type = {
  .id = "orifice",
  .label = N_("Orifice"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("fixed orifice (restrictor, viscosity-independent: short constriction)"),
  .description = N_("Fixed restrictor: q_A = orifice(Δp_AB, πd²/4) = −q_B, the "
                    "two-regime law (turbulent C_d·A·√(2|Δp|/ρ), laminar quadratic "
                    "below Δp_tr; Esqué eq. 3.7)."),
  .ports = ab_ports,
  .n_ports = G_N_ELEMENTS (ab_ports),
  .params = orifice_params,
  .n_params = G_N_ELEMENTS (orifice_params),
  .boundary_param = -1,
  .designator = "OR",
  .roles = 0,
  .setup = q_laminar_setup,
  .eval = orifice_eval,
};

/* ---------------------------------------------------------------------------
 * throttle_valve
 * ------------------------------------------------------------------------- */

enum { TV_MAX_DIAMETER, TV_OPENING };

static const HydParamInfo throttle_params[] = {
  { "max_diameter", N_("Maximum diameter"), HYD_UNIT_LENGTH, 4e-3, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Bore when fully open") },
  { "opening", N_("Opening"), HYD_UNIT_NONE, 1.0, 0.0, 1.0, HYD_PARAM_PROFILE, NULL,
    N_("Needle setting: open area = opening × full area") },
};

static void
throttle_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  /* components.md: A = opening·π·max_diameter²/4; q_A = orifice(Δp_AB, A). */
  HydOrificeCoeffs c = hyd_fluid_orifice_coeffs (comp->fluid, 0.0);
  double a_full = circle_area (comp->par[TV_MAX_DIAMETER]);
  double dqdp, dqda;
  double q = hyd_orifice_flow (&c, in->p[PORT_IN] - in->p[PORT_OUT],
                               comp->par[TV_OPENING] * a_full, &dqdp, &dqda);

  two_port_write (comp, out, q, dqdp, -dqdp);
  if (out->q_t)
    {
      double q_t = dqda * a_full * comp->par_dt[TV_OPENING];
      out->q_t[PORT_IN] = q_t;
      out->q_t[PORT_OUT] = -q_t;
    }
  if (out->out)
    {
      out->out[0] = q;
      out->out[1] = hyd_orifice_is_laminar (&c, in->p[PORT_IN] - in->p[PORT_OUT],
                                            comp->par[TV_OPENING] * a_full);
    }
}

const HydComponentType hyd_throttle_valve_type = {
  .id = "throttle_valve",
  .label = N_("Throttle valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("adjustable restrictor (throttle with sloping arrow)"),
  .description = N_("Adjustable restrictor (needle valve): A = opening·π·max_diameter²/4, "
                    "q_A = orifice(Δp_AB, A) = −q_B (Esqué eq. 3.7)."),
  .ports = ab_ports,
  .n_ports = G_N_ELEMENTS (ab_ports),
  .params = throttle_params,
  .n_params = G_N_ELEMENTS (throttle_params),
  .boundary_param = -1,
  .designator = "TV",
  .roles = 0,
  .setup = q_laminar_setup,
  .eval = throttle_eval,
};

/* ---------------------------------------------------------------------------
 * check_valve
 * ------------------------------------------------------------------------- */

enum { CV_CRACKING, CV_RANGE, CV_DIAMETER, CV_LEAK_DIAMETER };

static const HydParamInfo check_params[] = {
  { "cracking_pressure", N_("Cracking pressure"), HYD_UNIT_PRESSURE, 5e4, 0.0, INFINITY, 0, NULL,
    N_("Δp_AB at which the valve starts to open") },
  { "opening_range", N_("Opening range"), HYD_UNIT_PRESSURE, 2e5, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Rise of Δp_AB above cracking that opens the valve fully") },
  { "diameter", N_("Diameter"), HYD_UNIT_LENGTH, 1e-2, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
    N_("Bore when fully open") },
  { "leakage_diameter", N_("Leakage diameter"), HYD_UNIT_LENGTH, 0.0, 0.0, INFINITY, 0, NULL,
    N_("Bore of an always-open leakage path (0 = tight seat)") },
};

static gboolean
check_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_event (comp, "cracking", N_("Δp_AB crosses the cracking pressure: the ball lifts or seats"));
  return q_opening_setup (comp, error);
}

/* The valve lifts off its seat where Δp_AB passes the cracking pressure. */
static void
check_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = (in->p[PORT_IN] - in->p[PORT_OUT] - comp->par[CV_CRACKING]) / comp->par[CV_RANGE];
}

/* A seat (poppet or ball) path: open area open01(z)·a_full + a_leak, flow
 * q = orifice(dp, area). Writes ∂q/∂dp at fixed z, ∂q/∂z at fixed dp and
 * the open fraction. Every seat valve here (check, pilot-operated check,
 * sequence, counterbalance, the check of a one-way flow control) is this
 * path with its own opening coordinate z. */
static double
seat_path_flow (const HydOrificeCoeffs *c, double dp, double z, double a_full, double a_leak,
                double *dq_ddp, double *dq_dz, double *frac_out)
{
  double dfrac;
  double frac = hyd_open01 (z, HYD_SMOOTH_EPS, &dfrac);
  double dqda;
  double q = hyd_orifice_flow (c, dp, frac * a_full + a_leak, dq_ddp, &dqda);
  *dq_dz = dqda * a_full * dfrac;
  if (frac_out)
    *frac_out = frac;
  return q;
}

static void
check_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  /* components.md: A = open01((Δp_AB − cracking)/range)·πd²/4 + π·d_leak²/4
   * (a resistor whose area is a smooth function of Δp; Esqué 2008 has no check valve model). */
  const double *par = comp->par;
  HydOrificeCoeffs c = hyd_fluid_orifice_coeffs (comp->fluid, 0.0);
  double dp = in->p[PORT_IN] - in->p[PORT_OUT];
  double dqdp, dqdz, frac;
  double q = seat_path_flow (&c, dp, (dp - par[CV_CRACKING]) / par[CV_RANGE],
                             circle_area (par[CV_DIAMETER]), circle_area (par[CV_LEAK_DIAMETER]),
                             &dqdp, &dqdz, &frac);
  /* total ∂q/∂Δp: the orifice slope plus the opening through the area */
  double dq = dqdp + dqdz / par[CV_RANGE];

  two_port_write (comp, out, q, dq, -dq);
  if (out->out)
    {
      out->out[0] = q;
      out->out[1] = frac;
    }
}

const HydComponentType hyd_check_valve_type = {
  .id = "check_valve",
  .label = N_("Check valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("non-return valve, spring-loaded (ball on seat with spring), free flow A→B"),
  .description = N_("Non-return valve with free flow A→B: A = open01((Δp_AB − "
                    "cracking_pressure)/opening_range)·πd²/4 + π·d_leak²/4, "
                    "q_A = orifice(Δp_AB, A) = −q_B (Esqué eq. 3.7). Closed "
                    "exactly below cracking unless it has a leakage bore."),
  .ports = ab_ports,
  .n_ports = G_N_ELEMENTS (ab_ports),
  .params = check_params,
  .n_params = G_N_ELEMENTS (check_params),
  .boundary_param = -1,
  .designator = "CV",
  .roles = HYD_ROLE_MAKEUP_VALVE,
  .cracking_param = "cracking_pressure",
  .opening_range_param = "opening_range",
  .setup = check_setup,
  .eval = check_eval,
  .events = check_events,
};

/* ---------------------------------------------------------------------------
 * pilot_check_valve (extension, docs/circuit-format.md)
 * ------------------------------------------------------------------------- */

enum { POCV_A, POCV_B, POCV_X };
enum { POCV_CRACKING, POCV_RANGE, POCV_RATIO, POCV_DIAMETER, POCV_LEAK_DIAMETER };

static const HydPortInfo pocv_ports[] = {
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Inlet (free flow A→B; from the directional valve)") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Outlet (the held load)") },
  { "X", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pilot: pressure here lifts the poppet to let B→A flow") },
};

static const HydParamInfo pocv_params[] = {
  { "cracking_pressure", N_("Cracking pressure"), HYD_UNIT_PRESSURE, 1e5, 0.0, INFINITY, 0, NULL,
    N_("Opening pressure of the poppet: Δp_AB + pilot_ratio·(p_X − p_A) at which it lifts") },
  { "opening_range", N_("Opening range"), HYD_UNIT_PRESSURE, 2e5, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Rise of the opening pressure above cracking that opens the valve fully") },
  { "pilot_ratio", N_("Pilot ratio"), HYD_UNIT_NONE, 3.0, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
    N_("Area of the pilot piston over the area of the poppet seat") },
  { "diameter", N_("Diameter"), HYD_UNIT_LENGTH, 1e-2, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
    N_("Bore when fully open") },
  { "leakage_diameter", N_("Leakage diameter"), HYD_UNIT_LENGTH, 0.0, 0.0, INFINITY, 0, NULL,
    N_("Bore of an always-open leakage path (0 = tight seat)") },
};

/* The opening coordinate of a pilot-assisted seat valve and its partials.
 * Force balance on a poppet of seat area A_s with a pilot piston of area
 * φ·A_s, both backed by the reference port (the static force balance of a
 * poppet valve, e.g. Merritt 1967, *Hydraulic Control Systems*; the pilot
 * ratio φ is the area ratio the makers' data sheets give): the poppet lifts
 * when dp + φ·dpx ≥ cracking, dp the pressure drop across the seat and dpx
 * the pilot pressure over the reference. The pilot piston only pushes, so
 * its term is φ·max(dpx, 0), smoothed as soft_ramp(dpx + ε/2, ε) with
 * ε = 0.01·range: exactly dpx from ε/2 on (so the hand-computed opening
 * pilot pressure holds exactly), 0 below −ε/2.
 * z = (dp + φ·soft_ramp(dpx + ε/2, ε) − cracking)/range; writes ∂z/∂dp and
 * ∂z/∂dpx. */
static double
piloted_seat_z (double dp, double dpx, double phi, double cracking, double range,
                double *dz_ddp, double *dz_ddpx)
{
  double eps = HYD_SMOOTH_EPS * range;
  double dr;
  double pilot = hyd_soft_ramp (dpx + 0.5 * eps, eps, &dr);
  *dz_ddp = 1.0 / range;
  *dz_ddpx = phi * dr / range;
  return (dp + phi * pilot - cracking) / range;
}

/* The pilot-operated check valve: seat drop Δp_AB, pilot p_X − p_A (the
 * pilot piston's back drained to A). */
static double
pocv_z (const HydComp *comp, const double *p, double dz[3])
{
  const double *par = comp->par;
  double dzp, dzx;
  double z = piloted_seat_z (p[POCV_A] - p[POCV_B], p[POCV_X] - p[POCV_A], par[POCV_RATIO],
                             par[POCV_CRACKING], par[POCV_RANGE], &dzp, &dzx);
  if (dz)
    {
      dz[POCV_A] = dzp - dzx;
      dz[POCV_B] = -dzp;
      dz[POCV_X] = dzx;
    }
  return z;
}

static void
pocv_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = pocv_z (comp, in->p, NULL);
}

static gboolean
pocv_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_event (comp, "cracking", N_("the poppet lifts off its seat or seats"));
  return q_opening_setup (comp, error);
}

static void
pocv_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  /* A = open01(z)·πd²/4 + π·d_leak²/4, q_A = orifice(Δp_AB, A) = −q_B,
   * q_X = 0 (the pilot piston's displacement is neglected). */
  const double *par = comp->par;
  HydOrificeCoeffs c = hyd_fluid_orifice_coeffs (comp->fluid, 0.0);
  double dz[3];
  double z = pocv_z (comp, in->p, dz);
  double dqdp, dqdz, frac;
  double q = seat_path_flow (&c, in->p[POCV_A] - in->p[POCV_B], z,
                             circle_area (par[POCV_DIAMETER]),
                             circle_area (par[POCV_LEAK_DIAMETER]), &dqdp, &dqdz, &frac);

  out->q[POCV_A] = q;
  out->q[POCV_B] = -q;
  if (out->jac)
    {
      double d[3] = { dqdp + dqdz * dz[POCV_A], -dqdp + dqdz * dz[POCV_B], dqdz * dz[POCV_X] };
      for (guint k = 0; k < 3; k++)
        {
          HYD_JAC (comp, out, POCV_A, k) = d[k];
          HYD_JAC (comp, out, POCV_B, k) = -d[k];
        }
    }
  if (out->out)
    {
      out->out[0] = q;
      out->out[1] = frac;
    }
}

const HydComponentType hyd_pilot_check_valve_type = {
  .id = "pilot_check_valve",
  .label = N_("Pilot-operated check valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("non-return valve, pilot-operated (check valve with spring, dashed pilot line X to the ball)"),
  .description = N_("Load-holding check valve: free flow A→B; B→A only when the "
                    "pilot pressure at X lifts the poppet. z = (Δp_AB + "
                    "pilot_ratio·max(p_X − p_A, 0) − cracking_pressure)/opening_range "
                    "(the max smoothed over 1 % of opening_range) "
                    "(static force balance on the poppet and its pilot piston, drained "
                    "to A; e.g. Merritt 1967), A = open01(z)·πd²/4 + π·d_leak²/4, "
                    "q_A = orifice(Δp_AB, A) = −q_B (Esqué eq. 3.7), q_X = 0. "
                    "Holding p_B with p_A = 0 it opens at p_X = (p_B + "
                    "cracking_pressure)/pilot_ratio."),
  .ports = pocv_ports,
  .n_ports = G_N_ELEMENTS (pocv_ports),
  .params = pocv_params,
  .n_params = G_N_ELEMENTS (pocv_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .setup = pocv_setup,
  .eval = pocv_eval,
  .events = pocv_events,
};

/* ---------------------------------------------------------------------------
 * sequence_valve (extension, docs/circuit-format.md)
 * ------------------------------------------------------------------------- */

enum { SQ_CRACKING, SQ_RANGE, SQ_DIAMETER };

static const HydPortInfo seq_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Inlet (the first actuator's line; its pressure opens the valve)") },
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Outlet to the second actuator") },
};

static const HydParamInfo seq_params[] = {
  { "cracking_pressure", N_("Cracking pressure"), HYD_UNIT_PRESSURE, 3e6, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Inlet pressure p_P at which the valve starts to open") },
  { "opening_range", N_("Opening range"), HYD_UNIT_PRESSURE, 5e5, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Rise of p_P above cracking that opens the valve fully") },
  { "diameter", N_("Diameter"), HYD_UNIT_LENGTH, 6e-3, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Bore when fully open") },
};

static gboolean
seq_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_event (comp, "cracking", N_("the inlet pressure crosses the cracking pressure: the valve opens or closes"));
  return q_opening_setup (comp, error);
}

static void
seq_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = (in->p[PORT_IN] - comp->par[SQ_CRACKING]) / comp->par[SQ_RANGE];
}

static void
seq_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  /* Direct-acting, pilot from P, spring chamber drained to tank (0 Pa
   * gauge): the spool opens on p_P alone, whatever the outlet pressure.
   * z = (p_P − cracking)/range, A = open01(z)·πd²/4,
   * q_P = orifice(Δp_PA, A) = −q_A. */
  const double *par = comp->par;
  HydOrificeCoeffs c = hyd_fluid_orifice_coeffs (comp->fluid, 0.0);
  double dqdp, dqdz, frac;
  double q = seat_path_flow (&c, in->p[PORT_IN] - in->p[PORT_OUT],
                             (in->p[PORT_IN] - par[SQ_CRACKING]) / par[SQ_RANGE],
                             circle_area (par[SQ_DIAMETER]), 0.0, &dqdp, &dqdz, &frac);

  two_port_write (comp, out, q, dqdp + dqdz / par[SQ_RANGE], -dqdp);
  if (out->out)
    {
      out->out[0] = q;
      out->out[1] = frac;
    }
}

const HydComponentType hyd_sequence_valve_type = {
  .id = "sequence_valve",
  .label = N_("Sequence valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("sequence valve, direct-acting (normally closed square, pilot from P, adjustable spring, drain to tank)"),
  .description = N_("Direct-acting sequence valve P→A: opens when the inlet pressure "
                    "p_P reaches cracking_pressure, so a second actuator at A moves "
                    "only after the first has built that pressure (clamp then work). "
                    "Its spring chamber is drained to tank (0 Pa gauge), so the outlet "
                    "pressure does not move its setting. z = (p_P − cracking_pressure)/"
                    "opening_range, A = open01(z)·πd²/4, q_P = orifice(Δp_PA, A) = −q_A "
                    "(Esqué eq. 3.7). No return check: flow A→P needs its own check valve."),
  .ports = seq_ports,
  .n_ports = G_N_ELEMENTS (seq_ports),
  .params = seq_params,
  .n_params = G_N_ELEMENTS (seq_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .setup = seq_setup,
  .eval = seq_eval,
  .events = seq_events,
};

/* ---------------------------------------------------------------------------
 * one_way_flow_control_valve (extension, docs/circuit-format.md)
 * ------------------------------------------------------------------------- */

enum { OW_MAX_DIAMETER, OW_OPENING, OW_CRACKING, OW_RANGE, OW_CHECK_DIAMETER };

static const HydPortInfo ow_ports[] = {
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Inlet of the throttled direction (A→B throttled)") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Outlet of the throttled direction (B→A free through the check)") },
};

static const HydParamInfo ow_params[] = {
  { "max_diameter", N_("Maximum diameter"), HYD_UNIT_LENGTH, 4e-3, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Bore of the throttle when fully open") },
  { "opening", N_("Opening"), HYD_UNIT_NONE, 1.0, 0.0, 1.0, HYD_PARAM_PROFILE, NULL,
    N_("Needle setting: open area = opening × full area") },
  { "cracking_pressure", N_("Cracking pressure"), HYD_UNIT_PRESSURE, 5e4, 0.0, INFINITY, 0, NULL,
    N_("Δp_BA at which the check valve starts to open") },
  { "opening_range", N_("Opening range"), HYD_UNIT_PRESSURE, 2e5, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Rise of Δp_BA above cracking that opens the check valve fully") },
  { "check_diameter", N_("Check valve diameter"), HYD_UNIT_LENGTH, 1e-2, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Bore of the check valve when fully open") },
};

static const HydVarInfo ow_outputs[] = {
  { "q", HYD_UNIT_FLOW, N_("Flow through the valve, positive from the first port to the second") },
  { "check_opening", HYD_UNIT_NONE, N_("Open-area fraction of the check valve") },
};

static gboolean
ow_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (ow_outputs), ow_outputs);
  hyd_comp_add_event (comp, "cracking", N_("Δp_BA crosses the cracking pressure: the check valve opens or seats"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
ow_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = (in->p[PORT_OUT] - in->p[PORT_IN] - comp->par[OW_CRACKING]) / comp->par[OW_RANGE];
}

static void
ow_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  /* A throttle and a check valve in parallel, each its own orifice:
   * q_A = orifice(Δp_AB, opening·π·max_diameter²/4) − q_chk = −q_B, with
   * q_chk = orifice(Δp_BA, open01((Δp_BA − cracking)/range)·π·check_diameter²/4)
   * the check valve's flow B→A (the check_valve law, turned round). */
  const double *par = comp->par;
  HydOrificeCoeffs c = hyd_fluid_orifice_coeffs (comp->fluid, 0.0);
  double dp = in->p[PORT_IN] - in->p[PORT_OUT];
  double a_thr_full = circle_area (par[OW_MAX_DIAMETER]);
  double dqt_dp, dqt_da;
  double qt = hyd_orifice_flow (&c, dp, par[OW_OPENING] * a_thr_full, &dqt_dp, &dqt_da);
  double dqc_dp, dqc_dz, frac;
  double qc = seat_path_flow (&c, -dp, (-dp - par[OW_CRACKING]) / par[OW_RANGE],
                              circle_area (par[OW_CHECK_DIAMETER]), 0.0, &dqc_dp, &dqc_dz, &frac);
  double q = qt - qc;
  /* ∂qc/∂dp = −(∂qc/∂Δp_BA + ∂qc/∂z/range) */
  double dq = dqt_dp + dqc_dp + dqc_dz / par[OW_RANGE];

  two_port_write (comp, out, q, dq, -dq);
  if (out->q_t)
    {
      double q_t = dqt_da * a_thr_full * comp->par_dt[OW_OPENING];
      out->q_t[PORT_IN] = q_t;
      out->q_t[PORT_OUT] = -q_t;
    }
  if (out->out)
    {
      out->out[0] = q;
      out->out[1] = frac;
    }
}

const HydComponentType hyd_one_way_flow_control_valve_type = {
  .id = "one_way_flow_control_valve",
  .label = N_("One-way flow control valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("one-way flow control valve (adjustable throttle with a check valve in parallel, free flow B→A)"),
  .description = N_("Throttle and check valve in one body: throttled A→B, free B→A "
                    "(meter-in or meter-out speed control). q_A = orifice(Δp_AB, "
                    "opening·π·max_diameter²/4) − q_chk = −q_B, q_chk = "
                    "orifice(Δp_BA, open01((Δp_BA − cracking_pressure)/opening_range)·"
                    "π·check_diameter²/4) (Esqué eq. 3.7)."),
  .ports = ow_ports,
  .n_ports = G_N_ELEMENTS (ow_ports),
  .params = ow_params,
  .n_params = G_N_ELEMENTS (ow_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .setup = ow_setup,
  .eval = ow_eval,
  .events = ow_events,
};

/* ---------------------------------------------------------------------------
 * shuttle_valve (extension, docs/circuit-format.md)
 * ------------------------------------------------------------------------- */

enum { SH_A, SH_B, SH_C };
enum { SH_DIAMETER, SH_SWITCHING };

static const HydPortInfo shuttle_ports[] = {
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("First inlet") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Second inlet") },
  { "C", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Outlet, fed by the higher of A and B") },
};

static const HydParamInfo shuttle_params[] = {
  { "diameter", N_("Diameter"), HYD_UNIT_LENGTH, 6e-3, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
    N_("Bore of each inlet's path when fully open") },
  { "switching_pressure", N_("Switching pressure"), HYD_UNIT_PRESSURE, 1e5, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL,
    N_("Δp_AB over which the ball crosses from one seat to the other") },
};

static const HydVarInfo shuttle_outputs[] = {
  { "q_A", HYD_UNIT_FLOW, N_("Flow in at A (to C)") },
  { "q_B", HYD_UNIT_FLOW, N_("Flow in at B (to C)") },
  { "position", HYD_UNIT_NONE, N_("Ball position: 1 seated on B (A feeds C), 0 seated on A (B feeds C)") },
};

static gboolean
shuttle_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (shuttle_outputs), shuttle_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
shuttle_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  /* The ball's position s = open01(Δp_AB/switching_pressure + ½): exactly 1
   * (A→C open, B closed) from Δp_AB = switching/2 on, exactly 0 below
   * −switching/2, ½ at Δp_AB = 0. q_A = orifice(Δp_AC, s·πd²/4),
   * q_B = orifice(Δp_BC, (1 − s)·πd²/4), q_C = −(q_A + q_B). */
  const double *p = in->p;
  const double *par = comp->par;
  HydOrificeCoeffs c = hyd_fluid_orifice_coeffs (comp->fluid, 0.0);
  double a = circle_area (par[SH_DIAMETER]);
  double ps = par[SH_SWITCHING];
  double dsv;
  double s = hyd_open01 ((p[SH_A] - p[SH_B]) / ps + 0.5, HYD_SMOOTH_EPS, &dsv);
  double ds = dsv / ps; /* ∂s/∂p_A = −∂s/∂p_B */
  double dqa_dp, dqa_da, dqb_dp, dqb_da;
  double qa = hyd_orifice_flow (&c, p[SH_A] - p[SH_C], s * a, &dqa_dp, &dqa_da);
  double qb = hyd_orifice_flow (&c, p[SH_B] - p[SH_C], (1.0 - s) * a, &dqb_dp, &dqb_da);

  out->q[SH_A] = qa;
  out->q[SH_B] = qb;
  out->q[SH_C] = -(qa + qb);
  if (out->jac)
    {
      double ja[3] = { dqa_dp + dqa_da * a * ds, -dqa_da * a * ds, -dqa_dp };
      double jb[3] = { -dqb_da * a * ds, dqb_dp + dqb_da * a * ds, -dqb_dp };
      for (guint k = 0; k < 3; k++)
        {
          HYD_JAC (comp, out, SH_A, k) = ja[k];
          HYD_JAC (comp, out, SH_B, k) = jb[k];
          HYD_JAC (comp, out, SH_C, k) = -(ja[k] + jb[k]);
        }
    }
  if (out->out)
    {
      out->out[0] = qa;
      out->out[1] = qb;
      out->out[2] = s;
    }
}

const HydComponentType hyd_shuttle_valve_type = {
  .id = "shuttle_valve",
  .label = N_("Shuttle valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("shuttle valve (OR function: ball between two seats, outlet between them)"),
  .description = N_("Shuttle valve: the higher of the pressures at A and B feeds C, "
                    "the other inlet is closed by the ball. s = open01(Δp_AB/"
                    "switching_pressure + ½) (exactly 1 from Δp_AB = "
                    "switching_pressure/2 on, ½ at Δp_AB = 0), q_A = orifice(Δp_AC, "
                    "s·πd²/4), q_B = orifice(Δp_BC, (1 − s)·πd²/4), q_C = −(q_A + q_B) "
                    "(Esqué eq. 3.7)."),
  .ports = shuttle_ports,
  .n_ports = G_N_ELEMENTS (shuttle_ports),
  .params = shuttle_params,
  .n_params = G_N_ELEMENTS (shuttle_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .setup = shuttle_setup,
  .eval = shuttle_eval,
};

/* ---------------------------------------------------------------------------
 * counterbalance_valve (extension, docs/circuit-format.md)
 * ------------------------------------------------------------------------- */

enum { CB_A, CB_B, CB_X };
enum { CB_CRACKING, CB_RANGE, CB_RATIO, CB_DIAMETER, CB_CHECK_CRACKING, CB_CHECK_RANGE,
       CB_CHECK_DIAMETER };

static const HydPortInfo cb_ports[] = {
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Valve side (to the directional valve)") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Load side (the cylinder or motor port that holds the load)") },
  { "X", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pilot, from the opposite actuator line") },
};

static const HydParamInfo cb_params[] = {
  { "cracking_pressure", N_("Cracking pressure"), HYD_UNIT_PRESSURE, 1.2e7, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL,
    N_("Setting: Δp_BA + pilot_ratio·(p_X − p_A) at which the relief path opens") },
  { "opening_range", N_("Opening range"), HYD_UNIT_PRESSURE, 1e6, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Rise of the opening pressure above the setting that opens the relief path fully") },
  { "pilot_ratio", N_("Pilot ratio"), HYD_UNIT_NONE, 3.0, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
    N_("Area of the pilot piston over the area of the poppet seat") },
  { "diameter", N_("Diameter"), HYD_UNIT_LENGTH, 6e-3, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
    N_("Bore of the relief path B→A when fully open") },
  { "check_cracking_pressure", N_("Check valve cracking pressure"), HYD_UNIT_PRESSURE, 5e4, 0.0, INFINITY,
    0, NULL, N_("Δp_AB at which the check valve starts to open") },
  { "check_opening_range", N_("Check valve opening range"), HYD_UNIT_PRESSURE, 2e5, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Rise of Δp_AB above cracking that opens the check valve fully") },
  { "check_diameter", N_("Check valve diameter"), HYD_UNIT_LENGTH, 1e-2, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Bore of the check valve when fully open") },
};

static const HydVarInfo cb_outputs[] = {
  { "q", HYD_UNIT_FLOW, N_("Flow through the valve, positive from the first port to the second") },
  { "opening", HYD_UNIT_NONE, N_("Open-area fraction of the relief path B→A") },
  { "check_opening", HYD_UNIT_NONE, N_("Open-area fraction of the check valve") },
};

static gboolean
cb_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (cb_outputs), cb_outputs);
  hyd_comp_add_event (comp, "cracking", N_("the relief path B→A starts to open or closes"));
  hyd_comp_add_event (comp, "check cracking", N_("Δp_AB crosses the check valve's cracking pressure"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

/* The relief path's opening coordinate: seat drop Δp_BA, pilot p_X − p_A
 * (spring chamber and pilot piston's back at A, the usual non-vented
 * valve, so back pressure at A adds (1 + φ)·p_A to the setting). */
static double
cb_relief_z (const HydComp *comp, const double *p, double dz[3])
{
  const double *par = comp->par;
  double dzp, dzx;
  double z = piloted_seat_z (p[CB_B] - p[CB_A], p[CB_X] - p[CB_A], par[CB_RATIO],
                             par[CB_CRACKING], par[CB_RANGE], &dzp, &dzx);
  if (dz)
    {
      dz[CB_A] = -dzp - dzx;
      dz[CB_B] = dzp;
      dz[CB_X] = dzx;
    }
  return z;
}

static void
cb_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = cb_relief_z (comp, in->p, NULL);
  g[1] = (in->p[CB_A] - in->p[CB_B] - comp->par[CB_CHECK_CRACKING]) / comp->par[CB_CHECK_RANGE];
}

static void
cb_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  /* A check valve A→B (the check_valve law) in parallel with a
   * pilot-assisted relief path B→A: q_A = q_chk − q_rel = −q_B, q_X = 0,
   * q_chk = orifice(Δp_AB, open01((Δp_AB − check_cracking)/check_range)·A_chk),
   * q_rel = orifice(Δp_BA, open01(z)·πd²/4),
   * z = (Δp_BA + φ·max(p_X − p_A, 0) − cracking)/range. */
  const double *p = in->p;
  const double *par = comp->par;
  HydOrificeCoeffs c = hyd_fluid_orifice_coeffs (comp->fluid, 0.0);
  double dp = p[CB_A] - p[CB_B];
  double dqc_dp, dqc_dz, fc;
  double qc = seat_path_flow (&c, dp, (dp - par[CB_CHECK_CRACKING]) / par[CB_CHECK_RANGE],
                              circle_area (par[CB_CHECK_DIAMETER]), 0.0, &dqc_dp, &dqc_dz, &fc);
  double dz[3];
  double z = cb_relief_z (comp, p, dz);
  double dqr_dp, dqr_dz, fr;
  double qr = seat_path_flow (&c, -dp, z, circle_area (par[CB_DIAMETER]), 0.0, &dqr_dp, &dqr_dz, &fr);

  out->q[CB_A] = qc - qr;
  out->q[CB_B] = qr - qc;
  if (out->jac)
    {
      /* ∂q_chk/∂Δp_AB in full, then by the chain rule to each pressure */
      double dqc = dqc_dp + dqc_dz / par[CB_CHECK_RANGE];
      double d[3] = {
        dqc + dqr_dp - dqr_dz * dz[CB_A],
        -dqc - dqr_dp - dqr_dz * dz[CB_B],
        -dqr_dz * dz[CB_X],
      };
      for (guint k = 0; k < 3; k++)
        {
          HYD_JAC (comp, out, CB_A, k) = d[k];
          HYD_JAC (comp, out, CB_B, k) = -d[k];
        }
    }
  if (out->out)
    {
      out->out[0] = qc - qr;
      out->out[1] = fr;
      out->out[2] = fc;
    }
}

const HydComponentType hyd_counterbalance_valve_type = {
  .id = "counterbalance_valve",
  .label = N_("Counterbalance valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("counterbalance (over-centre) valve: relief valve B→A with internal pilot from B and external pilot X, check valve A→B in parallel, in a chain frame"),
  .description = N_("Over-centre valve holding an overrunning load: free flow A→B through "
                    "a check valve; B→A through a relief path that the load pressure and "
                    "the pilot X (the opposite line) open together. z = (Δp_BA + "
                    "pilot_ratio·max(p_X − p_A, 0) − cracking_pressure)/opening_range "
                    "(static force balance on the poppet and its pilot piston, both "
                    "backed by A; e.g. Merritt 1967), q_A = q_chk − orifice(Δp_BA, "
                    "open01(z)·πd²/4) = −q_B, q_X = 0, q_chk the check_valve law A→B "
                    "(Esqué eq. 3.7). With p_A = 0 it lowers a load p_B once p_X = "
                    "(cracking_pressure − p_B)/pilot_ratio."),
  .ports = cb_ports,
  .n_ports = G_N_ELEMENTS (cb_ports),
  .params = cb_params,
  .n_params = G_N_ELEMENTS (cb_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  /* the load pressure it holds can be the highest in the circuit */
  .scale_param = "cracking_pressure",
  .setup = cb_setup,
  .eval = cb_eval,
  .events = cb_events,
};

/* ---------------------------------------------------------------------------
 * filter (extension, docs/circuit-format.md)
 * ------------------------------------------------------------------------- */

enum { FI_NOMINAL_FLOW, FI_DROP, FI_CLOGGING, FI_INDICATOR };

static const HydParamInfo filter_params[] = {
  { "nominal_flow", N_("Nominal flow"), HYD_UNIT_FLOW, 100e-3 / 60.0 /* 100 L/min */, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Rated flow of the clean element") },
  { "nominal_pressure_drop", N_("Nominal pressure drop"), HYD_UNIT_PRESSURE, 5e4, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Pressure drop of the clean element at the nominal flow") },
  { "clogging", N_("Clogging"), HYD_UNIT_NONE, 0.0, 0.0, 1.0,
    HYD_PARAM_PROFILE | HYD_PARAM_MAX_EXCLUSIVE, NULL,
    N_("Blocked fraction of the element: the resistance is divided by (1 − clogging)") },
  { "indicator_pressure", N_("Indicator pressure"), HYD_UNIT_PRESSURE, 2e5, 0.0, INFINITY,
    HYD_PARAM_OPTIONAL | HYD_PARAM_MIN_EXCLUSIVE, NULL,
    N_("Pressure drop at which the clogging indicator shows (unset = no indicator)") },
};

static const HydVarInfo filter_outputs[] = {
  { "q", HYD_UNIT_FLOW, N_("Flow through the filter, positive from A to B") },
  { "dp", HYD_UNIT_PRESSURE, N_("Pressure drop across the element, p_A − p_B") },
  { "indicator", HYD_UNIT_NONE, N_("1 while the pressure drop is at or above the indicator pressure, else 0") },
};

static gboolean
filter_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (filter_outputs), filter_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
filter_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  /* Laminar flow through the porous element (Darcy's law: the drop is
   * proportional to the flow): q_A = G·Δp_AB = −q_B with the conductance
   * G = (1 − clogging)·nominal_flow/nominal_pressure_drop. */
  const double *par = comp->par;
  double g0 = par[FI_NOMINAL_FLOW] / par[FI_DROP];
  double g = (1.0 - par[FI_CLOGGING]) * g0;
  double dp = in->p[PORT_IN] - in->p[PORT_OUT];
  double q = g * dp;

  two_port_write (comp, out, q, g, -g);
  if (out->q_t)
    {
      double q_t = -g0 * dp * comp->par_dt[FI_CLOGGING];
      out->q_t[PORT_IN] = q_t;
      out->q_t[PORT_OUT] = -q_t;
    }
  if (out->out)
    {
      out->out[0] = q;
      out->out[1] = dp;
      out->out[2] = !isnan (par[FI_INDICATOR]) && dp >= par[FI_INDICATOR];
    }
}

const HydComponentType hyd_filter_type = {
  .id = "filter",
  .label = N_("Filter"),
  .category = HYD_CATEGORY_STORAGE,
  .iso_symbol = N_("filter (square standing on a corner with the element dashed across the flow)"),
  .description = N_("Filter with a laminar pressure drop (Darcy's law: drop ∝ flow): "
                    "q_A = (1 − clogging)·(nominal_flow/nominal_pressure_drop)·Δp_AB = "
                    "−q_B, so the clean element drops nominal_pressure_drop at "
                    "nominal_flow and a half-clogged one twice as much. The optional "
                    "indicator shows while Δp_AB ≥ indicator_pressure. The rated drop is "
                    "taken at the run's fluid: the law does not follow viscosity."),
  .ports = ab_ports,
  .n_ports = G_N_ELEMENTS (ab_ports),
  .params = filter_params,
  .n_params = G_N_ELEMENTS (filter_params),
  .boundary_param = -1,
  .designator = "F",
  .roles = HYD_ROLE_CONDUIT,
  .setup = filter_setup,
  .eval = filter_eval,
};

/* ---------------------------------------------------------------------------
 * cooler (extension, docs/circuit-format.md)
 * ------------------------------------------------------------------------- */

enum { CO_NOMINAL_FLOW, CO_DROP, CO_LAW, CO_HEAT, CO_NTU };

static const char *const cooler_law_choices[] = { N_("laminar"), N_("turbulent"), NULL };

static const HydParamInfo cooler_params[] = {
  { "nominal_flow", N_("Nominal flow"), HYD_UNIT_FLOW, 100e-3 / 60.0 /* 100 L/min */, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Rated oil flow of the cooler") },
  { "nominal_pressure_drop", N_("Nominal pressure drop"), HYD_UNIT_PRESSURE, 1e5, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Oil-side pressure drop at the nominal flow") },
  { "pressure_drop_law", N_("Pressure-drop law"), HYD_UNIT_NONE, 0.0, 0.0, 1.0, HYD_PARAM_ENUM,
    cooler_law_choices,
    N_("laminar (drop ∝ flow, as a filter) or turbulent (the orifice law, drop ∝ flow²)") },
  { "rated_heat_rejection", N_("Rated heat rejection"), HYD_UNIT_POWER, 0.0, 0.0, INFINITY, 0, NULL,
    N_("Heat the cooler removes at the nominal flow and its rated inlet temperature difference") },
  { "nominal_ntu", N_("Nominal NTU"), HYD_UNIT_NONE, 1.0, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
    N_("Number of transfer units UA/(ρ·c_p·q) of the oil side at the nominal flow") },
};

static const HydVarInfo cooler_outputs[] = {
  { "q", HYD_UNIT_FLOW, N_("Flow through the cooler, positive from A to B") },
  { "dp", HYD_UNIT_PRESSURE, N_("Pressure drop across the cooler, p_A − p_B") },
  { "heat", HYD_UNIT_POWER, N_("Heat removed from the oil at the rated inlet temperature difference") },
};

static gboolean
cooler_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (cooler_outputs), cooler_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

/* Heat removed at flow q: an exchanger whose coolant side does not warm up
 * (C_r = 0) has the effectiveness ε = 1 − e^(−NTU) (Incropera & DeWitt,
 * Fundamentals of Heat and Mass Transfer, 6th ed., 2007, §11.4, eq. 11.36a),
 * NTU = UA/C_oil ∝ 1/|q|, and removes Q = ε·C_oil·ΔT_in with C_oil ∝ |q|.
 * At the rated ΔT_in, relative to the nominal flow (r = |q|/q_nom):
 * Q = Q_rated·r·(1 − e^(−NTU_nom/r))/(1 − e^(−NTU_nom)). */
static double
cooler_heat (const double *par, double q)
{
  double r = fabs (q) / par[CO_NOMINAL_FLOW];
  double ntu = par[CO_NTU];
  if (r <= 0.0 || par[CO_HEAT] <= 0.0)
    return 0.0;
  return par[CO_HEAT] * r * -expm1 (-ntu / r) / -expm1 (-ntu);
}

static void
cooler_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  const double *par = comp->par;
  double dp = in->p[PORT_IN] - in->p[PORT_OUT];
  double q, dq0, dq1;

  if ((int) par[CO_LAW] == 1)
    {
      /* turbulent: the project's orifice law (Esqué 2008, eq. 3.7) with the
       * area that passes nominal_flow at nominal_pressure_drop */
      HydOrificeCoeffs c = hyd_fluid_orifice_coeffs (comp->fluid, 0.0);
      double a = hyd_orifice_nominal_area (&c, par[CO_NOMINAL_FLOW], par[CO_DROP]);
      double dqdp, dqda;
      q = hyd_orifice_flow (&c, dp, a, &dqdp, &dqda);
      dq0 = dqdp;
      dq1 = -dqdp;
    }
  else
    {
      /* laminar: q = (nominal_flow/nominal_pressure_drop)·Δp_AB */
      double g = par[CO_NOMINAL_FLOW] / par[CO_DROP];
      q = g * dp;
      dq0 = g;
      dq1 = -g;
    }
  two_port_write (comp, out, q, dq0, dq1);
  if (out->out)
    {
      out->out[0] = q;
      out->out[1] = dp;
      out->out[2] = cooler_heat (par, q);
    }
}

const HydComponentType hyd_cooler_type = {
  .id = "cooler",
  .label = N_("Cooler"),
  .category = HYD_CATEGORY_STORAGE,
  .iso_symbol = N_("cooler (square standing on a corner with a line across the flow, its arrowheads pointing out: heat removed)"),
  .description = N_("Oil cooler: its oil side drops nominal_pressure_drop at nominal_flow, "
                    "laminar q_A = (nominal_flow/nominal_pressure_drop)·Δp_AB = −q_B (as a "
                    "filter) or turbulent on the orifice law (Esqué eq. 3.7). The output heat "
                    "is the heat removed at the rated inlet temperature difference: a coolant "
                    "that does not warm up gives ε = 1 − e^(−NTU) (Incropera & DeWitt 2007, "
                    "eq. 11.36a), so heat = rated_heat_rejection·r·(1 − e^(−NTU_nom/r))/"
                    "(1 − e^(−NTU_nom)) with r = |q|/nominal_flow. The run is isothermal: the "
                    "heat is reported, not fed back to the fluid."),
  .ports = ab_ports,
  .n_ports = G_N_ELEMENTS (ab_ports),
  .params = cooler_params,
  .n_params = G_N_ELEMENTS (cooler_params),
  .boundary_param = -1,
  .designator = "HE",
  .roles = HYD_ROLE_CONDUIT,
  .setup = cooler_setup,
  .eval = cooler_eval,
};

/* ---------------------------------------------------------------------------
 * accumulator_safety_block (extension, docs/circuit-format.md)
 * ------------------------------------------------------------------------- */

enum {
  SB_NOMINAL_FLOW,
  SB_NOMINAL_DP,
  SB_SHUTOFF,
  SB_DISCHARGE,
  SB_DISCHARGE_FLOW,
  SB_CRACKING,
  SB_OVERRIDE,
  SB_RELIEF_FLOW,
};
enum { SB_P, SB_A, SB_T };

static const HydPortInfo sb_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("System (pump) line") },
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Accumulator") },
  { "T", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Tank") },
};

static const HydParamInfo sb_params[] = {
  { "nominal_flow", N_("Nominal flow"), HYD_UNIT_FLOW, 40e-3 / 60.0 /* 40 L/min */, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Flow of the open shut-off valve at the nominal pressure drop") },
  { "nominal_pressure_drop", N_("Nominal pressure drop"), HYD_UNIT_PRESSURE, 5e5, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL,
    N_("Pressure drop at which the open shut-off and discharge valves pass their nominal flows") },
  { "shutoff_opening", N_("Shut-off valve opening"), HYD_UNIT_NONE, 1.0, 0.0, 1.0, HYD_PARAM_PROFILE, NULL,
    N_("Main shut-off valve between P and A: 1 open, 0 shut") },
  { "discharge_opening", N_("Discharge valve opening"), HYD_UNIT_NONE, 0.0, 0.0, 1.0, HYD_PARAM_PROFILE, NULL,
    N_("Manual discharge valve from A to tank: 0 shut, 1 open") },
  { "discharge_nominal_flow", N_("Discharge nominal flow"), HYD_UNIT_FLOW, 10e-3 / 60.0 /* 10 L/min */, 0.0,
    INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
    N_("Flow of the open discharge valve at the nominal pressure drop") },
  { "cracking_pressure", N_("Cracking pressure"), HYD_UNIT_PRESSURE, 2e7, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Δp_AT at which the accumulator's relief valve starts to open") },
  { "override_pressure", N_("Override pressure"), HYD_UNIT_PRESSURE, 1e6, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Rise of Δp_AT above cracking that passes the relief nominal flow") },
  { "relief_nominal_flow", N_("Relief nominal flow"), HYD_UNIT_FLOW, 20e-3 / 60.0 /* 20 L/min */, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Flow of the relief valve at cracking + override pressure") },
};

static const HydVarInfo sb_outputs[] = {
  { "q_PA", HYD_UNIT_FLOW, N_("Flow through the shut-off valve, positive from P to A") },
  { "q_relief", HYD_UNIT_FLOW, N_("Flow through the relief valve from A to tank") },
  { "q_discharge", HYD_UNIT_FLOW, N_("Flow through the discharge valve from A to tank") },
  { "relief_opening", HYD_UNIT_NONE, N_("Open-area fraction of the relief valve") },
};

static gboolean
sb_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (sb_outputs), sb_outputs);
  hyd_comp_add_event (comp, "cracking", N_("the relief valve starts to open or closes"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
sb_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = (in->p[SB_A] - in->p[SB_T] - comp->par[SB_CRACKING]) / comp->par[SB_OVERRIDE];
}

/* A path X→Y of the block: the orifice law with q, ∂q/∂p_X (= −∂q/∂p_Y) and
 * ∂q/∂t through a profile opening; added to the port rows. */
static void
sb_path (const HydComp *comp, HydEvalOut *out, guint x, guint y, double q, double dq, double q_t)
{
  guint nl = hyd_comp_n_local (comp);
  out->q[x] += q;
  out->q[y] -= q;
  if (out->jac)
    {
      out->jac[x * nl + x] += dq;
      out->jac[x * nl + y] -= dq;
      out->jac[y * nl + x] -= dq;
      out->jac[y * nl + y] += dq;
    }
  if (out->q_t)
    {
      out->q_t[x] += q_t;
      out->q_t[y] -= q_t;
    }
}

static void
sb_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  /* Three valves in one block: the shut-off valve P–A and the discharge
   * valve A–T are orifices of area open01(opening)·A_nom; the relief valve
   * A–T is the static relief_valve law, A = soft_ramp(z, 0.01)·A_r with
   * z = (Δp_AT − cracking)/override (Esqué 2008, eq. 3.7 for every path). */
  const double *par = comp->par;
  HydOrificeCoeffs c = hyd_fluid_orifice_coeffs (comp->fluid, 0.0);
  double dqdp, dqda, d;

  /* shut-off valve */
  double a_s = hyd_orifice_nominal_area (&c, par[SB_NOMINAL_FLOW], par[SB_NOMINAL_DP]);
  double f_s = hyd_open01 (par[SB_SHUTOFF], HYD_SMOOTH_EPS, &d);
  double q_pa = hyd_orifice_flow (&c, in->p[SB_P] - in->p[SB_A], f_s * a_s, &dqdp, &dqda);
  sb_path (comp, out, SB_P, SB_A, q_pa, dqdp, dqda * a_s * d * comp->par_dt[SB_SHUTOFF]);

  /* discharge valve */
  double dp_at = in->p[SB_A] - in->p[SB_T];
  double a_d = hyd_orifice_nominal_area (&c, par[SB_DISCHARGE_FLOW], par[SB_NOMINAL_DP]);
  double f_d = hyd_open01 (par[SB_DISCHARGE], HYD_SMOOTH_EPS, &d);
  double q_dis = hyd_orifice_flow (&c, dp_at, f_d * a_d, &dqdp, &dqda);
  sb_path (comp, out, SB_A, SB_T, q_dis, dqdp, dqda * a_d * d * comp->par_dt[SB_DISCHARGE]);

  /* relief valve: A_r passes relief_nominal_flow at cracking + override */
  double po = par[SB_OVERRIDE];
  double a_r = hyd_orifice_nominal_area (&c, par[SB_RELIEF_FLOW], par[SB_CRACKING] + po);
  double z = (dp_at - par[SB_CRACKING]) / po;
  double open = hyd_soft_ramp (z, HYD_SMOOTH_EPS, &d);
  double q_rel = hyd_orifice_flow (&c, dp_at, open * a_r, &dqdp, &dqda);
  sb_path (comp, out, SB_A, SB_T, q_rel, dqdp + dqda * a_r * d / po, 0.0);

  if (out->out)
    {
      out->out[0] = q_pa;
      out->out[1] = q_rel;
      out->out[2] = q_dis;
      out->out[3] = open;
    }
}

const HydComponentType hyd_accumulator_safety_block_type = {
  .id = "accumulator_safety_block",
  .label = N_("Accumulator safety block"),
  .category = HYD_CATEGORY_STORAGE,
  .iso_symbol = N_("accumulator safety and shut-off block (chain-line enclosure holding a shut-off valve P–A, a relief valve A–T and a discharge shut-off valve A–T)"),
  .description = N_("Accumulator safety and shut-off block (isolation, pressure limitation "
                    "and discharge, as ISO 4413:2010 asks of accumulator circuits): a "
                    "shut-off valve between the system P and the "
                    "accumulator A, a pressure-relief valve from A to tank and a manual "
                    "discharge valve from A to tank in one body. Shut-off and discharge are "
                    "orifices of area open01(opening)·A_nom (nominal_flow, resp. "
                    "discharge_nominal_flow, at nominal_pressure_drop); the relief valve is "
                    "the static relief_valve law A = soft_ramp(z, 0.01)·A_r, z = (Δp_AT − "
                    "cracking_pressure)/override_pressure, A_r passing relief_nominal_flow at "
                    "cracking + override; every path the orifice law (Esqué eq. 3.7)."),
  .ports = sb_ports,
  .n_ports = G_N_ELEMENTS (sb_ports),
  .params = sb_params,
  .n_params = G_N_ELEMENTS (sb_params),
  .boundary_param = -1,
  .designator = "SB",
  .roles = 0,
  /* the accumulator pressure it allows can be the highest in the circuit */
  .scale_param = "cracking_pressure",
  .setup = sb_setup,
  .eval = sb_eval,
  .events = sb_events,
};

/* ---------------------------------------------------------------------------
 * relief_valve
 * ------------------------------------------------------------------------- */

enum { RV_CRACKING, RV_OVERRIDE, RV_NOMINAL_FLOW, RV_OMEGA, RV_ZETA, RV_MAX_OPENING };
enum { RV_S, RV_SDOT };

static const HydPortInfo relief_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Inlet (protected line)") },
  { "T", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Outlet to tank") },
};

static const HydParamInfo relief_params[] = {
  { "cracking_pressure", N_("Cracking pressure"), HYD_UNIT_PRESSURE, 1e7, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Δp_PT at which the valve starts to open") },
  { "override_pressure", N_("Override pressure"), HYD_UNIT_PRESSURE, 1e6, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Rise of Δp_PT above cracking that passes the nominal flow") },
  { "nominal_flow", N_("Nominal flow"), HYD_UNIT_FLOW, 100e-3 / 60.0 /* 100 L/min */, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Flow at cracking + override pressure") },
  { "natural_frequency", N_("Natural frequency"), HYD_UNIT_FREQUENCY, 0.0, 0.0, INFINITY, 0, NULL,
    N_("Poppet natural frequency ω (0 = static valve, no states)") },
  { "damping_ratio", N_("Damping ratio"), HYD_UNIT_NONE, 0.7, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Poppet damping ratio ζ (dynamic valve)") },
  /* extension (docs/circuit-format.md): unset keeps the contract's valve */
  { "max_opening", N_("Maximum opening"), HYD_UNIT_NONE, 1.0, 1.0, INFINITY, HYD_PARAM_OPTIONAL, NULL,
    N_("Largest opening A/A_nom the poppet reaches (unset = not limited)") },
};

static const HydVarInfo relief_states[] = {
  { "s", HYD_UNIT_NONE, N_("Poppet opening coordinate (area = soft_ramp(s)·A_nom)") },
  { "sdot", HYD_UNIT_FLOW_RATE_PER_S, N_("Rate of the opening coordinate") },
};

static const HydVarInfo relief_outputs[] = {
  { "q", HYD_UNIT_FLOW, N_("Relieved flow P→T") },
  { "opening", HYD_UNIT_NONE, N_("Opening A/A_nom") },
};

static gboolean
relief_is_dynamic (const HydComp *comp)
{
  return comp->par[RV_OMEGA] > 0.0;
}

static gboolean
relief_setup (HydComp *comp, GError **error)
{
  if (relief_is_dynamic (comp))
    hyd_comp_set_states (comp, G_N_ELEMENTS (relief_states), relief_states);
  else
    hyd_comp_set_states (comp, 0, NULL);
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (relief_outputs), relief_outputs);
  hyd_comp_add_event (comp, "cracking", N_("the valve starts to open or closes"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

/* Static valve: z = (Δp_PT − cracking)/override crosses 0; dynamic valve:
 * the opening state s crosses 0 (A = soft_ramp(s)·A_nom starts there). */
static void
relief_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  if (relief_is_dynamic (comp))
    g[0] = in->x[RV_S];
  else
    g[0] = (in->p[PORT_IN] - in->p[PORT_OUT] - comp->par[RV_CRACKING]) / comp->par[RV_OVERRIDE];
}

/* σ(z) = soft_ramp(z + 0.1, 0.1) − 0.05: the dynamic valve's rest opening,
 * chosen so that soft_ramp(σ(z), 0.01) = soft_ramp(z, 0.01) for every z
 * (σ = z for z ≥ 0, σ ≤ 0 for z ≤ 0): its equilibrium is the static valve. */
static double
relief_sigma (double z, double *dsigma)
{
  return hyd_soft_ramp (z + 0.1, 0.1, dsigma) - 0.05;
}

static void
relief_init_states (const HydComp *comp, const double *p0, double *x0)
{
  if (!relief_is_dynamic (comp))
    return;
  /* components.md: s = σ(z(0)), ṡ = 0 */
  double z = (p0[PORT_IN] - p0[PORT_OUT] - comp->par[RV_CRACKING]) / comp->par[RV_OVERRIDE];
  x0[RV_S] = relief_sigma (z, NULL);
  x0[RV_SDOT] = 0.0;
}

/* The open-area fraction of an opening coordinate x: soft_ramp(x, 0.01), and
 * with max_opening M set, soft_ramp(x, 0.01) − soft_ramp(x − M, 0.01), which
 * is the same up to x = M and exactly M from x = M + 0.01 on (C¹). */
static double
relief_area_fraction (const HydComp *comp, double x, double *d_dx)
{
  double d1, d2;
  double v = hyd_soft_ramp (x, HYD_SMOOTH_EPS, &d1);
  double m = comp->par[RV_MAX_OPENING];
  if (isnan (m))
    {
      *d_dx = d1;
      return v;
    }
  v -= hyd_soft_ramp (x - m, HYD_SMOOTH_EPS, &d2);
  *d_dx = d1 - d2;
  return v;
}

static void
relief_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  const double *par = comp->par;
  HydOrificeCoeffs c = hyd_fluid_orifice_coeffs (comp->fluid, 0.0);
  double po = par[RV_OVERRIDE];
  /* components.md: A_nom passes nominal_flow at Δp_nom = cracking + override. */
  double a_nom = hyd_orifice_nominal_area (&c, par[RV_NOMINAL_FLOW], par[RV_CRACKING] + po);
  double dp = in->p[PORT_IN] - in->p[PORT_OUT];
  double z = (dp - par[RV_CRACKING]) / po;
  double dqdp, dqda, dopen;

  if (!relief_is_dynamic (comp))
    {
      /* Static: A = soft_ramp(z, 0.01)·A_nom, not limited above unless
       * max_opening is set (extension). */
      double open = relief_area_fraction (comp, z, &dopen);
      double q = hyd_orifice_flow (&c, dp, open * a_nom, &dqdp, &dqda);
      double dq = dqdp + dqda * a_nom * dopen / po;
      two_port_write (comp, out, q, dq, -dq);
      if (out->out)
        {
          out->out[0] = q;
          out->out[1] = open;
        }
      return;
    }

  /* Dynamic (Esqué 2008, §3.2.4, eqs. 3.8–3.9, after Handroos–Vilenius; recast as a
   * second-order poppet on the opening coordinate):
   * s̈ = ω²·(σ(z) − s) − 2ζω·ṡ, A = soft_ramp(s, 0.01)·A_nom. */
  double w = par[RV_OMEGA];
  double zeta = par[RV_ZETA];
  double s = in->x[RV_S];
  double sdot = in->x[RV_SDOT];
  double dsigma;
  double sigma = relief_sigma (z, &dsigma);
  double open = relief_area_fraction (comp, s, &dopen);
  double q = hyd_orifice_flow (&c, dp, open * a_nom, &dqdp, &dqda);
  guint np = comp->type->n_ports;

  two_port_write (comp, out, q, dqdp, -dqdp);
  out->xdot[RV_S] = sdot;
  out->xdot[RV_SDOT] = w * w * (sigma - s) - 2.0 * zeta * w * sdot;
  if (out->jac)
    {
      double dq_ds = dqda * a_nom * dopen;
      double dacc_dp = w * w * dsigma / po;
      HYD_JAC (comp, out, PORT_IN, np + RV_S) = dq_ds;
      HYD_JAC (comp, out, PORT_OUT, np + RV_S) = -dq_ds;
      HYD_JAC (comp, out, np + RV_S, np + RV_SDOT) = 1.0;
      HYD_JAC (comp, out, np + RV_SDOT, PORT_IN) = dacc_dp;
      HYD_JAC (comp, out, np + RV_SDOT, PORT_OUT) = -dacc_dp;
      HYD_JAC (comp, out, np + RV_SDOT, np + RV_S) = -w * w;
      HYD_JAC (comp, out, np + RV_SDOT, np + RV_SDOT) = -2.0 * zeta * w;
    }
  if (out->out)
    {
      out->out[0] = q;
      out->out[1] = open;
    }
}

const HydComponentType hyd_relief_valve_type = {
  .id = "relief_valve",
  .label = N_("Pressure relief valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("pressure relief valve, direct-acting (normally closed square, arrow offset, adjustable spring, pilot from P)"),
  .description = N_("Direct-acting relief valve P→T. z = (Δp_PT − cracking)/override; "
                    "A_nom passes nominal_flow at Δp_nom = cracking + override. "
                    "Static (natural_frequency 0): A = soft_ramp(z, 0.01)·A_nom, so "
                    "q = nominal_flow·s·√(Δp_PT/Δp_nom) when turbulent. Dynamic "
                    "(Esqué §3.2.4, Handroos–Vilenius): states s, sdot with "
                    "s̈ = ω²(σ(z) − s) − 2ζω·ṡ, σ = soft_ramp(z + 0.1, 0.1) − 0.05, "
                    "A = soft_ramp(s, 0.01)·A_nom; equilibrium = the static valve. "
                    "q = orifice(Δp_PT, A)."),
  .ports = relief_ports,
  .n_ports = G_N_ELEMENTS (relief_ports),
  .params = relief_params,
  .n_params = G_N_ELEMENTS (relief_params),
  .boundary_param = -1,
  .designator = "RV",
  .roles = HYD_ROLE_PRESSURE_LIMITER | HYD_ROLE_RELIEF_VALVE,
  .rating_param = "nominal_flow",
  .scale_param = "cracking_pressure",
  .setup = relief_setup,
  .init_states = relief_init_states,
  .eval = relief_eval,
  .events = relief_events,
};

/* ---------------------------------------------------------------------------
 * pressure_reducing_valve
 * ------------------------------------------------------------------------- */

enum { PRV_SETPOINT, PRV_RANGE, PRV_DIAMETER };

static const HydPortInfo prv_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Inlet (supply)") },
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Outlet (regulated)") },
};

static const HydParamInfo prv_params[] = {
  { "setpoint", N_("Set pressure"), HYD_UNIT_PRESSURE, 5e6, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Outlet pressure at which the valve closes") },
  { "regulation_range", N_("Regulation range"), HYD_UNIT_PRESSURE, 5e5, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Fall of p_A below the setpoint that opens the valve fully") },
  { "diameter", N_("Diameter"), HYD_UNIT_LENGTH, 6e-3, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Bore when fully open") },
};

static void
prv_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  /* components.md: A = open01((setpoint − p_A)/range)·πd²/4,
   * q_P = orifice(Δp_PA, A) = −q_A (Esqué eq. 3.7). */
  const double *par = comp->par;
  HydOrificeCoeffs c = hyd_fluid_orifice_coeffs (comp->fluid, 0.0);
  double a_full = circle_area (par[PRV_DIAMETER]);
  double dfrac;
  double frac = hyd_open01 ((par[PRV_SETPOINT] - in->p[PORT_OUT]) / par[PRV_RANGE],
                            HYD_SMOOTH_EPS, &dfrac);
  double dqdp, dqda;
  double q = hyd_orifice_flow (&c, in->p[PORT_IN] - in->p[PORT_OUT], frac * a_full,
                               &dqdp, &dqda);
  /* the outlet pressure moves the area too: ∂frac/∂p_A = −frac′/range */
  double dq_dpa = -dqdp - dqda * a_full * dfrac / par[PRV_RANGE];

  two_port_write (comp, out, q, dqdp, dq_dpa);
  if (out->out)
    {
      out->out[0] = q;
      out->out[1] = frac;
    }
}

const HydComponentType hyd_pressure_reducing_valve_type = {
  .id = "pressure_reducing_valve",
  .label = N_("Pressure-reducing valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("pressure-reducing valve, direct-acting (normally open square, pilot from A, adjustable spring)"),
  .description = N_("Direct-acting pressure-reducing valve P→A regulating p_A: "
                    "A = open01((setpoint − p_A)/regulation_range)·πd²/4, "
                    "q_P = orifice(Δp_PA, A) = −q_A (Esqué eq. 3.7)."),
  .ports = prv_ports,
  .n_ports = G_N_ELEMENTS (prv_ports),
  .params = prv_params,
  .n_params = G_N_ELEMENTS (prv_params),
  .boundary_param = -1,
  .designator = "PRV",
  .roles = 0,
  .setup = q_opening_setup,
  .eval = prv_eval,
};

/* ---------------------------------------------------------------------------
 * flow_control_valve
 * ------------------------------------------------------------------------- */

enum { FCV_SET_FLOW, FCV_DIAMETER };

static const HydParamInfo fcv_params[] = {
  { "set_flow", N_("Set flow"), HYD_UNIT_FLOW, 10e-3 / 60.0 /* 10 L/min */, 0.0, INFINITY,
    HYD_PARAM_PROFILE | HYD_PARAM_MIN_EXCLUSIVE, NULL,
    N_("Flow the pressure compensator holds A→B") },
  { "diameter", N_("Diameter"), HYD_UNIT_LENGTH, 8e-3, 0.0, INFINITY,
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Bore of the uncompensated path") },
};

static void
fcv_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  /* components.md: q_A = set_flow·tanh(q_o/set_flow), q_o = orifice(Δp_AB, πd²/4). */
  const double *par = comp->par;
  HydOrificeCoeffs c = hyd_fluid_orifice_coeffs (comp->fluid, 0.0);
  double F = par[FCV_SET_FLOW];
  double dqo;
  double qo = hyd_orifice_flow (&c, in->p[PORT_IN] - in->p[PORT_OUT],
                                circle_area (par[FCV_DIAMETER]), &dqo, NULL);
  double dth;
  double th = hyd_sgn_smooth (qo, F, &dth);
  double q = F * th;
  double dq = F * dth * dqo;

  two_port_write (comp, out, q, dq, -dq);
  if (out->q_t)
    {
      /* ∂(F·tanh(q_o/F))/∂F = tanh − q_o·(1 − tanh²)/F */
      double q_t = (th - qo * dth) * comp->par_dt[FCV_SET_FLOW];
      out->q_t[PORT_IN] = q_t;
      out->q_t[PORT_OUT] = -q_t;
    }
  if (out->out)
    out->out[0] = q;
}

const HydComponentType hyd_flow_control_valve_type = {
  .id = "flow_control_valve",
  .label = N_("Flow control valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("2-way flow control valve, pressure-compensated (restrictor with compensator arrow and sloping arrow)"),
  .description = N_("Pressure-compensated 2-way flow control valve A→B: "
                    "q_A = set_flow·tanh(q_o/set_flow) = −q_B, with q_o = "
                    "orifice(Δp_AB, πd²/4) the uncompensated flow (Esqué eq. 3.7)."),
  .ports = ab_ports,
  .n_ports = G_N_ELEMENTS (ab_ports),
  .params = fcv_params,
  .n_params = G_N_ELEMENTS (fcv_params),
  .boundary_param = -1,
  .designator = "FCV",
  .roles = 0,
  .setup = q_output_setup,
  .eval = fcv_eval,
};
