#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Crash isolation and the time limit a run (issue 16). The runs run in
# child processes by default (--isolate, said here all the same); with
# --no-isolate in threads.
#  1. sweep --isolate writes the same bytes as --no-isolate (--jobs 1, 2, 3,
#     failed runs included), to stdout and to -o; so does the default.
#  2. Runs made to crash (SIGSEGV, SIGABRT, SIGFPE, SIGKILL, an exit) by the
#     test-only fault injector crash-inject.so (LD_PRELOAD; bramah-cli has
#     no crash path): with --isolate each is a row "crashed" naming the
#     signal, every other row is byte for byte that of the study without
#     the crash, and the study exits 0; with --no-isolate the first crash
#     ends the whole study (killed by the signal).
#  3. --timeout 1 on a study where one value makes the run very slow (ω =
#     10⁹ rad/s with the explicit dopri5: millions of steps): those rows
#     are "timeout" naming the limit and the simulated time reached, the
#     others equal those of a study of the fast values alone, with threads
#     and with --isolate, and the study ends in bounded time; a run stuck
#     outside the solver (the injector sleeps) is killed with --isolate at
#     2·limit + 1 s.
#  4. SIGTERM or SIGINT to an isolated study leaves no child process
#     behind.
#  5. Under mpirun (a build with MPI): the crash rows and all other rows as
#     with --jobs 1.
#  6. optimize --isolate (a build with NLopt): the same evaluations as
#     --no-isolate, and a crashed evaluation, or a stuck one with
#     --timeout, is a row and counts as failed.
#  7. --timeout's usage errors exit 2.
# Usage: sweep-isolate.sh BRAMAH_CLI CIRCUIT CRASH_INJECT_SO HAVE_MPI(0|1) HAVE_NLOPT(0|1)
set -u
cli=$1
circuit=$2
inject=$3
have_mpi=$4
have_nlopt=$5
fails=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail () { printf 'FAIL: %s\n' "$*"; fails=$((fails + 1)); }
export LC_ALL=C.UTF-8

# 1. the same bytes as the threads
study="--vary G1.damping_ratio=normal:0.3:0.4 --vary G1.natural_frequency=5:15 --random 40 --seed 11"
study="$study --metric overshoot:G1.Y --metric settling:G1.Y:5% --metric itae:E1.Y"
# shellcheck disable=SC2086
"$cli" sweep "$circuit" $study --no-isolate --jobs 1 -q >"$dir/t1.csv" 2>"$dir/err" || fail "threads exited $?: $(cat "$dir/err")"
grep -q ',invalid-value,' "$dir/t1.csv" || fail "the random study has no failed run to compare"
for j in 1 2 3; do
  # shellcheck disable=SC2086
  "$cli" sweep "$circuit" $study --isolate --jobs $j -q >"$dir/i$j.csv" 2>"$dir/err" \
    || fail "--isolate --jobs $j exited $?: $(cat "$dir/err")"
  cmp -s "$dir/t1.csv" "$dir/i$j.csv" || fail "--isolate --jobs $j and the threads differ: $(diff "$dir/t1.csv" "$dir/i$j.csv" | head -n 4)"
done
# shellcheck disable=SC2086
"$cli" sweep "$circuit" $study --isolate --jobs 2 -q -o "$dir/io.csv" 2>"$dir/err" || fail "--isolate -o exited $?"
cmp -s "$dir/t1.csv" "$dir/io.csv" || fail "--isolate -o and the threads differ"
# shellcheck disable=SC2086
"$cli" sweep "$circuit" $study -q >"$dir/d.csv" 2>"$dir/err" || fail "the default exited $?"
cmp -s "$dir/t1.csv" "$dir/d.csv" || fail "the default and the threads differ"

