/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-circuit-read.c — reading the JSON tree into a document (the JSON kinds of the known keys; meanings are checked by validation). */
#define _GNU_SOURCE /* O_TMPFILE */
#include "hyd-circuit-private.h"

/* ---------------------------------------------------------------------------
 * Reading the document (kinds only; meanings are checked by validate). The
 * reader's flat document is read directly; json-glib trees are made only
 * of what the circuit keeps as JSON (parameters, fluid, simulation,
 * unknown keys).
 * ------------------------------------------------------------------------- */

typedef struct {
  const HydJsonDoc *doc;
  int version;   /* the file's, read first: what a key means may depend on it */
} Reader;

/* A value for "got %s" in a message (made only for a message). */
static char *
describe (const Reader *r, HydJsonRef v)
{
  g_autoptr (JsonNode) node = hyd_json_doc_to_node (r->doc, v);
  return hcp_describe_node (node);
}

static gboolean
read_string (const Reader *r, HydJsonRef v, const HcpWhere *where, const char *key, char **out,
             GError **error)
{
  const char *s = hyd_json_doc_string (r->doc, v);

  if (s == NULL)
    return hcp_where_error (error, HYD_DIAGNOSTIC_FORMAT, where, N_("%s: \"%s\" must be a string"), key,
                            NULL);
  g_free (*out);
  *out = g_strdup (s);
  return TRUE;
}

static gboolean
read_number (const Reader *r, HydJsonRef v, const HcpWhere *where, const char *key, double *out,
             GError **error)
{
  if (!hyd_json_doc_number (r->doc, v, out))
    return hcp_where_error (error, HYD_DIAGNOSTIC_FORMAT, where, N_("%s: \"%s\" must be a number"), key,
                            NULL);
  return TRUE;
}

/* An [x, y] pair of numbers. */
static gboolean
read_pair (const Reader *r, HydJsonRef v, double *x, double *y)
{
  HydJsonRef e0, e1;

  if (hyd_json_doc_kind (r->doc, v) != HYD_JSON_ARRAY || hyd_json_doc_length (r->doc, v) != 2)
    return FALSE;
  e0 = hyd_json_doc_first (r->doc, v);
  e1 = hyd_json_doc_next (r->doc, e0);
  return hyd_json_doc_number (r->doc, e0, x) && hyd_json_doc_number (r->doc, e1, y);
}

static gboolean
read_position (const Reader *r, HydJsonRef v, const HcpWhere *where, double *x, double *y,
               GError **error)
{
  if (!read_pair (r, v, x, y))
    return hcp_where_error (error, HYD_DIAGNOSTIC_FORMAT, where,
                            N_("%s: \"position\" must be an array of two numbers [x, y]"), NULL);
  return TRUE;
}

static gboolean
read_object (const Reader *r, HydJsonRef v, const HcpWhere *where, const char *key, JsonObject **out,
             GError **error)
{
  g_autoptr (JsonNode) node = NULL;

  if (hyd_json_doc_kind (r->doc, v) != HYD_JSON_OBJECT)
    return hcp_where_error (error, HYD_DIAGNOSTIC_FORMAT, where, N_("%s: \"%s\" must be an object"), key,
                            NULL);
  node = hyd_json_doc_to_node (r->doc, v);
  g_clear_pointer (out, json_object_unref);
  *out = json_node_dup_object (node);
  return TRUE;
}

/* An unknown key: kept as written, for the round trip (extra is made for
 * the first). */
static void
keep_extra (const Reader *r, JsonObject **extra, HydJsonRef member)
{
  if (*extra == NULL)
    *extra = json_object_new ();
  json_object_set_member (*extra, hyd_json_doc_key (r->doc, member),
                          hyd_json_doc_to_node (r->doc, member));
}

/* One member of a component object; where names the component in
 * messages. */
