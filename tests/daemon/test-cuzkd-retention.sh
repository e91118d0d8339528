#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# ResultRetention=: an ended job's result is kept (in memory and in the spool) for that
# many seconds after the job ended, across a restart, and then forgotten: AwaitProof
# answers NOT_FOUND saying why, its spool directory is gone, its request id names a new
# job. A spooled result older than the retention is dropped when cuzkd starts. With
# ResultRetention=0 a result goes once an AwaitProof has received it.
# Usage: test-cuzkd-retention.sh CUZKD CUZKCTL CUZK_BENCH CUZK FIXTURES_DIR
source "$(dirname "$0")/../lib/cuzkd-lib.sh"

RETENTION=5
printf '[Daemon]\nResultRetention=%s\n' "$RETENTION" >"$DIR/retention.conf"
printf '[Daemon]\nResultRetention=0\n' >"$DIR/retention0.conf"

# Whether AwaitProof on job $1 answers NOT_FOUND with the retention in its message.
# shellcheck disable=SC2317 # called through check
await_not_found() {
        local out
        out=$(ctl await -w 1000 "$1" 2>&1) && return 1
        echo "$out"
        printf '%s\n' "$out" | grep -q "NOT_FOUND" &&
                printf '%s\n' "$out" | grep -q "ResultRetention=$2"
}

start_cuzkd --config "$DIR/retention.conf" --max-workers 1 --budget 1G
job=$(submit_job -r keep)
check "a job completes; its result is available" await_verified "$job"
check "its result is in the spool" test -f "$SPOOL/$job/result.pb"
stop_cuzkd
start_cuzkd --config "$DIR/retention.conf" --max-workers 1 --budget 1G
check "after a restart within ResultRetention the result is still there" await_verified "$job"
check "and its request id still names it" test "$(submit_job -r keep)" = "$job"
check "the job is forgotten after ResultRetention" wait_log "job $job forgotten: completed" 20
check "AwaitProof on it answers NOT_FOUND naming ResultRetention" await_not_found "$job" "$RETENTION"
check "its spool directory is gone" test ! -e "$SPOOL/$job"
new=$(submit_job -r keep)
check "its request id now starts a new job" test -n "$new" -a "$new" != "$job"
check "the new job completes" await_verified "$new"

# A spooled result whose retention ran out while cuzkd was down: dropped at start-up.
stop_cuzkd
check "the new job's result is in the spool" test -f "$SPOOL/$new/result.pb"
sleep $((RETENTION + 1))
start_cuzkd --config "$DIR/retention.conf" --max-workers 1 --budget 1G
check "a result older than ResultRetention is dropped at start-up" test ! -e "$SPOOL/$new"
check "AwaitProof on it answers NOT_FOUND" await_not_found "$new" "$RETENTION"
stop_cuzkd

# ResultRetention=0: kept until delivered, then gone.
start_cuzkd --config "$DIR/retention0.conf" --max-workers 1 --budget 1G
job=$(submit_job -r zero)
check "with ResultRetention=0 the result is delivered once" await_verified "$job"
check "and then forgotten" wait_log "job $job forgotten" 10
check "AwaitProof on it again answers NOT_FOUND" await_not_found "$job" 0
check "its spool directory is gone" test ! -e "$SPOOL/$job"
finish
