/* hyd-message.c — the engine's messages in the words and units of the panel. */
#define G_LOG_DOMAIN "hyd-message"

#include "bramah-config.h"
#include "hyd-message.h"

#include <glib/gi18n.h>
#include <string.h>
#include "hyd-catalogue.h"
#include "hyd-display-units.h"

/* The SI symbols the engine writes after a number, longest first (so that
 * "m³/s" is not read as "m"), and their kind. */
static const struct {
  const char *symbol;
  HydUnit unit;
} si_units[] = {
  { "m³/s", HYD_UNIT_FLOW },
  { "m/s", HYD_UNIT_VELOCITY },
  { "N·m", HYD_UNIT_TORQUE },
  { "Pa", HYD_UNIT_PRESSURE },
  { "kg", HYD_UNIT_MASS },
  { "m", HYD_UNIT_LENGTH },
  { "N", HYD_UNIT_FORCE },
  { "W", HYD_UNIT_POWER },
};

static gboolean
replace_quantity (const GMatchInfo *match, GString *out, gpointer user_data)
{
  g_autofree char *number = g_match_info_fetch (match, 1);
  g_autofree char *symbol = g_match_info_fetch (match, 2);
  g_autofree char *whole = g_match_info_fetch (match, 0);
  gboolean minus = g_str_has_prefix (number, "−");
  double si = g_ascii_strtod (minus ? number + strlen ("−") : number, NULL);
  if (minus)
    si = -si;
  for (guint i = 0; i < G_N_ELEMENTS (si_units); i++)
    if (strcmp (symbol, si_units[i].symbol) == 0)
      {
        g_autofree char *shown = hyd_display_format (si_units[i].unit, si);
        g_string_append (out, shown);
        return FALSE;
      }
  g_string_append (out, whole);
  return FALSE;
}

static gboolean
replace_node (const GMatchInfo *match, GString *out, gpointer user_data)
{
  g_autofree char *port = g_match_info_fetch (match, 1);
  /* translators: "line at V1.B", where the engine said "node V1.B.p" */
  g_string_append_printf (out, _("line at %s"), port);
  return FALSE;
}

static gboolean
replace_param (const GMatchInfo *match, GString *out, gpointer user_data)
{
  const HydCircuit *circuit = user_data;
  g_autofree char *whole = g_match_info_fetch (match, 0);
  g_autofree char *id = g_match_info_fetch (match, 1);
  g_autofree char *name = g_match_info_fetch (match, 2);
  const HydCircuitComponent *comp = circuit ? hyd_circuit_find_component (circuit, id) : NULL;
  const HydComponentType *type = comp ? hyd_catalogue_lookup (comp->type) : NULL;
  int k = type ? hyd_component_type_find_param (type, name) : -1;
  if (k < 0)
    {
      g_string_append (out, whole);
      return FALSE;
    }
  /* translators: "“Rod diameter” of C1", where the engine said "C1.rod_diameter" */
  g_string_append_printf (out, _("“%s” of %s"), _(type->params[k].label), id);
  return FALSE;
}

char *
hyd_message_humanize (const HydCircuit *circuit, const char *text)
{
  if (text == NULL)
    return NULL;
  static GRegex *quantity, *node, *param;
  if (g_once_init_enter (&quantity))
    {
      node = g_regex_new ("\\bnode ([A-Za-z_][A-Za-z0-9_-]*\\.[A-Za-z0-9_]+)\\.p\\b", G_REGEX_OPTIMIZE, 0, NULL);
      param = g_regex_new ("\\b([A-Za-z_][A-Za-z0-9_-]*)\\.([a-z][a-z0-9_]*)\\b(?!\\.)", G_REGEX_OPTIMIZE, 0,
                           NULL);
      GRegex *q = g_regex_new ("(?<![\\w.])([-+−]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?) "
                               "(m³/s|m/s|N·m|Pa|kg|m|N|W)(?![\\w³²/·])",
                               G_REGEX_OPTIMIZE, 0, NULL);
      g_once_init_leave (&quantity, q);
    }
  g_autofree char *a = g_regex_replace_eval (node, text, -1, 0, 0, replace_node, NULL, NULL);
  g_autofree char *b = g_regex_replace_eval (param, a ? a : text, -1, 0, 0, replace_param, (gpointer) circuit, NULL);
  char *c = g_regex_replace_eval (quantity, b ? b : text, -1, 0, 0, replace_quantity, NULL, NULL);
  return c ? c : g_strdup (text);
}
