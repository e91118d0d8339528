#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Faults, with the daemon serving on after each: a corrupt .zkey (header: refused at
# submission, naming the file; body: the job fails naming it), a corrupt .wtns (the job
# fails naming it), a client that disconnects mid-await, SIGKILL of a worker and of the
# prover mid-job (the partition is retried and the job completes), and workers that
# allocate without bound (OOM-killed in their cgroup; the job fails after MaxAttempts).
# Usage: test-cuzkd-faults.sh CUZKD CUZKCTL CUZK_BENCH CUZK FIXTURES_DIR
source "$(dirname "$0")/../lib/cuzkd-lib.sh"

make_cgroup || echo "note: no memory cgroup of our own; workers are found with pgrep"
# The worker that takes the flag file (created for the worker-kill check below) hangs
# after reading its task, so that the kill lands mid-partition; without the file every
# worker proves normally.
HANG_ONCE="$DIR/hang-once"
export CUZK_TEST_WORKER_FAULT=hang CUZK_TEST_WORKER_FAULT_ONCE="$HANG_ONCE"
start_cuzkd --max-workers 1 --budget 1G
unset CUZK_TEST_WORKER_FAULT CUZK_TEST_WORKER_FAULT_ONCE

# The job's status and error lines from AwaitProof.
await_text() { ctl await -w 30000 "$1" 2>&1; }

# A .zkey whose header is garbage: refused at submission, naming the file.
cp "$ZKEY" "$DIR/bad-header.zkey"
printf 'garbage!garbage!' | dd of="$DIR/bad-header.zkey" bs=1 seek=0 conv=notrunc status=none
out=$(ctl submit --kind groth16 --zkey "$DIR/bad-header.zkey" --wtns "$WTNS" 2>&1)
check "a .zkey with a corrupt header is refused: $out" \
        grep -q "INVALID_ARGUMENT: $DIR/bad-header.zkey: not a snarkjs .zkey" <<<"$out"

# A .zkey whose points are corrupt (the header is fine): the job fails, naming the file.
cp "$ZKEY" "$DIR/bad-points.zkey"
size=$(stat -c %s "$ZKEY")
head -c 4096 /dev/zero | tr '\0' '\377' |
        dd of="$DIR/bad-points.zkey" bs=1 seek=$((size / 2)) conv=notrunc status=none
job=$(ctl submit --kind groth16 --zkey "$DIR/bad-points.zkey" --wtns "$WTNS" | awk '/^job:/ {print $2}')
out=$(await_text "$job")
check "a .zkey with corrupt points fails its job" grep -q "^status: FAILED" <<<"$out"
check "the error names the .zkey: $(grep '^error' <<<"$out")" grep -q "^error: .*bad-points.zkey" <<<"$out"

# A truncated .wtns: the job fails, naming the file.
head -c 1000 "$WTNS" >"$DIR/short.wtns"
job=$(ctl submit --kind groth16 --zkey "$ZKEY" --wtns "$DIR/short.wtns" | awk '/^job:/ {print $2}')
out=$(await_text "$job")
check "a truncated .wtns fails its job" grep -q "^status: FAILED" <<<"$out"
check "the error names the .wtns: $(grep '^error' <<<"$out")" grep -q "^error: .*short.wtns" <<<"$out"

out=$(ctl submit --kind winning-post --vanilla-proof "$WTNS" 2>&1)
check "an unimplemented kind is refused: $out" grep -q "UNIMPLEMENTED: proof kind WINNING_POST" <<<"$out"
# A PoRep job whose vanilla_proof is not a C1 output FAILS as it comes in, saying why.
job=$(ctl submit --kind porep --registered-proof 5 --vanilla-proof "$WTNS" | awk '/^job:/ {print $2}')
out=$(await_text "$job")
check "a PoRep job of garbage FAILS: $(grep '^error' <<<"$out")" \
        grep -q "^error: vanilla_proof is not a C1 output" <<<"$out"
check "the daemon still proves after bad input" await_verified "$(submit_job)"

