/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-components-b.c — actuators, storage, lines and measurement
 * (spec/components.md): analytic partial derivatives against central finite
 * differences at random operating points and inside every smoothing region,
 * plus value tests of the laws. */
#include "fd-harness.h"
#include "hyd-circuit.h"

#include <math.h>
#include <string.h>

#define N_RANDOM 200
#define B_L_DEFAULT 1.5e9  /* the default fluid's bulk modulus, Pa */

static double
uniform (GRand *rng, double lo, double hi)
{
  return g_rand_double_range (rng, lo, hi);
}

static guint
check_at (HydComp *comp, double t, const double *p, const double *x, const char *fmt, ...) G_GNUC_PRINTF (5, 6);

static guint
check_at (HydComp *comp, double t, const double *p, const double *x, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *where = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  return hyd_test_check_component (comp, t, p, x, where);
}

/* Full evaluation (values, V, C) for value tests. */
typedef struct {
  double q[8], xdot[8], V[8], dV[8], d2V[8], C[8], dC[8], out[8];
} Eval;

static void
eval_full (HydComp *comp, double t, const double *p, const double *x, Eval *e)
{
  memset (e, 0, sizeof *e);
  g_assert_cmpuint (comp->type->n_ports, <=, 8);
  g_assert_cmpuint (comp->n_states, <=, 8);
  HydEvalIn in = { t, p, x };
  HydEvalOut out = { e->q, e->xdot, NULL, NULL, NULL, e->V, e->dV, e->d2V, e->C, e->dC, e->out };
  comp->type->eval (comp, &in, &out);
}

static int
output_index (HydComp *comp, const char *name)
{
  for (guint i = 0; i < comp->n_outputs; i++)
    if (strcmp (comp->outputs[i].name, name) == 0)
      return (int) i;
  return -1;
}

/* ------------------------------------------------------------- metadata */

static void
test_metadata (void)
{
  const char *ids[] = { "cylinder_double", "cylinder_single", "motor_fixed", "volume",
                        "accumulator", "line", "pressure_gauge", "flow_meter" };
  for (guint k = 0; k < G_N_ELEMENTS (ids); k++)
    {
      const HydComponentType *type = hyd_catalogue_lookup (ids[k]);
      g_assert_nonnull (type);
      g_assert_cmpstr (type->id, ==, ids[k]);
      g_assert_nonnull (type->label);
      g_assert_nonnull (type->iso_symbol);
      g_assert_nonnull (type->description);
      g_assert_nonnull (type->setup);
      g_assert_nonnull (type->eval);
      g_assert_cmpint (type->boundary_param, ==, -1);
      g_assert_cmpuint (type->n_ports, >, 0);
      for (guint i = 0; i < type->n_ports; i++)
        {
          g_assert_nonnull (type->ports[i].name);
          g_assert_nonnull (type->ports[i].description);
        }
      for (guint i = 0; i < type->n_params; i++)
        {
          const HydParamInfo *pi = &type->params[i];
          g_assert_nonnull (pi->name);
          g_assert_nonnull (pi->label);
          g_assert_nonnull (pi->description);
          g_assert_true (pi->min <= pi->max);
          if (pi->flags & HYD_PARAM_ENUM)
            g_assert_nonnull (pi->choices);
          else if (!(pi->flags & HYD_PARAM_OPTIONAL))
            {
              g_assert_true (pi->def >= pi->min && pi->def <= pi->max);
              if (pi->flags & HYD_PARAM_MIN_EXCLUSIVE)
                g_assert_true (pi->def > pi->min);
            }
        }
    }

  const HydComponentType *cyl = hyd_catalogue_lookup ("cylinder_double");
  int k = hyd_component_type_find_param (cyl, "load_force");
  g_assert_true (cyl->params[k].flags & HYD_PARAM_PROFILE);
  k = hyd_component_type_find_param (cyl, "dead_volume_a");
  g_assert_cmpfloat (cyl->params[k].min, ==, 1e-9);
  const HydComponentType *mot = hyd_catalogue_lookup ("motor_fixed");
  k = hyd_component_type_find_param (mot, "load_torque");
  g_assert_true (mot->params[k].flags & HYD_PARAM_PROFILE);

  const HydComponentType *line = hyd_catalogue_lookup ("line");
  k = hyd_component_type_find_param (line, "model");
  g_assert_true (line->params[k].flags & HYD_PARAM_ENUM);
  g_assert_cmpstr (line->params[k].choices[(int) line->params[k].def], ==, "volume");
  g_assert_cmpstr (line->params[k].choices[3], ==, "tlm");
  k = hyd_component_type_find_param (line, "segments");
  g_assert_true (line->params[k].flags & HYD_PARAM_INTEGER);
  g_assert_cmpfloat (line->params[k].min, ==, 2);
  g_assert_cmpfloat (line->params[k].max, ==, 100000);

  const HydComponentType *vol = hyd_catalogue_lookup ("volume");
  g_assert_cmpuint (vol->n_ports, ==, 4);
  g_assert_false (vol->ports[0].optional);
  g_assert_true (vol->ports[1].optional && vol->ports[2].optional && vol->ports[3].optional);
  g_assert_cmpuint (vol->n_joined_ports, ==, 3);
  k = hyd_component_type_find_param (vol, "initial_pressure");
  g_assert_true (vol->params[k].flags & HYD_PARAM_OPTIONAL);

  const HydComponentType *gauge = hyd_catalogue_lookup ("pressure_gauge");
  int s = hyd_component_type_find_port (gauge, "S");
  g_assert_cmpint (s, >=, 0);
  g_assert_cmpint (gauge->ports[s].domain, ==, HYD_DOMAIN_SIGNAL);
  g_assert_true (gauge->ports[s].optional);

  const HydComponentType *fm = hyd_catalogue_lookup ("flow_meter");
  g_assert_true (fm->is_flow_meter);
  g_assert_cmpuint (fm->n_joined_ports, ==, 1);
  g_assert_cmpuint (fm->joined_ports[0][0], ==, 0);
  g_assert_cmpuint (fm->joined_ports[0][1], ==, 1);
}

/* ------------------------------------------------------- cylinder_double */

static HydComp *
make_cylinder_double (void)
{
  HydComp *comp = hyd_test_make_comp ("cylinder_double", NULL,
                                      "coulomb_friction", "300",
                                      "static_friction", "500",
                                      "leakage", "1e-12",
                                      "load_force", "2000",
                                      NULL);
  hyd_test_set_param_rate (comp, "load_force", 1500.0);
  return comp;
}

