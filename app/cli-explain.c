/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-explain.c — `bramah-cli explain CIRCUIT [--at T] [--json]`: why a
 * circuit is stiff at a moment of its run (docs/cli.md, docs/analysis.md).
 * The eigenvalues of the analytic Jacobian there, each with its time
 * constant or frequency and damping, the states and components that take
 * part in it (participation factors), the stiffness ratio, and a summary:
 * the step an explicit method would be held under, and the step the solver
 * took. */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli-circuit.h"
#include "cli-commands.h"
#include "hyd-eigen.h"
#include "hyd-json-writer.h"
#include "hyd-linearize.h"
#include "hyd-system.h"

/* States whose participation in a mode is shown in the text (the JSON has
 * all of at least JSON_MIN_SHARE). */
#define TEXT_MIN_SHARE 0.05
#define TEXT_MAX_STATES 3
#define JSON_MIN_SHARE 1e-3

/* A time in s with an SI prefix: "84.2 µs", "2.1 ms", "3.5 s". */
static const char *
format_time (char buf[32], double s)
{
  static const struct { double f; const char *u; } units[] = {
    { 1, "s" }, { 1e-3, "ms" }, { 1e-6, "µs" }, { 1e-9, "ns" },
  };
  if (!isfinite (s))
    {
      g_strlcpy (buf, isnan (s) ? "—" : "∞", 32);
      return buf;
    }
  guint k = 0;
  while (k + 1 < G_N_ELEMENTS (units) && fabs (s) < units[k].f)
    k++;
  char num[G_ASCII_DTOSTR_BUF_SIZE];
  g_snprintf (buf, 32, "%s %s", g_ascii_formatd (num, sizeof num, "%.3g", s / units[k].f), units[k].u);
  return buf;
}

/* Modes in the order shown: fastest (largest |λ|) first, zero eigenvalues
 * last; of a complex pair only the member with Im λ > 0. */
static int
compare_modes (gconstpointer a, gconstpointer b, gpointer user)
{
  const HydSpectrum *s = user;
  guint i = *(const guint *) a, j = *(const guint *) b;
  if (s->zero[i] != s->zero[j])
    return s->zero[i] ? 1 : -1;
  double mi = hypot (s->re[i], s->im[i]), mj = hypot (s->re[j], s->im[j]);
  return mi > mj ? -1 : mi < mj ? 1 : (i > j) - (i < j);
}

static GArray *
mode_order (const HydSpectrum *s)
{
  GArray *order = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < s->n; i++)
    if (!(s->im[i] < 0))
      g_array_append_val (order, i);
  g_array_sort_with_data (order, compare_modes, (gpointer) s);
  return order;
}

typedef struct {
  char *id;
  double share;
} CompShare;

static void
comp_share_clear (gpointer p)
{
  g_free (((CompShare *) p)->id);
}

static int
compare_shares (gconstpointer a, gconstpointer b)
{
  double x = ((const CompShare *) a)->share, y = ((const CompShare *) b)->share;
  return x > y ? -1 : x < y ? 1 : strcmp (((const CompShare *) a)->id, ((const CompShare *) b)->id);
}

/* The components of mode i, largest share first: each component's share is
 * the sum of the participation of the states it makes (a node pressure
 * counts for every component on the node). */
static GArray *
mode_components (const HydSpectrum *s, GPtrArray *state_comps, guint i)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (CompShare));
  g_array_set_clear_func (out, comp_share_clear);
  const double *p = s->participation + (gsize) i * s->n;
  for (guint k = 0; k < s->n; k++)
    {
      GPtrArray *ids = g_ptr_array_index (state_comps, k);
      for (guint c = 0; c < ids->len; c++)
        {
          const char *id = g_ptr_array_index (ids, c);
          guint j = 0;
          while (j < out->len && strcmp (g_array_index (out, CompShare, j).id, id) != 0)
            j++;
          if (j == out->len)
            {
              CompShare cs = { g_strdup (id), 0 };
              g_array_append_val (out, cs);
            }
          g_array_index (out, CompShare, j).share += p[k];
        }
    }
  g_array_sort (out, compare_shares);
  return out;
}

