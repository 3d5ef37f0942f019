#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs every Debian package Bramah needs to build, run and test.
# Idempotent: silent when everything is already installed. Needs root (or sudo).
set -euo pipefail

packages=(
  build-essential pkg-config meson ninja-build gettext
  libglib2.0-dev libglib2.0-dev-bin libjson-glib-dev
  libgtk-4-dev libepoxy-dev librsvg2-dev libcairo2-dev
  liblapacke-dev liblapack-dev libblas-dev
  libsuitesparse-dev libsundials-dev
  libplplot-dev plplot-driver-cairo
  desktop-file-utils appstream
  xvfb xauth xdotool imagemagick fonts-dejavu-core
  clang-14 libclang-rt-14-dev
  libhdf5-dev
  libopenmpi-dev openmpi-bin libnlopt-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

[ ${#missing[@]} -eq 0 ] && exit 0

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
