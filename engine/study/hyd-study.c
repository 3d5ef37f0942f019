/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-study.c — parameter studies (hyd-study.h). */
#include "hyd-study.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "hyd-dtoa.h"

G_DEFINE_QUARK (hyd-study-error-quark, hyd_study_error)

/* ---------- random numbers ---------- */

guint64
hyd_study_splitmix64 (guint64 *state)
{
  guint64 z = (*state += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static double
to_unit (guint64 x)
{
  return ((double) (x >> 11) + 0.5) * 0x1p-53;
}

double
hyd_study_uniform (guint64 seed, guint64 k)
{
  /* the stream's state before its k-th output */
  guint64 state = seed + k * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  return to_unit (hyd_study_splitmix64 (&state));
}

/* A uniform integer in [0, bound) from the stream (Lemire 2019, "Fast
 * random integer generation in an interval", ACM TOMACS 29(1)). */
static guint64
uniform_below (guint64 *state, guint64 bound)
{
  unsigned __int128 m = (unsigned __int128) hyd_study_splitmix64 (state) * bound;
  guint64 low = (guint64) m;
  if (low < bound)
    {
      guint64 threshold = -bound % bound;
      while (low < threshold)
        {
          m = (unsigned __int128) hyd_study_splitmix64 (state) * bound;
          low = (guint64) m;
        }
    }
  return (guint64) (m >> 64);
}

static double
poly7 (const double c[8], double r)
{
  double v = c[7];
  for (int k = 6; k >= 0; k--)
    v = v * r + c[k];
  return v;
}

/* Wichura 1988, Algorithm AS 241 (PPND16), Applied Statistics 37(3):
 * 477–484; its coefficients. */
double
hyd_study_normal_quantile (double p)
{
  static const double a[8] = { 3.3871328727963666080e0, 1.3314166789178437745e+2, 1.9715909503065514427e+3,
                               1.3731693765509461125e+4, 4.5921953931549871457e+4, 6.7265770927008700853e+4,
                               3.3430575583588128105e+4, 2.5090809287301226727e+3 };
  static const double b[8] = { 1.0, 4.2313330701600911252e+1, 6.8718700749205790830e+2,
                               5.3941960214247511077e+3, 2.1213794301586595867e+4, 3.9307895800092710610e+4,
                               2.8729085735721942674e+4, 5.2264952788528545610e+3 };
  static const double c[8] = { 1.42343711074968357734e0, 4.63033784615654529590e0, 5.76949722146069140550e0,
                               3.64784832476320460504e0, 1.27045825245236838258e0, 2.41780725177450611770e-1,
                               2.27238449892691845833e-2, 7.74545014278341407640e-4 };
  static const double d[8] = { 1.0, 2.05319162663775882187e0, 1.67638483018380384940e0,
                               6.89767334985100004550e-1, 1.48103976427480074590e-1, 1.51986665636164571966e-2,
                               5.47593808499534494600e-4, 1.05075007164441684324e-9 };
  static const double e[8] = { 6.65790464350110377720e0, 5.46378491116411436990e0, 1.78482653991729133580e0,
                               2.96560571828504891230e-1, 2.65321895265761230930e-2, 1.24266094738807843860e-3,
                               2.71155556874348757815e-5, 2.01033439929228813265e-7 };
  static const double f[8] = { 1.0, 5.99832206555887937690e-1, 1.36929880922735805310e-1,
                               1.48753612908506148525e-2, 7.86869131145613259100e-4, 1.84631831751005468180e-5,
                               1.42151175831644588870e-7, 2.04426310338993978564e-15 };
  if (!(p > 0.0 && p < 1.0))
    return p == 0.0 ? -INFINITY : p == 1.0 ? INFINITY : NAN;
  double q = p - 0.5;
  if (fabs (q) <= 0.425)
    {
      double r = 0.180625 - q * q;
      return q * poly7 (a, r) / poly7 (b, r);
    }
  double r = sqrt (-log (q < 0.0 ? p : 1.0 - p));
  double v = r <= 5.0 ? poly7 (c, r - 1.6) / poly7 (d, r - 1.6) : poly7 (e, r - 5.0) / poly7 (f, r - 5.0);
  return q < 0.0 ? -v : v;
}

/* ---------- specs ---------- */

static gboolean
spec_error (GError **error, HydStudyError code, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

static gboolean
spec_error (GError **error, HydStudyError code, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error_literal (error, HYD_STUDY_ERROR, code, msg);
  return FALSE;
}

/* A finite number filling all of text. */
static gboolean
parse_number (const char *text, double *v)
{
  char *end = NULL;
  if (*text == '\0' || g_ascii_isspace (*text))
    return FALSE;
  *v = g_ascii_strtod (text, &end);
  return end != text && *end == '\0' && isfinite (*v);
}

void
hyd_study_vary_clear (HydStudyVary *v)
{
  g_clear_pointer (&v->name, g_free);
  g_clear_pointer (&v->component, g_free);
  g_clear_pointer (&v->param, g_free);
}

gboolean
hyd_study_vary_parse (const char *text, HydStudyVary *vary, GError **error)
{
  memset (vary, 0, sizeof *vary);
  const char *eq = strchr (text, '=');
  const char *dot = eq ? memchr (text, '.', eq - text) : NULL;
  if (eq == NULL || dot == NULL || dot == text || dot + 1 == eq)
    return spec_error (error, HYD_STUDY_ERROR_SPEC, "--vary takes ID.PARAM=SPEC, not '%s'", text);
  g_auto (GStrv) parts = g_strsplit (eq + 1, ":", -1);
  guint n = g_strv_length (parts);
  double x[3];
  const char *form = "LO:HI:N (a grid), LO:HI or uniform:LO:HI (a range), normal:MEAN:SD";
  HydStudyVaryKind kind;
  guint first = 0;
  if (n == 3 && strcmp (parts[0], "uniform") == 0)
    kind = HYD_STUDY_VARY_RANGE, first = 1;
  else if (n == 3 && strcmp (parts[0], "normal") == 0)
    kind = HYD_STUDY_VARY_NORMAL, first = 1;
  else if (n == 3)
    kind = HYD_STUDY_VARY_GRID;
  else if (n == 2)
    kind = HYD_STUDY_VARY_RANGE;
  else
    return spec_error (error, HYD_STUDY_ERROR_SPEC, "--vary %s: the values are %s", text, form);
  for (guint k = first; k < n; k++)
    if (!parse_number (parts[k], &x[k - first]))
      return spec_error (error, HYD_STUDY_ERROR_SPEC, "--vary %s: '%s' is not a finite number (the values are %s)",
                         text, parts[k], form);
  if (kind == HYD_STUDY_VARY_GRID)
    {
      if (x[2] != floor (x[2]) || x[2] < 1 || x[2] > 1e9)
        return spec_error (error, HYD_STUDY_ERROR_SPEC, "--vary %s: N must be a whole number from 1 to 10^9, not '%s'",
                           text, parts[2]);
      vary->n = (guint64) x[2];
    }
  if (kind != HYD_STUDY_VARY_NORMAL && x[1] < x[0])
    return spec_error (error, HYD_STUDY_ERROR_SPEC, "--vary %s: HI (%s) is below LO (%s)", text, parts[first + 1],
                       parts[first]);
  if (kind == HYD_STUDY_VARY_GRID && vary->n == 1 && x[1] != x[0])
    return spec_error (error, HYD_STUDY_ERROR_SPEC, "--vary %s: one point (N = 1) needs LO = HI", text);
  if (kind == HYD_STUDY_VARY_NORMAL && !(x[1] >= 0))
    return spec_error (error, HYD_STUDY_ERROR_SPEC, "--vary %s: the standard deviation must be ≥ 0", text);
  vary->kind = kind;
  vary->a = x[0];
  vary->b = x[1];
  vary->name = g_strndup (text, eq - text);
  vary->component = g_strndup (text, dot - text);
  vary->param = g_strndup (dot + 1, eq - dot - 1);
  return TRUE;
}

void
hyd_study_metric_clear (HydStudyMetric *m)
{
  g_clear_pointer (&m->name, g_free);
  g_clear_pointer (&m->var, g_free);
}

static const struct {
  const char *name;
  HydStudyMetricKind kind;
} metric_kinds[] = {
  { "final", HYD_STUDY_METRIC_FINAL }, { "min", HYD_STUDY_METRIC_MIN }, { "max", HYD_STUDY_METRIC_MAX },
  { "mean", HYD_STUDY_METRIC_MEAN }, { "rms", HYD_STUDY_METRIC_RMS },
  { "overshoot", HYD_STUDY_METRIC_OVERSHOOT }, { "settling", HYD_STUDY_METRIC_SETTLING },
  { "time_to", HYD_STUDY_METRIC_TIME_TO }, { "itae", HYD_STUDY_METRIC_ITAE }, { "ise", HYD_STUDY_METRIC_ISE },
  { "iae", HYD_STUDY_METRIC_IAE },
};

gboolean
hyd_study_metric_parse (const char *text, HydStudyMetric *m, GError **error)
{
  memset (m, 0, sizeof *m);
  m->band = 0.02;
  const char *colon = strchr (text, ':');
  const char *kinds = "final, min, max, mean, rms, overshoot, settling, time_to, itae, ise, iae";
  if (colon == NULL || colon[1] == '\0')
    return spec_error (error, HYD_STUDY_ERROR_SPEC, "--metric takes KIND:VAR (KIND one of %s), not '%s'", kinds,
                       text);
  g_autofree char *kind = g_strndup (text, colon - text);
  gboolean found = FALSE;
  for (guint k = 0; k < G_N_ELEMENTS (metric_kinds); k++)
    if (strcmp (kind, metric_kinds[k].name) == 0)
      {
        m->kind = metric_kinds[k].kind;
        found = TRUE;
      }
  if (!found)
    return spec_error (error, HYD_STUDY_ERROR_SPEC, "--metric %s: unknown kind '%s' (one of %s)", text, kind, kinds);
  g_autofree char *var = g_strdup (colon + 1);
  if (m->kind == HYD_STUDY_METRIC_TIME_TO)
    {
      static const struct { const char *op; HydStudyCompare cmp; } ops[] = {
        { ">=", HYD_STUDY_GE }, { "<=", HYD_STUDY_LE }, { ">", HYD_STUDY_GT }, { "<", HYD_STUDY_LT },
      };
      char *at = NULL;
      guint which = 0;
      for (guint k = 0; k < G_N_ELEMENTS (ops) && at == NULL; k++)
        if ((at = strstr (var, ops[k].op)) != NULL)
          which = k;
      if (at == NULL || at == var || !parse_number (at + strlen (ops[which].op), &m->x))
        return spec_error (error, HYD_STUDY_ERROR_SPEC,
                           "--metric %s: time_to takes VAR>=X, VAR<=X, VAR>X or VAR<X with X a number", text);
      m->op = ops[which].cmp;
      *at = '\0';
    }
  else if (m->kind == HYD_STUDY_METRIC_SETTLING)
    {
      char *last = strrchr (var, ':');
      if (last != NULL)
        {
          gsize len = strlen (last + 1);
          g_autofree char *num = g_strndup (last + 1, len ? len - 1 : 0);
          if (len < 2 || last[len] != '%' || !parse_number (num, &m->band) || !(m->band > 0 && m->band < 100))
            return spec_error (error, HYD_STUDY_ERROR_SPEC,
                               "--metric %s: settling takes VAR or VAR:BAND%% with BAND in (0, 100)", text);
          m->band /= 100;
          *last = '\0';
        }
    }
  if (*var == '\0')
    return spec_error (error, HYD_STUDY_ERROR_SPEC, "--metric %s: no variable", text);
  m->var = g_steal_pointer (&var);
  m->name = g_strdup (text);
  return TRUE;
}

static gboolean
compare (HydStudyCompare op, double v, double x)
{
  switch (op)
    {
    case HYD_STUDY_GE: return v >= x;
    case HYD_STUDY_LE: return v <= x;
    case HYD_STUDY_GT: return v > x;
    case HYD_STUDY_LT: return v < x;
    }
  return FALSE;
}

/* t where the line through (t0, v0), (t1, v1) takes x. */
static double
crossing (double t0, double v0, double t1, double v1, double x)
{
  if (v1 == v0 || t1 == t0)
    return t1;
  double s = (x - v0) / (v1 - v0);
  return t0 + CLAMP (s, 0.0, 1.0) * (t1 - t0);
}

double
hyd_study_metric_compute (const HydStudyMetric *m, const double *t, const double *v, gsize n)
{
  g_return_val_if_fail (n > 0, NAN);
  double first = v[0], last = v[n - 1];
  switch (m->kind)
    {
    case HYD_STUDY_METRIC_FINAL:
      return last;
    case HYD_STUDY_METRIC_MIN:
    case HYD_STUDY_METRIC_MAX:
      {
        double r = v[0];
        for (gsize k = 1; k < n; k++)
          r = m->kind == HYD_STUDY_METRIC_MIN ? MIN (r, v[k]) : MAX (r, v[k]);
        return r;
      }
    case HYD_STUDY_METRIC_MEAN:
    case HYD_STUDY_METRIC_RMS:
    case HYD_STUDY_METRIC_ITAE:
    case HYD_STUDY_METRIC_ISE:
    case HYD_STUDY_METRIC_IAE:
      {
        /* the trapezoidal rule over the samples */
        double sum = 0.0;
        for (gsize k = 0; k + 1 < n; k++)
          {
            double a = v[k], b = v[k + 1], dt = t[k + 1] - t[k];
            switch (m->kind)
              {
              case HYD_STUDY_METRIC_MEAN: sum += 0.5 * (a + b) * dt; break;
              case HYD_STUDY_METRIC_RMS:
              case HYD_STUDY_METRIC_ISE: sum += 0.5 * (a * a + b * b) * dt; break;
              case HYD_STUDY_METRIC_ITAE: sum += 0.5 * (t[k] * fabs (a) + t[k + 1] * fabs (b)) * dt; break;
              default: sum += 0.5 * (fabs (a) + fabs (b)) * dt; break;
              }
          }
        double span = t[n - 1] - t[0];
        if (m->kind == HYD_STUDY_METRIC_MEAN)
          return span > 0 ? sum / span : last;
        if (m->kind == HYD_STUDY_METRIC_RMS)
          return span > 0 ? sqrt (sum / span) : fabs (last);
        return sum;
      }
    case HYD_STUDY_METRIC_OVERSHOOT:
      {
        double step = last - first;
        if (step == 0.0)
          return NAN;
        double peak = last;
        for (gsize k = 0; k < n; k++)
          peak = step > 0 ? MAX (peak, v[k]) : MIN (peak, v[k]);
        return 100.0 * (peak - last) / step;
      }
    case HYD_STUDY_METRIC_SETTLING:
      {
        double tol = m->band * fabs (last - first);
        if (!(tol > 0))
          return NAN;
        gsize k = n;
        while (k > 0 && fabs (v[k - 1] - last) <= tol)
          k--;
        if (k == 0)
          return t[0];
        /* v[k − 1] is outside the band, v[k] inside: where it enters */
        double edge = v[k - 1] > last ? last + tol : last - tol;
        return crossing (t[k - 1], v[k - 1], t[k], v[k], edge);
      }
    case HYD_STUDY_METRIC_TIME_TO:
      for (gsize k = 0; k < n; k++)
        if (compare (m->op, v[k], m->x))
          return k == 0 ? t[0] : crossing (t[k - 1], v[k - 1], t[k], v[k], m->x);
      return NAN;
    }
  return NAN;
}

/* ---------- the study ---------- */

struct _HydStudy {
  HydCircuit *circuit;
  HydSimOptions sim;
  gboolean fd_jacobian;
  GArray *vary;     /* of HydStudyVary */
  GArray *metrics;  /* of HydStudyMetric */
  HydStudyDesign design;
  guint64 n_samples, seed;
  guint64 n_runs;
  guint64 **perm;   /* LHS: a permutation of the strata per parameter */
  HydSystem *sys;
  HydFluid fluid;
  double timeout;   /* s of wall-clock time a run, 0: none */
};

HydStudy *
hyd_study_new (const HydCircuit *circuit, const HydSimOptions *sim, gboolean fd_jacobian)
{
  g_return_val_if_fail (circuit != NULL && sim != NULL, NULL);
  HydStudy *s = g_new0 (HydStudy, 1);
  s->circuit = hyd_circuit_copy (circuit);
  s->sim = *sim;
  s->sim.solver = g_strdup (sim->solver);
  s->fd_jacobian = fd_jacobian;
  s->vary = g_array_new (FALSE, TRUE, sizeof (HydStudyVary));
  g_array_set_clear_func (s->vary, (GDestroyNotify) hyd_study_vary_clear);
  s->metrics = g_array_new (FALSE, TRUE, sizeof (HydStudyMetric));
  g_array_set_clear_func (s->metrics, (GDestroyNotify) hyd_study_metric_clear);
  return s;
}

static void
free_perm (HydStudy *s)
{
  if (s->perm)
    for (guint j = 0; j < s->vary->len; j++)
      g_free (s->perm[j]);
  g_clear_pointer (&s->perm, g_free);
}

void
hyd_study_free (HydStudy *s)
{
  if (s == NULL)
    return;
  free_perm (s);
  g_clear_pointer (&s->sys, hyd_system_free);
  hyd_circuit_free (s->circuit);
  hyd_sim_options_clear (&s->sim);
  g_array_unref (s->vary);
  g_array_unref (s->metrics);
  g_free (s);
}

gboolean
hyd_study_add_vary (HydStudy *s, const char *spec, GError **error)
{
  HydStudyVary v;
  if (!hyd_study_vary_parse (spec, &v, error))
    return FALSE;
  for (guint j = 0; j < s->vary->len; j++)
    if (strcmp (g_array_index (s->vary, HydStudyVary, j).name, v.name) == 0)
      {
        spec_error (error, HYD_STUDY_ERROR_SPEC, "--vary %s: %s is varied twice", spec, v.name);
        hyd_study_vary_clear (&v);
        return FALSE;
      }
  g_array_append_val (s->vary, v);
  return TRUE;
}

gboolean
hyd_study_add_metric (HydStudy *s, const char *spec, GError **error)
{
  HydStudyMetric m;
  if (!hyd_study_metric_parse (spec, &m, error))
    return FALSE;
  g_array_append_val (s->metrics, m);
  return TRUE;
}

void
hyd_study_set_design (HydStudy *s, HydStudyDesign design, guint64 n, guint64 seed)
{
  s->design = design;
  s->n_samples = n;
  s->seed = seed;
}

/* Set value v on component comp as --set does: the shortest exact text. */
static gboolean
set_value (HydCircuitComponent *comp, const char *param, double v, const HydFluid *fluid, GError **error)
{
  char buf[HYD_DTOA_BUF_SIZE];
  hyd_dtoa_shortest (v, buf);
  return hyd_circuit_component_set_param_from_string (comp, param, buf, fluid, error);
}

gboolean
hyd_study_prepare (HydStudy *s, GError **error)
{
  g_return_val_if_fail (s->sys == NULL, FALSE);
  if (s->vary->len == 0)
    return spec_error (error, HYD_STUDY_ERROR_SPEC, "a study needs at least one --vary ID.PARAM=SPEC");
  if (!hyd_circuit_get_fluid (s->circuit, &s->fluid, error))
    return FALSE;
  s->n_runs = s->design == HYD_STUDY_DESIGN_GRID ? 1 : s->n_samples;
  for (guint j = 0; j < s->vary->len; j++)
    {
      const HydStudyVary *v = &g_array_index (s->vary, HydStudyVary, j);
      if (s->design == HYD_STUDY_DESIGN_GRID && v->kind != HYD_STUDY_VARY_GRID)
        return spec_error (error, HYD_STUDY_ERROR_SPEC,
                           "--vary %s: a grid study takes LO:HI:N; ranges and distributions need --random N or "
                           "--lhs N", v->name);
      if (s->design != HYD_STUDY_DESIGN_GRID && v->kind == HYD_STUDY_VARY_GRID)
        return spec_error (error, HYD_STUDY_ERROR_SPEC,
                           "--vary %s: LO:HI:N is a grid; a --random or --lhs study takes LO:HI, uniform:LO:HI or "
                           "normal:MEAN:SD", v->name);
      if (s->design == HYD_STUDY_DESIGN_GRID)
        {
          if (s->n_runs > G_MAXUINT64 / v->n || s->n_runs * v->n > G_GUINT64_CONSTANT (1000000000))
            return spec_error (error, HYD_STUDY_ERROR_SPEC, "the grid has more than 10^9 runs");
          s->n_runs *= v->n;
        }
      /* the parameter exists, and the ends of a grid or range are values
       * it takes (the errors are --set's) */
      HydCircuitComponent *comp = hyd_circuit_find_component (s->circuit, v->component);
      if (comp == NULL)
        return spec_error (error, HYD_STUDY_ERROR_CIRCUIT, "--vary %s: no component '%s' in the circuit", v->name,
                           v->component);
      g_autoptr (HydCircuitComponent) trial = hyd_circuit_component_copy (comp);
      g_autoptr (GError) local = NULL;
      double ends[2] = { v->a, v->b };
      guint n_ends = v->kind == HYD_STUDY_VARY_NORMAL ? 1 : 2;
      for (guint e = 0; e < n_ends; e++)
        if (!set_value (trial, v->param, ends[e], &s->fluid, &local))
          return spec_error (error, HYD_STUDY_ERROR_CIRCUIT, "--vary %s: %s", v->name, local->message);
    }
  if (s->n_runs == 0)
    return spec_error (error, HYD_STUDY_ERROR_SPEC, "the study has no runs");
  if (s->metrics->len == 0)
    return spec_error (error, HYD_STUDY_ERROR_SPEC, "a study needs at least one --metric KIND:VAR");
  s->sys = hyd_system_compile (s->circuit, error);
  if (s->sys == NULL)
    return FALSE;
  for (guint i = 0; i < s->metrics->len; i++)
    {
      const HydStudyMetric *m = &g_array_index (s->metrics, HydStudyMetric, i);
      if (hyd_system_find_variable (s->sys, m->var) < 0)
        return spec_error (error, HYD_STUDY_ERROR_CIRCUIT,
                           "--metric %s: unknown variable '%s' (see 'bramah-cli describe': ports give "
                           "<comp>.<port>.p and .q, outputs <comp>.<output>)", m->name, m->var);
    }
  if (s->design == HYD_STUDY_DESIGN_LHS)
    {
      /* one permutation of the N strata per parameter, each from its own
       * SplitMix64 stream (Fisher–Yates) */
      s->perm = g_new0 (guint64 *, s->vary->len + 1);
      for (guint j = 0; j < s->vary->len; j++)
        {
          guint64 *p = s->perm[j] = g_new (guint64, s->n_runs);
          guint64 key = s->seed ^ (G_GUINT64_CONSTANT (0xD1B54A32D192ED03) * (j + 1));
          guint64 state = hyd_study_splitmix64 (&key);
          for (guint64 k = 0; k < s->n_runs; k++)
            p[k] = k;
          for (guint64 k = s->n_runs - 1; k > 0; k--)
            {
              guint64 r = uniform_below (&state, k + 1);
              guint64 tmp = p[k];
              p[k] = p[r];
              p[r] = tmp;
            }
        }
    }
  return TRUE;
}

HydSystem *
hyd_study_get_system (HydStudy *s)
{
  return s->sys;
}

guint64
hyd_study_get_n_runs (const HydStudy *s)
{
  return s->n_runs;
}

guint
hyd_study_get_n_vary (const HydStudy *s)
{
  return s->vary->len;
}

const HydStudyVary *
hyd_study_get_vary (const HydStudy *s, guint j)
{
  g_return_val_if_fail (j < s->vary->len, NULL);
  return &g_array_index (s->vary, HydStudyVary, j);
}

guint
hyd_study_get_n_metrics (const HydStudy *s)
{
  return s->metrics->len;
}

const HydStudyMetric *
hyd_study_get_metric (const HydStudy *s, guint i)
{
  g_return_val_if_fail (i < s->metrics->len, NULL);
  return &g_array_index (s->metrics, HydStudyMetric, i);
}

void
hyd_study_get_values (const HydStudy *s, guint64 run, double *values)
{
  guint nv = s->vary->len;
  guint64 rest = run;
  /* the grid: the last parameter varies fastest */
  for (guint j = nv; j-- > 0;)
    {
      const HydStudyVary *v = &g_array_index (s->vary, HydStudyVary, j);
      double u = 0.0;
      switch (s->design)
        {
        case HYD_STUDY_DESIGN_GRID:
          {
            guint64 k = rest % v->n;
            rest /= v->n;
            if (v->n == 1 || k == 0)
              values[j] = v->a;
            else if (k == v->n - 1)
              values[j] = v->b;
            else
              {
                /* the weighted mean: 0.2:1:5 gives 0.6, not 0.6000000000000001 */
                double m = (double) (v->n - 1);
                values[j] = (v->a * (m - (double) k) + v->b * (double) k) / m;
                if (!isfinite (values[j]))
                  values[j] = v->a + (v->b - v->a) * ((double) k / m);
              }
            continue;
          }
        case HYD_STUDY_DESIGN_RANDOM:
          u = hyd_study_uniform (s->seed, run * nv + j);
          break;
        case HYD_STUDY_DESIGN_LHS:
          /* a uniform place inside the run's stratum of parameter j */
          u = ((double) s->perm[j][run] + hyd_study_uniform (s->seed, run * nv + j)) / (double) s->n_runs;
          break;
        }
      if (v->kind == HYD_STUDY_VARY_NORMAL)
        values[j] = v->a + v->b * hyd_study_normal_quantile (u);
      else
        values[j] = MIN (v->a + (v->b - v->a) * u, v->b);
    }
}

static void
append_number (GString *s, double v)
{
  char buf[HYD_DTOA_BUF_SIZE];
  hyd_dtoa_shortest (v, buf);
  g_string_append (s, buf);
}

/* A CSV field, on one line: control characters (line breaks included)
 * become spaces, and it is quoted when it holds a comma or a quote. */
static void
append_field (GString *s, const char *text)
{
  gboolean quote = strpbrk (text, ",\"") != NULL;
  if (quote)
    g_string_append_c (s, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append (s, "\"\"");
      else if ((guchar) *p < 0x20 || *p == 0x7f)
        g_string_append_c (s, ' ');
      else
        g_string_append_c (s, *p);
    }
  if (quote)
    g_string_append_c (s, '"');
}

char *
hyd_study_header (const HydStudy *s)
{
  GString *h = g_string_new ("run");
  for (guint j = 0; j < s->vary->len; j++)
    {
      g_string_append_c (h, ',');
      append_field (h, g_array_index (s->vary, HydStudyVary, j).name);
    }
  g_string_append (h, ",status");
  for (guint i = 0; i < s->metrics->len; i++)
    {
      g_string_append_c (h, ',');
      append_field (h, g_array_index (s->metrics, HydStudyMetric, i).name);
    }
  g_string_append (h, ",message\n");
  return g_string_free (h, FALSE);
}

static void
append_prefix (GString *r, const HydStudy *s, guint64 run, const double *values)
{
  g_string_append_printf (r, "%" G_GUINT64_FORMAT, run);
  for (guint j = 0; j < s->vary->len; j++)
    {
      g_string_append_c (r, ',');
      append_number (r, values[j]);
    }
  g_string_append_c (r, ',');
}

char *
hyd_study_format_prefix (const HydStudy *s, guint64 run, const double *values)
{
  GString *r = g_string_new (NULL);
  append_prefix (r, s, run, values);
  return g_string_free (r, FALSE);
}

char *
hyd_study_format_row (const HydStudy *s, guint64 run, const double *values, const char *status,
                      const double *metrics, const char *message)
{
  GString *r = g_string_sized_new (64 + 25 * (s->vary->len + s->metrics->len));
  append_prefix (r, s, run, values);
  append_field (r, status);
  gboolean ok = strcmp (status, "ok") == 0;
  for (guint i = 0; i < s->metrics->len; i++)
    {
      g_string_append_c (r, ',');
      if (ok)
        append_number (r, metrics[i]);
    }
  g_string_append_c (r, ',');
  if (message)
    append_field (r, message);
  g_string_append_c (r, '\n');
  return g_string_free (r, FALSE);
}

gboolean
hyd_study_row_run (const char *row, guint64 *run)
{
  if (!g_ascii_isdigit (row[0]))
    return FALSE;
  char *end = NULL;
  guint64 v = g_ascii_strtoull (row, &end, 10);
  if (end == row || *end != ',')
    return FALSE;
  *run = v;
  return TRUE;
}

/* ---------- one run ---------- */

struct _HydStudyWorker {
  HydStudy *study;
  HydCircuit *circuit;
  HydCircuitComponent **comps;   /* the varied parameters' components */
  GArray *t;                     /* the samples of the metrics' variables */
  GArray **v;
  GArray *vars;                  /* of int: the distinct variables */
  int *var_of_metric;            /* index into vars */
  char **var_names;
  /* the time limit (hyd_study_set_timeout): a watchdog thread, started by
   * the first timed run, sets the run's own cancel flag at the deadline or
   * when the caller's flag is set */
  GThread *watch;
  GMutex watch_lock;
  GCond watch_cond;
  gint64 deadline;               /* monotonic µs; 0: no timed run */
  const gint *outer;             /* the caller's cancel flag, may be NULL */
  gint flag;                     /* the timed run's cancel flag (atomic) */
  gboolean timed_out, quit;
};

HydStudyWorker *
hyd_study_worker_new (HydStudy *s)
{
  g_return_val_if_fail (s->sys != NULL, NULL);
  HydStudyWorker *w = g_new0 (HydStudyWorker, 1);
  w->study = s;
  w->circuit = hyd_circuit_copy (s->circuit);
  w->comps = g_new0 (HydCircuitComponent *, s->vary->len + 1);
  for (guint j = 0; j < s->vary->len; j++)
    w->comps[j] = hyd_circuit_find_component (w->circuit, g_array_index (s->vary, HydStudyVary, j).component);
  /* the distinct variables the metrics read */
  w->var_of_metric = g_new0 (int, s->metrics->len + 1);
  GPtrArray *names = g_ptr_array_new ();
  for (guint i = 0; i < s->metrics->len; i++)
    {
      const char *var = g_array_index (s->metrics, HydStudyMetric, i).var;
      guint k;
      for (k = 0; k < names->len; k++)
        if (strcmp (names->pdata[k], var) == 0)
          break;
      if (k == names->len)
        g_ptr_array_add (names, g_strdup (var));
      w->var_of_metric[i] = (int) k;
    }
  g_ptr_array_add (names, NULL);
  w->var_names = (char **) g_ptr_array_free (names, FALSE);
  guint nvars = g_strv_length (w->var_names);
  w->t = g_array_new (FALSE, FALSE, sizeof (double));
  w->v = g_new0 (GArray *, nvars + 1);
  for (guint k = 0; k < nvars; k++)
    w->v[k] = g_array_new (FALSE, FALSE, sizeof (double));
  w->vars = g_array_new (FALSE, FALSE, sizeof (int));
  g_mutex_init (&w->watch_lock);
  g_cond_init (&w->watch_cond);
  return w;
}

void
hyd_study_worker_free (HydStudyWorker *w)
{
  if (w == NULL)
    return;
  if (w->watch)
    {
      g_mutex_lock (&w->watch_lock);
      w->quit = TRUE;
      g_cond_signal (&w->watch_cond);
      g_mutex_unlock (&w->watch_lock);
      g_thread_join (w->watch);
    }
  g_mutex_clear (&w->watch_lock);
  g_cond_clear (&w->watch_cond);
  for (guint k = 0; w->var_names[k]; k++)
    g_array_unref (w->v[k]);
  g_free (w->v);
  g_strfreev (w->var_names);
  g_free (w->var_of_metric);
  g_array_unref (w->t);
  g_array_unref (w->vars);
  g_free (w->comps);
  hyd_circuit_free (w->circuit);
  g_free (w);
}

static gboolean
keep_sample (double t, const double *values, guint n, gpointer user)
{
  HydStudyWorker *w = user;
  /* values[0] is t (the first variable asked for) */
  g_array_append_val (w->t, t);
  for (guint k = 1; k < n; k++)
    g_array_append_val (w->v[k - 1], values[k]);
  return TRUE;
}

/* One run; *t_reached (may be NULL) the solver's last good time when it
 * stopped before t_end. */
static const char *
run_once (HydStudyWorker *w, const double *values, double *metrics, char **message, const gint *cancel,
          double *t_reached)
{
  HydStudy *s = w->study;
  *message = NULL;
  g_autoptr (GError) error = NULL;
  for (guint j = 0; j < s->vary->len; j++)
    if (!set_value (w->comps[j], g_array_index (s->vary, HydStudyVary, j).param, values[j], &s->fluid, &error))
      {
        *message = g_strdup (error->message);
        return "invalid-value";
      }
  g_autoptr (HydSystem) sys = hyd_system_compile (w->circuit, &error);
  if (sys == NULL)
    {
      *message = g_strdup (error->message);
      return "compile-failed";
    }
  g_array_set_size (w->vars, 0);
  int tv = hyd_system_find_variable (sys, "t");
  g_array_append_val (w->vars, tv);
  for (guint k = 0; w->var_names[k]; k++)
    {
      int v = hyd_system_find_variable (sys, w->var_names[k]);
      if (v < 0)
        {
          *message = g_strdup_printf ("no variable '%s' with these values (the model's structure changed)",
                                      w->var_names[k]);
          return "unknown-variable";
        }
      g_array_append_val (w->vars, v);
      g_array_set_size (w->v[k], 0);
    }
  g_array_set_size (w->t, 0);
  HydRunSpec spec = {
    .sim = &s->sim, .fd_jacobian = s->fd_jacobian, .cancel = cancel,
    .vars = (const int *) w->vars->data, .n_vars = w->vars->len,
    .sample = keep_sample, .user = w,
  };
  g_auto (HydOdeResult) res = { 0 };
  HydOdeStatus status = hyd_run_execute (sys, &spec, &res, NULL);
  if (status != HYD_ODE_SUCCESS)
    {
      if (t_reached)
        *t_reached = res.t;
      *message = g_strdup (res.message ? res.message : hyd_ode_status_name (status));
      return status == HYD_ODE_CANCELLED ? "cancelled" : hyd_ode_status_name (status);
    }
  if (w->t->len == 0)
    {
      *message = g_strdup ("the run gave no samples");
      return "no-samples";
    }
  for (guint i = 0; i < s->metrics->len; i++)
    {
      const GArray *v = w->v[w->var_of_metric[i]];
      metrics[i] = hyd_study_metric_compute (&g_array_index (s->metrics, HydStudyMetric, i),
                                             (const double *) w->t->data, (const double *) v->data, v->len);
    }
  return "ok";
}

void
hyd_study_set_timeout (HydStudy *s, double seconds)
{
  g_return_if_fail (!(seconds < 0));
  s->timeout = isfinite (seconds) ? seconds : 0.0;
}

double
hyd_study_get_timeout (const HydStudy *s)
{
  return s->timeout;
}

/* The watchdog: sleeps until the timed run's deadline (looking at the
 * caller's cancel flag every 20 ms meanwhile), then sets the run's flag,
 * which the solver polls at every step and Newton iteration. */
static gpointer
watch_thread (gpointer data)
{
  HydStudyWorker *w = data;
  g_mutex_lock (&w->watch_lock);
  while (!w->quit)
    {
      if (w->deadline == 0)
        {
          g_cond_wait (&w->watch_cond, &w->watch_lock);
          continue;
        }
      gint64 now = g_get_monotonic_time ();
      if (now >= w->deadline || (w->outer && g_atomic_int_get (w->outer)))
        {
          w->timed_out = now >= w->deadline;
          g_atomic_int_set (&w->flag, 1);
          w->deadline = 0;
          continue;
        }
      g_cond_wait_until (&w->watch_cond, &w->watch_lock,
                         w->outer ? MIN (w->deadline, now + 20 * G_TIME_SPAN_MILLISECOND) : w->deadline);
    }
  g_mutex_unlock (&w->watch_lock);
  return NULL;
}

char *
hyd_study_timeout_message (const HydStudy *s, double t_reached)
{
  char limit[HYD_DTOA_BUF_SIZE];
  hyd_dtoa_shortest (s->timeout, limit);
  if (isfinite (t_reached))
    return g_strdup_printf ("over the limit of --timeout %s s (wall clock): stopped at t = %.6g s of %g s", limit,
                            t_reached, s->sim.t_end);
  return g_strdup_printf ("over the limit of --timeout %s s (wall clock): stopped before the solver's first step",
                          limit);
}

const char *
hyd_study_worker_run (HydStudyWorker *w, const double *values, double *metrics, char **message,
                      const gint *cancel)
{
  HydStudy *s = w->study;
  if (!(s->timeout > 0))
    return run_once (w, values, metrics, message, cancel, NULL);
  if (w->watch == NULL)
    w->watch = g_thread_new ("hyd-study-watch", watch_thread, w);
  g_mutex_lock (&w->watch_lock);
  g_atomic_int_set (&w->flag, 0);
  w->timed_out = FALSE;
  w->outer = cancel;
  w->deadline = g_get_monotonic_time () + MAX ((gint64) 1, (gint64) ceil (s->timeout * G_TIME_SPAN_SECOND));
  g_cond_signal (&w->watch_cond);
  g_mutex_unlock (&w->watch_lock);
  double t = NAN;
  const char *status = run_once (w, values, metrics, message, &w->flag, &t);
  g_mutex_lock (&w->watch_lock);
  gboolean over = w->timed_out;
  w->deadline = 0;
  w->outer = NULL;
  g_mutex_unlock (&w->watch_lock);
  /* a run that ended on its own before it saw the flag keeps its status */
  if (over && strcmp (status, "cancelled") == 0 && !(cancel && g_atomic_int_get (cancel)))
    {
      g_free (*message);
      *message = hyd_study_timeout_message (s, t);
      return "timeout";
    }
  return status;
}

/* ---------- runs in child processes ----------
 * A child is a fork of the study's process with a worker of its own; the
 * parent sends it a run's values over a socket pair and it answers with
 * the run's status, metrics and message, so that the parent writes the
 * same row as a thread would. A child that dies (a signal, an exit) ends
 * that run as "crashed"; the next run gets a new child. */

typedef struct {
  pid_t pid;          /* 0: none */
  int fd;             /* the parent's end of the socket pair, −1: none */
  gboolean busy;
  guint64 run;        /* the pool's run being run */
  double *values;     /* its values */
  gint64 limit;       /* monotonic µs after which a busy child is killed; 0: none */
  GByteArray *in;     /* the answer so far */
} Child;

static void
child_init (Child *c, const HydStudy *s)
{
  c->pid = 0;
  c->fd = -1;
  c->values = g_new0 (double, s->vary->len + 1);
  c->in = g_byte_array_new ();
}

static gboolean
write_full (int fd, const void *data, gsize len)
{
  const char *p = data;
  while (len > 0)
    {
      ssize_t w = send (fd, p, len, MSG_NOSIGNAL);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        return FALSE;
      p += w;
      len -= (gsize) w;
    }
  return TRUE;
}

static gboolean
read_full (int fd, void *data, gsize len)
{
  char *p = data;
  while (len > 0)
    {
      ssize_t r = read (fd, p, len);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return FALSE;
      p += r;
      len -= (gsize) r;
    }
  return TRUE;
}

/* The child: runs the values it reads, answers
 * [u32 length][status '\0'][metrics as doubles][has message][message '\0'],
 * and ends (_exit, never exit: the parent's stdio buffers and atexit
 * handlers are not its own) when the parent closes its end. */
static void G_GNUC_NORETURN
child_main (HydStudy *s, int fd, pid_t parent)
{
#ifdef __linux__
  /* killed with its parent (even by SIGKILL) */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
#endif
  if (getppid () != parent)
    _exit (0);
  /* the parent's handlers (removing its temporary file; MPI's backtrace
   * on a crash) are not the child's, whose crash the parent reports;
   * signals the parent ignores stay ignored */
  static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXFSZ, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
  for (guint k = 0; k < G_N_ELEMENTS (sigs); k++)
    {
      struct sigaction sa;
      if (sigaction (sigs[k], NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
        signal (sigs[k], SIG_DFL);
    }
  sigset_t none;
  sigemptyset (&none);
  pthread_sigmask (SIG_SETMASK, &none, NULL);
  /* only its own socket: the other children's sockets and the output file
   * are not its business, and a child holding them open would keep a
   * sibling from seeing its end of file */
  if (fd != 3)
    {
      dup2 (fd, 3);
      close (fd);
    }
  fd = 3;
  gboolean closed = FALSE;
#ifdef SYS_close_range
  closed = syscall (SYS_close_range, 4u, ~0u, 0u) == 0;
#endif
  if (!closed)
    {
      long max = sysconf (_SC_OPEN_MAX);
      for (long k = 4; k < MIN (max < 0 ? 1024 : max, 65536); k++)
        close ((int) k);
    }
  HydStudyWorker *w = hyd_study_worker_new (s);
  guint nv = s->vary->len, nm = s->metrics->len;
  double *values = g_new0 (double, nv + 1);
  double *metrics = g_new0 (double, nm + 1);
  GByteArray *out = g_byte_array_new ();
  while (read_full (fd, values, nv * sizeof (double)))
    {
      char *message = NULL;
      memset (metrics, 0, (nm + 1) * sizeof (double));
      const char *status = hyd_study_worker_run (w, values, metrics, &message, NULL);
      guint32 len = 0;
      guint8 has = message != NULL;
      g_byte_array_set_size (out, 0);
      g_byte_array_append (out, (const guint8 *) &len, sizeof len);
      g_byte_array_append (out, (const guint8 *) status, strlen (status) + 1);
      g_byte_array_append (out, (const guint8 *) metrics, nm * sizeof (double));
      g_byte_array_append (out, &has, 1);
      if (message)
        g_byte_array_append (out, (const guint8 *) message, strlen (message));
      g_byte_array_append (out, (const guint8 *) "", 1);
      len = out->len - sizeof len;
      memcpy (out->data, &len, sizeof len);
      g_free (message);
      if (!write_full (fd, out->data, out->len))
        break;
    }
  _exit (0);
}

static gboolean
child_spawn (HydStudy *s, Child *c, GError **error)
{
  int sv[2];
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    {
      int e = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "socketpair: %s", g_strerror (e));
      return FALSE;
    }
  pid_t parent = getpid ();
  pid_t pid = fork ();
  if (pid < 0)
    {
      int e = errno;
      close (sv[0]);
      close (sv[1]);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "fork: %s", g_strerror (e));
      return FALSE;
    }
  if (pid == 0)
    {
      close (sv[0]);
      child_main (s, sv[1], parent);
    }
  close (sv[1]);
  c->pid = pid;
  c->fd = sv[0];
  c->busy = FALSE;
  c->limit = 0;
  g_byte_array_set_size (c->in, 0);
  return TRUE;
}

static const struct {
  int sig;
  const char *name, *what;
} signal_names[] = {
  { SIGSEGV, "SIGSEGV", "an invalid memory access" },
  { SIGABRT, "SIGABRT", "aborted: a failed check or memory exhausted" },
  { SIGFPE, "SIGFPE", "an arithmetic exception" },
  { SIGBUS, "SIGBUS", "a bus error" },
  { SIGILL, "SIGILL", "an illegal instruction" },
  { SIGKILL, "SIGKILL", "killed: by the out-of-memory killer or a user" },
  { SIGTERM, "SIGTERM", "terminated" },
  { SIGINT, "SIGINT", "interrupted" },
  { SIGQUIT, "SIGQUIT", "quit" },
  { SIGHUP, "SIGHUP", "hang-up" },
  { SIGPIPE, "SIGPIPE", "a broken pipe" },
  { SIGTRAP, "SIGTRAP", "a trap" },
  { SIGSYS, "SIGSYS", "a bad system call" },
  { SIGXCPU, "SIGXCPU", "over the CPU time limit (ulimit -t)" },
  { SIGXFSZ, "SIGXFSZ", "over the file size limit (ulimit -f)" },
};

/* Reap the child (it has closed its socket, or was killed) and say how it
 * ended; the child is gone after. */
static char *
child_reap (Child *c)
{
  int st = 0;
  pid_t r;
  do
    r = waitpid (c->pid, &st, 0);
  while (r < 0 && errno == EINTR);
  if (c->fd >= 0)
    close (c->fd);
  c->fd = -1;
  c->pid = 0;
  c->busy = FALSE;
  if (r < 0)
    return g_strdup ("the run's process ended, how is unknown (waitpid: no such child)");
  if (WIFSIGNALED (st))
    {
      int sig = WTERMSIG (st);
      for (guint k = 0; k < G_N_ELEMENTS (signal_names); k++)
        if (signal_names[k].sig == sig)
          return g_strdup_printf ("the run's process was killed by %s (%s)", signal_names[k].name,
                                  signal_names[k].what);
      return g_strdup_printf ("the run's process was killed by signal %d", sig);
    }
  if (WIFEXITED (st))
    return g_strdup_printf ("the run's process exited with status %d", WEXITSTATUS (st));
  return g_strdup ("the run's process ended");
}

/* An idle child's end: its socket closed, it reads the end of file and
 * exits; a busy one is killed. */
static void
child_stop (Child *c)
{
  if (c->pid == 0)
    return;
  if (c->busy)
    kill (c->pid, SIGKILL);
  if (c->fd >= 0)
    close (c->fd);
  c->fd = -1;
  g_free (child_reap (c));
}

static void
child_clear (Child *c)
{
  child_stop (c);
  g_clear_pointer (&c->values, g_free);
  if (c->in)
    g_byte_array_unref (c->in);
  c->in = NULL;
}

/* Give the child a run: TRUE when sent (a child that fails to start or
 * has died is then reaped by the caller's read). */
static gboolean
child_send (HydStudy *s, Child *c, const double *values, GError **error)
{
  if (c->pid == 0 && !child_spawn (s, c, error))
    return FALSE;
  memcpy (c->values, values, s->vary->len * sizeof (double));
  c->busy = TRUE;
  g_byte_array_set_size (c->in, 0);
  /* a run that does not stop at its solver's next step (stuck outside the
   * solver) is killed at twice the limit and a second */
  c->limit = s->timeout > 0 ? g_get_monotonic_time () + (gint64) ceil ((2 * s->timeout + 1) * G_TIME_SPAN_SECOND)
                            : 0;
  if (!write_full (c->fd, values, s->vary->len * sizeof (double)))
    {
      /* it died idle (killed from outside): the run goes to a new child;
       * should that fail too, its end of file comes next */
      g_free (child_reap (c));
      if (!child_spawn (s, c, error))
        return FALSE;
      c->busy = TRUE;
      write_full (c->fd, values, s->vary->len * sizeof (double));
    }
  return TRUE;
}

typedef enum { CHILD_MORE, CHILD_ANSWER, CHILD_DIED } ChildRead;

/* Read what the child sent: CHILD_ANSWER with the run's status, metrics
 * and message when it is complete, CHILD_DIED (reaped, the message says
 * how) when its socket closed first. */
static ChildRead
child_read (const HydStudy *s, Child *c, const char **status, double *metrics, char **message)
{
  char buf[4096];
  ssize_t r;
  do
    r = read (c->fd, buf, sizeof buf);
  while (r < 0 && errno == EINTR);
  if (r > 0)
    g_byte_array_append (c->in, (const guint8 *) buf, (guint) r);
  if (r <= 0)
    {
      *status = "crashed";
      *message = child_reap (c);
      return CHILD_DIED;
    }
  guint32 len;
  if (c->in->len < sizeof len)
    return CHILD_MORE;
  memcpy (&len, c->in->data, sizeof len);
  if (c->in->len < sizeof len + len)
    return CHILD_MORE;
  const char *body = (const char *) c->in->data + sizeof len;
  gsize nm = s->metrics->len;
  gsize st_len = strnlen (body, len);
  if (st_len + 1 + nm * sizeof (double) + 2 > len)
    {
      kill (c->pid, SIGKILL);
      g_free (child_reap (c));
      *status = "crashed";
      *message = g_strdup ("the run's process answered garbage");
      return CHILD_DIED;
    }
  *status = g_intern_string (body);
  memcpy (metrics, body + st_len + 1, nm * sizeof (double));
  const char *rest = body + st_len + 1 + nm * sizeof (double);
  *message = rest[0] ? g_strndup (rest + 1, len - (gsize) (rest + 1 - body) - 1) : NULL;
  c->busy = FALSE;
  g_byte_array_set_size (c->in, 0);
  return CHILD_ANSWER;
}

/* A busy child over its hard limit: killed, the run a "timeout". */
static char *
child_kill_late (const HydStudy *s, Child *c)
{
  kill (c->pid, SIGKILL);
  g_free (child_reap (c));
  char limit[HYD_DTOA_BUF_SIZE];
  hyd_dtoa_shortest (s->timeout, limit);
  return g_strdup_printf ("over the limit of --timeout %s s (wall clock): the run did not stop at its solver's "
                          "next step; its process was killed at %g s", limit, 2 * s->timeout + 1);
}

struct _HydStudyProcess {
  HydStudy *study;
  Child child;
};

HydStudyProcess *
hyd_study_process_new (HydStudy *s)
{
  g_return_val_if_fail (s->sys != NULL, NULL);
  HydStudyProcess *p = g_new0 (HydStudyProcess, 1);
  p->study = s;
  child_init (&p->child, s);
  return p;
}

void
hyd_study_process_free (HydStudyProcess *p)
{
  if (p == NULL)
    return;
  child_clear (&p->child);
  g_free (p);
}

const char *
hyd_study_process_run (HydStudyProcess *p, const double *values, double *metrics, char **message)
{
  HydStudy *s = p->study;
  Child *c = &p->child;
  g_autoptr (GError) error = NULL;
  *message = NULL;
  if (!child_send (s, c, values, &error))
    {
      *message = g_strdup_printf ("no process could be started for the run: %s", error->message);
      return "crashed";
    }
  for (;;)
    {
      int wait_ms = -1;
      if (c->limit)
        {
          gint64 left = c->limit - g_get_monotonic_time ();
          if (left <= 0)
            {
              *message = child_kill_late (s, c);
              return "timeout";
            }
          wait_ms = (int) MIN ((left + 999) / 1000, G_MAXINT);
        }
      struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
      int n = poll (&pfd, 1, wait_ms);
      if (n < 0 && errno != EINTR)
        {
          kill (c->pid, SIGKILL);
          g_free (child_reap (c));
          *message = g_strdup_printf ("poll: %s", g_strerror (errno));
          return "crashed";
        }
      if (n <= 0)
        continue;
      const char *status;
      if (child_read (s, c, &status, metrics, message) != CHILD_MORE)
        return status;
    }
}

/* ---------- the pool ---------- */

typedef struct {
  guint64 run;
  char *row;   /* NULL: a thread ended */
  gboolean ok;
} PoolResult;

struct _HydStudyPool {
  HydStudy *study;
  GMutex lock;
  const guint64 *runs;
  guint64 n_runs, next;
  gint cancel;
  GAsyncQueue *results;
  GPtrArray *threads;
  guint running;     /* threads that have not ended (counted by their NULL rows) */
  /* hyd_study_pool_new_isolated: children instead of threads, driven by
   * hyd_study_pool_pop */
  Child *children;
  guint n_children;
  double *metrics;
};

gboolean
hyd_study_pool_take (HydStudyPool *pool, guint64 *run)
{
  gboolean ok = FALSE;
  g_mutex_lock (&pool->lock);
  if (!g_atomic_int_get (&pool->cancel) && pool->next < pool->n_runs)
    {
      *run = pool->runs[pool->next++];
      ok = TRUE;
    }
  g_mutex_unlock (&pool->lock);
  return ok;
}

static gpointer
pool_thread (gpointer data)
{
  HydStudyPool *pool = data;
  HydStudy *s = pool->study;
  g_autoptr (HydStudyWorker) w = hyd_study_worker_new (s);
  g_autofree double *values = g_new0 (double, s->vary->len + 1);
  g_autofree double *metrics = g_new0 (double, s->metrics->len + 1);
  guint64 run;
  while (hyd_study_pool_take (pool, &run))
    {
      hyd_study_get_values (s, run, values);
      g_autofree char *message = NULL;
      const char *status = hyd_study_worker_run (w, values, metrics, &message, &pool->cancel);
      if (g_atomic_int_get (&pool->cancel))
        break;
      PoolResult *r = g_new0 (PoolResult, 1);
      r->run = run;
      r->ok = strcmp (status, "ok") == 0;
      r->row = hyd_study_format_row (s, run, values, status, metrics, message);
      g_async_queue_push (pool->results, r);
    }
  g_async_queue_push (pool->results, g_new0 (PoolResult, 1));
  return NULL;
}

HydStudyPool *
hyd_study_pool_new (HydStudy *s, guint jobs, const guint64 *runs, guint64 n_runs)
{
  g_return_val_if_fail (s->sys != NULL && jobs > 0, NULL);
  HydStudyPool *pool = g_new0 (HydStudyPool, 1);
  pool->study = s;
  g_mutex_init (&pool->lock);
  pool->runs = runs;
  pool->n_runs = n_runs;
  pool->results = g_async_queue_new ();
  pool->threads = g_ptr_array_new ();
  pool->running = jobs;
  for (guint k = 0; k < jobs; k++)
    g_ptr_array_add (pool->threads, g_thread_new ("hyd-study", pool_thread, pool));
  return pool;
}

HydStudyPool *
hyd_study_pool_new_isolated (HydStudy *s, guint jobs, const guint64 *runs, guint64 n_runs)
{
  g_return_val_if_fail (s->sys != NULL && jobs > 0, NULL);
  HydStudyPool *pool = g_new0 (HydStudyPool, 1);
  pool->study = s;
  g_mutex_init (&pool->lock);
  pool->runs = runs;
  pool->n_runs = n_runs;
  pool->results = g_async_queue_new ();
  pool->threads = g_ptr_array_new ();
  pool->n_children = jobs;
  pool->children = g_new0 (Child, jobs);
  for (guint k = 0; k < jobs; k++)
    child_init (&pool->children[k], s);
  pool->metrics = g_new0 (double, s->metrics->len + 1);
  return pool;
}

static void
pool_row (HydStudyPool *pool, Child *c, const char *status, char *message, guint64 *run, char **row,
          gboolean *ok)
{
  *run = c->run;
  *ok = strcmp (status, "ok") == 0;
  *row = hyd_study_format_row (pool->study, c->run, c->values, status, pool->metrics, message);
  g_free (message);
}

static gboolean
pool_pop_isolated (HydStudyPool *pool, gint64 timeout_us, guint64 *run, char **row, gboolean *ok,
                   gboolean *done)
{
  HydStudy *s = pool->study;
  gint64 end = timeout_us < 0 ? G_MAXINT64 : g_get_monotonic_time () + timeout_us;
  g_autofree struct pollfd *pfd = g_new (struct pollfd, pool->n_children);
  g_autofree guint *which = g_new (guint, pool->n_children);
  for (;;)
    {
      if (g_atomic_int_get (&pool->cancel))
        {
          for (guint k = 0; k < pool->n_children; k++)
            child_stop (&pool->children[k]);
          *done = TRUE;
          return FALSE;
        }
      /* runs to the idle children; an idle child with none left ends */
      guint n = 0;
      gint64 first_limit = G_MAXINT64;
      for (guint k = 0; k < pool->n_children; k++)
        {
          Child *c = &pool->children[k];
          guint64 next;
          if (!c->busy && hyd_study_pool_take (pool, &next))
            {
              g_autoptr (GError) error = NULL;
              c->run = next;
              hyd_study_get_values (s, next, c->values);
              if (!child_send (s, c, c->values, &error))
                {
                  pool_row (pool, c, "crashed",
                            g_strdup_printf ("no process could be started for the run: %s", error->message), run,
                            row, ok);
                  return TRUE;
                }
            }
          else if (!c->busy)
            child_stop (c);
          if (c->busy)
            {
              pfd[n] = (struct pollfd) { .fd = c->fd, .events = POLLIN };
              which[n++] = k;
              if (c->limit)
                first_limit = MIN (first_limit, c->limit);
            }
        }
      if (n == 0)
        {
          *done = TRUE;
          return FALSE;
        }
      gint64 now = g_get_monotonic_time ();
      for (guint i = 0; i < n; i++)
        {
          Child *c = &pool->children[which[i]];
          if (c->limit && now >= c->limit)
            {
              pool_row (pool, c, "timeout", child_kill_late (s, c), run, row, ok);
              return TRUE;
            }
        }
      gint64 until = MIN (end, first_limit);
      int wait_ms = until == G_MAXINT64 ? -1 : (int) CLAMP ((until - now + 999) / 1000, 0, G_MAXINT);
      int got = poll (pfd, n, wait_ms);
      if (got < 0 && errno != EINTR)
        g_error ("hyd_study_pool_pop: poll: %s", g_strerror (errno));
      for (guint i = 0; got > 0 && i < n; i++)
        {
          if (pfd[i].revents == 0)
            continue;
          Child *c = &pool->children[which[i]];
          const char *status;
          char *message = NULL;
          if (child_read (s, c, &status, pool->metrics, &message) != CHILD_MORE)
            {
              pool_row (pool, c, status, message, run, row, ok);
              return TRUE;
            }
        }
      if (got == 0 && g_get_monotonic_time () >= end)
        return FALSE;
    }
}

gboolean
hyd_study_pool_pop (HydStudyPool *pool, gint64 timeout_us, guint64 *run, char **row, gboolean *ok,
                    gboolean *done)
{
  *done = FALSE;
  if (pool->children)
    return pool_pop_isolated (pool, timeout_us, run, row, ok, done);
  for (;;)
    {
      if (pool->running == 0 && g_async_queue_length (pool->results) <= 0)
        {
          *done = TRUE;
          return FALSE;
        }
      PoolResult *r = timeout_us < 0 ? g_async_queue_pop (pool->results)
                                     : g_async_queue_timeout_pop (pool->results, (guint64) timeout_us);
      if (r == NULL)
        return FALSE;
      if (r->row == NULL)
        {
          pool->running--;
          g_free (r);
          continue;
        }
      *run = r->run;
      *row = r->row;
      *ok = r->ok;
      g_free (r);
      return TRUE;
    }
}

void
hyd_study_pool_cancel (HydStudyPool *pool)
{
  g_atomic_int_set (&pool->cancel, 1);
}

void
hyd_study_pool_free (HydStudyPool *pool)
{
  if (pool == NULL)
    return;
  hyd_study_pool_cancel (pool);
  for (guint k = 0; k < pool->threads->len; k++)
    g_thread_join (pool->threads->pdata[k]);
  g_ptr_array_unref (pool->threads);
  for (guint k = 0; k < pool->n_children; k++)
    child_clear (&pool->children[k]);
  g_free (pool->children);
  g_free (pool->metrics);
  PoolResult *r;
  while ((r = g_async_queue_try_pop (pool->results)) != NULL)
    {
      g_free (r->row);
      g_free (r);
    }
  g_async_queue_unref (pool->results);
  g_mutex_clear (&pool->lock);
  g_free (pool);
}
