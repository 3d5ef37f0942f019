/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-servo.c — signal-driven hydraulics and the hydraulic sensors: the
 * servo valve's partials against central differences (alone and in an
 * assembled circuit), its flow and pressure gains at null against Merritt
 * (1967, Hydraulic Control Systems, ch. 2), its spool's step response
 * against the closed form of the second-order lag; the sensors' signals;
 * the proportional relief valve and the variable pump from a signal; the
 * Position Servo example against Hopsan's published reference data; the
 * in-line flow sensor: its signal's partials, 20 L/min read at steady state
 * with Δp = q/G, and a loop closed through its signal. */
#include <math.h>
#include <string.h>

#include "fd-harness.h"
#include "hyd-catalogue.h"
#include "hyd-circuit.h"
#include "hyd-run.h"
#include "hyd-system.h"

/* A signal source for the tests: Y = value (a profile). */
static const HydPortInfo src_ports[] = { { "Y", HYD_DOMAIN_SIGNAL, FALSE, "out", HYD_PORT_OUTPUT } };
static const HydParamInfo src_params[] = {
  { "value", "value", HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, HYD_PARAM_PROFILE, NULL, "value" },
};

static gboolean
src_setup (HydComp *comp, GError **error)
{
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
src_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
}

static void
src_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  s[0] = comp->par[0];
  if (s_t)
    s_t[0] = comp->par_dt[0];
}

static const HydComponentType t_source = {
  .id = "t_source", .label = "signal source", .ports = src_ports, .n_ports = 1,
  .params = src_params, .n_params = 1, .boundary_param = -1, .designator = "W",
  .setup = src_setup, .eval = src_eval, .signals = src_signals,
};

/* A gain for the tests: Y = k·U. */
static const HydPortInfo gain_ports[] = {
  { "U", HYD_DOMAIN_SIGNAL, FALSE, "in", HYD_PORT_INPUT },
  { "Y", HYD_DOMAIN_SIGNAL, FALSE, "out", HYD_PORT_OUTPUT },
};
static const HydParamInfo gain_params[] = {
  { "k", "k", HYD_UNIT_NONE, 1.0, -INFINITY, INFINITY, 0, NULL, "gain" },
};

static void
gain_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  s[1] = comp->par[0] * in->p[0];
  if (ds)
    ds[1 * hyd_comp_n_local (comp) + 0] = comp->par[0];
}

static const HydComponentType t_gain = {
  .id = "t_gain", .label = "gain", .ports = gain_ports, .n_ports = 2,
  .params = gain_params, .n_params = 1, .boundary_param = -1, .designator = "K",
  .setup = src_setup, .eval = src_eval, .signals = gain_signals,
};

/* ------------------------------------------------------------- helpers */

#define HEAD "{\"format\": \"bramah-circuit\", \"version\": 2, "

static HydSystem *
compile_ok (const char *json)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "test.bramah", &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  g_assert_nonnull (sys);
  return sys;
}

typedef HydTestRows Rows;
#define ROW HYD_TEST_ROW
#define N_ROWS HYD_TEST_N_ROWS

/* Runs sys to t_end at rtol, sampling `names` every dt. */
static Rows
run (HydSystem *sys, const char *const *names, guint n_names, double t_end, double dt, double rtol)
{
  return hyd_test_run (sys, names, n_names, t_end, dt, rtol, -1, NULL);
}

/* The assembled Jacobian and ∂f/∂t against central differences at (t, y). */
static void
check_jacobian (HydSystem *sys, double t, const double *y)
{
  guint n = hyd_system_get_n_states (sys);
  g_autofree double *J = g_new0 (double, n * n);
  g_autofree double *ft = g_new0 (double, n);
  g_autofree double *yy = g_memdup2 (y, n * sizeof (double));
  g_autofree double *fp = g_new0 (double, n);
  g_autofree double *fm = g_new0 (double, n);
  g_assert_cmpint (hyd_system_jacobian (sys, t, y, J, ft), ==, 0);
  for (guint j = 0; j < n; j++)
    {
      double h = 1e-6 * MAX (fabs (y[j]), 1e-3);
      yy[j] = y[j] + h;
      g_assert_cmpint (hyd_system_rhs (sys, t, yy, fp), ==, 0);
      yy[j] = y[j] - h;
      g_assert_cmpint (hyd_system_rhs (sys, t, yy, fm), ==, 0);
      yy[j] = y[j];
      for (guint i = 0; i < n; i++)
        {
          double D = (fp[i] - fm[i]) / (2 * h);
          double scale = 0;
          for (guint k = 0; k < n; k++)
            scale = MAX (scale, fabs (J[i + k * n]));
          if (fabs (J[i + j * n] - D) > 1e-6 * MAX (MAX (fabs (D), 1.0), 1e-3 * scale))
            g_error ("J[%s, %s] = %.10g, finite differences %.10g", hyd_system_get_state_name (sys, i),
                     hyd_system_get_state_name (sys, j), J[i + j * n], D);
        }
    }
  double h = 1e-6;
  hyd_system_set_interval (sys, t - 1.0, t + 1.0);
  g_assert_cmpint (hyd_system_rhs (sys, t + h, y, fp), ==, 0);
  g_assert_cmpint (hyd_system_rhs (sys, t - h, y, fm), ==, 0);
  for (guint i = 0; i < n; i++)
    {
      double d = (fp[i] - fm[i]) / (2 * h);
      if (fabs (ft[i] - d) > 1e-6 * MAX (fabs (d), fabs (ft[i])) + 1e-9)
        g_error ("df/dt[%s] = %.10g, finite differences %.10g", hyd_system_get_state_name (sys, i), ft[i], d);
    }
}

