/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-system-lint.c — warnings about a compiled circuit that runs but
 * probably not as meant (no relief path, a relief valve used beyond its
 * rating, a cylinder that can pull a vacuum without make-up). */
#include "hyd-system-private.h"

const HydProfile *
hyd_sys_boundary_profile (const SysComp *sc)
{
  int k = sc->comp->type->boundary_param;
  return k >= 0 ? sc->prof[k] : NULL;
}

/* What a component is to the lint's search for a flow path. */
typedef enum {
  REACH_BLOCKS,   /* the search does not pass it */
  REACH_PASSES,   /* flow passes it to its other ports' nodes */
  REACH_FOUND,    /* what the search looks for */
} ReachVerdict;

typedef ReachVerdict (*ReachJudge) (const HydComponentType *type);

/* Breadth-first over the nodes from start, through the components judge lets
 * pass (never through component skip); TRUE when it meets one judged FOUND,
 * or a boundary node when boundary_found. */
static gboolean
reaches (HydSystem *sys, int start, int skip, ReachJudge judge, gboolean boundary_found)
{
  g_autofree gboolean *seen = g_new0 (gboolean, sys->n_nodes);
  GQueue queue = G_QUEUE_INIT;
  g_queue_push_tail (&queue, GINT_TO_POINTER (start));
  seen[start] = TRUE;
  gboolean found = FALSE;
  while (!g_queue_is_empty (&queue) && !found)
    {
      int nd = GPOINTER_TO_INT (g_queue_pop_head (&queue));
      if (boundary_found && sys->nodes[nd].boundary)
        found = TRUE;
      for (guint j = 0; j < sys->n_comps && !found; j++)
        {
          SysComp *sc = &sys->comps[j];
          guint np = sc->comp->type->n_ports;
          gboolean touches = FALSE;
          for (guint X = 0; X < np; X++)
            touches = touches || sc->port_node[X] == nd;
          if (!touches || (int) j == skip)
            continue;
          ReachVerdict v = judge (sc->comp->type);
          if (v == REACH_FOUND)
            found = TRUE;
          if (v != REACH_PASSES)
            continue;
          for (guint X = 0; X < np; X++)
            {
              int m = sc->port_node[X];
              if (m >= 0 && !seen[m])
                {
                  seen[m] = TRUE;
                  g_queue_push_tail (&queue, GINT_TO_POINTER (m));
                }
            }
        }
    }
  g_queue_clear (&queue);
  return found;
}

/* A pump's delivery: a pressure limiter (a relief valve, a pressure source,
 * an accumulator) limits it; flow passes everything with two or more ports
 * except chambers (a cylinder's are dead ends). */
static ReachVerdict
judge_relief_path (const HydComponentType *type)
{
  if (type->roles & HYD_ROLE_PRESSURE_LIMITER)
    return REACH_FOUND;
  return (type->roles & HYD_ROLE_CHAMBERS) ? REACH_BLOCKS : REACH_PASSES;
}

/* A cylinder chamber: conduits (lines, meters) only pass oil on; what
 * stores oil (volumes, gauges, accumulators, chambers) ends the search;
 * anything else can pass flow. */
static ReachVerdict
judge_flow_path (const HydComponentType *type)
{
  if (type->roles & HYD_ROLE_CONDUIT)
    return REACH_PASSES;
  if (type->roles & (HYD_ROLE_STORES_OIL | HYD_ROLE_CHAMBERS))
    return REACH_BLOCKS;
  return REACH_FOUND;
}

/* A parameter's largest magnitude over the run: its profile's range, or
 * its value. */
static double
param_max_abs (const SysComp *sc, const char *name)
{
  int k = name ? hyd_component_type_find_param (sc->comp->type, name) : -1;
  if (k < 0)
    return 0.0;
  if (sc->prof[k] != NULL)
    {
      double lo, hi;
      hyd_profile_get_range (sc->prof[k], &lo, &hi);
      return MAX (fabs (lo), fabs (hi));
    }
  return fabs (sc->comp->par[k]);
}

static double
param_value (const SysComp *sc, const char *name)
{
  int k = name ? hyd_component_type_find_param (sc->comp->type, name) : -1;
  return k >= 0 ? sc->comp->par[k] : NAN;
}

/* The nodes joined to node n by hoses (connections with friction, appended
 * after the circuit's components): one line for the lint, whose rules are
 * about what sits on a pump's or a tank's line (n itself included; the
 * caller frees the array). */
static gboolean *
hose_group (const HydSystem *sys, int n)
{
  gboolean *in = g_new0 (gboolean, sys->n_nodes + 1);
  if (n < 0)
    return in;
  in[n] = TRUE;
  for (gboolean grew = TRUE; grew;)
    {
      grew = FALSE;
      for (guint i = sys->n_comps; i-- > 0 && hyd_sys_comp_is_hose (sys->comps[i].comp);)
        {
          const int *pn = sys->comps[i].port_node;
          if (pn[0] >= 0 && pn[1] >= 0 && in[pn[0]] != in[pn[1]])
            {
              in[pn[0]] = in[pn[1]] = TRUE;
              grew = TRUE;
            }
        }
    }
  return in;
}

