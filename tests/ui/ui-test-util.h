/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui-test-util.h — what the GUI tests of the analysis and study windows
 * share (ui-test-util.c). */
#pragma once

#include <gtk/gtk.h>

/* Let the main loop settle for about half a second, then render `widget`
 * as its window draws it and write it to `path` as PNG (the screenshots
 * in docs/images/, taken when BRAMAH_SCREENSHOT is set). */
void hyd_test_save_screenshot (GtkWidget *widget, const char *path);

/* The first toplevel window of `type`, or NULL (a window a menu action
 * opened). */
GtkWindow *hyd_test_find_toplevel (GType type);
/* The first widget of `type` under root, depth first, or NULL (the
 * canvas of a HydWindow). */
GtkWidget *hyd_test_find_descendant (GtkWidget *root, GType type);
