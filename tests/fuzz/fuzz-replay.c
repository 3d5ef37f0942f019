/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-replay.c — runs files through the libFuzzer target once each, for
 * builds without libFuzzer (gcc: the normal test suite replays the examples
 * with it). Exits non-zero when a file cannot be
 * read; a finding aborts inside the target. */
#include <stdio.h>
#include <glib.h>

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
main (int argc, char **argv)
{
  LLVMFuzzerInitialize (&argc, &argv);
  for (int i = 1; i < argc; i++)
    {
      g_autofree char *data = NULL;
      gsize len = 0;
      g_autoptr(GError) error = NULL;

      if (!g_file_get_contents (argv[i], &data, &len, &error))
        {
          fprintf (stderr, "fuzz-replay: %s\n", error->message);
          return 1;
        }
      LLVMFuzzerTestOneInput ((const guint8 *) data, len);
      printf ("ok %d - %s\n", i, argv[i]);
    }
  printf ("1..%d\n", argc - 1);
  return 0;
}
