/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-schematic.c — whole circuits: export to SVG, PDF and PNG gives
 * non-empty valid files; junction dots; pressure colours; bad paths. */
#include "hyd-schematic.h"
#include "hyd-catalogue.h"
#include "symbol-cases.h"
#include "../ui/elec-test-types.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static HydCircuit *
load_example (const char *name)
{
  g_autofree char *path = g_build_filename (HYD_EXAMPLES_DIR, name, NULL);
  GError *error = NULL;
  HydCircuit *c = hyd_circuit_load_from_file (path, &error);
  g_assert_no_error (error);
  return c;
}

static void
options_for_tests (HydSchematicOptions *opts)
{
  hyd_schematic_options_init (opts);
  opts->library = symbol_cases_library ();
}

/* Well-formed XML whose root element is <svg>. */
static void
svg_start (GMarkupParseContext *ctx, const char *element, const char **names, const char **values,
           gpointer user_data, GError **error)
{
  int *depth_and_root = user_data;
  if (depth_and_root[0]++ == 0)
    depth_and_root[1] = strcmp (element, "svg") == 0;
}

static void
svg_end (GMarkupParseContext *ctx, const char *element, gpointer user_data, GError **error)
{
  ((int *) user_data)[0]--;
}

static void
check_svg (const char *path)
{
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_cmpuint (len, >, 1000);
  GMarkupParser parser = { svg_start, svg_end, NULL, NULL, NULL };
  int state[2] = { 0, 0 };
  GMarkupParseContext *ctx = g_markup_parse_context_new (&parser, 0, state, NULL);
  GError *error = NULL;
  g_assert_true (g_markup_parse_context_parse (ctx, data, len, &error));
  g_assert_true (g_markup_parse_context_end_parse (ctx, &error));
  g_assert_no_error (error);
  g_markup_parse_context_free (ctx);
  g_assert_cmpint (state[0], ==, 0);
  g_assert_true (state[1]);
  g_assert_nonnull (strstr (data, "<path"));
}

static void
check_pdf (const char *path)
{
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_cmpuint (len, >, 1000);
  g_assert_true (g_str_has_prefix (data, "%PDF-"));
  /* the trailer ends the file */
  g_assert_nonnull (g_strrstr_len (data + len - 64, 64, "%%EOF"));
}

/* A PNG of the expected size with ink on it; returns the surface. */
static cairo_surface_t *
check_png (const char *path)
{
  cairo_surface_t *s = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  g_assert_cmpint (w, >, 100);
  g_assert_cmpint (h, >, 100);
  cairo_surface_flush (s);
  const unsigned char *p = cairo_image_surface_get_data (s);
  int stride = cairo_image_surface_get_stride (s);
  guint dark = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        guint32 v = *(const guint32 *) (p + y * stride + 4 * x);
        if (((v >> 16) & 0xff) < 80 && ((v >> 8) & 0xff) < 80 && (v & 0xff) < 80)
          dark++;
      }
  g_assert_cmpuint (dark, >, 500);
  return s;
}

static void
test_export_formats (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bramah-export-XXXXXX", NULL);
  const char *examples[] = { "cylinder-extend-retract.bramah", "hasp-problem5.bramah" };
  for (guint e = 0; e < G_N_ELEMENTS (examples); e++)
    {
      g_autoptr (HydCircuit) c = load_example (examples[e]);
      HydSchematicOptions opts;
      options_for_tests (&opts);
      const char *ext[] = { "svg", "pdf", "png" };
      for (guint k = 0; k < 3; k++)
        {
          g_autofree char *path = g_strdup_printf ("%s/out-%u.%s", dir, e, ext[k]);
          GError *error = NULL;
          g_assert_true (hyd_schematic_export (c, path, k == 2 ? 2.0 : 1.0, &opts, &error));
          g_assert_no_error (error);
          if (k == 0)
            check_svg (path);
          else if (k == 1)
            check_pdf (path);
          else
            {
              cairo_surface_t *s = check_png (path);
              /* the page is the drawing plus its margin, at the scale asked for */
              HydRect b;
              hyd_schematic_get_bounds (c, &opts, &b);
              g_assert_cmpint (cairo_image_surface_get_width (s), ==, (int) ceil ((b.x1 - b.x0 + 40) * 2));
              cairo_surface_destroy (s);
            }
          g_unlink (path);
        }
    }
  g_rmdir (dir);
}

