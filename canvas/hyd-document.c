/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-document.c — editable circuit with an undo stack of commands.
 *
 * A command is a list of primitive operations on the document's arrays; an
 * operation holds deep copies of the item before and after (either may be
 * absent: an insertion or a removal), so it can be replayed either way
 * exactly. Undo applies a command's operations backwards in reverse order. */
#include "hyd-document.h"
#include "hyd-catalogue.h"

#include <math.h>
#include <string.h>

typedef enum {
  ITEM_COMPONENT,
  ITEM_JUNCTION,
  ITEM_CONNECTION,
  ITEM_HEADER,    /* title, description, fluid, simulation */
} ItemKind;

typedef struct {
  char *title;
  char *description;
  JsonObject *fluid;
  JsonObject *simulation;
} Header;

typedef struct {
  ItemKind kind;
  guint index;
  gpointer before;  /* NULL: insertion */
  gpointer after;   /* NULL: removal */
} Op;

typedef struct {
  char *label;
  GPtrArray *ops;
  guint64 serial;
} Command;

struct _HydDocument {
  GObject parent_instance;
  HydCircuit *circuit;
  char *path;
  GPtrArray *undo;         /* of Command*, oldest first */
  GPtrArray *redo;         /* of Command*, next to redo last */
  Command *group;          /* the command being built by an open group */
  guint group_depth;
  guint64 next_serial;
  guint64 saved_serial;    /* serial of the top command when saved (0: none) */
};

G_DEFINE_FINAL_TYPE (HydDocument, hyd_document, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_MODIFIED,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

/* ---------------- deep copies ---------------- */

static JsonObject *
object_copy (JsonObject *object)
{
  if (object == NULL)
    return NULL;
  /* json-glib's node copy shares nested objects: go through text */
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, object);
  g_autofree char *text = json_to_string (node, FALSE);
  json_node_unref (node);
  g_autoptr (JsonParser) parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, text, -1, NULL))
    return json_object_new ();
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static Header *
header_new_from (const HydCircuit *c)
{
  Header *h = g_new0 (Header, 1);
  h->title = g_strdup (c->title);
  h->description = g_strdup (c->description);
  h->fluid = object_copy (c->fluid);
  h->simulation = object_copy (c->simulation);
  return h;
}

static Header *
header_copy (const Header *src)
{
  Header *h = g_new0 (Header, 1);
  h->title = g_strdup (src->title);
  h->description = g_strdup (src->description);
  h->fluid = object_copy (src->fluid);
  h->simulation = object_copy (src->simulation);
  return h;
}

static void
header_free (Header *h)
{
  if (h == NULL)
    return;
  g_free (h->title);
  g_free (h->description);
  if (h->fluid)
    json_object_unref (h->fluid);
  if (h->simulation)
    json_object_unref (h->simulation);
  g_free (h);
}

static gpointer
item_copy (ItemKind kind, gconstpointer item)
{
  switch (kind)
    {
    case ITEM_COMPONENT: return hyd_circuit_component_copy (item);
    case ITEM_JUNCTION: return hyd_circuit_junction_copy (item);
    case ITEM_CONNECTION: return hyd_circuit_connection_copy (item);
    case ITEM_HEADER: default: return header_copy (item);
    }
}

static void
item_free (ItemKind kind, gpointer item)
{
  if (item == NULL)
    return;
  switch (kind)
    {
    case ITEM_COMPONENT: hyd_circuit_component_free (item); break;
    case ITEM_JUNCTION: hyd_circuit_junction_free (item); break;
    case ITEM_CONNECTION: hyd_circuit_connection_free (item); break;
    case ITEM_HEADER: default: header_free (item); break;
    }
}

static void
op_free (Op *op)
{
  item_free (op->kind, op->before);
  item_free (op->kind, op->after);
  g_free (op);
}

static void
command_free (Command *cmd)
{
  g_free (cmd->label);
  g_ptr_array_unref (cmd->ops);
  g_free (cmd);
}

static Command *
command_new (HydDocument *doc, const char *label)
{
  Command *cmd = g_new0 (Command, 1);
  cmd->label = g_strdup (label);
  cmd->ops = g_ptr_array_new_with_free_func ((GDestroyNotify) op_free);
  cmd->serial = ++doc->next_serial;
  return cmd;
}

/* ---------------- applying operations ---------------- */

static GPtrArray *
array_for (HydDocument *doc, ItemKind kind)
{
  switch (kind)
    {
    case ITEM_COMPONENT: return doc->circuit->components;
    case ITEM_JUNCTION: return doc->circuit->junctions;
    case ITEM_CONNECTION: default: return doc->circuit->connections;
    }
}

static void
set_header (HydCircuit *c, const Header *h)
{
  g_free (c->title);
  g_free (c->description);
  c->title = g_strdup (h->title);
  c->description = g_strdup (h->description);
  if (c->fluid)
    json_object_unref (c->fluid);
  if (c->simulation)
    json_object_unref (c->simulation);
  c->fluid = object_copy (h->fluid);
  c->simulation = object_copy (h->simulation);
}

/* Replay op forwards (before → after) or backwards (after → before). */
static void
apply_op (HydDocument *doc, const Op *op, gboolean forward)
{
  gpointer from = forward ? op->before : op->after;
  gpointer to = forward ? op->after : op->before;
  if (op->kind == ITEM_HEADER)
    {
      set_header (doc->circuit, to);
      return;
    }
  GPtrArray *arr = array_for (doc, op->kind);
  if (from == NULL)
    g_ptr_array_insert (arr, (int) op->index, item_copy (op->kind, to));
  else if (to == NULL)
    g_ptr_array_remove_index (arr, op->index);
  else
    {
      item_free (op->kind, g_ptr_array_index (arr, op->index));
      g_ptr_array_index (arr, op->index) = item_copy (op->kind, to);
    }
}

