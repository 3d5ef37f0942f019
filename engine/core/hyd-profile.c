/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-profile.c — time-varying parameter values (circuit-format.md, Profiles).
 *
 * Evaluation is per integration interval: the piece is chosen at t_piece, a
 * time strictly inside the interval, and its formula is evaluated at t. A
 * step piece holds its value, a ramp piece extends linearly, and the holds
 * before the first and after the last ramp point stay flat, so the value at
 * an interval's end is the left limit even across a breakpoint. */
#include "hyd-profile.h"
#include "hyd-diagnostic.h"
#include "hyd-error.h"
#include "hyd-i18n.h"
#include "hyd-json-scan.h"

#include <math.h>
#include <string.h>

struct _HydProfile {
  HydProfileKind kind;
  /* constant */
  double value;
  /* step: times[n], values[n + 1]; ramp and table: points (times[i], values[i]), i < n */
  guint n;
  double *times;
  double *values;
  /* sine */
  double offset;
  double amplitude;
  double frequency; /* Hz */
  double phase;     /* rad */
};


/* A refusal of a profile as a diagnostic (its template N_()-marked, so that
 * the message can be shown translated); the arguments are const char *,
 * then NULL. Returns FALSE. */
static gboolean profile_error (GError **error, const char *template, ...) G_GNUC_NULL_TERMINATED;

static gboolean
profile_error (GError **error, const char *template, ...)
{
  va_list ap;

  va_start (ap, template);
  HydDiagnostic *d = hyd_diagnostic_new_valist (HYD_DIAGNOSTIC_PARAM_VALUE, HYD_SEVERITY_ERROR, template, ap);
  va_end (ap);
  return hyd_diagnostic_set_error (error, d);
}

static const char *const kind_names[] = {
  [HYD_PROFILE_CONSTANT] = "constant",
  [HYD_PROFILE_STEP] = "step",
  [HYD_PROFILE_RAMP] = "ramp",
  [HYD_PROFILE_SINE] = "sine",
  [HYD_PROFILE_TABLE] = "table",
};

/* Numbers in messages, with '.' whatever the locale. */
static const char *
number_text (double v, char buf[G_ASCII_DTOSTR_BUF_SIZE])
{
  return g_ascii_formatd (buf, G_ASCII_DTOSTR_BUF_SIZE, "%.10g", v);
}

static HydProfile *
profile_new (HydProfileKind kind)
{
  HydProfile *profile = g_new0 (HydProfile, 1);
  profile->kind = kind;
  return profile;
}

HydProfile *
hyd_profile_new_constant (double value)
{
  HydProfile *profile = profile_new (HYD_PROFILE_CONSTANT);
  profile->value = value;
  return profile;
}

void
hyd_profile_free (HydProfile *profile)
{
  if (profile == NULL)
    return;
  g_free (profile->times);
  g_free (profile->values);
  g_free (profile);
}

static guint
n_values (const HydProfile *profile)
{
  switch (profile->kind)
    {
    case HYD_PROFILE_STEP:
      return profile->n + 1;
    case HYD_PROFILE_RAMP:
    case HYD_PROFILE_TABLE:
      return profile->n;
    case HYD_PROFILE_CONSTANT:
    case HYD_PROFILE_SINE:
    default:
      return 0;
    }
}

HydProfile *
hyd_profile_copy (const HydProfile *profile)
{
  HydProfile *copy;

  g_return_val_if_fail (profile != NULL, NULL);

  copy = g_memdup2 (profile, sizeof *profile);
  copy->times = profile->n ? g_memdup2 (profile->times, profile->n * sizeof (double)) : NULL;
  copy->values = n_values (profile)
                   ? g_memdup2 (profile->values, n_values (profile) * sizeof (double))
                   : NULL;
  return copy;
}

HydProfileKind
hyd_profile_get_kind (const HydProfile *profile)
{
  g_return_val_if_fail (profile != NULL, HYD_PROFILE_CONSTANT);
  return profile->kind;
}

