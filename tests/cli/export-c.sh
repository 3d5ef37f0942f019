#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# export-c: `bramah-cli export-c CIRCUIT -o DIR` writes DIR/NAME.c, a
# Makefile and a README; `make` builds the program with the C compiler and
# libm alone (-std=c99); its CSV has the header and the t column of
# `bramah-cli simulate` and ends within 1e-6 relative of the engine's run at
# rtol 1e-8 on the small circuit (tests/engine/test-export-c.c compares f,
# J and runs on the examples). A circuit with a wired signal port is
# refused naming the component and port (exit 1, nothing written); usage
# errors exit 2.
# Usage: export-c.sh BRAMAH_CLI SOURCE_DIR
set -u
cli=$1
src=$2
fails=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail () { printf 'FAIL: %s\n' "$*"; fails=$((fails + 1)); }
export LC_ALL=C.UTF-8
small=$src/tests/cli/small.bramah

"$cli" export-c "$small" -o "$dir/out" >"$dir/stdout" 2>"$dir/err"
st=$?
[ "$st" -eq 0 ] || fail "export-c exited $st: $(cat "$dir/err")"
for f in small.c Makefile README; do
  [ -s "$dir/out/$f" ] || fail "no $f written"
done
grep -q "wrote $dir/out/small.c" "$dir/stdout" || fail "export-c said: $(cat "$dir/stdout")"
if ! (cd "$dir/out" && make >"$dir/make.log" 2>&1); then
  fail "make failed: $(cat "$dir/make.log")"
fi
grep -q -- '-std=c99 -o small small.c -lm' "$dir/make.log" || fail "make did not run cc -std=c99 … -lm: $(cat "$dir/make.log")"
# no library but libm and the C library
if command -v ldd >/dev/null 2>&1; then
  extra=$(ldd "$dir/out/small" | grep -v -e 'libm\.so' -e 'libc\.so' -e 'linux-vdso' -e 'ld-linux' -e 'ld64')
  [ -z "$extra" ] || fail "the program links more than libm and libc: $extra"
fi
"$dir/out/small" --rtol 1e-8 >"$dir/x.csv" || fail "the program failed"
"$cli" simulate --solver rodas4 --rtol 1e-8 "$small" >"$dir/e.csv" 2>/dev/null || fail "simulate failed"
[ "$(head -n 1 "$dir/x.csv")" = "$(head -n 1 "$dir/e.csv")" ] \
  || fail "header: $(head -n 1 "$dir/x.csv") against simulate's $(head -n 1 "$dir/e.csv")"
[ "$(wc -l <"$dir/x.csv")" -eq "$(wc -l <"$dir/e.csv")" ] \
  || fail "$(wc -l <"$dir/x.csv") rows against simulate's $(wc -l <"$dir/e.csv")"
cut -d, -f1 "$dir/x.csv" | tail -n +2 >"$dir/xt"
cut -d, -f1 "$dir/e.csv" | tail -n +2 >"$dir/et"
awk 'NR == FNR { t[FNR] = $1; next } { d = $1 - t[FNR]; if (d < 0) d = -d; if (d > 1e-12) { print FNR; exit 1 } }' \
  "$dir/et" "$dir/xt" >/dev/null || fail "the t column differs from simulate's"
paste -d, "$dir/x.csv" "$dir/e.csv" | tail -n 1 | awk -F, '{
  n = NF / 2; bad = 0
  for (k = 2; k <= n; k++) {
    a = $k; b = $(k + n); d = a - b; if (d < 0) d = -d; m = (a < 0 ? -a : a)
    if (d > 1e-6 * m + 1e-12) { printf "column %d: %s against %s\n", k, a, b; bad = 1 }
  }
  exit bad }' >"$dir/diff" || fail "the runs end apart: $(cat "$dir/diff")"
# --eval: f, J and df/dt, three lines per point
printf '0 0\n0.1 1e5\n' | "$dir/out/small" --eval >"$dir/eval" || fail "--eval failed"
[ "$(wc -l <"$dir/eval")" -eq 6 ] || fail "--eval wrote $(wc -l <"$dir/eval") lines for 2 points"

# --name
"$cli" export-c "$small" -o "$dir/named" --name ctrl >/dev/null 2>&1 && [ -s "$dir/named/ctrl.c" ] \
  || fail "--name ctrl wrote no ctrl.c"

# refused: electrical control
"$cli" export-c "$src/data/examples/electro-timer-delayed-return.bramah" -o "$dir/refused" >"$dir/stdout" 2>"$dir/err"
st=$?
[ "$st" -eq 1 ] || fail "electro-timer-delayed-return: exit $st, not 1"
grep -q 'component S1 (pushbutton_switch) is part of electrical control' "$dir/err" \
  || fail "electro-timer-delayed-return: the refusal does not name S1: $(cat "$dir/err")"
[ -e "$dir/refused" ] && fail "electro-timer-delayed-return: a refused export made $dir/servo"

# hose friction (version 3, a connection with a length and a diameter) exports
sed -e 's/"version": 1/"version": 3/' \
    -e 's/{ "from": "V1.P2", "to": "OR1.A" }/{ "from": "V1.P2", "to": "OR1.A", "length": 2.0, "diameter": 0.01 }/' \
    "$small" >"$dir/hose.bramah"
"$cli" export-c "$dir/hose.bramah" -o "$dir/hose" >/dev/null 2>"$dir/err" || fail "hose: export-c failed: $(cat "$dir/err")"
grep -q 'hyd_sys_hose_new (&bx_fluid, "V1.P2", "OR1.A"' "$dir/hose/hose.c" || fail "hose: no hose V1.P2-OR1.A in the program"
(cd "$dir/hose" && make >/dev/null 2>&1 && ./hose >run.csv) || fail "hose: the program does not build or run"

# usage
"$cli" export-c "$small" >/dev/null 2>&1; st=$?
[ "$st" -eq 2 ] || fail "no -o: exit $st, not 2"
"$cli" export-c -o "$dir/x" >/dev/null 2>&1; st=$?
[ "$st" -eq 2 ] || fail "no circuit: exit $st, not 2"
"$cli" export-c "$small" -o "$dir/x" --name 'a/b' >/dev/null 2>&1; st=$?
[ "$st" -eq 2 ] || fail "--name a/b: exit $st, not 2"
"$cli" export-c "$dir/nosuch.bramah" -o "$dir/x" >/dev/null 2>&1; st=$?
[ "$st" -eq 1 ] || fail "a missing circuit: exit $st, not 1"

if [ "$fails" -gt 0 ]; then
  echo "$fails failures"
  exit 1
fi
echo "PASS"