static void
test_cylinder_double_jacobian (void)
{
  HydComp *comp = make_cylinder_double ();
  GRand *rng = g_rand_new_with_seed (4242);
  double stroke = 0.5;
  guint failures = 0;

  g_assert_cmpuint (comp->n_states, ==, 2);
  g_assert_cmpuint (comp->n_vstates, ==, 1);
  g_assert_cmpuint (comp->vstates[0], ==, 0);

  for (guint i = 0; i < N_RANDOM; i++)
    {
      double p[3] = { uniform (rng, -5e4, 3e7), uniform (rng, -5e4, 3e7), 0.0 };
      double x[2] = { uniform (rng, -2e-4, stroke + 2e-4), uniform (rng, -0.5, 0.5) };
      failures += check_at (comp, 1.0, p, x, "random %u", i);
    }

  /* friction: |v| ~ v_ε = 1e-3 and ~ stribeck velocity 0.02 */
  const double vs[] = { 0.0, 1e-5, -1e-5, 3e-4, -3e-4, 1e-3, -1e-3, 2.5e-3, -2.5e-3,
                        0.01, -0.01, 0.02, -0.02, 0.035, -0.035, 0.1 };
  for (guint i = 0; i < G_N_ELEMENTS (vs); i++)
    {
      double p[3] = { 5e6, 2e6, 0.0 };
      double x[2] = { 0.2, vs[i] };
      failures += check_at (comp, 0.5, p, x, "friction v=%g", vs[i]);
    }

  /* end stops: inside the 1e-4 blend and beyond, both ends; the g() overrun
   * region of each chamber (δ_A ≈ 0.0255 m, δ_B ≈ 0.0371 m) */
  const double xs[] = { 1e-4, 1e-7, -1e-7, -5e-7, -1e-6, -3e-6, -2e-5, -5e-5, -9.99e-5, -1e-4, -1.5e-4,
                        -3e-4, -0.005, -0.0127, -0.03,
                        stroke - 1e-4, stroke + 1e-7, stroke + 5e-7, stroke + 3e-6, stroke + 5e-5,
                        stroke + 1.5e-4, stroke + 0.01, stroke + 0.0185, stroke + 0.05 };
  const double vv[] = { 0.0, 0.05, -0.05, 5e-4 };
  for (guint i = 0; i < G_N_ELEMENTS (xs); i++)
    for (guint j = 0; j < G_N_ELEMENTS (vv); j++)
      {
        double p[3] = { 8e6, 1e6, 0.0 };
        double x[2] = { xs[i], vv[j] };
        failures += check_at (comp, 0.3, p, x, "end stop x=%g v=%g", xs[i], vv[j]);
      }

  g_rand_free (rng);
  hyd_comp_free (comp);
  g_assert_cmpuint (failures, ==, 0);
}

