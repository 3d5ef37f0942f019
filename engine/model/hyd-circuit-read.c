/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-circuit-read.c — reading the JSON tree into a document (the JSON kinds of the known keys; meanings are checked by validation). */
#define _GNU_SOURCE /* O_TMPFILE */
#include "hyd-circuit-private.h"

/* ---------------------------------------------------------------------------
 * Reading the JSON tree (kinds only; meanings are checked by validate)
 * ------------------------------------------------------------------------- */

static gboolean
read_string (JsonNode *node, const char *where, const char *key, char **out, GError **error)
{
  const char *s = hcp_node_get_string (node);

  if (s == NULL)
    return hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "%s: \"%s\" must be a string", where, key);
  g_free (*out);
  *out = g_strdup (s);
  return TRUE;
}

static gboolean
read_number (JsonNode *node, const char *where, const char *key, double *out, GError **error)
{
  if (!hyd_json_node_get_number (node, out))
    return hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "%s: \"%s\" must be a number", where, key);
  return TRUE;
}

static gboolean
read_position (JsonNode *node, const char *where, double *x, double *y, GError **error)
{
  JsonArray *array = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;

  if (array == NULL || json_array_get_length (array) != 2
      || !hyd_json_node_get_number (json_array_get_element (array, 0), x)
      || !hyd_json_node_get_number (json_array_get_element (array, 1), y))
    return hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                      "%s: \"position\" must be an array of two numbers [x, y]", where);
  return TRUE;
}

static gboolean
read_object (JsonNode *node, const char *where, const char *key, JsonObject **out, GError **error)
{
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "%s: \"%s\" must be an object", where, key);
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
          g_autofree char *got = hcp_describe_node (value);
          ok = hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
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
        ok = hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
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
    json_object_set_member (c->extra, key, hcp_node_deep_copy (value));

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
      hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "components[%u] is not an object", index);
      return NULL;
    }
  object = json_node_get_object (node);

  id = hcp_node_get_string (json_object_get_member (object, "id"));
  if (id == NULL)
    {
      hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                 "components[%u]: \"id\" is missing or not a string", index);
      return NULL;
    }
  if (hcp_node_get_string (json_object_get_member (object, "type")) == NULL)
    {
      g_autofree char *quoted = hcp_quote (id);
      hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "component %s: \"type\" is missing or not a string",
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
          g_autofree char *quoted = hcp_quote (id);
          g_autofree char *where = g_strdup_printf ("component %s", quoted);
          read_component_member (c, key, value, where, error);
          hcp_component_free (c);
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
      hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "junctions[%u] is not an object", index);
      return NULL;
    }
  object = json_node_get_object (node);
  id = hcp_node_get_string (json_object_get_member (object, "id"));
  if (id == NULL)
    {
      hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                 "junctions[%u]: \"id\" is missing or not a string", index);
      return NULL;
    }
  {
    g_autofree char *quoted = hcp_quote (id);
    where = g_strdup_printf ("junction %s", quoted);
  }

  j = hcp_junction_new ();
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
        json_object_set_member (j->extra, key, hcp_node_deep_copy (value));

      if (!ok)
        {
          hcp_junction_free (j);
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
    return hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                      "%s: \"route\" must be an array of [x, y] points", where);
  n = json_array_get_length (array);
  points = g_array_sized_new (FALSE, FALSE, sizeof (double), 2 * n);
  for (guint i = 0; i < n; i++)
    {
      double xy[2];
      if (!read_position (json_array_get_element (array, i), where, &xy[0], &xy[1], NULL))
        return hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                          "%s: \"route\" point %u is not an [x, y] pair of numbers", where, i);
      g_array_append_vals (points, xy, 2);
    }
  g_clear_pointer (route, g_array_unref);
  *route = g_steal_pointer (&points);
  return TRUE;
}

