/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-h5-output.c — `bramah-cli simulate -o FILE.h5` (app/cli-output-h5.c)
 * read back with libhdf5: every value bit for bit equal to the same run done
 * here through the engine, the names and units of the columns, the run's
 * metadata; a failed run leaves the samples so far and its status; the
 * format choice refuses what it cannot write.
 * Usage: test-h5-output BRAMAH_CLI CIRCUIT */
#include <glib.h>
#include <glib/gstdio.h>
#include <hdf5.h>
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "hyd-circuit.h"
#include "hyd-run.h"
#include "hyd-system.h"

static const char *cli, *circuit_path;

static rlim_t file_size_limit = RLIM_INFINITY;

static void
limit_file_size (gpointer user)
{
  (void) user;
  struct rlimit r = { file_size_limit, file_size_limit };
  setrlimit (RLIMIT_FSIZE, &r);
}

static char *last_stderr;

/* Run bramah-cli with args; its exit status (-1: killed by a signal). */
static int
run_cli (const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) cli);
  for (guint k = 0; args[k]; k++)
    g_ptr_array_add (argv, (char *) args[k]);
  g_ptr_array_add (argv, NULL);
  int status = -1;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, limit_file_size,
                               NULL, NULL, &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("stderr: %s", err);
  g_free (last_stderr);
  last_stderr = g_strdup (err);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static char *
read_string_attr (hid_t file, const char *name)
{
  hid_t a = H5Aopen (file, name, H5P_DEFAULT);
  g_assert_cmpint (a, >=, 0);
  hid_t type = H5Tcopy (H5T_C_S1);
  H5Tset_size (type, H5T_VARIABLE);
  H5Tset_cset (type, H5T_CSET_UTF8);
  char *value = NULL;
  g_assert_cmpint (H5Aread (a, type, &value), >=, 0);
  char *copy = g_strdup (value);
  H5free_memory (value);
  H5Tclose (type);
  H5Aclose (a);
  return copy;
}

static double
read_double_attr (hid_t file, const char *name)
{
  double v = NAN;
  hid_t a = H5Aopen (file, name, H5P_DEFAULT);
  g_assert_cmpint (a, >=, 0);
  g_assert_cmpint (H5Aread (a, H5T_NATIVE_DOUBLE, &v), >=, 0);
  H5Aclose (a);
  return v;
}

static guint64
read_u64_attr (hid_t file, const char *name)
{
  unsigned long long v = 0;
  hid_t a = H5Aopen (file, name, H5P_DEFAULT);
  g_assert_cmpint (a, >=, 0);
  g_assert_cmpint (H5Aread (a, H5T_NATIVE_ULLONG, &v), >=, 0);
  H5Aclose (a);
  return v;
}

/* /data as rows × cols doubles (g_free). */
static double *
read_data (hid_t file, hsize_t *rows, hsize_t *cols)
{
  hid_t ds = H5Dopen2 (file, "data", H5P_DEFAULT);
  g_assert_cmpint (ds, >=, 0);
  hid_t space = H5Dget_space (ds);
  hsize_t dims[2];
  g_assert_cmpint (H5Sget_simple_extent_ndims (space), ==, 2);
  H5Sget_simple_extent_dims (space, dims, NULL);
  double *data = g_new0 (double, MAX (1, dims[0] * dims[1]));
  if (dims[0] > 0)
    g_assert_cmpint (H5Dread (ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), >=, 0);
  H5Sclose (space);
  H5Dclose (ds);
  *rows = dims[0];
  *cols = dims[1];
  return data;
}

static GStrv
read_strings (hid_t file, const char *name)
{
  hid_t ds = H5Dopen2 (file, name, H5P_DEFAULT);
  g_assert_cmpint (ds, >=, 0);
  hid_t space = H5Dget_space (ds);
  hsize_t n;
  H5Sget_simple_extent_dims (space, &n, NULL);
  hid_t type = H5Tcopy (H5T_C_S1);
  H5Tset_size (type, H5T_VARIABLE);
  H5Tset_cset (type, H5T_CSET_UTF8);
  char **raw = g_new0 (char *, n);
  g_assert_cmpint (H5Dread (ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw), >=, 0);
  GStrv out = g_new0 (char *, n + 1);
  for (hsize_t k = 0; k < n; k++)
    {
      out[k] = g_strdup (raw[k]);
      H5free_memory (raw[k]);
    }
  g_free (raw);
  H5Tclose (type);
  H5Sclose (space);
  H5Dclose (ds);
  return out;
}

