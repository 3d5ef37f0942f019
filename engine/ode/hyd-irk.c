/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-irk.c — the implicit Runge–Kutta methods of Treeaporn (2005,
 * Tables 1.2, 1.4, 3.1, 4.1): Radau IIA of order 3,
 * Lobatto IIIC of orders 4 and 6 and the Hairer–Wanner SDIRK4, solved
 * properly — the thesis's own code never solved the stage equations
 * (our reading of his Table 5.1) — and with RADAU5-style error estimates instead
 * of the thesis's two-step estimators (our check: of the method's own order,
 * they under-report the error; the printed Lobatto IIIC(4) one is of order
 * 2).
 *
 * Fully implicit methods (radau3, lobatto3c4, lobatto3c6). With the stage
 * increments Z_i = Y_i − y the stage equations are Z = h·(A ⊗ I)·F(Z). A
 * simplified Newton iteration with J at the step start is decoupled by
 * Butcher's transformation (HW II §IV.8): T⁻¹A⁻¹T = Λ, block diagonal with
 * a real eigenvalue γ or a 2×2 block [[α, −β], [β, α]] per complex pair,
 * W = (T⁻¹ ⊗ I)·Z, so one Newton step needs an LU of (γ/h)·I − J per real
 * and of ((α + iβ)/h)·I − J per complex eigenvalue of A⁻¹ instead of one of
 * size s·n. T and Λ are computed once per workspace from the tableau
 * (irk_consts_init). Newton convergence control is HW radau5.f's (θ
 * monitoring; a predicted failure retries with the step radau5.f predicts,
 * divergence halves h). The iteration starts from Z = 0 (radau5.f's
 * STARTN option; see irk_attempt_fully_implicit for why).
 *
 * Error estimate (HW II (8.19)–(8.21) style): err = (I − hγ̂J)⁻¹·D with
 * D = ŷ − y1 = e₀·h·f(t, y) + Σ e_i·Z_i the difference to an embedded
 * solution of lower order built from the same stages, filtered through
 * (I − hγ̂J)⁻¹ so that stiff components do not inflate it. γ̂ = 1/γ when A⁻¹
 * has a real eigenvalue γ (its LU is reused), otherwise γ̂ = det(A)^(1/s)
 * with one more real LU per attempt.
 *  - radau3: ŷ = y + h·(γ̂·f0 + (3/4 − 3γ̂/2)·F1 + (1/4 + γ̂/2)·F2), order 2
 *    (the nodes 0, 1/3, 1 leave no room for order 3), so
 *    D = γ̂·(h·f0 − 9/2·Z1 + 1/2·Z2); re-filtered with f(t, y + err) after a
 *    rejection or on the first step, as radau5.f does.
 *  - lobatto3c4/6: the first stage sits at c = 0 like f0, so f0 and the
 *    stages offer only s distinct nodes, and an estimate D = O(h^(s+1))
 *    from them vanishes whenever f depends on t alone (the KPP Lobatto-3C
 *    estimate, D = b₀·h·(f0 − F1), is of that kind). The embedded
 *    solution of order s − 1 used here is ŷ = y1 + Z1, weights b + a₁ᵀ (a₁
 *    the first row of A; stage order s − 1 gives Σ_j a_1j·c_j^(k−1) =
 *    c_1^k/k = 0 for k < s): D = Z1 = Y1 − y, the jump of the first stage
 *    away from y, O(h^s), which sees every part of the local solution.
 *
 * SDIRK4 (HW sdirk4.f METH = 1, the γ = 1/4 method of Treeaporn 2005, Table 3.1):
 * the five stages are solved one after the other with one real LU of
 * (1/(hγ))·I − J; err = (I − hγJ)⁻¹·(Z5 − Ẑ) with Ẑ from the order-3
 * embedded weights b̂ of Treeaporn's Table 3.1 (as sdirk4.f). Dense output:
 * sdirk4.f CONTS4 (order 3: local error O(h⁴)).
 *
 * Dense output of the fully implicit methods: P(θ) = y + Σ_k d_k(θ)·Z_k
 * with d(θ)ᵀ = b(θ)ᵀ·A⁻¹, b_j(θ) = ∫₀^θ ℓ_j (Lagrange basis on c), i.e. the
 * polynomial of degree s with P(0) = y whose derivative takes the stage
 * derivatives at the nodes. For Radau IIA it is the collocation polynomial
 * (HW CONTR5); Lobatto IIIC is no collocation method, and this polynomial
 * (the natural extension of its quadrature, which it ends on: P(1) = y1)
 * is of order s (local error O(h^(s+1))).
 *
 * Step size: HW radau5.f's controller (Newton-dependent safety factor,
 * Gustafsson) with the exponent 1/q of each method's estimate. */
#include "hyd-ode-private.h"

#include <lapacke.h>
#include <math.h>
#include <string.h>

#define IRK_MAX_S   5
#define IRK_UROUND  1e-16     /* the rounding unit radau5.f assumes */
#define IRK_SAFE    0.9       /* radau5.f SAFE */
#define IRK_NIT     7         /* Newton iterations per attempt (radau5.f NIT) */
#define IRK_NIT_FIXED 20      /* fixed step: h cannot shrink, iterate longer */
#define IRK_FACL    5.0       /* 1/FACL ≤ h_new/h ≤ 1/FACR (radau5.f) */
#define IRK_FACR    0.125

typedef enum {
  IRK_FULLY_IMPLICIT,
  IRK_SDIRK,
} IrkKind;

typedef struct {
  IrkKind kind;
  guint s;
  double c[IRK_MAX_S];
  double a[IRK_MAX_S][IRK_MAX_S];  /* stiffly accurate: b = last row */
  /* Error estimate D = γ̂^g·(e0·h·f0 + Σ e_i·Z_i), g = 1 if times_gamma. */
  double e0;
  double e[IRK_MAX_S];
  gboolean times_gamma;
  /* SDIRK: the embedded weights b̂ (Ẑ = h·Σ b̂_j·k_j). */
  double bhat[IRK_MAX_S];
  /* SDIRK: dense output y + Σ_m θ^m·Σ_j dense[m − 1][j]·Z_j (m = 1..4). */
  double dense[4][IRK_MAX_S];
} IrkTable;

