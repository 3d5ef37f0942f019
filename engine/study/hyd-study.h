/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-study.h — parameter studies: many runs of one circuit, each with its
 * own values of some parameters, each reduced to a few numbers (metrics).
 *
 * A study is a list of varied parameters (HydStudyVary: a grid LO:HI:N, a
 * range LO:HI, a normal distribution), a design (the full grid, or N
 * random or Latin-hypercube samples from a seed), and a list of metrics
 * (HydStudyMetric: final, min, max, mean, rms, overshoot, settling,
 * time_to, itae, ise, iae of one variable). Run k's values are a function
 * of (design, seed, k) alone, so any number of threads or processes, in
 * any order, computes the same runs and the same rows (docs/cli.md,
 * "sweep").
 *
 * Each run sets its values on the study's circuit exactly as `bramah-cli
 * simulate --set` does (hyd_circuit_component_set_param_from_string, with
 * the value written in its shortest exact form) and compiles it: a value
 * may enter the initial state (a cylinder's initial position), the
 * compile's checks (a volume's size) or the model's structure (a whole
 * number, a choice), which a change of the compiled system
 * (hyd_system_override_param) would not redo. The base circuit is
 * compiled once when the study is prepared (its variables checked, its
 * warnings reported); a run's compile costs 15–80 µs on the examples,
 * against 0.5–75 ms for their runs. */
#pragma once

#include <glib.h>

#include "hyd-circuit.h"
#include "hyd-run.h"
#include "hyd-system.h"

G_BEGIN_DECLS

/* Errors of a study's set-up: SPEC, the text of a --vary or --metric is
 * malformed or does not fit the design (a usage error); CIRCUIT, the
 * circuit refuses it (no such component, parameter or variable, a bound
 * outside the parameter's range). */
#define HYD_STUDY_ERROR (hyd_study_error_quark ())
GQuark hyd_study_error_quark (void);
typedef enum {
  HYD_STUDY_ERROR_SPEC,
  HYD_STUDY_ERROR_CIRCUIT,
} HydStudyError;

/* ---- the portable random numbers ----
 * SplitMix64 (Steele, Lea & Flood 2014, "Fast splittable pseudorandom
 * number generators", OOPSLA): state += 0x9E3779B97F4A7C15, output a mix
 * of the state. Integer arithmetic only, so the same on every machine. */
guint64 hyd_study_splitmix64 (guint64 *state);
/* The k-th (k ≥ 0) output of the SplitMix64 stream seeded with `seed`,
 * as a double in (0, 1): (top 53 bits + 0.5)·2⁻⁵³, never 0 nor 1. */
double hyd_study_uniform (guint64 seed, guint64 k);
/* The standard normal quantile Φ⁻¹(p), 0 < p < 1 (Wichura 1988, Algorithm
 * AS 241, PPND16: relative error about 1e-16). */
double hyd_study_normal_quantile (double p);

/* ---- varied parameters ---- */
typedef enum {
  HYD_STUDY_VARY_GRID,    /* LO:HI:N — N equally spaced values, LO and HI included */
  HYD_STUDY_VARY_RANGE,   /* LO:HI or uniform:LO:HI — uniform in [LO, HI] */
  HYD_STUDY_VARY_NORMAL,  /* normal:MEAN:SD */
} HydStudyVaryKind;

typedef struct {
  char *name;        /* "C1.piston_diameter": the CSV's column */
  char *component;
  char *param;
  HydStudyVaryKind kind;
  double a, b;       /* LO, HI; or MEAN, SD */
  guint64 n;         /* grid points */
} HydStudyVary;

/* "ID.PARAM=SPEC" (the first '.' separates the id, as for --set); SPEC in
 * SI units. FALSE with a message naming the text on a malformed spec. */
gboolean hyd_study_vary_parse (const char *text, HydStudyVary *vary, GError **error);
void hyd_study_vary_clear (HydStudyVary *vary);

/* ---- metrics ---- */
typedef enum {
  HYD_STUDY_METRIC_FINAL,
  HYD_STUDY_METRIC_MIN,
  HYD_STUDY_METRIC_MAX,
  HYD_STUDY_METRIC_MEAN,       /* time average (trapezoidal) over the run */
  HYD_STUDY_METRIC_RMS,        /* √(time average of v²) */
  HYD_STUDY_METRIC_OVERSHOOT,  /* % of the step from the first to the final value */
  HYD_STUDY_METRIC_SETTLING,   /* s: when it enters and stays within ±band of the step around the final value */
  HYD_STUDY_METRIC_TIME_TO,    /* s: the first time VAR op X */
  HYD_STUDY_METRIC_ITAE,       /* ∫ t·|v| dt */
  HYD_STUDY_METRIC_ISE,        /* ∫ v² dt */
  HYD_STUDY_METRIC_IAE,        /* ∫ |v| dt */
} HydStudyMetricKind;

typedef enum {
  HYD_STUDY_GE, HYD_STUDY_LE, HYD_STUDY_GT, HYD_STUDY_LT,
} HydStudyCompare;

typedef struct {
  char *name;        /* the spec as the CSV's column: "final:C1.x" */
  HydStudyMetricKind kind;
  char *var;         /* the variable (hyd_system_find_variable) */
  HydStudyCompare op;
  double x;          /* time_to's threshold */
  double band;       /* settling's band, a fraction of the step (default 0.02) */
} HydStudyMetric;

/* "KIND:VAR", "settling:VAR[:PERCENT%]", "time_to:VAR>=X" (also <=, >, <). */
gboolean hyd_study_metric_parse (const char *text, HydStudyMetric *metric, GError **error);
void hyd_study_metric_clear (HydStudyMetric *metric);
/* The metric of samples (t[k], v[k]), k < n, n ≥ 1 (docs/cli.md, "sweep"):
 * NAN when undefined (a threshold never reached, no step to overshoot or
 * settle). */
double hyd_study_metric_compute (const HydStudyMetric *metric, const double *t, const double *v, gsize n);

/* ---- the study ---- */
typedef enum {
  HYD_STUDY_DESIGN_GRID,    /* every combination of the grids, the first --vary slowest */
  HYD_STUDY_DESIGN_RANDOM,  /* N independent samples */
  HYD_STUDY_DESIGN_LHS,     /* N samples, Latin hypercube (McKay, Beckman & Conover 1979) */
} HydStudyDesign;

typedef struct _HydStudy HydStudy;

/* A study of a copy of `circuit` (its parameters as the study's runs
 * start: --set already applied) run with `sim`. */
HydStudy *hyd_study_new (const HydCircuit *circuit, const HydSimOptions *sim, gboolean fd_jacobian);
void hyd_study_free (HydStudy *study);
gboolean hyd_study_add_vary (HydStudy *study, const char *spec, GError **error);
gboolean hyd_study_add_metric (HydStudy *study, const char *spec, GError **error);
/* n: the samples of RANDOM and LHS (ignored for GRID). */
void hyd_study_set_design (HydStudy *study, HydStudyDesign design, guint64 n, guint64 seed);
/* Checks the parameters against the design (a grid for GRID, a range or a
 * distribution otherwise) and the circuit (component, parameter, a grid's
 * or range's ends inside the parameter's range), compiles the circuit with
 * its values as they are, checks the metrics' variables, and lays out the
 * design. The errors name the --vary or --metric. */
gboolean hyd_study_prepare (HydStudy *study, GError **error);
/* The compile of the base circuit (its warnings), after prepare. */
HydSystem *hyd_study_get_system (HydStudy *study);

guint64 hyd_study_get_n_runs (const HydStudy *study);
guint hyd_study_get_n_vary (const HydStudy *study);
const HydStudyVary *hyd_study_get_vary (const HydStudy *study, guint j);
guint hyd_study_get_n_metrics (const HydStudy *study);
const HydStudyMetric *hyd_study_get_metric (const HydStudy *study, guint i);
/* Run k's values, values[n_vary]. */
void hyd_study_get_values (const HydStudy *study, guint64 run, double *values);
/* "run,C1.d,…,status,final:C1.x,…,message\n". Free it. */
char *hyd_study_header (const HydStudy *study);
/* One row: the run, its values, the status, the metrics (empty when the
 * run failed), the message (on one line: control characters become
 * spaces; CSV-quoted when it holds a comma or a quote), '\n'. */
char *hyd_study_format_row (const HydStudy *study, guint64 run, const double *values, const char *status,
                            const double *metrics, const char *message);
/* What a row of the run begins with: "RUN,V1,…,Vn," (a row written
 * earlier is checked against it). Free it. */
char *hyd_study_format_prefix (const HydStudy *study, guint64 run, const double *values);
/* The run index of a row, or FALSE when it does not start with one. */
gboolean hyd_study_row_run (const char *row, guint64 *run);

/* ---- one run ----
 * A worker owns a copy of the circuit and runs one set of values at a time;
 * one per thread. */
typedef struct _HydStudyWorker HydStudyWorker;

HydStudyWorker *hyd_study_worker_new (HydStudy *study);
void hyd_study_worker_free (HydStudyWorker *worker);
/* Run with values[n_vary]: metrics[n_metrics] and the status ("ok", or
 * "invalid-value" — a value the parameter refuses —, "compile-failed",
 * "cancelled", "timeout" (hyd_study_set_timeout), or the solver's failure
 * as hyd_ode_status_name names it);
 * *message is NULL for "ok", else the reason (free it). `cancel` (may be
 * NULL) stops the run. */
const char *hyd_study_worker_run (HydStudyWorker *worker, const double *values, double *metrics, char **message,
                                  const gint *cancel);

/* ---- a time limit a run ----
 * `seconds` of wall-clock time (monotonic) for each run, its compile
 * included; 0 (the default): none. A run over it stops at its solver's
 * next step or Newton iteration (a watchdog thread of the worker sets the
 * run's cancel flag) and hyd_study_worker_run returns "timeout", the
 * message naming the limit and the simulated time reached. */
void hyd_study_set_timeout (HydStudy *study, double seconds);
double hyd_study_get_timeout (const HydStudy *study);
/* That message, for a run stopped at t_reached (NAN: before its first
 * step). Free it. */
char *hyd_study_timeout_message (const HydStudy *study, double t_reached);

/* ---- one run in a child process ----
 * A worker in a process of its own (fork, then a socket pair): a run that
 * crashes it (a signal such as SIGSEGV, SIGABRT, SIGFPE, or SIGKILL from
 * the out-of-memory killer) returns "crashed", the message naming the
 * signal, and the next run gets a new process. Other runs give the same
 * status, metrics (bit for bit) and message as hyd_study_worker_run. With
 * a time limit, a run that has not answered at 2·limit + 1 s (stuck where
 * the solver does not look at its flag) is killed: "timeout". The child
 * is started at the first run, ends with the parent (Linux: it is killed
 * when the parent dies) or when freed, and keeps no descriptor but its
 * socket. Fork copies only the calling thread: call it where no other
 * thread of the caller's holds a lock the run needs (a study's own
 * threads, for instance; MPI's progress threads are fine). */
typedef struct _HydStudyProcess HydStudyProcess;

HydStudyProcess *hyd_study_process_new (HydStudy *study);
void hyd_study_process_free (HydStudyProcess *process);
const char *hyd_study_process_run (HydStudyProcess *process, const double *values, double *metrics,
                                   char **message);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydStudyProcess, hyd_study_process_free)

/* ---- a pool of threads over a list of runs ----
 * `jobs` threads take the next run of `runs` when they finish one (dynamic
 * scheduling); hyd_study_pool_take gives runs of the same list to other
 * takers (the ranks of an MPI study). Rows come out in the order the runs
 * finish. */
typedef struct _HydStudyPool HydStudyPool;

HydStudyPool *hyd_study_pool_new (HydStudy *study, guint jobs, const guint64 *runs, guint64 n_runs);
/* The same with `jobs` child processes (as HydStudyProcess) instead of
 * threads: hyd_study_pool_pop hands them runs, waits for their answers
 * (poll) and replaces a child that died; so call pop from one thread, and
 * take/cancel from it too. A crashed run is a row "crashed"; cancel and
 * free kill the children that still run and reap them all. */
HydStudyPool *hyd_study_pool_new_isolated (HydStudy *study, guint jobs, const guint64 *runs, guint64 n_runs);
/* The next run nobody has taken; FALSE when none is left (or cancelled). */
gboolean hyd_study_pool_take (HydStudyPool *pool, guint64 *run);
/* The next finished row of the pool's threads, waiting up to timeout_us
 * (< 0: until one comes). TRUE and the row (free it), its run, and whether
 * it is ok; FALSE when none came in time or *done (every thread has ended
 * and every row was popped). */
gboolean hyd_study_pool_pop (HydStudyPool *pool, gint64 timeout_us, guint64 *run, char **row, gboolean *ok,
                             gboolean *done);
/* Stop: no more runs are taken and the running ones are cancelled (their
 * rows are not delivered). */
void hyd_study_pool_cancel (HydStudyPool *pool);
/* Cancels what still runs and joins the threads. */
void hyd_study_pool_free (HydStudyPool *pool);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydStudy, hyd_study_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydStudyWorker, hyd_study_worker_free)

G_END_DECLS