/* Re-runs setup with the ports of `mask` wired (as the compiler would). */
static void
wire (HydComp *comp, guint64 mask)
{
  GError *error = NULL;
  comp->connected = mask;
  g_assert_true (comp->type->setup (comp, &error));
}

/* ------------------------------------------------------ servo: partials */

static void
test_servo_partials (void)
{
  HydComp *v = hyd_test_make_comp ("servo_valve", NULL, "discharge_coefficient", "0.67",
                                   "overlap_pa", "1e-4", "overlap_bt", "-2e-4", "overlap_pb", "0",
                                   "overlap_at", "5e-5", "fraction_pb", "0.5", "leakage", "1e-12",
                                   "damping_ratio", "0.7", NULL);
  hyd_test_set_param_rate (v, "command", 0.02);
  guint misses = 0;
  /* p: P, T, A, B, U; x: xv, vv — across the edges' regimes */
  static const double xs[][2] = {
    { 3e-3, 0.1 },     /* P→A, B→T open; P→B, A→T shut */
    { -4e-3, -0.2 },   /* P→B, A→T open; B→T open by its underlap */
    { 1.02e-4, 0.0 },  /* P→A inside its smoothing (ε = 1e-5 m) */
    { -2.1e-5, 0.05 }, /* near null: P→B barely open (laminar) */
    { 9.95e-3, 0.0 },  /* near x_max */
  };
  double p[5] = { 1.5e7, 2e5, 8e6, 6e6, 0.0 };
  for (guint k = 0; k < G_N_ELEMENTS (xs); k++)
    {
      v->par[0] = 0.004; /* command inside ±x_max */
      misses += hyd_test_check_component (v, 0.1, p, xs[k], "servo_valve, command");
      v->par[0] = 0.0101; /* command in the saturation's smoothing */
      misses += hyd_test_check_component (v, 0.1, p, xs[k], "servo_valve, saturating");
    }
  /* wired: the spool command is the input U */
  wire (v, 1u << 4);
  double pw[5] = { 1.5e7, 2e5, 8e6, 6e6, 0.0 };
  static const double us[] = { 0.003, -0.0099, 0.01005, -0.05 };
  for (guint k = 0; k < G_N_ELEMENTS (us); k++)
    {
      pw[4] = us[k];
      misses += hyd_test_check_component (v, 0.1, pw, xs[0], "servo_valve, wired");
    }
  /* wired, the parameter is ignored: ẍ = ω²(sat(U) − x) */
  double q[5], xdot[2], out[5];
  pw[4] = 0.002;
  double x0[2] = { 0.0, 0.0 };
  hyd_test_eval (v, 0.1, pw, x0, q, xdot, out);
  g_assert_cmpfloat (fabs (xdot[1] - 200.0 * 200.0 * 0.002), <, 1e-9);
  hyd_comp_free (v);
  g_assert_cmpuint (misses, ==, 0);
}

/* ---------------------------------------------- servo: gains at null */

/* Load flow q_L = q_PA − q_AT = −q̂_A with p_A = (p_s + p_L)/2,
 * p_B = (p_s − p_L)/2, tank at 0 (Merritt 1967, ch. 2, the matched symmetric valve). */
static double
load_flow (HydComp *v, double ps, double pl, double xv)
{
  double p[5] = { ps, 0.0, 0.5 * (ps + pl), 0.5 * (ps - pl), 0.0 };
  double x[2] = { xv, 0.0 };
  double q[5], xdot[2], out[5];
  hyd_test_eval (v, 0.0, p, x, q, xdot, out);
  g_assert_cmpfloat (fabs (q[2] + q[3]), <, 1e-15 + 1e-12 * fabs (q[2])); /* q_A + q_B = 0 by symmetry */
  return -q[2];
}

