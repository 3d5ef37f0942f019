/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-hostile.c — circuit files made to break the loader and the saver
 * (issue 9): each reproducer is a file under tests/engine/hostile/, or is
 * generated here when it is large (deep nesting, big circuits). */
#include <glib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hyd-circuit.h"
#include "hyd-json-scan.h"
#include "hyd-system.h"

static char *
hostile_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "hostile", name, NULL);
}

static void
assert_contains (const char *message, const char *needle)
{
  if (strstr (message, needle) == NULL)
    g_error ("message \"%s\" does not contain \"%s\"", message, needle);
}

static char *
read_text (const char *path)
{
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* save → load → save gives the same bytes */
static void
assert_round_trip (const HydCircuit *circuit)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *first = hyd_circuit_to_data (circuit, NULL);
  g_autoptr(HydCircuit) again = hyd_circuit_load_from_data (first, -1, "saved", &error);
  g_autofree char *second = NULL;

  g_assert_no_error (error);
  second = hyd_circuit_to_data (again, NULL);
  g_assert_cmpstr (first, ==, second);
}

/* ---------------------------------------------------------------------------
 * Reproducers under hostile/
 * ------------------------------------------------------------------------- */

typedef struct {
  const char *file;
  HydCircuitErrorCode code;
  const char *needles[4];
} HostileCase;

static const HostileCase hostile_cases[] = {
  /* item 2: a string the writer could not write back */
  { "lone-high-surrogate.bramah", HYD_CIRCUIT_ERROR_PARSE, { ":4:18:", "\\ud800", "lone high surrogate" } },
  { "lone-low-surrogate.bramah", HYD_CIRCUIT_ERROR_PARSE, { ":4:18:", "\\udc00", "lone low surrogate" } },
  { "invalid-utf8.bramah", HYD_CIRCUIT_ERROR_PARSE, { ":4:17:", "invalid UTF-8", "0xFF" } },
  { "utf8-surrogate.bramah", HYD_CIRCUIT_ERROR_PARSE, { ":4:21:", "invalid UTF-8", "0xED" } },
  /* item 12: leniency */
  { "nul-escape.bramah", HYD_CIRCUIT_ERROR_PARSE, { ":4:17:", "\\u0000" } },
  { "raw-control.bramah", HYD_CIRCUIT_ERROR_PARSE, { ":4:16:", "U+0009" } },
  { "hex.bramah", HYD_CIRCUIT_ERROR_PARSE, { ":5:8:", "hexadecimal", "\"0x10\"" } },
  { "leading-zero.bramah", HYD_CIRCUIT_ERROR_PARSE, { ":5:8:", "start with 0", "\"00.002\"" } },
  { "bare-fraction.bramah", HYD_CIRCUIT_ERROR_PARSE, { ":5:8:", "\".5\"" } },
  { "nan.bramah", HYD_CIRCUIT_ERROR_PARSE, { ":5:8:", "\"NaN\"" } },
  { "comment.bramah", HYD_CIRCUIT_ERROR_PARSE, { ":5:3:", "\"//\"" } },
  { "trailing-value.bramah", HYD_CIRCUIT_ERROR_PARSE, { ":15:1:", "after the end" } },
  { "duplicate-format.bramah", HYD_CIRCUIT_ERROR_PARSE,
    { ":5:3:", "duplicate key \"format\"", "first at 2:3" } },
  { "duplicate-key-escaped.bramah", HYD_CIRCUIT_ERROR_PARSE,
    { ":5:3:", "duplicate key \"format\"", "first at 2:3" } },
  /* item 5: integers json-glib would wrap */
  { "integer-2e64.bramah", HYD_CIRCUIT_ERROR_PARSE, { ":5:8:", "18446744073709551616", "64-bit" } },
  { "integer-2e63.bramah", HYD_CIRCUIT_ERROR_PARSE, { ":5:8:", "9223372036854775808", "64-bit" } },
  { "integer-below-int64.bramah", HYD_CIRCUIT_ERROR_PARSE, { ":5:8:", "-9223372036854775809" } },
  /* item 15 */
  { "number-1e999.bramah", HYD_CIRCUIT_ERROR_PARSE, { ":7:75:", "\"1e999\"", "too large" } },
  { "diameter-1e308.bramah", HYD_CIRCUIT_ERROR_PARAM_RANGE,
    { "connections[0] (from \"T1.T\" to \"O1.A\")", "\"diameter\" 1e308 m", "hose volume" } },
  { "self-connection.bramah", HYD_CIRCUIT_ERROR_REFERENCE,
    { "connections[2] (from \"O1.B\" to \"O1.B\")", "O1.B to itself" } },
  { "duplicate-connection.bramah", HYD_CIRCUIT_ERROR_REFERENCE,
    { "connections[2] (from \"T2.T\" to \"O1.B\")", "second connection", "connections[1]" } },
  /* item 11 */
  { "rotation-1e300.bramah", HYD_CIRCUIT_ERROR_FORMAT, { "component \"O1\"", "\"rotation\"", "1e300" } },
  { "rotation-45.bramah", HYD_CIRCUIT_ERROR_FORMAT, { "component \"O1\"", "\"rotation\"", "(got 45)" } },
};

