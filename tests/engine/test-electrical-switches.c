/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-electrical-switches.c — the sources, switches and sensors of the
 * electrical control (engine/components/hyd-comp-electrical-switches.c,
 * docs/electrical.md): the +24 V supply and 0 V terminal, the pushbutton,
 * the limit switch, the proximity sensor and the pressure switch, in ladder
 * circuits whose truth follows by hand. */
#include <math.h>
#include <string.h>

#include "fd-harness.h"
#include "hyd-catalogue.h"
#include "hyd-circuit.h"
#include "hyd-comp-electrical.h"
#include "hyd-run.h"
#include "hyd-system.h"

/* ------------------------------------------------------------ test types */

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

/* A probe on a discrete state of the component it names (its "target"),
 * and optionally on a cylinder's x: the time and the position at which the
 * state last went to 1 ("on_at", "x_on") and to 0 ("off_at", "x_off"), −1
 * before, and how often it went to 1 ("n_on"). In `update`, t and x are
 * those of the located event or breakpoint. */
enum { PR_K, PR_X };
static const HydPortInfo probe_ports[] = {
  [PR_K] = { "K", HYD_DOMAIN_SIGNAL, TRUE, "state", HYD_PORT_INPUT, NULL, TRUE },
  [PR_X] = { "x", HYD_DOMAIN_SIGNAL, TRUE, "x", HYD_PORT_INPUT, NULL, TRUE },
};
#define PROBE_PARAMS(var) \
  { "target", "target", HYD_UNIT_NONE, NAN, -INFINITY, INFINITY, HYD_PARAM_REFERENCE | HYD_PARAM_OPTIONAL, \
    NULL, "watched", "K", var }, \
  { "cylinder", "cylinder", HYD_UNIT_NONE, NAN, -INFINITY, INFINITY, HYD_PARAM_REFERENCE | HYD_PARAM_OPTIONAL, \
    NULL, "its x", "x", "x" }
static const HydParamInfo probe_act_params[] = { PROBE_PARAMS ("actuated") };
static const HydParamInfo probe_lit_params[] = { PROBE_PARAMS ("lit") };

enum { PD_STATE, PD_ON_AT, PD_OFF_AT, PD_X_ON, PD_X_OFF, PD_N_ON };

static gboolean
probe_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "state", 0.0, "the watched state");
  hyd_comp_add_discrete_state (comp, "on_at", -1.0, "when it last went to 1");
  hyd_comp_add_discrete_state (comp, "off_at", -1.0, "when it last went to 0");
  hyd_comp_add_discrete_state (comp, "x_on", -1.0, "x when it last went to 1");
  hyd_comp_add_discrete_state (comp, "x_off", -1.0, "x when it last went to 0");
  hyd_comp_add_discrete_state (comp, "n_on", 0.0, "how often it went to 1");
  return empty_setup (comp, error);
}

static gboolean
probe_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  double v = in->p[PR_K] > 0.5 ? 1.0 : 0.0;
  if (v == d[PD_STATE])
    return FALSE;
  d[PD_STATE] = v;
  d[v > 0.5 ? PD_ON_AT : PD_OFF_AT] = in->t;
  d[v > 0.5 ? PD_X_ON : PD_X_OFF] = in->p[PR_X];
  if (v > 0.5)
    d[PD_N_ON] += 1;
  return TRUE;
}

static const HydComponentType p_act = {
  .id = "p_act", .label = "probe on actuated", .ports = probe_ports, .n_ports = 2,
  .params = probe_act_params, .n_params = 2, .boundary_param = -1, .designator = "P",
  .setup = probe_setup, .eval = nothing_eval, .update = probe_update,
};

static const HydComponentType p_lit = {
  .id = "p_lit", .label = "probe on lit", .ports = probe_ports, .n_ports = 2,
  .params = probe_lit_params, .n_params = 2, .boundary_param = -1, .designator = "P",
  .setup = probe_setup, .eval = nothing_eval, .update = probe_update,
};

static void
register_types (void)
{
  g_assert_true (hyd_catalogue_register_test_type (&p_act));
  g_assert_true (hyd_catalogue_register_test_type (&p_lit));
}

/* ---------------------------------------------------------------- helpers */

#define HEAD "{\"format\": \"bramah-circuit\", \"version\": 3, " \
             "\"fluid\": {\"bulk_modulus_model\": \"constant\"}, "
/* a small hydraulic part so that the system has a state */
#define HYDRAULIC_PART \
  "{\"id\": \"Q1\", \"type\": \"flow_source\", \"params\": {\"flow\": 1e-6}}," \
  "{\"id\": \"O1\", \"type\": \"orifice\"}," \
  "{\"id\": \"T1\", \"type\": \"tank\"}," \
  "{\"id\": \"U1\", \"type\": \"supply_24v\"}, {\"id\": \"G1\", \"type\": \"ground_0v\"}"
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

