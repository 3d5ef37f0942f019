#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-po.sh PO — the translation compiles cleanly (msgfmt --check: headers,
# plural forms, c-format placeholders) and is complete: no untranslated and
# no fuzzy message; and no string continues an entry across a blank line
# (msgfmt joins it to the entry above: an old translation whose msgid had
# been deleted once made the German "Actuation" read "BetätigungWie der
# Steuerschieber betätigt wird …").
set -u
po="$1"
stats=$(msgfmt --check --statistics -o /dev/null "$po" 2>&1)
status=$?
printf '%s\n' "$stats"
if [ "$status" -ne 0 ]; then
  echo "msgfmt --check failed on $po" >&2
  exit 1
fi
case "$stats" in
  *untranslated*|*fuzzy*)
    echo "$po is incomplete: translate every message and clear the fuzzy flags (ninja bramah-update-po first)" >&2
    exit 1 ;;
esac
orphans=$(awk 'prev == "" && /^"/ { print FILENAME ":" NR ": " $0 } { prev = $0 }' "$po")
if [ -n "$orphans" ]; then
  printf '%s\n' "$orphans" >&2
  echo "$po has strings after a blank line, outside any entry (a msgid or msgstr line is missing)" >&2
  exit 1
fi
exit 0
