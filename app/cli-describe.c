/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-describe.c — `bramah-cli describe CIRCUIT [--sparsity-csv FILE
 * [--at T]]`: the assembled system (docs/cli.md): each state and node, the
 * Jacobian's sparsity pattern, and the eigenvalues of the Jacobian at t = 0
 * with the stiffness ratio; with --sparsity-csv, every structural non-zero
 * of the Jacobian with its value, states and components, for plotting. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli-circuit.h"
#include "cli-commands.h"
#include "cli-diagnostic.h"
#include "hyd-eigen.h"
#include "hyd-linearize.h"
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

/* One CSV field: quoted (RFC 4180) when it holds a comma, a quote or a
 * line break. */
static void
csv_field (GString *line, const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (line, text);
      return;
    }
  g_string_append_c (line, '"');
  for (const char *c = text; *c; c++)
    {
      if (*c == '"')
        g_string_append_c (line, '"');
      g_string_append_c (line, *c);
    }
  g_string_append_c (line, '"');
}

/* The components that make state k (hyd_system_state_components), joined
 * with spaces: one id for a component's state, every component with a port
 * on the node for a node pressure. */
static char *
state_components_text (const HydSystem *sys, guint k)
{
  g_autoptr (GPtrArray) comps = hyd_system_state_components (sys, k);
  g_ptr_array_add (comps, NULL);
  return g_strjoinv (" ", (char **) comps->pdata);
}

/* --sparsity-csv: one row per structural non-zero of the Jacobian, row by
 * row, with its value at (t, y); a non-zero of the pattern whose value is
 * 0 here is written with 0. */
static int
write_sparsity_csv (const char *circuit_path, HydSystem *sys, double t, const double *y, const char *path)
{
  g_autoptr (GError) error = NULL;
  guint n = hyd_system_get_n_states (sys);
  guint nnz;
  const guint *colptr, *rowind;
  hyd_system_get_pattern (sys, &nnz, &colptr, &rowind);
  g_autofree double *values = g_new0 (double, nnz + 1);
  if (n > 0 && hyd_system_jacobian_sparse (sys, t, y, values, NULL) != 0)
    return hyd_cli_failed ("%s: the Jacobian cannot be evaluated at t = %g s (a value is not finite)",
                           hyd_cli_qpath (circuit_path), t);
  /* row-major order: the transpose of the compressed columns */
  g_autofree guint *rowptr = g_new0 (guint, n + 2);
  g_autofree guint *colind = g_new0 (guint, nnz + 1);
  g_autofree guint *where = g_new0 (guint, nnz + 1);
  for (guint k = 0; k < nnz; k++)
    rowptr[rowind[k] + 1]++;
  for (guint i = 0; i < n; i++)
    rowptr[i + 1] += rowptr[i];
  g_autofree guint *fill = g_memdup2 (rowptr, (n + 1) * sizeof (guint));
  for (guint j = 0; j < n; j++)
    for (guint k = colptr[j]; k < colptr[j + 1]; k++)
      {
        guint at = fill[rowind[k]]++;
        colind[at] = j;
        where[at] = k;
      }
  g_autoptr (GPtrArray) comps = g_ptr_array_new_with_free_func (g_free);
  for (guint k = 0; k < n; k++)
    g_ptr_array_add (comps, state_components_text (sys, k));

  g_autoptr (HydCliOutput) out = hyd_cli_output_open (path, &error);
  if (out == NULL)
    return hyd_cli_failed_error (error);
  hyd_cli_output_puts (out, "row,col,row_state,col_state,row_component,col_component,value\n");
  g_autoptr (GString) line = g_string_new (NULL);
  for (guint i = 0; i < n && hyd_cli_output_error (out) == 0; i++)
    for (guint a = rowptr[i]; a < rowptr[i + 1]; a++)
      {
        guint j = colind[a];
        char num[G_ASCII_DTOSTR_BUF_SIZE];
        g_string_printf (line, "%u,%u,", i, j);
        csv_field (line, hyd_system_get_state_name (sys, i));
        g_string_append_c (line, ',');
        csv_field (line, hyd_system_get_state_name (sys, j));
        g_string_append_c (line, ',');
        csv_field (line, g_ptr_array_index (comps, i));
        g_string_append_c (line, ',');
        csv_field (line, g_ptr_array_index (comps, j));
        g_string_append_printf (line, ",%s\n", g_ascii_formatd (num, sizeof num, "%.17g", values[where[a]]));
        hyd_cli_output_puts (out, line->str);
      }
  if (!hyd_cli_output_commit (g_steal_pointer (&out), &error))
    return hyd_cli_failed_error (error);
  return HYD_CLI_EXIT_OK;
}

static int
run (int argc, char **argv)
{
  g_autofree char *csv_path = NULL;
  g_autofree char *at_s = NULL;
  GOptionEntry entries[] = {
    { "sparsity-csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_path,
      "Also write every structural non-zero of the Jacobian with its value to FILE (CSV: row, col, "
      "row_state, col_state, row_component, col_component, value)", "FILE" },
    { "at", 0, 0, G_OPTION_ARG_STRING, &at_s,
      "With --sparsity-csv: the values at time T (s) of a run with the default solver (default 0: the "
      "initial state)", "T" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("CIRCUIT — print the assembled system");
  g_option_context_add_main_entries (ctx, entries, NULL);
  int st = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  if (st)
    return st;
  if (argc != 2)
    return hyd_cli_usage_error (ctx, "describe takes one CIRCUIT file");
  double at = 0;
  if (at_s && csv_path == NULL)
    return hyd_cli_usage_error (ctx, "--at sets the moment of --sparsity-csv: give --sparsity-csv FILE too");
  if (at_s && !hyd_cli_parse_double ("--at", at_s, 0, HYD_CLI_MAX_TIME, 0, "s", &at))
    return HYD_CLI_EXIT_USAGE;
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

  if (csv_path == NULL)
    return HYD_CLI_EXIT_OK;
  if (at == 0)
    return write_sparsity_csv (argv[1], sys, 0.0, y0, csv_path);
  g_auto (HydSimOptions) sim = { 0 };
  if (!hyd_circuit_get_sim_options (circuit, &sim, &error))
    return hyd_cli_failed_error (error);
  g_autoptr (HydOperatingPoint) op = hyd_operating_point_run (sys, &sim, at, NULL, &error);
  if (op == NULL)
    return hyd_cli_failed ("%s: %s", hyd_cli_qpath (argv[1]), error->message);
  return write_sparsity_csv (argv[1], sys, op->t, op->y, csv_path);
}

const HydCliCommand hyd_cli_describe_command = {
  "describe", "print states, nodes, Jacobian pattern and eigenvalues", run,
};
