#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# diagnostic-de.sh BRAMAH_CLI LOCALE_DIR — bramah-cli prints the engine's
# diagnostics in the user's language (issue 10, item 4): one parameter out
# of range, one unconnected port and one lint warning, in English under C
# and in German under LANGUAGE=de, with the same exit status. Skipped (77)
# when the C library does not honour LANGUAGE here (no catalogue lookup
# for C.UTF-8).
set -u
cli="$1"
localedir="$2"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bramah-diag.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

probe=$(LANGUAGE=de LANG=C.UTF-8 LC_ALL=C.UTF-8 TEXTDOMAINDIR="$localedir" gettext -d bramah "warning")
if [ "$probe" != "Warnung" ]; then
  echo "LANGUAGE=de is not honoured here (gettext says '$probe'): skipped"
  exit 77
fi

HEAD='{"format": "bramah-circuit", "version": 1,'
printf '%s\n' "$HEAD"' "components": [{"id": "O1", "type": "orifice", "params": {"diameter": -0.002}}], "connections": []}' > "$tmp/range.bramah"
printf '%s\n' "$HEAD"' "components": [{"id": "Q1", "type": "flow_source"}, {"id": "O1", "type": "orifice"}], "connections": [{"from": "Q1.P", "to": "O1.A"}]}' > "$tmp/open.bramah"
printf '%s\n' "$HEAD"' "components": [{"id": "T1", "type": "tank"}, {"id": "P1", "type": "fixed_pump"}, {"id": "C1", "type": "cylinder_double"}, {"id": "V1", "type": "volume"}], "connections": [{"from": "P1.S", "to": "T1.T"}, {"from": "P1.P", "to": "C1.A"}, {"from": "C1.B", "to": "V1.P"}]}' > "$tmp/lint.bramah"

# the reader's and the validation's words inside a sentence (issue 10):
# the JSON reader's refusal, where a message is (a component, a
# connection) and the domains' names are translated with it
printf '%s\n' "$HEAD"' "components": [], "connections": [], "x": 0x10}' > "$tmp/parse.bramah"
printf '%s\n' "$HEAD"' "components": [{"id": "G1", "type": "pressure_gauge", "mirror": 1}], "connections": []}' > "$tmp/mirror.bramah"
printf '%s\n' "$HEAD"' "components": [{"id": "G1", "type": "pressure_gauge"}, {"id": "V1", "type": "volume"}], "connections": [{"from": "G1.S", "to": "V1.P"}]}' > "$tmp/domain.bramah"
printf '%s\n' "$HEAD"' "components": [{"id": "Q1", "type": "flow_source", "params": {"flow": {"step": {"times": [1, 0.5], "values": [0, 1, 2]}}}}], "connections": []}' > "$tmp/profile.bramah"

cp "$(dirname "$0")/../../data/examples/motor-relief.bramah" "$tmp/solver.bramah"

# expect NAME LANG-SETTING EXIT FILE LINE: stderr holds LINE exactly
expect () {
  name="$1"; lang="$2"; want_status="$3"; file="$4"; want="$5"
  if [ "$lang" = de ]; then
    LANGUAGE=de LANG=C.UTF-8 LC_ALL=C.UTF-8 "$cli" check "$file" > /dev/null 2> "$tmp/err"
  else
    LANGUAGE= LANG=C LC_ALL=C "$cli" check "$file" > /dev/null 2> "$tmp/err"
  fi
  status=$?
  if [ "$status" -ne "$want_status" ]; then
    echo "FAIL $name: exit $status, expected $want_status"; cat "$tmp/err"; fail=1
  elif ! grep -qxF -- "$want" "$tmp/err"; then
    echo "FAIL $name: stderr lacks the line: $want"; echo "stderr:"; cat "$tmp/err"; fail=1
  else
    echo "ok $name"
  fi
}

