/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-circuit.c — the circuit document: load, validate, save
 * (spec/circuit-format.md, version 1).
 *
 * Loading happens in two passes. The first reads the JSON tree into a
 * HydCircuit and checks only the JSON kinds of the keys it knows; unknown
 * keys go to `extra`. The second, hyd_circuit_validate, checks what the
 * values mean: ids, types, parameters, fluid and simulation settings,
 * connection references and port domains. An edited document is checked by
 * the same second pass. Saving builds a JsonNode tree in the canonical key
 * order and writes it with hyd-json-writer, so save → load → save gives the
 * same bytes. */
#define _GNU_SOURCE /* O_TMPFILE */
#include "hyd-circuit-private.h"



/* An error about a component (and one of its ports or parameters, either
 * may be NULL) as a diagnostic (hyd-diagnostic.h): the template's
 * arguments are const char *, then NULL. */
gboolean
hcp_component_error (GError **error, HydDiagnosticCode code, const char *component,
                 const char *port, const char *parameter, const char *template, ...)
{
  va_list ap;

  va_start (ap, template);
  HydDiagnostic *d = hyd_diagnostic_new_valist (code, HYD_SEVERITY_ERROR, template, ap);
  va_end (ap);
  hyd_diagnostic_set_component (d, component);
  hyd_diagnostic_set_port (d, port);
  hyd_diagnostic_set_parameter (d, parameter);
  return hyd_diagnostic_set_error (error, d);
}

/* An error about a connection, as a diagnostic naming it; the template's
 * arguments are const char *, then NULL. */
gboolean
hcp_connection_error (GError **error, HydDiagnosticCode code, const HydCircuitConnection *conn,
                  const char *template, ...)
{
  va_list ap;

  va_start (ap, template);
  HydDiagnostic *d = hyd_diagnostic_new_valist (code, HYD_SEVERITY_ERROR, template, ap);
  va_end (ap);
  hyd_diagnostic_set_connection (d, conn->from, conn->to);
  return hyd_diagnostic_set_error (error, d);
}

/* ---------------------------------------------------------------------------
 * Where a message is about
 * ------------------------------------------------------------------------- */

void
hcp_where_circuit (HcpWhere *where)
{
  *where = (HcpWhere) { N_("circuit"), { NULL }, NULL };
}

void
hcp_where_component (HcpWhere *where, const char *id)
{
  *where = (HcpWhere) { N_("component %s"), { hcp_quote (id) }, NULL };
}

void
hcp_where_junction (HcpWhere *where, const char *id)
{
  *where = (HcpWhere) { N_("junction %s"), { hcp_quote (id) }, NULL };
}

void
hcp_where_plot (HcpWhere *where, guint index)
{
  *where = (HcpWhere) { N_("plots[%s]"), { g_strdup_printf ("%u", index) }, NULL };
}

void
hcp_where_connection (HcpWhere *where, guint index, const HydCircuitConnection *conn,
                      const char *from, const char *to)
{
  *where = (HcpWhere) { N_("connections[%s] (from %s to %s)"),
                        { g_strdup_printf ("%u", index), from ? hcp_quote (from) : g_strdup ("?"),
                          to ? hcp_quote (to) : g_strdup ("?") },
                        conn };
}

void
hcp_where_clear (HcpWhere *where)
{
  for (guint i = 0; i < G_N_ELEMENTS (where->args); i++)
    g_clear_pointer (&where->args[i], g_free);
}

static HydDiagnostic *
where_diagnostic_v (HydDiagnosticCode code, const HcpWhere *where, const char *template,
                    va_list ap)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  g_strv_builder_add (builder, "");
  for (const char *a = va_arg (ap, const char *); a != NULL; a = va_arg (ap, const char *))
    g_strv_builder_add (builder, a);
  g_auto (GStrv) args = g_strv_builder_end (builder);
  HydDiagnostic *d = hyd_diagnostic_newv (code, HYD_SEVERITY_ERROR, template, (const char *const *) args);
  hyd_diagnostic_set_phrase (d, 0, where->template, (const char *const *) where->args);
  if (where->connection)
    hyd_diagnostic_set_connection (d, where->connection->from, where->connection->to);
  return d;
}

HydDiagnostic *
hcp_where_diagnostic (HydDiagnosticCode code, const HcpWhere *where, const char *template, ...)
{
  va_list ap;

  va_start (ap, template);
  HydDiagnostic *d = where_diagnostic_v (code, where, template, ap);
  va_end (ap);
  return d;
}

