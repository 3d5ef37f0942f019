/* TEMPORARY scaffold, replaced by the real models */
#include "hyd-component.h"
const HydComponentType hyd_pressure_gauge_type = { .id = "pressure_gauge" };
const HydComponentType hyd_flow_meter_type = { .id = "flow_meter" };
