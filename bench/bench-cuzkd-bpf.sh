#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The eBPF probes' overhead on a batch (issue 7): the same `cuzk-bench batch --verify`
# (COUNT proofs of the bits fixture, CONCURRENCY in flight) through cuzkd with BPF=no and
# with BPF=yes, RUNS times each, alternating so that drift in the machine's load hits both
# alike; prints a table of throughput per run, the probes' own run count and time (from
# GetMetrics; kernel.bpf_stats_enabled is switched on for the BPF=yes runs and restored)
# and the admission pauses the probes caused. Needs root (the probes, a memory cgroup).
# Usage: bench/bench-cuzkd-bpf.sh [BUILD_DIR [COUNT [CONCURRENCY [RUNS]]]]
#   BUILD_DIR build, COUNT 20, CONCURRENCY 4, RUNS 3. The fixtures come from
#   BUILD_DIR/tests/fixtures (ninja -C BUILD_DIR builds them).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
count=${2:-20}
concurrency=${3:-4}
runs=${4:-3}
fixtures=$build/tests/fixtures
cuzkd=$build/daemon/cuzkd
cuzkctl=$build/cli/cuzkctl
bench=$build/cli/cuzk-bench

case "$count$concurrency$runs" in
*[!0-9]*)
        echo "usage: $0 [BUILD_DIR [COUNT [CONCURRENCY [RUNS]]]] (numbers)" >&2
        exit 2
        ;;
esac
if [ "$(id -u)" != 0 ]; then
        echo "bench-cuzkd-bpf: needs root (the eBPF probes)" >&2
        exit 2
fi
for f in "$cuzkd" "$cuzkctl" "$bench" "$fixtures/bits.zkey" "$fixtures/bits.wtns"; do
        [ -e "$f" ] || { echo "bench-cuzkd-bpf: $f missing (ninja -C $build)" >&2; exit 2; }
done

# shellcheck source=scripts/cgroup-child.sh
. "$top/scripts/cgroup-child.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-cuzkd-bpf.XXXXXX")
stats_before=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null || echo 0)
cuzkd_pid=
cg=

# shellcheck disable=SC2317 # called from the EXIT trap too
stop_cuzkd() {
        [ -n "$cuzkd_pid" ] || return 0
        kill -TERM "$cuzkd_pid" 2>/dev/null || true
        wait "$cuzkd_pid" 2>/dev/null || true
        cuzkd_pid=
        cgroup_child_remove "$cg"
        cg=
}
# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
        stop_cuzkd
        sysctl -qw kernel.bpf_stats_enabled="$stats_before" 2>/dev/null || true
        rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# One batch with BPF=$1; appends a row to $tmp/rows.
run_batch() {
        local mode=$1 run=$2 sock=$tmp/sock out metrics tput runs_ns probe_runs probe_s pauses
        printf '[Memory]\nBPF=%s\n' "$mode" >"$tmp/cuzkd.conf"
        if [ "$mode" = yes ]; then
                sysctl -qw kernel.bpf_stats_enabled=1
        else
                sysctl -qw kernel.bpf_stats_enabled="$stats_before"
        fi
        rm -rf "$tmp/spool"
        cg=$(cgroup_child_make "bench-cuzkd-bpf-$$-$mode-$run") || cg=
        (
                [ -n "$cg" ] && echo "$BASHPID" >"$cg/cgroup.procs"
                exec "$cuzkd" --config "$tmp/cuzkd.conf" --socket "$sock" \
                        --spool-dir "$tmp/spool" --budget 2G --max-workers "$concurrency"
        ) >>"$tmp/cuzkd-$mode.log" 2>&1 &
        cuzkd_pid=$!
        for _ in $(seq 100); do
                "$cuzkctl" -s "$sock" -t 1000 status >/dev/null 2>&1 && break
                sleep 0.1
        done
        out=$("$bench" --socket "$sock" batch --type snarkjs --zkey "$fixtures/bits.zkey" \
                --wtns "$fixtures/bits.wtns" --count "$count" --concurrency "$concurrency" --verify)
        metrics=$("$cuzkctl" -s "$sock" metrics)
        stop_cuzkd
        tput=$(awk '/^throughput:/ { print $2 }' <<<"$out")
        probe_runs=$(awk '$1 == "cuzk_bpf_probe_runs_total" { print $2 }' <<<"$metrics")
        runs_ns=$(awk '$1 == "cuzk_bpf_probe_seconds_total" { printf "%.3f", $2 * 1000 }' <<<"$metrics")
        probe_s=${runs_ns:--}
        pauses=$(awk '$1 == "cuzk_admission_pauses_by_source_total{source=\"bpf\"}" { print $2 }' <<<"$metrics")
        printf '| %s | %d | %s | %s | %s | %s |\n' "$mode" "$run" "$tput" "${probe_runs:--}" \
                "$probe_s" "${pauses:--}" >>"$tmp/rows"
}

echo "bench-cuzkd-bpf: $count proofs of bits (2^12), concurrency $concurrency, $runs runs per mode"
echo "machine: $(nproc) CPUs, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), kernel $(uname -r)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$tmp/rows"
for run in $(seq "$runs"); do
        run_batch no "$run"
        run_batch yes "$run"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| BPF | run | proofs/min | probe runs | probe ms | BPF pauses |"
echo "|---|---|---|---|---|---|"
cat "$tmp/rows"
echo
for mode in no yes; do
        awk -v m="$mode" -F'|' '$2 ~ " " m " " { s += $4; n++ }
                END { if (n) printf "BPF=%s: mean %.2f proofs/min over %d runs\n", m, s / n, n }' \
                "$tmp/rows"
done
grep -h "eBPF probes\|BPF unavailable" "$tmp"/cuzkd-*.log | sort -u | sed 's/^/cuzkd: /'
