/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-domains.c — the multi-domain component interface (docs/domains.md)
 * with component types that exist only here (hyd_catalogue_register_test_type):
 * translational and rotational nodes against analytic solutions, signal
 * chains in dependency order (and their Jacobian by the chain rule against
 * finite differences), algebraic loops and nodes without storage refused by
 * name, and a discrete state switched at a located event. */
#include <math.h>
#include <string.h>

#include "fd-harness.h"
#include "hyd-catalogue.h"
#include "hyd-circuit.h"
#include "hyd-run.h"
#include "hyd-system.h"

/* ------------------------------------------------------------------ types */

#define PAR(name, unit, def, flags) \
  { name, name, unit, def, -INFINITY, INFINITY, flags, NULL, "test parameter" }

static gboolean
dense_setup (HydComp *comp, GError **error)
{
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

/* t_mass: a body of mass m at A */
static const HydPortInfo one_translational[] = { { "A", HYD_DOMAIN_TRANSLATIONAL, FALSE, "body" } };
static const HydParamInfo mass_params[] = { PAR ("m", HYD_UNIT_MASS, 1.0, 0) };

static void
nothing_eval_t (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
}

static void
mass_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  out->C[0] = comp->par[0];
}

static const HydComponentType t_mass = {
  .id = "t_mass", .label = "mass", .ports = one_translational, .n_ports = 1,
  .params = mass_params, .n_params = 1, .boundary_param = -1, .designator = "M",
  .setup = dense_setup, .eval = mass_eval,
};

/* t_spring: spring k and damper d from A to a fixed point: F̂ = k·x + d·v */
static const HydParamInfo spring_params[] = {
  PAR ("k", HYD_UNIT_STIFFNESS, 1.0, 0), PAR ("d", HYD_UNIT_DAMPING, 0.0, 0),
};

static void
spring_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  out->q[0] = comp->par[0] * in->pos[0] + comp->par[1] * in->p[0];
  if (out->jac)
    {
      HYD_JAC (comp, out, 0, 0) = comp->par[1];
      HYD_JAC (comp, out, 0, hyd_comp_pos_col (comp, 0)) = comp->par[0];
    }
}

static const HydComponentType t_spring = {
  .id = "t_spring", .label = "spring", .ports = one_translational, .n_ports = 1,
  .params = spring_params, .n_params = 2, .boundary_param = -1, .designator = "S",
  .setup = dense_setup, .eval = spring_eval,
};

/* t_fixed: a fixed point at position x0 (its boundary parameter) */
static const HydParamInfo fixed_params[] = { PAR ("x0", HYD_UNIT_POSITION, 0.0, 0) };

static const HydComponentType t_fixed = {
  .id = "t_fixed", .label = "fixed point", .ports = one_translational, .n_ports = 1,
  .params = fixed_params, .n_params = 1, .boundary_param = 0, .designator = "X",
  .setup = dense_setup, .eval = nothing_eval_t,
};

/* t_spring2: spring k and damper d between A and B:
 * F̂_A = k·(x_A − x_B) + d·(v_A − v_B) = −F̂_B */
static const HydPortInfo two_translational[] = {
  { "A", HYD_DOMAIN_TRANSLATIONAL, FALSE, "end A" },
  { "B", HYD_DOMAIN_TRANSLATIONAL, FALSE, "end B" },
};

static void
spring2_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  double k = comp->par[0], d = comp->par[1];
  double F = k * (in->pos[0] - in->pos[1]) + d * (in->p[0] - in->p[1]);
  out->q[0] = F;
  out->q[1] = -F;
  if (out->jac)
    for (guint r = 0; r < 2; r++)
      {
        double sign = r == 0 ? 1.0 : -1.0;
        HYD_JAC (comp, out, r, 0) = sign * d;
        HYD_JAC (comp, out, r, 1) = -sign * d;
        HYD_JAC (comp, out, r, hyd_comp_pos_col (comp, 0)) = sign * k;
        HYD_JAC (comp, out, r, hyd_comp_pos_col (comp, 1)) = -sign * k;
      }
}

static const HydComponentType t_spring2 = {
  .id = "t_spring2", .label = "spring between two nodes", .ports = two_translational, .n_ports = 2,
  .params = spring_params, .n_params = 2, .boundary_param = -1, .designator = "S",
  .setup = dense_setup, .eval = spring2_eval,
};

/* t_force: pushes its node forward with F (a profile): F̂ = −F */
static const HydParamInfo force_params[] = { PAR ("F", HYD_UNIT_FORCE, 0.0, HYD_PARAM_PROFILE) };

static void
force_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  out->q[0] = -comp->par[0];
  if (out->q_t)
    out->q_t[0] = -comp->par_dt[0];
}

static const HydComponentType t_force = {
  .id = "t_force", .label = "force", .ports = one_translational, .n_ports = 1,
  .params = force_params, .n_params = 1, .boundary_param = -1, .designator = "F",
  .setup = dense_setup, .eval = force_eval,
};

/* r_inertia and r_damper (τ̂ = b·ω) on a rotational port */
static const HydPortInfo one_rotational[] = { { "S", HYD_DOMAIN_ROTATIONAL, FALSE, "shaft" } };
static const HydParamInfo inertia_params[] = { PAR ("J", HYD_UNIT_INERTIA, 1.0, 0) };
static const HydParamInfo rdamper_params[] = { PAR ("b", HYD_UNIT_ROT_DAMPING, 1.0, 0) };

static void
rdamper_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  out->q[0] = comp->par[0] * in->p[0];
  if (out->jac)
    HYD_JAC (comp, out, 0, 0) = comp->par[0];
}

