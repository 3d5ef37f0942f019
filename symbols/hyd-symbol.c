/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-symbol.c — reading symbol files, the symbol library, poses and states. */
#include "hyd-symbol-private.h"
#include "hyd-catalogue.h"
#include "hyd-profile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK (hyd-symbol-error-quark, hyd_symbol_error)

#define SYMBOL_FORMAT "bramah-symbol"
#define SYMBOL_VERSION 1

/* ---------------------------------------------------------------------------
 * Directions
 * ------------------------------------------------------------------------- */

static const char *const direction_names[] = { "right", "down", "left", "up" };

const char *
hyd_direction_name (HydDirection dir)
{
  return direction_names[dir & 3];
}

gboolean
hyd_direction_from_name (const char *name, HydDirection *dir)
{
  for (guint i = 0; i < G_N_ELEMENTS (direction_names); i++)
    if (g_strcmp0 (name, direction_names[i]) == 0)
      {
        *dir = (HydDirection) i;
        return TRUE;
      }
  return FALSE;
}

void
hyd_direction_vector (HydDirection dir, int *dx, int *dy)
{
  static const int vx[] = { 1, 0, -1, 0 };
  static const int vy[] = { 0, 1, 0, -1 };
  *dx = vx[dir & 3];
  *dy = vy[dir & 3];
}

/* ---------------------------------------------------------------------------
 * Freeing the parsed form
 * ------------------------------------------------------------------------- */

static void
sym_num_clear (SymNum *n)
{
  g_clear_pointer (&n->var, g_free);
  g_clear_pointer (&n->per, g_free);
}

static void
sym_cond_free (SymCond *c)
{
  g_free (c->var);
  g_free (c->string);
  g_free (c);
}

static void
sym_element_free (SymElement *el)
{
  if (el == NULL)
    return;
  g_clear_pointer (&el->conds, g_ptr_array_unref);
  g_clear_pointer (&el->highlight_if, g_ptr_array_unref);
  g_free (el->fill.port);
  g_free (el->stroke.port);
  for (guint i = 0; i < el->n_pts; i++)
    {
      sym_num_clear (&el->pts[i].x);
      sym_num_clear (&el->pts[i].y);
    }
  g_free (el->pts);
  sym_num_clear (&el->size_w);
  sym_num_clear (&el->size_h);
  sym_num_clear (&el->radius);
  sym_num_clear (&el->start);
  sym_num_clear (&el->end);
  sym_num_clear (&el->tx);
  sym_num_clear (&el->ty);
  sym_num_clear (&el->rotate);
  sym_num_clear (&el->about.x);
  sym_num_clear (&el->about.y);
  g_free (el->text);
  g_clear_pointer (&el->children, g_ptr_array_unref);
  g_free (el);
}

static void
sym_variable_free (SymVariable *v)
{
  g_free (v->name);
  g_free (v->default_string);
  g_free (v->from);
  if (v->tests)
    g_array_unref (v->tests);
  g_strfreev (v->values);
  g_free (v);
}

static void
sym_port_free (SymPort *p)
{
  g_free (p->name);
  g_free (p);
}

static HydSymbol *
symbol_new (void)
{
  HydSymbol *s = g_new0 (HydSymbol, 1);
  s->ref_count = 1;
  s->label_side = HYD_DIR_RIGHT;
  s->ports = g_ptr_array_new_with_free_func ((GDestroyNotify) sym_port_free);
  s->variables = g_ptr_array_new_with_free_func ((GDestroyNotify) sym_variable_free);
  s->elements = g_ptr_array_new_with_free_func ((GDestroyNotify) sym_element_free);
  return s;
}

HydSymbol *
hyd_symbol_ref (HydSymbol *symbol)
{
  g_return_val_if_fail (symbol != NULL, NULL);
  g_atomic_int_inc (&symbol->ref_count);
  return symbol;
}

void
hyd_symbol_unref (HydSymbol *symbol)
{
  if (symbol == NULL || !g_atomic_int_dec_and_test (&symbol->ref_count))
    return;
  g_free (symbol->type_id);
  g_free (symbol->name);
  g_free (symbol->filename);
  g_ptr_array_unref (symbol->ports);
  g_ptr_array_unref (symbol->variables);
  g_ptr_array_unref (symbol->elements);
  g_free (symbol);
}

/* ---------------------------------------------------------------------------
 * Parsing
 *
 * Every error names the file and the place in it, e.g.
 * "dcv_4_3.sym: elements[2].elements[5] (arrow): 'to' must be a point [x, y]".
 * ------------------------------------------------------------------------- */

typedef struct {
  const char *file;   /* for messages */
  GError **error;
} Parse;

static gboolean
fail (Parse *ps, const char *where, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (Parse *ps, const char *where, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (ps->error, HYD_SYMBOL_ERROR, HYD_SYMBOL_ERROR_FORMAT, "%s: %s: %s", ps->file, where, msg);
  return FALSE;
}

static gboolean
node_is_number (JsonNode *node)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  GType t = json_node_get_value_type (node);
  return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

static gboolean
node_is_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

static gboolean
node_is_bool (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN;
}

/* Reject keys the element does not know: a misspelt key would otherwise be
 * silently ignored and the drawing would be wrong without a word. */
static gboolean
check_keys (Parse *ps, const char *where, JsonObject *obj, const char *const *allowed)
{
  g_autoptr (GList) members = json_object_get_members (obj);
  for (GList *l = members; l; l = l->next)
    {
      gboolean ok = FALSE;
      for (guint i = 0; allowed[i]; i++)
        if (strcmp (l->data, allowed[i]) == 0)
          {
            ok = TRUE;
            break;
          }
      if (!ok)
        return fail (ps, where, "unknown key '%s'", (const char *) l->data);
    }
  return TRUE;
}

static gboolean
parse_plain_number (Parse *ps, const char *where, const char *key, JsonNode *node, double *out)
{
  if (!node_is_number (node))
    return fail (ps, where, "'%s' must be a number", key);
  *out = json_node_get_double (node);
  if (!isfinite (*out))
    return fail (ps, where, "'%s' must be finite", key);
  return TRUE;
}

static gboolean
parse_num (Parse *ps, const char *where, const char *key, JsonNode *node, SymNum *out)
{
  memset (out, 0, sizeof *out);
  out->scale = 1;
  out->min = -INFINITY;
  out->max = INFINITY;
  if (node_is_number (node))
    return parse_plain_number (ps, where, key, node, &out->offset);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return fail (ps, where, "'%s' must be a number or a binding {\"var\": ...}", key);

  static const char *const keys[] = { "var", "scale", "offset", "min", "max", "per", NULL };
  JsonObject *o = json_node_get_object (node);
  g_autofree char *w = g_strdup_printf ("%s, '%s'", where, key);
  if (!check_keys (ps, w, o, keys))
    return FALSE;
  JsonNode *var = json_object_get_member (o, "var");
  if (!node_is_string (var))
    return fail (ps, w, "a binding needs \"var\": the name of a variable");
  out->var = g_strdup (json_node_get_string (var));
  static const char *const nums[] = { "scale", "offset", "min", "max" };
  double *dst[] = { &out->scale, &out->offset, &out->min, &out->max };
  for (guint i = 0; i < G_N_ELEMENTS (nums); i++)
    {
      JsonNode *n = json_object_get_member (o, nums[i]);
      if (n && !parse_plain_number (ps, w, nums[i], n, dst[i]))
        return FALSE;
    }
  if (out->min > out->max)
    return fail (ps, w, "min is above max");
  JsonNode *per = json_object_get_member (o, "per");
  if (per)
    {
      if (!node_is_string (per))
        return fail (ps, w, "'per' must name a variable");
      out->per = g_strdup (json_node_get_string (per));
    }
  return TRUE;
}

static gboolean
parse_point (Parse *ps, const char *where, const char *key, JsonNode *node, SymPoint *out)
{
  memset (out, 0, sizeof *out);
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (json_node_get_array (node)) != 2)
    return fail (ps, where, "'%s' must be a point [x, y]", key);
  JsonArray *a = json_node_get_array (node);
  return parse_num (ps, where, key, json_array_get_element (a, 0), &out->x)
         && parse_num (ps, where, key, json_array_get_element (a, 1), &out->y);
}

