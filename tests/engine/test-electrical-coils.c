/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-electrical-coils.c — the electrical loads of the catalogue and the
 * contacts that refer to them (engine/components/hyd-comp-electrical-coils.c,
 * docs/electrical.md): relay, relay_contact, timer_relay, counter, lamp and
 * solenoid, in ladder circuits whose truth follows by hand: a self-holding
 * relay latches and drops (dominant off), a relay lights a lamp through its
 * contact, a relay that switches itself off is reported by name, timers
 * switch at t_press + delay to 1e-9 s, a counter reaches its preset on the
 * N-th rising edge and resets, and a contact that names a missing component
 * or one without contacts is refused by name.
 *
 * The supply, the ground and the buttons are types that exist only here
 * (hyd_catalogue_register_test_type): a +24 V and a 0 V terminal, a contact
 * pressed by a profile, a contact pressed by a signal (driven by a `pulse`
 * block), and a probe that records the time a referenced component's
 * contacts last switched. */
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

static gboolean
set_state (double *d, guint k, double v)
{
  gboolean changed = d[k] != v;
  d[k] = v;
  return changed;
}

static const HydPortInfo supply_ports[] = { { "P", HYD_DOMAIN_ELECTRICAL, FALSE, "+24 V" } };
static const HydPortInfo ground_ports[] = { { "N", HYD_DOMAIN_ELECTRICAL, FALSE, "0 V" } };
static const HydComponentType c_supply = {
  .id = "c_supply", .label = "supply", .ports = supply_ports, .n_ports = 1, .boundary_param = -1,
  .designator = "U", .roles = HYD_ROLE_ELEC_SUPPLY, .setup = empty_setup, .eval = nothing_eval,
};
static const HydComponentType c_ground = {
  .id = "c_ground", .label = "ground", .ports = ground_ports, .n_ports = 1, .boundary_param = -1,
  .designator = "G", .roles = HYD_ROLE_ELEC_GROUND, .setup = empty_setup, .eval = nothing_eval,
};

/* c_button: actuated while its profile parameter "on" is > 0.5 */
static const HydPortInfo button_ports[] = { HYD_CONTACT_PORTS };
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
button_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  return set_state (d, 0, comp->par[1] > 0.5 ? 1.0 : 0.0);
}

static gboolean
contact_conducts (const HydComp *comp, const double *d, guint path)
{
  return hyd_contact_conducts (comp->par[0], d[0], path);
}

static const HydComponentType c_button = {
  .id = "c_button", .label = "button", .ports = button_ports, .n_ports = 3,
  .params = button_params, .n_params = 2, .boundary_param = -1, .designator = "S",
  .setup = contact_setup, .eval = nothing_eval, .update = button_update,
  .elec_paths = hyd_contact_paths, .n_elec_paths = 2, .elec_conducts = contact_conducts,
};

/* c_sigbutton: actuated while its signal input U is > 0.5 (a `pulse`
 * block presses it) */
static const HydPortInfo sigbutton_ports[] = {
  HYD_CONTACT_PORTS,
  { "U", HYD_DOMAIN_SIGNAL, FALSE, "press", HYD_PORT_INPUT },
};

static gboolean
sigbutton_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  return set_state (d, 0, in->p[3] > 0.5 ? 1.0 : 0.0);
}

static const HydComponentType c_sigbutton = {
  .id = "c_sigbutton", .label = "signal button", .ports = sigbutton_ports, .n_ports = 4,
  .params = button_params, .n_params = 1, .boundary_param = -1, .designator = "S",
  .setup = contact_setup, .eval = nothing_eval, .update = sigbutton_update,
  .elec_paths = hyd_contact_paths, .n_elec_paths = 2, .elec_conducts = contact_conducts,
};

/* c_probe: the time its target's contacts last closed ("closed_at") and
 * opened ("opened_at"), −1 before; t there is the located event's time */
static const HydPortInfo probe_ports[] = {
  { "K", HYD_DOMAIN_SIGNAL, TRUE, "contacts", HYD_PORT_INPUT, NULL, TRUE },
};
static const HydParamInfo probe_params[] = {
  { "target", "target", HYD_UNIT_NONE, NAN, -INFINITY, INFINITY, HYD_PARAM_REFERENCE | HYD_PARAM_OPTIONAL,
    NULL, "the relay", "K", "contacts" },
};

static gboolean
probe_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "state", 0.0, "the contacts");
  hyd_comp_add_discrete_state (comp, "closed_at", -1.0, "when they last closed");
  hyd_comp_add_discrete_state (comp, "opened_at", -1.0, "when they last opened");
  return empty_setup (comp, error);
}

