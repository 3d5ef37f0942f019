/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-circuit.c — a libFuzzer target over the whole engine path a file takes.
 *
 * For one input (the bytes of a .bramah file):
 *   0. read it with Bramah's strict JSON reader (hyd_json_parse) and, when
 *      that accepts it, with json-glib's parser: both trees must be the same
 *      (same kinds, members in the same order, integers and doubles alike,
 *      doubles bit for bit, strings byte for byte);
 *   1. load it (hyd_circuit_load_from_data); a refusal is fine, it must only
 *      be a clean GError;
 *   2. save it (canonical text), load that text again — what Bramah saved it
 *      must be able to open — and save it again: the two saved texts must be
 *      byte-identical (circuit-format.md: save → load → save is identity);
 *   3. compile it (hyd_system_compile); a refusal is fine;
 *   4. evaluate f, the dense Jacobian and the sparse one at the initial state
 *      and check that the sparse values are the dense ones in the pattern and
 *      the dense Jacobian has nothing outside it (hyd-system.h promises "the
 *      same numbers");
 *   5. take at most MAX_STEPS steps of rodas4 (automatic linear solver: KLU
 *      when the pattern allows) and at most MAX_STEPS of the solver the file
 *      names (dense LAPACK LU up to MAX_DENSE_STATES states).
 *
 * A broken promise of steps 2 and 4 aborts (a finding); so do crashes, ASan
 * and UBSan reports, leaks and GLib criticals. Circuits larger than
 * MAX_DENSE_STATES skip the dense Jacobian, its comparison and dense LU,
 * larger than MAX_SOLVE_STATES the steps: they would measure memory, not find bugs.
 *
 * Built by `meson setup -Dfuzz=true` with clang (tests/fuzz/run-fuzz.sh).
 * Without -Dfuzz the same file is linked with fuzz-replay.c into a plain
 * program that runs given files through the target once each (the examples,
 * in the normal test suite), so the target keeps building and passing with
 * gcc. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include "hyd-circuit.h"
#include "hyd-json-scan.h"
#include "hyd-ode.h"
#include "hyd-system.h"

#define MAX_STEPS 25
#define MAX_DENSE_STATES 512
#define MAX_SOLVE_STATES 4096
#define SAME 1e-13 /* sparse = dense up to this, relative */

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static void
finding (const char *what, const char *detail)
{
  fprintf (stderr, "fuzz-circuit: FINDING: %s%s%s\n", what,
           detail != NULL ? ": " : "", detail != NULL ? detail : "");
  abort ();
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  /* A critical is a broken precondition inside the engine: a finding. */
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR);
  return 0;
}

/* Step 0: the same tree, strictly (json_node_equal compares 1 and 1.0 as
 * equal; a reader that turned one into the other would change the file). */
static gboolean
same_tree (JsonNode *a, JsonNode *b)
{
  if (JSON_NODE_TYPE (a) != JSON_NODE_TYPE (b))
    return FALSE;
  switch (JSON_NODE_TYPE (a))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *oa = json_node_get_object (a), *ob = json_node_get_object (b);
        g_autoptr(GList) ma = json_object_get_members (oa);
        g_autoptr(GList) mb = json_object_get_members (ob);
        GList *la = ma, *lb = mb;

        for (; la != NULL && lb != NULL; la = la->next, lb = lb->next)
          if (strcmp (la->data, lb->data) != 0
              || !same_tree (json_object_get_member (oa, la->data),
                             json_object_get_member (ob, lb->data)))
            return FALSE;
        return la == NULL && lb == NULL;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *xa = json_node_get_array (a), *xb = json_node_get_array (b);
        guint n = json_array_get_length (xa);

        if (n != json_array_get_length (xb))
          return FALSE;
        for (guint i = 0; i < n; i++)
          if (!same_tree (json_array_get_element (xa, i), json_array_get_element (xb, i)))
            return FALSE;
        return TRUE;
      }
    case JSON_NODE_VALUE:
      {
        GType t = json_node_get_value_type (a);
        double da, db;

        if (t != json_node_get_value_type (b))
          return FALSE;
        if (t == G_TYPE_INT64)
          return json_node_get_int (a) == json_node_get_int (b);
        if (t == G_TYPE_BOOLEAN)
          return json_node_get_boolean (a) == json_node_get_boolean (b);
        if (t == G_TYPE_STRING)
          return strcmp (json_node_get_string (a), json_node_get_string (b)) == 0;
        da = json_node_get_double (a);
        db = json_node_get_double (b);
        return memcmp (&da, &db, sizeof da) == 0;
      }
    case JSON_NODE_NULL:
    default:
      return TRUE;
    }
}

