/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-sparse.c — sparse linear algebra for large circuits: KLU against
 * dense LU (real and complex shifted systems, refactorisation, pivot
 * fallback, singular matrices), the sparse circuit Jacobian against the
 * dense one, finite differences by CPR column groups, and distributed lines
 * of up to 1000 segments through the sparse path.
 *
 * With -m perf it also prints the measurements behind HYD_SPARSE_THRESHOLD
 * (dense LAPACK against KLU per step) and the scaling of rodas4's per-step
 * cost with the number of segments (N = 100, 1000, 10000); no timing is
 * asserted. */
#include <math.h>
#include <string.h>

#include "hyd-circuit.h"
#include "hyd-linsolver.h"
#include "hyd-ode.h"
#include "hyd-system.h"

/* ---- random sparse matrices ------------------------------------------- */

typedef struct {
  guint n, nnz;
  guint *colptr, *rowind;
} Pattern;

static void
pattern_clear (Pattern *p)
{
  g_free (p->colptr);
  g_free (p->rowind);
}

/* About `per_col` entries per column, rows sorted; the diagonal present
 * only with probability p_diag (the solver must add the missing ones). */
static void
random_pattern (GRand *rand, guint n, guint per_col, double p_diag, Pattern *p)
{
  gboolean *mark = g_new0 (gboolean, n);
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint));

  p->n = n;
  p->colptr = g_new0 (guint, n + 1);
  for (guint j = 0; j < n; j++)
    {
      memset (mark, 0, n * sizeof (gboolean));
      if (g_rand_double (rand) < p_diag)
        mark[j] = TRUE;
      /* a band keeps the matrix irreducible-ish, random entries spread it */
      if (j + 1 < n)
        mark[j + 1] = TRUE;
      if (j > 0)
        mark[j - 1] = TRUE;
      for (guint k = 0; k < per_col; k++)
        mark[g_rand_int_range (rand, 0, (gint32) n)] = TRUE;
      for (guint i = 0; i < n; i++)
        if (mark[i])
          g_array_append_val (rows, i);
      p->colptr[j + 1] = rows->len;
    }
  p->nnz = rows->len;
  p->rowind = (guint *) g_array_free (rows, FALSE);
  g_free (mark);
}

static void
random_values (GRand *rand, HydJac *S, HydJac *D)
{
  hyd_jac_zero (D);
  for (guint j = 0; j < S->n; j++)
    for (guint k = S->colptr[j]; k < S->colptr[j + 1]; k++)
      {
        double v = g_rand_double_range (rand, -1.0, 1.0);
        S->values[k] = v;
        D->dense[S->rowind[k] + (gsize) j * S->n] = v;
      }
}

/* max_i |a_i − b_i| / max_i |b_i| */
static double
rel_diff (const double *a, const double *b, guint n)
{
  double num = 0.0, den = 0.0;
  for (guint i = 0; i < n; i++)
    {
      num = MAX (num, fabs (a[i] - b[i]));
      den = MAX (den, fabs (b[i]));
    }
  return num / MAX (den, 1e-300);
}

/* ‖(shift·I − J)·x − b‖∞ / (‖A‖-ish · ‖x‖∞ + ‖b‖∞) */
static double
residual (const HydJac *D, double shift, const double *x, const double *b)
{
  guint n = D->n;
  double *Jx = g_new (double, n);
  double r = 0.0, xs = 0.0, bs = 0.0, as = fabs (shift);

  hyd_jac_matvec (D, x, Jx);
  for (guint i = 0; i < n; i++)
    {
      r = MAX (r, fabs (shift * x[i] - Jx[i] - b[i]));
      xs = MAX (xs, fabs (x[i]));
      bs = MAX (bs, fabs (b[i]));
    }
  for (gsize k = 0; k < (gsize) n * n; k++)
    as = MAX (as, fabs (D->dense[k]));
  g_free (Jx);
  return r / (as * xs + bs);
}

/* ---- KLU against dense LU ---------------------------------------------- */

static void
check_real_solve (HydLinSolver *ls_s, HydLinSolver *ls_d, const HydJac *S, const HydJac *D,
                  double shift, GRand *rand)
{
  guint n = S->n;
  double *b = g_new (double, n), *xs = g_new (double, n), *xd = g_new (double, n);

  g_assert_cmpint (hyd_linsolver_factor (ls_d, shift, D), ==, 0);
  g_assert_cmpint (hyd_linsolver_factor (ls_s, shift, S), ==, 0);
  /* several right-hand sides per factorisation, as a Rosenbrock step has */
  for (int rhs = 0; rhs < 3; rhs++)
    {
      for (guint i = 0; i < n; i++)
        b[i] = g_rand_double_range (rand, -1.0, 1.0);
      memcpy (xs, b, n * sizeof (double));
      memcpy (xd, b, n * sizeof (double));
      hyd_linsolver_solve (ls_s, xs);
      hyd_linsolver_solve (ls_d, xd);
      double dr = residual (D, shift, xd, b), sr = residual (D, shift, xs, b);
      g_assert_cmpfloat (sr, <, 1e-12);
      /* both backward stable; the solutions agree to the conditioning */
      g_assert_cmpfloat (rel_diff (xs, xd, n), <, 1e-8);
      /* and a kept pivot order that went bad was replaced: KLU's residual
       * stays within a small factor of LAPACK's */
      g_assert_cmpfloat (sr, <, 100.0 * dr + 1e-14);
    }
  g_free (b);
  g_free (xs);
  g_free (xd);
}

static void
test_klu_real (void)
{
  GRand *rand = g_rand_new_with_seed (31337);
  const guint sizes[] = { 1, 2, 7, 30, 120, 400 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      guint n = sizes[s];
      Pattern p;
      random_pattern (rand, n, 2, 0.5, &p);
      g_autoptr (HydJac) S = hyd_jac_new_sparse (n, p.nnz, p.colptr, p.rowind);
      g_autoptr (HydJac) D = hyd_jac_new_dense (n);
      g_autoptr (HydLinSolver) ls_s = hyd_linsolver_new (S);
      g_autoptr (HydLinSolver) ls_d = hyd_linsolver_new (D);

      /* New values and shifts on the kept pattern: the first factorisation
       * pivots, the later ones refactor on the kept analysis. */
      for (int trial = 0; trial < 6; trial++)
        {
          random_values (rand, S, D);
          double shift = trial % 2 ? g_rand_double_range (rand, 0.5, 5.0)
                                   : g_rand_double_range (rand, 50.0, 1e4);
          check_real_solve (ls_s, ls_d, S, D, shift, rand);
          /* the sparse storage agrees with the dense one */
          for (guint j = 0; j < n; j++)
            for (guint i = 0; i < n; i += 1 + n / 7)
              g_assert_cmpfloat (hyd_jac_get (S, i, j), ==, hyd_jac_get (D, i, j));
        }
      pattern_clear (&p);
    }
  g_rand_free (rand);
}

/* The small systems' own dense LU (n ≤ HYD_SMALL_DENSE_MAX) against KLU, on
 * matrices with rows scaled over 24 orders of magnitude as a circuit's are
 * (pressure rows carry B/V ~ 1e12, a mass's 1/m): with a circuit's sparse
 * storage (rows equilibrated) every row's residual is small against that
 * row's own size; with dense storage (unscaled, as LAPACK) the residual is
 * small in norm. */
