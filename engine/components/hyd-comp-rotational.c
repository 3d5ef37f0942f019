/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-comp-rotational.c — rotational mechanics (docs/domains.md): inertia,
 * rotational damper, torsion spring, fixed frame, torque source or load,
 * speed and torque sensors, an electric motor drive and the hydraulic
 * semi-rotary actuator. The ideal one-port
 * and two-port elements are those of Karnopp, Margolis & Rosenberg, *System
 * Dynamics*, 5th ed., 2012, ch. 3 (I-, C- and R-elements and the effort
 * source), in their rotational form.
 *
 * A rotational node owns its angular speed ω and angle φ as states and
 * obeys J·ω̇ = −Στ̂_X, φ̇ = ω; a component returns τ̂_X, the torque its node
 * exerts on it (positive into the component), and declares an inertia at a
 * port in C[X]. */
#include "hyd-component.h"
#include "hyd-i18n.h"
#include "hyd-error.h"
#include "hyd-smooth.h"

#include <math.h>

static gboolean
rot_setup (HydComp *comp, GError **error)
{
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static const HydPortInfo one_port[] = {
  { "A", HYD_DOMAIN_ROTATIONAL, FALSE, N_("the shaft's connection (rotational)") },
};

static const HydPortInfo two_ports[] = {
  { "A", HYD_DOMAIN_ROTATIONAL, FALSE, N_("shaft end A (rotational)") },
  { "B", HYD_DOMAIN_ROTATIONAL, FALSE, N_("shaft end B (rotational)") },
};

/* --------------------------------------------------------------- inertia */

static const HydParamInfo inertia_params[] = {
  { "inertia", N_("Inertia"), HYD_UNIT_INERTIA, 0.1, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
    N_("moment of inertia of the rotating body, added to its node") },
};

/* The node does the physics: J·ω̇ = −Στ̂, φ̇ = ω (an I-element). */
static void
inertia_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  if (out->C)
    out->C[0] = comp->par[0];
}

const HydComponentType hyd_inertia_type = {
  .id = "inertia",
  .label = N_("Inertia"),
  .category = HYD_CATEGORY_MECHANICS,
  .iso_symbol = N_("none in ISO 1219-1 (mechanical: a flywheel disc on a shaft)"),
  .description =
    N_("A rigid rotating body of moment of inertia J on a rotational node: the node's "
       "angular speed and angle follow J·dω/dt = Στ, dφ/dt = ω, Στ the torques of the "
       "other components on it (Euler's law of rotation; an I-element in Karnopp, "
       "Margolis & Rosenberg 2012, ch. 3). Every turning rotational node needs an "
       "inertia: an inertia, a hydraulic motor's or an electric motor's rotor."),
  .ports = one_port,
  .n_ports = G_N_ELEMENTS (one_port),
  .params = inertia_params,
  .n_params = G_N_ELEMENTS (inertia_params),
  .boundary_param = -1,
  .designator = "J",
  .setup = rot_setup,
  .eval = inertia_eval,
};

/* ----------------------------------------------------------- fixed frame */

static const HydParamInfo frame_params[] = {
  { "angle", N_("Fixed angle"), HYD_UNIT_ANGLE, 0.0, -INFINITY, INFINITY, 0, NULL,
    N_("angle at which the frame holds its shaft") },
};

static void
frame_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
}

const HydComponentType hyd_fixed_frame_type = {
  .id = "fixed_frame",
  .label = N_("Fixed frame"),
  .category = HYD_CATEGORY_MECHANICS,
  .iso_symbol = N_("none in ISO 1219-1 (mechanical: hatched ground)"),
  .description =
    N_("The housing or frame a shaft is held by: the rotational boundary. Its node "
       "does not turn, stays at the given angle and needs no inertia; whatever torque "
       "the other components put on it, the frame takes up. Two frames at different "
       "angles on one node are an error."),
  .ports = one_port,
  .n_ports = G_N_ELEMENTS (one_port),
  .params = frame_params,
  .n_params = G_N_ELEMENTS (frame_params),
  .boundary_param = 0,
  .designator = "X",
  .setup = rot_setup,
  .eval = frame_eval,
};

/* -------------------------------------------------------- torsion spring */

/* Its parameters in the order of the translational spring's, whose law it
 * uses (hyd_mech_spring_eval): stiffness, preload. */
enum { TS_STIFFNESS, TS_PRELOAD };

static const HydParamInfo torsion_params[] = {
  [TS_STIFFNESS] = { "stiffness", N_("Torsional stiffness"), HYD_UNIT_ROT_STIFFNESS, 1000.0, 0.0, INFINITY,
                     HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("torsion spring rate k") },
  [TS_PRELOAD] = { "preload", N_("Preload torque"), HYD_UNIT_TORQUE, 0.0, -INFINITY, INFINITY, 0, NULL,
                   N_("torque the spring transmits when its ends are at the same angle") },
};

