#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Live electrical control (issue 12): run a start-button circuit in real
# time (tests/e2e/data/electro-start-button.bramah: S1 → self-holding relay
# K1 → solenoid Y1 on the 4/2 valve V1; limit switch S2 at the end of the
# stroke drops K1 out), press S1 with the mouse while it runs, export the
# run as CSV and check: the cylinder stays home until the press, extends
# after it, and comes back after touching the limit switch. Skips (77)
# while the catalogue lacks the electrical types.
. "$(dirname "$0")/e2e-lib.sh"

circuit="$SOURCE_ROOT/tests/e2e/data/electro-start-button.bramah"
for t in supply_24v ground_0v pushbutton_switch limit_switch relay relay_contact solenoid; do
  "$BRAMAH_CLI" components "$t" >/dev/null 2>&1 || { echo "SKIP: no $t in this build's catalogue"; exit 77; }
done
"$BRAMAH_CLI" components dcv_4_2 2>/dev/null | grep -q solenoid_a \
  || { echo "SKIP: dcv_4_2 has no solenoid_a in this build"; exit 77; }
"$BRAMAH_CLI" check "$circuit" >"$E2E_TMP/check.out" 2>&1 || fail "the test circuit does not load: $(cat "$E2E_TMP/check.out")"

e2e_start "$circuit"
wait_geom "^component S1 " || fail "S1 is not on the schematic"
key F5
wait_geom "^run running" 10 || fail "the run did not start"
sleep 0.8
# the press: held for 0.5 s (a momentary button is closed while held)
set -- $(geom_xy "^component S1 ")
xdotool mousemove --window "$WIN" "$1" "$2" sleep 0.15 mousedown 1 sleep 0.5 mouseup 1
sleep 0.6
e2e_shot app-e2e-electro-extending
wait_geom "^run finished" 30 || fail "the run did not finish"
e2e_shot app-e2e-electro-finished

csv="$E2E_TMP/run.csv"
key ctrl+shift+e
file_chooser_enter "Export Run as CSV" "$csv"
for _ in $(seq 50); do [ -s "$csv" ] && break; sleep 0.1; done
[ -s "$csv" ] || fail "no CSV was written"

# S1 pressed (its discrete state), C1's position (mm in the export): the
# press comes mid-run; before it C1 stays home; after it, C1 reaches the
# limit switch (≥ 190 mm) and then returns home (≤ 5 mm at the end).
result=$(awk -F, '
  NR == 1 { for (i = 1; i <= NF; i++) { if ($i ~ /^S1[.:] *[Aa]ctuated/ || $i == "S1.actuated") cs = i;
                                          if ($i == "C1: Position [mm]") cx = i }; next }
  cs == 0 || cx == 0 { exit }
  { t = $1 + 0; s = $cs + 0; x = $cx + 0; last = x }
  !pressed && s > 0.5 { pressed = 1; tp = t }
  !pressed && x > 2 { bad = "C1 at " x " mm at t = " t " before the press"; exit }
  pressed && x > xmax { xmax = x; tmax = t }
  END { if (cs == 0 || cx == 0) print "nocolumn"; else if (bad != "") print bad;
        else if (!pressed) print "never";
        else print tp, xmax, tmax, last }' "$csv")
case "$result" in
  nocolumn) fail "the CSV lacks S1 actuated or C1: Position [mm]: $(head -n 1 "$csv")" ;;
  never) fail "S1 was never pressed: the click did not reach the run" ;;
  C1*) fail "$result" ;;
esac
set -- $result
echo "pressed at t = $1 s; C1 reached $2 mm at t = $3 s; $4 mm at the end"
awk -v tp="$1" 'BEGIN { exit !(tp > 0.3 && tp < 4.0) }' || fail "the press came at t = $1 s, not mid-run"
awk -v x="$2" 'BEGIN { exit !(x >= 190) }' || fail "C1 did not extend to the limit switch (max $2 mm)"
awk -v x="$4" 'BEGIN { exit !(x <= 5) }' || fail "C1 did not return after the limit switch ($4 mm at the end)"
echo "PASS"
