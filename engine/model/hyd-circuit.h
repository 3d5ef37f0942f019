/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-circuit.h — the circuit document (spec/circuit-format.md, version 1).
 *
 * A HydCircuit holds what the file says, no more: keys the user left out stay
 * out (their defaults are applied when the circuit is compiled), unknown keys
 * of the top level and of component, junction, connection and plot objects are
 * kept in `extra` in their original order, and saving writes a canonical form,
 * so save → load → save is byte-identical. Parameter values are kept as the
 * JSON the user wrote (a number, a string or a profile object). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "hyd-component.h"
#include "hyd-error.h"
#include "hyd-profile.h"

G_BEGIN_DECLS

#define HYD_CIRCUIT_FORMAT "bramah-circuit"
/* The version this build writes and the newest it reads; 2 adds the
 * initial motion of mechanical nodes (docs/circuit-format.md, Version 2),
 * 3 the friction of hoses (Version 3). */
#define HYD_CIRCUIT_VERSION 3
/* The first version in which a connection's "friction" key is read and a
 * connection that gives its length and diameter has hose friction by
 * default. */
#define HYD_CIRCUIT_VERSION_FRICTION 3


/* The largest circuit file (and saved text) this reader accepts, in bytes.
 * The JSON tree takes about 30–60 times the text's size in memory, so this
 * bounds a load to about 2 GB; 10^5 components take about 17 MiB. */
#define HYD_CIRCUIT_MAX_FILE_SIZE (32 << 20)

typedef struct {
  char *id;
  char *type;
  double x, y;            /* position */
  int rotation;           /* 0, 90, 180, 270 */
  gboolean mirror;
  char *label;            /* NULL when absent */
  JsonObject *params;     /* name → value as written (never NULL) */
  JsonObject *extra;      /* unknown keys, NULL when there are none */
  guint has_position : 1;
  guint has_rotation : 1;
  guint has_mirror : 1;
} HydCircuitComponent;

typedef struct {
  char *id;
  double x, y;
  gboolean has_position;
  gboolean has_initial_pressure;
  double initial_pressure;
  JsonObject *extra;      /* unknown keys, NULL when there are none */
} HydCircuitJunction;

typedef struct {
  char *from;             /* "COMP.PORT" or a junction id */
  char *to;
  GArray *route;          /* of double pairs [x0, y0, x1, y1, ...], or NULL */
  gboolean has_length;
  double length;          /* m, default 0.5 */
  gboolean has_diameter;
  double diameter;        /* m, default 0.01 */
  gboolean has_initial_pressure;
  double initial_pressure;
  /* "friction" (version ≥ 3; in older files the key is an unknown key, in
   * extra): TRUE/FALSE turns the hose's pressure loss on or off; unset, the
   * default rule applies (hyd_circuit_connection_friction). */
  gboolean has_friction;
  gboolean friction;
  JsonObject *extra;      /* unknown keys, NULL when there are none */
} HydCircuitConnection;

typedef struct {
  char *title;            /* may be NULL */
  GPtrArray *traces;      /* of char* */
  char *y_unit;           /* NULL when absent */
  JsonObject *extra;      /* unknown keys, NULL when there are none */
} HydCircuitPlot;

typedef struct {
  char *title;            /* NULL when absent */
  char *description;      /* NULL when absent */
  int version;
  JsonObject *fluid;      /* as written, NULL when absent */
  JsonObject *simulation; /* as written, NULL when absent */
  GPtrArray *components;  /* of HydCircuitComponent* */
  GPtrArray *junctions;   /* of HydCircuitJunction* */
  GPtrArray *connections; /* of HydCircuitConnection* */
  GPtrArray *plots;       /* of HydCircuitPlot*, NULL when absent */
  JsonObject *extra;      /* unknown top-level keys (never NULL) */
} HydCircuit;

typedef struct {
  double t_end;
  char *solver;            /* owned */
  double rtol;
  double atol[HYD_ATOL_N_KINDS];
  double max_step;         /* resolved: t_end/10 unless set */
  double fixed_step;       /* 0 = adaptive */
  double output_interval;  /* resolved: t_end/1000 unless set */
  double initial_pressure;
  double real_time_factor;
  gboolean events;         /* locate end stops and valve seating (extension) */
  gboolean max_step_set;
  gboolean output_interval_set;
  /* Not in the file (the command line, the application's settings): the
   * tlm solver's filter constant (NAN: its default) and threads (0: one). */
  double tlm_filter;
  guint threads;
} HydSimOptions;

HydCircuit *hyd_circuit_new (void);
void hyd_circuit_free (HydCircuit *circuit);
HydCircuit *hyd_circuit_copy (const HydCircuit *circuit);

