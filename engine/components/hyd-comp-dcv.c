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
 * τ > 0, the state `spool` with τ·u̇ = command − u (a first-order spool).
 *
 * The pilot-operated variants dcv_4_3_pilot, dcv_4_2_pilot, dcv_3_2_pilot
 * and dcv_2_2_pilot (extension, docs/circuit-format.md) take the command
 * from the pressure at their pilot ports instead of a lever or a solenoid:
 * c = open01((p_X − p_s)/Δp_s) (− open01((p_Y − p_s)/Δp_s) on the 4/3), the
 * spool shifting over the pilot range Δp_s above the pilot setting p_s
 * against its spring. The pilot ports take no flow (a static pilot).
 *
 * Solenoid valves (docs/circuit-format.md, "Solenoid valves"): the reference
 * parameters solenoid_a and solenoid_b name solenoid coils of the ladder
 * diagram; their "energised" states arrive at the hidden signal inputs Ya
 * and Yb. A wired coil replaces the command: c = Ya − Yb on the 4/3
 * (spring-centred), c = Ya on a 2-position valve with one solenoid (spring
 * return), and on a 2-position valve with both the discrete state
 * "position" (a detent: set to 1 by Ya alone, to 0 by Yb alone, held
 * otherwise). The spool then moves at the constant speed 1/T_s, T_s =
 * switching_time, smoothed near its target:
 *   u̇ = tanh((c − u)/δ)/T_s,  δ = 0.01,
 * so it covers one position (0 → 1, or the 4/3's centre → ±1) in T_s; T_s = 0:
 * u = c at once. */
#include "hyd-component.h"
#include "hyd-i18n.h"
#include "hyd-error.h"
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
  /* where the parameters are: the two families order them differently */
  guint i_tau, i_leak;
  /* pilot-operated: the pilot ports (−1 when none) */
  gboolean pilot;
  int port_x, port_y;
  /* solenoid-operated: the hidden inputs Ya, Yb (−1 when none), which of
   * them a reference wires, and where switching_time is */
  int port_ya, port_yb;
  gboolean sol_a, sol_b;
  gboolean solenoid; /* a coil is named: the coils give the command */
  gboolean detent;   /* a 2-position valve with both: discrete state "position" */
  guint i_switch;
} DcvPriv;

/* The smoothing width δ of the switching law u̇ = tanh((c − u)/δ)/T_s, in
 * units of the spool position: the spool slows only in the last δ or so
 * of its travel. */
#define DCV_SWITCH_DELTA 0.01

/* Parameters of the pilot-operated valves. */
enum {
  DCVP_NOMINAL_FLOW,
  DCVP_NOMINAL_DP,
  DCVP_PILOT_P,
  DCVP_PILOT_RANGE,
  DCVP_TAU,
  DCVP_LEAKAGE,
  DCVP_CENTRE, /* dcv_4_3_pilot only */
};

/* ---------------------------------------------------------------------------
 * metadata
 * ------------------------------------------------------------------------- */

enum { P4_P, P4_T, P4_A, P4_B };
enum { P3_P, P3_A, P3_T };
enum { P2_A, P2_B };

/* The solenoids' hidden inputs, after the working ports (docs/electrical.md,
 * "References"): never drawn nor wired, set by solenoid_a / solenoid_b. */
#define DCV_SOLENOID_PORTS \
  { "Ya", HYD_DOMAIN_SIGNAL, TRUE, N_("Solenoid a energised (1) or not (0): the coil solenoid_a names"), \
    HYD_PORT_INPUT, "command", TRUE }, \
  { "Yb", HYD_DOMAIN_SIGNAL, TRUE, N_("Solenoid b energised (1) or not (0): the coil solenoid_b names"), \
    HYD_PORT_INPUT, "command", TRUE }

static const HydPortInfo dcv4_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pressure (supply)") },
  { "T", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Tank (return)") },
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Work port A") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Work port B") },
  DCV_SOLENOID_PORTS,
};

static const HydPortInfo dcv3_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pressure (supply)") },
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Work port A") },
  { "T", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Tank (return)") },
  DCV_SOLENOID_PORTS,
};

static const HydPortInfo dcv2_ports[] = {
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Inlet (positive flow A→B)") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Outlet") },
  DCV_SOLENOID_PORTS,
};

