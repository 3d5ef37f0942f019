/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-units.h — unit kinds of parameters, states and variables.
 *
 * Everything inside the engine is SI (spec/circuit-format.md, Units). A unit
 * kind says what a number measures so that the GUI can convert it for display
 * and the solver can pick a default absolute tolerance. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  HYD_UNIT_NONE = 0,         /* dimensionless */
  HYD_UNIT_PRESSURE,         /* Pa */
  HYD_UNIT_FLOW,             /* m³/s */
  HYD_UNIT_POSITION,         /* m (a moving state) */
  HYD_UNIT_LENGTH,           /* m (a geometric parameter) */
  HYD_UNIT_VELOCITY,         /* m/s */
  HYD_UNIT_ANGLE,            /* rad */
  HYD_UNIT_ANGULAR_VELOCITY, /* rad/s */
  HYD_UNIT_AREA,             /* m² */
  HYD_UNIT_VOLUME,           /* m³ */
  HYD_UNIT_DISPLACEMENT,     /* m³/rad */
  HYD_UNIT_LEAKAGE,          /* m³/(s·Pa) */
  HYD_UNIT_FORCE,            /* N */
  HYD_UNIT_TORQUE,           /* N·m */
  HYD_UNIT_POWER,            /* W */
  HYD_UNIT_MASS,             /* kg */
  HYD_UNIT_INERTIA,          /* kg·m² */
  HYD_UNIT_STIFFNESS,        /* N/m */
  HYD_UNIT_DAMPING,          /* N·s/m */
  HYD_UNIT_ROT_DAMPING,      /* N·m·s/rad */
  HYD_UNIT_TIME,             /* s */
  HYD_UNIT_FREQUENCY,        /* rad/s (natural frequencies) */
  HYD_UNIT_DENSITY,          /* kg/m³ */
  HYD_UNIT_VISCOSITY,        /* m²/s (kinematic) */
  HYD_UNIT_FLOW_RATE_PER_S,  /* 1/s (generic rate) */
  HYD_UNIT_ROT_STIFFNESS,    /* N·m/rad (torsional stiffness) */
  HYD_UNIT_N_KINDS
} HydUnit;

/* The kinds of state that simulation.atol can address (circuit-format.md). */
typedef enum {
  HYD_ATOL_PRESSURE,
  HYD_ATOL_POSITION,
  HYD_ATOL_VELOCITY,
  HYD_ATOL_FLOW,
  HYD_ATOL_ANGLE,
  HYD_ATOL_ANGULAR_VELOCITY,
  HYD_ATOL_OTHER,
  HYD_ATOL_N_KINDS
} HydAtolKind;

/* How a quantity of a kind is shown to a user: in `symbol`, as
 * si·scale + offset, with `digits` significant digits. */
typedef struct {
  const char *symbol;   /* "bar" */
  double scale;         /* shown = si·scale + offset */
  double offset;
  int digits;           /* significant digits worth showing */
} HydDisplayUnit;

const HydDisplayUnit *hyd_unit_display (HydUnit unit);
/* an SI value in the kind's display unit (si·scale + offset) */
double hyd_display_value (HydUnit unit, double si);

const char *hyd_unit_symbol (HydUnit unit);   /* "Pa", "m³/s", ... */
const char *hyd_unit_name (HydUnit unit);     /* "pressure", "flow", ... */
HydAtolKind hyd_unit_atol_kind (HydUnit unit);
const char *hyd_atol_kind_name (HydAtolKind kind); /* the key in simulation.atol */
double hyd_atol_kind_default (HydAtolKind kind);
/* Typical scale of a quantity of this kind, used for finite-difference steps
 * (spec/cli.md jacobian-check: 1e5 Pa, 1e-3 m, 1e-3 m/s, 1e-9 m³/s, 1 rad, 1 rad/s, 1). */
double hyd_unit_fd_scale (HydUnit unit);

G_END_DECLS
