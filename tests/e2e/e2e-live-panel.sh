#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The Live page (issue 11): run the cylinder example in real time with
# nothing selected; the side panel turns to "Live", which has a slider for
# every live parameter of the circuit. Pull the pump's speed slider there to
# zero mid-run, export the run as CSV and check that the pump's flow is the
# full 15 L/min up to one moment within the run and zero from then on. When
# the run ends the panel turns back to the properties.
. "$(dirname "$0")/e2e-lib.sh"

example="$E2E_TMP/cylinder-live.bramah"
sed 's/"simulation": { "t_end": 7.5, "output_interval": 0.005 }/"simulation": { "t_end": 6.0, "output_interval": 0.005, "real_time_factor": 1 }/' \
  "$SOURCE_ROOT/data/examples/cylinder-extend-retract.bramah" >"$example"
grep -q '"real_time_factor": 1' "$example" || fail "could not make the real-time copy of the example"

e2e_start "$example"
wait_geom "^side-page properties" || fail "the side panel does not start on the properties"
wait_geom "^side-tab live " || fail "no Live tab"
focus_canvas
key F5
wait_geom "^run running" 10 || fail "the run did not start"
wait_geom "^side-page live" 5 || fail "the run did not turn the side panel to Live"
for s in PU1.speed DCV1.command C1.load_force; do
  wait_geom "^live-slider $s " 5 || fail "no live slider for $s"
done
geometry | grep -q "^live-slider RV1.cracking_pressure " && fail "a slider for a parameter that cannot change in time"
sleep 0.5
# a click at the left end of the speed slider's trough (a low speed), then
# Home for zero: the flow is down at once and zero within a second
set -- $(geometry | awk '$1 == "live-slider" && $2 == "PU1.speed" { print $3 + 3, int (($4 + $6) / 2) }')
click "$1" "$2"
key Home
e2e_shot app-e2e-live-panel
wait_geom "^run finished" 30 || fail "the run did not finish"
wait_geom "^side-page properties" 5 || fail "the end of the run did not turn back to the properties"

csv="$E2E_TMP/run.csv"
key ctrl+shift+e
file_chooser_enter "Export Run as CSV" "$csv"
for _ in $(seq 50); do [ -s "$csv" ] && break; sleep 0.1; done
[ -s "$csv" ] || fail "no CSV was written"

result=$(awk -F, '
  NR == 1 { for (i = 1; i <= NF; i++) if ($i == "PU1: Flow [L/min]") col = i; next }
  col == 0 { exit 2 }
  { q = $col + 0; t = $1 + 0; last = q }
  !changed && q < 13.2 { changed = 1; tc = t }
  !changed && q > 15.06 { bad = "flow " q " L/min at t = " t " before the change"; exit 1 }
  changed && t > tc + 1.0 && q > 0.75 { bad = "flow " q " L/min at t = " t " after the change"; exit 1 }
  END { if (col == 0) print "nocolumn"; else if (bad != "") print bad; else if (!changed) print "never";
        else if (last > 6e-5) print "flow " last " L/min at the end"; else print tc }' "$csv")
case "$result" in
  nocolumn) fail "the CSV has no column PU1: Flow [L/min]: $(head -n 1 "$csv")" ;;
  never) fail "the pump never stopped: the Live slider did not reach the run" ;;
  flow*) fail "$result" ;;
esac
echo "the pump stopped at t = $result s"
awk -v t="$result" 'BEGIN { exit !(t > 0.6 && t < 5.9) }' || fail "the change came at t = $result s, not mid-run"
echo "PASS"
