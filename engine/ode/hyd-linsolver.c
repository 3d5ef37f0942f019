/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-linsolver.c — Jacobian storage and shifted LU factorisations. */
#include "hyd-linsolver.h"

#include <complex.h>
#include <float.h>
#include <klu.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* HYD_SMALL_DENSE_MAX, or the environment's BRAMAH_SMALL_DENSE_MAX (for
 * measuring the crossover: docs/solvers.md, "Linear solvers"). */
static guint
small_dense_max (void)
{
  static gsize once = 0;
  static guint value = HYD_SMALL_DENSE_MAX;
  if (g_once_init_enter (&once))
    {
      const char *e = g_getenv ("BRAMAH_SMALL_DENSE_MAX");
      if (e != NULL && *e != '\0')
        {
          char *end = NULL;
          guint64 v = g_ascii_strtoull (e, &end, 10);
          if (end != NULL && *end == '\0' && v <= 4096)
            value = (guint) v;
        }
      g_once_init_leave (&once, 1);
    }
  return value;
}

HydJac *
hyd_jac_new_dense (guint n)
{
  HydJac *J = g_new0 (HydJac, 1);
  J->n = n;
  J->dense = g_new0 (double, (gsize) n * n + 1);
  J->small_dense_max = small_dense_max ();
  return J;
}

HydJac *
hyd_jac_new_sparse (guint n, guint nnz, const guint *colptr, const guint *rowind)
{
  HydJac *J = g_new0 (HydJac, 1);
  J->n = n;
  J->sparse = TRUE;
  J->nnz = nnz;
  J->colptr = colptr;
  J->rowind = rowind;
  J->values = g_new0 (double, nnz + 1);
  J->small_dense_max = small_dense_max ();
  return J;
}

void
hyd_jac_free (HydJac *J)
{
  if (J == NULL)
    return;
  g_free (J->dense);
  g_free (J->values);
  g_free (J);
}

void
hyd_jac_zero (HydJac *J)
{
  if (J->sparse)
    memset (J->values, 0, sizeof (double) * J->nnz);
  else
    memset (J->dense, 0, sizeof (double) * J->n * J->n);
}

double
hyd_jac_get (const HydJac *J, guint i, guint j)
{
  if (!J->sparse)
    return J->dense[i + (gsize) j * J->n];
  for (guint k = J->colptr[j]; k < J->colptr[j + 1]; k++)
    if (J->rowind[k] == i)
      return J->values[k];
  return 0.0;
}

void
hyd_jac_get_diagonal (const HydJac *J, double *d)
{
  for (guint i = 0; i < J->n; i++)
    d[i] = hyd_jac_get (J, i, i);
}

void
hyd_jac_matvec (const HydJac *J, const double *x, double *out)
{
  guint n = J->n;
  memset (out, 0, sizeof (double) * n);
  if (J->sparse)
    {
      for (guint j = 0; j < n; j++)
        for (guint k = J->colptr[j]; k < J->colptr[j + 1]; k++)
          out[J->rowind[k]] += J->values[k] * x[j];
      return;
    }
  for (guint j = 0; j < n; j++)
    {
      const double *col = J->dense + (gsize) j * n;
      double xj = x[j];
      if (xj != 0.0)
        for (guint i = 0; i < n; i++)
          out[i] += col[i] * xj;
    }
}

void
hyd_jac_copy (HydJac *dst, const HydJac *src)
{
  g_return_if_fail (dst->n == src->n && dst->sparse == src->sparse);
  if (src->sparse)
    memcpy (dst->values, src->values, sizeof (double) * src->nnz);
  else
    memcpy (dst->dense, src->dense, sizeof (double) * src->n * src->n);
}

int
hyd_jac_first_nonfinite_row (const HydJac *J)
{
  if (J->sparse)
    {
      for (guint j = 0; j < J->n; j++)
        for (guint k = J->colptr[j]; k < J->colptr[j + 1]; k++)
          if (!isfinite (J->values[k]))
            return (int) J->rowind[k];
      return -1;
    }
  for (gsize k = 0; k < (gsize) J->n * J->n; k++)
    if (!isfinite (J->dense[k]))
      return (int) (k % J->n);
  return -1;
}

/* ---------------- solvers ---------------- */

