#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The VM test of issue 8, as one command (root, Debian 12, network for the
# first image build; no KVM needed):
#   scripts/vm-test.sh [harness|cuzkd|all]      (default: all)
# harness: the VM itself (systemd, cgroup v2 + memory, PSI, a transient
#          unit OOM-killed alone);
# cuzkd:   builds the .deb from this tree (tests/vm/build-deb.sh, lintian),
#          lints the man pages (mandoc -Tlint), and runs the package's
#          scenario in the VM (tests/vm/scenario-cuzkd.sh).
# Set CUZK_VM_DEBS="a.deb ..." to test given packages instead of building.
# The image is cached under ${CUZK_CACHE_DIR:-~/.cache/cuzk}/vm; see
# tests/vm/README.md for the timings and the knobs.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
what=${1:-all}
case $what in harness | cuzkd | all) ;; *) echo "usage: $0 [harness|cuzkd|all]" >&2; exit 2 ;; esac

"$here/scripts/ensure-deps.sh"
fail=0
start=$SECONDS

if [ "$what" != cuzkd ]; then
        "$here/tests/vm/run-vm.sh" harness || fail=1
fi

if [ "$what" != harness ]; then
        echo "vm-test: mandoc -Tlint -Wwarning man/*" >&2
        if ! mandoc -Tlint -Wwarning "$here"/man/*.[1-8] >&2; then
                echo "vm-test: FAIL: mandoc -Tlint reports warnings (above)" >&2
                fail=1
        fi
        if [ -n "${CUZK_VM_DEBS:-}" ]; then
                read -r -a debs <<< "$CUZK_VM_DEBS"
        else
                built=$("$here/tests/vm/build-deb.sh") || { echo "vm-test: FAIL: the .deb did not build" >&2; exit 1; }
                mapfile -t debs <<< "$built"
        fi
        "$here/tests/vm/run-vm.sh" cuzkd "${debs[@]}" || fail=1
fi

echo "vm-test: $what $([ $fail = 0 ] && echo passed || echo FAILED) in $((SECONDS - start)) s" >&2
exit $fail
