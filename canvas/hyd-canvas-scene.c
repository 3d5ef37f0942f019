/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-canvas-scene.c — the canvas's geometry of a circuit: poses, bounds,
 * wire polylines, wire-end counts and net domains, and the questions the
 * editor asks of them (hit tests, rubber bands, checks, probes).
 *
 * Geometry comes from symbols/: port positions and outward directions,
 * symbol hit tests and bounds (hyd-symbol*.h) and the orthogonal wire route
 * (hyd_schematic_route). This file only indexes it. */
#include "hyd-canvas-scene.h"
#include "hyd-circuit-check.h"
#include "hyd-schematic.h"

#include <string.h>

struct _HydCanvasScene {
  const HydCircuit *circuit;
  HydSymbolLibrary *library;
  GArray *components;        /* HydCanvasSceneComponent */
  GArray *wires;             /* HydCanvasSceneWire */
  GHashTable *component_ids; /* id → index + 1 */
  GHashTable *junction_ids;  /* id → HydCircuitJunction* */
  GHashTable *wire_ends;     /* "C.P" or junction id → count */
};

static void
wire_clear (gpointer data)
{
  HydCanvasSceneWire *w = data;
  g_clear_pointer (&w->points, g_array_unref);
}

/* A component whose type has no symbol is drawn as a 4 M box around its
 * position (hyd-schematic.c): hit and select that box. */
static void
unknown_bounds (const HydCircuitComponent *c, HydRect *b)
{
  const double M = HYD_SYMBOL_MODULE;
  *b = (HydRect) { c->x - 2 * M, c->y - 2 * M, c->x + 2 * M, c->y + 3.5 * M };
}

HydCanvasScene *
hyd_canvas_scene_new (const HydCircuit *circuit, HydSymbolLibrary *library)
{
  g_return_val_if_fail (circuit != NULL, NULL);
  HydCanvasScene *s = g_new0 (HydCanvasScene, 1);
  s->circuit = circuit;
  s->library = library;
  s->components = g_array_sized_new (FALSE, TRUE, sizeof (HydCanvasSceneComponent), circuit->components->len);
  s->wires = g_array_sized_new (FALSE, TRUE, sizeof (HydCanvasSceneWire), circuit->connections->len);
  g_array_set_clear_func (s->wires, wire_clear);
  s->component_ids = g_hash_table_new (g_str_hash, g_str_equal);
  s->junction_ids = g_hash_table_new (g_str_hash, g_str_equal);
  s->wire_ends = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < circuit->components->len; i++)
    {
      HydCircuitComponent *c = g_ptr_array_index (circuit->components, i);
      HydCanvasSceneComponent sc = { 0 };
      sc.comp = c;
      sc.type = c->type ? hyd_catalogue_lookup (c->type) : NULL;
      sc.symbol = library && c->type ? hyd_symbol_library_lookup (library, c->type) : NULL;
      hyd_symbol_pose_from_component (&sc.pose, c);
      if (sc.symbol)
        hyd_symbol_placed_bounds (sc.symbol, &sc.pose, &sc.bounds);
      else
        unknown_bounds (c, &sc.bounds);
      g_array_append_val (s->components, sc);
      if (c->id)
        g_hash_table_insert (s->component_ids, c->id, GUINT_TO_POINTER (i + 1));
    }
  for (guint i = 0; i < circuit->junctions->len; i++)
    {
      HydCircuitJunction *j = g_ptr_array_index (circuit->junctions, i);
      if (j->id)
        g_hash_table_insert (s->junction_ids, j->id, j);
    }
  for (guint i = 0; i < circuit->connections->len; i++)
    {
      HydCircuitConnection *cn = g_ptr_array_index (circuit->connections, i);
      HydCanvasSceneWire w = { cn, NULL, { 0, 0, 0, 0 } };
      const char *ends[] = { cn->from, cn->to };
      for (guint k = 0; k < 2; k++)
        if (ends[k])
          g_hash_table_insert (s->wire_ends, (gpointer) ends[k],
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (s->wire_ends, ends[k])) + 1));
      double x0, y0, x1, y1;
      HydDirection d0 = HYD_DIR_UP, d1 = HYD_DIR_UP;
      gboolean h0, h1;
      if (cn->from && cn->to && hyd_canvas_scene_endpoint (s, cn->from, &x0, &y0, &d0, &h0)
          && hyd_canvas_scene_endpoint (s, cn->to, &x1, &y1, &d1, &h1))
        {
          w.points = g_array_new (FALSE, FALSE, sizeof (double));
          guint n_via = cn->route ? cn->route->len / 2 : 0;
          hyd_schematic_route (x0, y0, h0, d0, n_via ? (const double *) cn->route->data : NULL, n_via, x1, y1, h1,
                               d1, w.points);
          const double *p = (const double *) w.points->data;
          w.bounds = (HydRect) { G_MAXDOUBLE, G_MAXDOUBLE, -G_MAXDOUBLE, -G_MAXDOUBLE };
          for (guint k = 0; k < w.points->len / 2; k++)
            {
              w.bounds.x0 = MIN (w.bounds.x0, p[2 * k]);
              w.bounds.y0 = MIN (w.bounds.y0, p[2 * k + 1]);
              w.bounds.x1 = MAX (w.bounds.x1, p[2 * k]);
              w.bounds.y1 = MAX (w.bounds.y1, p[2 * k + 1]);
            }
        }
      g_array_append_val (s->wires, w);
    }
  return s;
}

