/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Builds neptune 11's Poseidon constants for one width: round numbers,
 * Grain round constants, the MDS matrix and its inverse, the compressed
 * round constants and the sparse factorisation (POREP.md Part B §1).
 * Each arity is built once, on first use, and kept for the process.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "filecoin/poseidon/poseidon-internal.h"
#include "filecoin/poseidon/poseidon.h"

/* neptune round_numbers.rs: PRIME_BITLEN is 256 there, not Fr's 255. */
#define ROUND_NUMBERS_PRIME_BITS 256.0f
#define ROUND_NUMBERS_SECURITY_BITS 128.0f

/* Above the 60 of t = 37; bounds the stack arrays of the preprocessing. */
#define MAX_PARTIAL_ROUNDS 128u

static const unsigned supported_arities[] = {2, 4, 8, 11, 16, 24, 36};

/* log2(x) for x >= 1 without libm (filecoin_lib does not link it): the
 * integer part by halving, the rest by the atanh series of ln on [1, 2).
 * neptune evaluates it in f32; no width up to 1000 lands close enough to an
 * integer bound for the last bits to matter (the R_P table test checks). */
static double log2_of(double x) {
        double whole = 0.0, z, z2, term, sum = 0.0;

        while (x >= 2.0) {
                x /= 2.0;
                whole += 1.0;
        }
        z = (x - 1.0) / (x + 1.0);
        z2 = z * z;
        term = z;
        for (unsigned k = 1; k < 60; k += 2) {
                sum += term / k;
                term *= z2;
        }
        return whole + 2.0 * sum / 0.69314718055994530942;
}

/* ceilf for the small magnitudes here (|x| < 2^31). */
static float ceil_of(float x) {
        float whole = (float)(long)x;
        return whole < x ? whole + 1.0f : whole;
}

/* The Poseidon paper's inequalities, evaluated in f32 as neptune does. */
static bool round_numbers_are_secure(unsigned width, unsigned rf, unsigned rp) {
        const float n = ROUND_NUMBERS_PRIME_BITS, m = ROUND_NUMBERS_SECURITY_BITS;
        const float t = (float)width, p = (float)rp;
        float bounds[4];
        unsigned rf_max = 0;

        bounds[0] = m <= (n - 3.0f) * (t + 1.0f) ? 6.0f : 10.0f;
        bounds[1] = 0.43f * m + (float)log2_of(t) - p;
        bounds[2] = 0.21f * n - p;
        bounds[3] = (0.14f * n - 1.0f - p) / (t - 1.0f);
        for (unsigned i = 0; i < 4; i++) {
                float c = ceil_of(bounds[i]);
                /* Rust's `as usize` saturates negatives to 0. */
                unsigned u = c > 0.0f ? (unsigned)c : 0u;
                if (u > rf_max)
                        rf_max = u;
        }
        return rf >= rf_max;
}

/* The cheapest secure (R_F, R_P), then R_F + 2 and R_P * 1.075 rounded up. */
static void calc_round_numbers(unsigned width, unsigned *ret_rf, unsigned *ret_rp) {
        unsigned best_rf = 0, best_rp = 0, best_sboxes = UINT32_MAX;

        for (unsigned rf_test = 2; rf_test <= 1000; rf_test += 2)
                for (unsigned rp_test = 4; rp_test < 200; rp_test++) {
                        if (!round_numbers_are_secure(width, rf_test, rp_test))
                                continue;
                        unsigned rf = rf_test + 2;
                        unsigned rp = (unsigned)ceil_of(1.075f * (float)rp_test);
                        unsigned sboxes = width * rf + rp;
                        if (sboxes < best_sboxes || (sboxes == best_sboxes && rf < best_rf)) {
                                best_rf = rf;
                                best_rp = rp;
                                best_sboxes = sboxes;
                        }
                }
        *ret_rf = best_rf;
        *ret_rp = best_rp;
}

unsigned poseidon_partial_rounds(unsigned width) {
        unsigned rf, rp;

        assert(width >= 2);
        calc_round_numbers(width, &rf, &rp);
        return rp;
}

