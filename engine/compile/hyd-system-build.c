/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-system-build.c — compiling a circuit: components, nodes, boundaries,
 * the state layout, meters, variables, the Jacobian's pattern. */
#include "hyd-system-private.h"
#include "hyd-circuit-check.h"

/* ---------- compile ---------- */

gboolean
hyd_sys_component_error (GError **error, HydDiagnosticCode code, const char *component,
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

static char *
node_port_list (const HydSystem *sys, GArray *ports)
{
  GString *s = g_string_new ("{");
  for (guint k = 0; k < ports->len; k++)
    {
      char *pn = hyd_sys_port_name (sys, g_array_index (ports, guint, k));
      g_string_append_printf (s, "%s%s", k ? ", " : "", pn);
      g_free (pn);
    }
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

/* Global port index of "C.P", or a junction (n_ports_total + j); −1 if
 * unknown. comp_ids and junction_ids map ids to index + 1: hashed, so that
 * resolving is linear in the connections (a scan made 10^5 take minutes). */
static int
resolve_ref (const HydSystem *sys, GHashTable *comp_ids, GHashTable *junction_ids,
             const guint *port_offset, const char *ref)
{
  const char *pname;
  gpointer found;
  guint i;

  if (hyd_circuit_lookup_port_ref (comp_ids, ref, &found, &pname))
    {
      i = GPOINTER_TO_UINT (found);
      if (i == 0)
        return -1;
      int k = hyd_component_type_find_port (sys->comps[i - 1].comp->type, pname);
      return k >= 0 ? (int) (port_offset[i - 1] + k) : -1;
    }
  i = GPOINTER_TO_UINT (g_hash_table_lookup (junction_ids, ref));
  return i > 0 ? (int) (sys->n_ports_total + i - 1) : -1;
}

static void
add_pattern (GArray *pairs, guint row, int col, guint n)
{
  if (col < 0 || (guint) col >= n)
    return;
  guint64 key = ((guint64) (guint) col << 32) | row;
  g_array_append_val (pairs, key);
}

/* Sorts the (column << 32 | row) keys, both below n, in time linear in
 * their number: a counting sort by row, then a stable one by column. */
static void
sort_pattern_keys (guint64 *keys, gsize len, guint n)
{
  guint64 *from = keys, *to = g_new (guint64, MAX (len, 1));
  gsize *count = g_new (gsize, (gsize) n + 1);
  for (guint shift = 0; shift <= 32; shift += 32)
    {
      memset (count, 0, ((gsize) n + 1) * sizeof (gsize));
      for (gsize k = 0; k < len; k++)
        count[((from[k] >> shift) & 0xffffffffu) + 1]++;
      for (guint d = 0; d < n; d++)
        count[d + 1] += count[d];
      for (gsize k = 0; k < len; k++)
        to[count[(from[k] >> shift) & 0xffffffffu]++] = from[k];
      guint64 *t = from;
      from = to;
      to = t;
    }
  /* two passes: the sorted keys are back in keys, `to` is the scratch */
  g_free (to);
  g_free (count);
}

static void
build_pattern (HydSystem *sys)
{
  GArray *pairs = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint n = sys->n;
  for (guint b = 0; b < sys->n_nodes; b++)
    if (!sys->nodes[b].boundary)
      add_pattern (pairs, sys->nodes[b].state, sys->nodes[b].state, n);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      guint np = c->type->n_ports;
      for (guint e = 0; e < c->nnz; e++)
        {
          guint r = c->jrow[e];
          int col = sc->col[c->jcol[e]];
          if (r < np)
            {
              int nn = sc->port_node[r];
              if (nn >= 0 && !sys->nodes[nn].boundary)
                add_pattern (pairs, sys->nodes[nn].state, col, n);
            }
          else
            {
              add_pattern (pairs, sc->state0 + (r - np), col, n);
              if (sc->vpos[r - np] >= 0)
                for (guint X = 0; X < np; X++)
                  {
                    int nn = sc->port_node[X];
                    if (nn >= 0 && !sys->nodes[nn].boundary)
                      add_pattern (pairs, sys->nodes[nn].state, col, n);
                  }
            }
        }
      for (guint X = 0; X < np; X++)
        {
          int nn = sc->port_node[X];
          if (nn < 0 || sys->nodes[nn].boundary)
            continue;
          for (guint j = 0; j < c->n_vstates; j++)
            add_pattern (pairs, sys->nodes[nn].state, sc->col[np + c->vstates[j]], n);
        }
    }
  if (sys->has_domains)
    hyd_sys_domains_pattern (sys, pairs);
  sort_pattern_keys ((guint64 *) pairs->data, pairs->len, n);
  sys->colptr = g_new0 (guint, n + 1);
  sys->rowind = g_new (guint, pairs->len + 1);
  guint nnz = 0;
  guint64 last = G_MAXUINT64;
  for (guint k = 0; k < pairs->len; k++)
    {
      guint64 key = g_array_index (pairs, guint64, k);
      if (key == last)
        continue;
      last = key;
      guint col = (guint) (key >> 32);
      sys->rowind[nnz++] = (guint) (key & 0xffffffffu);
      sys->colptr[col + 1]++;
    }
  for (guint j = 0; j < n; j++)
    sys->colptr[j + 1] += sys->colptr[j];
  sys->nnz = nnz;
  g_array_unref (pairs);
}

/* Position of (row, col) in the pattern's values (rows sorted in each
 * column), or −1. */
static int
pattern_pos (const HydSystem *sys, guint row, int col)
{
  if (col < 0 || (guint) col >= sys->n)
    return -1;
  guint lo = sys->colptr[col], hi = sys->colptr[col + 1];
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (sys->rowind[mid] < row)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < sys->colptr[col + 1] && sys->rowind[lo] == row ? (int) lo : -1;
}

/* pattern_pos for the other files (the assembly of the domains' entries);
 * build_positions keeps the static one, inlined in its loop. */
int
hyd_sys_pattern_pos (const HydSystem *sys, guint row, int col)
{
  return pattern_pos (sys, row, col);
}

/* For the sparse assembly, once: where every term of hyd_system_jacobian
 * lands in the CSC values (the pattern of build_pattern holds them all). */
static void
build_positions (HydSystem *sys)
{
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      SysNode *nd = &sys->nodes[b];
      nd->diag_pos = nd->boundary ? -1 : pattern_pos (sys, nd->state, nd->state);
    }
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      guint np = c->type->n_ports, nv = c->n_vstates;
      sc->jpos = g_new (int, c->nnz + 1);
      sc->vrpos = nv > 0 ? g_new (int, (gsize) c->nnz * np + 1) : NULL;
      sc->xvpos = g_new (int, np * nv + 1);
      for (guint e = 0; e < c->nnz; e++)
        {
          guint r = c->jrow[e];
          int col = sc->col[c->jcol[e]];
          sc->jpos[e] = -1;
          if (r < np)
            {
              int nn = sc->port_node[r];
              if (nn >= 0 && !sys->nodes[nn].boundary)
                sc->jpos[e] = pattern_pos (sys, sys->nodes[nn].state, col);
            }
          else
            sc->jpos[e] = pattern_pos (sys, sc->state0 + (r - np), col);
          /* build_pattern holds every (row, state column) assembled */
          g_assert (sc->jpos[e] >= 0 || col < 0 || (guint) col >= sys->n
                    || (r < np && (sc->port_node[r] < 0 || sys->nodes[sc->port_node[r]].boundary)));
          if (sc->vrpos == NULL)
            continue;
          for (guint X = 0; X < np; X++)
            {
              int nn = sc->port_node[X];
              sc->vrpos[(gsize) e * np + X] =
                r >= np && sc->vpos[r - np] >= 0 && nn >= 0 && !sys->nodes[nn].boundary
                ? pattern_pos (sys, sys->nodes[nn].state, col) : -1;
            }
        }
      for (guint X = 0; X < np; X++)
        {
          int nn = sc->port_node[X];
          for (guint j = 0; j < nv; j++)
            sc->xvpos[X * nv + j] = nn >= 0 && !sys->nodes[nn].boundary
                                    ? pattern_pos (sys, sys->nodes[nn].state,
                                                   sc->col[np + c->vstates[j]])
                                    : -1;
        }
    }
}

