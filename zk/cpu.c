/* SPDX-License-Identifier: Apache-2.0 */
#include "cpu.h"

#include <stdlib.h>
#include <string.h>

#include "mont_x86_64.h"

atomic_bool mont_asm_enabled = false;

bool zk_cpu_has_bmi2_adx(void) {
#if ZK_HAVE_MONT_ADX
        /* Also valid before libgcc's own constructor has run. */
        __builtin_cpu_init();
        return __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("adx");
#else
        return false;
#endif
}

static bool env_wants_portable(void) {
        const char *v = getenv("CUZK_ARITH");
        return v && strcmp(v, "portable") == 0;
}

static bool startup_choice(void) {
        return zk_cpu_has_bmi2_adx() && !env_wants_portable();
}

void zk_arith_force_portable(bool portable) {
        atomic_store_explicit(&mont_asm_enabled, !portable && startup_choice(),
                              memory_order_relaxed);
}

bool zk_arith_is_fast(void) {
        return mont_use_asm();
}

const char *zk_arith_name(void) {
        return mont_use_asm() ? "x86_64-adx" : "portable";
}

/* Decided before main() so that the hot path only reads a flag. */
__attribute__((constructor)) static void arith_select_at_startup(void) {
        zk_arith_force_portable(false);
}
