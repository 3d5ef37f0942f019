/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-signals.c — the signal blocks (engine/components/hyd-comp-signals.c):
 * each block's outputs, state derivatives and their analytic partials
 * (∂/∂z and ∂/∂t) against central differences, and small block diagrams
 * against their closed-form responses: a first-order lag's step response
 * 1 − e^(−t/T), an integrator held at its limits, a PI loop around an
 * integrator plant (zero steady-state error, e = (1 − t)·e^(−t)), the
 * PID's anti-windup, and a PI loop closed through the hydraulics (a gauge
 * reading a volume's pressure commands the flow into it). */
#include <math.h>
#include <string.h>

#include "fd-harness.h"
#include "hyd-catalogue.h"
#include "hyd-circuit.h"
#include "hyd-run.h"
#include "hyd-system.h"

/* ------------------------------------------------------ local partials */

typedef struct {
  double s[8], ds[8 * 16], s_t[8];
  double xdot[8], jac[16 * 16], x_t[8];
} Local;

static void
eval_block (HydComp *comp, double t, const double *z, const double *d, Local *L)
{
  guint np = comp->type->n_ports, ns = comp->n_states, nl = hyd_comp_n_local (comp);
  g_assert_cmpuint (nl, <=, 16);
  g_assert_cmpuint (comp->nnz, ==, nl * nl);
  memset (L, 0, sizeof *L);
  double q[16] = { 0 }, V[16] = { 0 }, dV[16] = { 0 }, d2V[16] = { 0 }, C[16] = { 0 }, dC[16] = { 0 };
  double outv[16] = { 0 };
  HydEvalIn in = { .t = t, .p = z, .x = z + np, .pos = NULL, .d = d };
  if (comp->type->signals)
    comp->type->signals (comp, &in, L->s, L->ds, L->s_t);
  if (ns > 0)
    {
      double jac[16 * 16] = { 0 }, q_t[16] = { 0 };
      HydEvalOut out = { q, L->xdot, jac, q_t, L->x_t, V, dV, d2V, C, dC, outv };
      comp->type->eval (comp, &in, &out);
      /* rows np… of the dense block are the state derivatives */
      memcpy (L->jac, jac + np * nl, sizeof (double) * ns * nl);
    }
}

/* Every ∂s_Y/∂z, ∂s_Y/∂t, ∂ẋ/∂z, ∂ẋ/∂t of the block at (t, z, d) against
 * central differences (step 1e-6), to 1e-7 of the row's largest entry;
 * returns the number of misses. */
static guint
check_block (HydComp *comp, double t, const double *z, const double *d, const char *where)
{
  guint np = comp->type->n_ports, ns = comp->n_states, nl = hyd_comp_n_local (comp), misses = 0;
  Local L, Lp, Lm;
  eval_block (comp, t, z, d, &L);
  double zz[16];
  for (guint r = 0; r < np + ns; r++)
    {
      gboolean is_output = r < np && comp->type->ports[r].direction == HYD_PORT_OUTPUT;
      if (r < np && !is_output)
        continue;
      const double *J = r < np ? L.ds + r * nl : L.jac + (r - np) * nl;
      double scale = 0;
      for (guint c = 0; c < nl; c++)
        scale = MAX (scale, fabs (J[c]));
      for (guint c = 0; c <= nl; c++)
        {
          double h = 1e-6;
          if (c < nl)
            {
              memcpy (zz, z, sizeof (double) * nl);
              zz[c] = z[c] + h;
              eval_block (comp, t, zz, d, &Lp);
              zz[c] = z[c] - h;
              eval_block (comp, t, zz, d, &Lm);
            }
          else
            {
              /* the compiler moves profile parameters with t: par ± par_dt·h */
              for (guint k = 0; k < comp->type->n_params; k++)
                comp->par[k] += comp->par_dt[k] * h;
              eval_block (comp, t + h, z, d, &Lp);
              for (guint k = 0; k < comp->type->n_params; k++)
                comp->par[k] -= 2 * comp->par_dt[k] * h;
              eval_block (comp, t - h, z, d, &Lm);
              for (guint k = 0; k < comp->type->n_params; k++)
                comp->par[k] += comp->par_dt[k] * h;
            }
          double fp = r < np ? Lp.s[r] : Lp.xdot[r - np];
          double fm = r < np ? Lm.s[r] : Lm.xdot[r - np];
          double D = (fp - fm) / (2 * h);
          double A = c < nl ? J[c] : (r < np ? L.s_t[r] : L.x_t[r - np]);
          if (fabs (A - D) > 1e-7 * MAX (scale, fabs (D)) + 1e-9)
            {
              g_test_message ("%s %s: ∂row%u/∂z_%u = %.10g, finite differences %.10g", where,
                              comp->type->id, r, c, A, D);
              misses++;
            }
        }
    }
  return misses;
}

static double
output_of (HydComp *comp, double t, const double *z, const double *d, guint port)
{
  Local L;
  eval_block (comp, t, z, d, &L);
  return L.s[port];
}

