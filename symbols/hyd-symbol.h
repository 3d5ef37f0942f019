/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-symbol.h — ISO 1219 symbols as data (design/iso1219-symbols.md).
 *
 * A symbol is read from a small JSON file, symbols/data/<type>.sym (the
 * format is described in symbols/README.md): its ports with their outward
 * directions, the variables its moving parts are bound to, and a list of
 * vector elements in the symbol's own frame, in units of the module M (one
 * grid step, 10 canvas units), x right and y down. A library holds one symbol
 * per component type. This file also holds the pose arithmetic (position,
 * rotation, mirror) and the symbol state (the values of the bound variables),
 * which need no Cairo; drawing is in hyd-symbol-render.h. */
#pragma once

#include <glib.h>
#include "hyd-circuit.h"
#include "hyd-uninstalled.h" /* hyd_running_uninstalled () */

G_BEGIN_DECLS

/* Canvas units per module M: the document grid (circuit-format.md). */
#define HYD_SYMBOL_MODULE 10.0

#define HYD_SYMBOL_ERROR (hyd_symbol_error_quark ())
GQuark hyd_symbol_error_quark (void);

typedef enum {
  HYD_SYMBOL_ERROR_PARSE,     /* not JSON (message has line:column) */
  HYD_SYMBOL_ERROR_FORMAT,    /* not a valid symbol: names the file and the element */
  HYD_SYMBOL_ERROR_DUPLICATE, /* two files for one type in a directory */
  HYD_SYMBOL_ERROR_NOT_FOUND, /* no symbol directory, or no symbol for a type */
  HYD_SYMBOL_ERROR_EXPORT,    /* a schematic could not be written */
} HydSymbolErrorCode;

/* Outward port directions, in clockwise order so that a quarter turn
 * clockwise on screen adds one. */
typedef enum {
  HYD_DIR_RIGHT,
  HYD_DIR_DOWN,
  HYD_DIR_LEFT,
  HYD_DIR_UP,
} HydDirection;

const char *hyd_direction_name (HydDirection dir);
gboolean hyd_direction_from_name (const char *name, HydDirection *dir);
/* Unit vector of a direction (y down). */
void hyd_direction_vector (HydDirection dir, int *dx, int *dy);

typedef struct {
  double x0, y0, x1, y1;
} HydRect;

typedef struct {
  const char *name;
  int x, y;             /* local position in M: always integer */
  HydDirection dir;     /* outward; a wire leaves the port this way */
  double lead;          /* length of the port's lead line drawn inward from (x, y), M (design §1.2) */
  gboolean optional;    /* the lead is drawn only when the port is connected */
  gboolean signal;      /* a signal port: drawn in the signal-line style */
  int label_side;       /* +1 / −1: side of the lead for the port letter; 0 = automatic */
} HydSymbolPort;

/* A variable the drawing depends on. Numeric ones (spool, x, opening, a
 * parameter such as stroke) have a default and, for the tests, a list of
 * values to render; string ones (centre, actuation) list their values. */
typedef struct {
  const char *name;
  gboolean is_string;
  gboolean has_default;
  double default_value;        /* numeric */
  const char *default_string;  /* string */
  const char *from;            /* numeric: state variable used when this one is unset, or NULL */
  const double *test_values;   /* numeric: values rendered by the golden tests */
  guint n_test_values;
  const char *const *values;   /* string: NULL-terminated */
} HydSymbolVariable;

typedef struct _HydSymbol HydSymbol;
typedef struct _HydSymbolLibrary HydSymbolLibrary;
typedef struct _HydSymbolState HydSymbolState;

/* ---------------- symbols ---------------- */

/* `filename` (may be NULL) names the file in error messages. */
HydSymbol *hyd_symbol_load_from_data (const char *data, gssize length, const char *filename,
                                      GError **error);
HydSymbol *hyd_symbol_load_from_file (const char *path, GError **error);
HydSymbol *hyd_symbol_ref (HydSymbol *symbol);
void hyd_symbol_unref (HydSymbol *symbol);

const char *hyd_symbol_get_type_id (const HydSymbol *symbol);
const char *hyd_symbol_get_name (const HydSymbol *symbol);
/* The file it was read from, or NULL. */
const char *hyd_symbol_get_filename (const HydSymbol *symbol);

guint hyd_symbol_get_n_ports (const HydSymbol *symbol);
const HydSymbolPort *hyd_symbol_get_port (const HydSymbol *symbol, guint index);
const HydSymbolPort *hyd_symbol_find_port (const HydSymbol *symbol, const char *name);

guint hyd_symbol_get_n_variables (const HydSymbol *symbol);
const HydSymbolVariable *hyd_symbol_get_variable (const HydSymbol *symbol, guint index);
const HydSymbolVariable *hyd_symbol_find_variable (const HydSymbol *symbol, const char *name);

/* Bounds of the rest drawing in the local frame, in M (port leads and line
 * widths included, labels excluded). */
