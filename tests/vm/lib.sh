# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# Sourced by the guest scenarios (bash, inside the VM, as root): each check
# is a function run by `step NAME FUNCTION [ARGS]`, which times it and
# records one line in $CUZK_VM_OUT/result.log and on the console:
#   cuzk-vm: PASS <name> (<seconds> s)
#   cuzk-vm: FAIL <name> (<seconds> s): <last line of its output>
#   cuzk-vm: SKIP <name>: <reason>      (the function returned 77)
# followed, on a failure, by the last lines of its output. `finish` writes
# the summary line the host looks for: cuzk-vm: DONE pass=N fail=N skip=N.

CUZK_VM_OUT=${CUZK_VM_OUT:-/mnt/cuzk/out}
vm_pass=0
vm_fail=0
vm_skip=0

say() {
        echo "cuzk-vm: $*"
        echo "cuzk-vm: $*" >> "$CUZK_VM_OUT/result.log"
}

now() { cut -d' ' -f1 /proc/uptime; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

step() {
        local name=$1 t0 out rc
        shift
        t0=$(now)
        out=$("$@" 2>&1)
        rc=$?
        echo "$out" > "$CUZK_VM_OUT/step-$name.log"
        if [ $rc = 0 ]; then
                vm_pass=$((vm_pass + 1))
                say "PASS $name ($(elapsed "$t0") s)"
        elif [ $rc = 77 ]; then
                vm_skip=$((vm_skip + 1))
                say "SKIP $name: $(echo "$out" | tail -n 1)"
        else
                vm_fail=$((vm_fail + 1))
                say "FAIL $name ($(elapsed "$t0") s): $(echo "$out" | tail -n 1)"
                echo "$out" | tail -n 15 | sed 's/^/cuzk-vm:   | /'
        fi
        return $rc
}

finish() {
        say "DONE pass=$vm_pass fail=$vm_fail skip=$vm_skip"
}

# Fails with a message naming what was expected and what was found.
expect_eq() {
        local what=$1 want=$2 got=$3
        [ "$got" = "$want" ] && return 0
        echo "$what: expected '$want', got '$got'"
        return 1
}

# Waits up to $2 seconds for the command $3... to succeed.
wait_for() {
        local what=$1 timeout=$2 i=0
        shift 2
        while ! "$@" >/dev/null 2>&1; do
                i=$((i + 1))
                if [ $i -gt $((timeout * 5)) ]; then
                        echo "timed out after ${timeout}s waiting for $what"
                        return 1
                fi
                sleep 0.2
        done
}
