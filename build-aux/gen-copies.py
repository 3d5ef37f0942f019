#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gen-copies.py — N independent copies of one circuit in one file, for the
parallel speed-up of the tlm solver (docs/solvers.md, "TLM", "Parallel"):
every component and junction id gets the suffix _k, every copy is shifted
on the sheet, and the plots are dropped.

    build-aux/gen-copies.py data/examples/burton-two-actuator.bramah 16 > x16.bramah
"""
import json
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen-copies.py CIRCUIT N > OUT.bramah")
    src = json.load(open(sys.argv[1]))
    n = int(sys.argv[2])
    out = {k: v for k, v in src.items() if k not in ("components", "junctions", "connections", "plots")}
    out["title"] = "%s, %d copies" % (src.get("title", "circuit"), n)
    out["components"], out["junctions"], out["connections"] = [], [], []

    def ren(end):
        # "C1.A" → "C1_k.A"; a junction "J1" → "J1_k"
        ident, dot, port = end.partition(".")
        return "%s_%d%s%s" % (ident, k, dot, port)

    for k in range(n):
        dx = 1000 * (k % 8)
        dy = 800 * (k // 8)
        for c in src["components"]:
            c = dict(c, id="%s_%d" % (c["id"], k))
            c["position"] = [c["position"][0] + dx, c["position"][1] + dy]
            out["components"].append(c)
        for j in src.get("junctions", []):
            out["junctions"].append(dict(j, id="%s_%d" % (j["id"], k),
                                         position=[j["position"][0] + dx, j["position"][1] + dy]))
        for w in src["connections"]:
            w = dict(w, **{"from": ren(w["from"]), "to": ren(w["to"])})
            if "route" in w:
                w["route"] = [[x + dx, y + dy] for x, y in w["route"]]
            out["connections"].append(w)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