void hyd_symbol_get_bounds (const HydSymbol *symbol, HydRect *bounds);
/* Side of the symbol for the component's id and name, in the local frame. */
HydDirection hyd_symbol_get_label_side (const HydSymbol *symbol);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydSymbol, hyd_symbol_unref)

/* ---------------- library ---------------- */

HydSymbolLibrary *hyd_symbol_library_new (void);
void hyd_symbol_library_free (HydSymbolLibrary *library);
/* Load every *.sym file of a directory. A symbol replaces an earlier one of
 * the same type from another directory; two in one directory are an error. */
gboolean hyd_symbol_library_add_directory (HydSymbolLibrary *library, const char *dir, GError **error);
void hyd_symbol_library_add (HydSymbolLibrary *library, HydSymbol *symbol);
HydSymbol *hyd_symbol_library_lookup (const HydSymbolLibrary *library, const char *type_id);
/* Type ids, sorted; free the array with g_free (the strings are owned by the library). */
const char **hyd_symbol_library_list (const HydSymbolLibrary *library, guint *n_types);

/* The directory the default library reads: $BRAMAH_SYMBOL_DIR if set, else
 * the source tree's symbols/data when running uninstalled, else the
 * installed data directory. */
const char *hyd_symbol_library_default_directory (void);
/* The default library, loaded once; NULL with an error if it cannot be read.
 * Owned by the module: do not free. */
HydSymbolLibrary *hyd_symbol_library_get_default (GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydSymbolLibrary, hyd_symbol_library_free)

/* ---------------- pose ---------------- */

/* Where a symbol is placed: world = (x, y) + M · R(rotation) · F(mirror) · local,
 * where F negates the local x (a mirror about the symbol's vertical axis) and
 * R turns clockwise on screen by `rotation` degrees (0, 90, 180 or 270). */
typedef struct {
  double x, y;
  int rotation;
  gboolean mirror;
} HydSymbolPose;

void hyd_symbol_pose_init (HydSymbolPose *pose, double x, double y, int rotation, gboolean mirror);
void hyd_symbol_pose_from_component (HydSymbolPose *pose, const HydCircuitComponent *component);
/* Local point (M) → world point (canvas units), and back. */
void hyd_symbol_pose_to_world (const HydSymbolPose *pose, double lx, double ly, double *wx, double *wy);
void hyd_symbol_pose_to_local (const HydSymbolPose *pose, double wx, double wy, double *lx, double *ly);
HydDirection hyd_symbol_pose_direction (const HydSymbolPose *pose, HydDirection local_dir);
/* An axis-aligned local rectangle (M) → world rectangle. */
void hyd_symbol_pose_rect (const HydSymbolPose *pose, const HydRect *local, HydRect *world);

/* World position and outward direction of a port of a placed symbol.
 * FALSE when the symbol has no such port. */
gboolean hyd_symbol_port_world_position (const HydSymbol *symbol, const HydSymbolPose *pose,
                                         const char *port, double *wx, double *wy,
                                         HydDirection *dir);
/* World bounds of a placed symbol at rest. */
void hyd_symbol_placed_bounds (const HydSymbol *symbol, const HydSymbolPose *pose, HydRect *bounds);
/* The port nearest to a world point within `radius` (M; the guide's capture
 * radius is 0.6 M), or NULL. Optional ports count. */
const HydSymbolPort *hyd_symbol_hit_port (const HydSymbol *symbol, const HydSymbolPose *pose,
                                          double wx, double wy, double radius);

/* ---------------- state ---------------- */

/* Values of the variables a symbol is drawn with: numbers (spool, x, opening,
 * parameters such as stroke, port pressures named "A.p"), strings (centre,
 * actuation) and the set of connected ports. Anything unset takes the
 * symbol's default, which is its rest drawing. */
HydSymbolState *hyd_symbol_state_new (void);
HydSymbolState *hyd_symbol_state_copy (const HydSymbolState *state);
void hyd_symbol_state_free (HydSymbolState *state);
void hyd_symbol_state_clear (HydSymbolState *state);
void hyd_symbol_state_set (HydSymbolState *state, const char *name, double value);
void hyd_symbol_state_set_string (HydSymbolState *state, const char *name, const char *value);
void hyd_symbol_state_unset (HydSymbolState *state, const char *name);
gboolean hyd_symbol_state_lookup (const HydSymbolState *state, const char *name, double *value);
const char *hyd_symbol_state_lookup_string (const HydSymbolState *state, const char *name);
void hyd_symbol_state_set_port_connected (HydSymbolState *state, const char *port, gboolean connected);
gboolean hyd_symbol_state_get_port_connected (const HydSymbolState *state, const char *port);
/* Set the component's parameters (numbers as written or defaulted, enum
 * choices as strings; profiles by their value at t = 0). It never fails:
 * a value of the wrong kind is skipped, so a half-edited component draws. */
void hyd_symbol_state_set_component_params (HydSymbolState *state, const HydCircuitComponent *component);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydSymbolState, hyd_symbol_state_free)

G_END_DECLS