static void
notify_state (HydDocument *doc)
{
  g_object_notify_by_pspec (G_OBJECT (doc), properties[PROP_MODIFIED]);
  g_object_notify_by_pspec (G_OBJECT (doc), properties[PROP_CAN_UNDO]);
  g_object_notify_by_pspec (G_OBJECT (doc), properties[PROP_CAN_REDO]);
}

static void
emit_changed (HydDocument *doc)
{
  g_signal_emit (doc, signals[SIGNAL_CHANGED], 0);
  notify_state (doc);
}

/* Finish a command: push it on the undo stack (unless empty); the redo
 * stack is dropped by any new edit. */
static void
commit (HydDocument *doc, Command *cmd)
{
  if (cmd->ops->len == 0)
    {
      command_free (cmd);
      return;
    }
  g_ptr_array_add (doc->undo, cmd);
  g_ptr_array_set_size (doc->redo, 0);
  emit_changed (doc);
}

/* Apply op now and record it in the open group or as its own command. */
static void
push_op (HydDocument *doc, const char *label, ItemKind kind, guint index, gpointer before, gpointer after)
{
  Op *op = g_new0 (Op, 1);
  op->kind = kind;
  op->index = index;
  op->before = before;
  op->after = after;
  apply_op (doc, op, TRUE);
  if (doc->group != NULL)
    {
      g_ptr_array_add (doc->group->ops, op);
      return;
    }
  Command *cmd = command_new (doc, label);
  g_ptr_array_add (cmd->ops, op);
  commit (doc, cmd);
}

void
hyd_document_begin_group (HydDocument *doc, const char *label)
{
  g_return_if_fail (HYD_IS_DOCUMENT (doc));
  if (doc->group_depth++ == 0)
    doc->group = command_new (doc, label);
}

void
hyd_document_end_group (HydDocument *doc)
{
  g_return_if_fail (HYD_IS_DOCUMENT (doc));
  g_return_if_fail (doc->group_depth > 0);
  if (--doc->group_depth == 0)
    {
      Command *cmd = g_steal_pointer (&doc->group);
      commit (doc, cmd);
    }
}

/* ---------------- GObject ---------------- */

static void
hyd_document_finalize (GObject *object)
{
  HydDocument *doc = HYD_DOCUMENT (object);
  g_clear_pointer (&doc->circuit, hyd_circuit_free);
  g_clear_pointer (&doc->path, g_free);
  g_clear_pointer (&doc->undo, g_ptr_array_unref);
  g_clear_pointer (&doc->redo, g_ptr_array_unref);
  if (doc->group)
    command_free (doc->group);
  G_OBJECT_CLASS (hyd_document_parent_class)->finalize (object);
}

static void
hyd_document_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  HydDocument *doc = HYD_DOCUMENT (object);
  switch (prop_id)
    {
    case PROP_MODIFIED: g_value_set_boolean (value, hyd_document_get_modified (doc)); break;
    case PROP_CAN_UNDO: g_value_set_boolean (value, hyd_document_can_undo (doc)); break;
    case PROP_CAN_REDO: g_value_set_boolean (value, hyd_document_can_redo (doc)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hyd_document_class_init (HydDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->finalize = hyd_document_finalize;
  object_class->get_property = hyd_document_get_property;
  properties[PROP_MODIFIED] =
    g_param_spec_boolean ("modified", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_UNDO] =
    g_param_spec_boolean ("can-undo", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_REDO] =
    g_param_spec_boolean ("can-redo", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  /* Emitted after every edit, undo and redo. */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
hyd_document_init (HydDocument *doc)
{
  doc->undo = g_ptr_array_new_with_free_func ((GDestroyNotify) command_free);
  doc->redo = g_ptr_array_new_with_free_func ((GDestroyNotify) command_free);
}

HydDocument *
hyd_document_new_for_circuit (HydCircuit *circuit)
{
  g_return_val_if_fail (circuit != NULL, NULL);
  HydDocument *doc = g_object_new (HYD_TYPE_DOCUMENT, NULL);
  doc->circuit = circuit;
  return doc;
}

HydDocument *
hyd_document_new (void)
{
  HydCircuit *c = hyd_circuit_new ();
  return hyd_document_new_for_circuit (c);
}

HydDocument *
hyd_document_new_from_file (const char *path, GError **error)
{
  HydCircuit *c = hyd_circuit_load_from_file (path, error);
  if (c == NULL)
    return NULL;
  HydDocument *doc = hyd_document_new_for_circuit (c);
  doc->path = g_strdup (path);
  return doc;
}

const HydCircuit *
hyd_document_get_circuit (HydDocument *doc)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), NULL);
  return doc->circuit;
}

char *
hyd_document_to_data (HydDocument *doc)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), NULL);
  return hyd_circuit_to_data (doc->circuit, NULL);
}

static guint64
top_serial (HydDocument *doc)
{
  return doc->undo->len ? ((Command *) g_ptr_array_index (doc->undo, doc->undo->len - 1))->serial : 0;
}

gboolean
hyd_document_save (HydDocument *doc, const char *path, GError **error)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), FALSE);
  if (!hyd_circuit_save_to_file (doc->circuit, path, error))
    return FALSE;
  if (doc->path != path)
    {
      g_free (doc->path);
      doc->path = g_strdup (path);
    }
  doc->saved_serial = top_serial (doc);
  notify_state (doc);
  return TRUE;
}

const char *
hyd_document_get_path (HydDocument *doc)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), NULL);
  return doc->path;
}

