/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-comp-electrical-coils.c — the loads of the electrical control
 * (docs/electrical.md) and the contacts that refer to them: relay, timer
 * relay (on-delay, off-delay), counter, relay contact, indicator lamp and a
 * valve's solenoid coil.
 *
 * A load is a pair of electrical ports and a discrete state (its
 * elec_loads): the network solution writes 1 into that state while one
 * terminal is joined to +24 V and the other to 0 V, else 0, in every round
 * of the discrete states' fixed-point iteration (Cellier & Kofman,
 * Continuous System Simulation, 2006, ch. 9: the event iteration of a
 * hybrid system). `update` reacts to it: a relay's contacts follow its
 * coil, a timer starts timing, a counter counts a rising edge. A relay
 * contact reads its relay's "contacts" state through the hidden input K
 * that its reference parameter "relay" wires. None of these types has a
 * continuous row: they change discrete states only. */
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

static gboolean
set_dstate (double *d, guint k, double v)
{
  gboolean changed = d[k] != v;
  d[k] = v;
  return changed;
}

/* A coil between A1 and A2 (IEC 60617 terminal marks of a relay coil). */
static const HydPortInfo coil_ports[] = {
  { "A1", HYD_DOMAIN_ELECTRICAL, FALSE, N_("coil terminal A1") },
  { "A2", HYD_DOMAIN_ELECTRICAL, FALSE, N_("coil terminal A2") },
};

/* the load between ports 0 and 1 on discrete state 0 */
static const HydElecLoad first_load[] = { { 0, 1, 0 } };

/* ----------------------------------------------------------------- relay */

enum { RELAY_ENERGISED, RELAY_CONTACTS };

static gboolean
relay_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "energised", 0.0, N_("1 while the coil is energised"));
  hyd_comp_add_discrete_state (comp, "contacts", 0.0, N_("1 while the relay's contacts are actuated"));
  return no_rows_setup (comp, error);
}

/* an ideal relay: the contacts follow the coil in the same instant */
static gboolean
relay_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  return set_dstate (d, RELAY_CONTACTS, d[RELAY_ENERGISED] > 0.5 ? 1.0 : 0.0);
}

const HydComponentType hyd_relay_type = {
  .id = "relay",
  .label = N_("Relay"),
  .category = HYD_CATEGORY_ELECTRICAL,
  .iso_symbol = N_("IEC 60617 relay coil: a rectangle between A1 and A2"),
  .description =
    N_("An electromechanical relay (IEC 61810-1): its coil between A1 and A2 is energised "
       "while one terminal is joined to +24 V and the other to 0 V through closed contacts, "
       "and its contacts (relay_contact components that name it) switch in the same instant: "
       "normally open contacts close, normally closed ones open. A contact of its own in its "
       "coil's path holds it (self-holding); one that switches it off chatters and is reported."),
  .ports = coil_ports,
  .n_ports = G_N_ELEMENTS (coil_ports),
  .boundary_param = -1,
  .designator = "K",
  .setup = relay_setup,
  .eval = nothing_eval,
  .update = relay_update,
  .elec_loads = first_load,
  .n_elec_loads = G_N_ELEMENTS (first_load),
};

/* --------------------------------------------------------- relay contact */

enum { RC_1, RC_2, RC_4, RC_K };
enum { RC_CONTACT, RC_RELAY };

static const HydPortInfo relay_contact_ports[] = {
  HYD_CONTACT_PORTS,
  [RC_K] = { "K", HYD_DOMAIN_SIGNAL, TRUE, N_("the contacts state of the relay it names (set by the parameter relay)"),
             HYD_PORT_INPUT, NULL, TRUE },
};

static const HydParamInfo relay_contact_params[] = {
  [RC_CONTACT] = HYD_CONTACT_PARAM,
  [RC_RELAY] = { "relay", N_("Relay"), HYD_UNIT_NONE, NAN, -INFINITY, INFINITY,
                 HYD_PARAM_REFERENCE | HYD_PARAM_OPTIONAL, NULL,
                 N_("the id of the relay, timer relay or counter whose contact this is (K1)"), "K",
                 "contacts" },
};

