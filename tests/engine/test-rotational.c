/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-rotational.c — the rotational catalogue types (inertia, fixed_frame,
 * torsion_spring, rotational_damper, torque_source, speed_sensor,
 * torque_sensor, electric_motor) and the pumps' and the motor's shafts:
 * each law's analytic partials against central differences, locally and in
 * the assembled system, and small circuits against closed forms solved by
 * hand (Karnopp, Margolis & Rosenberg, System Dynamics, 5th ed., 2012,
 * ch. 3–4; Kloss's formula for the induction motor). */
#include <math.h>
#include <string.h>

#include "fd-harness.h"
#include "hyd-catalogue.h"
#include "hyd-circuit.h"
#include "hyd-run.h"
#include "hyd-system.h"

/* ------------------------------------------------------ local partials */

#define MAXL 16

typedef struct {
  double q[MAXL], q_t[MAXL], jac[MAXL * MAXL], C[MAXL], s[MAXL], ds[MAXL * MAXL], s_t[MAXL];
} Local;

/* Evaluate a component without states at local variables z = [a, s]. */
static void
eval_local (HydComp *comp, double t, const double *z, Local *L)
{
  guint np = comp->type->n_ports;
  double xdot[1] = { 0 }, V[MAXL] = { 0 }, dV[MAXL] = { 0 }, d2V[MAXL] = { 0 }, dC[MAXL] = { 0 };
  double x_t[1] = { 0 }, outv[MAXL] = { 0 };
  memset (L, 0, sizeof *L);
  HydEvalIn in = { .t = t, .p = z, .x = NULL, .pos = z + np };
  HydEvalOut out = { L->q, xdot, L->jac, L->q_t, x_t, V, dV, d2V, L->C, dC, outv };
  comp->type->eval (comp, &in, &out);
  if (comp->type->signals)
    comp->type->signals (comp, &in, L->s, L->ds, L->s_t);
}

/* Every ∂τ̂_X/∂z, ∂τ̂_X/∂t and every signal output's ∂s/∂z against central
 * differences (step 1e-6), to 1e-7 of the row's largest entry; returns the
 * number of misses. */
static guint
check_local (HydComp *comp, double t, const double *z, const char *where)
{
  guint np = comp->type->n_ports, nl = hyd_comp_n_local (comp), misses = 0;
  g_assert_cmpuint (comp->n_states, ==, 0);
  g_assert_cmpuint (comp->n_pos, ==, np);
  g_assert_cmpuint (nl, <=, MAXL);
  Local L0, Lp, Lm;
  eval_local (comp, t, z, &L0);
  double zz[MAXL];
  for (guint r = 0; r < 2 * np; r++)
    {
      gboolean sig = r >= np;
      guint X = sig ? r - np : r;
      if (sig && comp->type->ports[X].direction != HYD_PORT_OUTPUT)
        continue;
      const double *row = sig ? L0.ds + X * nl : L0.jac + X * nl;
      double scale = 0;
      for (guint c = 0; c < nl; c++)
        scale = MAX (scale, fabs (row[c]));
      for (guint c = 0; c <= nl; c++)
        {
          double h = 1e-6;
          if (c < nl)
            {
              memcpy (zz, z, sizeof (double) * nl);
              zz[c] = z[c] + h;
              eval_local (comp, t, zz, &Lp);
              zz[c] = z[c] - h;
              eval_local (comp, t, zz, &Lm);
            }
          else
            {
              for (guint k = 0; k < comp->type->n_params; k++)
                comp->par[k] += comp->par_dt[k] * h;
              eval_local (comp, t + h, z, &Lp);
              for (guint k = 0; k < comp->type->n_params; k++)
                comp->par[k] -= 2 * comp->par_dt[k] * h;
              eval_local (comp, t - h, z, &Lm);
              for (guint k = 0; k < comp->type->n_params; k++)
                comp->par[k] += comp->par_dt[k] * h;
            }
          double D = sig ? (Lp.s[X] - Lm.s[X]) / (2 * h) : (Lp.q[X] - Lm.q[X]) / (2 * h);
          double J = c < nl ? row[c] : sig ? L0.s_t[X] : L0.q_t[X];
          if (fabs (J - D) > 1e-7 * MAX (scale, fabs (D)) + 1e-9)
            {
              g_test_message ("%s %s: ∂%s_%u/∂z_%u = %.10g, finite differences %.10g", where, comp->id,
                              sig ? "s" : "τ̂", X, c, J, D);
              misses++;
            }
        }
    }
  return misses;
}

static void
test_partials (void)
{
  /* z = [a_0 … a_{np−1}, s_0 … s_{np−1}] */
  guint misses = 0;
  Local L;

  HydComp *k = hyd_test_make_comp ("torsion_spring", NULL, "stiffness", "2500", "preload", "-40", NULL);
  double zk[4] = { 0.7, -0.3, 0.02, 0.15 };
  misses += check_local (k, 0.3, zk, "torsion_spring");
  eval_local (k, 0.3, zk, &L);
  /* 2500·(0.15 − 0.02) − 40 = 285 N·m turns A forward, B back */
  g_assert_cmpfloat (fabs (L.q[0] + 285.0), <, 1e-9);
  g_assert_cmpfloat (fabs (L.q[1] - 285.0), <, 1e-9);
  hyd_comp_free (k);

  HydComp *d = hyd_test_make_comp ("rotational_damper", NULL, "damping", "8", NULL);
  misses += check_local (d, 0.3, zk, "rotational_damper");
  eval_local (d, 0.3, zk, &L);
  g_assert_cmpfloat (fabs (L.q[0] - 8.0), <, 1e-12);
  g_assert_cmpfloat (fabs (L.q[1] + 8.0), <, 1e-12);
  hyd_comp_free (d);

  HydComp *j = hyd_test_make_comp ("inertia", NULL, "inertia", "0.35", NULL);
  double zj[2] = { 12.0, 0.4 };
  misses += check_local (j, 0.3, zj, "inertia");
  eval_local (j, 0.3, zj, &L);
  g_assert_cmpfloat (L.C[0], ==, 0.35);
  hyd_comp_free (j);

  HydComp *x = hyd_test_make_comp ("fixed_frame", NULL, "angle", "0.25", NULL);
  g_assert_cmpint (x->type->boundary_param, ==, 0);
  misses += check_local (x, 0.3, zj, "fixed_frame");
  hyd_comp_free (x);

  /* torque source: every law, from the parameter (with a rate) and from
   * the signal input; z = [ω, T, φ, s_T] */
  const char *laws[] = { "constant", "linear", "quadratic" };
  double zt[4] = { -7.5, 33.0, 0.1, 0.0 };
  for (guint l = 0; l < 3; l++)
    for (guint wired = 0; wired < 2; wired++)
      {
        HydComp *t = hyd_test_make_comp ("torque_source", NULL, "law", laws[l], "torque", "12",
                                         "reference_speed", "50", "smoothing_speed", "2", NULL);
        hyd_test_set_param_rate (t, "torque", 3.0);
        t->connected = wired ? 1u << 1 : 0;
        g_autofree char *where = g_strdup_printf ("torque_source %s %s", laws[l], wired ? "wired" : "parameter");
        misses += check_local (t, 0.3, zt, where);
        eval_local (t, 0.3, zt, &L);
        double T = wired ? 33.0 : 12.0, w = -7.5;
        double tau = l == 0 ? T : l == 1 ? -T * w / 50 : -T * w * sqrt (w * w + 4) / 2500;
        g_assert_cmpfloat (fabs (L.q[0] + tau), <, 1e-12);
        hyd_comp_free (t);
      }

  HydComp *ss = hyd_test_make_comp ("speed_sensor", NULL, NULL);
  double zs[4] = { 42.0, 0.0, 1.0, 0.0 };
  misses += check_local (ss, 0.3, zs, "speed_sensor");
  eval_local (ss, 0.3, zs, &L);
  g_assert_cmpfloat (L.s[1], ==, 42.0);
  g_assert_cmpfloat (L.q[0], ==, 0.0);
  hyd_comp_free (ss);

  HydComp *ts = hyd_test_make_comp ("torque_sensor", NULL, "stiffness", "2e4", "damping", "5", NULL);
  double z3[6] = { 10.0, 9.5, 0.0, 0.01, 0.004, 0.0 };
  misses += check_local (ts, 0.3, z3, "torque_sensor");
  eval_local (ts, 0.3, z3, &L);
  /* 2e4·0.006 + 5·0.5 = 122.5 N·m from A to B */
  g_assert_cmpfloat (fabs (L.s[2] - 122.5), <, 1e-9);
  g_assert_cmpfloat (fabs (L.q[0] - 122.5), <, 1e-9);
  g_assert_cmpfloat (fabs (L.q[1] + 122.5), <, 1e-9);
  hyd_comp_free (ts);

  /* the electric motor on both sides of breakdown, at standstill and above
   * synchronous speed, the voltage ramping */
  double speeds[] = { 0.0, 100.0, 150.0, 157.0, 170.0 };
  for (guint i = 0; i < G_N_ELEMENTS (speeds); i++)
    {
      HydComp *em = hyd_test_make_comp ("electric_motor", NULL, "voltage", "0.9", NULL);
      hyd_test_set_param_rate (em, "voltage", 0.5);
      double ze[2] = { speeds[i], 3.0 };
      g_autofree char *where = g_strdup_printf ("electric_motor at %g rad/s", speeds[i]);
      misses += check_local (em, 0.3, ze, where);
      hyd_comp_free (em);
    }
  /* Kloss at the rated point gives the rated torque back */
  HydComp *em = hyd_test_make_comp ("electric_motor", NULL, NULL);
  double zn[2] = { 1450.0 * G_PI / 30.0, 0.0 };
  eval_local (em, 0.0, zn, &L);
  g_assert_cmpfloat (fabs (-L.q[0] - 50.0), <, 1e-9);
  g_assert_cmpfloat (L.C[0], ==, 0.03);
  hyd_comp_free (em);

  g_assert_cmpuint (misses, ==, 0);
}

/* The pumps and the motor with their shaft wired (the compiler's
 * `connected` bit) against central differences: the harness sees the
 * shaft's ω as a port value. */
static void
test_shaft_partials (void)
{
  guint misses = 0;
  const char *pumps[] = { "fixed_pump", "variable_pump" };
  for (guint i = 0; i < 2; i++)
    {
      HydComp *p = hyd_test_make_comp (pumps[i], NULL, "leakage", "1e-11",
                                       "hydromechanical_efficiency", "0.85", NULL);
      p->connected = 7;
      if (i == 1)
        hyd_test_set_param_rate (p, "fraction", -0.4);
      double a[4] = { 1e5, 150e5, 140.0, 0.0 };
      misses += hyd_test_check_component (p, 0.2, a, NULL, pumps[i]);
      double q[4], out[3];
      hyd_test_eval (p, 0.2, a, NULL, q, NULL, out);
      double D = 10e-6 / (2 * G_PI);
      /* the shaft takes τ = D·Δp/η; the flow is D·ω − leakage·Δp */
      g_assert_cmpfloat (fabs (q[2] - D * 149e5 / 0.85), <, 1e-9);
      g_assert_cmpfloat (fabs (-q[1] - (D * 140.0 - 1e-11 * 149e5)), <, 1e-15);
      hyd_comp_free (p);
    }
  /* set up as the compiler does: the connected bits first */
  /* the variable pump commanded through U, shaft wired */
  HydComp *vp = hyd_test_make_comp ("variable_pump", NULL, "leakage", "1e-11", NULL);
  vp->connected = 15;
  double av[4] = { 1e5, 150e5, 140.0, 0.6 };
  misses += hyd_test_check_component (vp, 0.2, av, NULL, "variable_pump commanded");
  double qv[4];
  hyd_test_eval (vp, 0.2, av, NULL, qv, NULL, NULL);
  g_assert_cmpfloat (fabs (-qv[1] - (0.6 * 10e-6 / (2 * G_PI) * 140.0 - 1e-11 * 149e5)), <, 1e-15);
  hyd_comp_free (vp);

  HydComp *m = hyd_comp_new (hyd_catalogue_lookup ("motor_fixed"), "M1", NULL);
  m->par[hyd_component_type_find_param (m->type, "leakage")] = 1e-12;
  m->par[hyd_component_type_find_param (m->type, "coulomb_friction")] = 2;
  m->par[hyd_component_type_find_param (m->type, "load_torque")] = 5;
  m->connected = 7;
  g_autoptr (GError) error = NULL;
  g_assert_true (m->type->setup (m, &error));
  g_assert_cmpuint (m->n_states, ==, 0);
  hyd_test_set_param_rate (m, "load_torque", 2.0);
  double a[3] = { 120e5, 3e5, 0.05 };
  misses += hyd_test_check_component (m, 0.2, a, NULL, "motor_fixed wired");
  hyd_comp_free (m);
  g_assert_cmpuint (misses, ==, 0);
}

/* ------------------------------------------------------------- circuits */

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

static char *
compile_error (const char *json)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "test.bramah", &error);
  /* a cross-parameter rule is checked when the file is read */
  HydSystem *sys = circuit ? hyd_system_compile (circuit, &error) : NULL;
  g_assert_null (sys);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  return g_strdup (error->message);
}

