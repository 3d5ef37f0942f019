/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-i18n.h — marking the catalogue's human-facing strings for translation.
 *
 * The engine never translates: it speaks English in its files, its messages
 * and the CLI. N_() only marks a string so that xgettext puts it in the
 * "bramah" template (po/); the application translates the marked strings
 * where it shows them, with g_dgettext (GETTEXT_PACKAGE, s) (po/README.md).
 *
 * The definition is token for token the one of <glib/gi18n.h>, so that a file
 * including both compiles without a redefinition warning. */
#pragma once

#define N_(String) (String)
