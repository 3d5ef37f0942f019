/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-ode.h — the solver layer: plain C on double arrays (CVODE / GSL style).
 *
 * A problem is y' = f(t, y) with an analytic Jacobian and ∂f/∂t supplied
 * through callbacks; the same layer integrates compiled circuits and the
 * stiff test set. The driver (hyd-ode.c) owns what every method shares:
 * integration intervals between breakpoints (never stepping across one),
 * output samples from the method's dense output, cancellation, statistics and
 * failure statuses, behind one stepper (HydOdeStepper below: new, advance,
 * reinit, free) of which hyd_ode_solve is the one-shot form. A Rosenbrock method is a coefficient table
 * (hyd-rosenbrock.c). Callbacks return 0 on success, > 0 for a recoverable
 * failure (the step is retried smaller, e.g. a non-finite value), < 0 fatal. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HYD_SOLVER_ERROR (hyd_solver_error_quark ())
GQuark hyd_solver_error_quark (void);

typedef enum {
  HYD_ODE_SUCCESS = 0,
  HYD_ODE_CANCELLED,
  HYD_ODE_STEP_UNDERFLOW,
  HYD_ODE_TOO_MANY_STEPS,
  HYD_ODE_SINGULAR,
  HYD_ODE_NONFINITE,
  HYD_ODE_CALLBACK_FAILED,
  HYD_ODE_BAD_INPUT,
  HYD_ODE_UNKNOWN_SOLVER,
  HYD_ODE_NO_CONVERGENCE,   /* a Newton iteration diverged at a fixed step */
} HydOdeStatus;

const char *hyd_ode_status_name (HydOdeStatus status); /* "success", "step-underflow", ... */

/* Transmission-line modelling (Burton 1994; hyd-tlm.c): a problem made of
 * components joined by fluid volumes can be stepped by TLM, every
 * component solved on its own against the characteristic pressures its
 * lines bring, when it offers these operations. */
typedef struct {
  /* The TLM model of the problem with the state y0 at t0, or NULL and why
   * (a sentence, newly allocated) when it cannot be modelled so. */
  gpointer (*create) (gpointer user, double t0, const double *y0, double alpha, guint threads,
                      char **why);
  void (*destroy) (gpointer model);
  /* A trial step from the accepted state (t, y) to t + h: y_new; *pe, the
   * largest pressure difference across a line (Pa; Burton's error of the
   * parasitic inertance); est[n], an estimate of the local error of the
   * states the components integrate themselves (0 for the volumes');
   * *iterations, the Newton iterations of all its clusters. 0; > 0: a
   * component's iteration failed or a value is not finite (retry
   * smaller); < 0: fatal. */
  int (*step) (gpointer model, double t, const double *y, double h, double *y_new, double *pe,
               double *est, guint64 *iterations);
  /* The last trial step is taken: its waves travel on. */
  void (*accept) (gpointer model);
  /* Where the last failed step failed (a sentence, newly allocated), or NULL. */
  char *(*why) (gpointer model);
  /* How the model is split over threads (a sentence, newly allocated), or
   * NULL for one thread. */
  char *(*partition) (gpointer model);
  /* Optional: the problem's event functions at the end of the last step
   * (its t + Δ and y_new), evaluated in the model's threads; bitwise what
   * problem.events gives there. 0, or 1 when the model cannot (the driver
   * then calls problem.events). */
  int (*events) (gpointer model, double *g);
} HydTlmOps;

