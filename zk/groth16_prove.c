/* SPDX-License-Identifier: Apache-2.0 */
/* The Groth16 prover's stages (see groth16.h). */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "groth16.h"

#include "common/cleanup.h"
#include "groth16_partition.h"
#include "msm.h"
#include "zk/big_alloc.h"

size_t groth16_h_bases(enum groth16_h_convention conv, unsigned log_domain_size) {
        size_t n = (size_t)1 << log_domain_size;
        return conv == GROTH16_H_SNARKJS ? n : n - 1;
}

static int evaluate_one(const struct sparse_matrix *m, const fr_t *w, size_t n_vars, size_t n,
                        fr_t *out) {
        if (m->n_rows > n || m->n_cols > n_vars)
                return -EINVAL;
        sparse_mul_vector(m, w, out);
        memset(out + m->n_rows, 0, (n - m->n_rows) * sizeof(fr_t));
        return 0;
}

int groth16_evaluate(const struct groth16_constraints *cs, const fr_t *w, size_t n_vars,
                     unsigned log_domain_size, fr_t *a, fr_t *b, fr_t *c) {
        const size_t n = (size_t)1 << log_domain_size;
        int r;

        assert(cs && cs->a && cs->b);
        assert(w && a && b && c);

        r = evaluate_one(cs->a, w, n_vars, n, a);
        if (r < 0)
                return r;
        r = evaluate_one(cs->b, w, n_vars, n, b);
        if (r < 0)
                return r;
        if (cs->c)
                return evaluate_one(cs->c, w, n_vars, n, c);

#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < (int64_t)n; i++)
                fr_mul(&c[i], &a[i], &b[i]);
        return 0;
}

int groth16_domain_new(ntt_domain_t **ret, enum groth16_h_convention conv,
                       unsigned log_domain_size) {
        return ntt_domain_new(ret, log_domain_size,
                              conv == GROTH16_H_SNARKJS ? NTT_ROOTS_SNARKJS : NTT_ROOTS_BELLPERSON);
}

/* Evaluations on <omega> -> evaluations on shift<omega>, natural order both
 * ways, with no bit-reversal pass: the inverse leaves bit-reversed
 * coefficients, which the coset transform takes as they are. */
static void evaluations_to_coset(const ntt_domain_t *d, fr_t *x, const fr_t *shift) {
        ntt_inverse(d, x, NTT_ORDER_NR);
        ntt_coset_forward(d, x, shift, NTT_ORDER_RN);
}

int groth16_h_coset(enum groth16_h_convention conv, unsigned log_domain_size, fr_t *shift,
                    fr_t *z_inv) {
        assert(shift && z_inv);

        if (log_domain_size > NTT_MAX_LOG_SIZE)
                return -EINVAL;
        if (conv == GROTH16_H_SNARKJS) {
                /* The odd powers of the 2n-th root, where Z = x^n - 1 = -2. */
                ntt_snarkjs_h_shift(shift, log_domain_size);
                fr_set_one(z_inv); /* snarkjs folds 1/Z into its H bases */
        } else {
                uint64_t e[1] = {(uint64_t)1 << log_domain_size};
                fr_t one;
                fr_from_u64(shift, NTT_COSET_GENERATOR);
                /* Z(g omega^i) = g^n - 1 for every i */
                fr_pow(z_inv, shift, e, 1);
                fr_set_one(&one);
                fr_sub(z_inv, z_inv, &one);
                fr_inv(z_inv, z_inv);
        }
        return 0;
}

/* snarkjs's H: a b - c on the coset, left there (its H bases are the
 * coset's Lagrange basis, 1/Z folded in). */
static void h_snarkjs(const ntt_domain_t *d, fr_t *a, fr_t *b, fr_t *c, const fr_t *shift) {
        const int64_t n = (int64_t)d->size;

        evaluations_to_coset(d, a, shift);
        evaluations_to_coset(d, b, shift);
        evaluations_to_coset(d, c, shift);
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < n; i++) {
                fr_mul(&a[i], &a[i], &b[i]);
                fr_sub(&a[i], &a[i], &c[i]);
        }
}