gboolean
hcp_where_error (GError **error, HydDiagnosticCode code, const HcpWhere *where,
                 const char *template, ...)
{
  va_list ap;

  /* a first pass that only asks whether (error NULL) has no where */
  if (error == NULL)
    return FALSE;
  va_start (ap, template);
  HydDiagnostic *d = where_diagnostic_v (code, where, template, ap);
  va_end (ap);
  return hyd_diagnostic_set_error (error, d);
}

/* ---------------------------------------------------------------------------
 * JSON helpers
 * ------------------------------------------------------------------------- */

JsonObject *
hcp_object_deep_copy (JsonObject *object)
{
  JsonObject *copy = json_object_new ();
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    json_object_set_member (copy, l->data,
                            hcp_node_deep_copy (json_object_get_member (object, l->data)));
  return copy;
}

/* A copy that shares nothing with its original: json_node_copy shares
 * objects and arrays, and values too, whose reference counts json-glib
 * (1.6) changes without atomics, so a copy handed to another thread (a
 * study's workers, the runner) would race with its original on them. */
static JsonNode *
value_copy (JsonNode *node)
{
  GType type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    return json_node_init_int (json_node_alloc (), json_node_get_int (node));
  if (type == G_TYPE_DOUBLE)
    return json_node_init_double (json_node_alloc (), json_node_get_double (node));
  if (type == G_TYPE_BOOLEAN)
    return json_node_init_boolean (json_node_alloc (), json_node_get_boolean (node));
  if (type == G_TYPE_STRING)
    return json_node_init_string (json_node_alloc (), json_node_get_string (node));
  return json_node_init_null (json_node_alloc ());
}

JsonNode *
hcp_node_deep_copy (JsonNode *node)
{
  JsonNode *copy;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      copy = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (copy, hcp_object_deep_copy (json_node_get_object (node)));
      return copy;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = json_array_get_length (array);
        JsonArray *array_copy = json_array_sized_new (n);

        for (guint i = 0; i < n; i++)
          json_array_add_element (array_copy, hcp_node_deep_copy (json_array_get_element (array, i)));
        copy = json_node_new (JSON_NODE_ARRAY);
        json_node_take_array (copy, array_copy);
        return copy;
      }

    case JSON_NODE_VALUE:
      return value_copy (node);

    case JSON_NODE_NULL:
    default:
      return json_node_init_null (json_node_alloc ());
    }
}


const char *
hcp_node_get_string (JsonNode *node)
{
  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

gboolean
hcp_node_is_null (JsonNode *node)
{
  return node != NULL && JSON_NODE_TYPE (node) == JSON_NODE_NULL;
}

/* Text from the file, quoted and cut for a message ("C1", "a very lo…"). */
char *
hcp_quote (const char *text)
{
  /* the common case, a short printable ASCII name, quotes as it is */
  gsize n = 0;
  for (const char *p = text ? text : ""; *p; p++, n++)
    if (n >= HYD_JSON_EXCERPT_MAX || *p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\')
      return hyd_json_quote_excerpt (text, -1);
  return g_strconcat ("\"", text ? text : "", "\"", NULL);
}


/* A number for messages: ten significant digits are enough to recognise the
 * value the user wrote, and hide rounding in computed bounds (0.5 − 0.6). */
const char *
hcp_number_text (double v, char buf[NUMBER_TEXT_SIZE])
{
  char *e;

  g_ascii_formatd (buf, NUMBER_TEXT_SIZE, "%.10g", v);
  /* "1e-06" → "1e-6", as the file would say it */
  e = strchr (buf, 'e');
  if (e != NULL)
    {
      char *digits = e + 1 + (e[1] == '-' || e[1] == '+');
      char *src = digits;

      while (*src == '0' && src[1] != '\0')
        src++;
      memmove (digits, src, strlen (src) + 1);
      if (e[1] == '+')
        memmove (e + 1, e + 2, strlen (e + 2) + 1);
    }
  return buf;
}

/* A short description of a value for messages: 3.5, "abc", an object, … */
char *
hcp_describe_node (JsonNode *node)
{
  char buf[NUMBER_TEXT_SIZE];
  double v;

  if (hyd_json_node_get_number (node, &v))
    return g_strdup (hcp_number_text (v, buf));
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      return g_strdup ("an object");
    case JSON_NODE_ARRAY:
      return g_strdup ("an array");
    case JSON_NODE_NULL:
      return g_strdup ("null");
    case JSON_NODE_VALUE:
    default:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        return hcp_quote (json_node_get_string (node));
      if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
        return g_strdup (json_node_get_double (node) > 0 ? "a number beyond 1.8e308"
                         : json_node_get_double (node) < 0 ? "a number below -1.8e308"
                         : "not a number");
      if (json_node_get_value_type (node) == G_TYPE_BOOLEAN)
        return g_strdup (json_node_get_boolean (node) ? "true" : "false");
      return g_strdup ("a value");
    }
}

JsonNode *
hcp_new_double_node (double value)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);
  json_node_set_double (node, value);
  return node;
}

