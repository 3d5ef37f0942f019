/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-cli-util.c — the helpers every bramah-cli command shares
 * (app/cli-util.c): text for the terminal, bounded numeric options and the
 * temporary-and-rename output, case by case. */
#include <glib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli-commands.h"

static void
check_quote (const char *in, const char *want)
{
  g_autofree char *got = hyd_cli_quote (in, HYD_CLI_QUOTE_MAX);
  g_assert_cmpstr (got, ==, want);
}

static void
test_quote_controls (void)
{
  check_quote ("P1", "P1");
  check_quote ("Kolben Ø 40 mm – ölig", "Kolben Ø 40 mm – ölig");   /* UTF-8 passes */
  check_quote ("a\033[2Jb", "a\\e[2Jb");
  check_quote ("\033]0;title\007", "\\e]0;title\\x07");
  check_quote ("line\nnext\r", "line\\nnext\\r");
  check_quote ("tab\tdel\177", "tab\\tdel\\x7f");
  check_quote ("csi\302\233" "31m", "csi\\u009b31m");           /* U+009B, the 8-bit CSI */
  check_quote ("abc\342\200\256txt", "abc\\u202etxt");         /* right-to-left override */
  check_quote ("iso\342\201\246x\342\201\251", "iso\\u2066x\\u2069");
  check_quote ("bad\377\376utf8", "bad\\xff\\xfeutf8");          /* not UTF-8 */
  check_quote ("cut\342\200", "cut\\xe2\\x80");                 /* a truncated sequence */
  check_quote (NULL, "(null)");
  check_quote ("", "");
}

static void
test_quote_cut (void)
{
  g_autofree char *long_id = g_strnfill (10000, 'O');
  g_autofree char *got = hyd_cli_quote (long_id, 80);
  g_assert_cmpuint (g_utf8_strlen (got, -1), ==, 81);
  g_assert_true (g_str_has_suffix (got, "O…"));
  /* exactly at the limit: not cut */
  g_autofree char *eighty = g_strnfill (80, 'x');
  g_autofree char *same = hyd_cli_quote (eighty, 80);
  g_assert_cmpstr (same, ==, eighty);
  /* an escape counts as one character */
  g_autofree char *esc = hyd_cli_quote ("\033\033\033", 2);
  g_assert_cmpstr (esc, ==, "\\e\\e…");
  /* hyd_cli_q: the same, and its buffers live for one printf */
  const char *a = hyd_cli_q ("a\033"), *b = hyd_cli_q ("b\033");
  g_assert_cmpstr (a, ==, "a\\e");
  g_assert_cmpstr (b, ==, "b\\e");
}

static void
test_sanitize_message (void)
{
  g_autofree char *m = hyd_cli_sanitize_message ("first\n\tsecond \033[31m");
  g_assert_cmpstr (m, ==, "first\n\tsecond \\e[31m");
  /* a 10 000-character word is cut, the words after it stay */
  g_autofree char *id = g_strnfill (10000, 'O');
  g_autofree char *msg = g_strdup_printf ("component id \"%s\" is not valid: too long", id);
  g_autofree char *safe = hyd_cli_sanitize_message (msg);
  g_assert_true (g_str_has_suffix (safe, "… is not valid: too long"));
  g_assert_cmpuint (g_utf8_strlen (safe, -1), <, 200);
  /* a word of 200 characters is kept whole (a long path) */
  g_autofree char *path = g_strnfill (200, 'p');
  g_autofree char *kept = hyd_cli_sanitize_message (path);
  g_assert_cmpstr (kept, ==, path);
  /* and the whole message is cut at HYD_CLI_MESSAGE_MAX */
  g_autofree char *many = g_strnfill (3000, ' ');
  memset (many, 'w', 3000);
  for (int k = 10; k < 3000; k += 11)
    many[k] = ' ';
  g_autofree char *cut = hyd_cli_sanitize_message (many);
  g_assert_cmpuint (g_utf8_strlen (cut, -1), ==, HYD_CLI_MESSAGE_MAX + 1);
  g_assert_true (g_str_has_suffix (cut, "…"));
}

