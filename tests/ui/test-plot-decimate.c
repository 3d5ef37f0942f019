/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-plot-decimate.c — min/max decimation per pixel column (no display):
 * the drawn polyline covers exactly the envelope of every column's samples. */
#include <math.h>
#include "hyd-plot-view.h"

typedef struct {
  double min, max;
  gboolean used;
} Range;

/* Per column: the samples' range, and the range of the polyline's vertices
 * at that column's centre. */
static void
check_envelope (const double *t, const double *y, gsize n, double x0, double x1, guint n_columns)
{
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ys = g_array_new (FALSE, FALSE, sizeof (double));
  guint len = hyd_plot_decimate (t, y, n, x0, x1, n_columns, xs, ys);
  g_assert_cmpuint (len, ==, xs->len);
  g_assert_cmpuint (len, ==, ys->len);
  /* at most 4 points per column and per piece of a column a break splits,
   * one each side, and the breaks */
  guint breaks = 0;
  for (guint j = 0; j < len; j++)
    breaks += isnan (g_array_index (xs, double, j));
  g_assert_cmpuint (len, <=, 4 * (n_columns + breaks) + 2 + breaks);

  double width = (x1 - x0) / n_columns;
  Range *samples = g_new0 (Range, n_columns);
  Range *drawn = g_new0 (Range, n_columns);
  for (gsize i = 0; i < n; i++)
    {
      if (!(t[i] >= x0 && t[i] <= x1) || !isfinite (y[i]))
        continue;
      guint k = (guint) CLAMP ((t[i] - x0) / width, 0.0, (double) (n_columns - 1));
      Range *r = &samples[k];
      r->min = r->used ? MIN (r->min, y[i]) : y[i];
      r->max = r->used ? MAX (r->max, y[i]) : y[i];
      r->used = TRUE;
    }
  const double *px = (const double *) xs->data, *py = (const double *) ys->data;
  for (guint j = 0; j < len; j++)
    {
      if (isnan (px[j]))
        {
          g_assert_true (isnan (py[j]));
          continue;
        }
      double kf = (px[j] - x0) / width - 0.5;
      guint k = (guint) lround (kf);
      if (fabs (kf - k) > 1e-6 || kf < -0.5 || k >= n_columns)
        continue;   /* an edge sample outside [x0, x1] */
      Range *r = &drawn[k];
      r->min = r->used ? MIN (r->min, py[j]) : py[j];
      r->max = r->used ? MAX (r->max, py[j]) : py[j];
      r->used = TRUE;
    }
  for (guint k = 0; k < n_columns; k++)
    {
      g_assert_cmpint (samples[k].used, ==, drawn[k].used);
      if (!samples[k].used)
        continue;
      g_assert_cmpfloat (samples[k].min, ==, drawn[k].min);
      g_assert_cmpfloat (samples[k].max, ==, drawn[k].max);
    }
  g_free (samples);
  g_free (drawn);
}

static void
test_envelope_large (void)
{
  gsize n = 1000000;
  double *t = g_new (double, n), *y = g_new (double, n);
  GRand *rand = g_rand_new_with_seed (42);
  for (gsize i = 0; i < n; i++)
    {
      t[i] = i * 1e-5;
      y[i] = sin (t[i] * 7.0) * 100 + g_rand_double_range (rand, -5, 5)
             + (i % 50000 == 17 ? 500.0 : 0.0);   /* spikes must survive */
    }
  for (gsize i = 300020; i < 300120; i++)
    y[i] = NAN;   /* a hole */
  g_rand_free (rand);

  gint64 start = g_get_monotonic_time ();
  check_envelope (t, y, n, 0.0, t[n - 1], 800);
  g_test_message ("10⁶ samples → 800 columns and checked in %.1f ms",
                  (g_get_monotonic_time () - start) / 1000.0);
  check_envelope (t, y, n, 1.234, 5.678, 333);      /* a window inside */
  check_envelope (t, y, n, -1.0, 20.0, 1000);       /* wider than the data */
  check_envelope (t, y, n, 0.0, t[n - 1], 1);

  /* the spikes are in the drawn line */
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ys = g_array_new (FALSE, FALSE, sizeof (double));
  hyd_plot_decimate (t, y, n, 0.0, t[n - 1], 500, xs, ys);
  guint spikes = 0;
  gboolean hole = FALSE;
  for (guint j = 0; j < ys->len; j++)
    {
      spikes += g_array_index (ys, double, j) > 350.0;
      hole |= isnan (g_array_index (ys, double, j));
    }
  g_assert_cmpuint (spikes, ==, n / 50000);
  g_assert_true (hole);

  /* timing: the decimation is linear and fast */
  start = g_get_monotonic_time ();
  for (int r = 0; r < 10; r++)
    hyd_plot_decimate (t, y, n, 0.0, t[n - 1], 1200, xs, ys);
  double ms = (g_get_monotonic_time () - start) / 10000.0;
  g_test_message ("decimating 10⁶ samples: %.2f ms", ms);
  g_assert_cmpfloat (ms, <, 200.0);   /* generous: milliseconds in practice */

  g_free (t);
  g_free (y);
}

static void
test_few_samples_kept (void)
{
  const double t[] = { 0, 1, 2, 3, 4, 5 };
  const double y[] = { 1, 2, NAN, 4, 5, 6 };
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ys = g_array_new (FALSE, FALSE, sizeof (double));
  guint len = hyd_plot_decimate (t, y, 6, 0.5, 4.5, 100, xs, ys);
  /* 0 (left neighbour) 1 | break | 3 4 5 (right neighbour) */
  g_assert_cmpuint (len, ==, 6);
  g_assert_cmpfloat (g_array_index (xs, double, 0), ==, 0.0);
  g_assert_cmpfloat (g_array_index (ys, double, 1), ==, 2.0);
  g_assert_true (isnan (g_array_index (xs, double, 2)));
  g_assert_cmpfloat (g_array_index (ys, double, 5), ==, 6.0);
}

static void
test_degenerate (void)
{
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ys = g_array_new (FALSE, FALSE, sizeof (double));
  const double t[] = { 0, 1 }, y[] = { 1, 2 };
  g_assert_cmpuint (hyd_plot_decimate (NULL, NULL, 0, 0, 1, 10, xs, ys), ==, 0);
  g_assert_cmpuint (hyd_plot_decimate (t, y, 2, 1, 1, 10, xs, ys), ==, 0);        /* empty range */
  g_assert_cmpuint (hyd_plot_decimate (t, y, 2, 0, NAN, 10, xs, ys), ==, 0);
  g_assert_cmpuint (hyd_plot_decimate (t, y, 2, 0, 1, 0, xs, ys), ==, 2);         /* 0 columns → 1 */
  const double nan_y[] = { NAN, NAN };
  g_assert_cmpuint (hyd_plot_decimate (t, nan_y, 2, 0, 1, 10, xs, ys), ==, 0);
  g_assert_cmpuint (hyd_plot_decimate (t, y, 2, 5, 6, 10, xs, ys), ==, 1);        /* left neighbour only */
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/plot/decimate/envelope", test_envelope_large);
  g_test_add_func ("/ui/plot/decimate/few-samples", test_few_samples_kept);
  g_test_add_func ("/ui/plot/decimate/degenerate", test_degenerate);
  return g_test_run ();
}
