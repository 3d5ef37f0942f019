/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-system-hose.c — the friction of a hose (docs/circuit-format.md,
 * Version 3): a connection with friction becomes two nodes, one at each
 * end, each holding half the hose's volume, joined by the hose's
 * quasi-static pressure loss. The compiler makes one instance of the type
 * below per such connection; the type is not in the catalogue (a file
 * cannot name it), so that the assembly, the sparse pattern, the variables
 * and the finite-difference checks treat a hose as any two-port component.
 *
 * The law: Darcy–Weisbach, Δp = f(Re)·(L/d)·(ρ/2)·v·|v| with v = 4q/(πd²)
 * and Re = |v|·d/ν (White, *Fluid Mechanics*, 7th ed., 2011, eq. 6.10),
 * f = 64/Re (laminar, Hagen–Poiseuille: Δp = 128·μ·L·q/(π·d⁴), White
 * eq. 6.12; Merritt 1967, *Hydraulic Control Systems*, §4.2) up to
 * Re = 2300, Blasius' f = 0.316·Re^(−1/4) (smooth pipes, White eq. 6.55)
 * from Re = 4000, and between them the two weighted by the smoothstep
 * w = s²(3 − 2s), s = (Re − 2300)/(4000 − 2300): the friction factor is C¹
 * in Re, and so is Δp. Written with the dimensionless pressure drop
 * Π = 2·d³·|Δp|/(ρ·ν²·L) = f(Re)·Re² = g(Re), g rises strictly (its slope
 * is at least min(64, 1.75·0.316·Re^(3/4)) > 0 on every piece, since
 * Blasius' factor exceeds 64/Re above Re = 1188), so the flow is the
 * inverse q = sign(Δp)·(π·d·ν/4)·g⁻¹(Π): in closed form on the laminar and
 * turbulent pieces, by a safeguarded Newton iteration to rounding in the
 * transition, and ∂q/∂Δp = (π·d·ν/4)·(2d³/(ρν²L))/g′(Re) exactly (the
 * implicit function theorem), C⁰ everywhere and positive: the Jacobian
 * stays analytic and Newton's iterations see a conductance that never
 * vanishes. */
#include "hyd-system-private.h"

#include <float.h>

#define HOSE_RE_LAMINAR 2300.0   /* laminar up to here (White 2011, §6.2) */
#define HOSE_RE_TURBULENT 4000.0 /* Blasius from here (White 2011, eq. 6.55) */
#define HOSE_BLASIUS 0.316

/* g(Re) = f(Re)·Re² and g′(Re). */
static double
hose_g (double re, double *dg)
{
  double lam = 64.0 * re;
  if (re <= HOSE_RE_LAMINAR)
    {
      *dg = 64.0;
      return lam;
    }
  double re34 = pow (re, 0.75);
  double tur = HOSE_BLASIUS * re34 * re;
  double dtur = 1.75 * HOSE_BLASIUS * re34;
  if (re >= HOSE_RE_TURBULENT)
    {
      *dg = dtur;
      return tur;
    }
  double span = HOSE_RE_TURBULENT - HOSE_RE_LAMINAR;
  double s = (re - HOSE_RE_LAMINAR) / span;
  double w = s * s * (3.0 - 2.0 * s);
  double dw = 6.0 * s * (1.0 - s) / span;
  *dg = (1.0 - w) * 64.0 + w * dtur + dw * (tur - lam);
  return (1.0 - w) * lam + w * tur;
}

double
hyd_hose_friction_factor (double re)
{
  double dg;
  return re > 0 ? hose_g (re, &dg) / (re * re) : INFINITY;
}

/* Re for the dimensionless pressure drop Π ≥ 0, and dRe/dΠ. */
static double
hose_reynolds (double pi, double *dre)
{
  const double pi_lam = 64.0 * HOSE_RE_LAMINAR;
  const double pi_tur = HOSE_BLASIUS * pow (HOSE_RE_TURBULENT, 1.75);
  if (pi <= pi_lam)
    {
      *dre = 1.0 / 64.0;
      return pi / 64.0;
    }
  if (pi >= pi_tur)
    {
      double re = pow (pi / HOSE_BLASIUS, 4.0 / 7.0);
      *dre = (4.0 / 7.0) * re / pi;
      return re;
    }
  /* the transition: g rises strictly on [2300, 4000]; Newton from the
   * chord, kept inside the bracket by bisection */
  double lo = HOSE_RE_LAMINAR, hi = HOSE_RE_TURBULENT;
  double re = lo + (pi - pi_lam) / (pi_tur - pi_lam) * (hi - lo);
  for (int it = 0; it < 100; it++)
    {
      double dg, r = hose_g (re, &dg) - pi;
      if (r == 0.0)
        break;
      if (r > 0)
        hi = re;
      else
        lo = re;
      double next = re - r / dg;
      if (!(next > lo && next < hi))
        next = 0.5 * (lo + hi);
      if (fabs (next - re) <= 4.0 * DBL_EPSILON * re)
        {
          re = next;
          break;
        }
      re = next;
    }
  double dg;
  hose_g (re, &dg);
  *dre = 1.0 / dg;
  return re;
}

double
hyd_hose_flow (double length, double diameter, double density, double nu, double dp,
               double *dq_ddp, double *reynolds)
{
  /* Π = k·|Δp|, |q| = m·Re */
  double k = 2.0 * diameter * diameter * diameter / (density * nu * nu * length);
  double m = G_PI * diameter * nu / 4.0;
  double dre;
  double re = hose_reynolds (k * fabs (dp), &dre);
  if (dq_ddp)
    *dq_ddp = m * k * dre;
  if (reynolds)
    *reynolds = re;
  return dp < 0 ? -m * re : m * re;
}

/* ---------- the component type ----------
 * Not in the catalogue: its texts are never shown (the variables are named
 * in docs/circuit-format.md), so they are not marked for translation. */

static const HydPortInfo hose_ports[] = {
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, "the connection's \"from\" end", HYD_PORT_BIDIRECTIONAL },
  { "B", HYD_DOMAIN_HYDRAULIC, FALSE, "the connection's \"to\" end", HYD_PORT_BIDIRECTIONAL },
};

