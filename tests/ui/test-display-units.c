/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-display-units.c — SI ⇄ engineering display units (no display). */
#include <locale.h>
#include <math.h>
#include "hyd-display-units.h"

typedef struct {
  HydUnit unit;
  double si;
  double shown;
  const char *symbol;
} UnitCase;

/* one known conversion per kind */
static const UnitCase unit_cases[] = {
  { HYD_UNIT_NONE, 0.5, 0.5, "" },
  { HYD_UNIT_PRESSURE, 1.5e7, 150.0, "bar" },
  { HYD_UNIT_FLOW, 40.0 / 60000.0, 40.0, "L/min" },
  { HYD_UNIT_POSITION, 0.2, 200.0, "mm" },
  { HYD_UNIT_LENGTH, 0.012, 12.0, "mm" },
  { HYD_UNIT_VELOCITY, 0.25, 0.25, "m/s" },
  { HYD_UNIT_ANGLE, G_PI / 2, 90.0, "deg" },
  { HYD_UNIT_ANGULAR_VELOCITY, 1500.0 * 2 * G_PI / 60.0, 1500.0, "rpm" },
  { HYD_UNIT_AREA, 19.635e-4, 19.635, "cm²" },
  { HYD_UNIT_VOLUME, 2.5e-3, 2.5, "L" },
  { HYD_UNIT_DISPLACEMENT, 28e-6 / (2 * G_PI), 28.0, "cm³/rev" },
  { HYD_UNIT_LEAKAGE, 1e-12, 6e-3, "(L/min)/bar" },
  { HYD_UNIT_FORCE, 12500.0, 12.5, "kN" },
  { HYD_UNIT_TORQUE, 80.0, 80.0, "N·m" },
  { HYD_UNIT_POWER, 7500.0, 7.5, "kW" },
  { HYD_UNIT_MASS, 120.0, 120.0, "kg" },
  { HYD_UNIT_INERTIA, 0.05, 0.05, "kg·m²" },
  { HYD_UNIT_STIFFNESS, 2e5, 200.0, "N/mm" },
  { HYD_UNIT_DAMPING, 3000.0, 3000.0, "N·s/m" },
  { HYD_UNIT_ROT_DAMPING, 0.01, 0.01, "N·m·s/rad" },
  { HYD_UNIT_TIME, 2.0, 2.0, "s" },
  { HYD_UNIT_FREQUENCY, 600.0, 600.0, "rad/s" },
  { HYD_UNIT_DENSITY, 870.0, 870.0, "kg/m³" },
  { HYD_UNIT_VISCOSITY, 46e-6, 46.0, "cSt" },
  { HYD_UNIT_FLOW_RATE_PER_S, 3.0, 3.0, "1/s" },
  { HYD_UNIT_ROT_STIFFNESS, 1000.0, 1000.0, "N·m/rad" },
};

static void
test_every_kind (void)
{
  g_assert_cmpuint (G_N_ELEMENTS (unit_cases), ==, HYD_UNIT_N_KINDS);
  for (guint i = 0; i < G_N_ELEMENTS (unit_cases); i++)
    {
      const UnitCase *c = &unit_cases[i];
      const HydDisplayUnit *du = hyd_display_unit_for (c->unit);
      g_assert_nonnull (du);
      g_assert_cmpstr (du->symbol, ==, c->symbol);
      g_assert_cmpint (du->digits, >=, 2);
      double shown = hyd_display_from_si (c->unit, c->si);
      g_assert_cmpfloat_with_epsilon (shown, c->shown, 1e-9 * MAX (1.0, fabs (c->shown)));
    }
}

static void
test_round_trip (void)
{
  static const double values[] = { 0.0, 1.0, -1.0, 1e-9, 3.7e-4, 123.456, -5.5e6, 1e12 };
  for (guint u = 0; u < HYD_UNIT_N_KINDS; u++)
    for (guint i = 0; i < G_N_ELEMENTS (values); i++)
      {
        double si = values[i];
        double back = hyd_display_to_si (u, hyd_display_from_si (u, si));
        g_assert_cmpfloat_with_epsilon (back, si, 1e-12 * MAX (1.0, fabs (si)));
      }
}

typedef struct {
  HydUnit unit;
  double si;
  const char *text;
} FormatCase;

