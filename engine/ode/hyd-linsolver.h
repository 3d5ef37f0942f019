/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-linsolver.h — Jacobians and the linear systems of the implicit methods.
 *
 * Every implicit method needs LU factors of shift·I − J (Rosenbrock, SDIRK,
 * BDF, the real block of Radau IIA) or of (α + iβ)·I − J (the complex blocks
 * of Radau IIA and Lobatto IIIC after Butcher's transformation). A HydJac
 * holds J in dense column-major storage or, for large circuits, in the
 * problem's compressed-column sparsity pattern; a HydLinSolver factors and
 * solves either kind (LAPACK for dense, KLU with the symbolic analysis
 * reused across steps for sparse), so the methods never care which. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint n;
  gboolean sparse;
  /* dense: n×n column-major, J[i + j·n] = ∂f_i/∂y_j */
  double *dense;
  /* sparse: CSC pattern (owned by the problem) and values */
  guint nnz;
  const guint *colptr;   /* [n + 1] */
  const guint *rowind;   /* [nnz] */
  double *values;        /* [nnz] */
  /* The real LU of shift·I − J is dense and Bramah's own (small_dense_lu in
   * hyd-linsolver.c) for n ≤ small_dense_max, whatever the storage: new
   * Jacobians take HYD_SMALL_DENSE_MAX; 0 keeps KLU (sparse) or LAPACK
   * (dense) for every n. */
  guint small_dense_max;
} HydJac;

/* Up to this many states a dense LU of our own, without LAPACK's call
 * overhead or KLU's bookkeeping, is the fastest factorisation of a
 * circuit's shifted Jacobian (measured: docs/solvers.md, "Linear solvers"). */
#define HYD_SMALL_DENSE_MAX 12

HydJac *hyd_jac_new_dense (guint n);
HydJac *hyd_jac_new_sparse (guint n, guint nnz, const guint *colptr, const guint *rowind);
void hyd_jac_free (HydJac *J);
void hyd_jac_zero (HydJac *J);
/* Entry (i, j) (0 outside a sparse pattern); for tests and diagnostics. */
double hyd_jac_get (const HydJac *J, guint i, guint j);
/* The diagonal, d[i] = J_ii. */
void hyd_jac_get_diagonal (const HydJac *J, double *d);
/* out = J·x */
void hyd_jac_matvec (const HydJac *J, const double *x, double *out);
/* Copy values from src (same kind and pattern). */
void hyd_jac_copy (HydJac *dst, const HydJac *src);
/* The index of the first non-finite entry's row, or −1. */
int hyd_jac_first_nonfinite_row (const HydJac *J);

typedef struct _HydLinSolver HydLinSolver;

/* A solver for matrices of J's kind and pattern. */
HydLinSolver *hyd_linsolver_new (const HydJac *J);
void hyd_linsolver_free (HydLinSolver *ls);

/* LU of shift·I − J. Returns 0, or k > 0 when the matrix is singular
 * (k − 1: a column without a pivot, or 0-based column unknown: k = n + 1). */
int hyd_linsolver_factor (HydLinSolver *ls, double shift, const HydJac *J);
/* Solve (shift·I − J)·x = b with the last real factorisation; b ← x. */
void hyd_linsolver_solve (HydLinSolver *ls, double *b);

/* LU of (sr + i·si)·I − J, kept beside the real one. Same return value. */
int hyd_linsolver_factor_complex (HydLinSolver *ls, double sr, double si, const HydJac *J);
/* Solve with the complex factorisation: (br + i·bi) ← x. */
void hyd_linsolver_solve_complex (HydLinSolver *ls, double *br, double *bi);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydJac, hyd_jac_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydLinSolver, hyd_linsolver_free)

G_END_DECLS
