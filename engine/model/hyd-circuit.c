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

#define MAX_ID_LENGTH 32

static gboolean set_error (GError **error, HydCircuitErrorCode code,
                           const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
set_error (GError **error, HydCircuitErrorCode code, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (HYD_CIRCUIT_ERROR, code, format, args));
  va_end (args);
  return FALSE;
}

static gboolean component_error (GError **error, HydDiagnosticCode code, const char *component,
                                 const char *port, const char *parameter,
                                 const char *template, ...) G_GNUC_NULL_TERMINATED;

/* An error about a component (and one of its ports or parameters, either
 * may be NULL) as a diagnostic (hyd-diagnostic.h): the template's
 * arguments are const char *, then NULL. */
static gboolean
component_error (GError **error, HydDiagnosticCode code, const char *component,
                 const char *port, const char *parameter, const char *template, ...)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  va_list ap;

  va_start (ap, template);
  for (const char *a = va_arg (ap, const char *); a != NULL; a = va_arg (ap, const char *))
    g_strv_builder_add (builder, a);
  va_end (ap);
  g_auto (GStrv) args = g_strv_builder_end (builder);
  HydDiagnostic *d = hyd_diagnostic_newv (code, HYD_SEVERITY_ERROR, template,
                                          (const char *const *) args);
  hyd_diagnostic_set_component (d, component);
  hyd_diagnostic_set_port (d, port);
  hyd_diagnostic_set_parameter (d, parameter);
  return hyd_diagnostic_set_error (error, d);
}

static gboolean connection_error (GError **error, HydDiagnosticCode code,
                                  const HydCircuitConnection *conn,
                                  const char *template, ...) G_GNUC_NULL_TERMINATED;

/* An error about a connection, as a diagnostic naming it; the template's
 * arguments are const char *, then NULL. */
static gboolean
connection_error (GError **error, HydDiagnosticCode code, const HydCircuitConnection *conn,
                  const char *template, ...)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  va_list ap;

  va_start (ap, template);
  for (const char *a = va_arg (ap, const char *); a != NULL; a = va_arg (ap, const char *))
    g_strv_builder_add (builder, a);
  va_end (ap);
  g_auto (GStrv) args = g_strv_builder_end (builder);
  HydDiagnostic *d = hyd_diagnostic_newv (code, HYD_SEVERITY_ERROR, template,
                                          (const char *const *) args);
  hyd_diagnostic_set_connection (d, conn->from, conn->to);
  return hyd_diagnostic_set_error (error, d);
}

/* ---------------------------------------------------------------------------
 * JSON helpers
 * ------------------------------------------------------------------------- */

static JsonNode *node_deep_copy (JsonNode *node);

static JsonObject *
object_deep_copy (JsonObject *object)
{
  JsonObject *copy = json_object_new ();
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    json_object_set_member (copy, l->data,
                            node_deep_copy (json_object_get_member (object, l->data)));
  return copy;
}

/* json_node_copy shares objects and arrays; the document owns its trees. */
static JsonNode *
node_deep_copy (JsonNode *node)
{
  JsonNode *copy;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      copy = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (copy, object_deep_copy (json_node_get_object (node)));
      return copy;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = json_array_get_length (array);
        JsonArray *array_copy = json_array_sized_new (n);

        for (guint i = 0; i < n; i++)
          json_array_add_element (array_copy, node_deep_copy (json_array_get_element (array, i)));
        copy = json_node_new (JSON_NODE_ARRAY);
        json_node_take_array (copy, array_copy);
        return copy;
      }

    case JSON_NODE_VALUE:
    case JSON_NODE_NULL:
    default:
      return json_node_copy (node);
    }
}


static const char *
node_get_string (JsonNode *node)
{
  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static gboolean
node_is_null (JsonNode *node)
{
  return node != NULL && JSON_NODE_TYPE (node) == JSON_NODE_NULL;
}

/* Text from the file, quoted and cut for a message ("C1", "a very lo…"). */
static char *
quote (const char *text)
{
  /* the common case, a short printable ASCII name, quotes as it is */
  gsize n = 0;
  for (const char *p = text ? text : ""; *p; p++, n++)
    if (n >= HYD_JSON_EXCERPT_MAX || *p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\')
      return hyd_json_quote_excerpt (text, -1);
  return g_strconcat ("\"", text ? text : "", "\"", NULL);
}

#define NUMBER_TEXT_SIZE HYD_JSON_DOUBLE_BUF_SIZE

/* A number for messages: ten significant digits are enough to recognise the
 * value the user wrote, and hide rounding in computed bounds (0.5 − 0.6). */
static const char *
number_text (double v, char buf[NUMBER_TEXT_SIZE])
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
static char *
describe_node (JsonNode *node)
{
  char buf[NUMBER_TEXT_SIZE];
  double v;

  if (hyd_json_node_get_number (node, &v))
    return g_strdup (number_text (v, buf));
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
        return quote (json_node_get_string (node));
      if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
        return g_strdup (json_node_get_double (node) > 0 ? "a number beyond 1.8e308"
                         : json_node_get_double (node) < 0 ? "a number below -1.8e308"
                         : "not a number");
      if (json_node_get_value_type (node) == G_TYPE_BOOLEAN)
        return g_strdup (json_node_get_boolean (node) ? "true" : "false");
      return g_strdup ("a value");
    }
}

static JsonNode *
new_double_node (double value)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);
  json_node_set_double (node, value);
  return node;
}

static JsonNode *
new_int_node (gint64 value)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);
  json_node_set_int (node, value);
  return node;
}

static JsonNode *
new_string_node (const char *value)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);
  json_node_set_string (node, value);
  return node;
}

static JsonNode *
new_object_node (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, object);
  return node;
}

/* ---------------------------------------------------------------------------
 * Ranges (shared by parameters, fluid and simulation settings)
 * ------------------------------------------------------------------------- */

static gboolean
value_in_range (double v, double min, double max, guint flags)
{
  if (flags & HYD_PARAM_MIN_EXCLUSIVE ? !(v > min) : !(v >= min))
    return FALSE;
  if (flags & HYD_PARAM_MAX_EXCLUSIVE ? !(v < max) : !(v <= max))
    return FALSE;
  return TRUE;
}

/* "> 0", "≥ -101325", "in [0, 1)", "≤ 5", or NULL when any value goes. */
static char *
range_text (double min, double max, guint flags)
{
  char lo[NUMBER_TEXT_SIZE], hi[NUMBER_TEXT_SIZE];
  gboolean has_min = isfinite (min), has_max = isfinite (max);

  number_text (min, lo);
  number_text (max, hi);
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

static void
component_free (HydCircuitComponent *c)
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
  c->extra = json_object_new ();
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
  copy->params = object_deep_copy (c->params);
  copy->extra = object_deep_copy (c->extra);
  return copy;
}

static void
junction_free (HydCircuitJunction *j)
{
  g_free (j->id);
  g_clear_pointer (&j->extra, json_object_unref);
  g_free (j);
}

static HydCircuitJunction *
junction_new (void)
{
  HydCircuitJunction *j = g_new0 (HydCircuitJunction, 1);
  j->extra = json_object_new ();
  return j;
}

static HydCircuitJunction *
junction_copy (const HydCircuitJunction *j)
{
  HydCircuitJunction *copy = g_new0 (HydCircuitJunction, 1);

  *copy = *j;
  copy->id = g_strdup (j->id);
  copy->extra = object_deep_copy (j->extra);
  return copy;
}

static void
connection_free (HydCircuitConnection *c)
{
  g_free (c->from);
  g_free (c->to);
  g_clear_pointer (&c->route, g_array_unref);
  g_clear_pointer (&c->extra, json_object_unref);
  g_free (c);
}

static HydCircuitConnection *
connection_new (void)
{
  HydCircuitConnection *c = g_new0 (HydCircuitConnection, 1);
  c->length = 0.5;
  c->diameter = 0.01;
  c->extra = json_object_new ();
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
  copy->extra = object_deep_copy (c->extra);
  return copy;
}

static void
plot_free (HydCircuitPlot *p)
{
  g_free (p->title);
  g_clear_pointer (&p->traces, g_ptr_array_unref);
  g_free (p->y_unit);
  g_clear_pointer (&p->extra, json_object_unref);
  g_free (p);
}

static HydCircuitPlot *
plot_new (void)
{
  HydCircuitPlot *p = g_new0 (HydCircuitPlot, 1);
  p->extra = json_object_new ();
  return p;
}

static HydCircuitPlot *
plot_copy (const HydCircuitPlot *p)
{
  HydCircuitPlot *copy = plot_new ();

  copy->title = g_strdup (p->title);
  copy->y_unit = g_strdup (p->y_unit);
  if (p->traces != NULL)
    {
      copy->traces = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < p->traces->len; i++)
        g_ptr_array_add (copy->traces, g_strdup (g_ptr_array_index (p->traces, i)));
    }
  g_clear_pointer (&copy->extra, json_object_unref);
  copy->extra = object_deep_copy (p->extra);
  return copy;
}

HydCircuit *
hyd_circuit_new (void)
{
  HydCircuit *circuit = g_new0 (HydCircuit, 1);

  circuit->version = HYD_CIRCUIT_VERSION;
  circuit->components = g_ptr_array_new_with_free_func ((GDestroyNotify) component_free);
  circuit->junctions = g_ptr_array_new_with_free_func ((GDestroyNotify) junction_free);
  circuit->connections = g_ptr_array_new_with_free_func ((GDestroyNotify) connection_free);
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
    copy->fluid = object_deep_copy (circuit->fluid);
  if (circuit->simulation != NULL)
    copy->simulation = object_deep_copy (circuit->simulation);
  for (guint i = 0; i < circuit->components->len; i++)
    g_ptr_array_add (copy->components, component_copy (g_ptr_array_index (circuit->components, i)));
  for (guint i = 0; i < circuit->junctions->len; i++)
    g_ptr_array_add (copy->junctions, junction_copy (g_ptr_array_index (circuit->junctions, i)));
  for (guint i = 0; i < circuit->connections->len; i++)
    g_ptr_array_add (copy->connections, connection_copy (g_ptr_array_index (circuit->connections, i)));
  if (circuit->plots != NULL)
    {
      copy->plots = g_ptr_array_new_with_free_func ((GDestroyNotify) plot_free);
      for (guint i = 0; i < circuit->plots->len; i++)
        g_ptr_array_add (copy->plots, plot_copy (g_ptr_array_index (circuit->plots, i)));
    }
  json_object_unref (copy->extra);
  copy->extra = object_deep_copy (circuit->extra);
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
    component_free (component);
}