/*
 * Bellperson's H: the coefficients of (A B - C) / Z, Z = g^n - 1 on the
 * coset. The way back from the coset is linear, and C (degree < n) comes
 * back from its coset values as its own coefficients, so H = (back(A B) -
 * C) / Z for any a, b, c: c needs its inverse transform alone, not the way
 * to the coset and back (six transforms instead of seven).
 */
static void h_bellperson(const ntt_domain_t *d, fr_t *a, fr_t *b, fr_t *c, const fr_t *shift,
                         const fr_t *z_inv) {
        const int64_t n = (int64_t)d->size;

        evaluations_to_coset(d, a, shift);
        evaluations_to_coset(d, b, shift);
        ntt_inverse(d, c, NTT_ORDER_NR);
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < n; i++)
                fr_mul(&a[i], &a[i], &b[i]);
        /* a and c both in bit-reversed order until the last step */
        ntt_coset_inverse(d, a, shift, NTT_ORDER_NR);
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < n; i++) {
                fr_sub(&a[i], &a[i], &c[i]);
                fr_mul(&a[i], &a[i], z_inv);
        }
        ntt_bit_reverse(a, d->log_size);
}

int groth16_compute_h(const ntt_domain_t *d, enum groth16_h_convention conv, fr_t *a, fr_t *b,
                      fr_t *c) {
        fr_t shift, z_inv;
        int r;

        assert(d && a && b && c);

        if (d->roots != (conv == GROTH16_H_SNARKJS ? NTT_ROOTS_SNARKJS : NTT_ROOTS_BELLPERSON))
                return -EINVAL;
        r = groth16_h_coset(conv, d->log_size, &shift, &z_inv);
        if (r < 0)
                return r;
        if (conv == GROTH16_H_SNARKJS)
                h_snarkjs(d, a, b, c, &shift);
        else
                h_bellperson(d, a, b, c, &shift, &z_inv);
        return 0;
}

int groth16_pk_check_density(const struct groth16_pk *pk) {
        assert(pk);
        if (pk->a_density && pk->a_density->n_wires != pk->n_vars)
                return -EINVAL;
        if (pk->b_density && pk->b_density->n_wires != pk->n_vars)
                return -EINVAL;
        return 0;
}

int groth16_density_scalars(const struct wire_density *d, const fr_t *w, fr_t **buf,
                            const fr_t **ret) {
        assert(w && buf && ret);

        *buf = NULL;
        if (!d) {
                *ret = w;
                return 0;
        }
        *buf = big_alloc((d->count ? d->count : 1) * sizeof(fr_t));
        if (!*buf)
                return -ENOMEM;
        wire_density_gather(d, w, *buf);
        *ret = *buf;
        return 0;
}

/* sum w_j P_j over the wires that have a point in `points` (all of them
 * without a density). */
static int msm_g1_wires(g1_jac_t *r, const g1_affine_t *points, const struct wire_density *d,
                        const fr_t *w, size_t n_vars, unsigned threads) {
        _cleanup_free_ fr_t *buf = NULL;
        const fr_t *scalars;
        int ret;

        ret = groth16_density_scalars(d, w, &buf, &scalars);
        if (ret < 0)
                return ret;
        return g1_msm_fr(r, points, scalars, d ? d->count : n_vars, threads);
}

int groth16_msm_g1(const struct groth16_pk *pk, const fr_t *w, const fr_t *h,
                   struct groth16_msm_results *res, unsigned threads) {
        size_t n_private;
        int r;

        assert(pk && w && h && res);
        assert(pk->n_vars > pk->n_public);
        n_private = pk->n_vars - pk->n_public - 1;

        r = groth16_pk_check_density(pk);
        if (r < 0)
                return r;
        r = msm_g1_wires(&res->a, pk->a, pk->a_density, w, pk->n_vars, threads);
        if (r < 0)
                return r;
        r = msm_g1_wires(&res->b1, pk->b1, pk->b_density, w, pk->n_vars, threads);
        if (r < 0)
                return r;
        r = g1_msm_fr(&res->l, pk->l, w + pk->n_public + 1, n_private, threads);
        if (r < 0)
                return r;
        return g1_msm_fr(&res->h, pk->h, h, groth16_h_bases(pk->h_convention, pk->log_domain_size),
                         threads);
}

