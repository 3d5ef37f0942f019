/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-tlm.c — the tlm solver (transmission-line modelling, Burton 1994):
 * listed, refused on a plain ODE, and converging to the ODE
 * solution as Δ → 0 (Burton 1994, §4.1: "TLM results tend to the ODE
 * results as Δ → 0"), against radau5 at rtol 1e-10. The thresholds were
 * chosen before the first run. */
#include "hyd-circuit.h"
#include "hyd-system.h"
#include "hyd-ode.h"
#include "hyd-testset.h"

#include <math.h>
#include <string.h>

typedef struct {
  guint n, k, cap;
  double *ys;   /* [cap·n] samples */
} Samples;

static gboolean
on_sample (double t, const double *y, gpointer user)
{
  Samples *s = user;
  if (s->k < s->cap)
    memcpy (s->ys + (gsize) s->k * s->n, y, s->n * sizeof (double));
  s->k++;
  return TRUE;
}

static HydSystem *
load (const char *name, HydSimOptions *sim)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (HYD_TEST_DATA_DIR, "examples", name, NULL);
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_file (path, &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  g_assert_true (hyd_circuit_get_sim_options (circuit, sim, &error));
  g_assert_no_error (error);
  return sys;
}

/* Samples of a run of `solver` (fixed step h when h > 0, else rtol). */
static HydOdeStatus
run (HydSystem *sys, const HydSimOptions *sim, const char *solver, double rtol, double h,
     Samples *s, char **message)
{
  guint n = hyd_system_get_n_states (sys);
  HydOdeProblem problem;
  hyd_system_get_problem (sys, &problem);
  g_autofree double *atol = g_new (double, n);
  g_autofree double *y = g_memdup2 (hyd_system_get_initial_state (sys), n * sizeof (double));
  hyd_system_get_atol (sys, sim, atol);
  for (guint i = 0; i < n; i++)
    atol[i] *= rtol / sim->rtol;
  HydOdeOptions o;
  hyd_ode_options_init (&o);
  o.t0 = 0.0;
  o.t_end = sim->t_end;
  o.rtol = rtol;
  o.atol = atol;
  o.fixed_step = h;
  o.max_step = sim->max_step;
  o.output_interval = sim->output_interval;
  o.events = sim->events;
  o.output = on_sample;
  o.output_user = s;
  const GArray *bp = hyd_system_get_breakpoints (sys);
  o.breakpoints = (const double *) bp->data;
  o.n_breakpoints = bp->len;
  s->n = n;
  s->k = 0;
  HydOdeResult r = { 0 };
  HydOdeStatus st = hyd_ode_solve (solver, &problem, &o, y, &r);
  if (message != NULL)
    *message = g_strdup (r.message);
  hyd_ode_result_clear (&r);
  return st;
}

static void
test_listed (void)
{
  const HydSolverInfo *info = hyd_solver_lookup ("tlm");
  g_assert_nonnull (info);
  g_assert_true (info->needs_model);
  g_assert_true (info->adaptive);

  /* a plain ODE has no components to model: refused, saying why */
  const HydTestProblem *p = hyd_testset_lookup ("e5");
  g_assert_nonnull (p);
  HydOdeProblem problem = p->problem;
  g_autofree double *y = g_memdup2 (p->y0, p->n * sizeof (double));
  HydOdeOptions o;
  hyd_ode_options_init (&o);
  o.t_end = 1.0;
  o.rtol = 1e-4;
  g_autofree double *atol = g_new (double, problem.n);
  for (guint i = 0; i < problem.n; i++)
    atol[i] = 1e-6;
  o.atol = atol;
  g_autoptr (GError) error = NULL;
  HydOdeStepper *s = hyd_ode_stepper_new ("tlm", &problem, &o, y, &error);
  g_assert_null (s);
  g_test_message ("%s", error->message);
  g_assert_error (error, HYD_SOLVER_ERROR, HYD_ODE_BAD_INPUT);
  g_assert_nonnull (strstr (error->message, "tlm"));
}

/* max over samples and states of |y − y_ref| / max|y_ref| (each state by
 * its own largest magnitude; pressure_only: the pressures alone) */
static double
state_error (HydSystem *sys, const Samples *a, const Samples *ref, gboolean pressure_only)
{
  guint n = a->n;
  double err = 0.0;
  g_assert_cmpuint (a->k, ==, ref->k);
  for (guint i = 0; i < n; i++)
    {
      if (pressure_only && hyd_system_get_state_unit (sys, i) != HYD_UNIT_PRESSURE)
        continue;
      double scale = 0.0, e = 0.0;
      for (guint k = 0; k < ref->k; k++)
        {
          scale = MAX (scale, fabs (ref->ys[(gsize) k * n + i]));
          e = MAX (e, fabs (a->ys[(gsize) k * n + i] - ref->ys[(gsize) k * n + i]));
        }
      if (scale > 0.0)
        err = MAX (err, e / scale);
    }
  return err;
}

static void
check_convergence (const char *name, double t_end, gboolean pressure_only)
{
  HydSimOptions sim = { 0 };
  HydSystem *sys = load (name, &sim);
  if (t_end > 0.0)
    hyd_sim_options_set_t_end (&sim, t_end);
  guint n = hyd_system_get_n_states (sys);
  guint cap = (guint) ceil (sim.t_end / sim.output_interval) + 2;
  Samples ref = { .cap = cap, .ys = g_new (double, (gsize) cap * n) };
  g_assert_cmpint (run (sys, &sim, "radau5", 1e-10, 0.0, &ref, NULL), ==, HYD_ODE_SUCCESS);

  const double steps[] = { 1e-4, 1e-5, 1e-6 };
  double err[G_N_ELEMENTS (steps)];
  for (guint j = 0; j < G_N_ELEMENTS (steps); j++)
    {
      Samples s = { .cap = cap, .ys = g_new (double, (gsize) cap * n) };
      g_autofree char *message = NULL;
      HydOdeStatus st = run (sys, &sim, "tlm", 1e-4, steps[j], &s, &message);
      if (st != HYD_ODE_SUCCESS)
        g_error ("%s, tlm, step %g: %s", name, steps[j], message);
      err[j] = state_error (sys, &s, &ref, pressure_only);
      g_test_message ("%s: step %g s: largest %s error %.3g of its largest value",
                      name, steps[j], pressure_only ? "pressure" : "state", err[j]);
      g_free (s.ys);
    }
  /* at least first order: a decade of Δ gains a factor 3 or more, and the
   * finest step is within 1 % */
  for (guint j = 1; j < G_N_ELEMENTS (steps); j++)
    g_assert_cmpfloat (err[j], <, err[j - 1] / 3.0);
  g_assert_cmpfloat (err[G_N_ELEMENTS (steps) - 1], <, 1e-2);
  g_free (ref.ys);
  hyd_sim_options_clear (&sim);
  hyd_system_free (sys);
}

static void
test_converges_esque (void)
{
  check_convergence ("esque-circuit1-step.bramah", 0.0, TRUE);
}

static void
test_converges_hasp (void)
{
  check_convergence ("hasp-transmission.bramah", 0.0, TRUE);
}

/* a cylinder on a mass–spring–damper: a cluster of components on a
 * mechanical node, solved together (every state, the first 0.5 s) */
static void
test_converges_mechanical (void)
{
  check_convergence ("cylinder-mass-spring-resonance.bramah", 0.5, FALSE);
}

/* signal blocks only: one-way links in their order, no line at all */
static void
test_converges_signals (void)
{
  check_convergence ("signal-blocks-pi-vs-on-off.bramah", 0.0, FALSE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tlm/listed", test_listed);
  g_test_add_func ("/tlm/converges/esque-circuit1-step", test_converges_esque);
  g_test_add_func ("/tlm/converges/hasp-transmission", test_converges_hasp);
  g_test_add_func ("/tlm/converges/cylinder-mass-spring-resonance", test_converges_mechanical);
  g_test_add_func ("/tlm/converges/signal-blocks-pi-vs-on-off", test_converges_signals);
  return g_test_run ();
}
