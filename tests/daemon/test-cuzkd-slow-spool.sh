#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# A slow disk (every spool write that syncs waits 2 s: CUZK_TEST_SPOOL_SYNC_DELAY_MS) slows
# the spool's writes, not the event loop: GetStatus answers within 500 ms (1 s under ASan,
# whose clients start slowly on two busy cores; a write on the loop would stall it 2 s)
# while jobs' results are written; AwaitProof answers COMPLETED only once the result is on disk; a
# SIGTERM right after the jobs completed still writes every result; after a restart each
# job is there, completed, and not run again.
# Usage: test-cuzkd-slow-spool.sh CUZKD CUZKCTL CUZK_BENCH CUZK FIXTURES_DIR
source "$(dirname "$0")/../lib/cuzkd-lib.sh"

need_test_hooks "a slow spool (CUZK_TEST_SPOOL_SYNC_DELAY_MS)"
N=3
MAX_STATUS_MS=500
[ "${CUZK_TEST_SCALE:-1}" = 1 ] || MAX_STATUS_MS=1000
export CUZK_TEST_SPOOL_SYNC_DELAY_MS=2000
start_cuzkd --max-workers 2 --budget 1G
unset CUZK_TEST_SPOOL_SYNC_DELAY_MS

jobs=()
for i in $(seq "$N"); do
        jobs+=("$(submit_job -r "slow-$i")")
done
check "$N jobs accepted on the slow spool" test "${#jobs[@]}" -eq "$N" -a -n "${jobs[$((N - 1))]}"

# AwaitProof's COMPLETED comes once the result is durable: the file is there when it
# answers.
(
        ctl await -w 60000 "${jobs[0]}" >/dev/null &&
                if [ -f "$SPOOL/${jobs[0]}/result.pb" ]; then echo durable; else echo lost; fi
) >"$DIR/await-first" 2>&1 &
await_pid=$!

# GetStatus's time while the jobs run and their results are written (2 s each, one at a
# time), until every result is on disk.
# shellcheck disable=SC2317 # called through check
all_written() { # JOB...: whether every job's result is in the spool
        local j
        for j in "$@"; do [ -f "$SPOOL/$j/result.pb" ] || return 1; done
}
max_ms=0 samples=0 slow=0
for _ in $(seq 600); do
        start=$(date +%s%3N)
        ctl -t 5000 status >/dev/null || fail "GetStatus failed on the slow spool"
        ms=$(($(date +%s%3N) - start))
        samples=$((samples + 1))
        [ "$ms" -gt "$max_ms" ] && max_ms=$ms
        [ "$ms" -gt "$MAX_STATUS_MS" ] && slow=$((slow + 1))
        all_written "${jobs[@]}" && break
        sleep 0.05
done
echo "GetStatus: $samples calls while results were written, the slowest $max_ms ms"
check "every result was written" all_written "${jobs[@]}"
check "GetStatus answered within $MAX_STATUS_MS ms while results were written ($slow slower)" \
        test "$slow" -eq 0 -a "$samples" -gt 10
wait "$await_pid"
check "AwaitProof answered COMPLETED with the result on disk: $(cat "$DIR/await-first")" \
        grep -qx durable "$DIR/await-first"

# SIGTERM right after two more jobs completed, their results still to write (the first
# takes 2 s, the second waits for it): both are written before cuzkd exits.
late=("$(submit_job -r late-1)" "$(submit_job -r late-2)")
# shellcheck disable=SC2317 # called through check
completed() {
        local j
        for j in "$@"; do grep -q "job $j completed" "$LOG" || return 1; done
}
check "two more jobs completed" wait_until 300 completed "${late[@]}"
stop_cuzkd
check "after SIGTERM both results are in the spool" all_written "${late[@]}"
jobs+=("${late[@]}")

echo "--- restart" >>"$LOG"
start_cuzkd --max-workers 2 --budget 1G
for j in "${jobs[@]}"; do
        check "job $j is there after the restart and verifies" await_verified "$j"
        check "job $j did not run again" bash -c "! grep -q 'spooled job $j queued again' '$LOG'"
done
finish
