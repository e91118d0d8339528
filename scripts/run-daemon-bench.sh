#!/usr/bin/env bash
# The daemon's main job: installs what is needed, builds cuzkd and cuzk-bench,
# makes the bundled circom example (as the tests do), starts cuzkd in the
# foreground on a temporary socket and spool, runs a batch of proofs through
# it with `cuzk-bench batch --verify` (every proof checked against the key),
# stops cuzkd and exits with cuzk-bench's status (0: every proof completed
# and verified).
# Usage: scripts/run-daemon-bench.sh [COUNT [CONCURRENCY [CIRCUIT]]]
#   COUNT 20, CONCURRENCY 4, CIRCUIT bits (or pubinputs, edge, outputs).
#        scripts/run-daemon-bench.sh porep [COUNT [CONCURRENCY]]
#   the real job in miniature (COUNT 1, CONCURRENCY 1): seals a 2 KiB sector
#   with `cuzk porep seal`, makes (once, cached in ~/.cache/cuzk) a test key
#   pair under the network's file names, starts cuzkd with its built-in
#   defaults (FIL_PROOFS_PARAMETER_CACHE pointing at that key), sends the C1
#   envelope as Curio does (`cuzk-bench batch --type porep`), then one more
#   with `cuzkctl prove` and checks that proof with `cuzk porep verify`.
#   CUZK_POREP_SIZE=8MiB does the same with an 8 MiB sector (its test key:
#   about 2 minutes on 2 cores, once).
# Environment: CUZK_BUILD_DIR (default build; a folder of programs built
# elsewhere, without build.ninja, is used as it is), CUZKD_ARGS (more cuzkd
# flags, e.g. "--budget 2G --max-workers 2"), CUZK_SKIP_DEPS=1 (no package
# step), CUZK_PROOF_OUT (porep: a folder that receives the C1, the proof and
# the .vk, e.g. for snarkjs elsewhere).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
porep=0
if [ "${1:-}" = porep ]; then
        porep=1
        shift
fi
count=${1:-$([ $porep = 1 ] && echo 1 || echo 20)}
concurrency=${2:-$([ $porep = 1 ] && echo 1 || echo 4)}
circuit=${3:-bits}
build=${CUZK_BUILD_DIR:-build}

case "$count$concurrency" in
*[!0-9]*)
        echo "usage: $0 [COUNT [CONCURRENCY [CIRCUIT]]] (numbers)" >&2
        exit 2
        ;;
esac

if [ -f "$build/build.ninja" ] || [ ! -x "$build/daemon/cuzkd" ]; then
        scripts/ensure-deps.sh
        [ -f "$build/build.ninja" ] || meson setup "$build"
        ninja -C "$build" daemon/cuzkd cli/cuzk-bench cli/cuzk cli/cuzkctl
fi # else programs built elsewhere (cuda/device-bundle.sh's bundle on the GPU host)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuzkd-bench.XXXXXX")
fixtures=$build/example
if [ $porep = 1 ]; then
        size=${CUZK_POREP_SIZE:-2KiB}
        case $size in
        2KiB) registered=5 key=porep-test-params-pce-v1-seed0123456789abcdef ;;
        8MiB) registered=6 key=porep-test-params-8MiB-pce-v1-seed0123456789abcdef ;;
        *) echo "run-daemon-bench: CUZK_POREP_SIZE=$size: expected 2KiB or 8MiB" >&2; exit 2 ;;
        esac
        seed=0707070707070707070707070707070707070707070707070707070707070707
        "$build/cli/cuzk" porep seal --registered-proof "StackedDrg${size}V1_1" --miner t01000 \
                --sector 1 --seed "$seed" --out "$tmp/c1.json" --envelope "$tmp/c1-envelope.json"
        params=${CUZK_CACHE_DIR:-$HOME/.cache/cuzk}/$key
        if [ ! -f "$params/done" ]; then
                mkdir -p "$(dirname "$params")"
                echo "run-daemon-bench: a $size test key pair (minutes on 2 cores, once)"
                "$build/cli/cuzk" porep setup --sector-size "$size" --params-dir "$params.tmp" \
                        --seed 0123456789abcdef
                touch "$params.tmp/done"
                rm -rf "$params" && mv "$params.tmp" "$params"
        fi
        export FIL_PROOFS_PARAMETER_CACHE=$params