static void
test_parse_double (void)
{
  double v = -7;
  g_assert_true (hyd_cli_parse_double ("--t", "2.5", 0, 10, HYD_CLI_MIN_EXCLUSIVE, "s", &v));
  g_assert_cmpfloat (v, ==, 2.5);
  g_assert_true (hyd_cli_parse_double ("--t", "10", 0, 10, HYD_CLI_MIN_EXCLUSIVE, "s", &v));
  g_assert_true (hyd_cli_parse_double ("--t", "1e-300", 0, 10, HYD_CLI_MIN_EXCLUSIVE, "s", &v));
  v = -7;
  const char *bad[] = { "0", "10.000001", "-1", "1e999", "-1e999", "1e-999", "inf", "nan", "abc", "",
                        " 1", "1 ", "1,5", "0x10", NULL };
  for (int k = 0; bad[k]; k++)
    {
      g_assert_false (hyd_cli_parse_double ("--t", bad[k], 0, 10, HYD_CLI_MIN_EXCLUSIVE, "s", &v));
      g_assert_cmpfloat (v, ==, -7);   /* untouched */
    }
  /* decimal numbers only, even where the value would fit */
  g_assert_false (hyd_cli_parse_double ("--t", "0x10", 0, 100, 0, NULL, &v));
  g_assert_false (hyd_cli_parse_double ("--t", "infinity", 0, INFINITY, 0, NULL, &v));
  g_assert_true (hyd_cli_parse_double ("--t", "1E+2", 0, 100, 0, NULL, &v));
  g_assert_cmpfloat (v, ==, 100);
  g_assert_false (hyd_cli_parse_double ("--r", "1", 0, 1, HYD_CLI_MAX_EXCLUSIVE, NULL, &v));
  g_assert_true (hyd_cli_parse_double ("--r", "0", 0, 1, HYD_CLI_MAX_EXCLUSIVE, NULL, &v));
}

static void
test_parse_int (void)
{
  gint64 v = -7;
  g_assert_true (hyd_cli_parse_int ("--n", "0", 0, 10000, &v));
  g_assert_cmpint (v, ==, 0);
  g_assert_true (hyd_cli_parse_int ("--n", "10000", 0, 10000, &v));
  g_assert_cmpint (v, ==, 10000);
  v = -7;
  const char *bad[] = { "10001", "-1", "2000000000", "99999999999999999999", "1e999", "2.5", "1e3",
                        "abc", "", " 5", "5 ", "0x10", NULL };
  for (int k = 0; bad[k]; k++)
    {
      g_assert_false (hyd_cli_parse_int ("--n", bad[k], 0, 10000, &v));
      g_assert_cmpint (v, ==, -7);
    }
}

static char *
read_all (const char *path)
{
  char *text = NULL;
  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return text;
}

static guint
count_entries (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  guint n = 0;
  while (g_dir_read_name (d))
    n++;
  g_dir_close (d);
  return n;
}

