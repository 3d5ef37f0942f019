/* hyd-rosenbrock.c — Rosenbrock methods in the Hairer–Wanner transformed
 * form (research/seed-000 §3.1; HW, Solving ODEs II, §IV.7):
 *
 *   (1/(hγ)·I − J)·u_i = f(t + α_i·h, y + Σ_{j<i} a_ij·u_j)
 *                        + Σ_{j<i} (c_ij/h)·u_j + γ_i·h·∂f/∂t
 *   y1 = y + Σ m_i·u_i ,   err = Σ e_i·u_i
 *
 * One Jacobian per accepted point, one LU per attempt, s back-substitutions.
 * A method is a HydRosenbrockTable; the code below is shared by all. */
#include "hyd-ode-private.h"

#include <math.h>
#include <string.h>

#define HYD_ROS_MAX_STAGES 8

typedef struct {
  guint s;
  double gamma;
  double a[HYD_ROS_MAX_STAGES][HYD_ROS_MAX_STAGES];  /* a[i][j], j < i */
  double c[HYD_ROS_MAX_STAGES][HYD_ROS_MAX_STAGES];  /* c[i][j], j < i */
  double m[HYD_ROS_MAX_STAGES];        /* solution weights */
  double e[HYD_ROS_MAX_STAGES];        /* error weights, m − m̂ */
  double alpha[HYD_ROS_MAX_STAGES];    /* stage times t + α_i·h */
  double gamma_i[HYD_ROS_MAX_STAGES];  /* ∂f/∂t weights, Σ_j γ_ij */
  /* TRUE: stage i has the arguments of stage i − 1 and reuses its f. */
  gboolean reuse_f[HYD_ROS_MAX_STAGES];
  /* Continuous extension of the RODAS type (HW rodas.f CONTRO):
   * y(t + θh) = (1 − θ)·y0 + θ·(y1 + (1 − θ)·(k1 + θ·k2)),
   * k1 = Σ d[0][j]·u_j, k2 = Σ d[1][j]·u_j. Without it (has_dense FALSE)
   * the cubic Hermite interpolant on (y0, f0, y1, f1) is used. */
  gboolean has_dense;
  double d[2][HYD_ROS_MAX_STAGES];
} HydRosenbrockTable;

/* RODAS4: HW rodas.f METH = 1 (Hairer & Wanner 1996), full precision
 * (research/seed-000 §3.5). Stiffly accurate, L-stable, 4(3). */
static const HydRosenbrockTable rodas4_table = {
  .s = 6,
  .gamma = 0.25,
  .a = {
    { 0 },
    { 1.544 },
    { 0.9466785280815826, 0.2557011698983284 },
    { 3.314825187068521, 2.896124015972201, 0.9986419139977817 },
    { 1.221224509226641, 6.019134481288629, 12.53708332932087,
      -0.6878860361058950 },
    { 1.221224509226641, 6.019134481288629, 12.53708332932087,
      -0.6878860361058950, 1.0 },
  },
  .c = {
    { 0 },
    { -5.6688 },
    { -2.430093356833875, -0.2063599157091915 },
    { -0.1073529058151375, -9.594562251023355, -20.47028614809616 },
    { 7.496443313967647, -10.24680431464352, -33.99990352819905,
      11.70890893206160 },
    { 8.083246795921522, -7.981132988064893, -31.52159432874371,
      16.31930543123136, -6.058818238834054 },
  },
  .m = { 1.221224509226641, 6.019134481288629, 12.53708332932087,
         -0.6878860361058950, 1.0, 1.0 },
  .e = { 0.0, 0.0, 0.0, 0.0, 0.0, 1.0 },
  .alpha = { 0.0, 0.386, 0.21, 0.63, 1.0, 1.0 },
  .gamma_i = { 0.25, -0.1043, 0.1035, -0.3620000000000023e-1, 0.0, 0.0 },
  .has_dense = TRUE,
  .d = {
    { 10.12623508344586, -7.487995877610167, -34.80091861555747,
      -7.992771707568823, 1.025137723295662, 0.0 },
    { -0.6762803392801253, 6.087714651680015, 16.43084320892478,
      24.76722511418386, -6.594389125716872, 0.0 },
  },
};