/* Load and validate everything that needs no graph: format, version, ids,
 * types, parameters (names, kinds, ranges, profiles, cross rules), fluid and
 * simulation settings, connection references and port domains. Messages name
 * the component, parameter, port or junction; JSON syntax errors give
 * line:column. `filename` (may be NULL) prefixes parse errors. The text must
 * be strict JSON (hyd-json-scan.h: UTF-8, at most HYD_JSON_MAX_DEPTH levels,
 * no duplicate keys, numbers that keep their value) of at most
 * HYD_CIRCUIT_MAX_FILE_SIZE bytes. */
HydCircuit *hyd_circuit_load_from_data (const char *data, gssize length,
                                        const char *filename, GError **error);
/* Refuses what is not a regular file (a folder, a FIFO, a device) and files
 * larger than HYD_CIRCUIT_MAX_FILE_SIZE before reading them. */
HydCircuit *hyd_circuit_load_from_file (const char *path, GError **error);
/* Re-run the load-time validation on an edited document. */
gboolean hyd_circuit_validate (const HydCircuit *circuit, GError **error);

/* Canonical JSON text (2-space indent, trailing newline). */
char *hyd_circuit_to_data (const HydCircuit *circuit, gsize *length);
/* Atomic: a new file in the same folder, flushed, renamed over the old one;
 * it keeps the old file's mode, and saving through a symbolic link writes
 * the file the link points to. A failure keeps the old file and leaves no
 * temporary. A text larger than HYD_CIRCUIT_MAX_FILE_SIZE is not written. */
gboolean hyd_circuit_save_to_file (const HydCircuit *circuit, const char *path, GError **error);
/* The same for a text hyd_circuit_to_data made (so that a caller can make
 * the text in one thread and write it in another): the same cap, atomic
 * replacement, links followed. `mode` 0 keeps the old file's mode (new
 * files get 0666 less the umask); any other value is the file's mode
 * (an autosave: 0600). */
gboolean hyd_circuit_save_data_to_file (const char *data, gsize length, const char *path,
                                        guint mode, GError **error);
/* Any file the application writes (exported runs, plots, drawings), as a
 * circuit is saved: written under a temporary name in the same folder and
 * renamed over `path` once complete, so that a reader (or a crash) never
 * sees a part of it and a failure keeps the old file; links followed;
 * `mode` as above. A device or a pipe (/dev/null, /dev/stdout, a FIFO) is
 * written in place, as bramah-cli writes there (a circuit's save refuses
 * them). On failure errno also says why, for a caller that words its own
 * message. */
gboolean hyd_file_replace_contents (const char *path, const char *data, gsize length, guint mode,
                                    GError **error);

/* Items of a document, for editors: new (empty, with empty params/extra),
 * deep copy and free. A circuit owns the items in its arrays. */
HydCircuitComponent *hyd_circuit_component_new (const char *id, const char *type);
HydCircuitComponent *hyd_circuit_component_copy (const HydCircuitComponent *component);
void hyd_circuit_component_free (HydCircuitComponent *component);
HydCircuitJunction *hyd_circuit_junction_new (const char *id);
HydCircuitJunction *hyd_circuit_junction_copy (const HydCircuitJunction *junction);
void hyd_circuit_junction_free (HydCircuitJunction *junction);
HydCircuitConnection *hyd_circuit_connection_new (const char *from, const char *to);
HydCircuitConnection *hyd_circuit_connection_copy (const HydCircuitConnection *connection);
void hyd_circuit_connection_free (HydCircuitConnection *connection);

HydCircuitComponent *hyd_circuit_find_component (const HydCircuit *circuit, const char *id);
HydCircuitJunction *hyd_circuit_find_junction (const HydCircuit *circuit, const char *id);

/* Fluid with defaults filled in. */
gboolean hyd_circuit_get_fluid (const HydCircuit *circuit, HydFluid *fluid, GError **error);
/* Simulation options with defaults filled in (clear with hyd_sim_options_clear). */
gboolean hyd_circuit_get_sim_options (const HydCircuit *circuit, HydSimOptions *opts, GError **error);
void hyd_sim_options_clear (HydSimOptions *opts);
/* Recompute the t_end-dependent defaults after t_end changed. */
void hyd_sim_options_set_t_end (HydSimOptions *opts, double t_end);

/* The typed view below, written into the caller's arrays (the compiler's
 * instances): values[n_params] (defaults
 * applied; enum: choice index; optional unset: NAN; profile parameters:
 * the value just after t = 0) and profiles[n_params] (a new HydProfile for
 * every profile parameter, constant ones included; NULL for others).
 * Checks names, kinds, ranges (every value a profile takes) and the type's
 * cross-parameter rules. Either output may be NULL. */