/* What state k is, in words: "the node of M1.A, DCV1.A" or its name. */
static char *
describe_state (const HydSystem *sys, guint k)
{
  const HydNodeInfo *ni = hyd_system_state_node (sys, k);
  if (ni == NULL)
    return g_strdup (hyd_system_get_state_name (sys, k));
  GString *s = g_string_new ("the pressure of the node of ");
  for (guint j = 0; j < ni->ports->len && j < 4; j++)
    g_string_append_printf (s, "%s%s", j ? ", " : "", hyd_cli_q (g_ptr_array_index (ni->ports, j)));
  if (ni->ports->len > 4)
    g_string_append (s, ", …");
  return g_string_free (s, FALSE);
}

/* The decaying mode with the smallest forward-Euler step limit, or −1. */
static int
limiting_mode (const HydSpectrum *s, double *limit)
{
  int best = -1;
  *limit = INFINITY;
  for (guint i = 0; i < s->n; i++)
    {
      double h = hyd_spectrum_euler_step_limit (s, i);
      if (!s->zero[i] && s->re[i] < 0 && h < *limit)
        {
          *limit = h;
          best = (int) i;
        }
    }
  return best;
}

static void
print_mode_line (const HydSystem *sys, const HydSpectrum *s, GPtrArray *state_comps, guint i, guint rank)
{
  char a[32], num[G_ASCII_DTOSTR_BUF_SIZE], num2[G_ASCII_DTOSTR_BUF_SIZE], num3[G_ASCII_DTOSTR_BUF_SIZE];
  if (s->im[i] != 0)
    printf ("  %2u  λ = %s ± %si", rank, g_ascii_formatd (num, sizeof num, "%.6g", s->re[i]),
            g_ascii_formatd (num2, sizeof num2, "%.6g", fabs (s->im[i])));
  else
    printf ("  %2u  λ = %s", rank, g_ascii_formatd (num, sizeof num, "%.6g", s->re[i]));
  printf (" 1/s\n");
  if (s->zero[i])
    printf ("      zero within rounding (|λ| ≤ %s): a conserved or unused quantity, not a mode\n",
            g_ascii_formatd (num, sizeof num, "%.2g", s->bound[i]));
  else if (s->im[i] != 0)
    {
      double wn = hypot (s->re[i], s->im[i]);
      printf ("      oscillation: f = %s Hz (ω_d = %s rad/s), ω_n = %s rad/s, damping ζ = %s\n",
              g_ascii_formatd (num, sizeof num, "%.4g", fabs (s->im[i]) / (2 * G_PI)),
              g_ascii_formatd (num2, sizeof num2, "%.4g", fabs (s->im[i])),
              g_ascii_formatd (a, sizeof a, "%.4g", wn),
              g_ascii_formatd (num3, sizeof num3, "%.3g", -s->re[i] / wn));
    }
  else if (s->re[i] < 0)
    printf ("      decays with time constant τ = %s\n", format_time (a, -1 / s->re[i]));
  else
    printf ("      grows with time constant %s (unstable here)\n", format_time (a, 1 / s->re[i]));
  if (s->zero[i])
    return;
  guint top[TEXT_MAX_STATES];
  guint m = hyd_spectrum_top_states (s, i, TEXT_MIN_SHARE, top, TEXT_MAX_STATES);
  printf ("      states:");
  for (guint k = 0; k < m; k++)
    printf ("%s %s %.0f %%", k ? "," : "", hyd_cli_q (hyd_system_get_state_name (sys, top[k])),
            100 * s->participation[top[k] + (gsize) i * s->n]);
  printf ("\n      components:");
  g_autoptr (GArray) comps = mode_components (s, state_comps, i);
  for (guint k = 0; k < comps->len && k < 5; k++)
    {
      CompShare *c = &g_array_index (comps, CompShare, k);
      if (k > 0 && c->share < TEXT_MIN_SHARE)
        break;
      printf ("%s %s", k ? "," : "", hyd_cli_q (c->id));
    }
  printf ("\n");
}

