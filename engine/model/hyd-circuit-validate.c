/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-circuit-validate.c — what the values of a document mean: ids, types, parameters, connections, domains, layout. */
#define _GNU_SOURCE /* O_TMPFILE */
#include "hyd-circuit-private.h"

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
      g_autofree char *quoted = hcp_quote (id);
      g_autofree char *most = g_strdup_printf ("%d", MAX_ID_LENGTH);
      /* the kind ("component", "junction") is translated with the sentence */
      HydDiagnostic *d = hyd_diagnostic_new (HYD_DIAGNOSTIC_ID, HYD_SEVERITY_ERROR,
                                             N_("%s id %s is not valid: an id starts with a letter, "
                                                "has only letters, digits and '_', and at most %s "
                                                "characters"),
                                             kind, quoted, most, NULL);
      hyd_diagnostic_set_phrase (d, 0, strcmp (kind, "component") == 0 ? N_("component") : N_("junction"),
                                 NULL);
      return hyd_diagnostic_set_error (error, d);
    }
  other = g_hash_table_lookup (ids, id);
  /* the kinds are "component" and "junction"; a component is named */
  const char *component = strcmp (kind, "component") == 0 ? id
                          : other != NULL && strcmp (other, "component") == 0 ? id : NULL;
  if (other != NULL && strcmp (other, kind) == 0)
    return hcp_component_error (error, HYD_DIAGNOSTIC_ID, component, NULL, NULL,
                            strcmp (kind, "component") == 0
                              ? N_("duplicate id \"%s\": two components have it")
                              : N_("duplicate id \"%s\": two junctions have it"),
                            id, NULL);
  if (other != NULL)
    return hcp_component_error (error, HYD_DIAGNOSTIC_ID, component, NULL, NULL,
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
  g_auto (HcpWhere) where = { 0 };
  g_autofree char *quoted_ref = NULL;
  const char *port_name;
  gpointer found;

  if (hyd_circuit_lookup_port_ref (index->components, ref, &found, &port_name))
    {
      /* the component's name is made only for a message (10^5 wires) */
      g_autofree char *comp_id = NULL;
      g_autofree char *quoted_comp = NULL;

      if (found != NULL)
        {
          guint c = GPOINTER_TO_UINT (found) - 1;
          HydCircuitComponent *comp = g_ptr_array_index (circuit->components, c);
          const HydComponentType *type = hyd_catalogue_lookup (comp->type);
          int port = hyd_component_type_find_port (type, port_name);

          if (port >= 0 && type->ports[port].hidden)
            {
              hcp_where_connection (&where, conn_index, conn, conn->from, conn->to);
              HydDiagnostic *d = hcp_where_diagnostic (HYD_DIAGNOSTIC_REFERENCE, &where,
                                                       N_("%s: port %s of %s is set by a parameter "
                                                          "that names a component, not by a wire"),
                                                       port_name, comp->id, NULL);
              hyd_diagnostic_set_component (d, comp->id);
              hyd_diagnostic_set_port (d, port_name);
              return hyd_diagnostic_set_error (error, d);
            }
          if (port >= 0)
            {
              *vertex = index->port_offset[c] + (guint) port;
              return TRUE;
            }
          {
            g_autoptr(GString) ports = g_string_new (NULL);
            g_autofree char *quoted_port = hcp_quote (port_name);

            comp_id = g_strndup (ref, (gsize) (port_name - 1 - ref));

            for (guint p = 0; p < type->n_ports; p++)
              g_string_append_printf (ports, "%s%s", p ? ", " : "", type->ports[p].name);
            hcp_where_connection (&where, conn_index, conn, conn->from, conn->to);
            quoted_comp = hcp_quote (comp_id);
            HydDiagnostic *d = hcp_where_diagnostic (HYD_DIAGNOSTIC_REFERENCE, &where,
                                                     N_("%s: component %s (%s) has no port %s (ports: %s)"),
                                                     quoted_comp, type->id, quoted_port, ports->str, NULL);
            hyd_diagnostic_set_component (d, comp->id);
            hyd_diagnostic_set_port (d, port_name);
            return hyd_diagnostic_set_error (error, d);
          }
        }
      comp_id = g_strndup (ref, (gsize) (port_name - 1 - ref));
      hcp_where_connection (&where, conn_index, conn, conn->from, conn->to);
      quoted_comp = hcp_quote (comp_id);
      quoted_ref = hcp_quote (ref);
      return hcp_where_error (error, HYD_DIAGNOSTIC_REFERENCE, &where,
                              N_("%s: no component %s (in %s)"), quoted_comp, quoted_ref, NULL);
    }

  found = g_hash_table_lookup (index->junctions, ref);
  if (found != NULL)
    {
      *vertex = index->n_port_vertices + GPOINTER_TO_UINT (found) - 1;
      return TRUE;
    }
  hcp_where_connection (&where, conn_index, conn, conn->from, conn->to);
  quoted_ref = hcp_quote (ref);
  if (g_hash_table_contains (index->components, ref))
    return hcp_where_error (error, HYD_DIAGNOSTIC_REFERENCE, &where,
                            N_("%s: \"%s\" is a component; name one of its ports as "
                               "\"%s.PORT\""),
                            ref, ref, NULL);
  return hcp_where_error (error, HYD_DIAGNOSTIC_REFERENCE, &where,
                          N_("%s: no junction %s (a component port is written \"COMP.PORT\")"),
                          quoted_ref, NULL);
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
          g_auto (HcpWhere) where = { 0 };
          hcp_where_connection (&where, i, conn, conn->from, conn->to);
          g_autofree char *end = vertex_name (&index, a);
          return hcp_where_error (error, HYD_DIAGNOSTIC_REFERENCE, &where,
                                  N_("%s: connects %s to itself"), end, NULL);
        }
      pair_keys[i] = ((gint64) MIN (a, b) << 32) | MAX (a, b);
      first = g_hash_table_lookup (pairs, &pair_keys[i]);
      if (first != NULL)
        {
          g_auto (HcpWhere) where = { 0 };
          hcp_where_connection (&where, i, conn, conn->from, conn->to);
          g_autofree char *end_a = vertex_name (&index, a);
          g_autofree char *end_b = vertex_name (&index, b);
          g_autofree char *first_index = g_strdup_printf ("%u", GPOINTER_TO_UINT (first) - 1);
          return hcp_where_error (error, HYD_DIAGNOSTIC_REFERENCE, &where,
                                  N_("%s: a second connection between %s and %s (the first is "
                                     "connections[%s]); remove one of them"),
                                  end_a, end_b, first_index, NULL);
        }
      g_hash_table_insert (pairs, &pair_keys[i], GUINT_TO_POINTER (i + 1));

      ra = sets_find (&sets, a);
      rb = sets_find (&sets, b);
      if (ra == rb)
        continue;
      if (domain[ra] >= 0 && domain[rb] >= 0 && domain[ra] != domain[rb])
        {
          g_auto (HcpWhere) where = { 0 };
          hcp_where_connection (&where, i, conn, conn->from, conn->to);
          g_autofree char *port_a = vertex_name (&index, witness[ra]);
          g_autofree char *port_b = vertex_name (&index, witness[rb]);
          /* the domains' names are translated with the sentence */
          HydDiagnostic *d = hcp_where_diagnostic (HYD_DIAGNOSTIC_DOMAIN, &where,
                                                   N_("%s: cannot connect %s port %s to %s port %s"),
                                                   hyd_domain_name (domain[ra]), port_a,
                                                   hyd_domain_name (domain[rb]), port_b, NULL);
          hyd_diagnostic_set_phrase (d, 1, hyd_domain_name (domain[ra]), NULL);
          hyd_diagnostic_set_phrase (d, 3, hyd_domain_name (domain[rb]), NULL);
          return hyd_diagnostic_set_error (error, d);
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

/* Version 2's keys of a connection or junction (hyd_circuit_get_initial_motion). */
static const char *const motion_keys[] = { "initial_velocity", "initial_position" };

gboolean
hyd_circuit_get_initial_motion (const HydCircuit *circuit, JsonObject *extra, const char *key,
                                double *value)
{
  if (circuit->version < 2 || extra == NULL)
    return FALSE;
  JsonNode *node = json_object_get_member (extra, key);
  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE)
    return FALSE;
  GType t = json_node_get_value_type (node);
  if (t != G_TYPE_INT64 && t != G_TYPE_DOUBLE)
    return FALSE;
  *value = json_node_get_double (node);
  return isfinite (*value);
}