typedef struct {
  const HydRosenbrockTable *tab;
  guint n;
  HydJac *J;         /* at the prepared point */
  double *fx;        /* ∂f/∂t there */
  HydLinSolver *lu;
  double *u;         /* s stage vectors, n each */
  double *ystage;
  double *fstage;
  double *errv;
  /* The last attempt, for the continuous extension. */
  double t, h;
  double *y0, *y1, *f0, *f1;
  double *k1, *k2;
  gboolean dense_ready;
  gboolean f1_valid;
} RosenbrockWork;

static gpointer
rosenbrock_workspace_new (const HydOdeMethod *method, guint n)
{
  const HydRosenbrockTable *tab = method->data;
  RosenbrockWork *w = g_new0 (RosenbrockWork, 1);

  g_assert (tab->s <= HYD_ROS_MAX_STAGES);
  w->tab = tab;
  w->n = n;
  w->fx = g_new0 (double, n);
  w->u = g_new0 (double, (gsize) n * tab->s);
  w->ystage = g_new0 (double, n);
  w->fstage = g_new0 (double, n);
  w->errv = g_new0 (double, n);
  w->y0 = g_new0 (double, n);
  w->y1 = g_new0 (double, n);
  w->f0 = g_new0 (double, n);
  w->f1 = g_new0 (double, n);
  w->k1 = g_new0 (double, n);
  w->k2 = g_new0 (double, n);
  return w;
}

static void
rosenbrock_workspace_free (gpointer ws)
{
  RosenbrockWork *w = ws;

  if (w == NULL)
    return;
  hyd_jac_free (w->J);
  g_free (w->fx);
  hyd_linsolver_free (w->lu);
  g_free (w->u);
  g_free (w->ystage);
  g_free (w->fstage);
  g_free (w->errv);
  g_free (w->y0);
  g_free (w->y1);
  g_free (w->f0);
  g_free (w->f1);
  g_free (w->k1);
  g_free (w->k2);
  g_free (w);
}

static int
rosenbrock_prepare (gpointer ws, HydOdeDriver *d, double t, const double *y,
                    const double *f0)
{
  RosenbrockWork *w = ws;

  if (w->J == NULL)
    {
      w->J = hyd_ode_driver_jac_new (d);
      w->lu = hyd_linsolver_new (w->J);
    }
  /* Kept over rejected attempts; only E is rebuilt (HW rodas.f). */
  return hyd_ode_driver_jacobian (d, t, y, f0, w->J, w->fx);
}

static HydAttempt
rosenbrock_attempt (gpointer ws, HydOdeDriver *d, double t, const double *y,
                    const double *f0, double h, double *y_new, double *err)
{
  RosenbrockWork *w = ws;
  const HydRosenbrockTable *tab = w->tab;
  guint n = w->n;
  const double *fi = f0;

  w->dense_ready = FALSE;
  w->f1_valid = FALSE;

  int info = hyd_linsolver_factor (w->lu, 1.0 / (h * tab->gamma), w->J);
  hyd_ode_driver_stats (d)->lu++;
  if (info != 0)
    {
      hyd_ode_driver_note_singular (d, info > 0 ? info - 1 : -1);
      return HYD_ATTEMPT_SINGULAR;
    }

  for (guint i = 0; i < tab->s; i++)
    {
      double *ui = w->u + (gsize) i * n;

      if (i > 0 && !tab->reuse_f[i])
        {
          for (guint k = 0; k < n; k++)
            {
              double v = y[k];
              for (guint j = 0; j < i; j++)
                v += tab->a[i][j] * w->u[(gsize) j * n + k];
              w->ystage[k] = v;
            }
          int rc = hyd_ode_driver_rhs (d, t + tab->alpha[i] * h, w->ystage,
                                       w->fstage);
          if (rc < 0)
            return HYD_ATTEMPT_FATAL;
          if (rc > 0)
            return HYD_ATTEMPT_RECOVERABLE;
          fi = w->fstage;
        }

      /* Right-hand side of stage i, including the γ_i·h·∂f/∂t term that a
       * non-autonomous problem needs for the full order (seed-000 §3.1). */
      double hg = tab->gamma_i[i] * h;
      for (guint k = 0; k < n; k++)
        {
          double v = fi[k] + hg * w->fx[k];
          for (guint j = 0; j < i; j++)
            v += (tab->c[i][j] / h) * w->u[(gsize) j * n + k];
          ui[k] = v;
        }
      hyd_linsolver_solve (w->lu, ui);
    }

  for (guint k = 0; k < n; k++)
    {
      double v = y[k], e = 0.0;
      for (guint j = 0; j < tab->s; j++)
        {
          double uj = w->u[(gsize) j * n + k];
          v += tab->m[j] * uj;
          e += tab->e[j] * uj;
        }
      y_new[k] = v;
      w->errv[k] = e;
    }
  *err = hyd_ode_driver_error_norm (d, y, y_new, w->errv);

  w->t = t;
  w->h = h;
  memcpy (w->y0, y, n * sizeof (double));
  memcpy (w->y1, y_new, n * sizeof (double));
  if (!tab->has_dense)
    memcpy (w->f0, f0, n * sizeof (double));
  return HYD_ATTEMPT_OK;
}

