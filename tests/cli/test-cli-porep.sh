#!/usr/bin/env bash
# cuzk porep seal / synth-c1 / verify-c1 as a user runs them: the lotus-bench
# 2 KiB sector prints its published comm_r, sealing twice gives the same
# bytes, verify-c1 accepts the C1 and its envelope and refuses a changed
# one (exit 1, one line naming the place), bad arguments exit 2.
# Usage: test-cli-porep.sh CUZK
set -uo pipefail

cuzk=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

check() { # check NAME EXPECTED_RC CMD...
        local name=$1 want=$2 rc
        shift 2
        "$@" >"$work/out" 2>"$work/err"
        rc=$?
        if [ "$rc" = "$want" ]; then
                echo "PASS: $name"
                passed=$((passed + 1))
        else
                echo "FAIL: $name (exit $rc, expected $want)"
                sed 's/^/    /' "$work/out" "$work/err"
                failed=$((failed + 1))
        fi
}

seal() {
        "$cuzk" porep seal --registered-proof StackedDrg2KiBV1_1 --miner t01000 --sector 1 --out "$1" "${@:2}"
}

check "seal the lotus-bench sector" 0 seal "$work/a.json" --envelope "$work/env.json"
cp "$work/out" "$work/seal.out"
check "its comm_r is lotus-bench's" 0 grep -qx 'comm_r: c647b998c78282296cfd1160714228d43f3b054dfbbb77172b68115ba3c3b762' "$work/seal.out"
check "sealing again" 0 seal "$work/b.json"
check "the same bytes" 0 cmp "$work/a.json" "$work/b.json"
check "verify-c1 accepts the C1" 0 "$cuzk" porep verify-c1 "$work/a.json"
check "verify-c1 accepts the envelope" 0 "$cuzk" porep verify-c1 "$work/env.json"
# The last digit of a byte in the first labeling proof's parents changed (still a byte).
python3 - "$work/a.json" "$work/bad.json" <<'PY'
import sys
s = open(sys.argv[1]).read()
i = s.index('"labeling_proofs"') + 200
while not (s[i].isdigit() and s[i + 1] in ',]'):
    i += 1
d = int(s[i])
open(sys.argv[2], 'w').write(s[:i] + str(d - 1 if d else 1) + s[i + 1:])
PY
check "verify-c1 refuses a changed C1" 1 "$cuzk" porep verify-c1 "$work/bad.json"
cp "$work/err" "$work/bad.err"
check "and names the place" 0 grep -q 'labeling_proofs\[0\]' "$work/bad.err"
check "synth-c1 of 2 KiB" 0 "$cuzk" porep synth-c1 --registered-proof StackedDrg2KiBV1_1 --out "$work/s.json"
check "verify-c1 says synthetic" 0 grep -q 'synthetic C1' <(OUT=$("$cuzk" porep verify-c1 "$work/s.json"); echo "$OUT")
check "synth-c1 refuses synthetic PoRep" 2 "$cuzk" porep synth-c1 --registered-proof StackedDrg2KiBV1_1_Feat_SyntheticPoRep --out "$work/x.json"
check "an unknown registered proof" 2 "$cuzk" porep seal --registered-proof StackedDrg3KiBV1 --out "$work/x.json"
check "a short ticket" 2 seal "$work/x.json" --ticket 00ff
check "a missing --out" 2 "$cuzk" porep seal --registered-proof StackedDrg2KiBV1_1
check "verify-c1 of a missing file" 2 "$cuzk" porep verify-c1 "$work/none.json"
check "an unknown porep command" 2 "$cuzk" porep unseal

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
