/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-assembly.c — the Jacobian assembly of every shipped circuit
 * (data/examples/ and data/bench/): the dense Jacobian and the sparse one
 * are one walk written through two sinks, so the sparse values must be the
 * dense matrix's numbers bit for bit, the dense matrix must hold nothing
 * outside the pattern, ∂f/∂t must be the same bits from both, and asking
 * for ∂f/∂t must not change J. Checked at the initial state, at the states
 * after 30 and 300 rodas4 steps of the circuit's own simulation and at that
 * last state with every other node's state pushed below the vapour pressure
 * (a void in it, for the fluids with a floor); each circuit with its own
 * fluid and again with the "air" and the "tait" bulk modulus models.
 *
 * With HYD_ASSEMBLY_DUMP=FILE it also writes every number it compared (the
 * states, J, the sparse values and both ∂f/∂t, as bit patterns) to FILE, so
 * that two builds can be compared bit for bit with cmp(1) after a change to
 * the assembly. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hyd-circuit.h"
#include "hyd-ode.h"
#include "hyd-system.h"

static FILE *dump;

static void
dump_values (const char *what, const double *v, gsize n)
{
  if (dump == NULL)
    return;
  fprintf (dump, "%s", what);
  for (gsize k = 0; k < n; k++)
    {
      guint64 bits;
      memcpy (&bits, &v[k], sizeof bits);
      fprintf (dump, " %016" PRIx64, bits);
    }
  fputc ('\n', dump);
}

static gboolean
same_bits (double a, double b)
{
  return memcmp (&a, &b, sizeof (double)) == 0;
}

/* Both assemblies at (t, y) with the system's current interval. */
/* Non-zero Jacobian entries seen over the states of one case. */
static guint case_nonzero;

static void
check_state (HydSystem *sys, const char *label, double t, const double *y)
{
  guint n = hyd_system_get_n_states (sys), nnz;
  const guint *colptr, *rowind;
  hyd_system_get_pattern (sys, &nnz, &colptr, &rowind);
  gsize nn = (gsize) n * n;
  double *J = g_new (double, nn), *J2 = g_new (double, nn);
  double *v = g_new (double, nnz + 1), *v2 = g_new (double, nnz + 1);
  double *ft_d = g_new (double, n), *ft_s = g_new (double, n);
  gboolean *in_pattern = g_new0 (gboolean, nn);

  for (guint j = 0; j < n; j++)
    for (guint k = colptr[j]; k < colptr[j + 1]; k++)
      in_pattern[rowind[k] + (gsize) j * n] = TRUE;

  int rd = hyd_system_jacobian (sys, t, y, J, ft_d);
  int rs = hyd_system_jacobian_sparse (sys, t, y, v, ft_s);
  g_assert_cmpint (rd, ==, 0);
  g_assert_cmpint (rs, ==, 0);

  if (dump)
    {
      fprintf (dump, "%s t=%.17g n=%u nnz=%u\n", label, t, n, nnz);
      dump_values ("y", y, n);
      dump_values ("J", J, nn);
      dump_values ("values", v, nnz);
      dump_values ("dfdt-dense", ft_d, n);
      dump_values ("dfdt-sparse", ft_s, n);
    }

  guint nonzero = 0;
  for (guint j = 0; j < n; j++)
    {
      for (guint k = colptr[j]; k < colptr[j + 1]; k++)
        {
          double d = J[rowind[k] + (gsize) j * n];
          if (!same_bits (v[k], d))
            g_error ("%s: J[%u,%u] dense %a, sparse %a", label, rowind[k], j, d, v[k]);
          if (d != 0.0)
            nonzero++;
        }
      for (guint i = 0; i < n; i++)
        if (!in_pattern[i + (gsize) j * n] && !same_bits (J[i + (gsize) j * n], 0.0))
          g_error ("%s: J[%u,%u] = %a outside the pattern", label, i, j, J[i + (gsize) j * n]);
    }
  /* the assembly is not trivially zero: counted over the case's states (a
   * state may have every entry 0: pump stopped, every valve shut, e.g. the
   * end of accumulator-safety-block with its nodes voided) */
  case_nonzero += nonzero;
  for (guint i = 0; i < n; i++)
    if (!same_bits (ft_d[i], ft_s[i]))
      g_error ("%s: df/dt[%u] dense %a, sparse %a", label, i, ft_d[i], ft_s[i]);

  /* without ∂f/∂t: the same J */
  g_assert_cmpint (hyd_system_jacobian (sys, t, y, J2, NULL), ==, 0);
  g_assert_cmpint (hyd_system_jacobian_sparse (sys, t, y, v2, NULL), ==, 0);
  g_assert_true (memcmp (J, J2, nn * sizeof (double)) == 0);
  g_assert_true (memcmp (v, v2, nnz * sizeof (double)) == 0);

  g_free (J); g_free (J2); g_free (v); g_free (v2);
  g_free (ft_d); g_free (ft_s); g_free (in_pattern);
}

typedef struct {
  char *path;
  const char *bulk_model;   /* NULL: the file's fluid */
} Case;

static void
case_free (gpointer data)
{
  Case *c = data;
  g_free (c->path);
  g_free (c);
}

