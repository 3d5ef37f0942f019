/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-diagnostic.h — what the engine has to say about a circuit, as data.
 *
 * A diagnostic is one error, warning or note of loading (model/), compiling
 * and linting (compile/) or running (run/) a circuit: a stable code, a
 * severity, what it concerns (component, port, parameter, state or
 * connection, each optional), the time for run diagnostics, and the message
 * as a template plus its arguments. The template is English and marked with
 * N_() (hyd-i18n.h); the engine never translates, but
 * hyd_diagnostic_dup_message (d, "bramah") gives the sentence in the user's
 * language, so the UI and the CLI say the same thing in German
 * (docs/cli.md, Diagnostics, lists the codes and fields).
 *
 * Templates hold only "%s" (or "%1$s", "%2$s"… where a translation reorders
 * them) and "%%": the producer formats numbers and units into the arguments
 * itself. The GError API stays: an error in HYD_CIRCUIT_ERROR may carry the
 * diagnostic it was made from (hyd_diagnostic_set_error), with the message
 * the diagnostic's English text. */
#pragma once

#include <glib.h>
#include <stdarg.h>
#include "hyd-error.h"

G_BEGIN_DECLS

typedef enum {
  HYD_SEVERITY_ERROR,
  HYD_SEVERITY_WARNING,
  HYD_SEVERITY_NOTE,
} HydSeverity;

/* Stable: numbers are never reused. The errors have the numbers of
 * HydCircuitErrorCode (a GError made from a diagnostic has its code). */
typedef enum {
  HYD_DIAGNOSTIC_PARSE = HYD_CIRCUIT_ERROR_PARSE,
  HYD_DIAGNOSTIC_FORMAT = HYD_CIRCUIT_ERROR_FORMAT,
  HYD_DIAGNOSTIC_VERSION = HYD_CIRCUIT_ERROR_VERSION,
  HYD_DIAGNOSTIC_ID = HYD_CIRCUIT_ERROR_ID,
  HYD_DIAGNOSTIC_UNKNOWN_TYPE = HYD_CIRCUIT_ERROR_UNKNOWN_TYPE,
  HYD_DIAGNOSTIC_UNKNOWN_PARAM = HYD_CIRCUIT_ERROR_UNKNOWN_PARAM,
  HYD_DIAGNOSTIC_PARAM_VALUE = HYD_CIRCUIT_ERROR_PARAM_VALUE,
  HYD_DIAGNOSTIC_PARAM_RANGE = HYD_CIRCUIT_ERROR_PARAM_RANGE,
  HYD_DIAGNOSTIC_REFERENCE = HYD_CIRCUIT_ERROR_REFERENCE,
  HYD_DIAGNOSTIC_DOMAIN = HYD_CIRCUIT_ERROR_DOMAIN,
  HYD_DIAGNOSTIC_UNCONNECTED = HYD_CIRCUIT_ERROR_UNCONNECTED,
  HYD_DIAGNOSTIC_NO_VOLUME = HYD_CIRCUIT_ERROR_NO_VOLUME,
  HYD_DIAGNOSTIC_SHORT_CIRCUIT = HYD_CIRCUIT_ERROR_SHORT_CIRCUIT,
  HYD_DIAGNOSTIC_INITIAL_PRESSURE = HYD_CIRCUIT_ERROR_INITIAL_PRESSURE,
  HYD_DIAGNOSTIC_FLOW_METER = HYD_CIRCUIT_ERROR_FLOW_METER,
  HYD_DIAGNOSTIC_SIMULATION = HYD_CIRCUIT_ERROR_SIMULATION,
  HYD_DIAGNOSTIC_FILE = HYD_CIRCUIT_ERROR_FILE,
  HYD_DIAGNOSTIC_NO_STORAGE = HYD_CIRCUIT_ERROR_NO_STORAGE,
  HYD_DIAGNOSTIC_SIGNAL = HYD_CIRCUIT_ERROR_SIGNAL,
  HYD_DIAGNOSTIC_ALGEBRAIC_LOOP = HYD_CIRCUIT_ERROR_ALGEBRAIC_LOOP,
  /* compile warnings (the hydraulic lint) */
  HYD_DIAGNOSTIC_BOUNDARY_INITIAL_PRESSURE = 100,
  HYD_DIAGNOSTIC_NO_RELIEF_PATH = 101,
  HYD_DIAGNOSTIC_RELIEF_UNDERRATED = 102,
  HYD_DIAGNOSTIC_MAKEUP_VALVE = 103,
  HYD_DIAGNOSTIC_CHAMBER_LOCKED = 104,
  HYD_DIAGNOSTIC_MOTION_IGNORED = 105,
  HYD_DIAGNOSTIC_ELEC_DEAD_LOAD = 106,
  HYD_DIAGNOSTIC_ELEC_UNUSED_COIL = 107,
  /* run warnings */
  HYD_DIAGNOSTIC_BELOW_VAPOUR = 200,
  HYD_DIAGNOSTIC_CAVITATION = 201,
  HYD_DIAGNOSTIC_RELIEF_OVERFLOW = 202,
  HYD_DIAGNOSTIC_CHANGE_REFUSED = 203,
  HYD_DIAGNOSTIC_SOLVER_FAILED = 204,
  /* anything else an error can say (a GError without a diagnostic) */
  HYD_DIAGNOSTIC_OTHER = 999,
} HydDiagnosticCode;

