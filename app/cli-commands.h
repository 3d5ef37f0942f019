/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-commands.h — the commands of bramah-cli, one file each
 * (app/cli-<command>.c), and the helpers they share: the command shape, the
 * exit codes and the one way errors are printed (cli-command.c), text from
 * a file escaped for the terminal, numeric options and output files
 * (cli-util.c). */
#pragma once

#include <glib.h>
#include <stdio.h>

/* ---- the command shape ----
 * Each app/cli-<command>.c defines one HydCliCommand; bramah-cli.c lists
 * them in the order of `bramah-cli --help`. run gets argv from the command
 * word on (argv[0] is "simulate"); the program name is already "bramah-cli
 * COMMAND" for GOption's help and the "Try ... --help" hints. It returns an
 * exit status (docs/cli.md):
 *
 * A new command: app/cli-<command>.c with a static run () and its
 * HydCliCommand, declared below; the file in app/meson.build, the entry in
 * bramah-cli.c's table (for a command that needs Cairo, PLplot or
 * SUNDIALS: the file in bramah-cli-graphics's sources, the entry in its
 * table, its name and summary below); a section in docs/cli.md and its
 * invocations in tests/cli/golden.sh (then `golden.sh BIN SRC --update`). */
#define HYD_CLI_EXIT_OK 0
#define HYD_CLI_EXIT_FAILED 1  /* the circuit, a file or the simulation failed */
#define HYD_CLI_EXIT_USAGE 2   /* the command line is wrong */

typedef struct {
  const char *name;     /* the command word */
  const char *summary;  /* one line for `bramah-cli --help` */
  int (*run) (int argc, char **argv);
} HydCliCommand;

extern const HydCliCommand hyd_cli_simulate_command;        /* cli-simulate.c */
extern const HydCliCommand hyd_cli_check_command;           /* cli-check.c */
extern const HydCliCommand hyd_cli_describe_command;        /* cli-describe.c */
extern const HydCliCommand hyd_cli_explain_command;         /* cli-explain.c */
extern const HydCliCommand hyd_cli_linearize_command;       /* cli-linearize.c */
extern const HydCliCommand hyd_cli_jacobian_check_command;  /* cli-jacobian-check.c */
extern const HydCliCommand hyd_cli_components_command;      /* cli-components.c */
extern const HydCliCommand hyd_cli_solvers_command;         /* cli-solvers.c */
extern const HydCliCommand hyd_cli_verify_command;          /* cli-verify.c */
extern const HydCliCommand hyd_cli_migrate_command;         /* cli-migrate.c */
extern const HydCliCommand hyd_cli_export_c_command;        /* cli-export-c.c */

/* The commands that need Cairo, PLplot or SUNDIALS run in a second
 * executable, bramah-cli-graphics (bramah-cli-graphics.c; app/meson.build
 * says why). bramah-cli lists them by these names and summaries and
 * executes the helper for them. */
#define HYD_CLI_BENCH_NAME_SUMMARY \
  "bench", "work-precision benchmark, side by side with SUNDIALS CVODE"
#define HYD_CLI_RENDER_NAME_SUMMARY \
  "render", "draw the schematic to SVG, PDF or PNG"
#define HYD_CLI_STATE_DIAGRAM_NAME_SUMMARY \
  "state-diagram", "run a circuit and write its displacement-step diagram (CSV, SVG, PDF, PNG)"
/* Parameter studies (issue 16): in the helper too, which may link Open
 * MPI and NLopt (app/meson.build). */
#define HYD_CLI_SWEEP_NAME_SUMMARY \
  "sweep", "run a parameter study (grid, random, Latin hypercube; threads or MPI): one CSV row per run"
#define HYD_CLI_OPTIMIZE_NAME_SUMMARY \
  "optimize", "find the parameter values that minimise a metric of a run (NLopt)"
extern const HydCliCommand hyd_cli_sweep_command;           /* cli-sweep.c */
extern const HydCliCommand hyd_cli_optimize_command;        /* cli-optimize.c */
extern const HydCliCommand hyd_cli_bench_command;           /* cli-bench.c */
extern const HydCliCommand hyd_cli_render_command;          /* cli-render.c */
extern const HydCliCommand hyd_cli_state_diagram_command;   /* cli-state-diagram.c */

/* ---- errors (cli-command.c) ----
 * Every error of a command goes through one of these, which print
 * "bramah-cli: MESSAGE" (sanitized, hyd_cli_print_error) and return the
 * exit status, so that a command ends with `return hyd_cli_failed (...)`. */
/* HYD_CLI_EXIT_FAILED. */
int hyd_cli_failed (const char *fmt, ...) G_GNUC_PRINTF (1, 2);
/* HYD_CLI_EXIT_USAGE; with a context, a second line "Try 'bramah-cli
 * COMMAND --help'." */