HydCircuitJunction *
hyd_circuit_junction_new (const char *id)
{
  HydCircuitJunction *j = junction_new ();
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
    junction_free (junction);
}

HydCircuitConnection *
hyd_circuit_connection_new (const char *from, const char *to)
{
  HydCircuitConnection *c = connection_new ();
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
    connection_free (connection);
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

/* ---------------------------------------------------------------------------
 * Reading the JSON tree (kinds only; meanings are checked by validate)
 * ------------------------------------------------------------------------- */

static gboolean
read_string (JsonNode *node, const char *where, const char *key, char **out, GError **error)
{
  const char *s = node_get_string (node);

  if (s == NULL)
    return set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "%s: \"%s\" must be a string", where, key);
  g_free (*out);
  *out = g_strdup (s);
  return TRUE;
}

static gboolean
read_number (JsonNode *node, const char *where, const char *key, double *out, GError **error)
{
  if (!hyd_json_node_get_number (node, out))
    return set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "%s: \"%s\" must be a number", where, key);
  return TRUE;
}

static gboolean
read_position (JsonNode *node, const char *where, double *x, double *y, GError **error)
{
  JsonArray *array = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;

  if (array == NULL || json_array_get_length (array) != 2
      || !hyd_json_node_get_number (json_array_get_element (array, 0), x)
      || !hyd_json_node_get_number (json_array_get_element (array, 1), y))
    return set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                      "%s: \"position\" must be an array of two numbers [x, y]", where);
  return TRUE;
}

static gboolean
read_object (JsonNode *node, const char *where, const char *key, JsonObject **out, GError **error)
{
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "%s: \"%s\" must be an object", where, key);
  g_clear_pointer (out, json_object_unref);
  /* the tree is the loader's own and freed after reading: share it */
  *out = json_object_ref (json_node_get_object (node));
  return TRUE;
}

/* One member of a component object; where names the component in
 * messages. */
static gboolean
read_component_member (HydCircuitComponent *c, const char *key, JsonNode *value,
                       const char *where, GError **error)
{
  gboolean ok = TRUE;

  if (strcmp (key, "id") == 0)
    ok = read_string (value, where, key, &c->id, error);
  else if (strcmp (key, "type") == 0)
    ok = read_string (value, where, key, &c->type, error);
  else if (strcmp (key, "position") == 0)
    ok = c->has_position = read_position (value, where, &c->x, &c->y, error);
  else if (strcmp (key, "rotation") == 0)
    {
      double r = 0;
      /* compared as a double: a cast of 1e300 to int is undefined */
      if (!hyd_json_node_get_number (value, &r) || (r != 0 && r != 90 && r != 180 && r != 270))
        {
          g_autofree char *got = describe_node (value);
          ok = set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                          "%s: \"rotation\" must be 0, 90, 180 or 270 (got %s)", where, got);
        }
      else
        c->rotation = (int) r;
      c->has_rotation = ok;
    }
  else if (strcmp (key, "mirror") == 0)
    {
      if (JSON_NODE_TYPE (value) != JSON_NODE_VALUE
          || json_node_get_value_type (value) != G_TYPE_BOOLEAN)
        ok = set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                        "%s: \"mirror\" must be true or false", where);
      else
        c->mirror = json_node_get_boolean (value);
      c->has_mirror = ok;
    }
  else if (strcmp (key, "label") == 0)
    ok = read_string (value, where, key, &c->label, error);
  else if (strcmp (key, "params") == 0)
    ok = read_object (value, where, key, &c->params, error);
  else
    json_object_set_member (c->extra, key, node_deep_copy (value));

  return ok;
}

static HydCircuitComponent *
read_component (JsonNode *node, guint index, GError **error)
{
  const char *id;
  HydCircuitComponent *c;
  JsonObject *object;
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "components[%u] is not an object", index);
      return NULL;
    }
  object = json_node_get_object (node);

  id = node_get_string (json_object_get_member (object, "id"));
  if (id == NULL)
    {
      set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                 "components[%u]: \"id\" is missing or not a string", index);
      return NULL;
    }
  if (node_get_string (json_object_get_member (object, "type")) == NULL)
    {
      g_autofree char *quoted = quote (id);
      set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "component %s: \"type\" is missing or not a string",
                 quoted);
      return NULL;
    }

  /* params are the tree's own object (read_object), made only if absent */
  c = g_new0 (HydCircuitComponent, 1);
  c->extra = json_object_new ();
  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &key, &value))
    {
      /* the component's name is made only for a message (10^5 parts) */
      if (!read_component_member (c, key, value, "", NULL))
        {
          g_autofree char *quoted = quote (id);
          g_autofree char *where = g_strdup_printf ("component %s", quoted);
          read_component_member (c, key, value, where, error);
          component_free (c);
          return NULL;
        }
    }
  if (c->params == NULL)
    c->params = json_object_new ();
  return c;
}

static HydCircuitJunction *
read_junction (JsonNode *node, guint index, GError **error)
{
  g_autoptr(GList) members = NULL;
  g_autofree char *where = NULL;
  HydCircuitJunction *j;
  JsonObject *object;
  const char *id;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "junctions[%u] is not an object", index);
      return NULL;
    }
  object = json_node_get_object (node);
  id = node_get_string (json_object_get_member (object, "id"));
  if (id == NULL)
    {
      set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                 "junctions[%u]: \"id\" is missing or not a string", index);
      return NULL;
    }
  {
    g_autofree char *quoted = quote (id);
    where = g_strdup_printf ("junction %s", quoted);
  }

  j = junction_new ();
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *key = l->data;
      JsonNode *value = json_object_get_member (object, key);
      gboolean ok = TRUE;

      if (strcmp (key, "id") == 0)
        ok = read_string (value, where, key, &j->id, error);
      else if (strcmp (key, "position") == 0)
        ok = j->has_position = read_position (value, where, &j->x, &j->y, error);
      else if (strcmp (key, "initial_pressure") == 0)
        ok = j->has_initial_pressure = read_number (value, where, key, &j->initial_pressure, error);
      else
        json_object_set_member (j->extra, key, node_deep_copy (value));

      if (!ok)
        {
          junction_free (j);
          return NULL;
        }
    }
  return j;
}

static gboolean
read_route (JsonNode *node, const char *where, GArray **route, GError **error)
{
  JsonArray *array = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  g_autoptr(GArray) points = NULL;
  guint n;

  if (array == NULL)
    return set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                      "%s: \"route\" must be an array of [x, y] points", where);
  n = json_array_get_length (array);
  points = g_array_sized_new (FALSE, FALSE, sizeof (double), 2 * n);
  for (guint i = 0; i < n; i++)
    {
      double xy[2];
      if (!read_position (json_array_get_element (array, i), where, &xy[0], &xy[1], NULL))
        return set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                          "%s: \"route\" point %u is not an [x, y] pair of numbers", where, i);
      g_array_append_vals (points, xy, 2);
    }
  g_clear_pointer (route, g_array_unref);
  *route = g_steal_pointer (&points);
  return TRUE;
}

static char *
connection_where (guint index, const char *from, const char *to)
{
  g_autofree char *f = from ? quote (from) : g_strdup ("?");
  g_autofree char *t = to ? quote (to) : g_strdup ("?");

  return g_strdup_printf ("connections[%u] (from %s to %s)", index, f, t);
}

/* One member of a connection object; where names the connection in
 * messages. */
static gboolean
read_connection_member (HydCircuitConnection *c, const char *key, JsonNode *value,
                        const char *where, GError **error)
{
  if (strcmp (key, "from") == 0)
    return read_string (value, where, key, &c->from, error);
  if (strcmp (key, "to") == 0)
    return read_string (value, where, key, &c->to, error);
  if (strcmp (key, "route") == 0)
    return read_route (value, where, &c->route, error);
  if (strcmp (key, "length") == 0)
    return c->has_length = read_number (value, where, key, &c->length, error);
  if (strcmp (key, "diameter") == 0)
    return c->has_diameter = read_number (value, where, key, &c->diameter, error);
  if (strcmp (key, "initial_pressure") == 0)
    return c->has_initial_pressure = read_number (value, where, key, &c->initial_pressure, error);
  json_object_set_member (c->extra, key, node_deep_copy (value));
  return TRUE;
}

static HydCircuitConnection *
read_connection (JsonNode *node, guint index, GError **error)
{
  HydCircuitConnection *c;
  JsonObject *object;
  const char *from, *to;
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "connections[%u] is not an object", index);
      return NULL;
    }
  object = json_node_get_object (node);
  from = node_get_string (json_object_get_member (object, "from"));
  to = node_get_string (json_object_get_member (object, "to"));
  if (from == NULL || to == NULL)
    {
      g_autofree char *where = connection_where (index, from, to);
      set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "%s: \"%s\" is missing or not a string",
                 where, from == NULL ? "from" : "to");
      return NULL;
    }

  c = connection_new ();
  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &key, &value))
    {
      /* the connection's name is made only for a message (10^5 wires) */
      if (!read_connection_member (c, key, value, "", NULL))
        {
          g_autofree char *where = connection_where (index, from, to);
          read_connection_member (c, key, value, where, error);
          connection_free (c);
          return NULL;
        }
    }
  return c;
}