static void
test_partials_group1 (void)
{
  guint misses = 0;
  double d0[1] = { 0 }, d1[1] = { 1 }, dm[1] = { -1 };

  HydComp *c = hyd_test_make_comp ("constant", NULL, "value", "2.5", NULL);
  hyd_test_set_param_rate (c, "value", 0.75);
  double z1[1] = { 0 };
  misses += check_block (c, 0.3, z1, NULL, "constant");
  g_assert_cmpfloat (fabs (output_of (c, 0.3, z1, NULL, 0) - (2.5)), <, 1e-12);
  hyd_comp_free (c);

  c = hyd_test_make_comp ("step", NULL, "initial", "-1", "final", "4", "time", "0.5", NULL);
  g_assert_cmpuint (c->n_dstates, ==, 1);
  g_assert_cmpuint (c->n_events, ==, 1);
  hyd_test_set_param_rate (c, "final", 2.0);
  misses += check_block (c, 0.7, z1, d1, "step after");
  misses += check_block (c, 0.2, z1, d0, "step before");
  g_assert_cmpfloat (fabs (output_of (c, 0.2, z1, d0, 0) - (-1.0)), <, 1e-12);
  g_assert_cmpfloat (fabs (output_of (c, 0.7, z1, d1, 0) - (4.0)), <, 1e-12);
  {
    /* the update: at its located event (t = T, crossing up) it steps */
    double d[1] = { 0 };
    int crossed[1] = { 1 };
    HydEvalIn in = { .t = 0.5, .p = z1, .d = d };
    g_assert_true (c->type->update (c, &in, crossed, d));
    g_assert_cmpfloat (d[0], ==, 1.0);
    g_assert_false (c->type->update (c, &in, NULL, d));
  }
  hyd_comp_free (c);

  c = hyd_test_make_comp ("gain", NULL, "gain", "-3", NULL);
  hyd_test_set_param_rate (c, "gain", 0.5);
  double z2[2] = { 1.7, 0 };
  misses += check_block (c, 0.3, z2, NULL, "gain");
  g_assert_cmpfloat (fabs (output_of (c, 0.3, z2, NULL, 1) + 5.1), <, 1e-12);
  hyd_comp_free (c);

  c = hyd_test_make_comp ("sum", NULL, "signs", "+-+", NULL);
  double z4[4] = { 1.5, 0.25, -2.0, 0 };
  misses += check_block (c, 0.3, z4, NULL, "sum +-+");
  g_assert_cmpfloat (fabs (output_of (c, 0.3, z4, NULL, 3) - (1.5 - 0.25 - 2.0)), <, 1e-12);
  hyd_comp_free (c);
  c = hyd_test_make_comp ("sum", NULL, NULL);
  z4[2] = 0.0; /* an unwired U3 reads 0 */
  misses += check_block (c, 0.3, z4, NULL, "sum +-");
  g_assert_cmpfloat (fabs (output_of (c, 0.3, z4, NULL, 3) - (1.25)), <, 1e-12);
  hyd_comp_free (c);

  c = hyd_test_make_comp ("product", NULL, NULL);
  double z3[3] = { 1.5, -0.4, 0 };
  misses += check_block (c, 0.3, z3, NULL, "product");
  g_assert_cmpfloat (fabs (output_of (c, 0.3, z3, NULL, 2) + 0.6), <, 1e-15);
  hyd_comp_free (c);

  c = hyd_test_make_comp ("saturation", NULL, "lower", "-0.5", "upper", "2", NULL);
  g_assert_cmpuint (c->n_events, ==, 2);
  for (guint i = 0; i < 3; i++)
    {
      double u[3] = { -0.9, 0.3, 2.6 }, want[3] = { -0.5, 0.3, 2.0 };
      double z[2] = { u[i], 0 };
      misses += check_block (c, 0.3, z, NULL, "saturation");
      g_assert_cmpfloat (fabs (output_of (c, 0.3, z, NULL, 1) - (want[i])), <, 1e-12);
    }
  hyd_comp_free (c);

  c = hyd_test_make_comp ("dead_zone", NULL, "lower", "-0.5", "upper", "2", NULL);
  for (guint i = 0; i < 3; i++)
    {
      double u[3] = { -0.9, 0.3, 2.6 }, want[3] = { -0.4, 0.0, 0.6 };
      double z[2] = { u[i], 0 };
      misses += check_block (c, 0.3, z, NULL, "dead_zone");
      g_assert_cmpfloat (fabs (output_of (c, 0.3, z, NULL, 1) - want[i]), <, 1e-15);
    }
  hyd_comp_free (c);

  c = hyd_test_make_comp ("integrator", NULL, "gain", "2", "lower", "-1", "upper", "1", NULL);
  hyd_test_set_param_rate (c, "gain", 0.3);
  g_assert_true (c->type->signal_feedthrough_free);
  double zi[3] = { 0.8, 0, 0.4 };
  misses += check_block (c, 0.3, zi, d0, "integrator free");
  misses += check_block (c, 0.3, zi, d1, "integrator held");
  misses += check_block (c, 0.3, zi, dm, "integrator held low");
  {
    /* a root finder (CVODE's) may stop a hair before the limit: the
     * crossing's direction holds it all the same; then, the input turned,
     * it lets go */
    double z[3] = { 0.5, 0, 1.0 - 1e-12 }, d[1] = { 0 };
    int crossed[3] = { 1, 0, 0 };
    HydEvalIn in = { .t = 0.3, .p = z, .x = z + 2, .d = d };
    g_assert_true (c->type->update (c, &in, crossed, d));
    g_assert_cmpfloat (d[0], ==, 1.0);
    g_assert_false (c->type->update (c, &in, NULL, d));
    z[0] = -0.5;
    int turned[3] = { 0, 0, -1 };
    g_assert_true (c->type->update (c, &in, turned, d));
    g_assert_cmpfloat (d[0], ==, 0.0);
  }
  hyd_comp_free (c);

  c = hyd_test_make_comp ("first_order_lag", NULL, "gain", "1.5", "time_constant", "0.4", NULL);
  hyd_test_set_param_rate (c, "gain", -0.2);
  misses += check_block (c, 0.3, zi, NULL, "first_order_lag");
  hyd_comp_free (c);

  c = hyd_test_make_comp ("pid", NULL, "kp", "2", "ki", "3", "kd", "0.1", "derivative_filter", "0.05",
                          "lower", "-1", "upper", "1.5", "tracking_time", "0.5", NULL);
  hyd_test_set_param_rate (c, "kp", 0.4);
  hyd_test_set_param_rate (c, "ki", -0.3);
  hyd_test_set_param_rate (c, "kd", 0.05);
  g_assert_false (c->type->signal_feedthrough_free);
  /* inside the limits and beyond the upper one */
  double zp[4] = { 0.2, 0, 0.3, 0.1 };
  misses += check_block (c, 0.3, zp, NULL, "pid linear");
  zp[0] = 0.9;
  misses += check_block (c, 0.3, zp, NULL, "pid saturated");
  g_assert_cmpfloat (fabs (output_of (c, 0.3, zp, NULL, 1) - (1.5)), <, 1e-12);
  hyd_comp_free (c);
  c = hyd_test_make_comp ("pid", NULL, "kp", "2", "ki", "3", "kd", "0.1", "derivative_filter", "0.05",
                          "lower", "-1", "upper", "1.5", "anti_windup", "conditional", NULL);
  hyd_test_set_param_rate (c, "ki", -0.3);
  double zc[4] = { 0.2, 0, 0.3, 0.1 };
  misses += check_block (c, 0.3, zc, NULL, "pid conditional, linear");
  zc[0] = 0.9; /* limited, the error driving it further: the integral stops */
  misses += check_block (c, 0.3, zc, NULL, "pid conditional, frozen");
  {
    Local L;
    eval_block (c, 0.3, zc, NULL, &L);
    g_assert_cmpfloat (L.xdot[0], ==, 0.0);
  }
  hyd_comp_free (c);

  g_assert_cmpuint (misses, ==, 0);
}

