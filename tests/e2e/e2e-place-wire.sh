#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 4's end-to-end test, driving the real window: place a pump, a relief
# valve, a 4/3 valve, a cylinder and a tank (palette click + canvas click),
# wire them by dragging from port to port, save with Ctrl+S through the Save
# dialog, reload the file, and compare it with the expected circuit.
. "$(dirname "$0")/e2e-lib.sh"

e2e_start
read cx0 cy0 cx1 cy1 <<EOT
$(geometry | awk '$1 == "canvas" { print $2, $3, $4, $5 }')
EOT
mx=$(( (cx0 + cx1) / 2 ))

place cylinder_double "double-acting" "$mx" $(( cy0 + 60 ))
place dcv_4_3 "4/3" "$mx" $(( cy0 + 170 ))
place fixed_pump "fixed-disp" $(( mx - 120 )) $(( cy0 + 300 ))
place relief_valve "relief" $(( mx + 130 )) $(( cy0 + 290 ))
place tank "tank" $(( mx - 120 )) $(( cy1 - 30 ))
key Escape

for c in C1 V1 P1 RV1 T1; do
  wait_geom "^component $c " || fail "component $c was not placed"
done
e2e_shot app-e2e-placed

wire () { # from to
  wait_geom "^port $1 " || fail "no port $1"
  wait_geom "^port $2 " || fail "no port $2"
  set -- $(geom_xy "^port $1 ") $(geom_xy "^port $2 ")
  drag "$1" "$2" "$3" "$4"
}
wire P1.S T1.T
wire P1.P V1.P
wire RV1.P V1.P
wire RV1.T T1.T
wire V1.T T1.T
wire V1.A C1.A
wire V1.B C1.B
e2e_shot app-e2e-wired

out="$E2E_TMP/placed.bramah"
key ctrl+s
file_chooser_enter "Save Circuit" "$out"
for _ in $(seq 50); do [ -s "$out" ] && break; sleep 0.1; done
[ -s "$out" ] || fail "Ctrl+S did not write $out"
wait_geom "^path $out\$" || fail "the window does not show the saved path"
wait_geom "^modified 0" || fail "the window still says modified after saving"

# the saved circuit: five components of the right types ...
for t in fixed_pump relief_valve dcv_4_3 cylinder_double tank; do
  grep -q "\"type\": \"$t\"" "$out" || fail "no $t in the saved circuit"
done
[ "$(grep -c '"type":' "$out")" -eq 5 ] || fail "not exactly five components"
# ... and its connections (either direction)
connected () {
  grep -Eq "\"from\": \"$1\", \"to\": \"$2\"|\"from\": \"$2\", \"to\": \"$1\"" "$out" && return 0
  tr -d '\n ' <"$out" | grep -Eq "\"from\":\"$1\",\"to\":\"$2\"|\"from\":\"$2\",\"to\":\"$1\""
}
for pair in "P1.S T1.T" "P1.P V1.P" "RV1.P V1.P" "RV1.T T1.T" "V1.T T1.T" "V1.A C1.A" "V1.B C1.B"; do
  set -- $pair
  connected "$1" "$2" || fail "no wire $1 – $2 in the saved circuit"
done
[ "$(tr -d '\n ' <"$out" | grep -o '"from":' | wc -l)" -eq 7 ] || fail "not exactly seven wires"

# it loads, every port is connected and every node has a volume
"$BRAMAH_CLI" check "$out" >"$E2E_TMP/check.txt" 2>&1 || { cat "$E2E_TMP/check.txt"; fail "bramah-cli check rejects it"; }
"$BRAMAH_CLI" describe "$out" >"$E2E_TMP/describe.txt" 2>&1 || fail "bramah-cli describe fails"
grep -q "C1.x" "$E2E_TMP/describe.txt" || fail "the cylinder has no state in the compiled system"

# reload it in a fresh window and check the window shows the same circuit
kill "$APP_PID"; wait "$APP_PID" 2>/dev/null; APP_PID=
: >"$E2E_TMP/app.out"
e2e_start "$out"
for c in C1 V1 P1 RV1 T1; do
  wait_geom "^component $c " || fail "component $c missing after reloading"
done
wait_geom "^path $out\$" || fail "the reloaded window does not show its path"
e2e_shot app-e2e-reloaded
echo "PASS"
