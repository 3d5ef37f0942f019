/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-derived.c — parameters within their ranges whose derived quantities
 * (areas, volumes, displacement flows) overflow are refused by check,
 * naming the component and the parameter, not the node they end up in
 * ("has no volume") or the first step ("nonfinite"). */
#include <string.h>

#include "hyd-circuit.h"
#include "hyd-system.h"

#define HEAD "{\"format\": \"bramah-circuit\", \"version\": 1, "

typedef struct {
  const char *what;
  const char *json;
  const char *component;
  const char *param;
} Case;

static const Case cases[] = {
  { "cylinder piston diameter",
    HEAD "\"components\": ["
    "{\"id\": \"P1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 1e6}},"
    "{\"id\": \"C1\", \"type\": \"cylinder_double\", \"params\": {\"piston_diameter\": 1e308}},"
    "{\"id\": \"T1\", \"type\": \"tank\"}],"
    "\"connections\": ["
    "{\"from\": \"P1.P\", \"to\": \"C1.A\", \"length\": 1.0},"
    "{\"from\": \"C1.B\", \"to\": \"T1.T\", \"length\": 1.0}]}",
    "C1", "piston_diameter" },
  { "pump displacement",
    HEAD "\"components\": ["
    "{\"id\": \"T1\", \"type\": \"tank\"},"
    "{\"id\": \"U1\", \"type\": \"fixed_pump\", \"params\": {\"displacement\": 1e308}},"
    "{\"id\": \"O1\", \"type\": \"orifice\"},"
    "{\"id\": \"T2\", \"type\": \"tank\"}],"
    "\"connections\": ["
    "{\"from\": \"T1.T\", \"to\": \"U1.S\", \"length\": 0.5},"
    "{\"from\": \"U1.P\", \"to\": \"O1.A\", \"length\": 1.0},"
    "{\"from\": \"O1.B\", \"to\": \"T2.T\", \"length\": 0.5}]}",
    "U1", "displacement" },
  { "motor displacement",
    HEAD "\"components\": ["
    "{\"id\": \"P1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 1e7}},"
    "{\"id\": \"M1\", \"type\": \"motor_fixed\", \"params\": {\"displacement\": 1e308}},"
    "{\"id\": \"T1\", \"type\": \"tank\"}],"
    "\"connections\": ["
    "{\"from\": \"P1.P\", \"to\": \"M1.A\", \"length\": 1.0},"
    "{\"from\": \"M1.B\", \"to\": \"T1.T\", \"length\": 1.0}]}",
    "M1", "displacement" },
  { "line diameter",
    HEAD "\"components\": ["
    "{\"id\": \"Q1\", \"type\": \"flow_source\", \"params\": {\"flow\": 1e-4}},"
    "{\"id\": \"L1\", \"type\": \"line\", \"params\": {\"diameter\": 1e308}},"
    "{\"id\": \"O1\", \"type\": \"orifice\"},"
    "{\"id\": \"T1\", \"type\": \"tank\"}],"
    "\"connections\": ["
    "{\"from\": \"Q1.P\", \"to\": \"L1.A\", \"length\": 0.5},"
    "{\"from\": \"L1.B\", \"to\": \"O1.A\", \"length\": 0.5},"
    "{\"from\": \"O1.B\", \"to\": \"T1.T\", \"length\": 0.5}]}",
    "L1", "diameter" },
  { "orifice diameter",
    HEAD "\"components\": ["
    "{\"id\": \"P1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 1e6}},"
    "{\"id\": \"O1\", \"type\": \"orifice\", \"params\": {\"diameter\": 1e308}},"
    "{\"id\": \"O2\", \"type\": \"orifice\"},"
    "{\"id\": \"T1\", \"type\": \"tank\"}],"
    "\"connections\": ["
    "{\"from\": \"P1.P\", \"to\": \"O1.A\", \"length\": 0.5},"
    "{\"from\": \"O1.B\", \"to\": \"O2.A\", \"length\": 0.5},"
    "{\"from\": \"O2.B\", \"to\": \"T1.T\", \"length\": 0.5}]}",
    "O1", "diameter" },
  { "throttle valve diameter",
    HEAD "\"components\": ["
    "{\"id\": \"P1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 1e6}},"
    "{\"id\": \"V1\", \"type\": \"throttle_valve\", \"params\": {\"max_diameter\": 1e308}},"
    "{\"id\": \"O2\", \"type\": \"orifice\"},"
    "{\"id\": \"T1\", \"type\": \"tank\"}],"
    "\"connections\": ["
    "{\"from\": \"P1.P\", \"to\": \"V1.A\", \"length\": 0.5},"
    "{\"from\": \"V1.B\", \"to\": \"O2.A\", \"length\": 0.5},"
    "{\"from\": \"O2.B\", \"to\": \"T1.T\", \"length\": 0.5}]}",
    "V1", "max_diameter" },
  { "two huge volumes on one node",
    HEAD "\"components\": ["
    "{\"id\": \"Q1\", \"type\": \"flow_source\", \"params\": {\"flow\": 1e-4}},"
    "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"volume\": 1e308}},"
    "{\"id\": \"V2\", \"type\": \"volume\", \"params\": {\"volume\": 1e308}},"
    "{\"id\": \"O1\", \"type\": \"orifice\"},"
    "{\"id\": \"T1\", \"type\": \"tank\"}],"
    "\"connections\": ["
    "{\"from\": \"Q1.P\", \"to\": \"V1.P\"},"
    "{\"from\": \"V1.P\", \"to\": \"V2.P\"},"
    "{\"from\": \"V2.P\", \"to\": \"O1.A\"},"
    "{\"from\": \"O1.B\", \"to\": \"T1.T\"}]}",
    "V1", "volume" },
};

static void
test_case (gconstpointer data)
{
  const Case *c = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (c->json, -1, "test.bramah", &error);
  /* each value is within its parameter's range: the file loads */
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  if (sys)
    hyd_system_free (sys);
  g_assert_null (sys);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE);
  g_test_message ("%s: %s", c->what, error->message);
  g_autofree char *comp = g_strdup_printf ("\"%s\"", c->component);
  g_autofree char *param = g_strdup_printf ("\"%s\"", c->param);
  g_assert_nonnull (strstr (error->message, comp));
  g_assert_nonnull (strstr (error->message, param));
  g_assert_null (strstr (error->message, "no volume"));
}

/* Large but harmless values still compile. */
static void
test_large_but_finite (void)
{
  const char *json =
    HEAD "\"components\": ["
    "{\"id\": \"P1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 1e6}},"
    "{\"id\": \"C1\", \"type\": \"cylinder_double\", \"params\": {\"piston_diameter\": 2.0, \"stroke\": 20.0}},"
    "{\"id\": \"T1\", \"type\": \"tank\"}],"
    "\"connections\": ["
    "{\"from\": \"P1.P\", \"to\": \"C1.A\", \"length\": 1.0},"
    "{\"from\": \"C1.B\", \"to\": \"T1.T\", \"length\": 1.0}]}";
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "test.bramah", &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  g_assert_nonnull (sys);
  hyd_system_free (sys);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/system/derived/%s", cases[i].what);
      g_strdelimit (path + 16, " ", '-');
      g_test_add_data_func (path, &cases[i], test_case);
    }
  g_test_add_func ("/system/derived/large-but-finite", test_large_but_finite);
  return g_test_run ();
}