static void
test_partials_group2 (void)
{
  guint misses = 0;
  double z1[1] = { 0 }, d0[1] = { 0 }, d1[1] = { 1 }, d3[1] = { 3 }, d4[1] = { 4 };

  HydComp *c = hyd_test_make_comp ("ramp", NULL, "slope", "3", "start_time", "0.5", "initial", "1", NULL);
  hyd_test_set_param_rate (c, "slope", 0.4);
  hyd_test_set_param_rate (c, "initial", -0.2);
  misses += check_block (c, 0.2, z1, d0, "ramp before");
  misses += check_block (c, 0.9, z1, d1, "ramp after");
  g_assert_cmpfloat (fabs (output_of (c, 0.9, z1, d1, 0) - 2.2), <, 1e-12);
  hyd_comp_free (c);

  c = hyd_test_make_comp ("sine", NULL, "amplitude", "2", "frequency", "1.5", "phase", "0.3", "offset", "0.5",
                          NULL);
  hyd_test_set_param_rate (c, "amplitude", 0.7);
  hyd_test_set_param_rate (c, "offset", -0.1);
  misses += check_block (c, 0.37, z1, NULL, "sine");
  g_assert_cmpfloat (fabs (output_of (c, 0.37, z1, NULL, 0) - (0.5 + 2 * sin (3 * G_PI * 0.37 + 0.3))), <, 1e-12);
  hyd_comp_free (c);

  c = hyd_test_make_comp ("pulse", NULL, "amplitude", "2", "period", "0.4", "duty", "0.25", "delay", "0.1",
                          "offset", "-1", NULL);
  hyd_test_set_param_rate (c, "amplitude", 0.5);
  misses += check_block (c, 0.55, z1, d3, "pulse high");
  misses += check_block (c, 0.65, z1, d4, "pulse low");
  g_assert_cmpfloat (fabs (output_of (c, 0.55, z1, d3, 0) - 1.0), <, 1e-12);
  g_assert_cmpfloat (fabs (output_of (c, 0.65, z1, d4, 0) + 1.0), <, 1e-12);
  {
    /* edges at 0.1 (up), 0.2 (down), 0.5 (up), 0.6 (down), 0.9 …: the count
     * at each time, and the event function's zero at the next edge */
    double times[] = { 0.0, 0.1, 0.15, 0.2, 0.45, 0.5, 0.6, 0.95 }, counts[] = { 0, 1, 1, 2, 2, 3, 4, 5 };
    for (guint i = 0; i < G_N_ELEMENTS (times); i++)
      {
        double d[1] = { 0 }, g[1];
        HydEvalIn in = { .t = times[i], .p = z1, .d = d };
        c->type->update (c, &in, NULL, d);
        g_assert_cmpfloat (d[0], ==, counts[i]);
        c->type->events (c, &in, g);
        g_assert_cmpfloat (g[0], <, 0.0);
      }
  }
  hyd_comp_free (c);

  c = hyd_test_make_comp ("lookup_table", NULL, "u1", "-1", "y1", "2", "u2", "0", "y2", "0", "u3", "2", "y3", "1",
                          NULL);
  g_assert_cmpuint (c->n_events, ==, 3);
  for (guint i = 0; i < 4; i++)
    {
      double u[4] = { -2, -0.5, 1.5, 3 }, want[4] = { 2, 1, 0.75, 1 };
      double z[2] = { u[i], 0 };
      misses += check_block (c, 0.3, z, NULL, "lookup_table");
      g_assert_cmpfloat (fabs (output_of (c, 0.3, z, NULL, 1) - want[i]), <, 1e-12);
    }
  hyd_comp_free (c);

  c = hyd_test_make_comp ("second_order_filter", NULL, "gain", "2", "natural_frequency", "10", "damping_ratio",
                          "0.3", NULL);
  hyd_test_set_param_rate (c, "gain", 0.3);
  double z4[4] = { 0.8, 0, 0.4, -1.2 };
  misses += check_block (c, 0.3, z4, NULL, "second_order_filter");
  hyd_comp_free (c);

  c = hyd_test_make_comp ("rate_limiter", NULL, "rising_rate", "2", "falling_rate", "0.5", "time_constant", "0.01",
                          NULL);
  for (guint i = 0; i < 3; i++)
    {
      double u[3] = { 1.0, 0.401, -1.0 }, want[3] = { 2.0, 0.1, -0.5 };
      double z[3] = { u[i], 0, 0.4 };
      Local L;
      misses += check_block (c, 0.3, z, NULL, "rate_limiter");
      eval_block (c, 0.3, z, NULL, &L);
      g_assert_cmpfloat (fabs (L.xdot[0] - want[i]), <, 1e-9);
    }
  hyd_comp_free (c);

  c = hyd_test_make_comp ("hysteresis", NULL, "on_level", "0.5", "off_level", "-0.5", "high", "3", "low", "-1",
                          NULL);
  hyd_test_set_param_rate (c, "high", 0.25);
  g_assert_true (c->type->signal_feedthrough_free);
  double z2[2] = { 0.1, 0 };
  misses += check_block (c, 0.3, z2, d1, "hysteresis on");
  misses += check_block (c, 0.3, z2, d0, "hysteresis off");
  g_assert_cmpfloat (fabs (output_of (c, 0.3, z2, d1, 1) - 3.0), <, 1e-12);
  g_assert_cmpfloat (fabs (output_of (c, 0.3, z2, d0, 1) + 1.0), <, 1e-12);
  hyd_comp_free (c);

  c = hyd_test_make_comp ("signal_switch", NULL, "threshold", "0.2", NULL);
  double zs[4] = { 1.5, 0.7, -2.5, 0 };
  misses += check_block (c, 0.3, zs, d1, "switch U1");
  misses += check_block (c, 0.3, zs, d0, "switch U2");
  g_assert_cmpfloat (output_of (c, 0.3, zs, d1, 3), ==, 1.5);
  g_assert_cmpfloat (output_of (c, 0.3, zs, d0, 3), ==, -2.5);
  hyd_comp_free (c);

  g_assert_cmpuint (misses, ==, 0);
}

/* ------------------------------------------------------------- circuits */

#define HEAD "{\"format\": \"bramah-circuit\", \"version\": 2, "
#define CONSTANT_FLUID "\"fluid\": {\"bulk_modulus_model\": \"constant\"}, "

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

/* Runs sys to t_end at rtol 1e-8 with events on or off, sampling `names`
 * every dt. */
static Rows
run (HydSystem *sys, const char *const *names, guint n_names, double t_end, double dt, gboolean events)
{
  return hyd_test_run (sys, names, n_names, t_end, dt, 1e-8, events ? 1 : 0, NULL);
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
          double scale = 0;
          for (guint k = 0; k < n; k++)
            scale = MAX (scale, fabs (J[i + k * n]));
          double D = (fp[i] - fm[i]) / (2 * h);
          if (fabs (J[i + j * n] - D) > 1e-6 * MAX (MAX (fabs (D), scale), 1e-12))
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

/* A step 0 → 2 at t = 0.5 s into a lag K = 1.5, T = 0.4 s:
 * y = K·2·(1 − e^(−(t − 0.5)/T)) from 0.5 s on, 0 before (Ogata 2010, §5-3). */
static void
test_lag_step (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"W1\", \"type\": \"step\", \"params\": {\"initial\": 0, \"final\": 2, \"time\": 0.5}},"
    "{\"id\": \"G1\", \"type\": \"first_order_lag\", \"params\": {\"gain\": 1.5, \"time_constant\": 0.4}},"
    "{\"id\": \"K1\", \"type\": \"gain\"}],"
    "\"connections\": [{\"from\": \"W1.Y\", \"to\": \"G1.U\"}, {\"from\": \"G1.Y\", \"to\": \"K1.U\"}]}");
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 1);
  double y[1] = { 0.3 };
  check_jacobian (sys, 0.2, y);
  for (int events = 0; events < 2; events++)
    {
      const char *names[] = { "G1.Y", "W1.Y" };
      Rows r = run (sys, names, 2, 3.0, 0.01, events);
      double worst = 0;
      for (guint i = 0; i < N_ROWS (r); i++)
        {
          const double *row = ROW (r, i);
          double t = row[0], exact = t < 0.5 ? 0.0 : 3.0 * (1 - exp (-(t - 0.5) / 0.4));
          worst = MAX (worst, fabs (row[1] - exact));
          /* at 0.5 s itself the row shows the left limit, as a profile's */
          g_assert_cmpfloat (row[2], ==, t <= 0.5 ? 0.0 : 2.0);
        }
      g_test_message ("lag step response (events %s): y(3 s) = %.9g (exact %.9g); worst "
                      "|y − 3·(1 − e^(−(t−0.5)/0.4))| = %.3g", events ? "on" : "off",
                      ROW (r, N_ROWS (r) - 1)[1], 3.0 * (1 - exp (-2.5 / 0.4)), worst);
      g_assert_cmpfloat (worst, <, 1e-6);
      g_array_unref (r.rows);
    }
  hyd_system_free (sys);
}