static gboolean
parse_points (Parse *ps, const char *where, const char *key, JsonNode *node, guint min_n, SymElement *el)
{
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return fail (ps, where, "'%s' must be an array of points", key);
  JsonArray *a = json_node_get_array (node);
  guint n = json_array_get_length (a);
  if (n < min_n)
    return fail (ps, where, "'%s' needs at least %u points", key, min_n);
  el->pts = g_new0 (SymPoint, n);
  el->n_pts = n;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *k = g_strdup_printf ("%s[%u]", key, i);
      if (!parse_point (ps, where, k, json_array_get_element (a, i), &el->pts[i]))
        return FALSE;
    }
  return TRUE;
}

/* Points given as two keys ("from", "to"). */
static gboolean
parse_two_points (Parse *ps, const char *where, JsonObject *o, const char *k0, const char *k1, SymElement *el)
{
  el->pts = g_new0 (SymPoint, 2);
  el->n_pts = 2;
  return parse_point (ps, where, k0, json_object_get_member (o, k0), &el->pts[0])
         && parse_point (ps, where, k1, json_object_get_member (o, k1), &el->pts[1]);
}

static gboolean
parse_one_point (Parse *ps, const char *where, JsonObject *o, const char *key, SymElement *el)
{
  el->pts = g_new0 (SymPoint, 1);
  el->n_pts = 1;
  return parse_point (ps, where, key, json_object_get_member (o, key), &el->pts[0]);
}

static gboolean
parse_cond_one (Parse *ps, const char *where, JsonNode *node, GPtrArray *out)
{
  static const char *const keys[] = { "var", "eq", "ne", "gt", "lt", "ge", "le", "set", NULL };
  static const char *const ops[] = { "eq", "ne", "gt", "lt", "ge", "le" };
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return fail (ps, where, "a condition must be an object {\"var\": ..., \"eq\": ...}");
  JsonObject *o = json_node_get_object (node);
  if (!check_keys (ps, where, o, keys))
    return FALSE;
  JsonNode *var = json_object_get_member (o, "var");
  if (!node_is_string (var))
    return fail (ps, where, "a condition needs \"var\"");
  SymCond *c = g_new0 (SymCond, 1);
  c->var = g_strdup (json_node_get_string (var));
  g_ptr_array_add (out, c);
  guint n_ops = 0;
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      JsonNode *v = json_object_get_member (o, ops[i]);
      if (v == NULL)
        continue;
      n_ops++;
      c->op = (SymCondOp) (COND_EQ + i);
      if (node_is_string (v) && (c->op == COND_EQ || c->op == COND_NE))
        c->string = g_strdup (json_node_get_string (v));
      else if (!parse_plain_number (ps, where, ops[i], v, &c->number))
        return FALSE;
    }
  JsonNode *set = json_object_get_member (o, "set");
  if (set)
    {
      if (!node_is_bool (set))
        return fail (ps, where, "'set' must be true or false");
      n_ops++;
      c->op = json_node_get_boolean (set) ? COND_SET : COND_UNSET;
    }
  if (n_ops != 1)
    return fail (ps, where, "a condition needs exactly one of eq, ne, gt, lt, ge, le, set");
  return TRUE;
}

static gboolean
parse_conds (Parse *ps, const char *where, const char *key, JsonNode *node, GPtrArray **out)
{
  g_autofree char *w = g_strdup_printf ("%s, '%s'", where, key);
  *out = g_ptr_array_new_with_free_func ((GDestroyNotify) sym_cond_free);
  if (node && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *a = json_node_get_array (node);
      for (guint i = 0; i < json_array_get_length (a); i++)
        if (!parse_cond_one (ps, w, json_array_get_element (a, i), *out))
          return FALSE;
      return TRUE;
    }
  return parse_cond_one (ps, w, node, *out);
}

static gboolean
parse_paint (Parse *ps, const char *where, const char *key, JsonNode *node, SymPaint *out)
{
  if (!node_is_string (node))
    return fail (ps, where, "'%s' must be a string: none, background, line, highlight, pressure:PORT or current:PORT",
                 key);
  const char *s = json_node_get_string (node);
  if (strcmp (s, "none") == 0)
    out->kind = PAINT_NONE;
  else if (strcmp (s, "background") == 0)
    out->kind = PAINT_BACKGROUND;
  else if (strcmp (s, "line") == 0)
    out->kind = PAINT_LINE;
  else if (strcmp (s, "highlight") == 0)
    out->kind = PAINT_HIGHLIGHT;
  else if (g_str_has_prefix (s, "pressure:") && s[9] != '\0')
    {
      out->kind = PAINT_PRESSURE;
      out->port = g_strdup (s + 9);
    }
  else if (g_str_has_prefix (s, "current:") && s[8] != '\0')
    {
      out->kind = PAINT_CURRENT;
      out->port = g_strdup (s + 8);
    }
  else
    return fail (ps, where,
                 "'%s': unknown paint '%s' (none, background, line, highlight, pressure:PORT, current:PORT)", key,
                 s);
  return TRUE;
}

static gboolean
parse_align (Parse *ps, const char *where, const char *key, JsonNode *node, gboolean vertical, SymAlign *out)
{
  if (!node_is_string (node))
    return fail (ps, where, "'%s' must be a string", key);
  const char *s = json_node_get_string (node);
  if (strcmp (s, vertical ? "top" : "left") == 0)
    *out = ALIGN_START;
  else if (strcmp (s, vertical ? "middle" : "center") == 0)
    *out = ALIGN_CENTRE;
  else if (strcmp (s, vertical ? "bottom" : "right") == 0)
    *out = ALIGN_END;
  else if (vertical && strcmp (s, "baseline") == 0)
    *out = ALIGN_BASELINE;
  else
    return fail (ps, where, "'%s': '%s' is not one of %s", key, s,
                 vertical ? "top, middle, bottom, baseline" : "left, center, right");
  return TRUE;
}

