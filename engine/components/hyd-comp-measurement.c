/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-comp-measurement.c — pressure gauge and flow meter (spec/components.md,
 * Measurement). Neither takes flow nor declares a volume: the gauge reads its
 * node's pressure, and the flow meter joins its two ports into one node; the
 * system compiler computes the meter's reading from the node balance of its
 * A side. The transducers and the flow sensor carry their readings as
 * signals; the flow sensor is a laminar resistance between two nodes. */
#include "hyd-component.h"
#include "hyd-i18n.h"

/* -------------------------------------------------------- pressure_gauge */

static const HydPortInfo pressure_gauge_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("measured pressure (takes no flow, adds no volume)") },
  { "S", HYD_DOMAIN_SIGNAL, TRUE, N_("signal output: the measured pressure"), HYD_PORT_OUTPUT },
};

static const HydVarInfo pressure_gauge_outputs[] = {
  { "p", HYD_UNIT_PRESSURE, N_("pressure at P") },
};

static gboolean
pressure_gauge_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (pressure_gauge_outputs), pressure_gauge_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
pressure_gauge_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  if (out->out)
    out->out[0] = in->p[0];
}

/* S = p at P: ∂S/∂p_P = 1 */
static void
pressure_gauge_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  s[1] = in->p[0];
  if (ds)
    ds[1 * hyd_comp_n_local (comp) + 0] = 1.0;
}

const HydComponentType hyd_pressure_gauge_type = {
  .id = "pressure_gauge",
  .label = N_("Pressure gauge"),
  .category = HYD_CATEGORY_MEASUREMENT,
  .iso_symbol = N_("pressure gauge (manometer)"),
  .description =
    N_("Ideal manometer: reads the gauge pressure p of the node at P, takes no "
       "flow and adds no volume. The optional signal port S carries the reading."),
  .ports = pressure_gauge_ports,
  .n_ports = G_N_ELEMENTS (pressure_gauge_ports),
  .boundary_param = -1,
  .designator = "G",
  .roles = HYD_ROLE_STORES_OIL,
  .setup = pressure_gauge_setup,
  .eval = pressure_gauge_eval,
  .signals = pressure_gauge_signals,
};

/* ------------------------------------------------------------ flow_meter */

static const HydPortInfo flow_meter_ports[] = {
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("inlet: positive reading for flow from A to B") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("outlet") },
};

static const guint flow_meter_joined[][2] = { { 0, 1 } };

static const HydVarInfo flow_meter_outputs[] = {
  { "q", HYD_UNIT_FLOW, N_("flow through the meter, A to B") },
};

static gboolean
flow_meter_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (flow_meter_outputs), flow_meter_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

/* No through flow and no volume: the compiler writes the reading
 * q = −Σ_{A side} q̂_X − Σ_{A side} V̇_X − C_{A side}·ṗ (components.md). */
static void
flow_meter_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
}

const HydComponentType hyd_flow_meter_type = {
  .id = "flow_meter",
  .label = N_("Flow meter"),
  .category = HYD_CATEGORY_MEASUREMENT,
  .iso_symbol = N_("flow meter"),
  .description =
    N_("Ideal flow meter: joins A and B into one node (no pressure drop) and "
       "reports the flow q from its A side to its B side, computed from the node "
       "balance of the A side: q = −Σ q̂ − Σ V̇ − C·ṗ over the components reachable "
       "from A without passing through the meter."),
  .ports = flow_meter_ports,
  .n_ports = G_N_ELEMENTS (flow_meter_ports),
  .joined_ports = flow_meter_joined,
  .n_joined_ports = G_N_ELEMENTS (flow_meter_joined),
  .is_flow_meter = TRUE,
  .boundary_param = -1,
  .designator = "FM",
  .roles = HYD_ROLE_CONDUIT,
  .setup = flow_meter_setup,
  .eval = flow_meter_eval,
};

/* ------------------------------------------------- pressure_transducer */

