/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-fdcheck.h — judging an analytic derivative against finite differences
 * (the rule of spec/cli.md jacobian-check, shared by the CLI and the tests). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  HYD_FD_OK,
  HYD_FD_SEAM,   /* quotient not converged (C¹ seam within h, or round-off) */
  HYD_FD_FAIL,   /* the quotients agree with each other, not with J */
} HydFdVerdict;

#define HYD_FD_TOL 1e-5

/* J: analytic entry; d1 = quotient with step h, d2 = with step h/10;
 * floor = 1e-8·max_k |J_ik|·s_k/s_j (row scale). Writes the smaller of the two errors. */
HydFdVerdict hyd_fd_judge (double J, double d1, double d2, double floor, double *err);
/* The rounding level of row i, row_noise = 64·ε·(|f_i| + Σ_k |J_ik·y_k|): the
 * size of the terms f_i is summed from, times a margin. A central quotient with
 * step h carries a rounding error of up to row_noise/h. An entry is
 * `unresolved` (reported with the seams, never failed) when that error can
 * account for what the quotient shows: its whole effect over the step is below
 * the rounding level (|J|·h < row_noise), or its disagreement with the quotient
 * D′ of step h is (|J − D′|·h ≤ row_noise). */
gboolean hyd_fd_unresolved (double J, double D1, double h, double row_noise);
double hyd_fd_row_noise (double f_i, const double *J_row, gsize stride, const double *y, guint n);

/* e = |J − D| / max(|D|, floor, 1e-12) */
double hyd_fd_error (double J, double D, double floor);

/* One checked entry of an assembled Jacobian (col == n: ∂f/∂t). */
typedef struct {
  double err;          /* min(e′, e″); at least HYD_FD_TOL for a seam or failure */
  guint row, col;
  double J, D;         /* analytic entry, quotient with step h */
  double t;
  HydFdVerdict verdict;
  gboolean unresolved;
} HydFdEntry;

/* Order for a listing: failing entries first, then by decreasing error. */
int hyd_fd_entry_compare (gconstpointer a, gconstpointer b);

G_END_DECLS
