/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-system-electrical.c — the electrical control network
 * (docs/electrical.md): nets of electrical ports, solved as paths from
 * +24 V to 0 V through closed contacts at every round of the discrete
 * states' fixed-point iteration; the references' taps resolved after the
 * components' setup. */
#include "hyd-system-private.h"

static gboolean
type_is_electrical (const HydComponentType *t)
{
  return t->n_elec_paths > 0 || t->n_elec_loads > 0
         || (t->roles & (HYD_ROLE_ELEC_SUPPLY | HYD_ROLE_ELEC_GROUND));
}

gboolean
hyd_sys_build_electrical (HydSystem *sys, const int *port_enet, guint n_enets, GError **error)
{
  (void) error;
  if (n_enets == 0)
    return TRUE;
  sys->n_enets = n_enets;
  sys->port_enet = g_memdup2 (port_enet, sizeof (int) * (sys->n_ports_total + 1));
  sys->enet_parent = g_new (guint, n_enets + 1);
  sys->elec = g_new (guint, sys->n_comps + 1);
  sys->comp_port0 = g_new0 (guint, sys->n_comps + 1);
  for (guint q = sys->n_ports_total; q-- > 0;)
    sys->comp_port0[sys->port_comp[q]] = q;
  for (guint i = 0; i < sys->n_comps; i++)
    if (type_is_electrical (sys->comps[i].comp->type))
      sys->elec[sys->n_elec++] = i;
  return TRUE;
}

/* After setup: the variable each reference reads. */
gboolean
hyd_sys_resolve_taps (HydSystem *sys, GError **error)
{
  for (guint k = 0; k < sys->n_signals; k++)
    {
      SysSignal *net = &sys->signals[k];
      if (!net->tap)
        continue;
      const HydComp *target = sys->comps[net->tap_comp].comp;
      for (guint j = 0; j < target->n_states && net->tap_state < 0; j++)
        if (strcmp (target->states[j].name, net->tap_var) == 0)
          net->tap_state = (int) j;
      for (guint j = 0; j < target->n_dstates && net->tap_state < 0 && net->tap_dstate < 0; j++)
        if (strcmp (target->dstates[j].name, net->tap_var) == 0)
          net->tap_dstate = (int) j;
      if (net->tap_state < 0 && net->tap_dstate < 0)
        {
          const HydComp *reader = sys->comps[sys->port_comp[net->tap_reader]].comp;
          return hyd_sys_component_error (error, HYD_DIAGNOSTIC_REFERENCE, reader->id, NULL, net->tap_param,
                                          N_("component \"%s\", parameter \"%s\": \"%s\" has no "
                                             "variable \"%s\" (its type: %s)"),
                                          reader->id, net->tap_param, target->id, net->tap_var,
                                          target->type->label, NULL);
        }
    }
  return TRUE;
}

static guint
find (guint *parent, guint v)
{
  while (parent[v] != v)
    {
      parent[v] = parent[parent[v]];
      v = parent[v];
    }
  return v;
}

static int
comp_enet (const HydSystem *sys, guint ci, guint X)
{
  return sys->port_enet[sys->comp_port0[ci] + X];
}

/* The sets of nets joined by conducting paths and the level of each set:
 * bit 0 +24 V, bit 1 0 V. levels has n_enets entries (by root). */