static gboolean
relay_contact_setup (HydComp *comp, GError **error)
{
  /* the compiler marks K connected when "relay" names a component; a
   * component set up outside a compiled circuit (connected = 0: a help
   * page, the canvas asking for its variables) is left alone */
  if (comp->connected != 0 && !hyd_comp_port_connected (comp, RC_K))
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_VALUE,
                   "component \"%s\", parameter \"relay\": not set: name the relay, timer relay or "
                   "counter whose contact this is",
                   comp->id);
      return FALSE;
    }
  hyd_comp_add_discrete_state (comp, "actuated", 0.0, N_("1 while the relay's contacts are actuated"));
  return no_rows_setup (comp, error);
}

static gboolean
relay_contact_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  return set_dstate (d, 0, in->p[RC_K] > 0.5 ? 1.0 : 0.0);
}

static gboolean
contact_conducts (const HydComp *comp, const double *d, guint path)
{
  return hyd_contact_conducts (comp->par[RC_CONTACT], d[0], path);
}

const HydComponentType hyd_relay_contact_type = {
  .id = "relay_contact",
  .label = N_("Relay contact"),
  .category = HYD_CATEGORY_ELECTRICAL,
  .iso_symbol = N_("IEC 60617 make, break or changeover contact, labelled with its relay"),
  .description =
    N_("A contact of a relay, timer relay or counter, named by its parameter relay (the "
       "ladder diagram's K1 beside the contact): actuated while that component's contacts "
       "are, so a normally open contact (no) joins 1 and 4, a normally closed one (nc) "
       "opens 1–2 and a changeover does both. Terminals 1 (common), 2 (normally closed "
       "side) and 4 (normally open side) as IEC 60947-1 numbers them; a relay may have any "
       "number of contacts."),
  .ports = relay_contact_ports,
  .n_ports = G_N_ELEMENTS (relay_contact_ports),
  .params = relay_contact_params,
  .n_params = G_N_ELEMENTS (relay_contact_params),
  .boundary_param = -1,
  .designator = "KC",
  .setup = relay_contact_setup,
  .eval = nothing_eval,
  .update = relay_contact_update,
  .elec_paths = hyd_contact_paths,
  .n_elec_paths = G_N_ELEMENTS (hyd_contact_paths),
  .elec_conducts = contact_conducts,
};

/* ----------------------------------------------------------- timer relay */

enum { TIMER_MODE, TIMER_DELAY };
enum { TIMER_ENERGISED, TIMER_CONTACTS, TIMER_SINCE };
enum { TIMER_ON_DELAY, TIMER_OFF_DELAY };

static const char *const timer_modes[] = { N_("on_delay"), N_("off_delay"), NULL };

static const HydParamInfo timer_params[] = {
  [TIMER_MODE] = { "mode", N_("Mode"), HYD_UNIT_NONE, TIMER_ON_DELAY, 0, 1, HYD_PARAM_ENUM, timer_modes,
                   N_("on_delay: the contacts switch a delay after the coil is energised; off_delay: "
                      "at once, and back a delay after it is de-energised") },
  [TIMER_DELAY] = { "delay", N_("Delay"), HYD_UNIT_TIME, 1.0, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE, NULL,
                    N_("the time the timer waits") },
};

static const HydVarInfo timer_outputs[] = {
  { "remaining", HYD_UNIT_TIME, N_("the time left until the contacts switch (0 while not timing)") },
};

/* "since" is the time timing started, −1 while the timer is not timing
 * (runs start at t = 0; −1 and not NaN, so that the fixed-point iteration
 * sees a settled value as equal to itself). */
static gboolean
timer_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "energised", 0.0, N_("1 while the coil is energised"));
  hyd_comp_add_discrete_state (comp, "contacts", 0.0, N_("1 while the timer's contacts are actuated"));
  hyd_comp_add_discrete_state (comp, "since", -1.0, N_("the time timing started (s), −1 while not timing"));
  hyd_comp_add_event (comp, "delay", N_("the delay has run out"));
  hyd_comp_set_outputs (comp, G_N_ELEMENTS (timer_outputs), timer_outputs);
  return no_rows_setup (comp, error);
}

static gboolean
timing (const double *d)
{
  return d[TIMER_SINCE] >= 0.0;
}

/* g = t − since − delay while timing: linear in t, so the solver locates
 * the end of the delay to round-off; a constant −1 otherwise. */
static void
timer_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = timing (in->d) ? in->t - in->d[TIMER_SINCE] - comp->par[TIMER_DELAY] : -1.0;
}

static void
timer_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  if (out->out && in->d && timing (in->d))
    out->out[0] = MAX (0.0, in->d[TIMER_SINCE] + comp->par[TIMER_DELAY] - in->t);
}