static void
expect_error (const char *json, const char *a, const char *b, const char *c)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydSystem) sys = compile_json (json, &error);
  g_assert_null (sys);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, a));
  g_assert_nonnull (strstr (error->message, b));
  g_assert_nonnull (strstr (error->message, c));
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

/* The values of `names` at the end of a run to t_end (rows every dt). */
static void
run_to_end (HydSystem *sys, const char *const *names, guint n, double t_end, double dt, double *last)
{
  HydTestRows r = hyd_test_run (sys, names, n, t_end, dt, 1e-8, -1, NULL);
  guint nr = HYD_TEST_N_ROWS (r);
  g_assert_cmpuint (nr, >, 0);
  g_assert_cmpfloat (fabs (HYD_TEST_ROW (r, nr - 1)[0] - t_end), <, 1e-9);
  memcpy (last, HYD_TEST_ROW (r, nr - 1) + 1, n * sizeof (double));
  g_array_unref (r.rows);
}

/* ---------------------------------------------------- supply and ground */

/* +24 V → H1 → 0 V: lit all the time. H2 with both terminals at +24 V
 * and H3 with both at 0 V never are. */
static void
test_supply_ground (void)
{
  const char *json =
    HEAD "\"components\": [" HYDRAULIC_PART ", {\"id\": \"H1\", \"type\": \"lamp\"},"
    "{\"id\": \"H2\", \"type\": \"lamp\"}, {\"id\": \"H3\", \"type\": \"lamp\"}],"
    "\"junctions\": [{\"id\": \"J1\"}, {\"id\": \"J2\"}],"
    "\"connections\": [" HYDRAULIC_WIRES ", {\"from\": \"U1.P\", \"to\": \"J1\"},"
    "{\"from\": \"J1\", \"to\": \"H1.X1\"}, {\"from\": \"H1.X2\", \"to\": \"J2\"},"
    "{\"from\": \"J2\", \"to\": \"G1.N\"},"
    "{\"from\": \"J1\", \"to\": \"H2.X1\"}, {\"from\": \"J1\", \"to\": \"H2.X2\"},"
    "{\"from\": \"J2\", \"to\": \"H3.X1\"}, {\"from\": \"J2\", \"to\": \"H3.X2\"}]}";
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "H1.lit", "H2.lit", "H3.lit" };
  HydTestRows r = hyd_test_run (sys, names, 3, 0.1, 0.01, 1e-6, -1, NULL);
  g_assert_cmpuint (HYD_TEST_N_ROWS (r), >, 5);
  for (guint i = 0; i < HYD_TEST_N_ROWS (r); i++)
    {
      g_assert_cmpfloat (HYD_TEST_ROW (r, i)[1], ==, 1.0);
      g_assert_cmpfloat (HYD_TEST_ROW (r, i)[2], ==, 0.0);
      g_assert_cmpfloat (HYD_TEST_ROW (r, i)[3], ==, 0.0);
    }
  g_array_unref (r.rows);
}

/* ------------------------------------------------------------ pushbutton */

/* +24 V → S1 → H1 (the 4 side) → 0 V, and for a changeover H2 on the 2
 * side; S1 pressed by a step profile from 0.2 s to 0.5 s. */
static char *
button_json (const char *contact, const char *operation)
{
  return g_strdup_printf (
    HEAD "\"components\": [" HYDRAULIC_PART ","
    "{\"id\": \"S1\", \"type\": \"pushbutton_switch\", \"params\": {\"contact\": \"%s\", \"operation\": \"%s\","
    " \"actuated\": {\"step\": {\"times\": [0.2, 0.5], \"values\": [0, 1, 0]}}}},"
    "{\"id\": \"H1\", \"type\": \"lamp\"}, {\"id\": \"H2\", \"type\": \"lamp\"},"
    "{\"id\": \"P1\", \"type\": \"p_lit\", \"params\": {\"target\": \"H1\"}},"
    "{\"id\": \"P2\", \"type\": \"p_lit\", \"params\": {\"target\": \"H2\"}},"
    "{\"id\": \"P3\", \"type\": \"p_act\", \"params\": {\"target\": \"S1\"}}],"
    "\"junctions\": [{\"id\": \"J1\"}],"
    "\"connections\": [" HYDRAULIC_WIRES ","
    "{\"from\": \"U1.P\", \"to\": \"S1.1\"}, {\"from\": \"S1.4\", \"to\": \"H1.X1\"},"
    "{\"from\": \"S1.2\", \"to\": \"H2.X1\"}, {\"from\": \"H1.X2\", \"to\": \"J1\"},"
    "{\"from\": \"H2.X2\", \"to\": \"J1\"}, {\"from\": \"J1\", \"to\": \"G1.N\"}]}",
    contact, operation);
}

