# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# The cuzkd scenario of issue 8 (sourced by guest-main.sh): the cuzk .deb
# installed in a Debian 12 VM with systemd and pure cgroup v2, each
# acceptance step asserted. Steps that cannot run because an earlier one
# failed are reported as SKIP with the reason.

# shellcheck source=tests/vm/package-lib.sh
. ./package-lib.sh
ROWS=${CUZK_VM_ROWS:-4096}
MID_STARTED=5c49f1908cec4906865c9b4467038aa9

batch() { # batch COUNT CONCURRENCY: a synthetic batch through the socket, verified
        as_member cuzk-bench --socket="$SOCK" batch --type synthetic --pce "$WORK/c.pce" \
                --params "$WORK/c.params" --witness "$WORK/c.wtns" --count "$1" \
                --concurrency "$2" --verify
}

check_catalog() {
        local missing
        need install-package || return 77
        missing=$(sed -n 's/^#define CUZK_MID_[A-Z_]* "\(.*\)"$/\1/p' /mnt/cuzk/message-ids.h |
                while read -r id; do journalctl --list-catalog "$id" | grep -q . || echo "$id"; done)
        [ -z "$missing" ] || { echo "not in journalctl --list-catalog: $missing"; return 1; }
}

units_verify() {
        local out
        need install-package || return 77
        out=$(systemd-analyze verify --man=no /lib/systemd/system/cuzkd.service \
                /lib/systemd/system/cuzkd.socket /lib/systemd/system/cuzk.slice 2>&1)
        [ -z "$out" ] || { echo "$out"; echo "systemd-analyze verify is not clean"; return 1; }
        systemd-analyze security --no-pager cuzkd.service > "$CUZK_VM_OUT/security.txt" 2>&1
        say "systemd-analyze security: $(tail -n 1 "$CUZK_VM_OUT/security.txt" | sed 's/^[^O]*//')"
}

# cuzkd.service's own sandbox (user, delegation, hardening, capabilities)
# with unit-probe.sh in place of cuzkd: what the daemon will need from it.
unit_sandbox() {
        local rc
        need install-package || return 77
        dropin probe "$(printf 'Type=oneshot\nExecStart=\nExecStart=/bin/bash /mnt/cuzk/unit-probe.sh\nWatchdogSec=0\nRestart=no')"
        systemctl start cuzkd.service
        rc=$?
        journalctl -u cuzkd.service --no-pager -o cat | grep '^unit-probe: '
        dropin probe ""
        systemctl reset-failed cuzkd.service 2>/dev/null
        [ $rc = 0 ] || { echo "the probe failed in cuzkd.service's sandbox"; return 1; }
}

start_daemon() {
        local pid
        need install-package || return 77
        timeout 180 systemctl start cuzkd.service ||
                { journalctl -u cuzkd --no-pager | tail -n 20; echo "systemctl start cuzkd failed"; return 1; }
        expect_eq "cuzkd.service" active "$(systemctl is-active cuzkd.service)" || return 1
        expect_eq "Type" notify "$(systemctl show -p Type --value cuzkd.service)" || return 1
        say "cuzkd status: $(systemctl show -p StatusText --value cuzkd.service)"
        pid=$(main_pid)
        [ -d "$UNIT_CG" ] || { echo "no cgroup $UNIT_CG"; return 1; }
        expect_eq "owner of the delegated $UNIT_CG" cuzk "$(stat -c %U "$UNIT_CG")" || return 1
        grep -qx "$pid" "$UNIT_CG/supervisor/cgroup.procs" ||
                { echo "MainPID $pid is not in $UNIT_CG/supervisor"; return 1; }
        [ -z "$(cat "$UNIT_CG/cgroup.procs")" ] ||
                { echo "processes in the inner node $UNIT_CG: $(cat "$UNIT_CG/cgroup.procs")"; return 1; }
        grep -qw memory "$UNIT_CG/cgroup.subtree_control" ||
                { echo "memory not enabled below $UNIT_CG"; return 1; }
        as_member cuzkctl --socket="$SOCK" status > "$CUZK_VM_OUT/status.txt" || return 1
        grep -q '^memory enforcement: cgroup v2' "$CUZK_VM_OUT/status.txt" ||
                { cat "$CUZK_VM_OUT/status.txt"; echo "enforcement is not cgroup2"; return 1; }
}

