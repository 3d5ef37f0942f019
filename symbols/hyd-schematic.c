/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-schematic.c — a whole circuit on a Cairo surface.
 *
 * Drawing order: wires (under the symbols, whose fills hide what passes
 * behind them), junction dots, symbols, labels. Wires are orthogonal
 * polylines from port lead ends (design §1.2) through the route points (§1.3,
 * §2.18); dots mark every point where three or more lines meet. */
#include "hyd-schematic.h"
#include "hyd-symbol-private.h"
#include "hyd-catalogue.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void
hyd_schematic_options_init (HydSchematicOptions *options)
{
  memset (options, 0, sizeof *options);
  options->flags = HYD_SCHEMATIC_SHOW_IDS | HYD_SCHEMATIC_SHOW_NAMES;
  options->layers = HYD_SCHEMATIC_LAYER_ALL;
  options->margin = 2.0;
}

/* ---------------------------------------------------------------------------
 * Geometry of wires
 * ------------------------------------------------------------------------- */

gboolean
hyd_schematic_endpoint (const HydCircuit *circuit, HydSymbolLibrary *library, const char *ref, double *x,
                        double *y, HydDirection *dir, gboolean *has_dir)
{
  g_autofree char *comp_id = NULL, *port = NULL;
  *has_dir = FALSE;
  if (!hyd_circuit_split_port_ref (ref, &comp_id, &port))
    {
      HydCircuitJunction *j = hyd_circuit_find_junction (circuit, ref);
      if (j == NULL)
        return FALSE;
      *x = j->x;
      *y = j->y;
      return TRUE;
    }
  HydCircuitComponent *c = hyd_circuit_find_component (circuit, comp_id);
  if (c == NULL)
    return FALSE;
  HydSymbol *sym = library ? hyd_symbol_library_lookup (library, c->type) : NULL;
  HydSymbolPose pose;
  hyd_symbol_pose_from_component (&pose, c);
  if (sym && hyd_symbol_port_world_position (sym, &pose, port, x, y, dir))
    {
      *has_dir = TRUE;
      return TRUE;
    }
  /* a type without a symbol: its wires meet at its position */
  *x = c->x;
  *y = c->y;
  return TRUE;
}

static gboolean
dir_vertical (HydDirection d)
{
  return d == HYD_DIR_UP || d == HYD_DIR_DOWN;
}

static void
push (GArray *a, double x, double y)
{
  g_array_append_val (a, x);
  g_array_append_val (a, y);
}

void
hyd_schematic_route (double x0, double y0, gboolean has_dir0, HydDirection dir0, const double *via, guint n_via,
                     double x1, double y1, gboolean has_dir1, HydDirection dir1, GArray *points)
{
  g_autoptr (GArray) raw = g_array_new (FALSE, FALSE, sizeof (double));
  push (raw, x0, y0);
  for (guint i = 0; i < n_via; i++)
    push (raw, via[2 * i], via[2 * i + 1]);
  push (raw, x1, y1);
  guint n = raw->len / 2;
  const double *r = (const double *) raw->data;
  const double eps = 1e-6;

  g_array_set_size (points, 0);
  push (points, r[0], r[1]);
  /* orientation of the last segment: 0 none, 1 horizontal, 2 vertical */
  int last = 0;
  for (guint i = 0; i + 1 < n; i++)
    {
      double ax = r[2 * i], ay = r[2 * i + 1], bx = r[2 * i + 2], by = r[2 * i + 3];
      gboolean first = i == 0, final = i + 2 == n;
      if (fabs (ax - bx) > eps && fabs (ay - by) > eps)
        {
          /* which way should the leg start, and which way end? 0 = free */
          int want_start = 0, want_end = 0;
          if (first && has_dir0)
            want_start = dir_vertical (dir0) ? 2 : 1;
          else if (last)
            want_start = last;
          if (final && has_dir1)
            want_end = dir_vertical (dir1) ? 2 : 1;
          if (want_start && want_end && want_start == want_end && first && final && has_dir0)
            {
              /* both ends fixed on the same axis: a Z with its middle leg halfway */
              if (want_start == 2)
                {
                  double my = (ay + by) / 2;
                  push (points, ax, my);
                  push (points, bx, my);
                }
              else
                {
                  double mx = (ax + bx) / 2;
                  push (points, mx, ay);
                  push (points, mx, by);
                }
            }
          else
            {
              gboolean vertical_first;
              if (want_end)
                vertical_first = want_end == 1; /* end horizontal ⇒ start vertical */
              else if (want_start)
                vertical_first = want_start == 2;
              else
                vertical_first = FALSE;
              if (vertical_first)
                push (points, ax, by);
              else
                push (points, bx, ay);
            }
        }
      push (points, bx, by);
      guint m = points->len / 2;
      const double *p = (const double *) points->data;
      last = fabs (p[2 * m - 2] - p[2 * m - 4]) > eps ? 1 : 2;
    }

  /* drop repeated points and the middle one of three collinear points */
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (double));
  const double *p = (const double *) points->data;
  guint m = points->len / 2;
  for (guint i = 0; i < m; i++)
    {
      double px = p[2 * i], py = p[2 * i + 1];
      guint k = out->len / 2;
      const double *o = (const double *) out->data;
      if (k >= 1 && fabs (o[2 * k - 2] - px) < eps && fabs (o[2 * k - 1] - py) < eps)
        continue;
      if (k >= 2)
        {
          double ux = o[2 * k - 2] - o[2 * k - 4], uy = o[2 * k - 1] - o[2 * k - 3];
          double vx = px - o[2 * k - 2], vy = py - o[2 * k - 1];
          /* collinear and not turning back on itself */
          if (fabs (ux * vy - uy * vx) < eps && ux * vx + uy * vy > 0)
            {
              g_array_set_size (out, out->len - 2);
            }
        }
      push (out, px, py);
    }
  g_array_set_size (points, 0);
  g_array_append_vals (points, out->data, out->len);
}

