/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-system-live.c — parameter changes while a run goes on. */
#include "hyd-system-private.h"

/* ---------- live parameter changes ---------- */

static int
find_comp_index (const HydSystem *sys, const char *id)
{
  for (guint i = 0; i < sys->n_comps; i++)
    if (strcmp (sys->comps[i].comp->id, id) == 0)
      return (int) i;
  return -1;
}

/* The parameter's index, or −1 with error set; *comp_index its component. */
static int
override_lookup (const HydSystem *sys, const char *comp_id, const char *name, double value,
                 int *comp_index, GError **error)
{
  int ci = find_comp_index (sys, comp_id);
  if (ci < 0)
    {
      hyd_sys_component_error (error, HYD_DIAGNOSTIC_REFERENCE, NULL, NULL, NULL,
                               N_("no component '%s' in the running circuit"), comp_id, NULL);
      return -1;
    }
  const HydComponentType *type = sys->comps[ci].comp->type;
  int k = hyd_component_type_find_param (type, name);
  if (k < 0)
    {
      hyd_sys_component_error (error, HYD_DIAGNOSTIC_UNKNOWN_PARAM, comp_id, NULL, NULL,
                               N_("%s (%s) has no parameter '%s'"), comp_id, type->id, name, NULL);
      return -1;
    }
  const HydParamInfo *info = &type->params[k];
  if (info->flags & (HYD_PARAM_ENUM | HYD_PARAM_INTEGER))
    {
      if (info->flags & HYD_PARAM_ENUM)
        hyd_sys_component_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, comp_id, NULL, name,
                                 N_("%s.%s: a choice shapes the model and cannot be changed during a run"),
                                 comp_id, name, NULL);
      else
        hyd_sys_component_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, comp_id, NULL, name,
                                 N_("%s.%s: a whole number shapes the model and cannot be changed "
                                    "during a run"),
                                 comp_id, name, NULL);
      return -1;
    }
  if (!isfinite (value))
    {
      g_autofree char *got = g_strdup_printf ("%g", value);
      hyd_sys_component_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, comp_id, NULL, name,
                               N_("%s.%s: %s is not a finite number"), comp_id, name, got, NULL);
      return -1;
    }
  *comp_index = ci;
  return k;
}

gboolean
hyd_system_check_override (const HydSystem *sys, const char *comp_id, const char *name,
                           double value, GError **error)
{
  int ci;
  g_return_val_if_fail (sys != NULL && comp_id != NULL && name != NULL, FALSE);
  return override_lookup (sys, comp_id, name, value, &ci, error) >= 0;
}

/* A slider's clamp: into [min, max], an exclusive bound to the nearest
 * number inside it. */
static double
clamp_to_param_range (const HydParamInfo *info, double v)
{
  if (v < info->min)
    v = info->min;
  if (v > info->max)
    v = info->max;
  if ((info->flags & HYD_PARAM_MIN_EXCLUSIVE) && v <= info->min)
    v = nextafter (info->min, INFINITY);
  if ((info->flags & HYD_PARAM_MAX_EXCLUSIVE) && v >= info->max)
    v = nextafter (info->max, -INFINITY);
  return v;
}

/* TRUE when set-up gave both instances the same states, outputs, pattern,
 * volume states, events and compliances: the compiled layout still holds. */
static gboolean
same_structure (const HydComp *a, const HydComp *b)
{
  if (a->n_states != b->n_states || a->n_outputs != b->n_outputs
      || a->n_vstates != b->n_vstates || a->nnz != b->nnz
      || a->n_events != b->n_events || a->dense_pattern != b->dense_pattern)
    return FALSE;
  for (guint s = 0; s < a->n_states; s++)
    if (a->states[s].unit != b->states[s].unit
        || g_strcmp0 (a->states[s].name, b->states[s].name) != 0)
      return FALSE;
  for (guint o = 0; o < a->n_outputs; o++)
    if (g_strcmp0 (a->outputs[o].name, b->outputs[o].name) != 0)
      return FALSE;
  if (a->n_vstates > 0 && memcmp (a->vstates, b->vstates, a->n_vstates * sizeof (guint)) != 0)
    return FALSE;
  if (a->nnz > 0
      && (memcmp (a->jrow, b->jrow, a->nnz * sizeof (guint)) != 0
          || memcmp (a->jcol, b->jcol, a->nnz * sizeof (guint)) != 0))
    return FALSE;
  for (guint X = 0; X < a->type->n_ports; X++)
    if (!a->own_compliance[X] != !b->own_compliance[X])
      return FALSE;
  return TRUE;
}

