/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-linearize.c — operating points, the components behind each state,
 * and the linear model of one input and one output (docs/analysis.md). */
#include "hyd-linearize.h"

#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

/* ---- the operating point ---- */

void
hyd_operating_point_free (HydOperatingPoint *op)
{
  if (op == NULL)
    return;
  g_free (op->y);
  g_free (op->solver);
  g_free (op);
}

typedef struct {
  guint n;
  double *y;
  double t_last;            /* the last step's end */
  double h_prev, h_last;    /* the last two accepted steps */
} StepTrace;

/* Each accepted step (output_interval 0: a sample at every step). */
static gboolean
trace_step (double t, const double *y, gpointer user)
{
  StepTrace *tr = user;
  memcpy (tr->y, y, tr->n * sizeof (double));
  if (t > tr->t_last)
    {
      tr->h_prev = tr->h_last;
      tr->h_last = t - tr->t_last;
      tr->t_last = t;
    }
  return TRUE;
}

HydOperatingPoint *
hyd_operating_point_run (HydSystem *sys, const HydSimOptions *sim, double at, const char *solver,
                         GError **error)
{
  g_return_val_if_fail (sys != NULL && sim != NULL, NULL);
  if (!(at >= 0) || !isfinite (at))
    {
      g_set_error (error, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_REQUEST,
                   "the time of the operating point must be finite and ≥ 0, not %g s", at);
      return NULL;
    }
  if (solver == NULL)
    solver = HYD_SOLVER_DEFAULT;
  const HydSolverInfo *info = hyd_solver_lookup (solver);
  if (info == NULL)
    {
      g_set_error (error, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_REQUEST, "there is no solver '%s'", solver);
      return NULL;
    }
  guint n = hyd_system_get_n_states (sys);
  g_autoptr (HydOperatingPoint) op = g_new0 (HydOperatingPoint, 1);
  op->n = n;
  op->t = at;
  op->y = g_memdup2 (hyd_system_get_initial_state (sys), MAX (n, 1) * sizeof (double));
  op->h_last = NAN;
  op->solver = g_strdup (solver);
  if (at == 0 || n == 0)
    return g_steal_pointer (&op);

  /* the stepper as hyd_run_execute drives it (breakpoints, events,
   * discrete states), with a sample at every accepted step; the circuit's
   * tolerances and maximum step (resolved for its own t_end, not for `at`) */
  HydOdeProblem problem;
  hyd_system_get_problem (sys, &problem);
  g_autofree double *atol = g_new0 (double, n);
  hyd_system_get_atol (sys, sim, atol);
  HydOdeOptions opts;
  hyd_ode_options_init (&opts);
  opts.t0 = 0.0;
  opts.t_end = at;
  opts.rtol = sim->rtol;
  opts.atol = atol;
  opts.max_step = sim->max_step;
  /* a file's fixed step belongs to its own solver: an adaptive one adapts */
  opts.fixed_step = info->adaptive ? 0 : (sim->fixed_step > 0 ? sim->fixed_step : sim->max_step);
  opts.tlm_filter = sim->tlm_filter;
  opts.output_interval = 0;
  opts.events = sim->events;
  StepTrace tr = { n, op->y, 0, NAN, NAN };
  opts.output = trace_step;
  opts.output_user = &tr;
  const GArray *bp = hyd_system_get_breakpoints (sys);
  opts.breakpoints = (const double *) bp->data;
  opts.n_breakpoints = bp->len;
  g_autoptr (GError) local = NULL;
  g_autoptr (HydOdeStepper) stepper = hyd_ode_stepper_new (solver, &problem, &opts, op->y, &local);
  if (stepper == NULL)
    {
      g_set_error (error, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_RUN, "the run to t = %g s cannot start: %s", at,
                   local->message);
      return NULL;
    }
  if (hyd_ode_stepper_advance (stepper, at, NULL) != HYD_ODE_SUCCESS)
    {
      const HydOdeResult *r = hyd_ode_stepper_get_result (stepper);
      g_set_error (error, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_RUN, "the run to t = %g s failed: %s", at,
                   r->message ? r->message : hyd_ode_status_name (r->status));
      return NULL;
    }
  op->steps = hyd_ode_stepper_get_stats (stepper)->steps;
  /* the step that reached `at` is cut to land there: the one before it is
   * the solver's own choice */
  op->h_last = isfinite (tr.h_prev) ? tr.h_prev : tr.h_last;
  return g_steal_pointer (&op);
}

/* ---- states and components ---- */

