/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-linearize.c — `bramah-cli linearize CIRCUIT --at T --input ID.PARAM
 * --output VAR [--bode FMIN:FMAX:N] [--step DURATION:N] [--csv]`: the
 * linear model of one input and one output around the state a run reaches
 * at T (docs/cli.md, docs/analysis.md): A, B, C, D, poles, zeros, the
 * frequency response and the step response of the linear model. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli-circuit.h"
#include "cli-commands.h"
#include "hyd-eigen.h"
#include "hyd-linearize.h"
#include "hyd-system.h"

#define MAX_POINTS 100000  /* --bode N, --step N */
#define MAX_PRINTED_STATES 12  /* A, B, C printed in full up to this size */

/* "A:B:N" → a, b (finite, 0 < a < b when strictly_positive, else 0 < b)
 * and N in [2, MAX_POINTS]. */
static gboolean
parse_range (const char *option, const char *text, gboolean two_ends, double *a, double *b, gint64 *n)
{
  g_auto (GStrv) parts = g_strsplit (text, ":", -1);
  guint want = two_ends ? 3 : 2;
  if (g_strv_length (parts) != want)
    {
      hyd_cli_print_error (two_ends ? "--bode must be FMIN:FMAX:N (Hz, Hz, points), e.g. 1:1000:400"
                                    : "--step must be DURATION:N (s, steps), e.g. 0.1:1000");
      return FALSE;
    }
  g_autofree char *opt_a = g_strdup_printf ("%s (%s)", option, two_ends ? "FMIN" : "DURATION");
  g_autofree char *opt_b = g_strdup_printf ("%s (FMAX)", option);
  g_autofree char *opt_n = g_strdup_printf ("%s (N)", option);
  if (!hyd_cli_parse_double (opt_a, parts[0], 0, two_ends ? 1e12 : HYD_CLI_MAX_TIME, HYD_CLI_MIN_EXCLUSIVE,
                             two_ends ? "Hz" : "s", a))
    return FALSE;
  if (two_ends)
    {
      if (!hyd_cli_parse_double (opt_b, parts[1], *a, 1e12, HYD_CLI_MIN_EXCLUSIVE, "Hz", b))
        return FALSE;
    }
  return hyd_cli_parse_int (opt_n, parts[want - 1], 2, MAX_POINTS, n);
}

static void
print_pole (const HydSpectrum *s, guint i)
{
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
  printf ("  %14s %14si", g_ascii_formatd (a, sizeof a, "%.8g", s->re[i]),
          g_ascii_formatd (b, sizeof b, "%+.8g", s->im[i]));
  if (s->zero[i])
    printf ("  zero within rounding\n");
  else if (s->im[i] != 0)
    {
      double wn = hypot (s->re[i], s->im[i]);
      printf ("  f_n = %s Hz, ζ = %s\n", g_ascii_formatd (a, sizeof a, "%.6g", wn / (2 * G_PI)),
              g_ascii_formatd (b, sizeof b, "%.4g", -s->re[i] / wn));
    }
  else
    printf ("  τ = %s s%s\n", g_ascii_formatd (a, sizeof a, "%.6g", fabs (1 / s->re[i])),
            s->re[i] > 0 ? " (unstable)" : "");
}

static void
print_vector (const char *label, const double *v, guint n)
{
  printf ("%s", label);
  for (guint i = 0; i < n; i++)
    printf (" %12.6g", v[i]);
  printf ("\n");
}