gboolean
hyd_schematic_wire_points (const HydCircuit *circuit, HydSymbolLibrary *library,
                           const HydCircuitConnection *connection, GArray *points)
{
  double x0, y0, x1, y1;
  HydDirection d0 = HYD_DIR_UP, d1 = HYD_DIR_UP;
  gboolean h0, h1;
  if (!hyd_schematic_endpoint (circuit, library, connection->from, &x0, &y0, &d0, &h0)
      || !hyd_schematic_endpoint (circuit, library, connection->to, &x1, &y1, &d1, &h1))
    return FALSE;
  guint n_via = connection->route ? connection->route->len / 2 : 0;
  hyd_schematic_route (x0, y0, h0, d0, n_via ? (const double *) connection->route->data : NULL, n_via, x1, y1,
                       h1, d1, points);
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Nets: which wires, junctions and ports share a node (for pressure colours)
 * ------------------------------------------------------------------------- */

typedef struct {
  GHashTable *parent;   /* key → key (union-find over "C.P" and junction ids) */
  GHashTable *pressure; /* root → double* */
  GHashTable *current;  /* root → anything: an electrical net carrying current */
} Nets;

static const char *
net_find (Nets *nets, const char *key)
{
  const char *k = key;
  for (;;)
    {
      const char *p = g_hash_table_lookup (nets->parent, k);
      if (p == NULL || strcmp (p, k) == 0)
        return p ? p : key;
      k = p;
    }
}

static void
net_add (Nets *nets, const char *key)
{
  if (!g_hash_table_contains (nets->parent, key))
    {
      char *k = g_strdup (key);
      g_hash_table_insert (nets->parent, k, k);
    }
}

static void
net_union (Nets *nets, const char *a, const char *b)
{
  net_add (nets, a);
  net_add (nets, b);
  const char *ra = net_find (nets, a), *rb = net_find (nets, b);
  if (strcmp (ra, rb) != 0)
    {
      /* the stored keys own their strings: point rb's slot at ra's key */
      gpointer orig_key = NULL, val = NULL;
      g_hash_table_lookup_extended (nets->parent, rb, &orig_key, &val);
      gpointer ra_key = NULL;
      g_hash_table_lookup_extended (nets->parent, ra, &ra_key, NULL);
      g_hash_table_insert (nets->parent, g_strdup (orig_key), ra_key);
    }
}

static void
nets_clear (Nets *nets)
{
  g_clear_pointer (&nets->parent, g_hash_table_unref);
  g_clear_pointer (&nets->pressure, g_hash_table_unref);
  g_clear_pointer (&nets->current, g_hash_table_unref);
}

static void
nets_build (Nets *nets, const HydCircuit *circuit, const HydSchematicOptions *opts)
{
  nets->parent = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  nets->pressure = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  nets->current = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* every parent value is a key of the table, whose string lives as long as it */
  for (guint i = 0; i < circuit->connections->len; i++)
    {
      HydCircuitConnection *c = g_ptr_array_index (circuit->connections, i);
      if (c->from && c->to)
        net_union (nets, c->from, c->to);
    }
  for (guint i = 0; i < circuit->components->len; i++)
    {
      HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      const HydComponentType *t = hyd_catalogue_lookup (comp->type);
      if (t == NULL)
        continue;
      for (guint k = 0; k < t->n_joined_ports; k++)
        {
          g_autofree char *a = g_strdup_printf ("%s.%s", comp->id, t->ports[t->joined_ports[k][0]].name);
          g_autofree char *b = g_strdup_printf ("%s.%s", comp->id, t->ports[t->joined_ports[k][1]].name);
          net_union (nets, a, b);
        }
    }
  /* an electrical net carries current when a port on it says so */
  for (guint i = 0; opts->port_level && i < circuit->components->len; i++)
    {
      HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      const HydComponentType *t = hyd_catalogue_lookup (comp->type);
      for (guint k = 0; t && k < t->n_ports; k++)
        {
          guint level = 0;
          if (t->ports[k].domain != HYD_DOMAIN_ELECTRICAL
              || !opts->port_level (comp->id, t->ports[k].name, &level, opts->user_data) || !(level & 4))
            continue;
          g_autofree char *key = g_strdup_printf ("%s.%s", comp->id, t->ports[k].name);
          net_add (nets, key);
          g_hash_table_add (nets->current, g_strdup (net_find (nets, key)));
        }
    }
  if (!(opts->flags & HYD_SCHEMATIC_PRESSURE_COLOURS) || opts->port_pressure == NULL)
    return;
  /* first port in file and catalogue order that knows its pressure */
  for (guint i = 0; i < circuit->components->len; i++)
    {
      HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      const HydComponentType *t = hyd_catalogue_lookup (comp->type);
      if (t == NULL)
        continue;
      for (guint k = 0; k < t->n_ports; k++)
        {
          if (t->ports[k].domain != HYD_DOMAIN_HYDRAULIC)
            continue;
          g_autofree char *key = g_strdup_printf ("%s.%s", comp->id, t->ports[k].name);
          net_add (nets, key);
          const char *root = net_find (nets, key);
          if (g_hash_table_contains (nets->pressure, root))
            continue;
          double p = opts->port_pressure (comp->id, t->ports[k].name, opts->user_data);
          if (isnan (p))
            continue;
          double *slot = g_new (double, 1);
          *slot = p;
          g_hash_table_insert (nets->pressure, g_strdup (root), slot);
        }
    }
}

static gboolean
nets_current (Nets *nets, const char *key)
{
  return g_hash_table_contains (nets->parent, key) && g_hash_table_contains (nets->current, net_find (nets, key));
}

static double
nets_pressure (Nets *nets, const char *key)
{
  if (!g_hash_table_contains (nets->parent, key))
    return NAN;
  const double *p = g_hash_table_lookup (nets->pressure, net_find (nets, key));
  return p ? *p : NAN;
}

/* ---------------------------------------------------------------------------
 * Drawing
 * ------------------------------------------------------------------------- */

typedef struct {
  const HydCircuit *circuit;
  HydSchematicOptions opts;
  HydSymbolStyle default_style;
  const HydSymbolStyle *style;
  HydSymbolLibrary *lib;
  Nets nets;
  GHashTable *components;    /* id → HydCircuitComponent* */
  GHashTable *junctions;     /* id → HydCircuitJunction* */
  GHashTable *wire_ends;     /* "C.P" or junction id → number of wire ends there */
  GPtrArray *wires;          /* per connection: GArray of x, y pairs, or NULL */
  GArray *labels;            /* LabelBox per component, laid out on first use */
  HydRect clip;              /* what the cairo can show, canvas units; nothing outside is drawn */
  GHashTable *net_domains;   /* net root → HydDomain + 1, built on first use (wire_domain) */
  GHashTable *ref_lines;     /* id → the label line of its references ("→ K1"), built on first use */
} Schematic;

static gboolean
visible (const Schematic *s, double x0, double y0, double x1, double y1)
{
  return x1 >= s->clip.x0 && x0 <= s->clip.x1 && y1 >= s->clip.y0 && y0 <= s->clip.y1;
}

/* hyd_schematic_endpoint with the schematic's indexes: the canvas redraws
 * hundreds of wires per frame, and a linear search per end would dominate. */
static gboolean
schematic_endpoint (Schematic *s, const char *ref, double *x, double *y, HydDirection *dir, gboolean *has_dir)
{
  *has_dir = FALSE;
  const char *dot = strchr (ref, '.');
  if (dot == NULL)
    {
      HydCircuitJunction *j = g_hash_table_lookup (s->junctions, ref);
      if (j == NULL)
        return FALSE;
      *x = j->x;
      *y = j->y;
      return TRUE;
    }
  char id[64];
  gsize len = (gsize) (dot - ref);
  if (len >= sizeof id)
    return FALSE;
  memcpy (id, ref, len);
  id[len] = '\0';
  HydCircuitComponent *c = g_hash_table_lookup (s->components, id);
  if (c == NULL)
    return FALSE;
  HydSymbol *sym = s->lib ? hyd_symbol_library_lookup (s->lib, c->type) : NULL;
  HydSymbolPose pose;
  hyd_symbol_pose_from_component (&pose, c);
  if (sym && hyd_symbol_port_world_position (sym, &pose, dot + 1, x, y, dir))
    {
      *has_dir = TRUE;
      return TRUE;
    }
  *x = c->x;
  *y = c->y;
  return TRUE;
}

/* Number of wire ends at a port of a component. */
static guint
port_wire_count (Schematic *s, const HydCircuitComponent *comp, const char *port)
{
  char key[128];
  g_snprintf (key, sizeof key, "%s.%s", comp->id, port);
  return GPOINTER_TO_UINT (g_hash_table_lookup (s->wire_ends, key));
}

static void
schematic_init (Schematic *s, const HydCircuit *circuit, const HydSchematicOptions *options)
{
  memset (s, 0, sizeof *s);
  s->circuit = circuit;
  if (options)
    s->opts = *options;
  else
    hyd_schematic_options_init (&s->opts);
  if (s->opts.layers == 0)
    s->opts.layers = HYD_SCHEMATIC_LAYER_ALL;
  hyd_symbol_style_init_light (&s->default_style);
  s->style = s->opts.style ? s->opts.style : &s->default_style;
  s->lib = s->opts.library ? s->opts.library : hyd_symbol_library_get_default (NULL);
  nets_build (&s->nets, circuit, &s->opts);

  s->components = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < circuit->components->len; i++)
    {
      HydCircuitComponent *c = g_ptr_array_index (circuit->components, i);
      if (c->id)
        g_hash_table_insert (s->components, c->id, c);
    }
  s->junctions = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < circuit->junctions->len; i++)
    {
      HydCircuitJunction *j = g_ptr_array_index (circuit->junctions, i);
      if (j->id)
        g_hash_table_insert (s->junctions, j->id, j);
    }
  s->wire_ends = g_hash_table_new (g_str_hash, g_str_equal);
  s->wires = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint i = 0; i < circuit->connections->len; i++)
    {
      HydCircuitConnection *c = g_ptr_array_index (circuit->connections, i);
      const char *ends[] = { c->from, c->to };
      for (guint k = 0; k < 2; k++)
        if (ends[k])
          g_hash_table_insert (s->wire_ends, (gpointer) ends[k],
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (s->wire_ends, ends[k])) + 1));
      double x0, y0, x1, y1;
      HydDirection d0 = HYD_DIR_UP, d1 = HYD_DIR_UP;
      gboolean h0, h1;
      GArray *pts = NULL;
      if (c->from && c->to && schematic_endpoint (s, c->from, &x0, &y0, &d0, &h0)
          && schematic_endpoint (s, c->to, &x1, &y1, &d1, &h1))
        {
          pts = g_array_new (FALSE, FALSE, sizeof (double));
          guint n_via = c->route ? c->route->len / 2 : 0;
          hyd_schematic_route (x0, y0, h0, d0, n_via ? (const double *) c->route->data : NULL, n_via, x1, y1, h1,
                               d1, pts);
        }
      g_ptr_array_add (s->wires, pts);
    }
}

