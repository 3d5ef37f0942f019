/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-json-writer.h — deterministic JSON text for JsonNode trees.
 *
 * Used for saving circuits (circuit-format.md): 2-space indentation, object
 * members in insertion order, integers as integers, and every double as the
 * shortest text that reads back to the same value, whatever the locale.
 * Arrays of numbers (points, positions, routes) are written on one line, so
 * the output is stable: write → parse → write gives the same bytes. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Longest text hyd_json_format_double writes, with its terminating NUL. */
#define HYD_JSON_DOUBLE_BUF_SIZE 32

/* Writes the shortest decimal text for value that g_ascii_strtod reads back
 * exactly ("0.1", "1e-9", "240"); returns buf. Non-finite values give "null"
 * for NaN and ±1e999 for infinities. */
char *hyd_json_format_double (double value, char buf[HYD_JSON_DOUBLE_BUF_SIZE]);

/* Appends the JSON text of node to out, nested at indent levels (no newline).
 * It writes only what hyd_json_scan accepts: a number that is not finite is
 * written as null, a string's control characters as escapes, and a byte of
 * a string that is not valid UTF-8 as U+FFFD. */
void hyd_json_write_node (GString *out, JsonNode *node, guint indent);

/* The JSON text of node, ending with a newline. length may be NULL. */
char *hyd_json_to_string (JsonNode *node, gsize *length);

G_END_DECLS