# A client that goes away while it awaits a queued job.
jobs=()
for _ in 1 2 3 4; do jobs+=("$(submit_job)"); done
timeout -s KILL 0.3 "$CUZKCTL" -s "$SOCK" await "${jobs[3]}" >/dev/null 2>&1
check "the daemon answers GetStatus after the client went away" ctl_quiet status
for j in "${jobs[@]}"; do
        check "job $j completes after its awaiting client went away" await_verified "$j"
done
check "the abandoned await is forgotten" test "$(metric cuzk_await_calls)" = 0

# SIGKILL of the worker while it synthesizes: the first worker of these jobs takes the
# flag file and hangs mid-partition (a healthy worker lives a fraction of a second, too
# short to be caught reliably); its partition is retried and every job completes.
: >"$HANG_ONCE"
jobs=()
for _ in 1 2 3; do jobs+=("$(submit_job)"); done
killed=
# Long enough for admission paused by the host's memory pressure to resume.
end=$((SECONDS + 60))
while [ -z "$killed" ] && [ "$SECONDS" -lt "$end" ]; do
        if [ ! -e "$HANG_ONCE" ] && grep -q "Test fault injection: hang" "$LOG"; then
                if [ -n "$CG" ]; then
                        read -r worker <"$CG/synth/w0/cgroup.procs" 2>/dev/null
                else
                        worker=$(pgrep -P "$CUZKD_PID" -f -- '--worker' | head -n1)
                fi
                [ -n "$worker" ] && kill -KILL "$worker" 2>/dev/null && killed=$worker
        fi
        [ -n "$killed" ] || sleep 0.05
done
check "a worker hung mid-partition was found and SIGKILLed (${killed:-none})" test -n "$killed"
for j in "${jobs[@]}"; do
        check "job $j completes although worker ${killed:-?} was killed" await_verified "$j"
done
retried=0
grep -qE "attempt 1 of 3 failed \(synthesis worker" "$LOG" && retried=1
check "a worker killed mid-partition: the partition was retried" test "$retried" = 1
check "the retry is counted" test "$(metric cuzk_partition_retries_total)" -ge 1

# SIGKILL of the prover while jobs are in flight.
prover=$(pgrep -P "$CUZKD_PID" -f -- '--prover' | head -n1)
jobs=()
for _ in 1 2 3 4 5 6; do jobs+=("$(submit_job)"); done
sleep 0.3
check "the prover ($prover) was SIGKILLed mid-batch" kill -KILL "$prover"
for j in "${jobs[@]}"; do
        check "job $j completes despite the killed prover" await_verified "$j"
done
# The jobs may all be proved before the kill lands; the restart then
# follows after the supervisor's backoff, so give it that long.
prover_restarted() {
        for _ in $(seq 100); do
                test "$(metric cuzk_prover_restarts_total)" -ge 1 && return 0
                sleep 0.1
        done
        return 1
}
check "the prover was restarted" prover_restarted
check "the daemon is the same process" kill -0 "$CUZKD_PID"

# Workers that allocate without bound (the executor's test fault): each attempt is
# OOM-killed in its worker cgroup, the job fails cleanly after MaxAttempts, the daemon
# serves on.
if [ -n "$CG" ] && have_test_hooks "the runaway workers"; then
        stop_cuzkd
        export CUZK_TEST_WORKER_FAULT=alloc-unbounded
        start_cuzkd --max-workers 1 --budget 1G
        unset CUZK_TEST_WORKER_FAULT
        job=$(submit_job)
        out=$(await_text "$job")
        check "a job whose workers allocate without bound fails" grep -q "^status: FAILED" <<<"$out"
        check "its error says why: $(grep '^error' <<<"$out")" \
                grep -qE "^error: partition 0 failed 3 times; the last: .*(OOM|memory)" <<<"$out"
        check "the OOM kills are counted ($(metric cuzk_worker_oom_kills_total))" \
                test "$(metric cuzk_worker_oom_kills_total)" -ge 1
        check "the daemon serves on after the OOM kills" ctl_quiet status
fi
finish