typedef HydTestRows Rows;
#define ROW HYD_TEST_ROW
#define N_ROWS HYD_TEST_N_ROWS

/* Runs sys to t_end at rtol 1e-8, sampling `names` every dt. */
static Rows
run (HydSystem *sys, const char *const *names, guint n_names, double t_end, double dt)
{
  return hyd_test_run (sys, names, n_names, t_end, dt, 1e-8, -1, NULL);
}
#define LAST(r) ROW (r, N_ROWS (r) - 1)

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
            scale = MAX (scale, fabs (J[i + k * n]) * MAX (fabs (y[k]), 1e-3));
          if (fabs (J[i + j * n] - D) > 1e-6 * MAX (MAX (fabs (D), 1.0), scale / MAX (fabs (y[j]), 1e-3)))
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

/* An inertia J = 0.5 kg·m² braked by a damper d = 2 N·m·s/rad to a frame
 * from 100 rad/s: ω = ω₀·e^(−d·t/J), φ = ω₀·J/d·(1 − e^(−d·t/J)). */
static void
test_inertia_damper (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"J1\", \"type\": \"inertia\", \"params\": {\"inertia\": 0.5}},"
    "{\"id\": \"D1\", \"type\": \"rotational_damper\", \"params\": {\"damping\": 2}},"
    "{\"id\": \"X1\", \"type\": \"fixed_frame\"}],"
    "\"connections\": [{\"from\": \"J1.A\", \"to\": \"D1.A\", \"initial_velocity\": 100},"
    "{\"from\": \"D1.B\", \"to\": \"X1.A\"}]}");
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 2);
  double y[2] = { 30.0, 2.0 };
  check_jacobian (sys, 0.1, y);
  const char *names[] = { "J1.A.w", "J1.A.phi" };
  Rows r = run (sys, names, 2, 2.0, 0.01);
  double worst_w = 0, worst_phi = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      double e = exp (-4.0 * row[0]);
      worst_w = MAX (worst_w, fabs (row[1] - 100 * e) / 100);
      worst_phi = MAX (worst_phi, fabs (row[2] - 25 * (1 - e)) / 25);
    }
  g_test_message ("inertia–damper: ω(2 s) = %.9g rad/s (exact %.9g); worst relative error ω %.3g, φ %.3g",
                  LAST (r)[1], 100 * exp (-8.0), worst_w, worst_phi);
  g_assert_cmpfloat (worst_w, <, 1e-6);
  g_assert_cmpfloat (worst_phi, <, 1e-6);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* An inertia J = 0.5 kg·m² on a torsion spring k = 200 N·m/rad (preload
 * −4 N·m) to a frame, driven by 10 N·m from rest: J·φ̈ = T − k·φ − τ₀, so
 * φ = (T − τ₀)/k·(1 − cos ω t) with ω = √(k/J) = 20 rad/s. */
