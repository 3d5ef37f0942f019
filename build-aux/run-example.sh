#!/usr/bin/env bash
# Sets everything up, builds Bramah and runs an example circuit.
set -euo pipefail
cd "$(dirname "$0")/.."
bash build-aux/setup.sh
if [ -f build/build.ninja ]; then meson setup --reconfigure build >/dev/null; else meson setup build >/dev/null; fi
meson compile -C build >/dev/null
example=${1:-data/examples/cylinder-extend-retract.bramah}
echo "Simulating $example"
exec build/app/bramah-cli simulate "$example" --summary --stats
