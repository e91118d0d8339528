/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Groth16 over BLS12-381 on the CPU, as stages that the daemon and the CUDA
 * backend reuse:
 *
 *   groth16_evaluate   a = A w, b = B w, c = C w (or a o b) on the domain
 *   groth16_compute_h  the quotient's scalars, snarkjs's or bellperson's way
 *   groth16_msm_g1     A, B_G1, L and H multi-scalar multiplications
 *   groth16_msm_b_g2   the B_G2 MSM (the CPU "tail" of the split prover)
 *   groth16_assemble   the proof from the MSMs, alpha/beta/delta and r, s
 *
 * groth16_prove runs them in order. The witness w holds the constant 1 at
 * index 0, then the n_public public inputs, then the private wires.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "density.h"
#include "fr.h"
#include "g1.h"
#include "g2.h"
#include "ntt.h"
#include "sparse.h"

/* How the SRS's H bases were made, which fixes how H's scalars are computed. */
enum groth16_h_convention {
        /* snarkjs .zkey: domain_size bases, for the evaluations of
         * a*b - c on the odd coset of the 2n-th roots (Z there is -2, folded
         * into the bases); snarkjs's root of unity. */
        GROTH16_H_SNARKJS,
        /* bellperson .params: domain_size - 1 bases tau^i Z(tau) / delta, for
         * the coefficients of (a*b - c) / Z computed on the coset 7<omega>;
         * ff's root of unity. */
        GROTH16_H_BELLPERSON,
};

/* A proving key. Arrays are borrowed: the caller owns (or maps) them. */
struct groth16_pk {
        enum groth16_h_convention h_convention;
        size_t n_vars;   /* witness length, including the constant 1 */
        size_t n_public; /* public inputs, not counting the constant */
        unsigned log_domain_size;
        g1_affine_t alpha1, beta1, delta1;
        g2_affine_t beta2, delta2;
        const g1_affine_t *a;  /* groth16_pk_a_points(pk) */
        const g1_affine_t *b1; /* groth16_pk_b_points(pk) */
        const g2_affine_t *b2; /* groth16_pk_b_points(pk) */
        const g1_affine_t *l;  /* n_vars - n_public - 1: private wires */
        const g1_affine_t *h;  /* groth16_h_bases(pk) */
        /*
         * The wires a holds points for (a_density), and b1 and b2
         * (b_density), in wire order: NULL when they hold one per wire
         * (snarkjs and cuzk's own files store the point at infinity), else
         * the circuit's density (zk/density.h), as bellperson's parameters
         * need. Borrowed like the arrays.
         */
        const struct wire_density *a_density, *b_density;
};

static inline size_t groth16_pk_a_points(const struct groth16_pk *pk) {
        return pk->a_density ? pk->a_density->count : pk->n_vars;
}

static inline size_t groth16_pk_b_points(const struct groth16_pk *pk) {
        return pk->b_density ? pk->b_density->count : pk->n_vars;
}

/* -EINVAL when a density does not cover the key's n_vars wires. */
int groth16_pk_check_density(const struct groth16_pk *pk);

/*
 * The scalars that meet a (b1, b2): w itself without a density, else the
 * set wires' values gathered into *buf (allocated here; free it). Returns
 * 0 or -ENOMEM.
 */
int groth16_density_scalars(const struct wire_density *d, const fr_t *w, fr_t **buf,
                            const fr_t **ret);

struct groth16_vk {
        uint32_t n_public;
        g1_affine_t alpha1;
        g2_affine_t beta2, gamma2, delta2;
        g1_affine_t *ic; /* n_public + 1 */
        /*
         * e(alpha1, beta2), which snarkjs's vk.json carries as
         * vk_alphabeta_12 nested [c0 c1 of Fp12][c0 c1 c2 of Fp6][c0 c1 of
         * Fp2]. The verifier recomputes it; has_alphabeta says whether a
         * file supplied it (so that it can be written back).
         */
        bool has_alphabeta;
        fp_t alphabeta[2][3][2];
};

struct groth16_proof {
        g1_affine_t a;
        g2_affine_t b;
        g1_affine_t c;
};

/* The constraint system as the prover evaluates it: n_rows <= domain size
 * rows (public-input binding rows included). c may be NULL: then c = a o b,
 * which snarkjs uses and which holds for every satisfying witness. */
struct groth16_constraints {
        const struct sparse_matrix *a, *b, *c;
};

/* The results of the MSM stage, before randomization. */
struct groth16_msm_results {
        g1_jac_t a, b1, l, h;
        g2_jac_t b2;
};

/* Number of H bases the convention uses for a domain of 2^log points. */
size_t groth16_h_bases(enum groth16_h_convention conv, unsigned log_domain_size);

/* Evaluations of A w, B w and C w (a o b when cs->c is NULL), zero beyond the
 * constraint rows; a, b, c hold 2^log_domain_size elements. Returns 0 or
 * -EINVAL when a matrix has more rows than the domain or reads past w. */
int groth16_evaluate(const struct groth16_constraints *cs, const fr_t *w, size_t n_vars,
                     unsigned log_domain_size, fr_t *a, fr_t *b, fr_t *c);

/* Turns the evaluations into H's scalars, left in a (groth16_h_bases(...)
 * of them); b and c are clobbered. d must match the convention's roots. */
int groth16_compute_h(const ntt_domain_t *d, enum groth16_h_convention conv, fr_t *a, fr_t *b,
                      fr_t *c);

/* The coset on which the convention evaluates a*b - c, and 1/Z there (one
 * for snarkjs, whose H bases carry it). Shared with the GPU backend. */
int groth16_h_coset(enum groth16_h_convention conv, unsigned log_domain_size, fr_t *shift,
                    fr_t *z_inv);

/* The domain the convention needs for 2^log points (callers keep it). */
int groth16_domain_new(ntt_domain_t **ret, enum groth16_h_convention conv,
                       unsigned log_domain_size);

int groth16_msm_g1(const struct groth16_pk *pk, const fr_t *w, const fr_t *h,
                   struct groth16_msm_results *res, unsigned threads);
int groth16_msm_b_g2(const struct groth16_pk *pk, const fr_t *w, g2_jac_t *b2, unsigned threads);

/* Fresh r, s from getrandom(2). Returns 0 or a negative errno. */
int groth16_random_rs(fr_t *r, fr_t *s);

void groth16_assemble(const struct groth16_pk *pk, const struct groth16_msm_results *res,
                      const fr_t *r, const fr_t *s, struct groth16_proof *proof);

/* All stages. Returns 0, -EINVAL (sizes that do not fit), -ENOMEM or the
 * error of getrandom. threads: 0 for zk_thread_count(). */
int groth16_prove(const struct groth16_pk *pk, const struct groth16_constraints *cs, const fr_t *w,
                  struct groth16_proof *proof, unsigned threads);

/* e(A, B) == e(alpha, beta) e(sum public_i IC_i, gamma) e(C, delta), public
 * holding vk->n_public inputs (without the constant 1). Points must be on
 * the curve and in the subgroup (decoders check that). Returns 1 for a valid
 * proof, 0 for an invalid one, -ENOMEM. */
int groth16_verify(const struct groth16_vk *vk, const fr_t *public_inputs,
                   const struct groth16_proof *proof);
