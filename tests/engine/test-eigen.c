/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-eigen.c — the spectrum of the Jacobian (engine/analysis/hyd-eigen.c)
 * against eigenvalues worked out by hand for small circuits, participation
 * factors, and which eigenvalues count as zero. */
#include <math.h>
#include <string.h>

#include "hyd-circuit.h"
#include "hyd-eigen.h"
#include "hyd-linearize.h"
#include "hyd-system.h"

static HydSystem *
compile_json (const char *json)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "test.bramah", &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  return sys;
}

static HydSpectrum *
spectrum_at_start (HydSystem *sys)
{
  guint n = hyd_system_get_n_states (sys);
  g_autofree double *J = g_new0 (double, (gsize) n * n);
  g_assert_cmpint (hyd_system_jacobian (sys, 0.0, hyd_system_get_initial_state (sys), J, NULL), ==, 0);
  g_autoptr (GError) error = NULL;
  HydSpectrum *s = hyd_spectrum_compute (J, n, &error);
  g_assert_no_error (error);
  return s;
}

static gboolean
has_component (GPtrArray *ids, const char *id)
{
  for (guint k = 0; k < ids->len; k++)
    if (strcmp (g_ptr_array_index (ids, k), id) == 0)
      return TRUE;
  return FALSE;
}

#define HEAD "{\"format\": \"bramah-circuit\", \"version\": 2, \"fluid\": {\"bulk_modulus_model\": \"constant\"}, "

/* A pressure source at 100 bar feeds a closed 1 L volume at 50 bar through
 * an orifice of 1 mm (wires of no volume). One state, the volume's
 * pressure: ṗ = (β/V)·Q(p_s − p) with the turbulent orifice law
 * Q = C_d·A·√(2Δp/ρ) (50 bar is far above the laminar transition), so
 *   λ = −(∂Q/∂Δp)·β/V = −C_d·A/√(2ρΔp)·β/V. */
static void
test_orifice_volume (void)
{
  g_autoptr (HydSystem) sys = compile_json (
    HEAD "\"components\": ["
    "{\"id\": \"PS1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 1e7}},"
    "{\"id\": \"OR1\", \"type\": \"orifice\", \"params\": {\"diameter\": 0.001}},"
    "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"volume\": 0.001, \"initial_pressure\": 5e6}}],"
    "\"connections\": ["
    "{\"from\": \"PS1.P\", \"to\": \"OR1.A\", \"length\": 0},"
    "{\"from\": \"OR1.B\", \"to\": \"V1.P\", \"length\": 0}]}");
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 1);
  const HydFluid *fl = hyd_system_get_fluid (sys);
  double A = G_PI / 4 * 1e-6, dp = 5e6, V = 1e-3;
  double expect = -fl->discharge_coefficient * A / sqrt (2 * fl->density * dp) * fl->bulk_modulus / V;
  g_autoptr (HydSpectrum) s = spectrum_at_start (sys);
  g_test_message ("lambda = %.12g, by hand %.12g", s->re[0], expect);
  g_assert_cmpfloat_with_epsilon (s->re[0] / expect, 1.0, 1e-9);
  g_assert_cmpfloat (s->im[0], ==, 0.0);
  g_assert_false (s->zero[0]);
  g_assert_cmpfloat_with_epsilon (s->participation[0], 1.0, 1e-12);
  /* the node's state belongs to the components on the node */
  g_autoptr (GPtrArray) ids = hyd_system_state_components (sys, 0);
  g_assert_cmpuint (ids->len, ==, 2);
  g_assert_true (has_component (ids, "OR1"));
  g_assert_true (has_component (ids, "V1"));
  g_assert_nonnull (hyd_system_state_node (sys, 0));
  /* forward Euler's limit for a real eigenvalue: 2/|λ| */
  g_assert_cmpfloat_with_epsilon (hyd_spectrum_euler_step_limit (s, 0) * -expect / 2, 1.0, 1e-9);
}

/* A mass on an oil column: a single-acting cylinder (bore 50 mm, no
 * spring, viscous friction b = 500 N·s/m, mass m = 100 kg) at mid-stroke,
 * at rest, its cap chamber joined to a closed 1 L volume at 50 bar, the
 * load balancing the pressure. States p, x, v:
 *   ṗ = −(β/V)·A·v,  ẋ = v,  m·v̇ = p·A − F_load − b·v,
 * with V = V_0A + A·x + 1 L, so det(λI − J) = λ·(λ² + (b/m)·λ + β·A²/(V·m)):
 * λ = 0 (x) and a pair with ω_n = √(β·A²/(V·m)), ζ = b/(2·√(m·β·A²/V))
 * (Merritt 1967, Hydraulic Control Systems, §5.2). */
