/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-electro-examples.c — the electro-hydraulic examples of
 * data/examples (electro-*.bramah) run end to end and checked against hand
 * calculation from their own parameters (read from the files, never
 * written here): the times of each step of the A+ B+ B− A− sequence and of
 * the continuous reciprocation from the pump flow, the piston and annulus
 * areas, the stroke, the limit switches' points and the valves' switching
 * time; self-holding latching and releasing at the scripted presses, and
 * dominant off; the direct and the indirect control moving alike; the
 * return when the cap pressure reaches the pressure switch's setting
 * (force = p·A at that moment); the timer relay's return its delay after
 * the limit switch; and a relay that switches itself off (a small circuit
 * of this directory, not an example) reported by name, not looped on.
 *
 * The hand calculation of a step (Festo Didactic, Electrohydraulics, basic
 * level, workbook TP 601, 2003; Parr, Hydraulics and Pneumatics, 3rd ed.,
 * 2011, ch. 5): a fixed pump pushes its flow Q into whichever chamber is
 * open, so a step that starts with the valve's switching and ends at a
 * limit switch takes
 *   T = T_s/2 + V/Q,
 * V the oil volume the step moves: the travel to the switch at the piston
 * area (extending, A_A) or the annulus (retracting, A_B), plus the oil the
 * cylinder of the previous step still takes while it runs on from its
 * switch to its end stop (exact when that cylinder's valve holds it, an
 * upper bound when the step reverses it: the reversing valve stops it
 * about 1 mm past the switch, short of the stop, and those strokes come
 * out 10–15 ms shorter than T). T_s/2: the spool covers one position in the
 * switching time T_s at constant speed, and the pump's flow goes to the
 * new chamber from somewhere between the first opening and the end of the
 * switching (during the crossover of a 4/2 spool part of it goes straight
 * to tank). Tolerance, chosen before the runs: ±(T_s/2 + 15 ms) — the
 * switching window, plus the oil that compresses the entrained air
 * (0.5 % at atmospheric pressure, the `air` model) of the ≈ 0.6 L of a
 * chamber and its hose when the pressure rises to the few bar a free
 * stroke needs: ≤ 2 mL, ≤ 13 ms of 9 L/min — plus 1 ms of sampling. */
#include <math.h>
#include <string.h>

#include "hyd-circuit.h"
#include "hyd-run.h"
#include "hyd-system.h"

#ifndef HYD_EXAMPLES_DIR
#error "HYD_EXAMPLES_DIR must be defined"
#endif
#ifndef HYD_TEST_CIRCUITS_DIR
#error "HYD_TEST_CIRCUITS_DIR must be defined"
#endif

/* ------------------------------------------------------------- a run */

typedef struct {
  HydCircuit *circuit;
  guint n_names;
  const char *const *names;
  GArray *rows; /* t, then the named variables, per sample */
} Run;

static gboolean
keep_row (double t, const double *values, guint n_values, gpointer user)
{
  Run *r = user;
  /* values[0] is t (the first variable asked for) */
  g_array_append_vals (r->rows, values, n_values);
  return TRUE;
}

static guint
n_rows (const Run *r)
{
  return r->rows->len / (r->n_names + 1);
}

static double
at (const Run *r, guint i, guint k)
{
  return g_array_index (r->rows, double, i * (r->n_names + 1) + k);
}

static char *
example_path (const char *name)
{
  return g_strdup_printf ("%s/%s.bramah", HYD_EXAMPLES_DIR, name);
}

/* Runs the example `name` with its own solver and tolerances, sampled every
 * dt, reporting t and `names`. */
static Run
run_example (const char *path, const char *const *names, guint n_names, double dt)
{
  g_autoptr (GError) error = NULL;
  Run r = { hyd_circuit_load_from_file (path, &error), n_names, names,
            g_array_new (FALSE, FALSE, sizeof (double)) };
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (r.circuit, &error);
  g_assert_no_error (error);
  HydSimOptions sim;
  g_assert_true (hyd_circuit_get_sim_options (r.circuit, &sim, NULL));
  sim.output_interval = dt;
  g_autofree int *vars = g_new (int, n_names + 1);
  vars[0] = hyd_system_find_variable (sys, "t");
  for (guint k = 0; k < n_names; k++)
    {
      vars[k + 1] = hyd_system_find_variable (sys, names[k]);
      if (vars[k + 1] < 0)
        g_error ("%s: no variable %s", path, names[k]);
    }
  HydRunSpec spec = { .sim = &sim, .vars = vars, .n_vars = n_names + 1, .sample = keep_row, .user = &r };
  HydOdeResult res = { 0 };
  if (hyd_run_execute (sys, &spec, &res, NULL) != HYD_ODE_SUCCESS)
    g_error ("%s: run failed: %s", path, res.message);
  hyd_ode_result_clear (&res);
  hyd_sim_options_clear (&sim);
  hyd_system_free (sys);
  return r;
}

