/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-examples-dialog.h — the examples gallery: the circuits of
 * data/examples with their titles, summaries and a thumbnail of the
 * schematic. Choosing one emits "example-chosen" with its path. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define HYD_TYPE_EXAMPLES_DIALOG (hyd_examples_dialog_get_type ())
G_DECLARE_FINAL_TYPE (HydExamplesDialog, hyd_examples_dialog, HYD, EXAMPLES_DIALOG, GtkWindow)

HydExamplesDialog *hyd_examples_dialog_new (GtkWindow *parent);
guint hyd_examples_dialog_get_n_examples (HydExamplesDialog *self);

/* Signals:
 *   "example-chosen" (const char *path) */

G_END_DECLS
