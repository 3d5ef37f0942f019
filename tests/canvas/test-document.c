/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-document.c — document commands and their undo/redo round trips:
 * undoing every edit restores the exact JSON. */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "hyd-document.h"

static HydDocument *
load_example (const char *name)
{
  g_autofree char *path = g_build_filename (HYD_TEST_DATA_DIR, "examples", name, NULL);
  GError *error = NULL;
  HydDocument *doc = hyd_document_new_from_file (path, &error);
  g_assert_no_error (error);
  return doc;
}

static JsonNode *
number (double v)
{
  JsonNode *n = json_node_new (JSON_NODE_VALUE);
  json_node_set_double (n, v);
  return n;
}

/* Apply one edit; undo must give the JSON before, redo the JSON after. */
typedef void (*Edit) (HydDocument *doc, gpointer user);

static void
check_round_trip (HydDocument *doc, Edit edit, gpointer user)
{
  g_autofree char *before = hyd_document_to_data (doc);
  edit (doc, user);
  g_autofree char *after = hyd_document_to_data (doc);
  g_assert_cmpstr (before, !=, after);
  g_assert_true (hyd_document_undo (doc));
  g_autofree char *undone = hyd_document_to_data (doc);
  g_assert_cmpstr (undone, ==, before);
  g_assert_true (hyd_document_redo (doc));
  g_autofree char *redone = hyd_document_to_data (doc);
  g_assert_cmpstr (redone, ==, after);
}

static void
edit_add (HydDocument *doc, gpointer user)
{
  g_autofree char *id = hyd_document_add_component (doc, "relief_valve", 300, 200);
  g_assert_cmpstr (id, ==, "RV2");
}

static void
edit_delete (HydDocument *doc, gpointer user)
{
  const char *ids[] = { "C1", NULL };
  hyd_document_remove_items (doc, ids);
  g_assert_null (hyd_circuit_find_component (hyd_document_get_circuit (doc), "C1"));
}

static void
edit_move (HydDocument *doc, gpointer user)
{
  const char *ids[] = { "DCV1", "C1", NULL };
  hyd_document_move_items (doc, ids, 30, -20);
}

static void
edit_rotate (HydDocument *doc, gpointer user)
{
  const char *ids[] = { "RV1", NULL };
  hyd_document_rotate_items (doc, ids, 1);
  g_assert_cmpint (hyd_circuit_find_component (hyd_document_get_circuit (doc), "RV1")->rotation % 90, ==, 0);
}

static void
edit_mirror (HydDocument *doc, gpointer user)
{
  const char *ids[] = { "C1", "DCV1", NULL };
  hyd_document_mirror_items (doc, ids);
}

static void
edit_param (HydDocument *doc, gpointer user)
{
  g_autoptr (JsonNode) v = number (1.2e7);
  GError *error = NULL;
  g_assert_true (hyd_document_set_param (doc, "RV1", "cracking_pressure", v, &error));
  g_assert_no_error (error);
}

static void
edit_label (HydDocument *doc, gpointer user)
{
  hyd_document_set_label (doc, "C1", "Clamp cylinder");
}

static void
edit_wire (HydDocument *doc, gpointer user)
{
  /* placing a gauge and wiring it, as one command */
  hyd_document_begin_group (doc, "Add gauge");
  g_autofree char *id = hyd_document_add_component (doc, "pressure_gauge", 100, 100);
  const double route[] = { 100, 50, 200, 50 };
  GError *error = NULL;
  int k = hyd_document_add_connection (doc, "G1.P", "C1.A", route, 2, &error);
  hyd_document_end_group (doc);
  g_assert_no_error (error);
  g_assert_cmpint (k, >=, 0);
}

static void
edit_split (HydDocument *doc, gpointer user)
{
  char *j = hyd_document_split_connection (doc, 0, 0, 0);
  g_assert_nonnull (j);
  g_free (j);
}

static void
edit_setting (HydDocument *doc, gpointer user)
{
  g_autoptr (JsonNode) v = number (3.5);
  GError *error = NULL;
  g_assert_true (hyd_document_set_setting (doc, "simulation", "t_end", v, &error));
  g_assert_no_error (error);
}

