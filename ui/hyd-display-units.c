/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-display-units.c — SI ⇄ engineering display units.
 *
 * The choices, per unit kind, are those a fluid-power engineer reads off a
 * gauge, a data sheet or a catalogue:
 *   pressure bar; flow L/min; position and length mm; area cm² (piston areas
 *   in catalogues); velocity m/s (cylinder speeds are quoted in m/s, 0.05 to
 *   0.5 m/s, and rod speeds of a few mm/s still read well as 0.00500 m/s);
 *   angle deg; angular velocity rpm; volume L (accumulators and reservoirs are
 *   sized in litres; a 1 cm³ dead volume shows as 0.00100 L — one unit for all
 *   volumes keeps the property panel and the plots consistent); displacement
 *   cm³/rev; leakage (L/min)/bar; force kN; torque N·m; power kW; mass kg;
 *   inertia kg·m²; stiffness N/mm; damping N·s/m; rotary damping N·m·s/rad;
 *   time s; natural frequency rad/s; density kg/m³; kinematic viscosity cSt
 *   (= mm²/s); generic rate 1/s.
 *
 * Formatting keeps the kind's significant digits with trailing zeros (a gauge
 * shows "40.0 L/min", not "40 L/min"), plain decimals between 1e-4 and 1e15
 * and an exponent outside, with the locale's decimal separator.  Parsing
 * accepts the number in display units, followed by nothing, the display
 * symbol, the SI symbol or one of a few common alternatives (MPa, psi, mm/s,
 * cc/rev ...); the locale's decimal separator and '.' are both accepted, and
 * so is the decimal separator of the language the interface speaks (a German
 * interface on a C or English locale still takes "0,1"). */
#include "bramah-config.h"
#include "hyd-display-units.h"

#include <glib/gi18n-lib.h>

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RAD_PER_REV (2.0 * G_PI)


/* Other symbols the parser understands: shown-in-that-unit = si·scale. The
 * display and SI symbols of each kind are always accepted; these are spelling
 * variants (ASCII for ², ³ and ·) and units a user may have at hand. */
typedef struct {
  HydUnit unit;
  const char *symbol;
  double scale;
} UnitAlias;

