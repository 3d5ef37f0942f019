/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-symbol-golden.c — every symbol in each of its states, light and dark,
 * rendered to PNG and compared with tests/symbols/golden/ within a
 * tolerance: a pixel counts as different when a channel differs by more than
 * PIXEL_THRESHOLD, and an image fails when more than MAX_DIFF_FRACTION of
 * its pixels differ, so antialiasing noise passes and a moved line does not.
 *
 * BRAMAH_UPDATE_GOLDEN=1 writes the images instead of comparing them
 * (README.md). A failing case leaves NAME-actual.png and NAME-diff.png in
 * the test's working directory. */
#include "symbol-cases.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#define MODULE_PX 20.0
#define PIXEL_THRESHOLD 48
#define MAX_DIFF_FRACTION 0.004

typedef struct {
  const HydSymbol *symbol;
  const SymbolCase *c;
  gboolean dark;
  char *file;
} Golden;

static void
golden_free (gpointer data)
{
  Golden *g = data;
  g_free (g->file);
  g_free (g);
}

static gboolean
update_golden (void)
{
  const char *u = g_getenv ("BRAMAH_UPDATE_GOLDEN");
  return u && *u && strcmp (u, "0") != 0;
}

/* Count differing pixels; write a diff image (red where different). */
static guint
compare (cairo_surface_t *a, cairo_surface_t *b, cairo_surface_t **diff)
{
  int w = cairo_image_surface_get_width (a), h = cairo_image_surface_get_height (a);
  cairo_surface_flush (a);
  cairo_surface_flush (b);
  *diff = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_surface_flush (*diff);
  const unsigned char *pa = cairo_image_surface_get_data (a), *pb = cairo_image_surface_get_data (b);
  unsigned char *pd = cairo_image_surface_get_data (*diff);
  int sa = cairo_image_surface_get_stride (a), sb = cairo_image_surface_get_stride (b);
  int sd = cairo_image_surface_get_stride (*diff);
  guint n = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const guint32 va = *(const guint32 *) (pa + y * sa + 4 * x), vb = *(const guint32 *) (pb + y * sb + 4 * x);
        int worst = 0;
        for (int k = 0; k < 32; k += 8)
          worst = MAX (worst, abs ((int) ((va >> k) & 0xff) - (int) ((vb >> k) & 0xff)));
        guint32 *d = (guint32 *) (pd + y * sd + 4 * x);
        if (worst > PIXEL_THRESHOLD)
          {
            n++;
            *d = 0xffff0000;
          }
        else
          *d = 0xff000000 | ((va & 0xfefefe) >> 1 | 0x808080);
      }
  cairo_surface_mark_dirty (*diff);
  return n;
}

static void
test_golden (gconstpointer data)
{
  const Golden *g = data;
  HydSymbolStyle style;
  if (g->dark)
    hyd_symbol_style_init_dark (&style);
  else
    hyd_symbol_style_init_light (&style);
  cairo_surface_t *actual = symbol_case_render (g->symbol, g->c, &style, MODULE_PX);
  g_assert_cmpint (cairo_surface_status (actual), ==, CAIRO_STATUS_SUCCESS);
  g_autofree char *path = g_build_filename (HYD_GOLDEN_DIR, g->file, NULL);

  if (update_golden ())
    {
      g_assert_cmpint (cairo_surface_write_to_png (actual, path), ==, CAIRO_STATUS_SUCCESS);
      cairo_surface_destroy (actual);
      return;
    }
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      cairo_surface_write_to_png (actual, g->file);
      cairo_surface_destroy (actual);
      g_test_message ("%s is missing; run the test with BRAMAH_UPDATE_GOLDEN=1 to create it", path);
      g_test_fail ();
      return;
    }
  cairo_surface_t *golden = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (golden), ==, CAIRO_STATUS_SUCCESS);
  int w = cairo_image_surface_get_width (actual), h = cairo_image_surface_get_height (actual);
  gboolean ok;
  if (w != cairo_image_surface_get_width (golden) || h != cairo_image_surface_get_height (golden))
    {
      g_test_message ("%s: size %d×%d, golden %d×%d", g->file, w, h, cairo_image_surface_get_width (golden),
                      cairo_image_surface_get_height (golden));
      ok = FALSE;
    }
  else
    {
      cairo_surface_t *diff = NULL;
      guint n = compare (actual, golden, &diff);
      guint limit = (guint) (MAX_DIFF_FRACTION * w * h) + 4;
      ok = n <= limit;
      if (!ok)
        {
          g_autofree char *dname = g_strconcat (g->file, "-diff.png", NULL);
          cairo_surface_write_to_png (diff, dname);
          g_test_message ("%s: %u pixels differ (limit %u); see %s", g->file, n, limit, dname);
        }
      cairo_surface_destroy (diff);
    }
  if (!ok)
    {
      g_autofree char *aname = g_strconcat (g->file, "-actual.png", NULL);
      cairo_surface_write_to_png (actual, aname);
      g_test_fail ();
    }
  cairo_surface_destroy (golden);
  cairo_surface_destroy (actual);
}

