/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-comp-electrical-switches.c — the sources, switches and sensors of the
 * electrical control (docs/electrical.md): the +24 V supply and the 0 V
 * terminal, the pushbutton (momentary or detent), the limit switch and the
 * proximity sensor on a named cylinder's position, and the pressure switch
 * on a hydraulic port.
 *
 * None of them has a continuous row. A switch holds its discrete state 0
 * "actuated" and conducts by its contact form (hyd-comp-electrical.h); its
 * `update` sets it from what it sees, in every round of the discrete
 * states' fixed-point iteration (Cellier & Kofman, Continuous System
 * Simulation, 2006, ch. 9). The sensors' switching points are event
 * functions, located by the solver on its dense output, and `update` uses
 * the crossing direction there, so a switch changes exactly at the located
 * crossing and not one step later. */
#include "hyd-comp-electrical.h"
#include "hyd-error.h"

#include <math.h>

static gboolean
no_rows_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_pattern (comp, 0, NULL, NULL);
  return TRUE;
}

static void
nothing_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
}

/* ------------------------------------------------------ supply and ground */

static const HydPortInfo supply_ports[] = {
  { "P", HYD_DOMAIN_ELECTRICAL, FALSE, N_("the +24 V terminal") },
};

static const HydPortInfo ground_ports[] = {
  { "N", HYD_DOMAIN_ELECTRICAL, FALSE, N_("the 0 V terminal") },
};

const HydComponentType hyd_supply_24v_type = {
  .id = "supply_24v",
  .label = N_("+24 V supply"),
  .category = HYD_CATEGORY_ELECTRICAL,
  .iso_symbol = N_("IEC 60617 terminal of the +24 V rail of a current-path diagram"),
  .description =
    N_("The +24 V terminal of the control supply (the top rail of a current-path "
       "diagram, IEC 61082-1): every net joined to P through closed contacts and "
       "wires is at +24 V. A coil or lamp is energised when one terminal is joined "
       "to +24 V and the other to 0 V; +24 V joined to 0 V through closed contacts "
       "alone is a short circuit, reported with the contacts that close it. Several "
       "supply terminals are one supply."),
  .ports = supply_ports,
  .n_ports = G_N_ELEMENTS (supply_ports),
  .boundary_param = -1,
  .designator = "U",
  .roles = HYD_ROLE_ELEC_SUPPLY,
  .setup = no_rows_setup,
  .eval = nothing_eval,
};

const HydComponentType hyd_ground_0v_type = {
  .id = "ground_0v",
  .label = N_("0 V terminal"),
  .category = HYD_CATEGORY_ELECTRICAL,
  .iso_symbol = N_("IEC 60617 terminal of the 0 V rail of a current-path diagram"),
  .description =
    N_("The 0 V terminal of the control supply (the bottom rail of a current-path "
       "diagram, IEC 61082-1): every net joined to N through closed contacts and "
       "wires is at 0 V. Several 0 V terminals are one rail."),
  .ports = ground_ports,
  .n_ports = G_N_ELEMENTS (ground_ports),
  .boundary_param = -1,
  .designator = "U",
  .roles = HYD_ROLE_ELEC_GROUND,
  .setup = no_rows_setup,
  .eval = nothing_eval,
};

/* ------------------------------------------------------------ contacts */

static gboolean
set_actuated (double *d, gboolean on)
{
  double v = on ? 1.0 : 0.0;
  gboolean changed = d[0] != v;
  d[0] = v;
  return changed;
}

/* Every switch here has its contact parameter first. */
static gboolean
switch_conducts (const HydComp *comp, const double *d, guint path)
{
  return hyd_contact_conducts (comp->par[0], d[0], path);
}

/* Which side of its edge an event function g puts x (or p) now: +1 above,
 * −1 below, 0 on it. At a located crossing of event k (the first round of
 * an event's iteration) its direction says, for g is 0 there or a hair past
 * it; in the further rounds (crossed NULL) the sign, and a g of exactly 0
 * tells nothing: the switch keeps its state, so the iteration cannot undo
 * the crossing's switch. */
