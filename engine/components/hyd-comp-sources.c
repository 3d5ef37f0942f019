/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-comp-sources.c — sources, sinks and pumps (spec/components.md,
 * "Sources and sinks"): tank, pressure_source, flow_source, fixed_pump,
 * variable_pump.
 *
 * The tank and the pressure source are boundary ports: the compiler
 * prescribes their node's pressure from `boundary_param` and computes the
 * pressure source's `flow`, so their eval writes nothing. The flow source and
 * the pumps are ideal flow sources (Esqué 2008, §3.2.2: an ideal pump plus
 * laminar leakage, Q = V_p·n_D − C_L·Δp). */
#include "hyd-component.h"
#include "hyd-i18n.h"
#include "hyd-smooth.h"

/* ---------------------------------------------------------------------------
 * tank
 * ------------------------------------------------------------------------- */

static const HydPortInfo tank_ports[] = {
  { "T", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Reservoir connection") },
};

static const HydParamInfo tank_params[] = {
  { "pressure", N_("Pressure"), HYD_UNIT_PRESSURE, 0.0, -1e5, 1e9, 0, NULL,
    N_("Gauge pressure of the reservoir (0 = vented to atmosphere)") },
};

static gboolean
boundary_setup (HydComp *comp, GError **error)
{
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
boundary_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  /* A boundary port prescribes its node's pressure: the compiler handles the
   * node and reports the port flow (circuit-format.md, Nodes). */
}

const HydComponentType hyd_tank_type = {
  .id = "tank",
  .label = N_("Tank"),
  .category = HYD_CATEGORY_SOURCES,
  .iso_symbol = N_("open tank (reservoir vented to atmosphere)"),
  .description = N_("Reservoir. Its port prescribes the pressure of its node "
                    "(a boundary node, 0 Pa gauge by default); the flow into the "
                    "tank is reported at T.q."),
  .ports = tank_ports,
  .n_ports = G_N_ELEMENTS (tank_ports),
  .params = tank_params,
  .n_params = G_N_ELEMENTS (tank_params),
  .boundary_param = 0,
  .designator = "T",
  .roles = HYD_ROLE_TANK,
  .setup = boundary_setup,
  .eval = boundary_eval,
};

/* ---------------------------------------------------------------------------
 * pressure_source
 * ------------------------------------------------------------------------- */

static const HydPortInfo pressure_source_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pressure connection") },
};

static const HydParamInfo pressure_source_params[] = {
  { "pressure", N_("Pressure"), HYD_UNIT_PRESSURE, 1e7, -1e5, 1e9, HYD_PARAM_PROFILE, NULL,
    N_("Gauge pressure imposed on the node at P") },
};