void
hyd_canvas_scene_free (HydCanvasScene *scene)
{
  if (scene == NULL)
    return;
  g_array_unref (scene->components);
  g_array_unref (scene->wires);
  g_hash_table_unref (scene->component_ids);
  g_hash_table_unref (scene->junction_ids);
  g_hash_table_unref (scene->wire_ends);
  g_free (scene);
}

const HydCircuit *
hyd_canvas_scene_get_circuit (const HydCanvasScene *scene)
{
  return scene->circuit;
}

HydSymbolLibrary *
hyd_canvas_scene_get_library (const HydCanvasScene *scene)
{
  return scene->library;
}

guint
hyd_canvas_scene_get_n_components (const HydCanvasScene *scene)
{
  return scene->components->len;
}

const HydCanvasSceneComponent *
hyd_canvas_scene_get_component (const HydCanvasScene *scene, guint index)
{
  g_return_val_if_fail (index < scene->components->len, NULL);
  return &g_array_index (scene->components, HydCanvasSceneComponent, index);
}

const HydCanvasSceneComponent *
hyd_canvas_scene_find_component (const HydCanvasScene *scene, const char *id)
{
  guint k = id ? GPOINTER_TO_UINT (g_hash_table_lookup (scene->component_ids, id)) : 0;
  return k ? &g_array_index (scene->components, HydCanvasSceneComponent, k - 1) : NULL;
}

guint
hyd_canvas_scene_get_n_wires (const HydCanvasScene *scene)
{
  return scene->wires->len;
}

const HydCanvasSceneWire *
hyd_canvas_scene_get_wire (const HydCanvasScene *scene, guint index)
{
  g_return_val_if_fail (index < scene->wires->len, NULL);
  return &g_array_index (scene->wires, HydCanvasSceneWire, index);
}

const HydCircuitJunction *
hyd_canvas_scene_find_junction (const HydCanvasScene *scene, const char *id)
{
  return id ? g_hash_table_lookup (scene->junction_ids, id) : NULL;
}

guint
hyd_canvas_scene_wire_count (const HydCanvasScene *scene, const char *ref)
{
  return ref ? GPOINTER_TO_UINT (g_hash_table_lookup (scene->wire_ends, ref)) : 0;
}

/* Split "C1.A" without allocating; FALSE for a junction reference. */
static gboolean
split_ref (const char *ref, char *id, gsize id_size, const char **port)
{
  const char *dot = strchr (ref, '.');
  if (dot == NULL)
    return FALSE;
  gsize len = (gsize) (dot - ref);
  if (len >= id_size)
    len = id_size - 1;
  memcpy (id, ref, len);
  id[len] = '\0';
  *port = dot + 1;
  return TRUE;
}