typedef struct {
  guint n;
  gpointer user;
  int (*rhs) (double t, const double *y, double *f, gpointer user);
  /* Dense Jacobian, column-major (J[i + j·n] = ∂f_i/∂y_j), and ∂f/∂t
   * (dfdt may be NULL: not wanted). Required by implicit methods unless
   * options.fd_jacobian. */
  int (*jac) (double t, const double *y, double *J, double *dfdt, gpointer user);
  /* Called when integration enters the interval [t_lo, t_hi] between two
   * breakpoints, before any evaluation in it. Optional. */
  void (*set_interval) (double t_lo, double t_hi, gpointer user);
  /* Name of state i for messages ("C1.x"). Optional. */
  const char *(*state_name) (guint i, gpointer user);
  /* Optional zero-crossing (event) functions: g_k(t, y), k < n_events; a
   * sign change of g_k inside a step is located on the dense output and the
   * integration restarts there (end stops, valve seating). */
  guint n_events;
  int (*events) (double t, const double *y, double *g, gpointer user);
  const char *(*event_name) (guint k, gpointer user);
  /* Optional: called at each located event, at its time (where the
   * function that crossed has its new sign, or 0) with the state there,
   * before the restart; crossed[k] is +1 for a function that went up
   * through 0 since the step's start, −1 down, 0 for the others. The
   * problem may change its discrete state (switching states,
   * docs/domains.md), which holds from then on. Non-zero fails the run as
   * a callback failure. */
  int (*event_located) (double t, const double *y, const int *crossed, gpointer user);
  /* Optional: why event_located failed, in a sentence (newly allocated),
   * or NULL; the run's message then says it instead of the return code. */
  char *(*event_message) (gpointer user);
  /* TRUE: the events are part of the model (discrete states switch at
   * them) and are located even when options.events is FALSE. */
  gboolean events_required;
  /* Optional sparse Jacobian: the structural pattern in compressed-column
   * form (rows of column j are rowind[colptr[j] .. colptr[j + 1]), nnz =
   * colptr[n]; owned by the caller, fixed for the run) and the values of
   * ∂f/∂y in that order, with ∂f/∂t (dfdt may be NULL: not wanted). With a
   * pattern, large problems factor with sparse LU (options.linear_solver),
   * and finite differences cost a few f evaluations instead of n. */
  guint nnz;
  const guint *colptr;   /* [n + 1] */
  const guint *rowind;   /* [nnz], each (i, j) at most once */
  int (*jac_sparse) (double t, const double *y, double *values, double *dfdt, gpointer user);
  /* Optional: stepping by transmission-line modelling (the tlm solver). */
  const HydTlmOps *tlm;
} HydOdeProblem;

typedef struct {
  double t0;
  double t_end;
  double rtol;
  const double *atol;      /* [n] */
  double h0;               /* initial step; 0 = automatic */
  double max_step;         /* 0 = no limit */
  double fixed_step;       /* > 0: constant step, no error control */
  double output_interval;  /* > 0: samples at t0 + k·Δ, then t_end; 0: every step */
  const double *breakpoints; /* sorted; those outside (t0, t_end) are ignored */
  guint n_breakpoints;
  guint64 max_steps;       /* 0 = 10 000 000 */
  gboolean fd_jacobian;    /* finite-difference Jacobian instead of problem.jac */
  const gint *cancel;      /* atomic flag, non-zero cancels; may be NULL */
  /* Called at each output sample with the interval already set for it
   * (a sample at a breakpoint comes after the change). Return FALSE to stop. */
  gboolean (*output) (double t, const double *y, gpointer user);
  gpointer output_user;
  gboolean events;         /* locate the problem's events and restart at them */
  int linear_solver;       /* HYD_LINEAR_SOLVER_*: 0 = automatic */
  /* With output_interval > 0 and output_origin_set: samples on the grid
   * output_origin + k·Δ (k ≥ 0) instead of t0 + k·Δ, those in [t0, t_end),
   * then t_end. A solve started at a sample time t0 of an earlier one so
   * keeps its sample times, bit for bit (as a stepper reinit keeps its
   * grid). */
  gboolean output_origin_set;
  double output_origin;
  /* The tlm solver (docs/solvers.md, "TLM"): the filter constant α of the
   * characteristic pressures, in [0, 1) (NAN: Burton's 0.2), and the
   * threads its partitions step in (0: one). */
  double tlm_filter;
  guint threads;
  /* Optional: every attempted step is recorded here (the solver lab,
   * docs/analysis.md); NULL, the default, records nothing and costs
   * nothing. The caller's, written by the thread that integrates. */
  struct _HydOdeStepLog *step_log;
} HydOdeOptions;

