/* TEMPORARY scaffold, replaced by the real models */
#include "hyd-component.h"
const HydComponentType hyd_orifice_type = { .id = "orifice" };
const HydComponentType hyd_throttle_valve_type = { .id = "throttle_valve" };
const HydComponentType hyd_check_valve_type = { .id = "check_valve" };
const HydComponentType hyd_relief_valve_type = { .id = "relief_valve" };
const HydComponentType hyd_pressure_reducing_valve_type = { .id = "pressure_reducing_valve" };
const HydComponentType hyd_flow_control_valve_type = { .id = "flow_control_valve" };
