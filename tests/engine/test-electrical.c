/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-electrical.c — the electrical domain's engine (docs/electrical.md)
 * with component types that exist only here: the network solved as paths
 * from +24 V to 0 V through closed contacts (a self-holding relay latches
 * and drops, dominant off), a relay that switches itself off reported by
 * name, a short circuit reported by name, references (a tap on a state
 * located exactly and carried into the Jacobian by the chain rule; a tap on
 * a discrete state) and their errors. */
#include <math.h>
#include <string.h>

#include "fd-harness.h"
#include "hyd-catalogue.h"
#include "hyd-circuit.h"
#include "hyd-comp-electrical.h"
#include "hyd-run.h"
#include "hyd-system.h"

/* ------------------------------------------------------------------ types */

static gboolean
empty_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_pattern (comp, 0, NULL, NULL);
  return TRUE;
}

static void
nothing_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
}

/* e_supply, e_ground: +24 V and 0 V at port 0 */
static const HydPortInfo supply_ports[] = { { "P", HYD_DOMAIN_ELECTRICAL, FALSE, "+24 V" } };
static const HydPortInfo ground_ports[] = { { "N", HYD_DOMAIN_ELECTRICAL, FALSE, "0 V" } };
static const HydComponentType e_supply = {
  .id = "e_supply", .label = "supply", .ports = supply_ports, .n_ports = 1, .boundary_param = -1,
  .designator = "U", .roles = HYD_ROLE_ELEC_SUPPLY, .setup = empty_setup, .eval = nothing_eval,
};
static const HydComponentType e_ground = {
  .id = "e_ground", .label = "ground", .ports = ground_ports, .n_ports = 1, .boundary_param = -1,
  .designator = "G", .roles = HYD_ROLE_ELEC_GROUND, .setup = empty_setup, .eval = nothing_eval,
};

/* e_button: a contact actuated while its profile parameter "on" is > 0.5 */
static const HydPortInfo contact_ports[] = { HYD_CONTACT_PORTS };
static const HydParamInfo button_params[] = {
  HYD_CONTACT_PARAM,
  { "on", "on", HYD_UNIT_NONE, 0.0, 0.0, 1.0, HYD_PARAM_PROFILE, NULL, "pressed" },
};

static gboolean
contact_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "actuated", 0.0, "1 while actuated");
  return empty_setup (comp, error);
}

static gboolean
set_state (double *d, double v)
{
  gboolean changed = d[0] != v;
  d[0] = v;
  return changed;
}

static gboolean
button_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  return set_state (d, comp->par[1] > 0.5 ? 1.0 : 0.0);
}

static gboolean
contact_conducts (const HydComp *comp, const double *d, guint path)
{
  return hyd_contact_conducts (comp->par[0], d[0], path);
}

static const HydComponentType e_button = {
  .id = "e_button", .label = "button", .ports = contact_ports, .n_ports = 3,
  .params = button_params, .n_params = 2, .boundary_param = -1, .designator = "S",
  .setup = contact_setup, .eval = nothing_eval, .update = button_update,
  .elec_paths = hyd_contact_paths, .n_elec_paths = 2, .elec_conducts = contact_conducts,
};

/* e_coil: a relay coil; its contacts follow it */
static const HydPortInfo coil_ports[] = {
  { "A1", HYD_DOMAIN_ELECTRICAL, FALSE, "coil" }, { "A2", HYD_DOMAIN_ELECTRICAL, FALSE, "coil" },
};
static const HydElecLoad coil_load[] = { { 0, 1, 0 } };

static gboolean
coil_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "energised", 0.0, "coil energised");
  hyd_comp_add_discrete_state (comp, "contacts", 0.0, "contacts actuated");
  return empty_setup (comp, error);
}

static gboolean
coil_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  return set_state (d + 1, d[0]);
}

static const HydComponentType e_coil = {
  .id = "e_coil", .label = "relay", .ports = coil_ports, .n_ports = 2, .boundary_param = -1,
  .designator = "K", .setup = coil_setup, .eval = nothing_eval, .update = coil_update,
  .elec_loads = coil_load, .n_elec_loads = 1,
};

