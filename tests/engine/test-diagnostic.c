/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-diagnostic.c — diagnostics as data (hyd-diagnostic.h): each producer
 * (load, compile, lint, run) names what it concerns in fields, its GError
 * keeps the message it always had, and templates expand their arguments. */
#include "hyd-circuit-check.h"
#include "hyd-diagnostic.h"
#include "hyd-run.h"
#include "hyd-system.h"
#include "hyd-system-check.h"

#include <math.h>
#include <string.h>

#define HEAD "{\"format\": \"bramah-circuit\", \"version\": 1, "

static void
test_expand (void)
{
  const char *args[] = { "C1", "B", NULL };
  g_autofree char *plain = hyd_diagnostic_expand ("port %s.%s (100%%)", args);
  g_assert_cmpstr (plain, ==, "port C1.B (100%)");
  /* a translation may reorder its arguments */
  g_autofree char *swapped = hyd_diagnostic_expand ("%2$s of %1$s", args);
  g_assert_cmpstr (swapped, ==, "B of C1");
  /* missing arguments and unknown directives do not read beyond the list */
  g_autofree char *missing = hyd_diagnostic_expand ("%s %s %s %d %5$s", args);
  g_assert_cmpstr (missing, ==, "C1 B  %d ");

  g_autoptr (HydDiagnostic) d = hyd_diagnostic_new (HYD_DIAGNOSTIC_UNCONNECTED, HYD_SEVERITY_ERROR,
                                                    "port %s.%s", "C1", "B", NULL);
  g_assert_cmpstr (d->message, ==, "port C1.B");
  g_assert_true (isnan (d->time));
  g_assert_null (d->component);
  g_autofree char *english = hyd_diagnostic_dup_message (d, NULL);
  g_assert_cmpstr (english, ==, "port C1.B");
  g_assert_cmpstr (hyd_diagnostic_code_name (d->code), ==, "unconnected");
  g_assert_cmpstr (hyd_diagnostic_code_name (HYD_DIAGNOSTIC_PARAM_RANGE), ==, "param-range");
  g_assert_cmpstr (hyd_diagnostic_code_name (HYD_DIAGNOSTIC_RELIEF_OVERFLOW), ==, "relief-overflow");
}

/* Loading: a parameter out of range names the component and the parameter;
 * the GError keeps its code and message, and copies of it the diagnostic. */
static void
test_load_param_range (void)
{
  const char *json = HEAD "\"components\": ["
    "{\"id\": \"O1\", \"type\": \"orifice\", \"params\": {\"diameter\": -0.002}}],"
    "\"connections\": []}";
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "t.bramah", &error);
  g_assert_null (circuit);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE);
  g_assert_cmpstr (error->message, ==,
                   "component \"O1\", parameter \"diameter\": -0.002 is out of range (must be > 0)");
  const HydDiagnostic *d = hyd_diagnostic_peek_error (error);
  g_assert_nonnull (d);
  g_assert_cmpint (d->code, ==, HYD_DIAGNOSTIC_PARAM_RANGE);
  g_assert_cmpint (d->severity, ==, HYD_SEVERITY_ERROR);
  g_assert_cmpstr (d->component, ==, "O1");
  g_assert_cmpstr (d->parameter, ==, "diameter");
  g_assert_null (d->port);
  g_assert_true (isnan (d->time));
  g_assert_cmpstr (d->message, ==, error->message);

  g_autoptr (GError) copy = g_error_copy (error);
  g_assert_true (hyd_diagnostic_peek_error (copy) == d);
  g_autoptr (HydDiagnostic) from = hyd_diagnostic_from_error (copy);
  g_assert_true (from == d);

  /* an error made without one still gives a diagnostic, with its text */
  g_autoptr (GError) plain = g_error_new_literal (G_FILE_ERROR, G_FILE_ERROR_NOENT, "no such file");
  g_assert_null (hyd_diagnostic_peek_error (plain));
  g_autoptr (HydDiagnostic) other = hyd_diagnostic_from_error (plain);
  g_assert_cmpint (other->code, ==, HYD_DIAGNOSTIC_OTHER);
  g_assert_cmpstr (other->message, ==, "no such file");
}

