/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-comp-mechanics.c — translational mechanics (docs/domains.md): mass,
 * fixed point, spring, damper and force source, the ideal one-port and
 * two-port elements (a mass with optional travel limits, a force source
 * with an optional signal input) of Karnopp, Margolis & Rosenberg, *System Dynamics*,
 * 5th ed., 2012, ch. 3 (I-, C- and R-elements and the effort source).
 *
 * A translational node owns its velocity v and position x as states and
 * obeys m·v̇ = −ΣF̂_X, ẋ = v; a component returns F̂_X, the force its node
 * exerts on it (positive into the component), and declares a mass at a
 * port in C[X]. */
#include "hyd-component.h"
#include "hyd-error.h"
#include "hyd-i18n.h"
#include "hyd-smooth.h"

#include <math.h>

/* Width of the stops' contact blend (m), as the cylinder's end stops. */
#define STOP_BLEND 1e-4

static gboolean
mech_setup (HydComp *comp, GError **error)
{
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static const HydPortInfo one_port[] = {
  { "A", HYD_DOMAIN_TRANSLATIONAL, FALSE, N_("the body's connection (translational)") },
};

static const HydPortInfo two_ports[] = {
  { "A", HYD_DOMAIN_TRANSLATIONAL, FALSE, N_("end A (translational)") },
  { "B", HYD_DOMAIN_TRANSLATIONAL, FALSE, N_("end B (translational)") },
};

/* ------------------------------------------------------------------ mass */

enum { MASS_MASS, MASS_X_MIN, MASS_X_MAX, MASS_STOP_STIFFNESS, MASS_STOP_DAMPING };

static const HydParamInfo mass_params[] = {
  [MASS_MASS] = { "mass", N_("Mass"), HYD_UNIT_MASS, 1.0, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
                  N_("mass of the rigid body, added to its node") },
  [MASS_X_MIN] = { "x_min", N_("Lower travel limit"), HYD_UNIT_POSITION, 0.0, -INFINITY, INFINITY,
                   HYD_PARAM_OPTIONAL, NULL,
                   N_("a stop below which the body does not go (unset: none)") },
  [MASS_X_MAX] = { "x_max", N_("Upper travel limit"), HYD_UNIT_POSITION, 0.0, -INFINITY, INFINITY,
                   HYD_PARAM_OPTIONAL, NULL,
                   N_("a stop above which the body does not go (unset: none)") },
  [MASS_STOP_STIFFNESS] = { "stop_stiffness", N_("Stop stiffness"), HYD_UNIT_STIFFNESS, 1e9, 0.0, INFINITY,
                            HYD_PARAM_MIN_EXCLUSIVE, NULL,
                            N_("contact stiffness of the travel limits (a steel stop)") },
  [MASS_STOP_DAMPING] = { "stop_damping", N_("Stop damping"), HYD_UNIT_DAMPING, 1e6, 0.0, INFINITY, 0, NULL,
                          N_("contact damping of the travel limits") },
};

static gboolean
mass_validate (const HydComp *comp, GError **error)
{
  const double *par = comp->par;
  if (!isnan (par[MASS_X_MIN]) && !isnan (par[MASS_X_MAX]) && !(par[MASS_X_MIN] < par[MASS_X_MAX]))
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                   "%s: parameter x_min = %g m must be smaller than x_max = %g m",
                   comp->id, par[MASS_X_MIN], par[MASS_X_MAX]);
      return FALSE;
    }
  return TRUE;
}