/* What compiling needs between its stages and drops afterwards. */
typedef struct {
  const HydCircuit *circuit;
  guint *port_offset;     /* [n_comps + 1] first global port of each component */
  guint n_items;          /* ports, then junctions */
  guint *parent;          /* union-find over items, internal joins included */
  guint *parent_nometer;  /* the same without the flow meters' joins */
  int *conn_ends;         /* [2 · connections] the item at each end */
  int *conn_hose;         /* [connections] the component that is its hose, or −1 */
  guint n_circuit_comps;  /* the circuit's components; hoses come after them */
  int *class_node;        /* [n_items] node of an item's class, or −1 */
  int *p0_level;          /* per node: 0 none, 1 asked by a component, 2 on a wire */
  double sim_p0;          /* simulation.initial_pressure */
} Build;

static void
build_clear (Build *b)
{
  g_free (b->port_offset);
  g_free (b->parent);
  g_free (b->parent_nometer);
  g_free (b->conn_ends);
  g_free (b->conn_hose);
  g_free (b->class_node);
  g_free (b->p0_level);
}

/* The volume a wire adds to its node; a hose's (b->conn_hose) is at its
 * ends instead, as its component's port volumes. */
static double
wire_volume (const HydCircuitConnection *cn)
{
  double len = cn->has_length ? cn->length : 0.5;
  double dia = cn->has_diameter ? cn->diameter : 0.01;
  return G_PI * dia * dia / 4.0 * len;
}

/* Instances with resolved parameters and profiles; global port numbering. */
static gboolean
build_components (HydSystem *sys, Build *b, GError **error)
{
  const HydCircuit *circuit = b->circuit;
  sys->n_comps = circuit->components->len;
  sys->comps = g_new0 (SysComp, MAX (sys->n_comps, 1));
  b->port_offset = g_new0 (guint, sys->n_comps + 1);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const HydCircuitComponent *doc = g_ptr_array_index (circuit->components, i);
      const HydComponentType *type = hyd_catalogue_lookup (doc->type);
      if (type == NULL)
        return hyd_sys_component_error (error, HYD_DIAGNOSTIC_UNKNOWN_TYPE, doc->id, NULL, NULL,
                                        N_("%s: unknown component type '%s'"),
                                        doc->id ? doc->id : "(null)",
                                        doc->type ? doc->type : "(null)", NULL);
      SysComp *sc = &sys->comps[i];
      sc->comp = hyd_comp_new (type, doc->id, &sys->fluid);
      sc->prof = g_new0 (HydProfile *, type->n_params + 1);
      sc->meter = -1;
      if (!hyd_circuit_component_resolve_params (doc, &sys->fluid, sc->comp->par, sc->prof, error))
        return FALSE;
      /* a boundary pressure is always a profile (a constant one at least) so
       * boundary nodes compare and evaluate one way */
      if (type->boundary_param >= 0 && sc->prof[type->boundary_param] == NULL)
        sc->prof[type->boundary_param] = hyd_profile_new_constant (sc->comp->par[type->boundary_param]);
      b->port_offset[i + 1] = b->port_offset[i] + type->n_ports;
    }
  b->n_circuit_comps = sys->n_comps;
  sys->n_ports_total = b->port_offset[sys->n_comps];
  sys->port_comp = g_new (guint, sys->n_ports_total + 1);
  sys->port_index = g_new (guint, sys->n_ports_total + 1);
  for (guint i = 0; i < sys->n_comps; i++)
    for (guint X = 0; X < sys->comps[i].comp->type->n_ports; X++)
      {
        sys->port_comp[b->port_offset[i] + X] = i;
        sys->port_index[b->port_offset[i] + X] = X;
      }
  return TRUE;
}