static gboolean parse_elements (Parse *ps, const char *where, JsonNode *node, GPtrArray *out);

static const struct {
  const char *name;
  SymElementKind kind;
  const char *const keys[12];
} element_kinds[] = {
  { "line", EL_LINE, { "from", "to" } },
  { "polyline", EL_POLYLINE, { "points", "closed" } },
  { "polygon", EL_POLYGON, { "points" } },
  { "rect", EL_RECT, { "at", "size", "radius" } },
  { "circle", EL_CIRCLE, { "center", "r" } },
  { "arc", EL_ARC, { "center", "r", "start", "end", "from", "through", "to" } },
  { "arrow", EL_ARROW, { "from", "to", "points", "head", "heads" } },
  { "block", EL_BLOCK, { "at", "toward", "length", "bar" } },
  { "spring", EL_SPRING, { "from", "to", "peaks", "amplitude" } },
  { "dot", EL_DOT, { "at", "diameter" } },
  { "text", EL_TEXT, { "at", "text", "size", "align", "valign", "bold" } },
  { "group", EL_GROUP, { "elements", "translate", "rotate", "about" } },
};

static const char *const common_keys[] = { "type", "if", "fill", "stroke", "line", "width", "highlight_if",
                                           "comment" };

static gboolean
parse_element (Parse *ps, const char *where_in, JsonNode *node, SymElement **out)
{
  *out = NULL;
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return fail (ps, where_in, "an element must be an object with a \"type\"");
  JsonObject *o = json_node_get_object (node);
  JsonNode *tn = json_object_get_member (o, "type");
  if (!node_is_string (tn))
    return fail (ps, where_in, "an element needs a \"type\"");
  const char *type = json_node_get_string (tn);
  int k = -1;
  for (guint i = 0; i < G_N_ELEMENTS (element_kinds); i++)
    if (strcmp (type, element_kinds[i].name) == 0)
      k = (int) i;
  if (k < 0)
    return fail (ps, where_in,
                 "unknown element type '%s' (line, polyline, polygon, rect, circle, arc, arrow, block, "
                 "spring, dot, text, group)", type);
  g_autofree char *where = g_strdup_printf ("%s (%s)", where_in, type);

  /* allowed keys: the common ones plus the kind's own */
  const char *allowed[G_N_ELEMENTS (common_keys) + 13];
  guint na = 0;
  for (guint i = 0; i < G_N_ELEMENTS (common_keys); i++)
    allowed[na++] = common_keys[i];
  for (guint i = 0; i < 12 && element_kinds[k].keys[i]; i++)
    allowed[na++] = element_kinds[k].keys[i];
  allowed[na] = NULL;
  if (!check_keys (ps, where, o, allowed))
    return FALSE;

  SymElement *el = g_new0 (SymElement, 1);
  *out = el;
  el->kind = element_kinds[k].kind;
  el->width = 1;
  el->stroke.kind = PAINT_LINE;
  el->fill.kind = PAINT_NONE;
  el->head_length = 1.0;
  el->head_width = 0.5;
  el->block_length = 0.9;
  el->block_bar = 0.9;
  el->peaks = 3;
  el->amplitude = 1.0;
  el->text_size = 1.0;
  el->halign = ALIGN_CENTRE;
  el->valign = ALIGN_CENTRE;
  el->radius.scale = el->size_w.scale = el->size_h.scale = 1;
  el->rotate.scale = el->tx.scale = el->ty.scale = 1;

  switch (el->kind)
    {
    case EL_RECT:
    case EL_CIRCLE:
      el->fill.kind = PAINT_BACKGROUND;
      break;
    case EL_POLYGON:
    case EL_DOT:
      el->fill.kind = PAINT_LINE;
      break;
    default:
      break;
    }

  JsonNode *n;
  if ((n = json_object_get_member (o, "if")) && !parse_conds (ps, where, "if", n, &el->conds))
    return FALSE;
  if ((n = json_object_get_member (o, "highlight_if")) && !parse_conds (ps, where, "highlight_if", n, &el->highlight_if))
    return FALSE;
  if ((n = json_object_get_member (o, "fill")) && !parse_paint (ps, where, "fill", n, &el->fill))
    return FALSE;
  if ((n = json_object_get_member (o, "stroke")) && !parse_paint (ps, where, "stroke", n, &el->stroke))
    return FALSE;
  if ((n = json_object_get_member (o, "width")))
    {
      if (!parse_plain_number (ps, where, "width", n, &el->width))
        return FALSE;
      if (el->width <= 0)
        return fail (ps, where, "'width' must be positive");
    }
  if ((n = json_object_get_member (o, "line")))
    {
      static const char *const styles[] = { "solid", "pilot", "chain", "signal" };
      const char *s = node_is_string (n) ? json_node_get_string (n) : "";
      gboolean found = FALSE;
      for (guint i = 0; i < G_N_ELEMENTS (styles); i++)
        if (strcmp (s, styles[i]) == 0)
          {
            el->line = (SymLineStyle) i;
            found = TRUE;
          }
      if (!found)
        return fail (ps, where, "'line' must be solid, pilot, chain or signal");
    }

  switch (el->kind)
    {
    case EL_LINE:
      return parse_two_points (ps, where, o, "from", "to", el);

    case EL_POLYLINE:
      if ((n = json_object_get_member (o, "closed")))
        {
          if (!node_is_bool (n))
            return fail (ps, where, "'closed' must be true or false");
          el->closed = json_node_get_boolean (n);
        }
      return parse_points (ps, where, "points", json_object_get_member (o, "points"), 2, el);

    case EL_POLYGON:
      el->closed = TRUE;
      return parse_points (ps, where, "points", json_object_get_member (o, "points"), 3, el);

    case EL_RECT:
      {
        if (!parse_one_point (ps, where, o, "at", el))
          return FALSE;
        n = json_object_get_member (o, "size");
        if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n) || json_array_get_length (json_node_get_array (n)) != 2)
          return fail (ps, where, "'size' must be [width, height]");
        JsonArray *a = json_node_get_array (n);
        if (!parse_num (ps, where, "size", json_array_get_element (a, 0), &el->size_w)
            || !parse_num (ps, where, "size", json_array_get_element (a, 1), &el->size_h))
          return FALSE;
        if ((n = json_object_get_member (o, "radius")) && !parse_num (ps, where, "radius", n, &el->radius))
          return FALSE;
        return TRUE;
      }

    case EL_CIRCLE:
      return parse_one_point (ps, where, o, "center", el)
             && parse_num (ps, where, "r", json_object_get_member (o, "r"), &el->radius);

    case EL_ARC:
      if (json_object_has_member (o, "through"))
        {
          el->arc_three_points = TRUE;
          el->pts = g_new0 (SymPoint, 3);
          el->n_pts = 3;
          return parse_point (ps, where, "from", json_object_get_member (o, "from"), &el->pts[0])
                 && parse_point (ps, where, "through", json_object_get_member (o, "through"), &el->pts[1])
                 && parse_point (ps, where, "to", json_object_get_member (o, "to"), &el->pts[2]);
        }
      return parse_one_point (ps, where, o, "center", el)
             && parse_num (ps, where, "r", json_object_get_member (o, "r"), &el->radius)
             && parse_num (ps, where, "start", json_object_get_member (o, "start"), &el->start)
             && parse_num (ps, where, "end", json_object_get_member (o, "end"), &el->end);

    case EL_ARROW:
      if (json_object_has_member (o, "points"))
        {
          if (!parse_points (ps, where, "points", json_object_get_member (o, "points"), 2, el))
            return FALSE;
        }
      else if (!parse_two_points (ps, where, o, "from", "to", el))
        return FALSE;
      if ((n = json_object_get_member (o, "head")))
        {
          if (!JSON_NODE_HOLDS_ARRAY (n) || json_array_get_length (json_node_get_array (n)) != 2)
            return fail (ps, where, "'head' must be [length, width]");
          JsonArray *a = json_node_get_array (n);
          if (!parse_plain_number (ps, where, "head", json_array_get_element (a, 0), &el->head_length)
              || !parse_plain_number (ps, where, "head", json_array_get_element (a, 1), &el->head_width))
            return FALSE;
        }
      if ((n = json_object_get_member (o, "heads")))
        {
          const char *s = node_is_string (n) ? json_node_get_string (n) : "";
          if (strcmp (s, "both") == 0)
            el->both_heads = TRUE;
          else if (strcmp (s, "end") != 0)
            return fail (ps, where, "'heads' must be \"end\" or \"both\"");
        }
      return TRUE;

    case EL_BLOCK:
      if (!parse_one_point (ps, where, o, "at", el))
        return FALSE;
      n = json_object_get_member (o, "toward");
      if (!node_is_string (n) || !hyd_direction_from_name (json_node_get_string (n), &el->toward))
        return fail (ps, where, "'toward' must be up, down, left or right");
      if ((n = json_object_get_member (o, "length")) && !parse_plain_number (ps, where, "length", n, &el->block_length))
        return FALSE;
      if ((n = json_object_get_member (o, "bar")) && !parse_plain_number (ps, where, "bar", n, &el->block_bar))
        return FALSE;
      return TRUE;

    case EL_SPRING:
      if (!parse_two_points (ps, where, o, "from", "to", el))
        return FALSE;
      if ((n = json_object_get_member (o, "peaks")))
        {
          double p;
          if (!parse_plain_number (ps, where, "peaks", n, &p))
            return FALSE;
          if (p < 1 || p > 20 || p != floor (p))
            return fail (ps, where, "'peaks' must be a whole number from 1 to 20");
          el->peaks = (int) p;
        }
      if ((n = json_object_get_member (o, "amplitude")) && !parse_plain_number (ps, where, "amplitude", n, &el->amplitude))
        return FALSE;
      return TRUE;

    case EL_DOT:
      if ((n = json_object_get_member (o, "diameter")) && !parse_plain_number (ps, where, "diameter", n, &el->diameter))
        return FALSE;
      return parse_one_point (ps, where, o, "at", el);

    case EL_TEXT:
      if (!parse_one_point (ps, where, o, "at", el))
        return FALSE;
      n = json_object_get_member (o, "text");
      if (!node_is_string (n))
        return fail (ps, where, "'text' must be a string");
      el->text = g_strdup (json_node_get_string (n));
      if ((n = json_object_get_member (o, "size")) && !parse_plain_number (ps, where, "size", n, &el->text_size))
        return FALSE;
      if (el->text_size <= 0)
        return fail (ps, where, "'size' must be positive");
      if ((n = json_object_get_member (o, "align")) && !parse_align (ps, where, "align", n, FALSE, &el->halign))
        return FALSE;
      if ((n = json_object_get_member (o, "valign")) && !parse_align (ps, where, "valign", n, TRUE, &el->valign))
        return FALSE;
      if ((n = json_object_get_member (o, "bold")))
        {
          if (!node_is_bool (n))
            return fail (ps, where, "'bold' must be true or false");
          el->bold = json_node_get_boolean (n);
        }
      return TRUE;

    case EL_GROUP:
      el->children = g_ptr_array_new_with_free_func ((GDestroyNotify) sym_element_free);
      if ((n = json_object_get_member (o, "translate")))
        {
          if (!JSON_NODE_HOLDS_ARRAY (n) || json_array_get_length (json_node_get_array (n)) != 2)
            return fail (ps, where, "'translate' must be [dx, dy]");
          JsonArray *a = json_node_get_array (n);
          if (!parse_num (ps, where, "translate", json_array_get_element (a, 0), &el->tx)
              || !parse_num (ps, where, "translate", json_array_get_element (a, 1), &el->ty))
            return FALSE;
        }
      if ((n = json_object_get_member (o, "rotate")) && !parse_num (ps, where, "rotate", n, &el->rotate))
        return FALSE;
      if ((n = json_object_get_member (o, "about")) && !parse_point (ps, where, "about", n, &el->about))
        return FALSE;
      return parse_elements (ps, where_in, json_object_get_member (o, "elements"), el->children);
    }
  return TRUE;
}

