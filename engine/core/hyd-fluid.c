/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-fluid.c — bulk modulus models (circuit-format.md, fluid) and the node
 * state of the cavitation-safe models (hyd-fluid.h, docs/circuit-format.md). */
#include "hyd-fluid.h"

#include <math.h>
#include <string.h>

void
hyd_fluid_init_default (HydFluid *fluid)
{
  fluid->density = 870.0;
  fluid->kinematic_viscosity = 3.2e-5;
  fluid->bulk_modulus = 1.5e9;
  fluid->bulk_model = HYD_BULK_CAVITATING;
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
    case HYD_BULK_CAVITATING:
    default:
      if (dB_dp) *dB_dp = 0.0;
      return fluid->bulk_modulus;
    }
}

gboolean
hyd_fluid_has_floor (const HydFluid *fluid)
{
  return fluid->bulk_model == HYD_BULK_CAVITATING || fluid->bulk_model == HYD_BULK_AIR;
}

/* The C² ramp r(z, ε): 0 for z ≤ 0; ε·(t³ − t⁴/2), t = z/ε, on (0, ε);
 * z − ε/2 for z ≥ ε. r' = 3t² − 2t³ (the smoothstep), r'' = 6t(1 − t)/ε. */
static double
ramp2 (double z, double eps, double *d1, double *d2)
{
  if (z <= 0.0)
    {
      *d1 = *d2 = 0.0;
      return 0.0;
    }
  if (z >= eps)
    {
      *d1 = 1.0;
      *d2 = 0.0;
      return z - 0.5 * eps;
    }
  double t = z / eps;
  *d1 = t * t * (3.0 - 2.0 * t);
  *d2 = 6.0 * t * (1.0 - t) / eps;
  return eps * t * t * t * (1.0 - 0.5 * t);
}

/* I(p) = ∫_0^p dp'/B(p'), the log of the density ratio ρ(p)/ρ(0), for the
 * floored models; p ≥ p_v. "cavitating": p/B_l. "air": with P = p + P_a and
 * the spec's 1/B = 1/B_l + α/(1.4·P*), and r = (P_a/P)^(1/1.4) so that
 * α/(1.4·P)·dP = −α0·dr/(1 − α0 + α0·r), in closed form
 * I = p/B_l − ln(1 − α0 + α0·r(P)) where P* = P (P ≥ P_min + δ/2); on the
 * half band [P_min, P_min + δ/2) where the spec smooths P*, that minus a
 * 6-point Gauss–Legendre quadrature of 1/B over [p, p_min + δ/2 − P_a]
 * (1/B is smooth there). */
static double
log_density (const HydFluid *f, double p)
{
  if (f->bulk_model != HYD_BULK_AIR)
    return p / f->bulk_modulus;
  const double n = 1.4, delta = 1e3;
  double a0 = f->air_fraction;
  double ps = f->vapour_pressure + 0.5 * delta;  /* P* = P from here on */
  double pc = MAX (p, ps);
  double r = pow (HYD_P_ATM / (pc + HYD_P_ATM), 1.0 / n);
  double I = pc / f->bulk_modulus - log (1.0 - a0 + a0 * r);
  if (p < ps)
    {
      static const double x[3] = { 0.2386191860831969, 0.6612093864662645, 0.9324695142031521 };
      static const double w[3] = { 0.4679139345726910, 0.3607615730481386, 0.1713244923791704 };
      double mid = 0.5 * (p + ps), half = 0.5 * (ps - p), sum = 0.0;
      for (int k = 0; k < 3; k++)
        sum += w[k] * (1.0 / hyd_fluid_bulk_modulus (f, mid - half * x[k], NULL)
                       + 1.0 / hyd_fluid_bulk_modulus (f, mid + half * x[k], NULL));
      I -= half * sum;
    }
  return I;
}

