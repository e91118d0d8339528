/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Groth16 key generation in bellperson's convention (GROTH16_H_BELLPERSON),
 * the keys `cuzk setup` writes as .params/.vk and groth16_prove() uses.
 *
 * From the constraint matrices A, B, C (n_rows <= 2^k rows on the domain
 * <omega> of NTT_ROOTS_BELLPERSON, public-input binding rows included) and
 * the toxic waste tau, alpha, beta, gamma, delta:
 *
 *   L_i(tau) = Z(tau) omega^i / (n (tau - omega^i))    Lagrange basis, Z = x^n - 1
 *   u_j = sum_i A_ij L_i(tau), v_j (B), w_j (C)         one pass per matrix, by column
 *   a_j = u_j G1, b1_j = v_j G1, b2_j = v_j G2           every wire j < n_vars
 *   ic_j = (beta u_j + alpha v_j + w_j) / gamma G1       j <= n_public
 *   l_j  = (beta u_j + alpha v_j + w_j) / delta G1       j > n_public
 *   h_i  = tau^i Z(tau) / delta G1                       i < n - 1
 *
 * (groth16_setup_snarkjs() below: the same but snarkjs's roots and H.)
 *
 * with one table-driven fixed-base multiplication per group (fixed_base.h).
 *
 * A timing-only key has the same shape but random points unrelated to
 * any toxic waste: proofs made with it cannot be valid, so it is only for
 * measuring a prover where a real setup would take too long. It is fast
 * (one addition per point) and, given the matrices, puts a, b1 and b2 at
 * infinity exactly where a real key would (wires absent from A or B), so
 * that provers see the real densities. Its files carry a marker
 * (formats/bellperson_params.h) that every verifier refuses.
 *
 * Functions return 0 or a negative errno: -EINVAL for sizes that do not fit
 * (matrices wider than n_vars or taller than the domain, no C matrix, a
 * domain over NTT_MAX_LOG_SIZE) or toxic waste that cannot be used (a zero
 * element, tau in the domain), -ENOMEM, or getrandom(2)'s error.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "groth16.h"

struct groth16_toxic_waste {
        fr_t tau, alpha, beta, gamma, delta;
};

/* Fresh toxic waste from getrandom(2). */
int groth16_toxic_waste_random(struct groth16_toxic_waste *ret);
/* Toxic waste derived from a seed: reproducible keys FOR TESTS ONLY (anyone
 * who knows the seed can forge proofs). */
void groth16_toxic_waste_from_seed(struct groth16_toxic_waste *ret, const uint8_t *seed,
                                   size_t seed_bytes);

/* What a key is generated for. */
struct groth16_setup_circuit {
        const struct sparse_matrix *a, *b, *c; /* c is required */
        size_t n_vars;                         /* wires, the constant 1 included */
        size_t n_public;                       /* public inputs, not counting the constant */
        unsigned log_domain_size;
        /* Timing-only keys only: the wires present in A and in B as bitmaps
         * (bit j of word j / 64), e.g. a PCE's densities. NULL: derived from
         * a and b when given, else every wire gets a point. */
        const uint64_t *a_columns, *b_columns;
};

struct groth16_setup_options {
        unsigned threads; /* 0: zk_thread_count() */
        /* Called as each stage starts (may be NULL), for progress lines. */
        void (*progress)(const char *stage, void *userdata);
        void *userdata;
};

/* A generated key pair. pk and vk borrow the arrays below, which it owns. */
struct groth16_keys {
        struct groth16_pk pk; /* GROTH16_H_BELLPERSON; pk.beta1, pk.delta1 for the .vk too */
        struct groth16_vk vk; /* vk.ic is ic */
        bool timing_only;
        g1_affine_t *a, *b1, *l, *h, *ic;
        g2_affine_t *b2;
};

int groth16_setup(const struct groth16_setup_circuit *circuit,
                  const struct groth16_toxic_waste *toxic_waste,
                  const struct groth16_setup_options *options, struct groth16_keys **ret);

/*
 * The same in snarkjs's convention (GROTH16_H_SNARKJS), what `snarkjs zkey
 * new` makes from a powers of tau when gamma = delta = 1: the domain of
 * NTT_ROOTS_SNARKJS, and n = 2^k H bases L'_{2i+1}(tau) / delta, the
 * Lagrange basis of the 2n-domain at its odd points (where snarkjs's prover
 * evaluates a*b - c). The matrices hold the public-input binding rows (A
 * rows nConstraints + j for wires j <= n_public), as a .zkey does.
 */
int groth16_setup_snarkjs(const struct groth16_setup_circuit *circuit,
                          const struct groth16_toxic_waste *toxic_waste,
                          const struct groth16_setup_options *options, struct groth16_keys **ret);

/* A timing-only key for the circuit's sizes and densities (a_columns,
 * b_columns, else a and b, else none); c is not used. */
int groth16_setup_timing_only(const struct groth16_setup_circuit *circuit,
                              const struct groth16_setup_options *options,
                              struct groth16_keys **ret);

struct groth16_keys *groth16_keys_free(struct groth16_keys *k);
static inline void groth16_keys_freep(struct groth16_keys **k) {
        groth16_keys_free(*k);
}