static gboolean
parse_elements (Parse *ps, const char *where, JsonNode *node, GPtrArray *out)
{
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return fail (ps, where, "'elements' must be an array");
  JsonArray *a = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      g_autofree char *w = g_strdup_printf ("%s%selements[%u]", where, *where ? "." : "", i);
      SymElement *el = NULL;
      gboolean ok = parse_element (ps, w, json_array_get_element (a, i), &el);
      if (el)
        g_ptr_array_add (out, el);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

static gboolean
parse_port (Parse *ps, const char *where, JsonNode *node, HydSymbol *sym)
{
  static const char *const keys[] = { "name", "at", "dir", "lead", "optional", "signal", "label_side",
                                      "comment", NULL };
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return fail (ps, where, "a port must be an object");
  JsonObject *o = json_node_get_object (node);
  if (!check_keys (ps, where, o, keys))
    return FALSE;
  JsonNode *n = json_object_get_member (o, "name");
  if (!node_is_string (n) || *json_node_get_string (n) == '\0')
    return fail (ps, where, "a port needs a \"name\"");
  const char *name = json_node_get_string (n);
  if (hyd_symbol_find_port (sym, name))
    return fail (ps, where, "port '%s' is defined twice", name);
  g_autofree char *w = g_strdup_printf ("%s (port %s)", where, name);

  SymPort *p = g_new0 (SymPort, 1);
  p->name = g_strdup (name);
  p->pub.name = p->name;
  p->pub.lead = 1.0;
  g_ptr_array_add (sym->ports, p);

  n = json_object_get_member (o, "at");
  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n) || json_array_get_length (json_node_get_array (n)) != 2)
    return fail (ps, w, "'at' must be [x, y]");
  JsonArray *a = json_node_get_array (n);
  int xy[2];
  for (guint i = 0; i < 2; i++)
    {
      double v;
      if (!parse_plain_number (ps, w, "at", json_array_get_element (a, i), &v))
        return FALSE;
      /* Integer M keeps every port on the grid in all eight poses (design §1.2). */
      if (v != floor (v) || fabs (v) > 1000)
        return fail (ps, w, "'at' must be whole multiples of M (ports sit on the grid), not %g", v);
      xy[i] = (int) v;
    }
  p->pub.x = xy[0];
  p->pub.y = xy[1];
  n = json_object_get_member (o, "dir");
  if (!node_is_string (n) || !hyd_direction_from_name (json_node_get_string (n), &p->pub.dir))
    return fail (ps, w, "'dir' must be up, down, left or right");
  if ((n = json_object_get_member (o, "lead")))
    {
      if (!parse_plain_number (ps, w, "lead", n, &p->pub.lead))
        return FALSE;
      if (p->pub.lead < 0)
        return fail (ps, w, "'lead' must not be negative");
    }
  if ((n = json_object_get_member (o, "optional")))
    {
      if (!node_is_bool (n))
        return fail (ps, w, "'optional' must be true or false");
      p->pub.optional = json_node_get_boolean (n);
    }
  if ((n = json_object_get_member (o, "signal")))
    {
      if (!node_is_bool (n))
        return fail (ps, w, "'signal' must be true or false");
      p->pub.signal = json_node_get_boolean (n);
    }
  if ((n = json_object_get_member (o, "label_side")))
    {
      const char *s = node_is_string (n) ? json_node_get_string (n) : "";
      if (strcmp (s, "left") == 0)
        p->pub.label_side = -1;
      else if (strcmp (s, "right") == 0)
        p->pub.label_side = 1;
      else
        return fail (ps, w, "'label_side' must be left or right (seen along the outward direction)");
    }
  return TRUE;
}

