/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-ode.c — the solver driver: input checks, integration intervals between
 * breakpoints, step-size control, output samples, cancellation, statistics
 * and failure statuses, all held in the stepper (HydOdeStepper: new,
 * advance, reinit, free), of which hyd_ode_solve is the one-shot form. The
 * methods themselves are vtables (hyd-ode-private.h); the step-size
 * controller is that of HW rodas.f. */
#include "hyd-ode-private.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK (hyd-solver-error-quark, hyd_solver_error)

/* The solvers of this build: each family file lists its members, in the
 * order of spec/solvers.md. */
typedef const HydOdeMethod *const *(*FamilyFunc) (guint *n);
static const FamilyFunc families[] = {
  hyd_ode_family_rosenbrock,
  hyd_ode_family_radau5,
  hyd_ode_family_irk,
  hyd_ode_family_bdf,
  hyd_ode_family_theta,
  hyd_ode_family_expo,
  hyd_ode_family_explicit,
  hyd_ode_family_tlm,
  hyd_ode_family_auto,
};

static const HydOdeMethod **methods;
static guint n_methods;

static void
ensure_methods (void)
{
  static gsize done;

  if (g_once_init_enter (&done))
    {
      GPtrArray *list = g_ptr_array_new ();
      for (guint f = 0; f < G_N_ELEMENTS (families); f++)
        {
          guint n = 0;
          const HydOdeMethod *const *members = families[f] (&n);
          for (guint i = 0; i < n; i++)
            g_ptr_array_add (list, (gpointer) members[i]);
        }
      n_methods = list->len;
      methods = (const HydOdeMethod **) g_ptr_array_free (list, FALSE);
      g_once_init_leave (&done, 1);
    }
}

/* HW rodas.f defaults: 0.2 ≤ h_new/h ≤ 6, safety 0.9. */
#define CTRL_FAC_MIN    (1.0 / 6.0)
#define CTRL_FAC_MAX    5.0
#define CTRL_SAFE       0.9
#define MAX_SINGULAR    5      /* consecutive halvings before giving up */
#define MAX_RECOVERABLE 10     /* consecutive failed evaluations */
#define DEFAULT_MAX_STEPS 10000000

struct _HydOdeDriver {
  const HydOdeProblem *problem;
  const HydOdeOptions *opt;
  const HydOdeMethod *method;
  gpointer ws;
  guint n;
  HydOdeStats *stats;
  double t_lo, t_hi;        /* the current integration interval */

  /* What went wrong last, for the messages. */
  int bad_state;            /* last non-finite value, or −1 */
  int err_state;            /* largest term of the last error norm, or −1 */
  int norm_state;           /* the same for the current attempt only (step log) */
  int singular_state;       /* pivot column of the last singular LU, or −1 */
  int last_rc;              /* last callback return value */
  const char *last_cb;      /* which callback returned it */
  double fail_t;            /* time of the last failed evaluation */

  double *fd_y, *fd_f;      /* finite-difference work */
  double *g_prev, *g_new, *g_try; /* event functions at the step ends / trial */
  int *crossed;             /* event_located: which way each function crossed */
  double *y_event;          /* the state at a located event */
  double *y_out;            /* dense output sample */

  /* Output samples. */
  double out_dt;            /* 0: every step */
  double out_origin;        /* samples lie at out_origin + k·Δ */
  guint64 n_regular;        /* samples out_origin + k·Δ, k < n_regular */
  guint64 k_next;
  gboolean stopped;         /* the output callback asked to stop */

  /* Sparse linear algebra (options.linear_solver, problem pattern). */
  gboolean sparse;          /* Jacobians in the problem's CSC pattern */
  guint n_groups;           /* CPR column groups of the pattern, or 0 */
  guint *group_ptr;         /* [n_groups + 1] into group_cols */
  guint *group_cols;        /* [n] columns, group by group */
  double *fd_delta;         /* [n] increments of the current group */
  double *jac_conv;         /* dense ↔ sparse conversion scratch */

  HydOdeResult *result;     /* for the methods' notes, or NULL */
};

double
hyd_ode_driver_rtol (const HydOdeDriver *d)
{
  return d->opt->rtol;
}

const char *
hyd_ode_status_name (HydOdeStatus status)
{
  switch (status)
    {
    case HYD_ODE_SUCCESS:         return "success";
    case HYD_ODE_CANCELLED:       return "cancelled";
    case HYD_ODE_STEP_UNDERFLOW:  return "step-underflow";
    case HYD_ODE_TOO_MANY_STEPS:  return "too-many-steps";
    case HYD_ODE_SINGULAR:        return "singular";
    case HYD_ODE_NONFINITE:       return "nonfinite";
    case HYD_ODE_CALLBACK_FAILED: return "callback-failed";
    case HYD_ODE_BAD_INPUT:       return "bad-input";
    case HYD_ODE_UNKNOWN_SOLVER:  return "unknown-solver";
    case HYD_ODE_NO_CONVERGENCE:  return "no-convergence";
    default:                      return "unknown-status";
    }
}

void
hyd_ode_options_init (HydOdeOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->rtol = 1e-6;
  options->tlm_filter = NAN;
}

void
hyd_ode_result_clear (HydOdeResult *result)
{
  if (result == NULL)
    return;
  g_clear_pointer (&result->message, g_free);
  g_clear_pointer (&result->message_parts, g_strfreev);
  g_clear_pointer (&result->note, g_free);
  memset (result, 0, sizeof *result);
  result->worst_state = -1;
}

const HydSolverInfo *
hyd_solver_list (guint *n)
{
  static HydSolverInfo *infos;

  ensure_methods ();
  if (g_once_init_enter (&infos))
    {
      HydSolverInfo *list = g_new0 (HydSolverInfo, n_methods + 1);
      for (guint i = 0; i < n_methods; i++)
        list[i] = methods[i]->info;
      g_once_init_leave (&infos, list);
    }
  if (n != NULL)
    *n = n_methods;
  return infos;
}

static const HydOdeMethod *
method_lookup (const char *id)
{
  ensure_methods ();
  for (guint i = 0; i < n_methods; i++)
    if (g_strcmp0 (methods[i]->info.id, id) == 0)
      return methods[i];
  return NULL;
}

const HydSolverInfo *
hyd_solver_lookup (const char *id)
{
  guint n;
  const HydSolverInfo *list = hyd_solver_list (&n);

  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (list[i].id, id) == 0)
      return &list[i];
  return NULL;
}

/* ---- driver services for the methods ---------------------------------- */

guint
hyd_ode_driver_n (const HydOdeDriver *d)
{
  return d->n;
}

HydOdeStats *
hyd_ode_driver_stats (HydOdeDriver *d)
{
  return d->stats;
}

void
hyd_ode_driver_note_singular (HydOdeDriver *d, int column)
{
  d->singular_state = column;
}

const HydOdeOptions *
hyd_ode_driver_options (const HydOdeDriver *d)
{
  return d->opt;
}

void
hyd_ode_driver_note (HydOdeDriver *d, const char *format, ...)
{
  va_list args;

  if (d->result == NULL)
    return;
  va_start (args, format);
  g_autofree char *text = g_strdup_vprintf (format, args);
  va_end (args);
  char *old = d->result->note;
  d->result->note = old != NULL ? g_strconcat (old, "; ", text, NULL)
                                : g_steal_pointer (&text);
  g_free (old);
}

static int
first_nonfinite (const double *v, guint n)
{
  for (guint i = 0; i < n; i++)
    if (!isfinite (v[i]))
      return (int) i;
  return -1;
}

int
hyd_ode_driver_rhs (HydOdeDriver *d, double t, const double *y, double *f)
{
  const HydOdeProblem *p = d->problem;

  d->stats->f_evals++;
  int rc = p->rhs (t, y, f, p->user);
  if (rc != 0)
    {
      d->last_rc = rc;
      d->last_cb = "right-hand side";
      d->fail_t = t;
      return rc;
    }
  int bad = first_nonfinite (f, d->n);
  if (bad >= 0)
    {
      d->bad_state = bad;
      d->fail_t = t;
      return 1;
    }
  return 0;
}

/* The forward-difference increment for state j: it follows the state's
 * magnitude or, for small states, the scale where atol takes over. */
static inline double
fd_increment (const HydOdeDriver *d, const double *y, guint j)
{
  const HydOdeOptions *o = d->opt;
  double scale = fabs (y[j]);

  if (o->atol != NULL && o->rtol > 0.0)
    scale = MAX (scale, o->atol[j] / o->rtol);
  if (!(scale > 0.0) || !isfinite (scale))
    scale = 1e-5;
  return sqrt (DBL_EPSILON) * scale;
}

/* ∂f/∂t by a forward difference in t scaled by the interval; backwards at
 * its end. */
static int
fd_dfdt (HydOdeDriver *d, double t, const double *y, const double *f0, double *dfdt)
{
  double dt = sqrt (DBL_EPSILON) * MAX (fabs (t), d->t_hi - d->t_lo);
  double tt = t + dt;

  if (tt > d->t_hi)
    tt = t - dt;
  dt = tt - t;
  int rc = hyd_ode_driver_rhs (d, tt, y, d->fd_f);
  if (rc != 0)
    return rc;
  for (guint i = 0; i < d->n; i++)
    dfdt[i] = (d->fd_f[i] - f0[i]) / dt;
  return 0;
}

/* Forward differences, column by column. */
static int
fd_jacobian (HydOdeDriver *d, double t, const double *y, const double *f0,
             HydJac *Jm, double *dfdt)
{
  double *J = Jm->dense;
  guint n = d->n;

  memcpy (d->fd_y, y, n * sizeof (double));
  for (guint j = 0; j < n; j++)
    {
      double yj = y[j];
      double delta = fd_increment (d, y, j);
      d->fd_y[j] = yj + delta;
      delta = d->fd_y[j] - yj;
      int rc = hyd_ode_driver_rhs (d, t, d->fd_y, d->fd_f);
      if (rc > 0)
        {
          /* One side may leave the model's domain: try the other. */
          d->fd_y[j] = yj - delta;
          delta = -delta;
          rc = hyd_ode_driver_rhs (d, t, d->fd_y, d->fd_f);
        }
      d->fd_y[j] = yj;
      if (rc != 0)
        return rc;
      for (guint i = 0; i < n; i++)
        J[i + (gsize) j * n] = (d->fd_f[i] - f0[i]) / delta;
    }

  if (dfdt != NULL)
    return fd_dfdt (d, t, y, f0, dfdt);
  return 0;
}

