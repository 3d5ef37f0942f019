/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-catalogue.h — the table of component types (spec/components.md). */
#pragma once

#include "hyd-component.h"

G_BEGIN_DECLS

const HydComponentType *hyd_catalogue_lookup (const char *type_id);
/* All types in catalogue order; *n_types is set. */
const HydComponentType *const *hyd_catalogue_list (guint *n_types);

/* For tests only: makes `type` known to hyd_catalogue_lookup (after the
 * catalogue's own types, which it cannot replace), so that a test can
 * compile circuits with component types of domains the catalogue does not
 * have yet (tests/engine/test-domains.c). It is not listed by
 * hyd_catalogue_list, so the palette, the help and the symbol checks never
 * see it. Call it before compiling, from one thread; `type` must outlive
 * every lookup. Returns FALSE when the id is taken. */
gboolean hyd_catalogue_register_test_type (const HydComponentType *type);

G_END_DECLS
