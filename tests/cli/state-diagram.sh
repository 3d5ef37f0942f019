#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# state-diagram: `bramah-cli state-diagram` against the same run's own CSV
# (`simulate`), without golden files. The circuit (data/state-diagram.bramah)
# is the lever-valve cylinder of cylinder-extend-retract with its rod on a
# position sensor read by a hysteresis block (HY1.on: on above 0.2 m, off
# below 0.1 m) and a step at 1 s (ST1.stepped).
#  - CSV: the columns t, C1.x, C1.x/stroke, HY1.on, ST1.stepped; every value
#    equal to simulate's for the same run, the fraction x / 0.3 m;
#  - the default rows (no electrical control here: the cylinder alone), an
#    unknown item refused by name;
#  - SVG: well-formed XML naming the rows; each bar's edges, mapped back to
#    time through the step's bar (from its first sample on to t_end), fall
#    on the times at which the CSV's discrete state changes;
#  - PDF and PNG: their signatures, the PDF's metadata naming the rows;
#  - an output that cannot be written is named and leaves nothing;
#  - the electrical control (data/state-diagram-timer.bramah: an on-delay
#    timer KT1 of 1 s energised from the start, its contact KC1 feeding
#    solenoid Y1 of a 4/2 valve and lamp H1): the default rows are the
#    cylinder and KT1.energised, KT1.contacts, Y1.energised, H1.lit (not the
#    contact's own state nor the timer's start time, which --items shows);
#    the contacts, the solenoid and the lamp switch on at the first sample
#    after 1 s (the delay, by hand), and the cylinder starts moving then.
# Usage: state-diagram.sh BRAMAH_CLI CIRCUIT TIMER_CIRCUIT
set -u
cli=$1
circuit=$2
timer=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export LC_ALL=C.UTF-8
fail () { echo "FAIL: $*" >&2; exit 1; }

"$cli" state-diagram "$circuit" --items C1,HY1,ST1 -o "$dir/d.csv" || fail "state-diagram -o d.csv"
"$cli" simulate "$circuit" --vars C1.x,HY1.on,ST1.stepped -o "$dir/s.csv" || fail "simulate"
"$cli" state-diagram "$circuit" --items C1,HY1.on,ST1 -o "$dir/d.svg" || fail "state-diagram -o d.svg"
"$cli" state-diagram "$circuit" --items C1,HY1,ST1 -o "$dir/d.pdf" || fail "state-diagram -o d.pdf"
"$cli" state-diagram "$circuit" --items ST1,C1 --width 600 -o "$dir/d.png" || fail "state-diagram -o d.png"
"$cli" state-diagram "$circuit" >"$dir/default.csv" || fail "state-diagram to stdout"

python3 - "$dir" <<'EOF' || exit 1
import csv, math, re, sys
import xml.etree.ElementTree as ET
d = sys.argv[1]
def fail(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)
rows = list(csv.reader(open(d + "/d.csv")))
sim = list(csv.reader(open(d + "/s.csv")))
head = rows[0]
if head != ["t", "C1.x", "C1.x/stroke", "HY1.on", "ST1.stepped"]:
    fail("columns %r" % head)
if sim[0] != ["t", "C1.x", "HY1.on", "ST1.stepped"]:
    fail("simulate's columns %r" % sim[0])
if len(rows) != len(sim) or len(rows) < 700:
    fail("%d rows, simulate wrote %d" % (len(rows), len(sim)))
for r, s in zip(rows[1:], sim[1:]):
    if [r[0], r[1], r[3], r[4]] != s:
        fail("row %r differs from simulate's %r" % (r, s))
    x, frac = float(r[1]), float(r[2])
    if abs(frac - x / 0.3) > 1e-9:
        fail("C1.x/stroke %r for x = %r (stroke 0.3 m)" % (frac, x))
    if r[3] not in ("0", "1") or r[4] not in ("0", "1"):
        fail("a switching state that is not 0 or 1: %r" % r)
t = [float(r[0]) for r in rows[1:]]
def changes(col):
    v = [r[col] for r in rows[1:]]
    return [t[k] for k in range(1, len(v)) if v[k] != v[k - 1]]
hy, st = changes(3), changes(4)
# the run must switch: HY1 on while extending, off while retracting
if len(hy) != 2 or len(st) != 1:
    fail("expected HY1 to switch twice and ST1 once, got %r and %r" % (hy, st))
print("transitions: HY1.on at %r, ST1.stepped at %r" % (hy, st))

default = list(csv.reader(open(d + "/default.csv")))
if default[0] != ["t", "C1.x", "C1.x/stroke"]:
    fail("default columns %r" % default[0])

root = ET.parse(d + "/d.svg").getroot()
ns = "{http://www.w3.org/2000/svg}"
title = root.find(ns + "title").text
desc = root.find(ns + "desc").text
for label in ("C1", "HY1.on", "ST1.stepped"):
    if label not in desc:
        fail("the SVG's <desc> does not name %s: %r" % (label, desc))
if "State diagram test" not in title:
    fail("the SVG's <title> %r" % title)
bars = []
for p in root.iter(ns + "path"):
    if "fill:rgb(85%,45%,10%)" not in p.get("style", ""):
        continue
    xs = [float(v) for v in re.findall(r"[ML] ([-0-9.]+) [-0-9.]+", p.get("d"))]
    ys = [float(v) for v in re.findall(r"[ML] [-0-9.]+ ([-0-9.]+)", p.get("d"))]
    bars.append((min(ys), min(xs), max(xs)))
