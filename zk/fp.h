/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fp: the 381-bit base field of BLS12-381,
 * p =
 * 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab.
 * Elements are kept in Montgomery form (a * 2^384 mod p) in six 64-bit
 * little-endian limbs. Outputs may alias inputs in every function.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FP_LIMBS 6
#define FP_BYTES 48

typedef struct {
        uint64_t l[FP_LIMBS];
} fp_t;

/* The modulus as canonical limbs. */
extern const uint64_t BLS12_381_P[FP_LIMBS];

void fp_set_zero(fp_t *r);
void fp_set_one(fp_t *r);
void fp_from_u64(fp_t *r, uint64_t v);
bool fp_is_zero(const fp_t *a);
bool fp_is_one(const fp_t *a);
bool fp_equal(const fp_t *a, const fp_t *b);

void fp_add(fp_t *r, const fp_t *a, const fp_t *b);
void fp_sub(fp_t *r, const fp_t *a, const fp_t *b);
void fp_neg(fp_t *r, const fp_t *a);
void fp_dbl(fp_t *r, const fp_t *a);
void fp_mul(fp_t *r, const fp_t *a, const fp_t *b);
void fp_sqr(fp_t *r, const fp_t *a);
/* r = a^e, e given as n little-endian 64-bit limbs. */
void fp_pow(fp_t *r, const fp_t *a, const uint64_t *e, size_t n);
/* r = 1/a; the inverse of zero is zero. */
void fp_inv(fp_t *r, const fp_t *a);
/* 1 if a is a non-zero square, -1 if not a square, 0 if a is zero. */
int fp_legendre(const fp_t *a);
/* Returns false (r untouched) when a has no square root. */
bool fp_sqrt(fp_t *r, const fp_t *a);

/* Canonical (non-Montgomery) limbs. from_canonical refuses a >= p. */
bool fp_from_canonical(fp_t *r, const uint64_t a[FP_LIMBS]);
void fp_to_canonical(uint64_t r[FP_LIMBS], const fp_t *a);
/* Big-endian canonical bytes (zcash/IETF encodings); refuses values >= p. */
bool fp_from_be_bytes(fp_t *r, const uint8_t in[FP_BYTES]);
void fp_to_be_bytes(uint8_t out[FP_BYTES], const fp_t *a);
/* Little-endian canonical bytes. */
bool fp_from_le_bytes(fp_t *r, const uint8_t in[FP_BYTES]);
void fp_to_le_bytes(uint8_t out[FP_BYTES], const fp_t *a);
/* Little-endian Montgomery bytes, snarkjs's in-file layout; refuses >= p. */
bool fp_from_mont_le_bytes(fp_t *r, const uint8_t in[FP_BYTES]);
void fp_to_mont_le_bytes(uint8_t out[FP_BYTES], const fp_t *a);
/* True when the canonical value is > (p-1)/2 (the zcash "sign" of y). */
bool fp_is_lexicographically_largest(const fp_t *a);