static gboolean
parse_variable (Parse *ps, const char *where, JsonNode *node, HydSymbol *sym)
{
  static const char *const keys[] = { "name", "default", "from", "test", "values", "comment", NULL };
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return fail (ps, where, "a variable must be an object");
  JsonObject *o = json_node_get_object (node);
  if (!check_keys (ps, where, o, keys))
    return FALSE;
  JsonNode *n = json_object_get_member (o, "name");
  if (!node_is_string (n))
    return fail (ps, where, "a variable needs a \"name\"");
  const char *name = json_node_get_string (n);
  if (hyd_symbol_find_variable (sym, name))
    return fail (ps, where, "variable '%s' is declared twice", name);
  g_autofree char *w = g_strdup_printf ("%s (variable %s)", where, name);

  SymVariable *v = g_new0 (SymVariable, 1);
  v->name = g_strdup (name);
  v->pub.name = v->name;
  g_ptr_array_add (sym->variables, v);

  if ((n = json_object_get_member (o, "values")))
    {
      if (!JSON_NODE_HOLDS_ARRAY (n) || json_array_get_length (json_node_get_array (n)) == 0)
        return fail (ps, w, "'values' must be a non-empty array of strings");
      JsonArray *a = json_node_get_array (n);
      guint len = json_array_get_length (a);
      v->values = g_new0 (char *, len + 1);
      for (guint i = 0; i < len; i++)
        {
          JsonNode *e = json_array_get_element (a, i);
          if (!node_is_string (e))
            return fail (ps, w, "'values' must be strings");
          v->values[i] = g_strdup (json_node_get_string (e));
        }
      v->pub.is_string = TRUE;
      v->pub.values = (const char *const *) v->values;
      n = json_object_get_member (o, "default");
      if (n == NULL)
        v->default_string = g_strdup (v->values[0]);
      else if (!node_is_string (n) || !g_strv_contains ((const char *const *) v->values, json_node_get_string (n)))
        return fail (ps, w, "'default' must be one of its 'values'");
      else
        v->default_string = g_strdup (json_node_get_string (n));
      v->pub.has_default = TRUE;
      v->pub.default_string = v->default_string;
      if (json_object_has_member (o, "test") || json_object_has_member (o, "from"))
        return fail (ps, w, "a string variable takes no 'test' or 'from'");
      return TRUE;
    }

  if ((n = json_object_get_member (o, "default")))
    {
      if (!parse_plain_number (ps, w, "default", n, &v->pub.default_value))
        return FALSE;
      v->pub.has_default = TRUE;
    }
  if ((n = json_object_get_member (o, "from")))
    {
      if (!node_is_string (n))
        return fail (ps, w, "'from' must name a variable");
      v->from = g_strdup (json_node_get_string (n));
      v->pub.from = v->from;
    }
  v->tests = g_array_new (FALSE, FALSE, sizeof (double));
  if ((n = json_object_get_member (o, "test")))
    {
      if (!JSON_NODE_HOLDS_ARRAY (n))
        return fail (ps, w, "'test' must be an array of numbers");
      JsonArray *a = json_node_get_array (n);
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          double t;
          if (!parse_plain_number (ps, w, "test", json_array_get_element (a, i), &t))
            return FALSE;
          g_array_append_val (v->tests, t);
        }
    }
  v->pub.test_values = (const double *) v->tests->data;
  v->pub.n_test_values = v->tests->len;
  return TRUE;
}