/* Loading: a connection to a port the component does not have. */
static void
test_load_no_such_port (void)
{
  const char *json = HEAD "\"components\": ["
    "{\"id\": \"O1\", \"type\": \"orifice\"}, {\"id\": \"T1\", \"type\": \"tank\"}],"
    "\"connections\": [{\"from\": \"O1.X\", \"to\": \"T1.T\"}]}";
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "t.bramah", &error);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE);
  const HydDiagnostic *d = hyd_diagnostic_peek_error (error);
  g_assert_nonnull (d);
  g_assert_cmpstr (d->component, ==, "O1");
  g_assert_cmpstr (d->port, ==, "X");
  g_assert_cmpstr (d->message, ==, error->message);
}

static HydSystem *
compile_json (const char *json, GError **error)
{
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "t.bramah", error);
  return circuit ? hyd_system_compile (circuit, error) : NULL;
}

/* Compiling: an unconnected port names the component and the port, and the
 * list the editor asks for has every one of them in the same words. */
static void
test_compile_unconnected (void)
{
  const char *json = HEAD "\"components\": ["
    "{\"id\": \"Q1\", \"type\": \"flow_source\"},"
    "{\"id\": \"O1\", \"type\": \"orifice\"}, {\"id\": \"O2\", \"type\": \"orifice\"}],"
    "\"connections\": [{\"from\": \"Q1.P\", \"to\": \"O1.A\"}]}";
  g_autoptr (GError) error = NULL;
  HydSystem *sys = compile_json (json, &error);
  g_assert_null (sys);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_UNCONNECTED);
  g_assert_cmpstr (error->message, ==,
                   "port O1.B is not connected: every B port of a orifice must be wired");
  const HydDiagnostic *d = hyd_diagnostic_peek_error (error);
  g_assert_nonnull (d);
  g_assert_cmpint (d->code, ==, HYD_DIAGNOSTIC_UNCONNECTED);
  g_assert_cmpstr (d->component, ==, "O1");
  g_assert_cmpstr (d->port, ==, "B");
  g_assert_null (d->parameter);

  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "t.bramah", NULL);
  g_autoptr (GPtrArray) all = hyd_circuit_unconnected_ports (circuit);
  const char *expect[][2] = { { "O1", "B" }, { "O2", "A" }, { "O2", "B" } };
  g_assert_cmpuint (all->len, ==, G_N_ELEMENTS (expect));
  for (guint i = 0; i < all->len; i++)
    {
      const HydDiagnostic *u = g_ptr_array_index (all, i);
      g_assert_cmpint (u->code, ==, HYD_DIAGNOSTIC_UNCONNECTED);
      g_assert_cmpstr (u->component, ==, expect[i][0]);
      g_assert_cmpstr (u->port, ==, expect[i][1]);
    }
  g_assert_cmpstr (((HydDiagnostic *) g_ptr_array_index (all, 0))->message, ==, error->message);

  /* optional ports (a volume's P2…P4) are not listed */
  const char *optional = HEAD "\"components\": ["
    "{\"id\": \"V1\", \"type\": \"volume\"}, {\"id\": \"G1\", \"type\": \"pressure_gauge\"}],"
    "\"connections\": [{\"from\": \"V1.P\", \"to\": \"G1.P\"}]}";
  g_autoptr (HydCircuit) ok = hyd_circuit_load_from_data (optional, -1, "t.bramah", NULL);
  g_autoptr (GPtrArray) none = hyd_circuit_unconnected_ports (ok);
  g_assert_cmpuint (none->len, ==, 0);
}