static gboolean
read_component_member (const Reader *r, HydCircuitComponent *c, HydJsonRef member,
                       const HcpWhere *where, GError **error)
{
  const char *key = hyd_json_doc_key (r->doc, member);
  gboolean ok = TRUE;

  if (strcmp (key, "id") == 0)
    ok = read_string (r, member, where, key, &c->id, error);
  else if (strcmp (key, "type") == 0)
    ok = read_string (r, member, where, key, &c->type, error);
  else if (strcmp (key, "position") == 0)
    ok = c->has_position = read_position (r, member, where, &c->x, &c->y, error);
  else if (strcmp (key, "rotation") == 0)
    {
      double rot = 0;
      /* compared as a double: a cast of 1e300 to int is undefined */
      if (!hyd_json_doc_number (r->doc, member, &rot)
          || (rot != 0 && rot != 90 && rot != 180 && rot != 270))
        {
          g_autofree char *got = error ? describe (r, member) : NULL;
          ok = hcp_where_error (error, HYD_DIAGNOSTIC_FORMAT, where,
                                N_("%s: \"rotation\" must be 0, 90, 180 or 270 (got %s)"), got, NULL);
        }
      else
        c->rotation = (int) rot;
      c->has_rotation = ok;
    }
  else if (strcmp (key, "mirror") == 0)
    {
      HydJsonKind kind = hyd_json_doc_kind (r->doc, member);

      if (kind != HYD_JSON_TRUE && kind != HYD_JSON_FALSE)
        ok = hcp_where_error (error, HYD_DIAGNOSTIC_FORMAT, where,
                              N_("%s: \"mirror\" must be true or false"), NULL);
      else
        c->mirror = kind == HYD_JSON_TRUE;
      c->has_mirror = ok;
    }
  else if (strcmp (key, "label") == 0)
    ok = read_string (r, member, where, key, &c->label, error);
  else if (strcmp (key, "params") == 0)
    ok = read_object (r, member, where, key, &c->params, error);
  else
    keep_extra (r, &c->extra, member);

  return ok;
}

static HydCircuitComponent *
read_component (const Reader *r, HydJsonRef v, guint index, GError **error)
{
  const char *id;
  HydCircuitComponent *c;

  if (hyd_json_doc_kind (r->doc, v) != HYD_JSON_OBJECT)
    {
      g_autofree char *at = g_strdup_printf ("%u", index);
      hcp_component_error (error, HYD_DIAGNOSTIC_FORMAT, NULL, NULL, NULL,
                           N_("components[%s] is not an object"), at, NULL);
      return NULL;
    }

  id = hyd_json_doc_string (r->doc, hyd_json_doc_member (r->doc, v, "id"));
  if (id == NULL)
    {
      g_autofree char *at = g_strdup_printf ("%u", index);
      hcp_component_error (error, HYD_DIAGNOSTIC_FORMAT, NULL, NULL, NULL,
                           N_("components[%s]: \"id\" is missing or not a string"), at, NULL);
      return NULL;
    }
  if (hyd_json_doc_string (r->doc, hyd_json_doc_member (r->doc, v, "type")) == NULL)
    {
      g_auto (HcpWhere) where = { 0 };
      hcp_where_component (&where, id);
      hcp_where_error (error, HYD_DIAGNOSTIC_FORMAT, &where,
                       N_("%s: \"type\" is missing or not a string"), NULL);
      return NULL;
    }

  c = g_new0 (HydCircuitComponent, 1);
  for (HydJsonRef m = hyd_json_doc_first (r->doc, v); m != 0; m = hyd_json_doc_next (r->doc, m))
    {
      /* the component's name is made only for a message (10^5 parts) */
      if (!read_component_member (r, c, m, NULL, NULL))
        {
          g_auto (HcpWhere) where = { 0 };
          hcp_where_component (&where, id);
          read_component_member (r, c, m, &where, error);
          hcp_component_free (c);
          return NULL;
        }
    }
  if (c->params == NULL)
    c->params = json_object_new ();
  return c;
}

static HydCircuitJunction *
read_junction (const Reader *r, HydJsonRef v, guint index, GError **error)
{
  g_auto (HcpWhere) where = { 0 };
  HydCircuitJunction *j;
  const char *id;

  if (hyd_json_doc_kind (r->doc, v) != HYD_JSON_OBJECT)
    {
      g_autofree char *at = g_strdup_printf ("%u", index);
      hcp_component_error (error, HYD_DIAGNOSTIC_FORMAT, NULL, NULL, NULL,
                           N_("junctions[%s] is not an object"), at, NULL);
      return NULL;
    }
  id = hyd_json_doc_string (r->doc, hyd_json_doc_member (r->doc, v, "id"));
  if (id == NULL)
    {
      g_autofree char *at = g_strdup_printf ("%u", index);
      hcp_component_error (error, HYD_DIAGNOSTIC_FORMAT, NULL, NULL, NULL,
                           N_("junctions[%s]: \"id\" is missing or not a string"), at, NULL);
      return NULL;
    }
  hcp_where_junction (&where, id);

  j = hcp_junction_new ();
  for (HydJsonRef m = hyd_json_doc_first (r->doc, v); m != 0; m = hyd_json_doc_next (r->doc, m))
    {
      const char *key = hyd_json_doc_key (r->doc, m);
      gboolean ok = TRUE;

      if (strcmp (key, "id") == 0)
        ok = read_string (r, m, &where, key, &j->id, error);
      else if (strcmp (key, "position") == 0)
        ok = j->has_position = read_position (r, m, &where, &j->x, &j->y, error);
      else if (strcmp (key, "initial_pressure") == 0)
        ok = j->has_initial_pressure = read_number (r, m, &where, key, &j->initial_pressure, error);
      else
        keep_extra (r, &j->extra, m);

      if (!ok)
        {
          hcp_junction_free (j);
          return NULL;
        }
    }
  return j;
}

