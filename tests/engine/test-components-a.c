/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-components-a.c — the orifice law, sources, pumps, valves and
 * directional valves (spec/components.md): analytic partial derivatives
 * against finite differences at random operating points and inside every
 * smoothing region, plus steady values the spec states. */
#include "fd-harness.h"
#include "hyd-smooth.h"
#include "hyd-fluid.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#define N_RANDOM 200

static HydFluid fluid;

static HydOrificeCoeffs
default_coeffs (void)
{
  hyd_fluid_init_default (&fluid);
  return hyd_fluid_orifice_coeffs (&fluid, 0.0);
}

static double
par_value (const HydComp *comp, const char *name)
{
  int k = hyd_component_type_find_param (comp->type, name);
  g_assert_cmpint (k, >=, 0);
  return comp->par[k];
}

static void
set_par (HydComp *comp, const char *name, double value)
{
  int k = hyd_component_type_find_param (comp->type, name);
  g_assert_cmpint (k, >=, 0);
  comp->par[k] = value;
}

static int
output_index (const HydComp *comp, const char *name)
{
  for (guint i = 0; i < comp->n_outputs; i++)
    if (strcmp (comp->outputs[i].name, name) == 0)
      return (int) i;
  return -1;
}

/* One finite-difference check at a named point. */
static guint G_GNUC_PRINTF (5, 6)
check_at (HydComp *comp, double t, const double *p, const double *x, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *where = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  return hyd_test_check_component (comp, t, p, x, where);
}

static double
rand_pressure (GRand *r)
{
  return g_rand_double_range (r, -1e5, 2.5e7);
}

/* A pressure difference spread over many decades, either sign. */
static double
rand_dp (GRand *r)
{
  double mag = pow (10.0, g_rand_double_range (r, -1.0, 7.5));
  return g_rand_boolean (r) ? mag : -mag;
}

/* ===========================================================================
 * the orifice law itself
 * ========================================================================= */

static void
test_orifice_continuity (void)
{
  HydOrificeCoeffs c = default_coeffs ();
  const double diameters[] = { 1e-5, 1e-4, 1e-3, 2e-3, 4e-3, 1e-2, 5e-2 };

  for (guint i = 0; i < G_N_ELEMENTS (diameters); i++)
    {
      double area = G_PI * diameters[i] * diameters[i] / 4.0;
      double dp_tr = hyd_orifice_transition_dp (&c, area);
      g_assert_cmpfloat (dp_tr, >, 0.0);
      for (int sgn = -1; sgn <= 1; sgn += 2)
        {
          double below = sgn * dp_tr * (1.0 - 1e-12);
          double at = sgn * dp_tr;
          double dlam, dturb, dalam, daturb;
          double qlam = hyd_orifice_flow (&c, below, area, &dlam, &dalam);
          double qturb = hyd_orifice_flow (&c, at, area, &dturb, &daturb);
          g_assert_true (hyd_orifice_is_laminar (&c, below, area));
          g_assert_false (hyd_orifice_is_laminar (&c, at, area));
          /* equal value and slope where the branches meet */
          g_assert_cmpfloat_with_epsilon (qlam / qturb, 1.0, 1e-9);
          g_assert_cmpfloat_with_epsilon (dlam / dturb, 1.0, 1e-9);
          g_assert_cmpfloat_with_epsilon (dalam / daturb, 1.0, 1e-9);
          /* turbulent value: C_d·A·√(2|Δp|/ρ) */
          g_assert_cmpfloat_with_epsilon (qturb / (sgn * c.cd * area * sqrt (2.0 * dp_tr / c.rho)),
                                          1.0, 1e-12);
          /* the laminar branch ends at Re = 1.5·Re_tr */
          double d = sqrt (4.0 * area / G_PI);
          double re = fabs (qturb) / area * d / c.nu;
          g_assert_cmpfloat_with_epsilon (re / (1.5 * c.re_tr), 1.0, 1e-9);
        }
    }
}

static void
test_orifice_oddness (void)
{
  HydOrificeCoeffs c = default_coeffs ();
  GRand *r = g_rand_new_with_seed (11);

  for (guint i = 0; i < N_RANDOM; i++)
    {
      double dp = fabs (rand_dp (r));
      double area = pow (10.0, g_rand_double_range (r, -10.0, -3.0));
      double d1, d2, a1, a2;
      double q1 = hyd_orifice_flow (&c, dp, area, &d1, &a1);
      double q2 = hyd_orifice_flow (&c, -dp, area, &d2, &a2);
      g_assert_cmpfloat (q1, ==, -q2);   /* odd */
      g_assert_cmpfloat (d1, ==, d2);    /* ∂q/∂Δp even */
      g_assert_cmpfloat (a1, ==, -a2);   /* ∂q/∂A odd */
      g_assert_cmpfloat (q1, >, 0.0);
      g_assert_cmpfloat (d1, >, 0.0);
      g_assert_true (isfinite (d1));
    }
  /* finite, non-zero slope at Δp = 0: 9AνRe_tr/(4dΔp_tr) */
  double area = 1e-6, d0;
  double q0 = hyd_orifice_flow (&c, 0.0, area, &d0, NULL);
  double d = sqrt (4.0 * area / G_PI);
  g_assert_cmpfloat (q0, ==, 0.0);
  g_assert_cmpfloat_with_epsilon (d0 / (9.0 * area * c.nu * c.re_tr
                                        / (4.0 * d * hyd_orifice_transition_dp (&c, area))),
                                  1.0, 1e-12);
  g_rand_free (r);
}

/* ∂q/∂Δp and ∂q/∂A against central differences in both regimes. */
static void
test_orifice_derivatives (void)
{
  HydOrificeCoeffs c = default_coeffs ();
  GRand *r = g_rand_new_with_seed (12);
  guint n_laminar = 0;

  for (guint i = 0; i < 4 * N_RANDOM; i++)
    {
      double area = pow (10.0, g_rand_double_range (r, -9.0, -3.0));
      double dp_tr = hyd_orifice_transition_dp (&c, area);
      /* half the points inside the laminar branch */
      double dp = (i % 2) ? g_rand_double_range (r, -0.98, 0.98) * dp_tr : rand_dp (r);
      if (fabs (fabs (dp) - dp_tr) < 1e-3 * dp_tr)
        continue;
      double dqdp, dqda;
      double q = hyd_orifice_flow (&c, dp, area, &dqdp, &dqda);
      double h = 1e-6 * MAX (fabs (dp), 1e-3 * dp_tr);
      double fd_dp = (hyd_orifice_flow (&c, dp + h, area, NULL, NULL)
                      - hyd_orifice_flow (&c, dp - h, area, NULL, NULL)) / (2.0 * h);
      double ha = 1e-7 * area;
      double fd_da = (hyd_orifice_flow (&c, dp, area + ha, NULL, NULL)
                      - hyd_orifice_flow (&c, dp, area - ha, NULL, NULL)) / (2.0 * ha);
      g_assert_cmpfloat (fabs (dqdp - fd_dp), <=, 1e-6 * fabs (fd_dp));
      g_assert_cmpfloat (fabs (dqda - fd_da), <=, 1e-6 * fabs (fd_da) + 1e-300);
      if (hyd_orifice_is_laminar (&c, dp, area))
        {
          /* laminar: ∂q/∂A = (q/A)·(½ + (3 − 2x)/(3 − x)), not q/A */
          double x = fabs (dp) / dp_tr;
          double formula = (q / area) * (0.5 + (3.0 - 2.0 * x) / (3.0 - x));
          if (dp != 0.0)
            g_assert_cmpfloat_with_epsilon (dqda / formula, 1.0, 1e-12);
          n_laminar++;
        }
      else
        g_assert_cmpfloat_with_epsilon (dqda / (q / area), 1.0, 1e-12);
    }
  g_assert_cmpuint (n_laminar, >, N_RANDOM);
  g_rand_free (r);
}

/* A closed path is exactly zero; as A → 0 the flow and both slopes vanish
 * continuously (q ∝ A^{3/2}·Δp, ∂q/∂A ∝ √A in the laminar branch). */
static void
test_orifice_closed (void)
{
  HydOrificeCoeffs c = default_coeffs ();
  const double zero_areas[] = { 0.0, -1e-6, 1e-30, HYD_ORIFICE_MIN_AREA };

  for (guint i = 0; i < G_N_ELEMENTS (zero_areas); i++)
    {
      double dqdp = 1.0, dqda = 1.0;
      double q = hyd_orifice_flow (&c, 1e7, zero_areas[i], &dqdp, &dqda);
      g_assert_cmpfloat (q, ==, 0.0);
      g_assert_cmpfloat (dqdp, ==, 0.0);
      g_assert_cmpfloat (dqda, ==, 0.0);
    }
  g_assert_cmpfloat (hyd_orifice_transition_dp (&c, 0.0), ==, 0.0);

  double prev_q = INFINITY, prev_dp = INFINITY, prev_da = INFINITY;
  for (double area = 1e-8; area > 1e-19; area /= 10.0)
    {
      double dqdp, dqda;
      double q = hyd_orifice_flow (&c, 1e6, area, &dqdp, &dqda);
      g_assert_true (isfinite (q) && isfinite (dqdp) && isfinite (dqda));
      g_assert_true (hyd_orifice_is_laminar (&c, 1e6, area) || area > 1e-10);
      g_assert_cmpfloat (q, <, prev_q);
      g_assert_cmpfloat (dqdp, <, prev_dp);
      g_assert_cmpfloat (dqda, <, prev_da);
      if (area < 1e-12 && area * 1e-3 > 10.0 * HYD_ORIFICE_MIN_AREA)
        {
          /* q/A^{3/2} is constant in the laminar limit: 1000× smaller A
           * gives ≈ 31623× smaller q */
          double q3 = hyd_orifice_flow (&c, 1e6, area * 1e-3, NULL, NULL);
          g_assert_cmpfloat_with_epsilon (q / q3 / pow (1e3, 1.5), 1.0, 1e-2);
        }
      prev_q = q;
      prev_dp = dqdp;
      prev_da = dqda;
    }
  g_assert_cmpfloat (prev_q, <, 1e-20);
  g_assert_cmpfloat (prev_da, <, 1e-3);
}