/* The sparse path factors A = shift·I − J with KLU (Davis & Palamadai
 * Natarajan, ACM TOMS 37(3), 2010) on a pattern built once from J's: J's
 * entries plus every diagonal entry, which J's pattern may lack (a state
 * whose derivative does not depend on itself). The symbolic analysis (BTF,
 * AMD ordering) is done once per pattern and kept; the first factorisation
 * pivots (klu_factor), later ones reuse its pivot order (klu_refactor, no
 * search, much cheaper) unless that order has gone bad. The complex system
 * (sr + i·si)·I − J shares the symbolic analysis (klu_z_*). */
typedef struct {
  guint nnz_a;            /* entries of the shifted pattern */
  int *Ap, *Ai;           /* [n + 1], [nnz_a]: shifted pattern, rows sorted */
  int *map;               /* [nnz of J]: J's entry k is A's entry map[k] */
  int *diag;              /* [n]: A's entry of (j, j) */
  double *Ax;             /* [nnz_a] */
  double *Az;             /* [2·nnz_a] interleaved (re, im) */
  const guint *colptr;    /* J's pattern the above was built for */
  const guint *rowind;
  guint nnz;
  klu_common common;
  klu_symbolic *symbolic;
  klu_numeric *numeric;   /* real factors, or NULL */
  klu_numeric *znumeric;  /* complex factors, or NULL */
  double rgrowth;         /* reciprocal pivot growth of the last pivoting */
  double zrgrowth;        /* factorisation, real and complex */
} SparseLU;

struct _HydLinSolver {
  guint n;
  gboolean sparse;
  /* dense */
  double *a;
  lapack_int *ipiv;
  lapack_complex_double *z;
  lapack_int *zpiv;
  lapack_complex_double *zb; /* right-hand side scratch */
  /* sparse */
  SparseLU *klu;
  /* small: the real factors of small_dense_lu, n×n column-major; spiv the
   * row of each pivot then the permutation (small_dense_prepare); sscale
   * the row scale factors, their permuted copy, then a solve's scratch
   * (n each); `small` while they hold the last real factorisation */
  double *sa;
  int *spiv;
  double *sscale;
  gboolean small;
};

/* klu_refactor keeps the last pivoting factorisation's pivot order; when
 * the new values make it poor the matrix is factored again with pivoting.
 * Poor is a reciprocal pivot growth (klu_rgrowth) more than
 * KLU_REFACTOR_GROWTH times below that of the last pivoting factorisation:
 * on random systems whose shift drops from 1e3 to 1 the kept order loses
 * three digits of the residual (tests/engine/test-sparse.c). SUNDIALS'
 * SUNLinSol_KLU tests the crude reciprocal condition min|U_kk|/max|U_kk|
 * against ε^(2/3) instead; that measures the scaling of the variables as
 * much as the pivots, and a circuit's (pressures in Pa beside flows in
 * m³/s) fails it on every step with perfectly good pivots. */
#define KLU_REFACTOR_GROWTH 10.0

typedef struct {
  guint row;
  int src;   /* J's entry index, or −1 for an added diagonal */
} RowSrc;

static int
cmp_rowsrc (const void *a, const void *b)
{
  const RowSrc *x = a, *y = b;
  return (x->row > y->row) - (x->row < y->row);
}

static void
sparse_free_numeric (SparseLU *s, klu_numeric **num, gboolean complex_values)
{
  if (*num == NULL)
    return;
  if (complex_values)
    klu_z_free_numeric (num, &s->common);
  else
    klu_free_numeric (num, &s->common);
}

static void
sparse_lu_free (SparseLU *s)
{
  if (s == NULL)
    return;
  sparse_free_numeric (s, &s->numeric, FALSE);
  sparse_free_numeric (s, &s->znumeric, TRUE);
  if (s->symbolic != NULL)
    klu_free_symbolic (&s->symbolic, &s->common);
  g_free (s->Ap);
  g_free (s->Ai);
  g_free (s->map);
  g_free (s->diag);
  g_free (s->Ax);
  g_free (s->Az);
  g_free (s);
}

/* The shifted pattern and the symbolic analysis for J's pattern. NULL when
 * KLU cannot analyse it (out of memory, or an index out of range). */
