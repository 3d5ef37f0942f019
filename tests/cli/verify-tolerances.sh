#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# verify-tolerances: `bramah-cli verify` runs each stiff test problem with the
# tolerances prescribed for it and says which (issue 8: E5 ran with
# atol = rtol = 1e-6, where its components of ~1e-22 need atol = 1.7e-24).
# Usage: verify-tolerances.sh BRAMAH_CLI
set -eu
cli=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# expected atol of each problem at rtol R: ratio·R, or fixed (E5)
check_table () {
  r=$1; file=$2
  awk -v r="$r" '
    function near(a, b) { return a == b || (a > 0 && b > 0 && a / b > 0.999 && a / b < 1.001) }
    /^(HIRES|Van der Pol|ROBER|OREGO|E5|POLLU) +radau5 / {
      name = ($1 == "Van") ? "VdP" : $1
      off = ($1 == "Van") ? 2 : 0
      rt = $(3 + off); at = $(4 + off); status = $NF
      want = (name == "ROBER") ? 1e-4 * r : (name == "E5") ? 1.7e-24 : r
      if (!near(rt + 0, r + 0)) { print name ": rtol " rt ", expected " r; bad = 1 }
      if (!near(at + 0, want)) { print name ": atol " at ", expected " want; bad = 1 }
      if (status != "success") { print name ": " status; bad = 1 }
      seen++ }
    END { if (seen != 6) { print "saw " seen " rows of radau5, expected 6"; bad = 1 } exit bad }' "$file"
}

"$cli" verify --solver radau5 >"$dir/default" 2>"$dir/err" || { cat "$dir/default" "$dir/err"; exit 1; }
cat "$dir/default"
grep -q '^  E5 .*atol 1.7e-24' "$dir/default" || { echo "E5's tolerances are not printed"; exit 1; }
check_table 1e-6 "$dir/default"

"$cli" verify --solver radau5 --rtol 1e-8 >"$dir/tight" 2>"$dir/err" || { cat "$dir/tight" "$dir/err"; exit 1; }
check_table 1e-8 "$dir/tight"

# CSV keeps the header of spec/cli.md; the tolerances go to stderr
"$cli" verify --solver radau5 --csv >"$dir/csv" 2>"$dir/csv-err"
head -n 1 "$dir/csv" | grep -qx 'problem,solver,rtol,mescd,steps,rejected,f_evals,jac_evals,lu,wall_s' \
  || { echo "CSV header changed"; head -n 1 "$dir/csv"; exit 1; }
grep -q '^  ROBER .*atol 1e-10' "$dir/csv-err" || { echo "no tolerances on stderr with --csv"; exit 1; }
echo "tolerances as prescribed"
