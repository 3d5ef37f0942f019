#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# render-errors: a failed `bramah-cli render` leaves no file and an old
# drawing intact (issue 9, item 10): the schematic is drawn to a temporary
# beside OUT and renamed over it only when complete. The failure here is a
# write beyond ulimit -f (EFBIG); the message names OUT, not the temporary.
# Usage: render-errors.sh BRAMAH_CLI CIRCUIT
set -u
cli=$1
circuit=$2
fails=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail () { printf 'FAIL: %s\n' "$*"; fails=$((fails + 1)); }

for ext in svg pdf png; do
  # no old file: none afterwards
  (
    trap '' XFSZ   # as a shell that ignores it; the CLI must clean up either way
    ulimit -f 2
    "$cli" render "$circuit" "$dir/new.$ext" >"$dir/out" 2>"$dir/err"
    echo $? >"$dir/status"
  )
  [ "$(cat "$dir/status")" -eq 1 ] || fail "$ext: a failed render exited $(cat "$dir/status"), not 1"
  [ -e "$dir/new.$ext" ] && fail "$ext: a failed render left new.$ext ($(stat -c %s "$dir/new.$ext") bytes)"
  grep -q "$dir/new.$ext" "$dir/err" || fail "$ext: the message does not name new.$ext: $(cat "$dir/err")"
  grep -q "tmp-" "$dir/err" && fail "$ext: the message names the temporary: $(cat "$dir/err")"

  # an old file: intact
  printf 'old drawing\n' >"$dir/old.$ext"
  cp "$dir/old.$ext" "$dir/keep.$ext"
  (
    ulimit -f 2
    "$cli" render "$circuit" "$dir/keep.$ext" >"$dir/out" 2>"$dir/err"
    echo $? >"$dir/status"
  )
  [ "$(cat "$dir/status")" -eq 1 ] || fail "$ext: a failed render over a file exited $(cat "$dir/status")"
  cmp -s "$dir/old.$ext" "$dir/keep.$ext" || fail "$ext: a failed render changed the old file"

  ls "$dir" | grep -q 'tmp-' && fail "$ext: a temporary is left: $(ls "$dir")"

  # and without the limit the same render succeeds and replaces it
  "$cli" render "$circuit" "$dir/keep.$ext" 2>"$dir/err" || fail "$ext: render failed: $(cat "$dir/err")"
  [ "$(stat -c %s "$dir/keep.$ext")" -gt 2048 ] || fail "$ext: the drawing is only $(stat -c %s "$dir/keep.$ext") bytes"
  ls "$dir" | grep -q 'tmp-' && fail "$ext: a complete render left a temporary: $(ls "$dir")"
done

# a render that fails before drawing (--at beyond what the run can reach is
# refused as a usage error) creates nothing either
"$cli" render "$circuit" "$dir/at.svg" --at 1e999 2>"$dir/err"
st=$?
[ "$st" -eq 2 ] || fail "--at 1e999 exited $st, not 2"
[ -e "$dir/at.svg" ] && fail "--at 1e999 left at.svg"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo ok
