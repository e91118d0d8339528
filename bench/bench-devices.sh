#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One prover against several (Devices=), through the daemon: the same synthetic
# batch on the first device alone, then on all of them, then on all of them
# with one prover SIGKILLed mid-batch. Prints a table: throughput, its ratio to
# the one-prover run, cuzkd's peak memory against its budget, and the partitions
# each prover proved (cuzkctl status).
#
# Usage: bench/bench-devices.sh BUILD_DIR PCE PARAMS WITNESS [COUNT [PARTITIONS]]
#   COUNT proofs per run (default 8), PARTITIONS per proof (default 2).
# Environment: DEVICES_ONE (default "0" where a GPU is present, else "cpu"),
#   DEVICES_ALL (default "all" with GPUs, else "cpu cpu"), BUDGET (default auto),
#   MAX_WORKERS (default 4).
# Needs root for cuzkd's own memory cgroup (peak memory); without one the peak
# column says "n/a".
set -euo pipefail

[ $# -ge 4 ] || { echo "usage: $0 BUILD_DIR PCE PARAMS WITNESS [COUNT [PARTITIONS]]" >&2; exit 2; }
build=$(cd "$1" && pwd)
pce=$(realpath "$2") params=$(realpath "$3") witness=$(realpath "$4")
count=${5:-8} partitions=${6:-2}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cuzkd=$build/daemon/cuzkd cuzkctl=$build/cli/cuzkctl bench=$build/cli/cuzk-bench
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
        one=${DEVICES_ONE:-0} all=${DEVICES_ALL:-all}
else
        one=${DEVICES_ONE:-cpu} all=${DEVICES_ALL:-cpu cpu}
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-devices.XXXXXX")
sock=$tmp/sock
cuzkd_pid=
# shellcheck source=scripts/cgroup-child.sh
. "$top/scripts/cgroup-child.sh"
cg=

stop_cuzkd() {
        [ -n "$cuzkd_pid" ] || return 0
        kill -TERM "$cuzkd_pid" 2>/dev/null || true
        wait "$cuzkd_pid" 2>/dev/null || true
        cuzkd_pid=
        cgroup_child_remove "$cg"
        cg=
}
# shellcheck disable=SC2317 # the EXIT trap
cleanup() { stop_cuzkd; rm -rf "$tmp"; }
trap cleanup EXIT

start_cuzkd() { # DEVICES
        printf '[Prover]\nDevices=%s\n[Memory]\nTotalBudget=%s\n[Scheduler]\nMaxWorkers=%s\n' \
                "$1" "${BUDGET:-auto}" "${MAX_WORKERS:-4}" >"$tmp/cuzkd.conf"
        cg=$(cgroup_child_make "bench-devices-$$") || cg=
        (
                [ -n "$cg" ] && echo "$BASHPID" >"$cg/cgroup.procs"
                exec "$cuzkd" --config "$tmp/cuzkd.conf" --socket "$sock" --spool-dir "$tmp/spool"
        ) >>"$tmp/cuzkd.log" 2>&1 &
        cuzkd_pid=$!
        for _ in $(seq 600); do
                # every prover ready or out of service
                if "$cuzkctl" -s "$sock" status >"$tmp/status" 2>/dev/null &&
                        grep -q '^prover ' "$tmp/status" && ! grep -q ', starting,' "$tmp/status"; then
                        return 0
                fi
                kill -0 "$cuzkd_pid" 2>/dev/null || break
                sleep 0.1
        done
        echo "bench-devices: cuzkd did not start; its log:" >&2
        tail -n 30 "$tmp/cuzkd.log" >&2
        exit 1
}

peak() {
        if [ -z "$cg" ]; then echo "n/a"
        elif [ -f "$cg/memory.peak" ]; then numfmt --to=iec-i --suffix=B <"$cg/memory.peak"
        else numfmt --to=iec-i --suffix=B <"$cg/memory.max_usage_in_bytes"; fi
}

run_batch() { # the batch at twice as many proofs in flight as provers
        local n
        n=$("$cuzkctl" -s "$sock" status | grep -c '^prover ')
        "$bench" -s "$sock" batch --type synthetic --pce "$pce" --params "$params" \
                --witness "$witness" --partitions "$partitions" --count "$count" \
                --concurrency $((2 * n)) --verify >"$tmp/batch.out" 2>&1
}

# One row: LABEL DEVICES KILLED
row() {
        local label=$1 devices=$2 killed=$3 tput status per budget
        tput=$(sed -n 's/^throughput: *\([0-9.]*\) proofs\/min.*/\1/p' "$tmp/batch.out")
        status=$("$cuzkctl" -s "$sock" status)
        per=$(sed -n 's/^prover \([0-9]*\): \([^,]*\), .* \([0-9]*\) proved, \([0-9]*\) failed.*/\1 (\2): \3 proved, \4 failed/p' <<<"$status" | paste -sd ';' -)
        budget=$(sed -n 's/^memory budget: .* of //p' <<<"$status")
        base=${base:-$tput}
        printf '| %s | %s | %s | %s | %.2fx | %s | %s | %s |\n' "$label" "$devices" "$killed" \
                "$tput" "$(echo "$tput / $base" | bc -l)" "$(peak)" "$budget" "$per"
}

echo "| run | Devices= | prover killed | proofs/min | vs one | peak memory | budget | per prover |"
echo "|---|---|---|---|---|---|---|---|"
base=
start_cuzkd "$one"
run_batch || { cat "$tmp/batch.out"; exit 1; }
row "one prover" "$one" no
stop_cuzkd

start_cuzkd "$all"
run_batch || { cat "$tmp/batch.out"; exit 1; }
row "all provers" "$all" no
stop_cuzkd

start_cuzkd "$all"
run_batch &
batch_pid=$!
victim=
for _ in $(seq 600); do # the first prover that holds a partition
        victim=$("$cuzkctl" -s "$sock" status |
                sed -n 's/^prover [0-9]*: .*, pid \([0-9]*\), ready, .*, [1-9][0-9]* in hand.*/\1/p' | head -n1)
        [ -n "$victim" ] && break
        sleep 0.1
done
[ -n "$victim" ] && kill -KILL "$victim"
wait "$batch_pid" || { cat "$tmp/batch.out"; exit 1; }
row "all, one killed" "$all" "${victim:-none found}"
stop_cuzkd