static void
test_circuit_file (gconstpointer data)
{
  const Case *cs = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_file (cs->path, &error);
  g_assert_no_error (error);
  if (cs->bulk_model)
    {
      if (circuit->fluid == NULL)
        circuit->fluid = json_object_new ();
      json_object_set_string_member (circuit->fluid, "bulk_modulus_model", cs->bulk_model);
    }
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  HydSimOptions sim;
  g_assert_true (hyd_circuit_get_sim_options (circuit, &sim, &error));
  g_assert_no_error (error);

  guint n = hyd_system_get_n_states (sys);
  double *y = g_new (double, n), *atol = g_new (double, n);
  memcpy (y, hyd_system_get_initial_state (sys), n * sizeof (double));
  hyd_system_get_atol (sys, &sim, atol);
  const GArray *bp = hyd_system_get_breakpoints (sys);

  /* the first integration interval, as the driver sets it */
  double t_hi = sim.t_end;
  for (guint k = 0; k < bp->len; k++)
    if (g_array_index (bp, double, k) > 0.0)
      {
        t_hi = MIN (t_hi, g_array_index (bp, double, k));
        break;
      }
  hyd_system_set_interval (sys, 0.0, t_hi);
  g_autofree char *file = g_path_get_basename (cs->path);
  g_autofree char *base = g_strdup_printf ("%s (%s)", file,
                                           cs->bulk_model ? cs->bulk_model : "own fluid");
  g_autofree char *label0 = g_strdup_printf ("%s initial", base);
  case_nonzero = 0;
  check_state (sys, label0, 0.0, y);

  static const guint64 steps[] = { 30, 300 };
  double t = 0.0;
  for (guint s = 0; s < G_N_ELEMENTS (steps); s++)
    {
      HydOdeProblem problem;
      hyd_system_get_problem (sys, &problem);
      HydOdeOptions opt;
      hyd_ode_options_init (&opt);
      opt.t0 = t;
      opt.t_end = sim.t_end;
      opt.rtol = sim.rtol;
      opt.atol = atol;
      opt.max_step = sim.max_step;
      opt.output_interval = sim.output_interval;
      opt.breakpoints = (const double *) bp->data;
      opt.n_breakpoints = bp->len;
      opt.events = sim.events;
      opt.max_steps = steps[s] - (s > 0 ? steps[s - 1] : 0);
      HydOdeResult res = { 0 };
      HydOdeStatus st = hyd_ode_solve ("rodas4", &problem, &opt, y, &res);
      g_assert_true (st == HYD_ODE_SUCCESS || st == HYD_ODE_TOO_MANY_STEPS);
      t = res.t;
      hyd_ode_result_clear (&res);
      /* the interval the solver stopped in is still set */
      g_autofree char *label = g_strdup_printf ("%s after %" G_GUINT64_FORMAT " steps",
                                                base, steps[s]);
      check_state (sys, label, t, y);
      if (st == HYD_ODE_SUCCESS)
        break;
    }

  /* ψ below the vapour pressure (−1 bar at most, hyd-fluid.h) */
  for (guint b = 0, k = 0; b < hyd_system_get_n_nodes (sys); b++)
    {
      const HydNodeInfo *node = hyd_system_get_node (sys, b);
      if (!node->boundary && k++ % 2 == 0)
        y[node->state] = -1.5e5;
    }
  g_autofree char *label_void = g_strdup_printf ("%s voided", base);
  check_state (sys, label_void, t, y);
  g_assert_cmpuint (case_nonzero, >, 0);

  hyd_sim_options_clear (&sim);
  hyd_system_free (sys);
  g_free (y);
  g_free (atol);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static void
add_folder (const char *folder, GPtrArray *keep)
{
  g_autofree char *dir = g_build_filename (HYD_TEST_DATA_DIR, folder, NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *entry;
  while ((entry = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (entry, ".bramah"))
      g_ptr_array_add (names, g_strdup (entry));
  g_ptr_array_sort (names, compare_names);
  static const char *const models[] = { NULL, "air", "tait" };
  for (guint k = 0; k < names->len; k++)
    {
      const char *name = g_ptr_array_index (names, k);
      g_autofree char *stem = g_strndup (name, strlen (name) - strlen (".bramah"));
      for (guint m = 0; m < G_N_ELEMENTS (models); m++)
        {
          Case *cs = g_new0 (Case, 1);
          cs->path = g_build_filename (dir, name, NULL);
          cs->bulk_model = models[m];
          g_ptr_array_add (keep, cs);
          g_autofree char *tpath = g_strdup_printf ("/engine/assembly/%s/%s/%s", folder, stem,
                                                    models[m] ? models[m] : "own-fluid");
          g_test_add_data_func (tpath, cs, test_circuit_file);
        }
    }
  g_ptr_array_unref (names);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  const char *dump_path = g_getenv ("HYD_ASSEMBLY_DUMP");
  if (dump_path && *dump_path)
    {
      dump = fopen (dump_path, "w");
      if (dump == NULL)
        g_error ("cannot write %s", dump_path);
    }
  GPtrArray *keep = g_ptr_array_new_with_free_func (case_free);
  add_folder ("examples", keep);
  add_folder ("bench", keep);
  g_assert_cmpuint (keep->len, >, 0);
  int rc = g_test_run ();
  if (dump)
    fclose (dump);
  g_ptr_array_unref (keep);
  return rc;
}