gboolean
hyd_canvas_scene_endpoint (const HydCanvasScene *scene, const char *ref, double *x, double *y, HydDirection *dir,
                           gboolean *has_dir)
{
  char id[128];
  const char *port;
  *has_dir = FALSE;
  if (ref == NULL)
    return FALSE;
  if (!split_ref (ref, id, sizeof id, &port))
    {
      const HydCircuitJunction *j = hyd_canvas_scene_find_junction (scene, ref);
      if (j == NULL)
        return FALSE;
      *x = j->x;
      *y = j->y;
      return TRUE;
    }
  const HydCanvasSceneComponent *c = hyd_canvas_scene_find_component (scene, id);
  if (c == NULL)
    return FALSE;
  if (c->symbol && hyd_symbol_port_world_position (c->symbol, &c->pose, port, x, y, dir))
    {
      *has_dir = TRUE;
      return TRUE;
    }
  /* a type without a symbol: its wires meet at its position (as drawn) */
  *x = c->comp->x;
  *y = c->comp->y;
  return TRUE;
}

int
hyd_canvas_scene_port_domain (const HydCanvasScene *scene, const HydCanvasSceneComponent *c, const char *port)
{
  for (guint k = 0; c && c->type && port && k < c->type->n_ports; k++)
    if (strcmp (c->type->ports[k].name, port) == 0)
      return (int) c->type->ports[k].domain;
  return -1;
}

/* Breadth-first through wires and junctions to the first port. */
static int
net_domain (const HydCanvasScene *scene, const char *start)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GQueue) queue = g_queue_new ();
  g_queue_push_tail (queue, (gpointer) start);
  g_hash_table_add (seen, (gpointer) start);
  while (!g_queue_is_empty (queue))
    {
      const char *ref = g_queue_pop_head (queue);
      char id[128];
      const char *port;
      if (split_ref (ref, id, sizeof id, &port))
        {
          int d = hyd_canvas_scene_port_domain (scene, hyd_canvas_scene_find_component (scene, id), port);
          if (d >= 0)
            return d;
          continue;
        }
      for (guint i = 0; i < scene->wires->len; i++)
        {
          const HydCircuitConnection *cn = g_array_index (scene->wires, HydCanvasSceneWire, i).conn;
          const char *other = NULL;
          if (cn->from && cn->to && strcmp (cn->from, ref) == 0)
            other = cn->to;
          else if (cn->from && cn->to && strcmp (cn->to, ref) == 0)
            other = cn->from;
          if (other && !g_hash_table_contains (seen, other))
            {
              g_hash_table_add (seen, (gpointer) other);
              g_queue_push_tail (queue, (gpointer) other);
            }
        }
    }
  return -1;
}

int
hyd_canvas_scene_ref_domain (const HydCanvasScene *scene, const char *ref)
{
  return ref ? net_domain (scene, ref) : -1;
}

int
hyd_canvas_scene_wire_domain (const HydCanvasScene *scene, guint wire)
{
  if (wire >= scene->wires->len)
    return -1;
  const HydCircuitConnection *cn = g_array_index (scene->wires, HydCanvasSceneWire, wire).conn;
  int d = hyd_canvas_scene_ref_domain (scene, cn->from);
  return d >= 0 ? d : hyd_canvas_scene_ref_domain (scene, cn->to);
}

static void
rect_union (HydRect *r, gboolean *have, const HydRect *b)
{
  if (!*have)
    {
      *r = *b;
      *have = TRUE;
      return;
    }
  r->x0 = MIN (r->x0, b->x0);
  r->y0 = MIN (r->y0, b->y0);
  r->x1 = MAX (r->x1, b->x1);
  r->y1 = MAX (r->y1, b->y1);
}

gboolean
hyd_canvas_scene_get_bounds (const HydCanvasScene *scene, HydRect *bounds)
{
  gboolean have = FALSE;
  for (guint i = 0; i < scene->components->len; i++)
    rect_union (bounds, &have, &g_array_index (scene->components, HydCanvasSceneComponent, i).bounds);
  for (guint i = 0; i < scene->wires->len; i++)
    {
      const HydCanvasSceneWire *w = &g_array_index (scene->wires, HydCanvasSceneWire, i);
      if (w->points)
        rect_union (bounds, &have, &w->bounds);
    }
  for (guint i = 0; i < scene->circuit->junctions->len; i++)
    {
      const HydCircuitJunction *j = g_ptr_array_index (scene->circuit->junctions, i);
      HydRect b = { j->x, j->y, j->x, j->y };
      rect_union (bounds, &have, &b);
    }
  return have;
}

