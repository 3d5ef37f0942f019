#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-installed-paths.sh PRINT_PATHS SOURCE_ROOT BUILD_ROOT — an installed
# binary must not read the build or source tree (issue 9, item 14). The same
# program runs in its build tree (it uses the trees), then copied out of it,
# as `meson install` would place it (it uses only installed directories,
# although the trees are still there), then copied with BRAMAH_UNINSTALLED=1
# (the explicit override).
set -u
prog="$1"; src="$2"; build="$3"
unset BRAMAH_EXAMPLES_DIR BRAMAH_SYMBOL_DIR BRAMAH_UNINSTALLED GSETTINGS_SCHEMA_DIR
export GSETTINGS_BACKEND=memory
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bramah-installed.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

in_tree=$("$prog") || { echo "$prog failed"; exit 1; }
echo "in the build tree:"; echo "$in_tree" | sed 's/^/  /'
echo "$in_tree" | grep -qx "uninstalled: yes" || { echo "FAIL: not seen as uninstalled"; fail=1; }
echo "$in_tree" | grep -qx "examples: $src/data/examples" || { echo "FAIL: examples not from the source tree"; fail=1; }
echo "$in_tree" | grep -qx "locale: $build/po" || { echo "FAIL: translations not from the build tree"; fail=1; }
echo "$in_tree" | grep -qx "settings: found" || { echo "FAIL: the build tree's settings schema not found"; fail=1; }

cp "$prog" "$tmp/bramah-installed"
out=$("$tmp/bramah-installed" 2>/dev/null) || { echo "the copied program failed"; exit 1; }
echo "copied out of the tree:"; echo "$out" | sed 's/^/  /'
echo "$out" | grep -qx "uninstalled: no" || { echo "FAIL: a copy is seen as uninstalled"; fail=1; }
if echo "$out" | grep -F -e "$src" -e "$build" >/dev/null; then
  echo "FAIL: an installed binary reads the source or build tree"; fail=1
fi
echo "$out" | grep -qx "settings: none" || { echo "FAIL: the build tree's settings schema used by a copy"; fail=1; }

forced=$(BRAMAH_UNINSTALLED=1 "$tmp/bramah-installed")
echo "$forced" | grep -qx "uninstalled: yes" || { echo "FAIL: BRAMAH_UNINSTALLED=1 ignored"; fail=1; }
exit $fail