gboolean
hyd_document_get_modified (HydDocument *doc)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), FALSE);
  return top_serial (doc) != doc->saved_serial;
}

/* ---------------- undo ---------------- */

gboolean
hyd_document_can_undo (HydDocument *doc)
{
  return doc->undo->len > 0 && doc->group_depth == 0;
}

gboolean
hyd_document_can_redo (HydDocument *doc)
{
  return doc->redo->len > 0 && doc->group_depth == 0;
}

const char *
hyd_document_get_undo_label (HydDocument *doc)
{
  return doc->undo->len ? ((Command *) g_ptr_array_index (doc->undo, doc->undo->len - 1))->label : NULL;
}

const char *
hyd_document_get_redo_label (HydDocument *doc)
{
  return doc->redo->len ? ((Command *) g_ptr_array_index (doc->redo, doc->redo->len - 1))->label : NULL;
}

gboolean
hyd_document_undo (HydDocument *doc)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), FALSE);
  if (!hyd_document_can_undo (doc))
    return FALSE;
  Command *cmd = g_ptr_array_steal_index (doc->undo, doc->undo->len - 1);
  for (guint k = cmd->ops->len; k-- > 0;)
    apply_op (doc, g_ptr_array_index (cmd->ops, k), FALSE);
  g_ptr_array_add (doc->redo, cmd);
  emit_changed (doc);
  return TRUE;
}

gboolean
hyd_document_redo (HydDocument *doc)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), FALSE);
  if (!hyd_document_can_redo (doc))
    return FALSE;
  Command *cmd = g_ptr_array_steal_index (doc->redo, doc->redo->len - 1);
  for (guint k = 0; k < cmd->ops->len; k++)
    apply_op (doc, g_ptr_array_index (cmd->ops, k), TRUE);
  g_ptr_array_add (doc->undo, cmd);
  emit_changed (doc);
  return TRUE;
}

/* ---------------- lookups and ids ---------------- */

static int
component_index (HydDocument *doc, const char *id)
{
  GPtrArray *a = doc->circuit->components;
  for (guint i = 0; i < a->len; i++)
    if (strcmp (((HydCircuitComponent *) g_ptr_array_index (a, i))->id, id) == 0)
      return (int) i;
  return -1;
}

static int
junction_index (HydDocument *doc, const char *id)
{
  GPtrArray *a = doc->circuit->junctions;
  for (guint i = 0; i < a->len; i++)
    if (strcmp (((HydCircuitJunction *) g_ptr_array_index (a, i))->id, id) == 0)
      return (int) i;
  return -1;
}

static gboolean
id_taken (HydDocument *doc, const char *id)
{
  return component_index (doc, id) >= 0 || junction_index (doc, id) >= 0;
}

/* Textbook prefixes (the type's designator): P1 pump, V1 valve, C1
 * cylinder, ... */
static const char *
id_prefix (const char *type)
{
  const HydComponentType *t = hyd_catalogue_lookup (type);
  return t != NULL && t->designator != NULL ? t->designator : "X";
}

static char *
fresh_id (HydDocument *doc, const char *prefix)
{
  for (guint n = 1;; n++)
    {
      char *id = g_strdup_printf ("%s%u", prefix, n);
      if (!id_taken (doc, id))
        return id;
      g_free (id);
    }
}

static gboolean
strv_has (const char *const *ids, const char *id)
{
  for (guint i = 0; ids && ids[i]; i++)
    if (strcmp (ids[i], id) == 0)
      return TRUE;
  return FALSE;
}

/* The component or junction id at one end of a wire ("C1.A" → "C1"). */
static char *
end_owner (const char *ref)
{
  const char *dot = strchr (ref, '.');
  return dot ? g_strndup (ref, dot - ref) : g_strdup (ref);
}

/* ---------------- edits ---------------- */

char *
hyd_document_add_component (HydDocument *doc, const char *type, double x, double y)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), NULL);
  if (hyd_catalogue_lookup (type) == NULL)
    return NULL;
  char *id = fresh_id (doc, id_prefix (type));
  HydCircuitComponent *c = hyd_circuit_component_new (id, type);
  c->x = x;
  c->y = y;
  c->has_position = TRUE;
  g_autofree char *label = g_strdup_printf ("Add %s", id);
  push_op (doc, label, ITEM_COMPONENT, doc->circuit->components->len, NULL, c);
  return id;
}

char *
hyd_document_add_junction (HydDocument *doc, double x, double y)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), NULL);
  char *id = fresh_id (doc, "J");
  HydCircuitJunction *j = hyd_circuit_junction_new (id);
  j->x = x;
  j->y = y;
  j->has_position = TRUE;
  push_op (doc, "Add junction", ITEM_JUNCTION, doc->circuit->junctions->len, NULL, j);
  return id;
}

/* Domain of a wire end: the port's domain; a junction takes the domain of
 * the first port reached through wires; −1 when nothing decides it. */
static int
end_domain (HydDocument *doc, const char *ref, GHashTable *seen)
{
  char *cid = NULL, *pname = NULL;
  if (hyd_circuit_split_port_ref (ref, &cid, &pname))
    {
      int dom = -1;
      HydCircuitComponent *c = hyd_circuit_find_component (doc->circuit, cid);
      const HydComponentType *t = c ? hyd_catalogue_lookup (c->type) : NULL;
      int k = t ? hyd_component_type_find_port (t, pname) : -1;
      if (k >= 0)
        dom = t->ports[k].domain;
      g_free (cid);
      g_free (pname);
      return dom;
    }
  if (g_hash_table_contains (seen, ref))
    return -1;
  g_hash_table_add (seen, g_strdup (ref));
  GPtrArray *cs = doc->circuit->connections;
  for (guint i = 0; i < cs->len; i++)
    {
      HydCircuitConnection *cn = g_ptr_array_index (cs, i);
      const char *other = strcmp (cn->from, ref) == 0 ? cn->to : strcmp (cn->to, ref) == 0 ? cn->from : NULL;
      if (other == NULL)
        continue;
      int dom = end_domain (doc, other, seen);
      if (dom >= 0)
        return dom;
    }
  return -1;
}

