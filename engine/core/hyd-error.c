/* hyd-error.c — the engine's error domain (hyd-error.h). */
#include "hyd-error.h"

G_DEFINE_QUARK (hyd-circuit-error-quark, hyd_circuit_error)