static HydCircuitPlot *
read_plot (JsonNode *node, guint index, GError **error)
{
  g_autoptr(GList) members = NULL;
  g_autofree char *where = g_strdup_printf ("plots[%u]", index);
  HydCircuitPlot *p;
  JsonObject *object;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "%s is not an object", where);
      return NULL;
    }
  object = json_node_get_object (node);

  p = plot_new ();
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *key = l->data;
      JsonNode *value = json_object_get_member (object, key);
      gboolean ok = TRUE;

      if (strcmp (key, "title") == 0)
        ok = read_string (value, where, key, &p->title, error);
      else if (strcmp (key, "y_unit") == 0)
        ok = read_string (value, where, key, &p->y_unit, error);
      else if (strcmp (key, "traces") == 0)
        {
          JsonArray *array = JSON_NODE_HOLDS_ARRAY (value) ? json_node_get_array (value) : NULL;

          g_clear_pointer (&p->traces, g_ptr_array_unref);
          p->traces = g_ptr_array_new_with_free_func (g_free);
          for (guint i = 0; ok && array != NULL && i < json_array_get_length (array); i++)
            {
              const char *trace = node_get_string (json_array_get_element (array, i));
              if (trace == NULL)
                ok = FALSE;
              else
                g_ptr_array_add (p->traces, g_strdup (trace));
            }
          if (array == NULL || !ok)
            ok = set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                            "%s: \"traces\" must be an array of variable names", where);
        }
      else
        json_object_set_member (p->extra, key, node_deep_copy (value));

      if (!ok)
        {
          plot_free (p);
          return NULL;
        }
    }
  return p;
}

typedef gpointer (*ReadItemFunc) (JsonNode *node, guint index, GError **error);

static gboolean
read_list (JsonNode *node, const char *key, ReadItemFunc read_item, GPtrArray *items, GError **error)
{
  JsonArray *array;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "\"%s\" must be an array", key);
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      gpointer item = read_item (json_array_get_element (array, i), i, error);
      if (item == NULL)
        return FALSE;
      g_ptr_array_add (items, item);
    }
  return TRUE;
}

static gboolean
read_document (JsonNode *root, HydCircuit *circuit, GError **error)
{
  static const char *const required[] = { "components", "connections" };
  g_autoptr(GList) members = NULL;
  JsonObject *object;
  JsonNode *node;
  const char *format;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    return set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                      "not a Bramah circuit: the file is not a JSON object");
  object = json_node_get_object (root);

  /* Format and version first: a newer file is refused before its content
   * is judged by this reader's rules. */
  node = json_object_get_member (object, "format");
  if (node == NULL)
    return set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                      "not a Bramah circuit: missing required key \"format\" (\"%s\")",
                      HYD_CIRCUIT_FORMAT);
  format = node_get_string (node);
  if (g_strcmp0 (format, HYD_CIRCUIT_FORMAT) != 0)
    {
      g_autofree char *got = describe_node (node);
      return set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                        "not a Bramah circuit: \"format\" is %s, expected \"%s\"",
                        got, HYD_CIRCUIT_FORMAT);
    }

  node = json_object_get_member (object, "version");
  if (node == NULL)
    return set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "missing required key \"version\"");
  if (JSON_NODE_TYPE (node) != JSON_NODE_VALUE || json_node_get_value_type (node) != G_TYPE_INT64)
    {
      g_autofree char *got = describe_node (node);
      return set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                        "\"version\" must be an integer (got %s)", got);
    }
  if (json_node_get_int (node) > HYD_CIRCUIT_VERSION)
    return set_error (error, HYD_CIRCUIT_ERROR_VERSION,
                      "file version %" G_GINT64_FORMAT " is newer than this Bramah reads (%d)",
                      json_node_get_int (node), HYD_CIRCUIT_VERSION);
  if (json_node_get_int (node) < 1)
    return set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                      "\"version\" must be at least 1 (got %" G_GINT64_FORMAT ")",
                      json_node_get_int (node));
  circuit->version = (int) json_node_get_int (node);

  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    if (!json_object_has_member (object, required[i]))
      return set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                        "missing required key \"%s\"", required[i]);

  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *key = l->data;
      JsonNode *value = json_object_get_member (object, key);
      gboolean ok = TRUE;

      if (strcmp (key, "format") == 0 || strcmp (key, "version") == 0)
        continue;
      else if (strcmp (key, "title") == 0)
        ok = read_string (value, "circuit", key, &circuit->title, error);
      else if (strcmp (key, "description") == 0)
        ok = read_string (value, "circuit", key, &circuit->description, error);
      else if (strcmp (key, "fluid") == 0)
        ok = read_object (value, "circuit", key, &circuit->fluid, error);
      else if (strcmp (key, "simulation") == 0)
        ok = read_object (value, "circuit", key, &circuit->simulation, error);
      else if (strcmp (key, "components") == 0)
        ok = read_list (value, key, (ReadItemFunc) read_component, circuit->components, error);
      else if (strcmp (key, "junctions") == 0)
        ok = read_list (value, key, (ReadItemFunc) read_junction, circuit->junctions, error);
      else if (strcmp (key, "connections") == 0)
        ok = read_list (value, key, (ReadItemFunc) read_connection, circuit->connections, error);
      else if (strcmp (key, "plots") == 0)
        {
          g_clear_pointer (&circuit->plots, g_ptr_array_unref);
          circuit->plots = g_ptr_array_new_with_free_func ((GDestroyNotify) plot_free);
          ok = read_list (value, key, (ReadItemFunc) read_plot, circuit->plots, error);
        }
      else
        json_object_set_member (circuit->extra, key, node_deep_copy (value));

      if (!ok)
        return FALSE;
    }
  return TRUE;
}

HydCircuit *
hyd_circuit_load_from_data (const char *data, gssize length, const char *filename, GError **error)
{
  g_autoptr(HydCircuit) circuit = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *prefix = filename ? g_strdup_printf ("%s:", filename) : g_strdup ("");
  g_autofree char *message = NULL;
  guint line = 0, column = 0;
  gsize size;

  g_return_val_if_fail (data != NULL || length <= 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (data == NULL)
    data = "";
  size = length < 0 ? strlen (data) : (gsize) length;
  if (size > HYD_CIRCUIT_MAX_FILE_SIZE)
    {
      set_error (error, HYD_CIRCUIT_ERROR_FILE,
                 "%s%sthe circuit is %" G_GSIZE_FORMAT " bytes, more than the %d MiB (%d "
                 "bytes) a circuit may have", prefix, filename ? " " : "", size,
                 HYD_CIRCUIT_MAX_FILE_SIZE >> 20, HYD_CIRCUIT_MAX_FILE_SIZE);
      return NULL;
    }

  /* json-glib's parser is lenient and recursive: the strict reader builds
   * the same tree, or refuses the text with line:column. */
  root = hyd_json_parse (data, size, HYD_JSON_MAX_DEPTH, &line, &column, &message);
  if (root == NULL)
    {
      set_error (error, HYD_CIRCUIT_ERROR_PARSE, "%s%u:%u: Parse error: %s", prefix, line, column,
                 message);
      return NULL;
    }

  circuit = hyd_circuit_new ();
  if (!read_document (root, circuit, error))
    return NULL;
  if (!hyd_circuit_validate (circuit, error))
    return NULL;
  return g_steal_pointer (&circuit);
}

/* Reads a regular file of at most HYD_CIRCUIT_MAX_FILE_SIZE bytes; refuses
 * directories, FIFOs and devices before reading (a FIFO would block, and
 * /dev/urandom never ends). */
static char *
read_circuit_file (const char *path, gsize *length, GError **error)
{
  g_autofree char *data = NULL;
  g_autofree char *display = g_filename_display_name (path);
  struct stat st;
  gsize size, got = 0;
  int fd;

  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "cannot open %s: %s", display, g_strerror (saved));
      return NULL;
    }
  if (fstat (fd, &st) != 0)
    {
      int saved = errno;
      close (fd);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "cannot read %s: %s", display, g_strerror (saved));
      return NULL;
    }
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      set_error (error, HYD_CIRCUIT_ERROR_FILE, "%s is %s, not a circuit file", display,
                 S_ISDIR (st.st_mode) ? "a folder" : S_ISFIFO (st.st_mode) ? "a pipe (FIFO)"
                 : S_ISCHR (st.st_mode) || S_ISBLK (st.st_mode) ? "a device"
                 : S_ISSOCK (st.st_mode) ? "a socket" : "not a regular file");
      return NULL;
    }
  if (st.st_size > HYD_CIRCUIT_MAX_FILE_SIZE)
    {
      close (fd);
      set_error (error, HYD_CIRCUIT_ERROR_FILE,
                 "%s is %" G_GINT64_FORMAT " bytes, more than the %d MiB (%d bytes) a circuit "
                 "file may have", display, (gint64) st.st_size,
                 HYD_CIRCUIT_MAX_FILE_SIZE >> 20, HYD_CIRCUIT_MAX_FILE_SIZE);
      return NULL;
    }

  /* The file may grow while it is read: read at most one byte beyond the limit. */
  size = (gsize) st.st_size;
  data = g_malloc (size + 1);
  for (;;)
    {
      gssize n;

      if (got == size)
        {
          if (size > HYD_CIRCUIT_MAX_FILE_SIZE)
            break;
          size = MIN (MAX (2 * size, 4096), (gsize) HYD_CIRCUIT_MAX_FILE_SIZE + 1);
          data = g_realloc (data, size + 1);
        }
      n = read (fd, data + got, size - got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;
          close (fd);
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                       "cannot read %s: %s", display, g_strerror (saved));
          return NULL;
        }
      if (n == 0)
        break;
      got += (gsize) n;
    }
  close (fd);
  if (got > HYD_CIRCUIT_MAX_FILE_SIZE)
    {
      set_error (error, HYD_CIRCUIT_ERROR_FILE,
                 "%s grew beyond the %d MiB a circuit file may have while it was read",
                 display, HYD_CIRCUIT_MAX_FILE_SIZE >> 20);
      return NULL;
    }
  data[got] = '\0';
  *length = got;
  return g_steal_pointer (&data);
}

HydCircuit *
hyd_circuit_load_from_file (const char *path, GError **error)
{
  g_autofree char *data = NULL;
  gsize length;

  g_return_val_if_fail (path != NULL, NULL);

  data = read_circuit_file (path, &length, error);
  if (data == NULL)
    return NULL;
  return hyd_circuit_load_from_data (data, (gssize) length, path, error);
}

/* ---------------------------------------------------------------------------
 * Fluid and simulation settings
 * ------------------------------------------------------------------------- */

