/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-study.c — parameter studies (engine/study/hyd-study.h): the random
 * numbers, the designs, the metrics, and runs that equal a circuit set and
 * compiled by hand; the time limit a run, and runs in child processes
 * (the same rows, no descriptor or process left behind). */
#include <glib.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include "hyd-dtoa.h"
#include "hyd-study.h"

/* A unit step into a second-order filter, ω = 10 rad/s; E1.Y = 1 − y (read
 * by a gain: an output is a variable when it is wired). */
static const char second_order[] =
  "{\"format\":\"bramah-circuit\",\"version\":1,"
  "\"simulation\":{\"t_end\":3,\"output_interval\":0.001},"
  "\"components\":["
  "{\"id\":\"W1\",\"type\":\"constant\",\"position\":[0,0],\"params\":{\"value\":1}},"
  "{\"id\":\"E1\",\"type\":\"sum\",\"position\":[100,0],\"params\":{\"signs\":\"+-\"}},"
  "{\"id\":\"G1\",\"type\":\"second_order_filter\",\"position\":[200,0],"
  "\"params\":{\"natural_frequency\":10,\"damping_ratio\":0.7}},"
  "{\"id\":\"K1\",\"type\":\"gain\",\"position\":[300,0],\"params\":{}}],"
  "\"connections\":[{\"from\":\"W1.Y\",\"to\":\"E1.U1\"},{\"from\":\"W1.Y\",\"to\":\"G1.U\"},"
  "{\"from\":\"G1.Y\",\"to\":\"E1.U2\"},{\"from\":\"E1.Y\",\"to\":\"K1.U\"}]}";

static HydCircuit *
load_second_order (void)
{
  g_autoptr (GError) error = NULL;
  HydCircuit *c = hyd_circuit_load_from_data (second_order, -1, "second-order.bramah", &error);
  g_assert_no_error (error);
  return c;
}

/* The published first outputs of SplitMix64 seeded with 1234567 (Steele,
 * Lea & Flood's splitmix64.c). */
static void
test_splitmix_reference (void)
{
  const guint64 want[] = { G_GUINT64_CONSTANT (6457827717110365317), G_GUINT64_CONSTANT (3203168211198807973),
                           G_GUINT64_CONSTANT (9817491932198370423), G_GUINT64_CONSTANT (4593380528125082431),
                           G_GUINT64_CONSTANT (16408922859458223821) };
  guint64 state = 1234567;
  for (guint k = 0; k < G_N_ELEMENTS (want); k++)
    g_assert_cmpuint (hyd_study_splitmix64 (&state), ==, want[k]);
  /* hyd_study_uniform (seed, k) is the stream's k-th output, in (0, 1) */
  for (guint k = 0; k < G_N_ELEMENTS (want); k++)
    g_assert_cmpfloat (hyd_study_uniform (1234567, k), ==, ((double) (want[k] >> 11) + 0.5) * 0x1p-53);
  g_assert_cmpfloat (hyd_study_uniform (0, 0), >, 0.0);
  g_assert_cmpfloat (hyd_study_uniform (0, 0), <, 1.0);
}

/* Φ⁻¹ at probabilities whose quantiles are whole numbers: Φ(1), Φ(3),
 * Φ(−5), Φ(−7) to 16 digits (the last one in AS 241's far tail). */
static void
test_normal_quantile (void)
{
  const struct { double p, x; } cases[] = {
    { 0.5, 0.0 },
    { 0.8413447460685429, 1.0 },
    { 0.9986501019683699, 3.0 },
    { 2.866515718791939e-07, -5.0 },
    { 1.279812543885835e-12, -7.0 },
    { 0.975, 1.959963984540054 },
  };
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    g_assert_cmpfloat_with_epsilon (hyd_study_normal_quantile (cases[k].p), cases[k].x, 1e-12);
  g_assert_true (isinf (hyd_study_normal_quantile (0.0)));
}