/* e_contact: a contact of the relay its reference "relay" names */
static const HydPortInfo relay_contact_ports[] = {
  HYD_CONTACT_PORTS,
  { "K", HYD_DOMAIN_SIGNAL, TRUE, "the relay's contacts state", HYD_PORT_INPUT, NULL, TRUE },
};
static const HydParamInfo relay_contact_params[] = {
  HYD_CONTACT_PARAM,
  { "relay", "relay", HYD_UNIT_NONE, NAN, -INFINITY, INFINITY, HYD_PARAM_REFERENCE | HYD_PARAM_OPTIONAL,
    NULL, "the relay", "K", "contacts" },
};

static gboolean
relay_contact_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  return set_state (d, in->p[3] > 0.5 ? 1.0 : 0.0);
}

static const HydComponentType e_contact = {
  .id = "e_contact", .label = "relay contact", .ports = relay_contact_ports, .n_ports = 4,
  .params = relay_contact_params, .n_params = 2, .boundary_param = -1, .designator = "KC",
  .setup = contact_setup, .eval = nothing_eval, .update = relay_contact_update,
  .elec_paths = hyd_contact_paths, .n_elec_paths = 2, .elec_conducts = contact_conducts,
};

/* e_reader: reads a cylinder's position x through its reference; its state
 * integrates it (ẏ = x: the chain rule carries ∂ẏ/∂x = 1 to the
 * cylinder's column) and its discrete state "passed" switches, with the
 * time it did in "when", where x crosses "level". */
static const HydPortInfo reader_ports[] = {
  { "X", HYD_DOMAIN_SIGNAL, TRUE, "position", HYD_PORT_INPUT, NULL, TRUE },
};
static const HydParamInfo reader_params[] = {
  { "target", "target", HYD_UNIT_NONE, NAN, -INFINITY, INFINITY, HYD_PARAM_REFERENCE | HYD_PARAM_OPTIONAL,
    NULL, "the cylinder", "X", "x" },
  { "level", "level", HYD_UNIT_POSITION, 0.1, 0.0, INFINITY, 0, NULL, "switching position" },
};
static const HydVarInfo reader_states[] = { { "integral", HYD_UNIT_NONE, "∫x dt" } };

static gboolean
reader_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_states (comp, 1, reader_states);
  hyd_comp_add_discrete_state (comp, "passed", 0.0, "1 once x > level");
  hyd_comp_add_discrete_state (comp, "when", -1.0, "the time it switched");
  hyd_comp_add_discrete_state (comp, "x_at", -1.0, "x when it switched");
  hyd_comp_add_event (comp, "level", NULL);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
reader_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  out->q[0] = 0.0;
  out->xdot[0] = in->p[0];
  if (out->jac)
    HYD_JAC (comp, out, 1, 0) = 1.0;
}

static void
reader_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = in->p[0] - comp->par[1];
}

static gboolean
reader_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  double on = d[0];
  if (crossed && crossed[0] != 0)
    on = crossed[0] > 0 ? 1.0 : 0.0;
  else if (in->p[0] != comp->par[1])
    on = in->p[0] > comp->par[1] ? 1.0 : 0.0;
  if (on == d[0])
    return FALSE;
  d[0] = on;
  d[1] = in->t;
  d[2] = in->p[0];
  return TRUE;
}

static const HydComponentType e_reader = {
  .id = "e_reader", .label = "reader", .ports = reader_ports, .n_ports = 1,
  .params = reader_params, .n_params = 2, .boundary_param = -1, .designator = "R",
  .setup = reader_setup, .eval = reader_eval, .events = reader_events, .update = reader_update,
};

static void
register_types (void)
{
  const HydComponentType *types[] = { &e_supply, &e_ground, &e_button, &e_coil, &e_contact, &e_reader };
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    g_assert_true (hyd_catalogue_register_test_type (types[i]));
}

/* ---------------------------------------------------------------- helpers */

#define HEAD "{\"format\": \"bramah-circuit\", \"version\": 3, " \
             "\"fluid\": {\"bulk_modulus_model\": \"constant\"}, "
/* a small hydraulic part so that the system has a state */
#define HYDRAULIC_PART \
  "{\"id\": \"Q1\", \"type\": \"flow_source\", \"params\": {\"flow\": 1e-6}}," \
  "{\"id\": \"O1\", \"type\": \"orifice\"}," \
  "{\"id\": \"T1\", \"type\": \"tank\"}"
#define HYDRAULIC_WIRES \
  "{\"from\": \"Q1.P\", \"to\": \"O1.A\"}, {\"from\": \"O1.B\", \"to\": \"T1.T\"}"