static void
print_summary (const HydSystem *sys, const HydSpectrum *s, const HydOperatingPoint *op)
{
  char a[32], b[32];
  double limit;
  int f = limiting_mode (s, &limit);
  printf ("Summary:\n");
  if (f < 0)
    {
      printf ("  No mode decays here: nothing limits an explicit method's step for stability.\n");
      return;
    }
  guint top[1];
  hyd_spectrum_top_states (s, f, 0.0, top, 1);
  g_autofree char *what = describe_state (sys, top[0]);
  double share = s->participation[top[0] + (gsize) f * s->n];
  if (s->im[f] != 0)
    printf ("  The mode that limits an explicit method is an oscillation at %.4g Hz with damping "
            "ζ = %.3g, made mostly (%.0f %%) of %s.\n",
            fabs (s->im[f]) / (2 * G_PI), -s->re[f] / hypot (s->re[f], s->im[f]), 100 * share, what);
  else
    printf ("  The fastest mode has a time constant of %s and is made mostly (%.0f %%) of %s.\n",
            format_time (a, -1 / s->re[f]), 100 * share, what);
  printf ("  An explicit method would need steps under %s here (forward Euler's stability limit "
          "−2·Re λ/|λ|²; the classical Runge–Kutta method of order 4 allows about 1.4 times that on the "
          "real axis).\n",
          format_time (b, limit));
  const HydSolverInfo *info = hyd_solver_lookup (op->solver);
  if (!isfinite (op->h_last))
    printf ("  (Give --at T > 0 to see the step %s takes at T.)\n", op->solver);
  else
    {
      printf ("  %s's last accepted step before t = %g s was %s, %.3g times that limit", op->solver, op->t,
              format_time (a, op->h_last), op->h_last / limit);
      if (op->h_last > limit && info && info->implicit)
        printf (": an implicit method is not held under it%s; accuracy, not this mode, sets its step.\n",
                strcmp (op->solver, "rodas4") == 0 || strcmp (op->solver, "radau5") == 0
                  ? " (it is L-stable: Hairer & Wanner 1996, §IV.3)" : "");
      else
        printf (".\n");
    }
}