static void
run_clear (Run *r)
{
  g_array_unref (r->rows);
  hyd_circuit_free (r->circuit);
}

/* The column of variable `name` (1-based; 0 is t). */
static guint
col (const Run *r, const char *name)
{
  for (guint k = 0; k < r->n_names; k++)
    if (strcmp (r->names[k], name) == 0)
      return k + 1;
  g_error ("no column %s", name);
}

/* The times at which the 0/1 variable `name` switches to `to`, from t_from
 * on: the first sample that shows the new value (so within dt after the
 * switch). Fills at most `max` of them and returns how many. */
static guint
switches (const Run *r, const char *name, double to, double t_from, double *t, guint max)
{
  guint k = col (r, name), n = 0;
  for (guint i = 1; i < n_rows (r) && n < max; i++)
    if (at (r, i, 0) >= t_from && at (r, i - 1, k) != to && at (r, i, k) == to)
      t[n++] = at (r, i, 0);
  return n;
}

static double
first_switch (const Run *r, const char *name, double to, double t_from)
{
  double t = NAN;
  if (switches (r, name, to, t_from, &t, 1) != 1)
    g_error ("%s never switches to %g after %g s", name, to, t_from);
  return t;
}

/* The value of column `name` at the first sample at or after t. */
static double
value_at (const Run *r, const char *name, double t)
{
  guint k = col (r, name);
  for (guint i = 0; i < n_rows (r); i++)
    if (at (r, i, 0) >= t - 1e-12)
      return at (r, i, k);
  g_error ("no sample at %g s", t);
}

/* ------------------------------------------------- the file's parameters */

static HydCircuitComponent *
component (const Run *r, const char *id)
{
  HydCircuitComponent *c = hyd_circuit_find_component (r->circuit, id);
  if (c == NULL)
    g_error ("no component %s", id);
  return c;
}

static double
param (const Run *r, const char *id, const char *name)
{
  HydCircuitComponent *c = component (r, id);
  if (!json_object_has_member (c->params, name))
    g_error ("%s has no parameter %s in the file", id, name);
  return json_object_get_double_member (c->params, name);
}

static const char *
param_string (const Run *r, const char *id, const char *name)
{
  return json_object_get_string_member (component (r, id)->params, name);
}

/* The k-th breakpoint of a step profile {"step": {"times": [...]}}. */
static double
press_time (const Run *r, const char *id, const char *name, guint k)
{
  JsonObject *p = json_object_get_object_member (component (r, id)->params, name);
  JsonArray *times = json_object_get_array_member (json_object_get_object_member (p, "step"), "times");
  g_assert_cmpuint (k, <, json_array_get_length (times));
  return json_array_get_double_element (times, k);
}

/* Pump flow Q = D·ω of PU1. */
static double
pump_flow (const Run *r)
{
  return param (r, "PU1", "displacement") * param (r, "PU1", "speed");
}

static double
area_a (const Run *r, const char *cyl)
{
  double d = param (r, cyl, "piston_diameter");
  return G_PI * d * d / 4;
}

static double
area_b (const Run *r, const char *cyl)
{
  double d = param (r, cyl, "rod_diameter");
  return area_a (r, cyl) - G_PI * d * d / 4;
}

/* Where a roller limit switch switches, from the side `from_below` (the
 * piston coming from smaller x) or from above: the edge of its travel band
 * about `position` (docs/electrical.md). */
static double
switch_point (const Run *r, const char *id, gboolean from_below)
{
  double pos = param (r, id, "position"), band = param (r, id, "band");
  return from_below ? pos - band / 2 : pos + band / 2;
}

/* The switching time of valve `id` (T_s). */
static double
switching_time (const Run *r, const char *id)
{
  return param (r, id, "switching_time");
}

/* One step against the hand calculation, T = T_s/2 + V/Q, tolerance
 * T_s/2 + 15 ms (the header says why). */
