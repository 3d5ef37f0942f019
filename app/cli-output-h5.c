/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-output-h5.c — `bramah-cli simulate -o FILE.h5`: the samples of a run
 * streamed into an HDF5 file (docs/cli.md, "HDF5 output").
 *
 * Layout: /data, a 2-D dataset of doubles, one row a sample (t first, then
 * the columns asked for, as the CSV), chunked and extendible along the
 * rows; /names and /units, one string a column; the run's metadata
 * (title, circuit, solver, tolerances, Bramah version, status) as
 * attributes of the root group. Rows are gathered in a block of at most
 * BLOCK_BYTES (one chunk) and written when it is full, so memory does not
 * grow with the number of samples. The file is a temporary renamed into
 * place at the end (HydCliOutput), also when the run failed or was
 * cancelled: the samples so far, and the attribute `status` says how the
 * run ended.
 *
 * libhdf5 is loaded at the first HDF5 output (dlopen), not at start: it
 * brings about 35 libraries (libcurl, GnuTLS, Kerberos, LDAP ...) that no
 * other command needs (see cli-lazy-libs.c for the cost of loading). The
 * pointers are typed by the library's own header. */
#include <glib.h>
#include <glib/gstdio.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <hdf5.h>

#include "cli-output-h5.h"
#include "cli-commands.h"
#include "cli-diagnostic.h"
#include "hyd-run.h"
#include "hyd-system.h"

#define BLOCK_BYTES (1u << 20)   /* one chunk: 1 MiB, or one row if larger */
/* H5F_ACC_TRUNC's value: the macro calls H5check_version, which is bound
 * at start (the library is loaded at its first use, h5_load) */
#define ACC_TRUNC 0x0002u

#define H5_FUNCTIONS(X) \
  X (H5dont_atexit) X (H5open) X (H5Eset_auto2) X (H5Fcreate) X (H5Fclose) X (H5Screate_simple) X (H5Screate) \
  X (H5Sclose) X (H5Sselect_hyperslab) X (H5Pcreate) X (H5Pset_chunk) X (H5Pset_chunk_cache) \
  X (H5Pclose) X (H5Dcreate2) X (H5Dset_extent) X (H5Dget_space) X (H5Dwrite) X (H5Dclose) \
  X (H5Tcopy) X (H5Tset_size) X (H5Tset_cset) X (H5Tclose) X (H5Acreate2) X (H5Awrite) X (H5Aclose)

static struct {
#define X(f) __typeof__ (f) *f;
  H5_FUNCTIONS (X)
#undef X
  hid_t native_double, ieee_f64le, c_s1, native_uint64, std_u64le, dataset_create, dataset_access;
} h5;

/* Load libhdf5 once; FALSE with the reason in error. */
static gboolean
h5_load (GError **error)
{
  static void *handle;
  if (handle)
    return TRUE;
  void *lib = dlopen (BRAMAH_HDF5_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                   "HDF5 output needs the HDF5 library (%s; Debian: libhdf5-103-1): %s",
                   BRAMAH_HDF5_SONAME, dlerror ());
      return FALSE;
    }
