#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-po.sh PO — the translation compiles cleanly (msgfmt --check: headers,
# plural forms, c-format placeholders) and is complete: no untranslated and
# no fuzzy message.
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
exit 0