gboolean
hyd_canvas_scene_items_bounds (const HydCanvasScene *scene, const char *const *ids, HydRect *bounds)
{
  gboolean have = FALSE;
  for (guint k = 0; ids && ids[k]; k++)
    {
      const HydCanvasSceneComponent *c = hyd_canvas_scene_find_component (scene, ids[k]);
      if (c)
        rect_union (bounds, &have, &c->bounds);
      const HydCircuitJunction *j = hyd_canvas_scene_find_junction (scene, ids[k]);
      if (j)
        {
          HydRect b = { j->x, j->y, j->x, j->y };
          rect_union (bounds, &have, &b);
        }
    }
  return have;
}

/* ---------------------------------------------------------------------------
 * Hit testing
 * ------------------------------------------------------------------------- */

double
hyd_canvas_segment_distance (double ax, double ay, double bx, double by, double px, double py, double *qx,
                             double *qy)
{
  double dx = bx - ax, dy = by - ay;
  double len2 = dx * dx + dy * dy;
  double u = len2 > 0 ? CLAMP (((px - ax) * dx + (py - ay) * dy) / len2, 0.0, 1.0) : 0.0;
  double x = ax + u * dx, y = ay + u * dy;
  if (qx)
    *qx = x;
  if (qy)
    *qy = y;
  return hypot (px - x, py - y);
}

static gboolean
in_rect (const HydRect *r, double x, double y, double margin)
{
  return x >= r->x0 - margin && x <= r->x1 + margin && y >= r->y0 - margin && y <= r->y1 + margin;
}

gboolean
hyd_canvas_scene_hit_wire (const HydCanvasScene *scene, double x, double y, double tol, HydCanvasHit *hit)
{
  double best = tol;
  gboolean found = FALSE;
  for (guint i = scene->wires->len; i-- > 0;)
    {
      const HydCanvasSceneWire *w = &g_array_index (scene->wires, HydCanvasSceneWire, i);
      if (w->points == NULL || !in_rect (&w->bounds, x, y, tol))
        continue;
      const double *p = (const double *) w->points->data;
      for (guint k = 0; k + 1 < w->points->len / 2; k++)
        {
          double qx, qy;
          double d = hyd_canvas_segment_distance (p[2 * k], p[2 * k + 1], p[2 * k + 2], p[2 * k + 3], x, y, &qx, &qy);
          if (d <= best)
            {
              best = d;
              found = TRUE;
              *hit = (HydCanvasHit) { .kind = HYD_CANVAS_HIT_WIRE, .wire = i, .segment = k, .x = qx, .y = qy };
            }
        }
    }
  return found;
}

