#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# explain: `bramah-cli explain` on motor-relief (data/examples).
#  - at t = 0 its stiffness ratio is of order 1e4 (describe's 1.8e4: the
#    two eigenvalues zero within rounding, the shaft angle and the oil of
#    the closed motor loop, are not counted; issue 15 saw 1e19);
#  - the JSON lists every eigenvalue, as many as states, each with the
#    states and components that take part in it, participations in (0, 1],
#    summing to at most 1 over the listed states;
#  - its explicit step limit is recomputed here from the eigenvalues it
#    lists: min over decaying modes of −2·Re λ/|λ|² (forward Euler);
#  - with --at 1 the run's last accepted step is reported and the text
#    names the fastest mode's components.
# Usage: explain.sh BRAMAH_CLI SOURCE_DIR
set -eu
cli=$1
src=$2
circuit=$src/data/examples/motor-relief.bramah
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$cli" explain "$circuit" >"$dir/text" || { echo "explain exited $?"; exit 1; }
cat "$dir/text"
ratio=$(sed -n 's/^Stiffness ratio (max\/min |Re λ| over decaying modes): \([0-9.e+]*\).*/\1/p' "$dir/text")
[ -n "$ratio" ] || { echo "no stiffness ratio"; exit 1; }
awk -v r="$ratio" 'BEGIN { if (r < 1e3 || r > 1e5) { print "ratio " r " is not of order 1e4"; exit 1 } }'
grep -q '^  An explicit method would need steps under ' "$dir/text" || { echo "no explicit step limit"; exit 1; }

for at in 0 1; do
  "$cli" explain --json --at "$at" "$circuit" >"$dir/j$at.json" || { echo "explain --json exited $?"; exit 1; }
  python3 - "$dir/j$at.json" "$at" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
at = float(sys.argv[2])
n = len(d["states"])
ev = d["eigenvalues"]
assert n == 6 and len(ev) == n, (n, len(ev))
assert d["t"] == at
decaying = [e for e in ev if not e["zero"] and e["re"] < 0]
limit = min(-2 * e["re"] / (e["re"] ** 2 + e["im"] ** 2) for e in decaying)
assert abs(d["explicit_step_limit"] / limit - 1) < 1e-12, (d["explicit_step_limit"], limit)
ratio = max(-e["re"] for e in decaying) / min(-e["re"] for e in decaying)
assert abs(d["stiffness_ratio"] / ratio - 1) < 1e-12, (d["stiffness_ratio"], ratio)
assert 1e3 < ratio < 1e5, ratio
names = {s["name"] for s in d["states"]}
for e in ev:
    total = sum(p["participation"] for p in e["states"])
    assert total <= 1 + 1e-9 and (e["zero"] or total > 0.9), e
    for p in e["states"]:
        assert p["state"] in names and 0 < p["participation"] <= 1 + 1e-12, p
    assert e["zero"] or len(e["components"]) > 0, e
# the fastest mode is the pump's node: PU1 takes part in it
fast = max(decaying, key=lambda e: abs(complex(e["re"], e["im"])))
assert "PU1" in [c["id"] for c in fast["components"]], fast
if at > 0:
    assert d["last_step"] is not None and 0 < d["last_step"] < at, d["last_step"]
else:
    assert d["last_step"] is None
print("t = %g: %d eigenvalues, ratio %.4g, explicit limit %.4g s, last step %s" %
      (at, len(ev), ratio, limit, d["last_step"]))
PY
done

"$cli" explain --at 1 "$circuit" >"$dir/at1" || { echo "explain --at 1 exited $?"; exit 1; }
grep -q "rodas4's last accepted step before t = 1 s was " "$dir/at1" || { cat "$dir/at1"; echo "no step reported"; exit 1; }
echo PASS
