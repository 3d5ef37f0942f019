/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-symbol-files.c — the symbol files: they load, their ports are on the
 * grid, they match the catalogue both ways, every variable they use exists,
 * and broken files are reported naming the file and the element. */
#include "hyd-symbol-private.h"
#include "hyd-catalogue.h"
#include "symbol-cases.h"

#include <glib/gstdio.h>
#include <string.h>

static void
test_load_all (void)
{
  g_autoptr (GDir) dir = g_dir_open (HYD_SYMBOLS_DATA_DIR, 0, NULL);
  g_assert_nonnull (dir);
  const char *name;
  guint n = 0;
  while ((name = g_dir_read_name (dir)))
    {
      if (!g_str_has_suffix (name, ".sym"))
        continue;
      g_autofree char *path = g_build_filename (HYD_SYMBOLS_DATA_DIR, name, NULL);
      GError *error = NULL;
      g_autoptr (HydSymbol) sym = hyd_symbol_load_from_file (path, &error);
      g_assert_no_error (error);
      g_assert_nonnull (sym);
      /* one file per type, named after it */
      g_autofree char *expect = g_strconcat (hyd_symbol_get_type_id (sym), ".sym", NULL);
      g_assert_cmpstr (name, ==, expect);
      n++;
    }
  g_assert_cmpuint (n, >=, 23);

  /* the default library finds the same directory (BRAMAH_SYMBOL_DIR in the test environment) */
  GError *error = NULL;
  HydSymbolLibrary *lib = hyd_symbol_library_get_default (&error);
  g_assert_no_error (error);
  guint n_types;
  g_autofree const char **types = hyd_symbol_library_list (lib, &n_types);
  g_assert_cmpuint (n_types, ==, n);
}

static void
test_ports_on_grid (void)
{
  HydSymbolLibrary *lib = symbol_cases_library ();
  guint n;
  g_autofree const char **types = hyd_symbol_library_list (lib, &n);
  for (guint t = 0; t < n; t++)
    {
      HydSymbol *sym = hyd_symbol_library_lookup (lib, types[t]);
      g_assert_cmpuint (hyd_symbol_get_n_ports (sym), >, 0);
      HydRect b;
      hyd_symbol_get_bounds (sym, &b);
      for (guint i = 0; i < hyd_symbol_get_n_ports (sym); i++)
        {
          const HydSymbolPort *p = hyd_symbol_get_port (sym, i);
          g_assert_true (p->dir >= HYD_DIR_RIGHT && p->dir <= HYD_DIR_UP);
          g_assert_cmpfloat (p->lead, ==, 1.0); /* design §1.2: every port at the end of a 1 M lead */
          /* the port is on the outside of the drawing: nothing lies beyond it along its direction */
          int dx, dy;
          hyd_direction_vector (p->dir, &dx, &dy);
          double reach = dx > 0 ? b.x1 - p->x : dx < 0 ? p->x - b.x0 : dy > 0 ? b.y1 - p->y : p->y - b.y0;
          if (reach > 0.2)
            g_error ("%s: port %s points %s but the drawing reaches %.2f M beyond it", types[t], p->name,
                     hyd_direction_name (p->dir), reach);
          g_assert_true (p->x >= b.x0 - 1e-9 && p->x <= b.x1 + 1e-9 && p->y >= b.y0 - 1e-9 && p->y <= b.y1 + 1e-9);
        }
    }
}