JsonNode *
hcp_new_int_node (gint64 value)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);
  json_node_set_int (node, value);
  return node;
}

JsonNode *
hcp_new_string_node (const char *value)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);
  json_node_set_string (node, value);
  return node;
}

JsonNode *
hcp_new_object_node (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, object);
  return node;
}

/* ---------------------------------------------------------------------------
 * Ranges (shared by parameters, fluid and simulation settings)
 * ------------------------------------------------------------------------- */

gboolean
hcp_value_in_range (double v, double min, double max, guint flags)
{
  if (flags & HYD_PARAM_MIN_EXCLUSIVE ? !(v > min) : !(v >= min))
    return FALSE;
  if (flags & HYD_PARAM_MAX_EXCLUSIVE ? !(v < max) : !(v <= max))
    return FALSE;
  return TRUE;
}

/* "> 0", "≥ -101325", "in [0, 1)", "≤ 5", or NULL when any value goes. */
char *
hcp_range_text (double min, double max, guint flags)
{
  char lo[NUMBER_TEXT_SIZE], hi[NUMBER_TEXT_SIZE];
  gboolean has_min = isfinite (min), has_max = isfinite (max);

  hcp_number_text (min, lo);
  hcp_number_text (max, hi);
  if (has_min && has_max)
    return g_strdup_printf ("in %c%s, %s%c",
                            flags & HYD_PARAM_MIN_EXCLUSIVE ? '(' : '[', lo, hi,
                            flags & HYD_PARAM_MAX_EXCLUSIVE ? ')' : ']');
  if (has_min)
    return g_strdup_printf ("%s %s", flags & HYD_PARAM_MIN_EXCLUSIVE ? ">" : "≥", lo);
  if (has_max)
    return g_strdup_printf ("%s %s", flags & HYD_PARAM_MAX_EXCLUSIVE ? "<" : "≤", hi);
  return NULL;
}

/* ---------------------------------------------------------------------------
 * Document structs
 * ------------------------------------------------------------------------- */

void
hcp_component_free (HydCircuitComponent *c)
{
  g_free (c->id);
  g_free (c->type);
  g_free (c->label);
  g_clear_pointer (&c->params, json_object_unref);
  g_clear_pointer (&c->extra, json_object_unref);
  g_free (c);
}

static HydCircuitComponent *
component_new (void)
{
  HydCircuitComponent *c = g_new0 (HydCircuitComponent, 1);
  c->params = json_object_new ();
  return c;
}

static HydCircuitComponent *
component_copy (const HydCircuitComponent *c)
{
  HydCircuitComponent *copy = g_new0 (HydCircuitComponent, 1);

  *copy = *c;
  copy->id = g_strdup (c->id);
  copy->type = g_strdup (c->type);
  copy->label = g_strdup (c->label);
  copy->params = hcp_object_deep_copy (c->params);
  copy->extra = c->extra ? hcp_object_deep_copy (c->extra) : NULL;
  return copy;
}

void
hcp_junction_free (HydCircuitJunction *j)
{
  g_free (j->id);
  g_clear_pointer (&j->extra, json_object_unref);
  g_free (j);
}

HydCircuitJunction *
hcp_junction_new (void)
{
  HydCircuitJunction *j = g_new0 (HydCircuitJunction, 1);
  return j;
}

static HydCircuitJunction *
junction_copy (const HydCircuitJunction *j)
{
  HydCircuitJunction *copy = g_new0 (HydCircuitJunction, 1);

  *copy = *j;
  copy->id = g_strdup (j->id);
  copy->extra = j->extra ? hcp_object_deep_copy (j->extra) : NULL;
  return copy;
}

