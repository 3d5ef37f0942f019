/* SPDX-License-Identifier: GPL-3.0-or-later */
/* crash-inject.c — a test-only fault injector for the crash isolation of
 * `bramah-cli sweep --isolate` and `optimize --isolate` (issue 16),
 * loaded with LD_PRELOAD; bramah-cli itself has no crash path.
 *
 * It wraps GLib's g_ascii_strtod, which a study's run calls with the
 * varied value as text when it sets it on its circuit (as --set does, the
 * value in its shortest form: 0.6). BRAMAH_TEST_CRASH="VALUE:HOW[,...]"
 * makes the call whose text is VALUE fail as HOW says:
 *   SEGV  a write through a null pointer (SIGSEGV)
 *   ABRT  abort () (SIGABRT, what a failed g_assert or g_error does)
 *   FPE   an integer division by zero (SIGFPE on x86 and most others)
 *   KILL  raise (SIGKILL) (what the out-of-memory killer sends)
 *   EXIT  _exit (3)
 *   HANG  sleeps for an hour, deaf to the run's cancel flag (a run stuck
 *         outside the solver's loop)
 * Any other text goes to GLib's own function. */
#include <glib.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int zero = 0, one = 1;

static void
fail_as (const char *how)
{
  if (strcmp (how, "SEGV") == 0)
    *(volatile int *) (gsize) zero = 1;
  else if (strcmp (how, "ABRT") == 0)
    abort ();
  else if (strcmp (how, "FPE") == 0)
    zero = one / zero;
  else if (strcmp (how, "KILL") == 0)
    raise (SIGKILL);
  else if (strcmp (how, "EXIT") == 0)
    _exit (3);
  else if (strcmp (how, "HANG") == 0)
    sleep (3600);
}

gdouble
g_ascii_strtod (const gchar *nptr, gchar **endptr)
{
  static gdouble (*real) (const gchar *, gchar **);
  if (real == NULL)
    real = (gdouble (*) (const gchar *, gchar **)) dlsym (RTLD_NEXT, "g_ascii_strtod");
  const char *spec = getenv ("BRAMAH_TEST_CRASH");
  if (spec != NULL && nptr != NULL)
    {
      gchar **items = g_strsplit (spec, ",", -1);
      for (guint k = 0; items[k]; k++)
        {
          char *colon = strrchr (items[k], ':');
          if (colon == NULL)
            continue;
          *colon = '\0';
          if (strcmp (items[k], nptr) == 0)
            fail_as (colon + 1);
        }
      g_strfreev (items);
    }
  return real (nptr, endptr);
}