gboolean
hyd_profile_is_constant (const HydProfile *profile)
{
  g_return_val_if_fail (profile != NULL, TRUE);
  return profile->kind == HYD_PROFILE_CONSTANT;
}

/* ---------------------------------------------------------------------------
 * Parsing
 * ------------------------------------------------------------------------- */


/* Reads an array of numbers into a new array; FALSE if it is not one. */
static gboolean
read_number_array (JsonNode *node, double **out, guint *n)
{
  JsonArray *array;
  guint len;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;
  array = json_node_get_array (node);
  len = json_array_get_length (array);
  *out = g_new (double, MAX (len, 1));
  for (guint i = 0; i < len; i++)
    if (!hyd_json_node_get_number (json_array_get_element (array, i), &(*out)[i]))
      {
        g_clear_pointer (out, g_free);
        return FALSE;
      }
  *n = len;
  return TRUE;
}

static gboolean
check_keys (JsonObject *object, const char *kind, const char *const *allowed, GError **error)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *key = l->data;
      gboolean known = FALSE;

      for (guint i = 0; allowed[i] != NULL; i++)
        if (strcmp (key, allowed[i]) == 0)
          known = TRUE;
      if (!known)
        {
          g_autofree char *list = g_strjoinv (", ", (char **) allowed);
          return profile_error (error, N_("%s: unknown key \"%s\" (expected %s)"), kind, key, list,
                                NULL);
        }
    }
  return TRUE;
}

static gboolean
require_key (JsonObject *object, const char *kind, const char *key, GError **error)
{
  if (json_object_has_member (object, key))
    return TRUE;
  return profile_error (error, N_("%s: missing \"%s\""), kind, key, NULL);
}

static HydProfile *
parse_step (JsonObject *object, GError **error)
{
  static const char *const keys[] = { "times", "values", NULL };
  g_autoptr(HydProfile) profile = profile_new (HYD_PROFILE_STEP);
  g_autofree double *values = NULL;
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
  guint n_times = 0, n_vals = 0;

  if (!check_keys (object, "step", keys, error)
      || !require_key (object, "step", "times", error)
      || !require_key (object, "step", "values", error))
    return NULL;

  if (!read_number_array (json_object_get_member (object, "times"), &profile->times, &n_times))
    {
      profile_error (error, N_("step: \"times\" must be an array of numbers"), NULL);
      return NULL;
    }
  profile->n = n_times;
  if (!read_number_array (json_object_get_member (object, "values"), &values, &n_vals))
    {
      profile_error (error, N_("step: \"values\" must be an array of numbers"), NULL);
      return NULL;
    }
  profile->values = g_steal_pointer (&values);

  if (n_vals != n_times + 1)
    {
      g_autofree char *t = g_strdup_printf ("%u", n_times);
      g_autofree char *v = g_strdup_printf ("%u", n_vals);
      profile_error (error, N_("step: needs len(values) = len(times) + 1 (got %s times and %s values)"),
                     t, v, NULL);
      return NULL;
    }
  for (guint i = 1; i < n_times; i++)
    if (!(profile->times[i] > profile->times[i - 1]))
      {
        profile_error (error, N_("step: times must be strictly increasing (%s follows %s)"),
                       number_text (profile->times[i], a), number_text (profile->times[i - 1], b), NULL);
        return NULL;
      }
  return g_steal_pointer (&profile);
}

/* ramp and table: points [[t0, v0], [t1, v1], ...], times non-decreasing, at
 * most two points at one time (a jump). */
