/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-comp-signals.c — the signal blocks (docs/domains.md, "Signals"):
 * sources (constant, step, ramp, sine, pulse), static blocks (gain, sum,
 * product, saturation, dead zone, lookup table, switch), dynamic blocks
 * (integrator with limits, first-order lag, second-order filter, rate
 * limiter, PID with output limits and anti-windup) and the hysteresis
 * comparator, as a block diagram draws them.
 *
 * Every output is computed in `signals` with its dense partials and ∂/∂t;
 * a block's own states (an integrator's value, a filter's) join the ODE
 * system through `eval`. Switching blocks (step, pulse, hysteresis, switch,
 * the integrator's limits) hold their regime in a discrete state changed
 * at located events; the corners of the piecewise blocks (saturation, dead
 * zone, table, rate limiter, the PID's output limits) are event functions,
 * so the solver restarts there (as at a cylinder's end stop). */
#include "hyd-component.h"
#include "hyd-error.h"
#include "hyd-i18n.h"

#include <math.h>
#include <string.h>

#define NL(comp) hyd_comp_n_local (comp)
#define DS(comp, X, c) ds[(X) * NL (comp) + (c)]

static gboolean
signal_setup (HydComp *comp, GError **error)
{
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
nothing_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
}

/* An event function for a corner at `level` (no corner: a constant sign). */
static double
corner (double u, double level)
{
  return isfinite (level) ? u - level : (level > 0 ? -1.0 : 1.0);
}

/* An optional limit left unset is no limit. */
static double
lower_limit (double v)
{
  return isnan (v) ? -INFINITY : v;
}

static double
upper_limit (double v)
{
  return isnan (v) ? INFINITY : v;
}

static gboolean
require_below (const HydComp *comp, const char *lo_name, double lo, const char *hi_name, double hi,
               GError **error)
{
  if (lo < hi)
    return TRUE;
  g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE,
               "%s: parameter %s = %g must be smaller than %s = %g", comp->id, lo_name, lo, hi_name, hi);
  return FALSE;
}

/* Port tables: inputs U…, output Y (optional: a block whose output
 * nothing reads still runs, as the pressure gauge's S). */
static const HydPortInfo out_ports[] = {
  { "Y", HYD_DOMAIN_SIGNAL, TRUE, N_("output signal"), HYD_PORT_OUTPUT },
};

static const HydPortInfo in_out_ports[] = {
  { "U", HYD_DOMAIN_SIGNAL, FALSE, N_("input signal"), HYD_PORT_INPUT },
  { "Y", HYD_DOMAIN_SIGNAL, TRUE, N_("output signal"), HYD_PORT_OUTPUT },
};

enum { IO_U, IO_Y };

/* ------------------------------------------------------------- constant */

static const HydParamInfo constant_params[] = {
  { "value", N_("Value"), HYD_UNIT_NONE, 1.0, -INFINITY, INFINITY, HYD_PARAM_PROFILE, NULL,
    N_("the output (a set-point: a live slider while running)") },
};

static void
constant_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  s[0] = comp->par[0];
  if (s_t)
    s_t[0] = comp->par_dt[0];
}

const HydComponentType hyd_signal_constant_type = {
  .id = "constant",
  .label = N_("Constant"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with its value"),
  .description =
    N_("A signal source: Y = value. The value may be a profile (step, ramp, sine, "
       "table in time) and has a live slider while a simulation runs, so it serves "
       "as a set-point."),
  .ports = out_ports,
  .n_ports = G_N_ELEMENTS (out_ports),
  .params = constant_params,
  .n_params = G_N_ELEMENTS (constant_params),
  .boundary_param = -1,
  .designator = "W",
  .setup = signal_setup,
  .eval = nothing_eval,
  .signals = constant_signals,
};

/* ----------------------------------------------------------------- step */

enum { STEP_INITIAL, STEP_FINAL, STEP_TIME };

static const HydParamInfo step_params[] = {
  [STEP_INITIAL] = { "initial", N_("Initial value"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY,
                     HYD_PARAM_PROFILE, NULL, N_("the output before the step time") },
  [STEP_FINAL] = { "final", N_("Final value"), HYD_UNIT_NONE, 1.0, -INFINITY, INFINITY,
                   HYD_PARAM_PROFILE, NULL, N_("the output from the step time on") },
  [STEP_TIME] = { "time", N_("Step time"), HYD_UNIT_TIME, 1.0, 0.0, INFINITY, 0, NULL,
                  N_("when the output jumps") },
};

/* d[0] = 1 once t ≥ step time: switched at the located event g = t − T,
 * where the integrator restarts (docs/domains.md, discrete states). */
static gboolean
step_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "stepped", 0.0, N_("1 from the step time on"));
  hyd_comp_add_event (comp, "step", N_("the step time"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
step_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = in->t - comp->par[STEP_TIME];
}

static gboolean
step_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  double on = (crossed && crossed[0] > 0) || in->t >= comp->par[STEP_TIME] ? 1.0 : 0.0;
  gboolean changed = on != d[0];
  d[0] = on;
  return changed;
}

static void
step_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  int k = in->d[0] > 0.5 ? STEP_FINAL : STEP_INITIAL;
  s[0] = comp->par[k];
  if (s_t)
    s_t[0] = comp->par_dt[k];
}

const HydComponentType hyd_signal_step_type = {
  .id = "step",
  .label = N_("Step"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with a step"),
  .description =
    N_("A step source: Y = initial value before the step time, final value from it "
       "on. The step is a located event at which the solver restarts, so the jump "
       "is exact."),
  .ports = out_ports,
  .n_ports = G_N_ELEMENTS (out_ports),
  .params = step_params,
  .n_params = G_N_ELEMENTS (step_params),
  .boundary_param = -1,
  .designator = "W",
  .setup = step_setup,
  .eval = nothing_eval,
  .events = step_events,
  .signals = step_signals,
  .update = step_update,
};

/* ----------------------------------------------------------------- gain */

static const HydParamInfo gain_params[] = {
  { "gain", N_("Gain"), HYD_UNIT_NONE, 1.0, -INFINITY, INFINITY, HYD_PARAM_PROFILE, NULL,
    N_("the factor K (a live slider while running)") },
};

static void
gain_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  double K = comp->par[0];
  s[IO_Y] = K * in->p[IO_U];
  if (ds)
    DS (comp, IO_Y, IO_U) = K;
  if (s_t)
    s_t[IO_Y] = comp->par_dt[0] * in->p[IO_U];
}

const HydComponentType hyd_signal_gain_type = {
  .id = "gain",
  .label = N_("Gain"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with K"),
  .description = N_("A proportional block: Y = K·U."),
  .ports = in_out_ports,
  .n_ports = G_N_ELEMENTS (in_out_ports),
  .params = gain_params,
  .n_params = G_N_ELEMENTS (gain_params),
  .boundary_param = -1,
  .designator = "K",
  .setup = signal_setup,
  .eval = nothing_eval,
  .signals = gain_signals,
};

/* ------------------------------------------------------------------ sum */

static const HydPortInfo sum_ports[] = {
  { "U1", HYD_DOMAIN_SIGNAL, FALSE, N_("first input"), HYD_PORT_INPUT },
  { "U2", HYD_DOMAIN_SIGNAL, FALSE, N_("second input"), HYD_PORT_INPUT },
  { "U3", HYD_DOMAIN_SIGNAL, TRUE, N_("third input (with three signs)"), HYD_PORT_INPUT },
  { "Y", HYD_DOMAIN_SIGNAL, TRUE, N_("output signal"), HYD_PORT_OUTPUT },
};

/* not marked for translation: signs read the same in every language */
static const char *const sum_signs[] = {
  "+-", "++", "-+", "--", "+++", "++-", "+-+", "+--", "-++", "-+-", "--+", "---",
  NULL,
};

static const HydParamInfo sum_params[] = {
  { "signs", N_("Signs"), HYD_UNIT_NONE, 0, 0, G_N_ELEMENTS (sum_signs) - 2, HYD_PARAM_ENUM, sum_signs,
    N_("the sign of each input, U1 first (\"+-\": Y = U1 − U2)") },
};

/* The sign of input i (0 when the choice has fewer inputs). */
static double
sum_sign (const HydComp *comp, guint i)
{
  const char *c = sum_signs[(int) comp->par[0]];
  guint k = 0;
  for (const char *p = c; *p; p++, k++)
    if (k == i)
      return *p == '+' ? 1.0 : -1.0;
  return 0.0;
}

static gboolean
sum_setup (HydComp *comp, GError **error)
{
  if (sum_sign (comp, 2) == 0.0 && hyd_comp_port_connected (comp, 2))
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                   "%s: port U3 is connected, but signs \"%s\" has two inputs: choose three signs",
                   comp->id, sum_signs[(int) comp->par[0]]);
      return FALSE;
    }
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
sum_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  double y = 0.0;
  for (guint i = 0; i < 3; i++)
    {
      double sg = sum_sign (comp, i);
      y += sg * in->p[i];
      if (ds)
        DS (comp, 3, i) = sg;
    }
  s[3] = y;
}

