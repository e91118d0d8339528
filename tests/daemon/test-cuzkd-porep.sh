#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# PoRep C2 through a real cuzkd, as Curio sends it (issue 22): a 2 KiB sector sealed by
# `cuzk porep seal`, its C1 envelope submitted by @grpc/grpc-js with a test key pair under
# the network's file names in a test ParameterCache=; the 192-byte answer passes
# `cuzk porep verify` and snarkjs. A tampered C1 and a missing or truncated .params FAIL
# naming the check and the file; PreloadSRS/EvictSRS take "porep-2k"; a queued job survives
# a restart from the spool; a job is cancelled mid-synthesis; a batch of 4 jobs at
# concurrency 2 goes through `cuzk-bench batch --type porep`. A 2 KiB partition is
# a 2^22 domain: about a minute of proving on 2 cores, six proofs in all.
# Usage: test-cuzkd-porep.sh CUZKD CUZKCTL CUZK_BENCH CUZK FIXTURES_DIR NODE SNARKJS_CLI
source "$(dirname "$0")/../lib/cuzkd-lib.sh"
NODE=$6 SNARKJS_CLI=$7

if [ "${CUZK_TEST_SCALE:-1}" != 1 ]; then
        # The sanitizer build: 2^22 proofs there take tens of minutes each.
        echo "SKIP: 2 KiB PoRep proofs at CUZK_TEST_SCALE=$CUZK_TEST_SCALE"
        exit 77
fi

# The seeded 2 KiB key takes a minute and a half on 2 cores: kept between runs outside the
# clone, as tests/cli/test-cli-porep-prove.sh keeps it (the same directory).
PARAMS=${CUZK_CACHE_DIR:-$HOME/.cache/cuzk}/porep-test-params-pce-v1-seed0123456789abcdef
if [ ! -f "$PARAMS/done" ]; then
        tmp=$PARAMS.tmp.$$
        if ! mkdir -p "$tmp" ||
                ! "$CUZK" porep setup --sector-size 2KiB --params-dir "$tmp" \
                        --seed 0123456789abcdef >"$DIR/setup.log" 2>&1; then
                cat "$DIR/setup.log"
                rm -rf "$tmp"
                fail "cuzk porep setup"
                finish
        fi
        touch "$tmp/done" && rm -rf "$PARAMS" && mv "$tmp" "$PARAMS"
fi
STEM=$(basename "$(ls "$PARAMS"/*.params)" .params)

"$CUZK" porep seal --registered-proof StackedDrg2KiBV1_1 --miner t01000 --sector 1 \
        --out "$DIR/c1.json" --envelope "$DIR/env.json" >/dev/null ||
        { fail "cuzk porep seal"; finish; }
# One label parent of the first challenge changed: the native check's to find.
python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))
c["vanilla_proofs"]["StackedDrg2KiBV1"][0][0]["labeling_proofs"][0]["parents"][0][0] ^= 1
json.dump(c, open(sys.argv[2], "w"), separators=(",", ":"))' "$DIR/c1.json" "$DIR/tampered.json"

# write_config NAME PARAMETER_CACHE: a configuration with that cache and the test's PCE cache.
write_config() {
        printf '[Prover]\nParameterCache=%s\nPceCache=%s\n' "$2" "$DIR/pce" >"$DIR/$1.conf"
}
write_config good "$PARAMS"
mkdir -p "$DIR/empty" "$DIR/truncated"
write_config missing "$DIR/empty"
head -c 65536 "$PARAMS/$STEM.params" >"$DIR/truncated/$STEM.params"
cp "$PARAMS/$STEM.vk" "$DIR/truncated/"
write_config truncated "$DIR/truncated"

# porep_prove_fails WHAT REASON CONFIG: the envelope's job FAILS naming REASON.
porep_prove_fails() {
        local out
        out=$(ctl prove --kind porep --registered-proof 5 --sector-number 1 --miner-id 1000 \
                --vanilla-proof "$DIR/env.json" 2>&1)
        if printf '%s\n' "$out" | grep -q '^status: FAILED' &&
                printf '%s\n' "$out" | grep -qF -- "$2"; then
                pass "$1"
        else
                fail "$1: $out"
        fi
}

# verified PROOF: `cuzk porep verify` says OK, and snarkjs with the exported vk.
verified() {
        "$CUZK" porep verify "$DIR/env.json" "$1" --params-dir "$PARAMS" >/dev/null || return 1
        rm -rf "$DIR/snarkjs"
        "$CUZK" porep snarkjs "$DIR/env.json" "$1" --params-dir "$PARAMS" --out-dir "$DIR/snarkjs" &&
                node "$SNARKJS_CLI" groth16 verify "$DIR/snarkjs/vk.json" \
                        "$DIR/snarkjs/public-0.json" "$DIR/snarkjs/proof-0.json" 2>&1 | grep -q "OK!"
}

