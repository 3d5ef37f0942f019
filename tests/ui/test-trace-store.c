/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-trace-store.c — the run's samples: append, markers, CSV (no display). */
#include <locale.h>
#include <math.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <unistd.h>
#include "hyd-trace-store.h"

static const char *const names[] = { "t", "C1.x", "C1.A.p" };
static const HydUnit units[] = { HYD_UNIT_TIME, HYD_UNIT_POSITION, HYD_UNIT_PRESSURE };

static void
count_appended (HydTraceStore *store, guint first, guint n, gpointer data)
{
  guint *calls = data;
  calls[0]++;
  calls[1] = first;
  calls[2] = n;
}

/* Main-loop latency (issue 5): with thousands of columns, no single batch
 * moves the samples of most of them (the columns used to re-allocate all
 * in the batch that took the row count past a power of two, a stall of tens
 * of milliseconds); every value still lands where it belongs. */
static void
test_growth_spread (void)
{
  enum { N = 3000, BATCH = 8, ROWS = 2100 };
  g_auto (GStrv) many = g_new0 (char *, N + 1);
  for (guint k = 0; k < N; k++)
    many[k] = g_strdup_printf ("v%u", k);
  g_autoptr (HydTraceStore) store = hyd_trace_store_new ((const char *const *) many, NULL, N);
  g_autofree double *rows = g_new (double, (gsize) N * BATCH);
  g_autofree const double **before = g_new0 (const double *, N);
  guint worst = 0;
  for (guint first = 0; first < ROWS; first += BATCH)
    {
      for (guint r = 0; r < BATCH; r++)
        for (guint k = 0; k < N; k++)
          rows[(gsize) r * N + k] = k + 1e-4 * (first + r);
      hyd_trace_store_append (store, rows, BATCH);
      guint moved = 0;
      for (guint k = 0; k < N; k++)
        {
          const double *now = hyd_trace_store_get_column (store, k);
          if (first > 0 && now != before[k])
            moved++;
          before[k] = now;
        }
      worst = MAX (worst, moved);
    }
  g_test_message ("at most %u of %u columns moved in one batch", worst, N);
  g_assert_cmpuint (worst, <=, N / 8);
  g_assert_cmpuint (hyd_trace_store_get_n_rows (store), ==, (ROWS + BATCH - 1) / BATCH * BATCH);
  for (guint k = 0; k < N; k += 337)
    for (guint r = 0; r < ROWS; r += 101)
      g_assert_cmpfloat (hyd_trace_store_get_column (store, k)[r], ==, k + 1e-4 * r);
}

static void
test_append (void)
{
  g_autoptr(HydTraceStore) store = hyd_trace_store_new (names, units, 3);
  guint calls[3] = { 0 };
  g_signal_connect (store, "appended", G_CALLBACK (count_appended), calls);

  g_assert_cmpuint (hyd_trace_store_get_n_columns (store), ==, 3);
  g_assert_cmpuint (hyd_trace_store_get_n_rows (store), ==, 0);
  g_assert_cmpstr (hyd_trace_store_get_name (store, 2), ==, "C1.A.p");
  g_assert_cmpint (hyd_trace_store_get_unit (store, 2), ==, HYD_UNIT_PRESSURE);
  g_assert_cmpint (hyd_trace_store_find (store, "C1.x"), ==, 1);
  g_assert_cmpint (hyd_trace_store_find (store, "nope"), ==, -1);
  g_assert_cmpint (hyd_trace_store_find (store, NULL), ==, -1);
  g_assert_cmpstr (hyd_trace_store_get_names (store)[0], ==, "t");
  g_assert_null (hyd_trace_store_get_names (store)[3]);

  const double batch1[] = { 0.0, 0.1, 1e5, 0.1, 0.2, 2e5 };
  hyd_trace_store_append (store, batch1, 2);
  g_assert_cmpuint (calls[0], ==, 1);
  g_assert_cmpuint (calls[1], ==, 0);
  g_assert_cmpuint (calls[2], ==, 2);
  const double batch2[] = { 0.2, 0.3, NAN };
  hyd_trace_store_append (store, batch2, 1);
  g_assert_cmpuint (calls[0], ==, 2);
  g_assert_cmpuint (calls[1], ==, 2);
  hyd_trace_store_append (store, NULL, 0);   /* nothing: no signal */
  g_assert_cmpuint (calls[0], ==, 2);

  g_assert_cmpuint (hyd_trace_store_get_n_rows (store), ==, 3);
  const double *t = hyd_trace_store_get_column (store, 0);
  const double *x = hyd_trace_store_get_column (store, 1);
  const double *p = hyd_trace_store_get_column (store, 2);
  g_assert_cmpfloat (t[2], ==, 0.2);
  g_assert_cmpfloat (x[1], ==, 0.2);
  g_assert_cmpfloat (p[1], ==, 2e5);
  g_assert_true (isnan (p[2]));

  /* a big batch */
  guint n = 100000;
  double *rows = g_new (double, 3 * n);
  for (guint i = 0; i < n; i++)
    {
      rows[3 * i] = 1.0 + i * 1e-5;
      rows[3 * i + 1] = i;
      rows[3 * i + 2] = -(double) i;
    }
  hyd_trace_store_append (store, rows, n);
  g_free (rows);
  g_assert_cmpuint (hyd_trace_store_get_n_rows (store), ==, 3 + n);
  g_assert_cmpfloat (hyd_trace_store_get_column (store, 2)[3 + n - 1], ==, -(double) (n - 1));

  g_assert_true (isnan (hyd_trace_store_get_t_end (store)));
  hyd_trace_store_set_t_end (store, 2.0);
  g_assert_cmpfloat (hyd_trace_store_get_t_end (store), ==, 2.0);
}

