#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# describe-stiffness: the stiffness ratio of `bramah-cli describe` counts only
# decaying modes; eigenvalues that are zero (exactly, or within LAPACK's
# rounding bound) are not decaying modes (issue 8: ratios of 1e15–1e19 came
# from eigenvalues of 1e-16·max|λ| counted as decaying).
# Usage: describe-stiffness.sh BRAMAH_CLI data/motor-two-volumes.bramah
#
# The circuit: a motor (D = 1e-6 m³/rad, inertia J = 1 kg·m², viscous
# friction b = 0.01 N·m·s, leakage L = 1e-9 m³/(s·Pa)) between two closed
# volumes, V_A = 1 L and V_B = 3 L, each with one wire of 1 m × 10 mm,
# constant bulk modulus B = 1.5e9 Pa. At rest, with s = p_A − p_B, w the
# shaft speed and k = B/V_A + B/V_B,
#   ṡ = −k·(D·w + L·s),  J·ẇ = D·s − b·w,  θ̇ = w,
# and V_A·p_A + V_B·p_B is conserved: eigenvalues 0, 0 and those of
#   [ −k·L  −k·D ;  D/J  −b/J ],
# λ = (tr ± √(tr² − 4·det))/2, both real and negative.
set -eu
cli=$1
circuit=$2

out=$("$cli" describe "$circuit") || { echo "describe exited $?"; exit 1; }
echo "$out" | sed -n '/^Eigenvalues/,$p'

expected=$(awk 'BEGIN {
  pi = atan2(0, -1)
  B = 1.5e9; L = 1e-9; D = 1e-6; J = 1; b = 0.01
  w = pi / 4 * 0.01 * 0.01 * 1
  k = B / (1e-3 + w) + B / (3e-3 + w)
  a11 = -k * L; a12 = -k * D; a21 = D / J; a22 = -b / J
  tr = a11 + a22; det = a11 * a22 - a12 * a21
  disc = tr * tr - 4 * det
  if (disc <= 0) { print "complex"; exit }
  l1 = (tr - sqrt(disc)) / 2; l2 = (tr + sqrt(disc)) / 2
  printf "%.6g\n", l1 / l2 }')

got=$(echo "$out" | sed -n 's/^Stiffness ratio (max\/min |Re λ| over decaying modes): //p')
[ -n "$got" ] || { echo "no stiffness ratio printed"; exit 1; }
echo "stiffness ratio: describe $got, by hand $expected"
awk -v g="$got" -v e="$expected" 'BEGIN {
  r = g / e; if (r < 1 - 1e-3 || r > 1 + 1e-3) { print "ratio off by " r; exit 1 } }'

echo "$out" | grep -q '^  (2 eigenvalues zero, exactly or within rounding' \
  || { echo "the two zero eigenvalues are not reported as such"; exit 1; }
