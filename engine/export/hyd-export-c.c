/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-export-c.c — a compiled circuit as one C99 program (docs/export-c.md).
 *
 * The component laws are not written twice: the program carries the
 * engine's own source files of the types the circuit uses (embedded at
 * build time, hyd-export-bundle.h), GLib's few names given by
 * export-shim.h. What is generated here is the circuit: its states, its
 * parameters, its nodes, the component instances, and f and J as one call
 * per component, each named. export-runtime.c is the assembly (that of
 * hyd-system-eval.c and hyd-system-domains.c, step by step: nodes,
 * mechanical nodes, signal nets, discrete states), a dense LU, RODAS4 with
 * event location, and main. Electrical control and references are
 * refused with the component named. */
#include "hyd-export-c.h"
#include "hyd-export-bundle.h"
#include "hyd-system-private.h"
#include "hyd-profile.h"

#include <json-glib/json-glib.h>
#include <string.h>

/* the hand-written parts, embedded by gen-bundle.py with the engine's files */
#define SHIM_PATH "engine/export/export-shim.h"
#define RUNTIME_H_PATH "engine/export/export-runtime.h"
#define RUNTIME_C_PATH "engine/export/export-runtime.c"
static const char *const header_paths[] = {
  "engine/core/hyd-units.h", "engine/core/hyd-smooth.h", "engine/core/hyd-fluid.h",
  "engine/components/hyd-component.h", "engine/components/hyd-comp-electrical.h",
  "engine/core/hyd-profile.h:HydProfileKind,HydProfile",
  "engine/core/hyd-profile.c:_HydProfile,count_le,eval_points,hyd_profile_eval",
  "engine/compile/hyd-system-private.h:HydSysHose",
};
static const char *const core_paths[] = {
  "engine/core/hyd-smooth.c", "engine/core/hyd-fluid.c", "engine/components/hyd-component.c",
};

static const HydExportFile *
find_file (const char *path)
{
  for (const HydExportFile *f = hyd_export_files; f->path; f++)
    if (strcmp (f->path, path) == 0)
      return f;
  return NULL;
}

static const HydExportTypeFile *
find_type (const char *type_id)
{
  for (const HydExportTypeFile *t = hyd_export_type_files; t->type_id; t++)
    if (strcmp (t->type_id, type_id) == 0)
      return t;
  return NULL;
}

static const char *
type_file (const char *type_id)
{
  const HydExportTypeFile *t = find_type (type_id);
  return t ? t->path : NULL;
}

/* others (or NULL): the files that go into the program with this one, whose
 * file-scope names this one's must not clash with (each was a translation
 * unit of its own in the engine): a name two of them declare is renamed in
 * this one by a macro around it, and its macros end with it. */
static void
append_file_among (GString *out, const char *path, GPtrArray *others)
{
  const HydExportFile *f = find_file (path);
  g_assert (f != NULL);
  g_autofree char *slug = g_path_get_basename (path);
  for (char *p = slug; *p; p++)
    if (!g_ascii_isalnum (*p))
      *p = '_';
  GPtrArray *renamed = g_ptr_array_new ();
  for (guint k = 0; others && k < others->len; k++)
    {
      const HydExportFile *o = find_file (others->pdata[k]);
      if (o == f)
        continue;
      for (const char *const *a = f->names; *a; a++)
        for (const char *const *b = o->names; *b; b++)
          if (strcmp (*a, *b) == 0)
            {
              gboolean seen = FALSE;
              for (guint j = 0; j < renamed->len; j++)
                seen |= strcmp (renamed->pdata[j], *a) == 0;
              if (!seen)
                g_ptr_array_add (renamed, (gpointer) *a);
            }
    }
  g_string_append_printf (out, "\n/* ======== %s (Bramah's engine, verbatim but for its #includes) ======== */\n\n",
                          path);
  if (renamed->len)
    g_string_append (out, "/* names another file of this program declares too, kept apart */\n");
  for (guint j = 0; j < renamed->len; j++)
    g_string_append_printf (out, "#define %s %s__%s\n", (char *) renamed->pdata[j], (char *) renamed->pdata[j], slug);
  if (renamed->len)
    g_string_append_c (out, '\n');
  for (const char *const *l = f->lines; *l; l++)
    {
      g_string_append (out, *l);
      g_string_append_c (out, '\n');
    }
  if (others)
    {
      for (guint j = 0; j < renamed->len; j++)
        g_string_append_printf (out, "#undef %s\n", (char *) renamed->pdata[j]);
      for (const char *const *m = f->macros; *m; m++)
        g_string_append_printf (out, "#undef %s\n", *m);
    }
  g_ptr_array_free (renamed, TRUE);
}

static void
append_file (GString *out, const char *path)
{
  append_file_among (out, path, NULL);
}