static void
test_format (void)
{
  static const FormatCase cases[] = {
    { HYD_UNIT_PRESSURE, 1.5e7, "150 bar" },
    { HYD_UNIT_FLOW, 40.0 / 60000.0, "40.0 L/min" },
    { HYD_UNIT_PRESSURE, 0.0, "0.00 bar" },
    { HYD_UNIT_PRESSURE, 99960.0, "1.00 bar" },         /* rounds up to the next decade */
    { HYD_UNIT_PRESSURE, -2.5e5, "-2.50 bar" },
    { HYD_UNIT_PRESSURE, 3.5e8, "3500 bar" },           /* no exponent for big plain values */
    { HYD_UNIT_POSITION, 0.0123456, "12.35 mm" },
    { HYD_UNIT_ANGULAR_VELOCITY, 1500.0 * 2 * G_PI / 60.0, "1500 rpm" },
    { HYD_UNIT_DISPLACEMENT, 28e-6 / (2 * G_PI), "28.0 cm³/rev" },
    { HYD_UNIT_LEAKAGE, 1e-14, "6.00e-05 (L/min)/bar" },
    { HYD_UNIT_FORCE, 12500.0, "12.5 kN" },
    { HYD_UNIT_NONE, 0.5, "0.5000" },
    { HYD_UNIT_PRESSURE, NAN, "—" },
    { HYD_UNIT_PRESSURE, INFINITY, "∞" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *s = hyd_display_format (cases[i].unit, cases[i].si);
      g_assert_cmpstr (s, ==, cases[i].text);
    }
  g_autofree char *v = hyd_display_format_value (HYD_UNIT_FLOW, 1e-3);
  g_assert_cmpstr (v, ==, "60.0");
  g_assert_cmpstr (hyd_display_symbol (HYD_UNIT_VISCOSITY), ==, "cSt");
  g_autofree char *n = hyd_display_format_number (1.5e-6, 3);
  g_assert_cmpstr (n, ==, "1.50e-06");
}

typedef struct {
  HydUnit unit;
  const char *text;
  gboolean ok;
  double si;
} ParseCase;

static void
test_parse (void)
{
  static const ParseCase cases[] = {
    { HYD_UNIT_PRESSURE, "150", TRUE, 1.5e7 },
    { HYD_UNIT_PRESSURE, "  150 bar ", TRUE, 1.5e7 },
    { HYD_UNIT_PRESSURE, "150bar", TRUE, 1.5e7 },
    { HYD_UNIT_PRESSURE, "1.5e7 Pa", TRUE, 1.5e7 },
    { HYD_UNIT_PRESSURE, "15 MPa", TRUE, 1.5e7 },
    { HYD_UNIT_PRESSURE, "−2 bar", TRUE, -2e5 },
    { HYD_UNIT_PRESSURE, "-2", TRUE, -2e5 },
    { HYD_UNIT_PRESSURE, "150 mm", FALSE, 0 },
    { HYD_UNIT_PRESSURE, "bar", FALSE, 0 },
    { HYD_UNIT_PRESSURE, "", FALSE, 0 },
    { HYD_UNIT_PRESSURE, "nan", FALSE, 0 },
    { HYD_UNIT_PRESSURE, "inf bar", FALSE, 0 },
    { HYD_UNIT_PRESSURE, "1.2.3", FALSE, 0 },
    { HYD_UNIT_FLOW, "40", TRUE, 40.0 / 60000.0 },
    { HYD_UNIT_FLOW, "40 L/min", TRUE, 40.0 / 60000.0 },
    { HYD_UNIT_FLOW, "40 l/min", TRUE, 40.0 / 60000.0 },
    { HYD_UNIT_FLOW, "6.667e-4 m³/s", TRUE, 6.667e-4 },
    { HYD_UNIT_POSITION, "200", TRUE, 0.2 },
    { HYD_UNIT_POSITION, "0.2 m", TRUE, 0.2 },
    { HYD_UNIT_VELOCITY, "50 mm/s", TRUE, 0.05 },
    { HYD_UNIT_ANGLE, "90 °", TRUE, G_PI / 2 },
    { HYD_UNIT_ANGULAR_VELOCITY, "1500 rpm", TRUE, 50 * G_PI },
    { HYD_UNIT_ANGULAR_VELOCITY, "157.0796 rad/s", TRUE, 157.0796 },
    { HYD_UNIT_DISPLACEMENT, "28", TRUE, 28e-6 / (2 * G_PI) },
    { HYD_UNIT_DISPLACEMENT, "28 cm³/rev", TRUE, 28e-6 / (2 * G_PI) },
    { HYD_UNIT_DISPLACEMENT, "4.456e-6 m³/rad", TRUE, 4.456e-6 },
    { HYD_UNIT_VOLUME, "2.5 L", TRUE, 2.5e-3 },
    { HYD_UNIT_VOLUME, "100 cm³", TRUE, 1e-4 },
    { HYD_UNIT_FORCE, "12.5 kN", TRUE, 12500.0 },
    { HYD_UNIT_FORCE, "12500 N", TRUE, 12500.0 },
    { HYD_UNIT_STIFFNESS, "200 N/mm", TRUE, 2e5 },
    { HYD_UNIT_STIFFNESS, "2e5 N/m", TRUE, 2e5 },
    { HYD_UNIT_VISCOSITY, "46 cSt", TRUE, 46e-6 },
    { HYD_UNIT_VISCOSITY, "46 mm²/s", TRUE, 46e-6 },
    { HYD_UNIT_VISCOSITY, "4.6e-5 m²/s", TRUE, 4.6e-5 },
    { HYD_UNIT_LEAKAGE, "0.006 (L/min)/bar", TRUE, 1e-12 },
    { HYD_UNIT_NONE, "0.7", TRUE, 0.7 },
    { HYD_UNIT_NONE, "0.7 bar", FALSE, 0 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const ParseCase *c = &cases[i];
      double si = -12345.0;
      gboolean ok = hyd_display_parse (c->unit, c->text, &si);
      if (ok != c->ok)
        g_error ("parsing '%s': expected %s", c->text, c->ok ? "success" : "failure");
      if (ok)
        g_assert_cmpfloat_with_epsilon (si, c->si, 1e-9 * MAX (fabs (c->si), 1e-300));
    }
}

/* A decimal typed in a unit that is a power of ten of SI gives the double
 * nearest the decimal in SI, as the file then says what was typed: 0.065
 * mm is 6.5e-05 m, where 0.065 / 1000 is 6.500000000000001e-05. */
static void
test_parse_exact_decimal (void)
{
  static const ParseCase cases[] = {
    { HYD_UNIT_LENGTH, "0.065", TRUE, 6.5e-05 },
    { HYD_UNIT_LENGTH, "0.065 mm", TRUE, 6.5e-05 },
    { HYD_UNIT_LENGTH, "−0.065", TRUE, -6.5e-05 },
    { HYD_UNIT_LENGTH, "-0.065", TRUE, -6.5e-05 },
    { HYD_UNIT_LENGTH, "6.5e-2", TRUE, 6.5e-05 },
    { HYD_UNIT_LENGTH, "650E-4 mm", TRUE, 6.5e-05 },
    { HYD_UNIT_LENGTH, "0.0065e+1", TRUE, 6.5e-05 },
    { HYD_UNIT_LENGTH, "0x10", TRUE, 0.016 },
    { HYD_UNIT_LENGTH, "0.013 cm", TRUE, 1.3e-04 },
    { HYD_UNIT_LENGTH, "0.065 m", TRUE, 0.065 },
    { HYD_UNIT_PRESSURE, "3.3", TRUE, 3.3e5 },
    { HYD_UNIT_PRESSURE, "0.7 kPa", TRUE, 700.0 },
    { HYD_UNIT_PRESSURE, "1.1 MPa", TRUE, 1.1e6 },
    { HYD_UNIT_VOLUME, "0.029 L", TRUE, 2.9e-05 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const ParseCase *c = &cases[i];
      double si = -12345.0;
      g_assert_true (hyd_display_parse (c->unit, c->text, &si));
      if (si != c->si)
        g_error ("parsing '%s': %.17g, not %.17g", c->text, si, c->si);
    }
}

/* Whatever a value formats to, parsing it gives the value back to the
 * precision shown. */
static void
test_format_parse_round_trip (void)
{
  static const double values[] = { 1.0, -3.25, 0.00123, 987.654, 1e-8, 4.2e9 };
  for (guint u = 0; u < HYD_UNIT_N_KINDS; u++)
    for (guint i = 0; i < G_N_ELEMENTS (values); i++)
      {
        double si = hyd_display_to_si (u, values[i]);
        g_autofree char *text = hyd_display_format (u, si);
        double back;
        g_assert_true (hyd_display_parse (u, text, &back));
        int digits = hyd_display_unit_for (u)->digits;
        g_assert_cmpfloat_with_epsilon (back, si, fabs (si) * pow (10, 1 - digits));
      }
}

/* The locale's decimal separator is used and accepted. */
static void
test_locale (void)
{
  static const char *const locales[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "de_DE" };
  const char *found = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (locales) && !found; i++)
    if (setlocale (LC_NUMERIC, locales[i]))
      found = locales[i];
  if (!found)
    {
      g_test_skip ("no locale with a decimal comma is installed");
      return;
    }
  g_autofree char *s = hyd_display_format (HYD_UNIT_FLOW, 40.0 / 60000.0);
  g_assert_cmpstr (s, ==, "40,0 L/min");
  double si;
  g_assert_true (hyd_display_parse (HYD_UNIT_PRESSURE, "1,5 bar", &si));
  g_assert_cmpfloat_with_epsilon (si, 1.5e5, 1e-6);
  g_assert_true (hyd_display_parse (HYD_UNIT_PRESSURE, "1.5", &si));
  g_assert_cmpfloat_with_epsilon (si, 1.5e5, 1e-6);
  setlocale (LC_NUMERIC, "C");
}

int
main (int argc, char *argv[])
{
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/display-units/every-kind", test_every_kind);
  g_test_add_func ("/ui/display-units/round-trip", test_round_trip);
  g_test_add_func ("/ui/display-units/format", test_format);
  g_test_add_func ("/ui/display-units/parse", test_parse);
  g_test_add_func ("/ui/display-units/parse-exact-decimal", test_parse_exact_decimal);
  g_test_add_func ("/ui/display-units/format-parse", test_format_parse_round_trip);
  g_test_add_func ("/ui/display-units/locale", test_locale);
  return g_test_run ();
}
