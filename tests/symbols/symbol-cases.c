/* SPDX-License-Identifier: GPL-3.0-or-later */
/* symbol-cases.c — see symbol-cases.h. */
#include "symbol-cases.h"

#include <math.h>
#include <string.h>

void
symbol_case_free (SymbolCase *c)
{
  g_free (c->name);
  g_free (c->caption);
  hyd_symbol_state_free (c->state);
  g_free (c);
}

static char *
format_value (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%g", v));
}

static void
add_case (GPtrArray *cases, const HydSymbol *sym, const HydSymbolState *base, const char *variant_name,
          const char *variant_caption, const char *var, double value, gboolean connect_all, gboolean single)
{
  SymbolCase *c = g_new0 (SymbolCase, 1);
  c->state = hyd_symbol_state_copy (base);
  GString *name = g_string_new (hyd_symbol_get_type_id (sym));
  GString *caption = g_string_new (variant_caption);
  g_string_append (name, variant_name);
  if (var)
    {
      g_autofree char *v = format_value (value);
      hyd_symbol_state_set (c->state, var, value);
      g_string_append_printf (name, "--%s=%s", var, v);
      g_string_append_printf (caption, "%s%s=%s", caption->len ? "  " : "", var, v);
    }
  if (connect_all)
    {
      for (guint i = 0; i < hyd_symbol_get_n_ports (sym); i++)
        hyd_symbol_state_set_port_connected (c->state, hyd_symbol_get_port (sym, i)->name, TRUE);
      g_string_append (name, "--ports=all");
      g_string_append_printf (caption, "%sall ports", caption->len ? "  " : "");
    }
  c->name = g_string_free (name, FALSE);
  c->caption = g_string_free (caption, FALSE);
  c->single_change = single;
  g_ptr_array_add (cases, c);
}

GPtrArray *
symbol_cases (const HydSymbol *sym)
{
  GPtrArray *cases = g_ptr_array_new_with_free_func ((GDestroyNotify) symbol_case_free);
  g_autoptr (GPtrArray) strvars = g_ptr_array_new ();
  for (guint i = 0; i < hyd_symbol_get_n_variables (sym); i++)
    {
      const HydSymbolVariable *v = hyd_symbol_get_variable (sym, i);
      if (v->is_string)
        g_ptr_array_add (strvars, (gpointer) v);
    }
  gboolean has_optional = FALSE;
  for (guint i = 0; i < hyd_symbol_get_n_ports (sym); i++)
    has_optional |= hyd_symbol_get_port (sym, i)->optional;

  /* odometer over the string variables' values */
  guint nv = strvars->len;
  g_autofree guint *idx = g_new0 (guint, MAX (nv, 1));
  for (;;)
    {
      g_autoptr (HydSymbolState) base = hyd_symbol_state_new ();
      GString *vname = g_string_new (NULL), *vcap = g_string_new (NULL);
      guint n_changed = 0;
      for (guint k = 0; k < nv; k++)
        {
          const HydSymbolVariable *v = g_ptr_array_index (strvars, k);
          const char *val = v->values[idx[k]];
          hyd_symbol_state_set_string (base, v->name, val);
          g_string_append_printf (vname, "--%s=%s", v->name, val);
          if (strcmp (val, v->default_string) != 0)
            {
              g_string_append_printf (vcap, "%s%s=%s", vcap->len ? "  " : "", v->name, val);
              n_changed++;
            }
        }
      add_case (cases, sym, base, vname->str, vcap->str, NULL, 0, FALSE, n_changed <= 1);
      for (guint i = 0; i < hyd_symbol_get_n_variables (sym); i++)
        {
          const HydSymbolVariable *v = hyd_symbol_get_variable (sym, i);
          if (v->is_string)
            continue;
          for (guint t = 0; t < v->n_test_values; t++)
            {
              double tv = v->test_values[t];
              /* the rest drawing already shows the default */
              if (v->has_default && tv == v->default_value)
                continue;
              add_case (cases, sym, base, vname->str, vcap->str, v->name, tv, FALSE, n_changed == 0);
            }
        }
      if (has_optional)
        add_case (cases, sym, base, vname->str, vcap->str, NULL, 0, TRUE, n_changed == 0);
      g_string_free (vname, TRUE);
      g_string_free (vcap, TRUE);

      guint k = 0;
      while (k < nv)
        {
          const HydSymbolVariable *v = g_ptr_array_index (strvars, k);
          if (v->values[++idx[k]] != NULL)
            break;
          idx[k++] = 0;
        }
      if (k == nv)
        break;
    }
  return cases;
}

cairo_surface_t *
symbol_case_render (const HydSymbol *sym, const SymbolCase *c, const HydSymbolStyle *style, double module)
{
  HydSymbolPose pose = { 0, 0, 0, FALSE };
  HydRect b;
  hyd_symbol_state_bounds (sym, &pose, c->state, &b);
  double k = module / HYD_SYMBOL_MODULE;
  double margin = HYD_SYMBOL_MODULE;
  int w = (int) ceil ((b.x1 - b.x0 + 2 * margin) * k), h = (int) ceil ((b.y1 - b.y0 + 2 * margin) * k);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  hyd_rgba_set_source (cr, &style->background);
  cairo_paint (cr);
  cairo_scale (cr, k, k);
  /* whole device pixels for the origin, so snapping is the same in every run */
  cairo_translate (cr, floor ((margin - b.x0) * k) / k, floor ((margin - b.y0) * k) / k);
  hyd_symbol_render (cr, sym, &pose, c->state, style, 0);
  cairo_destroy (cr);
  return s;
}

HydSymbolLibrary *
symbol_cases_library (void)
{
  static HydSymbolLibrary *lib = NULL;
  if (lib == NULL)
    {
      GError *error = NULL;
      lib = hyd_symbol_library_new ();
      if (!hyd_symbol_library_add_directory (lib, HYD_SYMBOLS_DATA_DIR, &error))
        g_error ("%s", error->message);
    }
  return lib;
}
