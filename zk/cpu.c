/* SPDX-License-Identifier: Apache-2.0 */
#include "cpu.h"

#include <stdlib.h>
#include <string.h>

#include "mont_x86_64.h"

#if ZK_HAVE_MONT_ADX
#include <cpuid.h>
#endif

atomic_bool mont_asm_enabled = false;

/*
 * CPUID leaf 7, sub-leaf 0: EBX bit 8 is BMI2 (mulx), bit 19 ADX (adcx,
 * adox). Read directly rather than through __builtin_cpu_supports, whose
 * "adx" name older Clang releases reject; neither extension needs state
 * enabled by the OS.
 */
bool zk_cpu_has_bmi2_adx(void) {
#if ZK_HAVE_MONT_ADX
        unsigned eax, ebx, ecx, edx;

        if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
                return false;
        return (ebx & (1u << 8)) && (ebx & (1u << 19));
#else
        return false;
#endif
}

static bool env_wants_portable(void) {
        const char *v = getenv("CUZK_ARITH");
        return v && strcmp(v, "portable") == 0;
}

/* The start-up choice, decided once: CPUID traps to the hypervisor in a
 * virtual machine and costs microseconds, too much for tests that switch
 * paths per input. */
static bool startup_fast;

void zk_arith_force_portable(bool portable) {
        atomic_store_explicit(&mont_asm_enabled, !portable && startup_fast, memory_order_relaxed);
}

bool zk_arith_is_fast(void) {
        return mont_use_asm();
}

const char *zk_arith_name(void) {
        return mont_use_asm() ? "x86_64-adx" : "portable";
}

/* Decided before main() so that the hot path only reads a flag. */
__attribute__((constructor)) static void arith_select_at_startup(void) {
        startup_fast = zk_cpu_has_bmi2_adx() && !env_wants_portable();
        zk_arith_force_portable(false);
}