/* A short circuit names both boundaries: the second as the component, the
 * first as a related one, so that the window boxes both. */
static void
test_compile_short_circuit (void)
{
  const char *json = HEAD "\"components\": ["
    "{\"id\": \"T1\", \"type\": \"tank\"},"
    "{\"id\": \"PS1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 1e6}}],"
    "\"connections\": [{\"from\": \"T1.T\", \"to\": \"PS1.P\"}]}";
  g_autoptr (GError) error = NULL;
  HydSystem *sys = compile_json (json, &error);
  g_assert_null (sys);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_SHORT_CIRCUIT);
  const HydDiagnostic *d = hyd_diagnostic_peek_error (error);
  g_assert_nonnull (d);
  g_assert_cmpstr (d->component, ==, "PS1");
  g_assert_nonnull (d->related);
  g_assert_cmpstr (d->related[0], ==, "T1");
  g_assert_null (d->related[1]);
}

/* Lint: a pump with no relief path is a warning naming the pump and its
 * port, the same as the text warning in the same place. */
static void
test_lint_warning (void)
{
  const char *json = HEAD "\"components\": ["
    "{\"id\": \"T1\", \"type\": \"tank\"}, {\"id\": \"P1\", \"type\": \"fixed_pump\"},"
    "{\"id\": \"C1\", \"type\": \"cylinder_double\"}, {\"id\": \"V1\", \"type\": \"volume\"}],"
    "\"connections\": [{\"from\": \"P1.S\", \"to\": \"T1.T\"}, {\"from\": \"P1.P\", \"to\": \"C1.A\"},"
    "{\"from\": \"C1.B\", \"to\": \"V1.P\"}]}";
  g_autoptr (GError) error = NULL;
  HydSystem *sys = compile_json (json, &error);
  g_assert_no_error (error);
  GPtrArray *text = hyd_system_get_warnings (sys);
  GPtrArray *diags = hyd_system_get_diagnostics (sys);
  g_assert_cmpuint (diags->len, ==, text->len);
  gboolean found = FALSE;
  for (guint i = 0; i < diags->len; i++)
    {
      const HydDiagnostic *d = g_ptr_array_index (diags, i);
      g_assert_cmpint (d->severity, ==, HYD_SEVERITY_WARNING);
      g_assert_cmpstr (d->message, ==, g_ptr_array_index (text, i));
      if (d->code != HYD_DIAGNOSTIC_NO_RELIEF_PATH)
        continue;
      found = TRUE;
      g_assert_cmpstr (d->component, ==, "P1");
      g_assert_cmpstr (d->port, ==, "P");
      g_assert_true (g_str_has_prefix (d->message, "P1: the pump has no relief path"));
    }
  g_assert_true (found);
  hyd_system_free (sys);
}

static gboolean
drop_sample (double t, const double *values, guint n, gpointer user)
{
  return TRUE;
}

/* Run: a relief valve passing 2.5 times its rating warns once, with the
 * valve, its parameter and the time it happened. */
