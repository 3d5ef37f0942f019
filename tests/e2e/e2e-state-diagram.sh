#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The state diagram in the window: Run by F5, the "State diagram" page
# chosen by mouse in the header's switcher while the run goes, the page
# shown in the plots' place, and its CSV exported by mouse after the run:
# the columns the pane shows (the cylinder by default) with every sample of
# the run, C1.x equal to bramah-cli simulate's for the same circuit, and
# C1.x/stroke the fraction of its 0.3 m stroke.
. "$(dirname "$0")/e2e-lib.sh"

circuit="$E2E_TMP/state-diagram.bramah"
# twice real time: the run takes about 4 s
sed 's/"t_end": 7.5,/"t_end": 7.5, "real_time_factor": 2,/' \
  "$SOURCE_ROOT/tests/cli/data/state-diagram.bramah" >"$circuit"
grep -q '"real_time_factor": 2' "$circuit" || fail "could not make the timed copy of the circuit"

e2e_start "$circuit"
geometry | grep -q "^state-diagram " && fail "the state diagram is shown before it was chosen"
focus_canvas
key F5
wait_geom "^run running" 10 || fail "the run did not start"

# the switcher's second button: "State diagram"
set -- $(geometry | awk '$1 == "plots-switcher" { print int($2 + ($4 - $2) * 0.75), int(($3 + $5) / 2) }')
[ -n "${1:-}" ] || fail "no plots switcher in the header"
click "$1" "$2"
wait_geom "^state-diagram " 5 || fail "the state diagram page did not open"
geometry | grep -q "^plots " && fail "the plots are still shown beside the state diagram"
sleep 1
e2e_shot state-diagram-running
wait_geom "^run finished" 30 || fail "the run did not finish"
sleep 0.5
e2e_shot state-diagram-finished

# export the CSV by its button
set -- $(geometry | awk '$1 == "state-diagram-csv" { print int(($2 + $4) / 2), int(($3 + $5) / 2) }')
[ -n "${1:-}" ] || fail "no CSV button on the state diagram page"
click "$1" "$2"
out="$E2E_TMP/exported.csv"
file_chooser_enter "Export State Diagram" "$out"
for _ in $(seq 50); do
  [ -s "$out" ] && break
  sleep 0.1
done
[ -s "$out" ] || fail "no CSV was exported"

"$BRAMAH_CLI" simulate "$circuit" --vars C1.x -o "$E2E_TMP/cli.csv" || fail "bramah-cli simulate failed"
head -n 1 "$out" | grep -qx 't,C1.x,C1.x/stroke' || fail "the exported columns: $(head -n 1 "$out")"
[ "$(wc -l <"$out")" = "$(wc -l <"$E2E_TMP/cli.csv")" ] \
  || fail "$(wc -l <"$out") lines exported, the CLI's run has $(wc -l <"$E2E_TMP/cli.csv")"
cut -d, -f1,2 "$out" | tail -n +2 >"$E2E_TMP/gui-x"
tail -n +2 "$E2E_TMP/cli.csv" >"$E2E_TMP/cli-x"
cmp -s "$E2E_TMP/gui-x" "$E2E_TMP/cli-x" || fail "C1.x differs from the CLI's run: $(diff "$E2E_TMP/gui-x" "$E2E_TMP/cli-x" | head -n 4)"
awk -F, 'NR > 1 && ($3 - $2 / 0.3 > 1e-9 || $2 / 0.3 - $3 > 1e-9) { bad = 1 } END { exit bad }' "$out" \
  || fail "C1.x/stroke is not C1.x / 0.3 m"
echo "exported $(($(wc -l <"$out") - 1)) samples, C1.x as the CLI's run"
echo "PASS"
