/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-help-text.c — help pages generated from the component catalogue. */
#define G_LOG_DOMAIN "hyd-help-text"

#include "bramah-config.h"
#include "hyd-help-text.h"

#include <glib/gi18n.h>
#include <math.h>
#include "hyd-display-units.h"
#include "hyd-param-value.h"

/* The fluid's default discharge coefficient (circuit-format.md, fluid). */
#define DEFAULT_DISCHARGE_COEFFICIENT 0.7

void
hyd_help_param_row_free (HydHelpParamRow *row)
{
  if (row == NULL)
    return;
  g_free (row->label);
  g_free (row->key);
  g_free (row->default_text);
  g_free (row->range);
  g_free (row->unit);
  g_free (row->description);
  g_free (row);
}

const char *
hyd_help_type_label (const HydComponentType *type)
{
  g_return_val_if_fail (type != NULL, "");
  return _(type->label);
}

const char *
hyd_help_category_label (HydCategory category)
{
  switch (category)
    {
    case HYD_CATEGORY_SOURCES: return _("Sources");
    case HYD_CATEGORY_PUMPS: return _("Pumps");
    case HYD_CATEGORY_VALVES: return _("Valves");
    case HYD_CATEGORY_ACTUATORS: return _("Actuators");
    case HYD_CATEGORY_STORAGE: return _("Storage and lines");
    case HYD_CATEGORY_MEASUREMENT: return _("Measurement");
    case HYD_CATEGORY_MECHANICS: return _("Mechanics");
    case HYD_CATEGORY_SIGNALS: return _("Signals");
    default: return "";
    }
}

const char *
hyd_help_category_title (HydCategory category)
{
  const char *label = hyd_help_category_label (category);
  if (*label)
    return label;
  /* a category appended to HydCategory after this file was written: the
   * engine's own name for it, translated, with a capital (interned, so it
   * lives as long as the labels above) */
  const char *name = _(hyd_category_name (category));
  g_autofree char *first = g_utf8_strup (name, g_utf8_next_char (name) - name);
  g_autofree char *title = g_strconcat (first, g_utf8_next_char (name), NULL);
  return g_intern_string (title);
}

static int
compare_categories (gconstpointer a, gconstpointer b)
{
  HydCategory x = *(const HydCategory *) a, y = *(const HydCategory *) b;
  return x < y ? -1 : x > y;
}

GArray *
hyd_help_categories (const HydComponentType *const *types, guint n_types)
{
  GArray *categories = g_array_new (FALSE, FALSE, sizeof (HydCategory));
  for (guint i = 0; i < n_types; i++)
    {
      gboolean known = FALSE;
      for (guint c = 0; c < categories->len && !known; c++)
        known = g_array_index (categories, HydCategory, c) == types[i]->category;
      if (!known)
        g_array_append_val (categories, types[i]->category);
    }
  g_array_sort (categories, compare_categories);
  return categories;
}

char *
hyd_help_port_kind (const HydPortInfo *port)
{
  g_return_val_if_fail (port != NULL, NULL);
  const char *domain = _(hyd_domain_name (port->domain));
  switch (port->direction)
    {
    case HYD_PORT_INPUT:
      /* translators: a port's domain and direction, e.g. "signal, input" */
      return g_strdup_printf (_("%s, input"), domain);
    case HYD_PORT_OUTPUT:
      /* translators: a port's domain and direction, e.g. "signal, output" */
      return g_strdup_printf (_("%s, output"), domain);
    case HYD_PORT_BIDIRECTIONAL:
    default:
      return g_strdup (domain);
    }
}

static char *
with_unit (const HydParamInfo *info, double si)
{
  g_autofree char *number = hyd_param_value_format (info, si);
  const char *unit = hyd_param_value_unit (info);
  return *unit ? g_strdup_printf ("%s %s", number, unit) : g_steal_pointer (&number);
}

