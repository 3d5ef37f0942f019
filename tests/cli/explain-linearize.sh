#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# explain-linearize: `bramah-cli linearize` on the teaching case
# (tests/cli/data/cylinder-oil-column.bramah): a cylinder with equal areas
# A (bore 50 mm, no rod), m = 100 kg, both chambers closed by volumes,
# V_A = 50 cm³ + A·0.2 m + 0.5 L, V_B = 50 cm³ + A·0.3 m + 1 L, constant
# bulk modulus β = 1.5 GPa. The resonance peak of the Bode plot from the
# load force to x must lie within 0.2 % of the hydraulic natural frequency
# √(β·A²·(1/V_A + 1/V_B)/m)/2π (Merritt 1967, §5.2): a grid of 2001
# frequencies from 10 to 100 Hz has neighbours 0.115 % apart, and the
# damping (ζ = 3e-4) moves the peak by 1e-7. The CSV has its four columns,
# the unwrapped phase never jumps by 180° or more, the step table has N + 1
# rows.
# Usage: explain-linearize.sh BRAMAH_CLI SOURCE_DIR
set -eu
cli=$1
src=$2
circuit=$src/tests/cli/data/cylinder-oil-column.bramah
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$cli" linearize "$circuit" --at 0.1 --input C1.load_force --output C1.x --bode 10:100:2001 --csv \
  >"$dir/bode.csv" 2>"$dir/err" || { cat "$dir/err"; echo "linearize exited $?"; exit 1; }
head -n 1 "$dir/bode.csv" | grep -qx 'frequency_hz,magnitude_db,phase_deg,phase_unwrapped_deg' \
  || { echo "wrong CSV header: $(head -n 1 "$dir/bode.csv")"; exit 1; }
rows=$(($(wc -l <"$dir/bode.csv") - 1))
[ "$rows" -eq 2001 ] || { echo "$rows rows, not 2001"; exit 1; }

awk -F, 'NR == 1 { next }
  NF != 4 { print "row " NR " has " NF " columns"; bad = 1; exit 1 }
  NR > 2 { d = $4 - pu; if (d < 0) d = -d; if (d >= 180) { print "unwrapped phase jumps by " d " at row " NR; bad = 1; exit 1 } }
  { pu = $4; if (NR == 2 || $2 > best) { best = $2; f = $1 } }
  END { if (bad) exit 1
        pi = atan2(0, -1); beta = 1.5e9; m = 100
        A = pi / 4 * 0.05 * 0.05
        VA = 5e-5 + A * 0.2 + 5e-4; VB = 5e-5 + A * 0.3 + 1e-3
        fh = sqrt(beta * A * A * (1 / VA + 1 / VB) / m) / (2 * pi)
        r = f / fh
        printf "Bode peak %.6g Hz (%.6g dB), hydraulic natural frequency by hand %.6g Hz\n", f, best, fh
        if (r < 1 - 2e-3 || r > 1 + 2e-3) { print "the peak is off by a factor " r; exit 1 } }' "$dir/bode.csv"

"$cli" linearize "$circuit" --input C1.load_force --output C1.x --step 0.1:50 --csv >"$dir/step.csv" 2>/dev/null
head -n 1 "$dir/step.csv" | grep -qx 't,output' || { echo "wrong step header"; exit 1; }
[ "$(($(wc -l <"$dir/step.csv") - 1))" -eq 51 ] || { echo "the step table has not 51 rows"; exit 1; }

# the text names the pole pair at the natural frequency
"$cli" linearize "$circuit" --input C1.load_force --output C1.x 2>/dev/null >"$dir/text"
grep -q 'f_n = 49.47[0-9]* Hz' "$dir/text" || { cat "$dir/text"; echo "no pole pair at 49.47 Hz"; exit 1; }
echo PASS