static HydSystem *
compile_json (const char *json, GError **error)
{
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "test.bramah", error);
  if (circuit == NULL)
    return NULL;
  return hyd_system_compile (circuit, error);
}

static HydSystem *
compile_ok (const char *json)
{
  g_autoptr (GError) error = NULL;
  HydSystem *sys = compile_json (json, &error);
  g_assert_no_error (error);
  g_assert_nonnull (sys);
  return sys;
}

/* A run that must fail: its message. */
static char *
run_fails (HydSystem *sys, double t_end)
{
  HydSimOptions sim;
  g_autoptr (HydCircuit) empty = hyd_circuit_new ();
  g_assert_true (hyd_circuit_get_sim_options (empty, &sim, NULL));
  sim.t_end = t_end;
  HydRunSpec spec = { .sim = &sim };
  HydOdeResult res = { 0 };
  HydOdeStatus st = hyd_run_execute (sys, &spec, &res, NULL);
  g_assert_cmpint (st, !=, HYD_ODE_SUCCESS);
  char *msg = g_strdup (res.message);
  hyd_ode_result_clear (&res);
  hyd_sim_options_clear (&sim);
  return msg;
}

/* The self-holding circuit of every electro-hydraulics course: start S1
 * (normally open) in parallel with K1's own normally open contact, in
 * series with stop S2 (normally closed), and the coil K1. */
static char *
latch_json (const char *s1_on, const char *s2_on)
{
  return g_strdup_printf (
    HEAD "\"components\": [" HYDRAULIC_PART ","
    "{\"id\": \"U1\", \"type\": \"e_supply\"}, {\"id\": \"G1\", \"type\": \"e_ground\"},"
    "{\"id\": \"S1\", \"type\": \"e_button\", \"params\": {\"contact\": \"no\", \"on\": %s}},"
    "{\"id\": \"S2\", \"type\": \"e_button\", \"params\": {\"contact\": \"nc\", \"on\": %s}},"
    "{\"id\": \"K1\", \"type\": \"e_coil\"},"
    "{\"id\": \"K1_1\", \"type\": \"e_contact\", \"params\": {\"contact\": \"no\", \"relay\": \"K1\"}}],"
    "\"junctions\": [{\"id\": \"J1\"}, {\"id\": \"J2\"}],"
    "\"connections\": [" HYDRAULIC_WIRES ","
    "{\"from\": \"U1.P\", \"to\": \"J1\"}, {\"from\": \"J1\", \"to\": \"S1.1\"},"
    "{\"from\": \"J1\", \"to\": \"K1_1.1\"}, {\"from\": \"S1.4\", \"to\": \"J2\"},"
    "{\"from\": \"K1_1.4\", \"to\": \"J2\"}, {\"from\": \"J2\", \"to\": \"S2.1\"},"
    "{\"from\": \"S2.2\", \"to\": \"K1.A1\"}, {\"from\": \"K1.A2\", \"to\": \"G1.N\"}]}",
    s1_on, s2_on);
}

static int
find_state (const HydSystem *sys, const char *name)
{
  for (guint i = 0; i < hyd_system_get_n_states (sys); i++)
    if (strcmp (hyd_system_get_state_name (sys, i), name) == 0)
      return (int) i;
  return -1;
}

/* ------------------------------------------------------------------ tests */

/* S1 pressed 0.1–0.2 s, S2 pressed 0.5–0.6 s: K1 latches at 0.1, holds
 * after S1 is released, drops at 0.5 and stays off after S2 is released. */
static void
test_self_holding (void)
{
  g_autofree char *json = latch_json ("{\"step\": {\"times\": [0.1, 0.2], \"values\": [0, 1, 0]}}",
                                      "{\"step\": {\"times\": [0.5, 0.6], \"values\": [0, 1, 0]}}");
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "K1.energised", "K1_1.actuated", "S1.actuated", "S2.actuated" };
  HydTestRows r = hyd_test_run (sys, names, 4, 1.0, 0.01, 1e-6, -1, NULL);
  for (guint i = 0; i < HYD_TEST_N_ROWS (r); i++)
    {
      const double *row = HYD_TEST_ROW (r, i);
      double t = row[0];
      /* a sample at a breakpoint shows the state after it */
      gboolean on = t >= 0.1 - 1e-9 && t < 0.5 - 1e-9;
      if (fabs (t - 0.1) < 1e-9 || fabs (t - 0.5) < 1e-9)
        continue;
      g_assert_cmpfloat (row[1], ==, on ? 1.0 : 0.0);
      g_assert_cmpfloat (row[2], ==, on ? 1.0 : 0.0);
      gboolean s1 = t > 0.1 && t < 0.2, s2 = t > 0.5 && t < 0.6;
      g_assert_cmpfloat (row[3], ==, s1 ? 1.0 : 0.0);
      g_assert_cmpfloat (row[4], ==, s2 ? 1.0 : 0.0);
    }
  g_array_unref (r.rows);
}

