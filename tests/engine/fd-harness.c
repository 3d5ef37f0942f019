/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fd-harness.c — finite-difference checks of one component. */
#include "fd-harness.h"
#include "hyd-fdcheck.h"
#include "hyd-circuit.h"
#include "hyd-run.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

static HydFluid default_fluid;

static HydComp *make_comp_va (const char *type_id, const HydFluid *fluid, guint64 connected, va_list ap);

HydComp *
hyd_test_make_comp (const char *type_id, const HydFluid *fluid, ...)
{
  va_list ap;
  va_start (ap, fluid);
  HydComp *comp = make_comp_va (type_id, fluid, 0, ap);
  va_end (ap);
  return comp;
}

HydComp *
hyd_test_make_comp_wired (const char *type_id, const HydFluid *fluid, guint64 connected, ...)
{
  va_list ap;
  va_start (ap, connected);
  HydComp *comp = make_comp_va (type_id, fluid, connected, ap);
  va_end (ap);
  return comp;
}

static HydComp *
make_comp_va (const char *type_id, const HydFluid *fluid, guint64 connected, va_list ap)
{
  const HydComponentType *type = hyd_catalogue_lookup (type_id);
  g_assert_nonnull (type);
  if (fluid == NULL)
    {
      hyd_fluid_init_default (&default_fluid);
      fluid = &default_fluid;
    }
  HydComp *comp = hyd_comp_new (type, "X1", fluid);
  comp->connected = connected;
  for (guint i = 0; i < type->n_params; i++)
    if (type->params[i].flags & HYD_PARAM_FLUID_CD)
      comp->par[i] = fluid->discharge_coefficient;
  const char *name;
  while ((name = va_arg (ap, const char *)) != NULL)
    {
      const char *value = va_arg (ap, const char *);
      int k = hyd_component_type_find_param (type, name);
      if (k < 0)
        g_error ("%s has no parameter %s", type_id, name);
      const HydParamInfo *pi = &type->params[k];
      if (pi->flags & HYD_PARAM_ENUM)
        {
          int idx = -1;
          for (int c = 0; pi->choices[c]; c++)
            if (strcmp (pi->choices[c], value) == 0)
              idx = c;
          if (idx < 0)
            g_error ("%s.%s has no choice %s", type_id, name, value);
          comp->par[k] = idx;
        }
      else
        comp->par[k] = g_ascii_strtod (value, NULL);
    }
  GError *error = NULL;
  if (type->validate && !type->validate (comp, &error))
    g_error ("validate %s: %s", type_id, error->message);
  if (!type->setup (comp, &error))
    g_error ("setup %s: %s", type_id, error->message);
  if (comp->nnz == 0 && hyd_comp_n_local (comp) > 0)
    hyd_comp_use_dense_pattern (comp);
  return comp;
}

void
hyd_test_set_param_rate (HydComp *comp, const char *name, double rate)
{
  int k = hyd_component_type_find_param (comp->type, name);
  g_assert_cmpint (k, >=, 0);
  g_assert_true (comp->type->params[k].flags & HYD_PARAM_PROFILE);
  comp->par_dt[k] = rate;
}

typedef struct {
  double *q, *xdot, *jac, *q_t, *x_t, *V, *dV, *d2V, *C, *dC, *out;
} Buffers;

static void
buffers_alloc (HydComp *comp, Buffers *b)
{
  guint np = comp->type->n_ports, ns = comp->n_states, nv = comp->n_vstates;
  b->q = g_new0 (double, np + 1);
  b->xdot = g_new0 (double, ns + 1);
  b->jac = g_new0 (double, comp->nnz + 1);
  b->q_t = g_new0 (double, np + 1);
  b->x_t = g_new0 (double, ns + 1);
  b->V = g_new0 (double, np + 1);
  b->dV = g_new0 (double, np * nv + 1);
  b->d2V = g_new0 (double, np * nv * nv + 1);
  b->C = g_new0 (double, np + 1);
  b->dC = g_new0 (double, np + 1);
  b->out = g_new0 (double, comp->n_outputs + 1);
}

static void
buffers_free (Buffers *b)
{
  g_free (b->q); g_free (b->xdot); g_free (b->jac); g_free (b->q_t); g_free (b->x_t);
  g_free (b->V); g_free (b->dV); g_free (b->d2V); g_free (b->C); g_free (b->dC); g_free (b->out);
}

