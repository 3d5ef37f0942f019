/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-uninstalled.c — whether this process runs from its build tree
 * (hyd-uninstalled.h). */
#include "hyd-uninstalled.h"

#include <stdlib.h>
#include <string.h>

gboolean
hyd_running_uninstalled (void)
{
  static gsize answer = 0; /* 0 unknown, 1 no, 2 yes */
  if (g_once_init_enter (&answer))
    {
      gboolean yes = FALSE;
      const char *env = g_getenv ("BRAMAH_UNINSTALLED");
      if (env && *env)
        yes = strcmp (env, "0") != 0;
#ifdef HYD_BUILD_ROOT
      else
        {
          g_autofree char *exe = realpath ("/proc/self/exe", NULL);
          g_autofree char *root = realpath (HYD_BUILD_ROOT, NULL);
          size_t n = root ? strlen (root) : 0;
          yes = exe && root && strncmp (exe, root, n) == 0 && exe[n] == G_DIR_SEPARATOR;
        }
#endif
      g_once_init_leave (&answer, yes ? 2 : 1);
    }
  return answer == 2;
}
