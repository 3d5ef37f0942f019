/* hyd-theta.c — TEMPORARY: the family is being written (issue 3). */
#include "hyd-ode-private.h"

const HydOdeMethod *const *
hyd_ode_family_theta (guint *n)
{
  *n = 0;
  return NULL;
}