static void
test_servo_gains (void)
{
  HydFluid fluid;
  hyd_fluid_init_default (&fluid);
  fluid.density = 890.0;
  double ps = 1e7, cd = 0.67, d = 0.01, w = G_PI * d, rho = 890.0;

  /* critically centred: q_L = C_q·w·x_v·√((p_s − p_L)/ρ) (Merritt 1967, ch. 2, with
   * the matched, symmetric valve), so K_q = C_q·w·√((p_s − p_L)/ρ) and at
   * null K_q0 = C_q·w·√(p_s/ρ) */
  HydComp *v = hyd_test_make_comp ("servo_valve", &fluid, "discharge_coefficient", "0.67", NULL);
  double worst = 0;
  static const double pls[] = { 0.0, 0.3e7, -0.5e7 };
  for (guint k = 0; k < G_N_ELEMENTS (pls); k++)
    for (double xv = 1e-3; xv <= 9e-3; xv += 2e-3)
      {
        double exact = cd * w * xv * sqrt ((ps - pls[k]) / rho);
        worst = MAX (worst, fabs (load_flow (v, ps, pls[k], xv) - exact) / exact);
      }
  double kq0 = (load_flow (v, ps, 0.0, 2e-3) - load_flow (v, ps, 0.0, 1e-3)) / 1e-3;
  double kq0_exact = cd * w * sqrt (ps / rho);
  g_test_message ("critically centred: K_q0 = %.8g m²/s (Merritt C_q·w·√(p_s/ρ) = %.8g); "
                  "worst relative error of q_L(x_v, p_L) %.2g",
                  kq0, kq0_exact, worst);
  g_assert_cmpfloat (worst, <, 1e-12);
  g_assert_cmpfloat (fabs (kq0 - kq0_exact), <, 1e-9 * kq0_exact);
  /* the ramp's smoothing leaves each edge open ε/8 = x_max/8000 at null */
  double kc_crit = -(load_flow (v, ps, 1e3, 0.0) - load_flow (v, ps, -1e3, 0.0)) / 2e3;
  g_test_message ("critically centred: K_c0 = %.3g m³/(s·Pa) from the smoothing (ideal 0)", kc_crit);
  hyd_comp_free (v);

  /* underlapped by U on every edge: K_q0 = 2·C_q·w·√(p_s/ρ),
   * K_c0 = C_q·w·U·√(p_s/ρ)/p_s, K_p0 = 2·p_s/U (Merritt 1967, ch. 2, the open-centre (underlapped) four-way valve) */
  double U = 2e-4;
  HydComp *u = hyd_test_make_comp ("servo_valve", &fluid, "discharge_coefficient", "0.67",
                                   "overlap_pa", "-2e-4", "overlap_bt", "-2e-4", "overlap_pb", "-2e-4",
                                   "overlap_at", "-2e-4", NULL);
  double hx = 1e-7, hp = 1e2;
  double kq = (load_flow (u, ps, 0.0, hx) - load_flow (u, ps, 0.0, -hx)) / (2 * hx);
  double kc = -(load_flow (u, ps, hp, 0.0) - load_flow (u, ps, -hp, 0.0)) / (2 * hp);
  double kq_exact = 2 * cd * w * sqrt (ps / rho);
  double kc_exact = cd * w * U * sqrt (ps / rho) / ps;
  double kp_exact = 2 * ps / U;
  g_test_message ("underlapped U = %g m: K_q0 = %.8g (Merritt %.8g), K_c0 = %.8g (%.8g), "
                  "K_p0 = %.8g Pa/m (2·p_s/U = %.8g)",
                  U, kq, kq_exact, kc, kc_exact, kq / kc, kp_exact);
  g_assert_cmpfloat (fabs (kq - kq_exact), <, 1e-6 * kq_exact);
  g_assert_cmpfloat (fabs (kc - kc_exact), <, 1e-6 * kc_exact);
  g_assert_cmpfloat (fabs (kq / kc - kp_exact), <, 1e-6 * kp_exact);
  /* at null the load flow is zero and the analytic partials give the same gains */
  g_assert_cmpfloat (fabs (load_flow (u, ps, 0.0, 0.0)), <, 1e-12 * kq_exact * U);
  hyd_comp_free (u);

  /* critically centred with a leakage G per edge: K_c0 = G (+ the smoothing's),
   * K_p0 = K_q0/K_c0 */
  HydComp *l = hyd_test_make_comp ("servo_valve", &fluid, "discharge_coefficient", "0.67",
                                   "leakage", "1e-11", NULL);
  double kc_l = -(load_flow (l, ps, hp, 0.0) - load_flow (l, ps, -hp, 0.0)) / (2 * hp);
  g_test_message ("leakage 1e-11 per edge: K_c0 = %.6g m³/(s·Pa)", kc_l);
  g_assert_cmpfloat (fabs (kc_l - kc_crit - 1e-11), <, 1e-6 * 1e-11);
  hyd_comp_free (l);
}

/* ------------------------------------------------ servo: step response */

/* A constant command r on the input U from t = 0 (the spool at rest at the
 * centre): x_v = r·(1 − (1 + ωt)·e^(−ωt)) for ζ = 1, and
 * x_v = r·(1 − e^(−ζωt)·(cos ω_d t + ζ/√(1 − ζ²)·sin ω_d t)), ω_d = ω√(1 − ζ²),
 * for ζ < 1 (the second-order lag's step response). */
static void
spool_step (double zeta, double r)
{
  g_autofree char *json = g_strdup_printf (
    HEAD "\"components\": ["
    "{\"id\": \"PS\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 1e7}},"
    "{\"id\": \"T1\", \"type\": \"tank\"},"
    "{\"id\": \"VA\", \"type\": \"volume\", \"params\": {\"volume\": 1e-3}},"
    "{\"id\": \"VB\", \"type\": \"volume\", \"params\": {\"volume\": 1e-3}},"
    "{\"id\": \"W1\", \"type\": \"t_source\", \"params\": {\"value\": %.17g}},"
    "{\"id\": \"V1\", \"type\": \"servo_valve\", \"params\": {\"natural_frequency\": 150, "
    "\"damping_ratio\": %.17g, \"overlap_pa\": 1e-4, \"overlap_bt\": 1e-4, \"overlap_pb\": 1e-4, "
    "\"overlap_at\": 1e-4}}],"
    "\"connections\": [{\"from\": \"PS.P\", \"to\": \"V1.P\"}, {\"from\": \"V1.T\", \"to\": \"T1.T\"},"
    "{\"from\": \"V1.A\", \"to\": \"VA.P\"}, {\"from\": \"V1.B\", \"to\": \"VB.P\"},"
    "{\"from\": \"W1.Y\", \"to\": \"V1.U\"}]}",
    r, zeta);
  HydSystem *sys = compile_ok (json);
  guint n = hyd_system_get_n_states (sys);
  g_autofree double *y = g_new0 (double, n);
  for (guint i = 0; i < n; i++)
    {
      const char *name = hyd_system_get_state_name (sys, i);
      y[i] = g_str_has_suffix (name, "xv") ? 0.3 * r : g_str_has_suffix (name, "vv") ? 0.7 : 4e6;
    }
  check_jacobian (sys, 0.01, y);
  const char *names[] = { "V1.xv" };
  Rows rows = run (sys, names, 1, 0.1, 1e-4, 1e-9);
  double w = 150.0, worst = 0;
  for (guint i = 0; i < N_ROWS (rows); i++)
    {
      const double *row = ROW (rows, i);
      double t = row[0], exact;
      if (zeta == 1.0)
        exact = r * (1 - (1 + w * t) * exp (-w * t));
      else
        {
          double wd = w * sqrt (1 - zeta * zeta);
          exact = r * (1 - exp (-zeta * w * t) * (cos (wd * t) + zeta / sqrt (1 - zeta * zeta) * sin (wd * t)));
        }
      worst = MAX (worst, fabs (row[1] - exact));
    }
  g_test_message ("spool step ζ = %g, r = %g m: x_v(0.1 s) = %.9g m; worst |x_v − closed form| = %.3g m",
                  zeta, r, ROW (rows, N_ROWS (rows) - 1)[1], worst);
  g_assert_cmpfloat (worst, <, 1e-6 * fabs (r));
  g_array_unref (rows.rows);
  hyd_system_free (sys);
}