static void
schematic_clear (Schematic *s)
{
  g_clear_pointer (&s->net_domains, g_hash_table_unref);
  g_clear_pointer (&s->ref_lines, g_hash_table_unref);
  nets_clear (&s->nets);
  g_clear_pointer (&s->labels, g_array_unref);
  g_clear_pointer (&s->components, g_hash_table_unref);
  g_clear_pointer (&s->junctions, g_hash_table_unref);
  g_clear_pointer (&s->wire_ends, g_hash_table_unref);
  g_clear_pointer (&s->wires, g_ptr_array_unref);
}

/* The catalogue's port a wire end names ("C.P"), or NULL (a junction, an
 * unknown component or port). */
static const HydPortInfo *
ref_port_info (Schematic *s, const char *ref)
{
  const char *dot = strchr (ref, '.');
  char id[64];
  if (dot == NULL || (gsize) (dot - ref) >= sizeof id)
    return NULL;
  memcpy (id, ref, dot - ref);
  id[dot - ref] = '\0';
  HydCircuitComponent *c = g_hash_table_lookup (s->components, id);
  const HydComponentType *t = c ? hyd_catalogue_lookup (c->type) : NULL;
  for (guint i = 0; t && i < t->n_ports; i++)
    if (strcmp (t->ports[i].name, dot + 1) == 0)
      return &t->ports[i];
  return NULL;
}

/* The domain of each net with a port on it (root → domain + 1), built when
 * a wire between two junctions first asks. */
static void
net_domains_build (Schematic *s)
{
  s->net_domains = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < s->circuit->components->len; i++)
    {
      HydCircuitComponent *comp = g_ptr_array_index (s->circuit->components, i);
      const HydComponentType *t = hyd_catalogue_lookup (comp->type);
      for (guint k = 0; t && comp->id && k < t->n_ports; k++)
        {
          char key[128];
          g_snprintf (key, sizeof key, "%s.%s", comp->id, t->ports[k].name);
          if (!g_hash_table_contains (s->nets.parent, key))
            continue;
          /* the root is a key of the parent table: it lives as long as it */
          g_hash_table_insert (s->net_domains, (gpointer) net_find (&s->nets, key),
                               GINT_TO_POINTER ((int) t->ports[k].domain + 1));
        }
    }
}

/* The domain of a wire: that of a port at either end, else that of its net
 * (a wire between two junctions); hydraulic when nothing tells. */
static HydDomain
wire_domain (Schematic *s, const HydCircuitConnection *c)
{
  const char *ends[] = { c->from, c->to };
  for (guint k = 0; k < 2; k++)
    {
      const HydPortInfo *port = ends[k] ? ref_port_info (s, ends[k]) : NULL;
      if (port)
        return port->domain;
    }
  if (c->from == NULL || !g_hash_table_contains (s->nets.parent, c->from))
    return HYD_DOMAIN_HYDRAULIC;
  if (s->net_domains == NULL)
    net_domains_build (s);
  int d = GPOINTER_TO_INT (g_hash_table_lookup (s->net_domains, net_find (&s->nets, c->from)));
  return d > 0 ? (HydDomain) (d - 1) : HYD_DOMAIN_HYDRAULIC;
}

static double
device_unit (cairo_t *cr)
{
  return hyd_symbol_device_scale (cr) * HYD_SYMBOL_MODULE;
}

HydWireStyle
hyd_schematic_wire_style (int domain)
{
  if (domain == HYD_DOMAIN_SIGNAL)
    return HYD_WIRE_SIGNAL;
  if (domain == HYD_DOMAIN_TRANSLATIONAL || domain == HYD_DOMAIN_ROTATIONAL)
    return HYD_WIRE_MECHANICAL;
  if (domain == HYD_DOMAIN_ELECTRICAL)
    return HYD_WIRE_ELECTRICAL;
  return HYD_WIRE_WORKING;
}

double
hyd_schematic_wire_width (HydWireStyle wire_style, double line_width, double unit, gboolean snap)
{
  switch (wire_style)
    {
    case HYD_WIRE_SIGNAL:
      return MAX (1.0, line_width * 0.7);
    case HYD_WIRE_ELECTRICAL:
      return MAX (1.0, line_width * 0.5);
    case HYD_WIRE_MECHANICAL:
      {
        /* the two lines' centres 0.8 M apart (design §1.3); an even number
         * of pixels keeps both sharp when snapped */
        double gap = HYD_WIRE_DOUBLE_LINE_SPACING * unit;
        if (snap)
          gap = MAX (2.0, 2 * round (gap / 2));
        return gap + line_width;
      }
    case HYD_WIRE_WORKING:
    default:
      return line_width;
    }
}

/* Stroke the current path (device widths; the cairo's matrix is left
 * alone) in a wire style. `round` gives round caps and joins (the canvas's
 * wire being drawn), else butt or square caps and mitre joins. */
static void
stroke_wire_path (cairo_t *cr, const HydSymbolStyle *style, HydWireStyle wire_style, const HydRgba *colour,
                  double line_width, double unit, gboolean snap, gboolean round)
{
  double w = hyd_schematic_wire_width (wire_style, line_width, unit, snap);
  cairo_save (cr);
  cairo_identity_matrix (cr);
  cairo_set_line_join (cr, round ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_MITER);
  switch (wire_style)
    {
    case HYD_WIRE_SIGNAL:
      {
        double d[] = { 0.6 * unit, 0.35 * unit };
        cairo_set_dash (cr, d, 2, 0);
        cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
        cairo_set_line_width (cr, w);
        hyd_rgba_set_source (cr, colour);
        cairo_stroke (cr);
      }
      break;
    case HYD_WIRE_MECHANICAL:
      /* a double line: the outer stroke in the line colour, its middle
       * in the fill colour, as a rod or shaft is drawn (open ends) */
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
      cairo_set_line_width (cr, w);
      hyd_rgba_set_source (cr, colour);
      cairo_stroke_preserve (cr);
      cairo_set_line_width (cr, MAX (0.5, w - 2 * line_width));
      hyd_rgba_set_source (cr, &style->fill);
      cairo_stroke (cr);
      break;
    case HYD_WIRE_ELECTRICAL:
    case HYD_WIRE_WORKING:
    default:
      /* square caps close the corner where a wire meets a port lead at a
       * right angle */
      cairo_set_line_cap (cr, round ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_SQUARE);
      cairo_set_line_width (cr, w);
      hyd_rgba_set_source (cr, colour);
      cairo_stroke (cr);
      break;
    }
  cairo_restore (cr);
}

void
hyd_schematic_stroke_wire (cairo_t *cr, const HydSymbolStyle *style, const double *points, guint n_points,
                           HydWireStyle wire_style, const HydRgba *colour, double line_width, gboolean round)
{
  g_return_if_fail (cr != NULL && style != NULL && colour != NULL);
  if (n_points < 2)
    return;
  cairo_new_path (cr);
  for (guint k = 0; k < n_points; k++)
    {
      if (k == 0)
        cairo_move_to (cr, points[0], points[1]);
      else
        cairo_line_to (cr, points[2 * k], points[2 * k + 1]);
    }
  stroke_wire_path (cr, style, wire_style, colour, line_width, device_unit (cr), FALSE, round);
}

