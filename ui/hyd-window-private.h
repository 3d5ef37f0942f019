/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-window-private.h — the window's state, shared by hyd-window.c (layout
 * and wiring), hyd-window-actions.c (actions and their enabled state),
 * hyd-window-files.c (open, save, autosave, exports) and hyd-window-sim.c
 * (the live simulation). */
#pragma once

#include "hyd-window.h"
#include "hyd-canvas.h"
#include "hyd-live-panel.h"
#include "hyd-palette.h"
#include "hyd-plot-panes.h"
#include "hyd-property-panel.h"
#include "hyd-sim-bar.h"
#include "hyd-state-diagram-pane.h"
#include "hyd-simulation.h"

G_BEGIN_DECLS

typedef enum {
  HYD_INFO_NONE,
  HYD_INFO_MESSAGE,      /* a plain message with a close button */
  HYD_INFO_RECOVERY,     /* recover / discard autosaves */
  HYD_INFO_CIRCUIT,      /* why the circuit could not run: checked again after edits */
} HydInfoKind;

/* Info bar responses. */
enum {
  HYD_RESPONSE_RECOVER = 1,
  HYD_RESPONSE_DISCARD,
  HYD_RESPONSE_SHOW_PROBLEMS,
};

typedef void (*HydWindowContinuation) (HydWindow *self, gpointer user_data);

struct _HydWindow
{
  GtkApplicationWindow parent_instance;

  /* Template widgets */
  GtkLabel *title_label;
  GtkLabel *subtitle_label;
  GMenu *recent_section;
  GtkInfoBar *info_bar;
  GtkLabel *info_label;
  GtkPaned *main_paned;
  GtkPaned *left_paned;
  GtkPaned *right_paned;
  GtkOverlay *canvas_overlay;
  HydCanvas *canvas;
  GtkWidget *running_banner;
  GtkLabel *running_label;
  GtkDrawingArea *legend_area;
  HydPalette *palette;
  HydPropertyPanel *property_panel;
  GtkStack *side_stack;      /* "properties" and "live" */
  GtkWidget *side_box;       /* the side pane: HYD_PROPERTY_PANEL_WIDTH wide, or the widest it needed */
  int side_width;
  GtkWidget *side_switcher;
  HydLivePanel *live_panel;
  HydSimBar *sim_bar;
  HydPlotPanes *plot_panes;
  GtkStack *plots_stack;     /* "plots" and "state-diagram" */
  HydStateDiagramPane *state_diagram;
  GtkWidget *plots_switcher;
  GtkInscription *status_label;
  GtkLabel *mode_label;

  /* Owned */
  HydDocument *document;
  HydSimulation *simulation;
  GSettings *settings;
  char *path;                /* where Save writes, or NULL */
  GPtrArray *recovery;       /* of HydAutosaveEntry*, offered in the info bar */
  char *autosave_path;       /* this window's autosave file, or NULL */
  guint autosave_serial;
  guint autosave_source;
  GCancellable *autosave_cancellable; /* cancelled when the window goes */
  guint64 edits;             /* bumped at every document change */
  guint64 autosaved_edits;   /* edits when the last autosave was written */
  guint geometry_source;
  guint variables_source;    /* the plots' variable list follows edits */
  guint64 variables_generation; /* bumped at every edit: older lists are dropped */
  guint variables_compiles;  /* lists a worker compiled (for tests) */
  guint check_compiles;      /* error-bar checks a worker compiled (for tests) */
  GCancellable *variables_cancellable; /* cancelled when the window goes */
  guint recheck_source;      /* HYD_INFO_CIRCUIT checked again after edits */
  char *last_geometry;
  GPtrArray *info_buttons;   /* of GtkWidget* (borrowed): the info bar's buttons */
  GHashTable *lever_last;    /* component id → last non-zero lever position (int) */
  char *held_valve;          /* id of a spring-return operator held down (returns on release) */
  gint64 last_status_update;
  double cavitation_pressure; /* Pa gauge: below it the canvas shows cavitation */
  guint live_source;         /* the next live beat: canvas and status follow the run */
  GArray *live_drawn;        /* of double: the sample the schematic shows, then per column its largest |value| */
  guint latency_source;      /* BRAMAH_DEBUG_LATENCY: the main loop's delays during a run */
  gint64 latency_last;
  GArray *latency;           /* of double, ms */
  guint latency_frames;      /* frames painted during the run */
  gint64 latency_start_us;
  gulong latency_paint_id;