# 2. crashes: the grid 0.2, 0.30000000000000004, 0.4, ..., 1 (nine runs);
# runs 2, 3, 4, 6 and 7 crash, each its own way (not run 5: 0.7 is the
# circuit's own value, which the parent reads from the file)
grid="--vary G1.damping_ratio=0.2:1:9 --metric final:E1.Y --metric max:G1.Y --metric itae:E1.Y"
# shellcheck disable=SC2086
"$cli" sweep "$circuit" $grid --no-isolate -q >"$dir/base.csv" 2>"$dir/err" || fail "the grid exited $?: $(cat "$dir/err")"
sed -n '4p' "$dir/base.csv" | grep -q '^2,0.4,ok,' || fail "run 2 of the grid is not 0.4: $(sed -n 4p "$dir/base.csv")"
sed '4,6d;8,9d' "$dir/base.csv" >"$dir/base-kept.csv"
crash="0.4:SEGV,0.5:ABRT,0.6:FPE,0.8:KILL,0.9:EXIT"
for j in 1 2; do
  # shellcheck disable=SC2086
  LD_PRELOAD=$inject BRAMAH_TEST_CRASH=$crash "$cli" sweep "$circuit" $grid --isolate --jobs $j -o "$dir/c$j.csv" \
    2>"$dir/err"
  st=$?
  [ "$st" -eq 0 ] || fail "--isolate --jobs $j with crashes exited $st: $(cat "$dir/err")"
  for expect in "2,0.4,crashed,,,,the run's process was killed by SIGSEGV (an invalid memory access)" \
                "3,0.5,crashed,,,,the run's process was killed by SIGABRT (aborted: a failed check or memory exhausted)" \
                "4,0.6,crashed,,,,the run's process was killed by SIGFPE (an arithmetic exception)" \
                "6,0.8,crashed,,,,the run's process was killed by SIGKILL (killed: by the out-of-memory killer or a user)" \
                "7,0.9,crashed,,,,the run's process exited with status 3"; do
    grep -qxF "$expect" "$dir/c$j.csv" || fail "--jobs $j: no row '$expect': $(grep ',crashed,' "$dir/c$j.csv" | head -n 5)"
  done
  grep -v ',crashed,' "$dir/c$j.csv" >"$dir/kept.csv"
  cmp -s "$dir/base-kept.csv" "$dir/kept.csv" \
    || fail "--jobs $j: the rows of the runs that did not crash differ: $(diff "$dir/base-kept.csv" "$dir/kept.csv" | head -n 4)"
  grep -q '9/9 runs, 5 failed' "$dir/err" || fail "--jobs $j progress: $(tail -n 1 "$dir/err")"
done
cmp -s "$dir/c1.csv" "$dir/c2.csv" || fail "crashes: --jobs 1 and 2 differ"
# the default isolates too
# shellcheck disable=SC2086
LD_PRELOAD=$inject BRAMAH_TEST_CRASH=$crash "$cli" sweep "$circuit" $grid --jobs 2 -q >"$dir/cd.csv" 2>"$dir/err" \
  || fail "the default with crashes exited $?: $(cat "$dir/err")"
cmp -s "$dir/c1.csv" "$dir/cd.csv" || fail "crashes: --isolate and the default differ"
# with --no-isolate the first crash is the end of the study
# shellcheck disable=SC2086
LD_PRELOAD=$inject BRAMAH_TEST_CRASH=0.4:SEGV "$cli" sweep "$circuit" $grid --no-isolate --jobs 1 -q >/dev/null 2>&1
st=$?
[ "$st" -gt 128 ] || fail "a crash with --no-isolate exited $st, not by a signal (is the injector working?)"

# 3. --timeout: ω = 10⁹ rad/s with dopri5 takes millions of steps
slow="--vary G1.damping_ratio=0.3:0.9:3 --vary G1.natural_frequency=10:1e9:2 --solver dopri5"
fast="--vary G1.damping_ratio=0.3:0.9:3 --vary G1.natural_frequency=10:10:1 --solver dopri5"
metrics="--metric final:E1.Y --metric max:G1.Y"
# shellcheck disable=SC2086
"$cli" sweep "$circuit" $fast $metrics --no-isolate -q >"$dir/fast.csv" 2>"$dir/err" || fail "the fast runs exited $?: $(cat "$dir/err")"
# the fast rows as runs 0, 2, 4 of the slow study: "k,ζ,10,..." → "2k,ζ,10,..."
awk -F, 'NR > 1 { sub(/^[0-9]+/, 2 * $1); print }' "$dir/fast.csv" >"$dir/fast-rows.csv"
for mode in "--no-isolate" "--isolate"; do
  start=$(date +%s)
  # shellcheck disable=SC2086
  "$cli" sweep "$circuit" $slow $metrics --timeout 1 --jobs 2 $mode -q >"$dir/slow.csv" 2>"$dir/err"
  st=$?
  secs=$(($(date +%s) - start))
  [ "$st" -eq 0 ] || fail "--timeout 1 $mode exited $st: $(cat "$dir/err")"
  [ "$secs" -le 30 ] || fail "--timeout 1 $mode: the study of three 1 s runs on 2 jobs took $secs s"
  for run in 1 3 5; do
    grep -q "^$run,[0-9.]*,1000000000,timeout,,,over the limit of --timeout 1 s (wall clock): stopped at t = [0-9.e+-]* s of 10 s\$" \
      "$dir/slow.csv" || fail "--timeout 1 $mode: run $run: $(grep "^$run," "$dir/slow.csv")"
  done
  grep ',ok,' "$dir/slow.csv" | cmp -s - "$dir/fast-rows.csv" \
    || fail "--timeout 1 $mode: the ok rows differ from the study without the slow runs: $(grep ',ok,' "$dir/slow.csv" | diff - "$dir/fast-rows.csv" | head -n 4)"
