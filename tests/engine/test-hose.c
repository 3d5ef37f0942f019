/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-hose.c — the friction of hoses (docs/circuit-format.md, Version 3):
 * the law against Hagen–Poiseuille and Blasius worked by hand (White,
 * Fluid Mechanics, 7th ed., 2011, eqs. 6.12 and 6.55), the two-node model
 * run to its steady state, the assembled Jacobian against central
 * differences in all three regimes (dense and sparse assembly equal), the
 * default rule and the format version, the file round trip and the errors
 * that name the connection and the key. */
#include <math.h>
#include <string.h>

#include "hyd-circuit.h"
#include "hyd-diagnostic.h"
#include "hyd-run.h"
#include "hyd-system.h"

#define HEAD3 "{\"format\": \"bramah-circuit\", \"version\": 3, "

static HydCircuit *
load_ok (const char *json)
{
  g_autoptr (GError) error = NULL;
  HydCircuit *circuit = hyd_circuit_load_from_data (json, -1, "test.bramah", &error);
  g_assert_no_error (error);
  g_assert_nonnull (circuit);
  return circuit;
}

static HydSystem *
compile_ok (const char *json)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = load_ok (json);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  g_assert_nonnull (sys);
  return sys;
}

static double
value_at (HydSystem *sys, double t, const double *y, const char *name)
{
  int v = hyd_system_find_variable (sys, name);
  if (v < 0)
    g_error ("no variable %s", name);
  double value;
  g_assert_cmpint (hyd_system_eval_variables (sys, t, y, &v, 1, &value), ==, 0);
  return value;
}

/* ------------------------------------------------ the law, by hand */

/* A hose between two pressure sources (no state at all): the flow the
 * engine reports for Δp, against the closed forms. The default fluid:
 * ρ = 870 kg/m³, ν = 3.2e-5 m²/s, μ = ρν. */
static char *
two_sources (double p1, double p2, double length, double diameter, const char *fluid)
{
  return g_strdup_printf (
    HEAD3 "%s \"components\": ["
    "{\"id\": \"PS1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": %.17g}},"
    "{\"id\": \"PS2\", \"type\": \"pressure_source\", \"params\": {\"pressure\": %.17g}}],"
    "\"connections\": [{\"from\": \"PS1.P\", \"to\": \"PS2.P\", \"length\": %.17g, \"diameter\": %.17g}]}",
    fluid, p1, p2, length, diameter);
}

/* Laminar: Δp = 128·μ·L·q/(π·d⁴) (Hagen–Poiseuille, White eq. 6.12). */
static void
test_hagen_poiseuille (void)
{
  const double rho = 870, nu = 3.2e-5, mu = rho * nu, L = 5.0, d = 0.004;
  const double dps[] = { 1e3, 1e5, 4e5, -2.5e5 };
  for (guint k = 0; k < G_N_ELEMENTS (dps); k++)
    {
      g_autofree char *json = two_sources (1e6 + dps[k], 1e6, L, d, "");
      g_autoptr (HydSystem) sys = compile_ok (json);
      g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 0);
      double q = value_at (sys, 0, NULL, "PS1.P-PS2.P.q");
      double q_hp = dps[k] * G_PI * pow (d, 4) / (128.0 * mu * L);
      double re = 4 * fabs (q) / (G_PI * d * nu);
      g_test_message ("Δp %g Pa: q %.10g m³/s, Hagen–Poiseuille %.10g, Re %.1f", dps[k], q, q_hp, re);
      g_assert_cmpfloat (re, <, 2300);
      g_assert_cmpfloat (fabs (q - q_hp), <=, 1e-12 * fabs (q_hp));
      g_assert_cmpfloat (value_at (sys, 0, NULL, "PS1.P-PS2.P.dp"), ==, dps[k]);
      g_assert_cmpfloat (fabs (value_at (sys, 0, NULL, "PS1.P-PS2.P.Re") - re), <=, 1e-9 * re);
      /* the sources report the hose's flow: out of PS1, into PS2 */
      g_assert_cmpfloat (fabs (value_at (sys, 0, NULL, "PS1.flow") - q), <=, 1e-12 * fabs (q));
      g_assert_cmpfloat (fabs (value_at (sys, 0, NULL, "PS2.flow") + q), <=, 1e-12 * fabs (q));
    }
}