static SparseLU *
sparse_lu_new (const HydJac *J)
{
  guint n = J->n;
  SparseLU *s = g_new0 (SparseLU, 1);
  guint max_col = 0;

  s->colptr = J->colptr;
  s->rowind = J->rowind;
  s->nnz = J->nnz;
  for (guint j = 0; j < n; j++)
    max_col = MAX (max_col, J->colptr[j + 1] - J->colptr[j]);
  RowSrc *col = g_new (RowSrc, max_col + 1);
  s->Ap = g_new0 (int, n + 1);
  s->Ai = g_new (int, (gsize) J->nnz + n + 1);
  s->map = g_new (int, J->nnz + 1);
  s->diag = g_new (int, n + 1);

  guint a = 0;
  for (guint j = 0; j < n; j++)
    {
      guint len = 0;
      gboolean has_diag = FALSE;
      for (guint k = J->colptr[j]; k < J->colptr[j + 1]; k++)
        {
          if (J->rowind[k] >= n)
            goto bad;
          has_diag |= J->rowind[k] == j;
          col[len++] = (RowSrc) { J->rowind[k], (int) k };
        }
      if (!has_diag)
        col[len++] = (RowSrc) { j, -1 };
      qsort (col, len, sizeof *col, cmp_rowsrc);
      /* A repeated (i, j) in J's pattern adds into one entry of A. */
      for (guint m = 0; m < len; m++)
        {
          if (m == 0 || col[m].row != col[m - 1].row)
            s->Ai[a++] = (int) col[m].row;
          if (col[m].row == j)
            s->diag[j] = (int) a - 1;
          if (col[m].src >= 0)
            s->map[col[m].src] = (int) a - 1;
        }
      s->Ap[j + 1] = (int) a;
    }
  g_free (col);
  col = NULL;
  s->nnz_a = a;
  s->Ax = g_new0 (double, a + 1);

  klu_defaults (&s->common);
  /* Threshold partial pivoting: KLU keeps a diagonal pivot down to tol
   * times the column's largest entry. With its default 0.001 the relative
   * residual of random n = 400 systems (1 % dense, shift ~1) was ~1e-13,
   * with 0.1 (UMFPACK's default for unsymmetric matrices) ~3e-15, near
   * LAPACK's. */
  s->common.tol = 0.1;
  s->symbolic = klu_analyze ((int) n, s->Ap, s->Ai, &s->common);
  if (s->symbolic == NULL)
    goto bad;
  return s;

bad:
  g_free (col);
  sparse_lu_free (s);
  return NULL;
}

HydLinSolver *
hyd_linsolver_new (const HydJac *J)
{
  HydLinSolver *ls = g_new0 (HydLinSolver, 1);
  ls->n = J->n;
  ls->sparse = J->sparse;
  if (J->sparse)
    {
      /* Analysed at the first factorisation, with the pattern it gets. */
      return ls;
    }
  ls->a = g_new0 (double, (gsize) J->n * J->n + 1);
  ls->ipiv = g_new0 (lapack_int, J->n + 1);
  return ls;
}

void
hyd_linsolver_free (HydLinSolver *ls)
{
  if (ls == NULL)
    return;
  g_free (ls->a);
  g_free (ls->ipiv);
  g_free (ls->z);
  g_free (ls->zpiv);
  g_free (ls->zb);
  g_free (ls->sa);
  g_free (ls->spiv);
  g_free (ls->sscale);
  sparse_lu_free (ls->klu);
  g_free (ls);
}

/* The analysis for J's pattern: kept while the pattern is the same, redone
 * for another one. */
static SparseLU *
sparse_for (HydLinSolver *ls, const HydJac *J)
{
  SparseLU *s = ls->klu;

  if (s != NULL && s->colptr == J->colptr && s->rowind == J->rowind && s->nnz == J->nnz)
    return s;
  sparse_lu_free (s);
  ls->klu = sparse_lu_new (J);
  return ls->klu;
}

/* The return value of a failed KLU factorisation: singular_col + 1 when KLU
 * found a zero pivot in a known column, else n + 1. */
static int
sparse_failure (const SparseLU *s, guint n)
{
  const klu_common *c = &s->common;

  if (c->status == KLU_SINGULAR && c->singular_col >= 0 && (guint) c->singular_col < n)
    return c->singular_col + 1;
  return (int) n + 1;
}

/* Factor with the values in Ax (complex: Az) into *num: refactor with the
 * kept pivot order when there is one, else (or when that fails or leaves a
 * poor pivot) factor with pivoting. */