typedef struct {
  GArray *values;
  guint n;
} Rows;

static gboolean
collect (double t, const double *values, guint n, gpointer user)
{
  (void) t;
  Rows *r = user;
  r->n = n;
  g_array_append_vals (r->values, values, n);
  return TRUE;
}

static void
test_roundtrip (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bramah-h5-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "run.h5", NULL);
  const char *args[] = { "simulate", circuit_path, "-o", out, NULL };
  g_assert_cmpint (run_cli (args), ==, 0);

  /* the same run through the engine */
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_file (circuit_path, &error);
  g_assert_no_error (error);
  g_auto (HydSimOptions) sim = { 0 };
  g_assert_true (hyd_circuit_get_sim_options (circuit, &sim, &error));
  g_autoptr (HydSystem) sys = hyd_system_compile (circuit, &error);
  g_assert_no_error (error);
  g_autoptr (GArray) vars = hyd_system_get_default_variables (sys);
  Rows rows = { g_array_new (FALSE, FALSE, sizeof (double)), 0 };
  HydRunSpec spec = { .sim = &sim, .vars = (const int *) vars->data, .n_vars = vars->len,
                      .sample = collect, .user = &rows };
  g_auto (HydOdeResult) res = { 0 };
  g_assert_cmpint (hyd_run_execute (sys, &spec, &res, NULL), ==, HYD_ODE_SUCCESS);
  guint n_rows = rows.values->len / vars->len;
  g_assert_cmpuint (n_rows, >, 10);

  hid_t file = H5Fopen (out, H5F_ACC_RDONLY, H5P_DEFAULT);
  g_assert_cmpint (file, >=, 0);
  hsize_t r, c;
  g_autofree double *data = read_data (file, &r, &c);
  g_assert_cmpuint (r, ==, n_rows);
  g_assert_cmpuint (c, ==, vars->len);
  /* bit for bit: the file holds the doubles themselves */
  g_assert_cmpmem (data, r * c * sizeof (double), rows.values->data, rows.values->len * sizeof (double));
  g_auto (GStrv) names = read_strings (file, "names");
  g_auto (GStrv) units = read_strings (file, "units");
  g_assert_cmpuint (g_strv_length (names), ==, vars->len);
  g_assert_cmpuint (g_strv_length (units), ==, vars->len);
  for (guint k = 0; k < vars->len; k++)
    {
      int v = g_array_index (vars, int, k);
      g_assert_cmpstr (names[k], ==, hyd_system_get_variable_name (sys, v));
      g_assert_cmpstr (units[k], ==, hyd_unit_symbol (hyd_system_get_variable_unit (sys, v)));
    }
  g_assert_cmpstr (names[0], ==, "t");
  g_autofree char *status = read_string_attr (file, "status");
  g_autofree char *solver = read_string_attr (file, "solver");
  g_autofree char *title = read_string_attr (file, "title");
  g_autofree char *version = read_string_attr (file, "bramah_version");
  g_assert_cmpstr (status, ==, "success");
  g_assert_cmpstr (solver, ==, sim.solver);
  g_assert_cmpstr (title, ==, circuit->title ? circuit->title : "");
  g_assert_cmpuint (strlen (version), >, 0);
  g_assert_cmpfloat (read_double_attr (file, "rtol"), ==, sim.rtol);
  g_assert_cmpfloat (read_double_attr (file, "t_end"), ==, sim.t_end);
  g_assert_cmpuint (read_u64_attr (file, "samples"), ==, n_rows);
  H5Fclose (file);
  g_array_unref (rows.values);

  /* atomic: only the file, no temporary left */
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n_files = 0;
  while ((name = g_dir_read_name (d)) != NULL)
    n_files++;
  g_assert_cmpuint (n_files, ==, 1);
  g_unlink (out);
  g_rmdir (dir);
}

