/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-system-domains.c — the domains beyond hydraulics (docs/domains.md):
 * translational and rotational nodes with their mass or inertia and their
 * states (v, x or ω, φ), signal nets evaluated in dependency order with
 * algebraic loops reported by name and their sensitivities for the chain
 * rule, discrete states changed at located events. A circuit without any of
 * them never enters this file after compiling (sys->has_domains is FALSE),
 * so the hydraulic path costs what it did. */
#include "hyd-system-private.h"

/* ---------- compile: nodes and nets ---------- */

static char *
port_list (const HydSystem *sys, GArray *ports)
{
  GString *s = g_string_new ("{");
  for (guint k = 0; k < ports->len; k++)
    {
      g_autofree char *pn = hyd_sys_port_name (sys, g_array_index (ports, guint, k));
      g_string_append_printf (s, "%s%s", k ? ", " : "", pn);
    }
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

static gboolean
port_error (const HydSystem *sys, GError **error, HydDiagnosticCode code, guint gp,
            const char *template, const char *a, const char *b)
{
  const HydComp *c = sys->comps[sys->port_comp[gp]].comp;
  return hyd_sys_component_error (error, code, c->id, c->type->ports[sys->port_index[gp]].name, NULL,
                                  template, a, b, NULL);
}

/* A node's initial velocity or position from a wire or junction. */
static gboolean
set_motion (SysMechNode *mn, gboolean *seen, double *slot, const char *key, double value,
            const char *where, const HydSystem *sys, GError **error)
{
  if (*seen && *slot != value)
    {
      g_autofree char *pl = port_list (sys, mn->ports);
      g_autofree char *a = g_strdup_printf ("%g", *slot), *b = g_strdup_printf ("%g", value);
      g_autofree char *what = g_strdup_printf ("%s (%s)", key, where);
      return hyd_sys_component_error (error, HYD_DIAGNOSTIC_INITIAL_PRESSURE, NULL, NULL, NULL,
                                      N_("node %s: conflicting %s values %s and %s"),
                                      pl, what, a, b, NULL);
    }
  *seen = TRUE;
  *slot = value;
  return TRUE;
}

static gboolean
apply_motion (HydSystem *sys, const HydCircuit *circuit, JsonObject *extra, int mnode, int hnode,
              const char *where, gboolean *seen_v, gboolean *seen_x, GError **error)
{
  static const char *const keys[] = { "initial_velocity", "initial_position" };
  for (guint k = 0; k < 2; k++)
    {
      double value;
      if (!hyd_circuit_get_initial_motion (circuit, extra, keys[k], &value))
        continue;
      if (mnode < 0)
        {
          /* on a hydraulic or signal node the keys say nothing */
          hyd_sys_warn (sys, hyd_diagnostic_new (HYD_DIAGNOSTIC_MOTION_IGNORED, HYD_SEVERITY_WARNING,
                                                 N_("%s: \"%s\" ignored: the node is not mechanical"),
                                                 where, keys[k], NULL));
          continue;
        }
      (void) hnode;
      SysMechNode *mn = &sys->mnodes[mnode];
      if (!set_motion (mn, k == 0 ? &seen_v[mnode] : &seen_x[mnode], k == 0 ? &mn->v0 : &mn->x0,
                       keys[k], value, where, sys, error))
        return FALSE;
    }
  return TRUE;
}

/* An optional mechanical port left unwired (a pump's shaft, a cylinder's
 * rod) makes no node (below): a circuit whose only such ports are unwired
 * is hydraulic only and never enters this file again. */
static gboolean
unwired_optional_mech (const HydComp *c, guint X)
{
  const HydPortInfo *pi = &c->type->ports[X];
  return hyd_domain_is_mechanical (pi->domain) && pi->optional && !hyd_comp_port_connected (c, X);
}

/* A hidden input no reference wires (a directional valve's solenoid input
 * Ya with solenoid_a unset): no net, its a_X is 0. */
static gboolean
unwired_hidden (const HydComp *c, guint X)
{
  const HydPortInfo *pi = &c->type->ports[X];
  return pi->hidden && pi->optional && !hyd_comp_port_connected (c, X);
}

/* The initial motion components ask for at their mechanical ports (a
 * cylinder's rod starts where its piston does), on nodes no wire or
 * junction has set; two different asks on one node are an error naming
 * both components. */
static gboolean
component_motion (HydSystem *sys, const gboolean *wire_v, const gboolean *wire_x, GError **error)
{
  g_autofree int *asked_v = g_new (int, sys->n_mnodes + 1);
  g_autofree int *asked_x = g_new (int, sys->n_mnodes + 1);
  for (guint k = 0; k < sys->n_mnodes; k++)
    asked_v[k] = asked_x[k] = -1;
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      const HydComp *c = sc->comp;
      if (c->type->port_initial_motion == NULL || sc->port_mnode == NULL)
        continue;
      for (guint X = 0; X < c->type->n_ports; X++)
        {
          int n = sc->port_mnode[X];
          double v, x;
          if (n < 0 || sys->mnodes[n].bcomp >= 0 || !c->type->port_initial_motion (c, X, &v, &x))
            continue;
          SysMechNode *mn = &sys->mnodes[n];
          for (guint q = 0; q < 2; q++)
            {
              int *asked = q == 0 ? asked_v : asked_x;
              double *slot = q == 0 ? &mn->v0 : &mn->x0, value = q == 0 ? v : x;
              if ((q == 0 ? wire_v : wire_x)[n])
                continue;
              if (asked[n] >= 0 && *slot != value)
                {
                  g_autofree char *pl = port_list (sys, mn->ports);
                  g_autofree char *a = g_strdup_printf ("%g", *slot), *b = g_strdup_printf ("%g", value);
                  g_autofree char *what = g_strdup_printf ("%s (%s, %s)", q == 0 ? "initial_velocity" : "initial_position",
                                                           sys->comps[asked[n]].comp->id, c->id);
                  return hyd_sys_component_error (error, HYD_DIAGNOSTIC_INITIAL_PRESSURE, c->id, NULL, NULL,
                                                  N_("node %s: conflicting %s values %s and %s"),
                                                  pl, what, a, b, NULL);
                }
              asked[n] = (int) i;
              *slot = value;
            }
        }
    }
  return TRUE;
}

