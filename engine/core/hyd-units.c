/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-units.c — unit kinds: symbols, names, default tolerances. */
#include "hyd-units.h"
#include "hyd-i18n.h"

static const struct {
  const char *symbol;
  const char *name;
} unit_table[HYD_UNIT_N_KINDS] = {
  [HYD_UNIT_NONE] = { "", N_("dimensionless") },
  [HYD_UNIT_PRESSURE] = { "Pa", N_("pressure") },
  [HYD_UNIT_FLOW] = { "m³/s", N_("flow") },
  [HYD_UNIT_POSITION] = { "m", N_("position") },
  [HYD_UNIT_LENGTH] = { "m", N_("length") },
  [HYD_UNIT_VELOCITY] = { "m/s", N_("velocity") },
  [HYD_UNIT_ANGLE] = { "rad", N_("angle") },
  [HYD_UNIT_ANGULAR_VELOCITY] = { "rad/s", N_("angular_velocity") },
  [HYD_UNIT_AREA] = { "m²", N_("area") },
  [HYD_UNIT_VOLUME] = { "m³", N_("volume") },
  [HYD_UNIT_DISPLACEMENT] = { "m³/rad", N_("displacement") },
  [HYD_UNIT_LEAKAGE] = { "m³/(s·Pa)", N_("leakage") },
  [HYD_UNIT_FORCE] = { "N", N_("force") },
  [HYD_UNIT_TORQUE] = { "N·m", N_("torque") },
  [HYD_UNIT_POWER] = { "W", N_("power") },
  [HYD_UNIT_MASS] = { "kg", N_("mass") },
  [HYD_UNIT_INERTIA] = { "kg·m²", N_("inertia") },
  [HYD_UNIT_STIFFNESS] = { "N/m", N_("stiffness") },
  [HYD_UNIT_DAMPING] = { "N·s/m", N_("damping") },
  [HYD_UNIT_ROT_DAMPING] = { "N·m·s/rad", N_("rotary_damping") },
  [HYD_UNIT_TIME] = { "s", N_("time") },
  [HYD_UNIT_FREQUENCY] = { "rad/s", N_("frequency") },
  [HYD_UNIT_DENSITY] = { "kg/m³", N_("density") },
  [HYD_UNIT_VISCOSITY] = { "m²/s", N_("viscosity") },
  [HYD_UNIT_FLOW_RATE_PER_S] = { "1/s", N_("rate") },
  [HYD_UNIT_ROT_STIFFNESS] = { "N·m/rad", N_("rotary_stiffness") },
};

const char *
hyd_unit_symbol (HydUnit unit)
{
  g_return_val_if_fail (unit < HYD_UNIT_N_KINDS, "");
  return unit_table[unit].symbol;
}

const char *
hyd_unit_name (HydUnit unit)
{
  g_return_val_if_fail (unit < HYD_UNIT_N_KINDS, "");
  return unit_table[unit].name;
}

HydAtolKind
hyd_unit_atol_kind (HydUnit unit)
{
  switch (unit)
    {
    case HYD_UNIT_PRESSURE: return HYD_ATOL_PRESSURE;
    case HYD_UNIT_POSITION:
    case HYD_UNIT_LENGTH: return HYD_ATOL_POSITION;
    case HYD_UNIT_VELOCITY: return HYD_ATOL_VELOCITY;
    case HYD_UNIT_FLOW: return HYD_ATOL_FLOW;
    case HYD_UNIT_ANGLE: return HYD_ATOL_ANGLE;
    case HYD_UNIT_ANGULAR_VELOCITY: return HYD_ATOL_ANGULAR_VELOCITY;
    default: return HYD_ATOL_OTHER;
    }
}

static const char *const atol_names[HYD_ATOL_N_KINDS] = {
  "pressure", "position", "velocity", "flow", "angle", "angular_velocity", "other"
};
static const double atol_defaults[HYD_ATOL_N_KINDS] = {
  100, 1e-6, 1e-5, 1e-8, 1e-5, 1e-4, 1e-6
};

const char *
hyd_atol_kind_name (HydAtolKind kind)
{
  g_return_val_if_fail (kind < HYD_ATOL_N_KINDS, "other");
  return atol_names[kind];
}

double
hyd_atol_kind_default (HydAtolKind kind)
{
  g_return_val_if_fail (kind < HYD_ATOL_N_KINDS, 1e-6);
  return atol_defaults[kind];
}