static gboolean
pressure_source_setup (HydComp *comp, GError **error)
{
  /* `flow` is filled by the compiler: −q_P of the boundary port. */
  hyd_comp_set_outputs (comp, 0, NULL);
  hyd_comp_add_output (comp, "flow", HYD_UNIT_FLOW,
                       N_("Flow delivered into the circuit (positive when delivering)"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

const HydComponentType hyd_pressure_source_type = {
  .id = "pressure_source",
  .label = N_("Pressure source"),
  .category = HYD_CATEGORY_SOURCES,
  .iso_symbol = N_("pressure source (circle with filled triangle, hydraulic)"),
  .description = N_("Ideal pressure source: its port prescribes the pressure of "
                    "its node (a boundary node), p_P = pressure(t). Output flow is "
                    "the flow it delivers into the circuit."),
  .ports = pressure_source_ports,
  .n_ports = G_N_ELEMENTS (pressure_source_ports),
  .params = pressure_source_params,
  .n_params = G_N_ELEMENTS (pressure_source_params),
  .boundary_param = 0,
  .designator = "PS",
  .roles = HYD_ROLE_PRESSURE_LIMITER,
  .scale_param = "pressure",
  .setup = pressure_source_setup,
  .eval = boundary_eval,
};

/* ---------------------------------------------------------------------------
 * flow_source
 * ------------------------------------------------------------------------- */

enum { FS_FLOW };

static const HydPortInfo flow_source_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Delivery connection") },
};

static const HydParamInfo flow_source_params[] = {
  { "flow", N_("Flow"), HYD_UNIT_FLOW, 1e-3, -1.0, 1.0, HYD_PARAM_PROFILE, NULL,
    N_("Flow delivered from the reservoir into P") },
};

static const HydVarInfo flow_outputs[] = {
  { "flow", HYD_UNIT_FLOW, N_("Flow delivered into the circuit") },
};

static gboolean
flow_source_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (flow_outputs), flow_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
flow_source_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  /* components.md: q_P = −flow; no pressure dependence (Esqué 2008, §3.2.2). */
  double flow = comp->par[FS_FLOW];

  out->q[0] = -flow;
  if (out->q_t)
    out->q_t[0] = -comp->par_dt[FS_FLOW];
  if (out->out)
    out->out[0] = flow;
}

const HydComponentType hyd_flow_source_type = {
  .id = "flow_source",
  .label = N_("Flow source"),
  .category = HYD_CATEGORY_SOURCES,
  .iso_symbol = N_("flow source (circle with filled triangle and flow arrow)"),
  .description = N_("Ideal flow source from the reservoir into P: q_P = −flow(t), "
                    "whatever the pressure (Esqué 2008, §3.2.2)."),
  .ports = flow_source_ports,
  .n_ports = G_N_ELEMENTS (flow_source_ports),
  .params = flow_source_params,
  .n_params = G_N_ELEMENTS (flow_source_params),
  .boundary_param = -1,
  .designator = "Q",
  .roles = HYD_ROLE_FLOW_SOURCE,
  .delivery_port = 0,
  .delivery_params = (const char *const[]) { "flow", NULL },
  .setup = flow_source_setup,
  .eval = flow_source_eval,
};

/* ---------------------------------------------------------------------------
 * fixed_pump, variable_pump
 * ------------------------------------------------------------------------- */

/* Both pumps share the first four parameters; the variable pump adds
 * `fraction` last. */
enum {
  PUMP_DISPLACEMENT,
  PUMP_SPEED,
  PUMP_LEAKAGE,
  PUMP_EFFICIENCY,
  PUMP_FRACTION,
};

enum { PUMP_S, PUMP_P, PUMP_SHAFT, PUMP_U };

static const HydPortInfo pump_ports[] = {
  { "S", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Suction") },
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pressure (delivery)") },
  { "shaft", HYD_DOMAIN_ROTATIONAL, TRUE,
    N_("Drive shaft (rotational, optional): when wired, the pump turns at the shaft's speed "
       "and loads it with its torque; the speed parameter is then not used"),
    HYD_PORT_BIDIRECTIONAL, "speed" },
};

static const HydPortInfo variable_pump_ports[] = {
  { "S", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Suction") },
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pressure (delivery)") },
  { "shaft", HYD_DOMAIN_ROTATIONAL, TRUE,
    N_("Drive shaft (rotational, optional): when wired, the pump turns at the shaft's speed "
       "and loads it with its torque; the speed parameter is then not used"),
    HYD_PORT_BIDIRECTIONAL, "speed" },
  { "U", HYD_DOMAIN_SIGNAL, TRUE,
    N_("Displacement command (signal, optional): when wired it replaces the fraction parameter, "
       "limited to ±1"), HYD_PORT_INPUT, "fraction" },
};

#define PUMP_COMMON_PARAMS \
  { "displacement", N_("Displacement"), HYD_UNIT_DISPLACEMENT, 10e-6 / (2.0 * G_PI) /* 10 cm³/rev */, \
    0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL, \
    N_("Volume displaced per shaft revolution (the file gives it per radian, in m³/rad)") }, \
  { "speed", N_("Speed"), HYD_UNIT_ANGULAR_VELOCITY, 50.0 * G_PI /* 1500 rpm */, -1e4, 1e4, \
    HYD_PARAM_PROFILE, NULL, \
    N_("Shaft speed set by the prime mover") }, \
  { "leakage", N_("Leakage coefficient"), HYD_UNIT_LEAKAGE, 0.0, 0.0, INFINITY, 0, NULL, \
    N_("Laminar leakage from P back to S per pascal of Δp_PS") }, \
  { "hydromechanical_efficiency", N_("Hydromechanical efficiency"), HYD_UNIT_NONE, 1.0, 0.0, 1.0, \
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Ratio of ideal to actual shaft torque") }

static const HydParamInfo fixed_pump_params[] = {
  PUMP_COMMON_PARAMS,
};

static const HydParamInfo variable_pump_params[] = {
  PUMP_COMMON_PARAMS,
  { "fraction", N_("Displacement fraction"), HYD_UNIT_NONE, 1.0, -1.0, 1.0, HYD_PARAM_PROFILE, NULL,
    N_("Swash-plate setting: effective displacement = fraction·displacement") },
};

static const HydVarInfo pump_outputs[] = {
  { "flow", HYD_UNIT_FLOW, N_("Delivered flow q_d = D·ω − leakage·Δp_PS") },
  { "torque", HYD_UNIT_TORQUE, N_("Shaft torque D·Δp_PS/η_hm") },
  { "power", HYD_UNIT_POWER, N_("Shaft power torque·ω") },
};

static gboolean
pump_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (pump_outputs), pump_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
pump_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  const double *par = comp->par;
  gboolean variable = comp->type->n_params > PUMP_FRACTION;
  /* a wired command U sets the swash plate instead of the parameter:
   * fraction 2·clamp01((u + 1)/2) − 1, limited to ±1 (smoothly, within
   * ±0.99 exact) */
  gboolean commanded = variable && hyd_comp_port_connected (comp, PUMP_U);
  double frac = variable ? par[PUMP_FRACTION] : 1.0;
  double frac_t = variable ? comp->par_dt[PUMP_FRACTION] : 0.0;
  double dfrac_du = 0.0;
  if (commanded)
    {
      frac = 2.0 * hyd_clamp01 (0.5 * (in->p[PUMP_U] + 1.0), HYD_SMOOTH_EPS, &dfrac_du) - 1.0;
      frac_t = 0.0;
    }
  double D = frac * par[PUMP_DISPLACEMENT];
  /* a wired shaft sets the speed (its node's ω) and takes the torque */
  gboolean shaft = hyd_comp_port_connected (comp, PUMP_SHAFT);
  double w = shaft ? in->p[PUMP_SHAFT] : par[PUMP_SPEED];
  double w_t = shaft ? 0.0 : comp->par_dt[PUMP_SPEED];
  double L = par[PUMP_LEAKAGE];
  double eta = par[PUMP_EFFICIENCY];
  double dp = in->p[PUMP_P] - in->p[PUMP_S];

  /* components.md: q_d = D_eff·ω − leakage·Δp_PS, q_P = −q_d, q_S = +q_d
   * (Esqué 2008, §3.2.2, ideal pump with laminar leakage). */
  double qd = D * w - L * dp;

  out->q[PUMP_P] = -qd;
  out->q[PUMP_S] = qd;
  /* the shaft's node drives the pump against τ = D_eff·Δp_PS/η_hm */
  if (shaft)
    out->q[PUMP_SHAFT] = D * dp / eta;
  if (out->jac)
    {
      HYD_JAC (comp, out, PUMP_P, PUMP_P) = L;
      HYD_JAC (comp, out, PUMP_P, PUMP_S) = -L;
      HYD_JAC (comp, out, PUMP_S, PUMP_P) = -L;
      HYD_JAC (comp, out, PUMP_S, PUMP_S) = L;
      if (shaft)
        {
          HYD_JAC (comp, out, PUMP_P, PUMP_SHAFT) = -D;
          HYD_JAC (comp, out, PUMP_S, PUMP_SHAFT) = D;
          HYD_JAC (comp, out, PUMP_SHAFT, PUMP_P) = D / eta;
          HYD_JAC (comp, out, PUMP_SHAFT, PUMP_S) = -D / eta;
        }
      if (commanded)
        {
          double dD_du = par[PUMP_DISPLACEMENT] * dfrac_du;
          HYD_JAC (comp, out, PUMP_P, PUMP_U) = -dD_du * w;
          HYD_JAC (comp, out, PUMP_S, PUMP_U) = dD_du * w;
          if (shaft)
            HYD_JAC (comp, out, PUMP_SHAFT, PUMP_U) = dD_du * dp / eta;
        }
    }
  if (out->q_t)
    {
      double qd_t = par[PUMP_DISPLACEMENT] * (frac_t * w + frac * w_t);
      out->q_t[PUMP_P] = -qd_t;
      out->q_t[PUMP_S] = qd_t;
      if (shaft)
        out->q_t[PUMP_SHAFT] = par[PUMP_DISPLACEMENT] * frac_t * dp / eta;
    }
  if (out->out)
    {
      double torque = D * dp / eta;
      out->out[0] = qd;
      out->out[1] = torque;
      out->out[2] = torque * w;
    }
}

const HydComponentType hyd_fixed_pump_type = {
  .id = "fixed_pump",
  .label = N_("Fixed-displacement pump"),
  .category = HYD_CATEGORY_PUMPS,
  .iso_symbol = N_("fixed-displacement pump, one direction of flow, with prime mover (circle, filled triangle)"),
  .description = N_("Fixed-displacement pump driven at a set speed: delivered flow "
                    "q_d = D·ω − leakage·Δp_PS, q_P = −q_d, q_S = +q_d; shaft torque "
                    "D·Δp_PS/η_hm (Esqué 2008, §3.2.2, ideal pump with laminar leakage). "
                    "Wire its shaft to a rotational node (an electric motor, an inertia) and it "
                    "turns at that node's speed instead, loading it with its torque."),
  .ports = pump_ports,
  .n_ports = G_N_ELEMENTS (pump_ports),
  .params = fixed_pump_params,
  .n_params = G_N_ELEMENTS (fixed_pump_params),
  .boundary_param = -1,
  .designator = "P",
  .roles = HYD_ROLE_PUMP,
  .delivery_port = 1,
  .delivery_params = (const char *const[]) { "displacement", "speed", NULL },
  .setup = pump_setup,
  .eval = pump_eval,
};

const HydComponentType hyd_variable_pump_type = {
  .id = "variable_pump",
  .label = N_("Variable-displacement pump"),
  .category = HYD_CATEGORY_PUMPS,
  .iso_symbol = N_("variable-displacement pump, one direction of flow, with prime mover (circle, filled triangle, sloping arrow)"),
  .description = N_("Variable-displacement pump driven at a set speed: D_eff = "
                    "fraction·D, delivered flow q_d = D_eff·ω − leakage·Δp_PS, "
                    "q_P = −q_d, q_S = +q_d; shaft torque D_eff·Δp_PS/η_hm "
                    "(Esqué 2008, §3.2.2). Wire its shaft to a rotational node and it turns "
                    "at that node's speed instead, loading it with its torque; wire a signal to "
                    "U and it sets the fraction (a speed or pressure controller's output), "
                    "limited to ±1."),
  .ports = variable_pump_ports,
  .n_ports = G_N_ELEMENTS (variable_pump_ports),
  .params = variable_pump_params,
  .n_params = G_N_ELEMENTS (variable_pump_params),
  .boundary_param = -1,
  .designator = "P",
  .roles = HYD_ROLE_PUMP,
  .delivery_port = 1,
  .delivery_params = (const char *const[]) { "displacement", "speed", "fraction", NULL },
  .setup = pump_setup,
  .eval = pump_eval,
};