static int
sparse_factor (SparseLU *s, guint n, gboolean complex_values)
{
  klu_numeric **num = complex_values ? &s->znumeric : &s->numeric;
  double *x = complex_values ? s->Az : s->Ax;
  double *growth = complex_values ? &s->zrgrowth : &s->rgrowth;

  if (*num != NULL)
    {
      int ok = complex_values
               ? klu_z_refactor (s->Ap, s->Ai, x, s->symbolic, *num, &s->common)
               : klu_refactor (s->Ap, s->Ai, x, s->symbolic, *num, &s->common);
      if (ok && s->common.status == KLU_OK)
        ok = complex_values ? klu_z_rgrowth (s->Ap, s->Ai, x, s->symbolic, *num, &s->common)
                            : klu_rgrowth (s->Ap, s->Ai, x, s->symbolic, *num, &s->common);
      else
        ok = FALSE;
      if (ok && s->common.rgrowth > 0.0 && s->common.rgrowth * KLU_REFACTOR_GROWTH >= *growth)
        return 0;
      sparse_free_numeric (s, num, complex_values);
    }
  *num = complex_values ? klu_z_factor (s->Ap, s->Ai, x, s->symbolic, &s->common)
                        : klu_factor (s->Ap, s->Ai, x, s->symbolic, &s->common);
  if (*num == NULL || s->common.status != KLU_OK)
    {
      int rc = sparse_failure (s, n);
      sparse_free_numeric (s, num, complex_values);
      return rc;
    }
  int ok = complex_values ? klu_z_rgrowth (s->Ap, s->Ai, x, s->symbolic, *num, &s->common)
                          : klu_rgrowth (s->Ap, s->Ai, x, s->symbolic, *num, &s->common);
  *growth = ok ? s->common.rgrowth : 0.0;
  return 0;
}

static int
sparse_factor_real (HydLinSolver *ls, double shift, const HydJac *J)
{
  SparseLU *s = sparse_for (ls, J);
  if (s == NULL)
    return (int) ls->n + 1;
  memset (s->Ax, 0, sizeof (double) * s->nnz_a);
  for (guint k = 0; k < J->nnz; k++)
    s->Ax[s->map[k]] -= J->values[k];
  for (guint j = 0; j < ls->n; j++)
    s->Ax[s->diag[j]] += shift;
  return sparse_factor (s, ls->n, FALSE);
}

static int
sparse_factor_complex (HydLinSolver *ls, double sr, double si, const HydJac *J)
{
  SparseLU *s = sparse_for (ls, J);
  if (s == NULL)
    return (int) ls->n + 1;
  if (s->Az == NULL)
    s->Az = g_new0 (double, 2 * (gsize) s->nnz_a + 1);
  memset (s->Az, 0, sizeof (double) * 2 * s->nnz_a);
  for (guint k = 0; k < J->nnz; k++)
    s->Az[2 * (gsize) s->map[k]] -= J->values[k];
  for (guint j = 0; j < ls->n; j++)
    {
      s->Az[2 * (gsize) s->diag[j]] += sr;
      s->Az[2 * (gsize) s->diag[j] + 1] += si;
    }
  return sparse_factor (s, ls->n, TRUE);
}

/* ---- small systems: a dense LU of our own ----
 *
 * Gaussian elimination with partial pivoting (Golub & Van Loan 2013,
 * Matrix Computations, 4th ed., alg. 3.4.1), for a circuit's sparse
 * Jacobian on the row-equilibrated matrix (§3.5.2): each row is divided by
 * its largest magnitude first, as KLU does by default, because a circuit's
 * rows differ by twelve orders of magnitude (pressures' rows carry B/V, a
 * mass's 1/m) and unscaled partial pivoting would compare them; a dense
 * Jacobian (a problem without a pattern) unscaled, as LAPACK's dgetrf. For the 2–16 states of
 * most circuits this costs less than the call overhead of LAPACK's dgetrf
 * or KLU's refactorisation, its rgrowth check and its BTF bookkeeping. */
