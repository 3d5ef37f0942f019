/* SPDX-License-Identifier: GPL-3.0-or-later */
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

static void
check_label (const char *name, HydUnit unit, const char *label, const char *header)
{
  g_autofree char *got = hyd_message_variable_label (name, unit);
  g_autofree char *got_header = hyd_message_column_header (name, unit);
  g_test_message ("%s -> %s | %s", name, got, got_header);
  g_assert_cmpstr (got, ==, label);
  g_assert_cmpstr (got_header, ==, header);
}

/* A variable as the GUI's CSV exports head its column: where (component,
 * port, point), what (the quantity the plot's axis names) and the unit the
 * plots show; never the engine's name ("V1.P.p", "C1.x"). */
static void
test_variable_label (void)
{
  check_label ("t", HYD_UNIT_TIME, "Time", "Time [s]");
  check_label ("V1.P.p", HYD_UNIT_PRESSURE, "V1.P: Pressure", "V1.P: Pressure [bar]");
  check_label ("C1.A.q", HYD_UNIT_FLOW, "C1.A: Flow", "C1.A: Flow [L/min]");
  check_label ("C1.A.void", HYD_UNIT_VOLUME, "C1.A: Void", "C1.A: Void [L]");
  check_label ("C1.x", HYD_UNIT_POSITION, "C1: Position", "C1: Position [mm]");
  check_label ("C1.v", HYD_UNIT_VELOCITY, "C1: Velocity", "C1: Velocity [m/s]");
  check_label ("C1.force", HYD_UNIT_FORCE, "C1: Force", "C1: Force [kN]");
  check_label ("PU1.flow", HYD_UNIT_FLOW, "PU1: Flow", "PU1: Flow [L/min]");
  check_label ("M1.w", HYD_UNIT_ANGULAR_VELOCITY, "M1: Angular velocity", "M1: Angular velocity [rpm]");
  check_label ("DCV1.spool", HYD_UNIT_NONE, "DCV1: Spool position", "DCV1: Spool position");
  check_label ("DCV1.q_PA", HYD_UNIT_FLOW, "DCV1 P→A: Flow", "DCV1 P→A: Flow [L/min]");
  check_label ("L1.q_A", HYD_UNIT_FLOW, "L1.A: Flow", "L1.A: Flow [L/min]");
  check_label ("L1.p3", HYD_UNIT_PRESSURE, "L1 point 3: Pressure", "L1 point 3: Pressure [bar]");
  check_label ("L1.q12", HYD_UNIT_FLOW, "L1 segment 12: Flow", "L1 segment 12: Flow [L/min]");
  check_label ("RV1.s", HYD_UNIT_NONE, "RV1: Opening coordinate", "RV1: Opening coordinate");
  check_label ("RV1.sdot", HYD_UNIT_FLOW_RATE_PER_S, "RV1: Opening rate", "RV1: Opening rate [1/s]");
  check_label ("RV1.opening", HYD_UNIT_NONE, "RV1: Opening", "RV1: Opening");
  check_label ("A1.oil_volume", HYD_UNIT_VOLUME, "A1: Oil volume", "A1: Oil volume [L]");
  check_label ("T1.laminar", HYD_UNIT_NONE, "T1: Laminar branch", "T1: Laminar branch");
  /* a name it does not know keeps its own word (dimensionless) or takes
   * the quantity of its unit */
  check_label ("X1.foo", HYD_UNIT_NONE, "X1: foo", "X1: foo");
  check_label ("X1.bar", HYD_UNIT_TORQUE, "X1: Torque", "X1: Torque [N·m]");
  check_label ("V1.B.psi", HYD_UNIT_PRESSURE, "V1.B: Pseudo-pressure", "V1.B: Pseudo-pressure [bar]");
  check_label ("L1.psi2", HYD_UNIT_PRESSURE, "L1 point 2: Pseudo-pressure", "L1 point 2: Pseudo-pressure [bar]");
  check_label ("odd", HYD_UNIT_NONE, "odd", "odd");
  /* a hose (a connection with friction) is named by its ends */
  check_label ("DCV1.A-C1.A.q", HYD_UNIT_FLOW, "DCV1.A-C1.A: Flow", "DCV1.A-C1.A: Flow [L/min]");
  check_label ("PU1.P-J1.dp", HYD_UNIT_PRESSURE, "PU1.P-J1: Pressure", "PU1.P-J1: Pressure [bar]");
  check_label ("J1-V1.P.Re", HYD_UNIT_NONE, "J1-V1.P: Reynolds number", "J1-V1.P: Reynolds number");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/message/humanize", test_humanize);
  g_test_add_func ("/ui/message/variable-label", test_variable_label);
  return g_test_run ();
}