static gboolean
probe_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  double v = in->p[0] > 0.5 ? 1.0 : 0.0;
  if (v == d[0])
    return FALSE;
  d[0] = v;
  d[v > 0.5 ? 1 : 2] = in->t;
  return TRUE;
}

static const HydComponentType c_probe = {
  .id = "c_probe", .label = "probe", .ports = probe_ports, .n_ports = 1,
  .params = probe_params, .n_params = 1, .boundary_param = -1, .designator = "P",
  .setup = probe_setup, .eval = nothing_eval, .update = probe_update,
};

static void
register_types (void)
{
  const HydComponentType *types[] = { &c_supply, &c_ground, &c_button, &c_sigbutton, &c_probe };
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
  "{\"id\": \"T1\", \"type\": \"tank\"}," \
  "{\"id\": \"U1\", \"type\": \"c_supply\"}, {\"id\": \"G1\", \"type\": \"c_ground\"}"
#define HYDRAULIC_WIRES \
  "{\"from\": \"Q1.P\", \"to\": \"O1.A\"}, {\"from\": \"O1.B\", \"to\": \"T1.T\"}"
/* a profile: pressed from a to b */
#define PRESS(a, b) "{\"step\": {\"times\": [" #a ", " #b "], \"values\": [0, 1, 0]}}"

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

/* Whether a sample at t lies within 1e-9 s of one of the switching times
 * (such a row shows the state after the switch, so it is not checked). */
static gboolean
near_switch (double t, const double *times, guint n)
{
  for (guint i = 0; i < n; i++)
    if (fabs (t - times[i]) < 1e-9)
      return TRUE;
  return FALSE;
}

/* ------------------------------------------------------------------ latch */

/* The self-holding circuit of every electro-hydraulics course: start S1
 * (normally open) in parallel with K1's own normally open contact K1_1, in
 * series with stop S2 (normally closed), and the coil K1; K1's second
 * contact K1_2 (normally open) lights H1. */
static char *
latch_json (const char *s1_on, const char *s2_on)
{
  return g_strdup_printf (
    HEAD "\"components\": [" HYDRAULIC_PART ","
    "{\"id\": \"S1\", \"type\": \"c_button\", \"params\": {\"contact\": \"no\", \"on\": %s}},"
    "{\"id\": \"S2\", \"type\": \"c_button\", \"params\": {\"contact\": \"nc\", \"on\": %s}},"
    "{\"id\": \"K1\", \"type\": \"relay\"},"
    "{\"id\": \"K1_1\", \"type\": \"relay_contact\", \"params\": {\"contact\": \"no\", \"relay\": \"K1\"}},"
    "{\"id\": \"K1_2\", \"type\": \"relay_contact\", \"params\": {\"contact\": \"no\", \"relay\": \"K1\"}},"
    "{\"id\": \"H1\", \"type\": \"lamp\"}],"
    "\"junctions\": [{\"id\": \"J1\"}, {\"id\": \"J2\"}, {\"id\": \"J3\"}],"
    "\"connections\": [" HYDRAULIC_WIRES ","
    "{\"from\": \"U1.P\", \"to\": \"J1\"}, {\"from\": \"J1\", \"to\": \"S1.1\"},"
    "{\"from\": \"J1\", \"to\": \"K1_1.1\"}, {\"from\": \"S1.4\", \"to\": \"J2\"},"
    "{\"from\": \"K1_1.4\", \"to\": \"J2\"}, {\"from\": \"J2\", \"to\": \"S2.1\"},"
    "{\"from\": \"S2.2\", \"to\": \"K1.A1\"}, {\"from\": \"K1.A2\", \"to\": \"J3\"},"
    "{\"from\": \"J3\", \"to\": \"G1.N\"},"
    "{\"from\": \"J1\", \"to\": \"K1_2.1\"}, {\"from\": \"K1_2.4\", \"to\": \"H1.X1\"},"
    "{\"from\": \"H1.X2\", \"to\": \"J3\"}]}",
    s1_on, s2_on);
}

/* S1 pressed 0.1–0.2 s, S2 pressed 0.5–0.6 s: K1 latches at 0.1, holds
 * after S1 is released, drops at 0.5 and stays off after S2 is released;
 * its contacts and the lamp follow. */
static void
test_self_holding (void)
{
  g_autofree char *json = latch_json (PRESS (0.1, 0.2), PRESS (0.5, 0.6));
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "K1.energised", "K1.contacts", "K1_1.actuated", "K1_2.actuated", "H1.lit" };
  HydTestRows r = hyd_test_run (sys, names, 5, 1.0, 0.01, 1e-6, -1, NULL);
  const double sw[] = { 0.1, 0.5 };
  guint checked = 0;
  for (guint i = 0; i < HYD_TEST_N_ROWS (r); i++)
    {
      const double *row = HYD_TEST_ROW (r, i);
      if (near_switch (row[0], sw, 2))
        continue;
      double on = row[0] > 0.1 && row[0] < 0.5 ? 1.0 : 0.0;
      for (guint k = 1; k <= 5; k++)
        g_assert_cmpfloat (row[k], ==, on);
      checked++;
    }
  g_assert_cmpuint (checked, >, 90);
  g_array_unref (r.rows);
}

