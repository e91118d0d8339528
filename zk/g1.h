/* SPDX-License-Identifier: Apache-2.0 */
/*
 * G1 of BLS12-381: y^2 = x^3 + 4 over Fp, the subgroup of prime order r.
 *
 * Forms:
 *   g1_affine_t  (x, y); the point at infinity is x = y = 0 (not on the
 *                curve, so unambiguous). Compact: this is the SRS layout.
 *   g1_jac_t     Jacobian (X, Y, Z): x = X/Z^2, y = Y/Z^3; Z = 0 is infinity.
 *   g1_xyzz_t    (X, Y, ZZ, ZZZ): x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2; ZZ = 0 is
 *                infinity. Cheapest mixed addition, used for MSM buckets.
 * Outputs may alias inputs in every function, except that the arrays of the
 * batch functions must not overlap each other (acc == add is allowed).
 * Nothing here is constant-time: use these on public data only.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fp.h"
#include "fr.h"

typedef struct {
        fp_t x, y;
} g1_affine_t;

typedef struct {
        fp_t x, y, z;
} g1_jac_t;

typedef struct {
        fp_t x, y, zz, zzz;
} g1_xyzz_t;

/* The standard generator (zcash / IETF). */
extern const g1_affine_t G1_GENERATOR;
/* The cofactor h = #points / r, as little-endian limbs. */
#define G1_COFACTOR_LIMBS 2
#define G1_COFACTOR_BITS 126
extern const uint64_t G1_COFACTOR[G1_COFACTOR_LIMBS];

/* Affine */
void g1_affine_set_infinity(g1_affine_t *r);
bool g1_affine_is_infinity(const g1_affine_t *p);
bool g1_affine_equal(const g1_affine_t *a, const g1_affine_t *b);
void g1_affine_neg(g1_affine_t *r, const g1_affine_t *p);
/* On the curve (infinity counts as on the curve). */
bool g1_affine_is_on_curve(const g1_affine_t *p);
/* In the order-r subgroup (p must be on the curve). Uses the endomorphism
 * test; the tests check it against the definition r*P == O. */
bool g1_affine_in_subgroup(const g1_affine_t *p);
/* The point with this x whose y has the given zcash sign (y lexicographically
 * largest or not); false when x^3 + b is not a square. */
bool g1_affine_from_x(g1_affine_t *r, const fp_t *x, bool y_largest);

/* Jacobian */
void g1_jac_set_infinity(g1_jac_t *r);
bool g1_jac_is_infinity(const g1_jac_t *p);
void g1_jac_from_affine(g1_jac_t *r, const g1_affine_t *p);
void g1_jac_to_affine(g1_affine_t *r, const g1_jac_t *p);
/* Converts n points with one field inversion. */
void g1_jac_batch_to_affine(g1_affine_t *r, const g1_jac_t *p, size_t n);
bool g1_jac_equal(const g1_jac_t *a, const g1_jac_t *b);
bool g1_jac_is_on_curve(const g1_jac_t *p);
void g1_jac_neg(g1_jac_t *r, const g1_jac_t *p);
void g1_jac_dbl(g1_jac_t *r, const g1_jac_t *p);
void g1_jac_add(g1_jac_t *r, const g1_jac_t *a, const g1_jac_t *b);
void g1_jac_add_affine(g1_jac_t *r, const g1_jac_t *a, const g1_affine_t *b);
/* r = k * p, k given as canonical little-endian limbs of nbits bits. */
void g1_jac_mul(g1_jac_t *r, const g1_jac_t *p, const uint64_t *k, size_t nbits);
/* r = s * p for s in Fr (Montgomery form). */
void g1_jac_mul_fr(g1_jac_t *r, const g1_jac_t *p, const fr_t *s);
/* In the order-r subgroup (p must be on the curve). */
bool g1_jac_in_subgroup(const g1_jac_t *p);
/* r = h * p, h the cofactor: maps any curve point into the subgroup. */
void g1_jac_clear_cofactor(g1_jac_t *r, const g1_jac_t *p);

/* XYZZ */
void g1_xyzz_set_infinity(g1_xyzz_t *r);
bool g1_xyzz_is_infinity(const g1_xyzz_t *p);
void g1_xyzz_from_affine(g1_xyzz_t *r, const g1_affine_t *p);
void g1_xyzz_to_jac(g1_jac_t *r, const g1_xyzz_t *p);
void g1_xyzz_dbl(g1_xyzz_t *r, const g1_xyzz_t *p);
void g1_xyzz_add(g1_xyzz_t *r, const g1_xyzz_t *a, const g1_xyzz_t *b);
void g1_xyzz_add_affine(g1_xyzz_t *r, const g1_xyzz_t *a, const g1_affine_t *b);
void g1_xyzz_sub_affine(g1_xyzz_t *r, const g1_xyzz_t *a, const g1_affine_t *b);

/*
 * Batch affine addition with one inversion for the whole batch:
 * acc[i] += add[i] for i < n. Handles infinity, equal and opposite points.
 * scratch must hold n field elements.
 */
void g1_affine_batch_add(g1_affine_t *acc, const g1_affine_t *add, size_t n, fp_t *scratch);
