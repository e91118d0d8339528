/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fr: the 255-bit scalar field of BLS12-381 (the group order),
 * r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001.
 * Elements are kept in Montgomery form (a * 2^256 mod r) in four 64-bit
 * little-endian limbs. Outputs may alias inputs in every function.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FR_LIMBS 4
#define FR_BYTES 32

typedef struct {
        uint64_t l[FR_LIMBS];
} fr_t;

/* The modulus as canonical limbs. */
extern const uint64_t BLS12_381_R[FR_LIMBS];

void fr_set_zero(fr_t *r);
void fr_set_one(fr_t *r);
void fr_from_u64(fr_t *r, uint64_t v);
bool fr_is_zero(const fr_t *a);
bool fr_is_one(const fr_t *a);
bool fr_equal(const fr_t *a, const fr_t *b);

void fr_add(fr_t *r, const fr_t *a, const fr_t *b);
void fr_sub(fr_t *r, const fr_t *a, const fr_t *b);
void fr_neg(fr_t *r, const fr_t *a);
void fr_dbl(fr_t *r, const fr_t *a);
void fr_mul(fr_t *r, const fr_t *a, const fr_t *b);
void fr_sqr(fr_t *r, const fr_t *a);
/* r = a^e, e given as n little-endian 64-bit limbs. */
void fr_pow(fr_t *r, const fr_t *a, const uint64_t *e, size_t n);
/* r = 1/a; the inverse of zero is zero. */
void fr_inv(fr_t *r, const fr_t *a);
/* 1 if a is a non-zero square, -1 if not a square, 0 if a is zero. */
int fr_legendre(const fr_t *a);
/* Returns false (r untouched) when a has no square root. */
bool fr_sqrt(fr_t *r, const fr_t *a);

/* Canonical (non-Montgomery) limbs. from_canonical refuses a >= r. */
bool fr_from_canonical(fr_t *r, const uint64_t a[FR_LIMBS]);
void fr_to_canonical(uint64_t r[FR_LIMBS], const fr_t *a);
/* Big-endian canonical bytes (zcash/IETF encodings); refuses values >= r. */
bool fr_from_be_bytes(fr_t *r, const uint8_t in[FR_BYTES]);
void fr_to_be_bytes(uint8_t out[FR_BYTES], const fr_t *a);
/* Little-endian canonical bytes. */
bool fr_from_le_bytes(fr_t *r, const uint8_t in[FR_BYTES]);
void fr_to_le_bytes(uint8_t out[FR_BYTES], const fr_t *a);
/* Little-endian Montgomery bytes, snarkjs's in-file layout; refuses >= r. */
bool fr_from_mont_le_bytes(fr_t *r, const uint8_t in[FR_BYTES]);
void fr_to_mont_le_bytes(uint8_t out[FR_BYTES], const fr_t *a);
/* True when the canonical value is > (r-1)/2. */
bool fr_is_lexicographically_largest(const fr_t *a);

/* Fr has 2-adicity 32: r - 1 = 2^32 * odd. */
#define FR_TWO_ADICITY 32
