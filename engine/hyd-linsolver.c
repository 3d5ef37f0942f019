/* hyd-linsolver.c — Jacobian storage and shifted LU factorisations. */
#include "hyd-linsolver.h"

#include <complex.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

HydJac *
hyd_jac_new_dense (guint n)
{
  HydJac *J = g_new0 (HydJac, 1);
  J->n = n;
  J->dense = g_new0 (double, (gsize) n * n + 1);
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

struct _HydLinSolver {
  guint n;
  gboolean sparse;
  /* dense */
  double *a;
  lapack_int *ipiv;
  lapack_complex_double *z;
  lapack_int *zpiv;
  lapack_complex_double *zb; /* right-hand side scratch */
};

HydLinSolver *
hyd_linsolver_new (const HydJac *J)
{
  g_return_val_if_fail (!J->sparse, NULL); /* sparse storage: see the KLU path */
  HydLinSolver *ls = g_new0 (HydLinSolver, 1);
  ls->n = J->n;
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
  g_free (ls);
}

int
hyd_linsolver_factor (HydLinSolver *ls, double shift, const HydJac *J)
{
  guint n = ls->n;
  if (n == 0)
    return 0;
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
  LAPACKE_dgetrs (LAPACK_COL_MAJOR, 'N', (lapack_int) ls->n, 1, ls->a, (lapack_int) ls->n,
                  ls->ipiv, b, (lapack_int) ls->n);
}

int
hyd_linsolver_factor_complex (HydLinSolver *ls, double sr, double si, const HydJac *J)
{
  guint n = ls->n;
  if (n == 0)
    return 0;
  if (ls->z == NULL)
    {
      ls->z = g_new0 (lapack_complex_double, (gsize) n * n);
      ls->zpiv = g_new0 (lapack_int, n);
      ls->zb = g_new0 (lapack_complex_double, n);
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
  LAPACKE_zgetrs (LAPACK_COL_MAJOR, 'N', (lapack_int) n, 1, ls->z, (lapack_int) n, ls->zpiv, b,
                  (lapack_int) n);
  for (guint i = 0; i < n; i++)
    {
      br[i] = creal (b[i]);
      bi[i] = cimag (b[i]);
    }
}