static gboolean
read_route (const Reader *r, HydJsonRef v, const HcpWhere *where, GArray **route, GError **error)
{
  g_autoptr(GArray) points = NULL;
  guint i = 0;

  if (hyd_json_doc_kind (r->doc, v) != HYD_JSON_ARRAY)
    return hcp_where_error (error, HYD_DIAGNOSTIC_FORMAT, where,
                            N_("%s: \"route\" must be an array of [x, y] points"), NULL);
  points = g_array_sized_new (FALSE, FALSE, sizeof (double), 2 * hyd_json_doc_length (r->doc, v));
  for (HydJsonRef e = hyd_json_doc_first (r->doc, v); e != 0; e = hyd_json_doc_next (r->doc, e), i++)
    {
      double xy[2];
      if (!read_pair (r, e, &xy[0], &xy[1]))
        {
          g_autofree char *at = error ? g_strdup_printf ("%u", i) : NULL;
          return hcp_where_error (error, HYD_DIAGNOSTIC_FORMAT, where,
                                  N_("%s: \"route\" point %s is not an [x, y] pair of numbers"), at,
                                  NULL);
        }
      g_array_append_vals (points, xy, 2);
    }
  g_clear_pointer (route, g_array_unref);
  *route = g_steal_pointer (&points);
  return TRUE;
}

/* One member of a connection object; where names the connection in
 * messages. */
static gboolean
read_connection_member (const Reader *r, HydCircuitConnection *c, HydJsonRef member,
                        const HcpWhere *where, GError **error)
{
  const char *key = hyd_json_doc_key (r->doc, member);

  if (strcmp (key, "from") == 0)
    return read_string (r, member, where, key, &c->from, error);
  if (strcmp (key, "to") == 0)
    return read_string (r, member, where, key, &c->to, error);
  if (strcmp (key, "route") == 0)
    return read_route (r, member, where, &c->route, error);
  if (strcmp (key, "length") == 0)
    return c->has_length = read_number (r, member, where, key, &c->length, error);
  if (strcmp (key, "diameter") == 0)
    return c->has_diameter = read_number (r, member, where, key, &c->diameter, error);
  if (strcmp (key, "initial_pressure") == 0)
    return c->has_initial_pressure = read_number (r, member, where, key, &c->initial_pressure, error);
  if (strcmp (key, "friction") == 0 && r->version >= HYD_CIRCUIT_VERSION_FRICTION)
    {
      HydJsonKind kind = hyd_json_doc_kind (r->doc, member);
      if (kind != HYD_JSON_TRUE && kind != HYD_JSON_FALSE)
        {
          g_autofree char *got = error ? describe (r, member) : NULL;
          return hcp_where_error (error, HYD_DIAGNOSTIC_FORMAT, where,
                                  N_("%s: \"friction\" must be true or false (got %s)"), got, NULL);
        }
      c->has_friction = TRUE;
      c->friction = kind == HYD_JSON_TRUE;
      return TRUE;
    }
  keep_extra (r, &c->extra, member);
  return TRUE;
}