/* Radau IIA, 2 stages, order 3 (Treeaporn 2005, Table 1.2). */
static const IrkTable radau3_table = {
  .kind = IRK_FULLY_IMPLICIT,
  .s = 2,
  .c = { 1.0 / 3.0, 1.0 },
  .a = {
    { 5.0 / 12.0, -1.0 / 12.0 },
    { 3.0 / 4.0, 1.0 / 4.0 },
  },
  /* γ̂·(h·f0 − 3/2·h·F1 + 1/2·h·F2) with h·F = A⁻¹·Z, A⁻¹ = [[3/2, 1/2],
   * [−9/2, 5/2]]. */
  .e0 = 1.0,
  .e = { -4.5, 0.5 },
  .times_gamma = TRUE,
};

/* Lobatto IIIC, 3 stages, order 4 (Treeaporn 2005, Table 1.4). */
static const IrkTable lobatto3c4_table = {
  .kind = IRK_FULLY_IMPLICIT,
  .s = 3,
  .c = { 0.0, 0.5, 1.0 },
  .a = {
    { 1.0 / 6.0, -1.0 / 3.0, 1.0 / 6.0 },
    { 1.0 / 6.0, 5.0 / 12.0, -1.0 / 12.0 },
    { 1.0 / 6.0, 2.0 / 3.0, 1.0 / 6.0 },
  },
  .e0 = 0.0,
  .e = { 1.0, 0.0, 0.0 },
};

/* Lobatto IIIC, 4 stages, order 6 (Treeaporn 2005, Table 4.1). */
#define SQRT5 2.23606797749978969640917366873127624
static const IrkTable lobatto3c6_table = {
  .kind = IRK_FULLY_IMPLICIT,
  .s = 4,
  .c = { 0.0, (5.0 - SQRT5) / 10.0, (5.0 + SQRT5) / 10.0, 1.0 },
  .a = {
    { 1.0 / 12.0, -SQRT5 / 12.0, SQRT5 / 12.0, -1.0 / 12.0 },
    { 1.0 / 12.0, 1.0 / 4.0, (10.0 - 7.0 * SQRT5) / 60.0, SQRT5 / 60.0 },
    { 1.0 / 12.0, (10.0 + 7.0 * SQRT5) / 60.0, 1.0 / 4.0, -SQRT5 / 60.0 },
    { 1.0 / 12.0, 5.0 / 12.0, 5.0 / 12.0, 1.0 / 12.0 },
  },
  .e0 = 0.0,
  .e = { 1.0, 0.0, 0.0, 0.0 },
};

/* HW SDIRK4, γ = 1/4 (Treeaporn 2005, Table 3.1 = HW II Table IV.6.5 =
 * sdirk4.f METH = 1), with the order-3 embedded weights b̂ and sdirk4.f's
 * continuous output (D11 … D45). */
static const IrkTable sdirk4_table = {
  .kind = IRK_SDIRK,
  .s = 5,
  .c = { 0.25, 0.75, 11.0 / 20.0, 0.5, 1.0 },
  .a = {
    { 0.25 },
    { 0.5, 0.25 },
    { 17.0 / 50.0, -1.0 / 25.0, 0.25 },
    { 371.0 / 1360.0, -137.0 / 2720.0, 15.0 / 544.0, 0.25 },
    { 25.0 / 24.0, -49.0 / 48.0, 125.0 / 16.0, -85.0 / 12.0, 0.25 },
  },
  .bhat = { 59.0 / 48.0, -17.0 / 96.0, 225.0 / 32.0, -85.0 / 12.0, 0.0 },
  .dense = {
    { 61.0 / 27.0, -185.0 / 54.0, 2525.0 / 18.0, -3740.0 / 27.0, -44.0 / 9.0 },
    { 2315.0 / 81.0, 1049.0 / 162.0, -27725.0 / 54.0, 40460.0 / 81.0,
      557.0 / 27.0 },
    { -6178.0 / 81.0, -1607.0 / 81.0, 20075.0 / 27.0, -56440.0 / 81.0,
      -718.0 / 27.0 },
    { 3680.0 / 81.0, 1360.0 / 81.0, -10000.0 / 27.0, 27200.0 / 81.0,
      320.0 / 27.0 },
  },
};

/* ---- what follows from a tableau ---------------------------------------- */

typedef enum {
  IRK_BLOCK_REAL,      /* (γ/h)·I − J */
  IRK_BLOCK_COMPLEX,   /* ((α + iβ)/h)·I − J on (W_k, W_k+1) */
} IrkBlockKind;

typedef struct {
  IrkBlockKind kind;
  guint k;             /* first transformed stage */
  double re, im;       /* γ, or α and β > 0 */
  guint solver;        /* which HydLinSolver holds its LU */
} IrkBlock;

typedef struct {
  guint s;
  double ainv[IRK_MAX_S][IRK_MAX_S];
  /* Fully implicit: Butcher's transformation. */
  double t[IRK_MAX_S][IRK_MAX_S], ti[IRK_MAX_S][IRK_MAX_S];
  IrkBlock blocks[IRK_MAX_S];
  guint n_blocks;
  guint n_solvers;
  /* Error filter (I − hγ̂J)⁻¹: γ̂, and the real block whose LU it shares
   * (−1: its own LU, in solver 0's real slot). */
  double gamma_hat;
  int filter_block;
  /* Dense output d_k(θ) = Σ_{m=1..s} dq[k][m]·θ^m. */
  double dq[IRK_MAX_S][IRK_MAX_S + 1];
  guint dq_degree;
  /* SDIRK: G_i = Σ_{j<i} alpha[i][j]·Z_j (= h·Σ a_ij·k_j), Ẑ = Σ ehat_j·Z_j. */
  double alpha[IRK_MAX_S][IRK_MAX_S];
  double ehat[IRK_MAX_S];
} IrkConsts;

/* In-place inverse of an s×s matrix by Gauss–Jordan with partial
 * pivoting; returns the determinant. */