static void
test_hostile_file (gconstpointer data)
{
  const HostileCase *c = data;
  g_autofree char *path = hostile_path (c->file);
  g_autoptr(GError) error = NULL;
  g_autoptr(HydCircuit) circuit = hyd_circuit_load_from_file (path, &error);

  g_assert_null (circuit);
  g_assert_nonnull (error);
  g_test_message ("%s: %s", c->file, error->message);
  g_assert_error (error, HYD_CIRCUIT_ERROR, (gint) c->code);
  if (c->code == HYD_CIRCUIT_ERROR_PARSE)
    g_assert_true (g_str_has_prefix (error->message, path));
  for (guint i = 0; i < G_N_ELEMENTS (c->needles) && c->needles[i] != NULL; i++)
    assert_contains (error->message, c->needles[i]);
}

/* The reference file and its harmless variants load and round-trip. */
static void
test_hostile_accepted (void)
{
  static const char *const files[] = { "ok.bramah", "bom.bramah", "surrogate-pair.bramah" };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = hostile_path (files[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(HydCircuit) circuit = hyd_circuit_load_from_file (path, &error);

      g_assert_no_error (error);
      assert_round_trip (circuit);
      if (strcmp (files[i], "surrogate-pair.bramah") == 0)
        g_assert_cmpstr (circuit->title, ==, "pair \xf0\x9f\x98\x80 ok");   /* U+1F600 */
    }
}

/* ---------------------------------------------------------------------------
 * Items 3 and 4: nesting
 * ------------------------------------------------------------------------- */

#define DOC_HEAD "{ \"format\": \"bramah-circuit\", \"version\": 1, \"components\": [], " \
                 "\"connections\": [], \"x\": "

/* A document whose key "x" holds `levels` nested objects {"a": …} around
 * an array of n strings; the whole document nests levels + 2 deep. */
static char *
nested_doc (guint levels, guint n)
{
  GString *doc = g_string_new (DOC_HEAD);

  for (guint i = 0; i < levels; i++)
    g_string_append (doc, "{\"a\":");
  g_string_append_c (doc, '[');
  for (guint i = 0; i < n; i++)
    g_string_append (doc, i ? ",\"\"" : "\"\"");
  g_string_append_c (doc, ']');
  for (guint i = 0; i < levels; i++)
    g_string_append_c (doc, '}');
  g_string_append (doc, " }\n");
  return g_string_free (doc, FALSE);
}

static void
test_depth_limit (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *deepest = nested_doc (HYD_JSON_MAX_DEPTH - 2, 1);
  g_autofree char *too_deep = nested_doc (HYD_JSON_MAX_DEPTH - 1, 1);
  g_autoptr(HydCircuit) circuit = hyd_circuit_load_from_data (deepest, -1, "deep", &error);
  g_autofree char *column = NULL;

  /* at the limit: loads, and saves to a file that loads again */
  g_assert_no_error (error);
  assert_round_trip (circuit);

  /* one level more: refused at the bracket that opens level 65 */
  g_assert_null (hyd_circuit_load_from_data (too_deep, -1, "deep", &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARSE);
  g_test_message ("%s", error->message);
  column = g_strdup_printf ("deep:1:%u:", (guint) strlen (DOC_HEAD) + 5 * (HYD_JSON_MAX_DEPTH - 1) + 1);
  g_assert_true (g_str_has_prefix (error->message, column));
  assert_contains (error->message, "deeper than 64 levels");
}

/* 100 000 open brackets overflowed json-glib's recursive parser (exit 139). */
static void
test_depth_stack (void)
{
  static const char *const openers[] = { "[", "{\"a\":" };

  for (guint k = 0; k < G_N_ELEMENTS (openers); k++)
    {
      g_autoptr(GString) doc = g_string_new (NULL);
      g_autoptr(GError) error = NULL;

      for (guint i = 0; i < 100000; i++)
        g_string_append (doc, openers[k]);
      g_assert_null (hyd_circuit_load_from_data (doc->str, (gssize) doc->len, NULL, &error));
      g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARSE);
      assert_contains (error->message, "deeper than 64 levels");
    }
}

/* The writer indents each level by two spaces: within the depth limit a
 * line of n input bytes becomes at most 2·(limit + 1) + n output bytes, so
 * a saved file is at most 2·(limit + 1) times as large as the one read. A
 * deeper file is refused (one of 20 kB saved as 199 MB before the limit). */
static void
test_depth_save_linear (void)
{
  static const guint levels[] = { HYD_JSON_MAX_DEPTH - 2, 2000 };

  for (guint k = 0; k < G_N_ELEMENTS (levels); k++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *doc = nested_doc (levels[k], 2000);
      g_autoptr(HydCircuit) circuit = hyd_circuit_load_from_data (doc, -1, NULL, &error);
      gsize in = strlen (doc), out;
      g_autofree char *saved = NULL;

      if (circuit == NULL)
        {
          g_assert_cmpuint (levels[k], >, HYD_JSON_MAX_DEPTH - 2);
          g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARSE);
          continue;
        }
      saved = hyd_circuit_to_data (circuit, &out);
      g_test_message ("%u levels: %zu bytes saved as %zu", levels[k] + 2, in, out);
      g_assert_cmpuint (out, <=, 2 * (HYD_JSON_MAX_DEPTH + 1) * in);
    }
}