static JsonNode *
build_json (const char *path, const HydSystem *sys, const HydSpectrum *s, const HydOperatingPoint *op,
            GPtrArray *state_comps)
{
  g_autoptr (JsonBuilder) jb = json_builder_new ();
  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "circuit");
  json_builder_add_string_value (jb, path);
  json_builder_set_member_name (jb, "t");
  json_builder_add_double_value (jb, op->t);
  json_builder_set_member_name (jb, "solver");
  json_builder_add_string_value (jb, op->solver);
  json_builder_set_member_name (jb, "last_step");
  if (isfinite (op->h_last))
    json_builder_add_double_value (jb, op->h_last);
  else
    json_builder_add_null_value (jb);
  guint n_zero;
  double ratio = hyd_spectrum_stiffness_ratio (s, &n_zero);
  json_builder_set_member_name (jb, "stiffness_ratio");
  if (isfinite (ratio))
    json_builder_add_double_value (jb, ratio);
  else
    json_builder_add_null_value (jb);
  json_builder_set_member_name (jb, "zero_eigenvalues");
  json_builder_add_int_value (jb, n_zero);
  double limit;
  int f = limiting_mode (s, &limit);
  json_builder_set_member_name (jb, "explicit_step_limit");
  if (f >= 0)
    json_builder_add_double_value (jb, limit);
  else
    json_builder_add_null_value (jb);
  json_builder_set_member_name (jb, "limiting_eigenvalue");
  if (f >= 0)
    json_builder_add_int_value (jb, f);
  else
    json_builder_add_null_value (jb);

  json_builder_set_member_name (jb, "states");
  json_builder_begin_array (jb);
  for (guint k = 0; k < s->n; k++)
    {
      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "name");
      json_builder_add_string_value (jb, hyd_system_get_state_name (sys, k));
      json_builder_set_member_name (jb, "value");
      json_builder_add_double_value (jb, op->y[k]);
      json_builder_set_member_name (jb, "components");
      json_builder_begin_array (jb);
      GPtrArray *ids = g_ptr_array_index (state_comps, k);
      for (guint c = 0; c < ids->len; c++)
        json_builder_add_string_value (jb, g_ptr_array_index (ids, c));
      json_builder_end_array (jb);
      json_builder_end_object (jb);
    }
  json_builder_end_array (jb);

  json_builder_set_member_name (jb, "eigenvalues");
  json_builder_begin_array (jb);
  for (guint i = 0; i < s->n; i++)
    {
      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "re");
      json_builder_add_double_value (jb, s->re[i]);
      json_builder_set_member_name (jb, "im");
      json_builder_add_double_value (jb, s->im[i]);
      json_builder_set_member_name (jb, "zero");
      json_builder_add_boolean_value (jb, s->zero[i]);
      double wn = hypot (s->re[i], s->im[i]);
      json_builder_set_member_name (jb, "time_constant");
      if (!s->zero[i] && s->re[i] != 0)
        json_builder_add_double_value (jb, -1 / s->re[i]);
      else
        json_builder_add_null_value (jb);
      json_builder_set_member_name (jb, "frequency_hz");
      json_builder_add_double_value (jb, fabs (s->im[i]) / (2 * G_PI));
      json_builder_set_member_name (jb, "damping");
      if (!s->zero[i] && s->im[i] != 0)
        json_builder_add_double_value (jb, -s->re[i] / wn);
      else
        json_builder_add_null_value (jb);
      json_builder_set_member_name (jb, "euler_step_limit");
      double h = hyd_spectrum_euler_step_limit (s, i);
      if (isfinite (h))
        json_builder_add_double_value (jb, h);
      else
        json_builder_add_null_value (jb);
      json_builder_set_member_name (jb, "states");
      json_builder_begin_array (jb);
      g_autofree guint *top = g_new (guint, MAX (s->n, 1));
      guint m = hyd_spectrum_top_states (s, i, JSON_MIN_SHARE, top, s->n);
      for (guint k = 0; k < m; k++)
        {
          json_builder_begin_object (jb);
          json_builder_set_member_name (jb, "state");
          json_builder_add_string_value (jb, hyd_system_get_state_name (sys, top[k]));
          json_builder_set_member_name (jb, "participation");
          json_builder_add_double_value (jb, s->participation[top[k] + (gsize) i * s->n]);
          json_builder_end_object (jb);
        }
      json_builder_end_array (jb);
      json_builder_set_member_name (jb, "components");
      json_builder_begin_array (jb);
      g_autoptr (GArray) comps = mode_components (s, state_comps, i);
      for (guint k = 0; k < comps->len; k++)
        {
          CompShare *c = &g_array_index (comps, CompShare, k);
          if (c->share < JSON_MIN_SHARE)
            break;
          json_builder_begin_object (jb);
          json_builder_set_member_name (jb, "id");
          json_builder_add_string_value (jb, c->id);
          json_builder_set_member_name (jb, "participation");
          json_builder_add_double_value (jb, c->share);
          json_builder_end_object (jb);
        }
      json_builder_end_array (jb);
      json_builder_end_object (jb);
    }
  json_builder_end_array (jb);
  json_builder_end_object (jb);
  return json_builder_get_root (jb);
}