GPtrArray *
hyd_help_param_rows (const HydComponentType *type)
{
  g_return_val_if_fail (type != NULL, NULL);

  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hyd_help_param_row_free);
  for (guint i = 0; i < type->n_params; i++)
    {
      const HydParamInfo *info = &type->params[i];
      HydHelpParamRow *row = g_new0 (HydHelpParamRow, 1);
      row->label = g_strdup (_(info->label));
      row->key = g_strdup (info->name);
      row->description = g_strdup (info->description ? _(info->description) : "");
      row->profile = (info->flags & HYD_PARAM_PROFILE) != 0;

      if (info->flags & HYD_PARAM_ENUM)
        {
          guint def = (guint) info->def;
          row->default_text = g_strdup (info->choices && info->choices[def] ? _(info->choices[def]) : "");
          g_autoptr (GStrvBuilder) shown = g_strv_builder_new ();
          for (guint c = 0; info->choices && info->choices[c]; c++)
            g_strv_builder_add (shown, _(info->choices[c]));
          g_auto (GStrv) labels = g_strv_builder_end (shown);
          g_autofree char *choices = g_strjoinv (", ", labels);
          /* translators: the choices of a parameter, e.g. "one of closed, open, tandem, float" */
          row->range = g_strdup_printf (_("one of %s"), choices);
          row->unit = g_strdup ("");
        }
      else
        {
          if (info->flags & HYD_PARAM_OPTIONAL)
            row->default_text = g_strdup (_("unset"));
          else if (hyd_param_value_may_be_unset (info))
            row->default_text = g_strdup (_("no limit"));
          else if (info->flags & HYD_PARAM_FLUID_CD)
            {
              g_autofree char *cd = with_unit (info, DEFAULT_DISCHARGE_COEFFICIENT);
              /* translators: a default taken from the fluid settings */
              row->default_text = g_strdup_printf (_("the fluid's (%s)"), cd);
            }
          else
            row->default_text = with_unit (info, info->def);
          row->range = hyd_param_value_describe_range (info);
          if (info->flags & HYD_PARAM_INTEGER)
            {
              g_autofree char *range = g_steal_pointer (&row->range);
              row->range = g_strdup_printf (_("%s, whole number"), range);
            }
          row->unit = g_strdup (hyd_param_value_unit (info));
        }
      g_ptr_array_add (rows, row);
    }
  return rows;
}

char *
hyd_help_dup_text (const HydComponentType *type)
{
  g_return_val_if_fail (type != NULL, NULL);

  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "%s (%s)\n", hyd_help_type_label (type), type->id);
  g_string_append_printf (s, "%s: %s\n", _("Category"), hyd_help_category_title (type->category));
  if (type->iso_symbol)
    g_string_append_printf (s, "%s: %s\n", _("ISO 1219 symbol"), _(type->iso_symbol));
  g_string_append_printf (s, "\n%s\n", type->description ? _(type->description) : "");

  g_string_append_printf (s, "\n%s\n", _("Ports"));
  for (guint i = 0; i < type->n_ports; i++)
    {
      const HydPortInfo *port = &type->ports[i];
      g_autofree char *kind = hyd_help_port_kind (port);
      g_string_append_printf (s, "  %s  %s  %s%s\n", port->name, kind,
                              port->description ? _(port->description) : "",
                              port->optional ? _(" (optional)") : "");
    }

  g_autoptr (GPtrArray) rows = hyd_help_param_rows (type);
  g_string_append_printf (s, "\n%s\n", _("Parameters"));
  for (guint i = 0; i < rows->len; i++)
    {
      HydHelpParamRow *row = g_ptr_array_index (rows, i);
      g_string_append_printf (s, "  %s (%s)%s\n", row->label, row->key,
                              row->profile ? _(" — can change over time, live while running") : "");
      g_string_append_printf (s, "    %s: %s; %s: %s", _("default"), row->default_text,
                              _("range"), row->range);
      if (*row->unit)
        g_string_append_printf (s, "; %s: %s", _("unit"), row->unit);
      g_string_append_c (s, '\n');
      if (*row->description)
        g_string_append_printf (s, "    %s\n", row->description);
    }
  return g_string_free (s, FALSE);
}

/* ---- the fluid models (the circuit's fluid settings) ---- */

const char *
hyd_help_fluid_title (void)
{
  return _("Fluid models");
}

const char *const *
hyd_help_fluid_models (void)
{
  static const char *const models[] = { "cavitating", "air", "constant", "tait", NULL };
  return models;
}

