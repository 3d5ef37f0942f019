/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-catalogue.c — one table registers every component type. */
#include "hyd-catalogue.h"

#include <string.h>

extern const HydComponentType hyd_tank_type;
extern const HydComponentType hyd_pressure_source_type;
extern const HydComponentType hyd_flow_source_type;
extern const HydComponentType hyd_fixed_pump_type;
extern const HydComponentType hyd_variable_pump_type;
extern const HydComponentType hyd_orifice_type;
extern const HydComponentType hyd_throttle_valve_type;
extern const HydComponentType hyd_check_valve_type;
extern const HydComponentType hyd_pilot_check_valve_type;
extern const HydComponentType hyd_relief_valve_type;
extern const HydComponentType hyd_pressure_reducing_valve_type;
extern const HydComponentType hyd_sequence_valve_type;
extern const HydComponentType hyd_flow_control_valve_type;
extern const HydComponentType hyd_one_way_flow_control_valve_type;
extern const HydComponentType hyd_shuttle_valve_type;
extern const HydComponentType hyd_counterbalance_valve_type;
extern const HydComponentType hyd_dcv_4_3_type;
extern const HydComponentType hyd_dcv_4_2_type;
extern const HydComponentType hyd_dcv_3_2_type;
extern const HydComponentType hyd_dcv_2_2_type;
extern const HydComponentType hyd_cylinder_double_type;
extern const HydComponentType hyd_cylinder_single_type;
extern const HydComponentType hyd_motor_fixed_type;
extern const HydComponentType hyd_volume_type;
extern const HydComponentType hyd_accumulator_type;
extern const HydComponentType hyd_line_type;
extern const HydComponentType hyd_filter_type;
extern const HydComponentType hyd_pressure_gauge_type;
extern const HydComponentType hyd_flow_meter_type;
extern const HydComponentType hyd_mass_type;
extern const HydComponentType hyd_fixed_point_type;
extern const HydComponentType hyd_spring_type;
extern const HydComponentType hyd_damper_type;
extern const HydComponentType hyd_force_source_type;
extern const HydComponentType hyd_signal_constant_type;
extern const HydComponentType hyd_signal_step_type;
extern const HydComponentType hyd_signal_gain_type;
extern const HydComponentType hyd_signal_sum_type;
extern const HydComponentType hyd_signal_product_type;
extern const HydComponentType hyd_signal_pid_type;
extern const HydComponentType hyd_signal_ramp_type;
extern const HydComponentType hyd_signal_sine_type;
extern const HydComponentType hyd_signal_pulse_type;
extern const HydComponentType hyd_signal_lookup_table_type;
extern const HydComponentType hyd_signal_second_order_type;
extern const HydComponentType hyd_signal_rate_limiter_type;
extern const HydComponentType hyd_signal_hysteresis_type;
extern const HydComponentType hyd_signal_switch_type;
extern const HydComponentType hyd_signal_integrator_type;
extern const HydComponentType hyd_signal_lag_type;
extern const HydComponentType hyd_signal_saturation_type;
extern const HydComponentType hyd_signal_dead_zone_type;
extern const HydComponentType hyd_position_sensor_type;
extern const HydComponentType hyd_velocity_sensor_type;
extern const HydComponentType hyd_force_sensor_type;
/* signal-driven hydraulics and hydraulic sensors (issue 11) */
extern const HydComponentType hyd_servo_valve_type;
extern const HydComponentType hyd_proportional_relief_valve_type;
extern const HydComponentType hyd_pressure_transducer_type;
extern const HydComponentType hyd_differential_pressure_transducer_type;
extern const HydComponentType hyd_flow_sensor_type;
extern const HydComponentType hyd_friction_type;
extern const HydComponentType hyd_cooler_type;
extern const HydComponentType hyd_dcv_4_3_pilot_type;
extern const HydComponentType hyd_dcv_4_2_pilot_type;
extern const HydComponentType hyd_dcv_3_2_pilot_type;
extern const HydComponentType hyd_dcv_2_2_pilot_type;
extern const HydComponentType hyd_accumulator_safety_block_type;
extern const HydComponentType hyd_inertia_type;
extern const HydComponentType hyd_fixed_frame_type;
extern const HydComponentType hyd_torsion_spring_type;
extern const HydComponentType hyd_rotational_damper_type;
extern const HydComponentType hyd_torque_source_type;
extern const HydComponentType hyd_speed_sensor_type;
extern const HydComponentType hyd_torque_sensor_type;
extern const HydComponentType hyd_electric_motor_type;
extern const HydComponentType hyd_semi_rotary_actuator_type;
/* electrical control: coils, lamps and relay contacts (eleccoils) */
extern const HydComponentType hyd_relay_type;
extern const HydComponentType hyd_relay_contact_type;
extern const HydComponentType hyd_timer_relay_type;
extern const HydComponentType hyd_counter_type;
extern const HydComponentType hyd_lamp_type;
extern const HydComponentType hyd_solenoid_type;
/* electrical control: sources, switches and sensors (elecsw) */
extern const HydComponentType hyd_supply_24v_type;
extern const HydComponentType hyd_ground_0v_type;
extern const HydComponentType hyd_pushbutton_switch_type;
extern const HydComponentType hyd_limit_switch_type;
extern const HydComponentType hyd_proximity_sensor_type;
extern const HydComponentType hyd_pressure_switch_type;

