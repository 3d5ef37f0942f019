/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-dtoa.c — CPU time per number of hyd_dtoa_shortest against
 * snprintf ("%.17g") and g_ascii_formatd ("%.10g") (the CSV writer's former
 * format), on values like a simulation writes. Built, not run as a test.
 *
 *   bench-dtoa [N [RUNS]]   (default 1 000 000 values, 9 runs)
 *
 * Prints, for each routine, the median over the runs of the process CPU time
 * per number, and the median of the per-run ratios to hyd_dtoa_shortest. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hyd-dtoa.h"

static double
cpu_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (double *x, int n)
{
  qsort (x, (size_t) n, sizeof *x, cmp_double);
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

enum { DTOA, PRINTF17, FORMATD10, N_ROUTINES };
static const char *names[N_ROUTINES] = {
  "hyd_dtoa_shortest", "snprintf %.17g", "g_ascii_formatd %.10g",
};

static size_t
run (int routine, const double *v, long n)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  size_t sum = 0;
  for (long i = 0; i < n; i++)
    {
      switch (routine)
        {
        case DTOA:
          sum += (size_t) hyd_dtoa_shortest (v[i], buf);
          break;
        case PRINTF17:
          sum += (size_t) snprintf (buf, sizeof buf, "%.17g", v[i]);
          break;
        default:
          g_ascii_formatd (buf, sizeof buf, "%.10g", v[i]);
          sum += strlen (buf);
          break;
        }
    }
  return sum;
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 1000000;
  int runs = argc > 2 ? atoi (argv[2]) : 9;
  if (n < 1 || runs < 1 || runs > 100)
    {
      fprintf (stderr, "usage: bench-dtoa [N [RUNS]] (N >= 1, 1 <= RUNS <= 100)\n");
      return 2;
    }

  /* a simulation's columns: time on a grid, pressures (1e5…3e7 Pa), flows
   * (±1e-6…1e-3 m³/s), positions (0…0.1 m), velocities (±1e-3…1 m/s) */
  GRand *r = g_rand_new_with_seed (20261126);
  double *v = g_new (double, n);
  for (long i = 0; i < n; i++)
    {
      switch (i % 5)
        {
        case 0:
          v[i] = (double) (i / 5) * (3.0 / 2048);
          break;
        case 1:
          v[i] = g_rand_double_range (r, 1e5, 3e7);
          break;
        case 2:
          v[i] = (g_rand_boolean (r) ? 1 : -1) * pow (10.0, g_rand_double_range (r, -6, -3));
          break;
        case 3:
          v[i] = g_rand_double_range (r, 0, 0.1);
          break;
        default:
          v[i] = (g_rand_boolean (r) ? 1 : -1) * pow (10.0, g_rand_double_range (r, -3, 0));
          break;
        }
    }
  g_rand_free (r);

  double t[N_ROUTINES][100], ratio[N_ROUTINES][100];
  size_t sink = 0;
  for (int k = 0; k < runs; k++)
    for (int routine = 0; routine < N_ROUTINES; routine++)
      {
        double t0 = cpu_seconds ();
        sink += run (routine, v, n);
        t[routine][k] = (cpu_seconds () - t0) / n * 1e9;
      }
  for (int k = 0; k < runs; k++)
    for (int routine = 0; routine < N_ROUTINES; routine++)
      ratio[routine][k] = t[routine][k] / t[DTOA][k];

  printf ("%ld values, %d runs, medians (checksum %zu)\n", n, runs, sink);
  for (int routine = 0; routine < N_ROUTINES; routine++)
    printf ("  %-24s %8.1f ns/number   %6.2f× hyd_dtoa_shortest\n", names[routine],
            median (t[routine], runs), median (ratio[routine], runs));
  g_free (v);
  return 0;
}