/* Lit in the samples strictly inside the press (or outside it), and the
 * switching times the probes saw are the breakpoints themselves. */
static void
check_button (const char *contact, gboolean lit_4, gboolean lit_2)
{
  g_autofree char *json = button_json (contact, "momentary");
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "H1.lit", "H2.lit", "S1.actuated", "P1.on_at", "P1.off_at", "P2.on_at", "P2.off_at",
                          "P3.on_at", "P3.off_at" };
  HydTestRows r = hyd_test_run (sys, names, G_N_ELEMENTS (names), 1.0, 0.01, 1e-6, -1, NULL);
  guint checked = 0;
  for (guint i = 0; i < HYD_TEST_N_ROWS (r); i++)
    {
      const double *row = HYD_TEST_ROW (r, i);
      if (fabs (row[0] - 0.2) < 1e-9 || fabs (row[0] - 0.5) < 1e-9)
        continue;
      gboolean pressed = row[0] > 0.2 && row[0] < 0.5;
      g_assert_cmpfloat (row[3], ==, pressed ? 1.0 : 0.0);
      g_assert_cmpfloat (row[1], ==, lit_4 && pressed ? 1.0 : 0.0);
      g_assert_cmpfloat (row[2], ==, lit_2 && !pressed ? 1.0 : 0.0);
      checked++;
    }
  g_assert_cmpuint (checked, >, 95);
  const double *end = HYD_TEST_ROW (r, HYD_TEST_N_ROWS (r) - 1);
  /* the button: pressed at 0.2 s, released at 0.5 s, to round-off */
  g_assert_cmpfloat (fabs (end[8] - 0.2), <, 1e-12);
  g_assert_cmpfloat (fabs (end[9] - 0.5), <, 1e-12);
  /* H1 (make side) lit at the press and out at the release */
  if (lit_4)
    {
      g_assert_cmpfloat (fabs (end[4] - 0.2), <, 1e-12);
      g_assert_cmpfloat (fabs (end[5] - 0.5), <, 1e-12);
    }
  else
    g_assert_cmpfloat (end[4], ==, -1.0);
  /* H2 (break side) lit from t = 0, out at the press, lit at the release */
  if (lit_2)
    {
      g_assert_cmpfloat (fabs (end[6] - 0.5), <, 1e-12);
      g_assert_cmpfloat (fabs (end[7] - 0.2), <, 1e-12);
    }
  else
    g_assert_cmpfloat (end[6], ==, -1.0);
  g_array_unref (r.rows);
}

static void
test_button_no (void)
{
  check_button ("no", TRUE, FALSE);
}

static void
test_button_nc (void)
{
  check_button ("nc", FALSE, TRUE);
}

static void
test_button_changeover (void)
{
  check_button ("changeover", TRUE, TRUE);
}

/* The GUI's manual operator (ui/hyd-window-sim.c) reads the type's
 * operation and return: a pushbutton switch is a pushbutton whether
 * momentary or detent; a momentary one springs back, a detent one stays.
 * The directional valves keep theirs. */
static void
test_button_operator (void)
{
  const HydComponentType *pb = hyd_catalogue_lookup ("pushbutton_switch");
  g_assert_nonnull (pb);
  double v[3] = { 0, 0, 0 };
  int op = hyd_component_type_find_param (pb, "operation");
  g_assert_cmpint (op, >=, 0);
  g_assert_cmpstr (pb->command_param, ==, "actuated");
  v[op] = 0; /* momentary */
  g_assert_cmpint (hyd_component_type_get_operation (pb, v), ==, HYD_OPERATION_PUSHBUTTON);
  g_assert_true (hyd_component_type_get_spring_return (pb, v));
  g_assert_true (hyd_component_type_get_spring_return (pb, NULL));
  v[op] = 1; /* detent */
  g_assert_cmpint (hyd_component_type_get_operation (pb, v), ==, HYD_OPERATION_PUSHBUTTON);
  g_assert_false (hyd_component_type_get_spring_return (pb, v));

  const HydComponentType *dcv = hyd_catalogue_lookup ("dcv_4_3");
  g_autofree double *dv = g_new0 (double, dcv->n_params);
  for (guint k = 0; k < dcv->n_params; k++)
    dv[k] = dcv->params[k].def;
  int act = hyd_component_type_find_param (dcv, dcv->operation_param);
  int ret = hyd_component_type_find_param (dcv, dcv->return_param);
  g_assert_cmpint (act, >=, 0);
  g_assert_cmpint (ret, >=, 0);
  for (guint c = 0; dcv->params[act].choices[c]; c++)
    {
      dv[act] = c;
      const char *choice = dcv->params[act].choices[c];
      HydOperation want = strcmp (choice, "lever") == 0        ? HYD_OPERATION_LEVER
                          : strcmp (choice, "solenoid") == 0   ? HYD_OPERATION_SOLENOID
                          : strcmp (choice, "pushbutton") == 0 ? HYD_OPERATION_PUSHBUTTON
                          : strcmp (choice, "pedal") == 0      ? HYD_OPERATION_PEDAL
                                                               : HYD_OPERATION_NONE;
      g_assert_cmpint (hyd_component_type_get_operation (dcv, dv), ==, want);
    }
  for (guint c = 0; dcv->params[ret].choices[c]; c++)
    {
      dv[ret] = c;
      g_assert_cmpint (hyd_component_type_get_spring_return (dcv, dv), ==,
                       strcmp (dcv->params[ret].choices[c], "spring") == 0);
    }
}