static double
row_residual (const HydJac *D, double shift, const double *x, const double *b)
{
  guint n = D->n;
  double worst = 0.0, xs = 0.0;
  for (guint i = 0; i < n; i++)
    xs = MAX (xs, fabs (x[i]));
  for (guint i = 0; i < n; i++)
    {
      double r = shift * x[i] - b[i], a = fabs (shift);
      for (guint j = 0; j < n; j++)
        {
          double v = D->dense[i + (gsize) j * n];
          r -= v * x[j];
          a = MAX (a, fabs (v));
        }
      worst = MAX (worst, fabs (r) / (a * xs + fabs (b[i])));
    }
  return worst;
}

static void
test_small_dense_lu (void)
{
  GRand *rand = g_rand_new_with_seed (4242);
  for (guint n = 1; n <= HYD_SMALL_DENSE_MAX; n++)
    {
      Pattern p;
      random_pattern (rand, n, 2, 0.5, &p);
      g_autoptr (HydJac) S = hyd_jac_new_sparse (n, p.nnz, p.colptr, p.rowind);
      g_autoptr (HydJac) K = hyd_jac_new_sparse (n, p.nnz, p.colptr, p.rowind);
      g_autoptr (HydJac) D = hyd_jac_new_dense (n);
      K->small_dense_max = 0; /* KLU */
      g_assert_cmpuint (S->small_dense_max, ==, HYD_SMALL_DENSE_MAX);
      g_autoptr (HydLinSolver) ls_s = hyd_linsolver_new (S);
      g_autoptr (HydLinSolver) ls_k = hyd_linsolver_new (K);
      g_autoptr (HydLinSolver) ls_d = hyd_linsolver_new (D);
      double *rs = g_new (double, n);
      for (guint i = 0; i < n; i++)
        rs[i] = pow (10.0, g_rand_double_range (rand, -12.0, 12.0));
      for (int trial = 0; trial < 20; trial++)
        {
          random_values (rand, S, D);
          for (guint j = 0; j < n; j++)
            for (guint k = S->colptr[j]; k < S->colptr[j + 1]; k++)
              {
                S->values[k] *= rs[S->rowind[k]];
                D->dense[S->rowind[k] + (gsize) j * n] = S->values[k];
              }
          memcpy (K->values, S->values, sizeof (double) * p.nnz);
          double shift = trial % 2 ? g_rand_double_range (rand, 0.5, 5.0)
                                   : g_rand_double_range (rand, 50.0, 1e4);
          g_assert_cmpint (hyd_linsolver_factor (ls_s, shift, S), ==, 0);
          g_assert_cmpint (hyd_linsolver_factor (ls_k, shift, K), ==, 0);
          g_assert_cmpint (hyd_linsolver_factor (ls_d, shift, D), ==, 0);
          double b[HYD_SMALL_DENSE_MAX], xs[HYD_SMALL_DENSE_MAX], xk[HYD_SMALL_DENSE_MAX];
          double xd[HYD_SMALL_DENSE_MAX];
          for (guint i = 0; i < n; i++)
            b[i] = g_rand_double_range (rand, -1.0, 1.0) * rs[i];
          memcpy (xs, b, n * sizeof (double));
          memcpy (xk, b, n * sizeof (double));
          memcpy (xd, b, n * sizeof (double));
          hyd_linsolver_solve (ls_s, xs);
          hyd_linsolver_solve (ls_k, xk);
          hyd_linsolver_solve (ls_d, xd);
          g_assert_cmpfloat (row_residual (D, shift, xs, b), <, 1e-12);
          /* unscaled, as LAPACK: backward stable in norm, not row by row */
          g_assert_cmpfloat (residual (D, shift, xd, b), <, 1e-12);
          g_assert_cmpfloat (row_residual (D, shift, xk, b), <, 1e-12);
          /* equilibrated, KLU's solution to the conditioning (the
           * unscaled dense one differs by up to ~4e-7 here: that is what
           * equilibration buys on such rows) */
          g_assert_cmpfloat (rel_diff (xs, xk, n), <, 1e-8);
        }
      g_free (rs);
      pattern_clear (&p);
    }
  g_rand_free (rand);
}

/* A matrix whose first factorisation (large shift: diagonal pivots) leaves a
 * pivot order that is useless for the next one (no shift: the diagonal is
 * zero or tiny, the weight is on a permutation): klu_refactor must give way
 * to a fresh factorisation with pivoting. */
static void
test_klu_pivot_fallback (void)
{
  GRand *rand = g_rand_new_with_seed (4242);

  for (int tiny = 0; tiny < 2; tiny++)
    {
      guint n = 40;
      GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint));
      guint *colptr = g_new0 (guint, n + 1);
      for (guint j = 0; j < n; j++)
        {
          /* entry (n − 1 − j, j), plus the diagonal when tiny */
          guint a = n - 1 - j;
          if (tiny && j != a)
            {
              guint lo = MIN (a, j), hi = MAX (a, j);
              g_array_append_val (rows, lo);
              g_array_append_val (rows, hi);
            }
          else
            g_array_append_val (rows, a);
          colptr[j + 1] = rows->len;
        }
      guint nnz = rows->len;
      guint *rowind = (guint *) g_array_free (rows, FALSE);
      g_autoptr (HydJac) S = hyd_jac_new_sparse (n, nnz, colptr, rowind);
      g_autoptr (HydJac) D = hyd_jac_new_dense (n);
      g_autoptr (HydLinSolver) ls_s = hyd_linsolver_new (S);
      g_autoptr (HydLinSolver) ls_d = hyd_linsolver_new (D);

      for (guint j = 0; j < n; j++)
        for (guint k = colptr[j]; k < colptr[j + 1]; k++)
          {
            double v = rowind[k] == j ? 1e-13 : 1.0 + g_rand_double (rand);
            S->values[k] = v;
            D->dense[rowind[k] + (gsize) j * n] = v;
          }
      check_real_solve (ls_s, ls_d, S, D, 1e3, rand);
      /* the antidiagonal's middle entry is on the diagonal for odd n only;
       * n is even, so shift 0 leaves zero (or 1e-13) diagonal pivots */
      check_real_solve (ls_s, ls_d, S, D, 0.0, rand);
      check_real_solve (ls_s, ls_d, S, D, 2e3, rand);
      g_free (colptr);
      g_free (rowind);
    }
  g_rand_free (rand);
}

