/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-plot-plan.c — the data side of a plot pane, without a display: y
 * ranges with their margins, ticks in engineering units, the time window
 * during and after a run, the strips and their legends, event markers and
 * the replay cursor's position (ui/hyd-plot-plan.h). */
#include <math.h>
#include <string.h>
#include "hyd-plot-plan.h"
#include "hyd-display-units.h"

#define N_TICKS 5.0   /* the ticks a ~210 px strip has room for */

typedef struct {
  const char *name;
  double data_lo, data_hi;   /* lo > hi: no data */
  double lo, hi, step;       /* expected */
} RangeCase;

/* Automatic ranges: 4 % of the span each side, zero kept as the edge of data
 * that does not cross it, snapped outwards to half tick steps. */
static void
test_range_margins (void)
{
  static const RangeCase cases[] = {
    /* 0..100: pad 4 → [0, 104], step nice(104/5) = 20, half steps → 110 */
    { "from zero", 0.0, 100.0, 0.0, 110.0, 20.0 },
    /* the margin decides the half step: 0..96 + 3.84 stays under 100,
     * 0..97 + 3.88 goes over it (any pad from 3.1 % to 4.1 % tells these) */
    { "margin under a half step", 0.0, 96.0, 0.0, 100.0, 20.0 },
    { "margin over a half step", 0.0, 97.0, 0.0, 110.0, 20.0 },
    /* 20..80: pad 2.4 → [17.6, 82.4], step 10 → [15, 85] */
    { "inside", 20.0, 80.0, 15.0, 85.0, 10.0 },
    /* −50..−10: pad 1.6 → [−51.6, −8.4], step 10 → [−55, −5] */
    { "negative", -50.0, -10.0, -55.0, -5.0, 10.0 },
    /* −1..1 crosses zero: pad 0.08 each side, step 0.5 → [−1.25, 1.25] */
    { "across zero", -1.0, 1.0, -1.25, 1.25, 0.5 },
    /* a flat trace at 5: made ±10 % wide [4.5, 5.5], pad 0.04, step 0.2 */
    { "flat", 5.0, 5.0, 4.4, 5.6, 0.2 },
    /* a flat trace at 0: ±1, pad 0.08, step 0.5 */
    { "flat at zero", 0.0, 0.0, -1.25, 1.25, 0.5 },
    /* no data: [0, 1], pad 0.04 at the top only, step 0.2 → [0, 1.1] */
    { "no data", INFINITY, -INFINITY, 0.0, 1.1, 0.2 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const RangeCase *c = &cases[i];
      double lo, hi, step;
      hyd_plot_y_range (c->data_lo, c->data_hi, FALSE, 0, 0, N_TICKS, &lo, &hi, &step);
      g_test_message ("%s: [%g, %g] step %g", c->name, lo, hi, step);
      g_assert_cmpfloat_with_epsilon (lo, c->lo, 1e-9);
      g_assert_cmpfloat_with_epsilon (hi, c->hi, 1e-9);
      g_assert_cmpfloat_with_epsilon (step, c->step, 1e-12);
      if (c->data_lo <= c->data_hi)
        {
          /* the data lies inside, with a margin where it is not zero */
          g_assert_cmpfloat (lo, <=, c->data_lo);
          g_assert_cmpfloat (hi, >=, c->data_hi);
          g_assert_cmpfloat (hi, >, lo);
        }
    }

  /* a manual range is kept as given, only ordered */
  double lo, hi, step;
  hyd_plot_y_range (0, 1000, TRUE, 250.0, 10.0, N_TICKS, &lo, &hi, &step);
  g_assert_cmpfloat (lo, ==, 10.0);
  g_assert_cmpfloat (hi, ==, 250.0);
  g_assert_cmpfloat (step, ==, 50.0);
  /* and a non-finite one falls back to [0, 1] */
  hyd_plot_y_range (0, 1000, TRUE, NAN, 10.0, N_TICKS, &lo, &hi, &step);
  g_assert_cmpfloat (lo, ==, 0.0);
  g_assert_cmpfloat (hi, ==, 1.0);
}

/* One store: column 0 time, then the given columns. */
static HydTraceStore *
make_store (const char *const *names, const HydUnit *units, guint n_cols, const double *rows, guint n_rows)
{
  HydTraceStore *store = hyd_trace_store_new (names, units, n_cols);
  if (n_rows > 0)
    hyd_trace_store_append (store, rows, n_rows);
  return store;
}

static const char *const p_names[] = { "t", "P1.p" };
static const HydUnit p_units[] = { HYD_UNIT_TIME, HYD_UNIT_PRESSURE };

/* Decimate column 1 of store into trace i of plan, as the view does. */
static void
feed (HydPlotPlan *plan, guint i, guint g, HydTraceStore *store, guint n_columns)
{
  HydPlotEnvelope e = { 0 };
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ys = g_array_new (FALSE, FALSE, sizeof (double));
  hyd_plot_envelope_update (&e, store, 1, plan->x0, plan->x1, n_columns, xs, ys);
  hyd_plot_plan_set_series (plan, i, g, xs, ys);
  hyd_plot_envelope_clear (&e);
}

/* NaN samples break the line and do not count in the range; a single
 * sample still gives a usable range around it. */
static void
test_range_gaps_and_single (void)
{
  /* pressure in Pa: 10, NaN, NaN, 50, 30 bar */
  const double rows[] = { 0.0, 10e5, 0.25, NAN, 0.5, NAN, 0.75, 50e5, 1.0, 30e5 };
  g_autoptr(HydTraceStore) store = make_store (p_names, p_units, 2, rows, 5);
  const HydUnit units[] = { HYD_UNIT_PRESSURE };
  g_autoptr(HydPlotPlan) plan = hyd_plot_plan_new (units, 1, store, NULL);
  feed (plan, 0, 0, store, 400);
  const HydPlotStrip *st = &plan->strips[0];
  g_assert_cmpstr (hyd_display_symbol (st->unit), ==, "bar");
  g_assert_cmpfloat_with_epsilon (st->data_lo, 10.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st->data_hi, 50.0, 1e-9);
  guint breaks = 0;
  for (guint j = 0; j < plan->ys[0]->len; j++)
    breaks += isnan (g_array_index (plan->ys[0], double, j));
  g_assert_cmpuint (breaks, ==, 1);
  hyd_plot_plan_set_y_axis (plan, 0, FALSE, 0, 0, N_TICKS);
  /* 10..50 bar: pad 1.6 → [8.4, 51.6], step 10 → [5, 55] */
  g_assert_cmpfloat_with_epsilon (st->lo, 5.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st->hi, 55.0, 1e-9);

  /* one sample, 2 bar at 0.5 s: the window starts at 0, the range is
   * [1.8, 2.2] (±10 %), padded by 4 % to [1.784, 2.216], step nice(0.432/5)
   * = 0.1, snapped outwards to half steps of 0.05 */
  const double one[] = { 0.5, 2e5 };
  g_autoptr(HydTraceStore) single = make_store (p_names, p_units, 2, one, 1);
  g_autoptr(HydPlotPlan) plan1 = hyd_plot_plan_new (units, 1, single, NULL);
  g_assert_cmpfloat (plan1->x0, ==, 0.0);
  g_assert_cmpfloat (plan1->x1, ==, 0.5);
  feed (plan1, 0, 0, single, 400);
  g_assert_cmpuint (plan1->xs[0]->len, ==, 1);
  hyd_plot_plan_set_y_axis (plan1, 0, FALSE, 0, 0, N_TICKS);
  const HydPlotStrip *s1 = &plan1->strips[0];
  g_assert_cmpfloat_with_epsilon (s1->data_lo, 2.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (s1->step, 0.1, 1e-12);
  g_assert_cmpfloat_with_epsilon (s1->lo, 1.75, 1e-9);
  g_assert_cmpfloat_with_epsilon (s1->hi, 2.25, 1e-9);
}

static void
collect_label (const char *label, gpointer data)
{
  g_ptr_array_add (data, g_strdup (label));
}

/* Ticks of a pressure strip in bar, not Pa, with the decimals the step
 * needs, a typographic minus, exponents only for very large values. */
static void
test_ticks (void)
{
  const double rows[] = { 0.0, 0.0, 1.0, 250e5 };
  g_autoptr(HydTraceStore) store = make_store (p_names, p_units, 2, rows, 2);
  const HydUnit units[] = { HYD_UNIT_PRESSURE };
  g_autoptr(HydPlotPlan) plan = hyd_plot_plan_new (units, 1, store, NULL);
  feed (plan, 0, 0, store, 300);
  hyd_plot_plan_set_y_axis (plan, 0, FALSE, 0, 0, N_TICKS);
  const HydPlotStrip *st = &plan->strips[0];
  /* 0..250 bar: pad 10 → [0, 260], step 50 → [0, 275] */
  g_assert_cmpfloat_with_epsilon (st->step, 50.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st->hi, 275.0, 1e-9);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  guint n = hyd_plot_foreach_tick (st->lo, st->hi, &st->format, collect_label, labels);
  g_assert_cmpuint (n, ==, 6);
  const char *want[] = { "0", "50", "100", "150", "200", "250" };
  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (g_ptr_array_index (labels, i), ==, want[i]);

  static const struct {
    double lo, hi, step, value;
    const char *label;
  } fmt[] = {
    { 0, 1, 0.25, 0.75, "0.75" },
    { 0, 10, 2.5, 7.5, "7.5" },
    { -1, 1, 0.5, -0.5, "−0.5" },
    { -1, 1, 0.5, 1e-12, "0.0" },      /* rounding noise is zero */
    { 0, 100, 20, 40, "40" },
    { 0, 5e7, 1e7, 2e7, "2e+07" },     /* too large for plain decimals */
  };
  for (guint i = 0; i < G_N_ELEMENTS (fmt); i++)
    {
      HydPlotAxisFormat f = hyd_plot_axis_format (fmt[i].lo, fmt[i].hi, fmt[i].step);
      g_autofree char *s = hyd_plot_format_tick (&f, fmt[i].value);
      g_assert_cmpstr (s, ==, fmt[i].label);
    }

  /* nice steps: 1, 2, 2.5, 5 × 10^k */
  g_assert_cmpfloat_with_epsilon (hyd_plot_nice_step (4.0, 5), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (hyd_plot_nice_step (10.0, 5), 2.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (hyd_plot_nice_step (14.0, 5), 2.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (hyd_plot_nice_step (0.02, 5), 0.005, 1e-15);
  g_assert_cmpfloat (hyd_plot_nice_step (0.0, 5), ==, 1.0);
}

/* During a run the window is [0, t_end] and the traces grow into it; a run
 * without a known end shows up to its last sample; a longer ghost does not
 * widen the current run's window, but shows alone when there is no run. */
static void
test_time_window (void)
{
  double x0, x1;
  hyd_plot_time_window (NULL, NULL, &x0, &x1);
  g_assert_cmpfloat (x0, ==, 0.0);
  g_assert_cmpfloat (x1, ==, 1.0);

  const double live_rows[] = { 0.0, 1e5, 0.1, 2e5, 0.2, 3e5 };
  g_autoptr(HydTraceStore) live = make_store (p_names, p_units, 2, live_rows, 3);
  hyd_plot_time_window (live, NULL, &x0, &x1);   /* end unknown */
  g_assert_cmpfloat (x0, ==, 0.0);
  g_assert_cmpfloat (x1, ==, 0.2);
  hyd_trace_store_set_t_end (live, 2.0);          /* a live run to 2 s */
  hyd_plot_time_window (live, NULL, &x0, &x1);
  g_assert_cmpfloat (x1, ==, 2.0);

  /* the run finished: every sample to 2 s is in, the window stays */
  const double more[] = { 1.0, 4e5, 2.0, 5e5 };
  hyd_trace_store_append (live, more, 2);
  hyd_plot_time_window (live, NULL, &x0, &x1);
  g_assert_cmpfloat (x0, ==, 0.0);
  g_assert_cmpfloat (x1, ==, 2.0);

  const double ghost_rows[] = { 0.0, 1e5, 4.0, 2e5 };
  g_autoptr(HydTraceStore) ghost = make_store (p_names, p_units, 2, ghost_rows, 2);
  hyd_plot_time_window (live, ghost, &x0, &x1);
  g_assert_cmpfloat (x1, ==, 2.0);
  hyd_plot_time_window (NULL, ghost, &x0, &x1);
  g_assert_cmpfloat (x1, ==, 4.0);

  /* a ghost's samples beyond the window count in no range */
  const HydUnit units[] = { HYD_UNIT_PRESSURE };
  const double big_late[] = { 0.0, 1e5, 1.0, 2e5, 3.0, 900e5 };
  g_autoptr(HydTraceStore) ghost2 = make_store (p_names, p_units, 2, big_late, 3);
  g_autoptr(HydPlotPlan) plan = hyd_plot_plan_new (units, 1, live, ghost2);
  feed (plan, 0, 1, ghost2, 200);
  g_assert_cmpfloat (plan->strips[0].data_hi, <, 900.0);
  g_assert_true (plan->ghost_entry);
}

/* Markers inside the window are drawn (in order), the others not; their
 * pixel column is proportional to the time. */
static void
test_markers (void)
{
  const double rows[] = { 0.0, 1e5, 2.0, 2e5 };
  g_autoptr(HydTraceStore) store = make_store (p_names, p_units, 2, rows, 2);
  hyd_trace_store_add_marker (store, -1.0, "before");
  hyd_trace_store_add_marker (store, 0.5, "A");
  hyd_trace_store_add_marker (store, NAN, "nowhere");
  hyd_trace_store_add_marker (store, 1.5, "B");
  hyd_trace_store_add_marker (store, 3.0, "after");
  hyd_trace_store_add_marker (store, 2.0, "at the end");
  const HydUnit units[] = { HYD_UNIT_PRESSURE };
  g_autoptr(HydPlotPlan) plan = hyd_plot_plan_new (units, 1, store, NULL);
  g_assert_cmpuint (plan->markers->len, ==, 3);
  g_assert_cmpfloat (g_array_index (plan->markers, double, 0), ==, 0.5);
  g_assert_cmpfloat (g_array_index (plan->markers, double, 1), ==, 1.5);
  g_assert_cmpfloat (g_array_index (plan->markers, double, 2), ==, 2.0);
  double x = -1;
  g_assert_true (hyd_plot_time_to_x (0.5, plan->x0, plan->x1, 100, 500, &x));
  g_assert_cmpfloat_with_epsilon (x, 200.0, 1e-9);
  g_assert_true (hyd_plot_time_to_x (1.5, plan->x0, plan->x1, 100, 500, &x));
  g_assert_cmpfloat_with_epsilon (x, 400.0, 1e-9);

  /* the ghost's markers are not the current run's */
  g_autoptr(HydPlotPlan) ghost_only = hyd_plot_plan_new (units, 1, NULL, store);
  g_assert_cmpuint (ghost_only->markers->len, ==, 0);
}

/* Traces of three units: three strips in the order of first use, every
 * trace in its unit's strip, every legend entry kept. */
static void
test_three_axes (void)
{
  const HydUnit units[] = {
    HYD_UNIT_PRESSURE, HYD_UNIT_PRESSURE, HYD_UNIT_POSITION, HYD_UNIT_VELOCITY, HYD_UNIT_PRESSURE,
  };
  const double rows[] = { 0.0, 1e5, 1.0, 2e5 };
  g_autoptr(HydTraceStore) ghost = make_store (p_names, p_units, 2, rows, 2);
  g_autoptr(HydPlotPlan) plan = hyd_plot_plan_new (units, G_N_ELEMENTS (units), NULL, ghost);
  g_assert_cmpuint (plan->n_strips, ==, 3);
  g_assert_cmpint (plan->strips[0].unit, ==, HYD_UNIT_PRESSURE);
  g_assert_cmpint (plan->strips[1].unit, ==, HYD_UNIT_POSITION);
  g_assert_cmpint (plan->strips[2].unit, ==, HYD_UNIT_VELOCITY);
  static const guint want_strip[] = { 0, 0, 1, 2, 0 };
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    g_assert_cmpuint (plan->trace_strip[i], ==, want_strip[i]);
  g_assert_cmpuint (plan->strips[0].traces->len, ==, 3);
  g_assert_cmpuint (g_array_index (plan->strips[0].traces, guint, 2), ==, 4);
  guint entries = 0;
  for (guint s = 0; s < plan->n_strips; s++)
    {
      g_assert_cmpuint (plan->strips[s].traces->len, >, 0);
      entries += hyd_plot_plan_legend_entries (plan, s);
    }
  g_assert_cmpuint (entries, ==, G_N_ELEMENTS (units) + 1);   /* + "previous run" */

  /* each strip gets its own y axis */
  for (guint s = 0; s < plan->n_strips; s++)
    hyd_plot_plan_set_y_axis (plan, s, s == 2, -1.0, 1.0, N_TICKS);
  g_assert_cmpfloat (plan->strips[2].lo, ==, -1.0);
  g_assert_cmpfloat (plan->strips[0].lo, ==, 0.0);

  /* no traces: one empty strip, no legend */
  g_autoptr(HydPlotPlan) empty = hyd_plot_plan_new (NULL, 0, NULL, ghost);
  g_assert_cmpuint (empty->n_strips, ==, 1);
  g_assert_cmpuint (hyd_plot_plan_legend_entries (empty, 0), ==, 0);
}

/* The replay cursor's pixel column: proportional inside the window, at
 * its edges at the window's ends, none outside or on an empty axis. */
static void
test_replay_cursor (void)
{
  double x = -1;
  g_assert_true (hyd_plot_time_to_x (0.0, 0.0, 4.0, 60.0, 860.0, &x));
  g_assert_cmpfloat (x, ==, 60.0);
  g_assert_true (hyd_plot_time_to_x (4.0, 0.0, 4.0, 60.0, 860.0, &x));
  g_assert_cmpfloat (x, ==, 860.0);
  g_assert_true (hyd_plot_time_to_x (1.0, 0.0, 4.0, 60.0, 860.0, &x));
  g_assert_cmpfloat_with_epsilon (x, 260.0, 1e-9);
  x = -1;
  g_assert_false (hyd_plot_time_to_x (4.5, 0.0, 4.0, 60.0, 860.0, &x));
  g_assert_false (hyd_plot_time_to_x (-0.1, 0.0, 4.0, 60.0, 860.0, &x));
  g_assert_false (hyd_plot_time_to_x (NAN, 0.0, 4.0, 60.0, 860.0, &x));
  g_assert_false (hyd_plot_time_to_x (1.0, 1.0, 1.0, 60.0, 860.0, &x));
  g_assert_false (hyd_plot_time_to_x (1.0, 0.0, 4.0, 60.0, 60.0, &x));
  g_assert_cmpfloat (x, ==, -1);

  /* the read-out under it: linear between samples, NaN outside */
  const double rows[] = { 0.0, 0.0, 1.0, 10e5, 2.0, 30e5 };
  g_autoptr(HydTraceStore) store = make_store (p_names, p_units, 2, rows, 3);
  g_assert_cmpfloat_with_epsilon (hyd_plot_value_at (store, 1, 1.5), 20e5, 1e-6);
  g_assert_cmpfloat (hyd_plot_value_at (store, 1, 1.0), ==, 10e5);
  g_assert_true (isnan (hyd_plot_value_at (store, 1, 2.5)));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/plot-plan/range/margins", test_range_margins);
  g_test_add_func ("/ui/plot-plan/range/gaps-and-single-sample", test_range_gaps_and_single);
  g_test_add_func ("/ui/plot-plan/ticks", test_ticks);
  g_test_add_func ("/ui/plot-plan/time-window", test_time_window);
  g_test_add_func ("/ui/plot-plan/markers", test_markers);
  g_test_add_func ("/ui/plot-plan/three-axes", test_three_axes);
  g_test_add_func ("/ui/plot-plan/replay-cursor", test_replay_cursor);
  return g_test_run ();
}