char *
hyd_help_fluid_dup_text (void)
{
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "%s\n%s\n\n", hyd_help_fluid_title (),
                          /* translators: keep "fluid" and "bulk_modulus_model": they are keys of the file */
                          _("Circuit settings: \"fluid\" → \"bulk_modulus_model\""));
  g_string_append (s, _("How stiff the oil is decides how fast pressure builds up in a closed "
                        "volume: dp/dt = (B/V)·(Q_in − Q_out − dV/dt), the pressure-rise equation "
                        "with the bulk modulus B (Merritt 1967, Hydraulic Control Systems, ch. 2; "
                        "Manring 2005, Hydraulic Control Systems, ch. 2). The model decides B and "
                        "what happens when a circuit pulls the pressure down towards vacuum."));
  g_string_append (s, "\n\n");
  g_string_append (s, _("cavitating (the default): pure oil with B = 1.5 GPa as long as the pressure "
                        "is above the vapour pressure. Where a circuit pulls harder (an overrunning "
                        "load, a coasting motor, a pump sucking through a throttle) the pressure "
                        "stops at the vapour pressure, −1 bar gauge (0.013 bar absolute), and a void "
                        "of vapour and released gas opens instead; it closes again once the oil has "
                        "refilled it (Burton 1994, PhD thesis, University of Bath, §3.3, eq. 3.24: "
                        "vapour-only void tracking). Oil is never pulled below vacuum and no oil is "
                        "lost; the run warns which volumes cavitated and how large the void grew, "
                        "and a void can be plotted (the variable “<port>.void”). Why "
                        "the default: it is the textbook equation with a constant B, corrected where "
                        "that equation fails, since a liquid cannot carry tension. A circuit that "
                        "never reaches the vapour pressure runs exactly as under \"constant\"."));
  g_string_append (s, "\n\n");
  /* xgettext:no-c-format */
  g_string_append (s, _("air: oil with entrained air (0.5 % by volume at atmospheric pressure). The "
                        "air makes the oil far softer near 0 bar, about 28 MPa instead of 1.5 GPa "
                        "(Merritt 1967, ch. 2; Manring 2005, ch. 2), which gives start-up surges of "
                        "2–3× and ringing near 10 Hz in circuits that run near tank pressure. It has "
                        "the same vapour floor. Choose it to study entrained air or a badly bled "
                        "circuit."));
  g_string_append (s, "\n\n");
  g_string_append (s, _("constant: the same B at every pressure and no floor. The pressure can fall "
                        "below the vapour pressure and even below absolute zero, which real oil "
                        "cannot do (the run warns when it happens); an overrunning load is then held "
                        "back by a \"suction\" that does not exist. Use it to compare with a hand "
                        "calculation."));
  g_string_append (s, "\n\n");
  g_string_append (s, _("tait: B rises with pressure (the Tait equation, as used by Esqué 2008, "
                        "eq. 3.2, with \"tait_a\"), closer to measured mineral oil at high pressure; "
                        "no floor, like \"constant\"."));
  g_string_append_c (s, '\n');
  return g_string_free (s, FALSE);
}

/* ---- the Solver Lab ---- */

char *
hyd_help_solver_lab_dup_text (void)
{
  GString *s = g_string_new (NULL);
  g_string_append (s, _("The Solver Lab runs the open circuit with every solver and tolerance you "
                        "tick, one after the other in the background, exactly as \"bramah-cli "
                        "bench\" does. Each run is compared with a reference run (radau5 at rtol "
                        "1e-10): its error is the largest deviation over the output samples and "
                        "states, in units of the circuit's absolute tolerance. The work-precision "
                        "diagram plots that error against the CPU time of the run, one line per "
                        "solver: lower and further left is better, and the slope shows the order "
                        "the solver reaches on this circuit (Hairer & Wanner 1996, Solving "
                        "Ordinary Differential Equations II, §IV.10)."));
  g_string_append (s, "\n\n");
  g_string_append (s, _("Select a run in the table to see its step sizes h(t) on a logarithmic "
                        "axis, the rejected steps marked ×, and which states limited its steps: "
                        "after every step the solver weighs each state's local error estimate "
                        "against its tolerance, and the state with the largest share decides the "
                        "next step size. Counted over the accepted steps, they are drawn as a heat "
                        "map on the schematic, red for the components whose states limited the "
                        "most steps: these make the solver work hard (a small volume at a pump, a "
                        "light spool). Explicit solvers (dopri5, bs23) on a stiff circuit are "
                        "limited by stability, not accuracy; their steps stay small whatever the "
                        "tolerance. Cancel stops the run in progress; the finished ones stay."));
  g_string_append_c (s, '\n');
  return g_string_free (s, FALSE);
}

/* ---- the Jacobian Sparsity window ---- */