static int
compare_time (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Sorted distinct breakpoints; parameters take the piece in force just after 0. */
static void
collect_breakpoints (HydSystem *sys)
{
  GArray *bp = sys->breakpoints;
  for (guint i = 0; i < sys->n_comps; i++)
    for (guint k = 0; k < sys->comps[i].comp->type->n_params; k++)
      if (sys->comps[i].prof[k])
        hyd_profile_collect_breakpoints (sys->comps[i].prof[k], bp);
  g_array_sort (bp, compare_time);
  double *v = (double *) bp->data;
  guint w = 0;
  for (guint a = 0; a < bp->len; a++)
    if (w == 0 || v[a] != v[w - 1])
      v[w++] = v[a];
  g_array_set_size (bp, w);

  double next = G_MAXDOUBLE;
  for (guint a = 0; a < bp->len && next == G_MAXDOUBLE; a++)
    if (v[a] > 0.0)
      next = v[a];
  sys->t_piece = next < G_MAXDOUBLE ? 0.5 * next : 1.0;
  hyd_sys_refresh_params (sys, 0.0);
}

/* The circuit's component and junction ids → index + 1, for resolve_ref.
 * A duplicated id (refused by validation) resolves as the scans this
 * replaces did: the last component, the first junction. */
static void
index_ends (const HydSystem *sys, const Build *b, GHashTable *comp_ids, GHashTable *junction_ids)
{
  for (guint i = 0; i < b->n_circuit_comps; i++)
    g_hash_table_insert (comp_ids, (gpointer) sys->comps[i].comp->id, GUINT_TO_POINTER (i + 1));
  for (guint j = 0; j < b->circuit->junctions->len; j++)
    {
      HydCircuitJunction *jn = g_ptr_array_index (b->circuit->junctions, j);
      if (!g_hash_table_contains (junction_ids, jn->id))
        g_hash_table_insert (junction_ids, jn->id, GUINT_TO_POINTER (j + 1));
    }
}

/* Connections with friction (format version 3, hyd_circuit_connection_friction)
 * become hoses: instances of hyd_sys_hose_type appended after the circuit's
 * components, joined to the connection's ends in build_connectivity. Only
 * a hydraulic connection has friction: asked for on another domain it is
 * an error, and the default rule passes such a connection by. */
static gboolean
build_hoses (HydSystem *sys, Build *b, GError **error)
{
  const HydCircuit *circuit = b->circuit;
  guint nconn = circuit->connections->len;
  b->conn_hose = g_new (int, nconn + 1);
  for (guint k = 0; k < nconn; k++)
    b->conn_hose[k] = -1;
  if (circuit->version < HYD_CIRCUIT_VERSION_FRICTION)
    return TRUE;
  gboolean any = FALSE;
  for (guint k = 0; k < nconn && !any; k++)
    any = hyd_circuit_connection_friction (circuit, g_ptr_array_index (circuit->connections, k));
  if (!any)
    return TRUE;

  /* the domain of each connection: that of the ports its net joins */
  guint n_items = sys->n_ports_total + circuit->junctions->len;
  g_autofree guint *parent = g_new (guint, n_items + 1);
  g_autofree int *domain = g_new (int, n_items + 1);
  g_autofree int *ends = g_new (int, 2 * nconn + 1);
  for (guint v = 0; v < n_items; v++)
    {
      parent[v] = v;
      domain[v] = -1;
    }
  g_autoptr (GHashTable) comp_ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) junction_ids = g_hash_table_new (g_str_hash, g_str_equal);
  index_ends (sys, b, comp_ids, junction_ids);
  for (guint k = 0; k < nconn; k++)
    {
      HydCircuitConnection *cn = g_ptr_array_index (circuit->connections, k);
      ends[2 * k] = resolve_ref (sys, comp_ids, junction_ids, b->port_offset, cn->from);
      ends[2 * k + 1] = resolve_ref (sys, comp_ids, junction_ids, b->port_offset, cn->to);
      /* an unknown end is build_connectivity's to report */
      if (ends[2 * k] >= 0 && ends[2 * k + 1] >= 0)
        hyd_sys_uf_union (parent, (guint) ends[2 * k], (guint) ends[2 * k + 1]);
    }
  for (guint gp = 0; gp < sys->n_ports_total; gp++)
    {
      guint root = hyd_sys_uf_find (parent, gp);
      if (domain[root] < 0)
        domain[root] = sys->comps[sys->port_comp[gp]].comp->type->ports[sys->port_index[gp]].domain;
    }

  guint n0 = sys->n_comps, nh = 0;
  for (guint k = 0; k < nconn; k++)
    {
      HydCircuitConnection *cn = g_ptr_array_index (circuit->connections, k);
      if (ends[2 * k] < 0 || ends[2 * k + 1] < 0 || !hyd_circuit_connection_friction (circuit, cn))
        continue;
      int d = domain[hyd_sys_uf_find (parent, (guint) ends[2 * k])];
      if (d != HYD_DOMAIN_HYDRAULIC)
        {
          if (!cn->has_friction || d < 0)
            continue;
          g_autofree char *number = g_strdup_printf ("%u", k);
          /* the domain's name is translated with the sentence */
          HydDiagnostic *dg = hyd_diagnostic_new (HYD_DIAGNOSTIC_DOMAIN, HYD_SEVERITY_ERROR,
                                                  N_("connections[%s] (from \"%s\" to \"%s\"): "
                                                     "\"friction\" is the pressure loss of a hydraulic "
                                                     "hose, but this connection joins %s ports; "
                                                     "remove the key"),
                                                  number, cn->from, cn->to, hyd_domain_name (d), NULL);
          hyd_diagnostic_set_phrase (dg, 3, hyd_domain_name (d), NULL);
          hyd_diagnostic_set_connection (dg, cn->from, cn->to);
          return hyd_diagnostic_set_error (error, dg);
        }
      b->conn_hose[k] = (int) (n0 + nh++);
    }
  if (nh == 0)
    return TRUE;

  sys->comps = g_renew (SysComp, sys->comps, n0 + nh);
  memset (sys->comps + n0, 0, sizeof (SysComp) * nh);
  b->port_offset = g_renew (guint, b->port_offset, n0 + nh + 1);
  for (guint k = 0; k < nconn; k++)
    {
      int i = b->conn_hose[k];
      if (i < 0)
        continue;
      HydCircuitConnection *cn = g_ptr_array_index (circuit->connections, k);
      SysComp *sc = &sys->comps[i];
      sc->comp = hyd_sys_hose_new (&sys->fluid, cn->from, cn->to, k,
                                   cn->has_length ? cn->length : 0.5,
                                   cn->has_diameter ? cn->diameter : 0.01);
      sc->prof = g_new0 (HydProfile *, 1);
      sc->meter = -1;
      b->port_offset[i + 1] = b->port_offset[i] + hyd_sys_hose_type.n_ports;
    }
  sys->n_comps = n0 + nh;
  sys->n_ports_total = b->port_offset[sys->n_comps];
  sys->port_comp = g_renew (guint, sys->port_comp, sys->n_ports_total + 1);
  sys->port_index = g_renew (guint, sys->port_index, sys->n_ports_total + 1);
  for (guint i = n0; i < sys->n_comps; i++)
    for (guint X = 0; X < hyd_sys_hose_type.n_ports; X++)
      {
        sys->port_comp[b->port_offset[i] + X] = i;
        sys->port_index[b->port_offset[i] + X] = X;
      }
  return TRUE;
}