static const HydComponentType r_inertia = {
  .id = "r_inertia", .label = "inertia", .ports = one_rotational, .n_ports = 1,
  .params = inertia_params, .n_params = 1, .boundary_param = -1, .designator = "J",
  .setup = dense_setup, .eval = mass_eval,
};

static const HydComponentType r_damper = {
  .id = "r_damper", .label = "rotational damper", .ports = one_rotational, .n_ports = 1,
  .params = rdamper_params, .n_params = 1, .boundary_param = -1, .designator = "B",
  .setup = dense_setup, .eval = rdamper_eval,
};

/* s_source: Y = value (a profile) */
static const HydPortInfo source_ports[] = { { "Y", HYD_DOMAIN_SIGNAL, FALSE, "out", HYD_PORT_OUTPUT } };
static const HydParamInfo source_params[] = { PAR ("value", HYD_UNIT_NONE, 0.0, HYD_PARAM_PROFILE) };

static void
nothing_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
}

static void
source_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  s[0] = comp->par[0];
  if (s_t)
    s_t[0] = comp->par_dt[0];
}

static const HydComponentType s_source = {
  .id = "s_source", .label = "signal source", .ports = source_ports, .n_ports = 1,
  .params = source_params, .n_params = 1, .boundary_param = -1, .designator = "W",
  .setup = dense_setup, .eval = nothing_eval, .signals = source_signals,
};

/* s_gain: Y = k·U */
static const HydPortInfo gain_ports[] = {
  { "U", HYD_DOMAIN_SIGNAL, FALSE, "in", HYD_PORT_INPUT },
  { "Y", HYD_DOMAIN_SIGNAL, TRUE, "out", HYD_PORT_OUTPUT },
};
static const HydParamInfo gain_params[] = { PAR ("k", HYD_UNIT_NONE, 1.0, 0) };

static void
gain_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  s[1] = comp->par[0] * in->p[0];
  if (ds)
    ds[1 * hyd_comp_n_local (comp) + 0] = comp->par[0];
}

static const HydComponentType s_gain = {
  .id = "s_gain", .label = "gain", .ports = gain_ports, .n_ports = 2,
  .params = gain_params, .n_params = 1, .boundary_param = -1, .designator = "K",
  .setup = dense_setup, .eval = nothing_eval, .signals = gain_signals,
};

/* s_integrator: Y = x, ẋ = U (no direct feedthrough), x(0) = x0 */
static const HydParamInfo integrator_params[] = { PAR ("x0", HYD_UNIT_NONE, 0.0, 0) };
static const HydVarInfo integrator_states[] = { { "x", HYD_UNIT_NONE, "integral" } };

static gboolean
integrator_setup (HydComp *comp, GError **error)
{
  hyd_comp_set_states (comp, 1, integrator_states);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
integrator_init (const HydComp *comp, const double *p0, double *x0)
{
  x0[0] = comp->par[0];
}

static void
integrator_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  out->xdot[0] = in->p[0];
  if (out->jac)
    HYD_JAC (comp, out, 2, 0) = 1.0;
}

static void
integrator_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  s[1] = in->x[0];
  if (ds)
    ds[1 * hyd_comp_n_local (comp) + 2] = 1.0;
}

static const HydComponentType s_integrator = {
  .id = "s_integrator", .label = "integrator", .ports = gain_ports, .n_ports = 2,
  .params = integrator_params, .n_params = 1, .boundary_param = -1, .designator = "I",
  .setup = integrator_setup, .init_states = integrator_init, .eval = integrator_eval,
  .signals = integrator_signals, .signal_feedthrough_free = TRUE,
};

/* s_flow: a flow source commanded by U: delivers q = U (m³/s) at P */
static const HydPortInfo flow_ports[] = {
  { "P", HYD_DOMAIN_HYDRAULIC, FALSE, "delivery" },
  { "U", HYD_DOMAIN_SIGNAL, FALSE, "command (m³/s)", HYD_PORT_INPUT },
};

static void
flow_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  out->q[0] = -in->p[1];
  if (out->jac)
    HYD_JAC (comp, out, 0, 1) = -1.0;
}

static const HydComponentType s_flow = {
  .id = "s_flow", .label = "commanded flow source", .ports = flow_ports, .n_ports = 2,
  .boundary_param = -1, .designator = "Q", .setup = dense_setup, .eval = flow_eval,
};

/* s_switch: Y = d, the discrete state "on", set at each event to U > level */
static const HydParamInfo switch_params[] = { PAR ("level", HYD_UNIT_NONE, 0.0, 0) };
static const HydVarInfo switch_event[] = { { "level crossed", HYD_UNIT_NONE, NULL } };