static void
check_step (const char *what, double t_start, double t_end, double volume, double Q, double Ts)
{
  double T = Ts / 2 + volume / Q, tol = Ts / 2 + 0.015;
  g_test_message ("%s: %.4f → %.4f s, %.4f s (hand %.4f ± %.3f s)", what, t_start, t_end, t_end - t_start,
                  T, tol);
  if (fabs ((t_end - t_start) - T) > tol)
    g_error ("%s took %.4f s (%.4f → %.4f s), by hand %.4f ± %.3f s", what, t_end - t_start, t_start, t_end,
             T, tol);
}

/* ---------------------------------------------------------------- tests */

/* Direct (S1 → Y1) and indirect (S2 → K1, K1's contact → Y2) control: each
 * solenoid follows its button at every sample (an ideal relay adds no
 * delay), and the two identical cylinders make the same stroke, the second
 * one shifted by the time between the presses, to 0.5 mm; the first one
 * extends for as long as S1 is held at Q/A_A, T_s/2 late (± T_s/2 + 15 ms). */
static void
test_direct_indirect (void)
{
  g_autofree char *path = example_path ("electro-direct-indirect-control");
  const char *names[] = { "S1.actuated", "Y1.energised", "S2.actuated", "K1.energised", "Y2.energised",
                          "C1.x", "C2.x" };
  Run r = run_example (path, names, G_N_ELEMENTS (names), 1e-3);
  for (guint i = 0; i < n_rows (&r); i++)
    {
      g_assert_cmpfloat (at (&r, i, 2), ==, at (&r, i, 1));
      g_assert_cmpfloat (at (&r, i, 4), ==, at (&r, i, 3));
      g_assert_cmpfloat (at (&r, i, 5), ==, at (&r, i, 3));
    }
  double on1 = press_time (&r, "S1", "actuated", 0), off1 = press_time (&r, "S1", "actuated", 1);
  double on2 = press_time (&r, "S2", "actuated", 0);
  double shift = on2 - on1, worst = 0;
  for (guint i = 0; i < n_rows (&r); i++)
    {
      double t = at (&r, i, 0);
      if (t + shift > at (&r, n_rows (&r) - 1, 0))
        break;
      worst = MAX (worst, fabs (at (&r, i, 6) - value_at (&r, "C2.x", t + shift)));
    }
  g_test_message ("direct and indirect strokes differ by at most %.2e m", worst);
  g_assert_cmpfloat (worst, <, 5e-4);
  double Ts = switching_time (&r, "V1"), v = pump_flow (&r) / area_a (&r, "C1");
  double x = value_at (&r, "C1.x", off1), hand = v * (off1 - on1 - Ts / 2);
  g_test_message ("C1.x when S1 is released: %.4f m, by hand %.4f m", x, hand);
  g_assert_cmpfloat (fabs (x - hand), <, v * (Ts / 2 + 0.015));
  run_clear (&r);
}

/* Self-holding with dominant off: K1 latches at the start press, holds
 * after it, drops at the stop press; start and stop pressed together
 * leave it off. The cylinder extends fully while K1 holds and is back
 * home at the end. */
static void
test_self_holding (void)
{
  g_autofree char *path = example_path ("electro-self-holding-dominant-off");
  const char *names[] = { "K1.energised", "Y1.energised", "C1.x" };
  Run r = run_example (path, names, G_N_ELEMENTS (names), 1e-3);
  double start = press_time (&r, "S1", "actuated", 0), stop = press_time (&r, "S2", "actuated", 0);
  double both0 = press_time (&r, "S2", "actuated", 2), both1 = press_time (&r, "S2", "actuated", 3);
  double s1_again = press_time (&r, "S1", "actuated", 2), s1_again_off = press_time (&r, "S1", "actuated", 3);
  g_assert_cmpfloat (s1_again, >, both0);
  g_assert_cmpfloat (s1_again_off, <, both1);
  double L = param (&r, "C1", "stroke");
  for (guint i = 0; i < n_rows (&r); i++)
    {
      double t = at (&r, i, 0);
      if (fabs (t - start) < 1e-9 || fabs (t - stop) < 1e-9)
        continue; /* a sample at a breakpoint shows the state after it */
      double on = t > start && t < stop ? 1.0 : 0.0;
      g_assert_cmpfloat (at (&r, i, 1), ==, on);
      g_assert_cmpfloat (at (&r, i, 2), ==, on);
    }
  g_assert_cmpfloat (value_at (&r, "C1.x", stop), >, L - 1e-3);
  g_assert_cmpfloat (value_at (&r, "C1.x", s1_again), <, 1e-3);
  g_assert_cmpfloat (at (&r, n_rows (&r) - 1, 3), <, 1e-3);
  run_clear (&r);
}