/* Dominant off: start and stop pressed together: K1 stays off; start
 * pressed alone later latches it. */
static void
test_dominant_off (void)
{
  g_autofree char *json = latch_json ("{\"step\": {\"times\": [0.1, 0.2, 0.3, 0.4], \"values\": [0, 1, 0, 1, 0]}}",
                                      PRESS (0.1, 0.2));
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "K1.energised", "H1.lit" };
  HydTestRows r = hyd_test_run (sys, names, 2, 0.6, 0.01, 1e-6, -1, NULL);
  const double sw[] = { 0.3 };
  for (guint i = 0; i < HYD_TEST_N_ROWS (r); i++)
    {
      const double *row = HYD_TEST_ROW (r, i);
      if (near_switch (row[0], sw, 1))
        continue;
      double on = row[0] > 0.3 ? 1.0 : 0.0;
      g_assert_cmpfloat (row[1], ==, on);
      g_assert_cmpfloat (row[2], ==, on);
    }
  g_array_unref (r.rows);
}

/* A relay fed through its own normally closed contact: it switches itself
 * off, then on ... The run stops and names K1's states. */
static void
test_chattering (void)
{
  const char *json =
    HEAD "\"components\": [" HYDRAULIC_PART ","
    "{\"id\": \"S1\", \"type\": \"c_button\", \"params\": {\"contact\": \"no\","
    " \"on\": {\"step\": {\"times\": [0.25], \"values\": [0, 1]}}}},"
    "{\"id\": \"K1\", \"type\": \"relay\"},"
    "{\"id\": \"K1_1\", \"type\": \"relay_contact\", \"params\": {\"contact\": \"nc\", \"relay\": \"K1\"}}],"
    "\"connections\": [" HYDRAULIC_WIRES ","
    "{\"from\": \"U1.P\", \"to\": \"S1.1\"}, {\"from\": \"S1.4\", \"to\": \"K1_1.1\"},"
    "{\"from\": \"K1_1.2\", \"to\": \"K1.A1\"}, {\"from\": \"K1.A2\", \"to\": \"G1.N\"}]}";
  g_autoptr (HydSystem) sys = compile_ok (json);
  g_autofree char *msg = run_fails (sys, 1.0);
  g_test_message ("%s", msg);
  g_assert_nonnull (strstr (msg, "do not settle at t = 0.25 s"));
  g_assert_nonnull (strstr (msg, "K1.energised"));
  g_assert_nonnull (strstr (msg, "K1.contacts"));
  g_assert_nonnull (strstr (msg, "K1_1.actuated"));
  g_assert_nonnull (strstr (msg, "keep switching"));
}

/* ----------------------------------------------------------------- timers */

/* S1 (normally open) energises the timer KT1, whose contact KT1_1 lights
 * H1; P1 records when KT1's contacts switched. */
