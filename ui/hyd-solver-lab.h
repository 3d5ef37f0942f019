/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-solver-lab.h — the "Solver Lab" window (docs/analysis.md, "Solver
 * lab"): the open circuit run with several solvers and tolerances by a
 * worker thread, as `bramah-cli bench` runs it (engine/analysis/
 * hyd-workprec.h: the same runs, reference and error measure), shown as a
 * work-precision diagram (error against CPU time), a table of the runs'
 * statistics and, for the run selected, its step-size history h(t) with the
 * rejected steps marked and a heat map on the schematic: the components
 * whose states limited the accepted steps (HydOdeOptions.step_log). */
#pragma once

#include <gtk/gtk.h>
#include "hyd-canvas.h"
#include "hyd-circuit.h"

G_BEGIN_DECLS

#define HYD_TYPE_SOLVER_LAB (hyd_solver_lab_get_type ())
G_DECLARE_FINAL_TYPE (HydSolverLab, hyd_solver_lab, HYD, SOLVER_LAB, GtkWindow)

/* A window over parent for `circuit` (copied); canvas (may be NULL) gets
 * the heat map, cleared when the window goes. Nothing runs until Run. */
HydSolverLab *hyd_solver_lab_new (GtkWindow *parent, const HydCircuit *circuit, HydCanvas *canvas);

/* Ticks exactly these solvers and tolerances (ids that are not offered
 * are ignored). */
void hyd_solver_lab_set_choice (HydSolverLab *self, const char *const *solvers,
                                const double *rtols, guint n_rtols);
/* Run (the Run button): the reference, then every ticked solver at every
 * ticked tolerance, loosest first. Ignored while running. */
void hyd_solver_lab_run (HydSolverLab *self);
/* Cancel (the Cancel button): the run in progress stops at its next step;
 * the runs finished so far stay. */
void hyd_solver_lab_cancel (HydSolverLab *self);
gboolean hyd_solver_lab_get_running (HydSolverLab *self);

/* Signal "ready" () when the runs end (done, cancelled or failed). */
/* NULL, or why the runs could not be made (the reference failed, ...). */
const char *hyd_solver_lab_get_error (HydSolverLab *self);
gboolean hyd_solver_lab_get_cancelled (HydSolverLab *self);
/* The rows of the table: one per run made. */
guint hyd_solver_lab_get_n_runs (HydSolverLab *self);
/* Run k's solver, rtol, error (NAN when it failed) and statistics. */
const char *hyd_solver_lab_get_run_solver (HydSolverLab *self, guint k);
double hyd_solver_lab_get_run_rtol (HydSolverLab *self, guint k);
double hyd_solver_lab_get_run_error (HydSolverLab *self, guint k);
/* Shows run k's h(t) and heat map (the table's row selection). */
void hyd_solver_lab_select_run (HydSolverLab *self, guint k);
/* The components of the heat map of the run selected, hottest first
 * (NULL-terminated; free), or NULL. */
GStrv hyd_solver_lab_dup_heat_components (HydSolverLab *self);

G_END_DECLS