static void
test_catalogue_coverage (void)
{
  HydSymbolLibrary *lib = symbol_cases_library ();
  guint n_types;
  const HydComponentType *const *list = hyd_catalogue_list (&n_types);
  for (guint t = 0; t < n_types; t++)
    {
      const HydComponentType *type = list[t];
      HydSymbol *sym = hyd_symbol_library_lookup (lib, type->id);
      if (sym == NULL)
        g_error ("catalogue type %s has no symbol file", type->id);
      guint n_drawn = 0;
      for (guint k = 0; k < type->n_ports; k++)
        {
          /* a hidden port (a reference's input) is never drawn */
          if (type->ports[k].hidden)
            {
              g_assert_null (hyd_symbol_find_port (sym, type->ports[k].name));
              continue;
            }
          n_drawn++;
          const HydSymbolPort *p = hyd_symbol_find_port (sym, type->ports[k].name);
          if (p == NULL)
            g_error ("%s: catalogue port %s is missing from the symbol", type->id, type->ports[k].name);
          g_assert_cmpint (p->optional, ==, type->ports[k].optional);
          g_assert_cmpint (p->signal, ==, type->ports[k].domain == HYD_DOMAIN_SIGNAL);
        }
      g_assert_cmpuint (hyd_symbol_get_n_ports (sym), ==, n_drawn);
    }
  guint n;
  g_autofree const char **types = hyd_symbol_library_list (lib, &n);
  for (guint t = 0; t < n; t++)
    if (hyd_catalogue_lookup (types[t]) == NULL)
      g_error ("symbol %s draws a type the catalogue does not have", types[t]);
}

/* Every variable a binding, condition, paint or text uses must be declared
 * in the file, be a parameter of the type, a port pressure "X.p" or the
 * time t: a misspelt name would silently draw the rest state. */
typedef struct {
  const HydSymbol *sym;
  const HydComponentType *type;
} Lint;

static void
lint_name (Lint *l, const char *name)
{
  if (name == NULL || strcmp (name, "t") == 0 || hyd_symbol_find_variable (l->sym, name)
      || hyd_component_type_find_param (l->type, name) >= 0)
    return;
  if (g_str_has_suffix (name, ".p"))
    {
      g_autofree char *port = g_strndup (name, strlen (name) - 2);
      if (hyd_symbol_find_port (l->sym, port))
        return;
    }
  g_error ("%s: variable '%s' is used but not declared", hyd_symbol_get_type_id (l->sym), name);
}

static void
lint_num (Lint *l, const SymNum *n)
{
  lint_name (l, n->var);
  lint_name (l, n->per);
}

static void
lint_conds (Lint *l, const GPtrArray *conds)
{
  for (guint i = 0; conds && i < conds->len; i++)
    lint_name (l, ((SymCond *) g_ptr_array_index (conds, i))->var);
}

static void
lint_paint (Lint *l, const SymPaint *p)
{
  if (p->kind == PAINT_PRESSURE && hyd_symbol_find_port (l->sym, p->port) == NULL)
    g_error ("%s: paint pressure:%s names no port", hyd_symbol_get_type_id (l->sym), p->port);
}

static void
lint_elements (Lint *l, const GPtrArray *els)
{
  for (guint i = 0; i < els->len; i++)
    {
      const SymElement *el = g_ptr_array_index (els, i);
      lint_conds (l, el->conds);
      lint_conds (l, el->highlight_if);
      lint_paint (l, &el->fill);
      lint_paint (l, &el->stroke);
      for (guint k = 0; k < el->n_pts; k++)
        {
          lint_num (l, &el->pts[k].x);
          lint_num (l, &el->pts[k].y);
        }
      const SymNum *nums[] = { &el->size_w, &el->size_h, &el->radius, &el->start, &el->end, &el->tx, &el->ty,
                               &el->rotate, &el->about.x, &el->about.y };
      for (guint k = 0; k < G_N_ELEMENTS (nums); k++)
        lint_num (l, nums[k]);
      if (el->text)
        {
          const char *p = el->text;
          while ((p = strchr (p, '{')))
            {
              const char *end = strpbrk (p, ":}");
              g_assert_nonnull (end);
              g_autofree char *name = g_strndup (p + 1, end - p - 1);
              lint_name (l, name);
              p = end;
            }
        }
      if (el->children)
        lint_elements (l, el->children);
    }
}

