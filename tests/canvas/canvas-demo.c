/* SPDX-License-Identifier: GPL-3.0-or-later */
/* canvas-demo.c — a small window around HydCanvas for screenshots and for
 * driving the widget by hand or with xdotool: a palette (click an entry,
 * then the canvas; or drag it onto the canvas), tool buttons, the canvas,
 * and a status line.
 *
 *   canvas-demo [--dark] [--live] [--save OUT.bramah] [CIRCUIT.bramah]
 *
 * Ctrl+S saves to OUT (or back to CIRCUIT); the window's title shows the
 * document's state. --live fakes a running simulation (pressure colours,
 * moving rods) to look at the live view. */
#include <glib-unix.h>
#include <math.h>
#include <signal.h>
#include <string.h>

#include "hyd-canvas.h"
#include "hyd-catalogue.h"
#include "hyd-schematic.h"
#include "hyd-symbol-render.h"

typedef struct {
  GtkWidget *window;
  HydCanvas *canvas;
  GtkLabel *status;
  GtkWidget *palette;
  HydDocument *doc;
  char *save_path;
  gboolean trace;
} Demo;

static gboolean dark_icons;

/* --stats: how long each frame takes from the start of GTK's paint phase
 * (snapshot and render) to its end, printed when the window closes. */
static GArray *paint_times;
static gint64 paint_start;

static void
before_paint (GdkFrameClock *clock, gpointer data)
{
  paint_start = g_get_monotonic_time ();
}

static void
after_paint (GdkFrameClock *clock, gpointer data)
{
  double ms = (g_get_monotonic_time () - paint_start) / 1000.0;
  g_array_append_val (paint_times, ms);
}

static void
watch_frames (GtkWidget *window)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);
  g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint), NULL);
  g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint), NULL);
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static void
print_paint_stats (void)
{
  if (paint_times == NULL || paint_times->len == 0)
    return;
  g_array_sort (paint_times, compare_double);
  double sum = 0;
  for (guint i = 0; i < paint_times->len; i++)
    sum += g_array_index (paint_times, double, i);
  guint i95 = (guint) MIN (paint_times->len - 1, ceil (0.95 * paint_times->len) - 1);
  g_print ("paint phase: %u frames, mean %.2f ms, p95 %.2f ms, max %.2f ms\n", paint_times->len,
           sum / paint_times->len, g_array_index (paint_times, double, i95),
           g_array_index (paint_times, double, paint_times->len - 1));
}

static GdkTexture *
symbol_icon (const char *type, int size)
{
  HydSymbolLibrary *lib = hyd_symbol_library_get_default (NULL);
  HydSymbol *sym = lib ? hyd_symbol_library_lookup (lib, type) : NULL;
  if (sym == NULL)
    return NULL;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, size, size);
  cairo_t *cr = cairo_create (s);
  HydSymbolStyle style;
  if (dark_icons)
    hyd_symbol_style_init_dark (&style);
  else
    hyd_symbol_style_init_light (&style);
  style.fill = (HydRgba) { 1, 1, 1, 0 };
  style.level_of_detail = FALSE;
  hyd_symbol_render_preview (cr, sym, NULL, &style, 2, 2, size - 4, size - 4, 6.0);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  g_autoptr (GBytes) bytes = g_bytes_new (cairo_image_surface_get_data (s),
                                          cairo_image_surface_get_stride (s) * size);
  GdkTexture *t = gdk_memory_texture_new (size, size, GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, bytes,
                                          cairo_image_surface_get_stride (s));
  cairo_surface_destroy (s);
  return t;
}

static GdkContentProvider *
palette_drag_prepare (GtkDragSource *source, double x, double y, gpointer user_data)
{
  const char *type = g_object_get_data (G_OBJECT (gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (source))),
                                        "type-id");
  return gdk_content_provider_new_typed (G_TYPE_STRING, type);
}

static void
palette_activated (GtkListBox *box, GtkListBoxRow *row, Demo *demo)
{
  const char *type = g_object_get_data (G_OBJECT (row), "type-id");
  hyd_canvas_begin_place (demo->canvas, type);
}

