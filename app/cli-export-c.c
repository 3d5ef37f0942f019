/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-export-c.c — `bramah-cli export-c CIRCUIT -o DIR`: the compiled
 * circuit as a self-contained C99 program, DIR/NAME.c, with a Makefile and
 * a README (docs/export-c.md, docs/cli.md). */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "cli-circuit.h"
#include "cli-commands.h"
#include "hyd-export-c.h"
#include "hyd-system.h"

/* The program's name: the circuit file's, without ".bramah", letters,
 * digits, '-' and '_' only. */
static char *
program_name (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  if (g_str_has_suffix (base, ".bramah"))
    base[strlen (base) - strlen (".bramah")] = '\0';
  GString *s = g_string_new (NULL);
  for (const char *p = base; *p; p++)
    g_string_append_c (s, g_ascii_isalnum (*p) || *p == '-' || *p == '_' ? *p : '_');
  if (s->len == 0 || s->str[0] == '-')
    g_string_prepend (s, "circuit");
  return g_string_free (s, FALSE);
}

static gboolean
write_file (const char *dir, const char *name, const char *text, int *status)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_file_set_contents (path, text, -1, &error))
    {
      *status = hyd_cli_failed ("%s", error->message);
      return FALSE;
    }
  return TRUE;
}

static int
run (int argc, char **argv)
{
  g_autofree char *dir = NULL, *name = NULL;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &dir, "Write the program into DIR (made if missing)", "DIR" },
    { "name", 0, 0, G_OPTION_ARG_STRING, &name, "Name of the program (default: the circuit file's)", "NAME" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx =
    g_option_context_new ("CIRCUIT — write the circuit as a self-contained C program");
  g_option_context_add_main_entries (ctx, entries, NULL);
  int st = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  if (st)
    return st;
  if (argc != 2)
    return hyd_cli_usage_error (ctx, "export-c takes one CIRCUIT file");
  if (dir == NULL || *dir == '\0')
    return hyd_cli_usage_error (ctx, "export-c needs -o DIR, the directory to write the program into");
  if (name && (*name == '\0' || strspn (name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789_-") != strlen (name) || *name == '-'))
    return hyd_cli_usage_error (ctx, "--name: '%s' is not a program name (letters, digits, '_' and '-', "
                                "not starting with '-')", hyd_cli_q (name));

  g_autoptr (HydCircuit) circuit = NULL;
  g_auto (HydSimOptions) sim = { 0 };
  g_autoptr (HydSystem) sys = hyd_cli_compile_circuit (argv[1], &circuit, &sim, &st);
  if (!sys)
    return st;
  g_autoptr (GError) error = NULL;
  g_autofree char *base = g_path_get_basename (argv[1]);
  g_autofree char *text = hyd_export_c (sys, circuit, &sim, base, &error);
  if (!text)
    return hyd_cli_failed ("%s: %s", hyd_cli_qpath (argv[1]), error->message);

  if (g_mkdir_with_parents (dir, 0777) != 0)
    return hyd_cli_failed ("%s: cannot make the directory: %s", hyd_cli_qpath (dir), g_strerror (errno));
  if (name == NULL)
    name = program_name (argv[1]);
  g_autofree char *cname = g_strconcat (name, ".c", NULL);
  g_autofree char *makefile = g_strdup_printf (
    "# Made by bramah-cli export-c: builds %s with the C compiler and libm only.\n"
    "CC ?= cc\nCFLAGS ?= -O2\n\n"
    "%s: %s.c\n\t$(CC) $(CFLAGS) -std=c99 -o %s %s.c -lm\n\n"
    "run.csv: %s\n\t./%s > run.csv\n\n"
    "clean:\n\trm -f %s run.csv\n\n.PHONY: clean\n",
    name, name, name, name, name, name, name, name);
  g_autofree char *readme = g_strdup_printf (
    "%s.c — the circuit %s, exported by `bramah-cli export-c`.\n\n"
    "Build (the C compiler and libm, nothing else):\n\n"
    "    cc -O2 -std=c99 -o %s %s.c -lm      (or: make)\n\n"
    "Run it from t = 0 to the circuit's end time with RODAS4; the CSV on\n"
    "stdout has the columns of `bramah-cli simulate`:\n\n"
    "    ./%s > run.csv\n    ./%s --rtol 1e-8 > run.csv\n\n"
    "Evaluate f, the Jacobian and df/dt at given points: one line \"t y_0 ... y_n-1\"\n"
    "each on stdin (the states in the order of the enum at the top of %s.c,\n"
    "then its discrete states if it has any);\n"
    "f, J row by row and df/dt come out on one line each:\n\n"
    "    ./%s --eval < points.txt\n\n"
    "The file begins with the circuit (states, parameters with their units,\n"
    "nodes, f and J with one line per component); the component laws at its\n"
    "end are Bramah's own model code. See Bramah's docs/export-c.md.\n",
    name, base, name, name, name, name, name, name);
  if (!write_file (dir, cname, text, &st) || !write_file (dir, "Makefile", makefile, &st)
      || !write_file (dir, "README", readme, &st))
    return st;
  g_autofree char *out_path = g_build_filename (dir, cname, NULL);
  guint n = hyd_system_get_n_states (sys);
  printf ("%s: wrote %s (%u state%s; build: cc -O2 -std=c99 -o %s %s -lm)\n", hyd_cli_qpath (argv[1]),
          hyd_cli_qpath (out_path), n, n == 1 ? "" : "s", name, cname);
  return HYD_CLI_EXIT_OK;
}

const HydCliCommand hyd_cli_export_c_command = {
  "export-c", "write the circuit as a self-contained C program (f, Jacobian, RODAS4)", run,
};
