#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# sweep (issue 16): a row of a study equals `simulate --set` with the same
# value (its final:E1.Y is the last row of simulate's CSV, the same
# characters); --jobs 1, 2 and 3 write the same bytes, to stdout and to
# -o; a run the parameter refuses is a row with its status and message and
# the study exits 0; --resume on a file cut short (rows out of order, the
# last line cut in half) ends with the same bytes as the study run whole,
# and refuses a file of another study; an existing -o without --resume is
# refused and left alone; usage errors exit 2; a run of more than 10⁸
# samples, or runs at a time keeping more samples than half the memory
# (1024 × 10⁸ × 16 bytes), exit 1 before the first run, as does -o
# /dev/null (the rows are read back to be sorted).
# Usage: sweep.sh BRAMAH_CLI CIRCUIT (tests/cli/data/second-order-step.bramah)
set -u
cli=$1
circuit=$2
fails=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail () { printf 'FAIL: %s\n' "$*"; fails=$((fails + 1)); }
export LC_ALL=C.UTF-8

# 1. a row equals simulate --set
"$cli" sweep "$circuit" --vary G1.damping_ratio=0.2:1:5 --metric final:E1.Y --metric max:G1.Y -q \
  >"$dir/grid.csv" 2>"$dir/err" || fail "grid sweep exited $?: $(cat "$dir/err")"
head -n 1 "$dir/grid.csv" | grep -qx 'run,G1.damping_ratio,status,final:E1.Y,max:G1.Y,message' \
  || fail "header: $(head -n 1 "$dir/grid.csv")"
[ "$(wc -l <"$dir/grid.csv")" -eq 6 ] || fail "grid: $(wc -l <"$dir/grid.csv") lines, not 6"
for run in 1 2 4; do
  row=$(sed -n "$((run + 2))p" "$dir/grid.csv")
  value=$(printf '%s\n' "$row" | cut -d, -f2)
  metric=$(printf '%s\n' "$row" | cut -d, -f4)
  "$cli" simulate "$circuit" --set "G1.damping_ratio=$value" --vars E1.Y -o "$dir/sim.csv" 2>"$dir/err" \
    || fail "simulate --set G1.damping_ratio=$value exited $?: $(cat "$dir/err")"
  last=$(tail -n 1 "$dir/sim.csv" | cut -d, -f2)
  [ "$row" = "$run,$value,ok,$metric,$(printf '%s\n' "$row" | cut -d, -f5)," ] || fail "run $run: row '$row'"
  [ "$metric" = "$last" ] || fail "run $run (ζ = $value): sweep's final:E1.Y $metric, simulate --set's $last"
done

# 2. the same bytes for any --jobs; failed runs are rows
study="--vary G1.damping_ratio=normal:0.3:0.4 --vary G1.natural_frequency=5:15 --random 40 --seed 11"
study="$study --metric overshoot:G1.Y --metric settling:G1.Y:5% --metric time_to:G1.Y>=0.5 --metric itae:E1.Y"
for j in 1 2 3; do
  # shellcheck disable=SC2086
  "$cli" sweep "$circuit" $study --jobs $j -q >"$dir/j$j.csv" 2>"$dir/err$j" \
    || fail "--jobs $j exited $?: $(cat "$dir/err$j")"
done
cmp -s "$dir/j1.csv" "$dir/j2.csv" || fail "--jobs 1 and --jobs 2 differ: $(diff "$dir/j1.csv" "$dir/j2.csv" | head -n 4)"
cmp -s "$dir/j1.csv" "$dir/j3.csv" || fail "--jobs 1 and --jobs 3 differ"
# shellcheck disable=SC2086
"$cli" sweep "$circuit" $study --jobs 2 -q -o "$dir/o.csv" 2>"$dir/err" || fail "-o exited $?: $(cat "$dir/err")"
cmp -s "$dir/j1.csv" "$dir/o.csv" || fail "-o and stdout differ"
[ "$(wc -l <"$dir/j1.csv")" -eq 41 ] || fail "random 40: $(wc -l <"$dir/j1.csv") lines"
cut -d, -f1 "$dir/j1.csv" | tail -n +2 | tr '\n' ' ' | grep -qx "$(seq -s ' ' 0 39) " || fail "rows not sorted by run"
nbad=$(grep -c ',invalid-value,,,,,".*damping_ratio.*out of range' "$dir/j1.csv")
[ "$nbad" -gt 0 ] || fail "no refused ζ < 0 among 40 samples of N(0.3, 0.4): $(grep -v ',ok,' "$dir/j1.csv" | head -n 2)"
ngood=$(grep -c ',ok,' "$dir/j1.csv")
[ $((nbad + ngood)) -eq 40 ] || fail "$nbad refused and $ngood ok rows of 40"