static const UnitAlias unit_aliases[] = {
  { HYD_UNIT_PRESSURE, "kPa", 1e-3 },
  { HYD_UNIT_PRESSURE, "MPa", 1e-6 },
  { HYD_UNIT_PRESSURE, "psi", 1.0 / 6894.757293168 },
  { HYD_UNIT_FLOW, "l/min", 6e4 },
  { HYD_UNIT_FLOW, "lpm", 6e4 },
  { HYD_UNIT_FLOW, "L/s", 1e3 },
  { HYD_UNIT_FLOW, "l/s", 1e3 },
  { HYD_UNIT_FLOW, "m3/s", 1.0 },
  { HYD_UNIT_FLOW, "cm³/s", 1e6 },
  { HYD_UNIT_FLOW, "cm3/s", 1e6 },
  { HYD_UNIT_POSITION, "cm", 1e2 },
  { HYD_UNIT_POSITION, "µm", 1e6 },
  { HYD_UNIT_POSITION, "um", 1e6 },
  { HYD_UNIT_LENGTH, "cm", 1e2 },
  { HYD_UNIT_LENGTH, "µm", 1e6 },
  { HYD_UNIT_LENGTH, "um", 1e6 },
  { HYD_UNIT_VELOCITY, "mm/s", 1e3 },
  { HYD_UNIT_ANGLE, "°", 180.0 / G_PI },
  { HYD_UNIT_ANGLE, "rev", 1.0 / RAD_PER_REV },
  { HYD_UNIT_ANGULAR_VELOCITY, "rev/min", 60.0 / RAD_PER_REV },
  { HYD_UNIT_ANGULAR_VELOCITY, "min⁻¹", 60.0 / RAD_PER_REV },
  { HYD_UNIT_ANGULAR_VELOCITY, "1/min", 60.0 / RAD_PER_REV },
  { HYD_UNIT_ANGULAR_VELOCITY, "rev/s", 1.0 / RAD_PER_REV },
  { HYD_UNIT_AREA, "cm2", 1e4 },
  { HYD_UNIT_AREA, "mm²", 1e6 },
  { HYD_UNIT_AREA, "mm2", 1e6 },
  { HYD_UNIT_AREA, "m2", 1.0 },
  { HYD_UNIT_VOLUME, "l", 1e3 },
  { HYD_UNIT_VOLUME, "cm³", 1e6 },
  { HYD_UNIT_VOLUME, "cm3", 1e6 },
  { HYD_UNIT_VOLUME, "mL", 1e6 },
  { HYD_UNIT_VOLUME, "ml", 1e6 },
  { HYD_UNIT_VOLUME, "m3", 1.0 },
  { HYD_UNIT_DISPLACEMENT, "cm3/rev", 1e6 * RAD_PER_REV },
  { HYD_UNIT_DISPLACEMENT, "cc/rev", 1e6 * RAD_PER_REV },
  { HYD_UNIT_DISPLACEMENT, "cc", 1e6 * RAD_PER_REV },
  { HYD_UNIT_DISPLACEMENT, "m3/rad", 1.0 },
  { HYD_UNIT_LEAKAGE, "L/min/bar", 6e4 * 1e5 },
  { HYD_UNIT_LEAKAGE, "l/min/bar", 6e4 * 1e5 },
  { HYD_UNIT_LEAKAGE, "(l/min)/bar", 6e4 * 1e5 },
  { HYD_UNIT_LEAKAGE, "m3/(s·Pa)", 1.0 },
  { HYD_UNIT_LEAKAGE, "m3/(s*Pa)", 1.0 },
  { HYD_UNIT_LEAKAGE, "m³/(s*Pa)", 1.0 },
  { HYD_UNIT_FORCE, "MN", 1e-6 },
  { HYD_UNIT_TORQUE, "Nm", 1.0 },
  { HYD_UNIT_TORQUE, "N*m", 1.0 },
  { HYD_UNIT_TORQUE, "kN·m", 1e-3 },
  { HYD_UNIT_TORQUE, "kNm", 1e-3 },
  { HYD_UNIT_POWER, "MW", 1e-6 },
  { HYD_UNIT_MASS, "g", 1e3 },
  { HYD_UNIT_MASS, "t", 1e-3 },
  { HYD_UNIT_INERTIA, "kg*m²", 1.0 },
  { HYD_UNIT_INERTIA, "kg·m2", 1.0 },
  { HYD_UNIT_INERTIA, "kg*m2", 1.0 },
  { HYD_UNIT_INERTIA, "kgm2", 1.0 },
  { HYD_UNIT_STIFFNESS, "kN/mm", 1e-6 },
  { HYD_UNIT_STIFFNESS, "kN/m", 1e-3 },
  { HYD_UNIT_DAMPING, "N*s/m", 1.0 },
  { HYD_UNIT_DAMPING, "Ns/m", 1.0 },
  { HYD_UNIT_DAMPING, "kN·s/m", 1e-3 },
  { HYD_UNIT_ROT_DAMPING, "N*m*s/rad", 1.0 },
  { HYD_UNIT_ROT_DAMPING, "Nms/rad", 1.0 },
  { HYD_UNIT_ROT_STIFFNESS, "N*m/rad", 1.0 },
  { HYD_UNIT_ROT_STIFFNESS, "Nm/rad", 1.0 },
  { HYD_UNIT_TIME, "ms", 1e3 },
  { HYD_UNIT_TIME, "min", 1.0 / 60.0 },
  { HYD_UNIT_FREQUENCY, "Hz", 1.0 / RAD_PER_REV },
  { HYD_UNIT_FREQUENCY, "1/s", 1.0 },
  { HYD_UNIT_DENSITY, "kg/m3", 1.0 },
  { HYD_UNIT_DENSITY, "g/cm³", 1e-3 },
  { HYD_UNIT_DENSITY, "g/cm3", 1e-3 },
  { HYD_UNIT_VISCOSITY, "mm²/s", 1e6 },
  { HYD_UNIT_VISCOSITY, "mm2/s", 1e6 },
  { HYD_UNIT_VISCOSITY, "m2/s", 1.0 },
  { HYD_UNIT_FLOW_RATE_PER_S, "s⁻¹", 1.0 },
  { HYD_UNIT_FLOW_RATE_PER_S, "Hz", 1.0 },
};

/* Plain decimals (no exponent) for magnitudes in [1e-4, 1e15). */
#define PLAIN_MIN_EXPONENT (-4)
#define PLAIN_MAX_EXPONENT 15

static HydUnit
valid_unit (HydUnit unit)
{
  return (guint) unit < HYD_UNIT_N_KINDS ? unit : HYD_UNIT_NONE;
}

const HydDisplayUnit *
hyd_display_unit_for (HydUnit unit)
{
  g_return_val_if_fail ((guint) unit < HYD_UNIT_N_KINDS, hyd_unit_display (HYD_UNIT_NONE));
  return hyd_unit_display (unit);
}

/* The quantity of each kind, as the plots' axes and the CSV exports name
 * it (translatable: the engine's unit names are identifiers). */