static GtkWidget *
palette_new (Demo *demo)
{
  GtkWidget *box = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (box), GTK_SELECTION_NONE);
  gtk_list_box_set_activate_on_single_click (GTK_LIST_BOX (box), TRUE);
  guint n = 0;
  const HydComponentType *const *types = hyd_catalogue_list (&n);
  for (guint i = 0; i < n; i++)
    {
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *h = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      g_autoptr (GdkTexture) icon = symbol_icon (types[i]->id, 32);
      GtkWidget *image = icon ? gtk_image_new_from_paintable (GDK_PAINTABLE (icon)) : gtk_image_new ();
      gtk_image_set_pixel_size (GTK_IMAGE (image), 32);
      GtkWidget *label = gtk_label_new (types[i]->label);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_box_append (GTK_BOX (h), image);
      gtk_box_append (GTK_BOX (h), label);
      gtk_widget_set_margin_start (h, 4);
      gtk_widget_set_margin_end (h, 4);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), h);
      gtk_widget_set_tooltip_text (row, types[i]->id);
      g_object_set_data (G_OBJECT (row), "type-id", (gpointer) types[i]->id);
      GtkDragSource *drag = gtk_drag_source_new ();
      gtk_drag_source_set_actions (drag, GDK_ACTION_COPY);
      g_signal_connect (drag, "prepare", G_CALLBACK (palette_drag_prepare), NULL);
      gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (drag));
      gtk_list_box_append (GTK_LIST_BOX (box), row);
    }
  g_signal_connect (box, "row-activated", G_CALLBACK (palette_activated), demo);
  demo->palette = box;
  GtkWidget *scroll = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), box);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_size_request (scroll, 230, -1);
  return scroll;
}

static void
update_title (Demo *demo)
{
  const char *path = hyd_document_get_path (demo->doc);
  g_autofree char *base = path ? g_path_get_basename (path) : g_strdup ("untitled");
  g_autofree char *title = g_strdup_printf ("%s%s — canvas demo", hyd_document_get_modified (demo->doc) ? "*" : "",
                                            base);
  gtk_window_set_title (GTK_WINDOW (demo->window), title);
}

static void
set_status (Demo *demo, const char *text)
{
  gtk_label_set_text (demo->status, text);
}

static void
selection_changed (HydCanvas *canvas, Demo *demo)
{
  g_auto (GStrv) ids = hyd_canvas_get_selection (canvas);
  guint nw = 0;
  g_autofree guint *wires = hyd_canvas_get_selected_wires (canvas, &nw);
  g_autofree char *list = g_strjoinv (", ", ids);
  g_autofree char *wires_text = nw ? g_strdup_printf ("%s%u wire%s", *list ? " + " : "", nw, nw > 1 ? "s" : "")
                                   : g_strdup ("");
  g_autofree char *text = g_strdup_printf ("Selected: %s%s", list, wires_text);
  set_status (demo, text);
}

static void
probe (HydCanvas *canvas, const char *variable, Demo *demo)
{
  g_autofree char *text = g_strdup_printf ("Probe: %s", variable);
  set_status (demo, text);
}

static void
activated (HydCanvas *canvas, const char *id, Demo *demo)
{
  g_autofree char *text = g_strdup_printf ("Activated: %s", id);
  set_status (demo, text);
}

static gboolean
save (GtkWidget *widget, GVariant *args, gpointer user_data)
{
  Demo *demo = user_data;
  g_auto (GStrv) problems = hyd_canvas_check (demo->canvas);
  if (problems)
    {
      g_autofree char *list = g_strjoinv (", ", problems);
      g_autofree char *text = g_strdup_printf ("Not connected: %s (saved anyway)", list);
      set_status (demo, text);
      hyd_canvas_set_highlight (demo->canvas, (const char *const *) problems);
    }
  else
    hyd_canvas_set_highlight (demo->canvas, NULL);
  const char *path = demo->save_path ? demo->save_path : hyd_document_get_path (demo->doc);
  if (path == NULL)
    path = "canvas-demo.bramah";
  g_autoptr (GError) error = NULL;
  if (!hyd_document_save (demo->doc, path, &error))
    set_status (demo, error->message);
  else if (problems == NULL)
    {
      g_autofree char *text = g_strdup_printf ("Saved %s", path);
      set_status (demo, text);
    }
  update_title (demo);
  return TRUE;
}

