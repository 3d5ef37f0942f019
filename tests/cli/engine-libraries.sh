#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bramah-cli runs the engine's commands and loads only what they need
# (issue 13): none of the libraries of drawing, plotting or SUNDIALS, which
# only bramah-cli-graphics loads (app/meson.build), and LAPACK and KLU only
# at their first call (app/cli-lazy-libs.c). Every library the dynamic
# loader maps at start for each (ldd: the whole tree, not only the direct
# NEEDED entries of readelf -d); the helper must show them, so that the
# pattern is known to match. Then a describe, which calls LAPACK, loads it;
# a simulate of CIRCUIT (at most HYD_SMALL_DENSE_MAX = 12 states) factors
# with the engine's own small dense LU and loads neither; one of LARGE (more
# states) loads KLU and not LAPACK.
#   engine-libraries.sh BRAMAH_CLI BRAMAH_CLI_GRAPHICS CIRCUIT LARGE
set -u
cli=$1
helper=$2
fails=0
fail () { printf 'FAIL: %s\n' "$*"; fails=$((fails + 1)); }

# drawing and plotting: Cairo, Pango, GTK/GDK, PLplot, X11, fonts, images
graphics='libcairo|libpango|libgtk|libgdk|libplplot|libX11|libxcb|libfontconfig|libfreetype|libpng|libpixman|libharfbuzz'
sundials='libsundials'
# LAPACK (with gfortran) and KLU (with AMD, COLAMD, BTF), until a solve
solvers='liblapack|libblas|libgfortran|libquadmath|libklu|libamd|libcolamd|libbtf|libsuitesparseconfig'

libs=$(ldd "$cli") || { echo "FAIL: ldd $cli"; exit 1; }
helper_libs=$(ldd "$helper") || { echo "FAIL: ldd $helper"; exit 1; }
for pattern in "$graphics" "$sundials" "$solvers"; do
  found=$(printf '%s\n' "$libs" | grep -E "$pattern" | awk '{print $1}' | tr '\n' ' ')
  [ -z "$found" ] || fail "bramah-cli loads $found"
  printf '%s\n' "$helper_libs" | grep -qE "$pattern" \
    || fail "bramah-cli-graphics loads nothing matching $pattern: the check cannot see it"
done
# and its direct needs are the engine's
needed=$(readelf -d "$cli" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
for lib in $needed; do
  case $lib in
    libglib-2.0.so.*|libjson-glib-1.0.so.*|libgobject-2.0.so.*|libgio-2.0.so.*|libm.so.*|libc.so.*|ld-linux*|libhdf5*|libmatio*) ;;
    *) fail "bramah-cli needs $lib (readelf -d), not one of the engine's libraries" ;;
  esac
done
# loaded when called: the libraries a run maps (LD_DEBUG=files)
circuit=$3
large=$4
for run in "describe $circuit" "simulate $circuit --solver rodas4 -o /dev/null" \
           "simulate $large --solver rodas4 -o /dev/null"; do
  # shellcheck disable=SC2086
  loaded=$(LD_DEBUG=files "$cli" $run 2>&1 >/dev/null | grep -oE 'file=[^ ]*(liblapacke|libklu)[^ ]*' | sort -u | tr '\n' ' ')
  "$cli" $run >/dev/null 2>&1 || fail "$run failed"
  case $run in
    describe*) case $loaded in *liblapacke*) ;; *) fail "describe did not load LAPACKE: $loaded" ;; esac ;;
    # its LU: the engine's own for a small circuit, KLU for a larger one
    "simulate $circuit "*) [ -z "$loaded" ] || fail "simulate of a small circuit loaded $loaded" ;;
    simulate*) case $loaded in *libklu*) ;; *) fail "simulate of $large did not load KLU: $loaded" ;; esac
               case $loaded in *liblapacke*) fail "simulate of $large loaded LAPACKE: $loaded" ;; esac ;;
  esac
done
echo "bramah-cli loads $(printf '%s\n' "$libs" | wc -l) libraries, bramah-cli-graphics $(printf '%s\n' "$helper_libs" | wc -l)"
[ "$fails" -eq 0 ] || exit 1
