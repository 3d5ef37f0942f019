/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-param-value.h — a component parameter as the property panel shows it:
 * its value and range in engineering units (through hyd-display-units, the
 * one place where units are converted) and the check of what the user
 * types. No GTK here: tested headless. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "hyd-component.h"

G_BEGIN_DECLS

/* The number shown in an entry for an SI value, in display units, without
 * the unit ("150" for 1.5e7 Pa). */
char *hyd_param_value_format (const HydParamInfo *info, double si);
/* The display unit's symbol ("bar"), "" for dimensionless parameters. */
const char *hyd_param_value_unit (const HydParamInfo *info);
/* The range the editor accepts, in SI: the catalogue's, with an open side
 * closed at a plausible magnitude for the unit (10 000 bar, 100 000 L,
 * 10 km ...), so that a slip of the keyboard (1e30 L) is refused. */
void hyd_param_value_bounds (const HydParamInfo *info, double *min, double *max);
/* That range in display units, for tooltips and messages:
 * "between 0 and 1", "more than 0 bar and at most 10000 bar",
 * "at most 1e+09 N". */
char *hyd_param_value_describe_range (const HydParamInfo *info);
gboolean hyd_param_value_in_range (const HydParamInfo *info, double si);
/* Parse text typed in display units (or SI with its symbol) and check it
 * against the range. On failure *message says why (translated). */
gboolean hyd_param_value_parse (const HydParamInfo *info, const char *text, double *si, char **message);
/* Clamp to the range (for live sliders). */
double hyd_param_value_clamp (const HydParamInfo *info, double si);
/* The span of a slider for a value (SI): the parameter's range, or where
 * it is open or far wider than anything useful a typical magnitude of the
 * unit (200 bar, 100 L/min, 3000 rpm, 20 kN ...) or four times the value
 * around it. */
void hyd_param_value_slider_range (const HydParamInfo *info, double value, double *lo, double *hi);

/* Whether leaving the parameter out of the file is a state of its own that
 * no number shows: an optional parameter (unset), or one whose default is
 * ±∞ (no limit). Its field is then empty, and an empty field is fine. */
gboolean hyd_param_value_may_be_unset (const HydParamInfo *info);
/* The value in force of a numeric parameter of a component as written
 * (number), its default when left out, or the profile's value just after
 * t = 0. FALSE for an enum, and for a parameter left out that may be unset
 * (hyd_param_value_may_be_unset: optional, or no limit by default). `fluid_cd` is the
 * fluid's discharge coefficient for HYD_PARAM_FLUID_CD defaults. */
gboolean hyd_param_value_get (const HydParamInfo *info, JsonNode *written, double fluid_cd, double *si);
/* A short description of a profile object ("step, 4 changes"), or NULL
 * when `written` is not a profile. */
char *hyd_param_value_describe_profile (JsonNode *written);

G_END_DECLS