static HydCircuitConnection *
read_connection (const Reader *r, HydJsonRef v, guint index, GError **error)
{
  HydCircuitConnection *c;
  const char *from, *to;

  if (hyd_json_doc_kind (r->doc, v) != HYD_JSON_OBJECT)
    {
      g_autofree char *at = g_strdup_printf ("%u", index);
      hcp_component_error (error, HYD_DIAGNOSTIC_FORMAT, NULL, NULL, NULL,
                           N_("connections[%s] is not an object"), at, NULL);
      return NULL;
    }
  from = hyd_json_doc_string (r->doc, hyd_json_doc_member (r->doc, v, "from"));
  to = hyd_json_doc_string (r->doc, hyd_json_doc_member (r->doc, v, "to"));
  if (from == NULL || to == NULL)
    {
      g_auto (HcpWhere) where = { 0 };
      hcp_where_connection (&where, index, NULL, from, to);
      hcp_where_error (error, HYD_DIAGNOSTIC_FORMAT, &where, N_("%s: \"%s\" is missing or not a string"),
                       from == NULL ? "from" : "to", NULL);
      return NULL;
    }

  c = hcp_connection_new ();
  for (HydJsonRef m = hyd_json_doc_first (r->doc, v); m != 0; m = hyd_json_doc_next (r->doc, m))
    {
      /* the connection's name is made only for a message (10^5 wires) */
      if (!read_connection_member (r, c, m, NULL, NULL))
        {
          g_auto (HcpWhere) where = { 0 };
          hcp_where_connection (&where, index, NULL, from, to);
          read_connection_member (r, c, m, &where, error);
          hcp_connection_free (c);
          return NULL;
        }
    }
  return c;
}

static HydCircuitPlot *
read_plot (const Reader *r, HydJsonRef v, guint index, GError **error)
{
  g_auto (HcpWhere) where = { 0 };
  HydCircuitPlot *p;

  if (hyd_json_doc_kind (r->doc, v) != HYD_JSON_OBJECT)
    {
      g_autofree char *at = g_strdup_printf ("%u", index);
      hcp_component_error (error, HYD_DIAGNOSTIC_FORMAT, NULL, NULL, NULL,
                           N_("plots[%s] is not an object"), at, NULL);
      return NULL;
    }
  hcp_where_plot (&where, index);

  p = hcp_plot_new ();
  for (HydJsonRef m = hyd_json_doc_first (r->doc, v); m != 0; m = hyd_json_doc_next (r->doc, m))
    {
      const char *key = hyd_json_doc_key (r->doc, m);
      gboolean ok = TRUE;

      if (strcmp (key, "title") == 0)
        ok = read_string (r, m, &where, key, &p->title, error);
      else if (strcmp (key, "y_unit") == 0)
        ok = read_string (r, m, &where, key, &p->y_unit, error);
      else if (strcmp (key, "traces") == 0)
        {
          gboolean array = hyd_json_doc_kind (r->doc, m) == HYD_JSON_ARRAY;

          g_clear_pointer (&p->traces, g_ptr_array_unref);
          p->traces = g_ptr_array_new_with_free_func (g_free);
          for (HydJsonRef e = array ? hyd_json_doc_first (r->doc, m) : 0; ok && e != 0;
               e = hyd_json_doc_next (r->doc, e))
            {
              const char *trace = hyd_json_doc_string (r->doc, e);
              if (trace == NULL)
                ok = FALSE;
              else
                g_ptr_array_add (p->traces, g_strdup (trace));
            }
          if (!array || !ok)
            ok = hcp_where_error (error, HYD_DIAGNOSTIC_FORMAT, &where,
                                  N_("%s: \"traces\" must be an array of variable names"), NULL);
        }
      else
        keep_extra (r, &p->extra, m);

      if (!ok)
        {
          hcp_plot_free (p);
          return NULL;
        }
    }
  return p;
}

typedef gpointer (*ReadItemFunc) (const Reader *r, HydJsonRef v, guint index, GError **error);

static gboolean
read_list (const Reader *r, HydJsonRef v, const char *key, ReadItemFunc read_item,
           GPtrArray *items, GError **error)
{
  guint i = 0;

  if (hyd_json_doc_kind (r->doc, v) != HYD_JSON_ARRAY)
    return hcp_component_error (error, HYD_DIAGNOSTIC_FORMAT, NULL, NULL, NULL,
                                N_("\"%s\" must be an array"), key, NULL);
  for (HydJsonRef e = hyd_json_doc_first (r->doc, v); e != 0; e = hyd_json_doc_next (r->doc, e), i++)
    {
      gpointer item = read_item (r, e, i, error);
      if (item == NULL)
        return FALSE;
      g_ptr_array_add (items, item);
    }
  return TRUE;
}