/* ---------------------------------------------------------------------------
 * Item 5: the 64-bit integers json-glib keeps exactly
 * ------------------------------------------------------------------------- */

static void
test_integer_range (void)
{
  static const char *doc = DOC_HEAD "[9223372036854775807, -9223372036854775808] }";
  g_autoptr(GError) error = NULL;
  g_autoptr(HydCircuit) circuit = hyd_circuit_load_from_data (doc, -1, NULL, &error);
  g_autofree char *saved = NULL;

  g_assert_no_error (error);
  saved = hyd_circuit_to_data (circuit, NULL);
  assert_contains (saved, "\"x\": [9223372036854775807, -9223372036854775808]");
}

/* ---------------------------------------------------------------------------
 * Item 2: the writer writes only what the loader reads
 * ------------------------------------------------------------------------- */

static HydCircuit *
small_circuit (void)
{
  g_autofree char *path = hostile_path ("ok.bramah");
  g_autoptr(GError) error = NULL;
  HydCircuit *circuit = hyd_circuit_load_from_file (path, &error);

  g_assert_no_error (error);
  return circuit;
}

static void
assert_saves_loadable (const HydCircuit *circuit, HydCircuit **loaded)
{
  g_autoptr(GError) error = NULL;
  gsize length;
  g_autofree char *text = hyd_circuit_to_data (circuit, &length);
  g_autofree char *message = NULL;
  HydCircuit *again;
  guint line = 0, column = 0;

  if (!hyd_json_scan (text, length, HYD_JSON_MAX_DEPTH, &line, &column, &message))
    g_error ("the writer wrote what the scan refuses: %u:%u: %s", line, column, message);
  again = hyd_circuit_load_from_data (text, (gssize) length, "saved", &error);
  g_assert_no_error (error);
  if (loaded)
    *loaded = again;
  else
    hyd_circuit_free (again);
}