/* Absent, or a finite number (in a version ≥ 2 file). */
static gboolean
motion_key_ok (const HydCircuit *circuit, JsonObject *extra, const char *key)
{
  double v;
  if (circuit->version < 2 || extra == NULL || !json_object_has_member (extra, key))
    return TRUE;
  return hyd_circuit_get_initial_motion (circuit, extra, key, &v);
}

gboolean
hyd_circuit_connection_friction (const HydCircuit *circuit, const HydCircuitConnection *conn)
{
  if (circuit->version < HYD_CIRCUIT_VERSION_FRICTION)
    return FALSE;
  if (conn->has_friction)
    return conn->friction;
  /* a connection that says how long and how wide it is describes a hose */
  return conn->has_length && conn->length > 0 && conn->has_diameter;
}

static gboolean
check_layout (const HydCircuit *circuit, GError **error)
{
  char buf[NUMBER_TEXT_SIZE];

  for (guint i = 0; i < circuit->connections->len; i++)
    {
      HydCircuitConnection *conn = g_ptr_array_index (circuit->connections, i);
      g_auto (HcpWhere) where = { 0 };

      if (conn->has_length && !(conn->length >= 0))
        {
          hcp_where_connection (&where, i, conn, conn->from, conn->to);
          return hcp_where_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, &where,
                                  N_("%s: \"length\" must be ≥ 0 (got %s)"),
                                  hcp_number_text (conn->length, buf), NULL);
        }
      if (conn->has_diameter && !(conn->diameter > 0))
        {
          hcp_where_connection (&where, i, conn, conn->from, conn->to);
          return hcp_where_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, &where,
                                  N_("%s: \"diameter\" must be > 0 (got %s)"),
                                  hcp_number_text (conn->diameter, buf), NULL);
        }
      /* hyd-system.c's hose volume π·d²·L/4: a 1e308 diameter passed this
       * check and failed at t = 0 as a "nonfinite" Jacobian */
      {
        double len = conn->has_length ? conn->length : 0.5;
        double dia = conn->has_diameter ? conn->diameter : 0.01;

        if (!isfinite (G_PI * dia * dia / 4.0 * len))
          {
            char len_text[NUMBER_TEXT_SIZE];

            hcp_where_connection (&where, i, conn, conn->from, conn->to);
            return hcp_where_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, &where,
                                    N_("%s: \"diameter\" %s m and \"length\" %s m give a hose "
                                       "volume π·d²·L/4 beyond the largest number (1.8e308 m³)"),
                                    hcp_number_text (dia, buf), hcp_number_text (len, len_text), NULL);
          }
      }
      /* a hose of no length has no friction to give */
      if (circuit->version >= HYD_CIRCUIT_VERSION_FRICTION && conn->has_friction && conn->friction
          && conn->has_length && conn->length == 0)
        {
          hcp_where_connection (&where, i, conn, conn->from, conn->to);
          return hcp_where_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, &where,
                                  N_("%s: \"friction\" is true but \"length\" is 0: a hose of "
                                     "no length has no pressure loss (give its length, or "
                                     "\"friction\": false)"),
                                  NULL);
        }
      for (guint m = 0; conn->extra && m < G_N_ELEMENTS (motion_keys); m++)
        if (!motion_key_ok (circuit, conn->extra, motion_keys[m]))
          {
            hcp_where_connection (&where, i, conn, conn->from, conn->to);
            return hcp_where_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, &where,
                                    N_("%s: \"%s\" must be a finite number"), motion_keys[m], NULL);
          }
      if (conn->has_initial_pressure && !(conn->initial_pressure >= -HYD_P_ATM))
        {
          hcp_where_connection (&where, i, conn, conn->from, conn->to);
          return hcp_where_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, &where,
                                  N_("%s: \"initial_pressure\" must be ≥ -101325 Pa (got %s)"),
                                  hcp_number_text (conn->initial_pressure, buf), NULL);
        }
    }
  for (guint i = 0; i < circuit->junctions->len; i++)
    {
      HydCircuitJunction *j = g_ptr_array_index (circuit->junctions, i);

      for (guint m = 0; j->extra && m < G_N_ELEMENTS (motion_keys); m++)
        if (!motion_key_ok (circuit, j->extra, motion_keys[m]))
          {
            g_auto (HcpWhere) where = { 0 };
            hcp_where_junction (&where, j->id);
            return hcp_where_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, &where,
                                    N_("%s: \"%s\" must be a finite number"), motion_keys[m], NULL);
          }
      if (j->has_initial_pressure && !(j->initial_pressure >= -HYD_P_ATM))
        {
          g_auto (HcpWhere) where = { 0 };
          hcp_where_junction (&where, j->id);
          return hcp_where_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, &where,
                                  N_("%s: \"initial_pressure\" must be ≥ -101325 Pa (got %s)"),
                                  hcp_number_text (j->initial_pressure, buf), NULL);
        }
    }
  return TRUE;
}

