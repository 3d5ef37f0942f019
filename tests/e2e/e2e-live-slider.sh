#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# What-if while running (issue 5): play the cylinder example in real time,
# pull the pump's speed slider to zero mid-run, export the run as CSV and
# check that the pump's flow is the full 15 L/min up to one moment and zero
# from then on, and that the moment is the slider's (within the run).
. "$(dirname "$0")/e2e-lib.sh"

example="$E2E_TMP/cylinder-live.bramah"
sed 's/"simulation": { "t_end": 7.5, "output_interval": 0.005 }/"simulation": { "t_end": 3.0, "output_interval": 0.005, "real_time_factor": 1 }/' \
  "$SOURCE_ROOT/data/examples/cylinder-extend-retract.bramah" >"$example"
grep -q '"real_time_factor": 1' "$example" || fail "could not make the real-time copy of the example"

e2e_start "$example"
set -- $(geom_xy "^component PU1 ")
click "$1" "$2"
wait_geom "^slider PU1.speed " || fail "the pump's speed has no slider"
key F5
wait_geom "^run running" 10 || fail "the run did not start"
sleep 1.2
# the slider while running: a click at the left end of its trough, then
# Home for exactly zero
wait_geom "^slider PU1.speed " || fail "no live slider while running"
set -- $(geometry | awk '$1 == "slider" && $2 == "PU1.speed" { print $3 + 3, int (($4 + $6) / 2) }')
click "$1" "$2"
key Home
e2e_shot app-e2e-live-slider
wait_geom "^run finished" 20 || fail "the run did not finish"

csv="$E2E_TMP/run.csv"
key ctrl+shift+e
file_chooser_enter "Export Run as CSV" "$csv"
for _ in $(seq 50); do [ -s "$csv" ] && break; sleep 0.1; done
[ -s "$csv" ] || fail "no CSV was written"

# t of the first sample with the pump slowed down: every sample before it
# at the full 15 L/min, every one after it below 5 % of that, the last ones
# stopped (the export is in the plots' units: L/min)
result=$(awk -F, '
  NR == 1 { for (i = 1; i <= NF; i++) if ($i == "PU1: Flow [L/min]") col = i; next }
  col == 0 { exit 2 }
  { q = $col + 0; t = $1 + 0; last = q }
  !changed && q < 13.2 { changed = 1; tc = t }
  !changed && q > 15.06 { bad = "flow " q " L/min at t = " t " before the change"; exit 1 }
  changed && q > 0.75 { bad = "flow " q " L/min at t = " t " after the change"; exit 1 }
  END { if (col == 0) print "nocolumn"; else if (bad != "") print bad; else if (!changed) print "never";
        else if (last > 6e-5) print "flow " last " L/min at the end"; else print tc }' "$csv")
case "$result" in
  nocolumn) fail "the CSV has no column PU1: Flow [L/min]: $(head -n 1 "$csv")" ;;
  never) fail "the pump never stopped: the slider did not reach the run" ;;
  flow*) fail "$result" ;;
esac
echo "the pump stopped at t = $result s"
awk -v t="$result" 'BEGIN { exit !(t > 0.6 && t < 2.9) }' || fail "the change came at t = $result s, not mid-run"
echo "PASS"
