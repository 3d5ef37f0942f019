/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-examples.h — the example circuits shipped in data/examples: where
 * they are and what each one is (title and description from the file). No
 * GTK here: the gallery (hyd-examples-dialog.c) shows them. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  char *path;
  char *name;         /* file name without .bramah */
  char *title;        /* the circuit's title, or the name */
  char *description;  /* the circuit's description, or "" */
} HydExample;

void hyd_example_free (HydExample *example);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydExample, hyd_example_free)

/* The examples folder: $BRAMAH_EXAMPLES_DIR when set, else the source
 * tree's data/examples when it exists (an uninstalled build), else the
 * installed one. */
const char *hyd_examples_get_directory (void);
/* Every *.bramah file of `directory` that loads, sorted by title. Files that
 * do not load are left out (with a warning). */
GPtrArray *hyd_examples_list (const char *directory);
/* The first paragraph of a description: the summary shown in the gallery. */
char *hyd_example_dup_summary (const HydExample *example);

G_END_DECLS