static void
test_run_warning (void)
{
  g_autofree char *json = g_strdup_printf (
      HEAD "\"simulation\": {\"t_end\": 3, \"output_interval\": 0.01},"
      "\"components\": ["
      "{\"id\": \"FS1\", \"type\": \"flow_source\", \"params\": {\"flow\": %.17g}},"
      "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"volume\": 1e-3}},"
      "{\"id\": \"RV1\", \"type\": \"relief_valve\", \"params\": {"
      "\"cracking_pressure\": 1e7, \"override_pressure\": 1e6, \"nominal_flow\": %.17g}},"
      "{\"id\": \"T1\", \"type\": \"tank\"}],"
      "\"connections\": [{\"from\": \"FS1.P\", \"to\": \"V1.P\"},"
      "{\"from\": \"V1.P2\", \"to\": \"RV1.P\"}, {\"from\": \"RV1.T\", \"to\": \"T1.T\"}]}",
      25.0 / 6e4, 10.0 / 6e4);
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "t.bramah", &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  HydSimOptions sim;
  g_assert_true (hyd_circuit_get_sim_options (circuit, &sim, &error));
  int v = hyd_system_find_variable (sys, "RV1.P.p");
  g_autoptr (GPtrArray) text = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) diags = hyd_diagnostic_list_new ();
  HydRunSpec spec = { .sim = &sim, .vars = &v, .n_vars = 1, .sample = drop_sample,
                      .diagnostics = diags };
  HydOdeResult res = { 0 };
  g_assert_cmpint (hyd_run_execute (sys, &spec, &res, text), ==, HYD_ODE_SUCCESS);
  g_assert_cmpuint (diags->len, ==, text->len);
  const HydDiagnostic *over = NULL;
  for (guint i = 0; i < diags->len; i++)
    {
      const HydDiagnostic *d = g_ptr_array_index (diags, i);
      g_assert_cmpstr (d->message, ==, g_ptr_array_index (text, i));
      if (d->code == HYD_DIAGNOSTIC_RELIEF_OVERFLOW)
        {
          g_assert_null (over);
          over = d;
        }
    }
  g_assert_nonnull (over);
  g_assert_cmpint (over->severity, ==, HYD_SEVERITY_WARNING);
  g_assert_cmpstr (over->component, ==, "RV1");
  g_assert_cmpstr (over->parameter, ==, "nominal_flow");
  /* the flow exceeds 15 L/min some time after the start, inside the run */
  g_assert_false (isnan (over->time));
  g_assert_cmpfloat (over->time, >, 0.0);
  g_assert_cmpfloat (over->time, <, 3.0);
  g_autofree char *at = g_strdup_printf ("at t = %.4g s", over->time);
  g_assert_nonnull (strstr (over->message, at));
  g_assert_true (g_str_has_prefix (over->message, "RV1: the relief valve passes"));
  hyd_ode_result_clear (&res);
  hyd_sim_options_clear (&sim);
  hyd_system_free (sys);
}

/* More producers name what they concern: a duplicate component id, a
 * connection that names no junction, a node without volume. */
static void
test_more_fields (void)
{
  g_autoptr (GError) error = NULL;
  const char *dup = HEAD "\"components\": [{\"id\": \"T1\", \"type\": \"tank\"},"
    "{\"id\": \"T1\", \"type\": \"tank\"}], \"connections\": []}";
  g_autoptr (HydCircuit) c1 = hyd_circuit_load_from_data (dup, -1, "t.bramah", &error);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_ID);
  g_assert_cmpstr (error->message, ==, "duplicate id \"T1\": two components have it");
  const HydDiagnostic *d = hyd_diagnostic_peek_error (error);
  g_assert_nonnull (d);
  g_assert_cmpstr (d->component, ==, "T1");
  g_clear_error (&error);

  const char *nowhere = HEAD "\"components\": [{\"id\": \"T1\", \"type\": \"tank\"}],"
    "\"connections\": [{\"from\": \"T1.T\", \"to\": \"J9\"}]}";
  g_autoptr (HydCircuit) c2 = hyd_circuit_load_from_data (nowhere, -1, "t.bramah", &error);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE);
  d = hyd_diagnostic_peek_error (error);
  g_assert_nonnull (d);
  g_assert_cmpstr (d->connection, ==, "T1.T → J9");
  g_assert_cmpstr (d->message, ==, error->message);
  g_clear_error (&error);

  /* an orifice between two pumps' outlets: its node has no volume */
  const char *dry = HEAD "\"components\": ["
    "{\"id\": \"Q1\", \"type\": \"flow_source\"}, {\"id\": \"O1\", \"type\": \"orifice\"},"
    "{\"id\": \"T1\", \"type\": \"tank\"}],"
    "\"connections\": [{\"from\": \"Q1.P\", \"to\": \"O1.A\", \"length\": 0},"
    "{\"from\": \"O1.B\", \"to\": \"T1.T\"}]}";
  HydSystem *sys = compile_json (dry, &error);
  g_assert_null (sys);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_NO_VOLUME);
  d = hyd_diagnostic_peek_error (error);
  g_assert_nonnull (d);
  g_assert_cmpint (d->code, ==, HYD_DIAGNOSTIC_NO_VOLUME);
  g_assert_cmpstr (d->component, ==, "Q1");
  g_assert_cmpstr (d->port, ==, "P");
  g_assert_cmpstr (d->message, ==, error->message);
}