static gboolean
check_end (HydDocument *doc, const char *ref, GError **error)
{
  char *cid = NULL, *pname = NULL;
  if (hyd_circuit_split_port_ref (ref, &cid, &pname))
    {
      HydCircuitComponent *c = hyd_circuit_find_component (doc->circuit, cid);
      const HydComponentType *t = c ? hyd_catalogue_lookup (c->type) : NULL;
      gboolean ok = t && hyd_component_type_find_port (t, pname) >= 0;
      if (!ok)
        g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE,
                     c ? "%s has no port %s" : "no component %s%s", cid, c ? pname : "");
      g_free (cid);
      g_free (pname);
      return ok;
    }
  if (junction_index (doc, ref) < 0)
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE, "no junction %s", ref);
      return FALSE;
    }
  return TRUE;
}

static GArray *
route_array (const double *route, guint n_points)
{
  if (route == NULL || n_points == 0)
    return NULL;
  GArray *a = g_array_sized_new (FALSE, FALSE, sizeof (double), 2 * n_points);
  g_array_append_vals (a, route, 2 * n_points);
  return a;
}

int
hyd_document_add_connection (HydDocument *doc, const char *from, const char *to,
                             const double *route, guint n_points, GError **error)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), -1);
  if (!check_end (doc, from, error) || !check_end (doc, to, error))
    return -1;
  if (strcmp (from, to) == 0)
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE,
                   "a wire cannot start and end on %s", from);
      return -1;
    }
  /* the loader refuses a second wire between the same two ends */
  for (guint k = 0; k < doc->circuit->connections->len; k++)
    {
      const HydCircuitConnection *old = g_ptr_array_index (doc->circuit->connections, k);
      if ((strcmp (old->from, from) == 0 && strcmp (old->to, to) == 0)
          || (strcmp (old->from, to) == 0 && strcmp (old->to, from) == 0))
        {
          g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE,
                       "a wire between %s and %s exists already", from, to);
          return -1;
        }
    }
  g_autoptr (GHashTable) seen_a = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) seen_b = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  int da = end_domain (doc, from, seen_a), db = end_domain (doc, to, seen_b);
  if (da >= 0 && db >= 0 && da != db)
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_DOMAIN,
                   "cannot connect %s (%s) to %s (%s)", from, hyd_domain_name (da), to,
                   hyd_domain_name (db));
      return -1;
    }
  HydCircuitConnection *cn = hyd_circuit_connection_new (from, to);
  cn->route = route_array (route, n_points);
  guint index = doc->circuit->connections->len;
  push_op (doc, "Add wire", ITEM_CONNECTION, index, NULL, cn);
  return (int) index;
}

static void
remove_connection_at (HydDocument *doc, guint index)
{
  HydCircuitConnection *old = g_ptr_array_index (doc->circuit->connections, index);
  push_op (doc, "Remove wire", ITEM_CONNECTION, index, hyd_circuit_connection_copy (old), NULL);
}

static int
cmp_uint_desc (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;
  return x < y ? 1 : x > y ? -1 : 0;
}

void
hyd_document_remove_connections (HydDocument *doc, const guint *indices, guint n)
{
  g_return_if_fail (HYD_IS_DOCUMENT (doc));
  g_autofree guint *sorted = g_memdup2 (indices, sizeof (guint) * n);
  qsort (sorted, n, sizeof (guint), (int (*) (const void *, const void *)) cmp_uint_desc);
  hyd_document_begin_group (doc, n == 1 ? "Remove wire" : "Remove wires");
  for (guint k = 0; k < n; k++)
    if ((k == 0 || sorted[k] != sorted[k - 1]) && sorted[k] < doc->circuit->connections->len)
      remove_connection_at (doc, sorted[k]);
  hyd_document_end_group (doc);
}

void
hyd_document_remove_items (HydDocument *doc, const char *const *ids_in)
{
  g_return_if_fail (HYD_IS_DOCUMENT (doc));
  /* the caller's strings may belong to the items being replaced */
  g_auto (GStrv) owned = g_strdupv ((char **) ids_in);
  const char *const *ids = (const char *const *) owned;
  hyd_document_begin_group (doc, "Delete");
  GPtrArray *cs = doc->circuit->connections;
  for (guint i = cs->len; i-- > 0;)
    {
      HydCircuitConnection *cn = g_ptr_array_index (cs, i);
      g_autofree char *a = end_owner (cn->from);
      g_autofree char *b = end_owner (cn->to);
      if (strv_has (ids, a) || strv_has (ids, b))
        remove_connection_at (doc, i);
    }
  for (guint k = 0; ids && ids[k]; k++)
    {
      int ci = component_index (doc, ids[k]);
      if (ci >= 0)
        {
          HydCircuitComponent *c = g_ptr_array_index (doc->circuit->components, ci);
          push_op (doc, "Delete", ITEM_COMPONENT, ci, hyd_circuit_component_copy (c), NULL);
          continue;
        }
      int ji = junction_index (doc, ids[k]);
      if (ji >= 0)
        {
          HydCircuitJunction *j = g_ptr_array_index (doc->circuit->junctions, ji);
          push_op (doc, "Delete", ITEM_JUNCTION, ji, hyd_circuit_junction_copy (j), NULL);
        }
    }
  hyd_document_end_group (doc);
}