/* Reads an optional number key of fluid or simulation and checks its range. */
static gboolean
setting_number (JsonObject *object, const char *section, const char *key,
                double min, double max, guint flags,
                double *value, gboolean *present, GError **error)
{
  JsonNode *node = object ? json_object_get_member (object, key) : NULL;
  double v;

  if (present)
    *present = FALSE;
  if (node == NULL)
    return TRUE;
  if (!hyd_json_node_get_number (node, &v))
    {
      g_autofree char *got = describe_node (node);
      return set_error (error, HYD_CIRCUIT_ERROR_SIMULATION,
                        "%s: \"%s\" must be a number (got %s)", section, key, got);
    }
  if (!value_in_range (v, min, max, flags))
    {
      g_autofree char *range = range_text (min, max, flags);
      char buf[NUMBER_TEXT_SIZE];
      return set_error (error, HYD_CIRCUIT_ERROR_SIMULATION,
                        "%s: \"%s\" must be %s (got %s)", section, key, range,
                        number_text (v, buf));
    }
  *value = v;
  if (present)
    *present = TRUE;
  return TRUE;
}

gboolean
hyd_circuit_get_fluid (const HydCircuit *circuit, HydFluid *fluid, GError **error)
{
  JsonObject *f;
  HydFluid result;
  JsonNode *node;

  g_return_val_if_fail (circuit != NULL, FALSE);
  g_return_val_if_fail (fluid != NULL, FALSE);

  hyd_fluid_init_default (&result);
  f = circuit->fluid;
  if (f != NULL)
    {
      if (!setting_number (f, "fluid", "density", 0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE,
                           &result.density, NULL, error)
          || !setting_number (f, "fluid", "kinematic_viscosity", 0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE,
                              &result.kinematic_viscosity, NULL, error)
          || !setting_number (f, "fluid", "bulk_modulus", 0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE,
                              &result.bulk_modulus, NULL, error)
          || !setting_number (f, "fluid", "tait_a", 0, 0.5, HYD_PARAM_MIN_EXCLUSIVE,
                              &result.tait_a, NULL, error)
          || !setting_number (f, "fluid", "air_fraction", 0, 0.5, HYD_PARAM_MAX_EXCLUSIVE,
                              &result.air_fraction, NULL, error)
          || !setting_number (f, "fluid", "vapour_pressure", -100000, 0, 0,
                              &result.vapour_pressure, NULL, error)
          || !setting_number (f, "fluid", "transition_reynolds", 0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE,
                              &result.transition_reynolds, NULL, error)
          || !setting_number (f, "fluid", "discharge_coefficient", 0, 1, HYD_PARAM_MIN_EXCLUSIVE,
                              &result.discharge_coefficient, NULL, error))
        return FALSE;

      node = json_object_get_member (f, "bulk_modulus_model");
      if (node != NULL)
        {
          const char *name = node_get_string (node);
          if (name == NULL || !hyd_bulk_model_from_name (name, &result.bulk_model))
            {
              g_autofree char *got = describe_node (node);
              return set_error (error, HYD_CIRCUIT_ERROR_SIMULATION,
                                "fluid: \"bulk_modulus_model\" must be \"cavitating\", "
                                "\"constant\", \"tait\" or \"air\" (got %s)", got);
            }
        }
    }
  *fluid = result;
  return TRUE;
}

static void
sim_options_resolve_defaults (HydSimOptions *opts, double max_step, double output_interval)
{
  opts->max_step = opts->max_step_set ? max_step : opts->t_end / 10.0;
  opts->output_interval = opts->output_interval_set ? output_interval : opts->t_end / 1000.0;
}

static gboolean
read_atol (JsonNode *node, double *atol, GError **error)
{
  char buf[NUMBER_TEXT_SIZE];
  double v;

  if (hyd_json_node_get_number (node, &v))
    {
      if (!(v > 0))
        return set_error (error, HYD_CIRCUIT_ERROR_SIMULATION,
                          "simulation: \"atol\" must be > 0 (got %s)", number_text (v, buf));
      for (guint k = 0; k < HYD_ATOL_N_KINDS; k++)
        atol[k] = v;
      return TRUE;
    }

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      g_autoptr(GList) members = json_object_get_members (object);

      for (GList *l = members; l != NULL; l = l->next)
        {
          const char *key = l->data;
          guint kind;

          for (kind = 0; kind < HYD_ATOL_N_KINDS; kind++)
            if (strcmp (key, hyd_atol_kind_name (kind)) == 0)
              break;
          if (kind == HYD_ATOL_N_KINDS)
            {
              g_autoptr(GString) kinds = g_string_new (NULL);
              for (guint k = 0; k < HYD_ATOL_N_KINDS; k++)
                g_string_append_printf (kinds, "%s%s", k ? ", " : "", hyd_atol_kind_name (k));
              g_autofree char *quoted = quote (key);
              return set_error (error, HYD_CIRCUIT_ERROR_SIMULATION,
                                "simulation: \"atol\": unknown kind of state %s (kinds: %s)",
                                quoted, kinds->str);
            }
          if (!hyd_json_node_get_number (json_object_get_member (object, key), &v) || !(v > 0))
            {
              g_autofree char *got = describe_node (json_object_get_member (object, key));
              return set_error (error, HYD_CIRCUIT_ERROR_SIMULATION,
                                "simulation: \"atol\": \"%s\" must be a number > 0 (got %s)",
                                key, got);
            }
          atol[kind] = v;
        }
      return TRUE;
    }

  {
    g_autofree char *got = describe_node (node);
    return set_error (error, HYD_CIRCUIT_ERROR_SIMULATION,
                      "simulation: \"atol\" must be a number > 0 or an object of numbers "
                      "per kind of state (got %s)", got);
  }
}

gboolean
hyd_circuit_get_sim_options (const HydCircuit *circuit, HydSimOptions *opts, GError **error)
{
  HydSimOptions result = { 0 };
  g_autofree char *solver = NULL;
  double max_step = 0, output_interval = 0;
  JsonObject *s;
  JsonNode *node;

  g_return_val_if_fail (circuit != NULL, FALSE);
  g_return_val_if_fail (opts != NULL, FALSE);

  result.t_end = 5.0;
  result.rtol = 1e-4;
  for (guint k = 0; k < HYD_ATOL_N_KINDS; k++)
    result.atol[k] = hyd_atol_kind_default (k);
  result.fixed_step = 0.0;
  result.initial_pressure = 0.0;
  result.real_time_factor = 0.0;
  result.events = TRUE;
  solver = g_strdup ("rodas4");

  s = circuit->simulation;
  if (s != NULL)
    {
      if (!setting_number (s, "simulation", "t_end", 0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE,
                           &result.t_end, NULL, error)
          || !setting_number (s, "simulation", "rtol", 0, 1,
                              HYD_PARAM_MIN_EXCLUSIVE | HYD_PARAM_MAX_EXCLUSIVE,
                              &result.rtol, NULL, error)
          || !setting_number (s, "simulation", "max_step", 0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE,
                              &max_step, &result.max_step_set, error)
          || !setting_number (s, "simulation", "output_interval", 0, INFINITY,
                              HYD_PARAM_MIN_EXCLUSIVE,
                              &output_interval, &result.output_interval_set, error)
          || !setting_number (s, "simulation", "initial_pressure", -HYD_P_ATM, INFINITY, 0,
                              &result.initial_pressure, NULL, error)
          || !setting_number (s, "simulation", "real_time_factor", 0, INFINITY, 0,
                              &result.real_time_factor, NULL, error))
        return FALSE;

      node = json_object_get_member (s, "fixed_step");
      if (node != NULL && !node_is_null (node)
          && !setting_number (s, "simulation", "fixed_step", 0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE,
                              &result.fixed_step, NULL, error))
        return FALSE;

      node = json_object_get_member (s, "solver");
      if (node != NULL)
        {
          if (node_get_string (node) == NULL)
            {
              g_autofree char *got = describe_node (node);
              return set_error (error, HYD_CIRCUIT_ERROR_SIMULATION,
                                "simulation: \"solver\" must be a solver id (got %s)", got);
            }
          g_free (solver);
          solver = g_strdup (node_get_string (node));
        }

      node = json_object_get_member (s, "atol");
      if (node != NULL && !read_atol (node, result.atol, error))
        return FALSE;

      /* Extension (docs/circuit-format.md): "events": true|false */
      node = json_object_get_member (s, "events");
      if (node != NULL)
        {
          if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
            {
              g_autofree char *got = describe_node (node);
              return set_error (error, HYD_CIRCUIT_ERROR_SIMULATION,
                                "simulation: \"events\" must be true or false (got %s)", got);
            }
          result.events = json_node_get_boolean (node);
        }
    }

  sim_options_resolve_defaults (&result, max_step, output_interval);
  result.solver = g_steal_pointer (&solver);
  *opts = result;
  return TRUE;
}

void
hyd_sim_options_clear (HydSimOptions *opts)
{
  g_return_if_fail (opts != NULL);
  g_clear_pointer (&opts->solver, g_free);
}

void
hyd_sim_options_set_t_end (HydSimOptions *opts, double t_end)
{
  g_return_if_fail (opts != NULL);

  opts->t_end = t_end;
  sim_options_resolve_defaults (opts, opts->max_step, opts->output_interval);
}

/* ---------------------------------------------------------------------------
 * Parameters
 * ------------------------------------------------------------------------- */

static char *
param_names (const HydComponentType *type)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < type->n_params; i++)
    g_string_append_printf (names, "%s%s", i ? ", " : "", type->params[i].name);
  return g_string_free (names, FALSE);
}

static gboolean
unknown_param_error (const HydCircuitComponent *component, const HydComponentType *type,
                     const char *name, GError **error)
{
  g_autofree char *names = NULL;
  g_autofree char *id = quote (component->id);
  g_autofree char *quoted = quote (name);

  if (type->n_params == 0)
    return component_error (error, HYD_DIAGNOSTIC_UNKNOWN_PARAM, component->id, NULL, name,
                            N_("component %s (%s): unknown parameter %s (it has no parameters)"),
                            id, type->id, quoted, NULL);
  names = param_names (type);
  return component_error (error, HYD_DIAGNOSTIC_UNKNOWN_PARAM, component->id, NULL, name,
                          N_("component %s (%s): unknown parameter %s (valid: %s)"),
                          id, type->id, quoted, names, NULL);
}

static char *
choice_list (const HydParamInfo *info)
{
  GString *list = g_string_new (NULL);

  for (guint i = 0; info->choices != NULL && info->choices[i] != NULL; i++)
    g_string_append_printf (list, "%s\"%s\"", i ? ", " : "", info->choices[i]);
  return g_string_free (list, FALSE);
}