static void
test_klu_complex (void)
{
  GRand *rand = g_rand_new_with_seed (2718);
  const guint sizes[] = { 1, 3, 25, 150 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      guint n = sizes[s];
      Pattern p;
      random_pattern (rand, n, 3, 0.3, &p);
      g_autoptr (HydJac) S = hyd_jac_new_sparse (n, p.nnz, p.colptr, p.rowind);
      g_autoptr (HydJac) D = hyd_jac_new_dense (n);
      g_autoptr (HydLinSolver) ls_s = hyd_linsolver_new (S);
      g_autoptr (HydLinSolver) ls_d = hyd_linsolver_new (D);
      double *br = g_new (double, n), *bi = g_new (double, n);
      double *sr = g_new (double, n), *si = g_new (double, n);
      double *dr = g_new (double, n), *di = g_new (double, n);
      double *Jr = g_new (double, n), *Ji = g_new (double, n);

      for (int trial = 0; trial < 5; trial++)
        {
          random_values (rand, S, D);
          double a = g_rand_double_range (rand, 0.5, 20.0);
          double b = g_rand_double_range (rand, -20.0, 20.0);
          /* the real factors live beside the complex ones (Radau IIA) */
          g_assert_cmpint (hyd_linsolver_factor (ls_s, a + 1.0, S), ==, 0);
          g_assert_cmpint (hyd_linsolver_factor_complex (ls_s, a, b, S), ==, 0);
          g_assert_cmpint (hyd_linsolver_factor_complex (ls_d, a, b, D), ==, 0);
          for (guint i = 0; i < n; i++)
            {
              br[i] = g_rand_double_range (rand, -1.0, 1.0);
              bi[i] = g_rand_double_range (rand, -1.0, 1.0);
            }
          memcpy (sr, br, n * sizeof (double));
          memcpy (si, bi, n * sizeof (double));
          memcpy (dr, br, n * sizeof (double));
          memcpy (di, bi, n * sizeof (double));
          hyd_linsolver_solve_complex (ls_s, sr, si);
          hyd_linsolver_solve_complex (ls_d, dr, di);
          g_assert_cmpfloat (rel_diff (sr, dr, n), <, 1e-8);
          g_assert_cmpfloat (rel_diff (si, di, n), <, 1e-8);
          /* residual of ((a + ib)·I − J)·x = b, x = sr + i·si */
          hyd_jac_matvec (D, sr, Jr);
          hyd_jac_matvec (D, si, Ji);
          double res = 0.0, scale = 0.0;
          for (guint i = 0; i < n; i++)
            {
              double re = a * sr[i] - b * si[i] - Jr[i] - br[i];
              double im = a * si[i] + b * sr[i] - Ji[i] - bi[i];
              res = MAX (res, hypot (re, im));
              scale = MAX (scale, hypot (sr[i], si[i]));
            }
          g_assert_cmpfloat (res / (scale * (fabs (a) + fabs (b) + n) + 1.0), <, 1e-12);

          /* and the real factorisation is still the one of (a + 1)·I − J */
          for (guint i = 0; i < n; i++)
            sr[i] = br[i];
          hyd_linsolver_solve (ls_s, sr);
          g_assert_cmpfloat (residual (D, a + 1.0, sr, br), <, 1e-12);
        }
      g_free (br); g_free (bi); g_free (sr); g_free (si);
      g_free (dr); g_free (di); g_free (Jr); g_free (Ji);
      pattern_clear (&p);
    }
  g_rand_free (rand);
}

/* A singular shifted matrix is reported (k > 0), not solved. */
static void
test_klu_singular (void)
{
  /* J = [[1, 0, 0], [0, 0, 0], [0, 0, 2]] in a pattern without (1, 1):
   * shift 1 makes column 0 and shift 0 column 1 of I·shift − J zero. */
  static const guint colptr[] = { 0, 1, 1, 2 };
  static const guint rowind[] = { 0, 2 };
  g_autoptr (HydJac) S = hyd_jac_new_sparse (3, 2, colptr, rowind);
  g_autoptr (HydLinSolver) ls = hyd_linsolver_new (S);

  S->values[0] = 1.0;
  S->values[1] = 2.0;
  g_assert_cmpint (hyd_linsolver_factor (ls, 1.0, S), ==, 1);
  g_assert_cmpint (hyd_linsolver_factor (ls, 0.0, S), ==, 2);
  g_assert_cmpint (hyd_linsolver_factor_complex (ls, 2.0, 0.0, S), ==, 3);
  /* and recovers on a regular one */
  g_assert_cmpint (hyd_linsolver_factor (ls, 3.0, S), ==, 0);
  double b[3] = { 2.0, 3.0, 1.0 };
  hyd_linsolver_solve (ls, b);
  g_assert_cmpfloat (fabs (b[0] - 1.0), <, 1e-15);
  g_assert_cmpfloat (fabs (b[1] - 1.0), <, 1e-15);
  g_assert_cmpfloat (fabs (b[2] - 1.0), <, 1e-15);
  g_assert_cmpint (hyd_linsolver_factor_complex (ls, 3.0, 1.0, S), ==, 0);
}

/* ---- circuits ---------------------------------------------------------- */

static HydSystem *
compile_json (const char *json)
{
  GError *error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "test.bramah", &error);
  g_assert_no_error (error);
  HydSystem *sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  return sys;
}

#define HEAD "{\"format\": \"bramah-circuit\", \"version\": 1, "

/* From tests/engine/test-system.c: every kind of local block (dense and
 * sparse patterns, volume states with ∂V and ∂²V, compliances, boundary
 * nodes with profiles, a flow meter). */
