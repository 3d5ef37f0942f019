/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-sparsity-view.h — the "Jacobian Sparsity" window (docs/analysis.md):
 * the structural non-zeros of the Jacobian at a moment of a run, one square
 * each, coloured by log10 |J_ij| (scaled by the states' absolute
 * tolerances, or as computed), the states named and grouped by component,
 * with the counts (states, non-zeros, density, bandwidth, KLU's L + U).
 * Linked both ways with the schematic: hovering an entry highlights the
 * components of its row and of its column; the components selected on the
 * schematic mark their rows and columns. The circuit is run to t by a worker
 * thread with the default solver, as the "Stiffness" window does
 * (hyd-explain-view.h). */
#pragma once

#include <gtk/gtk.h>
#include "hyd-canvas.h"
#include "hyd-circuit.h"

G_BEGIN_DECLS

#define HYD_TYPE_SPARSITY_VIEW (hyd_sparsity_view_get_type ())
G_DECLARE_FINAL_TYPE (HydSparsityView, hyd_sparsity_view, HYD, SPARSITY_VIEW, GtkWindow)

/* A window over parent for `circuit` (copied) at time t (s, ≥ 0); canvas
 * (may be NULL) gets the highlights (cleared when the window goes) and
 * gives the selection. The computation starts at once. */
HydSparsityView *hyd_sparsity_view_new (GtkWindow *parent, const HydCircuit *circuit, double t, HydCanvas *canvas);

/* TRUE once the Jacobian is there (or the computation failed:
 * hyd_sparsity_view_get_error). Signal "ready" () when it is. */
gboolean hyd_sparsity_view_get_ready (HydSparsityView *self);
const char *hyd_sparsity_view_get_error (HydSparsityView *self);
guint hyd_sparsity_view_get_n_states (HydSparsityView *self);
/* The structural non-zeros drawn. */
guint hyd_sparsity_view_get_n_nonzeros (HydSparsityView *self);
/* The counts line (n, non-zeros, density, bandwidth, KLU's L + U). */
const char *hyd_sparsity_view_get_summary (HydSparsityView *self);
/* The position of state k in the drawing (grouped by component). */
guint hyd_sparsity_view_get_position (HydSparsityView *self, guint state);

/* What hovering does: entry (row, col) (state indices of the engine) is
 * shown and the components of its row and its column are highlighted on the
 * schematic; FALSE (and nothing hovered) when it is not a structural
 * non-zero. row < 0 clears. */
gboolean hyd_sparsity_view_hover_entry (HydSparsityView *self, int row, int col);
/* "∂(dX/dt)/∂Y = value" of the hovered entry, or NULL. */
const char *hyd_sparsity_view_get_hover_text (HydSparsityView *self);
/* TRUE when state k's row and column are marked: a component selected on
 * the schematic makes it (hyd_system_state_components). */
gboolean hyd_sparsity_view_is_marked (HydSparsityView *self, guint state);

/* Size of one entry in pixels (fit: the whole matrix in the window). */
void hyd_sparsity_view_set_cell_size (HydSparsityView *self, double px);
double hyd_sparsity_view_get_cell_size (HydSparsityView *self);
/* The text of the window's help button (hyd_help_sparsity_dup_text). */
const char *hyd_sparsity_view_get_help (HydSparsityView *self);
/* How many times the matrix has been drawn (for tests). */
guint hyd_sparsity_view_get_n_draws (HydSparsityView *self);

G_END_DECLS