/* Curtis, Powell & Reid (J. Inst. Maths Applics 13, 1974): columns with no
 * row in common are perturbed together, one f evaluation per group. The
 * groups are a greedy colouring of the column intersection graph in natural
 * order, which for the banded and block patterns of circuits and lines
 * needs about the bandwidth's number of colours, independent of n. Built
 * once per run, O(Σ_i (entries of row i)²). */
static void
fd_groups_build (HydOdeDriver *d)
{
  const HydOdeProblem *p = d->problem;
  guint n = d->n, nnz = p->colptr[n];
  g_autofree guint *rptr = g_new0 (guint, n + 1);
  g_autofree guint *rcol = g_new (guint, nnz + 1);
  g_autofree guint *colour = g_new (guint, n + 1);
  g_autofree guint *stamp = g_new (guint, n + 1);
  guint n_colours = 0;

  /* Rows of the pattern (CSR) to find the columns sharing a row. */
  for (guint k = 0; k < nnz; k++)
    rptr[p->rowind[k] + 1]++;
  for (guint i = 0; i < n; i++)
    rptr[i + 1] += rptr[i];
  {
    g_autofree guint *fill = g_memdup2 (rptr, n * sizeof (guint));
    for (guint j = 0; j < n; j++)
      for (guint k = p->colptr[j]; k < p->colptr[j + 1]; k++)
        rcol[fill[p->rowind[k]]++] = j;
  }

  for (guint c = 0; c <= n; c++)
    stamp[c] = G_MAXUINT;
  for (guint j = 0; j < n; j++)
    {
      /* Forbid the colours of the already coloured columns j shares a row with. */
      for (guint k = p->colptr[j]; k < p->colptr[j + 1]; k++)
        {
          guint i = p->rowind[k];
          for (guint m = rptr[i]; m < rptr[i + 1]; m++)
            if (rcol[m] < j)
              stamp[colour[rcol[m]]] = j;
        }
      guint c = 0;
      while (stamp[c] == j)
        c++;
      colour[j] = c;
      n_colours = MAX (n_colours, c + 1);
    }

  d->n_groups = n_colours;
  d->group_ptr = g_new0 (guint, n_colours + 1);
  d->group_cols = g_new (guint, n + 1);
  for (guint j = 0; j < n; j++)
    d->group_ptr[colour[j] + 1]++;
  for (guint c = 0; c < n_colours; c++)
    d->group_ptr[c + 1] += d->group_ptr[c];
  g_autofree guint *fill = g_memdup2 (d->group_ptr, n_colours * sizeof (guint));
  for (guint j = 0; j < n; j++)
    d->group_cols[fill[colour[j]]++] = j;
  d->fd_delta = g_new0 (double, n + 1);
}

/* Forward differences in the problem's pattern, one f evaluation per CPR
 * group: every entry (i, j) of a group's columns reads row i of the same
 * difference, as no other column of the group has an entry in row i. */
static int
fd_jacobian_sparse (HydOdeDriver *d, double t, const double *y, const double *f0,
                    HydJac *J, double *dfdt)
{
  const HydOdeProblem *p = d->problem;
  guint n = d->n;

  g_return_val_if_fail (J->colptr == p->colptr && J->rowind == p->rowind, -1);
  if (d->group_ptr == NULL)
    fd_groups_build (d);
  memcpy (d->fd_y, y, n * sizeof (double));
  for (guint g = 0; g < d->n_groups; g++)
    {
      const guint *cols = d->group_cols + d->group_ptr[g];
      guint len = d->group_ptr[g + 1] - d->group_ptr[g];
      for (guint m = 0; m < len; m++)
        {
          guint j = cols[m];
          d->fd_y[j] = y[j] + fd_increment (d, y, j);
          d->fd_delta[j] = d->fd_y[j] - y[j];
        }
      int rc = hyd_ode_driver_rhs (d, t, d->fd_y, d->fd_f);
      if (rc > 0)
        {
          /* One side may leave the model's domain: try the other. */
          for (guint m = 0; m < len; m++)
            {
              guint j = cols[m];
              d->fd_y[j] = y[j] - d->fd_delta[j];
              d->fd_delta[j] = -d->fd_delta[j];
            }
          rc = hyd_ode_driver_rhs (d, t, d->fd_y, d->fd_f);
        }
      for (guint m = 0; m < len; m++)
        d->fd_y[cols[m]] = y[cols[m]];
      if (rc != 0)
        return rc;
      for (guint m = 0; m < len; m++)
        {
          guint j = cols[m];
          for (guint k = p->colptr[j]; k < p->colptr[j + 1]; k++)
            {
              guint i = p->rowind[k];
              J->values[k] = (d->fd_f[i] - f0[i]) / d->fd_delta[j];
            }
        }
    }

  if (dfdt != NULL)
    return fd_dfdt (d, t, y, f0, dfdt);
  return 0;
}

static void
fd_groups_clear (HydOdeDriver *d)
{
  g_clear_pointer (&d->group_ptr, g_free);
  g_clear_pointer (&d->group_cols, g_free);
  g_clear_pointer (&d->fd_delta, g_free);
  g_clear_pointer (&d->jac_conv, g_free);
  d->n_groups = 0;
}

static inline gboolean
has_pattern (const HydOdeProblem *p)
{
  return p->colptr != NULL && p->rowind != NULL;
}

/* The storage of this run's Jacobians: options.linear_solver, automatic by
 * the measured rule of HYD_SPARSE_THRESHOLD (hyd-ode.h). */
static gboolean
use_sparse (const HydOdeProblem *p, const HydOdeOptions *o)
{
  switch (o->linear_solver)
    {
    case HYD_LINEAR_SOLVER_DENSE:
      return FALSE;
    case HYD_LINEAR_SOLVER_SPARSE:
      return has_pattern (p);
    case HYD_LINEAR_SOLVER_AUTO:
    default:
      return has_pattern (p) && p->n >= HYD_SPARSE_THRESHOLD
             && p->colptr[p->n] <= (guint64) HYD_SPARSE_MAX_PER_COLUMN * p->n;
    }
}

HydJac *
hyd_ode_driver_jac_new (HydOdeDriver *d)
{
  const HydOdeProblem *p = d->problem;

  HydJac *J = d->sparse ? hyd_jac_new_sparse (d->n, p->colptr[d->n], p->colptr, p->rowind)
                        : hyd_jac_new_dense (d->n);
  /* sparse asked for: KLU whatever n (the small dense LU otherwise) */
  if (d->opt->linear_solver == HYD_LINEAR_SOLVER_SPARSE)
    J->small_dense_max = 0;
  return J;
}

static void
note_jac_failure (HydOdeDriver *d, double t, int rc)
{
  if (rc == 0)
    return;
  d->last_rc = rc;
  d->last_cb = "Jacobian";
  d->fail_t = t;
}

/* The analytic Jacobian into J of either kind; a problem with only the other
 * kind of callback is converted (a method may ask for dense storage, e.g.
 * for eigenvalues, in a sparse run). */
static int
analytic_jacobian (HydOdeDriver *d, double t, const double *y, HydJac *J, double *dfdt)
{
  const HydOdeProblem *p = d->problem;
  guint n = d->n;
  int rc;

  if (dfdt != NULL)
    memset (dfdt, 0, n * sizeof (double));
  if (!J->sparse && p->jac != NULL)
    rc = p->jac (t, y, J->dense, dfdt, p->user);
  else if (J->sparse && p->jac_sparse != NULL)
    {
      g_return_val_if_fail (J->colptr == p->colptr && J->rowind == p->rowind, -1);
      rc = p->jac_sparse (t, y, J->values, dfdt, p->user);
    }
  else if (J->sparse)
    {
      /* Dense callback, sparse storage: gather the pattern's entries. */
      if (d->jac_conv == NULL)
        d->jac_conv = g_new (double, (gsize) n * n);
      memset (d->jac_conv, 0, (gsize) n * n * sizeof (double));
      rc = p->jac (t, y, d->jac_conv, dfdt, p->user);
      for (guint j = 0; j < n && rc == 0; j++)
        for (guint k = J->colptr[j]; k < J->colptr[j + 1]; k++)
          J->values[k] = d->jac_conv[J->rowind[k] + (gsize) j * n];
    }
  else
    {
      /* Sparse callback, dense storage: scatter. */
      guint nnz = p->colptr[n];
      if (d->jac_conv == NULL)
        d->jac_conv = g_new (double, nnz + 1);
      memset (d->jac_conv, 0, nnz * sizeof (double));
      rc = p->jac_sparse (t, y, d->jac_conv, dfdt, p->user);
      hyd_jac_zero (J);
      for (guint j = 0; j < n && rc == 0; j++)
        for (guint k = p->colptr[j]; k < p->colptr[j + 1]; k++)
          J->dense[p->rowind[k] + (gsize) j * n] += d->jac_conv[k];
    }
  note_jac_failure (d, t, rc);
  return rc;
}

int
hyd_ode_driver_jacobian (HydOdeDriver *d, double t, const double *y,
                         const double *f0, HydJac *J, double *dfdt)
{
  const HydOdeProblem *p = d->problem;
  guint n = d->n;
  int rc;

  d->stats->jac_evals++;
  if (d->opt->fd_jacobian || (p->jac == NULL && p->jac_sparse == NULL))
    rc = J->sparse ? fd_jacobian_sparse (d, t, y, f0, J, dfdt)
                   : fd_jacobian (d, t, y, f0, J, dfdt);
  else
    rc = analytic_jacobian (d, t, y, J, dfdt);
  if (rc != 0)
    return rc;

  /* A non-finite entry is named by its row (the equation of that state). */
  int bad = hyd_jac_first_nonfinite_row (J);
  if (bad < 0 && dfdt != NULL)
    bad = first_nonfinite (dfdt, n);
  if (bad >= 0)
    {
      d->bad_state = bad;
      d->fail_t = t;
      return 1;
    }
  return 0;
}

