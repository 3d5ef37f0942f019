/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-simulation.c — the live run behind a window (no display): a run of
 * an example streams every sample into the store and the latest one for the
 * animation; a second run keeps the first as the ghost; a live change is
 * marked on the plots; reset forgets it all. */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include "hyd-simulation.h"
#include "elec-test-types.h"

typedef struct {
  GMainLoop *loop;
  guint samples;
  guint finished;
  guint state_changes;
} Counts;

static void
samples_cb (HydSimulation *sim, Counts *c)
{
  c->samples++;
}

static void
finished_cb (HydSimulation *sim, Counts *c)
{
  c->finished++;
  g_main_loop_quit (c->loop);
}

static void
state_cb (HydSimulation *sim, Counts *c)
{
  c->state_changes++;
}

static gboolean
timeout_cb (gpointer data)
{
  g_error ("the run did not finish in time");
  return G_SOURCE_REMOVE;
}

static HydCircuit *
load_example (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("BRAMAH_EXAMPLES_DIR"), name, NULL);
  g_autoptr (GError) error = NULL;
  HydCircuit *circuit = hyd_circuit_load_from_file (path, &error);
  g_assert_no_error (error);
  return circuit;
}

static void
run_to_end (HydSimulation *sim, const HydCircuit *circuit, Counts *c)
{
  g_autoptr (GError) error = NULL;
  guint before = c->finished;
  g_assert_true (hyd_simulation_start (sim, circuit, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (hyd_simulation_get_active (sim));
  guint id = g_timeout_add_seconds (60, timeout_cb, NULL);
  while (c->finished == before)
    g_main_loop_run (c->loop);
  g_source_remove (id);
}

static void
test_run_and_ghost (void)
{
  g_autoptr (HydCircuit) circuit = load_example ("cylinder-extend-retract.bramah");
  g_autoptr (HydSimulation) sim = hyd_simulation_new ();
  Counts c = { .loop = g_main_loop_new (NULL, FALSE) };
  g_signal_connect (sim, "samples", G_CALLBACK (samples_cb), &c);
  g_signal_connect (sim, "finished", G_CALLBACK (finished_cb), &c);
  g_signal_connect (sim, "state-changed", G_CALLBACK (state_cb), &c);

  g_assert_cmpint (hyd_simulation_get_state (sim), ==, HYD_RUNNER_READY);
  double value;
  g_assert_false (hyd_simulation_lookup (sim, "C1.x", &value));

  run_to_end (sim, circuit, &c);
  g_assert_cmpint (hyd_simulation_get_state (sim), ==, HYD_RUNNER_FINISHED);
  g_assert_false (hyd_simulation_get_active (sim));
  g_assert_cmpuint (c.samples, >, 0);
  g_assert_cmpuint (c.state_changes, >=, 2);
  const HydOdeResult *result = hyd_simulation_get_result (sim);
  g_assert_nonnull (result);
  g_assert_cmpint (result->status, ==, HYD_ODE_SUCCESS);

  /* t_end 7.5 s every 5 ms: 1501 rows, t first */
  HydTraceStore *store = hyd_simulation_get_store (sim);
  g_assert_cmpuint (hyd_trace_store_get_n_rows (store), ==, 1501);
  g_assert_cmpstr (hyd_trace_store_get_name (store, 0), ==, "t");
  int x = hyd_trace_store_find (store, "C1.x");
  g_assert_cmpint (x, >, 0);
  const double *t = hyd_trace_store_get_column (store, 0);
  g_assert_cmpfloat_with_epsilon (t[1500], 7.5, 1e-12);

  /* the latest sample drives the animation: the piston is back home */
  g_assert_true (hyd_simulation_lookup (sim, "C1.x", &value));
  g_assert_cmpfloat (fabs (value), <, 0.01);
  g_assert_true (hyd_simulation_lookup (sim, "PU1.P.p", &value));
  g_assert_true (isfinite (value));
  g_assert_false (hyd_simulation_lookup (sim, "C9.x", &value));
  g_auto (GStrv) vars = hyd_simulation_dup_variables (sim);
  g_assert_true (g_strv_contains ((const char *const *) vars, "C1.x"));
  g_assert_false (g_strv_contains ((const char *const *) vars, "t"));

  /* the value of a profile parameter in force at the end of the run */
  g_assert_true (hyd_simulation_get_param (sim, "DCV1", "command", &value));
  g_assert_cmpfloat (value, ==, 0);
  g_assert_true (hyd_simulation_get_param (sim, "C1", "piston_diameter", &value));
  g_assert_cmpfloat (value, ==, 0.05);

  /* a second run keeps the first as the ghost */
  g_assert_null (hyd_simulation_get_ghost (sim));
  run_to_end (sim, circuit, &c);
  g_assert_true (hyd_simulation_get_ghost (sim) == store);
  g_assert_true (hyd_simulation_get_store (sim) != store);

  /* without keep-ghost the ghost goes */
  hyd_simulation_set_keep_ghost (sim, FALSE);
  g_assert_null (hyd_simulation_get_ghost (sim));

  hyd_simulation_reset (sim);
  g_assert_null (hyd_simulation_get_store (sim));
  g_assert_cmpint (hyd_simulation_get_state (sim), ==, HYD_RUNNER_READY);
  g_main_loop_unref (c.loop);
}

static void
test_live_change (void)
{
  g_autoptr (HydCircuit) circuit = load_example ("cylinder-extend-retract.bramah");
  g_autoptr (HydSimulation) sim = hyd_simulation_new ();
  Counts c = { .loop = g_main_loop_new (NULL, FALSE) };
  g_signal_connect (sim, "finished", G_CALLBACK (finished_cb), &c);
  g_autoptr (GError) error = NULL;

  /* no run: no live change */
  g_assert_false (hyd_simulation_set_param (sim, "DCV1", "command", 1, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* slow motion, so the change lands well inside the run */
  hyd_simulation_set_real_time_factor (sim, 5.0);
  g_assert_true (hyd_simulation_start (sim, circuit, NULL, &error));
  g_assert_no_error (error);
  /* out of range: clamped to the lever's end */
  g_assert_true (hyd_simulation_set_param (sim, "DCV1", "command", 3.0, &error));
  g_assert_no_error (error);
  double value;
  g_assert_true (hyd_simulation_get_param (sim, "DCV1", "command", &value));
  g_assert_cmpfloat (value, ==, 1.0);
  g_assert_false (hyd_simulation_set_param (sim, "NOPE", "command", 1, &error));
  g_clear_error (&error);

  guint id = g_timeout_add_seconds (60, timeout_cb, NULL);
  while (c.finished == 0)
    g_main_loop_run (c.loop);
  g_source_remove (id);

  HydTraceStore *store = hyd_simulation_get_store (sim);
  g_assert_cmpuint (hyd_trace_store_get_n_markers (store), ==, 1);
  double t;
  const char *label;
  hyd_trace_store_get_marker (store, 0, &t, &label);
  g_assert_cmpfloat (t, <, 7.5);
  g_assert_true (g_str_has_prefix (label, "DCV1.command"));
  g_main_loop_unref (c.loop);
}

static void
test_solver_failure (void)
{
  /* forward Euler with a 10 ms step blows up on this stiff circuit */
  g_autoptr (HydCircuit) circuit = load_example ("cylinder-extend-retract.bramah");
  json_object_set_string_member (circuit->simulation, "solver", "euler");
  json_object_set_double_member (circuit->simulation, "fixed_step", 0.01);
  g_autoptr (HydSimulation) sim = hyd_simulation_new ();
  Counts c = { .loop = g_main_loop_new (NULL, FALSE) };
  g_signal_connect (sim, "finished", G_CALLBACK (finished_cb), &c);
  run_to_end (sim, circuit, &c);

  g_assert_cmpint (hyd_simulation_get_state (sim), ==, HYD_RUNNER_FAILED);
  const HydOdeResult *result = hyd_simulation_get_result (sim);
  g_assert_cmpint (result->status, !=, HYD_ODE_SUCCESS);
  g_assert_nonnull (result->message);
  g_assert_cmpfloat (result->t, >, 0);
  g_assert_cmpfloat (result->t, <, 7.5);
  /* the traces up to the failure are kept */
  HydTraceStore *store = hyd_simulation_get_store (sim);
  g_assert_cmpuint (hyd_trace_store_get_n_rows (store), >, 10);
  const double *t = hyd_trace_store_get_column (store, 0);
  g_assert_cmpfloat (t[hyd_trace_store_get_n_rows (store) - 1], <=, result->t + 1e-9);
  g_main_loop_unref (c.loop);
}

static void
test_compile_error (void)
{
  g_autoptr (HydCircuit) circuit = load_example ("cylinder-extend-retract.bramah");
  /* a port left open */
  g_ptr_array_remove_index (circuit->connections, 0);
  g_autoptr (HydSimulation) sim = hyd_simulation_new ();
  g_autoptr (GError) error = NULL;
  g_assert_false (hyd_simulation_start (sim, circuit, NULL, &error));
  g_assert_nonnull (error);
  g_assert_null (hyd_simulation_get_store (sim));
  g_assert_cmpint (hyd_simulation_get_state (sim), ==, HYD_RUNNER_READY);
}

typedef struct {
  gboolean done;
  gboolean ok;
  GError *error;
  gboolean had_runner;   /* the run was installed before the callback */
} StartOutcome;

static void
start_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  StartOutcome *o = data;
  o->ok = hyd_simulation_start_finish (HYD_SIMULATION (source), result, &o->error);
  o->had_runner = hyd_simulation_get_runner (HYD_SIMULATION (source)) != NULL;
  o->done = TRUE;
}

static void
wait_outcome (StartOutcome *o)
{
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (!o->done && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (o->done);
}

/* start_async: the compile's error, or the run installed before the
 * callback; a second start cancels the first, which starts nothing. */
static void
test_start_async (void)
{
  g_autoptr (HydCircuit) circuit = load_example ("cylinder-extend-retract.bramah");
  g_autoptr (HydCircuit) broken = hyd_circuit_copy (circuit);
  g_ptr_array_remove_index (broken->connections, 0);
  g_autoptr (HydSimulation) sim = hyd_simulation_new ();
  StartOutcome a = { 0 }, b = { 0 };

  hyd_simulation_start_async (sim, broken, start_cb, &a);
  g_assert_true (hyd_simulation_get_starting (sim));
  wait_outcome (&a);
  g_assert_false (a.ok);
  g_assert_nonnull (a.error);
  g_assert_false (g_error_matches (a.error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
  g_assert_false (a.had_runner);
  g_assert_false (hyd_simulation_get_starting (sim));
  g_assert_null (hyd_simulation_get_store (sim));
  g_clear_error (&a.error);

  a = (StartOutcome) { 0 };
  hyd_simulation_start_async (sim, circuit, start_cb, &a);
  hyd_simulation_start_async (sim, circuit, start_cb, &b);
  wait_outcome (&a);
  wait_outcome (&b);
  g_assert_true (g_error_matches (a.error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
  g_assert_true (b.ok);
  g_assert_true (b.had_runner);
  g_assert_true (hyd_simulation_get_active (sim));
  g_clear_error (&a.error);
  hyd_simulation_stop (sim);
  gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (hyd_simulation_get_active (sim) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (hyd_simulation_get_active (sim));
}

/* The live schematic is drawn again only when a sample would change what it
 * shows (issue 8: bounded work per frame). */
static void
test_live_sample_changed (void)
{
  g_autoptr (GArray) drawn = g_array_new (FALSE, FALSE, sizeof (double));
  /* t, a pressure [Pa], a position [m] */
  double row[3] = { 0.0, 100e5, 0.1 };
  g_assert_true (hyd_live_sample_changed (drawn, row, 3)); /* the first is drawn */
  row[0] = 1.0;                                            /* time alone: nothing */
  g_assert_false (hyd_live_sample_changed (drawn, row, 3));
  row[1] = 100e5 + 0.1e5;                                  /* 0.1 bar of 100: below 0.2 % */
  g_assert_false (hyd_live_sample_changed (drawn, row, 3));
  row[1] = 100e5 + 0.5e5;                                  /* 0.5 bar: drawn */
  g_assert_true (hyd_live_sample_changed (drawn, row, 3));
  g_assert_false (hyd_live_sample_changed (drawn, row, 3));
  row[2] = 0.1 + 1e-3;                                     /* 1 mm of 0.1 m */
  g_assert_true (hyd_live_sample_changed (drawn, row, 3));
  /* the tolerance follows the largest magnitude seen, not the latest value:
   * a pressure that fell to 1 bar after 100 bar moves the colour by 0.2 %
   * of 100 bar, not of 1 bar */
  row[1] = 1e5;
  g_assert_true (hyd_live_sample_changed (drawn, row, 3));
  row[1] = 1.1e5;
  g_assert_false (hyd_live_sample_changed (drawn, row, 3));
  /* a value that becomes NaN is a change; NaN to NaN is not */
  row[2] = NAN;
  g_assert_true (hyd_live_sample_changed (drawn, row, 3));
  g_assert_false (hyd_live_sample_changed (drawn, row, 3));
  /* a new run (another column count) starts again */
  double other[2] = { 0.0, 5.0 };
  g_assert_true (hyd_live_sample_changed (drawn, other, 2));
}

/* One pressure scale for the schematic and its legend (issue 8): 1.2 × the
 * highest relief setting, rounded up to half a power of ten. */
static void
test_pressure_scale (void)
{
  g_autoptr (HydCircuit) cylinder = load_example ("cylinder-extend-retract.bramah"); /* relief 100 bar */
  g_assert_cmpfloat_with_epsilon (hyd_pressure_scale_max (cylinder), 150e5, 1);
  g_autoptr (HydCircuit) burton = load_example ("burton-two-actuator.bramah"); /* highest relief 210 bar */
  g_assert_cmpfloat_with_epsilon (hyd_pressure_scale_max (burton), 300e5, 1);
  g_autoptr (GError) error = NULL;
  const char *bare = "{ \"format\": \"bramah-circuit\", \"version\": 1, \"components\": ["
                     "{ \"id\": \"T1\", \"type\": \"tank\", \"position\": [0, 0] } ], \"connections\": [] }";
  g_autoptr (HydCircuit) none = hyd_circuit_load_from_data (bare, -1, "bare.bramah", &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (hyd_pressure_scale_max (none), ==, HYD_PRESSURE_SCALE_DEFAULT);
  g_assert_cmpfloat (hyd_pressure_scale_max (NULL), ==, HYD_PRESSURE_SCALE_DEFAULT);
  /* a counterbalance valve's setting counts as a relief valve's does: 250
   * bar over a 100 bar relief gives a top of 1.2·250 = 300 bar */
  const char *cbv = "{ \"format\": \"bramah-circuit\", \"version\": 1, \"components\": ["
                    "{ \"id\": \"RV1\", \"type\": \"relief_valve\", \"params\": { \"cracking_pressure\": 1e7 } },"
                    "{ \"id\": \"CB1\", \"type\": \"counterbalance_valve\", \"params\": { \"cracking_pressure\": 2.5e7 } } ],"
                    " \"connections\": [] }";
  g_autoptr (HydCircuit) with_cbv = hyd_circuit_load_from_data (cbv, -1, "cbv.bramah", &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (hyd_pressure_scale_max (with_cbv), 300e5, 1);
}

/* The status line names cavitating nodes: by their void (litres) when the
 * engine tracks it, else by a pressure below the cavitation pressure (bar).
 * The values are made up: the columns as a run with voids would have them. */
static void
test_cavitation_describe (void)
{
  const char *names[] = { "t", "C1.A.p", "C1.B.p", "PU1.P.p", "C1.B.void", "C1.A.void", "C1.x", "G1.p" };
  double values[] = { 1.0, 2e5, -0.99e5, -0.95e5, 0.26e-3, 0.0, 0.1, -1e5 };
  guint n = G_N_ELEMENTS (names);
  g_autofree char *text = hyd_cavitation_describe (names, values, n, -0.9e5);
  /* C1.B by its void (its pressure is not repeated), PU1.P (no void
   * variable) by its pressure; C1.A has a void of 0; G1.p is no node */
  g_assert_cmpstr (text, ==, "C1.B (0.26 L), PU1.P (-0.95 bar)");
  values[4] = 0;
  values[3] = 1e5;
  g_autofree char *none = hyd_cavitation_describe (names, values, n, -0.9e5);
  g_assert_null (none);
  /* without void variables (the engine before it tracks them) */
  g_autofree char *by_pressure = hyd_cavitation_describe (names, (double[]) { 1, 2e5, -0.99e5, 1e5 }, 4, -0.9e5);
  g_assert_cmpstr (by_pressure, ==, "C1.B (-0.99 bar)");
  /* many: four named, then a count */
  const char *many[] = { "a.A.void", "b.A.void", "c.A.void", "d.A.void", "e.A.void", "f.A.void" };
  double v[] = { 1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3 };
  g_autofree char *six = hyd_cavitation_describe (many, v, 6, -0.9e5);
  g_assert_cmpstr (six, ==, "a.A (1.0 L), b.A (1.0 L), c.A (1.0 L), d.A (1.0 L) and 2 more");
}

/* Replay (issue 8): after a run the schematic can show any sample of it. */
static void
test_replay (void)
{
  g_autoptr (HydSimulation) sim = hyd_simulation_new ();
  Counts c = { .loop = g_main_loop_new (NULL, FALSE) };
  g_signal_connect (sim, "finished", G_CALLBACK (finished_cb), &c);
  g_autoptr (HydCircuit) circuit = load_example ("cylinder-extend-retract.bramah");
  run_to_end (sim, circuit, &c);
  HydTraceStore *store = hyd_simulation_get_store (sim);
  guint n = hyd_trace_store_get_n_rows (store);
  int x = hyd_trace_store_find (store, "C1.x");
  g_assert_cmpint (x, >, 0);
  const double *t = hyd_trace_store_get_column (store, 0);
  const double *xs = hyd_trace_store_get_column (store, x);
  double value;
  /* following the run: the last sample */
  g_assert_true (isnan (hyd_simulation_get_shown_time (sim)));
  g_assert_true (hyd_simulation_lookup (sim, "C1.x", &value));
  g_assert_cmpfloat (value, ==, xs[n - 1]);
  /* at 2.0 s: the last sample at or before it (the piston half out) */
  hyd_simulation_show_time (sim, 2.0);
  double shown = hyd_simulation_get_shown_time (sim);
  g_assert_cmpfloat (shown, <=, 2.0);
  g_assert_cmpfloat (shown, >, 2.0 - 0.0051);
  guint row = 0;
  while (row + 1 < n && t[row + 1] <= 2.0)
    row++;
  g_assert_true (hyd_simulation_lookup (sim, "C1.x", &value));
  g_assert_cmpfloat (value, ==, xs[row]);
  g_assert_cmpfloat (value, >, 0.1);
  g_assert_cmpfloat (value, <, xs[n - 1] + 0.3);
  /* a pressure by any port of its node */
  g_assert_true (hyd_simulation_lookup (sim, "C1.A.p", &value));
  g_assert_cmpfloat (value, ==, hyd_trace_store_get_column (store, hyd_trace_store_find (store, "C1.A.p"))[row]);
  /* the void of C1.B's node: known exactly when the engine reports one
   * ("<first port of the node>.void"), and then the replayed sample's */
  HydRunner *runner = hyd_simulation_get_runner (sim);
  int pc = hyd_runner_find_column (runner, "C1.B.p");
  g_assert_cmpint (pc, >=, 0);
  const char *node_p = hyd_runner_get_column_name (runner, pc);
  g_autofree char *void_name = g_strdup_printf ("%.*s.void", (int) strlen (node_p) - 2, node_p);
  int vc = hyd_trace_store_find (store, void_name);
  double volume = -1;
  g_assert_true (hyd_simulation_port_void (sim, "C1", "B", &volume) == (vc >= 0));
  if (vc >= 0)
    g_assert_cmpfloat (volume, ==, hyd_trace_store_get_column (store, vc)[row]);
  /* before the start: the first sample; NaN: the latest again */
  hyd_simulation_show_time (sim, -1.0);
  g_assert_cmpfloat (hyd_simulation_get_shown_time (sim), ==, t[0]);
  hyd_simulation_show_time (sim, NAN);
  g_assert_true (hyd_simulation_lookup (sim, "C1.x", &value));
  g_assert_cmpfloat (value, ==, xs[n - 1]);
  g_main_loop_unref (c.loop);
}


/* Electrical control (docs/electrical.md): a button S1 (normally open,
 * pressed by its profile from 0.5 s) between +24 V and a coil K1 to 0 V.
 * The level of each net in the sample shown, from the discrete states of
 * that sample: before the press the supply's net is at +24 V but carries
 * no current and the coil's A1 floats; after it, every net of the path
 * carries current. A circuit without electrical ports has no levels. */
static const char elec_circuit[] =
  "{ \"format\": \"bramah-circuit\", \"version\": 3,"
  "  \"simulation\": { \"t_end\": 1.0, \"output_interval\": 0.01 },"
  "  \"components\": ["
  "   { \"id\": \"U1\", \"type\": \"test_elec_supply\", \"position\": [0, 0] },"
  "   { \"id\": \"S1\", \"type\": \"test_elec_button\", \"position\": [0, 40],"
  "     \"params\": { \"contact\": \"no\", \"actuated\": { \"step\": { \"times\": [0.5], \"values\": [0, 1] } } } },"
  "   { \"id\": \"K1\", \"type\": \"test_elec_coil\", \"position\": [0, 80] },"
  "   { \"id\": \"G1\", \"type\": \"test_elec_ground\", \"position\": [0, 120] },"
  "   { \"id\": \"X1\", \"type\": \"test_decay\", \"position\": [60, 0] } ],"
  "  \"connections\": ["
  "   { \"from\": \"U1.P\", \"to\": \"S1.1\" },"
  "   { \"from\": \"S1.4\", \"to\": \"K1.A1\" },"
  "   { \"from\": \"K1.A2\", \"to\": \"G1.N\" } ] }";

static void
test_elec_levels (void)
{
  elec_test_types_register ();
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (elec_circuit, -1, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (HydSimulation) sim = hyd_simulation_new ();
  Counts c = { .loop = g_main_loop_new (NULL, FALSE) };
  g_signal_connect (sim, "finished", G_CALLBACK (finished_cb), &c);
  guint level = 99;
  g_assert_false (hyd_simulation_get_elec_level (sim, "S1", "1", &level));
  run_to_end (sim, circuit, &c);
  if (hyd_simulation_get_state (sim) != HYD_RUNNER_FINISHED)
    g_error ("%s", hyd_simulation_get_result (sim)->message);

  hyd_simulation_show_time (sim, 0.2);
  g_assert_true (hyd_simulation_get_elec_level (sim, "S1", "1", &level));
  g_assert_cmpuint (level, ==, 1);   /* +24 V, no current */
  g_assert_true (hyd_simulation_get_elec_level (sim, "K1", "A1", &level));
  g_assert_cmpuint (level, ==, 0);   /* floating */
  g_assert_true (hyd_simulation_get_elec_level (sim, "K1", "A2", &level));
  g_assert_cmpuint (level, ==, 2);   /* 0 V, no current */
  double energised = -1;
  g_assert_true (hyd_simulation_lookup (sim, "K1.energised", &energised));
  g_assert_cmpfloat (energised, ==, 0);

  hyd_simulation_show_time (sim, 0.8);
  g_assert_true (hyd_simulation_lookup (sim, "K1.energised", &energised));
  g_assert_cmpfloat (energised, ==, 1);
  const char *ports[][2] = { { "U1", "P" }, { "S1", "1" }, { "S1", "4" }, { "K1", "A1" }, { "K1", "A2" },
                             { "G1", "N" } };
  for (guint i = 0; i < G_N_ELEMENTS (ports); i++)
    {
      g_assert_true (hyd_simulation_get_elec_level (sim, ports[i][0], ports[i][1], &level));
      g_assert_cmpuint (level & 4, ==, 4);
    }
  /* the unused normally closed side: a net of its own, open */
  g_assert_true (hyd_simulation_get_elec_level (sim, "S1", "2", &level));
  g_assert_cmpuint (level, ==, 0);
  /* back to the first sample: the cache follows the sample shown */
  hyd_simulation_show_time (sim, 0.0);
  g_assert_true (hyd_simulation_get_elec_level (sim, "K1", "A1", &level));
  g_assert_cmpuint (level, ==, 0);

  /* no electrical port: nothing compiled for it, no level */
  g_autoptr (HydCircuit) hydraulic = load_example ("cylinder-extend-retract.bramah");
  run_to_end (sim, hydraulic, &c);
  g_assert_false (hyd_simulation_get_elec_level (sim, "C1", "A", &level));
  g_main_loop_unref (c.loop);
}


/* A button pressed and released in a run (a click on the canvas is this
 * live change, ui/hyd-window-sim.c) is logged with its time like a slider
 * change: two markers on the plots, and the runner's change log, which
 * hyd_run_execute replays (HydRunSpec.replay) to the same samples: the coil
 * on from the press to the release, sample for sample. */
typedef struct {
  GArray *t, *values;
} Collected;

static gboolean
collect_cb (double t, const double *values, guint n, gpointer user)
{
  Collected *col = user;
  g_array_append_val (col->t, t);
  g_array_append_val (col->values, values[0]);
  return TRUE;
}

static gboolean
release_cb (gpointer data)
{
  g_assert_true (hyd_simulation_set_param (data, "S1", "actuated", 0, NULL));
  return G_SOURCE_REMOVE;
}

static void
test_button_press_replay (void)
{
  elec_test_types_register ();
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (elec_circuit, -1, NULL, &error);
  g_assert_no_error (error);
  /* a button nobody presses by profile */
  json_object_set_double_member (hyd_circuit_find_component (circuit, "S1")->params, "actuated", 0);
  g_autoptr (HydSimulation) sim = hyd_simulation_new ();
  Counts c = { .loop = g_main_loop_new (NULL, FALSE) };
  g_signal_connect (sim, "finished", G_CALLBACK (finished_cb), &c);
  hyd_simulation_set_real_time_factor (sim, 1.0);
  g_assert_true (hyd_simulation_start (sim, circuit, NULL, &error));
  g_assert_no_error (error);
  /* pressed now, released 0.4 s later (wall time = run time) */
  g_assert_true (hyd_simulation_set_param (sim, "S1", "actuated", 1, &error));
  g_timeout_add (400, release_cb, sim);
  guint id = g_timeout_add_seconds (60, timeout_cb, NULL);
  while (c.finished == 0)
    g_main_loop_run (c.loop);
  g_source_remove (id);
  g_assert_cmpint (hyd_simulation_get_state (sim), ==, HYD_RUNNER_FINISHED);

  HydTraceStore *store = hyd_simulation_get_store (sim);
  g_assert_cmpuint (hyd_trace_store_get_n_markers (store), ==, 2);
  GPtrArray *log = hyd_runner_get_change_log (hyd_simulation_get_runner (sim));
  g_assert_cmpuint (log->len, ==, 2);
  const HydRunChange *press = g_ptr_array_index (log, 0), *release = g_ptr_array_index (log, 1);
  g_assert_cmpstr (press->component, ==, "S1");
  g_assert_cmpstr (press->param, ==, "actuated");
  g_assert_cmpfloat (press->new_value, ==, 1);
  g_assert_cmpfloat (release->new_value, ==, 0);
  g_assert_cmpfloat (release->t, >, press->t);

  int col = hyd_trace_store_find (store, "K1.energised");
  g_assert_cmpint (col, >, 0);
  guint n = hyd_trace_store_get_n_rows (store);
  const double *t = hyd_trace_store_get_column (store, 0), *on = hyd_trace_store_get_column (store, col);
  for (guint i = 0; i < n; i++)
    if (t[i] > press->t && t[i] < release->t)
      g_assert_cmpfloat (on[i], ==, 1);
    else if (t[i] < press->t || t[i] > release->t)
      g_assert_cmpfloat (on[i], ==, 0);

  /* the replay: the same samples */
  g_autoptr (HydSystem) system = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  HydSimOptions opts;
  g_assert_true (hyd_circuit_get_sim_options (circuit, &opts, &error));
  int var = hyd_system_find_variable (system, "K1.energised");
  Collected got = { g_array_new (FALSE, FALSE, sizeof (double)), g_array_new (FALSE, FALSE, sizeof (double)) };
  HydRunSpec spec = { .sim = &opts, .vars = &var, .n_vars = 1, .sample = collect_cb, .user = &got,
                      .replay = log };
  HydOdeResult result = { 0 };
  g_assert_cmpint (hyd_run_execute (system, &spec, &result, NULL), ==, HYD_ODE_SUCCESS);
  g_assert_cmpuint (got.t->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpfloat (g_array_index (got.t, double, i), ==, t[i]);
      g_assert_cmpfloat (g_array_index (got.values, double, i), ==, on[i]);
    }
  hyd_ode_result_clear (&result);
  hyd_sim_options_clear (&opts);
  g_array_unref (got.t);
  g_array_unref (got.values);
  g_main_loop_unref (c.loop);
}

/* The run's CSV export (issue 8, item 14): every column of the run, headed
 * in the plots' words and units, the values in those units: a pressure in
 * bar is the SI value / 1e5, a position in mm the SI value · 1e3. */
static void
test_export_csv (void)
{
  g_autoptr (HydCircuit) circuit = load_example ("cylinder-extend-retract.bramah");
  g_autoptr (HydSimulation) sim = hyd_simulation_new ();
  Counts c = { .loop = g_main_loop_new (NULL, FALSE) };
  g_signal_connect (sim, "finished", G_CALLBACK (finished_cb), &c);
  run_to_end (sim, circuit, &c);
  HydTraceStore *store = hyd_simulation_get_store (sim);
  guint n_rows = hyd_trace_store_get_n_rows (store);
  guint n_cols = hyd_trace_store_get_n_columns (store);

  g_autofree char *dir = g_dir_make_tmp ("hyd-sim-csv-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "run.csv", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (hyd_trace_store_write_csv (store, NULL, path, &error));
  g_assert_no_error (error);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  g_remove (path);
  g_rmdir (dir);

  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, n_rows + 2); /* header, rows, "" after the last \n */
  g_test_message ("header: %s", lines[0]);
  g_auto (GStrv) header = g_strsplit (lines[0], ",", -1);
  g_assert_cmpuint (g_strv_length (header), ==, n_cols);
  g_assert_cmpstr (header[0], ==, "Time [s]");
  int pump_p = -1, piston_x = -1;
  for (guint k = 0; k < n_cols; k++)
    {
      /* no engine name, every header once */
      g_assert_null (strstr (header[k], hyd_trace_store_get_name (store, k)));
      for (guint j = 0; j < k; j++)
        g_assert_cmpstr (header[j], !=, header[k]);
      if (strcmp (header[k], "PU1.P: Pressure [bar]") == 0)
        pump_p = (int) k;
      if (strcmp (header[k], "C1: Position [mm]") == 0)
        piston_x = (int) k;
    }
  g_assert_cmpint (pump_p, ==, hyd_trace_store_find (store, "PU1.P.p"));
  g_assert_cmpint (piston_x, ==, hyd_trace_store_find (store, "C1.x"));

  const double *t = hyd_trace_store_get_column (store, 0);
  const double *p = hyd_trace_store_get_column (store, (guint) pump_p);
  const double *x = hyd_trace_store_get_column (store, (guint) piston_x);
  double p_max = 0, x_max = 0;
  for (guint r = 0; r < n_rows; r++)
    {
      g_auto (GStrv) cells = g_strsplit (lines[r + 1], ",", -1);
      g_assert_cmpuint (g_strv_length (cells), ==, n_cols);
      double tr = g_ascii_strtod (cells[0], NULL);
      double pr = g_ascii_strtod (cells[pump_p], NULL);
      double xr = g_ascii_strtod (cells[piston_x], NULL);
      /* %.10g: ten significant digits */
      g_assert_cmpfloat (fabs (tr - t[r]), <=, 1e-9 * fabs (t[r]) + 1e-300);
      g_assert_cmpfloat (fabs (pr - p[r] / 1e5), <=, 1e-9 * fabs (p[r] / 1e5) + 1e-300);
      g_assert_cmpfloat (fabs (xr - x[r] * 1e3), <=, 1e-9 * fabs (x[r] * 1e3) + 1e-300);
      p_max = MAX (p_max, pr);
      x_max = MAX (x_max, xr);
    }
  /* the relief valve's 100 bar and a stroke of hundreds of mm, not Pa and m */
  g_test_message ("pump pressure up to %g bar, piston up to %g mm", p_max, x_max);
  g_assert_cmpfloat (p_max, >, 50);
  g_assert_cmpfloat (p_max, <, 200);
  g_assert_cmpfloat (x_max, >, 50);
  g_main_loop_unref (c.loop);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/simulation/run-and-ghost", test_run_and_ghost);
  g_test_add_func ("/ui/simulation/live-change", test_live_change);
  g_test_add_func ("/ui/simulation/solver-failure", test_solver_failure);
  g_test_add_func ("/ui/simulation/compile-error", test_compile_error);
  g_test_add_func ("/ui/simulation/start-async", test_start_async);
  g_test_add_func ("/ui/simulation/live-sample-changed", test_live_sample_changed);
  g_test_add_func ("/ui/simulation/pressure-scale", test_pressure_scale);
  g_test_add_func ("/ui/simulation/replay", test_replay);
  g_test_add_func ("/ui/simulation/cavitation-describe", test_cavitation_describe);
  g_test_add_func ("/ui/simulation/export-csv", test_export_csv);
  g_test_add_func ("/ui/simulation/elec-levels", test_elec_levels);
  g_test_add_func ("/ui/simulation/button-press-replay", test_button_press_replay);
  return g_test_run ();
}
