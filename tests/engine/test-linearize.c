/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-linearize.c — the linear model of one input and one output
 * (engine/analysis/hyd-linearize.c) against a cylinder worked by hand: its
 * hydraulic natural frequency is the resonance peak of the Bode plot, the
 * frequency response and the step response are those of the second-order
 * system, the operating point is reached by a run. */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "hyd-circuit.h"
#include "hyd-eigen.h"
#include "hyd-linearize.h"
#include "hyd-system.h"

/* A cylinder with equal areas (bore 50 mm, no rod: A_A = A_B = A), mass
 * m = 100 kg, viscous friction b = 20 N·s/m, at x0 = 0.2 m of a 0.5 m
 * stroke, both chambers closed by volumes of 0.5 L and 1 L at 50 bar
 * (wires of no volume), constant bulk modulus. Input: the load force F
 * (positive opposes extension); output: x. With
 * k_h = β·A²·(1/V_A + 1/V_B),  V_A = V_0A + A·x0 + 0.5 L,
 * V_B = V_0B + A·(stroke − x0) + 1 L, the model is
 *   (m·s² + b·s + k_h)·x = −F,
 * its natural frequency ω_h = √(k_h/m) (Merritt 1967, Hydraulic Control
 * Systems, §5.2). The load force is a step profile, to check that the
 * linearisation leaves the parameter at its value at t. */
static const char *cylinder_json =
  "{\"format\": \"bramah-circuit\", \"version\": 2, \"fluid\": {\"bulk_modulus_model\": \"constant\"},"
  " \"simulation\": {\"t_end\": 1},"
  " \"components\": ["
  "{\"id\": \"C1\", \"type\": \"cylinder_double\", \"params\": {\"piston_diameter\": 0.05,"
  " \"rod_diameter\": 0, \"stroke\": 0.5, \"dead_volume_a\": 5e-5, \"dead_volume_b\": 5e-5,"
  " \"mass\": 100, \"viscous_friction\": 20, \"initial_position\": 0.2,"
  " \"load_force\": {\"step\": {\"times\": [5], \"values\": [0, 100]}}}},"
  "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"volume\": 5e-4, \"initial_pressure\": 5e6}},"
  "{\"id\": \"V2\", \"type\": \"volume\", \"params\": {\"volume\": 1e-3, \"initial_pressure\": 5e6}}],"
  " \"connections\": [{\"from\": \"C1.A\", \"to\": \"V1.P\", \"length\": 0},"
  " {\"from\": \"C1.B\", \"to\": \"V2.P\", \"length\": 0}]}";

typedef struct {
  HydCircuit *circuit;
  HydSystem *sys;
  HydSimOptions sim;
  double m, b, kh, wn, zeta;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  f->circuit = hyd_circuit_load_from_data (cylinder_json, -1, "test.bramah", &error);
  g_assert_no_error (error);
  f->sys = hyd_system_compile (f->circuit, &error);
  g_assert_no_error (error);
  g_assert_true (hyd_circuit_get_sim_options (f->circuit, &f->sim, &error));
  double beta = hyd_system_get_fluid (f->sys)->bulk_modulus;
  double A = G_PI / 4 * 0.05 * 0.05;
  double VA = 5e-5 + A * 0.2 + 5e-4, VB = 5e-5 + A * 0.3 + 1e-3;
  f->m = 100;
  f->b = 20;
  f->kh = beta * A * A * (1 / VA + 1 / VB);
  f->wn = sqrt (f->kh / f->m);
  f->zeta = f->b / (2 * sqrt (f->m * f->kh));
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  hyd_system_free (f->sys);
  hyd_circuit_free (f->circuit);
  hyd_sim_options_clear (&f->sim);
}

static HydLinearModel *
linearize_at (Fixture *f, double t, HydOperatingPoint **op_out)
{
  g_autoptr (GError) error = NULL;
  HydOperatingPoint *op = hyd_operating_point_run (f->sys, &f->sim, t, NULL, &error);
  g_assert_no_error (error);
  HydLinearModel *m = hyd_linearize (f->sys, &f->sim, op->t, op->y, "C1", "load_force", "C1.x", &error);
  g_assert_no_error (error);
  if (op_out)
    *op_out = op;
  else
    hyd_operating_point_free (op);
  return m;
}

/* The teaching case: the largest |G| on a Bode grid of 2001 frequencies
 * from 10 to 100 Hz (a ratio of 1.00115 between neighbours) lies within
 * 0.2 % of f_h = ω_h/2π (the peak of a second-order system is at
 * ω_h·√(1 − 2ζ²), here 0.003 % lower). */