static gboolean
range_error (const HydCircuitComponent *component, const HydParamInfo *info,
             double lo, double hi, gboolean is_profile, GError **error)
{
  g_autofree char *range = range_text (info->min, info->max, info->flags);
  char lo_text[NUMBER_TEXT_SIZE], hi_text[NUMBER_TEXT_SIZE];

  number_text (lo, lo_text);
  number_text (hi, hi_text);
  if (is_profile)
    return component_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, component->id, NULL, info->name,
                            N_("component \"%s\", parameter \"%s\": the profile takes values "
                               "from %s to %s, but the value must be %s"),
                            component->id, info->name, lo_text, hi_text, range, NULL);
  return component_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, component->id, NULL, info->name,
                          N_("component \"%s\", parameter \"%s\": %s is out of range "
                             "(must be %s)"),
                          component->id, info->name, lo_text, range, NULL);
}

/* The value of one parameter (and its profile, for profile parameters). */
static gboolean
resolve_param (const HydCircuitComponent *component, const HydParamInfo *info,
               JsonNode *node, const HydFluid *fluid,
               double *value, HydProfile **profile, GError **error)
{
  char buf[NUMBER_TEXT_SIZE];
  double v;

  *profile = NULL;

  if (node == NULL || (node_is_null (node) && (info->flags & HYD_PARAM_OPTIONAL)))
    {
      if (info->flags & HYD_PARAM_OPTIONAL)
        v = NAN;
      else if (info->flags & HYD_PARAM_FLUID_CD)
        v = fluid->discharge_coefficient;
      else
        v = info->def;
      if ((info->flags & HYD_PARAM_PROFILE) && !isnan (v))
        *profile = hyd_profile_new_constant (v);
      *value = v;
      return TRUE;
    }

  if (info->flags & HYD_PARAM_ENUM)
    {
      const char *s = node_get_string (node);

      for (guint i = 0; s != NULL && info->choices != NULL && info->choices[i] != NULL; i++)
        if (strcmp (s, info->choices[i]) == 0)
          {
            *value = i;
            return TRUE;
          }
      {
        g_autofree char *choices = choice_list (info);
        g_autofree char *got = describe_node (node);
        return component_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, component->id, NULL,
                                info->name,
                                N_("component \"%s\", parameter \"%s\": expected one of %s "
                                   "(got %s)"),
                                component->id, info->name, choices, got, NULL);
      }
    }

  if (info->flags & HYD_PARAM_PROFILE)
    {
      g_autoptr(GError) local_error = NULL;
      g_autoptr(HydProfile) p = hyd_profile_new_from_json (node, &local_error);
      double lo, hi;

      if (p == NULL)
        return component_error (error, (HydDiagnosticCode) local_error->code, component->id, NULL,
                                info->name, N_("component \"%s\", parameter \"%s\": %s"),
                                component->id, info->name, local_error->message, NULL);
      hyd_profile_get_range (p, &lo, &hi);
      if (!value_in_range (lo, info->min, info->max, info->flags)
          || !value_in_range (hi, info->min, info->max, info->flags))
        return range_error (component, info, lo, hi, !hyd_profile_is_constant (p), error);
      if ((info->flags & HYD_PARAM_INTEGER) && hyd_profile_is_constant (p) && lo != floor (lo))
        return component_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, component->id, NULL,
                                info->name,
                                N_("component \"%s\", parameter \"%s\": must be a whole number "
                                   "(got %s)"),
                                component->id, info->name, number_text (lo, buf), NULL);
      *value = hyd_profile_value_after (p, 0.0);
      *profile = g_steal_pointer (&p);
      return TRUE;
    }

  if (!hyd_json_node_get_number (node, &v))
    {
      g_autofree char *got = describe_node (node);

      if (JSON_NODE_HOLDS_OBJECT (node))
        return component_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, component->id, NULL,
                                info->name,
                                N_("component \"%s\", parameter \"%s\": takes a number, not a "
                                   "profile"),
                                component->id, info->name, NULL);
      return component_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, component->id, NULL, info->name,
                              N_("component \"%s\", parameter \"%s\": expected a number "
                                 "(got %s)"),
                              component->id, info->name, got, NULL);
    }
  if ((info->flags & HYD_PARAM_INTEGER) && v != floor (v))
    return component_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, component->id, NULL, info->name,
                            N_("component \"%s\", parameter \"%s\": must be a whole number "
                               "(got %s)"),
                            component->id, info->name, number_text (v, buf), NULL);
  if (!value_in_range (v, info->min, info->max, info->flags))
    return range_error (component, info, v, v, FALSE, error);
  *value = v;
  return TRUE;
}

/* Parameters of one type fit on the stack (the catalogue's largest has a
 * dozen); more go to the heap. */
#define RESOLVE_STACK_PARAMS 32