static void
test_variables_declared (void)
{
  HydSymbolLibrary *lib = symbol_cases_library ();
  guint n;
  g_autofree const char **types = hyd_symbol_library_list (lib, &n);
  for (guint t = 0; t < n; t++)
    {
      Lint l = { hyd_symbol_library_lookup (lib, types[t]), hyd_catalogue_lookup (types[t]) };
      g_assert_nonnull (l.type);
      lint_elements (&l, l.sym->elements);
      for (guint i = 0; i < hyd_symbol_get_n_variables (l.sym); i++)
        lint_name (&l, hyd_symbol_get_variable (l.sym, i)->from);
    }
}

/* ---------------- broken files ---------------- */

static const char *const header = "{\"format\": \"bramah-symbol\", \"version\": 1, \"type\": \"x\", ";

typedef struct {
  const char *body;      /* appended to the header */
  int code;
  const char *expect[3]; /* substrings of the message */
} BadCase;

static const BadCase bad_cases[] = {
  { "\"ports\": [], \"elements\": [ }", HYD_SYMBOL_ERROR_PARSE, { "bad.sym", ":1:" } },
  { "\"ports\": [{\"name\": \"P\", \"at\": [0.5, 0], \"dir\": \"up\"}], \"elements\": []}",
    HYD_SYMBOL_ERROR_FORMAT, { "bad.sym", "ports[0] (port P)", "whole multiples of M" } },
  { "\"ports\": [{\"name\": \"P\", \"at\": [0, 0], \"dir\": \"north\"}], \"elements\": []}",
    HYD_SYMBOL_ERROR_FORMAT, { "ports[0] (port P)", "'dir'" } },
  { "\"ports\": [], \"elements\": [{\"type\": \"line\", \"from\": [0, 0], \"to\": [1, 1]}, "
    "{\"type\": \"squiggle\"}]}",
    HYD_SYMBOL_ERROR_FORMAT, { "bad.sym", "elements[1]", "squiggle" } },
  { "\"ports\": [], \"elements\": [{\"type\": \"group\", \"elements\": [{\"type\": \"arrow\", \"from\": [0, 0], "
    "\"to\": [1]}]}]}",
    HYD_SYMBOL_ERROR_FORMAT, { "elements[0].elements[0] (arrow)", "'to' must be a point" } },
  { "\"ports\": [], \"elements\": [{\"type\": \"circle\", \"center\": [0, 0], \"r\": 1, \"colour\": \"red\"}]}",
    HYD_SYMBOL_ERROR_FORMAT, { "elements[0] (circle)", "unknown key 'colour'" } },
  { "\"ports\": [], \"elements\": [{\"type\": \"line\", \"from\": [{\"scale\": 2}, 0], \"to\": [1, 1]}]}",
    HYD_SYMBOL_ERROR_FORMAT, { "elements[0] (line)", "\"var\"" } },
  { "\"ports\": [{\"name\": \"A\", \"at\": [0, 0], \"dir\": \"up\"}, {\"name\": \"A\", \"at\": [1, 0], "
    "\"dir\": \"up\"}], \"elements\": []}",
    HYD_SYMBOL_ERROR_FORMAT, { "ports[1]", "defined twice" } },
  { "\"ports\": [], \"elements\": [{\"type\": \"rect\", \"at\": [0, 0], \"size\": [1, 1], \"fill\": \"purple\"}]}",
    HYD_SYMBOL_ERROR_FORMAT, { "elements[0] (rect)", "unknown paint 'purple'" } },
  { "\"ports\": [], \"elements\": [{\"type\": \"text\", \"at\": [0, 0], \"text\": \"Q\", "
    "\"if\": {\"var\": \"a\", \"eq\": 1, \"gt\": 0}}]}",
    HYD_SYMBOL_ERROR_FORMAT, { "elements[0] (text), 'if'", "exactly one" } },
};