static void constants_free(struct poseidon_constants *c) {
        if (!c)
                return;
        if (c->sparse)
                for (unsigned k = 0; k < c->partial_rounds; k++) {
                        free(c->sparse[k].w_hat);
                        free(c->sparse[k].v);
                }
        free(c->sparse);
        free(c->round_constants);
        free(c->compressed);
        free(c->mds);
        free(c->mds_inv);
        free(c->pre_sparse);
        free(c);
}

static void constants_freep(struct poseidon_constants **c) {
        constants_free(*c);
}

static int constants_alloc(unsigned arity, unsigned rf, unsigned rp,
                           struct poseidon_constants **ret) {
        struct poseidon_constants *c = calloc(1, sizeof(*c));
        unsigned t = arity + 1;

        if (!c)
                return -ENOMEM;
        *ret = c;
        c->arity = arity;
        c->width = t;
        c->full_rounds = rf;
        c->partial_rounds = rp;
        c->n_round_constants = (size_t)(rf + rp) * t;
        c->n_compressed = (size_t)t * rf + rp;
        c->round_constants = calloc(c->n_round_constants, sizeof(fr_t));
        c->compressed = calloc(c->n_compressed, sizeof(fr_t));
        c->mds = calloc((size_t)t * t, sizeof(fr_t));
        c->mds_inv = calloc((size_t)t * t, sizeof(fr_t));
        c->pre_sparse = calloc((size_t)t * t, sizeof(fr_t));
        c->sparse = calloc(rp, sizeof(*c->sparse));
        if (!c->round_constants || !c->compressed || !c->mds || !c->mds_inv || !c->pre_sparse ||
            !c->sparse)
                return -ENOMEM;
        for (unsigned k = 0; k < rp; k++) {
                c->sparse[k].w_hat = calloc(t, sizeof(fr_t));
                c->sparse[k].v = calloc(t - 1, sizeof(fr_t));
                if (!c->sparse[k].w_hat || !c->sparse[k].v)
                        return -ENOMEM;
        }
        return 0;
}

/* Appends rk * M^-1 (a constant added after mixing, moved before it). */
static void push_times_mds_inv(const struct poseidon_constants *c, const fr_t *rk, size_t *at) {
        fr_vector_times_matrix(&c->compressed[*at], rk, c->mds_inv, c->width);
        *at += c->width;
}

/* neptune preprocessing.rs::compress_round_constants. */
static void compress_round_constants(struct poseidon_constants *c) {
        const unsigned t = c->width, half = c->full_rounds / 2, rp = c->partial_rounds;
        const fr_t *rk = c->round_constants; /* round r's constants: &rk[r * t] */
        fr_t acc[POSEIDON_MAX_WIDTH], inv[POSEIDON_MAX_WIDTH];
        fr_t partial[MAX_PARTIAL_ROUNDS];
        size_t at = 0;

        assert(rp <= ELEMENTSOF(partial));

        memcpy(c->compressed, rk, sizeof(fr_t) * t);
        at = t;
        for (unsigned r = 1; r < half; r++)
                push_times_mds_inv(c, &rk[r * t], &at);

        /* Walk the partial rounds backwards, keeping only s[0]'s constant in
         * each and pushing the rest through the mixing before it. */
        memcpy(acc, &rk[(size_t)(half + rp) * t], sizeof(fr_t) * t);
        for (unsigned i = 0; i < rp; i++) {
                fr_vector_times_matrix(inv, acc, c->mds_inv, t);
                partial[i] = inv[0];
                fr_set_zero(&inv[0]);
                for (unsigned j = 0; j < t; j++)
                        fr_add(&acc[j], &rk[(size_t)(half + rp - 1 - i) * t + j], &inv[j]);
        }
        push_times_mds_inv(c, acc, &at);
        for (unsigned i = 0; i < rp; i++)
                c->compressed[at++] = partial[rp - 1 - i];
        for (unsigned r = 1; r < half; r++)
                push_times_mds_inv(c, &rk[(size_t)(half + rp + r) * t], &at);
        assert(at == c->n_compressed);
}

/* One step of neptune mds.rs::factor_to_sparse_matrices: from cur, the
 * sparse M'' (stored in *out) and M' (returned in prime). */