/* Turbulent: Δp = f·(L/d)·ρ·v²/2 with Blasius' f = 0.316·Re^(−1/4) (White
 * eq. 6.55), Re from 4000 to 1e5; water-like oil (ν = 1e-6 m²/s). */
static void
test_blasius (void)
{
  const double rho = 1000, nu = 1e-6, L = 10.0, d = 0.01;
  const double dps[] = { 5e3, 4e4, 2e5, -1e5 };
  guint n_checked = 0;
  for (guint k = 0; k < G_N_ELEMENTS (dps); k++)
    {
      g_autofree char *json = two_sources (2e6 + dps[k], 2e6, L, d,
                                           "\"fluid\": {\"density\": 1000, \"kinematic_viscosity\": 1e-6},");
      g_autoptr (HydSystem) sys = compile_ok (json);
      double q = value_at (sys, 0, NULL, "PS1.P-PS2.P.q");
      double v = 4 * fabs (q) / (G_PI * d * d);
      double re = v * d / nu;
      double f = 0.316 * pow (re, -0.25);
      double dp_hand = f * (L / d) * rho * v * v / 2;
      g_test_message ("Δp %g Pa: q %.10g m³/s, v %.4g m/s, Re %.0f, Blasius Δp %.10g Pa", dps[k], q, v, re,
                      dp_hand);
      g_assert_cmpfloat (re, >, 4000);
      g_assert_cmpfloat (re, <, 1e5);
      g_assert_true ((q > 0) == (dps[k] > 0));
      g_assert_cmpfloat (fabs (dp_hand - fabs (dps[k])), <=, 1e-11 * fabs (dps[k]));
      n_checked++;
    }
  g_assert_cmpuint (n_checked, ==, 4);
}

/* The transition (Re 2300–4000): the drop lies between the laminar and the
 * Blasius laws at the same flow, the flow rises with the drop, and flow and
 * conductance are continuous at both ends of the transition (one-sided
 * difference quotients of q(Δp) meet). */
static void
test_transition (void)
{
  const double L = 2.0, d = 0.01, rho = 1000, nu = 1e-6, mu = rho * nu;
  /* Π = 2·d³·Δp/(ρν²L) = 1000·Δp: laminar to Δp = 147.2 Pa, Blasius from 636.8 Pa */
  double last_q = 0;
  for (double dp = 50; dp <= 900; dp += 25)
    {
      g_autofree char *json = two_sources (1e5 + dp, 1e5, L, d,
                                           "\"fluid\": {\"density\": 1000, \"kinematic_viscosity\": 1e-6},");
      g_autoptr (HydSystem) sys = compile_ok (json);
      double q = value_at (sys, 0, NULL, "PS1.P-PS2.P.q");
      double re = 4 * q / (G_PI * d * nu), v = 4 * q / (G_PI * d * d);
      double lam = 128 * mu * L * q / (G_PI * pow (d, 4));
      double tur = 0.316 * pow (re, -0.25) * (L / d) * rho * v * v / 2;
      g_assert_cmpfloat (q, >, last_q);
      last_q = q;
      if (re > 2300 * (1 + 1e-9) && re < 4000 * (1 - 1e-9))
        {
          g_assert_cmpfloat (dp, >, lam);
          g_assert_cmpfloat (dp, <, tur);
        }
      else if (re <= 2300)
        g_assert_cmpfloat (fabs (dp - lam), <=, 1e-10 * dp);
      else
        g_assert_cmpfloat (fabs (dp - tur), <=, 1e-10 * dp);
    }
  /* continuity of q and ∂q/∂Δp at the seams Δp = 147.2 Pa and 0.3160·4000^1.75/1000 Pa */
  const double seams[] = { 147.2, 0.316 * pow (4000, 1.75) / 1000 };
  for (guint s = 0; s < 2; s++)
    {
      double qs[5];
      const double off[5] = { -2e-3, -1e-3, 0, 1e-3, 2e-3 };
      for (guint i = 0; i < 5; i++)
        {
          g_autofree char *json = two_sources (1e5 + seams[s] + off[i], 1e5, L, d,
                                               "\"fluid\": {\"density\": 1000, \"kinematic_viscosity\": 1e-6},");
          g_autoptr (HydSystem) sys = compile_ok (json);
          qs[i] = value_at (sys, 0, NULL, "PS1.P-PS2.P.q");
        }
      double left = (qs[2] - qs[0]) / 2e-3, right = (qs[4] - qs[2]) / 2e-3;
      g_test_message ("seam %g Pa: ∂q/∂Δp %.8g (below), %.8g (above)", seams[s], left, right);
      g_assert_cmpfloat (fabs (left - right), <=, 1e-4 * fabs (left));
      g_assert_cmpfloat (fabs ((qs[1] + qs[3]) / 2 - qs[2]), <=, 1e-8 * qs[2]);
    }
}

