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
};

/* Driver services for the methods (hyd-ode.c). */
guint hyd_ode_driver_n (const HydOdeDriver *d);
HydOdeStats *hyd_ode_driver_stats (HydOdeDriver *d);

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

G_END_DECLS
