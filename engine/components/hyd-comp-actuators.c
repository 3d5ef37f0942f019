/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-comp-actuators.c — cylinders and the fixed-displacement motor
 * (spec/components.md, Actuators; Esqué 2008, §3.2.5, eqs. 3.10–3.11).
 *
 * A cylinder declares its chamber volumes as port volumes that depend on its
 * position state x (circuit-format.md, Nodes): the node equations take the
 * volume-rate terms A·ẋ from ∂V/∂x, so its through flows are only the internal
 * leakage. Friction is Esqué's static Stribeck law (eq. 3.13, δ = 2) with the
 * sign smoothed by tanh; end stops are stiff soft-ramp springs with damping
 * faded in by open01.
 *
 * The rod is an optional translational port R (docs/domains.md, "A component
 * that couples domains"). Unwired, the cylinder moves its own mass with its
 * states x, v, as in version 1. Wired, the rod's node carries the motion: the
 * piston position x stays the cylinder's own state with ẋ = v_R (the chamber
 * volumes are functions of it), the cylinder returns the force its rod takes,
 * F̂_R = −(p_A·A_A − p_B·A_B − F_f(v_R) − F_load + F_stop(x, v_R)), and puts
 * its moving mass at R (C[R]). The end stops act through F̂_R on the node:
 * the same stiff damped springs, of the piston's own x. The rod's node
 * starts at the piston's initial position and velocity unless a wire sets
 * them (port_initial_motion). */
#include "hyd-component.h"
#include "hyd-i18n.h"
#include "hyd-error.h"
#include "hyd-smooth.h"

#include <math.h>

/* Width of the end-stop contact blend (m), components.md. */
#define END_STOP_BLEND 1e-4

/* ---------------------------------------------------------------- shared */

typedef struct {
  double viscous;   /* N·s/m */
  double coulomb;   /* N */
  double stat;      /* N */
  double v_s;       /* Stribeck velocity, m/s */
  double v_eps;     /* tanh smoothing velocity, m/s */
  double k_stop;    /* N/m */
  double c_stop;    /* N·s/m */
  double stroke;    /* m */
} CylinderMech;

/* F_f(v) = viscous·v + (F_C + (F_S,eff − F_C)·exp(−(v/v_s)²))·tanh(v/v_ε),
 * F_S,eff = max(static, coulomb): Esqué (2008) eq. 3.13 with δ = 2 (§3.2.5). */
static double
cylinder_friction (const CylinderMech *m, double v, double *dF_dv)
{
  double fs = MAX (m->stat, m->coulomb);
  double r = v / m->v_s;
  double e = exp (-r * r);
  double de = -2.0 * r / m->v_s * e;
  double dth;
  double th = hyd_sgn_smooth (v, m->v_eps, &dth);
  double mag = m->coulomb + (fs - m->coulomb) * e;

  *dF_dv = m->viscous + (fs - m->coulomb) * de * th + mag * dth;
  return m->viscous * v + mag * th;
}

/* F_stop = k·soft_ramp(−x, w) − k·soft_ramp(x − stroke, w)
 *          − c·v·(open01(−x/w) + open01((x − stroke)/w)), w = 1e-4 m. */
static double
cylinder_end_stop (const CylinderMech *m, double x, double v,
                   double *dF_dx, double *dF_dv)
{
  const double w = END_STOP_BLEND;
  double d0, d1, o0, o1;
  double r0 = hyd_soft_ramp (-x, w, &d0);
  double r1 = hyd_soft_ramp (x - m->stroke, w, &d1);
  double a0 = hyd_open01 (-x / w, HYD_SMOOTH_EPS, &o0);
  double a1 = hyd_open01 ((x - m->stroke) / w, HYD_SMOOTH_EPS, &o1);

  *dF_dx = -m->k_stop * d0 - m->k_stop * d1 - m->c_stop * v * (o1 - o0) / w;
  *dF_dv = -m->c_stop * (a0 + a1);
  return m->k_stop * (r0 - r1) - m->c_stop * v * (a0 + a1);
}

/* Chamber volume V = dead + A·g(ξ, δ), g(ξ, δ) = ξ + soft_ramp(−ξ, δ),
 * δ = dead/A: exactly dead + A·ξ inside the stroke, never below dead/2.
 * Writes dV/dξ and d²V/dξ². */
static double
chamber_volume (double dead, double area, double xi, double *dV, double *d2V)
{
  double delta = dead / area;
  double ds;
  double s = hyd_soft_ramp (-xi, delta, &ds);

  *dV = area * (1.0 - ds);
  *d2V = area * hyd_soft_ramp_dd (-xi, delta);
  return dead + area * (xi + s);
}

static gboolean
check_initial_position (const HydComp *comp, double x0, double stroke, GError **error)
{
  if (x0 < 0.0 || x0 > stroke)
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                   "%s: parameter initial_position = %g m must lie in [0, stroke] = [0, %g] m",
                   comp->id, x0, stroke);
      return FALSE;
    }
  return TRUE;
}