static const HydVarInfo hose_outputs[] = {
  { "q", HYD_UNIT_FLOW, "flow through the hose, from its \"from\" end to its \"to\" end" },
  { "dp", HYD_UNIT_PRESSURE, "pressure loss along the hose, p(from) − p(to)" },
  { "Re", HYD_UNIT_NONE, "Reynolds number of the flow in the hose" },
};

static gboolean
hose_setup (HydComp *comp, GError **error)
{
  static const guint rows[] = { 0, 0, 1, 1 }, cols[] = { 0, 1, 0, 1 };
  (void) error;
  hyd_comp_set_states (comp, 0, NULL);
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (hose_outputs), hose_outputs);
  hyd_comp_set_pattern (comp, G_N_ELEMENTS (rows), rows, cols);
  return TRUE;
}

static void
hose_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  const HydSysHose *h = comp->priv;
  double dp = in->p[0] - in->p[1], G, re;
  double q = hyd_hose_flow (h->length, h->diameter, comp->fluid->density,
                            comp->fluid->kinematic_viscosity, dp, &G, &re);
  out->q[0] = q;
  out->q[1] = -q;
  if (out->jac)
    {
      out->jac[0] = G;
      out->jac[1] = -G;
      out->jac[2] = -G;
      out->jac[3] = G;
    }
  out->V[0] = 0.5 * h->volume;
  out->V[1] = 0.5 * h->volume;
  if (out->out)
    {
      out->out[0] = q;
      out->out[1] = dp;
      out->out[2] = re;
    }
}

static void
hose_free (gpointer data)
{
  HydSysHose *h = data;
  g_free (h->from);
  g_free (h->to);
  g_free (h);
}

const HydComponentType hyd_sys_hose_type = {
  .id = "hose",
  .label = "Hose",
  .category = HYD_CATEGORY_STORAGE,
  .iso_symbol = "a connection's line",
  .description = "The friction of a connection with a length and diameter: Darcy–Weisbach "
                    "with f = 64/Re (laminar) up to Re = 2300, Blasius' f = 0.316·Re^(−1/4) from "
                    "Re = 4000, blended smoothly between; half the hose volume at each end.",
  .ports = hose_ports,
  .n_ports = G_N_ELEMENTS (hose_ports),
  .boundary_param = -1,
  .designator = "H",
  .roles = HYD_ROLE_CONDUIT,
  .setup = hose_setup,
  .eval = hose_eval,
  .free_priv = hose_free,
};

HydComp *
hyd_sys_hose_new (const HydFluid *fluid, const char *from, const char *to, guint connection,
                  double length, double diameter)
{
  g_autofree char *id = g_strconcat (from, "-", to, NULL);
  HydComp *comp = hyd_comp_new (&hyd_sys_hose_type, id, fluid);
  HydSysHose *h = g_new0 (HydSysHose, 1);
  h->length = length;
  h->diameter = diameter;
  h->volume = G_PI * diameter * diameter / 4.0 * length;
  h->from = g_strdup (from);
  h->to = g_strdup (to);
  h->connection = connection;
  comp->priv = h;
  return comp;
}