static void
test_orifice_nominal_area (void)
{
  HydOrificeCoeffs c = default_coeffs ();
  double a = hyd_orifice_nominal_area (&c, 1.667e-3, 1.1e7);
  double q = hyd_orifice_flow (&c, 1.1e7, a, NULL, NULL);
  g_assert_cmpfloat_with_epsilon (q / 1.667e-3, 1.0, 1e-12);
}

/* ===========================================================================
 * metadata
 * ========================================================================= */

static const char *const my_types[] = {
  "tank", "pressure_source", "flow_source", "fixed_pump", "variable_pump",
  "orifice", "throttle_valve", "check_valve", "relief_valve", "pilot_check_valve",
  "sequence_valve", "one_way_flow_control_valve", "shuttle_valve",
  "counterbalance_valve", "filter",
  "pressure_reducing_valve", "flow_control_valve",
  "dcv_4_3", "dcv_4_2", "dcv_3_2", "dcv_2_2",
};

static void
test_metadata (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (my_types); i++)
    {
      const HydComponentType *type = hyd_catalogue_lookup (my_types[i]);
      g_assert_nonnull (type);
      g_assert_cmpstr (type->id, ==, my_types[i]);
      g_assert_nonnull (type->label);
      g_assert_nonnull (type->iso_symbol);
      g_assert_nonnull (type->description);
      g_assert_nonnull (type->setup);
      g_assert_nonnull (type->eval);
      g_assert_cmpuint (type->n_ports, >, 0);
      for (guint k = 0; k < type->n_ports; k++)
        {
          g_assert_nonnull (type->ports[k].name);
          /* hydraulic, but for the pumps' and the motor's optional shaft,
           * the variable pump's optional command U and the directional
           * valves' hidden solenoid inputs Ya, Yb */
          if (type->ports[k].domain == HYD_DOMAIN_SIGNAL && type->ports[k].hidden)
            {
              g_assert_true (strcmp (type->ports[k].name, "Ya") == 0 || strcmp (type->ports[k].name, "Yb") == 0);
              g_assert_true (type->ports[k].optional);
              g_assert_cmpint (type->ports[k].direction, ==, HYD_PORT_INPUT);
              g_assert_cmpstr (type->ports[k].overrides, ==, "command");
            }
          else if (type->ports[k].domain == HYD_DOMAIN_SIGNAL)
            {
              g_assert_cmpstr (type->ports[k].name, ==, "U");
              g_assert_true (type->ports[k].optional);
              g_assert_cmpint (type->ports[k].direction, ==, HYD_PORT_INPUT);
            }
          else if (type->ports[k].domain != HYD_DOMAIN_HYDRAULIC)
            {
              g_assert_cmpint (type->ports[k].domain, ==, HYD_DOMAIN_ROTATIONAL);
              g_assert_cmpstr (type->ports[k].name, ==, "shaft");
              g_assert_true (type->ports[k].optional);
            }
          g_assert_nonnull (type->ports[k].description);
        }
      for (guint k = 0; k < type->n_params; k++)
        {
          const HydParamInfo *pi = &type->params[k];
          g_assert_nonnull (pi->name);
          g_assert_nonnull (pi->label);
          g_assert_nonnull (pi->description);
          g_assert_cmpfloat (pi->min, <=, pi->def);
          g_assert_cmpfloat (pi->def, <=, pi->max);
          if (pi->flags & HYD_PARAM_MIN_EXCLUSIVE)
            g_assert_cmpfloat (pi->def, >, pi->min);
          if (pi->flags & HYD_PARAM_MAX_EXCLUSIVE)
            g_assert_cmpfloat (pi->def, <, pi->max);
          if (pi->flags & HYD_PARAM_ENUM)
            g_assert_nonnull (pi->choices);
          if (strcmp (pi->name, "discharge_coefficient") == 0)
            g_assert_true (pi->flags & HYD_PARAM_FLUID_CD);
        }
      gboolean boundary = strcmp (type->id, "tank") == 0
                          || strcmp (type->id, "pressure_source") == 0;
      if (boundary)
        {
          g_assert_cmpint (type->boundary_param, ==,
                           hyd_component_type_find_param (type, "pressure"));
          g_assert_cmpint (type->boundary_param, >=, 0);
        }
      else
        g_assert_cmpint (type->boundary_param, ==, -1);

      HydComp *comp = hyd_test_make_comp (my_types[i], NULL, NULL);
      /* dense: every row (ports, states) by every local column (a shaft
       * port adds position columns) */
      g_assert_cmpuint (comp->nnz, ==, (type->n_ports + comp->n_states) * hyd_comp_n_local (comp));
      hyd_comp_free (comp);
    }

  /* profile parameters as the spec marks them */
  const struct { const char *type, *param; } profiles[] = {
    { "pressure_source", "pressure" }, { "flow_source", "flow" },
    { "fixed_pump", "speed" }, { "variable_pump", "speed" },
    { "variable_pump", "fraction" }, { "throttle_valve", "opening" },
    { "flow_control_valve", "set_flow" }, { "one_way_flow_control_valve", "opening" },
    { "filter", "clogging" }, { "dcv_4_3", "command" },
    { "dcv_4_2", "command" }, { "dcv_3_2", "command" }, { "dcv_2_2", "command" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      const HydComponentType *type = hyd_catalogue_lookup (profiles[i].type);
      int k = hyd_component_type_find_param (type, profiles[i].param);
      g_assert_cmpint (k, >=, 0);
      g_assert_true (type->params[k].flags & HYD_PARAM_PROFILE);
    }
  const HydComponentType *dcv = hyd_catalogue_lookup ("dcv_4_3");
  int k = hyd_component_type_find_param (dcv, "leakage_fraction");
  g_assert_true (dcv->params[k].flags & HYD_PARAM_MAX_EXCLUSIVE);
  g_assert_cmpfloat (dcv->params[hyd_component_type_find_param (dcv, "command")].min, ==, -1.0);
  dcv = hyd_catalogue_lookup ("dcv_3_2");
  g_assert_cmpfloat (dcv->params[hyd_component_type_find_param (dcv, "command")].min, ==, 0.0);
  g_assert_cmpint (hyd_component_type_find_port (dcv, "T"), ==, 2);
}

/* ===========================================================================
 * sources and pumps
 * ========================================================================= */

static void
test_boundaries (void)
{
  HydComp *tank = hyd_test_make_comp ("tank", NULL, NULL);
  HydComp *ps = hyd_test_make_comp ("pressure_source", NULL, NULL);
  double p[1] = { 3e5 }, q[1] = { 1.0 };
  guint failures = 0;

  g_assert_cmpuint (tank->n_states, ==, 0);
  g_assert_cmpuint (ps->n_states, ==, 0);
  g_assert_cmpint (output_index (ps, "flow"), ==, 0);
  hyd_test_eval (tank, 0.0, p, NULL, q, NULL, NULL);
  g_assert_cmpfloat (q[0], ==, 0.0);
  hyd_test_set_param_rate (ps, "pressure", 1e6);
  failures += check_at (tank, 0.0, p, NULL, "tank");
  failures += check_at (ps, 0.0, p, NULL, "pressure_source");
  g_assert_cmpuint (failures, ==, 0);
  hyd_comp_free (tank);
  hyd_comp_free (ps);
}

static void
test_flow_source (void)
{
  HydComp *comp = hyd_test_make_comp ("flow_source", NULL, "flow", "2.5e-4", NULL);
  double p[1] = { 1e6 }, q[1], out[1];
  guint failures = 0;

  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  g_assert_cmpfloat (q[0], ==, -2.5e-4);
  g_assert_cmpfloat (out[0], ==, 2.5e-4);
  hyd_test_set_param_rate (comp, "flow", -3e-3);
  GRand *r = g_rand_new_with_seed (21);
  for (guint i = 0; i < 20; i++)
    {
      p[0] = rand_pressure (r);
      failures += check_at (comp, 0.3, p, NULL, "p=%g", p[0]);
    }
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
  hyd_comp_free (comp);
}

static void
test_pump_values (void)
{
  HydComp *comp = hyd_test_make_comp ("variable_pump", NULL,
                                      "displacement", "2e-6", "speed", "100",
                                      "fraction", "0.5", "leakage", "1e-12",
                                      "hydromechanical_efficiency", "0.8", NULL);
  /* ports S, P, the unwired shaft and command U */
  double p[4] = { 1e5, 1.01e7, 0.0, 0.0 }, q[4], out[3];

  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  double qd = 0.5 * 2e-6 * 100 - 1e-12 * 1e7;
  g_assert_cmpfloat_with_epsilon (q[1], -qd, 1e-18);
  g_assert_cmpfloat_with_epsilon (q[0], qd, 1e-18);
  g_assert_cmpfloat_with_epsilon (out[output_index (comp, "flow")], qd, 1e-18);
  double torque = 0.5 * 2e-6 * 1e7 / 0.8;
  g_assert_cmpfloat_with_epsilon (out[output_index (comp, "torque")], torque, 1e-12);
  g_assert_cmpfloat_with_epsilon (out[output_index (comp, "power")], torque * 100, 1e-9);
  hyd_comp_free (comp);
}

static void
test_pump_jacobian (gconstpointer data)
{
  const char *type_id = data;
  gboolean variable = strcmp (type_id, "variable_pump") == 0;
  HydComp *comp = hyd_test_make_comp (type_id, NULL, "leakage", "3e-12",
                                      "hydromechanical_efficiency", "0.9", NULL);
  GRand *r = g_rand_new_with_seed (22);
  guint failures = 0;

  hyd_test_set_param_rate (comp, "speed", 50.0);
  if (variable)
    hyd_test_set_param_rate (comp, "fraction", -2.0);
  for (guint i = 0; i < N_RANDOM; i++)
    {
      double p[4] = { rand_pressure (r), rand_pressure (r), 0.0, 0.0 };
      set_par (comp, "speed", g_rand_double_range (r, -300, 300));
      if (variable)
        set_par (comp, "fraction", g_rand_double_range (r, -1, 1));
      failures += check_at (comp, 1.0, p, NULL, "p=(%g,%g)", p[0], p[1]);
    }
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
  hyd_comp_free (comp);
}

/* ===========================================================================
 * valves
 * ========================================================================= */