static inline double
tol_scale (const HydOdeDriver *d, guint i, double y_abs)
{
  double sk = d->opt->atol[i] + d->opt->rtol * y_abs;
  return sk > 1e-300 ? sk : 1e-300;
}

double
hyd_ode_driver_error_norm (HydOdeDriver *d, const double *y0,
                           const double *y1, const double *e)
{
  double sum = 0.0, worst = -1.0;

  if (d->opt->atol == NULL)
    return 0.0;   /* fixed step without tolerances: nothing to weigh */
  for (guint i = 0; i < d->n; i++)
    {
      double q = e[i] / tol_scale (d, i, MAX (fabs (y0[i]), fabs (y1[i])));
      q *= q;
      sum += q;
      if (q > worst || !isfinite (q))
        {
          worst = q;
          d->err_state = (int) i;
        }
    }
  d->norm_state = d->err_state;
  return sqrt (sum / d->n);
}

/* ---- the step log ------------------------------------------------------ */

struct _HydOdeStepLog {
  guint n;
  GArray *records;          /* of HydOdeStepRecord */
  guint64 *limited;         /* [n] */
  guint64 unlimited;
};

HydOdeStepLog *
hyd_ode_step_log_new (guint n_states)
{
  HydOdeStepLog *log = g_new0 (HydOdeStepLog, 1);
  log->n = n_states;
  log->records = g_array_new (FALSE, FALSE, sizeof (HydOdeStepRecord));
  log->limited = g_new0 (guint64, n_states + 1);
  return log;
}

void
hyd_ode_step_log_free (HydOdeStepLog *log)
{
  if (log == NULL)
    return;
  g_array_unref (log->records);
  g_free (log->limited);
  g_free (log);
}

void
hyd_ode_step_log_clear (HydOdeStepLog *log)
{
  g_return_if_fail (log != NULL);
  g_array_set_size (log->records, 0);
  memset (log->limited, 0, log->n * sizeof (guint64));
  log->unlimited = 0;
}

guint
hyd_ode_step_log_get_n_states (const HydOdeStepLog *log)
{
  return log->n;
}

const HydOdeStepRecord *
hyd_ode_step_log_get_records (const HydOdeStepLog *log, gsize *n)
{
  *n = log->records->len;
  return (const HydOdeStepRecord *) log->records->data;
}

const guint64 *
hyd_ode_step_log_get_limited (const HydOdeStepLog *log)
{
  return log->limited;
}

guint64
hyd_ode_step_log_get_unlimited (const HydOdeStepLog *log)
{
  return log->unlimited;
}

const char *
hyd_step_outcome_name (HydStepOutcome outcome)
{
  switch (outcome)
    {
    case HYD_STEP_ACCEPTED:          return "accepted";
    case HYD_STEP_REJECTED_ERROR:    return "rejected-error";
    case HYD_STEP_REJECTED_NEWTON:   return "rejected-newton";
    case HYD_STEP_REJECTED_SINGULAR: return "rejected-singular";
    case HYD_STEP_REJECTED_FAILED:   return "rejected-failed";
    default:                         return "unknown";
    }
}

/* One attempt into options.step_log (the caller checked it is set). The
 * limiter is the state of this attempt's error norm: none for a fixed step,
 * a method without an estimate, or tlm (its lines are no states). */
static void
step_log_record (HydOdeDriver *d, HydOdeStepLog *log, double t, double h, double err,
                 gboolean have_err, HydStepOutcome outcome)
{
  gboolean limits = have_err && d->opt->fixed_step <= 0.0 && !d->method->info.needs_model
                    && d->method->info.adaptive;
  int state = limits && d->norm_state >= 0 && (guint) d->norm_state < log->n ? d->norm_state : -1;
  HydOdeStepRecord rec = {
    .t = t, .h = h, .err = have_err ? err : NAN, .limiting_state = state, .outcome = outcome,
  };
  g_array_append_val (log->records, rec);
  if (outcome == HYD_STEP_ACCEPTED)
    {
      if (state >= 0)
        log->limited[state]++;
      else
        log->unlimited++;
    }
}

/* ---- messages ---------------------------------------------------------- */

static char *
state_label (const HydOdeDriver *d, int i)
{
  const HydOdeProblem *p = d->problem;

  if (i < 0 || (guint) i >= d->n)
    return NULL;
  if (p->state_name != NULL)
    {
      const char *name = p->state_name ((guint) i, p->user);
      if (name != NULL && *name != '\0')
        return g_strdup (name);
    }
  return g_strdup_printf ("y[%d]", i);
}

#ifndef N_
#define N_(text) (text) /* marks a template for xgettext; translated by the reader of the result */
#endif

/* A part's template with its arguments from parts[*at] on, in English or
 * translated; *at moves past them. Only "%s" (and "%%") are expanded. */
static void
append_part (GString *out, char **parts, guint *at, const char *(*translate) (const char *, gpointer),
             gpointer user)
{
  const char *template = parts[(*at)++];
  const char *text = translate ? translate (template, user) : template;
  guint n_args = 0;

  for (const char *p = template; *p; p++)
    if (p[0] == '%' && p[1] == 's')
      n_args++;
    else if (p[0] == '%' && p[1] == '%')
      p++;
  char *const *args = parts + *at;
  for (guint k = 0; k < n_args; k++)
    if (parts[*at] != NULL)
      (*at)++;
  guint next = 0;
  for (const char *p = text; *p; p++)
    {
      if (p[0] == '%' && p[1] == 's')
        {
          if (next < n_args)
            g_string_append (out, args[next]);
          next++;
          p++;
        }
      else if (p[0] == '%' && p[1] == '%')
        {
          g_string_append_c (out, '%');
          p++;
        }
      else
        g_string_append_c (out, *p);
    }
}

char *
hyd_ode_result_dup_message (const HydOdeResult *r, const char *(*translate) (const char *, gpointer),
                            gpointer user)
{
  g_return_val_if_fail (r != NULL, NULL);
  if (r->message_parts == NULL)
    return g_strdup (r->message);
  GString *out = g_string_new (NULL);
  for (guint at = 0; r->message_parts[at] != NULL;)
    append_part (out, r->message_parts, &at, translate, user);
  return g_string_free (out, FALSE);
}

/* Appends a part (a template and its const char * arguments, then NULL)
 * to the failure's message. */
static void
message_append_v (HydOdeResult *r, const char *template, va_list ap)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  if (r->message_parts != NULL)
    g_strv_builder_addv (builder, (const char **) r->message_parts);
  g_strv_builder_add (builder, template);
  for (const char *a = va_arg (ap, const char *); a != NULL; a = va_arg (ap, const char *))
    g_strv_builder_add (builder, a);
  g_strfreev (r->message_parts);
  r->message_parts = g_strv_builder_end (builder);
  g_free (r->message);
  r->message = hyd_ode_result_dup_message (r, NULL, NULL);
}

static void G_GNUC_NULL_TERMINATED
message_append (HydOdeResult *r, const char *template, ...)
{
  va_list ap;

  va_start (ap, template);
  message_append_v (r, template, ap);
  va_end (ap);
}

/* Ends the step with a failure: its status and its message (a template,
 * N_()-marked for translation, and its const char * arguments, then NULL). */
static HydOdeStatus G_GNUC_NULL_TERMINATED
fail (HydOdeResult *r, HydOdeStatus status, const char *template, ...)
{
  va_list ap;

  g_clear_pointer (&r->message_parts, g_strfreev);
  va_start (ap, template);
  message_append_v (r, template, ap);
  va_end (ap);
  r->status = status;
  return status;
}

/* A time or step for a message: %.9g, %.3g. */
#define TIME_TEXT(buf, t) (g_snprintf ((buf), sizeof (buf), "%.9g", (t)), (buf))
#define STEP_TEXT(buf, h) (g_snprintf ((buf), sizeof (buf), "%.3g", (h)), (buf))

/* "; largest error contribution: C1.x" appended when a state is known. */
static void
append_worst (HydOdeDriver *d, HydOdeResult *r, int state)
{
  g_autofree char *name = state_label (d, state);

  r->worst_state = name != NULL ? state : -1;
  if (name != NULL)
    message_append (r, N_("; largest error contribution: %s"), name, NULL);
}

/* " (last good state at t = …)" appended when the failure came later. */
static void
append_last_good (const HydOdeDriver *d, HydOdeResult *r, double t_good)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (d->fail_t > t_good)
    message_append (r, N_(" (last good state at t = %s)"), TIME_TEXT (buf, t_good), NULL);
}

/* Which callback failed, as a whole sentence per callback (for the
 * translation): `returned` "… returned CODE at t = T", else "… failed
 * (code CODE) on every retry at t = T". */
static const char *
callback_template (const HydOdeDriver *d, gboolean returned)
{
  if (g_strcmp0 (d->last_cb, "Jacobian") == 0)
    return returned ? N_("the Jacobian returned %s at t = %s")
                    : N_("the Jacobian failed (code %s) on every retry at t = %s");
  if (g_strcmp0 (d->last_cb, "events") == 0)
    return returned ? N_("the event functions returned %s at t = %s")
                    : N_("the event functions failed (code %s) on every retry at t = %s");
  return returned ? N_("the right-hand side returned %s at t = %s")
                  : N_("the right-hand side failed (code %s) on every retry at t = %s");
}