static void
test_resonance_peak (Fixture *f, gconstpointer data)
{
  g_autoptr (HydLinearModel) m = linearize_at (f, 0.0, NULL);
  const guint N = 2001;
  double fmin = 10, fmax = 100, best = -1, f_peak = NAN;
  for (guint k = 0; k < N; k++)
    {
      double fr = fmin * pow (fmax / fmin, (double) k / (N - 1)), re, im;
      g_assert_true (hyd_linear_model_response (m, 2 * G_PI * fr, &re, &im));
      if (hypot (re, im) > best)
        {
          best = hypot (re, im);
          f_peak = fr;
        }
    }
  double fh = f->wn / (2 * G_PI);
  g_test_message ("Bode peak at %.6f Hz, hydraulic natural frequency %.6f Hz (zeta %.5f)", f_peak, fh, f->zeta);
  g_assert_cmpfloat (fabs (f_peak / fh - 1), <, 2e-3);
}

/* G(jω) = −1/(k_h − m·ω² + j·b·ω) at frequencies around ω_h, to 1e-6
 * relative (B is a central difference, exact up to rounding for a force
 * that enters linearly); the input and output values at the point. */
static void
test_frequency_response (Fixture *f, gconstpointer data)
{
  g_autoptr (HydLinearModel) m = linearize_at (f, 0.0, NULL);
  g_assert_cmpfloat (m->u0, ==, 0.0);
  g_assert_cmpfloat_with_epsilon (m->y0, 0.2, 1e-15);
  const double ratios[] = { 0.01, 0.3, 0.9, 1.0, 1.1, 3.0, 30.0 };
  for (guint k = 0; k < G_N_ELEMENTS (ratios); k++)
    {
      double w = ratios[k] * f->wn, re, im;
      g_assert_true (hyd_linear_model_response (m, w, &re, &im));
      double complex want = -1.0 / (f->kh - f->m * w * w + I * f->b * w);
      double err = cabs ((re + I * im) - want) / cabs (want);
      g_test_message ("omega/omega_h = %g: |G| %.9g, by hand %.9g, relative error %.2g", ratios[k],
                      hypot (re, im), cabs (want), err);
      g_assert_cmpfloat (err, <, 1e-6);
    }
  /* the parameter keeps its value at t (0: the step comes at 5 s) */
  g_assert_cmpuint (hyd_system_get_n_states (f->sys), >, 0);
}

/* The poles: the pair ω_h, ζ; the two conserved quantities (the oil of the
 * two closed chambers, and p_A − p_B with x) give two zero eigenvalues,
 * which neither the force reaches (uncontrollable): they are the two
 * invariant zeros, at 0 within rounding, and the transfer function has no
 * other finite zero. */