double
hyd_unit_fd_scale (HydUnit unit)
{
  switch (unit)
    {
    case HYD_UNIT_PRESSURE: return 1e5;
    case HYD_UNIT_POSITION:
    case HYD_UNIT_LENGTH: return 1e-3;
    case HYD_UNIT_VELOCITY: return 1e-3;
    case HYD_UNIT_FLOW: return 1e-9;
    case HYD_UNIT_ANGLE: return 1.0;
    case HYD_UNIT_ANGULAR_VELOCITY: return 1.0;
    default: return 1.0;
    }
}

/* The engineering units a fluid-power engineer reads off a gauge, a data
 * sheet or a catalogue (bar, L/min, mm, cm³/rev, rpm, kN …): one table for
 * the application's panels and plots, the schematic's readings and the
 * messages. Why each was chosen: ui/hyd-display-units.c. */
#define RAD_PER_REV (2.0 * G_PI)

static const HydDisplayUnit display_units[HYD_UNIT_N_KINDS] = {
  [HYD_UNIT_NONE]             = { "",           1.0,                   0.0, 4 },
  [HYD_UNIT_PRESSURE]         = { "bar",        1e-5,                  0.0, 3 },
  [HYD_UNIT_FLOW]             = { "L/min",      6e4,                   0.0, 3 },
  [HYD_UNIT_POSITION]         = { "mm",         1e3,                   0.0, 4 },
  [HYD_UNIT_LENGTH]           = { "mm",         1e3,                   0.0, 4 },
  [HYD_UNIT_VELOCITY]         = { "m/s",        1.0,                   0.0, 3 },
  [HYD_UNIT_ANGLE]            = { "deg",        180.0 / G_PI,          0.0, 4 },
  [HYD_UNIT_ANGULAR_VELOCITY] = { "rpm",        60.0 / RAD_PER_REV,    0.0, 4 },
  [HYD_UNIT_AREA]             = { "cm²",        1e4,                   0.0, 4 },
  [HYD_UNIT_VOLUME]           = { "L",          1e3,                   0.0, 3 },
  [HYD_UNIT_DISPLACEMENT]     = { "cm³/rev",    1e6 * RAD_PER_REV,     0.0, 3 },
  [HYD_UNIT_LEAKAGE]          = { "(L/min)/bar", 6e4 * 1e5,            0.0, 3 },
  [HYD_UNIT_FORCE]            = { "kN",         1e-3,                  0.0, 3 },
  [HYD_UNIT_TORQUE]           = { "N·m",        1.0,                   0.0, 3 },
  [HYD_UNIT_POWER]            = { "kW",         1e-3,                  0.0, 3 },
  [HYD_UNIT_MASS]             = { "kg",         1.0,                   0.0, 3 },
  [HYD_UNIT_INERTIA]          = { "kg·m²",      1.0,                   0.0, 3 },
  [HYD_UNIT_STIFFNESS]        = { "N/mm",       1e-3,                  0.0, 3 },
  [HYD_UNIT_DAMPING]          = { "N·s/m",      1.0,                   0.0, 3 },
  [HYD_UNIT_ROT_DAMPING]      = { "N·m·s/rad",  1.0,                   0.0, 3 },
  [HYD_UNIT_TIME]             = { "s",          1.0,                   0.0, 4 },
  [HYD_UNIT_FREQUENCY]        = { "rad/s",      1.0,                   0.0, 3 },
  [HYD_UNIT_DENSITY]          = { "kg/m³",      1.0,                   0.0, 4 },
  [HYD_UNIT_VISCOSITY]        = { "cSt",        1e6,                   0.0, 3 },
  [HYD_UNIT_FLOW_RATE_PER_S]  = { "1/s",        1.0,                   0.0, 3 },
  [HYD_UNIT_ROT_STIFFNESS]    = { "N·m/rad",    1.0,                   0.0, 3 },
};

const HydDisplayUnit *
hyd_unit_display (HydUnit unit)
{
  g_return_val_if_fail ((guint) unit < HYD_UNIT_N_KINDS, &display_units[HYD_UNIT_NONE]);
  return &display_units[unit];
}

double
hyd_display_value (HydUnit unit, double si)
{
  const HydDisplayUnit *du = hyd_unit_display (unit);
  return si * du->scale + du->offset;
}
