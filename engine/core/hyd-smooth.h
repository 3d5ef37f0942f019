/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-smooth.h — the smooth helpers and the orifice law (spec/components.md).
 *
 * One implementation, shared by every component. Each helper returns its
 * value and writes its first derivative(s); all are C¹ but not C². */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HYD_SMOOTH_EPS 0.01

/* soft_ramp(z, ε): 0 for z ≤ 0; z²/(2ε) on (0, ε); z − ε/2 for z ≥ ε. */
double hyd_soft_ramp (double z, double eps, double *d_dz);
/* Second derivative of soft_ramp (piecewise constant: 0, 1/ε, 0). */
double hyd_soft_ramp_dd (double z, double eps);
/* clamp01(z, ε) = soft_ramp(z + ε/2, ε) − soft_ramp(z − 1 + ε/2, ε). */
double hyd_clamp01 (double z, double eps, double *d_dz);
/* open01(z, ε) = clamp01((1 + ε)·z − ε/2, ε): exactly 0 for z ≤ 0, 1 for z ≥ 1. */
double hyd_open01 (double z, double eps, double *d_dz);
/* sgn_smooth(v, v_ε) = tanh(v / v_ε). */
double hyd_sgn_smooth (double v, double v_eps, double *d_dv);

/* The orifice law (Ellman–Piché two-regime law, Esqué 2008, §3.2.4, eq. 3.7,
 * with Δp_tr reconstructed where the text is garbled). Flow q through a path of open area A (m²)
 * under a pressure drop dp (Pa); C_d, ρ (kg/m³), ν (m²/s), Re_tr.
 * Writes ∂q/∂Δp and ∂q/∂A (either pointer may be NULL). */
typedef struct {
  double cd;
  double rho;
  double nu;
  double re_tr;
} HydOrificeCoeffs;

#define HYD_ORIFICE_MIN_AREA 1e-20

double hyd_orifice_flow (const HydOrificeCoeffs *c, double dp, double area,
                         double *dq_ddp, double *dq_darea);
/* Δp_tr for an area (Pa); 0 for a closed path. */
double hyd_orifice_transition_dp (const HydOrificeCoeffs *c, double area);
/* TRUE when |dp| is inside the laminar branch (for display and lint). */
gboolean hyd_orifice_is_laminar (const HydOrificeCoeffs *c, double dp, double area);
/* A_nom from a nominal flow at a nominal pressure drop. */
double hyd_orifice_nominal_area (const HydOrificeCoeffs *c, double q_nom, double dp_nom);

G_END_DECLS