static gboolean
switch_setup (HydComp *comp, GError **error)
{
  hyd_comp_add_discrete_state (comp, "on", 0.0, "1 while U > level");
  hyd_comp_add_event (comp, switch_event[0].name, NULL);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
switch_signals (const HydComp *comp, const HydEvalIn *in, double *s, double *ds, double *s_t)
{
  s[1] = in->d[0];
}

static void
switch_events (const HydComp *comp, const HydEvalIn *in, double *g)
{
  g[0] = in->p[0] - comp->par[0];
}

/* at its crossing, the direction decides (U equals the level there);
 * otherwise U against the level */
static gboolean
switch_update (const HydComp *comp, const HydEvalIn *in, const int *crossed, double *d)
{
  double on = d[0];
  if (crossed && crossed[0] != 0)
    on = crossed[0] > 0 ? 1.0 : 0.0;
  else if (in->p[0] != comp->par[0])
    on = in->p[0] > comp->par[0] ? 1.0 : 0.0;
  gboolean changed = on != d[0];
  d[0] = on;
  return changed;
}

static const HydComponentType s_switch = {
  .id = "s_switch", .label = "switch", .ports = gain_ports, .n_ports = 2,
  .params = switch_params, .n_params = 1, .boundary_param = -1, .designator = "X",
  .setup = switch_setup, .eval = nothing_eval, .events = switch_events,
  .signals = switch_signals, .update = switch_update,
};

/* t_cylinder: a chamber at A of volume V0 + A·xp driving a rod R (the
 * pattern of issue 11's cylinder): its own position state xp integrates the
 * rod node's velocity (ẋp = v_R) so that the chamber volume is a function of
 * its own state (HydComponentType's volume states); F̂_R = −p_A·A. */
static const HydPortInfo cylinder_ports[] = {
  { "A", HYD_DOMAIN_HYDRAULIC, FALSE, "chamber" },
  { "R", HYD_DOMAIN_TRANSLATIONAL, FALSE, "rod" },
};
static const HydParamInfo cylinder_params[] = {
  PAR ("area", HYD_UNIT_AREA, 1e-3, 0), PAR ("dead_volume", HYD_UNIT_VOLUME, 1e-3, 0),
};
static const HydVarInfo cylinder_states[] = { { "xp", HYD_UNIT_POSITION, "piston position" } };

static gboolean
cylinder_setup (HydComp *comp, GError **error)
{
  static const guint vs[] = { 0 };
  hyd_comp_set_states (comp, 1, cylinder_states);
  hyd_comp_set_vstates (comp, 1, vs);
  hyd_comp_use_dense_pattern (comp);
  return TRUE;
}

static void
cylinder_eval (const HydComp *comp, const HydEvalIn *in, HydEvalOut *out)
{
  double A = comp->par[0];
  out->q[1] = -in->p[0] * A;
  out->xdot[0] = in->p[1];
  out->V[0] = comp->par[1] + A * in->x[0];
  out->dV[0] = A;
  if (out->jac)
    {
      HYD_JAC (comp, out, 1, 0) = -A;
      HYD_JAC (comp, out, 2, 1) = 1.0;
    }
}

static const HydComponentType t_cylinder = {
  .id = "t_cylinder", .label = "cylinder", .ports = cylinder_ports, .n_ports = 2,
  .params = cylinder_params, .n_params = 2, .boundary_param = -1, .designator = "C",
  .setup = cylinder_setup, .eval = cylinder_eval,
};

static void
register_types (void)
{
  const HydComponentType *types[] = {
    &t_mass, &t_spring, &t_force, &r_inertia, &r_damper,
    &s_source, &s_gain, &s_integrator, &s_flow, &s_switch, &t_cylinder, &t_fixed, &t_spring2,
  };
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    g_assert_true (hyd_catalogue_register_test_type (types[i]));
  /* a catalogue type cannot be replaced, nor a test type registered twice */
  g_assert_false (hyd_catalogue_register_test_type (&t_mass));
  guint n;
  const HydComponentType *const *list = hyd_catalogue_list (&n);
  for (guint i = 0; i < n; i++)
    g_assert_true (strncmp (list[i]->id, "t_", 2) != 0 && strncmp (list[i]->id, "s_", 2) != 0);
}

/* ---------------------------------------------------------------- helpers */

#define HEAD "{\"format\": \"bramah-circuit\", \"version\": 2, "
#define CONSTANT_FLUID "\"fluid\": {\"bulk_modulus_model\": \"constant\"}, "

static HydSystem *
compile_json (const char *json, GError **error)
{
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (json, -1, "test.bramah", error);
  if (circuit == NULL)
    return NULL;
  return hyd_system_compile (circuit, error);
}

static HydSystem *
compile_ok (const char *json)
{
  g_autoptr (GError) error = NULL;
  HydSystem *sys = compile_json (json, &error);
  g_assert_no_error (error);
  g_assert_nonnull (sys);
  return sys;
}

typedef HydTestRows Rows;
#define ROW HYD_TEST_ROW
#define N_ROWS HYD_TEST_N_ROWS

/* Runs sys to t_end with rodas4 at rtol, sampling `names` every dt; rows of
 * [t, values...]. */
static Rows
run (HydSystem *sys, const char *const *names, guint n_names, double t_end, double dt, double rtol,
     gboolean events, HydOdeStats *stats)
{
  return hyd_test_run (sys, names, n_names, t_end, dt, rtol, events ? 1 : 0, stats);
}

/* The analytic Jacobian (dense, sparse, ∂f/∂t) against central differences
 * of f at (t, y): each entry within 1e-6 of its row's largest magnitude
 * (and of |∂f/∂t|), the sparse values equal to the dense ones. */
static void
check_jacobian (HydSystem *sys, double t, const double *y)
{
  guint n = hyd_system_get_n_states (sys);
  g_autofree double *J = g_new0 (double, n * n);
  g_autofree double *ft = g_new0 (double, n);
  g_autofree double *yy = g_memdup2 (y, n * sizeof (double));
  g_autofree double *fp = g_new0 (double, n);
  g_autofree double *fm = g_new0 (double, n);
  g_assert_cmpint (hyd_system_jacobian (sys, t, y, J, ft), ==, 0);
  g_autofree double *D = g_new0 (double, n * n);
  for (guint j = 0; j < n; j++)
    {
      double h = 1e-6 * MAX (fabs (y[j]), 1e-3);
      yy[j] = y[j] + h;
      g_assert_cmpint (hyd_system_rhs (sys, t, yy, fp), ==, 0);
      yy[j] = y[j] - h;
      g_assert_cmpint (hyd_system_rhs (sys, t, yy, fm), ==, 0);
      yy[j] = y[j];
      for (guint i = 0; i < n; i++)
        D[i + j * n] = (fp[i] - fm[i]) / (2 * h);
    }
  for (guint i = 0; i < n; i++)
    {
      double scale = 0.0;
      for (guint j = 0; j < n; j++)
        scale = MAX (scale, MAX (fabs (J[i + j * n]), fabs (D[i + j * n])));
      for (guint j = 0; j < n; j++)
        if (fabs (J[i + j * n] - D[i + j * n]) > 1e-6 * scale + 1e-300)
          g_error ("J[%s, %s] = %.10g, finite differences %.10g", hyd_system_get_state_name (sys, i),
                   hyd_system_get_state_name (sys, j), J[i + j * n], D[i + j * n]);
    }
  /* ∂f/∂t */
  double h = 1e-6;
  hyd_system_set_interval (sys, t - 1.0, t + 1.0);
  g_assert_cmpint (hyd_system_rhs (sys, t + h, y, fp), ==, 0);
  g_assert_cmpint (hyd_system_rhs (sys, t - h, y, fm), ==, 0);
  for (guint i = 0; i < n; i++)
    {
      double d = (fp[i] - fm[i]) / (2 * h);
      if (fabs (ft[i] - d) > 1e-6 * MAX (fabs (d), fabs (ft[i])) + 1e-9)
        g_error ("df/dt[%s] = %.10g, finite differences %.10g", hyd_system_get_state_name (sys, i), ft[i], d);
    }
  /* the sparse assembly gives the same values in the pattern */
  guint nnz;
  const guint *colptr, *rowind;
  hyd_system_get_pattern (sys, &nnz, &colptr, &rowind);
  g_autofree double *v = g_new0 (double, nnz + 1);
  g_autofree double *fts = g_new0 (double, n);
  g_assert_cmpint (hyd_system_jacobian_sparse (sys, t, y, v, fts), ==, 0);
  g_autofree double *S = g_new0 (double, n * n);
  for (guint j = 0; j < n; j++)
    for (guint k = colptr[j]; k < colptr[j + 1]; k++)
      S[rowind[k] + j * n] = v[k];
  for (guint k = 0; k < n * n; k++)
    g_assert_cmpfloat (fabs (S[k] - J[k]), <=, 1e-12 * fabs (J[k]));
  for (guint i = 0; i < n; i++)
    g_assert_cmpfloat (fabs (fts[i] - ft[i]), <=, 1e-12 * fabs (ft[i]));
}

/* ------------------------------------------------------------------ tests */

/* m·ẍ + d·ẋ + k·x = F from rest: m = 2 kg, k = 200 N/m, d = 4 N·s/m
 * (ω_n = 10 rad/s, ζ = 0.1), F = 10 N from t = 0. */
static void
test_mass_spring_damper (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"M1\", \"type\": \"t_mass\", \"params\": {\"m\": 2}},"
    "{\"id\": \"S1\", \"type\": \"t_spring\", \"params\": {\"k\": 200, \"d\": 4}},"
    "{\"id\": \"F1\", \"type\": \"t_force\", \"params\": {\"F\": 10}}],"
    "\"connections\": [{\"from\": \"F1.A\", \"to\": \"M1.A\"}, {\"from\": \"M1.A\", \"to\": \"S1.A\"}]}");
  /* one node, two states named after its first port */
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 2);
  g_assert_cmpstr (hyd_system_get_state_name (sys, 0), ==, "M1.A.v");
  g_assert_cmpstr (hyd_system_get_state_name (sys, 1), ==, "M1.A.x");
  double y[2] = { 0.3, 0.02 };
  check_jacobian (sys, 0.1, y);

  const char *names[] = { "M1.A.x", "M1.A.v" };
  Rows r = run (sys, names, 2, 3.0, 0.01, 1e-8, TRUE, NULL);
  double m = 2, k = 200, d = 4, F = 10;
  double wn = sqrt (k / m), zeta = d / (2 * sqrt (k * m)), wd = wn * sqrt (1 - zeta * zeta);
  double worst_x = 0, worst_v = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      double t = row[0], e = exp (-zeta * wn * t);
      double x = F / k * (1 - e * (cos (wd * t) + zeta / sqrt (1 - zeta * zeta) * sin (wd * t)));
      double v = F / k * e * wn / sqrt (1 - zeta * zeta) * sin (wd * t);
      worst_x = MAX (worst_x, fabs (row[1] - x));
      worst_v = MAX (worst_v, fabs (row[2] - v));
    }
  g_test_message ("mass-spring-damper: ω_n = %g rad/s, ζ = %g; worst |x − x_exact| = %.3g m, "
                  "|v − v_exact| = %.3g m/s over %u samples", wn, zeta, worst_x, worst_v, N_ROWS (r));
  /* the static deflection F/k is 0.05 m, the peak speed 0.22 m/s */
  g_assert_cmpfloat (worst_x, <, 1e-6);
  g_assert_cmpfloat (worst_v, <, 1e-5);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* The same mass, spring and damper with the spring between the mass and a
 * fixed point at x0 = 0.1 m (a boundary node: no states): m·ẍ + d·ẋ +
 * k·(x − x0) = F, from rest at x = 0, is the first test's response with
 * F + k·x0 = 30 N. Two fixed points at different positions on one node are
 * refused. */
