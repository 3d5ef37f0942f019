/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-canvas-live.c — how a symbol comes alive in a run (issue 5,
 * docs/electrical.md): its variables from the run's variables, a discrete
 * state winning over a parameter of the same name (a pushbutton pressed by
 * a click while its file says released), a timer's remaining time, and a
 * reference parameter as the text of a label. No display. */
#include <math.h>
#include <string.h>

#include "hyd-canvas-view.h"
#include "../ui/elec-test-types.h"

/* a pushbutton and a coil in one symbol, for this test only: its plunger
 * moves with "actuated", its coil is lit with "energised", a text shows
 * the remaining time and another the relay named by "relay" */
static const char live_symbol[] =
  "{ \"format\": \"bramah-symbol\", \"version\": 1, \"type\": \"test_elec_button\","
  "  \"variables\": [ { \"name\": \"actuated\", \"default\": 0, \"test\": [0, 1] },"
  "                   { \"name\": \"energised\", \"default\": 0, \"test\": [0, 1] } ],"
  "  \"ports\": [ { \"name\": \"1\", \"at\": [0, -1], \"dir\": \"up\" },"
  "               { \"name\": \"2\", \"at\": [2, 3], \"dir\": \"down\", \"optional\": true },"
  "               { \"name\": \"4\", \"at\": [0, 3], \"dir\": \"down\", \"optional\": true } ],"
  "  \"elements\": [ { \"type\": \"line\", \"from\": [0, 0], \"to\": [{ \"var\": \"actuated\", \"scale\": 1 }, 2] },"
  "                  { \"type\": \"text\", \"at\": [3, 1], \"text\": \"{remaining:s} s\" } ] }";

typedef struct {
  double actuated, energised, since, t, remaining;
} Run;

static gboolean
run_variable (const char *component_id, const char *variable, double *value, gpointer user_data)
{
  const Run *run = user_data;
  if (component_id == NULL)
    {
      if (strcmp (variable, "t") != 0)
        return FALSE;
      *value = run->t;
      return TRUE;
    }
  g_assert_cmpstr (component_id, ==, "S1");
  if (strcmp (variable, "actuated") == 0)
    *value = run->actuated;
  else if (strcmp (variable, "energised") == 0)
    *value = run->energised;
  else if (strcmp (variable, "since") == 0 && !isnan (run->since))
    *value = run->since;
  else if (strcmp (variable, "remaining") == 0 && !isnan (run->remaining))
    *value = run->remaining;
  else
    return FALSE;
  return TRUE;
}

static void
test_discrete_states (void)
{
  elec_test_types_register ();
  g_autoptr (GError) error = NULL;
  g_autoptr (HydSymbol) symbol = hyd_symbol_load_from_data (live_symbol, -1, "live.sym", &error);
  g_assert_no_error (error);
  g_autoptr (HydCircuitComponent) comp = hyd_circuit_component_new ("S1", "test_elec_button");
  json_object_set_double_member (comp->params, "actuated", 0);
  g_autoptr (HydSymbolState) state = hyd_symbol_state_new ();
  hyd_symbol_state_set_component_params (state, comp);
  double v = -1;
  g_assert_true (hyd_symbol_state_lookup (state, "actuated", &v));
  g_assert_cmpfloat (v, ==, 0);

  /* pressed in the run: the run's discrete state wins over the file's 0 */
  Run run = { .actuated = 1, .energised = 1, .since = NAN, .t = 0.5, .remaining = NAN };
  hyd_canvas_live_symbol_state (symbol, comp, run_variable, &run, state);
  g_assert_true (hyd_symbol_state_lookup (state, "actuated", &v));
  g_assert_cmpfloat (v, ==, 1);
  g_assert_true (hyd_symbol_state_lookup (state, "energised", &v));
  g_assert_cmpfloat (v, ==, 1);
  /* no "since": no remaining time */
  g_assert_false (hyd_symbol_state_lookup (state, "remaining", &v));

  /* a timer started at 0.2 s with a 1.5 s delay, seen at 0.5 s: 1.2 s left */
  hyd_symbol_state_set (state, "delay", 1.5);
  run.since = 0.2;
  hyd_canvas_live_symbol_state (symbol, comp, run_variable, &run, state);
  g_assert_true (hyd_symbol_state_lookup (state, "remaining", &v));
  g_assert_cmpfloat_with_epsilon (v, 1.2, 1e-12);
  /* past its delay: none */
  hyd_symbol_state_unset (state, "remaining");
  run.t = 1.8;
  hyd_canvas_live_symbol_state (symbol, comp, run_variable, &run, state);
  g_assert_false (hyd_symbol_state_lookup (state, "remaining", &v));
  /* not timing (since −1): none */
  run.t = 0.5;
  run.since = -1;
  hyd_canvas_live_symbol_state (symbol, comp, run_variable, &run, state);
  g_assert_false (hyd_symbol_state_lookup (state, "remaining", &v));
  /* the run's own time left wins */
  run.remaining = 0.7;
  run.since = 0.2;
  hyd_canvas_live_symbol_state (symbol, comp, run_variable, &run, state);
  g_assert_true (hyd_symbol_state_lookup (state, "remaining", &v));
  g_assert_cmpfloat (v, ==, 0.7);
}

/* A reference parameter is a string of the state: a label "{cylinder}" in
 * a symbol shows the id it names (a contact's relay K1, a valve's Y1). */
static void
test_reference_label (void)
{
  elec_test_types_register ();
  g_autoptr (HydCircuitComponent) comp = hyd_circuit_component_new ("S2", "test_elec_limit");
  g_autoptr (HydSymbolState) state = hyd_symbol_state_new ();
  hyd_symbol_state_set_component_params (state, comp);
  g_assert_null (hyd_symbol_state_lookup_string (state, "cylinder"));
  json_object_set_string_member (comp->params, "cylinder", "C1");
  hyd_symbol_state_set_component_params (state, comp);
  g_assert_cmpstr (hyd_symbol_state_lookup_string (state, "cylinder"), ==, "C1");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/canvas/live/discrete-states", test_discrete_states);
  g_test_add_func ("/canvas/live/reference-label", test_reference_label);
  return g_test_run ();
}
