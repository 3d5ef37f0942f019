/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-workprec.h — work-precision runs of a compiled circuit: what
 * `bramah-cli bench` and the solver lab (ui/hyd-solver-lab.c) share.
 *
 * A run integrates the circuit from its initial state to t_end with its
 * max_step, breakpoints, events setting and output samples; its error is
 * measured at the samples against a reference run (radau5 at rtol 1e-10,
 * atol scaled down with it): max over samples and states of
 * |y − y_ref| / (atol + 1e-6·|y_ref|) with the circuit's atol
 * (docs/cli.md, bench; the work-precision diagrams of Hairer & Wanner 1996,
 * §IV.10). */
#pragma once

#include <time.h>

#include "hyd-system.h"

G_BEGIN_DECLS

/* The error measure's relative weight: |y − y_ref| / (atol + RTOL_REF·|y_ref|). */
#define HYD_WORKPREC_RTOL_REF 1e-6
/* The reference run's rtol; its atol is the circuit's × REF_RTOL /
 * max(simulation.rtol, RTOL_REF), so that the reference error stays far
 * below the finest run's tolerance for every state, pressures included. */
#define HYD_WORKPREC_REF_RTOL 1e-10

typedef struct {
  HydSystem *sys;          /* the caller's; one run at a time */
  const HydSimOptions *sim;/* the caller's */
  guint n;                 /* states */
  double *atol;            /* [n], the circuit's (hyd_system_get_atol) */
  gboolean events;         /* locate the components' events (default: sim->events) */
  double out_dt;           /* the output interval */
  guint64 n_regular;       /* samples k·Δ before t_end */
  guint n_samples;         /* n_regular + the one at t_end */
  double *y_ref;           /* [n_samples × n] once the reference ran, else NULL */
  const char *ref_solver;  /* "radau5", or the default solver in a build without it */
  double ref_factor;       /* the reference's atol / the circuit's */
  guint64 ref_steps;
  double ref_seconds;
} HydWorkPrec;

/* The samples of one run. */
typedef struct {
  double *buf;             /* [cap × n] */
  guint n;
  guint cap;
  guint count;             /* samples reported (may exceed cap: then incomplete) */
} HydWorkPrecSamples;

/* Prepares wp for sys and sim (both the caller's, outliving wp). FALSE and
 * error (naming `where`, e.g. the file) when the output samples are more
 * than max_samples. */
gboolean hyd_workprec_init (HydWorkPrec *wp, HydSystem *sys, const HydSimOptions *sim,
                            const char *where, guint64 max_samples, GError **error);
void hyd_workprec_clear (HydWorkPrec *wp);

/* A sample buffer for wp's runs (free buf with g_free). */
void hyd_workprec_samples_init (const HydWorkPrec *wp, HydWorkPrecSamples *s);
/* The output callback that fills a HydWorkPrecSamples. */
gboolean hyd_workprec_collect (double t, const double *y, gpointer user);

/* One run of a solver at rtol with atol[n] (NULL: the circuit's scaled by
 * rtol / simulation.rtol, the work-precision convention), the samples into
 * s, the result into res (cleared first) and the time measured around the
 * whole call with `clock` (CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID,
 * CLOCK_THREAD_CPUTIME_ID) into *seconds. cancel and step_log may be NULL. */
HydOdeStatus hyd_workprec_solve (HydWorkPrec *wp, const char *solver, double rtol,
                                 const double *atol, gboolean fd_jacobian,
                                 const gint *cancel, HydOdeStepLog *step_log,
                                 clockid_t clock, HydWorkPrecSamples *s,
                                 HydOdeResult *res, double *seconds);

/* The reference run, kept in wp->y_ref. FALSE and error (naming `where`)
 * when it failed or was cancelled. */
gboolean hyd_workprec_reference (HydWorkPrec *wp, const char *where, const gint *cancel,
                                 clockid_t clock, GError **error);

/* The error of a run's samples against the reference; NAN when the run did
 * not give every sample, or a value is not a number. */
double hyd_workprec_error (const HydWorkPrec *wp, const HydWorkPrecSamples *s);

/* Seconds on `clock` (for timing one's own runs as hyd_workprec_solve does). */
double hyd_workprec_now (clockid_t clock);

G_END_DECLS