char *
hyd_help_sparsity_dup_text (void)
{
  GString *s = g_string_new (NULL);
  g_string_append (s, _("The Jacobian J of the circuit's equations, J_ij = ∂f_i/∂y_j: how the rate of change "
                        "of state i moves with state j, at the moment the schematic shows (the circuit is run "
                        "again to that time with rodas4 in the background). Each square is a structural "
                        "non-zero, an entry the equations can make non-zero; a hollow grey square is exactly 0 "
                        "at this moment (a closed valve, a load at rest). The states are grouped by component "
                        "in the circuit's order, a node's pressure under the first component with a port on "
                        "the node; lines between the groups show the blocks of coupled components."));
  g_string_append (s, "\n\n");
  g_string_append (s, _("Colour: log10 of |J_ij|·atol_j/atol_i, each entry scaled by the absolute tolerances "
                        "of its two states (the magnitudes the solvers weigh errors by: 100 Pa for a pressure, "
                        "1 µm for a position, and so on). Scaled, every entry is a rate in 1/s, comparable "
                        "with the eigenvalues of the Stiffness window; unscaled, |J_ij| in SI units mixes units "
                        "(a pressure's response to a position in Pa/(m·s) beside a velocity's to a pressure "
                        "in m/(Pa·s²)), and its colours tell units rather than coupling. Untick \"Scale by the "
                        "states' tolerances\" to see |J_ij| as computed."));
  g_string_append (s, "\n\n");
  g_string_append (s, _("Hover a square: its value, ∂(dX/dt)/∂Y, and the components of its row and of its "
                        "column lit on the schematic. Select components on the schematic: the rows and "
                        "columns of their states are marked. Zoom with the buttons or Ctrl+scroll; when the "
                        "whole matrix of a large circuit is shown, each pixel shows the largest entry under "
                        "it."));
  g_string_append (s, "\n\n");
  g_string_append (s, _("The counts: states, structural non-zeros and density; the bandwidth (the farthest "
                        "non-zero from the diagonal) in the engine's order and as drawn; and the non-zeros of "
                        "KLU's L and U factors of the iteration matrix (1/(γh))·I − J of a short step, in the "
                        "ordering the solvers use (block triangular form, then AMD). Their excess over the "
                        "matrix's own non-zeros is the fill-in, what a sparse LU costs at each step (Davis & "
                        "Palamadai Natarajan 2010, ACM TOMS 37(3), KLU)."));
  g_string_append_c (s, '\n');
  return g_string_free (s, FALSE);
}

/* ---- the "Parameter Study" window ---- */

char *
hyd_help_study_dup_text (guint traces, guint points, guint points_drawn, guint max_runs)
{
  return g_strdup_printf (
      _("Parameter Study (main menu, or right-click a parameter in the property panel: “Vary in a Study…”) "
        "runs the circuit many times with other values of some parameters, as “bramah-cli sweep” does. Pick "
        "the parameters and their ranges in the panel's units (checked against each parameter's range), a "
        "design — a grid of N points per parameter (every combination), N random or Latin-hypercube samples "
        "of the ranges (McKay, Beckman & Conover 1979), or Monte Carlo with a normal distribution (mean, SD) "
        "per parameter — the metrics (final value, minimum, maximum, mean, RMS, overshoot, settling time, "
        "ITAE, ISE, IAE of a variable, or the time it first reaches or falls to a threshold) and the variable "
        "to draw. Start copies the circuit as it is: edits "
        "made while the study runs do not change it. The runs go on as many threads as “Jobs” says (by "
        "default the number of processors), with progress and Cancel; the window stays usable. "
        "“Time limit a run” stops a run over that many seconds (its row says timeout). The runs are threads "
        "of the application, not the child processes of “bramah-cli sweep”: a run that crashed the engine "
        "would end the application. Results: the "
        "traces of up to %u runs spread over the study (each reduced to %u points, its minima and maxima "
        "kept; these runs are run once more in one more thread, since a run of the study keeps only its "
        "metrics' variables), coloured by the first varied value, with a colour bar; a metric against the "
        "first parameter (coloured by the second, if there is one; at most %u points drawn); for random, "
        "Latin-hypercube and Monte Carlo studies a histogram of a metric with its mean and standard "
        "deviation; and the failed runs with their reasons (a failed run never stops the study). “Save "
        "CSV…” writes the rows “bramah-cli sweep” writes for the same study, sorted by run; the window shows "
        "that command. The window keeps every row and takes studies of up to %u runs; larger ones are for "
        "the command line."),
      traces, points, points_drawn, max_runs);
}
