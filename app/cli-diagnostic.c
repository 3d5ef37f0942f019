/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-diagnostic.c — the engine's diagnostics on the terminal
 * (cli-diagnostic.h). */
#include "cli-diagnostic.h"
#include "cli-commands.h"
#include "hyd-uninstalled.h"

#include <libintl.h>
#include <stdarg.h>
#include <stdio.h>

#define GETTEXT_PACKAGE "bramah"

/* The "bramah" domain, bound at the first translation: a run that prints
 * no diagnostic does not look for its catalogue (nor, for that, where it
 * runs from). Every translation of bramah-cli goes through this file. */
static const char *
domain (void)
{
  static gsize bound = 0;
  if (g_once_init_enter (&bound))
    {
      bindtextdomain (GETTEXT_PACKAGE, hyd_running_uninstalled () ? BRAMAH_BUILD_LOCALE_DIR
                                                                  : BRAMAH_LOCALE_DIR);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      g_once_init_leave (&bound, 1);
    }
  return GETTEXT_PACKAGE;
}

void
hyd_cli_print_diagnostic (const HydDiagnostic *d)
{
  g_return_if_fail (d != NULL);
  g_autofree char *text = hyd_diagnostic_dup_message (d, domain ());
  if (d->severity == HYD_SEVERITY_ERROR)
    {
      hyd_cli_print_error (text);
      return;
    }
  g_autofree char *safe = hyd_cli_sanitize_message (text);
  fprintf (stderr, "%s: %s\n", g_dgettext (domain (), hyd_severity_name (d->severity)), safe);
}

void
hyd_cli_print_diagnostics (GPtrArray *diagnostics)
{
  for (guint i = 0; diagnostics && i < diagnostics->len; i++)
    hyd_cli_print_diagnostic (g_ptr_array_index (diagnostics, i));
}

int
hyd_cli_failed_error (const GError *error)
{
  hyd_cli_print_gerror (error);
  return HYD_CLI_EXIT_FAILED;
}

char *
hyd_cli_dup_error_message (const GError *error)
{
  g_return_val_if_fail (error != NULL, NULL);
  return hyd_diagnostic_dup_error_message (error, domain ());
}

char *
hyd_cli_expand (const char *template, ...)
{
  va_list ap;

  va_start (ap, template);
  g_autoptr (HydDiagnostic) d = hyd_diagnostic_new_valist (HYD_DIAGNOSTIC_OTHER, HYD_SEVERITY_ERROR, template, ap);
  va_end (ap);
  return hyd_diagnostic_dup_message (d, domain ());
}

static const char *
translate (const char *msgid, gpointer user)
{
  (void) user;
  return g_dgettext (domain (), msgid);
}

char *
hyd_cli_dup_solver_message (const HydOdeResult *result)
{
  g_return_val_if_fail (result != NULL, NULL);
  if (result->message == NULL)
    return g_strdup (hyd_ode_status_name (result->status));
  return hyd_ode_result_dup_message (result, translate, NULL);
}

void
hyd_cli_print_gerror (const GError *error)
{
  g_return_if_fail (error != NULL);
  g_autofree char *text = hyd_cli_dup_error_message (error);
  hyd_cli_print_error (text);
}