static void
test_servo_step (void)
{
  spool_step (1.0, 0.004);
  spool_step (0.4, -0.006);
}

/* A command beyond x_max holds the spool at x_max (ζ = 1: no overshoot). */
static void
test_servo_saturation (void)
{
  HydComp *v = hyd_test_make_comp ("servo_valve", NULL, NULL);
  wire (v, 1u << 4);
  double p[5] = { 1e7, 0, 5e6, 5e6, 0.5 };
  double x[2] = { 0.01, 0.0 }, q[5], xdot[2], out[5];
  hyd_test_eval (v, 0, p, x, q, xdot, out);
  g_assert_cmpfloat (xdot[1], ==, 0.0);
  p[4] = -3.0;
  x[0] = -0.01;
  hyd_test_eval (v, 0, p, x, q, xdot, out);
  g_assert_cmpfloat (xdot[1], ==, 0.0);
  hyd_comp_free (v);

  /* an overlap that never opens is refused, naming the parameter */
  const HydComponentType *type = hyd_catalogue_lookup ("servo_valve");
  HydFluid fluid;
  hyd_fluid_init_default (&fluid);
  HydComp *bad = hyd_comp_new (type, "V7", &fluid);
  bad->par[hyd_component_type_find_param (type, "overlap_at")] = 0.02;
  g_autoptr (GError) error = NULL;
  g_assert_false (type->validate (bad, &error));
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "V7"));
  g_assert_nonnull (strstr (error->message, "overlap_at"));
  hyd_comp_free (bad);
}

/* ------------------------------------------------------------ sensors */

/* The transducers' signals and their partials, called directly. */
static void
test_transducers (void)
{
  HydComp *pt = hyd_test_make_comp ("pressure_transducer", NULL, NULL);
  double p1[2] = { 7.5e6, 0.0 }, s1[2] = { 0 }, ds1[2 * 2] = { 0 };
  HydEvalIn in1 = { .t = 0, .p = p1 };
  pt->type->signals (pt, &in1, s1, ds1, NULL);
  g_assert_cmpfloat (s1[1], ==, 7.5e6);
  g_assert_cmpfloat (ds1[1 * 2 + 0], ==, 1.0);
  hyd_comp_free (pt);

  HydComp *dp = hyd_test_make_comp ("differential_pressure_transducer", NULL, NULL);
  double p2[3] = { 7.5e6, 2.5e6, 0.0 }, s2[3] = { 0 }, ds2[3 * 3] = { 0 };
  HydEvalIn in2 = { .t = 0, .p = p2 };
  dp->type->signals (dp, &in2, s2, ds2, NULL);
  g_assert_cmpfloat (s2[2], ==, 5e6);
  g_assert_cmpfloat (ds2[2 * 3 + 0], ==, 1.0);
  g_assert_cmpfloat (ds2[2 * 3 + 1], ==, -1.0);
  hyd_comp_free (dp);
}

/* A pressure-difference loop: the transducer across A and B drives the
 * servo valve through a gain (x_v = −10⁻¹¹ m/Pa·(p_A − p_B), a loop crossover near 45 rad/s, below the spool's 200 rad/s); the assembled
 * Jacobian (the chain rule through two signal blocks) against central
 * differences, and the loop drives p_A − p_B to 0 from 40 bar:
 * the load pressure settles where the valve's flows balance. */
static void
test_transducer_loop (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"PS\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 1e7}},"
    "{\"id\": \"T1\", \"type\": \"tank\"},"
    "{\"id\": \"VA\", \"type\": \"volume\", \"params\": {\"volume\": 1e-3, \"initial_pressure\": 7e6}},"
    "{\"id\": \"VB\", \"type\": \"volume\", \"params\": {\"volume\": 1e-3, \"initial_pressure\": 3e6}},"
    "{\"id\": \"BP1\", \"type\": \"differential_pressure_transducer\"},"
    "{\"id\": \"BP2\", \"type\": \"pressure_transducer\"},"
    "{\"id\": \"K1\", \"type\": \"t_gain\", \"params\": {\"k\": -1e-11}},"
    "{\"id\": \"V1\", \"type\": \"servo_valve\", \"params\": {\"overlap_pa\": -1e-5, "
    "\"overlap_bt\": -1e-5, \"overlap_pb\": -1e-5, \"overlap_at\": -1e-5}}],"
    "\"connections\": [{\"from\": \"PS.P\", \"to\": \"V1.P\"}, {\"from\": \"V1.T\", \"to\": \"T1.T\"},"
    "{\"from\": \"V1.A\", \"to\": \"VA.P\"}, {\"from\": \"V1.B\", \"to\": \"VB.P\"},"
    "{\"from\": \"BP1.A\", \"to\": \"VA.P2\"}, {\"from\": \"BP1.B\", \"to\": \"VB.P2\"},"
    "{\"from\": \"BP2.P\", \"to\": \"VA.P3\"},"
    "{\"from\": \"BP1.S\", \"to\": \"K1.U\"}, {\"from\": \"K1.Y\", \"to\": \"V1.U\"}]}");
  guint n = hyd_system_get_n_states (sys);
  g_autofree double *y = g_new0 (double, n);
  for (guint i = 0; i < n; i++)
    {
      const char *name = hyd_system_get_state_name (sys, i);
      y[i] = g_str_has_suffix (name, "xv") ? -1e-4 : g_str_has_suffix (name, "vv") ? 0.02
           : strstr (name, "VA") ? 6e6 : 4.5e6;
    }
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "VA.P.p", "VB.P.p", "V1.xv" };
  Rows r = run (sys, names, 3, 0.5, 1e-3, 1e-7);
  const double *last = ROW (r, N_ROWS (r) - 1);
  g_test_message ("Δp loop: p_A − p_B from 40 bar to %.4g Pa at 0.5 s (x_v = %.3g m)", last[1] - last[2], last[3]);
  g_assert_cmpfloat (fabs (last[1] - last[2]), <, 1e3);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* ------------------------------------------------------- flow sensor */

