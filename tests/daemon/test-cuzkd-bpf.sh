#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# cuzkd's eBPF probes (issue 7), as root in a memory cgroup of its own:
#  - the degraded path: cuzkd without CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN says once
#    that it runs on PSI alone and proves a batch; with BPF=yes it refuses to start;
#  - a batch where one worker runs away (CUZK_TEST_WORKER_FAULT=alloc-unbounded, once):
#    the batch completes, the log names the OOM-killed worker's job and partition, and
#    GetMetrics counts the OOM kill;
#  - that runaway worker reclaims in its cgroup first: admission pauses with the BPF
#    source named, before any PSI window, and resumes after PressureResume.
# Skips (77) without root, without a memory cgroup of its own, or where the probes cannot
# load (a build without eBPF, no BTF: cuzkd's "BPF unavailable" line says why).
# Usage: test-cuzkd-bpf.sh CUZKD CUZKCTL CUZK_BENCH CUZK FIXTURES_DIR
source "$(dirname "$0")/../lib/cuzkd-lib.sh"

if [ "$(id -u)" != 0 ]; then
        echo "SKIP: not root (the probes and the cgroups need it)"
        exit 77
fi
if ! make_cgroup; then
        echo "SKIP: cannot make a memory cgroup for cuzkd below ours"
        exit 77
fi
if ! command -v setpriv >/dev/null; then
        echo "SKIP: no setpriv (util-linux) to drop capabilities"
        exit 77
fi
REAL_CUZKD=$CUZKD

# Submits n fixture jobs; prints their ids.
submit_jobs() {
        # shellcheck disable=SC2119 # submit_job's arguments are extra cuzkctl options: none
        for _ in $(seq "$1"); do submit_job; done
}
# Awaits every job given and checks each proof.
# shellcheck disable=SC2317 # called through check
all_verified() {
        local j
        for j in "$@"; do await_verified "$j" || { echo "job $j did not verify"; return 1; }; done
}

# --- the degraded path: no privileges for BPF ---
cat >"$DIR/nocaps" <<EOF
#!/bin/sh
exec setpriv --bounding-set=-bpf,-perfmon,-sys_admin --inh-caps=-bpf,-perfmon,-sys_admin "$REAL_CUZKD" "\$@"
EOF
chmod +x "$DIR/nocaps"
printf '[Memory]\nBPF=yes\n' >"$DIR/bpf-yes.conf"
printf '[Memory]\nBPF=auto\n' >"$DIR/bpf-auto.conf"

out=$(
        [ -n "$CG" ] && echo "$BASHPID" >"$CG/cgroup.procs"
        timeout 20 "$DIR/nocaps" --config "$DIR/bpf-yes.conf" --socket "$DIR/refused.sock" \
                --spool-dir "$SPOOL" --budget 1G --max-workers 1 2>&1
)
status=$?
while IFS= read -r line; do echo "  cuzkd (BPF=yes, no capabilities): $line"; done <<<"$out"
check "BPF=yes without the capabilities: cuzkd refuses to start (status $status)" \
        test "$status" -ne 0 -a "$status" -ne 124
check "... saying why" grep -q "BPF=yes, but the eBPF probes cannot be used" <<<"$out"

CUZKD=$DIR/nocaps
start_cuzkd --config "$DIR/bpf-auto.conf" --budget 1G --max-workers 2
CUZKD=$REAL_CUZKD
mapfile -t jobs < <(submit_jobs 4)
check "without BPF privileges a batch of ${#jobs[@]} jobs is proved" all_verified "${jobs[@]}"
check "'running on PSI alone' said once ($(grep -c 'running on PSI alone' "$LOG"))" \
        test "$(grep -c 'running on PSI alone' "$LOG")" = 1
check "the start-up summary says the probes are off" grep -q "eBPF probes off (" "$LOG"
check "GetMetrics: cuzk_bpf_available 0" test "$(metric cuzk_bpf_available)" = 0
check "GetStatus: PSI alone" grep -q "pressure: PSI alone" <<<"$(status_field "memory enforcement")"
stop_cuzkd