void
hcp_connection_free (HydCircuitConnection *c)
{
  g_free (c->from);
  g_free (c->to);
  g_clear_pointer (&c->route, g_array_unref);
  g_clear_pointer (&c->extra, json_object_unref);
  g_free (c);
}

HydCircuitConnection *
hcp_connection_new (void)
{
  HydCircuitConnection *c = g_new0 (HydCircuitConnection, 1);
  c->length = 0.5;
  c->diameter = 0.01;
  return c;
}

static HydCircuitConnection *
connection_copy (const HydCircuitConnection *c)
{
  HydCircuitConnection *copy = g_new0 (HydCircuitConnection, 1);

  *copy = *c;
  copy->from = g_strdup (c->from);
  copy->to = g_strdup (c->to);
  if (c->route != NULL)
    {
      copy->route = g_array_sized_new (FALSE, FALSE, sizeof (double), c->route->len);
      g_array_append_vals (copy->route, c->route->data, c->route->len);
    }
  copy->extra = c->extra ? hcp_object_deep_copy (c->extra) : NULL;
  return copy;
}

void
hcp_plot_free (HydCircuitPlot *p)
{
  g_free (p->title);
  g_clear_pointer (&p->traces, g_ptr_array_unref);
  g_free (p->y_unit);
  g_clear_pointer (&p->extra, json_object_unref);
  g_free (p);
}

HydCircuitPlot *
hcp_plot_new (void)
{
  HydCircuitPlot *p = g_new0 (HydCircuitPlot, 1);
  return p;
}

static HydCircuitPlot *
plot_copy (const HydCircuitPlot *p)
{
  HydCircuitPlot *copy = hcp_plot_new ();

  copy->title = g_strdup (p->title);
  copy->y_unit = g_strdup (p->y_unit);
  if (p->traces != NULL)
    {
      copy->traces = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < p->traces->len; i++)
        g_ptr_array_add (copy->traces, g_strdup (g_ptr_array_index (p->traces, i)));
    }
  g_clear_pointer (&copy->extra, json_object_unref);
  copy->extra = p->extra ? hcp_object_deep_copy (p->extra) : NULL;
  return copy;
}

HydCircuit *
hyd_circuit_new (void)
{
  HydCircuit *circuit = g_new0 (HydCircuit, 1);

  circuit->version = HYD_CIRCUIT_VERSION;
  circuit->components = g_ptr_array_new_with_free_func ((GDestroyNotify) hcp_component_free);
  circuit->junctions = g_ptr_array_new_with_free_func ((GDestroyNotify) hcp_junction_free);
  circuit->connections = g_ptr_array_new_with_free_func ((GDestroyNotify) hcp_connection_free);
  circuit->extra = json_object_new ();
  return circuit;
}

void
hyd_circuit_free (HydCircuit *circuit)
{
  if (circuit == NULL)
    return;
  g_free (circuit->title);
  g_free (circuit->description);
  g_clear_pointer (&circuit->fluid, json_object_unref);
  g_clear_pointer (&circuit->simulation, json_object_unref);
  g_clear_pointer (&circuit->components, g_ptr_array_unref);
  g_clear_pointer (&circuit->junctions, g_ptr_array_unref);
  g_clear_pointer (&circuit->connections, g_ptr_array_unref);
  g_clear_pointer (&circuit->plots, g_ptr_array_unref);
  g_clear_pointer (&circuit->extra, json_object_unref);
  g_free (circuit);
}

HydCircuit *
hyd_circuit_copy (const HydCircuit *circuit)
{
  HydCircuit *copy;

  g_return_val_if_fail (circuit != NULL, NULL);

  copy = hyd_circuit_new ();
  copy->title = g_strdup (circuit->title);
  copy->description = g_strdup (circuit->description);
  copy->version = circuit->version;
  if (circuit->fluid != NULL)
    copy->fluid = hcp_object_deep_copy (circuit->fluid);
  if (circuit->simulation != NULL)
    copy->simulation = hcp_object_deep_copy (circuit->simulation);
  for (guint i = 0; i < circuit->components->len; i++)
    g_ptr_array_add (copy->components, component_copy (g_ptr_array_index (circuit->components, i)));
  for (guint i = 0; i < circuit->junctions->len; i++)
    g_ptr_array_add (copy->junctions, junction_copy (g_ptr_array_index (circuit->junctions, i)));
  for (guint i = 0; i < circuit->connections->len; i++)
    g_ptr_array_add (copy->connections, connection_copy (g_ptr_array_index (circuit->connections, i)));
  if (circuit->plots != NULL)
    {
      copy->plots = g_ptr_array_new_with_free_func ((GDestroyNotify) hcp_plot_free);
      for (guint i = 0; i < circuit->plots->len; i++)
        g_ptr_array_add (copy->plots, plot_copy (g_ptr_array_index (circuit->plots, i)));
    }
  json_object_unref (copy->extra);
  copy->extra = hcp_object_deep_copy (circuit->extra);
  return copy;
}