/* The same step with a fixed step whose grid holds the step time: the step
 * that ends exactly on the event (g = t − 0.5 reaches 0 there) switches
 * the block; the next step, starting at g = 0, must not lose it. rk4 and
 * the trapezoidal rule at h = 1 ms, events on. */
static void
test_step_on_fixed_grid (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"W1\", \"type\": \"step\", \"params\": {\"initial\": 0, \"final\": 2, \"time\": 0.5}},"
    "{\"id\": \"G1\", \"type\": \"first_order_lag\", \"params\": {\"gain\": 1.5, \"time_constant\": 0.4}},"
    "{\"id\": \"K1\", \"type\": \"gain\"}],"
    "\"connections\": [{\"from\": \"W1.Y\", \"to\": \"G1.U\"}, {\"from\": \"G1.Y\", \"to\": \"K1.U\"}]}");
  const char *solvers[] = { "rk4", "trapezoid" };
  for (guint k = 0; k < G_N_ELEMENTS (solvers); k++)
    {
      HydSimOptions sim;
      g_autoptr (HydCircuit) empty = hyd_circuit_new ();
      g_assert_true (hyd_circuit_get_sim_options (empty, &sim, NULL));
      sim.t_end = 2.0;
      sim.output_interval = 0.01;
      sim.fixed_step = 1e-3;
      sim.events = TRUE;
      g_free (sim.solver);
      sim.solver = g_strdup (solvers[k]);
      int var = hyd_system_find_variable (sys, "G1.Y");
      g_assert_cmpint (var, >=, 0);
      HydTestRows r = { g_array_new (FALSE, FALSE, sizeof (double)), 0 };
      HydRunSpec spec = { .sim = &sim, .vars = &var, .n_vars = 1, .sample = hyd_test_keep_row, .user = &r };
      HydOdeResult res = { 0 };
      g_assert_cmpint (hyd_run_execute (sys, &spec, &res, NULL), ==, HYD_ODE_SUCCESS);
      double worst = 0.0;
      for (guint i = 0; i < N_ROWS (r); i++)
        {
          const double *row = ROW (r, i);
          double t = row[0], exact = t < 0.5 ? 0.0 : 3.0 * (1 - exp (-(t - 0.5) / 0.4));
          worst = MAX (worst, fabs (row[1] - exact));
        }
      g_test_message ("%s, h = 1 ms: %" G_GUINT64_FORMAT " events; worst |y − exact| = %.3g",
                      solvers[k], res.stats.events, worst);
      g_assert_cmpuint (res.stats.events, >=, 1);
      g_assert_cmpfloat (worst, <, 1e-6);
      hyd_ode_result_clear (&res);
      hyd_sim_options_clear (&sim);
      g_array_unref (r.rows);
    }
  hyd_system_free (sys);
}

/* An integrator (k = 1, limits [−0.5, 1]) of a step 2 → −1 at t = 1 s:
 * y = 2t up to 0.5 s, held at 1 until the input turns at 1 s, then
 * 1 − (t − 1) down to −0.5 at 2.5 s, held there. */
static void
test_integrator_limits (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"W1\", \"type\": \"step\", \"params\": {\"initial\": 2, \"final\": -1, \"time\": 1}},"
    "{\"id\": \"I1\", \"type\": \"integrator\", \"params\": {\"lower\": -0.5, \"upper\": 1}},"
    "{\"id\": \"K1\", \"type\": \"gain\"}],"
    "\"connections\": [{\"from\": \"W1.Y\", \"to\": \"I1.U\"}, {\"from\": \"I1.Y\", \"to\": \"K1.U\"}]}");
  const char *names[] = { "I1.Y", "I1.y" };
  Rows r = run (sys, names, 2, 4.0, 0.01, FALSE);
  double worst = 0, worst_state = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      double t = row[0];
      double exact = t < 0.5 ? 2 * t : t < 1.0 ? 1.0 : t < 2.5 ? 1.0 - (t - 1.0) : -0.5;
      worst = MAX (worst, fabs (row[1] - exact));
      worst_state = MAX (worst_state, MAX (row[2] - 1.0, -0.5 - row[2]));
      g_assert_cmpfloat (row[1], <=, 1.0);
      g_assert_cmpfloat (row[1], >=, -0.5);
    }
  g_test_message ("limited integrator: worst |y − y_exact| = %.3g, the state beyond a limit by at most %.3g",
                  worst, worst_state);
  g_assert_cmpfloat (worst, <, 1e-6);
  g_assert_cmpfloat (worst_state, <, 1e-6);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* A PI controller (K_p = 2, K_i = 1) around an integrator plant, set-point
 * 1: E/R = s²/(s + 1)², so the error is e = (1 − t)·e^(−t) and tends to 0
 * (no steady-state error with an integral term). */
static void
test_pi_loop (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"W1\", \"type\": \"constant\", \"params\": {\"value\": 1}},"
    "{\"id\": \"S1\", \"type\": \"sum\", \"params\": {\"signs\": \"+-\"}},"
    "{\"id\": \"R1\", \"type\": \"pid\", \"params\": {\"kp\": 2, \"ki\": 1}},"
    "{\"id\": \"I1\", \"type\": \"integrator\"}],"
    "\"connections\": [{\"from\": \"W1.Y\", \"to\": \"S1.U1\"}, {\"from\": \"I1.Y\", \"to\": \"S1.U2\"},"
    "{\"from\": \"S1.Y\", \"to\": \"R1.E\"}, {\"from\": \"R1.Y\", \"to\": \"I1.U\"}]}");
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 3);
  double y[3] = { 0.2, -0.1, 0.5 };
  check_jacobian (sys, 0.3, y);
  const char *names[] = { "S1.Y", "I1.Y" };
  Rows r = run (sys, names, 2, 20.0, 0.02, TRUE);
  double worst = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      worst = MAX (worst, fabs (row[1] - (1 - row[0]) * exp (-row[0])));
    }
  const double *last = ROW (r, N_ROWS (r) - 1);
  g_test_message ("PI loop: worst |e − (1 − t)·e^(−t)| = %.3g; e(20 s) = %.3g, y(20 s) = %.12g", worst,
                  last[1], last[2]);
  g_assert_cmpfloat (worst, <, 1e-6);
  g_assert_cmpfloat (fabs (last[1]), <, 1e-6);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* A PI controller (K_p = 1, K_i = 1, output limits ±0.2) around an
 * integrator plant, set-point 1: the output sits at 0.2 while the plant
 * catches up. Without anti-windup the integral winds up and the output
 * stays at the limit long after the error has turned; with back-calculation
 * (T_t = 0.5 s) it leaves the limit earlier and overshoots less (Åström &
 * Hägglund 2006, §3.5). Returns the time the output first leaves the
 * upper limit and writes the overshoot and the error left at 30 s. */