static void
test_fixed_point (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"M1\", \"type\": \"t_mass\", \"params\": {\"m\": 2}},"
    "{\"id\": \"S1\", \"type\": \"t_spring2\", \"params\": {\"k\": 200, \"d\": 4}},"
    "{\"id\": \"X1\", \"type\": \"t_fixed\", \"params\": {\"x0\": 0.1}},"
    "{\"id\": \"F1\", \"type\": \"t_force\", \"params\": {\"F\": 10}}],"
    "\"connections\": [{\"from\": \"F1.A\", \"to\": \"M1.A\"}, {\"from\": \"M1.A\", \"to\": \"S1.A\"},"
    "{\"from\": \"S1.B\", \"to\": \"X1.A\"}]}");
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 2);
  double y[2] = { -0.2, 0.13 };
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "M1.A.x" };
  Rows r = run (sys, names, 1, 3.0, 0.01, 1e-8, TRUE, NULL);
  double m = 2, k = 200, d = 4, F = 10 + 200 * 0.1;
  double wn = sqrt (k / m), zeta = d / (2 * sqrt (k * m)), wd = wn * sqrt (1 - zeta * zeta);
  double worst = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      double t = row[0], e = exp (-zeta * wn * t);
      double x = F / k * (1 - e * (cos (wd * t) + zeta / sqrt (1 - zeta * zeta) * sin (wd * t)));
      worst = MAX (worst, fabs (row[1] - x));
    }
  g_test_message ("fixed point: worst |x − x_exact| = %.3g m (final value 0.15 m)", worst);
  g_assert_cmpfloat (worst, <, 3e-6);
  g_array_unref (r.rows);
  hyd_system_free (sys);

  g_autoptr (GError) error = NULL;
  sys = compile_json (
    HEAD "\"components\": ["
    "{\"id\": \"M1\", \"type\": \"t_mass\"}, {\"id\": \"S1\", \"type\": \"t_spring2\"},"
    "{\"id\": \"X1\", \"type\": \"t_fixed\", \"params\": {\"x0\": 0.1}},"
    "{\"id\": \"X2\", \"type\": \"t_fixed\", \"params\": {\"x0\": 0.2}}],"
    "\"connections\": [{\"from\": \"M1.A\", \"to\": \"S1.A\"}, {\"from\": \"S1.B\", \"to\": \"X1.A\"},"
    "{\"from\": \"X1.A\", \"to\": \"X2.A\"}]}",
    &error);
  g_assert_null (sys);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_SHORT_CIRCUIT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "X2"));
}