const HydComponentType hyd_signal_sum_type = {
  .id = "sum",
  .label = N_("Sum"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a circle with Σ and the signs"),
  .description =
    N_("A summing point: Y = ±U1 ± U2 (± U3), the signs chosen by the parameter "
       "(\"+-\" forms a control error, set-point minus measurement). An unwired "
       "U3 reads 0."),
  .ports = sum_ports,
  .n_ports = G_N_ELEMENTS (sum_ports),
  .params = sum_params,
  .n_params = G_N_ELEMENTS (sum_params),
  .boundary_param = -1,
  .designator = "S",
  .setup = sum_setup,
  .eval = nothing_eval,
  .signals = sum_signals,
};

/* ---------------------------------------------------------------- product */

static const HydPortInfo product_ports[] = {
  { "U1", HYD_DOMAIN_SIGNAL, FALSE, N_("first input"), HYD_PORT_INPUT },
  { "U2", HYD_DOMAIN_SIGNAL, FALSE, N_("second input"), HYD_PORT_INPUT },
  { "Y", HYD_DOMAIN_SIGNAL, TRUE, N_("output signal"), HYD_PORT_OUTPUT },
};

static void
product_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  s[2] = in->p[0] * in->p[1];
  if (ds)
    {
      DS (comp, 2, 0) = in->p[1];
      DS (comp, 2, 1) = in->p[0];
    }
}