static HydProfile *
parse_points (JsonObject *object, HydProfileKind kind, GError **error)
{
  static const char *const keys[] = { "points", NULL };
  const char *name = kind_names[kind];
  g_autoptr(HydProfile) profile = profile_new (kind);
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
  JsonNode *points_node;
  JsonArray *points;
  guint n;

  if (!check_keys (object, name, keys, error)
      || !require_key (object, name, "points", error))
    return NULL;

  points_node = json_object_get_member (object, "points");
  if (!JSON_NODE_HOLDS_ARRAY (points_node))
    {
      profile_error (error, N_("%s: \"points\" must be an array of [time, value] pairs"), name, NULL);
      return NULL;
    }
  points = json_node_get_array (points_node);
  n = json_array_get_length (points);
  if (n == 0)
    {
      profile_error (error, N_("%s: needs at least one point"), name, NULL);
      return NULL;
    }

  profile->n = n;
  profile->times = g_new (double, n);
  profile->values = g_new (double, n);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *pair = json_array_get_element (points, i);
      JsonArray *pa = JSON_NODE_HOLDS_ARRAY (pair) ? json_node_get_array (pair) : NULL;

      if (pa == NULL || json_array_get_length (pa) != 2
          || !hyd_json_node_get_number (json_array_get_element (pa, 0), &profile->times[i])
          || !hyd_json_node_get_number (json_array_get_element (pa, 1), &profile->values[i]))
        {
          g_autofree char *at = g_strdup_printf ("%u", i);
          profile_error (error, N_("%s: point %s is not a [time, value] pair of numbers"), name, at,
                         NULL);
          return NULL;
        }
      if (i > 0 && profile->times[i] < profile->times[i - 1])
        {
          g_autofree char *at = g_strdup_printf ("%u", i);
          profile_error (error, N_("%s: times must be non-decreasing (point %s at t = %s follows t = %s)"),
                         name, at, number_text (profile->times[i], a),
                         number_text (profile->times[i - 1], b), NULL);
          return NULL;
        }
      if (i > 1 && profile->times[i] == profile->times[i - 2])
        {
          profile_error (error, N_("%s: more than two points at t = %s (two equal times make a jump)"),
                         name, number_text (profile->times[i], a), NULL);
          return NULL;
        }
    }
  return g_steal_pointer (&profile);
}

static gboolean
read_sine_number (JsonObject *object, const char *key, gboolean required,
                  double *value, GError **error)
{
  if (!json_object_has_member (object, key))
    {
      if (required)
        return require_key (object, "sine", key, error);
      *value = 0.0;
      return TRUE;
    }
  if (!hyd_json_node_get_number (json_object_get_member (object, key), value))
    {
      return profile_error (error, N_("sine: \"%s\" must be a number"), key, NULL);
    }
  return TRUE;
}

static HydProfile *
parse_sine (JsonObject *object, GError **error)
{
  static const char *const keys[] = { "offset", "amplitude", "frequency", "phase", NULL };
  g_autoptr(HydProfile) profile = profile_new (HYD_PROFILE_SINE);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!check_keys (object, "sine", keys, error)
      || !read_sine_number (object, "offset", FALSE, &profile->offset, error)
      || !read_sine_number (object, "amplitude", TRUE, &profile->amplitude, error)
      || !read_sine_number (object, "frequency", TRUE, &profile->frequency, error)
      || !read_sine_number (object, "phase", FALSE, &profile->phase, error))
    return NULL;
  if (profile->frequency < 0.0)
    {
      profile_error (error, N_("sine: frequency must be ≥ 0 Hz (got %s)"),
                     number_text (profile->frequency, buf), NULL);
      return NULL;
    }
  return g_steal_pointer (&profile);
}