static int
small_dense_lu (double *a, int *piv, double *scale, guint n, gboolean equilibrate)
{
  for (guint i = 0; i < n; i++)
    {
      double m = 0.0;
      for (guint j = 0; j < n; j++)
        {
          double v = fabs (a[i + (gsize) j * n]);
          if (!(v <= DBL_MAX)) /* NaN or infinite */
            return (int) n + 1;
          m = v > m ? v : m;
        }
      /* a zero row: left as it is, the elimination finds the column
       * without a pivot and names it */
      scale[i] = equilibrate && m > 0.0 ? 1.0 / m : 1.0;
      if (scale[i] == 1.0)
        continue;
      for (guint j = 0; j < n; j++)
        a[i + (gsize) j * n] *= scale[i];
    }
  for (guint k = 0; k < n; k++)
    {
      double *ck = a + (gsize) k * n;
      guint p = k;
      double big = fabs (ck[k]);
      for (guint i = k + 1; i < n; i++)
        if (fabs (ck[i]) > big)
          {
            big = fabs (ck[i]);
            p = i;
          }
      piv[k] = (int) p;
      if (big == 0.0)
        return (int) k + 1;
      if (p != k)
        for (guint j = 0; j < n; j++)
          {
            double tmp = a[k + (gsize) j * n];
            a[k + (gsize) j * n] = a[p + (gsize) j * n];
            a[p + (gsize) j * n] = tmp;
          }
      double inv = 1.0 / ck[k];
      for (guint i = k + 1; i < n; i++)
        ck[i] *= inv;
      for (guint j = k + 1; j < n; j++)
        {
          double *cj = a + (gsize) j * n;
          double akj = cj[k];
          if (akj != 0.0)
            for (guint i = k + 1; i < n; i++)
              cj[i] -= ck[i] * akj;
        }
    }
  return 0;
}

/* After small_dense_lu: the row swaps as one permutation with its scale
 * factors, perm[i] the original row at position i and sperm[i] its scale,
 * so that a solve is one gather and two substitutions. */
static void
small_dense_prepare (const int *piv, const double *scale, guint n, int *perm, double *sperm)
{
  for (guint i = 0; i < n; i++)
    perm[i] = (int) i;
  for (guint k = 0; k < n; k++)
    if ((guint) piv[k] != k)
      {
        int tmp = perm[k];
        perm[k] = perm[piv[k]];
        perm[piv[k]] = tmp;
      }
  for (guint i = 0; i < n; i++)
    sperm[i] = scale[perm[i]];
}

static void
small_dense_solve (const double *a, const int *perm, const double *sperm, guint n, double *b,
                   double *x)
{
  for (guint i = 0; i < n; i++)
    x[i] = b[perm[i]] * sperm[i];
  /* L y = P·R·b (unit lower), then U x = y, column by column */
  for (guint k = 0; k < n; k++)
    {
      const double *ck = a + (gsize) k * n;
      double xk = x[k];
      if (xk != 0.0)
        for (guint i = k + 1; i < n; i++)
          x[i] -= ck[i] * xk;
    }
  for (guint k = n; k-- > 0;)
    {
      const double *ck = a + (gsize) k * n;
      /* a division, as LAPACK's dtrsv: the reciprocal's extra rounding
       * changed sdirk4's Newton iterations on A2 by 5e-10 (test-irk) */
      double xk = x[k] / ck[k];
      x[k] = xk;
      if (xk != 0.0)
        for (guint i = 0; i < k; i++)
          x[i] -= ck[i] * xk;
    }
  memcpy (b, x, sizeof (double) * n);
}

static int
small_factor (HydLinSolver *ls, double shift, const HydJac *J)
{
  guint n = ls->n;
  gsize nn = (gsize) n * n;
  if (ls->sa == NULL)
    {
      ls->sa = g_new (double, nn + 1);
      /* pivots, then the permutation */
      ls->spiv = g_new (int, 2 * (gsize) n + 1);
      /* scale factors, their permuted copy and the solve's scratch */
      ls->sscale = g_new (double, 3 * (gsize) n + 1);
    }
  if (J->sparse)
    {
      memset (ls->sa, 0, sizeof (double) * nn);
      for (guint j = 0; j < n; j++)
        for (guint k = J->colptr[j]; k < J->colptr[j + 1]; k++)
          ls->sa[J->rowind[k] + (gsize) j * n] = -J->values[k];
    }
  else
    for (gsize k = 0; k < nn; k++)
      ls->sa[k] = -J->dense[k];
  for (guint i = 0; i < n; i++)
    ls->sa[i + (gsize) i * n] += shift;
  /* rows equilibrated where KLU did it (a circuit's pattern), not where
   * LAPACK's unscaled dgetrf was the dense path (problems without a
   * pattern: on E5, whose rows span twenty decades by design, equilibrated
   * pivots cost RODAS4 a digit of mescd, 4.00 against 5.10) */
  int info = small_dense_lu (ls->sa, ls->spiv, ls->sscale, n, J->sparse);
  if (info == 0)
    small_dense_prepare (ls->spiv, ls->sscale, n, ls->spiv + n, ls->sscale + n);
  ls->small = info == 0;
  return info;
}

