/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-diagnostic.c — diagnostics as data (hyd-diagnostic.h). */
#include "hyd-diagnostic.h"
#include "hyd-i18n.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

static HydDiagnostic *
diagnostic_alloc (HydDiagnosticCode code, HydSeverity severity, const char *template, GStrv args)
{
  HydDiagnostic *d = g_atomic_rc_box_new0 (HydDiagnostic);
  d->code = code;
  d->severity = severity;
  d->time = NAN;
  d->template = template;
  d->args = args;
  d->message = hyd_diagnostic_expand (template, (const char *const *) args);
  return d;
}

HydDiagnostic *
hyd_diagnostic_newv (HydDiagnosticCode code, HydSeverity severity, const char *template,
                     const char *const *args)
{
  g_return_val_if_fail (template != NULL, NULL);
  return diagnostic_alloc (code, severity, template, g_strdupv ((char **) args));
}

HydDiagnostic *
hyd_diagnostic_new_valist (HydDiagnosticCode code, HydSeverity severity, const char *template,
                           va_list args)
{
  g_return_val_if_fail (template != NULL, NULL);
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  for (const char *a = va_arg (args, const char *); a != NULL; a = va_arg (args, const char *))
    g_strv_builder_add (builder, a);
  return diagnostic_alloc (code, severity, template, g_strv_builder_end (builder));
}

HydDiagnostic *
hyd_diagnostic_new (HydDiagnosticCode code, HydSeverity severity, const char *template, ...)
{
  va_list ap;
  va_start (ap, template);
  HydDiagnostic *d = hyd_diagnostic_new_valist (code, severity, template, ap);
  va_end (ap);
  return d;
}

HydDiagnostic *
hyd_diagnostic_ref (HydDiagnostic *d)
{
  g_return_val_if_fail (d != NULL, NULL);
  return g_atomic_rc_box_acquire (d);
}

static void
diagnostic_clear (gpointer data)
{
  HydDiagnostic *d = data;
  g_free (d->component);
  g_free (d->port);
  g_free (d->parameter);
  g_free (d->state);
  g_free (d->connection);
  g_strfreev (d->related);
  for (guint i = 0; d->phrases && d->args && d->args[i]; i++)
    {
      g_free (d->phrases[2 * i]);
      g_strfreev (d->phrases[2 * i + 1]);
    }
  g_free (d->phrases);
  g_strfreev (d->args);
  g_free (d->message);
}

void
hyd_diagnostic_unref (HydDiagnostic *d)
{
  g_return_if_fail (d != NULL);
  g_atomic_rc_box_release_full (d, diagnostic_clear);
}

