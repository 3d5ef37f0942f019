#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# no-own-checks.sh SOURCE_ROOT — the canvas asks the engine which ports are
# unconnected (hyd_circuit_unconnected_ports, issue 10, item 4) instead of
# repeating the rule: no file of canvas/ decides by itself whether a port
# must be wired (reads HydPortInfo.optional).
set -u
root="$1"
found=$(grep -n '[.>]optional\b' "$root"/canvas/*.c "$root"/canvas/*.h 2>/dev/null)
if [ -n "$found" ]; then
  echo "the canvas repeats the engine's unconnected-port check:" >&2
  echo "$found" >&2
  exit 1
fi
echo "the canvas has no unconnected-port rule of its own"
