/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-diagnostic.h — how bramah-cli prints the engine's diagnostics
 * (hyd-diagnostic.h): in the user's language (LANG, LANGUAGE; gettext
 * domain "bramah"), escaped for the terminal. */
#pragma once

#include "hyd-diagnostic.h"
#include "hyd-ode.h"

/* marks bramah-cli's own sentences for xgettext (hyd_cli_expand translates) */
#ifndef N_
#define N_(text) (text)
#endif

/* The "bramah" domain is bound at the first translation, to the installed
 * catalogues or, when bramah-cli runs from its build tree, to the build
 * tree's; setlocale (LC_ALL, "") comes first (hyd_cli_init_process). */

/* One diagnostic on stderr: an error as "bramah-cli: MESSAGE", a warning
 * or note as "warning: MESSAGE" ("Warnung: …" in German). */
void hyd_cli_print_diagnostic (const HydDiagnostic *diagnostic);
/* Every diagnostic of a list (HydDiagnostic*), in order; NULL is fine. */
void hyd_cli_print_diagnostics (GPtrArray *diagnostics);
/* An error: through its diagnostic when it carries one (what a caller put
 * before it kept), else its message. */
void hyd_cli_print_gerror (const GError *error);
/* hyd_cli_print_gerror, then HYD_CLI_EXIT_FAILED: a command ends with
 * `return hyd_cli_failed_error (error)`. */
int hyd_cli_failed_error (const GError *error);
/* The text hyd_cli_print_gerror prints, without the "bramah-cli: " (not
 * escaped yet): for messages that put something before it. */
char *hyd_cli_dup_error_message (const GError *error);
/* A sentence of bramah-cli's own in the user's language: template
 * (N_()-marked; only "%s") translated, then expanded with the const char *
 * arguments up to NULL (never a translation as a printf format). */
char *hyd_cli_expand (const char *template, ...) G_GNUC_NULL_TERMINATED;
/* A solver's failure message (hyd-ode.h) in the user's language. */
char *hyd_cli_dup_solver_message (const HydOdeResult *result);
