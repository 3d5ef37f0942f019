#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gen-bench-circuit.py — large pure-hydraulic circuits for the parallel
speed-up of the tlm solver (issue 14), written as data/bench/*.bramah.

  gen-bench-circuit.py actuators [--n N] [-o FILE]
      N double-acting cylinders (default 24), each behind its own 4/3 valve,
      fed by one pump and relief valve through a supply manifold of hoses;
      the valves switch at staggered times.
  gen-bench-circuit.py ring [--taps N] [--segments S] [--chain] [-o FILE]
      Burton's ring main (1994, §6.5.2) scaled up: a ring of 2·N pipes
      (`line`, distributed model, S segments each; with --chain S `line`s
      of the inertia model in series) fed by a pump, tapped around the ring
      by N valve-and-cylinder actuators and N − 1 orifice loads.
  gen-bench-circuit.py all [--dir DIR]
      the three files with their defaults: actuators-24 into DIR (default
      data/bench), ring-main-8 and ring-main-8-chain into DIR/large (3240
      states each: too large for the tests that run every data/bench file).

Pure hydraulics only (no rod, shaft, signal or electrical wiring), because
the thread partitions are about oil (tlm takes every domain; a signal chain
stays on one thread). Deterministic: the same
arguments give the same bytes. Positions are multiples of 10 on the canvas
grid. Standard library only.
"""
import argparse
import json
import os
import sys

# the fluid of Esqué's circuits (ISO VG 32 mineral oil)
FLUID = {"density": 870, "kinematic_viscosity": 3.2e-5, "bulk_modulus": 1.6e9}


def tank(cid, x, y):
    return {"id": cid, "type": "tank", "position": [x, y], "params": {}}


# Hoses have their friction (version 3); --no-hose-friction makes them
# volumes only.
HOSE_FRICTION = True


def wire(a, b, length=None, diameter=None, route=None):
    c = {"from": a, "to": b}
    if route:
        c["route"] = route
    if length is not None:
        c["length"] = length
    if diameter is not None:
        c["diameter"] = diameter
    if length is not None and diameter is not None and not HOSE_FRICTION:
        c["friction"] = False
    return c


def supply(comps, junctions, conns, x, y, flow, cracking, label_flow):
    """Pump, relief valve and a 1 L supply volume at (x, y); returns the
    junction id the supply delivers to. The volume keeps the relief valve
    from limit-cycling on a small supply hose (data/bench/README.md)."""
    speed = 157.08
    comps.append({"id": "PU1", "type": "fixed_pump", "position": [x, y + 160],
                  "label": f"pump {label_flow:g} L/min",
                  "params": {"displacement": round(flow / speed, 12), "speed": speed}})
    comps.append(tank("TP", x, y + 220))
    comps.append({"id": "RV1", "type": "relief_valve", "position": [x - 100, y + 60],
                  "label": f"relief {cracking / 1e5:g} bar",
                  "params": {"cracking_pressure": cracking, "override_pressure": 1e6,
                             "nominal_flow": flow}})
    comps.append(tank("TR", x - 90, y + 140))
    comps.append({"id": "VS", "type": "volume", "position": [x + 100, y + 60],
                  "label": "supply 1 L", "params": {"volume": 0.001}})
    junctions.append({"id": "JS", "position": [x + 10, y + 40]})
    conns.append(wire("TP.T", "PU1.S"))
    conns.append(wire("PU1.P", "JS", 1.0, 0.02))
    conns.append(wire("JS", "RV1.P", 0.3, 0.02, [[x - 90, y + 40]]))
    conns.append(wire("RV1.T", "TR.T"))
    conns.append(wire("JS", "VS.P", 0.2, 0.02, [[x + 110, y + 40]]))
    return "JS"


def actuator(comps, conns, i, x, y, times, values, label_extra=""):
    """Valve DCVi at (x, y + 240) below cylinder Ci at (x, y); returns the
    valve's P port. Cylinder 40/22 × 300 mm, 60 kg."""
    load = 250.0 * (i % 5)
    comps.append({"id": f"C{i}", "type": "cylinder_double", "position": [x, y],
                  "label": f"C{i} 40/22×300{label_extra}",
                  "params": {"piston_diameter": 0.04, "rod_diameter": 0.022, "stroke": 0.3,
                             "mass": 60, "viscous_friction": 1500, "coulomb_friction": 100,
                             "load_force": load, "initial_position": 0.05}})
    comps.append({"id": f"DCV{i}", "type": "dcv_4_3", "position": [x, y + 240],
                  "params": {"nominal_flow": 2e-4, "nominal_pressure_drop": 5e5,
                             "actuation": "solenoid", "centre": "closed",
                             "spool_time_constant": 0.02,
                             "command": {"step": {"times": times, "values": values}}}})
    comps.append(tank(f"T{i}", x + 100, y + 330))
    conns.append(wire(f"DCV{i}.A", f"C{i}.A", 1.5, 0.01))
    conns.append(wire(f"DCV{i}.B", f"C{i}.B", 1.5, 0.01))
    conns.append(wire(f"DCV{i}.T", f"T{i}.T"))
    return f"DCV{i}.P"


def stagger(i, n, t_end):
    """Extend, hold, retract, centre: actuator i starts (i/n)·0.4·t_end in."""
    t0 = round(0.02 + 0.4 * t_end * i / n, 4)
    return ([t0, round(t0 + 0.25 * t_end, 4), round(t0 + 0.3 * t_end, 4),
             round(t0 + 0.5 * t_end, 4)],
            [0, 1, 0, -1, 0])


def many_actuators(n):
    t_end = 1.0
    per_row = 8
    comps, junctions, conns = [], [], []
    flow_lpm = 2.5 * n  # about a third of the valves' nominal flow at once
    n_rows = (n - 1) // per_row + 1
    js = supply(comps, junctions, conns, 160, 60 + 520 * (n_rows - 1) + 400,
                flow_lpm / 60000, 1.6e7, flow_lpm)
    prev = js
    row_start = js
    for i in range(1, n + 1):
        # row 0 at the bottom, next to the supply; each row fed from the left
        # end of the row below (a riser), then along its header
        row, col = divmod(i - 1, per_row)
        x = 380 + 280 * col
        y = 60 + 520 * (n_rows - 1 - row)
        if col == 0:
            prev = row_start
        times, values = stagger(i - 1, n, t_end)
        p = actuator(comps, conns, i, x, y, times, values)
        # the supply manifold: header junction Hi under the valve
        hid = f"H{i}"
        junctions.append({"id": hid, "position": [x + 10, y + 420]})
        if col == 0:
            conns.append(wire(prev, hid, 1.0 if i > 1 else 1.5, 0.016))
        else:
            conns.append(wire(prev, hid, 0.4, 0.016))
        conns.append(wire(hid, p, 0.5, 0.01))
        if col == 0:
            row_start = hid
        prev = hid
    doc = {
        "format": "bramah-circuit",
        "version": 3,
        "title": f"{n} actuators on a shared supply",
        "description": (
            f"Benchmark circuit for the tlm solver's parallel speed-up (issue 14), generated by "
            f"build-aux/gen-bench-circuit.py actuators --n {n}. One fixed pump "
            f"({flow_lpm:g} L/min), a 160 bar relief valve and a 1 L supply volume feed "
            f"{n} double-acting cylinders (40/22 mm, 300 mm stroke, 60 kg, loads 0–1 kN) through a "
            f"supply manifold of 16 mm hoses (0.4 m between neighbours, a 1 m riser from row to row); each "
            f"cylinder has its own closed-centre 4/3 valve (12 L/min at 5 bar, 20 ms spool) and "
            f"1.5 m of 10 mm hose to each chamber. The valves switch at staggered times: valve i "
            f"extends for 0.25 s from 0.02 + 0.4·(i − 1)/{n} s, holds 0.05 s, retracts 0.2 s and "
            f"centres, so at any time some cylinders move and share the flow and the others "
            f"hold. Pure hydraulics (the rods are not wired) so that --solver tlm runs it."),
        "fluid": FLUID,
        "simulation": {"t_end": t_end, "output_interval": 0.005, "initial_pressure": 2e6},
        "components": comps,
        "junctions": junctions,
        "connections": conns,
        "plots": [
            {"title": "Positions", "traces": [f"C{i}.x" for i in range(1, min(n, 6) + 1)],
             "y_unit": "auto"},
            {"title": "Supply pressure", "traces": ["PU1.P.p", f"DCV{n}.P.p"], "y_unit": "auto"},
        ],
    }
    return doc


def ring_main(taps, segments, chain=False):
    """A ring of 2·taps pipes (nodes R0 … R(2·taps − 1)); the pump feeds R0,
    the odd nodes carry actuators, the even nodes (but R0) orifice loads.
    Each pipe is one `line` of `segments` distributed segments, or with
    chain, `segments` `line` components of the inertia model in series (the
    same equations, but many small components for a solver that steps
    components in parallel)."""
    t_end = 0.4
    n_nodes = 2 * taps
    cols = 10
    rows = (segments + cols - 1) // cols
    comps, junctions, conns = [], [], []
    flow_lpm = 60.0
    # ring on a rectangle: nodes along the top (left to right) then the
    # bottom (right to left); the pipes between them
    top = (n_nodes + 1) // 2
    bottom = n_nodes - top
    x0, y_top, y_bot, dx = 400, 460, 860, 280
    if chain:
        dx = max(280, 100 * cols + 100)
        y_bot = y_top + max(400, 2 * 40 * rows + 240)
        x0 = 320 + 100 * cols + 120  # the left pipe's block between the supply and R0
    pos = []
    for k in range(top):
        pos.append((x0 + dx * k, y_top))
    for k in range(bottom):
        pos.append((x0 + dx * (top - 1 - k) + (dx // 2 if top != bottom else 0), y_bot))
    for k in range(n_nodes):
        junctions.append({"id": f"R{k}", "position": [pos[k][0], pos[k][1]]})
    js = supply(comps, junctions, conns, 160, y_top - 200, flow_lpm / 60000, 1.6e7, flow_lpm)
    conns.append(wire(js, "R0", 1.0, 0.025, [[pos[0][0], y_top - 160]]))
    length = 6.0
    for k in range(n_nodes):
        a, b = pos[k], pos[(k + 1) % n_nodes]
        lid = f"L{k + 1}"
        mx, my = (a[0] + b[0]) // 2, (a[1] + b[1]) // 2
        mx, my = mx - mx % 10, my - my % 10
        if chain:
            # a snake of pieces in a block beside the pipe's two ring nodes
            if a[1] == b[1] == y_top:
                bx, by = min(a[0], b[0]) + 60, y_top + 60
            elif a[1] == b[1]:
                bx, by = min(a[0], b[0]) + 60, y_bot - 60 - 40 * rows
            elif k == top - 1:
                bx, by = max(a[0], b[0]) + 120, y_top + 60
            else:
                bx, by = 320, y_top + 60
            prev = f"R{k}"
            for j in range(segments):
                r, c = divmod(j, cols)
                cx = bx + 100 * (c if r % 2 == 0 else cols - 1 - c)
                pid = f"L{k + 1}_{j + 1}"
                comps.append({"id": pid, "type": "line", "position": [cx, by + 40 * r],
                              "params": {"length": round(length / segments, 9), "diameter": 0.025,
                                         "model": "inertia"}})
                conns.append(wire(prev, f"{pid}.A"))
                prev = f"{pid}.B"
            conns.append(wire(prev, f"R{(k + 1) % n_nodes}"))
            continue
        comp = {"id": lid, "type": "line", "position": [mx - 40, my - 10],
                "label": f"{length:g} m Ø25",
                "params": {"length": length, "diameter": 0.025, "model": "distributed",
                           "segments": segments}}
        if a[1] != b[1]:
            comp["rotation"] = 90
            comp["position"] = [mx - 10, my - 40]
        comps.append(comp)
        conns.append(wire(f"R{k}", f"{lid}.A"))
        conns.append(wire(f"{lid}.B", f"R{(k + 1) % n_nodes}"))
    i_act = 0
    for k in range(1, n_nodes):
        x, y = pos[k]
        if k % 2 == 1:
            i_act += 1
            times, values = stagger(i_act - 1, taps, t_end)
            cy = y - 420 if y == y_top else y + 140
            p = actuator(comps, conns, i_act, x - 10, cy, times, values)
            if y == y_top:
                conns.append(wire(f"R{k}", p, 0.5, 0.012))
            else:
                conns.append(wire(f"R{k}", p, 0.5, 0.012, [[x, y + 60]]))
        else:
            oid = f"OL{k}"
            oy = y - 120 if y == y_top else y + 60
            comps.append({"id": oid, "type": "orifice", "position": [x - 10, oy],
                          "rotation": 90, "label": f"load Ø2", "params": {"diameter": 0.002}})
            comps.append(tank(f"TO{k}", x - 10, oy + (-60 if y == y_top else 80)))
            if y == y_top:
                conns.append(wire(f"R{k}", f"{oid}.B"))
                conns.append(wire(f"{oid}.A", f"TO{k}.T"))
            else:
                conns.append(wire(f"R{k}", f"{oid}.A"))
                conns.append(wire(f"{oid}.B", f"TO{k}.T"))
    n_states_lines = n_nodes * (2 * segments - 1)
    doc = {
        "format": "bramah-circuit",
        "version": 3,
        "title": f"Ring main, {n_nodes} pipes and {taps * 2 - 1} taps"
                 + (f" (pipes as chains of {segments} lines)" if chain else ""),
        "description": (
            f"Benchmark circuit for the tlm solver's parallel speed-up (issue 14), generated by "
            f"build-aux/gen-bench-circuit.py ring --taps {taps} --segments {segments}"
            + (" --chain" if chain else "") + ". Burton's "
            f"ring main (1994, §6.5.2) scaled up: a ring of {n_nodes} pipes, each {length:g} m of "
            + (f"25 mm bore modelled as {segments} `line` components of the inertia model in series "
               f"(the same equations as a distributed line of {segments} segments, as many small "
               f"components)" if chain else
               f"25 mm bore modelled as a distributed line of {segments} segments")
            + f" (the waves along the ring: about {n_states_lines} of the circuit's states), fed at R0 by a {flow_lpm:g} L/min "
            f"pump with a 160 bar relief valve and a 1 L supply volume. Around the ring, every "
            f"odd node feeds a 40/22 mm cylinder through its own closed-centre 4/3 valve "
            f"(switching at staggered times as in the actuators benchmark) and every even node "
            f"but R0 a 2 mm orifice to tank (a steady consumer). The valves' switching sends "
            f"pressure waves round the ring. Pure hydraulics so that --solver tlm runs it."),
        "fluid": FLUID,
        "simulation": {"t_end": t_end, "output_interval": 0.002, "initial_pressure": 2e6},
        "components": comps,
        "junctions": junctions,
        "connections": conns,
        "plots": [
            {"title": "Ring pressures", "traces": ["PU1.P.p"] +
             [f"DCV{i}.P.p" for i in range(1, min(taps, 4) + 1)], "y_unit": "auto"},
            {"title": "Positions", "traces": [f"C{i}.x" for i in range(1, min(taps, 4) + 1)],
             "y_unit": "auto"},
        ],
    }
    return doc


NOTES = (" The hoses have their friction (format version 3). The cylinders cavitate "
         "briefly in a chamber after a valve centres (the trapped oil spring rebounds, lightly "
         "damped).")


def write(doc, path):
    doc["description"] += NOTES
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {path}: {len(doc['components'])} components, "
          f"{len(doc['connections'])} connections", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="kind", required=True)
    a = sub.add_parser("actuators")
    a.add_argument("--n", type=int, default=24)
    a.add_argument("-o", "--output")
    r = sub.add_parser("ring")
    r.add_argument("--taps", type=int, default=8)
    r.add_argument("--segments", type=int, default=100)
    r.add_argument("--chain", action="store_true",
                   help="each pipe as SEGMENTS inertia lines in series instead of one distributed line")
    r.add_argument("-o", "--output")
    al = sub.add_parser("all")
    al.add_argument("--dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "..", "data", "bench"))
    ap.add_argument("--no-hose-friction", action="store_true",
                    help="hoses as volumes only (\"friction\": false)")
    args = ap.parse_args()
    global HOSE_FRICTION
    HOSE_FRICTION = not args.no_hose_friction
    if args.kind == "actuators":
        if args.n < 1:
            ap.error("--n must be at least 1")
        write(many_actuators(args.n), args.output or f"actuators-{args.n}.bramah")
    elif args.kind == "ring":
        if args.taps < 1 or not 2 <= args.segments <= 100000:
            ap.error("--taps must be at least 1 and --segments within 2 … 100000")
        write(ring_main(args.taps, args.segments, args.chain),
              args.output or f"ring-main-{args.taps}{'-chain' if args.chain else ''}.bramah")
    else:
        write(many_actuators(24), os.path.join(args.dir, "actuators-24.bramah"))
        large = os.path.join(args.dir, "large")
        os.makedirs(large, exist_ok=True)
        write(ring_main(8, 100), os.path.join(large, "ring-main-8.bramah"))
        write(ring_main(8, 100, True), os.path.join(large, "ring-main-8-chain.bramah"))


if __name__ == "__main__":
    main()