static const char *const actuation_choices[] = { N_("lever"), N_("solenoid"), N_("pushbutton"), N_("pedal"), NULL };
static const char *const return_choices[] = { N_("spring"), N_("detent"), NULL };
static const char *const centre_choices[] = { N_("closed"), N_("open"), N_("tandem"), N_("float"), NULL };

#define DCV_FLOW_PARAMS \
  { "nominal_flow", N_("Nominal flow"), HYD_UNIT_FLOW, 40e-3 / 60.0 /* 40 L/min */, 0.0, INFINITY, \
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Flow of each fully open path at the nominal pressure drop") }, \
  { "nominal_pressure_drop", N_("Nominal pressure drop"), HYD_UNIT_PRESSURE, 5e5, 0.0, INFINITY, \
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Pressure drop at which a fully open path passes the nominal flow") }

#define DCV_SPOOL_PARAMS \
  { "actuation", N_("Actuation"), HYD_UNIT_NONE, 0.0, 0.0, 3.0, HYD_PARAM_ENUM, actuation_choices, \
    N_("How the spool is operated: lever, solenoid, pushbutton or pedal (symbol and GUI handling only)") }, \
  { "spool_time_constant", N_("Spool time constant"), HYD_UNIT_TIME, 0.0, 0.0, INFINITY, 0, NULL, \
    N_("First-order lag of the spool behind the command (0 = follows at once)") }, \
  { "leakage_fraction", N_("Leakage fraction"), HYD_UNIT_NONE, 0.0, 0.0, 1.0, \
    HYD_PARAM_MAX_EXCLUSIVE, NULL, N_("Area of a closed metering path as a fraction of the full area") }

/* Appended after every other parameter of the operated valves, so that the
 * indices above stay those of the spec. */
#define DCV_RETURN_PARAM \
  { "operator_return", N_("Operator return"), HYD_UNIT_NONE, 0.0, 0.0, 1.0, HYD_PARAM_ENUM, return_choices, \
    N_("A lever, pushbutton or pedal springs back to the neutral command when released (spring) or stays where it is put (detent); symbol and GUI handling only") }

/* Appended after operator_return: the solenoids of the ladder diagram and
 * their switching time (docs/circuit-format.md, "Solenoid valves"). */
#define DCV_SOLENOID_PARAMS \
  { "solenoid_a", N_("Solenoid a"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, \
    HYD_PARAM_REFERENCE | HYD_PARAM_OPTIONAL, NULL, \
    N_("The solenoid coil (e.g. Y1) whose energising drives the spool towards command +1 (P→A)"), \
    "Ya", "energised" }, \
  { "solenoid_b", N_("Solenoid b"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, \
    HYD_PARAM_REFERENCE | HYD_PARAM_OPTIONAL, NULL, \
    N_("The solenoid coil (e.g. Y2) whose energising drives the spool towards the other end (P→B)"), \
    "Yb", "energised" }, \
  { "switching_time", N_("Switching time"), HYD_UNIT_TIME, 0.02, 0.0, INFINITY, 0, NULL, \
    N_("With a solenoid named: time the spool takes from one position to the next at constant speed " \
       "(0 = at once); the default 20 ms is a choice, of the order of a small DC solenoid valve") }

static const HydParamInfo dcv_4_3_params[] = {
  DCV_FLOW_PARAMS,
  { "command", N_("Command"), HYD_UNIT_NONE, 0.0, -1.0, 1.0, HYD_PARAM_PROFILE, NULL,
    N_("Spool command: +1 opens P→A and B→T, −1 opens P→B and A→T, 0 is the centre") },
  DCV_SPOOL_PARAMS,
  { "centre", N_("Centre position"), HYD_UNIT_NONE, 0.0, 0.0, 3.0, HYD_PARAM_ENUM, centre_choices,
    N_("Paths of the centre position: closed, open (all ports), tandem (P–T) or float (A, B–T)") },
  DCV_RETURN_PARAM,
  DCV_SOLENOID_PARAMS,
};

static const HydParamInfo dcv_4_2_params[] = {
  DCV_FLOW_PARAMS,
  { "command", N_("Command"), HYD_UNIT_NONE, 0.0, 0.0, 1.0, HYD_PARAM_PROFILE, NULL,
    N_("Spool command: 0 connects P→B and A→T, 1 connects P→A and B→T") },
  DCV_SPOOL_PARAMS,
  DCV_RETURN_PARAM,
  DCV_SOLENOID_PARAMS,
};

static const HydParamInfo dcv_3_2_params[] = {
  DCV_FLOW_PARAMS,
  { "command", N_("Command"), HYD_UNIT_NONE, 0.0, 0.0, 1.0, HYD_PARAM_PROFILE, NULL,
    N_("Spool command: 0 connects A→T, 1 connects P→A") },
  DCV_SPOOL_PARAMS,
  DCV_RETURN_PARAM,
  DCV_SOLENOID_PARAMS,
};

static const HydParamInfo dcv_2_2_params[] = {
  DCV_FLOW_PARAMS,
  { "command", N_("Command"), HYD_UNIT_NONE, 0.0, 0.0, 1.0, HYD_PARAM_PROFILE, NULL,
    N_("Spool command: 0 closed, 1 open A→B") },
  DCV_SPOOL_PARAMS,
  DCV_RETURN_PARAM,
  DCV_SOLENOID_PARAMS,
};

/* Pilot-operated valves: the working ports of the solenoid valves, then X
 * (and Y on the 4/3). */
enum { P4_X = 4, P4_Y = 5 };
enum { P3_X = 3 };
enum { P2_X = 2 };

static const HydPortInfo dcv4_pilot_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pressure (supply)") },
  { "T", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Tank (return)") },
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Work port A") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Work port B") },
  { "X", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pilot port X: its pressure shifts the spool towards P→A, B→T") },
  { "Y", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pilot port Y: its pressure shifts the spool towards P→B, A→T") },
};

static const HydPortInfo dcv4_2_pilot_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pressure (supply)") },
  { "T", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Tank (return)") },
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Work port A") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Work port B") },
  { "X", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pilot port X: its pressure shifts the spool against the return spring") },
};

static const HydPortInfo dcv3_pilot_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pressure (supply)") },
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Work port A") },
  { "T", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Tank (return)") },
  { "X", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pilot port X: its pressure shifts the spool against the return spring") },
};

static const HydPortInfo dcv2_pilot_ports[] = {
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Inlet (positive flow A→B)") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Outlet") },
  { "X", HYD_DOMAIN_HYDRAULIC, FALSE, N_("Pilot port X: its pressure shifts the spool against the return spring") },
};

