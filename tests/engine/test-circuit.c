/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-circuit.c — the circuit document (spec/circuit-format.md): loader
 * errors and their messages, profile semantics, the JSON writer, the exact
 * save → load → save round trip and the simulation defaults. */
#include <glib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "hyd-catalogue.h"
#include "hyd-circuit.h"
#include "hyd-json-writer.h"
#include "hyd-profile.h"

/* A minimal document around a components list and a connections list. */
#define DOC(components, connections) \
  "{ \"format\": \"bramah-circuit\", \"version\": 1, \"components\": [" components \
  "], \"connections\": [" connections "] }"

#define DOC_EXTRA(extra, components, connections) \
  "{ \"format\": \"bramah-circuit\", \"version\": 1, " extra ", \"components\": [" \
  components "], \"connections\": [" connections "] }"

static JsonNode *
parse_json (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static HydProfile *
profile_from_text (const char *text)
{
  g_autoptr(JsonNode) node = parse_json (text);
  g_autoptr(GError) error = NULL;
  HydProfile *profile = hyd_profile_new_from_json (node, &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);
  return profile;
}

static HydCircuit *
load_ok (const char *text)
{
  g_autoptr(GError) error = NULL;
  HydCircuit *circuit = hyd_circuit_load_from_data (text, -1, "test.bramah", &error);

  g_assert_no_error (error);
  g_assert_nonnull (circuit);
  return circuit;
}

static void
assert_contains (const char *message, const char *const *needles)
{
  for (guint i = 0; needles[i] != NULL; i++)
    if (strstr (message, needles[i]) == NULL)
      g_error ("message \"%s\" does not contain \"%s\"", message, needles[i]);
}

/* ---------------------------------------------------------------------------
 * JSON writer
 * ------------------------------------------------------------------------- */

static void
test_writer_numbers (void)
{
  static const struct {
    double value;
    const char *text;
  } cases[] = {
    { 0.1, "0.1" },
    { 1e-9, "1e-9" },
    { 5e-5, "5e-5" },
    { 1.667e-3, "0.001667" },
    { 3.2e-5, "3.2e-5" },
    { 240.0, "240" },
    { -2.5, "-2.5" },
    { 1e7, "10000000" },
    { 1.5e9, "1500000000" },
    { 1e20, "1e20" },
    { 6.02214076e23, "6.02214076e23" },
    { -1.25e-300, "-1.25e-300" },
    { 0.0, "0" },
    { -0.0, "0" },
    { 1.0 / 3.0, "0.3333333333333333" },
    { 0.1 + 0.2, "0.30000000000000004" },
    { 101325, "101325" },
  };
  char buf[HYD_JSON_DOUBLE_BUF_SIZE];
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240611);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpstr (hyd_json_format_double (cases[i].value, buf), ==, cases[i].text);

  /* Any finite double reads back exactly, and no shorter precision would. */
  for (guint i = 0; i < 20000; i++)
    {
      union { guint64 bits; double value; } u;
      u.bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      if (!isfinite (u.value))
        continue;
      hyd_json_format_double (u.value, buf);
      g_assert_cmpfloat (g_ascii_strtod (buf, NULL), ==, u.value);
      g_assert_null (strchr (buf, ','));
    }
  for (guint i = 0; i < 2000; i++)
    {
      double v = g_rand_double_range (rand, -1e3, 1e3);
      char shorter[64];
      hyd_json_format_double (v, buf);
      g_assert_cmpfloat (g_ascii_strtod (buf, NULL), ==, v);
      g_ascii_formatd (shorter, sizeof shorter, "%.15g", v);
      if (g_ascii_strtod (shorter, NULL) == v)
        g_assert_cmpuint (strlen (buf), <=, strlen (shorter));
    }
}

static void
test_writer_layout (void)
{
  static const char *input =
    "{\"name\": \"Zylinder \\u00e4 \\u2013 \\ud83d\\ude00\", \"esc\": \"a\\\"b\\\\c\\nd\\te\\u0001f\","
    " \"int\": 42, \"big\": -9007199254740993, \"dbl\": 0.10, \"t\": true, \"f\": false, \"n\": null,"
    " \"pos\": [240.0, 120.0], \"route\": [[300, 120], [300, 200]],"
    " \"long\": [[0, 0], [0.5, 0.25], [1, 1], [1.5, 2.25], [2, 4], [2.5, 6.25], [3, 9]],"
    " \"strings\": [\"C1.x\", \"C1.A.p\"], \"mixed\": [1, \"a\"], \"empty_a\": [], \"empty_o\": {},"
    " \"nested\": {\"k\": {\"z\": 1, \"a\": [1e-9]}}}";
  static const char *expected =
    "{\n"
    "  \"name\": \"Zylinder ä – 😀\",\n"
    "  \"esc\": \"a\\\"b\\\\c\\nd\\te\\u0001f\",\n"
    "  \"int\": 42,\n"
    "  \"big\": -9007199254740993,\n"
    "  \"dbl\": 0.1,\n"
    "  \"t\": true,\n"
    "  \"f\": false,\n"
    "  \"n\": null,\n"
    "  \"pos\": [240, 120],\n"
    "  \"route\": [[300, 120], [300, 200]],\n"
    "  \"long\": [\n"
    "    [0, 0],\n"
    "    [0.5, 0.25],\n"
    "    [1, 1],\n"
    "    [1.5, 2.25],\n"
    "    [2, 4],\n"
    "    [2.5, 6.25],\n"
    "    [3, 9]\n"
    "  ],\n"
    "  \"strings\": [\n"
    "    \"C1.x\",\n"
    "    \"C1.A.p\"\n"
    "  ],\n"
    "  \"mixed\": [\n"
    "    1,\n"
    "    \"a\"\n"
    "  ],\n"
    "  \"empty_a\": [],\n"
    "  \"empty_o\": {},\n"
    "  \"nested\": {\n"
    "    \"k\": {\n"
    "      \"z\": 1,\n"
    "      \"a\": [1e-9]\n"
    "    }\n"
    "  }\n"
    "}\n";
  g_autoptr(JsonNode) node = parse_json (input);
  g_autofree char *text = NULL;
  g_autofree char *again = NULL;
  g_autoptr(JsonNode) reparsed = NULL;
  gsize length = 0;

  text = hyd_json_to_string (node, &length);
  g_assert_cmpstr (text, ==, expected);
  g_assert_cmpuint (length, ==, strlen (expected));

  /* write → parse → write is stable */
  reparsed = parse_json (text);
  again = hyd_json_to_string (reparsed, NULL);
  g_assert_cmpstr (again, ==, text);
}

static void
test_writer_locale (void)
{
  /* The decimal point is '.' whatever the locale (g_ascii_formatd). */
  char buf[HYD_JSON_DOUBLE_BUF_SIZE];
  g_autofree char *saved = g_strdup (setlocale (LC_NUMERIC, NULL));

  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL)
    {
      g_test_skip ("no de_DE.UTF-8 locale");
      return;
    }
  g_assert_cmpstr (hyd_json_format_double (0.25, buf), ==, "0.25");
  setlocale (LC_NUMERIC, saved);
}

/* ---------------------------------------------------------------------------
 * Profiles
 * ------------------------------------------------------------------------- */

static void
test_profile_constant (void)
{
  g_autoptr(HydProfile) a = hyd_profile_new_constant (3.5);
  g_autoptr(HydProfile) b = profile_from_text ("3.5");
  g_autoptr(HydProfile) c = profile_from_text ("4");
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  double dv = 1, lo, hi;

  g_assert_true (hyd_profile_is_constant (a));
  g_assert_cmpint (hyd_profile_get_kind (b), ==, HYD_PROFILE_CONSTANT);
  g_assert_cmpfloat (hyd_profile_eval (a, 7, 7, &dv), ==, 3.5);
  g_assert_cmpfloat (dv, ==, 0);
  g_assert_true (hyd_profile_equal (a, b));
  g_assert_false (hyd_profile_equal (a, c));
  g_assert_cmpfloat (hyd_profile_value_after (c, 0), ==, 4);
  hyd_profile_get_range (c, &lo, &hi);
  g_assert_cmpfloat (lo, ==, 4);
  g_assert_cmpfloat (hi, ==, 4);
  hyd_profile_collect_breakpoints (a, times);
  g_assert_cmpuint (times->len, ==, 0);
}

static void
test_profile_step (void)
{
  g_autoptr(HydProfile) p = profile_from_text (
    "{ \"step\": { \"times\": [1.0, 3.0], \"values\": [0.0, 1.0, -1.0] } }");
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  double dv = 1, lo, hi;

  g_assert_cmpint (hyd_profile_get_kind (p), ==, HYD_PROFILE_STEP);
  g_assert_false (hyd_profile_is_constant (p));

  /* Interval [0, 1]: every evaluation, t = 1 included, uses the first piece. */
  g_assert_cmpfloat (hyd_profile_eval (p, 0.0, 0.5, &dv), ==, 0.0);
  g_assert_cmpfloat (dv, ==, 0.0);
  g_assert_cmpfloat (hyd_profile_eval (p, 1.0, 0.5, NULL), ==, 0.0);
  /* the restart at t = 1 uses the next piece */
  g_assert_cmpfloat (hyd_profile_eval (p, 1.0, 1.5, NULL), ==, 1.0);
  g_assert_cmpfloat (hyd_profile_value_after (p, 1.0), ==, 1.0);
  g_assert_cmpfloat (hyd_profile_value_after (p, 0.999), ==, 0.0);
  /* interval [1, 3] and the last piece */
  g_assert_cmpfloat (hyd_profile_eval (p, 3.0, 2.0, NULL), ==, 1.0);
  g_assert_cmpfloat (hyd_profile_value_after (p, 3.0), ==, -1.0);
  g_assert_cmpfloat (hyd_profile_eval (p, 10.0, 9.0, &dv), ==, -1.0);
  g_assert_cmpfloat (dv, ==, 0.0);
  g_assert_cmpfloat (hyd_profile_value_after (p, -5.0), ==, 0.0);

  hyd_profile_get_range (p, &lo, &hi);
  g_assert_cmpfloat (lo, ==, -1.0);
  g_assert_cmpfloat (hi, ==, 1.0);

  hyd_profile_collect_breakpoints (p, times);
  g_assert_cmpuint (times->len, ==, 2);
  g_assert_cmpfloat (g_array_index (times, double, 0), ==, 1.0);
  g_assert_cmpfloat (g_array_index (times, double, 1), ==, 3.0);

  /* A step at t = 0: the value in force just after 0 is the new one. */
  {
    g_autoptr(HydProfile) at0 = profile_from_text (
      "{ \"step\": { \"times\": [0], \"values\": [1, 0.5] } }");
    g_assert_cmpfloat (hyd_profile_value_after (at0, 0.0), ==, 0.5);
    g_assert_cmpfloat (hyd_profile_eval (at0, 0.0, -0.5, NULL), ==, 1.0);
  }
}

