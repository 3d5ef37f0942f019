#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# jacobian-electrical: `bramah-cli jacobian-check` on a circuit with the
# electrical control's coils, lamps and contacts (docs/electrical.md): an
# on-delay timer between +24 V and 0 V closes its contact after 0.5 s,
# which energises the solenoid Y1 of a 4/2 valve driving a cylinder, a
# relay K1 (its changeover contact moves a lamp from H2 to H1) and a
# counter KZ1 (its normally closed contact opens). The points along the
# trajectory are checked with the discrete states in force there, before
# and after the switch; the coils add no rows, the valve's spool does.
# Usage: jacobian-electrical.sh BRAMAH_CLI
set -eu
cli=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/timer-valve.bramah" <<'JSON'
{ "format": "bramah-circuit", "version": 3, "simulation": { "t_end": 2.5 },
  "components": [
    { "id": "T1", "type": "tank" }, { "id": "T2", "type": "tank" }, { "id": "T3", "type": "tank" },
    { "id": "P1", "type": "fixed_pump", "params": { "displacement": 1.5915494309189535e-06, "speed": 157.07963267948966 } },
    { "id": "R1", "type": "relief_valve", "params": { "cracking_pressure": 1e7 } },
    { "id": "V1", "type": "dcv_4_2", "params": { "actuation": "solenoid", "solenoid_a": "Y1", "switching_time": 0.05 } },
    { "id": "C1", "type": "cylinder_double", "params": { "piston_diameter": 0.05, "stroke": 0.3 } },
    { "id": "U1", "type": "supply_24v" }, { "id": "G1", "type": "ground_0v" },
    { "id": "KT1", "type": "timer_relay", "params": { "mode": "on_delay", "delay": 0.5 } },
    { "id": "KT1_1", "type": "relay_contact", "params": { "relay": "KT1", "contact": "no" } },
    { "id": "K1", "type": "relay" },
    { "id": "K1_1", "type": "relay_contact", "params": { "relay": "K1", "contact": "changeover" } },
    { "id": "KZ1", "type": "counter", "params": { "preset": 1 } },
    { "id": "KZ1_1", "type": "relay_contact", "params": { "relay": "KZ1", "contact": "nc" } },
    { "id": "Y1", "type": "solenoid" }, { "id": "H1", "type": "lamp" }, { "id": "H2", "type": "lamp" } ],
  "junctions": [ { "id": "J1" }, { "id": "JP" }, { "id": "JN" }, { "id": "JK" } ],
  "connections": [
    { "from": "T1.T", "to": "P1.S" }, { "from": "P1.P", "to": "J1" }, { "from": "J1", "to": "V1.P" },
    { "from": "J1", "to": "R1.P" }, { "from": "R1.T", "to": "T2.T" }, { "from": "V1.T", "to": "T3.T" },
    { "from": "V1.A", "to": "C1.A" }, { "from": "V1.B", "to": "C1.B" },
    { "from": "U1.P", "to": "JP" }, { "from": "G1.N", "to": "JN" },
    { "from": "JP", "to": "KT1.A1" }, { "from": "KT1.A2", "to": "JN" },
    { "from": "JP", "to": "KT1_1.1" }, { "from": "KT1_1.4", "to": "JK" },
    { "from": "JK", "to": "Y1.A1" }, { "from": "Y1.A2", "to": "JN" },
    { "from": "JK", "to": "K1.A1" }, { "from": "K1.A2", "to": "JN" },
    { "from": "JK", "to": "KZ1.A1" }, { "from": "KZ1.A2", "to": "JN" },
    { "from": "JP", "to": "K1_1.1" }, { "from": "K1_1.4", "to": "H1.X1" }, { "from": "H1.X2", "to": "JN" },
    { "from": "K1_1.2", "to": "KZ1_1.1" }, { "from": "KZ1_1.2", "to": "H2.X1" }, { "from": "H2.X2", "to": "JN" } ] }
JSON
"$cli" jacobian-check "$dir/timer-valve.bramah" --points 20 >"$dir/out" 2>&1 \
  || { echo "jacobian-check failed:"; cat "$dir/out"; exit 1; }
grep -q "Result: 0 failing" "$dir/out" || { cat "$dir/out"; exit 1; }
# the timer did switch within the run: the solenoid and the lamps followed
"$cli" simulate "$dir/timer-valve.bramah" --vars KT1.contacts,Y1.energised,H1.lit,H2.lit,KZ1.count \
  >"$dir/csv" 2>"$dir/err" || { cat "$dir/err"; exit 1; }
tail -n 1 "$dir/csv" | grep -qx "2.5,1,1,1,0,1" || { echo "unexpected end state:"; tail -n 1 "$dir/csv"; exit 1; }
echo "ok: $(tail -n 1 "$dir/out")"