static const char *composite =
  HEAD "\"fluid\": {\"bulk_modulus_model\": \"tait\"},"
  "\"components\": ["
  "{\"id\": \"T1\", \"type\": \"tank\"},"
  "{\"id\": \"PS1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": {\"ramp\": {\"points\": [[0, 5e6], [2, 1.2e7]]}}}},"
  "{\"id\": \"P1\", \"type\": \"fixed_pump\", \"params\": {\"leakage\": 1e-12}},"
  "{\"id\": \"RV1\", \"type\": \"relief_valve\", \"params\": {\"cracking_pressure\": 8e6, \"natural_frequency\": 2000}},"
  "{\"id\": \"V1\", \"type\": \"dcv_4_3\", \"params\": {\"command\": {\"sine\": {\"offset\": 0.2, \"amplitude\": 0.7, \"frequency\": 1}}, \"centre\": \"tandem\", \"spool_time_constant\": 0.01}},"
  "{\"id\": \"C1\", \"type\": \"cylinder_double\", \"params\": {\"initial_position\": 0.1, \"coulomb_friction\": 200, \"static_friction\": 400, \"load_force\": {\"sine\": {\"offset\": 100, \"amplitude\": 50, \"frequency\": 2}}}},"
  "{\"id\": \"A1\", \"type\": \"accumulator\", \"params\": {\"precharge_pressure\": 3e6}},"
  "{\"id\": \"CV1\", \"type\": \"check_valve\"},"
  "{\"id\": \"L1\", \"type\": \"line\", \"params\": {\"model\": \"inertia\", \"minor_loss_coefficient\": 2}},"
  "{\"id\": \"M1\", \"type\": \"motor_fixed\", \"params\": {\"coulomb_friction\": 0.5}},"
  "{\"id\": \"FM1\", \"type\": \"flow_meter\"}],"
  "\"connections\": ["
  "{\"from\": \"P1.S\", \"to\": \"T1.T\"},"
  "{\"from\": \"P1.P\", \"to\": \"CV1.A\", \"length\": 0.3},"
  "{\"from\": \"CV1.B\", \"to\": \"V1.P\", \"length\": 1.0},"
  "{\"from\": \"V1.P\", \"to\": \"RV1.P\", \"length\": 0.2},"
  "{\"from\": \"RV1.T\", \"to\": \"T1.T\"},"
  "{\"from\": \"V1.P\", \"to\": \"A1.P\", \"length\": 0.2},"
  "{\"from\": \"V1.A\", \"to\": \"L1.A\", \"length\": 0.2},"
  "{\"from\": \"L1.B\", \"to\": \"C1.A\", \"length\": 0.2},"
  "{\"from\": \"V1.B\", \"to\": \"FM1.A\", \"length\": 0.5},"
  "{\"from\": \"FM1.B\", \"to\": \"C1.B\", \"length\": 0.5},"
  "{\"from\": \"V1.T\", \"to\": \"M1.A\", \"length\": 0.5},"
  "{\"from\": \"M1.B\", \"to\": \"T1.T\"},"
  "{\"from\": \"PS1.P\", \"to\": \"CV1.A\"}]}";

/* pressure source (ramp 0 → 10 MPa in 5 ms) → orifice → line (distributed,
 * N segments, 10 m) → orifice → tank, with a cylinder-free far end: a
 * pressure wave runs down the line and settles to the orifice divider. */
static char *
line_circuit (guint segments)
{
  return g_strdup_printf (
    HEAD "\"components\": ["
    "{\"id\": \"PS1\", \"type\": \"pressure_source\", \"params\": {\"pressure\": {\"ramp\": {\"points\": [[0, 1e5], [0.005, 1e7]]}}}},"
    "{\"id\": \"O1\", \"type\": \"orifice\", \"params\": {\"diameter\": 0.004}},"
    "{\"id\": \"L1\", \"type\": \"line\", \"params\": {\"model\": \"distributed\", \"segments\": %u, "
    "\"length\": 10, \"diameter\": 0.01, \"minor_loss_coefficient\": 1}},"
    "{\"id\": \"O2\", \"type\": \"orifice\", \"params\": {\"diameter\": 0.002}},"
    "{\"id\": \"T1\", \"type\": \"tank\"}],"
    "\"connections\": ["
    "{\"from\": \"PS1.P\", \"to\": \"O1.A\"},"
    "{\"from\": \"O1.B\", \"to\": \"L1.A\", \"length\": 0.1},"
    "{\"from\": \"L1.B\", \"to\": \"O2.A\", \"length\": 0.1},"
    "{\"from\": \"O2.B\", \"to\": \"T1.T\"}]}", segments);
}

/* The per-kind default absolute tolerances of a circuit's states. */
static void
default_atol (HydSystem *sys, double *atol)
{
  HydSimOptions sim = { 0 };
  for (guint k = 0; k < HYD_ATOL_N_KINDS; k++)
    sim.atol[k] = hyd_atol_kind_default (k);
  hyd_system_get_atol (sys, &sim, atol);
}

/* A plausible random state: pressures and flows of the circuit's scale. */
static void
random_state (HydSystem *sys, GRand *rand, double *y)
{
  guint n = hyd_system_get_n_states (sys);
  for (guint i = 0; i < n; i++)
    {
      double base = hyd_system_get_initial_state (sys)[i];
      switch (hyd_system_get_state_unit (sys, i))
        {
        case HYD_UNIT_PRESSURE: y[i] = g_rand_double_range (rand, 1e5, 1.5e7); break;
        case HYD_UNIT_POSITION: y[i] = g_rand_double_range (rand, -1e-4, 0.5001); break;
        case HYD_UNIT_VELOCITY: y[i] = g_rand_double_range (rand, -0.05, 0.05); break;
        case HYD_UNIT_ANGULAR_VELOCITY: y[i] = g_rand_double_range (rand, -5, 5); break;
        case HYD_UNIT_FLOW: y[i] = g_rand_double_range (rand, -1e-4, 1e-4); break;
        default: y[i] = base + g_rand_double_range (rand, -0.3, 0.3); break;
        }
    }
}

/* The sparse assembly gives the dense Jacobian's numbers in the pattern,
 * and the dense one has nothing outside it. */
static void
check_sparse_equals_dense (HydSystem *sys, guint trials, guint32 seed)
{
  guint n = hyd_system_get_n_states (sys), nnz;
  const guint *colptr, *rowind;
  hyd_system_get_pattern (sys, &nnz, &colptr, &rowind);
  double *J = g_new (double, (gsize) n * n), *v = g_new (double, nnz + 1);
  double *ft_d = g_new (double, n), *ft_s = g_new (double, n), *y = g_new (double, n);
  gboolean *in_pattern = g_new (gboolean, (gsize) n * n);
  GRand *rand = g_rand_new_with_seed (seed);

  g_assert_cmpuint (colptr[n], ==, nnz);
  memset (in_pattern, 0, (gsize) n * n * sizeof (gboolean));
  for (guint j = 0; j < n; j++)
    for (guint k = colptr[j]; k < colptr[j + 1]; k++)
      {
        g_assert_cmpuint (rowind[k], <, n);
        if (k > colptr[j])
          g_assert_cmpuint (rowind[k], >, rowind[k - 1]);
        in_pattern[rowind[k] + (gsize) j * n] = TRUE;
      }

  hyd_system_set_interval (sys, 0.0, 2.0);
  for (guint trial = 0; trial < trials; trial++)
    {
      double t = g_rand_double_range (rand, 0.001, 1.9);
      random_state (sys, rand, y);
      int rd = hyd_system_jacobian (sys, t, y, J, ft_d);
      int rs = hyd_system_jacobian_sparse (sys, t, y, v, ft_s);
      g_assert_cmpint (rd, ==, rs);
      for (guint j = 0; j < n; j++)
        {
          double colmax = 0.0;
          for (guint i = 0; i < n; i++)
            colmax = MAX (colmax, fabs (J[i + (gsize) j * n]));
          for (guint k = colptr[j]; k < colptr[j + 1]; k++)
            {
              double d = J[rowind[k] + (gsize) j * n];
              g_assert_cmpfloat (fabs (v[k] - d), <=, 1e-13 * colmax);
            }
          for (guint i = 0; i < n; i++)
            if (!in_pattern[i + (gsize) j * n])
              g_assert_cmpfloat (J[i + (gsize) j * n], ==, 0.0);
        }
      for (guint i = 0; i < n; i++)
        g_assert_cmpfloat (fabs (ft_s[i] - ft_d[i]), <=, 1e-13 * MAX (fabs (ft_d[i]), 1e-300));
    }
  g_rand_free (rand);
  g_free (J); g_free (v); g_free (ft_d); g_free (ft_s); g_free (y); g_free (in_pattern);
}

static void
test_system_sparse_jacobian (void)
{
  HydSystem *sys = compile_json (composite);
  g_test_message ("composite circuit: %u states", hyd_system_get_n_states (sys));
  check_sparse_equals_dense (sys, 40, 20261121);
  hyd_system_free (sys);

  g_autofree char *json = line_circuit (40);
  sys = compile_json (json);
  guint nnz;
  const guint *colptr, *rowind;
  hyd_system_get_pattern (sys, &nnz, &colptr, &rowind);
  g_test_message ("distributed line, 40 segments: %u states, %u entries",
                  hyd_system_get_n_states (sys), nnz);
  check_sparse_equals_dense (sys, 20, 777);
  hyd_system_free (sys);
}

/* The problem a circuit hands the solvers carries its pattern. */
static void
test_system_problem (void)
{
  g_autofree char *json = line_circuit (10);
  HydSystem *sys = compile_json (json);
  HydOdeProblem problem;
  guint nnz;
  const guint *colptr, *rowind;

  hyd_system_get_problem (sys, &problem);
  hyd_system_get_pattern (sys, &nnz, &colptr, &rowind);
  g_assert_true (problem.jac_sparse != NULL && problem.jac != NULL);
  g_assert_true (problem.colptr == colptr && problem.rowind == rowind);
  g_assert_cmpuint (problem.nnz, ==, nnz);
  g_assert_cmpuint (problem.n, ==, hyd_system_get_n_states (sys));
  hyd_system_free (sys);
}

/* ---- finite differences by column groups ------------------------------ */

static void
check_fd_sparse (HydSystem *sys, guint32 seed, guint max_groups)
{
  HydOdeProblem problem;
  HydOdeOptions o;
  hyd_system_get_problem (sys, &problem);
  guint n = problem.n, nnz = problem.nnz;
  const guint *colptr = problem.colptr, *rowind = problem.rowind;
  double *atol = g_new (double, n), *y = g_new (double, n);
  double *fd = g_new (double, nnz + 1), *an = g_new (double, nnz + 1);
  double *dense = g_new (double, (gsize) n * n);
  double *ft_fd = g_new (double, n), *ft_an = g_new (double, n);
  GRand *rand = g_rand_new_with_seed (seed);

  default_atol (sys, atol);
  hyd_ode_options_init (&o);
  o.t0 = 0.0;
  o.t_end = 2.0;
  o.rtol = 1e-6;
  o.atol = atol;
  hyd_system_set_interval (sys, 0.0, 2.0);

  for (int trial = 0; trial < 5; trial++)
    {
      double t = g_rand_double_range (rand, 0.001, 1.9);
      guint64 evals_sparse = 0, evals_dense = 0;
      random_state (sys, rand, y);
      g_assert_cmpint (hyd_ode_fd_jacobian (&problem, &o, TRUE, t, y, fd, ft_fd, &evals_sparse), ==, 0);
      g_assert_cmpint (hyd_ode_fd_jacobian (&problem, &o, FALSE, t, y, dense, NULL, &evals_dense), ==, 0);
      g_assert_cmpint (hyd_system_jacobian_sparse (sys, t, y, an, ft_an), ==, 0);
      /* f(t, y), one per group, one for ∂f/∂t; against f(t, y) and n */
      g_assert_cmpuint (evals_dense, ==, n + 1);
      g_assert_cmpuint (evals_sparse, <=, max_groups + 2);
      if (trial == 0)
        g_test_message ("n = %u: %" G_GUINT64_FORMAT " f evaluations for a sparse FD "
                        "Jacobian (dense: %" G_GUINT64_FORMAT ")", n, evals_sparse, evals_dense);

      for (guint j = 0; j < n; j++)
        for (guint k = colptr[j]; k < colptr[j + 1]; k++)
          {
            guint i = rowind[k];
            /* The groups only share columns that share no row, so each entry
             * is the same difference as column by column. */
            double d = dense[i + (gsize) j * n];
            g_assert_cmpfloat (fabs (fd[k] - d), <=, 1e-9 * fabs (d) + 1e-300);
          }
      /* and agrees with the analytic Jacobian to the accuracy of a forward
       * difference: error ~ √ε relative to the row's scale */
      for (guint i = 0; i < n; i++)
        {
          double rowmax = 0.0, errmax = 0.0;
          for (guint j = 0; j < n; j++)
            for (guint k = colptr[j]; k < colptr[j + 1]; k++)
              if (rowind[k] == i)
                {
                  double s = MAX (fabs (y[j]), atol[j] / o.rtol);
                  rowmax = MAX (rowmax, fabs (an[k]) * s);
                  errmax = MAX (errmax, fabs (fd[k] - an[k]) * s);
                }
          if (errmax > 1e-4 * rowmax)
            g_test_message ("row %s: FD error %g of %g", hyd_system_get_state_name (sys, i),
                            errmax, rowmax);
          g_assert_cmpfloat (errmax, <=, 1e-4 * rowmax + 1e-300);
        }
    }
  g_rand_free (rand);
  g_free (atol); g_free (y); g_free (fd); g_free (an); g_free (dense);
  g_free (ft_fd); g_free (ft_an);
}

static void
test_fd_colouring (void)
{
  /* A line's pattern is banded: a handful of groups whatever N is. */
  for (guint N = 20; N <= 200; N *= 10)
    {
      g_autofree char *json = line_circuit (N);
      HydSystem *sys = compile_json (json);
      check_fd_sparse (sys, 99 + N, 8);
      hyd_system_free (sys);
    }
  HydSystem *sys = compile_json (composite);
  check_fd_sparse (sys, 5, hyd_system_get_n_states (sys));
  hyd_system_free (sys);
}

/* ---- solving through the sparse path ---------------------------------- */

typedef struct {
  HydSystem *sys;
  HydOdeProblem problem;
  HydOdeOptions o;
  double *atol;
  double *y;
  guint n;
} LineRun;

static void
line_run_init (LineRun *r, guint segments, double t_end, double rtol)
{
  g_autofree char *json = line_circuit (segments);

  r->sys = compile_json (json);
  hyd_system_get_problem (r->sys, &r->problem);
  r->n = r->problem.n;
  r->atol = g_new (double, r->n);
  r->y = g_new (double, r->n);
  default_atol (r->sys, r->atol);
  memcpy (r->y, hyd_system_get_initial_state (r->sys), r->n * sizeof (double));
  hyd_ode_options_init (&r->o);
  r->o.t0 = 0.0;
  r->o.t_end = t_end;
  r->o.rtol = rtol;
  for (guint i = 0; i < r->n; i++)
    r->atol[i] *= rtol / 1e-6;
  r->o.atol = r->atol;
  const GArray *bp = hyd_system_get_breakpoints (r->sys);
  r->o.breakpoints = (const double *) bp->data;
  r->o.n_breakpoints = bp->len;
}

static void
line_run_clear (LineRun *r)
{
  hyd_system_free (r->sys);
  g_free (r->atol);
  g_free (r->y);
}

static HydOdeStatus
line_run_solve (LineRun *r, const char *solver, int linear_solver, gboolean fd,
                HydOdeResult *res)
{
  memcpy (r->y, hyd_system_get_initial_state (r->sys), r->n * sizeof (double));
  r->o.linear_solver = linear_solver;
  r->o.fd_jacobian = fd;
  HydOdeStatus st = hyd_ode_solve (solver, &r->problem, &r->o, r->y, res);
  if (st != HYD_ODE_SUCCESS)
    g_test_message ("%s: %s", solver, res->message);
  return st;
}

/* max over states of |a − b| / (atol + rtol·|b|) */
static double
weighted_diff (const LineRun *r, const double *a, const double *b)
{
  double w = 0.0;
  for (guint i = 0; i < r->n; i++)
    w = MAX (w, fabs (a[i] - b[i]) / (r->atol[i] + r->o.rtol * fabs (b[i])));
  return w;
}

/* Sparse and dense runs of the same method: a Rosenbrock method (no
 * iteration) takes the same steps up to rounding, so the results agree to
 * well within the tolerance (exact is TRUE); a method with Newton
 * iterations may take another path from a rounding-level difference, so
 * its sparse result must be as close to the reference y_ref as its dense one
 * (within a factor 3, or the tolerance). With the FD Jacobian too: column
 * groups give the same differences as columns one by one. check_counts: the
 * method's Jacobians are the driver's (not, as for `auto`, also a dense one
 * of its own), so the sparse FD run saves n − a few evaluations on each. */
static void
compare_paths (LineRun *r, const char *solver, gboolean exact, gboolean check_counts,
               const double *y_ref)
{
  HydOdeResult rd = { 0 }, rs = { 0 };
  g_autofree double *y_dense = g_new (double, r->n);

  for (int fd = 0; fd < 2; fd++)
    {
      g_assert_cmpint (line_run_solve (r, solver, HYD_LINEAR_SOLVER_DENSE, fd, &rd), ==,
                       HYD_ODE_SUCCESS);
      memcpy (y_dense, r->y, r->n * sizeof (double));
      g_assert_cmpint (line_run_solve (r, solver, HYD_LINEAR_SOLVER_SPARSE, fd, &rs), ==,
                       HYD_ODE_SUCCESS);
      double w = weighted_diff (r, r->y, y_dense);
      double e_dense = y_ref ? weighted_diff (r, y_dense, y_ref) : 0.0;
      double e_sparse = y_ref ? weighted_diff (r, r->y, y_ref) : 0.0;
      g_test_message ("%s, %u states, %s Jacobian: dense %" G_GUINT64_FORMAT " steps, %"
                      G_GUINT64_FORMAT " f evaluations, error %.3g; sparse %" G_GUINT64_FORMAT
                      " steps, %" G_GUINT64_FORMAT " f evaluations, error %.3g; weighted "
                      "difference %.3g", solver, r->n, fd ? "FD" : "analytic", rd.stats.steps,
                      rd.stats.f_evals, e_dense, rs.stats.steps, rs.stats.f_evals, e_sparse, w);
      if (exact)
        g_assert_cmpfloat (w, <, 1e-2);
      else
        g_assert_cmpfloat (e_sparse, <=, 3.0 * e_dense + 1.0);
      if (fd && check_counts)
        {
          /* dense: n + 1 evaluations a Jacobian (with ∂f/∂t); sparse: one
           * per group (5 for this circuit) + 1 */
          double other = (double) rd.stats.f_evals - (double) rd.stats.jac_evals * (r->n + 1);
          g_assert_cmpuint (rs.stats.jac_evals, ==, rd.stats.jac_evals);
          g_assert_cmpfloat ((double) rs.stats.f_evals, <=, other + 8.0 * rs.stats.jac_evals);
        }
      hyd_ode_result_clear (&rd);
      hyd_ode_result_clear (&rs);
    }
}

/* rodas4 on 50 segments; every implicit method (any of them factors through
 * HydLinSolver, the complex KLU path included) on 12, against a tight
 * reference. */
static void
test_line_sparse_vs_dense (void)
{
  LineRun r;
  HydOdeResult res = { 0 };
  guint n_solvers;
  const HydSolverInfo *list = hyd_solver_list (&n_solvers);

  line_run_init (&r, 50, 0.02, 1e-6);
  compare_paths (&r, "rodas4", TRUE, TRUE, NULL);
  line_run_clear (&r);

  line_run_init (&r, 12, 0.01, 1e-9);
  g_assert_cmpint (line_run_solve (&r, "rodas4", HYD_LINEAR_SOLVER_DENSE, FALSE, &res), ==,
                   HYD_ODE_SUCCESS);
  hyd_ode_result_clear (&res);
  g_autofree double *y_ref = g_memdup2 (r.y, r.n * sizeof (double));
  line_run_clear (&r);

  line_run_init (&r, 12, 0.01, 1e-5);
  for (guint s = 0; s < n_solvers; s++)
    if (list[s].implicit && list[s].adaptive)
      compare_paths (&r, list[s].id, g_str_has_prefix (list[s].id, "ros")
                                     || g_str_has_prefix (list[s].id, "rodas"), FALSE, y_ref);
  line_run_clear (&r);
}

/* 1000 segments: about 2000 states, far past what dense LU could do in a
 * test (an n³ factorisation per step); the automatic choice takes KLU. */
static void
test_line_1000 (void)
{
  LineRun r;
  HydOdeResult res = { 0 };

  line_run_init (&r, 1000, 0.2, 1e-5);
  g_assert_cmpuint (r.n, >=, 1999);
  g_assert_cmpuint (r.n, >=, HYD_SPARSE_THRESHOLD);
  g_assert_cmpuint (r.problem.nnz, <=, HYD_SPARSE_MAX_PER_COLUMN * r.n);
  g_assert_cmpint (line_run_solve (&r, "rodas4", HYD_LINEAR_SOLVER_AUTO, FALSE, &res), ==,
                   HYD_ODE_SUCCESS);
  g_assert_cmpfloat (res.t, ==, 0.2);
  g_test_message ("1000 segments (%u states): %" G_GUINT64_FORMAT " steps, %" G_GUINT64_FORMAT
                  " rejected, %" G_GUINT64_FORMAT " LU, %.3f s", r.n, res.stats.steps,
                  res.stats.rejected, res.stats.lu, res.stats.wall_s);

  /* By then the line carries the steady flow of the orifice divider: one
   * flow through O1, the line and O2, and the pressures fall along it. */
  static const char *const names[] = { "L1.A.p", "L1.B.p", "O1.A.q", "L1.q_A", "L1.q_B", "O2.A.q" };
  int vars[G_N_ELEMENTS (names)];
  double v[G_N_ELEMENTS (names)], v2[G_N_ELEMENTS (names)];
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      vars[k] = hyd_system_find_variable (r.sys, names[k]);
      g_assert_cmpint (vars[k], >=, 0);
    }
  g_assert_cmpint (hyd_system_eval_variables (r.sys, res.t, r.y, vars, G_N_ELEMENTS (names), v), ==, 0);
  g_test_message ("at t = 0.2: p_A %.6g, p_B %.6g, q_O1 %.6g, q_A %.6g, q_B %.6g, q_O2 %.6g",
                  v[0], v[1], v[2], v[3], v[4], v[5]);
  g_assert_cmpfloat (v[0], >, v[1]);
  g_assert_cmpfloat (v[0], <, 1e7);
  g_assert_cmpfloat (v[1], >, 1e5);
  g_assert_cmpfloat (v[2], >, 0.0);
  for (guint k = 3; k < G_N_ELEMENTS (names); k++)
    g_assert_cmpfloat (fabs (fabs (v[k]) - v[2]), <, 1e-3 * v[2]);
  hyd_ode_result_clear (&res);

  /* radau5 (complex KLU for its complex block) on the same line agrees */
  g_autofree double *y_rodas = g_memdup2 (r.y, r.n * sizeof (double));
  g_assert_cmpint (line_run_solve (&r, "radau5", HYD_LINEAR_SOLVER_AUTO, FALSE, &res), ==,
                   HYD_ODE_SUCCESS);
  g_test_message ("radau5: %" G_GUINT64_FORMAT " steps, %.3f s, weighted difference to rodas4 %.3g",
                  res.stats.steps, res.stats.wall_s, weighted_diff (&r, r.y, y_rodas));
  g_assert_cmpint (hyd_system_eval_variables (r.sys, res.t, r.y, vars, G_N_ELEMENTS (names), v2), ==, 0);
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    g_assert_cmpfloat (fabs (v2[k] - v[k]), <, 1e-3 * fabs (v[k]));
  hyd_ode_result_clear (&res);
  line_run_clear (&r);
}