static char *
timer_json (const char *mode, double delay, const char *s1_on)
{
  char d[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_dtostr (d, sizeof d, delay);
  return g_strdup_printf (
    HEAD "\"components\": [" HYDRAULIC_PART ","
    "{\"id\": \"S1\", \"type\": \"c_button\", \"params\": {\"contact\": \"no\", \"on\": %s}},"
    "{\"id\": \"KT1\", \"type\": \"timer_relay\", \"params\": {\"mode\": \"%s\", \"delay\": %s}},"
    "{\"id\": \"KT1_1\", \"type\": \"relay_contact\", \"params\": {\"contact\": \"no\", \"relay\": \"KT1\"}},"
    "{\"id\": \"H1\", \"type\": \"lamp\"},"
    "{\"id\": \"P1\", \"type\": \"c_probe\", \"params\": {\"target\": \"KT1\"}}],"
    "\"junctions\": [{\"id\": \"J1\"}, {\"id\": \"J2\"}],"
    "\"connections\": [" HYDRAULIC_WIRES ","
    "{\"from\": \"U1.P\", \"to\": \"J1\"}, {\"from\": \"J1\", \"to\": \"S1.1\"},"
    "{\"from\": \"S1.4\", \"to\": \"KT1.A1\"}, {\"from\": \"KT1.A2\", \"to\": \"J2\"},"
    "{\"from\": \"J2\", \"to\": \"G1.N\"}, {\"from\": \"J1\", \"to\": \"KT1_1.1\"},"
    "{\"from\": \"KT1_1.4\", \"to\": \"H1.X1\"}, {\"from\": \"H1.X2\", \"to\": \"J2\"}]}",
    s1_on, mode, d);
}

/* On-delay, 0.737 s (off the 0.01 s sample grid): S1 pressed 0.3–2 s
 * closes the contacts at 1.037 s (the located event, to 1e-9 s), and they
 * open with the release at 2 s; the remaining time counts down from
 * 0.737 s while timing. A press shorter than the delay (0.3–0.8 s)
 * switches nothing, and the next one (1.2–3 s) times afresh: closed at
 * 1.937 s. */
static void
test_on_delay (void)
{
  g_autofree char *json = timer_json ("on_delay", 0.737, PRESS (0.3, 2.0));
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "KT1.contacts", "H1.lit", "KT1.remaining", "KT1.since", "P1.closed_at", "P1.opened_at" };
  HydTestRows r = hyd_test_run (sys, names, 6, 2.5, 0.01, 1e-6, -1, NULL);
  const double sw[] = { 0.3, 2.0 };
  guint n_timing = 0;
  for (guint i = 0; i < HYD_TEST_N_ROWS (r); i++)
    {
      const double *row = HYD_TEST_ROW (r, i);
      double t = row[0];
      if (near_switch (t, sw, 2))
        continue;
      double on = t > 1.037 && t < 2.0 ? 1.0 : 0.0;
      g_assert_cmpfloat (row[1], ==, on);
      g_assert_cmpfloat (row[2], ==, on);
      gboolean timing = t > 0.3 && t < 1.037;
      n_timing += timing;
      g_assert_cmpfloat_with_epsilon (row[3], timing ? 1.037 - t : 0.0, 1e-12);
      g_assert_cmpfloat (row[4], ==, timing ? 0.3 : -1.0);
    }
  g_assert_cmpuint (n_timing, >, 70);
  const double *last = HYD_TEST_ROW (r, HYD_TEST_N_ROWS (r) - 1);
  g_test_message ("on-delay: closed at %.17g s (error %.2g s), opened at %.17g s", last[5], last[5] - 1.037, last[6]);
  g_assert_cmpfloat (fabs (last[5] - 1.037), <, 1e-9);
  g_assert_cmpfloat (fabs (last[6] - 2.0), <, 1e-12);
  g_array_unref (r.rows);

  g_autofree char *json2 =
    timer_json ("on_delay", 0.737, "{\"step\": {\"times\": [0.3, 0.8, 1.2, 3.0], \"values\": [0, 1, 0, 1, 0]}}");
  g_autoptr (HydSystem) sys2 = compile_ok (json2);
  HydTestRows r2 = hyd_test_run (sys2, names, 6, 2.5, 0.01, 1e-6, -1, NULL);
  for (guint i = 0; i < HYD_TEST_N_ROWS (r2); i++)
    {
      const double *row = HYD_TEST_ROW (r2, i);
      g_assert_cmpfloat (row[1], ==, row[0] > 1.937 ? 1.0 : 0.0);
    }
  last = HYD_TEST_ROW (r2, HYD_TEST_N_ROWS (r2) - 1);
  g_test_message ("on-delay after a short press: closed at %.15g s", last[5]);
  g_assert_cmpfloat (fabs (last[5] - 1.937), <, 1e-9);
  g_assert_cmpfloat (last[6], ==, -1.0);
  g_array_unref (r2.rows);
}

/* Off-delay, 0.737 s: S1 pressed 0.3–0.5 s closes the contacts at 0.3 s
 * and they open 0.737 s after the release, at 1.237 s (to 1e-9 s). Pressed
 * again during the delay (0.3–0.5 and 0.9–1.0 s), the timer starts afresh
 * from the second release: open at 1.737 s. */
