#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Several provers (Devices=): with "cpu cpu" a batch is spread over prover-0 and prover-1
# (per-prover counts in status and metrics, each in its own cgroup); one prover SIGKILLed
# mid-batch and the batch still completes (the other proves meanwhile, the killed one
# restarts); each prover's idle time counted while jobs run, not after; a GPU ordinal the
# host does not have stops cuzkd at start, naming it.
# The same code paths as one prover per GPU, without a GPU.
# Usage: test-cuzkd-devices.sh CUZKD CUZKCTL CUZK_BENCH CUZK FIXTURES_DIR
source "$(dirname "$0")/../lib/cuzkd-lib.sh"

make_cgroup || echo "note: no memory cgroup of our own; provers are found in the status"
printf '[Prover]\nDevices=cpu cpu\nThreads=1\n' >"$DIR/two.conf"
start_cuzkd --max-workers 2 --budget 2G --config "$DIR/two.conf"

# "prover N: ..." of cuzkctl status, and one number in it.
prover_line() { ctl status | grep "^prover $1: "; }
prover_count() { prover_line "$1" | grep -oE "[0-9]+ $2" | awk '{ print $1 }'; }
prover_pid() { prover_line "$1" | sed -n 's/.*, pid \([0-9]*\),.*/\1/p'; }
# A per-prover metric: NAME PROVER [RESULT]
prover_metric() {
        ctl metrics | awk -v p="prover=\"$2\"" -v r="result=\"${3:-}\"" -v n="$1" \
                'index($1, n "{") == 1 && index($1, p) && (r == "result=\"\"" || index($1, r)) { print $2 }'
}

out=$(ctl status)
check "status lists two provers: $(grep '^prover' <<<"$out" | tr '\n' ';')" \
        test "$(grep -c '^prover [01]: cpu, backend cpu, pid [1-9][0-9]*, ready' <<<"$out")" = 2
if [ -n "$CG" ]; then
        check "prover-0 holds a prover process" grep -q . "$CG/prover-0/cgroup.procs"
        check "prover-1 holds the other" grep -q . "$CG/prover-1/cgroup.procs"
        check "each prover in its own cgroup" \
                test "$(cat "$CG/prover-0/cgroup.procs")" != "$(cat "$CG/prover-1/cgroup.procs")"
fi

jobs=()
for _ in $(seq 8); do jobs+=("$(submit_job)"); done
for j in "${jobs[@]}"; do check "job $j completes on two provers" await_verified "$j"; done
p0=$(prover_count 0 proved) p1=$(prover_count 1 proved)
check "both provers proved partitions (prover 0: $p0, prover 1: $p1)" \
        test "$p0" -ge 1 -a "$p1" -ge 1 -a $((p0 + p1)) -eq 8
check "the metrics count the same per prover" \
        test "$(prover_metric cuzk_prover_partitions_total 0 proved)" = "$p0" -a \
        "$(prover_metric cuzk_prover_partitions_total 1 proved)" = "$p1"
check "both provers are in service" \
        test "$(prover_metric cuzk_prover_in_service 0)$(prover_metric cuzk_prover_in_service 1)" = 11
# Idle time: the provers waited for the partitions' synthesis while the jobs ran; with every
# job over it stops growing.
idle0=$(prover_metric cuzk_prover_idle_seconds_total 0)
idle1=$(prover_metric cuzk_prover_idle_seconds_total 1)
check "the metrics count the provers' idle time (prover 0: $idle0 s, prover 1: $idle1 s)" \
        awk -v a="$idle0" -v b="$idle1" \
        'BEGIN { exit !(a ~ /^[0-9]+\.[0-9]+$/ && b ~ /^[0-9]+\.[0-9]+$/ && a + b > 0) }'
check "status shows it: $(prover_line 0)" grep -qE ", idle [0-9]+\.[0-9] s$" <<<"$(prover_line 0)"
sleep 1
check "no job unfinished: the idle time stays $idle0 s" \
        test "$(prover_metric cuzk_prover_idle_seconds_total 0)" = "$idle0"

stop_cuzkd

