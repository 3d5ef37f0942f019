#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# sparsity-csv: `bramah-cli describe --sparsity-csv FILE [--at T]` on three
# volumes in a chain through two orifices (data/orifice-chain.bramah):
#   VA (1 L, 100 bar) —OR1— VB (2 L, 50 bar) —OR2— VC (0.5 L, 0 bar),
# each node also holding its wires (1 m × 10 mm each: VA's and VC's node one
# wire, VB's two), constant bulk modulus β = 1.5e9 Pa, ρ = 870 kg/m³, both
# orifices d = 2 mm, C_d = 0.7. Node pressures only: ṗ_k = β/V_k·Σq, and an
# orifice's flow depends on its two pressures only, so
#  - the pattern is tridiagonal: the 7 entries (0,0) (0,1) (1,0) (1,1) (1,2)
#    (2,1) (2,2), and neither (0,2) nor (2,0);
#  - at t = 0 both orifices see Δp = 5 MPa (turbulent), so both have the
#    conductance g = ∂q/∂Δp = C_d·A/√(2ρΔp) (Esqué eq. 3.7 differentiated),
#    and J = β·g/V_k·[−1 1 0; 1 −2 1; 0 1 −1] row by row;
#  - each row sums to zero (a flow leaves one node and enters the next);
#  - with --at T the values change but not the pattern;
#  - the state and component columns name VA's node by its components.
# Usage: sparsity-csv.sh BRAMAH_CLI CIRCUIT
set -eu
cli=$1
circuit=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$cli" describe "$circuit" --sparsity-csv "$dir/j.csv" >/dev/null || { echo "describe exited $?"; exit 1; }
cat "$dir/j.csv"
head -1 "$dir/j.csv" | grep -qx 'row,col,row_state,col_state,row_component,col_component,value' \
  || { echo "wrong header"; exit 1; }
pattern=$(sed 1d "$dir/j.csv" | cut -d, -f1,2 | tr '\n' ' ')
[ "$pattern" = "0,0 0,1 1,0 1,1 1,2 2,1 2,2 " ] || { echo "pattern: $pattern"; exit 1; }
grep -q '^0,1,VA.P.p,OR1.B.p,VA OR1,OR1 VB OR2,' "$dir/j.csv" || { echo "states or components of (0,1) wrong"; exit 1; }

awk -F, 'NR > 1 { J[$1 "," $2] = $7; sum[$1] += $7 }
END {
  pi = atan2(0, -1)
  B = 1.5e9; rho = 870; dp = 5e6
  g = 0.7 * pi / 4 * 0.002 * 0.002 / sqrt(2 * rho * dp)
  w = pi / 4 * 0.01 * 0.01 * 1
  V[0] = 1e-3 + w; V[1] = 2e-3 + 2 * w; V[2] = 0.5e-3 + w
  split("0,0 0,1 1,0 1,1 1,2 2,1 2,2", key, " ")
  split("-1 1 1 -2 1 1 -1", coef, " ")
  bad = 0
  for (k = 1; k <= 7; k++) {
    split(key[k], rc, ",")
    want = B * g / V[rc[1]] * coef[k]
    r = J[key[k]] / want
    printf "J(%s) = %s, by hand %.10g\n", key[k], J[key[k]], want
    if (r < 1 - 1e-6 || r > 1 + 1e-6) { print "  off by " r; bad = 1 }
  }
  for (i = 0; i < 3; i++)
    if (sum[i] > 1e-9 * -J[i "," i] || sum[i] < -1e-9 * -J[i "," i]) { print "row " i " sums to " sum[i]; bad = 1 }
  exit bad
}' "$dir/j.csv"

"$cli" describe "$circuit" --sparsity-csv "$dir/j1.csv" --at 0.01 >/dev/null || { echo "describe --at exited $?"; exit 1; }
p1=$(sed 1d "$dir/j1.csv" | cut -d, -f1,2 | tr '\n' ' ')
[ "$p1" = "$pattern" ] || { echo "pattern at 0.01 s: $p1"; exit 1; }
cmp -s "$dir/j.csv" "$dir/j1.csv" && { echo "the values at 0.01 s are those at 0"; exit 1; }

# --at without --sparsity-csv is a usage error (exit 2)
st=0
"$cli" describe "$circuit" --at 1 >/dev/null 2>"$dir/err" || st=$?
[ "$st" = 2 ] || { echo "--at alone exited $st"; exit 1; }
grep -q -- '--sparsity-csv' "$dir/err" || { echo "the usage error does not name --sparsity-csv"; exit 1; }
echo ok