#define DCV_PILOT_PARAMS \
  { "pilot_pressure", N_("Pilot pressure"), HYD_UNIT_PRESSURE, 5e5, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, \
    NULL, N_("Pilot pressure (gauge) at which the spool starts to shift against its spring") }, \
  { "pilot_pressure_range", N_("Pilot pressure range"), HYD_UNIT_PRESSURE, 2e5, 0.0, INFINITY, \
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("Rise of the pilot pressure above the pilot pressure that shifts the spool fully") }, \
  { "spool_time_constant", N_("Spool time constant"), HYD_UNIT_TIME, 0.0, 0.0, INFINITY, 0, NULL, \
    N_("First-order lag of the spool behind the pilot (0 = follows at once)") }, \
  { "leakage_fraction", N_("Leakage fraction"), HYD_UNIT_NONE, 0.0, 0.0, 1.0, \
    HYD_PARAM_MAX_EXCLUSIVE, NULL, N_("Area of a closed metering path as a fraction of the full area") }

static const HydParamInfo dcv_4_3_pilot_params[] = {
  DCV_FLOW_PARAMS,
  DCV_PILOT_PARAMS,
  { "centre", N_("Centre position"), HYD_UNIT_NONE, 0.0, 0.0, 3.0, HYD_PARAM_ENUM, centre_choices,
    N_("Paths of the centre position: closed, open (all ports), tandem (P–T) or float (A, B–T)") },
};