static void
tool_clicked (GtkButton *button, Demo *demo)
{
  /* the actions live on the canvas, which is not the button's ancestor */
  gtk_widget_activate_action (GTK_WIDGET (demo->canvas), g_object_get_data (G_OBJECT (button), "action"), NULL);
}

static GtkWidget *
tool_button (Demo *demo, const char *label, const char *action)
{
  GtkWidget *b = gtk_button_new_with_label (label);
  g_object_set_data (G_OBJECT (b), "action", (gpointer) action);
  g_signal_connect (b, "clicked", G_CALLBACK (tool_clicked), demo);
  gtk_widget_set_focus_on_click (b, FALSE);
  return b;
}

/* A fake simulation for --live: pressures by port name, rods and spools
 * moving slowly. */
static double
fake_pressure (const char *component_id, const char *port, gpointer user_data)
{
  if (g_str_equal (port, "T") || g_str_equal (port, "S"))
    return 2e5;
  if (g_str_equal (port, "P"))
    return 1.6e7;
  if (g_str_equal (port, "A"))
    return 1.1e7;
  if (g_str_equal (port, "B"))
    return 0.4e7;
  return NAN;
}

static gboolean
fake_variable (const char *component_id, const char *variable, double *value, gpointer user_data)
{
  double t = g_get_monotonic_time () / 1e6;
  if (g_str_equal (variable, "x"))
    *value = 0.25 * (1 + sin (t));
  else if (g_str_equal (variable, "spool"))
    *value = 1.0;
  else if (g_str_equal (variable, "opening"))
    *value = 0.6;
  else
    return FALSE;
  return TRUE;
}

static gboolean
live_tick (gpointer data)
{
  hyd_canvas_queue_live_redraw (HYD_CANVAS (data));
  return G_SOURCE_CONTINUE;
}

/* --trace: where things are on screen (window coordinates), for the
 * end-to-end test that drives the demo with xdotool. Printed when the
 * window is shown and after every edit or zoom. */
static void
trace_point (Demo *demo, const char *kind, const char *name, double x, double y)
{
  double wx, wy;
  hyd_canvas_doc_to_widget (demo->canvas, x, y, &wx, &wy);
  graphene_point_t in = GRAPHENE_POINT_INIT (wx, wy), out;
  if (gtk_widget_compute_point (GTK_WIDGET (demo->canvas), demo->window, &in, &out))
    g_print ("%s %s %.0f %.0f\n", kind, name, out.x, out.y);
}

