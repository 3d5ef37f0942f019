/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-dtoa.c — hyd_dtoa_shortest against the C library's exact conversions.
 *
 * Every value is checked for
 *   - round trip: strtod of the string gives back v bit for bit;
 *   - shortest: no decimal with one digit fewer reads back as v (the two
 *     such decimals that bracket v fail: the nearest, from glibc's correctly
 *     rounded "%.*e", and its neighbour on v's other side);
 *   - layout: the string is what glibc's "%.{k}g" writes (k = our digit count),
 *     or, for an integer below 10^17 with trailing zeros, digits and zeros;
 * and a fixed sample (every 8th random value, every boundary value) also for
 *   - nearest: a neighbour of the same length that also reads back as v is
 *     not nearer to v (exact comparison of v with the midpoint, through glibc's
 *     exact "%.*e" expansion of v; an exact tie goes to the even last digit).
 *
 * Values: random 64-bit patterns (every exponent, subnormals), values of the
 * ranges a simulation writes (1e-12…1e9, both signs, full and shortened
 * precision, time grids i·h), integers, and the boundaries (powers of two and
 * ten with their neighbours, DBL_MIN, DBL_MAX, DBL_TRUE_MIN, the first and last 100 000
 * subnormals, 2^53 ± 1 ulp). Random values come from a GRand seeded with
 * 20261126; the count of each random set is BRAMAH_DTOA_COUNT (default
 * 1 000 000, about 3.2 million values in all in ~5 s; 100 000 in a sanitizer
 * build). */
#include <errno.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyd-dtoa.h"

#define SEED 20261126

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define DEFAULT_COUNT 100000
#else
#define DEFAULT_COUNT 1000000
#endif

static long
random_count (void)
{
  const char *env = g_getenv ("BRAMAH_DTOA_COUNT");
  if (env != NULL && *env != '\0')
    {
      long n = strtol (env, NULL, 10);
      if (n > 0)
        return n;
    }
  return DEFAULT_COUNT;
}

/* a positive decimal: digits (no leading or trailing zeros) × 10^(x − len + 1) */
typedef struct {
  char digits[800];
  int x; /* exponent of the first digit */
} Decimal;

static void
decimal_from_uint (Decimal *d, uint64_t m, int e)
{
  g_assert_cmpuint (m, >, 0);
  while (m % 10 == 0)
    {
      m /= 10;
      e++;
    }
  int n = snprintf (d->digits, sizeof d->digits, "%" G_GUINT64_FORMAT, m);
  d->x = e + n - 1;
}

/* |v| (finite, non-zero) correctly rounded to `precision` + 1 significant
 * digits; with 767 it is exact: a double has at most 767 significant digits,
 * and glibc prints them exactly */
static void
decimal_of_double (Decimal *d, double v, int precision)
{
  char buf[820];
  snprintf (buf, sizeof buf, "%.*e", precision, fabs (v));
  char *e = strchr (buf, 'e');
  g_assert_nonnull (e);
  d->x = atoi (e + 1);
  int n = 0;
  for (char *p = buf; p < e; p++)
    if (*p != '.')
      d->digits[n++] = *p;
  while (n > 1 && d->digits[n - 1] == '0')
    n--;
  d->digits[n] = '\0';
  g_assert_cmpint (d->digits[0], !=, '0');
}

static int
decimal_cmp (const Decimal *a, const Decimal *b)
{
  if (a->x != b->x)
    return a->x < b->x ? -1 : 1;
  const char *p = a->digits, *q = b->digits;
  for (; *p && *q; p++, q++)
    if (*p != *q)
      return *p < *q ? -1 : 1;
  if (*p)
    return 1;
  if (*q)
    return -1;
  return 0;
}

/* the sign of |v| − d for a decimal d of at most 20 digits: v rounded to 25
 * digits compares with d as v does unless it equals d (rounding is monotone
 * and d is one of the 25-digit decimals); then the exact expansion decides */
static int
cmp_double_decimal (double v, const Decimal *d)
{
  Decimal dv;
  decimal_of_double (&dv, v, 24);
  int c = decimal_cmp (&dv, d);
  if (c != 0)
    return c;
  decimal_of_double (&dv, v, 767);
  return decimal_cmp (&dv, d);
}

/* our string's sign, significand digits (as an integer) and exponent */
typedef struct {
  gboolean negative;
  uint64_t m; /* the significant digits */
  int ndigits;
  int e;      /* value = m · 10^e */
} Parsed;

static void
parse_output (const char *s, Parsed *out)
{
  const char *p = s;
  out->negative = (*p == '-');
  if (out->negative)
    p++;
  uint64_t m = 0;
  int nd = 0, e = 0;
  gboolean point = FALSE, started = FALSE;
  for (; *p && *p != 'e'; p++)
    {
      if (*p == '.')
        {
          g_assert_false (point);
          point = TRUE;
          continue;
        }
      g_assert_true (*p >= '0' && *p <= '9');
      if (*p != '0')
        started = TRUE;
      if (started)
        {
          g_assert_cmpint (nd, <, 17);
          m = 10 * m + (uint64_t) (*p - '0');
          nd++;
        }
      if (point)
        e--;
    }
  if (*p == 'e')
    e += atoi (p + 1);
  /* "100" is m = 1, e = 2 */
  while (m != 0 && m % 10 == 0)
    {
      m /= 10;
      e++;
      nd--;
    }
  out->m = m;
  out->ndigits = nd;
  out->e = e;
}

static double
read_decimal (uint64_t m, int e, gboolean negative)
{
  char buf[64];
  snprintf (buf, sizeof buf, "%s%" G_GUINT64_FORMAT "e%d", negative ? "-" : "", m, e);
  return strtod (buf, NULL);
}

static gboolean
reads_back (uint64_t m, int e, gboolean negative, double v)
{
  return read_decimal (m, e, negative) == v;
}

static const uint64_t pow10u[] = {
  1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
  10000000000, 100000000000, 1000000000000, 10000000000000, 100000000000000,
  1000000000000000, 10000000000000000, 100000000000000000, 1000000000000000000,
};

typedef struct {
  long checked, exact_checked, layout_skipped;
} Counts;

static void
check_value (double v, gboolean exact, Counts *counts)
{
  char s[HYD_DTOA_BUF_SIZE + 8];
  memset (s, 'X', sizeof s);
  int len = hyd_dtoa_shortest (v, s);
  g_assert_cmpint (len, ==, (int) strlen (s));
  g_assert_cmpint (len, <=, 24);
  counts->checked++;

  /* round trip, with strtod and with g_ascii_strtod */
  char *end;
  errno = 0;
  double w = strtod (s, &end);
  if (*end != '\0' || memcmp (&w, &v, sizeof v) != 0)
    g_error ("%.17g (%a): \"%s\" reads back as %.17g", v, v, s, w);
  if (exact)
    {
      w = g_ascii_strtod (s, NULL);
      g_assert_true (memcmp (&w, &v, sizeof v) == 0);
    }
  if (v == 0)
    return;

  Parsed p;
  parse_output (s, &p);
  g_assert_true (p.negative == (signbit (v) != 0));
  int k = p.ndigits;
  g_assert_cmpint (k, >=, 1);
  g_assert_cmpint (k, <=, 17);
  int x = p.e + k - 1;

  /* shortest: the (k−1)-digit decimals bracketing v do not read back: the
   * nearest one and its neighbour on v's other side (strtod is monotone, so
   * the nearest reads as a double below v only if it lies below v) */
  char buf[64];
  if (k >= 2)
    {
      snprintf (buf, sizeof buf, "%.*e", k - 2, fabs (v));
      Parsed n;
      parse_output (buf, &n);
      uint64_t m = n.m;
      int e = n.e;
      /* back to k−1 digits: 1e+05 as 10000 × 10^1 when k−1 = 5 */
      while (m < pow10u[k - 2])
        {
          m *= 10;
          e--;
        }
      double wn = fabs (read_decimal (m, e, FALSE));
      gboolean fails;
      if (wn == fabs (v))
        fails = FALSE;
      else if (wn < fabs (v))
        fails = !reads_back (m + 1, e, p.negative, v);
      else if (m == pow10u[k - 2])
        fails = !reads_back (pow10u[k - 1] - 1, e - 1, p.negative, v);
      else
        fails = !reads_back (m - 1, e, p.negative, v);
      if (!fails)
        g_error ("%.17g: \"%s\" has %d digits, but %d read back", v, s, k, k - 1);
    }

  /* layout against glibc's %g */
  if (x < -4 || x >= 17 || x < k)
    {
      snprintf (buf, sizeof buf, "%.*g", k, v);
      if (strcmp (buf, s) != 0)
        {
          /* unless glibc's nearest k-digit decimal is not ours */
          Parsed n;
          parse_output (buf, &n);
          if (n.m == p.m && n.e == p.e)
            g_error ("%.17g: \"%s\", but %%.%dg writes \"%s\"", v, s, k, buf);
          counts->layout_skipped++;
        }
    }
  else
    {
      snprintf (buf, sizeof buf, "%s%" G_GUINT64_FORMAT "%.*s", p.negative ? "-" : "", p.m,
                x + 1 - k, "00000000000000000");
      g_assert_cmpstr (s, ==, buf);
    }

  if (!exact)
    return;
  /* nearest: a neighbour of the same length that reads back is not nearer */
  counts->exact_checked++;
  Decimal mid;
  uint64_t m = p.m;
  int e = p.e;
  while (m < pow10u[k - 1])
    {
      m *= 10;
      e--;
    }
  /* upper neighbour m + 1; midpoint (2m + 1)/2 = (2m + 1)·5 × 10^(e−1) */
  if (reads_back (m + 1, e, p.negative, v))
    {
      decimal_from_uint (&mid, (2 * m + 1) * 5, e - 1);
      int c = cmp_double_decimal (v, &mid);
      if (c > 0 || (c == 0 && (m & 1)))
        g_error ("%.17g: \"%s\", but %" G_GUINT64_FORMAT "e%d is nearer", v, s, m + 1, e);
    }
  /* lower neighbour: m − 1, or 99…9 × 10^(e−1) below a power of ten */
  uint64_t lm = m - 1;
  int le = e;
  uint64_t mid2; /* the midpoint × 2 at exponent le − 0 (or e − 1) */
  int mid_e;
  if (m == pow10u[k - 1])
    {
      lm = pow10u[k] - 1;
      le = e - 1;
      mid2 = 10 * m + lm; /* at exponent e − 1 */
      mid_e = e - 1;
    }
  else
    {
      mid2 = m + lm;
      mid_e = e;
    }
  if (reads_back (lm, le, p.negative, v))
    {
      decimal_from_uint (&mid, mid2 * 5, mid_e - 1);
      int c = cmp_double_decimal (v, &mid);
      if (c < 0 || (c == 0 && (m & 1)))
        g_error ("%.17g: \"%s\", but %" G_GUINT64_FORMAT "e%d is nearer", v, s, lm, le);
    }
}

static void
report (const char *what, const Counts *c)
{
  g_test_message ("%s: %ld values, %ld with the exact nearest check; layout not compared "
                  "(glibc's nearest decimal of that length is not the shortest) for %ld",
                  what, c->checked, c->exact_checked, c->layout_skipped);
}

static double
from_bits (uint64_t u)
{
  double v;
  memcpy (&v, &u, sizeof v);
  return v;
}

static uint64_t
rand_u64 (GRand *r)
{
  return ((uint64_t) g_rand_int (r) << 32) | g_rand_int (r);
}

static void
test_random_bits (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (SEED);
  long n = random_count ();
  Counts c = { 0 };
  for (long i = 0; i < n; i++)
    {
      double v = from_bits (rand_u64 (r));
      if (!isfinite (v))
        continue;
      check_value (v, i % 8 == 0, &c);
      /* subnormals are rare among random patterns: one more per 16 */
      if (i % 16 == 0)
        check_value (from_bits (rand_u64 (r) & ((UINT64_C (1) << 52) - 1)), TRUE, &c);
    }
  report ("random bit patterns", &c);
}

static void
test_simulation_range (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (SEED + 1);
  long n = random_count ();
  Counts c = { 0 };
  for (long i = 0; i < n; i++)
    {
      double v = pow (10.0, g_rand_double_range (r, -12.0, 9.0));
      if (g_rand_boolean (r))
        v = -v;
      if (i % 2 == 1)
        {
          /* a value with fewer digits, as measured or entered data have */
          char buf[40];
          g_snprintf (buf, sizeof buf, "%.*e", g_rand_int_range (r, 0, 17), v);
          v = g_ascii_strtod (buf, NULL);
        }
      check_value (v, i % 8 == 0, &c);
    }
  /* sample times: i·h for output intervals h */
  static const double steps[] = { 1e-3, 1e-4, 1.5e-4, 0.1, 0.01, 3e-5, 1.0 / 2048 };
  for (long i = 0; i < n / 4; i++)
    {
      double h = steps[i % G_N_ELEMENTS (steps)];
      check_value ((double) (i / G_N_ELEMENTS (steps)) * h, i % 8 == 0, &c);
    }
  report ("simulation values", &c);
}

static void
test_integers (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (SEED + 2);
  long n = random_count () / 4;
  Counts c = { 0 };
  for (long i = -100000; i <= 100000; i++)
    check_value ((double) i, i % 8 == 0, &c);
  for (long i = 0; i < n; i++)
    {
      /* up to 2^53 and beyond, every bit length */
      int bits = g_rand_int_range (r, 1, 64);
      uint64_t u = rand_u64 (r) >> (64 - bits);
      check_value ((double) u, i % 8 == 0, &c);
      check_value (-(double) u, FALSE, &c);
    }
  report ("integers", &c);
}

static void
check_with_neighbours (double v, int ulps, Counts *c)
{
  if (!isfinite (v))
    return;
  check_value (v, TRUE, c);
  double up = v, down = v;
  for (int i = 0; i < ulps; i++)
    {
      up = nextafter (up, INFINITY);
      down = nextafter (down, -INFINITY);
      if (isfinite (up))
        check_value (up, TRUE, c);
      if (isfinite (down))
        check_value (down, TRUE, c);
    }
}

static void
test_boundaries (void)
{
  Counts c = { 0 };
  for (int n = -1074; n <= 1023; n++)
    check_with_neighbours (ldexp (1.0, n), 2, &c);
  for (int n = -323; n <= 308; n++)
    {
      char buf[16];
      g_snprintf (buf, sizeof buf, "1e%d", n);
      check_with_neighbours (g_ascii_strtod (buf, NULL), 3, &c);
      g_snprintf (buf, sizeof buf, "5e%d", n);
      check_with_neighbours (g_ascii_strtod (buf, NULL), 1, &c);
    }
  check_with_neighbours (DBL_MIN, 3, &c);
  check_with_neighbours (DBL_MAX, 3, &c);
  check_with_neighbours (DBL_TRUE_MIN, 3, &c);
  check_with_neighbours (9007199254740992.0, 3, &c); /* 2^53 */
  check_with_neighbours (1e17, 3, &c);
  check_with_neighbours (1e-4, 3, &c);
  check_with_neighbours (1e-5, 3, &c);
  /* the first and the last 100 000 subnormals */
  for (uint64_t u = 1; u <= 100000; u++)
    {
      check_value (from_bits (u), TRUE, &c);
      check_value (from_bits ((UINT64_C (1) << 52) - u), u % 8 == 0, &c);
    }
  report ("boundaries", &c);
}

static void
test_layout (void)
{
  static const struct {
    double v;
    const char *s;
  } cases[] = {
    { 0.0, "0" },
    { -0.0, "-0" },
    { 1.0, "1" },
    { -1.0, "-1" },
    { 0.5, "0.5" },
    { 0.1, "0.1" },
    { 0.3, "0.3" },
    { 0.1 + 0.2, "0.30000000000000004" },
    { 1.0 / 3.0, "0.3333333333333333" },
    { 2.0 / 3.0, "0.6666666666666666" },
    { 4.35, "4.35" },
    { 123.25, "123.25" },
    { -1234.5, "-1234.5" },
    { 100.0, "100" },
    { 0.001, "0.001" },
    { 1e-4, "0.0001" },
    { 0.00012345, "0.00012345" },
    { 1e-5, "1e-05" },
    { 1.5e-5, "1.5e-05" },
    { -1.5e-7, "-1.5e-07" },
    { 1e16, "10000000000000000" },
    { 12345678901234567.0, "12345678901234568" },
    { 9007199254740992.0, "9007199254740992" },
    { 9007199254740993.0, "9007199254740992" },
    { 18014398509481984.0, "18014398509481984" },
    { 99999999999999984.0, "99999999999999980" },
    { 1e17, "1e+17" },
    { 123456789012345678.0, "1.2345678901234568e+17" },
    { 9223372036854775808.0, "9.223372036854776e+18" },
    { 1e21, "1e+21" },
    { 1e22, "1e+22" },
    { 1e23, "1e+23" },
    { 1e100, "1e+100" },
    { 1e-100, "1e-100" },
    { 1e-300, "1e-300" },
    { DBL_MAX, "1.7976931348623157e+308" },
    { -DBL_MAX, "-1.7976931348623157e+308" },
    { DBL_MIN, "2.2250738585072014e-308" },
    { DBL_TRUE_MIN, "5e-324" },
    { 2 * DBL_TRUE_MIN, "1e-323" },
    { 3 * DBL_TRUE_MIN, "1.5e-323" },
    { 12345678.9, "12345678.9" },
    { 1e-12, "1e-12" },
    { 2.5e-7, "2.5e-07" },
    { INFINITY, "inf" },
    { -INFINITY, "-inf" },
    { NAN, "nan" },
    { -NAN, "nan" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char s[HYD_DTOA_BUF_SIZE];
      int n = hyd_dtoa_shortest (cases[i].v, s);
      g_assert_cmpstr (s, ==, cases[i].s);
      g_assert_cmpint (n, ==, (int) strlen (cases[i].s));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* strtod and printf of the C locale: the references of the checks */
  setlocale (LC_ALL, "C");
  g_test_add_func ("/engine/dtoa/layout", test_layout);
  g_test_add_func ("/engine/dtoa/boundaries", test_boundaries);
  g_test_add_func ("/engine/dtoa/integers", test_integers);
  g_test_add_func ("/engine/dtoa/simulation-range", test_simulation_range);
  g_test_add_func ("/engine/dtoa/random-bits", test_random_bits);
  return g_test_run ();
}
