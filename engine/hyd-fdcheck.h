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
/* An entry whose effect over the step, |J|·h, is below the rounding level of
 * its row cannot be seen by a difference quotient: row_noise is
 * 64·ε·(|f_i| + Σ_k |J_ik·y_k|), the size of the terms f_i is summed from.
 * Such an entry is `unresolved` (reported with the seams, never failed). */
gboolean hyd_fd_unresolved (double J, double h, double row_noise);
double hyd_fd_row_noise (double f_i, const double *J_row, gsize stride, const double *y, guint n);

/* e = |J − D| / max(|D|, floor, 1e-12) */
double hyd_fd_error (double J, double D, double floor);

G_END_DECLS