/* A run that fails keeps its samples so far and says how it ended. */
static void
test_failed_run (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bramah-h5-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "failed.h5", NULL);
  const char *args[] = { "simulate", circuit_path, "--solver", "backward_euler", "--fixed-step", "0.5",
                         "-o", out, NULL };
  g_assert_cmpint (run_cli (args), ==, 1);
  hid_t file = H5Fopen (out, H5F_ACC_RDONLY, H5P_DEFAULT);
  g_assert_cmpint (file, >=, 0);
  g_autofree char *status = read_string_attr (file, "status");
  g_autofree char *message = read_string_attr (file, "message");
  g_assert_cmpstr (status, ==, "no-convergence");
  g_assert_nonnull (strstr (message, "did not converge"));
  hsize_t r, c;
  g_autofree double *data = read_data (file, &r, &c);
  g_assert_cmpuint (read_u64_attr (file, "samples"), ==, r);
  g_assert_cmpuint (r, >=, 1);
  g_assert_cmpfloat (data[0], ==, 0.0);   /* t = 0, the sample before the failure */
  H5Fclose (file);
  g_unlink (out);
  g_rmdir (dir);
}

/* A write that fails (here beyond the file size limit, as on a full disk)
 * exits 1 naming the file and the reason, and leaves no file or temporary:
 * libhdf5's own clean-up at exit crashed on the file it could not close. */
static void
test_write_failure (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bramah-h5-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "full.h5", NULL);
  const char *args[] = { "simulate", circuit_path, "-o", out, NULL };
  /* 8 KiB: the names and metadata fit, the rows do not (errno EFBIG);
   * 2 KiB: the metadata fails already, inside libhdf5, without an errno */
  const rlim_t limits[] = { 8192, 2048 };
  for (guint k = 0; k < G_N_ELEMENTS (limits); k++)
    {
      file_size_limit = limits[k];
      int st = run_cli (args);
      file_size_limit = RLIM_INFINITY;
      g_assert_cmpint (st, ==, 1);
      g_assert_nonnull (strstr (last_stderr, "cannot write"));
      if (k == 0)
        g_assert_nonnull (strstr (last_stderr, "writing /data: File too large"));
      g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
      g_assert_null (g_dir_read_name (d));
    }
  g_rmdir (dir);
}

/* Usage errors (status 2) that write nothing. */
static void
test_format_choice (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bramah-h5-XXXXXX", NULL);
  g_autofree char *mat = g_build_filename (dir, "run.mat", NULL);
  g_autofree char *h5 = g_build_filename (dir, "run.h5", NULL);
  const char *as_mat[] = { "simulate", circuit_path, "-o", mat, NULL };
  const char *format_mat[] = { "simulate", circuit_path, "--format", "mat", "-o", h5, NULL };
  const char *to_stdout[] = { "simulate", circuit_path, "--format", "hdf5", NULL };
  const char *summary[] = { "simulate", circuit_path, "--summary", "-o", h5, NULL };
  const char *unknown[] = { "simulate", circuit_path, "--format", "xlsx", "-o", h5, NULL };
  g_assert_cmpint (run_cli (as_mat), ==, 2);
  g_assert_cmpint (run_cli (format_mat), ==, 2);
  g_assert_cmpint (run_cli (to_stdout), ==, 2);
  g_assert_cmpint (run_cli (summary), ==, 2);
  g_assert_cmpint (run_cli (unknown), ==, 2);
  g_assert_false (g_file_test (mat, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (h5, G_FILE_TEST_EXISTS));
  /* --format csv writes CSV whatever the name */
  const char *csv[] = { "simulate", circuit_path, "--format", "csv", "-o", h5, NULL };
  g_assert_cmpint (run_cli (csv), ==, 0);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (h5, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "t,"));
  g_unlink (h5);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (argc != 3)
    {
      g_printerr ("usage: %s BRAMAH_CLI CIRCUIT\n", argv[0]);
      return 2;
    }
  cli = argv[1];
  circuit_path = argv[2];
  H5Eset_auto2 (H5E_DEFAULT, NULL, NULL);
  g_test_add_func ("/h5-output/roundtrip", test_roundtrip);
  g_test_add_func ("/h5-output/failed-run", test_failed_run);
  g_test_add_func ("/h5-output/write-failure", test_write_failure);
  g_test_add_func ("/h5-output/format-choice", test_format_choice);
  return g_test_run ();
}