# --- with the probes: can they load here? ---
cat >"$DIR/bpf.conf" <<CONF
[Memory]
BPF=yes
PressureResume=2000
CONF
out=$(
        [ -n "$CG" ] && echo "$BASHPID" >"$CG/cgroup.procs"
        timeout 3 "$CUZKD" --config "$DIR/bpf.conf" --socket "$DIR/probe.sock" \
                --spool-dir "$DIR/probe-spool" --budget 1G --max-workers 1 2>&1
)
if grep -q "BPF unavailable" <<<"$out"; then
        echo "$out" | grep "BPF unavailable"
        if [ "$FAILURES" -ne 0 ]; then finish; fi
        echo "SKIP: the eBPF probes cannot load here (the degraded path passed)"
        exit 77
fi

# --- a runaway worker in a batch: reclaim pauses admission, the OOM kill is named ---
need_test_hooks "the runaway worker"
touch "$DIR/runaway"
export CUZK_TEST_WORKER_FAULT=alloc-unbounded CUZK_TEST_WORKER_FAULT_ONCE=$DIR/runaway
start_cuzkd --config "$DIR/bpf.conf" --budget 1G --max-workers 2
unset CUZK_TEST_WORKER_FAULT CUZK_TEST_WORKER_FAULT_ONCE
check "the probes are attached" grep -q "eBPF probes watch .*/synth" "$LOG"
check "GetStatus: PSI and eBPF probes" \
        grep -q "pressure: PSI and eBPF probes" <<<"$(status_field "memory enforcement")"
mapfile -t jobs < <(submit_jobs 8)
check "the batch of ${#jobs[@]} jobs completes despite the runaway worker" all_verified "${jobs[@]}"
check "exactly one worker took the fault" test ! -e "$DIR/runaway"

oom=$(grep -E "worker w[0-9]+ OOM-killed \(BPF\): job [^ ]+ partition [0-9]+, pid [0-9]+" "$LOG" | head -n1)
echo "OOM line: $oom"
check "the log names the OOM-killed worker's job, partition and pid" test -n "$oom"
oom_job=$(sed -E 's/.*OOM-killed \(BPF\): job ([^ ]+) partition.*/\1/' <<<"$oom")
found=0
for j in "${jobs[@]}"; do [ "$j" = "$oom_job" ] && found=1; done
check "the job named ($oom_job) is one of the batch" test "$found" = 1
check "the OOM-killed partition was retried (the kill cost an attempt)" \
        test "$(metric cuzk_partition_retries_total)" -ge 1
oom_count=$(metric 'cuzk_bpf_events_total{cgroup="synth",kind="oom_kill"}')
check "GetMetrics: cuzk_bpf_events_total for oom_kill in synth is $oom_count (>= 1)" \
        test "${oom_count:-0}" -ge 1
worker_ooms=$(ctl metrics | awk '$1 ~ /^cuzk_bpf_worker_oom_kills_total/ { n += $2 } END { print n + 0 }')
check "GetMetrics: the OOM kill counted for its worker cgroup ($worker_ooms)" \
        test "$worker_ooms" -ge 1

pause=$(grep -E "admission paused: reclaim in synth/w[0-9]+ \(BPF\)" "$LOG" | head -n1)
echo "pause line: $pause"
check "reclaim in a worker cgroup paused admission, the BPF source named" test -n "$pause"
check "the pause is counted as BPF's" \
        test "$(metric 'cuzk_admission_pauses_by_source_total{source="bpf"}')" -ge 1
check "reclaim events counted for synth" \
        test "$(metric 'cuzk_bpf_events_total{cgroup="synth",kind="memcg_reclaim"}')" -ge 1
check "admission resumed after PressureResume" wait_log "admission resumed" 20
check "GetStatus: admission no longer paused" \
        test "$(ctl status | grep -c 'admission paused')" = 0
stop_cuzkd
finish
