/* hyd-ode.c — the solver driver: input checks, integration intervals between
 * breakpoints, step-size control, output samples, cancellation, statistics
 * and failure statuses. The methods themselves are vtables
 * (hyd-ode-private.h); the step-size controller is that of HW rodas.f. */
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
  int singular_state;       /* pivot column of the last singular LU, or −1 */
  int last_rc;              /* last callback return value */
  const char *last_cb;      /* which callback returned it */
  double fail_t;            /* time of the last failed evaluation */

  double *fd_y, *fd_f;      /* finite-difference work */
  double *y_out;            /* dense output sample */

  /* Output samples. */
  double out_dt;            /* 0: every step */
  guint64 n_regular;        /* samples t0 + k·Δ, k < n_regular */
  guint64 k_next;
  gboolean stopped;         /* the output callback asked to stop */
};

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
    default:                      return "unknown-status";
    }
}

void
hyd_ode_options_init (HydOdeOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->rtol = 1e-6;
}

void
hyd_ode_result_clear (HydOdeResult *result)
{
  if (result == NULL)
    return;
  g_clear_pointer (&result->message, g_free);
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

/* Forward differences, column by column; the increment follows the state's
 * magnitude or, for small states, the scale where atol takes over. */
static int
fd_jacobian (HydOdeDriver *d, double t, const double *y, const double *f0,
             HydJac *Jm, double *dfdt)
{
  double *J = Jm->dense;
  const HydOdeOptions *o = d->opt;
  guint n = d->n;
  double sqeps = sqrt (DBL_EPSILON);

  memcpy (d->fd_y, y, n * sizeof (double));
  for (guint j = 0; j < n; j++)
    {
      double yj = y[j];
      double scale = fabs (yj);
      if (o->atol != NULL && o->rtol > 0.0)
        scale = MAX (scale, o->atol[j] / o->rtol);
      if (!(scale > 0.0) || !isfinite (scale))
        scale = 1e-5;
      double delta = sqeps * scale;
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
    {
      /* Step in t scaled by the interval; backwards at its end. */
      double dt = sqeps * MAX (fabs (t), d->t_hi - d->t_lo);
      double tt = t + dt;
      if (tt > d->t_hi)
        tt = t - dt;
      dt = tt - t;
      int rc = hyd_ode_driver_rhs (d, tt, y, d->fd_f);
      if (rc != 0)
        return rc;
      for (guint i = 0; i < n; i++)
        dfdt[i] = (d->fd_f[i] - f0[i]) / dt;
    }
  return 0;
}

HydJac *
hyd_ode_driver_jac_new (HydOdeDriver *d)
{
  return hyd_jac_new_dense (d->n);
}

int
hyd_ode_driver_jacobian (HydOdeDriver *d, double t, const double *y,
                         const double *f0, HydJac *J, double *dfdt)
{
  const HydOdeProblem *p = d->problem;
  guint n = d->n;
  int rc;

  d->stats->jac_evals++;
  if (d->opt->fd_jacobian || p->jac == NULL)
    rc = fd_jacobian (d, t, y, f0, J, dfdt);
  else
    {
      if (dfdt != NULL)
        memset (dfdt, 0, n * sizeof (double));
      rc = p->jac (t, y, J->dense, dfdt, p->user);
      if (rc != 0)
        {
          d->last_rc = rc;
          d->last_cb = "Jacobian";
          d->fail_t = t;
        }
    }
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
  return sqrt (sum / d->n);
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

static HydOdeStatus G_GNUC_PRINTF (3, 4)
fail (HydOdeResult *r, HydOdeStatus status, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_free (r->message);
  r->message = g_strdup_vprintf (format, args);
  va_end (args);
  r->status = status;
  return status;
}

/* "; largest error contribution: C1.x" or "" */
static char *
worst_suffix (HydOdeDriver *d, HydOdeResult *r, int state)
{
  g_autofree char *name = state_label (d, state);

  r->worst_state = name != NULL ? state : -1;
  if (name == NULL)
    return g_strdup ("");
  return g_strdup_printf ("; largest error contribution: %s", name);
}

/* " (last good state at t = …)" when the failure came later. */
static char *
last_good_suffix (const HydOdeDriver *d, double t_good)
{
  if (d->fail_t > t_good)
    return g_strdup_printf (" (last good state at t = %.9g)", t_good);
  return g_strdup ("");
}

static HydOdeStatus
fail_nonfinite (HydOdeDriver *d, HydOdeResult *r, double t_good)
{
  double t = MAX (d->fail_t, t_good);
  g_autofree char *good = last_good_suffix (d, t_good);

  if (d->bad_state >= 0)
    {
      g_autofree char *name = state_label (d, d->bad_state);
      r->worst_state = d->bad_state;
      return fail (r, HYD_ODE_NONFINITE, "non-finite value in %s at t = %.9g%s",
                   name, t, good);
    }
  g_autofree char *suffix = worst_suffix (d, r, d->err_state);
  return fail (r, HYD_ODE_NONFINITE,
               "the %s failed (code %d) on every retry at t = %.9g%s%s",
               d->last_cb != NULL ? d->last_cb : "right-hand side",
               d->last_rc, t, good, suffix);
}

static HydOdeStatus
fail_callback (HydOdeDriver *d, HydOdeResult *r, double t_good)
{
  g_autofree char *good = last_good_suffix (d, t_good);

  return fail (r, HYD_ODE_CALLBACK_FAILED, "the %s returned %d at t = %.9g%s",
               d->last_cb != NULL ? d->last_cb : "right-hand side",
               d->last_rc, MAX (d->fail_t, t_good), good);
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
  return d->opt->t0 + (double) k * d->out_dt;
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
  if (o->output_interval > 0.0
      && (o->t_end - o->t0) / o->output_interval > 1e12)
    return g_strdup_printf ("output_interval %g gives too many samples",
                            o->output_interval);
  if (fixed && m->info.multistep)
    return g_strdup_printf ("solver “%s” is a multistep method and has no "
                            "fixed-step mode", m->info.id);
  if (!fixed && !m->info.adaptive)
    return g_strdup_printf ("solver “%s” needs a fixed step", m->info.id);
  if (m->info.implicit && p->jac == NULL && !o->fd_jacobian)
    return g_strdup ("the problem has no Jacobian (use fd_jacobian)");
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
    h1 = pow (0.01 / der12, 1.0 / d->method->order);
  *h_out = MIN (MIN (100.0 * h, h1), hmax);
  return 0;
}

static inline gboolean
step_underflows (double h, double t)
{
  return h <= 10.0 * DBL_EPSILON * fabs (t) || h < 1e3 * DBL_MIN;
}

/* Integrate over [a, b], ending exactly on b. On failure y and *t_good keep
 * the last accepted state. */
static HydOdeStatus
integrate_interval (HydOdeDriver *d, HydOdeResult *r, double a, double b,
                    double *y, double *t_good)
{
  const HydOdeOptions *o = d->opt;
  const HydOdeMethod *m = d->method;
  HydOdeStats *st = d->stats;
  guint n = d->n;
  gboolean fixed = o->fixed_step > 0.0;
  guint64 max_steps = o->max_steps > 0 ? o->max_steps : DEFAULT_MAX_STEPS;
  double hmax = o->max_step > 0.0 ? MIN (o->max_step, b - a) : b - a;
  double q = m->error_order;
  g_autofree double *f0 = g_new (double, n);
  g_autofree double *f_new = g_new (double, n);
  g_autofree double *y_new = g_new (double, n);
  double t = a, h;
  int rc;

  rc = hyd_ode_driver_rhs (d, t, y, f0);
  if (rc < 0)
    return fail_callback (d, r, t);
  if (rc > 0)
    return fail_nonfinite (d, r, t);

  if (fixed)
    h = o->fixed_step;
  else if (o->h0 > 0.0)
    h = MIN (o->h0, hmax);
  else
    {
      rc = initial_step (d, t, y, f0, hmax, &h);
      if (rc < 0)
        return fail_callback (d, r, t);
    }

  if (m->reset != NULL)
    m->reset (d->ws, d, t, y, f0);

  gboolean need_prepare = TRUE, reject = FALSE;
  guint n_singular = 0, n_recoverable = 0;
  guint64 n_accepted = 0;   /* in this interval (fixed step: t = a + k·h) */
  double h_acc = 0.0, err_acc = 0.0;

  while (t < b)
    {
      if (o->cancel != NULL && g_atomic_int_get (o->cancel) != 0)
        return fail (r, HYD_ODE_CANCELLED, "cancelled at t = %.9g", t);
      if (st->steps + st->rejected >= max_steps)
        {
          g_autofree char *suffix = worst_suffix (d, r, d->err_state);
          return fail (r, HYD_ODE_TOO_MANY_STEPS,
                       "too many steps (%" G_GUINT64_FORMAT ") before "
                       "t = %.9g%s", max_steps, t, suffix);
        }
      /* A remainder below the time resolution is no step. */
      if (b - t <= 4.0 * DBL_EPSILON * fabs (b))
        {
          t = b;
          break;
        }
      if (need_prepare)
        {
          rc = m->prepare (d->ws, d, t, y, f0);
          if (rc < 0)
            return fail_callback (d, r, t);
          if (rc > 0)
            return fail_nonfinite (d, r, t);
          need_prepare = FALSE;
        }

      double t_new;
      if (step_underflows (fixed ? o->fixed_step : h, t))
        {
          g_autofree char *suffix = worst_suffix (d, r, d->err_state);
          return fail (r, HYD_ODE_STEP_UNDERFLOW,
                       "step size underflow at t = %.9g (h = %.3g)%s",
                       t, fixed ? o->fixed_step : h, suffix);
        }
      if (fixed)
        {
          /* Constant step from a; the one that would cross b ends on it. */
          t_new = a + (double) (n_accepted + 1) * o->fixed_step;
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
      HydAttempt res = m->attempt (d->ws, d, t, y, f0, h, y_new, &err);
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
          rc = hyd_ode_driver_rhs (d, t_new, y_new, f_new);
          if (rc < 0)
            res = HYD_ATTEMPT_FATAL;
          else if (rc > 0)
            res = HYD_ATTEMPT_RECOVERABLE;
        }

      switch (res)
        {
        case HYD_ATTEMPT_FATAL:
          return fail_callback (d, r, t);

        case HYD_ATTEMPT_SINGULAR:
          st->rejected++;
          if (fixed || ++n_singular > MAX_SINGULAR)
            {
              g_autofree char *name = state_label (d, d->singular_state);
              r->worst_state = name != NULL ? d->singular_state : -1;
              return fail (r, HYD_ODE_SINGULAR,
                           "singular iteration matrix at t = %.9g (h = %.3g)%s%s",
                           t, h, name != NULL ? ", no pivot for " : "",
                           name != NULL ? name : "");
            }
          h *= 0.5;
          reject = TRUE;
          continue;

        case HYD_ATTEMPT_DIVERGED:
          /* Newton failed to converge: halve (an underflow ends it). */
          st->rejected++;
          h *= 0.5;
          reject = TRUE;
          continue;

        case HYD_ATTEMPT_RECOVERABLE:
          st->rejected++;
          if (fixed || ++n_recoverable >= MAX_RECOVERABLE)
            return fail_nonfinite (d, r, t);
          h *= 0.25;
          reject = TRUE;
          continue;

        case HYD_ATTEMPT_OK:
        default:
          break;
        }
      n_singular = 0;
      n_recoverable = 0;
      d->bad_state = -1;
      d->fail_t = -INFINITY;

      double h_next = h;
      if (!fixed && m->propose != NULL)
        {
          double fac = m->propose (d->ws, d, h, err, err <= 1.0, reject);
          if (err > 1.0)
            {
              st->rejected++;
              reject = TRUE;
              h *= fac;
              continue;
            }
          h_next = MIN (h * fac, hmax);
          reject = FALSE;
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
              reject = TRUE;
              h = n_accepted == 0 ? 0.1 * h : h_next;
              continue;
            }
          if (n_accepted > 0)
            {
              /* Gustafsson's predictive controller (rodas.f PRED). */
              double facgus = (h_acc / h) * pow (err * err / err_acc, 1.0 / q)
                              / CTRL_SAFE;
              facgus = CLAMP (facgus, CTRL_FAC_MIN, CTRL_FAC_MAX);
              fac = MAX (fac, facgus);
              h_next = h / fac;
            }
          h_acc = h;
          err_acc = MAX (1e-2, err);
          h_next = MIN (h_next, hmax);
          if (reject)
            h_next = MIN (h_next, h);
          reject = FALSE;
        }

      /* Accepted. */
      st->steps++;
      n_accepted++;
      if (m->accept != NULL)
        m->accept (d->ws, d, t_new, y_new, t_new < b ? f_new : NULL);
      rc = emit_step_samples (d, t, h, t_new, b, y_new);
      if (rc < 0)
        return fail_callback (d, r, t);
      if (rc > 0)
        return fail_nonfinite (d, r, t);
      t = t_new;
      memcpy (y, y_new, n * sizeof (double));
      *t_good = t;
      if (d->stopped)
        return fail (r, HYD_ODE_CANCELLED,
                     "stopped by the output callback at t = %.9g", t);
      if (t < b)
        {
          double *tmp = f0;
          f0 = f_new;
          f_new = tmp;
          need_prepare = TRUE;
        }
      h = h_next;
    }

  *t_good = b;
  return HYD_ODE_SUCCESS;
}

static HydOdeStatus
run (const HydOdeMethod *m, const HydOdeProblem *problem,
     const HydOdeOptions *options, double *y, HydOdeResult *result)
{
  guint n = problem->n;
  HydOdeDriver d = {
    .problem = problem,
    .opt = options,
    .method = m,
    .n = n,
    .stats = &result->stats,
    .bad_state = -1,
    .err_state = -1,
    .singular_state = -1,
    .fail_t = -INFINITY,
    .out_dt = options->output_interval,
  };
  g_autofree double *fd_y = d.fd_y = g_new (double, n);
  g_autofree double *fd_f = d.fd_f = g_new (double, n);
  g_autofree double *y_out = d.y_out = g_new (double, n);
  g_autoptr (GArray) bounds = integration_bounds (options);
  double t_good = options->t0;
  HydOdeStatus status = HYD_ODE_SUCCESS;

  if (d.out_dt > 0.0)
    {
      /* t_k = t0 + k·Δ while t_k < t_end − 1e-9·Δ (circuit-format.md). */
      double limit = options->t_end - 1e-9 * d.out_dt;
      guint64 k = (guint64) MAX (0.0, ceil ((limit - options->t0) / d.out_dt));
      while (k > 0 && !(sample_time (&d, k - 1) < limit))
        k--;
      while (sample_time (&d, k) < limit)
        k++;
      d.n_regular = k;
    }

  d.ws = m->workspace_new (m, n);
  for (guint iv = 0; iv + 1 < bounds->len && status == HYD_ODE_SUCCESS; iv++)
    {
      double a = g_array_index (bounds, double, iv);
      double b = g_array_index (bounds, double, iv + 1);

      d.t_lo = a;
      d.t_hi = b;
      if (problem->set_interval != NULL)
        problem->set_interval (a, b, problem->user);
      if (!emit_interval_start (&d, a, y))
        status = fail (result, HYD_ODE_CANCELLED,
                       "stopped by the output callback at t = %.9g", a);
      else
        status = integrate_interval (&d, result, a, b, y, &t_good);
    }
  /* The last sample, at t_end, in the last interval's piece. */
  if (status == HYD_ODE_SUCCESS && !emit (&d, options->t_end, y))
    status = fail (result, HYD_ODE_CANCELLED,
                   "stopped by the output callback at t = %.9g",
                   options->t_end);
  m->workspace_free (d.ws);
  result->t = t_good;
  return status;
}

HydOdeStatus
hyd_ode_solve (const char *solver_id,
               const HydOdeProblem *problem,
               const HydOdeOptions *options,
               double *y,
               HydOdeResult *result)
{
  HydOdeResult local = { 0 };
  gint64 start = g_get_monotonic_time ();

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

  if (solver_id == NULL)
    solver_id = HYD_SOLVER_DEFAULT;
  const HydOdeMethod *m = method_lookup (solver_id);
  g_autofree char *why = NULL;
  if (m == NULL)
    fail (result, HYD_ODE_UNKNOWN_SOLVER, "unknown solver “%s”", solver_id);
  else if ((why = check_input (m, problem, options, y)) != NULL)
    fail (result, HYD_ODE_BAD_INPUT, "%s", why);
  else
    run (m, problem, options, y, result);

  result->stats.wall_s = (g_get_monotonic_time () - start) * 1e-6;
  HydOdeStatus status = result->status;
  if (result == &local)
    hyd_ode_result_clear (&local);
  return status;
}

const HydOdeMethod *
hyd_ode_method_lookup (const char *id)
{
  return method_lookup (id);
}