static void
check_reader (const guint8 *data, size_t size)
{
  guint line = 0, column = 0, line2 = 0, column2 = 0;
  g_autofree char *message = NULL, *message2 = NULL;
  g_autoptr(JsonNode) ours = hyd_json_parse ((const char *) data, size, HYD_JSON_MAX_DEPTH,
                                             &line, &column, &message);
  gboolean scanned = hyd_json_scan ((const char *) data, size, HYD_JSON_MAX_DEPTH,
                                    &line2, &column2, &message2);

  if ((ours != NULL) != scanned)
    finding ("the reader and the check-only scan disagree", message != NULL ? message : message2);
  if (ours == NULL)
    {
      if (line != line2 || column != column2 || g_strcmp0 (message, message2) != 0)
        finding ("the reader and the check-only scan refuse differently", message);
      return;
    }

  /* json-glib reads what we accept (the BOM aside, which RFC 8259 §8.1 lets
   * a reader skip and json-glib 1.6 does not) */
  size_t skip = size >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  if (!json_parser_load_from_data (parser, (const char *) data + skip, (gssize) (size - skip),
                                   &error))
    finding ("json-glib refuses what the reader accepts", error->message);
  if (!same_tree (ours, json_parser_get_root (parser)))
    finding ("the reader's tree differs from json-glib's", NULL);
}

/* Step 2: save, reload what was saved, save again; returns the reloaded
 * circuit (the one compiled next). */
static HydCircuit *
check_round_trip (const HydCircuit *circuit)
{
  gsize len1 = 0, len2 = 0;
  g_autofree char *text1 = hyd_circuit_to_data (circuit, &len1);
  g_autoptr(GError) error = NULL;

  if (text1 == NULL)
    finding ("save returned nothing", NULL);
  HydCircuit *again = hyd_circuit_load_from_data (text1, (gssize) len1, "saved", &error);
  if (again == NULL)
    finding ("a saved circuit does not load again", error->message);
  g_autofree char *text2 = hyd_circuit_to_data (again, &len2);
  if (len1 != len2 || memcmp (text1, text2, len1) != 0)
    finding ("save -> load -> save is not byte-identical", NULL);
  return again;
}

static double
column_max (const double *J, guint n, guint j)
{
  double m = 0.0;
  for (guint i = 0; i < n; i++)
    m = MAX (m, fabs (J[i + (gsize) j * n]));
  return m;
}

/* Step 4: f and both Jacobians at (t, y0). When they succeed, the sparse
 * values must be the dense ones up to rounding (relative to the column's
 * largest entry, the tolerance of test-sparse), and the dense Jacobian must
 * be zero outside the pattern. */
static void
check_jacobians (HydSystem *sys, double t)
{
  guint n = hyd_system_get_n_states (sys);
  guint nnz = 0;
  const guint *colptr = NULL, *rowind = NULL;
  const double *y0 = hyd_system_get_initial_state (sys);
  g_autofree double *f = g_new0 (double, n + 1);
  g_autofree double *ft_s = g_new0 (double, n + 1);

  hyd_system_get_pattern (sys, &nnz, &colptr, &rowind);
  if (colptr[n] != nnz)
    finding ("pattern: colptr[n] is not nnz", NULL);
  g_autofree double *values = g_new0 (double, nnz + 1);

  int rf = hyd_system_rhs (sys, t, y0, f);
  int rs = hyd_system_jacobian_sparse (sys, t, y0, values, ft_s);
  if (n > MAX_DENSE_STATES)
    return;

  g_autofree double *J = g_new0 (double, (gsize) n * n + 1);
  g_autofree double *ft_d = g_new0 (double, n + 1);
  g_autofree gboolean *in_pattern = g_new0 (gboolean, (gsize) n * n + 1);
  int rd = hyd_system_jacobian (sys, t, y0, J, ft_d);
  (void) rf;
  if (rd != rs)
    finding ("dense and sparse Jacobians disagree on failure", NULL);
  for (guint j = 0; j < n; j++)
    for (guint k = colptr[j]; k < colptr[j + 1]; k++)
      {
        if (rowind[k] >= n || (k > colptr[j] && rowind[k] <= rowind[k - 1]))
          finding ("pattern: row indices out of range or not increasing", NULL);
        in_pattern[rowind[k] + (gsize) j * n] = TRUE;
        double d = J[rowind[k] + (gsize) j * n], s = values[k];
        if (rd == 0 && !(fabs (s - d) <= SAME * column_max (J, n, j)))
          {
            g_autofree char *where = g_strdup_printf ("J[%u,%u] dense %.17g sparse %.17g",
                                                      rowind[k], j, d, s);
            finding ("sparse Jacobian differs from the dense one", where);
          }
      }
  if (rd != 0)
    return;
  for (gsize i = 0; i < (gsize) n * n; i++)
    if (!in_pattern[i] && J[i] != 0.0)
      {
        g_autofree char *where = g_strdup_printf ("J[%u,%u] = %.17g", (guint) (i % n),
                                                  (guint) (i / n), J[i]);
        finding ("dense Jacobian has an entry outside the sparsity pattern", where);
      }
  for (guint i = 0; i < n; i++)
    if (!(fabs (ft_s[i] - ft_d[i]) <= SAME * MAX (fabs (ft_d[i]), 1e-300)))
      finding ("df/dt of the dense and sparse Jacobians differ", hyd_system_get_state_name (sys, i));
}