gboolean
hyd_sys_build_domains (HydSystem *sys, const HydCircuit *circuit, guint *parent,
                       const guint *port_offset, const int *conn_ends, GError **error)
{
  /* most circuits are hydraulic only: one look at each type (consecutive
   * components mostly share theirs) and nothing else to do */
  gboolean any = circuit->version >= 2;
  /* a reference parameter (a limit switch's cylinder) wires its hidden
   * input: connected for setup (docs/electrical.md, "References") */
  for (guint i = 0; i < circuit->components->len && i < sys->n_comps; i++)
    {
      const HydCircuitComponent *doc = g_ptr_array_index (circuit->components, i);
      HydComp *c = sys->comps[i].comp;
      for (guint k = 0; k < c->type->n_params; k++)
        {
          const HydParamInfo *info = &c->type->params[k];
          if (!(info->flags & HYD_PARAM_REFERENCE) || hyd_circuit_component_get_reference (doc, info->name) == NULL)
            continue;
          int X = info->ref_port ? hyd_component_type_find_port (c->type, info->ref_port) : -1;
          g_return_val_if_fail (X >= 0 && X < 64, FALSE);
          c->connected |= G_GUINT64_CONSTANT (1) << X;
          any = TRUE;
        }
    }
  const HydComponentType *last = NULL;
  gboolean last_optional = FALSE; /* the type has an optional mechanical port */
  for (guint i = 0; i < sys->n_comps && !any; i++)
    {
      const HydComp *c = sys->comps[i].comp;
      const HydComponentType *t = c->type;
      if (t == last && !last_optional)
        continue;
      last = t;
      last_optional = FALSE;
      for (guint X = 0; X < t->n_ports && !any; X++)
        {
          last_optional = last_optional
                          || ((hyd_domain_is_mechanical (t->ports[X].domain) || t->ports[X].hidden)
                              && t->ports[X].optional);
          any = t->ports[X].domain != HYD_DOMAIN_HYDRAULIC && !unwired_optional_mech (c, X)
                && !unwired_hidden (c, X);
        }
    }
  if (!any)
    return TRUE;
  sys->any_domains = TRUE;

  guint n_items = sys->n_ports_total + circuit->junctions->len;
  g_autofree int *class_mnode = g_new (int, n_items + 1);
  g_autofree int *class_net = g_new (int, n_items + 1);
  g_autofree int *class_enet = g_new (int, n_items + 1);
  g_autofree int *port_enet = g_new (int, sys->n_ports_total + 1);
  guint n_enets = 0;
  for (guint k = 0; k < n_items; k++)
    class_mnode[k] = class_net[k] = class_enet[k] = -1;
  for (guint k = 0; k < sys->n_ports_total; k++)
    port_enet[k] = -1;
  GArray *mnodes = g_array_new (FALSE, TRUE, sizeof (SysMechNode));
  GArray *nets = g_array_new (FALSE, TRUE, sizeof (SysSignal));

  for (guint gp = 0; gp < sys->n_ports_total; gp++)
    {
      SysComp *sc = &sys->comps[sys->port_comp[gp]];
      const HydPortInfo *pi = &sc->comp->type->ports[sys->port_index[gp]];
      if (pi->domain == HYD_DOMAIN_HYDRAULIC)
        continue;
      guint root = hyd_sys_uf_find (parent, gp);
      if (pi->domain == HYD_DOMAIN_ELECTRICAL)
        {
          /* an electrical net: solved at events (hyd-system-electrical.c);
           * an unwired terminal is a net of its own, joined to nothing */
          if (class_enet[root] < 0)
            class_enet[root] = (int) n_enets++;
          port_enet[gp] = class_enet[root];
          continue;
        }
      /* an optional port left unwired (a cylinder's rod, a source's
       * signal input): no node or net, so no states, no mass and no
       * source needed; the type runs without it (its a_X is 0) */
      if (pi->optional && root == gp && !hyd_comp_port_connected (sc->comp, sys->port_index[gp]))
        continue;
      if (hyd_domain_is_mechanical (pi->domain))
        {
          if (class_mnode[root] < 0)
            {
              SysMechNode mn = { 0 };
              mn.ports = g_array_new (FALSE, FALSE, sizeof (guint));
              mn.domain = pi->domain;
              mn.state = -1;
              class_mnode[root] = (int) mnodes->len;
              g_array_append_val (mnodes, mn);
            }
          g_array_append_val (g_array_index (mnodes, SysMechNode, class_mnode[root]).ports, gp);
        }
      else if (pi->domain == HYD_DOMAIN_SIGNAL)
        {
          if (class_net[root] < 0)
            {
              SysSignal net = { 0 };
              net.ports = g_array_new (FALSE, FALSE, sizeof (guint));
              net.driver = -1;
              class_net[root] = (int) nets->len;
              g_array_append_val (nets, net);
            }
          g_array_append_val (g_array_index (nets, SysSignal, class_net[root]).ports, gp);
        }
    }
  sys->n_mnodes = mnodes->len;
  sys->mnodes = (SysMechNode *) g_array_free (mnodes, FALSE);
  sys->n_signals = nets->len;
  sys->signals = (SysSignal *) g_array_free (nets, FALSE);
  if (!hyd_sys_build_electrical (sys, port_enet, n_enets, error))
    return FALSE;

  /* references: the implicit net of each hidden input is a tap on the
   * variable of the component it names (resolved after setup) */
  g_autoptr (GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < circuit->components->len && i < sys->n_comps; i++)
    g_hash_table_insert (ids, sys->comps[i].comp->id, GUINT_TO_POINTER (i + 1));
  for (guint k = 0; k < sys->n_signals; k++)
    sys->signals[k].tap_state = sys->signals[k].tap_dstate = -1;
  for (guint i = 0; i < circuit->components->len && i < sys->n_comps; i++)
    {
      const HydCircuitComponent *doc = g_ptr_array_index (circuit->components, i);
      const HydComp *c = sys->comps[i].comp;
      for (guint k = 0; k < c->type->n_params; k++)
        {
          const HydParamInfo *info = &c->type->params[k];
          const char *ref = (info->flags & HYD_PARAM_REFERENCE) ? hyd_circuit_component_get_reference (doc, info->name) : NULL;
          if (ref == NULL)
            continue;
          guint target = GPOINTER_TO_UINT (g_hash_table_lookup (ids, ref));
          if (target == 0)
            return hyd_sys_component_error (error, HYD_DIAGNOSTIC_REFERENCE, c->id, NULL, info->name,
                                            N_("component \"%s\", parameter \"%s\": no component \"%s\""),
                                            c->id, info->name, ref, NULL);
          guint gp = port_offset[i] + (guint) hyd_component_type_find_port (c->type, info->ref_port);
          int net = class_net[hyd_sys_uf_find (parent, gp)];
          g_return_val_if_fail (net >= 0, FALSE);
          SysSignal *sn = &sys->signals[net];
          sn->tap = TRUE;
          sn->tap_comp = target - 1;
          sn->tap_var = info->ref_var;
          sn->tap_reader = gp;
          sn->tap_param = info->name;
        }
    }

  /* each component's ports: its mechanical node or signal net (only for
   * types that have such ports) */
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      const HydComponentType *t = sc->comp->type;
      guint np = t->n_ports;
      gboolean mech = FALSE, sig = FALSE;
      for (guint X = 0; X < np; X++)
        {
          mech = mech || hyd_domain_is_mechanical (t->ports[X].domain);
          sig = sig || t->ports[X].domain == HYD_DOMAIN_SIGNAL;
        }
      if (!mech && !sig)
        continue;
      if (mech)
        sc->port_mnode = g_new (int, np + 1);
      if (sig)
        sc->port_signal = g_new (int, np + 1);
      for (guint X = 0; X < np; X++)
        {
          guint root = hyd_sys_uf_find (parent, port_offset[i] + X);
          if (sc->port_mnode)
            sc->port_mnode[X] = hyd_domain_is_mechanical (t->ports[X].domain) ? class_mnode[root] : -1;
          if (sc->port_signal)
            sc->port_signal[X] = t->ports[X].domain == HYD_DOMAIN_SIGNAL ? class_net[root] : -1;
          /* the extra steps only for a component on a mechanical node (a
           * cylinder with its rod unwired costs what it did) */
          if (sc->port_mnode && sc->port_mnode[X] >= 0)
            sc->ext = TRUE;
        }
    }

  /* nets: one output; an input needs it */
  for (guint k = 0; k < sys->n_signals; k++)
    {
      SysSignal *net = &sys->signals[k];
      int first_input = -1;
      for (guint j = 0; j < net->ports->len; j++)
        {
          guint gp = g_array_index (net->ports, guint, j);
          const HydPortInfo *pi = &sys->comps[sys->port_comp[gp]].comp->type->ports[sys->port_index[gp]];
          if (pi->direction == HYD_PORT_INPUT)
            {
              if (first_input < 0)
                first_input = (int) gp;
              continue;
            }
          if (net->driver >= 0)
            {
              g_autofree char *a = hyd_sys_port_name (sys, (guint) net->driver);
              g_autofree char *b = hyd_sys_port_name (sys, gp);
              return port_error (sys, error, HYD_DIAGNOSTIC_SIGNAL, gp,
                                 N_("signal outputs %s and %s are wired together: a signal has "
                                    "one source"), a, b);
            }
          net->driver = (int) gp;
        }
      if (first_input >= 0 && net->driver < 0 && !net->tap)
        {
          g_autofree char *pl = port_list (sys, net->ports);
          return port_error (sys, error, HYD_DIAGNOSTIC_SIGNAL, (guint) first_input,
                             N_("signal inputs %s have no source: wire them to a signal output"),
                             pl, NULL);
        }
      net->used = first_input >= 0;
    }

  /* fixed points: a port of a type with a boundary parameter makes its
   * mechanical node a boundary, at rest at the position the parameter
   * gives (a constant: prescribed motion is not implemented) */
  for (guint k = 0; k < sys->n_mnodes; k++)
    {
      SysMechNode *mn = &sys->mnodes[k];
      mn->bcomp = -1;
      for (guint j = 0; j < mn->ports->len; j++)
        {
          guint gp = g_array_index (mn->ports, guint, j);
          const SysComp *sc = &sys->comps[sys->port_comp[gp]];
          int bp = sc->comp->type->boundary_param;
          if (bp < 0)
            continue;
          if (sc->prof[bp] != NULL && !hyd_profile_is_constant (sc->prof[bp]))
            return port_error (sys, error, HYD_DIAGNOSTIC_PARAM_VALUE, gp,
                               N_("%s: a fixed point's position must be a constant"),
                               sc->comp->id, NULL);
          if (mn->bcomp >= 0 && sys->comps[mn->bcomp].comp->par[mn->bparam] != sc->comp->par[bp])
            {
              g_autofree char *pl = port_list (sys, mn->ports);
              return port_error (sys, error, HYD_DIAGNOSTIC_SHORT_CIRCUIT, gp,
                                 N_("node %s: two fixed points at different positions (%s)"),
                                 pl, sc->comp->id);
            }
          mn->bcomp = (int) sys->port_comp[gp];
          mn->bparam = bp;
        }
    }

  /* initial motion from wires and junctions (format version 2 only: the
   * keys mean nothing in a version 1 file), then what components ask */
  g_autofree gboolean *seen_v = g_new0 (gboolean, sys->n_mnodes + 1);
  g_autofree gboolean *seen_x = g_new0 (gboolean, sys->n_mnodes + 1);
  for (guint k = 0; k < circuit->connections->len && circuit->version >= 2; k++)
    {
      HydCircuitConnection *cn = g_ptr_array_index (circuit->connections, k);
      if (cn->extra == NULL)
        continue;
      guint root = hyd_sys_uf_find (parent, (guint) conn_ends[2 * k]);
      g_autofree char *where = g_strdup_printf ("connection %s → %s", cn->from, cn->to);
      if (!apply_motion (sys, circuit, cn->extra, class_mnode[root], -1, where, seen_v, seen_x, error))
        return FALSE;
    }
  for (guint j = 0; j < circuit->junctions->len && circuit->version >= 2; j++)
    {
      HydCircuitJunction *jn = g_ptr_array_index (circuit->junctions, j);
      if (jn->extra == NULL)
        continue;
      guint root = hyd_sys_uf_find (parent, sys->n_ports_total + j);
      g_autofree char *where = g_strdup_printf ("junction %s", jn->id);
      if (!apply_motion (sys, circuit, jn->extra, class_mnode[root], -1, where, seen_v, seen_x, error))
        return FALSE;
    }
  return component_motion (sys, seen_v, seen_x, error);
}

