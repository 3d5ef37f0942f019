#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# jacobian-discrete: `bramah-cli jacobian-check` checks each point of the
# trajectory with the discrete states in force there (docs/domains.md), not
# with those the run ended with. The circuit: a set-point step 0 → 1 at 1 s
# (a discrete state) into a PI controller (K_p = 2, output limits ±2)
# around a lag. Checked with the step's final state at t < 1 s, the PI's
# output K_p·(1 − 0) = 2 would sit exactly on its upper limit, where the
# central differences average the two one-sided slopes: 12 entries failed.
# Usage: jacobian-discrete.sh BRAMAH_CLI
set -eu
cli=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/pi-step.bramah" <<'JSON'
{ "format": "bramah-circuit", "version": 2, "simulation": { "t_end": 6 },
  "components": [
    { "id": "W1", "type": "step", "params": { "initial": 0, "final": 1, "time": 1 } },
    { "id": "S1", "type": "sum", "params": { "signs": "+-" } },
    { "id": "R1", "type": "pid", "params": { "kp": 2, "ki": 1, "lower": -2, "upper": 2 } },
    { "id": "G1", "type": "first_order_lag", "params": { "time_constant": 2 } } ],
  "connections": [ { "from": "W1.Y", "to": "S1.U1" }, { "from": "S1.Y", "to": "R1.E" },
    { "from": "R1.Y", "to": "G1.U" }, { "from": "G1.Y", "to": "S1.U2" } ] }
JSON
"$cli" jacobian-check "$dir/pi-step.bramah" --points 20 >"$dir/out" 2>&1 \
  || { echo "jacobian-check failed:"; cat "$dir/out"; exit 1; }
grep -q "Result: 0 failing" "$dir/out" || { cat "$dir/out"; exit 1; }
echo "ok: $(tail -n 1 "$dir/out")"
