#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# full-disk: bramah-cli on a file system that is really full (issue 9,
# items 6 and 10). A small tmpfs, mounted in a user and mount namespace
# (skipped, status 77, where unprivileged namespaces are not allowed):
#  - a CSV larger than the free space is refused before the run, with its
#    estimated size and the free space;
#  - the disk filling up during `simulate -o` is reported as "No space left
#    on device (disk full)" with the file, not as a cancelled run; the old
#    CSV is intact and the temporary gone;
#  - `render` and `bench --csv` on the full disk leave no file.
# Usage: full-disk.sh BRAMAH_CLI CIRCUIT RENDER_CIRCUIT
set -u
cli=$1
circuit=$2
drawing=$3

if [ "${FULL_DISK_INSIDE:-}" != 1 ]; then
  unshare --user --map-root-user --mount true 2>/dev/null || { echo "skip: no user namespaces"; exit 77; }
  FULL_DISK_INSIDE=1 exec unshare --user --map-root-user --mount sh "$0" "$@"
fi

fails=0
dir=$(mktemp -d)
trap 'umount "$dir/fs" 2>/dev/null; rm -rf "$dir"' EXIT
fail () { printf 'FAIL: %s\n' "$*"; fails=$((fails + 1)); }
mkdir "$dir/fs"
mount -t tmpfs -o size=16m none "$dir/fs" || { echo "skip: cannot mount a tmpfs"; exit 77; }
fs=$dir/fs
printf 'old,csv\n1,2\n' >"$dir/old.csv"
notmp () { ls "$fs" | grep -q 'tmp-' && fail "$1: a temporary is left: $(ls "$fs")"; }

# ---- refused before the run: 5 000 002 rows of 2 columns, up to 250 MB ----
cp "$dir/old.csv" "$fs/out.csv"
"$cli" simulate "$circuit" --output-interval 1e-7 -o "$fs/out.csv" >"$dir/out" 2>"$dir/err"
st=$?
[ "$st" -eq 1 ] || fail "a CSV larger than the disk: exited $st, not 1"
grep -q "the CSV would take up to 250.0.*MB (5000002 rows of 2 columns: t_end 0.5 s, output_interval 1e-07 s) but $fs/out.csv has only 16.8.*MB free" "$dir/err" \
  || fail "no refusal naming the size: $(cat "$dir/err")"
cmp -s "$dir/old.csv" "$fs/out.csv" || fail "the refusal changed the old CSV"
notmp "refusal"
# the same run as HDF5: 8 bytes a value, 80 MB and the names and metadata
"$cli" simulate "$circuit" --output-interval 1e-7 -o "$fs/out.h5" >"$dir/out" 2>"$dir/err"
st=$?
[ "$st" -eq 1 ] || fail "an HDF5 file larger than the disk: exited $st, not 1"
grep -q "the HDF5 file would take up to 80.0.*MB (5000002 rows of 2 columns, 8 bytes a value: t_end 0.5 s, output_interval 1e-07 s) but $fs/out.h5 has only 16.8.*MB free" "$dir/err" \
  || fail "no HDF5 refusal naming the size: $(cat "$dir/err")"
[ ! -e "$fs/out.h5" ] || fail "the HDF5 refusal left out.h5"
notmp "HDF5 refusal"

# ---- the disk fills up during the run ----
# 300 001 rows of up to 50 bytes (15.0 MB) fit in 16 MB before the run; a
# file filling the rest once the rows flow makes a write fail. A 200 Hz
# flow keeps the solver stepping (about 1 s of work), so the rows still
# flow when the disk fills: a steady state took 0.1 s, less than the fill.
"$cli" simulate "$circuit" --t-end 300 --output-interval 1e-3 \
  --set 'FS1.flow={"sine": {"offset": 1e-3, "amplitude": 5e-4, "frequency": 200}}' \
  -o "$fs/out.csv" >"$dir/out" 2>"$dir/err" &
pid=$!
n=0
until [ "$(find "$fs" -name 'out.tmp-*.csv' -size +64k | wc -l)" -ge 1 ]; do
  n=$((n + 1))
  [ "$n" -gt 300 ] && { fail "the run wrote no temporary in 30 s"; break; }
  sleep 0.05
done
dd if=/dev/zero of="$fs/fill" bs=64k 2>/dev/null
wait "$pid"
st=$?
[ "$st" -eq 1 ] || fail "disk full during the run: exited $st, not 1: $(cat "$dir/err")"
grep -q "cannot write $fs/out.csv: No space left on device (disk full)" "$dir/err" \
  || fail "disk full during the run: $(cat "$dir/err")"
grep -q "cancelled\|output callback" "$dir/err" && fail "disk full blamed on the run: $(cat "$dir/err")"
cmp -s "$dir/old.csv" "$fs/out.csv" || fail "disk full during the run changed the old CSV"
notmp "disk full during the run"

# ---- render and bench on the full disk ----
# (the removed temporary freed its space: fill it again)
dd if=/dev/zero of="$fs/fill2" bs=4k 2>/dev/null
"$cli" render "$drawing" "$fs/x.svg" >"$dir/out" 2>"$dir/err"
st=$?
[ "$st" -eq 1 ] || fail "render on a full disk exited $st, not 1"
[ -e "$fs/x.svg" ] && fail "render on a full disk left x.svg ($(stat -c %s "$fs/x.svg") bytes)"
notmp "render"
"$cli" bench --circuit "$circuit" --rtol 1e-4 --repeat 1 --csv "$fs/b.csv" >"$dir/out" 2>"$dir/err"
st=$?
[ "$st" -eq 1 ] || fail "bench --csv on a full disk exited $st, not 1"
grep -q "cannot write $fs/b.csv: No space left on device (disk full)" "$dir/err" || fail "bench: $(cat "$dir/err")"
[ -e "$fs/b.csv" ] && fail "bench --csv on a full disk left b.csv"
notmp "bench"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo ok
