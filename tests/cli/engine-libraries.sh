#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bramah-cli runs the engine's commands and loads only what they need
# (issue 13): none of the libraries of drawing, plotting or SUNDIALS, which
# only bramah-cli-graphics loads (app/meson.build). Every library the
# dynamic loader maps for each (ldd: the whole tree, not only the direct
# NEEDED entries of readelf -d); the helper must show them, so that the
# pattern is known to match.
#   engine-libraries.sh BRAMAH_CLI BRAMAH_CLI_GRAPHICS
set -u
cli=$1
helper=$2
fails=0
fail () { printf 'FAIL: %s\n' "$*"; fails=$((fails + 1)); }

# drawing and plotting: Cairo, Pango, GTK/GDK, PLplot, X11, fonts, images
graphics='libcairo|libpango|libgtk|libgdk|libplplot|libX11|libxcb|libfontconfig|libfreetype|libpng|libpixman|libharfbuzz'
sundials='libsundials'

libs=$(ldd "$cli") || { echo "FAIL: ldd $cli"; exit 1; }
helper_libs=$(ldd "$helper") || { echo "FAIL: ldd $helper"; exit 1; }
for pattern in "$graphics" "$sundials"; do
  found=$(printf '%s\n' "$libs" | grep -E "$pattern" | awk '{print $1}' | tr '\n' ' ')
  [ -z "$found" ] || fail "bramah-cli loads $found"
  printf '%s\n' "$helper_libs" | grep -qE "$pattern" \
    || fail "bramah-cli-graphics loads nothing matching $pattern: the check cannot see it"
done
# and its direct needs are the engine's
needed=$(readelf -d "$cli" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
for lib in $needed; do
  case $lib in
    libglib-2.0.so.*|libjson-glib-1.0.so.*|libgobject-2.0.so.*|libgio-2.0.so.*|libm.so.*|libc.so.*|ld-linux*|liblapacke.so.*|libklu.so.*|libhdf5*|libmatio*) ;;
    *) fail "bramah-cli needs $lib (readelf -d), not one of the engine's libraries" ;;
  esac
done
echo "bramah-cli loads $(printf '%s\n' "$libs" | wc -l) libraries, bramah-cli-graphics $(printf '%s\n' "$helper_libs" | wc -l)"
[ "$fails" -eq 0 ] || exit 1