/* The flow sensor's law, its partials against central differences (the
 * hydraulic ones through the harness, the signal's here), and S = q. */
static void
test_flow_sensor_partials (void)
{
  HydComp *fs = hyd_test_make_comp ("flow_sensor", NULL, NULL);
  double G = 1e-3 / 0.5e5; /* default: 60 L/min at 0.5 bar */
  guint misses = 0;
  static const double pts[][2] = { { 1.2e5, 0.0 }, { 3e6, 3.1e6 }, { 2e7, 1e5 } };
  for (guint k = 0; k < G_N_ELEMENTS (pts); k++)
    {
      double p[3] = { pts[k][0], pts[k][1], 0.0 };
      misses += hyd_test_check_component (fs, 0.0, p, NULL, "flow_sensor");
      double q[3], out[2];
      hyd_test_eval (fs, 0.0, p, NULL, q, NULL, out);
      double s[3] = { 0 }, ds[3 * 3] = { 0 };
      HydEvalIn in = { .t = 0, .p = p };
      fs->type->signals (fs, &in, s, ds, NULL);
      g_assert_cmpfloat (fabs (s[2] - G * (p[0] - p[1])), <=, 1e-15 * fabs (s[2]) + 1e-30);
      g_assert_cmpfloat (s[2], ==, q[0]);
      g_assert_cmpfloat (q[1], ==, -q[0]);
      g_assert_cmpfloat (out[0], ==, s[2]);
      /* the signal's dense row against central differences (the step on
       * the scale of the larger pressure: S cancels p_A against p_B) */
      for (guint c = 0; c < 2; c++)
        {
          double h = 1e-6 * MAX (fabs (p[0]), fabs (p[1])), sp[3] = { 0 }, sm[3] = { 0 }, pp[3], pm[3];
          memcpy (pp, p, sizeof p);
          memcpy (pm, p, sizeof p);
          pp[c] += h;
          pm[c] -= h;
          HydEvalIn ip = { .t = 0, .p = pp }, im = { .t = 0, .p = pm };
          fs->type->signals (fs, &ip, sp, NULL, NULL);
          fs->type->signals (fs, &im, sm, NULL, NULL);
          double D = (sp[2] - sm[2]) / (2 * h);
          g_assert_cmpfloat (fabs (ds[2 * 3 + c] - D), <=, 1e-6 * G);
        }
      g_assert_cmpfloat (ds[2 * 3 + 0], ==, G);
      g_assert_cmpfloat (ds[2 * 3 + 1], ==, -G);
      g_assert_cmpfloat (ds[2 * 3 + 2], ==, 0.0);
    }
  hyd_comp_free (fs);
  g_assert_cmpuint (misses, ==, 0);
}

/* 20 L/min from a flow source through the sensor into a tank: at steady
 * state its reading (the signal's law, S = out q, checked above) is the source's flow and its drop Δp = q/G (the node
 * balance at A: nothing else takes flow there). */
static void
test_flow_sensor_steady (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"Q1\", \"type\": \"flow_source\", \"params\": {\"flow\": 3.3333333333333335e-4}},"
    "{\"id\": \"T1\", \"type\": \"tank\"},"
    "{\"id\": \"BF1\", \"type\": \"flow_sensor\"}],"
    "\"connections\": [{\"from\": \"Q1.P\", \"to\": \"BF1.A\"}, {\"from\": \"BF1.B\", \"to\": \"T1.T\"}]}");
  guint n = hyd_system_get_n_states (sys);
  g_autofree double *y = g_new0 (double, n);
  for (guint i = 0; i < n; i++)
    y[i] = 1e4;
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "BF1.q", "BF1.dp" };
  Rows r = run (sys, names, 2, 1.0, 0.01, 1e-8);
  const double *last = ROW (r, N_ROWS (r) - 1);
  double q = 20e-3 / 60.0, G = 1e-3 / 0.5e5;
  g_test_message ("flow sensor: q = %.10g L/min, Δp = %.8g Pa (q/G = %.8g Pa)", last[1] * 60e3, last[2], q / G);
  g_assert_cmpfloat (fabs (last[1] - q), <, 1e-9 * q);
  g_assert_cmpfloat (fabs (last[2] - q / G), <, 1e-6 * q / G);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* A loop through the sensor: its signal sets a proportional relief
 * valve's setting through a gain (p_set = k·S), downstream of it; the
 * assembled Jacobian (the chain rule through two signal blocks) against
 * central differences, and the steady state: the signal S is the
 * source's 20 L/min, p_A − p_B = q/G, the setting k·q and p_B above it
 * (the valve passes q just above its setting). */