/* Both states on one page of the rest drawing's size, so they can be compared. */
static cairo_surface_t *
render_on_rest_page (const HydSymbol *sym, const HydSymbolState *state, const HydSymbolStyle *style)
{
  HydSymbolPose pose = { 0, 0, 0, FALSE };
  HydRect b;
  hyd_symbol_get_bounds (sym, &b);
  double k = MODULE_PX / HYD_SYMBOL_MODULE, margin = 4 * HYD_SYMBOL_MODULE;
  int w = (int) ((b.x1 - b.x0) * HYD_SYMBOL_MODULE * k + 2 * margin * k);
  int h = (int) ((b.y1 - b.y0) * HYD_SYMBOL_MODULE * k + 2 * margin * k);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  hyd_rgba_set_source (cr, &style->background);
  cairo_paint (cr);
  cairo_scale (cr, k, k);
  cairo_translate (cr, margin - b.x0 * HYD_SYMBOL_MODULE, margin - b.y0 * HYD_SYMBOL_MODULE);
  hyd_symbol_render (cr, sym, &pose, state, style, 0);
  cairo_destroy (cr);
  return s;
}

/* The tolerance is not so loose that a moved part passes: the 4/3 valve
 * with its spool a quarter of the way over must differ from its rest
 * drawing, and so must an open relief valve. */
static void
test_tolerance_catches_motion (void)
{
  const struct {
    const char *type, *var;
    double value;
  } moves[] = { { "dcv_4_3", "spool", 0.25 }, { "relief_valve", "opening", 1.0 }, { "check_valve", "opening", 1.0 } };
  HydSymbolStyle style;
  hyd_symbol_style_init_light (&style);
  for (guint i = 0; i < G_N_ELEMENTS (moves); i++)
    {
      HydSymbol *sym = hyd_symbol_library_lookup (symbol_cases_library (), moves[i].type);
      g_autoptr (HydSymbolState) rest = hyd_symbol_state_new ();
      g_autoptr (HydSymbolState) moved = hyd_symbol_state_new ();
      hyd_symbol_state_set (moved, moves[i].var, moves[i].value);
      cairo_surface_t *a = render_on_rest_page (sym, rest, &style);
      cairo_surface_t *b = render_on_rest_page (sym, moved, &style);
      cairo_surface_t *diff = NULL;
      guint n = compare (a, b, &diff);
      int w = cairo_image_surface_get_width (a), h = cairo_image_surface_get_height (a);
      if (n <= (guint) (MAX_DIFF_FRACTION * w * h) + 4)
        g_error ("%s with %s = %g passes as its rest drawing (%u pixels differ)", moves[i].type, moves[i].var,
                 moves[i].value, n);
      cairo_surface_destroy (a);
      cairo_surface_destroy (b);
      cairo_surface_destroy (diff);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (update_golden ())
    g_mkdir_with_parents (HYD_GOLDEN_DIR, 0755);
  HydSymbolLibrary *lib = symbol_cases_library ();
  guint n;
  g_autofree const char **types = hyd_symbol_library_list (lib, &n);
  g_autoptr (GPtrArray) keep = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint t = 0; t < n; t++)
    {
      HydSymbol *sym = hyd_symbol_library_lookup (lib, types[t]);
      GPtrArray *cases = symbol_cases (sym);
      g_ptr_array_add (keep, cases);
      for (guint i = 0; i < cases->len; i++)
        for (int dark = 0; dark < 2; dark++)
          {
            SymbolCase *c = g_ptr_array_index (cases, i);
            Golden *g = g_new0 (Golden, 1);
            g->symbol = sym;
            g->c = c;
            g->dark = dark;
            g->file = g_strdup_printf ("%s--%s.png", c->name, dark ? "dark" : "light");
            g_autofree char *test_path = g_strdup_printf ("/symbols/golden/%s/%s", c->name, dark ? "dark" : "light");
            g_test_add_data_func_full (test_path, g, test_golden, golden_free);
          }
    }
  g_test_add_func ("/symbols/golden-tolerance/catches-motion", test_tolerance_catches_motion);
  return g_test_run ();
}
