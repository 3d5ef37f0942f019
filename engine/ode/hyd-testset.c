/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-testset.c — the stiff test problems of the Bari IVP test set
 * (F. Mazzia et al., archimede.uniba.it/~testset; as carried in the R package
 * deTestSet), with their reference solutions (ibid.),
 * and a smooth problem with an exact solution. */
#include "hyd-testset.h"

#include <math.h>
#include <string.h>

#define J_(i, j) J[(i) + (gsize) (j) * n]

static const char *
names_state (guint i, gpointer user)
{
  const char *const *names = user;
  return names[i];
}

/* ---- HIRES: plant physiology, 8 states (testset hires.f) -------------- */

static const char *const hires_names[] = {
  "Pr", "Pfr", "PrX", "PfrX", "PrX2", "PfrX2", "PfrX2E", "E",
};
static const double hires_y0[] = { 1, 0, 0, 0, 0, 0, 0, 0.0057 };
static const double hires_ref[] = {
  0.7371312573325668e-3, 0.1442485726316185e-3, 0.5888729740967575e-4,
  0.1175651343283149e-2, 0.2386356198831331e-2, 0.6238968252742796e-2,
  0.2849998395185769e-2, 0.2850001604814231e-2,
};

static int
hires_rhs (double t, const double *y, double *f, gpointer user)
{
  f[0] = -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007;
  f[1] = 1.71 * y[0] - 8.75 * y[1];
  f[2] = -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4];
  f[3] = 8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3];
  f[4] = -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6];
  f[5] = -280.0 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5]
         + 0.69 * y[6];
  f[6] = 280.0 * y[5] * y[7] - 1.81 * y[6];
  f[7] = -280.0 * y[5] * y[7] + 1.81 * y[6];
  return 0;
}

static int
hires_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  const guint n = 8;

  memset (J, 0, n * n * sizeof (double));
  J_(0, 0) = -1.71; J_(0, 1) = 0.43; J_(0, 2) = 8.32;
  J_(1, 0) = 1.71; J_(1, 1) = -8.75;
  J_(2, 2) = -10.03; J_(2, 3) = 0.43; J_(2, 4) = 0.035;
  J_(3, 1) = 8.32; J_(3, 2) = 1.71; J_(3, 3) = -1.12;
  J_(4, 4) = -1.745; J_(4, 5) = 0.43; J_(4, 6) = 0.43;
  J_(5, 3) = 0.69; J_(5, 4) = 1.71; J_(5, 5) = -280.0 * y[7] - 0.43;
  J_(5, 6) = 0.69; J_(5, 7) = -280.0 * y[5];
  J_(6, 5) = 280.0 * y[7]; J_(6, 6) = -1.81; J_(6, 7) = 280.0 * y[5];
  J_(7, 5) = -280.0 * y[7]; J_(7, 6) = 1.81; J_(7, 7) = -280.0 * y[5];
  if (dfdt != NULL)
    memset (dfdt, 0, n * sizeof (double));
  return 0;
}

/* ---- Van der Pol, μ = 1000 (deTestSet vdpol, test set "vdpolm") ------ */

#define VDP_MU 1000.0

static const char *const vdp_names[] = { "y1", "y2" };
static const double vdp_y0[] = { 2.0, 0.0 };
static const double vdp_ref[] = { 0.1706167732170469e1, -0.8928097010248125e-3 };

static int
vdp_rhs (double t, const double *y, double *f, gpointer user)
{
  f[0] = y[1];
  f[1] = VDP_MU * (1.0 - y[0] * y[0]) * y[1] - y[0];
  return 0;
}

static int
vdp_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  const guint n = 2;

  J_(0, 0) = 0.0;
  J_(0, 1) = 1.0;
  J_(1, 0) = -2.0 * VDP_MU * y[0] * y[1] - 1.0;
  J_(1, 1) = VDP_MU * (1.0 - y[0] * y[0]);
  if (dfdt != NULL)
    memset (dfdt, 0, n * sizeof (double));
  return 0;
}

/* ---- ROBER: Robertson's reaction, t_end = 1e11 ------------------------ */

static const char *const rober_names[] = { "y1", "y2", "y3" };
static const double rober_y0[] = { 1.0, 0.0, 0.0 };
static const double rober_ref[] = {
  0.2083340149701255e-7, 0.8333360770334713e-13, 0.9999999791665050,
};