static double
small_inverse (guint s, const double a[IRK_MAX_S][IRK_MAX_S],
               double inv[IRK_MAX_S][IRK_MAX_S])
{
  double m[IRK_MAX_S][2 * IRK_MAX_S];
  double det = 1.0;

  for (guint i = 0; i < s; i++)
    for (guint j = 0; j < 2 * s; j++)
      m[i][j] = j < s ? a[i][j] : (j - s == i ? 1.0 : 0.0);
  for (guint col = 0; col < s; col++)
    {
      guint piv = col;
      for (guint r = col + 1; r < s; r++)
        if (fabs (m[r][col]) > fabs (m[piv][col]))
          piv = r;
      g_assert (m[piv][col] != 0.0);
      if (piv != col)
        {
          for (guint j = 0; j < 2 * s; j++)
            {
              double tmp = m[col][j];
              m[col][j] = m[piv][j];
              m[piv][j] = tmp;
            }
          det = -det;
        }
      double p = m[col][col];
      det *= p;
      for (guint j = 0; j < 2 * s; j++)
        m[col][j] /= p;
      for (guint r = 0; r < s; r++)
        if (r != col && m[r][col] != 0.0)
          {
            double f = m[r][col];
            for (guint j = 0; j < 2 * s; j++)
              m[r][j] -= f * m[col][j];
          }
    }
  for (guint i = 0; i < s; i++)
    for (guint j = 0; j < s; j++)
      inv[i][j] = m[i][j + s];
  return det;
}

/* T, T⁻¹ and Λ = T⁻¹A⁻¹T from the eigenvectors of A⁻¹ (LAPACK dgeev; the
 * only direct LAPACK use of the family, on an s×s constant matrix). For a
 * complex pair the eigenvector v of α − iβ (β > 0) gives the columns
 * (Re v, Im v), for which A⁻¹·T = T·[[α, −β], [β, α]]. */
static void
irk_transformation (IrkConsts *k)
{
  guint s = k->s;
  double m[IRK_MAX_S * IRK_MAX_S], wr[IRK_MAX_S], wi[IRK_MAX_S];
  double vr[IRK_MAX_S * IRK_MAX_S], vl[1];

  for (guint i = 0; i < s; i++)
    for (guint j = 0; j < s; j++)
      m[i * s + j] = k->ainv[i][j];
  lapack_int info = LAPACKE_dgeev (LAPACK_ROW_MAJOR, 'N', 'V', (lapack_int) s,
                                   m, (lapack_int) s, wr, wi, vl, 1, vr,
                                   (lapack_int) s);
  g_assert (info == 0);

  k->n_blocks = 0;
  guint col = 0, n_real = 0, n_complex = 0;
  /* Real eigenvalues first, then the pairs. */
  for (guint pass = 0; pass < 2; pass++)
    for (guint j = 0; j < s; j++)
      {
        gboolean is_real = wi[j] == 0.0;
        if (pass == 0 && is_real)
          {
            for (guint i = 0; i < s; i++)
              k->t[i][col] = vr[i * s + j];
            k->blocks[k->n_blocks++] = (IrkBlock) {
              IRK_BLOCK_REAL, col, wr[j], 0.0, n_real++
            };
            col++;
          }
        else if (pass == 1 && wi[j] > 0.0)
          {
            /* dgeev: v_j = vr[:, j] + i·vr[:, j + 1] belongs to wr + i·wi;
             * its conjugate to wr − i·wi. */
            for (guint i = 0; i < s; i++)
              {
                k->t[i][col] = vr[i * s + j];
                k->t[i][col + 1] = -vr[i * s + j + 1];
              }
            k->blocks[k->n_blocks++] = (IrkBlock) {
              IRK_BLOCK_COMPLEX, col, wr[j], wi[j], n_complex++
            };
            col += 2;
          }
      }
  g_assert (col == s);
  small_inverse (s, k->t, k->ti);
  k->n_solvers = MAX (MAX (n_real, n_complex), 1);

  /* Check T⁻¹A⁻¹T against Λ (a wrong sign would show here, not later). */
  for (guint b = 0; b < k->n_blocks; b++)
    {
      const IrkBlock *blk = &k->blocks[b];
      guint c0 = blk->k;
      for (guint i = 0; i < s; i++)
        {
          double v0 = 0.0, v1 = 0.0;
          for (guint p = 0; p < s; p++)
            for (guint q = 0; q < s; q++)
              {
                v0 += k->ti[i][p] * k->ainv[p][q] * k->t[q][c0];
                if (blk->kind == IRK_BLOCK_COMPLEX)
                  v1 += k->ti[i][p] * k->ainv[p][q] * k->t[q][c0 + 1];
              }
          double e0 = 0.0, e1 = 0.0;
          if (blk->kind == IRK_BLOCK_REAL)
            e0 = i == c0 ? blk->re : 0.0;
          else
            {
              e0 = i == c0 ? blk->re : i == c0 + 1 ? blk->im : 0.0;
              e1 = i == c0 ? -blk->im : i == c0 + 1 ? blk->re : 0.0;
            }
          g_assert (fabs (v0 - e0) < 1e-9 && fabs (v1 - e1) < 1e-9);
        }
    }
}

/* d(θ)ᵀ = b(θ)ᵀ·A⁻¹ with b_j(θ) = ∫₀^θ ℓ_j, ℓ_j the Lagrange basis on c. */
static void
irk_dense_coefficients (const IrkTable *tab, IrkConsts *k)
{
  guint s = tab->s;
  double bq[IRK_MAX_S][IRK_MAX_S + 1];   /* b_j(θ) = Σ_m bq[j][m]·θ^m */

  for (guint j = 0; j < s; j++)
    {
      double p[IRK_MAX_S] = { 1.0 };     /* ℓ_j, ascending powers */
      guint deg = 0;
      for (guint m = 0; m < s; m++)
        {
          if (m == j)
            continue;
          double den = tab->c[j] - tab->c[m];
          /* p ← p·(θ − c_m)/den */
          for (guint q = deg + 1; q > 0; q--)
            p[q] = (p[q - 1] - tab->c[m] * p[q]) / den;
          p[0] = -tab->c[m] * p[0] / den;
          deg++;
        }
      bq[j][0] = 0.0;
      for (guint q = 0; q < s; q++)
        bq[j][q + 1] = p[q] / (q + 1);
    }
  for (guint kk = 0; kk < s; kk++)
    for (guint m = 0; m <= s; m++)
      {
        double v = 0.0;
        for (guint j = 0; j < s; j++)
          v += bq[j][m] * k->ainv[j][kk];
        k->dq[kk][m] = v;
      }
  k->dq_degree = s;
}

