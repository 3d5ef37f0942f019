/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-i18n.c — the catalogue's strings reach German through gettext.
 *
 * The engine only marks its human-facing strings (N_(), hyd-i18n.h); the
 * application translates them with g_dgettext (GETTEXT_PACKAGE, s) where it
 * shows them. This test binds the "bramah" domain to the catalogues compiled
 * into the build tree and reads the engine's own strings in German
 * (LANGUAGE=de, LC_ALL=C.UTF-8: no generated de_DE locale is needed). It
 * exits 77 (skipped) when the C library cannot honour LANGUAGE here. */
#include "hyd-catalogue.h"
#include "hyd-component.h"
#include "hyd-units.h"

#include <glib.h>
#include <libintl.h>
#include <locale.h>
#include <string.h>

#define GETTEXT_PACKAGE "bramah"

static const char *
tr (const char *msgid)
{
  return g_dgettext (GETTEXT_PACKAGE, msgid);
}

static void
test_component_names (void)
{
  static const struct {
    const char *type;
    const char *german;
  } names[] = {
    { "relief_valve", "Druckbegrenzungsventil" },
    { "dcv_4_3", "4/3-Wegeventil" },
    { "check_valve", "Rückschlagventil" },
    { "flow_control_valve", "Stromregelventil" },
    { "pressure_reducing_valve", "Druckminderventil" },
    { "throttle_valve", "Drosselventil" },
    { "orifice", "Blende" },
    { "accumulator", "Hydrospeicher" },
    { "cylinder_double", "Zylinder doppeltwirkend" },
    { "fixed_pump", "Konstantpumpe" },
    { "variable_pump", "Verstellpumpe" },
    { "motor_fixed", "Hydromotor" },
    { "pressure_gauge", "Manometer" },
    { "flow_meter", "Durchflussmesser" },
    { "line", "Leitung" },
    { "volume", "Volumen" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const HydComponentType *type = hyd_catalogue_lookup (names[i].type);
      g_assert_nonnull (type);
      g_assert_cmpstr (tr (type->label), ==, names[i].german);
    }
}

static void
test_parameters_and_names (void)
{
  const HydComponentType *relief = hyd_catalogue_lookup ("relief_valve");
  int k = hyd_component_type_find_param (relief, "cracking_pressure");
  g_assert_cmpint (k, >=, 0);
  g_assert_cmpstr (tr (relief->params[k].label), ==, "Öffnungsdruck");

  const HydComponentType *dcv = hyd_catalogue_lookup ("dcv_4_3");
  k = hyd_component_type_find_param (dcv, "centre");
  g_assert_cmpint (k, >=, 0);
  g_assert_cmpstr (tr (dcv->params[k].label), ==, "Mittelstellung");
  g_assert_cmpstr (tr (dcv->params[k].choices[3]), ==, "Schwimmstellung");
  /* the choice itself stays the file's word */
  g_assert_cmpstr (dcv->params[k].choices[3], ==, "float");

  g_assert_cmpstr (tr (hyd_category_name (HYD_CATEGORY_VALVES)), ==, "Ventile");
  g_assert_cmpstr (tr (hyd_domain_name (HYD_DOMAIN_TRANSLATIONAL)), ==, "translatorisch");
  g_assert_cmpstr (tr (hyd_domain_name (HYD_DOMAIN_ROTATIONAL)), ==, "rotatorisch");
  g_assert_cmpstr (tr (hyd_unit_name (HYD_UNIT_PRESSURE)), ==, "Druck");
  /* symbols are not translated */
  g_assert_cmpstr (hyd_unit_symbol (HYD_UNIT_PRESSURE), ==, "Pa");
}

/* Strings whose German is the English word. */
static gboolean
same_in_german (const char *s)
{
  /* words German shares, and a sum block's signs ("+-", "++-") */
  static const char *const same[] = { "Tank", "Amplitude", "Phase", "Offset", NULL };
  return g_strv_contains (same, s) || strspn (s, "+-") == strlen (s);
}

static void
check_translated (GPtrArray *untranslated, const char *what, const char *s)
{
  if (s == NULL || *s == '\0')
    return;
  if (strcmp (tr (s), s) == 0 && !same_in_german (s))
    g_ptr_array_add (untranslated, g_strdup_printf ("%s: \"%s\"", what, s));
}

static void
check_vars (GPtrArray *untranslated, const char *id, const char *kind, guint n, const HydVarInfo *vars)
{
  for (guint i = 0; i < n; i++)
    {
      /* A directional valve describes its path flows at run time ("Flow
       * from P to A"): built from the port names, they are not in the
       * catalogue. */
      if (vars[i].description && g_str_has_prefix (vars[i].description, "Flow from "))
        continue;
      g_autofree char *what = g_strdup_printf ("%s %s %s", id, kind, vars[i].name);
      check_translated (untranslated, what, vars[i].description);
    }
}

/* Every human-facing string of every component type is in the German
 * catalogue: a string the engine forgot to mark stays English. */
static void
test_catalogue_complete (void)
{
  g_autoptr (GPtrArray) untranslated = g_ptr_array_new_with_free_func (g_free);
  HydFluid fluid;
  guint n_types;
  const HydComponentType *const *types = hyd_catalogue_list (&n_types);

  hyd_fluid_init_default (&fluid);
  for (int c = HYD_CATEGORY_SOURCES; c <= HYD_CATEGORY_ELECTRICAL; c++)
    check_translated (untranslated, "category", hyd_category_name (c));
  for (int d = HYD_DOMAIN_HYDRAULIC; d < HYD_N_DOMAINS; d++)
    check_translated (untranslated, "domain", hyd_domain_name (d));
  for (int u = 0; u < HYD_UNIT_N_KINDS; u++)
    check_translated (untranslated, "unit", hyd_unit_name (u));

  for (guint t = 0; t < n_types; t++)
    {
      const HydComponentType *type = types[t];
      check_translated (untranslated, type->id, type->label);
      check_translated (untranslated, type->id, type->iso_symbol);
      check_translated (untranslated, type->id, type->description);
      for (guint i = 0; i < type->n_ports; i++)
        check_translated (untranslated, type->id, type->ports[i].description);
      for (guint i = 0; i < type->n_params; i++)
        {
          const HydParamInfo *info = &type->params[i];
          check_translated (untranslated, info->name, info->label);
          check_translated (untranslated, info->name, info->description);
          for (guint j = 0; info->choices && info->choices[j]; j++)
            check_translated (untranslated, info->name, info->choices[j]);
        }

      /* states, outputs and events are declared by setup */
      g_autoptr (GError) error = NULL;
      HydComp *comp = hyd_comp_new (type, "c", &fluid);
      g_assert_true (type->setup (comp, &error));
      g_assert_no_error (error);
      check_vars (untranslated, type->id, "state", comp->n_states, comp->states);
      check_vars (untranslated, type->id, "output", comp->n_outputs, comp->outputs);
      check_vars (untranslated, type->id, "event", comp->n_events, comp->events);
      hyd_comp_free (comp);
    }

  for (guint i = 0; i < untranslated->len; i++)
    g_printerr ("untranslated: %s\n", (const char *) untranslated->pdata[i]);
  g_assert_cmpuint (untranslated->len, ==, 0);
}

int
main (int argc, char **argv)
{
  const char *locale = setlocale (LC_ALL, "");
  const char *messages = setlocale (LC_MESSAGES, NULL);

  /* glibc ignores LANGUAGE in the "C" locale: then German cannot be had
   * without a generated locale. */
  if (locale == NULL || messages == NULL || strcmp (messages, "C") == 0
      || strcmp (messages, "POSIX") == 0)
    {
      g_printerr ("no usable locale for LANGUAGE=de (LC_MESSAGES is %s): skipped\n",
                  messages ? messages : "unset");
      return 77;
    }

  bindtextdomain (GETTEXT_PACKAGE, BRAMAH_TEST_LOCALE_DIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* The catalogue's header: present when the German .mo is found at all. */
  if (*gettext ("") == '\0')
    {
      g_printerr ("the German catalogue is not reachable (LANGUAGE=%s, LC_MESSAGES=%s, %s)\n",
                  g_getenv ("LANGUAGE"), messages, BRAMAH_TEST_LOCALE_DIR);
      return 1;
    }

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/i18n/component-names", test_component_names);
  g_test_add_func ("/i18n/parameters-and-names", test_parameters_and_names);
  g_test_add_func ("/i18n/catalogue-complete", test_catalogue_complete);
  return g_test_run ();
}