/* options.linear_solver. Automatic: sparse LU (KLU) when the problem has a
 * sparsity pattern, at least HYD_SPARSE_THRESHOLD states and at most
 * HYD_SPARSE_MAX_PER_COLUMN entries per column on average; dense LAPACK LU
 * otherwise. Sparse without a pattern is a bad-input error.
 *
 * Measured (`test-sparse -m perf --verbose`, 2-core x86-64, Debian 12's
 * reference (netlib) LAPACK and KLU 1.3.8): per rodas4 step, whole step with
 * assembly, sparse against dense,
 *   the twelve example circuits (n = 2 … 13, 2–5 entries a column):
 *     sparse 1.1–1.4× faster on every one, n = 2 included (the LAPACKE
 *     call costs ~0.6 µs before any arithmetic);
 *   distributed lines: n = 5: 1.3×, 17: 1.9×, 65: 13×, 385: 180×;
 * LU + 4 solves alone on random patterns of fixed density: KLU wins up
 * to n ≈ 16 when the pattern is full, 40 at density 0.5, 64 at 0.3, past
 * 96 at 0.15: the crossover sits at ~16–20 entries per column, whatever n.
 * So sparse pays from the smallest circuit, while the pattern is sparse. */
#define HYD_SPARSE_THRESHOLD 2
#define HYD_SPARSE_MAX_PER_COLUMN 16

enum {
  HYD_LINEAR_SOLVER_AUTO = 0,
  HYD_LINEAR_SOLVER_DENSE = 1,
  HYD_LINEAR_SOLVER_SPARSE = 2,
};

typedef struct {
  guint64 steps;      /* accepted */
  guint64 rejected;
  guint64 f_evals;
  guint64 jac_evals;
  guint64 lu;
  guint64 newton;
  double wall_s;
  guint64 events;    /* events located (restarts) */
} HydOdeStats;

typedef struct {
  HydOdeStatus status;
  double t;           /* last good time */
  int worst_state;    /* state with the largest error contribution at failure, or −1 */
  char *message;      /* NULL on success; names time and state */
  /* The message as parts to translate, NULL when it has none: each part
   * is a template (its text is the English msgid) followed by its
   * arguments, one for each "%s" in it; message is the parts' English
   * expansions one after the other (hyd_ode_result_dup_message). */
  char **message_parts;
  HydOdeStats stats;
  /* Remarks that are no failure, or NULL: a method's diagnosis (an explicit
   * method finding the problem stiff) or auto's choice and why; several are
   * joined by "; ". Freed by hyd_ode_result_clear. */
  char *note;
} HydOdeResult;

void hyd_ode_result_clear (HydOdeResult *result);
/* The message in another language: translate (a gettext lookup, or NULL
 * for English) is applied to each part's template before its arguments go
 * in. Without parts, a copy of message. */
char *hyd_ode_result_dup_message (const HydOdeResult *result,
                                  const char *(*translate) (const char *msgid, gpointer user),
                                  gpointer user);
void hyd_ode_options_init (HydOdeOptions *options);

typedef struct {
  const char *id;
  const char *family;
  const char *order;     /* "4(3)" */
  gboolean implicit;
  gboolean adaptive;     /* FALSE: fixed step only */
  gboolean multistep;
  const char *notes;
  /* TRUE: steps a circuit's components (transmission-line modelling), not
   * an ODE: it needs HydOdeProblem.tlm and is not run on the stiff test set. */
  gboolean needs_model;
} HydSolverInfo;

/* The default solver; hyd_ode_solve also takes NULL for it. */
#define HYD_SOLVER_DEFAULT "rodas4"

/* The solvers this build has. */
const HydSolverInfo *hyd_solver_list (guint *n);
const HydSolverInfo *hyd_solver_lookup (const char *id);

/* Integrate from options.t0 to options.t_end. y holds y0 on entry and the
 * last good state on return. Returns the status (also in result). */
HydOdeStatus hyd_ode_solve (const char *solver_id,
                            const HydOdeProblem *problem,
                            const HydOdeOptions *options,
                            double *y,
                            HydOdeResult *result);

