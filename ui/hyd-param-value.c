/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-param-value.c — parameter values in engineering units. */
#define G_LOG_DOMAIN "hyd-param-value"

#include "bramah-config.h"
#include "hyd-param-value.h"

#include <glib/gi18n.h>
#include <math.h>
#include "hyd-display-units.h"
#include "hyd-profile.h"

/* Significant digits in an entry: enough that showing a value and reading
 * it back does not move it by more than the display's own precision. */
#define ENTRY_DIGITS 6

/* Digits kept of a value converted from display units: "120 bar" becomes
 * 12000000 Pa in the file, not the 11999999.999999998 of the division. */
#define SI_DIGITS 12

static double
tidy_si (double si)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (buf, sizeof buf, "%.12g", si);
  G_STATIC_ASSERT (SI_DIGITS == 12);
  return g_ascii_strtod (buf, NULL);
}

char *
hyd_param_value_format (const HydParamInfo *info, double si)
{
  g_return_val_if_fail (info != NULL, NULL);
  if (!isfinite (si))
    return g_strdup ("");
  double shown = hyd_display_from_si (info->unit, si);
  /* −0 and round-off around zero look odd in an entry */
  if (fabs (shown) < 1e-300)
    shown = 0.0;
  return g_strdup_printf ("%.*g", ENTRY_DIGITS, shown);
}

const char *
hyd_param_value_unit (const HydParamInfo *info)
{
  g_return_val_if_fail (info != NULL, "");
  const HydDisplayUnit *unit = hyd_display_unit_for (info->unit);
  return unit && unit->symbol ? unit->symbol : "";
}

static char *
shown_with_unit (const HydParamInfo *info, double si)
{
  g_autofree char *number = hyd_param_value_format (info, si);
  const char *unit = hyd_param_value_unit (info);
  return *unit ? g_strdup_printf ("%s %s", number, unit) : g_steal_pointer (&number);
}

/* The largest magnitude the editor accepts where the catalogue's range is
 * open, in the display unit (so that the range reads round: "at most
 * 10000 bar"): far beyond any fluid-power circuit, and far below the values
 * (1e30 L, 1e99 m) that only a slip of the keyboard produces and that the
 * solver would turn into overflows. */
static double
plausible_limit_shown (HydUnit unit)
{
  switch (unit)
    {
    case HYD_UNIT_PRESSURE: return 1e4;           /* bar */
    case HYD_UNIT_FLOW: return 1e5;               /* L/min */
    case HYD_UNIT_POSITION:
    case HYD_UNIT_LENGTH: return 1e7;             /* mm: 10 km, a long line */
    case HYD_UNIT_VELOCITY: return 1e3;           /* m/s */
    case HYD_UNIT_ANGLE: return 1e6;              /* deg */
    case HYD_UNIT_ANGULAR_VELOCITY: return 1e5;   /* rpm */
    case HYD_UNIT_AREA: return 1e6;               /* cm² */
    case HYD_UNIT_VOLUME: return 1e5;             /* L */
    case HYD_UNIT_DISPLACEMENT: return 1e4;       /* cm³/rev */
    case HYD_UNIT_LEAKAGE: return 1e3;            /* (L/min)/bar */
    case HYD_UNIT_FORCE: return 1e6;              /* kN */
    case HYD_UNIT_TORQUE: return 1e7;             /* N·m */
    case HYD_UNIT_POWER: return 1e6;              /* kW */
    case HYD_UNIT_MASS: return 1e7;               /* kg */
    case HYD_UNIT_INERTIA: return 1e6;            /* kg·m² */
    case HYD_UNIT_STIFFNESS: return 1e9;          /* N/mm */
    case HYD_UNIT_DAMPING: return 1e9;            /* N·s/m */
    case HYD_UNIT_ROT_DAMPING: return 1e7;        /* N·m·s/rad */
    case HYD_UNIT_TIME: return 1e6;               /* s (11.6 days) */
    case HYD_UNIT_FREQUENCY: return 1e7;          /* rad/s */
    case HYD_UNIT_DENSITY: return 1e5;            /* kg/m³ */
    case HYD_UNIT_VISCOSITY: return 1e6;          /* cSt */
    case HYD_UNIT_FLOW_RATE_PER_S: return 1e9;    /* 1/s */
    case HYD_UNIT_NONE:
    default: return 1e12;
    }
}