void
hyd_fluid_node (const HydFluid *fluid, double psi, HydNodeFluid *out)
{
  double dB;
  if (!hyd_fluid_has_floor (fluid))
    {
      double B = hyd_fluid_bulk_modulus (fluid, psi, &dB);
      out->p = psi;
      out->dp = 1.0;
      out->d2p = 0.0;
      out->phi = 1.0;
      out->phi_full = 1.0;
      out->phi_void = 0.0;
      out->dphi = 0.0;
      out->voidf = 0.0;
      out->c = 1.0 / B;
      out->dc = -dB / (B * B);
      return;
    }
  const double eps = HYD_CAVITATION_SMOOTHING;
  double pv = fluid->vapour_pressure, Bl = fluid->bulk_modulus;
  double u = psi - pv;
  double r1, r2;
  double r = ramp2 (u + 0.5 * eps, eps, &r1, &r2);
  /* w = r − u ≥ 0 (r is convex with asymptotes 0 and z − ε/2); exactly 0
   * above the band, where the node is full */
  double w = u >= 0.5 * eps ? 0.0 : MAX (r - u, 0.0);
  double p = pv + r;
  double B = hyd_fluid_bulk_modulus (fluid, p, &dB);
  /* the liquid's share of the volume, λ = 1 − w/B_l, and the density ratio
   * g = ρ(p)/ρ(0) = exp(I(p)), g' = g/B */
  double lam = 1.0 - w / Bl, dlam = (1.0 - r1) / Bl, d2lam = -r2 / Bl;
  double g = fluid->bulk_model == HYD_BULK_AIR ? exp (log_density (fluid, p)) : 1.0;
  double k = r1 / B;                                   /* d ln g/dψ = F'/B */
  double dk = r2 / B - r1 * r1 * dB / (B * B);
  out->p = p;
  out->dp = r1;
  out->d2p = r2;
  out->voidf = w / Bl;
  if (fluid->bulk_model == HYD_BULK_AIR)
    {
      /* flows are volumes at 0 bar gauge (masses): the node holds the
       * standard volume V·G, G = λ·g; V·G'·ψ̇ = Σ q_in − G·V̇ */
      out->phi_full = g;
      out->phi_void = g * out->voidf;
      out->phi = lam * g;
      out->dphi = g * (dlam + lam * k);
      out->c = out->dphi;
      out->dc = g * (d2lam + 2.0 * dlam * k + lam * (k * k + dk));
    }
  else
    {
      /* flows are volumes at the node's density (the contract's node
       * equation, exact above the floor): V·c·ψ̇ = Σ q_in − λ·V̇ with
       * c = λ' + λ·F'/B, the void taking what the liquid does not fill */
      out->phi_full = 1.0;
      out->phi_void = out->voidf;
      out->phi = lam;
      out->dphi = dlam;
      out->c = dlam + lam * k;
      out->dc = d2lam + dlam * k + lam * dk;
    }
}

void
hyd_fluid_node_capacity (const HydNodeFluid *nf, double V, double Cw, double dCw,
                         double *C, double *dC_dpsi)
{
  *C = V * nf->c + Cw * nf->dp;
  *dC_dpsi = V * nf->dc + dCw * nf->dp * nf->dp + Cw * nf->d2p;
}

double
hyd_fluid_node_inflow (const HydNodeFluid *nf, double Q_in, double Vdot)
{
  return Q_in - nf->phi_full * Vdot + nf->phi_void * Vdot;
}

double
hyd_fluid_node_state_for_pressure (const HydFluid *fluid, double p)
{
  if (!hyd_fluid_has_floor (fluid))
    return p;
  const double eps = HYD_CAVITATION_SMOOTHING;
  double pv = fluid->vapour_pressure;
  if (p >= pv + eps)
    return p;  /* F(ψ) = ψ from p_v + ε/2 on */
  if (p <= pv)
    return pv - 0.5 * eps;
  /* F is increasing on (p_v − ε/2, p_v + ε/2): bisection to round-off */
  double lo = pv - 0.5 * eps, hi = pv + eps;
  for (int k = 0; k < 200 && hi - lo > 1e-12 * MAX (fabs (pv), 1.0); k++)
    {
      double mid = 0.5 * (lo + hi);
      HydNodeFluid nf;
      hyd_fluid_node (fluid, mid, &nf);
      if (nf.p < p)
        lo = mid;
      else
        hi = mid;
    }
  return 0.5 * (lo + hi);
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
    case HYD_BULK_CAVITATING: return "cavitating";
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
  else if (g_strcmp0 (name, "cavitating") == 0) *model = HYD_BULK_CAVITATING;
  else return FALSE;
  return TRUE;
}
