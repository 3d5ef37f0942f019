/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-error.c — the engine's error domain (hyd-error.h), an extended GError
 * domain: an error may carry the diagnostic it was made from
 * (hyd-diagnostic.h), and copies of it carry the same one. */
#include "hyd-error.h"
#include "hyd-diagnostic.h"

typedef struct {
  HydDiagnostic *diagnostic;
} HydCircuitErrorPrivate;

static void
hyd_circuit_error_private_init (HydCircuitErrorPrivate *priv)
{
  priv->diagnostic = NULL;
}

static void
hyd_circuit_error_private_copy (const HydCircuitErrorPrivate *src, HydCircuitErrorPrivate *dest)
{
  dest->diagnostic = src->diagnostic ? hyd_diagnostic_ref (src->diagnostic) : NULL;
}

static void
hyd_circuit_error_private_clear (HydCircuitErrorPrivate *priv)
{
  g_clear_pointer (&priv->diagnostic, hyd_diagnostic_unref);
}

G_DEFINE_EXTENDED_ERROR (HydCircuitError, hyd_circuit_error)

gboolean
hyd_diagnostic_set_error (GError **error, HydDiagnostic *diagnostic)
{
  g_return_val_if_fail (diagnostic != NULL, FALSE);
  if (error == NULL)
    {
      hyd_diagnostic_unref (diagnostic);
      return FALSE;
    }
  GError *e = g_error_new_literal (HYD_CIRCUIT_ERROR, (int) diagnostic->code, diagnostic->message);
  hyd_circuit_error_get_private (e)->diagnostic = diagnostic;
  g_propagate_error (error, e);
  return FALSE;
}

const HydDiagnostic *
hyd_diagnostic_peek_error (const GError *error)
{
  if (error == NULL || error->domain != HYD_CIRCUIT_ERROR)
    return NULL;
  return hyd_circuit_error_get_private (error)->diagnostic;
}