static void
test_output_rename (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cli-util-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "run.csv", NULL);
  g_assert_true (g_file_set_contents (path, "old\n", -1, NULL));
  g_assert_cmpint (g_chmod (path, 0604), ==, 0);

  GError *error = NULL;
  HydCliOutput *o = hyd_cli_output_open (path, &error);
  g_assert_no_error (error);
  /* the temporary beside it keeps the extension */
  const char *tmp = hyd_cli_output_write_path (o);
  g_assert_true (g_str_has_prefix (tmp, dir));
  g_assert_true (g_str_has_suffix (tmp, ".csv"));
  g_assert_nonnull (strstr (tmp, "run.tmp-"));
  g_autofree char *tmp_copy = g_strdup (tmp);
  g_assert_true (hyd_cli_output_puts (o, "new,"));
  g_assert_true (hyd_cli_output_printf (o, "%d\n", 42));
  g_assert_true (hyd_cli_output_flush (o));
  /* before the commit the old file is intact */
  g_autofree char *before = read_all (path);
  g_assert_cmpstr (before, ==, "old\n");
  guint64 free_bytes = 0;
  g_assert_true (hyd_cli_output_free_space (o, &free_bytes));
  g_assert_cmpuint (free_bytes, >, 0);
  g_assert_true (hyd_cli_output_commit (o, &error));
  g_assert_no_error (error);
  g_autofree char *after = read_all (path);
  g_assert_cmpstr (after, ==, "new,42\n");
  g_assert_false (g_file_test (tmp_copy, G_FILE_TEST_EXISTS));
  struct stat st;
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0604);

  /* abort: the temporary goes, the file stays */
  o = hyd_cli_output_open (path, &error);
  g_assert_no_error (error);
  hyd_cli_output_puts (o, "half a ro");
  hyd_cli_output_abort (o);
  g_autofree char *kept = read_all (path);
  g_assert_cmpstr (kept, ==, "new,42\n");
  g_assert_cmpuint (count_entries (dir), ==, 1);

  /* a name without an extension, a directory that is not there */
  g_autofree char *plain = g_build_filename (dir, "plain", NULL);
  o = hyd_cli_output_open (plain, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (hyd_cli_output_write_path (o), "plain.tmp-") == FALSE);
  g_assert_nonnull (strstr (hyd_cli_output_write_path (o), "plain.tmp-"));
  g_assert_true (hyd_cli_output_commit (o, &error));
  g_autofree char *missing = g_build_filename (dir, "no", "such.csv", NULL);
  o = hyd_cli_output_open (missing, &error);
  g_assert_null (o);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_nonnull (strstr (error->message, "such.csv"));
  g_clear_error (&error);
  /* a long path is named whole (paths are escaped, not cut at 80) */
  g_autofree char *deep_dir = g_strnfill (150, 'd');
  g_autofree char *deep = g_build_filename (dir, deep_dir, "out.csv", NULL);
  o = hyd_cli_output_open (deep, &error);
  g_assert_null (o);
  g_assert_nonnull (strstr (error->message, deep));
  g_clear_error (&error);

  g_unlink (plain);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_output_full_device (void)
{
  if (!g_file_test ("/dev/full", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /dev/full");
      return;
    }
  GError *error = NULL;
  HydCliOutput *o = hyd_cli_output_open ("/dev/full", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (hyd_cli_output_write_path (o), ==, "/dev/full");   /* in place */
  guint64 free_bytes;
  g_assert_false (hyd_cli_output_free_space (o, &free_bytes));
  hyd_cli_output_puts (o, "x\n");
  g_assert_false (hyd_cli_output_commit (o, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC);
  g_assert_cmpstr (error->message, ==, "cannot write /dev/full: No space left on device (disk full)");
  g_clear_error (&error);
}

static void
test_memory_available (void)
{
  guint64 avail = 0;
  if (!hyd_cli_memory_available (&avail))
    {
      g_test_skip ("no /proc/meminfo and no sysconf(_SC_AVPHYS_PAGES)");
      return;
    }
  /* more than a megabyte, less than the machine has */
  long pages = sysconf (_SC_PHYS_PAGES), size = sysconf (_SC_PAGESIZE);
  g_assert_cmpuint (avail, >, 1 << 20);
  if (pages > 0 && size > 0)
    g_assert_cmpuint (avail, <=, (guint64) pages * (guint64) size);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli-util/quote/controls", test_quote_controls);
  g_test_add_func ("/cli-util/quote/cut", test_quote_cut);
  g_test_add_func ("/cli-util/message", test_sanitize_message);
  g_test_add_func ("/cli-util/option/double", test_parse_double);
  g_test_add_func ("/cli-util/option/int", test_parse_int);
  g_test_add_func ("/cli-util/output/rename", test_output_rename);
  g_test_add_func ("/cli-util/output/full-device", test_output_full_device);
  g_test_add_func ("/cli-util/memory-available", test_memory_available);
  return g_test_run ();
}