/* ---- problems with one kind of Jacobian, the other kind of storage ---- */

/* y_i' = k·(y_{i−1} − 2y_i + y_{i+1}) − λ_i·y_i + sin(t): a stiff chain. */
#define CHAIN_N 60

static const guint *chain_colptr, *chain_rowind;

static int
chain_rhs (double t, const double *y, double *f, gpointer user)
{
  for (guint i = 0; i < CHAIN_N; i++)
    {
      double l = i > 0 ? y[i - 1] : 0.0, r = i + 1 < CHAIN_N ? y[i + 1] : 0.0;
      f[i] = 1e3 * (l - 2.0 * y[i] + r) - (1.0 + i) * y[i] + sin (t);
    }
  return 0;
}

static int
chain_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  memset (J, 0, sizeof (double) * CHAIN_N * CHAIN_N);
  for (guint i = 0; i < CHAIN_N; i++)
    {
      J[i + i * CHAIN_N] = -2e3 - (1.0 + i);
      if (i > 0)
        J[i + (i - 1) * CHAIN_N] = 1e3;
      if (i + 1 < CHAIN_N)
        J[i + (i + 1) * CHAIN_N] = 1e3;
      if (dfdt)
        dfdt[i] = cos (t);
    }
  return 0;
}

static int
chain_jac_sparse (double t, const double *y, double *v, double *dfdt, gpointer user)
{
  for (guint j = 0; j < CHAIN_N; j++)
    for (guint k = chain_colptr[j]; k < chain_colptr[j + 1]; k++)
      v[k] = chain_rowind[k] == j ? -2e3 - (1.0 + j) : 1e3;
  if (dfdt)
    for (guint i = 0; i < CHAIN_N; i++)
      dfdt[i] = cos (t);
  return 0;
}