/* ---------- compile: the signal blocks' dependency order ---------- */

/* The components whose signal outputs are read, in an order where each is
 * evaluated after the blocks its outputs depend on (Kahn's algorithm over
 * the edges driver → reader; a reader without direct feedthrough takes no
 * edge). What is left is on a cycle: an algebraic loop, named. */
gboolean
hyd_sys_order_signals (HydSystem *sys, GError **error)
{
  guint nc = sys->n_comps;
  g_autofree int *slot = g_new (int, nc + 1);   /* index among the blocks, or −1 */
  GArray *blocks = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < nc; i++)
    slot[i] = -1;
  for (guint k = 0; k < sys->n_signals; k++)
    {
      SysSignal *net = &sys->signals[k];
      if (!net->used || net->driver < 0)
        continue;
      guint ci = sys->port_comp[net->driver];
      if (slot[ci] < 0)
        {
          slot[ci] = (int) blocks->len;
          g_array_append_val (blocks, ci);
        }
    }
  guint nb = blocks->len;
  /* edges: for each used net, its driver to every reader that is a block
   * with direct feedthrough */
  g_autofree guint *indeg = g_new0 (guint, nb + 1);
  GArray **succ = g_new0 (GArray *, nb + 1);
  for (guint k = 0; k < sys->n_signals; k++)
    {
      SysSignal *net = &sys->signals[k];
      if (!net->used || net->driver < 0)
        continue;
      int from = slot[sys->port_comp[net->driver]];
      for (guint j = 0; j < net->ports->len; j++)
        {
          guint gp = g_array_index (net->ports, guint, j);
          guint ci = sys->port_comp[gp];
          if ((int) gp == net->driver || slot[ci] < 0 || sys->comps[ci].comp->type->signal_feedthrough_free)
            continue;
          if (succ[from] == NULL)
            succ[from] = g_array_new (FALSE, FALSE, sizeof (int));
          g_array_append_val (succ[from], slot[ci]);
          indeg[slot[ci]]++;
        }
    }
  sys->sig_order = g_new (guint, nb + 1);
  sys->n_sig_order = 0;
  g_autofree guint *queue = g_new (guint, nb + 1);
  guint head = 0, tail = 0;
  for (guint b = 0; b < nb; b++)
    if (indeg[b] == 0)
      queue[tail++] = b;
  while (head < tail)
    {
      guint b = queue[head++];
      sys->sig_order[sys->n_sig_order++] = g_array_index (blocks, guint, b);
      if (succ[b])
        for (guint e = 0; e < succ[b]->len; e++)
          if (--indeg[g_array_index (succ[b], int, e)] == 0)
            queue[tail++] = (guint) g_array_index (succ[b], int, e);
    }
  gboolean ok = TRUE;
  if (sys->n_sig_order < nb)
    {
      /* walk from a block left over along left-over successors until one
       * repeats: that stretch is a loop */
      guint b = 0;
      while (indeg[b] == 0)
        b++;
      g_autofree int *visit = g_new (int, nb + 1);
      for (guint k = 0; k < nb; k++)
        visit[k] = -1;
      GArray *path = g_array_new (FALSE, FALSE, sizeof (guint));
      while (visit[b] < 0)
        {
          visit[b] = (int) path->len;
          g_array_append_val (path, b);
          guint next = b;
          for (guint e = 0; succ[b] && e < succ[b]->len; e++)
            if (indeg[g_array_index (succ[b], int, e)] > 0)
              {
                next = (guint) g_array_index (succ[b], int, e);
                break;
              }
          b = next;
        }
      GString *s = g_string_new (NULL);
      for (guint k = (guint) visit[b]; k < path->len; k++)
        g_string_append_printf (s, "%s → ",
                                sys->comps[g_array_index (blocks, guint, g_array_index (path, guint, k))].comp->id);
      const HydComp *first = sys->comps[g_array_index (blocks, guint, b)].comp;
      g_string_append (s, first->id);
      g_autofree char *loop = g_string_free (s, FALSE);
      ok = hyd_sys_component_error (error, HYD_DIAGNOSTIC_ALGEBRAIC_LOOP, first->id, NULL, NULL,
                                    N_("algebraic loop through the signal blocks %s: each needs "
                                       "the other's output at the same instant; break it with a "
                                       "block that has a state (an integrator or a lag)"),
                                    loop, NULL);
      g_array_unref (path);
    }
  for (guint b = 0; b < nb; b++)
    if (succ[b])
      g_array_unref (succ[b]);
  g_free (succ);
  g_array_unref (blocks);
  return ok;
}