/* ----------------------------------------------- the two-node model */

typedef struct {
  GArray *rows;
  guint n;
} Rows;

static gboolean
keep_row (double t, const double *values, guint n, gpointer user)
{
  Rows *r = user;
  r->n = n + 1;
  g_array_append_val (r->rows, t);
  g_array_append_vals (r->rows, values, n);
  return TRUE;
}

/* The values of `names` at t_end (rtol 1e-9). */
static void
run_final (HydSystem *sys, const char *const *names, guint n_names, double t_end, double *final)
{
  HydSimOptions sim;
  g_autoptr (HydCircuit) empty = hyd_circuit_new ();
  g_assert_true (hyd_circuit_get_sim_options (empty, &sim, NULL));
  sim.t_end = t_end;
  sim.output_interval = t_end / 10;
  sim.rtol = 1e-9;
  for (guint k = 0; k < HYD_ATOL_N_KINDS; k++)
    sim.atol[k] *= 1e-9 / 1e-4;
  int vars[8];
  g_assert_cmpuint (n_names, <=, G_N_ELEMENTS (vars));
  for (guint k = 0; k < n_names; k++)
    {
      vars[k] = hyd_system_find_variable (sys, names[k]);
      if (vars[k] < 0)
        g_error ("no variable %s", names[k]);
    }
  Rows r = { g_array_new (FALSE, FALSE, sizeof (double)), 0 };
  HydRunSpec spec = { .sim = &sim, .vars = vars, .n_vars = n_names, .sample = keep_row, .user = &r };
  HydOdeResult res = { 0 };
  HydOdeStatus st = hyd_run_execute (sys, &spec, &res, NULL);
  if (st != HYD_ODE_SUCCESS)
    g_error ("run failed: %s", res.message);
  hyd_ode_result_clear (&res);
  hyd_sim_options_clear (&sim);
  memcpy (final, &g_array_index (r.rows, double, r.rows->len - n_names), n_names * sizeof (double));
  g_array_unref (r.rows);
}

/* A 20 bar source feeds an orifice to tank through two hoses joined at a
 * junction (3 m and 2 m of 4 mm hose): three nodes with state (the
 * junction's holds half of each hose), and at the steady state the flow
 * is the same everywhere and the whole drop is Hagen–Poiseuille's over
 * the 5 m. */
static void
test_steady_series (void)
{
  const double rho = 870, nu = 3.2e-5, mu = rho * nu, d = 0.004;
  g_autoptr (HydSystem) sys = compile_ok (
    HEAD3 "\"components\": ["
    "{\"id\": \"PS1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 2e6}},"
    "{\"id\": \"O1\", \"type\": \"orifice\", \"params\": {\"diameter\": 0.0012}},"
    "{\"id\": \"T1\", \"type\": \"tank\"}],"
    "\"junctions\": [{\"id\": \"J1\"}],"
    "\"connections\": [{\"from\": \"PS1.P\", \"to\": \"J1\", \"length\": 3, \"diameter\": 0.004},"
    "{\"from\": \"J1\", \"to\": \"O1.A\", \"length\": 2, \"diameter\": 0.004},"
    "{\"from\": \"O1.B\", \"to\": \"T1.T\", \"length\": 0}]}");
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 2);
  g_assert_cmpuint (hyd_system_get_n_nodes (sys), ==, 4);
  /* the junction's node is named after it; its volume is the hoses' halves */
  gboolean found = FALSE;
  for (guint b = 0; b < hyd_system_get_n_nodes (sys); b++)
    if (strcmp (hyd_system_get_node (sys, b)->name, "J1.p") == 0)
      {
        found = TRUE;
        g_assert_cmpuint (hyd_system_get_node (sys, b)->ports->len, ==, 1);
      }
  g_assert_true (found);
  const char *names[] = { "PS1.P-J1.q", "J1-O1.A.q", "O1.q", "PS1.P-J1.dp", "J1-O1.A.dp", "J1.p", "O1.A.p" };
  double v[G_N_ELEMENTS (names)];
  run_final (sys, names, G_N_ELEMENTS (names), 0.5, v);
  double q = v[2];
  g_test_message ("q %.10g m³/s; drops %.10g + %.10g Pa; J1 %.10g Pa, O1.A %.10g Pa", q, v[3], v[4], v[5], v[6]);
  g_assert_cmpfloat (q, >, 0);
  g_assert_cmpfloat (fabs (v[0] - q), <=, 1e-7 * q);
  g_assert_cmpfloat (fabs (v[1] - q), <=, 1e-7 * q);
  g_assert_cmpfloat (4 * q / (G_PI * d * nu), <, 2300);
  double drop = 2e6 - v[6];
  double hp = 128 * mu * 5.0 * q / (G_PI * pow (d, 4));
  g_assert_cmpfloat (fabs (drop - hp), <=, 1e-6 * hp);
  g_assert_cmpfloat (fabs (v[3] + v[4] - drop), <=, 1e-9 * drop);
  /* the drop divides as the lengths */
  g_assert_cmpfloat (fabs (v[3] / drop - 0.6), <=, 1e-6);
  g_assert_cmpfloat (fabs (2e6 - v[3] - v[5]), <=, 1e-6);
}