/* Replace item i of kind with a modified copy made by fn. */
typedef void (*EditFunc) (gpointer item, gpointer user);

static void
edit_item (HydDocument *doc, const char *label, ItemKind kind, guint index, EditFunc fn, gpointer user)
{
  gpointer cur = g_ptr_array_index (array_for (doc, kind), index);
  gpointer after = item_copy (kind, cur);
  fn (after, user);
  push_op (doc, label, kind, index, item_copy (kind, cur), after);
}

typedef struct {
  double dx, dy;
} Shift;

static void
shift_component (gpointer item, gpointer user)
{
  HydCircuitComponent *c = item;
  const Shift *s = user;
  c->x += s->dx;
  c->y += s->dy;
  c->has_position = TRUE;
}

static void
shift_junction (gpointer item, gpointer user)
{
  HydCircuitJunction *j = item;
  const Shift *s = user;
  j->x += s->dx;
  j->y += s->dy;
  j->has_position = TRUE;
}

static void
shift_route (gpointer item, gpointer user)
{
  HydCircuitConnection *cn = item;
  const Shift *s = user;
  for (guint k = 0; cn->route && k + 1 < cn->route->len; k += 2)
    {
      g_array_index (cn->route, double, k) += s->dx;
      g_array_index (cn->route, double, k + 1) += s->dy;
    }
}

/* Wires whose both ends belong to the selection. */
static gboolean
wire_inside (const HydCircuitConnection *cn, const char *const *ids)
{
  g_autofree char *a = end_owner (cn->from);
  g_autofree char *b = end_owner (cn->to);
  return strv_has (ids, a) && strv_has (ids, b);
}

void
hyd_document_move_items (HydDocument *doc, const char *const *ids_in, double dx, double dy)
{
  g_return_if_fail (HYD_IS_DOCUMENT (doc));
  g_auto (GStrv) owned = g_strdupv ((char **) ids_in);
  const char *const *ids = (const char *const *) owned;
  if (dx == 0.0 && dy == 0.0)
    return;
  Shift s = { dx, dy };
  hyd_document_begin_group (doc, "Move");
  for (guint k = 0; ids && ids[k]; k++)
    {
      int ci = component_index (doc, ids[k]);
      if (ci >= 0)
        edit_item (doc, "Move", ITEM_COMPONENT, ci, shift_component, &s);
      int ji = junction_index (doc, ids[k]);
      if (ji >= 0)
        edit_item (doc, "Move", ITEM_JUNCTION, ji, shift_junction, &s);
    }
  GPtrArray *cs = doc->circuit->connections;
  for (guint i = 0; i < cs->len; i++)
    {
      HydCircuitConnection *cn = g_ptr_array_index (cs, i);
      if (cn->route && wire_inside (cn, ids))
        edit_item (doc, "Move", ITEM_CONNECTION, i, shift_route, &s);
    }
  hyd_document_end_group (doc);
}

/* The selection's centre, on the grid (10 units). */
static void
selection_centre (HydDocument *doc, const char *const *ids, double *cx, double *cy)
{
  double sx = 0, sy = 0;
  guint n = 0;
  for (guint k = 0; ids && ids[k]; k++)
    {
      int ci = component_index (doc, ids[k]);
      if (ci >= 0)
        {
          HydCircuitComponent *c = g_ptr_array_index (doc->circuit->components, ci);
          sx += c->x;
          sy += c->y;
          n++;
        }
      int ji = junction_index (doc, ids[k]);
      if (ji >= 0)
        {
          HydCircuitJunction *j = g_ptr_array_index (doc->circuit->junctions, ji);
          sx += j->x;
          sy += j->y;
          n++;
        }
    }
  *cx = n ? 10.0 * round (sx / n / 10.0) : 0.0;
  *cy = n ? 10.0 * round (sy / n / 10.0) : 0.0;
}

typedef struct {
  double cx, cy;
  int quarter;   /* clockwise quarter turns; 0 with mirror */
  gboolean mirror;
} Turn;

/* Screen coordinates (y down): a clockwise quarter turn maps (x, y) to (−y, x). */
static void
turn_point (const Turn *t, double *x, double *y)
{
  double dx = *x - t->cx, dy = *y - t->cy;
  if (t->mirror)
    dx = -dx;
  for (int q = 0; q < t->quarter; q++)
    {
      double ndx = -dy, ndy = dx;
      dx = ndx;
      dy = ndy;
    }
  *x = t->cx + dx;
  *y = t->cy + dy;
}

static void
turn_component (gpointer item, gpointer user)
{
  HydCircuitComponent *c = item;
  const Turn *t = user;
  turn_point (t, &c->x, &c->y);
  c->has_position = TRUE;
  if (t->mirror)
    {
      c->mirror = !c->mirror;
      c->has_mirror = TRUE;
    }
  else
    {
      c->rotation = (c->rotation + 90 * t->quarter) % 360;
      c->has_rotation = TRUE;
    }
}

static void
turn_junction (gpointer item, gpointer user)
{
  HydCircuitJunction *j = item;
  turn_point (user, &j->x, &j->y);
  j->has_position = TRUE;
}

static void
turn_route (gpointer item, gpointer user)
{
  HydCircuitConnection *cn = item;
  for (guint k = 0; cn->route && k + 1 < cn->route->len; k += 2)
    turn_point (user, &g_array_index (cn->route, double, k), &g_array_index (cn->route, double, k + 1));
}

