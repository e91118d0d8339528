/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which implementation of the field arithmetic runs: the x86-64 BMI2/ADX
 * assembly when the CPU has both extensions, the portable C code otherwise.
 * The choice is made once at program start; CUZK_ARITH=portable in the
 * environment forces the portable code. Both give bit-identical results.
 */
#pragma once

#include <stdbool.h>

/* True when this CPU supports BMI2 and ADX (mulx, adcx, adox). */
bool zk_cpu_has_bmi2_adx(void);

/*
 * For tests and benchmarks: true selects the portable C code, false returns
 * to the start-up choice (fast when the CPU allows it and CUZK_ARITH does
 * not say "portable"). Not to be called while other threads compute.
 */
void zk_arith_force_portable(bool portable);

/* True when field multiplications currently run the assembly. */
bool zk_arith_is_fast(void);

/* "x86_64-adx" or "portable", for logs and benchmark tables. */
const char *zk_arith_name(void);
