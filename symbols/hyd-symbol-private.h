/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-symbol-private.h — the parsed form of a symbol file, shared by the
 * loader (hyd-symbol.c) and the renderer (hyd-symbol-render.c). */
#pragma once

#include "hyd-symbol.h"
#include "hyd-symbol-render.h"

G_BEGIN_DECLS

/* A number in a symbol file: a constant, or bound to a variable as
 * offset + scale · clamp(var / per, min, max) (Hopsan's "start + factor ×
 * variable", design §3.4). */
typedef struct {
  double offset;
  double scale;
  double min, max;   /* clamp of var / per (±INFINITY when absent) */
  char *var;         /* NULL: the constant `offset` */
  char *per;         /* NULL or a divisor variable, e.g. the stroke */
} SymNum;

typedef struct {
  SymNum x, y;
} SymPoint;

typedef enum {
  COND_EQ,
  COND_NE,
  COND_GT,
  COND_LT,
  COND_GE,
  COND_LE,
  COND_SET,
  COND_UNSET,
} SymCondOp;

typedef struct {
  char *var;
  SymCondOp op;
  double number;
  char *string;       /* eq/ne against a string variable */
} SymCond;

typedef enum {
  PAINT_NONE,
  PAINT_BACKGROUND,   /* the symbol fill colour (white on a light theme) */
  PAINT_LINE,
  PAINT_HIGHLIGHT,
  PAINT_PRESSURE,     /* colour of the pressure at a port; nothing when unknown */
  PAINT_CURRENT,      /* the line colour, or the current colour while the port's net carries current */
} SymPaintKind;

typedef struct {
  SymPaintKind kind;
  char *port;         /* PAINT_PRESSURE, PAINT_CURRENT */
} SymPaint;

typedef enum {
  LINE_SOLID,
  LINE_PILOT,
  LINE_CHAIN,
  LINE_SIGNAL,
} SymLineStyle;

typedef enum {
  EL_LINE,
  EL_POLYLINE,
  EL_POLYGON,
  EL_RECT,
  EL_CIRCLE,
  EL_ARC,
  EL_ARROW,
  EL_BLOCK,
  EL_SPRING,
  EL_DOT,
  EL_TEXT,
  EL_GROUP,
} SymElementKind;

typedef enum {
  ALIGN_START,
  ALIGN_CENTRE,
  ALIGN_END,
  ALIGN_BASELINE,    /* vertical only */
} SymAlign;

typedef struct _SymElement SymElement;

struct _SymElement {
  SymElementKind kind;
  GPtrArray *conds;       /* SymCond*, all must hold; NULL = always */
  GPtrArray *highlight_if; /* SymCond*: fill with the highlight colour when all hold */
  SymPaint fill;
  SymPaint stroke;
  SymLineStyle line;
  double width;           /* multiple of the style's line width */

  SymPoint *pts;          /* line 2, polyline/polygon/arrow n, others 1 or 2 */
  guint n_pts;
  gboolean closed;        /* polyline */

  SymNum size_w, size_h;  /* rect */
  SymNum radius;          /* rect corner, circle/arc radius */
  SymNum start, end;      /* arc angles in degrees (clockwise on screen from +x) */
  gboolean arc_three_points; /* arc given as from, through, to */

  double head_length, head_width; /* arrow, M */
  gboolean both_heads;

  HydDirection toward;    /* block: into the envelope */
  double block_length, block_bar;

  int peaks;              /* spring */
  double amplitude;       /* spring, peak to peak, M */

  double diameter;        /* dot; 0 = the style's junction diameter */

  char *text;             /* template with {var} or {var:unit} */
  double text_size;       /* M */
  SymAlign halign, valign;
  gboolean bold;

  GPtrArray *children;    /* group: SymElement* */
  SymNum tx, ty;          /* group translation, M */
  SymNum rotate;          /* group rotation, degrees, about (about) */
  SymPoint about;
};

typedef struct {
  HydSymbolVariable pub;
  char *name;
  char *default_string;
  char *from;
  GArray *tests;          /* double */
  char **values;
} SymVariable;

typedef struct {
  HydSymbolPort pub;
  char *name;
} SymPort;

struct _HydSymbol {
  gint ref_count;
  char *type_id;
  char *name;
  char *filename;
  gboolean port_labels;   /* draw the port letters (valves) */
  HydDirection label_side;
  GPtrArray *ports;       /* SymPort* */
  GPtrArray *variables;   /* SymVariable* */
  GPtrArray *elements;    /* SymElement* */
  gboolean have_bounds;
  HydRect bounds;         /* rest bounds, M */
  /* sweep bounds at default values for each orientation (rotation / 90 +
   * 4 · mirror), relative to the position; computed on first use */
  guint8 sweep_valid[8];
  HydRect sweep[8];
};

struct _HydSymbolState {
  GHashTable *numbers;    /* name → double* */
  GHashTable *strings;    /* name → char* */
  GHashTable *connected;  /* port name set */
};

/* Value of a numeric variable: the state, then the variable's `from`, then
 * its default. FALSE when none of them gives one. */
gboolean _hyd_symbol_resolve_number (const HydSymbol *symbol, const HydSymbolState *state,
                                     const char *name, double *value);
/* Value of a string variable, or NULL. */
const char *_hyd_symbol_resolve_string (const HydSymbol *symbol, const HydSymbolState *state,
                                        const char *name);
/* Expand a text template ("{p:bar} bar"); FALSE when a variable in it has
 * no value (a reading not known yet). */
/* Whether a text element of the symbol shows variable `name` ("{name}"). */
gboolean _hyd_symbol_shows_variable (const HydSymbol *symbol, const char *name);
gboolean _hyd_symbol_expand_text (const HydSymbol *symbol, const HydSymbolState *state, const char *text,
                                  GString *out);
/* Device line width for a multiple of the style's width at `unit` device
 * units per M (clamped, and whole pixels when snapping). */
double _hyd_symbol_device_line_width (const HydSymbolStyle *style, double mult, double unit, gboolean snap);
/* Move a user-space point to the device pixel grid for a line of width lw. */
void _hyd_symbol_snap_point (cairo_t *cr, double lw, double *x, double *y);
/* Rest bounds, computed by the renderer (hyd-symbol-render.c). */
void _hyd_symbol_compute_rest_bounds (const HydSymbol *symbol, HydRect *bounds);

G_END_DECLS
