# shellcheck shell=bash
# Sourced by the tests that compare cuzk with snarkjs (interop.sh, test-zkey-write.sh),
# whose usage is SCRIPT CUZK FIXTURES_DIR SNARKJS_CLI: the arguments, a work directory
# removed on exit, PASS/FAIL lines and their count, snarkjs's verdict on a proof, and the
# summary line whose status is the test's.
# shellcheck disable=SC2034 # cuzk, fixtures and work are the sourcing script's
cuzk=$1 fixtures=$2 snarkjs_cli=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

ok() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

snarkjs() { node "$snarkjs_cli" "$@"; }
snarkjs_accepts() { snarkjs groth16 verify "$@" 2>&1 | grep -q "OK!"; }

finish() {
        echo "$passed passed, $failed failed"
        [ "$failed" = 0 ]
}