#define X(f) \
  if ((h5.f = (__typeof__ (f) *) dlsym (lib, #f)) == NULL) \
    { \
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "the HDF5 library (%s) has no %s", \
                   BRAMAH_HDF5_SONAME, #f); \
      return FALSE; \
    }
  H5_FUNCTIONS (X)
#undef X
  /* no clean-up at exit: after a failed write (a full disk) the file
   * cannot be closed, and libhdf5 1.10's exit handler then crashes closing
   * it again; the temporary is removed and the process ends anyway */
  if (h5.H5dont_atexit () < 0 || h5.H5open () < 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "the HDF5 library (%s) did not start",
                   BRAMAH_HDF5_SONAME);
      return FALSE;
    }
  /* the predefined types and classes are the library's variables, set by H5open */
  static const struct { const char *name; hid_t *id; } ids[] = {
    { "H5T_NATIVE_DOUBLE_g", &h5.native_double }, { "H5T_IEEE_F64LE_g", &h5.ieee_f64le },
    { "H5T_C_S1_g", &h5.c_s1 }, { "H5T_NATIVE_ULLONG_g", &h5.native_uint64 },
    { "H5T_STD_U64LE_g", &h5.std_u64le }, { "H5P_CLS_DATASET_CREATE_ID_g", &h5.dataset_create },
    { "H5P_CLS_DATASET_ACCESS_ID_g", &h5.dataset_access },
  };
  for (guint k = 0; k < G_N_ELEMENTS (ids); k++)
    {
      const hid_t *v = dlsym (lib, ids[k].name);
      if (v == NULL)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "the HDF5 library (%s) has no %s",
                       BRAMAH_HDF5_SONAME, ids[k].name);
          return FALSE;
        }
      *ids[k].id = *v;
    }
  /* errors are reported here, naming the file, not as HDF5's stack dump */
  h5.H5Eset_auto2 (H5E_DEFAULT, NULL, NULL);
  handle = lib;
  return TRUE;
}

typedef struct {
  const char *name;   /* the file as the user named it, for messages */
  hid_t file, data;
  guint n_cols;
  guint block_rows, fill;
  guint64 rows;
  double *block;
  int error;          /* errno of the first failure, −1 without one */
  const char *failed; /* what failed first, NULL */
} H5Writer;

/* Note the first failure of an HDF5 call (its errno, when it set one). */
static gboolean
h5_check (H5Writer *w, herr_t r, const char *what, int err)
{
  if (r >= 0)
    return TRUE;
  if (w->failed == NULL)
    {
      w->failed = what;
      w->error = err ? err : -1;
    }
  return FALSE;
}

/* Write the gathered rows at the end of /data. */
static gboolean
flush_block (H5Writer *w)
{
  if (w->failed)
    return FALSE;
  if (w->fill == 0)
    return TRUE;
  hsize_t dims[2] = { w->rows + w->fill, w->n_cols };
  hsize_t start[2] = { w->rows, 0 }, count[2] = { w->fill, w->n_cols };
  errno = 0;
  if (!h5_check (w, h5.H5Dset_extent (w->data, dims), "extending /data", errno))
    return FALSE;
  hid_t fs = h5.H5Dget_space (w->data);
  hid_t ms = h5.H5Screate_simple (2, count, NULL);
  herr_t r = fs < 0 || ms < 0 ? -1 : h5.H5Sselect_hyperslab (fs, H5S_SELECT_SET, start, NULL, count, NULL);
  if (r >= 0)
    r = h5.H5Dwrite (w->data, h5.native_double, ms, fs, H5P_DEFAULT, w->block);
  int e = errno;
  if (ms >= 0)
    h5.H5Sclose (ms);
  if (fs >= 0)
    h5.H5Sclose (fs);
  if (!h5_check (w, r, "writing /data", e))
    return FALSE;
  w->rows += w->fill;
  w->fill = 0;
  return TRUE;
}

static gboolean
write_row (double t, const double *values, guint n, gpointer user)
{
  (void) t;
  H5Writer *w = user;
  g_assert (n == w->n_cols);
  memcpy (w->block + (gsize) w->fill * w->n_cols, values, n * sizeof (double));
  if (++w->fill == w->block_rows)
    return flush_block (w);   /* a failed write stops the run */
  return TRUE;
}

static hid_t
string_type (void)
{
  hid_t type = h5.H5Tcopy (h5.c_s1);
  if (type >= 0)
    {
      h5.H5Tset_size (type, H5T_VARIABLE);
      h5.H5Tset_cset (type, H5T_CSET_UTF8);
    }
  return type;
}