HydCanvasHitKind
hyd_canvas_scene_hit (const HydCanvasScene *scene, double x, double y, double pixel, guint kinds, HydCanvasHit *hit)
{
  const double M = HYD_SYMBOL_MODULE;
  HydCanvasHit dummy;
  if (hit == NULL)
    hit = &dummy;
  *hit = (HydCanvasHit) { .kind = HYD_CANVAS_HIT_NONE, .x = x, .y = y };
  if (!(pixel > 0) || !isfinite (x) || !isfinite (y))
    pixel = 1.0;

  if (kinds & HYD_CANVAS_HIT_PORT)
    {
      /* the nearest port within the capture radius, never under 5 pixels */
      double radius = MAX (HYD_CANVAS_PORT_RADIUS * M, 5 * pixel);
      double best = radius;
      for (guint i = scene->components->len; i-- > 0;)
        {
          const HydCanvasSceneComponent *c = &g_array_index (scene->components, HydCanvasSceneComponent, i);
          if (c->symbol == NULL || !in_rect (&c->bounds, x, y, radius))
            continue;
          for (guint k = 0; k < hyd_symbol_get_n_ports (c->symbol); k++)
            {
              const HydSymbolPort *p = hyd_symbol_get_port (c->symbol, k);
              double px, py;
              HydDirection d;
              if (!hyd_symbol_port_world_position (c->symbol, &c->pose, p->name, &px, &py, &d))
                continue;
              double dist = hypot (px - x, py - y);
              if (dist <= best)
                {
                  best = dist;
                  *hit = (HydCanvasHit) { .kind = HYD_CANVAS_HIT_PORT, .id = c->comp->id, .port = p->name,
                                          .x = px, .y = py, .dir = d, .has_dir = TRUE };
                }
            }
        }
      if (hit->kind)
        return hit->kind;
    }

  if (kinds & HYD_CANVAS_HIT_JUNCTION)
    {
      double radius = MAX (HYD_CANVAS_PORT_RADIUS * M, 5 * pixel);
      double best = radius;
      for (guint i = scene->circuit->junctions->len; i-- > 0;)
        {
          const HydCircuitJunction *j = g_ptr_array_index (scene->circuit->junctions, i);
          double dist = hypot (j->x - x, j->y - y);
          if (dist <= best)
            {
              best = dist;
              *hit = (HydCanvasHit) { .kind = HYD_CANVAS_HIT_JUNCTION, .id = j->id, .x = j->x, .y = j->y };
            }
        }
      if (hit->kind)
        return hit->kind;
    }

  double body_tol = MAX (HYD_CANVAS_BODY_TOLERANCE, 3 * pixel / M);
  if (kinds & HYD_CANVAS_HIT_COMPONENT)
    {
      /* the topmost drawing (drawn last) */
      for (guint i = scene->components->len; i-- > 0;)
        {
          const HydCanvasSceneComponent *c = &g_array_index (scene->components, HydCanvasSceneComponent, i);
          if (!in_rect (&c->bounds, x, y, body_tol * M))
            continue;
          gboolean on = c->symbol ? hyd_symbol_hit_test (c->symbol, &c->pose, NULL, x, y, body_tol)
                                  : in_rect (&c->bounds, x, y, 0);
          if (on)
            {
              *hit = (HydCanvasHit) { .kind = HYD_CANVAS_HIT_COMPONENT, .id = c->comp->id, .x = c->comp->x,
                                      .y = c->comp->y };
              return hit->kind;
            }
        }
    }

  if ((kinds & HYD_CANVAS_HIT_WIRE)
      && hyd_canvas_scene_hit_wire (scene, x, y, MAX (HYD_CANVAS_WIRE_TOLERANCE * M, 4 * pixel), hit))
    return hit->kind;

  if (kinds & HYD_CANVAS_HIT_COMPONENT)
    {
      /* inside a symbol's box but off its lines (the inside of a tank, the
       * space between a valve's springs): the smallest box wins */
      double best_area = G_MAXDOUBLE;
      for (guint i = scene->components->len; i-- > 0;)
        {
          const HydCanvasSceneComponent *c = &g_array_index (scene->components, HydCanvasSceneComponent, i);
          if (!in_rect (&c->bounds, x, y, 0))
            continue;
          double area = (c->bounds.x1 - c->bounds.x0) * (c->bounds.y1 - c->bounds.y0);
          if (area < best_area)
            {
              best_area = area;
              *hit = (HydCanvasHit) { .kind = HYD_CANVAS_HIT_COMPONENT, .id = c->comp->id, .x = c->comp->x,
                                      .y = c->comp->y };
            }
        }
    }
  return hit->kind;
}

static gboolean
rect_inside (const HydRect *inner, const HydRect *outer)
{
  return inner->x0 >= outer->x0 && inner->x1 <= outer->x1 && inner->y0 >= outer->y0 && inner->y1 <= outer->y1;
}

static gboolean
rects_touch (const HydRect *a, const HydRect *b)
{
  return a->x0 <= b->x1 && a->x1 >= b->x0 && a->y0 <= b->y1 && a->y1 >= b->y0;
}

/* Does an axis-aligned segment touch a rectangle? */
static gboolean
segment_touches (double ax, double ay, double bx, double by, const HydRect *r)
{
  HydRect s = { MIN (ax, bx), MIN (ay, by), MAX (ax, bx), MAX (ay, by) };
  return rects_touch (&s, r);
}