/* J·ω̇ = −b·ω from ω0 = 100 rad/s (the version 2 key on the connection):
 * ω = ω0·e^(−b·t/J), φ = ω0·J/b·(1 − e^(−b·t/J)), J = 0.5, b = 2. */
static void
test_inertia_damper (void)
{
  HydSystem *sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"J1\", \"type\": \"r_inertia\", \"params\": {\"J\": 0.5}},"
    "{\"id\": \"B1\", \"type\": \"r_damper\", \"params\": {\"b\": 2}}],"
    "\"connections\": [{\"from\": \"J1.S\", \"to\": \"B1.S\", \"initial_velocity\": 100}]}");
  g_assert_cmpstr (hyd_system_get_state_name (sys, 0), ==, "J1.S.w");
  g_assert_cmpstr (hyd_system_get_state_name (sys, 1), ==, "J1.S.phi");
  g_assert_cmpfloat (hyd_system_get_initial_state (sys)[0], ==, 100.0);
  g_assert_cmpfloat (hyd_system_get_initial_state (sys)[1], ==, 0.0);
  double y[2] = { 50, 3 };
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "J1.S.w", "J1.S.phi" };
  Rows r = run (sys, names, 2, 1.0, 0.05, 1e-8, TRUE, NULL);
  double worst = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      double e = exp (-4.0 * row[0]);
      worst = MAX (worst, fabs (row[1] - 100 * e) / 100);
      worst = MAX (worst, fabs (row[2] - 25 * (1 - e)) / 25);
    }
  g_test_message ("inertia-damper: worst relative error %.3g over %u samples", worst, N_ROWS (r));
  g_assert_cmpfloat (worst, <, 1e-6);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* A mass on an oil column: a 100 kg mass on the rod of a closed chamber
 * (A = 1e-3 m², V0 = 1 L, B = 1.5e9 Pa) started at v0 = 1 mm/s (version 2's
 * initial_velocity) oscillates at ω = √(B·A²/(V0·m)) = 122.47 rad/s
 * (Merritt 1967, Hydraulic Control Systems, ch. 5: the hydraulic spring
 * 4·B·A²/V_t of a symmetric actuator, here one chamber: B·A²/V0):
 * x = v0/ω·sin ωt. The amplitude, 8.2 µm, changes the volume by 8e-9 of
 * itself, so the linear solution holds to far below the 1e-3 of the
 * amplitude checked over four periods; the hydraulic rows' entries in the
 * mechanical columns and back are checked against finite differences. */