static HydOdeStatus
fail_nonfinite (HydOdeDriver *d, HydOdeResult *r, double t_good)
{
  double t = MAX (d->fail_t, t_good);
  char buf[G_ASCII_DTOSTR_BUF_SIZE], code[16];

  if (d->bad_state >= 0)
    {
      g_autofree char *name = state_label (d, d->bad_state);
      fail (r, HYD_ODE_NONFINITE, N_("non-finite value in %s at t = %s"), name, TIME_TEXT (buf, t), NULL);
      r->worst_state = d->bad_state;
      append_last_good (d, r, t_good);
      return r->status;
    }
  g_snprintf (code, sizeof code, "%d", d->last_rc);
  fail (r, HYD_ODE_NONFINITE, callback_template (d, FALSE), code, TIME_TEXT (buf, t), NULL);
  append_last_good (d, r, t_good);
  append_worst (d, r, d->err_state);
  return r->status;
}

static HydOdeStatus
fail_callback (HydOdeDriver *d, HydOdeResult *r, double t_good)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE], code[16];

  g_snprintf (code, sizeof code, "%d", d->last_rc);
  fail (r, HYD_ODE_CALLBACK_FAILED, callback_template (d, TRUE), code,
        TIME_TEXT (buf, MAX (d->fail_t, t_good)), NULL);
  append_last_good (d, r, t_good);
  return r->status;
}

/* The problem's event handler failed at t (it could not settle its
 * discrete states): its own sentence when it has one. */
static HydOdeStatus
fail_event_handler (HydOdeDriver *d, HydOdeResult *r, double t, int rc)
{
  d->last_cb = "event handler";
  d->last_rc = rc;
  d->fail_t = t;
  g_autofree char *why = d->problem->event_message ? d->problem->event_message (d->problem->user) : NULL;
  if (why == NULL)
    return fail_callback (d, r, t);
  fail (r, HYD_ODE_CALLBACK_FAILED, "%s", why, NULL);
  return r->status;
}

/* ---- output samples ---------------------------------------------------- */

static gboolean
emit (HydOdeDriver *d, double t, const double *y)
{
  const HydOdeOptions *o = d->opt;

  if (o->output == NULL || d->stopped)
    return !d->stopped;
  if (!o->output (t, y, o->output_user))
    d->stopped = TRUE;
  return !d->stopped;
}

static inline double
sample_time (const HydOdeDriver *d, guint64 k)
{
  return d->out_origin + (double) k * d->out_dt;
}

/* Samples at the start a of an interval, after set_interval: those at a
 * (within 1e-9·Δ, the CSV rule) hold the values after the change. */
static gboolean
emit_interval_start (HydOdeDriver *d, double a, const double *y)
{
  if (d->out_dt == 0.0)
    return emit (d, a, y);
  double tol = 1e-9 * d->out_dt;
  while (d->k_next < d->n_regular && sample_time (d, d->k_next) <= a + tol)
    {
      d->k_next++;
      if (!emit (d, a, y))
        return FALSE;
    }
  return TRUE;
}

/* Samples inside the accepted step (t, t + h], from the continuous
 * extension; those at or just before b belong to the next interval. */
static int
emit_step_samples (HydOdeDriver *d, double t, double h, double t_new,
                   double b, const double *y_new)
{
  if (d->out_dt == 0.0)
    {
      if (t_new < b)
        emit (d, t_new, y_new);
      return 0;
    }
  double tol = 1e-9 * d->out_dt;
  const gint *cancel = d->opt->cancel;
  while (d->k_next < d->n_regular && !d->stopped)
    {
      /* No more samples once cancelled; the step loop reports it. */
      if (cancel != NULL && g_atomic_int_get (cancel) != 0)
        break;
      double tk = sample_time (d, d->k_next);
      if (tk >= b - tol || tk > t_new)
        break;
      if (tk == t_new)
        memcpy (d->y_out, y_new, d->n * sizeof (double));
      else
        {
          double theta = CLAMP ((tk - t) / h, 0.0, 1.0);
          int rc = d->method->dense (d->ws, d, theta, d->y_out);
          if (rc != 0)
            return rc;
        }
      d->k_next++;
      emit (d, tk, d->y_out);
    }
  return 0;
}

/* ---- input ------------------------------------------------------------- */