void
hyd_canvas_scene_items_in_rect (const HydCanvasScene *scene, const HydRect *rect_in, gboolean crossing,
                                GPtrArray *ids, GArray *wires)
{
  HydRect r = { MIN (rect_in->x0, rect_in->x1), MIN (rect_in->y0, rect_in->y1), MAX (rect_in->x0, rect_in->x1),
                MAX (rect_in->y0, rect_in->y1) };
  for (guint i = 0; i < scene->components->len; i++)
    {
      const HydCanvasSceneComponent *c = &g_array_index (scene->components, HydCanvasSceneComponent, i);
      if (crossing ? rects_touch (&c->bounds, &r) : rect_inside (&c->bounds, &r))
        g_ptr_array_add (ids, c->comp->id);
    }
  for (guint i = 0; i < scene->circuit->junctions->len; i++)
    {
      const HydCircuitJunction *j = g_ptr_array_index (scene->circuit->junctions, i);
      if (in_rect (&r, j->x, j->y, 0))
        g_ptr_array_add (ids, j->id);
    }
  for (guint i = 0; wires && i < scene->wires->len; i++)
    {
      const HydCanvasSceneWire *w = &g_array_index (scene->wires, HydCanvasSceneWire, i);
      if (w->points == NULL)
        continue;
      gboolean take = FALSE;
      if (!crossing)
        take = rect_inside (&w->bounds, &r);
      else if (rects_touch (&w->bounds, &r))
        {
          const double *p = (const double *) w->points->data;
          for (guint k = 0; !take && k + 1 < w->points->len / 2; k++)
            take = segment_touches (p[2 * k], p[2 * k + 1], p[2 * k + 2], p[2 * k + 3], &r);
        }
      if (take)
        g_array_append_val (wires, i);
    }
}

/* ---------------------------------------------------------------------------
 * Checks and probes
 * ------------------------------------------------------------------------- */

GStrv
hyd_canvas_scene_check (const HydCanvasScene *scene)
{
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  guint n = 0;
  /* unconnected required ports: the engine's own check, the one the
   * compiler refuses a circuit with (hyd-circuit-check.h) */
  g_autoptr (GPtrArray) unwired = hyd_circuit_unconnected_ports (scene->circuit);
  for (guint i = 0; i < unwired->len; i++)
    {
      const HydDiagnostic *d = g_ptr_array_index (unwired, i);
      g_autofree char *ref = g_strdup_printf ("%s.%s", d->component, d->port);
      g_strv_builder_add (b, ref);
      n++;
    }
  for (guint i = 0; i < scene->circuit->junctions->len; i++)
    {
      const HydCircuitJunction *j = g_ptr_array_index (scene->circuit->junctions, i);
      if (j->id && hyd_canvas_scene_wire_count (scene, j->id) < 2)
        {
          g_strv_builder_add (b, j->id);
          n++;
        }
    }
  for (guint i = 0; i < scene->wires->len; i++)
    {
      const HydCanvasSceneWire *w = &g_array_index (scene->wires, HydCanvasSceneWire, i);
      const char *ends[] = { w->conn->from, w->conn->to };
      for (guint k = 0; k < 2; k++)
        {
          double x, y;
          HydDirection d;
          gboolean has_dir;
          if (!hyd_canvas_scene_endpoint (scene, ends[k], &x, &y, &d, &has_dir))
            {
              g_strv_builder_add (b, ends[k] ? ends[k] : "?");
              n++;
            }
        }
    }
  return n ? g_strv_builder_end (b) : NULL;
}

static gboolean
has_name (const HydVarInfo *vars, guint n, const char *name)
{
  for (guint i = 0; i < n; i++)
    if (vars[i].name && strcmp (vars[i].name, name) == 0)
      return TRUE;
  return FALSE;
}