const HydComponentType hyd_torsion_spring_type = {
  .id = "torsion_spring",
  .label = N_("Torsion spring"),
  .category = HYD_CATEGORY_MECHANICS,
  .iso_symbol = N_("none in ISO 1219-1 (mechanical: a zigzag between two shaft ends)"),
  .description =
    N_("A linear torsion spring (an elastic shaft) between ends A and B. It transmits "
       "τ = k·(φ_B − φ_A) + τ₀, turning A towards B and B back; τ₀ is the preload. A "
       "massless C-element (Karnopp, Margolis & Rosenberg 2012, ch. 3): each end needs "
       "an inertia or a fixed frame. An inertia J on it oscillates at ω = √(k/J)."),
  .ports = two_ports,
  .n_ports = G_N_ELEMENTS (two_ports),
  .params = torsion_params,
  .n_params = G_N_ELEMENTS (torsion_params),
  .boundary_param = -1,
  .designator = "K",
  .setup = rot_setup,
  .eval = hyd_mech_spring_eval,
};

/* ----------------------------------------------------- rotational damper */

static const HydParamInfo rdamper_params[] = {
  { "damping", N_("Rotational damping"), HYD_UNIT_ROT_DAMPING, 1.0, 0.0, INFINITY, 0, NULL,
    N_("viscous damping coefficient d") },
};

const HydComponentType hyd_rotational_damper_type = {
  .id = "rotational_damper",
  .label = N_("Rotational damper"),
  .category = HYD_CATEGORY_MECHANICS,
  .iso_symbol = N_("none in ISO 1219-1 (mechanical: a dashpot between two shaft ends)"),
  .description =
    N_("A linear viscous rotational damper (bearing or fluid friction) between ends A "
       "and B: τ = d·(ω_B − ω_A) turns A towards B's speed and brakes B. A massless "
       "R-element (Karnopp, Margolis & Rosenberg 2012, ch. 3): each end needs an "
       "inertia or a fixed frame. An inertia J braked by it to a frame slows as "
       "ω = ω₀·e^(−d·t/J)."),
  .ports = two_ports,
  .n_ports = G_N_ELEMENTS (two_ports),
  .params = rdamper_params,
  .n_params = G_N_ELEMENTS (rdamper_params),
  .boundary_param = -1,
  .designator = "D",
  .setup = rot_setup,
  .eval = hyd_mech_damper_eval,
};

/* --------------------------------------------------------- torque source */

enum { TQ_LAW, TQ_TORQUE, TQ_REF_SPEED, TQ_SMOOTHING };
enum { TQ_LAW_CONSTANT, TQ_LAW_LINEAR, TQ_LAW_QUADRATIC };
enum { TQ_A, TQ_T };

static const char *const torque_laws[] = { N_("constant"), N_("linear"), N_("quadratic"), NULL };

static const HydPortInfo torque_ports[] = {
  [TQ_A] = { "A", HYD_DOMAIN_ROTATIONAL, FALSE, N_("the shaft it turns or loads (rotational)") },
  [TQ_T] = { "T", HYD_DOMAIN_SIGNAL, TRUE,
             N_("torque command (signal, N·m, optional): when wired it replaces the torque parameter"),
             HYD_PORT_INPUT, "torque" },
};

static const HydParamInfo torque_params[] = {
  [TQ_LAW] = { "law", N_("Law"), HYD_UNIT_NONE, TQ_LAW_CONSTANT, 0, 2, HYD_PARAM_ENUM, torque_laws,
               N_("constant: τ = torque drives the shaft; linear: a load −torque·ω/ω_ref; "
                  "quadratic: a fan load −torque·ω·|ω|/ω_ref²") },
  [TQ_TORQUE] = { "torque", N_("Torque"), HYD_UNIT_TORQUE, 0.0, -INFINITY, INFINITY, HYD_PARAM_PROFILE, NULL,
                  N_("constant law: torque on the shaft, positive along +ω; linear and quadratic "
                     "laws: the load torque at the reference speed") },
  [TQ_REF_SPEED] = { "reference_speed", N_("Reference speed"), HYD_UNIT_ANGULAR_VELOCITY,
                     50.0 * G_PI /* 1500 rpm */, 0.0, INFINITY,
                     HYD_PARAM_MIN_EXCLUSIVE, NULL,
                     N_("speed at which a linear or quadratic load takes the given torque") },
  [TQ_SMOOTHING] = { "smoothing_speed", N_("Smoothing speed"), HYD_UNIT_ANGULAR_VELOCITY,
                     G_PI / 30.0 /* 1 rpm */, 0.0, INFINITY,
                     HYD_PARAM_MIN_EXCLUSIVE, NULL,
                     N_("quadratic law: |ω| is replaced by √(ω² + ω_ε²), smooth through standstill") },
};