static void
test_oil_column (void)
{
  HydSystem *sys = compile_ok (
    HEAD CONSTANT_FLUID "\"components\": ["
    "{\"id\": \"C1\", \"type\": \"t_cylinder\"},"
    "{\"id\": \"M1\", \"type\": \"t_mass\", \"params\": {\"m\": 100}},"
    "{\"id\": \"G1\", \"type\": \"pressure_gauge\"}],"
    "\"connections\": [{\"from\": \"C1.R\", \"to\": \"M1.A\", \"initial_velocity\": 1e-3},"
    "{\"from\": \"C1.A\", \"to\": \"G1.P\", \"length\": 0}]}");
  /* the chamber's pressure, the piston's own state, the rod node's v and x */
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 4);
  double y[4] = { 2e5, 1e-4, 3e-3, 1e-4 };
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "C1.R.x", "C1.R.v", "G1.p" };
  Rows r = run (sys, names, 3, 0.2, 0.001, 1e-9, TRUE, NULL);
  double w = sqrt (1.5e9 * 1e-6 / (1e-3 * 100)), v0 = 1e-3, amp = v0 / w;
  double worst = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      worst = MAX (worst, fabs (row[1] - amp * sin (w * row[0])) / amp);
      worst = MAX (worst, fabs (row[2] - v0 * cos (w * row[0])) / v0);
    }
  g_test_message ("oil column: ω = %.6g rad/s, amplitude %.3g m; worst error %.3g of the amplitude "
                  "over %u samples (4 periods)", w, amp, worst, N_ROWS (r));
  g_assert_cmpfloat (worst, <, 1e-3);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* source → gain → commanded flow source into a 1 L volume: the pressure
 * ramps at B·k·c/V = 1.5e9·2·1e-5/1e-3 = 3e7 Pa/s. */
static void
test_signal_chain_ramp (void)
{
  HydSystem *sys = compile_ok (
    HEAD CONSTANT_FLUID "\"components\": ["
    "{\"id\": \"W1\", \"type\": \"s_source\", \"params\": {\"value\": 1e-5}},"
    "{\"id\": \"K1\", \"type\": \"s_gain\", \"params\": {\"k\": 2}},"
    "{\"id\": \"Q1\", \"type\": \"s_flow\"},"
    "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"volume\": 1e-3}}],"
    "\"connections\": [{\"from\": \"Q1.U\", \"to\": \"K1.Y\"}, {\"from\": \"W1.Y\", \"to\": \"K1.U\"},"
    "{\"from\": \"Q1.P\", \"to\": \"V1.P\", \"length\": 0}]}");
  g_assert_cmpuint (hyd_system_get_n_states (sys), ==, 1);
  const char *names[] = { "V1.P.p", "K1.Y", "Q1.P.q" };
  Rows r = run (sys, names, 3, 0.1, 0.01, 1e-8, TRUE, NULL);
  double worst = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      worst = MAX (worst, fabs (row[1] - 3e7 * row[0]));
      g_assert_cmpfloat (row[2], ==, 2e-5);
      g_assert_cmpfloat (fabs (row[3] + 2e-5), <, 1e-15);
    }
  g_test_message ("signal ramp: worst |p − 3e7·t| = %.3g Pa (p(0.1) = 3e6 Pa)", worst);
  g_assert_cmpfloat (worst, <, 1.0);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* Feedback through the hydraulics: the gauge reads the pressure, a gain
 * k = −1e-12 m³/(s·Pa) commands the flow source: ṗ = −(B·1e-12/V)·p,
 * p = p0·e^(−1.5·t). Its Jacobian goes through the chain rule. */
static void
test_signal_feedback (void)
{
  HydSystem *sys = compile_ok (
    HEAD CONSTANT_FLUID "\"components\": ["
    "{\"id\": \"G1\", \"type\": \"pressure_gauge\"},"
    "{\"id\": \"K1\", \"type\": \"s_gain\", \"params\": {\"k\": -1e-12}},"
    "{\"id\": \"Q1\", \"type\": \"s_flow\"},"
    "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"volume\": 1e-3}}],"
    "\"connections\": [{\"from\": \"G1.S\", \"to\": \"K1.U\"}, {\"from\": \"K1.Y\", \"to\": \"Q1.U\"},"
    "{\"from\": \"Q1.P\", \"to\": \"V1.P\", \"length\": 0, \"initial_pressure\": 1e6},"
    "{\"from\": \"G1.P\", \"to\": \"V1.P\", \"length\": 0}]}");
  double y[1] = { 3e6 };
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "V1.P.p", "G1.S" };
  Rows r = run (sys, names, 2, 1.0, 0.05, 1e-8, TRUE, NULL);
  double worst = 0;
  for (guint i = 0; i < N_ROWS (r); i++)
    {
      const double *row = ROW (r, i);
      worst = MAX (worst, fabs (row[1] - 1e6 * exp (-1.5 * row[0])) / 1e6);
      g_assert_cmpfloat (row[2], ==, row[1]);
    }
  g_test_message ("signal feedback: worst |p − p0·e^(−1.5t)|/p0 = %.3g", worst);
  g_assert_cmpfloat (worst, <, 1e-6);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* gain → gain → back: refused, naming both blocks. An integrator in the
 * loop breaks it: y' = k·y. */
static void
test_algebraic_loop (void)
{
  g_autoptr (GError) error = NULL;
  HydSystem *sys = compile_json (
    HEAD "\"components\": ["
    "{\"id\": \"K1\", \"type\": \"s_gain\"}, {\"id\": \"K2\", \"type\": \"s_gain\"}],"
    "\"connections\": [{\"from\": \"K1.Y\", \"to\": \"K2.U\"}, {\"from\": \"K2.Y\", \"to\": \"K1.U\"}]}",
    &error);
  g_assert_null (sys);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_ALGEBRAIC_LOOP);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "K1"));
  g_assert_nonnull (strstr (error->message, "K2"));
  g_assert_nonnull (strstr (error->message, "algebraic loop"));

  sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"K1\", \"type\": \"s_gain\", \"params\": {\"k\": -2}},"
    "{\"id\": \"I1\", \"type\": \"s_integrator\", \"params\": {\"x0\": 1}}],"
    "\"connections\": [{\"from\": \"K1.Y\", \"to\": \"I1.U\"}, {\"from\": \"I1.Y\", \"to\": \"K1.U\"}]}");
  double y[1] = { 0.7 };
  check_jacobian (sys, 0.0, y);
  const char *names[] = { "I1.x" };
  Rows r = run (sys, names, 1, 1.0, 0.1, 1e-8, TRUE, NULL);
  const double *last = ROW (r, N_ROWS (r) - 1);
  g_assert_cmpfloat (last[0], ==, 1.0);
  g_assert_cmpfloat (fabs (last[1] - exp (-2.0)), <, 1e-7);
  g_array_unref (r.rows);
  hyd_system_free (sys);
}

