/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-application.h — the GtkApplication "org.bramah.Bramah": windows,
 * files given on the command line, app-wide actions (quit, about, help),
 * the style sheet, and the recovery of autosaves after a crash. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define HYD_TYPE_APPLICATION (hyd_application_get_type ())
G_DECLARE_FINAL_TYPE (HydApplication, hyd_application, HYD, APPLICATION, GtkApplication)

HydApplication *hyd_application_new (void);

G_END_DECLS
