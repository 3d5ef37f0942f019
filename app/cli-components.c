/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-components.c — `bramah-cli components [TYPE]`: the catalogue, one
 * line a type, or one type in full: description, ports, and parameters
 * with default, unit, range and whether they take a profile. */
#include <glib.h>
#include <string.h>
#include <math.h>
#include <stdio.h>

#include "cli-commands.h"
#include "hyd-catalogue.h"

static void
print_range (const HydParamInfo *p)
{
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
  if (p->flags & HYD_PARAM_REFERENCE)
    {
      /* docs/electrical.md, "References" */
      printf ("the id of a component with a variable %s", p->ref_var ? p->ref_var : "?");
      return;
    }
  if (p->flags & HYD_PARAM_ENUM)
    {
      printf ("one of");
      for (int c = 0; p->choices && p->choices[c]; c++)
        printf (" %s", p->choices[c]);
      return;
    }
  gboolean lo = isfinite (p->min), hi = isfinite (p->max);
  if (lo && hi)
    printf ("%s%s, %s%s", (p->flags & HYD_PARAM_MIN_EXCLUSIVE) ? "(" : "[",
            g_ascii_formatd (a, sizeof a, "%g", p->min), g_ascii_formatd (b, sizeof b, "%g", p->max),
            (p->flags & HYD_PARAM_MAX_EXCLUSIVE) ? ")" : "]");
  else if (lo)
    printf ("%s %s", (p->flags & HYD_PARAM_MIN_EXCLUSIVE) ? ">" : "≥", g_ascii_formatd (a, sizeof a, "%g", p->min));
  else if (hi)
    printf ("%s %s", (p->flags & HYD_PARAM_MAX_EXCLUSIVE) ? "<" : "≤", g_ascii_formatd (a, sizeof a, "%g", p->max));
  else
    printf ("any");
}

/* cat_width: the widest category name of the list, so the labels align */
static void
print_type (const HydComponentType *t, gboolean full, int cat_width)
{
  printf ("%-26s %-*s %s\n", t->id, cat_width, hyd_category_name (t->category), t->label ? t->label : "");
  if (!full)
    return;
  if (t->description)
    printf ("\n%s\n", t->description);
  if (t->iso_symbol)
    printf ("\nISO 1219 symbol: %s\n", t->iso_symbol);
  printf ("\nPorts:\n");
  for (guint i = 0; i < t->n_ports; i++)
    printf ("  %-6s %-10s%s  %s\n", t->ports[i].name, hyd_domain_name (t->ports[i].domain),
            t->ports[i].hidden ? " hidden" : t->ports[i].optional ? " optional" : "",
            t->ports[i].description ? t->ports[i].description : "");
  printf ("\nParameters:\n");
  for (guint i = 0; i < t->n_params; i++)
    {
      const HydParamInfo *p = &t->params[i];
      char d[G_ASCII_DTOSTR_BUF_SIZE];
      printf ("  %-28s ", p->name);
      if (p->flags & HYD_PARAM_ENUM)
        printf ("default %-12s", p->choices[(int) p->def]);
      else if (p->flags & HYD_PARAM_OPTIONAL)
        printf ("default %-12s", "(unset)");
      else if (p->flags & HYD_PARAM_FLUID_CD)
        printf ("default %-12s", "(fluid)");
      else
        printf ("default %-12s", g_ascii_formatd (d, sizeof d, "%g", p->def));
      printf (" %-10s ", hyd_unit_symbol (p->unit));
      print_range (p);
      printf ("%s\n      %s — %s\n", (p->flags & HYD_PARAM_PROFILE) ? "  (profile)" : "",
              p->label ? p->label : p->name, p->description ? p->description : "");
    }
}

static int
run (int argc, char **argv)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new ("[TYPE] — the component catalogue");
  int st = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  if (st)
    return st;
  if (argc > 2)
    return hyd_cli_usage_error (ctx, "components takes at most one TYPE");
  if (argc == 2)
    {
      const HydComponentType *t = hyd_catalogue_lookup (argv[1]);
      if (!t)
        return hyd_cli_failed ("unknown component type '%s' (bramah-cli components lists them)", argv[1]);
      print_type (t, TRUE, 14);
      return HYD_CLI_EXIT_OK;
    }
  guint n;
  const HydComponentType *const *list = hyd_catalogue_list (&n);
  int cat_width = 14;
  for (guint i = 0; i < n; i++)
    cat_width = MAX (cat_width, (int) strlen (hyd_category_name (list[i]->category)));
  for (guint i = 0; i < n; i++)
    print_type (list[i], FALSE, cat_width);
  return HYD_CLI_EXIT_OK;
}

const HydCliCommand hyd_cli_components_command = {
  "components", "list the component catalogue, or one type in full", run,
};
