/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-lazy-libs.c — LAPACKE and KLU for bramah-cli, loaded at their first
 * use.
 *
 * liblapacke is linked with BIND_NOW and brings liblapack, libblas,
 * libtmglib, libgfortran and libquadmath; KLU brings AMD, COLAMD, BTF and
 * SuiteSparse_config. Loading and relocating them took about a third of
 * bramah-cli's start (`--help`, `check`), though only a solve calls them:
 * a dense LU or KLU (ode/hyd-linsolver.c), the eigenvalues of `describe`
 * and of the `auto` solver, the implicit Runge–Kutta methods' set-up. This
 * file defines the functions of theirs that the engine and bramah-cli call,
 * each forwarding to the real one, which it looks up in its library
 * (dlopen, dlsym on that library's handle) on its first call; so bramah-cli
 * needs neither library at start, and everything else (the tests, the
 * application) links them as before. The prototypes are the libraries'
 * headers', so a change there fails to compile here. A function of theirs
 * not listed here is bound from its library at start again, which
 * tests/cli/engine-libraries.sh reports: add it below. bramah-cli-graphics
 * uses the LAPACKE part too (render needs no LAPACK). */
#include <glib.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <klu.h>
#include <lapacke.h>

#include "cli-commands.h"

typedef struct {
  const char *soname;
  const char *what;
  void *handle;
} LazyLib;

static LazyLib lapacke = { BRAMAH_LAPACKE_SONAME, "LAPACK", NULL };
#ifdef BRAMAH_KLU_SONAME
static LazyLib klu = { BRAMAH_KLU_SONAME, "KLU", NULL };
#endif

static void *
lazy_symbol (LazyLib *lib, const char *name)
{
  if (g_once_init_enter (&lib->handle))
    {
      void *handle = dlopen (lib->soname, RTLD_NOW | RTLD_LOCAL);
      if (handle == NULL)
        {
          fprintf (stderr, "bramah-cli: cannot load %s: %s\n", lib->what, dlerror ());
          exit (HYD_CLI_EXIT_FAILED);
        }
      g_once_init_leave (&lib->handle, handle);
    }
  /* the library's own definition, not this file's */
  void *f = dlsym (lib->handle, name);
  if (f == NULL)
    {
      fprintf (stderr, "bramah-cli: %s (%s) has no %s\n", lib->what, lib->soname, name);
      exit (HYD_CLI_EXIT_FAILED);
    }
  return f;
}

/* ret name params: calls the real name with args, looked up in lib once */
#define LAZY(lib, ret, name, params, args)                              \
  ret name params                                                       \
  {                                                                     \
    static gpointer fn = NULL;                                          \
    gpointer f = g_atomic_pointer_get (&fn);                            \
    if (f == NULL)                                                      \
      {                                                                 \
        f = lazy_symbol (&lib, #name);                                  \
        g_atomic_pointer_set (&fn, f);                                  \
      }                                                                 \
    return ((ret (*) params) f) args;                                   \
  }

LAZY (lapacke, lapack_int, LAPACKE_dgetrf,
      (int layout, lapack_int m, lapack_int n, double *a, lapack_int lda, lapack_int *ipiv),
      (layout, m, n, a, lda, ipiv))
LAZY (lapacke, lapack_int, LAPACKE_dgetrs,
      (int layout, char trans, lapack_int n, lapack_int nrhs, const double *a, lapack_int lda,
       const lapack_int *ipiv, double *b, lapack_int ldb),
      (layout, trans, n, nrhs, a, lda, ipiv, b, ldb))
LAZY (lapacke, lapack_int, LAPACKE_zgetrf,
      (int layout, lapack_int m, lapack_int n, lapack_complex_double *a, lapack_int lda,
       lapack_int *ipiv),
      (layout, m, n, a, lda, ipiv))
LAZY (lapacke, lapack_int, LAPACKE_zgetrs,
      (int layout, char trans, lapack_int n, lapack_int nrhs, const lapack_complex_double *a,
       lapack_int lda, const lapack_int *ipiv, lapack_complex_double *b, lapack_int ldb),
      (layout, trans, n, nrhs, a, lda, ipiv, b, ldb))
LAZY (lapacke, lapack_int, LAPACKE_dgeev,
      (int layout, char jobvl, char jobvr, lapack_int n, double *a, lapack_int lda, double *wr,
       double *wi, double *vl, lapack_int ldvl, double *vr, lapack_int ldvr),
      (layout, jobvl, jobvr, n, a, lda, wr, wi, vl, ldvl, vr, ldvr))
LAZY (lapacke, lapack_int, LAPACKE_dgeevx,
      (int layout, char balanc, char jobvl, char jobvr, char sense, lapack_int n, double *a,
       lapack_int lda, double *wr, double *wi, double *vl, lapack_int ldvl, double *vr,
       lapack_int ldvr, lapack_int *ilo, lapack_int *ihi, double *scale, double *abnrm,
       double *rconde, double *rcondv),
      (layout, balanc, jobvl, jobvr, sense, n, a, lda, wr, wi, vl, ldvl, vr, ldvr, ilo, ihi,
       scale, abnrm, rconde, rcondv))
LAZY (lapacke, lapack_int, LAPACKE_dggev,
      (int layout, char jobvl, char jobvr, lapack_int n, double *a, lapack_int lda, double *b,
       lapack_int ldb, double *alphar, double *alphai, double *beta, double *vl, lapack_int ldvl,
       double *vr, lapack_int ldvr),
      (layout, jobvl, jobvr, n, a, lda, b, ldb, alphar, alphai, beta, vl, ldvl, vr, ldvr))
LAZY (lapacke, lapack_complex_double, lapack_make_complex_double, (double re, double im), (re, im))

/* bramah-cli-graphics compiles this file without BRAMAH_KLU_SONAME: it
 * loads KLU at start anyway, for SUNDIALS's KLU solver. */
#ifdef BRAMAH_KLU_SONAME
#define KLU_FACTOR_PARAMS (int *Ap, int *Ai, double *Ax, klu_symbolic *S, klu_common *C)
#define KLU_REFACTOR_PARAMS \
  (int *Ap, int *Ai, double *Ax, klu_symbolic *S, klu_numeric *N, klu_common *C)
#define KLU_SOLVE_PARAMS \
  (klu_symbolic *S, klu_numeric *N, int ldim, int nrhs, double *B, klu_common *C)
LAZY (klu, int, klu_defaults, (klu_common *C), (C))
LAZY (klu, klu_symbolic *, klu_analyze, (int n, int *Ap, int *Ai, klu_common *C), (n, Ap, Ai, C))
LAZY (klu, klu_numeric *, klu_factor, KLU_FACTOR_PARAMS, (Ap, Ai, Ax, S, C))
LAZY (klu, klu_numeric *, klu_z_factor, KLU_FACTOR_PARAMS, (Ap, Ai, Ax, S, C))
LAZY (klu, int, klu_refactor, KLU_REFACTOR_PARAMS, (Ap, Ai, Ax, S, N, C))
LAZY (klu, int, klu_z_refactor, KLU_REFACTOR_PARAMS, (Ap, Ai, Ax, S, N, C))
LAZY (klu, int, klu_rgrowth, KLU_REFACTOR_PARAMS, (Ap, Ai, Ax, S, N, C))
LAZY (klu, int, klu_z_rgrowth, KLU_REFACTOR_PARAMS, (Ap, Ai, Ax, S, N, C))
LAZY (klu, int, klu_solve, KLU_SOLVE_PARAMS, (S, N, ldim, nrhs, B, C))
LAZY (klu, int, klu_z_solve, KLU_SOLVE_PARAMS, (S, N, ldim, nrhs, B, C))
LAZY (klu, int, klu_free_symbolic, (klu_symbolic **S, klu_common *C), (S, C))
LAZY (klu, int, klu_free_numeric, (klu_numeric **N, klu_common *C), (N, C))
LAZY (klu, int, klu_z_free_numeric, (klu_numeric **N, klu_common *C), (N, C))
#endif
