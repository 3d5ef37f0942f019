#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# migrate: `bramah-cli migrate FILE -o OUT` writes every example in the
# current format version so that it checks and simulates exactly as the
# original (the --summary tables are compared), a second migrate gives the
# same bytes, in-place and through a symbolic link it replaces the file; a
# circuit whose text would not load back (a description of 6 million DEL
# characters, written as 36 MB of \u007f escapes, more than the 32 MiB a
# circuit file may have) is refused with exit 1 and OUT left as it was, no
# temporary left behind; unreadable files exit 1, usage errors 2.
# Usage: migrate.sh BRAMAH_CLI EXAMPLES_DIR
set -u
cli=$1
examples=$2
fails=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail () { printf 'FAIL: %s\n' "$*"; fails=$((fails + 1)); }
export LC_ALL=C.UTF-8

n=0
for f in "$examples"/*.bramah; do
  b=$(basename "$f" .bramah)
  out=$dir/$b.bramah
  "$cli" migrate "$f" -o "$out" >"$dir/out" 2>"$dir/err"
  st=$?
  [ "$st" -eq 0 ] || { fail "$b: migrate exited $st: $(cat "$dir/err")"; continue; }
  # the examples with mechanics are version 2 already
  v=$(sed -n 's/^  "version": \([0-9]*\),$/\1/p' "$f" | head -n 1)
  grep -qF "$f (version $v) → $out (version 3)" "$dir/out" || fail "$b: migrate said: $(cat "$dir/out")"
  [ -s "$dir/err" ] && fail "$b: migrate wrote to stderr: $(cat "$dir/err")"
  grep -q '"version": 3,' "$out" || fail "$b: no \"version\": 3 in the migrated file"
  # a connection with a length and a diameter keeps the version 1 meaning
  # (no hose friction) by "friction": false; the run below compares
  "$cli" migrate "$out" -o "$dir/v3.bramah" >/dev/null 2>&1
  cmp -s "$out" "$dir/v3.bramah" || fail "$b: migrating version 3 changed it"
  "$cli" check "$out" >/dev/null 2>"$dir/err" || fail "$b: the migrated file does not check: $(cat "$dir/err")"
  # the same run: every line of the summary after the title
  "$cli" simulate --summary "$f" 2>&1 | tail -n +2 >"$dir/a"
  "$cli" simulate --summary "$out" 2>&1 | tail -n +2 >"$dir/b"
  cmp -s "$dir/a" "$dir/b" || fail "$b: the migrated file simulates differently: $(diff "$dir/a" "$dir/b" | head -5)"
  # idempotent
  "$cli" migrate "$out" -o "$dir/again.bramah" >/dev/null 2>&1 || fail "$b: migrating the migrated file failed"
  cmp -s "$out" "$dir/again.bramah" || fail "$b: a second migrate changed the bytes"
  n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n examples migrated"
# Burton's circuit gives 21 hoses their length and diameter: version 3 would
# give them friction; the migrated file says "friction": false for each
if [ -e "$dir/burton-two-actuator.bramah" ]; then
  k=$(grep -c '"friction": false' "$dir/burton-two-actuator.bramah")
  [ "$k" -eq 21 ] || fail "burton-two-actuator: $k connections with \"friction\": false, not 21"
fi

# in place, and through a symbolic link (the link stays, its target is replaced)
ex=$(ls "$examples"/*.bramah | head -n 1)
cp "$ex" "$dir/inplace.bramah"
chmod 640 "$dir/inplace.bramah"
"$cli" migrate "$dir/inplace.bramah" -o "$dir/inplace.bramah" >/dev/null 2>"$dir/err" \
  || fail "in place: $(cat "$dir/err")"
cmp -s "$dir/inplace.bramah" "$dir/$(basename "$ex")" || fail "in place: not the migrated text"
[ "$(stat -c %a "$dir/inplace.bramah")" = 640 ] || fail "in place: the mode changed to $(stat -c %a "$dir/inplace.bramah")"
echo old >"$dir/target.bramah"
ln -s target.bramah "$dir/link.bramah"
"$cli" migrate "$ex" -o "$dir/link.bramah" >/dev/null 2>"$dir/err" || fail "link: $(cat "$dir/err")"
[ -L "$dir/link.bramah" ] || fail "link: the symbolic link was replaced by a file"
cmp -s "$dir/target.bramah" "$dir/$(basename "$ex")" || fail "link: the target does not hold the migrated text"

# what would not load back is refused, OUT untouched, no temporary left
mkdir "$dir/refuse"
{
  printf '{ "format": "bramah-circuit", "version": 1, "description": "'
  head -c 6000000 /dev/zero | tr '\0' '\177'
  printf '", "components": [], "connections": [] }\n'
} >"$dir/del.bramah"
"$cli" check "$dir/del.bramah" >/dev/null 2>&1 || fail "the DEL circuit does not even load"
echo old >"$dir/refuse/out.bramah"
"$cli" migrate "$dir/del.bramah" -o "$dir/refuse/out.bramah" >"$dir/out" 2>"$dir/err"
st=$?
[ "$st" -eq 1 ] || fail "unloadable text: exit $st, not 1"
grep -qF "cannot migrate: in version 3 the circuit would not load back" "$dir/err" \
  || fail "unloadable text: message: $(head -c 400 "$dir/err")"
grep -qF "$dir/refuse/out.bramah was not written" "$dir/err" || fail "unloadable text: OUT not named: $(head -c 400 "$dir/err")"
[ "$(cat "$dir/refuse/out.bramah")" = old ] || fail "unloadable text: OUT was changed"
[ "$(ls "$dir/refuse")" = out.bramah ] || fail "unloadable text: left $(ls "$dir/refuse")"
[ -s "$dir/out" ] && fail "unloadable text: stdout: $(cat "$dir/out")"

# version 2's keys: kept by migrate and read; a version 2 file whose
# initial_velocity is not a number does not load (exit 1, nothing written)
printf '{ "format": "bramah-circuit", "version": 2, "components": [{ "id": "T1", "type": "tank" }, { "id": "O1", "type": "orifice" }],\n  "connections": [{ "from": "T1.T", "to": "O1.A", "initial_velocity": 1.5 }, { "from": "O1.B", "to": "T1.T" }] }\n' >"$dir/v2.bramah"
"$cli" migrate "$dir/v2.bramah" -o "$dir/v2-out.bramah" >"$dir/out" 2>"$dir/err" || fail "v2: $(cat "$dir/err")"
grep -qF "(version 2) → $dir/v2-out.bramah (version 3)" "$dir/out" || fail "v2: migrate said: $(cat "$dir/out")"
grep -q '"initial_velocity": 1.5' "$dir/v2-out.bramah" || fail "v2: initial_velocity not kept"
"$cli" check "$dir/v2-out.bramah" >"$dir/out" 2>&1 || fail "v2: the migrated file does not check: $(cat "$dir/out")"
grep -qF 'initial_velocity' "$dir/out" || fail "v2: no warning for initial_velocity on a hydraulic node: $(cat "$dir/out")"
sed 's/"initial_velocity": 1.5/"initial_velocity": "fast"/' "$dir/v2.bramah" >"$dir/v2-bad.bramah"
"$cli" migrate "$dir/v2-bad.bramah" -o "$dir/v2-bad-out.bramah" >/dev/null 2>"$dir/err"
[ $? -eq 1 ] || fail "v2-bad: not exit 1"
[ -e "$dir/v2-bad-out.bramah" ] && fail "v2-bad: wrote its output"
grep -qF '"initial_velocity" must be a finite number' "$dir/err" || fail "v2-bad: message: $(cat "$dir/err")"

# unreadable input: exit 1, nothing written
printf '{ "format": "bramah-circuit", "version": 7, "components": [], "connections": [] }\n' >"$dir/v7.bramah"
printf '{ "format": "bramah-circuit", "version": 1,\n  "components": [ }\n' >"$dir/bad.bramah"
for f in v7.bramah bad.bramah nosuch.bramah; do
  "$cli" migrate "$dir/$f" -o "$dir/new-$f" >/dev/null 2>"$dir/err"
  st=$?
  [ "$st" -eq 1 ] || fail "$f: exit $st, not 1"
  [ -e "$dir/new-$f" ] && fail "$f: wrote new-$f"
  grep -q "^bramah-cli: " "$dir/err" || fail "$f: no message: $(cat "$dir/err")"
done
"$cli" migrate "$ex" -o "$dir/nodir/out.bramah" >/dev/null 2>"$dir/err"
[ $? -eq 1 ] || fail "a missing folder: not exit 1"
grep -qF "cannot save $dir/nodir/out.bramah" "$dir/err" || fail "a missing folder: message: $(cat "$dir/err")"

# usage
for args in "$ex" "-o $dir/x.bramah" "$ex $ex -o $dir/x.bramah" "--frobnicate $ex -o $dir/x.bramah"; do
  # shellcheck disable=SC2086
  "$cli" migrate $args >/dev/null 2>"$dir/err"
  st=$?
  [ "$st" -eq 2 ] || fail "migrate $args: exit $st, not 2"
  grep -qF "Try 'bramah-cli migrate --help'." "$dir/err" || fail "migrate $args: no hint: $(cat "$dir/err")"
done
[ -e "$dir/x.bramah" ] && fail "a usage error wrote x.bramah"

if [ "$fails" -gt 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "PASS: $n examples migrated and compared; refusals and usage errors as documented"