gboolean hyd_circuit_component_resolve_params (const HydCircuitComponent *component,
                                               const HydFluid *fluid,
                                               double *values,
                                               HydProfile **profiles,
                                               GError **error);
/* The typed, validated view of one component's parameters: what the
 * compiler, the CLI and the UI read (never the JSON members, which keep
 * only what was written). values and profiles are as for
 * hyd_circuit_component_resolve_params; the view owns them. Parameters are
 * read only through these two; the JSON members are for editors, which show
 * and change what was written. */
typedef struct {
  const HydComponentType *type;
  double *values;          /* [type->n_params] in SI; enum: choice index; unset optional: NAN */
  HydProfile **profiles;   /* [type->n_params] parsed profiles (constant ones too), or NULL */
} HydComponentParams;

/* The view, or NULL with an error naming the component and parameter (the
 * messages of hyd_circuit_component_resolve_params). fluid NULL: the
 * default fluid. */
HydComponentParams *hyd_circuit_component_get_params (const HydCircuitComponent *component,
                                                      const HydFluid *fluid, GError **error);
void hyd_component_params_free (HydComponentParams *params);
/* A parameter's value (just after t = 0 for a profile), NAN when the type
 * has no such parameter. */
double hyd_component_params_get (const HydComponentParams *params, const char *name);
/* A parameter's value at time t (its profile's value just after t). */
double hyd_component_params_get_at (const HydComponentParams *params, const char *name, double t);
/* An enum parameter's choice (untranslated), NULL when not an enum. */
/* The component id a reference parameter (HYD_PARAM_REFERENCE) names, or
 * NULL when it is unset. */
const char *hyd_circuit_component_get_reference (const HydCircuitComponent *component, const char *name);
/* TRUE when a set reference parameter drives the component's hidden input
 * `port` (the valve's Ya when solenoid_a names a coil). */
gboolean hyd_circuit_component_reference_sets_port (const HydCircuitComponent *component, const char *port);
const char *hyd_component_params_get_choice (const HydComponentParams *params, const char *name);
/* How the component is operated (hyd_component_type_get_operation). */
HydOperation hyd_component_params_get_operation (const HydComponentParams *params);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydComponentParams, hyd_component_params_free)

/* Set a parameter from a string: a number, an enum choice, or a profile as
 * JSON (bramah-cli --set). Validates it; on error nothing changes. */
gboolean hyd_circuit_component_set_param_from_string (HydCircuitComponent *component,
                                                      const char *name,
                                                      const char *value,
                                                      const HydFluid *fluid,
                                                      GError **error);

/* Split "C1.A" into component and port; FALSE for a junction reference. */
/* Format version 2: the initial velocity ("initial_velocity", m/s or
 * rad/s) or position ("initial_position", m or rad) a connection or junction
 * sets for its mechanical node, from the element's kept members (`extra`):
 * TRUE and *value when present in a file of version ≥ 2 (checked to be a
 * finite number by hyd_circuit_validate); FALSE otherwise — in a version 1
 * file the keys are unknown keys and mean nothing. */
gboolean hyd_circuit_get_initial_motion (const HydCircuit *circuit, JsonObject *extra, const char *key,
                                         double *value);

gboolean hyd_circuit_split_port_ref (const char *ref, char **component, char **port);

/* Format version 3: whether a connection has hose friction (a
 * laminar/turbulent pressure loss over its length, docs/circuit-format.md,
 * Version 3): its "friction" key when given; otherwise on when the
 * connection gives both "length" (> 0) and "diameter", off when it gives
 * neither or only one of them (a wire that stands for a volume only).
 * Always FALSE in a file of version 1 or 2, whose results stay as they
 * were. Whether the connection is hydraulic is the compiler's to judge. */
gboolean hyd_circuit_connection_friction (const HydCircuit *circuit, const HydCircuitConnection *conn);

/* As hyd_circuit_split_port_ref, without allocating: looks the component
 * part of "C1.A" up in ids (a table keyed by component id) into *value
 * (NULL if absent) and points *port at the port name in ref. FALSE for a
 * junction reference (no dot). For the loops over every connection of a
 * large circuit. */
gboolean hyd_circuit_lookup_port_ref (GHashTable *ids, const char *ref, gpointer *value,
                                      const char **port);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydCircuit, hyd_circuit_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydCircuitComponent, hyd_circuit_component_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydCircuitJunction, hyd_circuit_junction_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydCircuitConnection, hyd_circuit_connection_free)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HydSimOptions, hyd_sim_options_clear)

G_END_DECLS
