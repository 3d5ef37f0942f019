/* hyd-help-text.c — help pages generated from the component catalogue. */
#define G_LOG_DOMAIN "hyd-help-text"

#include "bramah-config.h"
#include "hyd-help-text.h"

#include <glib/gi18n.h>
#include <math.h>
#include "hyd-display-units.h"
#include "hyd-param-value.h"

/* The fluid's default discharge coefficient (circuit-format.md, fluid). */
#define DEFAULT_DISCHARGE_COEFFICIENT 0.7

void
hyd_help_param_row_free (HydHelpParamRow *row)
{
  if (row == NULL)
    return;
  g_free (row->label);
  g_free (row->key);
  g_free (row->default_text);
  g_free (row->range);
  g_free (row->unit);
  g_free (row->description);
  g_free (row);
}

const char *
hyd_help_type_label (const HydComponentType *type)
{
  g_return_val_if_fail (type != NULL, "");
  return _(type->label);
}

const char *
hyd_help_category_label (HydCategory category)
{
  switch (category)
    {
    case HYD_CATEGORY_SOURCES: return _("Sources");
    case HYD_CATEGORY_PUMPS: return _("Pumps");
    case HYD_CATEGORY_VALVES: return _("Valves");
    case HYD_CATEGORY_ACTUATORS: return _("Actuators");
    case HYD_CATEGORY_STORAGE: return _("Storage and lines");
    case HYD_CATEGORY_MEASUREMENT: return _("Measurement");
    default: return "";
    }
}

static char *
with_unit (const HydParamInfo *info, double si)
{
  g_autofree char *number = hyd_param_value_format (info, si);
  const char *unit = hyd_param_value_unit (info);
  return *unit ? g_strdup_printf ("%s %s", number, unit) : g_steal_pointer (&number);
}

GPtrArray *
hyd_help_param_rows (const HydComponentType *type)
{
  g_return_val_if_fail (type != NULL, NULL);

  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_help_param_row_free);
  for (guint i = 0; i < type->n_params; i++)
    {
      const HydParamInfo *info = &type->params[i];
      HydHelpParamRow *row = g_new0 (HydHelpParamRow, 1);
      row->label = g_strdup (_(info->label));
      row->key = g_strdup (info->name);
      row->description = g_strdup (info->description ? _(info->description) : "");
      row->profile = (info->flags & HYD_PARAM_PROFILE) != 0;

      if (info->flags & HYD_PARAM_ENUM)
        {
          guint def = (guint) info->def;
          row->default_text = g_strdup (info->choices && info->choices[def] ? _(info->choices[def]) : "");
          g_autoptr (GStrvBuilder) shown = g_strv_builder_new ();
          for (guint c = 0; info->choices && info->choices[c]; c++)
            g_strv_builder_add (shown, _(info->choices[c]));
          g_auto (GStrv) labels = g_strv_builder_end (shown);
          g_autofree char *choices = g_strjoinv (", ", labels);
          /* translators: the choices of a parameter, e.g. "one of closed, open, tandem, float" */
          row->range = g_strdup_printf (_("one of %s"), choices);
          row->unit = g_strdup ("");
        }
      else
        {
          if (info->flags & HYD_PARAM_OPTIONAL)
            row->default_text = g_strdup (_("unset"));
          else if (info->flags & HYD_PARAM_FLUID_CD)
            {
              g_autofree char *cd = with_unit (info, DEFAULT_DISCHARGE_COEFFICIENT);
              /* translators: a default taken from the fluid settings */
              row->default_text = g_strdup_printf (_("the fluid's (%s)"), cd);
            }
          else
            row->default_text = with_unit (info, info->def);
          row->range = hyd_param_value_describe_range (info);
          if (info->flags & HYD_PARAM_INTEGER)
            {
              g_autofree char *range = g_steal_pointer (&row->range);
              row->range = g_strdup_printf (_("%s, whole number"), range);
            }
          row->unit = g_strdup (hyd_param_value_unit (info));
        }
      g_ptr_array_add (rows, row);
    }
  return rows;
}

char *
hyd_help_dup_text (const HydComponentType *type)
{
  g_return_val_if_fail (type != NULL, NULL);

  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "%s (%s)\n", hyd_help_type_label (type), type->id);
  g_string_append_printf (s, "%s: %s\n", _("Category"), hyd_help_category_label (type->category));
  if (type->iso_symbol)
    g_string_append_printf (s, "%s: %s\n", _("ISO 1219 symbol"), _(type->iso_symbol));
  g_string_append_printf (s, "\n%s\n", type->description ? _(type->description) : "");

  g_string_append_printf (s, "\n%s\n", _("Ports"));
  for (guint i = 0; i < type->n_ports; i++)
    {
      const HydPortInfo *port = &type->ports[i];
      g_string_append_printf (s, "  %s  %s  %s%s\n", port->name, _(hyd_domain_name (port->domain)),
                              port->description ? _(port->description) : "",
                              port->optional ? _(" (optional)") : "");
    }

  g_autoptr (GPtrArray) rows = hyd_help_param_rows (type);
  g_string_append_printf (s, "\n%s\n", _("Parameters"));
  for (guint i = 0; i < rows->len; i++)
    {
      HydHelpParamRow *row = g_ptr_array_index (rows, i);
      g_string_append_printf (s, "  %s (%s)%s\n", row->label, row->key,
                              row->profile ? _(" — can change over time, live while running") : "");
      g_string_append_printf (s, "    %s: %s; %s: %s", _("default"), row->default_text,
                              _("range"), row->range);
      if (*row->unit)
        g_string_append_printf (s, "; %s: %s", _("unit"), row->unit);
      g_string_append_c (s, '\n');
      if (*row->description)
        g_string_append_printf (s, "    %s\n", row->description);
    }
  return g_string_free (s, FALSE);
}
