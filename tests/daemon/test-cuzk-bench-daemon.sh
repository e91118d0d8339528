#!/usr/bin/env bash
# cuzk-bench against a real cuzkd on a temporary socket and spool:
#   - a snarkjs batch (the fixtures' bits circuit), 6 proofs, 3 in flight,
#     --verify: exit 0, six COMPLETED lines, every proof verified, a peak
#     memory line, the prover's idle time between partitions in seconds;
#   - a synthetic PCE batch of 2-partition proofs (a small circuit made with
#     cuzk pce synth / cuzk setup), --verify: exit 0; with LogLevel=debug,
#     each partition's worker logs its debug line;
#   - a porep batch of a file that is not a C1 output: exit 2 naming it;
#   - a reference job type cuzkd does not prove (winning): FAILED lines naming
#     UNIMPLEMENTED, exit 1;
#   - cuzkd stops on SIGTERM.
# Usage: test-cuzk-bench-daemon.sh CUZKD CUZK_BENCH CUZK FIXTURES_DIR
# Exit 77 (skipped) when cuzkd is not built.
set -euo pipefail

if [ $# -ne 4 ]; then
        echo "usage: $0 CUZKD CUZK_BENCH CUZK FIXTURES_DIR" >&2
        exit 2
fi
cuzkd=$1 bench=$2 cuzk=$3 fixtures=$4
if [ ! -x "$cuzkd" ]; then
        echo "SKIP: $cuzkd is not built"
        exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-cuzk-bench-daemon.XXXXXX")
socket=$tmp/cuzk.sock
pid=
cleanup() {
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
                kill -KILL "$pid" 2>/dev/null || true
                wait "$pid" 2>/dev/null || true
        fi
        rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
        echo "FAIL: $*" >&2
        echo "--- cuzkd's log:" >&2
        cat "$tmp/cuzkd.log" >&2 || true
        exit 1
}

# expect_in FILE TEXT: the output has TEXT (a fixed string).
expect_in() {
        grep -qF -- "$2" "$1" || {
                cat "$1" >&2
                fail "expected '$2' in the output above"
        }
}

cat >"$tmp/cuzkd.conf" <<EOF
[Daemon]
Socket=$socket
SpoolDirectory=$tmp/spool
LogTarget=stderr
LogLevel=debug
EOF
"$cuzkd" --config "$tmp/cuzkd.conf" >"$tmp/cuzkd.log" 2>&1 &
pid=$!
for _ in $(seq 300); do
        [ -S "$socket" ] && break
        kill -0 "$pid" 2>/dev/null || fail "cuzkd exited before it listened"
        sleep 0.1
done
[ -S "$socket" ] || fail "cuzkd did not listen on $socket within 30 s"

status=0
"$bench" --socket "$socket" batch --type snarkjs --zkey "$fixtures/bits.zkey" \
        --wtns "$fixtures/bits.wtns" --count 6 --concurrency 3 --verify >"$tmp/out" 2>&1 || status=$?
[ "$status" -eq 0 ] || { cat "$tmp/out" >&2; fail "snarkjs batch: exit status $status"; }
[ "$(grep -c ' COMPLETED — .*s (prove=[0-9]* ms, queue=[0-9]* ms)$' "$tmp/out")" -eq 6 ] || {
        cat "$tmp/out" >&2
        fail "snarkjs batch: expected 6 COMPLETED lines"
}
expect_in "$tmp/out" "completed:     6"
expect_in "$tmp/out" "failed:        0"
expect_in "$tmp/out" "verified:      6 of 6 completed proofs"
expect_in "$tmp/out" " proofs/min ("
expect_in "$tmp/out" "peak memory:   "
grep -qE '^gpu idle:      [0-9]+\.[0-9] s between partitions$' "$tmp/out" || {
        cat "$tmp/out" >&2
        fail "snarkjs batch: expected 'gpu idle:      N.N s between partitions'"
}
echo "PASS: snarkjs batch, 6 proofs at concurrency 3, all verified"
sed 's/^/  /' "$tmp/out"

"$cuzk" pce synth --rows 1000 --seed 3 "$tmp/c.pce" "$tmp/c.wtns" >/dev/null
"$cuzk" setup --pce "$tmp/c.pce" --params "$tmp/c.params" --vk "$tmp/c.vk" >/dev/null 2>&1
status=0
"$bench" --socket "$socket" batch --type synthetic --pce "$tmp/c.pce" --params "$tmp/c.params" \
        --witness "$tmp/c.wtns" --partitions 2 --count 2 --concurrency 2 --verify \
        >"$tmp/out" 2>&1 || status=$?
[ "$status" -eq 0 ] || { cat "$tmp/out" >&2; fail "synthetic batch: exit status $status"; }
expect_in "$tmp/out" "partitions:  2"
expect_in "$tmp/out" "verified:      2 of 2 completed proofs"
echo "PASS: synthetic batch, 2 proofs of 2 partitions, all verified"
# LogLevel= reaches the helpers: a worker's debug line, one per partition.
# (the 1000-row circuit's domain is 2^10; the snarkjs batch's 2^12)
[ "$(grep -cE '^cuzkd worker\[[0-9]+\]: Task [0-9]+ partition [01]: synthesized 2\^10 ' "$tmp/cuzkd.log")" -eq 4 ] ||
        fail "LogLevel=debug: expected 4 workers' 'synthesized 2^10' lines in the log"
echo "PASS: LogLevel=debug reaches the workers (4 'synthesized' lines)"

# A PoRep C1 that is not one: cuzk-bench reads its registered proof from it, and refuses it.
echo '{}' >"$tmp/c1.json"
status=0
"$bench" --socket "$socket" batch --type porep --c1 "$tmp/c1.json" --count 2 >"$tmp/out" 2>&1 ||
        status=$?
[ "$status" -eq 2 ] || { cat "$tmp/out" >&2; fail "porep batch of '{}': exit status $status, expected 2"; }
expect_in "$tmp/out" "$tmp/c1.json"
echo "PASS: a porep batch of a file that is not a C1 output: exit status 2 naming it"

echo '"AAAA"' >"$tmp/vanilla.json"
status=0
"$bench" --socket "$socket" batch --type winning --vanilla "$tmp/vanilla.json" --count 2 \
        >"$tmp/out" 2>&1 || status=$?
[ "$status" -eq 1 ] || { cat "$tmp/out" >&2; fail "winning batch: exit status $status, expected 1"; }
[ "$(grep -c ' FAILED — .*UNIMPLEMENTED' "$tmp/out")" -eq 2 ] || {
        cat "$tmp/out" >&2
        fail "winning batch: expected 2 FAILED lines naming UNIMPLEMENTED"
}
expect_in "$tmp/out" "failed:        2"
echo "PASS: winning batch fails with UNIMPLEMENTED, exit status 1"

kill -TERM "$pid"
for _ in $(seq 300); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "cuzkd still runs 30 s after SIGTERM"
wait "$pid" || true
pid=
echo "PASS: cuzkd stopped on SIGTERM"