/* ---------- compile: layout ---------- */

/* After setup: scratch for positions, discrete states and signal outputs;
 * which components take the extra evaluation steps. */
void
hyd_sys_domains_setup (HydSystem *sys)
{
  if (!sys->any_domains)
    return;
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      guint np = c->type->n_ports;
      if (c->n_pos > 0)
        sc->pos = g_new0 (double, np + 1);
      if (c->n_dstates > 0)
        {
          sc->d = g_memdup2 (c->d0, c->n_dstates * sizeof (double));
          sys->n_dstates += c->n_dstates;
          sc->ext = TRUE;
        }
      if (sc->port_signal)
        for (guint X = 0; X < np; X++)
          if (sc->port_signal[X] >= 0 && sys->signals[sc->port_signal[X]].used)
            sc->ext = TRUE;
    }
  for (guint k = 0; k < sys->n_sig_order; k++)
    {
      SysComp *sc = &sys->comps[sys->sig_order[k]];
      guint np = sc->comp->type->n_ports;
      sc->s = g_new0 (double, 2 * np + (gsize) np * hyd_comp_n_local (sc->comp) + 1);
      sc->s_t = sc->s + np;
      sc->ds = sc->s + 2 * np;
      sc->ext = TRUE;
    }
  sys->has_domains = sys->n_mnodes > 0 || sys->n_sig_order > 0 || sys->n_dstates > 0;
}