static void
join_nets (HydSystem *sys, const double *const *d, guint8 *levels, gboolean all_closed)
{
  guint *parent = sys->enet_parent;
  for (guint k = 0; k < sys->n_enets; k++)
    {
      parent[k] = k;
      levels[k] = 0;
    }
  for (guint e = 0; e < sys->n_elec; e++)
    {
      guint ci = sys->elec[e];
      const HydComp *c = sys->comps[ci].comp;
      const HydComponentType *t = c->type;
      for (guint k = 0; k < t->n_elec_paths; k++)
        {
          if (!all_closed && !t->elec_conducts (c, d[ci], k))
            continue;
          int a = comp_enet (sys, ci, t->elec_paths[k].a), b = comp_enet (sys, ci, t->elec_paths[k].b);
          if (a >= 0 && b >= 0)
            parent[find (parent, (guint) a)] = find (parent, (guint) b);
        }
    }
  for (guint e = 0; e < sys->n_elec; e++)
    {
      guint ci = sys->elec[e];
      const HydComponentType *t = sys->comps[ci].comp->type;
      int n = comp_enet (sys, ci, 0);
      if (n < 0)
        continue;
      if (t->roles & HYD_ROLE_ELEC_SUPPLY)
        levels[find (parent, (guint) n)] |= 1;
      if (t->roles & HYD_ROLE_ELEC_GROUND)
        levels[find (parent, (guint) n)] |= 2;
    }
}

static gboolean
load_energised (HydSystem *sys, guint ci, const HydElecLoad *ld, const guint8 *levels)
{
  int a = comp_enet (sys, ci, ld->a), b = comp_enet (sys, ci, ld->b);
  if (a < 0 || b < 0)
    return FALSE;
  guint8 la = levels[find (sys->enet_parent, (guint) a)], lb = levels[find (sys->enet_parent, (guint) b)];
  return ((la & 1) && (lb & 2)) || ((la & 2) && (lb & 1));
}

/* One solution of the network with the discrete states as they are: the
 * loads' states written (*changed set when one changes); 2 on a short
 * circuit (sys->update_error says where). */
int
hyd_sys_elec_solve (HydSystem *sys, double t, gboolean *changed)
{
  g_autofree guint8 *levels = g_new (guint8, sys->n_enets + 1);
  g_autofree const double **d = g_new0 (const double *, sys->n_comps + 1);
  for (guint i = 0; i < sys->n_comps; i++)
    d[i] = sys->comps[i].d;
  join_nets (sys, d, levels, FALSE);
  for (guint k = 0; k < sys->n_enets; k++)
    if (find (sys->enet_parent, k) == k && levels[k] == 3)
      {
        /* +24 V meets 0 V: name the supply, the ground and the closed
         * contacts in the set */
        GString *who = g_string_new (NULL);
        for (guint e = 0; e < sys->n_elec; e++)
          {
            guint ci = sys->elec[e];
            const HydComp *c = sys->comps[ci].comp;
            const HydComponentType *tp = c->type;
            gboolean in = FALSE;
            for (guint X = 0; X < tp->n_ports && !in; X++)
              {
                int n = tp->ports[X].domain == HYD_DOMAIN_ELECTRICAL ? comp_enet (sys, ci, X) : -1;
                in = n >= 0 && find (sys->enet_parent, (guint) n) == k;
              }
            gboolean closed = FALSE;
            for (guint p = 0; p < tp->n_elec_paths && !closed; p++)
              closed = tp->elec_conducts (c, d[ci], p);
            if (in && (closed || (tp->roles & (HYD_ROLE_ELEC_SUPPLY | HYD_ROLE_ELEC_GROUND))))
              g_string_append_printf (who, "%s%s", who->len ? ", " : "", c->id);
          }
        g_free (sys->update_error);
        sys->update_error = g_strdup_printf ("short circuit at t = %.9g s: +24 V reaches 0 V directly "
                                             "through %s (a wire or closed contacts with no coil or "
                                             "lamp between them)", t, who->str);
        g_string_free (who, TRUE);
        return 2;
      }
  for (guint e = 0; e < sys->n_elec; e++)
    {
      guint ci = sys->elec[e];
      SysComp *sc = &sys->comps[ci];
      const HydComponentType *tp = sc->comp->type;
      for (guint k = 0; k < tp->n_elec_loads; k++)
        {
          const HydElecLoad *ld = &tp->elec_loads[k];
          double on = load_energised (sys, ci, ld, levels) ? 1.0 : 0.0;
          if (sc->d[ld->dstate] != on)
            {
              sc->d[ld->dstate] = on;
              *changed = TRUE;
            }
        }
    }
  return 0;
}

