/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-plot-view.c — the PLplot view: offscreen renders and exports of two
 * panes with 10⁶ samples, traces, ranges, a shown window. Skips (77) without
 * a display. */
#include <libintl.h>
#include <locale.h>
#include <math.h>
#include <string.h>
#include <cairo.h>
#include <glib/gstdio.h>
#include "hyd-plot-view.h"

#define N_LARGE 1000000

static const char *const names[] = { "t", "P1.P.p", "C1.A.p", "C1.x", "C1.v" };
static const HydUnit units[] = {
  HYD_UNIT_TIME, HYD_UNIT_PRESSURE, HYD_UNIT_PRESSURE, HYD_UNIT_POSITION, HYD_UNIT_VELOCITY
};

/* A run of n rows over 0..2 s: pressures in the 100-bar range with a ripple,
 * a stroke of 200 mm. */
static HydTraceStore *
make_store (guint n, double phase)
{
  HydTraceStore *store = hyd_trace_store_new (names, units, G_N_ELEMENTS (names));
  hyd_trace_store_set_t_end (store, 2.0);
  guint batch = 10000;
  double *rows = g_new (double, (gsize) batch * 5);
  for (guint first = 0; first < n; first += batch)
    {
      guint m = MIN (batch, n - first);
      for (guint r = 0; r < m; r++)
        {
          double t = 2.0 * (first + r) / MAX (n - 1, 1);
          double *row = rows + (gsize) r * 5;
          row[0] = t;
          row[1] = (150 + 20 * sin (40 * t + phase) + 5 * sin (3000 * t)) * 1e5;
          row[2] = (80 * (1 - exp (-3 * t)) + 10 * sin (25 * t)) * 1e5;
          row[3] = 0.2 * (1 - exp (-2 * t));
          row[4] = 0.4 * exp (-2 * t);
        }
      hyd_trace_store_append (store, rows, m);
    }
  g_free (rows);
  hyd_trace_store_add_marker (store, 0.8, "RV1.cracking_pressure 100 → 120 bar");
  hyd_trace_store_add_marker (store, 1.4, "P1.speed 1500 → 1200 rpm");
  return store;
}

static char *
tmp_path (const char *dir, const char *name)
{
  return g_build_filename (dir, name, NULL);
}

static void
assert_file_starts (const char *path, const char *prefix, gsize min_size)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  g_autoptr(GError) error = NULL;
  g_assert_true (g_file_get_contents (path, &text, &len, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (len, >=, min_size);
  g_assert_true (strncmp (text, prefix, strlen (prefix)) == 0);
}

/* Pixels of roughly this colour in a PNG. */
static guint
count_colour (const char *png, guint r, guint g, guint b)
{
  cairo_surface_t *s = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  int stride = cairo_image_surface_get_stride (s);
  const guint8 *data = cairo_image_surface_get_data (s);
  guint count = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        guint32 px = *(const guint32 *) (data + y * stride + 4 * x);
        guint pr = px >> 16 & 0xff, pg = px >> 8 & 0xff, pb = px & 0xff;
        if (abs ((int) pr - (int) r) < 40 && abs ((int) pg - (int) g) < 40 && abs ((int) pb - (int) b) < 40)
          count++;
      }
  cairo_surface_destroy (s);
  return count;
}

