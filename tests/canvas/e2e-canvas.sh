#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# e2e-canvas.sh — the canvas driven like a person does it (issue 4): real
# X pointer and key events from xdotool on canvas-demo. It places a pump,
# a relief valve, a 4/3 valve, a cylinder and a tank from the palette,
# wires them (drags out of ports, the wire tool with a bend, and one wire
# that ends on another and makes a junction), moves the cylinder, turns the
# relief valve, zooms, undoes and redoes, saves with Ctrl+S, reloads the
# file with bramah-cli and compares it with the expected circuit.
#
#   e2e-canvas.sh CANVAS-DEMO BRAMAH-CLI OUTDIR
#
# Needs a display (CI: xvfb-run) and xdotool; skips (77) without them.
set -euo pipefail
demo=$1 cli=$2 out=$3
command -v xdotool >/dev/null || { echo "no xdotool: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
[ -n "${DISPLAY:-}" ] && xdotool getmouselocation >/dev/null 2>&1 || { echo "no display: skipped"; exit 77; }

mkdir -p "$out"
log=$out/e2e-canvas.log
saved=$out/e2e-canvas.bramah
rm -f "$saved" "$log"
GTK_A11Y=none GSK_RENDERER=${GSK_RENDERER:-cairo} "$demo" --trace --save "$saved" >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT

fail () { echo "FAIL: $*"; echo "--- demo log (tail)"; tail -n 40 "$log"; exit 1; }
ends () { grep -c '^end$' "$log" || true; }
# wait until the demo has printed more than $1 position blocks
wait_ends () {
  for _ in $(seq 1 100); do
    [ "$(ends)" -gt "$1" ] && return 0
    sleep 0.05
  done
  fail "the demo did not report after the last action"
}
for _ in $(seq 1 100); do grep -q '^palette line ' "$log" && break; sleep 0.1; done
grep -q '^palette line ' "$log" || fail "the demo did not start"
sleep 0.2
wid=$(xdotool search --onlyvisible --name "canvas demo" | head -n1)
[ -n "$wid" ] || fail "no demo window"
eval "$(xdotool getwindowgeometry --shell "$wid")"   # X, Y: the window on the screen
ox=$X oy=$Y

# screen position of the last reported "kind name x y"
pos () {
  local line
  line=$(grep "^$1 $2 " "$log" | tail -n1)
  [ -n "$line" ] || fail "no $1 $2 reported"
  awk -v ox="$ox" -v oy="$oy" '{ print $3 + ox, $4 + oy }' <<<"$line"
}
# screen position of a canvas point (document units), with the last view
at () {
  grep '^canvas ' "$log" | tail -n1 |
    awk -v ox="$ox" -v oy="$oy" -v x="$1" -v y="$2" \
        '{ printf "%d %d\n", ox + $2 + (x - $7) * $6, oy + $3 + (y - $8) * $6 }'
}
# a distance in document units, in screen pixels
px () { grep '^canvas ' "$log" | tail -n1 | awk -v d="$1" '{ printf "%d\n", d * $6 }'; }
move_to () { xdotool mousemove "$1" "$2"; sleep 0.05; }
click_at () { move_to "$1" "$2"; xdotool click 1; sleep 0.15; }
# a drag in small steps, as a hand does it
drag () {
  local x0=$1 y0=$2 x1=$3 y1=$4
  move_to "$x0" "$y0"
  xdotool mousedown 1
  for k in 1 2 3 4 5 6 7 8 9 10; do
    xdotool mousemove $((x0 + (x1 - x0) * k / 10)) $((y0 + (y1 - y0) * k / 10))
    sleep 0.02
  done
  sleep 0.1
  xdotool mouseup 1
  sleep 0.15
}
# an action that edits the document (or the zoom): wait for the demo's report
edit () { local n; n=$(ends); "$@"; wait_ends "$n"; }

place () { # type, canvas x, y
  read -r px py < <(pos palette "$1")
  click_at "$px" "$py"
  read -r x y < <(at "$2" "$3")
  edit click_at "$x" "$y"
}
wire () { # from ref, to ref: a drag out of one port onto the other
  read -r x0 y0 < <(pos port "$1")
  read -r x1 y1 < <(pos port "$2")
  edit drag "$x0" "$y0" "$x1" "$y1"
}

# a small screen (a bare xvfb-run is 640 × 480): zoom out until it fits
read -r cwidth cheight < <(grep '^canvas ' "$log" | tail -n1 | awk '{ print $4, $5 }')
zoom_outs=0
while [ "$(awk -v w="$cwidth" -v h="$cheight" -v n="$zoom_outs" 'BEGIN { z = 0.8 ^ n; print (420 * z > w || 700 * z > h) ? 1 : 0 }')" = 1 ]; do
  edit xdotool key minus
  zoom_outs=$((zoom_outs + 1))
  [ $zoom_outs -lt 6 ] || fail "the screen is too small"
done

# ---- place the five parts ----
place cylinder_double 320 110
place dcv_4_3 320 290
place fixed_pump 320 480
place relief_valve 540 460
place tank 340 650

# ---- wires ----
wire P1.S T1.T
wire P1.P V1.P
wire V1.A C1.A
wire V1.B C1.B
wire RV1.T T1.T
# the wire tool: the valve's T, two bends round the pump's right, the tank
xdotool key w; sleep 0.1
read -r x0 y0 < <(pos port V1.T)
read -r x1 y1 < <(pos port T1.T)
click_at "$x0" "$y0"
click_at $((x0 + $(px 80))) $((y0 + $(px 30)))
click_at $((x0 + $(px 80))) $((y1 - $(px 20)))
edit click_at "$x1" "$y1"
xdotool key Escape; sleep 0.1
# the relief valve's P onto the pump's pressure line: a junction
read -r x0 y0 < <(pos port RV1.P)
read -r x1 y1 < <(pos wire P1.P-V1.P)
edit drag "$x0" "$y0" "$x1" "$y1"

# ---- move the cylinder 40 px right, turn the relief valve ----
read -r x0 y0 < <(pos body C1)
edit drag "$x0" "$y0" $((x0 + $(px 40))) "$y0"
read -r x0 y0 < <(pos body RV1)
click_at "$x0" "$y0"
read -r px0 py0 < <(pos port RV1.P)
edit xdotool key r
read -r px1 py1 < <(pos port RV1.P)
[ "$px0 $py0" != "$px1 $py1" ] || fail "R did not turn the relief valve"
edit xdotool key m
edit xdotool key m
edit xdotool key shift+r
read -r px2 py2 < <(pos port RV1.P)
[ "$px0 $py0" = "$px2 $py2" ] || fail "R then Shift+R did not turn it back in place"
edit xdotool key r

# ---- zoom in about the pointer and back to fit; undo and redo ----
move_to "$x0" "$y0"
for _ in 1 2 3; do xdotool keydown ctrl click 4 keyup ctrl; sleep 0.05; done
sleep 0.3
edit xdotool key Home
edit xdotool key ctrl+z
edit xdotool key ctrl+shift+z

# ---- save, reload, compare ----
xdotool key ctrl+s
for _ in $(seq 1 50); do [ -s "$saved" ] && break; sleep 0.1; done
[ -s "$saved" ] || fail "Ctrl+S wrote nothing"
"$cli" render "$saved" "$out/e2e-canvas.png" || fail "bramah-cli cannot load the saved circuit"

python3 - "$saved" <<'EOF' || fail "the saved circuit differs from the expected one"
import json, sys
c = json.load(open(sys.argv[1]))
types = {k["id"]: k["type"] for k in c["components"]}
want = {"P1": "fixed_pump", "RV1": "relief_valve", "V1": "dcv_4_3", "C1": "cylinder_double", "T1": "tank"}
assert types == want, types
js = [j["id"] for j in c.get("junctions", [])]
assert len(js) == 1, js
J = js[0]
def norm(ref):
    return "J" if ref == J else ref
wires = sorted(tuple(sorted((norm(w["from"]), norm(w["to"])))) for w in c["connections"])
expected = sorted(tuple(sorted(p)) for p in [
    ("P1.S", "T1.T"), ("P1.P", "J"), ("J", "V1.P"), ("V1.A", "C1.A"), ("V1.B", "C1.B"),
    ("RV1.T", "T1.T"), ("V1.T", "T1.T"), ("RV1.P", "J")])
assert wires == expected, wires
comp = {k["id"]: k for k in c["components"]}
assert comp["RV1"].get("rotation", 0) == 90, comp["RV1"]
for k in comp.values():  # on the grid
    x, y = k["position"]
    assert x % 10 == 0 and y % 10 == 0, k
# every wire is orthogonal through its route points
for w in c["connections"]:
    pts = w.get("route", [])
    for a, b in zip(pts, pts[1:]):
        assert a[0] == b[0] or a[1] == b[1], w
print("e2e: the saved circuit is the expected one")
EOF
echo "ok: placed, wired, moved, turned, zoomed, undone, saved and reloaded"