static void
test_torsion_oscillator (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"J1\", \"type\": \"inertia\", \"params\": {\"inertia\": 0.5}},"
    "{\"id\": \"K1\", \"type\": \"torsion_spring\", \"params\": {\"stiffness\": 200, \"preload\": -4}},"
    "{\"id\": \"X1\", \"type\": \"fixed_frame\"},"
    "{\"id\": \"T1\", \"type\": \"torque_source\", \"params\": {\"torque\": 10}}],"
    "\"connections\": [{\"from\": \"T1.A\", \"to\": \"J1.A\"}, {\"from\": \"J1.A\", \"to\": \"K1.B\"},"
    "{\"from\": \"K1.A\", \"to\": \"X1.A\"}]}");
  double y[2] = { -2.0, 0.03 };
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "J1.A.phi" };
  Rows r = run (sys, names, 1, 2.0, 0.002);
  double w = 20.0, X = 14.0 / 200.0, worst = 0, t_min = NAN;
  for (guint i = 1; i + 1 < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      worst = MAX (worst, fabs (row[1] - X * (1 - cos (w * row[0]))));
      if (isnan (t_min) && row[0] > 0.05 && row[1] <= ROW (r, i - 1)[1] && row[1] <= ROW (r, i + 1)[1])
        t_min = row[0];
    }
  g_test_message ("torsion oscillator: ω = √(k/J) = %g rad/s, period %.4f s, first return to 0 at %.3f s; "
                  "worst |φ − φ_exact| = %.3g rad (amplitude %g rad)", w, 2 * G_PI / w, t_min, worst, X);
  g_assert_cmpfloat (worst, <, 1e-6 * X * 10);
  g_assert_cmpfloat (fabs (t_min - 2 * G_PI / w), <=, 0.002);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* Speed-dependent loads on J = 0.2 kg·m² driven by 20 N·m from rest.
 * Linear: 10 N·m at 100 rad/s, c = 0.1 N·m·s/rad: ω = T/c·(1 − e^(−c·t/J)),
 * 200 rad/s at the end. Quadratic (a fan, 50 N·m at 100 rad/s, ω_ε = 0.1):
 * it settles where T = T_ref·ω·√(ω² + ω_ε²)/ω_ref², i.e.
 * ω² = (−ω_ε² + √(ω_ε⁴ + 4A²))/2 with A = T·ω_ref²/T_ref. */