static void
test_callback_kinds (void)
{
  guint colptr[CHAIN_N + 1], rowind[3 * CHAIN_N];
  guint nnz = 0;
  for (guint j = 0; j < CHAIN_N; j++)
    {
      colptr[j] = nnz;
      for (guint i = j > 0 ? j - 1 : 0; i <= j + 1 && i < CHAIN_N; i++)
        rowind[nnz++] = i;
    }
  colptr[CHAIN_N] = nnz;
  chain_colptr = colptr;
  chain_rowind = rowind;

  HydOdeProblem full = {
    .n = CHAIN_N, .rhs = chain_rhs, .jac = chain_jac, .jac_sparse = chain_jac_sparse,
    .nnz = nnz, .colptr = colptr, .rowind = rowind,
  };
  double atol[CHAIN_N], y[CHAIN_N], y_ref[CHAIN_N];
  HydOdeOptions o;
  HydOdeResult r = { 0 };
  for (guint i = 0; i < CHAIN_N; i++)
    atol[i] = 1e-8;
  hyd_ode_options_init (&o);
  o.t_end = 3.0;
  o.rtol = 1e-7;
  o.atol = atol;

  o.linear_solver = HYD_LINEAR_SOLVER_DENSE;
  memset (y_ref, 0, sizeof y_ref);
  g_assert_cmpint (hyd_ode_solve ("rodas4", &full, &o, y_ref, &r), ==, HYD_ODE_SUCCESS);
  hyd_ode_result_clear (&r);

  /* every combination of callbacks and storage reaches the same answer */
  for (int kind = 0; kind < 6; kind++)
    {
      HydOdeProblem p = full;
      o.linear_solver = kind % 2 ? HYD_LINEAR_SOLVER_SPARSE : HYD_LINEAR_SOLVER_DENSE;
      o.fd_jacobian = kind >= 4;
      if (kind / 2 == 0)
        p.jac = NULL;        /* sparse callback only */
      else if (kind / 2 == 1)
        p.jac_sparse = NULL; /* dense callback only */
      memset (y, 0, sizeof y);
      g_assert_cmpint (hyd_ode_solve ("rodas4", &p, &o, y, &r), ==, HYD_ODE_SUCCESS);
      double w = 0.0;
      for (guint i = 0; i < CHAIN_N; i++)
        w = MAX (w, fabs (y[i] - y_ref[i]) / (atol[i] + o.rtol * fabs (y_ref[i])));
      g_assert_cmpfloat (w, <, kind >= 4 ? 50.0 : 1e-2);
      if (kind == 5)
        /* a tridiagonal pattern needs 3 groups: 4 f evaluations a Jacobian
         * instead of CHAIN_N + 1 */
        g_assert_cmpuint (r.stats.f_evals, <, r.stats.jac_evals * 4 + r.stats.steps * 6
                                                + r.stats.rejected * 6 + 10);
      hyd_ode_result_clear (&r);
    }

  /* bad input */
  HydOdeProblem nopat = full;
  nopat.colptr = NULL;
  nopat.rowind = NULL;
  nopat.jac_sparse = NULL;
  o.fd_jacobian = FALSE;
  o.linear_solver = HYD_LINEAR_SOLVER_SPARSE;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &nopat, &o, y, &r), ==, HYD_ODE_BAD_INPUT);
  g_assert_nonnull (strstr (r.message, "pattern"));
  hyd_ode_result_clear (&r);
  o.linear_solver = 7;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &full, &o, y, &r), ==, HYD_ODE_BAD_INPUT);
  g_assert_nonnull (strstr (r.message, "linear_solver"));
  hyd_ode_result_clear (&r);
  HydOdeProblem badpat = full;
  guint bad_rows[3 * CHAIN_N];
  memcpy (bad_rows, rowind, sizeof (guint) * nnz);
  bad_rows[5] = CHAIN_N;
  badpat.rowind = bad_rows;
  o.linear_solver = HYD_LINEAR_SOLVER_AUTO;
  g_assert_cmpint (hyd_ode_solve ("rodas4", &badpat, &o, y, &r), ==, HYD_ODE_BAD_INPUT);
  g_assert_nonnull (strstr (r.message, "out of range"));
  hyd_ode_result_clear (&r);
}