/* A press by mouse is a live change of actuated, logged with its time and
 * replayed the same way (hyd-run.h): pressed at 0.3 s and released at
 * 0.45 s (what a momentary button does while the mouse button is held), a
 * detent one clicked on at 0.6 s. The lamp follows at those samples
 * exactly: the engine settles the network at every change. */
static void
test_button_live (void)
{
  const char *json =
    HEAD "\"components\": [" HYDRAULIC_PART ","
    "{\"id\": \"S1\", \"type\": \"pushbutton_switch\", \"params\": {\"contact\": \"no\"}},"
    "{\"id\": \"S2\", \"type\": \"pushbutton_switch\", \"params\": {\"contact\": \"no\", \"operation\": \"detent\"}},"
    "{\"id\": \"H1\", \"type\": \"lamp\"}, {\"id\": \"H2\", \"type\": \"lamp\"},"
    "{\"id\": \"P1\", \"type\": \"p_lit\", \"params\": {\"target\": \"H1\"}},"
    "{\"id\": \"P2\", \"type\": \"p_lit\", \"params\": {\"target\": \"H2\"}}],"
    "\"junctions\": [{\"id\": \"J1\"}, {\"id\": \"J2\"}],"
    "\"connections\": [" HYDRAULIC_WIRES ", {\"from\": \"U1.P\", \"to\": \"J1\"},"
    "{\"from\": \"J1\", \"to\": \"S1.1\"}, {\"from\": \"S1.4\", \"to\": \"H1.X1\"},"
    "{\"from\": \"J1\", \"to\": \"S2.1\"}, {\"from\": \"S2.4\", \"to\": \"H2.X1\"},"
    "{\"from\": \"H1.X2\", \"to\": \"J2\"}, {\"from\": \"H2.X2\", \"to\": \"J2\"}, {\"from\": \"J2\", \"to\": \"G1.N\"}]}";
  g_autoptr (HydSystem) sys = compile_ok (json);
  g_autoptr (GPtrArray) replay = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_run_change_free);
  g_ptr_array_add (replay, hyd_run_change_new (0.3, "S1", "actuated", 0, 1));
  g_ptr_array_add (replay, hyd_run_change_new (0.45, "S1", "actuated", 1, 0));
  g_ptr_array_add (replay, hyd_run_change_new (0.6, "S2", "actuated", 0, 1));
  HydSimOptions sim;
  g_autoptr (HydCircuit) empty = hyd_circuit_new ();
  g_assert_true (hyd_circuit_get_sim_options (empty, &sim, NULL));
  sim.t_end = 1.0;
  sim.output_interval = 0.05;
  const char *names[] = { "H1.lit", "H2.lit", "P1.on_at", "P1.off_at", "P2.on_at", "P2.off_at" };
  int vars[G_N_ELEMENTS (names)];
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    g_assert_cmpint ((vars[k] = hyd_system_find_variable (sys, names[k])), >=, 0);
  HydTestRows r = { g_array_new (FALSE, FALSE, sizeof (double)), 0 };
  HydRunSpec spec = { .sim = &sim, .vars = vars, .n_vars = G_N_ELEMENTS (names), .sample = hyd_test_keep_row,
                      .user = &r, .replay = replay };
  HydOdeResult res = { 0 };
  g_assert_cmpint (hyd_run_execute (sys, &spec, &res, NULL), ==, HYD_ODE_SUCCESS);
  for (guint i = 0; i < HYD_TEST_N_ROWS (r); i++)
    {
      const double *row = HYD_TEST_ROW (r, i);
      /* a sample at a change holds the values after it */
      g_assert_cmpfloat (row[1], ==, row[0] >= 0.3 - 1e-9 && row[0] < 0.45 - 1e-9 ? 1.0 : 0.0);
      g_assert_cmpfloat (row[2], ==, row[0] >= 0.6 - 1e-9 ? 1.0 : 0.0);
    }
  const double *end = HYD_TEST_ROW (r, HYD_TEST_N_ROWS (r) - 1);
  g_assert_cmpfloat (fabs (end[3] - 0.3), <, 1e-12);
  g_assert_cmpfloat (fabs (end[4] - 0.45), <, 1e-12);
  g_assert_cmpfloat (fabs (end[5] - 0.6), <, 1e-12);
  g_assert_cmpfloat (end[6], ==, -1.0);
  g_array_unref (r.rows);
  hyd_ode_result_clear (&res);
  hyd_sim_options_clear (&sim);
}

