#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Jobs belong to their owners and the daemon's bounds hold (R1, R2, R4, R6, D6): as uid
# 65534 a client cannot await, cancel or see root's job, and root's request id gives it a
# job of its own; with AdminGroup= a member of the group can; MaxQueuedJobs= and
# MaxQueuedJobsPerUser= refuse jobs over them; a request id over 256 bytes is refused; a
# failed job's inline witness leaves the spool at once; a second cuzkd on the same spool
# refuses to start; a job whose spooled result was emptied answers as quarantined after a
# restart, and after the next one.
# Usage: test-cuzkd-owner.sh CUZKD CUZKCTL CUZK_BENCH CUZK FIXTURES_DIR
source "$(dirname "$0")/../lib/cuzkd-lib.sh"

# uid 65534 (no groups, or the groups given) runs cuzkctl on our socket.
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$CUZKCTL" -s "$SOCK" "$@"; }
as_admin() { setpriv --reuid=65534 --regid=65534 --groups=4242 "$CUZKCTL" -s "$SOCK" "$@"; }
# The socket and the test directory (mktemp's 0700) open to uid 65534.
open_socket() { chmod 0755 "$DIR" && chmod 0666 "$SOCK"; }
# Stops the prover (once it runs), so that nothing finishes; $prover is its pid.
# shellcheck disable=SC2317 # called through wait_until
prover_running() { prover=$(pgrep -P "$CUZKD_PID" -f -- '--prover' | head -n1) && [ -n "$prover" ]; }
stop_prover() { wait_until 100 prover_running && kill -STOP "$prover"; }

cat >"$DIR/cuzkd.conf" <<EOF
[Daemon]
MaxQueuedJobs=6
MaxQueuedJobsPerUser=4
EOF
start_cuzkd --config "$DIR/cuzkd.conf" --max-workers 1 --budget 1G
open_socket

# R1: root's job is root's.
mine=$(submit_job -r sector-42)
check "root's job $mine completes" await_verified "$mine"
out=$(as_nobody await -w 1000 "$mine" 2>&1)
check "uid 65534 cannot await root's job: $out" \
        grep -q "PERMISSION_DENIED: job $mine belongs to another user" <<<"$out"
out=$(as_nobody cancel "$mine" 2>&1)
check "uid 65534 cannot cancel root's job: $out" grep -q "PERMISSION_DENIED" <<<"$out"
theirs=$(as_nobody submit --kind groth16 --zkey "$ZKEY" --wtns "$WTNS" -r sector-42 |
        awk '/^job: / { print $2 }')
check "root's request id gives uid 65534 a job of its own ($theirs)" \
        test -n "$theirs" -a "$theirs" != "$mine"
out=$(as_nobody await -w 30000 "$theirs" 2>&1)
check "uid 65534 awaits its own job" grep -q "^status: COMPLETED" <<<"$out"
check "root's request id still names root's job" test "$(submit_job -r sector-42)" = "$mine"

# Nothing finishes while the prover is stopped: root's job runs, and only root sees its id.
check "the prover is stopped" stop_prover
running=$(submit_job -r running)
# shellcheck disable=SC2317 # called through wait_until
root_sees_running() { ctl status | grep -q "running $running"; }
check "root sees its running job in GetStatus" wait_until 100 root_sees_running
out=$(as_nobody status 2>&1)
check "uid 65534 does not see root's running job" bash -c "! grep -q '$running' <<<'$out'"
check "uid 65534 sees the counters" grep -q "^proofs: 2 completed" <<<"$out"

# R2: MaxQueuedJobsPerUser=4 for root (1 running + 3), then MaxQueuedJobs=6 in all.
queued=("$running")
for i in 1 2 3; do queued+=("$(submit_job -r "queued-$i")"); done
out=$(ctl submit --kind groth16 --zkey "$ZKEY" --wtns "$WTNS" 2>&1)
check "root's 5th unfinished job is refused: $out" \
        grep -q "RESOURCE_EXHAUSTED: uid 0: 4 jobs queued or running.*MaxQueuedJobsPerUser=4" <<<"$out"
check "a request id sent again still gets its job" test -n "$(submit_job -r queued-2)"
for i in 1 2; do
        queued+=("$(as_nobody submit --kind groth16 --zkey "$ZKEY" --wtns "$WTNS" -r "n-$i" |
                awk '/^job: / { print $2 }')")