static void
test_each_edit (void)
{
  struct { const char *name; Edit edit; } edits[] = {
    { "add", edit_add }, { "delete", edit_delete }, { "move", edit_move },
    { "rotate", edit_rotate }, { "mirror", edit_mirror }, { "param", edit_param },
    { "label", edit_label }, { "wire", edit_wire }, { "split", edit_split },
    { "setting", edit_setting },
  };
  for (guint k = 0; k < G_N_ELEMENTS (edits); k++)
    {
      g_test_message ("edit: %s", edits[k].name);
      HydDocument *doc = load_example ("cylinder-extend-retract.bramah");
      check_round_trip (doc, edits[k].edit, NULL);
      g_object_unref (doc);
    }
}

/* A long random sequence of edits, then undo all of it: the exact file
 * comes back; redo all of it: the exact final state. */
static void
test_random_sequence (void)
{
  HydDocument *doc = load_example ("hasp-problem5.bramah");
  g_autofree char *original = hyd_document_to_data (doc);
  GRand *rand = g_rand_new_with_seed (4242);
  const char *types[] = { "orifice", "check_valve", "volume", "dcv_4_3", "cylinder_double", "tank" };
  guint edits = 0;
  for (int k = 0; k < 200; k++)
    {
      const HydCircuit *c = hyd_document_get_circuit (doc);
      guint nc = c->components->len;
      int what = g_rand_int_range (rand, 0, 8);
      const HydCircuitComponent *pick = nc ? g_ptr_array_index (c->components, g_rand_int_range (rand, 0, nc)) : NULL;
      const char *ids[] = { pick ? pick->id : NULL, NULL };
      switch (what)
        {
        case 0:
          g_free (hyd_document_add_component (doc, types[g_rand_int_range (rand, 0, G_N_ELEMENTS (types))],
                                              10 * g_rand_int_range (rand, 0, 80), 10 * g_rand_int_range (rand, 0, 60)));
          break;
        case 1:
          if (pick)
            hyd_document_move_items (doc, ids, 10 * g_rand_int_range (rand, -5, 6), 10 * g_rand_int_range (rand, -5, 6));
          break;
        case 2:
          if (pick)
            hyd_document_rotate_items (doc, ids, g_rand_int_range (rand, 1, 4));
          break;
        case 3:
          if (pick && nc > 3 && g_rand_int_range (rand, 0, 4) == 0)
            hyd_document_remove_items (doc, ids);
          break;
        case 4:
          if (c->connections->len > 0)
            g_free (hyd_document_split_connection (doc, g_rand_int_range (rand, 0, c->connections->len), 10, 10));
          break;
        case 5:
          if (pick)
            hyd_document_set_label (doc, pick->id, g_rand_boolean (rand) ? "renamed" : NULL);
          break;
        case 6:
          if (pick)
            hyd_document_mirror_items (doc, ids);
          break;
        case 7:
          if (c->connections->len > 0)
            {
              guint ix = g_rand_int_range (rand, 0, c->connections->len);
              hyd_document_remove_connections (doc, &ix, 1);
            }
          break;
        }
      edits++;
    }
  g_autofree char *final = hyd_document_to_data (doc);
  guint undone = 0;
  while (hyd_document_undo (doc))
    undone++;
  g_autofree char *back = hyd_document_to_data (doc);
  g_assert_cmpstr (back, ==, original);
  g_assert_false (hyd_document_get_modified (doc));
  while (hyd_document_redo (doc))
    ;
  g_autofree char *again = hyd_document_to_data (doc);
  g_assert_cmpstr (again, ==, final);
  g_test_message ("%u edit calls, %u commands undone and redone", edits, undone);
  g_assert_cmpuint (undone, >, 50);
  g_rand_free (rand);
  g_object_unref (doc);
}

