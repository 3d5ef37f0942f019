/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-bench.c — `bramah-cli bench`: the work-precision benchmark
 * (spec/cli.md), side by side with SUNDIALS CVODE.
 *
 * For each circuit, tolerance and solver the circuit is integrated from its
 * initial state to t_end with the circuit's max_step, breakpoints, events
 * setting and output samples. atol follows rtol (the circuit's atol ×
 * rtol / simulation.rtol, the usual work-precision convention; --fixed-atol
 * keeps the circuit's), else the pressures' 100 Pa would cap the accuracy
 * below rtol ≈ 1e-5 and the finer tolerances would all give one point.
 * The error is measured at the samples against a reference run (radau5 at
 * rtol 1e-10). With --against cvode, CVODE (BDF) integrates the same
 * right-hand side with the same analytic Jacobian (hyd_system_jacobian),
 * with SUNDIALS' dense direct solver (`cvode`) and with KLU (`cvode-klu`, the
 * values from hyd_system_jacobian_sparse on the kept pattern), stopping at
 * the same breakpoints (CVodeSetStopTime, then CVodeReInit), restarting at
 * the same events (CVODE's root finding on hyd_system_events, then
 * CVodeReInit, as hyd-ode.c restarts its methods; discrete states switched
 * there by the system, with the directions of CVODE's roots) and sampling at the same
 * times. Wall time is the median of --repeat runs; everything else comes
 * from the first run (the runs are deterministic). */
#include <glib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <plplot.h>

#include "hyd-symbol.h"
#include "cli-commands.h"
#include "cli-diagnostic.h"
#include "hyd-circuit.h"
#include "hyd-ode.h"
#include "hyd-system.h"
#include "hyd-workprec.h"

/* The error measure (spec/cli.md) and the reference run: hyd-workprec.h
 * (RTOL_REF 1e-6, the reference at rtol 1e-10 with the circuit's atol scaled
 * down by 1e-10 / max(simulation.rtol, rtol_ref), so that the reference
 * error stays far below the finest run's tolerance for every state,
 * pressures included). */
#define REF_RTOL HYD_WORKPREC_REF_RTOL
#define CVODE_MAX_STEPS 10000000L   /* hyd-ode.c's default limit */

typedef struct {
  char *path;
  char *name;           /* file name without .bramah */
  HydCircuit *circuit;
  HydSimOptions sim;
  gboolean sim_set;
  HydSystem *sys;
  /* the runs, the reference and the error measure (hyd-workprec.h, shared
   * with the GUI's solver lab): n, atol, events, out_dt, n_regular,
   * n_samples, y_ref */
  HydWorkPrec wp;
  gboolean wp_set;
  double *atol_run;     /* [n], the atol of the run being made */
  GArray *bounds;       /* t0, breakpoints inside, t_end (as hyd-ode.c) */
  char *ref_label;
} BenchCircuit;

typedef struct {
  guint circuit;
  char *solver;         /* "rodas4", "rodas4-fd", "cvode", "cvode-klu", "cvode-fd" */
  gboolean is_cvode;
  gboolean is_fd;
  double rtol;
  double error;         /* NAN when the run failed */
  HydOdeStats stats;
  double wall_s;        /* median */
  char *status;
  gboolean ok;
} BenchRow;

typedef HydWorkPrecSamples Samples;

typedef enum {
  CV_DENSE,             /* SUNDIALS dense LU, analytic Jacobian */
  CV_KLU,               /* KLU on the CSC pattern, analytic Jacobian */
  CV_DENSE_DQ,          /* dense LU, CVODE's difference-quotient Jacobian */
} CvodeKind;

static const char *const cvode_names[] = { "cvode", "cvode-klu", "cvode-fd" };

/* What the CVODE callbacks see. */
typedef struct {
  HydSystem *sys;
  guint n;
  double *values;       /* the system's sparse Jacobian values (its pattern) */
  guint nnz;            /* CVODE's pattern: the system's with the diagonal */
  sunindextype *colptr;
  sunindextype *rowind;
  gssize *src_pos;      /* [nnz] index into values, −1 for an added diagonal */
  char *message;        /* CVODE's last error message */
} CvodeRun;

static SUNContext sun_ctx;

/* --clock cpu: the process's CPU time instead of the wall clock, so that
 * other jobs on a shared machine do not stretch the timings. */
static clockid_t bench_clock = CLOCK_MONOTONIC;
static const char *clock_label = "Wall time";
/* The reference solver: radau5, or rodas4 in a build without it. */
static const char *ref_solver = "radau5";

static double
now_s (void)
{
  return hyd_workprec_now (bench_clock);
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static int
compare_double_desc (gconstpointer a, gconstpointer b)
{
  return compare_double (b, a);
}

static double
median (double *v, guint n)
{
  qsort (v, n, sizeof (double), compare_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* v in C-locale digits; NaN (a failed run's error) as an empty field. */
static const char *
fmt_g (char *buf, const char *format, double v)
{
  if (isnan (v))
    {
      buf[0] = '\0';
      return buf;
    }
  return g_ascii_formatd (buf, G_ASCII_DTOSTR_BUF_SIZE, format, v);
}

/* ---- circuits ----------------------------------------------------------- */

static void
bench_circuit_free (BenchCircuit *bc)
{
  if (bc == NULL)
    return;
  g_free (bc->path);
  g_free (bc->name);
  if (bc->wp_set)
    hyd_workprec_clear (&bc->wp);
  if (bc->sys)
    hyd_system_free (bc->sys);
  if (bc->sim_set)
    hyd_sim_options_clear (&bc->sim);
  if (bc->circuit)
    hyd_circuit_free (bc->circuit);
  g_free (bc->atol_run);
  if (bc->bounds)
    g_array_unref (bc->bounds);
  g_free (bc->ref_label);
  g_free (bc);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BenchCircuit, bench_circuit_free)

/* [t0, b_1, …, b_k, t_end] exactly as hyd-ode.c's integration_bounds: the
 * breakpoints strictly inside, without those within ~1e-12 (relative) of an
 * end or of each other. */
static GArray *
integration_bounds (double t0, double t_end, const GArray *bp)
{
  GArray *bounds = g_array_new (FALSE, FALSE, sizeof (double));
  double tol = 1e-12 * MAX (t_end - t0, MAX (fabs (t0), fabs (t_end)));
  g_autofree double *sorted = g_memdup2 (bp->data, bp->len * sizeof (double));

  if (bp->len > 0)
    qsort (sorted, bp->len, sizeof (double), compare_double);
  g_array_append_val (bounds, t0);
  for (guint i = 0; i < bp->len; i++)
    {
      double last = g_array_index (bounds, double, bounds->len - 1);
      if (sorted[i] > last + tol && sorted[i] < t_end - tol)
        g_array_append_val (bounds, sorted[i]);
    }
  g_array_append_val (bounds, t_end);
  return bounds;
}

static BenchCircuit *
bench_circuit_load (const char *path, GError **error)
{
  g_autoptr (BenchCircuit) bc = g_new0 (BenchCircuit, 1);
  bc->path = g_strdup (path);
  g_autofree char *base = g_path_get_basename (path);
  bc->name = g_str_has_suffix (base, ".bramah")
               ? g_strndup (base, strlen (base) - strlen (".bramah")) : g_strdup (base);

  bc->circuit = hyd_circuit_load_from_file (path, error);
  if (bc->circuit == NULL)
    return NULL;
  if (!hyd_circuit_get_sim_options (bc->circuit, &bc->sim, error))
    return NULL;
  bc->sim_set = TRUE;
  bc->sys = hyd_system_compile (bc->circuit, error);
  if (bc->sys == NULL)
    return NULL;
  if (!hyd_workprec_init (&bc->wp, bc->sys, &bc->sim, path, 10000000, error))
    return NULL;
  bc->wp_set = TRUE;
  bc->atol_run = g_new (double, bc->wp.n + 1);
  bc->bounds = integration_bounds (0.0, bc->sim.t_end, hyd_system_get_breakpoints (bc->sys));
  guint64 k = bc->wp.n_regular;
  /* the reference run and each run are kept whole: two arrays of
   * samples × states doubles, within half the memory available */
  double need = 2.0 * (double) (k + 1) * bc->wp.n * sizeof (double);
  guint64 avail;
  if (hyd_cli_memory_available (&avail) && need > 0.5 * (double) avail)
    {
      g_autofree char *need_s = hyd_cli_format_size (need);
      g_autofree char *avail_s = hyd_cli_format_size ((double) avail);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "%s: %" G_GUINT64_FORMAT " output samples of %u states need %s, more than half "
                   "the %s of memory available: raise simulation.output_interval (%g s) or lower "
                   "simulation.t_end (%g s)",
                   path, k + 1, bc->wp.n, need_s, avail_s, bc->wp.out_dt, bc->sim.t_end);
      return NULL;
    }
  return g_steal_pointer (&bc);
}

/* ---- Bramah runs ---------------------------------------------------------- */

static gboolean
collect_sample (double t, const double *y, gpointer user)
{
  return hyd_workprec_collect (t, y, user);
}

static void
samples_reset (Samples *s)
{
  s->count = 0;
}

/* One run of a Bramah solver; returns the status, fills res and the wall
 * time measured around the whole call (like the CVODE runs). */
static HydOdeStatus
run_bramah (BenchCircuit *bc, const char *solver, double rtol, const double *atol,
            gboolean fd_jacobian, Samples *s, HydOdeResult *res, double *wall)
{
  return hyd_workprec_solve (&bc->wp, solver, rtol, atol, fd_jacobian, NULL, NULL, bench_clock,
                             s, res, wall);
}

static double
sample_error (const BenchCircuit *bc, const Samples *s)
{
  return hyd_workprec_error (&bc->wp, s);
}

static gboolean
compute_reference (BenchCircuit *bc, GError **error)
{
  if (!hyd_workprec_reference (&bc->wp, bc->path, NULL, bench_clock, error))
    return FALSE;
  const char *ref = ref_solver = bc->wp.ref_solver;
  bc->ref_label = g_strdup_printf ("%s at rtol %g, atol = %g × the circuit's atol%s "
                                   "(%" G_GUINT64_FORMAT " steps, %.3g s)",
                                   ref, REF_RTOL, bc->wp.ref_factor,
                                   strcmp (ref, "radau5") != 0
                                     ? "; radau5 is not in this build" : "",
                                   bc->wp.ref_steps, bc->wp.ref_seconds);
  return TRUE;
}

/* ---- CVODE runs ----------------------------------------------------------- */

static int
cv_rhs (sunrealtype t, N_Vector y, N_Vector ydot, void *user)
{
  CvodeRun *r = user;
  int rc = hyd_system_rhs (r->sys, t, N_VGetArrayPointer (y), N_VGetArrayPointer (ydot));
  return rc == 0 ? 0 : (rc > 0 ? 1 : -1);
}

static int
cv_jac_dense (sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *user,
              N_Vector tmp1, N_Vector tmp2, N_Vector tmp3)
{
  CvodeRun *r = user;
  /* SUNDIALS' dense matrix is column-major with leading dimension n, the
   * layout of hyd_system_jacobian. */
  int rc = hyd_system_jacobian (r->sys, t, N_VGetArrayPointer (y), SM_DATA_D (J), NULL);
  return rc == 0 ? 0 : (rc > 0 ? 1 : -1);
}

static int
cv_jac_sparse (sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *user,
               N_Vector tmp1, N_Vector tmp2, N_Vector tmp3)
{
  CvodeRun *r = user;
  int rc = hyd_system_jacobian_sparse (r->sys, t, N_VGetArrayPointer (y), r->values, NULL);
  if (rc != 0)
    return rc > 0 ? 1 : -1;
  /* CVODE zeroes the matrix, index arrays included, before each call. */
  sunindextype *cp = SM_INDEXPTRS_S (J), *ri = SM_INDEXVALS_S (J);
  sunrealtype *v = SM_DATA_S (J);
  memcpy (cp, r->colptr, (r->n + 1) * sizeof (sunindextype));
  memcpy (ri, r->rowind, r->nnz * sizeof (sunindextype));
  for (guint k = 0; k < r->nnz; k++)
    v[k] = r->src_pos[k] >= 0 ? r->values[r->src_pos[k]] : 0.0;
  return 0;
}

static void
cv_error_handler (int code, const char *module, const char *function, char *msg, void *data)
{
  CvodeRun *r = data;
  if (code >= 0)
    return;   /* warnings (t + h = t, ...) are not failures */
  g_free (r->message);
  r->message = g_strdup_printf ("%s: %s", function, msg);
}

static void
cvode_run_clear (CvodeRun *r)
{
  g_clear_pointer (&r->message, g_free);
  g_clear_pointer (&r->values, g_free);
  g_clear_pointer (&r->colptr, g_free);
  g_clear_pointer (&r->rowind, g_free);
  g_clear_pointer (&r->src_pos, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CvodeRun, cvode_run_clear)

/* The system's CSC pattern with the diagonal added: CVODE forms I − γJ in
 * the same matrix, and a missing diagonal entry would make SUNDIALS
 * reallocate it at every Newton matrix update. */
static void
cvode_run_pattern (CvodeRun *r)
{
  guint nnz;
  const guint *colptr, *rowind;
  hyd_system_get_pattern (r->sys, &nnz, &colptr, &rowind);

  guint n = r->n;
  r->colptr = g_new (sunindextype, n + 1);
  r->rowind = g_new (sunindextype, nnz + n);
  r->src_pos = g_new (gssize, nnz + n);
  r->values = g_new0 (double, nnz + 1);
  guint k = 0;
  for (guint j = 0; j < n; j++)
    {
      r->colptr[j] = k;
      gboolean diag = FALSE;
      for (guint p = colptr[j]; p < colptr[j + 1]; p++)
        {
          guint i = rowind[p];
          if (!diag && i > j)
            {
              r->rowind[k] = j;
              r->src_pos[k++] = -1;
              diag = TRUE;
            }
          if (i == j)
            diag = TRUE;
          r->rowind[k] = i;
          r->src_pos[k++] = p;
        }
      if (!diag)
        {
          r->rowind[k] = j;
          r->src_pos[k++] = -1;
        }
    }
  r->colptr[n] = k;
  r->nnz = k;
}

static void
cvode_add_counters (void *mem, HydOdeStats *st)
{
  long nst = 0, nfe = 0, nfels = 0, nje = 0, nsetups = 0, netf = 0, ncfn = 0, nni = 0;
  CVodeGetNumSteps (mem, &nst);
  CVodeGetNumRhsEvals (mem, &nfe);
  CVodeGetNumLinRhsEvals (mem, &nfels);
  CVodeGetNumJacEvals (mem, &nje);
  CVodeGetNumLinSolvSetups (mem, &nsetups);
  CVodeGetNumErrTestFails (mem, &netf);
  CVodeGetNumNonlinSolvConvFails (mem, &ncfn);
  CVodeGetNumNonlinSolvIters (mem, &nni);
  st->steps += nst;
  st->rejected += netf + ncfn;
  st->f_evals += nfe + nfels;   /* the difference-quotient Jacobian's too */
  st->jac_evals += nje;
  st->lu += nsetups;            /* each linear-solver setup factors I − γJ */
  st->newton += nni;
}

static char *
cvode_status (int flag)
{
  char *name = CVodeGetReturnFlagName (flag);
  char *s = g_strdup (name);
  free (name);
  return s;
}

static int
cv_events (sunrealtype t, N_Vector y, sunrealtype *g, void *user)
{
  CvodeRun *r = user;
  int rc = hyd_system_events (r->sys, t, N_VGetArrayPointer (y), g);
  return rc == 0 ? 0 : -1;
}

/* Start afresh at t (a breakpoint or an event), as hyd-ode.c restarts its
 * methods there. CVodeReInit zeroes the counters: bank them first. */
static int
cvode_restart (void *mem, double t, N_Vector y, double t_stop, HydOdeStats *st)
{
  cvode_add_counters (mem, st);
  int flag = CVodeReInit (mem, t, y);
  if (flag >= 0)
    flag = CVodeSetStopTime (mem, t_stop);
  return flag;
}

/* One CVODE BDF run over the circuit's intervals. Returns TRUE on success;
 * *status is "success" or CVODE's return flag name. Wall time covers the
 * whole run, set-up included, like hyd_ode_solve. */
static gboolean
run_cvode (BenchCircuit *bc, CvodeKind kind, double rtol, Samples *s,
           HydOdeStats *st, double *wall, char **status, char **message)
{
  g_auto (CvodeRun) r = { .sys = bc->sys, .n = bc->wp.n };
  guint n = bc->wp.n;
  /* Discrete states (docs/domains.md): the run starts from the compiled
   * ones, their events are located whatever the events setting, and at
   * each root the system switches them (with the directions CVODE found),
   * as hyd-ode.c's driver does. */
  HydOdeProblem problem;
  hyd_system_get_problem (bc->sys, &problem);
  guint n_events = bc->wp.events || problem.events_required ? hyd_system_get_n_events (bc->sys) : 0;
  g_autofree int *roots = g_new0 (int, n_events + 1);
  int flag = CV_SUCCESS;
  sunrealtype tret = 0.0;

  double t_start = now_s ();
  memset (st, 0, sizeof *st);
  samples_reset (s);

  N_Vector y = N_VNew_Serial (n, sun_ctx);
  N_Vector av = N_VNew_Serial (n, sun_ctx);
  memcpy (N_VGetArrayPointer (y), hyd_system_get_initial_state (bc->sys), n * sizeof (double));
  memcpy (N_VGetArrayPointer (av), bc->atol_run, n * sizeof (double));
  SUNMatrix A;
  SUNLinearSolver ls;
  if (kind == CV_KLU)
    {
      cvode_run_pattern (&r);
      A = SUNSparseMatrix (n, n, r.nnz, CSC_MAT, sun_ctx);
      ls = SUNLinSol_KLU (y, A, sun_ctx);
    }
  else
    {
      A = SUNDenseMatrix (n, n, sun_ctx);
      ls = SUNLinSol_Dense (y, A, sun_ctx);
    }

  void *mem = CVodeCreate (CV_BDF, sun_ctx);
  const double *b = (const double *) bc->bounds->data;
  hyd_system_set_interval (bc->sys, b[0], b[1]);
  if (mem == NULL || A == NULL || ls == NULL)
    flag = CV_MEM_NULL;
  if (flag == CV_SUCCESS)
    flag = CVodeSetErrHandlerFn (mem, cv_error_handler, &r);
  if (flag == CV_SUCCESS)
    flag = CVodeInit (mem, cv_rhs, b[0], y);
  if (flag == CV_SUCCESS)
    flag = CVodeSetUserData (mem, &r);
  if (flag == CV_SUCCESS)
    flag = CVodeSVtolerances (mem, rtol, av);
  if (flag == CV_SUCCESS)
    flag = CVodeSetMaxNumSteps (mem, CVODE_MAX_STEPS);
  if (flag == CV_SUCCESS && bc->sim.max_step > 0.0)
    flag = CVodeSetMaxStep (mem, bc->sim.max_step);
  if (flag == CV_SUCCESS)
    flag = CVodeSetLinearSolver (mem, ls, A);
  if (flag == CV_SUCCESS && kind != CV_DENSE_DQ)
    flag = CVodeSetJacFn (mem, kind == CV_KLU ? cv_jac_sparse : cv_jac_dense);
  if (flag == CV_SUCCESS && n_events > 0)
    flag = CVodeRootInit (mem, (int) n_events, cv_events);
  /* Warnings such as "t + h = t" are no failures; keep them quiet. */
  if (flag == CV_SUCCESS)
    flag = CVodeSetMaxHnilWarns (mem, -1);

  N_Vector yk = N_VClone (y);
  guint64 k = 0;
  double tol = 1e-9 * bc->wp.out_dt;
  for (guint iv = 0; flag >= 0 && iv + 1 < bc->bounds->len; iv++)
    {
      double a = b[iv], e = b[iv + 1];
      if (iv > 0)
        {
          /* A breakpoint: the profiles switch to their next piece, and
           * the discrete states settle with it (a button pressed by a
           * profile), as hyd-ode.c does at every interval's start. */
          hyd_system_set_interval (bc->sys, a, e);
          if (problem.event_located && problem.event_located (a, N_VGetArrayPointer (y), NULL, problem.user) != 0)
            flag = CV_RTFUNC_FAIL;
          else
            flag = cvode_restart (mem, a, y, e, st);
        }
      else
        flag = CVodeSetStopTime (mem, e);
      /* Samples at the interval's start hold the state there. */
      while (flag >= 0 && k < bc->wp.n_regular && (double) k * bc->wp.out_dt <= a + tol)
        {
          collect_sample (a, N_VGetArrayPointer (y), s);
          k++;
        }
      double t_fresh = a;   /* CVODE (re)started here and has not stepped */
      gboolean fresh = TRUE;
      while (flag >= 0)
        {
          gboolean sample = k < bc->wp.n_regular && (double) k * bc->wp.out_dt < e - tol;
          double tout = sample ? (double) k * bc->wp.out_dt : e;
          if (fresh && fabs (tout - t_fresh) <= 8.0 * DBL_EPSILON * MAX (fabs (tout), 1e-300))
            {
              /* An event right on the output time: CVODE refuses a tout
               * this close to its start; the state there is known. */
              N_VScale (1.0, y, yk);
              tret = t_fresh;
            }
          else
            {
              flag = CVode (mem, tout, yk, &tret, CV_NORMAL);
              fresh = FALSE;
            }
          if (flag == CV_ROOT_RETURN)
            {
              /* An event: restart there, as hyd-ode.c does. */
              st->events++;
              N_VScale (1.0, yk, y);
              if (problem.event_located)
                {
                  flag = CVodeGetRootInfo (mem, roots);
                  if (flag >= 0 && problem.event_located (tret, N_VGetArrayPointer (y), roots, problem.user) != 0)
                    flag = CV_RTFUNC_FAIL;
                }
              if (flag >= 0)
                flag = cvode_restart (mem, tret, y, e, st);
              t_fresh = tret;
              fresh = TRUE;
              continue;
            }
          if (flag < 0)
            break;
          if (!sample)
            {
              N_VScale (1.0, yk, y);
              break;
            }
          collect_sample (tout, N_VGetArrayPointer (yk), s);
          k++;
        }
    }
  if (flag >= 0)
    collect_sample (bc->sim.t_end, N_VGetArrayPointer (y), s);
  if (mem != NULL)
    cvode_add_counters (mem, st);

  CVodeFree (&mem);
  SUNLinSolFree (ls);
  SUNMatDestroy (A);
  N_VDestroy (yk);
  N_VDestroy (y);
  N_VDestroy (av);
  *wall = now_s () - t_start;

  gboolean ok = flag >= 0;
  *status = ok ? g_strdup ("success") : cvode_status (flag);
  *message = ok ? NULL
                : g_strdup_printf ("%s (last good time %.9g)",
                                   r.message ? r.message : *status, tret);
  return ok;
}

/* ---- output --------------------------------------------------------------- */

static const char csv_header[] = "circuit,solver,rtol,error,steps,rejected,f_evals,jac_evals,lu,wall_s,status";

static void
print_table_header (void)
{
  printf ("%-26s %-14s %-7s %11s %8s %8s %9s %9s %8s %11s  %s\n",
          "circuit", "solver", "rtol", "error", "steps", "rejected", "f_evals",
          "jac_evals", "lu", "wall_s", "status");
}

static void
print_row (const BenchCircuit *bc, const BenchRow *row, HydCliOutput *csv)
{
  char r[G_ASCII_DTOSTR_BUF_SIZE], e[G_ASCII_DTOSTR_BUF_SIZE], w[G_ASCII_DTOSTR_BUF_SIZE];
  const HydOdeStats *st = &row->stats;

  fmt_g (r, "%g", row->rtol);
  fmt_g (e, "%.4g", row->error);
  fmt_g (w, "%.4g", row->wall_s);
  printf ("%-26s %-14s %-7s %11s %8" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT
          " %9" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %11s  %s\n",
          bc->name, row->solver, r, isnan (row->error) ? "—" : e, st->steps, st->rejected,
          st->f_evals, st->jac_evals, st->lu, w, row->status);
  fflush (stdout);
  if (csv == NULL)
    return;
  fmt_g (e, "%.6g", row->error);
  fmt_g (w, "%.6g", row->wall_s);
  hyd_cli_output_printf (csv, "%s,%s,%s,%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
                         ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%s,%s\n",
                         bc->name, row->solver, r, e, st->steps, st->rejected, st->f_evals, st->jac_evals,
                         st->lu, w, row->status);
  hyd_cli_output_flush (csv);
}

/* The wall time CVODE (one variant) needs for an error ≤ e on this circuit:
 * the cheapest of its runs with error ≤ e and of the log–log interpolations
 * between runs at neighbouring tolerances whose errors bracket e. NAN when
 * no CVODE run was that accurate. */
static double
cvode_wall_at_error (GPtrArray *rows, guint circuit, const char *variant, double e)
{
  double best = INFINITY;
  const BenchRow *prev = NULL;
  for (guint i = 0; i < rows->len; i++)
    {
      const BenchRow *row = g_ptr_array_index (rows, i);
      if (row->circuit != circuit || strcmp (row->solver, variant) != 0)
        continue;
      if (!row->ok || !(row->error > 0.0))
        {
          prev = NULL;
          continue;
        }
      if (row->error <= e)
        best = MIN (best, row->wall_s);
      if (prev != NULL && (prev->error - e) * (row->error - e) < 0.0)
        {
          double x0 = log (prev->error), x1 = log (row->error);
          double f = (log (e) - x0) / (x1 - x0);
          double w = exp (log (prev->wall_s) + f * (log (row->wall_s) - log (prev->wall_s)));
          best = MIN (best, w);
        }
      prev = row;
    }
  return isfinite (best) ? best : NAN;
}

static void
print_ratios (GPtrArray *circuits, GPtrArray *rows, GStrv solvers, gboolean against,
              gboolean fd, const double *rtols, guint n_rtol)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (against)
    {
      printf ("\n%s ratio solver / CVODE at equal or better error (CVODE's time for the "
              "solver's error, interpolated log-log between its tolerances; — : no CVODE run "
              "was that accurate):\n", clock_label);
      printf ("%-26s %-28s", "circuit", "solver / cvode variant");
      for (guint j = 0; j < n_rtol; j++)
        printf (" %8s", fmt_g (buf, "%g", rtols[j]));
      printf ("\n");
      for (guint c = 0; c < circuits->len; c++)
        for (guint s = 0; solvers[s]; s++)
          for (guint v = 0; v < 2; v++)
            {
              g_autofree char *label = g_strdup_printf ("%s / %s", solvers[s], cvode_names[v]);
              gboolean any = FALSE;
              g_autoptr (GString) line = g_string_new (NULL);
              for (guint j = 0; j < n_rtol; j++)
                {
                  double ratio = NAN;
                  for (guint i = 0; i < rows->len; i++)
                    {
                      const BenchRow *row = g_ptr_array_index (rows, i);
                      if (row->circuit == c && !row->is_cvode && !row->is_fd && row->ok
                          && row->rtol == rtols[j] && strcmp (row->solver, solvers[s]) == 0)
                        ratio = row->wall_s / cvode_wall_at_error (rows, c, cvode_names[v],
                                                                   row->error);
                    }
                  any |= !isnan (ratio);
                  g_string_append_printf (line, " %8s", isnan (ratio) ? "—" : fmt_g (buf, "%.2f", ratio));
                }
              if (any)
                printf ("%-26s %-28s%s\n",
                        ((const BenchCircuit *) g_ptr_array_index (circuits, c))->name, label,
                        line->str);
            }
    }

  if (fd)
    {
      printf ("\n%s ratio finite-difference / analytic Jacobian at the same rtol:\n", clock_label);
      printf ("%-26s %-28s", "circuit", "solver");
      for (guint j = 0; j < n_rtol; j++)
        printf (" %8s", fmt_g (buf, "%g", rtols[j]));
      printf ("\n");
      guint nb = g_strv_length (solvers);
      for (guint c = 0; c < circuits->len; c++)
        for (guint s = 0; s < nb + (against ? 1 : 0); s++)
          {
            /* CVODE's dense solver has its own difference-quotient Jacobian */
            const char *base = s < nb ? solvers[s] : cvode_names[CV_DENSE];
            g_autofree char *fd_name = g_strdup_printf ("%s-fd", base);
            g_autoptr (GString) line = g_string_new (NULL);
            gboolean any = FALSE;
            for (guint j = 0; j < n_rtol; j++)
              {
                const BenchRow *an = NULL, *fr = NULL;
                for (guint i = 0; i < rows->len; i++)
                  {
                    const BenchRow *row = g_ptr_array_index (rows, i);
                    if (row->circuit != c || row->rtol != rtols[j] || !row->ok)
                      continue;
                    if (strcmp (row->solver, base) == 0)
                      an = row;
                    else if (strcmp (row->solver, fd_name) == 0)
                      fr = row;
                  }
                double ratio = an && fr ? fr->wall_s / an->wall_s : NAN;
                any |= !isnan (ratio);
                g_string_append_printf (line, " %8s", isnan (ratio) ? "—" : fmt_g (buf, "%.2f", ratio));
              }
            if (any)
              printf ("%-26s %-28s%s\n",
                      ((const BenchCircuit *) g_ptr_array_index (circuits, c))->name, base, line->str);
          }
    }
}

/* ---- the work-precision plot (PLplot, pngcairo) --------------------------- */

/* Solver colours, cmap0 entries from 3 on (0 background, 1 axes, 2 grid). */
static const guint8 palette[][3] = {
  { 31, 119, 180 }, { 214, 39, 40 }, { 255, 127, 14 }, { 44, 160, 44 }, { 148, 103, 189 },
  { 140, 86, 75 }, { 227, 119, 194 }, { 127, 127, 127 }, { 188, 189, 34 }, { 23, 190, 207 },
};
static const char *const markers[] = { "●", "■", "▲", "◆", "▼", "★", "⬟", "✚" };

static gboolean
pngcairo_available (void)
{
  int nd = 256;
  g_autofree const char **menu = g_new0 (const char *, nd);
  g_autofree const char **devs = g_new0 (const char *, nd);
  gboolean found = FALSE;
  plgDevs (&menu, &devs, &nd);
  for (int i = 0; i < nd; i++)
    if (devs[i] != NULL && strcmp (devs[i], "pngcairo") == 0)
      found = TRUE;
  return found;
}

/* Solver names in order of first appearance: one colour each. */
static GPtrArray *
series_names (GPtrArray *rows)
{
  GPtrArray *names = g_ptr_array_new ();
  for (guint i = 0; i < rows->len; i++)
    {
      const BenchRow *row = g_ptr_array_index (rows, i);
      gboolean seen = FALSE;
      for (guint j = 0; j < names->len && !seen; j++)
        seen = strcmp (g_ptr_array_index (names, j), row->solver) == 0;
      if (!seen)
        g_ptr_array_add (names, row->solver);
    }
  return names;
}

static PLINT
series_color (guint s)
{
  return 3 + s % G_N_ELEMENTS (palette);
}

static PLINT
series_style (const char *name)
{
  return g_str_has_suffix (name, "-fd") ? 2 : 1;   /* finite differences dashed */
}

static const char *
series_marker (guint s)
{
  return markers[s % G_N_ELEMENTS (markers)];
}

/* One panel: error (x) against wall time (y), both logarithmic, one line
 * per solver through its tolerances. */
static void
plot_circuit (const BenchCircuit *bc, guint c, GPtrArray *rows, GPtrArray *names)
{
  double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
  for (guint i = 0; i < rows->len; i++)
    {
      const BenchRow *row = g_ptr_array_index (rows, i);
      if (row->circuit != c || !row->ok || !(row->error > 0.0) || !(row->wall_s > 0.0))
        continue;
      xmin = MIN (xmin, log10 (row->error));
      xmax = MAX (xmax, log10 (row->error));
      ymin = MIN (ymin, log10 (row->wall_s));
      ymax = MAX (ymax, log10 (row->wall_s));
    }
  g_autofree char *title = g_strdup_printf ("%s (%u states)", bc->name, bc->wp.n);
  pladv (0);
  plschr (0.0, 0.8);
  plvpor (0.16, 0.95, 0.17, 0.88);
  if (!isfinite (xmin))
    {
      plwind (0, 1, 0, 1);
      plcol0 (1);
      plptex (0.5, 0.5, 1, 0, 0.5, "no successful run");
      pllab ("", "", title);
      return;
    }
  /* Whole decades around the data, at least one wide. */
  xmin = floor (xmin - 0.05);
  xmax = MAX (ceil (xmax + 0.05), xmin + 1);
  ymin = floor (ymin - 0.05);
  ymax = MAX (ceil (ymax + 0.05), ymin + 1);
  plwind (xmin, xmax, ymin, ymax);
  plcol0 (2);
  plbox ("g", 0, 0, "g", 0, 0);
  plcol0 (1);
  plbox ("bclnst", 0, 0, "bclnstv", 0, 0);
  g_autofree char *ylabel = g_strdup_printf ("%s [s]", clock_label);
  pllab ("error", ylabel, title);

  for (guint s = 0; s < names->len; s++)
    {
      const char *name = g_ptr_array_index (names, s);
      g_autoptr (GArray) xs = g_array_new (FALSE, FALSE, sizeof (PLFLT));
      g_autoptr (GArray) ys = g_array_new (FALSE, FALSE, sizeof (PLFLT));
      for (guint i = 0; i < rows->len; i++)
        {
          const BenchRow *row = g_ptr_array_index (rows, i);
          if (row->circuit != c || strcmp (row->solver, name) != 0 || !row->ok
              || !(row->error > 0.0) || !(row->wall_s > 0.0))
            continue;
          PLFLT x = log10 (row->error), y = log10 (row->wall_s);
          g_array_append_val (xs, x);
          g_array_append_val (ys, y);
        }
      if (xs->len == 0)
        continue;
      plcol0 (series_color (s));
      pllsty (series_style (name));
      plwidth (2.0);
      plline (xs->len, (PLFLT *) xs->data, (PLFLT *) ys->data);
      plstring (xs->len, (PLFLT *) xs->data, (PLFLT *) ys->data, series_marker (s));
      pllsty (1);
      plwidth (1.0);
    }
}

/* The legend, shared by all panels, in a panel of its own. */
static void
plot_legend (GPtrArray *names)
{
  PLINT nleg = (PLINT) names->len;
  g_autofree PLINT *opts = g_new (PLINT, nleg);
  g_autofree PLINT *colors = g_new (PLINT, nleg);
  g_autofree PLINT *styles = g_new (PLINT, nleg);
  g_autofree PLINT *snum = g_new (PLINT, nleg);
  g_autofree PLINT *tcol = g_new (PLINT, nleg);
  g_autofree PLFLT *widths = g_new (PLFLT, nleg);
  g_autofree PLFLT *sscale = g_new (PLFLT, nleg);
  g_autofree const char **text = g_new (const char *, nleg);
  g_autofree const char **syms = g_new (const char *, nleg);
  for (PLINT i = 0; i < nleg; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      opts[i] = PL_LEGEND_LINE | PL_LEGEND_SYMBOL;
      colors[i] = series_color (i);
      styles[i] = series_style (name);
      widths[i] = 2.0;
      snum[i] = 1;
      sscale[i] = 1.0;
      tcol[i] = 1;
      text[i] = name;
      syms[i] = series_marker (i);
    }
  pladv (0);
  plvpor (0.0, 1.0, 0.0, 1.0);
  plwind (0.0, 1.0, 0.0, 1.0);
  plschr (0.0, 1.0);
  PLFLT lw, lh;
  /* more than six series in two columns, so the legend stays above the
   * notes below it */
  PLINT ncol = nleg > 6 ? 2 : 1, nrow = (nleg + ncol - 1) / ncol;
  pllegend (&lw, &lh, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX,
            PL_POSITION_VIEWPORT | PL_POSITION_INSIDE | PL_POSITION_LEFT | PL_POSITION_TOP,
            0.05, 0.05, ncol > 1 ? 0.08 : 0.15, 0, 1, 1, nrow, ncol, nleg, opts, 1.0,
            ncol > 1 ? 0.8 : 1.2, ncol > 1 ? 1.6 : 2.0, 0.0,
            tcol, text, NULL, NULL, NULL, NULL, colors, styles, widths,
            colors, sscale, snum, syms);
  plcol0 (1);
  plschr (0.0, 0.75);
  g_autofree char *note = g_strdup_printf ("%s: median of the repeats", clock_label);
  plptex (0.05, 0.34, 1, 0, 0, "error = max over samples and states of");
  plptex (0.05, 0.27, 1, 0, 0, "   |y − y#dref#u| / (atol + 10#u−6#d|y#dref#u|),");
  g_autofree char *ref = g_strdup_printf ("   y#dref#u: %s at rtol 1e-10", ref_solver);
  plptex (0.05, 0.20, 1, 0, 0, ref);
  plptex (0.05, 0.13, 1, 0, 0, note);
  plptex (0.05, 0.06, 1, 0, 0, "dashed: finite-difference Jacobian");
}

static gboolean
write_plot (const char *path, GPtrArray *circuits, GPtrArray *rows, GError **error)
{
  if (!pngcairo_available ())
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "--plot: PLplot's pngcairo driver is not installed (plplot-driver-cairo)");
      return FALSE;
    }
  g_autoptr (GPtrArray) names = series_names (rows);
  guint nc = circuits->len;
  guint cells = nc + 1;   /* and one for the legend */
  guint cols = (guint) ceil (sqrt ((double) cells));
  guint nrows = (cells + cols - 1) / cols;
  g_autofree char *geometry = g_strdup_printf ("%ux%u", 560 * cols, 440 * nrows);

  plsdev ("pngcairo");
  plsfnam (path);
  plsetopt ("geometry", geometry);
  plscol0 (0, 255, 255, 255);
  plscol0 (1, 0, 0, 0);
  plscol0 (2, 215, 215, 215);
  for (guint i = 0; i < G_N_ELEMENTS (palette); i++)
    plscol0 (3 + i, palette[i][0], palette[i][1], palette[i][2]);
  plssub (cols, nrows);
  plinit ();
  for (guint c = 0; c < nc; c++)
    plot_circuit (g_ptr_array_index (circuits, c), c, rows, names);
  plot_legend (names);
  plend ();
  return TRUE;
}

/* ---- options -------------------------------------------------------------- */

/* Tolerances in one --rtol or --cvode-rtol list. */
#define MAX_RTOLS 50

static gboolean
parse_rtols (const char *option, const char *spec, GArray *out)
{
  g_auto (GStrv) parts = g_strsplit (spec, ",", -1);
  guint n = g_strv_length (parts);
  if (n > MAX_RTOLS)
    {
      hyd_cli_usage_error (NULL, "%s: %u tolerances, at most %d", option, n, MAX_RTOLS);
      return FALSE;
    }
  for (guint i = 0; parts[i]; i++)
    {
      char *p = g_strstrip (parts[i]);
      double v;
      if (!hyd_cli_parse_double (option, p, 0, 1, HYD_CLI_MIN_EXCLUSIVE | HYD_CLI_MAX_EXCLUSIVE, NULL, &v))
        return FALSE;
      g_array_append_val (out, v);
    }
  return out->len > 0;
}

/* The solvers to run: "all" = every implicit adaptive solver this build
 * lists, else a comma-separated list of ids. NULL after a usage message. */
static GStrv
resolve_solvers (const char *spec)
{
  guint n;
  const HydSolverInfo *list = hyd_solver_list (&n);
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();

  if (g_strcmp0 (spec, "all") == 0)
    {
      for (guint i = 0; i < n; i++)
        if (list[i].implicit && list[i].adaptive)
          g_strv_builder_add (b, list[i].id);
    }
  else
    {
      g_auto (GStrv) ids = g_strsplit (spec ? spec : HYD_SOLVER_DEFAULT, ",", -1);
      for (guint i = 0; ids[i]; i++)
        {
          const char *id = g_strstrip (ids[i]);
          const HydSolverInfo *info = hyd_solver_lookup (id);
          if (info == NULL)
            {
              g_autoptr (GString) all = g_string_new (NULL);
              for (guint k = 0; k < n; k++)
                g_string_append_printf (all, "%s%s", k ? ", " : "", list[k].id);
              hyd_cli_usage_error (NULL, "unknown solver '%s' (this build has: %s)", id, all->str);
              return NULL;
            }
          if (!info->adaptive)
            {
              hyd_cli_usage_error (NULL, "solver '%s' has a fixed step only; a work-precision "
                                   "benchmark needs error control", id);
              return NULL;
            }
          g_strv_builder_add (b, id);
        }
    }
  return g_strv_builder_end (b);
}

static int
compare_path (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

/* The examples folder: data/examples of the source tree this program was
 * built from when it runs from its build tree, else the installed one. */
static const char *
examples_dir (void)
{
  return hyd_running_uninstalled () ? BRAMAH_SOURCE_DIR "/data/examples" : BRAMAH_EXAMPLES_INSTALL_DIR;
}

/* The .bramah files of the examples folder. */
static GStrv
default_circuits (void)
{
  g_autofree char *dir = g_strdup (examples_dir ());
  GDir *d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return NULL;
  GPtrArray *files = g_ptr_array_new ();
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".bramah"))
      g_ptr_array_add (files, g_build_filename (dir, name, NULL));
  g_dir_close (d);
  g_ptr_array_sort (files, compare_path);
  g_ptr_array_add (files, NULL);
  return (GStrv) g_ptr_array_free (files, FALSE);
}

static void
bench_row_free (gpointer p)
{
  BenchRow *row = p;
  g_free (row->solver);
  g_free (row->status);
  g_free (row);
}

static int
run (int argc, char **argv)
{
  g_auto (GStrv) circuit_files = NULL;
  g_autofree char *solver_spec = NULL, *rtol_spec = NULL, *cv_rtol_spec = NULL, *against = NULL;
  g_autofree char *csv_path = NULL, *plot_path = NULL;
  g_autofree char *events = NULL, *clock_name = NULL;
  g_autofree char *repeat_s = NULL;
  gboolean fd = FALSE, fixed_atol = FALSE;
  GOptionEntry entries[] = {
    { "circuit", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &circuit_files,
      "A circuit to run (repeatable; default: every data/examples/*.bramah)", "FILE" },
    { "solver", 0, 0, G_OPTION_ARG_STRING, &solver_spec,
      "Solver id(s), comma-separated, or all = every implicit adaptive solver (default rodas4)", "ID|all" },
    { "rtol", 0, 0, G_OPTION_ARG_STRING, &rtol_spec,
      "Relative tolerances (default 1e-4,1e-5,1e-6,1e-7,1e-8)", "LIST" },
    { "against", 0, 0, G_OPTION_ARG_STRING, &against,
      "Also run SUNDIALS CVODE (BDF) with the dense and the KLU linear solver", "cvode" },
    { "cvode-rtol", 0, 0, G_OPTION_ARG_STRING, &cv_rtol_spec,
      "CVODE's tolerances, when they should reach further than --rtol (default: the --rtol list)",
      "LIST" },
    { "repeat", 0, 0, G_OPTION_ARG_STRING, &repeat_s,
      "Runs per case, 1 to 1000; the wall time is their median (default 3)", "N" },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_path, "Write the rows as CSV to FILE", "FILE" },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot_path,
      "Draw the work-precision diagram (error vs wall time) to FILE.png", "FILE.png" },
    { "fd-jacobian", 0, 0, G_OPTION_ARG_NONE, &fd,
      "Also run each solver (and CVODE's dense solver) with a finite-difference Jacobian "
      "(rows <id>-fd)", NULL },
    { "fixed-atol", 0, 0, G_OPTION_ARG_NONE, &fixed_atol,
      "Run every rtol with the circuit's atol (default: atol scaled by rtol / simulation.rtol)", NULL },
    { "clock", 0, 0, G_OPTION_ARG_STRING, &clock_name,
      "Time with the wall clock (default) or the process's CPU time (for a busy machine; the "
      "wall_s column then holds CPU seconds)", "wall|cpu" },
    { "events", 0, 0, G_OPTION_ARG_STRING, &events,
      "Locate end stops and valve seating and restart there, CVODE through its root finding "
      "(on|off; default: the circuit's simulation.events)", "on|off" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("— work-precision benchmark, side by side with SUNDIALS CVODE");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx,
    "Error = max over output samples and states of |y − y_ref| / (atol + 1e-6·|y_ref|) with the\n"
    "circuit's atol, against a radau5 run at rtol 1e-10 (rodas4 when this build has no radau5).\n"
    "CSV columns: circuit,solver,rtol,error,steps,rejected,f_evals,jac_evals,lu,wall_s,status\n");
  int usage = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  if (usage)
    return usage;
  if (argc != 1)
    return hyd_cli_usage_error (NULL, "bench takes no positional arguments (use --circuit FILE)");
  gint64 repeat64 = 3;
  if (repeat_s && !hyd_cli_parse_int ("--repeat", repeat_s, 1, 1000, &repeat64))
    return HYD_CLI_EXIT_USAGE;
  int repeat = (int) repeat64;
  gboolean with_cvode = against != NULL;
  if (with_cvode && strcmp (against, "cvode") != 0)
    return hyd_cli_usage_error (NULL, "--against takes 'cvode', not '%s'", against);
  g_autoptr (GArray) rtols = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) cv_rtols = g_array_new (FALSE, FALSE, sizeof (double));
  if (!parse_rtols ("--rtol", rtol_spec ? rtol_spec : "1e-4,1e-5,1e-6,1e-7,1e-8", rtols))
    return HYD_CLI_EXIT_USAGE;
  if (cv_rtol_spec && !parse_rtols ("--cvode-rtol", cv_rtol_spec, cv_rtols))
    return HYD_CLI_EXIT_USAGE;
  if (cv_rtols->len == 0)
    g_array_append_vals (cv_rtols, rtols->data, rtols->len);
  /* Loosest first: the work-precision curves (and their interpolation)
   * follow the tolerances in order. */
  g_array_sort (rtols, compare_double_desc);
  g_array_sort (cv_rtols, compare_double_desc);
  g_auto (GStrv) solvers = resolve_solvers (solver_spec);
  if (solvers == NULL)
    return HYD_CLI_EXIT_USAGE;
  if (circuit_files == NULL || circuit_files[0] == NULL)
    {
      g_strfreev (circuit_files);
      circuit_files = default_circuits ();
      if (circuit_files == NULL || circuit_files[0] == NULL)
        return hyd_cli_usage_error (NULL, "no examples under %s; give --circuit FILE", examples_dir ());
    }
  if (clock_name && strcmp (clock_name, "wall") != 0 && strcmp (clock_name, "cpu") != 0)
    return hyd_cli_usage_error (NULL, "--clock takes wall or cpu, not '%s'", clock_name);
  if (g_strcmp0 (clock_name, "cpu") == 0)
    {
      bench_clock = CLOCK_PROCESS_CPUTIME_ID;
      clock_label = "CPU time";
    }
  if (events && strcmp (events, "on") != 0 && strcmp (events, "off") != 0)
    return hyd_cli_usage_error (NULL, "--events takes on or off, not '%s'", events);
  if (plot_path && !g_str_has_suffix (plot_path, ".png"))
    return hyd_cli_usage_error (NULL, "--plot writes a PNG: give FILE.png");

  /* written to a temporary and renamed when complete (docs/cli.md) */
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCliOutput) csv = NULL;
  if (csv_path)
    {
      csv = hyd_cli_output_open (csv_path, &error);
      if (csv == NULL)
        return hyd_cli_failed_error (error);
      hyd_cli_output_printf (csv, "%s\n", csv_header);
    }
  if (with_cvode && SUNContext_Create (NULL, &sun_ctx) != 0)
    return hyd_cli_failed ("cannot create a SUNDIALS context");

  int status = 0;
  g_autoptr (GPtrArray) circuits = g_ptr_array_new_with_free_func ((GDestroyNotify) bench_circuit_free);
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (bench_row_free);
  g_autofree double *walls = g_new (double, repeat);

  for (guint f = 0; circuit_files[f]; f++)
    {
      BenchCircuit *bc = bench_circuit_load (circuit_files[f], &error);
      if (bc != NULL && events)
        bc->wp.events = strcmp (events, "on") == 0;
      if (bc == NULL || !compute_reference (bc, &error))
        {
          status = hyd_cli_failed_error (error);
          g_clear_error (&error);
          bench_circuit_free (bc);
          continue;
        }
      guint ci = circuits->len;
      g_ptr_array_add (circuits, bc);
      printf ("%s%s: %u states, %u output samples, %u integration intervals, events %s, "
              "atol %s, %s (median of %d); reference %s\n",
              ci ? "\n" : "", bc->path, bc->wp.n, bc->wp.n_samples, bc->bounds->len - 1,
              bc->wp.events && hyd_system_get_n_events (bc->sys) > 0 ? "on" : "off",
              fixed_atol ? "the circuit's" : "the circuit's × rtol / simulation.rtol",
              clock_label, repeat, bc->ref_label);
      print_table_header ();

      g_autofree double *buf = g_new (double, (gsize) bc->wp.n_samples * bc->wp.n);
      Samples s = { buf, bc->wp.n, bc->wp.n_samples, 0 };
      guint n_solvers = g_strv_length (solvers);
      guint n_variants = n_solvers * (fd ? 2 : 1);
      guint n_cv = with_cvode ? (fd ? 3 : 2) : 0;
      for (guint v = 0; v < n_variants + n_cv; v++)
        for (guint j = 0; j < (v < n_variants ? rtols : cv_rtols)->len; j++)
          {
            BenchRow *row = g_new0 (BenchRow, 1);
            const double *rt = (const double *) (v < n_variants ? rtols : cv_rtols)->data;
            row->circuit = ci;
            row->rtol = rt[j];
            /* Work-precision convention: atol tightens with rtol, so that
             * pressures (atol 100 Pa) do not stop improving below 1e-5. */
            for (guint i = 0; i < bc->wp.n; i++)
              bc->atol_run[i] = fixed_atol ? bc->wp.atol[i] : bc->wp.atol[i] * rt[j] / bc->sim.rtol;
            g_autofree char *message = NULL;
            if (v < n_variants)
              {
                const char *id = solvers[v % n_solvers];
                row->is_fd = v >= n_solvers;
                row->solver = row->is_fd ? g_strdup_printf ("%s-fd", id) : g_strdup (id);
                HydOdeResult res = { 0 };
                for (int r = 0; r < repeat; r++)
                  {
                    HydOdeStatus st = run_bramah (bc, id, rt[j], bc->atol_run, row->is_fd, &s, &res, &walls[r]);
                    if (r == 0)
                      {
                        row->ok = st == HYD_ODE_SUCCESS;
                        row->stats = res.stats;
                        row->status = g_strdup (hyd_ode_status_name (st));
                        row->error = row->ok ? sample_error (bc, &s) : NAN;
                        message = g_strdup (res.message);
                      }
                    hyd_ode_result_clear (&res);
                    if (!row->ok)
                      break;
                  }
                row->wall_s = median (walls, row->ok ? (guint) repeat : 1);
              }
            else
              {
                CvodeKind kind = (CvodeKind) (v - n_variants);
                row->is_cvode = TRUE;
                row->is_fd = kind == CV_DENSE_DQ;
                row->solver = g_strdup (cvode_names[kind]);
                for (int r = 0; r < repeat; r++)
                  {
                    HydOdeStats st;
                    char *stname = NULL, *msg = NULL;
                    gboolean ok = run_cvode (bc, kind, rt[j], &s, &st, &walls[r], &stname, &msg);
                    if (r == 0)
                      {
                        row->ok = ok;
                        row->stats = st;
                        row->status = stname;
                        row->error = ok ? sample_error (bc, &s) : NAN;
                        message = msg;
                      }
                    else
                      {
                        g_free (stname);
                        g_free (msg);
                      }
                    if (!row->ok)
                      break;
                  }
                row->wall_s = median (walls, row->ok ? (guint) repeat : 1);
              }
            row->stats.wall_s = row->wall_s;
            if (row->ok && isnan (row->error))
              {
                /* every sample must be there to be compared */
                row->ok = FALSE;
                g_free (row->status);
                row->status = g_strdup ("missing-samples");
              }
            g_ptr_array_add (rows, row);
            print_row (bc, row, csv);
            if (!row->ok && message)
              fprintf (stderr, "%s %s rtol %g: %s\n", bc->name, row->solver, row->rtol, message);
          }
    }

  if (circuits->len > 0)
    print_ratios (circuits, rows, solvers, with_cvode, fd, (const double *) rtols->data,
                  rtols->len);

  if (csv && !hyd_cli_output_commit (g_steal_pointer (&csv), &error))
    {
      status = hyd_cli_failed_error (error);
      g_clear_error (&error);
    }
  if (plot_path && circuits->len > 0)
    {
      /* drawn to a temporary beside the PNG and renamed when complete */
      g_autoptr (HydCliOutput) plot = hyd_cli_output_open_path (plot_path, &error);
      gboolean ok = plot != NULL && write_plot (hyd_cli_output_write_path (plot), circuits, rows, &error);
      if (ok)
        ok = hyd_cli_output_commit (g_steal_pointer (&plot), &error);
      if (!ok)
        {
          status = hyd_cli_failed_error (error);
          g_clear_error (&error);
        }
      else
        printf ("\nwork-precision plot: %s\n", plot_path);
    }

  if (with_cvode)
    SUNContext_Free (&sun_ctx);
  return status;
}

const HydCliCommand hyd_cli_bench_command = {
  HYD_CLI_BENCH_NAME_SUMMARY, run,
};