static void
turn_items (HydDocument *doc, const char *const *ids_in, Turn *t, const char *label)
{
  g_auto (GStrv) owned = g_strdupv ((char **) ids_in);
  const char *const *ids = (const char *const *) owned;
  selection_centre (doc, ids, &t->cx, &t->cy);
  hyd_document_begin_group (doc, label);
  for (guint k = 0; ids && ids[k]; k++)
    {
      int ci = component_index (doc, ids[k]);
      if (ci >= 0)
        edit_item (doc, label, ITEM_COMPONENT, ci, turn_component, t);
      int ji = junction_index (doc, ids[k]);
      if (ji >= 0)
        edit_item (doc, label, ITEM_JUNCTION, ji, turn_junction, t);
    }
  GPtrArray *cs = doc->circuit->connections;
  for (guint i = 0; i < cs->len; i++)
    {
      HydCircuitConnection *cn = g_ptr_array_index (cs, i);
      if (cn->route && wire_inside (cn, ids))
        edit_item (doc, label, ITEM_CONNECTION, i, turn_route, t);
    }
  hyd_document_end_group (doc);
}

void
hyd_document_rotate_items (HydDocument *doc, const char *const *ids, int quarter_turns)
{
  g_return_if_fail (HYD_IS_DOCUMENT (doc));
  Turn t = { 0, 0, ((quarter_turns % 4) + 4) % 4, FALSE };
  if (t.quarter != 0)
    turn_items (doc, ids, &t, "Rotate");
}

void
hyd_document_mirror_items (HydDocument *doc, const char *const *ids)
{
  g_return_if_fail (HYD_IS_DOCUMENT (doc));
  Turn t = { 0, 0, 0, TRUE };
  turn_items (doc, ids, &t, "Mirror");
}

typedef struct {
  const char *name;
  JsonNode *value;
} ParamEdit;

static void
set_param_in (gpointer item, gpointer user)
{
  HydCircuitComponent *c = item;
  const ParamEdit *e = user;
  if (e->value == NULL)
    json_object_remove_member (c->params, e->name);
  else
    json_object_set_member (c->params, e->name, json_node_copy (e->value));
}

gboolean
hyd_document_set_param (HydDocument *doc, const char *id, const char *name, JsonNode *value,
                        GError **error)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), FALSE);
  int ci = component_index (doc, id);
  if (ci < 0)
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE, "no component %s", id);
      return FALSE;
    }
  HydCircuitComponent *cur = g_ptr_array_index (doc->circuit->components, ci);
  const HydComponentType *t = hyd_catalogue_lookup (cur->type);
  if (t == NULL || hyd_component_type_find_param (t, name) < 0)
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_UNKNOWN_PARAM,
                   "%s has no parameter \"%s\"", id, name);
      return FALSE;
    }
  /* validate on a copy, exactly as a loaded file is */
  ParamEdit e = { name, value };
  HydCircuitComponent *trial = hyd_circuit_component_copy (cur);
  set_param_in (trial, &e);
  HydFluid fluid;
  gboolean ok = hyd_circuit_get_fluid (doc->circuit, &fluid, error)
                && hyd_circuit_component_resolve_params (trial, &fluid, NULL, NULL, error);
  hyd_circuit_component_free (trial);
  if (!ok)
    return FALSE;
  g_autofree char *label = g_strdup_printf ("Set %s.%s", id, name);
  edit_item (doc, label, ITEM_COMPONENT, ci, set_param_in, &e);
  return TRUE;
}

static void
set_label_in (gpointer item, gpointer user)
{
  HydCircuitComponent *c = item;
  g_free (c->label);
  c->label = (user && *(const char *) user) ? g_strdup (user) : NULL;
}

void
hyd_document_set_label (HydDocument *doc, const char *id, const char *label)
{
  g_return_if_fail (HYD_IS_DOCUMENT (doc));
  int ci = component_index (doc, id);
  /* the label may be the item's own string, which the edit replaces */
  g_autofree char *copy = g_strdup (label);
  if (ci >= 0)
    edit_item (doc, "Rename", ITEM_COMPONENT, ci, set_label_in, copy);
}

typedef struct {
  const double *route;
  guint n;
} RouteEdit;

static void
set_route_in (gpointer item, gpointer user)
{
  HydCircuitConnection *cn = item;
  const RouteEdit *r = user;
  if (cn->route)
    g_array_unref (cn->route);
  cn->route = route_array (r->route, r->n);
}

void
hyd_document_set_route (HydDocument *doc, guint connection, const double *route, guint n_points)
{
  g_return_if_fail (HYD_IS_DOCUMENT (doc));
  g_return_if_fail (connection < doc->circuit->connections->len);
  RouteEdit r = { route, n_points };
  edit_item (doc, "Route wire", ITEM_CONNECTION, connection, set_route_in, &r);
}

typedef struct {
  double length, diameter;
} Hose;

static void
set_hose_in (gpointer item, gpointer user)
{
  HydCircuitConnection *cn = item;
  const Hose *h = user;
  cn->length = h->length;
  cn->has_length = TRUE;
  cn->diameter = h->diameter;
  cn->has_diameter = TRUE;
}

void
hyd_document_set_hose (HydDocument *doc, guint connection, double length, double diameter)
{
  g_return_if_fail (HYD_IS_DOCUMENT (doc));
  g_return_if_fail (connection < doc->circuit->connections->len);
  g_return_if_fail (length >= 0 && diameter > 0);
  Hose h = { length, diameter };
  edit_item (doc, "Hose", ITEM_CONNECTION, connection, set_hose_in, &h);
}

