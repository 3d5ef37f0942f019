/* hyd-linalg.c — dense LU through LAPACKE (column-major, no copies). */
#include "hyd-linalg.h"

#include <lapacke.h>
#include <string.h>

/* The pivots are handed to LAPACK as they are. */
G_STATIC_ASSERT (sizeof (lapack_int) == sizeof (int));

HydDenseLU *
hyd_dense_lu_new (guint n)
{
  g_return_val_if_fail (n > 0, NULL);

  HydDenseLU *lu = g_new0 (HydDenseLU, 1);
  lu->n = n;
  lu->a = g_new0 (double, (gsize) n * n);
  lu->ipiv = g_new0 (int, n);
  return lu;
}

void
hyd_dense_lu_free (HydDenseLU *lu)
{
  if (lu == NULL)
    return;
  g_free (lu->a);
  g_free (lu->ipiv);
  g_free (lu);
}

int
hyd_dense_lu_factor (HydDenseLU *lu)
{
  g_return_val_if_fail (lu != NULL, -1);

  lapack_int n = (lapack_int) lu->n;
  lapack_int info = LAPACKE_dgetrf (LAPACK_COL_MAJOR, n, n, lu->a, n,
                                    (lapack_int *) lu->ipiv);
  /* info < 0 would be an argument error: a programming error here. */
  g_return_val_if_fail (info >= 0, -1);
  return (int) info;
}

int
hyd_dense_lu_factor_shifted (HydDenseLU *lu, const double *J, double shift)
{
  g_return_val_if_fail (lu != NULL && J != NULL, -1);

  gsize nn = (gsize) lu->n * lu->n;
  for (gsize k = 0; k < nn; k++)
    lu->a[k] = -J[k];
  for (guint i = 0; i < lu->n; i++)
    lu->a[i + (gsize) i * lu->n] += shift;
  return hyd_dense_lu_factor (lu);
}

void
hyd_dense_lu_solve (const HydDenseLU *lu, double *b)
{
  g_return_if_fail (lu != NULL && b != NULL);

  lapack_int n = (lapack_int) lu->n;
  lapack_int info = LAPACKE_dgetrs (LAPACK_COL_MAJOR, 'N', n, 1, lu->a, n,
                                    (const lapack_int *) lu->ipiv, b, n);
  g_warn_if_fail (info == 0);
}
