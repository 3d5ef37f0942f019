/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-fdcheck.c — the finite-difference verdict shared by jacobian-check and
 * the tests: the rounding limit of a quotient and the order of a listing. */
#include <float.h>
#include <math.h>
#include "hyd-fdcheck.h"

/* The entry of issue 8: ∂ṗ_A/∂spool of regenerative.bramah at t = 4.8 s, where
 * the cap end A drains through the almost fully open A→T path (q = 5.1e-4 m³/s)
 * while the spool is at 9.4e-8. The analytic entry is right (a 40-digit
 * evaluation of the same laws gives ∂q/∂u = 4.907150830e-9 m³/s, the entry
 * divided by the quotient 0.999127544 against 0.999127552 exact); both
 * quotients carry the rounding of the 5.1e-4 m³/s flow, whose change over the
 * step is 2e-13 of it, and happened to agree with each other. */
static const double regen_J = 871.87846326384897;
static const double regen_d1 = 872.63980553586862;
static const double regen_d2 = 872.63980539376007;
static const double regen_noise = 1.9321e-06; /* 64·ε·(|f_i| + Σ_k |J_ik·y_k|) */
static const double regen_h = 1e-7;

static void
test_rounding_limited_entry (void)
{
  double err;
  /* the spec's rule alone calls it failing ... */
  g_assert_cmpint (hyd_fd_judge (regen_J, regen_d1, regen_d2, 0.0, &err), ==, HYD_FD_FAIL);
  g_assert_cmpfloat (err, >, HYD_FD_TOL);
  /* ... but its effect is far above the rounding level of the row, */
  g_assert_cmpfloat (fabs (regen_J) * regen_h, >, 10.0 * regen_noise);
  /* and the disagreement is within the rounding error of the quotient */
  g_assert_true (hyd_fd_unresolved (regen_J, regen_d1, regen_h, regen_noise));
}

static void
test_wrong_entry_stays_failing (void)
{
  /* The same row with an entry 5 % off, or off in sign, is judged wrong. */
  double err;
  for (int k = 0; k < 2; k++)
    {
      double J = k == 0 ? 1.05 * regen_d1 : -regen_d1;
      g_assert_cmpint (hyd_fd_judge (J, regen_d1, regen_d2, 0.0, &err), ==, HYD_FD_FAIL);
      g_assert_false (hyd_fd_unresolved (J, regen_d1, regen_h, regen_noise));
    }
  /* A row without rounding trouble resolves a 0.1 % error. */
  double row = 1e3 * 1e-7;  /* |J|·h = 1e-4 */
  double noise = 64.0 * DBL_EPSILON * 1e3;
  g_assert_false (hyd_fd_unresolved (1.001e3, 1e3, 1e-7, noise));
  g_assert_cmpfloat (row, >, noise);
  /* An entry whose whole effect is below the rounding level stays unresolved. */
  g_assert_true (hyd_fd_unresolved (1e-12, 5.0, 1e-7, 1e-15));
}

/* Synthetic: f(u) = S·(1 − c·u²) − S + r(u) sums two large terms that cancel,
 * as a node row sums flows. Its quotients carry ε·S/h of rounding; the
 * exact derivative −2·S·c·u must not be failed however the rounding falls,
 * while a derivative off by 10 % must be. */
static double
cancelling_row (double u, double S, double c)
{
  volatile double big = S * (1.0 - c * u * u);
  return big - S;
}

static void
test_cancelling_row (void)
{
  const double S = 9e7, c = 5e-5;
  guint exact_failed = 0, wrong_caught = 0, trials = 0;
  for (int k = 1; k <= 200; k++)
    {
      double u = 1e-3 * k;
      double h = 1e-7;
      double d1 = (cancelling_row (u + h, S, c) - cancelling_row (u - h, S, c)) / (2 * h);
      double d2 = (cancelling_row (u + h / 10, S, c) - cancelling_row (u - h / 10, S, c)) / (2 * h / 10);
      double J = -2.0 * S * c * u;
      double f0 = cancelling_row (u, S, c);
      /* the row's terms: |f| + |S| (what Σ |J_ik·y_k| stands for in a system) */
      double noise = 64.0 * DBL_EPSILON * (fabs (f0) + S);
      double err;
      trials++;
      if (hyd_fd_judge (J, d1, d2, 0.0, &err) == HYD_FD_FAIL && !hyd_fd_unresolved (J, d1, h, noise))
        exact_failed++;
      double Jw = 1.1 * J;
      if (hyd_fd_judge (Jw, d1, d2, 0.0, &err) == HYD_FD_FAIL && !hyd_fd_unresolved (Jw, d1, h, noise))
        wrong_caught++;
    }
  g_test_message ("%u points: exact entry failed %u times, 10 %% wrong entry caught %u times",
                  trials, exact_failed, wrong_caught);
  g_assert_cmpuint (exact_failed, ==, 0);
  /* resolvable where the effect over the step dominates the rounding: u ≳ 0.01 */
  g_assert_cmpuint (wrong_caught, >=, 180);
}

static void
test_listing_order (void)
{
  /* seams with error 1 and an unresolved entry must not hide a failing one */
  HydFdEntry e[] = {
    { .err = 1.0, .row = 0, .verdict = HYD_FD_SEAM },
    { .err = 8.7e-4, .row = 1, .verdict = HYD_FD_FAIL },
    { .err = 0.84, .row = 2, .verdict = HYD_FD_SEAM },
    { .err = 5e-7, .row = 3, .verdict = HYD_FD_OK },
    { .err = 2e-3, .row = 4, .verdict = HYD_FD_FAIL },
    { .err = 0.5, .row = 5, .verdict = HYD_FD_SEAM, .unresolved = TRUE },
  };
  g_autoptr (GArray) a = g_array_new (FALSE, FALSE, sizeof (HydFdEntry));
  g_array_append_vals (a, e, G_N_ELEMENTS (e));
  g_array_sort (a, hyd_fd_entry_compare);
  const guint want[] = { 4, 1, 0, 2, 5, 3 };
  for (guint k = 0; k < G_N_ELEMENTS (want); k++)
    g_assert_cmpuint (g_array_index (a, HydFdEntry, k).row, ==, want[k]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fdcheck/rounding-limited-entry", test_rounding_limited_entry);
  g_test_add_func ("/fdcheck/wrong-entry-stays-failing", test_wrong_entry_stays_failing);
  g_test_add_func ("/fdcheck/cancelling-row", test_cancelling_row);
  g_test_add_func ("/fdcheck/listing-order", test_listing_order);
  return g_test_run ();
}
