/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-help.h — the component help window: every catalogue type with its
 * description and law, its ports and its parameter table (hyd-help-text.h). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define HYD_TYPE_HELP_WINDOW (hyd_help_window_get_type ())
G_DECLARE_FINAL_TYPE (HydHelpWindow, hyd_help_window, HYD, HELP_WINDOW, GtkWindow)

HydHelpWindow *hyd_help_window_new (void);
void hyd_help_window_show_type (HydHelpWindow *self, const char *type_id);
const char *hyd_help_window_get_type_id (HydHelpWindow *self);
/* The application's one help window, created on demand and presented on
 * `type_id` (NULL: the first type, or the one shown before). */
HydHelpWindow *hyd_help_window_present_for (GtkWindow *parent, const char *type_id);

G_END_DECLS
