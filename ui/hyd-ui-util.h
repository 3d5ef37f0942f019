/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-ui-util.h — small helpers shared by the widgets: symbol previews in
 * the theme's colours, and the translated texts of the catalogue. */
#pragma once

#include <gtk/gtk.h>
#include "hyd-symbol-render.h"
#include "hyd-component.h"

G_BEGIN_DECLS

/* The symbol style that matches a widget's theme (light or dark lines). */
void hyd_ui_symbol_style_for_widget (GtkWidget *widget, HydSymbolStyle *style);
/* Draw the symbol of a component type centred in a width × height box. */
void hyd_ui_draw_symbol_preview (GtkWidget *widget, cairo_t *cr, const char *type_id, int width,
                                 int height, double max_module);
/* A GtkDrawingArea showing the symbol of a type. */
GtkWidget *hyd_ui_symbol_preview_new (const char *type_id, int width, int height, double max_module);

/* A slider for a parameter of a type (a profile parameter, live while a
 * run goes): its value drawn beside it in display units; a valve's command
 * a lever over the command's range, its positions marked. */
GtkWidget *hyd_ui_param_scale_new (const HydComponentType *type, const HydParamInfo *info);

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

/* The GSK renderer for software OpenGL (issue 8): when GSK_RENDERER is not
 * set and the display's OpenGL is a software rasteriser (Mesa's llvmpipe,
 * softpipe or swrast: VMs, remote desktops, Xvfb), GTK's GL renderer
 * repaints the whole window on the CPU every frame, so GSK_RENDERER is set
 * to "cairo", which repaints only what changed. Call after GTK is
 * initialised and before the first window is realised (GSK reads the
 * variable when it creates its first renderer). Returns the renderer chosen
 * ("cairo") or NULL when the choice is left to GTK; `gl_renderer` (may be
 * NULL) receives the GL_RENDERER string when one was read. */
const char *hyd_ui_choose_renderer (GdkDisplay *display, char **gl_renderer);
/* TRUE for the GL_RENDERER string of a software rasteriser. */
gboolean hyd_ui_gl_renderer_is_software (const char *gl_renderer);
/* TRUE when the display's OpenGL is a software rasteriser (read once per
 * display, with a GL context of its own). */
gboolean hyd_ui_display_gl_is_software (GdkDisplay *display);

/* Live updates while a run streams are drawn on one shared beat, so that the
 * canvas, the plots and the status line change in the same frame instead of
 * each asking for its own. */
/* The beat: the canvas and the status line follow the run this often, the
 * plots every second beat (HYD_UI_LIVE_PLOT_US, on the same grid). */
#define HYD_UI_LIVE_FRAME_US (G_USEC_PER_SEC / 12)
#define HYD_UI_LIVE_PLOT_US (2 * HYD_UI_LIVE_FRAME_US)
/* Calls `func` once, at the next multiple of `interval_us` on the monotonic
 * clock exactly (not rounded to a millisecond, so every update of one beat
 * is due at the same instant and dispatched in one main-loop iteration),
 * before GTK's next frame (a priority above GDK_PRIORITY_REDRAW: at a lower
 * one the frame came between the canvas and the plots, two frames a beat,
 * each repainting the whole window under GTK's GL renderer). Returns the
 * source id. */
static inline guint
hyd_ui_live_beat_add (gint64 interval_us, GSourceFunc func, gpointer data)
{
  gint64 now = g_get_monotonic_time ();
  GSource *source = g_timeout_source_new (0);
  g_source_set_ready_time (source, (now / interval_us + 1) * interval_us);
  g_source_set_priority (source, GDK_PRIORITY_REDRAW - 10);
  g_source_set_callback (source, func, data, NULL);
  guint id = g_source_attach (source, NULL);
  g_source_unref (source);
  return id;
}

G_END_DECLS
