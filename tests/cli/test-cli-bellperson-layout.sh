#!/usr/bin/env bash
# `cuzk setup --bellperson-layout` and `cuzk prove --pce` with such a file:
# the same seed gives the same key in both layouts, so one .vk verifies
# the proofs of both; the packed file is smaller, holds B points for B's
# wires only (cuzk info), and proving it with another circuit's PCE is
# refused with exit status 2 and a message naming the file.
# Usage: test-cli-bellperson-layout.sh CUZK
set -uo pipefail

cuzk=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

pass() {
        echo "PASS: $1"
        passed=$((passed + 1))
}

fail() {
        echo "FAIL: $1"
        [ -s "$work/err" ] && sed 's/^/    err: /' "$work/err"
        failed=$((failed + 1))
}

cd "$work" || exit 1
if ! "$cuzk" pce synth --rows 500 --seed 3 --aux 700 --public 2 c.pce c.wtns ||
        ! "$cuzk" pce synth --rows 500 --seed 4 --aux 700 --public 2 other.pce other.wtns ||
        ! "$cuzk" setup --pce c.pce --params full.params --vk c.vk --seed 02 2>/dev/null ||
        ! "$cuzk" setup --pce c.pce --params packed.params --vk packed.vk --seed 02 \
                --bellperson-layout 2>err; then
        echo "FAIL: could not make the circuit and its keys"
        cat err
        exit 1
fi

if grep -q "bellperson layout: a [0-9]* of 703 wires, b_g1 and b_g2 [0-9]* of 703" err; then
        pass "setup says what it packed: $(grep 'bellperson layout' err)"
else
        fail "setup --bellperson-layout did not report its counts"
fi
if cmp -s c.vk packed.vk; then
        pass "one seed, one verifying key in both layouts"
else
        fail "the two layouts' .vk files differ"
fi
full=$(stat -c %s full.params) packed=$(stat -c %s packed.params)
if [ "$packed" -lt $((full * 3 / 4)) ]; then
        pass "packed .params $packed bytes, a point per wire $full"
else
        fail "packed .params $packed bytes is not under 3/4 of $full"
fi
"$cuzk" info packed.params >info.txt 2>"$work/err"
b_points=$(sed -n 's/^points: .* b_g1 \([0-9]*\), b_g2 \([0-9]*\),.*/\1 \2/p' info.txt)
set -- $b_points
if grep -qxF "points_per_wire: fewer (bellperson layout: the points at infinity left out)" \
        info.txt && [ "${1:-0}" = "${2:-1}" ] && [ "$1" -gt 0 ] && [ "$1" -lt 350 ]; then
        pass "info: b_g1 and b_g2 hold $1 of 703 wires"
else
        fail "info on packed.params: $(tr '\n' ' ' <info.txt)"
fi

for layout in full packed; do
        if "$cuzk" prove --pce c.pce --params $layout.params --witness c.wtns \
                --proof $layout.proof --public $layout.public.json 2>"$work/err" &&
                "$cuzk" verify c.vk $layout.public.json $layout.proof >/dev/null 2>>"$work/err"; then
                pass "$layout layout: the proof verifies"
        else
                fail "$layout layout: prove or verify failed"
        fi
done

# Another circuit's densities do not fit the packed file.
"$cuzk" prove --pce other.pce --params packed.params --witness other.wtns --proof o.proof \
        2>"$work/err"
rc=$?
if [ $rc = 2 ] && grep -q "packed.params" "$work/err" && grep -q "density" "$work/err"; then
        pass "another circuit's PCE refused: $(head -1 "$work/err")"
else
        fail "another circuit's PCE: exit $rc (expected 2 and a message on the density)"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