static double
windup_run (const char *anti_windup, double *overshoot, double *settled)
{
  g_autofree char *json = g_strdup_printf (
    HEAD "\"components\": ["
    "{\"id\": \"W1\", \"type\": \"constant\", \"params\": {\"value\": 1}},"
    "{\"id\": \"S1\", \"type\": \"sum\"},"
    "{\"id\": \"R1\", \"type\": \"pid\", \"params\": {\"kp\": 1, \"ki\": 1, \"lower\": -0.2, \"upper\": 0.2,"
    " \"anti_windup\": \"%s\", \"tracking_time\": 0.5}},"
    "{\"id\": \"I1\", \"type\": \"integrator\"}],"
    "\"connections\": [{\"from\": \"W1.Y\", \"to\": \"S1.U1\"}, {\"from\": \"I1.Y\", \"to\": \"S1.U2\"},"
    "{\"from\": \"S1.Y\", \"to\": \"R1.E\"}, {\"from\": \"R1.Y\", \"to\": \"I1.U\"}]}",
    anti_windup);
  HydSystem *sys = compile_ok (json);
  double y[3] = { 0.2, 0.0, 0.5 };
  check_jacobian (sys, 0.3, y);
  const char *names[] = { "R1.Y", "I1.Y" };
  Rows r = run (sys, names, 2, 30.0, 0.001, TRUE);
  double leaves = NAN;
  *overshoot = 0;
  g_assert_cmpfloat (fabs (ROW (r, 0)[1] - 0.2), <, 1e-12);
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      if (isnan (leaves) && row[1] < 0.2 - 1e-9)
        leaves = row[0];
      *overshoot = MAX (*overshoot, row[2] - 1.0);
    }
  *settled = ROW (r, N_ROWS (r) - 1)[2] - 1.0;
  g_array_unref (r.rows);
  hyd_system_free (sys);
  return leaves;
}

/* The reference figures come from an independent integration of the same
 * equations (e = 1 − y, v = e + I, u = sat(v), İ = e + (u − v)/T_t or e,
 * ẏ = u; classical RK4, h = 1e-4 s, written apart from Bramah): the output
 * leaves the limit at 4.5005 s with back-calculation and 8.899 s without,
 * the overshoots are 0.069956 and 0.801492 (0.059685 with conditional
 * integration), and at 30 s the wound-up loop
 * is still 3.2064e-4 short of the set-point (it settles at ζ = 0.5 from
 * its later start), the other within 2.5e-7. */
static void
test_pid_anti_windup (void)
{
  double over_bc, over_none, left_bc, left_none, over_ci, left_ci;
  double t_bc = windup_run ("back_calculation", &over_bc, &left_bc);
  double t_none = windup_run ("none", &over_none, &left_none);
  double t_ci = windup_run ("conditional", &over_ci, &left_ci);
  g_test_message ("PI with output limits ±0.2: leaves the limit at %.3f s with back-calculation, "
                  "%.3f s without anti-windup; overshoot %.6f against %.6f; error at 30 s %.4g "
                  "against %.4g", t_bc, t_none, over_bc, over_none, left_bc, left_none);
  /* the plant reaches the set-point at 5 s at the limited rate: without
   * anti-windup the output is still at the limit then */
  g_assert_cmpfloat (t_none, >, 5.0);
  g_assert_cmpfloat (t_bc, <, t_none - 0.5);
  g_assert_cmpfloat (over_bc, <, over_none);
  g_assert_cmpfloat (fabs (t_bc - 4.5005), <, 2e-3);
  g_assert_cmpfloat (fabs (t_none - 8.899), <, 2e-3);
  g_assert_cmpfloat (fabs (over_bc - 0.069956), <, 1e-5);
  g_assert_cmpfloat (fabs (over_none - 0.801492), <, 1e-5);
  g_assert_cmpfloat (fabs (left_bc), <, 1e-6);
  g_assert_cmpfloat (fabs (left_none + 3.2064e-4), <, 1e-7);
  /* conditional integration: the integral stays 0 while the output is
   * limited (e > 0 all along), so v = e and the output leaves the limit
   * when e = 1 − 0.2·t reaches 0.2: at 4 s exactly (the first sample
   * below it, 4.001 s); overshoot 0.059685 by the same RK4 */
  g_test_message ("conditional integration: leaves the limit at %.3f s (exact 4 s), overshoot %.6f, "
                  "error at 30 s %.3g", t_ci, over_ci, left_ci);
  g_assert_cmpfloat (fabs (t_ci - 4.0), <=, 1.5e-3);
  g_assert_cmpfloat (fabs (over_ci - 0.059685), <, 1e-5);
  g_assert_cmpfloat (fabs (left_ci), <, 1e-6);
}

/* A sum with two signs refuses a wired U3, naming the block and the port;
 * with three it adds U3. */
static void
test_sum_third_input (void)
{
#define SUM3(signs) \
    HEAD "\"components\": [" \
    "{\"id\": \"W1\", \"type\": \"constant\", \"params\": {\"value\": 2}}," \
    "{\"id\": \"W2\", \"type\": \"constant\", \"params\": {\"value\": 0.5}}," \
    "{\"id\": \"S1\", \"type\": \"sum\", \"params\": {\"signs\": \"" signs "\"}}," \
    "{\"id\": \"I1\", \"type\": \"integrator\"}]," \
    "\"connections\": [{\"from\": \"W1.Y\", \"to\": \"S1.U1\"}, {\"from\": \"W2.Y\", \"to\": \"S1.U2\"}," \
    "{\"from\": \"W2.Y\", \"to\": \"S1.U3\"}, {\"from\": \"S1.Y\", \"to\": \"I1.U\"}]}"
  const char *two = SUM3 ("+-");
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (two, -1, "test.bramah", &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_null (sys);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "S1"));
  g_assert_nonnull (strstr (error->message, "U3"));

  const char *three = SUM3 ("+--");
  sys = compile_ok (three);
  const char *names[] = { "S1.Y" };
  Rows r = run (sys, names, 1, 1.0, 0.5, TRUE);
  for (guint i = 0; i < N_ROWS (r); i++)
    g_assert_cmpfloat (ROW (r, i)[1], ==, 2.0 - 0.5 - 0.5);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* A step 0 → 1 at t = 0 into a second-order filter K = 2, ω = 10 rad/s,
 * ζ = 0.3: y = K·(1 − e^(−ζωt)·(cos ω_d·t + ζ/√(1 − ζ²)·sin ω_d·t)),
 * ω_d = ω·√(1 − ζ²) (Ogata 2010, §5-4, eq. 5-18). */
