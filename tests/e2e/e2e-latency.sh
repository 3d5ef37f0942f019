#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Main-loop latency while a circuit with 2000 states runs (issue 5): a
# 200 m hose as 1000 distributed segments (1000 flows, 999 inner pressures,
# two end nodes) fed by a flow step, run as fast as possible with a plot of
# its far-end pressure. The application measures how late a 10 ms timer
# fires during the run (BRAMAH_DEBUG_LATENCY); the test fails only when the
# UI would visibly stall (p99 > 100 ms or any single delay > 500 ms).
. "$(dirname "$0")/e2e-lib.sh"
export BRAMAH_DEBUG_LATENCY=1

circuit="$E2E_TMP/long-line.bramah"
cat >"$circuit" <<'EOT'
{
  "format": "bramah-circuit",
  "version": 1,
  "title": "A 200 m hose as 1000 segments (2001 states)",
  "simulation": { "t_end": 2.0, "real_time_factor": 0 },
  "components": [
    { "id": "Q1", "type": "flow_source", "position": [0, 0],
      "params": { "flow": { "step": { "times": [0.1], "values": [0.0005, 0.001] } } } },
    { "id": "L1", "type": "line", "position": [120, 0],
      "params": { "length": 200, "diameter": 0.02, "model": "distributed", "segments": 1000 } },
    { "id": "OR1", "type": "orifice", "position": [240, 0], "params": { "diameter": 0.004 } },
    { "id": "T1", "type": "tank", "position": [360, 0], "params": {} }
  ],
  "connections": [
    { "from": "Q1.P", "to": "L1.A" },
    { "from": "L1.B", "to": "OR1.A" },
    { "from": "OR1.B", "to": "T1.T" }
  ],
  "plots": [ { "title": "Far end", "traces": ["L1.B.p", "Q1.P.p"] } ]
}
EOT
"$BRAMAH_CLI" describe "$circuit" | grep -q '^States (2001)' || fail "the circuit does not have 2001 states"

e2e_start "$circuit"
focus_canvas
key F5
wait_geom "^run running" 10 || true
e2e_shot app-e2e-latency-running
wait_geom "^run finished" 50 || fail "the run did not finish"
for _ in $(seq 50); do grep -q '^BRAMAH-LATENCY' "$E2E_TMP/app.out" && break; sleep 0.1; done
line=$(grep '^BRAMAH-LATENCY' "$E2E_TMP/app.out" | tail -n 1)
[ -n "$line" ] || fail "no latency report"
echo "$line"
set -- $line
ticks=$3 p99=$9 max=${11}
[ "$ticks" -ge 50 ] || fail "only $ticks timer ticks during the run"
awk -v p99="$p99" -v max="$max" 'BEGIN { exit !(p99 <= 100 && max <= 500) }' \
  || fail "the main loop stalled: p99 $p99 ms, max $max ms"
echo "PASS"