/* Union-find over ports and junctions; every required port must be wired. */
static gboolean
build_connectivity (HydSystem *sys, Build *b, GError **error)
{
  const HydCircuit *circuit = b->circuit;
  b->n_items = sys->n_ports_total + circuit->junctions->len;
  b->parent = g_new (guint, b->n_items + 1);
  for (guint k = 0; k < b->n_items; k++)
    b->parent[k] = k;
  b->conn_ends = g_new (int, 2 * circuit->connections->len + 1);
  g_autoptr (GHashTable) comp_ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) junction_ids = g_hash_table_new (g_str_hash, g_str_equal);
  index_ends (sys, b, comp_ids, junction_ids);
  for (guint k = 0; k < circuit->connections->len; k++)
    {
      HydCircuitConnection *cn = g_ptr_array_index (circuit->connections, k);
      int ea = resolve_ref (sys, comp_ids, junction_ids, b->port_offset, cn->from);
      int eb = resolve_ref (sys, comp_ids, junction_ids, b->port_offset, cn->to);
      if (ea < 0 || eb < 0)
        {
          g_autofree char *number = g_strdup_printf ("%u", k + 1);
          return hyd_sys_component_error (error, HYD_DIAGNOSTIC_REFERENCE, NULL, NULL, NULL,
                                          N_("connection %s (%s → %s): '%s' does not exist"), number,
                                          cn->from, cn->to, ea < 0 ? cn->from : cn->to, NULL);
        }
      b->conn_ends[2 * k] = ea;
      b->conn_ends[2 * k + 1] = eb;
      for (int e = 0; e < 2; e++)
        {
          int end = e ? eb : ea;
          if (end < (int) sys->n_ports_total)
            {
              guint ci = sys->port_comp[end], X = (guint) end - b->port_offset[ci];
              if (X < 64)
                sys->comps[ci].comp->connected |= G_GUINT64_CONSTANT (1) << X;
            }
        }
      int h = b->conn_hose[k];
      if (h >= 0)
        {
          /* a hose: each end joins its own port of the hose */
          hyd_sys_uf_union (b->parent, (guint) ea, b->port_offset[h]);
          hyd_sys_uf_union (b->parent, (guint) eb, b->port_offset[h] + 1);
          sys->comps[h].comp->connected = 3;
        }
      else
        hyd_sys_uf_union (b->parent, (guint) ea, (guint) eb);
    }
  /* a copy without the meters' internal joins, to find their sides */
  b->parent_nometer = g_memdup2 (b->parent, sizeof (guint) * (b->n_items + 1));
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const HydComponentType *t = sys->comps[i].comp->type;
      for (guint j = 0; j < t->n_joined_ports; j++)
        {
          guint pa = b->port_offset[i] + t->joined_ports[j][0];
          guint pb = b->port_offset[i] + t->joined_ports[j][1];
          hyd_sys_uf_union (b->parent, pa, pb);
          if (!t->is_flow_meter)
            hyd_sys_uf_union (b->parent_nometer, pa, pb);
        }
    }

  /* the check the editor asks as well (hyd-circuit-check.h) */
  g_autoptr (GPtrArray) unwired = hyd_circuit_unconnected_ports (circuit);
  if (unwired->len > 0)
    return hyd_diagnostic_set_error (error, hyd_diagnostic_ref (g_ptr_array_index (unwired, 0)));
  return TRUE;
}

/* Nodes: the classes holding hydraulic ports, numbered by their first port. */
static void
build_nodes (HydSystem *sys, Build *b)
{
  b->class_node = g_new (int, b->n_items + 1);
  for (guint k = 0; k < b->n_items; k++)
    b->class_node[k] = -1;
  GArray *nodes = g_array_new (FALSE, TRUE, sizeof (SysNode));
  /* A hose's end is named after the connection's end (hyd_sys_port_name):
   * at a component's port that port already lists it, at a junction the
   * first hose end there stands for the junction. */
  g_autofree guint8 *unlisted = g_new0 (guint8, sys->n_ports_total + 1);
  {
    g_autofree guint8 *junction_listed = g_new0 (guint8, b->circuit->junctions->len + 1);
    for (guint i = b->n_circuit_comps; i < sys->n_comps; i++)
      {
        const HydSysHose *h = sys->comps[i].comp->priv;
        for (guint X = 0; X < 2; X++)
          {
            int end = b->conn_ends[2 * h->connection + X];
            guint gp = b->port_offset[i] + X;
            if (end < (int) sys->n_ports_total)
              unlisted[gp] = 1;
            else if (junction_listed[end - (int) sys->n_ports_total])
              unlisted[gp] = 1;
            else
              junction_listed[end - (int) sys->n_ports_total] = 1;
          }
      }
  }
  /* each node's port list made at its final size: count first */
  g_autofree guint *class_size = g_new0 (guint, b->n_items + 1);
  for (guint gp = 0; gp < sys->n_ports_total; gp++)
    {
      const HydComponentType *t = sys->comps[sys->port_comp[gp]].comp->type;
      if (t->ports[sys->port_index[gp]].domain == HYD_DOMAIN_HYDRAULIC && !unlisted[gp])
        class_size[hyd_sys_uf_find (b->parent, gp)]++;
    }
  for (guint gp = 0; gp < sys->n_ports_total; gp++)
    {
      const HydComponentType *t = sys->comps[sys->port_comp[gp]].comp->type;
      if (t->ports[sys->port_index[gp]].domain != HYD_DOMAIN_HYDRAULIC || unlisted[gp])
        continue;
      guint root = hyd_sys_uf_find (b->parent, gp);
      if (b->class_node[root] < 0)
        {
          SysNode nd = { 0 };
          nd.ports = g_array_sized_new (FALSE, FALSE, sizeof (guint), class_size[root]);
          nd.state = -1;
          nd.bindex = -1;
          nd.reporter = -1;
          nd.p0 = NAN;
          b->class_node[root] = (int) nodes->len;
          g_array_append_val (nodes, nd);
        }
      g_array_append_val (g_array_index (nodes, SysNode, b->class_node[root]).ports, gp);
    }
  sys->n_nodes = nodes->len;
  sys->nodes = (SysNode *) g_array_free (nodes, FALSE);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      guint np = sc->comp->type->n_ports;
      sc->port_node = g_new (int, np + 1);
      for (guint X = 0; X < np; X++)
        sc->port_node[X] = sc->comp->type->ports[X].domain == HYD_DOMAIN_HYDRAULIC
                             ? b->class_node[hyd_sys_uf_find (b->parent, b->port_offset[i] + X)] : -1;
    }
  b->p0_level = g_new0 (int, sys->n_nodes + 1);
}

/* A node's initial pressure from a wire or junction (the top level). */
static gboolean
set_wire_p0 (HydSystem *sys, Build *b, int nn, double p0, const HydCircuitConnection *cn,
             const HydCircuitJunction *jn, GError **error)
{
  SysNode *nd = &sys->nodes[nn];
  if (b->p0_level[nn] == 2 && nd->p0 != p0)
    {
      g_autofree char *pl = node_port_list (sys, nd->ports);
      g_autofree char *p_old = g_strdup_printf ("%g", nd->p0);
      g_autofree char *p_new = g_strdup_printf ("%g", p0);
      if (cn != NULL)
        return hyd_sys_component_error (error, HYD_DIAGNOSTIC_INITIAL_PRESSURE, NULL, NULL, NULL,
                                        N_("node %s: conflicting initial pressures %s Pa and %s Pa "
                                           "(connection %s → %s)"),
                                        pl, p_old, p_new, cn->from, cn->to, NULL);
      return hyd_sys_component_error (error, HYD_DIAGNOSTIC_INITIAL_PRESSURE, NULL, NULL, NULL,
                                      N_("node %s: conflicting initial pressures %s Pa and %s Pa "
                                         "(junction %s)"),
                                      pl, p_old, p_new, jn->id, NULL);
    }
  nd->p0 = p0;
  b->p0_level[nn] = 2;
  return TRUE;
}

