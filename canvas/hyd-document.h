/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-document.h — an editable circuit with unlimited undo and redo.
 *
 * Every edit is a command on the HydCircuit document: a list of primitive
 * operations (insert, remove or replace one component, junction or
 * connection, or replace the fluid / simulation / title settings) that
 * stores deep copies of what it changes, so undoing it restores the exact
 * document (and its JSON, byte for byte). Edits can be grouped into one
 * command (a mouse drag, a paste). Parameter edits from the property panel go
 * through the same stack. The document has no GTK: it is tested on its own. */
#pragma once

#include <glib-object.h>
#include "hyd-circuit.h"

G_BEGIN_DECLS

#define HYD_TYPE_DOCUMENT (hyd_document_get_type ())
G_DECLARE_FINAL_TYPE (HydDocument, hyd_document, HYD, DOCUMENT, GObject)

HydDocument *hyd_document_new (void);
/* Takes ownership of circuit. */
HydDocument *hyd_document_new_for_circuit (HydCircuit *circuit);
HydDocument *hyd_document_new_from_file (const char *path, GError **error);

const HydCircuit *hyd_document_get_circuit (HydDocument *doc);
char *hyd_document_to_data (HydDocument *doc);
gboolean hyd_document_save (HydDocument *doc, const char *path, GError **error);
const char *hyd_document_get_path (HydDocument *doc);
gboolean hyd_document_get_modified (HydDocument *doc);

/* ---- edits (each one undoable command, or part of the open group) ---- */

/* A new component of a catalogue type at (x, y), with a fresh id made from
 * the type ("P1", "V2", "C3"...). Returns the id (free it), or NULL for an
 * unknown type. */
char *hyd_document_add_component (HydDocument *doc, const char *type, double x, double y);
char *hyd_document_add_junction (HydDocument *doc, double x, double y);
/* A wire from/to "COMP.PORT" or a junction id, through route points
 * (n_points (x, y) pairs, may be 0). Checks the references and the ports'
 * domains; a port may take several wires. Returns the connection's index. */
int hyd_document_add_connection (HydDocument *doc, const char *from, const char *to,
                                 const double *route, guint n_points, GError **error);
/* Remove components and junctions by id (with every wire that touches them). */
void hyd_document_remove_items (HydDocument *doc, const char *const *ids);
/* Remove connections by index. */
void hyd_document_remove_connections (HydDocument *doc, const guint *indices, guint n);
/* Move components and junctions; route points of wires between two moved
 * items move with them. */
void hyd_document_move_items (HydDocument *doc, const char *const *ids, double dx, double dy);
/* Rotate by quarter turns (clockwise on screen) about the selection's grid
 * centre; a single component turns in place. */
void hyd_document_rotate_items (HydDocument *doc, const char *const *ids, int quarter_turns);
/* Mirror left–right about the selection's grid centre. */
void hyd_document_mirror_items (HydDocument *doc, const char *const *ids);
/* Set a parameter (a JSON number, string or profile object; NULL restores
 * the default). Validated like a loaded file; on error nothing changes. */
gboolean hyd_document_set_param (HydDocument *doc, const char *id, const char *name,
                                 JsonNode *value, GError **error);
void hyd_document_set_label (HydDocument *doc, const char *id, const char *label);
void hyd_document_set_route (HydDocument *doc, guint connection, const double *route, guint n_points);
/* Set a connection's hose length and diameter (m). */
void hyd_document_set_hose (HydDocument *doc, guint connection, double length, double diameter);
/* Split a wire at (x, y) with a new junction: the wire's length is shared
 * between the two pieces in proportion to their drawn lengths
 * (circuit-format.md, junctions). Returns the junction id. */
char *hyd_document_split_connection (HydDocument *doc, guint connection, double x, double y);
/* Replace one member of the simulation or fluid settings (NULL removes it). */
gboolean hyd_document_set_setting (HydDocument *doc, const char *section, const char *key,
                                   JsonNode *value, GError **error);
void hyd_document_set_title (HydDocument *doc, const char *title, const char *description);

/* ---- clipboard ---- */

/* The selected components and junctions with the wires among them, as a
 * circuit document (JSON text). */
char *hyd_document_copy_items (HydDocument *doc, const char *const *ids);
/* Insert a copied fragment offset by (dx, dy); ids are renamed where they
 * clash. Returns the new ids (components and junctions), or NULL on error. */
GStrv hyd_document_paste (HydDocument *doc, const char *data, double dx, double dy, GError **error);

/* ---- undo ---- */

void hyd_document_begin_group (HydDocument *doc, const char *label);
void hyd_document_end_group (HydDocument *doc);
gboolean hyd_document_can_undo (HydDocument *doc);
gboolean hyd_document_can_redo (HydDocument *doc);
const char *hyd_document_get_undo_label (HydDocument *doc);
const char *hyd_document_get_redo_label (HydDocument *doc);
gboolean hyd_document_undo (HydDocument *doc);
gboolean hyd_document_redo (HydDocument *doc);

G_END_DECLS