/* ---- measurements (-m perf) --------------------------------------------- */

/* Wall time per attempted step of rodas4 on a circuit's problem with the
 * dense and the sparse path: the best of five interleaved runs. */
static void
time_per_step (HydSystem *sys, const HydOdeOptions *base, double *dense_us, double *sparse_us,
               guint64 *steps)
{
  HydOdeProblem problem;
  guint n = hyd_system_get_n_states (sys);
  g_autofree double *y = g_new (double, n);
  HydOdeOptions o = *base;

  hyd_system_get_problem (sys, &problem);
  *dense_us = *sparse_us = G_MAXDOUBLE;
  for (int rep = 0; rep < 5; rep++)
    for (int ls = HYD_LINEAR_SOLVER_DENSE; ls <= HYD_LINEAR_SOLVER_SPARSE; ls++)
      {
        HydOdeResult r = { 0 };
        memcpy (y, hyd_system_get_initial_state (sys), n * sizeof (double));
        o.linear_solver = ls;
        g_assert_cmpint (hyd_ode_solve ("rodas4", &problem, &o, y, &r), ==, HYD_ODE_SUCCESS);
        double us = 1e6 * r.stats.wall_s / (r.stats.steps + r.stats.rejected);
        double *best = ls == HYD_LINEAR_SOLVER_DENSE ? dense_us : sparse_us;
        *best = MIN (*best, us);
        *steps = r.stats.steps;
        hyd_ode_result_clear (&r);
      }
}

/* LAPACK dgetrf + 4 solves against KLU (refactor) + 4 solves of the same
 * shifted matrix, µs each, best of five. */
