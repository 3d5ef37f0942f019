#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# sweep under MPI (issue 16): `mpirun -n 2` and `-n 3` (on this machine,
# --oversubscribe) write the same bytes as --jobs 1 and --jobs 2, to
# stdout and to -o (the runs in child processes, the default, and with
# --no-isolate in threads), and ranks other than 0 ran some of the runs
# (the final progress line counts them). Skipped (77) in a build without MPI, after
# checking that such a build refuses to run under mpirun.
# Usage: sweep-mpi.sh BRAMAH_CLI CIRCUIT HAVE_MPI(0|1)
set -u
cli=$1
circuit=$2
have_mpi=$3
if [ "$have_mpi" != 1 ]; then
  # started by mpirun all the same, it refuses rather than run the study once per rank
  if command -v mpirun >/dev/null; then
    mpirun --allow-run-as-root --oversubscribe -n 2 "$cli" sweep "$circuit" --vary G1.damping_ratio=0:1:3 \
      --metric final:E1.Y >/dev/null 2>"${TMPDIR:-/tmp}/sweep-mpi-err.$$"
    grep -q 'built without MPI' "${TMPDIR:-/tmp}/sweep-mpi-err.$$" \
      || { echo "FAIL: under mpirun without MPI: $(cat "${TMPDIR:-/tmp}/sweep-mpi-err.$$")"; rm -f "${TMPDIR:-/tmp}/sweep-mpi-err.$$"; exit 1; }
    rm -f "${TMPDIR:-/tmp}/sweep-mpi-err.$$"
  fi
  echo "SKIP: bramah-cli was built without MPI (meson -Dmpi=enabled with Debian's libopenmpi-dev and openmpi-bin)"
  exit 77
fi
command -v mpirun >/dev/null || { echo "FAIL: built with MPI but no mpirun on PATH (Debian's openmpi-bin)"; exit 1; }
fails=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail () { printf 'FAIL: %s\n' "$*"; fails=$((fails + 1)); }
export LC_ALL=C.UTF-8
mpirun="mpirun --allow-run-as-root --oversubscribe"

study="--vary G1.damping_ratio=normal:0.3:0.4 --vary G1.natural_frequency=5:15 --lhs 60 --seed 5"
study="$study --metric overshoot:G1.Y --metric settling:G1.Y --metric ise:E1.Y"
# shellcheck disable=SC2086
"$cli" sweep "$circuit" $study --jobs 1 -q >"$dir/j1.csv" 2>"$dir/err" || fail "--jobs 1 exited $?: $(cat "$dir/err")"
# shellcheck disable=SC2086
"$cli" sweep "$circuit" $study --jobs 2 -q >"$dir/j2.csv" 2>"$dir/err" || fail "--jobs 2 exited $?: $(cat "$dir/err")"
cmp -s "$dir/j1.csv" "$dir/j2.csv" || fail "--jobs 1 and 2 differ"
for n in 2 3; do
  # shellcheck disable=SC2086
  $mpirun -n $n "$cli" sweep "$circuit" $study >"$dir/m$n.csv" 2>"$dir/err$n" \
    || fail "mpirun -n $n exited $?: $(cat "$dir/err$n")"
  cmp -s "$dir/j1.csv" "$dir/m$n.csv" || fail "mpirun -n $n and --jobs 1 differ: $(diff "$dir/j1.csv" "$dir/m$n.csv" | head -n 4)"
  grep -q "60/60 runs.*; $n MPI ranks, [1-9][0-9]* runs on ranks other than 0" "$dir/err$n" \
    || fail "mpirun -n $n: no runs on the other ranks? $(tail -n 1 "$dir/err$n")"
done
# shellcheck disable=SC2086
$mpirun -n 2 "$cli" sweep "$circuit" $study -q -o "$dir/o.csv" 2>"$dir/err" || fail "mpirun -o exited $?: $(cat "$dir/err")"
cmp -s "$dir/j1.csv" "$dir/o.csv" || fail "mpirun -n 2 -o and --jobs 1 differ"
# the runs in threads instead of child processes: the same bytes
# shellcheck disable=SC2086
$mpirun -n 2 "$cli" sweep "$circuit" $study -q --no-isolate >"$dir/t.csv" 2>"$dir/err" \
  || fail "mpirun --no-isolate exited $?: $(cat "$dir/err")"
cmp -s "$dir/j1.csv" "$dir/t.csv" || fail "mpirun -n 2 --no-isolate and --jobs 1 differ"
# a usage error: every rank stops, rank 0 says why, once
$mpirun -n 2 "$cli" sweep "$circuit" --vary G1.damping_ratio=1:0:3 --metric final:E1.Y >/dev/null 2>"$dir/err"
st=$?
[ "$st" -ne 0 ] || fail "mpirun with a bad --vary exited 0"
[ "$(grep -c 'HI (0) is below LO (1)' "$dir/err")" -eq 1 ] || fail "mpirun with a bad --vary said: $(cat "$dir/err")"

[ "$fails" -eq 0 ] && echo "sweep-mpi: all checks passed"
exit $((fails > 0))