static int
rober_rhs (double t, const double *y, double *f, gpointer user)
{
  f[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
  f[1] = 0.04 * y[0] - 3e7 * y[1] * y[1] - 1e4 * y[1] * y[2];
  f[2] = 3e7 * y[1] * y[1];
  return 0;
}

static int
rober_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  const guint n = 3;

  J_(0, 0) = -0.04; J_(0, 1) = 1e4 * y[2]; J_(0, 2) = 1e4 * y[1];
  J_(1, 0) = 0.04; J_(1, 1) = -6e7 * y[1] - 1e4 * y[2]; J_(1, 2) = -1e4 * y[1];
  J_(2, 0) = 0.0; J_(2, 1) = 6e7 * y[1]; J_(2, 2) = 0.0;
  if (dfdt != NULL)
    memset (dfdt, 0, n * sizeof (double));
  return 0;
}

/* ---- OREGO: the Oregonator, t_end = 360 -------------------------------- */

#define OREGO_K1 77.27
#define OREGO_K2 8.375e-6
#define OREGO_K3 77.27
#define OREGO_K4 0.161

static const char *const orego_names[] = { "y1", "y2", "y3" };
static const double orego_y0[] = { 1.0, 2.0, 3.0 };
static const double orego_ref[] = {
  0.1000814870318523e1, 0.1228178521549917e4, 0.1320554942846706e3,
};

static int
orego_rhs (double t, const double *y, double *f, gpointer user)
{
  f[0] = OREGO_K1 * (y[1] + y[0] * (1.0 - OREGO_K2 * y[0] - y[1]));
  f[1] = (y[2] - (1.0 + y[0]) * y[1]) / OREGO_K3;
  f[2] = OREGO_K4 * (y[0] - y[2]);
  return 0;
}

static int
orego_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  const guint n = 3;

  J_(0, 0) = OREGO_K1 * (1.0 - 2.0 * OREGO_K2 * y[0] - y[1]);
  J_(0, 1) = OREGO_K1 * (1.0 - y[0]);
  J_(0, 2) = 0.0;
  J_(1, 0) = -y[1] / OREGO_K3;
  J_(1, 1) = -(1.0 + y[0]) / OREGO_K3;
  J_(1, 2) = 1.0 / OREGO_K3;
  J_(2, 0) = OREGO_K4;
  J_(2, 1) = 0.0;
  J_(2, 2) = -OREGO_K4;
  if (dfdt != NULL)
    memset (dfdt, 0, n * sizeof (double));
  return 0;
}

/* ---- E5: chemical pyrolysis, t_end = 1e13 ------------------------------ */

#define E5_A 7.89e-10
#define E5_B 1.1e7
#define E5_C 1.13e3
#define E5_M 1e6

static const char *const e5_names[] = { "y1", "y2", "y3", "y4" };
static const double e5_y0[] = { 1.76e-3, 0.0, 0.0, 0.0 };
static const double e5_ref[] = {
  0.1152903278711829e-290, 0.8867655517642120e-22, 0.8854814626268838e-22, 0.0,
};

static int
e5_rhs (double t, const double *y, double *f, gpointer user)
{
  double p1 = E5_A * y[0];
  double p2 = E5_B * y[0] * y[2];
  double p3 = E5_C * E5_M * y[1] * y[2];
  double p4 = E5_C * y[3];

  f[0] = -p1 - p2;
  f[1] = p1 - p3;
  f[3] = p2 - p4;
  f[2] = f[1] - f[3];
  return 0;
}

static int
e5_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  const guint n = 4;
  const double cm = E5_C * E5_M;

  memset (J, 0, n * n * sizeof (double));
  J_(0, 0) = -E5_A - E5_B * y[2];
  J_(0, 2) = -E5_B * y[0];
  J_(1, 0) = E5_A;
  J_(1, 1) = -cm * y[2];
  J_(1, 2) = -cm * y[1];
  J_(3, 0) = E5_B * y[2];
  J_(3, 2) = E5_B * y[0];
  J_(3, 3) = -E5_C;
  for (guint j = 0; j < n; j++)
    J_(2, j) = J_(1, j) - J_(3, j);
  if (dfdt != NULL)
    memset (dfdt, 0, n * sizeof (double));
  return 0;
}

/* ---- POLLU: air pollution, 20 species, 25 reactions (Verwer 1994;
 * testset pollu.f). Written as a mass-action table, so that f and J come
 * from the same data. -------------------------------------------------- */