static void
test_group_and_modified (void)
{
  HydDocument *doc = load_example ("regenerative.bramah");
  g_assert_false (hyd_document_get_modified (doc));
  const char *ids[] = { "C1", NULL };
  hyd_document_begin_group (doc, "Drag");
  for (int k = 0; k < 5; k++)
    hyd_document_move_items (doc, ids, 10, 0);
  hyd_document_end_group (doc);
  g_assert_true (hyd_document_get_modified (doc));
  g_assert_cmpstr (hyd_document_get_undo_label (doc), ==, "Drag");
  /* one drag is one command */
  g_assert_true (hyd_document_undo (doc));
  g_assert_false (hyd_document_can_undo (doc));
  g_assert_false (hyd_document_get_modified (doc));

  /* saving marks the state; an undo past it is modified again */
  g_assert_true (hyd_document_redo (doc));
  g_autofree char *dir = g_dir_make_tmp ("bramah-doc-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "saved.bramah", NULL);
  GError *error = NULL;
  g_assert_true (hyd_document_save (doc, path, &error));
  g_assert_no_error (error);
  g_assert_false (hyd_document_get_modified (doc));
  hyd_document_undo (doc);
  g_assert_true (hyd_document_get_modified (doc));
  g_unlink (path);
  g_rmdir (dir);
  g_object_unref (doc);
}

static void
test_rejected_edits (void)
{
  HydDocument *doc = load_example ("cylinder-extend-retract.bramah");
  g_autofree char *before = hyd_document_to_data (doc);
  GError *error = NULL;
  g_autoptr (JsonNode) bad = number (-5);
  g_assert_false (hyd_document_set_param (doc, "RV1", "cracking_pressure", bad, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE);
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  g_assert_false (hyd_document_set_param (doc, "RV1", "no_such_param", bad, &error));
  g_clear_error (&error);
  g_assert_cmpint (hyd_document_add_connection (doc, "C1.A", "C9.B", NULL, 0, &error), <, 0);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE);
  g_clear_error (&error);
  /* a second wire between the same ends (either way round) would make a
   * file the loader refuses */
  const HydCircuitConnection *first = g_ptr_array_index (hyd_document_get_circuit (doc)->connections, 0);
  g_autofree char *first_from = g_strdup (first->from), *first_to = g_strdup (first->to);
  g_assert_cmpint (hyd_document_add_connection (doc, first_from, first_to, NULL, 0, &error), <, 0);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE);
  g_clear_error (&error);
  g_assert_cmpint (hyd_document_add_connection (doc, first_to, first_from, NULL, 0, &error), <, 0);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE);
  g_clear_error (&error);
  /* a gauge's signal port cannot take a hydraulic wire */
  g_free (hyd_document_add_component (doc, "pressure_gauge", 0, 0));
  g_assert_cmpint (hyd_document_add_connection (doc, "G1.S", "C1.A", NULL, 0, &error), <, 0);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_DOMAIN);
  g_clear_error (&error);
  hyd_document_undo (doc); /* the gauge */
  g_autofree char *after = hyd_document_to_data (doc);
  g_assert_cmpstr (after, ==, before);
  g_object_unref (doc);
}

static void
test_copy_paste (void)
{
  HydDocument *doc = load_example ("cylinder-extend-retract.bramah");
  const char *ids[] = { "DCV1", "C1", NULL };
  g_autofree char *clip = hyd_document_copy_items (doc, ids);
  guint n_conn = hyd_document_get_circuit (doc)->connections->len;
  GError *error = NULL;
  g_auto (GStrv) pasted = hyd_document_paste (doc, clip, 200, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (pasted), ==, 2);
  g_assert_cmpstr (pasted[0], ==, "DCV2");
  g_assert_cmpstr (pasted[1], ==, "C2");
  const HydCircuit *c = hyd_document_get_circuit (doc);
  HydCircuitComponent *orig = hyd_circuit_find_component (c, "C1");
  HydCircuitComponent *copy = hyd_circuit_find_component (c, "C2");
  g_assert_cmpfloat (copy->x, ==, orig->x + 200);
  g_assert_cmpfloat (copy->y, ==, orig->y);
  /* the wires between DCV1 and C1 came along, renamed */
  guint added = c->connections->len - n_conn;
  g_assert_cmpuint (added, >=, 2);
  for (guint k = n_conn; k < c->connections->len; k++)
    {
      HydCircuitConnection *cn = g_ptr_array_index (c->connections, k);
      g_assert_true (g_str_has_prefix (cn->from, "DCV2.") || g_str_has_prefix (cn->from, "C2."));
    }
  /* one paste is one command */
  g_assert_cmpstr (hyd_document_get_undo_label (doc), ==, "Paste");
  g_assert_true (hyd_document_undo (doc));
  g_assert_null (hyd_circuit_find_component (c, "C2"));
  g_object_unref (doc);
}