int hyd_cli_usage_error (GOptionContext *ctx, const char *fmt, ...) G_GNUC_PRINTF (2, 3);
/* "warning: MESSAGE" on stderr (sanitized); the exit status stays. */
void hyd_cli_warning (const char *fmt, ...) G_GNUC_PRINTF (1, 2);
/* Parse the options of ctx out of argv; 0, or the usage error's status
 * (the message, and the hint when `hint`). */
int hyd_cli_parse_options (GOptionContext *ctx, gboolean hint, int *argc, char ***argv);

/* ---- text from a circuit file, for the terminal ----
 * A file's ids, titles and solver names reach the terminal only through
 * these: control characters (ESC, CR, ...), C1 controls, bidirectional
 * overrides and bytes that are not UTF-8 are shown escaped (\e, \x07,
 * \u202e, \xff), and long strings are cut with "…". */
#define HYD_CLI_QUOTE_MAX 80      /* characters of one quoted string */
#define HYD_CLI_MESSAGE_MAX 1000  /* characters of one message */
#define HYD_CLI_PATH_MAX 4096     /* characters of a path the user typed */

/* One string (an id, a title): newlines escaped too. Free the result. */
char *hyd_cli_quote (const char *text, gsize max_chars);
/* The same, cut at HYD_CLI_QUOTE_MAX, in a buffer that lives for the next
 * 15 calls: for the arguments of one printf. */
const char *hyd_cli_q (const char *text);
/* A path from the command line: escaped, cut only at HYD_CLI_PATH_MAX. */
const char *hyd_cli_qpath (const char *path);
/* A whole message (an engine error, a warning): newlines and tabs kept. */
char *hyd_cli_sanitize_message (const char *text);
/* "bramah-cli: MESSAGE\n" on stderr, sanitized. */
void hyd_cli_print_error (const char *message);

/* ---- numeric options ----
 * Each prints "bramah-cli: --OPTION: 'TEXT' is out of range (a number in
 * [MIN, MAX] UNIT)" or "... is not a number (...)" and returns FALSE. */
enum {
  HYD_CLI_MIN_EXCLUSIVE = 1 << 0,
  HYD_CLI_MAX_EXCLUSIVE = 1 << 1,
};
gboolean hyd_cli_parse_double (const char *option, const char *text, double min, double max,
                               guint flags, const char *unit, double *value);
gboolean hyd_cli_parse_int (const char *option, const char *text, gint64 min, gint64 max,
                            gint64 *value);

/* ---- output files ----
 * A named output is written to NAME.tmp-XXXXXX.EXT in the same directory
 * and renamed over NAME only when everything was written and flushed; a
 * failure, a cancel or SIGINT/SIGTERM/SIGHUP removes the temporary. An
 * existing file keeps its mode; a symbolic link keeps pointing at its
 * target, which is replaced. Devices and FIFOs (/dev/null) are written in
 * place. NULL path: standard output. */
typedef struct _HydCliOutput HydCliOutput;

HydCliOutput *hyd_cli_output_open (const char *path, GError **error);
/* For a writer that opens the file itself (render's exporter): write to
 * hyd_cli_output_write_path, then commit. */
HydCliOutput *hyd_cli_output_open_path (const char *path, GError **error);
FILE *hyd_cli_output_file (HydCliOutput *o);
const char *hyd_cli_output_write_path (HydCliOutput *o);
/* The name for messages: the path as given (quoted), or "standard output". */
const char *hyd_cli_output_name (HydCliOutput *o);
/* Writes that remember the first failure's errno (then refuse more). */
gboolean hyd_cli_output_puts (HydCliOutput *o, const char *text);
gboolean hyd_cli_output_write (HydCliOutput *o, const char *data, gsize len);
gboolean hyd_cli_output_printf (HydCliOutput *o, const char *fmt, ...) G_GNUC_PRINTF (2, 3);
gboolean hyd_cli_output_flush (HydCliOutput *o);
int hyd_cli_output_error (HydCliOutput *o);
/* Free bytes for an unprivileged user on the output's file system; FALSE
 * for a pipe, a terminal or a device. */
gboolean hyd_cli_output_free_space (HydCliOutput *o, guint64 *bytes);
/* Flush, check, close and rename into place; frees o. On failure the
 * temporary is removed and the error says what and why ("No space left on
 * device (disk full)"). */
gboolean hyd_cli_output_commit (HydCliOutput *o, GError **error);
/* Close and remove the temporary; frees o (NULL is fine). */
void hyd_cli_output_abort (HydCliOutput *o);
/* g_autoptr (HydCliOutput): an output not committed is aborted. */
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydCliOutput, hyd_cli_output_abort)

/* Memory the system can give this process now (MemAvailable); FALSE when
 * unknown. Commands that keep samples in memory check against it. */
gboolean hyd_cli_memory_available (guint64 *bytes);

/* "1.2 GB"; newly allocated. */
char *hyd_cli_format_size (double bytes);
