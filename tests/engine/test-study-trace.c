/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-study-trace.c — what the application's study dialog adds to the
 * parameter studies (engine/study/hyd-study.h, the block at its end): a
 * worker that also keeps one variable's samples, reduced to a few hundred
 * points that keep the envelope, and a row read back. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "hyd-study.h"

/* A unit step into a second-order filter, ω = 10 rad/s, 3001 samples;
 * E1.Y = 1 − y. */
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

static HydStudy *
new_study (const char *vary, const char *const *metrics)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) c = hyd_circuit_load_from_data (second_order, -1, "second-order.bramah", &error);
  g_assert_no_error (error);
  g_auto (HydSimOptions) sim = { 0 };
  g_assert_true (hyd_circuit_get_sim_options (c, &sim, &error));
  HydStudy *s = hyd_study_new (c, &sim, FALSE);
  g_assert_true (hyd_study_add_vary (s, vary, &error));
  for (guint k = 0; metrics[k]; k++)
    g_assert_true (hyd_study_add_metric (s, metrics[k], &error));
  hyd_study_set_design (s, HYD_STUDY_DESIGN_GRID, 0, 0);
  g_assert_true (hyd_study_prepare (s, &error));
  g_assert_no_error (error);
  return s;
}

/* The traced worker's metrics are the plain worker's, bit for bit; its
 * trace of G1.Y (a variable no metric reads) has at most the points asked
 * for, starts at t = 0 and ends at t_end, and its extremes are those of
 * every sample (max:G1.Y and min:G1.Y of a second study). */
static void
test_traced_worker (void)
{
  const char *metrics[] = { "final:E1.Y", "overshoot:E1.Y", NULL };
  const char *extremes[] = { "max:G1.Y", "min:G1.Y", NULL };
  g_autoptr (HydStudy) s = new_study ("G1.damping_ratio=0.1:1:4", metrics);
  g_autoptr (HydStudy) ref = new_study ("G1.damping_ratio=0.1:1:4", extremes);
  g_autoptr (GError) error = NULL;
  g_autoptr (HydStudyWorker) plain = hyd_study_worker_new (s);
  g_autoptr (HydStudyWorker) traced = hyd_study_worker_new_traced (s, "G1.Y", &error);
  g_assert_no_error (error);
  g_autoptr (HydStudyWorker) wref = hyd_study_worker_new (ref);
  /* a plain worker has no trace */
  double *t = NULL, *v = NULL;
  g_assert_cmpuint (hyd_study_worker_get_trace (plain, 400, &t, &v), ==, 0);
  g_assert_null (t);
  for (guint64 run = 0; run < 4; run++)
    {
      double value, a[2], b[2], ext[2];
      hyd_study_get_values (s, run, &value);
      g_autofree char *ma = NULL, *mb = NULL, *mr = NULL;
      g_assert_cmpstr (hyd_study_worker_run (plain, &value, a, &ma, NULL), ==, "ok");
      g_assert_cmpstr (hyd_study_worker_run (traced, &value, b, &mb, NULL), ==, "ok");
      g_assert_cmpstr (hyd_study_worker_run (wref, &value, ext, &mr, NULL), ==, "ok");
      g_assert_cmpmem (a, sizeof a, b, sizeof b);
      guint n = hyd_study_worker_get_trace (traced, 400, &t, &v);
      g_assert_cmpuint (n, >, 300);
      g_assert_cmpuint (n, <=, 400);
      g_assert_cmpfloat (t[0], ==, 0.0);
      g_assert_cmpfloat (fabs (t[n - 1] - 3.0), <, 1e-9);
      double lo = INFINITY, hi = -INFINITY;
      for (guint k = 0; k < n; k++)
        {
          if (k > 0)
            g_assert_cmpfloat (t[k], >, t[k - 1]);
          lo = MIN (lo, v[k]);
          hi = MAX (hi, v[k]);
        }
      g_assert_cmpfloat (hi, ==, ext[0]);
      g_assert_cmpfloat (lo, ==, ext[1]);
      g_free (t);
      g_free (v);
      /* all of them when they fit */
      n = hyd_study_worker_get_trace (traced, 10000, &t, &v);
      g_assert_cmpuint (n, ==, 3001);
      g_free (t);
      g_free (v);
    }
  /* a variable the circuit does not have */
  g_autoptr (GError) e2 = NULL;
  g_assert_null (hyd_study_worker_new_traced (s, "G1.nothing", &e2));
  g_assert_error (e2, HYD_STUDY_ERROR, HYD_STUDY_ERROR_CIRCUIT);
  g_assert_nonnull (strstr (e2->message, "G1.nothing"));
}

/* A row read back gives what it was written from: values and metrics bit
 * for bit, NaN metrics, a message with a comma, a quote and a line break
 * (written as a space), a failed run's empty metrics. */
static void
test_row_parse (void)
{
  const char *metrics[] = { "final:E1.Y", "time_to:E1.Y<=0.001", NULL };
  g_autoptr (HydStudy) s = new_study ("G1.damping_ratio=0.1:1:4", metrics);
  double values = 0.1 + 0.2, m[2] = { -1.0 / 3.0, NAN }, got_v, got_m[2];
  guint64 run;
  char *status, *message;
  g_autofree char *row = hyd_study_format_row (s, 7, &values, "ok", m, NULL);
  g_assert_true (hyd_study_row_parse (s, row, &run, &got_v, &status, got_m, &message));
  g_assert_cmpuint (run, ==, 7);
  g_assert_cmpmem (&got_v, sizeof (double), &values, sizeof (double));
  g_assert_cmpmem (&got_m[0], sizeof (double), &m[0], sizeof (double));
  g_assert_true (isnan (got_m[1]));
  g_assert_cmpstr (status, ==, "ok");
  g_assert_null (message);
  g_free (status);

  g_autofree char *bad = hyd_study_format_row (s, 12, &values, "step-underflow", m, "h < 1e-14, at \"t\"\nnow");
  g_assert_true (hyd_study_row_parse (s, bad, &run, &got_v, &status, got_m, &message));
  g_assert_cmpuint (run, ==, 12);
  g_assert_cmpstr (status, ==, "step-underflow");
  g_assert_cmpstr (message, ==, "h < 1e-14, at \"t\" now");
  g_assert_true (isnan (got_m[0]) && isnan (got_m[1]));
  g_free (status);
  g_free (message);

  /* not a row of this study: a column too few, too many, not numbers */
  g_assert_false (hyd_study_row_parse (s, "3,0.5,ok,1,\n", &run, &got_v, &status, got_m, &message));
  g_assert_false (hyd_study_row_parse (s, "3,0.5,ok,1,2,,x\n", &run, &got_v, &status, got_m, &message));
  g_assert_false (hyd_study_row_parse (s, "3,zeta,ok,1,2,\n", &run, &got_v, &status, got_m, &message));
  g_assert_false (hyd_study_row_parse (s, "3,0.5,ok,1,2,\"open\n", &run, &got_v, &status, got_m, &message));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/study-trace/traced-worker", test_traced_worker);
  g_test_add_func ("/engine/study-trace/row-parse", test_row_parse);
  return g_test_run ();
}