/* Warnings about a ladder that runs but cannot do what it shows: a coil or
 * lamp that no closing of contacts can energise (a terminal left open, both
 * on one rail), and a relay or solenoid no contact or valve refers to. */
/* An optional load left unwired (a counter's reset coil): not used, so
 * not dead. */
static gboolean
load_left_out (const HydComp *c, const HydElecLoad *ld)
{
  const HydPortInfo *ports = c->type->ports;
  return ports[ld->a].optional && ports[ld->b].optional && !hyd_comp_port_connected (c, ld->a)
         && !hyd_comp_port_connected (c, ld->b);
}

void
hyd_sys_elec_lint (HydSystem *sys)
{
  if (sys->n_elec == 0)
    return;
  g_autofree guint8 *levels = g_new (guint8, sys->n_enets + 1);
  join_nets (sys, NULL, levels, TRUE);
  g_autofree gboolean *tapped = g_new0 (gboolean, sys->n_comps + 1);
  for (guint k = 0; k < sys->n_signals; k++)
    if (sys->signals[k].tap)
      tapped[sys->signals[k].tap_comp] = TRUE;
  for (guint e = 0; e < sys->n_elec; e++)
    {
      guint ci = sys->elec[e];
      const HydComp *c = sys->comps[ci].comp;
      const HydComponentType *tp = c->type;
      for (guint k = 0; k < tp->n_elec_loads; k++)
        if (!load_energised (sys, ci, &tp->elec_loads[k], levels) && !load_left_out (c, &tp->elec_loads[k]))
          {
            HydDiagnostic *dg = hyd_diagnostic_new (
                HYD_DIAGNOSTIC_ELEC_DEAD_LOAD, HYD_SEVERITY_WARNING,
                N_("%s can never be energised: even with every contact closed, its terminals %s and %s "
                   "do not reach +24 V and 0 V"),
                c->id, tp->ports[tp->elec_loads[k].a].name, tp->ports[tp->elec_loads[k].b].name, NULL);
            hyd_diagnostic_set_component (dg, c->id);
            hyd_sys_warn (sys, dg);
          }
      if (tp->n_elec_loads == 0 || tapped[ci])
        continue;
      /* a coil whose state something should read: a relay's contacts, a
       * solenoid's valve (a lamp only shines) */
      gboolean switches = FALSE;
      for (guint j = 0; j < c->n_dstates; j++)
        switches = switches || strcmp (c->dstates[j].name, "contacts") == 0
                   || strcmp (c->dstates[j].name, "energised") == 0;
      if (switches)
        {
          HydDiagnostic *dg = hyd_diagnostic_new (
              HYD_DIAGNOSTIC_ELEC_UNUSED_COIL, HYD_SEVERITY_WARNING,
              N_("%s switches nothing: no contact or valve refers to it"), c->id, NULL);
          hyd_diagnostic_set_component (dg, c->id);
          hyd_sys_warn (sys, dg);
        }
    }
}

void
hyd_sys_electrical_free (HydSystem *sys)
{
  g_free (sys->port_enet);
  g_free (sys->enet_parent);
  g_free (sys->elec);
  g_free (sys->comp_port0);
  g_free (sys->update_error);
}

/* ---------- public: what the GUI draws ---------- */

guint
hyd_system_get_n_elec_nets (const HydSystem *sys)
{
  return sys->n_enets;
}

int
hyd_system_get_elec_net (const HydSystem *sys, const char *component, const char *port)
{
  for (guint i = 0; i < sys->n_comps && sys->port_enet; i++)
    {
      const HydComp *c = sys->comps[i].comp;
      if (strcmp (c->id, component) != 0)
        continue;
      int X = hyd_component_type_find_port (c->type, port);
      return X < 0 ? -1 : comp_enet (sys, i, (guint) X);
    }
  return -1;
}