/* ------------------------------------------------- the Jacobian */

/* Dense Jacobian and ∂f/∂t against central differences at (t, y), and the
 * sparse assembly equal to the dense one in every entry of its pattern
 * (outside it the dense one is 0). */
static void
check_jacobian (HydSystem *sys, double t, const double *y)
{
  guint n = hyd_system_get_n_states (sys);
  g_autofree double *J = g_new0 (double, n * n);
  g_autofree double *ft = g_new0 (double, n);
  g_autofree double *yy = g_memdup2 (y, n * sizeof (double));
  g_autofree double *fp = g_new0 (double, n);
  g_autofree double *fm = g_new0 (double, n);
  g_assert_cmpint (hyd_system_jacobian (sys, t, y, J, ft), ==, 0);
  for (guint j = 0; j < n; j++)
    {
      double h = 1e-7 * MAX (fabs (y[j]), 1.0);
      yy[j] = y[j] + h;
      g_assert_cmpint (hyd_system_rhs (sys, t, yy, fp), ==, 0);
      yy[j] = y[j] - h;
      g_assert_cmpint (hyd_system_rhs (sys, t, yy, fm), ==, 0);
      yy[j] = y[j];
      for (guint i = 0; i < n; i++)
        {
          double scale = 0;
          for (guint c = 0; c < n; c++)
            scale = MAX (scale, fabs (J[i + c * n]));
          double D = (fp[i] - fm[i]) / (2 * h);
          if (fabs (J[i + j * n] - D) > 1e-6 * scale)
            g_error ("J[%s, %s] = %.10g, finite differences %.10g (row scale %.3g)",
                     hyd_system_get_state_name (sys, i), hyd_system_get_state_name (sys, j), J[i + j * n], D,
                     scale);
        }
    }
  guint nnz;
  const guint *colptr, *rowind;
  hyd_system_get_pattern (sys, &nnz, &colptr, &rowind);
  g_autofree double *values = g_new0 (double, nnz + 1);
  g_autofree double *ft2 = g_new0 (double, n);
  g_autofree double *seen = g_new0 (double, n * n);
  g_assert_cmpint (hyd_system_jacobian_sparse (sys, t, y, values, ft2), ==, 0);
  for (guint c = 0; c < n; c++)
    for (guint k = colptr[c]; k < colptr[c + 1]; k++)
      {
        g_assert_cmpfloat (values[k], ==, J[rowind[k] + c * n]);
        seen[rowind[k] + c * n] = 1;
      }
  for (guint k = 0; k < n * n; k++)
    if (!seen[k])
      g_assert_cmpfloat (J[k], ==, 0);
  for (guint i = 0; i < n; i++)
    g_assert_cmpfloat (ft2[i], ==, ft[i]);
}

/* A source, three hoses and an orifice to tank under water-like oil, at a
 * state where one hose is laminar, one in the transition and one
 * turbulent; under the default fluid ("cavitating": the chain rule through
 * p = F(ψ)) and under "constant". */
