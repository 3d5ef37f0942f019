/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-component.c — helpers shared by all component types. */
#include "hyd-component.h"
#include "hyd-i18n.h"

#include <string.h>

const char *
hyd_domain_name (HydDomain domain)
{
  switch (domain)
    {
    case HYD_DOMAIN_TRANSLATIONAL: return N_("translational");
    case HYD_DOMAIN_ROTATIONAL: return N_("rotational");
    case HYD_DOMAIN_SIGNAL: return N_("signal");
    case HYD_DOMAIN_ELECTRICAL: return N_("electrical");
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
    case HYD_CATEGORY_MECHANICS: return N_("mechanics");
    case HYD_CATEGORY_SIGNALS: return N_("signals");
    case HYD_CATEGORY_ELECTRICAL: return N_("electrical control");
    default: return N_("other");
    }
}

/* g_intern_string takes a global lock: the names of a type's states and
 * outputs come from its static tables, the same pointers for every
 * instance, so remember the last few (per thread) and check the text. */
static const char *
intern (const char *name)
{
  static __thread struct { const char *from, *interned; } cache[8];
  guint slot = (guint) (((guintptr) name >> 3) & 7);

  if (cache[slot].from == name && strcmp (cache[slot].interned, name) == 0)
    return cache[slot].interned;
  cache[slot].from = name;
  cache[slot].interned = g_intern_string (name);
  return cache[slot].interned;
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
  (*arr)[*n].name = intern (name);
  (*arr)[*n].unit = unit;
  (*arr)[*n].description = description ? intern (description) : NULL;
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
hyd_comp_add_discrete_state (HydComp *comp, const char *name, double initial, const char *description)
{
  guint cap = comp->dstates_cap;
  append_var (&comp->dstates, &comp->n_dstates, &comp->dstates_cap, name, HYD_UNIT_NONE, description);
  if (comp->dstates_cap != cap)
    comp->d0 = g_renew (double, comp->d0, comp->dstates_cap);
  comp->d0[comp->n_dstates - 1] = initial;
}

void
hyd_comp_set_vstates (HydComp *comp, guint n, const guint *vstates)
{
  g_free (comp->vstates);
  comp->vstates = g_memdup2 (vstates, n * sizeof (guint));
  comp->n_vstates = n;
}

/* The dense patterns of the small blocks almost every component has, made
 * once and shared (10^5 components would make 10^5 equal copies). */
#define SHARED_DENSE_MAX 16

typedef struct {
  gsize once;
  guint *rows, *cols;
} DensePattern;

static DensePattern dense_patterns[SHARED_DENSE_MAX + 1];

static void
fill_dense (guint nr, guint nl, guint *rows, guint *cols)
{
  for (guint r = 0; r < nr; r++)
    for (guint c = 0; c < nl; c++)
      {
        rows[r * nl + c] = r;
        cols[r * nl + c] = c;
      }
}

static void
clear_pattern (HydComp *comp)
{
  if (!comp->pattern_shared)
    {
      g_free (comp->jrow);
      g_free (comp->jcol);
    }
  comp->jrow = comp->jcol = NULL;
  comp->pattern_shared = FALSE;
}

void
hyd_comp_use_dense_pattern (HydComp *comp)
{
  /* rows: through values and state derivatives (np + ns); columns: every
   * local variable, positions too (nl ≥ np + ns) */
  guint nl = hyd_comp_n_local (comp), nr = comp->type->n_ports + comp->n_states;

  clear_pattern (comp);
  comp->nnz = nr * nl;
  comp->dense_pattern = TRUE;
  if (nl <= SHARED_DENSE_MAX && nr == nl)
    {
      DensePattern *d = &dense_patterns[nl];
      if (g_once_init_enter (&d->once))
        {
          /* made once for the life of the process, like the catalogue */
          d->rows = g_new (guint, nl * nl + 1);
          d->cols = g_new (guint, nl * nl + 1);
          fill_dense (nl, nl, d->rows, d->cols);
          g_once_init_leave (&d->once, 1);
        }
      comp->jrow = d->rows;
      comp->jcol = d->cols;
      comp->pattern_shared = TRUE;
      return;
    }
  comp->jrow = g_new (guint, comp->nnz + 1);
  comp->jcol = g_new (guint, comp->nnz + 1);
  fill_dense (nr, nl, comp->jrow, comp->jcol);
}

void
hyd_comp_set_pattern (HydComp *comp, guint nnz, const guint *rows, const guint *cols)
{
  clear_pattern (comp);
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
  /* one block: the instance, par, par_dt, own_compliance and the id */
  gsize np = MAX (type->n_params, 1), nports = MAX (type->n_ports, 1);
  gsize head = (sizeof (HydComp) + sizeof (double) - 1) / sizeof (double) * sizeof (double);
  gsize idlen = strlen (id) + 1;
  char *block = g_malloc0 (head + 2 * np * sizeof (double) + nports * sizeof (gboolean) + idlen);
  HydComp *comp = (HydComp *) block;
  comp->type = type;
  comp->fluid = fluid;
  comp->par = (double *) (block + head);
  comp->par_dt = comp->par + np;
  comp->own_compliance = (gboolean *) (comp->par_dt + np);
  comp->id = memcpy ((char *) (comp->own_compliance + nports), id, idlen);
  for (guint i = 0; i < type->n_params; i++)
    comp->par[i] = (type->params[i].flags & HYD_PARAM_OPTIONAL) ? NAN : type->params[i].def;
  for (guint X = 0; X < type->n_ports; X++)
    if (hyd_domain_is_mechanical (type->ports[X].domain))
      comp->n_pos = type->n_ports;
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
  g_free (comp->states);
  g_free (comp->outputs);
  g_free (comp->events);
  g_free (comp->dstates);
  g_free (comp->d0);
  g_free (comp->vstates);
  clear_pattern (comp);
  g_free (comp); /* par, par_dt, own_compliance and id with it */
}

HydOperation
hyd_component_type_get_operation (const HydComponentType *type, const double *values)
{
  int k = type->operation_param ? hyd_component_type_find_param (type, type->operation_param) : -1;
  if (k < 0)
    return HYD_OPERATION_NONE;
  const HydParamInfo *info = &type->params[k];
  double v = values ? values[k] : info->def;
  guint n = info->choices ? g_strv_length ((char **) info->choices) : 0;
  if (!(v >= 0 && v < n))
    return HYD_OPERATION_NONE;
  const char *choice = info->choices[(guint) v];
  if (strcmp (choice, "lever") == 0)
    return HYD_OPERATION_LEVER;
  if (strcmp (choice, "solenoid") == 0)
    return HYD_OPERATION_SOLENOID;
  /* a pushbutton valve, or a pushbutton switch (momentary or detent) */
  if (strcmp (choice, "pushbutton") == 0 || strcmp (choice, "momentary") == 0 || strcmp (choice, "detent") == 0)
    return HYD_OPERATION_PUSHBUTTON;
  if (strcmp (choice, "pedal") == 0)
    return HYD_OPERATION_PEDAL;
  return HYD_OPERATION_NONE;
}

gboolean
hyd_component_type_get_spring_return (const HydComponentType *type, const double *values)
{
  int k = type->return_param ? hyd_component_type_find_param (type, type->return_param) : -1;
  if (k < 0)
    return FALSE;
  const HydParamInfo *info = &type->params[k];
  double v = values ? values[k] : info->def;
  guint n = info->choices ? g_strv_length ((char **) info->choices) : 0;
  /* "momentary": a pushbutton switch that springs back */
  return v >= 0 && v < n
         && (strcmp (info->choices[(guint) v], "spring") == 0 || strcmp (info->choices[(guint) v], "momentary") == 0);
}