static int
side (double g, const int *crossed, guint k)
{
  if (crossed && crossed[k] != 0)
    return crossed[k];
  return (g > 0) - (g < 0);
}

/* A reference parameter left unset in a compiled circuit (the compiler
 * marks the hidden input connected when it names a component; outside a
 * compiled circuit, connected = 0: a help page, the canvas asking for the
 * variables, is left alone). */
static gboolean
require_reference (const HydComp *comp, guint port, const char *param, const char *what, GError **error)
{
  if (comp->connected == 0 || hyd_comp_port_connected (comp, port))
    return TRUE;
  g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_VALUE,
               "component \"%s\", parameter \"%s\": not set: name the %s", comp->id, param, what);
  return FALSE;
}

/* ----------------------------------------------------------- pushbutton */

enum { PB_CONTACT, PB_OPERATION, PB_ACTUATED };

static const char *const pb_operations[] = { N_("momentary"), N_("detent"), NULL };

static const HydPortInfo pb_ports[] = { HYD_CONTACT_PORTS };

static const HydParamInfo pb_params[] = {
  [PB_CONTACT] = HYD_CONTACT_PARAM,
  [PB_OPERATION] = { "operation", N_("Operation"), HYD_UNIT_NONE, 0, 0, 1, HYD_PARAM_ENUM, pb_operations,
                     N_("momentary: springs back when released; detent: stays where it was put (a latching switch)") },
  [PB_ACTUATED] = { "actuated", N_("Actuated"), HYD_UNIT_NONE, 0.0, 0.0, 1.0, HYD_PARAM_PROFILE, NULL,
                    N_("1 while pressed (a step profile scripts presses; a click on the symbol while running)") },
};

static gboolean
pb_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "actuated", comp->par[PB_ACTUATED] > 0.5 ? 1.0 : 0.0,
                               N_("1 while the button is pressed"));
  return no_rows_setup (comp, error);
}

static gboolean
pb_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  return set_actuated (d, comp->par[PB_ACTUATED] > 0.5);
}

const HydComponentType hyd_pushbutton_switch_type = {
  .id = "pushbutton_switch",
  .label = N_("Pushbutton switch"),
  .category = HYD_CATEGORY_ELECTRICAL,
  .iso_symbol = N_("IEC 60617 contact (make, break or changeover) operated by pushing, with a detent when latching"),
  .description =
    N_("A manually operated control switch (IEC 60947-5-1): its contact is actuated while "
       "the parameter actuated is 1. Momentary: closed while the mouse button is held on "
       "the symbol in a running simulation, springing back when released; detent: each "
       "click toggles it and it stays (a latching switch). A step profile on actuated "
       "scripts the presses; each press takes effect at its instant (a breakpoint at "
       "which the electrical network is solved again)."),
  .ports = pb_ports,
  .n_ports = G_N_ELEMENTS (pb_ports),
  .params = pb_params,
  .n_params = G_N_ELEMENTS (pb_params),
  .boundary_param = -1,
  .designator = "S",
  .operation_param = "operation",
  .command_param = "actuated",
  .return_param = "operation",
  .setup = pb_setup,
  .eval = nothing_eval,
  .update = pb_update,
  .elec_paths = hyd_contact_paths,
  .n_elec_paths = G_N_ELEMENTS (hyd_contact_paths),
  .elec_conducts = switch_conducts,
};

/* ------------------------------------------------ limit switch and sensor */

/* Ports of a switch on a cylinder: the contact, then the hidden input x
 * that the reference parameter "cylinder" wires to the cylinder's x. */
enum { CYL_X = 3 };

static const HydPortInfo cyl_switch_ports[] = {
  HYD_CONTACT_PORTS,
  [CYL_X] = { "x", HYD_DOMAIN_SIGNAL, TRUE, N_("the position x of the cylinder it names (set by the parameter cylinder)"),
              HYD_PORT_INPUT, NULL, TRUE },
};

