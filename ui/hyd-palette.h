/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-palette.h — the component palette: searchable, by category, with
 * symbol previews and the catalogue's descriptions as tooltips. Each entry
 * is a drag source (the type id as a string, for the canvas's drop target);
 * a click emits "type-activated" (the window arms the canvas's place tool);
 * its context menu opens the component's help. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define HYD_TYPE_PALETTE (hyd_palette_get_type ())
G_DECLARE_FINAL_TYPE (HydPalette, hyd_palette, HYD, PALETTE, GtkWidget)

GtkWidget *hyd_palette_new (void);
/* Focus the search entry. */
void hyd_palette_focus_search (HydPalette *self);
/* Entries visible under the current search, in order (type ids). */
GStrv hyd_palette_dup_visible_types (HydPalette *self);
/* The entry's row widget for a type id (for geometry), or NULL. */
GtkWidget *hyd_palette_get_entry (HydPalette *self, const char *type_id);
void hyd_palette_set_sensitive_entries (HydPalette *self, gboolean sensitive);

/* Signals:
 *   "type-activated" (const char *type_id)
 *   "help-requested" (const char *type_id) */

G_END_DECLS