static void
test_jacobian (void)
{
  const char *models[] = { "cavitating", "constant" };
  for (guint m = 0; m < G_N_ELEMENTS (models); m++)
    {
      g_autofree char *json = g_strdup_printf (
        HEAD3 "\"fluid\": {\"density\": 1000, \"kinematic_viscosity\": 1e-6, \"bulk_modulus_model\": \"%s\"},"
        "\"components\": ["
        "{\"id\": \"PS1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 5e5}},"
        "{\"id\": \"O1\", \"type\": \"orifice\", \"params\": {\"diameter\": 0.003}},"
        "{\"id\": \"T1\", \"type\": \"tank\"}],"
        "\"junctions\": [{\"id\": \"J1\"}],"
        "\"connections\": [{\"from\": \"PS1.P\", \"to\": \"J1\", \"length\": 2, \"diameter\": 0.01},"
        "{\"from\": \"J1\", \"to\": \"O1.A\", \"length\": 2, \"diameter\": 0.01},"
        "{\"from\": \"O1.B\", \"to\": \"T1.T\", \"length\": 2, \"diameter\": 0.01}]}", models[m]);
      g_autoptr (HydSystem) sys = compile_ok (json);
      g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 3);
      /* states in node order: J1, O1.A, O1.B (Π = 1000·Δp: laminar below
       * 147 Pa, Blasius above 637 Pa) */
      double y[3] = { 0, 0, 0 };
      for (guint b = 0; b < hyd_system_get_n_nodes (sys); b++)
        {
          const HydNodeInfo *ni = hyd_system_get_node (sys, b);
          if (ni->boundary)
            continue;
          if (strcmp (ni->name, "J1.p") == 0)
            y[ni->state] = 4e5;      /* PS1 → J1: 1e5 Pa, turbulent */
          else if (strcmp (ni->name, "O1.A.p") == 0)
            y[ni->state] = 4e5 - 400; /* J1 → O1.A: 400 Pa, transition */
          else
            y[ni->state] = 100;      /* O1.B → T1: 100 Pa, laminar */
        }
      double re[3] = { value_at (sys, 0, y, "PS1.P-J1.Re"), value_at (sys, 0, y, "J1-O1.A.Re"),
                       value_at (sys, 0, y, "O1.B-T1.T.Re") };
      g_test_message ("%s: Re %.0f, %.0f, %.0f", models[m], re[0], re[1], re[2]);
      g_assert_cmpfloat (re[0], >, 4000);
      g_assert_cmpfloat (re[1], >, 2300);
      g_assert_cmpfloat (re[1], <, 4000);
      g_assert_cmpfloat (re[2], <, 2300);
      check_jacobian (sys, 0.0, y);
      /* and with the flows reversed */
      double yr[3] = { 6e5, 6e5 + 400, -100 };
      for (guint b = 0; b < hyd_system_get_n_nodes (sys); b++)
        {
          const HydNodeInfo *ni = hyd_system_get_node (sys, b);
          if (!ni->boundary)
            yr[ni->state] = strcmp (ni->name, "J1.p") == 0 ? 6e5 : strcmp (ni->name, "O1.A.p") == 0 ? 6e5 + 400 : -100;
        }
      check_jacobian (sys, 0.0, yr);
    }
}

/* ------------------------------------- the default rule and versions */

static gboolean
has_hose (HydSystem *sys, const char *name)
{
  return hyd_system_find_variable (sys, name) >= 0;
}

#define ORIFICE_CIRCUIT(version, conn0) \
  "{\"format\": \"bramah-circuit\", \"version\": " version ", \"components\": [" \
  "{\"id\": \"PS1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 2e6}}," \
  "{\"id\": \"O1\", \"type\": \"orifice\"}, {\"id\": \"T1\", \"type\": \"tank\"}]," \
  "\"connections\": [{\"from\": \"PS1.P\", \"to\": \"O1.A\"" conn0 "}," \
  "{\"from\": \"O1.B\", \"to\": \"T1.T\"}]}"

/* Version 3: on where the connection gives its length and diameter, off
 * where it gives neither or one (a volume), "friction" decides when given;
 * versions 1 and 2: never, whatever the keys say (the results of every
 * existing file stay as they were). */