/* A reference parameter (HYD_PARAM_REFERENCE: a limit switch's cylinder, a
 * contact's relay) names another component of the circuit
 * (docs/electrical.md, "References"). */
static gboolean
check_references (const HydCircuit *circuit, GHashTable *ids, GError **error)
{
  for (guint i = 0; i < circuit->components->len; i++)
    {
      HydCircuitComponent *c = g_ptr_array_index (circuit->components, i);
      const HydComponentType *type = hyd_catalogue_lookup (c->type);
      for (guint k = 0; type != NULL && k < type->n_params; k++)
        {
          const HydParamInfo *info = &type->params[k];
          if (!(info->flags & HYD_PARAM_REFERENCE))
            continue;
          const char *ref = hyd_circuit_component_get_reference (c, info->name);
          if (ref == NULL)
            continue;
          const char *kind = g_hash_table_lookup (ids, ref);
          if (kind == NULL || strcmp (kind, "component") != 0)
            return hcp_component_error (error, HYD_DIAGNOSTIC_REFERENCE, c->id, NULL, info->name,
                                        N_("component \"%s\", parameter \"%s\": no component \"%s\""),
                                        c->id, info->name, ref, NULL);
          if (strcmp (ref, c->id) == 0)
            return hcp_component_error (error, HYD_DIAGNOSTIC_REFERENCE, c->id, NULL, info->name,
                                        N_("component \"%s\", parameter \"%s\": a component cannot "
                                           "refer to itself"),
                                        c->id, info->name, NULL);
        }
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
    {
      g_autofree char *got = g_strdup_printf ("%d", circuit->version);
      g_autofree char *reads = g_strdup_printf ("%d", HYD_CIRCUIT_VERSION);
      return hcp_error (error, HYD_DIAGNOSTIC_VERSION,
                        N_("file version %s is newer than this Bramah reads (%s)"), got, reads, NULL);
    }

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

  if (!check_references (circuit, ids, error))
    return FALSE;
  if (!check_layout (circuit, error))
    return FALSE;
  return check_connections (circuit, error);
}