/* Dominant off: start and stop pressed together (0.1–0.2 s): K1 stays off. */
static void
test_dominant_off (void)
{
  const char *both = "{\"step\": {\"times\": [0.1, 0.2], \"values\": [0, 1, 0]}}";
  g_autofree char *json = latch_json (both, both);
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "K1.energised" };
  HydTestRows r = hyd_test_run (sys, names, 1, 0.5, 0.01, 1e-6, -1, NULL);
  for (guint i = 0; i < HYD_TEST_N_ROWS (r); i++)
    g_assert_cmpfloat (HYD_TEST_ROW (r, i)[1], ==, 0.0);
  g_array_unref (r.rows);
}

/* A relay fed through its own normally closed contact: it switches itself
 * off, then on ... The run stops and names the states that kept changing. */
static void
test_chattering (void)
{
  const char *json =
    HEAD "\"components\": [" HYDRAULIC_PART ","
    "{\"id\": \"U1\", \"type\": \"e_supply\"}, {\"id\": \"G1\", \"type\": \"e_ground\"},"
    "{\"id\": \"S1\", \"type\": \"e_button\", \"params\": {\"contact\": \"no\","
    " \"on\": {\"step\": {\"times\": [0.2], \"values\": [0, 1]}}}},"
    "{\"id\": \"K1\", \"type\": \"e_coil\"},"
    "{\"id\": \"K1_1\", \"type\": \"e_contact\", \"params\": {\"contact\": \"nc\", \"relay\": \"K1\"}}],"
    "\"connections\": [" HYDRAULIC_WIRES ","
    "{\"from\": \"U1.P\", \"to\": \"S1.1\"}, {\"from\": \"S1.4\", \"to\": \"K1_1.1\"},"
    "{\"from\": \"K1_1.2\", \"to\": \"K1.A1\"}, {\"from\": \"K1.A2\", \"to\": \"G1.N\"}]}";
  g_autoptr (HydSystem) sys = compile_ok (json);
  g_autofree char *msg = run_fails (sys, 1.0);
  g_test_message ("%s", msg);
  g_assert_nonnull (strstr (msg, "do not settle at t = 0.2 s"));
  g_assert_nonnull (strstr (msg, "K1.energised"));
  g_assert_nonnull (strstr (msg, "K1_1.actuated"));
}

/* +24 V to 0 V through a closed button, nothing between: a short circuit
 * when S1 closes at 0.3 s, naming the supply, the button and the ground. */
static void
test_short_circuit (void)
{
  const char *json =
    HEAD "\"components\": [" HYDRAULIC_PART ","
    "{\"id\": \"U1\", \"type\": \"e_supply\"}, {\"id\": \"G1\", \"type\": \"e_ground\"},"
    "{\"id\": \"S1\", \"type\": \"e_button\", \"params\": {\"contact\": \"no\","
    " \"on\": {\"step\": {\"times\": [0.3], \"values\": [0, 1]}}}}],"
    "\"connections\": [" HYDRAULIC_WIRES ","
    "{\"from\": \"U1.P\", \"to\": \"S1.1\"}, {\"from\": \"S1.4\", \"to\": \"G1.N\"}]}";
  g_autoptr (HydSystem) sys = compile_ok (json);
  g_autofree char *msg = run_fails (sys, 1.0);
  g_test_message ("%s", msg);
  g_assert_nonnull (strstr (msg, "short circuit at t = 0.3 s"));
  g_assert_nonnull (strstr (msg, "U1"));
  g_assert_nonnull (strstr (msg, "S1"));
  g_assert_nonnull (strstr (msg, "G1"));
}

