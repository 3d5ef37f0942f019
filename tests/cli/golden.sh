#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# golden: what bramah-cli prints — stdout, stderr and exit status — for a
# representative set of invocations of every command, byte for byte against
# tests/cli/golden/cli.golden. Recorded with the binary before the commands
# moved into one file each (issue 10): the split must not change a byte.
# Every example is checked, described, simulated (--summary) and
# jacobian-checked at 5 points; the error cases are a missing file, a
# malformed one, unknown options, values out of range and misspelt choices.
# migrate (added with the command) writes the small circuit and refuses
# what it cannot read. bench runs nothing long here (its --help and usage errors); times (the
# wall_s of --stats) are masked.
# Usage: golden.sh BRAMAH_CLI SOURCE_DIR [--update]
#   --update rewrites the golden file from this binary (review the diff).
set -u
# absolute: the cases run in a scratch folder
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$2
update=${3:-}
golden=$src/tests/cli/golden/cli.golden
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# English, UTF-8, whatever the caller's locale
unset LANGUAGE
export LC_ALL=C.UTF-8
got=$dir/got
: >"$got"
mkdir "$dir/work"
cd "$dir/work" || exit 1
# short relative paths, the same in every checkout
ln -s "$src/data/examples" ex
ln -s "$src/tests/cli" cli

mask () {
  sed -e 's/^wall_s: .*/wall_s: (masked)/'
}

# run NAME ARGS...: one case
run () {
  name=$1
  shift
  {
    printf '### %s: bramah-cli' "$name"
    for a in "$@"; do printf ' %s' "$a"; done
    printf '\n'
  } >>"$got"
  timeout 120 "$cli" "$@" >"$dir/out" 2>"$dir/err"
  st=$?
  printf 'exit %d\n--- stdout\n' "$st" >>"$got"
  mask <"$dir/out" >>"$got"
  printf -- '--- stderr\n' >>"$got"
  mask <"$dir/err" >>"$got"
}

# a file: its bytes (small text) or its checksum
show_file () {
  printf '### file %s\n' "$1" >>"$got"
  if [ ! -e "$1" ]; then
    printf '(absent)\n' >>"$got"
  elif [ "${2:-}" = sum ]; then
    printf '%s bytes, sha256 %s\n' "$(wc -c <"$1")" "$(sha256sum <"$1" | cut -d' ' -f1)" >>"$got"
  else
    cat "$1" >>"$got"
  fi
}

# ---- the program itself
run no-command
run help --help
run help-h -h
run help-word help
run unknown-command frobnicate
for c in simulate check describe jacobian-check components solvers verify bench render migrate state-diagram; do
  run "help-$c" "$c" --help
done