static void
test_two_panes_large (void)
{
  g_autoptr(HydTraceStore) store = make_store (N_LARGE, 0.0);
  g_autoptr(HydTraceStore) ghost = make_store (2000, 0.7);
  GtkWidget *pressures = g_object_ref_sink (hyd_plot_view_new ());
  GtkWidget *motion = g_object_ref_sink (hyd_plot_view_new ());
  HydPlotView *a = HYD_PLOT_VIEW (pressures), *b = HYD_PLOT_VIEW (motion);

  hyd_plot_view_set_title (a, "Pressures");
  g_assert_cmpstr (hyd_plot_view_get_title (a), ==, "Pressures");
  hyd_plot_view_set_store (a, store);
  hyd_plot_view_set_ghost (a, ghost);
  hyd_plot_view_add_trace (a, "P1.P.p");
  hyd_plot_view_add_trace (a, "C1.A.p");

  hyd_plot_view_set_title (b, "Cylinder # 1");   /* PLplot's escape character */
  hyd_plot_view_set_store (b, store);
  hyd_plot_view_add_trace (b, "C1.x");
  hyd_plot_view_add_trace (b, "C1.v");            /* a second unit: a second strip */

  g_autofree char *dir = g_dir_make_tmp ("hyd-plot-view-XXXXXX", NULL);
  g_autofree char *png_a = tmp_path (dir, "pressures.png");
  g_autofree char *png_b = tmp_path (dir, "motion.png");
  g_autofree char *svg = tmp_path (dir, "pressures.svg");
  g_autofree char *pdf = tmp_path (dir, "motion.PDF");
  g_autofree char *csv = tmp_path (dir, "pressures.csv");
  g_autoptr(GError) error = NULL;

  gint64 start = g_get_monotonic_time ();
  g_assert_true (hyd_plot_view_export_with_size (a, png_a, 1000, 600, &error));
  g_assert_no_error (error);
  double ms = (g_get_monotonic_time () - start) / 1000.0;
  g_test_message ("PNG of 2 traces × 10⁶ samples + ghosts: %.1f ms", ms);
  g_assert_cmpfloat (ms, <, 5000.0);   /* generous; tens of ms in practice */

  g_assert_true (hyd_plot_view_export_with_size (b, png_b, 1000, 600, &error));
  g_assert_no_error (error);
  g_assert_true (hyd_plot_view_export_with_size (a, svg, 0, 0, &error));
  g_assert_no_error (error);
  g_assert_true (hyd_plot_view_export (b, pdf, &error));   /* not shown: default size */
  g_assert_no_error (error);
  g_assert_true (hyd_plot_view_export (a, csv, &error));
  g_assert_no_error (error);

  /* the files */
  assert_file_starts (png_a, "\x89PNG", 1000);
  assert_file_starts (svg, "<?xml", 1000);
  assert_file_starts (pdf, "%PDF", 1000);
  cairo_surface_t *s = cairo_image_surface_create_from_png (png_a);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, 1000);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, 600);
  cairo_surface_destroy (s);
  /* the first two trace colours are drawn (#1f77b4 blue, #d62728 red) */
  g_assert_cmpuint (count_colour (png_a, 0x1f, 0x77, 0xb4), >, 1000);
  g_assert_cmpuint (count_colour (png_a, 0xd6, 0x27, 0x28), >, 1000);
  g_assert_cmpuint (count_colour (png_b, 0x1f, 0x77, 0xb4), >, 500);

  g_autofree char *svg_text = NULL;
  g_assert_true (g_file_get_contents (svg, &svg_text, NULL, NULL));
  g_assert_nonnull (strstr (svg_text, "<svg"));

  /* the CSV: t and the view's traces, every row, headed and valued as the
   * plot shows them (bar; 150 bar is 1.5e7 Pa) */
  g_autofree char *csv_text = NULL;
  g_assert_true (g_file_get_contents (csv, &csv_text, NULL, NULL));
  g_test_message ("CSV starts %.60s", csv_text);
  g_assert_true (g_str_has_prefix (csv_text, "Time [s],P1.P: Pressure [bar],C1.A: Pressure [bar]\n0,150,0\n"));
  guint lines = 0;
  for (const char *p = csv_text; *p; p++)
    lines += *p == '\n';
  g_assert_cmpuint (lines, ==, N_LARGE + 1);

  /* the ranges chosen hold the data (display units) */
  double lo, hi;
  g_assert_true (hyd_plot_view_get_y_range (a, HYD_UNIT_PRESSURE, &lo, &hi));
  g_assert_cmpfloat (lo, <=, 0.0);
  g_assert_cmpfloat (hi, >=, 175.0);
  g_assert_cmpfloat (hi, <, 300.0);
  g_assert_true (hyd_plot_view_get_y_range (b, HYD_UNIT_POSITION, &lo, &hi));
  g_assert_cmpfloat (hi, >=, 0.2 * 1e3 * (1 - exp (-4.0)));
  g_assert_true (hyd_plot_view_get_y_range (b, HYD_UNIT_VELOCITY, NULL, NULL));
  g_assert_false (hyd_plot_view_get_y_range (b, HYD_UNIT_FLOW, NULL, NULL));

  /* an unknown extension */
  g_autofree char *bad = tmp_path (dir, "x.bmp");
  g_assert_false (hyd_plot_view_export (a, bad, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  const char *files[] = { png_a, png_b, svg, pdf, csv };
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    g_unlink (files[i]);
  g_rmdir (dir);
  g_object_unref (pressures);
  g_object_unref (motion);
}

static void
test_traces_and_ranges (void)
{
  GtkWidget *w = g_object_ref_sink (hyd_plot_view_new ());
  HydPlotView *view = HYD_PLOT_VIEW (w);
  g_autoptr(HydTraceStore) store = make_store (500, 0.0);

  hyd_plot_view_set_y_range (view, 0, 250);   /* before any trace: the first trace's unit */
  g_assert_false (hyd_plot_view_get_autoscale (view));
  hyd_plot_view_set_store (view, store);
  g_assert_true (hyd_plot_view_get_store (view) == store);
  hyd_plot_view_add_trace (view, "C1.A.p");
  hyd_plot_view_add_trace (view, "C1.A.p");   /* once only */
  hyd_plot_view_add_trace (view, "C1.x");
  hyd_plot_view_add_trace (view, "no.such.variable");
  g_auto(GStrv) traces = hyd_plot_view_get_traces (view);
  g_assert_cmpuint (g_strv_length (traces), ==, 3);
  g_assert_cmpstr (traces[0], ==, "C1.A.p");
  g_assert_cmpstr (traces[1], ==, "C1.x");

  g_autofree char *dir = g_dir_make_tmp ("hyd-plot-view-XXXXXX", NULL);
  g_autofree char *png = tmp_path (dir, "r.png");
  g_autoptr(GError) error = NULL;
  g_assert_true (hyd_plot_view_export_with_size (view, png, 640, 400, &error));
  g_assert_no_error (error);
  double lo, hi;
  g_assert_true (hyd_plot_view_get_y_range (view, HYD_UNIT_PRESSURE, &lo, &hi));
  g_assert_cmpfloat (lo, ==, 0.0);
  g_assert_cmpfloat (hi, ==, 250.0);

  hyd_plot_view_set_unit_y_range (view, HYD_UNIT_POSITION, 300, -10);   /* reversed: swapped */
  hyd_plot_view_export_with_size (view, png, 640, 400, &error);
  g_assert_true (hyd_plot_view_get_y_range (view, HYD_UNIT_POSITION, &lo, &hi));
  g_assert_cmpfloat (lo, ==, -10.0);
  g_assert_cmpfloat (hi, ==, 300.0);

  hyd_plot_view_set_autoscale (view, TRUE);
  g_assert_true (hyd_plot_view_get_autoscale (view));
  hyd_plot_view_export_with_size (view, png, 640, 400, &error);
  g_assert_no_error (error);
  g_assert_true (hyd_plot_view_get_y_range (view, HYD_UNIT_PRESSURE, &lo, &hi));
  g_assert_cmpfloat (hi, <, 200.0);   /* fitted to the data (≈ 90 bar), not 250 */

  /* autoscale off holds what is shown */
  hyd_plot_view_set_autoscale (view, FALSE);
  double lo2, hi2;
  hyd_plot_view_export_with_size (view, png, 640, 400, &error);
  g_assert_true (hyd_plot_view_get_y_range (view, HYD_UNIT_PRESSURE, &lo2, &hi2));
  g_assert_cmpfloat (lo2, ==, lo);
  g_assert_cmpfloat (hi2, ==, hi);

  hyd_plot_view_remove_trace (view, "C1.x");
  hyd_plot_view_remove_trace (view, "C1.x");
  g_auto(GStrv) traces2 = hyd_plot_view_get_traces (view);
  g_assert_cmpuint (g_strv_length (traces2), ==, 2);

  g_unlink (png);
  g_rmdir (dir);
  g_object_unref (w);
}

/* Never crash: no store, empty store, NaN and infinite values, tiny sizes. */
/* Before a run (no store) the axes take the units of the circuit's
 * variables, when the window has them: one strip a unit, as after a run,
 * instead of one unnamed 0…1 axis. */
static void
test_units_before_run (void)
{
  HydPlotView *view = HYD_PLOT_VIEW (g_object_ref_sink (hyd_plot_view_new ()));
  hyd_plot_view_add_trace (view, "C1.A.p");
  hyd_plot_view_add_trace (view, "C1.x");
  g_autofree char *dir = g_dir_make_tmp ("hyd-plot-view-XXXXXX", NULL);
  g_autofree char *png = tmp_path (dir, "u.png");
  g_autoptr(GError) error = NULL;
  g_assert_true (hyd_plot_view_export_with_size (view, png, 640, 400, &error));
  g_assert_no_error (error);
  g_assert_false (hyd_plot_view_get_y_range (view, HYD_UNIT_PRESSURE, NULL, NULL));
  g_assert_true (hyd_plot_view_get_y_range (view, HYD_UNIT_NONE, NULL, NULL));

  const char *const names[] = { "C1.x", "C1.A.p", "C1.v", NULL };
  const HydUnit units[] = { HYD_UNIT_POSITION, HYD_UNIT_PRESSURE, HYD_UNIT_VELOCITY, HYD_UNIT_NONE };
  hyd_plot_view_set_variable_units (view, names, units);
  g_assert_true (hyd_plot_view_export_with_size (view, png, 640, 400, &error));
  g_assert_true (hyd_plot_view_get_y_range (view, HYD_UNIT_PRESSURE, NULL, NULL));
  g_assert_true (hyd_plot_view_get_y_range (view, HYD_UNIT_POSITION, NULL, NULL));
  g_assert_false (hyd_plot_view_get_y_range (view, HYD_UNIT_VELOCITY, NULL, NULL));
  g_assert_false (hyd_plot_view_get_y_range (view, HYD_UNIT_NONE, NULL, NULL));

  hyd_plot_view_set_variable_units (view, NULL, NULL);
  g_assert_true (hyd_plot_view_export_with_size (view, png, 640, 400, &error));
  g_assert_false (hyd_plot_view_get_y_range (view, HYD_UNIT_PRESSURE, NULL, NULL));
  g_remove (png);
  g_rmdir (dir);
  g_object_unref (view);
}

static void
test_degenerate (void)
{
  GtkWidget *w = g_object_ref_sink (hyd_plot_view_new ());
  HydPlotView *view = HYD_PLOT_VIEW (w);
  g_autofree char *dir = g_dir_make_tmp ("hyd-plot-view-XXXXXX", NULL);
  g_autofree char *png = tmp_path (dir, "d.png");
  g_autofree char *csv = tmp_path (dir, "d.csv");
  g_autoptr(GError) error = NULL;

  g_assert_true (hyd_plot_view_export_with_size (view, png, 300, 200, &error));
  g_assert_no_error (error);
  g_assert_false (hyd_plot_view_export (view, csv, &error));   /* no run */
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  /* in the interface's language (test-plot-view-de: LANGUAGE=de) */
  if (g_strcmp0 (g_getenv ("LANGUAGE"), "de") == 0)
    g_assert_cmpstr (error->message, ==, "Es gibt keinen Lauf zum Exportieren");
  else
    g_assert_cmpstr (error->message, ==, "There is no run to export");
  g_clear_error (&error);
  g_autofree char *txt = tmp_path (dir, "d.txt");
  g_assert_false (hyd_plot_view_export (view, txt, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  if (g_strcmp0 (g_getenv ("LANGUAGE"), "de") == 0)
    g_assert_cmpstr (error->message, ==, "Export nach „txt“ nicht möglich: .png, .svg, .pdf oder .csv verwenden");
  g_clear_error (&error);

  g_autoptr(HydTraceStore) store = hyd_trace_store_new (names, units, G_N_ELEMENTS (names));
  hyd_plot_view_set_store (view, store);
  hyd_plot_view_add_trace (view, "C1.A.p");
  hyd_plot_view_add_trace (view, "C1.v");
  g_assert_true (hyd_plot_view_export_with_size (view, png, 300, 200, &error));
  g_assert_no_error (error);

  const double rows[] = {
    0.0, NAN, NAN, NAN, NAN,
    0.1, INFINITY, -INFINITY, 0, NAN,
    0.2, 1e5, NAN, 0, 1.0,
    0.2, 1e5, NAN, 0, 1.0,        /* a repeated time */
    0.3, 1e300, 5, 0, -1e-300,
  };
  hyd_trace_store_append (store, rows, 1);
  g_assert_true (hyd_plot_view_export_with_size (view, png, 300, 200, &error));
  hyd_trace_store_append (store, rows + 5, 4);
  hyd_trace_store_add_marker (store, NAN, "nan marker");
  hyd_trace_store_add_marker (store, 0.25, "");
  int sizes[][2] = { { 300, 200 }, { 41, 41 }, { 1, 1 }, { 5000, 60 }, { 60, 3000 } };
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_assert_true (hyd_plot_view_export_with_size (view, png, sizes[i][0], sizes[i][1], &error));
      g_assert_no_error (error);
    }
  hyd_plot_view_set_y_range (view, 5, 5);   /* an empty range is widened */
  g_assert_true (hyd_plot_view_export_with_size (view, png, 300, 200, &error));
  g_assert_true (hyd_plot_view_export (view, csv, &error));
  g_assert_no_error (error);

  hyd_plot_view_set_store (view, NULL);
  hyd_plot_view_set_ghost (view, store);    /* only a ghost */
  g_assert_true (hyd_plot_view_export_with_size (view, png, 300, 200, &error));

  g_unlink (png);
  g_unlink (csv);
  g_rmdir (dir);
  g_object_unref (w);
}

static cairo_surface_t *
load_png (const char *path)
{
  cairo_surface_t *s = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  return s;
}

/* A view fed in batches (rendered after each) draws exactly what a view
 * given the whole run at once draws: the incremental decimation is exact. */
static void
test_incremental (void)
{
  g_autoptr(HydTraceStore) whole = make_store (200000, 0.3);
  g_autoptr(HydTraceStore) growing = hyd_trace_store_new (names, units, G_N_ELEMENTS (names));
  hyd_trace_store_set_t_end (growing, 2.0);
  for (guint i = 0; i < hyd_trace_store_get_n_markers (whole); i++)
    {
      double t;
      const char *label;
      hyd_trace_store_get_marker (whole, i, &t, &label);
      hyd_trace_store_add_marker (growing, t, label);
    }
  GtkWidget *wa = g_object_ref_sink (hyd_plot_view_new ());
  GtkWidget *wb = g_object_ref_sink (hyd_plot_view_new ());
  HydPlotView *a = HYD_PLOT_VIEW (wa), *b = HYD_PLOT_VIEW (wb);
  hyd_plot_view_set_store (a, whole);
  hyd_plot_view_set_store (b, growing);
  hyd_plot_view_add_trace (a, "P1.P.p");
  hyd_plot_view_add_trace (b, "P1.P.p");
  hyd_plot_view_add_trace (a, "C1.x");
  hyd_plot_view_add_trace (b, "C1.x");

  g_autofree char *dir = g_dir_make_tmp ("hyd-plot-view-XXXXXX", NULL);
  g_autofree char *pa = tmp_path (dir, "a.png");
  g_autofree char *pb = tmp_path (dir, "b.png");
  g_autoptr(GError) error = NULL;

  guint n = hyd_trace_store_get_n_rows (whole);
  const double *cols[5];
  for (guint k = 0; k < 5; k++)
    cols[k] = hyd_trace_store_get_column (whole, k);
  guint batch = 6667;   /* batches end in the middle of pixel columns */
  double *rows = g_new (double, (gsize) batch * 5);
  double slowest = 0;
  for (guint first = 0; first < n; first += batch)
    {
      guint m = MIN (batch, n - first);
      for (guint r = 0; r < m; r++)
        for (guint k = 0; k < 5; k++)
          rows[(gsize) r * 5 + k] = cols[k][first + r];
      hyd_trace_store_append (growing, rows, m);
      gint64 start = g_get_monotonic_time ();
      g_assert_true (hyd_plot_view_export_with_size (b, pb, 700, 420, &error));
      slowest = MAX (slowest, (g_get_monotonic_time () - start) / 1000.0);
    }
  g_free (rows);
  g_test_message ("slowest render+PNG while streaming: %.1f ms", slowest);
  g_assert_true (hyd_plot_view_export_with_size (a, pa, 700, 420, &error));
  g_assert_no_error (error);

  cairo_surface_t *sa = load_png (pa), *sb = load_png (pb);
  int stride = cairo_image_surface_get_stride (sa);
  g_assert_cmpint (stride, ==, cairo_image_surface_get_stride (sb));
  g_assert_true (memcmp (cairo_image_surface_get_data (sa), cairo_image_surface_get_data (sb),
                         (gsize) stride * 420) == 0);
  cairo_surface_destroy (sa);
  cairo_surface_destroy (sb);
  g_unlink (pa);
  g_unlink (pb);
  g_rmdir (dir);
  g_object_unref (wa);
  g_object_unref (wb);
}

static gboolean
quit_cb (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

static void
run_main_loop (guint ms)
{
  GMainLoop *loop = g_main_loop_new (NULL, FALSE);
  g_timeout_add (ms, quit_cb, loop);
  g_main_loop_run (loop);
  g_main_loop_unref (loop);
}

/* Two views in a window, fed while shown. */
static void
test_in_window (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *a = hyd_plot_view_new (), *b = hyd_plot_view_new ();
  gtk_widget_set_vexpand (a, TRUE);
  gtk_widget_set_vexpand (b, TRUE);
  gtk_box_append (GTK_BOX (box), a);
  gtk_box_append (GTK_BOX (box), b);
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);

  g_autoptr(HydTraceStore) store = hyd_trace_store_new (names, units, G_N_ELEMENTS (names));
  hyd_trace_store_set_t_end (store, 1.0);
  hyd_plot_view_set_store (HYD_PLOT_VIEW (a), store);
  hyd_plot_view_set_store (HYD_PLOT_VIEW (b), store);
  hyd_plot_view_add_trace (HYD_PLOT_VIEW (a), "C1.A.p");
  hyd_plot_view_add_trace (HYD_PLOT_VIEW (b), "C1.x");
  gtk_window_present (GTK_WINDOW (window));
  run_main_loop (200);

  for (int k = 0; k < 10; k++)
    {
      double rows[5 * 100];
      for (int r = 0; r < 100; r++)
        {
          double t = (k * 100 + r) / 1000.0;
          double row[5] = { t, 1e7 * t, 1e7 * t * t, 0.1 * t, 0.1 };
          memcpy (rows + 5 * r, row, sizeof row);
        }
      hyd_trace_store_append (store, rows, 100);
      run_main_loop (40);
    }
  hyd_trace_store_add_marker (store, 0.5, "a change");
  /* Plots redraw on the live beat (6 a second), not per batch: wait up to
   * 2 s for the beat that draws the last rows, instead of a fixed time
   * shorter than one beat. */
  double lo, hi;
  for (int i = 0; i < 40; i++)
    {
      run_main_loop (50);
      if (hyd_plot_view_get_y_range (HYD_PLOT_VIEW (a), HYD_UNIT_PRESSURE, &lo, &hi) && hi >= 99.9
          && hyd_plot_view_get_y_range (HYD_PLOT_VIEW (b), HYD_UNIT_POSITION, &lo, &hi) && hi >= 99.9)
        break;
    }

  g_assert_cmpint (gtk_widget_get_width (a), >, 100);
  g_assert_true (hyd_plot_view_get_y_range (HYD_PLOT_VIEW (a), HYD_UNIT_PRESSURE, &lo, &hi));
  g_assert_cmpfloat (hi, >=, 99.9);   /* the last rows (≈ 100 bar) were rendered */
  g_assert_true (hyd_plot_view_get_y_range (HYD_PLOT_VIEW (b), HYD_UNIT_POSITION, &lo, &hi));
  g_assert_cmpfloat (hi, >=, 99.9);

  gtk_window_destroy (GTK_WINDOW (window));
  run_main_loop (50);
}

/* Issue 8, item 18: the current run sets the time axis (not a longer ghost);
 * legends stay with three units in a low pane; marker labels never overlap
 * (a label with no room is left out). */
static void
test_axis_legends_markers (void)
{
  g_autofree char *dir = g_dir_make_tmp ("plot-view-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "p.png", NULL);
  g_autoptr (GError) error = NULL;

  /* a run streaming in (its end unknown) at 1.0 s, the previous run 0..2 s */
  g_autoptr (HydTraceStore) ghost = make_store (2001, 0.0);
  g_autoptr (HydTraceStore) store = hyd_trace_store_new (names, units, G_N_ELEMENTS (names));
  for (int r = 0; r <= 100; r++)
    {
      double row[5] = { r * 0.01, 1e7, 5e6, 0.1, 0.1 };
      hyd_trace_store_append (store, row, 1);
    }
  HydPlotView *view = HYD_PLOT_VIEW (g_object_ref_sink (hyd_plot_view_new ()));
  hyd_plot_view_set_store (view, store);
  hyd_plot_view_set_ghost (view, ghost);
  hyd_plot_view_add_trace (view, "C1.A.p");
  g_assert_true (hyd_plot_view_export_with_size (view, png, 640, 400, &error));
  g_assert_no_error (error);
  double t0, t1;
  guint n_legends, n_labels;
  hyd_plot_view_get_render_info (view, &t0, &t1, &n_legends, &n_labels);
  g_assert_cmpfloat (t0, ==, 0.0);
  g_assert_cmpfloat (t1, <=, 1.0 + 1e-9);
  /* with no current run the ghost's span shows */
  hyd_plot_view_set_store (view, NULL);
  g_assert_true (hyd_plot_view_export_with_size (view, png, 640, 400, &error));
  hyd_plot_view_get_render_info (view, &t0, &t1, NULL, NULL);
  g_assert_cmpfloat (t1, >=, 2.0);

  /* three units in a pane 180 px high (no room for legend rows above the strips): three legends */
  hyd_plot_view_set_store (view, ghost);
  hyd_plot_view_set_ghost (view, NULL);
  hyd_plot_view_add_trace (view, "C1.x");
  hyd_plot_view_add_trace (view, "C1.v");
  g_assert_true (hyd_plot_view_export_with_size (view, png, 640, 180, &error));
  hyd_plot_view_get_render_info (view, NULL, NULL, &n_legends, NULL);
  g_assert_cmpuint (n_legends, ==, 3);
  g_assert_true (hyd_plot_view_export_with_size (view, png, 640, 600, &error));
  hyd_plot_view_get_render_info (view, NULL, NULL, &n_legends, NULL);
  g_assert_cmpuint (n_legends, ==, 3);

  /* eight changes within 0.1 s: they cannot all have a label of their own */
  g_autoptr (HydTraceStore) busy = make_store (2001, 0.0); /* its 2 markers are far apart */
  for (int i = 0; i < 8; i++)
    hyd_trace_store_add_marker (busy, 1.0 + 0.0125 * i, "RV1.cracking_pressure 100 → 120 bar");
  hyd_plot_view_set_store (view, busy);
  g_assert_true (hyd_plot_view_export_with_size (view, png, 640, 400, &error));
  hyd_plot_view_get_render_info (view, NULL, NULL, NULL, &n_labels);
  g_assert_cmpuint (n_labels, >=, 2);
  g_assert_cmpuint (n_labels, <, 10);

  g_object_unref (view);
  g_unlink (png);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  /* no accessibility bus under Xvfb: its warning would be fatal in a test */
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);
  /* the catalogue of the build tree (test-plot-view-de) */
  const char *locale_dir = g_getenv ("BRAMAH_TEST_LOCALE_DIR");
  if (locale_dir)
    {
      setlocale (LC_ALL, "");
      bindtextdomain ("bramah", locale_dir);
      bind_textdomain_codeset ("bramah", "UTF-8");
      textdomain ("bramah");
    }
  if (!gtk_init_check ())
    {
      g_printerr ("no display: skipped\n");
      return 77;
    }
  g_test_add_func ("/ui/plot-view/two-panes-large", test_two_panes_large);
  g_test_add_func ("/ui/plot-view/traces-and-ranges", test_traces_and_ranges);
  g_test_add_func ("/ui/plot-view/incremental", test_incremental);
  g_test_add_func ("/ui/plot-view/degenerate", test_degenerate);
  g_test_add_func ("/ui/plot-view/units-before-run", test_units_before_run);
  g_test_add_func ("/ui/plot-view/in-window", test_in_window);
  g_test_add_func ("/ui/plot-view/axis-legends-markers", test_axis_legends_markers);
  return g_test_run ();
}
