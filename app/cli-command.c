/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-command.c — what every bramah-cli command shares: its errors, its
 * option parsing, loading a circuit (cli-commands.h, cli-circuit.h). */
#include <glib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "cli-circuit.h"
#include "cli-commands.h"

int
hyd_cli_failed (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  hyd_cli_print_error (msg);
  return HYD_CLI_EXIT_FAILED;
}

int
hyd_cli_usage_error (GOptionContext *ctx, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  hyd_cli_print_error (msg);
  if (ctx)
    fprintf (stderr, "Try '%s --help'.\n", g_get_prgname ());
  return HYD_CLI_EXIT_USAGE;
}

void
hyd_cli_warning (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_autofree char *safe = hyd_cli_sanitize_message (msg);
  fprintf (stderr, "warning: %s\n", safe);
}

int
hyd_cli_parse_options (GOptionContext *ctx, gboolean hint, int *argc, char ***argv)
{
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (ctx, argc, argv, &error))
    return hyd_cli_usage_error (hint ? ctx : NULL, "%s", error->message);
  return 0;
}

HydCircuit *
hyd_cli_load_circuit (const char *path, int *status)
{
  g_autoptr (GError) error = NULL;
  HydCircuit *circuit = hyd_circuit_load_from_file (path, &error);
  if (circuit == NULL)
    *status = hyd_cli_failed_error (error);
  return circuit;
}

HydSystem *
hyd_cli_compile_circuit (const char *path, HydCircuit **circuit_out, HydSimOptions *sim, int *status)
{
  g_autoptr (HydCircuit) circuit = hyd_cli_load_circuit (path, status);
  if (!circuit)
    return NULL;
  g_autoptr (GError) error = NULL;
  HydSystem *sys = NULL;
  if (!hyd_circuit_get_sim_options (circuit, sim, &error)
      || (sys = hyd_system_compile (circuit, &error)) == NULL)
    {
      *status = hyd_cli_failed_error (error);
      return NULL;
    }
  hyd_cli_print_diagnostics (hyd_system_get_diagnostics (sys));
  if (circuit_out)
    *circuit_out = g_steal_pointer (&circuit);
  return sys;
}

#define HYD_CLI_MAX_DENSE_STATES 2000

HydOperatingPoint *
hyd_cli_run_to (const char *path, const char *command, const char *dense, HydSystem *sys,
                const HydSimOptions *sim, double at, int *status)
{
  guint n = hyd_system_get_n_states (sys);
  if (n > HYD_CLI_MAX_DENSE_STATES)
    {
      *status = hyd_cli_failed ("%s: %s %s, and %u states are more than the %u it handles", hyd_cli_qpath (path),
                                command, dense, n, HYD_CLI_MAX_DENSE_STATES);
      return NULL;
    }
  g_autoptr (GError) error = NULL;
  HydOperatingPoint *op = hyd_operating_point_run (sys, sim, at, NULL, &error);
  if (op == NULL)
    *status = hyd_cli_failed ("%s: %s", hyd_cli_qpath (path), error->message);
  return op;
}

const char *
hyd_cli_format_number (char buf[G_ASCII_DTOSTR_BUF_SIZE], double v)
{
  if (isnan (v))
    return "nan";
  return g_ascii_formatd (buf, G_ASCII_DTOSTR_BUF_SIZE, "%.10g", v);
}