HydSymbol *
hyd_symbol_load_from_data (const char *data, gssize length, const char *filename, GError **error)
{
  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autofree char *base = filename ? g_path_get_basename (filename) : g_strdup ("<symbol>");
  Parse ps = { base, error };
  g_autoptr (JsonParser) parser = json_parser_new ();
  GError *perr = NULL;
  if (!json_parser_load_from_data (parser, data, length, &perr))
    {
      g_set_error (error, HYD_SYMBOL_ERROR, HYD_SYMBOL_ERROR_PARSE, "%s: %s", base, perr->message);
      g_error_free (perr);
      return NULL;
    }
  JsonNode *root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      fail (&ps, "top level", "a symbol file is a JSON object");
      return NULL;
    }
  JsonObject *o = json_node_get_object (root);
  static const char *const keys[] = { "format", "version", "type", "name", "port_labels", "label_side",
                                      "variables", "ports", "elements", "comment", NULL };
  if (!check_keys (&ps, "top level", o, keys))
    return NULL;
  JsonNode *n = json_object_get_member (o, "format");
  if (!node_is_string (n) || strcmp (json_node_get_string (n), SYMBOL_FORMAT) != 0)
    {
      fail (&ps, "top level", "\"format\" must be \"" SYMBOL_FORMAT "\"");
      return NULL;
    }
  n = json_object_get_member (o, "version");
  if (!node_is_number (n) || json_node_get_double (n) != floor (json_node_get_double (n)))
    {
      fail (&ps, "top level", "\"version\" must be an integer");
      return NULL;
    }
  if (json_node_get_int (n) > SYMBOL_VERSION)
    {
      fail (&ps, "top level", "version %" G_GINT64_FORMAT " is newer than this reader (version %d)",
            json_node_get_int (n), SYMBOL_VERSION);
      return NULL;
    }

  g_autoptr (HydSymbol) sym = symbol_new ();
  sym->filename = filename ? g_strdup (filename) : NULL;
  n = json_object_get_member (o, "type");
  if (!node_is_string (n) || *json_node_get_string (n) == '\0')
    {
      fail (&ps, "top level", "\"type\" must name the component type");
      return NULL;
    }
  sym->type_id = g_strdup (json_node_get_string (n));
  if ((n = json_object_get_member (o, "name")))
    {
      if (!node_is_string (n))
        {
          fail (&ps, "top level", "\"name\" must be a string");
          return NULL;
        }
      sym->name = g_strdup (json_node_get_string (n));
    }
  if ((n = json_object_get_member (o, "port_labels")))
    {
      if (!node_is_bool (n))
        {
          fail (&ps, "top level", "\"port_labels\" must be true or false");
          return NULL;
        }
      sym->port_labels = json_node_get_boolean (n);
    }
  if ((n = json_object_get_member (o, "label_side")))
    if (!node_is_string (n) || !hyd_direction_from_name (json_node_get_string (n), &sym->label_side))
      {
        fail (&ps, "top level", "\"label_side\" must be up, down, left or right");
        return NULL;
      }

  if ((n = json_object_get_member (o, "variables")))
    {
      if (!JSON_NODE_HOLDS_ARRAY (n))
        {
          fail (&ps, "top level", "\"variables\" must be an array");
          return NULL;
        }
      JsonArray *a = json_node_get_array (n);
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          g_autofree char *w = g_strdup_printf ("variables[%u]", i);
          if (!parse_variable (&ps, w, json_array_get_element (a, i), sym))
            return NULL;
        }
    }

  n = json_object_get_member (o, "ports");
  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n))
    {
      fail (&ps, "top level", "\"ports\" must be an array");
      return NULL;
    }
  JsonArray *pa = json_node_get_array (n);
  for (guint i = 0; i < json_array_get_length (pa); i++)
    {
      g_autofree char *w = g_strdup_printf ("ports[%u]", i);
      if (!parse_port (&ps, w, json_array_get_element (pa, i), sym))
        return NULL;
    }

  if (!parse_elements (&ps, "", json_object_get_member (o, "elements"), sym->elements))
    return NULL;

  _hyd_symbol_compute_rest_bounds (sym, &sym->bounds);
  sym->have_bounds = TRUE;
  return g_steal_pointer (&sym);
}

HydSymbol *
hyd_symbol_load_from_file (const char *path, GError **error)
{
  g_autofree char *data = NULL;
  gsize len;
  g_return_val_if_fail (path != NULL, NULL);
  if (!g_file_get_contents (path, &data, &len, error))
    return NULL;
  return hyd_symbol_load_from_data (data, (gssize) len, path, error);
}

/* ---------------------------------------------------------------------------
 * Accessors
 * ------------------------------------------------------------------------- */

const char *
hyd_symbol_get_type_id (const HydSymbol *symbol)
{
  return symbol->type_id;
}

const char *
hyd_symbol_get_name (const HydSymbol *symbol)
{
  return symbol->name ? symbol->name : symbol->type_id;
}

const char *
hyd_symbol_get_filename (const HydSymbol *symbol)
{
  return symbol->filename;
}

guint
hyd_symbol_get_n_ports (const HydSymbol *symbol)
{
  return symbol->ports->len;
}

const HydSymbolPort *
hyd_symbol_get_port (const HydSymbol *symbol, guint index)
{
  g_return_val_if_fail (index < symbol->ports->len, NULL);
  return &((SymPort *) g_ptr_array_index (symbol->ports, index))->pub;
}

const HydSymbolPort *
hyd_symbol_find_port (const HydSymbol *symbol, const char *name)
{
  for (guint i = 0; i < symbol->ports->len; i++)
    {
      SymPort *p = g_ptr_array_index (symbol->ports, i);
      if (g_strcmp0 (p->name, name) == 0)
        return &p->pub;
    }
  return NULL;
}

guint
hyd_symbol_get_n_variables (const HydSymbol *symbol)
{
  return symbol->variables->len;
}

const HydSymbolVariable *
hyd_symbol_get_variable (const HydSymbol *symbol, guint index)
{
  g_return_val_if_fail (index < symbol->variables->len, NULL);
  return &((SymVariable *) g_ptr_array_index (symbol->variables, index))->pub;
}

const HydSymbolVariable *
hyd_symbol_find_variable (const HydSymbol *symbol, const char *name)
{
  for (guint i = 0; i < symbol->variables->len; i++)
    {
      SymVariable *v = g_ptr_array_index (symbol->variables, i);
      if (g_strcmp0 (v->name, name) == 0)
        return &v->pub;
    }
  return NULL;
}

void
hyd_symbol_get_bounds (const HydSymbol *symbol, HydRect *bounds)
{
  *bounds = symbol->bounds;
}

HydDirection
hyd_symbol_get_label_side (const HydSymbol *symbol)
{
  return symbol->label_side;
}

gboolean
_hyd_symbol_resolve_number (const HydSymbol *symbol, const HydSymbolState *state, const char *name,
                            double *value)
{
  if (state && hyd_symbol_state_lookup (state, name, value))
    return TRUE;
  const HydSymbolVariable *v = symbol ? hyd_symbol_find_variable (symbol, name) : NULL;
  if (v == NULL || v->is_string)
    return FALSE;
  if (v->from && state && hyd_symbol_state_lookup (state, v->from, value))
    return TRUE;
  if (v->has_default)
    {
      *value = v->default_value;
      return TRUE;
    }
  return FALSE;
}

const char *
_hyd_symbol_resolve_string (const HydSymbol *symbol, const HydSymbolState *state, const char *name)
{
  const char *s = state ? hyd_symbol_state_lookup_string (state, name) : NULL;
  if (s)
    return s;
  const HydSymbolVariable *v = symbol ? hyd_symbol_find_variable (symbol, name) : NULL;
  return v && v->is_string ? v->default_string : NULL;
}

/* ---------------------------------------------------------------------------
 * Library
 * ------------------------------------------------------------------------- */

struct _HydSymbolLibrary {
  GHashTable *symbols; /* type id → HydSymbol* */
};

HydSymbolLibrary *
hyd_symbol_library_new (void)
{
  HydSymbolLibrary *lib = g_new0 (HydSymbolLibrary, 1);
  lib->symbols = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) hyd_symbol_unref);
  return lib;
}