static const HydVarInfo cylinder_states[] = {
  { "x", HYD_UNIT_POSITION, N_("piston position, extension from fully retracted") },
  { "v", HYD_UNIT_VELOCITY, N_("piston velocity, positive extending") },
};

static const HydVarInfo cylinder_outputs[] = {
  { "force", HYD_UNIT_FORCE, N_("hydraulic force on the piston, positive extending") },
  { "power", HYD_UNIT_POWER, N_("hydraulic power delivered to the piston (force·v)") },
  { "v", HYD_UNIT_VELOCITY, N_("piston velocity, positive extending (the rod's node's velocity)") },
};

/* The net force on the piston and its partials: F = force − F_spring −
 * F_f(v) − F_load(t) + F_stop(x, v), in the order of version 1's sum. */
typedef struct {
  double F, dF_dpA, dF_dpB, dF_dx, dF_dv, dF_dt;
} CylinderNet;

/* With R unwired: rows [q̂ …, ẋ, v̇] over columns [p …, x, v], the ports
 * other than R (version 1's dense block, in its order). With R wired: rows
 * [q̂ …, F̂_R, ẋ] over columns [p …, v_R, x]. Positions are not read. */
static void
cylinder_pattern (HydComp *comp, guint rod)
{
  guint np = comp->type->n_ports, ns = comp->n_states, n = np + ns;
  gboolean wired = hyd_comp_port_connected (comp, rod);
  g_autofree guint *rows = g_new (guint, n * n), *cols = g_new (guint, n * n);
  guint nnz = 0;
  for (guint r = 0; r < n; r++)
    for (guint c = 0; c < n; c++)
      if (wired || (r != rod && c != rod))
        {
          rows[nnz] = r;
          cols[nnz] = c;
          nnz++;
        }
  hyd_comp_set_pattern (comp, nnz, rows, cols);
}

/* The rows of the motion, given the net force: version 1's ẋ = v,
 * v̇ = F/m with R unwired; ẋ = v_R and F̂_R = −F with the mass at R with
 * it wired. pa, pb: the local columns of the pressures in F (pb = −1: none).
 * Jd: the dense local block (rows np + ns, nl columns), scattered into
 * out->jac by the pattern afterwards. */
static void
cylinder_motion (const HydComp *comp, guint rod, int pa, int pb, double m, const CylinderNet *net,
                 double v, HydEvalOut *out, double *Jd)
{
  guint np = comp->type->n_ports, nl = hyd_comp_n_local (comp);
  guint cx = np;  /* column (and row) of x */
  if (!hyd_comp_port_connected (comp, rod))
    {
      guint cv = np + 1;
      out->xdot[0] = v;
      out->xdot[1] = net->F / m;
      if (Jd)
        {
          Jd[cx * nl + cv] = 1.0;
          Jd[cv * nl + pa] = net->dF_dpA / m;
          if (pb >= 0)
            Jd[cv * nl + pb] = net->dF_dpB / m;
          Jd[cv * nl + cx] = net->dF_dx / m;
          Jd[cv * nl + cv] = net->dF_dv / m;
        }
      if (out->x_t)
        out->x_t[1] = net->dF_dt / m;
      if (out->out)
        out->out[1] = out->out[0] * v;
      return;
    }
  out->xdot[0] = v;
  out->q[rod] = -net->F;
  if (out->C)
    out->C[rod] = m;
  if (Jd)
    {
      Jd[cx * nl + rod] = 1.0;
      Jd[rod * nl + pa] = -net->dF_dpA;
      if (pb >= 0)
        Jd[rod * nl + pb] = -net->dF_dpB;
      Jd[rod * nl + cx] = -net->dF_dx;
      Jd[rod * nl + rod] = -net->dF_dv;
    }
  if (out->q_t)
    out->q_t[rod] = -net->dF_dt;
  if (out->out)
    {
      out->out[1] = out->out[0] * v;
      out->out[2] = v;
    }
}

static void
cylinder_scatter (const HydComp *comp, const double *Jd, double *jac)
{
  guint nl = hyd_comp_n_local (comp);
  for (guint e = 0; e < comp->nnz; e++)
    jac[e] = Jd[comp->jrow[e] * nl + comp->jcol[e]];
}

#define ROD_PORT_DESCRIPTION \
  N_("the rod (translational, optional): wired, the rod's node carries the piston's motion " \
     "and loads attach to it; unwired, the cylinder moves its own mass")

/* ------------------------------------------------------- cylinder_double */

enum {
  CD_PISTON_DIAMETER,
  CD_ROD_DIAMETER,
  CD_STROKE,
  CD_DEAD_VOLUME_A,
  CD_DEAD_VOLUME_B,
  CD_MASS,
  CD_LOAD_FORCE,
  CD_VISCOUS_FRICTION,
  CD_COULOMB_FRICTION,
  CD_STATIC_FRICTION,
  CD_STRIBECK_VELOCITY,
  CD_FRICTION_SMOOTHING_VELOCITY,
  CD_LEAKAGE,
  CD_END_STOP_STIFFNESS,
  CD_END_STOP_DAMPING,
  CD_INITIAL_POSITION,
  CD_INITIAL_VELOCITY,
  CD_N_PARAMS
};