/* Hose volumes and the initial pressures set on wires and junctions. */
static gboolean
apply_wire_settings (HydSystem *sys, Build *b, GError **error)
{
  const HydCircuit *circuit = b->circuit;
  for (guint k = 0; k < circuit->connections->len; k++)
    {
      HydCircuitConnection *cn = g_ptr_array_index (circuit->connections, k);
      int nn = b->class_node[hyd_sys_uf_find (b->parent, (guint) b->conn_ends[2 * k])];
      if (nn < 0)
        continue;
      if (b->conn_hose[k] >= 0)
        {
          /* a hose: its volume is at its ends (the hose's port volumes); its
           * initial pressure is that of both end nodes */
          int nb = b->class_node[hyd_sys_uf_find (b->parent, (guint) b->conn_ends[2 * k + 1])];
          if (cn->has_initial_pressure
              && !(set_wire_p0 (sys, b, nn, cn->initial_pressure, cn, NULL, error)
                   && (nb < 0 || set_wire_p0 (sys, b, nb, cn->initial_pressure, cn, NULL, error))))
            return FALSE;
          continue;
        }
      sys->nodes[nn].wire_volume += wire_volume (cn);
      if (cn->has_initial_pressure)
        {
          if (!set_wire_p0 (sys, b, nn, cn->initial_pressure, cn, NULL, error))
            return FALSE;
        }
    }
  for (guint j = 0; j < circuit->junctions->len; j++)
    {
      HydCircuitJunction *jn = g_ptr_array_index (circuit->junctions, j);
      int nn = b->class_node[hyd_sys_uf_find (b->parent, sys->n_ports_total + j)];
      if (nn < 0 || !jn->has_initial_pressure)
        continue;
      if (!set_wire_p0 (sys, b, nn, jn->initial_pressure, NULL, jn, error))
        return FALSE;
    }
  return TRUE;
}

/* Boundary nodes (tank, pressure source) and short circuits between them. */
static gboolean
find_boundaries (HydSystem *sys, Build *b, GError **error)
{
  sys->bnode_node = g_new (int, sys->n_nodes + 1);
  for (guint nb = 0; nb < sys->n_nodes; nb++)
    {
      SysNode *nd = &sys->nodes[nb];
      guint first_gp = 0;
      for (guint k = 0; k < nd->ports->len; k++)
        {
          guint gp = g_array_index (nd->ports, guint, k);
          SysComp *sc = &sys->comps[sys->port_comp[gp]];
          if (sc->comp->type->boundary_param < 0)
            continue;
          const HydProfile *bp = hyd_sys_boundary_profile (sc);
          if (!nd->boundary)
            {
              nd->boundary = TRUE;
              nd->bprof = bp;
              nd->reporter = (int) gp;
              first_gp = gp;
            }
          else if (!(bp && nd->bprof && hyd_profile_equal (bp, nd->bprof)))
            {
              /* both boundaries are named, the first as the related one */
              const char *first = sys->comps[sys->port_comp[first_gp]].comp->id;
              HydDiagnostic *d = hyd_diagnostic_new (HYD_DIAGNOSTIC_SHORT_CIRCUIT, HYD_SEVERITY_ERROR,
                                                     N_("short circuit between %s and %s: two "
                                                        "boundary pressures in one node"),
                                                     first, sc->comp->id, NULL);
              hyd_diagnostic_set_component (d, sc->comp->id);
              hyd_diagnostic_add_related (d, first);
              return hyd_diagnostic_set_error (error, d);
            }
        }
      if (!nd->boundary)
        continue;
      nd->bindex = (int) sys->n_bnodes;
      sys->bnode_node[sys->n_bnodes++] = (int) nb;
      if (b->p0_level[nb] == 2)
        {
          g_autofree char *pl = node_port_list (sys, nd->ports);
          hyd_sys_warn (sys, hyd_diagnostic_new (HYD_DIAGNOSTIC_BOUNDARY_INITIAL_PRESSURE,
                                                 HYD_SEVERITY_WARNING,
                                                 N_("node %s: initial_pressure ignored in a "
                                                    "boundary node"),
                                                 pl, NULL));
        }
    }
  sys->bpdot = g_new0 (double, sys->n_bnodes + 1);
  return TRUE;
}

/* Each component decides its states, pattern and events. */
static gboolean
setup_components (HydSystem *sys, GError **error)
{
  for (guint i = 0; i < sys->n_comps; i++)
    {
      HydComp *c = sys->comps[i].comp;
      if (!c->type->setup (c, error))
        return FALSE;
      if (c->nnz == 0 && hyd_comp_n_local (c) > 0)
        hyd_comp_use_dense_pattern (c);
      hyd_sys_comp_alloc (&sys->comps[i]);
      if (c->n_dstates > 0)
        sys->any_domains = TRUE; /* hyd_sys_domains_setup has work */
    }
  GPtrArray *names = g_ptr_array_new ();
  for (guint i = 0; i < sys->n_comps; i++)
    {
      HydComp *c = sys->comps[i].comp;
      sys->comps[i].event0 = names->len;
      if (c->type->events == NULL)
        continue;
      for (guint k = 0; k < c->n_events; k++)
        g_ptr_array_add (names, g_strdup_printf ("%s: %s", c->id, c->events[k].name));
    }
  sys->n_events = names->len;
  g_ptr_array_add (names, NULL);
  sys->event_names = (char **) g_ptr_array_free (names, FALSE);
  return TRUE;
}

/* Initial pressures components ask for (accumulator, volume), below wires. */
static gboolean
component_initial_pressures (HydSystem *sys, Build *b, GError **error)
{
  for (guint i = 0; i < sys->n_comps; i++)
    {
      HydComp *c = sys->comps[i].comp;
      if (c->type->port_initial_pressure == NULL)
        continue;
      for (guint X = 0; X < c->type->n_ports; X++)
        {
          double p;
          int nn = sys->comps[i].port_node[X];
          if (nn < 0 || !c->type->port_initial_pressure (c, X, &p) || b->p0_level[nn] == 2)
            continue;
          SysNode *nd = &sys->nodes[nn];
          if (b->p0_level[nn] == 1 && nd->p0 != p)
            {
              g_autofree char *pl = node_port_list (sys, nd->ports);
              g_autofree char *p_old = g_strdup_printf ("%g", nd->p0);
              g_autofree char *p_new = g_strdup_printf ("%g", p);
              return hyd_sys_component_error (error, HYD_DIAGNOSTIC_INITIAL_PRESSURE, c->id, NULL,
                                              NULL,
                                              N_("node %s: conflicting initial pressures %s Pa and "
                                                 "%s Pa asked by its components (%s)"),
                                              pl, p_old, p_new, c->id, NULL);
            }
          if (nd->boundary)
            continue;
          nd->p0 = p;
          b->p0_level[nn] = 1;
        }
    }
  return TRUE;
}

