#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-discrete: `bramah-cli bench` with a circuit whose model switches
# discrete states at events (docs/domains.md): a `step` block (0 → 2 at
# 0.5 s) into a first-order lag. CVODE's rows must switch them as the
# engine's solvers do — start from the compiled states, step at the root —
# so their error stays within a factor 100 of rodas4's at rtol 1e-6 (before
# they did not, and CVODE's lag never saw the step: error 2e6).
# Not timed. Usage: bench-discrete.sh BRAMAH_CLI
set -eu
cli=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/step-lag.bramah" <<'JSON'
{ "format": "bramah-circuit", "version": 2, "simulation": { "t_end": 3, "output_interval": 0.01 },
  "components": [
    { "id": "W1", "type": "step", "params": { "initial": 0, "final": 2, "time": 0.5 } },
    { "id": "G1", "type": "first_order_lag", "params": { "gain": 1.5, "time_constant": 0.4 } } ],
  "connections": [ { "from": "W1.Y", "to": "G1.U" } ] }
JSON
"$cli" bench --circuit "$dir/step-lag.bramah" --rtol 1e-6 --repeat 1 --against cvode --csv "$dir/bench.csv" \
  >"$dir/stdout" || { echo "bench exited $?"; cat "$dir/stdout"; exit 1; }
ref=$(grep '^step-lag,rodas4,1e-06,' "$dir/bench.csv" | cut -d, -f4)
[ -n "$ref" ] || { echo "no rodas4 row"; cat "$dir/bench.csv"; exit 1; }
for solver in cvode cvode-klu; do
  row=$(grep "^step-lag,$solver,1e-06," "$dir/bench.csv") || { echo "no $solver row"; cat "$dir/bench.csv"; exit 1; }
  echo "$row" | awk -F, -v ref="$ref" '
    $11 != "success" || !($4 < 100 * ref) { print "CVODE does not follow the step: " $0 " (rodas4 error " ref ")"; exit 1 }'
done
echo "ok: CVODE's error within 100 × rodas4's ($ref)"