/* Signal nets: two outputs on one net, and an input with no output. */
static void
test_signal_net_errors (void)
{
  g_autoptr (GError) error = NULL;
  HydSystem *sys = compile_json (
    HEAD "\"components\": ["
    "{\"id\": \"W1\", \"type\": \"s_source\"}, {\"id\": \"W2\", \"type\": \"s_source\"},"
    "{\"id\": \"K1\", \"type\": \"s_gain\"}, {\"id\": \"K2\", \"type\": \"s_gain\"}],"
    "\"connections\": [{\"from\": \"W1.Y\", \"to\": \"K1.U\"}, {\"from\": \"W2.Y\", \"to\": \"K1.U\"},"
    "{\"from\": \"K1.Y\", \"to\": \"K2.U\"}]}",
    &error);
  g_assert_null (sys);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_SIGNAL);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "W1.Y"));
  g_assert_nonnull (strstr (error->message, "W2.Y"));
  g_clear_error (&error);

  sys = compile_json (
    HEAD "\"components\": ["
    "{\"id\": \"K1\", \"type\": \"s_gain\"}, {\"id\": \"Q1\", \"type\": \"s_flow\"},"
    "{\"id\": \"V1\", \"type\": \"volume\"}],"
    "\"connections\": [{\"from\": \"Q1.U\", \"to\": \"K1.U\"}, {\"from\": \"Q1.P\", \"to\": \"V1.P\"},"
    "{\"from\": \"K1.Y\", \"to\": \"V1.P2\"}]}",
    &error);
  g_assert_null (sys);
  /* K1.Y on a hydraulic port: the loader's domain check */
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_DOMAIN);
  g_clear_error (&error);

  sys = compile_json (
    HEAD "\"components\": ["
    "{\"id\": \"K1\", \"type\": \"s_gain\"}, {\"id\": \"K2\", \"type\": \"s_gain\"}],"
    "\"connections\": [{\"from\": \"K1.U\", \"to\": \"K2.U\"}, {\"from\": \"K1.Y\", \"to\": \"K2.Y\"}]}",
    &error);
  g_assert_null (sys);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_SIGNAL);
  g_test_message ("%s", error->message);
}

/* Translational and rotational ports are different domains: the loader's
 * domain check refuses the wire, naming both. */
static void
test_domain_mismatch (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HydCircuit) circuit = hyd_circuit_load_from_data (
    HEAD "\"components\": ["
    "{\"id\": \"M1\", \"type\": \"t_mass\"}, {\"id\": \"J1\", \"type\": \"r_inertia\"}],"
    "\"connections\": [{\"from\": \"M1.A\", \"to\": \"J1.S\"}]}",
    -1, "test.bramah", &error);
  g_assert_null (circuit);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_DOMAIN);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "translational"));
  g_assert_nonnull (strstr (error->message, "rotational"));
}

/* A translational node with a force and a spring but no mass. */
static void
test_no_mass (void)
{
  g_autoptr (GError) error = NULL;
  HydSystem *sys = compile_json (
    HEAD "\"components\": ["
    "{\"id\": \"F1\", \"type\": \"t_force\"}, {\"id\": \"S1\", \"type\": \"t_spring\"},"
    "{\"id\": \"J1\", \"type\": \"r_inertia\"}, {\"id\": \"B1\", \"type\": \"r_damper\"}],"
    "\"connections\": [{\"from\": \"F1.A\", \"to\": \"S1.A\"}, {\"from\": \"J1.S\", \"to\": \"B1.S\"}]}",
    &error);
  g_assert_null (sys);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_NO_STORAGE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "{F1.A, S1.A}"));
  g_assert_nonnull (strstr (error->message, "no mass"));
  g_clear_error (&error);

  sys = compile_json (
    HEAD "\"components\": ["
    "{\"id\": \"B1\", \"type\": \"r_damper\"}, {\"id\": \"B2\", \"type\": \"r_damper\"}],"
    "\"connections\": [{\"from\": \"B1.S\", \"to\": \"B2.S\"}]}",
    &error);
  g_assert_null (sys);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_NO_STORAGE);
  g_assert_nonnull (strstr (error->message, "{B1.S, B2.S}"));
  g_assert_nonnull (strstr (error->message, "no inertia"));
}

/* A ramp U = t crosses the switch's level 0.37 at t = 0.37 s (off the
 * 0.05 s sample grid): the switch's discrete state turns on there and the
 * gain K1 = 2e-5 commands 2e-5 m³/s into the 1 L volume, a ramp of 3e7 Pa/s:
 * p(1) = 3e7·(1 − 0.37) = 1.89e7 Pa, with events on and with events off
 * (discrete states locate their events regardless). The driver locates an
 * event to 1e-7 of the step (≤ t_end/10 here): 1e-8 s, 0.3 Pa of ramp, so
 * pressures are checked to 1 Pa. */