static const HydPortInfo cylinder_double_ports[] = {
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("cap side (full bore): pressure here extends the rod") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("rod side (annulus): pressure here retracts the rod") },
  { "R", HYD_DOMAIN_TRANSLATIONAL, TRUE, ROD_PORT_DESCRIPTION },
};

enum { CD_PORT_R = 2 };

#define PISTON_DIAMETER_PARAM \
  { "piston_diameter", N_("Piston diameter"), HYD_UNIT_LENGTH, 0.05, 0.0, INFINITY, \
    HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("bore of the cylinder barrel") }

static const HydParamInfo cylinder_double_params[CD_N_PARAMS] = {
  [CD_PISTON_DIAMETER] = PISTON_DIAMETER_PARAM,
  [CD_ROD_DIAMETER] = { "rod_diameter", N_("Rod diameter"), HYD_UNIT_LENGTH, 0.028, 0.0, INFINITY,
                        0, NULL, N_("piston rod diameter, smaller than the piston diameter") },
  [CD_STROKE] = { "stroke", N_("Stroke"), HYD_UNIT_LENGTH, 0.5, 0.0, INFINITY,
                  HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("travel between the end stops") },
  [CD_DEAD_VOLUME_A] = { "dead_volume_a", N_("Dead volume A"), HYD_UNIT_VOLUME, 5e-5, 1e-9, INFINITY,
                         0, NULL, N_("oil volume of the cap chamber at x = 0, including its port") },
  [CD_DEAD_VOLUME_B] = { "dead_volume_b", N_("Dead volume B"), HYD_UNIT_VOLUME, 5e-5, 1e-9, INFINITY,
                         0, NULL, N_("oil volume of the rod chamber at x = stroke, including its port") },
  [CD_MASS] = { "mass", N_("Moving mass"), HYD_UNIT_MASS, 100.0, 0.0, INFINITY,
                HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("piston, rod and load mass") },
  [CD_LOAD_FORCE] = { "load_force", N_("Load force"), HYD_UNIT_FORCE, 0.0, -INFINITY, INFINITY,
                      HYD_PARAM_PROFILE, NULL, N_("external force on the rod, positive opposes extension") },
  [CD_VISCOUS_FRICTION] = { "viscous_friction", N_("Viscous friction"), HYD_UNIT_DAMPING, 500.0, 0.0, INFINITY,
                            0, NULL, N_("friction force per unit velocity") },
  [CD_COULOMB_FRICTION] = { "coulomb_friction", N_("Coulomb friction"), HYD_UNIT_FORCE, 0.0, 0.0, INFINITY,
                            0, NULL, N_("sliding friction force at speed") },
  [CD_STATIC_FRICTION] = { "static_friction", N_("Static friction"), HYD_UNIT_FORCE, 0.0, 0.0, INFINITY,
                           0, NULL, N_("break-away friction force (Stribeck peak), at least the Coulomb force") },
  [CD_STRIBECK_VELOCITY] = { "stribeck_velocity", N_("Stribeck velocity"), HYD_UNIT_VELOCITY, 0.02, 0.0, INFINITY,
                             HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("velocity scale of the static-to-Coulomb decay") },
  [CD_FRICTION_SMOOTHING_VELOCITY] = { "friction_smoothing_velocity", N_("Friction smoothing velocity"),
                                       HYD_UNIT_VELOCITY, 1e-3, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
                                       N_("velocity scale of the tanh that replaces sgn(v)") },
  [CD_LEAKAGE] = { "leakage", N_("Internal leakage"), HYD_UNIT_LEAKAGE, 0.0, 0.0, INFINITY,
                   0, NULL, N_("laminar leakage coefficient across the piston, A to B") },
  [CD_END_STOP_STIFFNESS] = { "end_stop_stiffness", N_("End-stop stiffness"), HYD_UNIT_STIFFNESS, 1e9, 0.0, INFINITY,
                              0, NULL, N_("contact stiffness of the end stops") },
  [CD_END_STOP_DAMPING] = { "end_stop_damping", N_("End-stop damping"), HYD_UNIT_DAMPING, 1e6, 0.0, INFINITY,
                            0, NULL, N_("contact damping of the end stops") },
  [CD_INITIAL_POSITION] = { "initial_position", N_("Initial position"), HYD_UNIT_POSITION, 0.0, 0.0, INFINITY,
                            0, NULL, N_("piston position at t = 0, within [0, stroke]") },
  [CD_INITIAL_VELOCITY] = { "initial_velocity", N_("Initial velocity"), HYD_UNIT_VELOCITY, 0.0, -INFINITY, INFINITY,
                            0, NULL, N_("piston velocity at t = 0") },
};