#define CYLINDER_PARAM \
  { "cylinder", N_("Cylinder"), HYD_UNIT_NONE, NAN, -INFINITY, INFINITY, HYD_PARAM_REFERENCE | HYD_PARAM_OPTIONAL, \
    NULL, N_("the id of the cylinder whose rod actuates it (C1)"), "x", "x" }

/* A lower edge at or below x = 0 is no edge: at the retracted end stop x
 * may sit a hair below 0 (the stop's contact spring), and a switch there
 * must stay actuated. */
static double
lower_edge (double x, double edge)
{
  return edge > 0 ? x - edge : 1.0;
}

enum { LS_CONTACT, LS_CYLINDER, LS_POSITION, LS_BAND, LS_ACTUATOR };

static const char *const ls_actuators[] = { N_("roller"), N_("cam"), NULL };

static const HydParamInfo ls_params[] = {
  [LS_CONTACT] = HYD_CONTACT_PARAM,
  [LS_CYLINDER] = CYLINDER_PARAM,
  [LS_POSITION] = { "position", N_("Switching point"), HYD_UNIT_POSITION, 0.0, 0.0, INFINITY, 0, NULL,
                    N_("where the switch sits along the stroke (x of the cylinder at its middle)") },
  [LS_BAND] = { "band", N_("Travel band"), HYD_UNIT_LENGTH, 2e-3, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
                N_("the travel over which it is actuated, centred on position") },
  [LS_ACTUATOR] = { "actuator", N_("Actuator"), HYD_UNIT_NONE, 0, 0, 1, HYD_PARAM_ENUM, ls_actuators,
                    N_("how the rod works it: a roller lever or a cam (the drawing only)") },
};

static gboolean
ls_setup (HydComp *comp, GError **error)
{
  if (!require_reference (comp, CYL_X, "cylinder", "cylinder whose rod actuates it", error))
    return FALSE;
  hyd_comp_add_discrete_state (comp, "actuated", 0.0, N_("1 while the rod holds the switch actuated"));
  hyd_comp_add_event (comp, "lower edge", N_("x crosses position − band/2"));
  hyd_comp_add_event (comp, "upper edge", N_("x crosses position + band/2"));
  return no_rows_setup (comp, error);
}

static void
ls_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  double x = in->p[CYL_X], half = 0.5 * comp->par[LS_BAND];
  g[0] = lower_edge (x, comp->par[LS_POSITION] - half);
  g[1] = comp->par[LS_POSITION] + half - x;
}

/* actuated while position − band/2 ≤ x ≤ position + band/2 (on an edge:
 * as the crossing left it) */
static gboolean
ls_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  double g[2];
  ls_events (comp, in, g);
  int lo = side (g[0], crossed, 0), hi = side (g[1], crossed, 1);
  gboolean on = d[0] > 0.5;
  if (lo < 0 || hi < 0)
    on = FALSE;
  else if (lo > 0 && hi > 0)
    on = TRUE;
  return set_actuated (d, on);
}

const HydComponentType hyd_limit_switch_type = {
  .id = "limit_switch",
  .label = N_("Limit switch"),
  .category = HYD_CATEGORY_ELECTRICAL,
  .iso_symbol = N_("IEC 60617 position switch: a contact operated by a roller or a cam"),
  .description =
    N_("A mechanically operated position switch (IEC 60947-5-1) at a position along the "
       "stroke of the cylinder it names: actuated while the cylinder's x lies within the "
       "travel band, position − band/2 ≤ x ≤ position + band/2. The band's edges are "
       "event functions of x, located exactly on the solver's dense output, so the "
       "contact switches at the instant the rod reaches the edge. A switch at x = 0 stays "
       "actuated below 0; one at the stroke end works because the end stop holds x within "
       "a hair (force / end-stop stiffness) of the stroke, well inside the band."),
  .ports = cyl_switch_ports,
  .n_ports = G_N_ELEMENTS (cyl_switch_ports),
  .params = ls_params,
  .n_params = G_N_ELEMENTS (ls_params),
  .boundary_param = -1,
  .designator = "S",
  .setup = ls_setup,
  .eval = nothing_eval,
  .events = ls_events,
  .update = ls_update,
  .elec_paths = hyd_contact_paths,
  .n_elec_paths = G_N_ELEMENTS (hyd_contact_paths),
  .elec_conducts = switch_conducts,
};