  HydInfoKind info_kind;
  guint plots_dirty : 1;     /* panes changed since the last save */
  guint recovered : 1;       /* the document came from an autosave */
  guint probe_mode : 1;
  guint paused : 1;
  guint closing : 1;
  guint autosave_writing : 1; /* a write is under way in a worker thread */
  guint autosave_again : 1;   /* edits came while it was: write again when done */
  guint autosave_failed : 1;  /* the last write failed (the user was told) */
  guint live_shown_by_run : 1; /* the run turned to the Live page: its end turns back */
};

/* hyd-window.c */
void _hyd_window_set_document (HydWindow *self, HydDocument *document, const char *path);
void _hyd_window_update_title (HydWindow *self);
gboolean _hyd_window_get_modified (HydWindow *self);
void _hyd_window_show_message (HydWindow *self, GtkMessageType type, const char *message);
void _hyd_window_hide_info (HydWindow *self);
/* The side pane keeps its width while the selection or the live panel
 * changes; it only grows, to the widest it has needed (a long word in a
 * translation), so the schematic beside it does not shrink and grow back. */
void _hyd_window_keep_side_width (HydWindow *self);
/* Before a run: every field valid (and committed), every value of the
 * circuit in the editor's range; else the info bar names the parameter in
 * the user's words, the field is focused, and FALSE. */
gboolean _hyd_window_check_parameters (HydWindow *self);
/* After an edit: a HYD_INFO_CIRCUIT bar is checked again, and hidden once
 * the circuit can run. */
void _hyd_window_recheck_soon (HydWindow *self);

/* hyd-window-actions.c */
void _hyd_window_class_actions_init (GtkWidgetClass *widget_class);
void _hyd_window_actions_update (HydWindow *self);

/* hyd-window-files.c */
void _hyd_window_confirm_discard (HydWindow *self, HydWindowContinuation then, gpointer user_data);
void _hyd_window_new_document (HydWindow *self);
void _hyd_window_open_dialog (HydWindow *self);
void _hyd_window_open_recent (HydWindow *self, const char *uri);
void _hyd_window_examples (HydWindow *self);
void _hyd_window_save (HydWindow *self, HydWindowContinuation then, gpointer user_data);
void _hyd_window_save_as (HydWindow *self, HydWindowContinuation then, gpointer user_data);
void _hyd_window_export_schematic (HydWindow *self);
void _hyd_window_export_csv (HydWindow *self);
void _hyd_window_export_plot (HydWindow *self, guint pane, const char *format);
void _hyd_window_files_init (HydWindow *self);
void _hyd_window_files_dispose (HydWindow *self);
void _hyd_window_autosave_now (HydWindow *self);
void _hyd_window_recover (HydWindow *self);
void _hyd_window_discard_recovery (HydWindow *self);
void _hyd_window_update_recent_menu (HydWindow *self);

/* hyd-window-sim.c */
void _hyd_window_sim_init (HydWindow *self);
/* The pressure legend over the canvas: the canvas's colour scale and the
 * cavitation colour. */
void _hyd_window_draw_legend (HydWindow *self, GtkDrawingArea *area, cairo_t *cr, int width, int height);
void _hyd_window_sim_dispose (HydWindow *self);
void _hyd_window_run (HydWindow *self);
void _hyd_window_set_paused (HydWindow *self, gboolean paused);
void _hyd_window_stop (HydWindow *self);
void _hyd_window_reset (HydWindow *self);
void _hyd_window_live_change (HydWindow *self, const char *component, const char *param, double value);
void _hyd_window_compile_check_async (HydWindow *self);
void _hyd_window_sim_document_changed (HydWindow *self);

G_END_DECLS