static gboolean
mass_setup (HydComp *comp, GError **error)
{
  if (!isnan (comp->par[MASS_X_MIN]))
    hyd_comp_add_event (comp, "lower travel limit", N_("the body reaches x_min"));
  if (!isnan (comp->par[MASS_X_MAX]))
    hyd_comp_add_event (comp, "upper travel limit", N_("the body reaches x_max"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

/* The travel limits' force on the body, the cylinder's end-stop law
 * (spec/components.md) at x_min and x_max (each only when set):
 * F = k·soft_ramp(x_min − x, w) − k·soft_ramp(x − x_max, w)
 *     − c·v·(open01((x_min − x)/w) + open01((x − x_max)/w)), w = 1e-4 m:
 * a linear spring–damper contact (a Kelvin–Voigt element; Hunt & Crossley
 * 1975, J. Appl. Mech. 42:440) whose damping fades in over the first
 * 0.1 mm, so the stop does not pull the body back as it leaves. */
static double
travel_stop (const double *par, double x, double v, double *dF_dx, double *dF_dv)
{
  const double w = STOP_BLEND, k = par[MASS_STOP_STIFFNESS], c = par[MASS_STOP_DAMPING];
  double F = 0.0;
  *dF_dx = 0.0;
  *dF_dv = 0.0;
  if (!isnan (par[MASS_X_MIN]))
    {
      double d, o;
      double r = hyd_soft_ramp (par[MASS_X_MIN] - x, w, &d);
      double a = hyd_open01 ((par[MASS_X_MIN] - x) / w, HYD_SMOOTH_EPS, &o);
      F += k * r - c * v * a;
      *dF_dx += -k * d + c * v * o / w;
      *dF_dv += -c * a;
    }
  if (!isnan (par[MASS_X_MAX]))
    {
      double d, o;
      double r = hyd_soft_ramp (x - par[MASS_X_MAX], w, &d);
      double a = hyd_open01 ((x - par[MASS_X_MAX]) / w, HYD_SMOOTH_EPS, &o);
      F += -k * r - c * v * a;
      *dF_dx += -k * d - c * v * o / w;
      *dF_dv += -c * a;
    }
  return F;
}

/* The node does the physics: m·v̇ = −ΣF̂, ẋ = v (an I-element); the travel
 * limits push it: F̂ = −F_stop(x, v). */
static void
mass_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  if (out->C)
    out->C[0] = comp->par[MASS_MASS];
  if (comp->n_events == 0)
    return;
  double dx, dv;
  out->q[0] = -travel_stop (comp->par, in->pos[0], in->p[0], &dx, &dv);
  if (out->jac)
    {
      HYD_JAC (comp, out, 0, 0) = -dv;
      HYD_JAC (comp, out, 0, hyd_comp_pos_col (comp, 0)) = -dx;
    }
}

/* Contact starts where x leaves [x_min, x_max]. */
static void
mass_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  guint k = 0;
  if (!isnan (comp->par[MASS_X_MIN]))
    g[k++] = in->pos[0] - comp->par[MASS_X_MIN];
  if (!isnan (comp->par[MASS_X_MAX]))
    g[k++] = comp->par[MASS_X_MAX] - in->pos[0];
}

const HydComponentType hyd_mass_type = {
  .id = "mass",
  .label = N_("Mass"),
  .category = HYD_CATEGORY_MECHANICS,
  .iso_symbol = N_("none in ISO 1219-1 (mechanical: a rectangle)"),
  .description =
    N_("A rigid body of mass m on a translational node: the node's velocity and "
       "position follow m·dv/dt = ΣF, dx/dt = v, ΣF the forces of the other "
       "components on it (Newton's second law; an I-element in Karnopp, Margolis "
       "& Rosenberg 2012, ch. 3). Every moving mechanical node needs a mass. "
       "Optional travel limits x_min, x_max are stiff damped stops, the "
       "cylinder's end-stop law: F = k·(x_min − x) − c·v past x_min (and "
       "likewise past x_max), the damping faded in over the first 0.1 mm "
       "(a spring–damper contact, Hunt & Crossley 1975). The defaults, "
       "k = 1e9 N/m and c = 1e6 N·s/m, are those of the cylinder's end stops: "
       "a steel stop (E·A/L = 2.1e11 Pa · 1e-3 m² / 0.2 m ≈ 1e9 N/m), damped "
       "beyond critical for bodies up to about 250 kg. Reaching a limit is "
       "an event."),
  .ports = one_port,
  .n_ports = G_N_ELEMENTS (one_port),
  .params = mass_params,
  .n_params = G_N_ELEMENTS (mass_params),
  .boundary_param = -1,
  .designator = "M",
  .validate = mass_validate,
  .setup = mass_setup,
  .eval = mass_eval,
  .events = mass_events,
};

/* ----------------------------------------------------------- fixed point */

static const HydParamInfo fixed_params[] = {
  { "position", N_("Fixed position"), HYD_UNIT_POSITION, 0.0, -INFINITY, INFINITY, 0, NULL,
    N_("position of the fixed point") },
};

static void
fixed_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
}