/* Adds path and the files it needs (first) to `files`, each once. */
static void
add_with_deps (GPtrArray *files, const char *path)
{
  for (guint k = 0; k < files->len; k++)
    if (strcmp (files->pdata[k], path) == 0)
      return;
  const HydExportFile *f = find_file (path);
  g_assert (f != NULL);
  g_ptr_array_add (files, (gpointer) path);
  for (const char *const *d = f->deps; *d; d++)
    {
      gboolean core = FALSE;
      for (guint k = 0; k < G_N_ELEMENTS (core_paths); k++)
        core |= strcmp (*d, core_paths[k]) == 0;
      if (!core && g_str_has_prefix (*d, "engine/components/hyd-comp-") && g_str_has_suffix (*d, ".c"))
        add_with_deps (files, *d);
    }
}

/* A C identifier from a name: letters, digits and '_'; others become '_'. */
static char *
c_ident (const char *prefix, const char *name)
{
  GString *s = g_string_new (prefix);
  for (const char *p = name; *p; p++)
    g_string_append_c (s, g_ascii_isalnum (*p) ? *p : '_');
  return g_string_free (s, FALSE);
}

/* Text for a C comment: no "*" "/" pair, no control characters. */
static char *
comment_text (const char *s)
{
  GString *o = g_string_new (NULL);
  for (const char *p = s ? s : ""; *p; p++)
    {
      if (p[0] == '*' && p[1] == '/')
        g_string_append (o, "* ");
      else if ((guchar) *p < 0x20 || *p == 0x7f)
        g_string_append_c (o, ' ');
      else
        g_string_append_c (o, *p);
    }
  return g_string_free (o, FALSE);
}

/* A C string literal's body (ASCII; other bytes as octal escapes). */
static char *
c_string (const char *s)
{
  GString *o = g_string_new (NULL);
  for (const guchar *p = (const guchar *) s; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (o, "\\%c", *p);
      else if (*p < 0x20 || *p >= 0x7f || *p == '?')
        g_string_append_printf (o, "\\%03o", *p);
      else
        g_string_append_c (o, (char) *p);
    }
  return g_string_free (o, FALSE);
}

static void
append_double (GString *out, double v)
{
  if (isnan (v))
    g_string_append (out, "NAN");
  else if (isinf (v))
    g_string_append (out, v > 0 ? "INFINITY" : "-INFINITY");
  else
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.17g", v));
    }
}

static gboolean
refuse (GError **error, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static gboolean
refuse (GError **error, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error_literal (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_SIMULATION, msg);
  g_free (msg);
  return FALSE;
}

/* What export-c supports (docs/export-c.md, "What exports"). */
static gboolean
check_exportable (HydSystem *sys, GError **error)
{
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const SysComp *sc = &sys->comps[i];
      const HydComp *c = sc->comp;
      const HydComponentType *type = c->type;
      if (type_file (type->id) == NULL)
        return refuse (error, "export-c: component %s (%s): its model is not among the exported sources",
                       c->id, type->id);
      gboolean electrical = type->n_elec_paths > 0 || type->n_elec_loads > 0;
      for (guint X = 0; X < type->n_ports; X++)
        electrical |= type->ports[X].domain == HYD_DOMAIN_ELECTRICAL;
      if (electrical)
        return refuse (error, "export-c: component %s (%s) is part of electrical control; export-c "
                       "writes no current paths", c->id, type->id);
    }
  for (guint k = 0; k < sys->n_signals; k++)
    if (sys->signals[k].tap)
      return refuse (error, "export-c: component %s: its reference %s reads a variable of another "
                     "component; export-c writes no references",
                     sys->comps[sys->port_comp[sys->signals[k].tap_reader]].comp->id,
                     sys->signals[k].tap_param);
  if (sys->n_elec > 0)
    return refuse (error, "export-c: the circuit has electrical control; export-c writes no current paths");
  return TRUE;
}

static void
append_doubles (GString *out, JsonArray *a)
{
  for (guint k = 0; k < json_array_get_length (a); k++)
    {
      g_string_append (out, k ? ", " : " ");
      append_double (out, json_array_get_double_element (a, k));
    }
}

/* A profile as a static HydProfile named sym (its data from the profile's
 * JSON form, which holds every number exactly). */
