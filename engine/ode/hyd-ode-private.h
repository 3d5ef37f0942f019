/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-ode-private.h — what the driver (hyd-ode.c) and the method families
 * (hyd-rosenbrock.c, ...) share. Not installed, not for callers.
 *
 * A method is a const vtable: the driver owns intervals, step-size control,
 * output, cancellation and failures; the method owns one step attempt and its
 * continuous extension. A family with many members (Rosenbrock) keeps its
 * coefficients in method->data, so a new member is a new table. */
#pragma once

#include "hyd-ode.h"
#include "hyd-linsolver.h"

G_BEGIN_DECLS

typedef struct _HydOdeDriver HydOdeDriver;
typedef struct _HydOdeMethod HydOdeMethod;

typedef enum {
  HYD_ATTEMPT_OK,          /* y_new and the error norm are valid */
  HYD_ATTEMPT_SINGULAR,    /* the iteration matrix is singular: retry smaller */
  HYD_ATTEMPT_RECOVERABLE, /* a callback returned > 0 or a value was not finite */
  HYD_ATTEMPT_FATAL,       /* a callback returned < 0 */
  HYD_ATTEMPT_DIVERGED,    /* a Newton iteration did not converge: retry with h/2 */
} HydAttempt;

struct _HydOdeMethod {
  HydSolverInfo info;
  gconstpointer data;   /* family-specific: e.g. a HydRosenbrockTable */
  int order;            /* order of the propagated solution (initial step) */
  double error_order;   /* q: the controller uses err^(1/q) */

  gpointer (*workspace_new) (const HydOdeMethod *method, guint n);
  void (*workspace_free) (gpointer ws);
  /* Once per accepted point (t, y) with f0 = f(t, y): what stays valid over
   * rejected attempts from it (Jacobian, ∂f/∂t). 0, > 0 recoverable, < 0. */
  int (*prepare) (gpointer ws, HydOdeDriver *d, double t, const double *y,
                  const double *f0);
  /* One attempt of size h from the prepared point. On HYD_ATTEMPT_OK writes
   * y_new and the weighted error norm (hyd_ode_driver_error_norm). */
  HydAttempt (*attempt) (gpointer ws, HydOdeDriver *d, double t,
                         const double *y, const double *f0, double h,
                         double *y_new, double *err);
  /* After an accepted attempt: the solution at t + θ·h, 0 ≤ θ ≤ 1. */
  int (*dense) (gpointer ws, HydOdeDriver *d, double theta, double *y_out);

  /* Optional hooks (NULL: the default behaviour). */
  /* At the start of every integration interval (t0 and each breakpoint): a
   * discontinuity, so history-based methods restart here. */
  void (*reset) (gpointer ws, HydOdeDriver *d, double t, const double *y, const double *f0);
  /* Own step-size control: the factor h_next/h after an attempt of size h
   * with error norm err (accepted when err ≤ 1); after_reject is TRUE when
   * the previous attempt was rejected. NULL: HW rodas.f with Gustafsson. */
  double (*propose) (gpointer ws, HydOdeDriver *d, double h, double err,
                     gboolean accepted, gboolean after_reject);
  /* After an accepted step to (t_new, y_new); f_new = f(t_new, y_new), or
   * NULL when the step ended the interval (reset follows). */
  void (*accept) (gpointer ws, HydOdeDriver *d, double t_new, const double *y_new,
                  const double *f_new);
  /* After an HYD_ATTEMPT_OK attempt: f(t + h, y_new) when the method has
   * already evaluated it (first same as last, e.g. dopri5), else NULL; the
   * driver then takes it as f_new instead of evaluating f again. */
  const double *(*fsal) (gpointer ws);
  /* After HYD_ATTEMPT_DIVERGED: what did not converge (names, newly
   * allocated, e.g. "C1, M1"), for the failure message; NULL: unknown. */
  char *(*diverged_at) (gpointer ws);
  /* After an HYD_ATTEMPT_OK attempt: the event functions at (t + h, y_new)
   * when the method can give them (0), bitwise those of problem.events;
   * else 1, and the driver evaluates them. */
  int (*step_events) (gpointer ws, double *g);
};

/* Driver services for the methods (hyd-ode.c). */
guint hyd_ode_driver_n (const HydOdeDriver *d);
HydOdeStats *hyd_ode_driver_stats (HydOdeDriver *d);
double hyd_ode_driver_rtol (const HydOdeDriver *d);

/* f(t, y), counted; a non-finite value makes it return 1 and remembers the
 * state for the failure message. */
int hyd_ode_driver_rhs (HydOdeDriver *d, double t, const double *y, double *f);

/* A Jacobian of the storage this run uses (dense, or the problem's sparse
 * pattern), for a method's workspace. */
HydJac *hyd_ode_driver_jac_new (HydOdeDriver *d);

/* J = ∂f/∂y and dfdt = ∂f/∂t at (t, y), f0 = f(t, y): analytic, or forward
 * differences when options.fd_jacobian. Counted. */
int hyd_ode_driver_jacobian (HydOdeDriver *d, double t, const double *y,
                             const double *f0, HydJac *J, double *dfdt);

/* sqrt(mean((e_i/sk_i)²)), sk_i = atol_i + rtol·max(|y0_i|, |y1_i|)
 * (HW rodas.f); remembers the state with the largest term. */