const HydComponentType hyd_fixed_point_type = {
  .id = "fixed_point",
  .label = N_("Fixed point"),
  .category = HYD_CATEGORY_MECHANICS,
  .iso_symbol = N_("none in ISO 1219-1 (mechanical: hatched ground)"),
  .description =
    N_("A wall or frame: the mechanical boundary. Its node is at rest at the given "
       "position and needs no mass; whatever force the other components put on it, "
       "the fixed point takes up. Two fixed points at different positions on one "
       "node are an error."),
  .ports = one_port,
  .n_ports = G_N_ELEMENTS (one_port),
  .params = fixed_params,
  .n_params = G_N_ELEMENTS (fixed_params),
  .boundary_param = 0,
  .designator = "X",
  .setup = mech_setup,
  .eval = fixed_eval,
};

/* ---------------------------------------------------------------- spring */

enum { SPRING_STIFFNESS, SPRING_PRELOAD };

static const HydParamInfo spring_params[] = {
  [SPRING_STIFFNESS] = { "stiffness", N_("Stiffness"), HYD_UNIT_STIFFNESS, 1000.0, 0.0, INFINITY,
                         HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("spring rate k") },
  [SPRING_PRELOAD] = { "preload", N_("Preload"), HYD_UNIT_FORCE, 0.0, -INFINITY, INFINITY, 0, NULL,
                       N_("tension when the ends are at the same position (negative: compression)") },
};

/* Tension F = k·(x_B − x_A) + F_0 pulls A forward and B back: the node at A
 * exerts F̂_A = −F on the spring, the node at B F̂_B = +F (a C-element).
 * The law reads only positions (angles) and parameters 0 and 1, so the
 * torsion spring uses it too (τ = k·(φ_B − φ_A) + τ₀). */
void
hyd_mech_spring_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  double k = comp->par[SPRING_STIFFNESS];
  double F = k * (in->pos[1] - in->pos[0]) + comp->par[SPRING_PRELOAD];
  out->q[0] = -F;
  out->q[1] = F;
  if (out->jac)
    {
      guint cA = hyd_comp_pos_col (comp, 0), cB = hyd_comp_pos_col (comp, 1);
      HYD_JAC (comp, out, 0, cA) = k;
      HYD_JAC (comp, out, 0, cB) = -k;
      HYD_JAC (comp, out, 1, cA) = -k;
      HYD_JAC (comp, out, 1, cB) = k;
    }
}

const HydComponentType hyd_spring_type = {
  .id = "spring",
  .label = N_("Spring"),
  .category = HYD_CATEGORY_MECHANICS,
  .iso_symbol = N_("none in ISO 1219-1 (mechanical: a zigzag)"),
  .description =
    N_("A linear spring between ends A and B. Its tension F = k·(x_B − x_A) + F₀ "
       "pulls A towards B and B towards A; F₀ is the preload (negative: a spring "
       "built in compressed). A massless C-element (Karnopp, Margolis & Rosenberg "
       "2012, ch. 3): each end needs a mass or a fixed point."),
  .ports = two_ports,
  .n_ports = G_N_ELEMENTS (two_ports),
  .params = spring_params,
  .n_params = G_N_ELEMENTS (spring_params),
  .boundary_param = -1,
  .designator = "K",
  .setup = mech_setup,
  .eval = hyd_mech_spring_eval,
};

/* ---------------------------------------------------------------- damper */

static const HydParamInfo damper_params[] = {
  { "damping", N_("Damping"), HYD_UNIT_DAMPING, 100.0, 0.0, INFINITY, 0, NULL,
    N_("viscous damping coefficient d") },
};