static void
test_speed_loads (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"J1\", \"type\": \"inertia\", \"params\": {\"inertia\": 0.2}},"
    "{\"id\": \"T1\", \"type\": \"torque_source\", \"params\": {\"torque\": 20}},"
    "{\"id\": \"L1\", \"type\": \"torque_source\", \"params\": {\"law\": \"linear\", \"torque\": 10, "
    "\"reference_speed\": 100}},"
    "{\"id\": \"J2\", \"type\": \"inertia\", \"params\": {\"inertia\": 0.2}},"
    "{\"id\": \"T2\", \"type\": \"torque_source\", \"params\": {\"torque\": 20}},"
    "{\"id\": \"F1\", \"type\": \"torque_source\", \"params\": {\"law\": \"quadratic\", \"torque\": 50, "
    "\"reference_speed\": 100, \"smoothing_speed\": 0.1}}],"
    "\"connections\": [{\"from\": \"J1.A\", \"to\": \"T1.A\"}, {\"from\": \"J1.A\", \"to\": \"L1.A\"},"
    "{\"from\": \"J2.A\", \"to\": \"T2.A\"}, {\"from\": \"J2.A\", \"to\": \"F1.A\"}]}");
  double y[4] = { 30.0, 1.0, -0.05, 2.0 };
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "J1.A.w", "J2.A.w", "F1.torque" };
  Rows r = run (sys, names, 3, 20.0, 0.01);
  double worst = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      worst = MAX (worst, fabs (row[1] - 200 * (1 - exp (-0.5 * row[0]))));
    }
  double A = 20.0 * 1e4 / 50.0, eps = 0.1;
  double w_fan = sqrt ((-eps * eps + sqrt (pow (eps, 4) + 4 * A * A)) / 2);
  double w_end = LAST (r)[2];
  g_test_message ("linear load: worst |ω − 200·(1 − e^(−t/2))| = %.3g rad/s; fan: ω(20 s) = %.9g rad/s, "
                  "by hand %.9g, load %.6g N·m", worst, w_end, w_fan, LAST (r)[3]);
  g_assert_cmpfloat (worst, <, 1e-5);
  g_assert_cmpfloat (fabs (w_end - w_fan) / w_fan, <, 1e-6);
  g_assert_cmpfloat (fabs (LAST (r)[3] + 20.0), <, 1e-4);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* A speed sensor's signal commands the torque on its own shaft: τ = ω on
 * J = 2 kg·m² from 1 rad/s, so ω = e^(t/2) (the signal in the Jacobian by
 * the chain rule). A torque sensor between a driven inertia and a braked
 * one reads the torque the damper takes at steady speed, T₀. */
