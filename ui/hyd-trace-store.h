/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-trace-store.h — the samples of one run, for the plots (main thread).
 * Columns are the run's variables (t first); rows arrive in batches from the
 * worker. Markers are the live parameter changes of the run's change log. */
#pragma once

#include <glib-object.h>
#include "hyd-units.h"

G_BEGIN_DECLS

#define HYD_TYPE_TRACE_STORE (hyd_trace_store_get_type ())
G_DECLARE_FINAL_TYPE (HydTraceStore, hyd_trace_store, HYD, TRACE_STORE, GObject)

/* n variables (names[0] is "t"), their SI units. */
HydTraceStore *hyd_trace_store_new (const char *const *names, const HydUnit *units, guint n);
guint hyd_trace_store_get_n_columns (HydTraceStore *store);
const char *hyd_trace_store_get_name (HydTraceStore *store, guint column);
HydUnit hyd_trace_store_get_unit (HydTraceStore *store, guint column);
int hyd_trace_store_find (HydTraceStore *store, const char *name); /* column or −1 */
/* Append n_rows rows of n_columns values each (row-major, t first); emits
 * "appended" (guint first_row, guint n_rows). t must not decrease. */
void hyd_trace_store_append (HydTraceStore *store, const double *rows, guint n_rows);
guint hyd_trace_store_get_n_rows (HydTraceStore *store);
/* The values of one column, n_rows of them (valid until the next append). */
const double *hyd_trace_store_get_column (HydTraceStore *store, guint column);
/* Markers (time, label), e.g. "RV1.cracking_pressure 100 → 120 bar". */
void hyd_trace_store_add_marker (HydTraceStore *store, double t, const char *label);
guint hyd_trace_store_get_n_markers (HydTraceStore *store);
void hyd_trace_store_get_marker (HydTraceStore *store, guint i, double *t, const char **label);
/* CSV of the chosen columns (NULL: all of them; t first, once), in the
 * words and units the plots show: one header row ("Time [s]", "V1.P:
 * Pressure [bar]", hyd_message_variable_label), the values in display units
 * (hyd_display_from_si), %.10g with '.' and ',' whatever the locale. Not
 * bramah-cli's CSV, which keeps SI and the engine's names. */
gboolean hyd_trace_store_write_csv (HydTraceStore *store, const char *const *names,
                                    const char *path, GError **error);

/* Additions. All names, NULL-terminated (names[0] is "t"). */
const char *const *hyd_trace_store_get_names (HydTraceStore *store);
/* The run's end time, when known (NaN: unknown, the default): the plots then
 * span [t0, t_end] from the start and the traces grow into it. */
void hyd_trace_store_set_t_end (HydTraceStore *store, double t_end);
double hyd_trace_store_get_t_end (HydTraceStore *store);
/* "marker-added" (guint index) is emitted by hyd_trace_store_add_marker. */

/* The memory cap (issue 9): the samples of a run take n_rows × n_columns ×
 * 8 bytes. When an append would pass max_bytes (0: no cap), the rows kept
 * are first thinned to half: every four consecutive rows become two that
 * keep each column's minimum and maximum over them (in time order), so
 * peaks survive while the finest detail of the older part of a long run is
 * lost; the newest rows are always kept as they come. "compacted" () is
 * emitted each time; the CSV export then has the thinned rows (bramah-cli
 * simulate -o writes every sample). */
#define HYD_TRACE_STORE_DEFAULT_MAX_BYTES ((gsize) 256 * 1024 * 1024)
void hyd_trace_store_set_max_bytes (HydTraceStore *store, gsize max_bytes);
gsize hyd_trace_store_get_max_bytes (HydTraceStore *store);
/* How many times the rows were thinned (0: every sample is kept). */
guint hyd_trace_store_get_n_compactions (HydTraceStore *store);

G_END_DECLS