/* F = d·(v_B − v_A) acts as the spring's tension (an R-element); the
 * rotational damper uses it too (τ = d·(ω_B − ω_A)). */
void
hyd_mech_damper_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  double d = comp->par[0];
  double F = d * (in->p[1] - in->p[0]);
  out->q[0] = -F;
  out->q[1] = F;
  if (out->jac)
    {
      HYD_JAC (comp, out, 0, 0) = d;
      HYD_JAC (comp, out, 0, 1) = -d;
      HYD_JAC (comp, out, 1, 0) = -d;
      HYD_JAC (comp, out, 1, 1) = d;
    }
}

const HydComponentType hyd_damper_type = {
  .id = "damper",
  .label = N_("Damper"),
  .category = HYD_CATEGORY_MECHANICS,
  .iso_symbol = N_("none in ISO 1219-1 (mechanical: a dashpot)"),
  .description =
    N_("A linear viscous damper (dashpot) between ends A and B: F = d·(v_B − v_A) "
       "pulls A towards B's motion and B back. A massless R-element (Karnopp, "
       "Margolis & Rosenberg 2012, ch. 3): each end needs a mass or a fixed point."),
  .ports = two_ports,
  .n_ports = G_N_ELEMENTS (two_ports),
  .params = damper_params,
  .n_params = G_N_ELEMENTS (damper_params),
  .boundary_param = -1,
  .designator = "D",
  .setup = mech_setup,
  .eval = hyd_mech_damper_eval,
};

/* ---------------------------------------------------------- force source */

static const HydPortInfo force_ports[] = {
  { "A", HYD_DOMAIN_TRANSLATIONAL, FALSE, N_("the body's connection (translational)") },
  { "S", HYD_DOMAIN_SIGNAL, TRUE, N_("signal input (optional): the force in N; wired, it replaces the parameter"),
    HYD_PORT_INPUT, "force" },
};

enum { FORCE_PORT_S = 1 };

static const HydParamInfo force_params[] = {
  { "force", N_("Force"), HYD_UNIT_FORCE, 0.0, -INFINITY, INFINITY, HYD_PARAM_PROFILE, NULL,
    N_("force on the node, positive forward (along +x); unused while S is wired") },
};

/* It pushes its node forward with F: F̂ = −F (an effort source), F the
 * parameter or, wired, the value at S. */
static void
force_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  if (hyd_comp_port_connected (comp, FORCE_PORT_S))
    {
      out->q[0] = -in->p[FORCE_PORT_S];
      if (out->jac)
        HYD_JAC (comp, out, 0, FORCE_PORT_S) = -1.0;
      return;
    }
  out->q[0] = -comp->par[0];
  if (out->q_t)
    out->q_t[0] = -comp->par_dt[0];
}

const HydComponentType hyd_force_source_type = {
  .id = "force_source",
  .label = N_("Force source"),
  .category = HYD_CATEGORY_MECHANICS,
  .iso_symbol = N_("none in ISO 1219-1 (mechanical: an arrow)"),
  .description =
    N_("A prescribed force F(t) on its node, positive forward (along +x), whatever "
       "the node's motion: an effort source (Karnopp, Margolis & Rosenberg 2012, "
       "ch. 3). Give it a profile for a force that changes in time, or wire a "
       "signal to S (in N) to command it; a force on a mass m alone from rest "
       "moves it x = F·t²/(2m)."),
  .ports = force_ports,
  .n_ports = G_N_ELEMENTS (force_ports),
  .params = force_params,
  .n_params = G_N_ELEMENTS (force_params),
  .boundary_param = -1,
  .designator = "F",
  .setup = mech_setup,
  .eval = force_eval,
};

/* -------------------------------------------------------------- friction */

enum {
  FR_COULOMB, FR_STATIC, FR_STRIBECK_VELOCITY, FR_VISCOUS, FR_BRISTLE_STIFFNESS, FR_BRISTLE_DAMPING,
  FR_N_PARAMS
};

