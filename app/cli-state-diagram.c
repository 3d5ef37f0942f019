/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-state-diagram.c — `bramah-cli state-diagram CIRCUIT [-o OUT]`: run a
 * circuit as `simulate` does and write its displacement–step diagram
 * (hyd-state-diagram.h): each cylinder's position and each switching state
 * as a row over time, as CSV (stdout by default) or drawn as SVG, PDF or
 * PNG (docs/cli.md). */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli-circuit.h"
#include "cli-commands.h"
#include "cli-run.h"
#include "hyd-state-diagram.h"

typedef struct {
  HydStateDiagram *diagram;
  HydCliOutput *out;   /* CSV streamed here, or NULL: keep the samples */
  GString *line;
} Sink;

static gboolean
take_sample (double t, const double *values, guint n, gpointer user)
{
  Sink *s = user;
  /* values[0] is t */
  if (s->out == NULL)
    {
      hyd_state_diagram_append (s->diagram, t, values + 1);
      return TRUE;
    }
  g_string_truncate (s->line, 0);
  hyd_state_diagram_csv_line (s->diagram, t, values + 1, s->line);
  return hyd_cli_output_puts (s->out, s->line->str);
}

static int
run (int argc, char **argv)
{
  g_auto (HydCliRunArgs) args = { 0 };
  g_autofree char *output = NULL, *items = NULL, *width_text = NULL, *height_text = NULL;
  GOptionEntry run_entries[HYD_CLI_RUN_N_ENTRIES];
  hyd_cli_run_entries (&args, run_entries);
  GOptionEntry own[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write to FILE: .csv, .svg, .pdf or .png (default: CSV to stdout)", "FILE" },
    { "items", 0, 0, G_OPTION_ARG_STRING, &items, "Rows to show: component ids and discrete states (default: every cylinder and semi-rotary actuator, and every state of the electrical control)", "ID,ID..." },
    { "width", 0, 0, G_OPTION_ARG_STRING, &width_text, "Width of the drawing in points (pixels for PNG; default 800)", "W" },
    { "height", 0, 0, G_OPTION_ARG_STRING, &height_text, "Height of the drawing (default: as the rows need)", "H" },
  };
  GOptionEntry entries[HYD_CLI_RUN_N_ENTRIES + G_N_ELEMENTS (own) + 1] = { { NULL } };
  guint n = 0;
  for (guint k = 0; k < G_N_ELEMENTS (own); k++)
    entries[n++] = own[k];
  for (guint k = 0; k < HYD_CLI_RUN_N_ENTRIES; k++)
    entries[n++] = run_entries[k];
  g_autoptr (GOptionContext) ctx
    = g_option_context_new ("CIRCUIT — run a circuit and write its displacement-step (state) diagram");
  g_option_context_add_main_entries (ctx, entries, NULL);
  int st = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  if (st)
    return st;
  if (argc != 2)
    return hyd_cli_usage_error (ctx, "state-diagram takes one CIRCUIT file");

  /* the format, from the output's name */
  const char *format = "csv";
  if (output)
    {
      const char *dot = strrchr (output, '.');
      const char *slash = strrchr (output, '/');
      const char *ext = dot && (!slash || dot > slash) ? dot + 1 : "";
      if (g_ascii_strcasecmp (ext, "csv") == 0)
        format = "csv";
      else if (g_ascii_strcasecmp (ext, "svg") == 0)
        format = "svg";
      else if (g_ascii_strcasecmp (ext, "pdf") == 0)
        format = "pdf";
      else if (g_ascii_strcasecmp (ext, "png") == 0)
        format = "png";
      else
        return hyd_cli_usage_error (ctx, "-o %s: the file name must end in .csv, .svg, .pdf or .png",
                                    hyd_cli_qpath (output));
    }
  gboolean drawing = strcmp (format, "csv") != 0;
  double width = 800, height = 0;
  if (width_text && !hyd_cli_parse_double ("--width", width_text, 100, 20000, 0, "pt", &width))
    return HYD_CLI_EXIT_USAGE;
  if (height_text && !hyd_cli_parse_double ("--height", height_text, 50, 20000, 0, "pt", &height))
    return HYD_CLI_EXIT_USAGE;
  if (!drawing && (width_text || height_text))
    return hyd_cli_usage_error (ctx, "--width and --height size a drawing: give -o FILE.svg, .pdf or .png");

  g_autoptr (HydCircuit) circuit = NULL;
  g_autoptr (HydSystem) sys = NULL;
  g_auto (HydSimOptions) sim = { 0 };
  g_autoptr (GError) error = NULL;
  if ((st = hyd_cli_run_prepare (argv[1], &args, ctx, &circuit, &sim, &sys)) != 0)
    return st;

  /* the rows: what the run offers, then what --items chooses */
  guint n_vars = hyd_system_get_n_variables (sys);
  g_autofree HydStateVariable *offer = g_new0 (HydStateVariable, MAX (n_vars, 1));
  for (guint v = 0; v < n_vars; v++)
    {
      offer[v].name = hyd_system_get_variable_name (sys, v);
      offer[v].discrete_of = hyd_system_get_variable_discrete (sys, v);
    }
  g_autoptr (GPtrArray) all_rows = hyd_state_diagram_list_rows (circuit, offer, n_vars);
  g_autoptr (GPtrArray) rows = hyd_state_diagram_choose_rows (all_rows, items, &error);
  if (rows == NULL)
    return hyd_cli_failed ("--items: %s", error->message);
  if (rows->len == 0)
    return hyd_cli_failed ("%s: nothing to draw: the circuit has no cylinder, no semi-rotary actuator and no "
                           "electrical control%s", hyd_cli_qpath (argv[1]),
                           all_rows->len ? " (choose its discrete states with --items)" : "");
  g_autoptr (HydStateDiagram) diagram = hyd_state_diagram_new (rows);
  hyd_state_diagram_set_title (diagram, circuit->title);
  hyd_state_diagram_set_time_range (diagram, 0, sim.t_end);
  g_autoptr (GArray) vars = g_array_new (FALSE, FALSE, sizeof (int));
  int tv = hyd_system_find_variable (sys, "t");
  g_array_append_val (vars, tv);
  for (guint i = 0; i < rows->len; i++)
    {
      int v = hyd_system_find_variable (sys, ((HydStateRow *) g_ptr_array_index (rows, i))->variable);
      g_array_append_val (vars, v);
    }

  /* a drawing keeps every sample until the end: within memory */
  double n_samples = hyd_run_count_samples (&sim);
  guint64 avail;
  double need = n_samples * 8.0 * vars->len;
  if (drawing && n_samples <= HYD_RUN_MAX_SAMPLES && hyd_cli_memory_available (&avail) && need > (double) avail / 2)
    {
      g_autofree char *need_text = hyd_cli_format_size (need);
      g_autofree char *have = hyd_cli_format_size ((double) avail);
      return hyd_cli_failed ("%s: the diagram would keep %.0f samples of %u rows (%s) but only %s of memory is "
                             "free: raise simulation.output_interval (--output-interval) or lower "
                             "simulation.t_end (--t-end)", hyd_cli_qpath (argv[1]), n_samples, rows->len,
                             need_text, have);
    }

  g_autoptr (HydCliOutput) out = drawing ? hyd_cli_output_open_path (output, &error)
                                         : hyd_cli_output_open (output, &error);
  if (out == NULL)
    return hyd_cli_failed_error (error);
  g_autoptr (GString) line = g_string_new (NULL);
  Sink sink = { diagram, drawing ? NULL : out, line };
  if (!drawing)
    {
      hyd_state_diagram_csv_header (diagram, line);
      hyd_cli_output_puts (out, line->str);
    }
  g_auto (HydOdeResult) res = { 0 };
  HydOdeStatus status = hyd_cli_run_execute (sys, &sim, &args, vars, take_sample, &sink,
                                             hyd_cli_output_error (out) != 0, &res);
  /* a run that failed still draws what it ran, as simulate keeps its CSV */
  gboolean write_failed = hyd_cli_output_error (out) != 0;
  if (drawing && !write_failed
      && !hyd_state_diagram_export_format (diagram, hyd_cli_output_write_path (out), format, width, height, &error))
    {
      /* the message names the temporary: name the output */
      const char *tmp = hyd_cli_output_write_path (out);
      const char *why = g_str_has_prefix (error->message, tmp) ? error->message + strlen (tmp) : error->message;
      st = hyd_cli_failed ("%s%s", hyd_cli_qpath (output), why);
      hyd_cli_output_abort (g_steal_pointer (&out));
      return st;
    }
  if (!hyd_cli_output_commit (g_steal_pointer (&out), &error))
    {
      st = hyd_cli_failed_error (error);
      write_failed = TRUE;
    }
  return hyd_cli_run_report (status, &res, &args, write_failed, st);
}

const HydCliCommand hyd_cli_state_diagram_command = {
  HYD_CLI_STATE_DIAGRAM_NAME_SUMMARY, run,
};