static void
test_cylinder_double_values (void)
{
  HydComp *comp = hyd_test_make_comp ("cylinder_double", NULL,
                                      "coulomb_friction", "300",
                                      "static_friction", "500",
                                      "leakage", "2e-12",
                                      NULL);
  double area_a = G_PI * 0.05 * 0.05 / 4.0;
  double area_b = G_PI * (0.05 * 0.05 - 0.028 * 0.028) / 4.0;
  int k_load = hyd_component_type_find_param (comp->type, "load_force");
  int i_force = output_index (comp, "force"), i_power = output_index (comp, "power");
  g_assert_cmpint (i_force, >=, 0);
  g_assert_cmpint (i_power, >=, 0);

  /* static force balance: the load equal to the hydraulic force holds it */
  double p[3] = { 1e7, 2e6, 0.0 };
  double x[2] = { 0.25, 0.0 };
  double force = p[0] * area_a - p[1] * area_b;
  comp->par[k_load] = force;
  Eval e;
  eval_full (comp, 0.0, p, x, &e);
  g_assert_cmpfloat (fabs (e.xdot[1]), <, 1e-9 * force / 100.0);
  g_assert_cmpfloat (e.xdot[0], ==, 0.0);
  g_assert_cmpfloat_with_epsilon (e.out[i_force], force, 1e-9 * force);
  g_assert_cmpfloat (e.out[i_power], ==, 0.0);
  /* through flows are the leakage only */
  g_assert_cmpfloat_with_epsilon (e.q[0], 2e-12 * 8e6, 1e-20);
  g_assert_cmpfloat_with_epsilon (e.q[1], -2e-12 * 8e6, 1e-20);
  /* volumes within the stroke: exactly dead + A·x */
  g_assert_cmpfloat_with_epsilon (e.V[0], 5e-5 + area_a * 0.25, 1e-15);
  g_assert_cmpfloat_with_epsilon (e.V[1], 5e-5 + area_b * 0.25, 1e-15);
  g_assert_cmpfloat_with_epsilon (e.dV[0], area_a, 1e-15);
  g_assert_cmpfloat_with_epsilon (e.dV[1], -area_b, 1e-15);
  g_assert_cmpfloat (e.d2V[0], ==, 0.0);
  g_assert_cmpfloat (e.d2V[1], ==, 0.0);

  /* a load above the hydraulic force retracts; a moving piston feels friction */
  comp->par[k_load] = force + 1000.0;
  eval_full (comp, 0.0, p, x, &e);
  g_assert_cmpfloat_with_epsilon (e.xdot[1], -10.0, 1e-9);
  x[1] = 0.2;   /* far above the Stribeck velocity: viscous + Coulomb */
  comp->par[k_load] = force;
  eval_full (comp, 0.0, p, x, &e);
  double ff = 500.0 * 0.2 + 300.0 + 200.0 * exp (-100.0);
  g_assert_cmpfloat_with_epsilon (e.xdot[1], -ff / 100.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (e.out[i_power], force * 0.2, 1e-6 * force);

  /* overrun: the volumes never fall below half the dead volume */
  x[0] = -0.2;
  eval_full (comp, 0.0, p, x, &e);
  g_assert_cmpfloat_with_epsilon (e.V[0], 2.5e-5, 1e-15);
  g_assert_cmpfloat (e.dV[0], ==, 0.0);
  x[0] = 0.7;
  eval_full (comp, 0.0, p, x, &e);
  g_assert_cmpfloat_with_epsilon (e.V[1], 2.5e-5, 1e-15);
  /* the stop pushes back: at x = −1 mm with v = 0, F_stop = k·(1e-3 − 5e-5) */
  x[0] = -1e-3;
  x[1] = 0.0;
  eval_full (comp, 0.0, p, x, &e);
  g_assert_cmpfloat_with_epsilon (e.xdot[1], 1e9 * (1e-3 - 5e-5) / 100.0, 1e-3);

  /* initial states */
  int k_x0 = hyd_component_type_find_param (comp->type, "initial_position");
  int k_v0 = hyd_component_type_find_param (comp->type, "initial_velocity");
  comp->par[k_x0] = 0.1;
  comp->par[k_v0] = -0.01;
  double p0[2] = { 0, 0 }, x0[2] = { -1, -1 };
  comp->type->init_states (comp, p0, x0);
  g_assert_cmpfloat (x0[0], ==, 0.1);
  g_assert_cmpfloat (x0[1], ==, -0.01);
  hyd_comp_free (comp);
}

static void
test_cylinder_validate (void)
{
  HydFluid fluid;
  hyd_fluid_init_default (&fluid);
  const HydComponentType *type = hyd_catalogue_lookup ("cylinder_double");
  HydComp *comp = hyd_comp_new (type, "C7", &fluid);
  GError *error = NULL;
  g_assert_true (type->validate (comp, &error));

  comp->par[hyd_component_type_find_param (type, "rod_diameter")] = 0.05;
  g_assert_false (type->validate (comp, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE);
  g_assert_nonnull (strstr (error->message, "C7"));
  g_assert_nonnull (strstr (error->message, "rod_diameter"));
  g_clear_error (&error);

  comp->par[hyd_component_type_find_param (type, "rod_diameter")] = 0.0;
  g_assert_true (type->validate (comp, &error));
  comp->par[hyd_component_type_find_param (type, "initial_position")] = 0.6;
  g_assert_false (type->validate (comp, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE);
  g_assert_nonnull (strstr (error->message, "C7"));
  g_assert_nonnull (strstr (error->message, "initial_position"));
  g_clear_error (&error);
  comp->par[hyd_component_type_find_param (type, "initial_position")] = 0.5;
  g_assert_true (type->validate (comp, &error));
  hyd_comp_free (comp);

  type = hyd_catalogue_lookup ("cylinder_single");
  comp = hyd_comp_new (type, "C8", &fluid);
  g_assert_true (type->validate (comp, &error));
  comp->par[hyd_component_type_find_param (type, "initial_position")] = -0.01;
  g_assert_false (type->validate (comp, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE);
  g_assert_nonnull (strstr (error->message, "C8"));
  g_assert_nonnull (strstr (error->message, "initial_position"));
  g_clear_error (&error);
  hyd_comp_free (comp);
}

/* ------------------------------------------------------- cylinder_single */

static void
test_cylinder_single_jacobian (void)
{
  HydComp *comp = hyd_test_make_comp ("cylinder_single", NULL,
                                      "coulomb_friction", "150",
                                      "static_friction", "400",
                                      "stroke", "0.2",
                                      "load_force", "-300",
                                      NULL);
  hyd_test_set_param_rate (comp, "load_force", -700.0);
  GRand *rng = g_rand_new_with_seed (777);
  double stroke = 0.2;
  guint failures = 0;

  g_assert_cmpuint (comp->n_vstates, ==, 1);
  for (guint i = 0; i < N_RANDOM; i++)
    {
      double p[2] = { uniform (rng, -5e4, 2e7), 0.0 };
      double x[2] = { uniform (rng, -2e-4, stroke + 2e-4), uniform (rng, -0.5, 0.5) };
      failures += check_at (comp, 2.0, p, x, "random %u", i);
    }
  const double vs[] = { 0.0, 2e-4, -2e-4, 1e-3, -1e-3, 0.02, -0.02, 0.04 };
  const double xs[] = { 0.1, -1e-6, -5e-5, -1.2e-4, -0.01, -0.03, stroke + 1e-6, stroke + 5e-5,
                        stroke + 2e-4 };
  for (guint i = 0; i < G_N_ELEMENTS (xs); i++)
    for (guint j = 0; j < G_N_ELEMENTS (vs); j++)
      {
        double p[2] = { 3e6, 0.0 };
        double x[2] = { xs[i], vs[j] };
        failures += check_at (comp, 0.0, p, x, "x=%g v=%g", xs[i], vs[j]);
      }

  /* spring balance at rest: p·A = preload + k·x */
  comp->par[hyd_component_type_find_param (comp->type, "load_force")] = 0.0;
  double area = G_PI * 0.05 * 0.05 / 4.0;
  double p[2] = { (200.0 + 2000.0 * 0.1) / area, 0.0 };
  double x[2] = { 0.1, 0.0 };
  Eval e;
  eval_full (comp, 0.0, p, x, &e);
  g_assert_cmpfloat (fabs (e.xdot[1]), <, 1e-9);
  g_assert_cmpfloat (e.q[0], ==, 0.0);
  g_assert_cmpfloat_with_epsilon (e.V[0], 5e-5 + area * 0.1, 1e-15);
  g_assert_cmpfloat_with_epsilon (e.out[output_index (comp, "force")], 400.0, 1e-9);

  g_rand_free (rng);
  hyd_comp_free (comp);
  g_assert_cmpuint (failures, ==, 0);
}

/* ----------------------------------------------------------- motor_fixed */

static void
test_motor_fixed_jacobian (void)
{
  HydComp *comp = hyd_test_make_comp ("motor_fixed", NULL,
                                      "coulomb_friction", "2",
                                      "leakage", "3e-12",
                                      "load_torque", "5",
                                      "initial_speed", "10",
                                      NULL);
  hyd_test_set_param_rate (comp, "load_torque", 40.0);
  GRand *rng = g_rand_new_with_seed (99);
  guint failures = 0;

  for (guint i = 0; i < N_RANDOM; i++)
    {
      double p[2] = { uniform (rng, -5e4, 3e7), uniform (rng, -5e4, 3e7) };
      double x[2] = { uniform (rng, -100, 100), uniform (rng, -300, 300) };
      failures += check_at (comp, 1.0, p, x, "random %u", i);
    }
  const double ws[] = { 0.0, 1e-3, -1e-3, 0.03, -0.03, 0.1, -0.1, 0.25, -0.25, 1.0 };
  for (guint i = 0; i < G_N_ELEMENTS (ws); i++)
    {
      double p[2] = { 1e6, 2e5 };
      double x[2] = { 0.3, ws[i] };
      failures += check_at (comp, 1.0, p, x, "w=%g", ws[i]);
    }

  /* values: q_A = D·w + leak·Δp, torque, power; D is the default, 10 cm³/rev */
  const double disp = 10e-6 / (2.0 * G_PI);
  double p[2] = { 1e7, 1e6 };
  double x[2] = { 0.0, 100.0 };
  Eval e;
  eval_full (comp, 0.0, p, x, &e);
  g_assert_cmpfloat_with_epsilon (e.q[0], disp * 100.0 + 3e-12 * 9e6, 1e-15);
  g_assert_cmpfloat_with_epsilon (e.q[1], -e.q[0], 1e-18);
  double torque = disp * 9e6;
  g_assert_cmpfloat_with_epsilon (e.out[output_index (comp, "torque")], torque, 1e-9);
  g_assert_cmpfloat_with_epsilon (e.out[output_index (comp, "power")], torque * 100.0, 1e-7);
  g_assert_cmpfloat_with_epsilon (e.xdot[1],
                                  (torque - 0.01 * 100.0 - 2.0 * tanh (1000.0) - 5.0) / 0.05, 1e-9);
  double x0[2] = { -1, -1 };
  comp->type->init_states (comp, p, x0);
  g_assert_cmpfloat (x0[0], ==, 0.0);
  g_assert_cmpfloat (x0[1], ==, 10.0);

  g_rand_free (rng);
  hyd_comp_free (comp);
  g_assert_cmpuint (failures, ==, 0);
}

/* ---------------------------------------------------------------- volume */

static void
test_volume (void)
{
  HydComp *comp = hyd_test_make_comp ("volume", NULL, "volume", "2.5e-3", NULL);
  double p[4] = { 3e6, 3e6, 3e6, 3e6 };
  g_assert_cmpuint (hyd_test_check_component (comp, 0.0, p, NULL, "volume"), ==, 0);
  Eval e;
  eval_full (comp, 0.0, p, NULL, &e);
  g_assert_cmpfloat (e.V[0], ==, 2.5e-3);
  g_assert_cmpfloat (e.V[1] + e.V[2] + e.V[3], ==, 0.0);
  g_assert_cmpfloat (e.q[0] + e.q[1] + e.q[2] + e.q[3], ==, 0.0);
  g_assert_cmpfloat (e.C[0], ==, 0.0);

  double pi = -1;
  g_assert_false (comp->type->port_initial_pressure (comp, 0, &pi));
  hyd_comp_free (comp);

  comp = hyd_test_make_comp ("volume", NULL, "initial_pressure", "4e6", NULL);
  g_assert_true (comp->type->port_initial_pressure (comp, 0, &pi));
  g_assert_cmpfloat (pi, ==, 4e6);
  hyd_comp_free (comp);
}

/* ----------------------------------------------------------- accumulator */

/* C is ~1e-13 m³/Pa and ∂C/∂p ~1e-20: the harness's absolute floor cannot
 * see an error there, so ∂C/∂p is also checked here, relatively. */
static guint
check_accumulator_dC (HydComp *comp, double p)
{
  double h = 1e-3 * MAX (1.0, fabs (p) * 1e-6);
  Eval e0, ep, em;
  double pp = p + h, pm = p - h;
  eval_full (comp, 0.0, &p, NULL, &e0);
  eval_full (comp, 0.0, &pp, NULL, &ep);
  eval_full (comp, 0.0, &pm, NULL, &em);
  double fd = (ep.C[0] - em.C[0]) / (2.0 * h);
  double scale = MAX (MAX (fabs (fd), fabs (e0.dC[0])), 1e-9 * e0.C[0] / 5e3);
  if (scale == 0.0)
    return 0;
  double err = fabs (fd - e0.dC[0]) / scale;
  if (err > 1e-4)
    {
      g_test_message ("accumulator dC/dp at p=%g: analytic %.10g, FD %.10g", p, e0.dC[0], fd);
      return 1;
    }
  /* and C itself is ∂V_oil/∂p */
  int io = output_index (comp, "oil_volume");
  double fdv = (ep.out[io] - em.out[io]) / (2.0 * h);
  scale = MAX (MAX (fabs (fdv), fabs (e0.C[0])), 1e-12);
  if (fabs (fdv - e0.C[0]) / scale > 1e-4)
    {
      g_test_message ("accumulator C at p=%g: analytic %.10g, dV_oil/dp %.10g", p, e0.C[0], fdv);
      return 1;
    }
  return 0;
}

static void
test_accumulator (void)
{
  HydComp *comp = hyd_test_make_comp ("accumulator", NULL,
                                      "precharge_pressure", "5e6",
                                      "gas_volume", "2e-3",
                                      "polytropic_exponent", "1.3",
                                      NULL);
  g_assert_true (comp->own_compliance[0]);
  g_assert_cmpuint (comp->n_vstates, ==, 0);
  GRand *rng = g_rand_new_with_seed (31);
  guint failures = 0;
  const double p0 = 5e6, h = 5e3;

  for (guint i = 0; i < N_RANDOM; i++)
    {
      double p[1] = { uniform (rng, -1e5, 4e7) };
      failures += check_at (comp, 0.0, p, NULL, "random %g", p[0]);
      failures += check_accumulator_dC (comp, p[0]);
    }
  const double zs[] = { -2 * h, -1.0001 * h, -0.999 * h, -0.7 * h, -0.3 * h, -1.0, 0.0, 1.0, 0.25 * h,
                        0.6 * h, 0.999 * h, 1.001 * h, 2 * h, 100 * h };
  for (guint i = 0; i < G_N_ELEMENTS (zs); i++)
    {
      double p[1] = { p0 + zs[i] };
      failures += check_at (comp, 0.0, p, NULL, "z=%g", zs[i]);
      failures += check_accumulator_dC (comp, p[0]);
    }
  g_assert_cmpuint (failures, ==, 0);

  /* oil volume above precharge: V0·(1 − (P0/P)^(1/n)); C = V_g/(n·P) */
  int io = output_index (comp, "oil_volume");
  g_assert_cmpint (io, >=, 0);
  double pvals[] = { 5.1e6, 1e7, 2e7, 3.5e7 };
  for (guint i = 0; i < G_N_ELEMENTS (pvals); i++)
    {
      Eval e;
      eval_full (comp, 0.0, &pvals[i], NULL, &e);
      double P0 = p0 + 101325.0, P = pvals[i] + 101325.0;
      double vg = 2e-3 * pow (P0 / P, 1.0 / 1.3);
      g_assert_cmpfloat_with_epsilon (e.out[io], 2e-3 - vg, 1e-12 * 2e-3);
      g_assert_cmpfloat_with_epsilon (e.C[0], vg / (1.3 * P), 1e-12 * vg / P);
      g_assert_cmpfloat (e.V[0], ==, 0.0);
      g_assert_cmpfloat (e.q[0], ==, 0.0);
    }
  /* below the ramp: nothing, no NaN even below vacuum */
  double plow[] = { p0 - h, 0.0, -2e5, -1e9 };
  for (guint i = 0; i < G_N_ELEMENTS (plow); i++)
    {
      Eval e;
      eval_full (comp, 0.0, &plow[i], NULL, &e);
      g_assert_cmpfloat (e.C[0], ==, 0.0);
      g_assert_cmpfloat (e.dC[0], ==, 0.0);
      g_assert_cmpfloat (e.out[io], ==, 0.0);
    }
  /* continuity of the ramp ends */
  {
    Eval a, b;
    double pa = p0 + h - 1e-6, pb = p0 + h + 1e-6;
    eval_full (comp, 0.0, &pa, NULL, &a);
    eval_full (comp, 0.0, &pb, NULL, &b);
    g_assert_cmpfloat (fabs (a.C[0] - b.C[0]), <, 1e-6 * b.C[0]);
    g_assert_cmpfloat (fabs (a.dC[0] - b.dC[0]), <, 1e-4 * fabs (b.dC[0]));
  }

  double pi = 0;
  g_assert_false (comp->type->port_initial_pressure (comp, 0, &pi));
  hyd_comp_free (comp);
  comp = hyd_test_make_comp ("accumulator", NULL, "initial_pressure", "7e6", NULL);
  g_assert_true (comp->type->port_initial_pressure (comp, 0, &pi));
  g_assert_cmpfloat (pi, ==, 7e6);
  hyd_comp_free (comp);
  g_rand_free (rng);
}

/* ------------------------------------------------------------------ line */

static void
line_constants (const HydFluid *f, double L, double D, double xi, double *K_L, double *K_T)
{
  double D4 = D * D * D * D;
  *K_L = 128.0 * f->kinematic_viscosity * f->density * L / (G_PI * D4);
  *K_T = 8.0 * f->density * xi / (G_PI * G_PI * D4);
}

static void
test_line_volume (void)
{
  HydFluid fluid;
  hyd_fluid_init_default (&fluid);
  GRand *rng = g_rand_new_with_seed (5);
  guint failures = 0;
  const char *xis[] = { "0", "0.5", "20" };

  for (guint m = 0; m < G_N_ELEMENTS (xis); m++)
    {
      HydComp *comp = hyd_test_make_comp ("line", NULL, "minor_loss_coefficient", xis[m],
                                          "wall_bulk_modulus", "2e9", NULL);
      g_assert_cmpuint (comp->n_states, ==, 0);
      for (guint i = 0; i < N_RANDOM; i++)
        {
          double p[2] = { uniform (rng, -5e4, 3e7), uniform (rng, -5e4, 3e7) };
          failures += check_at (comp, 0.0, p, NULL, "xi=%s random %u", xis[m], i);
        }
      const double dps[] = { 0.0, 1e-6, -1e-6, 1e-2, -1e-2, 1.0, -1.0, 50.0, -50.0, 1e3, -1e3, 1e5 };
      for (guint i = 0; i < G_N_ELEMENTS (dps); i++)
        {
          double p[2] = { 1e6 + dps[i], 1e6 };
          failures += check_at (comp, 0.0, p, NULL, "xi=%s dp=%g", xis[m], dps[i]);
        }

      /* the flow solves K_L·q + K_T·q·|q| = Δp */
      double K_L, K_T;
      line_constants (&fluid, 2.0, 0.01, g_ascii_strtod (xis[m], NULL), &K_L, &K_T);
      double p[2] = { 2.3e6, 2.0e6 };
      Eval e;
      eval_full (comp, 0.0, p, NULL, &e);
      double q = e.q[0];
      g_assert_cmpfloat_with_epsilon (K_L * q + K_T * q * fabs (q), 3e5, 1e-9 * 3e5);
      g_assert_cmpfloat (e.q[1], ==, -q);
      g_assert_cmpfloat (e.out[output_index (comp, "q_A")], ==, q);
      g_assert_cmpfloat (e.out[output_index (comp, "q_B")], ==, -q);
      double V = G_PI * 0.01 * 0.01 / 4.0 * 2.0;
      g_assert_cmpfloat_with_epsilon (e.V[0], V / 2.0, 1e-18);
      g_assert_cmpfloat_with_epsilon (e.V[1], V / 2.0, 1e-18);
      g_assert_cmpfloat_with_epsilon (e.C[0], V / 2.0 / 2e9, 1e-25);
      g_assert_cmpfloat_with_epsilon (e.C[1], V / 2.0 / 2e9, 1e-25);
      if (m == 0)
        /* steady laminar flow with ξ = 0 is Δp/K_L */
        g_assert_cmpfloat_with_epsilon (q, 3e5 / K_L, 1e-12 * fabs (q));
      hyd_comp_free (comp);
    }

  /* rigid wall: no compliance */
  HydComp *rigid = hyd_test_make_comp ("line", NULL, NULL);
  double p[2] = { 1e6, 0.0 };
  Eval e;
  eval_full (rigid, 0.0, p, NULL, &e);
  g_assert_cmpfloat (e.C[0], ==, 0.0);
  g_assert_cmpfloat (e.C[1], ==, 0.0);
  hyd_comp_free (rigid);

  g_rand_free (rng);
  g_assert_cmpuint (failures, ==, 0);
}

static void
test_line_inertia (void)
{
  HydFluid fluid;
  hyd_fluid_init_default (&fluid);
  HydComp *comp = hyd_test_make_comp ("line", NULL, "model", "inertia",
                                      "minor_loss_coefficient", "3",
                                      "length", "5", "diameter", "0.012", NULL);
  g_assert_cmpuint (comp->n_states, ==, 1);
  g_assert_cmpstr (comp->states[0].name, ==, "q");
  GRand *rng = g_rand_new_with_seed (6);
  guint failures = 0;
  for (guint i = 0; i < N_RANDOM; i++)
    {
      double p[2] = { uniform (rng, -5e4, 3e7), uniform (rng, -5e4, 3e7) };
      double x[1] = { uniform (rng, -3e-3, 3e-3) };
      failures += check_at (comp, 0.0, p, x, "random %u", i);
    }
  /* near q = 0 (the seam of q·|q|); Δp small, so that the row is not a
   * large constant plus a tiny change the finite differences cannot see */
  const double qs[] = { 0.0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6 };
  const double dps[] = { 0.0, 1e-3, -2.0 };
  for (guint i = 0; i < G_N_ELEMENTS (qs); i++)
    for (guint j = 0; j < G_N_ELEMENTS (dps); j++)
      {
        double p[2] = { 2e6 + dps[j], 2e6 };
        double x[1] = { qs[i] };
        failures += check_at (comp, 0.0, p, x, "q=%g dp=%g", qs[i], dps[j]);
      }
  g_assert_cmpuint (failures, ==, 0);

  /* at the steady flow the derivative vanishes */
  double K_L, K_T;
  line_constants (&fluid, 5.0, 0.012, 3.0, &K_L, &K_T);
  double q = 4e-4;
  double p[2] = { 1e6 + K_L * q + K_T * q * q, 1e6 };
  Eval e;
  eval_full (comp, 0.0, p, &q, &e);
  g_assert_cmpfloat (fabs (e.xdot[0]), <, 1e-12);
  g_assert_cmpfloat (e.q[0], ==, q);
  g_assert_cmpfloat (e.q[1], ==, -q);
  double V = G_PI * 0.012 * 0.012 / 4.0 * 5.0;
  g_assert_cmpfloat_with_epsilon (e.V[0], V / 2.0, 1e-18);
  /* from rest, q̇ = A/(ρL)·Δp */
  double q0 = 0.0;
  eval_full (comp, 0.0, p, &q0, &e);
  g_assert_cmpfloat_with_epsilon (e.xdot[0], G_PI * 0.012 * 0.012 / 4.0 / (870.0 * 5.0) * (p[0] - p[1]),
                                  1e-9 * fabs (e.xdot[0]));
  g_rand_free (rng);
  hyd_comp_free (comp);
}

/* The internal points of a distributed line under a floored fluid: the
 * partials at ψ in and around the floor's smoothing band (|ψ − p_v| < ε/2),
 * deep in a void and above the floor, against central differences; and the
 * values against the laws written out (circuit-format.md, "The node state
 * and equation"): above the band p = ψ and no void, C = V/N·(1/B(p) +
 * 1/B_wall); deep below it p = p_v, the void V/N·(p_v − ψ)/B_l and, for
 * "cavitating", C = V/N/B_l (F' = 0: the wall takes nothing). */
static guint
check_distributed_floored (HydComp *comp, const HydFluid *fluid, const char *model,
                           const char *bulk, guint N, GRand *rng)
{
  const double eps = HYD_CAVITATION_SMOOTHING, pv = fluid->vapour_pressure;
  const double Vn = G_PI * 0.01 * 0.01 / 4.0 * 2.0 / N, Bw = 5e8;
  guint failures = 0, in_band = 0, deep = 0;
  double x[64];
  for (guint i = 0; i < N_RANDOM; i++)
    {
      /* the end pressures are what the nodes' F gives: at or above p_v */
      double p[2] = { pv + uniform (rng, 0.0, 2e3), pv + uniform (rng, 0.0, 3e5) };
      /* flows whose losses (K_L/N·q ~ 5.7e4 Pa per 1 L/s… up to 1e5 Pa)
       * are of the order of the pressure steps along the line: a flow of
       * 1e-10 m³/s next to 1e5 Pa steps moves its row by less than the
       * row's rounding over the difference step (the |q| seam near 0 is
       * checked above with small pressure steps) */
      for (guint k = 0; k < N; k++)
        x[k] = (g_rand_boolean (rng) ? 1.0 : -1.0) * uniform (rng, 1e-5, 2e-3);
      for (guint k = 0; k + 1 < N; k++)
        switch ((i + k) % 4)
          {
          case 0: x[N + k] = pv + uniform (rng, -0.6 * eps, 0.6 * eps); in_band++; break;
          case 1: x[N + k] = pv + uniform (rng, -3 * eps, 3 * eps); break;
          case 2: x[N + k] = pv - uniform (rng, 1e3, 1e8); deep++; break;
          default: x[N + k] = uniform (rng, pv, 3e5); break;
          }
      guint f1 = check_at (comp, 0.0, p, x, "%s/%s floored %u", model, bulk, i);
      if (f1) /* the point, to reproduce it */
        for (guint k = 0; k < 2 * N - 1; k++)
          g_test_message ("  x[%u] = %.17g (p = %.17g, %.17g)", k, x[k], p[0], p[1]);
      failures += f1;
    }
  g_assert_cmpuint (in_band, >, N_RANDOM / 8);
  g_assert_cmpuint (deep, >, N_RANDOM / 8);

  /* values: point 1 deep in a void, the others above the floor */
  double p[2] = { 2e5, 1e5 };
  for (guint k = 0; k < N; k++)
    x[k] = 1e-5 * (k + 1);
  x[N] = pv - 3e7;
  for (guint k = 1; k + 1 < N; k++)
    x[N + k] = 1e5 * k;
  Eval e;
  eval_full (comp, 0.0, p, x, &e);
  double net1 = x[0] - x[1];
  double void1 = Vn * 3e7 / B_L_DEFAULT;
  g_assert_cmpfloat (e.out[3], ==, pv);
  g_assert_cmpfloat (fabs (e.out[2] - void1), <=, 1e-12 * void1);
  if (fluid->bulk_model == HYD_BULK_CAVITATING)
    g_assert_cmpfloat (fabs (e.xdot[N] - net1 * B_L_DEFAULT / Vn), <=, 1e-12 * fabs (e.xdot[N]));
  for (guint k = 1; k + 1 < N; k++)
    {
      double pk = 1e5 * k, net = x[k] - x[k + 1];
      double B = hyd_fluid_bulk_modulus (fluid, pk, NULL);
      g_assert_cmpfloat (fabs (e.out[3 + k] - pk), <=, 1e-9 * pk);
      if (fluid->bulk_model == HYD_BULK_CAVITATING)
        g_assert_cmpfloat (fabs (e.xdot[N + k] - net / (Vn * (1.0 / B + 1.0 / Bw))), <=,
                           1e-12 * fabs (e.xdot[N + k]));
    }
  /* the segments see the floor: from point 1 (p_v) to point 2 */
  if (N > 2)
    {
      double iner = G_PI * 0.01 * 0.01 / 4.0 / (870.0 * 2.0) * N;
      double KL, KT;
      line_constants (fluid, 2.0, 0.01, 1.5, &KL, &KT);
      KL /= N;
      KT /= N;
      double q2 = x[1];
      double expect = iner * (pv - e.out[4] - KL * q2 - KT * q2 * fabs (q2));
      g_assert_cmpfloat (fabs (e.xdot[1] - expect), <=, 1e-9 * fabs (expect));
    }
  /* a line started below the vapour pressure starts where the floor
   * starts, as a node does (hyd_fluid_node_state_for_pressure): p = p_v
   * and no void to speak of, w = ε/2 at each point */
  double plow[2] = { -2e5, -2e5 };
  comp->type->init_states (comp, plow, x);
  eval_full (comp, 0.0, plow, x, &e);
  double w0 = (N - 1) * Vn * 0.5 * eps / B_L_DEFAULT;
  g_assert_cmpfloat (fabs (e.out[2] - w0), <=, 1e-9 * w0);
  for (guint k = 1; k < N; k++)
    g_assert_cmpfloat (fabs (e.out[2 + k] - pv), <=, 1e-6);
  return failures;
}

static guint
check_distributed (const HydFluid *fluid, const char *model, const char *bulk, guint N, GRand *rng)
{
  g_autofree char *segs = g_strdup_printf ("%u", N);
  HydComp *comp = hyd_test_make_comp ("line", fluid, "model", model, "segments", segs,
                                      "minor_loss_coefficient", "1.5",
                                      "wall_bulk_modulus", "5e8", NULL);
  guint failures = 0;
  g_assert_cmpuint (comp->n_states, ==, 2 * N - 1);
  g_assert_false (comp->dense_pattern);
  g_assert_cmpuint (comp->nnz, ==, 6 * N - 1);
  double x[64];
  g_assert_cmpuint (2 * N - 1, <=, G_N_ELEMENTS (x));

  for (guint i = 0; i < N_RANDOM; i++)
    {
      /* pressure differences along the line of the order of its losses
       * (K_L/N·q ~ 3e6 Pa): with 1e7 Pa across a segment carrying a tiny
       * flow the finite differences drown in round-off */
      double base = uniform (rng, -9e4, 3e7);
      double p[2] = { base + uniform (rng, -5e5, 5e5), base + uniform (rng, -5e5, 5e5) };
      for (guint k = 0; k < N; k++)
        x[k] = uniform (rng, -2e-3, 2e-3);
      for (guint k = 0; k + 1 < N; k++)
        x[N + k] = base + uniform (rng, -5e5, 5e5);
      for (guint k = 0; k < 2; k++)
        p[k] = MAX (p[k], -1.01e5);
      for (guint k = 0; k + 1 < N; k++)
        x[N + k] = MAX (x[N + k], -1.01e5);
      failures += check_at (comp, 0.0, p, x, "%s/%s random %u", model, bulk, i);
    }
  /* small flows (the |q| seam) and internal pressures near the bulk-model
   * floors (vapour pressure for air, −0.45·b for Tait is far below vacuum) */
  const double ps[] = { -1.0e5, -9.99e4, -9.95e4, -9.9e4, -5e4, 0.0, 1e5, 1e6 };
  for (guint i = 0; i < G_N_ELEMENTS (ps); i++)
    {
      double p[2] = { ps[i] - 10.0, ps[i] + 10.0 * N };
      for (guint k = 0; k < N; k++)
        x[k] = (k % 2 ? -1.0 : 1.0) * 1e-9 * (k + 1);
      for (guint k = 0; k + 1 < N; k++)
        x[N + k] = ps[i] + 10.0 * k;
      failures += check_at (comp, 0.0, p, x, "%s/%s p=%g", model, bulk, ps[i]);
    }

  /* initial pressures linear between the ends; flows 0 */
  double p0[2] = { 1e6, 3e6 };
  comp->type->init_states (comp, p0, x);
  for (guint k = 0; k < N; k++)
    g_assert_cmpfloat (x[k], ==, 0.0);
  for (guint i = 1; i < N; i++)
    g_assert_cmpfloat_with_epsilon (x[N + i - 1], 1e6 + 2e6 * i / (double) N, 1e-6);
  /* end volumes V/(2N) with their wall compliance */
  double V = G_PI * 0.01 * 0.01 / 4.0 * 2.0;
  Eval e;
  eval_full (comp, 0.0, p0, x, &e);
  g_assert_cmpfloat_with_epsilon (e.V[0], V / (2.0 * N), 1e-18);
  g_assert_cmpfloat_with_epsilon (e.V[1], V / (2.0 * N), 1e-18);
  g_assert_cmpfloat_with_epsilon (e.C[0], V / (2.0 * N) / 5e8, 1e-25);
  /* state names: the internal points hold the pressure, or under the
   * floored fluids ψ, their pressures then being outputs p1 … */
  gboolean floored = hyd_fluid_has_floor (fluid);
  g_assert_cmpstr (comp->states[0].name, ==, "q1");
  g_autofree char *last = g_strdup_printf ("q%u", N);
  g_assert_cmpstr (comp->states[N - 1].name, ==, last);
  g_assert_cmpstr (comp->states[N].name, ==, floored ? "psi1" : "p1");
  g_assert_cmpint (comp->states[N].unit, ==, HYD_UNIT_PRESSURE);
  g_assert_cmpint (output_index (comp, "p1"), ==, floored ? 3 : -1);
  g_assert_cmpint (output_index (comp, "void"), ==, floored ? 2 : -1);
  g_assert_cmpuint (comp->n_outputs, ==, floored ? 3 + N - 1 : 2);
  if (floored)
    failures += check_distributed_floored (comp, fluid, model, bulk, N, rng);
  hyd_comp_free (comp);
  return failures;
}

static void
test_line_distributed (void)
{
  GRand *rng = g_rand_new_with_seed (12345);
  guint failures = 0;
  const char *bulks[] = { "constant", "tait", "air", "cavitating" };
  const char *models[] = { "distributed", "tlm" };
  for (guint b = 0; b < G_N_ELEMENTS (bulks); b++)
    for (guint m = 0; m < G_N_ELEMENTS (models); m++)
      {
        HydFluid fluid;
        hyd_fluid_init_default (&fluid);
        g_assert_true (hyd_bulk_model_from_name (bulks[b], &fluid.bulk_model));
        failures += check_distributed (&fluid, models[m], bulks[b], 4, rng);
        failures += check_distributed (&fluid, models[m], bulks[b], 2, rng);
      }
  g_rand_free (rng);
  g_assert_cmpuint (failures, ==, 0);
}

/* The distributed line at steady flow: every segment carries the same q, and
 * the pressures fall linearly with the loss law per segment. */
static void
test_line_distributed_steady (void)
{
  HydFluid fluid;
  hyd_fluid_init_default (&fluid);
  const guint N = 8;
  HydComp *comp = hyd_test_make_comp ("line", NULL, "model", "distributed", "segments", "8", NULL);
  double K_L, K_T;
  line_constants (&fluid, 2.0, 0.01, 0.0, &K_L, &K_T);
  double q = 2e-4, dp = K_L * q;
  double p[2] = { 5e6 + dp, 5e6 };
  double x[15];
  for (guint k = 0; k < N; k++)
    x[k] = q;
  for (guint i = 1; i < N; i++)
    x[N + i - 1] = p[0] - dp * i / N;
  double xdot[15], qq[2], out[3 + 7];
  g_assert_cmpuint (comp->n_outputs, ==, G_N_ELEMENTS (out));
  hyd_test_eval (comp, 0.0, p, x, qq, xdot, out);
  for (guint s = 0; s < 2 * N - 1; s++)
    g_assert_cmpfloat (fabs (xdot[s]), <, s < N ? 1e-9 : 1e-3);
  g_assert_cmpfloat (qq[0], ==, q);
  g_assert_cmpfloat (qq[1], ==, -q);
  g_assert_cmpfloat (out[0], ==, q);
  g_assert_cmpfloat (out[1], ==, -q);
  hyd_comp_free (comp);
}

static void
test_line_distributed_large (void)
{
  HydComp *comp = hyd_test_make_comp ("line", NULL, "model", "distributed", "segments", "100000", NULL);
  g_assert_cmpuint (comp->n_states, ==, 199999);
  g_assert_cmpuint (comp->nnz, ==, 599999);
  g_assert_cmpstr (comp->states[99999].name, ==, "q100000");
  /* the default fluid floors the internal points: ψ states, p outputs */
  g_assert_cmpstr (comp->states[199998].name, ==, "psi99999");
  g_assert_cmpuint (comp->n_outputs, ==, 3 + 99999);
  g_assert_cmpstr (comp->outputs[3 + 99998].name, ==, "p99999");

  double *x = g_new0 (double, comp->n_states);
  double *xdot = g_new0 (double, comp->n_states);
  double *out = g_new0 (double, comp->n_outputs);
  double p0[2] = { 2e6, 1e6 }, q[2];
  comp->type->init_states (comp, p0, x);
  g_assert_cmpfloat_with_epsilon (x[100000 + 49999], 1.5e6, 1e-3);
  hyd_test_eval (comp, 0.0, p0, x, q, xdot, out);
  g_assert_cmpfloat_with_epsilon (out[3 + 49999], 1.5e6, 1e-3);
  g_assert_cmpfloat (out[2], ==, 0.0);
  g_free (out);
  /* from rest with a linear pressure profile every segment accelerates alike */
  g_assert_cmpfloat_with_epsilon (xdot[0], xdot[99999], 1e-6 * fabs (xdot[0]));
  g_assert_cmpfloat (xdot[0], >, 0.0);
  g_free (x);
  g_free (xdot);
  hyd_comp_free (comp);
}

/* ----------------------------------------------------------- measurement */

static void
test_pressure_gauge (void)
{
  HydComp *comp = hyd_test_make_comp ("pressure_gauge", NULL, NULL);
  double p[2] = { 3.3e6, 0.0 };
  g_assert_cmpuint (hyd_test_check_component (comp, 0.0, p, NULL, "gauge"), ==, 0);
  Eval e;
  eval_full (comp, 0.0, p, NULL, &e);
  int ip = output_index (comp, "p");
  g_assert_cmpint (ip, >=, 0);
  g_assert_cmpfloat (e.out[ip], ==, 3.3e6);
  g_assert_cmpfloat (e.q[0], ==, 0.0);
  g_assert_cmpfloat (e.V[0], ==, 0.0);
  g_assert_cmpfloat (e.C[0], ==, 0.0);
  hyd_comp_free (comp);
}

static void
test_flow_meter (void)
{
  HydComp *comp = hyd_test_make_comp ("flow_meter", NULL, NULL);
  double p[2] = { 1e6, 1e6 };
  g_assert_cmpuint (hyd_test_check_component (comp, 0.0, p, NULL, "meter"), ==, 0);
  g_assert_cmpint (output_index (comp, "q"), ==, 0);
  g_assert_cmpuint (comp->n_states, ==, 0);
  Eval e;
  eval_full (comp, 0.0, p, NULL, &e);
  g_assert_cmpfloat (e.q[0], ==, 0.0);
  g_assert_cmpfloat (e.q[1], ==, 0.0);
  g_assert_cmpfloat (e.V[0] + e.V[1], ==, 0.0);
  hyd_comp_free (comp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/components/metadata-b", test_metadata);
  g_test_add_func ("/engine/components/cylinder_double/jacobian", test_cylinder_double_jacobian);
  g_test_add_func ("/engine/components/cylinder_double/values", test_cylinder_double_values);
  g_test_add_func ("/engine/components/cylinder_double/validate", test_cylinder_validate);
  g_test_add_func ("/engine/components/cylinder_single/jacobian", test_cylinder_single_jacobian);
  g_test_add_func ("/engine/components/motor_fixed/jacobian", test_motor_fixed_jacobian);
  g_test_add_func ("/engine/components/volume/values", test_volume);
  g_test_add_func ("/engine/components/accumulator/jacobian", test_accumulator);
  g_test_add_func ("/engine/components/line/volume", test_line_volume);
  g_test_add_func ("/engine/components/line/inertia", test_line_inertia);
  g_test_add_func ("/engine/components/line/distributed", test_line_distributed);
  g_test_add_func ("/engine/components/line/distributed-steady", test_line_distributed_steady);
  g_test_add_func ("/engine/components/line/distributed-large", test_line_distributed_large);
  g_test_add_func ("/engine/components/pressure_gauge/values", test_pressure_gauge);
  g_test_add_func ("/engine/components/flow_meter/values", test_flow_meter);

  return g_test_run ();
}
