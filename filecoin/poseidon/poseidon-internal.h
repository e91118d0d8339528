/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pieces poseidon-constants.c assembles: Grain LFSR round constants and
 * the small dense Fr matrix algebra of neptune's preprocessing. Matrices are
 * n x n row-major; vectors multiply from the left (v * A).
 */
#pragma once

#include <stddef.h>

#include "zk/fr.h"

/* (R_F + R_P) * t round constants from the Grain LFSR seeded with
 * (field 1, S-box 1, 255 bits, t, R_F, R_P). */
void poseidon_grain_round_constants(unsigned width, unsigned full_rounds, unsigned partial_rounds,
                                    fr_t *out, size_t n);

/* m[i][j] = 1 / (i + j + n): neptune's Cauchy MDS matrix. */
void fr_matrix_cauchy(fr_t *m, unsigned n);
/* out = a * b; out must not alias a or b. */
void fr_matrix_mul(fr_t *out, const fr_t *a, const fr_t *b, unsigned n);
/* out = v * a (row vector); out must not alias v. */
void fr_vector_times_matrix(fr_t *out, const fr_t *v, const fr_t *a, unsigned n);
/* out = a^-1 by Gauss-Jordan; out must not alias a. Returns 0 or -EDOM when
 * a is singular. */
int fr_matrix_invert(fr_t *out, const fr_t *a, unsigned n);