static void
irk_consts_init (const IrkTable *tab, IrkConsts *k)
{
  guint s = tab->s;

  memset (k, 0, sizeof *k);
  k->s = s;
  double det_ainv = small_inverse (s, tab->a, k->ainv);

  if (tab->kind == IRK_SDIRK)
    {
      /* G_i = h·Σ_{j<i} a_ij·k_j = Σ_j (A_strict·A⁻¹)_ij·Z_j and
       * Ẑ = h·Σ b̂_j·k_j = Σ_j (b̂ᵀA⁻¹)_j·Z_j (sdirk4.f ALPH, E). */
      for (guint i = 0; i < s; i++)
        for (guint j = 0; j < s; j++)
          {
            double v = 0.0;
            for (guint m = 0; m < i; m++)
              v += tab->a[i][m] * k->ainv[m][j];
            k->alpha[i][j] = v;
          }
      for (guint j = 0; j < s; j++)
        {
          double v = 0.0;
          for (guint m = 0; m < s; m++)
            v += tab->bhat[m] * k->ainv[m][j];
          k->ehat[j] = v;
        }
      for (guint j = 0; j < s; j++)
        {
          k->dq[j][0] = 0.0;
          for (guint m = 1; m <= 4; m++)
            k->dq[j][m] = tab->dense[m - 1][j];
        }
      k->dq_degree = 4;
      k->gamma_hat = tab->a[0][0];
      k->filter_block = -1;
      k->n_solvers = 1;
      return;
    }

  irk_transformation (k);
  irk_dense_coefficients (tab, k);
  k->filter_block = -1;
  for (guint b = 0; b < k->n_blocks; b++)
    if (k->blocks[b].kind == IRK_BLOCK_REAL)
      {
        k->filter_block = (int) b;
        k->gamma_hat = 1.0 / k->blocks[b].re;
        break;
      }
  if (k->filter_block < 0)
    k->gamma_hat = pow (1.0 / det_ainv, 1.0 / s);   /* det(A)^(1/s) */
}

/* ---- the workspace ------------------------------------------------------ */

typedef struct {
  const IrkTable *tab;
  const HydOdeMethod *method;
  IrkConsts k;
  guint n, s;

  HydJac *J;
  HydLinSolver *ls[IRK_MAX_S];
  gboolean lu_valid;       /* the factors belong to J and h_lu */
  gboolean filter_valid;   /* the error filter's own LU too */
  double h_lu, h_filter;

  double fnewt;            /* Newton stopping criterion (radau5.f) */
  double *scal;            /* atol_i + rtol·|y_i| */
  double *z, *w, *f;       /* [s·n]: Z, W = T⁻¹Z, F and Newton scratch */
  double *ystage, *errv, *ferr;

  /* History of the interval. */
  gboolean first;          /* no step accepted since the last restart */
  guint attempts;          /* from the current point */
  double faccon[IRK_MAX_S];/* Newton contraction (radau5.f FACCON; per
                            * stage for the SDIRK, sdirk4.f FACCO1..5) */
  double theta;
  guint newt;              /* iterations of the last attempt (last stage) */
  double newton_fac;       /* > 0: retry with this step factor */
  guint n_accepted;
  double h_acc, err_acc;

  double *y_try;           /* the last attempt's y, for the dense output */
} IrkWork;

static gpointer
irk_workspace_new (const HydOdeMethod *method, guint n)
{
  IrkWork *w = g_new0 (IrkWork, 1);
  const IrkTable *tab = method->data;

  w->tab = tab;
  w->method = method;
  irk_consts_init (tab, &w->k);
  w->n = n;
  w->s = tab->s;
  gsize sn = (gsize) w->s * n;
  w->scal = g_new0 (double, n);
  w->z = g_new0 (double, sn);
  w->w = g_new0 (double, sn);
  w->f = g_new0 (double, sn);
  w->ystage = g_new0 (double, n);
  w->errv = g_new0 (double, n);
  w->ferr = g_new0 (double, n);
  w->y_try = g_new0 (double, n);
  w->first = TRUE;
  for (guint i = 0; i < IRK_MAX_S; i++)
    w->faccon[i] = 1.0;
  return w;
}

static void
irk_workspace_free (gpointer ws)
{
  IrkWork *w = ws;

  if (w == NULL)
    return;
  hyd_jac_free (w->J);
  for (guint i = 0; i < IRK_MAX_S; i++)
    hyd_linsolver_free (w->ls[i]);
  g_free (w->scal);
  g_free (w->z);
  g_free (w->w);
  g_free (w->f);
  g_free (w->ystage);
  g_free (w->errv);
  g_free (w->ferr);
  g_free (w->y_try);
  g_free (w);
}

static void
irk_reset (gpointer ws, HydOdeDriver *d, double t, const double *y,
           const double *f0)
{
  IrkWork *w = ws;
  const HydOdeOptions *o = hyd_ode_driver_options (d);
  double tol = o->rtol;

  /* radau5.f FNEWT (with the user's rtol: the estimates here are not
   * rescaled). Pure absolute tolerances take the smallest atol. */
  if (!(tol > 0.0) && o->atol != NULL)
    {
      tol = INFINITY;
      for (guint i = 0; i < w->n; i++)
        if (o->atol[i] > 0.0)
          tol = MIN (tol, o->atol[i]);
    }
  if (!(tol > 0.0) || !isfinite (tol))
    tol = 1e-6;
  tol = MAX (tol, 10.0 * IRK_UROUND);
  w->fnewt = MAX (10.0 * IRK_UROUND / tol, MIN (0.03, sqrt (tol)));

  /* A discontinuity: the controller's history starts again. */
  w->first = TRUE;
  w->attempts = 0;
  for (guint i = 0; i < IRK_MAX_S; i++)
    w->faccon[i] = 1.0;
  w->theta = 1.0;
  w->newton_fac = 0.0;
  w->n_accepted = 0;
  w->h_acc = 0.0;
  w->err_acc = 0.0;
}