bars.sort()
if len(bars) != 2:
    fail("expected two bars (HY1.on, ST1.stepped), found %d" % len(bars))
(_, ha, hb), (_, sa, sb) = bars
# the step's bar spans [its first sample on, t_end]: the time axis
t_end = t[-1]
scale = (sb - sa) / (t_end - st[0])
def time_at(x):
    return st[0] + (x - sa) / scale
got = [time_at(ha), time_at(hb)]
px = 1 / scale   # the time of one point
# cairo keeps coordinates to 1/256 of a point: an edge drawn at its sample
# maps back to it within a twentieth of a point (here 0.6 ms, a tenth of
# the output interval, so an edge drawn half an interval off fails)
for g, want in zip(got, hy):
    if abs(g - want) > 0.05 * px:
        fail("HY1.on's bar edge at t = %.4f s, the CSV switches at %.4f s (a point is %.4f s)" % (g, want, px))
print("bar edges at t = %.4f, %.4f s (CSV %.4f, %.4f; one point = %.4f s)" % (got[0], got[1], hy[0], hy[1], px))

pdf = open(d + "/d.pdf", "rb").read()
if not pdf.startswith(b"%PDF-") or b"%%EOF" not in pdf[-32:]:
    fail("d.pdf is not a complete PDF")
# the metadata's strings, literal or UTF-16 in hex
meta = " ".join([m.decode("latin-1") for m in re.findall(rb"/Subject \(([^)]*)\)", pdf)]
                + [bytes.fromhex(m.decode()).decode("utf-16") for m in re.findall(rb"/Subject <([0-9A-Fa-f]+)>", pdf)])
for label in ("C1", "HY1.on", "ST1.stepped"):
    if label not in meta:
        fail("the PDF's /Subject does not name %s: %r" % (label, meta))
png = open(d + "/d.png", "rb").read()
if not png.startswith(b"\x89PNG\r\n\x1a\n"):
    fail("d.png is not a PNG")
w = int.from_bytes(png[16:20], "big")
if w != 600:
    fail("d.png is %d pixels wide, --width asked 600" % w)
EOF

# an item that is no row: refused by name, with the rows there are
"$cli" state-diagram "$circuit" --items C1,PU1 >"$dir/out" 2>"$dir/err"
st=$?
[ "$st" = 1 ] || fail "--items PU1: exit $st"
grep -q "'PU1' is neither" "$dir/err" || fail "--items PU1: $(cat "$dir/err")"
grep -q "HY1.on" "$dir/err" || fail "--items PU1 does not list the rows: $(cat "$dir/err")"
# a format it cannot write
"$cli" state-diagram "$circuit" -o "$dir/d.txt" 2>"$dir/err"
st=$?
[ "$st" = 2 ] || fail "-o d.txt: exit $st"
# a folder that does not exist: named, nothing left behind
"$cli" state-diagram "$circuit" -o "$dir/none/d.svg" 2>"$dir/err"
st=$?
[ "$st" = 1 ] || fail "-o none/d.svg: exit $st"
grep -q "none/d.svg" "$dir/err" || fail "-o none/d.svg: $(cat "$dir/err")"
[ ! -e "$dir/none" ] || fail "a folder appeared"

# ---- the electrical control
"$cli" state-diagram "$timer" -o "$dir/e.csv" || fail "state-diagram of the timer circuit"
"$cli" state-diagram "$timer" --items KC1,KT1.since -o "$dir/books.csv" || fail "--items KC1,KT1.since"
python3 - "$dir" <<'EOF' || exit 1
import csv, sys
d = sys.argv[1]
def fail(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)
rows = list(csv.reader(open(d + "/e.csv")))
want = ["t", "C1.x", "C1.x/stroke", "KT1.energised", "KT1.contacts", "Y1.energised", "H1.lit"]
if rows[0] != want:
    fail("default rows %r, expected %r" % (rows[0], want))
data = [[float(v) for v in r] for r in rows[1:]]
dt = data[1][0] - data[0][0]
if any(r[3] != 1 for r in data):
    fail("KT1 is not energised all the time")
def first_on(col):
    for r in data:
        if r[col] == 1:
            return r[0]
    fail("%s never switches on" % want[col])
on = [first_on(c) for c in (4, 5, 6)]
for name, t in zip(want[4:], on):
    if not (1.0 <= t <= 1.0 + dt + 1e-9):
        fail("%s switches on at %.4f s, the delay ends at 1 s (samples every %g s)" % (name, t, dt))
    if any(r[want.index(name)] != (1 if r[0] >= t else 0) for r in data):
        fail("%s is not off before %.4f s and on after" % (name, t))
moving = [r[0] for r in data if r[1] > 1e-3]
if not moving or moving[0] < on[0]:
    fail("the cylinder moves before the solenoid is energised")
print("KT1.contacts, Y1.energised, H1.lit on at %r s; C1 past 1 mm at %.2f s" % (on, moving[0]))
books = list(csv.reader(open(d + "/books.csv")))
if books[0] != ["t", "KC1.actuated", "KT1.since"]:
    fail("--items KC1,KT1.since gives %r" % books[0])
if books[1][2] != "0" or books[-1][1] != "1":
    fail("KT1.since starts at %s (timing from 0 s), KC1.actuated ends at %s" % (books[1][2], books[-1][1]))
EOF
echo "ok"