static const HydVarInfo torque_outputs[] = {
  { "torque", HYD_UNIT_TORQUE, N_("torque on the shaft, positive along +ω") },
  { "power", HYD_UNIT_POWER, N_("power it puts into the shaft, torque·ω") },
};

static gboolean
torque_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (torque_outputs), torque_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

/* Torque on the node τ = T·f(ω) with T the torque parameter or the wired
 * command: f = 1 (constant), −ω/ω_ref (linear), −ω·√(ω² + ω_ε²)/ω_ref²
 * (quadratic); τ̂_A = −τ. */
static void
torque_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  const double *par = comp->par;
  gboolean wired = hyd_comp_port_connected (comp, TQ_T);
  double T = wired ? in->p[TQ_T] : par[TQ_TORQUE];
  double T_t = wired ? 0.0 : comp->par_dt[TQ_TORQUE];
  double w = in->p[TQ_A], wr = par[TQ_REF_SPEED];
  double f = 1.0, df = 0.0;
  switch ((int) par[TQ_LAW])
    {
    case TQ_LAW_LINEAR:
      f = -w / wr;
      df = -1.0 / wr;
      break;
    case TQ_LAW_QUADRATIC:
      {
        double eps = par[TQ_SMOOTHING];
        double r = sqrt (w * w + eps * eps);
        f = -w * r / (wr * wr);
        df = -(r + w * w / r) / (wr * wr);
      }
      break;
    default:
      break;
    }
  double tau = T * f;
  out->q[TQ_A] = -tau;
  if (out->jac)
    {
      HYD_JAC (comp, out, TQ_A, TQ_A) = -T * df;
      if (wired)
        HYD_JAC (comp, out, TQ_A, TQ_T) = -f;
    }
  if (out->q_t)
    out->q_t[TQ_A] = -T_t * f;
  if (out->out)
    {
      out->out[0] = tau;
      out->out[1] = tau * w;
    }
}

const HydComponentType hyd_torque_source_type = {
  .id = "torque_source",
  .label = N_("Torque source or load"),
  .category = HYD_CATEGORY_MECHANICS,
  .iso_symbol = N_("none in ISO 1219-1 (mechanical: a curved arrow about the shaft)"),
  .description =
    N_("A torque on its shaft. Law \"constant\": τ = torque, positive along +ω, whatever "
       "the speed (an effort source, Karnopp, Margolis & Rosenberg 2012, ch. 3); give it "
       "a profile, or wire a signal to T, which then replaces the parameter. Law "
       "\"linear\": a load τ = −torque·ω/ω_ref (viscous, a generator on a resistor). Law "
       "\"quadratic\": a fan or centrifugal-pump load τ = −torque·ω·√(ω² + ω_ε²)/ω_ref², "
       "the affinity laws' torque ∝ ω², smooth through standstill. In the load laws "
       "the torque parameter is the load at the reference speed and always opposes "
       "the rotation."),
  .ports = torque_ports,
  .n_ports = G_N_ELEMENTS (torque_ports),
  .params = torque_params,
  .n_params = G_N_ELEMENTS (torque_params),
  .boundary_param = -1,
  .designator = "T",
  .setup = torque_setup,
  .eval = torque_eval,
};

/* ---------------------------------------------------------- speed sensor */

enum { SS_A, SS_S };

static const HydPortInfo speed_sensor_ports[] = {
  [SS_A] = { "A", HYD_DOMAIN_ROTATIONAL, FALSE, N_("the shaft it measures (rotational)") },
  [SS_S] = { "S", HYD_DOMAIN_SIGNAL, FALSE, N_("angular speed (signal, rad/s)"), HYD_PORT_OUTPUT },
};

static const HydVarInfo speed_sensor_outputs[] = {
  { "w", HYD_UNIT_ANGULAR_VELOCITY, N_("the measured angular speed") },
};

static gboolean
speed_sensor_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (speed_sensor_outputs), speed_sensor_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

/* An ideal tachometer: it takes no torque. */
static void
speed_sensor_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  if (out->out)
    out->out[0] = in->p[SS_A];
}

static void
speed_sensor_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  s[SS_S] = in->p[SS_A];
  if (ds)
    ds[SS_S * hyd_comp_n_local (comp) + SS_A] = 1.0;
}