static void
test_flow_sensor_loop (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"Q1\", \"type\": \"flow_source\", \"params\": {\"flow\": 3.3333333333333335e-4}},"
    "{\"id\": \"T1\", \"type\": \"tank\"},"
    "{\"id\": \"VB\", \"type\": \"volume\", \"params\": {\"volume\": 1e-4}},"
    "{\"id\": \"BF1\", \"type\": \"flow_sensor\"},"
    "{\"id\": \"K1\", \"type\": \"t_gain\", \"params\": {\"k\": 1.5e10}},"
    "{\"id\": \"RV1\", \"type\": \"proportional_relief_valve\"}],"
    "\"connections\": [{\"from\": \"Q1.P\", \"to\": \"BF1.A\"}, {\"from\": \"BF1.B\", \"to\": \"VB.P\"},"
    "{\"from\": \"VB.P2\", \"to\": \"RV1.P\"}, {\"from\": \"RV1.T\", \"to\": \"T1.T\"},"
    "{\"from\": \"BF1.S\", \"to\": \"K1.U\"}, {\"from\": \"K1.Y\", \"to\": \"RV1.U\"}]}");
  guint n = hyd_system_get_n_states (sys);
  g_autofree double *y = g_new0 (double, n);
  for (guint i = 0; i < n; i++)
    {
      const char *name = hyd_system_get_state_name (sys, i);
      g_test_message ("state %u: %s", i, name);
      y[i] = strstr (name, "VB") ? 4.8e6 : 5.0e6;
    }
  check_jacobian (sys, 0.0, y);
  for (guint i = 0; i < n; i++)
    y[i] = 2e5 * (i + 1);
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "BF1.S", "BF1.dp", "VB.P.p", "K1.Y" };
  Rows r = run (sys, names, 4, 1.0, 0.01, 1e-8);
  const double *last = ROW (r, N_ROWS (r) - 1);
  double q = 20e-3 / 60.0, G = 1e-3 / 0.5e5;
  g_test_message ("flow-sensor loop: S = %.10g L/min, Δp = %.6g Pa, p_B = %.6g Pa, setting = %.6g Pa",
                  last[1] * 60e3, last[2], last[3], last[4]);
  g_assert_cmpfloat (fabs (last[1] - q), <, 1e-9 * q);
  g_assert_cmpfloat (fabs (last[2] - q / G), <, 1e-6 * q / G);
  g_assert_cmpfloat (fabs (last[4] - 1.5e10 * q), <, 1e-6 * 1.5e10 * q);
  g_assert_cmpfloat (last[3], >=, last[4]);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* ------------------------------------- variable pump from a signal */

static void
test_pump_signal (void)
{
  guint misses = 0;
  HydComp *pump = hyd_test_make_comp ("variable_pump", NULL, "leakage", "1e-12", "fraction", "0.6", NULL);
  hyd_test_set_param_rate (pump, "fraction", 0.3);
  /* ports S, P, shaft (unwired), U */
  double p[4] = { 0.0, 1e7, 0.0, 0.25 }, q[4], xdot[1], out[3];
  misses += hyd_test_check_component (pump, 0.1, p, NULL, "variable_pump, unwired");
  /* unwired: the fraction parameter, as before the input existed */
  double D = pump->par[0], w = pump->par[1];
  hyd_test_eval (pump, 0.1, p, NULL, q, xdot, out);
  g_assert_cmpfloat (fabs (out[0] - (0.6 * D * w - 1e-12 * 1e7)), <, 1e-18);
  wire (pump, 1u << 3);
  static const double us[] = { 0.25, -0.7, 0.995, 1.4 };
  for (guint k = 0; k < G_N_ELEMENTS (us); k++)
    {
      p[3] = us[k];
      misses += hyd_test_check_component (pump, 0.1, p, NULL, "variable_pump, wired");
    }
  p[3] = 0.25;
  hyd_test_eval (pump, 0.1, p, NULL, q, xdot, out);
  g_assert_cmpfloat (fabs (out[0] - (0.25 * D * w - 1e-12 * 1e7)), <, 1e-18);
  p[3] = 1.4; /* limited to the full displacement */
  hyd_test_eval (pump, 0.1, p, NULL, q, xdot, out);
  g_assert_cmpfloat (fabs (out[0] - (D * w - 1e-12 * 1e7)), <, 1e-18);
  hyd_comp_free (pump);
  g_assert_cmpuint (misses, ==, 0);

  /* in a circuit: a ramp signal sets the fraction; the delivered flow
   * follows D·ω·u(t) (no leakage), and the Jacobian's chain rule holds */
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"T1\", \"type\": \"tank\"},"
    "{\"id\": \"VP\", \"type\": \"volume\", \"params\": {\"volume\": 1e-3}},"
    "{\"id\": \"RV1\", \"type\": \"relief_valve\", \"params\": {\"cracking_pressure\": 1e7}},"
    "{\"id\": \"W1\", \"type\": \"t_source\", \"params\": {\"value\": {\"ramp\": {\"points\": [[0, 0.1], [1, 0.9]]}}}},"
    "{\"id\": \"P1\", \"type\": \"variable_pump\", \"params\": {\"fraction\": 1}}],"
    "\"connections\": [{\"from\": \"T1.T\", \"to\": \"P1.S\"}, {\"from\": \"P1.P\", \"to\": \"VP.P\"},"
    "{\"from\": \"VP.P2\", \"to\": \"RV1.P\"}, {\"from\": \"RV1.T\", \"to\": \"T1.T\"},"
    "{\"from\": \"W1.Y\", \"to\": \"P1.U\"}]}");
  double y[1] = { 3e6 };
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 1);
  check_jacobian (sys, 0.4, y);
  const char *names[] = { "P1.flow" };
  Rows r = run (sys, names, 1, 1.0, 0.01, 1e-8);
  double worst = 0, Dw = 10e-6 / (2 * G_PI) * 50 * G_PI;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      worst = MAX (worst, fabs (row[1] - Dw * (0.1 + 0.8 * row[0])));
    }
  g_test_message ("pump fraction from a ramp signal: worst |q − D·ω·u(t)| = %.3g m³/s", worst);
  g_assert_cmpfloat (worst, <, 1e-12);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* ---------------------------------------- proportional relief valve */

