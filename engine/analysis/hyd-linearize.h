/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-linearize.h — a circuit around an operating point (docs/analysis.md):
 * the state a run reaches at time T and the step its solver took there,
 * which components make each state, and the linear model
 *   ẋ = A·x + B·u,  y = C·x + D·u
 * of one input (a number parameter of a component) and one output (any
 * variable): A the analytic Jacobian; B, C and D by central differences.
 * Frequency response, poles and zeros, step response of that model. */
#pragma once

#include <glib.h>
#include "hyd-eigen.h"
#include "hyd-run.h"
#include "hyd-system.h"

G_BEGIN_DECLS

typedef struct {
  double t;            /* s: the time reached */
  guint n;
  double *y;           /* [n] the state at t */
  double h_last;       /* s: the last accepted step that ended before t and
                          was not cut short by t itself; NAN at t = 0 */
  guint64 steps;       /* accepted steps of the run */
  char *solver;        /* the solver that ran */
} HydOperatingPoint;

/* Run sys from its initial state to `at` (s, ≥ 0) with `solver` (NULL: the
 * default, rodas4) and the tolerances and maximum step of sim (its t_end,
 * output interval and solver are not used, nor its fixed step unless the
 * solver has no error control). sys is left with the discrete
 * states in force at `at`. NULL with an error (HYD_ANALYSIS_ERROR_RUN)
 * naming the time and the state when the run fails. */
HydOperatingPoint *hyd_operating_point_run (HydSystem *sys, const HydSimOptions *sim, double at,
                                            const char *solver, GError **error);
void hyd_operating_point_free (HydOperatingPoint *op);

/* The components that make state i: its own component for a component's
 * state; for a node pressure, every component with a port on the node, in
 * port order, each once. A new array of newly allocated ids. */
GPtrArray *hyd_system_state_components (const HydSystem *sys, guint i);
/* The node a state is the pressure of, or NULL. */
const HydNodeInfo *hyd_system_state_node (const HydSystem *sys, guint i);

typedef struct {
  guint n;
  double *A;           /* [n × n] column-major, the analytic Jacobian */
  double *B;           /* [n] ∂f/∂u */
  double *C;           /* [n] ∂y/∂x */
  double D;            /* ∂y/∂u */
  double u0;           /* the input's value at the operating point */
  double y0;           /* the output's value there */
  double du;           /* the parameter step of the central differences */
  HydUnit output_unit;
} HydLinearModel;

/* The linear model at (t, y) from input `comp_id`.`param` (any number
 * parameter hyd_system_check_override accepts) to variable `output`
 * (hyd_system_find_variable). The parameter is restored to the value it
 * had at t (a profile becomes that constant: sys is modified; compile
 * again to run it). */
HydLinearModel *hyd_linearize (HydSystem *sys, const HydSimOptions *sim, double t, const double *y,
                               const char *comp_id, const char *param, const char *output,
                               GError **error);
void hyd_linear_model_free (HydLinearModel *m);

/* G(jω) = C·(jωI − A)⁻¹·B + D at ω (rad/s); FALSE when jωI − A is
 * singular (ω is a pole). */
gboolean hyd_linear_model_response (const HydLinearModel *m, double omega, double *re, double *im);

/* The invariant zeros: the finite generalised eigenvalues of
 * ([A B; C D], [I 0; 0 0]) (Emami-Naeini & Van Dooren 1982). A mode that
 * the input does not reach or the output does not see is among them (it
 * cancels its pole). Eigenvalues with |λ| > ‖M‖₁/√ε count as infinite.
 * Returns the count, re/im newly allocated. −1 with an error when LAPACK
 * fails. */
int hyd_linear_model_zeros (const HydLinearModel *m, double **re, double **im, GError **error);

/* The output change y(t_k) − y0 after a unit step of the input at t = 0,
 * from x = 0, at t_k = k·t_end/n_steps, k = 0 … n_steps (out has
 * n_steps + 1 entries): exact for the linear model, by the matrix
 * exponential of [A B; 0 0]·h (scaling and squaring with a [6/6] Padé
 * approximant; Moler & Van Loan 2003, method 3). FALSE with an error when
 * a value is not finite. */
gboolean hyd_linear_model_step_response (const HydLinearModel *m, double t_end, guint n_steps,
                                         double *out, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydOperatingPoint, hyd_operating_point_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydLinearModel, hyd_linear_model_free)

G_END_DECLS