static double
plausible_limit (HydUnit unit)
{
  /* the magnitude in SI; units with an offset (none today) are not scaled */
  double shown = plausible_limit_shown (unit);
  return tidy_si (fabs (hyd_display_to_si (unit, shown) - hyd_display_to_si (unit, 0.0)));
}

void
hyd_param_value_bounds (const HydParamInfo *info, double *min, double *max)
{
  g_return_if_fail (info != NULL);
  double limit = plausible_limit (info->unit);
  double lo = info->min, hi = info->max;
  if (!isfinite (lo))
    lo = -limit;
  if (!isfinite (hi))
    hi = limit;
  /* a catalogue bound beyond the limit stays the catalogue's */
  if (hi < lo)
    hi = lo;
  if (min)
    *min = lo;
  if (max)
    *max = hi;
}

char *
hyd_param_value_describe_range (const HydParamInfo *info)
{
  g_return_val_if_fail (info != NULL, NULL);
  double min, max;
  hyd_param_value_bounds (info, &min, &max);
  /* an open side that the editor closes is shown as a plain bound */
  gboolean has_min = isfinite (info->min) || min != 0.0;
  g_autofree char *lo = has_min ? shown_with_unit (info, min) : NULL;
  g_autofree char *hi = shown_with_unit (info, max);
  gboolean min_ex = isfinite (info->min) && (info->flags & HYD_PARAM_MIN_EXCLUSIVE) != 0;
  gboolean max_ex = isfinite (info->max) && (info->flags & HYD_PARAM_MAX_EXCLUSIVE) != 0;

  if (has_min)
    {
      if (min_ex && max_ex)
        /* translators: a parameter's range, e.g. "between 0 and 1 (both excluded)" */
        return g_strdup_printf (_("between %s and %s (both excluded)"), lo, hi);
      if (min_ex)
        return g_strdup_printf (_("more than %s and at most %s"), lo, hi);
      if (max_ex)
        return g_strdup_printf (_("at least %s and less than %s"), lo, hi);
      return g_strdup_printf (_("between %s and %s"), lo, hi);
    }
  return g_strdup_printf (max_ex ? _("less than %s") : _("at most %s"), hi);
}

gboolean
hyd_param_value_in_range (const HydParamInfo *info, double si)
{
  g_return_val_if_fail (info != NULL, FALSE);
  if (!isfinite (si))
    return FALSE;
  double min, max;
  hyd_param_value_bounds (info, &min, &max);
  if ((isfinite (info->min) && (info->flags & HYD_PARAM_MIN_EXCLUSIVE)) ? si <= min : si < min)
    return FALSE;
  if ((isfinite (info->max) && (info->flags & HYD_PARAM_MAX_EXCLUSIVE)) ? si >= max : si > max)
    return FALSE;
  if ((info->flags & HYD_PARAM_INTEGER) && si != floor (si))
    return FALSE;
  return TRUE;
}