static int
irk_prepare (gpointer ws, HydOdeDriver *d, double t, const double *y,
             const double *f0)
{
  IrkWork *w = ws;

  if (w->J == NULL)
    {
      w->J = hyd_ode_driver_jac_new (d);
      for (guint i = 0; i < w->k.n_solvers; i++)
        w->ls[i] = hyd_linsolver_new (w->J);
    }
  w->attempts = 0;
  /* The simplified Newton iteration uses J at the step start. */
  w->lu_valid = FALSE;
  w->filter_valid = FALSE;
  return hyd_ode_driver_jacobian (d, t, y, f0, w->J, NULL);
}

static HydAttempt
irk_singular (HydOdeDriver *d, int info)
{
  guint n = hyd_ode_driver_n (d);

  hyd_ode_driver_note_singular (d, info > 0 && (guint) info <= n ? info - 1 : -1);
  return HYD_ATTEMPT_SINGULAR;
}

/* LU factors of every block's matrix for step h (one LU counted per
 * factorisation, complex ones included). */
static HydAttempt
irk_factor (IrkWork *w, HydOdeDriver *d, double h)
{
  HydOdeStats *st = hyd_ode_driver_stats (d);
  const IrkConsts *k = &w->k;

  if (w->lu_valid && h == w->h_lu)
    return HYD_ATTEMPT_OK;
  w->lu_valid = FALSE;
  if (w->tab->kind == IRK_SDIRK)
    {
      st->lu++;
      int info = hyd_linsolver_factor (w->ls[0], 1.0 / (h * k->gamma_hat), w->J);
      if (info != 0)
        return irk_singular (d, info);
    }
  else
    for (guint b = 0; b < k->n_blocks; b++)
      {
        const IrkBlock *blk = &k->blocks[b];
        int info;
        st->lu++;
        if (blk->kind == IRK_BLOCK_REAL)
          info = hyd_linsolver_factor (w->ls[blk->solver], blk->re / h, w->J);
        else
          info = hyd_linsolver_factor_complex (w->ls[blk->solver], blk->re / h,
                                               blk->im / h, w->J);
        if (info != 0)
          return irk_singular (d, info);
      }
  w->lu_valid = TRUE;
  w->h_lu = h;
  return HYD_ATTEMPT_OK;
}

/* (1/(hγ̂))·I − J for the error filter: the matrix of a real block, or an
 * LU of its own in solver 0's real slot (free there: no real block). */
static HydAttempt
irk_factor_filter (IrkWork *w, HydOdeDriver *d, double h)
{
  if (w->tab->kind == IRK_SDIRK || w->k.filter_block >= 0)
    return HYD_ATTEMPT_OK;
  if (w->filter_valid && h == w->h_filter)
    return HYD_ATTEMPT_OK;
  hyd_ode_driver_stats (d)->lu++;
  int info = hyd_linsolver_factor (w->ls[0], 1.0 / (h * w->k.gamma_hat), w->J);
  if (info != 0)
    return irk_singular (d, info);
  w->filter_valid = TRUE;
  w->h_filter = h;
  return HYD_ATTEMPT_OK;
}

/* v ← (I − hγ̂J)⁻¹·v = ((1/(hγ̂))·I − J)⁻¹·v/(hγ̂). */
static void
irk_filter (IrkWork *w, double h, double *v)
{
  double s = 1.0 / (h * w->k.gamma_hat);
  HydLinSolver *ls = w->k.filter_block >= 0
                     ? w->ls[w->k.blocks[w->k.filter_block].solver] : w->ls[0];

  for (guint i = 0; i < w->n; i++)
    v[i] *= s;
  hyd_linsolver_solve (ls, v);
}

static void
irk_set_scal (IrkWork *w, const HydOdeOptions *o, const double *y)
{
  for (guint i = 0; i < w->n; i++)
    {
      double sk = (o->atol != NULL ? o->atol[i] : o->rtol > 0.0 ? o->rtol : 1e-6)
                  + o->rtol * fabs (y[i]);
      w->scal[i] = MAX (sk, 1e-300);
    }
}

static inline double
irk_sumsq (const IrkWork *w, const double *v)
{
  double s = 0.0;

  for (guint i = 0; i < w->n; i++)
    {
      double q = v[i] / w->scal[i];
      s += q * q;
    }
  return s;
}

/* The radau5.f test after Newton iteration newt with increment norm dyno
 * (previous dynold): returns FALSE to stop the attempt (*res says how). */
static gboolean
irk_newton_check (IrkWork *w, guint nit, gboolean fixed, double dyno,
                  double dynold, double *thqold, double *faccon,
                  HydAttempt *res)
{
  if (!isfinite (dyno))
    {
      *res = HYD_ATTEMPT_DIVERGED;
      return FALSE;
    }
  if (w->newt > 1 && w->newt < nit)
    {
      double thq = dyno / dynold;
      w->theta = w->newt == 2 ? thq : sqrt (thq * *thqold);
      *thqold = thq;
      if (w->theta < 0.99)
        {
          *faccon = w->theta / (1.0 - w->theta);
          double dyth = *faccon * dyno
                        * pow (w->theta, (double) (nit - 1 - w->newt)) / w->fnewt;
          if (dyth >= 1.0 && !fixed)
            {
              /* It would not converge within NIT iterations: retry with
               * the smaller step radau5.f predicts from θ. */
              double qnewt = MAX (1e-4, MIN (20.0, dyth));
              w->newton_fac = 0.8 * pow (qnewt, -1.0 / (4.0 + nit - 1 - w->newt));
              *res = HYD_ATTEMPT_OK;
              return FALSE;
            }
        }
      else
        {
          *res = HYD_ATTEMPT_DIVERGED;
          return FALSE;
        }
    }
  return TRUE;
}

