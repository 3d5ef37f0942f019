/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-state-diagram.h — the displacement–step diagram ("state diagram") of a
 * run, as FluidSIM draws it after VDI 3260 (function diagrams of working
 * machines): one row per cylinder, its position as a fraction of its
 * stroke, and one row per switching state (a switch actuated, a relay
 * energised, a solenoid on, a lamp lit), drawn as a bar where it is on; the
 * rows stacked on one time axis and labelled with the component ids.
 *
 * One renderer for two front ends: `bramah-cli state-diagram` and the
 * window's state-diagram pane both choose their rows, keep their samples
 * and draw, export and write CSV through this file. Cairo only, no GTK. */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "hyd-circuit.h"

G_BEGIN_DECLS

typedef enum {
  HYD_STATE_ROW_STROKE,  /* a cylinder's position x (m): drawn as x / stroke */
  HYD_STATE_ROW_SWIVEL,  /* a semi-rotary actuator's angle θ (rad): θ / swivel angle */
  HYD_STATE_ROW_SWITCH,  /* a discrete state: a bar where it is not 0 */
} HydStateRowKind;

typedef struct {
  char *component;       /* "C1", "K1" */
  char *variable;        /* the run's variable: "C1.x", "K1.energised" */
  char *label;           /* the row's label: "C1", "K1.energised" */
  HydStateRowKind kind;
  double full;           /* SI: the stroke (m) or swivel angle (rad); 0 for a switch */
  gboolean by_default;   /* shown unless rows are chosen: every actuator, and
                            every discrete state of an electrical-control
                            component but those that repeat another row or
                            keep books (a relay's contacts, a relay
                            contact's state, a timer's `since`, a
                            counter's `seen`) */
} HydStateRow;

/* One variable of a run, as the CLI (hyd_system_get_variable_*) and the
 * window (hyd_runner_get_column_*) know it. */
typedef struct {
  const char *name;         /* "C1.x" */
  const char *discrete_of;  /* the component whose discrete state it is, or NULL */
} HydStateVariable;

#define HYD_STATE_DIAGRAM_ERROR (hyd_state_diagram_error_quark ())
GQuark hyd_state_diagram_error_quark (void);
typedef enum {
  HYD_STATE_DIAGRAM_ERROR_ITEM,    /* an item that is not a row */
  HYD_STATE_DIAGRAM_ERROR_EXPORT,  /* a file that could not be written */
} HydStateDiagramError;

/* Every row a run of `circuit` can show, in the circuit's component order
 * (an actuator's row before its discrete states): a cylinder (a type with
 * a `stroke` parameter and a state `x`), a semi-rotary actuator (a
 * `swivel_angle` and a state `theta`) and every discrete state among
 * `variables`. A GPtrArray of HydStateRow*, freed with the array. */
GPtrArray *hyd_state_diagram_list_rows (const HydCircuit *circuit, const HydStateVariable *variables,
                                        guint n_variables);
/* The rows `items` names, from `rows` (hyd_state_diagram_list_rows), in
 * the order of items: a comma-separated list of component ids (all rows of
 * that component) and row variables ("K1.energised"); NULL or "" gives the
 * rows shown by default. An item that is neither is an error naming it and
 * the rows there are. A row named twice is shown once. A new array of new
 * rows. */
GPtrArray *hyd_state_diagram_choose_rows (const GPtrArray *rows, const char *items, GError **error);
HydStateRow *hyd_state_row_copy (const HydStateRow *row);
void hyd_state_row_free (HydStateRow *row);

typedef struct _HydStateDiagram HydStateDiagram;

/* A diagram of these rows (copied), no samples yet. */
HydStateDiagram *hyd_state_diagram_new (const GPtrArray *rows);
void hyd_state_diagram_free (HydStateDiagram *diagram);
guint hyd_state_diagram_get_n_rows (const HydStateDiagram *diagram);
const HydStateRow *hyd_state_diagram_get_row (const HydStateDiagram *diagram, guint row);
/* A title drawn above the rows (the circuit's), and the SVG's and PDF's
 * title; NULL: none. */
void hyd_state_diagram_set_title (HydStateDiagram *diagram, const char *title);

/* Samples: t (s, not decreasing) and the value of every row's variable
 * (values[n_rows], SI), as the run reports them. */
void hyd_state_diagram_append (HydStateDiagram *diagram, double t, const double *values);
void hyd_state_diagram_clear (HydStateDiagram *diagram);
guint hyd_state_diagram_get_n_samples (const HydStateDiagram *diagram);
/* The time axis: [t0, t1] (the run's span, so a live diagram grows into
 * it); NaN: the span of the samples. */
void hyd_state_diagram_set_time_range (HydStateDiagram *diagram, double t0, double t1);
/* A vertical cursor at t (the window's replay), NaN: none. */
void hyd_state_diagram_set_cursor (HydStateDiagram *diagram, double t);

/* The switching edges of a switch row, as the diagram draws them: the
 * times of the first samples at which its value differs from the sample
 * before (a bar begins or ends there), and the values from then on. The
 * bar of a state that switched between two samples starts at the later
 * one, within one output interval of the switch. Returns the count;
 * times and values (may be NULL) are new arrays. */
guint hyd_state_diagram_get_edges (const HydStateDiagram *diagram, guint row, double **times, double **values);

/* Draw into cr over [0, width] × [0, height] (user units: pixels on
 * screen, points in SVG and PDF) on a white page. */
void hyd_state_diagram_draw (const HydStateDiagram *diagram, cairo_t *cr, double width, double height);
/* The height that gives every row its natural size; and the height at
 * which the rows take row_scale of it (the title, margins and time axis
 * keep theirs). Drawn into another height, the rows share what is left in
 * proportion. */
double hyd_state_diagram_natural_height (const HydStateDiagram *diagram);
double hyd_state_diagram_height_at_scale (const HydStateDiagram *diagram, double row_scale);

/* CSV: a header "t" and, per row, its variable; a stroke or swivel row adds
 * the fraction "C1.x/stroke" ("SR1.theta/swivel_angle"); then one line per
 * sample in SI (m, rad, and the discrete states' own values: 0/1 for a
 * switch), %.10g with '.' whatever the locale. The two functions write one
 * line each (with its newline) so a run can stream them. */
void hyd_state_diagram_csv_header (const HydStateDiagram *diagram, GString *out);
void hyd_state_diagram_csv_line (const HydStateDiagram *diagram, double t, const double *values, GString *out);

/* Write the diagram to path: the format follows the extension (.svg, .pdf,
 * .png; .csv writes the samples). width and height in points (pixels for
 * PNG); height ≤ 0: the natural height. The SVG carries a <title> (the
 * title) and a <desc> naming the rows; the PDF the same as its metadata. */
gboolean hyd_state_diagram_export (const HydStateDiagram *diagram, const char *path, double width, double height,
                                   GError **error);
/* The same, to an explicit format ("svg", "pdf", "png", "csv") whatever the
 * path's extension (bramah-cli writes to a temporary name). */
gboolean hyd_state_diagram_export_format (const HydStateDiagram *diagram, const char *path, const char *format,
                                          double width, double height, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydStateDiagram, hyd_state_diagram_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydStateRow, hyd_state_row_free)

G_END_DECLS