HydCircuitComponent *
hyd_circuit_component_new (const char *id, const char *type)
{
  HydCircuitComponent *c = component_new ();
  c->id = g_strdup (id);
  c->type = g_strdup (type);
  return c;
}

HydCircuitComponent *
hyd_circuit_component_copy (const HydCircuitComponent *component)
{
  return component_copy (component);
}

void
hyd_circuit_component_free (HydCircuitComponent *component)
{
  if (component)
    hcp_component_free (component);
}

HydCircuitJunction *
hyd_circuit_junction_new (const char *id)
{
  HydCircuitJunction *j = hcp_junction_new ();
  j->id = g_strdup (id);
  return j;
}

HydCircuitJunction *
hyd_circuit_junction_copy (const HydCircuitJunction *junction)
{
  return junction_copy (junction);
}

void
hyd_circuit_junction_free (HydCircuitJunction *junction)
{
  if (junction)
    hcp_junction_free (junction);
}

HydCircuitConnection *
hyd_circuit_connection_new (const char *from, const char *to)
{
  HydCircuitConnection *c = hcp_connection_new ();
  c->from = g_strdup (from);
  c->to = g_strdup (to);
  return c;
}

HydCircuitConnection *
hyd_circuit_connection_copy (const HydCircuitConnection *connection)
{
  return connection_copy (connection);
}

void
hyd_circuit_connection_free (HydCircuitConnection *connection)
{
  if (connection)
    hcp_connection_free (connection);
}

HydCircuitComponent *
hyd_circuit_find_component (const HydCircuit *circuit, const char *id)
{
  g_return_val_if_fail (circuit != NULL, NULL);
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < circuit->components->len; i++)
    {
      HydCircuitComponent *c = g_ptr_array_index (circuit->components, i);
      if (g_strcmp0 (c->id, id) == 0)
        return c;
    }
  return NULL;
}

HydCircuitJunction *
hyd_circuit_find_junction (const HydCircuit *circuit, const char *id)
{
  g_return_val_if_fail (circuit != NULL, NULL);
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < circuit->junctions->len; i++)
    {
      HydCircuitJunction *j = g_ptr_array_index (circuit->junctions, i);
      if (g_strcmp0 (j->id, id) == 0)
        return j;
    }
  return NULL;
}

gboolean
hyd_circuit_split_port_ref (const char *ref, char **component, char **port)
{
  const char *dot;

  g_return_val_if_fail (ref != NULL, FALSE);

  if (component)
    *component = NULL;
  if (port)
    *port = NULL;
  dot = strchr (ref, '.');
  if (dot == NULL)
    return FALSE;
  if (component)
    *component = g_strndup (ref, dot - ref);
  if (port)
    *port = g_strdup (dot + 1);
  return TRUE;
}

gboolean
hyd_circuit_lookup_port_ref (GHashTable *ids, const char *ref, gpointer *value, const char **port)
{
  char buf[MAX_ID_LENGTH + 2];
  const char *dot;
  gsize n;

  g_return_val_if_fail (ids != NULL && ref != NULL && value != NULL && port != NULL, FALSE);

  *value = NULL;
  *port = NULL;
  dot = strchr (ref, '.');
  if (dot == NULL)
    return FALSE;
  *port = dot + 1;
  n = (gsize) (dot - ref);
  if (n < sizeof buf)
    {
      memcpy (buf, ref, n);
      buf[n] = '\0';
      *value = g_hash_table_lookup (ids, buf);
    }
  else
    {
      /* longer than a valid id: only a document not yet validated has one */
      g_autofree char *id = g_strndup (ref, n);
      *value = g_hash_table_lookup (ids, id);
    }
  return TRUE;
}