void
hyd_schematic_draw_signal_arrow (cairo_t *cr, double tip_x, double tip_y, double from_x, double from_y,
                                 const HydRgba *colour)
{
  g_return_if_fail (cr != NULL && colour != NULL);
  double unit = device_unit (cr);
  cairo_user_to_device (cr, &tip_x, &tip_y);
  cairo_user_to_device (cr, &from_x, &from_y);
  double dx = tip_x - from_x, dy = tip_y - from_y, len = hypot (dx, dy);
  if (!(len > 0))
    return;
  dx /= len, dy /= len;
  /* a valve's flow-path arrowhead (design §1.4): 1 M long, 0.5 M wide */
  double l = HYD_WIRE_ARROW_LENGTH * unit, h = HYD_WIRE_ARROW_WIDTH * unit / 2;
  double bx = tip_x - dx * l, by = tip_y - dy * l;
  cairo_save (cr);
  cairo_identity_matrix (cr);
  cairo_new_path (cr);
  cairo_move_to (cr, tip_x, tip_y);
  cairo_line_to (cr, bx - dy * h, by + dx * h);
  cairo_line_to (cr, bx + dy * h, by - dx * h);
  cairo_close_path (cr);
  hyd_rgba_set_source (cr, colour);
  cairo_fill (cr);
  cairo_restore (cr);
}

/* Where a signal wire enters an input, the arrowhead of a block diagram:
 * its tip where the port's lead meets the symbol (the whole lead is the
 * arrow), pointing in along the lead. */
static void
draw_input_arrow (cairo_t *cr, Schematic *s, const char *ref, const HydRgba *colour)
{
  const char *dot = strchr (ref, '.');
  char id[64];
  if (dot == NULL || (gsize) (dot - ref) >= sizeof id)
    return;
  memcpy (id, ref, dot - ref);
  id[dot - ref] = '\0';
  HydCircuitComponent *c = g_hash_table_lookup (s->components, id);
  HydSymbol *sym = c && s->lib ? hyd_symbol_library_lookup (s->lib, c->type) : NULL;
  const HydSymbolPort *port = sym ? hyd_symbol_find_port (sym, dot + 1) : NULL;
  double x, y;
  HydDirection dir;
  HydSymbolPose pose;
  if (port == NULL)
    return;
  hyd_symbol_pose_from_component (&pose, c);
  if (!hyd_symbol_port_world_position (sym, &pose, port->name, &x, &y, &dir))
    return;
  int dx, dy;
  hyd_direction_vector (dir, &dx, &dy);
  double lead = MAX (port->lead, 0) * HYD_SYMBOL_MODULE;
  double tip_x = x - dx * lead, tip_y = y - dy * lead;
  hyd_schematic_draw_signal_arrow (cr, tip_x, tip_y, x + dx * HYD_SYMBOL_MODULE, y + dy * HYD_SYMBOL_MODULE,
                                   colour);
}

static void
draw_wires (cairo_t *cr, Schematic *s)
{
  double unit = device_unit (cr);
  gboolean snap = s->style->snap;
  double lw = _hyd_symbol_device_line_width (s->style, 1.0, unit, snap);
  for (guint i = 0; i < s->circuit->connections->len; i++)
    {
      HydCircuitConnection *c = g_ptr_array_index (s->circuit->connections, i);
      GArray *pts = g_ptr_array_index (s->wires, i);
      if (pts == NULL)
        continue;
      double bx0 = G_MAXDOUBLE, by0 = G_MAXDOUBLE, bx1 = -G_MAXDOUBLE, by1 = -G_MAXDOUBLE;
      for (guint k = 0; k < pts->len / 2; k++)
        {
          double x = g_array_index (pts, double, 2 * k), y = g_array_index (pts, double, 2 * k + 1);
          bx0 = MIN (bx0, x), by0 = MIN (by0, y), bx1 = MAX (bx1, x), by1 = MAX (by1, y);
        }
      if (!visible (s, bx0 - HYD_SYMBOL_MODULE, by0 - HYD_SYMBOL_MODULE, bx1 + HYD_SYMBOL_MODULE,
                    by1 + HYD_SYMBOL_MODULE))
        continue;
      HydWireStyle ws = hyd_schematic_wire_style (wire_domain (s, c));
      double w = hyd_schematic_wire_width (ws, lw, unit, snap);
      /* a double line is snapped as its two lines are: on the pixel grid
       * of its (odd or even) outer width */
      cairo_new_path (cr);
      const double *p = (const double *) pts->data;
      for (guint k = 0; k < pts->len / 2; k++)
        {
          double x = p[2 * k], y = p[2 * k + 1];
          if (snap)
            _hyd_symbol_snap_point (cr, ws == HYD_WIRE_MECHANICAL ? lw : w, &x, &y);
          if (k == 0)
            cairo_move_to (cr, x, y);
          else
            cairo_line_to (cr, x, y);
        }
      HydRgba colour = s->style->line;
      if (ws == HYD_WIRE_SIGNAL)
        colour = s->style->signal;
      else if (ws == HYD_WIRE_WORKING)
        {
          double pr = nets_pressure (&s->nets, c->from);
          if (!isnan (pr))
            hyd_symbol_style_pressure_colour (s->style, pr, &colour);
        }
      else if (ws == HYD_WIRE_ELECTRICAL && (nets_current (&s->nets, c->from) || nets_current (&s->nets, c->to)))
        colour = s->style->current;
      stroke_wire_path (cr, s->style, ws, &colour, lw, unit, snap, FALSE);
      if (ws == HYD_WIRE_SIGNAL)
        {
          const char *ends[] = { c->from, c->to };
          for (guint k = 0; k < 2; k++)
            {
              const HydPortInfo *port = ref_port_info (s, ends[k]);
              if (port && port->domain == HYD_DOMAIN_SIGNAL && port->direction == HYD_PORT_INPUT)
                draw_input_arrow (cr, s, ends[k], &colour);
            }
        }
    }
}

static int
compare_refs (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Where three or more lines meet: a junction with three or more wire ends,
 * or a port with two or more wires (its lead is the third line). */
static void
collect_dots (Schematic *s, GArray *dots, GPtrArray *keys)
{
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, s->wire_ends);
  g_autoptr (GPtrArray) sorted = g_ptr_array_new ();
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      gboolean junction = strchr (k, '.') == NULL;
      guint n = GPOINTER_TO_UINT (v);
      if ((junction && n >= 3) || (!junction && n >= 2))
        g_ptr_array_add (sorted, k);
    }
  /* a stable order keeps exports byte-identical from run to run */
  g_ptr_array_sort (sorted, compare_refs);
  for (guint i = 0; i < sorted->len; i++)
    {
      const char *ref = g_ptr_array_index (sorted, i);
      double x, y;
      HydDirection d;
      gboolean has_dir;
      if (!schematic_endpoint (s, ref, &x, &y, &d, &has_dir))
        continue;
      g_array_append_val (dots, x);
      g_array_append_val (dots, y);
      g_ptr_array_add (keys, (gpointer) ref);
    }
}

