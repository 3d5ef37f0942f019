/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ode-harness.h — the solver-conformance harness every method family's test
 * runs (test-rodas4, test-rosenbrock, test-radau5, test-irk, test-bdf,
 * test-explicit): the shared problems (the smooth problem's fixed-step and
 * dense-output errors, the stiff test set, a source with jumps declared as
 * breakpoints) and the conformance cases each solver passes whatever its
 * family: breakpoints, events, cancel, blow-up, and the stepper (advance in
 * pieces, reinit at communication points). */
#pragma once

#include "hyd-ode-private.h"
#include "hyd-testset.h"

G_BEGIN_DECLS

/* rtol, and atol_value for each of the n states (atol[n] the caller's). */
void ode_harness_tolerances (HydOdeOptions *o, double *atol, guint n, double rtol,
                             double atol_value);

/* max_i |y_i − y_ref_i| of the smooth problem (hyd_testset_smooth) at t_end. */
double ode_harness_smooth_error (const double *y);

/* An output callback: the largest error of the samples against an exact
 * solution of two states (exact; NULL: the smooth problem's), and their
 * number. */
typedef struct {
  double max_err;
  guint n;
  void (*exact) (double t, double *y);
} OdeDenseCheck;

gboolean ode_harness_dense_output (double t, const double *y, gpointer user);

/* The smooth problem (or `problem`, a variant of it: NULL for its own)
 * solved by `id` with the fixed step (t_end − t0)/n_steps and rtol = atol =
 * tol. Asserts success, n_steps steps, none rejected, t_end reached. Returns
 * the error at t_end or, with dense TRUE, the largest error of samples
 * 0.0937·h apart (more than 10 a step) from the continuous extension. r
 * (may be NULL) receives the result (clear it). */
double ode_harness_smooth_fixed (const char *id, const HydOdeProblem *problem,
                                 guint n_steps, double tol, gboolean dense,
                                 HydOdeResult *r);

/* The smooth problem solved adaptively by `id` from t0 to t_end at rtol =
 * atol = tol, samples every output_interval into c when c is not NULL.
 * Returns the status; *err receives the error at t_end, r the result
 * (clear it). */
HydOdeStatus ode_harness_smooth_adaptive (const char *id, double tol, double output_interval,
                                          OdeDenseCheck *c, double *err, HydOdeResult *r);

/* Test-set problem `problem` (hyd_testset_lookup) solved by `id` from t0 to
 * t_end at rtol, atol_value for every state. Logs the statistics; asserts
 * success without a message and t_end reached. Returns the mescd; r (may be
 * NULL) receives the result (clear it). */
double ode_harness_testset (const char *id, const char *problem, double rtol,
                            double atol_value, HydOdeResult *r);

/* ---- a source with jumps ---------------------------------------------- *
 * y' = −y + u, y(0) = 0, u = 1 on [0, 1), −2 on [1, 1.5), 0.5 after: by
 * default u comes from set_interval only (as a circuit's profiles), so the
 * jumps must be declared as the breakpoints 1 and 1.5; with `undeclared`
 * the right-hand side reads u(t) itself. */
extern const double ode_jump_bp[2];

typedef struct {
  gboolean undeclared;     /* u from t in f, not from set_interval */
  gboolean check_piece;    /* assert that each sample holds u after a jump */
  double u;
  double lo, hi;
  guint n_intervals;       /* set_interval calls, the first 8 recorded */
  double intervals[8][2];
  double outside;          /* largest evaluation distance outside [lo, hi] */
  guint n_samples;         /* samples, the first 512 recorded */
  double times[512];
  double values[512];
  double pieces[512];
  double max_err;          /* against the exact solution, over the samples */
  guint cancel_after;      /* set *cancel after this many samples, or 0 */
  gint *cancel;
  guint stop_after;        /* output returns FALSE after this many, or 0 */
} OdeJump;

double ode_jump_piece (double t);
double ode_jump_exact (double t);
/* Clears jp and fills p (n = 1, analytic Jacobian, set_interval). */
void ode_jump_problem (OdeJump *jp, HydOdeProblem *p);
/* The output callback (output_user = jp). */
gboolean ode_jump_output (double t, const double *y, gpointer user);

/* Dahlquist's test equation y' = λ·y, λ = *lambda (the caller's, read at
 * every evaluation), with its Jacobian. */
HydOdeProblem ode_linear_problem (const double *lambda);

/* The HASP thesis's 2×2 linear stiff example (§2.56): y1' = −2000·y1 +
 * 999.75·y2 + 1000.25, y2' = y1 − y2, λ = −2000.5 and −0.5; its exact
 * solution from y(0) = (0, −2). */
extern const HydOdeProblem ode_hasp2_problem;
void ode_hasp2_exact (double t, double *y);

/* y' = −1000·(y − cos t) with the inexact Jacobian −100: the simplified
 * Newton iteration contracts slowly (long Newton loops). Evaluation number
 * cancel_at raises cancel, as another thread would during a Newton
 * iteration. */
typedef struct {
  gint cancel;
  guint calls;
  guint cancel_at;
} OdeNewtonCancel;

HydOdeProblem ode_newton_cancel_problem (OdeNewtonCancel *cp);

/* That problem from y(0) = 1 on [0, 0.5] by `id` (h0 = 1e-3, rtol = atol =
 * 1e-6), the flag raised at evaluation cancel_at: asserts the status
 * HYD_ODE_CANCELLED and returns the number of evaluations; *y and r (clear
 * it) receive the end state and the result. */
guint ode_harness_cancel_in_newton (const char *id, guint cancel_at, double *y,
                                    HydOdeResult *r);

/* y' = 1 − y, y(0) = 0, with the event y = 1/2 (t = ln 2); the event
 * function stores its time in *t_seen (may be NULL) when |g| < 1e-7. */
HydOdeProblem ode_relax_problem (double *t_seen);

/* y' = y², y(0) = 1: blows up at t = 1. */
extern const HydOdeProblem ode_square_problem;

/* Registers "/conformance/ID/…" for solver `id`: breakpoints, events,
 * cancel, blow-up, stepper-pieces, stepper-reinit. A fixed-step-only solver
 * runs them with a constant step. */
void ode_harness_add_conformance (const char *id);

G_END_DECLS