static const HydParamInfo dcv_pilot_params[] = {
  DCV_FLOW_PARAMS,
  DCV_PILOT_PARAMS,
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
extern const HydComponentType hyd_dcv_4_3_pilot_type;
extern const HydComponentType hyd_dcv_4_2_pilot_type;
extern const HydComponentType hyd_dcv_3_2_pilot_type;
extern const HydComponentType hyd_dcv_2_2_pilot_type;

static gboolean
dcv_is_pilot (const HydComp *comp)
{
  return comp->type == &hyd_dcv_4_3_pilot_type || comp->type == &hyd_dcv_4_2_pilot_type
         || comp->type == &hyd_dcv_3_2_pilot_type || comp->type == &hyd_dcv_2_2_pilot_type;
}

static DcvKind
dcv_kind (const HydComp *comp)
{
  if (comp->type == &hyd_dcv_4_3_type || comp->type == &hyd_dcv_4_3_pilot_type)
    return DCV_4_3;
  if (comp->type == &hyd_dcv_4_2_type || comp->type == &hyd_dcv_4_2_pilot_type)
    return DCV_4_2;
  if (comp->type == &hyd_dcv_3_2_type || comp->type == &hyd_dcv_3_2_pilot_type)
    return DCV_3_2;
  return DCV_2_2;
}

/* A spool state: τ > 0, or, with a solenoid named, T_s > 0 (setup has
 * filled priv). */
static gboolean
dcv_has_spool_state (const HydComp *comp)
{
  const DcvPriv *priv = comp->priv;
  return comp->par[priv->solenoid ? priv->i_switch : priv->i_tau] > 0.0;
}

/* The command the coils give (docs/circuit-format.md, "Solenoid valves")
 * and its partials with respect to the inputs Ya and Yb: the detent's
 * position, or Ya − Yb (a coil not named counts 0). */
static double
solenoid_command (const HydComp *comp, const HydEvalIn *in, double *dc_da, double *dc_db)
{
  const DcvPriv *priv = comp->priv;
  double c = 0.0;
  *dc_da = *dc_db = 0.0;
  if (priv->detent)
    return in->d ? in->d[0] : comp->d0[0];
  if (priv->sol_a)
    {
      c += in->p[priv->port_ya];
      *dc_da = 1.0;
    }
  if (priv->sol_b)
    {
      c -= in->p[priv->port_yb];
      *dc_db = -1.0;
    }
  return c;
}

/* The pilot command c(p_X, p_Y) of a pilot-operated valve and its partials:
 * c = open01((p_X − p_s)/Δp_s) − open01((p_Y − p_s)/Δp_s) (no Y: 0). */
static double
pilot_command (const HydComp *comp, const double *p, double *dc_dx, double *dc_dy)
{
  const DcvPriv *priv = comp->priv;
  double ps = comp->par[DCVP_PILOT_P], range = comp->par[DCVP_PILOT_RANGE], d;
  double c = hyd_open01 ((p[priv->port_x] - ps) / range, HYD_SMOOTH_EPS, &d);
  *dc_dx = d / range;
  *dc_dy = 0.0;
  if (priv->port_y >= 0)
    {
      c -= hyd_open01 ((p[priv->port_y] - ps) / range, HYD_SMOOTH_EPS, &d);
      *dc_dy = -d / range;
    }
  return c;
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
        DcvCentre centre = (DcvCentre) comp->par[dcv_is_pilot (comp) ? DCVP_CENTRE : DCV_CENTRE];
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

  priv->pilot = dcv_is_pilot (comp);
  priv->i_tau = priv->pilot ? DCVP_TAU : DCV_TAU;
  priv->i_leak = priv->pilot ? DCVP_LEAKAGE : DCV_LEAKAGE;
  priv->port_x = priv->port_y = -1;
  if (priv->pilot)
    {
      priv->port_x = hyd_component_type_find_port (comp->type, "X");
      priv->port_y = hyd_component_type_find_port (comp->type, "Y");
    }
  /* a reference solenoid_a / solenoid_b wires the hidden input Ya / Yb */
  priv->port_ya = hyd_component_type_find_port (comp->type, "Ya");
  priv->port_yb = hyd_component_type_find_port (comp->type, "Yb");
  priv->sol_a = priv->port_ya >= 0 && hyd_comp_port_connected (comp, (guint) priv->port_ya);
  priv->sol_b = priv->port_yb >= 0 && hyd_comp_port_connected (comp, (guint) priv->port_yb);
  priv->solenoid = priv->sol_a || priv->sol_b;
  priv->detent = priv->sol_a && priv->sol_b && dcv_kind (comp) != DCV_4_3;
  int i_switch = hyd_component_type_find_param (comp->type, "switching_time");
  priv->i_switch = i_switch >= 0 ? (guint) i_switch : priv->i_tau;
  g_free (comp->priv);
  comp->priv = priv;

  if (priv->sol_b && !priv->sol_a && dcv_kind (comp) != DCV_4_3)
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_VALUE,
                   "component \"%s\", parameter \"solenoid_b\": a 2-position valve with one "
                   "solenoid names it in solenoid_a (it shifts the spool against the return "
                   "spring, to command 1)",
                   comp->id);
      return FALSE;
    }
  if (priv->detent)
    /* the double-solenoid valve's detent, where `command` puts it at t = 0 */
    hyd_comp_add_discrete_state (comp, "position", comp->par[DCV_COMMAND] >= 0.5 ? 1.0 : 0.0,
                                 N_("Detent position of a double-solenoid valve: 1 after solenoid a "
                                    "alone was energised, 0 after solenoid b alone"));

  if (priv->pilot)
    {
      hyd_comp_add_event (comp, "pilot X shifting", N_("the pilot pressure at X reaches the pilot pressure"));
      hyd_comp_add_event (comp, "pilot X shifted",
                          N_("the pilot pressure at X reaches the pilot pressure plus its range"));
      if (priv->port_y >= 0)
        {
          hyd_comp_add_event (comp, "pilot Y shifting", N_("the pilot pressure at Y reaches the pilot pressure"));
          hyd_comp_add_event (comp, "pilot Y shifted",
                              N_("the pilot pressure at Y reaches the pilot pressure plus its range"));
        }
    }

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
  /* components.md: spool = command(0); a pilot valve's at the initial
   * pilot pressures */
  const DcvPriv *priv = comp->priv;
  double dx, dy;
  if (!dcv_has_spool_state (comp))
    return;
  if (priv->solenoid)
    /* a solenoid valve starts at rest: the spring position, or the
     * detent's; a coil energised at t = 0 moves it in the switching time */
    x0[0] = priv->detent ? comp->d0[0] : 0.0;
  else
    x0[0] = priv->pilot ? pilot_command (comp, p0, &dx, &dy) : comp->par[DCV_COMMAND];
}