# SIGKILL of a prover while it holds a partition: the test fault makes the one task that
# removes the flag file hang before its tail, so the kill always catches it there.
if have_test_hooks "the prover killed mid-batch"; then
        : >"$DIR/hang-once"
        export CUZK_TEST_PROVER_FAULT=hang-tail CUZK_TEST_PROVER_FAULT_ONCE=$DIR/hang-once
        start_cuzkd --max-workers 2 --budget 2G --config "$DIR/two.conf"
        unset CUZK_TEST_PROVER_FAULT CUZK_TEST_PROVER_FAULT_ONCE
        jobs=()
        for _ in $(seq 8); do jobs+=("$(submit_job)"); done
        victim=
        for _ in $(seq 200); do
                victim=$(sed -n 's/^cuzkd prover\[\([0-9]*\)\]: Test fault injection: hang-tail.*/\1/p' "$LOG" | tail -n1)
                [ -n "$victim" ] && break
                sleep 0.05
        done
        index=$(ctl status | sed -n "s/^prover \([01]\): .*, pid $victim, .*/\1/p")
        other=$((1 - ${index:-0}))
        check "prover $index ($victim) holds a partition: $(prover_line "$index")" \
                grep -qE ", [1-9][0-9]* in hand, running job-" <<<"$(prover_line "$index")"
        check "prover $index ($victim) was SIGKILLed mid-batch" kill -KILL "$victim"
        for j in "${jobs[@]}"; do check "job $j completes although prover $index was killed" await_verified "$j"; done
        check "prover $index was restarted: $(prover_line "$index")" test "$(prover_count "$index" restarts)" = 1
        check "prover $other was not: $(prover_line "$other")" test "$(prover_count "$other" restarts)" = 0
        check "prover $index runs again as a new process" test "$(prover_pid "$index")" != "$victim"
        check "the log names the killed prover" \
                grep -q "prover-$index): the prover (pid $victim) killed by signal 9" "$LOG"
        check "what it held failed and was queued again" \
                grep -qE "attempt 1 of 3 failed \(the prover \(prover-$index\), pid $victim" "$LOG"
        check "status counts the failure: $(prover_line "$index")" test "$(prover_count "$index" failed)" = 1
        p0=$(prover_count 0 proved) p1=$(prover_count 1 proved)
        check "8 partitions proved (prover 0: $p0, prover 1: $p1)" test $((p0 + p1)) -eq 8
        stop_cuzkd
fi

# Preload=: every prover loads the circuit at start, before any job (the log says when
# all are in; under systemd READY=1 waits for it), and the first job loads nothing.
printf '[Prover]\nDevices=cpu cpu\nThreads=1\nPreload=%s\n' "$ZKEY" >"$DIR/preload.conf"
start_cuzkd --max-workers 2 --budget 2G --config "$DIR/preload.conf"
for _ in $(seq 100); do
        grep -q "Preload=: every prover holds its circuits" "$LOG" && break
        sleep 0.1
done
check "the log says when every prover holds the Preload= circuits" \
        grep -q "Preload=: every prover holds its circuits after .* s; ready" "$LOG"
check "both provers preloaded the .zkey" \
        test "$(grep -c "prover-[01]): preloaded $ZKEY in" "$LOG")" = 2
check "both hold keys before any job: $(prover_line 0); $(prover_line 1)" \
        test "$(ctl status | grep -c '^prover [01]: .*, keys [1-9]')" = 2
job=$(submit_job)
out=$(ctl await -w 30000 "$job")
check "the first job loads no key: $(grep '^time' <<<"$out")" grep -q "srs load 0 ms" <<<"$out"
out=$(ctl preload /nonexistent.zkey 2>&1)
status=$?
check "PreloadSRS of a missing file fails as NOT_FOUND: $out" \
        test "$status" -ne 0 -a -n "$(grep NOT_FOUND <<<"$out")"
stop_cuzkd

# A GPU ordinal this host does not have: cuzkd refuses to start and says which.
printf '[Prover]\nDevices=cpu 9\n' >"$DIR/missing.conf"
"$CUZKD" --config "$DIR/missing.conf" --socket "$SOCK" --spool-dir "$SPOOL" >"$DIR/missing.log" 2>&1
status=$?
check "cuzkd with Devices=cpu 9 exits with an error (status $status)" test "$status" -ne 0
check "it names the missing GPU: $(grep -m1 Devices "$DIR/missing.log")" \
        grep -qE "Devices= names GPU 9, but (no GPU is|[0-9]+ GPUs? (is|are)) present" "$DIR/missing.log"
printf '[Prover]\nGPU=no\nDevices=0\n' >"$DIR/nogpu.conf"
"$CUZKD" --config "$DIR/nogpu.conf" --socket "$SOCK" --spool-dir "$SPOOL" >"$DIR/nogpu.log" 2>&1
check "Devices=0 with GPU=no is refused: $(grep -m1 Devices "$DIR/nogpu.log")" \
        grep -q "Devices= names GPU 0, but GPU=no" "$DIR/nogpu.log"
finish