HydProfile *
hyd_profile_new_from_json (JsonNode *node, GError **error)
{
  JsonObject *object;
  JsonNode *body;
  const char *kind;
  double value;
  guint size;

  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (hyd_json_node_get_number (node, &value))
    return hyd_profile_new_constant (value);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      profile_error (error, N_("expected a number or a profile object (step, ramp, sine or table)"), NULL);
      return NULL;
    }

  object = json_node_get_object (node);
  size = json_object_get_size (object);
  if (size != 1)
    {
      g_autofree char *got = g_strdup_printf ("%u", size);
      profile_error (error, N_("a profile object has exactly one key (step, ramp, sine or table), not %s"),
                     got, NULL);
      return NULL;
    }

  {
    g_autoptr(GList) members = json_object_get_members (object);
    kind = members->data;
  }
  body = json_object_get_member (object, kind);

  if (strcmp (kind, "step") != 0 && strcmp (kind, "ramp") != 0
      && strcmp (kind, "sine") != 0 && strcmp (kind, "table") != 0)
    {
      profile_error (error, N_("unknown profile kind \"%s\" (expected step, ramp, sine or table)"), kind,
                     NULL);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (body))
    {
      profile_error (error, N_("%s: expected an object"), kind, NULL);
      return NULL;
    }

  object = json_node_get_object (body);
  if (strcmp (kind, "step") == 0)
    return parse_step (object, error);
  if (strcmp (kind, "ramp") == 0)
    return parse_points (object, HYD_PROFILE_RAMP, error);
  if (strcmp (kind, "table") == 0)
    return parse_points (object, HYD_PROFILE_TABLE, error);
  return parse_sine (object, error);
}

/* ---------------------------------------------------------------------------
 * Writing
 * ------------------------------------------------------------------------- */

static JsonNode *
double_node (double value)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);
  json_node_set_double (node, value);
  return node;
}

static JsonArray *
double_array (const double *values, guint n)
{
  JsonArray *array = json_array_sized_new (n);
  for (guint i = 0; i < n; i++)
    json_array_add_element (array, double_node (values[i]));
  return array;
}

JsonNode *
hyd_profile_to_json (const HydProfile *profile)
{
  g_autoptr(JsonObject) body = NULL;
  JsonObject *outer;
  JsonNode *node;

  g_return_val_if_fail (profile != NULL, NULL);

  if (profile->kind == HYD_PROFILE_CONSTANT)
    return double_node (profile->value);

  body = json_object_new ();
  switch (profile->kind)
    {
    case HYD_PROFILE_STEP:
      json_object_set_array_member (body, "times", double_array (profile->times, profile->n));
      json_object_set_array_member (body, "values", double_array (profile->values, profile->n + 1));
      break;

    case HYD_PROFILE_RAMP:
    case HYD_PROFILE_TABLE:
      {
        JsonArray *points = json_array_sized_new (profile->n);
        for (guint i = 0; i < profile->n; i++)
          {
            double pair[2] = { profile->times[i], profile->values[i] };
            json_array_add_array_element (points, double_array (pair, 2));
          }
        json_object_set_array_member (body, "points", points);
      }
      break;

    case HYD_PROFILE_SINE:
      json_object_set_double_member (body, "offset", profile->offset);
      json_object_set_double_member (body, "amplitude", profile->amplitude);
      json_object_set_double_member (body, "frequency", profile->frequency);
      json_object_set_double_member (body, "phase", profile->phase);
      break;

    case HYD_PROFILE_CONSTANT:
    default:
      g_assert_not_reached ();
    }

  outer = json_object_new ();
  json_object_set_object_member (outer, kind_names[profile->kind], g_steal_pointer (&body));
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, outer);
  return node;
}

/* ---------------------------------------------------------------------------
 * Evaluation
 * ------------------------------------------------------------------------- */