/* Reports a too slow Newton iteration as a rejected attempt; propose then
 * returns newton_fac (as radau5.f's step reduction). */
static HydAttempt
irk_newton_retry (IrkWork *w, const double *y, double *y_new, double *err)
{
  memcpy (y_new, y, w->n * sizeof (double));
  *err = 1.0 / w->newton_fac;
  return HYD_ATTEMPT_OK;
}

static HydAttempt
irk_attempt_fully_implicit (IrkWork *w, HydOdeDriver *d, double t,
                            const double *y, const double *f0, double h,
                            double *y_new, double *err)
{
  const IrkTable *tab = w->tab;
  const IrkConsts *k = &w->k;
  const HydOdeOptions *o = hyd_ode_driver_options (d);
  HydOdeStats *st = hyd_ode_driver_stats (d);
  gboolean fixed = o->fixed_step > 0.0;
  guint n = w->n, s = w->s, nit = fixed ? IRK_NIT_FIXED : IRK_NIT;
  gboolean after_reject = w->attempts > 0;
  HydAttempt res;
  int rc;

  w->attempts++;
  res = irk_factor (w, d, h);
  if (res != HYD_ATTEMPT_OK)
    return res;
  irk_set_scal (w, o, y);

  /* Starting values Z = W = 0 (radau5.f STARTN = 1): the first iterate is
   * the linearly implicit step from y. Extrapolating the last step's
   * extension (radau5.f's default) saves iterations on smooth problems but
   * can lead the iteration to another root of the stage equations: on E5
   * at atol = 1e-6 it lands on negative y2, y3 (below atol, but the exact
   * solution from there blows up) with every method here. */
  memset (w->z, 0, (gsize) s * n * sizeof (double));
  memset (w->w, 0, (gsize) s * n * sizeof (double));

  /* The simplified Newton iteration (radau5.f loop 40). */
  double dynold = 0.0, thqold = 0.0;
  w->newt = 0;
  w->faccon[0] = pow (MAX (w->faccon[0], IRK_UROUND), 0.8);
  w->theta = 0.001;
  for (;;)
    {
      if (w->newt >= nit)
        return HYD_ATTEMPT_DIVERGED;
      if (o->cancel != NULL && g_atomic_int_get (o->cancel) != 0)
        return HYD_ATTEMPT_DIVERGED;   /* the driver reports the cancellation */

      for (guint i = 0; i < s; i++)
        {
          const double *zi = w->z + (gsize) i * n;
          for (guint q = 0; q < n; q++)
            w->ystage[q] = y[q] + zi[q];
          rc = hyd_ode_driver_rhs (d, t + tab->c[i] * h, w->ystage,
                                   w->f + (gsize) i * n);
          if (rc < 0)
            return HYD_ATTEMPT_FATAL;
          if (rc > 0)
            return HYD_ATTEMPT_RECOVERABLE;
        }
      /* Right-hand sides of the transformed systems, into z (free until
       * Z = T·W below): (Λ/h ⊗ I − I ⊗ J)·ΔW = (T⁻¹ ⊗ I)·F − (Λ/h ⊗ I)·W. */
      for (guint i = 0; i < n; i++)
        {
          double g[IRK_MAX_S], wv[IRK_MAX_S];
          for (guint r = 0; r < s; r++)
            {
              double v = 0.0;
              for (guint q = 0; q < s; q++)
                v += k->ti[r][q] * w->f[(gsize) q * n + i];
              g[r] = v;
              wv[r] = w->w[(gsize) r * n + i];
            }
          for (guint b = 0; b < k->n_blocks; b++)
            {
              const IrkBlock *blk = &k->blocks[b];
              guint r = blk->k;
              if (blk->kind == IRK_BLOCK_REAL)
                w->z[(gsize) r * n + i] = g[r] - blk->re / h * wv[r];
              else
                {
                  double al = blk->re / h, be = blk->im / h;
                  w->z[(gsize) r * n + i] = g[r] - (al * wv[r] - be * wv[r + 1]);
                  w->z[(gsize) (r + 1) * n + i] = g[r + 1] - (be * wv[r] + al * wv[r + 1]);
                }
            }
        }
      for (guint b = 0; b < k->n_blocks; b++)
        {
          const IrkBlock *blk = &k->blocks[b];
          double *zr = w->z + (gsize) blk->k * n;
          if (blk->kind == IRK_BLOCK_REAL)
            hyd_linsolver_solve (w->ls[blk->solver], zr);
          else
            hyd_linsolver_solve_complex (w->ls[blk->solver], zr, zr + n);
        }
      w->newt++;
      st->newton++;

      double sum = 0.0;
      for (guint r = 0; r < s; r++)
        sum += irk_sumsq (w, w->z + (gsize) r * n);
      double dyno = sqrt (sum / (s * (double) n));
      if (!irk_newton_check (w, nit, fixed, dyno, dynold, &thqold,
                             &w->faccon[0], &res))
        return res == HYD_ATTEMPT_OK ? irk_newton_retry (w, y, y_new, err) : res;
      dynold = MAX (dyno, IRK_UROUND);

      /* W += ΔW, Z = T·W. */
      for (gsize q = 0; q < (gsize) s * n; q++)
        w->w[q] += w->z[q];
      for (guint i = 0; i < n; i++)
        for (guint r = 0; r < s; r++)
          {
            double v = 0.0;
            for (guint q = 0; q < s; q++)
              v += k->t[r][q] * w->w[(gsize) q * n + i];
            w->z[(gsize) r * n + i] = v;
          }
      if (w->faccon[0] * dyno <= w->fnewt)
        break;
    }

  /* Stiffly accurate: y_new = y + Z_s. */
  const double *zs = w->z + (gsize) (s - 1) * n;
  for (guint i = 0; i < n; i++)
    y_new[i] = y[i] + zs[i];

  *err = 0.0;
  if (!fixed)
    {
      res = irk_factor_filter (w, d, h);
      if (res != HYD_ATTEMPT_OK)
        return res;
      double g = tab->times_gamma ? k->gamma_hat : 1.0;
      for (guint i = 0; i < n; i++)
        {
          double v = 0.0;
          for (guint r = 0; r < s; r++)
            v += tab->e[r] * w->z[(gsize) r * n + i];
          w->ferr[i] = g * v;
          w->errv[i] = w->ferr[i] + g * tab->e0 * h * f0[i];
        }
      irk_filter (w, h, w->errv);
      *err = MAX (hyd_ode_driver_error_norm (d, y, y_new, w->errv), 1e-10);

      if (*err >= 1.0 && tab->e0 != 0.0 && (w->first || after_reject))
        {
          /* A stiff component can make the first estimate far too large
           * (it tends to −y there): filter once more with f(t, y + err)
           * (HW II §IV.8, radau5.f ESTRAD). */
          for (guint i = 0; i < n; i++)
            w->ystage[i] = y[i] + w->errv[i];
          rc = hyd_ode_driver_rhs (d, t, w->ystage, w->f);
          if (rc < 0)
            return HYD_ATTEMPT_FATAL;
          if (rc > 0)
            return HYD_ATTEMPT_RECOVERABLE;
          for (guint i = 0; i < n; i++)
            w->errv[i] = w->ferr[i] + g * tab->e0 * h * w->f[i];
          irk_filter (w, h, w->errv);
          *err = MAX (hyd_ode_driver_error_norm (d, y, y_new, w->errv), 1e-10);
        }
    }

  memcpy (w->y_try, y, n * sizeof (double));
  return HYD_ATTEMPT_OK;
}

