/* TEMPORARY scaffold, replaced by the real models */
#include "hyd-component.h"
const HydComponentType hyd_cylinder_double_type = { .id = "cylinder_double" };
const HydComponentType hyd_cylinder_single_type = { .id = "cylinder_single" };
const HydComponentType hyd_motor_fixed_type = { .id = "motor_fixed" };