gboolean
hyd_param_value_parse (const HydParamInfo *info, const char *text, double *si, char **message)
{
  g_return_val_if_fail (info != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  double value;
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  if (*stripped == '\0')
    {
      if (message)
        *message = g_strdup (_("Enter a value"));
      return FALSE;
    }
  if (!hyd_display_parse (info->unit, stripped, &value) || !isfinite (value))
    {
      if (message)
        {
          const char *unit = hyd_param_value_unit (info);
          *message = *unit ? g_strdup_printf (_("Not a number in %s"), unit)
                           : g_strdup (_("Not a number"));
        }
      return FALSE;
    }
  if ((info->flags & HYD_PARAM_INTEGER) && value != floor (value))
    {
      if (message)
        *message = g_strdup (_("Must be a whole number"));
      return FALSE;
    }
  if (!hyd_param_value_in_range (info, value))
    {
      if (message)
        {
          g_autofree char *range = hyd_param_value_describe_range (info);
          /* translators: %s is a range such as "between 0 and 1" */
          *message = g_strdup_printf (_("Must be %s"), range);
        }
      return FALSE;
    }
  if (si)
    *si = tidy_si (value);
  return TRUE;
}

double
hyd_param_value_clamp (const HydParamInfo *info, double si)
{
  g_return_val_if_fail (info != NULL, si);
  double min, max;
  hyd_param_value_bounds (info, &min, &max);
  if (si < min)
    si = min;
  if (si > max)
    si = max;
  return si;
}

gboolean
hyd_param_value_may_be_unset (const HydParamInfo *info)
{
  g_return_val_if_fail (info != NULL, FALSE);
  /* an optional parameter, or a limit whose default is no limit at all (a
   * controller's output limits: ±∞, which no field can show or take) */
  return (info->flags & HYD_PARAM_OPTIONAL) || (!(info->flags & HYD_PARAM_ENUM) && isinf (info->def));
}

gboolean
hyd_param_value_get (const HydParamInfo *info, JsonNode *written, double fluid_cd, double *si)
{
  g_return_val_if_fail (info != NULL, FALSE);
  if (info->flags & HYD_PARAM_ENUM)
    return FALSE;

  double value;
  if (written == NULL)
    {
      if (hyd_param_value_may_be_unset (info))
        return FALSE;
      value = (info->flags & HYD_PARAM_FLUID_CD) ? fluid_cd : info->def;
    }
  else if (JSON_NODE_HOLDS_VALUE (written) && json_node_get_value_type (written) != G_TYPE_STRING)
    value = json_node_get_double (written);
  else
    {
      g_autoptr (HydProfile) profile = hyd_profile_new_from_json (written, NULL);
      if (profile == NULL)
        return FALSE;
      value = hyd_profile_value_after (profile, 0.0);
    }
  if (si)
    *si = value;
  return TRUE;
}

char *
hyd_param_value_describe_profile (JsonNode *written)
{
  if (written == NULL || !JSON_NODE_HOLDS_OBJECT (written))
    return NULL;
  g_autoptr (HydProfile) profile = hyd_profile_new_from_json (written, NULL);
  if (profile == NULL)
    return g_strdup (_("invalid profile"));

  g_autoptr (GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  hyd_profile_collect_breakpoints (profile, times);
  switch (hyd_profile_get_kind (profile))
    {
    case HYD_PROFILE_STEP:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "step profile, %u change",
                                           "step profile, %u changes", times->len), times->len);
    case HYD_PROFILE_RAMP:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "ramp profile, %u breakpoint",
                                           "ramp profile, %u breakpoints", times->len), times->len);
    case HYD_PROFILE_TABLE:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "table profile, %u breakpoint",
                                           "table profile, %u breakpoints", times->len), times->len);
    case HYD_PROFILE_SINE:
      return g_strdup (_("sine profile"));
    case HYD_PROFILE_CONSTANT:
    default:
      return NULL;
    }
}

/* A typical magnitude per unit kind: the span of a slider when the range
 * itself is open or far wider than anything useful. */
static double
slider_span (HydUnit unit)
{
  switch (unit)
    {
    case HYD_UNIT_PRESSURE: return 2e7;           /* 200 bar */
    case HYD_UNIT_FLOW: return 1.6667e-3;         /* 100 L/min */
    case HYD_UNIT_ANGULAR_VELOCITY: return 314.16; /* 3000 rpm */
    case HYD_UNIT_FORCE: return 2e4;              /* 20 kN */
    case HYD_UNIT_TORQUE: return 100;
    default: return 1;
    }
}

void
hyd_param_value_slider_range (const HydParamInfo *info, double value, double *lo, double *hi)
{
  double span = MAX (slider_span (info->unit), 4 * fabs (value));
  *lo = isfinite (info->min) ? info->min : -span;
  *hi = isfinite (info->max) ? info->max : span;
  if (*hi - *lo > 4 * span)
    {
      /* a range such as a pressure source's −1 … 10 000 bar: keep the part
       * around the value */
      *lo = MAX (*lo, MIN (value, 0) - (value < 0 ? span : 0));
      *hi = MIN (*hi, MAX (value, 0) + span);
    }
  if (!(*hi > *lo))
    *hi = *lo + 1;
}