# 3. --resume: the rows of runs 7, 3 and 20 (out of order) and half a row
# cut short; the study continued ends with the same bytes
{ head -n 1 "$dir/o.csv"; sed -n '9p;5p;22p' "$dir/o.csv"; sed -n '30p' "$dir/o.csv" | cut -c1-12 | tr -d '\n'; } \
  >"$dir/part.csv"
# shellcheck disable=SC2086
"$cli" sweep "$circuit" $study --jobs 2 -o "$dir/part.csv" --resume 2>"$dir/err" \
  || fail "--resume exited $?: $(cat "$dir/err")"
cmp -s "$dir/o.csv" "$dir/part.csv" || fail "--resume ended with other bytes: $(diff "$dir/o.csv" "$dir/part.csv" | head -n 4)"
grep -q '40/40 runs.*(3 from the file)' "$dir/err" || fail "--resume progress: $(tail -n 1 "$dir/err")"
# a finished file: nothing to run, the same bytes
# shellcheck disable=SC2086
"$cli" sweep "$circuit" $study -q -o "$dir/part.csv" --resume 2>"$dir/err" || fail "--resume of a finished study exited $?"
cmp -s "$dir/o.csv" "$dir/part.csv" || fail "--resume of a finished study changed it"
# another seed: other values for the same runs
cp "$dir/o.csv" "$dir/other.csv"
# shellcheck disable=SC2086
"$cli" sweep "$circuit" $study --seed 12 -q -o "$dir/other.csv" --resume 2>"$dir/err"
st=$?
[ "$st" -eq 1 ] || fail "--resume of another seed's file exited $st"
grep -q 'other values than this study' "$dir/err" || fail "--resume of another seed: $(cat "$dir/err")"
cmp -s "$dir/o.csv" "$dir/other.csv" || fail "a refused --resume changed the file"

# 4. an existing -o without --resume is refused and kept
"$cli" sweep "$circuit" --vary G1.damping_ratio=0.2:1:3 --metric final:E1.Y -q -o "$dir/o.csv" 2>"$dir/err"
st=$?
[ "$st" -eq 1 ] || fail "existing -o exited $st"
grep -q 'exists: --resume' "$dir/err" || fail "existing -o: $(cat "$dir/err")"
cmp -s "$dir/o.csv" "$dir/j1.csv" || fail "existing -o was changed"

# 5. usage errors exit 2, the circuit's refusals 1
for args in "--vary G1.damping_ratio=1:0:3 --metric final:E1.Y" \
            "--vary G1.damping_ratio=0:1 --metric final:E1.Y" \
            "--vary G1.damping_ratio=0:1:3 --metric median:E1.Y" \
            "--vary G1.damping_ratio=0:1:3" \
            "--vary G1.damping_ratio=0:1:3 --metric final:E1.Y --random 5" \
            "--vary G1.damping_ratio=0:1:3 --metric final:E1.Y --jobs 0" \
            "--vary G1.damping_ratio=0:1:3 --metric final:E1.Y --resume"; do
  # shellcheck disable=SC2086
  "$cli" sweep "$circuit" $args -q >/dev/null 2>"$dir/err"
  st=$?
  [ "$st" -eq 2 ] || fail "sweep $args exited $st, not 2: $(cat "$dir/err")"
done
for args in "--vary G9.gain=0:1:3 --metric final:E1.Y" \
            "--vary G1.damping_ratio=-1:1:3 --metric final:E1.Y" \
            "--vary G1.damping_ratio=0:1:3 --metric final:G1.nothing" \
            "--vary G1.damping_ratio=0:1:3 --metric final:E1.Y --output-interval 1e-8 --t-end 1e6" \
            "--vary G1.damping_ratio=0:1:3 --metric final:E1.Y --output-interval 1e-6 --t-end 99 --jobs 1024" \
            "--vary G1.damping_ratio=0:1:3 --metric final:E1.Y -o /dev/null"; do
  # shellcheck disable=SC2086
  "$cli" sweep "$circuit" $args -q >/dev/null 2>"$dir/err"
  st=$?
  [ "$st" -eq 1 ] || fail "sweep $args exited $st, not 1: $(cat "$dir/err")"
done

[ "$fails" -eq 0 ] && echo "sweep: all checks passed"
exit $((fails > 0))