const HydNodeInfo *
hyd_system_state_node (const HydSystem *sys, guint i)
{
  for (guint b = 0; b < hyd_system_get_n_nodes (sys); b++)
    {
      const HydNodeInfo *ni = hyd_system_get_node (sys, b);
      if (!ni->boundary && ni->state == (int) i)
        return ni;
    }
  return NULL;
}

static void
add_component (GPtrArray *ids, const char *qualified)
{
  const char *dot = strchr (qualified, '.');
  g_autofree char *id = dot ? g_strndup (qualified, dot - qualified) : g_strdup (qualified);
  for (guint k = 0; k < ids->len; k++)
    if (strcmp (g_ptr_array_index (ids, k), id) == 0)
      return;
  g_ptr_array_add (ids, g_steal_pointer (&id));
}

GPtrArray *
hyd_system_state_components (const HydSystem *sys, guint i)
{
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);
  const HydNodeInfo *ni = hyd_system_state_node (sys, i);
  if (ni != NULL)
    for (guint k = 0; k < ni->ports->len; k++)
      add_component (ids, g_ptr_array_index (ni->ports, k));
  else
    /* "<component>.<local state>": ids have no dots (circuit-format.md) */
    add_component (ids, hyd_system_get_state_name (sys, i));
  return ids;
}

/* ---- the linear model ---- */

void
hyd_linear_model_free (HydLinearModel *m)
{
  if (m == NULL)
    return;
  g_free (m->A);
  g_free (m->B);
  g_free (m->C);
  g_free (m);
}

/* f(t, y) and the output with the parameter at `value`; the value the
 * engine took (clamped to the parameter's range) in *taken. */
static gboolean
eval_with_param (HydSystem *sys, double t, const double *y, const char *comp_id, const char *param,
                 double value, int var, double *f, double *out, double *taken, GError **error)
{
  if (!hyd_system_override_param (sys, t, comp_id, param, value, NULL, taken, error))
    return FALSE;
  if (hyd_system_rhs (sys, t, y, f) != 0 || hyd_system_eval_variables (sys, t, y, &var, 1, out) != 0)
    {
      g_set_error (error, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_NUMERIC,
                   "%s.%s = %g: the circuit cannot be evaluated there", comp_id, param, value);
      return FALSE;
    }
  return TRUE;
}

HydLinearModel *
hyd_linearize (HydSystem *sys, const HydSimOptions *sim, double t, const double *y, const char *comp_id,
               const char *param, const char *output, GError **error)
{
  g_return_val_if_fail (sys != NULL && y != NULL && comp_id != NULL && param != NULL && output != NULL, NULL);
  int var = hyd_system_find_variable (sys, output);
  if (var < 0)
    {
      g_set_error (error, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_REQUEST,
                   "there is no variable '%s' (the variables are those of `simulate --vars`)", output);
      return NULL;
    }
  guint n = hyd_system_get_n_states (sys);
  g_autoptr (HydLinearModel) m = g_new0 (HydLinearModel, 1);
  m->n = n;
  m->A = g_new0 (double, MAX ((gsize) n * n, 1));
  m->B = g_new0 (double, MAX (n, 1));
  m->C = g_new0 (double, MAX (n, 1));
  m->output_unit = hyd_system_get_variable_unit (sys, var);
  if (n > 0 && hyd_system_jacobian (sys, t, y, m->A, NULL) != 0)
    {
      g_set_error (error, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_NUMERIC,
                   "the Jacobian cannot be evaluated at t = %g s", t);
      return NULL;
    }

  /* B and D: central differences in the parameter, δ = 10⁻⁶·max(|u|, 1)
   * in SI units, with the values the engine took (a bound clamps) */
  double u0;
  if (!hyd_system_override_param (sys, t, comp_id, param, 0.0, &u0, NULL, error))
    return NULL;
  m->u0 = u0;
  double du = 1e-6 * MAX (fabs (u0), 1.0);
  g_autofree double *fp = g_new0 (double, MAX (n, 1)), *fm = g_new0 (double, MAX (n, 1));
  g_autofree double *f0 = g_new0 (double, MAX (n, 1));
  double yp, ym, up, um, u_back;
  gboolean ok = eval_with_param (sys, t, y, comp_id, param, u0 + du, var, fp, &yp, &up, error)
                && eval_with_param (sys, t, y, comp_id, param, u0 - du, var, fm, &ym, &um, error)
                && eval_with_param (sys, t, y, comp_id, param, u0, var, f0, &m->y0, &u_back, error);
  if (!ok)
    {
      hyd_system_override_param (sys, t, comp_id, param, m->u0, NULL, NULL, NULL);
      return NULL;
    }
  if (!(up > um))
    {
      g_set_error (error, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_REQUEST,
                   "%s.%s cannot be varied around %g: its range allows no change", comp_id, param, m->u0);
      return NULL;
    }
  m->du = up - um;
  for (guint i = 0; i < n; i++)
    m->B[i] = (fp[i] - fm[i]) / (up - um);
  m->D = (yp - ym) / (up - um);

  /* C: central differences in each state, δ_j = 10⁻⁶·max(|y_j|, 10⁴·atol_j) */
  g_autofree double *atol = g_new0 (double, MAX (n, 1));
  hyd_system_get_atol (sys, sim, atol);
  g_autofree double *yy = g_memdup2 (y, MAX (n, 1) * sizeof (double));
  for (guint j = 0; j < n; j++)
    {
      double h = 1e-6 * MAX (fabs (y[j]), 1e4 * atol[j]);
      if (!(h > 0))
        h = 1e-6;
      double a, b;
      yy[j] = y[j] + h;
      int r1 = hyd_system_eval_variables (sys, t, yy, &var, 1, &a);
      yy[j] = y[j] - h;
      int r2 = hyd_system_eval_variables (sys, t, yy, &var, 1, &b);
      yy[j] = y[j];
      if (r1 != 0 || r2 != 0 || !isfinite (a) || !isfinite (b))
        {
          g_set_error (error, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_NUMERIC,
                       "%s cannot be evaluated near the operating point (state %s)", output,
                       hyd_system_get_state_name (sys, j));
          return NULL;
        }
      m->C[j] = (a - b) / (2 * h);
    }
  return g_steal_pointer (&m);
}