/* Positions of mechanical ports (z after p and x) when comp->n_pos > 0. */
static void
eval_into_pos (HydComp *comp, double t, const double *p, const double *x, const double *pos, Buffers *b)
{
  guint np = comp->type->n_ports, ns = comp->n_states, nv = comp->n_vstates;
  memset (b->q, 0, sizeof (double) * (np + 1));
  memset (b->xdot, 0, sizeof (double) * (ns + 1));
  memset (b->jac, 0, sizeof (double) * (comp->nnz + 1));
  memset (b->q_t, 0, sizeof (double) * (np + 1));
  memset (b->x_t, 0, sizeof (double) * (ns + 1));
  memset (b->V, 0, sizeof (double) * (np + 1));
  memset (b->dV, 0, sizeof (double) * (np * nv + 1));
  memset (b->d2V, 0, sizeof (double) * (np * nv * nv + 1));
  memset (b->C, 0, sizeof (double) * (np + 1));
  memset (b->dC, 0, sizeof (double) * (np + 1));
  memset (b->out, 0, sizeof (double) * (comp->n_outputs + 1));
  double zeros[16] = { 0 };
  g_assert (comp->n_pos <= G_N_ELEMENTS (zeros));
  HydEvalIn in = { t, p, x, comp->n_pos ? (pos ? pos : zeros) : NULL };
  HydEvalOut out = { b->q, b->xdot, b->jac, b->q_t, b->x_t, b->V, b->dV, b->d2V, b->C, b->dC, b->out };
  comp->type->eval (comp, &in, &out);
}

static void
eval_into (HydComp *comp, double t, const double *p, const double *x, Buffers *b)
{
  eval_into_pos (comp, t, p, x, NULL, b);
}

void
hyd_test_eval (HydComp *comp, double t, const double *p, const double *x,
               double *q, double *xdot, double *out)
{
  Buffers b;
  buffers_alloc (comp, &b);
  eval_into (comp, t, p, x, &b);
  if (q) memcpy (q, b.q, sizeof (double) * comp->type->n_ports);
  if (xdot) memcpy (xdot, b.xdot, sizeof (double) * comp->n_states);
  if (out) memcpy (out, b.out, sizeof (double) * comp->n_outputs);
  buffers_free (&b);
}

/* The scale of local variable j: a port's across value (pressure, velocity,
 * angular speed, signal), a state, a position or angle. */
static double
local_scale (HydComp *comp, guint j)
{
  guint np = comp->type->n_ports, ns = comp->n_states;
  if (j < np || j >= np + ns)
    {
      HydDomain d = comp->type->ports[j < np ? j : j - np - ns].domain;
      if (d == HYD_DOMAIN_HYDRAULIC)
        return 1e5;
      if (d == HYD_DOMAIN_TRANSLATIONAL)
        return 1e-3;
      return 1.0;
    }
  return hyd_unit_fd_scale (comp->states[j - np].unit);
}

/* Rows r of the local system at local variables z (p then x). */
static void
rows_at (HydComp *comp, double t, const double *z, Buffers *b, double *rows)
{
  guint np = comp->type->n_ports, ns = comp->n_states;
  eval_into_pos (comp, t, z, z + np, z + np + ns, b);
  memcpy (rows, b->q, sizeof (double) * np);
  memcpy (rows + np, b->xdot, sizeof (double) * ns);
}

static void
shift_time (HydComp *comp, double dt)
{
  for (guint k = 0; k < comp->type->n_params; k++)
    if (comp->par_dt[k] != 0.0)
      comp->par[k] += comp->par_dt[k] * dt;
}

guint
hyd_test_check_component (HydComp *comp, double t, const double *p, const double *x,
                          const char *where)
{
  return hyd_test_check_component_pos (comp, t, p, x, NULL, where);
}

