#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Live plots with the renderer a user gets by default (issue 8): GSK_RENDERER
# is NOT set here (the other GUI tests force cairo, which is how frozen plots
# under software OpenGL once slipped through). The shipped example runs as
# it opens — in real time, the default speed — and mid-run:
#  - the pressure pane shows coloured trace pixels that were not there
#    before the run, and more of them about 1.5 s later (the plot is live, not
#    frozen on "No run yet");
#  - the application uses at most 60 % of one core over 2.5 s (the bound,
#    chosen before measuring, is generous because CI machines are noisy: on
#    a quiet 2-core machine the run takes about 10–15 %; the frozen plots
#    came with 100–180 %);
#  - the window paints at most 20 frames a second over the whole run (the
#    live beat is 12 a second, HYD_UI_LIVE_FRAME_US);
#  - after the run, the replay slider is shown.
. "$(dirname "$0")/e2e-lib.sh"
unset GSK_RENDERER
export BRAMAH_DEBUG_LATENCY=1
command -v convert >/dev/null 2>&1 || { echo "SKIP: ImageMagick's convert is not installed"; exit 77; }
command -v import >/dev/null 2>&1 || { echo "SKIP: ImageMagick's import is not installed"; exit 77; }

CPU_BOUND=60      # % of one core, mid-run
FPS_BOUND=20      # frames per second over the run

example="$SOURCE_ROOT/data/examples/cylinder-extend-retract.bramah"
grep -q real_time_factor "$example" && fail "the example names a speed: this test needs the default"
e2e_start "$example"
wait_geom "^component C1 " || fail "the example did not open"
echo "$(geometry | grep '^renderer ')"

# the pane that plots the pressures (PU1.P.p, C1.A.p, C1.B.p)
pane=$(geometry | awk '$1 == "trace" && $3 == "C1.A.p" { print $2; exit }')
[ -n "$pane" ] || fail "no pane plots C1.A.p"
set -- $(geometry | awk -v p="$pane" '$1 == "pane" && $2 == p { print $3, $4, $5, $6 }')
[ $# -eq 4 ] || fail "pane $pane has no geometry"
crop="$(($3 - $1))x$(($4 - $2))+$1+$2"

# pixels of strong colour (trace colours; the axes, grid and text are grey)
coloured () { # png
  convert "$1" -crop "$crop" +repage -fx '(max(max(r,g),b)-min(min(r,g),b))>0.3' \
    -format '%[fx:round(mean*w*h)]' info:
}

import -window root "$E2E_TMP/before.png" || fail "no screenshot"
before=$(coloured "$E2E_TMP/before.png")

focus_canvas
key F5
wait_geom "^run running" 10 || fail "the run did not start"
sleep 1
t0=$(awk '{ print $14 + $15 }' "/proc/$APP_PID/stat")
w0=$(date +%s%N)
sleep 2.5
t1=$(awk '{ print $14 + $15 }' "/proc/$APP_PID/stat")
w1=$(date +%s%N)
e2e_shot app-e2e-live-plots-1
sleep 1
e2e_shot app-e2e-live-plots-2
geometry | grep -q '^run running' || fail "the run ended before the second screenshot (it should last 7.5 s)"
[ -s "$E2E_TMP/app-e2e-live-plots-2.png" ] || fail "no screenshot"
mid1=$(coloured "$E2E_TMP/app-e2e-live-plots-1.png")
mid2=$(coloured "$E2E_TMP/app-e2e-live-plots-2.png")
cpu=$(awk -v t0="$t0" -v t1="$t1" -v w0="$w0" -v w1="$w1" -v hz="$(getconf CLK_TCK)" \
  'BEGIN { printf "%.1f", (t1 - t0) / hz / ((w1 - w0) / 1e9) * 100 }')
echo "coloured pixels in the pressure pane: before $before, mid-run $mid1, 1.5 s later $mid2; CPU $cpu % of one core"
[ "$mid1" -ge $((before + 150)) ] || fail "the pressure pane shows no traces mid-run ($before → $mid1 coloured pixels)"
[ "$mid2" -ge $((mid1 + 30)) ] || fail "the pressure pane did not change in 1.5 s ($mid1 → $mid2): frozen?"
awk -v c="$cpu" -v b="$CPU_BOUND" 'BEGIN { exit !(c <= b) }' \
  || fail "the application used $cpu % of one core mid-run (bound $CPU_BOUND %)"

wait_geom "^run finished" 20 || fail "the run did not finish"
# after the run the replay slider is offered (issue 8)
wait_geom "^replay " 5 || fail "no replay slider after the run"
for _ in $(seq 50); do grep -q '^BRAMAH-LATENCY' "$E2E_TMP/app.out" && break; sleep 0.1; done
line=$(grep '^BRAMAH-LATENCY' "$E2E_TMP/app.out" | tail -n 1)
[ -n "$line" ] || fail "no frame report"
echo "$line"
set -- $line
frames=${13} secs=${15}
awk -v f="$frames" -v s="$secs" -v b="$FPS_BOUND" 'BEGIN { exit !(s > 0 && f / s <= b) }' \
  || fail "the window painted $frames frames in $secs s (bound $FPS_BOUND a second)"
echo "PASS"