gboolean
hyd_circuit_component_resolve_params (const HydCircuitComponent *component,
                                      const HydFluid *fluid,
                                      double *values,
                                      HydProfile **profiles,
                                      GError **error)
{
  const HydComponentType *type;
  double vals_stack[RESOLVE_STACK_PARAMS];
  HydProfile *profs_stack[RESOLVE_STACK_PARAMS];
  g_autofree double *vals_heap = NULL;
  g_autofree HydProfile **profs_heap = NULL;
  double *vals = vals_stack;
  HydProfile **profs = profs_stack;
  HydFluid default_fluid;
  JsonObjectIter iter;
  const char *member;
  gboolean ok = TRUE;
  guint n;

  g_return_val_if_fail (component != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  type = hyd_catalogue_lookup (component->type);
  if (type == NULL)
    {
      g_autofree char *id = quote (component->id);
      g_autofree char *type_name = quote (component->type);
      return component_error (error, HYD_DIAGNOSTIC_UNKNOWN_TYPE, component->id, NULL, NULL,
                              N_("component %s: unknown type %s"), id, type_name, NULL);
    }
  if (fluid == NULL)
    {
      hyd_fluid_init_default (&default_fluid);
      fluid = &default_fluid;
    }

  /* in the order written, so that the first unknown one is named */
  json_object_iter_init_ordered (&iter, component->params);
  while (json_object_iter_next_ordered (&iter, &member, NULL))
    if (hyd_component_type_find_param (type, member) < 0)
      return unknown_param_error (component, type, member, error);

  n = type->n_params;
  if (n > RESOLVE_STACK_PARAMS)
    {
      vals = vals_heap = g_new0 (double, n);
      profs = profs_heap = g_new0 (HydProfile *, n);
    }
  memset (profs, 0, n * sizeof (HydProfile *));
  for (guint i = 0; i < n && ok; i++)
    {
      const HydParamInfo *info = &type->params[i];
      JsonNode *node = json_object_get_member (component->params, info->name);

      ok = resolve_param (component, info, node, fluid, &vals[i], &profs[i], error);
    }

  if (ok && type->validate != NULL)
    {
      /* the type's cross rules read the values through an instance: one on
       * the stack, whose par are these values */
      double zeros[RESOLVE_STACK_PARAMS] = { 0 };
      g_autofree double *zeros_heap = n > RESOLVE_STACK_PARAMS ? g_new0 (double, n) : NULL;
      HydComp comp = {
        .type = type,
        .id = component->id,
        .fluid = fluid,
        .par = vals,
        .par_dt = zeros_heap ? zeros_heap : zeros,
      };
      ok = type->validate (&comp, error);
    }

  if (ok && values != NULL)
    memcpy (values, vals, n * sizeof (double));
  for (guint i = 0; i < n; i++)
    {
      if (ok && profiles != NULL)
        profiles[i] = profs[i];
      else if (profs[i] != NULL)
        hyd_profile_free (profs[i]);
    }
  return ok;
}

HydComponentParams *
hyd_circuit_component_get_params (const HydCircuitComponent *component, const HydFluid *fluid,
                                  GError **error)
{
  g_return_val_if_fail (component != NULL, NULL);
  const HydComponentType *type = hyd_catalogue_lookup (component->type);
  guint n = type ? type->n_params : 0;
  /* one block: the view, then values, then profiles */
  gsize head = (sizeof (HydComponentParams) + sizeof (double) - 1) / sizeof (double) * sizeof (double);
  HydComponentParams *params = g_malloc0 (head + (n + 1) * (sizeof (double) + sizeof (HydProfile *)));
  params->type = type;
  params->values = (double *) ((char *) params + head);
  params->profiles = (HydProfile **) (params->values + n + 1);
  if (!hyd_circuit_component_resolve_params (component, fluid, params->values, params->profiles, error))
    {
      g_free (params);
      return NULL;
    }
  return params;
}

void
hyd_component_params_free (HydComponentParams *params)
{
  if (params == NULL)
    return;
  for (guint i = 0; i < params->type->n_params; i++)
    if (params->profiles[i] != NULL)
      hyd_profile_free (params->profiles[i]);
  g_free (params);
}

double
hyd_component_params_get (const HydComponentParams *params, const char *name)
{
  g_return_val_if_fail (params != NULL, NAN);
  int k = name ? hyd_component_type_find_param (params->type, name) : -1;
  return k >= 0 ? params->values[k] : NAN;
}

double
hyd_component_params_get_at (const HydComponentParams *params, const char *name, double t)
{
  g_return_val_if_fail (params != NULL, NAN);
  int k = name ? hyd_component_type_find_param (params->type, name) : -1;
  if (k < 0)
    return NAN;
  return params->profiles[k] != NULL ? hyd_profile_value_after (params->profiles[k], t) : params->values[k];
}

const char *
hyd_component_params_get_choice (const HydComponentParams *params, const char *name)
{
  g_return_val_if_fail (params != NULL, NULL);
  int k = name ? hyd_component_type_find_param (params->type, name) : -1;
  if (k < 0 || !(params->type->params[k].flags & HYD_PARAM_ENUM))
    return NULL;
  return params->type->params[k].choices[(guint) params->values[k]];
}

HydOperation
hyd_component_params_get_operation (const HydComponentParams *params)
{
  g_return_val_if_fail (params != NULL, HYD_OPERATION_NONE);
  return hyd_component_type_get_operation (params->type, params->values);
}

/* A value from the command line: a number, else JSON (a profile object or a
 * quoted string), else the bare text (an enum choice). */
static JsonNode *
param_node_from_string (const char *text)
{
  g_autofree char *value = g_strstrip (g_strdup (text));
  JsonNode *node;
  gint64 i;
  char *end = NULL;
  double d;

  if (g_ascii_string_to_signed (value, 10, G_MININT64, G_MAXINT64, &i, NULL))
    return new_int_node (i);
  d = g_ascii_strtod (value, &end);
  if (*value != '\0' && end != NULL && *end == '\0' && isfinite (d))
    return new_double_node (d);

  node = hyd_json_parse (value, strlen (value), HYD_JSON_MAX_DEPTH, NULL, NULL, NULL);
  return node != NULL ? node : new_string_node (value);
}

gboolean
hyd_circuit_component_set_param_from_string (HydCircuitComponent *component,
                                             const char *name,
                                             const char *value,
                                             const HydFluid *fluid,
                                             GError **error)
{
  const HydComponentType *type;
  HydCircuitComponent trial;
  g_autoptr(JsonObject) params = NULL;
  JsonNode *node;

  g_return_val_if_fail (component != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  type = hyd_catalogue_lookup (component->type);
  if (type == NULL)
    {
      g_autofree char *id = quote (component->id);
      g_autofree char *type_name = quote (component->type);
      return set_error (error, HYD_CIRCUIT_ERROR_UNKNOWN_TYPE,
                        "component %s: unknown type %s", id, type_name);
    }
  if (hyd_component_type_find_param (type, name) < 0)
    return unknown_param_error (component, type, name, error);

  {
    g_autofree char *number = g_strstrip (g_strdup (value));
    char *end = NULL;
    double d = g_ascii_strtod (number, &end);

    if (*number != '\0' && *end == '\0' && !isfinite (d))
      {
        g_autofree char *id = quote (component->id);
        g_autofree char *quoted = quote (number);
        return set_error (error, HYD_CIRCUIT_ERROR_PARAM_VALUE,
                          "component %s, parameter \"%s\": %s is not a finite number (the "
                          "largest is about 1.8e308)", id, name, quoted);
      }
  }
  node = param_node_from_string (value);
  params = object_deep_copy (component->params);
  json_object_set_member (params, name, json_node_copy (node));
  trial = *component;
  trial.params = params;
  if (!hyd_circuit_component_resolve_params (&trial, fluid, NULL, NULL, error))
    {
      json_node_unref (node);
      return FALSE;
    }
  json_object_set_member (component->params, name, node);
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Validation
 * ------------------------------------------------------------------------- */

static gboolean
id_is_valid (const char *id)
{
  size_t len = strlen (id);

  if (len == 0 || len > MAX_ID_LENGTH || !g_ascii_isalpha (id[0]))
    return FALSE;
  for (size_t i = 1; i < len; i++)
    if (!g_ascii_isalnum (id[i]) && id[i] != '_')
      return FALSE;
  return TRUE;
}

static gboolean
check_id (GHashTable *ids, const char *kind, const char *id, GError **error)
{
  const char *other;

  if (id == NULL || !id_is_valid (id))
    {
      g_autofree char *quoted = quote (id);
      return set_error (error, HYD_CIRCUIT_ERROR_ID,
                        "%s id %s is not valid: an id starts with a letter, has only "
                        "letters, digits and '_', and at most %d characters",
                        kind, quoted, MAX_ID_LENGTH);
    }
  other = g_hash_table_lookup (ids, id);
  /* the kinds are "component" and "junction"; a component is named */
  const char *component = strcmp (kind, "component") == 0 ? id
                          : other != NULL && strcmp (other, "component") == 0 ? id : NULL;
  if (other != NULL && strcmp (other, kind) == 0)
    return component_error (error, HYD_DIAGNOSTIC_ID, component, NULL, NULL,
                            strcmp (kind, "component") == 0
                              ? N_("duplicate id \"%s\": two components have it")
                              : N_("duplicate id \"%s\": two junctions have it"),
                            id, NULL);
  if (other != NULL)
    return component_error (error, HYD_DIAGNOSTIC_ID, component, NULL, NULL,
                            strcmp (other, "component") == 0
                              ? N_("duplicate id \"%s\": a component and a junction have it")
                              : N_("duplicate id \"%s\": a junction and a component have it"),
                            id, NULL);
  g_hash_table_insert (ids, (gpointer) id, (gpointer) kind);
  return TRUE;
}

/* Connection ends are vertices of a union-find: every component port, then
 * every junction. A set's domain is that of its first port. */
typedef struct {
  guint *parent;
  int *domain;   /* HydDomain, or −1 for a set of junctions only */
  guint *witness; /* vertex of the port that gave the set its domain */
} DomainSets;

static guint
sets_find (DomainSets *sets, guint v)
{
  while (sets->parent[v] != v)
    {
      sets->parent[v] = sets->parent[sets->parent[v]];
      v = sets->parent[v];
    }
  return v;
}

typedef struct {
  const HydCircuit *circuit;
  guint *port_offset; /* [n_components + 1] */
  guint n_port_vertices;
  GHashTable *components; /* id → index + 1 (the first of a duplicated id) */
  GHashTable *junctions;  /* id → index + 1 */
} EndIndex;

static char *
vertex_name (const EndIndex *index, guint v)
{
  const HydCircuit *circuit = index->circuit;

  if (v >= index->n_port_vertices)
    {
      HydCircuitJunction *j = g_ptr_array_index (circuit->junctions, v - index->n_port_vertices);
      return g_strdup_printf ("junction %s", j->id);
    }
  for (guint c = 0; c < circuit->components->len; c++)
    if (v < index->port_offset[c + 1])
      {
        HydCircuitComponent *comp = g_ptr_array_index (circuit->components, c);
        const HydComponentType *type = hyd_catalogue_lookup (comp->type);
        return g_strconcat (comp->id, ".", type->ports[v - index->port_offset[c]].name, NULL);
      }
  g_return_val_if_reached (g_strdup ("?"));
}

static gboolean
resolve_end (const EndIndex *index, guint conn_index, const HydCircuitConnection *conn,
             const char *ref, guint *vertex, GError **error)
{
  const HydCircuit *circuit = index->circuit;
  g_autofree char *comp_id = NULL;
  g_autofree char *port_name = NULL;
  g_autofree char *where = NULL;
  g_autofree char *quoted_ref = NULL;
  gpointer found;

  if (hyd_circuit_split_port_ref (ref, &comp_id, &port_name))
    {
      g_autofree char *quoted_comp = NULL;
      HydCircuitComponent *comp;
      const HydComponentType *type;
      guint c;
      int port;

      found = g_hash_table_lookup (index->components, comp_id);
      if (found != NULL)
        {
          c = GPOINTER_TO_UINT (found) - 1;
          comp = g_ptr_array_index (circuit->components, c);
          type = hyd_catalogue_lookup (comp->type);
          port = hyd_component_type_find_port (type, port_name);
          if (port >= 0)
            {
              *vertex = index->port_offset[c] + (guint) port;
              return TRUE;
            }
          {
            g_autoptr(GString) ports = g_string_new (NULL);
            g_autofree char *quoted_port = quote (port_name);

            for (guint p = 0; p < type->n_ports; p++)
              g_string_append_printf (ports, "%s%s", p ? ", " : "", type->ports[p].name);
            where = connection_where (conn_index, conn->from, conn->to);
            quoted_comp = quote (comp_id);
            return component_error (error, HYD_DIAGNOSTIC_REFERENCE, comp->id, port_name, NULL,
                                    N_("%s: component %s (%s) has no port %s (ports: %s)"),
                                    where, quoted_comp, type->id, quoted_port, ports->str,
                                    NULL);
          }
        }
      where = connection_where (conn_index, conn->from, conn->to);
      quoted_comp = quote (comp_id);
      quoted_ref = quote (ref);
      return connection_error (error, HYD_DIAGNOSTIC_REFERENCE, conn,
                               N_("%s: no component %s (in %s)"), where, quoted_comp, quoted_ref,
                               NULL);
    }

  found = g_hash_table_lookup (index->junctions, ref);
  if (found != NULL)
    {
      *vertex = index->n_port_vertices + GPOINTER_TO_UINT (found) - 1;
      return TRUE;
    }
  where = connection_where (conn_index, conn->from, conn->to);
  quoted_ref = quote (ref);
  if (g_hash_table_contains (index->components, ref))
    return connection_error (error, HYD_DIAGNOSTIC_REFERENCE, conn,
                             N_("%s: \"%s\" is a component; name one of its ports as "
                                "\"%s.PORT\""),
                             where, ref, ref, NULL);
  return connection_error (error, HYD_DIAGNOSTIC_REFERENCE, conn,
                           N_("%s: no junction %s (a component port is written \"COMP.PORT\")"),
                           where, quoted_ref, NULL);
}

static void
index_ids (GHashTable *table, GPtrArray *items, gsize id_offset)
{
  for (guint i = 0; i < items->len; i++)
    {
      const char *id = G_STRUCT_MEMBER (const char *, g_ptr_array_index (items, i), id_offset);

      if (id != NULL && !g_hash_table_contains (table, id))
        g_hash_table_insert (table, (gpointer) id, GUINT_TO_POINTER (i + 1));
    }
}

static gboolean
check_connections (const HydCircuit *circuit, GError **error)
{
  EndIndex index = { circuit, NULL, 0, NULL, NULL };
  g_autofree guint *port_offset = g_new0 (guint, circuit->components->len + 1);
  g_autoptr(GHashTable) components = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) junctions = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) pairs = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree gint64 *pair_keys = g_new (gint64, MAX (circuit->connections->len, 1));
  g_autofree guint *parent = NULL;
  g_autofree int *domain = NULL;
  g_autofree guint *witness = NULL;
  DomainSets sets;
  guint n_vertices;

  for (guint c = 0; c < circuit->components->len; c++)
    {
      HydCircuitComponent *comp = g_ptr_array_index (circuit->components, c);
      const HydComponentType *type = hyd_catalogue_lookup (comp->type);
      port_offset[c + 1] = port_offset[c] + type->n_ports;
    }
  index.port_offset = port_offset;
  index.n_port_vertices = port_offset[circuit->components->len];
  /* hashed: a scan per end made 10^5 components take minutes */
  index_ids (components, circuit->components, G_STRUCT_OFFSET (HydCircuitComponent, id));
  index_ids (junctions, circuit->junctions, G_STRUCT_OFFSET (HydCircuitJunction, id));
  index.components = components;
  index.junctions = junctions;
  n_vertices = index.n_port_vertices + circuit->junctions->len;

  parent = g_new (guint, MAX (n_vertices, 1));
  domain = g_new (int, MAX (n_vertices, 1));
  witness = g_new (guint, MAX (n_vertices, 1));
  for (guint v = 0; v < n_vertices; v++)
    {
      parent[v] = v;
      witness[v] = v;
      domain[v] = -1;
    }
  for (guint c = 0; c < circuit->components->len; c++)
    {
      HydCircuitComponent *comp = g_ptr_array_index (circuit->components, c);
      const HydComponentType *type = hyd_catalogue_lookup (comp->type);
      for (guint p = 0; p < type->n_ports; p++)
        domain[port_offset[c] + p] = type->ports[p].domain;
    }
  sets.parent = parent;
  sets.domain = domain;
  sets.witness = witness;

  for (guint i = 0; i < circuit->connections->len; i++)
    {
      HydCircuitConnection *conn = g_ptr_array_index (circuit->connections, i);
      guint a, b, ra, rb;

      gpointer first;

      if (!resolve_end (&index, i, conn, conn->from, &a, error)
          || !resolve_end (&index, i, conn, conn->to, &b, error))
        return FALSE;

      if (a == b)
        {
          g_autofree char *where = connection_where (i, conn->from, conn->to);
          g_autofree char *end = vertex_name (&index, a);
          return connection_error (error, HYD_DIAGNOSTIC_REFERENCE, conn,
                                   N_("%s: connects %s to itself"), where, end, NULL);
        }
      pair_keys[i] = ((gint64) MIN (a, b) << 32) | MAX (a, b);
      first = g_hash_table_lookup (pairs, &pair_keys[i]);
      if (first != NULL)
        {
          g_autofree char *where = connection_where (i, conn->from, conn->to);
          g_autofree char *end_a = vertex_name (&index, a);
          g_autofree char *end_b = vertex_name (&index, b);
          g_autofree char *first_index = g_strdup_printf ("%u", GPOINTER_TO_UINT (first) - 1);
          return connection_error (error, HYD_DIAGNOSTIC_REFERENCE, conn,
                                   N_("%s: a second connection between %s and %s (the first is "
                                      "connections[%s]); remove one of them"),
                                   where, end_a, end_b, first_index, NULL);
        }
      g_hash_table_insert (pairs, &pair_keys[i], GUINT_TO_POINTER (i + 1));

      ra = sets_find (&sets, a);
      rb = sets_find (&sets, b);
      if (ra == rb)
        continue;
      if (domain[ra] >= 0 && domain[rb] >= 0 && domain[ra] != domain[rb])
        {
          g_autofree char *where = connection_where (i, conn->from, conn->to);
          g_autofree char *port_a = vertex_name (&index, witness[ra]);
          g_autofree char *port_b = vertex_name (&index, witness[rb]);
          return connection_error (error, HYD_DIAGNOSTIC_DOMAIN, conn,
                                   N_("%s: cannot connect %s port %s to %s port %s"),
                                   where, hyd_domain_name (domain[ra]), port_a,
                                   hyd_domain_name (domain[rb]), port_b, NULL);
        }
      parent[rb] = ra;
      if (domain[ra] < 0)
        {
          domain[ra] = domain[rb];
          witness[ra] = witness[rb];
        }
    }
  return TRUE;
}

static gboolean
check_layout (const HydCircuit *circuit, GError **error)
{
  char buf[NUMBER_TEXT_SIZE];

  for (guint i = 0; i < circuit->connections->len; i++)
    {
      HydCircuitConnection *conn = g_ptr_array_index (circuit->connections, i);
      g_autofree char *where = NULL;

      if (conn->has_length && !(conn->length >= 0))
        {
          where = connection_where (i, conn->from, conn->to);
          return connection_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, conn,
                                   N_("%s: \"length\" must be ≥ 0 (got %s)"), where,
                                   number_text (conn->length, buf), NULL);
        }
      if (conn->has_diameter && !(conn->diameter > 0))
        {
          where = connection_where (i, conn->from, conn->to);
          return connection_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, conn,
                                   N_("%s: \"diameter\" must be > 0 (got %s)"), where,
                                   number_text (conn->diameter, buf), NULL);
        }
      /* hyd-system.c's hose volume π·d²·L/4: a 1e308 diameter passed this
       * check and failed at t = 0 as a "nonfinite" Jacobian */
      {
        double len = conn->has_length ? conn->length : 0.5;
        double dia = conn->has_diameter ? conn->diameter : 0.01;

        if (!isfinite (G_PI * dia * dia / 4.0 * len))
          {
            char len_text[NUMBER_TEXT_SIZE];

            where = connection_where (i, conn->from, conn->to);
            return connection_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, conn,
                                     N_("%s: \"diameter\" %s m and \"length\" %s m give a hose "
                                        "volume π·d²·L/4 beyond the largest number (1.8e308 m³)"),
                                     where, number_text (dia, buf), number_text (len, len_text),
                                     NULL);
          }
      }
      if (conn->has_initial_pressure && !(conn->initial_pressure >= -HYD_P_ATM))
        {
          where = connection_where (i, conn->from, conn->to);
          return connection_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, conn,
                                   N_("%s: \"initial_pressure\" must be ≥ -101325 Pa (got %s)"),
                                   where, number_text (conn->initial_pressure, buf), NULL);
        }
    }
  for (guint i = 0; i < circuit->junctions->len; i++)
    {
      HydCircuitJunction *j = g_ptr_array_index (circuit->junctions, i);

      if (j->has_initial_pressure && !(j->initial_pressure >= -HYD_P_ATM))
        return set_error (error, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                          "junction \"%s\": \"initial_pressure\" must be ≥ -101325 Pa (got %s)",
                          j->id, number_text (j->initial_pressure, buf));
    }
  return TRUE;
}

