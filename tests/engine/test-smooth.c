/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-smooth.c — the shared smooth helpers and the fluid models. */
#include <math.h>
#include "hyd-smooth.h"
#include "hyd-fluid.h"

/* central difference of a scalar helper */
typedef double (*Helper) (double z, double eps, double *d);

static void
check_derivative (Helper fn, double eps, double lo, double hi)
{
  for (int k = 0; k <= 400; k++)
    {
      double z = lo + (hi - lo) * k / 400.0;
      double d;
      fn (z, eps, &d);
      double h = 1e-7 * eps;
      double fd = (fn (z + h, eps, NULL) - fn (z - h, eps, NULL)) / (2 * h);
      g_assert_cmpfloat_with_epsilon (d, fd, 1e-5 * MAX (1.0, fabs (fd)));
    }
}

static void
test_soft_ramp (void)
{
  double d;
  g_assert_cmpfloat (hyd_soft_ramp (-1.0, 0.01, &d), ==, 0.0);
  g_assert_cmpfloat (d, ==, 0.0);
  g_assert_cmpfloat_with_epsilon (hyd_soft_ramp (0.005, 0.01, &d), 0.005 * 0.005 / 0.02, 1e-15);
  g_assert_cmpfloat_with_epsilon (d, 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (hyd_soft_ramp (2.0, 0.01, &d), 2.0 - 0.005, 1e-15);
  g_assert_cmpfloat (d, ==, 1.0);
  /* C¹ at both seams */
  double dl, dr;
  hyd_soft_ramp (0.01 - 1e-12, 0.01, &dl);
  hyd_soft_ramp (0.01 + 1e-12, 0.01, &dr);
  g_assert_cmpfloat_with_epsilon (dl, dr, 1e-9);
  check_derivative (hyd_soft_ramp, 0.01, -0.02, 0.03);
  g_assert_cmpfloat (hyd_soft_ramp_dd (0.005, 0.01), ==, 100.0);
  g_assert_cmpfloat (hyd_soft_ramp_dd (0.02, 0.01), ==, 0.0);
}

static void
test_open01 (void)
{
  double d;
  /* exactly 0 for z ≤ 0, exactly 1 for z ≥ 1, ½ at ½ */
  g_assert_cmpfloat (hyd_open01 (0.0, 0.01, &d), ==, 0.0);
  g_assert_cmpfloat (hyd_open01 (-3.0, 0.01, &d), ==, 0.0);
  g_assert_cmpfloat (hyd_open01 (1.0, 0.01, &d), ==, 1.0);
  g_assert_cmpfloat (hyd_open01 (7.0, 0.01, &d), ==, 1.0);
  g_assert_cmpfloat_with_epsilon (hyd_open01 (0.5, 0.01, &d), 0.5, 1e-15);
  g_assert_cmpfloat_with_epsilon (d, 1.01, 1e-12);
  /* the blends land exactly on the ends: continuous value and slope */
  g_assert_cmpfloat_with_epsilon (hyd_open01 (1e-14, 0.01, NULL), 0.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (hyd_open01 (1 - 1e-14, 0.01, NULL), 1.0, 1e-12);
  check_derivative (hyd_open01, 0.01, -0.05, 1.05);
  check_derivative (hyd_clamp01, 0.01, -0.05, 1.05);
}

static void
test_sgn_smooth (void)
{
  double d;
  g_assert_cmpfloat (hyd_sgn_smooth (0.0, 1e-3, &d), ==, 0.0);
  g_assert_cmpfloat_with_epsilon (d, 1000.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (hyd_sgn_smooth (1.0, 1e-3, NULL), 1.0, 1e-15);
  g_assert_cmpfloat_with_epsilon (hyd_sgn_smooth (-1.0, 1e-3, NULL), -1.0, 1e-15);
}

static void
test_bulk_models (void)
{
  HydFluid f;
  hyd_fluid_init_default (&f);
  double dB;
  g_assert_cmpfloat (hyd_fluid_bulk_modulus (&f, 1e7, &dB), ==, 1.5e9);
  g_assert_cmpfloat (dB, ==, 0.0);

  /* Tait: B(0) = B0; dB/dp = 1/a − 1 at 0 (Esqué 2008, eq. 3.2: ≈ 10.1 for a = 0.09) */
  f.bulk_model = HYD_BULK_TAIT;
  g_assert_cmpfloat_with_epsilon (hyd_fluid_bulk_modulus (&f, 0.0, &dB), 1.5e9, 1e-3);
  g_assert_cmpfloat_with_epsilon (dB, 1.0 / 0.09 - 1.0, 1e-9);
  /* never NaN, even far below vacuum */
  g_assert_true (isfinite (hyd_fluid_bulk_modulus (&f, -1e9, &dB)));

  /* air: 2.78e7 Pa at 0 bar gauge with the default air fraction (circuit-format.md) */
  f.bulk_model = HYD_BULK_AIR;
  double B0 = hyd_fluid_bulk_modulus (&f, 0.0, &dB);
  g_assert_cmpfloat_with_epsilon (B0, 2.78e7, 0.01e7);
  g_assert_cmpfloat (dB, >, 0.0);
  g_assert_true (isfinite (hyd_fluid_bulk_modulus (&f, -5e5, &dB)));
  /* approaches the liquid's modulus at high pressure */
  g_assert_cmpfloat (hyd_fluid_bulk_modulus (&f, 3e7, NULL), >, 1.0e9);

  /* derivatives of both pressure-dependent models against central differences */
  for (int model = HYD_BULK_TAIT; model <= HYD_BULK_AIR; model++)
    {
      f.bulk_model = model;
      for (double p = -1.2e5; p < 4e7; p = p < 1e5 ? p + 7.3e3 : p * 1.7)
        {
          hyd_fluid_bulk_modulus (&f, p, &dB);
          double h = 1e-3 * MAX (fabs (p), 1e3);
          double fd = (hyd_fluid_bulk_modulus (&f, p + h, NULL) - hyd_fluid_bulk_modulus (&f, p - h, NULL)) / (2 * h);
          g_assert_cmpfloat_with_epsilon (dB, fd, 1e-4 * MAX (fabs (fd), 1.0) + 1e-3);
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/smooth/soft-ramp", test_soft_ramp);
  g_test_add_func ("/engine/smooth/open01-exact-ends", test_open01);
  g_test_add_func ("/engine/smooth/sgn-smooth", test_sgn_smooth);
  g_test_add_func ("/engine/fluid/bulk-modulus-models", test_bulk_models);
  return g_test_run ();
}