double hyd_ode_driver_error_norm (HydOdeDriver *d, const double *y0,
                                  const double *y1, const double *e);

/* The attempt failed on a singular matrix: pivot column (or −1). */
void hyd_ode_driver_note_singular (HydOdeDriver *d, int column);

/* The run's options, for methods with inner iterations: tolerances for a
 * Newton norm, fixed_step (no step-size change can cure a failure), and the
 * cancel flag to poll in every iteration. */
const HydOdeOptions *hyd_ode_driver_options (const HydOdeDriver *d);

/* Adds a remark to the run's result (HydOdeResult.note), e.g. "dopri5: the
 * problem seems stiff from t = …". Not a failure. */
void hyd_ode_driver_note (HydOdeDriver *d, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* Runs another method on the same problem (for `auto`): it integrates the
 * current interval's remainder exactly as if it had been chosen. */
const HydOdeMethod *hyd_ode_method_lookup (const char *id);

/* The method families, one per file, each listing its members in the order
 * of spec/solvers.md; hyd-ode.c joins the lists. */
const HydOdeMethod *const *hyd_ode_family_rosenbrock (guint *n); /* hyd-rosenbrock.c */
const HydOdeMethod *const *hyd_ode_family_radau5 (guint *n);     /* hyd-radau5.c */
const HydOdeMethod *const *hyd_ode_family_irk (guint *n);        /* hyd-irk.c: radau3, lobatto3c4/6, sdirk4 */
const HydOdeMethod *const *hyd_ode_family_bdf (guint *n);        /* hyd-bdf.c */
const HydOdeMethod *const *hyd_ode_family_theta (guint *n);      /* hyd-theta.c: trapezoid, backward_euler */
const HydOdeMethod *const *hyd_ode_family_expo (guint *n);       /* hyd-expo.c */
const HydOdeMethod *const *hyd_ode_family_explicit (guint *n);   /* hyd-explicit.c: dopri5, bs23, rk4, euler */
const HydOdeMethod *const *hyd_ode_family_auto (guint *n);       /* hyd-auto.c */
const HydOdeMethod *const *hyd_ode_family_tlm (guint *n);        /* hyd-tlm.c */
/* The tlm solver's model of the problem (problem->tlm), made when its
 * stepper is: FALSE and why (newly allocated) when the problem has none. */
gboolean hyd_tlm_attach (gpointer ws, const HydOdeProblem *problem, const HydOdeOptions *options,
                         const double *y0, char **why);

/* The coefficients of a Rosenbrock method in the Hairer–Wanner transformed
 * form (hyd-rosenbrock.c; Esqué 2008, §4.1): method->data of every
 * member of that family, read by the tests to check the order conditions. */
#define HYD_ROS_MAX_STAGES 8

typedef struct {
  guint s;
  double gamma;
  double a[HYD_ROS_MAX_STAGES][HYD_ROS_MAX_STAGES];  /* a[i][j], j < i */
  double c[HYD_ROS_MAX_STAGES][HYD_ROS_MAX_STAGES];  /* c[i][j], j < i */
  double m[HYD_ROS_MAX_STAGES];        /* solution weights */
  double e[HYD_ROS_MAX_STAGES];        /* error weights, m − m̂ */
  double alpha[HYD_ROS_MAX_STAGES];    /* stage times t + α_i·h */
  double gamma_i[HYD_ROS_MAX_STAGES];  /* ∂f/∂t weights, Σ_j γ_ij */
  /* TRUE: stage i has the arguments of stage i − 1 and reuses its f. */
  gboolean reuse_f[HYD_ROS_MAX_STAGES];
  /* Continuous extension of the RODAS type (HW rodas.f CONTRO, one more
   * term for RODAS5): y(t + θh) = (1 − θ)·y0
   *   + θ·(y1 + (1 − θ)·(k1 + θ·k2 + θ²·k3)),  k_r = Σ_j d[r − 1][j]·u_j.
   * Without it (has_dense FALSE) the cubic Hermite interpolant on
   * (y0, f0, y1, f1) is used. */
  gboolean has_dense;
  double d[3][HYD_ROS_MAX_STAGES];
} HydRosenbrockTable;

/* Integrates with a method object that need not be in the solver list,
 * otherwise exactly as hyd_ode_solve (hyd-ode.c). For tests. */
HydOdeStatus hyd_ode_solve_method (const HydOdeMethod *method,
                                   const HydOdeProblem *problem,
                                   const HydOdeOptions *options,
                                   double *y,
                                   HydOdeResult *result);

/* A stepper of a method object that need not be in the solver list (as
 * hyd_ode_solve_method). For tests. */
HydOdeStepper *hyd_ode_stepper_new_method (const HydOdeMethod *method,
                                           const HydOdeProblem *problem,
                                           const HydOdeOptions *options,
                                           const double *y0,
                                           GError **error);

/* `bdf` with its order pinned to `order` (1–5), for the order tests
 * (hyd-bdf.c): from the driver's first step size (options.h0) the order
 * rises by one every q + 1 steps up to `order`, then the step grows (by
 * 10 % a step) up to h and stays there; every step is accepted. Free with
 * g_free. */
HydOdeMethod *hyd_bdf_method_pinned_new (int order, double h);

G_END_DECLS