const HydComponentType hyd_speed_sensor_type = {
  .id = "speed_sensor",
  .label = N_("Angular speed sensor"),
  .category = HYD_CATEGORY_MEASUREMENT,
  .iso_symbol = N_("ISO 1219-1 tachometer: an instrument circle on the shaft, marked n"),
  .description =
    N_("An ideal tachometer: its signal output S is the angular speed ω of the shaft at "
       "A (rad/s). It takes no torque and adds no inertia."),
  .ports = speed_sensor_ports,
  .n_ports = G_N_ELEMENTS (speed_sensor_ports),
  .boundary_param = -1,
  .designator = "S",
  .setup = speed_sensor_setup,
  .eval = speed_sensor_eval,
  .signals = speed_sensor_signals,
};

/* --------------------------------------------------------- torque sensor */

enum { TS2_A, TS2_B, TS2_S };
enum { TSN_STIFFNESS, TSN_DAMPING };

static const HydPortInfo torque_sensor_ports[] = {
  [TS2_A] = { "A", HYD_DOMAIN_ROTATIONAL, FALSE, N_("driving side (rotational)") },
  [TS2_B] = { "B", HYD_DOMAIN_ROTATIONAL, FALSE, N_("driven side (rotational)") },
  [TS2_S] = { "S", HYD_DOMAIN_SIGNAL, FALSE, N_("torque transmitted from A to B (signal, N·m)"),
              HYD_PORT_OUTPUT },
};

static const HydParamInfo torque_sensor_params[] = {
  [TSN_STIFFNESS] = { "stiffness", N_("Torsional stiffness"), HYD_UNIT_ROT_STIFFNESS, 1e4, 0.0, INFINITY,
                      HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("stiffness of the measuring shaft") },
  [TSN_DAMPING] = { "damping", N_("Rotational damping"), HYD_UNIT_ROT_DAMPING, 10.0, 0.0, INFINITY, 0, NULL,
                    N_("damping of the measuring shaft (keeps the stiff shaft from ringing)") },
};

static const HydVarInfo torque_sensor_outputs[] = {
  { "torque", HYD_UNIT_TORQUE, N_("the measured torque, from A to B") },
};

static gboolean
torque_sensor_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (torque_sensor_outputs), torque_sensor_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

/* A load cell: a stiff damped torsion shaft, τ = k·(φ_A − φ_B) + d·(ω_A − ω_B),
 * with τ̂_A = τ (A drives it), τ̂_B = −τ (it drives B); S = τ. */
static double
torque_sensor_law (const HydComp *comp, const HydEvalIn *in)
{
  return comp->par[TSN_STIFFNESS] * (in->pos[TS2_A] - in->pos[TS2_B])
         + comp->par[TSN_DAMPING] * (in->p[TS2_A] - in->p[TS2_B]);
}

static void
torque_sensor_partials (const HydComp *comp, double *row, double sign)
{
  double k = comp->par[TSN_STIFFNESS], d = comp->par[TSN_DAMPING];
  row[TS2_A] = sign * d;
  row[TS2_B] = -sign * d;
  row[hyd_comp_pos_col (comp, TS2_A)] = sign * k;
  row[hyd_comp_pos_col (comp, TS2_B)] = -sign * k;
}

static void
torque_sensor_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  double tau = torque_sensor_law (comp, in);
  guint nl = hyd_comp_n_local (comp);
  out->q[TS2_A] = tau;
  out->q[TS2_B] = -tau;
  if (out->jac)
    {
      torque_sensor_partials (comp, out->jac + TS2_A * nl, 1.0);
      torque_sensor_partials (comp, out->jac + TS2_B * nl, -1.0);
    }
  if (out->out)
    out->out[0] = tau;
}

static void
torque_sensor_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  s[TS2_S] = torque_sensor_law (comp, in);
  if (ds)
    torque_sensor_partials (comp, ds + TS2_S * hyd_comp_n_local (comp), 1.0);
}

const HydComponentType hyd_torque_sensor_type = {
  .id = "torque_sensor",
  .label = N_("Torque sensor"),
  .category = HYD_CATEGORY_MEASUREMENT,
  .iso_symbol = N_("none in ISO 1219-1 (an instrument circle between two shaft ends, marked T)"),
  .description =
    N_("An in-line torque transducer between shaft ends A and B, modelled as what it "
       "is, a stiff torsion load cell: a short shaft of stiffness k with damping d "
       "transmits τ = k·(φ_A − φ_B) + d·(ω_A − ω_B) from A to B, and its signal output "
       "S is that torque (N·m). Its twist is real: the higher k, the smaller the twist "
       "and the faster the ringing the solver must follow; d damps it. Each end needs "
       "an inertia or a fixed frame."),
  .ports = torque_sensor_ports,
  .n_ports = G_N_ELEMENTS (torque_sensor_ports),
  .params = torque_sensor_params,
  .n_params = G_N_ELEMENTS (torque_sensor_params),
  .boundary_param = -1,
  .designator = "S",
  .setup = torque_sensor_setup,
  .eval = torque_sensor_eval,
  .signals = torque_sensor_signals,
};

