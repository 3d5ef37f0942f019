/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-fluid.h — the working fluid: density, viscosity, bulk modulus models,
 * and the node state of the cavitation-safe models (docs/circuit-format.md,
 * "The default fluid: cavitation"). */
#pragma once

#include <glib.h>
#include "hyd-smooth.h"

G_BEGIN_DECLS

#define HYD_P_ATM 101325.0

typedef enum {
  HYD_BULK_CONSTANT,
  HYD_BULK_TAIT,
  HYD_BULK_AIR,
  HYD_BULK_CAVITATING,  /* the default: liquid modulus above the vapour pressure, a void below */
} HydBulkModel;

/* Width (Pa of the node state ψ) of the smoothing that joins p = ψ above the
 * vapour pressure p_v to p = p_v below it. */
#define HYD_CAVITATION_SMOOTHING 1e3

typedef struct {
  double density;               /* kg/m³ */
  double kinematic_viscosity;   /* m²/s */
  double bulk_modulus;          /* Pa (see circuit-format.md for each model) */
  HydBulkModel bulk_model;
  double tait_a;                /* (0, 0.5] */
  double air_fraction;          /* [0, 0.5) */
  double vapour_pressure;       /* Pa gauge, [−1e5, 0] */
  double transition_reynolds;   /* > 0 */
  double discharge_coefficient; /* (0, 1] */
} HydFluid;

void hyd_fluid_init_default (HydFluid *fluid);
/* Effective bulk modulus B(p) at gauge pressure p, and dB/dp ("cavitating":
 * the liquid's, bulk_modulus, constant). */
double hyd_fluid_bulk_modulus (const HydFluid *fluid, double p, double *dB_dp);

/* The node of a circuit holds one state ψ, its pseudo-pressure. For
 * "constant" and "tait" ψ is the pressure. For the cavitation-safe models
 * ("cavitating", "air") ψ is the pressure above the vapour pressure p_v;
 * below it ψ measures the node's void (vapour and released gas at p_v):
 *   p = F(ψ) = p_v + r(ψ − p_v + ε/2),   w(ψ) = r(ψ − p_v + ε/2) − (ψ − p_v) ≥ 0,
 *   liquid fraction φ = 1 − w/B_l,        void volume = V·(1 − φ) = V·w/B_l,
 * with r the C² ramp (0 below 0, ε·(t³ − t⁴/2) with t = z/ε on (0, ε), z − ε/2
 * above), ε = HYD_CAVITATION_SMOOTHING and B_l = bulk_modulus. The node's
 * liquid, V·φ·ρ(p)/ρ_ref, changes by what flows in (mass conservation):
 *   V·c(ψ)·ψ̇ = Σ q_in − φ·V̇,   c = dφ/dψ + φ·F'(ψ)/B(F(ψ)),
 * so above the floor c = 1/B(p) (the contract's node equation) and deep in a
 * void c = 1/B_l. */
typedef struct {
  double p;       /* F(ψ), Pa gauge */
  double dp;      /* F'(ψ) */
  double d2p;     /* F''(ψ) */
  double phi;     /* weight φ of the volume rate: the liquid fraction λ ("cavitating"),
                     or G = λ·ρ(p)/ρ(0) ("air"); φ = phi_full − phi_void, the
                     two parts kept apart so that a small void is not lost in
                     rounding against 1 */
  double phi_full;
  double phi_void;
  double dphi;    /* dφ/dψ */
  double c;       /* capacity per volume c(ψ), 1/Pa */
  double dc;      /* dc/dψ */
  double voidf;   /* void fraction 1 − φ = w/B_l (0 without a void) */
} HydNodeFluid;

/* The capacity of a point of the fluid — a node of the circuit, or an
 * internal point of a distributed line — holding the volume V (m³) with
 * the compliances C_w(p) (m³/Pa; accumulators, line walls; ∂C_w/∂p = dCw)
 * at state ψ: C = V·c(ψ) + C_w·F'(ψ), and ∂C/∂ψ = V·c' + (∂C_w/∂p)·F'² +
 * C_w·F''. The point's equation is C·ψ̇ = hyd_fluid_node_inflow (...). */
void hyd_fluid_node_capacity (const HydNodeFluid *nf, double V, double Cw, double dCw,
                              double *C, double *dC_dpsi);
/* The right side of the point's equation: the net inflow Q_in (m³/s) less
 * the part φ·V̇ of the rate V̇ at which its volume grows that the liquid
 * fills (φ kept in its two parts, hyd-fluid.h above). */
double hyd_fluid_node_inflow (const HydNodeFluid *nf, double Q_in, double Vdot);

/* TRUE for the models with a floor at the vapour pressure and a void. */
gboolean hyd_fluid_has_floor (const HydFluid *fluid);
/* The node quantities at state ψ. */
void hyd_fluid_node (const HydFluid *fluid, double psi, HydNodeFluid *out);
/* The state ψ with F(ψ) = p and no void: p itself, or for the floored models
 * the inverse of F on (p_v, ∞); a p at or below p_v gives the ψ where the
 * floor starts (p = p_v, no void to speak of: w = ε/2). */
double hyd_fluid_node_state_for_pressure (const HydFluid *fluid, double p);
/* Orifice coefficients with the fluid's C_d, or with cd when cd > 0. */
HydOrificeCoeffs hyd_fluid_orifice_coeffs (const HydFluid *fluid, double cd);
const char *hyd_bulk_model_name (HydBulkModel model);
gboolean hyd_bulk_model_from_name (const char *name, HydBulkModel *model);

G_END_DECLS