make_cgroup || echo "note: no memory cgroup of our own; cuzkd runs in ours"

start_cuzkd --config "$DIR/missing.conf" --max-workers 1
PARAMS_BYTES=$("$CUZK" porep info --sector-size 2KiB | sed -n 's/^params_bytes: //p')
porep_prove_fails "a missing .params FAILS naming the file and its size" \
        "$DIR/empty/$STEM.params: No such file or directory: the parameters of StackedDrg2KiBV1_1 ($PARAMS_BYTES bytes)"
stop_cuzkd
start_cuzkd --config "$DIR/truncated.conf" --max-workers 1
porep_prove_fails "a truncated .params FAILS naming the file, its size and the size it needs" \
        "$DIR/truncated/$STEM.params: truncated: 65536 bytes, it ends before its l section (the parameters of StackedDrg2KiBV1_1: $PARAMS_BYTES bytes)"
stop_cuzkd

start_cuzkd --config "$DIR/good.conf" --max-workers 1
t0=$(date +%s)
check "the grpc-js client's PoRep checks" \
        "$NODE" "$(dirname "$0")/porep-grpcjs.js" "$SOCK" "$DIR/env.json" "$DIR/tampered.json" \
        "$DIR/grpcjs.proof"
echo "(the PCE built, the key loaded and one partition proved in $(($(date +%s) - t0)) s)"
check "the answer passes cuzk porep verify and snarkjs" verified "$DIR/grpcjs.proof"
check "the PCE was built into PceCache= on first use" test -s "$DIR/pce/$STEM.cuzk-pce-v1"

# Restart: a job submitted, cuzkd stopped before it ended, the job proved after the restart.
job=$(ctl submit --kind porep --registered-proof 5 --sector-number 1 --miner-id 1000 \
        --vanilla-proof "$DIR/env.json" | awk '/^job: / { print $2 }')
check "a PoRep job spooled its C1 output" test -s "$SPOOL/$job/input.c1"
stop_cuzkd
start_cuzkd --config "$DIR/good.conf" --max-workers 1
out=$(ctl await "$job")
printf '%s\n' "$out" | sed -n 's/^proof: //p' | xxd -r -p >"$DIR/restart.proof"
check "the spooled job completed after the restart" grep -q '^status: COMPLETED' <<<"$out"
check "its proof verifies" verified "$DIR/restart.proof"

# Cancel mid-synthesis: one worker hangs once it has read its task (the test fault), the job
# is cancelled there and ends CANCELLED; the daemon proves on.
if have_test_hooks "the cancel mid-synthesis"; then
        stop_cuzkd
        touch "$DIR/hang-once"
        export CUZK_TEST_WORKER_FAULT=hang CUZK_TEST_WORKER_FAULT_ONCE=$DIR/hang-once
        start_cuzkd --config "$DIR/good.conf" --max-workers 1
        unset CUZK_TEST_WORKER_FAULT CUZK_TEST_WORKER_FAULT_ONCE
        job=$(ctl submit --kind porep --registered-proof 5 --sector-number 1 --miner-id 1000 \
                --vanilla-proof "$DIR/env.json" | awk '/^job: / { print $2 }')
        if wait_log "Test fault injection: hang" 60; then
                ctl_quiet cancel "$job"
                out=$(ctl await "$job")
                check "a PoRep job cancelled mid-synthesis ends CANCELLED" \
                        grep -q '^status: CANCELLED' <<<"$out"
        else
                fail "the job's worker did not start within 60 s"
        fi
fi
stop_cuzkd

start_cuzkd --config "$DIR/good.conf"
t0=$(date +%s)
if "$CUZK_BENCH" -s "$SOCK" batch --type porep --c1 "$DIR/env.json" --count 4 --concurrency 2 \
        >"$DIR/bench.out" 2>&1 && grep -q '^completed: *4$' "$DIR/bench.out"; then
        pass "cuzk-bench batch --type porep: 4 jobs at concurrency 2 completed"
else
        fail "cuzk-bench batch --type porep"
        cat "$DIR/bench.out"
fi
echo "(the batch took $(($(date +%s) - t0)) s)"
sed -n '/=== Batch Summary ===/,$p' "$DIR/bench.out"
finish