static char *
check_input (const HydOdeMethod *m, const HydOdeProblem *p,
             const HydOdeOptions *o, const double *y)
{
  gboolean fixed = o->fixed_step > 0.0;

  if (p->n == 0 || p->rhs == NULL)
    return g_strdup ("the problem has no states or no right-hand side");
  if (!isfinite (o->t0) || !isfinite (o->t_end) || !(o->t_end > o->t0))
    return g_strdup_printf ("t_end (%g) must be finite and after t0 (%g)",
                            o->t_end, o->t0);
  if (!isfinite (o->fixed_step) || o->fixed_step < 0.0)
    return g_strdup_printf ("fixed_step must be ≥ 0 (got %g)", o->fixed_step);
  if (!isfinite (o->h0) || o->h0 < 0.0)
    return g_strdup_printf ("h0 must be ≥ 0 (got %g)", o->h0);
  if (!isfinite (o->max_step) || o->max_step < 0.0)
    return g_strdup_printf ("max_step must be ≥ 0 (got %g)", o->max_step);
  if (!isfinite (o->output_interval) || o->output_interval < 0.0)
    return g_strdup_printf ("output_interval must be ≥ 0 (got %g)",
                            o->output_interval);
  if (o->output_origin_set && !isfinite (o->output_origin))
    return g_strdup_printf ("output_origin must be finite (got %g)", o->output_origin);
  if (o->output_interval > 0.0
      && (o->t_end - (o->output_origin_set ? MIN (o->output_origin, o->t0) : o->t0))
         / o->output_interval > 1e12)
    return g_strdup_printf ("output_interval %g gives too many samples",
                            o->output_interval);
  if (fixed && m->info.multistep)
    return g_strdup_printf ("solver “%s” is a multistep method and has no "
                            "fixed-step mode", m->info.id);
  if (!fixed && !m->info.adaptive)
    return g_strdup_printf ("solver “%s” needs a fixed step", m->info.id);
  if (m->info.implicit && p->jac == NULL && p->jac_sparse == NULL && !o->fd_jacobian)
    return g_strdup ("the problem has no Jacobian (use fd_jacobian)");
  if (o->linear_solver < HYD_LINEAR_SOLVER_AUTO || o->linear_solver > HYD_LINEAR_SOLVER_SPARSE)
    return g_strdup_printf ("linear_solver %d is none of auto (0), dense (1), sparse (2)",
                            o->linear_solver);
  if ((p->colptr == NULL) != (p->rowind == NULL))
    return g_strdup ("the sparsity pattern needs both colptr and rowind");
  if (o->linear_solver == HYD_LINEAR_SOLVER_SPARSE && !has_pattern (p))
    return g_strdup ("the sparse linear solver needs the problem's sparsity pattern");
  if (p->jac_sparse != NULL && !has_pattern (p))
    return g_strdup ("jac_sparse needs the problem's sparsity pattern");
  if (has_pattern (p))
    {
      if (p->colptr[0] != 0 || p->colptr[p->n] != p->nnz)
        return g_strdup_printf ("sparsity pattern: colptr must run from 0 to nnz (%u)", p->nnz);
      for (guint j = 0; j < p->n; j++)
        {
          if (p->colptr[j + 1] < p->colptr[j])
            return g_strdup_printf ("sparsity pattern: colptr decreases at column %u", j);
          for (guint k = p->colptr[j]; k < p->colptr[j + 1]; k++)
            if (p->rowind[k] >= p->n)
              return g_strdup_printf ("sparsity pattern: row %u of column %u is out of range",
                                      p->rowind[k], j);
        }
    }
  if (o->n_breakpoints > 0 && o->breakpoints == NULL)
    return g_strdup ("n_breakpoints > 0 without breakpoints");
  for (guint i = 0; i < o->n_breakpoints; i++)
    if (!isfinite (o->breakpoints[i]))
      return g_strdup_printf ("breakpoint %u is not finite", i);

  if (!isfinite (o->rtol) || o->rtol < 0.0)
    return g_strdup_printf ("rtol must be ≥ 0 (got %g)", o->rtol);
  if (o->atol == NULL && !fixed)
    return g_strdup ("atol is missing");
  for (guint i = 0; o->atol != NULL && i < p->n; i++)
    if (!isfinite (o->atol[i]) || o->atol[i] < 0.0
        || (o->atol[i] == 0.0 && o->rtol == 0.0))
      return g_strdup_printf ("atol[%u] = %g: tolerances must be ≥ 0 and "
                              "not both zero", i, o->atol[i]);
  int bad = first_nonfinite (y, p->n);
  if (bad >= 0)
    return g_strdup_printf ("initial value y[%d] is not finite", bad);
  return NULL;
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* [t0, b_1, …, b_k, t_end]: the breakpoints strictly inside, sorted, without
 * those within ~1e-12 (relative) of an end or of each other. */
static GArray *
integration_bounds (const HydOdeOptions *o)
{
  GArray *bounds = g_array_new (FALSE, FALSE, sizeof (double));
  double tol = 1e-12 * MAX (o->t_end - o->t0, MAX (fabs (o->t0), fabs (o->t_end)));
  g_autofree double *bp = g_memdup2 (o->breakpoints,
                                     o->n_breakpoints * sizeof (double));

  if (o->n_breakpoints > 0)
    qsort (bp, o->n_breakpoints, sizeof (double), compare_double);
  g_array_append_val (bounds, o->t0);
  for (guint i = 0; i < o->n_breakpoints; i++)
    {
      double last = g_array_index (bounds, double, bounds->len - 1);
      if (bp[i] > last + tol && bp[i] < o->t_end - tol)
        g_array_append_val (bounds, bp[i]);
    }
  g_array_append_val (bounds, o->t_end);
  return bounds;
}

/* ---- the integration --------------------------------------------------- */

/* Initial step: HW dopri5.f / radau5.f HINIT. Two evaluations of f. */
static int
initial_step (HydOdeDriver *d, double t, const double *y, const double *f0,
              double hmax, double *h_out)
{
  guint n = d->n;
  double dnf = 0.0, dny = 0.0, h;

  for (guint i = 0; i < n; i++)
    {
      double sk = tol_scale (d, i, fabs (y[i]));
      dnf += (f0[i] / sk) * (f0[i] / sk);
      dny += (y[i] / sk) * (y[i] / sk);
    }
  if (dnf <= 1e-10 || dny <= 1e-10)
    h = 1e-6;
  else
    h = sqrt (dny / dnf) * 0.01;
  h = MIN (h, hmax);

  /* An explicit Euler step estimates the second derivative. */
  for (guint i = 0; i < n; i++)
    d->fd_y[i] = y[i] + h * f0[i];
  int rc = hyd_ode_driver_rhs (d, t + h, d->fd_y, d->fd_f);
  if (rc < 0)
    return rc;
  if (rc > 0)
    {
      /* The Euler step left the model's domain: start well below it. */
      *h_out = MIN (h * 1e-3, hmax);
      return 0;
    }
  double der2 = 0.0;
  for (guint i = 0; i < n; i++)
    {
      double q = (d->fd_f[i] - f0[i]) / tol_scale (d, i, fabs (y[i]));
      der2 += q * q;
    }
  der2 = sqrt (der2) / h;
  double der12 = MAX (fabs (der2), sqrt (dnf));
  double h1;
  if (der12 <= 1e-15)
    h1 = MAX (1e-6, h * 1e-3);
  else
    h1 = pow (0.01 / der12, 1.0 / MAX (d->method->order, 2));
  /* a first-order method at a steep jump would otherwise start below the
   * time resolution of t */
  h1 = MAX (h1, 1e3 * DBL_EPSILON * MAX (fabs (t), hmax));
  *h_out = MIN (MIN (100.0 * h, h1), hmax);
  return 0;
}

static inline gboolean
step_underflows (double h, double t)
{
  return h <= 10.0 * DBL_EPSILON * fabs (t) || h < 1e3 * DBL_MIN;
}

/* ---- events ------------------------------------------------------------ */

static int
eval_events (HydOdeDriver *d, double t, const double *y, double *g)
{
  const HydOdeProblem *p = d->problem;
  int rc = p->events (t, y, g, p->user);
  if (rc != 0)
    {
      d->last_rc = rc;
      d->last_cb = "events";
      d->fail_t = t;
    }
  return rc;
}

static inline gboolean
crosses (double a, double b)
{
  return (a < 0.0 && b >= 0.0) || (a > 0.0 && b <= 0.0);
}

/* After an accepted step [t, t + h]: the earliest sign change of any event
 * function, located on the method's dense output (Illinois regula falsi) to
 * max(1e-12·|t|, 1e-7·h). Returns 1 and the time (the right end of the
 * final bracket, where g already has its new sign) with the state in
 * d->y_event; 0 when nothing crosses; < 0 or > 0 on a callback failure. */
static int
locate_event (HydOdeDriver *d, double t, double h, double *t_event)
{
  const HydOdeProblem *p = d->problem;
  double best = 2.0;
  double tol = MAX (1e-12 * MAX (fabs (t), 1.0), 1e-7 * h) / h;
  for (guint k = 0; k < p->n_events; k++)
    {
      if (!crosses (d->g_prev[k], d->g_new[k]))
        continue;
      double a = 0.0, b = 1.0, ga = d->g_prev[k], gb = d->g_new[k];
      int side = 0;
      for (int it = 0; it < 100 && b - a > tol; it++)
        {
          double theta = (a * gb - b * ga) / (gb - ga);
          if (!(theta > a && theta < b))
            theta = 0.5 * (a + b);
          int rc = d->method->dense (d->ws, d, theta, d->y_event);
          if (rc == 0)
            rc = eval_events (d, t + theta * h, d->y_event, d->g_try);
          if (rc != 0)
            return rc;
          double gt = d->g_try[k];
          if (crosses (ga, gt))
            {
              b = theta;
              gb = gt;
              if (side == -1)
                ga *= 0.5;   /* Illinois: keep the stale end moving */
              side = -1;
            }
          else
            {
              a = theta;
              ga = gt;
              if (side == 1)
                gb *= 0.5;
              side = 1;
            }
        }
      best = MIN (best, b);
    }
  if (best > 1.0)
    return 0;
  /* An event at the step's very end (g reaches 0 there: a step on a grid
   * that holds the event time) is an event there: the next step starts at
   * g = 0, and a change from 0 is no crossing, so it would be lost. */
  best = MIN (best, 1.0);
  int rc = d->method->dense (d->ws, d, best, d->y_event);
  if (rc != 0)
    return rc;
  *t_event = t + best * h;
  return 1;
}

/* ---- the stepper ------------------------------------------------------- */

/* Where the stepper stands (hyd-ode.h, HydOdeStepper). The transitions that
 * end an interval or follow an event are taken lazily, at the next advance
 * that needs to step, so that the continuous extension of the last step is
 * still there for an output point inside it. */
typedef enum {
  PHASE_OPEN,    /* to enter the interval bounds[iv] .. bounds[iv + 1] at (t, y) */
  PHASE_EVENT,   /* an event cut the last step at t: the method restarts there */
  PHASE_STEP,    /* stepping inside the interval */
  PHASE_DONE,    /* t_end reached, its sample emitted */
  PHASE_FAILED,  /* failed, cancelled or stopped: only a reinit goes on */
} Phase;

struct _HydOdeStepper {
  HydOdeDriver d;
  HydOdeOptions opt;        /* the caller's, with the arrays below */
  double *atol;             /* [n] copy of options.atol, or NULL */
  double *breakpoints;      /* copy of options.breakpoints */
  GArray *bounds;           /* [t of the last (re)init, breakpoints…, t_end] */
  guint iv;                 /* the current interval: bounds[iv] .. bounds[iv + 1] */
  HydOdeResult result;      /* status, message, statistics, notes */
  Phase phase;

  double t;                 /* the last good time */
  double *y;                /* [n] and state */
  double *f0, *f_new, *y_new;

  /* Step control inside the interval [a, b] (HW rodas.f). */
  double a, b, h, hmax, h_acc, err_acc;
  gboolean need_prepare, reject, use_events;
  guint n_singular, n_recoverable;
  guint64 n_accepted;       /* in this interval (fixed step: t = a + k·h) */
  guint64 steps_base;       /* steps + rejected at the last (re)init */

  /* The continuous extension of the last accepted step covers
   * [dense_t, t] as dense_t + θ·dense_h. */
  gboolean dense_valid;
  double dense_t, dense_h;
};

static HydOdeStatus
stepper_fail (HydOdeStepper *s, HydOdeStatus status)
{
  s->phase = PHASE_FAILED;
  s->result.t = s->t;
  return status;
}

/* The first regular sample at or after t (within 1e-9·Δ, as everywhere). */
static void
grid_from (HydOdeDriver *d, double t)
{
  double first = t - 1e-9 * d->out_dt;
  guint64 k = (guint64) MAX (0.0, ceil ((first - d->out_origin) / d->out_dt));

  while (k > 0 && sample_time (d, k - 1) >= first)
    k--;
  while (sample_time (d, k) < first)
    k++;
  d->k_next = k;
}

/* Enter the interval [bounds[iv], bounds[iv + 1]] at (s->t, s->y): the
 * problem's set_interval, the samples at its start, then the method starts
 * afresh (initial step, reset, event functions). */
static HydOdeStatus
interval_open (HydOdeStepper *s)
{
  HydOdeDriver *d = &s->d;
  const HydOdeOptions *o = &s->opt;
  const HydOdeMethod *m = d->method;
  HydOdeResult *r = &s->result;
  double a = g_array_index (s->bounds, double, s->iv);
  double b = g_array_index (s->bounds, double, s->iv + 1);
  int rc;

  /* Cancelled inside the last step: the samples it skipped must not come
   * out here with the interval's start values. */
  if (o->cancel != NULL && g_atomic_int_get (o->cancel) != 0)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      return fail (r, HYD_ODE_CANCELLED, N_("cancelled at t = %s"), TIME_TEXT (buf, s->t), NULL);
    }
  s->a = a;
  s->b = b;
  s->t = a;
  s->dense_valid = FALSE;
  d->t_lo = a;
  d->t_hi = b;
  if (d->problem->set_interval != NULL)
    d->problem->set_interval (a, b, d->problem->user);
  /* a breakpoint or a live change may switch discrete states (a button
   * pressed by a profile or in the GUI): settle them with the new piece */
  if (d->problem->event_located != NULL)
    {
      rc = d->problem->event_located (a, s->y, NULL, d->problem->user);
      if (rc != 0)
        return fail_event_handler (d, r, a, rc);
    }
  if (!emit_interval_start (d, a, s->y))
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      return fail (r, HYD_ODE_CANCELLED, N_("stopped by the output callback at t = %s"),
                   TIME_TEXT (buf, a), NULL);
    }

  s->hmax = o->max_step > 0.0 ? MIN (o->max_step, b - a) : b - a;
  rc = hyd_ode_driver_rhs (d, a, s->y, s->f0);
  if (rc < 0)
    return fail_callback (d, r, a);
  if (rc > 0)
    return fail_nonfinite (d, r, a);

  if (o->fixed_step > 0.0)
    s->h = o->fixed_step;
  else if (o->h0 > 0.0)
    s->h = MIN (o->h0, s->hmax);
  else
    {
      rc = initial_step (d, a, s->y, s->f0, s->hmax, &s->h);
      if (rc < 0)
        return fail_callback (d, r, a);
    }

  if (m->reset != NULL)
    m->reset (d->ws, d, a, s->y, s->f0);
  s->use_events = (o->events || d->problem->events_required) && d->problem->n_events > 0
                  && d->problem->events != NULL;
  if (s->use_events)
    {
      rc = eval_events (d, a, s->y, d->g_prev);
      if (rc != 0)
        return fail_callback (d, r, a);
    }

  s->need_prepare = TRUE;
  s->reject = FALSE;
  s->n_singular = 0;
  s->n_recoverable = 0;
  s->n_accepted = 0;
  s->h_acc = 0.0;
  s->err_acc = 0.0;
  s->phase = PHASE_STEP;
  return HYD_ODE_SUCCESS;
}

/* After an event cut the last step at (s->t, s->y): restart there, as at a
 * breakpoint (the method's history and step size start afresh). */