static void
test_sensors (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"J1\", \"type\": \"inertia\", \"params\": {\"inertia\": 2}},"
    "{\"id\": \"S1\", \"type\": \"speed_sensor\"},"
    "{\"id\": \"T1\", \"type\": \"torque_source\", \"params\": {\"torque\": 1000}}],"
    "\"connections\": [{\"from\": \"J1.A\", \"to\": \"S1.A\", \"initial_velocity\": 1},"
    "{\"from\": \"S1.A\", \"to\": \"T1.A\"}, {\"from\": \"S1.S\", \"to\": \"T1.T\"}]}");
  double y[2] = { 1.7, 0.3 };
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "J1.A.w", "S1.w" };
  Rows r = run (sys, names, 2, 2.0, 0.01);
  double worst = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      worst = MAX (worst, fabs (row[1] - exp (row[0] / 2)) / exp (row[0] / 2));
      g_assert_cmpfloat (row[2], ==, row[1]);
    }
  g_test_message ("speed sensor → torque: ω(2 s) = %.9g (exact e = %.9g); worst relative error %.3g",
                  LAST (r)[1], exp (1.0), worst);
  g_assert_cmpfloat (worst, <, 1e-6);
  g_array_unref (r.rows);
  hyd_system_free (sys);

  sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"J1\", \"type\": \"inertia\", \"params\": {\"inertia\": 0.1}},"
    "{\"id\": \"T1\", \"type\": \"torque_source\", \"params\": {\"torque\": 10}},"
    "{\"id\": \"Q1\", \"type\": \"torque_sensor\"},"
    "{\"id\": \"J2\", \"type\": \"inertia\", \"params\": {\"inertia\": 0.4}},"
    "{\"id\": \"D1\", \"type\": \"rotational_damper\", \"params\": {\"damping\": 2}},"
    "{\"id\": \"X1\", \"type\": \"fixed_frame\"},"
    "{\"id\": \"T3\", \"type\": \"torque_source\"},"
    "{\"id\": \"J3\", \"type\": \"inertia\", \"params\": {\"inertia\": 1}}],"
    "\"connections\": [{\"from\": \"J1.A\", \"to\": \"T1.A\"}, {\"from\": \"J1.A\", \"to\": \"Q1.A\"},"
    "{\"from\": \"Q1.B\", \"to\": \"J2.A\"}, {\"from\": \"J2.A\", \"to\": \"D1.A\"},"
    "{\"from\": \"D1.B\", \"to\": \"X1.A\"},"
    "{\"from\": \"Q1.S\", \"to\": \"T3.T\"}, {\"from\": \"T3.A\", \"to\": \"J3.A\"}]}");
  double y3[6] = { 4.0, 0.2, 3.9, 0.19, 1.0, 0.5 };
  check_jacobian (sys, 0.0, y3);
  const char *names3[] = { "Q1.torque", "Q1.B.w", "T3.A.w" };
  r = run (sys, names3, 3, 5.0, 1e-3);
  /* J3 integrates the sensor's signal: ω₃ = ∫τ dt (trapezoid over the samples) */
  double integral = 0;
  for (guint i = 1; i < N_ROWS (r); i++)
    integral += (ROW (r, i)[0] - ROW (r, i - 1)[0]) * (ROW (r, i)[1] + ROW (r, i - 1)[1]) / 2;
  g_test_message ("torque sensor: %.9g N·m at 5 s (the damper's 2·ω = %.9g, T₀ = 10); ω₃ = %.9g, ∫τ dt = %.9g",
                  LAST (r)[1], 2 * LAST (r)[2], LAST (r)[3], integral);
  g_assert_cmpfloat (fabs (LAST (r)[1] - 10.0), <, 1e-5);
  g_assert_cmpfloat (fabs (LAST (r)[3] - integral) / integral, <, 1e-5);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* A pump whose shaft is an inertia J = 0.05 kg·m² spinning at 150 rad/s,
 * delivering into 80 bar from a tank: the shaft takes τ = D·Δp/η, so
 * ω = ω₀ − D·Δp/(η·J)·t while it turns forward. */
static void
test_pump_torque (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"J1\", \"type\": \"inertia\", \"params\": {\"inertia\": 0.05}},"
    "{\"id\": \"P1\", \"type\": \"fixed_pump\", \"params\": {\"displacement\": 1e-6, "
    "\"hydromechanical_efficiency\": 0.8, \"speed\": 999}},"
    "{\"id\": \"T1\", \"type\": \"tank\", \"params\": {\"pressure\": 0}},"
    "{\"id\": \"B1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 8e6}}],"
    "\"connections\": [{\"from\": \"J1.A\", \"to\": \"P1.shaft\", \"initial_velocity\": 150},"
    "{\"from\": \"T1.T\", \"to\": \"P1.S\"}, {\"from\": \"P1.P\", \"to\": \"B1.P\"}]}");
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 2);
  double y[2] = { 120.0, 3.0 };
  check_jacobian (sys, 0.1, y);
  const char *names[] = { "J1.A.w", "P1.flow", "P1.torque" };
  Rows r = run (sys, names, 3, 0.5, 0.01);
  double decel = 1e-6 * 8e6 / (0.8 * 0.05), worst = 0, worst_q = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      worst = MAX (worst, fabs (row[1] - (150 - decel * row[0])));
      worst_q = MAX (worst_q, fabs (row[2] - 1e-6 * row[1]));
      g_assert_cmpfloat (fabs (row[3] - 10.0), <, 1e-9);
    }
  g_test_message ("pump torque D·Δp/η = 10 N·m: ω(0.5 s) = %.9g rad/s (exact %.9g); worst |ω − ω_exact| = %.3g, "
                  "|q − D·ω| = %.3g m³/s", LAST (r)[1], 150 - decel * 0.5, worst, worst_q);
  g_assert_cmpfloat (worst, <, 1e-6 * 150);
  g_assert_cmpfloat (worst_q, <, 1e-15);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* A motor (D = 10 cm³/rev, b = 0.05 N·m·s/rad, leakage 1e-12) between
 * 100 bar and a tank driving its own inertia 0.01 and a load inertia 0.09
 * kg·m² from rest: ω = ω∞·(1 − e^(−b·t/J)), ω∞ = D·Δp/b, and the energy
 * a flow meter sees going in, ∫Δp·q dt, is the kinetic energy ½·J·ω² plus
 * the friction's ∫b·ω² dt and the leakage's ∫L·Δp² dt. */