gboolean
hyd_linear_model_response (const HydLinearModel *m, double omega, double *re, double *im)
{
  guint n = m->n;
  if (n == 0)
    {
      *re = m->D;
      *im = 0;
      return TRUE;
    }
  g_autofree double complex *a = g_new (double complex, (gsize) n * n);
  g_autofree double complex *x = g_new (double complex, n);
  g_autofree lapack_int *ipiv = g_new (lapack_int, n);
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      a[i + (gsize) j * n] = (i == j ? I * omega : 0) - m->A[i + (gsize) j * n];
  for (guint i = 0; i < n; i++)
    x[i] = m->B[i];
  if (LAPACKE_zgetrf (LAPACK_COL_MAJOR, n, n, a, n, ipiv) != 0
      || LAPACKE_zgetrs (LAPACK_COL_MAJOR, 'N', n, 1, a, n, ipiv, x, n) != 0)
    return FALSE;
  double complex g = m->D;
  for (guint i = 0; i < n; i++)
    g += m->C[i] * x[i];
  *re = creal (g);
  *im = cimag (g);
  return isfinite (*re) && isfinite (*im);
}

int
hyd_linear_model_zeros (const HydLinearModel *m, double **re, double **im, GError **error)
{
  guint n = m->n, N = n + 1;
  g_autofree double *M = g_new0 (double, (gsize) N * N), *E = g_new0 (double, (gsize) N * N);
  for (guint j = 0; j < n; j++)
    {
      for (guint i = 0; i < n; i++)
        M[i + (gsize) j * N] = m->A[i + (gsize) j * n];
      M[n + (gsize) j * N] = m->C[j];
      M[j + (gsize) n * N] = m->B[j];
      E[j + (gsize) j * N] = 1.0;
    }
  M[n + (gsize) n * N] = m->D;
  double norm = 0;
  for (guint j = 0; j < N; j++)
    {
      double s = 0;
      for (guint i = 0; i < N; i++)
        s += fabs (M[i + (gsize) j * N]);
      norm = MAX (norm, s);
    }
  g_autofree double *ar = g_new (double, N), *ai = g_new (double, N), *be = g_new (double, N);
  lapack_int info = LAPACKE_dggev (LAPACK_COL_MAJOR, 'N', 'N', N, M, N, E, N, ar, ai, be, NULL, 1, NULL, 1);
  if (info != 0)
    {
      g_set_error (error, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_NUMERIC, "LAPACK dggev failed (info %d)",
                   (int) info);
      return -1;
    }
  *re = g_new0 (double, N);
  *im = g_new0 (double, N);
  int k = 0;
  double limit = MAX (norm, 1.0) / sqrt (DBL_EPSILON);
  for (guint i = 0; i < N; i++)
    {
      if (be[i] == 0.0 || hypot (ar[i], ai[i]) > limit * fabs (be[i]))
        continue;
      (*re)[k] = ar[i] / be[i];
      (*im)[k] = ai[i] / be[i];
      k++;
    }
  return k;
}