/* The mechanical nodes' states after every other (so a hydraulic circuit
 * keeps its numbering): v, x (ω, φ) each. */
guint
hyd_sys_domains_count_states (HydSystem *sys, guint n)
{
  for (guint k = 0; k < sys->n_mnodes; k++)
    if (sys->mnodes[k].bcomp < 0)
      {
        sys->mnodes[k].state = (int) n;
        n += 2;
      }
  return n;
}

/* The mechanical states' names, "<first port>.v" / ".x" (".w" / ".phi"):
 * with the other names, when first asked for (hyd_sys_ensure_names). */
void
hyd_sys_domains_names (HydSystem *sys)
{
  for (guint k = 0; k < sys->n_mnodes; k++)
    {
      SysMechNode *mn = &sys->mnodes[k];
      if (mn->state < 0)
        continue;
      gboolean rot = mn->domain == HYD_DOMAIN_ROTATIONAL;
      g_autofree char *first = hyd_sys_port_name (sys, g_array_index (mn->ports, guint, 0));
      sys->state_names[mn->state] = g_strconcat (first, rot ? ".w" : ".v", NULL);
      sys->state_names[mn->state + 1] = g_strconcat (first, rot ? ".phi" : ".x", NULL);
    }
}

/* Units and initial values of the mechanical states; the columns
 * of mechanical ports, positions and signal inputs; the nets' structural
 * sensitivities (the state columns a net's value may depend on). */
void
hyd_sys_domains_layout (HydSystem *sys)
{
  for (guint k = 0; k < sys->n_mnodes; k++)
    {
      SysMechNode *mn = &sys->mnodes[k];
      if (mn->state < 0)
        continue;
      gboolean rot = mn->domain == HYD_DOMAIN_ROTATIONAL;
      sys->state_units[mn->state] = rot ? HYD_UNIT_ANGULAR_VELOCITY : HYD_UNIT_VELOCITY;
      sys->state_units[mn->state + 1] = rot ? HYD_UNIT_ANGLE : HYD_UNIT_POSITION;
      sys->y0[mn->state] = mn->v0;
      sys->y0[mn->state + 1] = mn->x0;
    }
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      guint np = c->type->n_ports;
      for (guint X = 0; X < np; X++)
        {
          if (sc->port_mnode && sc->port_mnode[X] >= 0)
            {
              /* a fixed point's node: constants, no column */
              const SysMechNode *mn = &sys->mnodes[sc->port_mnode[X]];
              sc->col[X] = mn->state;
              sc->col[hyd_comp_pos_col (c, X)] = mn->state < 0 ? -1 : mn->state + 1;
            }
          else if (sc->port_signal && sc->port_signal[X] >= 0
                   && c->type->ports[X].direction == HYD_PORT_INPUT)
            sc->col[X] = HYD_SYS_SIGNAL_COL (sc->port_signal[X]);
        }
    }
  /* a tap on a state depends on that state alone, with slope 1 */
  for (guint k = 0; k < sys->n_signals; k++)
    {
      SysSignal *net = &sys->signals[k];
      if (!net->tap || net->tap_state < 0)
        continue;
      net->n_cols = 1;
      net->cols = g_new (int, 1);
      net->cols[0] = (int) (sys->comps[net->tap_comp].state0 + (guint) net->tap_state);
      net->vals = g_new (double, 1);
      net->vals[0] = 1.0;
    }
  /* structural sensitivities in dependency order: a net depends on every
   * column of its driver's local variables (the rows of ds are dense) */
  g_autofree int *mark = g_new (int, sys->n + sys->n_bnodes + 1);
  for (guint k = 0; k < sys->n + sys->n_bnodes; k++)
    mark[k] = -1;
  for (guint o = 0; o < sys->n_sig_order; o++)
    {
      SysComp *sc = &sys->comps[sys->sig_order[o]];
      HydComp *c = sc->comp;
      guint np = c->type->n_ports, nl = hyd_comp_n_local (c);
      for (guint X = 0; X < np; X++)
        {
          if (sc->port_signal == NULL || sc->port_signal[X] < 0
              || c->type->ports[X].direction != HYD_PORT_OUTPUT)
            continue;
          SysSignal *net = &sys->signals[sc->port_signal[X]];
          if (!net->used)
            continue;
          GArray *cols = g_array_new (FALSE, FALSE, sizeof (int));
          int stamp = sc->port_signal[X];
          for (guint lc = 0; lc < nl; lc++)
            {
              int col = sc->col[lc];
              if (col >= 0)
                {
                  if (mark[col] != stamp)
                    {
                      mark[col] = stamp;
                      g_array_append_val (cols, col);
                    }
                }
              else if (col <= HYD_SYS_SIGNAL_COL (0))
                {
                  const SysSignal *in = &sys->signals[HYD_SYS_SIGNAL_NET (col)];
                  for (guint j = 0; j < in->n_cols; j++)
                    if (mark[in->cols[j]] != stamp)
                      {
                        mark[in->cols[j]] = stamp;
                        g_array_append_val (cols, in->cols[j]);
                      }
                }
            }
          net->n_cols = cols->len;
          net->cols = (int *) g_array_free (cols, FALSE);
          net->vals = g_new0 (double, net->n_cols + 1);
        }
    }
}

