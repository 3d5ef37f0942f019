/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fd-harness.h — checks one component's analytic partial derivatives against
 * central finite differences (the rule of hyd-fdcheck.h). */
#pragma once

#include "hyd-component.h"
#include "hyd-catalogue.h"

/* A component of a catalogue type with parameters from name/value string
 * pairs (numbers or enum choices), NULL-terminated; validated and set up.
 * Aborts the test on error. fluid may be NULL (defaults). */
HydComp *hyd_test_make_comp (const char *type_id, const HydFluid *fluid, ...) G_GNUC_NULL_TERMINATED;
/* The same with the ports whose bits are set in `connected` wired (as the
 * compiler tells setup, HydComp.connected). */
HydComp *hyd_test_make_comp_wired (const char *type_id, const HydFluid *fluid, guint64 connected,
                                   ...) G_GNUC_NULL_TERMINATED;
/* Make parameter `name` vary in time at `rate` (per second) for the ∂/∂t check. */
void hyd_test_set_param_rate (HydComp *comp, const char *name, double rate);
/* Check ∂(q̂, ẋ)/∂(p, x), ∂/∂t, ∂V/∂x, ∂²V/∂x², ∂C/∂p at (t, p, x).
 * Returns the number of failing entries (seams are reported, not counted);
 * each failure is printed with g_test_message. `where` names the point. */
guint hyd_test_check_component (HydComp *comp, double t, const double *p, const double *x,
                                const char *where);
/* The same with the positions (angles) of the ports of a type with a
 * mechanical port (comp->n_pos of them; NULL: zeros): the local variables
 * are z = [p, x, pos]. */
guint hyd_test_check_component_pos (HydComp *comp, double t, const double *p, const double *x,
                                    const double *pos, const char *where);
/* Evaluate (values only) into freshly allocated arrays of the right size. */
void hyd_test_eval (HydComp *comp, double t, const double *p, const double *x,
                    double *q, double *xdot, double *out);

/* ---- running a compiled circuit in a test ---- */
#include "hyd-system.h"

/* Samples of a run: rows of [t, values...], n values per row. */
typedef struct {
  GArray *rows;
  guint n;
} HydTestRows;

#define HYD_TEST_ROW(r, i) (&g_array_index ((r).rows, double, (gsize) (i) * (r).n))
#define HYD_TEST_N_ROWS(r) ((r).rows->len / (r).n)

/* A HydRunSpec.sample callback appending [t, values...] to the HydTestRows
 * in user. */
gboolean hyd_test_keep_row (double t, const double *values, guint n, gpointer user);

/* Runs sys to t_end with rodas4 at rtol (atol scaled from the defaults by
 * rtol / 1e-4), sampling `names` every dt; events 0 or 1 sets the
 * simulation's "events", −1 keeps its default. Aborts the test when a name
 * is no variable or the run fails; stats (or NULL) gets the solver's. */
HydTestRows hyd_test_run (HydSystem *sys, const char *const *names, guint n_names, double t_end, double dt,
                          double rtol, int events, HydOdeStats *stats);