const HydComponentType hyd_signal_product_type = {
  .id = "product",
  .label = N_("Product"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with ×"),
  .description = N_("A multiplier: Y = U1·U2."),
  .ports = product_ports,
  .n_ports = G_N_ELEMENTS (product_ports),
  .boundary_param = -1,
  .designator = "N",
  .setup = signal_setup,
  .eval = nothing_eval,
  .signals = product_signals,
};

/* ----------------------------------------------------------- saturation */

enum { SAT_LOWER, SAT_UPPER };

static const HydParamInfo sat_params[] = {
  [SAT_LOWER] = { "lower", N_("Lower limit"), HYD_UNIT_NONE, -1.0, -INFINITY, INFINITY, 0, NULL,
                  N_("the smallest output") },
  [SAT_UPPER] = { "upper", N_("Upper limit"), HYD_UNIT_NONE, 1.0, -INFINITY, INFINITY, 0, NULL,
                  N_("the largest output") },
};

static gboolean
sat_validate (const HydComp *comp, GError **error)
{
  return require_below (comp, "lower", comp->par[SAT_LOWER], "upper", comp->par[SAT_UPPER], error);
}

static gboolean
corners_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_event (comp, "upper corner", N_("the input crosses the upper limit"));
  hyd_comp_add_event (comp, "lower corner", N_("the input crosses the lower limit"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
corners_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = corner (in->p[IO_U], comp->par[1]);
  g[1] = corner (in->p[IO_U], comp->par[0]);
}

static void
sat_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  double u = in->p[IO_U], lo = comp->par[SAT_LOWER], hi = comp->par[SAT_UPPER];
  s[IO_Y] = u > hi ? hi : u < lo ? lo : u;
  if (ds)
    DS (comp, IO_Y, IO_U) = u > hi || u < lo ? 0.0 : 1.0;
}

const HydComponentType hyd_signal_saturation_type = {
  .id = "saturation",
  .label = N_("Saturation"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with a saturation curve"),
  .description =
    N_("A limiter: Y = U between the lower and the upper limit, the limit beyond "
       "it. Its corners are events at which the solver restarts."),
  .ports = in_out_ports,
  .n_ports = G_N_ELEMENTS (in_out_ports),
  .params = sat_params,
  .n_params = G_N_ELEMENTS (sat_params),
  .boundary_param = -1,
  .designator = "L",
  .validate = sat_validate,
  .setup = corners_setup,
  .eval = nothing_eval,
  .events = corners_events,
  .signals = sat_signals,
};

/* ------------------------------------------------------------- dead zone */

static const HydParamInfo dz_params[] = {
  [SAT_LOWER] = { "lower", N_("Start of dead zone"), HYD_UNIT_NONE, -0.1, -INFINITY, INFINITY, 0, NULL,
                  N_("lower edge of the band where the output is 0") },
  [SAT_UPPER] = { "upper", N_("End of dead zone"), HYD_UNIT_NONE, 0.1, -INFINITY, INFINITY, 0, NULL,
                  N_("upper edge of the band where the output is 0") },
};

static void
dz_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  double u = in->p[IO_U], lo = comp->par[SAT_LOWER], hi = comp->par[SAT_UPPER];
  s[IO_Y] = u > hi ? u - hi : u < lo ? u - lo : 0.0;
  if (ds)
    DS (comp, IO_Y, IO_U) = u > hi || u < lo ? 1.0 : 0.0;
}

const HydComponentType hyd_signal_dead_zone_type = {
  .id = "dead_zone",
  .label = N_("Dead zone"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with a dead-zone curve"),
  .description =
    N_("Y = 0 inside the band [lower, upper], U − upper above it and U − lower "
       "below it (a valve's overlap, a backlash). Its corners are events at which "
       "the solver restarts."),
  .ports = in_out_ports,
  .n_ports = G_N_ELEMENTS (in_out_ports),
  .params = dz_params,
  .n_params = G_N_ELEMENTS (dz_params),
  .boundary_param = -1,
  .designator = "L",
  .validate = sat_validate,
  .setup = corners_setup,
  .eval = nothing_eval,
  .events = corners_events,
  .signals = dz_signals,
};

/* ------------------------------------------------------------ integrator */

enum { INT_INITIAL, INT_LOWER, INT_UPPER, INT_GAIN };

static const HydParamInfo int_params[] = {
  [INT_INITIAL] = { "initial", N_("Initial value"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, 0, NULL,
                    N_("the output at t = 0") },
  [INT_LOWER] = { "lower", N_("Lower limit"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, HYD_PARAM_OPTIONAL, NULL,
                  N_("the output stops here while the input is negative (unset: no limit)") },
  [INT_UPPER] = { "upper", N_("Upper limit"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, HYD_PARAM_OPTIONAL, NULL,
                  N_("the output stops here while the input is positive (unset: no limit)") },
  [INT_GAIN] = { "gain", N_("Gain"), HYD_UNIT_NONE, 1.0, -INFINITY, INFINITY, HYD_PARAM_PROFILE, NULL,
                 N_("the factor k of dY/dt = k·U") },
};

static const HydVarInfo int_states[] = {
  { "y", HYD_UNIT_NONE, N_("the integral") },
};

static gboolean
int_validate (const HydComp *comp, GError **error)
{
  const double *par = comp->par;
  double lo = lower_limit (par[INT_LOWER]), hi = upper_limit (par[INT_UPPER]);
  if (!require_below (comp, "lower", lo, "upper", hi, error))
    return FALSE;
  if (par[INT_INITIAL] < lo || par[INT_INITIAL] > hi)
    {
      g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                   "%s: parameter initial = %g must lie within the limits [%g, %g]", comp->id,
                   par[INT_INITIAL], lo, hi);
      return FALSE;
    }
  return TRUE;
}

/* d[0]: 0 integrating, +1 held at the upper limit, −1 at the lower one. */
static gboolean
int_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_states (comp, G_N_ELEMENTS (int_states), int_states);
  hyd_comp_add_discrete_state (comp, "held", 0.0,
                               N_("+1 held at the upper limit, −1 at the lower limit, 0 integrating"));
  hyd_comp_add_event (comp, "upper limit", N_("the output reaches the upper limit"));
  hyd_comp_add_event (comp, "lower limit", N_("the output reaches the lower limit"));
  hyd_comp_add_event (comp, "release", N_("the input turns back from the limit"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
int_init (const HydComp *comp, const double *p0, double *x0)
{
  x0[0] = comp->par[INT_INITIAL];
}

static void
int_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  if (in->d[0] != 0.0)
    return;
  double k = comp->par[INT_GAIN];
  out->xdot[0] = k * in->p[IO_U];
  if (out->jac)
    HYD_JAC (comp, out, 2, IO_U) = k;
  if (out->x_t)
    out->x_t[0] = comp->par_dt[INT_GAIN] * in->p[IO_U];
}

static void
int_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  double y = in->x[0], lo = lower_limit (comp->par[INT_LOWER]), hi = upper_limit (comp->par[INT_UPPER]);
  /* the event is located just past the limit: show the limit */
  s[IO_Y] = y > hi ? hi : y < lo ? lo : y;
  if (ds)
    DS (comp, IO_Y, 2) = y > hi || y < lo ? 0.0 : 1.0;
}

static void
int_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  double rate = comp->par[INT_GAIN] * in->p[IO_U];
  g[0] = corner (in->x[0], upper_limit (comp->par[INT_UPPER]));
  g[1] = corner (in->x[0], lower_limit (comp->par[INT_LOWER]));
  g[2] = in->d[0] > 0 ? rate : in->d[0] < 0 ? -rate : 1.0;
}

static gboolean
int_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  double y = in->x[0], rate = comp->par[INT_GAIN] * in->p[IO_U], held = d[0];
  gboolean turned = crossed && crossed[2] < 0;
  /* a root finder may stop a hair before the crossing: its direction counts */
  gboolean at_upper = y >= upper_limit (comp->par[INT_UPPER]) || (crossed && crossed[0] > 0);
  gboolean at_lower = y <= lower_limit (comp->par[INT_LOWER]) || (crossed && crossed[1] < 0);
  if (held == 0.0)
    {
      if (at_upper && rate > 0)
        held = 1.0;
      else if (at_lower && rate < 0)
        held = -1.0;
    }
  else if (held > 0 && (rate < 0 || turned))
    held = 0.0;
  else if (held < 0 && (rate > 0 || turned))
    held = 0.0;
  gboolean changed = held != d[0];
  d[0] = held;
  return changed;
}

const HydComponentType hyd_signal_integrator_type = {
  .id = "integrator",
  .label = N_("Integrator"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with ∫"),
  .description =
    N_("Y = initial + ∫ k·U dt, held at a limit while the input drives it further "
       "(a limited integrator: the output stops at the limit and leaves it as soon "
       "as the input turns back, without windup). Reaching a limit and leaving it "
       "are located events."),
  .ports = in_out_ports,
  .n_ports = G_N_ELEMENTS (in_out_ports),
  .params = int_params,
  .n_params = G_N_ELEMENTS (int_params),
  .boundary_param = -1,
  .designator = "I",
  .validate = int_validate,
  .setup = int_setup,
  .init_states = int_init,
  .eval = int_eval,
  .events = int_events,
  .signals = int_signals,
  .signal_feedthrough_free = TRUE,
  .update = int_update,
};

/* ------------------------------------------------------- first-order lag */

enum { LAG_GAIN, LAG_TIME, LAG_INITIAL };

static const HydParamInfo lag_params[] = {
  [LAG_GAIN] = { "gain", N_("Gain"), HYD_UNIT_NONE, 1.0, -INFINITY, INFINITY, HYD_PARAM_PROFILE, NULL,
                 N_("the static gain K") },
  [LAG_TIME] = { "time_constant", N_("Time constant"), HYD_UNIT_TIME, 1.0, 0.0, INFINITY,
                 HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("T: the output reaches 63 % of a step after T") },
  [LAG_INITIAL] = { "initial", N_("Initial value"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, 0, NULL,
                    N_("the output at t = 0") },
};

static gboolean
state_y_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_states (comp, G_N_ELEMENTS (int_states), int_states);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
lag_init (const HydComp *comp, const double *p0, double *x0)
{
  x0[0] = comp->par[LAG_INITIAL];
}

/* T·dY/dt = K·U − Y */
static void
lag_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  double K = comp->par[LAG_GAIN], T = comp->par[LAG_TIME];
  out->xdot[0] = (K * in->p[IO_U] - in->x[0]) / T;
  if (out->jac)
    {
      HYD_JAC (comp, out, 2, IO_U) = K / T;
      HYD_JAC (comp, out, 2, 2) = -1.0 / T;
    }
  if (out->x_t)
    out->x_t[0] = comp->par_dt[LAG_GAIN] * in->p[IO_U] / T;
}

static void
state_y_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  s[IO_Y] = in->x[0];
  if (ds)
    DS (comp, IO_Y, 2) = 1.0;
}

const HydComponentType hyd_signal_lag_type = {
  .id = "first_order_lag",
  .label = N_("First-order lag"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with K/(1+Ts)"),
  .description =
    N_("T·dY/dt = K·U − Y (the transfer function K/(1 + T·s)): after a step of the "
       "input the output approaches K·U as 1 − e^(−t/T) (Ogata, Modern Control "
       "Engineering, 5th ed., 2010, §5-3)."),
  .ports = in_out_ports,
  .n_ports = G_N_ELEMENTS (in_out_ports),
  .params = lag_params,
  .n_params = G_N_ELEMENTS (lag_params),
  .boundary_param = -1,
  .designator = "G",
  .setup = state_y_setup,
  .init_states = lag_init,
  .eval = lag_eval,
  .signals = state_y_signals,
  .signal_feedthrough_free = TRUE,
};

/* -------------------------------------------------------------------- PID */

enum { PID_KP, PID_KI, PID_KD, PID_TF, PID_LOWER, PID_UPPER, PID_ANTI_WINDUP, PID_TT, PID_INITIAL };

static const char *const pid_anti_windup[] = { N_("back_calculation"), N_("none"), N_("conditional"), NULL };
enum { AW_BACK_CALCULATION, AW_NONE, AW_CONDITIONAL };

static const HydParamInfo pid_params[] = {
  [PID_KP] = { "kp", N_("Proportional gain"), HYD_UNIT_NONE, 1.0, -INFINITY, INFINITY, HYD_PARAM_PROFILE,
               NULL, N_("K_p: output per unit of error") },
  [PID_KI] = { "ki", N_("Integral gain"), HYD_UNIT_FLOW_RATE_PER_S, 0.0, -INFINITY, INFINITY,
               HYD_PARAM_PROFILE, NULL, N_("K_i: output per unit of error and second") },
  [PID_KD] = { "kd", N_("Derivative gain"), HYD_UNIT_TIME, 0.0, -INFINITY, INFINITY, HYD_PARAM_PROFILE,
               NULL, N_("K_d: output per unit of error rate") },
  [PID_TF] = { "derivative_filter", N_("Derivative filter time"), HYD_UNIT_TIME, 0.01, 0.0, INFINITY,
               HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("T_f of the derivative term K_d·s/(1 + T_f·s)") },
  [PID_LOWER] = { "lower", N_("Lower output limit"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY,
                  HYD_PARAM_OPTIONAL, NULL, N_("the smallest output (unset: no limit)") },
  [PID_UPPER] = { "upper", N_("Upper output limit"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY,
                  HYD_PARAM_OPTIONAL, NULL, N_("the largest output (unset: no limit)") },
  [PID_ANTI_WINDUP] = { "anti_windup", N_("Anti-windup"), HYD_UNIT_NONE, 0, 0, 2, HYD_PARAM_ENUM,
                        pid_anti_windup,
                        N_("back_calculation: the integral tracks the limited output; conditional: it stops "
                           "while the output is limited and the error drives it further; none: it winds up") },
  [PID_TT] = { "tracking_time", N_("Tracking time"), HYD_UNIT_TIME, 1.0, 0.0, INFINITY,
               HYD_PARAM_MIN_EXCLUSIVE, NULL,
               N_("T_t of the back-calculation (about √(T_i·T_d), or T_i for a PI controller)") },
  [PID_INITIAL] = { "initial", N_("Initial integral"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, 0, NULL,
                    N_("the integral term at t = 0") },
};

static const HydVarInfo pid_states[] = {
  { "i", HYD_UNIT_NONE, N_("the integral term") },
  { "f", HYD_UNIT_NONE, N_("the derivative filter's state") },
};

enum { PID_E, PID_Y };

static const HydPortInfo pid_ports[] = {
  [PID_E] = { "E", HYD_DOMAIN_SIGNAL, FALSE, N_("control error (set-point minus measurement)"),
              HYD_PORT_INPUT },
  [PID_Y] = { "Y", HYD_DOMAIN_SIGNAL, TRUE, N_("controller output"), HYD_PORT_OUTPUT },
};

static gboolean
pid_validate (const HydComp *comp, GError **error)
{
  return require_below (comp, "lower", lower_limit (comp->par[PID_LOWER]), "upper",
                        upper_limit (comp->par[PID_UPPER]), error);
}

static gboolean
pid_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_states (comp, G_N_ELEMENTS (pid_states), pid_states);
  hyd_comp_add_event (comp, "upper limit", N_("the unlimited output crosses the upper limit"));
  hyd_comp_add_event (comp, "lower limit", N_("the unlimited output crosses the lower limit"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
pid_init (const HydComp *comp, const double *p0, double *x0)
{
  x0[0] = comp->par[PID_INITIAL];
  x0[1] = 0.0;
}

/* The unlimited output v = K_p·e + I + (K_d/T_f)·(e − f) over the local
 * variables [e, (Y), I, f], its ∂/∂t, and the limited output u = sat(v)
 * with du/dv. */
typedef struct {
  double v, dv[4], v_t, u, du;
} PidOut;

static void
pid_compute (const HydComp *comp, const HydEvalIn *in, PidOut *o)
{
  const double *par = comp->par, *par_dt = comp->par_dt;
  double e = in->p[PID_E], I = in->x[0], f = in->x[1], Tf = par[PID_TF];
  double kd = par[PID_KD] / Tf;
  o->v = par[PID_KP] * e + I + kd * (e - f);
  o->dv[PID_E] = par[PID_KP] + kd;
  o->dv[PID_Y] = 0.0;
  o->dv[2] = 1.0;
  o->dv[3] = -kd;
  o->v_t = par_dt[PID_KP] * e + par_dt[PID_KD] / Tf * (e - f);
  double lo = lower_limit (par[PID_LOWER]), hi = upper_limit (par[PID_UPPER]);
  o->u = o->v > hi ? hi : o->v < lo ? lo : o->v;
  o->du = o->v > hi || o->v < lo ? 0.0 : 1.0;
}

/* dI/dt = K_i·e + (u − v)/T_t (back-calculation), or K_i·e except while
 * the output is limited and K_i·e drives it further (conditional
 * integration: 0 then; continuous where e = 0, a corner at the limits,
 * which are events), dF/dt = (e − f)/T_f. */
static void
pid_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  const double *par = comp->par;
  double e = in->p[PID_E], Tf = par[PID_TF];
  PidOut o;
  pid_compute (comp, in, &o);
  int aw = (int) par[PID_ANTI_WINDUP];
  double track = aw == AW_BACK_CALCULATION ? 1.0 / par[PID_TT] : 0.0;
  double ki_e = par[PID_KI] * e;
  gboolean frozen = aw == AW_CONDITIONAL
                    && ((o.v > upper_limit (par[PID_UPPER]) && ki_e > 0)
                        || (o.v < lower_limit (par[PID_LOWER]) && ki_e < 0));
  double ki = frozen ? 0.0 : par[PID_KI];
  out->xdot[0] = ki * e + track * (o.u - o.v);
  out->xdot[1] = (e - in->x[1]) / Tf;
  if (out->jac)
    {
      for (guint c = 0; c < 4; c++)
        HYD_JAC (comp, out, 2, c) = track * (o.du - 1.0) * o.dv[c];
      HYD_JAC (comp, out, 2, PID_E) += ki;
      HYD_JAC (comp, out, 3, PID_E) = 1.0 / Tf;
      HYD_JAC (comp, out, 3, 3) = -1.0 / Tf;
    }
  if (out->x_t)
    out->x_t[0] = (frozen ? 0.0 : comp->par_dt[PID_KI]) * e + track * (o.du - 1.0) * o.v_t;
}

static void
pid_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  PidOut o;
  pid_compute (comp, in, &o);
  s[PID_Y] = o.u;
  if (ds)
    for (guint c = 0; c < 4; c++)
      DS (comp, PID_Y, c) = o.du * o.dv[c];
  if (s_t)
    s_t[PID_Y] = o.du * o.v_t;
}

static void
pid_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  PidOut o;
  pid_compute (comp, in, &o);
  g[0] = corner (o.v, upper_limit (comp->par[PID_UPPER]));
  g[1] = corner (o.v, lower_limit (comp->par[PID_LOWER]));
}

const HydComponentType hyd_signal_pid_type = {
  .id = "pid",
  .label = N_("PID controller"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with PID"),
  .description =
    N_("A PID controller on the error E: v = K_p·e + I + D, with the integral "
       "dI/dt = K_i·e and the filtered derivative D = K_d·s/(1 + T_f·s)·e; the "
       "output is v limited to [lower, upper]. Anti-windup by back-calculation "
       "adds (u − v)/T_t to dI/dt, so the integral follows the limited output and "
       "the controller leaves the limit as soon as the error turns; conditional "
       "integration stops the integral while the output is limited and the error "
       "drives it further (Åström & Hägglund, Advanced PID Control, ISA 2006, §3.3 "
       "and §3.5). The gains have live sliders while running."),
  .ports = pid_ports,
  .n_ports = G_N_ELEMENTS (pid_ports),
  .params = pid_params,
  .n_params = G_N_ELEMENTS (pid_params),
  .boundary_param = -1,
  .designator = "R",
  .validate = pid_validate,
  .setup = pid_setup,
  .init_states = pid_init,
  .eval = pid_eval,
  .events = pid_events,
  .signals = pid_signals,
};

/* ----------------------------------------------------------------- ramp */

enum { RAMP_SLOPE, RAMP_START, RAMP_INITIAL };

static const HydParamInfo ramp_params[] = {
  [RAMP_SLOPE] = { "slope", N_("Slope"), HYD_UNIT_NONE, 1.0, -INFINITY, INFINITY, HYD_PARAM_PROFILE, NULL,
                   N_("the output's rise per second from the start time on") },
  [RAMP_START] = { "start_time", N_("Start time"), HYD_UNIT_TIME, 0.0, 0.0, INFINITY, 0, NULL,
                   N_("when the ramp starts") },
  [RAMP_INITIAL] = { "initial", N_("Initial value"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY,
                     HYD_PARAM_PROFILE, NULL, N_("the output before the start time") },
};

static gboolean
ramp_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "started", 0.0, N_("1 from the start time on"));
  hyd_comp_add_event (comp, "start", N_("the start time"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
ramp_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = in->t - comp->par[RAMP_START];
}

static gboolean
ramp_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  double on = (crossed && crossed[0] > 0) || in->t >= comp->par[RAMP_START] ? 1.0 : 0.0;
  gboolean changed = on != d[0];
  d[0] = on;
  return changed;
}

static void
ramp_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  const double *par = comp->par, *par_dt = comp->par_dt;
  double on = in->d[0] > 0.5 ? 1.0 : 0.0, dt = in->t - par[RAMP_START];
  s[0] = par[RAMP_INITIAL] + on * par[RAMP_SLOPE] * dt;
  if (s_t)
    s_t[0] = par_dt[RAMP_INITIAL] + on * (par[RAMP_SLOPE] + par_dt[RAMP_SLOPE] * dt);
}

const HydComponentType hyd_signal_ramp_type = {
  .id = "ramp",
  .label = N_("Ramp"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with a ramp"),
  .description =
    N_("A ramp source: Y = initial value before the start time, initial + slope·(t − "
       "start time) from it on. The start is a located event at which the solver "
       "restarts."),
  .ports = out_ports,
  .n_ports = G_N_ELEMENTS (out_ports),
  .params = ramp_params,
  .n_params = G_N_ELEMENTS (ramp_params),
  .boundary_param = -1,
  .designator = "W",
  .setup = ramp_setup,
  .eval = nothing_eval,
  .events = ramp_events,
  .signals = ramp_signals,
  .update = ramp_update,
};

/* ----------------------------------------------------------------- sine */

enum { SINE_AMPLITUDE, SINE_FREQUENCY, SINE_PHASE, SINE_OFFSET };

static const HydParamInfo sine_params[] = {
  [SINE_AMPLITUDE] = { "amplitude", N_("Amplitude"), HYD_UNIT_NONE, 1.0, -INFINITY, INFINITY,
                       HYD_PARAM_PROFILE, NULL, N_("the sine's amplitude A") },
  [SINE_FREQUENCY] = { "frequency", N_("Frequency"), HYD_UNIT_FLOW_RATE_PER_S, 1.0, 0.0, INFINITY, 0, NULL,
                       N_("f in Hz (periods per second)") },
  [SINE_PHASE] = { "phase", N_("Phase"), HYD_UNIT_ANGLE, 0.0, -INFINITY, INFINITY, 0, NULL,
                   N_("the phase φ at t = 0") },
  [SINE_OFFSET] = { "offset", N_("Offset"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, HYD_PARAM_PROFILE, NULL,
                    N_("the mean value the sine swings about") },
};

static void
sine_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  const double *par = comp->par, *par_dt = comp->par_dt;
  double w = 2 * G_PI * par[SINE_FREQUENCY], arg = w * in->t + par[SINE_PHASE];
  s[0] = par[SINE_OFFSET] + par[SINE_AMPLITUDE] * sin (arg);
  if (s_t)
    s_t[0] = par_dt[SINE_OFFSET] + par_dt[SINE_AMPLITUDE] * sin (arg) + par[SINE_AMPLITUDE] * w * cos (arg);
}

const HydComponentType hyd_signal_sine_type = {
  .id = "sine",
  .label = N_("Sine"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with a sine wave"),
  .description = N_("A sine source: Y = offset + A·sin(2π·f·t + φ), f in Hz."),
  .ports = out_ports,
  .n_ports = G_N_ELEMENTS (out_ports),
  .params = sine_params,
  .n_params = G_N_ELEMENTS (sine_params),
  .boundary_param = -1,
  .designator = "W",
  .setup = signal_setup,
  .eval = nothing_eval,
  .signals = sine_signals,
};

/* ---------------------------------------------------------------- pulse */

enum { PULSE_AMPLITUDE, PULSE_PERIOD, PULSE_DUTY, PULSE_DELAY, PULSE_OFFSET };

static const HydParamInfo pulse_params[] = {
  [PULSE_AMPLITUDE] = { "amplitude", N_("Amplitude"), HYD_UNIT_NONE, 1.0, -INFINITY, INFINITY,
                        HYD_PARAM_PROFILE, NULL, N_("the height of a pulse above the offset") },
  [PULSE_PERIOD] = { "period", N_("Period"), HYD_UNIT_TIME, 1.0, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE,
                     NULL, N_("time from one rising edge to the next") },
  [PULSE_DUTY] = { "duty", N_("Duty cycle"), HYD_UNIT_NONE, 0.5, 0.0, 1.0,
                   HYD_PARAM_MIN_EXCLUSIVE | HYD_PARAM_MAX_EXCLUSIVE, NULL,
                   N_("the fraction of each period the output is high") },
  [PULSE_DELAY] = { "delay", N_("Delay"), HYD_UNIT_TIME, 0.0, 0.0, INFINITY, 0, NULL,
                    N_("the first rising edge") },
  [PULSE_OFFSET] = { "offset", N_("Offset"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, HYD_PARAM_PROFILE,
                     NULL, N_("the output between pulses") },
};

/* Edge j (0, 1, 2, …): rising at delay + (j/2)·P for even j, falling
 * duty·P later for odd j. d[0] counts the edges passed: high while odd. */
static double
pulse_edge (const HydComp *comp, double j)
{
  const double *par = comp->par;
  double k = floor (j / 2);
  return par[PULSE_DELAY] + k * par[PULSE_PERIOD] + (j - 2 * k) * par[PULSE_DUTY] * par[PULSE_PERIOD];
}

static double
pulse_edges_passed (const HydComp *comp, double t)
{
  const double *par = comp->par;
  if (t < par[PULSE_DELAY])
    return 0.0;
  double k = floor ((t - par[PULSE_DELAY]) / par[PULSE_PERIOD]);
  /* rounding of the quotient: the edges themselves decide */
  while (k > 0 && pulse_edge (comp, 2 * k) > t)
    k--;
  while (pulse_edge (comp, 2 * k + 2) <= t)
    k++;
  return 2 * k + (pulse_edge (comp, 2 * k + 1) <= t ? 2.0 : 1.0);
}

static gboolean
pulse_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "edges", 0.0, N_("the number of edges passed (odd: high)"));
  hyd_comp_add_event (comp, "edge", N_("the next rising or falling edge"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
pulse_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = in->t - pulse_edge (comp, in->d[0]);
}

static gboolean
pulse_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  /* time only moves on: the count never goes back */
  double n = MAX (pulse_edges_passed (comp, in->t), d[0]);
  if (crossed && crossed[0] > 0)
    n = MAX (n, d[0] + 1);
  gboolean changed = n != d[0];
  d[0] = n;
  return changed;
}

static void
pulse_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  gboolean high = fmod (in->d[0], 2.0) == 1.0;
  s[0] = comp->par[PULSE_OFFSET] + (high ? comp->par[PULSE_AMPLITUDE] : 0.0);
  if (s_t)
    s_t[0] = comp->par_dt[PULSE_OFFSET] + (high ? comp->par_dt[PULSE_AMPLITUDE] : 0.0);
}

const HydComponentType hyd_signal_pulse_type = {
  .id = "pulse",
  .label = N_("Pulse"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with a square wave"),
  .description =
    N_("A square wave (pulse train): Y = offset + amplitude for the first duty·period "
       "of every period from the delay on, offset otherwise. Every edge is a located "
       "event at which the solver restarts."),
  .ports = out_ports,
  .n_ports = G_N_ELEMENTS (out_ports),
  .params = pulse_params,
  .n_params = G_N_ELEMENTS (pulse_params),
  .boundary_param = -1,
  .designator = "W",
  .setup = pulse_setup,
  .eval = nothing_eval,
  .events = pulse_events,
  .signals = pulse_signals,
  .update = pulse_update,
};

/* --------------------------------------------------------- lookup table */

#define TABLE_MAX 6

static const HydParamInfo table_params[] = {
  { "u1", N_("Input 1"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, 0, NULL, N_("a point's input (increasing)") },
  { "y1", N_("Output 1"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, 0, NULL, N_("the output at that input") },
  { "u2", N_("Input 2"), HYD_UNIT_NONE, 1.0, -INFINITY, INFINITY, 0, NULL, N_("a point's input (increasing)") },
  { "y2", N_("Output 2"), HYD_UNIT_NONE, 1.0, -INFINITY, INFINITY, 0, NULL, N_("the output at that input") },
  { "u3", N_("Input 3"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, HYD_PARAM_OPTIONAL, NULL,
    N_("a point's input (increasing)") },
  { "y3", N_("Output 3"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, HYD_PARAM_OPTIONAL, NULL,
    N_("the output at that input") },
  { "u4", N_("Input 4"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, HYD_PARAM_OPTIONAL, NULL,
    N_("a point's input (increasing)") },
  { "y4", N_("Output 4"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, HYD_PARAM_OPTIONAL, NULL,
    N_("the output at that input") },
  { "u5", N_("Input 5"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, HYD_PARAM_OPTIONAL, NULL,
    N_("a point's input (increasing)") },
  { "y5", N_("Output 5"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, HYD_PARAM_OPTIONAL, NULL,
    N_("the output at that input") },
  { "u6", N_("Input 6"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, HYD_PARAM_OPTIONAL, NULL,
    N_("a point's input (increasing)") },
  { "y6", N_("Output 6"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, HYD_PARAM_OPTIONAL, NULL,
    N_("the output at that input") },
};

/* The number of points given (pairs 1, 2 always; then while set). */
static guint
table_n_points (const HydComp *comp)
{
  guint n = 2;
  while (n < TABLE_MAX && !isnan (comp->par[2 * n]))
    n++;
  return n;
}

static gboolean
table_validate (const HydComp *comp, GError **error)
{
  const double *par = comp->par;
  guint n = table_n_points (comp);
  for (guint k = 2; k < TABLE_MAX; k++)
    {
      gboolean u_set = !isnan (par[2 * k]), y_set = !isnan (par[2 * k + 1]);
      if (u_set != y_set || (k >= n && u_set))
        {
          g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                       "%s: table point %u needs both u%u and y%u, and the points before it", comp->id,
                       k + 1, k + 1, k + 1);
          return FALSE;
        }
    }
  for (guint k = 1; k < n; k++)
    if (!(par[2 * k] > par[2 * (k - 1)]))
      {
        g_set_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_PARAM_RANGE,
                     "%s: parameter u%u = %g must be larger than u%u = %g (the inputs of a table "
                     "increase)", comp->id, k + 1, par[2 * k], k, par[2 * (k - 1)]);
        return FALSE;
      }
  return TRUE;
}

static gboolean
table_setup (HydComp *comp, GError **error)
{
  static const char *const names[TABLE_MAX] = { "point 1", "point 2", "point 3", "point 4", "point 5", "point 6" };
  for (guint k = 0; k < table_n_points (comp); k++)
    hyd_comp_add_event (comp, names[k], N_("the input crosses a table point"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
table_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  for (guint k = 0; k < comp->n_events; k++)
    g[k] = in->p[IO_U] - comp->par[2 * k];
}

static void
table_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  const double *par = comp->par;
  guint n = table_n_points (comp);
  double u = in->p[IO_U], slope = 0.0;
  if (u <= par[0])
    s[IO_Y] = par[1];
  else if (u >= par[2 * (n - 1)])
    s[IO_Y] = par[2 * (n - 1) + 1];
  else
    {
      guint k = 1;
      while (u > par[2 * k])
        k++;
      double u0 = par[2 * (k - 1)], y0 = par[2 * (k - 1) + 1];
      slope = (par[2 * k + 1] - y0) / (par[2 * k] - u0);
      s[IO_Y] = y0 + slope * (u - u0);
    }
  if (ds)
    DS (comp, IO_Y, IO_U) = slope;
}

const HydComponentType hyd_signal_lookup_table_type = {
  .id = "lookup_table",
  .label = N_("Lookup table"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with a piecewise-linear curve"),
  .description =
    N_("Y as a piecewise-linear function of U through 2 to 6 points (u1, y1) … (u6, y6), "
       "the inputs increasing; held at the end values outside them. Every point is an "
       "event at which the solver restarts."),
  .ports = in_out_ports,
  .n_ports = G_N_ELEMENTS (in_out_ports),
  .params = table_params,
  .n_params = G_N_ELEMENTS (table_params),
  .boundary_param = -1,
  .designator = "T",
  .validate = table_validate,
  .setup = table_setup,
  .eval = nothing_eval,
  .events = table_events,
  .signals = table_signals,
};

/* --------------------------------------------------- second-order filter */

enum { SO_GAIN, SO_OMEGA, SO_ZETA, SO_INITIAL };

static const HydParamInfo so_params[] = {
  [SO_GAIN] = { "gain", N_("Gain"), HYD_UNIT_NONE, 1.0, -INFINITY, INFINITY, HYD_PARAM_PROFILE, NULL,
                N_("the static gain K") },
  [SO_OMEGA] = { "natural_frequency", N_("Natural frequency"), HYD_UNIT_FREQUENCY, 10.0, 0.0, INFINITY,
                 HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("the natural frequency ω_n in rad/s") },
  [SO_ZETA] = { "damping_ratio", N_("Damping ratio"), HYD_UNIT_NONE, 0.7, 0.0, INFINITY, 0, NULL,
                N_("ζ: below 1 the step response overshoots") },
  [SO_INITIAL] = { "initial", N_("Initial value"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, 0, NULL,
                   N_("the output at t = 0 (at rest)") },
};

static const HydVarInfo so_states[] = {
  { "y", HYD_UNIT_NONE, N_("the output") },
  { "v", HYD_UNIT_NONE, N_("the output's rate of change (per second)") },
};

static gboolean
so_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_states (comp, G_N_ELEMENTS (so_states), so_states);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
so_init (const HydComp *comp, const double *p0, double *x0)
{
  x0[0] = comp->par[SO_INITIAL];
  x0[1] = 0.0;
}

/* ÿ + 2ζω·ẏ + ω²·y = ω²·K·U */
static void
so_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  double K = comp->par[SO_GAIN], w = comp->par[SO_OMEGA], z = comp->par[SO_ZETA];
  out->xdot[0] = in->x[1];
  out->xdot[1] = w * w * (K * in->p[IO_U] - in->x[0]) - 2 * z * w * in->x[1];
  if (out->jac)
    {
      HYD_JAC (comp, out, 2, 3) = 1.0;
      HYD_JAC (comp, out, 3, IO_U) = w * w * K;
      HYD_JAC (comp, out, 3, 2) = -w * w;
      HYD_JAC (comp, out, 3, 3) = -2 * z * w;
    }
  if (out->x_t)
    out->x_t[1] = w * w * comp->par_dt[SO_GAIN] * in->p[IO_U];
}

const HydComponentType hyd_signal_second_order_type = {
  .id = "second_order_filter",
  .label = N_("Second-order filter"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with ω²/(s² + 2ζωs + ω²)"),
  .description =
    N_("d²Y/dt² + 2ζω·dY/dt + ω²·Y = ω²·K·U, the transfer function "
       "K·ω²/(s² + 2ζω·s + ω²): for ζ < 1 a step response overshoots by "
       "e^(−ζπ/√(1−ζ²)) and rings at ω·√(1 − ζ²) (Ogata, Modern Control Engineering, "
       "5th ed., 2010, §5-4). A valve spool, a sensor, a smoothing filter."),
  .ports = in_out_ports,
  .n_ports = G_N_ELEMENTS (in_out_ports),
  .params = so_params,
  .n_params = G_N_ELEMENTS (so_params),
  .boundary_param = -1,
  .designator = "G",
  .setup = so_setup,
  .init_states = so_init,
  .eval = so_eval,
  .signals = state_y_signals,
  .signal_feedthrough_free = TRUE,
};

/* ---------------------------------------------------------- rate limiter */

enum { RL_RISING, RL_FALLING, RL_TIME, RL_INITIAL };

static const HydParamInfo rl_params[] = {
  [RL_RISING] = { "rising_rate", N_("Rising rate"), HYD_UNIT_NONE, 1.0, 0.0, INFINITY, HYD_PARAM_MIN_EXCLUSIVE,
                  NULL, N_("the fastest rise of the output, per second") },
  [RL_FALLING] = { "falling_rate", N_("Falling rate"), HYD_UNIT_NONE, 1.0, 0.0, INFINITY,
                   HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("the fastest fall of the output, per second") },
  [RL_TIME] = { "time_constant", N_("Tracking time constant"), HYD_UNIT_TIME, 1e-3, 0.0, INFINITY,
                HYD_PARAM_MIN_EXCLUSIVE, NULL, N_("how closely the output follows an input within the rates") },
  [RL_INITIAL] = { "initial", N_("Initial value"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, 0, NULL,
                   N_("the output at t = 0") },
};

static gboolean
rl_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_states (comp, G_N_ELEMENTS (int_states), int_states);
  hyd_comp_add_event (comp, "rising limit", N_("the output starts or stops rising at the rising rate"));
  hyd_comp_add_event (comp, "falling limit", N_("the output starts or stops falling at the falling rate"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
rl_init (const HydComp *comp, const double *p0, double *x0)
{
  x0[0] = comp->par[RL_INITIAL];
}

/* dY/dt = (U − Y)/T limited to [−falling, rising] */
static void
rl_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  double T = comp->par[RL_TIME], r = (in->p[IO_U] - in->x[0]) / T;
  double hi = comp->par[RL_RISING], lo = -comp->par[RL_FALLING];
  out->xdot[0] = r > hi ? hi : r < lo ? lo : r;
  if (out->jac && r <= hi && r >= lo)
    {
      HYD_JAC (comp, out, 2, IO_U) = 1.0 / T;
      HYD_JAC (comp, out, 2, 2) = -1.0 / T;
    }
}

static void
rl_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  double r = (in->p[IO_U] - in->x[0]) / comp->par[RL_TIME];
  g[0] = r - comp->par[RL_RISING];
  g[1] = r + comp->par[RL_FALLING];
}

const HydComponentType hyd_signal_rate_limiter_type = {
  .id = "rate_limiter",
  .label = N_("Rate limiter"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with a step rising at a limited slope"),
  .description =
    N_("The output follows the input, T·dY/dt = U − Y, but never rises faster than the "
       "rising rate nor falls faster than the falling rate: after a step it moves at "
       "the rate limit in a straight line, then settles within T. Where the limit "
       "starts or stops to act is an event at which the solver restarts."),
  .ports = in_out_ports,
  .n_ports = G_N_ELEMENTS (in_out_ports),
  .params = rl_params,
  .n_params = G_N_ELEMENTS (rl_params),
  .boundary_param = -1,
  .designator = "L",
  .setup = rl_setup,
  .init_states = rl_init,
  .eval = rl_eval,
  .events = rl_events,
  .signals = state_y_signals,
  .signal_feedthrough_free = TRUE,
};

/* ------------------------------------------------------------ hysteresis */

enum { HY_ON, HY_OFF, HY_HIGH, HY_LOW, HY_INITIAL };

static const char *const hy_initial[] = { N_("low"), N_("high"), NULL };

static const HydParamInfo hy_params[] = {
  [HY_ON] = { "on_level", N_("Switch-on level"), HYD_UNIT_NONE, 0.5, -INFINITY, INFINITY, 0, NULL,
              N_("the output switches high when the input rises to this level") },
  [HY_OFF] = { "off_level", N_("Switch-off level"), HYD_UNIT_NONE, -0.5, -INFINITY, INFINITY, 0, NULL,
               N_("the output switches low when the input falls to this level") },
  [HY_HIGH] = { "high", N_("High output"), HYD_UNIT_NONE, 1.0, -INFINITY, INFINITY, HYD_PARAM_PROFILE, NULL,
                N_("the output while switched on") },
  [HY_LOW] = { "low", N_("Low output"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, HYD_PARAM_PROFILE, NULL,
               N_("the output while switched off") },
  [HY_INITIAL] = { "initial_state", N_("Initial state"), HYD_UNIT_NONE, 0, 0, 1, HYD_PARAM_ENUM, hy_initial,
                   N_("the state at t = 0 when the input lies between the levels") },
};

static gboolean
hy_validate (const HydComp *comp, GError **error)
{
  return require_below (comp, "off_level", comp->par[HY_OFF], "on_level", comp->par[HY_ON], error);
}

static gboolean
hy_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "on", comp->par[HY_INITIAL], N_("1 while switched on"));
  hyd_comp_add_event (comp, "switch-on level", N_("the input crosses the switch-on level"));
  hyd_comp_add_event (comp, "switch-off level", N_("the input crosses the switch-off level"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
hy_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = in->p[IO_U] - comp->par[HY_ON];
  g[1] = in->p[IO_U] - comp->par[HY_OFF];
}

/* At a crossing its direction decides (the input equals the level there);
 * otherwise the input strictly beyond a level. */
static gboolean
hy_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  double u = in->p[IO_U], on = d[0];
  if ((crossed && crossed[0] > 0) || u > comp->par[HY_ON])
    on = 1.0;
  else if ((crossed && crossed[1] < 0) || u < comp->par[HY_OFF])
    on = 0.0;
  gboolean changed = on != d[0];
  d[0] = on;
  return changed;
}

static void
hy_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  int k = in->d[0] > 0.5 ? HY_HIGH : HY_LOW;
  s[IO_Y] = comp->par[k];
  if (s_t)
    s_t[IO_Y] = comp->par_dt[k];
}

const HydComponentType hyd_signal_hysteresis_type = {
  .id = "hysteresis",
  .label = N_("Hysteresis"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with a hysteresis loop"),
  .description =
    N_("A comparator with hysteresis (a two-point controller, a pressure switch): the "
       "output switches to high when the input rises to the switch-on level and back to "
       "low when it falls to the switch-off level; between them it keeps its state. The "
       "state is a discrete state switched at located events (Cellier & Kofman, "
       "Continuous System Simulation, 2006, on discontinuous systems)."),
  .ports = in_out_ports,
  .n_ports = G_N_ELEMENTS (in_out_ports),
  .params = hy_params,
  .n_params = G_N_ELEMENTS (hy_params),
  .boundary_param = -1,
  .designator = "B",
  .validate = hy_validate,
  .setup = hy_setup,
  .eval = nothing_eval,
  .events = hy_events,
  .signals = hy_signals,
  /* the output is the discrete state's: a loop through it is no algebraic loop */
  .signal_feedthrough_free = TRUE,
  .update = hy_update,
};

/* ---------------------------------------------------------------- switch */

enum { SW_U1, SW_C, SW_U2, SW_Y };

static const HydPortInfo sw_ports[] = {
  [SW_U1] = { "U1", HYD_DOMAIN_SIGNAL, FALSE, N_("passed while the control input is at or above the threshold"),
              HYD_PORT_INPUT },
  [SW_C] = { "C", HYD_DOMAIN_SIGNAL, FALSE, N_("control input"), HYD_PORT_INPUT },
  [SW_U2] = { "U2", HYD_DOMAIN_SIGNAL, FALSE, N_("passed while the control input is below the threshold"),
              HYD_PORT_INPUT },
  [SW_Y] = { "Y", HYD_DOMAIN_SIGNAL, TRUE, N_("output signal"), HYD_PORT_OUTPUT },
};

static const HydParamInfo sw_params[] = {
  { "threshold", N_("Threshold"), HYD_UNIT_NONE, 0.0, -INFINITY, INFINITY, 0, NULL,
    N_("U1 passes while C ≥ threshold, U2 while C < threshold") },
};

static gboolean
sw_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "first", 1.0, N_("1 while U1 passes, 0 while U2 passes"));
  hyd_comp_add_event (comp, "threshold", N_("the control input crosses the threshold"));
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
sw_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = in->p[SW_C] - comp->par[0];
}

static gboolean
sw_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  double c = in->p[SW_C], thr = comp->par[0], first = d[0];
  if (crossed && crossed[0] != 0)
    first = crossed[0] > 0 ? 1.0 : 0.0;
  else if (c != thr)
    first = c > thr ? 1.0 : 0.0;
  gboolean changed = first != d[0];
  d[0] = first;
  return changed;
}

static void
sw_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  guint X = in->d[0] > 0.5 ? SW_U1 : SW_U2;
  s[SW_Y] = in->p[X];
  if (ds)
    DS (comp, SW_Y, X) = 1.0;
}

const HydComponentType hyd_signal_switch_type = {
  .id = "signal_switch",
  .label = N_("Switch"),
  .category = HYD_CATEGORY_SIGNALS,
  .iso_symbol = N_("block diagram: a box with a changeover switch"),
  .description =
    N_("Y = U1 while the control input C is at or above the threshold, U2 while it is "
       "below. The changeover is a discrete state switched at the located event where C "
       "crosses the threshold."),
  .ports = sw_ports,
  .n_ports = G_N_ELEMENTS (sw_ports),
  .params = sw_params,
  .n_params = G_N_ELEMENTS (sw_params),
  .boundary_param = -1,
  .designator = "X",
  .setup = sw_setup,
  .eval = nothing_eval,
  .events = sw_events,
  .signals = sw_signals,
  .update = sw_update,
};