static HydOdeStatus
event_restart (HydOdeStepper *s)
{
  HydOdeDriver *d = &s->d;
  const HydOdeOptions *o = &s->opt;
  const HydOdeMethod *m = d->method;
  HydOdeResult *r = &s->result;
  double t = s->t;

  s->dense_valid = FALSE;
  int rc = hyd_ode_driver_rhs (d, t, s->y, s->f0);
  if (rc == 0)
    rc = eval_events (d, t, s->y, d->g_prev);
  if (rc != 0)
    return rc < 0 ? fail_callback (d, r, t) : fail_nonfinite (d, r, t);
  if (m->reset != NULL)
    m->reset (d->ws, d, t, s->y, s->f0);
  s->need_prepare = TRUE;
  s->reject = FALSE;
  s->h_acc = 0.0;
  if (o->fixed_step > 0.0)
    s->n_accepted = (guint64) floor ((t - s->a) / o->fixed_step + 1e-9);
  else
    {
      rc = initial_step (d, t, s->y, s->f0, s->hmax, &s->h);
      if (rc < 0)
        return fail_callback (d, r, t);
    }
  s->phase = PHASE_STEP;
  return HYD_ODE_SUCCESS;
}

/* The interval ended on b = s->t: the next one is entered at the next
 * advance; after the last, the sample at t_end. */
static HydOdeStatus
interval_close (HydOdeStepper *s)
{
  s->t = s->b;
  s->result.t = s->t;
  s->iv++;
  if (s->iv + 1 < s->bounds->len)
    {
      s->phase = PHASE_OPEN;
      return HYD_ODE_SUCCESS;
    }
  s->phase = PHASE_DONE;
  if (!emit (&s->d, s->opt.t_end, s->y))
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      return fail (&s->result, HYD_ODE_CANCELLED, N_("stopped by the output callback at t = %s"),
                   TIME_TEXT (buf, s->opt.t_end), NULL);
    }
  return HYD_ODE_SUCCESS;
}

/* One attempt inside the interval: accepted, rejected, cut by an event or
 * the interval's end. HYD_ODE_SUCCESS to go on. */
static HydOdeStatus
step (HydOdeStepper *s)
{
  HydOdeDriver *d = &s->d;
  const HydOdeOptions *o = &s->opt;
  const HydOdeMethod *m = d->method;
  HydOdeResult *r = &s->result;
  HydOdeStats *st = d->stats;
  guint n = d->n;
  gboolean fixed = o->fixed_step > 0.0;
  guint64 max_steps = o->max_steps > 0 ? o->max_steps : DEFAULT_MAX_STEPS;
  double q = m->error_order;
  double a = s->a, b = s->b, t = s->t, h = s->h;
  double *y = s->y, *y_new = s->y_new;
  int rc;
  char tbuf[G_ASCII_DTOSTR_BUF_SIZE], hbuf[G_ASCII_DTOSTR_BUF_SIZE];

  if (o->cancel != NULL && g_atomic_int_get (o->cancel) != 0)
    return fail (r, HYD_ODE_CANCELLED, N_("cancelled at t = %s"), TIME_TEXT (tbuf, t), NULL);
  if (st->steps + st->rejected - s->steps_base >= max_steps)
    {
      g_autofree char *steps = g_strdup_printf ("%" G_GUINT64_FORMAT, max_steps);
      fail (r, HYD_ODE_TOO_MANY_STEPS, N_("too many steps (%s) before t = %s"), steps,
            TIME_TEXT (tbuf, t), NULL);
      append_worst (d, r, d->err_state);
      return r->status;
    }
  /* A remainder below the time resolution is no step. */
  if (b - t <= 4.0 * DBL_EPSILON * fabs (b))
    return interval_close (s);
  if (s->need_prepare)
    {
      s->dense_valid = FALSE;
      rc = m->prepare (d->ws, d, t, y, s->f0);
      if (rc < 0)
        return fail_callback (d, r, t);
      if (rc > 0)
        return fail_nonfinite (d, r, t);
      s->need_prepare = FALSE;
    }

  double t_new;
  if (step_underflows (fixed ? o->fixed_step : h, t))
    {
      fail (r, HYD_ODE_STEP_UNDERFLOW, N_("step size underflow at t = %s (h = %s)"),
            TIME_TEXT (tbuf, t), STEP_TEXT (hbuf, fixed ? o->fixed_step : h), NULL);
      append_worst (d, r, d->err_state);
      return r->status;
    }
  if (fixed)
    {
      /* Constant step from a; the one that would cross b ends on it. */
      t_new = a + (double) (s->n_accepted + 1) * o->fixed_step;
      if (t_new >= b - 1e-6 * o->fixed_step)
        t_new = b;
      h = t_new - t;
    }
  else
    {
      /* HW rodas.f: the last step of the interval ends on b. */
      if (t + 1.0001 * h >= b)
        {
          h = b - t;
          t_new = b;
        }
      else
        t_new = t + h;
    }

  double err = 0.0;
  s->dense_valid = FALSE;
  d->norm_state = -1;
  HydAttempt res = m->attempt (d->ws, d, t, y, s->f0, h, y_new, &err);
  if (res == HYD_ATTEMPT_OK)
    {
      int bad = first_nonfinite (y_new, n);
      if (bad < 0 && !isfinite (err))
        bad = d->err_state;
      if (bad >= 0)
        {
          d->bad_state = bad;
          d->fail_t = t_new;
          res = HYD_ATTEMPT_RECOVERABLE;
        }
    }
  /* f at the new point, before it is accepted: a failure there is a
   * rejection, not a dead end. (At b the next interval evaluates it.) */
  if (res == HYD_ATTEMPT_OK && (fixed || err <= 1.0) && t_new < b)
    {
      const double *fsal = m->fsal != NULL ? m->fsal (d->ws) : NULL;
      if (fsal != NULL)
        memcpy (s->f_new, fsal, n * sizeof (double));
      else
        {
          rc = hyd_ode_driver_rhs (d, t_new, y_new, s->f_new);
          if (rc < 0)
            res = HYD_ATTEMPT_FATAL;
          else if (rc > 0)
            res = HYD_ATTEMPT_RECOVERABLE;
        }
    }

  switch (res)
    {
    case HYD_ATTEMPT_FATAL:
      return fail_callback (d, r, t);

    case HYD_ATTEMPT_SINGULAR:
      st->rejected++;
      if (G_UNLIKELY (o->step_log != NULL))
        step_log_record (d, o->step_log, t, h, err, FALSE, HYD_STEP_REJECTED_SINGULAR);
      if (fixed || ++s->n_singular > MAX_SINGULAR)
        {
          g_autofree char *name = state_label (d, d->singular_state);
          fail (r, HYD_ODE_SINGULAR, N_("singular iteration matrix at t = %s (h = %s)"),
                TIME_TEXT (tbuf, t), STEP_TEXT (hbuf, h), NULL);
          r->worst_state = name != NULL ? d->singular_state : -1;
          if (name != NULL)
            message_append (r, N_(", no pivot for %s"), name, NULL);
          return r->status;
        }
      s->h = 0.5 * h;
      s->reject = TRUE;
      return HYD_ODE_SUCCESS;

    case HYD_ATTEMPT_DIVERGED:
      /* Newton failed to converge: halve (an underflow ends it); a fixed
       * step cannot shrink, so that is the end of the run. */
      st->rejected++;
      if (G_UNLIKELY (o->step_log != NULL))
        step_log_record (d, o->step_log, t, h, err, FALSE, HYD_STEP_REJECTED_NEWTON);
      if (o->cancel != NULL && g_atomic_int_get (o->cancel) != 0)
        return fail (r, HYD_ODE_CANCELLED, N_("cancelled at t = %s"), TIME_TEXT (tbuf, t), NULL);
      if (fixed)
        {
          fail (r, HYD_ODE_NO_CONVERGENCE,
                N_("the Newton iteration did not converge at t = %s with the fixed step %s"),
                TIME_TEXT (tbuf, t), STEP_TEXT (hbuf, h), NULL);
          g_autofree char *where = m->diverged_at != NULL ? m->diverged_at (d->ws) : NULL;
          if (where != NULL)
            message_append (r, N_(" (the iteration of %s)"), where, NULL);
          else
            append_worst (d, r, d->err_state);
          return r->status;
        }
      s->h = 0.5 * h;
      s->reject = TRUE;
      return HYD_ODE_SUCCESS;

    case HYD_ATTEMPT_RECOVERABLE:
      st->rejected++;
      if (G_UNLIKELY (o->step_log != NULL))
        step_log_record (d, o->step_log, t, h, err, FALSE, HYD_STEP_REJECTED_FAILED);
      if (fixed || ++s->n_recoverable >= MAX_RECOVERABLE)
        return fail_nonfinite (d, r, t);
      s->h = 0.25 * h;
      s->reject = TRUE;
      return HYD_ODE_SUCCESS;

    case HYD_ATTEMPT_OK:
    default:
      break;
    }
  s->n_singular = 0;
  s->n_recoverable = 0;
  d->bad_state = -1;
  d->fail_t = -INFINITY;

  double h_next = h;
  if (!fixed && m->propose != NULL)
    {
      double fac = m->propose (d->ws, d, h, err, err <= 1.0, s->reject);
      if (err > 1.0)
        {
          st->rejected++;
          if (G_UNLIKELY (o->step_log != NULL))
            step_log_record (d, o->step_log, t, h, err, TRUE, HYD_STEP_REJECTED_ERROR);
          s->reject = TRUE;
          s->h = h * fac;
          return HYD_ODE_SUCCESS;
        }
      h_next = MIN (h * fac, s->hmax);
      s->reject = FALSE;
    }
  else if (!fixed)
    {
      /* HW rodas.f step-size selection. */
      double fac = CLAMP (pow (err, 1.0 / q) / CTRL_SAFE,
                          CTRL_FAC_MIN, CTRL_FAC_MAX);
      h_next = h / fac;
      if (err > 1.0)
        {
          st->rejected++;
          if (G_UNLIKELY (o->step_log != NULL))
            step_log_record (d, o->step_log, t, h, err, TRUE, HYD_STEP_REJECTED_ERROR);
          s->reject = TRUE;
          s->h = s->n_accepted == 0 ? 0.1 * h : h_next;
          return HYD_ODE_SUCCESS;
        }
      if (s->n_accepted > 0)
        {
          /* Gustafsson's predictive controller (rodas.f PRED). */
          double facgus = (s->h_acc / h) * pow (err * err / s->err_acc, 1.0 / q)
                          / CTRL_SAFE;
          facgus = CLAMP (facgus, CTRL_FAC_MIN, CTRL_FAC_MAX);
          fac = MAX (fac, facgus);
          h_next = h / fac;
        }
      s->h_acc = h;
      s->err_acc = MAX (1e-2, err);
      h_next = MIN (h_next, s->hmax);
      if (s->reject)
        h_next = MIN (h_next, h);
      s->reject = FALSE;
    }

  /* An event inside the step: cut the step there; the method restarts at
   * it (event_restart) as at a breakpoint. */
  if (s->use_events)
    {
      double t_ev = t_new;
      rc = m->step_events != NULL && m->step_events (d->ws, d->g_new) == 0
           ? 0 : eval_events (d, t_new, y_new, d->g_new);
      if (rc == 0)
        rc = locate_event (d, t, h, &t_ev);
      if (rc < 0)
        return fail_callback (d, r, t);
      if (rc == 1)
        {
          st->steps++;
          st->events++;
          if (G_UNLIKELY (o->step_log != NULL))
            step_log_record (d, o->step_log, t, h, err, TRUE, HYD_STEP_ACCEPTED);
          s->n_accepted++;
          rc = emit_step_samples (d, t, h, t_ev, b, d->y_event);
          if (rc != 0)
            return rc < 0 ? fail_callback (d, r, t) : fail_nonfinite (d, r, t);
          s->t = t_ev;
          s->result.t = t_ev;
          memcpy (y, d->y_event, n * sizeof (double));
          if (d->problem->event_located != NULL)
            {
              /* which functions crossed by t_ev, and which way */
              int erc = eval_events (d, t_ev, y, d->g_try);
              for (guint k = 0; k < d->problem->n_events; k++)
                d->crossed[k] = crosses (d->g_prev[k], d->g_try[k]) ? (d->g_prev[k] < 0.0 ? 1 : -1) : 0;
              if (erc == 0)
                erc = d->problem->event_located (t_ev, y, d->crossed, d->problem->user);
              if (erc != 0)
                return fail_event_handler (d, r, t_ev, erc);
            }
          s->dense_valid = TRUE;
          s->dense_t = t;
          s->dense_h = h;
          s->phase = PHASE_EVENT;
          if (d->stopped)
            return fail (r, HYD_ODE_CANCELLED, N_("stopped by the output callback at t = %s"),
                         TIME_TEXT (tbuf, t_ev), NULL);
          return HYD_ODE_SUCCESS;
        }
      memcpy (d->g_prev, d->g_new, d->problem->n_events * sizeof (double));
    }

  /* Accepted. */
  st->steps++;
  if (G_UNLIKELY (o->step_log != NULL))
    step_log_record (d, o->step_log, t, h, err, TRUE, HYD_STEP_ACCEPTED);
  s->n_accepted++;
  if (m->accept != NULL)
    m->accept (d->ws, d, t_new, y_new, t_new < b ? s->f_new : NULL);
  rc = emit_step_samples (d, t, h, t_new, b, y_new);
  if (rc < 0)
    return fail_callback (d, r, t);
  if (rc > 0)
    return fail_nonfinite (d, r, t);
  s->t = t_new;
  s->result.t = t_new;
  memcpy (y, y_new, n * sizeof (double));
  s->dense_valid = TRUE;
  s->dense_t = t;
  s->dense_h = h;
  s->h = h_next;
  if (d->stopped)
    return fail (r, HYD_ODE_CANCELLED, N_("stopped by the output callback at t = %s"),
                 TIME_TEXT (tbuf, t_new), NULL);
  if (t_new < b)
    {
      double *tmp = s->f0;
      s->f0 = s->f_new;
      s->f_new = tmp;
      s->need_prepare = TRUE;
      return HYD_ODE_SUCCESS;
    }
  return interval_close (s);
}

