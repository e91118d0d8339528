#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# A client's files are opened off the event loop, with the client's rights, and only when
# they are regular files given by absolute path: a FIFO as zkey_path, pce_path or
# wtns_path is refused at once while GetStatus still answers (it used to hang the whole
# daemon); a spooled job whose .zkey became a FIFO while cuzkd was down fails at the
# restart, which serves its socket at once; devices and directories are refused; a client (uid 65534) cannot prove with a root-only .zkey, nor learn a byte of
# /etc/shadow; two submissions with one request id at once give one job; a path with a
# NUL byte is refused naming its field, never cut short at the NUL.
# Usage: test-cuzkd-files.sh CUZKD CUZKCTL CUZK_BENCH CUZK FIXTURES_DIR NODE
source "$(dirname "$0")/../lib/cuzkd-lib.sh"
NODE=$6

start_cuzkd --max-workers 1 --budget 1G

# Milliseconds since the epoch.
now_ms() { date +%s%3N; }

# Runs a submission in the background and, meanwhile, GetStatus; both must answer
# within 2 s. Leaves the submission's output in $out.
submit_while_status() {
        local t0 status_ok=0
        t0=$(now_ms)
        timeout 5 "$CUZKCTL" -s "$SOCK" -t 2000 submit "$@" >"$DIR/submit.out" 2>&1 &
        local submitter=$!
        sleep 0.3 # the submission first
        timeout 5 "$CUZKCTL" -s "$SOCK" -t 2000 status >/dev/null 2>&1 && status_ok=1
        wait "$submitter"
        out=$(cat "$DIR/submit.out")
        elapsed=$(($(now_ms) - t0))
        check "GetStatus answers while a submission names a FIFO" test "$status_ok" = 1
        check "the submission is answered within 2 s ($elapsed ms)" test "$elapsed" -lt 2000
}

mkfifo "$DIR/fifo"
printf 'x' >"$DIR/plain"

submit_while_status --kind groth16 --zkey "$DIR/fifo" --wtns "$WTNS"
check "a FIFO as zkey_path is refused: $out" \
        grep -q "INVALID_ARGUMENT: zkey_path $DIR/fifo: not a regular file" <<<"$out"
submit_while_status --kind synthetic-pce --pce "$DIR/fifo" --params "$DIR/plain" \
        --witness "$DIR/plain"
check "a FIFO as pce_path is refused: $out" \
        grep -q "INVALID_ARGUMENT: pce_path $DIR/fifo: not a regular file" <<<"$out"
submit_while_status --kind groth16 --zkey "$ZKEY" --wtns "$DIR/fifo"
check "a FIFO as wtns_path is refused: $out" \
        grep -q "INVALID_ARGUMENT: wtns_path $DIR/fifo: not a regular file" <<<"$out"

# (Relative paths: cuzkctl sends absolute ones; test-budget checks job_new's refusal.)
out=$(ctl -t 5000 submit --kind groth16 --zkey /dev/zero --wtns "$WTNS" 2>&1)
check "a device is refused: $out" \
        grep -q "INVALID_ARGUMENT: zkey_path /dev/zero: not a regular file" <<<"$out"
out=$(ctl -t 5000 submit --kind groth16 --zkey "$ZKEY" --wtns "$DIR" 2>&1)
check "a directory is refused: $out" \
        grep -q "INVALID_ARGUMENT: wtns_path $DIR: not a regular file" <<<"$out"

# Root's own /etc/shadow as a witness: the job fails, and no byte of the file is said.
secret_head=$(head -c 4 /etc/shadow | tr -cd '[:print:]')
job=$(ctl submit --kind groth16 --zkey "$ZKEY" --wtns /etc/shadow | awk '/^job: / { print $2 }')
out=$(ctl await -w 30000 "$job" 2>&1)
check "a witness that is not one fails its job: $(grep '^error' <<<"$out")" \
        grep -q "^error: .*/etc/shadow: not a wtns file" <<<"$out"
check "the error quotes none of the file's bytes" \
        test -z "$secret_head" -o "$(grep -c "\"$secret_head" <<<"$out")" = 0

# Another user (nobody): files are opened with its rights.
as_nobody() {
        setpriv --reuid=65534 --regid=65534 --clear-groups "$CUZKCTL" -s "$SOCK" -t 10000 "$@"
}
chmod 0755 "$DIR"
chmod 0666 "$SOCK"
cp "$ZKEY" "$DIR/root-only.zkey"
cp "$WTNS" "$DIR/public.wtns"
chmod 0600 "$DIR/root-only.zkey"
chmod 0644 "$DIR/public.wtns"
out=$(as_nobody submit --kind groth16 --zkey "$DIR/root-only.zkey" --wtns "$DIR/public.wtns" 2>&1)
check "a root-only .zkey is refused to nobody: $out" \
        grep -q "PERMISSION_DENIED: zkey_path $DIR/root-only.zkey: Permission denied" <<<"$out"