static const char *const quantity_names[HYD_UNIT_N_KINDS] = {
  [HYD_UNIT_NONE] = N_("Value"),
  [HYD_UNIT_PRESSURE] = N_("Pressure"),
  [HYD_UNIT_FLOW] = N_("Flow"),
  [HYD_UNIT_POSITION] = N_("Position"),
  [HYD_UNIT_LENGTH] = N_("Length"),
  [HYD_UNIT_VELOCITY] = N_("Velocity"),
  [HYD_UNIT_ANGLE] = N_("Angle"),
  [HYD_UNIT_ANGULAR_VELOCITY] = N_("Angular velocity"),
  [HYD_UNIT_AREA] = N_("Area"),
  [HYD_UNIT_VOLUME] = N_("Volume"),
  [HYD_UNIT_DISPLACEMENT] = N_("Displacement"),
  [HYD_UNIT_LEAKAGE] = N_("Leakage"),
  [HYD_UNIT_FORCE] = N_("Force"),
  [HYD_UNIT_TORQUE] = N_("Torque"),
  [HYD_UNIT_POWER] = N_("Power"),
  [HYD_UNIT_MASS] = N_("Mass"),
  [HYD_UNIT_INERTIA] = N_("Inertia"),
  [HYD_UNIT_STIFFNESS] = N_("Stiffness"),
  [HYD_UNIT_DAMPING] = N_("Damping"),
  [HYD_UNIT_ROT_DAMPING] = N_("Rotary damping"),
  [HYD_UNIT_TIME] = N_("Time"),
  [HYD_UNIT_FREQUENCY] = N_("Frequency"),
  [HYD_UNIT_DENSITY] = N_("Density"),
  [HYD_UNIT_VISCOSITY] = N_("Viscosity"),
  [HYD_UNIT_FLOW_RATE_PER_S] = N_("Rate"),
  [HYD_UNIT_ROT_STIFFNESS] = N_("Torsional stiffness"),
};

const char *
hyd_display_quantity_name (HydUnit unit)
{
  const char *name = quantity_names[valid_unit (unit)];
  return name ? _(name) : _("Value");
}

const char *
hyd_display_symbol (HydUnit unit)
{
  return hyd_display_unit_for (unit)->symbol;
}

double
hyd_display_from_si (HydUnit unit, double si)
{
  return hyd_display_value (valid_unit (unit), si);
}

double
hyd_display_to_si (HydUnit unit, double shown)
{
  const HydDisplayUnit *du = hyd_unit_display (valid_unit (unit));
  return (shown - du->offset) / du->scale;
}

char *
hyd_display_format_number (double value, int digits)
{
  if (isnan (value))
    return g_strdup ("—");
  if (isinf (value))
    return g_strdup (value > 0 ? "∞" : "−∞");
  digits = CLAMP (digits, 1, 17);
  if (value == 0.0)
    {
      /* "0", "0.00" reads as a measured zero with the kind's precision */
      return digits > 1 ? g_strdup_printf ("%.*f", digits - 1, 0.0) : g_strdup ("0");
    }

  /* Round first, then take the exponent: 9.996 at 3 digits is 10.0. */
  char probe[64];
  g_snprintf (probe, sizeof probe, "%.*e", digits - 1, value);
  const char *e = strchr (probe, 'e');
  int exponent = e ? atoi (e + 1) : 0;

  if (exponent < PLAIN_MIN_EXPONENT || exponent >= PLAIN_MAX_EXPONENT)
    return g_strdup_printf ("%.*e", digits - 1, value);
  int decimals = MAX (digits - 1 - exponent, 0);
  return g_strdup_printf ("%.*f", decimals, value);
}

char *
hyd_display_format_value (HydUnit unit, double si)
{
  const HydDisplayUnit *du = hyd_unit_display (valid_unit (unit));
  return hyd_display_format_number (hyd_display_from_si (unit, si), du->digits);
}

char *
hyd_display_format (HydUnit unit, double si)
{
  const HydDisplayUnit *du = hyd_unit_display (valid_unit (unit));
  g_autofree char *number = hyd_display_format_value (unit, si);
  if (du->symbol[0] == '\0' || !isfinite (si))
    return g_steal_pointer (&number);
  return g_strdup_printf ("%s %s", number, du->symbol);
}

/* The scale (shown = si·scale) of a symbol typed after a number for this kind,
 * or FALSE when the symbol does not measure this kind. */