static void
cylinder_double_mech (const HydComp *comp, CylinderMech *m)
{
  const double *par = comp->par;
  m->viscous = par[CD_VISCOUS_FRICTION];
  m->coulomb = par[CD_COULOMB_FRICTION];
  m->stat = par[CD_STATIC_FRICTION];
  m->v_s = par[CD_STRIBECK_VELOCITY];
  m->v_eps = par[CD_FRICTION_SMOOTHING_VELOCITY];
  m->k_stop = par[CD_END_STOP_STIFFNESS];
  m->c_stop = par[CD_END_STOP_DAMPING];
  m->stroke = par[CD_STROKE];
}

static gboolean
cylinder_double_validate (const HydComp *comp, GError **error)
{
  const double *par = comp->par;
  if (!(par[CD_ROD_DIAMETER] < par[CD_PISTON_DIAMETER]))
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                   "%s: parameter rod_diameter = %g m must be smaller than piston_diameter = %g m",
                   comp->id, par[CD_ROD_DIAMETER], par[CD_PISTON_DIAMETER]);
      return FALSE;
    }
  return check_initial_position (comp, par[CD_INITIAL_POSITION], par[CD_STROKE], error);
}

/* Both cylinders: states x, v (x alone with the rod wired: v is the rod's
 * node's); volumes depend on x; end-stop events. */
static gboolean
cylinder_setup (HydComp *comp, guint rod, GError **error)
{
  static const guint vstates[] = { 0 };
  gboolean wired = hyd_comp_port_connected (comp, rod);
  hyd_comp_set_states (comp, wired ? 1 : G_N_ELEMENTS (cylinder_states), cylinder_states);
  hyd_comp_set_outputs (comp, wired ? 3 : 2, cylinder_outputs);
  hyd_comp_set_vstates (comp, G_N_ELEMENTS (vstates), vstates);
  hyd_comp_add_event (comp, "retracted end stop", N_("the piston reaches x = 0"));
  hyd_comp_add_event (comp, "extended end stop", N_("the piston reaches x = stroke"));
  cylinder_pattern (comp, rod);
  return TRUE;
}

/* End-stop contact: the stop force starts where x leaves [0, stroke]. */
static void
cylinder_end_stop_events (double x, double stroke, double *g)
{
  g[0] = x;
  g[1] = stroke - x;
}

static void
cylinder_double_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  cylinder_end_stop_events (in->x[0], comp->par[CD_STROKE], g);
}

static gboolean
cylinder_double_setup (HydComp *comp, GError **error)
{
  return cylinder_setup (comp, CD_PORT_R, error);
}

/* The rod's node starts where the piston does, at its velocity (unless a
 * wire says otherwise), so the node's x is C1.x. */
static gboolean
cylinder_double_port_initial_motion (const HydComp *comp, guint port, double *v, double *x)
{
  if (port != CD_PORT_R)
    return FALSE;
  *v = comp->par[CD_INITIAL_VELOCITY];
  *x = comp->par[CD_INITIAL_POSITION];
  return TRUE;
}

static void
cylinder_double_init_states (const HydComp *comp, const double *p0, double *x0)
{
  x0[0] = comp->par[CD_INITIAL_POSITION];
  if (comp->n_states > 1)
    x0[1] = comp->par[CD_INITIAL_VELOCITY];
}

/* Local rows [q̂_A, q̂_B, q̂_R, ẋ (, v̇)], columns [p_A, p_B, v_R, x (, v),
 * s_A, s_B, s_R] (cylinder_pattern). */
static void
cylinder_double_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  const double *par = comp->par;
  gboolean wired = hyd_comp_port_connected (comp, CD_PORT_R);
  double pA = in->p[0], pB = in->p[1];
  double x = in->x[0], v = wired ? in->p[CD_PORT_R] : in->x[1];
  double dp = par[CD_PISTON_DIAMETER], dr = par[CD_ROD_DIAMETER];
  double area_a = G_PI * dp * dp / 4.0;
  double area_b = G_PI * (dp * dp - dr * dr) / 4.0;
  double m = par[CD_MASS];
  double leak = par[CD_LEAKAGE];
  guint nl = hyd_comp_n_local (comp);
  double Jd[5 * 9] = { 0 };
  CylinderMech mech;
  cylinder_double_mech (comp, &mech);
  g_assert (nl <= 9);

  /* Internal leakage is the only through flow; A·ẋ comes from ∂V/∂x. */
  double q_leak = leak * (pA - pB);
  out->q[0] = q_leak;
  out->q[1] = -q_leak;

  double dFf_dv, dFs_dx, dFs_dv;
  double f_fric = cylinder_friction (&mech, v, &dFf_dv);
  double f_stop = cylinder_end_stop (&mech, x, v, &dFs_dx, &dFs_dv);
  double force = pA * area_a - pB * area_b;

  /* m·v̇ = p_A·A_A − p_B·A_B − F_f(v) − load(t) + F_stop(x, v), ẋ = v */
  CylinderNet net = {
    /* version 1's sum, in its order */
    .F = force - f_fric - par[CD_LOAD_FORCE] + f_stop,
    .dF_dpA = area_a, .dF_dpB = -area_b, .dF_dx = dFs_dx, .dF_dv = dFs_dv - dFf_dv,
    .dF_dt = -comp->par_dt[CD_LOAD_FORCE],
  };
  if (out->out)
    out->out[0] = force;
  if (out->jac)
    {
      Jd[0 * nl + 0] = leak;
      Jd[0 * nl + 1] = -leak;
      Jd[1 * nl + 0] = -leak;
      Jd[1 * nl + 1] = leak;
    }
  cylinder_motion (comp, CD_PORT_R, 0, 1, m, &net, v, out, out->jac ? Jd : NULL);
  if (out->jac)
    cylinder_scatter (comp, Jd, out->jac);

  if (out->V)
    {
      double dVa, d2Va, dVb, d2Vb;
      out->V[0] = chamber_volume (par[CD_DEAD_VOLUME_A], area_a, x, &dVa, &d2Va);
      out->V[1] = chamber_volume (par[CD_DEAD_VOLUME_B], area_b, par[CD_STROKE] - x, &dVb, &d2Vb);
      /* one volume state (x): dV is [port], d2V is [port] */
      out->dV[0] = dVa;
      out->dV[1] = -dVb;
      out->d2V[0] = d2Va;
      out->d2V[1] = d2Vb;
    }
}