static int
run (int argc, char **argv)
{
  g_autofree char *at_s = NULL;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "at", 0, 0, G_OPTION_ARG_STRING, &at_s,
      "Run the circuit to time T (s) with the default solver and explain that moment (default 0)", "T" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Write JSON: every eigenvalue with its states and components", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("CIRCUIT — explain what makes the circuit stiff");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx, "The eigenvalues of the analytic Jacobian at the moment, their time "
                                         "constants, frequencies and damping, the states and components that "
                                         "make each (participation factors), the stiffness ratio and the step "
                                         "an explicit method would need (docs/analysis.md).");
  int st = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  if (st)
    return st;
  if (argc != 2)
    return hyd_cli_usage_error (ctx, "explain takes one CIRCUIT file");
  double at = 0;
  if (at_s && !hyd_cli_parse_double ("--at", at_s, 0, HYD_CLI_MAX_TIME, 0, "s", &at))
    return HYD_CLI_EXIT_USAGE;
  g_auto (HydSimOptions) sim = { 0 };
  g_autoptr (HydSystem) sys = hyd_cli_compile_circuit (argv[1], NULL, &sim, &st);
  if (!sys)
    return st;
  guint n = hyd_system_get_n_states (sys);
  g_autoptr (HydOperatingPoint) op = hyd_cli_run_to (argv[1], "explain", "needs the dense eigenvectors of the Jacobian",
                                                     sys, &sim, at, &st);
  if (op == NULL)
    return st;
  g_autoptr (GError) error = NULL;
  g_autofree double *J = g_new0 (double, MAX ((gsize) n * n, 1));
  if (n > 0 && hyd_system_jacobian (sys, op->t, op->y, J, NULL) != 0)
    return hyd_cli_failed ("%s: the Jacobian cannot be evaluated at t = %g s", hyd_cli_qpath (argv[1]), op->t);
  g_autoptr (HydSpectrum) s = hyd_spectrum_compute (J, n, &error);
  if (s == NULL)
    return hyd_cli_failed ("%s: %s", hyd_cli_qpath (argv[1]), error->message);
  g_autoptr (GPtrArray) state_comps = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint k = 0; k < n; k++)
    g_ptr_array_add (state_comps, hyd_system_state_components (sys, k));

  if (json)
    {
      g_autoptr (JsonNode) root = build_json (argv[1], sys, s, op, state_comps);
      g_autofree char *text = hyd_json_to_string (root, NULL);
      fputs (text, stdout);
      return HYD_CLI_EXIT_OK;
    }

  char a[32];
  printf ("explain %s at t = %g s (%u states", hyd_cli_qpath (argv[1]), op->t, n);
  if (op->t > 0)
    printf ("; %s took %" G_GUINT64_FORMAT " steps to get there, the last before t of %s", op->solver, op->steps,
            format_time (a, op->h_last));
  printf (")\n");
  printf ("Modes (eigenvalues of the Jacobian), fastest first:\n");
  g_autoptr (GArray) order = mode_order (s);
  for (guint r = 0; r < order->len; r++)
    print_mode_line (sys, s, state_comps, g_array_index (order, guint, r), r + 1);
  guint n_zero;
  double ratio = hyd_spectrum_stiffness_ratio (s, &n_zero);
  if (isfinite (ratio))
    printf ("Stiffness ratio (max/min |Re λ| over decaying modes): %.4g", ratio);
  else
    printf ("Stiffness ratio: undefined (no decaying modes)");
  if (n_zero)
    printf (" (%u eigenvalue%s zero within rounding not counted)", n_zero, n_zero == 1 ? "" : "s");
  printf ("\n");
  print_summary (sys, s, op);
  return HYD_CLI_EXIT_OK;
}

const HydCliCommand hyd_cli_explain_command = {
  "explain", "the eigenvalues at a moment of a run: what makes the circuit stiff", run,
};