static void
test_default_rule (void)
{
  static const struct {
    const char *json;
    gboolean hose;
  } cases[] = {
    { ORIFICE_CIRCUIT ("3", ", \"length\": 2, \"diameter\": 0.008"), TRUE },
    { ORIFICE_CIRCUIT ("3", ""), FALSE },
    { ORIFICE_CIRCUIT ("3", ", \"length\": 2"), FALSE },
    { ORIFICE_CIRCUIT ("3", ", \"diameter\": 0.008"), FALSE },
    { ORIFICE_CIRCUIT ("3", ", \"length\": 2, \"diameter\": 0.008, \"friction\": false"), FALSE },
    { ORIFICE_CIRCUIT ("3", ", \"length\": 2, \"friction\": true"), TRUE },
    { ORIFICE_CIRCUIT ("3", ", \"friction\": true"), TRUE },
    { ORIFICE_CIRCUIT ("3", ", \"length\": 0, \"diameter\": 0.008"), FALSE },
    { ORIFICE_CIRCUIT ("2", ", \"length\": 2, \"diameter\": 0.008"), FALSE },
    { ORIFICE_CIRCUIT ("2", ", \"length\": 2, \"diameter\": 0.008, \"friction\": true"), FALSE },
    { ORIFICE_CIRCUIT ("1", ", \"length\": 2, \"diameter\": 0.008, \"friction\": true"), FALSE },
  };
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autoptr (HydSystem) sys = compile_ok (cases[k].json);
      g_assert_cmpint (has_hose (sys, "PS1.P-O1.A.q"), ==, cases[k].hose);
      /* with friction the source's node and the orifice's are apart */
      g_assert_cmpuint (hyd_system_get_n_nodes (sys), ==, cases[k].hose ? 3 : 2);
    }

  /* a version 2 file and the same file in version 3 with "friction": false
   * (what saving writes) are the same system: same f at the same state */
#define TWO_ORIFICES(version) \
  "{\"format\": \"bramah-circuit\", \"version\": " version ", \"components\": [" \
  "{\"id\": \"PS1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": 2e6}}," \
  "{\"id\": \"O1\", \"type\": \"orifice\"}, {\"id\": \"O2\", \"type\": \"orifice\"}," \
  "{\"id\": \"T1\", \"type\": \"tank\"}]," \
  "\"connections\": [{\"from\": \"PS1.P\", \"to\": \"O1.A\"}," \
  "{\"from\": \"O1.B\", \"to\": \"O2.A\", \"length\": 2, \"diameter\": 0.008}," \
  "{\"from\": \"O2.B\", \"to\": \"T1.T\"}]}"
  g_autoptr (HydSystem) a = compile_ok (TWO_ORIFICES ("2"));
  g_autoptr (HydCircuit) c2 = load_ok (TWO_ORIFICES ("2"));
  g_autofree char *saved = hyd_circuit_to_data (c2, NULL);
  g_assert_nonnull (strstr (saved, "\"version\": 3"));
  g_assert_nonnull (strstr (saved, "\"friction\": false"));
  g_autoptr (HydSystem) b = compile_ok (saved);
  g_assert_cmpuint (hyd_system_get_n_states (a), ==, 1);
  g_assert_cmpuint (hyd_system_get_n_states (b), ==, 1);
  double y[1] = { 7e5 }, fa[1], fb[1];
  g_assert_cmpint (hyd_system_rhs (a, 0, y, fa), ==, 0);
  g_assert_cmpint (hyd_system_rhs (b, 0, y, fb), ==, 0);
  g_assert_cmpfloat (fa[0], !=, 0);
  g_assert_cmpfloat (fa[0], ==, fb[0]);
  /* and in version 3 as written the same hose has friction: two nodes */
  g_autoptr (HydSystem) c = compile_ok (TWO_ORIFICES ("3"));
  g_assert_cmpuint (hyd_system_get_n_states (c), ==, 2);
}

/* ---------------------------------------------- the file and errors */

