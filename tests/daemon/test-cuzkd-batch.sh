#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# cuzkd under load: batches of 20 snarkjs fixture jobs at concurrency 1, 4 and 16
# (cuzk-bench --verify: every proof must verify) with a memory budget that admits one
# partition at a time. The daemon's peak memory, all its processes (its own memory
# cgroup's peak), must stay under that budget plus what the idle daemon (supervisor and
# prover, before any job) holds; a batch with an unlimited budget shows that the budget
# is well below what unlimited concurrency reserves and uses.
# Usage: test-cuzkd-batch.sh CUZKD CUZKCTL CUZK_BENCH CUZK FIXTURES_DIR
source "$(dirname "$0")/../lib/cuzkd-lib.sh"

BUDGET=12582912 # 12 MiB: the SRS (1.8 MB) and one partition (6.9 MB) at a time, not two
COUNT=20

make_cgroup || echo "note: no memory cgroup of our own could be made; peak memory unchecked"
# Under AddressSanitizer (check.sh's sanitizer build sets ASAN_OPTIONS) every process
# carries shadow memory and a quarantine of freed blocks: its memory says nothing about
# the budget, so only the reservations are checked there.
SANITIZED=
[ -n "${ASAN_OPTIONS:-}" ] && SANITIZED=1 && echo "note: sanitizer build: peak memory unchecked"

reset_peak() { [ -f "$CG/memory.max_usage_in_bytes" ] && echo 0 >"$CG/memory.max_usage_in_bytes"; }

run_batch() { # CONCURRENCY
        "$CUZK_BENCH" -s "$SOCK" batch --type snarkjs --zkey "$ZKEY" --wtns "$WTNS" \
                --count "$COUNT" --concurrency "$1" --verify >"$DIR/batch-$1.out" 2>&1
}

# Unlimited: as many workers as jobs in flight, a budget that never binds.
start_cuzkd --budget 4G --max-workers 16
reset_peak
check "unlimited budget: $COUNT jobs at concurrency 16 complete and verify" run_batch 16
grep -q "verified: *$COUNT of $COUNT" "$DIR/batch-16.out" || fail "not every proof verified: $(cat "$DIR/batch-16.out")"
UNLIMITED_PEAK=$(cgroup_peak_bytes)
UNLIMITED_RESERVED=$(metric cuzk_memory_reserved_peak_bytes)
echo "unlimited: peak memory $UNLIMITED_PEAK bytes, at most $UNLIMITED_RESERVED bytes reserved"
stop_cuzkd
check "unlimited concurrency reserves over 4x the budget ($UNLIMITED_RESERVED > 4 x $BUDGET)" \
        test "$UNLIMITED_RESERVED" -gt $((4 * BUDGET))

start_cuzkd --budget "$BUDGET" --max-workers 16
IDLE=0
if [ -n "$CG" ]; then
        sleep 0.5 # the prover is up
        IDLE=$(cat "$CG/memory.usage_in_bytes" 2>/dev/null || cat "$CG/memory.current")
        echo "idle daemon: $IDLE bytes"
fi
for c in 1 4 16; do
        reset_peak
        check "budget $BUDGET: $COUNT jobs at concurrency $c complete" run_batch "$c"
        check "concurrency $c: all $COUNT proofs verified" grep -q "verified: *$COUNT of $COUNT" "$DIR/batch-$c.out"
        sed -n 's/^\(throughput\|peak memory\|reserved\):/  &/p' "$DIR/batch-$c.out"
        reserved=$(metric cuzk_memory_reserved_peak_bytes)
        check "concurrency $c: at most the budget reserved ($reserved <= $BUDGET)" test "$reserved" -le "$BUDGET"
        if [ -n "$CG" ] && [ -z "$SANITIZED" ]; then
                peak=$(cgroup_peak_bytes)
                check "concurrency $c: peak memory of all daemon processes $peak <= budget $BUDGET + idle $IDLE" \
                        test "$peak" -le $((BUDGET + IDLE))
                check "concurrency $c: peak memory $peak below the unlimited run's $UNLIMITED_PEAK" \
                        test "$peak" -lt "$UNLIMITED_PEAK"
        fi
done
check "the daemon counted $((3 * COUNT)) completed proofs" \
        test "$(status_field proofs)" = "$((3 * COUNT)) completed, 0 failed"
finish
