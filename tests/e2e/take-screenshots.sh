#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Regenerates the application's screenshots in docs/images (app-*.png): not
# a test. Run from the source tree after building:
#   sh tests/e2e/take-screenshots.sh build/app/bramah build/app/bramah-cli "$PWD" build/data
. "$(dirname "$0")/e2e-lib.sh"
out="$SOURCE_ROOT/docs/images"
mkdir -p "$out"

window_shot () { # name [window]
  sleep 0.6
  import -window "${2:-$WIN}" "$out/$1.png" || fail "no screenshot $1"
  echo "wrote $out/$1.png"
}

# the example, played in real time
mkdir -p "$HOME/Circuits"
example="$HOME/Circuits/cylinder-extend-retract.bramah"
sed 's/"simulation": { "t_end": 7.5,/"simulation": { "t_end": 7.5, "real_time_factor": 1,/' \
  "$SOURCE_ROOT/data/examples/cylinder-extend-retract.bramah" >"$example"
grep -q real_time_factor "$example" || fail "could not make the real-time copy of the example"

e2e_start "$example"
set -- $(geom_xy "^component DCV1 ")
click "$1" "$2"
window_shot app-editing

focus_canvas
set -- $(geom_xy "^component DCV1 ")
click "$1" "$2"
key F5
sleep 2.3
window_shot app-running

wait_geom "^run finished" 20 || fail "the run did not finish"
window_shot app-finished

# a circuit that fails its check: a return line left open
set -- $(geom_xy "^component T2 ")
click "$1" "$2"
key Delete
key F5
window_shot app-check-error
key ctrl+z

# the component help and the examples gallery
key F1
help=$(timeout 10 xdotool search --sync --onlyvisible --name "Component Help" | head -n 1)
window_shot app-help "$help"
xdotool windowfocus --sync "$help"; key Escape
xdotool windowfocus --sync "$WIN"
key ctrl+shift+o
gallery=$(timeout 10 xdotool search --sync --onlyvisible --name "^Examples$" | head -n 1)
sleep 1.5
window_shot app-examples "$gallery"
xdotool windowfocus --sync "$gallery"; key Escape

# recovery after a crash
kill "$APP_PID"; wait "$APP_PID" 2>/dev/null; APP_PID=
: >"$E2E_TMP/app.out"
export BRAMAH_AUTOSAVE_INTERVAL=1
e2e_start
read cx0 cy0 cx1 cy1 <<EOT
$(geometry | awk '$1 == "canvas" { print $2, $3, $4, $5 }')
EOT
place fixed_pump "fixed-disp" $(( (cx0 + cx1) / 2 - 60 )) $(( (cy0 + cy1) / 2 ))
place relief_valve "relief" $(( (cx0 + cx1) / 2 + 80 )) $(( (cy0 + cy1) / 2 ))
key Escape
sleep 2
e2e_stop_hard
: >"$E2E_TMP/app.out"
e2e_start
wait_geom '^info-button _Recover ' || fail "no recovery offered"
window_shot app-recovery

# the state diagram of the A+ B+ B− A− sequence, on its page beside the plots
sequence="$SOURCE_ROOT/data/examples/electro-sequence-a-b-b-a.bramah"
if [ -f "$sequence" ]; then
  kill "$APP_PID"; wait "$APP_PID" 2>/dev/null; APP_PID=
  : >"$E2E_TMP/app.out"
  e2e_start "$sequence"
  xdotool windowsize "$WIN" 1280 860
  wait_geometry_settles
  set -- $(geometry | awk '$1 == "plots-switcher" { print int($2 + ($4 - $2) * 0.75), int(($3 + $5) / 2) }')
  click "$1" "$2"
  focus_canvas
  key F5
  wait_geom "^run finished" 60 || fail "the sequence did not finish"
  window_shot app-state-diagram
fi
