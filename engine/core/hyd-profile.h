/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-profile.h — time-varying parameter values (circuit-format.md, Profiles).
 *
 * A profile is a constant or one of step / ramp / sine / table. Profiles are
 * evaluated per integration interval: the piece is chosen by a time strictly
 * inside the current interval (t_piece), and that piece's formula is then
 * evaluated at t, so a value at an interval's end is its left limit. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum {
  HYD_PROFILE_CONSTANT,
  HYD_PROFILE_STEP,
  HYD_PROFILE_RAMP,
  HYD_PROFILE_SINE,
  HYD_PROFILE_TABLE,
} HydProfileKind;

typedef struct _HydProfile HydProfile;

HydProfile *hyd_profile_new_constant (double value);
/* Parses a number or a profile object. Errors (HYD_CIRCUIT_ERROR) say what is
 * wrong with the profile; the caller prefixes the component and parameter. */
HydProfile *hyd_profile_new_from_json (JsonNode *node, GError **error);
HydProfile *hyd_profile_copy (const HydProfile *profile);
void hyd_profile_free (HydProfile *profile);
/* A JSON node for the profile (a number for a constant). */
JsonNode *hyd_profile_to_json (const HydProfile *profile);

HydProfileKind hyd_profile_get_kind (const HydProfile *profile);
gboolean hyd_profile_is_constant (const HydProfile *profile);
/* Value at t using the piece in force at t_piece; writes dv/dt (may be NULL). */
double hyd_profile_eval (const HydProfile *profile, double t, double t_piece, double *dv_dt);
/* The value in force just after t (the piece starting at t for a breakpoint). */
double hyd_profile_value_after (const HydProfile *profile, double t);
/* The smallest and largest value the profile takes. */
void hyd_profile_get_range (const HydProfile *profile, double *min, double *max);
/* Appends the profile's discontinuity times (doubles) to times. */
void hyd_profile_collect_breakpoints (const HydProfile *profile, GArray *times);
/* TRUE when the two profiles are the same constant or the same profile. */
gboolean hyd_profile_equal (const HydProfile *a, const HydProfile *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HydProfile, hyd_profile_free)

G_END_DECLS