static void
test_profile_ramp (void)
{
  g_autoptr(HydProfile) p = profile_from_text (
    "{ \"ramp\": { \"points\": [[0, 0], [1, 1], [3, 1], [3.5, -1]] } }");
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  double dv, lo, hi;

  g_assert_cmpint (hyd_profile_get_kind (p), ==, HYD_PROFILE_RAMP);

  /* before the first point: hold */
  g_assert_cmpfloat (hyd_profile_eval (p, -1.0, -0.5, &dv), ==, 0.0);
  g_assert_cmpfloat (dv, ==, 0.0);
  /* first segment */
  g_assert_cmpfloat_with_epsilon (hyd_profile_eval (p, 0.25, 0.5, &dv), 0.25, 1e-15);
  g_assert_cmpfloat (dv, ==, 1.0);
  g_assert_cmpfloat (hyd_profile_eval (p, 1.0, 0.5, NULL), ==, 1.0);
  /* the piece's formula extends linearly beyond its end */
  g_assert_cmpfloat_with_epsilon (hyd_profile_eval (p, 1.25, 0.5, NULL), 1.25, 1e-15);
  /* flat segment */
  g_assert_cmpfloat (hyd_profile_eval (p, 2.0, 2.0, &dv), ==, 1.0);
  g_assert_cmpfloat (dv, ==, 0.0);
  /* falling segment, left limit at its end */
  g_assert_cmpfloat (hyd_profile_eval (p, 3.5, 3.25, &dv), ==, -1.0);
  g_assert_cmpfloat (dv, ==, -4.0);
  g_assert_cmpfloat_with_epsilon (hyd_profile_eval (p, 3.25, 3.25, NULL), 0.0, 1e-15);
  /* after the last point: hold */
  g_assert_cmpfloat (hyd_profile_eval (p, 9.0, 5.0, &dv), ==, -1.0);
  g_assert_cmpfloat (dv, ==, 0.0);
  g_assert_cmpfloat (hyd_profile_value_after (p, 3.5), ==, -1.0);

  hyd_profile_get_range (p, &lo, &hi);
  g_assert_cmpfloat (lo, ==, -1.0);
  g_assert_cmpfloat (hi, ==, 1.0);

  hyd_profile_collect_breakpoints (p, times);
  g_assert_cmpuint (times->len, ==, 4);
  g_assert_cmpfloat (g_array_index (times, double, 3), ==, 3.5);
}

static void
test_profile_ramp_jump (void)
{
  /* Two equal times make a jump: left limit 1, right limit 5. */
  g_autoptr(HydProfile) p = profile_from_text (
    "{ \"ramp\": { \"points\": [[0, 0], [2, 1], [2, 5], [4, 5]] } }");
  g_autoptr(HydProfile) start = profile_from_text (
    "{ \"ramp\": { \"points\": [[1, 7], [1, 0], [2, 1]] } }");
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  double dv, lo, hi;

  g_assert_cmpfloat (hyd_profile_eval (p, 2.0, 1.5, &dv), ==, 1.0);
  g_assert_cmpfloat (dv, ==, 0.5);
  g_assert_cmpfloat (hyd_profile_value_after (p, 2.0), ==, 5.0);
  g_assert_cmpfloat (hyd_profile_eval (p, 2.0, 2.5, &dv), ==, 5.0);
  g_assert_cmpfloat (dv, ==, 0.0);

  hyd_profile_collect_breakpoints (p, times);
  g_assert_cmpuint (times->len, ==, 3);
  g_assert_cmpfloat (g_array_index (times, double, 0), ==, 0.0);
  g_assert_cmpfloat (g_array_index (times, double, 1), ==, 2.0);
  g_assert_cmpfloat (g_array_index (times, double, 2), ==, 4.0);
  hyd_profile_get_range (p, &lo, &hi);
  g_assert_cmpfloat (lo, ==, 0.0);
  g_assert_cmpfloat (hi, ==, 5.0);

  /* A jump at the first time: the value before it is the first point's. */
  g_assert_cmpfloat (hyd_profile_eval (start, 1.0, 0.5, NULL), ==, 7.0);
  g_assert_cmpfloat (hyd_profile_value_after (start, 1.0), ==, 0.0);
  g_assert_cmpfloat (hyd_profile_eval (start, 2.0, 1.5, &dv), ==, 1.0);
  g_assert_cmpfloat (dv, ==, 1.0);
}

static void
test_profile_table (void)
{
  g_autoptr(HydProfile) p = profile_from_text (
    "{ \"table\": { \"points\": [[0, 10], [10, 20]] } }");
  g_autoptr(JsonNode) node = hyd_profile_to_json (p);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *text = NULL;
  double dv;

  g_assert_cmpint (hyd_profile_get_kind (p), ==, HYD_PROFILE_TABLE);
  g_assert_cmpfloat (hyd_profile_eval (p, 5.0, 5.0, &dv), ==, 15.0);
  g_assert_cmpfloat (dv, ==, 1.0);
  g_assert_cmpfloat (hyd_profile_eval (p, 11.0, 11.0, &dv), ==, 20.0);
  g_assert_cmpfloat (dv, ==, 0.0);
  hyd_profile_collect_breakpoints (p, times);
  g_assert_cmpuint (times->len, ==, 2);

  text = hyd_json_to_string (node, NULL);
  g_assert_cmpstr (text, ==,
                   "{\n  \"table\": {\n    \"points\": [[0, 10], [10, 20]]\n  }\n}\n");
}

static void
test_profile_sine (void)
{
  g_autoptr(HydProfile) p = profile_from_text (
    "{ \"sine\": { \"offset\": 1e-3, \"amplitude\": -6.7e-4, \"frequency\": 10, \"phase\": 0.5 } }");
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  double dv, lo, hi, t = 0.0123;
  double w = 2 * G_PI * 10;

  g_assert_cmpint (hyd_profile_get_kind (p), ==, HYD_PROFILE_SINE);
  g_assert_cmpfloat_with_epsilon (hyd_profile_eval (p, t, 0.9, &dv),
                                  1e-3 - 6.7e-4 * sin (w * t + 0.5), 1e-18);
  g_assert_cmpfloat_with_epsilon (dv, -6.7e-4 * w * cos (w * t + 0.5), 1e-15);

  hyd_profile_get_range (p, &lo, &hi);
  g_assert_cmpfloat_with_epsilon (lo, 1e-3 - 6.7e-4, 1e-18);
  g_assert_cmpfloat_with_epsilon (hi, 1e-3 + 6.7e-4, 1e-18);

  hyd_profile_collect_breakpoints (p, times);
  g_assert_cmpuint (times->len, ==, 0);

  /* offset and phase are optional */
  {
    g_autoptr(HydProfile) q = profile_from_text (
      "{ \"sine\": { \"amplitude\": 2, \"frequency\": 0.25 } }");
    g_assert_cmpfloat_with_epsilon (hyd_profile_eval (q, 1.0, 1.0, NULL), 2.0, 1e-15);
  }
}

static void
test_profile_json (void)
{
  static const char *const texts[] = {
    "{ \"step\": { \"times\": [2.0], \"values\": [0, 5000] } }",
    "{ \"ramp\": { \"points\": [[0, 0], [1, 1], [3, 1], [3.5, -1]] } }",
    "{ \"sine\": { \"offset\": 1e-3, \"amplitude\": 6.7e-4, \"frequency\": 10, \"phase\": 0 } }",
    "{ \"table\": { \"points\": [[0, 0.1], [1e-3, 0.2]] } }",
    "0.125",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(HydProfile) p = profile_from_text (texts[i]);
      g_autoptr(JsonNode) node = hyd_profile_to_json (p);
      g_autoptr(GError) error = NULL;
      g_autoptr(HydProfile) back = hyd_profile_new_from_json (node, &error);
      g_autoptr(HydProfile) copy = hyd_profile_copy (p);

      g_assert_no_error (error);
      g_assert_true (hyd_profile_equal (p, back));
      g_assert_true (hyd_profile_equal (p, copy));
      for (guint j = 0; j < G_N_ELEMENTS (texts); j++)
        if (j != i)
          {
            g_autoptr(HydProfile) other = profile_from_text (texts[j]);
            g_assert_false (hyd_profile_equal (p, other));
          }
    }

  {
    g_autoptr(HydProfile) p = profile_from_text (texts[0]);
    g_autoptr(JsonNode) node = hyd_profile_to_json (p);
    g_autofree char *text = hyd_json_to_string (node, NULL);
    g_assert_cmpstr (text, ==,
                     "{\n  \"step\": {\n    \"times\": [2],\n    \"values\": [0, 5000]\n  }\n}\n");
  }

  /* Same profile written differently is equal; a different value is not. */
  {
    g_autoptr(HydProfile) a = profile_from_text ("{ \"step\": { \"times\": [1], \"values\": [0, 2] } }");
    g_autoptr(HydProfile) b = profile_from_text ("{ \"step\": { \"values\": [0.0, 2.0], \"times\": [1.0] } }");
    g_autoptr(HydProfile) c = profile_from_text ("{ \"step\": { \"times\": [1], \"values\": [0, 3] } }");
    g_assert_true (hyd_profile_equal (a, b));
    g_assert_false (hyd_profile_equal (a, c));
  }
}

static void
test_profile_errors (void)
{
  static const struct {
    const char *json;
    const char *needle;
  } cases[] = {
    { "{ \"step\": { \"times\": [1, 1], \"values\": [0, 1, 2] } }", "step: times must be strictly increasing" },
    { "{ \"step\": { \"times\": [2, 1], \"values\": [0, 1, 2] } }", "step: times must be strictly increasing" },
    { "{ \"step\": { \"times\": [1, 2], \"values\": [0, 1] } }", "step: needs len(values) = len(times) + 1" },
    { "{ \"step\": { \"times\": [1] } }", "step: missing \"values\"" },
    { "{ \"step\": { \"times\": [\"a\"], \"values\": [0, 1] } }", "\"times\" must be an array of numbers" },
    { "{ \"step\": { \"times\": [1], \"values\": [0, 1], \"extra\": 1 } }", "unknown key \"extra\"" },
    { "{ \"ramp\": { \"points\": [[0, 0], [2, 1], [1, 2]] } }", "ramp: times must be non-decreasing" },
    { "{ \"ramp\": { \"points\": [[0, 0], [1, 1], [1, 2], [1, 3]] } }", "more than two points at t = 1" },
    { "{ \"ramp\": { \"points\": [] } }", "ramp: needs at least one point" },
    { "{ \"table\": { \"points\": [[0, 0, 1]] } }", "table: point 0 is not a [time, value] pair" },
    { "{ \"table\": { \"points\": 3 } }", "\"points\" must be an array" },
    { "{ \"sine\": { \"offset\": 1, \"frequency\": 1 } }", "sine: missing \"amplitude\"" },
    { "{ \"sine\": { \"amplitude\": 1, \"frequency\": -1 } }", "frequency must be ≥ 0" },
    { "{ \"sine\": { \"amplitude\": \"big\", \"frequency\": 1 } }", "\"amplitude\" must be a number" },
    { "{ \"pulse\": { \"times\": [1] } }", "unknown profile kind \"pulse\"" },
    { "{ \"step\": { \"times\": [1], \"values\": [0, 1] }, \"ramp\": { \"points\": [[0, 0]] } }",
      "exactly one key" },
    { "{}", "exactly one key" },
    { "{ \"step\": [1, 2] }", "step: expected an object" },
    { "\"fast\"", "expected a number or a profile object" },
    { "[1, 2]", "expected a number or a profile object" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = parse_json (cases[i].json);
      g_autoptr(GError) error = NULL;
      g_autoptr(HydProfile) p = hyd_profile_new_from_json (node, &error);

      g_assert_null (p);
      g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_VALUE);
      if (strstr (error->message, cases[i].needle) == NULL)
        g_error ("case %u: \"%s\" does not contain \"%s\"", i, error->message, cases[i].needle);
    }
}

/* ---------------------------------------------------------------------------
 * Loader errors
 * ------------------------------------------------------------------------- */

#define ORIFICE(id, params) "{ \"id\": \"" id "\", \"type\": \"orifice\", \"params\": { " params " } }"
#define DCV(id, params) "{ \"id\": \"" id "\", \"type\": \"dcv_4_3\", \"params\": { " params " } }"
#define CYL(id, params) "{ \"id\": \"" id "\", \"type\": \"cylinder_double\", \"params\": { " params " } }"
#define TANK(id) "{ \"id\": \"" id "\", \"type\": \"tank\" }"
#define GAUGE(id) "{ \"id\": \"" id "\", \"type\": \"pressure_gauge\" }"
#define CONN(from, to) "{ \"from\": \"" from "\", \"to\": \"" to "\" }"
#define JUNCTIONS(list) "\"junctions\": [" list "]"
#define JUNCTION(id) "{ \"id\": \"" id "\" }"
#define FLUID(body) "\"fluid\": { " body " }"
#define SIM(body) "\"simulation\": { " body " }"

typedef struct {
  const char *name;
  const char *document;
  HydCircuitErrorCode code;
  const char *needles[6];
} LoadErrorCase;