static void
test_second_order_step (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"W1\", \"type\": \"step\", \"params\": {\"time\": 0}},"
    "{\"id\": \"G1\", \"type\": \"second_order_filter\", \"params\": {\"gain\": 2, \"natural_frequency\": 10,"
    " \"damping_ratio\": 0.3}},"
    "{\"id\": \"K1\", \"type\": \"gain\"}],"
    "\"connections\": [{\"from\": \"W1.Y\", \"to\": \"G1.U\"}, {\"from\": \"G1.Y\", \"to\": \"K1.U\"}]}");
  double y[2] = { 0.3, -0.7 };
  check_jacobian (sys, 0.2, y);
  const char *names[] = { "G1.Y" };
  Rows r = run (sys, names, 1, 3.0, 0.005, TRUE);
  double z = 0.3, w = 10, wd = w * sqrt (1 - z * z), worst = 0, peak = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      double t = row[0];
      double exact = 2 * (1 - exp (-z * w * t) * (cos (wd * t) + z / sqrt (1 - z * z) * sin (wd * t)));
      worst = MAX (worst, fabs (row[1] - exact));
      peak = MAX (peak, row[1]);
    }
  double overshoot = peak / 2 - 1, exact_overshoot = exp (-z * G_PI / sqrt (1 - z * z));
  g_test_message ("second-order step response (ζ = 0.3): worst |y − y_exact| = %.3g; overshoot %.5f "
                  "(e^(−ζπ/√(1−ζ²)) = %.5f)", worst, overshoot, exact_overshoot);
  g_assert_cmpfloat (worst, <, 1e-6);
  g_assert_cmpfloat (fabs (overshoot - exact_overshoot), <, 1e-3);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* A step 1 → −1 at 2 s into a rate limiter (rising 2/s, falling 0.5/s,
 * T = 0.01 s) from 0: y = 2t until the limit lets go at y = 1 − 2T
 * (t1 = 0.49 s), then 1 − 2T·e^(−(t − t1)/T); from 2 s it falls at 0.5/s to
 * −1 + 0.5T (t2 = 2 + (1 + 1 − 0.5T)/0.5), then −1 + 0.5T·e^(−(t − t2)/T). */
static void
test_rate_limiter (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"W1\", \"type\": \"step\", \"params\": {\"initial\": 1, \"final\": -1, \"time\": 2}},"
    "{\"id\": \"L1\", \"type\": \"rate_limiter\", \"params\": {\"rising_rate\": 2, \"falling_rate\": 0.5,"
    " \"time_constant\": 0.01}},"
    "{\"id\": \"K1\", \"type\": \"gain\"}],"
    "\"connections\": [{\"from\": \"W1.Y\", \"to\": \"L1.U\"}, {\"from\": \"L1.Y\", \"to\": \"K1.U\"}]}");
  const char *names[] = { "L1.Y" };
  Rows r = run (sys, names, 1, 7.0, 0.005, TRUE);
  double T = 0.01, t1 = (1 - 2 * T) / 2, y2 = 1 - 2 * T * exp (-(2 - t1) / T);
  double t2 = 2 + (y2 + 1 - 0.5 * T) / 0.5, worst = 0, slope_up = NAN, slope_down = NAN;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      double t = row[0], exact;
      if (t <= t1)
        exact = 2 * t;
      else if (t <= 2)
        exact = 1 - 2 * T * exp (-(t - t1) / T);
      else if (t <= t2)
        exact = y2 - 0.5 * (t - 2);
      else
        exact = -1 + 0.5 * T * exp (-(t - t2) / T);
      worst = MAX (worst, fabs (row[1] - exact));
      if (fabs (t - 0.4) < 1e-9)
        slope_up = (row[1] - ROW (r, i - 20)[1]) / 0.1;
      if (fabs (t - 4.0) < 1e-9)
        slope_down = (row[1] - ROW (r, i - 200)[1]) / 1.0;
    }
  g_test_message ("rate limiter: slope %.9f /s rising (limit 2), %.9f /s falling (limit −0.5); worst "
                  "|y − y_exact| = %.3g", slope_up, slope_down, worst);
  g_assert_cmpfloat (fabs (slope_up - 2.0), <, 1e-6);
  g_assert_cmpfloat (fabs (slope_down + 0.5), <, 1e-6);
  g_assert_cmpfloat (worst, <, 1e-6);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* A sine of 0.5 Hz (amplitude 1) into a hysteresis with levels ±0.5:
 * on where sin(πt) rises to 0.5 (t = 1/6 + 2k), off where it falls to
 * −0.5 (t = 7/6 + 2k); its output (high 3, low −1) integrated against the
 * closed form shows where it switched, between rows too. */
static void
test_hysteresis (void)
{
  {
    /* its output depends on its state only: a loop through it is no
     * algebraic loop (a relaxation oscillator: the sum of a ramp and the
     * output crosses the levels by itself) */
    HydSystem *loop = compile_ok (
      HEAD "\"components\": ["
      "{\"id\": \"W1\", \"type\": \"ramp\"},"
      "{\"id\": \"S1\", \"type\": \"sum\", \"params\": {\"signs\": \"+-\"}},"
      "{\"id\": \"B1\", \"type\": \"hysteresis\"}],"
      "\"connections\": [{\"from\": \"W1.Y\", \"to\": \"S1.U1\"}, {\"from\": \"B1.Y\", \"to\": \"S1.U2\"},"
      "{\"from\": \"S1.Y\", \"to\": \"B1.U\"}]}");
    hyd_system_free (loop);
  }
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"W1\", \"type\": \"sine\", \"params\": {\"amplitude\": 1, \"frequency\": 0.5}},"
    "{\"id\": \"B1\", \"type\": \"hysteresis\", \"params\": {\"on_level\": 0.5, \"off_level\": -0.5,"
    " \"high\": 3, \"low\": -1}},"
    "{\"id\": \"I1\", \"type\": \"integrator\"}],"
    "\"connections\": [{\"from\": \"W1.Y\", \"to\": \"B1.U\"}, {\"from\": \"B1.Y\", \"to\": \"I1.U\"}]}");
  for (int events = 0; events < 2; events++)
    {
      const char *names[] = { "B1.Y", "I1.y" };
      Rows r = run (sys, names, 2, 5.0, 0.001, events);
      double worst = 0;
      guint wrong = 0;
      for (guint i = 0; i < N_ROWS (r); i++)
        {
          const double *row = ROW (r, i);
          double t = row[0], ph = fmod (t, 2.0);
          gboolean high = ph > 1.0 / 6 && ph <= 7.0 / 6;
          if (row[1] != (high ? 3.0 : -1.0) && fabs (ph - 1.0 / 6) > 1e-9 && fabs (ph - 7.0 / 6) > 1e-9)
            wrong++;
          /* ∫: −1 per second while low, 3 while high */
          double k = floor (t / 2.0), per_period = 3.0 * 1.0 - 1.0 * 1.0;
          double in_period = ph <= 1.0 / 6 ? -ph : ph <= 7.0 / 6 ? -1.0 / 6 + 3 * (ph - 1.0 / 6)
                                                               : -1.0 / 6 + 3.0 - (ph - 7.0 / 6);
          worst = MAX (worst, fabs (row[2] - (k * per_period + in_period)));
        }
      g_test_message ("hysteresis (events %s): %u rows on the wrong side; worst |∫Y − exact| = %.3g "
                      "(a switching time off by δ shows as 4δ)", events ? "on" : "off", wrong, worst);
      g_assert_cmpuint (wrong, ==, 0);
      g_assert_cmpfloat (worst, <, 4e-7);
      g_array_unref (r.rows);
    }
  hyd_system_free (sys);
}

