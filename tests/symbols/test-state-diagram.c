/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-state-diagram.c — the displacement–step diagram's renderer
 * (symbols/hyd-state-diagram.h) on hand-made samples, golden-free:
 *  - rows: a cylinder (x / stroke), a semi-rotary actuator (θ / swivel
 *    angle), discrete states, which are shown by default, --items;
 *  - edges at the first sample that shows the new state;
 *  - CSV header and lines;
 *  - drawing: each bar's pixels start and end where the time axis puts its
 *    edges (a bar colour read from an image surface; the axis from the
 *    counter's level, drawn pale from its first count to the end), a
 *    cylinder's trace at the height its fraction of the stroke gives. */
#include <cairo.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "hyd-state-diagram.h"

static HydCircuit *
load (const char *json)
{
  g_autoptr (GError) error = NULL;
  HydCircuit *c = hyd_circuit_load_from_data (json, -1, "test.bramah", &error);
  g_assert_no_error (error);
  return c;
}

static const char circuit_json[] =
  "{\"format\": \"bramah-circuit\", \"version\": 3, \"components\": ["
  "{\"id\": \"C1\", \"type\": \"cylinder_double\", \"params\": {\"stroke\": 0.25}},"
  "{\"id\": \"R1\", \"type\": \"semi_rotary_actuator\", \"params\": {\"swivel_angle\": 1.5707963267948966}},"
  "{\"id\": \"P1\", \"type\": \"pulse\", \"params\": {}},"
  "{\"id\": \"T1\", \"type\": \"tank\", \"params\": {}}], \"connections\": []}";

/* What a run of that circuit would offer (names as the engine gives them). */
static const HydStateVariable offer[] = {
  { "t", NULL }, { "C1.x", NULL }, { "C1.v", NULL }, { "R1.theta", NULL },
  { "P1.Y", NULL }, { "P1.edges", "P1" }, { "K9.energised", "K9" },
};

static void
test_rows (void)
{
  g_autoptr (HydCircuit) c = load (circuit_json);
  g_autoptr (GPtrArray) rows = hyd_state_diagram_list_rows (c, offer, G_N_ELEMENTS (offer));
  /* K9 is no component of the circuit: no row */
  g_assert_cmpuint (rows->len, ==, 3);
  HydStateRow *r0 = g_ptr_array_index (rows, 0), *r1 = g_ptr_array_index (rows, 1), *r2 = g_ptr_array_index (rows, 2);
  g_assert_cmpstr (r0->variable, ==, "C1.x");
  g_assert_cmpint (r0->kind, ==, HYD_STATE_ROW_STROKE);
  g_assert_cmpfloat (r0->full, ==, 0.25);
  g_assert_true (r0->by_default);
  g_assert_cmpstr (r1->variable, ==, "R1.theta");
  g_assert_cmpint (r1->kind, ==, HYD_STATE_ROW_SWIVEL);
  g_assert_cmpfloat (fabs (r1->full - G_PI / 2), <, 1e-15);
  g_assert_cmpstr (r2->variable, ==, "P1.edges");
  g_assert_cmpint (r2->kind, ==, HYD_STATE_ROW_SWITCH);
  /* a signal block is not electrical control: not shown by default */
  g_assert_false (r2->by_default);

  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) def = hyd_state_diagram_choose_rows (rows, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (def->len, ==, 2);
  g_autoptr (GPtrArray) some = hyd_state_diagram_choose_rows (rows, " P1 , C1,C1.x", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (some->len, ==, 2);
  g_assert_cmpstr (((HydStateRow *) g_ptr_array_index (some, 0))->variable, ==, "P1.edges");
  g_assert_cmpstr (((HydStateRow *) g_ptr_array_index (some, 1))->variable, ==, "C1.x");
  g_autoptr (GPtrArray) bad = hyd_state_diagram_choose_rows (rows, "C1,T1", &error);
  g_assert_null (bad);
  g_assert_error (error, HYD_STATE_DIAGRAM_ERROR, HYD_STATE_DIAGRAM_ERROR_ITEM);
  g_assert_nonnull (strstr (error->message, "'T1'"));
  g_assert_nonnull (strstr (error->message, "R1.theta"));
}

/* The electrical control's rows shown by default: not the states that
 * repeat another row or keep books. */
static void
test_electrical_defaults (void)
{
  g_autoptr (HydCircuit) c = load (
    "{\"format\": \"bramah-circuit\", \"version\": 3, \"components\": ["
    "{\"id\": \"K1\", \"type\": \"relay\", \"params\": {}},"
    "{\"id\": \"K1_1\", \"type\": \"relay_contact\", \"params\": {\"relay\": \"K1\"}},"
    "{\"id\": \"KT1\", \"type\": \"timer_relay\", \"params\": {}},"
    "{\"id\": \"H1\", \"type\": \"lamp\", \"params\": {}}], \"connections\": []}");
  static const HydStateVariable elec[] = {
    { "K1.energised", "K1" }, { "K1.contacts", "K1" }, { "K1_1.actuated", "K1_1" },
    { "KT1.energised", "KT1" }, { "KT1.contacts", "KT1" }, { "KT1.since", "KT1" },
    { "KT1.remaining", NULL }, { "H1.lit", "H1" },
  };
  g_autoptr (GPtrArray) rows = hyd_state_diagram_list_rows (c, elec, G_N_ELEMENTS (elec));
  g_assert_cmpuint (rows->len, ==, 7);
  g_autoptr (GPtrArray) def = hyd_state_diagram_choose_rows (rows, NULL, NULL);
  g_autoptr (GString) names = g_string_new (NULL);
  for (guint i = 0; i < def->len; i++)
    g_string_append_printf (names, "%s%s", i ? "," : "", ((HydStateRow *) g_ptr_array_index (def, i))->variable);
  g_assert_cmpstr (names->str, ==, "K1.energised,KT1.energised,KT1.contacts,H1.lit");
}

/* Three rows: a cylinder of stroke 0.5 m, a switch, a counter. */
static HydStateDiagram *
make_diagram (void)
{
  HydStateRow rows[] = {
    { "C1", "C1.x", "C1", HYD_STATE_ROW_STROKE, 0.5, TRUE },
    { "K1", "K1.energised", "K1.energised", HYD_STATE_ROW_SWITCH, 0, TRUE },
    { "Z1", "Z1.count", "Z1.count", HYD_STATE_ROW_SWITCH, 0, TRUE },
  };
  g_autoptr (GPtrArray) list = g_ptr_array_new ();
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    g_ptr_array_add (list, &rows[i]);
  HydStateDiagram *d = hyd_state_diagram_new (list);
  /* 0 … 10 s every 0.1 s: x rises 0.05 m/s; K1 on from 2.0 to 6.0 s
   * (the samples at and after), Z1 counts 0, 1, 2 at 3 and 7 s */
  for (int k = 0; k <= 100; k++)
    {
      double t = k * 0.1;
      double v[3] = { 0.05 * t, (k >= 20 && k < 60) ? 1 : 0, k >= 70 ? 2 : k >= 30 ? 1 : 0 };
      hyd_state_diagram_append (d, t, v);
    }
  hyd_state_diagram_set_time_range (d, 0, 10);
  return d;
}

static void
test_edges_csv (void)
{
  g_autoptr (HydStateDiagram) d = make_diagram ();
  g_assert_cmpuint (hyd_state_diagram_get_n_samples (d), ==, 101);
  g_autofree double *times = NULL, *values = NULL;
  guint n = hyd_state_diagram_get_edges (d, 1, &times, &values);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpfloat (fabs (times[0] - 2.0), <, 1e-12);
  g_assert_cmpfloat (values[0], ==, 1);
  g_assert_cmpfloat (fabs (times[1] - 6.0), <, 1e-12);
  g_assert_cmpfloat (values[1], ==, 0);

  g_autoptr (GString) s = g_string_new (NULL);
  hyd_state_diagram_csv_header (d, s);
  g_assert_cmpstr (s->str, ==, "t,C1.x,C1.x/stroke,K1.energised,Z1.count\n");
  g_string_truncate (s, 0);
  double v[3] = { 0.125, 1, 2 };
  hyd_state_diagram_csv_line (d, 2.5, v, s);
  g_assert_cmpstr (s->str, ==, "2.5,0.125,0.25,1,2\n");
}

/* Pixel columns of row y whose colour is the bar's (orange, #d9731a). */
static void
bar_extent (cairo_surface_t *img, int y, int *first, int *last)
{
  const unsigned char *data = cairo_image_surface_get_data (img);
  int stride = cairo_image_surface_get_stride (img), w = cairo_image_surface_get_width (img);
  *first = *last = -1;
  for (int x = 0; x < w; x++)
    {
      guint32 px = *(const guint32 *) (data + y * stride + 4 * x);
      int r = (px >> 16) & 0xff, g = (px >> 8) & 0xff, b = px & 0xff;
      if (abs (r - 217) <= 3 && abs (g - 115) <= 3 && abs (b - 26) <= 3)
        {
          if (*first < 0)
            *first = x;
          *last = x;
        }
    }
}

static void
test_draw (void)
{
  g_autoptr (HydStateDiagram) d = make_diagram ();
  const int W = 1000;
  double H = hyd_state_diagram_natural_height (d);
  cairo_surface_t *img = cairo_image_surface_create (CAIRO_FORMAT_RGB24, W, (int) ceil (H));
  cairo_t *cr = cairo_create (img);
  hyd_state_diagram_draw (d, cr, W, H);
  cairo_destroy (cr);
  cairo_surface_flush (img);

  /* find the switch row's bar: scan the rows of pixels for the longest
   * run of bar colour; the counter's level is pale (alpha 0.35), not it */
  int best_y = -1, bx0 = -1, bx1 = -1;
  for (int y = 0; y < (int) H; y++)
    {
      int a, b;
      bar_extent (img, y, &a, &b);
      if (a >= 0 && (best_y < 0 || b - a > bx1 - bx0))
        best_y = y, bx0 = a, bx1 = b;
    }
  g_assert_cmpint (best_y, >=, 0);
  /* the time axis: the counter's pale level spans the whole run (0 … 10 s)
   * on the row below; its pixels give x(0) and x(10) */
  const unsigned char *data = cairo_image_surface_get_data (img);
  int stride = cairo_image_surface_get_stride (img);
  int ax0 = -1, ax1 = -1, most = 0;
  for (int y = best_y + 1; y < (int) H; y++)
    {
      int count = 0, a = -1, b = -1;
      for (int x = 0; x < W; x++)
        {
          guint32 px = *(const guint32 *) (data + y * stride + 4 * x);
          int r = (px >> 16) & 0xff, g = (px >> 8) & 0xff, bl = px & 0xff;
          /* orange at 35 % over the row's light grey band: (235, 199, 168) */
          if (abs (r - 235) <= 4 && abs (g - 199) <= 4 && abs (bl - 168) <= 4)
            {
              count++;
              if (a < 0)
                a = x;
              b = x;
            }
        }
      if (count > most)
        most = count, ax0 = a, ax1 = b;
    }
  g_assert_cmpint (ax0, >=, 0);
  /* the level starts at 3 s (the count 1), so x(3) = ax0; the run ends at
   * 10 s = ax1 + 1 */
  double sx = (ax1 + 1 - ax0) / 7.0;
  double t_on = 3.0 + (bx0 - ax0) / sx, t_off = 3.0 + (bx1 + 1 - ax0) / sx;
  g_test_message ("bar from %.3f s to %.3f s (edges at 2.0 and 6.0 s; a pixel is %.4f s)", t_on, t_off, 1 / sx);
  g_assert_cmpfloat (fabs (t_on - 2.0), <=, 1.5 / sx);
  g_assert_cmpfloat (fabs (t_off - 6.0), <=, 1.5 / sx);
  /* the cylinder's trace (blue, #004099) at 0.5, 5 and 9.5 s: x / stroke
   * = 0.05, 0.5 and 0.95, so the middle one lies halfway between */
  double ys[3];
  for (int j = 0; j < 3; j++)
    {
      int x = (int) lround (ax0 + (0.5 + j * 4.5 - 3.0) * sx);
      x = CLAMP (x, 0, W - 1);
      double sum = 0, n = 0;
      for (int y = 0; y < best_y; y++)
        {
          guint32 px = *(const guint32 *) (data + y * stride + 4 * x);
          int r = (px >> 16) & 0xff, g = (px >> 8) & 0xff, bl = px & 0xff;
          if (r < 60 && g < 110 && bl > 120)
            sum += y, n++;
        }
      g_assert_cmpfloat (n, >, 0);
      ys[j] = sum / n;
    }
  g_test_message ("trace at y = %.1f, %.1f, %.1f px (0.5, 5, 9.5 s)", ys[0], ys[1], ys[2]);
  g_assert_cmpfloat (ys[0] - ys[2], >, 30);
  g_assert_cmpfloat (fabs ((ys[0] - ys[1]) / (ys[0] - ys[2]) - 0.5), <, 0.05);
  cairo_surface_destroy (img);
}

static void
test_export (void)
{
  g_autoptr (HydStateDiagram) d = make_diagram ();
  hyd_state_diagram_set_title (d, "A <title> & more");
  g_autofree char *dir = g_dir_make_tmp ("bramah-sd-XXXXXX", NULL);
  g_autofree char *svg = g_build_filename (dir, "d.svg", NULL);
  g_autofree char *csv = g_build_filename (dir, "d.CSV", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (hyd_state_diagram_export (d, svg, 700, 0, &error));
  g_assert_no_error (error);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "<title>A &lt;title&gt; &amp; more</title>"));
  g_assert_nonnull (strstr (text, "K1.energised"));
  g_assert_nonnull (strstr (text, "stroke 500 mm"));
  g_assert_true (hyd_state_diagram_export (d, csv, 700, 0, &error));
  g_autofree char *table = NULL;
  g_assert_true (g_file_get_contents (csv, &table, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (table, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 103);
  g_assert_false (hyd_state_diagram_export (d, svg, 50, 0, &error));
  g_assert_error (error, HYD_STATE_DIAGRAM_ERROR, HYD_STATE_DIAGRAM_ERROR_EXPORT);
  g_clear_error (&error);
  g_assert_false (hyd_state_diagram_export (d, "x.gif", 700, 0, &error));
  g_assert_nonnull (strstr (error->message, "x.gif"));
  g_remove (svg);
  g_remove (csv);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/symbols/state-diagram/rows", test_rows);
  g_test_add_func ("/symbols/state-diagram/electrical-defaults", test_electrical_defaults);
  g_test_add_func ("/symbols/state-diagram/edges-csv", test_edges_csv);
  g_test_add_func ("/symbols/state-diagram/draw", test_draw);
  g_test_add_func ("/symbols/state-diagram/export", test_export);
  return g_test_run ();
}