static HydStudy *
new_study (HydStudyDesign design, guint64 n, guint64 seed, const char *const *vary, const char *const *metrics)
{
  g_autoptr (HydCircuit) c = load_second_order ();
  g_auto (HydSimOptions) sim = { 0 };
  g_autoptr (GError) error = NULL;
  g_assert_true (hyd_circuit_get_sim_options (c, &sim, &error));
  HydStudy *s = hyd_study_new (c, &sim, FALSE);
  for (guint k = 0; vary[k]; k++)
    {
      g_assert_true (hyd_study_add_vary (s, vary[k], &error));
      g_assert_no_error (error);
    }
  for (guint k = 0; metrics[k]; k++)
    {
      g_assert_true (hyd_study_add_metric (s, metrics[k], &error));
      g_assert_no_error (error);
    }
  hyd_study_set_design (s, design, n, seed);
  gboolean ok = hyd_study_prepare (s, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  return s;
}

static void
test_grid (void)
{
  const char *vary[] = { "G1.damping_ratio=0.2:1:5", "G1.natural_frequency=5:15:3", NULL };
  const char *metrics[] = { "final:G1.Y", NULL };
  g_autoptr (HydStudy) s = new_study (HYD_STUDY_DESIGN_GRID, 0, 0, vary, metrics);
  g_assert_cmpuint (hyd_study_get_n_runs (s), ==, 15);
  double v[2];
  /* the last parameter fastest; both ends exact */
  hyd_study_get_values (s, 0, v);
  g_assert_cmpfloat (v[0], ==, 0.2);
  g_assert_cmpfloat (v[1], ==, 5);
  hyd_study_get_values (s, 1, v);
  g_assert_cmpfloat (v[0], ==, 0.2);
  g_assert_cmpfloat (v[1], ==, 10);
  hyd_study_get_values (s, 3, v);
  g_assert_cmpfloat_with_epsilon (v[0], 0.4, 1e-15);
  g_assert_cmpfloat (v[1], ==, 5);
  hyd_study_get_values (s, 14, v);
  g_assert_cmpfloat (v[0], ==, 1);
  g_assert_cmpfloat (v[1], ==, 15);
  g_autofree char *header = hyd_study_header (s);
  g_assert_cmpstr (header, ==, "run,G1.damping_ratio,G1.natural_frequency,status,final:G1.Y,message\n");
}

/* Each of N Latin-hypercube samples lies in its own stratum of every
 * parameter: the strata floor(N·u) are a permutation. */
static void
test_lhs_strata (void)
{
  const char *vary[] = { "G1.damping_ratio=0.1:1.1", "G1.natural_frequency=uniform:5:15", NULL };
  const char *metrics[] = { "final:G1.Y", NULL };
  const guint64 n = 1000;
  g_autoptr (HydStudy) s = new_study (HYD_STUDY_DESIGN_LHS, n, 42, vary, metrics);
  g_autofree guint8 *seen0 = g_new0 (guint8, n);
  g_autofree guint8 *seen1 = g_new0 (guint8, n);
  for (guint64 k = 0; k < n; k++)
    {
      double v[2];
      hyd_study_get_values (s, k, v);
      guint64 s0 = (guint64) floor ((v[0] - 0.1) / 1.0 * n), s1 = (guint64) floor ((v[1] - 5) / 10 * n);
      g_assert_cmpuint (s0, <, n);
      g_assert_cmpuint (s1, <, n);
      seen0[s0]++;
      seen1[s1]++;
    }
  for (guint64 k = 0; k < n; k++)
    {
      g_assert_cmpuint (seen0[k], ==, 1);
      g_assert_cmpuint (seen1[k], ==, 1);
    }
  /* another seed, another design; the same seed, the same */
  g_autoptr (HydStudy) again = new_study (HYD_STUDY_DESIGN_LHS, n, 42, vary, metrics);
  g_autoptr (HydStudy) other = new_study (HYD_STUDY_DESIGN_LHS, n, 43, vary, metrics);
  double a[2], b[2], c[2];
  hyd_study_get_values (s, 7, a);
  hyd_study_get_values (again, 7, b);
  hyd_study_get_values (other, 7, c);
  g_assert_cmpmem (a, sizeof a, b, sizeof b);
  g_assert_cmpfloat (a[0], !=, c[0]);
}

/* Monte Carlo: 20 000 normal samples have the mean and standard deviation
 * asked for, within 5 standard errors. */
static void
test_random_normal (void)
{
  const char *vary[] = { "G1.natural_frequency=normal:10:0.5", "G1.damping_ratio=0.3:0.9", NULL };
  const char *metrics[] = { "final:G1.Y", NULL };
  const guint64 n = 20000;
  g_autoptr (HydStudy) s = new_study (HYD_STUDY_DESIGN_RANDOM, n, 7, vary, metrics);
  double sum = 0, sum2 = 0, lo = INFINITY, hi = -INFINITY;
  for (guint64 k = 0; k < n; k++)
    {
      double v[2];
      hyd_study_get_values (s, k, v);
      sum += v[0];
      sum2 += v[0] * v[0];
      lo = MIN (lo, v[1]);
      hi = MAX (hi, v[1]);
    }
  double mean = sum / n, sd = sqrt (sum2 / n - mean * mean);
  g_assert_cmpfloat (fabs (mean - 10), <, 5 * 0.5 / sqrt (n));
  g_assert_cmpfloat (fabs (sd - 0.5), <, 5 * 0.5 / sqrt (2.0 * n));
  g_assert_cmpfloat (lo, >=, 0.3);
  g_assert_cmpfloat (hi, <=, 0.9);
  g_assert_cmpfloat (lo, <, 0.31);
  g_assert_cmpfloat (hi, >, 0.89);
}

static double
metric_of (const char *spec, const double *t, const double *v, gsize n)
{
  HydStudyMetric m;
  g_autoptr (GError) error = NULL;
  g_assert_true (hyd_study_metric_parse (spec, &m, &error));
  g_assert_no_error (error);
  double r = hyd_study_metric_compute (&m, t, v, n);
  hyd_study_metric_clear (&m);
  return r;
}

static void
test_metrics (void)
{
  /* a step response by hand: 0 → peaks at 1.2 → settles at 1 */
  const double t[] = { 0, 1, 2, 3, 4, 5 };
  const double v[] = { 0, 0.6, 1.2, 0.95, 1.01, 1.0 };
  const gsize n = G_N_ELEMENTS (t);
  g_assert_cmpfloat (metric_of ("final:x", t, v, n), ==, 1.0);
  g_assert_cmpfloat (metric_of ("min:x", t, v, n), ==, 0.0);
  g_assert_cmpfloat (metric_of ("max:x", t, v, n), ==, 1.2);
  /* trapezoids: (0.3 + 0.9 + 1.075 + 0.98 + 1.005) / 5 */
  g_assert_cmpfloat_with_epsilon (metric_of ("mean:x", t, v, n), 4.26 / 5, 1e-15);
  g_assert_cmpfloat_with_epsilon (metric_of ("overshoot:x", t, v, n), 20.0, 1e-12);
  /* 2 % band: 0.95 at t = 3 is outside, 1.01 at 4 inside; it enters at
   * 0.98 on the way 0.95 → 1.01: t = 3 + 0.03/0.06 */
  g_assert_cmpfloat_with_epsilon (metric_of ("settling:x", t, v, n), 3.5, 1e-12);
  /* 10 %: 0.95 is inside, 1.2 at t = 2 outside; enters at 1.1 on 1.2 → 0.95 */
  g_assert_cmpfloat_with_epsilon (metric_of ("settling:x:10%", t, v, n), 2.0 + 0.1 / 0.25, 1e-12);
  g_assert_cmpfloat_with_epsilon (metric_of ("time_to:x>=0.9", t, v, n), 1.5, 1e-12);
  g_assert_cmpfloat (metric_of ("time_to:x<1", t, v, n), ==, 0.0);
  g_assert_true (isnan (metric_of ("time_to:x>2", t, v, n)));
  /* integrals of a constant 2 over [0, 5] (the trapezoid is exact for
   * integrands linear in t) */
  const double c[] = { 2, 2, 2, 2, 2, 2 };
  const double m[] = { -2, 2, -2, 2, -2, 2 };
  g_assert_cmpfloat_with_epsilon (metric_of ("itae:x", t, c, n), 25.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (metric_of ("iae:x", t, m, n), 10.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (metric_of ("ise:x", t, m, n), 20.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (metric_of ("rms:x", t, m, n), 2.0, 1e-12);
  /* nothing to overshoot or settle */
  g_assert_true (isnan (metric_of ("overshoot:x", t, c, n)));
  g_assert_true (isnan (metric_of ("settling:x", t, c, n)));
}

static void
test_spec_errors (void)
{
  const char *bad_vary[] = { "G1damping=1:2:3", "G1.d=1:2:0", "G1.d=1:2:2.5", "G1.d=2:1:3", "G1.d=1:x:3",
                             "G1.d=normal:1:-1", "G1.d=1", "G1.d=1:2:3:4", "G1.d=3:4:1", "=1:2" };
  for (guint k = 0; k < G_N_ELEMENTS (bad_vary); k++)
    {
      HydStudyVary v;
      g_autoptr (GError) error = NULL;
      g_assert_false (hyd_study_vary_parse (bad_vary[k], &v, &error));
      g_assert_error (error, HYD_STUDY_ERROR, HYD_STUDY_ERROR_SPEC);
    }
  const char *bad_metric[] = { "final", "final:", "median:x", "time_to:x", "time_to:x>=", "time_to:>=1",
                               "settling:x:150%", "settling:x:5" };
  for (guint k = 0; k < G_N_ELEMENTS (bad_metric); k++)
    {
      HydStudyMetric m;
      g_autoptr (GError) error = NULL;
      g_assert_false (hyd_study_metric_parse (bad_metric[k], &m, &error));
      g_assert_error (error, HYD_STUDY_ERROR, HYD_STUDY_ERROR_SPEC);
    }
  /* the circuit refuses: no component, no parameter, an end out of range,
   * an unknown variable; the design refuses a grid in a sampled study */
  const struct { const char *vary, *metric; HydStudyDesign design; int code; } cases[] = {
    { "X9.gain=1:2:3", "final:G1.Y", HYD_STUDY_DESIGN_GRID, HYD_STUDY_ERROR_CIRCUIT },
    { "G1.nothing=1:2:3", "final:G1.Y", HYD_STUDY_DESIGN_GRID, HYD_STUDY_ERROR_CIRCUIT },
    { "G1.damping_ratio=-1:2:3", "final:G1.Y", HYD_STUDY_DESIGN_GRID, HYD_STUDY_ERROR_CIRCUIT },
    { "G1.damping_ratio=0:2:3", "final:G1.Q", HYD_STUDY_DESIGN_GRID, HYD_STUDY_ERROR_CIRCUIT },
    { "G1.damping_ratio=0:2:3", "final:G1.Y", HYD_STUDY_DESIGN_LHS, HYD_STUDY_ERROR_SPEC },
    { "G1.damping_ratio=0:2", "final:G1.Y", HYD_STUDY_DESIGN_GRID, HYD_STUDY_ERROR_SPEC },
  };
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autoptr (HydCircuit) c = load_second_order ();
      g_auto (HydSimOptions) sim = { 0 };
      g_autoptr (GError) error = NULL;
      g_assert_true (hyd_circuit_get_sim_options (c, &sim, NULL));
      g_autoptr (HydStudy) s = hyd_study_new (c, &sim, FALSE);
      g_assert_true (hyd_study_add_vary (s, cases[k].vary, NULL));
      g_assert_true (hyd_study_add_metric (s, cases[k].metric, NULL));
      hyd_study_set_design (s, cases[k].design, 10, 1);
      g_assert_false (hyd_study_prepare (s, &error));
      g_assert_error (error, HYD_STUDY_ERROR, cases[k].code);
    }
}

static gboolean
keep_last (double t, const double *values, guint n, gpointer user)
{
  memcpy (user, values, n * sizeof (double));
  return TRUE;
}

/* A run of the study is the circuit set as --set sets it, compiled and run
 * (the same samples, bit for bit); a value the parameter refuses is a row
 * with its status, not a failure of the study. */
static void
test_run_equals_set (void)
{
  const char *vary[] = { "G1.damping_ratio=0.2:1:5", NULL };
  const char *metrics[] = { "final:E1.Y", "max:G1.Y", NULL };
  g_autoptr (HydStudy) s = new_study (HYD_STUDY_DESIGN_GRID, 0, 0, vary, metrics);
  g_autoptr (HydStudyWorker) w = hyd_study_worker_new (s);
  for (guint64 run = 0; run < 5; run++)
    {
      double value, got[2];
      hyd_study_get_values (s, run, &value);
      g_autofree char *message = NULL;
      g_assert_cmpstr (hyd_study_worker_run (w, &value, got, &message, NULL), ==, "ok");
      g_assert_null (message);

      g_autoptr (HydCircuit) c = load_second_order ();
      g_autoptr (GError) error = NULL;
      HydFluid fluid;
      g_assert_true (hyd_circuit_get_fluid (c, &fluid, NULL));
      char buf[HYD_DTOA_BUF_SIZE];
      hyd_dtoa_shortest (value, buf);
      g_assert_true (hyd_circuit_component_set_param_from_string (hyd_circuit_find_component (c, "G1"),
                                                                  "damping_ratio", buf, &fluid, &error));
      g_auto (HydSimOptions) sim = { 0 };
      g_assert_true (hyd_circuit_get_sim_options (c, &sim, NULL));
      g_autoptr (HydSystem) sys = hyd_system_compile (c, &error);
      g_assert_no_error (error);
      int vars[2] = { hyd_system_find_variable (sys, "t"), hyd_system_find_variable (sys, "E1.Y") };
      double last[2];
      HydRunSpec spec = { .sim = &sim, .vars = vars, .n_vars = 2, .sample = keep_last, .user = last };
      g_auto (HydOdeResult) res = { 0 };
      g_assert_cmpint (hyd_run_execute (sys, &spec, &res, NULL), ==, HYD_ODE_SUCCESS);
      g_assert_cmpmem (&got[0], sizeof (double), &last[1], sizeof (double));
    }
  /* refused by the parameter (ζ ≥ 0) */
  double bad = -0.5, got[2];
  g_autofree char *message = NULL;
  g_assert_cmpstr (hyd_study_worker_run (w, &bad, got, &message, NULL), ==, "invalid-value");
  g_assert_nonnull (strstr (message, "damping_ratio"));
  g_autofree char *row = hyd_study_format_row (s, 9, &bad, "invalid-value", got, message);
  g_assert_true (g_str_has_prefix (row, "9,-0.5,invalid-value,,,"));
  g_assert_true (g_str_has_suffix (row, "\n"));
  guint64 run;
  g_assert_true (hyd_study_row_run (row, &run));
  g_assert_cmpuint (run, ==, 9);
}

/* The pool: every run once, the same rows for 1 and 3 threads. */
static GPtrArray *
pool_rows (HydStudy *s, guint jobs)
{
  guint64 n = hyd_study_get_n_runs (s);
  g_autofree guint64 *runs = g_new (guint64, n);
  for (guint64 k = 0; k < n; k++)
    runs[k] = k;
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_set_size (rows, (guint) n);
  HydStudyPool *pool = hyd_study_pool_new (s, jobs, runs, n);
  guint64 run;
  char *row;
  gboolean ok, done = FALSE;
  while (!done)
    if (hyd_study_pool_pop (pool, -1, &run, &row, &ok, &done))
      {
        g_assert_null (rows->pdata[run]);
        rows->pdata[run] = row;
      }
  hyd_study_pool_free (pool);
  for (guint64 k = 0; k < n; k++)
    g_assert_nonnull (rows->pdata[k]);
  return rows;
}

static void
test_pool_jobs (void)
{
  const char *vary[] = { "G1.damping_ratio=normal:0.3:0.4", NULL };
  const char *metrics[] = { "overshoot:G1.Y", "settling:G1.Y", "ise:E1.Y", NULL };
  g_autoptr (HydStudy) s = new_study (HYD_STUDY_DESIGN_RANDOM, 40, 3, vary, metrics);
  g_autoptr (GPtrArray) one = pool_rows (s, 1);
  g_autoptr (GPtrArray) three = pool_rows (s, 3);
  guint failed = 0;
  for (guint k = 0; k < one->len; k++)
    {
      g_assert_cmpstr (one->pdata[k], ==, three->pdata[k]);
      failed += strstr (one->pdata[k], "invalid-value") != NULL;
    }
  /* ζ ~ N(0.3, 0.4): about 23 % of the samples are negative and refused
   * (none in 40: probability 3·10⁻⁵) */
  g_assert_cmpuint (failed, >, 0);
}

/* The descriptors this process has open. */
static guint
count_fds (void)
{
  g_autoptr (GDir) d = g_dir_open ("/proc/self/fd", 0, NULL);
  g_assert_nonnull (d);
  guint n = 0;
  while (g_dir_read_name (d))
    n++;
  return n;
}

/* No child process left, not even a zombie. */
static void
assert_no_children (void)
{
  errno = 0;
  g_assert_cmpint (waitpid (-1, NULL, WNOHANG), ==, -1);
  g_assert_cmpint (errno, ==, ECHILD);
}

static GPtrArray *
pool_rows_isolated (HydStudy *s, guint jobs)
{
  guint64 n = hyd_study_get_n_runs (s);
  g_autofree guint64 *runs = g_new (guint64, n);
  for (guint64 k = 0; k < n; k++)
    runs[k] = k;
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_set_size (rows, (guint) n);
  HydStudyPool *pool = hyd_study_pool_new_isolated (s, jobs, runs, n);
  guint64 run;
  char *row;
  gboolean ok, done = FALSE;
  while (!done)
    if (hyd_study_pool_pop (pool, 1000, &run, &row, &ok, &done))
      {
        g_assert_null (rows->pdata[run]);
        rows->pdata[run] = row;
      }
  hyd_study_pool_free (pool);
  for (guint64 k = 0; k < n; k++)
    g_assert_nonnull (rows->pdata[k]);
  return rows;
}

/* Child processes give the threads' rows, failed runs included, and leave
 * no descriptor and no process behind; so does one child run by run. */
static void
test_pool_isolated (void)
{
  const char *vary[] = { "G1.damping_ratio=normal:0.3:0.4", NULL };
  const char *metrics[] = { "overshoot:G1.Y", "settling:G1.Y", "ise:E1.Y", NULL };
  g_autoptr (HydStudy) s = new_study (HYD_STUDY_DESIGN_RANDOM, 24, 3, vary, metrics);
  guint fds = count_fds ();
  g_autoptr (GPtrArray) threads = pool_rows (s, 2);
  for (guint jobs = 1; jobs <= 3; jobs += 2)
    {
      g_autoptr (GPtrArray) children = pool_rows_isolated (s, jobs);
      for (guint k = 0; k < threads->len; k++)
        g_assert_cmpstr (threads->pdata[k], ==, children->pdata[k]);
      g_assert_cmpuint (count_fds (), ==, fds);
      assert_no_children ();
    }
  g_autoptr (HydStudyWorker) w = hyd_study_worker_new (s);
  HydStudyProcess *p = hyd_study_process_new (s);
  for (guint64 run = 0; run < 6; run++)
    {
      double value, a[3] = { 0 }, b[3] = { 0 };
      hyd_study_get_values (s, run, &value);
      g_autofree char *ma = NULL, *mb = NULL;
      const char *sa = hyd_study_worker_run (w, &value, a, &ma, NULL);
      const char *sb = hyd_study_process_run (p, &value, b, &mb);
      g_assert_cmpstr (sa, ==, sb);
      g_assert_cmpstr (ma, ==, mb);
      if (strcmp (sa, "ok") == 0)
        g_assert_cmpmem (a, sizeof a, b, sizeof b);
    }
  hyd_study_process_free (p);
  g_assert_cmpuint (count_fds (), ==, fds);
  assert_no_children ();
}

/* A study whose runs take long: ω = 10⁹ rad/s with the explicit dopri5
 * (steps of a few ns over 3 s). */
static HydStudy *
slow_study (const char *vary)
{
  g_autoptr (HydCircuit) c = load_second_order ();
  g_auto (HydSimOptions) sim = { 0 };
  g_autoptr (GError) error = NULL;
  g_assert_true (hyd_circuit_get_sim_options (c, &sim, &error));
  g_free (sim.solver);
  sim.solver = g_strdup ("dopri5");
  HydStudy *s = hyd_study_new (c, &sim, FALSE);
  g_assert_true (hyd_study_add_vary (s, vary, &error));
  g_assert_true (hyd_study_add_metric (s, "final:E1.Y", &error));
  hyd_study_set_design (s, HYD_STUDY_DESIGN_GRID, 0, 0);
  g_assert_true (hyd_study_prepare (s, &error));
  g_assert_no_error (error);
  return s;
}

/* The time limit: a slow run stops with "timeout" and a message naming
 * the limit and the time reached; a fast one gives the same metric, bit
 * for bit, as without a limit; the caller's cancel still cancels. */
static void
test_timeout (void)
{
  g_autoptr (HydStudy) s = slow_study ("G1.natural_frequency=10:1e9:2");
  g_autoptr (HydStudyWorker) w = hyd_study_worker_new (s);
  double fast = 10, slow = 1e9, free_metric, timed_metric;
  g_autofree char *m0 = NULL, *m1 = NULL, *m2 = NULL, *m3 = NULL;
  g_assert_cmpstr (hyd_study_worker_run (w, &fast, &free_metric, &m0, NULL), ==, "ok");
  hyd_study_set_timeout (s, 0.2);
  g_assert_cmpfloat (hyd_study_get_timeout (s), ==, 0.2);
  g_assert_cmpstr (hyd_study_worker_run (w, &fast, &timed_metric, &m1, NULL), ==, "ok");
  g_assert_cmpmem (&free_metric, sizeof (double), &timed_metric, sizeof (double));
  g_assert_cmpstr (hyd_study_worker_run (w, &slow, &timed_metric, &m2, NULL), ==, "timeout");
  g_assert_true (g_str_has_prefix (m2, "over the limit of --timeout 0.2 s (wall clock): stopped at t = "));
  g_assert_true (g_str_has_suffix (m2, " s of 3 s"));
  /* the caller's flag, set already: cancelled, not a timeout */
  gint cancel = 1;
  g_assert_cmpstr (hyd_study_worker_run (w, &slow, &timed_metric, &m3, &cancel), ==, "cancelled");
}

/* Cancelling a pool of children at work kills them: no process and no
 * descriptor is left, and no row comes after. */
static void
test_pool_isolated_cancel (void)
{
  g_autoptr (HydStudy) s = slow_study ("G1.natural_frequency=1e9:1e9:1");
  guint fds = count_fds ();
  guint64 runs[] = { 0, 0, 0 };
  HydStudyPool *pool = hyd_study_pool_new_isolated (s, 2, runs, 3);
  guint64 run;
  char *row;
  gboolean ok, done = FALSE;
  /* the children start and take a run each; none ends in 0.2 s */
  g_assert_false (hyd_study_pool_pop (pool, 200000, &run, &row, &ok, &done));
  g_assert_false (done);
  hyd_study_pool_cancel (pool);
  g_assert_false (hyd_study_pool_pop (pool, -1, &run, &row, &ok, &done));
  g_assert_true (done);
  assert_no_children ();
  hyd_study_pool_free (pool);
  g_assert_cmpuint (count_fds (), ==, fds);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/study/splitmix64-reference", test_splitmix_reference);
  g_test_add_func ("/engine/study/normal-quantile", test_normal_quantile);
  g_test_add_func ("/engine/study/grid", test_grid);
  g_test_add_func ("/engine/study/lhs-strata", test_lhs_strata);
  g_test_add_func ("/engine/study/random-normal", test_random_normal);
  g_test_add_func ("/engine/study/metrics", test_metrics);
  g_test_add_func ("/engine/study/spec-errors", test_spec_errors);
  g_test_add_func ("/engine/study/run-equals-set", test_run_equals_set);
  g_test_add_func ("/engine/study/pool-jobs", test_pool_jobs);
  g_test_add_func ("/engine/study/pool-isolated", test_pool_isolated);
  g_test_add_func ("/engine/study/timeout", test_timeout);
  g_test_add_func ("/engine/study/pool-isolated-cancel", test_pool_isolated_cancel);
  return g_test_run ();
}