/* The tank whose boundary node n is, or NULL. */
static const HydComp *
node_tank (const HydSystem *sys, int n)
{
  if (n < 0 || !sys->nodes[n].boundary)
    return NULL;
  const GArray *ports = sys->nodes[n].ports;
  for (guint k = 0; k < ports->len; k++)
    {
      const HydComp *c = sys->comps[sys->port_comp[g_array_index (ports, guint, k)]].comp;
      if (c->type->roles & HYD_ROLE_TANK)
        return c;
    }
  return NULL;
}

/* A check valve fed from a tank (a make-up or anti-cavitation valve) has at
 * most p_tank − p_vapour (about 1 bar) across it: the B side cannot go lower.
 * If cracking + opening range exceeds that, it can never open fully and
 * the B side sits near the vapour pressure instead of near tank pressure. */
static void
lint_makeup_check_valve (HydSystem *sys, const SysComp *sc)
{
  const HydComp *tank = node_tank (sys, sc->port_node[0]);
  int tank_node = sc->port_node[0];
  /* the tank may be at the other end of a hose (looked for only in a
   * circuit with hoses: a scan of the nodes per check valve) */
  if (tank == NULL && sys->n_comps > 0 && hyd_sys_comp_is_hose (sys->comps[sys->n_comps - 1].comp))
    {
      g_autofree gboolean *line = hose_group (sys, sc->port_node[0]);
      for (guint b = 0; b < sys->n_nodes && tank == NULL; b++)
        if (line[b] && (tank = node_tank (sys, (int) b)) != NULL)
          tank_node = (int) b;
    }
  if (tank == NULL)
    return;
  const HydProfile *bp = sys->nodes[tank_node].bprof;
  double lo = 0.0, hi = 0.0;
  if (bp != NULL)
    hyd_profile_get_range (bp, &lo, &hi);
  double available = hi - sys->fluid.vapour_pressure;
  double crack = param_value (sc, sc->comp->type->cracking_param);
  double range = param_value (sc, sc->comp->type->opening_range_param);
  if (crack + range <= available)
    return;
  g_autofree char *need = g_strdup_printf ("%.3g", (crack + range) / 1e5);
  g_autofree char *crack_bar = g_strdup_printf ("%.3g", crack / 1e5);
  g_autofree char *range_bar = g_strdup_printf ("%.3g", range / 1e5);
  g_autofree char *avail_bar = g_strdup_printf ("%.3g", available / 1e5);
  HydDiagnostic *d = hyd_diagnostic_new (
      HYD_DIAGNOSTIC_MAKEUP_VALVE, HYD_SEVERITY_WARNING,
      N_("%s: this check valve takes oil from tank %s but can never open fully: it needs %s bar "
         "(cracking %s bar + opening range %s bar), and the tank can push at most %s bar before "
         "the %s.B side reaches the vapour pressure. As a make-up (anti-cavitation) valve use a "
         "low cracking pressure and opening range, e.g. 0.1 bar + 0.3 bar"),
      sc->comp->id, tank->id, need, crack_bar, range_bar, avail_bar, sc->comp->id, NULL);
  hyd_diagnostic_set_component (d, sc->comp->id);
  hyd_diagnostic_set_parameter (d, "cracking_pressure");
  hyd_sys_warn (sys, d);
}

/* The relief valves on a pump's (or flow source's) own line must pass all
 * its delivery when the circuit takes none (every valve closed, a cylinder
 * at its stop). */
