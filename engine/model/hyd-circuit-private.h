/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-circuit-private.h — what the files of the circuit document share:
 * error helpers, JSON helpers, ranges and the document structs' internals.
 * Not seen outside engine/model/. */
#pragma once

#include "hyd-circuit.h"
#include "hyd-catalogue.h"
#include "hyd-diagnostic.h"
#include "hyd-i18n.h"
#include "hyd-json-scan.h"
#include "hyd-json-writer.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


G_BEGIN_DECLS

#define MAX_ID_LENGTH 32
#define NUMBER_TEXT_SIZE HYD_JSON_DOUBLE_BUF_SIZE

/* Where a message is about, as a phrase translated with the message
 * (hyd_diagnostic_set_phrase): "circuit", "component \"C1\"", "junction
 * \"J1\"", "plots[0]", "connections[3] (from \"V1.A\" to \"C1.A\")". */
typedef struct {
  const char *template;   /* N_()-marked */
  char *args[4];          /* owned, NULL-terminated */
  const HydCircuitConnection *connection; /* the connection it names, or NULL */
} HcpWhere;

void hcp_where_circuit (HcpWhere *where);
void hcp_where_component (HcpWhere *where, const char *id);
void hcp_where_junction (HcpWhere *where, const char *id);
void hcp_where_plot (HcpWhere *where, guint index);
void hcp_where_connection (HcpWhere *where, guint index, const HydCircuitConnection *conn,
                           const char *from, const char *to);
void hcp_where_clear (HcpWhere *where);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HcpWhere, hcp_where_clear)
/* An error whose template starts with where ("%s: …", argument 0); the
 * other arguments are const char *, then NULL. Names the connection if
 * where is one. */
gboolean hcp_where_error (GError **error, HydDiagnosticCode code, const HcpWhere *where,
                          const char *template, ...) G_GNUC_NULL_TERMINATED;
/* As hcp_where_error, returning the diagnostic (to name a component or set
 * more phrases) instead of setting the error. */
HydDiagnostic *hcp_where_diagnostic (HydDiagnosticCode code, const HcpWhere *where,
                                     const char *template, ...) G_GNUC_NULL_TERMINATED;

/* An error about the document as a whole, as a diagnostic: the template's
 * arguments are const char *, then NULL. */
#define hcp_error(error, code, ...) \
  hcp_component_error ((error), (code), NULL, NULL, NULL, __VA_ARGS__)

/* shared between the files of engine/model/ */
gboolean hcp_component_error (GError **error, HydDiagnosticCode code, const char *component, const char *port, const char *parameter, const char *template, ...) G_GNUC_NULL_TERMINATED;
void hcp_component_free (HydCircuitComponent *c);
gboolean hcp_connection_error (GError **error, HydDiagnosticCode code, const HydCircuitConnection *conn, const char *template, ...) G_GNUC_NULL_TERMINATED;
void hcp_connection_free (HydCircuitConnection *c);
HydCircuitConnection *hcp_connection_new (void);
char *hcp_describe_node (JsonNode *node);
void hcp_junction_free (HydCircuitJunction *j);
HydCircuitJunction *hcp_junction_new (void);
JsonNode *hcp_new_double_node (double value);
JsonNode *hcp_new_int_node (gint64 value);
JsonNode *hcp_new_object_node (JsonObject *object);
JsonNode *hcp_new_string_node (const char *value);
JsonNode *hcp_node_deep_copy (JsonNode *node);
const char *hcp_node_get_string (JsonNode *node);
gboolean hcp_node_is_null (JsonNode *node);
const char *hcp_number_text (double v, char buf[NUMBER_TEXT_SIZE]);
JsonObject *hcp_object_deep_copy (JsonObject *object);
void hcp_plot_free (HydCircuitPlot *p);
HydCircuitPlot *hcp_plot_new (void);
char *hcp_quote (const char *text);
char *hcp_range_text (double min, double max, guint flags);
gboolean hcp_value_in_range (double v, double min, double max, guint flags);

G_END_DECLS