static HydAttempt
irk_attempt_sdirk (IrkWork *w, HydOdeDriver *d, double t, const double *y,
                   const double *f0, double h, double *y_new, double *err)
{
  const IrkTable *tab = w->tab;
  const IrkConsts *k = &w->k;
  const HydOdeOptions *o = hyd_ode_driver_options (d);
  HydOdeStats *st = hyd_ode_driver_stats (d);
  gboolean fixed = o->fixed_step > 0.0;
  guint n = w->n, s = w->s, nit = fixed ? IRK_NIT_FIXED : IRK_NIT;
  double gamma = tab->a[0][0], fac1 = 1.0 / (h * gamma);
  gboolean after_reject = w->attempts > 0;
  double *g = w->ferr;
  HydAttempt res;
  int rc;

  w->attempts++;
  res = irk_factor (w, d, h);
  if (res != HYD_ATTEMPT_OK)
    return res;
  irk_set_scal (w, o, y);

  for (guint st_i = 0; st_i < s; st_i++)
    {
      double *z = w->z + (gsize) st_i * n;

      /* G = Σ_{j<i} α_ij·Z_j (= h·Σ a_ij·k_j) and the starting value. */
      memset (g, 0, n * sizeof (double));
      for (guint j = 0; j < st_i; j++)
        {
          const double *zj = w->z + (gsize) j * n;
          double al = k->alpha[st_i][j];
          for (guint i = 0; i < n; i++)
            g[i] += al * zj[i];
        }
      /* Starting value Z = G, i.e. Y = y + h·Σ_{j<i} a_ij·k_j: the first
       * iterate is a linearly implicit step from there. sdirk4.f's
       * extrapolated and predicted values save iterations on smooth
       * problems but lead to another root on E5 (as above) and to many
       * rejections on ROBER. */
      memcpy (z, g, n * sizeof (double));

      /* Simplified Newton for Z = G + hγ·f(t + c_i·h, y + Z) (sdirk4.f). */
      double dynold = 0.0, thqold = 0.0;
      double *faccon = &w->faccon[st_i];
      *faccon = pow (MAX (*faccon, IRK_UROUND), 0.8);
      w->newt = 0;
      w->theta = after_reject ? 0.002 : 0.001;
      for (;;)
        {
          if (w->newt >= nit)
            return HYD_ATTEMPT_DIVERGED;
          if (o->cancel != NULL && g_atomic_int_get (o->cancel) != 0)
            return HYD_ATTEMPT_DIVERGED;
          for (guint i = 0; i < n; i++)
            w->ystage[i] = y[i] + z[i];
          double *rhs = w->f;
          rc = hyd_ode_driver_rhs (d, t + tab->c[st_i] * h, w->ystage, rhs);
          if (rc < 0)
            return HYD_ATTEMPT_FATAL;
          if (rc > 0)
            return HYD_ATTEMPT_RECOVERABLE;
          for (guint i = 0; i < n; i++)
            rhs[i] += (g[i] - z[i]) * fac1;
          hyd_linsolver_solve (w->ls[0], rhs);
          w->newt++;
          st->newton++;
          double dyno = sqrt (irk_sumsq (w, rhs) / n);
          if (!irk_newton_check (w, nit, fixed, dyno, dynold, &thqold, faccon,
                                 &res))
            return res == HYD_ATTEMPT_OK ? irk_newton_retry (w, y, y_new, err) : res;
          dynold = MAX (dyno, IRK_UROUND);
          for (guint i = 0; i < n; i++)
            z[i] += rhs[i];
          if (*faccon * dyno <= w->fnewt)
            break;
        }
    }

  const double *z5 = w->z + (gsize) (s - 1) * n;
  for (guint i = 0; i < n; i++)
    y_new[i] = y[i] + z5[i];
  *err = 0.0;
  if (!fixed)
    {
      /* sdirk4.f: err = (I − hγJ)⁻¹·(Z5 − Ẑ), Ẑ = Σ ê_j·Z_j. */
      for (guint i = 0; i < n; i++)
        {
          double v = z5[i];
          for (guint j = 0; j < s; j++)
            v -= k->ehat[j] * w->z[(gsize) j * n + i];
          w->errv[i] = v;
        }
      irk_filter (w, h, w->errv);
      *err = MAX (hyd_ode_driver_error_norm (d, y, y_new, w->errv), 1e-10);
    }
  memcpy (w->y_try, y, n * sizeof (double));
  return HYD_ATTEMPT_OK;
}

