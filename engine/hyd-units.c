/* hyd-units.c — unit kinds: symbols, names, default tolerances. */
#include "hyd-units.h"

static const struct {
  const char *symbol;
  const char *name;
} unit_table[HYD_UNIT_N_KINDS] = {
  [HYD_UNIT_NONE] = { "", "dimensionless" },
  [HYD_UNIT_PRESSURE] = { "Pa", "pressure" },
  [HYD_UNIT_FLOW] = { "m³/s", "flow" },
  [HYD_UNIT_POSITION] = { "m", "position" },
  [HYD_UNIT_LENGTH] = { "m", "length" },
  [HYD_UNIT_VELOCITY] = { "m/s", "velocity" },
  [HYD_UNIT_ANGLE] = { "rad", "angle" },
  [HYD_UNIT_ANGULAR_VELOCITY] = { "rad/s", "angular_velocity" },
  [HYD_UNIT_AREA] = { "m²", "area" },
  [HYD_UNIT_VOLUME] = { "m³", "volume" },
  [HYD_UNIT_DISPLACEMENT] = { "m³/rad", "displacement" },
  [HYD_UNIT_LEAKAGE] = { "m³/(s·Pa)", "leakage" },
  [HYD_UNIT_FORCE] = { "N", "force" },
  [HYD_UNIT_TORQUE] = { "N·m", "torque" },
  [HYD_UNIT_POWER] = { "W", "power" },
  [HYD_UNIT_MASS] = { "kg", "mass" },
  [HYD_UNIT_INERTIA] = { "kg·m²", "inertia" },
  [HYD_UNIT_STIFFNESS] = { "N/m", "stiffness" },
  [HYD_UNIT_DAMPING] = { "N·s/m", "damping" },
  [HYD_UNIT_ROT_DAMPING] = { "N·m·s/rad", "rotary_damping" },
  [HYD_UNIT_TIME] = { "s", "time" },
  [HYD_UNIT_FREQUENCY] = { "rad/s", "frequency" },
  [HYD_UNIT_DENSITY] = { "kg/m³", "density" },
  [HYD_UNIT_VISCOSITY] = { "m²/s", "viscosity" },
  [HYD_UNIT_FLOW_RATE_PER_S] = { "1/s", "rate" },
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