static void
test_motor_power_balance (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"J1\", \"type\": \"inertia\", \"params\": {\"inertia\": 0.09}},"
    "{\"id\": \"M1\", \"type\": \"motor_fixed\", \"params\": {\"displacement\": 1.5915494309189535e-06, "
    "\"inertia\": 0.01, \"viscous_friction\": 0.05, \"leakage\": 1e-12}},"
    "{\"id\": \"B1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 1e7}},"
    "{\"id\": \"Q1\", \"type\": \"flow_meter\"},"
    "{\"id\": \"T1\", \"type\": \"tank\", \"params\": {\"pressure\": 0}}],"
    "\"connections\": [{\"from\": \"J1.A\", \"to\": \"M1.shaft\"},"
    "{\"from\": \"B1.P\", \"to\": \"Q1.A\"}, {\"from\": \"Q1.B\", \"to\": \"M1.A\"},"
    "{\"from\": \"M1.B\", \"to\": \"T1.T\"}]}");
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 2);
  double y[2] = { 50.0, 3.0 };
  check_jacobian (sys, 0.1, y);
  const char *names[] = { "J1.A.w", "Q1.q" };
  Rows r = run (sys, names, 2, 2.0, 1e-3);
  double D = 1.5915494309189535e-06, dp = 1e7, b = 0.05, J = 0.1, L = 1e-12;
  double winf = D * dp / b, worst = 0, E_in = 0, E_f = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      worst = MAX (worst, fabs (row[1] - winf * (1 - exp (-b * row[0] / J))) / winf);
      if (i > 0)
        {
          const double *prev = ROW (r, i - 1);
          double h = row[0] - prev[0];
          E_in += h * dp * (row[2] + prev[2]) / 2;
          E_f += h * b * (row[1] * row[1] + prev[1] * prev[1]) / 2;
        }
    }
  double T = LAST (r)[0], w = LAST (r)[1];
  double E_k = J * w * w / 2, E_l = L * dp * dp * T;
  double balance = (E_in - E_k - E_f - E_l) / E_in;
  g_test_message ("motor power balance over %g s: in %.9g J = kinetic %.9g + friction %.9g + leakage %.9g "
                  "(relative mismatch %.3g); worst relative error of ω %.3g", T, E_in, E_k, E_f, E_l, balance,
                  worst);
  g_assert_cmpfloat (worst, <, 1e-6);
  g_assert_cmpfloat (fabs (balance), <, 1e-6);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* Kloss's formula with the default nameplate (ω_s = 1500 rpm, rated
 * 1450 rpm and 50 N·m, breakdown 125 N·m): s_b = s_n·(k + √(k² − 1)). At
 * a load T_L the motor runs where 2·T_b·s_b·s/(s² + s_b²) = T_L, on the
 * stable branch s = s_b·(T_b/T_L − √((T_b/T_L)² − 1)). */
static double
kloss_speed (double T_L)
{
  double ws = 50 * G_PI, sn = (ws - 1450 * G_PI / 30) / ws, k = 2.5;
  double sb = sn * (k + sqrt (k * k - 1));
  double r = 125.0 / T_L;
  return ws * (1 - sb * (r - sqrt (r * r - 1)));
}

/* Start-up from rest: the motor (rotor 0.03 kg·m²) with an inertia 0.47
 * kg·m² against a constant 30 N·m, and a second one turning a pump
 * (20 cm³/rev, η = 0.9) into 80 bar: τ = D·Δp/η = 28.29 N·m. */
static void
test_motor_startup (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"E1\", \"type\": \"electric_motor\"},"
    "{\"id\": \"J1\", \"type\": \"inertia\", \"params\": {\"inertia\": 0.47}},"
    "{\"id\": \"L1\", \"type\": \"torque_source\", \"params\": {\"torque\": -30}},"
    "{\"id\": \"E2\", \"type\": \"electric_motor\"},"
    "{\"id\": \"P1\", \"type\": \"fixed_pump\", \"params\": {\"displacement\": 3.183098861837907e-06, "
    "\"hydromechanical_efficiency\": 0.9}},"
    "{\"id\": \"T1\", \"type\": \"tank\", \"params\": {\"pressure\": 0}},"
    "{\"id\": \"B1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 8e6}}],"
    "\"connections\": [{\"from\": \"E1.shaft\", \"to\": \"J1.A\"}, {\"from\": \"J1.A\", \"to\": \"L1.A\"},"
    "{\"from\": \"E2.shaft\", \"to\": \"P1.shaft\"},"
    "{\"from\": \"T1.T\", \"to\": \"P1.S\"}, {\"from\": \"P1.P\", \"to\": \"B1.P\"}]}");
  double y[4] = { 40.0, 1.0, 150.0, 2.0 };
  check_jacobian (sys, 0.0, y);
  y[0] = 156.0;
  y[2] = 158.0;
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "E1.shaft.w", "E2.shaft.w", "E2.torque", "P1.torque" };
  Rows r = run (sys, names, 4, 5.0, 0.01);
  double w1 = kloss_speed (30.0), TL2 = 3.183098861837907e-06 * 8e6 / 0.9, w2 = kloss_speed (TL2);
  g_test_message ("induction motor start-up: against 30 N·m ω(5 s) = %.9g rad/s, by hand %.9g; turning a pump "
                  "into 80 bar (%.6g N·m) ω(5 s) = %.9g rad/s, by hand %.9g; motor %.6g N·m, pump %.6g N·m",
                  LAST (r)[1], w1, TL2, LAST (r)[2], w2, LAST (r)[3], LAST (r)[4]);
  g_assert_cmpfloat (fabs (LAST (r)[1] - w1) / w1, <, 1e-6);
  g_assert_cmpfloat (fabs (LAST (r)[2] - w2) / w2, <, 1e-6);
  g_assert_cmpfloat (fabs (LAST (r)[3] - TL2) / TL2, <, 1e-5);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* A semi-rotary actuator (D = 2e-5 m³/rad, Θ = π) fed 50 bar at A, B to
 * tank, turning 0.5 kg·m² (vane and load) without friction: θ = α·t²/2
 * with α = D·Δp/J = 200 rad/s² until the B end stop at t = √(2Θ/α), where
 * it rests where the stop's torque k·soft_ramp(θ − Θ, w) takes D·Δp = 100
 * N·m: below k·w/2 = 500 N·m that is the ramp's quadratic part,
 * k·δ²/(2w) = D·Δp, so θ = Θ + √(2·w·D·Δp/k) (w = 1e-3 rad, k = 1e6
 * N·m/rad). Fed 1 L/min instead, against a damper of
 * 10 N·m·s/rad: ω = Q/D, p_A = (d + b)·ω/D. */
