/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-cleanup.c — every engine type with a free or clear function can be
 * held by g_autoptr or g_auto: each is filled with what a real caller owns
 * (a compiled system, a solver's message and note, the options' solver
 * name, ...) and left to the cleanup at the end of its scope. This builds
 * only while each type has its cleanup declared, and the sanitizer build
 * (LeakSanitizer) fails on whatever the cleanup does not free. */
#include <string.h>

#include "hyd-circuit.h"
#include "hyd-component.h"
#include "hyd-catalogue.h"
#include "hyd-linsolver.h"
#include "hyd-ode.h"
#include "hyd-profile.h"
#include "hyd-run.h"
#include "hyd-runner.h"
#include "hyd-system.h"

static const char circuit_json[] =
  "{ \"format\": \"bramah-circuit\", \"version\": 1,\n"
  "  \"simulation\": { \"t_end\": 0.01, \"solver\": \"rodas4\" },\n"
  "  \"components\": [\n"
  "    { \"id\": \"P1\", \"type\": \"flow_source\", \"params\": { \"flow\": 1e-4 } },\n"
  "    { \"id\": \"V1\", \"type\": \"volume\", \"params\": { \"volume\": 1e-3 } },\n"
  "    { \"id\": \"O1\", \"type\": \"orifice\", \"params\": { \"diameter\": 0.004 } },\n"
  "    { \"id\": \"T1\", \"type\": \"tank\" } ],\n"
  "  \"connections\": [\n"
  "    { \"from\": \"P1.P\", \"to\": \"V1.P\" },\n"
  "    { \"from\": \"V1.P2\", \"to\": \"O1.A\" },\n"
  "    { \"from\": \"O1.B\", \"to\": \"T1.T\" } ] }\n";

static void
test_cleanup_document (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (circuit_json, -1, "cleanup", &error);
  g_assert_no_error (error);
  g_autoptr (HydCircuitComponent) component = hyd_circuit_component_copy (circuit->components->pdata[0]);
  g_autoptr (HydCircuitJunction) junction = hyd_circuit_junction_new ("J1");
  g_autoptr (HydCircuitConnection) connection = hyd_circuit_connection_new ("P1.P", "J1");
  g_assert_cmpstr (component->id, ==, "P1");
  g_assert_cmpstr (junction->id, ==, "J1");
  g_assert_cmpstr (connection->to, ==, "J1");

  g_auto (HydSimOptions) sim = { 0 };
  g_assert_true (hyd_circuit_get_sim_options (circuit, &sim, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (sim.solver, ==, "rodas4");

  g_autoptr (HydProfile) profile = hyd_profile_new_constant (2.0);
  g_assert_cmpfloat (hyd_profile_eval (profile, 0.0, 0.0, NULL), ==, 2.0);
}

static void
test_cleanup_system_and_solve (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (circuit_json, -1, "cleanup", &error);
  g_assert_no_error (error);
  g_autoptr (HydSystem) sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  guint n = hyd_system_get_n_states (sys);
  g_assert_cmpuint (n, ==, 1);

  HydOdeProblem problem;
  hyd_system_get_problem (sys, &problem);
  HydOdeOptions opt;
  hyd_ode_options_init (&opt);
  opt.t_end = 1.0;
  double atol = 100.0, y = hyd_system_get_initial_state (sys)[0];
  opt.atol = &atol;
  opt.max_steps = 2;   /* too few: the result holds a message to free */
  g_auto (HydOdeResult) result = { 0 };
  g_assert_cmpint (hyd_ode_solve ("rodas4", &problem, &opt, &y, &result), ==,
                   HYD_ODE_TOO_MANY_STEPS);
  g_assert_nonnull (result.message);

  g_autoptr (HydJac) J = hyd_jac_new_dense (n);
  g_autoptr (HydLinSolver) ls = hyd_linsolver_new (J);
  g_assert_nonnull (ls);

  g_autoptr (HydRunChange) change = hyd_run_change_new (0.5, "O1", "diameter", 0.004, 0.005);
  g_assert_cmpstr (change->param, ==, "diameter");
}

static void
test_cleanup_component (void)
{
  HydFluid fluid;
  hyd_fluid_init_default (&fluid);
  const HydComponentType *type = hyd_catalogue_lookup ("orifice");
  g_assert_nonnull (type);
  g_autoptr (HydComp) comp = hyd_comp_new (type, "O1", &fluid);
  g_assert_cmpstr (comp->id, ==, "O1");
}

static void
test_cleanup_runner (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (circuit_json, -1, "cleanup", &error);
  g_assert_no_error (error);
  g_autoptr (HydRunner) runner = hyd_runner_new (circuit, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (runner);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/cleanup/document", test_cleanup_document);
  g_test_add_func ("/engine/cleanup/system-and-solve", test_cleanup_system_and_solve);
  g_test_add_func ("/engine/cleanup/component", test_cleanup_component);
  g_test_add_func ("/engine/cleanup/runner", test_cleanup_runner);
  return g_test_run ();
}
