/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-study-dialog.h — the "Parameter Study" window (issue 16): the
 * application's face of `bramah-cli sweep` (engine/study/hyd-study.h,
 * docs/cli.md "sweep"). Pick parameters and their ranges (display units,
 * checked against each parameter's range), a design (a grid, random or
 * Latin-hypercube samples, Monte Carlo with normal distributions), metrics
 * of the circuit's variables and a variable to trace; run it in the
 * background on `jobs` threads (HydStudyPool) with progress and Cancel;
 * then a family of traces coloured by the first varied value, a
 * metric-versus-parameter plot, a histogram of a metric (sampled designs),
 * the failed runs, and "Save CSV…" (the rows `sweep` writes). The study
 * runs a copy of the editor's circuit taken at Start. */
#pragma once

#include <gtk/gtk.h>
#include "hyd-document.h"

G_BEGIN_DECLS

#define HYD_TYPE_STUDY_DIALOG (hyd_study_dialog_get_type ())
G_DECLARE_FINAL_TYPE (HydStudyDialog, hyd_study_dialog, HYD, STUDY_DIALOG, GtkWindow)

/* The traces drawn: at most this many runs (spread evenly over the study),
 * each reduced to at most HYD_STUDY_DIALOG_TRACE_POINTS points. */
#define HYD_STUDY_DIALOG_MAX_TRACES 40
#define HYD_STUDY_DIALOG_TRACE_POINTS 400
/* The dialog keeps every row; larger studies are for `bramah-cli sweep`. */
#define HYD_STUDY_DIALOG_MAX_RUNS 100000

typedef enum {
  HYD_STUDY_DIALOG_GRID,     /* LO:HI:N per parameter, every combination */
  HYD_STUDY_DIALOG_RANDOM,   /* N uniform samples in [LO, HI] */
  HYD_STUDY_DIALOG_LHS,      /* N Latin-hypercube samples in [LO, HI] */
  HYD_STUDY_DIALOG_NORMAL,   /* Monte Carlo: N samples of normal(MEAN, SD) */
} HydStudyDialogDesign;

/* A window over parent for the circuit of `document` (the circuit is
 * copied when a study starts). */
HydStudyDialog *hyd_study_dialog_new (GtkWindow *parent, HydDocument *document);
/* The window's study dialog (one per parent window), made when there is
 * none yet. */
HydStudyDialog *hyd_study_dialog_get_for (GtkWindow *parent, HydDocument *document);

/* A row for a numeric parameter of a component, with a range around its
 * value: ±20 % (inside the parameter's range), 5 grid points, SD 5 %.
 * FALSE (and the message shown) when there is no such numeric parameter;
 * TRUE without a second row when it is there already. */
gboolean hyd_study_dialog_add_parameter (HydStudyDialog *self, const char *component, const char *param);
/* Its fields as typed, in display units (NULL leaves a field): LO (or
 * MEAN), HI (or SD), N (grid points). FALSE when there is no such row. */
gboolean hyd_study_dialog_set_range (HydStudyDialog *self, const char *component, const char *param,
                                     const char *lo, const char *hi, const char *n);
/* n: samples of the sampled designs; seed of RANDOM, LHS, NORMAL. */
void hyd_study_dialog_set_design (HydStudyDialog *self, HydStudyDialogDesign design, guint n, guint seed);
/* "final:C1.x" (any `sweep --metric`); FALSE for a malformed one. */
gboolean hyd_study_dialog_add_metric (HydStudyDialog *self, const char *spec);
/* As the metric row's "Add Metric": kind one of final, min, max, mean,
 * rms, overshoot, settling, itae, ise, iae, "time_to>=", "time_to<=", the
 * threshold (time_to) typed in the variable's display unit. */
gboolean hyd_study_dialog_add_metric_as_shown (HydStudyDialog *self, const char *kind, const char *var,
                                              const char *threshold);
/* The variable of the traces; FALSE for one the circuit does not have. */
gboolean hyd_study_dialog_set_trace_variable (HydStudyDialog *self, const char *var);
void hyd_study_dialog_set_jobs (HydStudyDialog *self, guint jobs);
/* A run's wall-clock limit (s; 0: none), as `sweep --timeout`. */
void hyd_study_dialog_set_timeout (HydStudyDialog *self, double seconds);

/* As Start: FALSE, and why in the dialog, when the set-up is wrong. */
gboolean hyd_study_dialog_start (HydStudyDialog *self);
/* As Cancel: the runs stop, the finished rows stay. */
void hyd_study_dialog_cancel (HydStudyDialog *self);
gboolean hyd_study_dialog_is_running (HydStudyDialog *self);
/* What the dialog says under the buttons (progress, or what is wrong). */
const char *hyd_study_dialog_get_message (HydStudyDialog *self);
/* `bramah-cli sweep` with the same study (the circuit as saved). */
const char *hyd_study_dialog_get_command (HydStudyDialog *self);

/* The last study: its runs, the rows come back, the failed ones. */
guint64 hyd_study_dialog_get_n_runs (HydStudyDialog *self);
guint64 hyd_study_dialog_get_n_done (HydStudyDialog *self);
guint64 hyd_study_dialog_get_n_failed (HydStudyDialog *self);
/* A run's values (SI), metrics and status; FALSE before its row came. */
gboolean hyd_study_dialog_get_run (HydStudyDialog *self, guint64 run, double *values, double *metrics,
                                   const char **status);
/* The CSV `bramah-cli sweep` writes (header, the rows come back sorted by
 * run); and "Save CSV…" without the file chooser. */
char *hyd_study_dialog_get_csv (HydStudyDialog *self);
gboolean hyd_study_dialog_save_csv (HydStudyDialog *self, const char *path, GError **error);
/* The histogram of metric i over the ok runs: its bins (counts, owned by
 * the dialog), the first bin's left edge and the width (SI); 0 bins when
 * none. */
guint hyd_study_dialog_get_histogram (HydStudyDialog *self, guint metric, const guint **counts, double *lo,
                                      double *width);
/* The "Failed Runs" page: a line per failed run (its values, status and
 * message), at most 200 of them. */
const char *hyd_study_dialog_get_failed_text (HydStudyDialog *self);
/* The traces received so far. */
guint hyd_study_dialog_get_n_traces (HydStudyDialog *self);
/* Show a results page: 0 the traces above the metric against the
 * parameter, 1 the histogram, 2 the failed runs. */
void hyd_study_dialog_show_page (HydStudyDialog *self, guint page);

/* Signal "finished" (gboolean cancelled): the last run of a study ended,
 * or its cancel did. */

G_END_DECLS
