/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Portable Montgomery arithmetic over n 64-bit limbs (little-endian limb
 * order), shared by Fp (6 limbs) and Fr (4 limbs). Internal to zk/: the
 * public types are fp_t and fr_t. Every function allows r to alias its
 * inputs. Both BLS12-381 moduli leave the top bit of the top limb clear, so
 * a + b never overflows n limbs and the CIOS product stays below 2m.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MONT_MAX_LIMBS 6

typedef unsigned __int128 mont_u128;

static inline bool mont_is_zero(const uint64_t *a, size_t n) {
        uint64_t acc = 0;
        for (size_t i = 0; i < n; i++)
                acc |= a[i];
        return acc == 0;
}

static inline bool mont_equal(const uint64_t *a, const uint64_t *b, size_t n) {
        uint64_t acc = 0;
        for (size_t i = 0; i < n; i++)
                acc |= a[i] ^ b[i];
        return acc == 0;
}

/* a >= b as n-limb integers. */
static inline bool mont_geq(const uint64_t *a, const uint64_t *b, size_t n) {
        for (size_t i = n; i-- > 0;)
                if (a[i] != b[i])
                        return a[i] > b[i];
        return true;
}

/* r = a - b, returns the borrow. */
static inline uint64_t mont_sub_raw(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
        uint64_t borrow = 0;
        for (size_t i = 0; i < n; i++) {
                mont_u128 d = (mont_u128)a[i] - b[i] - borrow;
                r[i] = (uint64_t)d;
                borrow = (uint64_t)(d >> 64) & 1;
        }
        return borrow;
}

/* r = a + b, returns the carry. */
static inline uint64_t mont_add_raw(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
        uint64_t carry = 0;
        for (size_t i = 0; i < n; i++) {
                mont_u128 s = (mont_u128)a[i] + b[i] + carry;
                r[i] = (uint64_t)s;
                carry = (uint64_t)(s >> 64);
        }
        return carry;
}

static inline void mont_add(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                            size_t n) {
        uint64_t t[MONT_MAX_LIMBS];
        mont_add_raw(t, a, b, n);
        if (mont_geq(t, m, n))
                mont_sub_raw(t, t, m, n);
        memcpy(r, t, n * sizeof(uint64_t));
}

static inline void mont_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                            size_t n) {
        uint64_t t[MONT_MAX_LIMBS];
        if (mont_sub_raw(t, a, b, n))
                mont_add_raw(t, t, m, n);
        memcpy(r, t, n * sizeof(uint64_t));
}

static inline void mont_neg(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n) {
        if (mont_is_zero(a, n)) {
                memset(r, 0, n * sizeof(uint64_t));
                return;
        }
        mont_sub_raw(r, m, a, n);
}

/* Coarsely integrated operand scanning: r = a * b / 2^(64n) mod m. */
static inline void mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                            uint64_t m_inv_neg, size_t n) {
        uint64_t t[MONT_MAX_LIMBS + 2] = {0};

        for (size_t i = 0; i < n; i++) {
                uint64_t carry = 0;
                for (size_t j = 0; j < n; j++) {
                        mont_u128 s = (mont_u128)a[j] * b[i] + t[j] + carry;
                        t[j] = (uint64_t)s;
                        carry = (uint64_t)(s >> 64);
                }
                mont_u128 s = (mont_u128)t[n] + carry;
                t[n] = (uint64_t)s;
                t[n + 1] = (uint64_t)(s >> 64);

                uint64_t q = t[0] * m_inv_neg;
                s = (mont_u128)q * m[0] + t[0];
                carry = (uint64_t)(s >> 64);
                for (size_t j = 1; j < n; j++) {
                        s = (mont_u128)q * m[j] + t[j] + carry;
                        t[j - 1] = (uint64_t)s;
                        carry = (uint64_t)(s >> 64);
                }
                s = (mont_u128)t[n] + carry;
                t[n - 1] = (uint64_t)s;
                t[n] = t[n + 1] + (uint64_t)(s >> 64);
        }
        if (t[n] || mont_geq(t, m, n))
                mont_sub_raw(t, t, m, n);
        memcpy(r, t, n * sizeof(uint64_t));
}

/* Big-endian bytes <-> limbs, no reduction. */
static inline void mont_limbs_from_be(uint64_t *r, const uint8_t *in, size_t n) {
        for (size_t i = 0; i < n; i++) {
                uint64_t w = 0;
                for (size_t k = 0; k < 8; k++)
                        w = (w << 8) | in[(n - 1 - i) * 8 + k];
                r[i] = w;
        }
}

static inline void mont_limbs_to_be(uint8_t *out, const uint64_t *a, size_t n) {
        for (size_t i = 0; i < n; i++)
                for (size_t k = 0; k < 8; k++)
                        out[(n - 1 - i) * 8 + k] = (uint8_t)(a[i] >> (56 - 8 * k));
}

static inline void mont_limbs_from_le(uint64_t *r, const uint8_t *in, size_t n) {
        for (size_t i = 0; i < n; i++) {
                uint64_t w = 0;
                for (size_t k = 8; k-- > 0;)
                        w = (w << 8) | in[i * 8 + k];
                r[i] = w;
        }
}

static inline void mont_limbs_to_le(uint8_t *out, const uint64_t *a, size_t n) {
        for (size_t i = 0; i < n; i++)
                for (size_t k = 0; k < 8; k++)
                        out[i * 8 + k] = (uint8_t)(a[i] >> (8 * k));
}