char *
hcp_connection_where (guint index, const char *from, const char *to)
{
  g_autofree char *f = from ? hcp_quote (from) : g_strdup ("?");
  g_autofree char *t = to ? hcp_quote (to) : g_strdup ("?");

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
  json_object_set_member (c->extra, key, hcp_node_deep_copy (value));
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
      hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "connections[%u] is not an object", index);
      return NULL;
    }
  object = json_node_get_object (node);
  from = hcp_node_get_string (json_object_get_member (object, "from"));
  to = hcp_node_get_string (json_object_get_member (object, "to"));
  if (from == NULL || to == NULL)
    {
      g_autofree char *where = hcp_connection_where (index, from, to);
      hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "%s: \"%s\" is missing or not a string",
                 where, from == NULL ? "from" : "to");
      return NULL;
    }

  c = hcp_connection_new ();
  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &key, &value))
    {
      /* the connection's name is made only for a message (10^5 wires) */
      if (!read_connection_member (c, key, value, "", NULL))
        {
          g_autofree char *where = hcp_connection_where (index, from, to);
          read_connection_member (c, key, value, where, error);
          hcp_connection_free (c);
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
      hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "%s is not an object", where);
      return NULL;
    }
  object = json_node_get_object (node);

  p = hcp_plot_new ();
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
              const char *trace = hcp_node_get_string (json_array_get_element (array, i));
              if (trace == NULL)
                ok = FALSE;
              else
                g_ptr_array_add (p->traces, g_strdup (trace));
            }
          if (array == NULL || !ok)
            ok = hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                            "%s: \"traces\" must be an array of variable names", where);
        }
      else
        json_object_set_member (p->extra, key, hcp_node_deep_copy (value));

      if (!ok)
        {
          hcp_plot_free (p);
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
    return hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "\"%s\" must be an array", key);
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
    return hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                      "not a Bramah circuit: the file is not a JSON object");
  object = json_node_get_object (root);

  /* Format and version first: a newer file is refused before its content
   * is judged by this reader's rules. */
  node = json_object_get_member (object, "format");
  if (node == NULL)
    return hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                      "not a Bramah circuit: missing required key \"format\" (\"%s\")",
                      HYD_CIRCUIT_FORMAT);
  format = hcp_node_get_string (node);
  if (g_strcmp0 (format, HYD_CIRCUIT_FORMAT) != 0)
    {
      g_autofree char *got = hcp_describe_node (node);
      return hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                        "not a Bramah circuit: \"format\" is %s, expected \"%s\"",
                        got, HYD_CIRCUIT_FORMAT);
    }

  node = json_object_get_member (object, "version");
  if (node == NULL)
    return hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT, "missing required key \"version\"");
  if (JSON_NODE_TYPE (node) != JSON_NODE_VALUE || json_node_get_value_type (node) != G_TYPE_INT64)
    {
      g_autofree char *got = hcp_describe_node (node);
      return hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                        "\"version\" must be an integer (got %s)", got);
    }
  if (json_node_get_int (node) > HYD_CIRCUIT_VERSION)
    return hcp_set_error (error, HYD_CIRCUIT_ERROR_VERSION,
                      "file version %" G_GINT64_FORMAT " is newer than this Bramah reads (%d)",
                      json_node_get_int (node), HYD_CIRCUIT_VERSION);
  if (json_node_get_int (node) < 1)
    return hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
                      "\"version\" must be at least 1 (got %" G_GINT64_FORMAT ")",
                      json_node_get_int (node));
  circuit->version = (int) json_node_get_int (node);

  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    if (!json_object_has_member (object, required[i]))
      return hcp_set_error (error, HYD_CIRCUIT_ERROR_FORMAT,
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
          circuit->plots = g_ptr_array_new_with_free_func ((GDestroyNotify) hcp_plot_free);
          ok = read_list (value, key, (ReadItemFunc) read_plot, circuit->plots, error);
        }
      else
        json_object_set_member (circuit->extra, key, hcp_node_deep_copy (value));

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
      hcp_set_error (error, HYD_CIRCUIT_ERROR_FILE,
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
      hcp_set_error (error, HYD_CIRCUIT_ERROR_PARSE, "%s%u:%u: Parse error: %s", prefix, line, column,
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
      hcp_set_error (error, HYD_CIRCUIT_ERROR_FILE, "%s is %s, not a circuit file", display,
                 S_ISDIR (st.st_mode) ? "a folder" : S_ISFIFO (st.st_mode) ? "a pipe (FIFO)"
                 : S_ISCHR (st.st_mode) || S_ISBLK (st.st_mode) ? "a device"
                 : S_ISSOCK (st.st_mode) ? "a socket" : "not a regular file");
      return NULL;
    }
  if (st.st_size > HYD_CIRCUIT_MAX_FILE_SIZE)
    {
      close (fd);
      hcp_set_error (error, HYD_CIRCUIT_ERROR_FILE,
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
      hcp_set_error (error, HYD_CIRCUIT_ERROR_FILE,
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