static void
test_off_delay (void)
{
  g_autofree char *json = timer_json ("off_delay", 0.737, PRESS (0.3, 0.5));
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "KT1.contacts", "H1.lit", "KT1.remaining", "P1.closed_at", "P1.opened_at" };
  HydTestRows r = hyd_test_run (sys, names, 5, 2.0, 0.01, 1e-6, -1, NULL);
  const double sw[] = { 0.3, 0.5 };
  for (guint i = 0; i < HYD_TEST_N_ROWS (r); i++)
    {
      const double *row = HYD_TEST_ROW (r, i);
      double t = row[0];
      if (near_switch (t, sw, 2))
        continue;
      double on = t > 0.3 && t < 1.237 ? 1.0 : 0.0;
      g_assert_cmpfloat (row[1], ==, on);
      g_assert_cmpfloat (row[2], ==, on);
      g_assert_cmpfloat_with_epsilon (row[3], t > 0.5 && t < 1.237 ? 1.237 - t : 0.0, 1e-12);
    }
  const double *last = HYD_TEST_ROW (r, HYD_TEST_N_ROWS (r) - 1);
  g_test_message ("off-delay: closed at %.17g s, opened at %.17g s (error %.2g s)", last[4], last[5], last[5] - 1.237);
  g_assert_cmpfloat (fabs (last[4] - 0.3), <, 1e-12);
  g_assert_cmpfloat (fabs (last[5] - 1.237), <, 1e-9);
  g_array_unref (r.rows);

  g_autofree char *json2 =
    timer_json ("off_delay", 0.737, "{\"step\": {\"times\": [0.3, 0.5, 0.9, 1.0], \"values\": [0, 1, 0, 1, 0]}}");
  g_autoptr (HydSystem) sys2 = compile_ok (json2);
  HydTestRows r2 = hyd_test_run (sys2, names, 5, 2.0, 0.01, 1e-6, -1, NULL);
  last = HYD_TEST_ROW (r2, HYD_TEST_N_ROWS (r2) - 1);
  g_test_message ("off-delay pressed twice: opened at %.15g s", last[5]);
  g_assert_cmpfloat (fabs (last[5] - 1.737), <, 1e-9);
  g_array_unref (r2.rows);
}

/* --------------------------------------------------------------- counter */

/* S1 (profile `count`, or a pulse block W1 through S3) pulses the count
 * coil of KZ1; S2 energises its reset coil; KZ1's contact lights H1. */
static char *
counter_json (const char *count_button, const char *s2_on, int preset)
{
  return g_strdup_printf (
    HEAD "\"components\": [" HYDRAULIC_PART ", %s,"
    "{\"id\": \"S2\", \"type\": \"c_button\", \"params\": {\"contact\": \"no\", \"on\": %s}},"
    "{\"id\": \"KZ1\", \"type\": \"counter\", \"params\": {\"preset\": %d}},"
    "{\"id\": \"KZ1_1\", \"type\": \"relay_contact\", \"params\": {\"contact\": \"no\", \"relay\": \"KZ1\"}},"
    "{\"id\": \"H1\", \"type\": \"lamp\"},"
    "{\"id\": \"P1\", \"type\": \"c_probe\", \"params\": {\"target\": \"KZ1\"}}],"
    "\"junctions\": [{\"id\": \"J1\"}, {\"id\": \"J2\"}],"
    "\"connections\": [" HYDRAULIC_WIRES ","
    "{\"from\": \"U1.P\", \"to\": \"J1\"}, {\"from\": \"J1\", \"to\": \"S1.1\"},"
    "{\"from\": \"S1.4\", \"to\": \"KZ1.A1\"}, {\"from\": \"KZ1.A2\", \"to\": \"J2\"},"
    "{\"from\": \"J1\", \"to\": \"S2.1\"}, {\"from\": \"S2.4\", \"to\": \"KZ1.R1\"},"
    "{\"from\": \"KZ1.R2\", \"to\": \"J2\"},"
    "{\"from\": \"J2\", \"to\": \"G1.N\"}, {\"from\": \"J1\", \"to\": \"KZ1_1.1\"},"
    "{\"from\": \"KZ1_1.4\", \"to\": \"H1.X1\"}, {\"from\": \"H1.X2\", \"to\": \"J2\"}%s]}",
    count_button, s2_on, preset,
    strstr (count_button, "W1") ? ", {\"from\": \"W1.Y\", \"to\": \"S1.U\"}" : "");
}

/* Preset 3, pulses of S1 at 0.1, 0.3, 0.5, 0.7 s (0.1 s each): the count
 * is 1, 2, 3, 4 after each rising edge, the contacts close at the third
 * (0.5 s) and stay closed through the fourth; the reset S2 at 0.9–1.0 s
 * sets the count to 0 and opens them; a pulse during the reset (0.95 s,
 * held past it) is not counted; the next two (1.2, 1.4 s) count 1, 2. */