static gboolean
read_document (Reader *r, HydCircuit *circuit, GError **error)
{
  static const char *const required[] = { "components", "connections" };
  const HydJsonDoc *doc = r->doc;
  HydJsonRef v;
  const char *format;
  gint64 version;
  g_auto (HcpWhere) where = { 0 };

  hcp_where_circuit (&where);
  if (hyd_json_doc_kind (doc, 0) != HYD_JSON_OBJECT)
    return hcp_error (error, HYD_DIAGNOSTIC_FORMAT,
                           N_("not a Bramah circuit: the file is not a JSON object"), NULL);

  /* Format and version first: a newer file is refused before its content
   * is judged by this reader's rules. */
  v = hyd_json_doc_member (doc, 0, "format");
  if (v == 0)
    return hcp_error (error, HYD_DIAGNOSTIC_FORMAT,
                           N_("not a Bramah circuit: missing required key \"format\" (\"%s\")"),
                           HYD_CIRCUIT_FORMAT, NULL);
  format = hyd_json_doc_string (doc, v);
  if (g_strcmp0 (format, HYD_CIRCUIT_FORMAT) != 0)
    {
      g_autofree char *got = describe (r, v);
      return hcp_error (error, HYD_DIAGNOSTIC_FORMAT,
                             N_("not a Bramah circuit: \"format\" is %s, expected \"%s\""),
                             got, HYD_CIRCUIT_FORMAT, NULL);
    }

  v = hyd_json_doc_member (doc, 0, "version");
  if (v == 0)
    return hcp_error (error, HYD_DIAGNOSTIC_FORMAT, N_("missing required key \"version\""), NULL);
  if (!hyd_json_doc_int (doc, v, &version))
    {
      g_autofree char *got = describe (r, v);
      return hcp_error (error, HYD_DIAGNOSTIC_FORMAT, N_("\"version\" must be an integer (got %s)"),
                             got, NULL);
    }
  if (version > HYD_CIRCUIT_VERSION || version < 1)
    {
      g_autofree char *got = g_strdup_printf ("%" G_GINT64_FORMAT, version);
      g_autofree char *reads = g_strdup_printf ("%d", HYD_CIRCUIT_VERSION);
      if (version > HYD_CIRCUIT_VERSION)
        return hcp_error (error, HYD_DIAGNOSTIC_VERSION,
                               N_("file version %s is newer than this Bramah reads (%s)"), got, reads,
                               NULL);
      return hcp_error (error, HYD_DIAGNOSTIC_FORMAT, N_("\"version\" must be at least 1 (got %s)"),
                             got, NULL);
    }
  circuit->version = (int) version;
  r->version = (int) version;

  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    if (hyd_json_doc_member (doc, 0, required[i]) == 0)
      return hcp_error (error, HYD_DIAGNOSTIC_FORMAT, N_("missing required key \"%s\""),
                             required[i], NULL);

  for (HydJsonRef m = hyd_json_doc_first (doc, 0); m != 0; m = hyd_json_doc_next (doc, m))
    {
      const char *key = hyd_json_doc_key (doc, m);
      gboolean ok = TRUE;

      if (strcmp (key, "format") == 0 || strcmp (key, "version") == 0)
        continue;
      else if (strcmp (key, "title") == 0)
        ok = read_string (r, m, &where, key, &circuit->title, error);
      else if (strcmp (key, "description") == 0)
        ok = read_string (r, m, &where, key, &circuit->description, error);
      else if (strcmp (key, "fluid") == 0)
        ok = read_object (r, m, &where, key, &circuit->fluid, error);
      else if (strcmp (key, "simulation") == 0)
        ok = read_object (r, m, &where, key, &circuit->simulation, error);
      else if (strcmp (key, "components") == 0)
        ok = read_list (r, m, key, (ReadItemFunc) read_component, circuit->components, error);
      else if (strcmp (key, "junctions") == 0)
        ok = read_list (r, m, key, (ReadItemFunc) read_junction, circuit->junctions, error);
      else if (strcmp (key, "connections") == 0)
        ok = read_list (r, m, key, (ReadItemFunc) read_connection, circuit->connections, error);
      else if (strcmp (key, "plots") == 0)
        {
          g_clear_pointer (&circuit->plots, g_ptr_array_unref);
          circuit->plots = g_ptr_array_new_with_free_func ((GDestroyNotify) hcp_plot_free);
          ok = read_list (r, m, key, (ReadItemFunc) read_plot, circuit->plots, error);
        }
      else
        keep_extra (r, &circuit->extra, m);

      if (!ok)
        return FALSE;
    }
  return TRUE;
}