static void
test_poles_zeros (Fixture *f, gconstpointer data)
{
  g_autoptr (HydLinearModel) m = linearize_at (f, 0.0, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (HydSpectrum) s = hyd_spectrum_compute (m->A, m->n, &error);
  g_assert_no_error (error);
  guint n_zero = 0, n_pair = 0;
  for (guint i = 0; i < s->n; i++)
    if (s->zero[i])
      n_zero++;
    else
      {
        double wn = hypot (s->re[i], s->im[i]);
        g_assert_cmpfloat_with_epsilon (wn / f->wn, 1.0, 1e-9);
        g_assert_cmpfloat_with_epsilon (-s->re[i] / wn / f->zeta, 1.0, 1e-9);
        n_pair++;
      }
  g_assert_cmpuint (n_zero, ==, 2);
  g_assert_cmpuint (n_pair, ==, 2);
  g_autofree double *zr = NULL, *zi = NULL;
  int nz = hyd_linear_model_zeros (m, &zr, &zi, &error);
  g_assert_no_error (error);
  g_assert_cmpint (nz, ==, 2);
  for (int k = 0; k < nz; k++)
    {
      g_test_message ("zero %d: %.3g %+.3gi", k, zr[k], zi[k]);
      g_assert_cmpfloat (hypot (zr[k], zi[k]), <, 1e-6 * f->wn);
    }
}

/* The step response of the linear model to a 1 N step of F:
 * x(t) − x0 = −(1/k_h)·[1 − e^{−ζω_h t}·(cos ω_d t + ζ/√(1−ζ²)·sin ω_d t)],
 * ω_d = ω_h·√(1 − ζ²), over 20 periods in 4000 steps, to 1e-6 of 1/k_h. */
static void
test_step_response (Fixture *f, gconstpointer data)
{
  g_autoptr (HydLinearModel) m = linearize_at (f, 0.0, NULL);
  const guint N = 4000;
  double T = 20 * 2 * G_PI / f->wn;
  g_autofree double *y = g_new (double, N + 1);
  g_autoptr (GError) error = NULL;
  g_assert_true (hyd_linear_model_step_response (m, T, N, y, &error));
  g_assert_no_error (error);
  double wd = f->wn * sqrt (1 - f->zeta * f->zeta), worst = 0;
  for (guint k = 0; k <= N; k++)
    {
      double t = T * k / N;
      double want = -(1 / f->kh) * (1 - exp (-f->zeta * f->wn * t)
                                          * (cos (wd * t) + f->zeta / sqrt (1 - f->zeta * f->zeta) * sin (wd * t)));
      worst = MAX (worst, fabs (y[k] - want) * f->kh);
    }
  g_test_message ("largest error of the step response: %.2g of 1/k_h", worst);
  g_assert_cmpfloat (worst, <, 1e-6);
}

/* At t = 0.5 s of a run the cylinder is still at rest (balanced, the force
 * step comes at 5 s): the same model; the run reports its last accepted
 * step, a positive step below 0.5 s; the parameter is restored. */
static void
test_after_run (Fixture *f, gconstpointer data)
{
  HydOperatingPoint *op_raw = NULL;
  g_autoptr (HydLinearModel) m = linearize_at (f, 0.5, &op_raw);
  g_autoptr (HydOperatingPoint) op = op_raw;
  g_assert_cmpfloat (op->t, ==, 0.5);
  g_assert_true (op->h_last > 0 && op->h_last < 0.5);
  g_assert_cmpuint (op->steps, >, 0);
  g_assert_cmpfloat_with_epsilon (m->y0, 0.2, 1e-9);
  double re, im;
  g_assert_true (hyd_linear_model_response (m, 0.5 * f->wn, &re, &im));
  double complex want = -1.0 / (f->kh - f->m * 0.25 * f->wn * f->wn + I * f->b * 0.5 * f->wn);
  g_assert_cmpfloat (cabs ((re + I * im) - want) / cabs (want), <, 1e-6);
  /* the load force is back at its value at 0.5 s */
  double old;
  g_autoptr (GError) error = NULL;
  g_assert_true (hyd_system_override_param (f->sys, 0.5, "C1", "load_force", 0.0, &old, NULL, &error));
  g_assert_cmpfloat (old, ==, 0.0);
}

/* A file's fixed step is its own solver's (rk4 here): the default solver
 * the operating point runs with adapts its step (at rest it grows to the
 * maximum step, t_end/10), so the step it reports is its own. */
static void
test_fixed_step_not_imposed (void)
{
  g_autofree char *json = g_strdup (cylinder_json);
  char *at = strstr (json, "\"simulation\": {\"t_end\": 1}");
  g_assert_nonnull (at);
  g_autofree char *edited = g_strdup_printf ("%.*s\"simulation\": {\"t_end\": 1, \"solver\": \"rk4\", "
                                             "\"fixed_step\": 0.001}%s",
                                             (int) (at - json), json, at + strlen ("\"simulation\": {\"t_end\": 1}"));
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (edited, -1, "test.bramah", &error);
  g_assert_no_error (error);
  g_autoptr (HydSystem) sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  g_auto (HydSimOptions) sim = { 0 };
  g_assert_true (hyd_circuit_get_sim_options (circuit, &sim, &error));
  g_assert_cmpfloat (sim.fixed_step, ==, 0.001);
  g_autoptr (HydOperatingPoint) op = hyd_operating_point_run (sys, &sim, 0.5, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("%s: last step %g s in %" G_GUINT64_FORMAT " steps", op->solver, op->h_last, op->steps);
  g_assert_cmpstr (op->solver, ==, "rodas4");
  g_assert_cmpfloat (op->h_last, >, 0.002);
}

/* Requests that cannot be met name what is wrong. */
static void
test_bad_requests (Fixture *f, gconstpointer data)
{
  const double *y = hyd_system_get_initial_state (f->sys);
  g_autoptr (GError) e1 = NULL, e2 = NULL, e3 = NULL;
  g_autoptr (HydLinearModel) m1 = hyd_linearize (f->sys, &f->sim, 0, y, "C1", "load_force", "C1.nosuch", &e1);
  g_assert_null (m1);
  g_assert_error (e1, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_REQUEST);
  g_assert_nonnull (strstr (e1->message, "C1.nosuch"));
  g_autoptr (HydLinearModel) m2 = hyd_linearize (f->sys, &f->sim, 0, y, "C9", "load_force", "C1.x", &e2);
  g_assert_null (m2);
  g_assert_nonnull (strstr (e2->message, "C9"));
  g_autoptr (HydOperatingPoint) op = hyd_operating_point_run (f->sys, &f->sim, 0.1, "nosuch", &e3);
  g_assert_null (op);
  g_assert_error (e3, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_REQUEST);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/analysis/linearize/cylinder/resonance-peak", test_resonance_peak);
  ADD ("/analysis/linearize/cylinder/frequency-response", test_frequency_response);
  ADD ("/analysis/linearize/cylinder/poles-zeros", test_poles_zeros);
  ADD ("/analysis/linearize/cylinder/step-response", test_step_response);
  ADD ("/analysis/linearize/cylinder/after-run", test_after_run);
  ADD ("/analysis/linearize/bad-requests", test_bad_requests);
  g_test_add_func ("/analysis/linearize/fixed-step-not-imposed", test_fixed_step_not_imposed);
  return g_test_run ();
}
