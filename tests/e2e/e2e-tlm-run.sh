#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The tlm solver chosen as a person does (a click on the solver list, the
# last but one entry, Return), its settings button shown, the example run
# in real time to its end, and the run exported as CSV: its last pressure
# is the one `bramah-cli simulate --solver tlm` computes (the GUI ran tlm),
# to 1e-6.
. "$(dirname "$0")/e2e-lib.sh"

example="$SOURCE_ROOT/data/examples/esque-circuit1-step.bramah"
e2e_start "$example"
wait_geom "^component FS1 " || fail "the example did not open"
wait_geom "^solver rodas4\$" || fail "the example's solver is not rodas4"

set -- $(geometry | awk '$1 == "solver-list" { print int (($2 + $4) / 2), int (($3 + $5) / 2) }')
[ -n "$1" ] || fail "no solver list in the geometry"
click "$1" "$2"
sleep 0.5
key End
key Up
key Return
wait_geom "^solver tlm\$" 5 || fail "tlm was not chosen in the solver list"
e2e_shot app-e2e-tlm-chosen

focus_canvas
key F5
wait_geom "^run finished" 30 || fail "the run with tlm did not finish"
e2e_shot app-e2e-tlm-finished

csv="$E2E_TMP/run.csv"
key ctrl+shift+e
file_chooser_enter "Export Run as CSV" "$csv"
for _ in $(seq 50); do [ -s "$csv" ] && break; sleep 0.1; done
[ -s "$csv" ] || fail "no CSV was written"
tail -n 1 "$csv" | grep -q '^3,' || fail "the last row is not at t = 3 s"
col=$(head -n 1 "$csv" | tr ',' '\n' | grep -nxF "FS1.P: Pressure [bar]" | cut -d: -f1)
[ -n "$col" ] || fail "the CSV has no column FS1.P: Pressure [bar]"
gui=$(tail -n 1 "$csv" | cut -d, -f"$col")

cli_csv="$E2E_TMP/cli.csv"
"$BRAMAH_CLI" simulate --solver tlm "$example" -o "$cli_csv" >/dev/null || fail "bramah-cli simulate --solver tlm failed"
ccol=$(head -n 1 "$cli_csv" | tr ',' '\n' | grep -nxF "FS1.P.p" | cut -d: -f1)
[ -n "$ccol" ] || fail "bramah-cli's CSV has no column FS1.P.p"
cli=$(tail -n 1 "$cli_csv" | cut -d, -f"$ccol")
awk -v g="$gui" -v c="$cli" 'BEGIN { d = g - c / 1e5; if (d < 0) d = -d; exit !(d <= 1e-6 * (c / 1e5)) }' \
  || fail "the GUI's FS1.P at 3 s is $gui bar, bramah-cli's with tlm $cli Pa"
echo "PASS (FS1.P at 3 s: $gui bar; bramah-cli --solver tlm: $cli Pa)"