static void
test_discrete_switch (void)
{
  for (int events = 0; events < 2; events++)
    {
      HydSystem *sys = compile_ok (
        HEAD CONSTANT_FLUID "\"components\": ["
        "{\"id\": \"W1\", \"type\": \"s_source\", \"params\": {\"value\": {\"ramp\": {\"points\": [[0, 0], [2, 2]]}}}},"
        "{\"id\": \"X1\", \"type\": \"s_switch\", \"params\": {\"level\": 0.37}},"
        "{\"id\": \"K1\", \"type\": \"s_gain\", \"params\": {\"k\": 2e-5}},"
        "{\"id\": \"Q1\", \"type\": \"s_flow\"},"
        "{\"id\": \"V1\", \"type\": \"volume\", \"params\": {\"volume\": 1e-3}}],"
        "\"connections\": [{\"from\": \"W1.Y\", \"to\": \"X1.U\"}, {\"from\": \"X1.Y\", \"to\": \"K1.U\"},"
        "{\"from\": \"K1.Y\", \"to\": \"Q1.U\"}, {\"from\": \"Q1.P\", \"to\": \"V1.P\", \"length\": 0}]}");
      const char *names[] = { "V1.P.p", "X1.on" };
      HydOdeStats stats;
      Rows r = run (sys, names, 2, 1.0, 0.05, 1e-8, events, &stats);
      for (guint i = 0; i < N_ROWS (r); i++)
        {
          const double *row = ROW (r, i);
          if (row[2] != (row[0] > 0.37 ? 1.0 : 0.0))
            g_error ("t = %.17g: X1.on = %g", row[0], row[2]);
          /* off: no flow; on: the ramp from the switching time */
          double p = row[0] > 0.37 ? 3e7 * (row[0] - 0.37) : 0.0;
          g_assert_cmpfloat (fabs (row[1] - p), <, 1.0);
        }
      const double *last = ROW (r, N_ROWS (r) - 1);
      g_test_message ("switch (events %s): %" G_GUINT64_FORMAT " event(s); p(1) = %.10g Pa (1.89e7 by "
                      "hand), so the flow started at t = %.10g s", events ? "on" : "off", stats.events,
                      last[1], 1.0 - last[1] / 3e7);
      g_assert_cmpuint (stats.events, ==, 1);
      g_assert_cmpfloat (fabs (last[1] - 1.89e7), <, 1.0);
      g_array_unref (r.rows);
      hyd_system_free (sys);
    }
}

/* Version 2's initial motion on a hydraulic node is ignored with a warning;
 * two different initial velocities in one mechanical node are an error. */
static void
test_initial_motion (void)
{
  g_autoptr (GError) error = NULL;
  HydSystem *sys = compile_json (
    HEAD "\"components\": ["
    "{\"id\": \"M1\", \"type\": \"t_mass\"}, {\"id\": \"S1\", \"type\": \"t_spring\"}],"
    "\"junctions\": [{\"id\": \"N1\", \"initial_velocity\": 2}],"
    "\"connections\": [{\"from\": \"M1.A\", \"to\": \"N1\", \"initial_velocity\": 1},"
    "{\"from\": \"N1\", \"to\": \"S1.A\", \"initial_position\": 0.5}]}",
    &error);
  g_assert_null (sys);
  g_assert_error (error, HYD_CIRCUIT_ERROR, HYD_CIRCUIT_ERROR_INITIAL_PRESSURE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "initial_velocity"));
  g_clear_error (&error);

  sys = compile_ok (
    HEAD "\"components\": ["
    "{\"id\": \"M1\", \"type\": \"t_mass\"}, {\"id\": \"S1\", \"type\": \"t_spring\"},"
    "{\"id\": \"V1\", \"type\": \"volume\"}, {\"id\": \"T1\", \"type\": \"tank\"}],"
    "\"connections\": [{\"from\": \"M1.A\", \"to\": \"S1.A\", \"initial_position\": 0.5},"
    "{\"from\": \"V1.P\", \"to\": \"T1.T\", \"initial_velocity\": 3}]}");
  g_assert_cmpfloat (hyd_system_get_initial_state (sys)[1], ==, 0.5);
  const GPtrArray *diags = hyd_system_get_diagnostics (sys);
  gboolean found = FALSE;
  for (guint k = 0; k < diags->len; k++)
    {
      const HydDiagnostic *d = g_ptr_array_index (diags, k);
      if (d->code == HYD_DIAGNOSTIC_MOTION_IGNORED)
        {
          found = TRUE;
          g_test_message ("%s", d->message);
        }
    }
  g_assert_true (found);
  hyd_system_free (sys);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  register_types ();
  g_test_add_func ("/engine/domains/translational/mass-spring-damper", test_mass_spring_damper);
  g_test_add_func ("/engine/domains/rotational/inertia-damper", test_inertia_damper);
  g_test_add_func ("/engine/domains/translational/oil-column", test_oil_column);
  g_test_add_func ("/engine/domains/translational/fixed-point", test_fixed_point);
  g_test_add_func ("/engine/domains/signal/chain-ramp", test_signal_chain_ramp);
  g_test_add_func ("/engine/domains/signal/feedback", test_signal_feedback);
  g_test_add_func ("/engine/domains/signal/algebraic-loop", test_algebraic_loop);
  g_test_add_func ("/engine/domains/signal/net-errors", test_signal_net_errors);
  g_test_add_func ("/engine/domains/storage/no-mass", test_no_mass);
  g_test_add_func ("/engine/domains/domain-mismatch", test_domain_mismatch);
  g_test_add_func ("/engine/domains/discrete/switch", test_discrete_switch);
  g_test_add_func ("/engine/domains/version2/initial-motion", test_initial_motion);
  return g_test_run ();
}
