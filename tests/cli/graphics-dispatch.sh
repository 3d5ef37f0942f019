#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# render, state-diagram and bench run in bramah-cli-graphics, which
# bramah-cli executes in its place (app/bramah-cli.c): through bramah-cli
# they must print, write and exit exactly as the helper does; `--help`
# still lists every command; a missing helper is an error naming its path;
# an installation moved whole (or under a DESTDIR) finds its own helper.
#   graphics-dispatch.sh BRAMAH_CLI BRAMAH_CLI_GRAPHICS CIRCUIT SYMBOL_DIR [FROM_BINDIR]
# FROM_BINDIR: the helper's path relative to bramah-cli's directory when
# installed ("../libexec/bramah-cli-graphics"); empty when LIBEXECDIR is
# outside the prefix (then the moved-installation part is skipped).
set -u
cli=$1
helper=$2
circuit=$3
symbols=$4
from_bindir=${5:-}
fails=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail () { printf 'FAIL: %s\n' "$*"; fails=$((fails + 1)); }

# run NAME PROGRAM ARGS...: stdout, stderr and the exit status in $dir/NAME.*
run () {
  name=$1
  shift
  "$@" >"$dir/$name.out" 2>"$dir/$name.err"
  echo $? >"$dir/$name.status"
}
# same A B: bramah-cli's run A and the helper's run B said and did the same
same () {
  for part in out err status; do
    cmp -s "$dir/$1.$part" "$dir/$2.$part" \
      || fail "$1: $part differs from the helper's: $(head -c 300 "$dir/$1.$part") / $(head -c 300 "$dir/$2.$part")"
  done
}

# the main help lists every command, those of the helper included
run help "$cli" --help
[ "$(cat "$dir/help.status")" -eq 0 ] || fail "--help exited $(cat "$dir/help.status")"
for c in simulate check describe jacobian-check components solvers verify bench render state-diagram migrate; do
  grep -q "^  $c " "$dir/help.out" || fail "--help does not list $c"
done

# each command's help, a usage error (2), a failure (1) and a success (0)
for c in render state-diagram bench; do
  run "$c-help" "$cli" "$c" --help
  run "$c-help-h" "$helper" "$c" --help
  same "$c-help" "$c-help-h"
  [ "$(cat "$dir/$c-help.status")" -eq 0 ] || fail "$c --help exited $(cat "$dir/$c-help.status")"
  grep -q "bramah-cli $c" "$dir/$c-help.out" || fail "$c --help does not name 'bramah-cli $c'"
  run "$c-bad" "$cli" "$c" --no-such-option
  run "$c-bad-h" "$helper" "$c" --no-such-option
  same "$c-bad" "$c-bad-h"
  [ "$(cat "$dir/$c-bad.status")" -eq 2 ] || fail "$c --no-such-option exited $(cat "$dir/$c-bad.status"), not 2"
done
run render-missing "$cli" render "$dir/no-such.bramah" "$dir/x.svg"
[ "$(cat "$dir/render-missing.status")" -eq 1 ] || fail "render of a missing file exited $(cat "$dir/render-missing.status"), not 1"
grep -q "^bramah-cli: .*no-such.bramah" "$dir/render-missing.err" || fail "render of a missing file: $(cat "$dir/render-missing.err")"

run render "$cli" render "$circuit" "$dir/a.svg"
run render-h "$helper" render "$circuit" "$dir/b.svg"
same render render-h
[ "$(cat "$dir/render.status")" -eq 0 ] || fail "render exited $(cat "$dir/render.status"): $(cat "$dir/render.err")"
cmp -s "$dir/a.svg" "$dir/b.svg" || fail "render through bramah-cli drew another SVG than the helper"
grep -q "<svg" "$dir/a.svg" || fail "render wrote no SVG"

run sd "$cli" state-diagram "$circuit" -o "$dir/a.csv"
run sd-h "$helper" state-diagram "$circuit" -o "$dir/b.csv"
same sd sd-h
[ "$(cat "$dir/sd.status")" -eq 0 ] || fail "state-diagram exited $(cat "$dir/sd.status"): $(cat "$dir/sd.err")"
cmp -s "$dir/a.csv" "$dir/b.csv" || fail "state-diagram through bramah-cli wrote another CSV than the helper"