char *
hyd_canvas_scene_probe_variable (const HydCanvasScene *scene, const char *component_id)
{
  const HydCanvasSceneComponent *c = hyd_canvas_scene_find_component (scene, component_id);
  if (c == NULL)
    return NULL;
  if (c->type)
    {
      /* the states and outputs this component's model has with its parameters */
      HydFluid fluid;
      if (!hyd_circuit_get_fluid (scene->circuit, &fluid, NULL))
        hyd_fluid_init_default (&fluid);
      HydComp *comp = hyd_comp_new (c->type, c->comp->id, &fluid);
      gboolean ok = hyd_circuit_component_resolve_params (c->comp, &fluid, comp->par, NULL, NULL);
      if (ok && c->type->validate)
        ok = c->type->validate (comp, NULL);
      if (ok)
        ok = c->type->setup (comp, NULL);
      /* what a part does: a rod's position, a shaft's speed, a spool, an
       * opening, a metered flow */
      static const char *const preferred[] = { "x", "w", "spool", "opening", "q" };
      char *found = NULL;
      for (guint k = 0; ok && found == NULL && k < G_N_ELEMENTS (preferred); k++)
        if (has_name (comp->states, comp->n_states, preferred[k])
            || has_name (comp->outputs, comp->n_outputs, preferred[k]))
          found = g_strdup_printf ("%s.%s", c->comp->id, preferred[k]);
      /* else its first discrete state: a switch's actuated, a coil's
       * energised, a lamp's lit (docs/electrical.md) */
      if (ok && found == NULL && comp->n_dstates > 0)
        found = g_strdup_printf ("%s.%s", c->comp->id, comp->dstates[0].name);
      hyd_comp_free (comp);
      if (found)
        return found;
      for (guint k = 0; k < c->type->n_ports; k++)
        if (c->type->ports[k].domain == HYD_DOMAIN_HYDRAULIC)
          return g_strdup_printf ("%s.%s.p", c->comp->id, c->type->ports[k].name);
    }
  if (c->symbol && hyd_symbol_get_n_ports (c->symbol) > 0)
    return g_strdup_printf ("%s.%s.p", c->comp->id, hyd_symbol_get_port (c->symbol, 0)->name);
  return NULL;
}

/* The first component port reached from a reference through wires. */
static const char *
net_port (const HydCanvasScene *scene, const char *start)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GQueue) queue = g_queue_new ();
  g_queue_push_tail (queue, (gpointer) start);
  g_hash_table_add (seen, (gpointer) start);
  while (!g_queue_is_empty (queue))
    {
      const char *ref = g_queue_pop_head (queue);
      if (strchr (ref, '.'))
        return ref;
      for (guint i = 0; i < scene->wires->len; i++)
        {
          const HydCircuitConnection *cn = g_array_index (scene->wires, HydCanvasSceneWire, i).conn;
          const char *other = NULL;
          if (cn->from && cn->to && strcmp (cn->from, ref) == 0)
            other = cn->to;
          else if (cn->from && cn->to && strcmp (cn->to, ref) == 0)
            other = cn->from;
          if (other && !g_hash_table_contains (seen, other))
            {
              g_hash_table_add (seen, (gpointer) other);
              g_queue_push_tail (queue, (gpointer) other);
            }
        }
    }
  return NULL;
}

char *
hyd_canvas_scene_probe_port (const HydCanvasScene *scene, const char *component_id, const char *port)
{
  const HydCanvasSceneComponent *c = hyd_canvas_scene_find_component (scene, component_id);
  int X = c && c->type ? hyd_component_type_find_port (c->type, port) : -1;
  /* an electrical port has no pressure: what its component does */
  if (X >= 0 && c->type->ports[X].domain == HYD_DOMAIN_ELECTRICAL)
    return hyd_canvas_scene_probe_variable (scene, component_id);
  return g_strdup_printf ("%s.%s.p", component_id, port);
}

char *
hyd_canvas_scene_probe_wire (const HydCanvasScene *scene, guint wire)
{
  if (wire >= scene->wires->len)
    return NULL;
  const HydCircuitConnection *cn = g_array_index (scene->wires, HydCanvasSceneWire, wire).conn;
  /* a port at either end of the wire itself, else the nearest in its net */
  const char *port = NULL;
  if (cn->from && strchr (cn->from, '.'))
    port = cn->from;
  else if (cn->to && strchr (cn->to, '.'))
    port = cn->to;
  if (port == NULL && cn->from)
    port = net_port (scene, cn->from);
  if (port == NULL && cn->to)
    port = net_port (scene, cn->to);
  const char *dot = port ? strrchr (port, '.') : NULL;
  if (dot == NULL)
    return NULL;
  g_autofree char *id = g_strndup (port, dot - port);
  return hyd_canvas_scene_probe_port (scene, id, dot + 1);
}
