/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-ui-util.c — symbol previews and small formatting helpers. */
#define G_LOG_DOMAIN "hyd-ui-util"

#include "bramah-config.h"
#include "hyd-ui-util.h"

#include <epoxy/gl.h>
#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>
#include "hyd-symbol.h"
#include "hyd-param-value.h"

void
hyd_ui_symbol_style_for_widget (GtkWidget *widget, HydSymbolStyle *style)
{
  GdkRGBA fg = { 0, 0, 0, 1 };
  if (widget)
    {
      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
      G_GNUC_END_IGNORE_DEPRECATIONS
    }
  /* light text means a dark theme */
  double luma = 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue;
  if (luma > 0.5)
    hyd_symbol_style_init_dark (style);
  else
    hyd_symbol_style_init_light (style);
}

void
hyd_ui_draw_symbol_preview (GtkWidget *widget, cairo_t *cr, const char *type_id, int width, int height,
                            double max_module)
{
  HydSymbolLibrary *library = hyd_symbol_library_get_default (NULL);
  if (library == NULL || type_id == NULL)
    return;
  HydSymbol *symbol = hyd_symbol_library_lookup (library, type_id);
  if (symbol == NULL)
    return;
  HydSymbolStyle style;
  hyd_ui_symbol_style_for_widget (widget, &style);
  style.port_labels = HYD_PORT_LABELS_NONE;
  hyd_symbol_render_preview (cr, symbol, NULL, &style, 1, 1, width - 2, height - 2, max_module);
}

static void
preview_draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  const char *type_id = g_object_get_data (G_OBJECT (area), "hyd-type-id");
  double max_module = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (area), "hyd-max-module"));
  hyd_ui_draw_symbol_preview (GTK_WIDGET (area), cr, type_id, width, height, max_module);
}

GtkWidget *
hyd_ui_symbol_preview_new (const char *type_id, int width, int height, double max_module)
{
  GtkWidget *area = gtk_drawing_area_new ();
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (area), width);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (area), height);
  g_object_set_data_full (G_OBJECT (area), "hyd-type-id", g_strdup (type_id), g_free);
  g_object_set_data (G_OBJECT (area), "hyd-max-module", GUINT_TO_POINTER ((guint) max_module));
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), preview_draw, NULL, NULL);
  gtk_widget_add_css_class (area, "symbol-preview");
  return area;
}

char *
hyd_ui_format_seconds (double seconds)
{
  if (seconds < 10)
    return g_strdup_printf (_("%.3f s"), seconds);
  if (seconds < 100)
    return g_strdup_printf (_("%.2f s"), seconds);
  return g_strdup_printf (_("%.1f s"), seconds);
}

const char *
hyd_ui_locale_dir (void)
{
  return hyd_running_uninstalled () ? BRAMAH_BUILD_LOCALE_DIR : LOCALEDIR;
}

GSettings *
hyd_ui_settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, APP_ID, TRUE) : NULL;
  if (schema == NULL && hyd_running_uninstalled ()
      && g_file_test (BRAMAH_BUILD_SCHEMA_DIR "/gschemas.compiled", G_FILE_TEST_EXISTS))
    {
      /* an uninstalled build: the schema compiled in the build tree */
      g_autoptr (GSettingsSchemaSource) build_source =
        g_settings_schema_source_new_from_directory (BRAMAH_BUILD_SCHEMA_DIR, source, FALSE, NULL);
      if (build_source)
        schema = g_settings_schema_source_lookup (build_source, APP_ID, FALSE);
    }
  if (schema == NULL)
    {
      g_message ("The settings schema %s is not installed: window state will not be kept", APP_ID);
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

gboolean
hyd_ui_gl_renderer_is_software (const char *gl_renderer)
{
  if (gl_renderer == NULL)
    return FALSE;
  g_autofree char *lower = g_ascii_strdown (gl_renderer, -1);
  static const char *const software[] = { "llvmpipe", "softpipe", "swrast", "software rasterizer", "swr " };
  for (guint i = 0; i < G_N_ELEMENTS (software); i++)
    if (strstr (lower, software[i]))
      return TRUE;
  return FALSE;
}

/* The display's GL_RENDERER string, or NULL without OpenGL. */
static char *
read_gl_renderer (GdkDisplay *display)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkGLContext) context = gdk_display_create_gl_context (display, &error);
  if (context == NULL || !gdk_gl_context_realize (context, &error))
    {
      g_debug ("no OpenGL context: %s", error ? error->message : "unknown");
      return NULL;
    }
  gdk_gl_context_make_current (context);
  const char *name = (const char *) glGetString (GL_RENDERER);
  char *copy = g_strdup (name);
  gdk_gl_context_clear_current ();
  return copy;
}