# bramah-cli replaces itself: two programs in all, the second the helper
if command -v strace >/dev/null 2>&1; then
  strace -f -e trace=execve -o "$dir/trace" "$cli" render "$circuit" "$dir/c.svg" >/dev/null 2>&1
  n=$(grep -c 'execve(' "$dir/trace")
  [ "$n" -eq 2 ] || fail "render: $n programs executed, expected 2: $(cat "$dir/trace")"
  grep -qF "execve(\"$(realpath "$helper")\"" "$dir/trace" || fail "render did not execute $helper: $(cat "$dir/trace")"
  strace -f -e trace=execve -o "$dir/trace" "$cli" check "$circuit" >/dev/null 2>&1
  n=$(grep -c 'execve(' "$dir/trace")
  [ "$n" -eq 1 ] || fail "check: $n programs executed, expected 1"
fi

# the helper alone refuses the engine's commands
run direct "$helper" check "$circuit"
[ "$(cat "$dir/direct.status")" -eq 2 ] || fail "bramah-cli-graphics check exited $(cat "$dir/direct.status"), not 2"
grep -q "bramah-cli COMMAND" "$dir/direct.err" || fail "bramah-cli-graphics check: $(cat "$dir/direct.err")"

# installed without its helper: the engine's commands work, the others say
# which program is missing
if [ -n "$from_bindir" ]; then
  mkdir -p "$dir/inst/bin"
  cp "$cli" "$dir/inst/bin/bramah-cli"
  expected=$(cd "$dir/inst/bin" && realpath -m "$from_bindir")
  BRAMAH_UNINSTALLED=0 "$dir/inst/bin/bramah-cli" check "$circuit" >/dev/null 2>&1 \
    || fail "check without the helper failed"
  run nohelper env BRAMAH_UNINSTALLED=0 "$dir/inst/bin/bramah-cli" render "$circuit" "$dir/d.svg"
  [ "$(cat "$dir/nohelper.status")" -eq 1 ] || fail "render without the helper exited $(cat "$dir/nohelper.status"), not 1"
  grep -qF "bramah-cli: cannot run 'render': its helper program $expected is missing" "$dir/nohelper.err" \
    || fail "render without the helper: $(cat "$dir/nohelper.err") (expected the path $expected)"
  [ -e "$dir/d.svg" ] && fail "render without the helper wrote d.svg"

  # with it, where a moved installation keeps it
  mkdir -p "$(dirname "$expected")"
  cp "$helper" "$expected"
  run moved env BRAMAH_UNINSTALLED=0 BRAMAH_SYMBOL_DIR="$symbols" "$dir/inst/bin/bramah-cli" render "$circuit" "$dir/e.svg"
  [ "$(cat "$dir/moved.status")" -eq 0 ] || fail "render of a moved installation exited $(cat "$dir/moved.status"): $(cat "$dir/moved.err")"
  cmp -s "$dir/a.svg" "$dir/e.svg" || fail "render of a moved installation drew another SVG"

  # a helper that cannot be executed
  chmod -x "$expected"
  run noexec env BRAMAH_UNINSTALLED=0 "$dir/inst/bin/bramah-cli" render "$circuit" "$dir/f.svg"
  if [ "$(id -u)" -ne 0 ] || ! [ -x "$expected" ]; then
    [ "$(cat "$dir/noexec.status")" -eq 1 ] || fail "render with a helper not executable exited $(cat "$dir/noexec.status"), not 1"
    grep -qF "its helper program $expected cannot be executed: Permission denied" "$dir/noexec.err" \
      || fail "render with a helper not executable: $(cat "$dir/noexec.err")"
  fi
fi

[ "$fails" -eq 0 ] || exit 1
echo "render, state-diagram and bench run through bramah-cli as through bramah-cli-graphics"
