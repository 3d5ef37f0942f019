#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# real-time-check.sh — does the application keep up in its real-time mode?
# Each example is opened in the application (its own X server, as the e2e
# tests do), its solver set to SOLVER, run in real time to its end with the
# live plots and the animated schematic, and the pace of the finished run
# (simulated time over wall time, pauses excluded, as the status line gives
# it) printed. A measurement, not a test: run it on an otherwise idle
# machine.
#   sh build-aux/real-time-check.sh BUILD_DIR [SOLVER [EXAMPLE.bramah ...]]
# Prints "example t_end wall pace" per example, then the lowest pace.
build=$(cd "${1:?usage: real-time-check.sh BUILD_DIR [SOLVER [EXAMPLE ...]]}" && pwd)
solver=${2:-tlm}
shift; [ $# -gt 0 ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then
  set -- "$root"/data/examples/*.bramah
fi
examples="$*"
set -- "$build/app/bramah" "$build/app/bramah-cli" "$root" "$build/data"
. "$root/tests/e2e/e2e-lib.sh"

lowest=
for example in $examples; do
  name=$(basename "$example" .bramah)
  copy="$E2E_TMP/$name.bramah"
  python3 - "$example" "$copy" "$solver" <<'PY' || fail "cannot set the solver of $example"
import json, sys
d = json.load(open(sys.argv[1]))
d.setdefault("simulation", {})["solver"] = sys.argv[3]
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
  : >"$E2E_TMP/app.out"
  e2e_start "$copy"
  wait_geom "^solver $solver\$" 5 || fail "$name: the solver is not $solver"
  t_end=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["simulation"]["t_end"])' "$copy")
  focus_canvas
  key F5
  limit=$(awk -v t="$t_end" 'BEGIN { print int (3 * t + 30) }')
  wait_geom "^run-pace " "$limit" || fail "$name: the run did not finish within $limit s"
  set -- $(geometry | awk '$1 == "run-pace" { print $2, $3, $4 }')
  echo "$name $1 $2 $3"
  lowest=$(awk -v a="$lowest" -v b="$3" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
  kill "$APP_PID" 2>/dev/null
  wait "$APP_PID" 2>/dev/null
  APP_PID=
done
echo "lowest pace: $lowest"