static void
draw_junctions (cairo_t *cr, Schematic *s)
{
  g_autoptr (GArray) dots = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();
  collect_dots (s, dots, keys);
  double scale = hyd_symbol_device_scale (cr);
  double r = s->style->junction_diameter * HYD_SYMBOL_MODULE * scale / 2;
  r = MAX (r, 1.5);
  double lw = _hyd_symbol_device_line_width (s->style, 1.0, HYD_SYMBOL_MODULE * scale, s->style->snap);
  for (guint i = 0; i < keys->len; i++)
    {
      double x = g_array_index (dots, double, 2 * i), y = g_array_index (dots, double, 2 * i + 1);
      if (!visible (s, x - HYD_SYMBOL_MODULE, y - HYD_SYMBOL_MODULE, x + HYD_SYMBOL_MODULE, y + HYD_SYMBOL_MODULE))
        continue;
      if (s->style->snap)
        _hyd_symbol_snap_point (cr, lw, &x, &y);
      cairo_user_to_device (cr, &x, &y);
      HydRgba colour = s->style->line;
      double pr = nets_pressure (&s->nets, g_ptr_array_index (keys, i));
      if (!isnan (pr))
        hyd_symbol_style_pressure_colour (s->style, pr, &colour);
      cairo_save (cr);
      cairo_identity_matrix (cr);
      cairo_new_path (cr);
      cairo_arc (cr, x, y, r, 0, 2 * G_PI);
      hyd_rgba_set_source (cr, &colour);
      cairo_fill (cr);
      cairo_restore (cr);
    }
}

/* The state a component is drawn in: parameters, connected ports, node
 * pressures, then whatever the caller animates. */
static void
component_state (Schematic *s, const HydCircuitComponent *comp, HydSymbolState *state)
{
  hyd_symbol_state_clear (state);
  hyd_symbol_state_set_component_params (state, comp);
  const HydComponentType *t = hyd_catalogue_lookup (comp->type);
  for (guint k = 0; t && k < t->n_ports; k++)
    if (port_wire_count (s, comp, t->ports[k].name) > 0)
      hyd_symbol_state_set_port_connected (state, t->ports[k].name, TRUE);
  for (guint k = 0; t && k < t->n_ports && (s->opts.flags & HYD_SCHEMATIC_PRESSURE_COLOURS); k++)
    {
      g_autofree char *key = g_strdup_printf ("%s.%s", comp->id, t->ports[k].name);
      double p = nets_pressure (&s->nets, key);
      if (!isnan (p))
        {
          g_autofree char *var = g_strdup_printf ("%s.p", t->ports[k].name);
          hyd_symbol_state_set (state, var, p);
        }
    }
  /* an electrical port on a net carrying current: its lead and the
   * "current:PORT" paints in the current colour */
  for (guint k = 0; t && k < t->n_ports && s->opts.port_level; k++)
    {
      g_autofree char *key = g_strdup_printf ("%s.%s", comp->id, t->ports[k].name);
      if (t->ports[k].domain == HYD_DOMAIN_ELECTRICAL && nets_current (&s->nets, key))
        {
          g_autofree char *var = g_strdup_printf ("%s.current", t->ports[k].name);
          hyd_symbol_state_set (state, var, 1);
        }
    }
  if (s->opts.component_state)
    s->opts.component_state (comp, state, s->opts.user_data);
}

/* A type with no symbol file still shows where it is and what it is. */
static void
draw_unknown (cairo_t *cr, Schematic *s, const HydCircuitComponent *comp)
{
  double M = HYD_SYMBOL_MODULE;
  cairo_save (cr);
  cairo_new_path (cr);
  cairo_rectangle (cr, comp->x - 2 * M, comp->y - 2 * M, 4 * M, 4 * M);
  hyd_rgba_set_source (cr, &s->style->fill);
  cairo_fill_preserve (cr);
  double scale = hyd_symbol_device_scale (cr);
  cairo_identity_matrix (cr);
  double d[] = { 0.5 * M * scale, 0.3 * M * scale };
  cairo_set_dash (cr, d, 2, 0);
  cairo_set_line_width (cr, MAX (s->style->min_line_width, s->style->line_width * M * scale));
  hyd_rgba_set_source (cr, &s->style->port_free);
  cairo_stroke (cr);
  cairo_restore (cr);
  hyd_symbol_draw_text (cr, s->style, comp->x, comp->y, "?", 2.0, TRUE, 0.5, 0.5, &s->style->port_free);
  hyd_symbol_draw_text (cr, s->style, comp->x, comp->y + 2.6 * M, comp->type ? comp->type : "", 0.8, FALSE, 0.5,
                        0.0, &s->style->port_free);
}

static void
draw_symbols (cairo_t *cr, Schematic *s)
{
  g_autoptr (HydSymbolState) state = hyd_symbol_state_new ();
  for (guint i = 0; i < s->circuit->components->len; i++)
    {
      HydCircuitComponent *comp = g_ptr_array_index (s->circuit->components, i);
      HydSymbol *sym = s->lib ? hyd_symbol_library_lookup (s->lib, comp->type) : NULL;
      if (sym == NULL)
        {
          draw_unknown (cr, s, comp);
          continue;
        }
      HydSymbolPose pose;
      hyd_symbol_pose_from_component (&pose, comp);
      /* the rest box, with room for a rod or spool that has moved out of it */
      HydRect b;
      hyd_symbol_placed_bounds (sym, &pose, &b);
      const double reach = 12 * HYD_SYMBOL_MODULE;
      if (!visible (s, b.x0 - reach, b.y0 - reach, b.x1 + reach, b.y1 + reach))
        continue;
      component_state (s, comp, state);
      guint flags = s->opts.component_flags ? s->opts.component_flags (comp, s->opts.user_data) : 0;
      hyd_symbol_render (cr, sym, &pose, state, s->style, flags);
    }
}

static void
draw_free_ports (cairo_t *cr, Schematic *s)
{
  for (guint i = 0; i < s->circuit->components->len; i++)
    {
      HydCircuitComponent *comp = g_ptr_array_index (s->circuit->components, i);
      HydSymbol *sym = s->lib ? hyd_symbol_library_lookup (s->lib, comp->type) : NULL;
      const HydComponentType *t = hyd_catalogue_lookup (comp->type);
      if (sym == NULL || t == NULL)
        continue;
      HydSymbolPose pose;
      hyd_symbol_pose_from_component (&pose, comp);
      for (guint k = 0; k < t->n_ports; k++)
        {
          if (t->ports[k].optional)
            continue;
          gboolean used = port_wire_count (s, comp, t->ports[k].name) > 0;
          double x, y;
          if (!used && hyd_symbol_port_world_position (sym, &pose, t->ports[k].name, &x, &y, NULL))
            hyd_symbol_render_port_marker (cr, x, y, HYD_PORT_FREE, s->style);
        }
    }
}

/* The ids a component's reference parameters name that its symbol does
 * not show itself (a text "{relay}"), as a label line: "→ K1" for a
 * contact, "→ Y1, Y2" for a valve, "→ C1" for a limit switch
 * (docs/electrical.md, "References"); NULL when none. */
static const char *
reference_line (Schematic *s, const HydCircuitComponent *comp)
{
  if (comp->id == NULL)
    return NULL;
  if (s->ref_lines == NULL)
    s->ref_lines = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  gpointer found;
  if (g_hash_table_lookup_extended (s->ref_lines, comp->id, NULL, &found))
    return found;
  const HydComponentType *t = hyd_catalogue_lookup (comp->type);
  HydSymbol *sym = t && s->lib ? hyd_symbol_library_lookup (s->lib, comp->type) : NULL;
  GString *line = NULL;
  for (guint k = 0; t && comp->params && k < t->n_params; k++)
    {
      const HydParamInfo *info = &t->params[k];
      if (!(info->flags & HYD_PARAM_REFERENCE) || _hyd_symbol_shows_variable (sym, info->name))
        continue;
      JsonNode *node = json_object_get_member (comp->params, info->name);
      if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING
          || *json_node_get_string (node) == '\0')
        continue;
      if (line == NULL)
        line = g_string_new ("→ ");
      else
        g_string_append (line, ", ");
      g_string_append (line, json_node_get_string (node));
    }
  char *text = line ? g_string_free (line, FALSE) : NULL;
  g_hash_table_insert (s->ref_lines, comp->id, text);
  return text;
}

/* The lines of a component's label block, id first, then its name and the
 * ids its references name. */
