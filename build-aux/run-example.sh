#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Sets everything up, builds Bramah and starts it with an example circuit.
# Without a display (a terminal, CI), it simulates the example with
# bramah-cli instead and prints a summary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash build-aux/setup.sh
if [ -f build/build.ninja ]; then meson setup --reconfigure build >/dev/null; else meson setup build >/dev/null; fi
meson compile -C build >/dev/null
example=${1:-data/examples/cylinder-extend-retract.bramah}
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec build/app/bramah "$example"
fi
echo "No display: simulating $example with bramah-cli instead"
exec build/app/bramah-cli simulate "$example" --summary --stats