static const HydParamInfo friction_params[FR_N_PARAMS] = {
  [FR_COULOMB] = { "coulomb_friction", N_("Coulomb friction"), HYD_UNIT_FORCE, 100.0, 0.0, INFINITY,
                   HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("sliding friction force at speed, F_C") },
  [FR_STATIC] = { "static_friction", N_("Static friction"), HYD_UNIT_FORCE, 150.0, 0.0, INFINITY,
                  HYD_PARAM_MIN_EXCLUSIVE, NULL,
                  N_("break-away force F_S (the Stribeck peak), at least the Coulomb force") },
  [FR_STRIBECK_VELOCITY] = { "stribeck_velocity", N_("Stribeck velocity"), HYD_UNIT_VELOCITY, 0.01, 0.0,
                             INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
                             N_("velocity scale of the static-to-Coulomb decay, v_s") },
  [FR_VISCOUS] = { "viscous_friction", N_("Viscous friction"), HYD_UNIT_DAMPING, 100.0, 0.0, INFINITY, 0, NULL,
                   N_("friction force per unit sliding velocity, σ₂") },
  [FR_BRISTLE_STIFFNESS] = { "bristle_stiffness", N_("Bristle stiffness"), HYD_UNIT_STIFFNESS, 1e7, 0.0,
                             INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
                             N_("stiffness of the contact before sliding, σ₀ (pre-sliding displacements of the order of F_S/σ₀)") },
  [FR_BRISTLE_DAMPING] = { "bristle_damping", N_("Bristle damping"), HYD_UNIT_DAMPING, 1e5, 0.0, INFINITY, 0,
                           NULL, N_("damping of the bristles' deflection in pre-sliding, σ₁ (at least 2·√(σ₀·m) for a body of mass m)") },
};

static const HydVarInfo friction_states[] = {
  { "z", HYD_UNIT_POSITION, N_("mean deflection of the contact's bristles (LuGre)") },
};

static const HydVarInfo friction_outputs[] = {
  { "F", HYD_UNIT_FORCE, N_("friction force, opposing the sliding of B relative to A") },
};

static gboolean
friction_validate (const HydComp *comp, GError **error)
{
  if (comp->par[FR_STATIC] < comp->par[FR_COULOMB])
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                   "%s: parameter static_friction = %g N must be at least coulomb_friction = %g N",
                   comp->id, comp->par[FR_STATIC], comp->par[FR_COULOMB]);
      return FALSE;
    }
  return TRUE;
}

