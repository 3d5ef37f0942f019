/* SPDX-License-Identifier: GPL-3.0-or-later */
/* symbols-contact-sheet — every symbol at rest, then every moving part and
 * variant one change at a time, on one PNG for review and for the README:
 *
 *   symbols-contact-sheet OUT.png [--dark] [--module PX] [--only TYPE]...
 *
 * Every cell uses the same scale (M = PX, 16 by default) unless a drawing
 * would not fit its cell. */
#include "symbol-cases.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define COLUMNS 5
#define CELL_W 360.0
#define CELL_H 210.0
#define CAPTION_H 38.0
#define TITLE_H 56.0

static void
draw_caption (cairo_t *cr, const HydSymbolStyle *style, double x, double y, const char *line1,
              const char *line2)
{
  cairo_save (cr);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size (cr, 14);
  cairo_text_extents_t te;
  cairo_text_extents (cr, line1, &te);
  hyd_rgba_set_source (cr, &style->label);
  cairo_move_to (cr, x - te.x_advance / 2, y);
  cairo_show_text (cr, line1);
  if (line2 && *line2)
    {
      cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
      cairo_set_font_size (cr, 12);
      cairo_text_extents (cr, line2, &te);
      cairo_move_to (cr, x - te.x_advance / 2, y + 16);
      cairo_show_text (cr, line2);
    }
  cairo_restore (cr);
}

int
main (int argc, char **argv)
{
  gboolean dark = FALSE;
  double module = 16;
  const char *out = NULL;
  g_autoptr (GPtrArray) only = g_ptr_array_new ();
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--dark") == 0)
        dark = TRUE;
      else if (strcmp (argv[i], "--module") == 0 && i + 1 < argc)
        module = g_ascii_strtod (argv[++i], NULL);
      else if (strcmp (argv[i], "--only") == 0 && i + 1 < argc)
        g_ptr_array_add (only, argv[++i]);
      else
        out = argv[i];
    }
  if (out == NULL || !(module > 0))
    {
      fprintf (stderr, "usage: symbols-contact-sheet OUT.png [--dark] [--module PX] [--only TYPE]...\n");
      return 2;
    }
  HydSymbolStyle style;
  if (dark)
    hyd_symbol_style_init_dark (&style);
  else
    hyd_symbol_style_init_light (&style);

  HydSymbolLibrary *lib = symbol_cases_library ();
  guint n_types;
  g_autofree const char **types = hyd_symbol_library_list (lib, &n_types);

  /* section 1: rest drawings; section 2: one change at a time */
  g_autoptr (GPtrArray) rest = g_ptr_array_new ();
  g_autoptr (GPtrArray) moving = g_ptr_array_new ();
  g_autoptr (GPtrArray) all_cases = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GPtrArray) owners = g_ptr_array_new ();
  g_autoptr (GPtrArray) moving_owner = g_ptr_array_new ();
  for (guint t = 0; t < n_types; t++)
    {
      HydSymbol *sym = hyd_symbol_library_lookup (lib, types[t]);
      gboolean wanted = only->len == 0;
      for (guint k = 0; k < only->len; k++)
        wanted |= strcmp (g_ptr_array_index (only, k), types[t]) == 0;
      if (!wanted)
        continue;
      GPtrArray *cases = symbol_cases (sym);
      g_ptr_array_add (all_cases, cases);
      for (guint i = 0; i < cases->len; i++)
        {
          SymbolCase *c = g_ptr_array_index (cases, i);
          if (!c->single_change)
            continue;
          if (*c->caption == '\0')
            {
              g_ptr_array_add (rest, c);
              g_ptr_array_add (owners, sym);
            }
          else
            {
              g_ptr_array_add (moving, c);
              g_ptr_array_add (moving_owner, sym);
            }
        }
    }
  guint rows1 = (rest->len + COLUMNS - 1) / COLUMNS, rows2 = (moving->len + COLUMNS - 1) / COLUMNS;
  double cell_w = CELL_W * module / 16, cell_h = CELL_H * module / 16;
  int width = (int) (COLUMNS * cell_w), height = (int) (2 * TITLE_H + (rows1 + rows2) * cell_h + 20);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);
  hyd_rgba_set_source (cr, &style.background);
  cairo_paint (cr);

  double y = 0;
  for (guint section = 0; section < 2; section++)
    {
      GPtrArray *list = section == 0 ? rest : moving;
      GPtrArray *own = section == 0 ? owners : moving_owner;
      cairo_save (cr);
      cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
      cairo_set_font_size (cr, 22);
      hyd_rgba_set_source (cr, &style.text);
      cairo_move_to (cr, 20, y + 36);
      g_autofree char *title = section == 0
                                 ? g_strdup_printf ("Bramah ISO 1219 symbols — rest drawings (M = %g px)", module)
                                 : g_strdup ("Moving parts and variants, one change at a time");
      cairo_show_text (cr, title);
      cairo_restore (cr);
      y += TITLE_H;
      for (guint i = 0; i < list->len; i++)
        {
          SymbolCase *c = g_ptr_array_index (list, i);
          HydSymbol *sym = g_ptr_array_index (own, i);
          double cx = (i % COLUMNS) * cell_w, cy = y + (i / COLUMNS) * cell_h;
          hyd_symbol_render_preview (cr, sym, c->state, &style, cx + 12, cy + 8, cell_w - 24,
                                     cell_h - CAPTION_H - 16, module);
          draw_caption (cr, &style, cx + cell_w / 2, cy + cell_h - CAPTION_H + 8, hyd_symbol_get_type_id (sym),
                        c->caption);
        }
      y += (section == 0 ? rows1 : rows2) * cell_h;
    }
  cairo_destroy (cr);
  cairo_status_t st = cairo_surface_write_to_png (surface, out);
  cairo_surface_destroy (surface);
  if (st != CAIRO_STATUS_SUCCESS)
    {
      fprintf (stderr, "symbols-contact-sheet: %s: %s\n", out, cairo_status_to_string (st));
      return 1;
    }
  return 0;
}