static void
test_writer_strings (void)
{
  g_autoptr(HydCircuit) circuit = small_circuit ();
  g_autoptr(HydCircuit) loaded = NULL;
  JsonNode *inf = json_node_new (JSON_NODE_VALUE);

  /* a surrogate encoded in UTF-8, a byte that starts nothing, a cut
   * sequence, a terminal escape and DEL, then valid text */
  g_free (circuit->title);
  circuit->title = g_strdup ("a\xed\xa0\x80" "b\xff" "c\xe2\x82" "d\x1b[31m\x7f" "é😀");
  circuit->description = g_strdup ("line\nnext\ttab");
  json_node_set_double (inf, INFINITY);
  json_object_set_member (circuit->extra, "k\xc3(", inf);

  assert_saves_loadable (circuit, &loaded);
  g_assert_cmpstr (loaded->title, ==,
                   "a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xef\xbf\xbd\xef\xbf\xbd"
                   "d\x1b[31m\x7f" "é😀");
  g_assert_cmpstr (loaded->description, ==, "line\nnext\ttab");
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (loaded->extra, "k\xef\xbf\xbd(")));
  assert_round_trip (loaded);
}

/* Random bytes in a title: whatever they are, the saved file loads. */
static void
test_writer_random_strings (void)
{
  g_autoptr(HydCircuit) circuit = small_circuit ();
  GRand *rand = g_rand_new_with_seed (20261126);

  for (guint k = 0; k < 500; k++)
    {
      guint n = g_rand_int_range (rand, 1, 24);
      char *title = g_malloc (n + 1);

      for (guint i = 0; i < n; i++)
        title[i] = (char) g_rand_int_range (rand, 1, 256);
      title[n] = '\0';
      g_free (circuit->title);
      circuit->title = title;
      assert_saves_loadable (circuit, NULL);
    }
  g_rand_free (rand);
}

/* ---------------------------------------------------------------------------
 * Item 8: what is not a circuit file, and size
 * ------------------------------------------------------------------------- */

static void
assert_file_refused (const char *path, const char *needle)
{
  g_autoptr(GError) error = NULL;

  g_assert_null (hyd_circuit_load_from_file (path, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_FILE);
  assert_contains (error->message, needle);
}

static void
test_file_kinds (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bramah-hostile-XXXXXX", &error);
  g_autofree char *fifo = g_build_filename (dir, "pipe.bramah", NULL);

  g_assert_no_error (error);
  assert_file_refused (dir, "a folder");
  /* a FIFO with no writer: opening it must not block */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  assert_file_refused (fifo, "a pipe");
  if (g_file_test ("/dev/urandom", G_FILE_TEST_EXISTS))
    assert_file_refused ("/dev/urandom", "a device");
  g_unlink (fifo);
  g_rmdir (dir);
}

static void
test_file_size (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bramah-hostile-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "huge.bramah", NULL);
  g_autofree char *spaces = NULL;
  FILE *f;

  /* a sparse file one byte over the limit: refused before it is read */
  f = fopen (path, "w");
  g_assert_nonnull (f);
  g_assert_cmpint (ftruncate (fileno (f), (off_t) HYD_CIRCUIT_MAX_FILE_SIZE + 1), ==, 0);
  fclose (f);
  assert_file_refused (path, "32 MiB");

  spaces = g_malloc (HYD_CIRCUIT_MAX_FILE_SIZE + 1);
  memset (spaces, ' ', HYD_CIRCUIT_MAX_FILE_SIZE + 1);
  g_assert_null (hyd_circuit_load_from_data (spaces, HYD_CIRCUIT_MAX_FILE_SIZE + 1, "huge", &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_FILE);
  g_unlink (path);
  g_rmdir (dir);
}

/* ---------------------------------------------------------------------------
 * Item 9: saving
 * ------------------------------------------------------------------------- */

typedef struct {
  char *dir;
  HydCircuit *circuit;
  char *text;      /* what saving circuit writes */
} SaveFixture;

static void
save_setup (SaveFixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("bramah-save-XXXXXX", &error);
  g_assert_no_error (error);
  f->circuit = small_circuit ();
  f->text = hyd_circuit_to_data (f->circuit, NULL);
}

static void
save_teardown (SaveFixture *f, gconstpointer data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f->text);
  hyd_circuit_free (f->circuit);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

/* The names in the fixture's folder, sorted, joined by spaces. */
static char *
list_dir (SaveFixture *f)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, (gpointer) name);
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static char *
fixture_path (SaveFixture *f, const char *name)
{
  return g_build_filename (f->dir, name, NULL);
}