/* A pressure transducer turns the pressure at P into the signal S (Pa); a
 * differential one the drop p_A − p_B. Neither takes flow nor adds volume:
 * ideal sensors, as the gauge (Hopsan's pressure sensor: Braun & Krus 2016
 * write the node's pressure into a signal node). */

static const HydPortInfo pressure_transducer_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("measured pressure (takes no flow, adds no volume)") },
  { "S", HYD_DOMAIN_SIGNAL, TRUE, N_("signal output: the pressure at P in pascals"), HYD_PORT_OUTPUT },
};

const HydComponentType hyd_pressure_transducer_type = {
  .id = "pressure_transducer",
  .label = N_("Pressure transducer"),
  .category = HYD_CATEGORY_MEASUREMENT,
  .iso_symbol = N_("pressure transducer (pressure-measuring circle with an electrical output)"),
  .description =
    N_("Ideal pressure transducer: its signal output S is the gauge pressure p "
       "of the node at P in pascals (S = p); it takes no flow and adds no volume."),
  .ports = pressure_transducer_ports,
  .n_ports = G_N_ELEMENTS (pressure_transducer_ports),
  .boundary_param = -1,
  .designator = "BP",
  .roles = HYD_ROLE_STORES_OIL,
  .setup = pressure_gauge_setup,
  .eval = pressure_gauge_eval,
  .signals = pressure_gauge_signals,
};

/* ------------------------------------ differential_pressure_transducer */

static const HydPortInfo dp_transducer_ports[] = {
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("first measured pressure (takes no flow, adds no volume)") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("second measured pressure (takes no flow, adds no volume)") },
  { "S", HYD_DOMAIN_SIGNAL, TRUE, N_("signal output: p_A − p_B in pascals"), HYD_PORT_OUTPUT },
};

static const HydVarInfo dp_transducer_outputs[] = {
  { "dp", HYD_UNIT_PRESSURE, N_("pressure difference p_A − p_B") },
};

static gboolean
dp_transducer_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (dp_transducer_outputs), dp_transducer_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
dp_transducer_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  if (out->out)
    out->out[0] = in->p[0] - in->p[1];
}

/* S = p_A − p_B: ∂S/∂p_A = 1, ∂S/∂p_B = −1 */
static void
dp_transducer_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  guint nl = hyd_comp_n_local (comp);
  s[2] = in->p[0] - in->p[1];
  if (ds)
    {
      ds[2 * nl + 0] = 1.0;
      ds[2 * nl + 1] = -1.0;
    }
}

const HydComponentType hyd_differential_pressure_transducer_type = {
  .id = "differential_pressure_transducer",
  .label = N_("Differential pressure transducer"),
  .category = HYD_CATEGORY_MEASUREMENT,
  .iso_symbol = N_("differential pressure transducer (measuring circle between two pressure connections, electrical output)"),
  .description =
    N_("Ideal differential pressure transducer: its signal output S is the "
       "pressure difference p_A − p_B in pascals; it takes no flow at A or B and "
       "adds no volume."),
  .ports = dp_transducer_ports,
  .n_ports = G_N_ELEMENTS (dp_transducer_ports),
  .boundary_param = -1,
  .designator = "BP",
  .roles = HYD_ROLE_STORES_OIL,
  .setup = dp_transducer_setup,
  .eval = dp_transducer_eval,
  .signals = dp_transducer_signals,
};

/* ----------------------------------------------------------- flow_sensor */

/* An in-line flow sensor with a signal output. The flow meter above joins
 * its ports and gets its reading from the node balance after `eval`, too
 * late for a signal (signal outputs are computed before `eval`,
 * docs/domains.md "Signals"). So this one is modelled as a real in-line
 * meter is: a small laminar resistance between two separate nodes,
 * q = G·(p_A − p_B) with G = q_rated/Δp_rated, and S = q. The default, 0.5 bar
 * at 60 L/min, is our choice, of the order of the full-scale pressure drop
 * that makers of turbine and gear flow meters state for their 60 L/min sizes. */

