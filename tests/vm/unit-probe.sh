#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Run as cuzkd.service's ExecStart (scenario-cuzkd.sh, step unit-sandbox):
# checks, inside the unit's real sandbox and as its user, what cuzkd needs
# from it: a writable delegated cgroup (supervisor/ and synth/w0 with
# memory limits, an OOM kill confined to w0), PSI triggers with a 500 ms
# window (CAP_SYS_RESOURCE), the capabilities, the memlock limit, the
# OOM score, the spool. One line per check; exit 1 on the first failure.
set -u

fail() { echo "unit-probe: FAIL: $*"; exit 1; }
ok() { echo "unit-probe: ok: $*"; }

[ "$(id -un)" = cuzk ] || fail "running as $(id -un), expected cuzk"
ok "user $(id -un), groups $(id -Gn)"

cg=/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)
[ "$cg" = /sys/fs/cgroup/cuzk.slice/cuzkd.service ] || fail "cgroup $cg, expected cuzk.slice/cuzkd.service"
mkdir "$cg/supervisor" || fail "mkdir $cg/supervisor"
echo $$ > "$cg/supervisor/cgroup.procs" || fail "moving myself into supervisor/"
echo "+memory +pids" > "$cg/cgroup.subtree_control" || fail "enabling memory and pids below $cg"
mkdir -p "$cg/synth/w0" || fail "mkdir synth/w0"
echo "+memory" > "$cg/synth/cgroup.subtree_control" || fail "enabling memory below synth/"
echo 64M > "$cg/synth/w0/memory.max" || fail "writing synth/w0/memory.max"
echo 1 > "$cg/synth/w0/memory.oom.group" || fail "writing synth/w0/memory.oom.group"
ok "delegated cgroup $cg writable: supervisor/, synth/w0 with memory.max $(cat "$cg/synth/w0/memory.max")"

# A worker that allocates without bound, in w0: killed there, we live on.
bash -c "echo 500 > /proc/self/oom_score_adj && echo \$\$ > $cg/synth/w0/cgroup.procs && exec tail /dev/zero"
status=$?
kills=$(awk '$1 == "oom_kill" { print $2 }' "$cg/synth/w0/memory.events")
if [ "$status" != 137 ] || [ "${kills:-0}" -lt 1 ]; then
        fail "the allocator in synth/w0 ended with status $status, oom_kill ${kills:-none}"
fi
ok "allocator OOM-killed in synth/w0 (status $status, oom_kill $kills), the probe lives"

for file in /proc/pressure/memory "$cg/memory.pressure"; do
        exec 3<> "$file" || fail "open $file read-write"
        printf 'some 150000 500000\0' >&3 || fail "a 500 ms PSI trigger on $file"
        exec 3>&-
done
ok "500 ms PSI triggers on /proc/pressure/memory and $cg/memory.pressure"

caps=$(sed -n 's/^CapEff:\t//p' /proc/self/status)
# CAP_SYS_RESOURCE 24, CAP_PERFMON 38, CAP_BPF 39
for bit in 24 38 39; do
        (( (0x$caps >> bit) & 1 )) || fail "capability bit $bit missing from CapEff $caps"
done
ok "CapEff $caps (CAP_SYS_RESOURCE, CAP_PERFMON, CAP_BPF)"

[ "$(ulimit -l)" = unlimited ] || fail "memlock limit $(ulimit -l), expected unlimited"
adj=$(cat /proc/self/oom_score_adj)
[ "$adj" = -900 ] || fail "oom_score_adj $adj, expected -900"
ok "memlock unlimited, oom_score_adj $adj"

for dir in /var/lib/cuzk/spool /var/cache/cuzk/params; do
        touch "$dir/.probe" || fail "writing $dir"
        rm "$dir/.probe"
done
if touch /etc/cuzk-probe 2>/dev/null; then fail "/etc is writable (ProtectSystem=strict)"; fi
ok "spool and params cache writable, /etc read-only"
echo "unit-probe: PASS"