static const LoadErrorCase load_error_cases[] = {
  /* JSON syntax and document structure */
  { "syntax", "{\n  \"format\": \"bramah-circuit\",\n  \"version\": 1,\n  \"components\": [\n"
    "    { \"id\": \"O1\" \"type\": \"orifice\" }\n  ]\n}\n",
    HYD_CIRCUIT_ERROR_PARSE, { "test.bramah:5:", "Parse error" } },
  { "syntax-trailing", "{ \"format\": \"bramah-circuit\" } x",
    HYD_CIRCUIT_ERROR_PARSE, { "test.bramah:1:" } },
  { "empty", "  \n", HYD_CIRCUIT_ERROR_PARSE, { "test.bramah:1:1:", "empty" } },
  { "not-object", "[1, 2]", HYD_CIRCUIT_ERROR_FORMAT, { "not a Bramah circuit" } },
  { "no-format", "{ \"version\": 1, \"components\": [], \"connections\": [] }",
    HYD_CIRCUIT_ERROR_FORMAT, { "\"format\"", "bramah-circuit" } },
  { "wrong-format", "{ \"format\": \"kicad\", \"version\": 1, \"components\": [], \"connections\": [] }",
    HYD_CIRCUIT_ERROR_FORMAT, { "\"kicad\"", "bramah-circuit" } },
  { "no-version", "{ \"format\": \"bramah-circuit\", \"components\": [], \"connections\": [] }",
    HYD_CIRCUIT_ERROR_FORMAT, { "\"version\"" } },
  { "version-string", "{ \"format\": \"bramah-circuit\", \"version\": \"1\", \"components\": [], \"connections\": [] }",
    HYD_CIRCUIT_ERROR_FORMAT, { "\"version\" must be an integer" } },
  { "version-float", "{ \"format\": \"bramah-circuit\", \"version\": 1.5, \"components\": [], \"connections\": [] }",
    HYD_CIRCUIT_ERROR_FORMAT, { "\"version\" must be an integer", "1.5" } },
  { "version-newer", "{ \"format\": \"bramah-circuit\", \"version\": 4, \"components\": [{ \"id\": \"X\", \"type\": \"warp_drive\" }], \"connections\": [] }",
    HYD_CIRCUIT_ERROR_VERSION, { "file version 4 is newer than this Bramah reads (3)" } },
  { "version-zero", "{ \"format\": \"bramah-circuit\", \"version\": 0, \"components\": [], \"connections\": [] }",
    HYD_CIRCUIT_ERROR_FORMAT, { "\"version\"", "0" } },
  { "no-components", "{ \"format\": \"bramah-circuit\", \"version\": 1, \"connections\": [] }",
    HYD_CIRCUIT_ERROR_FORMAT, { "missing required key \"components\"" } },
  { "no-connections", "{ \"format\": \"bramah-circuit\", \"version\": 1, \"components\": [] }",
    HYD_CIRCUIT_ERROR_FORMAT, { "missing required key \"connections\"" } },
  { "components-not-array", "{ \"format\": \"bramah-circuit\", \"version\": 1, \"components\": {}, \"connections\": [] }",
    HYD_CIRCUIT_ERROR_FORMAT, { "\"components\" must be an array" } },
  { "title-number", DOC_EXTRA ("\"title\": 5", "", ""),
    HYD_CIRCUIT_ERROR_FORMAT, { "\"title\" must be a string" } },
  { "component-not-object", DOC ("3", ""), HYD_CIRCUIT_ERROR_FORMAT, { "components[0]" } },
  { "component-no-id", DOC (TANK ("T1") ", { \"type\": \"tank\" }", ""),
    HYD_CIRCUIT_ERROR_FORMAT, { "components[1]", "\"id\"" } },
  { "component-no-type", DOC ("{ \"id\": \"T1\" }", ""),
    HYD_CIRCUIT_ERROR_FORMAT, { "component \"T1\"", "\"type\"" } },
  { "rotation", DOC ("{ \"id\": \"T1\", \"type\": \"tank\", \"rotation\": 45 }", ""),
    HYD_CIRCUIT_ERROR_FORMAT, { "component \"T1\"", "\"rotation\"", "0, 90, 180 or 270" } },
  { "position", DOC ("{ \"id\": \"T1\", \"type\": \"tank\", \"position\": [1] }", ""),
    HYD_CIRCUIT_ERROR_FORMAT, { "component \"T1\"", "\"position\"" } },
  { "mirror", DOC ("{ \"id\": \"T1\", \"type\": \"tank\", \"mirror\": 1 }", ""),
    HYD_CIRCUIT_ERROR_FORMAT, { "component \"T1\"", "\"mirror\"" } },
  { "params-not-object", DOC ("{ \"id\": \"T1\", \"type\": \"tank\", \"params\": [] }", ""),
    HYD_CIRCUIT_ERROR_FORMAT, { "component \"T1\"", "\"params\" must be an object" } },

  /* ids */
  { "id-digit", DOC (TANK ("1T"), ""), HYD_CIRCUIT_ERROR_ID, { "\"1T\"", "not valid" } },
  { "id-dot", DOC (TANK ("T.1"), ""), HYD_CIRCUIT_ERROR_ID, { "\"T.1\"", "not valid" } },
  { "id-empty", DOC (TANK (""), ""), HYD_CIRCUIT_ERROR_ID, { "\"\"", "not valid" } },
  { "id-long", DOC (TANK ("A23456789012345678901234567890123"), ""), HYD_CIRCUIT_ERROR_ID,
    { "A23456789012345678901234567890123", "32" } },
  { "id-duplicate", DOC (TANK ("T1") ", " TANK ("T1"), ""), HYD_CIRCUIT_ERROR_ID,
    { "duplicate id \"T1\"" } },
  { "id-duplicate-junction", DOC_EXTRA (JUNCTIONS (JUNCTION ("T1")), TANK ("T1"), ""),
    HYD_CIRCUIT_ERROR_ID, { "duplicate id \"T1\"", "component", "junction" } },
  { "junction-id", DOC_EXTRA (JUNCTIONS (JUNCTION ("J-1")), "", ""),
    HYD_CIRCUIT_ERROR_ID, { "junction", "\"J-1\"" } },

  /* types and parameters */
  { "unknown-type", DOC ("{ \"id\": \"X1\", \"type\": \"frobnicator\" }", ""),
    HYD_CIRCUIT_ERROR_UNKNOWN_TYPE, { "\"X1\"", "\"frobnicator\"" } },
  { "unknown-param", DOC (ORIFICE ("O1", "\"diamter\": 0.002"), ""),
    HYD_CIRCUIT_ERROR_UNKNOWN_PARAM, { "\"O1\"", "\"diamter\"", "diameter", "discharge_coefficient" } },
  { "param-string", DOC (ORIFICE ("O1", "\"diameter\": \"2 mm\""), ""),
    HYD_CIRCUIT_ERROR_PARAM_VALUE, { "\"O1\"", "\"diameter\"", "number", "\"2 mm\"" } },
  { "param-bool", DOC (ORIFICE ("O1", "\"diameter\": true"), ""),
    HYD_CIRCUIT_ERROR_PARAM_VALUE, { "\"O1\"", "\"diameter\"", "number" } },
  { "param-profile-not-allowed",
    DOC (ORIFICE ("O1", "\"diameter\": { \"step\": { \"times\": [1], \"values\": [0.001, 0.002] } }"), ""),
    HYD_CIRCUIT_ERROR_PARAM_VALUE, { "\"O1\"", "\"diameter\"", "not a profile" } },
  { "param-range-positive", DOC (ORIFICE ("O1", "\"diameter\": -0.002"), ""),
    HYD_CIRCUIT_ERROR_PARAM_RANGE, { "\"O1\"", "\"diameter\"", "-0.002", "> 0" } },
  { "param-range-zero", DOC (ORIFICE ("O1", "\"diameter\": 0"), ""),
    HYD_CIRCUIT_ERROR_PARAM_RANGE, { "\"O1\"", "\"diameter\"", "> 0" } },
  { "param-range-interval", DOC (ORIFICE ("O1", "\"discharge_coefficient\": 1.5"), ""),
    HYD_CIRCUIT_ERROR_PARAM_RANGE, { "\"O1\"", "\"discharge_coefficient\"", "1.5", "(0, 1]" } },
  { "relief-cracking", DOC ("{ \"id\": \"RV1\", \"type\": \"relief_valve\", \"params\": { \"cracking_pressure\": -1e5 } }", ""),
    HYD_CIRCUIT_ERROR_PARAM_RANGE, { "\"RV1\"", "\"cracking_pressure\"", "-100000", "> 0" } },
  { "dcv-command-constant", DOC (DCV ("V1", "\"command\": 2"), ""),
    HYD_CIRCUIT_ERROR_PARAM_RANGE, { "\"V1\"", "\"command\"", "2", "[-1, 1]" } },
  { "dcv-command-step",
    DOC (DCV ("V1", "\"command\": { \"step\": { \"times\": [1], \"values\": [0, 1.5] } }"), ""),
    HYD_CIRCUIT_ERROR_PARAM_RANGE, { "\"V1\"", "\"command\"", "from 0 to 1.5", "[-1, 1]" } },
  { "dcv-command-ramp",
    DOC (DCV ("V1", "\"command\": { \"ramp\": { \"points\": [[0, 0], [1, -1.25]] } }"), ""),
    HYD_CIRCUIT_ERROR_PARAM_RANGE, { "\"V1\"", "\"command\"", "-1.25", "[-1, 1]" } },
  { "dcv-command-sine",
    DOC (DCV ("V1", "\"command\": { \"sine\": { \"offset\": 0.5, \"amplitude\": -0.6, \"frequency\": 1 } }"), ""),
    HYD_CIRCUIT_ERROR_PARAM_RANGE, { "\"V1\"", "\"command\"", "1.1", "[-1, 1]" } },
  { "dcv-command-broken-step",
    DOC (DCV ("V1", "\"command\": { \"step\": { \"times\": [2, 1], \"values\": [0, 1, 0] } }"), ""),
    HYD_CIRCUIT_ERROR_PARAM_VALUE, { "\"V1\"", "\"command\"", "step: times must be strictly increasing" } },
  { "dcv-command-kind",
    DOC (DCV ("V1", "\"command\": { \"square\": { \"period\": 1 } }"), ""),
    HYD_CIRCUIT_ERROR_PARAM_VALUE, { "\"V1\"", "\"command\"", "unknown profile kind \"square\"" } },
  { "dcv-centre", DOC (DCV ("V1", "\"centre\": \"middle\""), ""),
    HYD_CIRCUIT_ERROR_PARAM_VALUE, { "\"V1\"", "\"centre\"", "\"middle\"", "\"closed\"", "\"tandem\"" } },
  { "dcv-centre-number", DOC (DCV ("V1", "\"centre\": 1"), ""),
    HYD_CIRCUIT_ERROR_PARAM_VALUE, { "\"V1\"", "\"centre\"", "\"open\"" } },
  { "cylinder-load-step",
    DOC (CYL ("C1", "\"load_force\": { \"step\": { \"times\": [1, 2], \"values\": [0, 5000] } }"), ""),
    HYD_CIRCUIT_ERROR_PARAM_VALUE, { "\"C1\"", "\"load_force\"", "len(values) = len(times) + 1" } },
  { "cylinder-rod", DOC (CYL ("C1", "\"piston_diameter\": 0.04, \"rod_diameter\": 0.05"), ""),
    HYD_CIRCUIT_ERROR_PARAM_RANGE, { "C1", "rod_diameter" } },
  { "line-segments", DOC ("{ \"id\": \"L1\", \"type\": \"line\", \"params\": { \"segments\": 2.5 } }", ""),
    HYD_CIRCUIT_ERROR_PARAM_VALUE, { "\"L1\"", "\"segments\"", "whole" } },

  /* connections */
  { "conn-no-from", DOC (TANK ("T1"), "{ \"to\": \"T1.T\" }"),
    HYD_CIRCUIT_ERROR_FORMAT, { "connections[0]", "\"from\"" } },
  { "conn-no-component", DOC (TANK ("T1"), CONN ("T1.T", "X9.P")),
    HYD_CIRCUIT_ERROR_REFERENCE, { "connections[0]", "\"X9.P\"", "no component \"X9\"" } },
  { "conn-no-port", DOC (TANK ("T1") ", " ORIFICE ("O1", ""), CONN ("T1.T", "O1.A") ", " CONN ("O1.C", "T1.T")),
    HYD_CIRCUIT_ERROR_REFERENCE, { "connections[1]", "\"O1.C\"", "no port \"C\"", "A, B" } },
  { "conn-no-junction", DOC (TANK ("T1"), CONN ("T1.T", "J9")),
    HYD_CIRCUIT_ERROR_REFERENCE, { "connections[0]", "\"J9\"" } },
  { "conn-bare-component", DOC (TANK ("T1") ", " ORIFICE ("O1", ""), CONN ("O1", "T1.T")),
    HYD_CIRCUIT_ERROR_REFERENCE, { "connections[0]", "\"O1\" is a component" } },
  { "conn-length", DOC (TANK ("T1") ", " ORIFICE ("O1", ""),
                        "{ \"from\": \"T1.T\", \"to\": \"O1.A\", \"length\": -1 }"),
    HYD_CIRCUIT_ERROR_PARAM_RANGE, { "connections[0]", "\"length\"", "-1" } },
  { "conn-diameter", DOC (TANK ("T1") ", " ORIFICE ("O1", ""),
                          "{ \"from\": \"T1.T\", \"to\": \"O1.A\", \"diameter\": 0 }"),
    HYD_CIRCUIT_ERROR_PARAM_RANGE, { "connections[0]", "\"diameter\"" } },
  { "conn-route", DOC (TANK ("T1") ", " ORIFICE ("O1", ""),
                       "{ \"from\": \"T1.T\", \"to\": \"O1.A\", \"route\": [[1, 2], [3]] }"),
    HYD_CIRCUIT_ERROR_FORMAT, { "connections[0]", "\"route\"" } },
  { "domain-direct", DOC (GAUGE ("G1") ", " ORIFICE ("O1", ""), CONN ("G1.S", "O1.A")),
    HYD_CIRCUIT_ERROR_DOMAIN, { "connections[0]", "G1.S", "O1.A", "signal", "hydraulic" } },
  { "domain-junction", DOC_EXTRA (JUNCTIONS (JUNCTION ("J1")), GAUGE ("G1") ", " ORIFICE ("O1", ""),
                                  CONN ("O1.A", "J1") ", " CONN ("J1", "G1.S")),
    HYD_CIRCUIT_ERROR_DOMAIN, { "connections[1]", "G1.S", "O1.A", "signal", "hydraulic" } },
  { "domain-junctions", DOC_EXTRA (JUNCTIONS (JUNCTION ("J1") ", " JUNCTION ("J2")),
                                   GAUGE ("G1") ", " ORIFICE ("O1", ""),
                                   CONN ("J1", "G1.S") ", " CONN ("O1.B", "J2") ", " CONN ("J2", "J1")),
    HYD_CIRCUIT_ERROR_DOMAIN, { "connections[2]", "G1.S", "O1.B" } },

  /* fluid */
  { "fluid-density", DOC_EXTRA (FLUID ("\"density\": -870"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "fluid", "\"density\"", "> 0", "-870" } },
  { "fluid-viscosity", DOC_EXTRA (FLUID ("\"kinematic_viscosity\": \"thick\""), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "fluid", "\"kinematic_viscosity\"", "number" } },
  { "fluid-bulk", DOC_EXTRA (FLUID ("\"bulk_modulus\": 0"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "fluid", "\"bulk_modulus\"", "> 0" } },
  { "fluid-model", DOC_EXTRA (FLUID ("\"bulk_modulus_model\": \"foam\""), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "fluid", "\"bulk_modulus_model\"", "\"foam\"", "tait" } },
  { "fluid-tait", DOC_EXTRA (FLUID ("\"tait_a\": 0.6"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "fluid", "\"tait_a\"", "(0, 0.5]", "0.6" } },
  { "fluid-air", DOC_EXTRA (FLUID ("\"air_fraction\": 0.5"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "fluid", "\"air_fraction\"", "[0, 0.5)" } },
  { "fluid-vapour", DOC_EXTRA (FLUID ("\"vapour_pressure\": 10"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "fluid", "\"vapour_pressure\"", "[-100000, 0]" } },
  { "fluid-reynolds", DOC_EXTRA (FLUID ("\"transition_reynolds\": 0"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "fluid", "\"transition_reynolds\"" } },
  { "fluid-cd", DOC_EXTRA (FLUID ("\"discharge_coefficient\": 0"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "fluid", "\"discharge_coefficient\"", "(0, 1]" } },
  { "fluid-not-object", DOC_EXTRA ("\"fluid\": 3", "", ""),
    HYD_CIRCUIT_ERROR_FORMAT, { "\"fluid\" must be an object" } },

  /* simulation */
  { "sim-t-end", DOC_EXTRA (SIM ("\"t_end\": 0"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "simulation", "\"t_end\"", "> 0" } },
  { "sim-rtol", DOC_EXTRA (SIM ("\"rtol\": 1"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "simulation", "\"rtol\"", "(0, 1)" } },
  { "sim-atol", DOC_EXTRA (SIM ("\"atol\": -1e-6"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "simulation", "\"atol\"", "> 0" } },
  { "sim-atol-kind", DOC_EXTRA (SIM ("\"atol\": { \"presure\": 100 }"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "simulation", "\"atol\"", "\"presure\"", "angular_velocity" } },
  { "sim-atol-kind-value", DOC_EXTRA (SIM ("\"atol\": { \"flow\": 0 }"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "\"atol\"", "\"flow\"", "> 0" } },
  { "sim-atol-string", DOC_EXTRA (SIM ("\"atol\": \"tight\""), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "\"atol\"", "\"tight\"" } },
  { "sim-max-step", DOC_EXTRA (SIM ("\"max_step\": -0.1"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "\"max_step\"", "> 0" } },
  { "sim-fixed-step", DOC_EXTRA (SIM ("\"fixed_step\": 0"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "\"fixed_step\"", "> 0" } },
  { "sim-output", DOC_EXTRA (SIM ("\"output_interval\": 0"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "\"output_interval\"", "> 0" } },
  { "sim-initial-pressure", DOC_EXTRA (SIM ("\"initial_pressure\": -2e5"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "\"initial_pressure\"", "≥ -101325", "-200000" } },
  { "sim-real-time", DOC_EXTRA (SIM ("\"real_time_factor\": -1"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "\"real_time_factor\"", "≥ 0" } },
  { "sim-solver", DOC_EXTRA (SIM ("\"solver\": 4"), "", ""),
    HYD_CIRCUIT_ERROR_SIMULATION, { "\"solver\"" } },
};

static void
test_load_error (gconstpointer data)
{
  const LoadErrorCase *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(HydCircuit) circuit = hyd_circuit_load_from_data (c->document, -1, "test.bramah", &error);

  g_assert_null (circuit);
  g_assert_nonnull (error);
  g_test_message ("%s: %s", c->name, error->message);
  g_assert_error (error, HYD_CIRCUIT_ERROR, (gint) c->code);
  assert_contains (error->message, c->needles);
}

static void
test_load_parse_no_filename (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HydCircuit) circuit = hyd_circuit_load_from_data ("{\n  \"a\": [1, 2}\n", -1, NULL, &error);

  g_assert_null (circuit);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, "2:"));
  g_assert_null (strstr (error->message, "<data>"));
}

static void
test_load_accepts (void)
{
  /* Unknown keys in fluid and simulation are kept and ignored; an optional
   * parameter may be null; fixed_step may be null; the fluid's C_d is the
   * default of FLUID_CD parameters and may be given explicitly. */
  static const char *doc = DOC_EXTRA (
    FLUID ("\"density\": 850, \"bulk_modulus_model\": \"air\", \"colour\": \"amber\"") ", "
    SIM ("\"fixed_step\": null, \"integrator_notes\": [1, 2], \"solver\": \"no-such-solver\"") ", "
    JUNCTIONS ("{ \"id\": \"J1\", \"position\": [300, 200], \"initial_pressure\": 1e5 }"),
    TANK ("T1") ", " ORIFICE ("O1", "\"discharge_coefficient\": 1") ", "
    "{ \"id\": \"V\", \"type\": \"volume\", \"params\": { \"initial_pressure\": null } }",
    CONN ("T1.T", "J1") ", " CONN ("J1", "O1.A") ", "
    "{ \"from\": \"O1.B\", \"to\": \"V.P\", \"length\": 0, \"diameter\": 0.012, \"initial_pressure\": -101325 }");
  g_autoptr(HydCircuit) circuit = load_ok (doc);
  HydSimOptions opts;
  HydFluid fluid;
  g_autoptr(GError) error = NULL;

  g_assert_true (hyd_circuit_get_fluid (circuit, &fluid, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (fluid.density, ==, 850);
  g_assert_cmpint (fluid.bulk_model, ==, HYD_BULK_AIR);
  g_assert_cmpfloat (fluid.kinematic_viscosity, ==, 3.2e-5);

  g_assert_true (hyd_circuit_get_sim_options (circuit, &opts, &error));
  g_assert_cmpstr (opts.solver, ==, "no-such-solver");
  g_assert_cmpfloat (opts.fixed_step, ==, 0);
  hyd_sim_options_clear (&opts);

  g_assert_cmpuint (circuit->components->len, ==, 3);
  g_assert_cmpuint (circuit->junctions->len, ==, 1);
  g_assert_cmpuint (circuit->connections->len, ==, 3);
  g_assert_nonnull (hyd_circuit_find_component (circuit, "O1"));
  g_assert_null (hyd_circuit_find_component (circuit, "J1"));
  g_assert_nonnull (hyd_circuit_find_junction (circuit, "J1"));
  g_assert_null (hyd_circuit_find_junction (circuit, "O1"));
  {
    HydCircuitJunction *j = hyd_circuit_find_junction (circuit, "J1");
    HydCircuitConnection *c = g_ptr_array_index (circuit->connections, 2);
    HydCircuitConnection *c0 = g_ptr_array_index (circuit->connections, 0);
    g_assert_true (j->has_position);
    g_assert_cmpfloat (j->x, ==, 300);
    g_assert_true (j->has_initial_pressure);
    g_assert_cmpfloat (j->initial_pressure, ==, 1e5);
    g_assert_true (c->has_length);
    g_assert_cmpfloat (c->length, ==, 0);
    g_assert_cmpfloat (c->diameter, ==, 0.012);
    g_assert_false (c0->has_length);
    g_assert_cmpfloat (c0->length, ==, 0.5);
    g_assert_cmpfloat (c0->diameter, ==, 0.01);
    g_assert_null (c0->route);
  }
}

/* ---------------------------------------------------------------------------
 * Parameters
 * ------------------------------------------------------------------------- */

static void
test_resolve_params (void)
{
  static const char *doc = DOC_EXTRA (
    FLUID ("\"discharge_coefficient\": 0.65"),
    ORIFICE ("O1", "") ", " ORIFICE ("O2", "\"discharge_coefficient\": 0.8, \"diameter\": 3e-3") ", "
    DCV ("V1", "\"centre\": \"tandem\", \"command\": { \"step\": { \"times\": [0, 1], \"values\": [1, 0.5, -1] } }") ", "
    "{ \"id\": \"V\", \"type\": \"volume\" }",
    "");
  g_autoptr(HydCircuit) circuit = load_ok (doc);
  const HydComponentType *orifice = hyd_catalogue_lookup ("orifice");
  const HydComponentType *dcv = hyd_catalogue_lookup ("dcv_4_3");
  const HydComponentType *volume = hyd_catalogue_lookup ("volume");
  int i_d = hyd_component_type_find_param (orifice, "diameter");
  int i_cd = hyd_component_type_find_param (orifice, "discharge_coefficient");
  int i_cmd = hyd_component_type_find_param (dcv, "command");
  int i_centre = hyd_component_type_find_param (dcv, "centre");
  int i_ip = hyd_component_type_find_param (volume, "initial_pressure");
  g_autofree double *values = NULL;
  g_autofree HydProfile **profiles = NULL;
  g_autoptr(GError) error = NULL;
  HydFluid fluid;

  g_assert_cmpint (i_d, >=, 0);
  g_assert_cmpint (i_cd, >=, 0);
  g_assert_cmpint (i_cmd, >=, 0);
  g_assert_cmpint (i_centre, >=, 0);
  g_assert_cmpint (i_ip, >=, 0);
  g_assert_true (hyd_circuit_get_fluid (circuit, &fluid, &error));

  values = g_new0 (double, orifice->n_params);
  g_assert_true (hyd_circuit_component_resolve_params (hyd_circuit_find_component (circuit, "O1"),
                                                       &fluid, values, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (values[i_d], ==, 2e-3);
  g_assert_cmpfloat (values[i_cd], ==, 0.65);
  g_assert_true (hyd_circuit_component_resolve_params (hyd_circuit_find_component (circuit, "O2"),
                                                       &fluid, values, NULL, &error));
  g_assert_cmpfloat (values[i_d], ==, 3e-3);
  g_assert_cmpfloat (values[i_cd], ==, 0.8);
  g_clear_pointer (&values, g_free);

  values = g_new0 (double, dcv->n_params);
  profiles = g_new0 (HydProfile *, dcv->n_params);
  g_assert_true (hyd_circuit_component_resolve_params (hyd_circuit_find_component (circuit, "V1"),
                                                       &fluid, values, profiles, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (values[i_centre], ==, 2);
  g_assert_null (profiles[i_centre]);
  /* a profile parameter holds the value just after t = 0 */
  g_assert_cmpfloat (values[i_cmd], ==, 0.5);
  g_assert_nonnull (profiles[i_cmd]);
  g_assert_cmpint (hyd_profile_get_kind (profiles[i_cmd]), ==, HYD_PROFILE_STEP);
  g_assert_cmpfloat (hyd_profile_eval (profiles[i_cmd], 1.0, 0.5, NULL), ==, 0.5);
  for (guint i = 0; i < dcv->n_params; i++)
    {
      if (dcv->params[i].flags & HYD_PARAM_PROFILE)
        g_assert_nonnull (profiles[i]);
      else
        g_assert_null (profiles[i]);
      hyd_profile_free (profiles[i]);
    }
  g_clear_pointer (&values, g_free);

  values = g_new0 (double, volume->n_params);
  g_assert_true (hyd_circuit_component_resolve_params (hyd_circuit_find_component (circuit, "V"),
                                                       NULL, values, NULL, &error));
  g_assert_true (isnan (values[i_ip]));
}

/* The typed view: values in SI, enums by choice, profiles parsed, the
 * operation from the type's fields; an invalid value gives no view and
 * names the component and parameter. */
static void
test_typed_params (void)
{
  static const char *doc = DOC (
    ORIFICE ("O1", "\"diameter\": 3e-3") ", "
    DCV ("V1", "\"centre\": \"tandem\", \"actuation\": \"solenoid\", "
               "\"command\": { \"step\": { \"times\": [0, 1], \"values\": [1, 0.5, -1] } }") ", "
    DCV ("V2", ""),
    "");
  g_autoptr(HydCircuit) circuit = load_ok (doc);
  g_autoptr(GError) error = NULL;

  g_autoptr(HydComponentParams) o1 = hyd_circuit_component_get_params (hyd_circuit_find_component (circuit, "O1"),
                                                                       NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (o1);
  g_assert_true (o1->type == hyd_catalogue_lookup ("orifice"));
  g_assert_cmpfloat (hyd_component_params_get (o1, "diameter"), ==, 3e-3);
  g_assert_true (isnan (hyd_component_params_get (o1, "no_such_parameter")));
  g_assert_null (hyd_component_params_get_choice (o1, "diameter"));
  g_assert_cmpint (hyd_component_params_get_operation (o1), ==, HYD_OPERATION_NONE);

  g_autoptr(HydComponentParams) v1 = hyd_circuit_component_get_params (hyd_circuit_find_component (circuit, "V1"),
                                                                       NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (hyd_component_params_get_choice (v1, "centre"), ==, "tandem");
  g_assert_cmpstr (hyd_component_params_get_choice (v1, "actuation"), ==, "solenoid");
  g_assert_cmpint (hyd_component_params_get_operation (v1), ==, HYD_OPERATION_SOLENOID);
  g_assert_cmpfloat (hyd_component_params_get (v1, "command"), ==, 0.5);
  g_assert_cmpfloat (hyd_component_params_get_at (v1, "command", 2.0), ==, -1.0);
  g_assert_nonnull (v1->profiles[hyd_component_type_find_param (v1->type, "command")]);

  g_autoptr(HydComponentParams) v2 = hyd_circuit_component_get_params (hyd_circuit_find_component (circuit, "V2"),
                                                                       NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (hyd_component_params_get_operation (v2), ==, HYD_OPERATION_LEVER);
  g_assert_cmpfloat (hyd_component_params_get_at (v2, "command", 5.0), ==, 0.0);

  /* an edited, invalid value: no view, the component and parameter named */
  HydCircuitComponent *o = hyd_circuit_find_component (circuit, "O1");
  json_object_set_string_member (o->params, "diameter", "wide");
  HydComponentParams *bad = hyd_circuit_component_get_params (o, NULL, &error);
  g_assert_null (bad);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_VALUE);
  g_assert_nonnull (strstr (error->message, "\"O1\""));
  g_assert_nonnull (strstr (error->message, "\"diameter\""));
}

/* What the rest of the program knows about a type is in the catalogue:
 * every field that names a parameter names one of the type's, of the
 * kind its use needs. */
static void
test_type_fields (void)
{
  guint n;
  const HydComponentType *const *types = hyd_catalogue_list (&n);
  g_autoptr(GHashTable) roles = g_hash_table_new (g_direct_hash, g_direct_equal);

  for (guint i = 0; i < n; i++)
    {
      const HydComponentType *t = types[i];
      g_test_message ("%s", t->id);
      g_assert_nonnull (t->designator);
      g_assert_cmpuint (strlen (t->designator), >, 0);
      for (const char *c = t->designator; *c; c++)
        g_assert_true (g_ascii_isupper (*c));
      if (t->roles & (HYD_ROLE_PUMP | HYD_ROLE_FLOW_SOURCE))
        {
          g_assert_nonnull (t->delivery_params);
          g_assert_cmpuint (t->delivery_port, <, t->n_ports);
          for (guint k = 0; t->delivery_params[k]; k++)
            g_assert_cmpint (hyd_component_type_find_param (t, t->delivery_params[k]), >=, 0);
        }
      else
        g_assert_null (t->delivery_params);
      if (t->roles & HYD_ROLE_RELIEF_VALVE)
        {
          int k = hyd_component_type_find_param (t, t->rating_param);
          g_assert_cmpint (k, >=, 0);
          g_assert_cmpint (t->params[k].unit, ==, HYD_UNIT_FLOW);
        }
      else
        g_assert_null (t->rating_param);
      if (t->roles & HYD_ROLE_MAKEUP_VALVE)
        {
          int kc = hyd_component_type_find_param (t, t->cracking_param);
          int kr = hyd_component_type_find_param (t, t->opening_range_param);
          g_assert_cmpint (kc, >=, 0);
          g_assert_cmpint (kr, >=, 0);
          g_assert_cmpint (t->params[kc].unit, ==, HYD_UNIT_PRESSURE);
          g_assert_cmpint (t->params[kr].unit, ==, HYD_UNIT_PRESSURE);
        }
      if (t->scale_param)
        {
          int k = hyd_component_type_find_param (t, t->scale_param);
          g_assert_cmpint (k, >=, 0);
          g_assert_cmpint (t->params[k].unit, ==, HYD_UNIT_PRESSURE);
        }
      g_assert_true ((t->operation_param == NULL) == (t->command_param == NULL));
      if (t->operation_param)
        {
          int k = hyd_component_type_find_param (t, t->operation_param);
          g_assert_cmpint (k, >=, 0);
          g_assert_true (t->params[k].flags & HYD_PARAM_ENUM);
          for (guint c = 0; t->params[k].choices[c]; c++)
            {
              double v = c;
              g_autofree double *values = g_new0 (double, t->n_params);
              values[k] = v;
              g_assert_cmpint (hyd_component_type_get_operation (t, values), !=, HYD_OPERATION_NONE);
            }
          int m = hyd_component_type_find_param (t, t->command_param);
          g_assert_cmpint (m, >=, 0);
          g_assert_true (t->params[m].flags & HYD_PARAM_PROFILE);
        }
      else
        g_assert_cmpint (hyd_component_type_get_operation (t, NULL), ==, HYD_OPERATION_NONE);
      for (guint r = 0; r < 9; r++)
        if (t->roles & (1u << r))
          g_hash_table_add (roles, GUINT_TO_POINTER (r + 1));
    }
  /* every role is some type's */
  g_assert_cmpuint (g_hash_table_size (roles), ==, 9);
  /* the ones the lint relies on */
  g_assert_true (hyd_catalogue_lookup ("relief_valve")->roles & HYD_ROLE_RELIEF_VALVE);
  g_assert_true (hyd_catalogue_lookup ("tank")->roles & HYD_ROLE_TANK);
  g_assert_cmpstr (hyd_catalogue_lookup ("relief_valve")->designator, ==, "RV");
}

static void
test_set_param (void)
{
  static const char *doc = DOC (
    ORIFICE ("O1", "\"diameter\": 0.002, \"discharge_coefficient\": 0.6") ", " DCV ("V1", ""), "");
  g_autoptr(HydCircuit) circuit = load_ok (doc);
  HydCircuitComponent *o1 = hyd_circuit_find_component (circuit, "O1");
  HydCircuitComponent *v1 = hyd_circuit_find_component (circuit, "V1");
  g_autoptr(GError) error = NULL;
  g_autoptr(GList) members = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  g_assert_true (hyd_circuit_component_set_param_from_string (o1, "diameter", "0.003", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (json_object_get_double_member (o1->params, "diameter"), ==, 0.003);
  /* the parameter keeps its place */
  members = json_object_get_members (o1->params);
  g_assert_cmpstr (members->data, ==, "diameter");

  before = hyd_circuit_to_data (circuit, NULL);
  g_assert_false (hyd_circuit_component_set_param_from_string (o1, "diameter", "-1", NULL, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE);
  g_assert_nonnull (strstr (error->message, "\"O1\""));
  g_clear_error (&error);
  g_assert_false (hyd_circuit_component_set_param_from_string (o1, "diametre", "1", NULL, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_UNKNOWN_PARAM);
  g_clear_error (&error);
  g_assert_false (hyd_circuit_component_set_param_from_string (v1, "command",
      "{\"ramp\": {\"points\": [[0, 0], [1, 2]]}}", NULL, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE);
  g_clear_error (&error);
  g_assert_false (hyd_circuit_component_set_param_from_string (v1, "centre", "sideways", NULL, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_VALUE);
  g_clear_error (&error);
  g_assert_false (hyd_circuit_component_set_param_from_string (v1, "command", "{\"step\": 1", NULL, &error));
  g_clear_error (&error);
  after = hyd_circuit_to_data (circuit, NULL);
  g_assert_cmpstr (before, ==, after);

  g_assert_true (hyd_circuit_component_set_param_from_string (v1, "centre", "open", NULL, &error));
  g_assert_cmpstr (json_object_get_string_member (v1->params, "centre"), ==, "open");
  g_assert_true (hyd_circuit_component_set_param_from_string (v1, "centre", "\"float\"", NULL, &error));
  g_assert_cmpstr (json_object_get_string_member (v1->params, "centre"), ==, "float");
  g_assert_true (hyd_circuit_component_set_param_from_string (v1, "command",
      " {\"ramp\": {\"points\": [[0, 0], [1, 1], [2, -1]]}} ", NULL, &error));
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_object_get_member (v1->params, "command")));
  g_assert_true (hyd_circuit_component_set_param_from_string (v1, "command", "-1", NULL, &error));
  g_assert_cmpint (json_object_get_int_member (v1->params, "command"), ==, -1);
  g_assert_true (hyd_circuit_component_set_param_from_string (v1, "command", "2.5e-1", NULL, &error));
  g_assert_cmpfloat (json_object_get_double_member (v1->params, "command"), ==, 0.25);
  g_assert_true (hyd_circuit_validate (circuit, &error));
}

/* ---------------------------------------------------------------------------
 * Round trip
 * ------------------------------------------------------------------------- */

/* Already canonical, in the version this build writes: load → save must
 * give these exact bytes. */
static const char canonical_doc[] =
  "{\n"
  "  \"format\": \"bramah-circuit\",\n"
  "  \"version\": 3,\n"
  "  \"title\": \"Meter-out speed control – Zylinder ä 😀\",\n"
  "  \"description\": \"Line one\\nLine two \\\"quoted\\\" \\\\ tab\\there \\u0001\",\n"
  "  \"fluid\": {\n"
  "    \"density\": 870,\n"
  "    \"kinematic_viscosity\": 3.2e-5,\n"
  "    \"bulk_modulus\": 1500000000,\n"
  "    \"bulk_modulus_model\": \"tait\",\n"
  "    \"tait_a\": 0.09,\n"
  "    \"colour\": \"amber\"\n"
  "  },\n"
  "  \"simulation\": {\n"
  "    \"t_end\": 2.5,\n"
  "    \"solver\": \"rodas4\",\n"
  "    \"rtol\": 1e-6,\n"
  "    \"atol\": {\n"
  "      \"pressure\": 10,\n"
  "      \"flow\": 1e-9\n"
  "    },\n"
  "    \"fixed_step\": null,\n"
  "    \"output_interval\": 0.001\n"
  "  },\n"
  "  \"components\": [\n"
  "    {\n"
  "      \"id\": \"PS1\",\n"
  "      \"type\": \"pressure_source\",\n"
  "      \"position\": [100, 200.5],\n"
  "      \"rotation\": 90,\n"
  "      \"mirror\": true,\n"
  "      \"label\": \"Supply «P»\",\n"
  "      \"params\": {\n"
  "        \"pressure\": {\n"
  "          \"ramp\": {\n"
  "            \"points\": [[0, 0], [0.1, 10000000], [2, 10000000], [2, 5000000]]\n"
  "          }\n"
  "        }\n"
  "      },\n"
  "      \"x-note\": {\n"
  "        \"author\": \"me\",\n"
  "        \"tags\": [\n"
  "          \"a\",\n"
  "          \"b\"\n"
  "        ]\n"
  "      },\n"
  "      \"x-count\": 3\n"
  "    },\n"
  "    {\n"
  "      \"id\": \"RV1\",\n"
  "      \"type\": \"relief_valve\",\n"
  "      \"params\": {\n"
  "        \"nominal_flow\": 0.001667,\n"
  "        \"cracking_pressure\": 12000000.5\n"
  "      }\n"
  "    },\n"
  "    {\n"
  "      \"id\": \"V1\",\n"
  "      \"type\": \"dcv_4_3\",\n"
  "      \"position\": [-30, 0.1],\n"
  "      \"params\": {\n"
  "        \"centre\": \"tandem\",\n"
  "        \"command\": {\n"
  "          \"step\": {\n"
  "            \"times\": [1, 3],\n"
  "            \"values\": [0, 1, -1]\n"
  "          }\n"
  "        }\n"
  "      }\n"
  "    },\n"
  "    {\n"
  "      \"id\": \"C1\",\n"
  "      \"type\": \"cylinder_double\",\n"
  "      \"mirror\": false,\n"
  "      \"params\": {\n"
  "        \"piston_diameter\": 0.05,\n"
  "        \"rod_diameter\": 0.028,\n"
  "        \"dead_volume_a\": 5e-5,\n"
  "        \"load_force\": {\n"
  "          \"sine\": {\n"
  "            \"offset\": 1000,\n"
  "            \"amplitude\": 500,\n"
  "            \"frequency\": 0.5,\n"
  "            \"phase\": 0\n"
  "          }\n"
  "        }\n"
  "      }\n"
  "    },\n"
  "    {\n"
  "      \"id\": \"T1\",\n"
  "      \"type\": \"tank\"\n"
  "    }\n"
  "  ],\n"
  "  \"junctions\": [\n"
  "    {\n"
  "      \"id\": \"J1\",\n"
  "      \"position\": [300, 200],\n"
  "      \"initial_pressure\": 100000,\n"
  "      \"x-kind\": \"tee\"\n"
  "    },\n"
  "    {\n"
  "      \"id\": \"J2\"\n"
  "    }\n"
  "  ],\n"
  "  \"connections\": [\n"
  "    {\n"
  "      \"from\": \"PS1.P\",\n"
  "      \"to\": \"J1\",\n"
  "      \"route\": [[300, 120], [300, 200]],\n"
  "      \"length\": 0.5,\n"
  "      \"diameter\": 0.01,\n"
  "      \"friction\": false,\n"
  "      \"x-colour\": \"red\"\n"
  "    },\n"
  "    {\n"
  "      \"from\": \"J1\",\n"
  "      \"to\": \"RV1.P\",\n"
  "      \"route\": []\n"
  "    },\n"
  "    {\n"
  "      \"from\": \"J1\",\n"
  "      \"to\": \"V1.P\",\n"
  "      \"length\": 0\n"
  "    },\n"
  "    {\n"
  "      \"from\": \"RV1.T\",\n"
  "      \"to\": \"J2\",\n"
  "      \"initial_pressure\": -101325\n"
  "    },\n"
  "    {\n"
  "      \"from\": \"J2\",\n"
  "      \"to\": \"T1.T\"\n"
  "    },\n"
  "    {\n"
  "      \"from\": \"V1.T\",\n"
  "      \"to\": \"J2\"\n"
  "    },\n"
  "    {\n"
  "      \"from\": \"V1.A\",\n"
  "      \"to\": \"C1.A\",\n"
  "      \"length\": 1.25,\n"
  "      \"friction\": true\n"
  "    },\n"
  "    {\n"
  "      \"from\": \"V1.B\",\n"
  "      \"to\": \"C1.B\",\n"
  "      \"length\": 1.25\n"
  "    }\n"
  "  ],\n"
  "  \"plots\": [\n"
  "    {\n"
  "      \"title\": \"Cylinder\",\n"
  "      \"traces\": [\n"
  "        \"C1.x\",\n"
  "        \"C1.A.p\",\n"
  "        \"RV1.q\"\n"
  "      ],\n"
  "      \"y_unit\": \"auto\",\n"
  "      \"x-height\": 240\n"
  "    },\n"
  "    {\n"
  "      \"traces\": []\n"
  "    }\n"
  "  ],\n"
  "  \"x-editor\": {\n"
  "    \"zoom\": 1.5,\n"
  "    \"grid\": true\n"
  "  },\n"
  "  \"x-last\": null\n"
  "}\n";

/* Documents as people write them: any key order, unusual spacing, doubles
 * in long forms. Each must reach a fixed point after one save. */
static const char *const loose_docs[] = {
  "{\"x-first\": [1, {\"a\": 0.10}], \"connections\": [{\"to\": \"O1.A\", \"x\": 1, \"from\": \"T1.T\","
  " \"diameter\": 1.0e-2, \"length\": 5.0E-1}, {\"from\": \"O1.B\", \"to\": \"T1.T\", \"length\": 0.3333333333333333}],"
  " \"version\": 1, \"components\": [{\"params\": {\"discharge_coefficient\": 0.61, \"diameter\": 0.0015},"
  " \"type\": \"orifice\", \"id\": \"O1\", \"zz\": \"last\", \"label\": \"\\u00c4 \\\"q\\\" \\/\", \"position\": [1.0e2, -0.0]},"
  " {\"id\": \"T1\", \"type\": \"tank\", \"params\": {}}],"
  " \"format\": \"bramah-circuit\", \"description\": \"\", \"plots\": [], \"junctions\": []}",

  "{ \"format\": \"bramah-circuit\", \"version\": 1,\n"
  "  \"simulation\": { \"t_end\": 10, \"atol\": 1e-7, \"max_step\": 0.0050, \"real_time_factor\": 1 },\n"
  "  \"components\": [\n"
  "    { \"id\": \"FS1\", \"type\": \"flow_source\", \"rotation\": 180.0,\n"
  "      \"params\": { \"flow\": { \"table\": { \"points\": [[0, 0], [0.5, 1.667e-4], [1, 1.667e-4], [1.5, 0],"
  " [2, 0], [2.5, -1.667e-4], [3, -1.667e-4], [3.5, 0]] } } } },\n"
  "    { \"id\": \"V\", \"type\": \"volume\", \"params\": { \"volume\": 0.5e-3, \"initial_pressure\": 2e6 } },\n"
  "    { \"id\": \"G1\", \"type\": \"pressure_gauge\" }\n"
  "  ],\n"
  "  \"connections\": [ { \"from\": \"FS1.P\", \"to\": \"V.P\", \"route\": [[1.5, 2.25]] },\n"
  "                   { \"from\": \"V.P2\", \"to\": \"G1.P\", \"length\": 0 } ] }",

  DOC_EXTRA (JUNCTIONS ("{ \"position\": [10, 20], \"id\": \"J1\", \"initial_pressure\": 0.0 }"),
             "{ \"id\": \"M1\", \"type\": \"motor_fixed\", \"params\": { \"load_torque\": "
             "{ \"step\": { \"values\": [0, 12.5, 0], \"times\": [0.25, 0.75] } }, \"inertia\": 0.01 } }",
             CONN ("M1.A", "J1") ", " CONN ("J1", "M1.B")),
};

static char *
save (const HydCircuit *circuit)
{
  gsize length = 0;
  char *text = hyd_circuit_to_data (circuit, &length);

  g_assert_cmpuint (length, ==, strlen (text));
  g_assert_true (g_str_has_suffix (text, "}\n"));
  return text;
}

/* A version 1 (or 2) file loads unchanged and is saved in version 3 with
 * its meaning: the same text but for the version line and "friction". In
 * the old file "friction" is an unknown key and hoses have none, so every
 * connection that version 3 would give friction by default (length and
 * diameter given) or that had the key is written "friction": false. */
static void
test_roundtrip_version1 (void)
{
  for (char v = '1'; v <= '2'; v++)
    {
      g_autofree char *old = g_strdup (canonical_doc);
      char *line = strstr (old, "\"version\": 3,");
      g_assert_nonnull (line);
      line[strlen ("\"version\": ")] = v;
      g_autoptr(HydCircuit) circuit = load_ok (old);
      g_assert_cmpint (circuit->version, ==, v - '0');
      /* an unknown key there, kept where it was */
      HydCircuitConnection *cn = g_ptr_array_index (circuit->connections, 6);
      g_assert_false (cn->has_friction);
      g_assert_true (json_object_get_boolean_member (cn->extra, "friction"));
      g_assert_false (hyd_circuit_connection_friction (circuit, cn));
      g_assert_false (hyd_circuit_connection_friction (circuit, g_ptr_array_index (circuit->connections, 0)));
      g_autofree char *text = save (circuit);
      g_autoptr (GString) expected = g_string_new (canonical_doc);
      g_assert_cmpuint (g_string_replace (expected, "\"length\": 1.25,\n      \"friction\": true",
                                          "\"length\": 1.25,\n      \"friction\": false", 0), ==, 1);
      g_assert_cmpstr (text, ==, expected->str);
    }
}

/* Version 2's initial motion of a mechanical node: read from a version 2
 * connection or junction, checked to be a finite number there; in a
 * version 1 file the same keys are unknown keys, kept and meaning nothing. */
static void
test_initial_motion_keys (void)
{
#define MOTION_DOC(version, conn_extra, junction_extra) \
  "{ \"format\": \"bramah-circuit\", \"version\": " version ", \"components\": [" \
  "{ \"id\": \"T1\", \"type\": \"tank\" }, { \"id\": \"O1\", \"type\": \"orifice\" }]," \
  " \"junctions\": [{ \"id\": \"J1\"" junction_extra " }]," \
  " \"connections\": [{ \"from\": \"T1.T\", \"to\": \"J1\"" conn_extra " }," \
  " { \"from\": \"J1\", \"to\": \"O1.A\" }, { \"from\": \"O1.B\", \"to\": \"J1\" }] }"
  double v = 0.0;
  {
    g_autoptr(HydCircuit) c = load_ok (MOTION_DOC ("2", ", \"initial_velocity\": 1.5", ", \"initial_position\": -2"));
    HydCircuitConnection *cn = g_ptr_array_index (c->connections, 0);
    HydCircuitJunction *jn = g_ptr_array_index (c->junctions, 0);
    g_assert_true (hyd_circuit_get_initial_motion (c, cn->extra, "initial_velocity", &v));
    g_assert_cmpfloat (v, ==, 1.5);
    g_assert_false (hyd_circuit_get_initial_motion (c, cn->extra, "initial_position", &v));
    g_assert_true (hyd_circuit_get_initial_motion (c, jn->extra, "initial_position", &v));
    g_assert_cmpfloat (v, ==, -2.0);
  }
  {
    g_autoptr(HydCircuit) c = load_ok (MOTION_DOC ("1", ", \"initial_velocity\": \"fast\"", ""));
    HydCircuitConnection *cn = g_ptr_array_index (c->connections, 0);
    g_assert_false (hyd_circuit_get_initial_motion (c, cn->extra, "initial_velocity", &v));
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HydCircuit) c = hyd_circuit_load_from_data (MOTION_DOC ("2", ", \"initial_velocity\": \"fast\"", ""),
                                                          -1, "test.bramah", &error);
    g_assert_null (c);
    g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE);
    g_assert_nonnull (strstr (error->message, "connections[0]"));
    g_assert_nonnull (strstr (error->message, "\"initial_velocity\" must be a finite number"));
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HydCircuit) c = hyd_circuit_load_from_data (MOTION_DOC ("2", "", ", \"initial_position\": null"),
                                                          -1, "test.bramah", &error);
    g_assert_null (c);
    g_assert_nonnull (strstr (error->message, "junction \"J1\": \"initial_position\""));
  }
#undef MOTION_DOC
}

static void
test_roundtrip_canonical (void)
{
  g_autoptr(HydCircuit) circuit = load_ok (canonical_doc);
  g_autofree char *text = save (circuit);
  HydCircuitComponent *ps1;
  g_autoptr(GList) extra = NULL;

  g_assert_cmpstr (text, ==, canonical_doc);

  /* unknown keys are kept in order, and only there */
  ps1 = hyd_circuit_find_component (circuit, "PS1");
  extra = json_object_get_members (ps1->extra);
  g_assert_cmpuint (g_list_length (extra), ==, 2);
  g_assert_cmpstr (extra->data, ==, "x-note");
  g_assert_cmpstr (extra->next->data, ==, "x-count");
  g_assert_true (json_object_has_member (circuit->extra, "x-editor"));
  g_assert_true (json_object_has_member (circuit->extra, "x-last"));
  g_assert_cmpuint (json_object_get_size (circuit->extra), ==, 2);
  g_assert_true (ps1->has_position && ps1->has_rotation && ps1->has_mirror);
  g_assert_cmpfloat (ps1->y, ==, 200.5);
  g_assert_cmpint (ps1->rotation, ==, 90);
  g_assert_cmpstr (circuit->title, ==, "Meter-out speed control – Zylinder ä 😀");
  g_assert_cmpstr (circuit->description, ==, "Line one\nLine two \"quoted\" \\ tab\there \001");
  g_assert_cmpuint (circuit->plots->len, ==, 2);
  {
    HydCircuitPlot *plot = g_ptr_array_index (circuit->plots, 0);
    HydCircuitConnection *conn = g_ptr_array_index (circuit->connections, 0);
    g_assert_cmpuint (plot->traces->len, ==, 3);
    g_assert_cmpstr (g_ptr_array_index (plot->traces, 1), ==, "C1.A.p");
    g_assert_cmpstr (plot->y_unit, ==, "auto");
    g_assert_cmpuint (conn->route->len, ==, 4);
    g_assert_cmpfloat (g_array_index (conn->route, double, 3), ==, 200);
  }
}

static void
test_roundtrip_fixed_point (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (loose_docs); i++)
    {
      g_autoptr(HydCircuit) first = load_ok (loose_docs[i]);
      g_autofree char *text1 = save (first);
      g_autoptr(HydCircuit) second = load_ok (text1);
      g_autofree char *text2 = save (second);
      g_autoptr(HydCircuit) third = load_ok (text2);
      g_autofree char *text3 = save (third);

      g_test_message ("document %u saved as:\n%s", i, text1);
      g_assert_cmpstr (text1, ==, text2);
      g_assert_cmpstr (text2, ==, text3);
    }
}

static void
test_roundtrip_loose_canonical_form (void)
{
  /* What the first loose document becomes: canonical key order, extras
   * last in their order, shortest numbers, only the keys that were there. */
  static const char expected[] =
    "{\n"
    "  \"format\": \"bramah-circuit\",\n"
    "  \"version\": 3,\n"
    "  \"description\": \"\",\n"
    "  \"components\": [\n"
    "    {\n"
    "      \"id\": \"O1\",\n"
    "      \"type\": \"orifice\",\n"
    "      \"position\": [100, 0],\n"
    "      \"label\": \"Ä \\\"q\\\" /\",\n"
    "      \"params\": {\n"
    "        \"discharge_coefficient\": 0.61,\n"
    "        \"diameter\": 0.0015\n"
    "      },\n"
    "      \"zz\": \"last\"\n"
    "    },\n"
    "    {\n"
    "      \"id\": \"T1\",\n"
    "      \"type\": \"tank\"\n"
    "    }\n"
    "  ],\n"
    "  \"connections\": [\n"
    "    {\n"
    "      \"from\": \"T1.T\",\n"
    "      \"to\": \"O1.A\",\n"
    "      \"length\": 0.5,\n"
    "      \"diameter\": 0.01,\n"
    "      \"friction\": false,\n"
    "      \"x\": 1\n"
    "    },\n"
    "    {\n"
    "      \"from\": \"O1.B\",\n"
    "      \"to\": \"T1.T\",\n"
    "      \"length\": 0.3333333333333333\n"
    "    }\n"
    "  ],\n"
    "  \"plots\": [],\n"
    "  \"x-first\": [\n"
    "    1,\n"
    "    {\n"
    "      \"a\": 0.1\n"
    "    }\n"
    "  ]\n"
    "}\n";
  g_autoptr(HydCircuit) circuit = load_ok (loose_docs[0]);
  g_autofree char *text = save (circuit);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_roundtrip_new_and_copy (void)
{
  g_autoptr(HydCircuit) empty = hyd_circuit_new ();
  g_autofree char *empty_text = save (empty);
  g_autoptr(HydCircuit) reloaded = load_ok (empty_text);
  g_autoptr(HydCircuit) original = load_ok (canonical_doc);
  g_autoptr(HydCircuit) copy = hyd_circuit_copy (original);
  g_autofree char *copy_text = save (copy);
  g_autofree char *original_text = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (empty_text, ==,
                   "{\n  \"format\": \"bramah-circuit\",\n  \"version\": 3,\n"
                   "  \"components\": [],\n  \"connections\": []\n}\n");
  g_assert_cmpstr (copy_text, ==, canonical_doc);
  g_assert_true (hyd_circuit_validate (copy, &error));
  g_assert_no_error (error);

  /* the copy is deep: editing it leaves the original alone */
  g_assert_true (hyd_circuit_component_set_param_from_string (hyd_circuit_find_component (copy, "RV1"),
                                                              "cracking_pressure", "2e7", NULL, &error));
  json_object_set_int_member (hyd_circuit_find_component (copy, "PS1")->extra, "x-count", 4);
  original_text = save (original);
  g_assert_cmpstr (original_text, ==, canonical_doc);
}

/* Every string value node of `a` and of `b` at the same place: their
 * strings are not the same storage (a shared JsonValue would give the same
 * pointer). Returns how many string values were compared. */
static guint
assert_no_shared_strings (JsonNode *a, JsonNode *b)
{
  guint n = 0;
  g_assert_cmpint (JSON_NODE_TYPE (a), ==, JSON_NODE_TYPE (b));
  switch (JSON_NODE_TYPE (a))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *oa = json_node_get_object (a), *ob = json_node_get_object (b);
        g_autoptr (GList) members = json_object_get_members (oa);
        for (GList *l = members; l; l = l->next)
          n += assert_no_shared_strings (json_object_get_member (oa, l->data), json_object_get_member (ob, l->data));
        break;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *aa = json_node_get_array (a), *ab = json_node_get_array (b);
        for (guint i = 0; i < json_array_get_length (aa); i++)
          n += assert_no_shared_strings (json_array_get_element (aa, i), json_array_get_element (ab, i));
        break;
      }
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (a) == G_TYPE_STRING)
        {
          g_assert_cmpstr (json_node_get_string (a), ==, json_node_get_string (b));
          g_assert_true (json_node_get_string (a) != json_node_get_string (b));
          n++;
        }
      break;
    default:
      break;
    }
  return n;
}

static guint
assert_objects_share_no_strings (JsonObject *a, JsonObject *b)
{
  g_autoptr (JsonNode) na = json_node_init_object (json_node_alloc (), a);
  g_autoptr (JsonNode) nb = json_node_init_object (json_node_alloc (), b);
  return assert_no_shared_strings (na, nb);
}

/* A copy shares no value with its original: json-glib counts a value's
 * references without atomics (json-glib 1.6, json_node_copy), so a shared
 * value copied or freed in two threads at once (the study's workers each
 * copy the circuit) loses counts and is freed while in use. */
static void
test_copy_shares_no_values (void)
{
  g_autoptr(HydCircuit) original = load_ok (canonical_doc);
  g_autoptr(HydCircuit) copy = hyd_circuit_copy (original);
  guint n = assert_objects_share_no_strings (original->fluid, copy->fluid);
  n += assert_objects_share_no_strings (original->simulation, copy->simulation);
  for (guint i = 0; i < original->components->len; i++)
    {
      HydCircuitComponent *a = g_ptr_array_index (original->components, i);
      HydCircuitComponent *b = g_ptr_array_index (copy->components, i);
      n += assert_objects_share_no_strings (a->params, b->params);
      if (a->extra)
        n += assert_objects_share_no_strings (a->extra, b->extra);
    }
  /* "amber", "tait", "rodas4", "me", "a", "b" at least */
  g_assert_cmpuint (n, >=, 6);
}

/* Four threads copy one circuit, edit and free their copies at once, as
 * the study's workers do; the original is unchanged afterwards. */
typedef struct {
  const HydCircuit *original;
  guint rounds;
} CopyJob;

static gpointer
copy_thread (gpointer data)
{
  CopyJob *job = data;
  for (guint k = 0; k < job->rounds; k++)
    {
      g_autoptr(HydCircuit) copy = hyd_circuit_copy (job->original);
      g_assert_true (hyd_circuit_component_set_param_from_string (hyd_circuit_find_component (copy, "RV1"),
                                                                  "nominal_flow", "0.002", NULL, NULL));
    }
  return NULL;
}

static void
test_copy_threads (void)
{
  g_autoptr(HydCircuit) original = load_ok (canonical_doc);
  CopyJob job = { original, 3000 };
  GThread *threads[4];
  for (guint k = 0; k < G_N_ELEMENTS (threads); k++)
    threads[k] = g_thread_new ("copy", copy_thread, &job);
  for (guint k = 0; k < G_N_ELEMENTS (threads); k++)
    g_thread_join (threads[k]);
  g_autofree char *text = save (original);
  g_assert_cmpstr (text, ==, canonical_doc);
}

static void
test_validate_edited (void)
{
  g_autoptr(HydCircuit) circuit = load_ok (canonical_doc);
  g_autoptr(GError) error = NULL;
  HydCircuitComponent *t1 = hyd_circuit_find_component (circuit, "T1");
  HydCircuitConnection *conn = g_ptr_array_index (circuit->connections, 4);

  g_assert_true (hyd_circuit_validate (circuit, &error));

  g_free (t1->id);
  t1->id = g_strdup ("RV1");
  g_assert_false (hyd_circuit_validate (circuit, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_ID);
  g_clear_error (&error);
  g_free (t1->id);
  t1->id = g_strdup ("T1");

  g_free (conn->to);
  conn->to = g_strdup ("T1.X");
  g_assert_false (hyd_circuit_validate (circuit, &error));
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_REFERENCE);
  g_assert_nonnull (strstr (error->message, "connections[4]"));
  g_clear_error (&error);
  g_free (conn->to);
  conn->to = g_strdup ("T1.T");

  json_object_set_double_member (hyd_circuit_find_component (circuit, "C1")->params, "rod_diameter", 0.06);
  g_assert_false (hyd_circuit_validate (circuit, &error));
  g_assert_nonnull (strstr (error->message, "rod_diameter"));
}

static void
test_file_io (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bramah-test-circuit-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "canonical.bramah", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.bramah", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(HydCircuit) circuit = load_ok (canonical_doc);
  g_autoptr(HydCircuit) loaded = NULL;
  g_autoptr(HydCircuit) broken = NULL;

  g_assert_no_error (error);
  g_assert_true (hyd_circuit_save_to_file (circuit, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, canonical_doc);
  loaded = hyd_circuit_load_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);

  g_assert_true (g_file_set_contents (bad, "{\n\n  \"format\" \"bramah-circuit\"\n}\n", -1, NULL));
  broken = hyd_circuit_load_from_file (bad, &error);
  g_assert_null (broken);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, bad));
  g_assert_nonnull (strstr (error->message, ":3:"));
  g_clear_error (&error);

  g_assert_null (hyd_circuit_load_from_file ("/nonexistent/x.bramah", &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);

  g_unlink (path);
  g_unlink (bad);
  g_rmdir (dir);
}

static void
test_split_port_ref (void)
{
  g_autofree char *comp = NULL;
  g_autofree char *port = NULL;

  g_assert_true (hyd_circuit_split_port_ref ("C1.A", &comp, &port));
  g_assert_cmpstr (comp, ==, "C1");
  g_assert_cmpstr (port, ==, "A");
  g_clear_pointer (&comp, g_free);
  g_clear_pointer (&port, g_free);
  g_assert_false (hyd_circuit_split_port_ref ("J1", &comp, &port));
  g_assert_null (comp);
  g_assert_null (port);
  g_assert_true (hyd_circuit_split_port_ref ("V.P2", NULL, &port));
  g_assert_cmpstr (port, ==, "P2");
}

/* ---------------------------------------------------------------------------
 * Simulation options
 * ------------------------------------------------------------------------- */

static void
get_options (const char *doc, HydSimOptions *opts)
{
  g_autoptr(HydCircuit) circuit = load_ok (doc);
  g_autoptr(GError) error = NULL;

  g_assert_true (hyd_circuit_get_sim_options (circuit, opts, &error));
  g_assert_no_error (error);
}

static void
test_sim_options_defaults (void)
{
  HydSimOptions opts;
  HydFluid fluid;
  g_autoptr(HydCircuit) circuit = load_ok (DOC ("", ""));
  g_autoptr(GError) error = NULL;

  get_options (DOC ("", ""), &opts);
  g_assert_cmpfloat (opts.t_end, ==, 5.0);
  g_assert_cmpstr (opts.solver, ==, "rodas4");
  g_assert_cmpfloat (opts.rtol, ==, 1e-4);
  for (guint k = 0; k < HYD_ATOL_N_KINDS; k++)
    g_assert_cmpfloat (opts.atol[k], ==, hyd_atol_kind_default (k));
  g_assert_cmpfloat (opts.atol[HYD_ATOL_PRESSURE], ==, 100);
  g_assert_cmpfloat (opts.atol[HYD_ATOL_FLOW], ==, 1e-8);
  g_assert_cmpfloat_with_epsilon (opts.max_step, 0.5, 1e-15);
  g_assert_cmpfloat_with_epsilon (opts.output_interval, 0.005, 1e-15);
  g_assert_false (opts.max_step_set);
  g_assert_false (opts.output_interval_set);
  g_assert_cmpfloat (opts.fixed_step, ==, 0);
  g_assert_cmpfloat (opts.initial_pressure, ==, 0);
  g_assert_cmpfloat (opts.real_time_factor, ==, 0);

  /* --t-end moves the defaults that follow t_end */
  hyd_sim_options_set_t_end (&opts, 20.0);
  g_assert_cmpfloat (opts.t_end, ==, 20.0);
  g_assert_cmpfloat_with_epsilon (opts.max_step, 2.0, 1e-15);
  g_assert_cmpfloat_with_epsilon (opts.output_interval, 0.02, 1e-15);
  hyd_sim_options_clear (&opts);
  g_assert_null (opts.solver);

  g_assert_true (hyd_circuit_get_fluid (circuit, &fluid, &error));
  g_assert_cmpfloat (fluid.density, ==, 870);
  g_assert_cmpfloat (fluid.bulk_modulus, ==, 1.5e9);
  /* the cavitation-safe default (circuit-format.md, fluid.bulk_modulus_model) */
  g_assert_cmpint (fluid.bulk_model, ==, HYD_BULK_CAVITATING);
  g_assert_cmpfloat (fluid.vapour_pressure, ==, -1e5);
  g_assert_cmpfloat (fluid.discharge_coefficient, ==, 0.7);
}

static void
test_sim_options_settings (void)
{
  HydSimOptions opts;

  get_options (DOC_EXTRA (SIM ("\"t_end\": 20"), "", ""), &opts);
  g_assert_cmpfloat_with_epsilon (opts.max_step, 2.0, 1e-15);
  g_assert_cmpfloat_with_epsilon (opts.output_interval, 0.02, 1e-15);
  hyd_sim_options_clear (&opts);

  get_options (DOC_EXTRA (SIM ("\"t_end\": 20, \"max_step\": 0.01, \"solver\": \"radau5\", "
                               "\"rtol\": 1e-6, \"atol\": 1e-3, \"fixed_step\": 1e-4, "
                               "\"initial_pressure\": -101325, \"real_time_factor\": 0.1"), "", ""),
               &opts);
  g_assert_cmpfloat (opts.max_step, ==, 0.01);
  g_assert_true (opts.max_step_set);
  g_assert_cmpfloat_with_epsilon (opts.output_interval, 0.02, 1e-15);
  g_assert_cmpstr (opts.solver, ==, "radau5");
  g_assert_cmpfloat (opts.rtol, ==, 1e-6);
  for (guint k = 0; k < HYD_ATOL_N_KINDS; k++)
    g_assert_cmpfloat (opts.atol[k], ==, 1e-3);
  g_assert_cmpfloat (opts.fixed_step, ==, 1e-4);
  g_assert_cmpfloat (opts.initial_pressure, ==, -101325);
  g_assert_cmpfloat (opts.real_time_factor, ==, 0.1);
  hyd_sim_options_set_t_end (&opts, 10.0);
  g_assert_cmpfloat (opts.max_step, ==, 0.01);
  g_assert_cmpfloat_with_epsilon (opts.output_interval, 0.01, 1e-15);
  hyd_sim_options_clear (&opts);

  get_options (DOC_EXTRA (SIM ("\"output_interval\": 0.5, \"atol\": { \"pressure\": 10, \"angle\": 1e-3 }"), "", ""),
               &opts);
  g_assert_true (opts.output_interval_set);
  g_assert_cmpfloat (opts.output_interval, ==, 0.5);
  g_assert_cmpfloat_with_epsilon (opts.max_step, 0.5, 1e-15);
  hyd_sim_options_set_t_end (&opts, 1.0);
  g_assert_cmpfloat (opts.output_interval, ==, 0.5);
  g_assert_cmpfloat_with_epsilon (opts.max_step, 0.1, 1e-15);
  g_assert_cmpfloat (opts.atol[HYD_ATOL_PRESSURE], ==, 10);
  g_assert_cmpfloat (opts.atol[HYD_ATOL_ANGLE], ==, 1e-3);
  g_assert_cmpfloat (opts.atol[HYD_ATOL_POSITION], ==, hyd_atol_kind_default (HYD_ATOL_POSITION));
  g_assert_cmpfloat (opts.atol[HYD_ATOL_OTHER], ==, hyd_atol_kind_default (HYD_ATOL_OTHER));
  hyd_sim_options_clear (&opts);
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/circuit/writer/numbers", test_writer_numbers);
  g_test_add_func ("/engine/circuit/writer/layout", test_writer_layout);
  g_test_add_func ("/engine/circuit/writer/locale", test_writer_locale);

  g_test_add_func ("/engine/circuit/profile/constant", test_profile_constant);
  g_test_add_func ("/engine/circuit/profile/step", test_profile_step);
  g_test_add_func ("/engine/circuit/profile/ramp", test_profile_ramp);
  g_test_add_func ("/engine/circuit/profile/ramp-jump", test_profile_ramp_jump);
  g_test_add_func ("/engine/circuit/profile/table", test_profile_table);
  g_test_add_func ("/engine/circuit/profile/sine", test_profile_sine);
  g_test_add_func ("/engine/circuit/profile/json", test_profile_json);
  g_test_add_func ("/engine/circuit/profile/errors", test_profile_errors);

  for (guint i = 0; i < G_N_ELEMENTS (load_error_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/engine/circuit/load-error/%s", load_error_cases[i].name);
      g_test_add_data_func (path, &load_error_cases[i], test_load_error);
    }
  g_test_add_func ("/engine/circuit/load/parse-no-filename", test_load_parse_no_filename);
  g_test_add_func ("/engine/circuit/load/accepts", test_load_accepts);
  g_test_add_func ("/engine/circuit/load/file", test_file_io);
  g_test_add_func ("/engine/circuit/load/split-port-ref", test_split_port_ref);

  g_test_add_func ("/engine/circuit/params/resolve", test_resolve_params);
  g_test_add_func ("/engine/circuit/params/set-from-string", test_set_param);

  g_test_add_func ("/engine/circuit/roundtrip/canonical", test_roundtrip_canonical);
  g_test_add_func ("/engine/circuit/roundtrip/version1", test_roundtrip_version1);
  g_test_add_func ("/engine/circuit/version2/initial-motion", test_initial_motion_keys);
  g_test_add_func ("/engine/circuit/roundtrip/fixed-point", test_roundtrip_fixed_point);
  g_test_add_func ("/engine/circuit/roundtrip/canonical-form", test_roundtrip_loose_canonical_form);
  g_test_add_func ("/engine/circuit/roundtrip/new-and-copy", test_roundtrip_new_and_copy);
  g_test_add_func ("/engine/circuit/validate/edited", test_validate_edited);
  g_test_add_func ("/engine/circuit/copy/shares-no-values", test_copy_shares_no_values);
  g_test_add_func ("/engine/circuit/copy/threads", test_copy_threads);

  g_test_add_func ("/engine/circuit/params/typed", test_typed_params);
  g_test_add_func ("/engine/circuit/params/type-fields", test_type_fields);
  g_test_add_func ("/engine/circuit/sim-options/defaults", test_sim_options_defaults);
  g_test_add_func ("/engine/circuit/sim-options/settings", test_sim_options_settings);

  return g_test_run ();
}