static void
count_marker (HydTraceStore *store, guint index, gpointer data)
{
  *(guint *) data = index + 100;
}

static void
test_markers (void)
{
  g_autoptr(HydTraceStore) store = hyd_trace_store_new (names, units, 3);
  guint last = 0;
  g_signal_connect (store, "marker-added", G_CALLBACK (count_marker), &last);
  g_assert_cmpuint (hyd_trace_store_get_n_markers (store), ==, 0);
  hyd_trace_store_add_marker (store, 0.5, "RV1.cracking_pressure 100 → 120 bar");
  g_assert_cmpuint (last, ==, 100);
  hyd_trace_store_add_marker (store, 1.25, NULL);
  g_assert_cmpuint (last, ==, 101);
  g_assert_cmpuint (hyd_trace_store_get_n_markers (store), ==, 2);
  double t;
  const char *label;
  hyd_trace_store_get_marker (store, 0, &t, &label);
  g_assert_cmpfloat (t, ==, 0.5);
  g_assert_cmpstr (label, ==, "RV1.cracking_pressure 100 → 120 bar");
  hyd_trace_store_get_marker (store, 1, &t, &label);
  g_assert_cmpfloat (t, ==, 1.25);
  g_assert_cmpstr (label, ==, "");
}

static char *
read_file (const char *path)
{
  char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static void
test_csv (void)
{
  g_autoptr(HydTraceStore) store = hyd_trace_store_new (names, units, 3);
  const double rows[] = {
    0.0, 0.0, 101325.0,
    0.001, 1.234567890123e-3, 1.5e7,
    0.002, -2.5e-9, NAN,
  };
  hyd_trace_store_append (store, rows, 3);

  g_autofree char *dir = g_dir_make_tmp ("hyd-trace-store-XXXXXX", NULL);
  g_autofree char *all = g_build_filename (dir, "all.csv", NULL);
  g_autofree char *some = g_build_filename (dir, "some.csv", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (hyd_trace_store_write_csv (store, NULL, all, &error));
  g_assert_no_error (error);
  g_autofree char *text = read_file (all);
  /* the plots' words and units (issue 8, item 14): one header per column,
   * "<where>: <Quantity> [<unit>]" as the axes name them, the values in
   * those units (mm, bar) at full precision */
  g_assert_cmpstr (text, ==,
                   "Time [s],C1: Position [mm],C1.A: Pressure [bar]\n"
                   "0,0,1.01325\n"
                   "0.001,1.23456789,150\n"
                   "0.002,-2.5e-06,nan\n");

  /* chosen columns: t is always first, once */
  const char *const chosen[] = { "C1.A.p", "t", NULL };
  g_assert_true (hyd_trace_store_write_csv (store, chosen, some, &error));
  g_assert_no_error (error);
  g_autofree char *text2 = read_file (some);
  g_assert_cmpstr (text2, ==, "Time [s],C1.A: Pressure [bar]\n0,1.01325\n0.001,150\n0.002,nan\n");

  /* '.' whatever the locale */
  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") || setlocale (LC_NUMERIC, "de_DE.utf8"))
    {
      g_assert_true (hyd_trace_store_write_csv (store, NULL, all, &error));
      g_autofree char *text3 = read_file (all);
      g_assert_cmpstr (text3, ==, text);
      setlocale (LC_NUMERIC, "C");
    }

  /* errors */
  const char *const unknown[] = { "C9.x", NULL };
  g_assert_false (hyd_trace_store_write_csv (store, unknown, some, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_autofree char *bad = g_build_filename (dir, "missing-dir", "x.csv", NULL);
  g_assert_false (hyd_trace_store_write_csv (store, NULL, bad, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* an empty store writes its header */
  g_autoptr(HydTraceStore) empty = hyd_trace_store_new (names, units, 3);
  g_assert_true (hyd_trace_store_write_csv (empty, NULL, all, &error));
  g_autofree char *text4 = read_file (all);
  g_assert_cmpstr (text4, ==, "Time [s],C1: Position [mm],C1.A: Pressure [bar]\n");

  /* two variables with the same words (a line's q_A is the flow into its
   * port A) are told apart by their names; a header holding the separator
   * or a quote is quoted (RFC 4180), so one header row stays one row */
  const char *const same[] = { "t", "L1.q_A", "L1.A.q", "X,\"1.foo" };
  const HydUnit same_units[] = { HYD_UNIT_TIME, HYD_UNIT_FLOW, HYD_UNIT_FLOW, HYD_UNIT_NONE };
  g_autoptr(HydTraceStore) twins = hyd_trace_store_new (same, same_units, 4);
  const double twin_row[] = { 0.5, 2.5e-4, 2.5e-4, 3.0 };
  hyd_trace_store_append (twins, twin_row, 1);
  g_assert_true (hyd_trace_store_write_csv (twins, NULL, all, &error));
  g_assert_no_error (error);
  g_autofree char *text5 = read_file (all);
  g_assert_cmpstr (text5, ==,
                   "Time [s],L1.A: Flow [L/min],L1.A: Flow (L1.A.q) [L/min],\"X,\"\"1: foo\"\n"
                   "0.5,15,15,3\n");

  /* written whole under another name and renamed over the old file, never
   * rewritten in place: a second link to the old file keeps the old text
   * (a reader that opened the old file meanwhile reads it whole), and the
   * folder holds no temporary afterwards */
  g_autofree char *second = g_build_filename (dir, "link.csv", NULL);
  g_assert_true (g_file_set_contents (some, "old\n", -1, NULL));
  g_assert_cmpint (link (some, second), ==, 0);
  g_assert_true (hyd_trace_store_write_csv (store, chosen, some, &error));
  g_assert_no_error (error);
  g_autofree char *kept = read_file (second);
  g_assert_cmpstr (kept, ==, "old\n");
  g_autofree char *text6 = read_file (some);
  g_assert_cmpstr (text6, ==, text2);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n_files = 0;
  while (g_dir_read_name (d) != NULL)
    n_files++;
  g_assert_cmpuint (n_files, ==, 3);   /* all.csv, some.csv, link.csv */

  /* a device is written in place (nothing to rename over /dev/null) */
  g_assert_true (hyd_trace_store_write_csv (store, chosen, "/dev/null", &error));
  g_assert_no_error (error);

  g_unlink (second);
  g_unlink (all);
  g_unlink (some);
  g_rmdir (dir);
}

static void
compacted_cb (HydTraceStore *store, guint *count)
{
  (*count)++;
}

/* The memory cap (issue 9): a run longer than the cap is thinned, never
 * grows past it, and keeps every peak. */
static void
test_cap (void)
{
  const char *names[] = { "t", "a", "b" };
  HydUnit units[] = { HYD_UNIT_TIME, HYD_UNIT_PRESSURE, HYD_UNIT_POSITION };
  g_autoptr (HydTraceStore) store = hyd_trace_store_new (names, units, 3);
  g_assert_cmpuint (hyd_trace_store_get_max_bytes (store), ==, HYD_TRACE_STORE_DEFAULT_MAX_BYTES);
  gsize cap = 3 * sizeof (double) * 1000; /* 1000 rows */
  hyd_trace_store_set_max_bytes (store, cap);
  guint compactions = 0;
  g_signal_connect (store, "compacted", G_CALLBACK (compacted_cb), &compactions);
  /* 100 000 rows in batches of 7: a smooth signal with one spike up (at
   * row 12 345) and one down (at row 67 890) in b */
  double max_a = -INFINITY, min_a = INFINITY;
  for (guint first = 0; first < 100000; first += 7)
    {
      double rows[7 * 3];
      guint m = MIN (7, 100000 - first);
      for (guint r = 0; r < m; r++)
        {
          guint i = first + r;
          rows[3 * r] = i * 1e-3;
          rows[3 * r + 1] = sin (i * 1e-3);
          rows[3 * r + 2] = i == 12345 ? 50.0 : i == 67890 ? -50.0 : 0.0;
          max_a = MAX (max_a, rows[3 * r + 1]);
          min_a = MIN (min_a, rows[3 * r + 1]);
        }
      hyd_trace_store_append (store, rows, m);
      g_assert_cmpuint ((gsize) hyd_trace_store_get_n_rows (store) * 3 * sizeof (double), <=, cap);
    }
  guint n = hyd_trace_store_get_n_rows (store);
  g_assert_cmpuint (compactions, >, 0);
  g_assert_cmpuint (compactions, ==, hyd_trace_store_get_n_compactions (store));
  g_assert_cmpuint (n, >=, 400);
  const double *t = hyd_trace_store_get_column (store, 0);
  const double *a = hyd_trace_store_get_column (store, 1);
  const double *b = hyd_trace_store_get_column (store, 2);
  double got_max = -INFINITY, got_min = INFINITY, b_max = -INFINITY, b_min = INFINITY;
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_assert_cmpfloat (t[i], >=, t[i - 1]);
      got_max = MAX (got_max, a[i]);
      got_min = MIN (got_min, a[i]);
      b_max = MAX (b_max, b[i]);
      b_min = MIN (b_min, b[i]);
    }
  /* the span, the extremes and both spikes survive */
  g_assert_cmpfloat (t[0], ==, 0.0);
  g_assert_cmpfloat (t[n - 1], ==, 99999 * 1e-3);
  g_assert_cmpfloat (got_max, ==, max_a);
  g_assert_cmpfloat (got_min, ==, min_a);
  g_assert_cmpfloat (b_max, ==, 50.0);
  g_assert_cmpfloat (b_min, ==, -50.0);
  /* each spike stays inside the span of the kept rows around it (older
   * parts are thinned more often, so that span is wider there) */
  for (guint i = 0; i < n; i++)
    if (b[i] == 50.0 || b[i] == -50.0)
      {
        double ts = b[i] > 0 ? 12.345 : 67.890;
        g_assert_cmpfloat (i > 0 ? t[i - 1] : t[i], <=, ts + 1e-9);
        g_assert_cmpfloat (i + 1 < n ? t[i + 1] : t[i], >=, ts - 1e-9);
      }
  /* no cap: nothing is thinned */
  g_autoptr (HydTraceStore) free_store = hyd_trace_store_new (names, units, 3);
  hyd_trace_store_set_max_bytes (free_store, 0);
  for (guint i = 0; i < 5000; i++)
    {
      double row[3] = { i * 1e-3, 0, 0 };
      hyd_trace_store_append (free_store, row, 1);
    }
  g_assert_cmpuint (hyd_trace_store_get_n_rows (free_store), ==, 5000);
  g_assert_cmpuint (hyd_trace_store_get_n_compactions (free_store), ==, 0);
}

int
main (int argc, char *argv[])
{
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/trace-store/append", test_append);
  g_test_add_func ("/ui/trace-store/markers", test_markers);
  g_test_add_func ("/ui/trace-store/csv", test_csv);
  g_test_add_func ("/ui/trace-store/cap", test_cap);
  g_test_add_func ("/ui/trace-store/growth-spread", test_growth_spread);
  return g_test_run ();
}