/* Automatic return: K1 latches at the start press and drops when the
 * piston reaches the limit switch S2 (a normally closed contact in its
 * holding path), T_s/2 + A_A·x_S2/Q after the press; the piston then
 * returns home. */
static void
test_limit_switch_return (void)
{
  g_autofree char *path = example_path ("electro-limit-switch-return");
  const char *names[] = { "K1.energised", "S2.actuated", "C1.x" };
  Run r = run_example (path, names, G_N_ELEMENTS (names), 1e-3);
  double Q = pump_flow (&r), Ts = switching_time (&r, "V1");
  double start = press_time (&r, "S1", "actuated", 0);
  double t_on = first_switch (&r, "K1.energised", 1, 0), t_s2 = first_switch (&r, "S2.actuated", 1, 0);
  double t_off = first_switch (&r, "K1.energised", 0, t_on);
  g_assert_cmpfloat (fabs (t_on - start), <=, 1e-3 + 1e-9);
  g_assert_cmpfloat (t_off, ==, t_s2);
  check_step ("C1 out to S2", start, t_off, area_a (&r, "C1") * switch_point (&r, "S2", TRUE), Q, Ts);
  g_assert_cmpfloat (value_at (&r, "C1.x", t_off), >, switch_point (&r, "S2", TRUE) - 1e-9);
  g_assert_cmpfloat (at (&r, n_rows (&r) - 1, 3), <, 1e-3);
  run_clear (&r);
}

/* Continuous reciprocation: a double-solenoid valve, Y1 through the run
 * switch and the rear limit switch a0, Y2 through the front one a1. Each
 * stroke against the hand calculation; after the run switch is turned off
 * the cylinder finishes its stroke and stays home. */
static void
test_reciprocation (void)
{
  g_autofree char *path = example_path ("electro-continuous-reciprocation");
  const char *names[] = { "S2.actuated", "S3.actuated", "C1.x" };
  Run r = run_example (path, names, G_N_ELEMENTS (names), 1e-3);
  double Q = pump_flow (&r), Ts = switching_time (&r, "V1"), L = param (&r, "C1", "stroke");
  double AA = area_a (&r, "C1"), AB = area_b (&r, "C1");
  double x1 = switch_point (&r, "S3", TRUE), x0 = switch_point (&r, "S2", FALSE);
  double on = press_time (&r, "S1", "actuated", 0), off = press_time (&r, "S1", "actuated", 1);
  double front[4], home[4];
  guint nf = switches (&r, "S3.actuated", 1, 0, front, 4), nh = switches (&r, "S2.actuated", 1, on, home, 4);
  g_assert_cmpuint (nf, >=, 1);
  g_assert_cmpuint (nf, ==, nh);
  check_step ("stroke 1 out", on, front[0], AA * x1, Q, Ts);
  for (guint k = 0; k < nf; k++)
    {
      check_step ("back", front[k], home[k], AA * (L - x1) + AB * (L - x0), Q, Ts);
      if (k + 1 < nf)
        check_step ("out", home[k], front[k + 1], AB * x0 + AA * x1, Q, Ts);
    }
  /* the last stroke home is the one during which the switch went off */
  g_assert_cmpfloat (home[nf - 1], >, off);
  g_assert_true (nf == 1 || home[nf - 2] < off);
  g_assert_cmpfloat (at (&r, n_rows (&r) - 1, 3), <, 1e-3);
  run_clear (&r);
}

/* A+ B+ B− A−: each step's start and end (the limit switches' times)
 * against the hand calculation; the group relay K1 is on from b1 to a0. */
