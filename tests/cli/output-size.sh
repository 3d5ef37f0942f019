#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# output-size: a run's output is bounded before the run starts (issue 9,
# item 6). More than 10^8 samples (t_end / output_interval) are refused
# whether the interval comes from the file or from --output-interval; a CSV
# larger than the free space of its file system is refused with its
# estimated size; neither leaves a file or touches an old one.
# Usage: output-size.sh BRAMAH_CLI CIRCUIT (a circuit with a node at "V1.P")
set -u
cli=$1
circuit=$2
fails=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail () { printf 'FAIL: %s\n' "$*"; fails=$((fails + 1)); }

printf 'old,csv\n1,2\n' >"$dir/old.csv"

# run EXPECTED_STATUS ARGS...: the CLI under a 20 s limit, -o to a copy of
# old.csv; the copy must be unchanged and no temporary left
run () {
  want=$1
  shift
  cp "$dir/old.csv" "$dir/keep.csv"
  timeout 20 "$cli" "$@" >"$dir/out" 2>"$dir/err"
  st=$?
  [ "$st" -eq "$want" ] || fail "$* exited $st, not $want: $(head -c 400 "$dir/err")"
  cmp -s "$dir/old.csv" "$dir/keep.csv" || fail "$*: the old CSV changed"
  ls "$dir" | grep -q 'tmp-' && fail "$*: a temporary is left: $(ls "$dir")"
  rm -f "$dir"/keep.tmp-*
}

# the issue's reproducer: a small file whose output_interval asks for 10^12
# samples (up to 50 TB of CSV)
sed 's/"simulation": {[^}]*}/"simulation": { "t_end": 1000, "output_interval": 1e-9 }/' "$circuit" >"$dir/huge.bramah"
run 1 simulate "$dir/huge.bramah" -o "$dir/keep.csv"
grep -q "t_end 1000 s with output_interval 1e-09 s gives 1000000000002 output samples (a CSV of up to 50.0.*TB), more than the 100000000 a run may report: raise simulation.output_interval (--output-interval) or lower simulation.t_end (--t-end)" "$dir/err" \
  || fail "no sample-cap message: $(cat "$dir/err")"
run 1 simulate "$dir/huge.bramah" --summary
grep -q "gives 1000000000002 output samples, more than the 100000000 a run may report" "$dir/err" \
  || fail "--summary: $(cat "$dir/err")"
# the same from the options
run 1 simulate "$circuit" --t-end 10 --output-interval 1e-8 -o "$dir/keep.csv"
grep -q "t_end 10 s with output_interval 1e-08 s gives 1000000002 output samples" "$dir/err" \
  || fail "options: $(cat "$dir/err")"
# the run itself refuses it (hyd_run_execute), for render --at as for the GUI
run 1 render "$dir/huge.bramah" "$dir/keep.svg" --at 1
grep -q "the simulation to t = 1 s failed: t_end 1 s with output_interval 1e-09 s gives 1000000002 output samples, more than the 100000000 a run may report" "$dir/err" \
  || fail "render --at: $(cat "$dir/err")"
[ -e "$dir/keep.svg" ] && fail "render --at: a drawing was written"
# jacobian-check samples at its own --points, not at the file's interval
run 0 jacobian-check "$dir/huge.bramah" --points 3

# a CSV larger than the disk: 95 000 001 rows of 20 001 columns are up to
# 47.5 TB (25 bytes a column; GLib writes "47.5 TB" with a no-break space)
vars=$(seq 20000 | sed 's/.*/V1.P/' | paste -sd, -)
need=$((95000002 * 25 * 20001))
avail=$(df -B1 --output=avail "$dir" | tail -n 1)
if [ "$avail" -lt "$need" ]; then
  run 1 simulate "$circuit" --t-end 1900 --output-interval 2e-5 --vars "$vars" -o "$dir/keep.csv"
  grep -q "the CSV would take up to 47.5.*TB (95000002 rows of 20001 columns: t_end 1900 s, output_interval 2e-05 s) but $dir/keep.csv has only .* free: raise simulation.output_interval (--output-interval), lower simulation.t_end (--t-end) or choose fewer --vars" "$dir/err" \
    || fail "no disk message: $(cat "$dir/err")"
  # standard output redirected to a file is measured the same way
  cp "$dir/old.csv" "$dir/keep.csv"
  timeout 20 "$cli" simulate "$circuit" --t-end 1900 --output-interval 2e-5 --vars "$vars" >"$dir/stdout.csv" 2>"$dir/err"
  st=$?
  [ "$st" -eq 1 ] || fail "stdout to a file: exited $st, not 1"
  grep -q "the CSV would take up to 47.5.*TB .* but standard output has only .* free" "$dir/err" \
    || fail "stdout to a file: $(cat "$dir/err")"
  [ -s "$dir/stdout.csv" ] && fail "stdout to a file: rows were written before the refusal"
else
  echo "skipped the disk check: $avail bytes free, more than $need"
fi

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo ok
