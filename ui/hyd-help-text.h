/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-help-text.h — the help page of a component type, generated from the
 * catalogue: its description with the law, its ports and a table of its
 * parameters with units (engineering units, as the property panel shows
 * them), defaults and ranges. No GTK here: the help window (hyd-help.c)
 * lays it out and the tests read it headless. */
#pragma once

#include <glib.h>
#include "hyd-component.h"

G_BEGIN_DECLS

typedef struct {
  char *label;         /* "Cracking pressure" */
  char *key;           /* "cracking_pressure" (the name in files and on the command line) */
  char *default_text;  /* "100 bar", "closed", "fluid's C_d (0.7)" */
  char *range;         /* "more than 0 bar", "one of closed, open, tandem, float" */
  char *unit;          /* "bar", "" */
  char *description;
  gboolean profile;    /* can change over time and be moved live */
} HydHelpParamRow;

void hyd_help_param_row_free (HydHelpParamRow *row);

/* Translated catalogue texts of a type. */
const char *hyd_help_type_label (const HydComponentType *type);
const char *hyd_help_category_label (HydCategory category);
/* The category's heading: its label, or for a category this file does not
 * know yet (appended to HydCategory later) the engine's name, translated
 * and capitalised ("Signals"), never empty. */
const char *hyd_help_category_title (HydCategory category);
/* The categories `types` use, each once, in HydCategory's order: the
 * palette's sections, whatever categories the catalogue gains. */
GArray *hyd_help_categories (const HydComponentType *const *types, guint n_types);
/* A port's domain, and its direction when it has one: "hydraulic",
 * "translational", "signal, input", "signal, output". Free it. */
char *hyd_help_port_kind (const HydPortInfo *port);
/* One row per parameter, in catalogue order. */
GPtrArray *hyd_help_param_rows (const HydComponentType *type);
/* The whole page as plain text (for the tests, and "Copy"). */
char *hyd_help_dup_text (const HydComponentType *type);

/* The help page on the fluid models ("bulk_modulus_model"): what each
 * model does and why "cavitating" is the default, with the literature. */
#define HYD_HELP_PAGE_FLUID "fluid-models"
const char *hyd_help_fluid_title (void);
/* The models' names, in the order the page explains them (NULL-terminated). */
const char *const *hyd_help_fluid_models (void);
char *hyd_help_fluid_dup_text (void);

/* The help of the "Jacobian Sparsity" window (hyd-sparsity-view.c): what it
 * draws, the colour scale and its scaling, the links with the schematic,
 * the counts. Free it. */
char *hyd_help_sparsity_dup_text (void);
/* The help of the "Parameter Study" window (hyd-study-dialog.c): what it
 * does, as one paragraph. traces: at most that many traces drawn, of
 * points points each; points_drawn: of the metric plot; max_runs: the
 * largest study it takes. */
char *hyd_help_study_dup_text (guint traces, guint points, guint points_drawn, guint max_runs);
/* The Solver Lab's help (its "?" button, hyd-solver-lab.c): what its
 * diagrams, table and heat map show. Newly allocated. */
char *hyd_help_solver_lab_dup_text (void);

G_END_DECLS