static HydAttempt
irk_attempt (gpointer ws, HydOdeDriver *d, double t, const double *y,
             const double *f0, double h, double *y_new, double *err)
{
  IrkWork *w = ws;

  w->newton_fac = 0.0;
  *err = 0.0;
  if (w->tab->kind == IRK_SDIRK)
    return irk_attempt_sdirk (w, d, t, y, f0, h, y_new, err);
  return irk_attempt_fully_implicit (w, d, t, y, f0, h, y_new, err);
}

/* HW radau5.f step-size selection (sdirk4.f is the same without the
 * predictive part) with the exponent of each method's estimate. */
static double
irk_propose (gpointer ws, HydOdeDriver *d, double h, double err,
             gboolean accepted, gboolean after_reject)
{
  IrkWork *w = ws;
  double q = w->method->error_order;

  if (w->newton_fac > 0.0)
    {
      double fac = w->newton_fac;
      w->newton_fac = 0.0;
      return fac;
    }

  /* The more Newton iterations, the more cautious (CFAC). */
  double cfac = IRK_SAFE * (1 + 2 * IRK_NIT);
  double fac = MIN (IRK_SAFE, cfac / (w->newt + 2 * IRK_NIT));
  double quot = MAX (IRK_FACR, MIN (IRK_FACL, pow (err, 1.0 / q) / fac));

  if (!accepted)
    return w->first ? 0.1 : 1.0 / quot;

  w->n_accepted++;
  if (w->n_accepted > 1)
    {
      /* Gustafsson's predictive controller (radau5.f PRED). */
      double facgus = (w->h_acc / h) * pow (err * err / w->err_acc, 1.0 / q)
                      / IRK_SAFE;
      facgus = MAX (IRK_FACR, MIN (IRK_FACL, facgus));
      quot = MAX (quot, facgus);
    }
  w->h_acc = h;
  w->err_acc = MAX (1e-2, err);

  double qt = 1.0 / quot;
  if (after_reject)
    qt = MIN (qt, 1.0);
  return qt;
}

static void
irk_accept (gpointer ws, HydOdeDriver *d, double t_new, const double *y_new,
            const double *f_new)
{
  IrkWork *w = ws;

  w->first = FALSE;
}

static int
irk_dense (gpointer ws, HydOdeDriver *d, double theta, double *y_out)
{
  IrkWork *w = ws;
  const IrkConsts *k = &w->k;
  guint n = w->n;

  memcpy (y_out, w->y_try, n * sizeof (double));
  for (guint kk = 0; kk < w->s; kk++)
    {
      /* Horner in θ; d_k has no constant term. */
      double p = 0.0;
      for (guint m = k->dq_degree; m >= 1; m--)
        p = (p + k->dq[kk][m]) * theta;
      const double *zk = w->z + (gsize) kk * n;
      if (p != 0.0)
        for (guint i = 0; i < n; i++)
          y_out[i] += p * zk[i];
    }
  return 0;
}

#define IRK_VTABLE                          \
  .workspace_new = irk_workspace_new,       \
  .workspace_free = irk_workspace_free,     \
  .prepare = irk_prepare,                   \
  .attempt = irk_attempt,                   \
  .dense = irk_dense,                       \
  .reset = irk_reset,                       \
  .propose = irk_propose,                   \
  .accept = irk_accept

static const HydOdeMethod radau3_method = {
  .info = {
    .id = "radau3",
    .family = "implicit RK, Radau IIA, 2 stages",
    .order = "3",
    .implicit = TRUE,
    .adaptive = TRUE,
    .multistep = FALSE,
    .notes = "Treeaporn (2005): simplified Newton on the transformed "
             "complex system, RADAU5-style filtered estimate of order 2, "
             "collocation dense output; L-stable, stiffly accurate",
  },
  .data = &radau3_table,
  .order = 3,
  .error_order = 3.0,
  IRK_VTABLE,
};

static const HydOdeMethod lobatto3c4_method = {
  .info = {
    .id = "lobatto3c4",
    .family = "implicit RK, Lobatto IIIC, 3 stages",
    .order = "4",
    .implicit = TRUE,
    .adaptive = TRUE,
    .multistep = FALSE,
    .notes = "Treeaporn (2005): simplified Newton on the transformed "
             "real and complex systems, filtered estimate of order 2 "
             "(not the thesis's eq. 2.163), dense output of order 3; "
             "L-stable, stiffly accurate",
  },
  .data = &lobatto3c4_table,
  .order = 4,
  .error_order = 3.0,
  IRK_VTABLE,
};

static const HydOdeMethod lobatto3c6_method = {
  .info = {
    .id = "lobatto3c6",
    .family = "implicit RK, Lobatto IIIC, 4 stages",
    .order = "6",
    .implicit = TRUE,
    .adaptive = TRUE,
    .multistep = FALSE,
    .notes = "Treeaporn (2005): simplified Newton on two transformed "
             "complex systems, filtered estimate of order 3, dense output "
             "of order 4; L-stable, stiffly accurate",
  },
  .data = &lobatto3c6_table,
  .order = 6,
  .error_order = 4.0,
  IRK_VTABLE,
};

static const HydOdeMethod sdirk4_method = {
  .info = {
    .id = "sdirk4",
    .family = "SDIRK, 5 stages, L-stable",
    .order = "4(3)",
    .implicit = TRUE,
    .adaptive = TRUE,
    .multistep = FALSE,
    .notes = "Hairer–Wanner SDIRK4 (sdirk4.f, γ = 1/4; Treeaporn 2005): stages "
             "solved one by one with one real LU, filtered embedded order-3 "
             "estimate, sdirk4.f dense output of order 3",
  },
  .data = &sdirk4_table,
  .order = 4,
  .error_order = 4.0,
  IRK_VTABLE,
};

static const HydOdeMethod *const irk_members[] = {
  &radau3_method,
  &lobatto3c4_method,
  &lobatto3c6_method,
  &sdirk4_method,
};

const HydOdeMethod *const *
hyd_ode_family_irk (guint *n)
{
  *n = G_N_ELEMENTS (irk_members);
  return irk_members;
}
