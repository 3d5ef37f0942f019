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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/electrical-switches/supply-ground", test_supply_ground);
  return g_test_run ();
}