/* -------------------------------------------------------- electric motor */

enum {
  EM_SYNC_SPEED,
  EM_RATED_SPEED,
  EM_RATED_TORQUE,
  EM_BREAKDOWN_TORQUE,
  EM_INERTIA,
  EM_VOLTAGE,
  EM_N_PARAMS
};

static const HydPortInfo emotor_ports[] = {
  { "shaft", HYD_DOMAIN_ROTATIONAL, FALSE, N_("output shaft (rotational)") },
};

static const HydParamInfo emotor_params[EM_N_PARAMS] = {
  [EM_SYNC_SPEED] = { "synchronous_speed", N_("Synchronous speed"), HYD_UNIT_ANGULAR_VELOCITY,
                      50.0 * G_PI /* 1500 rpm: 4 poles on 50 Hz */, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
                      N_("speed of the rotating field, 2π·f/(pole pairs)") },
  [EM_RATED_SPEED] = { "rated_speed", N_("Rated speed"), HYD_UNIT_ANGULAR_VELOCITY,
                       1450.0 * G_PI / 30.0, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
                       N_("speed at rated torque (nameplate), below the synchronous speed") },
  [EM_RATED_TORQUE] = { "rated_torque", N_("Rated torque"), HYD_UNIT_TORQUE, 50.0, 0.0, INFINITY,
                        HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("torque at rated speed (nameplate power / rated speed)") },
  [EM_BREAKDOWN_TORQUE] = { "breakdown_torque", N_("Breakdown torque"), HYD_UNIT_TORQUE, 125.0, 0.0, INFINITY,
                            HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("largest torque of the speed–torque curve (pull-out torque)") },
  [EM_INERTIA] = { "rotor_inertia", N_("Rotor inertia"), HYD_UNIT_INERTIA, 0.03, 0.0, INFINITY, 0, NULL,
                   N_("moment of inertia of the rotor, added to the shaft's node") },
  [EM_VOLTAGE] = { "voltage", N_("Voltage fraction"), HYD_UNIT_NONE, 1.0, 0.0, 2.0, HYD_PARAM_PROFILE, NULL,
                   N_("supply voltage over the rated voltage; the torque goes with its square (0: switched off)") },
};

static const HydVarInfo emotor_outputs[] = {
  { "torque", HYD_UNIT_TORQUE, N_("electromagnetic torque on the shaft") },
  { "slip", HYD_UNIT_NONE, N_("slip s = (ω_s − ω)/ω_s") },
  { "power", HYD_UNIT_POWER, N_("mechanical power torque·ω") },
};

/* Breakdown slip from the nameplate: Kloss's formula at the rated point,
 * T_n/T_b = 2/(s_n/s_b + s_b/s_n), solved for the larger root,
 * s_b = s_n·(k + √(k² − 1)), k = T_b/T_n. */
static double
emotor_breakdown_slip (const double *par)
{
  double sn = (par[EM_SYNC_SPEED] - par[EM_RATED_SPEED]) / par[EM_SYNC_SPEED];
  double k = par[EM_BREAKDOWN_TORQUE] / par[EM_RATED_TORQUE];
  return sn * (k + sqrt (k * k - 1.0));
}

static gboolean
emotor_validate (const HydComp *comp, GError **error)
{
  const double *par = comp->par;
  if (!(par[EM_RATED_SPEED] < par[EM_SYNC_SPEED]))
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                   "%s: parameter rated_speed = %g rad/s must be below synchronous_speed = %g rad/s "
                   "(an induction motor slips)",
                   comp->id, par[EM_RATED_SPEED], par[EM_SYNC_SPEED]);
      return FALSE;
    }
  if (!(par[EM_BREAKDOWN_TORQUE] > par[EM_RATED_TORQUE]))
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                   "%s: parameter breakdown_torque = %g N·m must be above rated_torque = %g N·m",
                   comp->id, par[EM_BREAKDOWN_TORQUE], par[EM_RATED_TORQUE]);
      return FALSE;
    }
  return TRUE;
}

static gboolean
emotor_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (emotor_outputs), emotor_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

/* Kloss's formula T = 2·T_b·s_b·s/(s² + s_b²) (the same as 2·T_b/(s/s_b +
 * s_b/s), written to be smooth through s = 0), times u²; τ̂ = −T. */