static void
stepper_free_arrays (HydOdeStepper *s)
{
  HydOdeDriver *d = &s->d;

  if (d->ws != NULL)
    d->method->workspace_free (d->ws);
  fd_groups_clear (d);
  g_free (d->fd_y);
  g_free (d->fd_f);
  g_free (d->g_prev);
  g_free (d->g_new);
  g_free (d->g_try);
  g_free (d->crossed);
  g_free (d->y_event);
  g_free (d->y_out);
  g_free (s->atol);
  g_free (s->breakpoints);
  if (s->bounds != NULL)
    g_array_unref (s->bounds);
  g_free (s->y);
  g_free (s->f0);
  g_free (s->f_new);
  g_free (s->y_new);
  hyd_ode_result_clear (&s->result);
}

static HydOdeStepper *
stepper_new (const HydOdeMethod *m, const HydOdeProblem *problem,
             const HydOdeOptions *options, const double *y0, GError **error)
{
  g_autofree char *why = check_input (m, problem, options, y0);
  if (why != NULL)
    {
      g_set_error (error, HYD_SOLVER_ERROR, HYD_ODE_BAD_INPUT, "%s", why);
      return NULL;
    }

  HydOdeStepper *s = g_new0 (HydOdeStepper, 1);
  HydOdeDriver *d = &s->d;
  guint n = problem->n, ne = problem->n_events;

  s->opt = *options;
  if (options->atol != NULL)
    s->opt.atol = s->atol = g_memdup2 (options->atol, n * sizeof (double));
  s->opt.breakpoints = s->breakpoints
    = g_memdup2 (options->breakpoints, options->n_breakpoints * sizeof (double));
  s->result.worst_state = -1;
  s->result.t = options->t0;

  d->problem = problem;
  d->opt = &s->opt;
  d->method = m;
  d->n = n;
  d->stats = &s->result.stats;
  d->bad_state = -1;
  d->err_state = -1;
  d->norm_state = -1;
  d->singular_state = -1;
  d->fail_t = -INFINITY;
  d->out_dt = options->output_interval;
  d->out_origin = options->output_origin_set ? options->output_origin : options->t0;
  d->sparse = use_sparse (problem, options);
  d->result = &s->result;
  d->fd_y = g_new (double, n);
  d->fd_f = g_new (double, n);
  d->g_prev = g_new0 (double, ne + 1);
  d->g_new = g_new0 (double, ne + 1);
  d->g_try = g_new0 (double, ne + 1);
  d->crossed = g_new0 (int, ne + 1);
  d->y_event = g_new0 (double, n + 1);
  d->y_out = g_new (double, n);

  s->y = g_memdup2 (y0, n * sizeof (double));
  s->f0 = g_new (double, n);
  s->f_new = g_new (double, n);
  s->y_new = g_new (double, n);
  s->t = options->t0;
  s->bounds = integration_bounds (&s->opt);
  s->iv = 0;
  s->phase = PHASE_OPEN;

  if (d->out_dt > 0.0)
    {
      /* t_k = t0 + k·Δ while t_k < t_end − 1e-9·Δ (circuit-format.md). */
      double limit = options->t_end - 1e-9 * d->out_dt;
      guint64 k = (guint64) MAX (0.0, ceil ((limit - d->out_origin) / d->out_dt));
      while (k > 0 && !(sample_time (d, k - 1) < limit))
        k--;
      while (sample_time (d, k) < limit)
        k++;
      d->n_regular = k;
      /* On a grid that starts before t0 (options.output_origin), the first
       * sample is the first at t0 or after. */
      grid_from (d, options->t0);
    }

  d->ws = m->workspace_new (m, n);
  if (m->info.needs_model)
    {
      g_autofree char *why_not = NULL;
      if (problem->tlm == NULL || !hyd_tlm_attach (d->ws, problem, options, y0, &why_not))
        {
          g_set_error (error, HYD_SOLVER_ERROR, HYD_ODE_BAD_INPUT,
                       "the %s solver: %s", m->info.id,
                       why_not != NULL ? why_not
                       : "it steps the components of a circuit, and this problem is an ODE without them");
          hyd_ode_stepper_free (s);
          return NULL;
        }
    }
  return s;
}