char *
hyd_document_split_connection (HydDocument *doc, guint connection, double x, double y)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), NULL);
  g_return_val_if_fail (connection < doc->circuit->connections->len, NULL);
  HydCircuitConnection *cn = g_ptr_array_index (doc->circuit->connections, connection);

  /* Drawn lengths along the route points (the ends' port positions belong
   * to the symbols, so the split point and the route points measure it). */
  guint np = cn->route ? cn->route->len / 2 : 0;
  double before = 0, after = 0;
  guint split = 0;      /* route points [0, split) stay on the first piece */
  double best = INFINITY;
  /* The split lies on the segment nearest to (x, y) among the route's
   * segments; points before it stay with the first piece. */
  for (guint k = 0; k + 1 < np; k++)
    {
      double ax = g_array_index (cn->route, double, 2 * k), ay = g_array_index (cn->route, double, 2 * k + 1);
      double bx = g_array_index (cn->route, double, 2 * k + 2), by = g_array_index (cn->route, double, 2 * k + 3);
      double len2 = (bx - ax) * (bx - ax) + (by - ay) * (by - ay);
      double u = len2 > 0 ? CLAMP (((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / len2, 0, 1) : 0;
      double qx = ax + u * (bx - ax), qy = ay + u * (by - ay);
      double d = hypot (qx - x, qy - y);
      if (d < best)
        {
          best = d;
          split = k + 1;
        }
    }
  if (np == 1)
    {
      /* one bend: the split is before or after it, whichever segment is nearer
       * in the axis the point shares with the bend */
      double bx = g_array_index (cn->route, double, 0), by = g_array_index (cn->route, double, 1);
      split = (fabs (by - y) < 1e-9 && x != bx) || (fabs (bx - x) < 1e-9 && y != by) ? 1 : 0;
    }
  /* drawn lengths of the two route parts, measured through (x, y) */
  double lx = x, ly = y;
  for (guint k = split; k-- > 0;)
    {
      double px = g_array_index (cn->route, double, 2 * k), py = g_array_index (cn->route, double, 2 * k + 1);
      before += fabs (px - lx) + fabs (py - ly);
      lx = px;
      ly = py;
    }
  lx = x;
  ly = y;
  for (guint k = split; k < np; k++)
    {
      double px = g_array_index (cn->route, double, 2 * k), py = g_array_index (cn->route, double, 2 * k + 1);
      after += fabs (px - lx) + fabs (py - ly);
      lx = px;
      ly = py;
    }
  double share = (before + after) > 0 ? before / (before + after) : 0.5;
  double len = cn->has_length ? cn->length : 0.5;
  /* the pieces get a length: in a version 3 circuit that would give a wire
   * with a diameter but no length friction it did not have (hose friction,
   * docs/circuit-format.md, Version 3) */
  gboolean friction = hyd_circuit_connection_friction (doc->circuit, cn);

  hyd_document_begin_group (doc, "Add junction");
  char *jid = hyd_document_add_junction (doc, x, y);
  HydCircuitConnection *a = hyd_circuit_connection_copy (cn);
  HydCircuitConnection *b = hyd_circuit_connection_copy (cn);
  g_free (a->to);
  a->to = g_strdup (jid);
  g_free (b->from);
  b->from = g_strdup (jid);
  if (a->route)
    g_array_set_size (a->route, 2 * split);
  if (b->route)
    g_array_remove_range (b->route, 0, 2 * split);
  if (a->route && a->route->len == 0)
    g_clear_pointer (&a->route, g_array_unref);
  if (b->route && b->route->len == 0)
    g_clear_pointer (&b->route, g_array_unref);
  a->length = len * share;
  b->length = len * (1.0 - share);
  a->has_length = b->has_length = TRUE;
  if (!friction && hyd_circuit_connection_friction (doc->circuit, a))
    {
      a->has_friction = b->has_friction = TRUE;
      a->friction = b->friction = FALSE;
    }
  /* unknown keys stay with the first piece only */
  g_clear_pointer (&b->extra, json_object_unref);
  push_op (doc, "Add junction", ITEM_CONNECTION, connection, hyd_circuit_connection_copy (cn), a);
  push_op (doc, "Add junction", ITEM_CONNECTION, doc->circuit->connections->len, NULL, b);
  hyd_document_end_group (doc);
  return jid;
}

static gboolean
header_setting (Header *h, const char *section, const char *key, JsonNode *value)
{
  JsonObject **obj;
  if (strcmp (section, "simulation") == 0)
    obj = &h->simulation;
  else if (strcmp (section, "fluid") == 0)
    obj = &h->fluid;
  else
    return FALSE;
  if (*obj == NULL)
    *obj = json_object_new ();
  if (value)
    json_object_set_member (*obj, key, json_node_copy (value));
  else if (json_object_has_member (*obj, key))
    json_object_remove_member (*obj, key);
  return TRUE;
}

gboolean
hyd_document_set_setting (HydDocument *doc, const char *section, const char *key, JsonNode *value,
                          GError **error)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), FALSE);
  Header *after = header_new_from (doc->circuit);
  if (!header_setting (after, section, key, value))
    {
      header_free (after);
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_SIMULATION,
                   "no settings section \"%s\" (simulation or fluid)", section);
      return FALSE;
    }
  /* validate on a copy of the document */
  HydCircuit *trial = hyd_circuit_copy (doc->circuit);
  set_header (trial, after);
  HydFluid fluid;
  HydSimOptions sim = { 0 };
  gboolean ok = hyd_circuit_get_fluid (trial, &fluid, error)
                && hyd_circuit_get_sim_options (trial, &sim, error);
  hyd_sim_options_clear (&sim);
  if (ok)
    ok = hyd_circuit_validate (trial, error);
  hyd_circuit_free (trial);
  if (!ok)
    {
      header_free (after);
      return FALSE;
    }
  g_autofree char *label = g_strdup_printf ("Set %s.%s", section, key);
  push_op (doc, label, ITEM_HEADER, 0, header_new_from (doc->circuit), after);
  return TRUE;
}