/* +24 V → S1 (pressed at 0.3 s) → 0 V: a short circuit when it closes,
 * reported with the supply, the ground and the closed contact. */
static void
test_short_circuit (void)
{
  const char *json =
    HEAD "\"components\": [" HYDRAULIC_PART ","
    "{\"id\": \"S1\", \"type\": \"pushbutton_switch\", \"params\": {\"contact\": \"no\","
    " \"actuated\": {\"step\": {\"times\": [0.3], \"values\": [0, 1]}}}}],"
    "\"connections\": [" HYDRAULIC_WIRES ","
    "{\"from\": \"U1.P\", \"to\": \"S1.1\"}, {\"from\": \"S1.4\", \"to\": \"G1.N\"}]}";
  g_autoptr (HydSystem) sys = compile_ok (json);
  g_autofree char *msg = run_fails (sys, 1.0);
  g_test_message ("%s", msg);
  g_assert_nonnull (strstr (msg, "short circuit"));
  g_assert_nonnull (strstr (msg, "U1"));
  g_assert_nonnull (strstr (msg, "G1"));
  g_assert_nonnull (strstr (msg, "S1"));
  g_assert_nonnull (strstr (msg, "0.3"));
}

/* ---------------------------------------------------------- limit switch */

/* A cylinder (bore 50 mm) fed q = 1e-4 m³/s at A, B to the tank, no
 * Coulomb friction, viscous friction c, a light piston (0.1 kg: the oil
 * spring rings out within milliseconds): it moves at v = q/A_A. Its
 * chamber A is first compressed to the steady p_A = c·v/A_A, which costs
 * the oil (V_A0 + V_h)·p_A/B (bulk modulus B constant, dead volume V_A0,
 * the hose's V_h = π·d²·L/4), so the piston lags: x = (q·t − (V_A0 +
 * V_h)·p_A/B)/A_A. A relief valve (100 bar, its own line) limits the
 * pressure at the end stop. */
#define CYL_Q 1e-4
#define CYL_D 0.05
#define CYL_C 2000.0
#define CYL_V0 5e-5
#define HOSE_V (G_PI * 0.01 * 0.01 / 4 * 0.5)
#define FLUID_B 1.5e9
#define CYLINDER_PART \
  "{\"id\": \"Q1\", \"type\": \"flow_source\", \"params\": {\"flow\": 1e-4}}," \
  "{\"id\": \"C1\", \"type\": \"cylinder_double\", \"params\": {\"piston_diameter\": 0.05," \
  " \"viscous_friction\": 2000, \"dead_volume_a\": 5e-5, \"mass\": 0.1}}," \
  "{\"id\": \"T1\", \"type\": \"tank\"}," \
  "{\"id\": \"U1\", \"type\": \"supply_24v\"}, {\"id\": \"G1\", \"type\": \"ground_0v\"}"
#define CYLINDER_WIRES \
  "{\"from\": \"Q1.P\", \"to\": \"C1.A\", \"length\": 0.5, \"diameter\": 0.01, \"friction\": false}," \
  "{\"from\": \"C1.B\", \"to\": \"T1.T\"}"
/* the relief valve on Q1.P, with a hose of no volume */
#define RELIEF_PART "{\"id\": \"R1\", \"type\": \"relief_valve\", \"params\": {\"cracking_pressure\": 1e7}}," \
  "{\"id\": \"T2\", \"type\": \"tank\"},"
#define RELIEF_WIRES "{\"from\": \"Q1.P\", \"to\": \"R1.P\", \"length\": 0, \"friction\": false}," \
  "{\"from\": \"R1.T\", \"to\": \"T2.T\"},"

static double
cylinder_time_at (double x)
{
  double A = G_PI * CYL_D * CYL_D / 4, v = CYL_Q / A, p = CYL_C * v / A;
  return (A * x + (CYL_V0 + HOSE_V) * p / FLUID_B) / CYL_Q;
}

static char *
sensor_json_with (const char *type, const char *params, const char *more, const char *more_wires)
{
  return g_strdup_printf (
    HEAD "\"components\": [%s" CYLINDER_PART ","
    "{\"id\": \"S1\", \"type\": \"%s\", \"params\": {\"cylinder\": \"C1\", %s}},"
    "{\"id\": \"H1\", \"type\": \"lamp\"},"
    "{\"id\": \"P1\", \"type\": \"p_act\", \"params\": {\"target\": \"S1\", \"cylinder\": \"C1\"}},"
    "{\"id\": \"P2\", \"type\": \"p_lit\", \"params\": {\"target\": \"H1\"}}],"
    "\"connections\": [%s" CYLINDER_WIRES ","
    "{\"from\": \"U1.P\", \"to\": \"S1.1\"}, {\"from\": \"S1.4\", \"to\": \"H1.X1\"},"
    "{\"from\": \"H1.X2\", \"to\": \"G1.N\"}]}",
    more, type, params, more_wires);
}