enum { FS_A, FS_B, FS_S };
enum { FSP_RATED_DP, FSP_RATED_FLOW };

static const HydPortInfo flow_sensor_ports[] = {
  [FS_A] = { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("inlet: positive signal for flow from A to B") },
  [FS_B] = { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("outlet") },
  [FS_S] = { "S", HYD_DOMAIN_SIGNAL, TRUE, N_("signal output: the flow A to B in m³/s"), HYD_PORT_OUTPUT },
};

static const HydParamInfo flow_sensor_params[] = {
  [FSP_RATED_DP] = { "rated_pressure_drop", N_("Rated pressure drop"), HYD_UNIT_PRESSURE, 0.5e5, 0.0, INFINITY,
                     HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("pressure drop across the sensor at the rated flow") },
  [FSP_RATED_FLOW] = { "rated_flow", N_("Rated flow"), HYD_UNIT_FLOW, 60e-3 / 60.0, 0.0, INFINITY,
                       HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("flow at which the sensor drops the rated pressure") },
};

static const HydVarInfo flow_sensor_outputs[] = {
  { "q", HYD_UNIT_FLOW, N_("flow through the sensor, A to B") },
  { "dp", HYD_UNIT_PRESSURE, N_("pressure drop p_A − p_B across the sensor") },
};

static gboolean
flow_sensor_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (flow_sensor_outputs), flow_sensor_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static double
flow_sensor_conductance (const HydComp *comp)
{
  return comp->par[FSP_RATED_FLOW] / comp->par[FSP_RATED_DP];
}

/* q̂_A = G·(p_A − p_B) = −q̂_B */
static void
flow_sensor_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  double G = flow_sensor_conductance (comp);
  double dp = in->p[FS_A] - in->p[FS_B];
  out->q[FS_A] = G * dp;
  out->q[FS_B] = -G * dp;
  if (out->jac)
    {
      HYD_JAC (comp, out, FS_A, FS_A) = G;
      HYD_JAC (comp, out, FS_A, FS_B) = -G;
      HYD_JAC (comp, out, FS_B, FS_A) = -G;
      HYD_JAC (comp, out, FS_B, FS_B) = G;
    }
  if (out->out)
    {
      out->out[0] = G * dp;
      out->out[1] = dp;
    }
}

/* S = q = G·(p_A − p_B): ∂S/∂p_A = G, ∂S/∂p_B = −G */
static void
flow_sensor_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  double G = flow_sensor_conductance (comp);
  guint nl = hyd_comp_n_local (comp);
  s[FS_S] = G * (in->p[FS_A] - in->p[FS_B]);
  if (ds)
    {
      ds[FS_S * nl + FS_A] = G;
      ds[FS_S * nl + FS_B] = -G;
    }
}

const HydComponentType hyd_flow_sensor_type = {
  .id = "flow_sensor",
  .label = N_("Flow sensor"),
  .category = HYD_CATEGORY_MEASUREMENT,
  .iso_symbol = N_("flow meter with an electrical output (in-line measuring circle, signal output)"),
  .description =
    N_("An in-line flow sensor with a signal output, modelled as what a real flow "
       "meter is: a small laminar resistance between A and B, q = G·(p_A − p_B) with "
       "G = rated flow / rated pressure drop, and its signal output S is that flow "
       "in m³/s. A real flow meter has this pressure drop (default 0.5 bar at "
       "60 L/min: a choice, of the order makers state at full scale); unlike the "
       "ideal flow meter, A and B are two nodes, each with the volume of its "
       "connections."),
  .ports = flow_sensor_ports,
  .n_ports = G_N_ELEMENTS (flow_sensor_ports),
  .params = flow_sensor_params,
  .n_params = G_N_ELEMENTS (flow_sensor_params),
  .boundary_param = -1,
  .designator = "BF",
  .roles = HYD_ROLE_CONDUIT,
  .setup = flow_sensor_setup,
  .eval = flow_sensor_eval,
  .signals = flow_sensor_signals,
};