static void
test_semi_rotary (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"R1\", \"type\": \"semi_rotary_actuator\", \"params\": {\"displacement\": 2e-5, "
    "\"viscous_friction\": 0}},"
    "{\"id\": \"J1\", \"type\": \"inertia\", \"params\": {\"inertia\": 0.495}},"
    "{\"id\": \"B1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 5e6}},"
    "{\"id\": \"T1\", \"type\": \"tank\", \"params\": {\"pressure\": 0}}],"
    "\"connections\": [{\"from\": \"R1.shaft\", \"to\": \"J1.A\"},"
    "{\"from\": \"B1.P\", \"to\": \"R1.A\"}, {\"from\": \"R1.B\", \"to\": \"T1.T\"}]}");
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 3);
  /* θ, ω, φ: free, and pressed into the stop */
  double y[3] = { 1.0, 20.0, 1.0 };
  check_jacobian (sys, 0.1, y);
  double yc[3] = { G_PI + 7e-4, -3.0, G_PI };
  check_jacobian (sys, 0.1, yc);
  const char *names[] = { "R1.theta", "R1.shaft.w", "R1.shaft.phi", "R1.torque" };
  Rows r = run (sys, names, 4, 0.6, 0.001);
  double alpha = 2e-5 * 5e6 / 0.5, t_hit = sqrt (2 * G_PI / alpha), worst = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      if (row[0] < t_hit - 0.002)
        worst = MAX (worst, fabs (row[1] - alpha * row[0] * row[0] / 2));
      g_assert_cmpfloat (fabs (row[1] - row[3]), <, 1e-9 + 1e-7 * fabs (row[1]));
    }
  double rest = G_PI + sqrt (2 * 1e-3 * 2e-5 * 5e6 / 1e6);
  g_test_message ("semi-rotary: θ = α·t²/2 before the stop (t = %.4f s): worst error %.3g rad; rests at %.9g rad "
                  "(by hand Θ + √(2·w·D·Δp/k) = %.9g), ω %.3g rad/s, torque %.6g N·m",
                  t_hit, worst, LAST (r)[1], rest, LAST (r)[2], LAST (r)[4]);
  g_assert_cmpfloat (worst, <, 1e-6);
  g_assert_cmpfloat (fabs (LAST (r)[1] - rest), <, 1e-6);
  g_assert_cmpfloat (fabs (LAST (r)[2]), <, 1e-4);
  g_array_unref (r.rows);
  hyd_system_free (sys);

  sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"R1\", \"type\": \"semi_rotary_actuator\", \"params\": {\"displacement\": 2e-5, "
    "\"initial_angle\": 0.2}},"
    "{\"id\": \"D1\", \"type\": \"rotational_damper\", \"params\": {\"damping\": 10}},"
    "{\"id\": \"X1\", \"type\": \"fixed_frame\"},"
    "{\"id\": \"Q1\", \"type\": \"flow_source\", \"params\": {\"flow\": 1.6666666666666667e-05}},"
    "{\"id\": \"T1\", \"type\": \"tank\", \"params\": {\"pressure\": 0}}],"
    "\"connections\": [{\"from\": \"R1.shaft\", \"to\": \"D1.A\"}, {\"from\": \"D1.B\", \"to\": \"X1.A\"},"
    "{\"from\": \"Q1.P\", \"to\": \"R1.A\"}, {\"from\": \"R1.B\", \"to\": \"T1.T\"}]}");
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 4);
  double y4[4];
  for (guint i = 0; i < 4; i++)
    {
      const char *sn = hyd_system_get_state_name (sys, i);
      y4[i] = g_str_has_suffix (sn, ".theta") ? 1.3 : g_str_has_suffix (sn, ".w") ? 0.6
              : g_str_has_suffix (sn, ".phi") ? 1.1 : 4e5;
    }
  check_jacobian (sys, 0.3, y4);
  const char *names2[] = { "R1.shaft.w", "R1.A.p", "R1.theta" };
  r = run (sys, names2, 3, 2.0, 0.01);
  double w = 1.6666666666666667e-05 / 2e-5, p = 10.1 * w / 2e-5;
  g_test_message ("semi-rotary fed 1 L/min: ω(2 s) = %.9g rad/s (Q/D = %.9g), p_A = %.9g Pa (by hand %.9g), "
                  "θ = %.6g rad", LAST (r)[1], w, LAST (r)[2], p, LAST (r)[3]);
  g_assert_cmpfloat (fabs (LAST (r)[1] - w) / w, <, 1e-6);
  g_assert_cmpfloat (fabs (LAST (r)[2] - p) / p, <, 1e-6);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* The example hydrostatic-transmission-speed-control: a PI on the load's
 * speed leaves no steady error (120 rad/s), and the pump's fraction,
 * speed and the line pressure are those solved by hand in its notes
 * (fan 17.508 N·m + friction 1.2 N·m over D: 58.774 bar; the induction
 * motor at 155.2084 rad/s; fraction 0.89212). */
