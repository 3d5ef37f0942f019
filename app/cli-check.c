/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-check.c — `bramah-cli check CIRCUIT`: load, validate and compile a
 * circuit without simulating (docs/cli.md); the lint's warnings on stderr. */
#include <glib.h>
#include <stdio.h>

#include "cli-circuit.h"
#include "cli-commands.h"
#include "hyd-ode.h"
#include "hyd-system.h"

static int
run (int argc, char **argv)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new ("CIRCUIT — load and validate without simulating");
  int st = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  if (st)
    return st;
  if (argc != 2)
    return hyd_cli_usage_error (ctx, "check takes one CIRCUIT file");
  g_autoptr (HydCircuit) circuit = hyd_cli_load_circuit (argv[1], &st);
  if (!circuit)
    return st;
  g_autoptr (GError) error = NULL;
  g_auto (HydSimOptions) sim = { 0 };
  if (!hyd_circuit_get_sim_options (circuit, &sim, &error))
    return hyd_cli_failed_error (error);
  if (hyd_solver_lookup (sim.solver) == NULL)
    return hyd_cli_failed ("%s: simulation.solver '%s' is not a solver this build has (bramah-cli solvers)",
                           hyd_cli_qpath (argv[1]), hyd_cli_q (sim.solver));
  g_autoptr (HydSystem) sys = hyd_system_compile (circuit, &error);
  if (!sys)
    return hyd_cli_failed_error (error);
  hyd_cli_print_diagnostics (hyd_system_get_diagnostics (sys));
  printf ("%s: OK — %u components, %u nodes, %u states\n", hyd_cli_qpath (argv[1]), circuit->components->len,
          hyd_system_get_n_nodes (sys), hyd_system_get_n_states (sys));
  return HYD_CLI_EXIT_OK;
}

const HydCliCommand hyd_cli_check_command = {
  "check", "load and validate a circuit without simulating", run,
};