static char *
sensor_json (const char *type, const char *params)
{
  return sensor_json_with (type, params, "", "");
}

/* A roller switch at 0.2 m with a 2 mm band: actuated from x = 0.199 m to
 * x = 0.201 m, at the times by hand to 1e-6 relative; the lamp it feeds
 * lights and goes out at the same instants. */
static void
test_limit_switch (void)
{
  g_autofree char *json = sensor_json ("limit_switch", "\"position\": 0.2, \"band\": 0.002, \"contact\": \"no\"");
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "P1.on_at", "P1.off_at", "P1.x_on", "P1.x_off", "P1.n_on", "P2.on_at", "P2.off_at" };
  double e[G_N_ELEMENTS (names)];
  run_to_end (sys, names, G_N_ELEMENTS (names), 5.0, 0.05, e);
  double t_on = cylinder_time_at (0.199), t_off = cylinder_time_at (0.201);
  g_test_message ("on at %.12g s (by hand %.12g), off at %.12g s (by hand %.12g)", e[0], t_on, e[1], t_off);
  g_assert_cmpfloat (e[4], ==, 1.0);
  g_assert_cmpfloat (fabs (e[0] - t_on) / t_on, <, 1e-6);
  g_assert_cmpfloat (fabs (e[1] - t_off) / t_off, <, 1e-6);
  g_assert_cmpfloat (fabs (e[2] - 0.199), <, 1e-9);
  g_assert_cmpfloat (fabs (e[3] - 0.201), <, 1e-9);
  g_assert_cmpfloat (e[5], ==, e[0]);
  g_assert_cmpfloat (e[6], ==, e[1]);
}

/* A switch at the stroke end (0.5 m): actuated when the piston reaches
 * 0.499 m and held there by the end stop (x a hair beyond the stroke, well
 * inside the band: 100 bar on the piston presses the stop of 1e9 N/m by
 * tens of µm): it switches once and stays; one at x = 0 is actuated from the
 * start and released when the piston leaves 0.001 m. */
static void
test_limit_switch_ends (void)
{
  g_autofree char *json =
    sensor_json_with ("limit_switch", "\"position\": 0.5, \"contact\": \"no\"", RELIEF_PART, RELIEF_WIRES);
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "P1.on_at", "P1.off_at", "P1.n_on", "S1.actuated", "H1.lit", "C1.x" };
  double e[G_N_ELEMENTS (names)];
  run_to_end (sys, names, G_N_ELEMENTS (names), 15.0, 0.1, e);
  double t_on = cylinder_time_at (0.499);
  g_test_message ("on at %.12g s (by hand %.12g), x at the end %.9g m", e[0], t_on, e[5]);
  g_assert_cmpfloat (fabs (e[0] - t_on) / t_on, <, 1e-6);
  g_assert_cmpfloat (e[1], ==, -1.0);
  g_assert_cmpfloat (e[2], ==, 1.0);
  g_assert_cmpfloat (e[3], ==, 1.0);
  g_assert_cmpfloat (e[4], ==, 1.0);
  g_assert_cmpfloat (e[5], >, 0.5);
  g_assert_cmpfloat (e[5], <, 0.5 + 1e-4);

  g_autofree char *json0 = sensor_json ("limit_switch", "\"position\": 0, \"contact\": \"no\"");
  g_autoptr (HydSystem) sys0 = compile_ok (json0);
  const char *names0[] = { "P1.on_at", "P1.off_at", "P1.n_on", "P1.x_off" };
  double e0[G_N_ELEMENTS (names0)];
  run_to_end (sys0, names0, G_N_ELEMENTS (names0), 1.0, 0.05, e0);
  double t_off = cylinder_time_at (0.001);
  g_test_message ("at x = 0: on at %g s, off at %.12g s (by hand %.12g)", e0[0], e0[1], t_off);
  g_assert_cmpfloat (e0[0], ==, 0.0);
  g_assert_cmpfloat (e0[2], ==, 1.0);
  g_assert_cmpfloat (fabs (e0[1] - t_off) / t_off, <, 1e-6);
  g_assert_cmpfloat (fabs (e0[3] - 0.001), <, 1e-9);
}

/* ------------------------------------------------------ proximity sensor */

