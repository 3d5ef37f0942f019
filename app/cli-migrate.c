/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-migrate.c — `bramah-cli migrate FILE -o OUT`: write any circuit file
 * this build reads in the version its writer writes (docs/cli.md,
 * docs/circuit-format.md). The text is the document's own canonical form
 * (hyd_circuit_to_data), written through the document's save path (a
 * temporary in OUT's folder, flushed and renamed over OUT, links followed,
 * the old mode kept). Before anything is written the text is loaded back,
 * and saved again to check that it reads back the same: what would not is
 * refused (exit 1) and OUT is left as it was. */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "cli-circuit.h"
#include "cli-commands.h"

static int
run (int argc, char **argv)
{
  g_autofree char *output = NULL;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      "Write the circuit to OUT (may be FILE itself: it is replaced only when complete)", "OUT" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("FILE -o OUT — write a circuit in the current format version");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx,
    "Reads FILE (any version this build reads) and writes it to OUT in the version this build "
    "writes,\nin the canonical form the application saves. What would not load back the same "
    "is refused\n(exit 1) and OUT is left as it was.");
  int st = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  if (st)
    return st;
  if (argc != 2)
    return hyd_cli_usage_error (ctx, "migrate takes one circuit FILE");
  if (output == NULL)
    return hyd_cli_usage_error (ctx, "migrate needs the file to write: -o OUT");
  const char *path = argv[1];

  g_autoptr (HydCircuit) circuit = hyd_cli_load_circuit (path, &st);
  if (!circuit)
    return st;
  gsize length;
  g_autofree char *data = hyd_circuit_to_data (circuit, &length);

  /* loaded back before it is written: what the reader would refuse, or
   * read otherwise, is not written (the name is OUT's, for the message) */
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) back = hyd_circuit_load_from_data (data, (gssize) length, NULL, &error);
  if (back == NULL)
    return hyd_cli_failed ("%s: cannot migrate: in version %d the circuit would not load back (%s); "
                           "%s was not written", hyd_cli_qpath (path), HYD_CIRCUIT_VERSION, error->message,
                           hyd_cli_qpath (output));
  gsize again_length;
  g_autofree char *again = hyd_circuit_to_data (back, &again_length);
  if (again_length != length || memcmp (again, data, length) != 0)
    return hyd_cli_failed ("%s: cannot migrate: in version %d the circuit would not load back the same "
                           "(a second save differs); %s was not written", hyd_cli_qpath (path),
                           back->version, hyd_cli_qpath (output));

  if (!hyd_circuit_save_data_to_file (data, length, output, 0, &error))
    return hyd_cli_failed_error (error);
  printf ("%s (version %d) → %s (version %d)\n", hyd_cli_qpath (path), circuit->version,
          hyd_cli_qpath (output), back->version);
  return HYD_CLI_EXIT_OK;
}

const HydCliCommand hyd_cli_migrate_command = {
  "migrate", "write a circuit file in the current format version", run,
};