HydOdeStepper *
hyd_ode_stepper_new (const char *solver_id, const HydOdeProblem *problem,
                     const HydOdeOptions *options, const double *y0, GError **error)
{
  g_return_val_if_fail (problem != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (y0 != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (solver_id == NULL)
    solver_id = HYD_SOLVER_DEFAULT;
  const HydOdeMethod *m = method_lookup (solver_id);
  if (m == NULL)
    {
      g_set_error (error, HYD_SOLVER_ERROR, HYD_ODE_UNKNOWN_SOLVER,
                   "unknown solver “%s”", solver_id);
      return NULL;
    }
  return stepper_new (m, problem, options, y0, error);
}

HydOdeStepper *
hyd_ode_stepper_new_method (const HydOdeMethod *method, const HydOdeProblem *problem,
                            const HydOdeOptions *options, const double *y0, GError **error)
{
  g_return_val_if_fail (method != NULL, NULL);
  g_return_val_if_fail (problem != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (y0 != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return stepper_new (method, problem, options, y0, error);
}

void
hyd_ode_stepper_free (HydOdeStepper *stepper)
{
  if (stepper == NULL)
    return;
  stepper_free_arrays (stepper);
  g_free (stepper);
}

/* The state at t_out, inside the last accepted step or at its end. */
static int
stepper_output (HydOdeStepper *s, double t_out, double *y_out)
{
  HydOdeDriver *d = &s->d;

  if (y_out == NULL)
    return 0;
  if (t_out == s->t || !s->dense_valid || !(t_out < s->t))
    {
      memcpy (y_out, s->y, d->n * sizeof (double));
      return 0;
    }
  double theta = CLAMP ((t_out - s->dense_t) / s->dense_h, 0.0, 1.0);
  int rc = d->method->dense (d->ws, d, theta, y_out);
  if (rc != 0)
    return rc;
  int bad = first_nonfinite (y_out, d->n);
  return bad >= 0 ? 1 : 0;
}

HydOdeStatus
hyd_ode_stepper_advance (HydOdeStepper *s, double t_out, double *y_out)
{
  g_return_val_if_fail (s != NULL, HYD_ODE_BAD_INPUT);

  HydOdeResult *r = &s->result;
  gint64 start = g_get_monotonic_time ();
  HydOdeStatus status = HYD_ODE_SUCCESS;

  if (s->phase == PHASE_FAILED)
    return r->status;
  /* Before the last step's start or after t_end: nothing to give. */
  double t_min = s->dense_valid ? s->dense_t : s->t;
  if (!(t_out >= t_min) || !(t_out <= s->opt.t_end))
    {
      char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE], c[G_ASCII_DTOSTR_BUF_SIZE];
      return fail (r, HYD_ODE_BAD_INPUT,
                   N_("t_out = %s is outside [%s, %s], the last step and what is left up to t_end"),
                   TIME_TEXT (a, t_out), TIME_TEXT (b, t_min), TIME_TEXT (c, s->opt.t_end), NULL);
    }

  while (status == HYD_ODE_SUCCESS && s->t < t_out)
    {
      switch (s->phase)
        {
        case PHASE_OPEN:
          status = interval_open (s);
          break;
        case PHASE_EVENT:
          status = event_restart (s);
          break;
        case PHASE_STEP:
          status = step (s);
          break;
        case PHASE_DONE:
        case PHASE_FAILED:
        default:
          g_assert_not_reached ();
        }
    }
  if (status == HYD_ODE_SUCCESS)
    {
      int rc = stepper_output (s, t_out, y_out);
      if (rc < 0)
        status = fail_callback (&s->d, r, s->t);
      else if (rc > 0)
        status = fail_nonfinite (&s->d, r, s->t);
    }
  r->stats.wall_s += (g_get_monotonic_time () - start) * 1e-6;
  if (status != HYD_ODE_SUCCESS)
    return stepper_fail (s, status);
  r->status = HYD_ODE_SUCCESS;
  g_clear_pointer (&r->message, g_free);
  g_clear_pointer (&r->message_parts, g_strfreev);
  r->worst_state = -1;
  return HYD_ODE_SUCCESS;
}

HydOdeStatus
hyd_ode_stepper_reinit (HydOdeStepper *s, double t, const double *y)
{
  g_return_val_if_fail (s != NULL, HYD_ODE_BAD_INPUT);
  g_return_val_if_fail (y != NULL, HYD_ODE_BAD_INPUT);

  HydOdeDriver *d = &s->d;
  HydOdeResult *r = &s->result;

  if (!isfinite (t) || !(t < s->opt.t_end))
    {
      char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
      return fail (r, HYD_ODE_BAD_INPUT, N_("reinit at t = %s: it must be finite and before t_end (%s)"),
                   TIME_TEXT (a, t), TIME_TEXT (b, s->opt.t_end), NULL);
    }
  int bad = first_nonfinite (y, d->n);
  if (bad >= 0)
    {
      g_autofree char *name = state_label (d, bad);
      char a[G_ASCII_DTOSTR_BUF_SIZE];
      return fail (r, HYD_ODE_BAD_INPUT, N_("reinit at t = %s: %s is not finite"), TIME_TEXT (a, t), name,
                   NULL);
    }

  /* As a new integration from (t, y) on the same sample grid: the bounds
   * as hyd_ode_solve would make them with t0 = t. */
  s->opt.t0 = t;
  g_array_unref (s->bounds);
  s->bounds = integration_bounds (&s->opt);
  s->iv = 0;
  s->t = t;
  memcpy (s->y, y, d->n * sizeof (double));
  s->phase = PHASE_OPEN;
  s->dense_valid = FALSE;
  s->steps_base = r->stats.steps + r->stats.rejected;
  d->stopped = FALSE;
  d->bad_state = -1;
  d->err_state = -1;
  d->norm_state = -1;
  d->singular_state = -1;
  d->fail_t = -INFINITY;
  if (d->out_dt > 0.0)
    grid_from (d, t);
  r->status = HYD_ODE_SUCCESS;
  r->t = t;
  r->worst_state = -1;
  g_clear_pointer (&r->message, g_free);
  g_clear_pointer (&r->message_parts, g_strfreev);
  return HYD_ODE_SUCCESS;
}

void
hyd_ode_stepper_set_breakpoints (HydOdeStepper *s, const double *breakpoints, guint n)
{
  g_return_if_fail (s != NULL);
  g_return_if_fail (n == 0 || breakpoints != NULL);

  g_free (s->breakpoints);
  s->opt.breakpoints = s->breakpoints = g_memdup2 (breakpoints, n * sizeof (double));
  s->opt.n_breakpoints = n;
}

const HydOdeStats *
hyd_ode_stepper_get_stats (const HydOdeStepper *s)
{
  g_return_val_if_fail (s != NULL, NULL);
  return &s->result.stats;
}

const HydOdeResult *
hyd_ode_stepper_get_result (const HydOdeStepper *s)
{
  g_return_val_if_fail (s != NULL, NULL);
  return &s->result;
}

double
hyd_ode_stepper_get_time (const HydOdeStepper *s)
{
  g_return_val_if_fail (s != NULL, NAN);
  return s->t;
}

/* hyd_ode_solve and hyd_ode_solve_method: one stepper from t0 to t_end.
 * m NULL: solver_id is unknown. */
static HydOdeStatus
solve (const HydOdeMethod *m, const char *solver_id, const HydOdeProblem *problem,
       const HydOdeOptions *options, double *y, HydOdeResult *result)
{
  HydOdeResult local = { 0 };
  gint64 start = g_get_monotonic_time ();
  g_autoptr (GError) error = NULL;

  if (result == NULL)
    result = &local;
  memset (result, 0, sizeof *result);
  result->worst_state = -1;
  result->status = HYD_ODE_BAD_INPUT;
  g_return_val_if_fail (problem != NULL, HYD_ODE_BAD_INPUT);
  g_return_val_if_fail (options != NULL, HYD_ODE_BAD_INPUT);
  g_return_val_if_fail (y != NULL, HYD_ODE_BAD_INPUT);
  result->status = HYD_ODE_SUCCESS;
  result->t = options->t0;

  g_autoptr (HydOdeStepper) s = NULL;
  if (m == NULL)
    fail (result, HYD_ODE_UNKNOWN_SOLVER, N_("unknown solver “%s”"), solver_id, NULL);
  else if ((s = stepper_new (m, problem, options, y, &error)) == NULL)
    fail (result, (HydOdeStatus) error->code, "%s", error->message, NULL);
  else
    {
      hyd_ode_stepper_advance (s, options->t_end, NULL);
      memcpy (y, s->y, problem->n * sizeof (double));
      *result = s->result;
      memset (&s->result, 0, sizeof s->result);
    }

  result->stats.wall_s = (g_get_monotonic_time () - start) * 1e-6;
  HydOdeStatus status = result->status;
  if (result == &local)
    hyd_ode_result_clear (&local);
  return status;
}

HydOdeStatus
hyd_ode_solve (const char *solver_id,
               const HydOdeProblem *problem,
               const HydOdeOptions *options,
               double *y,
               HydOdeResult *result)
{
  if (solver_id == NULL)
    solver_id = HYD_SOLVER_DEFAULT;
  return solve (method_lookup (solver_id), solver_id, problem, options, y, result);
}

HydOdeStatus
hyd_ode_solve_method (const HydOdeMethod *method,
                      const HydOdeProblem *problem,
                      const HydOdeOptions *options,
                      double *y,
                      HydOdeResult *result)
{
  if (method == NULL && result != NULL)
    {
      memset (result, 0, sizeof *result);
      result->worst_state = -1;
      result->status = HYD_ODE_BAD_INPUT;
    }
  g_return_val_if_fail (method != NULL, HYD_ODE_BAD_INPUT);
  return solve (method, method->info.id, problem, options, y, result);
}

const HydOdeMethod *
hyd_ode_method_lookup (const char *id)
{
  return method_lookup (id);
}

int
hyd_ode_fd_jacobian (const HydOdeProblem *problem, const HydOdeOptions *options,
                     gboolean sparse, double t, const double *y, double *J,
                     double *dfdt, guint64 *f_evals)
{
  g_return_val_if_fail (problem != NULL && options != NULL && y != NULL && J != NULL, -1);
  g_return_val_if_fail (!sparse || has_pattern (problem), -1);

  guint n = problem->n;
  HydOdeStats stats = { 0 };
  HydOdeDriver d = {
    .problem = problem,
    .opt = options,
    .n = n,
    .stats = &stats,
    .bad_state = -1,
    .err_state = -1,
    .norm_state = -1,
    .singular_state = -1,
    .fail_t = -INFINITY,
    .t_lo = options->t0,
    .t_hi = MAX (options->t_end, t),
    .sparse = sparse,
  };
  g_autofree double *fd_y = d.fd_y = g_new (double, n);
  g_autofree double *fd_f = d.fd_f = g_new (double, n);
  g_autofree double *f0 = g_new (double, n);
  HydJac jac = {
    .n = n,
    .sparse = sparse,
    .dense = sparse ? NULL : J,
    .nnz = sparse ? problem->colptr[n] : 0,
    .colptr = sparse ? problem->colptr : NULL,
    .rowind = sparse ? problem->rowind : NULL,
    .values = sparse ? J : NULL,
  };
  int rc = hyd_ode_driver_rhs (&d, t, y, f0);
  if (rc == 0)
    rc = sparse ? fd_jacobian_sparse (&d, t, y, f0, &jac, dfdt)
                : fd_jacobian (&d, t, y, f0, &jac, dfdt);
  fd_groups_clear (&d);
  if (f_evals != NULL)
    *f_evals = stats.f_evals;
  return rc;
}