static void
test_errors (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autofree char *data = g_strconcat (header, bad_cases[i].body, NULL);
      GError *error = NULL;
      HydSymbol *sym = hyd_symbol_load_from_data (data, -1, "/some/where/bad.sym", &error);
      g_assert_null (sym);
      g_assert_error (error, HYD_SYMBOL_ERROR, bad_cases[i].code);
      for (guint k = 0; k < 3 && bad_cases[i].expect[k]; k++)
        if (strstr (error->message, bad_cases[i].expect[k]) == NULL)
          g_error ("case %u: message \"%s\" lacks \"%s\"", i, error->message, bad_cases[i].expect[k]);
      g_error_free (error);
    }

  /* a newer version is refused, naming both */
  GError *error = NULL;
  HydSymbol *sym = hyd_symbol_load_from_data ("{\"format\": \"bramah-symbol\", \"version\": 7, \"type\": \"x\", "
                                              "\"ports\": [], \"elements\": []}", -1, "new.sym", &error);
  g_assert_null (sym);
  g_assert_error (error, HYD_SYMBOL_ERROR, HYD_SYMBOL_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "version 7"));
  g_clear_error (&error);

  /* a directory with two files for one type */
  g_autofree char *dir = g_dir_make_tmp ("bramah-sym-XXXXXX", NULL);
  const char *file = "{\"format\": \"bramah-symbol\", \"version\": 1, \"type\": \"tank\", \"ports\": [{\"name\": "
                     "\"T\", \"at\": [0, 0], \"dir\": \"up\"}], \"elements\": []}";
  g_autofree char *a = g_build_filename (dir, "a.sym", NULL);
  g_autofree char *b = g_build_filename (dir, "b.sym", NULL);
  g_assert_true (g_file_set_contents (a, file, -1, NULL));
  g_assert_true (g_file_set_contents (b, file, -1, NULL));
  g_autoptr (HydSymbolLibrary) lib = hyd_symbol_library_new ();
  g_assert_false (hyd_symbol_library_add_directory (lib, dir, &error));
  g_assert_error (error, HYD_SYMBOL_ERROR, HYD_SYMBOL_ERROR_DUPLICATE);
  g_assert_nonnull (strstr (error->message, "b.sym"));
  g_clear_error (&error);
  g_unlink (a);
  g_unlink (b);
  g_rmdir (dir);

  /* a missing directory */
  g_autoptr (HydSymbolLibrary) lib2 = hyd_symbol_library_new ();
  g_assert_false (hyd_symbol_library_add_directory (lib2, "/nonexistent/bramah", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
}

/* Adding a symbol is data only: a new file in a directory is a new symbol. */
static void
test_new_symbol_is_data (void)
{
  const char *file = "{\"format\": \"bramah-symbol\", \"version\": 1, \"type\": \"shuttle_valve\", "
                     "\"ports\": [{\"name\": \"A\", \"at\": [0, 0], \"dir\": \"left\"}, "
                     "{\"name\": \"B\", \"at\": [4, 0], \"dir\": \"right\"}], "
                     "\"elements\": [{\"type\": \"rect\", \"at\": [1, -1], \"size\": [2, 2]}]}";
  GError *error = NULL;
  g_autoptr (HydSymbol) sym = hyd_symbol_load_from_data (file, -1, "shuttle_valve.sym", &error);
  g_assert_no_error (error);
  g_autoptr (HydSymbolLibrary) lib = hyd_symbol_library_new ();
  hyd_symbol_library_add (lib, sym);
  hyd_symbol_library_add (lib, sym); /* adding it again replaces it */
  g_assert_true (hyd_symbol_library_lookup (lib, "shuttle_valve") == sym);
  HydRect r;
  hyd_symbol_get_bounds (sym, &r);
  g_assert_cmpfloat (r.x0, <=, 0);
  g_assert_cmpfloat (r.x1, >=, 4);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/symbols/files/load-all", test_load_all);
  g_test_add_func ("/symbols/files/ports-on-grid", test_ports_on_grid);
  g_test_add_func ("/symbols/files/catalogue-coverage", test_catalogue_coverage);
  g_test_add_func ("/symbols/files/variables-declared", test_variables_declared);
  g_test_add_func ("/symbols/files/errors", test_errors);
  g_test_add_func ("/symbols/files/new-symbol-is-data", test_new_symbol_is_data);
  return g_test_run ();
}
