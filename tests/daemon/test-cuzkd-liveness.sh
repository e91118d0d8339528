#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Liveness and PreloadSRS checks. PreloadSRS of files that are not a circuit's key (a
# sparse 2 GiB file, /etc/shadow, a FIFO, a relative path) is refused before any byte is
# reserved, and a key whose header is fine but whose body is not is released when no
# prover can load it (PreloadSRS answers the prover's failure): jobs are admitted after each.
# A good key's PreloadSRS answers once the prover holds it. A worker SIGSTOPped mid-partition
# and a SIGSTOPped prover are killed after WorkerStallTimeout= / ProverStallTimeout=
# (short here), their partitions complete, and GetStatus counts the kills (cuzkctl
# status's "stalled:" line). A path with a newline stays one log line.
# Usage: test-cuzkd-liveness.sh CUZKD CUZKCTL CUZK_BENCH CUZK FIXTURES_DIR
source "$(dirname "$0")/../lib/cuzkd-lib.sh"

make_cgroup || echo "note: no memory cgroup of our own; workers are found with pgrep"
cat >"$DIR/cuzkd.conf" <<EOF
[Daemon]
SocketMode=0666
[Scheduler]
WorkerStallTimeout=3
[Prover]
ProverStallTimeout=3
EOF
start_cuzkd --config "$DIR/cuzkd.conf" --max-workers 1 --budget 2G

reserved() { status_field "memory budget"; }
before=$(reserved)
check "no stall is shown before any: $(status_field stalled)" test -z "$(status_field stalled)"

# PreloadSRS refusals: each INVALID_ARGUMENT naming the file, nothing reserved.
truncate -s $(((2 << 30) - (4 << 20))) "$DIR/sparse.bin"
out=$(ctl preload "$DIR/sparse.bin" 2>&1)
check "a sparse 2 GiB file is not preloaded: $out" \
        grep -q "INVALID_ARGUMENT: $DIR/sparse.bin: not a circuit's key" <<<"$out"
out=$(ctl preload /etc/shadow 2>&1)
check "/etc/shadow is not preloaded: $out" \
        grep -q "INVALID_ARGUMENT: /etc/shadow: not a circuit's key" <<<"$out"
mkfifo "$DIR/fifo.zkey"
start=$SECONDS
out=$(timeout 5 "$CUZKCTL" -s "$SOCK" -t 2000 preload "$DIR/fifo.zkey" 2>&1)
check "a FIFO is refused within 2 s ($((SECONDS - start)) s): $out" \
        grep -q "INVALID_ARGUMENT: $DIR/fifo.zkey: not a regular file" <<<"$out"
check "the daemon answers after the FIFO" ctl_quiet status
ctl_path=$(realpath "$CUZKCTL")
out=$(cd "$FIXTURES" && "$ctl_path" -s "$SOCK" preload "$(basename "$ZKEY")" 2>&1)
check "a relative path is refused: $out" grep -q "INVALID_ARGUMENT: .*must be an absolute path" <<<"$out"
# A key the client cannot read itself (root's, mode 600) is not preloaded for it.
cp "$ZKEY" "$DIR/secret.zkey"
chmod 600 "$DIR/secret.zkey"
chmod 755 "$DIR"
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$ctl_path" -s "$SOCK" \
        preload "$DIR/secret.zkey" 2>&1)
check "another user cannot preload root's key: $out" \
        grep -q "PERMISSION_DENIED: $DIR/secret.zkey: Permission denied" <<<"$out"
check "nothing was reserved by the refused preloads ($(reserved))" test "$(reserved)" = "$before"
check "a job completes after the refused preloads" await_verified "$(submit_job)"

# A .zkey whose header is fine and whose points are not: reserved, the prover fails to load
# it, PreloadSRS answers with the prover's error, and the reservation goes back.
cp "$ZKEY" "$DIR/bad-points.zkey"
size=$(stat -c %s "$ZKEY")
head -c 4096 /dev/zero | tr '\0' '\377' |
        dd of="$DIR/bad-points.zkey" bs=1 seek=$((size / 2)) conv=notrunc status=none
before=$(reserved)
out=$(ctl preload "$DIR/bad-points.zkey" 2>&1)
check "PreloadSRS of a key no prover can load answers its failure: $out" \
        grep -q "INVALID_ARGUMENT: circuit $DIR/bad-points.zkey: no prover could load it: " <<<"$out"
check "its load failure is logged" wait_log "Preload of $DIR/bad-points.zkey failed on every prover"
check "its reservation went back ($(reserved))" test "$(reserved)" = "$before"
check "the failure is counted" test "$(metric cuzk_preload_failures_total)" = 1
check "a job completes after the failed preload" await_verified "$(submit_job)"
# PreloadSRS answers once the prover holds the key: GetStatus right after shows it (a copy
# of the key the jobs use, so that it is a load of its own).
cp "$ZKEY" "$DIR/fresh.zkey"
keys_before=$(ctl status | sed -n 's/^prover 0: .*, keys \([^,]*\).*/\1/p')
out=$(ctl preload "$DIR/fresh.zkey" 2>&1)
check "a good .zkey preloads: $out" grep -q "fresh.zkey: loaded in" <<<"$out"
status=$(ctl status)
check "GetStatus right after lists it: $(grep '^srs .*fresh' <<<"$status")" \
        grep -q "^srs $DIR/fresh.zkey: " <<<"$status"