static gboolean
lookup_symbol (HydUnit unit, const char *symbol, double *scale, double *offset)
{
  const HydDisplayUnit *du = hyd_unit_display (unit);
  if (symbol[0] == '\0' || strcmp (symbol, du->symbol) == 0)
    {
      *scale = du->scale;
      *offset = du->offset;
      return TRUE;
    }
  if (strcmp (symbol, hyd_unit_symbol (unit)) == 0)
    {
      *scale = 1.0;
      *offset = 0.0;
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (unit_aliases); i++)
    if (unit_aliases[i].unit == unit && strcmp (symbol, unit_aliases[i].symbol) == 0)
      {
        *scale = unit_aliases[i].scale;
        *offset = 0.0;
        return TRUE;
      }
  return FALSE;
}

/* The k with scale = 10^k exactly as the literal 1e<k> rounds, if any. */
static gboolean
power_of_ten (double scale, int *k)
{
  for (int e = -12; e <= 12; e++)
    {
      char literal[8];
      g_snprintf (literal, sizeof literal, "1e%d", e);
      if (g_ascii_strtod (literal, NULL) == scale)
        {
          *k = e;
          return TRUE;
        }
    }
  return FALSE;
}

/* A decimal number shown in a unit 10^k times SI, in SI: its decimal
 * exponent shifted by −k before it is rounded to a double, so that
 * "0.065 mm" is 6.5e-05 m, as written, where dividing the double 0.065 by
 * 1000 gives 6.500000000000001e-05 (a quarter of three-decimal numbers do
 * that). `number` is what g_ascii_strtod read (digits, a point, an
 * exponent). Returns FALSE when it does not look like that. */
static gboolean
shift_decimal (const char *number, gsize length, int k, double *out)
{
  gsize mantissa = 0;
  while (mantissa < length && number[mantissa] != 'e' && number[mantissa] != 'E')
    {
      if (!g_ascii_isdigit (number[mantissa]) && number[mantissa] != '.' && number[mantissa] != '+'
          && number[mantissa] != '-')
        return FALSE;
      mantissa++;
    }
  gint64 exponent = 0;
  if (mantissa < length)
    {
      g_autofree char *e = g_strndup (number + mantissa + 1, length - mantissa - 1);
      if (!g_ascii_string_to_signed (e, 10, -100000, 100000, &exponent, NULL))
        return FALSE;
    }
  g_autofree char *shifted = g_strdup_printf ("%.*se%" G_GINT64_FORMAT, (int) mantissa, number, exponent - k);
  char *end = NULL;
  double value = g_ascii_strtod (shifted, &end);
  if (end == NULL || *end != '\0')
    return FALSE;
  *out = value;
  return TRUE;
}

gboolean
hyd_display_parse (HydUnit unit, const char *text, double *si)
{
  g_return_val_if_fail (text != NULL, FALSE);
  unit = valid_unit (unit);

  g_autofree char *copy = g_strstrip (g_strdup (text));
  if (copy[0] == '\0')
    return FALSE;

  /* The locale's decimal separator becomes '.', so "1,5" parses in German;
   * '.' is always accepted as well. */
  const char *decimal = localeconv ()->decimal_point;
  if (decimal && decimal[0] != '\0' && strcmp (decimal, ".") != 0 && decimal[1] == '\0')
    for (char *p = copy; *p && !g_ascii_isalpha (*p); p++)
      if (*p == decimal[0])
        *p = '.';
  /* translators: the decimal separator people type in your language: "." or
   * ","; fields then accept it as well as "." (never as a thousands
   * separator) */
  const char *spoken = C_ ("decimal separator", ".");
  if (spoken[0] != '\0' && spoken[0] != '.' && spoken[1] == '\0' && !g_ascii_isalnum (spoken[0]))
    for (char *p = copy; *p && !g_ascii_isalpha (*p); p++)
      if (*p == spoken[0])
        *p = '.';

  /* A typographic minus sign is a minus sign. */
  const char *number = copy;
  gboolean negate = FALSE;
  if (g_str_has_prefix (number, "−"))
    {
      negate = TRUE;
      number += strlen ("−");
    }

  char *end = NULL;
  double shown = g_ascii_strtod (number, &end);
  if (end == number || !isfinite (shown))
    return FALSE;
  if (negate)
    shown = -shown;

  g_autofree char *symbol = g_strstrip (g_strdup (end));
  double scale, offset;
  if (!lookup_symbol (unit, symbol, &scale, &offset))
    return FALSE;

  double value = (shown - offset) / scale;
  int k;
  double exact;
  if (offset == 0.0 && scale != 1.0 && power_of_ten (scale, &k)
      && shift_decimal (number, (gsize) (end - number), k, &exact))
    value = negate ? -exact : exact;
  if (!isfinite (value))
    return FALSE;
  if (si)
    *si = value;
  return TRUE;
}