guint
hyd_test_check_component_pos (HydComp *comp, double t, const double *p, const double *x,
                              const double *pos, const char *where)
{
  guint np = comp->type->n_ports, ns = comp->n_states, nv = comp->n_vstates;
  guint nr = np + ns, nl = hyd_comp_n_local (comp);
  guint failures = 0;
  Buffers b0, bt;
  buffers_alloc (comp, &b0);
  buffers_alloc (comp, &bt);

  double *z = g_new (double, nl + 1);
  memcpy (z, p, sizeof (double) * np);
  if (ns) memcpy (z + np, x, sizeof (double) * ns);
  for (guint X = 0; X < comp->n_pos; X++)
    z[nr + X] = pos ? pos[X] : 0.0;
  eval_into_pos (comp, t, z, z + np, z + nr, &b0);

  /* analytic dense matrix (rows nr, columns nl) from the pattern */
  double *J = g_new0 (double, nr * nl + 1);
  for (guint e = 0; e < comp->nnz; e++)
    J[comp->jrow[e] * nl + comp->jcol[e]] += b0.jac[e];

  double *rp = g_new (double, nl + 1), *rm = g_new (double, nl + 1);
  double *D1 = g_new (double, nl * nl + 1), *D2 = g_new (double, nl * nl + 1);
  double *zz = g_new (double, nl + 1);

  for (guint pass = 0; pass < 2; pass++)
    for (guint j = 0; j < nl; j++)
      {
        double h = 1e-7 * MAX (fabs (z[j]), local_scale (comp, j));
        if (pass == 1) h /= 10.0;
        memcpy (zz, z, sizeof (double) * nl);
        zz[j] = z[j] + h;
        rows_at (comp, t, zz, &bt, rp);
        zz[j] = z[j] - h;
        rows_at (comp, t, zz, &bt, rm);
        for (guint i = 0; i < nr; i++)
          (pass == 0 ? D1 : D2)[i * nl + j] = (rp[i] - rm[i]) / (2.0 * h);
      }
  for (guint i = 0; i < nr; i++)
    {
      for (guint j = 0; j < nl; j++)
        {
          double rowmax = 0.0;
          for (guint k = 0; k < nl; k++)
            rowmax = MAX (rowmax, fabs (J[i * nl + k]) * local_scale (comp, k));
          double floor = 1e-8 * rowmax / local_scale (comp, j);
          double err;
          HydFdVerdict v = hyd_fd_judge (J[i * nl + j], D1[i * nl + j], D2[i * nl + j], floor, &err);
          if (v != HYD_FD_OK)
            g_test_message ("%s %s at %s: d row %u / d var %u: analytic %.10g, FD %.10g / %.10g (err %.2g)%s",
                            comp->type->id, v == HYD_FD_FAIL ? "FAIL" : "seam", where, i, j,
                            J[i * nl + j], D1[i * nl + j], D2[i * nl + j], err,
                            v == HYD_FD_SEAM ? " (seam, not counted)" : "");
          if (v == HYD_FD_FAIL)
            failures++;
        }
    }

  /* ∂/∂t through profile rates */
  {
    double ht[2] = { 1e-7 * MAX (fabs (t), 1.0), 1e-8 * MAX (fabs (t), 1.0) };
    double Dt[2][64];
    guint nrows = MIN (nr, 64);
    for (guint pass = 0; pass < 2; pass++)
      {
        shift_time (comp, ht[pass]);
        rows_at (comp, t + ht[pass], z, &bt, rp);
        shift_time (comp, -2.0 * ht[pass]);
        rows_at (comp, t - ht[pass], z, &bt, rm);
        shift_time (comp, ht[pass]);
        for (guint i = 0; i < nrows; i++)
          Dt[pass][i] = (rp[i] - rm[i]) / (2.0 * ht[pass]);
      }
    eval_into_pos (comp, t, z, z + np, z + nr, &b0);
    for (guint i = 0; i < nrows; i++)
      {
        double a = i < np ? b0.q_t[i] : b0.x_t[i - np];
        double rowmax = 0.0;
        for (guint k = 0; k < nl; k++)
          rowmax = MAX (rowmax, fabs (J[i * nl + k]) * local_scale (comp, k));
        double err;
        HydFdVerdict v = hyd_fd_judge (a, Dt[0][i], Dt[1][i], 1e-8 * rowmax, &err);
        if (v == HYD_FD_FAIL)
          {
            g_test_message ("%s FAIL at %s: d row %u / dt: analytic %.10g, FD %.10g / %.10g",
                            comp->type->id, where, i, a, Dt[0][i], Dt[1][i]);
            failures++;
          }
      }
  }

  /* ∂V/∂x and ∂²V/∂x² */
  for (guint jv = 0; jv < nv; jv++)
    {
      guint s = comp->vstates[jv];
      double D[2][32], DD[2][32 * 8];
      for (guint pass = 0; pass < 2; pass++)
        {
          double h = 1e-7 * MAX (fabs (z[np + s]), local_scale (comp, np + s)) / (pass ? 10.0 : 1.0);
          memcpy (zz, z, sizeof (double) * nl);
          zz[np + s] += h;
          eval_into_pos (comp, t, zz, zz + np, zz + nr, &bt);
          double Vp[32], dVp[32 * 8];
          for (guint X = 0; X < np && X < 32; X++) Vp[X] = bt.V[X];
          for (guint e = 0; e < np * nv && e < 256; e++) dVp[e] = bt.dV[e];
          zz[np + s] -= 2.0 * h;
          eval_into_pos (comp, t, zz, zz + np, zz + nr, &bt);
          for (guint X = 0; X < np && X < 32; X++)
            {
              D[pass][X] = (Vp[X] - bt.V[X]) / (2.0 * h);
              for (guint kv = 0; kv < nv && kv < 8; kv++)
                DD[pass][X * 8 + kv] = (dVp[X * nv + kv] - bt.dV[X * nv + kv]) / (2.0 * h);
            }
        }
      for (guint X = 0; X < np && X < 32; X++)
        {
          double err;
          double a = b0.dV[X * nv + jv];
          if (hyd_fd_judge (a, D[0][X], D[1][X], 1e-30, &err) == HYD_FD_FAIL)
            {
              g_test_message ("%s FAIL at %s: dV[port %u]/dx%u: analytic %.10g, FD %.10g",
                              comp->type->id, where, X, s, a, D[0][X]);
              failures++;
            }
          for (guint kv = 0; kv < nv && kv < 8; kv++)
            {
              double a2 = b0.d2V[(X * nv + kv) * nv + jv];
              if (hyd_fd_judge (a2, DD[0][X * 8 + kv], DD[1][X * 8 + kv], 1e-30, &err) == HYD_FD_FAIL)
                {
                  g_test_message ("%s FAIL at %s: d2V[port %u]: analytic %.10g, FD %.10g",
                                  comp->type->id, where, X, a2, DD[0][X * 8 + kv]);
                  failures++;
                }
            }
        }
    }

  /* ∂C/∂p */
  for (guint X = 0; X < np; X++)
    {
      double D[2];
      for (guint pass = 0; pass < 2; pass++)
        {
          double h = 1e-7 * MAX (fabs (z[X]), 1e5) / (pass ? 10.0 : 1.0);
          memcpy (zz, z, sizeof (double) * nl);
          zz[X] += h;
          eval_into_pos (comp, t, zz, zz + np, zz + nr, &bt);
          double cp = bt.C[X];
          zz[X] -= 2.0 * h;
          eval_into_pos (comp, t, zz, zz + np, zz + nr, &bt);
          D[pass] = (cp - bt.C[X]) / (2.0 * h);
        }
      double err;
      if (hyd_fd_judge (b0.dC[X], D[0], D[1], 1e-30, &err) == HYD_FD_FAIL)
        {
          g_test_message ("%s FAIL at %s: dC[port %u]/dp: analytic %.10g, FD %.10g",
                          comp->type->id, where, X, b0.dC[X], D[0]);
          failures++;
        }
    }

  g_free (z); g_free (J); g_free (rp); g_free (rm); g_free (D1); g_free (D2); g_free (zz);
  buffers_free (&b0);
  buffers_free (&bt);
  return failures;
}