static void
test_sequence (void)
{
  g_autofree char *path = example_path ("electro-sequence-a-b-b-a");
  const char *names[] = { "S2.actuated", "S3.actuated", "S4.actuated", "S5.actuated", "K1.energised",
                          "C1.x", "C2.x" };
  Run r = run_example (path, names, G_N_ELEMENTS (names), 1e-3);
  double Q = pump_flow (&r), start = press_time (&r, "S1", "actuated", 0);
  double L_a = param (&r, "C1", "stroke"), L_b = param (&r, "C2", "stroke");
  double AA_a = area_a (&r, "C1"), AA_b = area_a (&r, "C2"), AB_a = area_b (&r, "C1"), AB_b = area_b (&r, "C2");
  double Ts_a = switching_time (&r, "V1"), Ts_b = switching_time (&r, "V2");
  double a1 = switch_point (&r, "S3", TRUE), b1 = switch_point (&r, "S5", TRUE);
  double b0 = switch_point (&r, "S4", FALSE), a0 = switch_point (&r, "S2", FALSE);
  double t_a1 = first_switch (&r, "S3.actuated", 1, 0);
  double t_b1 = first_switch (&r, "S5.actuated", 1, 0);
  double t_b0 = first_switch (&r, "S4.actuated", 1, t_b1);
  double t_a0 = first_switch (&r, "S2.actuated", 1, t_b0);
  g_test_message ("A+ %.3f, B+ %.3f, B− %.3f, A− %.3f s", t_a1, t_b1, t_b0, t_a0);
  g_assert_cmpfloat (start, <, t_a1);
  g_assert_cmpfloat (t_a1, <, t_b1);
  g_assert_cmpfloat (t_b1, <, t_b0);
  g_assert_cmpfloat (t_b0, <, t_a0);
  check_step ("A+", start, t_a1, AA_a * a1, Q, Ts_a);
  check_step ("B+", t_a1, t_b1, AA_a * (L_a - a1) + AA_b * b1, Q, Ts_b);
  check_step ("B−", t_b1, t_b0, AA_b * (L_b - b1) + AB_b * (L_b - b0), Q, Ts_b);
  check_step ("A−", t_b0, t_a0, AB_b * b0 + AB_a * (L_a - a0), Q, Ts_a);
  /* B does not move during A+ and A−, nor A during B+ and B− */
  g_assert_cmpfloat (value_at (&r, "C2.x", t_a1), <, 1e-3);
  g_assert_cmpfloat (value_at (&r, "C1.x", t_b0), >, L_a - 1e-3);
  /* the group relay: on from b1 until a0 */
  g_assert_cmpfloat (first_switch (&r, "K1.energised", 1, 0), ==, t_b1);
  g_assert_cmpfloat (first_switch (&r, "K1.energised", 0, t_b1), ==, t_a0);
  /* one cycle only: at rest at the end */
  guint last = n_rows (&r) - 1;
  g_assert_cmpfloat (at (&r, last, 5), ==, 0.0);
  g_assert_cmpfloat (at (&r, last, 6), <, 1e-3);
  g_assert_cmpfloat (at (&r, last, 7), <, 1e-3);
  run_clear (&r);
}

/* Pressing to a force: the pressure switch B1 on the cap line opens when
 * the cap pressure reaches its setting, K1 drops in the same instant and
 * the cylinder returns. Sampled every 20 µs around nothing in particular:
 * the trip lies between the last sample below the setting and the first at
 * or above it, and the pressing force p_A·A_A − p_B·A_B there is the
 * setting's force to within the pressure rise over one sample. */
static void
test_pressure_switch_return (void)
{
  g_autofree char *path = example_path ("electro-pressure-switch-return");
  const char *names[] = { "B1.actuated", "K1.energised", "C1.A.p", "C1.B.p", "C1.x" };
  Run r = run_example (path, names, G_N_ELEMENTS (names), 2e-5);
  double setting = param (&r, "B1", "setting");
  g_assert_cmpstr (param_string (&r, "B1", "contact"), ==, "nc");
  double t_trip = first_switch (&r, "B1.actuated", 1, 0);
  g_assert_cmpfloat (first_switch (&r, "K1.energised", 0, press_time (&r, "S1", "actuated", 0)), ==, t_trip);
  guint i = 0;
  while (at (&r, i, 0) < t_trip)
    i++;
  double p_before = at (&r, i - 1, 3), p_after = at (&r, i, 3);
  double F = p_after * area_a (&r, "C1") - at (&r, i, 4) * area_b (&r, "C1");
  double F_set = setting * area_a (&r, "C1");
  g_test_message ("B1 trips at %.5f s: cap %.3f → %.3f bar (setting %.3f bar), force %.0f N (p·A %.0f N)",
                  t_trip, p_before / 1e5, p_after / 1e5, setting / 1e5, F, F_set);
  g_assert_cmpfloat (p_before, <, setting);
  g_assert_cmpfloat (p_after, >=, setting);
  g_assert_cmpfloat (fabs (F - F_set), <=, (p_after - p_before) * area_a (&r, "C1") + 0.01 * F_set);
  /* it trips at the end of the stroke (the workpiece), then returns home */
  g_assert_cmpfloat (value_at (&r, "C1.x", t_trip), >, param (&r, "C1", "stroke") - 1e-3);
  g_assert_cmpfloat (at (&r, n_rows (&r) - 1, 5), <, 1e-3);
  run_clear (&r);
}

