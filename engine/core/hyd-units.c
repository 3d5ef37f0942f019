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
