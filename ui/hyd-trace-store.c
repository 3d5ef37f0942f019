/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-trace-store.c — the samples of one run, column by column.
 *
 * Rows arrive row-major from the worker's batches and are kept column-major,
 * so a plot reads a trace as one contiguous array.
 *
 * Memory.  Each column grows on its own, doubling, but from a starting
 * capacity that differs between columns (MIN_ROWS … 2 × MIN_ROWS − 1), so
 * the columns' re-allocations are spread over the batches. All columns hold
 * the same number of rows: with capacities that were all powers of two (one
 * GArray each) every column re-allocated and copied its samples in the same
 * batch, and with a few thousand columns (a distributed line of 1000
 * segments, its inner pressures and their voids) that batch stalled the main
 * loop for tens of milliseconds each time the row count passed a power of
 * two. */
#include "bramah-config.h"
#include "hyd-trace-store.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>
#include "hyd-circuit.h"
#include "hyd-display-units.h"
#include "hyd-message.h"

typedef struct {
  double t;
  char *label;
} Marker;

struct _HydTraceStore
{
  GObject parent_instance;

  guint n_columns;
  char **names;       /* n_columns, NULL-terminated */
  HydUnit *units;
  double **columns;   /* n_columns arrays of samples */
  guint *capacity;    /* rows each column has room for */
  guint n_rows;
  GHashTable *index;  /* name → column + 1 */
  GArray *markers;    /* Marker */
  double t_end;       /* the run's end time, NaN when unknown */
  gsize max_bytes;    /* the cap on the samples' memory (0: none) */
  guint n_compactions;
};

G_DEFINE_FINAL_TYPE (HydTraceStore, hyd_trace_store, G_TYPE_OBJECT)

