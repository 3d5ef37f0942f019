# SPDX-License-Identifier: GPL-3.0-or-later
# e2e-lib.sh — shared steps of the end-to-end tests: a private X server, a
# private home, the application from the build tree, and the mouse and keys
# through xdotool. Sourced by the e2e-*.sh scripts, which meson runs as
#   sh e2e-X.sh BRAMAH BRAMAH_CLI SOURCE_ROOT SCHEMA_DIR
# Exit status: 0 pass, 1 fail, 77 skipped (a tool is missing).
# BRAMAH_E2E_SHOTS=DIR keeps the screenshots there; BRAMAH_E2E_KEEP=1 keeps
# the temporary directory.

BRAMAH=$1
BRAMAH_CLI=$2
SOURCE_ROOT=$3
SCHEMA_DIR=$4

for tool in Xvfb xdotool; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool is not installed"; exit 77; }
done

E2E_TMP=$(mktemp -d "${TMPDIR:-/tmp}/bramah-e2e.XXXXXX")
APP_PID=
XVFB_PID=
WIN=

e2e_cleanup () {
  [ -n "$APP_PID" ] && kill "$APP_PID" 2>/dev/null
  [ -n "$XVFB_PID" ] && kill "$XVFB_PID" 2>/dev/null
  if [ -n "$BRAMAH_E2E_KEEP" ]; then
    echo "kept $E2E_TMP"
  else
    rm -rf "$E2E_TMP"
  fi
}
trap e2e_cleanup EXIT

fail () {
  echo "FAIL: $*"
  e2e_shot failure
  echo "--- application stderr ---"; tail -n 30 "$E2E_TMP/app.err" 2>/dev/null
  exit 1
}

# A private home, so that no settings, recent files or autosaves of the
# user (or of another test) are seen.
export HOME="$E2E_TMP/home"
export XDG_CONFIG_HOME="$HOME/.config" XDG_DATA_HOME="$HOME/.local/share"
export XDG_STATE_HOME="$HOME/.local/state" XDG_CACHE_HOME="$HOME/.cache"
export XDG_RUNTIME_DIR="$E2E_TMP/run"
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_STATE_HOME" "$XDG_CACHE_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
export GSETTINGS_SCHEMA_DIR="$SCHEMA_DIR" GSETTINGS_BACKEND=memory
export GSK_RENDERER=cairo NO_AT_BRIDGE=1 GTK_A11Y=none LC_ALL=C.UTF-8
unset DBUS_SESSION_BUS_ADDRESS SESSION_MANAGER

# A private X server: tests that run side by side never share the pointer.
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$E2E_TMP/display" >/dev/null 2>&1 &
XVFB_PID=$!
for _ in $(seq 50); do
  [ -s "$E2E_TMP/display" ] && break
  sleep 0.1
done
[ -s "$E2E_TMP/display" ] || { echo "SKIP: Xvfb did not start"; exit 77; }
export DISPLAY=":$(cat "$E2E_TMP/display")"
# Under load the server may announce its number before it takes connections:
# wait until a client really gets through.
for _ in $(seq 100); do
  xdotool getmouselocation >/dev/null 2>&1 && break
  sleep 0.1
done
xdotool getmouselocation >/dev/null 2>&1 || { echo "SKIP: Xvfb does not answer"; exit 77; }

e2e_shot () { # name
  command -v import >/dev/null 2>&1 || return 0
  import -window root "$E2E_TMP/$1.png" 2>/dev/null || return 0
  if [ -n "$BRAMAH_E2E_SHOTS" ]; then
    mkdir -p "$BRAMAH_E2E_SHOTS"
    cp "$E2E_TMP/$1.png" "$BRAMAH_E2E_SHOTS/$1.png"
  fi
}