/* A cylinder fed a constant flow; a reader switches where its position
 * crosses 0.1 m: at the located time the tap gives x = 0.1 m to the
 * locator's bracket (1e-7 of a step at 0.05 m/s: nanometres), and the
 * switch shows in the samples between the two around that time. The
 * tap's chain-rule entry ∂(ẏ)/∂x = 1 is in the analytic Jacobian. */
static void
test_state_reference (void)
{
  const char *json =
    HEAD "\"components\": ["
    "{\"id\": \"Q1\", \"type\": \"flow_source\", \"params\": {\"flow\": 1e-4}},"
    "{\"id\": \"C1\", \"type\": \"cylinder_double\"}, {\"id\": \"T1\", \"type\": \"tank\"},"
    "{\"id\": \"R1\", \"type\": \"e_reader\", \"params\": {\"target\": \"C1\", \"level\": 0.1}}],"
    "\"connections\": [{\"from\": \"Q1.P\", \"to\": \"C1.A\"}, {\"from\": \"C1.B\", \"to\": \"T1.T\"}]}";
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "C1.x", "R1.passed", "R1.when", "R1.integral", "R1.x_at" };
  HydTestRows r = hyd_test_run (sys, names, 5, 3.0, 0.01, 1e-8, -1, NULL);
  guint n = HYD_TEST_N_ROWS (r);
  double when = HYD_TEST_ROW (r, n - 1)[3], x_at = HYD_TEST_ROW (r, n - 1)[5];
  g_test_message ("located at t = %.12g s, x there %.12g m", when, x_at);
  g_assert_cmpfloat (HYD_TEST_ROW (r, n - 1)[2], ==, 1.0);
  g_assert_cmpfloat (fabs (x_at - 0.1), <, 1e-8);
  guint k = 1;
  while (k < n && HYD_TEST_ROW (r, k)[0] < when)
    k++;
  g_assert_cmpuint (k, <, n);
  const double *a = HYD_TEST_ROW (r, k - 1), *b = HYD_TEST_ROW (r, k);
  g_assert_cmpfloat (a[1], <, 0.1);
  g_assert_cmpfloat (b[1], >, 0.1);
  g_assert_cmpfloat (a[2], ==, 0.0);
  g_assert_cmpfloat (b[2], ==, 1.0);
  g_array_unref (r.rows);

  /* the Jacobian (column-major) at (R1.integral, C1.x): 1 */
  guint ns = hyd_system_get_n_states (sys);
  g_autofree double *y = g_new0 (double, ns);
  g_autofree double *J = g_new0 (double, ns * ns);
  memcpy (y, hyd_system_get_initial_state (sys), ns * sizeof (double));
  int ix = find_state (sys, "C1.x"), iy = find_state (sys, "R1.integral");
  g_assert_cmpint (ix, >=, 0);
  g_assert_cmpint (iy, >=, 0);
  y[ix] = 0.05;
  g_assert_cmpint (hyd_system_jacobian (sys, 0.5, y, J, NULL), ==, 0);
  g_assert_cmpfloat (J[(gsize) ix * ns + iy], ==, 1.0);
}

static void
expect_error (const char *json, const char *a, const char *b)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydSystem) sys = compile_json (json, &error);
  g_assert_null (sys);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, a));
  g_assert_nonnull (strstr (error->message, b));
}