gboolean
hyd_circuit_validate (const HydCircuit *circuit, GError **error)
{
  g_autoptr(GHashTable) ids = NULL;
  HydSimOptions opts;
  HydFluid fluid;

  g_return_val_if_fail (circuit != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (circuit->version > HYD_CIRCUIT_VERSION)
    return set_error (error, HYD_CIRCUIT_ERROR_VERSION,
                      "file version %d is newer than this Bramah reads (%d)",
                      circuit->version, HYD_CIRCUIT_VERSION);

  if (!hyd_circuit_get_fluid (circuit, &fluid, error))
    return FALSE;
  if (!hyd_circuit_get_sim_options (circuit, &opts, error))
    return FALSE;
  hyd_sim_options_clear (&opts);

  ids = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < circuit->components->len; i++)
    {
      HydCircuitComponent *c = g_ptr_array_index (circuit->components, i);
      if (!check_id (ids, "component", c->id, error))
        return FALSE;
    }
  for (guint i = 0; i < circuit->junctions->len; i++)
    {
      HydCircuitJunction *j = g_ptr_array_index (circuit->junctions, i);
      if (!check_id (ids, "junction", j->id, error))
        return FALSE;
    }

  for (guint i = 0; i < circuit->components->len; i++)
    {
      HydCircuitComponent *c = g_ptr_array_index (circuit->components, i);
      if (!hyd_circuit_component_resolve_params (c, &fluid, NULL, NULL, error))
        return FALSE;
    }

  if (!check_layout (circuit, error))
    return FALSE;
  return check_connections (circuit, error);
}

/* ---------------------------------------------------------------------------
 * Saving
 * ------------------------------------------------------------------------- */

static void
add_extras (JsonObject *object, JsonObject *extra, const char *const *canonical)
{
  g_autoptr(GList) members = json_object_get_members (extra);

  for (GList *l = members; l != NULL; l = l->next)
    {
      /* A known key in extra (put there by a caller) would be written twice. */
      if (g_strv_contains (canonical, l->data))
        continue;
      json_object_set_member (object, l->data,
                              node_deep_copy (json_object_get_member (extra, l->data)));
    }
}

static JsonNode *
position_node (double x, double y)
{
  JsonArray *array = json_array_sized_new (2);
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  json_array_add_element (array, new_double_node (x));
  json_array_add_element (array, new_double_node (y));
  json_node_take_array (node, array);
  return node;
}

static JsonNode *
component_to_json (const HydCircuitComponent *c)
{
  static const char *const keys[] = { "id", "type", "position", "rotation", "mirror",
                                      "label", "params", NULL };
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "id", c->id ? c->id : "");
  json_object_set_string_member (object, "type", c->type ? c->type : "");
  if (c->has_position)
    json_object_set_member (object, "position", position_node (c->x, c->y));
  if (c->has_rotation)
    json_object_set_int_member (object, "rotation", c->rotation);
  if (c->has_mirror)
    json_object_set_boolean_member (object, "mirror", c->mirror);
  if (c->label != NULL)
    json_object_set_string_member (object, "label", c->label);
  if (c->params != NULL && json_object_get_size (c->params) > 0)
    json_object_set_object_member (object, "params", object_deep_copy (c->params));
  add_extras (object, c->extra, keys);
  return new_object_node (object);
}

static JsonNode *
junction_to_json (const HydCircuitJunction *j)
{
  static const char *const keys[] = { "id", "position", "initial_pressure", NULL };
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "id", j->id ? j->id : "");
  if (j->has_position)
    json_object_set_member (object, "position", position_node (j->x, j->y));
  if (j->has_initial_pressure)
    json_object_set_double_member (object, "initial_pressure", j->initial_pressure);
  add_extras (object, j->extra, keys);
  return new_object_node (object);
}

static JsonNode *
connection_to_json (const HydCircuitConnection *c)
{
  static const char *const keys[] = { "from", "to", "route", "length", "diameter",
                                      "initial_pressure", NULL };
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "from", c->from ? c->from : "");
  json_object_set_string_member (object, "to", c->to ? c->to : "");
  if (c->route != NULL)
    {
      JsonArray *route = json_array_sized_new (c->route->len / 2);
      for (guint i = 0; i + 1 < c->route->len; i += 2)
        json_array_add_element (route, position_node (g_array_index (c->route, double, i),
                                                      g_array_index (c->route, double, i + 1)));
      json_object_set_array_member (object, "route", route);
    }
  if (c->has_length)
    json_object_set_double_member (object, "length", c->length);
  if (c->has_diameter)
    json_object_set_double_member (object, "diameter", c->diameter);
  if (c->has_initial_pressure)
    json_object_set_double_member (object, "initial_pressure", c->initial_pressure);
  add_extras (object, c->extra, keys);
  return new_object_node (object);
}