int
hyd_linsolver_factor (HydLinSolver *ls, double shift, const HydJac *J)
{
  guint n = ls->n;
  g_return_val_if_fail (J->n == n && J->sparse == ls->sparse, (int) n + 1);
  if (n == 0)
    return 0;
  if (n <= J->small_dense_max)
    return small_factor (ls, shift, J);
  ls->small = FALSE;
  if (ls->sparse)
    return sparse_factor_real (ls, shift, J);
  for (gsize k = 0; k < (gsize) n * n; k++)
    ls->a[k] = -J->dense[k];
  for (guint i = 0; i < n; i++)
    ls->a[i + (gsize) i * n] += shift;
  lapack_int info = LAPACKE_dgetrf (LAPACK_COL_MAJOR, (lapack_int) n, (lapack_int) n, ls->a,
                                    (lapack_int) n, ls->ipiv);
  return info > 0 ? (int) info : (info < 0 ? (int) n + 1 : 0);
}

void
hyd_linsolver_solve (HydLinSolver *ls, double *b)
{
  if (ls->n == 0)
    return;
  if (ls->small)
    {
      guint n = ls->n;
      small_dense_solve (ls->sa, ls->spiv + n, ls->sscale + n, n, b, ls->sscale + 2 * (gsize) n);
      return;
    }
  if (ls->sparse)
    {
      SparseLU *s = ls->klu;
      g_return_if_fail (s != NULL && s->numeric != NULL);
      klu_solve (s->symbolic, s->numeric, (int) ls->n, 1, b, &s->common);
      return;
    }
  LAPACKE_dgetrs (LAPACK_COL_MAJOR, 'N', (lapack_int) ls->n, 1, ls->a, (lapack_int) ls->n,
                  ls->ipiv, b, (lapack_int) ls->n);
}

int
hyd_linsolver_factor_complex (HydLinSolver *ls, double sr, double si, const HydJac *J)
{
  guint n = ls->n;
  g_return_val_if_fail (J->n == n && J->sparse == ls->sparse, (int) n + 1);
  if (n == 0)
    return 0;
  if (ls->zb == NULL)
    ls->zb = g_new0 (lapack_complex_double, n);
  if (ls->sparse)
    return sparse_factor_complex (ls, sr, si, J);
  if (ls->z == NULL)
    {
      ls->z = g_new0 (lapack_complex_double, (gsize) n * n);
      ls->zpiv = g_new0 (lapack_int, n);
    }
  for (gsize k = 0; k < (gsize) n * n; k++)
    ls->z[k] = lapack_make_complex_double (-J->dense[k], 0.0);
  for (guint i = 0; i < n; i++)
    ls->z[i + (gsize) i * n] = lapack_make_complex_double (sr - J->dense[i + (gsize) i * n], si);
  lapack_int info = LAPACKE_zgetrf (LAPACK_COL_MAJOR, (lapack_int) n, (lapack_int) n, ls->z,
                                    (lapack_int) n, ls->zpiv);
  return info > 0 ? (int) info : (info < 0 ? (int) n + 1 : 0);
}

void
hyd_linsolver_solve_complex (HydLinSolver *ls, double *br, double *bi)
{
  guint n = ls->n;
  if (n == 0)
    return;
  lapack_complex_double *b = ls->zb;
  for (guint i = 0; i < n; i++)
    b[i] = lapack_make_complex_double (br[i], bi[i]);
  if (ls->sparse)
    {
      SparseLU *s = ls->klu;
      g_return_if_fail (s != NULL && s->znumeric != NULL);
      /* lapack_complex_double is C99 double complex: (re, im) pairs, the
       * layout klu_z_solve takes. */
      klu_z_solve (s->symbolic, s->znumeric, (int) n, 1, (double *) b, &s->common);
    }
  else
    LAPACKE_zgetrs (LAPACK_COL_MAJOR, 'N', (lapack_int) n, 1, ls->z, (lapack_int) n, ls->zpiv, b,
                    (lapack_int) n);
  for (guint i = 0; i < n; i++)
    {
      br[i] = creal (b[i]);
      bi[i] = cimag (b[i]);
    }
}