int groth16_msm_b_g2(const struct groth16_pk *pk, const fr_t *w, g2_jac_t *b2, unsigned threads) {
        _cleanup_free_ fr_t *buf = NULL;
        const fr_t *scalars;
        int r;

        assert(pk && w && b2);
        r = groth16_pk_check_density(pk);
        if (r < 0)
                return r;
        r = groth16_density_scalars(pk->b_density, w, &buf, &scalars);
        if (r < 0)
                return r;
        return g2_msm_fr(b2, pk->b2, scalars, groth16_pk_b_points(pk), threads);
}

/* Uniform in [0, r): 255 random bits, rejected when >= r (p ~ 0.09). */
static int random_fr(fr_t *out) {
        uint64_t l[FR_LIMBS];

        for (;;) {
                ssize_t got = getrandom(l, sizeof(l), 0);
                if (got < 0)
                        return -errno;
                if ((size_t)got != sizeof(l))
                        return -EIO;
                l[FR_LIMBS - 1] &= (1ULL << 63) - 1;
                if (fr_from_canonical(out, l))
                        return 0;
        }
}

int groth16_random_rs(fr_t *r, fr_t *s) {
        int ret = random_fr(r);
        if (ret < 0)
                return ret;
        return random_fr(s);
}

void groth16_assemble(const struct groth16_pk *pk, const struct groth16_msm_results *res,
                      const fr_t *r, const fr_t *s, struct groth16_proof *proof) {
        g1_jac_t a, b1, c, t, delta1;
        g2_jac_t b2, delta2;
        fr_t rs;

        assert(pk && res && r && s && proof);

        g1_jac_from_affine(&delta1, &pk->delta1);
        g2_jac_from_affine(&delta2, &pk->delta2);

        /* A = alpha + sum w_i A_i + r delta */
        g1_jac_add_affine(&a, &res->a, &pk->alpha1);
        g1_jac_mul_fr(&t, &delta1, r);
        g1_jac_add(&a, &a, &t);

        /* B = beta + sum w_i B_i + s delta, in G2 and (for C) in G1 */
        g2_jac_add_affine(&b2, &res->b2, &pk->beta2);
        g2_jac_mul_fr(&delta2, &delta2, s);
        g2_jac_add(&b2, &b2, &delta2);
        g1_jac_add_affine(&b1, &res->b1, &pk->beta1);
        g1_jac_mul_fr(&t, &delta1, s);
        g1_jac_add(&b1, &b1, &t);

        /* C = L + H + s A + r B - r s delta */
        g1_jac_add(&c, &res->l, &res->h);
        g1_jac_mul_fr(&t, &a, s);
        g1_jac_add(&c, &c, &t);
        g1_jac_mul_fr(&t, &b1, r);
        g1_jac_add(&c, &c, &t);
        fr_mul(&rs, r, s);
        g1_jac_mul_fr(&t, &delta1, &rs);
        g1_jac_neg(&t, &t);
        g1_jac_add(&c, &c, &t);

        g1_jac_to_affine(&proof->a, &a);
        g2_jac_to_affine(&proof->b, &b2);
        g1_jac_to_affine(&proof->c, &c);
}

/* The stages in order, with each buffer released as soon as it is used up:
 * groth16_prove_partition() does that for any evaluator. */
int groth16_prove(const struct groth16_pk *pk, const struct groth16_constraints *cs, const fr_t *w,
                  struct groth16_proof *proof, unsigned threads) {
        assert(pk && cs && w && proof);
        return groth16_prove_partition(pk, groth16_evaluate_constraints, (void *)cs, w, proof,
                                       threads);
}