check "and the prover holds it (keys ${keys_before:-none} before): $(grep '^prover 0' <<<"$status")" \
        test "$(sed -n 's/^prover 0: .*, keys \([^,]*\).*/\1/p' <<<"$status")" != "$keys_before"
check "and evicts" ctl_quiet evict "$DIR/fresh.zkey"
out=$(ctl preload "$ZKEY" 2>&1)
check "the key the jobs use preloads at once: $out" grep -q "loaded\|already" <<<"$out"
check "and evicts" ctl_quiet evict "$ZKEY"

# A FIFO as the witness: refused at submission, or the worker fails it at once instead of
# waiting in open(2) for a writer with its slot held (MaxWorkers=1).
mkfifo "$DIR/fifo.wtns"
out=$(ctl submit --kind groth16 --zkey "$ZKEY" --wtns "$DIR/fifo.wtns" 2>&1)
job=$(awk '/^job:/ {print $2}' <<<"$out")
[ -n "$job" ] && out=$(ctl await -w 10000 "$job" 2>&1)
check "a FIFO witness fails at once: $(grep -E 'error|INVALID' <<<"$out")" \
        grep -qE "(^error: .*|INVALID_ARGUMENT: .*)fifo.wtns: not a regular file" <<<"$out"
check "a job completes after the FIFO witness" await_verified "$(submit_job)"

# R5: a circuit id with a newline (EvictSRS logs it) cannot forge a log line.
ctl evict "$(printf '/nonexistent\njob job-99-deadbeef completed')" >/dev/null 2>&1
check "the newline of a path is escaped in the log" \
        wait_log 'EvictSRS /nonexistent\\njob job-99-deadbeef completed: was not preloaded'
check "no forged line" bash -c "! grep -q '^job job-99-deadbeef completed' '$LOG'"

# The prover SIGSTOPped, then given partitions: killed after ProverStallTimeout=,
# restarted, and the partitions complete.
prover=$(pgrep -P "$CUZKD_PID" -f -- '--prover' | head -n1)
check "the prover ($prover) is stopped" kill -STOP "$prover"
jobs=()
for _ in 1 2 3; do jobs+=("$(submit_job)"); done
for j in "${jobs[@]}"; do
        check "job $j completes although the prover was stopped" await_verified "$j"
done
check "the stopped prover was killed for its stall" \
        grep -q "ProverStallTimeout=.*killing it" "$LOG"
check "and restarted" grep -q "for making no progress (ProverStallTimeout=); restarting it" "$LOG"
check "the prover kill is counted" test "$(metric cuzk_prover_stalled_kills_total)" = 1
check "and shown by GetStatus: $(status_field stalled)" test "$(status_field stalled)" = \
        "0 workers and 1 prover killed for making no progress, their partitions retried"
kill -CONT "$prover" 2>/dev/null

# A worker SIGSTOPped mid-partition: the test hook holds the first worker in its partition
# (it waits forever), the test stops it, the liveness check kills it after
# WorkerStallTimeout= and the partition is retried.
if have_test_hooks "the stopped worker"; then
        stop_cuzkd
        touch "$DIR/fault-once"
        export CUZK_TEST_WORKER_FAULT=hang CUZK_TEST_WORKER_FAULT_ONCE=$DIR/fault-once
        start_cuzkd --config "$DIR/cuzkd.conf" --max-workers 1 --budget 2G
        unset CUZK_TEST_WORKER_FAULT CUZK_TEST_WORKER_FAULT_ONCE
        job=$(submit_job)
        worker_pid() {
                if [ -n "$CG" ]; then
                        read -r worker <"$CG/synth/w0/cgroup.procs" 2>/dev/null
                else
                        worker=$(pgrep -P "$CUZKD_PID" -f -- '--worker' | head -n1)
                fi
                [ -n "$worker" ]
        }
        worker=
        check "the hung worker is found" wait_until 100 worker_pid
        check "the worker ($worker) is stopped mid-partition" kill -STOP "$worker"
        check "job $job completes although its worker was stopped" await_verified "$job"
        check "the stopped worker was killed for its stall" \
                grep -q "Worker w0 (pid $worker) .*WorkerStallTimeout=): killing it" "$LOG"
        check "its partition was retried" \
                grep -qE "attempt 1 of 3 failed \(synthesis worker .* killed by signal 9.*WorkerStallTimeout=" "$LOG"
        check "the worker kill is counted" test "$(metric cuzk_worker_stalled_kills_total)" -ge 1
        check "and shown by GetStatus: $(status_field stalled)" \
                grep -qE "^[1-9][0-9]* workers? and 0 provers killed for making no progress" \
                <<<"$(status_field stalled)"
fi
finish