static gboolean
friction_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_states (comp, G_N_ELEMENTS (friction_states), friction_states);
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (friction_outputs), friction_outputs);
  hyd_comp_add_event (comp, "stick/slip", N_("the sliding velocity passes through 0"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

/* LuGre (Canudas de Wit, Olsson, Åström & Lischinsky 1995, IEEE Trans.
 * Autom. Control 40(3):419–425, eqs. 2–5) on the relative velocity
 * v = v_B − v_A: ż = v − σ₀·|v|·z/g(v), g(v) = F_C + (F_S − F_C)·e^(−(v/v_s)²),
 * F = σ₀·z + σ₁(v)·ż + σ₂·v; F pulls B back and A forward (F̂_A = −F,
 * F̂_B = F, as the damper). The bristle damping acts in pre-sliding only,
 * σ₁(v) = σ₁·e^(−(v/v_s)²) (Olsson, Åström, Canudas de Wit, Gäfvert &
 * Lischinsky 1998, Eur. J. Control 4:176–195, §3.3: it keeps the model
 * passive, and a body set sliding is not braked by σ₁·ż while its
 * bristles settle). Writes F and its partials. */
static double
friction_lugre (const double *par, double v, double z, double *zdot, double *dzd_dv, double *dzd_dz,
                double *dF_dv, double *dF_dz)
{
  double s0 = par[FR_BRISTLE_STIFFNESS], s1 = par[FR_BRISTLE_DAMPING], s2 = par[FR_VISCOUS];
  double fc = par[FR_COULOMB], fs = par[FR_STATIC], vs = par[FR_STRIBECK_VELOCITY];
  double r = v / vs, e = exp (-r * r);
  double g = fc + (fs - fc) * e, dg = (fs - fc) * e * (-2.0 * r / vs);
  double a = fabs (v), sg = v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0;
  *zdot = v - s0 * a * z / g;
  *dzd_dv = 1.0 - s0 * z * (sg * g - a * dg) / (g * g);
  *dzd_dz = -s0 * a / g;
  double s1v = s1 * e, ds1v = s1 * e * (-2.0 * r / vs);
  *dF_dv = ds1v * *zdot + s1v * *dzd_dv + s2;
  *dF_dz = s0 + s1v * *dzd_dz;
  return s0 * z + s1v * *zdot + s2 * v;
}

/* Rows [F̂_A, F̂_B, ż], columns [v_A, v_B, z, s_A, s_B]. */
static void
friction_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  double zdot, dzv, dzz, dFv, dFz;
  double F = friction_lugre (comp->par, in->p[1] - in->p[0], in->x[0], &zdot, &dzv, &dzz, &dFv, &dFz);
  out->q[0] = -F;
  out->q[1] = F;
  out->xdot[0] = zdot;
  if (out->jac)
    {
      HYD_JAC (comp, out, 0, 0) = dFv;
      HYD_JAC (comp, out, 0, 1) = -dFv;
      HYD_JAC (comp, out, 0, 2) = -dFz;
      HYD_JAC (comp, out, 1, 0) = -dFv;
      HYD_JAC (comp, out, 1, 1) = dFv;
      HYD_JAC (comp, out, 1, 2) = dFz;
      HYD_JAC (comp, out, 2, 0) = -dzv;
      HYD_JAC (comp, out, 2, 1) = dzv;
      HYD_JAC (comp, out, 2, 2) = dzz;
    }
  if (out->out)
    out->out[0] = F;
}

/* The kink of |v| at v = 0: the solver restarts there. */
static void
friction_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = in->p[1] - in->p[0];
}

const HydComponentType hyd_friction_type = {
  .id = "friction",
  .label = N_("Friction (stiction)"),
  .category = HYD_CATEGORY_MECHANICS,
  .iso_symbol = N_("none in ISO 1219-1 (mechanical: a block on a hatched surface)"),
  .description =
    N_("Dry and viscous friction between A and B with true stiction: the LuGre model "
       "(Canudas de Wit, Olsson, Åström & Lischinsky 1995). The contact is a bed of "
       "elastic bristles of mean deflection z: dz/dt = v − σ₀·|v|·z/g(v), "
       "F = σ₀·z + σ₁·exp(−(v/v_s)²)·dz/dt + σ₂·v (the bristle damping in pre-sliding "
       "only, Olsson et al. 1998), with v = v_B − v_A and the cylinder's Stribeck "
       "curve g(v) = F_C + (F_S − F_C)·exp(−(v/v_s)²). Below the break-away force "
       "F_S the bristles deflect and slip a little, the body moving by "
       "−(F_S/σ₀)·ln(1 − F/F_S) (35 µm at 0.9·F_S with the defaults), and then it "
       "stays put: no creep, unlike the smoothed law inside the cylinder. "
       "Above it the body slides, and at constant speed the force is the Stribeck "
       "curve g(v) + σ₂·v exactly. Chosen over Karnopp's stick–slip model (1985) "
       "because it needs only the motion at its own ports, where Karnopp's needs the "
       "sum of the other forces on the body; it also gives pre-sliding and "
       "frictional lag. Keep the bristles at least critically damped, "
       "σ₁ ≥ 2·√(σ₀·m) (the default 1e5 N·s/m holds up to 250 kg): underdamped, a "
       "sudden force below F_S overshoots the bristles and breaks the contact loose. "
       "Its known limit: under a force that oscillates below F_S the body drifts "
       "slowly (Dupont, Hayward, Armstrong & Altpeter 2002)."),
  .ports = two_ports,
  .n_ports = G_N_ELEMENTS (two_ports),
  .params = friction_params,
  .n_params = G_N_ELEMENTS (friction_params),
  .boundary_param = -1,
  .designator = "R",
  .validate = friction_validate,
  .setup = friction_setup,
  .eval = friction_eval,
  .events = friction_events,
};
