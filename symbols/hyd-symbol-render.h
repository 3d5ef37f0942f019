/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-symbol-render.h — drawing a symbol with Cairo, in a given state.
 *
 * Every function takes a cairo_t whose current transformation maps canvas
 * units (1 unit = 1 px at 100 % zoom) to device units; the symbol's pose
 * places it on the canvas. Line widths are given in M and scale with the
 * zoom, but never fall below style->min_line_width device units, and with
 * style->snap they are aligned to device pixels so that they stay sharp. */
#pragma once

#include <cairo.h>
#include "hyd-symbol.h"

G_BEGIN_DECLS

typedef struct {
  double r, g, b, a;
} HydRgba;

typedef enum {
  HYD_PORT_LABELS_AUTO,  /* the symbol file decides (valves show P, T, A, B) */
  HYD_PORT_LABELS_ALL,
  HYD_PORT_LABELS_NONE,
} HydPortLabels;

typedef enum {
  HYD_PORT_FREE,          /* not connected */
  HYD_PORT_CONNECTED,
  HYD_PORT_INCOMPATIBLE,  /* a wire being drawn cannot end here (another domain) */
  HYD_PORT_HOVER,         /* under the pointer */
} HydPortStatus;

typedef enum {
  HYD_SYMBOL_RENDER_SELECTED = 1 << 0,  /* a halo in the selection colour */
  HYD_SYMBOL_RENDER_HOVER = 1 << 1,     /* a halo in the hover colour */
} HydSymbolRenderFlags;

typedef struct {
  HydRgba background;      /* the page */
  HydRgba fill;            /* envelopes, circles, the ball, the piston (hides wires behind) */
  HydRgba line;            /* working lines and outlines */
  HydRgba text;            /* port letters and text inside symbols */
  HydRgba label;           /* component ids and names */
  HydRgba highlight;       /* an energised solenoid */
  HydRgba selection;       /* halo of a selected symbol */
  HydRgba hover;           /* halo of the symbol under the pointer */
  HydRgba port_free;
  HydRgba port_connected;
  HydRgba port_incompatible;
  HydRgba signal;          /* signal lines */
  HydRgba pressure_low;    /* ramp end at pressure_min (tank) */
  HydRgba pressure_high;   /* ramp end at pressure_max (p_ref) */
  HydRgba cavitation;      /* below cavitation_pressure */
  double pressure_min;     /* Pa */
  double pressure_max;     /* Pa; the highest relief setting, or 200 bar */
  double cavitation_pressure; /* Pa gauge */
  double line_width;       /* M: 0.15 on screen, 0.1 in print (design §4) */
  double min_line_width;   /* device units */
  double junction_diameter; /* M: five line widths */
  double halo_width;       /* M, on each side of a line */
  double port_text_size;   /* M */
  double label_text_size;  /* M */
  const char *font_family;
  gboolean snap;           /* align lines to device pixels (screen, PNG) */
  gboolean level_of_detail; /* leave out small details when zoomed far out */
  HydPortLabels port_labels;
  HydRgba current;         /* an electrical wire carrying current (FluidSIM's red) */
} HydSymbolStyle;

/* Black lines on white (the screen theme, w = 0.15 M). */
void hyd_symbol_style_init_light (HydSymbolStyle *style);
/* Light lines on a dark background. */
void hyd_symbol_style_init_dark (HydSymbolStyle *style);
/* For SVG and PDF: as light, w = 0.1 M, no pixel snapping, full detail. */
void hyd_symbol_style_init_print (HydSymbolStyle *style);
/* Teaching colour of a pressure (design §3.2): a blue→red ramp interpolated
 * in Oklab over [pressure_min, pressure_max], clamped; the cavitation colour
 * below cavitation_pressure; the line colour when p is NaN (unknown). */
void hyd_symbol_style_pressure_colour (const HydSymbolStyle *style, double p, HydRgba *colour);

void hyd_rgba_set_source (cairo_t *cr, const HydRgba *colour);

/* Draw a placed symbol. `state` may be NULL (the rest drawing). Port leads
 * are taken from the file and never move; optional ports are drawn only
 * when the state says they are connected. */
void hyd_symbol_render (cairo_t *cr, const HydSymbol *symbol, const HydSymbolPose *pose,
                        const HydSymbolState *state, const HydSymbolStyle *style, guint flags);
/* Draw a symbol centred and scaled to fit a box given in the cairo's user
 * units (palette icons, the contact sheet); M is at most `max_module` units. */
void hyd_symbol_render_preview (cairo_t *cr, const HydSymbol *symbol, const HydSymbolState *state,
                                const HydSymbolStyle *style, double x, double y, double width,
                                double height, double max_module);
/* A marker on a port at a world point: an open circle on a free port, a
 * small dot on a connected one, a cross on an incompatible one, a ring under
 * the pointer. */
void hyd_symbol_render_port_marker (cairo_t *cr, double wx, double wy, HydPortStatus status,
                                    const HydSymbolStyle *style);

/* Is a world point on the symbol: inside a filled shape, or within
 * `tolerance` M of a line (the guide uses 0.3 M)? `state` may be NULL. */
gboolean hyd_symbol_hit_test (const HydSymbol *symbol, const HydSymbolPose *pose,
                              const HydSymbolState *state, double wx, double wy, double tolerance);
/* World bounds of a placed symbol in a state (a cylinder's rod grows with x),
 * with its text upright as drawn; never smaller than the rest box. `state`
 * may be NULL (the rest drawing). */
void hyd_symbol_state_bounds (const HydSymbol *symbol, const HydSymbolPose *pose,
                              const HydSymbolState *state, HydRect *bounds);

/* World bounds of everything a placed symbol can cover as its parts move:
 * the union over each numeric variable's listed values ("test" in the file:
 * the spool at −1 and +1, the piston at both ends, a reading shown), with
 * the other variables as in `state` (its parameters), or at their defaults
 * when `state` is NULL (then it is cached per orientation and cheap).
 * Labels go outside it. */
void hyd_symbol_sweep_bounds (const HydSymbol *symbol, const HydSymbolPose *pose, const HydSymbolState *state,
                              HydRect *bounds);

/* Device units per canvas unit of a cairo context (its zoom). */
double hyd_symbol_device_scale (cairo_t *cr);
/* Upright text at a world point; halign and valign are 0 (left/top), 0.5
 * or 1 (right/bottom) of the text's box. `size` is in M. Used for labels. */
void hyd_symbol_draw_text (cairo_t *cr, const HydSymbolStyle *style, double wx, double wy,
                           const char *text, double size, gboolean bold, double halign, double valign,
                           const HydRgba *colour);
/* Size in canvas units of a text drawn with hyd_symbol_draw_text. */
void hyd_symbol_measure_text (const HydSymbolStyle *style, const char *text, double size, gboolean bold,
                              double *width, double *height);

G_END_DECLS