const HydComponentType hyd_cylinder_double_type = {
  .id = "cylinder_double",
  .label = N_("Double-acting cylinder"),
  .category = HYD_CATEGORY_ACTUATORS,
  .iso_symbol = N_("double-acting single-rod cylinder"),
  .description =
    N_("Double-acting single-rod cylinder. Chamber volumes V_A = V_0A + A_A·x and "
       "V_B = V_0B + A_B·(stroke − x) (softly floored at half the dead volume past "
       "an end stop); internal leakage q = leakage·(p_A − p_B). Motion: "
       "m·v̇ = p_A·A_A − p_B·A_B − F_f(v) − F_load(t) + F_stop(x, v), with friction "
       "F_f = b·v + (F_C + (F_S − F_C)·exp(−(v/v_s)²))·tanh(v/v_ε) (Esqué 2008 "
       "eq. 3.13) and stiff damped end stops at 0 and stroke. Wire the rod R to a "
       "mechanical circuit and its node carries the motion: dx/dt = v_R, the rod "
       "force −F̂_R = p_A·A_A − p_B·A_B − F_f(v_R) − F_load + F_stop(x, v_R) acts on "
       "the node and the moving mass m is added to it (a mass on R adds to m)."),
  .ports = cylinder_double_ports,
  .n_ports = G_N_ELEMENTS (cylinder_double_ports),
  .params = cylinder_double_params,
  .n_params = G_N_ELEMENTS (cylinder_double_params),
  .boundary_param = -1,
  .designator = "C",
  .roles = HYD_ROLE_CHAMBERS,
  .validate = cylinder_double_validate,
  .setup = cylinder_double_setup,
  .init_states = cylinder_double_init_states,
  .eval = cylinder_double_eval,
  .events = cylinder_double_events,
  .port_initial_motion = cylinder_double_port_initial_motion,
};

/* ------------------------------------------------------- cylinder_single */

enum {
  CS_PISTON_DIAMETER,
  CS_STROKE,
  CS_DEAD_VOLUME_A,
  CS_MASS,
  CS_LOAD_FORCE,
  CS_VISCOUS_FRICTION,
  CS_COULOMB_FRICTION,
  CS_STATIC_FRICTION,
  CS_STRIBECK_VELOCITY,
  CS_FRICTION_SMOOTHING_VELOCITY,
  CS_END_STOP_STIFFNESS,
  CS_END_STOP_DAMPING,
  CS_INITIAL_POSITION,
  CS_INITIAL_VELOCITY,
  CS_SPRING_STIFFNESS,
  CS_SPRING_PRELOAD,
  CS_N_PARAMS
};

static const HydPortInfo cylinder_single_ports[] = {
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("cap side (full bore); the rod side is vented") },
  { "R", HYD_DOMAIN_TRANSLATIONAL, TRUE, ROD_PORT_DESCRIPTION },
};

enum { CS_PORT_R = 1 };