/* ---- the stepper (CVODE-shaped: CVodeCreate + CVodeInit, CVodeReInit,
 * CVode in CV_NORMAL mode, CVodeGetNumSteps …; Hindmarsh et al., ACM TOMS 31,
 * 2005, §5) ---------------------------------------------------------------
 *
 * One integrator of one problem that a caller drives: advance to any output
 * time, reinitialise at a discontinuity it makes itself (a live parameter
 * change, a co-simulation's new inputs), advance again. hyd_ode_solve is
 * new + advance (t_end) + free.
 *
 * The options are those of hyd_ode_solve, copied (atol and breakpoints too;
 * the output callback, its data and the cancel flag are the caller's, and
 * so is the problem, which must outlive the stepper). options.t_end is the
 * horizon: the stepper never steps past it, nor across a breakpoint, and it
 * emits the output samples of options.output_interval on its grid
 * (options.output_origin) as hyd_ode_solve does, the last at t_end.
 *
 * Advance integrates until its time reaches t_out, stepping past t_out
 * within the current integration interval as CVode's CV_NORMAL mode does,
 * and writes y(t_out) from the method's continuous extension. Advancing to
 * t1 < t2 < … < t_end gives bit for bit the steps, samples and state of one
 * hyd_ode_solve to t_end.
 *
 * Reinit (t, y) restarts the same integrator and workspace at (t, y) as at a
 * breakpoint: the method's history (BDF's Nordsieck array, a Jacobian, the
 * step size) is dropped, the initial step is chosen afresh, the samples go
 * on on the same grid from the first at t or after (one at t holds the new
 * state), and a failure, a cancellation or a stop by the output callback is
 * cleared. Unlike CVodeReInit it keeps the statistics (they sum over the
 * stepper's life); options.max_steps counts from the last (re)init. A
 * problem whose parameters the caller changed is the same problem: reinit
 * after the change. Reinitialising at every communication point t_k gives
 * bit for bit the integration of hyd_ode_solve with breakpoints at the t_k.
 *
 * Statuses are those of hyd_ode_solve; the result (hyd_ode_stepper_get_result)
 * holds the message of the last failure, the notes and the statistics. After
 * a failure advance returns the same status until a reinit. */
typedef struct _HydOdeStepper HydOdeStepper;

/* NULL and error (HYD_SOLVER_ERROR, code HYD_ODE_UNKNOWN_SOLVER or
 * HYD_ODE_BAD_INPUT, the message of hyd_ode_solve) when the solver or the
 * input is wrong. solver_id NULL: HYD_SOLVER_DEFAULT. */
HydOdeStepper *hyd_ode_stepper_new (const char *solver_id,
                                    const HydOdeProblem *problem,
                                    const HydOdeOptions *options,
                                    const double *y0,
                                    GError **error);
/* Integrate to t_out (≥ the start of the last step, ≤ t_end) and write
 * y(t_out) to y_out (n values; may be NULL). HYD_ODE_SUCCESS, or the
 * failure (HYD_ODE_CANCELLED also when the output callback returned FALSE;
 * HYD_ODE_BAD_INPUT for a t_out outside that range, which changes nothing). */
HydOdeStatus hyd_ode_stepper_advance (HydOdeStepper *stepper, double t_out, double *y_out);
/* Restart at (t, y): any finite t before t_end, earlier than the stepper's
 * time too (a co-simulation that steps back). HYD_ODE_SUCCESS, or
 * HYD_ODE_BAD_INPUT (a time not before t_end, a state that is not finite). */
HydOdeStatus hyd_ode_stepper_reinit (HydOdeStepper *stepper, double t, const double *y);
/* New breakpoints (copied), in force from the next reinit. */
void hyd_ode_stepper_set_breakpoints (HydOdeStepper *stepper,
                                      const double *breakpoints, guint n_breakpoints);
/* The last good time: the end of the last accepted step (≥ the last t_out). */
double hyd_ode_stepper_get_time (const HydOdeStepper *stepper);
/* The statistics summed over every advance since new (wall_s: time spent
 * inside advance). */
