/* hyd-linalg.h — dense LU factorisation for the implicit solvers (LAPACK
 * dgetrf/dgetrs, column-major storage as in the Jacobian callbacks). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint n;
  double *a;     /* n×n, column-major: the matrix, then its LU factors */
  int *ipiv;     /* row pivots of the last factorisation (1-based, LAPACK) */
} HydDenseLU;

HydDenseLU *hyd_dense_lu_new (guint n);
void hyd_dense_lu_free (HydDenseLU *lu);

/* Factor lu->a in place. Returns 0 on success, or k > 0 when U(k,k) is
 * exactly zero (column k − 1, 0-based, has no pivot: the matrix is singular). */
int hyd_dense_lu_factor (HydDenseLU *lu);

/* Form E = shift·I − J (the Rosenbrock / Newton iteration matrix, shift =
 * 1/(hγ)) in lu->a and factor it. Same return value as hyd_dense_lu_factor. */
int hyd_dense_lu_factor_shifted (HydDenseLU *lu, const double *J, double shift);

/* Solve A·x = b with the last factorisation; b is overwritten by x. */
void hyd_dense_lu_solve (const HydDenseLU *lu, double *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydDenseLU, hyd_dense_lu_free)

G_END_DECLS
