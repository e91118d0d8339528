/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the emulation tests (cuda-*-emu-test) share: one PASS/FAIL line a
 * case, the count of failures for the exit status, and splitmix64 for their
 * random inputs (each test its own seed, so that a failing case comes back
 * the same on the next run). Host code only.
 */
#pragma once

#include <stdint.h>
#include <stdio.h>

namespace cuzk {

struct emu_cases {
        int failures = 0;

        void report(bool ok, const char *what) {
                printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
                if (!ok)
                        failures++;
        }
        /* The summary line; the exit status (1 when any case failed). */
        int finish() const {
                printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
                return failures ? 1 : 0;
        }
};

struct emu_rng {
        uint64_t state;

        uint64_t next() {
                uint64_t z = (state += 0x9e3779b97f4a7c15ull);
                z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
                z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
                return z ^ (z >> 31);
        }
};

} // namespace cuzk
