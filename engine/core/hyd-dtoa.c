/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-dtoa.c — shortest round-trip decimal for a double.
 *
 * The decimal is chosen as in Raffaello Giulietti, "The Schubfach way to
 * render doubles" (2020): for v = c·2^q, with rounding interval R_v = [v_l, v_r]
 * (its ends included when c is even, as round-to-nearest-even reads them
 * back as v), take k with 10^k <= |R_v| < 10^(k+1) (§8, the integer
 * logarithms of §6); then R_v holds at most one multiple of 10^(k+1) and at
 * least one of 10^k, and the answer is that multiple of 10^(k+1), or the
 * multiple of 10^k in R_v nearest to v (§8, Theorem 8.1). The quantities
 * 4·v·10^-k, 4·v_l·10^-k and 4·v_r·10^-k are computed with a 126-bit
 * approximation g of 10^-k and rounded to odd (§9: round to odd keeps every
 * comparison with an even integer exact, which is all §8 needs).
 *
 * One deliberate difference from the paper, whose target is Java's
 * Double.toString: Java wants at least two digits, so the paper skips the
 * multiple of 10^(k+1) when s < 100 and widens c < 3 (two subnormals). We
 * want the shortest decimal, also when it has one digit ("5e-324"), so the
 * multiple of 10^(k+1) is tried whenever s >= 10 (with s < 10 both candidates
 * s·10^k and (s+1)·10^k already have a single digit) and there is no widening.
 *
 * The power-of-ten table (hyd-dtoa-table.h) is generated with exact integer
 * arithmetic by build-aux/gen-dtoa-table.py. */
#include "hyd-dtoa.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "hyd-dtoa-table.h"

#define C_MIN (UINT64_C (1) << 52) /* the smallest normal significand */
#define Q_MIN (-1074)              /* the exponent of the subnormals */
#define MASK63 ((UINT64_C (1) << 63) - 1)

/* ⌊g·cp / 2^127⌋, its bit 0 set when the dropped part is not zero ("round to
 * odd"), with g = g1·2^63 + g0 (Giulietti 2020, §9). The low half g0·cp only
 * contributes its upper 64 bits, and g1·cp loses its lowest bit; the paper
 * shows that neither changes the result for the g and cp that occur. */
static inline uint64_t
round_to_odd (const uint64_t g[2], uint64_t cp)
{
  unsigned __int128 hi = (unsigned __int128) g[0] * cp;
  uint64_t lo = (uint64_t) (((unsigned __int128) g[1] * cp) >> 64);
  unsigned __int128 sum = (hi >> 1) + lo; /* ≈ g·cp / 2^64 */
  uint64_t floor_part = (uint64_t) (sum >> 63);
  uint64_t sticky = ((uint64_t) sum & MASK63) != 0;
  return floor_part | sticky;
}

/* The decimal f·10^e chosen for v = c·2^q (c >= 1). */
static inline void
schubfach (uint64_t c, int q, uint64_t *f, int *e)
{
  /* endpoints of R_v are in it when c is even (ties to even read back as v) */
  uint64_t out = c & 1;
  uint64_t cb = c << 2;
  uint64_t cbr = cb + 2;
  uint64_t cbl;
  int k;

  if (c != C_MIN || q == Q_MIN)
    {
      cbl = cb - 2;
      k = HYD_DTOA_FLOG10POW2 (q);
    }
  else
    {
      /* at a power of two the spacing below is half the spacing above */
      cbl = cb - 1;
      k = HYD_DTOA_FLOG10_3Q_POW2 (q);
    }
  int h = q + HYD_DTOA_FLOG2POW10 (-k) + 2; /* 2 <= h <= 5: cb << h < 2^61 */
  const uint64_t *g = hyd_dtoa_g[-k - HYD_DTOA_B_MIN];

  uint64_t vb = round_to_odd (g, cb << h);
  uint64_t vbl = round_to_odd (g, cbl << h);
  uint64_t vbr = round_to_odd (g, cbr << h);

  uint64_t s = vb >> 2; /* ⌊v·10^-k⌋ */
  if (s >= 10)
    {
      /* the one multiple of 10^(k+1) that may lie in R_v: shorter than any
       * multiple of 10^k there */
      uint64_t sp10 = s / 10 * 10;
      uint64_t tp10 = sp10 + 10;
      bool up_in = vbl + out <= sp10 << 2;
      bool wp_in = (tp10 << 2) + out <= vbr;
      if (up_in != wp_in)
        {
          *f = up_in ? sp10 : tp10;
          *e = k;
          return;
        }
    }
  uint64_t t = s + 1;
  bool u_in = vbl + out <= s << 2;
  bool w_in = (t << 2) + out <= vbr;
  if (u_in != w_in)
    {
      *f = u_in ? s : t;
      *e = k;
      return;
    }
  /* both in R_v: the nearer to v; a tie goes to the even one */
  int64_t cmp = (int64_t) (vb - ((s + t) << 1));
  *f = (cmp < 0 || (cmp == 0 && (s & 1) == 0)) ? s : t;
  *e = k;
}

static const char digit_pairs[201] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

