/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-display-units.h — the one place where SI values become engineering
 * units on screen (bar, L/min, mm, cm³/rev, rpm, kN ...) and back.
 * The engine and the files stay SI (spec/circuit-format.md, Units). */
#pragma once

#include <glib.h>
#include "hyd-units.h"

G_BEGIN_DECLS

const HydDisplayUnit *hyd_display_unit_for (HydUnit unit);
double hyd_display_from_si (HydUnit unit, double si);
double hyd_display_to_si (HydUnit unit, double shown);
/* "150 bar", "40.0 L/min" (locale-aware number) */
char *hyd_display_format (HydUnit unit, double si);
/* Parse text typed by the user in display units ("150", "150 bar", also SI
 * with its SI symbol: "1.5e7 Pa"); FALSE when it is not a number. */
gboolean hyd_display_parse (HydUnit unit, const char *text, double *si);

/* The quantity a kind of unit measures, translated, as the plots' axes
 * name it ("Pressure"; "Value" for dimensionless). */
const char *hyd_display_quantity_name (HydUnit unit);
/* The display symbol alone ("bar"; "" for dimensionless). */
const char *hyd_display_symbol (HydUnit unit);
/* The number alone, in display units, without the symbol ("40.0"), for entry
 * fields that show the unit beside them. */
char *hyd_display_format_value (HydUnit unit, double si);
/* A number already in display units with that many significant digits,
 * locale-aware ("0.0500", "1.50e-06"; "—" for NaN). */
char *hyd_display_format_number (double shown, int digits);

G_END_DECLS