void
hyd_symbol_library_free (HydSymbolLibrary *library)
{
  if (library == NULL)
    return;
  g_hash_table_unref (library->symbols);
  g_free (library);
}

void
hyd_symbol_library_add (HydSymbolLibrary *library, HydSymbol *symbol)
{
  g_return_if_fail (library != NULL && symbol != NULL);
  /* The key is the symbol's own type id: drop the old entry (and its key)
   * first. Take the new reference before, in case it is the same symbol. */
  hyd_symbol_ref (symbol);
  g_hash_table_remove (library->symbols, symbol->type_id);
  g_hash_table_insert (library->symbols, symbol->type_id, symbol);
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

gboolean
hyd_symbol_library_add_directory (HydSymbolLibrary *library, const char *dir, GError **error)
{
  g_return_val_if_fail (library != NULL && dir != NULL, FALSE);
  g_autoptr (GDir) d = g_dir_open (dir, 0, error);
  if (d == NULL)
    return FALSE;
  /* sorted, so that errors and duplicates are reported the same way everywhere */
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while ((name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, ".sym"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_strings);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; i < names->len; i++)
    {
      const char *file = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, file, NULL);
      g_autoptr (HydSymbol) sym = hyd_symbol_load_from_file (path, error);
      if (sym == NULL)
        return FALSE;
      const char *other = g_hash_table_lookup (seen, sym->type_id);
      if (other)
        {
          g_set_error (error, HYD_SYMBOL_ERROR, HYD_SYMBOL_ERROR_DUPLICATE,
                       "%s: type \"%s\" is already drawn by %s", file, sym->type_id, other);
          return FALSE;
        }
      g_hash_table_insert (seen, g_strdup (sym->type_id), g_strdup (file));
      hyd_symbol_library_add (library, sym);
    }
  return TRUE;
}

HydSymbol *
hyd_symbol_library_lookup (const HydSymbolLibrary *library, const char *type_id)
{
  g_return_val_if_fail (library != NULL, NULL);
  return type_id ? g_hash_table_lookup (library->symbols, type_id) : NULL;
}

const char **
hyd_symbol_library_list (const HydSymbolLibrary *library, guint *n_types)
{
  guint n = 0;
  const char **keys = (const char **) g_hash_table_get_keys_as_array (library->symbols, &n);
  qsort (keys, n, sizeof *keys, compare_strings);
  if (n_types)
    *n_types = n;
  return keys;
}

const char *
hyd_symbol_library_default_directory (void)
{
  static char *dir = NULL;
  if (g_once_init_enter (&dir))
    {
      const char *env = g_getenv ("BRAMAH_SYMBOL_DIR");
      char *d;
      if (env && *env)
        d = g_strdup (env);
#ifdef HYD_SYMBOLS_SOURCE_DIR
      else if (hyd_running_uninstalled () && g_file_test (HYD_SYMBOLS_SOURCE_DIR, G_FILE_TEST_IS_DIR))
        d = g_strdup (HYD_SYMBOLS_SOURCE_DIR);
#endif
      else
        d = g_strdup (HYD_SYMBOLS_INSTALL_DIR);
      g_once_init_leave (&dir, d);
    }
  return dir;
}

HydSymbolLibrary *
hyd_symbol_library_get_default (GError **error)
{
  static HydSymbolLibrary *library = NULL;
  static GMutex lock;
  g_mutex_lock (&lock);
  if (library == NULL)
    {
      HydSymbolLibrary *lib = hyd_symbol_library_new ();
      const char *dir = hyd_symbol_library_default_directory ();
      GError *err = NULL;
      if (hyd_symbol_library_add_directory (lib, dir, &err))
        library = lib;
      else
        {
          g_set_error (error, HYD_SYMBOL_ERROR,
                       err->domain == HYD_SYMBOL_ERROR ? err->code : HYD_SYMBOL_ERROR_NOT_FOUND,
                       "symbol library %s: %s", dir, err->message);
          g_error_free (err);
          hyd_symbol_library_free (lib);
        }
    }
  g_mutex_unlock (&lock);
  return library;
}

/* ---------------------------------------------------------------------------
 * Poses
 * ------------------------------------------------------------------------- */

void
hyd_symbol_pose_init (HydSymbolPose *pose, double x, double y, int rotation, gboolean mirror)
{
  pose->x = x;
  pose->y = y;
  pose->rotation = ((rotation % 360) + 360) % 360;
  pose->mirror = mirror;
}

void
hyd_symbol_pose_from_component (HydSymbolPose *pose, const HydCircuitComponent *component)
{
  hyd_symbol_pose_init (pose, component->x, component->y, component->rotation, component->mirror);
}

/* Quarter turns clockwise, 0…3. */
static int
pose_turns (const HydSymbolPose *pose)
{
  return (pose->rotation / 90) & 3;
}

/* R·F applied to a local vector. */
static void
pose_linear (const HydSymbolPose *pose, double x, double y, double *ox, double *oy)
{
  if (pose->mirror)
    x = -x;
  switch (pose_turns (pose))
    {
    case 0:
      *ox = x, *oy = y;
      break;
    case 1: /* clockwise on screen (y down): right → down */
      *ox = -y, *oy = x;
      break;
    case 2:
      *ox = -x, *oy = -y;
      break;
    default:
      *ox = y, *oy = -x;
      break;
    }
}

void
hyd_symbol_pose_to_world (const HydSymbolPose *pose, double lx, double ly, double *wx, double *wy)
{
  double x, y;
  pose_linear (pose, lx, ly, &x, &y);
  *wx = pose->x + HYD_SYMBOL_MODULE * x;
  *wy = pose->y + HYD_SYMBOL_MODULE * y;
}

void
hyd_symbol_pose_to_local (const HydSymbolPose *pose, double wx, double wy, double *lx, double *ly)
{
  double x = (wx - pose->x) / HYD_SYMBOL_MODULE, y = (wy - pose->y) / HYD_SYMBOL_MODULE;
  double ux, uy;
  switch (pose_turns (pose)) /* inverse rotation */
    {
    case 0:
      ux = x, uy = y;
      break;
    case 1:
      ux = y, uy = -x;
      break;
    case 2:
      ux = -x, uy = -y;
      break;
    default:
      ux = -y, uy = x;
      break;
    }
  *lx = pose->mirror ? -ux : ux;
  *ly = uy;
}

HydDirection
hyd_symbol_pose_direction (const HydSymbolPose *pose, HydDirection local_dir)
{
  int d = (int) local_dir;
  if (pose->mirror && (d == HYD_DIR_RIGHT || d == HYD_DIR_LEFT))
    d ^= 2; /* right ↔ left */
  return (HydDirection) ((d + pose_turns (pose)) & 3);
}