static int derive_sparse(unsigned t, const fr_t *cur, struct poseidon_sparse *out, fr_t *prime) {
        const unsigned h = t - 1;
        _cleanup_free_ fr_t *m_hat = calloc((size_t)h * h, sizeof(fr_t));
        _cleanup_free_ fr_t *m_hat_inv = malloc(sizeof(fr_t) * h * h);
        fr_t w[POSEIDON_MAX_WIDTH];
        int r;

        if (!m_hat || !m_hat_inv)
                return -ENOMEM;
        for (unsigned i = 0; i < h; i++) {
                w[i] = cur[(i + 1) * t];
                for (unsigned j = 0; j < h; j++)
                        m_hat[i * h + j] = cur[(i + 1) * t + j + 1];
        }
        r = fr_matrix_invert(m_hat_inv, m_hat, h);
        if (r < 0)
                return r;

        /* M'': row 0 = cur[0], row i = [w_hat[i-1], e_i], w_hat = w * m_hat^-1. */
        out->w_hat[0] = cur[0];
        fr_vector_times_matrix(&out->w_hat[1], w, m_hat_inv, h);
        memcpy(out->v, &cur[1], sizeof(fr_t) * h);

        /* M': row 0 = e_0, row i = [0, cur[i][1..]]. */
        for (unsigned i = 0; i < t; i++)
                for (unsigned j = 0; j < t; j++) {
                        if (i == 0 || j == 0)
                                (i == j ? fr_set_one : fr_set_zero)(&prime[i * t + j]);
                        else
                                prime[i * t + j] = cur[i * t + j];
                }
        return 0;
}

static int factor_to_sparse_matrices(struct poseidon_constants *c) {
        const unsigned t = c->width, rp = c->partial_rounds;
        _cleanup_free_ fr_t *cur = malloc(sizeof(fr_t) * t * t);
        _cleanup_free_ fr_t *prime = malloc(sizeof(fr_t) * t * t);
        int r;

        if (!cur || !prime)
                return -ENOMEM;
        memcpy(cur, c->mds, sizeof(fr_t) * t * t);
        /* The k-th matrix derived is used by the (R_P - 1 - k)-th partial round. */
        for (unsigned k = 0; k < rp; k++) {
                r = derive_sparse(t, cur, &c->sparse[rp - 1 - k], prime);
                if (r < 0)
                        return r;
                fr_matrix_mul(cur, c->mds, prime, t);
        }
        memcpy(c->pre_sparse, cur, sizeof(fr_t) * t * t);
        return 0;
}

static int constants_build(unsigned arity, struct poseidon_constants **ret) {
        _cleanup_(constants_freep) struct poseidon_constants *c = NULL;
        unsigned rf, rp;
        int r;

        calc_round_numbers(arity + 1, &rf, &rp);
        if (rf != POSEIDON_FULL_ROUNDS || rp > MAX_PARTIAL_ROUNDS)
                return -EDOM;
        r = constants_alloc(arity, rf, rp, &c);
        if (r < 0)
                return r;

        /* 2^arity - 1 (HashType::MerkleTree). */
        fr_from_u64(&c->domain_tag, (UINT64_C(1) << arity) - 1);
        poseidon_grain_round_constants(c->width, rf, rp, c->round_constants, c->n_round_constants);
        fr_matrix_cauchy(c->mds, c->width);
        r = fr_matrix_invert(c->mds_inv, c->mds, c->width);
        if (r < 0)
                return r;
        compress_round_constants(c);
        r = factor_to_sparse_matrices(c);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(c);
        return 0;
}

static pthread_mutex_t constants_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(struct poseidon_constants *) constants_table[ELEMENTSOF(supported_arities)];

const struct poseidon_constants *poseidon_constants(unsigned arity) {
        struct poseidon_constants *c;
        size_t slot = 0;

        while (slot < ELEMENTSOF(supported_arities) && supported_arities[slot] != arity)
                slot++;
        if (slot == ELEMENTSOF(supported_arities))
                return NULL;

        c = atomic_load_explicit(&constants_table[slot], memory_order_acquire);
        if (c)
                return c;

        pthread_mutex_lock(&constants_lock);
        c = atomic_load_explicit(&constants_table[slot], memory_order_relaxed);
        if (!c && constants_build(arity, &c) >= 0)
                atomic_store_explicit(&constants_table[slot], c, memory_order_release);
        pthread_mutex_unlock(&constants_lock);
        return c;
}
