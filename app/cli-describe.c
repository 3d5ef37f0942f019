/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-describe.c — `bramah-cli describe CIRCUIT`: the assembled system
 * (docs/cli.md): each state and node, the Jacobian's sparsity pattern, and
 * the eigenvalues of the Jacobian at t = 0 with the stiffness ratio. */
#include <glib.h>
#include <math.h>
#include <stdio.h>

#include "cli-circuit.h"
#include "cli-commands.h"
#include "hyd-eigen.h"
#include "hyd-system.h"

/* The eigenvalues of J and the stiffness ratio over the decaying modes;
 * an eigenvalue zero within LAPACK's rounding bound is no mode
 * (hyd-eigen.h, docs/analysis.md). */
static void
print_spectrum (const double *J, guint n)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydSpectrum) s = hyd_spectrum_compute (J, n, &error);
  if (s == NULL)
    {
      printf ("Eigenvalues: %s\n", error->message);
      return;
    }
  printf ("Eigenvalues of J at t = 0:\n");
  for (guint i = 0; i < n; i++)
    printf ("  %14.6g %+14.6gi%s\n", s->re[i], s->im[i],
            s->zero[i] && (s->re[i] != 0.0 || s->im[i] != 0.0) ? "  (zero within rounding)" : "");
  guint n_zero;
  double ratio = hyd_spectrum_stiffness_ratio (s, &n_zero);
  if (isfinite (ratio))
    printf ("Stiffness ratio (max/min |Re λ| over decaying modes): %.4g\n", ratio);
  else
    printf ("Stiffness ratio: undefined (no decaying modes)\n");
  if (n_zero)
    printf ("  (%u eigenvalue%s zero, exactly or within rounding: non-decaying, not counted)\n", n_zero,
            n_zero == 1 ? "" : "s");
}

static int
run (int argc, char **argv)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new ("CIRCUIT — print the assembled system");
  int st = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  if (st)
    return st;
  if (argc != 2)
    return hyd_cli_usage_error (ctx, "describe takes one CIRCUIT file");
  g_autoptr (HydCircuit) circuit = hyd_cli_load_circuit (argv[1], &st);
  if (!circuit)
    return st;
  g_autoptr (GError) error = NULL;
  g_autoptr (HydSystem) sys = hyd_system_compile (circuit, &error);
  if (!sys)
    return hyd_cli_failed_error (error);
  hyd_cli_print_diagnostics (hyd_system_get_diagnostics (sys));
  guint n = hyd_system_get_n_states (sys);
  const double *y0 = hyd_system_get_initial_state (sys);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  printf ("States (%u):\n", n);
  for (guint i = 0; i < n; i++)
    {
      HydUnit u = hyd_system_get_state_unit (sys, i);
      printf ("  %3u  %-28s %-18s %s %s\n", i, hyd_system_get_state_name (sys, i),
              hyd_unit_name (u), hyd_cli_format_number (buf, y0[i]), hyd_unit_symbol (u));
    }
  printf ("Nodes (%u):\n", hyd_system_get_n_nodes (sys));
  for (guint b = 0; b < hyd_system_get_n_nodes (sys); b++)
    {
      const HydNodeInfo *ni = hyd_system_get_node (sys, b);
      char pbuf[G_ASCII_DTOSTR_BUF_SIZE];
      printf ("  %-28s %s wire volume %s m³, initial %s Pa; ports:", ni->name,
              ni->boundary ? "boundary," : "state,   ", hyd_cli_format_number (buf, ni->wire_volume),
              g_ascii_formatd (pbuf, sizeof pbuf, "%.6g", ni->initial_pressure));
      for (guint k = 0; k < ni->ports->len; k++)
        printf (" %s", (const char *) g_ptr_array_index (ni->ports, k));
      printf ("\n");
    }

  guint nnz;
  const guint *colptr, *rowind;
  hyd_system_get_pattern (sys, &nnz, &colptr, &rowind);
  printf ("Jacobian sparsity: %u × %u, %u structural non-zeros (%.1f%%)\n", n, n, nnz,
          n ? 100.0 * nnz / ((double) n * n) : 0.0);
  if (n <= 60)
    {
      g_autofree gboolean *dense = g_new0 (gboolean, (gsize) n * n + 1);
      for (guint j = 0; j < n; j++)
        for (guint k = colptr[j]; k < colptr[j + 1]; k++)
          dense[rowind[k] * n + j] = TRUE;
      for (guint i = 0; i < n; i++)
        {
          printf ("  %3u ", i);
          for (guint j = 0; j < n; j++)
            putchar (dense[i * n + j] ? 'x' : '.');
          putchar ('\n');
        }
    }

  if (n > 0 && n <= 2000)
    {
      g_autofree double *J = g_new0 (double, (gsize) n * n);
      hyd_system_jacobian (sys, 0.0, y0, J, NULL);
      print_spectrum (J, n);
    }
  return HYD_CLI_EXIT_OK;
}

const HydCliCommand hyd_cli_describe_command = {
  "describe", "print states, nodes, Jacobian pattern and eigenvalues", run,
};