typedef struct {
  HydDiagnosticCode code;
  HydSeverity severity;
  char *component;    /* id, or NULL */
  char *port;         /* port name of `component` ("B"), or NULL */
  char *parameter;    /* parameter name of `component`, or NULL */
  char *state;        /* state name ("C1.x"), or NULL */
  char *connection;   /* "FROM → TO" of a connection, or NULL */
  char **related;     /* other components concerned (a short circuit's second
                         boundary), NULL-terminated, or NULL */
  double time;        /* s, for run diagnostics; NAN otherwise */
  const char *template; /* English, N_()-marked, static storage */
  char **args;        /* the template's arguments, NULL-terminated */
  char *message;      /* the English sentence: template and arguments */
  /* Arguments that are themselves phrases to translate (a domain's name,
   * "component \"C1\""): for argument i, phrases[2·i] is its template
   * (a copy of an N_()-marked text) and phrases[2·i + 1] its arguments (a GStrv);
   * NULL when no argument is one (hyd_diagnostic_set_phrase). */
  gpointer *phrases;
} HydDiagnostic;

/* A diagnostic with its arguments (const char *, then NULL); the
 * fields it concerns are set with the setters below. */
HydDiagnostic *hyd_diagnostic_new (HydDiagnosticCode code, HydSeverity severity,
                                   const char *template, ...) G_GNUC_NULL_TERMINATED;
/* As hyd_diagnostic_new, for functions that take the arguments (const
 * char *, then NULL) as their own "...". */
HydDiagnostic *hyd_diagnostic_new_valist (HydDiagnosticCode code, HydSeverity severity,
                                          const char *template, va_list args);
HydDiagnostic *hyd_diagnostic_newv (HydDiagnosticCode code, HydSeverity severity,
                                    const char *template, const char *const *args);
HydDiagnostic *hyd_diagnostic_ref (HydDiagnostic *diagnostic);
void hyd_diagnostic_unref (HydDiagnostic *diagnostic);

void hyd_diagnostic_set_component (HydDiagnostic *diagnostic, const char *component);
void hyd_diagnostic_set_port (HydDiagnostic *diagnostic, const char *port);
void hyd_diagnostic_set_parameter (HydDiagnostic *diagnostic, const char *parameter);
void hyd_diagnostic_set_state (HydDiagnostic *diagnostic, const char *state);
void hyd_diagnostic_set_connection (HydDiagnostic *diagnostic, const char *from, const char *to);
void hyd_diagnostic_set_time (HydDiagnostic *diagnostic, double t);
/* Names one more component the diagnostic concerns (the window highlights
 * it with the first). */
void hyd_diagnostic_add_related (HydDiagnostic *diagnostic, const char *component);
/* Makes argument `index` a phrase that is translated with the template:
 * `template` (N_()-marked; copied) expanded with `args` (its own
 * "%s" arguments, may be NULL). The English message is made anew. For the
 * parts of a sentence that are not text from the file: "hydraulic",
 * "component \"C1\"", "connections[3] (from … to …)". */
void hyd_diagnostic_set_phrase (HydDiagnostic *diagnostic, guint index, const char *template,
                                const char *const *args);
/* Makes argument `index` the sentence of an error's own diagnostic (when it
 * has one), so that an error quoted inside another sentence is translated
 * with it. */
void hyd_diagnostic_set_phrase_from_error (HydDiagnostic *diagnostic, guint index, const GError *error);

/* The message in the language of gettext domain `domain` (the template
 * translated with g_dgettext, then the arguments put in), or in English
 * when domain is NULL. */
char *hyd_diagnostic_dup_message (const HydDiagnostic *diagnostic, const char *domain);
/* Puts args into a template ("%s", "%N$s", "%%"); what else follows a '%'
 * is copied as it is. */
char *hyd_diagnostic_expand (const char *template, const char *const *args);

/* The code's stable name ("param-range", "unconnected", …). */
const char *hyd_diagnostic_code_name (HydDiagnosticCode code);
/* "error", "warning", "note" (English; marked for translation). */
const char *hyd_severity_name (HydSeverity severity);

/* A list of diagnostics: a GPtrArray that unrefs them. */
GPtrArray *hyd_diagnostic_list_new (void);
/* The first entry of `list` with `severity`, or NULL. */
HydDiagnostic *hyd_diagnostic_list_find (GPtrArray *list, HydSeverity severity);

/* The GError layer: sets *error (when error is not NULL) to a
 * HYD_CIRCUIT_ERROR with the diagnostic's code and English message,
 * carrying the diagnostic; takes the reference. Returns FALSE. */
gboolean hyd_diagnostic_set_error (GError **error, HydDiagnostic *diagnostic);
/* The diagnostic an error carries (a new reference), or a new one with the
 * error's message (code HYD_DIAGNOSTIC_OTHER outside HYD_CIRCUIT_ERROR). */
HydDiagnostic *hyd_diagnostic_from_error (const GError *error);
/* The diagnostic an error carries (no reference), or NULL. */
const HydDiagnostic *hyd_diagnostic_peek_error (const GError *error);
/* An error's message in the language of `domain`: its diagnostic's message
 * translated, after whatever a caller put before it (g_prefix_error); the
 * error's own message when it carries none. */
char *hyd_diagnostic_dup_error_message (const GError *error, const char *domain);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydDiagnostic, hyd_diagnostic_unref)

G_END_DECLS