enum { PX_CONTACT, PX_CYLINDER, PX_POSITION, PX_RANGE, PX_HYSTERESIS };

static const HydParamInfo px_params[] = {
  [PX_CONTACT] = HYD_CONTACT_PARAM,
  [PX_CYLINDER] = CYLINDER_PARAM,
  [PX_POSITION] = { "position", N_("Switching point"), HYD_UNIT_POSITION, 0.0, 0.0, INFINITY, 0, NULL,
                    N_("where the sensor sits along the stroke (x of the cylinder at the middle of its range)") },
  [PX_RANGE] = { "range", N_("Sensing range"), HYD_UNIT_LENGTH, 5e-3, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
                 N_("the travel over which it switches on, centred on position") },
  [PX_HYSTERESIS] = { "hysteresis", N_("Hysteresis"), HYD_UNIT_LENGTH, 1e-3, 0.0, INFINITY, 0, NULL,
                      N_("how far beyond each end of the range x must go to switch it off again") },
};

static gboolean
px_setup (HydComp *comp, GError **error)
{
  if (!require_reference (comp, CYL_X, "cylinder", "cylinder whose rod it senses", error))
    return FALSE;
  hyd_comp_add_discrete_state (comp, "actuated", 0.0, N_("1 while the sensor detects the rod"));
  hyd_comp_add_event (comp, "switch-on lower edge", N_("x crosses position − range/2"));
  hyd_comp_add_event (comp, "switch-on upper edge", N_("x crosses position + range/2"));
  hyd_comp_add_event (comp, "switch-off lower edge", N_("x crosses position − range/2 − hysteresis"));
  hyd_comp_add_event (comp, "switch-off upper edge", N_("x crosses position + range/2 + hysteresis"));
  return no_rows_setup (comp, error);
}

static void
px_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  double x = in->p[CYL_X], half = 0.5 * comp->par[PX_RANGE], h = comp->par[PX_HYSTERESIS];
  double lo = comp->par[PX_POSITION] - half, hi = comp->par[PX_POSITION] + half;
  /* a range reaching x = 0 has no lower edges (lower_edge) */
  g[0] = lower_edge (x, lo);
  g[1] = hi - x;
  g[2] = lo > 0 ? lower_edge (x, lo - h) : 1.0;
  g[3] = hi + h - x;
}

/* Off: switches on inside [lo, hi]. On: switches off outside
 * [lo − hysteresis, hi + hysteresis]. */
static gboolean
px_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  double g[4];
  px_events (comp, in, g);
  gboolean on = d[0] > 0.5;
  if (on)
    on = !(side (g[2], crossed, 2) < 0 || side (g[3], crossed, 3) < 0);
  else
    on = side (g[0], crossed, 0) > 0 && side (g[1], crossed, 1) > 0;
  return set_actuated (d, on);
}

const HydComponentType hyd_proximity_sensor_type = {
  .id = "proximity_sensor",
  .label = N_("Proximity sensor"),
  .category = HYD_CATEGORY_ELECTRICAL,
  .iso_symbol = N_("IEC 60617 proximity switch: a contact operated by a sensor (a diamond)"),
  .description =
    N_("A contactless (inductive, capacitive or magnetic) proximity switch (IEC 60947-5-2) "
       "at a position along the stroke of the cylinder it names: it switches on when x "
       "enters the sensing range [position − range/2, position + range/2] and off when x "
       "leaves the range widened by the hysteresis on each side, so it does not chatter "
       "at an edge. The four edges are event functions of x, located exactly on the "
       "solver's dense output."),
  .ports = cyl_switch_ports,
  .n_ports = G_N_ELEMENTS (cyl_switch_ports),
  .params = px_params,
  .n_params = G_N_ELEMENTS (px_params),
  .boundary_param = -1,
  .designator = "B",
  .setup = px_setup,
  .eval = nothing_eval,
  .events = px_events,
  .update = px_update,
  .elec_paths = hyd_contact_paths,
  .n_elec_paths = G_N_ELEMENTS (hyd_contact_paths),
  .elec_conducts = switch_conducts,
};