done
# a run stuck where the solver does not look (the injector sleeps an hour)
start=$(date +%s)
# shellcheck disable=SC2086
LD_PRELOAD=$inject BRAMAH_TEST_CRASH=0.6:HANG "$cli" sweep "$circuit" $fast $metrics --timeout 0.5 --isolate --jobs 2 -q \
  >"$dir/hang.csv" 2>"$dir/err"
st=$?
secs=$(($(date +%s) - start))
[ "$st" -eq 0 ] || fail "a stuck run exited $st: $(cat "$dir/err")"
[ "$secs" -le 30 ] || fail "a stuck run with --timeout 0.5: the study took $secs s"
grep -qxF "1,0.6,10,timeout,,,over the limit of --timeout 0.5 s (wall clock): the run did not stop at its solver's next step; its process was killed at 2 s" \
  "$dir/hang.csv" || fail "a stuck run: $(grep '^1,' "$dir/hang.csv")"
sed '3d' "$dir/fast.csv" | cmp -s - "$(grep -v ',timeout,' "$dir/hang.csv" >"$dir/hang-kept.csv"; echo "$dir/hang-kept.csv")" \
  || fail "a stuck run: the other rows differ"

# 4. SIGTERM (a cluster's time limit) or SIGINT to an isolated study's
# process alone: its children go too (the kernel kills them with their
# parent). The study is started by python3 with SIGINT at its default
# action (a background job of sh ignores it) in a session of its own.
alive () { # a process that is there and not a zombie
  kill -0 "$1" 2>/dev/null && ! grep -q '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null
}
for sig in TERM INT; do
  # shellcheck disable=SC2086
  pid=$(python3 -c 'import os, signal, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
print(p.pid)' "$cli" sweep "$circuit" $slow $metrics --isolate --jobs 2 -q)
  children=""
  for _ in $(seq 1 100); do
    children=$(pgrep -P "$pid" | tr '\n' ' ')
    [ "$(echo "$children" | wc -w)" -ge 2 ] && break
    sleep 0.1
  done
  [ -n "$children" ] || fail "SIG$sig: the isolated study started no child process"
  kill -"$sig" "$pid"
  left=""
  for _ in $(seq 1 50); do
    left=""
    for c in $pid $children; do
      alive "$c" && left="$left $c"
    done
    [ -z "$left" ] && break
    sleep 0.1
  done
  # shellcheck disable=SC2086
  [ -z "$left" ] || { fail "SIG$sig: processes$left (the study $pid) are still there"; kill -KILL $left 2>/dev/null; }
done

# 5. under mpirun: every rank its own child processes
if [ "$have_mpi" = 1 ] && command -v mpirun >/dev/null; then
  # shellcheck disable=SC2086
  mpirun --allow-run-as-root --oversubscribe -n 2 -x LD_PRELOAD="$inject" -x BRAMAH_TEST_CRASH="$crash" \
    "$cli" sweep "$circuit" $grid --isolate >"$dir/m.csv" 2>"$dir/err"
  st=$?
  [ "$st" -eq 0 ] || fail "mpirun -n 2 --isolate with crashes exited $st: $(cat "$dir/err")"
  cmp -s "$dir/c1.csv" "$dir/m.csv" || fail "mpirun -n 2 --isolate and --jobs 1 differ: $(diff "$dir/c1.csv" "$dir/m.csv" | head -n 4)"
  grep -q '9/9 runs.*; 2 MPI ranks, [1-9][0-9]* runs on ranks other than 0' "$dir/err" \
    || fail "mpirun -n 2 --isolate: no runs on rank 1? $(tail -n 1 "$dir/err")"
  # shellcheck disable=SC2086
  mpirun --allow-run-as-root --oversubscribe -n 2 "$cli" sweep "$circuit" $slow $metrics --timeout 1 --no-isolate -q \
    >"$dir/ms.csv" 2>"$dir/err" || fail "mpirun --timeout exited $?: $(cat "$dir/err")"
  [ "$(grep -c ',timeout,' "$dir/ms.csv")" -eq 3 ] || fail "mpirun --timeout: $(cat "$dir/ms.csv")"
  grep ',ok,' "$dir/ms.csv" | cmp -s - "$dir/fast-rows.csv" || fail "mpirun --timeout: the ok rows differ"
fi

# 6. optimize --isolate
if [ "$have_nlopt" = 1 ]; then
  opt="--vary G1.damping_ratio=0.1:2 --minimize ise:E1.Y"
  # shellcheck disable=SC2086
  "$cli" optimize "$circuit" $opt -q --no-isolate -o "$dir/o.csv" >"$dir/o.out" 2>"$dir/err" || fail "optimize exited $?"
  # shellcheck disable=SC2086
  "$cli" optimize "$circuit" $opt -q --isolate -o "$dir/oi.csv" >"$dir/oi.out" 2>"$dir/err" \
    || fail "optimize --isolate exited $?: $(cat "$dir/err")"
  cmp -s "$dir/o.csv" "$dir/oi.csv" || fail "optimize --isolate evaluated otherwise"
  cmp -s "$dir/o.out" "$dir/oi.out" || fail "optimize --isolate found otherwise"
  # its second evaluation crashes (the first is the circuit's own 0.7,
  # which the parent reads from the file: no value of its own may crash)
  second=$(sed -n '3p' "$dir/o.csv" | cut -d, -f2)
  # shellcheck disable=SC2086
  LD_PRELOAD=$inject BRAMAH_TEST_CRASH="$second:SEGV" "$cli" optimize "$circuit" $opt --isolate -o "$dir/oc.csv" \
    >"$dir/oc.out" 2>"$dir/err"
  st=$?
  [ "$st" -eq 0 ] || fail "optimize --isolate with a crash exited $st: $(cat "$dir/err")"
  grep -qxF "1,$second,crashed,,the run's process was killed by SIGSEGV (an invalid memory access)" "$dir/oc.csv" \
    || fail "optimize: the crashed evaluation's row: $(sed -n 3p "$dir/oc.csv")"
  grep -q 'runs (1 failed)' "$dir/err" || fail "optimize with a crash: $(tail -n 1 "$dir/err")"
  # a stuck evaluation: killed at 2·0.5 + 1 s, a failed one
  # shellcheck disable=SC2086
  LD_PRELOAD=$inject BRAMAH_TEST_CRASH="$second:HANG" "$cli" optimize "$circuit" $opt --timeout 0.5 -o "$dir/oh.csv" \
    >"$dir/oh.out" 2>"$dir/err"
  st=$?
  [ "$st" -eq 0 ] || fail "optimize with a stuck evaluation exited $st: $(cat "$dir/err")"
  grep -qxF "1,$second,timeout,,over the limit of --timeout 0.5 s (wall clock): the run did not stop at its solver's next step; its process was killed at 2 s" \
    "$dir/oh.csv" || fail "optimize: the stuck evaluation's row: $(sed -n 3p "$dir/oh.csv")"
  cmp -s "$dir/oc.out" "$dir/oh.out" || fail "optimize: a stuck evaluation and a crashed one led elsewhere"
fi

# 7. usage errors
for t in 0 -1 abc 1e8; do
  # shellcheck disable=SC2086
  "$cli" sweep "$circuit" $grid --timeout "$t" -q >/dev/null 2>"$dir/err"
  st=$?
  [ "$st" -eq 2 ] || fail "--timeout $t exited $st, not 2: $(cat "$dir/err")"
done

[ "$fails" -eq 0 ] && echo "sweep-isolate: all checks passed"
exit $((fails > 0))
