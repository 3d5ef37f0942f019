/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-comp-electrical.c — what the electrical control types share
 * (hyd-comp-electrical.h, docs/electrical.md). */
#include "hyd-comp-electrical.h"

/* the file values; marked for the interface, which shows them translated */
const char *const hyd_contact_forms[] = { N_("no"), N_("nc"), N_("changeover"), NULL };

/* ports "1", "2", "4" are indices 0, 1, 2 */
const HydElecPath hyd_contact_paths[2] = { { 0, 1 }, { 0, 2 } };