e2e_start () { # args... : start the application, wait for its window
  BRAMAH_DEBUG_GEOMETRY=1 "$BRAMAH" "$@" >"$E2E_TMP/app.out" 2>"$E2E_TMP/app.err" &
  APP_PID=$!
  WIN=$(timeout 20 xdotool search --sync --onlyvisible --name 'Bramah' | head -n 1)
  [ -n "$WIN" ] || fail "no window appeared"
  xdotool windowfocus --sync "$WIN" 2>/dev/null
  wait_geom '^canvas ' || fail "no geometry printed"
  wait_geometry_settles
}

# The window fits the schematic while it settles (its first second or so,
# longer under load): wait until the geometry has stayed the same for 1.5 s
# (at most 20 s), so that a click lands where the symbol finally is.
wait_geometry_settles () {
  local last="" now same=0
  for _ in $(seq 200); do
    now=$(geometry | grep -v '^BRAMAH-LATENCY' | md5sum)
    if [ "$now" = "$last" ]; then
      same=$((same + 1))
      [ "$same" -ge 15 ] && return 0
    else
      same=0; last=$now
    fi
    sleep 0.1
  done
}

e2e_stop_hard () { # kill -9, as a crash
  kill -9 "$APP_PID" 2>/dev/null
  wait "$APP_PID" 2>/dev/null
  APP_PID=
}

# The latest BRAMAH_DEBUG_GEOMETRY block.
geometry () {
  awk '/^BRAMAH-GEOMETRY begin/ { n = 0; delete b; next }
       /^BRAMAH-GEOMETRY end/ { out = ""; for (i = 0; i < n; i++) out = out b[i] "\n"; last = out; next }
       { b[n++] = $0 }
       END { printf "%s", last }' "$E2E_TMP/app.out"
}

wait_geom () { # regex [seconds]: wait until the latest block has a matching line
  local limit=${2:-10}
  for _ in $(seq $((limit * 10))); do
    geometry | grep -q -- "$1" && return 0
    sleep 0.1
  done
  return 1
}

geom_xy () { # regex: "x y" of the first matching line's last two fields
  geometry | grep -- "$1" | head -n 1 | awk '{ print $(NF - 1), $NF }'
}

click () { # x y (window coordinates)
  xdotool mousemove --window "$WIN" "$1" "$2" sleep 0.15 click 1
  sleep 0.3
}

drag () { # x1 y1 x2 y2
  xdotool mousemove --window "$WIN" "$1" "$2" sleep 0.15 mousedown 1 sleep 0.1
  local i
  for i in 1 2 3 4 5 6 7 8; do
    xdotool mousemove --window "$WIN" $(( $1 + ($3 - $1) * i / 8 )) $(( $2 + ($4 - $2) * i / 8 )) sleep 0.05
  done
  xdotool sleep 0.15 mouseup 1
  sleep 0.3
}

key () { # keys...
  xdotool key --clearmodifiers "$@"
  sleep 0.3
}

type_text () { # text
  xdotool type --delay 20 "$1"
  sleep 0.2
}

# Type a path into the file chooser that has just been asked for (title).
file_chooser_enter () { # title path
  local dialog
  dialog=$(timeout 10 xdotool search --sync --onlyvisible --name "$1" | head -n 1)
  [ -n "$dialog" ] || fail "no \"$1\" dialog"
  xdotool windowfocus --sync "$dialog" 2>/dev/null
  sleep 0.5
  key ctrl+a
  type_text "$2"
  sleep 0.3
  key Return
  for _ in $(seq 50); do
    xdotool search --onlyvisible --name "$1" >/dev/null 2>&1 || break
    sleep 0.1
  done
  xdotool windowfocus --sync "$WIN" 2>/dev/null
}

# Click an empty corner of the canvas: the keys then go to it, not to a
# text field.
focus_canvas () {
  click $(geometry | awk '$1 == "canvas" { print $2 + 40, $5 - 15 }')
}

# Place a component by palette click + canvas click.
place () { # type_id search-text x y
  local xy
  focus_canvas # focus the window, not a field
  key ctrl+f
  key ctrl+a
  type_text "$2"
  wait_geom "^palette $1 " || fail "palette entry $1 not shown"
  sleep 0.3
  xy=$(geom_xy "^palette $1 ")
  click $xy
  click "$3" "$4"
}
