/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-export-c.c — `bramah-cli export-c` (hyd_export_c, docs/export-c.md).
 *
 * Every example circuit that exports is compiled with the system C compiler
 * (`cc -O2 -std=c99 … -lm`, nothing else), and
 *  - f, the Jacobian and ∂f/∂t of the program (its --eval mode) equal the
 *    engine's to 1e-12 relative in every entry, at 21 points of the
 *    engine's rodas4 run and at 21 random points near them (each state
 *    moved by up to ±5 % of its size plus 100 atol);
 *  - the program's own run (RODAS4 at rtol 1e-8, every atol times 1e-4)
 *    ends where the engine's rodas4 run at the same tolerances ends: every CSV column within 1e-5 of the
 *    largest magnitude it takes in the engine's run.
 * The same for a circuit with hose friction. The examples that must export
 * are listed; the others must be refused with a message that names a
 * component. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hyd-catalogue.h"
#include "hyd-circuit.h"
#include "hyd-export-c.h"
#include "hyd-run.h"
#include "hyd-system.h"

/* The examples export-c writes: all but those with electrical control
 * (docs/export-c.md, "What exports"). */
static const char *const exportable[] = {
  "accumulator-emergency", "accumulator-safety-block", "bleed-off", "burton-two-actuator",
  "centres-compared", "clamp-then-work-sequence", "counterbalance-lowering",
  "cylinder-extend-retract", "cylinder-mass-spring-resonance", "electric-motor-pump-startup",
  "esque-circuit1-sine", "esque-circuit1-step", "esque-circuit2", "hasp-problem5",
  "hasp-transmission", "hydrostatic-transmission-speed-control", "load-holding-pilot-check",
  "meter-in-meter-out", "motor-relief", "position-servo", "pressure-reducing-clamp", "regenerative",
  "signal-blocks-pi-vs-on-off", "single-acting-3-2", "throttle-vs-flow-control",
};

typedef struct {
  GArray *rows;  /* of double: nv per sample */
  guint nv;
  HydSystem *sys;
  GArray *discrete; /* nd per sample: the discrete states in force there */
} Samples;

static gboolean
collect (double t, const double *values, guint nv, gpointer user)
{
  Samples *s = user;
  s->nv = nv;
  g_array_append_vals (s->rows, values, nv);
  guint nd = hyd_system_get_n_discrete (s->sys);
  if (s->discrete && nd > 0)
    {
      guint at = s->discrete->len;
      g_array_set_size (s->discrete, at + nd);
      hyd_system_get_discrete (s->sys, &g_array_index (s->discrete, double, at));
    }
  return TRUE;
}

/* The engine's rodas4 run of vars at rtol; the rows of samples. */
static GArray *
engine_run (HydSystem *sys, HydSimOptions *sim, double rtol, double output_interval,
            const GArray *vars, GArray *discrete)
{
  g_free (sim->solver);
  sim->solver = g_strdup ("rodas4");
  sim->rtol = rtol;
  sim->output_interval = output_interval;
  Samples s = { g_array_new (FALSE, FALSE, sizeof (double)), 0, sys, discrete };
  HydRunSpec spec = { .sim = sim, .vars = (const int *) vars->data, .n_vars = vars->len,
                      .sample = collect, .user = &s };
  g_auto (HydOdeResult) res = { 0 };
  g_assert_cmpint (hyd_run_execute (sys, &spec, &res, NULL), ==, HYD_ODE_SUCCESS);
  return s.rows;
}

static void
interval_at (HydSystem *sys, double t, double t_end)
{
  const GArray *bp = hyd_system_get_breakpoints (sys);
  double lo = 0.0, hi = t_end;
  for (guint k = 0; k < bp->len; k++)
    {
      double b = g_array_index (bp, double, k);
      if (b <= 0.0 || b >= t_end)
        continue;
      if (b <= t)
        lo = b;
      else
        {
          hi = b;
          break;
        }
    }
  hyd_system_set_interval (sys, lo, hi);
}

static char *
run_program (const char *dir, const char *const *argv_tail, const char *input)
{
  g_autofree char *in_path = g_build_filename (dir, "points.txt", NULL);
  g_assert_true (g_file_set_contents (in_path, input ? input : "", -1, NULL));
  g_autofree char *cmd = g_strdup_printf ("cd '%s' && ./prog %s < points.txt", dir, argv_tail[0]);
  char *out = NULL, *err = NULL;
  int status = 0;
  g_autoptr (GError) error = NULL;
  const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                               &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s: ./prog %s failed: %s", dir, argv_tail[0], err);
  g_free (err);
  return out;
}

