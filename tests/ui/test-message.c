/* test-message.c — the engine's messages in the panel's words and units
 * (issue 8, item 14: "node V1.B.p: −1.044e+05 Pa", "rod_diameter = 1e+96 m"). */
#include <string.h>
#include "hyd-circuit.h"
#include "hyd-message.h"

static const char *circuit_json =
    "{ \"format\": \"bramah-circuit\", \"version\": 1, \"components\": ["
    " { \"id\": \"C1\", \"type\": \"cylinder_double\" },"
    " { \"id\": \"V1\", \"type\": \"dcv_4_3\" } ], \"connections\": [] }";

static void
check (const HydCircuit *circuit, const char *engine, const char *shown)
{
  g_autofree char *got = hyd_message_humanize (circuit, engine);
  g_test_message ("%s -> %s", engine, got);
  g_assert_cmpstr (got, ==, shown);
}

static void
test_humanize (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (circuit_json, -1, "test", &error);
  g_assert_no_error (error);

  check (circuit, "node V1.B.p: pressure −1.044e+05 Pa fell below the vapour pressure 2000 Pa at t = 1.5 s",
         "line at V1.B: pressure -1.04 bar fell below the vapour pressure 0.0200 bar at t = 1.5 s");
  check (circuit, "C1.rod_diameter: 1e+96 m is not allowed", "“Rod diameter” of C1: 1.000e+99 mm is not allowed");
  check (circuit, "flow 0.00025 m³/s, speed 0.127 m/s, force 4000 N",
         "flow 15.0 L/min, speed 0.127 m/s, force 4.00 kN");
  /* variables, ports and unknown names stay as they are */
  check (circuit, "state C1.x is not finite; port C1.A; X9.mass", "state C1.x is not finite; port C1.A; X9.mass");
  /* no circuit: units only */
  check (NULL, "C1.mass = 5 kg", "C1.mass = 5.00 kg");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/message/humanize", test_humanize);
  return g_test_run ();
}
