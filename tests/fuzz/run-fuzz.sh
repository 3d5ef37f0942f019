#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer target in its own clang build directory and runs it
# for a bounded budget over the examples, with the dictionary
# (tests/fuzz/README.md). Prints one line "fuzz: N executions in S s, no
# finding" and exits 0, or names the reproducer and exits 1.
#
#   tests/fuzz/run-fuzz.sh                  # the CI budget
#   FUZZ_RUNS=10000000 FUZZ_TIME=0 tests/fuzz/run-fuzz.sh   # a long run
#
# Environment: FUZZ_RUNS (executions, default 200000), FUZZ_TIME (seconds,
# default 120; 0 = no limit), FUZZ_BUILD_DIR (default build-fuzz),
# FUZZ_CC (default clang-14), FUZZ_MAX_LEN (bytes, default 65536),
# FUZZ_TIMEOUT (seconds one input may take, wall clock, default 25; raise it
# on a machine shared with other work, where a starved process is not a hang).
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=${FUZZ_RUNS:-200000}
time_limit=${FUZZ_TIME:-120}
dir=${FUZZ_BUILD_DIR:-build-fuzz}
cc=${FUZZ_CC:-clang-14}
# Inputs stay below 64 kB to keep executions fast (the loader refuses
# nesting deeper than 64 levels before json-glib parses anything).
max_len=${FUZZ_MAX_LEN:-65536}
timeout=${FUZZ_TIMEOUT:-25}

# clang warns about the g_autofree variables GCC's -Wall accepts, so this
# build does not make warnings errors; the gcc builds do.
if [ -f "$dir/build.ninja" ]; then
  meson setup --reconfigure "$dir" -Dfuzz=true -Dgui=false -Dwerror=false >/dev/null
else
  CC=$cc meson setup "$dir" -Dfuzz=true -Dgui=false -Dwerror=false >/dev/null
fi
meson compile -C "$dir" fuzz-circuit >/dev/null

# New inputs go to a scratch corpus; the examples are only read.
corpus="$dir/fuzz-corpus"
findings="$dir/fuzz-findings"
mkdir -p "$corpus" "$findings"
log="$dir/fuzz.log"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
rc=0
"$dir/tests/fuzz/fuzz-circuit" \
  -dict=tests/fuzz/bramah.dict \
  -runs="$runs" -max_total_time="$time_limit" -max_len="$max_len" \
  -timeout="$timeout" -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$findings/" \
  "$corpus" data/examples >"$log" 2>&1 || rc=$?

execs=$(awk '/^stat::number_of_executed_units:/ {print $2}' "$log" | tail -n1)
secs=$(awk '/^Done [0-9]+ runs in/ {print $5}' "$log" | tail -n1)
if [ "$rc" -eq 0 ]; then
  echo "fuzz: ${execs:-?} executions in ${secs:-?} s, no finding (log: $log)"
  exit 0
fi
echo "fuzz: FINDING after ${execs:-?} executions (exit $rc); log: $log" >&2
grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz-circuit: FINDING|.*runtime error|artifact_prefix=|Test unit written)' "$log" >&2 || tail -n 40 "$log" >&2
echo "reproduce: $dir/tests/fuzz/fuzz-circuit <the file named above>" >&2
exit 1