static void
time_factor (const HydJac *S, const HydJac *D, double *dense_us, double *sparse_us)
{
  guint n = S->n;
  g_autoptr (HydLinSolver) ls_s = hyd_linsolver_new (S);
  g_autoptr (HydLinSolver) ls_d = hyd_linsolver_new (D);
  g_autofree double *b = g_new0 (double, n);
  guint reps = 400000 / (n * n + 20) + 20;
  double shift = 0.0;

  /* a shift that dominates every column: no pivoting trouble in the way */
  for (guint j = 0; j < n; j++)
    {
      double c = 0.0;
      for (guint k = S->colptr[j]; k < S->colptr[j + 1]; k++)
        c += fabs (S->values[k]);
      shift = MAX (shift, 2.0 * c + 1.0);
    }
  g_assert_cmpint (hyd_linsolver_factor (ls_s, shift, S), ==, 0);
  *dense_us = *sparse_us = G_MAXDOUBLE;
  for (int rep = 0; rep < 5; rep++)
    {
      gint64 t0 = g_get_monotonic_time ();
      for (guint k = 0; k < reps; k++)
        {
          hyd_linsolver_factor (ls_d, shift * (1.0 + 1e-4 * k), D);
          for (int m = 0; m < 4; m++)
            hyd_linsolver_solve (ls_d, b);
        }
      gint64 t1 = g_get_monotonic_time ();
      for (guint k = 0; k < reps; k++)
        {
          hyd_linsolver_factor (ls_s, shift * (1.0 + 1e-4 * k), S);
          for (int m = 0; m < 4; m++)
            hyd_linsolver_solve (ls_s, b);
        }
      gint64 t2 = g_get_monotonic_time ();
      *dense_us = MIN (*dense_us, (double) (t1 - t0) / reps);
      *sparse_us = MIN (*sparse_us, (double) (t2 - t1) / reps);
    }
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

/* The measurements behind HYD_SPARSE_THRESHOLD and HYD_SPARSE_MAX_FILL:
 * rodas4 per step on the example circuits and on distributed lines of
 * growing size (the whole step: assembly, LU, solves), and the LU with its
 * solves alone on lines and on random patterns of fixed density. */
static void
perf_threshold (void)
{
  g_autofree char *dir = g_build_filename (HYD_TEST_DATA_DIR, "examples", NULL);
  g_autoptr (GDir) gdir = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (gdir);
  while ((name = g_dir_read_name (gdir)) != NULL)
    if (g_str_has_suffix (name, ".bramah"))
      g_ptr_array_add (files, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (files, compare_names);
  g_test_message ("examples: circuit, n, nnz, steps, dense us/step, sparse us/step, ratio");
  for (guint f = 0; f < files->len; f++)
    {
      GError *error = NULL;
      g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_file (files->pdata[f], &error);
      g_assert_no_error (error);
      HydSystem *sys = hyd_system_compile (circuit, &error);
      g_assert_no_error (error);
      HydSimOptions sim;
      g_assert_true (hyd_circuit_get_sim_options (circuit, &sim, NULL));
      guint n = hyd_system_get_n_states (sys), nnz;
      const guint *colptr, *rowind;
      hyd_system_get_pattern (sys, &nnz, &colptr, &rowind);
      g_autofree double *atol = g_new (double, n);
      hyd_system_get_atol (sys, &sim, atol);
      HydOdeOptions o;
      hyd_ode_options_init (&o);
      o.t_end = sim.t_end;
      o.rtol = sim.rtol;
      o.atol = atol;
      o.max_step = sim.max_step;
      const GArray *bp = hyd_system_get_breakpoints (sys);
      o.breakpoints = (const double *) bp->data;
      o.n_breakpoints = bp->len;
      double td, ts;
      guint64 steps;
      time_per_step (sys, &o, &td, &ts, &steps);
      g_autofree char *base = g_path_get_basename (files->pdata[f]);
      g_test_message ("examples: %s, %u, %u, %" G_GUINT64_FORMAT ", %.2f, %.2f, %.2f",
                      base, n, nnz, steps, td, ts, td / ts);
      hyd_sim_options_clear (&sim);
      hyd_system_free (sys);
    }

  const guint segs[] = { 2, 4, 8, 16, 32, 64, 128, 192 };
  g_test_message ("lines: n, nnz, dense us/step, sparse us/step, LAPACK LU+4 solves us, "
                  "KLU refactor+4 solves us");
  for (guint s = 0; s < G_N_ELEMENTS (segs); s++)
    {
      LineRun r;
      line_run_init (&r, segs[s], 0.02, 1e-6);
      double td, ts, fd, fs;
      guint64 steps;
      time_per_step (r.sys, &r.o, &td, &ts, &steps);
      g_autoptr (HydJac) S = hyd_jac_new_sparse (r.n, r.problem.nnz, r.problem.colptr,
                                                 r.problem.rowind);
      g_autoptr (HydJac) D = hyd_jac_new_dense (r.n);
      hyd_system_set_interval (r.sys, 0.0, 0.005);
      hyd_system_jacobian (r.sys, 0.001, r.y, D->dense, NULL);
      hyd_system_jacobian_sparse (r.sys, 0.001, r.y, S->values, NULL);
      time_factor (S, D, &fd, &fs);
      g_test_message ("lines: %u, %u, %.2f, %.2f, %.2f, %.2f", r.n, r.problem.nnz, td, ts, fd, fs);
      line_run_clear (&r);
    }

  const double density[] = { 0.15, 0.3, 0.5, 1.0 };
  const guint sizes[] = { 2, 4, 8, 16, 24, 32, 48, 64, 96 };
  GRand *rand = g_rand_new_with_seed (5);
  g_test_message ("random: density, n, nnz, LAPACK LU+4 solves us, KLU refactor+4 solves us");
  for (guint di = 0; di < G_N_ELEMENTS (density); di++)
    for (guint si = 0; si < G_N_ELEMENTS (sizes); si++)
      {
        guint n = sizes[si];
        GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint));
        g_autofree guint *colptr = g_new0 (guint, n + 1);
        for (guint j = 0; j < n; j++)
          {
            for (guint i = 0; i < n; i++)
              if (i == j || g_rand_double (rand) < density[di])
                g_array_append_val (rows, i);
            colptr[j + 1] = rows->len;
          }
        guint nnz = rows->len;
        g_autofree guint *rowind = (guint *) g_array_free (rows, FALSE);
        g_autoptr (HydJac) S = hyd_jac_new_sparse (n, nnz, colptr, rowind);
        g_autoptr (HydJac) D = hyd_jac_new_dense (n);
        random_values (rand, S, D);
        double fd, fs;
        time_factor (S, D, &fd, &fs);
        g_test_message ("random: %.2f, %u, %u, %.2f, %.2f", density[di], n, nnz, fd, fs);
      }
  g_rand_free (rand);
}

/* rodas4 through the sparse path on N = 100, 1000, 10000 segments: wall
 * time per attempted step (the best of several runs, more for the short
 * ones) and its growth exponent log(t₂/t₁)/log(N₂/N₁). */
static void
perf_scaling (void)
{
  const guint segs[] = { 100, 1000, 10000 };
  double per_step[G_N_ELEMENTS (segs)];

  for (guint s = 0; s < G_N_ELEMENTS (segs); s++)
    {
      LineRun r;
      HydOdeResult res = { 0 };
      guint reps = MAX (3, 20000 / segs[s]);
      line_run_init (&r, segs[s], 0.02, 1e-5);
      per_step[s] = G_MAXDOUBLE;
      for (guint k = 0; k < reps; k++)
        {
          hyd_ode_result_clear (&res);
          g_assert_cmpint (line_run_solve (&r, "rodas4", HYD_LINEAR_SOLVER_AUTO, FALSE, &res), ==, 0);
          per_step[s] = MIN (per_step[s], res.stats.wall_s / (res.stats.steps + res.stats.rejected));
        }
      g_test_message ("scaling: N = %u (%u states, %u entries): %" G_GUINT64_FORMAT " steps, %"
                      G_GUINT64_FORMAT " rejected, %" G_GUINT64_FORMAT " LU, best of %u: %.1f us "
                      "per step", segs[s], r.n, r.problem.nnz, res.stats.steps, res.stats.rejected,
                      res.stats.lu, reps, per_step[s] * 1e6);
      if (s > 0)
        g_test_message ("scaling: exponent %u to %u: %.3f", segs[s - 1], segs[s],
                        log (per_step[s] / per_step[s - 1]) / log ((double) segs[s] / segs[s - 1]));
      hyd_ode_result_clear (&res);
      line_run_clear (&r);
    }
  g_test_message ("scaling: exponent 100 to 10000: %.3f",
                  log (per_step[2] / per_step[0]) / log (100.0));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sparse/klu-real", test_klu_real);
  g_test_add_func ("/sparse/klu-pivot-fallback", test_klu_pivot_fallback);
  g_test_add_func ("/sparse/klu-complex", test_klu_complex);
  g_test_add_func ("/sparse/small-dense-lu", test_small_dense_lu);
  g_test_add_func ("/sparse/klu-singular", test_klu_singular);
  g_test_add_func ("/sparse/system-jacobian", test_system_sparse_jacobian);
  g_test_add_func ("/sparse/system-problem", test_system_problem);
  g_test_add_func ("/sparse/fd-colouring", test_fd_colouring);
  g_test_add_func ("/sparse/callback-kinds", test_callback_kinds);
  g_test_add_func ("/sparse/line-sparse-vs-dense", test_line_sparse_vs_dense);
  g_test_add_func ("/sparse/line-1000", test_line_1000);
  if (g_test_perf ())
    {
      g_test_add_func ("/sparse/perf/threshold", perf_threshold);
      g_test_add_func ("/sparse/perf/scaling", perf_scaling);
    }
  return g_test_run ();
}
