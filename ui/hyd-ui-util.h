/* hyd-ui-util.h — small helpers shared by the widgets: symbol previews in
 * the theme's colours, and the translated texts of the catalogue. */
#pragma once

#include <gtk/gtk.h>
#include "hyd-symbol-render.h"

G_BEGIN_DECLS

/* The symbol style that matches a widget's theme (light or dark lines). */
void hyd_ui_symbol_style_for_widget (GtkWidget *widget, HydSymbolStyle *style);
/* Draw the symbol of a component type centred in a width × height box. */
void hyd_ui_draw_symbol_preview (GtkWidget *widget, cairo_t *cr, const char *type_id, int width,
                                 int height, double max_module);
/* A GtkDrawingArea showing the symbol of a type. */
GtkWidget *hyd_ui_symbol_preview_new (const char *type_id, int width, int height, double max_module);

/* The application's settings (org.bramah.Bramah), or NULL when the schema
 * is neither installed nor in the build tree: the window then starts with
 * its defaults and remembers nothing, rather than failing. */
GSettings *hyd_ui_settings_new (void);
/* Where the translations are read: the installed locale directory, or the
 * catalogues meson compiled in the build tree when running uninstalled
 * (hyd_running_uninstalled). */
const char *hyd_ui_locale_dir (void);

/* "1.234 s", with fewer decimals as the time grows. */
char *hyd_ui_format_seconds (double seconds);

G_END_DECLS