/* A translational node needs a mass, a rotational one an inertia. */
gboolean
hyd_sys_domains_check_storage (HydSystem *sys, GError **error)
{
  for (guint k = 0; k < sys->n_mnodes; k++)
    {
      SysMechNode *mn = &sys->mnodes[k];
      if (mn->state < 0 || (mn->m > 0.0 && isfinite (mn->m)))
        continue;
      g_autofree char *pl = port_list (sys, mn->ports);
      guint gp = g_array_index (mn->ports, guint, 0);
      return port_error (sys, error, HYD_DIAGNOSTIC_NO_STORAGE, gp,
                         mn->domain == HYD_DOMAIN_ROTATIONAL
                         ? N_("node %s has no inertia: add an inertia on it")
                         : N_("node %s has no mass: add a mass on it"),
                         pl, NULL);
    }
  return TRUE;
}

static int
index_of (const int *cols, guint n, int col)
{
  for (guint j = 0; j < n; j++)
    if (cols[j] == col)
      return (int) j;
  return -1;
}

/* ---------- evaluation ---------- */

/* The across values a component sees at its mechanical and signal ports. */
void
hyd_sys_domains_inputs (HydSystem *sys, SysComp *sc)
{
  guint np = sc->comp->type->n_ports;
  if (sc->port_mnode)
    for (guint X = 0; X < np; X++)
      if (sc->port_mnode[X] >= 0)
        {
          const SysMechNode *mn = &sys->mnodes[sc->port_mnode[X]];
          sc->p[X] = mn->v;
          sc->pos[X] = mn->x;
        }
  if (sc->port_signal)
    for (guint X = 0; X < np; X++)
      if (sc->port_signal[X] >= 0)
        sc->p[X] = sc->comp->type->ports[X].direction == HYD_PORT_INPUT
                   ? sys->signals[sc->port_signal[X]].value : 0.0;
}

/* Before the components: the mechanical nodes' states, then every signal
 * block in dependency order (values, and with want_jac the nets'
 * sensitivities by the chain rule). The hydraulic nodes are evaluated. */
void
hyd_sys_domains_pre_eval (HydSystem *sys, double t, const double *y, gboolean want_jac)
{
  for (guint k = 0; k < sys->n_mnodes; k++)
    {
      SysMechNode *mn = &sys->mnodes[k];
      if (mn->state < 0)
        {
          mn->v = 0.0;
          mn->x = sys->comps[mn->bcomp].comp->par[mn->bparam];
        }
      else
        {
          mn->v = y[mn->state];
          mn->x = y[mn->state + 1];
        }
      mn->m = 0.0;
      mn->F = 0.0;
    }
  for (guint k = 0; k < sys->n_signals; k++)
    {
      SysSignal *net = &sys->signals[k];
      if (!net->tap)
        continue;
      const SysComp *tc = &sys->comps[net->tap_comp];
      net->value = net->tap_state >= 0 ? y[tc->state0 + (guint) net->tap_state] : tc->d[net->tap_dstate];
      net->s_t = 0.0;
    }
  for (guint o = 0; o < sys->n_sig_order; o++)
    {
      SysComp *sc = &sys->comps[sys->sig_order[o]];
      HydComp *c = sc->comp;
      guint np = c->type->n_ports, nl = hyd_comp_n_local (c);
      for (guint X = 0; X < np; X++)
        sc->p[X] = sc->port_node[X] >= 0 ? sys->nodes[sc->port_node[X]].p : 0.0;
      hyd_sys_domains_inputs (sys, sc);
      memset (sc->s, 0, sizeof (double) * (2 * np + (gsize) np * nl));
      HydEvalIn in = { t, sc->p, y + sc->state0, sc->pos, sc->d };
      c->type->signals (c, &in, sc->s, want_jac ? sc->ds : NULL, sc->s_t);
      for (guint X = 0; X < np; X++)
        {
          if (sc->port_signal[X] < 0 || c->type->ports[X].direction != HYD_PORT_OUTPUT)
            continue;
          SysSignal *net = &sys->signals[sc->port_signal[X]];
          net->value = sc->s[X];
          net->s_t = sc->s_t[X];
          if (!want_jac || !net->used)
            continue;
          /* ∂s/∂y_j = Σ_c ∂g/∂z_c · ∂z_c/∂y_j: a hydraulic port through
           * F'(ψ), a signal input through its own net */
          memset (net->vals, 0, sizeof (double) * net->n_cols);
          const double *row = sc->ds + (gsize) X * nl;
          for (guint lc = 0; lc < nl; lc++)
            {
              double v = row[lc];
              int col = sc->col[lc];
              if (v == 0.0 || col == -1)
                continue;
              if (col >= 0)
                {
                  if (lc < np && sc->port_node[lc] >= 0)
                    v *= sys->nodes[sc->port_node[lc]].nf.dp;
                  int at = index_of (net->cols, net->n_cols, col);
                  if (at >= 0)
                    net->vals[at] += v;
                }
              else
                {
                  const SysSignal *in_net = &sys->signals[HYD_SYS_SIGNAL_NET (col)];
                  for (guint j = 0; j < in_net->n_cols; j++)
                    {
                      /* −1 only for a block without feedthrough that
                       * reports one: its inputs are not in its pattern */
                      int at = index_of (net->cols, net->n_cols, in_net->cols[j]);
                      if (at >= 0)
                        net->vals[at] += v * in_net->vals[j];
                    }
                  net->s_t += v * in_net->s_t;
                }
            }
        }
    }
}