static void
emotor_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  const double *par = comp->par;
  double ws = par[EM_SYNC_SPEED], Tb = par[EM_BREAKDOWN_TORQUE];
  double sb = emotor_breakdown_slip (par);
  double u = par[EM_VOLTAGE], u_t = comp->par_dt[EM_VOLTAGE];
  double w = in->p[0];
  double s = (ws - w) / ws;
  double den = s * s + sb * sb;
  double Tk = 2.0 * Tb * sb * s / den;
  double dTk_ds = 2.0 * Tb * sb * (sb * sb - s * s) / (den * den);
  double T = u * u * Tk;
  out->q[0] = -T;
  if (out->C)
    out->C[0] = par[EM_INERTIA];
  if (out->jac)
    HYD_JAC (comp, out, 0, 0) = u * u * dTk_ds / ws; /* −u²·dT/ds·(−1/ω_s) */
  if (out->q_t)
    out->q_t[0] = -2.0 * u * u_t * Tk;
  if (out->out)
    {
      out->out[0] = T;
      out->out[1] = s;
      out->out[2] = T * w;
    }
}

const HydComponentType hyd_electric_motor_type = {
  .id = "electric_motor",
  .label = N_("Electric motor"),
  .category = HYD_CATEGORY_MECHANICS,
  .iso_symbol = N_("ISO 1219-1 electric motor: a circle marked M, with its output shaft"),
  .description =
    N_("A three-phase induction motor, the usual prime mover of a hydraulic power "
       "unit, by its steady speed–torque curve: Kloss's formula T = 2·T_b/(s/s_b + s_b/s) "
       "with slip s = (ω_s − ω)/ω_s, breakdown torque T_b and breakdown slip s_b from "
       "the nameplate's rated point, s_b = s_n·(k + √(k² − 1)), k = T_b/T_n (the "
       "torque–slip curve with the stator resistance neglected: Fischer, Elektrische "
       "Maschinen, Hanser, the induction machine; Fitzgerald, Kingsley & Umans, "
       "Electric Machinery, 6th ed., 2003, ch. 6). The torque scales with the square "
       "of the voltage fraction u; the electrical transients are not modelled. Above "
       "ω_s it brakes as a generator. The rotor inertia is added to the shaft."),
  .ports = emotor_ports,
  .n_ports = G_N_ELEMENTS (emotor_ports),
  .params = emotor_params,
  .n_params = G_N_ELEMENTS (emotor_params),
  .boundary_param = -1,
  .designator = "E",
  .validate = emotor_validate,
  .setup = emotor_setup,
  .eval = emotor_eval,
};

/* ------------------------------------------------- semi-rotary actuator */

enum {
  SR_DISPLACEMENT,
  SR_SWIVEL_ANGLE,
  SR_DEAD_VOLUME_A,
  SR_DEAD_VOLUME_B,
  SR_INERTIA,
  SR_VISCOUS_FRICTION,
  SR_LEAKAGE,
  SR_STOP_STIFFNESS,
  SR_STOP_DAMPING,
  SR_INITIAL_ANGLE,
  SR_N_PARAMS
};
enum { SR_A, SR_B, SR_SHAFT };

/* Width of the end stops' contact blend (rad), as the cylinder's 0.1 mm. */
#define SR_STOP_BLEND 1e-3

static const HydPortInfo semi_rotary_ports[] = {
  [SR_A] = { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("chamber A: pressure here turns the shaft forward (+φ)") },
  [SR_B] = { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("chamber B: pressure here turns the shaft back") },
  [SR_SHAFT] = { "shaft", HYD_DOMAIN_ROTATIONAL, FALSE, N_("output shaft (rotational)") },
};

