/* TEMPORARY scaffold, replaced by the real models */
#include "hyd-component.h"
const HydComponentType hyd_dcv_4_3_type = { .id = "dcv_4_3" };
const HydComponentType hyd_dcv_4_2_type = { .id = "dcv_4_2" };
const HydComponentType hyd_dcv_3_2_type = { .id = "dcv_3_2" };
const HydComponentType hyd_dcv_2_2_type = { .id = "dcv_2_2" };
