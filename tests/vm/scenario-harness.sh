# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# The harness's own scenario (sourced by guest-main.sh): what the cuzkd
# scenario relies on, checked under the VM's real systemd: systemd as PID 1,
# a pure cgroup v2 hierarchy with the memory controller, PSI, and a
# transient unit with MemoryMax= OOM-killed alone while its neighbour lives.

check_systemd() {
        expect_eq "PID 1" systemd "$(cat /proc/1/comm)" || return 1
        [ -d /run/systemd/system ] || { echo "/run/systemd/system is missing"; return 1; }
        expect_eq "multi-user.target" active "$(systemctl is-active multi-user.target)" || return 1
        local failed
        failed=$(systemctl list-units --state=failed --no-legend --plain | awk '{print $1}')
        [ -z "$failed" ] || { echo "failed units: $failed"; return 1; }
}

check_cgroup2_memory() {
        expect_eq "/sys/fs/cgroup type" cgroup2fs "$(stat -fc %T /sys/fs/cgroup)" || return 1
        grep -qw memory /sys/fs/cgroup/cgroup.controllers ||
                { echo "no memory in cgroup.controllers: $(cat /sys/fs/cgroup/cgroup.controllers)"; return 1; }
        grep -qw memory /sys/fs/cgroup/cgroup.subtree_control ||
                { echo "memory not enabled below the root: $(cat /sys/fs/cgroup/cgroup.subtree_control)"; return 1; }
        # No v1 hierarchy beside it (a hybrid host would have /sys/fs/cgroup/unified).
        if grep -q ' cgroup ' /proc/mounts; then
                echo "a cgroup v1 hierarchy is mounted: $(grep ' cgroup ' /proc/mounts)"
                return 1
        fi
        echo "controllers: $(cat /sys/fs/cgroup/cgroup.controllers)"
}

check_psi() {
        local line
        line=$(head -n 1 /proc/pressure/memory) || { echo "/proc/pressure/memory is missing"; return 1; }
        case $line in some\ avg10=*) ;; *) echo "/proc/pressure/memory: $line"; return 1 ;; esac
        [ -r /sys/fs/cgroup/system.slice/memory.pressure ] ||
                { echo "no memory.pressure in system.slice"; return 1; }
        # A trigger with a 500 ms window (privileged: root has CAP_SYS_RESOURCE).
        exec 3<>/proc/pressure/memory || return 1
        printf 'some 150000 500000\0' >&3 || { echo "arming a 500 ms PSI trigger failed"; return 1; }
        exec 3>&-
        echo "/proc/pressure/memory mode $(stat -c %a /proc/pressure/memory)"
}

check_oom_kill() {
        local result events
        systemd-run --quiet --unit=cuzk-vm-chill sleep 600 || return 1
        # tail buffers /dev/zero's endless line: it grows until memory.max.
        systemd-run --quiet --wait --unit=cuzk-vm-oom -p MemoryMax=64M -p MemorySwapMax=0 \
                tail /dev/zero
        result=$(systemctl show -p Result --value cuzk-vm-oom.service)
        expect_eq "cuzk-vm-oom.service Result" oom-kill "$result" || return 1
        journalctl -k --no-pager | grep -q 'Memory cgroup out of memory' ||
                { echo "no memcg OOM in the kernel log"; return 1; }
        expect_eq "cuzk-vm-chill.service (its neighbour)" active \
                "$(systemctl is-active cuzk-vm-chill.service)" || return 1
        events=$(cat /sys/fs/cgroup/system.slice/memory.events)
        echo "system.slice memory.events: $(echo "$events" | tr '\n' ' ')"
        systemctl stop cuzk-vm-chill.service
        systemctl reset-failed cuzk-vm-oom.service
}

step systemd check_systemd
step cgroup2-memory check_cgroup2_memory
step psi check_psi
step transient-unit-oom-kill check_oom_kill