/* ------------------------------------------------------- pressure switch */

enum { PS_X = 3 };
enum { PS_CONTACT, PS_SETTING, PS_HYSTERESIS };

static const HydPortInfo ps_ports[] = {
  HYD_CONTACT_PORTS,
  [PS_X] = { "X", HYD_DOMAIN_HYDRAULIC, FALSE, N_("the pressure it senses (takes no flow, adds no volume)") },
};

static const HydParamInfo ps_params[] = {
  [PS_CONTACT] = HYD_CONTACT_PARAM,
  [PS_SETTING] = { "setting", N_("Switching pressure"), HYD_UNIT_PRESSURE, 5e6, 0.0, INFINITY, 0, NULL,
                   N_("it switches on when the pressure at X rises to this") },
  [PS_HYSTERESIS] = { "hysteresis", N_("Hysteresis"), HYD_UNIT_PRESSURE, 2e5, 0.0, INFINITY, 0, NULL,
                      N_("it switches off when the pressure falls to setting − hysteresis") },
};

static gboolean
ps_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "actuated", 0.0, N_("1 while the pressure holds the switch actuated"));
  hyd_comp_add_event (comp, "switch-on pressure", N_("the pressure at X crosses the setting"));
  hyd_comp_add_event (comp, "switch-off pressure", N_("the pressure at X crosses setting − hysteresis"));
  return no_rows_setup (comp, error);
}

static void
ps_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = in->p[PS_X] - comp->par[PS_SETTING];
  g[1] = in->p[PS_X] - (comp->par[PS_SETTING] - comp->par[PS_HYSTERESIS]);
}

/* On when p rises to the setting, off when it falls to setting −
 * hysteresis; between them it keeps its state. */
static gboolean
ps_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  double g[2];
  ps_events (comp, in, g);
  gboolean on = d[0] > 0.5;
  if (side (g[0], crossed, 0) > 0)
    on = TRUE;
  else if (side (g[1], crossed, 1) < 0)
    on = FALSE;
  return set_actuated (d, on);
}

const HydComponentType hyd_pressure_switch_type = {
  .id = "pressure_switch",
  .label = N_("Pressure switch"),
  .category = HYD_CATEGORY_ELECTRICAL,
  .iso_symbol = N_("IEC 60617 contact operated by pressure, with its hydraulic port"),
  .description =
    N_("An electro-hydraulic pressure switch (ISO 1219-1 pressure switch; contact to "
       "IEC 60947-5-1): actuated when the pressure at X rises to the setting, released "
       "when it falls to setting − hysteresis; between the two it keeps its state. Both "
       "levels are event functions of the pressure, located exactly on the solver's dense "
       "output. Like a gauge it takes no flow and adds no volume: the node at X needs the "
       "volume of the lines or components joined there."),
  .ports = ps_ports,
  .n_ports = G_N_ELEMENTS (ps_ports),
  .params = ps_params,
  .n_params = G_N_ELEMENTS (ps_params),
  .boundary_param = -1,
  .designator = "B",
  .roles = HYD_ROLE_STORES_OIL,
  .setup = ps_setup,
  .eval = nothing_eval,
  .events = ps_events,
  .update = ps_update,
  .elec_paths = hyd_contact_paths,
  .n_elec_paths = G_N_ELEMENTS (hyd_contact_paths),
  .elec_conducts = switch_conducts,
};