/* The level of every net with the given discrete states (all of them, in
 * the order of hyd_system_get_discrete): bit 0 joined to +24 V, bit 1 to
 * 0 V, bit 2 carries current. A net carries current when it lies on a
 * path from a supply through conducting contacts and energised loads to a
 * ground: the graph whose vertices are the nets and whose edges are the
 * conducting paths and the energised loads, pruned of dead ends (a net that
 * is no supply or ground with one edge or none: a wire to an open contact),
 * keeps exactly those of a ladder (series and parallel contacts). Uses the
 * compiled structure and the scratch union-find: call it from the thread
 * that owns the system. */
void
hyd_system_get_elec_levels (HydSystem *sys, const double *dstates, guint8 *levels)
{
  guint ne = sys->n_enets;
  if (ne == 0)
    return;
  g_autofree const double **d = g_new0 (const double *, sys->n_comps + 1);
  for (guint i = 0, k = 0; i < sys->n_comps; i++)
    {
      d[i] = dstates + k;
      k += sys->comps[i].comp->n_dstates;
    }
  g_autofree guint8 *root = g_new (guint8, ne + 1);
  join_nets (sys, d, root, FALSE);
  for (guint k = 0; k < ne; k++)
    levels[k] = root[find (sys->enet_parent, k)];

  /* edges of the graph of nets */
  GArray *ea = g_array_new (FALSE, FALSE, sizeof (guint)), *eb = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree gboolean *terminal = g_new0 (gboolean, ne + 1);
  for (guint e = 0; e < sys->n_elec; e++)
    {
      guint ci = sys->elec[e];
      const HydComp *c = sys->comps[ci].comp;
      const HydComponentType *tp = c->type;
      if (tp->roles & (HYD_ROLE_ELEC_SUPPLY | HYD_ROLE_ELEC_GROUND))
        {
          int n = comp_enet (sys, ci, 0);
          if (n >= 0)
            terminal[n] = TRUE;
        }
      for (guint k = 0; k < tp->n_elec_paths + tp->n_elec_loads; k++)
        {
          guint pa, pb;
          if (k < tp->n_elec_paths)
            {
              if (!tp->elec_conducts (c, d[ci], k))
                continue;
              pa = tp->elec_paths[k].a;
              pb = tp->elec_paths[k].b;
            }
          else
            {
              const HydElecLoad *ld = &tp->elec_loads[k - tp->n_elec_paths];
              if (!load_energised (sys, ci, ld, root))
                continue;
              pa = ld->a;
              pb = ld->b;
            }
          int a = comp_enet (sys, ci, pa), b = comp_enet (sys, ci, pb);
          if (a < 0 || b < 0 || a == b)
            continue;
          guint ua = (guint) a, ub = (guint) b;
          g_array_append_val (ea, ua);
          g_array_append_val (eb, ub);
        }
    }
  g_autofree guint *degree = g_new0 (guint, ne + 1);
  g_autofree gboolean *gone = g_new0 (gboolean, ne + 1);
  g_autofree gboolean *edge_gone = g_new0 (gboolean, ea->len + 1);
  for (guint j = 0; j < ea->len; j++)
    {
      degree[g_array_index (ea, guint, j)]++;
      degree[g_array_index (eb, guint, j)]++;
    }
  /* prune dead ends until none is left (each pass removes at least one
   * vertex or stops) */
  for (gboolean pruned = TRUE; pruned;)
    {
      pruned = FALSE;
      for (guint k = 0; k < ne; k++)
        {
          if (gone[k] || terminal[k] || degree[k] > 1)
            continue;
          gone[k] = TRUE;
          pruned = TRUE;
          for (guint j = 0; j < ea->len; j++)
            {
              guint a = g_array_index (ea, guint, j), b = g_array_index (eb, guint, j);
              if (edge_gone[j] || (a != k && b != k))
                continue;
              edge_gone[j] = TRUE;
              degree[a]--;
              degree[b]--;
            }
        }
    }
  for (guint k = 0; k < ne; k++)
    if (!gone[k] && degree[k] > 0 && (levels[k] & 3) != 0 && (levels[k] & 3) != 3)
      levels[k] |= 4;
  g_array_unref (ea);
  g_array_unref (eb);
}