/* After a component's eval: its forces (torques) and masses (inertias) at
 * its mechanical nodes. */
void
hyd_sys_domains_accumulate (HydSystem *sys, SysComp *sc)
{
  if (sc->port_mnode == NULL)
    return;
  for (guint X = 0; X < sc->comp->type->n_ports; X++)
    if (sc->port_mnode[X] >= 0)
      {
        SysMechNode *mn = &sys->mnodes[sc->port_mnode[X]];
        mn->F += sc->q[X];
        mn->m += sc->C[X];
      }
}

/* m·v̇ = −ΣF̂, ẋ = v (J·ω̇ = −Στ̂, φ̇ = ω). */
void
hyd_sys_domains_rhs (HydSystem *sys, double *f)
{
  for (guint k = 0; k < sys->n_mnodes; k++)
    {
      SysMechNode *mn = &sys->mnodes[k];
      if (mn->state < 0)
        continue;
      mn->f = -mn->F / mn->m;
      if (f)
        {
          f[mn->state] = mn->f;
          f[mn->state + 1] = mn->v;
        }
    }
}

/* ---------- events: discrete states ---------- */

/* Every component's update at (t, y), repeated until no discrete state
 * changes (docs/domains.md); 1 when 64 rounds do not settle. crossed (or
 * NULL): the driver's directions of every event function, for the first
 * round. */
/* Rounds of the fixed-point iteration before a network counts as not
 * settling; the last CHATTER_ROUNDS of them name what kept changing. */
#define UPDATE_ROUNDS 256
#define CHATTER_ROUNDS 16

static double *
dstates_snapshot (const HydSystem *sys, double *buf)
{
  guint k = 0;
  for (guint i = 0; i < sys->n_comps; i++)
    for (guint j = 0; j < sys->comps[i].comp->n_dstates; j++)
      buf[k++] = sys->comps[i].d[j];
  return buf;
}

/* The discrete states that differ between two snapshots, added to `names`
 * (no repeats). */
static void
chatter_names (const HydSystem *sys, const double *a, const double *b, GPtrArray *names)
{
  guint k = 0;
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const HydComp *c = sys->comps[i].comp;
      for (guint j = 0; j < c->n_dstates; j++, k++)
        if (a[k] != b[k])
          {
            char *name = g_strconcat (c->id, ".", c->dstates[j].name, NULL);
            gboolean seen = FALSE;
            for (guint q = 0; q < names->len && !seen; q++)
              seen = strcmp (g_ptr_array_index (names, q), name) == 0;
            if (seen)
              g_free (name);
            else
              g_ptr_array_add (names, name);
          }
    }
}

int
hyd_sys_domains_update (HydSystem *sys, double t, const double *y, const int *crossed)
{
  g_autofree double *before = NULL, *after = NULL;
  g_autoptr (GPtrArray) chatter = NULL;
  g_clear_pointer (&sys->update_error, g_free);
  for (int round = 0; round < UPDATE_ROUNDS; round++)
    {
      gboolean changed = FALSE;
      if (round == UPDATE_ROUNDS - CHATTER_ROUNDS)
        {
          before = g_new (double, sys->n_dstates + 1);
          after = g_new (double, sys->n_dstates + 1);
          chatter = g_ptr_array_new_with_free_func (g_free);
        }
      if (before)
        dstates_snapshot (sys, before);
      hyd_sys_eval_all (sys, t, y, NULL, FALSE);
      for (guint i = 0; i < sys->n_comps; i++)
        {
          SysComp *sc = &sys->comps[i];
          HydComp *c = sc->comp;
          if (c->type->update == NULL || c->n_dstates == 0)
            continue;
          HydEvalIn in = { t, sc->p, y + sc->state0, sc->pos, sc->d };
          const int *cr = round == 0 && crossed != NULL ? crossed + sc->event0 : NULL;
          if (cr != NULL && c->n_events > 0)
            {
              gboolean any = FALSE;
              for (guint k = 0; k < c->n_events; k++)
                any = any || cr[k] != 0;
              cr = any ? cr : NULL;
            }
          else
            cr = NULL;
          changed = c->type->update (c, &in, cr, sc->d) || changed;
        }
      if (sys->n_elec > 0)
        {
          int rc = hyd_sys_elec_solve (sys, t, &changed);
          if (rc != 0)
            return rc;
        }
      if (!changed)
        return 0;
      if (before)
        chatter_names (sys, before, dstates_snapshot (sys, after), chatter);
    }
  GString *list = g_string_new (NULL);
  for (guint q = 0; q < chatter->len; q++)
    g_string_append_printf (list, "%s%s", q ? ", " : "", (const char *) g_ptr_array_index (chatter, q));
  sys->update_error = g_strdup_printf ("the discrete states do not settle at t = %.9g s: %s keep switching "
                                       "(a relay that switches itself off through its own contact "
                                       "chatters)", t, list->str);
  g_string_free (list, TRUE);
  return 1;
}