typedef struct {
  double k;
  int r1, r2;            /* reactants (0-based), r2 = −1 if unimolecular */
  int p[3];              /* products, −1 = none */
  double c[3];           /* their coefficients */
} PolluReaction;

#define NP -1
static const PolluReaction pollu_reactions[25] = {
  { .35,    0, NP, { 1, 2, NP },  { 1, 1, 0 } },  /* NO2 → NO + O3P */
  { .266e2, 1, 3,  { 0, NP, NP }, { 1, 0, 0 } },  /* NO + O3 → NO2 */
  { .123e5, 4, 1,  { 0, 5, NP },  { 1, 1, 0 } },  /* HO2 + NO → NO2 + OH */
  { .86e-3, 6, NP, { 4, 7, NP },  { 2, 1, 0 } },  /* HCHO → 2 HO2 + CO */
  { .82e-3, 6, NP, { 7, NP, NP }, { 1, 0, 0 } },  /* HCHO → CO */
  { .15e5,  6, 5,  { 4, 7, NP },  { 1, 1, 0 } },  /* HCHO + OH → HO2 + CO */
  { .13e-3, 8, NP, { 4, 7, 9 },   { 1, 1, 1 } },  /* ALD → HO2 + CO + MEO2 */
  { .24e5,  8, 5,  { 10, NP, NP },{ 1, 0, 0 } },  /* ALD + OH → C2O3 */
  { .165e5, 10, 1, { 0, 9, 11 },  { 1, 1, 1 } },  /* C2O3 + NO → NO2 + MEO2 + CO2 */
  { .9e4,   10, 0, { 12, NP, NP },{ 1, 0, 0 } },  /* C2O3 + NO2 → PAN */
  { .22e-1, 12, NP, { 0, 10, NP },{ 1, 1, 0 } },  /* PAN → C2O3 + NO2 */
  { .12e5,  9, 1,  { 0, 13, NP }, { 1, 1, 0 } },  /* MEO2 + NO → CH3O + NO2 */
  { .188e1, 13, NP, { 4, 6, NP }, { 1, 1, 0 } },  /* CH3O → HCHO + HO2 */
  { .163e5, 0, 5,  { 14, NP, NP },{ 1, 0, 0 } },  /* NO2 + OH → HNO3 */
  { .48e7,  2, NP, { 3, NP, NP }, { 1, 0, 0 } },  /* O3P → O3 */
  { .35e-3, 3, NP, { 15, NP, NP },{ 1, 0, 0 } },  /* O3 → O1D */
  { .175e-1, 3, NP, { 2, NP, NP },{ 1, 0, 0 } },  /* O3 → O3P */
  { .1e9,   15, NP, { 5, NP, NP },{ 2, 0, 0 } },  /* O1D → 2 OH */
  { .444e12, 15, NP, { 2, NP, NP },{ 1, 0, 0 } }, /* O1D → O3P */
  { .124e4, 16, 5, { 4, 17, NP }, { 1, 1, 0 } },  /* SO2 + OH → SO4 + HO2 */
  { .21e1,  18, NP, { 1, NP, NP },{ 1, 0, 0 } },  /* NO3 → NO */
  { .578e1, 18, NP, { 0, 2, NP }, { 1, 1, 0 } },  /* NO3 → NO2 + O3P */
  { .474e-1, 0, 3, { 18, NP, NP },{ 1, 0, 0 } },  /* NO2 + O3 → NO3 */
  { .178e4, 18, 0, { 19, NP, NP },{ 1, 0, 0 } },  /* NO3 + NO2 → N2O5 */
  { .312e1, 19, NP, { 0, 18, NP },{ 1, 1, 0 } },  /* N2O5 → NO3 + NO2 */
};
#undef NP

static const char *const pollu_names[] = {
  "NO2", "NO", "O3P", "O3", "HO2", "OH", "HCHO", "CO", "ALD", "MEO2",
  "C2O3", "CO2", "PAN", "CH3O", "HNO3", "O1D", "SO2", "SO4", "NO3", "N2O5",
};
static const double pollu_y0[] = {
  0, 0.2, 0, 0.04, 0, 0, 0.1, 0.3, 0.01, 0, 0, 0, 0, 0, 0, 0, 0.007, 0, 0, 0,
};
static const double pollu_ref[] = {
  0.5646255480022769e-01, 0.1342484130422339, 0.4139734331099427e-08,
  0.5523140207484359e-02, 0.2018977262302196e-06, 0.1464541863493966e-06,
  0.7784249118997964e-01, 0.3245075353396018, 0.7494013383880406e-02,
  0.1622293157301561e-07, 0.1135863833257075e-07, 0.2230505975721359e-02,
  0.2087162882798630e-03, 0.1396921016840158e-04, 0.8964884856898295e-02,
  0.4352846369330103e-17, 0.6899219696263405e-02, 0.1007803037365946e-03,
  0.1772146513969984e-05, 0.5682943292316392e-04,
};

