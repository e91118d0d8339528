/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Modular inversion and Legendre symbols by Bernstein-Yang "divsteps"
 * (binary GCD): batches of 62 steps are decided on one 64-bit word and then
 * applied to the full numbers as a 2x2 matrix, which is several times
 * faster than the exponentiations a^(m-2) and a^((m-1)/2). Variable time:
 * the running time depends on the input, which is acceptable for a prover
 * (no secret-dependent timing concerns here); do not use it where inputs
 * are secret.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest modulus, in 64-bit limbs, that modinv_var_time() accepts. */
#define MODINV_MAX_LIMBS 6

/*
 * r = a^-1 mod m on canonical little-endian limbs (n <= MODINV_MAX_LIMBS).
 * m must be an odd prime and a < m; the inverse of 0 is 0. r may alias a.
 */
void modinv_var_time(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n);

/*
 * *symbol = Legendre symbol (a | m): 1, -1, or 0 for a = 0, with m an odd
 * prime, a < m, n <= MODINV_MAX_LIMBS. Returns false, *symbol untouched, in
 * the unexpected case that the steps have not converged after 64 batches
 * (4 times the typical count; no bound is proven), so that the caller can
 * fall back to Euler's criterion.
 */
bool legendre_var_time(int *symbol, const uint64_t *a, const uint64_t *m, size_t n);