static int
rosenbrock_dense (gpointer ws, HydOdeDriver *d, double theta, double *y_out)
{
  RosenbrockWork *w = ws;
  const HydRosenbrockTable *tab = w->tab;
  guint n = w->n;
  double s1 = 1.0 - theta;

  if (tab->has_dense)
    {
      if (!w->dense_ready)
        {
          for (guint k = 0; k < n; k++)
            {
              double a = 0.0, b = 0.0;
              for (guint j = 0; j < tab->s; j++)
                {
                  double uj = w->u[(gsize) j * n + k];
                  a += tab->d[0][j] * uj;
                  b += tab->d[1][j] * uj;
                }
              w->k1[k] = a;
              w->k2[k] = b;
            }
          w->dense_ready = TRUE;
        }
      /* HW rodas.f CONTRO */
      for (guint k = 0; k < n; k++)
        y_out[k] = s1 * w->y0[k]
                   + theta * (w->y1[k] + s1 * (w->k1[k] + theta * w->k2[k]));
      return 0;
    }

  /* Cubic Hermite on (y0, f0, y1, f1); f1 costs one evaluation per step. */
  if (!w->f1_valid)
    {
      int rc = hyd_ode_driver_rhs (d, w->t + w->h, w->y1, w->f1);
      if (rc != 0)
        return rc;
      w->f1_valid = TRUE;
    }
  double h00 = (1.0 + 2.0 * theta) * s1 * s1;
  double h10 = theta * s1 * s1;
  double h01 = theta * theta * (3.0 - 2.0 * theta);
  double h11 = -theta * theta * s1;
  for (guint k = 0; k < n; k++)
    y_out[k] = h00 * w->y0[k] + h10 * w->h * w->f0[k]
               + h01 * w->y1[k] + h11 * w->h * w->f1[k];
  return 0;
}

#define ROSENBROCK_VTABLE                          \
  .workspace_new = rosenbrock_workspace_new,       \
  .workspace_free = rosenbrock_workspace_free,     \
  .prepare = rosenbrock_prepare,                   \
  .attempt = rosenbrock_attempt,                   \
  .dense = rosenbrock_dense

static const HydOdeMethod rodas4_method = {
  .info = {
    .id = "rodas4",
    .family = "Rosenbrock, stiffly accurate",
    .order = "4(3)",
    .implicit = TRUE,
    .adaptive = TRUE,
    .multistep = FALSE,
    .notes = "Hairer–Wanner RODAS (rodas.f METH = 1), L-stable, "
             "dense output of order 3; the default",
  },
  .data = &rodas4_table,
  .order = 4,
  .error_order = 4.0,
  ROSENBROCK_VTABLE,
};

static const HydOdeMethod *const rosenbrock_members[] = {
  &rodas4_method,
};

const HydOdeMethod *const *
hyd_ode_family_rosenbrock (guint *n)
{
  *n = G_N_ELEMENTS (rosenbrock_members);
  return rosenbrock_members;
}