/* The discrete states as compiled, then settled at (0, y0). */
void
hyd_sys_domains_reset (HydSystem *sys)
{
  for (guint i = 0; i < sys->n_comps; i++)
    {
      SysComp *sc = &sys->comps[i];
      if (sc->d)
        memcpy (sc->d, sc->comp->d0, sc->comp->n_dstates * sizeof (double));
    }
  if (sys->n_dstates > 0)
    hyd_sys_domains_update (sys, 0.0, sys->y0, NULL);
}

/* ---------- pattern ---------- */

static void
add_key (GArray *pairs, guint row, int col, guint n)
{
  if (col < 0 || (guint) col >= n)
    return;
  guint64 key = ((guint64) (guint) col << 32) | row;
  g_array_append_val (pairs, key);
}

/* The rows an entry (r, ·) of a component's block reaches that the
 * hydraulic assembly does not: a mechanical port's row; with a signal
 * column every row it reaches. Calls `fn` with (row, col) for each column
 * of `col` (a signal column: every column of its net). */
static void
add_cols (const HydSystem *sys, GArray *pairs, guint row, int col)
{
  if (col >= 0)
    add_key (pairs, row, col, sys->n);
  else if (col <= HYD_SYS_SIGNAL_COL (0))
    {
      const SysSignal *net = &sys->signals[HYD_SYS_SIGNAL_NET (col)];
      for (guint j = 0; j < net->n_cols; j++)
        add_key (pairs, row, net->cols[j], sys->n);
    }
}

void
hyd_sys_domains_pattern (const HydSystem *sys, GArray *pairs)
{
  for (guint k = 0; k < sys->n_mnodes; k++)
    {
      const SysMechNode *mn = &sys->mnodes[k];
      if (mn->state < 0)
        continue;
      add_key (pairs, mn->state, mn->state, sys->n);     /* keeps every row's diagonal */
      add_key (pairs, mn->state + 1, mn->state, sys->n); /* ẋ = v */
      add_key (pairs, mn->state + 1, mn->state + 1, sys->n);
    }
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const SysComp *sc = &sys->comps[i];
      const HydComp *c = sc->comp;
      if (!sc->ext)
        continue;
      guint np = c->type->n_ports;
      for (guint e = 0; e < c->nnz; e++)
        {
          guint r = c->jrow[e];
          int col = sc->col[c->jcol[e]];
          gboolean sig = col <= HYD_SYS_SIGNAL_COL (0);
          if (r < np)
            {
              int nn = sc->port_node[r];
              if (sc->port_mnode && sc->port_mnode[r] >= 0)
                {
                  if (sys->mnodes[sc->port_mnode[r]].state >= 0)
                    add_cols (sys, pairs, sys->mnodes[sc->port_mnode[r]].state, col);
                }
              else if (sig && nn >= 0 && !sys->nodes[nn].boundary)
                add_cols (sys, pairs, sys->nodes[nn].state, col);
              continue;
            }
          if (!sig)
            continue;
          add_cols (sys, pairs, sc->state0 + (r - np), col);
          if (sc->vpos[r - np] >= 0)
            for (guint X = 0; X < np; X++)
              {
                int nn = sc->port_node[X];
                if (nn >= 0 && !sys->nodes[nn].boundary)
                  add_cols (sys, pairs, sys->nodes[nn].state, col);
              }
        }
    }
}

/* ---------- variables ---------- */

void
hyd_sys_domains_variables (HydSystem *sys)
{
  /* state_names exist: build_variables made them first */
  for (guint k = 0; k < sys->n_mnodes; k++)
    {
      const SysMechNode *mn = &sys->mnodes[k];
      if (mn->state < 0)
        continue;
      for (guint s = 0; s < 2; s++)
        hyd_sys_add_var (sys, g_strdup (sys->state_names[mn->state + s]), sys->state_units[mn->state + s],
                         VAR_STATE, mn->state + (int) s, 0);
    }
  for (guint o = 0; o < sys->n_sig_order; o++)
    {
      guint i = sys->sig_order[o];
      const HydComp *c = sys->comps[i].comp;
      for (guint X = 0; X < c->type->n_ports; X++)
        if (sys->comps[i].port_signal[X] >= 0 && c->type->ports[X].direction == HYD_PORT_OUTPUT)
          hyd_sys_add_var (sys, g_strconcat (c->id, ".", c->type->ports[X].name, NULL), HYD_UNIT_NONE,
                           VAR_SIGNAL, sys->comps[i].port_signal[X], 0);
    }
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const HydComp *c = sys->comps[i].comp;
      for (guint k = 0; k < c->n_dstates; k++)
        hyd_sys_add_var (sys, g_strconcat (c->id, ".", c->dstates[k].name, NULL), HYD_UNIT_NONE,
                         VAR_DSTATE, (int) i, (int) k);
    }
}

void
hyd_sys_domains_free (HydSystem *sys)
{
  for (guint k = 0; k < sys->n_mnodes; k++)
    g_array_unref (sys->mnodes[k].ports);
  g_free (sys->mnodes);
  for (guint k = 0; k < sys->n_signals; k++)
    {
      g_array_unref (sys->signals[k].ports);
      g_free (sys->signals[k].cols);
      g_free (sys->signals[k].vals);
    }
  g_free (sys->signals);
  g_free (sys->sig_order);
  hyd_sys_electrical_free (sys);
}
