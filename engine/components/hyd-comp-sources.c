/* TEMPORARY scaffold, replaced by the real models */
#include "hyd-component.h"
const HydComponentType hyd_tank_type = { .id = "tank" };
const HydComponentType hyd_pressure_source_type = { .id = "pressure_source" };
const HydComponentType hyd_flow_source_type = { .id = "flow_source" };
const HydComponentType hyd_fixed_pump_type = { .id = "fixed_pump" };
const HydComponentType hyd_variable_pump_type = { .id = "variable_pump" };