/* Sources and static blocks in one diagram, each integrated against its
 * closed form (so a restart missed at a kink or an edge shows):
 * ramp 1 + 3·(t − 0.5)⁺ → ∫ = t + 1.5·((t − 0.5)⁺)²;
 * sine 0.5 + 2·sin(2π·1.5·t + 0.3) → ∫ = 0.5t + 2/(3π)·(cos 0.3 − cos(3πt + 0.3));
 * pulse (2 on −1, period 0.4, duty 0.25, delay 0.1) → ∫ counted by edges;
 * a table of the ramp; the switch passing the ramp while the sine is above 0.5. */
static double
pulse_integral (double t)
{
  double v = -t;
  if (t > 0.1)
    {
      double k = floor ((t - 0.1) / 0.4), r = t - 0.1 - 0.4 * k;
      v += 2 * (k * 0.1 + MIN (r, 0.1));
    }
  return v;
}

static void
test_sources (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"W1\", \"type\": \"ramp\", \"params\": {\"slope\": 3, \"start_time\": 0.5, \"initial\": 1}},"
    "{\"id\": \"W2\", \"type\": \"sine\", \"params\": {\"amplitude\": 2, \"frequency\": 1.5, \"phase\": 0.3,"
    " \"offset\": 0.5}},"
    "{\"id\": \"W3\", \"type\": \"pulse\", \"params\": {\"amplitude\": 2, \"period\": 0.4, \"duty\": 0.25,"
    " \"delay\": 0.1, \"offset\": -1}},"
    "{\"id\": \"T1\", \"type\": \"lookup_table\", \"params\": {\"u1\": 1, \"y1\": 0, \"u2\": 2, \"y2\": 4,"
    " \"u3\": 4, \"y3\": 5}},"
    "{\"id\": \"N1\", \"type\": \"product\"},"
    "{\"id\": \"X1\", \"type\": \"signal_switch\", \"params\": {\"threshold\": 0.5}},"
    "{\"id\": \"I1\", \"type\": \"integrator\"}, {\"id\": \"I2\", \"type\": \"integrator\"},"
    "{\"id\": \"I3\", \"type\": \"integrator\"}, {\"id\": \"I4\", \"type\": \"integrator\"},"
    "{\"id\": \"I5\", \"type\": \"integrator\"}],"
    "\"connections\": [{\"from\": \"W1.Y\", \"to\": \"I1.U\"}, {\"from\": \"W2.Y\", \"to\": \"I2.U\"},"
    "{\"from\": \"W3.Y\", \"to\": \"I3.U\"}, {\"from\": \"W1.Y\", \"to\": \"T1.U\"},"
    "{\"from\": \"T1.Y\", \"to\": \"N1.U1\"}, {\"from\": \"W3.Y\", \"to\": \"N1.U2\"},"
    "{\"from\": \"N1.Y\", \"to\": \"I4.U\"},"
    "{\"from\": \"W1.Y\", \"to\": \"X1.U1\"}, {\"from\": \"W2.Y\", \"to\": \"X1.C\"},"
    "{\"from\": \"W3.Y\", \"to\": \"X1.U2\"}, {\"from\": \"X1.Y\", \"to\": \"I5.U\"}]}");
  const char *names[] = { "I1.y", "I2.y", "I3.y", "T1.Y", "N1.Y", "X1.Y" };
  Rows r = run (sys, names, 6, 2.0, 0.001, FALSE);
  double worst[6] = { 0 };
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      double t = row[0], late = MAX (t - 0.5, 0.0);
      double ramp = 1 + 3 * late, sine = 0.5 + 2 * sin (3 * G_PI * t + 0.3);
      double k = floor ((t - 0.1) / 0.4), ph = t - 0.1 - 0.4 * k;
      /* a row on an edge shows the value before it */
      gboolean on_edge = t >= 0.1 && (fabs (ph) < 1e-9 || fabs (ph - 0.4) < 1e-9 || fabs (ph - 0.1) < 1e-9);
      double pulse = t > 0.1 && ph > 0 && ph <= 0.1 + 1e-12 ? 1.0 : -1.0;
      double table = ramp <= 1 ? 0 : ramp <= 2 ? 4 * (ramp - 1) : ramp <= 4 ? 4 + 0.5 * (ramp - 2) : 5;
      worst[0] = MAX (worst[0], fabs (row[1] - (t + 1.5 * late * late)));
      worst[1] = MAX (worst[1], fabs (row[2] - (0.5 * t + 2 / (3 * G_PI) * (cos (0.3) - cos (3 * G_PI * t + 0.3)))));
      worst[2] = MAX (worst[2], fabs (row[3] - pulse_integral (t)));
      worst[3] = MAX (worst[3], fabs (row[4] - table));
      if (!on_edge)
        worst[4] = MAX (worst[4], fabs (row[5] - table * pulse));
      if (!on_edge && fabs (sine - 0.5) > 1e-6)
        worst[5] = MAX (worst[5], fabs (row[6] - (sine > 0.5 ? ramp : pulse)));
    }
  g_test_message ("sources: worst errors ∫ramp %.3g, ∫sine %.3g, ∫pulse %.3g, table %.3g, product %.3g, "
                  "switch %.3g", worst[0], worst[1], worst[2], worst[3], worst[4], worst[5]);
  for (guint k = 0; k < 6; k++)
    g_assert_cmpfloat (worst[k], <, 1e-6);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* Live sliders: the set-point of the PI loop above changes from 1 to 2 at
 * 2 s (a replayed live change, as the application's slider sends), and the
 * loop being linear, the error is the sum of the two step
 * responses: e = (1 − t)·e^(−t) + (1 − τ)·e^(−τ), τ = t − 2, and the
 * integral term i = t·e^(−t) + τ·e^(−τ). A change of the PI's integral gain
 * to 0 at 6 s then freezes its integral term. */
static void
test_live_changes (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"W1\", \"type\": \"constant\", \"params\": {\"value\": 1}},"
    "{\"id\": \"S1\", \"type\": \"sum\", \"params\": {\"signs\": \"+-\"}},"
    "{\"id\": \"R1\", \"type\": \"pid\", \"params\": {\"kp\": 2, \"ki\": 1}},"
    "{\"id\": \"I1\", \"type\": \"integrator\"}],"
    "\"connections\": [{\"from\": \"W1.Y\", \"to\": \"S1.U1\"}, {\"from\": \"I1.Y\", \"to\": \"S1.U2\"},"
    "{\"from\": \"S1.Y\", \"to\": \"R1.E\"}, {\"from\": \"R1.Y\", \"to\": \"I1.U\"}]}");
  HydSimOptions sim;
  g_autoptr (HydCircuit) empty = hyd_circuit_new ();
  g_assert_true (hyd_circuit_get_sim_options (empty, &sim, NULL));
  sim.t_end = 8.0;
  sim.output_interval = 0.01;
  sim.rtol = 1e-8;
  for (guint k = 0; k < HYD_ATOL_N_KINDS; k++)
    sim.atol[k] *= 1e-8 / 1e-4;
  int vars[2] = { hyd_system_find_variable (sys, "S1.Y"), hyd_system_find_variable (sys, "R1.i") };
  g_assert_cmpint (vars[0], >=, 0);
  g_assert_cmpint (vars[1], >=, 0);
  g_autoptr (GPtrArray) replay = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_run_change_free);
  g_ptr_array_add (replay, hyd_run_change_new (2.0, "W1", "value", 1.0, 2.0));
  g_ptr_array_add (replay, hyd_run_change_new (6.0, "R1", "ki", 1.0, 0.0));
  g_autoptr (GPtrArray) log = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_run_change_free);
  Rows r = { g_array_new (FALSE, FALSE, sizeof (double)), 0 };
  HydRunSpec spec = { .sim = &sim, .vars = vars, .n_vars = 2, .sample = hyd_test_keep_row, .user = &r,
                      .replay = replay, .change_log = log };
  HydOdeResult res = { 0 };
  g_assert_cmpint (hyd_run_execute (sys, &spec, &res, NULL), ==, HYD_ODE_SUCCESS);
  hyd_ode_result_clear (&res);
  hyd_sim_options_clear (&sim);
  g_assert_cmpuint (log->len, ==, 2);
  double worst = 0, i_at_6 = NAN, i_drift = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      double t = row[0], tau = t - 2.0;
      if (t <= 6.0)
        {
          double exact = (1 - t) * exp (-t) + (tau >= 0 ? (1 - tau) * exp (-tau) : 0.0);
          /* the row at 2 s itself holds the values after the change */
          if (fabs (tau) > 1e-9)
            worst = MAX (worst, fabs (row[1] - exact));
          if (fabs (t - 6.0) < 1e-9)
            i_at_6 = row[2];
        }
      else
        i_drift = MAX (i_drift, fabs (row[2] - i_at_6));
    }
  g_test_message ("live set-point 1 → 2 at 2 s: worst |e − e_exact| = %.3g; K_i → 0 at 6 s: the integral "
                  "term stays at %.9g (drift %.3g)", worst, i_at_6, i_drift);
  g_assert_cmpfloat (worst, <, 1e-6);
  /* i = K_i·∫e = t·e^(−t) + τ·e^(−τ) (the plant integrates: at rest it needs no input) */
  g_assert_cmpfloat (fabs (i_at_6 - (6 * exp (-6.0) + 4 * exp (-4.0))), <, 1e-6);
  g_assert_cmpfloat (i_drift, <, 1e-12);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* ------------------------------------------- feedback through hydraulics */

