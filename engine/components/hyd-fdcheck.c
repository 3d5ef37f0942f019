/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-fdcheck.c — the finite-difference verdict of spec/cli.md. */
#include "hyd-fdcheck.h"

#include <float.h>
#include <math.h>

double
hyd_fd_error (double J, double D, double floor)
{
  double den = MAX (fabs (D), MAX (floor, 1e-12));
  return fabs (J - D) / den;
}

HydFdVerdict
hyd_fd_judge (double J, double d1, double d2, double floor, double *err)
{
  double e1 = hyd_fd_error (J, d1, floor);
  double e2 = hyd_fd_error (J, d2, floor);
  if (err)
    *err = MIN (e1, e2);
  if (!isfinite (J) || !isfinite (d1) || !isfinite (d2))
    {
      if (err) *err = INFINITY;
      return HYD_FD_FAIL;
    }
  if (e1 <= HYD_FD_TOL || e2 <= HYD_FD_TOL)
    return HYD_FD_OK;
  if (fabs (d1 - d2) <= 0.1 * fabs (J - d2))
    return HYD_FD_FAIL;
  return HYD_FD_SEAM;
}

gboolean
hyd_fd_unresolved (double J, double D1, double h, double row_noise)
{
  return fabs (J) * h < row_noise || fabs (J - D1) * h <= row_noise;
}

int
hyd_fd_entry_compare (gconstpointer a, gconstpointer b)
{
  const HydFdEntry *x = a, *y = b;
  gboolean fx = x->verdict == HYD_FD_FAIL, fy = y->verdict == HYD_FD_FAIL;
  if (fx != fy)
    return fx ? -1 : 1;
  if (x->err != y->err)
    return x->err < y->err ? 1 : -1;
  return 0;
}

double
hyd_fd_row_noise (double f_i, const double *J_row, gsize stride, const double *y, guint n)
{
  double s = fabs (f_i);
  for (guint k = 0; k < n; k++)
    s += fabs (J_row[k * stride] * y[k]);
  return 64.0 * DBL_EPSILON * s;
}
