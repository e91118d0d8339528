#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# cuzkd's memory governance on a host with pure cgroup v2 and the memory
# controller (the H200 GPU machine, the VM of tests/vm), run as root, with
# a PASS/FAIL line per check:
#   - cuzkd in a cgroup delegated to it (as systemd's Delegate=yes does),
#     itself in supervisor/, each synthesis worker in synth/wN with
#     memory.max and memory.high from its reservation and memory.oom.group=1;
#   - the prover in prover-0 with memory.min set and memory.current
#     covering the SRS it loaded (a real 2^18 bellperson key, ~150 MB);
#   - one runaway worker (the test fault, in exactly one worker) OOM-killed
#     alone in its cgroup while the batch completes and every proof verifies;
#     a cuzkd built without -Dtest_hooks=true (the package) has no such fault:
#     the runaway checks are then skipped, said so.
# Usage: tests/cgroup-v2-governance.sh BUILD_DIR|--installed [COUNT]
#   (--installed: the programs in PATH and /usr/sbin, as the package installs them)
# Exit: 0 all checks passed, 1 a check failed, 77 not root / no cgroup v2
# memory controller here.
set -u

count=${2:-12}
if [ "${1:?usage: $0 BUILD_DIR|--installed [COUNT]}" = --installed ]; then
        PATH=$PATH:/usr/sbin
        cuzkd=$(command -v cuzkd) cuzk=$(command -v cuzk) cuzkctl=$(command -v cuzkctl)
        bench=$(command -v cuzk-bench)
else
        build=$(cd "$1" && pwd)
        cuzkd=$build/daemon/cuzkd cuzk=$build/cli/cuzk cuzkctl=$build/cli/cuzkctl
        bench=$build/cli/cuzk-bench
fi
failures=0
pass() { echo "PASS: $*"; }
fail() {
        echo "FAIL: $*"
        failures=$((failures + 1))
}
check() { # DESCRIPTION COMMAND...
        local what=$1
        shift
        if "$@"; then pass "$what"; else fail "$what"; fi
}

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
if [ "$(stat -f -c %T /sys/fs/cgroup)" != cgroup2fs ] ||
        ! grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
        echo "SKIP: /sys/fs/cgroup is not cgroup v2 with the memory controller"
        exit 77
fi
for exe in "$cuzkd" "$cuzk" "$cuzkctl" "$bench"; do
        [ -x "$exe" ] || { echo "FAIL: $exe missing: build first"; exit 1; }
done

own=$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
base=/sys/fs/cgroup${own%/}
echo "cgroup of this script: ${own:-?} (delegating below $base)"
own_base=$base
leaf=$base/cuzk-governance-shell
demo=$base/cuzk-governance
work=$(mktemp -d /tmp/cuzk-governance-XXXXXX)
cuzkd_pid=

cleanup() {
        [ -n "$cuzkd_pid" ] && kill -TERM "$cuzkd_pid" 2>/dev/null && wait "$cuzkd_pid" 2>/dev/null
        if [ -d "$demo" ]; then
                [ -f "$demo/cgroup.kill" ] && echo 1 >"$demo/cgroup.kill" 2>/dev/null
                sleep 0.5
                find "$demo" -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null
                rmdir "$demo" 2>/dev/null
        fi
        leave_leaf
        rm -rf "$work"
}

# Our processes go back from the leaf to the cgroup they came from (which
# must hold no controllers for its children again first), and the leaf goes.
leave_leaf() {
        [ -d "$leaf" ] || return 0
        if [ "$base" = "$own_base" ]; then
                echo -pids >"$own_base/cgroup.subtree_control" 2>/dev/null
                echo -memory >"$own_base/cgroup.subtree_control" 2>/dev/null
        fi
        while read -r pid; do echo "$pid" >"$own_base/cgroup.procs" 2>/dev/null; done <"$leaf/cgroup.procs"
        rmdir "$leaf" 2>/dev/null
}
trap cleanup EXIT

# Delegation: our own processes move to a leaf (no-internal-process rule),
# then memory and pids are enabled for our children.
# The root cgroup is exempt from that rule, and its processes stay put.
mkdir -p "$demo"
if [ "$base" != /sys/fs/cgroup ]; then
        mkdir -p "$leaf"
        while read -r pid; do echo "$pid" >"$leaf/cgroup.procs" 2>/dev/null; done <"$base/cgroup.procs"
fi
echo "controllers in $base: $(cat "$base/cgroup.controllers")"
if ! echo +memory >"$base/cgroup.subtree_control" && [ "$base" != /sys/fs/cgroup ]; then
        # ENOENT: the runner's cgroup has no memory controller to pass down;
        # EBUSY: a process there could not move to the leaf (the runner's own).
        # Then below the root, which has every controller, on a machine of our own.
        echo "note: memory cannot be enabled below $base; delegating below the root instead"
        rmdir "$demo" 2>/dev/null
        leave_leaf
        base=/sys/fs/cgroup demo=/sys/fs/cgroup/cuzk-governance
        mkdir -p "$demo"
        echo +memory >"$base/cgroup.subtree_control"
fi
grep -qw memory "$base/cgroup.subtree_control" ||
        { echo "FAIL: cannot enable memory in $base/cgroup.subtree_control"; exit 1; }
# pids is welcome (cuzkd sets pids.max where it exists), not required.
echo +pids >"$base/cgroup.subtree_control" 2>/dev/null || echo "note: no pids controller in $base"

