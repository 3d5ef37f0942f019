/* hyd-fluid.h — the working fluid: density, viscosity, bulk modulus models. */
#pragma once

#include <glib.h>
#include "hyd-smooth.h"

G_BEGIN_DECLS

#define HYD_P_ATM 101325.0

typedef enum {
  HYD_BULK_CONSTANT,
  HYD_BULK_TAIT,
  HYD_BULK_AIR,
} HydBulkModel;

typedef struct {
  double density;               /* kg/m³ */
  double kinematic_viscosity;   /* m²/s */
  double bulk_modulus;          /* Pa (see circuit-format.md for each model) */
  HydBulkModel bulk_model;
  double tait_a;                /* (0, 0.5] */
  double air_fraction;          /* [0, 0.5) */
  double vapour_pressure;       /* Pa gauge, [−1e5, 0] */
  double transition_reynolds;   /* > 0 */
  double discharge_coefficient; /* (0, 1] */
} HydFluid;

void hyd_fluid_init_default (HydFluid *fluid);
/* Effective bulk modulus B(p) at gauge pressure p, and dB/dp. */
double hyd_fluid_bulk_modulus (const HydFluid *fluid, double p, double *dB_dp);
/* Orifice coefficients with the fluid's C_d, or with cd when cd > 0. */
HydOrificeCoeffs hyd_fluid_orifice_coeffs (const HydFluid *fluid, double cd);
const char *hyd_bulk_model_name (HydBulkModel model);
gboolean hyd_bulk_model_from_name (const char *name, HydBulkModel *model);

G_END_DECLS
