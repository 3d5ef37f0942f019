/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-dtoa.h — shortest round-trip formatting of doubles (the CSV numbers).
 *
 * hyd_dtoa_shortest (v, buf) writes the decimal d1.d2…dk × 10^X with the
 * fewest significant digits k (1 ≤ k ≤ 17) that reads back as exactly v
 * (strtod / g_ascii_strtod, round to nearest even); among the decimals of that
 * length it takes the one nearest to v (an exact tie: the one whose last digit
 * is even). Giulietti, "The Schubfach way to render doubles" (2020).
 *
 * The text is what printf ("%.17g") writes for that decimal: the C locale,
 * '.' as the decimal point, no '+' for positive numbers, no trailing zeros
 * after the point and no trailing point:
 *   - scientific when X < -4 or X >= 17: d1 then, if k > 1, '.' and d2…dk,
 *     then 'e', the exponent's sign (always) and at least two exponent digits:
 *     "1e-05", "2.5e-07", "1e+17", "1.2345678901234568e+17", "5e-324";
 *   - fixed otherwise: "0.0001", "0.1", "123.25", "100", "12345678901234568";
 *   - zero "0", negative zero "-0", "inf", "-inf", and "nan" for every NaN.
 * At most 24 characters ("-2.2250738585072014e-308") plus the NUL. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Writes the shortest decimal string that reads back (strtod, round to nearest) as exactly v,
 * NUL-terminated, into buf (at least HYD_DTOA_BUF_SIZE bytes); returns its length. */
#define HYD_DTOA_BUF_SIZE 32
/* the longest text it writes, without the NUL */
#define HYD_DTOA_MAX_LEN 24
int hyd_dtoa_shortest (double v, char *buf);

G_END_DECLS
