/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-explain-view.h — the "Stiffness" window (docs/analysis.md): the
 * eigenvalues of the Jacobian at a moment of a run in the complex plane and
 * as a list, each with its time constant or frequency and damping and the
 * components that make it; hovering an eigenvalue (in the plane or the
 * list) highlights those components on the schematic. The circuit is run
 * again to t by a worker thread with the default solver, as `bramah-cli
 * explain --at t` does (live changes made during the window's run are not
 * replayed). */
#pragma once

#include <gtk/gtk.h>
#include "hyd-canvas.h"
#include "hyd-circuit.h"

G_BEGIN_DECLS

#define HYD_TYPE_EXPLAIN_VIEW (hyd_explain_view_get_type ())
G_DECLARE_FINAL_TYPE (HydExplainView, hyd_explain_view, HYD, EXPLAIN_VIEW, GtkWindow)

/* A window over parent for `circuit` (copied) at time t (s, ≥ 0); canvas
 * (may be NULL) gets the highlights, and is cleared when the window goes.
 * The computation starts at once. */
HydExplainView *hyd_explain_view_new (GtkWindow *parent, const HydCircuit *circuit, double t, HydCanvas *canvas);

/* TRUE once the eigenvalues are there (or the computation failed:
 * hyd_explain_view_get_error). Signal "ready" () when it is. */
gboolean hyd_explain_view_get_ready (HydExplainView *self);
const char *hyd_explain_view_get_error (HydExplainView *self);
/* The modes shown (a complex pair once), fastest first. */
guint hyd_explain_view_get_n_modes (HydExplainView *self);
/* The summary under the title (stiffness ratio, the explicit step limit). */
const char *hyd_explain_view_get_summary (HydExplainView *self);
/* What hovering does: mode ≥ 0 highlights its components (the list row
 * and the point too), −1 clears. */
void hyd_explain_view_hover_mode (HydExplainView *self, int mode);
/* The components mode makes, largest share first (NULL-terminated; free). */
GStrv hyd_explain_view_dup_mode_components (HydExplainView *self, guint mode);

G_END_DECLS