static const uint64_t pow10_table[20] = {
  UINT64_C (1), UINT64_C (10), UINT64_C (100), UINT64_C (1000), UINT64_C (10000),
  UINT64_C (100000), UINT64_C (1000000), UINT64_C (10000000), UINT64_C (100000000),
  UINT64_C (1000000000), UINT64_C (10000000000), UINT64_C (100000000000),
  UINT64_C (1000000000000), UINT64_C (10000000000000), UINT64_C (100000000000000),
  UINT64_C (1000000000000000), UINT64_C (10000000000000000),
  UINT64_C (100000000000000000), UINT64_C (1000000000000000000),
  UINT64_C (10000000000000000000),
};

/* number of decimal digits of f >= 1 */
static inline int
decimal_length (uint64_t f)
{
  /* 1233/4096 ≈ log10 2: an estimate that is exact or one short */
  int bits = 64 - __builtin_clzll (f);
  int n = (bits * 1233) >> 12;
  return n + 1 - (f < pow10_table[n]);
}

/* writes the 8 decimal digits of x < 10^8 (leading zeros included) */
static inline void
write_8_digits (char *p, uint32_t x)
{
  uint32_t hi = x / 10000, lo = x % 10000;
  memcpy (p, digit_pairs + 2 * (hi / 100), 2);
  memcpy (p + 2, digit_pairs + 2 * (hi % 100), 2);
  memcpy (p + 4, digit_pairs + 2 * (lo / 100), 2);
  memcpy (p + 6, digit_pairs + 2 * (lo % 100), 2);
}

/* writes the n decimal digits of f (f < 10^17, n its length) to p[0..n-1] */
static inline void
write_digits (char *p, uint64_t f, int n)
{
  char *end = p + n;
  uint32_t head;
  if (f >= 100000000)
    {
      end -= 8;
      write_8_digits (end, (uint32_t) (f % 100000000));
      head = (uint32_t) (f / 100000000);
    }
  else
    head = (uint32_t) f;
  while (head >= 100)
    {
      end -= 2;
      memcpy (end, digit_pairs + 2 * (head % 100), 2);
      head /= 100;
    }
  if (head >= 10)
    memcpy (end - 2, digit_pairs + 2 * head, 2);
  else
    end[-1] = (char) ('0' + head);
}

/* f·10^e (f >= 1) laid out as printf "%.17g" lays out a decimal, at p; p0 is
 * the start of the caller's buffer (p <= p0 + 1). The digits are written in
 * place: a wide reload of digits just stored as pairs would stall the store
 * forwarding, so only single bytes are moved. */
static int
format_decimal (char *p0, char *p, uint64_t f, int e)
{
  while (f % 10 == 0)
    {
      f /= 10;
      e++;
    }
  int n = decimal_length (f);
  int x = e + n - 1; /* the exponent of the first digit */

  if (x < -4 || x >= 17)
    {
      write_digits (p + 1, f, n);
      p[0] = p[1];
      p[1] = '.';
      p += n > 1 ? n + 1 : 1;
      *p++ = 'e';
      unsigned ax;
      if (x < 0)
        {
          *p++ = '-';
          ax = (unsigned) -x;
        }
      else
        {
          *p++ = '+';
          ax = (unsigned) x;
        }
      if (ax >= 100)
        {
          *p++ = (char) ('0' + ax / 100);
          ax %= 100;
        }
      memcpy (p, digit_pairs + 2 * ax, 2);
      p += 2;
    }
  else if (x < 0)
    {
      /* 0.000ddd */
      memcpy (p, "0.000", 5);
      p += 1 - x;
      write_digits (p, f, n);
      p += n;
    }
  else if (n <= x + 1)
    {
      /* an integer: ddd000 (x + 1 <= 17 characters) */
      memcpy (p, "00000000000000000", 17);
      write_digits (p, f, n);
      p += x + 1;
    }
  else
    {
      /* ddd.ddd */
      write_digits (p + 1, f, n);
      for (int i = 0; i <= x; i++)
        p[i] = p[i + 1];
      p[x + 1] = '.';
      p += n + 1;
    }
  *p = '\0';
  return (int) (p - p0);
}

int
hyd_dtoa_shortest (double v, char *buf)
{
  uint64_t bits;
  memcpy (&bits, &v, sizeof bits);
  char *p = buf;
  unsigned biased = (unsigned) (bits >> 52) & 0x7ff;
  uint64_t frac = bits & (C_MIN - 1);

  if (biased == 0x7ff)
    {
      if (frac != 0)
        {
          memcpy (buf, "nan", 4);
          return 3;
        }
      if (bits >> 63)
        *p++ = '-';
      memcpy (p, "inf", 4);
      return (int) (p - buf) + 3;
    }
  if (bits >> 63)
    *p++ = '-';
  if (biased == 0 && frac == 0)
    {
      memcpy (p, "0", 2);
      return (int) (p - buf) + 1;
    }

  uint64_t c;
  int q;
  if (biased == 0)
    {
      c = frac;
      q = Q_MIN;
    }
  else
    {
      c = frac | C_MIN;
      q = (int) biased - 1075;
      /* an integer below 2^53 is its own shortest decimal: R_v (at most
       * one wide) holds no other integer and no decimal with fewer digits */
      if (q <= 0 && q >= -52)
        {
          uint64_t f = c >> -q;
          if (f << -q == c)
            return format_decimal (buf, p, f, 0);
        }
    }
  uint64_t f;
  int e;
  schubfach (c, q, &f, &e);
  return format_decimal (buf, p, f, e);
}