enum { APPENDED, MARKER_ADDED, COMPACTED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
marker_clear (gpointer data)
{
  Marker *m = data;
  g_free (m->label);
}

static void
hyd_trace_store_finalize (GObject *object)
{
  HydTraceStore *self = HYD_TRACE_STORE (object);

  for (guint k = 0; k < self->n_columns; k++)
    g_free (self->columns[k]);
  g_free (self->columns);
  g_free (self->capacity);
  g_strfreev (self->names);
  g_free (self->units);
  g_clear_pointer (&self->index, g_hash_table_unref);
  g_clear_pointer (&self->markers, g_array_unref);

  G_OBJECT_CLASS (hyd_trace_store_parent_class)->finalize (object);
}

static void
hyd_trace_store_class_init (HydTraceStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = hyd_trace_store_finalize;

  /**
   * HydTraceStore::appended:
   * @first_row: the index of the first new row
   * @n_rows: how many rows were appended
   */
  signals[APPENDED] =
    g_signal_new ("appended", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
  /**
   * HydTraceStore::marker-added:
   * @index: the new marker's index
   */
  signals[MARKER_ADDED] =
    g_signal_new ("marker-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);
  /**
   * HydTraceStore::compacted:
   *
   * The store reached its memory cap and thinned its rows (min/max per
   * bucket); row indices before this are no longer valid.
   */
  signals[COMPACTED] =
    g_signal_new ("compacted", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
hyd_trace_store_init (HydTraceStore *self)
{
  self->index = g_hash_table_new (g_str_hash, g_str_equal);
  self->markers = g_array_new (FALSE, FALSE, sizeof (Marker));
  g_array_set_clear_func (self->markers, marker_clear);
  self->t_end = NAN;
  self->max_bytes = HYD_TRACE_STORE_DEFAULT_MAX_BYTES;
}

HydTraceStore *
hyd_trace_store_new (const char *const *names, const HydUnit *units, guint n)
{
  g_return_val_if_fail (names != NULL || n == 0, NULL);

  HydTraceStore *self = g_object_new (HYD_TYPE_TRACE_STORE, NULL);
  self->n_columns = n;
  self->names = g_new0 (char *, n + 1);
  self->units = g_new0 (HydUnit, MAX (n, 1));
  self->columns = g_new0 (double *, MAX (n, 1));
  self->capacity = g_new0 (guint, MAX (n, 1));
  for (guint k = 0; k < n; k++)
    {
      self->names[k] = g_strdup (names[k] ? names[k] : "");
      self->units[k] = units && (guint) units[k] < HYD_UNIT_N_KINDS ? units[k] : HYD_UNIT_NONE;
      /* the first of two equal names wins, as a lookup by name would expect */
      if (!g_hash_table_contains (self->index, self->names[k]))
        g_hash_table_insert (self->index, self->names[k], GUINT_TO_POINTER (k + 1));
    }
  if (n > 0 && units == NULL)
    self->units[0] = HYD_UNIT_TIME;
  return self;
}

guint
hyd_trace_store_get_n_columns (HydTraceStore *store)
{
  g_return_val_if_fail (HYD_IS_TRACE_STORE (store), 0);
  return store->n_columns;
}

const char *
hyd_trace_store_get_name (HydTraceStore *store, guint column)
{
  g_return_val_if_fail (HYD_IS_TRACE_STORE (store), NULL);
  g_return_val_if_fail (column < store->n_columns, NULL);
  return store->names[column];
}

const char *const *
hyd_trace_store_get_names (HydTraceStore *store)
{
  g_return_val_if_fail (HYD_IS_TRACE_STORE (store), NULL);
  return (const char *const *) store->names;
}

HydUnit
hyd_trace_store_get_unit (HydTraceStore *store, guint column)
{
  g_return_val_if_fail (HYD_IS_TRACE_STORE (store), HYD_UNIT_NONE);
  g_return_val_if_fail (column < store->n_columns, HYD_UNIT_NONE);
  return store->units[column];
}

int
hyd_trace_store_find (HydTraceStore *store, const char *name)
{
  g_return_val_if_fail (HYD_IS_TRACE_STORE (store), -1);
  if (name == NULL)
    return -1;
  gpointer v = g_hash_table_lookup (store->index, name);
  return v ? (int) GPOINTER_TO_UINT (v) - 1 : -1;
}

#define MIN_ROWS 64

static inline double *
column_data (HydTraceStore *store, guint k)
{
  return store->columns[k];
}

/* Room for `rows` rows in column k (see the top of the file). */
static void
reserve (HydTraceStore *store, guint k, guint rows)
{
  if (rows <= store->capacity[k])
    return;
  /* a starting capacity of its own: the column's bit-reversed index, so
   * that neighbours differ too */
  guint capacity = store->capacity[k];
  if (capacity == 0)
    {
      guint spread = 0;
      for (guint b = 0, i = k; b < 6; b++, i >>= 1)
        spread = (spread << 1) | (i & 1);
      capacity = MIN_ROWS + spread;
    }
  while (capacity < rows)
    capacity = capacity > G_MAXUINT / 2 ? rows : 2 * capacity;
  store->columns[k] = g_renew (double, store->columns[k], capacity);
  store->capacity[k] = capacity;
}

/* Halve the rows: each bucket of four consecutive rows becomes two, at the
 * bucket's first and last time, and every column keeps its minimum and its
 * maximum over the bucket in the order they occurred, so peaks, end stops
 * and spikes survive any number of compactions (a NaN is kept only when the
 * whole bucket is NaN). A last partial bucket is kept as it is. */
static void
compact (HydTraceStore *store)
{
  guint n_rows = hyd_trace_store_get_n_rows (store);
  guint n_buckets = n_rows / 4, rest = n_rows % 4;
  for (guint k = 0; k < store->n_columns; k++)
    {
      double *v = column_data (store, k);
      for (guint b = 0; b < n_buckets; b++)
        {
          const double *in = v + 4 * b;
          double out0, out1;
          if (k == 0)
            {
              out0 = in[0];
              out1 = in[3];
            }
          else
            {
              int imin = -1, imax = -1;
              for (int i = 0; i < 4; i++)
                if (!isnan (in[i]))
                  {
                    if (imin < 0 || in[i] < in[imin])
                      imin = i;
                    if (imax < 0 || in[i] > in[imax])
                      imax = i;
                  }
              if (imin < 0)
                out0 = out1 = NAN;
              else if (imin <= imax)
                {
                  out0 = in[imin];
                  out1 = in[imax];
                }
              else
                {
                  out0 = in[imax];
                  out1 = in[imin];
                }
            }
          v[2 * b] = out0;
          v[2 * b + 1] = out1;
        }
      memmove (v + 2 * n_buckets, v + 4 * n_buckets, rest * sizeof (double));
    }
  store->n_rows = 2 * n_buckets + rest;
  store->n_compactions++;
  g_signal_emit (store, signals[COMPACTED], 0);
}

void
hyd_trace_store_set_max_bytes (HydTraceStore *store, gsize max_bytes)
{
  g_return_if_fail (HYD_IS_TRACE_STORE (store));
  store->max_bytes = max_bytes;
}

gsize
hyd_trace_store_get_max_bytes (HydTraceStore *store)
{
  g_return_val_if_fail (HYD_IS_TRACE_STORE (store), 0);
  return store->max_bytes;
}

guint
hyd_trace_store_get_n_compactions (HydTraceStore *store)
{
  g_return_val_if_fail (HYD_IS_TRACE_STORE (store), 0);
  return store->n_compactions;
}

void
hyd_trace_store_append (HydTraceStore *store, const double *rows, guint n_rows)
{
  g_return_if_fail (HYD_IS_TRACE_STORE (store));
  g_return_if_fail (rows != NULL || n_rows == 0);
  if (n_rows == 0 || store->n_columns == 0)
    return;

  guint n = store->n_columns;
  /* over the cap: thin what is kept (the new rows stay as they come) */
  while (store->max_bytes > 0 && hyd_trace_store_get_n_rows (store) >= 8
         && (gsize) (hyd_trace_store_get_n_rows (store) + n_rows) * n * sizeof (double) > store->max_bytes)
    compact (store);
  guint first = store->n_rows;
  for (guint k = 0; k < n; k++)
    {
      reserve (store, k, first + n_rows);
      double *dst = column_data (store, k) + first;
      for (guint r = 0; r < n_rows; r++)
        dst[r] = rows[(gsize) r * n + k];
    }
  store->n_rows = first + n_rows;
  g_signal_emit (store, signals[APPENDED], 0, first, n_rows);
}

guint
hyd_trace_store_get_n_rows (HydTraceStore *store)
{
  g_return_val_if_fail (HYD_IS_TRACE_STORE (store), 0);
  return store->n_rows;
}

const double *
hyd_trace_store_get_column (HydTraceStore *store, guint column)
{
  g_return_val_if_fail (HYD_IS_TRACE_STORE (store), NULL);
  g_return_val_if_fail (column < store->n_columns, NULL);
  return column_data (store, column);
}

void
hyd_trace_store_add_marker (HydTraceStore *store, double t, const char *label)
{
  g_return_if_fail (HYD_IS_TRACE_STORE (store));
  Marker m = { t, g_strdup (label ? label : "") };
  g_array_append_val (store->markers, m);
  g_signal_emit (store, signals[MARKER_ADDED], 0, store->markers->len - 1);
}

guint
hyd_trace_store_get_n_markers (HydTraceStore *store)
{
  g_return_val_if_fail (HYD_IS_TRACE_STORE (store), 0);
  return store->markers->len;
}

void
hyd_trace_store_get_marker (HydTraceStore *store, guint i, double *t, const char **label)
{
  g_return_if_fail (HYD_IS_TRACE_STORE (store));
  g_return_if_fail (i < store->markers->len);
  const Marker *m = &g_array_index (store->markers, Marker, i);
  if (t)
    *t = m->t;
  if (label)
    *label = m->label;
}

void
hyd_trace_store_set_t_end (HydTraceStore *store, double t_end)
{
  g_return_if_fail (HYD_IS_TRACE_STORE (store));
  store->t_end = isfinite (t_end) ? t_end : NAN;
}

double
hyd_trace_store_get_t_end (HydTraceStore *store)
{
  g_return_val_if_fail (HYD_IS_TRACE_STORE (store), NAN);
  return store->t_end;
}

/* As bramah-cli's CSV (circuit-format.md): %.10g, '.' whatever the locale. */
static void
append_number (GString *line, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (isnan (v))
    g_string_append (line, "nan");
  else
    g_string_append (line, g_ascii_formatd (buf, sizeof buf, "%.10g", v));
}

gboolean
hyd_trace_store_write_csv (HydTraceStore *store, const char *const *names,
                           const char *path, GError **error)
{
  g_return_val_if_fail (HYD_IS_TRACE_STORE (store), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (store->n_columns == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("The run has no variables to write"));
      return FALSE;
    }

  /* t first, then the chosen columns (all of them for NULL) */
  g_autoptr(GArray) cols = g_array_new (FALSE, FALSE, sizeof (guint));
  guint zero = 0;
  g_array_append_val (cols, zero);
  if (names == NULL)
    {
      for (guint k = 1; k < store->n_columns; k++)
        g_array_append_val (cols, k);
    }
  else
    {
      for (guint i = 0; names[i]; i++)
        {
          int k = hyd_trace_store_find (store, names[i]);
          if (k < 0)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("The run has no variable “%s”"), names[i]);
              return FALSE;
            }
          if (k == 0)
            continue;
          guint col = (guint) k;
          g_array_append_val (cols, col);
        }
    }

  /* made whole, then written as a circuit is saved (atomically): a reader
   * never sees half of it, a failed write keeps the old file */
  g_autoptr(GString) text = g_string_new (NULL);

  /* The header: each column in the plots' words and units ("Time [s]",
   * "V1.P: Pressure [bar]"); a label two columns would share names the
   * variable too, and one holding the separator or a quote is quoted. */
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < cols->len; i++)
    {
      guint k = g_array_index (cols, guint, i);
      char *label = hyd_message_variable_label (store->names[k], store->units[k]);
      for (guint j = 0; j < labels->len; j++)
        if (strcmp (g_ptr_array_index (labels, j), label) == 0)
          {
            char *named = g_strdup_printf ("%s (%s)", label, store->names[k]);
            g_free (label);
            label = named;
            break;
          }
      g_ptr_array_add (labels, label);
      g_autoptr(GString) header = g_string_new (label);
      const char *symbol = hyd_display_symbol (store->units[k]);
      if (symbol[0] != '\0')
        g_string_append_printf (header, " [%s]", symbol);
      if (i)
        g_string_append_c (line, ',');
      if (strpbrk (header->str, ",\"\r\n") != NULL)
        {
          g_string_append_c (line, '"');
          for (const char *c = header->str; *c; c++)
            {
              if (*c == '"')
                g_string_append_c (line, '"');
              g_string_append_c (line, *c);
            }
          g_string_append_c (line, '"');
        }
      else
        g_string_append (line, header->str);
    }
  g_string_append_c (line, '\n');
  g_string_append_len (text, line->str, (gssize) line->len);

  guint n_rows = hyd_trace_store_get_n_rows (store);
  for (guint r = 0; r < n_rows; r++)
    {
      g_string_truncate (line, 0);
      for (guint i = 0; i < cols->len; i++)
        {
          if (i)
            g_string_append_c (line, ',');
          guint k = g_array_index (cols, guint, i);
          append_number (line, hyd_display_from_si (store->units[k], column_data (store, k)[r]));
        }
      g_string_append_c (line, '\n');
      g_string_append_len (text, line->str, (gssize) line->len);
    }

  g_autoptr(GError) inner = NULL;
  if (!hyd_file_replace_contents (path, text->str, text->len, 0, &inner))
    {
      int errsv = errno;
      g_autofree char *display = g_filename_display_name (path);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Cannot write “%s”: %s"), display, g_strerror (errsv));
      return FALSE;
    }
  return TRUE;
}