chmod 0644 "$DIR/root-only.zkey"
job=$(as_nobody submit --kind groth16 --zkey "$DIR/root-only.zkey" --wtns "$DIR/public.wtns" |
        awk '/^job: / { print $2 }')
check "the same .zkey made readable proves for nobody" await_verified "$job"
out=$(as_nobody submit --kind groth16 --zkey "$DIR/root-only.zkey" --wtns /etc/shadow 2>&1)
check "/etc/shadow as nobody's witness is refused: $out" \
        grep -q "PERMISSION_DENIED: wtns_path /etc/shadow: Permission denied" <<<"$out"
check "and none of its bytes are said" \
        test -z "$secret_head" -o "$(grep -c "$secret_head" <<<"$out")" = 0

# Paths with a NUL byte, sent by grpc-js (cuzkctl's arguments cannot hold one): each
# INVALID_ARGUMENT naming the field. Cut at the NUL, the first and second would name the
# good key and witness, and prove.
cat >"$DIR/nul-calls.json" <<EOF
{"method": "SubmitProof", "request": {"proof_kind": "GROTH16_SNARKJS", "zkey_path": "$ZKEY\u0000/etc/shadow", "wtns_path": "$WTNS"}}
{"method": "Prove", "request": {"submit": {"proof_kind": "GROTH16_SNARKJS", "zkey_path": "$ZKEY", "wtns_path": "$WTNS\u0000.x"}}}
{"method": "SubmitProof", "request": {"proof_kind": "SYNTHETIC_PCE", "pce_path": "$DIR/plain\u0000x", "params_path": "$DIR/plain", "witness_path": "$DIR/plain"}}
{"method": "PreloadSRS", "request": {"circuit_id": "$ZKEY\u0000/etc/shadow"}}
EOF
out=$("$NODE" "$(dirname "$0")/../node/grpc-client.js" "$SOCK" "$DIR/nul-calls.json" 2>&1)
for field in SubmitProofRequest.zkey_path ProveRequest.submit.wtns_path \
        SubmitProofRequest.pce_path PreloadSrsRequest.circuit_id; do
        check "a NUL in $field is refused naming it: $(grep -F "$field" <<<"$out")" \
                grep -qF "\"code\":3,\"details\":\"$field holds a NUL byte" <<<"$out"
done

# Two submissions with one request id at once: one job.
submitters=()
for i in 1 2; do
        ctl -t 10000 submit --kind groth16 --zkey "$ZKEY" --wtns "$WTNS" -r same-time \
                >"$DIR/same-$i.out" 2>&1 &
        submitters+=($!)
done
wait "${submitters[@]}"
a=$(awk '/^job: / { print $2 }' "$DIR/same-1.out")
b=$(awk '/^job: / { print $2 }' "$DIR/same-2.out")
check "one request id submitted twice at once gives one job ($a, $b)" test -n "$a" -a "$a" = "$b"
out=$(ctl prove --kind groth16 --zkey "$ZKEY" --wtns "$WTNS" 2>&1)
check "Prove goes through the intake too" grep -q "^status: COMPLETED" <<<"$out"

# A spooled job whose .zkey became a FIFO while cuzkd was down: the restart serves its
# socket at once, and the job fails saying why. Its worker hangs (a test hook) so that
# the job is still unfinished when cuzkd is killed.
if have_test_hooks "the spooled job whose .zkey became a FIFO"; then
        stop_cuzkd
        cp "$ZKEY" "$DIR/moving.zkey"
        export CUZK_TEST_WORKER_FAULT=hang
        start_cuzkd --max-workers 1 --budget 1G
        unset CUZK_TEST_WORKER_FAULT
        job=$(ctl submit --kind groth16 --zkey "$DIR/moving.zkey" --wtns "$WTNS" |
                awk '/^job: / { print $2 }')
        check "a job is spooled unfinished" test -n "$job" -a -d "$SPOOL/$job" \
                -a ! -f "$SPOOL/$job/result.pb"
        # The hanging worker must have been started, or it would outlive the kill below.
        wait_until 100 pgrep -P "$CUZKD_PID" -f -- '--worker' >/dev/null
        children=$(pgrep -P "$CUZKD_PID")
        kill -KILL "$CUZKD_PID"
        wait "$CUZKD_PID" 2>/dev/null
        CUZKD_PID=
        for child in $children; do kill -KILL "$child" 2>/dev/null; done
        rm "$DIR/moving.zkey"
        mkfifo "$DIR/moving.zkey"
        t0=$(now_ms)
        start_cuzkd --max-workers 1 --budget 1G
        elapsed=$(($(now_ms) - t0))
        check "the restart serves GetStatus within 5 s ($elapsed ms)" test "$elapsed" -lt 5000
        out=$(ctl await -w 10000 "$job" 2>&1)
        check "the spooled job FAILED: $(grep '^error' <<<"$out")" \
                grep -q "^status: FAILED" <<<"$out"
        check "naming its FIFO" \
                grep -q "^error: zkey_path $DIR/moving.zkey: not a regular file" <<<"$out"
        check "the daemon proves on" await_verified "$(submit_job)"
fi
finish