static const HydComponentType *const catalogue[] = {
  &hyd_tank_type,
  &hyd_pressure_source_type,
  &hyd_flow_source_type,
  &hyd_fixed_pump_type,
  &hyd_variable_pump_type,
  &hyd_orifice_type,
  &hyd_throttle_valve_type,
  &hyd_check_valve_type,
  &hyd_pilot_check_valve_type,
  &hyd_relief_valve_type,
  &hyd_pressure_reducing_valve_type,
  &hyd_sequence_valve_type,
  &hyd_flow_control_valve_type,
  &hyd_one_way_flow_control_valve_type,
  &hyd_shuttle_valve_type,
  &hyd_counterbalance_valve_type,
  &hyd_dcv_4_3_type,
  &hyd_dcv_4_2_type,
  &hyd_dcv_3_2_type,
  &hyd_dcv_2_2_type,
  &hyd_cylinder_double_type,
  &hyd_cylinder_single_type,
  &hyd_motor_fixed_type,
  &hyd_volume_type,
  &hyd_accumulator_type,
  &hyd_line_type,
  &hyd_filter_type,
  &hyd_pressure_gauge_type,
  &hyd_flow_meter_type,
  &hyd_mass_type,
  &hyd_fixed_point_type,
  &hyd_spring_type,
  &hyd_damper_type,
  &hyd_force_source_type,
  &hyd_signal_constant_type,
  &hyd_signal_step_type,
  &hyd_signal_gain_type,
  &hyd_signal_sum_type,
  &hyd_signal_product_type,
  &hyd_signal_pid_type,
  &hyd_signal_ramp_type,
  &hyd_signal_sine_type,
  &hyd_signal_pulse_type,
  &hyd_signal_lookup_table_type,
  &hyd_signal_second_order_type,
  &hyd_signal_rate_limiter_type,
  &hyd_signal_hysteresis_type,
  &hyd_signal_switch_type,
  &hyd_signal_integrator_type,
  &hyd_signal_lag_type,
  &hyd_signal_saturation_type,
  &hyd_signal_dead_zone_type,
  &hyd_position_sensor_type,
  &hyd_velocity_sensor_type,
  &hyd_force_sensor_type,
  /* signal-driven hydraulics and hydraulic sensors (issue 11) */
  &hyd_servo_valve_type,
  &hyd_proportional_relief_valve_type,
  &hyd_pressure_transducer_type,
  &hyd_differential_pressure_transducer_type,
  &hyd_flow_sensor_type,
  &hyd_friction_type,
  &hyd_cooler_type,
  &hyd_dcv_4_3_pilot_type,
  &hyd_dcv_4_2_pilot_type,
  &hyd_dcv_3_2_pilot_type,
  &hyd_dcv_2_2_pilot_type,
  &hyd_accumulator_safety_block_type,
  &hyd_inertia_type,
  &hyd_fixed_frame_type,
  &hyd_torsion_spring_type,
  &hyd_rotational_damper_type,
  &hyd_torque_source_type,
  &hyd_speed_sensor_type,
  &hyd_torque_sensor_type,
  &hyd_electric_motor_type,
  &hyd_semi_rotary_actuator_type,
  /* electrical control: coils, lamps and relay contacts (docs/electrical.md) */
  &hyd_relay_type,
  &hyd_relay_contact_type,
  &hyd_timer_relay_type,
  &hyd_counter_type,
  &hyd_lamp_type,
  &hyd_solenoid_type,
  /* electrical control: sources, switches and sensors (docs/electrical.md) */
  &hyd_supply_24v_type,
  &hyd_ground_0v_type,
  &hyd_pushbutton_switch_type,
  &hyd_limit_switch_type,
  &hyd_proximity_sensor_type,
  &hyd_pressure_switch_type,
};

/* Looked up once per component of a circuit: an index, built once. */
static gpointer
build_index (gpointer data G_GNUC_UNUSED)
{
  GHashTable *index = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < G_N_ELEMENTS (catalogue); i++)
    g_hash_table_insert (index, (gpointer) catalogue[i]->id, (gpointer) catalogue[i]);
  return index;
}

/* hyd_catalogue_register_test_type: a handful at most */
static const HydComponentType *test_types[16];
static guint n_test_types;

const HydComponentType *
hyd_catalogue_lookup (const char *type_id)
{
  static GOnce once = G_ONCE_INIT;
  if (type_id == NULL)
    return NULL;
  GHashTable *index = g_once (&once, build_index, NULL);
  if (G_LIKELY (n_test_types == 0))
    return g_hash_table_lookup (index, type_id);
  const HydComponentType *type = g_hash_table_lookup (index, type_id);
  for (guint i = 0; type == NULL && i < n_test_types; i++)
    if (strcmp (test_types[i]->id, type_id) == 0)
      type = test_types[i];
  return type;
}

gboolean
hyd_catalogue_register_test_type (const HydComponentType *type)
{
  g_return_val_if_fail (type != NULL && type->id != NULL, FALSE);
  if (hyd_catalogue_lookup (type->id) != NULL || n_test_types >= G_N_ELEMENTS (test_types))
    return FALSE;
  test_types[n_test_types++] = type;
  return TRUE;
}

const HydComponentType *const *
hyd_catalogue_list (guint *n_types)
{
  *n_types = G_N_ELEMENTS (catalogue);
  return catalogue;
}