HydCircuit *
hyd_circuit_load_from_data (const char *data, gssize length, const char *filename, GError **error)
{
  g_autoptr(HydCircuit) circuit = NULL;
  g_autoptr(HydJsonDoc) doc = NULL;
  g_autofree char *prefix = filename ? g_strdup_printf ("%s:", filename) : g_strdup ("");
  g_autofree char *message = NULL;
  g_auto (GStrv) message_args = NULL;
  const char *message_template = NULL;
  guint line = 0, column = 0;
  gsize size;

  g_return_val_if_fail (data != NULL || length <= 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (data == NULL)
    data = "";
  size = length < 0 ? strlen (data) : (gsize) length;
  if (size > HYD_CIRCUIT_MAX_FILE_SIZE)
    {
      g_autofree char *bytes = g_strdup_printf ("%" G_GSIZE_FORMAT, size);
      g_autofree char *mib = g_strdup_printf ("%d", HYD_CIRCUIT_MAX_FILE_SIZE >> 20);
      g_autofree char *max = g_strdup_printf ("%d", HYD_CIRCUIT_MAX_FILE_SIZE);
      hcp_error (error, HYD_DIAGNOSTIC_FILE,
                 N_("the circuit is %s bytes, more than the %s MiB (%s bytes) a circuit may have"),
                 bytes, mib, max, NULL);
      if (error && filename)
        g_prefix_error (error, "%s ", prefix);
      return NULL;
    }

  /* json-glib's parser is lenient and recursive: the strict reader checks
   * the text and gives its values, or refuses it with line:column. */
  doc = hyd_json_doc_parse_full (data, size, HYD_JSON_MAX_DEPTH, &line, &column, &message,
                                 &message_template, &message_args);
  if (doc == NULL)
    {
      /* the reader's sentence is translated with the rest; the file name
       * stays in front of it */
      g_autofree char *l = g_strdup_printf ("%u", line);
      g_autofree char *c = g_strdup_printf ("%u", column);
      HydDiagnostic *d = hyd_diagnostic_new (HYD_DIAGNOSTIC_PARSE, HYD_SEVERITY_ERROR,
                                             N_("%s:%s: Parse error: %s"), l, c, message, NULL);
      if (message_template != NULL)
        hyd_diagnostic_set_phrase (d, 2, message_template, (const char *const *) message_args);
      hyd_diagnostic_set_error (error, d);
      if (error && *prefix)
        g_prefix_error (error, "%s", prefix);
      return NULL;
    }

  circuit = hyd_circuit_new ();
  {
    Reader r = { .doc = doc, .version = 0 };
    if (!read_document (&r, circuit, error))
      return NULL;
  }
  g_clear_pointer (&doc, hyd_json_doc_free);
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
      /* the kind is translated with the sentence */
      const char *kind = S_ISDIR (st.st_mode) ? N_("a folder")
                         : S_ISFIFO (st.st_mode) ? N_("a pipe (FIFO)")
                         : S_ISCHR (st.st_mode) || S_ISBLK (st.st_mode) ? N_("a device")
                         : S_ISSOCK (st.st_mode) ? N_("a socket") : N_("not a regular file");
      HydDiagnostic *d = hyd_diagnostic_new (HYD_DIAGNOSTIC_FILE, HYD_SEVERITY_ERROR,
                                             N_("%s is %s, not a circuit file"), display, kind, NULL);
      hyd_diagnostic_set_phrase (d, 1, kind, NULL);
      hyd_diagnostic_set_error (error, d);
      return NULL;
    }
  if (st.st_size > HYD_CIRCUIT_MAX_FILE_SIZE)
    {
      close (fd);
      g_autofree char *bytes = g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) st.st_size);
      g_autofree char *mib = g_strdup_printf ("%d", HYD_CIRCUIT_MAX_FILE_SIZE >> 20);
      g_autofree char *max = g_strdup_printf ("%d", HYD_CIRCUIT_MAX_FILE_SIZE);
      hcp_error (error, HYD_DIAGNOSTIC_FILE,
                 N_("%s is %s bytes, more than the %s MiB (%s bytes) a circuit file may have"),
                 display, bytes, mib, max, NULL);
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
      g_autofree char *mib = g_strdup_printf ("%d", HYD_CIRCUIT_MAX_FILE_SIZE >> 20);
      hcp_error (error, HYD_DIAGNOSTIC_FILE,
                 N_("%s grew beyond the %s MiB a circuit file may have while it was read"), display, mib,
                 NULL);
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

