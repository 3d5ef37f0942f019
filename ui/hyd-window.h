/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-window.h — the main window: header bar, palette, canvas, property
 * panel, plot panes, simulation bar and status line around one circuit
 * document. */
#pragma once

#include <gtk/gtk.h>
#include "hyd-document.h"
#include "hyd-simulation.h"

G_BEGIN_DECLS

#define HYD_TYPE_WINDOW (hyd_window_get_type ())
G_DECLARE_FINAL_TYPE (HydWindow, hyd_window, HYD, WINDOW, GtkApplicationWindow)

HydWindow *hyd_window_new (GtkApplication *application);
/* Load a circuit into this window; a file that does not load leaves the
 * window as it was and says why in its info bar. */
gboolean hyd_window_open_file (HydWindow *self, GFile *file);
/* A new, empty and unmodified window, which opening a file may reuse. */
gboolean hyd_window_is_pristine (HydWindow *self);
HydDocument *hyd_window_get_document (HydWindow *self);
/* The window's live run (for tests and scripting). */
HydSimulation *hyd_window_get_simulation (HydWindow *self);
/* The Live page: every live slider of the circuit during a run (tests). */
GtkWidget *hyd_window_get_live_panel (HydWindow *self);
/* The component type whose help F1 opens: the selected component's (the
 * first of a selection), else the type being placed, else NULL. Free it. */
char *hyd_window_get_help_topic (HydWindow *self);
/* Offer the autosaved circuits left by a crash (an info bar). */
void hyd_window_offer_recovery (HydWindow *self, GPtrArray *entries);

G_END_DECLS
