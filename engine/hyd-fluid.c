/* hyd-fluid.c — bulk modulus models (circuit-format.md, fluid). */
#include "hyd-fluid.h"

#include <math.h>
#include <string.h>

void
hyd_fluid_init_default (HydFluid *fluid)
{
  fluid->density = 870.0;
  fluid->kinematic_viscosity = 3.2e-5;
  fluid->bulk_modulus = 1.5e9;
  fluid->bulk_model = HYD_BULK_CONSTANT;
  fluid->tait_a = 0.09;
  fluid->air_fraction = 0.005;
  fluid->vapour_pressure = -1.0e5;
  fluid->transition_reynolds = 100.0;
  fluid->discharge_coefficient = 0.7;
}

static double
tait_bulk (const HydFluid *f, double p, double *dB_dp)
{
  /* Esqué eq. 3.2 / 4.27 with gauge p: B = (b + p)(1/a − ln(1 + p/b)), b = B0·a,
   * evaluated at p̃ = −b/2 + soft_ramp(p + 0.55·b, 0.1·b) so it is never NaN. */
  double a = f->tait_a;
  double b = f->bulk_modulus * a;
  double dpt;
  double pt = -0.5 * b + hyd_soft_ramp (p + 0.55 * b, 0.1 * b, &dpt);
  double lg = log1p (pt / b);
  double B = (b + pt) * (1.0 / a - lg);
  if (dB_dp)
    *dB_dp = (1.0 / a - 1.0 - lg) * dpt;
  return B;
}

static double
air_bulk (const HydFluid *f, double p, double *dB_dp)
{
  const double n = 1.4, delta = 1e3;
  double P = p + HYD_P_ATM;
  double Pmin = f->vapour_pressure + HYD_P_ATM;
  double dPs;
  double Ps = Pmin + hyd_soft_ramp (P - Pmin + 0.5 * delta, delta, &dPs);
  double a0 = f->air_fraction;
  double r = pow (HYD_P_ATM / Ps, 1.0 / n);
  double den = (1.0 - a0) + a0 * r;
  double alpha = a0 * r / den;
  double invB = 1.0 / f->bulk_modulus + alpha / (n * Ps);
  double B = 1.0 / invB;
  if (dB_dp)
    {
      double dr = -(1.0 / n) * r / Ps;
      double dalpha = a0 * (1.0 - a0) / (den * den) * dr;
      double dinvB = dalpha / (n * Ps) - alpha / (n * Ps * Ps);
      *dB_dp = -B * B * dinvB * dPs;
    }
  return B;
}

double
hyd_fluid_bulk_modulus (const HydFluid *fluid, double p, double *dB_dp)
{
  switch (fluid->bulk_model)
    {
    case HYD_BULK_TAIT:
      return tait_bulk (fluid, p, dB_dp);
    case HYD_BULK_AIR:
      return air_bulk (fluid, p, dB_dp);
    case HYD_BULK_CONSTANT:
    default:
      if (dB_dp) *dB_dp = 0.0;
      return fluid->bulk_modulus;
    }
}

HydOrificeCoeffs
hyd_fluid_orifice_coeffs (const HydFluid *fluid, double cd)
{
  HydOrificeCoeffs c = {
    .cd = cd > 0.0 ? cd : fluid->discharge_coefficient,
    .rho = fluid->density,
    .nu = fluid->kinematic_viscosity,
    .re_tr = fluid->transition_reynolds,
  };
  return c;
}

const char *
hyd_bulk_model_name (HydBulkModel model)
{
  switch (model)
    {
    case HYD_BULK_TAIT: return "tait";
    case HYD_BULK_AIR: return "air";
    case HYD_BULK_CONSTANT:
    default: return "constant";
    }
}

gboolean
hyd_bulk_model_from_name (const char *name, HydBulkModel *model)
{
  if (g_strcmp0 (name, "constant") == 0) *model = HYD_BULK_CONSTANT;
  else if (g_strcmp0 (name, "tait") == 0) *model = HYD_BULK_TAIT;
  else if (g_strcmp0 (name, "air") == 0) *model = HYD_BULK_AIR;
  else return FALSE;
  return TRUE;
}