/* Number of times[i] ≤ t, i < n (times non-decreasing). */
static guint
count_le (const double *times, guint n, double t)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (times[mid] <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static double
eval_points (const HydProfile *profile, double t, double t_piece, double *dv_dt)
{
  guint k = count_le (profile->times, profile->n, t_piece);
  guint i;
  double slope;

  /* Before the first point or from the last one on: hold the end value. */
  if (k == 0 || k >= profile->n)
    {
      if (dv_dt)
        *dv_dt = 0.0;
      return profile->values[k == 0 ? 0 : profile->n - 1];
    }

  /* Segment [times[i], times[i + 1]) with times[i] ≤ t_piece < times[i + 1],
   * so it has a positive length even where two points share a time. */
  i = k - 1;
  slope = (profile->values[i + 1] - profile->values[i])
          / (profile->times[i + 1] - profile->times[i]);
  if (dv_dt)
    *dv_dt = slope;
  return profile->values[i] + slope * (t - profile->times[i]);
}

double
hyd_profile_eval (const HydProfile *profile, double t, double t_piece, double *dv_dt)
{
  g_return_val_if_fail (profile != NULL, 0.0);

  switch (profile->kind)
    {
    case HYD_PROFILE_STEP:
      if (dv_dt)
        *dv_dt = 0.0;
      return profile->values[count_le (profile->times, profile->n, t_piece)];

    case HYD_PROFILE_RAMP:
    case HYD_PROFILE_TABLE:
      return eval_points (profile, t, t_piece, dv_dt);

    case HYD_PROFILE_SINE:
      {
        double w = 2.0 * G_PI * profile->frequency;
        double arg = w * t + profile->phase;
        if (dv_dt)
          *dv_dt = profile->amplitude * w * cos (arg);
        return profile->offset + profile->amplitude * sin (arg);
      }

    case HYD_PROFILE_CONSTANT:
    default:
      if (dv_dt)
        *dv_dt = 0.0;
      return profile->value;
    }
}

double
hyd_profile_value_after (const HydProfile *profile, double t)
{
  /* Piece selection counts breakpoints ≤ t_piece, so t_piece = t picks the
   * piece that starts at t. */
  return hyd_profile_eval (profile, t, t, NULL);
}

void
hyd_profile_get_range (const HydProfile *profile, double *min, double *max)
{
  double lo, hi;

  g_return_if_fail (profile != NULL);

  switch (profile->kind)
    {
    case HYD_PROFILE_STEP:
    case HYD_PROFILE_RAMP:
    case HYD_PROFILE_TABLE:
      {
        guint n = n_values (profile);
        lo = hi = profile->values[0];
        for (guint i = 1; i < n; i++)
          {
            lo = MIN (lo, profile->values[i]);
            hi = MAX (hi, profile->values[i]);
          }
      }
      break;

    case HYD_PROFILE_SINE:
      lo = profile->offset - fabs (profile->amplitude);
      hi = profile->offset + fabs (profile->amplitude);
      break;

    case HYD_PROFILE_CONSTANT:
    default:
      lo = hi = profile->value;
      break;
    }

  if (min)
    *min = lo;
  if (max)
    *max = hi;
}

void
hyd_profile_collect_breakpoints (const HydProfile *profile, GArray *times)
{
  g_return_if_fail (profile != NULL);
  g_return_if_fail (times != NULL);

  if (profile->kind != HYD_PROFILE_STEP && profile->kind != HYD_PROFILE_RAMP
      && profile->kind != HYD_PROFILE_TABLE)
    return;

  /* A jump (two ramp points at one time) is one breakpoint. */
  for (guint i = 0; i < profile->n; i++)
    if (i == 0 || profile->times[i] != profile->times[i - 1])
      g_array_append_val (times, profile->times[i]);
}

gboolean
hyd_profile_equal (const HydProfile *a, const HydProfile *b)
{
  guint n;

  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (a->kind != b->kind)
    return FALSE;

  switch (a->kind)
    {
    case HYD_PROFILE_CONSTANT:
      return a->value == b->value;

    case HYD_PROFILE_SINE:
      return a->offset == b->offset && a->amplitude == b->amplitude
             && a->frequency == b->frequency && a->phase == b->phase;

    case HYD_PROFILE_STEP:
    case HYD_PROFILE_RAMP:
    case HYD_PROFILE_TABLE:
    default:
      if (a->n != b->n)
        return FALSE;
      for (guint i = 0; i < a->n; i++)
        if (a->times[i] != b->times[i])
          return FALSE;
      n = n_values (a);
      for (guint i = 0; i < n; i++)
        if (a->values[i] != b->values[i])
          return FALSE;
      return TRUE;
    }
}
