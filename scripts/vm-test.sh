#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The VM test of issue 8, as one command (root, Debian 12, network for the
# first image build; no KVM needed):
#   scripts/vm-test.sh [harness|cuzkd|all|porep]      (default: all)
# harness: the VM itself (systemd, cgroup v2 + memory, PSI, a transient
#          unit OOM-killed alone);
# cuzkd:   builds the .deb from this tree (tests/vm/build-deb.sh, lintian),
#          lints the man pages (mandoc -Tlint), and runs the package's
#          scenario in the VM (tests/vm/scenario-cuzkd.sh).
# porep:   (not in all: a 2^22 proof takes minutes under TCG) the package proves a
#          2 KiB PoRep C1 through its units, with the test key the CLI tests
#          cache (tests/vm/scenario-porep.sh).
# Set CUZK_VM_DEBS="a.deb ..." to test given packages instead of building.
# The image is cached under ${CUZK_CACHE_DIR:-~/.cache/cuzk}/vm; see
# tests/vm/README.md for the timings and the knobs.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
what=${1:-all}
case $what in harness | cuzkd | all | porep) ;; *) echo "usage: $0 [harness|cuzkd|all|porep]" >&2; exit 2 ;; esac

"$here/scripts/ensure-deps.sh"
fail=0
start=$SECONDS

if [ "$what" = harness ] || [ "$what" = all ]; then
        "$here/tests/vm/run-vm.sh" harness || fail=1
fi

scenario=cuzkd
if [ "$what" = porep ]; then
        scenario=porep
        # The seeded 2 KiB key that tests/cli/test-cli-porep-prove.sh makes and caches.
        export CUZK_VM_PARAMS=${CUZK_VM_PARAMS:-${CUZK_CACHE_DIR:-$HOME/.cache/cuzk}/porep-test-params-pce-v1-seed0123456789abcdef}
        [ -f "$CUZK_VM_PARAMS/done" ] || [ -n "$(ls "$CUZK_VM_PARAMS"/*.params 2>/dev/null)" ] || {
                echo "vm-test: no 2 KiB test key in $CUZK_VM_PARAMS: run meson test test-cli-porep-prove first, or set CUZK_VM_PARAMS" >&2
                exit 2
        }
        # A 2 KiB proof holds its 1.1 GB key and a 2^22 domain: more memory and time under TCG.
        export CUZK_VM_MEMORY=${CUZK_VM_MEMORY:-4096} CUZK_VM_TIMEOUT=${CUZK_VM_TIMEOUT:-5400}
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
        "$here/tests/vm/run-vm.sh" "$scenario" "${debs[@]}" || fail=1
fi

echo "vm-test: $what $([ $fail = 0 ] && echo passed || echo FAILED) in $((SECONDS - start)) s" >&2
exit $fail