/* On-delay: energised and not yet switched, the timer times from the
 * moment the coil was energised and switches when the delay has run out;
 * de-energised, it opens at once and forgets. Off-delay: the mirror image
 * (energised: switched at once; de-energised: times, then opens). At the
 * located end of the delay its event's direction counts (t may lie a
 * rounding error before since + delay). */
static gboolean
timer_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  gboolean on = d[TIMER_ENERGISED] > 0.5;
  gboolean off_delay = (int) comp->par[TIMER_MODE] == TIMER_OFF_DELAY;
  /* the coil state in which the timer times, and the contacts' state it
   * leaves at the end of the delay */
  gboolean times_when_on = !off_delay;
  double after = off_delay ? 0.0 : 1.0;
  double contacts = d[TIMER_CONTACTS], since = d[TIMER_SINCE];
  if (on != times_when_on)
    {
      /* on-delay de-energised: open; off-delay energised: closed */
      contacts = off_delay ? 1.0 : 0.0;
      since = -1.0;
    }
  else if (contacts != after)
    {
      if (since < 0.0)
        since = in->t;
      if ((crossed && crossed[0] > 0) || in->t >= since + comp->par[TIMER_DELAY])
        {
          contacts = after;
          since = -1.0;
        }
    }
  gboolean changed = set_dstate (d, TIMER_CONTACTS, contacts);
  return set_dstate (d, TIMER_SINCE, since) || changed;
}

const HydComponentType hyd_timer_relay_type = {
  .id = "timer_relay",
  .label = N_("Timer relay"),
  .category = HYD_CATEGORY_ELECTRICAL,
  .iso_symbol = N_("IEC 60617 relay coil with the on-delay or off-delay mark"),
  .description =
    N_("A time relay (IEC 61812-1) with its coil between A1 and A2. On-delay: its contacts "
       "switch the set delay after the coil is energised, and at once back when it is "
       "de-energised (de-energised before the delay has run out, it starts afresh next "
       "time). Off-delay: its contacts switch at once when the coil is energised and back "
       "the delay after it is de-energised. The end of the delay is an event located to "
       "round-off (g = t − t_start − delay); the output remaining shows the time left."),
  .ports = coil_ports,
  .n_ports = G_N_ELEMENTS (coil_ports),
  .params = timer_params,
  .n_params = G_N_ELEMENTS (timer_params),
  .boundary_param = -1,
  .designator = "KT",
  .setup = timer_setup,
  .eval = timer_eval,
  .events = timer_events,
  .update = timer_update,
  .elec_loads = first_load,
  .n_elec_loads = G_N_ELEMENTS (first_load),
};

/* --------------------------------------------------------------- counter */

enum { CNT_A1, CNT_A2, CNT_R1, CNT_R2 };
enum { CNT_ENERGISED, CNT_RESET, CNT_COUNT, CNT_CONTACTS, CNT_SEEN };

static const HydPortInfo counter_ports[] = {
  [CNT_A1] = { "A1", HYD_DOMAIN_ELECTRICAL, FALSE, N_("count coil terminal A1") },
  [CNT_A2] = { "A2", HYD_DOMAIN_ELECTRICAL, FALSE, N_("count coil terminal A2") },
  [CNT_R1] = { "R1", HYD_DOMAIN_ELECTRICAL, TRUE, N_("reset coil terminal R1") },
  [CNT_R2] = { "R2", HYD_DOMAIN_ELECTRICAL, TRUE, N_("reset coil terminal R2") },
};

static const HydElecLoad counter_loads[] = {
  { CNT_A1, CNT_A2, CNT_ENERGISED },
  { CNT_R1, CNT_R2, CNT_RESET },
};

static const HydParamInfo counter_params[] = {
  { "preset", N_("Preset"), HYD_UNIT_NONE, 3.0, 1.0, 1e9, HYD_PARAM_INTEGER, NULL,
    N_("the number of pulses after which the contacts switch") },
};

static gboolean
counter_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "energised", 0.0, N_("1 while the count coil is energised"));
  hyd_comp_add_discrete_state (comp, "reset", 0.0, N_("1 while the reset coil is energised"));
  hyd_comp_add_discrete_state (comp, "count", 0.0, N_("the pulses counted since the last reset"));
  hyd_comp_add_discrete_state (comp, "contacts", 0.0, N_("1 while the counter's contacts are actuated"));
  hyd_comp_add_discrete_state (comp, "seen", 0.0,
                               N_("the count coil's state when the counter last looked (a pulse counts once, "
                                  "on its rising edge)"));
  return no_rows_setup (comp, error);
}