static void
test_reference_errors (void)
{
  /* no such component */
  expect_error (HEAD "\"components\": [" HYDRAULIC_PART ","
                "{\"id\": \"K1_1\", \"type\": \"e_contact\", \"params\": {\"relay\": \"K9\"}}],"
                "\"connections\": [" HYDRAULIC_WIRES "]}",
                "\"K1_1\", parameter \"relay\"", "no component \"K9\"");
  /* a component without the variable */
  expect_error (HEAD "\"components\": [" HYDRAULIC_PART ","
                "{\"id\": \"U1\", \"type\": \"e_supply\"},"
                "{\"id\": \"K1_1\", \"type\": \"e_contact\", \"params\": {\"relay\": \"O1\"}}],"
                "\"connections\": [" HYDRAULIC_WIRES ", {\"from\": \"U1.P\", \"to\": \"K1_1.1\"}]}",
                "\"O1\" has no variable \"contacts\"", "parameter \"relay\"");
  /* itself */
  expect_error (HEAD "\"components\": [" HYDRAULIC_PART ","
                "{\"id\": \"K1_1\", \"type\": \"e_contact\", \"params\": {\"relay\": \"K1_1\"}}],"
                "\"connections\": [" HYDRAULIC_WIRES "]}",
                "\"K1_1\"", "cannot refer to itself");
  /* not a string */
  expect_error (HEAD "\"components\": [" HYDRAULIC_PART ","
                "{\"id\": \"K1_1\", \"type\": \"e_contact\", \"params\": {\"relay\": 3}}],"
                "\"connections\": [" HYDRAULIC_WIRES "]}",
                "parameter \"relay\"", "expected the id of a component");
  /* a wire to the hidden input */
  expect_error (HEAD "\"components\": [" HYDRAULIC_PART ","
                "{\"id\": \"K1\", \"type\": \"e_coil\"},"
                "{\"id\": \"K1_1\", \"type\": \"e_contact\"}],"
                "\"connections\": [" HYDRAULIC_WIRES ", {\"from\": \"K1.A1\", \"to\": \"K1_1.K\"}]}",
                "port K of K1_1", "not by a wire");
  /* electrical to hydraulic */
  expect_error (HEAD "\"components\": [" HYDRAULIC_PART ","
                "{\"id\": \"K1\", \"type\": \"e_coil\"}],"
                "\"connections\": [" HYDRAULIC_WIRES ", {\"from\": \"K1.A1\", \"to\": \"O1.A\"}]}",
                "K1.A1", "O1.A");
}

/* What the GUI draws: with K1 held, the nets of the current path carry
 * current; a branch through a closed contact to an open one (S3, S4) is
 * at +24 V but carries none; the rail below K1 is at 0 V. */
static void
test_levels (void)
{
  const char *json =
    HEAD "\"components\": [" HYDRAULIC_PART ","
    "{\"id\": \"U1\", \"type\": \"e_supply\"}, {\"id\": \"G1\", \"type\": \"e_ground\"},"
    "{\"id\": \"S1\", \"type\": \"e_button\", \"params\": {\"contact\": \"no\","
    " \"on\": {\"step\": {\"times\": [0.1, 0.2], \"values\": [0, 1, 0]}}}},"
    "{\"id\": \"S3\", \"type\": \"e_button\", \"params\": {\"contact\": \"nc\"}},"
    "{\"id\": \"S4\", \"type\": \"e_button\", \"params\": {\"contact\": \"no\"}},"
    "{\"id\": \"K1\", \"type\": \"e_coil\"},"
    "{\"id\": \"K1_1\", \"type\": \"e_contact\", \"params\": {\"contact\": \"no\", \"relay\": \"K1\"}}],"
    "\"junctions\": [{\"id\": \"J1\"}, {\"id\": \"J2\"}],"
    "\"connections\": [" HYDRAULIC_WIRES ","
    "{\"from\": \"U1.P\", \"to\": \"J1\"}, {\"from\": \"J1\", \"to\": \"S1.1\"},"
    "{\"from\": \"J1\", \"to\": \"K1_1.1\"}, {\"from\": \"S1.4\", \"to\": \"J2\"},"
    "{\"from\": \"K1_1.4\", \"to\": \"J2\"}, {\"from\": \"J2\", \"to\": \"K1.A1\"},"
    "{\"from\": \"K1.A2\", \"to\": \"G1.N\"},"
    "{\"from\": \"J1\", \"to\": \"S3.1\"}, {\"from\": \"S3.2\", \"to\": \"S4.1\"}]}";
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "K1.energised" };
  HydTestRows r = hyd_test_run (sys, names, 1, 0.3, 0.01, 1e-6, -1, NULL);
  g_assert_cmpfloat (HYD_TEST_ROW (r, HYD_TEST_N_ROWS (r) - 1)[1], ==, 1.0);
  g_array_unref (r.rows);
  guint nd = hyd_system_get_n_discrete (sys), ne = hyd_system_get_n_elec_nets (sys);
  g_autofree double *d = g_new0 (double, nd + 1);
  g_autofree guint8 *lv = g_new0 (guint8, ne + 1);
  hyd_system_get_discrete (sys, d);
  hyd_system_get_elec_levels (sys, d, lv);
  int rail = hyd_system_get_elec_net (sys, "U1", "P"), hold = hyd_system_get_elec_net (sys, "K1", "A1");
  int ground = hyd_system_get_elec_net (sys, "G1", "N"), dead = hyd_system_get_elec_net (sys, "S3", "2");
  int open = hyd_system_get_elec_net (sys, "S1", "4");
  g_assert_cmpint (rail, >=, 0);
  g_assert_cmpint (dead, >=, 0);
  g_assert_cmpint (hyd_system_get_elec_net (sys, "O1", "A"), ==, -1);
  g_assert_cmpuint (lv[rail], ==, 1 | 4);
  g_assert_cmpuint (lv[hold], ==, 1 | 4);
  g_assert_cmpuint (lv[open], ==, 1 | 4); /* J2: S1.4 is on the holding path's net */
  g_assert_cmpuint (lv[ground], ==, 2 | 4);
  g_assert_cmpuint (lv[dead], ==, 1);
  /* all released: nothing carries current, S1.4's net is dead */
  for (guint k = 0; k < nd; k++)
    d[k] = 0.0;
  hyd_system_get_elec_levels (sys, d, lv);
  g_assert_cmpuint (lv[rail], ==, 1);
  g_assert_cmpuint (lv[hold], ==, 0);
  g_assert_cmpuint (lv[ground], ==, 2);
}

