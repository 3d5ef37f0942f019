/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plot-demo.c — two plot views fed live by a timer with a synthetic run of a
 * cylinder circuit, the previous run as ghosts, and parameter-change markers.
 *
 *   plot-demo [--dark] [--export DIR] [--quit-after MS]
 *
 * --export writes both views as PNG, SVG, PDF and CSV into DIR when the run
 * ends. */
#include <math.h>
#include <stdlib.h>
#include "hyd-plot-view.h"

#define T_END        4.0      /* s */
#define SAMPLE_STEP  1e-4     /* s: 40 000 rows per run */
#define RUN_SPEED    1.0      /* simulated seconds per wall second */
#define BATCH_MS     33

static const char *const names[] = { "t", "P1.P.p", "C1.A.p", "C1.B.p", "C1.x", "C1.v" };
static const HydUnit units[] = {
  HYD_UNIT_TIME, HYD_UNIT_PRESSURE, HYD_UNIT_PRESSURE, HYD_UNIT_PRESSURE, HYD_UNIT_POSITION, HYD_UNIT_VELOCITY
};
#define N_COLUMNS G_N_ELEMENTS (names)

typedef struct {
  double relief_bar;   /* relief valve setting */
  double speed;        /* extension speed, m/s */
  double change_at;    /* time of the relief change (NaN: none) */
  double relief_after;
} RunParams;

static double
smoothstep (double x)
{
  x = CLAMP (x, 0.0, 1.0);
  return x * x * (3 - 2 * x);
}

/* A meter-in cylinder circuit, roughly: extend at 0.5 s, end stop, retract at
 * 2.6 s. */
static void
sample (const RunParams *p, double t, double *row)
{
  double relief = isfinite (p->change_at) && t >= p->change_at ? p->relief_after : p->relief_bar;
  double stroke = 0.2;
  double t_ext = 0.5, t_ret = 2.6;
  double ext_time = stroke / p->speed;
  double x, v;
  if (t < t_ext)
    x = 0, v = 0;
  else if (t < t_ret)
    {
      double s = (t - t_ext) / ext_time;
      x = stroke * smoothstep (s * 1.02);
      v = s < 1 ? p->speed * (1 - exp (-(t - t_ext) / 0.03)) * (1 + 0.08 * exp (-(t - t_ext) / 0.08)
                                                                * sin (60 * (t - t_ext))) : 0;
      if (s >= 1)
        x = stroke;
    }
  else
    {
      double s = (t - t_ret) / (ext_time * 0.6);
      x = stroke * (1 - smoothstep (s));
      v = s < 1 ? -p->speed / 0.6 * (1 - exp (-(t - t_ret) / 0.03)) : 0;
    }
  gboolean moving = fabs (v) > 1e-4;
  gboolean at_end = t > t_ext && t < t_ret && !moving;
  double ripple = 1.5 * sin (2 * G_PI * 150 * t);
  double pump = 4 + ripple;
  double pa = 1, pb = 1;
  if (t >= t_ext && t < t_ret)
    {
      double load = moving ? 55 + 6 * sin (20 * t) : relief;
      double rise = 1 - exp (-(t - t_ext) / 0.02);
      pump = (moving ? load + 8 : relief) * rise + ripple + (at_end ? 3 * exp (-(t - t_ext - ext_time) / 0.05)
                                                                       * sin (120 * t) : 0);
      pa = (moving ? load : relief - 2) * rise;
      pb = moving ? 12 : 1;
    }
  else if (t >= t_ret)
    {
      double rise = 1 - exp (-(t - t_ret) / 0.02);
      pump = (moving ? 70 : relief) * rise + ripple;
      pb = (moving ? 68 : relief - 2) * rise;
      pa = moving ? 20 : 1;
    }
  row[0] = t;
  row[1] = pump * 1e5;
  row[2] = pa * 1e5;
  row[3] = pb * 1e5;
  row[4] = x;
  row[5] = v;
}

static HydTraceStore *
new_store (void)
{
  HydTraceStore *store = hyd_trace_store_new (names, units, N_COLUMNS);
  hyd_trace_store_set_t_end (store, T_END);
  return store;
}

typedef struct {
  HydTraceStore *store;
  RunParams params;
  guint64 next_row;
  guint64 n_rows;
  gint64 start_us;
  GtkWidget *views[2];
  char *export_dir;
  gboolean marked;
  guint feed_source;
} Demo;

static void
export_views (Demo *demo)
{
  static const char *const exts[] = { "png", "svg", "pdf", "csv" };
  for (guint v = 0; v < 2; v++)
    for (guint e = 0; e < G_N_ELEMENTS (exts); e++)
      {
        g_autofree char *name = g_strdup_printf ("plot-%u.%s", v + 1, exts[e]);
        g_autofree char *path = g_build_filename (demo->export_dir, name, NULL);
        g_autoptr(GError) error = NULL;
        if (!hyd_plot_view_export (HYD_PLOT_VIEW (demo->views[v]), path, &error))
          g_printerr ("plot-demo: %s\n", error->message);
        else
          g_print ("wrote %s\n", path);
      }
}