/* Time-delayed return: the limit switch S2 energises the on-delay timer K2
 * when the piston arrives; K2's contacts switch `delay` later (to the
 * sampling's 1 ms at each end), K1 drops then and the cylinder returns. */
static void
test_timer_return (void)
{
  g_autofree char *path = example_path ("electro-timer-delayed-return");
  const char *names[] = { "S2.actuated", "K2.contacts", "K1.energised", "C1.x" };
  Run r = run_example (path, names, G_N_ELEMENTS (names), 1e-3);
  double delay = param (&r, "K2", "delay");
  double t_s2 = first_switch (&r, "S2.actuated", 1, 0), t_k2 = first_switch (&r, "K2.contacts", 1, 0);
  double t_k1 = first_switch (&r, "K1.energised", 0, t_s2);
  g_test_message ("S2 at %.3f s, K2 at %.3f s: %.4f s (delay %.3f s)", t_s2, t_k2, t_k2 - t_s2, delay);
  g_assert_cmpfloat (fabs ((t_k2 - t_s2) - delay), <=, 1e-3 + 1e-9);
  g_assert_cmpfloat (t_k1, ==, t_k2);
  /* it waits at the front end, then returns home */
  g_assert_cmpfloat (value_at (&r, "C1.x", t_k2), >, param (&r, "C1", "stroke") - 1e-3);
  g_assert_cmpfloat (at (&r, n_rows (&r) - 1, 4), <, 1e-3);
  run_clear (&r);
}

/* A relay fed through its own normally closed contact chatters: the run
 * stops when the button closes and names the states that kept changing. */
static void
test_chattering (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (HYD_TEST_CIRCUITS_DIR, "chattering-relay.bramah", NULL);
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_file (path, &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  HydSimOptions sim;
  g_assert_true (hyd_circuit_get_sim_options (circuit, &sim, NULL));
  int vars[] = { hyd_system_find_variable (sys, "t") };
  Run r = { NULL, 0, NULL, g_array_new (FALSE, FALSE, sizeof (double)) };
  HydRunSpec spec = { .sim = &sim, .vars = vars, .n_vars = 1, .sample = keep_row, .user = &r };
  HydOdeResult res = { 0 };
  HydOdeStatus st = hyd_run_execute (sys, &spec, &res, NULL);
  g_test_message ("%s", res.message ? res.message : "(no message)");
  g_assert_cmpint (st, !=, HYD_ODE_SUCCESS);
  g_assert_nonnull (res.message);
  HydCircuitComponent *s1 = hyd_circuit_find_component (circuit, "S1");
  JsonObject *p = json_object_get_object_member (s1->params, "actuated");
  double t_press = json_array_get_double_element (
    json_object_get_array_member (json_object_get_object_member (p, "step"), "times"), 0);
  g_autofree char *when = g_strdup_printf ("not settle at t = %g s", t_press);
  g_assert_nonnull (strstr (res.message, when));
  g_assert_nonnull (strstr (res.message, "K1.energised"));
  g_assert_nonnull (strstr (res.message, "K1_1.actuated"));
  /* it stopped there: no sample after the press */
  g_assert_cmpfloat (g_array_index (r.rows, double, r.rows->len - 1), <=, t_press + 1e-9);
  hyd_ode_result_clear (&res);
  hyd_sim_options_clear (&sim);
  hyd_system_free (sys);
  g_array_unref (r.rows);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/electro/direct-indirect", test_direct_indirect);
  g_test_add_func ("/electro/self-holding", test_self_holding);
  g_test_add_func ("/electro/limit-switch-return", test_limit_switch_return);
  g_test_add_func ("/electro/reciprocation", test_reciprocation);
  g_test_add_func ("/electro/sequence", test_sequence);
  g_test_add_func ("/electro/pressure-switch-return", test_pressure_switch_return);
  g_test_add_func ("/electro/timer-return", test_timer_return);
  g_test_add_func ("/electro/chattering", test_chattering);
  return g_test_run ();
}