/* Every example renders, and its schematic's bounds hold every symbol. */
static void
test_all_examples_render (void)
{
  g_autoptr (GDir) d = g_dir_open (HYD_EXAMPLES_DIR, 0, NULL);
  const char *name;
  guint n = 0;
  g_autofree char *dir = g_dir_make_tmp ("bramah-export-XXXXXX", NULL);
  while ((name = g_dir_read_name (d)))
    {
      if (!g_str_has_suffix (name, ".bramah"))
        continue;
      g_autoptr (HydCircuit) c = load_example (name);
      HydSchematicOptions opts;
      options_for_tests (&opts);
      g_autofree char *path = g_build_filename (dir, "x.png", NULL);
      GError *error = NULL;
      g_assert_true (hyd_schematic_export (c, path, 1.0, &opts, &error));
      g_assert_no_error (error);
      cairo_surface_destroy (check_png (path));
      g_unlink (path);
      n++;
    }
  g_rmdir (dir);
  g_assert_cmpuint (n, >=, 12);
}

static void
test_export_errors (void)
{
  g_autoptr (HydCircuit) c = load_example ("hasp-problem5.bramah");
  HydSchematicOptions opts;
  options_for_tests (&opts);
  GError *error = NULL;
  g_assert_false (hyd_schematic_export (c, "/tmp/x.bmp", 1.0, &opts, &error));
  g_assert_error (error, HYD_SYMBOL_ERROR, HYD_SYMBOL_ERROR_EXPORT);
  g_clear_error (&error);
  g_assert_false (hyd_schematic_export (c, "/nonexistent-dir/x.svg", 1.0, &opts, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (hyd_schematic_export (c, "/nonexistent-dir/x.png", 1.0, &opts, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (hyd_schematic_export (c, "/tmp/x.png", 0.0, &opts, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
}

static guint32
pixel_at (cairo_surface_t *s, int x, int y)
{
  cairo_surface_flush (s);
  return *(const guint32 *) (cairo_image_surface_get_data (s) + y * cairo_image_surface_get_stride (s) + 4 * x);
}

static double
constant_pressure (const char *comp, const char *port, gpointer user_data)
{
  return *(const double *) user_data;
}

/* Render the schematic at 1 px per unit with the canvas at the origin. */
static cairo_surface_t *
render_plain (const HydCircuit *c, HydSchematicOptions *opts)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 700, 700);
  cairo_t *cr = cairo_create (s);
  opts->flags |= HYD_SCHEMATIC_BACKGROUND;
  hyd_schematic_render (cr, c, opts);
  cairo_destroy (cr);
  return s;
}

static void
test_junction_dots_and_pressure (void)
{
  g_autoptr (HydCircuit) c = load_example ("cylinder-extend-retract.bramah");
  HydSchematicOptions opts;
  options_for_tests (&opts);
  opts.flags = 0;
  cairo_surface_t *s = render_plain (c, &opts);
  /* J1 at (350, 380) joins three wires: a dot covers the pixels beside the line */
  guint32 v = pixel_at (s, 352, 382);
  g_assert_cmpuint ((v >> 8) & 0xff, <, 100);
  /* a plain bend with two wire ends (PU1.P → J1 turns at (250, 380)) has no dot */
  v = pixel_at (s, 252, 382);
  g_assert_cmpuint ((v >> 8) & 0xff, >, 200);
  cairo_surface_destroy (s);

  /* with node pressures the wires take the ramp's colour: high pressure is red */
  double p = 2e7;
  opts.flags = HYD_SCHEMATIC_PRESSURE_COLOURS;
  opts.port_pressure = constant_pressure;
  opts.user_data = &p;
  s = render_plain (c, &opts);
  v = pixel_at (s, 300, 380); /* on the wire from J1 toward the pump */
  int r = (v >> 16) & 0xff, g = (v >> 8) & 0xff, b = v & 0xff;
  g_assert_cmpint (r, >, 140);
  g_assert_cmpint (g, <, 80);
  g_assert_cmpint (b, <, 90);
  cairo_surface_destroy (s);

  /* and low pressure blue */
  p = 0;
  s = render_plain (c, &opts);
  v = pixel_at (s, 300, 380);
  r = (v >> 16) & 0xff, b = v & 0xff;
  g_assert_cmpint (b, >, 120);
  g_assert_cmpint (r, <, 80);
  cairo_surface_destroy (s);
}

static void
set_spool (const HydCircuitComponent *comp, HydSymbolState *state, gpointer user_data)
{
  if (strcmp (comp->type, "dcv_4_3") == 0)
    hyd_symbol_state_set (state, "spool", 1.0);
}

/* The animation callback moves parts: the valve block shifts 4 M right. */
static void
test_component_state_callback (void)
{
  g_autoptr (HydCircuit) c = load_example ("cylinder-extend-retract.bramah");
  HydSchematicOptions opts;
  options_for_tests (&opts);
  opts.flags = 0;
  cairo_surface_t *rest = render_plain (c, &opts);
  opts.component_state = set_spool;
  cairo_surface_t *moved = render_plain (c, &opts);
  /* DCV1 at (300, 250): its left end face is at x = 300 at rest, x = 340 shifted */
  guint32 a = pixel_at (rest, 300, 270), b = pixel_at (moved, 300, 270);
  g_assert_cmpuint ((a >> 8) & 0xff, <, 100);
  g_assert_cmpuint ((b >> 8) & 0xff, >, 200);
  cairo_surface_destroy (rest);
  cairo_surface_destroy (moved);
}

static void
test_pressure_colour_ramp (void)
{
  HydSymbolStyle st;
  hyd_symbol_style_init_light (&st);
  HydRgba lo, hi, mid, above, cav, unknown;
  hyd_symbol_style_pressure_colour (&st, 0, &lo);
  hyd_symbol_style_pressure_colour (&st, 2e7, &hi);
  hyd_symbol_style_pressure_colour (&st, 1e7, &mid);
  hyd_symbol_style_pressure_colour (&st, 5e7, &above);
  hyd_symbol_style_pressure_colour (&st, -0.95e5, &cav);
  hyd_symbol_style_pressure_colour (&st, NAN, &unknown);
  g_assert_cmpfloat (fabs (lo.r - st.pressure_low.r) + fabs (lo.b - st.pressure_low.b), <, 1e-3);
  g_assert_cmpfloat (fabs (hi.r - st.pressure_high.r) + fabs (hi.g - st.pressure_high.g), <, 1e-3);
  g_assert_cmpfloat (fabs (above.r - hi.r), <, 1e-9); /* clamped */
  g_assert_cmpfloat (mid.r, >, lo.r);
  g_assert_cmpfloat (mid.r, <, hi.r);
  g_assert_cmpfloat (mid.b, <, lo.b);
  g_assert_cmpfloat (cav.r, ==, st.cavitation.r);
  g_assert_cmpfloat (unknown.r, ==, st.line.r);
}

/* A block with one signal input, for this test only (the catalogue of this
 * build may have none). */
static const HydPortInfo sink_ports[] = { { "U", HYD_DOMAIN_SIGNAL, FALSE, "in", HYD_PORT_INPUT } };
static const HydComponentType sink_type = {
  .id = "test_signal_sink", .label = "signal sink", .ports = sink_ports, .n_ports = 1, .boundary_param = -1,
};

static const char sink_symbol[] =
  "{ \"format\": \"bramah-symbol\", \"version\": 1, \"type\": \"test_signal_sink\","
  "  \"ports\": [ { \"name\": \"U\", \"at\": [-1, 1], \"dir\": \"left\", \"signal\": true } ],"
  "  \"elements\": [ { \"type\": \"rect\", \"at\": [0, 0], \"size\": [4, 2] } ] }";

static HydSymbolLibrary *
library_with_sink (void)
{
  static HydSymbolLibrary *lib = NULL;
  if (lib)
    return lib;
  g_assert_true (hyd_catalogue_register_test_type (&sink_type));
  g_autofree char *dir = g_dir_make_tmp ("bramah-sink-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "test_signal_sink.sym", NULL);
  g_assert_true (g_file_set_contents (path, sink_symbol, -1, NULL));
  lib = hyd_symbol_library_new ();
  GError *error = NULL;
  g_assert_true (hyd_symbol_library_add_directory (lib, HYD_SYMBOLS_DATA_DIR, &error));
  g_assert_true (hyd_symbol_library_add_directory (lib, dir, &error));
  g_assert_no_error (error);
  g_unlink (path);
  g_rmdir (dir);
  return lib;
}

/* Render at `scale` px per unit on a 320 × 320-unit page. */
static cairo_surface_t *
render_scaled (const HydCircuit *c, HydSchematicOptions *opts, double scale)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) (320 * scale), (int) (320 * scale));
  cairo_t *cr = cairo_create (s);
  cairo_scale (cr, scale, scale);
  opts->flags |= HYD_SCHEMATIC_BACKGROUND;
  hyd_schematic_render (cr, c, opts);
  cairo_destroy (cr);
  return s;
}

static gboolean
is_dark (guint32 v)
{
  return ((v >> 16) & 0xff) < 100 && ((v >> 8) & 0xff) < 100 && (v & 0xff) < 100;
}

static gboolean
is_light (guint32 v)
{
  return ((v >> 16) & 0xff) > 200 && ((v >> 8) & 0xff) > 200 && (v & 0xff) > 200;
}

/* Lines by domain (design §1.3): a mechanical link is a double line (two
 * lines 0.8 M apart, nothing between them); a signal line ends in an
 * arrowhead where it enters an input, and has none at its output. */
static void
test_wire_styles_by_domain (void)
{
  HydSymbolLibrary *lib = library_with_sink ();
  GError *error = NULL;
  g_autoptr (HydCircuit) c = hyd_circuit_load_from_data (
      "{\"format\": \"bramah-circuit\", \"version\": 2, \"components\": ["
      "{\"id\": \"X1\", \"type\": \"fixed_point\", \"position\": [100, 200]},"
      "{\"id\": \"K1\", \"type\": \"spring\", \"position\": [150, 100]},"
      "{\"id\": \"M1\", \"type\": \"mass\", \"position\": [250, 100]},"
      "{\"id\": \"G1\", \"type\": \"pressure_gauge\", \"position\": [100, 270]},"
      "{\"id\": \"Y1\", \"type\": \"test_signal_sink\", \"position\": [200, 260]}],"
      "\"connections\": [{\"from\": \"K1.B\", \"to\": \"M1.A\"}, {\"from\": \"X1.A\", \"to\": \"K1.A\"},"
      "{\"from\": \"G1.S\", \"to\": \"Y1.U\"}]}",
      -1, "wires.bramah", &error);
  g_assert_no_error (error);
  HydSchematicOptions opts;
  options_for_tests (&opts);
  opts.library = lib;
  opts.flags = 0;

  /* K1.B (200, 110) → M1.A (240, 110), at 1 px per unit: the two lines
   * 4 px above and below the axis, the fill between them */
  cairo_surface_t *s = render_scaled (c, &opts, 1.0);
  if (g_getenv ("BRAMAH_TEST_DUMP"))
    {
      cairo_surface_t *big = render_scaled (c, &opts, 3.0);
      cairo_surface_write_to_png (big, g_getenv ("BRAMAH_TEST_DUMP"));
      cairo_surface_destroy (big);
    }
  for (int x = 210; x <= 230; x += 10)
    {
      g_assert_true (is_light (pixel_at (s, x, 110)));
      g_assert_true (is_dark (pixel_at (s, x, 106)) || is_dark (pixel_at (s, x, 105)));
      g_assert_true (is_dark (pixel_at (s, x, 114)) || is_dark (pixel_at (s, x, 115)));
      g_assert_true (is_light (pixel_at (s, x, 102)));
      g_assert_true (is_light (pixel_at (s, x, 118)));
    }
  cairo_surface_destroy (s);

  /* G1.S (130, 270) → Y1.U (190, 270), at 4 px per unit: an arrowhead on
   * Y1's lead (base at the port, tip at the block), in the signal colour
   * beside the axis; nothing beside the axis at G1's end */
  HydSymbolStyle light;
  hyd_symbol_style_init_light (&light);
  s = render_scaled (c, &opts, 4.0);
  guint32 in_arrow = pixel_at (s, 4 * 193, (int) (4 * 271.3));
  g_assert_cmpint (in_arrow & 0xff, >, 150);
  g_assert_cmpint ((in_arrow >> 16) & 0xff, <, 80);
  g_assert_true (is_light (pixel_at (s, 4 * 133, (int) (4 * 271.3))));
  /* the arrow is no wider than its base: 0.25 M off the axis is clear */
  g_assert_true (is_light (pixel_at (s, 4 * 191, (int) (4 * 273.5))));
  cairo_surface_destroy (s);
}


/* Electrical wires (docs/electrical.md): a thin solid line, half a
 * working line, in the line colour; on a net that carries current (the
 * port_level callback's bit 2) the wire and the port leads on it in the
 * style's current colour, as FluidSIM draws a current path red. */
static const char *const elec_symbols[][2] = {
  { "test_elec_supply", "{ \"format\": \"bramah-symbol\", \"version\": 1, \"type\": \"test_elec_supply\","
                        "  \"ports\": [ { \"name\": \"P\", \"at\": [0, 1], \"dir\": \"down\" } ],"
                        "  \"elements\": [ { \"type\": \"line\", \"from\": [-1, 0], \"to\": [1, 0] } ] }" },
  { "test_elec_coil", "{ \"format\": \"bramah-symbol\", \"version\": 1, \"type\": \"test_elec_coil\","
                      "  \"ports\": [ { \"name\": \"A1\", \"at\": [0, -1], \"dir\": \"up\" },"
                      "               { \"name\": \"A2\", \"at\": [0, 3], \"dir\": \"down\" } ],"
                      "  \"elements\": [ { \"type\": \"rect\", \"at\": [-1, 0], \"size\": [2, 2] } ] }" },
  { "test_elec_ground", "{ \"format\": \"bramah-symbol\", \"version\": 1, \"type\": \"test_elec_ground\","
                        "  \"ports\": [ { \"name\": \"N\", \"at\": [0, -1], \"dir\": \"up\" } ],"
                        "  \"elements\": [ { \"type\": \"line\", \"from\": [-1, 0], \"to\": [1, 0] } ] }" },
};

static gboolean
elec_level_cb (const char *component_id, const char *port, guint *level, gpointer user_data)
{
  /* the supply's net carries current; the ground's does not */
  gboolean hot = strcmp (component_id, "U1") == 0 || (strcmp (component_id, "K1") == 0 && strcmp (port, "A1") == 0);
  *level = hot ? 1 | 4 : 2;
  return TRUE;
}

static gboolean
is_current_red (guint32 v)
{
  return ((v >> 16) & 0xff) > 180 && ((v >> 8) & 0xff) < 90 && (v & 0xff) < 90;
}

static void
test_electrical_wires (void)
{
  elec_test_types_register ();
  g_autofree char *dir = g_dir_make_tmp ("bramah-elec-XXXXXX", NULL);
  g_autoptr (HydSymbolLibrary) lib = hyd_symbol_library_new ();
  GError *error = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (elec_symbols); i++)
    {
      g_autofree char *name = g_strconcat (elec_symbols[i][0], ".sym", NULL);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_assert_true (g_file_set_contents (path, elec_symbols[i][1], -1, NULL));
    }
  g_assert_true (hyd_symbol_library_add_directory (lib, dir, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (elec_symbols); i++)
    {
      g_autofree char *name = g_strconcat (elec_symbols[i][0], ".sym", NULL);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
  g_autoptr (HydCircuit) c = hyd_circuit_load_from_data (
      "{\"format\": \"bramah-circuit\", \"version\": 3, \"components\": ["
      "{\"id\": \"U1\", \"type\": \"test_elec_supply\", \"position\": [100, 100]},"
      "{\"id\": \"K1\", \"type\": \"test_elec_coil\", \"position\": [100, 150]},"
      "{\"id\": \"G1\", \"type\": \"test_elec_ground\", \"position\": [100, 220]}],"
      "\"connections\": [{\"from\": \"U1.P\", \"to\": \"K1.A1\"}, {\"from\": \"K1.A2\", \"to\": \"G1.N\"}]}",
      -1, "elec.bramah", &error);
  g_assert_no_error (error);
  g_assert_cmpint (hyd_schematic_wire_style (HYD_DOMAIN_ELECTRICAL), ==, HYD_WIRE_ELECTRICAL);
  HydSchematicOptions opts;
  options_for_tests (&opts);
  opts.library = lib;
  opts.flags = 0;

  /* at rest: dark and thin; at 4 px per unit the working line is 6 px
   * wide, the electrical wire 3 px about x = 400 */
  cairo_surface_t *s = render_scaled (c, &opts, 4.0);
  g_assert_true (is_dark (pixel_at (s, 400, 4 * 125)));
  g_assert_true (is_light (pixel_at (s, 402, 4 * 125)));
  g_assert_true (is_light (pixel_at (s, 397, 4 * 125)));
  g_assert_true (is_dark (pixel_at (s, 400, 4 * 195)));
  cairo_surface_destroy (s);

  /* live: U1.P → K1.A1 carries current, K1.A2 → G1.N does not */
  opts.port_level = elec_level_cb;
  s = render_scaled (c, &opts, 4.0);
  if (g_getenv ("BRAMAH_TEST_DUMP"))
    cairo_surface_write_to_png (s, g_getenv ("BRAMAH_TEST_DUMP"));
  g_assert_true (is_current_red (pixel_at (s, 400, 4 * 125)));
  g_assert_true (is_current_red (pixel_at (s, 400, 4 * 145))); /* K1's lead at A1 */
  g_assert_true (is_dark (pixel_at (s, 400, 4 * 195)));
  cairo_surface_destroy (s);
}


/* A limit switch that names a cylinder (a reference reading its x) shows a
 * tick with its id on the cylinder's drawing where the rod's end is at the
 * switch's position: further along the stroke for a larger position; no
 * tick without a cylinder named. Its label names the cylinder ("→ C1"). */
static cairo_surface_t *
render_with_switch (const char *cylinder, double position)
{
  g_autoptr (HydCircuit) c = load_example ("cylinder-extend-retract.bramah");
  HydCircuitComponent *sw = hyd_circuit_component_new ("S2", "test_elec_limit");
  sw->x = 600;
  sw->y = 100;
  if (cylinder)
    json_object_set_string_member (sw->params, "cylinder", cylinder);
  json_object_set_double_member (sw->params, "position", position);
  g_ptr_array_add (c->components, sw);
  HydSchematicOptions opts;
  options_for_tests (&opts);
  opts.flags = HYD_SCHEMATIC_SHOW_IDS | HYD_SCHEMATIC_BACKGROUND;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 800, 300);
  cairo_t *cr = cairo_create (s);
  hyd_schematic_render (cr, c, &opts);
  cairo_destroy (cr);
  return s;
}

/* The mean x of the pixels that differ between two renders in the band
 * above the cylinder's body (y < 80), or −1 when none differ. */
static double
diff_mean_x (cairo_surface_t *a, cairo_surface_t *b)
{
  double sum = 0;
  guint n = 0;
  for (int y = 0; y < 80; y++)
    for (int x = 0; x < 560; x++)
      if (pixel_at (a, x, y) != pixel_at (b, x, y))
        {
          sum += x;
          n++;
        }
  return n ? sum / n : -1;
}

static void
test_stroke_marker (void)
{
  elec_test_types_register ();
  cairo_surface_t *none = render_with_switch (NULL, 0.1);
  cairo_surface_t *near = render_with_switch ("C1", 0.05);
  cairo_surface_t *far = render_with_switch ("C1", 0.25);
  if (g_getenv ("BRAMAH_TEST_DUMP"))
    cairo_surface_write_to_png (far, g_getenv ("BRAMAH_TEST_DUMP"));
  double x_near = diff_mean_x (none, near), x_far = diff_mean_x (none, far);
  g_assert_cmpfloat (x_near, >, 300); /* right of the cylinder's position */
  g_assert_cmpfloat (x_far, >, x_near + 10);
  cairo_surface_destroy (none);
  cairo_surface_destroy (near);
  cairo_surface_destroy (far);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/symbols/schematic/export-formats", test_export_formats);
  g_test_add_func ("/symbols/schematic/all-examples", test_all_examples_render);
  g_test_add_func ("/symbols/schematic/export-errors", test_export_errors);
  g_test_add_func ("/symbols/schematic/junctions-and-pressure", test_junction_dots_and_pressure);
  g_test_add_func ("/symbols/schematic/component-state", test_component_state_callback);
  g_test_add_func ("/symbols/schematic/pressure-ramp", test_pressure_colour_ramp);
  g_test_add_func ("/symbols/schematic/wire-styles-by-domain", test_wire_styles_by_domain);
  g_test_add_func ("/symbols/schematic/electrical-wires", test_electrical_wires);
  g_test_add_func ("/symbols/schematic/stroke-marker", test_stroke_marker);
  return g_test_run ();
}
