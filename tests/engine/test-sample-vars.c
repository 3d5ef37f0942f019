/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-sample-vars.c — an output sample evaluates only what its variables
 * need (hyd_system_eval_variables): states and node pressures without any
 * component, a valve's port flow from that valve alone. Every variable of
 * every example, asked for alone, must equal — bit for bit — the value the
 * whole system's evaluation gives when it is asked for together with all
 * the others. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "hyd-circuit.h"
#include "hyd-system.h"

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
check_circuit (const char *path, guint *n_checked)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_file (path, &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  guint n = hyd_system_get_n_states (sys), nv = hyd_system_get_n_variables (sys);
  double *y = g_new (double, n + 1);
  int *all = g_new (int, nv + 1);
  double *together = g_new (double, nv + 1);
  GRand *rand = g_rand_new_with_seed (1719);
  for (guint v = 0; v < nv; v++)
    all[v] = (int) v;
  /* the initial state, then states moved by up to ±10 % (pressures from 0
   * to a few bar where they start at 0: 1e5 Pa·U(0, 1)) at a later time */
  for (int trial = 0; trial < 3; trial++)
    {
      memcpy (y, hyd_system_get_initial_state (sys), sizeof (double) * n);
      double t = trial == 0 ? 0.0 : 0.137 * trial;
      for (guint i = 0; trial > 0 && i < n; i++)
        y[i] = y[i] != 0.0 ? y[i] * g_rand_double_range (rand, 0.9, 1.1)
                           : (hyd_system_get_state_unit (sys, i) == HYD_UNIT_PRESSURE
                              ? 1e5 * g_rand_double (rand) : 0.0);
      hyd_system_eval_variables (sys, t, y, all, nv, together);
      for (guint v = 0; v < nv; v++)
        {
          double alone;
          int one = (int) v;
          hyd_system_eval_variables (sys, t, y, &one, 1, &alone);
          if (!(alone == together[v] || (isnan (alone) && isnan (together[v]))))
            g_error ("%s: %s at t = %g: %.17g alone, %.17g with every variable",
                     path, hyd_system_get_variable_name (sys, v), t, alone, together[v]);
          (*n_checked)++;
        }
    }
  g_rand_free (rand);
  g_free (together);
  g_free (all);
  g_free (y);
  hyd_system_free (sys);
}

static void
test_examples (void)
{
  guint n_checked = 0, n_files = 0;
  const char *folders[] = { "examples", "bench" };
  for (guint f = 0; f < G_N_ELEMENTS (folders); f++)
    {
      g_autofree char *dir = g_build_filename (HYD_TEST_DATA_DIR, folders[f], NULL);
      g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
      g_assert_nonnull (d);
      g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *entry;
      while ((entry = g_dir_read_name (d)) != NULL)
        if (g_str_has_suffix (entry, ".bramah"))
          g_ptr_array_add (names, g_strdup (entry));
      g_ptr_array_sort (names, compare_names);
      for (guint k = 0; k < names->len; k++)
        {
          g_autofree char *path = g_build_filename (dir, names->pdata[k], NULL);
          check_circuit (path, &n_checked);
          n_files++;
        }
    }
  g_test_message ("%u circuits, %u values compared", n_files, n_checked);
  g_assert_cmpuint (n_files, >=, 30);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sample-vars/examples", test_examples);
  return g_test_run ();
}