/* One list for a circuit before a run: every unconnected port, or the
 * compiler's error, or the lint's warnings. */
static void
test_diagnose (void)
{
  const char *open = HEAD "\"components\": ["
    "{\"id\": \"Q1\", \"type\": \"flow_source\"},"
    "{\"id\": \"O1\", \"type\": \"orifice\"}, {\"id\": \"O2\", \"type\": \"orifice\"}],"
    "\"connections\": [{\"from\": \"Q1.P\", \"to\": \"O1.A\"}]}";
  g_autoptr (HydCircuit) c1 = hyd_circuit_load_from_data (open, -1, "t.bramah", NULL);
  HydSystem *sys = NULL;
  g_autoptr (GPtrArray) l1 = hyd_system_diagnose (c1, &sys);
  g_assert_null (sys);
  g_assert_cmpuint (l1->len, ==, 3);
  g_assert_nonnull (hyd_diagnostic_list_find (l1, HYD_SEVERITY_ERROR));
  for (guint i = 0; i < l1->len; i++)
    g_assert_cmpint (((HydDiagnostic *) g_ptr_array_index (l1, i))->code, ==, HYD_DIAGNOSTIC_UNCONNECTED);

  const char *lint = HEAD "\"components\": ["
    "{\"id\": \"T1\", \"type\": \"tank\"}, {\"id\": \"P1\", \"type\": \"fixed_pump\"},"
    "{\"id\": \"C1\", \"type\": \"cylinder_double\"}, {\"id\": \"V1\", \"type\": \"volume\"}],"
    "\"connections\": [{\"from\": \"P1.S\", \"to\": \"T1.T\"}, {\"from\": \"P1.P\", \"to\": \"C1.A\"},"
    "{\"from\": \"C1.B\", \"to\": \"V1.P\"}]}";
  g_autoptr (HydCircuit) c2 = hyd_circuit_load_from_data (lint, -1, "t.bramah", NULL);
  g_autoptr (GPtrArray) l2 = hyd_system_diagnose (c2, &sys);
  g_assert_nonnull (sys);
  g_assert_null (hyd_diagnostic_list_find (l2, HYD_SEVERITY_ERROR));
  g_assert_cmpuint (l2->len, ==, hyd_system_get_diagnostics (sys)->len);
  g_assert_nonnull (hyd_diagnostic_list_find (l2, HYD_SEVERITY_WARNING));
  hyd_system_free (sys);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/diagnostic/expand", test_expand);
  g_test_add_func ("/engine/diagnostic/load/param-range", test_load_param_range);
  g_test_add_func ("/engine/diagnostic/load/no-such-port", test_load_no_such_port);
  g_test_add_func ("/engine/diagnostic/compile/unconnected", test_compile_unconnected);
  g_test_add_func ("/engine/diagnostic/compile/short-circuit", test_compile_short_circuit);
  g_test_add_func ("/engine/diagnostic/more-fields", test_more_fields);
  g_test_add_func ("/engine/diagnostic/diagnose", test_diagnose);
  g_test_add_func ("/engine/diagnostic/lint/no-relief-path", test_lint_warning);
  g_test_add_func ("/engine/diagnostic/run/relief-overflow", test_run_warning);
  return g_test_run ();
}