/* A sensor at 0.2 m, range 10 mm, hysteresis 2 mm: on at x = 0.195 m
 * (entering the range), off at x = 0.207 m (leaving the range widened by
 * the hysteresis), not at 0.205 m. */
static void
test_proximity (void)
{
  g_autofree char *json =
    sensor_json ("proximity_sensor", "\"position\": 0.2, \"range\": 0.01, \"hysteresis\": 0.002, \"contact\": \"no\"");
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "P1.on_at", "P1.off_at", "P1.x_on", "P1.x_off", "P1.n_on" };
  double e[G_N_ELEMENTS (names)];
  run_to_end (sys, names, G_N_ELEMENTS (names), 5.0, 0.05, e);
  double t_on = cylinder_time_at (0.195), t_off = cylinder_time_at (0.207);
  g_test_message ("on at %.12g s (by hand %.12g), off at %.12g s (by hand %.12g)", e[0], t_on, e[1], t_off);
  g_assert_cmpfloat (e[4], ==, 1.0);
  g_assert_cmpfloat (fabs (e[2] - 0.195), <, 1e-9);
  g_assert_cmpfloat (fabs (e[3] - 0.207), <, 1e-9);
  g_assert_cmpfloat (fabs (e[0] - t_on) / t_on, <, 1e-6);
  g_assert_cmpfloat (fabs (e[1] - t_off) / t_off, <, 1e-6);
}

/* The same sensor passed both ways: the flow reverses at 5 s (x ≈ 0.255
 * m). Going out it switches on at 0.195 and off at 0.207; coming back on
 * at 0.205 (entering the range from above) and off at 0.193. */
static void
test_proximity_both_ways (void)
{
  g_autofree char *json0 =
    sensor_json ("proximity_sensor", "\"position\": 0.2, \"range\": 0.01, \"hysteresis\": 0.002, \"contact\": \"no\"");
  /* the flow: +q, then −q from 5 s */
  g_autofree char *json = NULL;
  {
    const char *from = "\"flow\": 1e-4}";
    const char *at = strstr (json0, from);
    g_assert_nonnull (at);
    json = g_strdup_printf ("%.*s\"flow\": {\"step\": {\"times\": [5], \"values\": [1e-4, -1e-4]}}}%s",
                            (int) (at - json0), json0, at + strlen (from));
  }
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "P1.x_on", "P1.x_off", "P1.n_on", "C1.x" };
  HydTestRows r = hyd_test_run (sys, names, 4, 9.0, 0.01, 1e-8, -1, NULL);
  /* the probe's record before the reversal and at the end */
  const double *out = NULL;
  for (guint i = 0; i < HYD_TEST_N_ROWS (r) && HYD_TEST_ROW (r, i)[0] < 5.0 - 1e-9; i++)
    out = HYD_TEST_ROW (r, i);
  g_assert_nonnull (out);
  const double *end = HYD_TEST_ROW (r, HYD_TEST_N_ROWS (r) - 1);
  double x_on[2] = { out[1], end[1] }, x_off[2] = { out[2], end[2] };
  g_test_message ("out: on %.9g off %.9g; back: on %.9g off %.9g; %g switchings on, x at the end %g", x_on[0],
                  x_off[0], x_on[1], x_off[1], end[3], end[4]);
  g_assert_cmpfloat (out[3], ==, 1.0);
  g_assert_cmpfloat (end[3], ==, 2.0);
  g_assert_cmpfloat (end[4], <, 0.19);
  g_assert_cmpfloat (fabs (x_on[0] - 0.195), <, 1e-9);
  g_assert_cmpfloat (fabs (x_off[0] - 0.207), <, 1e-9);
  g_assert_cmpfloat (fabs (x_on[1] - 0.205), <, 1e-9);
  g_assert_cmpfloat (fabs (x_off[1] - 0.193), <, 1e-9);
  g_array_unref (r.rows);
}

/* ------------------------------------------------------- pressure switch */

/* A 1 L volume fed q = 1e-6 m³/s (bulk modulus B constant; with the
 * three hoses' oil, V = 1 L + 3·π·d²·L/4): p = B·q·t/V rises at about 1.5
 * bar/s; the flow reverses at 4 s. A switch set to 50 bar with 2 bar
 * hysteresis is actuated at t = 50e5·V/(B·q) (about 3.33 s) and released
 * at 48 bar: t = 4 + (p(4) − 48e5)/(B·q/V) (about 4.8 s). */