void
hyd_symbol_pose_rect (const HydSymbolPose *pose, const HydRect *local, HydRect *world)
{
  double ax, ay, bx, by;
  hyd_symbol_pose_to_world (pose, local->x0, local->y0, &ax, &ay);
  hyd_symbol_pose_to_world (pose, local->x1, local->y1, &bx, &by);
  world->x0 = MIN (ax, bx);
  world->x1 = MAX (ax, bx);
  world->y0 = MIN (ay, by);
  world->y1 = MAX (ay, by);
}

gboolean
hyd_symbol_port_world_position (const HydSymbol *symbol, const HydSymbolPose *pose, const char *port,
                                double *wx, double *wy, HydDirection *dir)
{
  g_return_val_if_fail (symbol != NULL && pose != NULL, FALSE);
  const HydSymbolPort *p = hyd_symbol_find_port (symbol, port);
  if (p == NULL)
    return FALSE;
  double x, y;
  hyd_symbol_pose_to_world (pose, p->x, p->y, &x, &y);
  if (wx)
    *wx = x;
  if (wy)
    *wy = y;
  if (dir)
    *dir = hyd_symbol_pose_direction (pose, p->dir);
  return TRUE;
}

void
hyd_symbol_placed_bounds (const HydSymbol *symbol, const HydSymbolPose *pose, HydRect *bounds)
{
  hyd_symbol_pose_rect (pose, &symbol->bounds, bounds);
}

const HydSymbolPort *
hyd_symbol_hit_port (const HydSymbol *symbol, const HydSymbolPose *pose, double wx, double wy, double radius)
{
  const HydSymbolPort *best = NULL;
  double best_d = radius * HYD_SYMBOL_MODULE;
  for (guint i = 0; i < symbol->ports->len; i++)
    {
      const HydSymbolPort *p = hyd_symbol_get_port (symbol, i);
      double x, y;
      hyd_symbol_pose_to_world (pose, p->x, p->y, &x, &y);
      double d = hypot (x - wx, y - wy);
      if (d <= best_d)
        {
          best = p;
          best_d = d;
        }
    }
  return best;
}

/* ---------------------------------------------------------------------------
 * State
 * ------------------------------------------------------------------------- */

HydSymbolState *
hyd_symbol_state_new (void)
{
  HydSymbolState *s = g_new0 (HydSymbolState, 1);
  s->numbers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  s->strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  s->connected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return s;
}

HydSymbolState *
hyd_symbol_state_copy (const HydSymbolState *state)
{
  HydSymbolState *s = hyd_symbol_state_new ();
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, state->numbers);
  while (g_hash_table_iter_next (&it, &k, &v))
    hyd_symbol_state_set (s, k, *(double *) v);
  g_hash_table_iter_init (&it, state->strings);
  while (g_hash_table_iter_next (&it, &k, &v))
    hyd_symbol_state_set_string (s, k, v);
  g_hash_table_iter_init (&it, state->connected);
  while (g_hash_table_iter_next (&it, &k, NULL))
    hyd_symbol_state_set_port_connected (s, k, TRUE);
  return s;
}

void
hyd_symbol_state_free (HydSymbolState *state)
{
  if (state == NULL)
    return;
  g_hash_table_unref (state->numbers);
  g_hash_table_unref (state->strings);
  g_hash_table_unref (state->connected);
  g_free (state);
}

void
hyd_symbol_state_clear (HydSymbolState *state)
{
  g_hash_table_remove_all (state->numbers);
  g_hash_table_remove_all (state->strings);
  g_hash_table_remove_all (state->connected);
}

void
hyd_symbol_state_set (HydSymbolState *state, const char *name, double value)
{
  g_return_if_fail (state != NULL && name != NULL);
  double *slot = g_hash_table_lookup (state->numbers, name);
  if (slot)
    *slot = value;
  else
    {
      slot = g_new (double, 1);
      *slot = value;
      g_hash_table_insert (state->numbers, g_strdup (name), slot);
    }
}

void
hyd_symbol_state_set_string (HydSymbolState *state, const char *name, const char *value)
{
  g_return_if_fail (state != NULL && name != NULL);
  if (value == NULL)
    g_hash_table_remove (state->strings, name);
  else
    g_hash_table_insert (state->strings, g_strdup (name), g_strdup (value));
}

void
hyd_symbol_state_unset (HydSymbolState *state, const char *name)
{
  g_hash_table_remove (state->numbers, name);
  g_hash_table_remove (state->strings, name);
}

gboolean
hyd_symbol_state_lookup (const HydSymbolState *state, const char *name, double *value)
{
  const double *slot = g_hash_table_lookup (state->numbers, name);
  if (slot == NULL || isnan (*slot))
    return FALSE;
  if (value)
    *value = *slot;
  return TRUE;
}

const char *
hyd_symbol_state_lookup_string (const HydSymbolState *state, const char *name)
{
  return g_hash_table_lookup (state->strings, name);
}

void
hyd_symbol_state_set_port_connected (HydSymbolState *state, const char *port, gboolean connected)
{
  if (connected)
    g_hash_table_add (state->connected, g_strdup (port));
  else
    g_hash_table_remove (state->connected, port);
}

gboolean
hyd_symbol_state_get_port_connected (const HydSymbolState *state, const char *port)
{
  return g_hash_table_contains (state->connected, port);
}

void
hyd_symbol_state_set_component_params (HydSymbolState *state, const HydCircuitComponent *component)
{
  g_return_if_fail (state != NULL && component != NULL);
  const HydComponentType *type = hyd_catalogue_lookup (component->type);
  if (type == NULL)
    return;
  for (guint i = 0; i < type->n_params; i++)
    {
      const HydParamInfo *info = &type->params[i];
      JsonNode *node = component->params ? json_object_get_member (component->params, info->name) : NULL;
      if (info->flags & HYD_PARAM_REFERENCE)
        {
          /* the id it names, for a label such as a contact's "{relay}" */
          if (node_is_string (node) && *json_node_get_string (node))
            hyd_symbol_state_set_string (state, info->name, json_node_get_string (node));
          continue;
        }
      if (info->flags & HYD_PARAM_ENUM)
        {
          const char *choice = NULL;
          if (node_is_string (node) && g_strv_contains (info->choices, json_node_get_string (node)))
            choice = json_node_get_string (node);
          else
            choice = info->choices[(int) info->def];
          hyd_symbol_state_set_string (state, info->name, choice);
          continue;
        }
      double v = NAN;
      if (node_is_number (node))
        v = json_node_get_double (node);
      else if (node && JSON_NODE_HOLDS_OBJECT (node))
        {
          g_autoptr (HydProfile) prof = hyd_profile_new_from_json (node, NULL);
          if (prof)
            v = hyd_profile_value_after (prof, 0.0);
        }
      if (isnan (v) && !(info->flags & (HYD_PARAM_OPTIONAL | HYD_PARAM_FLUID_CD)))
        v = info->def;
      if (isfinite (v))
        hyd_symbol_state_set (state, info->name, v);
    }
}