static void
test_prop_relief (void)
{
  guint misses = 0;
  HydComp *rv = hyd_test_make_comp ("proportional_relief_valve", NULL, NULL);
  hyd_test_set_param_rate (rv, "setting", 2e6);
  static const double dps[] = { 9e6, 1.03e7, 1.2e7 };
  for (guint k = 0; k < G_N_ELEMENTS (dps); k++)
    {
      double p[3] = { dps[k] + 1e5, 1e5, 0.0 };
      misses += hyd_test_check_component (rv, 0.1, p, NULL, "proportional_relief_valve, unwired");
    }
  wire (rv, 1u << 2);
  for (guint k = 0; k < G_N_ELEMENTS (dps); k++)
    {
      double p[3] = { dps[k], 0.0, 8e6 };
      misses += hyd_test_check_component (rv, 0.1, p, NULL, "proportional_relief_valve, wired");
    }
  hyd_comp_free (rv);
  g_assert_cmpuint (misses, ==, 0);

  /* a flow source of 60 L/min into a volume relieved by the valve
   * set to 80 bar by a signal: the pressure settles where
   * q_in = q_nom·(z − 0.005)·√(Δp/(p_max + p_o)), z = (Δp − p_set)/p_o
   * (turbulent; soft_ramp(z, 0.01) = z − 0.005 for z ≥ 0.01) */
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"T1\", \"type\": \"tank\"},"
    "{\"id\": \"Q1\", \"type\": \"flow_source\", \"params\": {\"flow\": 1e-3}},"
    "{\"id\": \"VP\", \"type\": \"volume\", \"params\": {\"volume\": 1e-4}},"
    "{\"id\": \"W1\", \"type\": \"t_source\", \"params\": {\"value\": 8e6}},"
    "{\"id\": \"RV1\", \"type\": \"proportional_relief_valve\"}],"
    "\"connections\": [{\"from\": \"Q1.P\", \"to\": \"VP.P\"},"
    "{\"from\": \"VP.P2\", \"to\": \"RV1.P\"}, {\"from\": \"RV1.T\", \"to\": \"T1.T\"},"
    "{\"from\": \"W1.Y\", \"to\": \"RV1.U\"}]}");
  double y[1] = { 8.2e6 };
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "VP.P.p" };
  Rows r = run (sys, names, 1, 0.5, 0.01, 1e-8);
  double qn = 100e-3 / 60.0, lo = 8e6, hi = 9e6;
  for (int it = 0; it < 200; it++)
    {
      double mid = 0.5 * (lo + hi);
      /* soft_ramp(z, 0.01) = z − 0.005 once open */
      double qq = qn * ((mid - 8e6) / 1e6 - 0.005) * sqrt (mid / 2.1e7);
      if (qq < 1e-3)
        lo = mid;
      else
        hi = mid;
    }
  double p_end = ROW (r, N_ROWS (r) - 1)[1];
  g_test_message ("proportional relief set to 80 bar by a signal, 60 L/min: p = %.6g Pa "
                  "(the static law: %.6g Pa)", p_end, lo);
  g_assert_cmpfloat (fabs (p_end - lo), <, 1e-4 * lo);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}


/* ------------------------------------------- the Position Servo example */

/* Runs a circuit (JSON text) with its own settings and returns C1.x and
 * V1.xv at its output interval. */
static Rows
run_text (const char *json)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "position-servo.bramah", &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  HydSimOptions sim;
  g_assert_true (hyd_circuit_get_sim_options (circuit, &sim, NULL));
  int vars[2] = { hyd_system_find_variable (sys, "C1.x"), hyd_system_find_variable (sys, "V1.xv") };
  g_assert_cmpint (vars[0], >=, 0);
  g_assert_cmpint (vars[1], >=, 0);
  Rows r = { g_array_new (FALSE, FALSE, sizeof (double)), 0 };
  HydRunSpec spec = { .sim = &sim, .vars = vars, .n_vars = 2, .sample = hyd_test_keep_row, .user = &r };
  HydOdeResult res = { 0 };
  if (hyd_run_execute (sys, &spec, &res, NULL) != HYD_ODE_SUCCESS)
    g_error ("run failed: %s", res.message);
  hyd_ode_result_clear (&res);
  hyd_sim_options_clear (&sim);
  hyd_system_free (sys);
  return r;
}

typedef struct {
  double mean, lo, hi, period;
} Band;

/* Mean, extremes and the mean period of the crossings of `ref` over [t0, t1]. */
static Band
band (Rows r, double t0, double t1, double ref)
{
  Band b = { 0, INFINITY, -INFINITY, NAN };
  double sum = 0, first = NAN, last = NAN;
  guint n = 0, crossings = 0;
  for (guint i = 1; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i), *prev = ROW (r, i - 1);
      if (row[0] < t0 || row[0] > t1)
        continue;
      sum += row[1];
      n++;
      b.lo = MIN (b.lo, row[1]);
      b.hi = MAX (b.hi, row[1]);
      if ((prev[1] - ref) * (row[1] - ref) < 0)
        {
          if (crossings == 0)
            first = row[0];
          last = row[0];
          crossings++;
        }
    }
  b.mean = sum / n;
  if (crossings > 1)
    b.period = 2 * (last - first) / (crossings - 1);
  return b;
}

