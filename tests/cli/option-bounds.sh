#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# option-bounds: every numeric option of bramah-cli has a range, and a value
# outside it (1e999 included) is a usage error (exit 2) that names the option
# and the range, before any work (issue 9, item 15). Memory is limited to
# 1 GB so that an option that allocates by its value (jacobian-check
# --points 2000000000 once did) fails the test instead of the machine.
# Usage: option-bounds.sh BRAMAH_CLI CIRCUIT
set -u
cli=$1
circuit=$2
fails=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail () { printf 'FAIL: %s\n' "$*"; fails=$((fails + 1)); }
# (not under AddressSanitizer, which reserves terabytes of address space)
if (ulimit -v 1048576 && "$cli" solvers >/dev/null 2>&1); then
  ulimit -v 1048576
else
  echo "note: $cli does not run in 1 GB of address space (a sanitizer build?): no memory limit"
fi

# bad OPTION VALUE 'MESSAGE' COMMAND ARGS...: exit 2 and MESSAGE on stderr
bad () {
  option=$1 value=$2 message=$3
  shift 3
  timeout 20 "$cli" "$@" "$option" "$value" >"$dir/out" 2>"$dir/err"
  st=$?
  [ "$st" -eq 2 ] || fail "$* $option $value exited $st, not 2: $(head -c 300 "$dir/err")"
  grep -qF -- "$option: '$value' $message" "$dir/err" \
    || fail "$* $option $value: no \"$option: '$value' $message\" in: $(head -c 300 "$dir/err")"
}

bad --points 2000000000 "is out of range (a whole number in [0, 10000])" jacobian-check "$circuit"
bad --points -1 "is out of range" jacobian-check "$circuit"
bad --points 1e999 "is out of range" jacobian-check "$circuit"
bad --points 2.5 "is not a whole number" jacobian-check "$circuit"
bad --points 99999999999999999999 "is out of range" jacobian-check "$circuit"

for v in 1e999 -1 0 2e9 abc ''; do
  case $v in
    abc|'') m="is not a number" ;;
    *) m="is out of range (a number in (0, 1e+09] s)" ;;
  esac
  bad --t-end "$v" "$m" simulate "$circuit"
  bad --output-interval "$v" "$m" simulate "$circuit"
  bad --fixed-step "$v" "$m" simulate "$circuit"
done
bad --rtol 1e999 "is out of range (a number in (0, 1))" simulate "$circuit"
bad --rtol 1 "is out of range (a number in (0, 1))" simulate "$circuit"
bad --rtol 1e-999 "is out of range" simulate "$circuit"
bad --rtol nan "is not a number" simulate "$circuit"
bad --atol 1e999 "is out of range (a number in (0, 1e+10] (SI))" simulate "$circuit"
bad --atol 0 "is out of range" simulate "$circuit"

bad --rtol 1e999 "is out of range (a number in (0, 1))" verify
bad --repeat 0 "is out of range (a whole number in [1, 1000])" bench --circuit "$circuit"
bad --repeat 1e999 "is out of range" bench --circuit "$circuit"
bad --repeat 1001 "is out of range" bench --circuit "$circuit"
bad --rtol 1e999 "is out of range (a number in (0, 1))" bench --circuit "$circuit"
timeout 20 "$cli" bench --circuit "$circuit" --cvode-rtol 1e-4,1e999 >/dev/null 2>"$dir/err"
st=$?
[ "$st" -eq 2 ] || fail "--cvode-rtol 1e-4,1e999 exited $st, not 2"
grep -qF -- "--cvode-rtol: '1e999' is out of range (a number in (0, 1))" "$dir/err" \
  || fail "--cvode-rtol 1e-4,1e999: $(cat "$dir/err")"

bad --scale 1e999 "is out of range (a number in (0, 100])" render "$circuit" "$dir/x.svg"
bad --scale 0 "is out of range" render "$circuit" "$dir/x.svg"
bad --at 1e999 "is out of range (a number in [0, 1e+09] s)" render "$circuit" "$dir/x.svg"
bad --at -1 "is out of range" render "$circuit" "$dir/x.svg"

# --set with a number beyond a double
timeout 20 "$cli" simulate "$circuit" --set OR1.diameter=1e999 >/dev/null 2>"$dir/err"
st=$?
[ "$st" -eq 2 ] || fail "--set OR1.diameter=1e999 exited $st, not 2"
grep -qF -- "--set OR1.diameter=1e999: '1e999' is out of range" "$dir/err" || fail "--set 1e999: $(cat "$dir/err")"

# the bounds themselves are accepted
timeout 60 "$cli" jacobian-check "$circuit" --points 0 >/dev/null 2>"$dir/err" \
  || fail "--points 0 refused: $(cat "$dir/err")"
timeout 60 "$cli" simulate "$circuit" --t-end 1e-3 --rtol 1e-12 --atol 1e10 >/dev/null 2>"$dir/err" \
  || fail "--t-end 1e-3 --rtol 1e-12 --atol 1e10 refused: $(cat "$dir/err")"

# a list of too many tolerances
list=$(seq -s, 51 | sed 's/[0-9][0-9]*/1e-4/g')
timeout 20 "$cli" bench --circuit "$circuit" --rtol "$list" >/dev/null 2>"$dir/err"
st=$?
[ "$st" -eq 2 ] || fail "--rtol with 51 tolerances exited $st, not 2"
grep -q -- "--rtol: 51 tolerances, at most 50" "$dir/err" || fail "--rtol 51: $(cat "$dir/err")"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo ok