# First, so that the steps after it run whatever its outcome: a daemon that
# does not ping is left with WatchdogSec=0 (and this step fails).
check_watchdog() {
        local pid
        need install-package || return 77
        # (WatchdogUSec reads 0 until the first start: look at the file.)
        grep -q '^WatchdogSec=[1-9]' /lib/systemd/system/cuzkd.service ||
                { echo "cuzkd.service has no WatchdogSec="; return 1; }
        # A short watchdog, so that a daemon that never pings is caught quickly.
        dropin watchdog WatchdogSec=6s
        systemctl restart cuzkd.service || return 1
        pid=$(main_pid)
        sleep 20
        expect_eq "MainPID 20 s after a restart with WatchdogSec=6s" "$pid" "$(main_pid)" || {
                journalctl -u cuzkd --no-pager | grep -i watchdog | tail -n 3
                dropin watchdog WatchdogSec=0
                systemctl stop cuzkd.service
                echo "cuzkd does not ping the watchdog (the rest of the scenario runs with WatchdogSec=0)"
                return 1
        }
        dropin watchdog ""
        systemctl stop cuzkd.service
}

make_inputs() {
        need install-package || return 77
        mkdir -p "$WORK" && chmod 0755 "$WORK"
        cuzk pce synth --rows "$ROWS" --seed 1 "$WORK/c.pce" "$WORK/c.wtns" || return 1
        cuzk setup --pce "$WORK/c.pce" --params "$WORK/c.params" --vk "$WORK/c.vk" || return 1
        chmod a+r "$WORK"/*
}

check_batch() {
        local out
        need start-daemon || return 77
        need make-inputs || return 77
        out=$(batch 4 2) || { echo "$out"; echo "cuzk-bench batch failed"; return 1; }
        echo "$out"
        expect_eq "COMPLETED lines" 4 "$(echo "$out" | grep -c COMPLETED)" || return 1
}

check_cgroup_tree() {
        local w max
        need batch || return 77
        ls -d "$UNIT_CG"/synth/w* >/dev/null 2>&1 || { echo "no worker cgroups under $UNIT_CG/synth"; return 1; }
        for w in "$UNIT_CG"/synth/w*; do
                max=$(cat "$w/memory.max")
                echo "$w: memory.max $max memory.high $(cat "$w/memory.high") memory.oom.group $(cat "$w/memory.oom.group") peak $(cat "$w/memory.peak" 2>/dev/null)"
                [ "$max" != max ] || { echo "$w has no memory.max"; return 1; }
                expect_eq "$w/memory.oom.group" 1 "$(cat "$w/memory.oom.group")" || return 1
        done
        [ -d "$UNIT_CG/prover-0" ] || { echo "no $UNIT_CG/prover-0"; return 1; }
        [ -n "$(cat "$UNIT_CG/prover-0/cgroup.procs")" ] || { echo "no prover process in prover-0"; return 1; }
        echo "prover-0: memory.min $(cat "$UNIT_CG/prover-0/memory.min") memory.current $(cat "$UNIT_CG/prover-0/memory.current")"
        [ "$(cat "$UNIT_CG/prover-0/memory.min")" != 0 ] || { echo "prover-0 has no memory.min"; return 1; }
}

check_journal_json() {
        need batch || return 77
        journalctl -u cuzkd -o json --no-pager > "$CUZK_VM_OUT/cuzkd-journal.json"
        grep -q '"SYSLOG_IDENTIFIER":"cuzkd"' "$CUZK_VM_OUT/cuzkd-journal.json" ||
                { echo "no SYSLOG_IDENTIFIER=cuzkd entries"; return 1; }
        grep -q '"CODE_FILE":' "$CUZK_VM_OUT/cuzkd-journal.json" || { echo "no CODE_FILE fields"; return 1; }
        grep -o '"CUZK_[A-Z_]*"' "$CUZK_VM_OUT/cuzkd-journal.json" | sort -u | tr '\n' ' '
        grep -q '"CUZK_JOB_ID":' "$CUZK_VM_OUT/cuzkd-journal.json" || { echo "no CUZK_JOB_ID fields"; return 1; }
}

check_journal_catalog() {
        need start-daemon || return 77
        journalctl -u cuzkd -o json --no-pager | grep -q "\"MESSAGE_ID\":\"$MID_STARTED\"" ||
                { echo "no MESSAGE_ID=$MID_STARTED (daemon started) in the journal"; return 1; }
        journalctl -x -u cuzkd --no-pager | grep -q 'Subject: cuzkd is ready' ||
                { echo "journalctl -x shows no catalog text"; return 1; }
}

check_kill_worker() {
        local pid main out victim=""
        need batch || return 77
        main=$(main_pid)
        batch 3 1 > "$WORK/kill-batch.log" 2>&1 &
        pid=$!
        for _ in $(seq 1 1500); do
                victim=$(worker_pids | head -n 1)
                [ -n "$victim" ] && break
                kill -0 $pid 2>/dev/null || break
                sleep 0.05
        done
        [ -n "$victim" ] && kill -KILL "$victim" && echo "killed worker $victim"
        wait $pid
        out=$?
        cat "$WORK/kill-batch.log"
        [ -n "$victim" ] || { echo "no worker process was seen to kill"; return 77; }
        expect_eq "cuzk-bench exit status after a worker was killed" 0 "$out" || return 1
        expect_eq "cuzkd MainPID" "$main" "$(main_pid)" || return 1
}

# The package is built without the test suite's fault hooks (-Dtest_hooks=false): none
# of its binaries knows a CUZK_TEST_ variable. (A worker's OOM kill in cuzkd's own tree
# is the build tree's test-cuzkd-faults; unit-sandbox kills an allocator in synth/w0.)
check_no_test_hooks() {
        local bin found=0
        need install-package || return 77
        for bin in /usr/sbin/cuzkd /usr/bin/cuzk /usr/bin/cuzkctl /usr/bin/cuzk-bench; do
                [ -f "$bin" ] || continue
                if grep -qa CUZK_TEST_ "$bin"; then
                        echo "$bin holds a test hook (CUZK_TEST_)"
                        found=1
                fi
        done
        [ "$found" = 0 ]
}

check_reload() {
        local main
        need start-daemon || return 77
        main=$(main_pid)
        mkdir -p /etc/cuzk/cuzkd.conf.d
        printf '[Memory]\nTotalBudget=512M\n' > /etc/cuzk/cuzkd.conf.d/50-vm-test.conf
        systemctl reload cuzkd.service || { echo "systemctl reload failed"; return 1; }
        sleep 2
        expect_eq "MainPID after reload" "$main" "$(main_pid)" || return 1
        as_member cuzkctl --socket="$SOCK" status > "$CUZK_VM_OUT/status-reload.txt"
        rm -f /etc/cuzk/cuzkd.conf.d/50-vm-test.conf
        grep '^memory budget' "$CUZK_VM_OUT/status-reload.txt"
        grep -q '^memory budget: .* of 512.0 MiB' "$CUZK_VM_OUT/status-reload.txt" || {
                journalctl -u cuzkd --no-pager | grep -i -e sighup -e reload | tail -n 2
                echo "TotalBudget=512M of a drop-in was not applied by systemctl reload"
                return 1
        }
        systemctl reload cuzkd.service
}

# TotalBudget=auto under MemoryMax= on cuzkd.service: the limit sits on the unit's cgroup,
# above supervisor/ where cuzkd lives (memory.max "max"), and still bounds the budget;
# without it the budget is MemTotal less SafetyMargin (about 0.9 GiB in a 2 GiB VM).
check_budget_memory_max() {
        local status since
        need start-daemon || return 77
        since=$(date '+%Y-%m-%d %H:%M:%S')
        dropin memory-max MemoryMax=640M
        timeout 120 systemctl restart cuzkd.service || {
                dropin memory-max ""
                echo "systemctl restart with MemoryMax=640M failed"
                return 1
        }
        status=$(as_member cuzkctl --socket="$SOCK" status)
        journalctl -u cuzkd --no-pager --since "$since" | grep -m1 'memory budget:'
        dropin memory-max ""
        timeout 120 systemctl restart cuzkd.service || { echo "systemctl restart failed"; return 1; }
        echo "$status" | grep '^memory budget'
        echo "$status" | grep -q '^memory budget: .* of 640.0 MiB' ||
                { echo "TotalBudget=auto did not follow MemoryMax=640M of cuzkd.service"; return 1; }
        journalctl -u cuzkd --no-pager --since "$since" | grep -q "from $UNIT_CG/memory.max)" ||
                { echo "the budget's log line does not name $UNIT_CG/memory.max"; return 1; }
}

check_spool_restart() {
        local ids="" id unfinished state
        need batch || return 77
        for _ in 1 2 3; do
                id=$(as_member cuzkctl --socket="$SOCK" submit --kind synthetic-pce \
                        --pce "$WORK/c.pce" --params "$WORK/c.params" --witness "$WORK/c.wtns" \
                        --partitions 1 | sed -n 's/^job: //p')
                [ -n "$id" ] || { echo "cuzkctl submit gave no job id"; return 1; }
                ids="$ids $id"
        done
        timeout 120 systemctl stop cuzkd.service || { echo "systemctl stop timed out"; return 1; }
        state=$(systemctl is-active cuzkd.service)
        expect_eq "cuzkd.service after stop" inactive "$state" || return 1
        unfinished=0
        for id in $ids; do
                [ -d "/var/lib/cuzk/spool/$id" ] || { echo "job $id is not in the spool"; return 1; }
                [ -f "/var/lib/cuzk/spool/$id/result.pb" ] || unfinished=$((unfinished + 1))
        done
        say "spool at stop: $unfinished of 3 jobs unfinished"
        # The next client starts cuzkd through its socket.
        for id in $ids; do
                as_member cuzkctl --socket="$SOCK" await "$id" | grep -q '^status: COMPLETED' ||
                        { echo "job $id did not complete after the restart"; return 1; }
        done
        expect_eq "cuzkd.service (started by its socket)" active "$(systemctl is-active cuzkd.service)"
}

# Preload=: systemctl restart returns once cuzkd said READY=1, which waits until the prover
# holds the circuit: right after it, the status shows the key and the journal the load.
check_preload_ready() {
        local status
        need batch || return 77
        mkdir -p /etc/cuzk/cuzkd.conf.d
        printf '[Prover]\nPreload=%s+%s\n' "$WORK/c.pce" "$WORK/c.params" \
                > /etc/cuzk/cuzkd.conf.d/60-vm-preload.conf
        timeout 120 systemctl restart cuzkd.service || { echo "systemctl restart failed"; return 1; }
        status=$(as_member cuzkctl --socket="$SOCK" status)
        rm -f /etc/cuzk/cuzkd.conf.d/60-vm-preload.conf
        echo "$status" | grep '^prover'
        echo "$status" | grep -q '^prover 0: .*, keys [1-9]' ||
                { echo "the prover held no key when systemctl restart returned"; return 1; }
        journalctl -u cuzkd --no-pager -n 50 | grep -e 'preloaded' -e 'every prover holds'
        journalctl -u cuzkd --no-pager -n 50 | grep -q "preloaded $WORK/c.params in" ||
                { echo "no preload in the journal"; return 1; }
        journalctl -u cuzkd --no-pager -n 50 | grep -q "Preload=: every prover holds its circuits" ||
                { echo "no 'every prover holds its circuits' in the journal"; return 1; }
}

# PSI: a hog in a transient unit of its own (16 MiB MemoryMax=, re-reading a 64 MiB file:
# constant reclaim and refaults) raises /proc/pressure/memory; cuzkd's trigger pauses
# admission (journal and status), and after the hog stops admission resumes.
check_psi_pause() {
        local since
        need start-daemon || return 77
        mkdir -p /etc/cuzk/cuzkd.conf.d
        printf '[Memory]\nPressureStall=50\nPressureWindow=2000\nPressureResume=3000\n' \
                > /etc/cuzk/cuzkd.conf.d/70-vm-psi.conf
        timeout 120 systemctl restart cuzkd.service || { echo "systemctl restart failed"; return 1; }
        rm -f /etc/cuzk/cuzkd.conf.d/70-vm-psi.conf
        since=$(date '+%Y-%m-%d %H:%M:%S')
        systemd-run --quiet --unit=cuzk-vm-hog -p MemoryMax=16M /bin/bash -c \
                'head -c 64M /dev/zero > /var/tmp/hog.data; while :; do cat /var/tmp/hog.data > /dev/null; done'
        for _ in $(seq 90); do
                journalctl -u cuzkd --no-pager --since "$since" | grep -q 'admission paused: memory pressure' && break
                sleep 1
        done
        as_member cuzkctl --socket="$SOCK" status | grep '^memory budget'
        journalctl -u cuzkd --no-pager --since "$since" | grep -m1 'admission paused'
        if ! journalctl -u cuzkd --no-pager --since "$since" | grep -q 'admission paused: memory pressure'; then
                systemctl stop cuzk-vm-hog.service
                echo "no 'admission paused: memory pressure' in 90 s of the hog"
                return 1
        fi
        systemctl stop cuzk-vm-hog.service
        rm -f /var/tmp/hog.data
        for _ in $(seq 90); do
                journalctl -u cuzkd --no-pager --since "$since" | grep -q 'admission resumed' && break
                sleep 1
        done
        journalctl -u cuzkd --no-pager --since "$since" | grep -m1 'admission resumed' ||
                { echo "admission did not resume within 90 s of the hog's stop"; return 1; }
        as_member cuzkctl --socket="$SOCK" status | grep -q 'admission paused' &&
                { echo "status still says admission paused"; return 1; }
        return 0
}

check_outsider() {
        local out
        need install-package || return 77
        systemctl is-active -q cuzkd.service || systemctl start cuzkd.service
        if out=$(runuser -u "$OUTSIDER" -- cuzkctl --socket="$SOCK" status 2>&1); then
                echo "$out"
                echo "$OUTSIDER (not in group cuzk) could use $SOCK"
                return 1
        fi
        echo "$out"
        echo "$out" | grep -qi 'permission denied' || { echo "refused, but not by permission"; return 1; }
}

# Issue 24: a member of group cuzk gets no more through the socket than it could read
# itself, and root's jobs are root's. The daemon runs as cuzk without CAP_SETUID: it
# judges the member's permission from mode bits (peer-access.h).
check_member_limits() {
        local out id
        need batch || return 77
        install -m 0600 "$WORK/c.pce" /root/secret.pce && install -m 0600 "$WORK/c.params" \
                /root/secret.params || return 1
        # cuzk (the daemon) may read it, the member may not.
        install -m 0600 -o cuzk -g root "$WORK/c.pce" /var/tmp/cuzk-only.pce || return 1
        out=$(as_member cuzkctl --socket="$SOCK" submit --kind synthetic-pce --pce /root/secret.pce \
                --params /root/secret.params --witness "$WORK/c.wtns" 2>&1) &&
                { echo "$out"; echo "the member submitted with root-only files"; return 1; }
        echo "$out" | grep -qi 'permission denied' || { echo "$out"; echo "not refused by permission"; return 1; }
        out=$(as_member cuzkctl --socket="$SOCK" submit --kind synthetic-pce --pce /var/tmp/cuzk-only.pce \
                --params "$WORK/c.params" --witness "$WORK/c.wtns" 2>&1) &&
                { echo "$out"; echo "the member proved with a file only cuzk may read"; return 1; }
        echo "$out" | grep -qi 'permission denied' || { echo "$out"; echo "not refused by permission"; return 1; }
        out=$(as_member cuzkctl --socket="$SOCK" preload /root/secret.pce+/root/secret.params 2>&1) &&
                { echo "$out"; echo "the member preloaded root-only files"; return 1; }
        # root's job, with the file only cuzk (so the daemon) may read.
        id=$(cuzkctl --socket="$SOCK" submit --kind synthetic-pce --pce /var/tmp/cuzk-only.pce \
                --params "$WORK/c.params" --witness "$WORK/c.wtns" | sed -n 's/^job: //p')
        [ -n "$id" ] || { echo "root could not submit"; return 1; }
        out=$(as_member cuzkctl --socket="$SOCK" cancel "$id" 2>&1) &&
                { echo "$out"; echo "the member cancelled root's job"; return 1; }
        out=$(as_member cuzkctl --socket="$SOCK" await "$id" 2>&1) &&
                { echo "$out"; echo "the member read root's job"; return 1; }
        echo "$out" | grep -qi 'another user' || { echo "$out"; echo "not refused as another user's"; return 1; }
        cuzkctl --socket="$SOCK" await "$id" | grep -q '^status: COMPLETED' ||
                { echo "root's job did not complete"; return 1; }
        rm -f /root/secret.pce /root/secret.params /var/tmp/cuzk-only.pce
}

check_slice() {
        need install-package || return 77
        systemctl set-property --runtime cuzk.slice MemoryMin=64M || return 1
        expect_eq "cuzk.slice memory.min" 67108864 "$(cat /sys/fs/cgroup/cuzk.slice/memory.min)"
}

check_stop() {
        local t0
        need start-daemon || return 77
        systemctl is-active -q cuzkd.service || systemctl start cuzkd.service
        t0=$(now)
        timeout 120 systemctl stop cuzkd.service || return 1
        say "systemctl stop took $(elapsed "$t0") s"
        expect_eq "cuzkd.service Result" success "$(systemctl show -p Result --value cuzkd.service)"
}

step install-package install_package
step catalog check_catalog
step units-verify units_verify
step unit-sandbox unit_sandbox
step watchdog check_watchdog
step start-daemon start_daemon
step make-inputs make_inputs
step batch check_batch
step cgroup-tree check_cgroup_tree
step journal-json check_journal_json
step journal-catalog check_journal_catalog
step kill-worker check_kill_worker
step no-test-hooks check_no_test_hooks
step reload check_reload
step budget-memory-max check_budget_memory_max
step spool-restart check_spool_restart
step preload-ready check_preload_ready
step psi-pause check_psi_pause
step outsider-refused check_outsider
step member-limits check_member_limits
step slice-memory-min check_slice
step stop check_stop
