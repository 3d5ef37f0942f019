/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-error.h — the engine's error domain and codes.
 *
 * One GError domain for everything a circuit can get wrong, from the JSON
 * text to a parameter's range: the document (model/), the profiles (core/)
 * and the component models (components/) all report in it, so it lives in
 * the lowest layer. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HYD_CIRCUIT_ERROR (hyd_circuit_error_quark ())
GQuark hyd_circuit_error_quark (void);

typedef enum {
  HYD_CIRCUIT_ERROR_PARSE,          /* not JSON: message has line:column */
  HYD_CIRCUIT_ERROR_FORMAT,         /* not a bramah-circuit, missing required key, wrong JSON kind */
  HYD_CIRCUIT_ERROR_VERSION,        /* newer than this reader */
  HYD_CIRCUIT_ERROR_ID,             /* bad or duplicate id */
  HYD_CIRCUIT_ERROR_UNKNOWN_TYPE,
  HYD_CIRCUIT_ERROR_UNKNOWN_PARAM,
  HYD_CIRCUIT_ERROR_PARAM_VALUE,    /* wrong kind of value, or a broken profile */
  HYD_CIRCUIT_ERROR_PARAM_RANGE,    /* outside the range, or a cross-parameter rule */
  HYD_CIRCUIT_ERROR_REFERENCE,      /* a connection names a missing component, port or junction */
  HYD_CIRCUIT_ERROR_DOMAIN,         /* ports of different domains connected */
  HYD_CIRCUIT_ERROR_UNCONNECTED,    /* a required port is not connected */
  HYD_CIRCUIT_ERROR_NO_VOLUME,      /* a node declares no volume */
  HYD_CIRCUIT_ERROR_SHORT_CIRCUIT,  /* two boundary ports with different pressures */
  HYD_CIRCUIT_ERROR_INITIAL_PRESSURE, /* conflicting initial pressures */
  HYD_CIRCUIT_ERROR_FLOW_METER,     /* bypassed meter, or boundary on both sides */
  HYD_CIRCUIT_ERROR_SIMULATION,     /* bad fluid or simulation setting */
  HYD_CIRCUIT_ERROR_FILE,           /* not a regular file, or larger than HYD_CIRCUIT_MAX_FILE_SIZE */
  HYD_CIRCUIT_ERROR_NO_STORAGE,     /* a mechanical node without mass or inertia */
  HYD_CIRCUIT_ERROR_SIGNAL,         /* a signal net with two outputs, or inputs and no output */
  HYD_CIRCUIT_ERROR_ALGEBRAIC_LOOP, /* signal blocks that depend on each other's outputs */
} HydCircuitErrorCode;

G_END_DECLS