static void
test_round_trip (void)
{
  static const char doc[] =
    "{\n"
    "  \"format\": \"bramah-circuit\",\n"
    "  \"version\": 3,\n"
    "  \"components\": [\n"
    "    {\n"
    "      \"id\": \"PS1\",\n"
    "      \"type\": \"pressure_source\"\n"
    "    },\n"
    "    {\n"
    "      \"id\": \"O1\",\n"
    "      \"type\": \"orifice\"\n"
    "    },\n"
    "    {\n"
    "      \"id\": \"T1\",\n"
    "      \"type\": \"tank\"\n"
    "    }\n"
    "  ],\n"
    "  \"connections\": [\n"
    "    {\n"
    "      \"from\": \"PS1.P\",\n"
    "      \"to\": \"O1.A\",\n"
    "      \"length\": 2.5,\n"
    "      \"diameter\": 0.008,\n"
    "      \"friction\": true,\n"
    "      \"x-note\": \"kept\"\n"
    "    },\n"
    "    {\n"
    "      \"from\": \"O1.B\",\n"
    "      \"to\": \"T1.T\",\n"
    "      \"length\": 1,\n"
    "      \"diameter\": 0.012,\n"
    "      \"friction\": false\n"
    "    }\n"
    "  ]\n"
    "}\n";
  g_autoptr (HydCircuit) c = load_ok (doc);
  HydCircuitConnection *c0 = g_ptr_array_index (c->connections, 0);
  HydCircuitConnection *c1 = g_ptr_array_index (c->connections, 1);
  g_assert_true (c0->has_friction && c0->friction);
  g_assert_true (c1->has_friction && !c1->friction);
  g_assert_false (json_object_has_member (c0->extra, "friction"));
  g_autofree char *text = hyd_circuit_to_data (c, NULL);
  g_assert_cmpstr (text, ==, doc);
  g_autoptr (HydCircuit) again = load_ok (text);
  g_assert_true (((HydCircuitConnection *) g_ptr_array_index (again->connections, 0))->friction);
  /* a copy keeps the key (the editor's undo and split copy connections) */
  g_autoptr (HydCircuit) copy = hyd_circuit_copy (c);
  g_autofree char *copy_text = hyd_circuit_to_data (copy, NULL);
  g_assert_cmpstr (copy_text, ==, doc);
}

static void
expect_error (const char *json, gboolean at_compile, const char *const *needles)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) c = hyd_circuit_load_from_data (json, -1, "test.bramah", &error);
  if (at_compile)
    {
      g_assert_no_error (error);
      g_autoptr (HydSystem) sys = hyd_system_compile (c, &error);
      g_assert_null (sys);
    }
  else
    g_assert_null (c);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  for (guint k = 0; needles[k]; k++)
    if (strstr (error->message, needles[k]) == NULL)
      g_error ("\"%s\" not in: %s", needles[k], error->message);
}

static void
test_errors (void)
{
  const char *const kind[] = { "connections[0]", "\"PS1.P\"", "\"O1.A\"", "\"friction\" must be true or false",
                               NULL };
  expect_error (ORIFICE_CIRCUIT ("3", ", \"friction\": \"yes\""), FALSE, kind);
  expect_error (ORIFICE_CIRCUIT ("3", ", \"friction\": 1"), FALSE, kind);
  expect_error (ORIFICE_CIRCUIT ("3", ", \"friction\": null"), FALSE, kind);
  const char *const zero[] = { "connections[0]", "\"friction\" is true but \"length\" is 0", NULL };
  expect_error (ORIFICE_CIRCUIT ("3", ", \"length\": 0, \"friction\": true"), FALSE, zero);
  /* in a version 2 file the key is an unknown key: kept, meaning nothing */
  g_autoptr (HydCircuit) v2 = load_ok (ORIFICE_CIRCUIT ("2", ", \"friction\": \"yes\""));
  g_autofree char *v2_text = hyd_circuit_to_data (v2, NULL);
  g_assert_nonnull (strstr (v2_text, "\"friction\": false"));
  /* on a mechanical connection it is an error (at compile, where domains
   * are known), naming the connection and the key */
  const char *const mech[] = { "connections[0]", "\"M1.A\"", "\"S1.A\"", "\"friction\"", "translational", NULL };
  expect_error (HEAD3 "\"components\": [{\"id\": \"M1\", \"type\": \"mass\"}, {\"id\": \"S1\", \"type\": \"spring\"},"
                "{\"id\": \"X1\", \"type\": \"fixed_point\"}],"
                "\"connections\": [{\"from\": \"M1.A\", \"to\": \"S1.A\", \"friction\": true},"
                "{\"from\": \"S1.B\", \"to\": \"X1.A\"}]}", TRUE, mech);
  /* the default rule passes a mechanical connection with a length and a
   * diameter by */
  g_autoptr (HydSystem) sys = compile_ok (
    HEAD3 "\"components\": [{\"id\": \"M1\", \"type\": \"mass\"}, {\"id\": \"S1\", \"type\": \"spring\"},"
    "{\"id\": \"X1\", \"type\": \"fixed_point\"}],"
    "\"connections\": [{\"from\": \"M1.A\", \"to\": \"S1.A\", \"length\": 1, \"diameter\": 0.01},"
    "{\"from\": \"S1.B\", \"to\": \"X1.A\"}]}");
  g_assert_cmpint (hyd_system_find_variable (sys, "M1.A-S1.A.q"), <, 0);
}