static const HydParamInfo cylinder_single_params[CS_N_PARAMS] = {
  [CS_PISTON_DIAMETER] = PISTON_DIAMETER_PARAM,
  [CS_STROKE] = { "stroke", N_("Stroke"), HYD_UNIT_LENGTH, 0.5, 0.0, INFINITY,
                  HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("travel between the end stops") },
  [CS_DEAD_VOLUME_A] = { "dead_volume_a", N_("Dead volume A"), HYD_UNIT_VOLUME, 5e-5, 1e-9, INFINITY,
                         0, NULL, N_("oil volume of the cap chamber at x = 0, including its port") },
  [CS_MASS] = { "mass", N_("Moving mass"), HYD_UNIT_MASS, 100.0, 0.0, INFINITY,
                HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("piston, rod and load mass") },
  [CS_LOAD_FORCE] = { "load_force", N_("Load force"), HYD_UNIT_FORCE, 0.0, -INFINITY, INFINITY,
                      HYD_PARAM_PROFILE, NULL, N_("external force on the rod, positive opposes extension") },
  [CS_VISCOUS_FRICTION] = { "viscous_friction", N_("Viscous friction"), HYD_UNIT_DAMPING, 500.0, 0.0, INFINITY,
                            0, NULL, N_("friction force per unit velocity") },
  [CS_COULOMB_FRICTION] = { "coulomb_friction", N_("Coulomb friction"), HYD_UNIT_FORCE, 0.0, 0.0, INFINITY,
                            0, NULL, N_("sliding friction force at speed") },
  [CS_STATIC_FRICTION] = { "static_friction", N_("Static friction"), HYD_UNIT_FORCE, 0.0, 0.0, INFINITY,
                           0, NULL, N_("break-away friction force (Stribeck peak), at least the Coulomb force") },
  [CS_STRIBECK_VELOCITY] = { "stribeck_velocity", N_("Stribeck velocity"), HYD_UNIT_VELOCITY, 0.02, 0.0, INFINITY,
                             HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("velocity scale of the static-to-Coulomb decay") },
  [CS_FRICTION_SMOOTHING_VELOCITY] = { "friction_smoothing_velocity", N_("Friction smoothing velocity"),
                                       HYD_UNIT_VELOCITY, 1e-3, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
                                       N_("velocity scale of the tanh that replaces sgn(v)") },
  [CS_END_STOP_STIFFNESS] = { "end_stop_stiffness", N_("End-stop stiffness"), HYD_UNIT_STIFFNESS, 1e9, 0.0, INFINITY,
                              0, NULL, N_("contact stiffness of the end stops") },
  [CS_END_STOP_DAMPING] = { "end_stop_damping", N_("End-stop damping"), HYD_UNIT_DAMPING, 1e6, 0.0, INFINITY,
                            0, NULL, N_("contact damping of the end stops") },
  [CS_INITIAL_POSITION] = { "initial_position", N_("Initial position"), HYD_UNIT_POSITION, 0.0, 0.0, INFINITY,
                            0, NULL, N_("piston position at t = 0, within [0, stroke]") },
  [CS_INITIAL_VELOCITY] = { "initial_velocity", N_("Initial velocity"), HYD_UNIT_VELOCITY, 0.0, -INFINITY, INFINITY,
                            0, NULL, N_("piston velocity at t = 0") },
  [CS_SPRING_STIFFNESS] = { "spring_stiffness", N_("Spring stiffness"), HYD_UNIT_STIFFNESS, 2000.0, 0.0, INFINITY,
                            0, NULL, N_("stiffness of the return spring") },
  [CS_SPRING_PRELOAD] = { "spring_preload", N_("Spring preload"), HYD_UNIT_FORCE, 200.0, 0.0, INFINITY,
                          0, NULL, N_("return spring force at x = 0") },
};

static void
cylinder_single_mech (const HydComp *comp, CylinderMech *m)
{
  const double *par = comp->par;
  m->viscous = par[CS_VISCOUS_FRICTION];
  m->coulomb = par[CS_COULOMB_FRICTION];
  m->stat = par[CS_STATIC_FRICTION];
  m->v_s = par[CS_STRIBECK_VELOCITY];
  m->v_eps = par[CS_FRICTION_SMOOTHING_VELOCITY];
  m->k_stop = par[CS_END_STOP_STIFFNESS];
  m->c_stop = par[CS_END_STOP_DAMPING];
  m->stroke = par[CS_STROKE];
}

static gboolean
cylinder_single_validate (const HydComp *comp, GError **error)
{
  return check_initial_position (comp, comp->par[CS_INITIAL_POSITION], comp->par[CS_STROKE], error);
}

static void
cylinder_single_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  cylinder_end_stop_events (in->x[0], comp->par[CS_STROKE], g);
}

static gboolean
cylinder_single_setup (HydComp *comp, GError **error)
{
  return cylinder_setup (comp, CS_PORT_R, error);
}

static gboolean
cylinder_single_port_initial_motion (const HydComp *comp, guint port, double *v, double *x)
{
  if (port != CS_PORT_R)
    return FALSE;
  *v = comp->par[CS_INITIAL_VELOCITY];
  *x = comp->par[CS_INITIAL_POSITION];
  return TRUE;
}

static void
cylinder_single_init_states (const HydComp *comp, const double *p0, double *x0)
{
  x0[0] = comp->par[CS_INITIAL_POSITION];
  if (comp->n_states > 1)
    x0[1] = comp->par[CS_INITIAL_VELOCITY];
}

/* Local rows [q̂_A, q̂_R, ẋ (, v̇)], columns [p_A, v_R, x (, v), s_A, s_R]
 * (cylinder_pattern). */
