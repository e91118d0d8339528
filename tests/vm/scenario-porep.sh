# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# The PoRep scenario of issue 22 (sourced by guest-main.sh; not part of CI: a
# 2 KiB partition is a 2^22 proof, minutes under TCG): the installed package
# proves a 2 KiB sector's C1 through its units, as Curio sends it. The test
# key is made outside the VM (the CLI tests' cached one) and shared read-only
# as the 9p tag "params"; cuzkd finds it through ParameterCache= in a drop-in
# of /etc/cuzk/cuzkd.conf and builds the circuit's PCE into its own cache
# (/var/cache/cuzk) on first use.

# shellcheck source=tests/vm/package-lib.sh
. ./package-lib.sh
PARAMS=/mnt/params
PROVE_TIMEOUT_MS=$((60 * 60 * 1000))

share_params() {
        need install-package || return 77
        mkdir -p "$PARAMS"
        mount -t 9p -o trans=virtio,version=9p2000.L,ro params "$PARAMS" ||
                { echo "no 9p share 'params' (run-vm.sh shares CUZK_VM_PARAMS)"; return 1; }
        ls "$PARAMS"/*.params "$PARAMS"/*.vk || return 1
        mkdir -p /etc/cuzk/cuzkd.conf.d
        printf '[Prover]\nParameterCache=%s\n' "$PARAMS" >/etc/cuzk/cuzkd.conf.d/porep.conf
}

seal_sector() {
        need install-package || return 77
        mkdir -p "$WORK" && chown "$MEMBER" "$WORK" || return 1
        as_member cuzk porep seal --registered-proof StackedDrg2KiBV1_1 --miner t01000 \
                --sector 1 --out "$WORK/c1.json" --envelope "$WORK/env.json" || return 1
}

# One job through cuzkctl prove, the C1 envelope inline as Curio sends it; the proof checked
# by cuzk porep verify outside the daemon.
prove_sector() {
        local t0
        need share-params || return 77
        need seal || return 77
        t0=$(now)
        as_member cuzkctl --socket="$SOCK" -t "$PROVE_TIMEOUT_MS" prove --kind porep \
                --registered-proof 5 --sector-number 1 --miner-id 1000 \
                --vanilla-proof "$WORK/env.json" --proof-out "$WORK/proof" || return 1
        say "first PoRep job (cuzkd started by its socket, PCE built, key loaded, one 2^22 partition): $(elapsed "$t0") s"
        expect_eq "proof bytes" 192 "$(stat -c %s "$WORK/proof")" || return 1
        cuzk porep verify "$WORK/env.json" "$WORK/proof" --params-dir "$PARAMS" || return 1
        expect_eq "the PCE cached by the package" 1 \
                "$(find /var/cache/cuzk -name '*.cuzk-pce-v*' | wc -l)" || return 1
}

bench_batch() {
        local t0 out
        need prove || return 77
        t0=$(now)
        out=$(as_member cuzk-bench --socket="$SOCK" batch --type porep --c1 "$WORK/env.json" \
                --count 2 --concurrency 2) || { echo "$out"; return 1; }
        echo "$out"
        say "cuzk-bench batch --type porep, 2 jobs at concurrency 2: $(elapsed "$t0") s"
        echo "$out" | grep -q '^completed: *2$' || { echo "not 2 completed"; return 1; }
}

step install-package install_package
step share-params share_params
step seal seal_sector
step prove prove_sector
step batch bench_batch
