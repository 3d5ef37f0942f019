#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Recover from autosave after kill -9: draw something, wait for the autosave
# (its interval shortened for the test), kill the application as a crash
# would, start it again, accept "Recover" in the info bar, and check the
# drawing is back (and saved again under the new instance).
. "$(dirname "$0")/e2e-lib.sh"
export BRAMAH_AUTOSAVE_INTERVAL=1
autosaves="$XDG_STATE_HOME/bramah/autosave"

e2e_start
read cx0 cy0 cx1 cy1 <<EOT
$(geometry | awk '$1 == "canvas" { print $2, $3, $4, $5 }')
EOT
place fixed_pump "fixed-disp" $(( (cx0 + cx1) / 2 )) $(( (cy0 + cy1) / 2 ))
place relief_valve "relief" $(( (cx0 + cx1) / 2 + 120 )) $(( (cy0 + cy1) / 2 ))
key Escape
wait_geom "^component P1 " || fail "the pump was not placed"
wait_geom "^component RV1 " || fail "the relief valve was not placed"
wait_geom "^modified 1" || fail "the drawing is not marked modified"

for _ in $(seq 60); do
  ls "$autosaves"/*.bramah >/dev/null 2>&1 && grep -q relief_valve "$autosaves"/*.bramah && break
  sleep 0.1
done
ls "$autosaves"/*.bramah >/dev/null 2>&1 || fail "no autosave in $autosaves"
grep -q '"type": "fixed_pump"' "$autosaves"/*.bramah || fail "the autosave has no pump"
first=$(ls "$autosaves"/*.bramah)

e2e_stop_hard
[ -f "$first" ] || fail "the autosave did not survive the crash"

: >"$E2E_TMP/app.out"
e2e_start
wait_geom '^info-button _Recover ' || fail "no recovery offered after the crash"
e2e_shot app-e2e-recovery-offered
click $(geom_xy '^info-button _Recover ')
wait_geom "^component P1 fixed_pump " || fail "the pump did not come back"
wait_geom "^component RV1 relief_valve " || fail "the relief valve did not come back"
wait_geom "^modified 1" || fail "the recovered circuit is not marked unsaved"
e2e_shot app-e2e-recovered

# the old autosave is replaced by the new instance's own
for _ in $(seq 50); do [ -f "$first" ] || break; sleep 0.1; done
[ -f "$first" ] && fail "the crashed instance's autosave was not cleared"
ls "$autosaves"/*.bramah >/dev/null 2>&1 || fail "the recovered circuit is not autosaved"
echo "PASS"
