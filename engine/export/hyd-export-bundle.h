/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-export-bundle.h — the engine's source files embedded for export-c
 * (made at build time by gen-bundle.py; docs/export-c.md). */
#pragma once

#include <stddef.h>

typedef struct {
  const char *path;               /* relative to the source tree, e.g. "engine/core/hyd-fluid.c" */
  const char *const *lines;       /* NULL-terminated, its project #includes dropped */
  const char *const *deps;        /* NULL-terminated: the files it uses definitions of */
  const char *const *names;       /* NULL-terminated: its file-scope statics, enum
                                     constants and typedef names */
  const char *const *macros;      /* NULL-terminated: the macros it defines */
} HydExportFile;

typedef struct {
  const char *type_id;            /* "pump" */
  const char *path;               /* the file that defines it */
  const char *symbol;             /* its C name, "hyd_pump_type" */
} HydExportTypeFile;

extern const HydExportFile hyd_export_files[];      /* ends with path NULL */
extern const HydExportTypeFile hyd_export_type_files[]; /* ends with type_id NULL */