# A key worth measuring: a synthetic PoRep-shaped 2^18 circuit with a real key.
rows=$(((1 << 18) - (1 << 11)))
if ! "$cuzk" pce synth --rows "$rows" --seed 7 "$work/c.pce" "$work/c.wtns" >/dev/null ||
        ! "$cuzk" setup --pce "$work/c.pce" --params "$work/c.params" --vk "$work/c.vk" >/dev/null; then
        echo "FAIL: cannot make the 2^18 circuit and key"
        exit 1
fi
srs_bytes=$(stat -c %s "$work/c.params")

cat >"$work/cuzkd.conf" <<CONF
[Daemon]
Socket=$work/sock
SpoolDirectory=$work/spool
LogTarget=stderr
[Scheduler]
MaxWorkers=4
MaxAttempts=3
CONF
# Exactly one worker (the one that removes the flag) allocates without bound, where
# cuzkd was built with the test hooks.
hooks=1
grep -qa CUZK_TEST_WORKER_FAULT "$cuzkd" || hooks=0
[ "$hooks" = 1 ] || echo "note: $cuzkd has no test hooks (-Dtest_hooks=false): no runaway worker"
[ "$hooks" = 0 ] || touch "$work/runaway"
(
        echo "$BASHPID" >"$demo/cgroup.procs"
        export CUZK_TEST_WORKER_FAULT=alloc-unbounded CUZK_TEST_WORKER_FAULT_ONCE=$work/runaway
        exec "$cuzkd" --config "$work/cuzkd.conf"
) >"$work/cuzkd.log" 2>&1 &
cuzkd_pid=$!
for _ in $(seq 100); do
        "$cuzkctl" -s "$work/sock" -t 1000 status >/dev/null 2>&1 && break
        sleep 0.1
done
check "cuzkd answers on its socket" "$cuzkctl" -s "$work/sock" -t 1000 status
check "cuzkd moved itself into supervisor/" grep -qx "$cuzkd_pid" "$demo/supervisor/cgroup.procs"

# The batch, while the cgroups are sampled.
"$bench" -s "$work/sock" batch --type synthetic --pce "$work/c.pce" --params "$work/c.params" \
        --witness "$work/c.wtns" --count "$count" --concurrency 4 --verify >"$work/bench.log" 2>&1 &
bench_pid=$!
prover_peak=0 prover_min=0
: >"$work/workers"
while kill -0 "$bench_pid" 2>/dev/null; do
        for w in "$demo"/synth/w*; do
                [ -d "$w" ] || continue
                echo "$(basename "$w") $(cat "$w/memory.max" "$w/memory.high" "$w/memory.oom.group" 2>/dev/null | tr '\n' ' ')" >>"$work/workers"
        done
        if [ -d "$demo/prover-0" ]; then
                cur=$(cat "$demo/prover-0/memory.current" 2>/dev/null || echo 0)
                [ "$cur" -gt "$prover_peak" ] && prover_peak=$cur
                prover_min=$(cat "$demo/prover-0/memory.min" 2>/dev/null || echo 0)
        fi
        sleep 0.2
done
wait "$bench_pid"
bench_status=$?
cat "$work/bench.log"
echo "worker limits seen (name memory.max memory.high memory.oom.group):"
sort -u "$work/workers" | sed 's/^/  /'
echo "prover-0: memory.min $prover_min, peak memory.current $prover_peak, SRS file $srs_bytes bytes"

check "the batch of $count completed and every proof verified" [ "$bench_status" = 0 ]
check "workers ran in their own cgroups (synth/wN)" [ -s "$work/workers" ]
# An idle worker's cgroup is reset to max between tasks: every worker seen must
# have had byte limits and oom.group=1 while it held one.
# shellcheck disable=SC2016 # awk's fields
check "every worker had a byte limit in memory.max and memory.high" \
        awk '{ seen[$1] = 1 } $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ { limited[$1] = 1 }
             END { for (w in seen) if (!(w in limited)) exit 1 }' "$work/workers"
# shellcheck disable=SC2016 # awk's fields
check "every worker had memory.oom.group=1 with its limits" \
        awk '$2 ~ /^[0-9]+$/ && $4 != 1 { exit 1 }' "$work/workers"
check "the prover's memory.min is set" [ "$prover_min" -gt 0 ]
check "the prover's memory.current covered the SRS ($srs_bytes bytes)" [ "$prover_peak" -ge "$srs_bytes" ]
kills=0 killed_in=
for w in "$demo"/synth/w*; do
        k=$(awk '$1 == "oom_kill" { print $2 }' "$w/memory.events" 2>/dev/null)
        [ "${k:-0}" -gt 0 ] && kills=$((kills + k)) && killed_in="$killed_in $(basename "$w")"
done
echo "OOM kills in worker cgroups:$killed_in ($kills)"
# oom.group=1 kills every process of the group, each counted in oom_kill.
if [ "$hooks" = 1 ]; then
        check "the runaway was OOM-killed in its own worker cgroup, alone" [ "$(echo "$killed_in" | wc -w)" = 1 ]
        check "the runaway flag was taken by exactly one worker" [ ! -e "$work/runaway" ]
fi
prover_kills=$(awk '$1 == "oom_kill" { print $2 }' "$demo/prover-0/memory.events" 2>/dev/null)
check "nothing OOM-killed in the prover" [ "${prover_kills:-0}" = 0 ]
check "cuzkd still serves" "$cuzkctl" -s "$work/sock" -t 1000 status
grep -i "oom\|killed" "$work/cuzkd.log" | head -5

echo "$([ $failures = 0 ] && echo PASS || echo FAIL): $failures check(s) failed"
[ $failures = 0 ]