static gboolean
has_warning (HydSystem *sys, HydDiagnosticCode code, const char *text)
{
  GPtrArray *w = hyd_system_get_diagnostics (sys);
  for (guint i = 0; w && i < w->len; i++)
    {
      const HydDiagnostic *d = g_ptr_array_index (w, i);
      g_autofree char *msg = hyd_diagnostic_dup_message (d, NULL);
      if (d->code == code && strstr (msg, text) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* The lint: a coil across 0 V and 0 V can never be energised; a relay no
 * contact refers to switches nothing; the latch has neither warning. */
static void
test_lint (void)
{
  const char *json =
    HEAD "\"components\": [" HYDRAULIC_PART ","
    "{\"id\": \"U1\", \"type\": \"e_supply\"}, {\"id\": \"G1\", \"type\": \"e_ground\"},"
    "{\"id\": \"K1\", \"type\": \"e_coil\"}, {\"id\": \"K2\", \"type\": \"e_coil\"},"
    "{\"id\": \"K2_1\", \"type\": \"e_contact\", \"params\": {\"relay\": \"K2\"}}],"
    "\"connections\": [" HYDRAULIC_WIRES ","
    "{\"from\": \"U1.P\", \"to\": \"K2_1.1\"}, {\"from\": \"K2_1.4\", \"to\": \"K1.A1\"},"
    "{\"from\": \"K1.A2\", \"to\": \"G1.N\"},"
    "{\"from\": \"K2.A1\", \"to\": \"G1.N\"}, {\"from\": \"K2.A2\", \"to\": \"G1.N\"}]}";
  g_autoptr (HydSystem) sys = compile_ok (json);
  g_assert_true (has_warning (sys, HYD_DIAGNOSTIC_ELEC_DEAD_LOAD, "K2 can never be energised"));
  g_assert_false (has_warning (sys, HYD_DIAGNOSTIC_ELEC_DEAD_LOAD, "K1 can never"));
  g_assert_true (has_warning (sys, HYD_DIAGNOSTIC_ELEC_UNUSED_COIL, "K1 switches nothing"));
  g_assert_false (has_warning (sys, HYD_DIAGNOSTIC_ELEC_UNUSED_COIL, "K2 switches"));
  g_autofree char *latch = latch_json ("0", "0");
  g_autoptr (HydSystem) ok = compile_ok (latch);
  g_assert_false (has_warning (ok, HYD_DIAGNOSTIC_ELEC_DEAD_LOAD, "K1"));
  g_assert_false (has_warning (ok, HYD_DIAGNOSTIC_ELEC_UNUSED_COIL, "K1"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  register_types ();
  g_test_add_func ("/electrical/self-holding", test_self_holding);
  g_test_add_func ("/electrical/dominant-off", test_dominant_off);
  g_test_add_func ("/electrical/chattering", test_chattering);
  g_test_add_func ("/electrical/short-circuit", test_short_circuit);
  g_test_add_func ("/electrical/state-reference", test_state_reference);
  g_test_add_func ("/electrical/reference-errors", test_reference_errors);
  g_test_add_func ("/electrical/lint", test_lint);
  g_test_add_func ("/electrical/levels", test_levels);
  return g_test_run ();
}
