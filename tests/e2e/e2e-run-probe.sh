#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Open an example, run it, add a probe (the probe tool clicked on the
# cylinder), export the run as CSV and check the file has the rows and the
# probed variable (headed in the plots' words and units); export the
# schematic as SVG.
. "$(dirname "$0")/e2e-lib.sh"

example="$SOURCE_ROOT/data/examples/cylinder-extend-retract.bramah"
e2e_start "$example"
wait_geom "^component C1 " || fail "the example did not open"
wait_geom "^path $example\$" || fail "the window does not show the example's path"
e2e_shot app-e2e-opened

focus_canvas
key F5
wait_geom "^run finished" 30 || fail "the run did not finish"
e2e_shot app-e2e-finished

# make the velocity pane (the second, which plots C1.v) active, then the
# probe tool and a click on the cylinder: a new trace goes there
[ "$(geometry | grep -c '^trace 1 ')" -eq 1 ] || fail "the second pane should plot C1.v only"
click $(geometry | awk '$1 == "pane" && $2 == "1" { print int (($3 + $5) / 2), int (($4 + $6) / 2) }')
focus_canvas
key p
set -- $(geom_xy "^component C1 ")
click "$1" "$2"
for _ in $(seq 50); do
  [ "$(geometry | grep -c '^trace 1 C1\.')" -ge 2 ] && break
  sleep 0.1
done
probed=$(geometry | awk '$1 == "trace" && $2 == "1" && $3 ~ /^C1\./ && $3 != "C1.v" { print $3; exit }')
[ -n "$probed" ] || fail "the probe added no trace of the cylinder to the active pane"
key Escape
e2e_shot app-e2e-probed

csv="$E2E_TMP/run.csv"
key ctrl+shift+e
file_chooser_enter "Export Run as CSV" "$csv"
for _ in $(seq 50); do [ -s "$csv" ] && break; sleep 0.1; done
[ -s "$csv" ] || fail "no CSV was written"
# headed in the plots' words and units (the run's every variable)
head -n 1 "$csv" | grep -q '^Time \[s\],' || fail "the CSV does not start with Time [s]"
case "$probed" in
  C1.x) column="C1: Position [mm]" ;;
  C1.force) column="C1: Force [kN]" ;;
  C1.power) column="C1: Power [kW]" ;;
  C1.[AB].p) column="${probed%.p}: Pressure [bar]" ;;
  *) fail "the probe added $probed: which CSV column is it?" ;;
esac
head -n 1 "$csv" | tr ',' '\n' | grep -qxF "$column" || fail "the CSV has no column $column ($probed)"
head -n 1 "$csv" | grep -qF "$probed" && fail "the CSV's header has the engine's name $probed"
rows=$(($(wc -l <"$csv") - 1))
[ "$rows" -ge 1000 ] || fail "the CSV has only $rows rows"
# the last row is at t_end = 7.5 s
tail -n 1 "$csv" | grep -q '^7\.5,' || fail "the last row is not at t = 7.5 s"
# and the schematic as SVG
svg="$E2E_TMP/schematic.svg"
key ctrl+e
file_chooser_enter "Export Schematic" "$svg"
for _ in $(seq 50); do [ -s "$svg" ] && break; sleep 0.1; done
[ -s "$svg" ] || fail "no SVG was written"
grep -q "<svg" "$svg" || fail "the schematic export is not an SVG"
echo "PASS ($rows rows, probe $probed)"