static void
replace (char **field, const char *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

void
hyd_diagnostic_set_component (HydDiagnostic *d, const char *component)
{
  g_return_if_fail (d != NULL);
  replace (&d->component, component);
}

void
hyd_diagnostic_set_port (HydDiagnostic *d, const char *port)
{
  g_return_if_fail (d != NULL);
  replace (&d->port, port);
}

void
hyd_diagnostic_set_parameter (HydDiagnostic *d, const char *parameter)
{
  g_return_if_fail (d != NULL);
  replace (&d->parameter, parameter);
}

void
hyd_diagnostic_set_state (HydDiagnostic *d, const char *state)
{
  g_return_if_fail (d != NULL);
  replace (&d->state, state);
}

void
hyd_diagnostic_set_connection (HydDiagnostic *d, const char *from, const char *to)
{
  g_return_if_fail (d != NULL);
  g_free (d->connection);
  d->connection = g_strdup_printf ("%s → %s", from ? from : "", to ? to : "");
}

void
hyd_diagnostic_add_related (HydDiagnostic *d, const char *component)
{
  guint n;

  g_return_if_fail (d != NULL && component != NULL);
  n = d->related ? g_strv_length (d->related) : 0;
  d->related = g_renew (char *, d->related, n + 2);
  d->related[n] = g_strdup (component);
  d->related[n + 1] = NULL;
}

void
hyd_diagnostic_set_time (HydDiagnostic *d, double t)
{
  g_return_if_fail (d != NULL);
  d->time = t;
}

char *
hyd_diagnostic_expand (const char *template, const char *const *args)
{
  g_return_val_if_fail (template != NULL, NULL);
  guint n_args = args ? g_strv_length ((char **) args) : 0;
  guint next = 0;
  GString *s = g_string_new (NULL);
  for (const char *p = template; *p; p++)
    {
      if (*p != '%')
        {
          g_string_append_c (s, *p);
          continue;
        }
      if (p[1] == '%')
        {
          g_string_append_c (s, '%');
          p++;
          continue;
        }
      if (p[1] == 's')
        {
          if (next < n_args)
            g_string_append (s, args[next]);
          next++;
          p++;
          continue;
        }
      /* "%N$s": argument N (from 1) */
      const char *q = p + 1;
      guint n = 0;
      while (g_ascii_isdigit (*q) && n < 1000)
        n = 10 * n + (guint) (*q++ - '0');
      if (q > p + 1 && q[0] == '$' && q[1] == 's')
        {
          if (n >= 1 && n <= n_args)
            g_string_append (s, args[n - 1]);
          p = q + 1;
          continue;
        }
      g_string_append_c (s, '%');
    }
  return g_string_free (s, FALSE);
}

void
hyd_diagnostic_set_phrase (HydDiagnostic *d, guint index, const char *template,
                           const char *const *args)
{
  guint n;

  g_return_if_fail (d != NULL && template != NULL);
  n = d->args ? g_strv_length (d->args) : 0;
  g_return_if_fail (index < n);
  if (d->phrases == NULL)
    d->phrases = g_new0 (gpointer, 2 * n);
  g_free (d->phrases[2 * index]);
  g_strfreev (d->phrases[2 * index + 1]);
  d->phrases[2 * index] = g_strdup (template);
  d->phrases[2 * index + 1] = g_strdupv ((char **) args);
  g_free (d->args[index]);
  d->args[index] = hyd_diagnostic_expand (template, args);
  g_free (d->message);
  d->message = hyd_diagnostic_expand (d->template, (const char *const *) d->args);
}

void
hyd_diagnostic_set_phrase_from_error (HydDiagnostic *d, guint index, const GError *error)
{
  const HydDiagnostic *inner = error ? hyd_diagnostic_peek_error (error) : NULL;

  g_return_if_fail (d != NULL);
  /* a phrase holds one level: an inner sentence with phrases of its own
   * stays as its English text */
  if (inner != NULL && inner->phrases == NULL && g_str_has_suffix (error->message, inner->message)
      && strlen (error->message) == strlen (inner->message))
    hyd_diagnostic_set_phrase (d, index, inner->template, (const char *const *) inner->args);
}

char *
hyd_diagnostic_dup_message (const HydDiagnostic *d, const char *domain)
{
  g_return_val_if_fail (d != NULL, NULL);
  if (domain == NULL)
    return g_strdup (d->message);
  if (d->phrases == NULL)
    return hyd_diagnostic_expand (g_dgettext (domain, d->template), (const char *const *) d->args);

  /* the phrases in the user's language too */
  guint n = g_strv_length (d->args);
  g_auto (GStrv) args = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    args[i] = d->phrases[2 * i] != NULL
              ? hyd_diagnostic_expand (g_dgettext (domain, d->phrases[2 * i]),
                                       (const char *const *) d->phrases[2 * i + 1])
              : g_strdup (d->args[i]);
  return hyd_diagnostic_expand (g_dgettext (domain, d->template), (const char *const *) args);
}

static const struct {
  HydDiagnosticCode code;
  const char *name;
} code_names[] = {
  { HYD_DIAGNOSTIC_PARSE, "parse" },
  { HYD_DIAGNOSTIC_FORMAT, "format" },
  { HYD_DIAGNOSTIC_VERSION, "version" },
  { HYD_DIAGNOSTIC_ID, "id" },
  { HYD_DIAGNOSTIC_UNKNOWN_TYPE, "unknown-type" },
  { HYD_DIAGNOSTIC_UNKNOWN_PARAM, "unknown-param" },
  { HYD_DIAGNOSTIC_PARAM_VALUE, "param-value" },
  { HYD_DIAGNOSTIC_PARAM_RANGE, "param-range" },
  { HYD_DIAGNOSTIC_REFERENCE, "reference" },
  { HYD_DIAGNOSTIC_DOMAIN, "domain" },
  { HYD_DIAGNOSTIC_UNCONNECTED, "unconnected" },
  { HYD_DIAGNOSTIC_NO_VOLUME, "no-volume" },
  { HYD_DIAGNOSTIC_SHORT_CIRCUIT, "short-circuit" },
  { HYD_DIAGNOSTIC_INITIAL_PRESSURE, "initial-pressure" },
  { HYD_DIAGNOSTIC_FLOW_METER, "flow-meter" },
  { HYD_DIAGNOSTIC_SIMULATION, "simulation" },
  { HYD_DIAGNOSTIC_FILE, "file" },
  { HYD_DIAGNOSTIC_NO_STORAGE, "no-storage" },
  { HYD_DIAGNOSTIC_SIGNAL, "signal-net" },
  { HYD_DIAGNOSTIC_ALGEBRAIC_LOOP, "algebraic-loop" },
  { HYD_DIAGNOSTIC_BOUNDARY_INITIAL_PRESSURE, "boundary-initial-pressure" },
  { HYD_DIAGNOSTIC_NO_RELIEF_PATH, "no-relief-path" },
  { HYD_DIAGNOSTIC_RELIEF_UNDERRATED, "relief-underrated" },
  { HYD_DIAGNOSTIC_MAKEUP_VALVE, "makeup-valve" },
  { HYD_DIAGNOSTIC_CHAMBER_LOCKED, "chamber-locked" },
  { HYD_DIAGNOSTIC_MOTION_IGNORED, "motion-ignored" },
  { HYD_DIAGNOSTIC_ELEC_DEAD_LOAD, "elec-dead-load" },
  { HYD_DIAGNOSTIC_ELEC_UNUSED_COIL, "elec-unused-coil" },
  { HYD_DIAGNOSTIC_BELOW_VAPOUR, "below-vapour" },
  { HYD_DIAGNOSTIC_CAVITATION, "cavitation" },
  { HYD_DIAGNOSTIC_RELIEF_OVERFLOW, "relief-overflow" },
  { HYD_DIAGNOSTIC_CHANGE_REFUSED, "change-refused" },
  { HYD_DIAGNOSTIC_SOLVER_FAILED, "solver-failed" },
  { HYD_DIAGNOSTIC_OTHER, "other" },
};

const char *
hyd_diagnostic_code_name (HydDiagnosticCode code)
{
  for (guint i = 0; i < G_N_ELEMENTS (code_names); i++)
    if (code_names[i].code == code)
      return code_names[i].name;
  return "other";
}

const char *
hyd_severity_name (HydSeverity severity)
{
  switch (severity)
    {
    case HYD_SEVERITY_ERROR: return N_("error");
    case HYD_SEVERITY_WARNING: return N_("warning");
    case HYD_SEVERITY_NOTE: return N_("note");
    default: return N_("error");
    }
}

GPtrArray *
hyd_diagnostic_list_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_diagnostic_unref);
}