done
out=$(as_nobody submit --kind groth16 --zkey "$ZKEY" --wtns "$WTNS" 2>&1)
check "the 7th unfinished job is refused: $out" \
        grep -q "RESOURCE_EXHAUSTED: 6 jobs are queued or running.*MaxQueuedJobs=6" <<<"$out"
kill -CONT "$prover"
completed=0
for j in "${queued[@]}"; do
        ctl await -w 60000 "$j" | grep -q "^status: COMPLETED" && completed=$((completed + 1))
done
check "the ${#queued[@]} queued jobs complete once the prover runs ($completed)" \
        test "$completed" -eq 6

# D6: a request id over 256 bytes is refused; 256 bytes are fine.
out=$(ctl submit --kind groth16 --zkey "$ZKEY" --wtns "$WTNS" -r "$(printf 'x%.0s' $(seq 300))" 2>&1)
check "a request id of 300 bytes is refused: $out" \
        grep -q "INVALID_ARGUMENT: request_id of 300 bytes, expected at most 256 bytes" <<<"$out"

# R2: a failed job's inline witness leaves the spool at once.
head -c 2000 /dev/urandom >"$DIR/garbage.wtns"
failed=$(ctl submit --kind groth16 --zkey "$ZKEY" --wtns-data "$DIR/garbage.wtns" |
        awk '/^job: / { print $2 }')
out=$(ctl await -w 60000 "$failed" 2>&1)
check "a job with a garbage inline witness fails" grep -q "^status: FAILED" <<<"$out"
check "its input.wtns was removed from the spool" test ! -e "$SPOOL/$failed/input.wtns"
check "its result stays" test -e "$SPOOL/$failed/result.pb"

# R6: a second cuzkd on the same spool (and socket) refuses to start, naming the first.
timeout 20 "$CUZKD" --config /dev/null --socket "$SOCK" --spool-dir "$SPOOL" >"$DIR/second.log" 2>&1
status=$?
check "a second cuzkd on the same spool exits with 1 ($status)" test "$status" -eq 1
check "and names the holder: $(grep -m1 'in use' "$DIR/second.log")" \
        grep -q "in use by another cuzkd (pid $CUZKD_PID holds $SPOOL/.lock)" "$DIR/second.log"
check "the first cuzkd still serves its socket" ctl_quiet status

# AdminGroup=: a member of the group awaits and sees root's jobs.
stop_cuzkd
printf 'AdminGroup=4242\n' >>"$DIR/cuzkd.conf"
start_cuzkd --config "$DIR/cuzkd.conf" --max-workers 1 --budget 1G
open_socket
out=$(as_admin await -w 30000 "$mine" 2>&1)
check "a member of AdminGroup= awaits root's job" grep -q "^status: COMPLETED" <<<"$out"
out=$(as_nobody await -w 1000 "$mine" 2>&1)
check "uid 65534 outside the group still cannot" grep -q "PERMISSION_DENIED" <<<"$out"
stop_prover
running=$(submit_job -r admin-running)
# shellcheck disable=SC2317 # called through wait_until
admin_sees_running() { as_admin status | grep -q "running $running"; }
check "a member of AdminGroup= sees root's running job" wait_until 100 admin_sees_running
kill -CONT "$prover"
check "root's job completes" await_verified "$running"

# R4: a spooled result emptied while cuzkd is down: the job answers as quarantined.
stop_cuzkd
: >"$SPOOL/$mine/result.pb"
for start in 1 2; do
        start_cuzkd --config "$DIR/cuzkd.conf" --max-workers 1 --budget 1G
        open_socket
        out=$(ctl await -w 1000 "$mine" 2>&1)
        check "start $start: the emptied job answers FAILED: $(grep '^error' <<<"$out")" \
                grep -q "^status: FAILED" <<<"$out"
        check "start $start: saying it was quarantined and where" grep -q \
                "^error: quarantined at start-up: result.pb is empty: .*; kept as $SPOOL/$mine.corrupt" \
                <<<"$out"
        out=$(as_nobody await -w 1000 "$mine" 2>&1)
        check "start $start: still not uid 65534's to await" grep -q "PERMISSION_DENIED" <<<"$out"
        out=$(ctl cancel "$mine" 2>&1)
        check "start $start: cancelling it says it ended" grep -q "FAILED_PRECONDITION" <<<"$out"
        check "start $start: counted as quarantined" test "$(metric cuzk_spool_quarantined_jobs)" = 1
        stop_cuzkd
done
finish
