#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A circuit file of 1 MiB or more makes bramah-cli restart once with glibc's
# huge-page heap (app/bramah-cli.c): the run must say and do the same as
# without it (BRAMAH_HUGE_PAGES=0), restart exactly once, and a too-small
# file must not restart.
#   huge-pages.sh BRAMAH_CLI GEN_CHAIN_PY
set -eu
cli=$1
gen=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

python3 "$gen" 10000 "$dir/big.bramah"
python3 "$gen" 100 "$dir/small.bramah"
[ "$(wc -c <"$dir/big.bramah")" -ge 1048576 ] || { echo "big.bramah is under 1 MiB"; exit 1; }

for f in big small; do
  "$cli" check "$dir/$f.bramah" >"$dir/$f.on" 2>&1
  BRAMAH_HUGE_PAGES=0 "$cli" check "$dir/$f.bramah" >"$dir/$f.off" 2>&1
  cmp "$dir/$f.on" "$dir/$f.off"
  "$cli" describe "$dir/$f.bramah" >"$dir/$f.don" 2>&1
  BRAMAH_HUGE_PAGES=0 "$cli" describe "$dir/$f.bramah" >"$dir/$f.doff" 2>&1
  cmp "$dir/$f.don" "$dir/$f.doff"
done
grep -q 'OK — 10000 components' "$dir/big.on"

# the number of programs the run executes: 2 (one restart) for the large
# file, 1 for the small one and with BRAMAH_HUGE_PAGES=0
if command -v strace >/dev/null 2>&1; then
  n=$(strace -f -e trace=execve -o "$dir/trace" "$cli" check "$dir/big.bramah" >/dev/null 2>&1; grep -c 'execve(' "$dir/trace")
  [ "$n" -eq 2 ] || { echo "big file: $n execs, expected 2"; exit 1; }
  n=$(strace -f -e trace=execve -o "$dir/trace" "$cli" check "$dir/small.bramah" >/dev/null 2>&1; grep -c 'execve(' "$dir/trace")
  [ "$n" -eq 1 ] || { echo "small file: $n execs, expected 1"; exit 1; }
  n=$(BRAMAH_HUGE_PAGES=0 strace -f -e trace=execve -o "$dir/trace" "$cli" check "$dir/big.bramah" >/dev/null 2>&1; grep -c 'execve(' "$dir/trace")
  [ "$n" -eq 1 ] || { echo "BRAMAH_HUGE_PAGES=0: $n execs, expected 1"; exit 1; }
fi
echo "huge pages: same output with and without, one restart for a large file"