const HydOdeStats *hyd_ode_stepper_get_stats (const HydOdeStepper *stepper);
/* Status, last good time, failure message, worst state, notes, statistics. */
const HydOdeResult *hyd_ode_stepper_get_result (const HydOdeStepper *stepper);
void hyd_ode_stepper_free (HydOdeStepper *stepper);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydOdeStepper, hyd_ode_stepper_free)

/* The finite-difference Jacobian of options.fd_jacobian at (t, y), as a
 * solver computes it: with sparse TRUE in the problem's pattern (J =
 * values[nnz], one f evaluation per CPR column group), else dense
 * column-major n×n. dfdt may be NULL. f_evals (may be NULL) receives the
 * number of f evaluations, f(t, y) included. Returns 0, or the failing
 * callback's code. For
 * tests and Jacobian checks. */
int hyd_ode_fd_jacobian (const HydOdeProblem *problem, const HydOdeOptions *options,
                         gboolean sparse, double t, const double *y, double *J,
                         double *dfdt, guint64 *f_evals);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HydOdeResult, hyd_ode_result_clear)

/* ---- the step log -------------------------------------------------------
 *
 * Which state limits the step size: for every attempted step, its start t,
 * its size h, how it ended, its weighted error norm
 * (hyd_ode_driver_error_norm, sqrt(mean((e_i/sk_i)²)), HW rodas.f) and the
 * state i with the largest term (e_i/sk_i)² of that norm — the state whose
 * local error estimate the step-size controller answers to (Hairer, Nørsett
 * & Wanner 1993, §II.4, eq. 4.11). Summed over the accepted
 * steps, per state: which states make the solver work.
 *
 * Every method with an error estimate reports its limiter: the Rosenbrock
 * family, radau5, radau3, lobatto3c4/6, sdirk4, bdf (the driver's weights
 * max(|y0|, |y1|) on CVODE's corrector difference; CVODE's own test weighs
 * with y0, so the two may differ on a state whose value changes by orders
 * of magnitude in the step), trapezoid and backward_euler, expo, dopri5 and
 * bs23, auto (the method it runs). None (−1): fixed-step runs, rk4 and
 * euler (no estimate), a rejection with no error norm (Newton divergence,
 * singular matrix, a non-finite value), and tlm, whose error is Burton's
 * pressure difference across a line as well as its components' states. */
typedef enum {
  HYD_STEP_ACCEPTED = 0,
  HYD_STEP_REJECTED_ERROR,     /* error norm > 1 */
  HYD_STEP_REJECTED_NEWTON,    /* Newton iteration did not converge */
  HYD_STEP_REJECTED_SINGULAR,  /* singular iteration matrix */
  HYD_STEP_REJECTED_FAILED,    /* a non-finite value or a callback asked to retry */
} HydStepOutcome;

typedef struct {
  double t;                /* start of the attempt */
  double h;                /* its size (an event inside an accepted step ends it earlier) */
  double err;              /* weighted error norm, NAN when none was computed */
  int limiting_state;      /* state with the largest term of err, or −1 */
  HydStepOutcome outcome;
} HydOdeStepRecord;

typedef struct _HydOdeStepLog HydOdeStepLog;

HydOdeStepLog *hyd_ode_step_log_new (guint n_states);
void hyd_ode_step_log_free (HydOdeStepLog *log);
/* Forget every record and count (a new run). */
void hyd_ode_step_log_clear (HydOdeStepLog *log);
guint hyd_ode_step_log_get_n_states (const HydOdeStepLog *log);
/* The records in the order of the attempts; *n their number. */
const HydOdeStepRecord *hyd_ode_step_log_get_records (const HydOdeStepLog *log, gsize *n);
/* [n_states]: how many accepted steps each state limited. */
const guint64 *hyd_ode_step_log_get_limited (const HydOdeStepLog *log);
/* Accepted steps that no state limited (fixed step, no estimate). */
guint64 hyd_ode_step_log_get_unlimited (const HydOdeStepLog *log);
/* "accepted", "rejected-error", "rejected-newton", "rejected-singular",
 * "rejected-failed". */
const char *hyd_step_outcome_name (HydStepOutcome outcome);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydOdeStepLog, hyd_ode_step_log_free)

G_END_DECLS