static void
test_orifice_values (void)
{
  HydComp *comp = hyd_test_make_comp ("orifice", NULL, "diameter", "2e-3",
                                      "discharge_coefficient", "0.62", NULL);
  HydOrificeCoeffs c = default_coeffs ();
  double area = G_PI * 4e-6 / 4.0;
  double p[2] = { 1.1e6, 1e5 }, q[2], out[2];

  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  double expect = 0.62 * area * sqrt (2.0 * 1e6 / c.rho);
  g_assert_cmpfloat_with_epsilon (q[0] / expect, 1.0, 1e-12);
  g_assert_cmpfloat (q[1], ==, -q[0]);
  g_assert_cmpfloat (out[0], ==, q[0]);
  /* reversed drop: odd */
  double pr[2] = { 1e5, 1.1e6 }, qr[2];
  hyd_test_eval (comp, 0.0, pr, NULL, qr, NULL, NULL);
  g_assert_cmpfloat (qr[0], ==, -q[0]);
  /* the fluid's C_d when none is given */
  set_par (comp, "discharge_coefficient", NAN);
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, NULL);
  g_assert_cmpfloat_with_epsilon (q[0] / (expect * 0.7 / 0.62), 1.0, 1e-12);
  hyd_comp_free (comp);
}

static void
test_orifice_jacobian (void)
{
  HydComp *comp = hyd_test_make_comp ("orifice", NULL, NULL);
  HydOrificeCoeffs c = default_coeffs ();
  double area = G_PI * 4e-6 / 4.0;
  double dp_tr = hyd_orifice_transition_dp (&c, area);
  GRand *r = g_rand_new_with_seed (31);
  guint failures = 0;

  for (guint i = 0; i < N_RANDOM; i++)
    {
      double pb = rand_pressure (r);
      double dp = (i % 3 == 0) ? g_rand_double_range (r, -0.99, 0.99) * dp_tr : rand_dp (r);
      double p[2] = { pb + dp, pb };
      failures += check_at (comp, 0.0, p, NULL, "dp=%g", dp);
    }
  /* Δp = 0 and the laminar branch right at the origin */
  const double tiny[] = { 0.0, 1e-3, -1e-3, 1.0, -1.0, 0.5 * dp_tr, -0.5 * dp_tr };
  for (guint i = 0; i < G_N_ELEMENTS (tiny); i++)
    {
      double p[2] = { 2e5 + tiny[i], 2e5 };
      failures += check_at (comp, 0.0, p, NULL, "dp=%g", tiny[i]);
    }
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
  hyd_comp_free (comp);
}

static void
test_throttle_jacobian (void)
{
  HydComp *comp = hyd_test_make_comp ("throttle_valve", NULL, NULL);
  GRand *r = g_rand_new_with_seed (32);
  guint failures = 0;

  hyd_test_set_param_rate (comp, "opening", 0.7);
  for (guint i = 0; i < N_RANDOM; i++)
    {
      /* openings down to 1e-6 (deep in the laminar branch) */
      double opening = (i % 2) ? g_rand_double (r) : pow (10.0, g_rand_double_range (r, -6, 0));
      set_par (comp, "opening", opening);
      double pb = rand_pressure (r);
      double dp = (i % 4 == 0) ? g_rand_double_range (r, -300, 300) : rand_dp (r);
      double p[2] = { pb + dp, pb };
      failures += check_at (comp, 2.0, p, NULL, "opening=%g dp=%g", opening, dp);
    }
  /* fully closed: no flow, no slope */
  set_par (comp, "opening", 0.0);
  hyd_test_set_param_rate (comp, "opening", 0.0);
  double p[2] = { 1e7, 0.0 }, q[2];
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, NULL);
  g_assert_cmpfloat (q[0], ==, 0.0);
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
  hyd_comp_free (comp);
}