else
        tests/fixtures/make-fixtures.sh "$fixtures" "$circuit"
fi
socket=$tmp/cuzk.sock
log=$tmp/cuzkd.log
cuzkd_pid=
# A memory cgroup of cuzkd's own below ours where we may make one (root), so
# that the daemon's peak memory (workers and prover included) is its own.
# shellcheck source=scripts/cgroup-child.sh
. "$top/scripts/cgroup-child.sh"
cg=$(cgroup_child_make "cuzkd-bench-$$") || cg=

# Stops cuzkd (SIGTERM, then SIGKILL after 30 s) if it still runs.
# shellcheck disable=SC2317 # called from the EXIT trap too
stop_cuzkd() {
        [ -n "$cuzkd_pid" ] || return 0
        if kill -0 "$cuzkd_pid" 2>/dev/null; then
                kill -TERM "$cuzkd_pid" 2>/dev/null || true
                for _ in $(seq 300); do
                        kill -0 "$cuzkd_pid" 2>/dev/null || break
                        sleep 0.1
                done
                if kill -0 "$cuzkd_pid" 2>/dev/null; then
                        echo "run-daemon-bench: cuzkd did not stop in 30 s: killing it" >&2
                        kill -KILL "$cuzkd_pid" 2>/dev/null || true
                fi
        fi
        wait "$cuzkd_pid" 2>/dev/null || true
        cuzkd_pid=
}
# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
        stop_cuzkd
        cgroup_child_remove "$cg"
        rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "run-daemon-bench: starting cuzkd on $socket (log: $log)"
# shellcheck disable=SC2086 # CUZKD_ARGS is a list of flags
# cuzkd's built-in defaults (no configuration file), with a socket and a
# spool of our own.
(
        [ -n "$cg" ] && echo "$BASHPID" >"$cg/cgroup.procs"
        exec "$build/daemon/cuzkd" --config /dev/null --socket "$socket" --spool-dir "$tmp/spool" \
                ${CUZKD_ARGS:-}
) >"$log" 2>&1 &
cuzkd_pid=$!
for _ in $(seq 300); do
        [ -S "$socket" ] && break
        if ! kill -0 "$cuzkd_pid" 2>/dev/null; then
                echo "run-daemon-bench: cuzkd exited before it listened; its log:" >&2
                cat "$log" >&2
                exit 1
        fi
        sleep 0.1
done
if [ ! -S "$socket" ]; then
        echo "run-daemon-bench: cuzkd did not listen on $socket within 30 s; its log:" >&2
        cat "$log" >&2
        exit 1
fi

status=0
if [ $porep = 1 ]; then
        # cuzkd verifies every partition against the .vk before it answers.
        "$build/cli/cuzk-bench" --socket "$socket" batch --type porep --c1 "$tmp/c1-envelope.json" \
                --count "$count" --concurrency "$concurrency" || status=$?
        if [ "$status" = 0 ]; then
                "$build/cli/cuzkctl" --socket "$socket" prove --kind porep --registered-proof "$registered" \
                        --sector-number 1 --miner-id 1000 --vanilla-proof "$tmp/c1-envelope.json" \
                        --proof-out "$tmp/c1.proof" >/dev/null || status=$?
                echo "cuzk porep verify: $("$build/cli/cuzk" porep verify "$tmp/c1.json" "$tmp/c1.proof" \
                        --params-dir "$params")" || status=1
                if [ -n "${CUZK_PROOF_OUT:-}" ]; then
                        mkdir -p "$CUZK_PROOF_OUT"
                        cp "$tmp/c1.json" "$tmp/c1.proof" "$params"/*.vk "$CUZK_PROOF_OUT/"
                fi
        fi
else
        "$build/cli/cuzk-bench" --socket "$socket" batch --type snarkjs \
                --zkey "$fixtures/$circuit.zkey" --wtns "$fixtures/$circuit.wtns" \
                --count "$count" --concurrency "$concurrency" --verify || status=$?
fi

stop_cuzkd
echo
echo "run-daemon-bench: cuzkd's log, last lines:"
tail -n 8 "$log" | sed 's/^/  /'
if [ "$status" -ne 0 ]; then
        echo "run-daemon-bench: cuzk-bench exited with status $status" >&2
fi
exit "$status"