/* The lint sees a hose as part of a line: a relief valve at the end of a
 * hose from its pump is still on the pump's line (and rated below its 15
 * L/min here), and a check valve at the end of a hose from a tank is still
 * a make-up valve (with the 0.5 + 2 bar defaults it can never open fully). */
static guint
count_code (HydSystem *sys, HydDiagnosticCode code)
{
  GPtrArray *diags = hyd_system_get_diagnostics (sys);
  guint n = 0;
  for (guint k = 0; k < diags->len; k++)
    n += ((HydDiagnostic *) g_ptr_array_index (diags, k))->code == code;
  return n;
}

static void
test_lint (void)
{
  const char *frictions[] = { "true", "false" };
  for (guint k = 0; k < 2; k++)
    {
      g_autofree char *json = g_strdup_printf (
        HEAD3 "\"components\": ["
        "{\"id\": \"T1\", \"type\": \"tank\"}, {\"id\": \"PU1\", \"type\": \"fixed_pump\"},"
        "{\"id\": \"RV1\", \"type\": \"relief_valve\", \"params\": {\"nominal_flow\": 1e-4}},"
        "{\"id\": \"T2\", \"type\": \"tank\"}, {\"id\": \"T3\", \"type\": \"tank\"},"
        "{\"id\": \"CV1\", \"type\": \"check_valve\"}, {\"id\": \"V1\", \"type\": \"volume\"},"
        "{\"id\": \"O1\", \"type\": \"orifice\"}],"
        "\"connections\": [{\"from\": \"T1.T\", \"to\": \"PU1.S\"},"
        "{\"from\": \"PU1.P\", \"to\": \"RV1.P\", \"length\": 1, \"diameter\": 0.01, \"friction\": %s},"
        "{\"from\": \"RV1.T\", \"to\": \"T2.T\"},"
        "{\"from\": \"T3.T\", \"to\": \"CV1.A\", \"length\": 1, \"diameter\": 0.01, \"friction\": %s},"
        "{\"from\": \"CV1.B\", \"to\": \"V1.P\"}, {\"from\": \"V1.P2\", \"to\": \"O1.A\"},"
        "{\"from\": \"O1.B\", \"to\": \"T2.T\"}]}", frictions[k], frictions[k]);
      g_autoptr (HydSystem) sys = compile_ok (json);
      g_assert_cmpint (hyd_system_find_variable (sys, "PU1.P-RV1.P.q") >= 0, ==, k == 0);
      g_assert_cmpuint (count_code (sys, HYD_DIAGNOSTIC_RELIEF_UNDERRATED), ==, 1);
      g_assert_cmpuint (count_code (sys, HYD_DIAGNOSTIC_MAKEUP_VALVE), ==, 1);
      g_assert_cmpuint (count_code (sys, HYD_DIAGNOSTIC_NO_RELIEF_PATH), ==, 0);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/hose/law/hagen-poiseuille", test_hagen_poiseuille);
  g_test_add_func ("/engine/hose/law/blasius", test_blasius);
  g_test_add_func ("/engine/hose/law/transition", test_transition);
  g_test_add_func ("/engine/hose/steady-series", test_steady_series);
  g_test_add_func ("/engine/hose/jacobian", test_jacobian);
  g_test_add_func ("/engine/hose/default-rule", test_default_rule);
  g_test_add_func ("/engine/hose/round-trip", test_round_trip);
  g_test_add_func ("/engine/hose/errors", test_errors);
  g_test_add_func ("/engine/hose/lint", test_lint);
  return g_test_run ();
}
