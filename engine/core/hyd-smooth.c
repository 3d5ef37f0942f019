/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-smooth.c — smooth helpers and the orifice law. */
#include "hyd-smooth.h"

#include <math.h>

double
hyd_soft_ramp (double z, double eps, double *d_dz)
{
  if (z <= 0.0)
    {
      if (d_dz) *d_dz = 0.0;
      return 0.0;
    }
  if (z < eps)
    {
      if (d_dz) *d_dz = z / eps;
      return z * z / (2.0 * eps);
    }
  if (d_dz) *d_dz = 1.0;
  return z - 0.5 * eps;
}

double
hyd_soft_ramp_dd (double z, double eps)
{
  return (z > 0.0 && z < eps) ? 1.0 / eps : 0.0;
}

double
hyd_clamp01 (double z, double eps, double *d_dz)
{
  double d1, d2;
  double v = hyd_soft_ramp (z + 0.5 * eps, eps, &d1)
             - hyd_soft_ramp (z - 1.0 + 0.5 * eps, eps, &d2);
  if (d_dz) *d_dz = d1 - d2;
  return v;
}

double
hyd_open01 (double z, double eps, double *d_dz)
{
  /* Exact ends: the blends would otherwise leave round-off leaks. */
  if (z <= 0.0)
    {
      if (d_dz) *d_dz = 0.0;
      return 0.0;
    }
  if (z >= 1.0)
    {
      if (d_dz) *d_dz = 0.0;
      return 1.0;
    }
  double d;
  double v = hyd_clamp01 ((1.0 + eps) * z - 0.5 * eps, eps, &d);
  if (d_dz) *d_dz = (1.0 + eps) * d;
  return v;
}

double
hyd_sgn_smooth (double v, double v_eps, double *d_dv)
{
  double th = tanh (v / v_eps);
  if (d_dv) *d_dv = (1.0 - th * th) / v_eps;
  return th;
}

double
hyd_orifice_transition_dp (const HydOrificeCoeffs *c, double area)
{
  if (area <= HYD_ORIFICE_MIN_AREA)
    return 0.0;
  /* d² = 4A/π */
  double d2 = 4.0 * area / G_PI;
  return 9.0 * c->nu * c->nu * c->re_tr * c->re_tr * c->rho / (8.0 * d2 * c->cd * c->cd);
}

double
hyd_orifice_flow (const HydOrificeCoeffs *c, double dp, double area,
                  double *dq_ddp, double *dq_darea)
{
  if (area <= HYD_ORIFICE_MIN_AREA)
    {
      if (dq_ddp) *dq_ddp = 0.0;
      if (dq_darea) *dq_darea = 0.0;
      return 0.0;
    }
  double adp = fabs (dp);
  double s = dp < 0.0 ? -1.0 : 1.0;
  double dp_tr = hyd_orifice_transition_dp (c, area);
  double q, dqdp, dqda;

  if (adp >= dp_tr)
    {
      /* turbulent: q = C_d·A·√(2|Δp|/ρ) */
      double root = sqrt (2.0 * adp / c->rho);
      q = c->cd * area * root;
      dqdp = c->cd * area / (c->rho * root);
      dqda = q / area;
    }
  else
    {
      /* laminar: q = (3·A·ν·Re_tr)/(4·d)·x·(3 − x), x = |Δp|/Δp_tr */
      double d = sqrt (4.0 * area / G_PI);
      double k = 3.0 * area * c->nu * c->re_tr / (4.0 * d);
      double x = adp / dp_tr;
      q = k * x * (3.0 - x);
      dqdp = k * (3.0 - 2.0 * x) / dp_tr;
      /* d depends on A, so ∂q/∂A = (q/A)·(½ + (3 − 2x)/(3 − x)) (components.md) */
      dqda = (x > 0.0) ? (q / area) * (0.5 + (3.0 - 2.0 * x) / (3.0 - x)) : 0.0;
    }
  if (dq_ddp) *dq_ddp = dqdp;
  if (dq_darea) *dq_darea = s * dqda;
  return s * q;
}

gboolean
hyd_orifice_is_laminar (const HydOrificeCoeffs *c, double dp, double area)
{
  return area > HYD_ORIFICE_MIN_AREA && fabs (dp) < hyd_orifice_transition_dp (c, area);
}

double
hyd_orifice_nominal_area (const HydOrificeCoeffs *c, double q_nom, double dp_nom)
{
  return q_nom / (c->cd * sqrt (2.0 * dp_nom / c->rho));
}
