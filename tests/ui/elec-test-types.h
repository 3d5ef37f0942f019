/* SPDX-License-Identifier: GPL-3.0-or-later */
/* elec-test-types.h — electrical component types that exist only in the
 * GUI's tests (hyd_catalogue_register_test_type), so that the live
 * schematic's electrical parts are tested whatever the catalogue holds: a
 * +24 V supply, a 0 V ground, a contact pressed by its "actuated" profile,
 * a coil and a limit switch naming its cylinder (docs/electrical.md). Include once per test program and call
 * elec_test_types_register () before loading a circuit that uses them. */
#pragma once

#include <math.h>
#include "hyd-catalogue.h"
#include "hyd-comp-electrical.h"

static gboolean
elt_setup (HydComp *comp, GError **error)
{
  (void) error;
  hyd_comp_set_pattern (comp, 0, NULL, NULL);
  return TRUE;
}

static void
elt_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  (void) comp, (void) in, (void) out;
}

static const HydPortInfo elt_supply_ports[] = { { "P", HYD_DOMAIN_ELECTRICAL, FALSE, "+24 V" } };
static const HydPortInfo elt_ground_ports[] = { { "N", HYD_DOMAIN_ELECTRICAL, FALSE, "0 V" } };

static const HydComponentType elt_supply = {
  .id = "test_elec_supply", .label = "Test supply", .category = HYD_CATEGORY_ELECTRICAL,
  .ports = elt_supply_ports, .n_ports = 1, .boundary_param = -1, .designator = "U",
  .roles = HYD_ROLE_ELEC_SUPPLY, .setup = elt_setup, .eval = elt_eval,
};
static const HydComponentType elt_ground = {
  .id = "test_elec_ground", .label = "Test ground", .category = HYD_CATEGORY_ELECTRICAL,
  .ports = elt_ground_ports, .n_ports = 1, .boundary_param = -1, .designator = "G",
  .roles = HYD_ROLE_ELEC_GROUND, .setup = elt_setup, .eval = elt_eval,
};

/* a pushbutton: discrete state "actuated" follows its parameter "actuated" */
static const HydPortInfo elt_button_ports[] = { HYD_CONTACT_PORTS };
static const HydParamInfo elt_button_params[] = {
  HYD_CONTACT_PARAM,
  { "actuated", "Actuated", HYD_UNIT_NONE, 0, 0, 1, HYD_PARAM_PROFILE, NULL, "1 while pressed" },
};

static gboolean
elt_button_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "actuated", 0, "pressed");
  return elt_setup (comp, error);
}

static gboolean
elt_button_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  (void) in, (void) crossed;
  double on = comp->par[1] > 0.5 ? 1 : 0;
  gboolean changed = d[0] != on;
  d[0] = on;
  return changed;
}

static gboolean
elt_button_conducts (const HydComp *comp, const double *d, guint path)
{
  return hyd_contact_conducts (comp->par[0], d[0], path);
}

static const HydComponentType elt_button = {
  .id = "test_elec_button", .label = "Test button", .category = HYD_CATEGORY_ELECTRICAL,
  .ports = elt_button_ports, .n_ports = 3, .params = elt_button_params, .n_params = 2,
  .boundary_param = -1, .designator = "S", .setup = elt_button_setup, .eval = elt_eval,
  .update = elt_button_update, .elec_paths = hyd_contact_paths, .n_elec_paths = 2,
  .elec_conducts = elt_button_conducts,
};

/* a coil: the network writes its discrete state "energised" */
static const HydPortInfo elt_coil_ports[] = {
  { "A1", HYD_DOMAIN_ELECTRICAL, FALSE, "coil terminal" },
  { "A2", HYD_DOMAIN_ELECTRICAL, FALSE, "coil terminal" },
};
static const HydElecLoad elt_coil_loads[] = { { 0, 1, 0 } };

static gboolean
elt_coil_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "energised", 0, "energised");
  return elt_setup (comp, error);
}

static const HydComponentType elt_coil = {
  .id = "test_elec_coil", .label = "Test coil", .category = HYD_CATEGORY_ELECTRICAL,
  .ports = elt_coil_ports, .n_ports = 2, .boundary_param = -1, .designator = "K",
  .setup = elt_coil_setup, .eval = elt_eval, .elec_loads = elt_coil_loads, .n_elec_loads = 1,
};

/* a limit switch: actuated while its cylinder's x is past "position" */
static const HydPortInfo elt_limit_ports[] = {
  HYD_CONTACT_PORTS,
  { "x", HYD_DOMAIN_SIGNAL, TRUE, "the cylinder's position", HYD_PORT_INPUT, NULL, TRUE },
};
static const HydParamInfo elt_limit_params[] = {
  HYD_CONTACT_PARAM,
  { "cylinder", "Cylinder", HYD_UNIT_NONE, NAN, -INFINITY, INFINITY, HYD_PARAM_REFERENCE | HYD_PARAM_OPTIONAL,
    NULL, "the cylinder it sits on", "x", "x" },
  { "position", "Position", HYD_UNIT_POSITION, 0.1, 0, INFINITY, 0, NULL, "where it is actuated" },
};

static gboolean
elt_limit_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  (void) crossed;
  double on = in->p[3] >= comp->par[2] ? 1 : 0;
  gboolean changed = d[0] != on;
  d[0] = on;
  return changed;
}

static const HydComponentType elt_limit = {
  .id = "test_elec_limit", .label = "Test limit switch", .category = HYD_CATEGORY_ELECTRICAL,
  .ports = elt_limit_ports, .n_ports = 4, .params = elt_limit_params, .n_params = 3,
  .boundary_param = -1, .designator = "S", .setup = elt_button_setup, .eval = elt_eval,
  .update = elt_limit_update, .elec_paths = hyd_contact_paths, .n_elec_paths = 2,
  .elec_conducts = elt_button_conducts,
};

/* a first-order decay x' = −x: a run needs a continuous state */
static const HydVarInfo elt_decay_states[] = { { "x", HYD_UNIT_NONE, "decaying state" } };

static gboolean
elt_decay_setup (HydComp *comp, GError **error)
{
  (void) error;
  hyd_comp_set_states (comp, 1, elt_decay_states);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
elt_decay_init (const HydComp *comp, const double *p0, double *x0)
{
  (void) comp, (void) p0;
  x0[0] = 1;
}

static void
elt_decay_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  if (out->xdot)
    out->xdot[0] = -in->x[0];
  if (out->jac)
    HYD_JAC (comp, out, 0, 0) = -1;
}

static const HydComponentType elt_decay = {
  .id = "test_decay", .label = "Test decay", .category = HYD_CATEGORY_SIGNALS,
  .boundary_param = -1, .designator = "X", .setup = elt_decay_setup, .init_states = elt_decay_init,
  .eval = elt_decay_eval,
};

G_GNUC_UNUSED static void
elec_test_types_register (void)
{
  static gboolean done;
  if (done)
    return;
  done = TRUE;
  hyd_catalogue_register_test_type (&elt_supply);
  hyd_catalogue_register_test_type (&elt_ground);
  hyd_catalogue_register_test_type (&elt_button);
  hyd_catalogue_register_test_type (&elt_coil);
  hyd_catalogue_register_test_type (&elt_decay);
  hyd_catalogue_register_test_type (&elt_limit);
}