/* s_flow: a flow source commanded by a signal (m³/s) into P. Issue 11's
 * signal-driven pumps and valves are built by another family; this test
 * type stands for them. */
static const HydPortInfo flow_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, "delivery" },
  { "U", HYD_DOMAIN_SIGNAL, FALSE, "command (m³/s)", HYD_PORT_INPUT },
};

static gboolean
dense_setup (HydComp *comp, GError **error)
{
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
flow_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  out->q[0] = -in->p[1];
  if (out->jac)
    HYD_JAC (comp, out, 0, 1) = -1.0;
}

static const HydComponentType s_flow = {
  .id = "s_flow", .label = "commanded flow source", .ports = flow_ports, .n_ports = 2,
  .boundary_param = -1, .designator = "Q", .setup = dense_setup, .eval = flow_eval,
};

/* A gauge on a 1.5 L volume (the default fluid's B = 1.5e9 Pa: ṗ = 1e12·q), set-point 1e7 Pa, a PI
 * controller (K_p = 2e-12, K_i = 1e-12 m³/(s·Pa)) commanding the flow
 * through a saturation at ±1e-4 m³/s that it never reaches: the loop is the
 * PI loop above, e = 1e7·(1 − t)·e^(−t) Pa. */
static void
test_hydraulic_loop (void)
{
  HydSystem *sys = compile_ok (
    HEAD CONSTANT_FLUID "\"components\": ["
    "{\"id\": \"W1\", \"type\": \"step\", \"params\": {\"initial\": 0, \"final\": 1e7, \"time\": 0}},"
    "{\"id\": \"S1\", \"type\": \"sum\"},"
    "{\"id\": \"R1\", \"type\": \"pid\", \"params\": {\"kp\": 2e-12, \"ki\": 1e-12}},"
    "{\"id\": \"L1\", \"type\": \"saturation\", \"params\": {\"lower\": -1e-4, \"upper\": 1e-4}},"
    "{\"id\": \"G1\", \"type\": \"pressure_gauge\"},"
    "{\"id\": \"Q1\", \"type\": \"s_flow\"},"
    "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"volume\": 1.5e-3}}],"
    "\"connections\": [{\"from\": \"W1.Y\", \"to\": \"S1.U1\"}, {\"from\": \"G1.S\", \"to\": \"S1.U2\"},"
    "{\"from\": \"S1.Y\", \"to\": \"R1.E\"}, {\"from\": \"R1.Y\", \"to\": \"L1.U\"},"
    "{\"from\": \"L1.Y\", \"to\": \"Q1.U\"},"
    "{\"from\": \"Q1.P\", \"to\": \"V1.P\", \"length\": 0},"
    "{\"from\": \"G1.P\", \"to\": \"V1.P\", \"length\": 0}]}");
  double y[3] = { 3e6, 1e-6, 6.5e6 }; /* p, the integral term, the filter state (Pa) */
  check_jacobian (sys, 0.3, y);
  const char *names[] = { "V1.P.p", "S1.Y", "L1.Y" };
  Rows r = run (sys, names, 3, 15.0, 0.01, TRUE);
  double worst = 0, q_max = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      worst = MAX (worst, fabs (row[2] - 1e7 * (1 - row[0]) * exp (-row[0])) / 1e7);
      q_max = MAX (q_max, fabs (row[3]));
    }
  const double *last = ROW (r, N_ROWS (r) - 1);
  g_test_message ("PI pressure loop through the hydraulics: worst |e − e_exact|/1e7 Pa = %.3g; "
                  "p(15 s) = %.9g Pa; largest flow %.4g m³/s", worst, last[1], q_max);
  g_assert_cmpfloat (q_max, <, 1e-4);
  g_assert_cmpfloat (worst, <, 1e-6);
  /* no steady-state error: 15 s in, the closed form's e = −1.4e8·e^(−15) = −42.9 Pa */
  g_assert_cmpfloat (fabs (last[1] - 1e7 - 1.4e8 * exp (-15.0)), <, 10.0);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (hyd_catalogue_register_test_type (&s_flow));
  g_test_add_func ("/engine/signals/partials-1", test_partials_group1);
  g_test_add_func ("/engine/signals/partials-2", test_partials_group2);
  g_test_add_func ("/engine/signals/lag-step", test_lag_step);
  g_test_add_func ("/engine/signals/step-on-fixed-grid", test_step_on_fixed_grid);
  g_test_add_func ("/engine/signals/second-order-step", test_second_order_step);
  g_test_add_func ("/engine/signals/rate-limiter", test_rate_limiter);
  g_test_add_func ("/engine/signals/hysteresis", test_hysteresis);
  g_test_add_func ("/engine/signals/sources", test_sources);
  g_test_add_func ("/engine/signals/integrator-limits", test_integrator_limits);
  g_test_add_func ("/engine/signals/pi-loop", test_pi_loop);
  g_test_add_func ("/engine/signals/pid-anti-windup", test_pid_anti_windup);
  g_test_add_func ("/engine/signals/sum-third-input", test_sum_third_input);
  g_test_add_func ("/engine/signals/live-changes", test_live_changes);
  g_test_add_func ("/engine/signals/hydraulic-loop", test_hydraulic_loop);
  return g_test_run ();
}
