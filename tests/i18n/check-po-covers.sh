#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-po-covers.sh SOURCE_ROOT PO — the translation covers every string the
# sources mark today: those of the files in po/POTFILES.in and of any C file
# or GtkBuilder template under app/, ui/, engine/, canvas/ and symbols/ (a
# file with marked strings missing from POTFILES.in fails here too).
set -u
root="$1"
po="$2"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bramah-i18n.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

cd "$root" || exit 1
{
  grep -v '^#' po/POTFILES.in | grep -v '^[[:space:]]*$'
  find app ui engine canvas symbols -name '*.c' -o -name '*.ui' 2>/dev/null
} | sort -u > "$tmp/files"

# The keywords of meson's "glib" gettext preset (po/meson.build).
if ! xgettext --from-code=UTF-8 --package-name=bramah -D "$root" -f "$tmp/files" \
       -o "$tmp/sources.pot" \
       --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
       --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
       2> "$tmp/xgettext.log"; then
  cat "$tmp/xgettext.log" >&2
  exit 1
fi

# Untranslated and fuzzy messages of the .po count as missing.
if ! msgcmp "$po" "$tmp/sources.pot"; then
  echo "$po does not translate every marked string: list new files in po/POTFILES.in," \
       "run ninja bramah-update-po and translate what it adds" >&2
  exit 1
fi
echo "$po covers the $(($(grep -c "^msgid " "$tmp/sources.pot") - 1)) messages marked in the sources"