/* Step 5: at most MAX_STEPS steps of one solver from the initial state. */
static void
take_steps (HydSystem *sys, const HydSimOptions *sim, const char *solver, int linear_solver)
{
  guint n = hyd_system_get_n_states (sys);
  g_autofree double *y = g_memdup2 (hyd_system_get_initial_state (sys), sizeof (double) * (n + 1));
  g_autofree double *atol = g_new0 (double, n + 1);
  const GArray *bp = hyd_system_get_breakpoints (sys);
  HydOdeProblem problem;
  HydOdeOptions opts;
  HydOdeResult result = { 0 };

  hyd_system_get_atol (sys, sim, atol);
  hyd_system_get_problem (sys, &problem);
  hyd_ode_options_init (&opts);
  opts.t0 = 0.0;
  opts.t_end = sim->t_end;
  opts.rtol = sim->rtol;
  opts.atol = atol;
  opts.max_step = sim->max_step;
  opts.fixed_step = sim->fixed_step;
  opts.output_interval = 0.0;
  opts.breakpoints = (const double *) bp->data;
  opts.n_breakpoints = bp->len;
  opts.max_steps = MAX_STEPS;
  opts.events = sim->events;
  opts.linear_solver = linear_solver;
  hyd_ode_solve (solver, &problem, &opts, y, &result);
  hyd_ode_result_clear (&result);
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HydCircuit) loaded = NULL;
  g_autoptr(HydCircuit) circuit = NULL;

  check_reader (data, size);
  loaded = hyd_circuit_load_from_data ((const char *) data, (gssize) size, "fuzz", &error);
  if (loaded == NULL)
    {
      if (error == NULL || error->message == NULL || error->message[0] == '\0')
        finding ("load failed without a message", NULL);
      return 0;
    }
  if (error != NULL)
    finding ("load succeeded and set an error", error->message);

  circuit = check_round_trip (loaded);

  HydSystem *sys = hyd_system_compile (circuit, &error);
  if (sys == NULL)
    {
      if (error == NULL || error->message == NULL || error->message[0] == '\0')
        finding ("compile failed without a message", NULL);
      return 0;
    }

  HydSimOptions sim = { 0 };
  if (!hyd_circuit_get_sim_options (circuit, &sim, NULL))
    finding ("a compiled circuit has no simulation options", NULL);

  const GArray *bp = hyd_system_get_breakpoints (sys);
  double t_hi = sim.t_end;
  for (guint k = 0; k < bp->len; k++)
    if (g_array_index (bp, double, k) > 0.0)
      {
        t_hi = MIN (t_hi, g_array_index (bp, double, k));
        break;
      }
  hyd_system_set_interval (sys, 0.0, t_hi);
  check_jacobians (sys, 0.0);

  if (hyd_system_get_n_states (sys) <= MAX_SOLVE_STATES)
    {
      take_steps (sys, &sim, HYD_SOLVER_DEFAULT, HYD_LINEAR_SOLVER_AUTO);
      if (sim.solver != NULL && strcmp (sim.solver, HYD_SOLVER_DEFAULT) != 0
          && hyd_solver_lookup (sim.solver) != NULL)
        take_steps (sys, &sim, sim.solver,
                    hyd_system_get_n_states (sys) <= MAX_DENSE_STATES
                    ? HYD_LINEAR_SOLVER_DENSE : HYD_LINEAR_SOLVER_AUTO);
    }

  hyd_sim_options_clear (&sim);
  hyd_system_free (sys);
  return 0;
}