static int
pollu_rhs (double t, const double *y, double *f, gpointer user)
{
  memset (f, 0, 20 * sizeof (double));
  for (guint r = 0; r < G_N_ELEMENTS (pollu_reactions); r++)
    {
      const PolluReaction *R = &pollu_reactions[r];
      double rate = R->k * y[R->r1] * (R->r2 >= 0 ? y[R->r2] : 1.0);

      f[R->r1] -= rate;
      if (R->r2 >= 0)
        f[R->r2] -= rate;
      for (guint k = 0; k < 3; k++)
        if (R->p[k] >= 0)
          f[R->p[k]] += R->c[k] * rate;
    }
  return 0;
}

static int
pollu_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  const guint n = 20;

  memset (J, 0, n * n * sizeof (double));
  for (guint r = 0; r < G_N_ELEMENTS (pollu_reactions); r++)
    {
      const PolluReaction *R = &pollu_reactions[r];
      /* ∂rate/∂y_r1 and ∂rate/∂y_r2 */
      int var[2] = { R->r1, R->r2 };
      double drate[2] = {
        R->k * (R->r2 >= 0 ? y[R->r2] : 1.0),
        R->r2 >= 0 ? R->k * y[R->r1] : 0.0,
      };

      for (guint v = 0; v < 2; v++)
        {
          if (var[v] < 0)
            continue;
          int j = var[v];
          J_(R->r1, j) -= drate[v];
          if (R->r2 >= 0)
            J_(R->r2, j) -= drate[v];
          for (guint k = 0; k < 3; k++)
            if (R->p[k] >= 0)
              J_(R->p[k], j) += R->c[k] * drate[v];
        }
    }
  if (dfdt != NULL)
    memset (dfdt, 0, n * sizeof (double));
  return 0;
}

/* ---- smooth non-autonomous problem, exact solution (cos t, sin t) ----- */

static const char *const smooth_names[] = { "y1", "y2" };
static const double smooth_y0[] = { 1.0, 0.0 };
static double smooth_ref[2];

static void
smooth_exact (double t, double *y)
{
  y[0] = cos (t);
  y[1] = sin (t);
}

static int
smooth_rhs (double t, const double *y, double *f, gpointer user)
{
  double e1 = y[0] - cos (t), e2 = y[1] - sin (t);

  f[0] = -sin (t) - 5.0 * e1 + e2 * y[0];
  f[1] = cos (t) - e2 * (1.0 + y[0] * y[0]) + e1 * e1;
  return 0;
}

static int
smooth_jac (double t, const double *y, double *J, double *dfdt, gpointer user)
{
  const guint n = 2;
  double e1 = y[0] - cos (t), e2 = y[1] - sin (t);

  J_(0, 0) = -5.0 + e2;
  J_(0, 1) = y[0];
  J_(1, 0) = -2.0 * y[0] * e2 + 2.0 * e1;
  J_(1, 1) = -(1.0 + y[0] * y[0]);
  if (dfdt != NULL)
    {
      /* ∂e1/∂t = sin t, ∂e2/∂t = −cos t */
      dfdt[0] = -cos (t) - 5.0 * sin (t) - y[0] * cos (t);
      dfdt[1] = -sin (t) + (1.0 + y[0] * y[0]) * cos (t)
                + 2.0 * e1 * sin (t);
    }
  return 0;
}

/* ---- the tables -------------------------------------------------------- */

#define PROBLEM(n_, rhs_, jac_, names_)                                   \
  { .n = (n_), .user = (gpointer) (names_), .rhs = (rhs_), .jac = (jac_), \
    .state_name = names_state }

