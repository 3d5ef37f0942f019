/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-comp-sensors-mech.c — translational sensors with signal outputs
 * (docs/domains.md, "Signals"): position and velocity transducers, ideal
 * readers of their node's across values, and a load cell, a stiff
 * spring–damper between two nodes whose output is the force it carries.
 *
 * A sensor's output S is an algebraic function of its local variables,
 * computed by `signals` with its partials; it is also an ordinary output, so
 * it can be plotted with S unwired. */
#include "hyd-component.h"
#include "hyd-i18n.h"

static gboolean
sensor_setup (HydComp *comp, GError **error)
{
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static const HydPortInfo one_port_sensor[] = {
  { "A", HYD_DOMAIN_TRANSLATIONAL, FALSE, N_("the measured body (translational); takes no force") },
  { "S", HYD_DOMAIN_SIGNAL, TRUE, N_("signal output: the reading in SI units"), HYD_PORT_OUTPUT },
};

enum { SENSOR_PORT_S = 1 };

/* ------------------------------------------------------- position_sensor */

static const HydVarInfo position_outputs[] = {
  { "x", HYD_UNIT_POSITION, N_("position of the node at A") },
};

static gboolean
position_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (position_outputs), position_outputs);
  return sensor_setup (comp, error);
}

static void
position_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  if (out->out)
    out->out[0] = in->pos[0];
}

/* S = x_A: ∂S/∂s_A = 1 */
static void
position_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  s[SENSOR_PORT_S] = in->pos[0];
  if (ds)
    ds[SENSOR_PORT_S * hyd_comp_n_local (comp) + hyd_comp_pos_col (comp, 0)] = 1.0;
}

const HydComponentType hyd_position_sensor_type = {
  .id = "position_sensor",
  .label = N_("Position sensor"),
  .category = HYD_CATEGORY_MEASUREMENT,
  .iso_symbol = N_("measuring instrument (ISO 1219-1 circle), marked x"),
  .description =
    N_("An ideal position transducer: its signal output S is the position x (m) of "
       "the translational node at A, without lag or noise, and it puts no force and "
       "no mass on the node (a linear potentiometer or an LVDT well inside its "
       "bandwidth). The same reading is its output x."),
  .ports = one_port_sensor,
  .n_ports = G_N_ELEMENTS (one_port_sensor),
  .boundary_param = -1,
  .designator = "BG",
  .setup = position_setup,
  .eval = position_eval,
  .signals = position_signals,
};

/* ------------------------------------------------------- velocity_sensor */

static const HydVarInfo velocity_outputs[] = {
  { "v", HYD_UNIT_VELOCITY, N_("velocity of the node at A") },
};

static gboolean
velocity_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (velocity_outputs), velocity_outputs);
  return sensor_setup (comp, error);
}

static void
velocity_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  if (out->out)
    out->out[0] = in->p[0];
}

/* S = v_A: ∂S/∂v_A = 1 */
static void
velocity_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  s[SENSOR_PORT_S] = in->p[0];
  if (ds)
    ds[SENSOR_PORT_S * hyd_comp_n_local (comp) + 0] = 1.0;
}

const HydComponentType hyd_velocity_sensor_type = {
  .id = "velocity_sensor",
  .label = N_("Velocity sensor"),
  .category = HYD_CATEGORY_MEASUREMENT,
  .iso_symbol = N_("measuring instrument (ISO 1219-1 circle), marked v"),
  .description =
    N_("An ideal velocity transducer: its signal output S is the velocity v (m/s) "
       "of the translational node at A, positive forward, without lag or noise; it "
       "puts no force and no mass on the node. The same reading is its output v."),
  .ports = one_port_sensor,
  .n_ports = G_N_ELEMENTS (one_port_sensor),
  .boundary_param = -1,
  .designator = "BS",
  .setup = velocity_setup,
  .eval = velocity_eval,
  .signals = velocity_signals,
};

/* ---------------------------------------------------------- force_sensor */

enum { LC_STIFFNESS, LC_DAMPING };

static const HydPortInfo force_sensor_ports[] = {
  { "A", HYD_DOMAIN_TRANSLATIONAL, FALSE, N_("end A (translational), e.g. the rod") },
  { "B", HYD_DOMAIN_TRANSLATIONAL, FALSE, N_("end B (translational), e.g. the load") },
  { "S", HYD_DOMAIN_SIGNAL, TRUE, N_("signal output: the force in N, positive in compression"),
    HYD_PORT_OUTPUT },
};