static void
lint_relief_rating (HydSystem *sys, const SysComp *pump)
{
  const HydComponentType *type = pump->comp->type;
  gboolean source = (type->roles & HYD_ROLE_FLOW_SOURCE) != 0;
  if (type->delivery_params == NULL || type->delivery_port >= type->n_ports)
    return;
  int node = pump->port_node[type->delivery_port];
  if (node < 0)
    return;
  double q_pump = param_max_abs (pump, type->delivery_params[0]);
  for (guint k = 1; type->delivery_params[k] != NULL; k++)
    q_pump *= param_max_abs (pump, type->delivery_params[k]);
  double q_rated = 0.0;
  g_autoptr (GString) ids = g_string_new (NULL);
  /* a hose between the pump and its relief valve keeps it on the pump's line */
  g_autofree gboolean *line = hose_group (sys, node);
  for (guint j = 0; j < sys->n_comps; j++)
    {
      const SysComp *sc = &sys->comps[j];
      if (!(sc->comp->type->roles & HYD_ROLE_RELIEF_VALVE) || sc->port_node[0] < 0
          || !line[sc->port_node[0]])
        continue;
      q_rated += param_value (sc, sc->comp->type->rating_param);
      g_string_append_printf (ids, "%s%s", ids->len ? ", " : "", sc->comp->id);
    }
  if (ids->len == 0 || q_rated >= q_pump * (1.0 - 1e-6))
    return;
  g_autofree char *rated = g_strdup_printf ("%.3g", q_rated * 6e4);
  g_autofree char *delivered = g_strdup_printf ("%.3g", q_pump * 6e4);
  g_autofree char *times = g_strdup_printf ("%.2g", q_pump / q_rated);
  /* the first valve is the one named; the message lists them all */
  g_autofree char *first = g_strdup (ids->str);
  first[strcspn (first, ",")] = '\0';
  HydDiagnostic *d = hyd_diagnostic_new (
      HYD_DIAGNOSTIC_RELIEF_UNDERRATED, HYD_SEVERITY_WARNING,
      source ? N_("%s: the relief valve on the line of flow source %s is rated for %s L/min "
                  "(nominal_flow) but it delivers up to %s L/min; when the circuit takes no oil "
                  "the valve must pass all of it, %s times its rating. Raise nominal_flow to at "
                  "least %s L/min")
             : N_("%s: the relief valve on the line of pump %s is rated for %s L/min "
                  "(nominal_flow) but it delivers up to %s L/min; when the circuit takes no oil "
                  "the valve must pass all of it, %s times its rating. Raise nominal_flow to at "
                  "least %s L/min"),
      ids->str, pump->comp->id, rated, delivered, times, delivered, NULL);
  hyd_diagnostic_set_component (d, first);
  hyd_diagnostic_set_parameter (d, "nominal_flow");
  hyd_sys_warn (sys, d);
}

void
hyd_sys_lint (HydSystem *sys)
{
  hyd_sys_elec_lint (sys);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const HydComp *c = sys->comps[i].comp;
      guint roles = c->type->roles;
      /* a pump whose path closes builds pressure without limit */
      if (roles & HYD_ROLE_PUMP)
        {
          int start = sys->comps[i].port_node[c->type->delivery_port];
          if (start >= 0 && !reaches (sys, start, (int) i, judge_relief_path, FALSE))
            {
              HydDiagnostic *d = hyd_diagnostic_new (
                  HYD_DIAGNOSTIC_NO_RELIEF_PATH, HYD_SEVERITY_WARNING,
                  N_("%s: the pump has no relief path (no relief valve or accumulator reachable "
                     "from %s.P)"),
                  c->id, c->id, NULL);
              hyd_diagnostic_set_component (d, c->id);
              hyd_diagnostic_set_port (d, "P");
              hyd_sys_warn (sys, d);
            }
          lint_relief_rating (sys, &sys->comps[i]);
        }
      if (roles & HYD_ROLE_FLOW_SOURCE)
        lint_relief_rating (sys, &sys->comps[i]);
      if (roles & HYD_ROLE_MAKEUP_VALVE)
        lint_makeup_check_valve (sys, &sys->comps[i]);
      /* a chamber that reaches nothing that passes flow is locked in every
       * valve position */
      if (roles & HYD_ROLE_CHAMBERS)
        for (guint X = 0; X < c->type->n_ports; X++)
          {
            int start = sys->comps[i].port_node[X];
            if (start >= 0 && !reaches (sys, start, -1, judge_flow_path, TRUE))
              {
                HydDiagnostic *d = hyd_diagnostic_new (
                    HYD_DIAGNOSTIC_CHAMBER_LOCKED, HYD_SEVERITY_WARNING,
                    N_("%s.%s is blocked in every valve position: its node reaches no valve, "
                       "pump, orifice or tank, so that side of the piston is hydraulically "
                       "locked"),
                    c->id, c->type->ports[X].name, NULL);
                hyd_diagnostic_set_component (d, c->id);
                hyd_diagnostic_set_port (d, c->type->ports[X].name);
                hyd_sys_warn (sys, d);
              }
          }
    }
}

/* Run checks (hyd-run.c): a relief valve passing more than
 * HYD_RELIEF_OVERFLOW times its nominal flow is used far beyond its rating
 * (its opening is not limited above unless max_opening is set). */
GArray *
hyd_system_get_flow_limits (const HydSystem *sys)
{
  GArray *limits = g_array_new (FALSE, FALSE, sizeof (HydFlowLimit));
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const SysComp *sc = &sys->comps[i];
      if (!(sc->comp->type->roles & HYD_ROLE_RELIEF_VALVE))
        continue;
      g_autofree char *name = g_strconcat (sc->comp->id, ".q", NULL);
      HydFlowLimit l = {
        .var = hyd_system_find_variable (sys, name),
        .nominal = param_value (sc, sc->comp->type->rating_param),
        .component = sc->comp->id,
      };
      l.limit = HYD_RELIEF_OVERFLOW * l.nominal;
      if (l.var >= 0)
        g_array_append_val (limits, l);
    }
  return limits;
}

