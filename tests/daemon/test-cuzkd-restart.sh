#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# SIGTERM of cuzkd with jobs queued: it stops at once (unfinished jobs stay in the
# spool), and after a restart on the same spool every accepted job completes with a proof
# that verifies; results from before the restart stay queryable; a request id submitted
# again gives the same job.
# Usage: test-cuzkd-restart.sh CUZKD CUZKCTL CUZK_BENCH CUZK FIXTURES_DIR
source "$(dirname "$0")/../lib/cuzkd-lib.sh"

N=8
start_cuzkd --max-workers 1 --budget 1G
first=$(submit_job -r first)
check "a first job completes before the stop" await_verified "$first"
jobs=()
for i in $(seq "$N"); do
        jobs+=("$(submit_job -r "req-$i")")
done
check "$N jobs accepted" test "${#jobs[@]}" -eq "$N" -a -n "${jobs[$((N - 1))]}"
check "the same request id gives the same job" test "$(submit_job -r req-3)" = "${jobs[2]}"
stop_cuzkd
check "SIGTERM logged as a stop that keeps the spool" grep -q "stopping; unfinished jobs stay in the spool" "$LOG"
unfinished=0
for j in "${jobs[@]}"; do
        [ -f "$SPOOL/$j/result.pb" ] || unfinished=$((unfinished + 1))
done
echo "jobs left unfinished by SIGTERM: $unfinished of $N"
check "SIGTERM left queued jobs unfinished in the spool" test "$unfinished" -gt 0

start_cuzkd --max-workers 2 --budget 1G
check "the restart queued the spooled jobs again" grep -q "spooled job .* queued again" "$LOG"
ok=0
for j in "${jobs[@]}"; do
        if await_verified "$j"; then ok=$((ok + 1)); else echo "job $j: $(ctl await "$j" 2>&1)"; fi
done
check "after the restart all $N jobs completed and verify ($ok)" test "$ok" -eq "$N"
check "the job finished before the stop is still queryable" await_verified "$first"
check "the request id still names its job after the restart" test "$(submit_job -r req-5)" = "${jobs[4]}"
finish