/* ---- the matrix exponential ---- */

static double
norm_inf (const double *a, guint n)
{
  double best = 0;
  for (guint i = 0; i < n; i++)
    {
      double s = 0;
      for (guint j = 0; j < n; j++)
        s += fabs (a[i + (gsize) j * n]);
      best = MAX (best, s);
    }
  return best;
}

static void
matmul (const double *a, const double *b, double *c, guint n)
{
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        double s = 0;
        for (guint k = 0; k < n; k++)
          s += a[i + (gsize) k * n] * b[k + (gsize) j * n];
        c[i + (gsize) j * n] = s;
      }
}

/* e^X into E (n × n): X/2^s with ‖X/2^s‖∞ ≤ 1/2, the [6/6] Padé
 * approximant N/D there, squared s times (Moler & Van Loan 2003,
 * "Nineteen dubious ways…", method 3, q = 6). */
static gboolean
expm (const double *X, double *E, guint n)
{
  gsize nn = (gsize) n * n;
  double nrm = norm_inf (X, n);
  if (!isfinite (nrm))
    return FALSE;
  int s = nrm > 0.5 ? (int) ceil (log2 (nrm / 0.5)) : 0;
  double sc = ldexp (1.0, -s);
  g_autofree double *A = g_new (double, nn), *Xk = g_new (double, nn), *T = g_new (double, nn);
  g_autofree double *Nm = g_new0 (double, nn), *Dm = g_new0 (double, nn);
  for (gsize k = 0; k < nn; k++)
    A[k] = X[k] * sc;
  for (guint i = 0; i < n; i++)
    {
      Nm[i + (gsize) i * n] = 1;
      Dm[i + (gsize) i * n] = 1;
    }
  memcpy (Xk, A, nn * sizeof (double));
  const int q = 6;
  double c = 1;
  for (int k = 1; k <= q; k++)
    {
      c = c * (q - k + 1) / (double) (k * (2 * q - k + 1));
      for (gsize e = 0; e < nn; e++)
        {
          Nm[e] += c * Xk[e];
          Dm[e] += (k % 2 ? -c : c) * Xk[e];
        }
      if (k < q)
        {
          matmul (A, Xk, T, n);
          memcpy (Xk, T, nn * sizeof (double));
        }
    }
  g_autofree lapack_int *ipiv = g_new (lapack_int, n);
  memcpy (E, Nm, nn * sizeof (double));
  if (LAPACKE_dgetrf (LAPACK_COL_MAJOR, n, n, Dm, n, ipiv) != 0
      || LAPACKE_dgetrs (LAPACK_COL_MAJOR, 'N', n, n, Dm, n, ipiv, E, n) != 0)
    return FALSE;
  for (int k = 0; k < s; k++)
    {
      matmul (E, E, T, n);
      memcpy (E, T, nn * sizeof (double));
    }
  for (gsize k = 0; k < nn; k++)
    if (!isfinite (E[k]))
      return FALSE;
  return TRUE;
}

gboolean
hyd_linear_model_step_response (const HydLinearModel *m, double t_end, guint n_steps, double *out,
                                GError **error)
{
  g_return_val_if_fail (t_end > 0 && n_steps > 0, FALSE);
  guint n = m->n, N = n + 1;
  double h = t_end / n_steps;
  g_autofree double *X = g_new0 (double, (gsize) N * N), *E = g_new (double, (gsize) N * N);
  for (guint j = 0; j < n; j++)
    {
      for (guint i = 0; i < n; i++)
        X[i + (gsize) j * N] = m->A[i + (gsize) j * n] * h;
      X[j + (gsize) n * N] = m->B[j] * h;
    }
  if (!expm (X, E, N))
    {
      g_set_error (error, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_NUMERIC,
                   "the step response's matrix exponential over %g s is not finite", h);
      return FALSE;
    }
  /* x_{k+1} = Φ·x_k + Γ with [Φ Γ; 0 1] = e^{[A B; 0 0]·h}, u = 1 */
  g_autofree double *x = g_new0 (double, MAX (n, 1)), *xn = g_new0 (double, MAX (n, 1));
  for (guint k = 0; k <= n_steps; k++)
    {
      double yk = m->D;
      for (guint i = 0; i < n; i++)
        yk += m->C[i] * x[i];
      out[k] = yk;
      for (guint i = 0; i < n; i++)
        {
          double s = E[i + (gsize) n * N];
          for (guint j = 0; j < n; j++)
            s += E[i + (gsize) j * N] * x[j];
          xn[i] = s;
        }
      memcpy (x, xn, n * sizeof (double));
    }
  return TRUE;
}