static void
cylinder_single_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  const double *par = comp->par;
  gboolean wired = hyd_comp_port_connected (comp, CS_PORT_R);
  double pA = in->p[0];
  double x = in->x[0], v = wired ? in->p[CS_PORT_R] : in->x[1];
  double dp = par[CS_PISTON_DIAMETER];
  double area_a = G_PI * dp * dp / 4.0;
  double m = par[CS_MASS];
  double k_spring = par[CS_SPRING_STIFFNESS];
  guint nl = hyd_comp_n_local (comp);
  double Jd[4 * 6] = { 0 };
  CylinderMech mech;
  cylinder_single_mech (comp, &mech);
  g_assert (nl <= 6);

  /* No through flow: the chamber's A·ẋ comes from ∂V/∂x. */
  double dFf_dv, dFs_dx, dFs_dv;
  double f_fric = cylinder_friction (&mech, v, &dFf_dv);
  double f_stop = cylinder_end_stop (&mech, x, v, &dFs_dx, &dFs_dv);
  double force = pA * area_a;
  double f_spring = par[CS_SPRING_PRELOAD] + k_spring * x;

  /* m·v̇ = p_A·A_A − (preload + k·x) − F_f(v) − load(t) + F_stop(x, v) */
  CylinderNet net = {
    .F = force - f_spring - f_fric - par[CS_LOAD_FORCE] + f_stop,
    .dF_dpA = area_a, .dF_dx = dFs_dx - k_spring, .dF_dv = dFs_dv - dFf_dv,
    .dF_dt = -comp->par_dt[CS_LOAD_FORCE],
  };
  if (out->out)
    out->out[0] = force;
  cylinder_motion (comp, CS_PORT_R, 0, -1, m, &net, v, out, out->jac ? Jd : NULL);
  if (out->jac)
    cylinder_scatter (comp, Jd, out->jac);

  if (out->V)
    {
      double dVa, d2Va;
      out->V[0] = chamber_volume (par[CS_DEAD_VOLUME_A], area_a, x, &dVa, &d2Va);
      out->dV[0] = dVa;
      out->d2V[0] = d2Va;
    }
}

const HydComponentType hyd_cylinder_single_type = {
  .id = "cylinder_single",
  .label = N_("Single-acting cylinder"),
  .category = HYD_CATEGORY_ACTUATORS,
  .iso_symbol = N_("single-acting cylinder, spring return"),
  .description =
    N_("Single-acting cylinder with spring return; the rod side is vented. Chamber "
       "volume V_A = V_0A + A_A·x (softly floored at half the dead volume past the "
       "end stop). Motion: m·v̇ = p_A·A_A − (F_preload + k·x) − F_f(v) − F_load(t) "
       "+ F_stop(x, v), with friction F_f = b·v + (F_C + (F_S − F_C)·exp(−(v/v_s)²))·"
       "tanh(v/v_ε) (Esqué 2008 eq. 3.13) and stiff damped end stops. Wire the rod R "
       "to a mechanical circuit and its node carries the motion: dx/dt = v_R, the "
       "same force acts on the node and the moving mass m is added to it."),
  .ports = cylinder_single_ports,
  .n_ports = G_N_ELEMENTS (cylinder_single_ports),
  .params = cylinder_single_params,
  .n_params = G_N_ELEMENTS (cylinder_single_params),
  .boundary_param = -1,
  .designator = "C",
  .roles = HYD_ROLE_CHAMBERS,
  .validate = cylinder_single_validate,
  .setup = cylinder_single_setup,
  .init_states = cylinder_single_init_states,
  .eval = cylinder_single_eval,
  .events = cylinder_single_events,
  .port_initial_motion = cylinder_single_port_initial_motion,
};

/* ----------------------------------------------------------- motor_fixed */

enum {
  MF_DISPLACEMENT,
  MF_INERTIA,
  MF_VISCOUS_FRICTION,
  MF_COULOMB_FRICTION,
  MF_LOAD_TORQUE,
  MF_LEAKAGE,
  MF_FRICTION_SMOOTHING_VELOCITY,
  MF_INITIAL_SPEED,
  MF_N_PARAMS
};

static const HydPortInfo motor_fixed_ports[] = {
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, N_("inlet for positive rotation") },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, N_("outlet for positive rotation") },
};

static const HydParamInfo motor_fixed_params[MF_N_PARAMS] = {
  [MF_DISPLACEMENT] = { "displacement", N_("Displacement"), HYD_UNIT_DISPLACEMENT,
                        10e-6 / (2.0 * G_PI) /* 10 cm³/rev */, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
                        N_("volume swept per shaft revolution (the file gives it per radian, in m³/rad)") },
  [MF_INERTIA] = { "inertia", N_("Inertia"), HYD_UNIT_INERTIA, 0.05, 0.0, INFINITY,
                   HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("moment of inertia of the motor and its load") },
  [MF_VISCOUS_FRICTION] = { "viscous_friction", N_("Viscous friction"), HYD_UNIT_ROT_DAMPING, 0.01, 0.0, INFINITY,
                            0, NULL, N_("friction torque per unit angular velocity") },
  [MF_COULOMB_FRICTION] = { "coulomb_friction", N_("Coulomb friction"), HYD_UNIT_TORQUE, 0.0, 0.0, INFINITY,
                            0, NULL, N_("sliding friction torque at speed") },
  [MF_LOAD_TORQUE] = { "load_torque", N_("Load torque"), HYD_UNIT_TORQUE, 0.0, -INFINITY, INFINITY,
                       HYD_PARAM_PROFILE, NULL, N_("external torque on the shaft, positive opposes positive rotation") },
  [MF_LEAKAGE] = { "leakage", N_("Leakage"), HYD_UNIT_LEAKAGE, 0.0, 0.0, INFINITY,
                   0, NULL, N_("laminar leakage coefficient, A to B") },
  [MF_FRICTION_SMOOTHING_VELOCITY] = { "friction_smoothing_velocity", N_("Friction smoothing velocity"),
                                       HYD_UNIT_ANGULAR_VELOCITY, 0.1, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
                                       N_("angular velocity scale of the tanh that replaces sgn(w)") },
  [MF_INITIAL_SPEED] = { "initial_speed", N_("Initial speed"), HYD_UNIT_ANGULAR_VELOCITY, 0.0, -INFINITY, INFINITY,
                         0, NULL, N_("shaft speed at t = 0") },
};

