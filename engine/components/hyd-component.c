/* hyd-component.c — helpers shared by all component types. */
#include "hyd-component.h"
#include "hyd-i18n.h"

#include <string.h>

const char *
hyd_domain_name (HydDomain domain)
{
  switch (domain)
    {
    case HYD_DOMAIN_MECHANICAL: return N_("mechanical");
    case HYD_DOMAIN_SIGNAL: return N_("signal");
    case HYD_DOMAIN_HYDRAULIC:
    default: return N_("hydraulic");
    }
}

const char *
hyd_category_name (HydCategory category)
{
  switch (category)
    {
    case HYD_CATEGORY_SOURCES: return N_("sources");
    case HYD_CATEGORY_PUMPS: return N_("pumps");
    case HYD_CATEGORY_VALVES: return N_("valves");
    case HYD_CATEGORY_ACTUATORS: return N_("actuators");
    case HYD_CATEGORY_STORAGE: return N_("storage and lines");
    case HYD_CATEGORY_MEASUREMENT: return N_("measurement");
    default: return N_("other");
    }
}

static void
append_var (HydVarInfo **arr, guint *n, guint *cap, const char *name, HydUnit unit, const char *description)
{
  if (*n + 1 > *cap)
    {
      /* geometric growth: a distributed line adds 2·10⁵ states one by one */
      *cap = MAX (8, 2 * *cap);
      *arr = g_renew (HydVarInfo, *arr, *cap);
    }
  (*arr)[*n].name = g_intern_string (name);
  (*arr)[*n].unit = unit;
  (*arr)[*n].description = description ? g_intern_string (description) : NULL;
  (*n)++;
}

void
hyd_comp_set_states (HydComp *comp, guint n, const HydVarInfo *states)
{
  g_clear_pointer (&comp->states, g_free);
  comp->n_states = comp->states_cap = 0;
  for (guint i = 0; i < n; i++)
    append_var (&comp->states, &comp->n_states, &comp->states_cap, states[i].name, states[i].unit, states[i].description);
}

void
hyd_comp_add_state (HydComp *comp, const char *name, HydUnit unit, const char *description)
{
  append_var (&comp->states, &comp->n_states, &comp->states_cap, name, unit, description);
}

void
hyd_comp_set_outputs (HydComp *comp, guint n, const HydVarInfo *outputs)
{
  g_clear_pointer (&comp->outputs, g_free);
  comp->n_outputs = comp->outputs_cap = 0;
  for (guint i = 0; i < n; i++)
    append_var (&comp->outputs, &comp->n_outputs, &comp->outputs_cap, outputs[i].name, outputs[i].unit, outputs[i].description);
}

void
hyd_comp_add_output (HydComp *comp, const char *name, HydUnit unit, const char *description)
{
  append_var (&comp->outputs, &comp->n_outputs, &comp->outputs_cap, name, unit, description);
}

void
hyd_comp_add_event (HydComp *comp, const char *name, const char *description)
{
  append_var (&comp->events, &comp->n_events, &comp->events_cap, name, HYD_UNIT_NONE, description);
}

void
hyd_comp_set_vstates (HydComp *comp, guint n, const guint *vstates)
{
  g_free (comp->vstates);
  comp->vstates = g_memdup2 (vstates, n * sizeof (guint));
  comp->n_vstates = n;
}

void
hyd_comp_use_dense_pattern (HydComp *comp)
{
  guint nl = hyd_comp_n_local (comp);
  g_free (comp->jrow);
  g_free (comp->jcol);
  comp->nnz = nl * nl;
  comp->jrow = g_new (guint, comp->nnz);
  comp->jcol = g_new (guint, comp->nnz);
  for (guint r = 0; r < nl; r++)
    for (guint c = 0; c < nl; c++)
      {
        comp->jrow[r * nl + c] = r;
        comp->jcol[r * nl + c] = c;
      }
  comp->dense_pattern = TRUE;
}

void
hyd_comp_set_pattern (HydComp *comp, guint nnz, const guint *rows, const guint *cols)
{
  g_free (comp->jrow);
  g_free (comp->jcol);
  comp->nnz = nnz;
  comp->jrow = g_memdup2 (rows, nnz * sizeof (guint));
  comp->jcol = g_memdup2 (cols, nnz * sizeof (guint));
  comp->dense_pattern = FALSE;
}

int
hyd_component_type_find_param (const HydComponentType *type, const char *name)
{
  for (guint i = 0; i < type->n_params; i++)
    if (strcmp (type->params[i].name, name) == 0)
      return (int) i;
  return -1;
}

int
hyd_component_type_find_port (const HydComponentType *type, const char *name)
{
  for (guint i = 0; i < type->n_ports; i++)
    if (strcmp (type->ports[i].name, name) == 0)
      return (int) i;
  return -1;
}

HydComp *
hyd_comp_new (const HydComponentType *type, const char *id, const HydFluid *fluid)
{
  HydComp *comp = g_new0 (HydComp, 1);
  comp->type = type;
  comp->id = g_strdup (id);
  comp->fluid = fluid;
  comp->par = g_new0 (double, MAX (type->n_params, 1));
  comp->par_dt = g_new0 (double, MAX (type->n_params, 1));
  for (guint i = 0; i < type->n_params; i++)
    comp->par[i] = (type->params[i].flags & HYD_PARAM_OPTIONAL) ? NAN : type->params[i].def;
  comp->own_compliance = g_new0 (gboolean, MAX (type->n_ports, 1));
  return comp;
}

void
hyd_comp_free (HydComp *comp)
{
  if (comp == NULL)
    return;
  if (comp->priv && comp->type->free_priv)
    comp->type->free_priv (comp->priv);
  else
    g_free (comp->priv);
  g_free (comp->id);
  g_free (comp->par);
  g_free (comp->par_dt);
  g_free (comp->states);
  g_free (comp->outputs);
  g_free (comp->events);
  g_free (comp->vstates);
  g_free (comp->own_compliance);
  g_free (comp->jrow);
  g_free (comp->jcol);
  g_free (comp);
}