static int
run (int argc, char **argv)
{
  g_autofree char *at_s = NULL, *input = NULL, *output = NULL, *bode_s = NULL, *step_s = NULL;
  gboolean csv = FALSE;
  GOptionEntry entries[] = {
    { "at", 0, 0, G_OPTION_ARG_STRING, &at_s,
      "Run the circuit to time T (s) with the default solver and linearise there (default 0)", "T" },
    { "input", 0, 0, G_OPTION_ARG_STRING, &input,
      "The input: a number parameter of a component (a profile's value at T), e.g. C1.load_force", "ID.PARAM" },
    { "output", 0, 0, G_OPTION_ARG_STRING, &output, "The output: any variable, e.g. C1.x or V1.P.p", "VAR" },
    { "bode", 0, 0, G_OPTION_ARG_STRING, &bode_s,
      "Frequency response at N frequencies spaced logarithmically from FMIN to FMAX Hz", "FMIN:FMAX:N" },
    { "step", 0, 0, G_OPTION_ARG_STRING, &step_s,
      "Step response of the linear model to a unit step of the input, N steps over DURATION s", "DURATION:N" },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv,
      "Write only the table of --bode or --step as CSV", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("CIRCUIT — the linear model of one input and one output");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx,
    "ẋ = A·x + B·u, y = C·x + D·u around the state at T: A is the analytic Jacobian; B, C and D are central "
    "differences. Prints the poles (eigenvalues of A), the zeros, and with --bode the magnitude (dB of the "
    "output's SI unit per the input's) and phase; --csv writes the Bode table as frequency_hz, magnitude_db, "
    "phase_deg, phase_unwrapped_deg, or the step table as t, output (docs/analysis.md).");
  int st = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  if (st)
    return st;
  if (argc != 2)
    return hyd_cli_usage_error (ctx, "linearize takes one CIRCUIT file");
  if (input == NULL || output == NULL)
    return hyd_cli_usage_error (ctx, "linearize needs --input ID.PARAM and --output VAR");
  const char *dot = strchr (input, '.');
  if (dot == NULL || dot == input || dot[1] == '\0')
    return hyd_cli_usage_error (ctx, "--input must be COMPONENT.PARAMETER, e.g. C1.load_force, not '%s'",
                                hyd_cli_q (input));
  g_autofree char *comp_id = g_strndup (input, dot - input);
  const char *param = dot + 1;
  double at = 0;
  if (at_s && !hyd_cli_parse_double ("--at", at_s, 0, HYD_CLI_MAX_TIME, 0, "s", &at))
    return HYD_CLI_EXIT_USAGE;
  double fmin = 0, fmax = 0, duration = 0, unused;
  gint64 n_bode = 0, n_step = 0;
  if (bode_s && !parse_range ("--bode", bode_s, TRUE, &fmin, &fmax, &n_bode))
    return HYD_CLI_EXIT_USAGE;
  if (step_s && !parse_range ("--step", step_s, FALSE, &duration, &unused, &n_step))
    return HYD_CLI_EXIT_USAGE;
  if (csv && (bode_s != NULL) == (step_s != NULL))
    return hyd_cli_usage_error (ctx, "--csv writes one table: give either --bode or --step with it");

  g_auto (HydSimOptions) sim = { 0 };
  g_autoptr (HydSystem) sys = hyd_cli_compile_circuit (argv[1], NULL, &sim, &st);
  if (!sys)
    return st;
  guint n = hyd_system_get_n_states (sys);
  g_autoptr (GError) error = NULL;
  /* the request first, before a run: an unknown input or output */
  if (!hyd_system_check_override (sys, comp_id, param, 0.0, &error))
    return hyd_cli_failed ("--input %s: %s", hyd_cli_q (input), error->message);
  if (hyd_system_find_variable (sys, output) < 0)
    return hyd_cli_failed ("--output: there is no variable '%s' in %s (a name as `simulate --vars` takes it: "
                           "C1.x, V1.P.p, OR1.A.q)", hyd_cli_q (output), hyd_cli_qpath (argv[1]));
  g_autoptr (HydOperatingPoint) op = hyd_cli_run_to (argv[1], "linearize", "works with dense matrices", sys, &sim,
                                                     at, &st);
  if (op == NULL)
    return st;
  g_autoptr (HydLinearModel) m = hyd_linearize (sys, &sim, op->t, op->y, comp_id, param, output, &error);
  if (m == NULL)
    return hyd_cli_failed ("%s: %s", hyd_cli_qpath (argv[1]), error->message);

  if (!csv)
    {
      char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
      printf ("linearize %s at t = %g s: input %s = %s, output %s = %s %s\n", hyd_cli_qpath (argv[1]), op->t,
              hyd_cli_q (input), g_ascii_formatd (a, sizeof a, "%.8g", m->u0), hyd_cli_q (output),
              g_ascii_formatd (b, sizeof b, "%.8g", m->y0), hyd_unit_symbol (m->output_unit));
      printf ("States (%u):", n);
      for (guint i = 0; i < n; i++)
        printf (" %s", hyd_cli_q (hyd_system_get_state_name (sys, i)));
      printf ("\n");
      if (n > 0 && n <= MAX_PRINTED_STATES)
        {
          printf ("A (analytic Jacobian):\n");
          for (guint i = 0; i < n; i++)
            {
              printf (" ");
              for (guint j = 0; j < n; j++)
                printf (" %12.6g", m->A[i + (gsize) j * n]);
              printf ("\n");
            }
          print_vector ("B (central difference in the input):\n ", m->B, n);
          print_vector ("C (central differences in the states):\n ", m->C, n);
        }
      printf ("D: %.8g\n", m->D);
      g_autoptr (HydSpectrum) s = hyd_spectrum_compute (m->A, n, &error);
      if (s == NULL)
        return hyd_cli_failed ("%s: %s", hyd_cli_qpath (argv[1]), error->message);
      printf ("Poles (eigenvalues of A, 1/s):\n");
      for (guint i = 0; i < n; i++)
        print_pole (s, i);
      g_autofree double *zr = NULL, *zi = NULL;
      int nz = hyd_linear_model_zeros (m, &zr, &zi, &error);
      if (nz < 0)
        return hyd_cli_failed ("%s: %s", hyd_cli_qpath (argv[1]), error->message);
      printf ("Zeros (invariant zeros, 1/s; a mode the input does not reach or the output does not see "
              "is among them):%s\n", nz == 0 ? " none" : "");
      for (int k = 0; k < nz; k++)
        printf ("  %14s %14si\n", g_ascii_formatd (a, sizeof a, "%.8g", zr[k]),
                g_ascii_formatd (b, sizeof b, "%+.8g", zi[k]));
    }

  if (bode_s)
    {
      if (csv)
        printf ("frequency_hz,magnitude_db,phase_deg,phase_unwrapped_deg\n");
      else
        printf ("Frequency response (dB of the output's SI unit per the input's):\n"
                "  %14s %12s %12s %12s\n", "f (Hz)", "|G| (dB)", "phase (°)", "unwrapped (°)");
      double peak_db = -INFINITY, peak_f = NAN, prev = NAN, unwrapped = NAN;
      for (gint64 k = 0; k < n_bode; k++)
        {
          double f = fmin * pow (fmax / fmin, (double) k / (double) (n_bode - 1));
          double re, im;
          if (!hyd_linear_model_response (m, 2 * G_PI * f, &re, &im))
            re = im = NAN;
          double db = 20 * log10 (hypot (re, im)), ph = atan2 (im, re) * 180 / G_PI;
          if (isnan (unwrapped))
            unwrapped = ph;
          else if (!isnan (ph))
            {
              double d = ph - prev;
              d -= 360 * floor ((d + 180) / 360);
              unwrapped += d;
            }
          if (!isnan (ph))
            prev = ph;
          if (db > peak_db)
            {
              peak_db = db;
              peak_f = f;
            }
          char fb[G_ASCII_DTOSTR_BUF_SIZE], mb[G_ASCII_DTOSTR_BUF_SIZE], pb[G_ASCII_DTOSTR_BUF_SIZE],
            ub[G_ASCII_DTOSTR_BUF_SIZE];
          g_ascii_formatd (fb, sizeof fb, "%.10g", f);
          g_ascii_formatd (mb, sizeof mb, "%.10g", db);
          g_ascii_formatd (pb, sizeof pb, "%.10g", ph);
          g_ascii_formatd (ub, sizeof ub, "%.10g", unwrapped);
          if (csv)
            printf ("%s,%s,%s,%s\n", fb, mb, pb, ub);
          else
            printf ("  %14s %12.6g %12.6g %12.6g\n", fb, db, ph, unwrapped);
        }
      if (!csv && isfinite (peak_db))
        printf ("Largest magnitude: %.6g dB at %.6g Hz\n", peak_db, peak_f);
    }

  if (step_s)
    {
      g_autofree double *y = g_new (double, n_step + 1);
      if (!hyd_linear_model_step_response (m, duration, (guint) n_step, y, &error))
        return hyd_cli_failed ("%s: %s", hyd_cli_qpath (argv[1]), error->message);
      if (csv)
        printf ("t,output\n");
      else
        printf ("Step response of the linear model (output change per unit input step):\n  %14s %14s\n", "t (s)",
                "Δoutput");
      for (gint64 k = 0; k <= n_step; k++)
        {
          char tb[G_ASCII_DTOSTR_BUF_SIZE], yb[G_ASCII_DTOSTR_BUF_SIZE];
          g_ascii_formatd (tb, sizeof tb, "%.10g", duration * k / n_step);
          g_ascii_formatd (yb, sizeof yb, "%.10g", y[k]);
          printf (csv ? "%s,%s\n" : "  %14s %14s\n", tb, yb);
        }
    }
  return HYD_CLI_EXIT_OK;
}

const HydCliCommand hyd_cli_linearize_command = {
  "linearize", "the linear model of one input and one output: poles, zeros, Bode, step response", run,
};