void
hyd_document_set_title (HydDocument *doc, const char *title, const char *description)
{
  g_return_if_fail (HYD_IS_DOCUMENT (doc));
  Header *after = header_new_from (doc->circuit);
  g_free (after->title);
  g_free (after->description);
  after->title = g_strdup (title);
  after->description = g_strdup (description);
  push_op (doc, "Title", ITEM_HEADER, 0, header_new_from (doc->circuit), after);
}

/* ---------------- clipboard ---------------- */

char *
hyd_document_copy_items (HydDocument *doc, const char *const *ids)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), NULL);
  g_autoptr (HydCircuit) frag = hyd_circuit_new ();
  for (guint k = 0; ids && ids[k]; k++)
    {
      int ci = component_index (doc, ids[k]);
      if (ci >= 0)
        g_ptr_array_add (frag->components,
                         hyd_circuit_component_copy (g_ptr_array_index (doc->circuit->components, ci)));
      int ji = junction_index (doc, ids[k]);
      if (ji >= 0)
        g_ptr_array_add (frag->junctions,
                         hyd_circuit_junction_copy (g_ptr_array_index (doc->circuit->junctions, ji)));
    }
  GPtrArray *cs = doc->circuit->connections;
  for (guint i = 0; i < cs->len; i++)
    {
      HydCircuitConnection *cn = g_ptr_array_index (cs, i);
      if (wire_inside (cn, ids))
        g_ptr_array_add (frag->connections, hyd_circuit_connection_copy (cn));
    }
  return hyd_circuit_to_data (frag, NULL);
}

static char *
rename_ref (GHashTable *renames, const char *ref)
{
  const char *dot = strchr (ref, '.');
  g_autofree char *owner = dot ? g_strndup (ref, dot - ref) : g_strdup (ref);
  const char *nw = g_hash_table_lookup (renames, owner);
  if (nw == NULL)
    return g_strdup (ref);
  return dot ? g_strconcat (nw, dot, NULL) : g_strdup (nw);
}

/* The prefix of an id: "VOL12" → "VOL", "J3" → "J". */
static char *
id_stem (const char *id)
{
  gsize n = strlen (id);
  while (n > 1 && g_ascii_isdigit (id[n - 1]))
    n--;
  return g_strndup (id, n);
}

GStrv
hyd_document_paste (HydDocument *doc, const char *data, double dx, double dy, GError **error)
{
  g_return_val_if_fail (HYD_IS_DOCUMENT (doc), NULL);
  g_autoptr (HydCircuit) frag = hyd_circuit_load_from_data (data, -1, "clipboard", error);
  if (frag == NULL)
    return NULL;
  g_autoptr (GHashTable) renames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *new_ids = g_ptr_array_new ();

  /* choose ids that clash neither with the document nor with each other */
  for (int pass = 0; pass < 2; pass++)
    {
      GPtrArray *arr = pass == 0 ? frag->components : frag->junctions;
      for (guint i = 0; i < arr->len; i++)
        {
          const char *id = pass == 0 ? ((HydCircuitComponent *) g_ptr_array_index (arr, i))->id
                                     : ((HydCircuitJunction *) g_ptr_array_index (arr, i))->id;
          char *nw = NULL;
          if (!id_taken (doc, id) && !g_hash_table_contains (used, id))
            nw = g_strdup (id);
          else
            {
              g_autofree char *stem = id_stem (id);
              for (guint n = 1; nw == NULL; n++)
                {
                  char *cand = g_strdup_printf ("%s%u", stem, n);
                  if (!id_taken (doc, cand) && !g_hash_table_contains (used, cand))
                    nw = cand;
                  else
                    g_free (cand);
                }
            }
          g_hash_table_add (used, g_strdup (nw));
          g_hash_table_insert (renames, g_strdup (id), nw);
          g_ptr_array_add (new_ids, g_strdup (nw));
        }
    }

  hyd_document_begin_group (doc, "Paste");
  for (guint i = 0; i < frag->components->len; i++)
    {
      HydCircuitComponent *c = hyd_circuit_component_copy (g_ptr_array_index (frag->components, i));
      char *nw = g_strdup (g_hash_table_lookup (renames, c->id));
      g_free (c->id);
      c->id = nw;
      c->x += dx;
      c->y += dy;
      c->has_position = TRUE;
      push_op (doc, "Paste", ITEM_COMPONENT, doc->circuit->components->len, NULL, c);
    }
  for (guint i = 0; i < frag->junctions->len; i++)
    {
      HydCircuitJunction *j = hyd_circuit_junction_copy (g_ptr_array_index (frag->junctions, i));
      char *nw = g_strdup (g_hash_table_lookup (renames, j->id));
      g_free (j->id);
      j->id = nw;
      j->x += dx;
      j->y += dy;
      j->has_position = TRUE;
      push_op (doc, "Paste", ITEM_JUNCTION, doc->circuit->junctions->len, NULL, j);
    }
  Shift s = { dx, dy };
  for (guint i = 0; i < frag->connections->len; i++)
    {
      HydCircuitConnection *cn = hyd_circuit_connection_copy (g_ptr_array_index (frag->connections, i));
      char *f = rename_ref (renames, cn->from), *t = rename_ref (renames, cn->to);
      g_free (cn->from);
      g_free (cn->to);
      cn->from = f;
      cn->to = t;
      shift_route (cn, &s);
      push_op (doc, "Paste", ITEM_CONNECTION, doc->circuit->connections->len, NULL, cn);
    }
  hyd_document_end_group (doc);
  g_ptr_array_add (new_ids, NULL);
  return (GStrv) g_ptr_array_free (new_ids, FALSE);
}