static const HydParamInfo semi_rotary_params[SR_N_PARAMS] = {
  [SR_DISPLACEMENT] = { "displacement", N_("Displacement"), HYD_UNIT_DISPLACEMENT,
                        1e-4 / (2.0 * G_PI) /* 100 cm³/rev: 159 N·m at 100 bar */, 0.0, INFINITY,
                        HYD_PARAM_MIN_EXCLUSIVE, NULL,
                        N_("volume swept per radian, the torque per pascal of Δp_AB (m³/rad = N·m/Pa)") },
  [SR_SWIVEL_ANGLE] = { "swivel_angle", N_("Swivel angle"), HYD_UNIT_ANGLE, G_PI, 0.0, INFINITY,
                        HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("angle between the two end stops") },
  [SR_DEAD_VOLUME_A] = { "dead_volume_a", N_("Dead volume A"), HYD_UNIT_VOLUME, 1e-5, 0.0, INFINITY,
                         HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("oil left in chamber A at its end stop") },
  [SR_DEAD_VOLUME_B] = { "dead_volume_b", N_("Dead volume B"), HYD_UNIT_VOLUME, 1e-5, 0.0, INFINITY,
                         HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("oil left in chamber B at its end stop") },
  [SR_INERTIA] = { "inertia", N_("Inertia"), HYD_UNIT_INERTIA, 0.005, 0.0, INFINITY, 0, NULL,
                   N_("moment of inertia of vane and shaft, added to the shaft's node") },
  [SR_VISCOUS_FRICTION] = { "viscous_friction", N_("Viscous friction"), HYD_UNIT_ROT_DAMPING, 0.1, 0.0, INFINITY,
                            0, NULL, N_("friction torque per unit angular velocity") },
  [SR_LEAKAGE] = { "leakage", N_("Leakage"), HYD_UNIT_LEAKAGE, 0.0, 0.0, INFINITY, 0, NULL,
                   N_("laminar leakage coefficient across the vane, A to B") },
  [SR_STOP_STIFFNESS] = { "end_stop_stiffness", N_("End-stop stiffness"), HYD_UNIT_ROT_STIFFNESS, 1e6, 0.0, INFINITY,
                          0, NULL, N_("contact stiffness of the end stops") },
  [SR_STOP_DAMPING] = { "end_stop_damping", N_("End-stop damping"), HYD_UNIT_ROT_DAMPING, 1e3, 0.0, INFINITY,
                        0, NULL, N_("contact damping of the end stops") },
  [SR_INITIAL_ANGLE] = { "initial_angle", N_("Initial angle"), HYD_UNIT_ANGLE, 0.0, 0.0, INFINITY, 0, NULL,
                         N_("vane angle at t = 0, from the A end stop (0 … swivel angle)") },
};

static const HydVarInfo semi_rotary_states[] = {
  { "theta", HYD_UNIT_ANGLE, N_("vane angle from the A end stop") },
};

static const HydVarInfo semi_rotary_outputs[] = {
  { "torque", HYD_UNIT_TORQUE, N_("hydraulic torque D·(p_A − p_B)") },
  { "power", HYD_UNIT_POWER, N_("shaft power of the hydraulic torque, D·(p_A − p_B)·ω") },
};

static gboolean
semi_rotary_validate (const HydComp *comp, GError **error)
{
  double th0 = comp->par[SR_INITIAL_ANGLE], sw = comp->par[SR_SWIVEL_ANGLE];
  if (th0 < 0.0 || th0 > sw)
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                   "%s: parameter initial_angle = %g rad must lie in [0, swivel_angle] = [0, %g] rad",
                   comp->id, th0, sw);
      return FALSE;
    }
  return TRUE;
}

