/* SPDX-License-Identifier: Apache-2.0 */
/*
 * snarkjs Groth16 proving keys (.zkey, version <= 2), read as snarkjs's
 * zkey_utils.js / zkey_new.js write them and groth16_prove.js uses them.
 * Sections, found by type whatever their order in the file:
 *   1  protocol u32 (1 = Groth16; PLONK and FFLONK keys are refused)
 *   2  n8q, q, n8r, r, nVars, nPublic, domainSize (u32 except the primes),
 *      alpha1, beta1, beta2, gamma2, delta1, delta2 (in that order)
 *   3  IC: nPublic + 1 G1 points
 *   4  coefficients: count u32, then per entry matrix u32, constraint u32,
 *      signal u32, value (32 bytes: the canonical value times R^2 mod r,
 *      that is the Montgomery form of value * R)
 *   5  A: nVars G1 points          6  B1: nVars G1 points
 *   7  B2: nVars G2 points         8  C: nVars - nPublic - 1 G1 points
 *   9  H: domainSize G1 points     10 MPC contributions (not read)
 * Points are affine, Montgomery, little-endian (see points.h); (0, 0) is
 * infinity, which is what unused wires have.
 */
#pragma once

#include <stdint.h>

#include "zk/fr.h"
#include "zk/g1.h"
#include "zk/g2.h"
#include "zk/groth16.h"
#include "zk/sparse.h"

enum zkey_matrix {
        ZKEY_MATRIX_A = 0,
        ZKEY_MATRIX_B = 1,
};

/*
 * One non-zero entry of the QAP matrices A and B: the prover adds
 * value * w[signal] into row `constraint` of matrix A or B, then takes
 * C = A * B pointwise. Besides the R1CS's own A and B terms, snarkjs adds
 * one A entry of value 1 per public signal s (wire 0 included) at row
 * nConstraints + s, which binds the public inputs to the proof.
 */
struct zkey_coef {
        uint32_t matrix;     /* enum zkey_matrix */
        uint32_t constraint; /* < domain_size */
        uint32_t signal;     /* < n_vars */
        fr_t value;          /* Montgomery form */
};

struct zkey {
        uint32_t n_vars;      /* witness length, including the constant wire 0 */
        uint32_t n_public;    /* public signals, not counting wire 0 */
        uint32_t domain_size; /* a power of two */
        uint32_t log2_domain_size;

        g1_affine_t alpha1, beta1, delta1;
        g2_affine_t beta2, gamma2, delta2;

        g1_affine_t *ic; /* n_public + 1: wires 0 .. n_public */
        g1_affine_t *a;  /* n_vars */
        g1_affine_t *b1; /* n_vars */
        g2_affine_t *b2; /* n_vars */
        g1_affine_t *c;  /* n_vars - n_public - 1: c[i] is wire n_public + 1 + i */
        /* domain_size points; snarkjs multiplies them with the evaluations
         * of A*B - C on the odd coset (groth16_prove.js). */
        g1_affine_t *h;

        uint32_t n_coefs;
        struct zkey_coef *coefs;
};

/*
 * Returns 0 or a negative errno (logged, naming the file). Every point must
 * be on the curve; the verification-key points (alpha, beta, gamma, delta,
 * IC) must also be in the subgroup.
 */
int zkey_load(const char *path, struct zkey **ret);
struct zkey *zkey_free(struct zkey *zk);
static inline void zkey_freep(struct zkey **zk) {
        zkey_free(*zk);
}

/* Number of private wires, the length of zk->c. */
static inline uint32_t zkey_n_private(const struct zkey *zk) {
        return zk->n_vars - zk->n_public - 1;
}

/* The proving key as zk/groth16.h takes it; its arrays are borrowed from zk. */
void zkey_to_groth16_pk(const struct zkey *zk, struct groth16_pk *ret);

/*
 * The coefficients as the matrices A and B of zk/groth16.h (domain_size
 * rows, n_vars columns; snarkjs takes C = A o B, so there is no C). Returns
 * 0 or -ENOMEM; free both with sparse_free().
 */
int zkey_to_groth16_matrices(const struct zkey *zk, struct sparse_matrix *a,
                             struct sparse_matrix *b);