static guint
label_lines (Schematic *s, const HydCircuitComponent *comp, const char *lines[3], double sizes[3],
             gboolean bold[3])
{
  guint n = 0;
  if ((s->opts.flags & HYD_SCHEMATIC_SHOW_IDS) && comp->id)
    {
      lines[n] = comp->id;
      sizes[n] = s->style->label_text_size;
      bold[n++] = TRUE;
    }
  if ((s->opts.flags & HYD_SCHEMATIC_SHOW_NAMES) && comp->label && *comp->label)
    {
      lines[n] = comp->label;
      sizes[n] = s->style->label_text_size * 0.85;
      bold[n++] = FALSE;
    }
  const char *refs = (s->opts.flags & HYD_SCHEMATIC_SHOW_IDS) ? reference_line (s, comp) : NULL;
  if (refs)
    {
      lines[n] = refs;
      sizes[n] = s->style->label_text_size * 0.85;
      bold[n++] = TRUE;
    }
  return n;
}

typedef struct {
  gboolean have;
  double x, y, w, h;   /* the block's box, canvas units */
  double halign;       /* 0 left, 0.5 centred, 1 right */
} LabelBox;

static gboolean
boxes_overlap (double ax0, double ay0, double ax1, double ay1, double bx0, double by0, double bx1, double by1)
{
  return ax0 < bx1 && bx0 < ax1 && ay0 < by1 && by0 < ay1;
}

/* Obstacles for label placement in a uniform grid, so that placing n
 * labels costs O(n) rather than O(n²) box tests on a large circuit. */
#define GRID_CELL 100.0

typedef struct {
  GArray *boxes;        /* HydRect per obstacle */
  GArray *owner;        /* guint per obstacle: component index, or G_MAXUINT */
  GHashTable *cells;    /* cell key → GArray of obstacle ids */
  GArray *stamp;        /* guint per obstacle: last query that saw it */
  guint query;
} Obstacles;

static gint64
cell_key (int cx, int cy)
{
  return (gint64) (((guint64) (guint32) cx << 32) | (guint32) cy);
}

static void
obstacles_add (Obstacles *o, const HydRect *r, guint owner)
{
  guint id = o->boxes->len;
  g_array_append_val (o->boxes, *r);
  g_array_append_val (o->owner, owner);
  guint zero = 0;
  g_array_append_val (o->stamp, zero);
  for (int cx = (int) floor (r->x0 / GRID_CELL); cx <= (int) floor (r->x1 / GRID_CELL); cx++)
    for (int cy = (int) floor (r->y0 / GRID_CELL); cy <= (int) floor (r->y1 / GRID_CELL); cy++)
      {
        gint64 key = cell_key (cx, cy);
        GArray *ids = g_hash_table_lookup (o->cells, &key);
        if (ids == NULL)
          {
            ids = g_array_new (FALSE, FALSE, sizeof (guint));
            g_hash_table_insert (o->cells, g_memdup2 (&key, sizeof key), ids);
          }
        g_array_append_val (ids, id);
      }
}

/* How many obstacles, other than the component's own symbol, a label box
 * at (x, y, w, h) would cover. */
static guint
obstacles_count (Obstacles *o, guint self, double x, double y, double w, double h)
{
  const double pad = 0.2 * HYD_SYMBOL_MODULE;
  double x0 = x - pad, y0 = y - pad, x1 = x + w + pad, y1 = y + h + pad;
  guint n = 0;
  o->query++;
  for (int cx = (int) floor (x0 / GRID_CELL); cx <= (int) floor (x1 / GRID_CELL); cx++)
    for (int cy = (int) floor (y0 / GRID_CELL); cy <= (int) floor (y1 / GRID_CELL); cy++)
      {
        gint64 key = cell_key (cx, cy);
        GArray *ids = g_hash_table_lookup (o->cells, &key);
        for (guint k = 0; ids && k < ids->len; k++)
          {
            guint id = g_array_index (ids, guint, k);
            guint *seen = &g_array_index (o->stamp, guint, id);
            if (*seen == o->query)
              continue;
            *seen = o->query;
            const HydRect *r = &g_array_index (o->boxes, HydRect, id);
            if (g_array_index (o->owner, guint, id) != self && boxes_overlap (x0, y0, x1, y1, r->x0, r->y0, r->x1, r->y1))
              n++;
          }
      }
  return n;
}

static void
obstacles_clear (Obstacles *o)
{
  g_array_unref (o->boxes);
  g_array_unref (o->owner);
  g_array_unref (o->stamp);
  g_hash_table_unref (o->cells);
}

/* Place every label block beside its symbol's rest box, text upright: on
 * the side the symbol file asks for (turned with the pose) when nothing is
 * in the way, else on the first side that is clear (right, up, down, left),
 * never on a side a connected wire leaves from. */
static void
layout_labels (Schematic *s)
{
  if (s->labels)
    return;
  const HydCircuit *circuit = s->circuit;
  guint nc = circuit->components->len;
  g_autoptr (GArray) symbol_boxes = g_array_sized_new (FALSE, TRUE, sizeof (HydRect), nc);
  g_array_set_size (symbol_boxes, nc);
  Obstacles obs = { g_array_new (FALSE, FALSE, sizeof (HydRect)), g_array_new (FALSE, FALSE, sizeof (guint)),
                    g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_array_unref),
                    g_array_new (FALSE, FALSE, sizeof (guint)), 0 };
  for (guint i = 0; i < nc; i++)
    {
      HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      HydSymbol *sym = s->lib ? hyd_symbol_library_lookup (s->lib, comp->type) : NULL;
      HydSymbolPose pose;
      hyd_symbol_pose_from_component (&pose, comp);
      if (sym == NULL)
        continue;
      /* labels stay clear of where the parts go when they move, so an
       * animated spool or rod never runs under a label (the sweep is in
       * proportion to the stroke, so the defaults stand for every cylinder) */
      hyd_symbol_sweep_bounds (sym, &pose, NULL, &g_array_index (symbol_boxes, HydRect, i));
      obstacles_add (&obs, &g_array_index (symbol_boxes, HydRect, i), i);
    }
  for (guint i = 0; i < s->wires->len; i++)
    {
      GArray *pts = g_ptr_array_index (s->wires, i);
      for (guint k = 0; pts && k + 1 < pts->len / 2; k++)
        {
          const double *p = (const double *) pts->data + 2 * k;
          HydRect seg = { MIN (p[0], p[2]) - 0.5, MIN (p[1], p[3]) - 0.5, MAX (p[0], p[2]) + 0.5,
                          MAX (p[1], p[3]) + 0.5 };
          obstacles_add (&obs, &seg, G_MAXUINT);
        }
    }

  s->labels = g_array_sized_new (FALSE, TRUE, sizeof (LabelBox), nc);
  g_array_set_size (s->labels, nc);
  for (guint i = 0; i < nc; i++)
    {
      HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      LabelBox *lb = &g_array_index (s->labels, LabelBox, i);
      const char *lines[3];
      double sizes[3];
      gboolean bold[3];
      guint n = label_lines (s, comp, lines, sizes, bold);
      HydSymbol *sym = s->lib ? hyd_symbol_library_lookup (s->lib, comp->type) : NULL;
      if (n == 0 || sym == NULL)
        continue;
      double w = 0, h = 0;
      for (guint k = 0; k < n; k++)
        {
          double tw, th;
          hyd_symbol_measure_text (s->style, lines[k], sizes[k], bold[k], &tw, &th);
          w = MAX (w, tw);
          h += th * 1.45;
        }
      HydSymbolPose pose;
      hyd_symbol_pose_from_component (&pose, comp);
      const HydRect *b = &g_array_index (symbol_boxes, HydRect, i);
      gboolean blocked[4] = { FALSE, FALSE, FALSE, FALSE };
      for (guint k = 0; k < hyd_symbol_get_n_ports (sym); k++)
        {
          const HydSymbolPort *port = hyd_symbol_get_port (sym, k);
          if (port_wire_count (s, comp, port->name) > 0)
            blocked[hyd_symbol_pose_direction (&pose, port->dir)] = TRUE;
        }
      const HydDirection order[] = { hyd_symbol_pose_direction (&pose, hyd_symbol_get_label_side (sym)),
                                     HYD_DIR_RIGHT, HYD_DIR_UP, HYD_DIR_DOWN, HYD_DIR_LEFT };
      const double gap = 0.6 * HYD_SYMBOL_MODULE;
      guint best = G_MAXUINT;
      for (guint k = 0; k < G_N_ELEMENTS (order); k++)
        {
          double x, y, ha;
          switch (order[k])
            {
            case HYD_DIR_RIGHT:
              x = b->x1 + gap, y = (b->y0 + b->y1) / 2 - h / 2, ha = 0;
              break;
            case HYD_DIR_LEFT:
              x = b->x0 - gap - w, y = (b->y0 + b->y1) / 2 - h / 2, ha = 1;
              break;
            case HYD_DIR_UP:
              x = (b->x0 + b->x1) / 2 - w / 2, y = b->y0 - gap - h, ha = 0.5;
              break;
            default:
              x = (b->x0 + b->x1) / 2 - w / 2, y = b->y1 + gap, ha = 0.5;
              break;
            }
          /* a side a wire leaves from counts as crowded as it can be */
          guint score = blocked[order[k]] ? 1000 : 0;
          score += obstacles_count (&obs, i, x, y, w, h);
          if (score < best)
            {
              best = score;
              *lb = (LabelBox) { TRUE, x, y, w, h, ha };
            }
          if (score == 0)
            break;
        }
      /* later labels keep clear of this one */
      HydRect placed = { lb->x, lb->y, lb->x + lb->w, lb->y + lb->h };
      obstacles_add (&obs, &placed, G_MAXUINT);
    }
  obstacles_clear (&obs);
}