/* ---- running a compiled circuit in a test ---- */

gboolean
hyd_test_keep_row (double t, const double *values, guint n, gpointer user)
{
  HydTestRows *r = user;
  r->n = n + 1;
  g_array_append_val (r->rows, t);
  g_array_append_vals (r->rows, values, n);
  return TRUE;
}

HydTestRows
hyd_test_run (HydSystem *sys, const char *const *names, guint n_names, double t_end, double dt, double rtol,
              int events, HydOdeStats *stats)
{
  HydSimOptions sim;
  g_autoptr (HydCircuit) empty = hyd_circuit_new ();
  g_assert_true (hyd_circuit_get_sim_options (empty, &sim, NULL));
  sim.t_end = t_end;
  sim.output_interval = dt;
  sim.rtol = rtol;
  if (events >= 0)
    sim.events = events != 0;
  for (guint k = 0; k < HYD_ATOL_N_KINDS; k++)
    sim.atol[k] *= rtol / 1e-4;
  g_autofree int *vars = g_new (int, n_names + 1);
  for (guint k = 0; k < n_names; k++)
    {
      vars[k] = hyd_system_find_variable (sys, names[k]);
      if (vars[k] < 0)
        g_error ("no variable %s", names[k]);
    }
  HydTestRows r = { g_array_new (FALSE, FALSE, sizeof (double)), 0 };
  HydRunSpec spec = { .sim = &sim, .vars = vars, .n_vars = n_names, .sample = hyd_test_keep_row, .user = &r };
  HydOdeResult res = { 0 };
  HydOdeStatus st = hyd_run_execute (sys, &spec, &res, NULL);
  if (st != HYD_ODE_SUCCESS)
    g_error ("run failed: %s", res.message);
  if (stats)
    *stats = res.stats;
  hyd_ode_result_clear (&res);
  hyd_sim_options_clear (&sim);
  return r;
}