static void
check_close (const char *what, const char *name, double t, guint i, double a, double b)
{
  if (a == b || fabs (a - b) <= 1e-12 * fmax (fabs (a), fabs (b)))
    return;
  g_error ("%s: %s at t = %.17g, entry %u: engine %.17g, exported %.17g", name, what, t, i, a, b);
}

static void
check_circuit (const char *name, const HydCircuit *circuit)
{
  g_autoptr (GError) error = NULL;
  g_auto (HydSimOptions) sim = { 0 };
  g_assert_true (hyd_circuit_get_sim_options (circuit, &sim, &error));
  g_autoptr (HydSystem) sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  g_autofree char *text = hyd_export_c (sys, circuit, &sim, name, &error);
  g_assert_no_error (error);
  g_assert_nonnull (text);

  g_autofree char *dir = g_dir_make_tmp ("export-c-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *c_path = g_build_filename (dir, "prog.c", NULL);
  g_assert_true (g_file_set_contents (c_path, text, -1, NULL));
  g_autofree char *cmd = g_strdup_printf ("cd '%s' && cc -O2 -std=c99 -o prog prog.c -lm", dir);
  const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
  int status = 0;
  g_autofree char *cc_err = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &cc_err,
                               &status, &error));
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s: the exported program does not compile:\n%s", name, cc_err);

  /* the points: 21 of the engine's run and 21 near them */
  guint n = hyd_system_get_n_states (sys);
  g_autoptr (GArray) state_vars = g_array_new (FALSE, FALSE, sizeof (int));
  int tv = hyd_system_find_variable (sys, "t");
  g_array_append_val (state_vars, tv);
  for (guint i = 0; i < n; i++)
    {
      int v = hyd_system_find_variable (sys, hyd_system_get_state_name (sys, i));
      g_assert_cmpint (v, >=, 0);
      g_array_append_val (state_vars, v);
    }
  g_auto (HydSimOptions) sim1 = { 0 };
  g_assert_true (hyd_circuit_get_sim_options (circuit, &sim1, &error));
  {
    g_autoptr (HydSystem) sys1 = hyd_system_compile (circuit, &error);
    g_assert_no_error (error);
    g_autoptr (GArray) dtraj = g_array_new (FALSE, FALSE, sizeof (double));
    g_autoptr (GArray) traj = engine_run (sys1, &sim1, sim1.rtol, sim1.t_end / 20, state_vars, dtraj);
    guint nd = hyd_system_get_n_discrete (sys);
    guint n_rows = traj->len / (n + 1);
    g_assert_cmpuint (n_rows, >=, 21);
    double *atol = g_new (double, n + 1);
    hyd_system_get_atol (sys, &sim, atol);
    GRand *rand = g_rand_new_with_seed (20261127);
    GArray *pts = g_array_new (FALSE, FALSE, sizeof (double));
    for (guint r = 0; r < n_rows; r++)
      for (int moved = 0; moved < 2; moved++)
        {
          const double *row = &g_array_index (traj, double, (gsize) r * (n + 1));
          g_array_append_val (pts, row[0]);
          for (guint i = 0; i < n; i++)
            {
              double yi = row[1 + i];
              if (moved)
                yi += (0.05 * fabs (yi) + 100.0 * atol[i]) * g_rand_double_range (rand, -1.0, 1.0);
              g_array_append_val (pts, yi);
            }
        }
    g_rand_free (rand);
    g_free (atol);

    /* each point with the discrete states of its sample (in force there) */
    GString *input = g_string_new (NULL);
    guint n_pts = pts->len / (n + 1);
    g_assert_cmpuint (dtraj->len, ==, (gsize) n_rows * nd);
    for (guint p = 0; p < n_pts; p++)
      {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        for (guint k = 0; k <= n; k++)
          {
            g_string_append (input, g_ascii_formatd (buf, sizeof buf, "%.17g",
                                                     g_array_index (pts, double, (gsize) p * (n + 1) + k)));
            g_string_append_c (input, ' ');
          }
        for (guint k = 0; k < nd; k++)
          {
            g_string_append (input, g_ascii_formatd (buf, sizeof buf, "%.17g",
                                                     g_array_index (dtraj, double, (gsize) (p / 2) * nd + k)));
            g_string_append_c (input, ' ');
          }
        g_string_append_c (input, '\n');
      }
    const char *eval_arg[] = { "--eval" };
    g_autofree char *out = run_program (dir, eval_arg, input->str);
    g_string_free (input, TRUE);
    g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
    g_assert_cmpuint (g_strv_length (lines), >=, 3 * n_pts);
    double *f = g_new (double, n + 1), *J = g_new (double, (gsize) n * n + 1), *ft = g_new (double, n + 1);
    for (guint p = 0; p < n_pts; p++)
      {
        const double *pt = &g_array_index (pts, double, (gsize) p * (n + 1));
        double t = pt[0];
        interval_at (sys, t, sim.t_end);
        if (nd > 0)
          hyd_system_set_discrete (sys, &g_array_index (dtraj, double, (gsize) (p / 2) * nd));
        hyd_system_rhs (sys, t, pt + 1, f);
        hyd_system_jacobian (sys, t, pt + 1, J, ft);
        for (int part = 0; part < 3; part++)
          {
            g_auto (GStrv) nums = g_strsplit (lines[3 * p + part], " ", -1);
            guint len = part == 1 ? n * n : n;
            g_assert_cmpuint (g_strv_length (nums), ==, len);
            for (guint i = 0; i < len; i++)
              {
                double b = g_ascii_strtod (nums[i], NULL);
                if (part == 0)
                  check_close ("f", name, t, i, f[i], b);
                else if (part == 1)
                  check_close ("J (row by row)", name, t, i, J[(i % n) * n + i / n], b);
                else
                  check_close ("df/dt", name, t, i, ft[i], b);
              }
          }
      }
    g_test_message ("%s: f, J and df/dt agree at %u points (%u states)", name, n_pts, n);
    g_free (f);
    g_free (J);
    g_free (ft);
    g_array_free (pts, TRUE);
  }

  /* the runs at rtol 1e-8 */
  {
    g_autoptr (HydSystem) sys2 = hyd_system_compile (circuit, &error);
    g_assert_no_error (error);
    g_autoptr (GArray) defvars = hyd_system_get_default_variables (sys2);
    g_auto (HydSimOptions) sim2 = { 0 };
    g_assert_true (hyd_circuit_get_sim_options (circuit, &sim2, &error));
    /* atol too: the circuits' absolute tolerances (1e-5 m/s, 100 Pa, ...)
     * are wider than 1e-5 of some columns' range */
    for (guint k = 0; k < HYD_ATOL_N_KINDS; k++)
      sim2.atol[k] *= 1e-4;
    g_autoptr (GArray) rows = engine_run (sys2, &sim2, 1e-8, sim2.output_interval, defvars, NULL);
    guint nv = defvars->len, n_rows = rows->len / nv;
    const char *run_arg[] = { "--rtol 1e-8 --atol-scale 1e-4" };
    g_autofree char *csv = run_program (dir, run_arg, NULL);
    g_auto (GStrv) lines = g_strsplit (g_strchomp (csv), "\n", -1);
    guint nl = g_strv_length (lines);
    g_assert_cmpuint (nl, >=, 3);
    g_auto (GStrv) last = g_strsplit (lines[nl - 1], ",", -1);
    g_assert_cmpuint (g_strv_length (last), ==, nv);
    const double *end = &g_array_index (rows, double, (gsize) (n_rows - 1) * nv);
    double worst = 0.0;
    for (guint k = 0; k < nv; k++)
      {
        double scale = 0.0;
        for (guint r = 0; r < n_rows; r++)
          scale = fmax (scale, fabs (g_array_index (rows, double, (gsize) r * nv + k)));
        double b = g_ascii_strtod (last[k], NULL);
        double d = fabs (end[k] - b);
        if (!(d <= 1e-5 * scale))
          g_error ("%s: column %s at the end (t = %g): engine %.10g, exported %.10g (largest |value| %g)",
                   name, hyd_system_get_variable_name (sys2, g_array_index (defvars, int, k)), end[0],
                   end[k], b, scale);
        if (scale > 0)
          worst = fmax (worst, d / scale);
      }
    g_test_message ("%s: the runs end within %.2g of each column's largest magnitude", name, worst);
  }
  g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", dir);
  g_assert_cmpint (system (rm), ==, 0);
}

