#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# optimize (issue 16) against an optimum known analytically: the error
# e = 1 − y of a unit step into ω²/(s² + 2ζω·s + ω²) has
# ISE = ∫e² dt = (1 + 4ζ²)/(4ζω), least at ζ = 1/2 whatever ω (Ogata,
# Modern Control Engineering, 2010, the ISE of a second-order system); for
# ω = 10 rad/s it is 0.1. Each method finds ζ within 0.01 of 1/2 and the
# ISE within 1 % of 0.1; with ω free in [5, 20] as well, BOBYQA stops at
# the bound ω = 20 (ISE 0.05). Every run is a row of -o FILE. A build
# without NLopt says so (exit 1), and the test is skipped (77).
# Usage: optimize.sh BRAMAH_CLI CIRCUIT (tests/cli/data/second-order-step.bramah) HAVE_NLOPT(0|1)
set -u
cli=$1
circuit=$2
have=$3
fails=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail () { printf 'FAIL: %s\n' "$*"; fails=$((fails + 1)); }
export LC_ALL=C.UTF-8

if [ "$have" != 1 ]; then
  "$cli" optimize "$circuit" --vary G1.damping_ratio=0.1:2 --minimize ise:E1.Y >/dev/null 2>"$dir/err"
  st=$?
  [ "$st" -eq 1 ] && grep -q 'built without NLopt' "$dir/err" \
    || { echo "FAIL: optimize without NLopt exited $st: $(cat "$dir/err")"; exit 1; }
  echo "SKIP: bramah-cli was built without NLopt (meson -Dnlopt=enabled with Debian's libnlopt-dev); it says so"
  exit 77
fi

near () { # value, target, tolerance
  awk -v v="$1" -v t="$2" -v e="$3" 'BEGIN { d = v - t; if (d < 0) d = -d; exit !(v == v + 0 && d <= e) }'
}
for method in bobyqa neldermead global; do
  "$cli" optimize "$circuit" --vary G1.damping_ratio=0.1:2 --minimize ise:E1.Y --method $method \
    -o "$dir/$method.csv" >"$dir/out" 2>"$dir/err" || fail "$method exited $?: $(cat "$dir/err")"
  zeta=$(sed -n 's/^G1.damping_ratio=//p' "$dir/out")
  ise=$(sed -n 's/^ise:E1.Y=//p' "$dir/out")
  near "$zeta" 0.5 0.01 || fail "$method: ζ = $zeta, not 0.5 ± 0.01"
  near "$ise" 0.1 0.001 || fail "$method: ISE = $ise, not 0.1 ± 1 %"
  runs=$(tail -n +2 "$dir/$method.csv" | wc -l)
  [ "$runs" -ge 3 ] || fail "$method: $runs rows in -o"
  grep -q "^run,G1.damping_ratio,status,ise:E1.Y,message$" "$dir/$method.csv" || fail "$method: -o header"
  grep -q "optimize: $method, $runs runs" "$dir/err" || fail "$method: stderr $(tail -n 1 "$dir/err")"
done
"$cli" optimize "$circuit" --vary G1.damping_ratio=0.1:2 --vary G1.natural_frequency=5:20 --minimize ise:E1.Y \
  -q >"$dir/out" 2>"$dir/err" || fail "two parameters exited $?: $(cat "$dir/err")"
near "$(sed -n 's/^G1.damping_ratio=//p' "$dir/out")" 0.5 0.01 || fail "two parameters: $(cat "$dir/out")"
near "$(sed -n 's/^G1.natural_frequency=//p' "$dir/out")" 20 0.01 || fail "two parameters: $(cat "$dir/out")"
near "$(sed -n 's/^ise:E1.Y=//p' "$dir/out")" 0.05 0.0005 || fail "two parameters: $(cat "$dir/out")"
# usage errors
for args in "--vary G1.damping_ratio=0.1:2:3 --minimize ise:E1.Y" "--vary G1.damping_ratio=0.1:2" \
            "--vary G1.damping_ratio=0.1:2 --minimize ise:E1.Y --method newton"; do
  # shellcheck disable=SC2086
  "$cli" optimize "$circuit" $args >/dev/null 2>&1
  st=$?
  [ "$st" -eq 2 ] || fail "optimize $args exited $st, not 2"
done

[ "$fails" -eq 0 ] && echo "optimize: all checks passed"
exit $((fails > 0))