/* The detent of a double-solenoid valve: solenoid a alone sets position 1,
 * solenoid b alone 0; none or both hold it (docs/circuit-format.md,
 * "Solenoid valves"). */
static gboolean
dcv_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  const DcvPriv *priv = comp->priv;
  if (!priv->detent)
    return FALSE;
  gboolean a = in->p[priv->port_ya] > 0.5, b = in->p[priv->port_yb] > 0.5;
  double v = a && !b ? 1.0 : b && !a ? 0.0 : d[0];
  gboolean changed = v != d[0];
  d[0] = v;
  return changed;
}

static void
dcv_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  const DcvPriv *priv = comp->priv;
  double ps = comp->par[DCVP_PILOT_P], range = comp->par[DCVP_PILOT_RANGE];
  g[0] = in->p[priv->port_x] - ps;
  g[1] = in->p[priv->port_x] - ps - range;
  if (priv->port_y >= 0)
    {
      g[2] = in->p[priv->port_y] - ps;
      g[3] = in->p[priv->port_y] - ps - range;
    }
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
  /* the command: the operator's parameter, the pilot law c(p_X, p_Y) or
   * the solenoids' c(Ya, Yb); the inputs it depends on are columns cx, cy */
  double dc_dx = 0.0, dc_dy = 0.0;
  int cx = -1, cy = -1;
  double command, command_t = 0.0;
  if (priv->pilot)
    {
      command = pilot_command (comp, in->p, &dc_dx, &dc_dy);
      cx = priv->port_x;
      cy = priv->port_y;
    }
  else if (priv->solenoid)
    {
      command = solenoid_command (comp, in, &dc_dx, &dc_dy);
      cx = priv->sol_a && !priv->detent ? priv->port_ya : -1;
      cy = priv->sol_b && !priv->detent ? priv->port_yb : -1;
    }
  else
    {
      command = par[DCV_COMMAND];
      command_t = comp->par_dt[DCV_COMMAND];
    }
  double u = spool_state ? in->x[0] : command;
  double lambda = par[priv->i_leak];
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
          else
            {
              /* u = c(p_X, p_Y) or c(Ya, Yb): the pilots or coils move the areas */
              if (cx >= 0)
                {
                  HYD_JAC (comp, out, pair->x, cx) += dq_du * dc_dx;
                  HYD_JAC (comp, out, pair->y, cx) -= dq_du * dc_dx;
                }
              if (cy >= 0)
                {
                  HYD_JAC (comp, out, pair->x, cy) += dq_du * dc_dy;
                  HYD_JAC (comp, out, pair->y, cy) -= dq_du * dc_dy;
                }
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

  if (spool_state && priv->solenoid)
    {
      /* u̇ = tanh((c − u)/δ)/T_s: speed 1/T_s, smoothed in the last δ */
      double Ts = par[priv->i_switch];
      double w = (command - u) / DCV_SWITCH_DELTA, th = tanh (w), ch = cosh (w);
      /* d tanh/dw = 1/cosh² w (not 1 − tanh², which cancels in the tail) */
      double slope = 1.0 / (ch * ch) / (DCV_SWITCH_DELTA * Ts);
      out->xdot[0] = th / Ts;
      if (out->jac)
        {
          HYD_JAC (comp, out, np, np) = -slope;
          if (cx >= 0)
            HYD_JAC (comp, out, np, cx) = slope * dc_dx;
          if (cy >= 0)
            HYD_JAC (comp, out, np, cy) = slope * dc_dy;
        }
    }
  else if (spool_state)
    {
      /* τ·u̇ = command − u (first-order spool) */
      double tau = par[priv->i_tau];
      out->xdot[0] = (command - u) / tau;
      if (out->jac)
        {
          HYD_JAC (comp, out, np, np) = -1.0 / tau;
          if (cx >= 0)
            HYD_JAC (comp, out, np, cx) = dc_dx / tau;
          if (cy >= 0)
            HYD_JAC (comp, out, np, cy) = dc_dy / tau;
        }
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
  .iso_symbol = N_("4/3 directional control valve (three envelopes, centre per `centre`, spring-centred or held by a detent; lever, solenoid, pushbutton or pedal operator)"),
  .description = N_("4/3 directional valve: f_PA = f_BT = open01(u), f_PB = f_AT = "
                    "open01(−u); centre contributions c(u) = open01(1 − 16u²) on "
                    "P–A, P–B, A–T, B–T (open), P–T (tandem), A–T and B–T (float), "
                    "none (closed). "
                    "A_XY = a·(λ_XY + (1 − λ_XY)·Σ f_c(u)), a passing nominal_flow at "
                    "nominal_pressure_drop, λ = leakage_fraction on metering paths; each pair "
                    "is an orifice (Esqué eq. 3.7). Spool u = command, or τ·u̇ = command − u "
                    "when spool_time_constant τ > 0 (a first-order spool). Solenoid "
                    "operation (solenoid_a, solenoid_b name coils): command = Ya − Yb, "
                    "spring-centred (both or none energised: centre), and the spool moves as "
                    "u̇ = tanh((command − u)/0.01)/T_s, T_s = switching_time: from the centre "
                    "to an end in T_s."),
  .ports = dcv4_ports,
  .n_ports = G_N_ELEMENTS (dcv4_ports),
  .params = dcv_4_3_params,
  .n_params = G_N_ELEMENTS (dcv_4_3_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .operation_param = "actuation",
  .command_param = "command",
  .return_param = "operator_return",
  .setup = dcv_setup,
  .init_states = dcv_init_states,
  .eval = dcv_eval,
  .update = dcv_update,
};

const HydComponentType hyd_dcv_4_2_type = {
  .id = "dcv_4_2",
  .label = N_("4/2 directional valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("4/2 directional control valve (two envelopes, spring return or detent; lever, solenoid, pushbutton or pedal operator)"),
  .description = N_("4/2 directional valve: f_PA = f_BT = open01(u), f_PB = f_AT = "
                    "open01(1 − u). "
                    "A_XY = a·(λ_XY + (1 − λ_XY)·Σ f_c(u)), a passing nominal_flow at "
                    "nominal_pressure_drop, λ = leakage_fraction on metering paths; each pair "
                    "is an orifice (Esqué eq. 3.7). Spool u = command, or τ·u̇ = command − u "
                    "when spool_time_constant τ > 0 (a first-order spool). Solenoid "
                    "operation: solenoid_a alone gives command = Ya (spring return); "
                    "solenoid_a and solenoid_b a detent (impulse valve) whose position is set "
                    "to 1 by Ya alone, to 0 by Yb alone and held otherwise; the spool moves "
                    "as u̇ = tanh((command − u)/0.01)/T_s, T_s = switching_time: from one "
                    "position to the other in T_s."),
  .ports = dcv4_ports,
  .n_ports = G_N_ELEMENTS (dcv4_ports),
  .params = dcv_4_2_params,
  .n_params = G_N_ELEMENTS (dcv_4_2_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .operation_param = "actuation",
  .command_param = "command",
  .return_param = "operator_return",
  .setup = dcv_setup,
  .init_states = dcv_init_states,
  .eval = dcv_eval,
  .update = dcv_update,
};

const HydComponentType hyd_dcv_3_2_type = {
  .id = "dcv_3_2",
  .label = N_("3/2 directional valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("3/2 directional control valve (two envelopes, spring return or detent; lever, solenoid, pushbutton or pedal operator)"),
  .description = N_("3/2 directional valve: f_PA = open01(u), f_AT = open01(1 − u). "
                    "A_XY = a·(λ_XY + (1 − λ_XY)·Σ f_c(u)), a passing nominal_flow at "
                    "nominal_pressure_drop, λ = leakage_fraction on metering paths; each pair "
                    "is an orifice (Esqué eq. 3.7). Spool u = command, or τ·u̇ = command − u "
                    "when spool_time_constant τ > 0 (a first-order spool). Solenoid "
                    "operation: solenoid_a alone gives command = Ya (spring return); "
                    "solenoid_a and solenoid_b a detent (impulse valve) whose position is set "
                    "to 1 by Ya alone, to 0 by Yb alone and held otherwise; the spool moves "
                    "as u̇ = tanh((command − u)/0.01)/T_s, T_s = switching_time: from one "
                    "position to the other in T_s."),
  .ports = dcv3_ports,
  .n_ports = G_N_ELEMENTS (dcv3_ports),
  .params = dcv_3_2_params,
  .n_params = G_N_ELEMENTS (dcv_3_2_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .operation_param = "actuation",
  .command_param = "command",
  .return_param = "operator_return",
  .setup = dcv_setup,
  .init_states = dcv_init_states,
  .eval = dcv_eval,
  .update = dcv_update,
};

const HydComponentType hyd_dcv_2_2_type = {
  .id = "dcv_2_2",
  .label = N_("2/2 directional valve"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("2/2 directional control valve, normally closed (two envelopes, spring return or detent; lever, solenoid, pushbutton or pedal operator)"),
  .description = N_("2/2 directional valve, normally closed: f_AB = open01(u). "
                    "A_XY = a·(λ_XY + (1 − λ_XY)·Σ f_c(u)), a passing nominal_flow at "
                    "nominal_pressure_drop, λ = leakage_fraction on metering paths; each pair "
                    "is an orifice (Esqué eq. 3.7). Spool u = command, or τ·u̇ = command − u "
                    "when spool_time_constant τ > 0 (a first-order spool). Solenoid "
                    "operation: solenoid_a alone gives command = Ya (spring return); "
                    "solenoid_a and solenoid_b a detent (impulse valve) whose position is set "
                    "to 1 by Ya alone, to 0 by Yb alone and held otherwise; the spool moves "
                    "as u̇ = tanh((command − u)/0.01)/T_s, T_s = switching_time: from one "
                    "position to the other in T_s."),
  .ports = dcv2_ports,
  .n_ports = G_N_ELEMENTS (dcv2_ports),
  .params = dcv_2_2_params,
  .n_params = G_N_ELEMENTS (dcv_2_2_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .operation_param = "actuation",
  .command_param = "command",
  .return_param = "operator_return",
  .setup = dcv_setup,
  .init_states = dcv_init_states,
  .eval = dcv_eval,
  .update = dcv_update,
};

/* ---------------------------------------------------------------------------
 * pilot-operated directional valves (extension, docs/circuit-format.md)
 * ------------------------------------------------------------------------- */

const HydComponentType hyd_dcv_4_3_pilot_type = {
  .id = "dcv_4_3_pilot",
  .label = N_("4/3 directional valve, pilot operated"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("4/3 directional control valve with hydraulic pilot operation at both ends (dashed pilot lines X and Y into filled pilot triangles), spring-centred"),
  .description = N_("Pilot-operated 4/3 directional valve: the spool command is "
                    "c = open01((p_X − p_s)/Δp_s) − open01((p_Y − p_s)/Δp_s), p_s = "
                    "pilot_pressure, Δp_s = pilot_pressure_range (gauge pilot pressures, the "
                    "spring chambers drained): X shifts the spool towards P→A, B→T once p_X "
                    "exceeds p_s, fully at p_s + Δp_s; Y the other way; both pilots cancel. "
                    "The pilot ports take no flow. Paths as dcv_4_3: f_PA = f_BT = open01(u), "
                    "f_PB = f_AT = open01(−u), centre c(u) = open01(1 − 16u²) per `centre`; "
                    "A_XY = a·(λ_XY + (1 − λ_XY)·Σ f_c(u)), each pair an orifice (Esqué "
                    "eq. 3.7). Spool u = c, or τ·u̇ = c − u when spool_time_constant τ > 0."),
  .ports = dcv4_pilot_ports,
  .n_ports = G_N_ELEMENTS (dcv4_pilot_ports),
  .params = dcv_4_3_pilot_params,
  .n_params = G_N_ELEMENTS (dcv_4_3_pilot_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .setup = dcv_setup,
  .init_states = dcv_init_states,
  .eval = dcv_eval,
  .events = dcv_events,
};

const HydComponentType hyd_dcv_4_2_pilot_type = {
  .id = "dcv_4_2_pilot",
  .label = N_("4/2 directional valve, pilot operated"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("4/2 directional control valve with hydraulic pilot operation (dashed pilot line X into a filled pilot triangle), spring return"),
  .description = N_("Pilot-operated 4/2 directional valve with spring return: the spool "
                    "command is c = open01((p_X − p_s)/Δp_s), p_s = pilot_pressure, Δp_s = "
                    "pilot_pressure_range (gauge): below p_s the spring holds P→B, A→T; "
                    "above p_s + Δp_s the pilot holds P→A, B→T. The pilot port takes no "
                    "flow. f_PA = f_BT = open01(u), f_PB = f_AT = open01(1 − u); "
                    "A_XY = a·(λ_XY + (1 − λ_XY)·Σ f_c(u)), each pair an orifice (Esqué "
                    "eq. 3.7). Spool u = c, or τ·u̇ = c − u when spool_time_constant τ > 0."),
  .ports = dcv4_2_pilot_ports,
  .n_ports = G_N_ELEMENTS (dcv4_2_pilot_ports),
  .params = dcv_pilot_params,
  .n_params = G_N_ELEMENTS (dcv_pilot_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .setup = dcv_setup,
  .init_states = dcv_init_states,
  .eval = dcv_eval,
  .events = dcv_events,
};

const HydComponentType hyd_dcv_3_2_pilot_type = {
  .id = "dcv_3_2_pilot",
  .label = N_("3/2 directional valve, pilot operated"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("3/2 directional control valve with hydraulic pilot operation (dashed pilot line X into a filled pilot triangle), spring return, normally closed"),
  .description = N_("Pilot-operated 3/2 directional valve with spring return: the spool "
                    "command is c = open01((p_X − p_s)/Δp_s), p_s = pilot_pressure, Δp_s = "
                    "pilot_pressure_range (gauge): below p_s the spring holds A→T; above "
                    "p_s + Δp_s the pilot holds P→A. The pilot port takes no flow. "
                    "f_PA = open01(u), f_AT = open01(1 − u); A_XY = a·(λ_XY + (1 − λ_XY)·"
                    "Σ f_c(u)), each pair an orifice (Esqué eq. 3.7). Spool u = c, or "
                    "τ·u̇ = c − u when spool_time_constant τ > 0."),
  .ports = dcv3_pilot_ports,
  .n_ports = G_N_ELEMENTS (dcv3_pilot_ports),
  .params = dcv_pilot_params,
  .n_params = G_N_ELEMENTS (dcv_pilot_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .setup = dcv_setup,
  .init_states = dcv_init_states,
  .eval = dcv_eval,
  .events = dcv_events,
};

const HydComponentType hyd_dcv_2_2_pilot_type = {
  .id = "dcv_2_2_pilot",
  .label = N_("2/2 directional valve, pilot operated"),
  .category = HYD_CATEGORY_VALVES,
  .iso_symbol = N_("2/2 directional control valve, normally closed, with hydraulic pilot operation (dashed pilot line X into a filled pilot triangle), spring return"),
  .description = N_("Pilot-operated 2/2 directional valve, normally closed, with spring "
                    "return: the spool command is c = open01((p_X − p_s)/Δp_s), p_s = "
                    "pilot_pressure, Δp_s = pilot_pressure_range (gauge): closed below p_s, "
                    "open A→B above p_s + Δp_s. The pilot port takes no flow. "
                    "f_AB = open01(u); A_AB = a·(λ + (1 − λ)·f_AB), an orifice (Esqué "
                    "eq. 3.7). Spool u = c, or τ·u̇ = c − u when spool_time_constant τ > 0."),
  .ports = dcv2_pilot_ports,
  .n_ports = G_N_ELEMENTS (dcv2_pilot_ports),
  .params = dcv_pilot_params,
  .n_params = G_N_ELEMENTS (dcv_pilot_params),
  .boundary_param = -1,
  .designator = "V",
  .roles = 0,
  .setup = dcv_setup,
  .init_states = dcv_init_states,
  .eval = dcv_eval,
  .events = dcv_events,
};