static void
test_examples (gconstpointer data)
{
  g_autofree char *path = g_strdup_printf ("%s/examples/%s.bramah", HYD_TEST_DATA_DIR, (const char *) data);
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_file (path, &error);
  g_assert_no_error (error);
  check_circuit (data, circuit);
}

/* Hose friction (circuit format version 3): a source into a volume, on to
 * an orifice through 2 m of 10 mm hose (Re about 4000: the blend of
 * laminar and Blasius) and from it to the tank through 1 m of 20 mm hose
 * (laminar). */
static void
test_hoses (void)
{
  static const char text[] =
    "{ \"format\": \"bramah-circuit\", \"version\": 3,\n"
    "  \"simulation\": { \"t_end\": 0.5, \"output_interval\": 0.01 },\n"
    "  \"components\": [\n"
    "    { \"id\": \"FS1\", \"type\": \"flow_source\", \"position\": [100, 330],\n"
    "      \"params\": { \"flow\": { \"ramp\": { \"points\": [[0, 0], [0.2, 0.001]] } } } },\n"
    "    { \"id\": \"V1\", \"type\": \"volume\", \"position\": [160, 250], \"params\": { \"volume\": 1e-3 } },\n"
    "    { \"id\": \"OR1\", \"type\": \"orifice\", \"position\": [260, 260], \"params\": { \"diameter\": 0.004 } },\n"
    "    { \"id\": \"T1\", \"type\": \"tank\", \"position\": [360, 300], \"params\": {} } ],\n"
    "  \"connections\": [\n"
    "    { \"from\": \"FS1.P\", \"to\": \"V1.P\" },\n"
    "    { \"from\": \"V1.P2\", \"to\": \"OR1.A\", \"length\": 2.0, \"diameter\": 0.01 },\n"
    "    { \"from\": \"OR1.B\", \"to\": \"T1.T\", \"length\": 1.0, \"diameter\": 0.02 } ] }\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (text, -1, "hoses.bramah", &error);
  g_assert_no_error (error);
  check_circuit ("hoses", circuit);
}

