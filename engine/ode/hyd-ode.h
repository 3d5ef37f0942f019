/* hyd-ode.h — the solver layer: plain C on double arrays (CVODE / GSL style).
 *
 * A problem is y' = f(t, y) with an analytic Jacobian and ∂f/∂t supplied
 * through callbacks; the same layer integrates compiled circuits and the
 * stiff test set. The driver (hyd-ode.c) owns what every method shares:
 * integration intervals between breakpoints (never stepping across one),
 * output samples from the method's dense output, cancellation, statistics and
 * failure statuses. A Rosenbrock method is a coefficient table
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
   * then t_end. A solve restarted at a sample time t0 (a live parameter
   * change) so keeps the first solve's sample times, bit for bit. */
  gboolean output_origin_set;
  double output_origin;
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
  HydOdeStats stats;
  /* Remarks that are no failure, or NULL: a method's diagnosis (an explicit
   * method finding the problem stiff) or auto's choice and why; several are
   * joined by "; ". Freed by hyd_ode_result_clear. */
  char *note;
} HydOdeResult;

void hyd_ode_result_clear (HydOdeResult *result);
void hyd_ode_options_init (HydOdeOptions *options);

typedef struct {
  const char *id;
  const char *family;
  const char *order;     /* "4(3)" */
  gboolean implicit;
  gboolean adaptive;     /* FALSE: fixed step only */
  gboolean multistep;
  const char *notes;
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

G_END_DECLS