static void
test_counter_profile (void)
{
  const char *s1 = "{\"id\": \"S1\", \"type\": \"c_button\", \"params\": {\"contact\": \"no\", \"on\": "
                   "{\"step\": {\"times\": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.95, 1.1, 1.2, 1.3, 1.4, 1.5], "
                   "\"values\": [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0]}}}}";
  g_autofree char *json = counter_json (s1, PRESS (0.9, 1.0), 3);
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "KZ1.count", "KZ1.contacts", "H1.lit", "KZ1.reset", "P1.closed_at", "P1.opened_at" };
  HydTestRows r = hyd_test_run (sys, names, 6, 1.6, 0.01, 1e-6, -1, NULL);
  const double edges[] = { 0.1, 0.3, 0.5, 0.7, 0.9, 1.0, 1.2, 1.4 };
  for (guint i = 0; i < HYD_TEST_N_ROWS (r); i++)
    {
      const double *row = HYD_TEST_ROW (r, i);
      double t = row[0];
      if (near_switch (t, edges, G_N_ELEMENTS (edges)))
        continue;
      double count = t < 0.1 ? 0 : t < 0.3 ? 1 : t < 0.5 ? 2 : t < 0.7 ? 3 : t < 0.9 ? 4 : t < 1.2 ? 0 : t < 1.4 ? 1 : 2;
      double on = t > 0.5 && t < 0.9 ? 1.0 : 0.0;
      g_assert_cmpfloat (row[1], ==, count);
      g_assert_cmpfloat (row[2], ==, on);
      g_assert_cmpfloat (row[3], ==, on);
      g_assert_cmpfloat (row[4], ==, t > 0.9 && t < 1.0 ? 1.0 : 0.0);
    }
  const double *last = HYD_TEST_ROW (r, HYD_TEST_N_ROWS (r) - 1);
  g_assert_cmpfloat (fabs (last[5] - 0.5), <, 1e-12);
  g_assert_cmpfloat (fabs (last[6] - 0.9), <, 1e-12);
  g_array_unref (r.rows);
}

/* A pulse block (period 0.2 s, duty 0.5, delay 0.1 s) presses S1: preset
 * 4 is reached on the fourth rising edge, 0.1 + 3·0.2 = 0.7 s, located to
 * 1e-9 s (the pulse's edges are events). */
static void
test_counter_pulse (void)
{
  const char *s1 = "{\"id\": \"W1\", \"type\": \"pulse\", \"params\": {\"period\": 0.2, \"duty\": 0.5, \"delay\": 0.1}},"
                   "{\"id\": \"S1\", \"type\": \"c_sigbutton\", \"params\": {\"contact\": \"no\"}}";
  g_autofree char *json = counter_json (s1, "0", 4);
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "KZ1.count", "P1.closed_at" };
  HydTestRows r = hyd_test_run (sys, names, 2, 1.0, 0.05, 1e-6, -1, NULL);
  const double *last = HYD_TEST_ROW (r, HYD_TEST_N_ROWS (r) - 1);
  g_test_message ("counter: %g pulses by 1 s, contacts closed at %.15g s", last[1], last[2]);
  /* rising edges at 0.1, 0.3, 0.5, 0.7, 0.9 s */
  g_assert_cmpfloat (last[1], ==, 5.0);
  g_assert_cmpfloat (fabs (last[2] - 0.7), <, 1e-9);
  g_array_unref (r.rows);
}

/* ------------------------------------------------------ solenoid, errors */

/* A solenoid coil is energised through a relay's contact, and a valve
 * side reads its "energised" (here: the probe reads a relay's contacts;
 * the solenoid's state is sampled). */
static void
test_solenoid (void)
{
  const char *json =
    HEAD "\"components\": [" HYDRAULIC_PART ","
    "{\"id\": \"S1\", \"type\": \"c_button\", \"params\": {\"contact\": \"no\", \"on\": " PRESS (0.2, 0.4) "}},"
    "{\"id\": \"K1\", \"type\": \"relay\"},"
    "{\"id\": \"K1_1\", \"type\": \"relay_contact\", \"params\": {\"contact\": \"changeover\", \"relay\": \"K1\"}},"
    "{\"id\": \"Y1\", \"type\": \"solenoid\"}, {\"id\": \"H1\", \"type\": \"lamp\"}],"
    "\"junctions\": [{\"id\": \"J1\"}, {\"id\": \"J2\"}],"
    "\"connections\": [" HYDRAULIC_WIRES ","
    "{\"from\": \"U1.P\", \"to\": \"J1\"}, {\"from\": \"J1\", \"to\": \"S1.1\"},"
    "{\"from\": \"S1.4\", \"to\": \"K1.A1\"}, {\"from\": \"K1.A2\", \"to\": \"J2\"},"
    "{\"from\": \"J2\", \"to\": \"G1.N\"}, {\"from\": \"J1\", \"to\": \"K1_1.1\"},"
    "{\"from\": \"K1_1.4\", \"to\": \"Y1.A1\"}, {\"from\": \"Y1.A2\", \"to\": \"J2\"},"
    "{\"from\": \"K1_1.2\", \"to\": \"H1.X1\"}, {\"from\": \"H1.X2\", \"to\": \"J2\"}]}";
  g_autoptr (HydSystem) sys = compile_ok (json);
  const char *names[] = { "Y1.energised", "H1.lit" };
  HydTestRows r = hyd_test_run (sys, names, 2, 0.6, 0.01, 1e-6, -1, NULL);
  const double sw[] = { 0.2, 0.4 };
  for (guint i = 0; i < HYD_TEST_N_ROWS (r); i++)
    {
      const double *row = HYD_TEST_ROW (r, i);
      if (near_switch (row[0], sw, 2))
        continue;
      double on = row[0] > 0.2 && row[0] < 0.4 ? 1.0 : 0.0;
      /* changeover: 1–4 to the solenoid while actuated, 1–2 to the lamp otherwise */
      g_assert_cmpfloat (row[1], ==, on);
      g_assert_cmpfloat (row[2], ==, 1.0 - on);
    }
  g_array_unref (r.rows);
}