static void
test_transmission_example (void)
{
  g_autofree char *path = g_build_filename (HYD_TEST_DATA_DIR, "examples", "hydrostatic-transmission-speed-control.bramah",
                                            NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_file (path, &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  const char *names[] = { "M1.shaft.w", "E1.shaft.w", "P1.P.p", "K1.Y" };
  Rows r = run (sys, names, 4, 10.0, 0.05);
  const double *end = LAST (r);
  double D = 3.183098861837907e-06, w = 120.0, wr = 50 * G_PI, eps = G_PI / 30;
  double dp = (30 * w * sqrt (w * w + eps * eps) / (wr * wr) + 0.01 * w) / D;
  double q = D * w + 1e-11 * dp;
  /* the induction motor where Kloss's torque equals the pump's q·Δp/(η·ω_p) */
  double ws = 50 * G_PI, sn = (ws - 1450 * G_PI / 30) / ws, sb = sn * (2.5 + sqrt (2.5 * 2.5 - 1));
  double lo = 140, hi = ws - 1e-9;
  for (int i = 0; i < 200; i++)
    {
      double m = (lo + hi) / 2, s = (ws - m) / ws;
      if (2 * 125 * sb * s / (s * s + sb * sb) > q * dp / (0.9 * m))
        lo = m;
      else
        hi = m;
    }
  double frac = q / (D * lo);
  g_test_message ("transmission at 10 s: ω = %.9g rad/s (set-point 120), pump %.9g rad/s (by hand %.9g), "
                  "%.7g Pa (by hand %.7g), fraction %.7g (by hand %.7g)", end[1], end[2], lo, end[3], dp, end[4], frac);
  g_assert_cmpfloat (fabs (end[1] - 120.0), <, 1e-4);
  g_assert_cmpfloat (fabs (end[2] - lo) / lo, <, 1e-6);
  g_assert_cmpfloat (fabs (end[3] - dp) / dp, <, 1e-4);
  g_assert_cmpfloat (fabs (end[4] - frac) / frac, <, 1e-5);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* Nameplates that are no induction motor, a wired motor with an initial
 * speed of its own and a shaft without inertia are refused by name. */
static void
test_refusals (void)
{
  g_autofree char *a = compile_error (
    HEAD "\"components\": [{\"id\": \"E1\", \"type\": \"electric_motor\", \"params\": {\"rated_speed\": 200}},"
    "{\"id\": \"J1\", \"type\": \"inertia\"}], \"connections\": [{\"from\": \"E1.shaft\", \"to\": \"J1.A\"}]}");
  g_assert_nonnull (strstr (a, "E1"));
  g_assert_nonnull (strstr (a, "rated_speed"));
  g_autofree char *b = compile_error (
    HEAD "\"components\": [{\"id\": \"E1\", \"type\": \"electric_motor\", \"params\": {\"breakdown_torque\": 40}},"
    "{\"id\": \"J1\", \"type\": \"inertia\"}], \"connections\": [{\"from\": \"E1.shaft\", \"to\": \"J1.A\"}]}");
  g_assert_nonnull (strstr (b, "breakdown_torque"));
  g_autofree char *c = compile_error (
    HEAD "\"components\": [{\"id\": \"M1\", \"type\": \"motor_fixed\", \"params\": {\"initial_speed\": 5}},"
    "{\"id\": \"J1\", \"type\": \"inertia\"}, {\"id\": \"T1\", \"type\": \"tank\"},"
    "{\"id\": \"B1\", \"type\": \"pressure_source\"}],"
    "\"connections\": [{\"from\": \"M1.shaft\", \"to\": \"J1.A\"}, {\"from\": \"B1.P\", \"to\": \"M1.A\"},"
    "{\"from\": \"M1.B\", \"to\": \"T1.T\"}]}");
  g_assert_nonnull (strstr (c, "M1"));
  g_assert_nonnull (strstr (c, "initial_velocity"));
  g_autofree char *d = compile_error (
    HEAD "\"components\": [{\"id\": \"P1\", \"type\": \"fixed_pump\"}, {\"id\": \"T1\", \"type\": \"tank\"},"
    "{\"id\": \"B1\", \"type\": \"pressure_source\"}, {\"id\": \"L1\", \"type\": \"torque_source\"}],"
    "\"connections\": [{\"from\": \"P1.shaft\", \"to\": \"L1.A\"}, {\"from\": \"T1.T\", \"to\": \"P1.S\"},"
    "{\"from\": \"P1.P\", \"to\": \"B1.P\"}]}");
  g_assert_nonnull (strstr (d, "P1.shaft"));
  g_assert_nonnull (strstr (d, "inertia"));
}

/* An unwired shaft is no node: a pump circuit keeps its states and needs
 * no inertia, in version 1 and version 2 files alike. */
static void
test_unwired_shaft (void)
{
  for (guint v = 1; v <= 2; v++)
    {
      g_autofree char *json = g_strdup_printf (
        "{\"format\": \"bramah-circuit\", \"version\": %u, \"components\": ["
        "{\"id\": \"P1\", \"type\": \"fixed_pump\"}, {\"id\": \"T1\", \"type\": \"tank\"},"
        "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"volume\": 1e-3}},"
        "{\"id\": \"M1\", \"type\": \"motor_fixed\"}],"
        "\"connections\": [{\"from\": \"T1.T\", \"to\": \"P1.S\"}, {\"from\": \"P1.P\", \"to\": \"V1.P\"},"
        "{\"from\": \"V1.P\", \"to\": \"M1.A\"}, {\"from\": \"M1.B\", \"to\": \"T1.T\"}]}", v);
      HydSystem *sys = compile_ok (json);
      /* the volume's pressure and the motor's θ and w */
      g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 3);
      g_assert_cmpint (hyd_system_find_variable (sys, "M1.w"), >=, 0);
      hyd_system_free (sys);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/rotational/partials", test_partials);
  g_test_add_func ("/engine/rotational/shaft-partials", test_shaft_partials);
  g_test_add_func ("/engine/rotational/inertia-damper", test_inertia_damper);
  g_test_add_func ("/engine/rotational/torsion-oscillator", test_torsion_oscillator);
  g_test_add_func ("/engine/rotational/speed-loads", test_speed_loads);
  g_test_add_func ("/engine/rotational/sensors", test_sensors);
  g_test_add_func ("/engine/rotational/pump-torque", test_pump_torque);
  g_test_add_func ("/engine/rotational/motor-power-balance", test_motor_power_balance);
  g_test_add_func ("/engine/rotational/motor-startup", test_motor_startup);
  g_test_add_func ("/engine/rotational/semi-rotary", test_semi_rotary);
  g_test_add_func ("/engine/rotational/transmission-example", test_transmission_example);
  g_test_add_func ("/engine/rotational/refusals", test_refusals);
  g_test_add_func ("/engine/rotational/unwired-shaft", test_unwired_shaft);
  return g_test_run ();
}