static void
test_mass_oil_column (void)
{
  g_autoptr (HydSystem) sys = compile_json (
    HEAD "\"components\": ["
    "{\"id\": \"C1\", \"type\": \"cylinder_single\", \"params\": {\"piston_diameter\": 0.05,"
    " \"stroke\": 0.5, \"dead_volume_a\": 5e-5, \"mass\": 100, \"viscous_friction\": 500,"
    " \"spring_stiffness\": 0, \"spring_preload\": 0, \"initial_position\": 0.25,"
    " \"load_force\": 9817.477042468104}},"
    "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"volume\": 0.001, \"initial_pressure\": 5e6}}],"
    "\"connections\": [{\"from\": \"C1.A\", \"to\": \"V1.P\", \"length\": 0}]}");
  const HydFluid *fl = hyd_system_get_fluid (sys);
  double A = G_PI / 4 * 0.05 * 0.05, m = 100, b = 500;
  double V = 5e-5 + A * 0.25 + 1e-3;
  double kh = fl->bulk_modulus * A * A / V;
  double wn = sqrt (kh / m), zeta = b / (2 * sqrt (m * kh));
  guint n = hyd_system_get_n_states (sys);
  g_autoptr (HydSpectrum) s = spectrum_at_start (sys);
  int pair = -1;
  guint n_zero = 0;
  for (guint i = 0; i < n; i++)
    {
      g_test_message ("lambda%u = %.12g %+.12gi%s", i, s->re[i], s->im[i], s->zero[i] ? " (zero)" : "");
      if (s->im[i] > 0)
        pair = (int) i;
      n_zero += s->zero[i];
    }
  g_assert_cmpint (pair, >=, 0);
  g_assert_cmpuint (n_zero, ==, 1);
  double got_wn = hypot (s->re[pair], s->im[pair]), got_zeta = -s->re[pair] / got_wn;
  g_test_message ("omega_n = %.12g (by hand %.12g), zeta = %.12g (by hand %.12g)", got_wn, wn, got_zeta, zeta);
  g_assert_cmpfloat_with_epsilon (got_wn / wn, 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (got_zeta / zeta, 1.0, 1e-9);
  /* the pair is the pressure and the velocity, half and half (an
   * undamped oscillator shares its energy equally); not the position */
  const double *p = s->participation + (gsize) pair * n;
  for (guint k = 0; k < n; k++)
    {
      const char *name = hyd_system_get_state_name (sys, k);
      g_test_message ("participation of %s: %.6f", name, p[k]);
      if (strcmp (name, "C1.x") == 0)
        g_assert_cmpfloat (p[k], <, 0.01);
      else if (strcmp (name, "C1.v") == 0 || hyd_system_state_node (sys, k) != NULL)
        g_assert_cmpfloat (fabs (p[k] - 0.5), <, 0.01);
    }
  /* its conjugate has the same participation */
  g_assert_cmpfloat (s->im[pair + 1], ==, -s->im[pair]);
  for (guint k = 0; k < n; k++)
    g_assert_cmpfloat_with_epsilon (s->participation[k + (gsize) (pair + 1) * n], p[k], 1e-12);
  /* forward Euler's limit for the pair: −2·Re λ/|λ|² = 2ζ/ω_n */
  g_assert_cmpfloat_with_epsilon (hyd_spectrum_euler_step_limit (s, pair) / (2 * zeta / wn), 1.0, 1e-8);
}

/* Zero eigenvalues are no modes: J = [−a a 0; a −a 0; 0 0 −c] conserves
 * y₀ + y₁ (λ = 0, which dgeev returns at rounding level) and has λ = −2a,
 * −c: the ratio is 2a/c, not 2a/1e-16. */
static void
test_zero_not_counted (void)
{
  const double a = 3.7e4, c = 1.3;
  const double J[9] = { -a, a, 0, a, -a, 0, 0, 0, -c };
  g_autoptr (GError) error = NULL;
  g_autoptr (HydSpectrum) s = hyd_spectrum_compute (J, 3, &error);
  g_assert_no_error (error);
  guint n_zero;
  double ratio = hyd_spectrum_stiffness_ratio (s, &n_zero);
  g_assert_cmpuint (n_zero, ==, 1);
  g_assert_cmpfloat_with_epsilon (ratio / (2 * a / c), 1.0, 1e-12);
  for (guint i = 0; i < 3; i++)
    if (s->zero[i])
      g_assert_true (isinf (hyd_spectrum_euler_step_limit (s, i)));
  /* a double eigenvalue (a Jacobian's Jordan block: two equal spool lags in
   * series) is ill-conditioned (s_i → 0) but nowhere near zero */
  const double jordan[9] = { -200, 0, 0, 1e6, -200, 0, 0, 0, -1e4 };
  g_autoptr (HydSpectrum) sj = hyd_spectrum_compute (jordan, 3, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 3; i++)
    g_assert_false (sj->zero[i]);
  g_assert_cmpfloat_with_epsilon (hyd_spectrum_stiffness_ratio (sj, NULL) / 50.0, 1.0, 1e-6);
  /* a Jacobian with a NaN is refused, naming where */
  double bad[4] = { -1, 0, NAN, -2 };
  g_autoptr (GError) e2 = NULL;
  g_autoptr (HydSpectrum) none = hyd_spectrum_compute (bad, 2, &e2);
  g_assert_null (none);
  g_assert_error (e2, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_NUMERIC);
  g_assert_nonnull (strstr (e2->message, "row 0, column 1"));
}

/* motor-relief (data/examples): the stiffness ratio at t = 0 is of order
 * 1e4 (2 eigenvalues zero within rounding: the shaft angle and the oil
 * of the closed motor loop), not the 1e19 an eigenvalue of 1e-15 made. */
static void
test_motor_relief_ratio (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit =
    hyd_circuit_load_from_file (HYD_TEST_DATA_DIR "/examples/motor-relief.bramah", &error);
  g_assert_no_error (error);
  g_autoptr (HydSystem) sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  g_autoptr (HydSpectrum) s = spectrum_at_start (sys);
  guint n_zero;
  double ratio = hyd_spectrum_stiffness_ratio (s, &n_zero);
  g_test_message ("stiffness ratio %g, %u zero", ratio, n_zero);
  g_assert_cmpfloat (ratio, >, 1e3);
  g_assert_cmpfloat (ratio, <, 1e5);
  g_assert_cmpuint (n_zero, ==, 2);
}

/* meter-in-meter-out (data/examples) at t = 1 s: its cylinders' positions
 * feed back only through flow balances that are zero at rest up to
 * rounding (Q − A·v), which made eigenvalues of ±4e-8 1/s (τ of 800
 * years, one of them "growing") and a stiffness ratio of 2.8e12 under
 * LAPACK's bound alone (‖J̃‖₁ = 1.5e5 after balancing, ‖J‖₁ = 1.1e10).
 * Nothing in a circuit of seconds decays over 10⁶ s: no mode counted may be
 * that slow, and the ratio is below 1e6. */
static void
test_rounding_of_the_jacobian (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit =
    hyd_circuit_load_from_file (HYD_TEST_DATA_DIR "/examples/meter-in-meter-out.bramah", &error);
  g_assert_no_error (error);
  g_autoptr (HydSystem) sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  g_auto (HydSimOptions) sim = { 0 };
  g_assert_true (hyd_circuit_get_sim_options (circuit, &sim, &error));
  g_autoptr (HydOperatingPoint) op = hyd_operating_point_run (sys, &sim, 1.0, NULL, &error);
  g_assert_no_error (error);
  guint n = op->n;
  g_autofree double *J = g_new0 (double, (gsize) n * n);
  g_assert_cmpint (hyd_system_jacobian (sys, op->t, op->y, J, NULL), ==, 0);
  g_autoptr (HydSpectrum) s = hyd_spectrum_compute (J, n, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      g_test_message ("lambda %u = %.6g %+.6gi%s (bound %.3g)", i, s->re[i], s->im[i], s->zero[i] ? " zero" : "",
                      s->bound[i]);
      if (!s->zero[i])
        g_assert_cmpfloat (hypot (s->re[i], s->im[i]), >, 1e-6);
    }
  double ratio = hyd_spectrum_stiffness_ratio (s, NULL);
  g_test_message ("stiffness ratio %g", ratio);
  g_assert_cmpfloat (ratio, <, 1e6);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/eigen/orifice-into-volume", test_orifice_volume);
  g_test_add_func ("/analysis/eigen/mass-on-oil-column", test_mass_oil_column);
  g_test_add_func ("/analysis/eigen/zero-not-counted", test_zero_not_counted);
  g_test_add_func ("/analysis/eigen/motor-relief-ratio", test_motor_relief_ratio);
  g_test_add_func ("/analysis/eigen/rounding-of-the-jacobian", test_rounding_of_the_jacobian);
  return g_test_run ();
}
