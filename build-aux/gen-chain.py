#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# gen-chain.py N OUT: a circuit of N components for timing large loads and
# checks: a flow source, then (volume, orifice) pairs in a chain, then a tank.
import json
import sys

n = int(sys.argv[1])
comps = [{"id": "FS1", "type": "flow_source", "position": [0, 0], "params": {"flow": 0.001}}]
conns = []
prev = "FS1.P"
k = 1
while len(comps) < n - 1:
    comps.append({"id": f"V{k}", "type": "volume", "position": [k * 10 % 10000, k // 1000 * 10],
                  "params": {"volume": 1e-4}})
    comps.append({"id": f"OR{k}", "type": "orifice", "position": [k * 10 % 10000, k // 1000 * 10 + 5],
                  "params": {"diameter": 0.004}})
    conns.append({"from": prev, "to": f"V{k}.P"})
    conns.append({"from": f"V{k}.P2", "to": f"OR{k}.A"})
    prev = f"OR{k}.B"
    k += 1
comps.append({"id": "T1", "type": "tank", "position": [0, 0], "params": {}})
conns.append({"from": prev, "to": "T1.T"})
with open(sys.argv[2], "w") as out:
    json.dump({"format": "bramah-circuit", "version": 1, "title": "big", "simulation": {"t_end": 1},
               "components": comps, "connections": conns}, out, indent=1)