static JsonNode *
plot_to_json (const HydCircuitPlot *p)
{
  static const char *const keys[] = { "title", "traces", "y_unit", NULL };
  JsonObject *object = json_object_new ();

  if (p->title != NULL)
    json_object_set_string_member (object, "title", p->title);
  if (p->traces != NULL)
    {
      JsonArray *traces = json_array_sized_new (p->traces->len);
      for (guint i = 0; i < p->traces->len; i++)
        json_array_add_string_element (traces, g_ptr_array_index (p->traces, i));
      json_object_set_array_member (object, "traces", traces);
    }
  if (p->y_unit != NULL)
    json_object_set_string_member (object, "y_unit", p->y_unit);
  add_extras (object, p->extra, keys);
  return new_object_node (object);
}

typedef JsonNode *(*ItemToJsonFunc) (gconstpointer item);

static JsonArray *
list_to_json (GPtrArray *items, ItemToJsonFunc to_json)
{
  JsonArray *array = json_array_sized_new (items->len);

  for (guint i = 0; i < items->len; i++)
    json_array_add_element (array, to_json (g_ptr_array_index (items, i)));
  return array;
}

char *
hyd_circuit_to_data (const HydCircuit *circuit, gsize *length)
{
  static const char *const keys[] = { "format", "version", "title", "description", "fluid",
                                      "simulation", "components", "junctions",
                                      "connections", "plots", NULL };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;

  g_return_val_if_fail (circuit != NULL, NULL);

  object = json_object_new ();
  json_object_set_string_member (object, "format", HYD_CIRCUIT_FORMAT);
  json_object_set_int_member (object, "version", HYD_CIRCUIT_VERSION);
  if (circuit->title != NULL)
    json_object_set_string_member (object, "title", circuit->title);
  if (circuit->description != NULL)
    json_object_set_string_member (object, "description", circuit->description);
  if (circuit->fluid != NULL)
    json_object_set_object_member (object, "fluid", object_deep_copy (circuit->fluid));
  if (circuit->simulation != NULL)
    json_object_set_object_member (object, "simulation", object_deep_copy (circuit->simulation));
  json_object_set_array_member (object, "components",
                                list_to_json (circuit->components, (ItemToJsonFunc) component_to_json));
  if (circuit->junctions->len > 0)
    json_object_set_array_member (object, "junctions",
                                  list_to_json (circuit->junctions, (ItemToJsonFunc) junction_to_json));
  json_object_set_array_member (object, "connections",
                                list_to_json (circuit->connections, (ItemToJsonFunc) connection_to_json));
  if (circuit->plots != NULL)
    json_object_set_array_member (object, "plots",
                                  list_to_json (circuit->plots, (ItemToJsonFunc) plot_to_json));
  add_extras (object, circuit->extra, keys);

  root = new_object_node (object);
  return hyd_json_to_string (root, length);
}

static gboolean
save_error (GError **error, int errsv, const char *path, const char *doing)
{
  g_autofree char *display = g_filename_display_name (path);

  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), "cannot save %s: %s: %s",
               display, doing, errsv == ENOSPC || errsv == EDQUOT
               ? "the disk is full (or the quota is used up)" : g_strerror (errsv));
  return FALSE;
}

/* The file a save writes: path, or the file its chain of symbolic links ends
 * at, so that saving through a link keeps the link. */
static char *
save_target (const char *path, GError **error)
{
  g_autofree char *target = g_strdup (path);

  for (guint hops = 0; hops < 40; hops++)
    {
      g_autofree char *link = NULL;
      g_autofree char *dir = NULL;
      struct stat st;

      if (lstat (target, &st) != 0 || !S_ISLNK (st.st_mode))
        return g_steal_pointer (&target);
      link = g_file_read_link (target, error);
      if (link == NULL)
        return NULL;
      if (g_path_is_absolute (link))
        {
          g_free (target);
          target = g_steal_pointer (&link);
          continue;
        }
      dir = g_path_get_dirname (target);
      g_free (target);
      target = g_build_filename (dir, link, NULL);
    }
  save_error (error, ELOOP, path, "following its links");
  return NULL;
}

static gboolean
write_all (int fd, const char *data, gsize length)
{
  while (length > 0)
    {
      gssize n = write (fd, data, MIN (length, (gsize) G_MAXSSIZE));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return FALSE;
      data += n;
      length -= (gsize) n;
    }
  return TRUE;
}

/* A name in dir for the new text, ".NAME.XXXXXX": given to an O_TMPFILE
 * file (which has no name while it is written, so a crash leaves nothing
 * behind) only once it is complete, then renamed over the target. */
static char *
temporary_name (const char *dir, const char *base)
{
  static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  char suffix[7];

  for (guint i = 0; i < 6; i++)
    suffix[i] = letters[g_random_int_range (0, sizeof letters - 1)];
  suffix[6] = '\0';
  return g_strdup_printf ("%s/.%s.%s", dir, base, suffix);
}

/* Writes data to fd, gives it the mode (and owner, where the system allows)
 * of the file it replaces, or `mode` when it is not 0, and flushes it to the
 * disk. */
static gboolean
fill_file (int fd, const char *data, gsize length, const struct stat *old, guint mode)
{
  if (!write_all (fd, data, length))
    return FALSE;
  if (mode != 0)
    {
      if (fchmod (fd, mode & 07777) != 0)
        return FALSE;
    }
  else if (old != NULL)
    {
      /* only root may give a file away: that failure is no error; nor is
       * EPERM from fchmod (setting the set-group-ID bit as a non-member) */
      if (fchown (fd, old->st_uid, old->st_gid) != 0)
        errno = 0;
      if (fchmod (fd, old->st_mode & 07777) != 0 && errno != EPERM)
        return FALSE;
    }
  return fsync (fd) == 0;
}

/* The new text under a temporary name in dir; NULL with errno on failure.
 * With O_TMPFILE the file has no name while it is written, so a crash then
 * leaves nothing behind; it is named only once complete. */
static char *
write_temporary (const char *dir, const char *base, const char *data, gsize length,
                 const struct stat *old, guint mode)
{
  g_autofree char *temp = NULL;
  int fd, errsv;

#ifdef O_TMPFILE
  fd = open (dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode != 0 ? (mode & 0777) : 0666);
  if (fd >= 0)
    {
      g_autofree char *proc = g_strdup_printf ("/proc/self/fd/%d", fd);

      if (!fill_file (fd, data, length, old, mode))
        {
          errsv = errno;
          close (fd);
          errno = errsv;
          return NULL;
        }
      for (guint tries = 0; tries < 100; tries++)
        {
          g_free (temp);
          temp = temporary_name (dir, base);
          if (linkat (AT_FDCWD, proc, AT_FDCWD, temp, AT_SYMLINK_FOLLOW) == 0)
            {
              if (close (fd) == 0)
                return g_steal_pointer (&temp);
              errsv = errno;
              g_unlink (temp);
              errno = errsv;
              return NULL;
            }
          if (errno != EEXIST)
            break;
        }
      /* no /proc: write it again under a name */
      close (fd);
    }
  else if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
    return NULL;
#endif

  g_free (temp);
  temp = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  fd = g_mkstemp_full (temp, O_WRONLY | O_CLOEXEC, mode != 0 ? (int) (mode & 0777) : 0666);
  if (fd < 0)
    return NULL;
  if (!fill_file (fd, data, length, old, mode))
    {
      errsv = errno;
      close (fd);
      g_unlink (temp);
      errno = errsv;
      return NULL;
    }
  if (close (fd) != 0)
    {
      errsv = errno;
      g_unlink (temp);
      errno = errsv;
      return NULL;
    }
  return g_steal_pointer (&temp);
}

/* Replaces target with data atomically: a reader sees the old file or the
 * new one, never a part, and a failure leaves no temporary behind. */
static gboolean
replace_file (const char *target, const char *data, gsize length, guint mode, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (target);
  g_autofree char *base = g_path_get_basename (target);
  g_autofree char *temp = NULL;
  gboolean exists;
  struct stat st;
  int fd, errsv;

  exists = stat (target, &st) == 0;
  if (exists && !S_ISREG (st.st_mode))
    {
      g_autofree char *display = g_filename_display_name (target);
      return set_error (error, HYD_CIRCUIT_ERROR_FILE, "cannot save %s: it is %s, not a file",
                        display, S_ISDIR (st.st_mode) ? "a folder" : "a pipe, device or socket");
    }

  temp = write_temporary (dir, base, data, length, exists ? &st : NULL, mode);
  if (temp == NULL)
    return save_error (error, errno, target, "writing the new file");
  if (rename (temp, target) != 0)
    {
      errsv = errno;
      g_unlink (temp);
      return save_error (error, errsv, target, "replacing the old file");
    }

  /* the rename reaches the disk with the folder */
  fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0)
    {
      if (fsync (fd) != 0)
        errno = 0;
      close (fd);
    }
  return TRUE;
}

gboolean
hyd_circuit_save_data_to_file (const char *data, gsize length, const char *path, guint mode,
                               GError **error)
{
  g_autofree char *target = NULL;

  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* never write a file that the reader would refuse */
  if (length > HYD_CIRCUIT_MAX_FILE_SIZE)
    {
      g_autofree char *display = g_filename_display_name (path);
      return set_error (error, HYD_CIRCUIT_ERROR_FILE,
                        "cannot save %s: the circuit would be %.1f MiB, more than the %d MiB "
                        "a circuit file may have; nothing was written", display,
                        length / 1048576.0, HYD_CIRCUIT_MAX_FILE_SIZE >> 20);
    }
  target = save_target (path, error);
  if (target == NULL)
    return FALSE;
  return replace_file (target, data, length, mode, error);
}

gboolean
hyd_circuit_save_to_file (const HydCircuit *circuit, const char *path, GError **error)
{
  g_autofree char *data = NULL;
  gsize length;

  g_return_val_if_fail (circuit != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  data = hyd_circuit_to_data (circuit, &length);
  return hyd_circuit_save_data_to_file (data, length, path, 0, error);
}
