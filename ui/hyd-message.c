/* SPDX-License-Identifier: GPL-3.0-or-later */
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

/* ---- variables in the plots' words ---- */

/* Variables whose unit does not say what they are: their words. */
static const struct {
  const char *name;
  const char *words;
} variable_words[] = {
  { "spool", N_("Spool position") },
  { "s", N_("Opening coordinate") },
  { "sdot", N_("Opening rate") },
  { "opening", N_("Opening") },
  { "laminar", N_("Laminar branch") },
  { "oil_volume", N_("Oil volume") },
  { "void", N_("Void") },
  { "psi", N_("Pseudo-pressure") },
  { "Re", N_("Reynolds number") },
};

static gboolean
is_port_letter (char c)
{
  return g_ascii_isupper (c);
}

char *
hyd_message_variable_label (const char *name, HydUnit unit)
{
  g_return_val_if_fail (name != NULL, NULL);
  if (strcmp (name, "t") == 0)
    return g_strdup (hyd_display_quantity_name (HYD_UNIT_TIME));
  const char *dot = strchr (name, '.');
  if (dot == NULL || dot == name || dot[1] == '\0')
    return g_strdup (name);

  g_autofree char *comp = g_strndup (name, (gsize) (dot - name));
  const char *var = dot + 1;
  g_autofree char *where = NULL;
  /* the last dot: a hose's variables, "<from>-<to>.q", have dots in where */
  const char *dot2 = strrchr (var, '.');
  if (dot2 != NULL)
    {
      /* <comp>.<port>.<p|q|void|psi>: the port is where */
      where = g_strndup (name, (gsize) (dot2 - name));
      var = dot2 + 1;
    }
  else if (var[0] == 'q' && var[1] == '_' && is_port_letter (var[2]) && var[3] == '\0')
    {
      /* a line's flow entering at one end: as that port's flow */
      where = g_strdup_printf ("%s.%c", comp, var[2]);
      var = "q";
    }
  else if (var[0] == 'q' && var[1] == '_' && is_port_letter (var[2]) && is_port_letter (var[3])
           && var[4] == '\0')
    {
      /* a directional valve's path */
      where = g_strdup_printf ("%s %c→%c", comp, var[2], var[3]);
      var = "q";
    }
  else
    {
      /* a line's internal points (p3, psi3) and segments (q3) */
      gsize letters = strspn (var, "abcdefghijklmnopqrstuvwxyz");
      const char *digits = var + letters;
      if (letters > 0 && digits[0] != '\0' && digits[0] != '0'
          && strspn (digits, "0123456789") == strlen (digits))
        {
          g_autofree char *kind = g_strndup (var, letters);
          if (strcmp (kind, "p") == 0 || strcmp (kind, "psi") == 0)
            {
              /* translators: an internal point of a line, "L1 point 3" */
              where = g_strdup_printf (_("%s point %s"), comp, digits);
              var = kind[1] ? "psi" : "p";
            }
          else if (strcmp (kind, "q") == 0)
            {
              /* translators: a segment of a line, "L1 segment 3" */
              where = g_strdup_printf (_("%s segment %s"), comp, digits);
              var = "q";
            }
        }
    }
  if (where == NULL)
    where = g_steal_pointer (&comp);

  const char *what = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (variable_words) && what == NULL; i++)
    if (strcmp (var, variable_words[i].name) == 0)
      what = _(variable_words[i].words);
  if (what == NULL)
    what = unit == HYD_UNIT_NONE ? var : hyd_display_quantity_name (unit);
  /* translators: a variable in a CSV header, "V1.P: Pressure" (where: what) */
  return g_strdup_printf (_("%s: %s"), where, what);
}

char *
hyd_message_column_header (const char *name, HydUnit unit)
{
  g_autofree char *label = hyd_message_variable_label (name, unit);
  const char *symbol = hyd_display_symbol (unit);
  if (label == NULL || symbol[0] == '\0')
    return g_steal_pointer (&label);
  return g_strdup_printf ("%s [%s]", label, symbol);
}