static void
append_profile (GString *out, const char *sym, const HydProfile *prof, const char *what)
{
  g_autoptr (JsonNode) node = hyd_profile_to_json (prof);
  g_autofree char *wc = comment_text (what);
  HydProfileKind kind = hyd_profile_get_kind (prof);
  if (kind == HYD_PROFILE_CONSTANT)
    {
      g_string_append_printf (out, "static const HydProfile %s = { .kind = HYD_PROFILE_CONSTANT, .value = ", sym);
      append_double (out, json_node_get_double (node));
      g_string_append_printf (out, " }; /* %s */\n", wc);
      return;
    }
  JsonObject *outer = json_node_get_object (node);
  g_autoptr (GList) members = json_object_get_members (outer);
  const char *kname = members->data;
  JsonObject *body = json_object_get_object_member (outer, kname);
  g_string_append_printf (out, "/* %s: a %s profile */\n", wc, kname);
  if (kind == HYD_PROFILE_STEP)
    {
      JsonArray *times = json_object_get_array_member (body, "times");
      JsonArray *values = json_object_get_array_member (body, "values");
      g_string_append_printf (out, "static double %s_times[] = {", sym);
      append_doubles (out, times);
      g_string_append_printf (out, " };\nstatic double %s_values[] = {", sym);
      append_doubles (out, values);
      g_string_append_printf (out, " };\nstatic const HydProfile %s = { .kind = HYD_PROFILE_STEP, .n = %u, "
                              ".times = %s_times, .values = %s_values };\n", sym,
                              json_array_get_length (times), sym, sym);
    }
  else if (kind == HYD_PROFILE_RAMP || kind == HYD_PROFILE_TABLE)
    {
      JsonArray *points = json_object_get_array_member (body, "points");
      guint np = json_array_get_length (points);
      g_string_append_printf (out, "static double %s_times[] = {", sym);
      for (guint k = 0; k < np; k++)
        {
          g_string_append (out, k ? ", " : " ");
          append_double (out, json_array_get_double_element (json_array_get_array_element (points, k), 0));
        }
      g_string_append_printf (out, " };\nstatic double %s_values[] = {", sym);
      for (guint k = 0; k < np; k++)
        {
          g_string_append (out, k ? ", " : " ");
          append_double (out, json_array_get_double_element (json_array_get_array_element (points, k), 1));
        }
      g_string_append_printf (out, " };\nstatic const HydProfile %s = { .kind = %s, .n = %u, "
                              ".times = %s_times, .values = %s_values };\n", sym,
                              kind == HYD_PROFILE_RAMP ? "HYD_PROFILE_RAMP" : "HYD_PROFILE_TABLE", np, sym, sym);
    }
  else
    {
      g_string_append_printf (out, "static const HydProfile %s = { .kind = HYD_PROFILE_SINE, .offset = ", sym);
      append_double (out, json_object_get_double_member (body, "offset"));
      g_string_append (out, ", .amplitude = ");
      append_double (out, json_object_get_double_member (body, "amplitude"));
      g_string_append (out, ", .frequency = ");
      append_double (out, json_object_get_double_member (body, "frequency"));
      g_string_append (out, ", .phase = ");
      append_double (out, json_object_get_double_member (body, "phase"));
      g_string_append (out, " };\n");
    }
}

const char *
hyd_export_c_type_source (const char *type_id)
{
  return type_file (type_id);
}

char *
hyd_export_c_all_models (void)
{
  GString *out = g_string_new (NULL);
  append_file (out, SHIM_PATH);
  for (guint k = 0; k < G_N_ELEMENTS (header_paths); k++)
    append_file (out, header_paths[k]);
  g_autoptr (GPtrArray) all = g_ptr_array_new ();
  for (guint k = 0; k < G_N_ELEMENTS (core_paths); k++)
    g_ptr_array_add (all, (gpointer) core_paths[k]);
  for (const HydExportTypeFile *t = hyd_export_type_files; t->type_id; t++)
    add_with_deps (all, t->path);
  for (guint k = 0; k < all->len; k++)
    append_file_among (out, all->pdata[k], all);
  return g_string_free (out, FALSE);
}

