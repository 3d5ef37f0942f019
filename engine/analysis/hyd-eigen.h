/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-eigen.h — the spectrum of a Jacobian: eigenvalues, which of them are
 * zero within rounding, participation factors, the stiffness ratio
 * (docs/analysis.md). Shared by `bramah-cli describe`, `explain` and
 * `linearize` and the application's stiffness view. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The errors of engine/analysis/: a numerical failure (LAPACK, a value
 * that is not finite), a bad request (an unknown variable or parameter),
 * a run that did not reach the operating point. */
#define HYD_ANALYSIS_ERROR (hyd_analysis_error_quark ())
GQuark hyd_analysis_error_quark (void);
typedef enum {
  HYD_ANALYSIS_ERROR_NUMERIC,
  HYD_ANALYSIS_ERROR_REQUEST,
  HYD_ANALYSIS_ERROR_RUN,
} HydAnalysisErrorCode;

typedef struct {
  guint n;
  double *re;              /* [n] real parts, 1/s */
  double *im;              /* [n] imaginary parts, rad/s; a complex pair is
                              stored conjugate-next, positive part first */
  gboolean *zero;          /* [n] |λ| within the rounding bound: not a mode */
  double *bound;           /* [n] that bound, 1/s */
  /* [n × n], column i the participation of each state k in mode i:
   * |l_ki·r_ki| / Σ_k |l_ki·r_ki| (Pérez-Arriaga, Verghese & Schweppe
   * 1982), so each column sums to 1. */
  double *participation;
  double norm;             /* ‖J̃‖₁ of the balanced matrix */
} HydSpectrum;

/* The spectrum of J (n × n, column-major, not modified). NULL when LAPACK
 * fails (error set). n may be 0. */
HydSpectrum *hyd_spectrum_compute (const double *J, guint n, GError **error);
void hyd_spectrum_free (HydSpectrum *spectrum);

/* max/min |Re λ| over the decaying modes (Re λ < 0, not zero within
 * rounding); NAN when there are none. n_zero (may be NULL) receives the
 * count of eigenvalues zero within rounding. */
double hyd_spectrum_stiffness_ratio (const HydSpectrum *spectrum, guint *n_zero);

/* The largest step with which forward Euler is stable on mode i,
 * −2·Re λ/|λ|² (|1 + hλ| ≤ 1); INFINITY for a zero eigenvalue, 0 for a
 * mode that does not decay (Euler amplifies it at any step). */
double hyd_spectrum_euler_step_limit (const HydSpectrum *spectrum, guint i);

/* The states that take part in mode i, largest first: indices into
 * states[] of at most max entries with participation ≥ min_share; returns
 * how many. */
guint hyd_spectrum_top_states (const HydSpectrum *spectrum, guint i, double min_share,
                               guint *states, guint max);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydSpectrum, hyd_spectrum_free)

G_END_DECLS