static void
draw_labels (cairo_t *cr, Schematic *s)
{
  layout_labels (s);
  for (guint i = 0; i < s->circuit->components->len; i++)
    {
      HydCircuitComponent *comp = g_ptr_array_index (s->circuit->components, i);
      const LabelBox *lb = &g_array_index (s->labels, LabelBox, i);
      if (!lb->have || !visible (s, lb->x, lb->y, lb->x + lb->w, lb->y + lb->h))
        continue;
      const char *lines[3];
      double sizes[3];
      gboolean bold[3];
      guint n = label_lines (s, comp, lines, sizes, bold);
      double ty = lb->y;
      for (guint k = 0; k < n; k++)
        {
          double tw, th;
          hyd_symbol_measure_text (s->style, lines[k], sizes[k], bold[k], &tw, &th);
          ty += th * 1.45;
          hyd_symbol_draw_text (cr, s->style, lb->x + lb->halign * lb->w, ty - th * 0.45, lines[k], sizes[k],
                                bold[k], lb->halign, 1.0, &s->style->label);
        }
    }
}

/* Where a position along a cylinder's stroke is on its drawing: the edge
 * of the symbol that moves with x (the rod's end) at x = position, and the
 * side of the body a marker stands on (above a horizontal cylinder, left of
 * a vertical one). FALSE when nothing of the drawing moves with x. */
static gboolean
stroke_point (Schematic *s, const HydCircuitComponent *cyl, double position, double *x0, double *y0, double *x1,
              double *y1)
{
  HydSymbol *sym = s->lib ? hyd_symbol_library_lookup (s->lib, cyl->type) : NULL;
  if (sym == NULL || hyd_symbol_find_variable (sym, "x") == NULL)
    return FALSE;
  HydSymbolPose pose;
  hyd_symbol_pose_from_component (&pose, cyl);
  g_autoptr (HydSymbolState) state = hyd_symbol_state_new ();
  hyd_symbol_state_set_component_params (state, cyl);
  double stroke;
  if (!hyd_symbol_state_lookup (state, "stroke", &stroke) || !(stroke > 0))
    stroke = MAX (position, 0.1);
  HydRect rest, full, at;
  hyd_symbol_state_set (state, "x", 0);
  hyd_symbol_state_bounds (sym, &pose, state, &rest);
  hyd_symbol_state_set (state, "x", stroke);
  hyd_symbol_state_bounds (sym, &pose, state, &full);
  hyd_symbol_state_set (state, "x", position);
  hyd_symbol_state_bounds (sym, &pose, state, &at);
  const double eps = 0.5, tick = 1.2 * HYD_SYMBOL_MODULE;
  if (full.x1 > rest.x1 + eps || full.x0 < rest.x0 - eps)
    {
      double x = full.x1 > rest.x1 + eps ? at.x1 : at.x0;
      *x0 = *x1 = x;
      *y0 = rest.y0;
      *y1 = rest.y0 - tick;
      return TRUE;
    }
  if (full.y1 > rest.y1 + eps || full.y0 < rest.y0 - eps)
    {
      double y = full.y1 > rest.y1 + eps ? at.y1 : at.y0;
      *y0 = *y1 = y;
      *x0 = rest.x0;
      *x1 = rest.x0 - tick;
      return TRUE;
    }
  return FALSE;
}

/* A limit switch or sensor that names a cylinder (a reference reading its
 * "x") and has a "position": a tick with its id on the cylinder's drawing
 * where the rod's end is at that position (docs/electrical.md). */
static void
draw_stroke_markers (cairo_t *cr, Schematic *s)
{
  for (guint i = 0; i < s->circuit->components->len; i++)
    {
      const HydCircuitComponent *comp = g_ptr_array_index (s->circuit->components, i);
      const HydComponentType *t = hyd_catalogue_lookup (comp->type);
      int pos_index = t ? hyd_component_type_find_param (t, "position") : -1;
      for (guint k = 0; pos_index >= 0 && comp->params && comp->id && k < t->n_params; k++)
        {
          const HydParamInfo *info = &t->params[k];
          if (!(info->flags & HYD_PARAM_REFERENCE) || g_strcmp0 (info->ref_var, "x") != 0)
            continue;
          JsonNode *node = json_object_get_member (comp->params, info->name);
          if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
            continue;
          const HydCircuitComponent *cyl = g_hash_table_lookup (s->components, json_node_get_string (node));
          if (cyl == NULL)
            continue;
          g_autoptr (HydSymbolState) params = hyd_symbol_state_new ();
          hyd_symbol_state_set_component_params (params, comp);
          double position, x0, y0, x1, y1;
          if (!hyd_symbol_state_lookup (params, "position", &position)
              || !stroke_point (s, cyl, position, &x0, &y0, &x1, &y1))
            continue;
          if (!visible (s, MIN (x0, x1) - 30, MIN (y0, y1) - 30, MAX (x0, x1) + 30, MAX (y0, y1) + 30))
            continue;
          double unit = device_unit (cr);
          cairo_save (cr);
          cairo_new_path (cr);
          cairo_move_to (cr, x0, y0);
          cairo_line_to (cr, x1, y1);
          cairo_identity_matrix (cr);
          cairo_set_line_width (cr, _hyd_symbol_device_line_width (s->style, 1.0, unit, FALSE));
          hyd_rgba_set_source (cr, &s->style->label);
          cairo_stroke (cr);
          cairo_restore (cr);
          /* the id beyond the tick's free end */
          gboolean vertical_tick = x0 == x1;
          hyd_symbol_draw_text (cr, s->style, x1, y1, comp->id, s->style->label_text_size * 0.85, TRUE,
                                vertical_tick ? 0.5 : 1.0, vertical_tick ? 1.0 : 0.5, &s->style->label);
        }
    }
}