HydDiagnostic *
hyd_diagnostic_list_find (GPtrArray *list, HydSeverity severity)
{
  for (guint i = 0; list && i < list->len; i++)
    {
      HydDiagnostic *d = g_ptr_array_index (list, i);
      if (d->severity == severity)
        return d;
    }
  return NULL;
}

char *
hyd_diagnostic_dup_error_message (const GError *error, const char *domain)
{
  g_return_val_if_fail (error != NULL, NULL);
  const HydDiagnostic *d = hyd_diagnostic_peek_error (error);
  if (d == NULL || !g_str_has_suffix (error->message, d->message))
    return g_strdup (error->message);
  g_autofree char *text = hyd_diagnostic_dup_message (d, domain);
  gsize prefix = strlen (error->message) - strlen (d->message);
  return g_strdup_printf ("%.*s%s", (int) prefix, error->message, text);
}

HydDiagnostic *
hyd_diagnostic_from_error (const GError *error)
{
  g_return_val_if_fail (error != NULL, NULL);
  const HydDiagnostic *attached = hyd_diagnostic_peek_error (error);
  if (attached)
    return hyd_diagnostic_ref ((HydDiagnostic *) attached);
  HydDiagnosticCode code = error->domain == HYD_CIRCUIT_ERROR ? (HydDiagnosticCode) error->code
                                                             : HYD_DIAGNOSTIC_OTHER;
  return hyd_diagnostic_new (code, HYD_SEVERITY_ERROR, "%s", error->message, NULL);
}