/* State vector: node pressures, then component states; initial values;
 * the global column of every component's local variable. */
static void
layout_states (HydSystem *sys, Build *b)
{
  guint n = 0;
  for (guint nb = 0; nb < sys->n_nodes; nb++)
    if (!sys->nodes[nb].boundary)
      sys->nodes[nb].state = (int) n++;
  for (guint i = 0; i < sys->n_comps; i++)
    {
      sys->comps[i].state0 = n;
      n += sys->comps[i].comp->n_states;
    }
  n = hyd_sys_domains_count_states (sys, n);
  sys->n = n;
  sys->state_units = g_new0 (HydUnit, n + 1);
  sys->y0 = g_new0 (double, n + 1);
  sys->f_scratch = g_new0 (double, n + 1);
  sys->dfdt_scratch = g_new0 (double, n + 1);
  sys->node_info = g_new0 (HydNodeInfo, sys->n_nodes + 1);
  for (guint nb = 0; nb < sys->n_nodes; nb++)
    {
      SysNode *nd = &sys->nodes[nb];
      HydNodeInfo *ni = &sys->node_info[nb];
      ni->boundary = nd->boundary;
      ni->state = nd->state;
      ni->wire_volume = nd->wire_volume;
      if (nd->boundary)
        nd->p0 = nd->bprof ? hyd_profile_value_after (nd->bprof, 0.0) : 0.0;
      else if (isnan (nd->p0))
        nd->p0 = b->sim_p0;
      ni->initial_pressure = nd->p0;
      if (!nd->boundary)
        {
          sys->state_units[nd->state] = HYD_UNIT_PRESSURE;
          sys->y0[nd->state] = hyd_fluid_node_state_for_pressure (&sys->fluid, nd->p0);
        }
    }
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      guint np = c->type->n_ports;
      for (guint k = 0; k < c->n_states; k++)
        sys->state_units[sc->state0 + k] = c->states[k].unit;
      for (guint X = 0; X < np; X++)
        sc->p[X] = sc->port_node[X] >= 0 ? sys->nodes[sc->port_node[X]].p0 : 0.0;
      if (c->type->init_states)
        c->type->init_states (c, sc->p, sys->y0 + sc->state0);
      sc->col = g_new (int, hyd_comp_n_local (c) + 1);
      for (guint k = np + c->n_states; k < hyd_comp_n_local (c); k++)
        sc->col[k] = -1;
      for (guint X = 0; X < np; X++)
        {
          int nn = sc->port_node[X];
          if (nn < 0)
            sc->col[X] = -1;
          else if (sys->nodes[nn].boundary)
            sc->col[X] = (int) (sys->n + sys->nodes[nn].bindex);
          else
            sc->col[X] = sys->nodes[nn].state;
        }
      for (guint k = 0; k < c->n_states; k++)
        sc->col[np + k] = (int) (sc->state0 + k);
    }
  if (sys->has_domains)
    hyd_sys_domains_layout (sys);
}

static gboolean
all_finite (const double *v, gsize n)
{
  for (gsize k = 0; k < n; k++)
    if (!isfinite (v[k]))
      return FALSE;
  return TRUE;
}

/* The parameter most likely to make a component's derived quantities
 * overflow: the numeric one furthest, in decades, from its default (or from
 * 1 in SI units where the default is 0); −1 when it has none. */
static int
extreme_param (const HydComp *c)
{
  int best = -1;
  double best_decades = -1.0;
  for (guint k = 0; k < c->type->n_params; k++)
    {
      const HydParamInfo *info = &c->type->params[k];
      double v = c->par[k];
      if ((info->flags & HYD_PARAM_ENUM) || isnan (v) || v == 0.0)
        continue;
      double scale = info->def != 0.0 && isfinite (info->def) ? fabs (info->def) : 1.0;
      double decades = fabs (log10 (fabs (v)) - log10 (scale));
      if (decades > best_decades)
        {
          best_decades = decades;
          best = (int) k;
        }
    }
  return best;
}

/* At t = 0 every component's flows, volumes, compliances and rates must be
 * finite: a parameter in range can still make a derived quantity overflow
 * (a 1e308 m piston diameter gives an infinite area and a NaN volume), and
 * the run would fail at once as "nonfinite", or check would blame the node
 * ("has no volume"). Name the component and the parameter instead. */
static gboolean
check_finite_components (HydSystem *sys, GError **error)
{
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const SysComp *sc = &sys->comps[i];
      const HydComp *c = sc->comp;
      guint np = c->type->n_ports, ns = c->n_states, nv = c->n_vstates;
      if (all_finite (sc->q, np) && all_finite (sc->xdot, ns) && all_finite (sc->V, np)
          && all_finite (sc->dV, (gsize) np * nv) && all_finite (sc->d2V, (gsize) np * nv * nv)
          && all_finite (sc->C, np) && all_finite (sc->dC, np) && all_finite (sc->out, c->n_outputs)
          && all_finite (sys->y0 + sc->state0, ns))
        continue;
      int k = extreme_param (c);
      if (k < 0)
        return hyd_sys_component_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, c->id, NULL, NULL,
                                        N_("component \"%s\" (%s): its flows, volumes or areas are "
                                           "not finite at t = 0"),
                                        c->id, c->type->id, NULL);
      const HydParamInfo *info = &c->type->params[k];
      const char *unit = hyd_unit_symbol (info->unit);
      g_autofree char *value = g_strdup_printf ("%.6g%s%s", c->par[k], unit && *unit ? " " : "",
                                                unit ? unit : "");
      return hyd_sys_component_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, c->id, NULL, info->name,
                                      N_("component \"%s\", parameter \"%s\": %s is so extreme "
                                         "that the %s's derived quantities (areas, volumes, "
                                         "displacement or flows) are not finite; use a realistic "
                                         "value"),
                                      c->id, info->name, value, c->type->id, NULL);
    }
  return TRUE;
}

