/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The optimal ate pairing of BLS12-381, e: G1 x G2 -> Gt (a subgroup of
 * Fp12), x = -0xd201000000010000.
 *
 * Values are those of ffjavascript (snarkjs) and zkcrypto's bls12_381 (whose
 * e(G1, G2) is the common test vector), coefficient for coefficient: the
 * Miller loop f_{|x|,Q}(P) conjugated for the negative x, raised to
 * 3 (p^12 - 1) / r. The factor 3 comes from the hard part of the final
 * exponentiation they use (Hayashida, Hayasaka, Teruya:
 * 3 (p^4 - p^2 + 1) / r = (x - 1)^2 (x + p) (x^2 + p^2 - 1) + 3); 3 is prime
 * to r, so this is the cube of the textbook reduced pairing and just as
 * bilinear and non-degenerate. test-pairing checks that relation.
 *
 * Inputs must lie in G1 and G2 (callers check subgroup membership when they
 * decode untrusted points); the point at infinity on either side gives 1.
 * Nothing here is constant-time: use it on public data only.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "fp12.h"
#include "g1.h"
#include "g2.h"

/* r = e(p, q). */
void pairing(fp12_t *r, const g1_affine_t *p, const g2_affine_t *q);

/* prod e(p[i], q[i]) == 1, with one shared Miller loop squaring chain and one
 * final exponentiation: the Groth16 check e(A, B) = e(alpha, beta) e(L, gamma)
 * e(C, delta) as e(-A, B) e(alpha, beta) e(L, gamma) e(C, delta) == 1. */
bool pairing_product_is_one(const g1_affine_t *p, const g2_affine_t *q, size_t n);

/* The two halves, for callers that combine or cache Miller loop values:
 * pairing_miller_loop gives prod f_i, the product of the n Miller loops (1
 * for n == 0), and pairing_final_exponentiation maps it to Gt. */
void pairing_miller_loop(fp12_t *r, const g1_affine_t *p, const g2_affine_t *q, size_t n);
void pairing_final_exponentiation(fp12_t *r, const fp12_t *f);
