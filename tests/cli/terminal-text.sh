#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# terminal-text: text from a circuit file reaches the terminal escaped and
# cut (issue 9, item 13). A title, a solver name and an id holding escape
# sequences (ESC ] 0 ; … BEL sets the terminal's title, ESC [ 2 J clears the
# screen, U+202E reverses the text that follows) are printed as \e, \x07 and
# \u202e; a 10 000-character id is cut to 80 characters and the reason
# after it kept. The command line's own words that errors echo (an unknown
# command, bench's and verify's choices) are escaped the same way.
# Usage: terminal-text.sh BRAMAH_CLI CIRCUIT (a circuit whose title is one
# JSON string line and that has a component "OR1")
set -u
cli=$1
circuit=$2
fails=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail () { printf 'FAIL: %s\n' "$*"; fails=$((fails + 1)); }

esc=$(printf '\033')
bel=$(printf '\007')
rlo=$(printf '\342\200\256')   # U+202E in UTF-8

# no raw control character or override in FILE; TEXT must appear in it
clean () {
  what=$1 file=$2 text=$3
  if grep -q "$esc\|$bel\|$rlo" "$file"; then
    fail "$what: raw escape sequence printed: $(od -c "$file" | head -5)"
  fi
  grep -qF -- "$text" "$file" || fail "$what: no '$text' in: $(cat "$file")"
}

# a title that would retitle the terminal and turn it red
sed 's/"title": "[^"]*"/"title": "\\u001b]0;pwned\\u0007\\u001b[31mred\\u202etxt.exe"/' "$circuit" >"$dir/title.bramah"
"$cli" simulate --summary "$dir/title.bramah" >"$dir/out" 2>"$dir/err" || fail "--summary failed: $(cat "$dir/err")"
clean "simulate --summary title" "$dir/out" '\e]0;pwned\x07\e[31mred\u202etxt.exe'

# a component id that would clear the screen: refused, and echoed escaped
sed 's/"OR1"/"O\\u001b[2JR1"/' "$circuit" >"$dir/id.bramah"
"$cli" check "$dir/id.bramah" >"$dir/out" 2>"$dir/err"
st=$?
[ "$st" -eq 1 ] || fail "check of a bad id exited $st, not 1"
# (the loader quotes an id it refuses as JSON writes it: \u001b)
clean "check bad id" "$dir/err" 'O\u001b[2JR1'

# a solver name with an escape: refused by check and simulate, escaped
sed 's/"simulation": {/"simulation": { "solver": "x\\u001b[31my",/' "$circuit" >"$dir/solver.bramah"
for cmd in check simulate; do
  "$cli" $cmd "$dir/solver.bramah" >"$dir/out" 2>"$dir/err"
  st=$?
  [ "$st" -eq 1 ] || fail "$cmd of a bad solver exited $st, not 1"
  clean "$cmd bad solver" "$dir/err" "'x\\e[31my'"
done

# a 10 000-character id: the message stays short
long=$(head -c 10000 /dev/zero | tr '\0' 'O')
sed "s/\"OR1\"/\"$long\"/" "$circuit" >"$dir/long.bramah"
"$cli" check "$dir/long.bramah" >"$dir/out" 2>"$dir/err"
st=$?
[ "$st" -eq 1 ] || fail "check of a long id exited $st, not 1"
size=$(wc -c <"$dir/err")
[ "$size" -le 1200 ] || fail "a 10 000-character id gave a $size-byte message"
# the id is cut, not the reason after it
grep -q "OOOOOOOOOO…" "$dir/err" || fail "the id is not cut with …: $(head -c 300 "$dir/err")"
tail -c 60 "$dir/err" | grep -q '[a-z] [a-z]' || fail "the message lost its end: $(tail -c 300 "$dir/err")"

# the user's own options are escaped too (--vars, --set echo them)
"$cli" simulate "$circuit" --vars "$(printf 'no\033[2Jsuch')" >"$dir/out" 2>"$dir/err"
clean "--vars echo" "$dir/err" 'no\e[2Jsuch'

# every command's errors go through one function, which escapes: an unknown
# command word and the choices that bench and verify echo (issue 10)
bad=$(printf 'x\033[2Jy')
"$cli" "$bad" >"$dir/out" 2>"$dir/err"
clean "unknown command" "$dir/err" "unknown command 'x\e[2Jy'"
"$cli" verify --solver "$bad" >"$dir/out" 2>"$dir/err"
clean "verify --solver" "$dir/err" "unknown solver 'x\e[2Jy'"
for opt in --against --clock --events; do
  "$cli" bench --circuit "$circuit" "$opt" "$bad" >"$dir/out" 2>"$dir/err"
  clean "bench $opt" "$dir/err" "not 'x\e[2Jy'"
done

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo ok