/* Every non-boundary node needs a volume (a compliance does not count). */
static gboolean
check_volumes (HydSystem *sys, GError **error)
{
  hyd_sys_eval_all (sys, 0.0, sys->y0, NULL, FALSE);
  if (!check_finite_components (sys, error))
    return FALSE;
  /* each component's volume finite, but their sum not (two 1e308 m³
   * volumes): name the node and its largest contributor */
  for (guint nb = 0; nb < sys->n_nodes; nb++)
    {
      SysNode *nd = &sys->nodes[nb];
      if (nd->boundary || (isfinite (nd->V) && isfinite (nd->C) && isfinite (nd->dCdp)))
        continue;
      g_autofree char *pl = node_port_list (sys, nd->ports);
      const HydComp *largest = NULL;
      double largest_v = -1.0;
      for (guint k = 0; k < nd->ports->len; k++)
        {
          guint gp = g_array_index (nd->ports, guint, k);
          const SysComp *sc = &sys->comps[sys->port_comp[gp]];
          double v = fabs (sc->V[sys->port_index[gp]]) + fabs (sc->C[sys->port_index[gp]]);
          if (v > largest_v)
            {
              largest_v = v;
              largest = sc->comp;
            }
        }
      int k = largest ? extreme_param (largest) : -1;
      if (k < 0)
        return hyd_sys_component_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, NULL, NULL, NULL,
                                        N_("node %s: its volume or compliance is not finite"), pl,
                                        NULL);
      const HydParamInfo *info = &largest->type->params[k];
      const char *unit = hyd_unit_symbol (info->unit);
      g_autofree char *value = g_strdup_printf ("%.6g%s%s", largest->par[k], unit && *unit ? " " : "",
                                                unit ? unit : "");
      return hyd_sys_component_error (error, HYD_DIAGNOSTIC_PARAM_RANGE, largest->id, NULL, info->name,
                                      N_("node %s: the volumes on it add up to more than a number "
                                         "can hold; component \"%s\", parameter \"%s\": %s is too "
                                         "extreme"),
                                      pl, largest->id, info->name, value, NULL);
    }
  for (guint nb = 0; nb < sys->n_nodes; nb++)
    {
      SysNode *nd = &sys->nodes[nb];
      if (nd->boundary || nd->V > 0.0)
        continue;
      g_autofree char *pl = node_port_list (sys, nd->ports);
      /* the node's first port stands for it */
      guint gp = g_array_index (nd->ports, guint, 0);
      const HydComp *first = sys->comps[sys->port_comp[gp]].comp;
      return hyd_sys_component_error (error, HYD_DIAGNOSTIC_NO_VOLUME, first->id,
                                      first->type->ports[sys->port_index[gp]].name, NULL,
                                      N_("node %s has no volume: give the connection a length or "
                                         "add a volume"),
                                      pl, NULL);
    }
  return TRUE;
}

/* Flow meters: which side of the node each reports from, and their errors. */
static gboolean
build_meters (HydSystem *sys, Build *b, GError **error)
{
  const HydCircuit *circuit = b->circuit;
  sys->meters = g_new0 (SysMeter, sys->n_comps + 1);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      if (!sc->comp->type->is_flow_meter)
        continue;
      guint ga = b->port_offset[i], gb = b->port_offset[i] + 1;
      guint ra = hyd_sys_uf_find (b->parent_nometer, ga), rb = hyd_sys_uf_find (b->parent_nometer, gb);
      if (ra == rb)
        return hyd_sys_component_error (error, HYD_DIAGNOSTIC_FLOW_METER, sc->comp->id, NULL, NULL,
                                        N_("%s: the flow meter is bypassed (%s.B is reachable from "
                                           "%s.A without passing through the meter)"),
                                        sc->comp->id, sc->comp->id, sc->comp->id, NULL);
      gboolean bnd[2] = { FALSE, FALSE };
      GArray *sides[2] = { g_array_new (FALSE, FALSE, sizeof (guint)), g_array_new (FALSE, FALSE, sizeof (guint)) };
      double wv[2] = { 0, 0 };
      for (guint gp = 0; gp < sys->n_ports_total; gp++)
        {
          guint r = hyd_sys_uf_find (b->parent_nometer, gp);
          int side = r == ra ? 0 : r == rb ? 1 : -1;
          if (side < 0 || gp == ga || gp == gb)
            continue;
          g_array_append_val (sides[side], gp);
          if (sys->comps[sys->port_comp[gp]].comp->type->boundary_param >= 0)
            bnd[side] = TRUE;
        }
      for (guint k = 0; k < circuit->connections->len; k++)
        {
          if (b->conn_hose[k] >= 0)
            continue; /* a hose's volume is its ports', counted with the side */
          guint r = hyd_sys_uf_find (b->parent_nometer, (guint) b->conn_ends[2 * k]);
          if (r == ra)
            wv[0] += wire_volume (g_ptr_array_index (circuit->connections, k));
          if (r == rb)
            wv[1] += wire_volume (g_ptr_array_index (circuit->connections, k));
        }
      if (bnd[0] && bnd[1])
        {
          g_array_unref (sides[0]);
          g_array_unref (sides[1]);
          return hyd_sys_component_error (error, HYD_DIAGNOSTIC_FLOW_METER, sc->comp->id, NULL,
                                          NULL,
                                          N_("%s: the flow meter has boundary ports (tank or "
                                             "pressure source) on both sides"),
                                          sc->comp->id, NULL);
        }
      SysMeter *m = &sys->meters[sys->n_meters];
      m->comp = i;
      m->node = sc->port_node[0];
      m->from_b = bnd[0];
      m->side = sides[m->from_b ? 1 : 0];
      m->side_wire_volume = wv[m->from_b ? 1 : 0];
      g_array_unref (sides[m->from_b ? 0 : 1]);
      sc->meter = (int) sys->n_meters++;
    }
  return TRUE;
}

/* The names of the nodes, their ports and the states: made when first
 * asked for (a check of 10^5 components needs none of them). */
static void
build_names (HydSystem *sys)
{
  sys->state_names = g_new0 (char *, sys->n + 1);
  for (guint nb = 0; nb < sys->n_nodes; nb++)
    {
      SysNode *nd = &sys->nodes[nb];
      HydNodeInfo *ni = &sys->node_info[nb];
      g_autofree char *first = hyd_sys_port_name (sys, g_array_index (nd->ports, guint, 0));
      ni->name = g_strconcat (first, ".p", NULL);
      ni->ports = g_ptr_array_new_full (nd->ports->len, g_free);
      for (guint k = 0; k < nd->ports->len; k++)
        g_ptr_array_add (ni->ports, hyd_sys_port_name (sys, g_array_index (nd->ports, guint, k)));
      /* the state is the pressure, or the pseudo-pressure ψ of a node
       * that may hold a void ("<first port>.psi", hyd-fluid.h) */
      if (!nd->boundary)
        sys->state_names[nd->state] = hyd_fluid_has_floor (&sys->fluid)
                                      ? g_strconcat (first, ".psi", NULL)
                                      : g_strdup (ni->name);
    }
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const SysComp *sc = &sys->comps[i];
      const HydComp *c = sc->comp;
      for (guint k = 0; k < c->n_states; k++)
        sys->state_names[sc->state0 + k] = g_strconcat (c->id, ".", c->states[k].name, NULL);
    }  hyd_sys_domains_names (sys);
}