gboolean
hyd_ui_display_gl_is_software (GdkDisplay *display)
{
  g_return_val_if_fail (GDK_IS_DISPLAY (display), FALSE);
  gboolean *known = g_object_get_data (G_OBJECT (display), "hyd-gl-is-software");
  if (known == NULL)
    {
      g_autofree char *name = read_gl_renderer (display);
      known = g_new (gboolean, 1);
      *known = hyd_ui_gl_renderer_is_software (name);
      g_object_set_data_full (G_OBJECT (display), "hyd-gl-is-software", known, g_free);
    }
  return *known;
}

const char *
hyd_ui_choose_renderer (GdkDisplay *display, char **gl_renderer)
{
  if (gl_renderer)
    *gl_renderer = NULL;
  const char *env = g_getenv ("GSK_RENDERER");
  if ((env && *env) || display == NULL)
    return NULL;
  /* GTK falls back to cairo by itself when it has no GL */
  g_autofree char *copy = read_gl_renderer (display);
  if (copy == NULL)
    return NULL;
  if (gl_renderer)
    *gl_renderer = g_strdup (copy);
  if (!hyd_ui_gl_renderer_is_software (copy))
    return NULL;
  g_debug ("software OpenGL (%s): drawing with cairo", copy);
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  return "cairo";
}

/* ---- live sliders ---- */

static char *
param_scale_format_cb (GtkScale *scale, double value, gpointer user_data)
{
  const HydParamInfo *info = user_data;
  g_autofree char *number = hyd_param_value_format (info, value);
  const char *unit = hyd_param_value_unit (info);
  return *unit ? g_strdup_printf ("%s %s", number, unit) : g_steal_pointer (&number);
}

/* A command from −1 to 1 is a three-position valve's (P→B, centre, P→A);
 * from 0 to 1 a two-position valve's. */
static void
add_lever_marks (GtkScale *scale, const HydParamInfo *info)
{
  if (info->min < 0)
    {
      /* translators: positions of a 4/3 valve's lever */
      gtk_scale_add_mark (scale, -1, GTK_POS_BOTTOM, _("P→B"));
      gtk_scale_add_mark (scale, 0, GTK_POS_BOTTOM, _("centre"));
      gtk_scale_add_mark (scale, 1, GTK_POS_BOTTOM, _("P→A"));
    }
  else
    {
      gtk_scale_add_mark (scale, 0, GTK_POS_BOTTOM, _("rest"));
      gtk_scale_add_mark (scale, 1, GTK_POS_BOTTOM, _("actuated"));
    }
}

GtkWidget *
hyd_ui_param_scale_new (const HydComponentType *type, const HydParamInfo *info)
{
  g_return_val_if_fail (type != NULL && info != NULL, NULL);
  GtkWidget *scale = gtk_scale_new (GTK_ORIENTATION_HORIZONTAL, NULL);
  gtk_scale_set_draw_value (GTK_SCALE (scale), TRUE);
  gtk_scale_set_value_pos (GTK_SCALE (scale), GTK_POS_RIGHT);
  /* the catalogue's tables are static: the info outlives the widget */
  gtk_scale_set_format_value_func (GTK_SCALE (scale), param_scale_format_cb, (gpointer) info, NULL);
  gtk_widget_set_hexpand (scale, TRUE);
  if (type->command_param != NULL && g_strcmp0 (info->name, type->command_param) == 0)
    {
      /* the parameter an operated valve's lever or solenoid sets */
      gtk_widget_add_css_class (scale, "lever");
      gtk_range_set_range (GTK_RANGE (scale), info->min, info->max);
      add_lever_marks (GTK_SCALE (scale), info);
    }
  return scale;
}