static void
test_save_keeps_mode (SaveFixture *f, gconstpointer data)
{
  g_autofree char *path = fixture_path (f, "private.bramah");
  g_autoptr(GError) error = NULL;
  struct stat st;

  g_assert_true (g_file_set_contents (path, "old", -1, NULL));
  g_assert_cmpint (chmod (path, 0600), ==, 0);
  g_assert_true (hyd_circuit_save_to_file (f->circuit, path, &error));
  g_assert_no_error (error);
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0600);

  g_assert_cmpint (chmod (path, 0640), ==, 0);
  g_assert_true (hyd_circuit_save_to_file (f->circuit, path, &error));
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0640);
  g_autofree char *text = read_text (path);
  g_assert_cmpstr (text, ==, f->text);
}

static void
test_save_through_symlink (SaveFixture *f, gconstpointer data)
{
  g_autofree char *target = fixture_path (f, "target.bramah");
  g_autofree char *link1 = fixture_path (f, "link1.bramah");
  g_autofree char *link2 = fixture_path (f, "link2.bramah");
  g_autofree char *dangling = fixture_path (f, "dangling.bramah");
  g_autofree char *created = fixture_path (f, "created.bramah");
  g_autoptr(GError) error = NULL;
  struct stat st;

  /* link2 → link1 → target, relative links */
  g_assert_true (g_file_set_contents (target, "old", -1, NULL));
  g_assert_cmpint (symlink ("target.bramah", link1), ==, 0);
  g_assert_cmpint (symlink ("link1.bramah", link2), ==, 0);
  g_assert_true (hyd_circuit_save_to_file (f->circuit, link2, &error));
  g_assert_no_error (error);
  g_assert_cmpint (lstat (link2, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_assert_cmpint (lstat (link1, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_autofree char *text = read_text (target);
  g_assert_cmpstr (text, ==, f->text);

  /* a link to a file that does not exist yet: the file is created */
  g_assert_cmpint (symlink ("created.bramah", dangling), ==, 0);
  g_assert_true (hyd_circuit_save_to_file (f->circuit, dangling, &error));
  g_assert_no_error (error);
  g_assert_cmpint (lstat (dangling, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_autofree char *created_text = read_text (created);
  g_assert_cmpstr (created_text, ==, f->text);

  g_autofree char *names = list_dir (f);
  g_assert_cmpstr (names, ==, "created.bramah dangling.bramah link1.bramah link2.bramah target.bramah");
}

/* Documented (docs/circuit-format.md): a save replaces the name it saves
 * to; other hard links keep the previous text, whole. */
static void
test_save_hard_link (SaveFixture *f, gconstpointer data)
{
  g_autofree char *path = fixture_path (f, "a.bramah");
  g_autofree char *other = fixture_path (f, "b.bramah");
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, "old", -1, NULL));
  g_assert_cmpint (link (path, other), ==, 0);
  g_assert_true (hyd_circuit_save_to_file (f->circuit, path, &error));
  g_assert_no_error (error);
  g_autofree char *text = read_text (path);
  g_autofree char *other_text = read_text (other);
  g_assert_cmpstr (text, ==, f->text);
  g_assert_cmpstr (other_text, ==, "old");
}

/* A write that fails half-way (here: the file-size limit of the process)
 * keeps the old file and leaves no temporary. */
static void
test_save_failure_cleans_up (SaveFixture *f, gconstpointer data)
{
  g_autofree char *path = fixture_path (f, "full.bramah");
  g_autofree char *folder = fixture_path (f, "folder.bramah");
  g_autoptr(GError) error = NULL;
  struct rlimit old_limit, limit;
  void (*old_handler) (int);
  gboolean ok;

  g_assert_true (g_file_set_contents (path, "old", -1, NULL));
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
  limit = old_limit;
  limit.rlim_cur = strlen (f->text) / 2;
  old_handler = signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  ok = hyd_circuit_save_to_file (f->circuit, path, &error);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
  signal (SIGXFSZ, old_handler);

  g_assert_false (ok);
  g_test_message ("%s", error->message);
  g_assert_true (error->domain == G_FILE_ERROR);
  assert_contains (error->message, path);
  g_clear_error (&error);
  g_autofree char *text = read_text (path);
  g_assert_cmpstr (text, ==, "old");

  /* a folder where the file should be: refused, nothing left */
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  g_assert_false (hyd_circuit_save_to_file (f->circuit, folder, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_FILE);
  g_clear_error (&error);
  g_rmdir (folder);

  g_autofree char *names = list_dir (f);
  g_assert_cmpstr (names, ==, "full.bramah");
}

/* A circuit whose text would be larger than the reader accepts is not
 * written: the file on disk stays loadable. */
static void
test_save_too_large (SaveFixture *f, gconstpointer data)
{
  g_autofree char *path = fixture_path (f, "big.bramah");
  g_autoptr(GError) error = NULL;

  g_free (f->circuit->description);
  f->circuit->description = g_malloc (HYD_CIRCUIT_MAX_FILE_SIZE + 1);
  memset (f->circuit->description, 'x', HYD_CIRCUIT_MAX_FILE_SIZE);
  f->circuit->description[HYD_CIRCUIT_MAX_FILE_SIZE] = '\0';
  g_assert_false (hyd_circuit_save_to_file (f->circuit, path, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_FILE);
  assert_contains (error->message, "nothing was written");
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* ---------------------------------------------------------------------------
 * Item 7: 10^4 components (the resolution of connection ends is hashed;
 * its time is measured in the report, not asserted here)
 * ------------------------------------------------------------------------- */

static void
test_many_components (void)
{
  const guint n = 10000;
  g_autoptr(HydCircuit) circuit = hyd_circuit_new ();
  g_autoptr(GError) error = NULL;
  HydSystem *system;

  g_ptr_array_add (circuit->components, hyd_circuit_component_new ("T0", "tank"));
  g_ptr_array_add (circuit->components, hyd_circuit_component_new ("TZ", "tank"));
  for (guint i = 1; i <= n; i++)
    {
      g_autofree char *id = g_strdup_printf ("O%u", i);
      g_autofree char *from = i == 1 ? g_strdup ("T0.T") : g_strdup_printf ("O%u.B", i - 1);
      g_autofree char *to = g_strdup_printf ("O%u.A", i);

      g_ptr_array_add (circuit->components, hyd_circuit_component_new (id, "orifice"));
      g_ptr_array_add (circuit->connections, hyd_circuit_connection_new (from, to));
    }
  {
    g_autofree char *last = g_strdup_printf ("O%u.B", n);
    g_ptr_array_add (circuit->connections, hyd_circuit_connection_new (last, "TZ.T"));
  }

  g_assert_true (hyd_circuit_validate (circuit, &error));
  g_assert_no_error (error);
  system = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hyd_system_get_n_nodes (system), ==, n + 1);
  hyd_system_free (system);

  /* a duplicate at the far end is still found */
  g_ptr_array_add (circuit->connections, hyd_circuit_connection_new ("TZ.T", "O10000.B"));
  g_assert_false (hyd_circuit_validate (circuit, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE);
  assert_contains (error->message, "connections[10001]");
}

/* ---------------------------------------------------------------------------
 * Messages quote and cut what they echo
 * ------------------------------------------------------------------------- */

static void
test_quoted_messages (void)
{
  g_autoptr(HydCircuit) circuit = small_circuit ();
  g_autoptr(GError) error = NULL;
  HydCircuitComponent *c = g_ptr_array_index (circuit->components, 1);
  g_autofree char *long_id = g_strnfill (10000, 'x');

  g_free (c->id);
  c->id = g_strconcat ("O\x1b[2J", long_id, NULL);
  g_assert_false (hyd_circuit_validate (circuit, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_ID);
  g_assert_cmpuint (strlen (error->message), <, 300);
  g_assert_null (strchr (error->message, '\x1b'));
  assert_contains (error->message, "\"O\\u001b[2Jxxx");
  assert_contains (error->message, "…\"");
}

/* --set NAME=1e999 said "expected a number (got a value)" */
static void
test_set_param_hostile (void)
{
  g_autoptr(HydCircuit) circuit = small_circuit ();
  g_autoptr(GError) error = NULL;
  HydCircuitComponent *c = g_ptr_array_index (circuit->components, 1);
  g_autoptr(GString) deep = g_string_new (NULL);

  g_assert_false (hyd_circuit_component_set_param_from_string (c, "discharge_coefficient",
                                                               "1e999", NULL, &error));
  g_test_message ("%s", error->message);
  assert_contains (error->message, "\"discharge_coefficient\"");
  assert_contains (error->message, "1e999");
  g_assert_null (strstr (error->message, "a value"));
  g_clear_error (&error);

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  g_assert_false (hyd_circuit_component_set_param_from_string (c, "discharge_coefficient",
                                                               deep->str, NULL, &error));
  g_assert_cmpuint (strlen (error->message), <, 300);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (hostile_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/engine/hostile/file/%s", hostile_cases[i].file);
      g_test_add_data_func (path, &hostile_cases[i], test_hostile_file);
    }
  g_test_add_func ("/engine/hostile/accepted", test_hostile_accepted);
  g_test_add_func ("/engine/hostile/depth/limit", test_depth_limit);
  g_test_add_func ("/engine/hostile/depth/stack", test_depth_stack);
  g_test_add_func ("/engine/hostile/depth/save-linear", test_depth_save_linear);
  g_test_add_func ("/engine/hostile/integer-range", test_integer_range);
  g_test_add_func ("/engine/hostile/writer/strings", test_writer_strings);
  g_test_add_func ("/engine/hostile/writer/random-strings", test_writer_random_strings);
  g_test_add_func ("/engine/hostile/file/kinds", test_file_kinds);
  g_test_add_func ("/engine/hostile/file/size", test_file_size);
  g_test_add ("/engine/hostile/save/mode", SaveFixture, NULL, save_setup, test_save_keeps_mode, save_teardown);
  g_test_add ("/engine/hostile/save/symlink", SaveFixture, NULL, save_setup, test_save_through_symlink, save_teardown);
  g_test_add ("/engine/hostile/save/hard-link", SaveFixture, NULL, save_setup, test_save_hard_link, save_teardown);
  g_test_add ("/engine/hostile/save/failure", SaveFixture, NULL, save_setup, test_save_failure_cleans_up, save_teardown);
  g_test_add ("/engine/hostile/save/too-large", SaveFixture, NULL, save_setup, test_save_too_large, save_teardown);
  g_test_add_func ("/engine/hostile/many-components", test_many_components);
  g_test_add_func ("/engine/hostile/quoted-messages", test_quoted_messages);
  g_test_add_func ("/engine/hostile/set-param", test_set_param_hostile);
  return g_test_run ();
}