/* A 1-D dataset of strings. */
static gboolean
write_strings (H5Writer *w, const char *name, const char **values, guint n)
{
  hsize_t dims[1] = { n };
  errno = 0;   /* a failure's errno, wherever in these calls */
  hid_t type = string_type ();
  hid_t space = h5.H5Screate_simple (1, dims, NULL);
  hid_t ds = type < 0 || space < 0 ? -1
           : h5.H5Dcreate2 (w->file, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  herr_t r = ds < 0 ? -1 : h5.H5Dwrite (ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
  int e = errno;
  if (ds >= 0 && h5.H5Dclose (ds) < 0)
    r = -1;
  if (space >= 0)
    h5.H5Sclose (space);
  if (type >= 0)
    h5.H5Tclose (type);
  return h5_check (w, r, name, e);
}

/* An attribute of the root group: a string, or n values of mem_type. */
static gboolean
write_attr (H5Writer *w, const char *name, hid_t file_type, hid_t mem_type, const void *value, guint n)
{
  if (w->failed)
    return FALSE;
  hsize_t dims[1] = { n };
  errno = 0;
  hid_t type = file_type < 0 ? string_type () : file_type;
  hid_t space = n == 0 ? h5.H5Screate (H5S_SCALAR) : h5.H5Screate_simple (1, dims, NULL);
  hid_t a = type < 0 || space < 0 ? -1 : h5.H5Acreate2 (w->file, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  herr_t r = a < 0 ? -1 : h5.H5Awrite (a, mem_type < 0 ? type : mem_type, value);
  int e = errno;
  if (a >= 0 && h5.H5Aclose (a) < 0)
    r = -1;
  if (space >= 0)
    h5.H5Sclose (space);
  if (file_type < 0 && type >= 0)
    h5.H5Tclose (type);
  return h5_check (w, r, name, e);
}

static gboolean
write_string_attr (H5Writer *w, const char *name, const char *value)
{
  return write_attr (w, name, -1, -1, &value, 0);
}

static gboolean
write_double_attr (H5Writer *w, const char *name, const double *values, guint n)
{
  return write_attr (w, name, h5.ieee_f64le, h5.native_double, values, n);
}

/* Create the file with /names, /units, the run's metadata and an empty
 * /data (status "running" until the end). */
static gboolean
writer_open (H5Writer *w, const char *path, const char *circuit_path, const HydCircuit *circuit, HydSystem *sys,
             const HydSimOptions *sim, const GArray *vars, double n_samples)
{
  w->n_cols = vars->len;
  guint per_block = MAX (1u, BLOCK_BYTES / (guint) (sizeof (double) * w->n_cols));
  /* a short run gets a chunk no longer than itself (chunks are whole on disk) */
  w->block_rows = (guint) MAX (1.0, MIN ((double) per_block, n_samples));
  w->block = g_new (double, (gsize) w->block_rows * w->n_cols);
  errno = 0;
  w->file = h5.H5Fcreate (path, ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (!h5_check (w, w->file < 0 ? -1 : 0, "creating the file", errno))
    return FALSE;

  hsize_t dims[2] = { 0, w->n_cols }, max[2] = { H5S_UNLIMITED, w->n_cols };
  hsize_t chunk[2] = { w->block_rows, w->n_cols };
  errno = 0;
  hid_t space = h5.H5Screate_simple (2, dims, max);
  hid_t dcpl = h5.H5Pcreate (h5.dataset_create);
  hid_t dapl = h5.H5Pcreate (h5.dataset_access);
  herr_t r = space < 0 || dcpl < 0 || dapl < 0 ? -1 : h5.H5Pset_chunk (dcpl, 2, chunk);
  /* whole chunks are written: no chunk cache, straight to the file */
  if (r >= 0)
    r = h5.H5Pset_chunk_cache (dapl, 0, 0, 1.0);
  if (r >= 0)
    r = (w->data = h5.H5Dcreate2 (w->file, "data", h5.ieee_f64le, space, H5P_DEFAULT, dcpl, dapl)) < 0 ? -1 : 0;
  int e = errno;
  if (dapl >= 0)
    h5.H5Pclose (dapl);
  if (dcpl >= 0)
    h5.H5Pclose (dcpl);
  if (space >= 0)
    h5.H5Sclose (space);
  if (!h5_check (w, r, "/data", e))
    return FALSE;

  g_autofree const char **names = g_new (const char *, w->n_cols);
  g_autofree const char **units = g_new (const char *, w->n_cols);
  for (guint k = 0; k < w->n_cols; k++)
    {
      int v = g_array_index (vars, int, k);
      names[k] = hyd_system_get_variable_name (sys, v);
      units[k] = hyd_unit_symbol (hyd_system_get_variable_unit (sys, v));
    }
  if (!write_strings (w, "names", names, w->n_cols) || !write_strings (w, "units", units, w->n_cols))
    return FALSE;
  double step = sim->fixed_step;
  const char *kinds[HYD_ATOL_N_KINDS];
  for (int k = 0; k < HYD_ATOL_N_KINDS; k++)
    kinds[k] = hyd_atol_kind_name (k);
  return write_string_attr (w, "title", circuit->title ? circuit->title : "")
         && write_string_attr (w, "circuit", circuit_path)
         && write_string_attr (w, "solver", sim->solver)
         && write_double_attr (w, "rtol", &sim->rtol, 0)
         && write_double_attr (w, "atol", sim->atol, HYD_ATOL_N_KINDS)
         && write_attr (w, "atol_kinds", -1, -1, kinds, HYD_ATOL_N_KINDS)
         && write_double_attr (w, "fixed_step", &step, 0)
         && write_double_attr (w, "t_end", &sim->t_end, 0)
         && write_double_attr (w, "output_interval", &sim->output_interval, 0)
         && write_string_attr (w, "bramah_version", BRAMAH_VERSION);
}

/* The last rows, the status and the number of samples; close. */
static gboolean
writer_close (H5Writer *w, const char *status, const char *message)
{
  gboolean ok = flush_block (w);
  if (w->file >= 0 && w->data >= 0)
    {
      guint64 rows = w->rows;
      ok = write_string_attr (w, "status", status)
           && write_string_attr (w, "message", message ? message : "")
           && write_attr (w, "samples", h5.std_u64le, h5.native_uint64, &rows, 0) && ok;
    }
  if (w->data >= 0)
    {
      errno = 0;
      ok = h5_check (w, h5.H5Dclose (w->data), "closing /data", errno) && ok;
      w->data = -1;
    }
  if (w->file >= 0)
    {
      errno = 0;
      ok = h5_check (w, h5.H5Fclose (w->file), "closing the file", errno) && ok;
      w->file = -1;
    }
  g_clear_pointer (&w->block, g_free);
  return ok;
}

/* The data on disk before the name points at it (as the CSV's commit). */
static int
sync_file (const char *path)
{
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    return errno;
  int e = fsync (fd) != 0 && errno != EINVAL ? errno : 0;
  close (fd);
  return e;
}

int
hyd_cli_simulate_hdf5 (const char *circuit_path, const char *output, HydCircuit *circuit, HydSystem *sys,
                       const HydSimOptions *sim, const HydCliRunArgs *args, const GArray *vars, double n_samples)
{
  g_autoptr (GError) error = NULL;
  if (!h5_load (&error))
    return hyd_cli_failed_error (error);
  /* 8 bytes a value, and about 4 KiB for the names, units and metadata */
  double bytes = n_samples * 8.0 * vars->len + 4096.0 + 64.0 * vars->len;
  g_autoptr (HydCliOutput) out = hyd_cli_output_open_path (output, &error);
  if (out == NULL)
    return hyd_cli_failed_error (error);
  const char *path = hyd_cli_output_write_path (out);
  struct stat st;
  if (g_stat (path, &st) == 0 && !S_ISREG (st.st_mode))
    return hyd_cli_failed ("cannot write %s: an HDF5 file must be a regular file, not a device or a pipe "
                           "(write CSV there with --format csv)", hyd_cli_output_name (out));
  guint64 free_bytes;
  if (hyd_cli_output_free_space (out, &free_bytes) && bytes > (double) free_bytes)
    {
      g_autofree char *need = hyd_cli_format_size (bytes);
      g_autofree char *have = hyd_cli_format_size ((double) free_bytes);
      return hyd_cli_failed ("%s: the HDF5 file would take up to %s (%.0f rows of %u columns, 8 bytes a value: "
                             "t_end %g s, output_interval %g s) but %s has only %s free: raise "
                             "simulation.output_interval (--output-interval), lower simulation.t_end (--t-end) "
                             "or choose fewer --vars",
                             hyd_cli_qpath (circuit_path), need, n_samples, vars->len, sim->t_end,
                             sim->output_interval, hyd_cli_output_name (out), have);
    }

  H5Writer w = { .name = hyd_cli_output_name (out), .file = -1, .data = -1 };
  gboolean opened = writer_open (&w, path, circuit_path, circuit, sys, sim, vars, n_samples);
  g_auto (HydOdeResult) res = { 0 };
  HydOdeStatus status = hyd_cli_run_execute (sys, sim, args, vars, write_row, &w, !opened, &res);
  /* a failed write stopped the run (CANCELLED): the write is the news */
  const char *status_name = w.failed ? "write-failed" : hyd_ode_status_name (status);
  gboolean ok = writer_close (&w, status_name, res.message) && w.failed == NULL;
  int e = ok ? sync_file (path) : 0;
  if (e != 0)
    {
      w.failed = "syncing the file";
      w.error = e;
      ok = FALSE;
    }
  int st_out = 0;
  if (!ok)
    {
      st_out = hyd_cli_failed ("cannot write %s: %s: %s%s", hyd_cli_output_name (out), w.failed,
                               w.error > 0 ? g_strerror (w.error) : "the HDF5 library reported an error",
                               w.error == ENOSPC ? " (disk full)" : "");
      hyd_cli_output_abort (g_steal_pointer (&out));
    }
  else if (!hyd_cli_output_commit (g_steal_pointer (&out), &error))
    {
      st_out = hyd_cli_failed_error (error);
      ok = FALSE;
    }
  return hyd_cli_run_report (status, &res, args, !ok, st_out);
}

int
hyd_cli_simulate_choose_format (GOptionContext *ctx, const char *format, const char *output, gboolean summary,
                                gboolean *hdf5)
{
  g_autofree char *ext = NULL;
  const char *dot = output ? strrchr (output, '.') : NULL;
  if (dot && strchr (dot, G_DIR_SEPARATOR) == NULL)
    ext = g_ascii_strdown (dot + 1, -1);
  const char *mat_advice = "MAT files are not written: write HDF5 (-o FILE.h5), which MATLAB reads with h5read "
                           "and Python with h5py (docs/cli.md, HDF5 output)";
  if (format == NULL)
    {
      if (g_strcmp0 (ext, "mat") == 0)
        return hyd_cli_usage_error (ctx, "-o %s: %s", hyd_cli_qpath (output), mat_advice);
      *hdf5 = g_strcmp0 (ext, "h5") == 0 || g_strcmp0 (ext, "hdf5") == 0;
    }
  else if (strcmp (format, "csv") == 0)
    *hdf5 = FALSE;
  else if (strcmp (format, "hdf5") == 0)
    *hdf5 = TRUE;
  else if (strcmp (format, "mat") == 0)
    return hyd_cli_usage_error (ctx, "--format mat: %s", mat_advice);
  else
    return hyd_cli_usage_error (ctx, "--format takes csv or hdf5, not '%s'", hyd_cli_q (format));
  if (*hdf5 && summary)
    return hyd_cli_usage_error (ctx, "--summary prints a text table: it cannot be written as HDF5");
  if (*hdf5 && output == NULL)
    return hyd_cli_usage_error (ctx, "HDF5 output goes to a file: give -o FILE.h5");
  return 0;
}
