/* hyd-fdcheck.c — the finite-difference verdict of spec/cli.md. */
#include "hyd-fdcheck.h"

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
