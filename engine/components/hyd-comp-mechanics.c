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
 * exerts F̂_A = −F on the spring, the node at B F̂_B = +F (a C-element). */
static void
spring_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
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
  .eval = spring_eval,
};

/* ---------------------------------------------------------------- damper */

static const HydParamInfo damper_params[] = {
  { "damping", N_("Damping"), HYD_UNIT_DAMPING, 100.0, 0.0, INFINITY, 0, NULL,
    N_("viscous damping coefficient d") },
};

/* F = d·(v_B − v_A) acts as the spring's tension (an R-element). */
static void
damper_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
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
  .eval = damper_eval,
};

/* ---------------------------------------------------------- force source */

static const HydPortInfo force_ports[] = {
  { "A", HYD_DOMAIN_TRANSLATIONAL, FALSE, N_("the body's connection (translational)") },
  { "S", HYD_DOMAIN_SIGNAL, TRUE, N_("signal input (optional): the force in N; wired, it replaces the parameter"),
    HYD_PORT_INPUT },
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