static const HydVarInfo motor_fixed_states[] = {
  { "theta", HYD_UNIT_ANGLE, N_("shaft angle") },
  { "w", HYD_UNIT_ANGULAR_VELOCITY, N_("shaft speed, positive for flow from A to B") },
};

static const HydVarInfo motor_fixed_outputs[] = {
  { "torque", HYD_UNIT_TORQUE, N_("hydraulic torque D·(p_A − p_B)") },
  { "power", HYD_UNIT_POWER, N_("shaft power of the hydraulic torque, D·(p_A − p_B)·w") },
};

static gboolean
motor_fixed_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_states (comp, G_N_ELEMENTS (motor_fixed_states), motor_fixed_states);
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (motor_fixed_outputs), motor_fixed_outputs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
motor_fixed_init_states (const HydComp *comp, const double *p0, double *x0)
{
  x0[0] = 0.0;
  x0[1] = comp->par[MF_INITIAL_SPEED];
}

/* Local rows [q̂_A, q̂_B, θ̇, ẇ], columns [p_A, p_B, θ, w]. */
static void
motor_fixed_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  const double *par = comp->par;
  double dp = in->p[0] - in->p[1];
  double w = in->x[1];
  double D = par[MF_DISPLACEMENT];
  double J = par[MF_INERTIA];
  double leak = par[MF_LEAKAGE];
  double b = par[MF_VISCOUS_FRICTION];
  double c = par[MF_COULOMB_FRICTION];

  /* q_A = D·w + leakage·Δp_AB = −q_B */
  double q = D * w + leak * dp;
  out->q[0] = q;
  out->q[1] = -q;

  /* J·ẇ = D·Δp_AB − b·w − c·tanh(w/w_ε) − load(t), θ̇ = w */
  double dth;
  double th = hyd_sgn_smooth (w, par[MF_FRICTION_SMOOTHING_VELOCITY], &dth);
  out->xdot[0] = w;
  out->xdot[1] = (D * dp - b * w - c * th - par[MF_LOAD_TORQUE]) / J;

  if (out->jac)
    {
      HYD_JAC (comp, out, 0, 0) = leak;
      HYD_JAC (comp, out, 0, 1) = -leak;
      HYD_JAC (comp, out, 0, 3) = D;
      HYD_JAC (comp, out, 1, 0) = -leak;
      HYD_JAC (comp, out, 1, 1) = leak;
      HYD_JAC (comp, out, 1, 3) = -D;
      HYD_JAC (comp, out, 2, 3) = 1.0;
      HYD_JAC (comp, out, 3, 0) = D / J;
      HYD_JAC (comp, out, 3, 1) = -D / J;
      HYD_JAC (comp, out, 3, 3) = -(b + c * dth) / J;
    }
  if (out->x_t)
    out->x_t[1] = -comp->par_dt[MF_LOAD_TORQUE] / J;

  if (out->out)
    {
      out->out[0] = D * dp;
      out->out[1] = D * dp * w;
    }
}

const HydComponentType hyd_motor_fixed_type = {
  .id = "motor_fixed",
  .label = N_("Hydraulic motor"),
  .category = HYD_CATEGORY_ACTUATORS,
  .iso_symbol = N_("hydraulic motor, fixed displacement, two directions"),
  .description =
    N_("Fixed-displacement hydraulic motor driving a rotary inertia. Flow "
       "q_A = −q_B = D·w + leakage·(p_A − p_B); shaft: J·ẇ = D·(p_A − p_B) − b·w "
       "− T_C·tanh(w/w_ε) − T_load(t), θ̇ = w: an ideal displacement machine with "
       "laminar leakage and tanh-smoothed Coulomb friction (built like the cylinder of Esqué 2008, §3.2.5, which has no motor model)."),
  .ports = motor_fixed_ports,
  .n_ports = G_N_ELEMENTS (motor_fixed_ports),
  .params = motor_fixed_params,
  .n_params = G_N_ELEMENTS (motor_fixed_params),
  .boundary_param = -1,
  .designator = "M",
  .roles = 0,
  .setup = motor_fixed_setup,
  .init_states = motor_fixed_init_states,
  .eval = motor_fixed_eval,
};