char *
hyd_export_c (HydSystem *sys, const HydCircuit *circuit, const HydSimOptions *sim,
              const char *source, GError **error)
{
  if (!check_exportable (sys, error))
    return NULL;
  guint n = sys->n;
  g_autoptr (GArray) defvars = hyd_system_get_default_variables (sys);
  guint n_free_nodes = 0, n_bnodes = 0;
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      if (sys->nodes[b].boundary)
        n_bnodes++;
      else
        n_free_nodes++;
    }
  (void) n_free_nodes;

  /* the files of the model code: the types used and what they need */
  g_autoptr (GPtrArray) files = g_ptr_array_new ();
  for (guint i = 0; i < sys->n_comps; i++)
    add_with_deps (files, type_file (sys->comps[i].comp->type->id));

  GString *out = g_string_new (NULL);
  g_autofree char *src = comment_text (source);
  g_autofree char *title = comment_text (circuit->title ? circuit->title : "");
  g_string_append_printf (out,
    "/* %s — exported by `bramah-cli export-c` from %s.\n"
    " *\n"
    " * The circuit as a self-contained C99 program: its states and parameters,\n"
    " * f(t, y), the analytic Jacobian ∂f/∂y and ∂f/∂t, and RODAS4 (Hairer &\n"
    " * Wanner 1996) to run it from t = 0 to its end time. The laws of its\n"
    " * components are Bramah's own model code, copied at the end of this file.\n"
    " *\n"
    " *   build:  cc -O2 -std=c99 -o PROGRAM THIS.c -lm\n"
    " *   run:    ./PROGRAM > run.csv        (the columns of `bramah-cli simulate`)\n"
    " *           ./PROGRAM --rtol 1e-8      (a tighter tolerance)\n"
    " *           ./PROGRAM --eval < points  (f, J and ∂f/∂t at \"t y...\" lines)\n"
    " *\n"
    " * Bramah is free software (GPL-3.0-or-later); so is this file, which\n"
    " * contains parts of it. */\n\n",
    *title ? title : "Circuit", src);

  g_string_append (out, "/* ================================================================\n"
                        " * Declarations: GLib's few names, the engine's headers\n"
                        " * ================================================================ */\n");
  append_file (out, SHIM_PATH);
  for (guint k = 0; k < G_N_ELEMENTS (header_paths); k++)
    append_file (out, header_paths[k]);
  append_file (out, RUNTIME_H_PATH);

  g_string_append (out, "\n/* ================================================================\n"
                        " * The circuit\n"
                        " * ================================================================ */\n\n");
  double atol[n + 1];
  hyd_system_get_atol (sys, sim, atol);
  g_string_append_printf (out, "#define N_STATES %u\n#define N_NODES %u\n#define N_BOUNDARY %u\n"
                               "#define N_COMPS %u\n#define N_OUTPUTS %u\n#define N_MNODES %u\n",
                          n, sys->n_nodes, n_bnodes, sys->n_comps, defvars->len, sys->n_mnodes);
  g_string_append (out, "#define T_END ");
  append_double (out, sim->t_end);
  g_string_append (out, "           /* s, the run's end time */\n#define OUTPUT_INTERVAL ");
  append_double (out, sim->output_interval);
  g_string_append (out, " /* s, between CSV rows */\n#define MAX_STEP ");
  append_double (out, sim->max_step);
  g_string_append (out, "        /* s, the longest step */\n#define RTOL ");
  append_double (out, sim->rtol);
  g_string_append (out, "            /* relative tolerance */\n");
  guint n_events = hyd_system_get_n_events (sys);
  g_string_append_printf (out, "#define N_EVENTS %u        /* the components' zero-crossing functions */\n"
                               "#define USE_EVENTS %d      /* simulation.events: locate them, restart there */\n",
                          n_events, (sim->events || sys->n_dstates > 0) && n_events > 0);
  g_string_append_printf (out, "#define N_DSTATES %u       /* discrete states, switched at events */\n\n",
                          sys->n_dstates);

  /* states */
  g_string_append (out, "/* The states y[i]: node pressures (the pseudo-pressure ψ of a node under a\n"
                        " * cavitating fluid), then the components' own states, in file order. */\n"
                        "enum {\n");
  g_autoptr (GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = c_ident ("S_", hyd_system_get_state_name (sys, i));
      while (g_hash_table_contains (used, id))
        {
          char *more = g_strdup_printf ("%s_%u", id, i);
          g_free (id);
          id = more;
        }
      g_hash_table_add (used, g_strdup (id));
      g_autofree char *what = comment_text (hyd_system_describe_state (sys, i));
      g_string_append_printf (out, "  %s = %u, /* %s, %s */\n", id, i, what,
                              *hyd_unit_symbol (hyd_system_get_state_unit (sys, i))
                                ? hyd_unit_symbol (hyd_system_get_state_unit (sys, i)) : "1");
    }
  g_string_append (out, "};\n\nstatic const double Y0[N_STATES] = { /* at t = 0 */\n");
  const double *y0 = hyd_system_get_initial_state (sys);
  for (guint i = 0; i < n; i++)
    {
      g_string_append (out, "  ");
      append_double (out, y0[i]);
      g_string_append (out, ",\n");
    }
  g_string_append (out, "};\n\nstatic const double ATOL[N_STATES] = { /* absolute tolerances, per state */\n");
  for (guint i = 0; i < n; i++)
    {
      g_string_append (out, "  ");
      append_double (out, atol[i]);
      g_string_append (out, ",\n");
    }
  g_string_append (out, "};\n\n");

  /* fluid */
  const HydFluid *fl = &sys->fluid;
  static const char *const models[] = { "HYD_BULK_CONSTANT", "HYD_BULK_TAIT", "HYD_BULK_AIR",
                                        "HYD_BULK_CAVITATING" };
  g_string_append (out, "/* The fluid */\nstatic const HydFluid bx_fluid = {\n  .density = ");
  append_double (out, fl->density);
  g_string_append (out, ", /* kg/m³ */\n  .kinematic_viscosity = ");
  append_double (out, fl->kinematic_viscosity);
  g_string_append (out, ", /* m²/s */\n  .bulk_modulus = ");
  append_double (out, fl->bulk_modulus);
  g_string_append_printf (out, ", /* Pa */\n  .bulk_model = %s,\n  .tait_a = ",
                          (guint) fl->bulk_model < G_N_ELEMENTS (models) ? models[fl->bulk_model]
                                                                         : "HYD_BULK_CONSTANT");
  append_double (out, fl->tait_a);
  g_string_append (out, ",\n  .air_fraction = ");
  append_double (out, fl->air_fraction);
  g_string_append (out, ",\n  .vapour_pressure = ");
  append_double (out, fl->vapour_pressure);
  g_string_append (out, ", /* Pa gauge */\n  .transition_reynolds = ");
  append_double (out, fl->transition_reynolds);
  g_string_append (out, ",\n  .discharge_coefficient = ");
  append_double (out, fl->discharge_coefficient);
  g_string_append (out, ",\n};\n\n");

  /* nodes */
  g_string_append (out, "/* The nodes: name, state (−1: a boundary), boundary index, volume of the\n"
                        " * connections (m³), boundary pressure (Pa). Ports of each node: */\n");
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      const HydNodeInfo *ni = hyd_system_get_node (sys, b);
      GString *ports = g_string_new (NULL);
      for (guint k = 0; k < ni->ports->len; k++)
        g_string_append_printf (ports, "%s%s", k ? ", " : "", (const char *) ni->ports->pdata[k]);
      g_autofree char *pc = comment_text (ports->str);
      g_string_append_printf (out, "/*   node %u: %s */\n", b, pc);
      g_string_free (ports, TRUE);
    }
  for (guint b = 0; b < sys->n_nodes; b++)
    if (sys->nodes[b].boundary && sys->nodes[b].bprof)
      {
        g_autofree char *sym = g_strdup_printf ("node%u_pressure", b);
        g_autofree char *what = g_strdup_printf ("the pressure of boundary node %u (Pa)", b);
        append_profile (out, sym, sys->nodes[b].bprof, what);
      }
  g_string_append (out, "static BxNode bx_nodes[N_NODES] = {\n");
  for (guint b = 0; b < sys->n_nodes; b++)
    {
      const SysNode *nd = &sys->nodes[b];
      g_autofree char *name = c_string (hyd_system_get_node (sys, b)->name);
      g_string_append_printf (out, "  { \"%s\", %d, %d, ", name, nd->boundary ? -1 : nd->state,
                              nd->boundary ? nd->bindex : -1);
      append_double (out, nd->wire_volume);
      if (nd->boundary && nd->bprof)
        g_string_append_printf (out, ", &node%u_pressure },\n", b);
      else
        g_string_append (out, ", NULL },\n");
    }
  g_string_append (out, "};\n\n");

  /* components: ids, parameters, ports */
  g_string_append (out, "/* The components, in file order */\nenum {\n");
  char **cid = g_new0 (char *, sys->n_comps + 1);
  g_hash_table_remove_all (used);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      HydComp *c = sys->comps[i].comp;
      /* C_<id>: no clash with the program's own names */
      cid[i] = c_ident ("C_", c->id);
      while (g_hash_table_contains (used, cid[i]))
        {
          char *more = g_strdup_printf ("%s_%u", cid[i], i);
          g_free (cid[i]);
          cid[i] = more;
        }
      g_hash_table_add (used, g_strdup (cid[i]));
      g_autofree char *lbl = comment_text (c->type->label);
      g_autofree char *idc = comment_text (c->id);
      g_string_append_printf (out, "  %s = %u, /* %s: %s (%s) */\n", cid[i], i, idc, lbl, c->type->id);
    }
  g_string_append (out, "};\n\n");
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      const HydComponentType *type = c->type;
      g_autofree char *idc = comment_text (c->id);
      g_string_append_printf (out, "/* %s (%s): parameters in force, SI units */\n", idc, type->id);
      /* the parameters' names as indices: C_PU1_speed */
      char **pid = g_new0 (char *, type->n_params + 1);
      if (type->n_params)
        {
          g_string_append (out, "enum {");
          for (guint k = 0; k < type->n_params; k++)
            {
              g_autofree char *pn = c_ident ("_", type->params[k].name);
              pid[k] = g_strconcat (cid[i], pn, NULL);
              g_string_append_printf (out, "%s%s", k ? ", " : " ", pid[k]);
            }
          g_string_append (out, " };\n");
        }
      g_string_append_printf (out, "static const double %s_par[%u] = {\n", cid[i], MAX (type->n_params, 1));
      for (guint k = 0; k < type->n_params; k++)
        {
          const HydParamInfo *pi = &type->params[k];
          g_string_append_printf (out, "  [%s] = ", pid[k]);
          append_double (out, c->par[k]);
          const char *unit = hyd_unit_symbol (pi->unit);
          g_string_append_printf (out, ", /* %s", pi->name);
          if (unit && *unit)
            g_string_append_printf (out, ", %s", unit);
          if ((pi->flags & HYD_PARAM_ENUM) && pi->choices && !isnan (c->par[k]))
            {
              guint ch = (guint) c->par[k];
              if (ch < g_strv_length ((char **) pi->choices))
                {
                  g_autofree char *chc = comment_text (pi->choices[ch]);
                  g_string_append_printf (out, ": \"%s\"", chc);
                }
            }
          else if (isnan (c->par[k]))
            g_string_append (out, " (unset)");
          g_string_append (out, " */\n");
        }
      if (type->n_params == 0)
        g_string_append (out, "  0\n");
      g_string_append (out, "};\n");
      g_strfreev (pid);
      g_string_append_printf (out, "static const int %s_port_node[%u] = {", cid[i], MAX (type->n_ports, 1));
      for (guint X = 0; X < type->n_ports; X++)
        {
          int b = sc->port_node[X];
          g_autofree char *pn = comment_text (type->ports[X].name);
          g_string_append_printf (out, "%s%d /* %s */", X ? ", " : " ", b, pn);
        }
      g_string_append (out, type->n_ports ? " };\n" : " -1 };\n");
      g_string_append_printf (out, "static const int %s_port_mnode[%u] = {", cid[i], MAX (type->n_ports, 1));
      for (guint X = 0; X < type->n_ports; X++)
        {
          int m = sc->port_mnode ? sc->port_mnode[X] : -1;
          g_autofree char *pn = comment_text (type->ports[X].name);
          g_string_append_printf (out, "%s%d /* %s */", X ? ", " : " ", m, pn);
        }
      g_string_append (out, type->n_ports ? " };\n" : " -1 };\n");
      g_string_append_printf (out, "static const int %s_port_signal[%u] = {", cid[i], MAX (type->n_ports, 1));
      for (guint X = 0; X < type->n_ports; X++)
        {
          int m = sc->port_signal ? sc->port_signal[X] : -1;
          g_autofree char *pn = comment_text (type->ports[X].name);
          g_string_append_printf (out, "%s%d /* %s */", X ? ", " : " ", m, pn);
        }
      g_string_append (out, type->n_ports ? " };\n\n" : " -1 };\n\n");
    }

  /* signal nets */
  g_string_append_printf (out, "/* The signal nets: the columns each one's value depends on (≥ N_STATES: a\n"
                               " * boundary node's pressure), and whether a component reads it */\n"
                               "#define N_SIGNALS %u\n", sys->n_signals);
  for (guint k = 0; k < sys->n_signals; k++)
    {
      const SysSignal *net = &sys->signals[k];
      GString *ports = g_string_new (NULL);
      for (guint j = 0; j < net->ports->len; j++)
        {
          g_autofree char *pn = hyd_sys_port_name (sys, g_array_index (net->ports, guint, j));
          g_string_append_printf (ports, "%s%s", j ? ", " : "", pn);
        }
      g_autofree char *pc = comment_text (ports->str);
      g_string_free (ports, TRUE);
      g_string_append_printf (out, "static const int sig%u_cols[%u] = {", k, MAX (net->n_cols, 1));
      for (guint j = 0; j < net->n_cols; j++)
        g_string_append_printf (out, "%s%d", j ? ", " : " ", net->cols[j]);
      g_string_append_printf (out, "%s }; /* net %u: %s */\nstatic double sig%u_vals[%u];\n",
                              net->n_cols ? "" : " 0", k, pc, k, MAX (net->n_cols, 1));
    }
  g_string_append (out, "static BxSignal bx_signals[N_SIGNALS + 1] = {\n");
  for (guint k = 0; k < sys->n_signals; k++)
    g_string_append_printf (out, "  { %u, sig%u_cols, sig%u_vals, %d },\n", sys->signals[k].n_cols, k, k,
                            sys->signals[k].used ? 1 : 0);
  g_string_append (out, sys->n_signals ? "};\n" : "  { 0, NULL, NULL, 0 }\n};\n");
  g_string_append_printf (out, "/* the blocks whose outputs are read, in dependency order */\n"
                               "#define N_SIG_ORDER %u\nstatic const int SIG_ORDER[N_SIG_ORDER + 1] = {",
                          sys->n_sig_order);
  for (guint o = 0; o < sys->n_sig_order; o++)
    g_string_append_printf (out, "%s%s", o ? ", " : " ", cid[sys->sig_order[o]]);
  g_string_append (out, sys->n_sig_order ? " };\n\n" : " 0 };\n\n");

  /* mechanical nodes (after the components: a fixed point names one) */
  g_string_append (out, "/* The mechanical nodes: state of v (x at state + 1; −1: a fixed point),\n"
                        " * the fixed point's component and position parameter. Ports: */\n");
  for (guint k = 0; k < sys->n_mnodes; k++)
    {
      const SysMechNode *mn = &sys->mnodes[k];
      GString *ports = g_string_new (NULL);
      for (guint j = 0; j < mn->ports->len; j++)
        {
          g_autofree char *pn = hyd_sys_port_name (sys, g_array_index (mn->ports, guint, j));
          g_string_append_printf (ports, "%s%s", j ? ", " : "", pn);
        }
      g_autofree char *pc = comment_text (ports->str);
      g_string_append_printf (out, "/*   mechanical node %u (%s): %s */\n", k, hyd_domain_name (mn->domain), pc);
      g_string_free (ports, TRUE);
    }
  g_string_append (out, "static BxMech bx_mnodes[N_MNODES + 1] = {\n");
  for (guint k = 0; k < sys->n_mnodes; k++)
    {
      const SysMechNode *mn = &sys->mnodes[k];
      if (mn->state < 0)
        g_string_append_printf (out, "  { -1, %s, %d },\n", cid[mn->bcomp], mn->bparam);
      else
        g_string_append_printf (out, "  { %d, -1, -1 },\n", mn->state);
    }
  g_string_append (out, sys->n_mnodes ? "};\n\n" : "  { -1, -1, -1 }\n};\n\n");

  /* instances */
  g_autoptr (GHashTable) declared = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const char *sym = find_type (sys->comps[i].comp->type->id)->symbol;
      if (g_hash_table_add (declared, (gpointer) sym))
        g_string_append_printf (out, "extern const HydComponentType %s;\n", sym);
    }
  gboolean any_hose = FALSE;
  for (guint i = 0; i < sys->n_comps; i++)
    any_hose |= hyd_sys_comp_is_hose (sys->comps[i].comp);
  if (any_hose)
    g_string_append (out, "HydComp *hyd_sys_hose_new (const HydFluid *fluid, const char *from, const char *to, "
                          "guint connection,\n                           double length, double diameter);\n");
  for (guint i = 0; i < sys->n_comps; i++)
    if (hyd_sys_comp_is_hose (sys->comps[i].comp))
      {
        const HydSysHose *h = sys->comps[i].comp->priv;
        g_autofree char *fq = c_string (h->from), *tq = c_string (h->to);
        g_string_append_printf (out, "\n/* the hose of the connection from %s to %s: length (m), diameter (m) */\n"
                                "static HydComp *\nmake_%s (void)\n{\n"
                                "  return hyd_sys_hose_new (&bx_fluid, \"%s\", \"%s\", %u, ", fq, tq, cid[i], fq, tq,
                                h->connection);
        append_double (out, h->length);
        g_string_append (out, ", ");
        append_double (out, h->diameter);
        g_string_append (out, ");\n}\n");
      }
  g_string_append (out, "\nstatic BxComp bx_comps[N_COMPS] = {\n");
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      g_autofree char *idq = c_string (c->id);
      g_string_append_printf (out, "  [%s] = { &%s, \"%s\", %s_par, UINT64_C (0x%" G_GINT64_MODIFIER "x), %u, %u, %s_port_node, %s_port_mnode, %s_port_signal, %s%s },\n",
                              cid[i], find_type (c->type->id)->symbol, idq, cid[i], (guint64) c->connected,
                              sc->state0, c->n_states, cid[i], cid[i], cid[i],
                              hyd_sys_comp_is_hose (c) ? "make_" : "", hyd_sys_comp_is_hose (c) ? cid[i] : "NULL");
    }
  g_string_append (out, "};\n\n");

  /* the parameters that follow a profile of time */
  GString *timed = g_string_new (NULL);
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const SysComp *sc = &sys->comps[i];
      const HydComponentType *type = sc->comp->type;
      for (guint k = 0; k < type->n_params; k++)
        if (sc->prof[k] && !hyd_profile_is_constant (sc->prof[k]))
          {
            g_autofree char *pname = c_ident ("", type->params[k].name);
            g_autofree char *sym = g_strdup_printf ("%s_%s_profile", cid[i], pname);
            const char *unit = hyd_unit_symbol (type->params[k].unit);
            g_autofree char *what = g_strdup_printf ("%s.%s%s%s%s", sc->comp->id, type->params[k].name,
                                                     *unit ? " (" : "", unit, *unit ? ")" : "");
            append_profile (out, sym, sc->prof[k], what);
            g_autofree char *wc = comment_text (what);
            g_autofree char *pidx = g_strconcat (cid[i], "_", pname, NULL);
            g_string_append_printf (timed, "  c = bx_comps[%s].c; /* %s */\n"
                                    "  c->par[%s] = hyd_profile_eval (&%s, t, bx_t_piece, &c->par_dt[%s]);\n",
                                    cid[i], wc, pidx, sym, pidx);
          }
    }
  g_string_append (out, "\n/* The parameters in force at t (the piece of the interval in force) */\n"
                        "static void\ncircuit_params (double t)\n{\n");
  if (timed->len)
    g_string_append_printf (out, "  HydComp *c;\n%s", timed->str);
  else
    g_string_append (out, "  (void) t; /* none follows a profile */\n");
  g_string_append (out, "}\n\n");
  g_string_free (timed, TRUE);

  /* breakpoints */
  const GArray *bps = hyd_system_get_breakpoints (sys);
  GString *bpl = g_string_new (NULL);
  guint nbp = 0;
  for (guint k = 0; k < bps->len; k++)
    {
      double b = g_array_index (bps, double, k);
      if (b > 0.0 && b < sim->t_end)
        {
          g_string_append (bpl, nbp++ ? ", " : " ");
          append_double (bpl, b);
        }
    }
  g_string_append_printf (out, "/* Where a profile jumps or bends: the integration restarts there. */\n"
                               "#define N_BREAKPOINTS %u\nstatic const double BREAKPOINTS[N_BREAKPOINTS + 1] = {%s%s };\n\n",
                          nbp, bpl->str, nbp ? "" : " 0");
  g_string_free (bpl, TRUE);

  g_string_append (out, "static void\ncircuit_setup (void)\n{\n");
  for (guint i = 0; i < sys->n_comps; i++)
    g_string_append_printf (out, "  bx_comp_setup (&bx_comps[%s]);\n", cid[i]);
  g_string_append (out, "}\n\n");

  /* f */
  g_string_append (out, "/* f(t, y): every component into the nodes of its ports, then the node\n"
                        " * equations. 0, or 1 when a value is not finite. */\n"
                        "static int\ncircuit_f (double t, const double *y, double *f, int want_jac)\n{\n"
                        "  circuit_params (t);\n"
                        "  bx_nodes_begin (t, y);\n"
                        "  bx_signals_eval (t, y, want_jac);\n");
  for (guint i = 0; i < sys->n_comps; i++)
    {
      const SysComp *sc = &sys->comps[i];
      HydComp *c = sc->comp;
      GString *ports = g_string_new (NULL);
      for (guint X = 0; X < c->type->n_ports; X++)
        {
          const char *pn = c->type->ports[X].name, *sep = ports->len ? ", " : "";
          if (sc->port_node[X] >= 0)
            g_string_append_printf (ports, "%s%s → node %d", sep, pn, sc->port_node[X]);
          else if (sc->port_mnode && sc->port_mnode[X] >= 0)
            g_string_append_printf (ports, "%s%s → mechanical node %d", sep, pn, sc->port_mnode[X]);
          else if (sc->port_signal && sc->port_signal[X] >= 0)
            g_string_append_printf (ports, "%s%s %s signal net %d", sep, pn,
                                    c->type->ports[X].direction == HYD_PORT_OUTPUT ? "→" : "←",
                                    sc->port_signal[X]);
        }
      g_autofree char *pc = comment_text (ports->str);
      g_autofree char *idc = comment_text (c->id);
      g_string_free (ports, TRUE);
      g_string_append_printf (out, "  /* %s (%s)%s%s", idc, c->type->id, *pc ? ": " : "", pc);
      if (c->n_states == 1)
        g_string_append_printf (out, "; state %u", sc->state0);
      else if (c->n_states > 1)
        g_string_append_printf (out, "; states %u…%u", sc->state0, sc->state0 + c->n_states - 1);
      g_string_append_printf (out, " */\n  bx_comp_eval (&bx_comps[%s], t, y, f, want_jac);\n", cid[i]);
    }
  g_string_append (out, "  return bx_nodes_end (f);\n}\n\n");

  /* J */
  g_string_append (out, "/* The analytic Jacobian J = ∂f/∂y (dense, column-major N_STATES²) and\n"
                        " * ∂f/∂t: each component's partial derivatives, through the node\n"
                        " * equations. 0, or 1 when a value is not finite. */\n"
                        "static double bx_f_scratch[N_STATES];\n\n"
                        "static int\ncircuit_jacobian (double t, const double *y, double *J, double *dfdt)\n{\n"
                        "  int status = circuit_f (t, y, bx_f_scratch, 1);\n"
                        "  memset (J, 0, sizeof (double) * N_STATES * N_STATES);\n"
                        "  memset (dfdt, 0, sizeof (double) * N_STATES);\n");
  for (guint i = 0; i < sys->n_comps; i++)
    {
      HydComp *c = sys->comps[i].comp;
      g_autofree char *idc = comment_text (c->id);
      g_string_append_printf (out, "  bx_comp_jacobian (&bx_comps[%s], J, dfdt); /* %s (%s) */\n", cid[i], idc,
                              c->type->id);
    }
  g_string_append (out, "  bx_nodes_jacobian (J);\n"
                        "  for (int k = 0; k < N_STATES * N_STATES && status == 0; k++)\n"
                        "    if (!isfinite (J[k]))\n      status = 1;\n"
                        "  return status;\n}\n\n");

  /* outputs */
  g_string_append (out, "/* The CSV's columns, those of `bramah-cli simulate`: t, the pressure of\n"
                        " * every node that is not a boundary (Pa), every state. */\n"
                        "#define CSV_HEADER \"");
  for (guint k = 0; k < defvars->len; k++)
    {
      g_autofree char *nm = c_string (hyd_system_get_variable_name (sys, g_array_index (defvars, int, k)));
      g_string_append_printf (out, "%s%s", k ? "," : "", nm);
    }
  g_string_append (out, "\\n\"\n\nstatic void\ncircuit_outputs (double t, const double *y, double *v)\n{\n"
                        "  HydNodeFluid nf;\n  (void) nf;\n  v[0] = t;\n");
  for (guint k = 1; k < defvars->len; k++)
    {
      const char *nm = hyd_system_get_variable_name (sys, g_array_index (defvars, int, k));
      gboolean done = FALSE;
      for (guint b = 0; b < sys->n_nodes && !done; b++)
        if (!sys->nodes[b].boundary && strcmp (hyd_system_get_node (sys, b)->name, nm) == 0)
          {
            g_string_append_printf (out, "  hyd_fluid_node (&bx_fluid, y[%d], &nf);\n  v[%u] = nf.p;\n",
                                    sys->nodes[b].state, k);
            done = TRUE;
          }
      for (guint i = 0; i < n && !done; i++)
        if (strcmp (hyd_system_get_state_name (sys, i), nm) == 0)
          {
            g_string_append_printf (out, "  v[%u] = y[%u];\n", k, i);
            done = TRUE;
          }
      g_assert (done);
    }
  g_string_append (out, "}\n");

  g_string_append (out, "\n/* ================================================================\n"
                        " * The assembly, the integrator and main\n"
                        " * ================================================================ */\n");
  append_file (out, RUNTIME_C_PATH);

  g_string_append (out, "\n/* ================================================================\n"
                        " * The model code: Bramah's engine, the files this circuit needs\n"
                        " * ================================================================ */\n");
  g_autoptr (GPtrArray) all = g_ptr_array_new ();
  for (guint k = 0; k < G_N_ELEMENTS (core_paths); k++)
    g_ptr_array_add (all, (gpointer) core_paths[k]);
  for (guint k = 0; k < files->len; k++)
    g_ptr_array_add (all, files->pdata[k]);
  for (guint k = 0; k < all->len; k++)
    append_file_among (out, all->pdata[k], all);

  g_strfreev (cid);
  return g_string_free (out, FALSE);
}