static gboolean
trace_positions (gpointer data)
{
  Demo *demo = data;
  graphene_rect_t cb;
  if (gtk_widget_compute_bounds (GTK_WIDGET (demo->canvas), demo->window, &cb))
    {
      double ox, oy;
      hyd_canvas_widget_to_doc (demo->canvas, 0, 0, &ox, &oy);
      g_print ("canvas %.0f %.0f %.0f %.0f %.6f %.3f %.3f\n", cb.origin.x, cb.origin.y, cb.size.width,
               cb.size.height, hyd_canvas_get_zoom (demo->canvas), ox, oy);
    }
  HydSymbolLibrary *lib = hyd_symbol_library_get_default (NULL);
  const HydCircuit *c = hyd_document_get_circuit (demo->doc);
  for (guint i = 0; i < c->components->len; i++)
    {
      HydCircuitComponent *comp = g_ptr_array_index (c->components, i);
      HydSymbol *sym = lib ? hyd_symbol_library_lookup (lib, comp->type) : NULL;
      if (sym == NULL)
        continue;
      HydSymbolPose pose;
      hyd_symbol_pose_from_component (&pose, comp);
      HydRect b;
      hyd_symbol_placed_bounds (sym, &pose, &b);
      trace_point (demo, "body", comp->id, (b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2);
      for (guint k = 0; k < hyd_symbol_get_n_ports (sym); k++)
        {
          const HydSymbolPort *port = hyd_symbol_get_port (sym, k);
          g_autofree char *ref = g_strdup_printf ("%s.%s", comp->id, port->name);
          double x, y;
          HydDirection d;
          gboolean has;
          if (hyd_schematic_endpoint (c, lib, ref, &x, &y, &d, &has))
            trace_point (demo, "port", ref, x, y);
        }
    }
  g_autoptr (GArray) pts = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < c->connections->len; i++)
    {
      HydCircuitConnection *cn = g_ptr_array_index (c->connections, i);
      if (!hyd_schematic_wire_points (c, lib, cn, pts))
        continue;
      /* the middle of its longest segment, on the grid */
      const double *p = (const double *) pts->data;
      double best = -1, mx = 0, my = 0;
      for (guint k = 0; k + 1 < pts->len / 2; k++)
        {
          double len = fabs (p[2 * k + 2] - p[2 * k]) + fabs (p[2 * k + 3] - p[2 * k + 1]);
          if (len > best)
            {
              best = len;
              mx = 10 * round ((p[2 * k] + p[2 * k + 2]) / 20);
              my = 10 * round ((p[2 * k + 1] + p[2 * k + 3]) / 20);
            }
        }
      g_autofree char *name = g_strdup_printf ("%s-%s", cn->from, cn->to);
      trace_point (demo, "wire", name, mx, my);
    }
  g_print ("end\n");
  return G_SOURCE_REMOVE;
}

static void
trace_palette (Demo *demo)
{
  for (GtkWidget *row = gtk_widget_get_first_child (demo->palette); row; row = gtk_widget_get_next_sibling (row))
    {
      const char *type = g_object_get_data (G_OBJECT (row), "type-id");
      graphene_rect_t r;
      if (type && gtk_widget_compute_bounds (row, demo->window, &r))
        g_print ("palette %s %.0f %.0f\n", type, r.origin.x + r.size.width / 2, r.origin.y + r.size.height / 2);
    }
  trace_positions (demo);
}

static void
trace_later (Demo *demo)
{
  if (demo->trace)
    g_idle_add (trace_positions, demo);
}

static gboolean
trace_start (gpointer data)
{
  trace_palette (data);
  return G_SOURCE_REMOVE;
}

