/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-uninstalled.h — whether this process runs from its build tree, for
 * the programs that read their data (symbols, examples, translations,
 * bramah-cli's helper program) from the source or build tree then. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether this process runs uninstalled, from the build tree it was built
 * in: $BRAMAH_UNINSTALLED if set ("1" yes, "0" no), else whether the
 * running executable (/proc/self/exe) lies inside that build tree. An
 * installed binary never reads the source or build tree, whatever exists
 * there. */
gboolean hyd_running_uninstalled (void);

G_END_DECLS