#define HOSE "\"length\": 0.5, \"diameter\": 0.01, \"friction\": false"
static void
test_pressure_switch (void)
{
  const char *json =
    HEAD "\"components\": ["
    "{\"id\": \"Q1\", \"type\": \"flow_source\", \"params\": {\"flow\":"
    " {\"step\": {\"times\": [4], \"values\": [1e-6, -1e-6]}}}},"
    "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"volume\": 1e-3}},"
    "{\"id\": \"B1\", \"type\": \"pressure_switch\", \"params\": {\"setting\": 5e6, \"hysteresis\": 2e5,"
    " \"contact\": \"no\"}},"
    "{\"id\": \"U1\", \"type\": \"supply_24v\"}, {\"id\": \"G1\", \"type\": \"ground_0v\"},"
    "{\"id\": \"H1\", \"type\": \"lamp\"},"
    "{\"id\": \"P1\", \"type\": \"p_act\", \"params\": {\"target\": \"B1\"}}],"
    "\"junctions\": [{\"id\": \"J1\"}],"
    "\"connections\": [{\"from\": \"Q1.P\", \"to\": \"J1\", " HOSE "}, {\"from\": \"J1\", \"to\": \"V1.P\", " HOSE "},"
    "{\"from\": \"J1\", \"to\": \"B1.X\", " HOSE "},"
    "{\"from\": \"U1.P\", \"to\": \"B1.1\"}, {\"from\": \"B1.4\", \"to\": \"H1.X1\"},"
    "{\"from\": \"H1.X2\", \"to\": \"G1.N\"}]}";
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "P1.on_at", "P1.off_at", "P1.n_on", "H1.lit" };
  double e[G_N_ELEMENTS (names)];
  run_to_end (sys, names, G_N_ELEMENTS (names), 5.5, 0.05, e);
  double rate = FLUID_B * 1e-6 / (1e-3 + 3 * HOSE_V);
  double t_on = 5e6 / rate, t_off = 4.0 + (4.0 * rate - 4.8e6) / rate;
  g_test_message ("on at %.12g s (by hand %.12g), off at %.12g s (by hand %.12g)", e[0], t_on, e[1], t_off);
  g_assert_cmpfloat (e[2], ==, 1.0);
  g_assert_cmpfloat (e[3], ==, 0.0);
  g_assert_cmpfloat (fabs (e[0] - t_on) / t_on, <, 1e-6);
  g_assert_cmpfloat (fabs (e[1] - t_off) / t_off, <, 1e-6);
}

/* ------------------------------------------------------------ references */

static void
test_reference_errors (void)
{
  /* a missing component: a load error naming the switch and the parameter */
  g_autofree char *missing = sensor_json ("limit_switch", "\"position\": 0.2");
  g_autofree char *missing2 = NULL;
  {
    const char *from = "\"cylinder\": \"C1\", \"position\"";
    const char *at = strstr (missing, from);
    g_assert_nonnull (at);
    missing2 = g_strdup_printf ("%.*s\"cylinder\": \"C9\", \"position\"%s", (int) (at - missing), missing,
                                at + strlen (from));
  }
  expect_error (missing2, "S1", "cylinder", "C9");
  /* a component without x: a compile error naming it and the variable */
  g_autofree char *nox = g_strdup (missing2);
  memcpy (strstr (nox, "\"C9\""), "\"Q1\"", 4);
  expect_error (nox, "S1", "cylinder", "\"x\"");
  g_autofree char *noxp = sensor_json ("proximity_sensor", "\"position\": 0.2");
  memcpy (strstr (noxp, "\"cylinder\": \"C1\"") + 13, "T1", 2);
  expect_error (noxp, "S1", "cylinder", "\"x\"");
  /* unset */
  g_autofree char *with = sensor_json ("limit_switch", "\"position\": 0.2");
  const char *ref = "\"cylinder\": \"C1\", \"position\"";
  char *at = strstr (with, ref);
  g_assert_nonnull (at);
  g_autofree char *unset = g_strdup_printf ("%.*s\"position\"%s", (int) (at - with), with, at + strlen (ref));
  expect_error (unset, "S1", "cylinder", "not set");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  register_types ();
  g_test_add_func ("/electrical-switches/supply-ground", test_supply_ground);
  g_test_add_func ("/electrical-switches/button-no", test_button_no);
  g_test_add_func ("/electrical-switches/button-nc", test_button_nc);
  g_test_add_func ("/electrical-switches/button-changeover", test_button_changeover);
  g_test_add_func ("/electrical-switches/button-operator", test_button_operator);
  g_test_add_func ("/electrical-switches/button-live", test_button_live);
  g_test_add_func ("/electrical-switches/short-circuit", test_short_circuit);
  g_test_add_func ("/electrical-switches/limit-switch", test_limit_switch);
  g_test_add_func ("/electrical-switches/limit-switch-ends", test_limit_switch_ends);
  g_test_add_func ("/electrical-switches/proximity", test_proximity);
  g_test_add_func ("/electrical-switches/proximity-both-ways", test_proximity_both_ways);
  g_test_add_func ("/electrical-switches/pressure-switch", test_pressure_switch);
  g_test_add_func ("/electrical-switches/reference-errors", test_reference_errors);
  return g_test_run ();
}
