/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-eigen.c — eigenvalues and participation factors of a Jacobian with
 * LAPACK's dgeevx (docs/analysis.md). */
#include "hyd-eigen.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>


G_DEFINE_QUARK (hyd-analysis-error-quark, hyd_analysis_error)

void
hyd_spectrum_free (HydSpectrum *s)
{
  if (s == NULL)
    return;
  g_free (s->re);
  g_free (s->im);
  g_free (s->zero);
  g_free (s->bound);
  g_free (s->participation);
  g_free (s);
}

/* An eigenvalue counts as zero — no mode at all — when its magnitude is
 * within max(n·ε·‖J̃‖₁/s_i, n·ε·‖J‖₁): LAPACK's error bound for the
 * eigensolver (J̃ the balanced matrix, s_i the reciprocal condition number
 * of λ_i; Anderson et al., LAPACK Users' Guide, 3rd ed. 1999, §4.8.1), and
 * the rounding of the Jacobian itself, whose entries carry the rounding of
 * the sums they come from (a flow balance Q − A·v that is zero at rest
 * comes out as ε·Q), normwise n·ε·‖J‖₁ of the unbalanced matrix. The
 * first-order factor 1/s_i grows without limit at a multiple eigenvalue
 * (s_i → 0: two equal lags in series make a Jordan block), where an
 * eigenvalue moves by O(√ε) instead (Wilkinson 1965, The Algebraic
 * Eigenvalue Problem, ch. 2): LAPACK's bound is capped at √(n·ε)·ρ(J), and
 * the second term is not divided by s_i. Since s_i ≤ 1 and ‖J̃‖₁ ≥ ρ(J),
 * the bound is never below n·ε·ρ(J): relative to the spectral radius, a
 * computed λ this small cannot be told from 0. A conserved quantity (the oil of a
 * closed circuit) or a structural zero (a shaft angle nothing depends on)
 * gives λ = 0 exactly, which dgeevx returns as ±1e-16·ρ(J), and which
 * counted as a decaying mode made stiffness ratios of 1e15–1e19. */
HydSpectrum *
hyd_spectrum_compute (const double *J, guint n, GError **error)
{
  g_autoptr (HydSpectrum) s = g_new0 (HydSpectrum, 1);
  s->n = n;
  s->re = g_new0 (double, MAX (n, 1));
  s->im = g_new0 (double, MAX (n, 1));
  s->zero = g_new0 (gboolean, MAX (n, 1));
  s->bound = g_new0 (double, MAX (n, 1));
  s->participation = g_new0 (double, MAX ((gsize) n * n, 1));
  if (n == 0)
    return g_steal_pointer (&s);
  g_autofree double *a = g_memdup2 (J, (gsize) n * n * sizeof (double));
  g_autofree double *vl = g_new (double, (gsize) n * n), *vr = g_new (double, (gsize) n * n);
  g_autofree double *scale = g_new (double, n), *rconde = g_new (double, n), *rcondv = g_new (double, n);
  lapack_int ilo, ihi;
  double abnrm = 0.0;
  for (gsize k = 0; k < (gsize) n * n; k++)
    if (!isfinite (a[k]))
      {
        g_set_error (error, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_NUMERIC,
                     "the Jacobian has a value that is not finite (row %u, column %u)",
                     (guint) (k % n), (guint) (k / n));
        return NULL;
      }
  lapack_int info = LAPACKE_dgeevx (LAPACK_COL_MAJOR, 'B', 'V', 'V', 'E', (lapack_int) n, a,
                                    (lapack_int) n, s->re, s->im, vl, (lapack_int) n, vr, (lapack_int) n,
                                    &ilo, &ihi, scale, &abnrm, rconde, rcondv);
  if (info != 0)
    {
      g_set_error (error, HYD_ANALYSIS_ERROR, HYD_ANALYSIS_ERROR_NUMERIC, "LAPACK dgeevx failed (info %d)", (int) info);
      return NULL;
    }
  s->norm = abnrm;
  double norm1 = 0;
  for (guint j = 0; j < n; j++)
    {
      double col = 0;
      for (guint i = 0; i < n; i++)
        col += fabs (J[i + (gsize) j * n]);
      norm1 = MAX (norm1, col);
    }
  double rho = 0;
  for (guint i = 0; i < n; i++)
    rho = MAX (rho, hypot (s->re[i], s->im[i]));
  for (guint i = 0; i < n; i++)
    {
      double lapack = MIN (n * DBL_EPSILON * abnrm / MAX (rconde[i], DBL_MIN), sqrt (n * DBL_EPSILON) * rho);
      s->bound[i] = MAX (lapack, n * DBL_EPSILON * norm1);
      s->zero[i] = hypot (s->re[i], s->im[i]) <= s->bound[i];
    }
  /* participation: |l_k|·|r_k| of the complex vectors (a pair shares it) */
  for (guint i = 0; i < n; i++)
    {
      double *p = s->participation + (gsize) i * n;
      gboolean pair = s->im[i] != 0.0;
      guint c = i;  /* the column of the real part */
      if (pair && s->im[i] < 0 && i > 0)
        c = i - 1;
      double sum = 0.0;
      for (guint k = 0; k < n; k++)
        {
          double rr = vr[k + (gsize) c * n], lr = vl[k + (gsize) c * n];
          double ri = pair ? vr[k + (gsize) (c + 1) * n] : 0.0;
          double li = pair ? vl[k + (gsize) (c + 1) * n] : 0.0;
          p[k] = hypot (rr, ri) * hypot (lr, li);
          sum += p[k];
        }
      for (guint k = 0; k < n; k++)
        p[k] = sum > 0 ? p[k] / sum : 0.0;
    }
  return g_steal_pointer (&s);
}

double
hyd_spectrum_stiffness_ratio (const HydSpectrum *s, guint *n_zero)
{
  double maxre = 0.0, minre = INFINITY;
  guint nz = 0;
  for (guint i = 0; i < s->n; i++)
    if (s->zero[i])
      nz++;
    else if (s->re[i] < 0)
      {
        maxre = MAX (maxre, -s->re[i]);
        minre = MIN (minre, -s->re[i]);
      }
  if (n_zero)
    *n_zero = nz;
  return minre > 0 && isfinite (minre) ? maxre / minre : NAN;
}

double
hyd_spectrum_euler_step_limit (const HydSpectrum *s, guint i)
{
  g_return_val_if_fail (i < s->n, NAN);
  if (s->zero[i])
    return INFINITY;
  if (!(s->re[i] < 0))
    return 0.0;
  double m2 = s->re[i] * s->re[i] + s->im[i] * s->im[i];
  return -2.0 * s->re[i] / m2;
}

guint
hyd_spectrum_top_states (const HydSpectrum *s, guint i, double min_share, guint *states, guint max)
{
  g_return_val_if_fail (i < s->n, 0);
  const double *p = s->participation + (gsize) i * s->n;
  guint m = 0;
  for (guint k = 0; k < s->n; k++)
    {
      if (!(p[k] >= min_share))
        continue;
      /* insertion into the sorted top list */
      guint at = m;
      while (at > 0 && p[states[at - 1]] < p[k])
        at--;
      if (at >= max)
        continue;
      guint end = MIN (m, max - 1);
      memmove (states + at + 1, states + at, (end - at) * sizeof (guint));
      states[at] = k;
      if (m < max)
        m++;
    }
  return m;
}
