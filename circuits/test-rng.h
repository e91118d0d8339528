/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The circuit tests' inputs: splitmix64 from a seed the test sets, so a
 * failing case is the same on every run. Not for anything secret.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

static uint64_t test_rng_state;

static inline void test_rng_seed(uint64_t seed) {
        test_rng_state = seed;
}

static inline uint64_t test_rng_next(void) {
        uint64_t z = (test_rng_state += UINT64_C(0x9e3779b97f4a7c15));
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        return z ^ (z >> 31);
}

static inline void test_rng_bytes(uint8_t *p, size_t n) {
        for (size_t i = 0; i < n; i++)
                p[i] = (uint8_t)test_rng_next();
}

/* 32 random bytes below 2^254: an Fr repr (and a trimmed Sha256Domain). */
static inline void test_rng_repr(uint8_t out[32]) {
        test_rng_bytes(out, 32);
        out[31] &= 0x3f;
}
