/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-comp-electrical-switches.c — the sources, switches and sensors of the
 * electrical control (docs/electrical.md): the +24 V supply and the 0 V
 * terminal, the pushbutton (momentary or detent), the limit switch and the
 * proximity sensor on a named cylinder's position, and the pressure switch
 * on a hydraulic port.
 *
 * None of them has a continuous row. A switch holds its discrete state 0
 * "actuated" and conducts by its contact form (hyd-comp-electrical.h); its
 * `update` sets it from what it sees, in every round of the discrete
 * states' fixed-point iteration (Cellier & Kofman, Continuous System
 * Simulation, 2006, ch. 9). The sensors' switching points are event
 * functions, located by the solver on its dense output, and `update` uses
 * the crossing direction there, so a switch changes exactly at the located
 * crossing and not one step later. */
#include "hyd-comp-electrical.h"
#include "hyd-error.h"

#include <math.h>

static gboolean
no_rows_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_pattern (comp, 0, NULL, NULL);
  return TRUE;
}

static void
nothing_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
}

/* ------------------------------------------------------ supply and ground */

static const HydPortInfo supply_ports[] = {
  { "P", HYD_DOMAIN_ELECTRICAL, FALSE, N_("the +24 V terminal") },
};

static const HydPortInfo ground_ports[] = {
  { "N", HYD_DOMAIN_ELECTRICAL, FALSE, N_("the 0 V terminal") },
};

const HydComponentType hyd_supply_24v_type = {
  .id = "supply_24v",
  .label = N_("+24 V supply"),
  .category = HYD_CATEGORY_ELECTRICAL,
  .iso_symbol = N_("IEC 60617 terminal of the +24 V rail of a current-path diagram"),
  .description =
    N_("The +24 V terminal of the control supply (the top rail of a current-path "
       "diagram, IEC 61082-1): every net joined to P through closed contacts and "
       "wires is at +24 V. A coil or lamp is energised when one terminal is joined "
       "to +24 V and the other to 0 V; +24 V joined to 0 V through closed contacts "
       "alone is a short circuit, reported with the contacts that close it. Several "
       "supply terminals are one supply."),
  .ports = supply_ports,
  .n_ports = G_N_ELEMENTS (supply_ports),
  .boundary_param = -1,
  .designator = "U",
  .roles = HYD_ROLE_ELEC_SUPPLY,
  .setup = no_rows_setup,
  .eval = nothing_eval,
};

const HydComponentType hyd_ground_0v_type = {
  .id = "ground_0v",
  .label = N_("0 V terminal"),
  .category = HYD_CATEGORY_ELECTRICAL,
  .iso_symbol = N_("IEC 60617 terminal of the 0 V rail of a current-path diagram"),
  .description =
    N_("The 0 V terminal of the control supply (the bottom rail of a current-path "
       "diagram, IEC 61082-1): every net joined to N through closed contacts and "
       "wires is at 0 V. Several 0 V terminals are one rail."),
  .ports = ground_ports,
  .n_ports = G_N_ELEMENTS (ground_ports),
  .boundary_param = -1,
  .designator = "U",
  .roles = HYD_ROLE_ELEC_GROUND,
  .setup = no_rows_setup,
  .eval = nothing_eval,
};