static double
first_time_above (Rows r, double t0, double level)
{
  for (guint i = 0; i < N_ROWS (r); i++)
    if (ROW (r, i)[0] > t0 && ROW (r, i)[1] > level)
      return ROW (r, i)[0];
  return NAN;
}

/* data/examples/position-servo.bramah, Hopsan's "Position Servo" rebuilt.
 * Checks: (1) the PI loop's zero steady-state error, as a mean — the load
 * hunts about the set-point on its undamped oil column, as Hopsan's does —
 * within 2 mm of 0.2 m over 0.3–1 s and of 0.7 m over 2.5–3 s; (2) against
 * Hopsan's own reference data (its example-model validation "Position
 * Servo.hvd", Hopsan 0.7): the times to 0.25 m (1.0318 s) and 0.65 m
 * (1.0787 s) within 5 ms, the overshoot (0.8115 m) within 5 mm, the hunting
 * band over 2.5–3 s (0.6887–0.7130 m) within 3 mm at each end and its
 * period (43.3 ms, from the crossings of 0.7 m over 1.3–3 s) within 10 %;
 * (3) damped by 3 kN·s/m of cylinder friction the hunting stops (band
 * under 0.1 mm over 2.5–3 s) and the load rests within the overlap's dead
 * band, ±x_o/k_p = ±3.8 mm, of 0.7 m. */
static void
test_position_servo (void)
{
  g_autofree char *path = g_build_filename (HYD_TEST_DATA_DIR, "examples", "position-servo.bramah", NULL);
  g_autofree char *json = NULL;
  g_assert_true (g_file_get_contents (path, &json, NULL, NULL));
  Rows r = run_text (json);
  Band low = band (r, 0.3, 1.0, 0.2), high = band (r, 2.5, 3.0, 0.7), cyc = band (r, 1.3, 3.0, 0.7);
  double t25 = first_time_above (r, 1.0, 0.25), t65 = first_time_above (r, 1.0, 0.65);
  double peak = -INFINITY;
  for (guint i = 0; i < N_ROWS (r); i++)
    peak = MAX (peak, ROW (r, i)[1]);
  g_test_message ("position servo: mean %.5f m over 0.3–1 s (%.4f–%.4f), %.5f m over 2.5–3 s (%.4f–%.4f; "
                  "Hopsan 0.7007, 0.6887–0.7130), period %.1f ms (Hopsan 43.3); 0.25 m at %.4f s (1.0318), "
                  "0.65 m at %.4f s (1.0787), peak %.4f m (0.8115)",
                  low.mean, low.lo, low.hi, high.mean, high.lo, high.hi, 1e3 * cyc.period, t25, t65, peak);
  g_assert_cmpfloat (fabs (low.mean - 0.2), <, 2e-3);
  g_assert_cmpfloat (fabs (high.mean - 0.7), <, 2e-3);
  g_assert_cmpfloat (fabs (t25 - 1.0318), <, 5e-3);
  g_assert_cmpfloat (fabs (t65 - 1.0787), <, 5e-3);
  g_assert_cmpfloat (fabs (peak - 0.8115), <, 5e-3);
  g_assert_cmpfloat (fabs (high.lo - 0.6887), <, 3e-3);
  g_assert_cmpfloat (fabs (high.hi - 0.7130), <, 3e-3);
  g_assert_cmpfloat (fabs (cyc.period - 0.0433), <, 0.1 * 0.0433);
  g_array_unref (r.rows);

  /* damped: the file with 3 kN·s/m of viscous friction in the cylinder */
  g_autofree char *damped = NULL;
  {
    g_auto (GStrv) parts = g_strsplit (json, "\"viscous_friction\": 0,", 2);
    g_assert_cmpuint (g_strv_length (parts), ==, 2);
    damped = g_strjoin ("\"viscous_friction\": 3000,", parts[0], parts[1], NULL);
  }
  Rows d = run_text (damped);
  Band still = band (d, 2.5, 3.0, 0.7);
  g_test_message ("with 3 kN·s/m: %.5f m over 2.5–3 s (%.5f–%.5f)", still.mean, still.lo, still.hi);
  g_assert_cmpfloat (still.hi - still.lo, <, 1e-4);
  g_assert_cmpfloat (fabs (still.mean - 0.7), <, 1e-4 / 0.0264249);
  g_array_unref (d.rows);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (hyd_catalogue_register_test_type (&t_source));
  g_assert_true (hyd_catalogue_register_test_type (&t_gain));
  g_test_add_func ("/engine/servo/valve-partials", test_servo_partials);
  g_test_add_func ("/engine/servo/valve-gains-at-null", test_servo_gains);
  g_test_add_func ("/engine/servo/spool-step", test_servo_step);
  g_test_add_func ("/engine/servo/saturation", test_servo_saturation);
  g_test_add_func ("/engine/servo/transducers", test_transducers);
  g_test_add_func ("/engine/servo/transducer-loop", test_transducer_loop);
  g_test_add_func ("/engine/servo/flow-sensor/partials", test_flow_sensor_partials);
  g_test_add_func ("/engine/servo/flow-sensor/steady", test_flow_sensor_steady);
  g_test_add_func ("/engine/servo/flow-sensor/loop", test_flow_sensor_loop);
  g_test_add_func ("/engine/servo/pump-signal", test_pump_signal);
  g_test_add_func ("/engine/servo/proportional-relief", test_prop_relief);
  g_test_add_func ("/engine/servo/position-servo-example", test_position_servo);
  return g_test_run ();
}