static void
test_check_valve_values (void)
{
  HydComp *comp = hyd_test_make_comp ("check_valve", NULL, NULL);
  double q[2], out[2];
  int io = output_index (comp, "opening");

  /* below cracking and reversed: exactly closed (open01) */
  const double dps[] = { -1e7, -1.0, 0.0, 1e3, 4.9999e4, 5e4 };
  for (guint i = 0; i < G_N_ELEMENTS (dps); i++)
    {
      double p[2] = { 1e6 + dps[i], 1e6 };
      hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
      g_assert_cmpfloat (q[0], ==, 0.0);
      g_assert_cmpfloat (q[1], ==, 0.0);
      g_assert_cmpfloat (out[io], ==, 0.0);
    }
  /* fully open from cracking + range on: the full bore */
  double p[2] = { 5e5, 1e5 };
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  g_assert_cmpfloat (out[io], ==, 1.0);
  HydOrificeCoeffs c = default_coeffs ();
  double full = hyd_orifice_flow (&c, 4e5, G_PI * 1e-4 / 4.0, NULL, NULL);
  g_assert_cmpfloat_with_epsilon (q[0] / full, 1.0, 1e-12);
  /* half way: open01(½) = ½ */
  double ph[2] = { 1.5e5 + 1e5, 1e5 };
  hyd_test_eval (comp, 0.0, ph, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (out[io], 0.5, 1e-12);
  hyd_comp_free (comp);

  /* a leakage bore leaks backwards */
  comp = hyd_test_make_comp ("check_valve", NULL, "leakage_diameter", "1e-4", NULL);
  double pr[2] = { 0.0, 1e6 };
  hyd_test_eval (comp, 0.0, pr, NULL, q, NULL, NULL);
  g_assert_cmpfloat (q[0], <, 0.0);
  hyd_comp_free (comp);
}

static void
test_check_valve_jacobian (void)
{
  const char *leaks[] = { "0", "2e-4" };
  GRand *r = g_rand_new_with_seed (33);
  guint failures = 0;

  for (guint l = 0; l < G_N_ELEMENTS (leaks); l++)
    {
      HydComp *comp = hyd_test_make_comp ("check_valve", NULL, "leakage_diameter", leaks[l], NULL);
      double pc = par_value (comp, "cracking_pressure");
      double range = par_value (comp, "opening_range");
      for (guint i = 0; i < N_RANDOM; i++)
        {
          double pb = rand_pressure (r);
          double dp;
          switch (i % 4)
            {
            case 0:  /* anywhere */
              dp = rand_dp (r);
              break;
            case 1:  /* the opening range */
              dp = pc + g_rand_double (r) * range;
              break;
            case 2:  /* open01 blend near cracking (z in (0, 0.0099)) */
              dp = pc + g_rand_double_range (r, 1e-4, 0.0098) * range;
              break;
            default: /* open01 blend near full opening */
              dp = pc + g_rand_double_range (r, 0.9902, 0.9999) * range;
              break;
            }
          double p[2] = { pb + dp, pb };
          failures += check_at (comp, 0.0, p, NULL, "leak=%s dp=%g", leaks[l], dp);
        }
      /* the leakage bore's laminar branch around Δp = 0 */
      for (double dp = -50.0; dp <= 50.0; dp += 12.5)
        {
          double p[2] = { 1e5 + dp, 1e5 };
          failures += check_at (comp, 0.0, p, NULL, "leak=%s dp=%g", leaks[l], dp);
        }
      hyd_comp_free (comp);
    }
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
}

/* pilot-operated check valve -------------------------------------------------- */

static void
test_pilot_check_values (void)
{
  HydComp *comp = hyd_test_make_comp ("pilot_check_valve", NULL, NULL);
  HydOrificeCoeffs c = default_coeffs ();
  double q[3], out[2];
  int io = output_index (comp, "opening");
  double a_full = G_PI * 1e-4 / 4.0; /* default bore 10 mm */
  double pc = par_value (comp, "cracking_pressure");
  double range = par_value (comp, "opening_range");
  double phi = par_value (comp, "pilot_ratio");

  /* free flow A→B, fully open 3 bar above cracking: C_d·A·√(2Δp/ρ) by hand */
  double pf[3] = { 4e5, 0.0, 0.0 };
  hyd_test_eval (comp, 0.0, pf, NULL, q, NULL, out);
  g_assert_cmpfloat (out[io], ==, 1.0);
  g_assert_cmpfloat_with_epsilon (q[0] / (c.cd * a_full * sqrt (2.0 * 4e5 / c.rho)), 1.0, 1e-12);
  g_assert_cmpfloat (q[1], ==, -q[0]);
  g_assert_cmpfloat (q[2], ==, 0.0);
  /* free flow starts at the cracking pressure */
  double pcr[3] = { pc, 0.0, 0.0 };
  hyd_test_eval (comp, 0.0, pcr, NULL, q, NULL, out);
  g_assert_cmpfloat (q[0], ==, 0.0);
  pcr[0] = pc + 1e3;
  hyd_test_eval (comp, 0.0, pcr, NULL, q, NULL, out);
  g_assert_cmpfloat (q[0], >, 0.0);

  /* holding a load of 100 bar at B with A at tank: tight without a pilot,
   * and a pilot below the A pressure does not help */
  const double px_low[] = { 0.0, 2e6 };
  for (guint i = 0; i < G_N_ELEMENTS (px_low); i++)
    {
      double ph[3] = { 0.0, 1e7, px_low[i] };
      hyd_test_eval (comp, 0.0, ph, NULL, q, NULL, out);
      g_assert_cmpfloat (q[0], ==, 0.0);
      g_assert_cmpfloat (out[io], ==, 0.0);
    }
  double pa_high[3] = { 5e6, 1e7, 0.0 };
  hyd_test_eval (comp, 0.0, pa_high, NULL, q, NULL, out);
  g_assert_cmpfloat (q[0], ==, 0.0);

  /* the pilot opens it at p_X = (p_B + cracking)/ratio = 33.67 bar ... */
  double px_open = (1e7 + pc) / phi;
  g_assert_cmpfloat_with_epsilon (px_open, 3.3666667e6, 1.0);
  double pj[3] = { 0.0, 1e7, px_open * (1.0 - 1e-9) };
  hyd_test_eval (comp, 0.0, pj, NULL, q, NULL, out);
  g_assert_cmpfloat (q[0], ==, 0.0);
  /* ... half open range/(2·ratio) above it, fully open range/ratio above it,
   * then passing the load's flow back B→A through the full bore */
  pj[2] = px_open + 0.5 * range / phi;
  hyd_test_eval (comp, 0.0, pj, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (out[io], 0.5, 1e-9);
  pj[2] = px_open + range / phi;
  hyd_test_eval (comp, 0.0, pj, NULL, q, NULL, out);
  g_assert_cmpfloat (out[io], ==, 1.0);
  g_assert_cmpfloat_with_epsilon (q[0] / (-c.cd * a_full * sqrt (2.0 * 1e7 / c.rho)), 1.0, 1e-12);
  g_assert_cmpfloat (q[2], ==, 0.0);
  hyd_comp_free (comp);

  /* a leakage bore leaks backwards even without a pilot */
  comp = hyd_test_make_comp ("pilot_check_valve", NULL, "leakage_diameter", "1e-4", NULL);
  double pl[3] = { 0.0, 1e7, 0.0 };
  hyd_test_eval (comp, 0.0, pl, NULL, q, NULL, NULL);
  g_assert_cmpfloat (q[0], <, 0.0);
  hyd_comp_free (comp);
}

static void
test_pilot_check_jacobian (void)
{
  const char *leaks[] = { "0", "2e-4" };
  GRand *r = g_rand_new_with_seed (41);
  guint failures = 0;

  for (guint l = 0; l < G_N_ELEMENTS (leaks); l++)
    {
      HydComp *comp = hyd_test_make_comp ("pilot_check_valve", NULL, "leakage_diameter", leaks[l], NULL);
      double pc = par_value (comp, "cracking_pressure");
      double range = par_value (comp, "opening_range");
      double phi = par_value (comp, "pilot_ratio");
      for (guint i = 0; i < N_RANDOM; i++)
        {
          double pa = rand_pressure (r);
          double pb = pa - rand_dp (r);
          double px = rand_pressure (r);
          double zt;
          switch (i % 5)
            {
            case 0:  /* anywhere */
              break;
            case 1:  /* free flow through the opening range, no pilot */
              pb = pa - pc - g_rand_double (r) * range;
              px = pa - g_rand_double (r) * 1e6;
              break;
            case 2:  /* the pilot piston's soft_ramp blend (|p_X − p_A| < 0.005·range) */
              px = pa + (g_rand_double_range (r, 1e-4, 0.9999) - 0.5) * HYD_SMOOTH_EPS * range;
              break;
            default: /* piloted open, z in the range or its open01 blends */
              zt = i % 5 == 3 ? g_rand_double (r)
                   : (g_rand_boolean (r) ? g_rand_double_range (r, 1e-4, 0.0098)
                                          : g_rand_double_range (r, 0.9902, 0.9999));
              pb = pa + g_rand_double_range (r, 1e5, 2e7);
              px = pa + (pb - pa + pc + zt * range) / phi;
              break;
            }
          double p[3] = { pa, pb, px };
          failures += check_at (comp, 0.0, p, NULL, "leak=%s p=(%g, %g, %g)", leaks[l], pa, pb, px);
        }
      for (double dp = -50.0; dp <= 50.0; dp += 12.5)
        {
          double p[3] = { 1e5 + dp, 1e5, 0.0 };
          failures += check_at (comp, 0.0, p, NULL, "leak=%s dp=%g", leaks[l], dp);
        }
      hyd_comp_free (comp);
    }
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
}

/* sequence valve ---------------------------------------------------------------- */

static void
test_sequence_values (void)
{
  HydComp *comp = hyd_test_make_comp ("sequence_valve", NULL, NULL);
  HydOrificeCoeffs c = default_coeffs ();
  double q[2], out[2];
  int io = output_index (comp, "opening");
  double a_full = G_PI * 36e-6 / 4.0; /* default bore 6 mm */
  double pc = par_value (comp, "cracking_pressure");
  double range = par_value (comp, "opening_range");

  /* closed, exactly, until the inlet reaches the setting, however low the
   * outlet: the first actuator (clamp) takes all the flow until then */
  const double pps[] = { 0.0, 1e6, pc * (1.0 - 1e-9), pc };
  for (guint i = 0; i < G_N_ELEMENTS (pps); i++)
    {
      double p[2] = { pps[i], 0.0 };
      hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
      g_assert_cmpfloat (q[0], ==, 0.0);
      g_assert_cmpfloat (out[io], ==, 0.0);
    }
  double pj[2] = { pc + 1e3, 0.0 };
  hyd_test_eval (comp, 0.0, pj, NULL, q, NULL, out);
  g_assert_cmpfloat (q[0], >, 0.0);

  /* the opening follows p_P alone (drained to tank): half open at
   * cracking + range/2 with the outlet at 0 or at 29 bar */
  const double pas[] = { 0.0, 2.9e6 };
  for (guint i = 0; i < G_N_ELEMENTS (pas); i++)
    {
      double p[2] = { pc + 0.5 * range, pas[i] };
      hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
      g_assert_cmpfloat_with_epsilon (out[io], 0.5, 1e-12);
    }
  /* fully open at 35 bar, passing C_d·A·√(2Δp/ρ) to a work cylinder at 10 bar */
  double pf[2] = { pc + range, 1e6 };
  hyd_test_eval (comp, 0.0, pf, NULL, q, NULL, out);
  g_assert_cmpfloat (out[io], ==, 1.0);
  g_assert_cmpfloat_with_epsilon (q[0] / (c.cd * a_full * sqrt (2.0 * 2.5e6 / c.rho)), 1.0, 1e-12);
  g_assert_cmpfloat (q[1], ==, -q[0]);
  hyd_comp_free (comp);
}

static void
test_sequence_jacobian (void)
{
  GRand *r = g_rand_new_with_seed (43);
  guint failures = 0;
  HydComp *comp = hyd_test_make_comp ("sequence_valve", NULL, NULL);
  double pc = par_value (comp, "cracking_pressure");
  double range = par_value (comp, "opening_range");

  for (guint i = 0; i < N_RANDOM; i++)
    {
      double pp;
      switch (i % 4)
        {
        case 0:  /* anywhere */
          pp = rand_pressure (r);
          break;
        case 1:  /* the opening range */
          pp = pc + g_rand_double (r) * range;
          break;
        case 2:  /* open01 blend near cracking */
          pp = pc + g_rand_double_range (r, 1e-4, 0.0098) * range;
          break;
        default: /* open01 blend near full opening */
          pp = pc + g_rand_double_range (r, 0.9902, 0.9999) * range;
          break;
        }
      double p[2] = { pp, pp - rand_dp (r) };
      failures += check_at (comp, 0.0, p, NULL, "p=(%g, %g)", p[0], p[1]);
    }
  /* the laminar branch around Δp = 0, open */
  for (double dp = -50.0; dp <= 50.0; dp += 12.5)
    {
      double p[2] = { pc + range + dp, pc + range };
      failures += check_at (comp, 0.0, p, NULL, "dp=%g", dp);
    }
  hyd_comp_free (comp);
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
}

/* one-way flow control valve ------------------------------------------------------ */

static void
test_one_way_values (void)
{
  HydComp *comp = hyd_test_make_comp ("one_way_flow_control_valve", NULL, "opening", "0.5", NULL);
  HydOrificeCoeffs c = default_coeffs ();
  double q[2], out[2];
  int io = output_index (comp, "check_opening");
  double a_thr = 0.5 * G_PI * 16e-6 / 4.0; /* half of a 4 mm bore */
  double a_chk = G_PI * 1e-4 / 4.0;        /* 10 mm check */
  double v = sqrt (2.0 * 1e6 / c.rho);

  /* throttled A→B at 10 bar: the throttle alone, C_d·A·√(2Δp/ρ) */
  double pab[2] = { 1.1e6, 1e5 };
  hyd_test_eval (comp, 0.0, pab, NULL, q, NULL, out);
  g_assert_cmpfloat (out[io], ==, 0.0);
  g_assert_cmpfloat_with_epsilon (q[0] / (c.cd * a_thr * v), 1.0, 1e-12);
  g_assert_cmpfloat (q[1], ==, -q[0]);
  /* free B→A at 10 bar: throttle and the fully open check together */
  double pba[2] = { 1e5, 1.1e6 };
  hyd_test_eval (comp, 0.0, pba, NULL, q, NULL, out);
  g_assert_cmpfloat (out[io], ==, 1.0);
  g_assert_cmpfloat_with_epsilon (q[0] / (-c.cd * (a_thr + a_chk) * v), 1.0, 1e-12);
  /* the check starts to open at its cracking pressure, 0.5 bar B→A */
  double pcr[2] = { 1e5, 1.5e5 };
  hyd_test_eval (comp, 0.0, pcr, NULL, q, NULL, out);
  g_assert_cmpfloat (out[io], ==, 0.0);
  pcr[1] = 1.5e5 + 1e3;
  hyd_test_eval (comp, 0.0, pcr, NULL, q, NULL, out);
  g_assert_cmpfloat (out[io], >, 0.0);
  hyd_comp_free (comp);

  /* the needle shut: A→B closed exactly, B→A still free */
  comp = hyd_test_make_comp ("one_way_flow_control_valve", NULL, "opening", "0", NULL);
  hyd_test_eval (comp, 0.0, pab, NULL, q, NULL, out);
  g_assert_cmpfloat (q[0], ==, 0.0);
  hyd_test_eval (comp, 0.0, pba, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (q[0] / (-c.cd * a_chk * v), 1.0, 1e-12);
  hyd_comp_free (comp);
}

static void
test_one_way_jacobian (void)
{
  GRand *r = g_rand_new_with_seed (47);
  guint failures = 0;
  HydComp *comp = hyd_test_make_comp ("one_way_flow_control_valve", NULL, NULL);
  double pc = par_value (comp, "cracking_pressure");
  double range = par_value (comp, "opening_range");

  hyd_test_set_param_rate (comp, "opening", -0.7);
  for (guint i = 0; i < N_RANDOM; i++)
    {
      set_par (comp, "opening", i % 7 == 0 ? 0.0 : g_rand_double (r));
      double dba;
      switch (i % 4)
        {
        case 0:  /* anywhere */
          dba = rand_dp (r);
          break;
        case 1:  /* the check's opening range */
          dba = pc + g_rand_double (r) * range;
          break;
        case 2:  /* open01 blend near cracking */
          dba = pc + g_rand_double_range (r, 1e-4, 0.0098) * range;
          break;
        default: /* open01 blend near full opening */
          dba = pc + g_rand_double_range (r, 0.9902, 0.9999) * range;
          break;
        }
      double pa = rand_pressure (r);
      double p[2] = { pa, pa + dba };
      failures += check_at (comp, 0.0, p, NULL, "opening=%g dp_BA=%g", comp->par[1], dba);
    }
  set_par (comp, "opening", 0.3);
  for (double dp = -50.0; dp <= 50.0; dp += 12.5)
    {
      double p[2] = { 1e5 + dp, 1e5 };
      failures += check_at (comp, 0.0, p, NULL, "dp=%g", dp);
    }
  hyd_comp_free (comp);
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
}

/* shuttle valve ------------------------------------------------------------------- */

static void
test_shuttle_values (void)
{
  HydComp *comp = hyd_test_make_comp ("shuttle_valve", NULL, NULL);
  HydOrificeCoeffs c = default_coeffs ();
  double q[3], out[3];
  int io = output_index (comp, "position");
  double a = G_PI * 36e-6 / 4.0; /* default bore 6 mm */
  double ps = par_value (comp, "switching_pressure");
  double q1 = c.cd * a * sqrt (2.0 * 1e6 / c.rho); /* 10 bar across a full path */

  /* A higher: A feeds C through the full bore, B exactly closed */
  double pa[3] = { 1e7, 0.0, 9e6 };
  hyd_test_eval (comp, 0.0, pa, NULL, q, NULL, out);
  g_assert_cmpfloat (out[io], ==, 1.0);
  g_assert_cmpfloat_with_epsilon (q[0] / q1, 1.0, 1e-12);
  g_assert_cmpfloat (q[1], ==, 0.0);
  g_assert_cmpfloat (q[2], ==, -q[0]);
  /* B higher: the mirror image */
  double pb[3] = { 0.0, 1e7, 9e6 };
  hyd_test_eval (comp, 0.0, pb, NULL, q, NULL, out);
  g_assert_cmpfloat (out[io], ==, 0.0);
  g_assert_cmpfloat (q[0], ==, 0.0);
  g_assert_cmpfloat_with_epsilon (q[1] / q1, 1.0, 1e-12);
  /* equal: the ball in the middle, each path half open */
  double pe[3] = { 1e7, 1e7, 9e6 };
  hyd_test_eval (comp, 0.0, pe, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (out[io], 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (q[0] / (0.5 * q1), 1.0, 1e-12);
  g_assert_cmpfloat (q[1], ==, q[0]);
  g_assert_cmpfloat (q[2], ==, -2.0 * q[0]);
  /* the ball seats exactly half the switching pressure away from the middle */
  double psw[3] = { 1e7 + 0.5 * ps, 1e7, 9e6 };
  hyd_test_eval (comp, 0.0, psw, NULL, q, NULL, out);
  g_assert_cmpfloat (out[io], ==, 1.0);
  g_assert_cmpfloat (q[1], ==, 0.0);
  psw[0] = 1e7 + 0.45 * ps;
  hyd_test_eval (comp, 0.0, psw, NULL, q, NULL, out);
  g_assert_cmpfloat (out[io], <, 1.0);
  g_assert_cmpfloat (q[1], >, 0.0);
  hyd_comp_free (comp);
}

static void
test_shuttle_jacobian (void)
{
  GRand *r = g_rand_new_with_seed (53);
  guint failures = 0;
  HydComp *comp = hyd_test_make_comp ("shuttle_valve", NULL, NULL);
  double ps = par_value (comp, "switching_pressure");

  for (guint i = 0; i < N_RANDOM; i++)
    {
      double pa = rand_pressure (r);
      double dab;
      switch (i % 4)
        {
        case 0:  /* anywhere */
          dab = rand_dp (r);
          break;
        case 1:  /* the ball travelling */
          dab = g_rand_double_range (r, -0.5, 0.5) * ps;
          break;
        default: /* open01 blends at either seat */
          dab = (g_rand_boolean (r) ? 1.0 : -1.0)
                * (0.5 - g_rand_double_range (r, 1e-4, 0.0098)) * ps;
          break;
        }
      double p[3] = { pa, pa - dab, pa - (i % 8 < 4 ? rand_dp (r) : g_rand_double_range (r, -50, 50)) };
      failures += check_at (comp, 0.0, p, NULL, "p=(%g, %g, %g)", p[0], p[1], p[2]);
    }
  hyd_comp_free (comp);
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
}

/* counterbalance valve ------------------------------------------------------------ */

static void
test_counterbalance_values (void)
{
  HydComp *comp = hyd_test_make_comp ("counterbalance_valve", NULL, NULL);
  HydOrificeCoeffs c = default_coeffs ();
  double q[3], out[3];
  int io = output_index (comp, "opening");
  int ic = output_index (comp, "check_opening");
  double a_rel = G_PI * 36e-6 / 4.0; /* 6 mm relief path */
  double a_chk = G_PI * 1e-4 / 4.0;  /* 10 mm check */
  double set = par_value (comp, "cracking_pressure");
  double range = par_value (comp, "opening_range");
  double phi = par_value (comp, "pilot_ratio");

  /* free flow A→B (lifting) through the check only */
  double pf[3] = { 4e5, 0.0, 0.0 };
  hyd_test_eval (comp, 0.0, pf, NULL, q, NULL, out);
  g_assert_cmpfloat (out[ic], ==, 1.0);
  g_assert_cmpfloat (out[io], ==, 0.0);
  g_assert_cmpfloat_with_epsilon (q[0] / (c.cd * a_chk * sqrt (2.0 * 4e5 / c.rho)), 1.0, 1e-12);
  g_assert_cmpfloat (q[1], ==, -q[0]);
  g_assert_cmpfloat (q[2], ==, 0.0);

  /* holding 100 bar at B with A at tank and no pilot: tight */
  double ph[3] = { 0.0, 1e7, 0.0 };
  hyd_test_eval (comp, 0.0, ph, NULL, q, NULL, out);
  g_assert_cmpfloat (q[0], ==, 0.0);
  g_assert_cmpfloat (out[io], ==, 0.0);
  g_assert_cmpfloat (out[ic], ==, 0.0);

  /* lowering: the pilot opens it at p_X = (setting − p_B)/ratio = 6.67 bar,
   * fully range/ratio above, passing the load's flow B→A */
  double px_open = (set - 1e7) / phi;
  g_assert_cmpfloat_with_epsilon (px_open, 6.6666667e5, 1.0);
  ph[2] = px_open * (1.0 - 1e-9);
  hyd_test_eval (comp, 0.0, ph, NULL, q, NULL, out);
  g_assert_cmpfloat (q[0], ==, 0.0);
  ph[2] = px_open + 0.5 * range / phi;
  hyd_test_eval (comp, 0.0, ph, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (out[io], 0.5, 1e-9);
  ph[2] = px_open + range / phi;
  hyd_test_eval (comp, 0.0, ph, NULL, q, NULL, out);
  g_assert_cmpfloat (out[io], ==, 1.0);
  g_assert_cmpfloat_with_epsilon (q[0] / (-c.cd * a_rel * sqrt (2.0 * 1e7 / c.rho)), 1.0, 1e-12);
  g_assert_cmpfloat (q[2], ==, 0.0);

  /* back pressure at A adds (1 + ratio)·p_A: 5 bar at A needs 13.3 bar at X */
  double pa = 5e5;
  double px_back = (set - (1e7 - pa)) / phi + pa;
  g_assert_cmpfloat_with_epsilon (px_back, 1.3333333e6, 1.0);
  double pb[3] = { pa, 1e7, px_back + 0.5 * range / phi };
  hyd_test_eval (comp, 0.0, pb, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (out[io], 0.5, 1e-9);

  /* without a pilot it still relieves an overload above the setting */
  double po[3] = { 0.0, set + range, 0.0 };
  hyd_test_eval (comp, 0.0, po, NULL, q, NULL, out);
  g_assert_cmpfloat (out[io], ==, 1.0);
  g_assert_cmpfloat (q[0], <, 0.0);
  hyd_comp_free (comp);
}

static void
test_counterbalance_jacobian (void)
{
  GRand *r = g_rand_new_with_seed (59);
  guint failures = 0;
  HydComp *comp = hyd_test_make_comp ("counterbalance_valve", NULL, NULL);
  double set = par_value (comp, "cracking_pressure");
  double range = par_value (comp, "opening_range");
  double phi = par_value (comp, "pilot_ratio");
  double cpc = par_value (comp, "check_cracking_pressure");
  double crange = par_value (comp, "check_opening_range");

  for (guint i = 0; i < N_RANDOM; i++)
    {
      double pa = rand_pressure (r);
      double pb = pa - rand_dp (r);
      double px = rand_pressure (r);
      double zt;
      switch (i % 6)
        {
        case 0:  /* anywhere */
          break;
        case 1:  /* the check's range and its blends */
          pb = pa - cpc - (g_rand_boolean (r) ? g_rand_double (r)
                           : g_rand_double_range (r, 1e-4, 0.0098)) * crange;
          break;
        case 2:  /* the pilot piston's blend (|p_X − p_A| < 0.005·range) */
          px = pa + (g_rand_double_range (r, 1e-4, 0.9999) - 0.5) * HYD_SMOOTH_EPS * range;
          break;
        default: /* piloted open, z in the range or its open01 blends */
          zt = i % 6 == 3 ? g_rand_double (r)
               : (i % 6 == 4 ? g_rand_double_range (r, 1e-4, 0.0098)
                             : g_rand_double_range (r, 0.9902, 0.9999));
          pa = g_rand_double_range (r, 0.0, 2e6);
          pb = pa + g_rand_double_range (r, 1e6, set - 1e5);
          px = pa + (set + zt * range - (pb - pa)) / phi;
          break;
        }
      double p[3] = { pa, pb, px };
      failures += check_at (comp, 0.0, p, NULL, "p=(%g, %g, %g)", pa, pb, px);
    }
  hyd_comp_free (comp);
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
}

/* filter ---------------------------------------------------------------------------- */

static void
test_filter_values (void)
{
  HydComp *comp = hyd_test_make_comp ("filter", NULL, NULL);
  double q[2], out[3];
  int idp = output_index (comp, "dp");
  int ind = output_index (comp, "indicator");
  double qn = 100e-3 / 60.0;

  /* the clean element drops 0.5 bar at 100 L/min, and half that at half the flow */
  double p[2] = { 1e6 + 5e4, 1e6 };
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (q[0] / qn, 1.0, 1e-12);
  g_assert_cmpfloat (q[1], ==, -q[0]);
  g_assert_cmpfloat_with_epsilon (out[idp], 5e4, 1e-6);
  g_assert_cmpfloat (out[ind], ==, 0.0); /* no indicator unless set */
  p[0] = 1e6 - 2.5e4;
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (q[0] / (-0.5 * qn), 1.0, 1e-12);
  hyd_comp_free (comp);

  /* half clogged: the same flow needs twice the drop; the indicator at 2 bar */
  comp = hyd_test_make_comp ("filter", NULL, "clogging", "0.5", "indicator_pressure", "2e5", NULL);
  double pc[2] = { 1e5, 0.0 };
  hyd_test_eval (comp, 0.0, pc, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (q[0] / qn, 1.0, 1e-12);
  g_assert_cmpfloat (out[ind], ==, 0.0);
  pc[0] = 2e5;
  hyd_test_eval (comp, 0.0, pc, NULL, q, NULL, out);
  g_assert_cmpfloat (out[ind], ==, 1.0);
  g_assert_cmpfloat_with_epsilon (q[0] / (2.0 * qn), 1.0, 1e-12);
  hyd_comp_free (comp);
}

static void
test_filter_jacobian (void)
{
  GRand *r = g_rand_new_with_seed (61);
  guint failures = 0;
  HydComp *comp = hyd_test_make_comp ("filter", NULL, NULL);

  hyd_test_set_param_rate (comp, "clogging", 0.05);
  for (guint i = 0; i < N_RANDOM; i++)
    {
      set_par (comp, "clogging", g_rand_double_range (r, 0.0, 0.95));
      double pb = rand_pressure (r);
      double p[2] = { pb + rand_dp (r), pb };
      failures += check_at (comp, 0.0, p, NULL, "clogging=%g p=(%g, %g)", comp->par[2], p[0], p[1]);
    }
  hyd_comp_free (comp);
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
}

/* relief valve -------------------------------------------------------------- */

static void
test_relief_steady (void)
{
  HydComp *stat = hyd_test_make_comp ("relief_valve", NULL, NULL);
  HydComp *dyn = hyd_test_make_comp ("relief_valve", NULL, "natural_frequency", "2000", NULL);
  double qnom = par_value (stat, "nominal_flow");
  double pc = par_value (stat, "cracking_pressure");
  double po = par_value (stat, "override_pressure");
  double q[2], out[2], x[2], xdot[2];
  int io = output_index (stat, "opening");

  g_assert_cmpuint (stat->n_states, ==, 0);
  g_assert_cmpuint (dyn->n_states, ==, 2);
  g_assert_cmpstr (dyn->states[0].name, ==, "s");
  g_assert_cmpstr (dyn->states[1].name, ==, "sdot");

  /* q = nominal_flow·s_ss·√(Δp/Δp_nom): 0.995·nominal_flow at Δp_nom */
  double p[2] = { pc + po + 2e5, 2e5 };
  hyd_test_eval (stat, 0.0, p, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (q[0] / (0.995 * qnom), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (out[io], 0.995, 1e-14);
  g_assert_cmpfloat (q[1], ==, -q[0]);

  for (double zz = 0.5; zz <= 3.0; zz += 0.5)
    {
      double dp = pc + zz * po;
      double pp[2] = { dp, 0.0 };
      hyd_test_eval (stat, 0.0, pp, NULL, q, NULL, out);
      double s_ss = zz - 0.005;
      g_assert_cmpfloat_with_epsilon (q[0] / (qnom * s_ss * sqrt (dp / (pc + po))), 1.0, 1e-12);

      /* the dynamic valve at rest at σ(z) is the static operating point */
      dyn->type->init_states (dyn, pp, x);
      g_assert_cmpfloat_with_epsilon (x[0], zz, 1e-12);
      g_assert_cmpfloat (x[1], ==, 0.0);
      double qd[2], outd[2];
      hyd_test_eval (dyn, 0.0, pp, x, qd, xdot, outd);
      g_assert_cmpfloat_with_epsilon (qd[0] / q[0], 1.0, 1e-12);
      g_assert_cmpfloat_with_epsilon (xdot[0], 0.0, 1e-15);
      g_assert_cmpfloat_with_epsilon (xdot[1], 0.0, 1e-6);
      g_assert_cmpfloat_with_epsilon (outd[io], out[io], 1e-12);
    }

  /* closed below cracking, exactly; the dynamic valve starts below 0 there
   * (σ ≤ 0) and is closed too */
  double pl[2] = { pc - 1e4, 0.0 };
  hyd_test_eval (stat, 0.0, pl, NULL, q, NULL, NULL);
  g_assert_cmpfloat (q[0], ==, 0.0);
  dyn->type->init_states (dyn, pl, x);
  g_assert_cmpfloat (x[0], <, 0.0);
  hyd_test_eval (dyn, 0.0, pl, x, q, xdot, NULL);
  g_assert_cmpfloat (q[0], ==, 0.0);
  g_assert_cmpfloat_with_epsilon (xdot[1], 0.0, 1e-6);
  double pfar[2] = { 0.0, 0.0 };
  dyn->type->init_states (dyn, pfar, x);
  g_assert_cmpfloat (x[0], ==, -0.05);

  hyd_comp_free (stat);
  hyd_comp_free (dyn);
}

static void
test_relief_jacobian_static (void)
{
  HydComp *comp = hyd_test_make_comp ("relief_valve", NULL, NULL);
  double pc = par_value (comp, "cracking_pressure");
  double po = par_value (comp, "override_pressure");
  GRand *r = g_rand_new_with_seed (34);
  guint failures = 0;

  for (guint i = 0; i < N_RANDOM; i++)
    {
      double z;
      switch (i % 4)
        {
        case 0: z = g_rand_double_range (r, -3.0, 5.0); break;
        case 1: z = g_rand_double_range (r, 1e-4, 0.0099); break; /* soft_ramp */
        case 2: z = pow (10.0, g_rand_double_range (r, -6, -2)); break; /* just cracked: laminar */
        default: z = g_rand_double_range (r, 0.0101, 1.5); break;
        }
      double pt = g_rand_double_range (r, -1e5, 1e6);
      double p[2] = { pt + pc + z * po, pt };
      failures += check_at (comp, 0.0, p, NULL, "z=%g", z);
    }
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
  hyd_comp_free (comp);
}

static void
test_relief_jacobian_dynamic (void)
{
  HydComp *comp = hyd_test_make_comp ("relief_valve", NULL, "natural_frequency", "3000",
                                      "damping_ratio", "0.5", NULL);
  double pc = par_value (comp, "cracking_pressure");
  double po = par_value (comp, "override_pressure");
  GRand *r = g_rand_new_with_seed (35);
  guint failures = 0;

  for (guint i = 0; i < N_RANDOM; i++)
    {
      double z, s;
      switch (i % 4)
        {
        case 0: /* anywhere */
          z = g_rand_double_range (r, -3.0, 5.0);
          s = g_rand_double_range (r, -0.5, 3.0);
          break;
        case 1: /* σ's ramp (z in (−0.1, 0)) and the area's ramp (s in (0, 0.01)) */
          z = g_rand_double_range (r, -0.0999, -1e-4);
          s = g_rand_double_range (r, 1e-5, 0.0099);
          break;
        case 2: /* just opened: tiny area, laminar */
          z = g_rand_double_range (r, -0.05, 0.05);
          s = pow (10.0, g_rand_double_range (r, -5, -2.01));
          break;
        default: /* open */
          z = g_rand_double_range (r, 0.01, 2.0);
          s = g_rand_double_range (r, 0.0101, 2.0);
          break;
        }
      double pt = g_rand_double_range (r, -1e5, 1e6);
      double p[2] = { pt + pc + z * po, pt };
      double x[2] = { s, g_rand_double_range (r, -200.0, 200.0) };
      failures += check_at (comp, 0.0, p, x, "z=%g s=%g sdot=%g", z, s, x[1]);
    }
  /* reverse pressure on an open poppet */
  double p[2] = { 1e5, 2e6 }, x[2] = { 0.5, 10.0 };
  failures += check_at (comp, 0.0, p, x, "reverse");
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
  hyd_comp_free (comp);
}

/* max_opening (extension, docs/circuit-format.md): the opening follows the
 * contract's soft_ramp up to M and is exactly M from M + 0.01 on; the
 * dynamic valve's equilibrium stays the static valve. */
static void
test_relief_max_opening (void)
{
  HydComp *free_v = hyd_test_make_comp ("relief_valve", NULL, NULL);
  HydComp *stat = hyd_test_make_comp ("relief_valve", NULL, "max_opening", "1.5", NULL);
  HydComp *dyn = hyd_test_make_comp ("relief_valve", NULL, "max_opening", "1.5",
                                     "natural_frequency", "2000", NULL);
  double qnom = par_value (stat, "nominal_flow");
  double pc = par_value (stat, "cracking_pressure");
  double po = par_value (stat, "override_pressure");
  int io = output_index (stat, "opening");
  double q[2], qf[2], out[2], outf[2], x[2], xdot[2];

  g_assert_true (isnan (par_value (free_v, "max_opening")));
  for (double zz = -0.5; zz <= 6.0; zz += 0.125)
    {
      double dp = pc + zz * po;
      double pp[2] = { dp, 0.0 };
      hyd_test_eval (stat, 0.0, pp, NULL, q, NULL, out);
      hyd_test_eval (free_v, 0.0, pp, NULL, qf, NULL, outf);
      if (zz <= 1.5)
        {
          /* unchanged below M */
          g_assert_cmpfloat (out[io], ==, outf[io]);
          g_assert_cmpfloat (q[0], ==, qf[0]);
        }
      else if (zz >= 1.51)
        {
          /* full opening: the nominal area times M */
          g_assert_cmpfloat_with_epsilon (out[io], 1.5, 1e-14);
          g_assert_cmpfloat_with_epsilon (q[0] / (qnom * 1.5 * sqrt (dp / (pc + po))), 1.0, 1e-12);
          g_assert_cmpfloat (q[0], <, qf[0]);
        }
      dyn->type->init_states (dyn, pp, x);
      double qd[2], outd[2];
      hyd_test_eval (dyn, 0.0, pp, x, qd, xdot, outd);
      g_assert_cmpfloat_with_epsilon (qd[0], q[0], 1e-12 * MAX (q[0], 1e-12));
      g_assert_cmpfloat_with_epsilon (outd[io], out[io], 1e-12);
    }
  hyd_comp_free (free_v);
  hyd_comp_free (stat);
  hyd_comp_free (dyn);
}

static void
test_relief_jacobian_max_opening (void)
{
  HydComp *stat = hyd_test_make_comp ("relief_valve", NULL, "max_opening", "1.2", NULL);
  HydComp *dyn = hyd_test_make_comp ("relief_valve", NULL, "max_opening", "1.2",
                                     "natural_frequency", "3000", "damping_ratio", "0.5", NULL);
  double pc = par_value (stat, "cracking_pressure");
  double po = par_value (stat, "override_pressure");
  GRand *r = g_rand_new_with_seed (36);
  guint failures = 0;

  for (guint i = 0; i < N_RANDOM; i++)
    {
      /* half the points inside the upper seam (M, M + 0.01), the rest around it */
      double z = (i % 2) ? g_rand_double_range (r, 1.2 + 1e-4, 1.2099)
                         : g_rand_double_range (r, 0.5, 4.0);
      double pt = g_rand_double_range (r, -1e5, 1e6);
      double p[2] = { pt + pc + z * po, pt };
      failures += check_at (stat, 0.0, p, NULL, "static z=%g", z);
      double x[2] = { z, g_rand_double_range (r, -200.0, 200.0) };
      failures += check_at (dyn, 0.0, p, x, "dynamic s=%g", z);
    }
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
  hyd_comp_free (stat);
  hyd_comp_free (dyn);
}

/* pressure-reducing valve --------------------------------------------------- */

static void
test_prv_values (void)
{
  HydComp *comp = hyd_test_make_comp ("pressure_reducing_valve", NULL, NULL);
  double sp = par_value (comp, "setpoint");
  double q[2], out[2];
  int io = output_index (comp, "opening");

  /* at and above the setpoint: exactly closed */
  double p[2] = { 2e7, sp };
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  g_assert_cmpfloat (q[0], ==, 0.0);
  g_assert_cmpfloat (out[io], ==, 0.0);
  /* a full regulation range below: fully open */
  double po[2] = { 2e7, sp - par_value (comp, "regulation_range") };
  hyd_test_eval (comp, 0.0, po, NULL, q, NULL, out);
  g_assert_cmpfloat (out[io], ==, 1.0);
  g_assert_cmpfloat (q[0], >, 0.0);
  g_assert_cmpfloat (q[1], ==, -q[0]);
  hyd_comp_free (comp);
}

static void
test_prv_jacobian (void)
{
  HydComp *comp = hyd_test_make_comp ("pressure_reducing_valve", NULL, NULL);
  double sp = par_value (comp, "setpoint");
  double range = par_value (comp, "regulation_range");
  GRand *r = g_rand_new_with_seed (36);
  guint failures = 0;

  for (guint i = 0; i < N_RANDOM; i++)
    {
      double pa;
      switch (i % 4)
        {
        case 0: pa = rand_pressure (r); break;
        case 1: pa = sp - g_rand_double (r) * range; break;                 /* regulating */
        case 2: pa = sp - g_rand_double_range (r, 1e-4, 0.0098) * range; break; /* blend at closing */
        default: pa = sp - g_rand_double_range (r, 0.9902, 0.9999) * range; break;
        }
      /* forward, reverse and laminar drops */
      double dp = (i % 5 == 0) ? g_rand_double_range (r, -100, 100) : rand_dp (r);
      double p[2] = { pa + dp, pa };
      failures += check_at (comp, 0.0, p, NULL, "pA=%g dp=%g", pa, dp);
    }
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
  hyd_comp_free (comp);
}

/* flow control valve --------------------------------------------------------- */

static void
test_fcv (void)
{
  HydComp *comp = hyd_test_make_comp ("flow_control_valve", NULL, NULL);
  double F = par_value (comp, "set_flow");
  GRand *r = g_rand_new_with_seed (37);
  guint failures = 0;
  double q[2];

  /* compensated: the set flow at a large drop, never more */
  double p[2] = { 2e7, 0.0 };
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, NULL);
  g_assert_cmpfloat_with_epsilon (q[0] / F, 1.0, 1e-9);
  g_assert_cmpfloat (q[0], <=, F);

  hyd_test_set_param_rate (comp, "set_flow", 1e-3);
  for (guint i = 0; i < N_RANDOM; i++)
    {
      set_par (comp, "set_flow", pow (10.0, g_rand_double_range (r, -6, -3)));
      /* laminar drops at low pressure, where the FD step (1e-7·|p|) is small
       * against the curvature of tanh(q_o/F) */
      gboolean laminar = i % 3 == 0;
      double pb = laminar ? g_rand_double_range (r, 0.0, 1e5) : rand_pressure (r);
      double dp = laminar ? g_rand_double_range (r, -200, 200) : rand_dp (r);
      double pp[2] = { pb + dp, pb };
      failures += check_at (comp, 0.5, pp, NULL, "F=%g pb=%g dp=%g", par_value (comp, "set_flow"), pb, dp);
    }
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
  hyd_comp_free (comp);
}

/* ===========================================================================
 * directional control valves
 * ========================================================================= */

typedef struct {
  const char *type;
  const char *centre;   /* dcv_4_3 only, else NULL */
} DcvCase;

static const DcvCase dcv_cases[] = {
  { "dcv_4_3", "closed" },
  { "dcv_4_3", "open" },
  { "dcv_4_3", "tandem" },
  { "dcv_4_3", "float" },
  { "dcv_4_2", NULL },
  { "dcv_3_2", NULL },
  { "dcv_2_2", NULL },
};

static HydComp *
make_dcv (const DcvCase *dc, const char *tau, const char *leak)
{
  if (dc->centre)
    return hyd_test_make_comp (dc->type, NULL, "centre", dc->centre,
                               "spool_time_constant", tau, "leakage_fraction", leak, NULL);
  return hyd_test_make_comp (dc->type, NULL, "spool_time_constant", tau,
                             "leakage_fraction", leak, NULL);
}

/* A spool position: anywhere, or inside a blend zone of open01(±u),
 * open01(1 − u) or the centre c(u) = open01(1 − 16u²). */
static double
rand_spool (GRand *r, gboolean symmetric, guint i)
{
  double lo = symmetric ? -1.0 : 0.0;
  double sgn = (symmetric && g_rand_boolean (r)) ? -1.0 : 1.0;
  switch (i % 6)
    {
    case 0: return g_rand_double_range (r, lo - 0.1, 1.1);
    case 1: return sgn * g_rand_double_range (r, 1e-5, 0.0098);          /* open01(±u) near 0 */
    case 2: return sgn * g_rand_double_range (r, 0.9902, 0.99999);       /* near 1 */
    case 3: return sgn * sqrt (g_rand_double_range (r, 1e-5, 0.0098) / 16.0 + 0.0);
    case 4: return sgn * sqrt ((1.0 - g_rand_double_range (r, 1e-5, 0.0098)) / 16.0); /* |u| → ¼ */
    default: return sgn * g_rand_double_range (r, 0.0, 0.3);
    }
}

static void
test_dcv_jacobian (gconstpointer data)
{
  const DcvCase *dc = data;
  const char *taus[] = { "0", "0.02" };
  const char *leaks[] = { "0", "0.01" };
  gboolean symmetric = strcmp (dc->type, "dcv_4_3") == 0;
  GRand *r = g_rand_new_with_seed (41);
  guint failures = 0, n_points = 0;

  for (guint it = 0; it < G_N_ELEMENTS (taus); it++)
    for (guint il = 0; il < G_N_ELEMENTS (leaks); il++)
      {
        HydComp *comp = make_dcv (dc, taus[it], leaks[il]);
        guint np = comp->type->n_ports;
        gboolean state = comp->n_states == 1;
        g_assert_cmpuint (comp->n_states, ==, it == 1 ? 1 : 0);
        hyd_test_set_param_rate (comp, "command", g_rand_double_range (r, -20, 20));
        for (guint i = 0; i < N_RANDOM; i++)
          {
            double p[8], x[1] = { 0.0 }; /* the ports, the hidden solenoid inputs too */
            double base = rand_pressure (r);
            for (guint k = 0; k < np; k++)
              p[k] = (i % 7 == 0) ? base + g_rand_double_range (r, -300, 300) /* laminar */
                                  : rand_pressure (r);
            double u = rand_spool (r, symmetric, i);
            if (state)
              {
                x[0] = u;
                set_par (comp, "command", g_rand_double_range (r, symmetric ? -1 : 0, 1));
              }
            else
              set_par (comp, "command", u);
            failures += check_at (comp, 0.1, p, state ? x : NULL,
                                  "%s/%s tau=%s leak=%s u=%g", dc->type,
                                  dc->centre ? dc->centre : "-", taus[it], leaks[il], u);
            n_points++;
          }
        hyd_comp_free (comp);
      }
  g_test_message ("%u points", n_points);
  g_assert_cmpuint (failures, ==, 0);
  g_rand_free (r);
}

static void
test_dcv_closed_centre (void)
{
  HydComp *comp = hyd_test_make_comp ("dcv_4_3", NULL, NULL);
  double p[6] = { 2e7, 0.0, 5e6, 1e6 }, q[6], out[6]; /* P, T, A, B, Ya, Yb */

  g_assert_cmpuint (comp->n_outputs, ==, 5);
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  for (guint k = 0; k < 4; k++)
    g_assert_cmpfloat (q[k], ==, 0.0);
  for (guint k = 0; k < comp->n_outputs; k++)
    g_assert_cmpfloat (out[k], ==, 0.0);

  /* at u = ±1 the metering paths pass the nominal flow at the nominal drop */
  double qnom = par_value (comp, "nominal_flow");
  double dpn = par_value (comp, "nominal_pressure_drop");
  double pn[6] = { 2.0 * dpn, 0.0, dpn, dpn };
  set_par (comp, "command", 1.0);
  hyd_test_eval (comp, 0.0, pn, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (out[output_index (comp, "q_PA")] / qnom, 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (out[output_index (comp, "q_BT")] / qnom, 1.0, 1e-12);
  g_assert_cmpfloat (out[output_index (comp, "q_PB")], ==, 0.0);
  g_assert_cmpfloat (out[output_index (comp, "q_AT")], ==, 0.0);
  g_assert_cmpfloat (out[output_index (comp, "spool")], ==, 1.0);
  /* conservation: the port flows sum to zero */
  g_assert_cmpfloat (fabs (q[0] + q[1] + q[2] + q[3]), <, 1e-18);
  hyd_comp_free (comp);
}

static void
test_dcv_centres (void)
{
  double p[6] = { 1e7, 0.0, 4e6, 3e6 }, q[6], out[6];
  HydComp *comp;

  /* open centre at u = 0: every port pair of the centre conducts */
  comp = hyd_test_make_comp ("dcv_4_3", NULL, "centre", "open", NULL);
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  g_assert_cmpfloat (out[output_index (comp, "q_PA")], >, 0.0);
  g_assert_cmpfloat (out[output_index (comp, "q_PB")], >, 0.0);
  g_assert_cmpfloat (out[output_index (comp, "q_AT")], >, 0.0);
  g_assert_cmpfloat (out[output_index (comp, "q_BT")], >, 0.0);
  /* closed beyond |u| = ¼ except the metering side */
  set_par (comp, "command", -0.5);
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  g_assert_cmpfloat (out[output_index (comp, "q_PA")], ==, 0.0);
  g_assert_cmpfloat (out[output_index (comp, "q_BT")], ==, 0.0);
  hyd_comp_free (comp);

  /* tandem: P–T only, with its own output */
  comp = hyd_test_make_comp ("dcv_4_3", NULL, "centre", "tandem", NULL);
  g_assert_cmpint (output_index (comp, "q_PT"), ==, 5);
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  HydOrificeCoeffs c = default_coeffs ();
  double a = hyd_orifice_nominal_area (&c, par_value (comp, "nominal_flow"),
                                       par_value (comp, "nominal_pressure_drop"));
  g_assert_cmpfloat_with_epsilon (out[5] / hyd_orifice_flow (&c, 1e7, a, NULL, NULL), 1.0, 1e-12);
  g_assert_cmpfloat (q[2], ==, 0.0);
  g_assert_cmpfloat (q[3], ==, 0.0);
  g_assert_cmpfloat (q[0], ==, out[5]);
  hyd_comp_free (comp);

  /* float: A and B to T, P blocked */
  comp = hyd_test_make_comp ("dcv_4_3", NULL, "centre", "float", NULL);
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  g_assert_cmpfloat (q[0], ==, 0.0);
  g_assert_cmpfloat (q[2], >, 0.0);
  g_assert_cmpfloat (q[3], >, 0.0);
  g_assert_cmpfloat (q[1], ==, -(q[2] + q[3]));
  hyd_comp_free (comp);
}

static void
test_dcv_leakage_and_exactness (void)
{
  double p[4] = { 2e7, 0.0 }, q[4], out[2]; /* A, B, Ya, Yb */
  HydComp *comp = hyd_test_make_comp ("dcv_2_2", NULL, NULL);

  /* open01 exactness: closed with no leakage fraction means exactly zero */
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  g_assert_cmpfloat (q[0], ==, 0.0);
  g_assert_cmpfloat (q[1], ==, 0.0);
  set_par (comp, "command", 1.0);
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  double qopen = q[0];
  g_assert_cmpfloat (qopen, >, 0.0);
  hyd_comp_free (comp);

  /* a leakage fraction λ leaks A = λ·a when closed */
  comp = hyd_test_make_comp ("dcv_2_2", NULL, "leakage_fraction", "0.01", NULL);
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  HydOrificeCoeffs c = default_coeffs ();
  double a = hyd_orifice_nominal_area (&c, par_value (comp, "nominal_flow"),
                                       par_value (comp, "nominal_pressure_drop"));
  g_assert_cmpfloat_with_epsilon (q[0] / hyd_orifice_flow (&c, 2e7, 0.01 * a, NULL, NULL),
                                  1.0, 1e-12);
  /* and full area when open (λ + (1 − λ)·1 = 1) */
  set_par (comp, "command", 1.0);
  hyd_test_eval (comp, 0.0, p, NULL, q, NULL, out);
  g_assert_cmpfloat_with_epsilon (q[0] / qopen, 1.0, 1e-12);
  hyd_comp_free (comp);

  /* 3/2 at rest: A–T open, P blocked */
  comp = hyd_test_make_comp ("dcv_3_2", NULL, NULL);
  double p3[5] = { 2e7, 1e6, 0.0 }, q3[5];
  hyd_test_eval (comp, 0.0, p3, NULL, q3, NULL, NULL);
  g_assert_cmpfloat (q3[0], ==, 0.0);
  g_assert_cmpfloat (q3[1], >, 0.0);
  g_assert_cmpfloat (q3[2], ==, -q3[1]);
  hyd_comp_free (comp);
}

static void
test_dcv_spool_state (void)
{
  HydComp *comp = hyd_test_make_comp ("dcv_4_3", NULL, "spool_time_constant", "0.05",
                                      "command", "0.6", NULL);
  double p0[6] = { 0 }, x0[1] = { -9.0 }, xdot[1], out[5];

  g_assert_cmpuint (comp->n_states, ==, 1);
  g_assert_cmpstr (comp->states[0].name, ==, "spool");
  comp->type->init_states (comp, p0, x0);
  g_assert_cmpfloat (x0[0], ==, 0.6);
  /* τ·u̇ = command − u */
  double x[1] = { 0.1 };
  hyd_test_eval (comp, 0.0, p0, x, NULL, xdot, out);
  g_assert_cmpfloat_with_epsilon (xdot[0], (0.6 - 0.1) / 0.05, 1e-12);
  g_assert_cmpfloat (out[output_index (comp, "spool")], ==, 0.1);
  hyd_comp_free (comp);
}

/* The `laminar` output (extension): 1 below Δp_tr, 0 above, for both the
 * fixed orifice and the throttle. */
static void
test_laminar_output (void)
{
  const char *types[] = { "orifice", "throttle_valve" };
  for (guint k = 0; k < G_N_ELEMENTS (types); k++)
    {
      HydComp *comp = hyd_test_make_comp (types[k], NULL, NULL);
      g_assert_cmpuint (comp->n_outputs, ==, 2);
      g_assert_cmpstr (comp->outputs[1].name, ==, "laminar");
      double q[2], out[2];
      double low[2] = { 10.0, 0.0 }, high[2] = { 5e6, 0.0 };
      hyd_test_eval (comp, 0.0, low, NULL, q, NULL, out);
      g_assert_cmpfloat (out[1], ==, 1.0);
      hyd_test_eval (comp, 0.0, high, NULL, q, NULL, out);
      g_assert_cmpfloat (out[1], ==, 0.0);
      hyd_comp_free (comp);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/orifice/laminar-turbulent-continuity", test_orifice_continuity);
  g_test_add_func ("/engine/orifice/oddness", test_orifice_oddness);
  g_test_add_func ("/engine/orifice/derivatives", test_orifice_derivatives);
  g_test_add_func ("/engine/orifice/closed-area-limit", test_orifice_closed);
  g_test_add_func ("/engine/orifice/nominal-area", test_orifice_nominal_area);

  g_test_add_func ("/engine/components/metadata", test_metadata);
  g_test_add_func ("/engine/components/boundaries/jacobian", test_boundaries);
  g_test_add_func ("/engine/components/flow_source/jacobian", test_flow_source);
  g_test_add_func ("/engine/components/variable_pump/values", test_pump_values);
  g_test_add_data_func ("/engine/components/fixed_pump/jacobian", "fixed_pump", test_pump_jacobian);
  g_test_add_data_func ("/engine/components/variable_pump/jacobian", "variable_pump",
                        test_pump_jacobian);

  g_test_add_func ("/engine/components/orifice/values", test_orifice_values);
  g_test_add_func ("/engine/components/orifice/jacobian", test_orifice_jacobian);
  g_test_add_func ("/engine/components/throttle_valve/jacobian", test_throttle_jacobian);
  g_test_add_func ("/engine/components/check_valve/values", test_check_valve_values);
  g_test_add_func ("/engine/components/check_valve/jacobian", test_check_valve_jacobian);
  g_test_add_func ("/engine/components/pilot_check_valve/values", test_pilot_check_values);
  g_test_add_func ("/engine/components/pilot_check_valve/jacobian", test_pilot_check_jacobian);
  g_test_add_func ("/engine/components/sequence_valve/values", test_sequence_values);
  g_test_add_func ("/engine/components/sequence_valve/jacobian", test_sequence_jacobian);
  g_test_add_func ("/engine/components/one_way_flow_control_valve/values", test_one_way_values);
  g_test_add_func ("/engine/components/one_way_flow_control_valve/jacobian", test_one_way_jacobian);
  g_test_add_func ("/engine/components/shuttle_valve/values", test_shuttle_values);
  g_test_add_func ("/engine/components/shuttle_valve/jacobian", test_shuttle_jacobian);
  g_test_add_func ("/engine/components/counterbalance_valve/values", test_counterbalance_values);
  g_test_add_func ("/engine/components/counterbalance_valve/jacobian", test_counterbalance_jacobian);
  g_test_add_func ("/engine/components/filter/values", test_filter_values);
  g_test_add_func ("/engine/components/filter/jacobian", test_filter_jacobian);
  g_test_add_func ("/engine/components/relief_valve/steady", test_relief_steady);
  g_test_add_func ("/engine/components/relief_valve/jacobian-static", test_relief_jacobian_static);
  g_test_add_func ("/engine/components/relief_valve/jacobian-dynamic", test_relief_jacobian_dynamic);
  g_test_add_func ("/engine/components/relief_valve/max-opening", test_relief_max_opening);
  g_test_add_func ("/engine/components/relief_valve/jacobian-max-opening", test_relief_jacobian_max_opening);
  g_test_add_func ("/engine/components/pressure_reducing_valve/values", test_prv_values);
  g_test_add_func ("/engine/components/pressure_reducing_valve/jacobian", test_prv_jacobian);
  g_test_add_func ("/engine/components/flow_control_valve/jacobian", test_fcv);

  for (guint i = 0; i < G_N_ELEMENTS (dcv_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/engine/components/%s/jacobian%s%s",
                                               dcv_cases[i].type,
                                               dcv_cases[i].centre ? "-" : "",
                                               dcv_cases[i].centre ? dcv_cases[i].centre : "");
      g_test_add_data_func (path, &dcv_cases[i], test_dcv_jacobian);
    }
  g_test_add_func ("/engine/components/dcv_4_3/closed-centre", test_dcv_closed_centre);
  g_test_add_func ("/engine/components/dcv_4_3/centres", test_dcv_centres);
  g_test_add_func ("/engine/components/dcv_2_2/leakage-exactness", test_dcv_leakage_and_exactness);
  g_test_add_func ("/engine/components/dcv_4_3/spool-state", test_dcv_spool_state);

  g_test_add_func ("/engine/components/orifice/laminar-output", test_laminar_output);
  return g_test_run ();
}
