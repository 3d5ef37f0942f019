/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-examples.c — listing the example circuits. */
#define G_LOG_DOMAIN "hyd-examples"

#include "bramah-config.h"
#include "hyd-examples.h"
#include "hyd-symbol.h"

#include <string.h>
#include "hyd-circuit.h"

void
hyd_example_free (HydExample *example)
{
  if (example == NULL)
    return;
  g_free (example->path);
  g_free (example->name);
  g_free (example->title);
  g_free (example->description);
  g_free (example);
}

const char *
hyd_examples_get_directory (void)
{
  static char *directory;

  if (g_once_init_enter (&directory))
    {
      const char *env = g_getenv ("BRAMAH_EXAMPLES_DIR");
      char *dir;
      if (env && *env)
        dir = g_strdup (env);
      else if (hyd_running_uninstalled () && g_file_test (BRAMAH_SOURCE_DIR "/data/examples", G_FILE_TEST_IS_DIR))
        dir = g_strdup (BRAMAH_SOURCE_DIR "/data/examples");
      else
        dir = g_strdup (BRAMAH_PKGDATADIR "/examples");
      g_once_init_leave (&directory, dir);
    }
  return directory;
}

static int
compare_by_title (gconstpointer a, gconstpointer b)
{
  const HydExample *ea = *(HydExample *const *) a;
  const HydExample *eb = *(HydExample *const *) b;
  g_autofree char *ka = g_utf8_collate_key (ea->title, -1);
  g_autofree char *kb = g_utf8_collate_key (eb->title, -1);
  int c = strcmp (ka, kb);
  return c ? c : strcmp (ea->name, eb->name);
}

GPtrArray *
hyd_examples_list (const char *directory)
{
  g_return_val_if_fail (directory != NULL, NULL);

  GPtrArray *examples = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_example_free);
  g_autoptr (GDir) dir = g_dir_open (directory, 0, NULL);
  if (dir == NULL)
    return examples;

  const char *file;
  while ((file = g_dir_read_name (dir)) != NULL)
    {
      if (!g_str_has_suffix (file, ".bramah"))
        continue;
      g_autofree char *path = g_build_filename (directory, file, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_file (path, &error);
      if (circuit == NULL)
        {
          g_warning ("example %s does not load: %s", path, error->message);
          continue;
        }
      HydExample *example = g_new0 (HydExample, 1);
      example->path = g_steal_pointer (&path);
      example->name = g_strndup (file, strlen (file) - strlen (".bramah"));
      example->title = g_strdup (circuit->title && *circuit->title ? circuit->title : example->name);
      example->description = g_strdup (circuit->description ? circuit->description : "");
      g_ptr_array_add (examples, example);
    }
  g_ptr_array_sort (examples, compare_by_title);
  return examples;
}

char *
hyd_example_dup_summary (const HydExample *example)
{
  g_return_val_if_fail (example != NULL, NULL);
  const char *d = example->description;
  const char *end = strstr (d, "\n\n");
  return end ? g_strndup (d, end - d) : g_strdup (d);
}