/* The tolerances of each problem (what `bramah-cli verify` runs and prints).
 * The Bari test set (Mazzia & Magherini, Test Set for IVP Solvers, release
 * 2.4, Univ. Bari 2008) runs HIRES, VDPOL, OREGO and POLLU with
 * atol = rtol, as its R distribution (Soetaert, Cash & Mazzia, deTestSet,
 * 2012) does by default. ROBER's y2 is ~1e-13 at the end and E5's
 * y2…y4 ~1e-22: deTestSet runs ROBER with atol = 1e-4·rtol (1e-14 at rtol
 * 1e-10) and E5, as Hairer & Wanner (Solving ODEs II, 2nd ed. 1996, §IV.10)
 * do, with a fixed atol of the size of its small components, 1.7e-24;
 * atol = rtol there lets y2…y4 go negative and E5 then blows up. */
#define TOL_EQUAL { 1.0, 0.0, "atol = rtol (Bari test set; deTestSet default)" }

static const HydTestProblem testset[] = {
  { "hires", "HIRES", "plant physiology (high irradiance response), 8 states",
    8, 0.0, 321.8122, hires_y0, hires_ref, NULL,
    PROBLEM (8, hires_rhs, hires_jac, hires_names), TOL_EQUAL },
  { "vdpol", "Van der Pol", "Van der Pol oscillator, μ = 1000, 2 states",
    2, 0.0, 2000.0, vdp_y0, vdp_ref, NULL,
    PROBLEM (2, vdp_rhs, vdp_jac, vdp_names), TOL_EQUAL },
  { "rober", "ROBER", "Robertson's chemical reaction, 3 states",
    3, 0.0, 1e11, rober_y0, rober_ref, NULL,
    PROBLEM (3, rober_rhs, rober_jac, rober_names),
    { 1e-4, 0.0, "atol = 1e-4·rtol (deTestSet: rtol 1e-10, atol 1e-14)" } },
  { "orego", "OREGO", "Oregonator (Belousov–Zhabotinskii reaction), 3 states",
    3, 0.0, 360.0, orego_y0, orego_ref, NULL,
    PROBLEM (3, orego_rhs, orego_jac, orego_names), TOL_EQUAL },
  { "e5", "E5", "chemical pyrolysis, 4 states",
    4, 0.0, 1e13, e5_y0, e5_ref, NULL,
    PROBLEM (4, e5_rhs, e5_jac, e5_names),
    { 0.0, 1.7e-24, "atol = 1.7e-24 (Hairer & Wanner 1996, §IV.10)" } },
  { "pollu", "POLLU", "air pollution, 20 species, 25 reactions",
    20, 0.0, 60.0, pollu_y0, pollu_ref, NULL,
    PROBLEM (20, pollu_rhs, pollu_jac, pollu_names), TOL_EQUAL },
};

static const HydTestProblem smooth_problem = {
  "smooth", "Smooth", "smooth non-autonomous, exact solution (cos t, sin t)",
  2, 0.0, 2.0, smooth_y0, smooth_ref, smooth_exact,
  PROBLEM (2, smooth_rhs, smooth_jac, smooth_names),
  { 1.0, 0.0, "atol = rtol" },
};

double
hyd_testset_atol (const HydTestProblem *p, double rtol)
{
  return p->tol.atol_ratio > 0.0 ? p->tol.atol_ratio * rtol : p->tol.atol_abs;
}

const HydTestProblem *
hyd_testset_list (guint *n)
{
  if (n != NULL)
    *n = G_N_ELEMENTS (testset);
  return testset;
}

const HydTestProblem *
hyd_testset_lookup (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (testset); i++)
    if (g_strcmp0 (testset[i].id, id) == 0)
      return &testset[i];
  if (g_strcmp0 (smooth_problem.id, id) == 0)
    return hyd_testset_smooth ();
  return NULL;
}

const HydTestProblem *
hyd_testset_smooth (void)
{
  static gsize done;

  if (g_once_init_enter (&done))
    {
      smooth_exact (smooth_problem.t_end, smooth_ref);
      g_once_init_leave (&done, 1);
    }
  return &smooth_problem;
}

double
hyd_testset_mescd (guint n, const double *y, const double *y_ref,
                   double atol, double rtol)
{
  double ratio = rtol > 0.0 ? atol / rtol : 1.0;
  double worst = 0.0;

  for (guint i = 0; i < n; i++)
    {
      double e = fabs (y[i] - y_ref[i]) / (ratio + fabs (y_ref[i]));
      if (isnan (e))
        return -INFINITY;
      worst = MAX (worst, e);
    }
  return worst > 0.0 ? -log10 (worst) : INFINITY;
}
