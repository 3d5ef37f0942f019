/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-testset.h — standard stiff test problems (Bari "Test Set for IVP
 * Solvers", Mazzia et al., University of Bari) with analytic
 * Jacobians and reference solutions, and a smooth non-autonomous problem
 * with a known exact solution for order tests. */
#pragma once

#include "hyd-ode.h"

G_BEGIN_DECLS

/* The tolerances a problem is run with: atol = atol_ratio·rtol, or the
 * fixed atol_abs when atol_ratio is 0 (E5, whose components are ~1e-22:
 * no multiple of rtol suits them). `source` says where they come from. */
typedef struct {
  double atol_ratio;
  double atol_abs;
  const char *source;
} HydTestTolerances;

typedef struct {
  const char *id;            /* "hires" */
  const char *name;          /* "HIRES" */
  const char *description;
  guint n;
  double t0, t_end;
  const double *y0;          /* [n] */
  const double *y_ref;       /* [n], the reference solution at t_end */
  /* Exact solution at any t, where one is known; else NULL. */
  void (*exact) (double t, double *y);
  HydOdeProblem problem;     /* stateless: may be used from several threads */
  HydTestTolerances tol;     /* what the test set prescribes */
} HydTestProblem;

/* The atol of problem p at relative tolerance rtol (the prescribed rule). */
double hyd_testset_atol (const HydTestProblem *p, double rtol);

/* The stiff set run by `bramah-cli verify`: HIRES, Van der Pol (μ = 1000),
 * ROBER, OREGO, E5, POLLU, in that order. */
const HydTestProblem *hyd_testset_list (guint *n);
const HydTestProblem *hyd_testset_lookup (const char *id);

/* y1' = −sin t − 5·e1 + e2·y1, y2' = cos t − e2·(1 + y1²) + e1², with
 * e = y − (cos t, sin t): exact solution (cos t, sin t), t ∈ [0, 2]. Smooth,
 * nonlinear and non-autonomous, so a method that drops ∂f/∂t loses order. */
const HydTestProblem *hyd_testset_smooth (void);

/* Mixed-error significant correct digits of the test set:
 * −log10 max_i |y_i − ref_i| / (atol/rtol + |ref_i|); +∞ if exact. */
double hyd_testset_mescd (guint n, const double *y, const double *y_ref,
                          double atol, double rtol);

G_END_DECLS
