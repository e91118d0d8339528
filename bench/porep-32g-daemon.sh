#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# A synthetic 32 GiB C1 through cuzkd on a GPU host (issues 22 and 23):
# the real 32 GiB circuit's PCE, a timing-only SRS in the network's layout
# and file names (its proofs do not verify: timing only), cuzkd in a
# cgroup of its own (the SRS and the PCE read cold: the page cache is
# dropped first), cuzk-bench batch --type porep. Prints each step's time,
# the batch's lines (GPU idle time among them), and the cgroup's
# memory.peak, each partition's GPU stage with its parts (cuzkd's debug
# log); then a fresh cuzkd preloads the key from the page cache (cuzkctl
# preload: the load time warm). Needs root and cgroup v2 (the
# device machine); about 7 minutes on the H200 host with 5 proofs.
#
#   bench/porep-32g-daemon.sh BUILD_DIR [COUNT] [CONCURRENCY] [COMPACT_WITNESS]
#
# COMPACT_WITNESS is [GPU] CompactWitness= (auto by default here: the worker hands the
# prover the compact witness, a, b, c are made on the GPU; "no" for the full form).
# MEMORY_MAX=SIZE in the environment sets memory.max of cuzkd's cgroup (a smaller host:
# TotalBudget=auto follows it); WARM=0 skips the preload from the page cache.
set -u -o pipefail

build=${1:?usage: $0 BUILD_DIR [COUNT] [CONCURRENCY]}
count=${2:-3} concurrency=${3:-2} compact=${4:-auto}
work=${WORK:-/tmp/porep-32g}
cg=/sys/fs/cgroup/cuzk-porep-bench-$$ # cuzkd makes children: one per run
mkdir -p "$work/params" "$work/pce"

# Each line after the time it was read (seconds since the epoch, to the microsecond):
# the gaps between a partition's lines show where a lane waits.
stamp_lines() { while IFS= read -r l; do printf '%s %s\n' "$EPOCHREALTIME" "$l"; done; }
# cuzkd in the cgroup $cg, its log to $1 (stamped); sets pid and returns once it answers.
start_cuzkd() {
        # The reader starts before the subshell joins $cg: a cgroup whose children
        # cuzkd makes holds no process of its own.
        (
                echo "$BASHPID" >"$cg/cgroup.procs"
                exec "$build/daemon/cuzkd" --config "$work/cuzkd.conf"
        ) > >(stamp_lines >"$1") 2>&1 &
        pid=$!
        for _ in $(seq 100); do
                "$build/cli/cuzkctl" -s "$work/sock" -t 1000 status >/dev/null 2>&1 && break
                sleep 0.2
        done
}
step() { printf '== %s (%s)\n' "$*" "$(date +%T)"; }
timed() { # seconds command...
        local t0=$SECONDS
        timeout "$@"
        local rc=$?
        echo "   rc $rc, $((SECONDS - t0)) s"
        return $rc
}

step "synthetic 32 GiB C1"
# Miner t01000, sector 1: what cuzk-bench sends unless told otherwise.
timed 60 "$build/cli/cuzk" porep synth-c1 --registered-proof StackedDrg32GiBV1_1 \
        --miner t01000 --sector 1 --out "$work/c1.json" >/dev/null || exit 1
step "PCE of the 32 GiB circuit (kept from an earlier run in $work)"
timed 300 "$build/cli/cuzk" porep info --sector-size 32GiB --pce-dir "$work/pce" | grep -E "rows|pce_bytes" || exit 1
pce=$(ls "$work"/pce/*.cuzk-pce-v1)
stem=$(basename "$pce" .cuzk-pce-v1)
step "timing-only SRS, bellperson layout, the network's file name"
[ -f "$work/params/$stem.vk" ] ||
        timed 400 "$build/cli/cuzk" setup --pce "$pce" --params "$work/params/$stem.params" \
        --vk "$work/params/$stem.vk" --timing-only --bellperson-layout 2>&1 | tail -3 || exit 1
ls -l "$work/params"
step "page cache dropped: cuzkd reads the SRS and the PCE cold"
sync
echo 3 >/proc/sys/vm/drop_caches

cat >"$work/cuzkd.conf" <<CONF
[Daemon]
Socket=$work/sock
SpoolDirectory=$work/spool
LogTarget=stderr
LogLevel=debug
[Prover]
ParameterCache=$work/params
PceCache=$work/pce
[GPU]
CompactWitness=$compact
CONF
rm -rf "$work/spool" "$work/sock"
mkdir -p "$cg"
echo +memory >/sys/fs/cgroup/cgroup.subtree_control
[ -z "${MEMORY_MAX:-}" ] || echo "$MEMORY_MAX" >"$cg/memory.max"
step "cuzkd in $cg (memory.max $(cat "$cg/memory.max"))"
start_cuzkd "$work/cuzkd.log"
step "cuzk-bench batch --type porep, $count proofs, $concurrency at a time"
timed 900 "$build/cli/cuzk-bench" -s "$work/sock" batch -t porep --c1 "$work/c1.json" \
        -c "$count" -j "$concurrency" 2>&1 | tail -25
step "memory"
echo "cgroup memory.peak: $(cat "$cg/memory.peak" 2>/dev/null) bytes"
"$build/cli/cuzkctl" -s "$work/sock" -t 1000 status 2>&1 | head -30
kill "$pid"
wait "$pid"
sleep 1 # the stamping reader's last lines
find "$cg" -depth -type d -exec rmdir {} \; 2>/dev/null
grep -E "warning|error|GPU|partition 0|loaded|reserved" "$work/cuzkd.log" | head -30
grep -E "compact witness" "$work/cuzkd.log" | head -12
# Each partition's GPU stage and its parts (a partition alone only at the start: later
# ones overlap on two lanes), and its B_G2 tail.
grep -E "GPU stage" "$work/cuzkd.log" | head -24

[ "${WARM:-1}" = 0 ] && exit 0
# The key load again, from a file in the page cache: a fresh cuzkd (and cgroup) preloads it.
step "the .params file read into the page cache"
timed 300 cat "$work/params/$stem.params" >/dev/null
mkdir -p "$cg"
rm -rf "$work/sock"
start_cuzkd "$work/cuzkd-warm.log"
step "cuzkctl preload, the key from the page cache"
timed 300 "$build/cli/cuzkctl" -s "$work/sock" -t 300000 preload "$pce+$work/params/$stem.params"
echo "cgroup memory.peak: $(cat "$cg/memory.peak" 2>/dev/null) bytes"
kill "$pid"
wait "$pid"
find "$cg" -depth -type d -exec rmdir {} \; 2>/dev/null
grep -E "loaded|SRS|reserved" "$work/cuzkd-warm.log" | head -10