# ---- every example
for f in ex/*.bramah; do
  b=$(basename "$f" .bramah)
  run "check-$b" check "$f"
  run "describe-$b" describe "$f"
  run "summary-$b" simulate --summary "$f"
  run "jacobian-$b" jacobian-check --points 5 "$f"
done

# ---- simulate
run simulate-csv simulate --output-interval 0.05 cli/small.bramah
run simulate-vars simulate --output-interval 0.1 --vars 'V1.P.p, OR1.A.q' cli/small.bramah
run simulate-stats simulate --stats --summary cli/small.bramah
run simulate-set simulate --summary --set OR1.diameter=0.002 --solver bdf --t-end 0.2 cli/small.bramah
run simulate-set-profile simulate --summary --set 'FS1.flow={"step":{"times":[0.1],"values":[0.001,0.002]}}' cli/small.bramah
run simulate-fixed simulate --summary --fixed-step 0.001 --solver rk4 cli/small.bramah
run simulate-events-off simulate --summary --events off --fd-jacobian ex/cylinder-extend-retract.bramah
run simulate-output simulate --output-interval 0.1 -o out.csv cli/small.bramah
show_file out.csv
run simulate-missing simulate nosuch.bramah
run simulate-no-file simulate
run simulate-two-files simulate cli/small.bramah cli/small.bramah
run simulate-bad-option simulate --frobnicate cli/small.bramah
run simulate-missing-value simulate cli/small.bramah --t-end
run simulate-t-end-range simulate --t-end 2e9 cli/small.bramah
run simulate-t-end-nan simulate --t-end abc cli/small.bramah
run simulate-rtol-range simulate --rtol 1 cli/small.bramah
run simulate-atol-range simulate --atol 0 cli/small.bramah
run simulate-fixed-range simulate --fixed-step -1 cli/small.bramah
run simulate-interval-range simulate --output-interval 1e999 cli/small.bramah
run simulate-bad-solver simulate --solver nosuch cli/small.bramah
run simulate-bad-events simulate --events maybe cli/small.bramah
run simulate-set-no-eq simulate --set OR1.diameter cli/small.bramah
run simulate-set-huge simulate --set OR1.diameter=1e999 cli/small.bramah
run simulate-set-no-comp simulate --set X9.diameter=1 cli/small.bramah
run simulate-set-bad-param simulate --set OR1.colour=1 cli/small.bramah
run simulate-set-out-of-range simulate --set OR1.diameter=-1 cli/small.bramah
run simulate-bad-vars simulate --vars V1.nosuch cli/small.bramah
run simulate-too-many-samples simulate --t-end 1e9 --output-interval 1e-3 cli/small.bramah
run simulate-unwritable simulate -o nodir/out.csv cli/small.bramah

# ---- files that do not load
printf '{ "format": "bramah-circuit", "version": 1,\n  "components": [ }\n' >malformed.bramah
printf '{ "format": "bramah-circuit", "version": 1, "components": [ { "id": "Q1", "type": "warp_drive" } ], "connections": [] }\n' >unknown-type.bramah
printf '{ "format": "bramah-circuit", "version": 7, "components": [], "connections": [] }\n' >version7.bramah
printf '{ "format": "bramah-circuit", "version": 1, "simulation": { "solver": "nosuch" }, "components": [], "connections": [] }\n' >bad-solver.bramah
printf '{ "format": "bramah-circuit", "version": 1, "components": [ { "id": "V1", "type": "volume", "params": { "volume": 1e-3 } } ], "connections": [] }\n' >unconnected.bramah
for c in check describe jacobian-check; do
  run "$c-missing" "$c" nosuch.bramah
  run "$c-malformed" "$c" malformed.bramah
  run "$c-unknown-type" "$c" unknown-type.bramah
  run "$c-version" "$c" version7.bramah
  run "$c-unconnected" "$c" unconnected.bramah
  run "$c-folder" "$c" ex
  run "$c-no-file" "$c"
  run "$c-bad-option" "$c" --frobnicate cli/small.bramah
done
run check-bad-solver check bad-solver.bramah
run simulate-file-bad-solver simulate bad-solver.bramah
run simulate-malformed simulate malformed.bramah
run check-two-files check cli/small.bramah cli/small.bramah
run check-small check cli/small.bramah
run describe-motor describe cli/data/motor-two-volumes.bramah
run jacobian-points-0 jacobian-check --points 0 cli/small.bramah
run jacobian-points-frac jacobian-check --points 2.5 cli/small.bramah
run jacobian-points-range jacobian-check --points 20000 cli/small.bramah
run jacobian-points-neg jacobian-check --points -1 cli/small.bramah
# standard output that cannot be written
if [ -w /dev/full ]; then
  run check-dev-full check cli/small.bramah >/dev/null
  # (run's own redirection wins; write to /dev/full by hand)
  timeout 60 "$cli" check cli/small.bramah >/dev/full 2>"$dir/err"
  printf '### check >/dev/full\nexit %d\n--- stderr\n' $? >>"$got"
  cat "$dir/err" >>"$got"
fi

# ---- components, solvers
run components components
run components-type components relief_valve
run components-dcv components dcv_4_3
run components-unknown components warp_drive
run components-two components orifice tank
run components-bad-option components --frobnicate
run solvers solvers
run solvers-arg solvers extra
run solvers-bad-option solvers --frobnicate

# ---- verify (the runs print times: only errors here)
run verify-rtol-range verify --rtol 2
run verify-rtol-nan verify --rtol abc
run verify-arg verify extra
run verify-bad-solver verify --solver nosuch
run verify-bad-option verify --frobnicate

# ---- bench (long runs: only errors here)
run bench-arg bench extra
run bench-repeat-range bench --repeat 0 --circuit cli/small.bramah
run bench-against bench --against nosuch --circuit cli/small.bramah
run bench-rtol bench --rtol 1e999 --circuit cli/small.bramah
run bench-cvode-rtol bench --cvode-rtol 1e-4,abc --circuit cli/small.bramah
run bench-clock bench --clock sundial --circuit cli/small.bramah
run bench-events bench --events maybe --circuit cli/small.bramah
run bench-plot bench --plot out.jpg --circuit cli/small.bramah
run bench-solver bench --solver nosuch --circuit cli/small.bramah
run bench-bad-option bench --frobnicate

# ---- render
run render-svg render ex/motor-relief.bramah out.svg
show_file out.svg sum
run render-at render --at 0.5 --labels ids --theme dark ex/motor-relief.bramah at.svg
show_file at.svg sum
run render-one-arg render ex/motor-relief.bramah
run render-extension render ex/motor-relief.bramah out.gif
run render-labels render --labels some ex/motor-relief.bramah out.svg
run render-theme render --theme sepia ex/motor-relief.bramah out.svg
run render-scale render --scale 0 ex/motor-relief.bramah out.svg
run render-at-range render --at -1 ex/motor-relief.bramah out.svg
run render-missing render nosuch.bramah out.svg
run render-malformed render malformed.bramah out.svg
run render-unwritable render ex/motor-relief.bramah nodir/out.svg
run render-bad-option render --frobnicate ex/motor-relief.bramah out.svg

# ---- migrate
run migrate migrate cli/small.bramah -o small-v1.bramah
show_file small-v1.bramah
run migrate-missing migrate nosuch.bramah -o x.bramah
run migrate-malformed migrate malformed.bramah -o x.bramah
run migrate-version migrate version7.bramah -o x.bramah
run migrate-no-output migrate cli/small.bramah
run migrate-no-file migrate -o x.bramah
run migrate-unwritable migrate cli/small.bramah -o nodir/x.bramah
show_file x.bramah

# ---- export-c (tests/cli/export-c.sh builds and runs what it writes; the
# program's text follows the engine's sources, so only its companions here)
run help-export-c export-c --help
run export-c export-c cli/small.bramah -o exported
show_file exported/Makefile
show_file exported/README
run export-c-refused export-c ex/electro-timer-delayed-return.bramah -o refused
show_file refused
run export-c-no-output export-c cli/small.bramah
run export-c-no-file export-c -o exported
run export-c-bad-name export-c --name 'a b' cli/small.bramah -o exported
run export-c-missing export-c nosuch.bramah -o exported

# ---- state-diagram (tests/cli/state-diagram.sh checks the drawing)
run state-diagram-csv state-diagram cli/data/state-diagram.bramah --items C1,HY1.on --output-interval 0.5
run state-diagram-default state-diagram ex/cylinder-extend-retract.bramah --t-end 1 --output-interval 0.25
run state-diagram-item state-diagram cli/data/state-diagram.bramah --items C1,PU1
run state-diagram-none state-diagram ex/motor-relief.bramah
run state-diagram-extension state-diagram cli/data/state-diagram.bramah -o out.gif
run state-diagram-width state-diagram cli/data/state-diagram.bramah --width 10 -o out.svg
run state-diagram-unwritable state-diagram cli/data/state-diagram.bramah -o nodir/out.svg

# ---- explain (tests/cli/explain.sh checks the figures)
run help-explain explain --help
run explain-motor explain ex/motor-relief.bramah
run explain-motor-at explain --at 0.5 ex/motor-relief.bramah
run explain-json explain --json cli/small.bramah
run explain-at-range explain --at -1 cli/small.bramah
run explain-missing explain nosuch.bramah
run explain-no-file explain
run help-linearize linearize --help
run linearize-resonance linearize ex/cylinder-mass-spring-resonance.bramah --at 3.5 --input C1.load_force --output C1.x --bode 30:45:7 --step 0.05:5
run linearize-csv linearize cli/data/cylinder-oil-column.bramah --input C1.load_force --output C1.x --bode 10:100:5 --csv
run linearize-bad-input linearize cli/small.bramah --input OR1.colour --output V1.P.p
run linearize-no-dot linearize cli/small.bramah --input OR1 --output V1.P.p
run linearize-bad-output linearize cli/small.bramah --input OR1.diameter --output V1.nosuch
run linearize-no-output linearize cli/small.bramah --input OR1.diameter
run linearize-bad-bode linearize cli/small.bramah --input OR1.diameter --output V1.P.p --bode 100:10:5
run linearize-bode-form linearize cli/small.bramah --input OR1.diameter --output V1.P.p --bode 1:10
run linearize-csv-alone linearize cli/small.bramah --input OR1.diameter --output V1.P.p --csv
# ---- sweep and optimize (issue 16; tests/cli/sweep.sh, sweep-mpi.sh and
# optimize.sh check the studies; -q: the progress has times in it)
run help-sweep sweep --help
run help-optimize optimize --help
run sweep-grid sweep -q --jobs 2 --vary G1.damping_ratio=0.2:1:3 --vary G1.natural_frequency=5:10:2 --metric overshoot:G1.Y --metric 'time_to:G1.Y>=0.5' cli/data/second-order-step.bramah
run sweep-lhs sweep -q --lhs 4 --seed 3 --vary G1.damping_ratio=normal:0.3:0.4 --metric settling:G1.Y:5% --metric ise:E1.Y cli/data/second-order-step.bramah
run sweep-no-vary sweep -q --metric final:E1.Y cli/data/second-order-step.bramah
run sweep-no-metric sweep -q --vary G1.damping_ratio=0:1:3 cli/data/second-order-step.bramah
run sweep-bad-vary sweep -q --vary G1.damping_ratio=0:1:x --metric final:E1.Y cli/data/second-order-step.bramah
run sweep-bad-metric sweep -q --vary G1.damping_ratio=0:1:3 --metric 'time_to:E1.Y' cli/data/second-order-step.bramah
run sweep-grid-random sweep -q --random 3 --vary G1.damping_ratio=0:1:3 --metric final:E1.Y cli/data/second-order-step.bramah
run sweep-unknown-component sweep -q --vary X1.gain=0:1:3 --metric final:E1.Y cli/data/second-order-step.bramah
run sweep-out-of-range sweep -q --vary G1.damping_ratio=-1:1:3 --metric final:E1.Y cli/data/second-order-step.bramah
run sweep-unknown-variable sweep -q --vary G1.damping_ratio=0:1:3 --metric final:G1.Q cli/data/second-order-step.bramah
run sweep-missing sweep -q --vary G1.damping_ratio=0:1:3 --metric final:E1.Y nosuch.bramah
run optimize-no-minimize optimize --vary G1.damping_ratio=0.1:2 cli/data/second-order-step.bramah
run optimize-grid optimize --vary G1.damping_ratio=0.1:2:3 --minimize ise:E1.Y cli/data/second-order-step.bramah
# --timeout and crash isolation (tests/cli/sweep-isolate.sh checks them)
run sweep-timeout-zero sweep -q --timeout 0 --vary G1.damping_ratio=0:1:3 --metric final:E1.Y cli/data/second-order-step.bramah
run sweep-no-isolate sweep -q --no-isolate --jobs 2 --vary G1.damping_ratio=0.2:1:3 --metric final:E1.Y cli/data/second-order-step.bramah
run optimize-timeout-text optimize --timeout soon --vary G1.damping_ratio=0.1:2 --minimize ise:E1.Y cli/data/second-order-step.bramah

if [ "$update" = --update ]; then
  cp "$got" "$golden"
  echo "wrote $golden ($(grep -c '^### ' "$golden") cases)"
  exit 0
fi
if ! [ -f "$golden" ]; then
  echo "FAIL: no $golden (run with --update to record it)"
  exit 1
fi
if diff -u "$golden" "$got" >"$dir/diff"; then
  echo "PASS: $(grep -c '^### ' "$got") cases as recorded"
  exit 0
fi
echo "FAIL: bramah-cli's output differs from $golden:"
head -n 300 "$dir/diff"
exit 1
