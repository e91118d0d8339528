# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# Shared by the package scenarios (scenario-cuzkd.sh, scenario-porep.sh; sourced in the
# VM after lib.sh): the installed package's paths, the test users, and the steps and
# helpers every package scenario starts with.

DEB_DIR=/mnt/cuzk/debs
UNIT_CG=/sys/fs/cgroup/cuzk.slice/cuzkd.service
# shellcheck disable=SC2034 # WORK: for the scenarios that source this
WORK=/var/tmp/cuzk-vm
MEMBER=prover   # in group cuzk: may use the socket
OUTSIDER=outsider
SOCK=/run/cuzk/cuzk.sock

as_member() { runuser -u "$MEMBER" -- "$@"; }
main_pid() { systemctl show -p MainPID --value cuzkd.service; }
dropin() { # dropin NAME CONTENT: a runtime drop-in of cuzkd.service ("" removes it)
        mkdir -p /run/systemd/system/cuzkd.service.d
        if [ -n "$2" ]; then
                printf '[Service]\n%s\n' "$2" > "/run/systemd/system/cuzkd.service.d/$1.conf"
        else
                rm -f "/run/systemd/system/cuzkd.service.d/$1.conf"
        fi
        systemctl daemon-reload
}
worker_pids() { cat "$UNIT_CG"/synth/w*/cgroup.procs 2>/dev/null; }
need() { # need STEP: skip unless that step passed
        grep -q "^cuzk-vm: PASS $1 " "$CUZK_VM_OUT/result.log" && return 0
        echo "needs step $1, which did not pass"
        return 77
}

install_package() {
        local debs=("$DEB_DIR"/cuzk_*.deb) mode
        [ -f "${debs[0]}" ] || { echo "no cuzk_*.deb in $DEB_DIR"; return 1; }
        cp "${debs[@]}" /tmp/
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
                /tmp/cuzk_*.deb || { echo "apt-get install of the .deb failed"; return 1; }
        getent passwd cuzk || { echo "no user cuzk"; return 1; }
        getent group cuzk || { echo "no group cuzk"; return 1; }
        expect_eq "cuzkd.socket enabled" enabled "$(systemctl is-enabled cuzkd.socket)" || return 1
        expect_eq "cuzkd.socket active" active "$(systemctl is-active cuzkd.socket)" || return 1
        expect_eq "cuzkd.service after install (socket activated)" inactive \
                "$(systemctl is-active cuzkd.service)" || return 1
        mode=$(stat -c '%a %U %G' "$SOCK") || return 1
        expect_eq "$SOCK mode and owner" "660 root cuzk" "$mode" || return 1
        expect_eq "/var/lib/cuzk/spool owner" cuzk "$(stat -c %U /var/lib/cuzk/spool)" || return 1
        useradd --create-home --groups cuzk "$MEMBER" && useradd --create-home "$OUTSIDER" || return 1
}