void
hyd_sys_ensure_names (const HydSystem *system)
{
  HydSystem *sys = (HydSystem *) system;
  if (g_once_init_enter (&sys->names_built))
    {
      build_names (sys);
      g_once_init_leave (&sys->names_built, 1);
    }
}

/* Variable names: t, port pressures and flows, states, outputs. */
static void
build_variables (HydSystem *sys)
{
  hyd_sys_ensure_names (sys);
  hyd_sys_add_var (sys, g_strdup ("t"), HYD_UNIT_TIME, VAR_TIME, 0, 0);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      if (hyd_sys_comp_is_hose (c))
        {
          /* "<from>-<to>.q", ".dp", ".Re"; a junction at an end names the
           * pressure of the node there ("J1.p") */
          const HydSysHose *h = c->priv;
          for (guint X = 0; X < 2; X++)
            {
              const char *end = X == 0 ? h->from : h->to;
              if (strchr (end, '.') == NULL && sc->port_node[X] >= 0)
                hyd_sys_add_var (sys, g_strconcat (end, ".p", NULL), HYD_UNIT_PRESSURE, VAR_NODE_P,
                                 sc->port_node[X], 0);
            }
          for (guint k = 0; k < c->n_outputs; k++)
            hyd_sys_add_var (sys, g_strconcat (c->id, ".", c->outputs[k].name, NULL), c->outputs[k].unit,
                             VAR_OUTPUT, (int) i, (int) k);
          continue;
        }
      for (guint X = 0; X < c->type->n_ports; X++)
        {
          if (sc->port_node[X] < 0)
            continue;
          const char *port = c->type->ports[X].name;
          hyd_sys_add_var (sys, g_strconcat (c->id, ".", port, ".p", NULL), HYD_UNIT_PRESSURE,
                           VAR_NODE_P, sc->port_node[X], 0);
          hyd_sys_add_var (sys, g_strconcat (c->id, ".", port, ".q", NULL), HYD_UNIT_FLOW,
                           VAR_PORT_Q, (int) i, (int) X);
        }
      for (guint k = 0; k < c->n_states; k++)
        hyd_sys_add_var (sys, g_strdup (sys->state_names[sc->state0 + k]), c->states[k].unit, VAR_STATE,
                         (int) (sc->state0 + k), 0);
      for (guint k = 0; k < c->n_outputs; k++)
        hyd_sys_add_var (sys, g_strconcat (c->id, ".", c->outputs[k].name, NULL), c->outputs[k].unit,
                         VAR_OUTPUT, (int) i, (int) k);
    }

  /* "<first port>.void": the void volume of every non-boundary node; the
   * node's other ports name it too, as they name its pressure */
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      SysNode *nd = &sys->nodes[b];
      if (nd->boundary)
        continue;
      g_autofree char *first = hyd_sys_port_name (sys, g_array_index (nd->ports, guint, 0));
      char *vname = g_strconcat (first, ".void", NULL);
      int idx = GPOINTER_TO_INT (g_hash_table_lookup (sys->var_index, vname));
      if (idx == 0)
        {
          hyd_sys_add_var (sys, vname, HYD_UNIT_VOLUME, VAR_NODE_VOID, (int) b, 0);
          idx = (int) sys->vars->len;
        }
      else
        g_free (vname);
      for (guint k = 1; k < nd->ports->len; k++)
        {
          g_autofree char *pn = hyd_sys_port_name (sys, g_array_index (nd->ports, guint, k));
          char *alias = g_strconcat (pn, ".void", NULL);
          if (g_hash_table_contains (sys->var_index, alias))
            {
              g_free (alias);
              continue;
            }
          g_ptr_array_add (sys->var_aliases, alias);
          g_hash_table_insert (sys->var_index, alias, GINT_TO_POINTER (idx));
        }
    }
  hyd_sys_domains_variables (sys);
  sys->n_listed_vars = sys->vars->len;

  /* The node states of the cavitation-safe models ("<first port>.psi") are
   * found, so that tools can record states by name, but not listed: the
   * pressure and the void are what a user plots. */
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      SysNode *nd = &sys->nodes[b];
      if (!nd->boundary && hyd_fluid_has_floor (&sys->fluid))
        hyd_sys_add_var (sys, g_strdup (sys->state_names[nd->state]), HYD_UNIT_PRESSURE, VAR_STATE,
                         nd->state, 0);
    }
}

void
hyd_sys_ensure_variables (const HydSystem *system)
{
  HydSystem *sys = (HydSystem *) system;
  if (g_once_init_enter (&sys->vars_built))
    {
      build_variables (sys);
      g_once_init_leave (&sys->vars_built, 1);
    }
}

HydSystem *
hyd_system_compile (const HydCircuit *circuit, GError **error)
{
  g_return_val_if_fail (circuit != NULL, NULL);

  HydSystem *sys = g_new0 (HydSystem, 1);
  sys->warnings = g_ptr_array_new_with_free_func (g_free);
  sys->diagnostics = hyd_diagnostic_list_new ();
  sys->vars = g_array_new (FALSE, TRUE, sizeof (Var));
  sys->var_index = g_hash_table_new (g_str_hash, g_str_equal);
  sys->var_aliases = g_ptr_array_new_with_free_func (g_free);
  sys->breakpoints = g_array_new (FALSE, FALSE, sizeof (double));

  Build b = { .circuit = circuit };
  HydSimOptions opts;
  gboolean ok = hyd_circuit_get_fluid (circuit, &sys->fluid, error)
                && hyd_circuit_get_sim_options (circuit, &opts, error);
  if (ok)
    {
      b.sim_p0 = opts.initial_pressure;
      hyd_sim_options_clear (&opts);
    }
  ok = ok && build_components (sys, &b, error) && build_hoses (sys, &b, error);
  if (ok)
    collect_breakpoints (sys);
  ok = ok && build_connectivity (sys, &b, error);
  if (ok)
    build_nodes (sys, &b);
  ok = ok && hyd_sys_build_domains (sys, circuit, b.parent, b.port_offset, b.conn_ends, error);
  ok = ok && apply_wire_settings (sys, &b, error)
       && find_boundaries (sys, &b, error)
       && setup_components (sys, error)
       && hyd_sys_resolve_taps (sys, error)
       && hyd_sys_order_signals (sys, error)
       && component_initial_pressures (sys, &b, error);
  if (ok)
    {
      hyd_sys_domains_setup (sys);
      layout_states (sys, &b);
    }
  ok = ok && check_volumes (sys, error) && hyd_sys_domains_check_storage (sys, error)
       && build_meters (sys, &b, error);
  build_clear (&b);
  if (!ok)
    {
      hyd_system_free (sys);
      return NULL;
    }

  build_pattern (sys);
  build_positions (sys);
  hyd_sys_lint (sys);
  sys->timed_valid = FALSE; /* the list of timed parameters, made again at first use */
  return sys;
}

