#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-smoke: `bramah-cli bench` runs one circuit against CVODE and writes
# the CSV of spec/cli.md (header, then one row per solver and tolerance).
# Not timed: the wall times are not looked at.
# Usage: bench-smoke.sh BRAMAH_CLI CIRCUIT [--plot]
set -eu
cli=$1
circuit=$2
plot=${3:-}

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
csv=$dir/bench.csv

set -- bench --circuit "$circuit" --rtol 1e-4 --repeat 1 --against cvode --csv "$csv"
[ -n "$plot" ] && set -- "$@" --plot "$dir/bench.png"
"$cli" "$@" >"$dir/stdout" || { echo "bench exited $?"; cat "$dir/stdout"; exit 1; }

header='circuit,solver,rtol,error,steps,rejected,f_evals,jac_evals,lu,wall_s,status'
first=$(head -n 1 "$csv")
[ "$first" = "$header" ] || { echo "CSV header is '$first'"; exit 1; }

name=$(basename "$circuit" .bramah)
for solver in rodas4 cvode cvode-klu; do
  row=$(grep "^$name,$solver,0.0001," "$csv") || { echo "no $solver row"; cat "$csv"; exit 1; }
  # 11 fields, a positive error and step count, status success
  echo "$row" | awk -F, '
    NF != 11 { print "row has " NF " fields: " $0; exit 1 }
    !($4 > 0) || !($5 > 0) || $11 != "success" { print "bad row: " $0; exit 1 }'
done
rows=$(($(wc -l <"$csv") - 1))
[ "$rows" -eq 3 ] || { echo "expected 3 rows, got $rows"; cat "$csv"; exit 1; }

if [ -n "$plot" ]; then
  # a PNG signature: \211PNG
  sig=$(head -c 4 "$dir/bench.png" | od -An -c | tr -d ' ')
  [ "$sig" = '211PNG' ] || { echo "no PNG written (signature '$sig')"; exit 1; }
fi
echo "ok: $rows rows"