static int
compare_times (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The breakpoints of the profiles now in force, sorted and distinct. */
static void
collect_breakpoints_again (HydSystem *sys)
{
  GArray *bp = sys->breakpoints;
  g_array_set_size (bp, 0);
  for (guint i = 0; i < sys->n_comps; i++)
    for (guint k = 0; k < sys->comps[i].comp->type->n_params; k++)
      if (sys->comps[i].prof[k])
        hyd_profile_collect_breakpoints (sys->comps[i].prof[k], bp);
  g_array_sort (bp, compare_times);
  double *v = (double *) bp->data;
  guint w = 0;
  for (guint a = 0; a < bp->len; a++)
    if (w == 0 || v[a] != v[w - 1])
      v[w++] = v[a];
  g_array_set_size (bp, w);
}

gboolean
hyd_system_override_param (HydSystem *sys, double t, const char *comp_id, const char *name,
                           double value, double *old_value, double *new_value, GError **error)
{
  g_return_val_if_fail (sys != NULL && comp_id != NULL && name != NULL, FALSE);

  int ci = -1;
  int k = override_lookup (sys, comp_id, name, value, &ci, error);
  if (k < 0)
    return FALSE;
  SysComp *sc = &sys->comps[ci];
  HydComp *c = sc->comp;
  const HydComponentType *type = c->type;
  double v = clamp_to_param_range (&type->params[k], value);

  /* The type's cross-parameter rules and the model's structure, checked on
   * a scratch instance with the new value. */
  {
    HydComp *scratch = hyd_comp_new (type, c->id, c->fluid);
    gboolean ok = TRUE;
    memcpy (scratch->par, c->par, type->n_params * sizeof (double));
    scratch->connected = c->connected;
    scratch->par[k] = v;
    if (type->validate != NULL)
      ok = type->validate (scratch, error);
    if (ok)
      ok = type->setup (scratch, error);
    if (ok && scratch->nnz == 0 && hyd_comp_n_local (scratch) > 0)
      hyd_comp_use_dense_pattern (scratch);
    if (ok && !same_structure (c, scratch))
      {
        ok = FALSE;
        g_autofree char *got = g_strdup_printf ("%g", v);
        hyd_sys_component_error (error, HYD_DIAGNOSTIC_PARAM_VALUE, comp_id, NULL, name,
                                 N_("%s.%s: %s would change the component's model (its states or "
                                    "equations); it cannot be changed during a run"),
                                 comp_id, name, got, NULL);
      }
    hyd_comp_free (scratch);
    if (!ok)
      return FALSE;
  }

  /* A boundary pressure: its node must have no other boundary port. */
  if (k == type->boundary_param)
    for (guint X = 0; X < type->n_ports; X++)
      {
        if (sc->port_node[X] < 0)
          continue;
        const SysNode *nd = &sys->nodes[sc->port_node[X]];
        for (guint j = 0; nd->boundary && j < nd->ports->len; j++)
          {
            guint gp = g_array_index (nd->ports, guint, j);
            const SysComp *other = &sys->comps[sys->port_comp[gp]];
            if ((int) sys->port_comp[gp] != ci && other->comp->type->boundary_param >= 0)
              return hyd_sys_component_error (error, HYD_DIAGNOSTIC_SHORT_CIRCUIT, comp_id, NULL, name,
                                              N_("%s.%s: %s shares its node, so changing the "
                                                 "pressure would make a short circuit between %s "
                                                 "and %s"),
                                              comp_id, name, other->comp->id, comp_id,
                                              other->comp->id, NULL);
          }
      }

  double old = sc->prof[k] ? hyd_profile_eval (sc->prof[k], t, sys->t_piece, NULL) : c->par[k];
  if (sc->prof[k])
    {
      HydProfile *replaced = sc->prof[k];
      sc->prof[k] = hyd_profile_new_constant (v);
      for (guint b = 0; b < sys->n_nodes; b++)
        if (sys->nodes[b].bprof == replaced)
          sys->nodes[b].bprof = sc->prof[k];
      hyd_profile_free (replaced);
      sys->timed_valid = FALSE; /* hyd_sys_refresh_params: one profile fewer */
      collect_breakpoints_again (sys);
    }
  c->par[k] = v;
  c->par_dt[k] = 0.0;
  if (old_value)
    *old_value = old;
  if (new_value)
    *new_value = v;
  return TRUE;
}