/* The others are refused, naming what (a component or a parameter). */
static void
test_refused (void)
{
  g_autofree char *dir_path = g_strdup_printf ("%s/examples", HYD_TEST_DATA_DIR);
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_assert_nonnull (dir);
  guint n_refused = 0;
  for (const char *f; (f = g_dir_read_name (dir));)
    {
      if (!g_str_has_suffix (f, ".bramah"))
        continue;
      g_autofree char *stem = g_strndup (f, strlen (f) - strlen (".bramah"));
      gboolean listed = FALSE;
      for (guint k = 0; k < G_N_ELEMENTS (exportable); k++)
        listed |= strcmp (exportable[k], stem) == 0;
      g_autofree char *path = g_build_filename (dir_path, f, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_file (path, &error);
      g_assert_no_error (error);
      g_auto (HydSimOptions) sim = { 0 };
      g_assert_true (hyd_circuit_get_sim_options (circuit, &sim, &error));
      g_autoptr (HydSystem) sys = hyd_system_compile (circuit, &error);
      g_assert_no_error (error);
      g_autofree char *text = hyd_export_c (sys, circuit, &sim, f, &error);
      if (listed)
        {
          g_assert_no_error (error);
          continue;
        }
      g_assert_null (text);
      g_assert_nonnull (error);
      g_assert_true (strstr (error->message, "component ") || strstr (error->message, "parameter "));
      n_refused++;
    }
  g_test_message ("%u examples refused", n_refused);
  g_assert_cmpuint (n_refused, >, 0);
}

/* Every type of the catalogue has its model among the exported sources,
 * and all the model files together compile as one C99 file with cc: any
 * circuit's program compiles, whatever kinds it mixes. */
static void
test_catalogue (void)
{
  guint n_types = 0;
  const HydComponentType *const *types = hyd_catalogue_list (&n_types);
  g_assert_cmpuint (n_types, >, 0);
  for (guint k = 0; k < n_types; k++)
    if (hyd_export_c_type_source (types[k]->id) == NULL)
      g_error ("component type %s has no exported source", types[k]->id);
  g_autofree char *text = hyd_export_c_all_models ();
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("export-c-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *c_path = g_build_filename (dir, "models.c", NULL);
  g_assert_true (g_file_set_contents (c_path, text, -1, NULL));
  g_autofree char *cmd = g_strdup_printf ("cd '%s' && cc -O0 -std=c99 -c models.c", dir);
  const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
  int status = 0;
  g_autofree char *cc_err = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &cc_err,
                               &status, &error));
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("the model files together do not compile:\n%s", cc_err);
  g_test_message ("%u component types, their model files compile together", n_types);
  g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", dir);
  g_assert_cmpint (system (rm), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/export-c/catalogue", test_catalogue);
  g_test_add_func ("/engine/export-c/hoses", test_hoses);
  g_test_add_func ("/engine/export-c/refused", test_refused);
  for (guint k = 0; k < G_N_ELEMENTS (exportable); k++)
    {
      g_autofree char *tp = g_strdup_printf ("/engine/export-c/example/%s", exportable[k]);
      g_test_add_data_func (tp, exportable[k], test_examples);
    }
  return g_test_run ();
}
