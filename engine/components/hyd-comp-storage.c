/* TEMPORARY scaffold, replaced by the real models */
#include "hyd-component.h"
const HydComponentType hyd_volume_type = { .id = "volume" };
const HydComponentType hyd_accumulator_type = { .id = "accumulator" };
const HydComponentType hyd_line_type = { .id = "line" };
