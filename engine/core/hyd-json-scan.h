/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-json-scan.h — a strict JSON reader: the check, and the tree.
 *
 * json-glib 1.6 is lenient where a circuit file must not be (it reads 0x10,
 * 00.002 and .5, ignores a second value after the first, keeps the last of
 * two equal keys, cuts strings at \u0000, wraps integers beyond 64 bits and
 * passes lone surrogates through), and its parser recurses once per nesting
 * level, so deep nesting overflows the stack (and is slow: a GScanner and
 * a recursive descent). This reader replaces it for circuit files: without
 * recursion and in time linear in the text, it accepts exactly the JSON
 * texts of RFC 8259 (Bray, 2017) that are valid UTF-8 with a bounded
 * nesting depth, no duplicate key in an object, no NUL character in a
 * string, and numbers that json-glib reads as written; anything else is
 * refused with the line and column where it starts. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Deepest nesting of objects and arrays a circuit file may have. Circuits
 * nest fewer than 10 levels (a profile's points inside a parameter inside a
 * component); the margin is for unknown keys written by newer programs. */
#define HYD_JSON_MAX_DEPTH 64

/* Longest excerpt of the text a message quotes, in characters. */
#define HYD_JSON_EXCERPT_MAX 40

/* Checks that data[0, length) is one JSON value, optionally preceded by a
 * UTF-8 byte order mark and surrounded by whitespace, nested at most
 * max_depth levels. On failure returns FALSE and sets *line and *column
 * (1-based; columns count characters) and *message (owned by the caller). */
gboolean hyd_json_scan (const char *data, gsize length, guint max_depth,
                        guint *line, guint *column, char **message);

/* As hyd_json_scan, and gives the tree: the value as json-glib's parser
 * would give it (a whole number as a 64-bit integer, any other as a
 * double; members in the order written), or NULL with *line, *column and
 * *message set as hyd_json_scan sets them. One pass over the text into a
 * document (below), then the tree of it; no recursion. */
JsonNode *hyd_json_parse (const char *data, gsize length, guint max_depth,
                          guint *line, guint *column, char **message);

/* The kinds of value in a document. */
typedef enum {
  HYD_JSON_NULL,
  HYD_JSON_FALSE,
  HYD_JSON_TRUE,
  HYD_JSON_INT,     /* a whole number: a 64-bit integer, as json-glib keeps it */
  HYD_JSON_DOUBLE,
  HYD_JSON_STRING,
  HYD_JSON_ARRAY,
  HYD_JSON_OBJECT,
} HydJsonKind;

/* A document: the values of one JSON text in one flat array, read by
 * index (the root is 0; 0 as a child or sibling means "none"). The reader
 * of circuit files reads it directly and makes json-glib trees only of the
 * parts it keeps as JSON (parameters, unknown keys): a tree of 10^5
 * components costs seconds in GLib 2.74's allocator, the document one
 * array and one string pool. */
typedef struct _HydJsonDoc HydJsonDoc;
typedef guint HydJsonRef;

/* As hyd_json_parse, into a document (NULL on error, with *line, *column
 * and *message set as hyd_json_scan sets them). */
HydJsonDoc *hyd_json_doc_parse (const char *data, gsize length, guint max_depth,
                                guint *line, guint *column, char **message);
/* As hyd_json_doc_parse; a refusal also gives its message as a template
 * (N_()-marked, for the message in the user's language:
 * hyd_diagnostic_set_phrase) and the template's arguments (a GStrv). */
HydJsonDoc *hyd_json_doc_parse_full (const char *data, gsize length, guint max_depth,
                                     guint *line, guint *column, char **message,
                                     const char **template, char ***args);
void hyd_json_doc_free (HydJsonDoc *doc);

HydJsonKind hyd_json_doc_kind (const HydJsonDoc *doc, HydJsonRef v);
/* An array's elements or an object's members: how many, the first (0 if
 * none), the one after (0 after the last), in the order written. */
guint hyd_json_doc_length (const HydJsonDoc *doc, HydJsonRef v);
HydJsonRef hyd_json_doc_first (const HydJsonDoc *doc, HydJsonRef v);
HydJsonRef hyd_json_doc_next (const HydJsonDoc *doc, HydJsonRef v);
/* A member's key (decoded). */
const char *hyd_json_doc_key (const HydJsonDoc *doc, HydJsonRef member);
/* The member of an object with this key, or 0 (also if v is no object). */
HydJsonRef hyd_json_doc_member (const HydJsonDoc *doc, HydJsonRef object, const char *key);
/* An array's element at index, or 0 (also if v is no array). */
HydJsonRef hyd_json_doc_element (const HydJsonDoc *doc, HydJsonRef array, guint index);
/* A string's decoded text, or NULL for any other kind. */
const char *hyd_json_doc_string (const HydJsonDoc *doc, HydJsonRef v);
/* A whole number's value; FALSE for any other kind. */
gboolean hyd_json_doc_int (const HydJsonDoc *doc, HydJsonRef v, gint64 *out);
/* As hyd_json_node_get_number. */
gboolean hyd_json_doc_number (const HydJsonDoc *doc, HydJsonRef v, double *out);
/* The json-glib tree of value v and everything in it (a new reference). */
JsonNode *hyd_json_doc_to_node (const HydJsonDoc *doc, HydJsonRef v);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydJsonDoc, hyd_json_doc_free)

/* A number node's value (a 64-bit integer or a double) in *value: FALSE
 * for anything else, and for a value that is not finite. The one reader of
 * numbers for the document and the profiles. */
gboolean hyd_json_node_get_number (JsonNode *node, double *value);

/* text quoted for a message: in double quotes, control characters and
 * quotes escaped, invalid UTF-8 shown as \xNN, cut after
 * HYD_JSON_EXCERPT_MAX characters with "…". length < 0: NUL-terminated. */
char *hyd_json_quote_excerpt (const char *text, gssize length);

G_END_DECLS