static gboolean
semi_rotary_setup (HydComp *comp, GError **error)
{
  static const guint vstates[] = { 0 };
  hyd_comp_set_states (comp, G_N_ELEMENTS (semi_rotary_states), semi_rotary_states);
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (semi_rotary_outputs), semi_rotary_outputs);
  hyd_comp_set_vstates (comp, G_N_ELEMENTS (vstates), vstates);
  hyd_comp_add_event (comp, "A end stop", N_("the vane reaches θ = 0"));
  hyd_comp_add_event (comp, "B end stop", N_("the vane reaches θ = swivel angle"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
semi_rotary_init_states (const HydComp *comp, const double *p0, double *x0)
{
  x0[0] = comp->par[SR_INITIAL_ANGLE];
}

static void
semi_rotary_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = in->x[0];
  g[1] = comp->par[SR_SWIVEL_ANGLE] - in->x[0];
}

/* Chamber volume V = dead + D·g(ξ, δ), g = ξ + soft_ramp(−ξ, δ), δ =
 * dead/D: exactly dead + D·ξ between the stops, never below dead/2 (the
 * cylinder's chamber law with the area replaced by the displacement). */
static double
semi_rotary_chamber (double dead, double D, double xi, double *dV, double *d2V)
{
  double delta = dead / D;
  double ds;
  double s = hyd_soft_ramp (-xi, delta, &ds);
  *dV = D * (1.0 - ds);
  *d2V = D * hyd_soft_ramp_dd (-xi, delta);
  return dead + D * (xi + s);
}

/* Local rows [q̂_A, q̂_B, τ̂_shaft, θ̇], columns [p_A, p_B, ω, θ, positions].
 * θ̇ = ω (the vane turns with the shaft's node); the node takes
 * τ̂ = −(D·Δp_AB − b·ω + τ_stop(θ, ω)), τ_stop = k·soft_ramp(−θ, w) −
 * k·soft_ramp(θ − Θ, w) − c·ω·(open01(−θ/w) + open01((θ − Θ)/w)), the
 * cylinder's stiff damped end stops; the chambers' volumes follow θ. */
static void
semi_rotary_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  const double *par = comp->par;
  const guint TH = 3;
  double dp = in->p[SR_A] - in->p[SR_B];
  double w = in->p[SR_SHAFT], th = in->x[0];
  double D = par[SR_DISPLACEMENT], sw = par[SR_SWIVEL_ANGLE];
  double b = par[SR_VISCOUS_FRICTION], leak = par[SR_LEAKAGE];
  double k = par[SR_STOP_STIFFNESS], c = par[SR_STOP_DAMPING];
  const double bw = SR_STOP_BLEND;
  double d0, d1, o0, o1;
  double r0 = hyd_soft_ramp (-th, bw, &d0);
  double r1 = hyd_soft_ramp (th - sw, bw, &d1);
  double a0 = hyd_open01 (-th / bw, HYD_SMOOTH_EPS, &o0);
  double a1 = hyd_open01 ((th - sw) / bw, HYD_SMOOTH_EPS, &o1);
  double tau_stop = k * (r0 - r1) - c * w * (a0 + a1);
  double dts_dth = -k * d0 - k * d1 - c * w * (o1 - o0) / bw;
  double dts_dw = -c * (a0 + a1);

  out->q[SR_A] = leak * dp;
  out->q[SR_B] = -leak * dp;
  out->q[SR_SHAFT] = -(D * dp - b * w + tau_stop);
  out->xdot[0] = w;
  if (out->C)
    out->C[SR_SHAFT] = par[SR_INERTIA];
  if (out->jac)
    {
      HYD_JAC (comp, out, SR_A, SR_A) = leak;
      HYD_JAC (comp, out, SR_A, SR_B) = -leak;
      HYD_JAC (comp, out, SR_B, SR_A) = -leak;
      HYD_JAC (comp, out, SR_B, SR_B) = leak;
      HYD_JAC (comp, out, SR_SHAFT, SR_A) = -D;
      HYD_JAC (comp, out, SR_SHAFT, SR_B) = D;
      HYD_JAC (comp, out, SR_SHAFT, SR_SHAFT) = b - dts_dw;
      HYD_JAC (comp, out, SR_SHAFT, TH) = -dts_dth;
      HYD_JAC (comp, out, TH, SR_SHAFT) = 1.0;
    }
  if (out->V)
    {
      double dVa, d2Va, dVb, d2Vb;
      out->V[SR_A] = semi_rotary_chamber (par[SR_DEAD_VOLUME_A], D, th, &dVa, &d2Va);
      out->V[SR_B] = semi_rotary_chamber (par[SR_DEAD_VOLUME_B], D, sw - th, &dVb, &d2Vb);
      out->dV[SR_A] = dVa;
      out->dV[SR_B] = -dVb;
      out->d2V[SR_A] = d2Va;
      out->d2V[SR_B] = d2Vb;
    }
  if (out->out)
    {
      out->out[0] = D * dp;
      out->out[1] = D * dp * w;
    }
}

const HydComponentType hyd_semi_rotary_actuator_type = {
  .id = "semi_rotary_actuator",
  .label = N_("Semi-rotary actuator"),
  .category = HYD_CATEGORY_ACTUATORS,
  .iso_symbol = N_("ISO 1219-1 semi-rotary actuator (rotary drive with limited angle): a half circle with "
                   "inward energy triangles and the output shaft"),
  .description =
    N_("A hydraulic rotary actuator with a limited swivel angle (a vane or rack-and-pinion "
       "drive): pressure in A turns the shaft forward with the torque D·(p_A − p_B), D = "
       "torque/Δp its displacement in m³/rad. The vane angle θ follows the shaft, dθ/dt = ω; "
       "the chambers hold V_A = V_0A + D·θ and V_B = V_0B + D·(Θ − θ), so the oil they take "
       "is D·ω; leakage across the vane q = leakage·(p_A − p_B). Its shaft node takes "
       "D·Δp_AB − b·ω plus the torque of stiff damped end stops at θ = 0 and θ = Θ (as the "
       "cylinder's, Esqué 2008, §3.2.5); the vane's inertia is added to the node. Wire a "
       "load (an inertia, a spring, a torque) to the shaft."),
  .ports = semi_rotary_ports,
  .n_ports = G_N_ELEMENTS (semi_rotary_ports),
  .params = semi_rotary_params,
  .n_params = G_N_ELEMENTS (semi_rotary_params),
  .boundary_param = -1,
  .designator = "R",
  .roles = HYD_ROLE_CHAMBERS,
  .validate = semi_rotary_validate,
  .setup = semi_rotary_setup,
  .init_states = semi_rotary_init_states,
  .eval = semi_rotary_eval,
  .events = semi_rotary_events,
};
