/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-comp-electrical.h — what the electrical control types share
 * (docs/electrical.md): the contact forms and their conducting paths.
 *
 * A contact type has the electrical ports "1" (common), "2" (normally
 * closed side) and "4" (normally open side) at port indices 0, 1, 2
 * (IEC 60947-1 terminal numbers), an enum parameter "contact"
 * (HYD_CONTACT_PARAM) and its discrete state 0 "actuated" (0 or 1). Path 0
 * is 1–2 (closed when not actuated, in the "nc" and "changeover" forms),
 * path 1 is 1–4 (closed when actuated, in the "no" and "changeover"
 * forms). */
#pragma once

#include "hyd-component.h"
#include "hyd-i18n.h"

G_BEGIN_DECLS

typedef enum {
  HYD_CONTACT_NO,         /* normally open: 1–4 closes when actuated */
  HYD_CONTACT_NC,         /* normally closed: 1–2 opens when actuated */
  HYD_CONTACT_CHANGEOVER, /* both */
} HydContactForm;

extern const char *const hyd_contact_forms[]; /* "no", "nc", "changeover", NULL */
extern const HydElecPath hyd_contact_paths[2];

#define HYD_CONTACT_PORTS \
  { "1", HYD_DOMAIN_ELECTRICAL, FALSE, N_("common terminal of the contact") }, \
  { "2", HYD_DOMAIN_ELECTRICAL, TRUE, N_("normally closed side: joined to 1 while not actuated (forms nc, changeover)") }, \
  { "4", HYD_DOMAIN_ELECTRICAL, TRUE, N_("normally open side: joined to 1 while actuated (forms no, changeover)") }

#define HYD_CONTACT_PARAM \
  { "contact", N_("Contact"), HYD_UNIT_NONE, HYD_CONTACT_NO, 0, HYD_CONTACT_CHANGEOVER, HYD_PARAM_ENUM, \
    hyd_contact_forms, N_("normally open (no), normally closed (nc) or changeover") }

/* Whether path (0: 1–2, 1: 1–4) of a contact of this form conducts. */
static inline gboolean
hyd_contact_conducts (double form, double actuated, guint path)
{
  gboolean on = actuated > 0.5;
  int f = (int) form;
  if (path == 0)
    return !on && (f == HYD_CONTACT_NC || f == HYD_CONTACT_CHANGEOVER);
  return on && (f == HYD_CONTACT_NO || f == HYD_CONTACT_CHANGEOVER);
}

G_END_DECLS