/* A predetermining counter: each rising edge of the count coil adds one;
 * the contacts switch when the count reaches the preset and stay switched
 * while further pulses are counted; the reset coil, while energised, holds
 * the count at 0 and the contacts open (a pulse that begins during the
 * reset is not counted when the reset ends). */
static gboolean
counter_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  gboolean on = d[CNT_ENERGISED] > 0.5, reset = d[CNT_RESET] > 0.5;
  double count = d[CNT_COUNT];
  if (reset)
    count = 0.0;
  else if (on && d[CNT_SEEN] < 0.5)
    count += 1.0;
  gboolean changed = set_dstate (d, CNT_COUNT, count);
  changed = set_dstate (d, CNT_SEEN, on ? 1.0 : 0.0) || changed;
  return set_dstate (d, CNT_CONTACTS, !reset && count >= comp->par[0] ? 1.0 : 0.0) || changed;
}

const HydComponentType hyd_counter_type = {
  .id = "counter",
  .label = N_("Counter"),
  .category = HYD_CATEGORY_ELECTRICAL,
  .iso_symbol = N_("IEC 60617 relay coil of a counting relay, with a reset coil R1–R2"),
  .description =
    N_("A predetermining counter: every time its count coil A1–A2 is energised (a rising "
       "edge) the count goes up by one, and its contacts (relay_contact components that name "
       "it) switch when the count reaches the preset. While the reset coil R1–R2 is "
       "energised the count is 0 and the contacts are released."),
  .ports = counter_ports,
  .n_ports = G_N_ELEMENTS (counter_ports),
  .params = counter_params,
  .n_params = G_N_ELEMENTS (counter_params),
  .boundary_param = -1,
  .designator = "KZ",
  .setup = counter_setup,
  .eval = nothing_eval,
  .update = counter_update,
  .elec_loads = counter_loads,
  .n_elec_loads = G_N_ELEMENTS (counter_loads),
};

/* ------------------------------------------------------------------ lamp */

static const HydPortInfo lamp_ports[] = {
  { "X1", HYD_DOMAIN_ELECTRICAL, FALSE, N_("lamp terminal X1") },
  { "X2", HYD_DOMAIN_ELECTRICAL, FALSE, N_("lamp terminal X2") },
};

static gboolean
lamp_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "lit", 0.0, N_("1 while the lamp is lit"));
  return no_rows_setup (comp, error);
}

const HydComponentType hyd_lamp_type = {
  .id = "lamp",
  .label = N_("Indicator lamp"),
  .category = HYD_CATEGORY_ELECTRICAL,
  .iso_symbol = N_("IEC 60617 lamp: a circle with a diagonal cross"),
  .description =
    N_("An indicator lamp between X1 and X2: lit while one terminal is joined to +24 V and "
       "the other to 0 V through closed contacts (a signal lamp, IEC 60617)."),
  .ports = lamp_ports,
  .n_ports = G_N_ELEMENTS (lamp_ports),
  .boundary_param = -1,
  .designator = "H",
  .setup = lamp_setup,
  .eval = nothing_eval,
  .elec_loads = first_load,
  .n_elec_loads = G_N_ELEMENTS (first_load),
};

/* -------------------------------------------------------------- solenoid */

static gboolean
solenoid_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "energised", 0.0, N_("1 while the coil is energised"));
  return no_rows_setup (comp, error);
}

const HydComponentType hyd_solenoid_type = {
  .id = "solenoid",
  .label = N_("Solenoid coil"),
  .category = HYD_CATEGORY_ELECTRICAL,
  .iso_symbol = N_("IEC 60617 coil of an electromechanical operator: a rectangle with a diagonal"),
  .description =
    N_("The coil of a valve's solenoid operator in the current-path diagram (Y1, Y2): "
       "energised while one terminal is joined to +24 V and the other to 0 V through closed "
       "contacts. A solenoid-operated directional valve names it in its parameter solenoid_a "
       "or solenoid_b and shifts its spool while it is energised."),
  .ports = coil_ports,
  .n_ports = G_N_ELEMENTS (coil_ports),
  .boundary_param = -1,
  .designator = "Y",
  .setup = solenoid_setup,
  .eval = nothing_eval,
  .elec_loads = first_load,
  .n_elec_loads = G_N_ELEMENTS (first_load),
};
