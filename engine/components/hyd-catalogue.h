/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-catalogue.h — the table of component types (spec/components.md). */
#pragma once

#include "hyd-component.h"

G_BEGIN_DECLS

const HydComponentType *hyd_catalogue_lookup (const char *type_id);
/* All types in catalogue order; *n_types is set. */
const HydComponentType *const *hyd_catalogue_list (guint *n_types);

G_END_DECLS