void
hyd_schematic_render (cairo_t *cr, const HydCircuit *circuit, const HydSchematicOptions *options)
{
  g_return_if_fail (cr != NULL && circuit != NULL);
  Schematic s;
  schematic_init (&s, circuit, options);
  /* at canvas zooms most of a large circuit is off screen: skip it */
  cairo_clip_extents (cr, &s.clip.x0, &s.clip.y0, &s.clip.x1, &s.clip.y1);
  cairo_save (cr);
  if (s.opts.flags & HYD_SCHEMATIC_BACKGROUND)
    {
      cairo_save (cr);
      hyd_rgba_set_source (cr, &s.style->background);
      cairo_paint (cr);
      cairo_restore (cr);
    }
  if (s.opts.layers & HYD_SCHEMATIC_LAYER_WIRES)
    draw_wires (cr, &s);
  if (s.opts.layers & HYD_SCHEMATIC_LAYER_JUNCTIONS)
    draw_junctions (cr, &s);
  if (s.opts.layers & HYD_SCHEMATIC_LAYER_SYMBOLS)
    {
      draw_symbols (cr, &s);
      if (s.opts.flags & HYD_SCHEMATIC_FREE_PORT_MARKERS)
        draw_free_ports (cr, &s);
    }
  if (s.opts.layers & HYD_SCHEMATIC_LAYER_LABELS)
    {
      draw_labels (cr, &s);
      if (s.opts.flags & HYD_SCHEMATIC_SHOW_IDS)
        draw_stroke_markers (cr, &s);
    }
  cairo_restore (cr);
  schematic_clear (&s);
}

static void
rect_add (HydRect *r, gboolean *have, double x0, double y0, double x1, double y1)
{
  if (!*have)
    {
      *r = (HydRect) { x0, y0, x1, y1 };
      *have = TRUE;
      return;
    }
  r->x0 = MIN (r->x0, x0);
  r->y0 = MIN (r->y0, y0);
  r->x1 = MAX (r->x1, x1);
  r->y1 = MAX (r->y1, y1);
}

void
hyd_schematic_get_bounds (const HydCircuit *circuit, const HydSchematicOptions *options, HydRect *bounds)
{
  Schematic s;
  schematic_init (&s, circuit, options);
  gboolean have = FALSE;
  const double M = HYD_SYMBOL_MODULE;
  g_autoptr (HydSymbolState) state = hyd_symbol_state_new ();
  for (guint i = 0; i < circuit->components->len; i++)
    {
      HydCircuitComponent *comp = g_ptr_array_index (circuit->components, i);
      HydSymbol *sym = s.lib ? hyd_symbol_library_lookup (s.lib, comp->type) : NULL;
      if (sym == NULL)
        {
          rect_add (bounds, &have, comp->x - 2 * M, comp->y - 2 * M, comp->x + 2 * M, comp->y + 3.5 * M);
          continue;
        }
      HydSymbolPose pose;
      hyd_symbol_pose_from_component (&pose, comp);
      HydRect b;
      component_state (&s, comp, state);
      hyd_symbol_state_bounds (sym, &pose, state, &b);
      rect_add (bounds, &have, b.x0, b.y0, b.x1, b.y1);
      if (s.opts.layers & HYD_SCHEMATIC_LAYER_LABELS)
        {
          layout_labels (&s);
          const LabelBox *lb = &g_array_index (s.labels, LabelBox, i);
          if (lb->have)
            rect_add (bounds, &have, lb->x, lb->y, lb->x + lb->w, lb->y + lb->h);
        }
    }
  for (guint i = 0; i < s.wires->len; i++)
    {
      GArray *pts = g_ptr_array_index (s.wires, i);
      for (guint k = 0; pts && k < pts->len / 2; k++)
        {
          double x = g_array_index (pts, double, 2 * k), y = g_array_index (pts, double, 2 * k + 1);
          rect_add (bounds, &have, x - M / 2, y - M / 2, x + M / 2, y + M / 2);
        }
    }
  for (guint i = 0; i < circuit->junctions->len; i++)
    {
      HydCircuitJunction *j = g_ptr_array_index (circuit->junctions, i);
      rect_add (bounds, &have, j->x - M / 2, j->y - M / 2, j->x + M / 2, j->y + M / 2);
    }
  if (!have)
    *bounds = (HydRect) { 0, 0, 10 * M, 10 * M };
  schematic_clear (&s);
}

/* ---------------------------------------------------------------------------
 * Export
 * ------------------------------------------------------------------------- */

typedef enum {
  EXPORT_SVG,
  EXPORT_PDF,
  EXPORT_PNG,
} ExportFormat;

/* The file is made in memory and written as a circuit is saved
 * (hyd_file_replace_contents): a reader never sees a part of it, and a
 * failed export keeps the old file. */
static cairo_status_t
append_bytes (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

gboolean
hyd_schematic_export (const HydCircuit *circuit, const char *path, double scale,
                      const HydSchematicOptions *options, GError **error)
{
  g_return_val_if_fail (circuit != NULL && path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_autofree char *lower = g_ascii_strdown (path, -1);
  ExportFormat fmt;
  if (g_str_has_suffix (lower, ".svg"))
    fmt = EXPORT_SVG;
  else if (g_str_has_suffix (lower, ".pdf"))
    fmt = EXPORT_PDF;
  else if (g_str_has_suffix (lower, ".png"))
    fmt = EXPORT_PNG;
  else
    {
      g_set_error (error, HYD_SYMBOL_ERROR, HYD_SYMBOL_ERROR_EXPORT,
                   "%s: the file name must end in .svg, .pdf or .png", path);
      return FALSE;
    }
  if (!(scale > 0 && scale <= 100))
    {
      g_set_error (error, HYD_SYMBOL_ERROR, HYD_SYMBOL_ERROR_EXPORT, "scale must be in (0, 100], not %g", scale);
      return FALSE;
    }

  HydSchematicOptions opts;
  if (options)
    opts = *options;
  else
    hyd_schematic_options_init (&opts);
  HydSymbolStyle style;
  if (opts.style == NULL)
    {
      if (fmt == EXPORT_PNG)
        hyd_symbol_style_init_light (&style);
      else
        hyd_symbol_style_init_print (&style);
      opts.style = &style;
    }
  if (opts.library == NULL)
    {
      opts.library = hyd_symbol_library_get_default (error);
      if (opts.library == NULL)
        return FALSE;
    }
  opts.flags |= HYD_SCHEMATIC_BACKGROUND;

  HydRect b;
  hyd_schematic_get_bounds (circuit, &opts, &b);
  double margin = (opts.margin >= 0 ? opts.margin : 2.0) * HYD_SYMBOL_MODULE;
  b.x0 -= margin, b.y0 -= margin, b.x1 += margin, b.y1 += margin;
  double w = ceil ((b.x1 - b.x0) * scale), h = ceil ((b.y1 - b.y0) * scale);
  if (w > 32000 || h > 32000)
    {
      g_set_error (error, HYD_SYMBOL_ERROR, HYD_SYMBOL_ERROR_EXPORT,
                   "%s: the drawing would be %.0f × %.0f, too large; use a smaller scale", path, w, h);
      return FALSE;
    }

  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  cairo_surface_t *surface;
  switch (fmt)
    {
    case EXPORT_SVG:
      surface = cairo_svg_surface_create_for_stream (append_bytes, bytes, w, h);
      break;
    case EXPORT_PDF:
      surface = cairo_pdf_surface_create_for_stream (append_bytes, bytes, w, h);
      if (circuit->title)
        cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, circuit->title);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Bramah");
      break;
    default:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) w, (int) h);
      break;
    }
  cairo_t *cr = cairo_create (surface);
  cairo_scale (cr, scale, scale);
  cairo_translate (cr, -b.x0, -b.y0);
  hyd_schematic_render (cr, circuit, &opts);
  cairo_status_t status = cairo_status (cr);
  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS)
    {
      if (fmt == EXPORT_PNG)
        status = cairo_surface_write_to_png_stream (surface, append_bytes, bytes);
      else
        {
          cairo_surface_finish (surface);
          status = cairo_surface_status (surface);
        }
    }
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, HYD_SYMBOL_ERROR, HYD_SYMBOL_ERROR_EXPORT, "%s: %s", path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  g_autoptr (GError) inner = NULL;
  if (!hyd_file_replace_contents (path, (const char *) bytes->data, bytes->len, 0, &inner))
    {
      int e = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: %s", path, g_strerror (e));
      return FALSE;
    }
  return TRUE;
}
