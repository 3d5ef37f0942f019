/* SPDX-License-Identifier: GPL-3.0-or-later */
/* symbol-cases.h — the states each symbol is rendered in by the golden
 * tests and the contact sheet, derived from the symbol file itself. */
#pragma once

#include "hyd-symbol.h"
#include "hyd-symbol-render.h"

G_BEGIN_DECLS

typedef struct {
  char *name;             /* "dcv_4_3--centre=open--spool=-1", usable as a file name */
  char *caption;          /* "centre=open  spool=-1" ("" at rest) */
  HydSymbolState *state;
  gboolean single_change; /* at most one thing differs from the rest drawing */
} SymbolCase;

void symbol_case_free (SymbolCase *c);

/* Every combination of the string variables' values, each with the rest
 * values and then each numeric variable at each of its test values (the
 * others at rest), plus every optional port connected. */
GPtrArray *symbol_cases (const HydSymbol *symbol);

/* Render a case on a fresh image: the symbol at `module` pixels per M, on
 * the style's background, with a 1 M margin. */
cairo_surface_t *symbol_case_render (const HydSymbol *symbol, const SymbolCase *c, const HydSymbolStyle *style,
                                     double module);

/* The symbol library of this source tree. */
HydSymbolLibrary *symbol_cases_library (void);

G_END_DECLS