static gboolean
terminate (gpointer window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  gboolean dark = FALSE, live = FALSE, stats = FALSE, trace = FALSE;
  char *save_path = NULL;
  GOptionEntry entries[] = {
    { "dark", 0, 0, G_OPTION_ARG_NONE, &dark, "Dark theme", NULL },
    { "live", 0, 0, G_OPTION_ARG_NONE, &live, "Fake a running simulation", NULL },
    { "save", 0, 0, G_OPTION_ARG_FILENAME, &save_path, "Where Ctrl+S saves", "FILE" },
    { "stats", 0, 0, G_OPTION_ARG_NONE, &stats, "Print frame times when closed", NULL },
    { "trace", 0, 0, G_OPTION_ARG_NONE, &trace, "Print where the palette, ports and parts are", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("[CIRCUIT]");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  gtk_init ();
  if (dark)
    g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  dark_icons = dark;

  Demo demo = { 0 };
  demo.save_path = save_path;
  demo.trace = trace;
  if (argc > 1)
    {
      demo.doc = hyd_document_new_from_file (argv[1], &error);
      if (demo.doc == NULL)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
    }
  else
    demo.doc = hyd_document_new ();

  demo.window = gtk_window_new ();
  /* 1280 × 800, or the screen when it is smaller */
  int width = 1280, height = 800;
  GListModel *monitors = gdk_display_get_monitors (gdk_display_get_default ());
  g_autoptr (GdkMonitor) monitor = g_list_model_get_n_items (monitors) ? g_list_model_get_item (monitors, 0) : NULL;
  if (monitor)
    {
      GdkRectangle geometry;
      gdk_monitor_get_geometry (monitor, &geometry);
      width = MIN (width, geometry.width);
      height = MIN (height, geometry.height);
    }
  gtk_window_set_default_size (GTK_WINDOW (demo.window), width, height);
  GtkWidget *vbox = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_widget_set_margin_start (bar, 6);
  gtk_widget_set_margin_end (bar, 6);
  gtk_widget_set_margin_top (bar, 4);
  gtk_widget_set_margin_bottom (bar, 4);
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  demo.canvas = HYD_CANVAS (hyd_canvas_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (demo.canvas), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (demo.canvas), TRUE);
  gtk_paned_set_start_child (GTK_PANED (paned), palette_new (&demo));
  gtk_paned_set_end_child (GTK_PANED (paned), GTK_WIDGET (demo.canvas));
  gtk_paned_set_resize_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_position (GTK_PANED (paned), 230);

  const struct { const char *label, *action; } tools[] = {
    { "Select", "canvas.tool-select" }, { "Wire (W)", "canvas.tool-wire" }, { "Probe", "canvas.tool-probe" },
    { "Rotate (R)", "canvas.rotate" },  { "Mirror (M)", "canvas.mirror" },  { "Delete", "canvas.delete" },
    { "Undo", "canvas.undo" },          { "Redo", "canvas.redo" },          { "Fit", "canvas.zoom-fit" },
    { "Labels", "canvas.toggle-labels" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      GtkWidget *b = tool_button (&demo, tools[i].label, tools[i].action);
      gtk_box_append (GTK_BOX (bar), b);
    }
  demo.status = GTK_LABEL (gtk_label_new (""));
  gtk_label_set_xalign (demo.status, 0);
  gtk_widget_set_margin_start (GTK_WIDGET (demo.status), 8);
  gtk_widget_set_hexpand (GTK_WIDGET (demo.status), TRUE);
  gtk_label_set_ellipsize (demo.status, PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (demo.status));

  gtk_box_append (GTK_BOX (vbox), bar);
  gtk_box_append (GTK_BOX (vbox), paned);
  gtk_window_set_child (GTK_WINDOW (demo.window), vbox);

  hyd_canvas_set_document (demo.canvas, demo.doc);
  g_signal_connect (demo.canvas, "selection-changed", G_CALLBACK (selection_changed), &demo);
  g_signal_connect (demo.canvas, "probe", G_CALLBACK (probe), &demo);
  g_signal_connect (demo.canvas, "component-activated", G_CALLBACK (activated), &demo);
  g_signal_connect_swapped (demo.doc, "changed", G_CALLBACK (update_title), &demo);
  g_signal_connect_swapped (demo.doc, "changed", G_CALLBACK (trace_later), &demo);
  g_signal_connect_swapped (demo.canvas, "notify::zoom", G_CALLBACK (trace_later), &demo);

  GtkEventController *shortcuts = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_GLOBAL);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control>s"),
                                                          gtk_callback_action_new (save, &demo, NULL)));
  gtk_widget_add_controller (demo.window, shortcuts);

  if (live)
    {
      hyd_canvas_set_live (demo.canvas, fake_pressure, fake_variable, NULL, NULL);
      g_timeout_add (33, live_tick, demo.canvas);
    }

  g_unix_signal_add (SIGTERM, terminate, demo.window);
  update_title (&demo);
  gtk_window_present (GTK_WINDOW (demo.window));
  if (trace)
    g_timeout_add (500, trace_start, &demo);
  if (stats)
    {
      paint_times = g_array_new (FALSE, FALSE, sizeof (double));
      watch_frames (demo.window);
    }
  gtk_widget_grab_focus (GTK_WIDGET (demo.canvas));
  while (g_list_model_get_n_items (gtk_window_get_toplevels ()) > 0)
    g_main_context_iteration (NULL, TRUE);
  print_paint_stats ();
  g_object_unref (demo.doc);
  g_free (save_path);
  return 0;
}
