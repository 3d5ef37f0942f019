#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# step-log: `bramah-cli simulate --step-log FILE.csv` on motor-relief
# (data/examples), against the run's own --stats:
#  - one row per attempted step: as many rows as steps + rejected, the
#    accepted ones (accepted = 1) as many as steps, and each rejection for
#    its error (outcome rejected-error) with an error norm above 1;
#  - every accepted step of rodas4 names the state that limited it, one of
#    describe's states, and the counts printed per state add up to the
#    accepted steps and agree with the rows;
#  - the per-component counts are the sums over the states that name them;
#  - the CSV written with the log is byte for byte the CSV without it;
#  - rk4 at a fixed step names no limiter ("(none: no error estimate)").
# Usage: step-log.sh BRAMAH_CLI SOURCE_DIR
set -eu
cli=$1
src=$2
circuit=$src/data/examples/motor-relief.bramah
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$cli" simulate --stats --solver rodas4 --step-log "$dir/steps.csv" -o "$dir/with.csv" "$circuit" \
  2>"$dir/err" || { cat "$dir/err"; echo "simulate --step-log exited $?"; exit 1; }
cat "$dir/err"
"$cli" simulate --solver rodas4 -o "$dir/without.csv" "$circuit" || { echo "simulate exited $?"; exit 1; }
cmp "$dir/with.csv" "$dir/without.csv" || { echo "the step log changed the run's CSV"; exit 1; }
"$cli" describe "$circuit" >"$dir/describe" || { echo "describe exited $?"; exit 1; }

python3 - "$dir/steps.csv" "$dir/err" "$dir/describe" <<'PY' || exit 1
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
err = open(sys.argv[2]).read()
describe = open(sys.argv[3]).read()
stats = dict(re.findall(r"^(\w+): (\S+)$", err, re.M))
steps, rejected = int(stats["steps"]), int(stats["rejected"])
assert len(rows) == steps + rejected, (len(rows), steps, rejected)
acc = [r for r in rows if r["accepted"] == "1"]
assert len(acc) == steps, (len(acc), steps)
for r in rows:
    assert float(r["h"]) > 0, r
    if r["outcome"] == "rejected-error":
        assert float(r["error_norm"]) > 1, r
    if r["accepted"] == "1":
        assert r["outcome"] == "accepted" and float(r["error_norm"]) <= 1, r
        assert r["limiting_state"] != "", r
        assert r["limiting_state"] in describe, r["limiting_state"]
counts = {}
for r in acc:
    counts[r["limiting_state"]] = counts.get(r["limiting_state"], 0) + 1
state_part, comp_part = err.split("\ncomponent ", 1)
table = dict((m[0], int(m[1])) for m in
             re.findall(r"^(\S+) +(\d+) +[\d.]+% +\S", state_part, re.M) if m[0] != "limiting")
assert table == counts, (table, counts)
assert sum(table.values()) == steps
# per component: the sum over the states that name it in the table
comp = {}
for m in re.finditer(r"^(\S+) +(\d+) +[\d.]+% +(.+)$", state_part, re.M):
    if m.group(1) == "limiting":
        continue
    for c in m.group(3).split(", "):
        comp[c] = comp.get(c, 0) + int(m.group(2))
ctable = dict((a, int(b)) for a, b in re.findall(r"^([^\s:]+) +(\d+)$", comp_part, re.M))
assert ctable == comp, (ctable, comp)
m = re.search(r"step log: (\d+) attempted steps, (\d+) accepted", err)
assert m and int(m.group(1)) == len(rows) and int(m.group(2)) == steps, m
print("rows", len(rows), "accepted", steps, "limiters", counts)
PY

"$cli" simulate --solver rk4 --fixed-step 1e-4 --t-end 0.01 --step-log "$dir/rk4.csv" -o /dev/null \
  "$circuit" 2>"$dir/err4" || { cat "$dir/err4"; echo "rk4 --step-log exited $?"; exit 1; }
grep -q '^(none: no error estimate) *100 *100.0%$' "$dir/err4" || { cat "$dir/err4"; echo "rk4: no '(none)' row"; exit 1; }
! grep -q ',1,accepted,[^,]*,[^,]' "$dir/rk4.csv" || { echo "rk4 named a limiter"; exit 1; }
echo ok
