/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-solvers.c — `bramah-cli solvers`: the solvers of this build with
 * their family, order and notes. */
#include <glib.h>
#include <stdio.h>

#include "cli-commands.h"
#include "hyd-ode.h"

static char *
utf8_pad (const char *text, glong width)
{
  glong len = g_utf8_strlen (text, -1);
  GString *s = g_string_new (text);
  for (glong k = len; k < width; k++)
    g_string_append_c (s, ' ');
  return g_string_free (s, FALSE);
}

static int
run (int argc, char **argv)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new ("— solver ids, families and orders");
  int st = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  if (st)
    return st;
  if (argc != 1)
    return hyd_cli_usage_error (ctx, "solvers takes no arguments");
  guint n;
  const HydSolverInfo *list = hyd_solver_list (&n);
  printf ("%-16s %-36s %-8s %s\n", "id", "family", "order", "notes");
  for (guint i = 0; i < n; i++)
    {
      /* pad by characters, not bytes: "1–5", "Lobatto IIIC" */
      g_autofree char *family = utf8_pad (list[i].family, 36);
      g_autofree char *order = utf8_pad (list[i].order, 8);
      printf ("%-16s %s %s %s\n", list[i].id, family, order, list[i].notes ? list[i].notes : "");
    }
  return HYD_CLI_EXIT_OK;
}

const HydCliCommand hyd_cli_solvers_command = {
  "solvers", "list the solvers", run,
};