expect range-c c 1 "$tmp/range.bramah" \
  'bramah-cli: component "O1", parameter "diameter": -0.002 is out of range (must be > 0)'
expect range-de de 1 "$tmp/range.bramah" \
  'bramah-cli: Bauteil „O1“, Parameter „diameter“: -0.002 liegt außerhalb des Bereichs (muss > 0 sein)'
expect unconnected-c c 1 "$tmp/open.bramah" \
  'bramah-cli: port O1.B is not connected: every B port of a orifice must be wired'
expect unconnected-de de 1 "$tmp/open.bramah" \
  'bramah-cli: Anschluss O1.B ist nicht verbunden: jeder Anschluss B eines Bauteils vom Typ orifice muss verdrahtet sein'
expect lint-c c 0 "$tmp/lint.bramah" \
  'warning: P1: the pump has no relief path (no relief valve or accumulator reachable from P1.P)'
expect lint-de de 0 "$tmp/lint.bramah" \
  'Warnung: P1: die Pumpe hat keinen Entlastungsweg (kein Druckbegrenzungsventil und kein Speicher von P1.P aus erreichbar)'
expect parse-c c 1 "$tmp/parse.bramah" \
  "bramah-cli: $tmp/parse.bramah:1:86: Parse error: hexadecimal numbers are not JSON: write it in decimal (got \"0x10\")"
expect parse-de de 1 "$tmp/parse.bramah" \
  "bramah-cli: $tmp/parse.bramah:1:86: Lesefehler: hexadezimale Zahlen sind kein JSON: dezimal schreiben (erhalten: \"0x10\")"
expect where-c c 1 "$tmp/mirror.bramah" \
  'bramah-cli: component "G1": "mirror" must be true or false'
expect where-de de 1 "$tmp/mirror.bramah" \
  'bramah-cli: Bauteil "G1": „mirror“ muss true oder false sein'
expect domain-c c 1 "$tmp/domain.bramah" \
  'bramah-cli: connections[0] (from "G1.S" to "V1.P"): cannot connect signal port G1.S to hydraulic port V1.P'
expect domain-de de 1 "$tmp/domain.bramah" \
  'bramah-cli: connections[0] (von "G1.S" nach "V1.P"): Anschluss G1.S (Signal) kann nicht mit Anschluss V1.P (hydraulisch) verbunden werden'
expect profile-c c 1 "$tmp/profile.bramah" \
  'bramah-cli: component "Q1", parameter "flow": step: times must be strictly increasing (0.5 follows 1)'
expect profile-de de 1 "$tmp/profile.bramah" \
  'bramah-cli: Bauteil „Q1“, Parameter „flow“: step: die Zeiten müssen streng steigen (0.5 folgt auf 1)'
# a solver's failure: its sentence and the command's own frame
for lang in c de; do
  if [ "$lang" = de ]; then
    want='bramah-cli: Simulation fehlgeschlagen (no-convergence): die Newton-Iteration konvergierte nicht bei t = 0 mit dem festen Schritt 0.5'
    LANGUAGE=de LANG=C.UTF-8 LC_ALL=C.UTF-8 "$cli" simulate "$tmp/solver.bramah" --solver backward_euler \
      --fixed-step 0.5 -o "$tmp/out.csv" 2> "$tmp/err"
  else
    want='bramah-cli: simulation failed (no-convergence): the Newton iteration did not converge at t = 0 with the fixed step 0.5'
    LANGUAGE= LANG=C LC_ALL=C "$cli" simulate "$tmp/solver.bramah" --solver backward_euler \
      --fixed-step 0.5 -o "$tmp/out.csv" 2> "$tmp/err"
  fi
  status=$?
  if [ "$status" -ne 1 ] || ! grep -qxF -- "$want" "$tmp/err"; then
    echo "FAIL solver-$lang: exit $status"; cat "$tmp/err"; fail=1
  else
    echo "ok solver-$lang"
  fi
done
exit $fail