static void
test_split_lengths (void)
{
  HydDocument *doc = hyd_document_new ();
  g_free (hyd_document_add_component (doc, "volume", 0, 0));
  g_free (hyd_document_add_component (doc, "volume", 300, 100));
  const double route[] = { 100, 0, 100, 100 };
  GError *error = NULL;
  int k = hyd_document_add_connection (doc, "VOL1.P", "VOL2.P", route, 2, &error);
  g_assert_no_error (error);
  hyd_document_set_hose (doc, k, 2.0, 0.012);
  /* split on the vertical segment, 25 units below its top */
  g_autofree char *j = hyd_document_split_connection (doc, k, 100, 25);
  const HydCircuit *c = hyd_document_get_circuit (doc);
  g_assert_cmpuint (c->connections->len, ==, 2);
  HydCircuitConnection *a = g_ptr_array_index (c->connections, 0);
  HydCircuitConnection *b = g_ptr_array_index (c->connections, 1);
  g_assert_cmpstr (a->to, ==, j);
  g_assert_cmpstr (b->from, ==, j);
  /* hose volume unchanged, shared in proportion to the drawn lengths
   * measured along the route through the split point: 25 + 0 | 75 + 0 */
  g_assert_cmpfloat_with_epsilon (a->length + b->length, 2.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (a->length / (a->length + b->length), 0.25, 1e-12);
  g_assert_cmpfloat (a->diameter, ==, 0.012);
  g_assert_cmpfloat (b->diameter, ==, 0.012);
  g_object_unref (doc);
}

/* Splitting a wire keeps its hose friction (format version 3): a hose stays
 * two hoses with friction; a wire with a diameter but no length (a volume
 * only) stays without, although its pieces now have lengths. */
static void
test_split_friction (void)
{
  static const char json[] =
    "{\"format\": \"bramah-circuit\", \"version\": 3, \"components\": ["
    "{\"id\": \"V1\", \"type\": \"volume\"}, {\"id\": \"V2\", \"type\": \"volume\"},"
    "{\"id\": \"V3\", \"type\": \"volume\"}],"
    "\"connections\": [{\"from\": \"V1.P\", \"to\": \"V2.P\", \"diameter\": 0.012},"
    "{\"from\": \"V2.P2\", \"to\": \"V3.P\", \"length\": 2, \"diameter\": 0.012}]}";
  GError *error = NULL;
  HydCircuit *circuit = hyd_circuit_load_from_data (json, -1, NULL, &error);
  g_assert_no_error (error);
  HydDocument *doc = hyd_document_new_for_circuit (circuit);
  g_free (hyd_document_split_connection (doc, 0, 10, 10));
  g_free (hyd_document_split_connection (doc, 1, 10, 10));
  const HydCircuit *c = hyd_document_get_circuit (doc);
  g_assert_cmpuint (c->connections->len, ==, 4);
  for (guint k = 0; k < 4; k++)
    {
      HydCircuitConnection *cn = g_ptr_array_index (c->connections, k);
      gboolean hose = strcmp (cn->from, "V2.P2") == 0 || strcmp (cn->to, "V3.P") == 0;
      g_assert_true (cn->has_length);
      g_assert_cmpint (hyd_circuit_connection_friction (c, cn), ==, hose);
    }
  g_object_unref (doc);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/canvas/document/undo-redo-each-edit", test_each_edit);
  g_test_add_func ("/canvas/document/undo-all-restores-json", test_random_sequence);
  g_test_add_func ("/canvas/document/group-and-modified", test_group_and_modified);
  g_test_add_func ("/canvas/document/rejected-edits", test_rejected_edits);
  g_test_add_func ("/canvas/document/copy-paste", test_copy_paste);
  g_test_add_func ("/canvas/document/split-wire-lengths", test_split_lengths);
  g_test_add_func ("/canvas/document/split-wire-friction", test_split_friction);
  return g_test_run ();
}