enum { LC_PORT_S = 2 };

static const HydParamInfo force_sensor_params[] = {
  [LC_STIFFNESS] = { "stiffness", N_("Stiffness"), HYD_UNIT_STIFFNESS, 1e8, 0.0, INFINITY,
                     HYD_PARAM_MIN_EXCLUSIVE, NULL,
                     N_("stiffness of the measuring element (a load cell deflects a fraction of a millimetre at full load)") },
  [LC_DAMPING] = { "damping", N_("Damping"), HYD_UNIT_DAMPING, 1e4, 0.0, INFINITY, 0, NULL,
                   N_("internal damping of the measuring element") },
};

static const HydVarInfo force_sensor_outputs[] = {
  { "F", HYD_UNIT_FORCE, N_("force carried from A to B, positive in compression") },
};

static gboolean
force_sensor_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (force_sensor_outputs), force_sensor_outputs);
  return sensor_setup (comp, error);
}

/* The force it carries, F = k·(x_A − x_B) + d·(v_A − v_B): positive when A
 * presses towards B (compression). */
static double
load_cell_force (const HydComp *comp, const HydEvalIn *in)
{
  return comp->par[LC_STIFFNESS] * (in->pos[0] - in->pos[1]) + comp->par[LC_DAMPING] * (in->p[0] - in->p[1]);
}

/* Compressed, it pushes A back and B forward: F̂_A = F, F̂_B = −F. */
static void
force_sensor_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  double k = comp->par[LC_STIFFNESS], d = comp->par[LC_DAMPING];
  double F = load_cell_force (comp, in);
  out->q[0] = F;
  out->q[1] = -F;
  if (out->jac)
    {
      guint cA = hyd_comp_pos_col (comp, 0), cB = hyd_comp_pos_col (comp, 1);
      HYD_JAC (comp, out, 0, 0) = d;
      HYD_JAC (comp, out, 0, 1) = -d;
      HYD_JAC (comp, out, 0, cA) = k;
      HYD_JAC (comp, out, 0, cB) = -k;
      HYD_JAC (comp, out, 1, 0) = -d;
      HYD_JAC (comp, out, 1, 1) = d;
      HYD_JAC (comp, out, 1, cA) = -k;
      HYD_JAC (comp, out, 1, cB) = k;
    }
  if (out->out)
    out->out[0] = F;
}

static void
force_sensor_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  s[LC_PORT_S] = load_cell_force (comp, in);
  if (ds)
    {
      double *row = ds + LC_PORT_S * hyd_comp_n_local (comp);
      row[0] = comp->par[LC_DAMPING];
      row[1] = -comp->par[LC_DAMPING];
      row[hyd_comp_pos_col (comp, 0)] = comp->par[LC_STIFFNESS];
      row[hyd_comp_pos_col (comp, 1)] = -comp->par[LC_STIFFNESS];
    }
}

const HydComponentType hyd_force_sensor_type = {
  .id = "force_sensor",
  .label = N_("Force sensor (load cell)"),
  .category = HYD_CATEGORY_MEASUREMENT,
  .iso_symbol = N_("measuring instrument (ISO 1219-1 circle), marked F, between two bodies"),
  .description =
    N_("A load cell between bodies A and B. A real load cell is a stiff spring: "
       "strain gauges read the small deflection of an elastic element. So is this "
       "one: it carries F = k·(x_A − x_B) + d·(v_A − v_B), positive in compression "
       "(A pressing towards B), and its signal output S is that force in N. Its "
       "stiffness adds a mode of frequency √(k/m) to what it joins (1e8 N/m on "
       "100 kg: about 160 Hz); the damping d keeps it from ringing. Each end "
       "needs a mass or a fixed point."),
  .ports = force_sensor_ports,
  .n_ports = G_N_ELEMENTS (force_sensor_ports),
  .params = force_sensor_params,
  .n_params = G_N_ELEMENTS (force_sensor_params),
  .boundary_param = -1,
  .designator = "BW",
  .setup = force_sensor_setup,
  .eval = force_sensor_eval,
  .signals = force_sensor_signals,
};
