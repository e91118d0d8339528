#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# PSI admission gating: a hog outside cuzkd (a process in a memory cgroup of its own
# with a tight limit, re-reading a file four times larger than that limit: constant
# reclaim and refaults) raises /proc/pressure/memory; cuzkd's trigger fires, admission
# pauses (log and GetStatus), a job submitted meanwhile waits, and after the hog stops
# admission resumes and the job completes.
# Usage: test-cuzkd-psi.sh CUZKD CUZKCTL CUZK_BENCH CUZK FIXTURES_DIR
source "$(dirname "$0")/../lib/cuzkd-lib.sh"

if [ ! -r /proc/pressure/memory ]; then
        echo "SKIP: no /proc/pressure/memory (kernel without PSI)"
        exit 77
fi
own=$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)
if [ -n "$own" ] && [ -w "/sys/fs/cgroup/memory$own" ]; then
        HOG_CG=/sys/fs/cgroup/memory$own/test-cuzkd-psi-hog-$$
        HOG_LIMIT_FILE=memory.limit_in_bytes
else
        own=$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
        HOG_CG=/sys/fs/cgroup$own/test-cuzkd-psi-hog-$$
        HOG_LIMIT_FILE=memory.max
fi
if ! mkdir "$HOG_CG" 2>/dev/null || ! echo 16M >"$HOG_CG/$HOG_LIMIT_FILE"; then
        echo "SKIP: cannot make a memory cgroup for the hog below ours ($HOG_CG)"
        rmdir "$HOG_CG" 2>/dev/null
        exit 77
fi
HOG_PID=
stop_hog() {
        [ -n "$HOG_PID" ] && kill "$HOG_PID" 2>/dev/null && wait "$HOG_PID" 2>/dev/null
        HOG_PID=
        rmdir "$HOG_CG" 2>/dev/null
        rm -f "$DIR/hog.data"
}
trap 'stop_hog; cleanup' EXIT

cat >"$DIR/cuzkd.conf" <<CONF
[Memory]
PressureStall=50
PressureWindow=2000
PressureResume=3000
CONF
# --config is the test's file (the lib's /dev/null comes first; the last one wins).
start_cuzkd --config "$DIR/cuzkd.conf" --max-workers 1 --budget 1G
check "PSI trigger armed on /proc/pressure/memory" grep -q "/proc/pressure/memory: PSI trigger armed" "$LOG"
# Pressure left over from whatever ran before (an earlier test) must have passed first.
admission_paused_is() { [ "$(metric cuzk_admission_paused)" = "$1" ]; }
status_not_paused() { [ "$(ctl status | grep -c 'admission paused')" = 0 ]; }
check "admission not paused before the hog starts" wait_until 200 admission_paused_is 0

# The hog: its page cache is charged to its own cgroup (it writes the file itself), and
# 64 MB re-read through 16 MB keeps it in reclaim.
(
        echo "$BASHPID" >"$HOG_CG/cgroup.procs"
        head -c 64M /dev/zero >"$DIR/hog.data"
        exec bash -c 'while :; do cat "$0" >/dev/null; done' "$DIR/hog.data"
) &
HOG_PID=$!
check "admission paused by memory pressure (logged)" wait_log "admission paused: memory pressure" 30
# Pressure from elsewhere on the host may have paused and resumed admission before the
# hog's own stalls: wait until it is paused now (the hog keeps it so), then look.
check "admission is paused while the hog runs" wait_until 300 admission_paused_is 1
paused=$(status_field "memory budget")
echo "status while paused: memory budget: $paused"
check "GetStatus shows admission paused" grep -q "admission paused by memory pressure" <<<"$paused"
check "the metric shows admission paused" test "$(metric cuzk_admission_paused)" = 1
job=$(submit_job)
sleep 0.5
queue=$(status_field "queue GROTH16_SNARKJS")
echo "queue while paused: $queue"
check "a job submitted while paused waits" test "$queue" = "1 pending, 0 in progress"

stop_hog
check "admission resumed once the pressure ended (logged)" wait_log "admission resumed" 30
# (polled: pressure from elsewhere on the host may pause it again for a moment)
check "GetStatus shows admission no longer paused" wait_until 100 status_not_paused
check "the job admitted after the pause completes" await_verified "$job"
check "pause counted" test "$(metric cuzk_admission_pauses_total)" -ge 1
finish