/* a contact K1_1 between U1 and G1 (its relay given by the caller) */
#define CONTACT_WIRES \
  HYDRAULIC_WIRES ", {\"from\": \"U1.P\", \"to\": \"K1_1.1\"}, {\"from\": \"K1_1.4\", \"to\": \"G1.N\"}"
/* a coil X (ports a, b) between U1 and G1 */
#define COIL_WIRES(x, a, b) \
  HYDRAULIC_WIRES ", {\"from\": \"U1.P\", \"to\": \"" x "." a "\"}, {\"from\": \"" x "." b "\", \"to\": \"G1.N\"}"

static void
test_contact_errors (void)
{
  /* no such component */
  expect_error (HEAD "\"components\": [" HYDRAULIC_PART ","
                "{\"id\": \"K1_1\", \"type\": \"relay_contact\", \"params\": {\"relay\": \"K9\"}}],"
                "\"connections\": [" CONTACT_WIRES "]}",
                "\"K1_1\", parameter \"relay\"", "no component \"K9\"");
  /* a lamp and a solenoid have no contacts */
  expect_error (HEAD "\"components\": [" HYDRAULIC_PART ", {\"id\": \"H1\", \"type\": \"lamp\"},"
                "{\"id\": \"K1_1\", \"type\": \"relay_contact\", \"params\": {\"relay\": \"H1\"}}],"
                "\"connections\": [" CONTACT_WIRES ", {\"from\": \"K1_1.2\", \"to\": \"H1.X1\"},"
                "{\"from\": \"H1.X2\", \"to\": \"G1.N\"}]}",
                "parameter \"relay\": \"H1\" has no variable \"contacts\"", "Indicator lamp");
  expect_error (HEAD "\"components\": [" HYDRAULIC_PART ", {\"id\": \"Y1\", \"type\": \"solenoid\"},"
                "{\"id\": \"K1_1\", \"type\": \"relay_contact\", \"params\": {\"relay\": \"Y1\"}}],"
                "\"connections\": [" CONTACT_WIRES ", {\"from\": \"K1_1.2\", \"to\": \"Y1.A1\"},"
                "{\"from\": \"Y1.A2\", \"to\": \"G1.N\"}]}",
                "\"Y1\" has no variable \"contacts\"", "Solenoid coil");
  /* not set */
  expect_error (HEAD "\"components\": [" HYDRAULIC_PART ","
                "{\"id\": \"K1_1\", \"type\": \"relay_contact\"}],"
                "\"connections\": [" CONTACT_WIRES "]}",
                "component \"K1_1\", parameter \"relay\": not set", "name the relay");
  /* a wire to the hidden input */
  expect_error (HEAD "\"components\": [" HYDRAULIC_PART ", {\"id\": \"K1\", \"type\": \"relay\"},"
                "{\"id\": \"K1_1\", \"type\": \"relay_contact\", \"params\": {\"relay\": \"K1\"}}],"
                "\"connections\": [" CONTACT_WIRES ", {\"from\": \"K1.A1\", \"to\": \"K1_1.K\"}]}",
                "port K of K1_1", "not by a wire");
  /* a counter's preset is a whole number ≥ 1, a timer's delay > 0 */
  expect_error (HEAD "\"components\": [" HYDRAULIC_PART ","
                "{\"id\": \"KZ1\", \"type\": \"counter\", \"params\": {\"preset\": 0}}],"
                "\"connections\": [" COIL_WIRES ("KZ1", "A1", "A2") "]}",
                "KZ1", "preset");
  expect_error (HEAD "\"components\": [" HYDRAULIC_PART ","
                "{\"id\": \"KZ1\", \"type\": \"counter\", \"params\": {\"preset\": 2.5}}],"
                "\"connections\": [" COIL_WIRES ("KZ1", "A1", "A2") "]}",
                "KZ1", "preset");
  expect_error (HEAD "\"components\": [" HYDRAULIC_PART ","
                "{\"id\": \"KT1\", \"type\": \"timer_relay\", \"params\": {\"delay\": 0}}],"
                "\"connections\": [" COIL_WIRES ("KT1", "A1", "A2") "]}",
                "KT1", "delay");
  /* a relay's coil must be wired at both ends */
  expect_error (HEAD "\"components\": [" HYDRAULIC_PART ", {\"id\": \"K1\", \"type\": \"relay\"}],"
                "\"connections\": [" HYDRAULIC_WIRES ", {\"from\": \"U1.P\", \"to\": \"K1.A1\"},"
                "{\"from\": \"G1.N\", \"to\": \"U1.P\"}]}",
                "K1.A2", "not connected");
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

/* A counter whose optional reset coil is left unwired is no dead load (its
 * count coil is wired between the rails); a counter whose count coil has
 * both terminals on 0 V is. */
static void
test_counter_lint (void)
{
  const char *json =
    HEAD "\"components\": [" HYDRAULIC_PART ","
    "{\"id\": \"KZ1\", \"type\": \"counter\"}, {\"id\": \"KZ2\", \"type\": \"counter\"},"
    "{\"id\": \"KZ1_1\", \"type\": \"relay_contact\", \"params\": {\"relay\": \"KZ1\"}},"
    "{\"id\": \"KZ2_1\", \"type\": \"relay_contact\", \"params\": {\"relay\": \"KZ2\"}}],"
    "\"connections\": [" HYDRAULIC_WIRES ","
    "{\"from\": \"U1.P\", \"to\": \"KZ1.A1\"}, {\"from\": \"KZ1.A2\", \"to\": \"G1.N\"},"
    "{\"from\": \"G1.N\", \"to\": \"KZ2.A1\"}, {\"from\": \"KZ2.A2\", \"to\": \"G1.N\"},"
    "{\"from\": \"U1.P\", \"to\": \"KZ1_1.1\"}, {\"from\": \"KZ1_1.4\", \"to\": \"KZ2_1.1\"}]}";
  g_autoptr (HydSystem) sys = compile_ok (json);
  g_assert_false (has_warning (sys, HYD_DIAGNOSTIC_ELEC_DEAD_LOAD, "KZ1 can never"));
  g_assert_true (has_warning (sys, HYD_DIAGNOSTIC_ELEC_DEAD_LOAD, "KZ2 can never be energised"));
  g_assert_false (has_warning (sys, HYD_DIAGNOSTIC_ELEC_DEAD_LOAD, "R1 and R2"));
}

/* The Jacobian of a circuit with every type of this file (none has a row)
 * matches central differences: the electrical types add nothing to it. */
static void
test_jacobian (void)
{
  g_autofree char *json = latch_json (PRESS (0.1, 0.2), "0");
  g_autoptr (HydSystem) sys = compile_ok (json);
  guint n = hyd_system_get_n_states (sys);
  g_autofree double *y = g_memdup2 (hyd_system_get_initial_state (sys), n * sizeof (double));
  g_autofree double *J = g_new0 (double, n * n);
  g_autofree double *f1 = g_new0 (double, n);
  g_autofree double *f2 = g_new0 (double, n);
  y[0] += 1e5;
  g_assert_cmpint (hyd_system_jacobian (sys, 0.15, y, J, NULL), ==, 0);
  for (guint j = 0; j < n; j++)
    {
      double h = 1e-6 * MAX (1.0, fabs (y[j])), keep = y[j];
      y[j] = keep + h;
      g_assert_cmpint (hyd_system_rhs (sys, 0.15, y, f1), ==, 0);
      y[j] = keep - h;
      g_assert_cmpint (hyd_system_rhs (sys, 0.15, y, f2), ==, 0);
      y[j] = keep;
      for (guint i = 0; i < n; i++)
        {
          double fd = (f1[i] - f2[i]) / (2 * h), an = J[(gsize) j * n + i];
          g_assert_cmpfloat (fabs (fd - an), <=, 1e-6 * MAX (1.0, fabs (an)));
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  register_types ();
  g_test_add_func ("/electrical-coils/self-holding", test_self_holding);
  g_test_add_func ("/electrical-coils/dominant-off", test_dominant_off);
  g_test_add_func ("/electrical-coils/chattering", test_chattering);
  g_test_add_func ("/electrical-coils/on-delay", test_on_delay);
  g_test_add_func ("/electrical-coils/off-delay", test_off_delay);
  g_test_add_func ("/electrical-coils/counter-profile", test_counter_profile);
  g_test_add_func ("/electrical-coils/counter-pulse", test_counter_pulse);
  g_test_add_func ("/electrical-coils/solenoid", test_solenoid);
  g_test_add_func ("/electrical-coils/contact-errors", test_contact_errors);
  g_test_add_func ("/electrical-coils/counter-lint", test_counter_lint);
  g_test_add_func ("/electrical-coils/jacobian", test_jacobian);
  return g_test_run ();
}
