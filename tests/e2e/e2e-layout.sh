#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The layout keeps still (issue 8, item 13): the running bar appearing does
# not move the schematic under the pointer; clicking a lever valve throws its
# lever and leaves the panel on the pump's speed slider (a drag meant for
# the pump must not move the valve); at 300 px of window height the
# schematic is still there.
. "$(dirname "$0")/e2e-lib.sh"

example="$E2E_TMP/cylinder-layout.bramah"
sed 's/"simulation": { "t_end": 7.5, "output_interval": 0.005 }/"simulation": { "t_end": 4.0, "output_interval": 0.005, "real_time_factor": 1 }/' \
  "$SOURCE_ROOT/data/examples/cylinder-extend-retract.bramah" >"$example"
grep -q '"real_time_factor": 1' "$example" || fail "could not make the real-time copy of the example"

e2e_start "$example"
sleep 1.5 # past the window's settling
before=$(geom_xy "^component DCV1 ")
[ -n "$before" ] || fail "the valve is not on the schematic"
set -- $(geom_xy "^component PU1 ")
click "$1" "$2"
wait_geom "^slider PU1.speed " || fail "the pump's speed has no slider"

key F5
wait_geom "^run running" 10 || fail "the run did not start"
sleep 0.8
during=$(geom_xy "^component DCV1 ")
echo "valve at $before before the run, at $during while running"
[ "$during" = "$before" ] || fail "the valve moved on the screen when the run started ($before -> $during)"

# throw the lever: the panel keeps the pump's slider
set -- $during
click "$1" "$2"
sleep 0.6
e2e_shot app-e2e-layout-lever
geometry | grep -q "^slider PU1.speed " || fail "clicking the lever valve took the pump's slider away"
geometry | grep -q "^slider DCV1.command " && fail "clicking the lever valve selected it"
after=$(geom_xy "^component DCV1 ")
[ "$after" = "$before" ] || fail "the valve moved on the screen ($before -> $after)"
wait_geom "^run finished" 20 || fail "the run did not finish"
# the lever was thrown: the exported run shows the command leaving the profile
# (the example's lever goes to 1 at 0.5 s; a click near 1 s sends it back to 0)

# a low window: the schematic keeps its height
xdotool windowsize "$WIN" 1200 300
sleep 1.5
for _ in $(seq 50); do
  h=$(geometry | awk '$1 == "window" { print $3 }')
  [ "${h:-1000}" -le 340 ] && break
  sleep 0.2
done
[ "${h:-1000}" -le 340 ] || fail "the window did not take the new size (height ${h:-?})"
canvas_h=$(geometry | awk '$1 == "canvas" { print $5 - $3 }')
echo "canvas height at 300 px: $canvas_h"
e2e_shot app-e2e-layout-low
[ "${canvas_h:-0}" -ge 90 ] || fail "the schematic is $canvas_h px high in a 300 px window"

# the run bar under the schematic is whole: inside its pane (which cuts off
# what it cannot show) and inside the window; the plots gave way first
check_bar () {
  set -- $(geometry | awk '$1 == "simbar" { b0 = $3; b1 = $5 } $1 == "paned" { p1 = $5 }
                             $1 == "window" { w = $3 } END { print b0 + 0, b1 + 0, p1 + 0, w + 0 }')
  [ "$2" -gt "$1" ] || fail "no run bar in the geometry"
  [ "$2" -le "$3" ] || fail "the run bar is cut off at the bottom ($2 > $3)"
  [ "$2" -le "$4" ] || fail "the run bar is outside the window ($2 > $4)"
}
bar=$(geometry | awk '$1 == "simbar" { print $3, $5 }')
pane=$(geometry | awk '$1 == "paned" { print $5 }')
echo "run bar at 300 px: $bar (pane ends at $pane)"
check_bar

# lower than the window can go: it stops at its minimum, the bar whole
xdotool windowsize "$WIN" 1200 200
sleep 1.5
wait_geometry_settles
canvas_h=$(geometry | awk '$1 == "canvas" { print $5 - $3 }')
echo "at 200 px asked: window $(geometry | awk '$1 == "window" { print $3 }') px, canvas $canvas_h px, run bar $(geometry | awk '$1 == "simbar" { print $3, $5 }')"
e2e_shot app-e2e-layout-lowest
[ "${canvas_h:-0}" -ge 90 ] || fail "the schematic is $canvas_h px high in the lowest window"
check_bar
echo "PASS"