static gboolean
feed_cb (gpointer data)
{
  Demo *demo = data;
  double t_now = (g_get_monotonic_time () - demo->start_us) / 1e6 * RUN_SPEED;
  guint64 until = MIN ((guint64) (t_now / SAMPLE_STEP) + 1, demo->n_rows);
  if (until > demo->next_row)
    {
      guint n = (guint) (until - demo->next_row);
      double *rows = g_new (double, (gsize) n * N_COLUMNS);
      for (guint i = 0; i < n; i++)
        sample (&demo->params, (demo->next_row + i) * SAMPLE_STEP, rows + (gsize) i * N_COLUMNS);
      hyd_trace_store_append (demo->store, rows, n);
      g_free (rows);
      demo->next_row = until;
    }
  if (!demo->marked && demo->next_row * SAMPLE_STEP >= demo->params.change_at)
    {
      hyd_trace_store_add_marker (demo->store, demo->params.change_at, "RV1.cracking_pressure 100 → 120 bar");
      demo->marked = TRUE;
    }
  if (demo->next_row >= demo->n_rows)
    {
      if (demo->export_dir)
        export_views (demo);
      demo->feed_source = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
quit_cb (gpointer data)
{
  gtk_window_destroy (GTK_WINDOW (data));
  return G_SOURCE_REMOVE;
}

static void
window_destroyed_cb (GtkWidget *window, Demo *demo)
{
  g_clear_handle_id (&demo->feed_source, g_source_remove);
}

int
main (int argc, char *argv[])
{
  gboolean dark = FALSE;
  char *export_dir = NULL;
  int quit_after = 0;
  GOptionEntry entries[] = {
    { "dark", 0, 0, G_OPTION_ARG_NONE, &dark, "Prefer the dark theme", NULL },
    { "export", 0, 0, G_OPTION_ARG_FILENAME, &export_dir, "Export the views into DIR at the end", "DIR" },
    { "quit-after", 0, 0, G_OPTION_ARG_INT, &quit_after, "Quit after MS milliseconds", "MS" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("— Bramah plot views, live");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_autoptr(GError) error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("plot-demo: %s\n", error->message);
      return 2;
    }
  gtk_init ();
  if (dark)
    g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);

  Demo demo = { 0 };
  demo.store = new_store ();
  demo.params = (RunParams) { 100, 0.15, 1.5, 120 };
  demo.n_rows = (guint64) (T_END / SAMPLE_STEP) + 1;
  demo.export_dir = export_dir;

  /* the previous run: slower, relief at 100 bar all along */
  HydTraceStore *ghost = new_store ();
  RunParams previous = { 100, 0.12, NAN, 100 };
  double *rows = g_new (double, (gsize) demo.n_rows * N_COLUMNS);
  for (guint64 i = 0; i < demo.n_rows; i++)
    sample (&previous, i * SAMPLE_STEP, rows + i * N_COLUMNS);
  hyd_trace_store_append (ghost, rows, (guint) demo.n_rows);
  g_free (rows);

  GtkWidget *window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (window), "Bramah — plot views");
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 760);
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_wide_handle (GTK_PANED (paned), TRUE);
  gtk_window_set_child (GTK_WINDOW (window), paned);

  for (guint v = 0; v < 2; v++)
    {
      HydPlotView *view = HYD_PLOT_VIEW (demo.views[v] = hyd_plot_view_new ());
      hyd_plot_view_set_store (view, demo.store);
      hyd_plot_view_set_ghost (view, ghost);
      gtk_widget_set_size_request (demo.views[v], -1, 200);
      if (v == 0)
        {
          hyd_plot_view_set_title (view, "Pressures");
          hyd_plot_view_add_trace (view, "P1.P.p");
          hyd_plot_view_add_trace (view, "C1.A.p");
          hyd_plot_view_add_trace (view, "C1.B.p");
          gtk_paned_set_start_child (GTK_PANED (paned), demo.views[v]);
        }
      else
        {
          hyd_plot_view_set_title (view, "Cylinder C1");
          hyd_plot_view_add_trace (view, "C1.x");
          hyd_plot_view_add_trace (view, "C1.v");
          gtk_paned_set_end_child (GTK_PANED (paned), demo.views[v]);
        }
    }
  gtk_paned_set_position (GTK_PANED (paned), 340);
  g_object_unref (ghost);

  demo.start_us = g_get_monotonic_time ();
  demo.feed_source = g_timeout_add (BATCH_MS, feed_cb, &demo);
  g_signal_connect (window, "destroy", G_CALLBACK (window_destroyed_cb), &demo);
  if (quit_after > 0)
    g_timeout_add (quit_after, quit_cb, window);

  gtk_window_present (GTK_WINDOW (window));
  while (g_list_model_get_n_items (gtk_window_get_toplevels ()) > 0)
    g_main_context_iteration (NULL, TRUE);

  g_object_unref (demo.store);
  g_free (export_dir);
  return EXIT_SUCCESS;
}
