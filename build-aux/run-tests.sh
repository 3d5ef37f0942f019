#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Sets everything up and runs every test: the normal build (warnings are
# errors; GUI tests inside a virtual X server), the engine, symbol, example
# and fuzz-replay suites again under AddressSanitizer +
# UndefinedBehaviorSanitizer (a build without the GUI), then a bounded
# libFuzzer run over the loader, compiler and solvers (tests/fuzz/run-fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash build-aux/setup.sh

configure () { # dir, options...
  local dir=$1; shift
  if [ -f "$dir/build.ninja" ]; then
    meson setup --reconfigure "$dir" "$@" >/dev/null
  else
    meson setup "$dir" "$@" >/dev/null
  fi
}

total_ok=0; total_fail=0
WRAP=()
run_suite () { # dir, meson test args... (prefixed with the command in WRAP)
  local dir=$1; shift
  local log; log=$(mktemp)
  local rc=0
  "${WRAP[@]}" meson test -C "$dir" --print-errorlogs "$@" 2>&1 | tee "$log" || rc=$?
  local ok fail to
  ok=$(awk '/^Ok:/ {print $2}' "$log" | tail -n1)
  fail=$(awk '/^Fail:/ {print $2}' "$log" | tail -n1)
  to=$(awk '/^Timeout:/ {print $2}' "$log" | tail -n1)
  total_ok=$((total_ok + ${ok:-0})); total_fail=$((total_fail + ${fail:-0} + ${to:-0}))
  rm -f "$log"
  return $rc
}

status=0
# Open MPI and NLopt (setup.sh installs them) are required here, so that
# CI runs the mpirun and optimize tests instead of skipping them.
configure build -Dwerror=true -Dmpi=enabled -Dnlopt=enabled
meson compile -C build
WRAP=(xvfb-run -a -s "-screen 0 1280x800x24")
run_suite build || status=1
WRAP=()

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export G_SLICE=always-malloc
configure build-sanitize -Dgui=false -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false -Dwerror=true
meson compile -C build-sanitize
run_suite build-sanitize --suite engine --suite symbols --suite examples --suite fuzz || status=1

# The fuzz run counts as one test: passed when it ends without a finding.
if bash tests/fuzz/run-fuzz.sh; then
  total_ok=$((total_ok + 1))
else
  total_fail=$((total_fail + 1)); status=1
fi

echo
echo "Summary: ${total_ok} passed, ${total_fail} failed"
exit $status
