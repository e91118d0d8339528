/* SPDX-License-Identifier: Apache-2.0 */
/* Groth16 key generation from the toxic waste (see groth16_setup.h). */
#include "groth16_setup.h"

#include <assert.h>
#include <errno.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "big_alloc.h"
#include "common/cleanup.h"
#include "fixed_base.h"
#include "groth16_setup_internal.h"
#include "parallel.h"

int groth16_toxic_waste_random(struct groth16_toxic_waste *ret) {
        fr_t spare;
        int r;

        assert(ret);
        /* groth16_random_rs() draws two uniform elements from getrandom(2). */
        r = groth16_random_rs(&ret->tau, &ret->alpha);
        if (r < 0)
                return r;
        r = groth16_random_rs(&ret->beta, &ret->gamma);
        if (r < 0)
                return r;
        return groth16_random_rs(&ret->delta, &spare);
}

/* splitmix64: a seed of any length stretched into reproducible words. */
static uint64_t seed_next(uint64_t *state) {
        uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
}

/* Non-zero, uniform in [1, r): 255 bits, rejected when >= r or zero. */
static void seed_fr(fr_t *out, uint64_t *state) {
        for (;;) {
                uint64_t l[FR_LIMBS];

                for (int i = 0; i < FR_LIMBS; i++)
                        l[i] = seed_next(state);
                l[FR_LIMBS - 1] &= (1ULL << 63) - 1;
                if (fr_from_canonical(out, l) && !fr_is_zero(out))
                        return;
        }
}

void groth16_toxic_waste_from_seed(struct groth16_toxic_waste *ret, const uint8_t *seed,
                                   size_t seed_bytes) {
        uint64_t state = 0x63757a6b73657475ULL; /* "cuzksetu" */

        assert(ret);
        assert(seed || seed_bytes == 0);
        for (size_t i = 0; i < seed_bytes; i++) {
                state ^= seed[i];
                (void)seed_next(&state);
        }
        seed_fr(&ret->tau, &state);
        seed_fr(&ret->alpha, &state);
        seed_fr(&ret->beta, &state);
        seed_fr(&ret->gamma, &state);
        seed_fr(&ret->delta, &state);
}

static int check_matrix(const struct sparse_matrix *m, const struct groth16_setup_circuit *c) {
        if (!m)
                return -EINVAL;
        if (m->n_rows > (size_t)1 << c->log_domain_size || m->n_cols > c->n_vars)
                return -EINVAL;
        return 0;
}

int groth16_setup_check_circuit(const struct groth16_setup_circuit *circuit, bool need_matrices) {
        assert(circuit);

        if (circuit->log_domain_size < 1 || circuit->log_domain_size > NTT_MAX_LOG_SIZE)
                return -EINVAL;
        /* The .params counts are u32, and the vk's IC count is n_public + 1. */
        if (circuit->n_vars < circuit->n_public + 1 || circuit->n_vars > UINT32_MAX)
                return -EINVAL;
        if (!need_matrices)
                return 0;
        if (check_matrix(circuit->a, circuit) < 0 || check_matrix(circuit->b, circuit) < 0 ||
            check_matrix(circuit->c, circuit) < 0)
                return -EINVAL;
        return 0;
}

struct groth16_keys *groth16_keys_free(struct groth16_keys *k) {
        if (!k)
                return NULL;
        free(k->a);
        free(k->b1);
        free(k->b2);
        free(k->l);
        free(k->h);
        free(k->ic);
        free(k);
        return NULL;
}

/* The point arrays, at least one element each so that NULL only means failure. */
static int keys_alloc_arrays(struct groth16_keys *k, size_t n_vars, size_t n_public, size_t n_h) {
        const size_t n_private = n_vars - n_public - 1;

        k->a = big_alloc(n_vars * sizeof(g1_affine_t));
        k->b1 = big_alloc(n_vars * sizeof(g1_affine_t));
        k->b2 = big_alloc(n_vars * sizeof(g2_affine_t));
        k->l = big_alloc((n_private ? n_private : 1) * sizeof(g1_affine_t));
        k->h = big_alloc((n_h ? n_h : 1) * sizeof(g1_affine_t));
        k->ic = big_alloc((n_public + 1) * sizeof(g1_affine_t));
        return k->a && k->b1 && k->b2 && k->l && k->h && k->ic ? 0 : -ENOMEM;
}

static int keys_alloc(const struct groth16_setup_circuit *circuit, enum groth16_h_convention conv,
                      struct groth16_keys **ret) {
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        size_t n_h;
        int r;

        assert(circuit);
        assert(ret);

        n_h = groth16_h_bases(conv, circuit->log_domain_size);
        k = calloc(1, sizeof(*k));
        if (!k)
                return -ENOMEM;
        r = keys_alloc_arrays(k, circuit->n_vars, circuit->n_public, n_h);
        if (r < 0)
                return r;

        k->pk = (struct groth16_pk){
                .h_convention = conv,
                .n_vars = circuit->n_vars,
                .n_public = circuit->n_public,
                .log_domain_size = circuit->log_domain_size,
                .a = k->a,
                .b1 = k->b1,
                .b2 = k->b2,
                .l = k->l,
                .h = k->h,
        };
        k->vk = (struct groth16_vk){
                .n_public = (uint32_t)circuit->n_public,
                .ic = k->ic,
        };
        *ret = TAKE_PTR(k);
        return 0;
}

int groth16_keys_alloc(const struct groth16_setup_circuit *circuit, struct groth16_keys **ret) {
        return keys_alloc(circuit, GROTH16_H_BELLPERSON, ret);
}

/* Thread t's share [first, end) of n items split into nt ranges. */
static void thread_range(size_t n, size_t *first, size_t *end) {
        size_t t = (size_t)omp_get_thread_num(), nt = (size_t)omp_get_num_threads();

        *first = n * t / nt;
        *end = n * (t + 1) / nt;
}

/* scale = (tau^N - 1) / N for N = 2^log_size; -EINVAL when tau^N = 1, i.e.
 * tau is a point of the domain. */
static int vanishing_scale(fr_t *scale, const fr_t *tau, unsigned log_size) {
        const uint64_t n = UINT64_C(1) << log_size;
        fr_t z, one;

        fr_set_one(&one);
        fr_pow(&z, tau, &n, 1);
        fr_sub(&z, &z, &one);
        if (fr_is_zero(&z))
                return -EINVAL;
        fr_from_u64(scale, n);
        fr_inv(scale, scale);
        fr_mul(scale, scale, &z);
        return 0;
}

/*
 * out[i] = scale x_i / (tau - x_i) for the points x_i = shift omega^i,
 * i < m: Lagrange basis values at tau when scale = Z(tau) / N. Each thread
 * inverts its range of denominators with one inversion (Montgomery's
 * trick), keeping the prefix products in out.
 */
static void lagrange_points_at_tau(fr_t *out, size_t m, const fr_t *omega, const fr_t *shift,
                                   const fr_t *scale, const fr_t *tau, unsigned threads) {
        fr_t omega_inv;

        fr_inv(&omega_inv, omega);
#pragma omp parallel num_threads(threads)
        {
                size_t first, end;
                uint64_t e;
                fr_t acc, inv, w;

                thread_range(m, &first, &end);
                e = first;
                fr_pow(&w, omega, &e, 1);
                fr_mul(&w, &w, shift);
                fr_set_one(&acc);
                for (size_t i = first; i < end; i++) {
                        fr_t d;

                        out[i] = acc;
                        fr_sub(&d, tau, &w);
                        fr_mul(&acc, &acc, &d);
                        fr_mul(&w, &w, omega);
                }
                fr_inv(&inv, &acc);
                for (size_t i = end; i-- > first;) {
                        fr_t d, d_inv;

                        fr_mul(&w, &w, &omega_inv); /* shift omega^i */
                        fr_sub(&d, tau, &w);
                        fr_mul(&d_inv, &inv, &out[i]);
                        fr_mul(&inv, &inv, &d);
                        fr_mul(&d_inv, &d_inv, &w);
                        fr_mul(&out[i], &d_inv, scale);
                }
        }
}

/* L_i(tau) = Z(tau) omega^i / (n (tau - omega^i)) for i < m on the domain of
 * the convention's roots. -EINVAL when tau is a point of the domain. */
static int lagrange_at_tau(fr_t *out, size_t m, unsigned log_n, enum groth16_h_convention conv,
                           const fr_t *tau, unsigned threads) {
        fr_t omega, scale, one;
        int r;

        r = vanishing_scale(&scale, tau, log_n);
        if (r < 0)
                return r;
        ntt_root_of_unity(&omega, log_n,
                          conv == GROTH16_H_SNARKJS ? NTT_ROOTS_SNARKJS : NTT_ROOTS_BELLPERSON);
        fr_set_one(&one);
        lagrange_points_at_tau(out, m, &omega, &one, &scale, tau, threads);
        return 0;
}

/* out[j] += sum over rows i of m_ij lagrange[i], for the columns [c0, c1) only. */
static void qap_columns(const struct sparse_matrix *m, const fr_t *lagrange, fr_t *out, size_t c0,
                        size_t c1) {
        const size_t width = c1 - c0;

        for (uint32_t i = 0; i < m->n_rows; i++)
                for (uint64_t k = m->row_start[i]; k < m->row_start[i + 1]; k++) {
                        size_t col = m->col[k];
                        fr_t t;

                        if (col - c0 >= width) /* unsigned: also col < c0 */
                                continue;
                        if (fr_is_one(&m->coeff[k])) {
                                fr_add(&out[col], &out[col], &lagrange[i]);
                                continue;
                        }
                        fr_mul(&t, &m->coeff[k], &lagrange[i]);
                        fr_add(&out[col], &out[col], &t);
                }
}

/*
 * Column bounds that give each of `parts` ranges about the same number of
 * terms of A, B and C together: bounds[p] .. bounds[p + 1].
 */
static int qap_column_bounds(const struct sparse_matrix *const m[3], size_t n_vars, unsigned parts,
                             size_t *bounds) {
        _cleanup_free_ uint64_t *count = calloc(n_vars, sizeof(uint64_t));
        uint64_t total = 0, seen = 0;
        unsigned p = 1;

        if (!count)
                return -ENOMEM;
        for (int s = 0; s < 3; s++) {
#pragma omp parallel for schedule(static)
                for (uint64_t k = 0; k < sparse_n_terms(m[s]); k++) {
#pragma omp atomic
                        count[m[s]->col[k]]++;
                }
                total += sparse_n_terms(m[s]);
        }
        bounds[0] = 0;
        for (size_t j = 0; j < n_vars && p < parts; j++) {
                seen += count[j];
                while (p < parts && seen * parts >= total * p)
                        bounds[p++] = j + 1;
        }
        while (p <= parts)
                bounds[p++] = n_vars;
        return 0;
}

/*
 * u, v, w (A, B, C times the Lagrange basis): the transpose of the
 * evaluation the prover does. Each thread owns a range of columns and scans
 * every term, so no two threads write one element and nothing is copied.
 */
/* u, v, w at tau: A, B, C's columns times the Lagrange basis. */
struct qap_vectors {
        fr_t *u, *v, *w;
};

static void qap_vectors_free(struct qap_vectors *q) {
        free(q->u);
        free(q->v);
        free(q->w);
        *q = (struct qap_vectors){0};
}

static int qap_vectors_alloc(struct qap_vectors *q, size_t n_vars) {
        q->u = malloc(n_vars * sizeof(fr_t));
        q->v = malloc(n_vars * sizeof(fr_t));
        q->w = malloc(n_vars * sizeof(fr_t));
        return q->u && q->v && q->w ? 0 : -ENOMEM;
}

/*
 * u, v, w (A, B, C times the Lagrange basis): the transpose of the
 * evaluation the prover does. Each thread owns a range of columns and scans
 * every term, so no two threads write one element and nothing is copied.
 */
static int qap_columns_at_tau(const struct groth16_setup_circuit *c, const fr_t *lagrange,
                              struct qap_vectors *q, unsigned threads) {
        const struct sparse_matrix *const m[3] = {c->a, c->b, c->c};
        fr_t *const out[3] = {q->u, q->v, q->w};
        _cleanup_free_ size_t *bounds = malloc((threads + 1) * sizeof(size_t));
        int r;

        if (!bounds)
                return -ENOMEM;
        r = qap_column_bounds(m, c->n_vars, threads, bounds);
        if (r < 0)
                return r;

#pragma omp parallel for num_threads(threads) schedule(static, 1)
        for (unsigned p = 0; p < threads; p++) {
                for (int s = 0; s < 3; s++) {
                        for (size_t j = bounds[p]; j < bounds[p + 1]; j++)
                                fr_set_zero(&out[s][j]);
                        qap_columns(m[s], lagrange, out[s], bounds[p], bounds[p + 1]);
                }
        }
        return 0;
}

static size_t max_rows(const struct groth16_setup_circuit *c) {
        size_t m = c->a->n_rows;

        if (c->b->n_rows > m)
                m = c->b->n_rows;
        if (c->c->n_rows > m)
                m = c->c->n_rows;
        return m;
}

/* q = the Lagrange basis at tau through A, B, C. */
static int qap_at_tau(const struct groth16_setup_circuit *c, enum groth16_h_convention conv,
                      const fr_t *tau, struct qap_vectors *q, const struct groth16_setup_options *o,
                      unsigned threads) {
        const size_t rows = max_rows(c);
        _cleanup_free_ fr_t *lagrange = malloc((rows ? rows : 1) * sizeof(fr_t));
        int r;

        if (!lagrange)
                return -ENOMEM;
        groth16_setup_progress(o, "Lagrange basis at tau");
        r = lagrange_at_tau(lagrange, rows, c->log_domain_size, conv, tau, threads);
        if (r < 0)
                return r;
        groth16_setup_progress(o, "u, v, w at tau");
        return qap_columns_at_tau(c, lagrange, q, threads);
}

/* s_j = (beta u_j + alpha v_j + w_j) / (gamma for j <= n_public, else delta), into w. */
static void ic_l_scalars(const struct groth16_setup_circuit *c,
                         const struct groth16_toxic_waste *tw, const fr_t *u, const fr_t *v,
                         fr_t *w) {
        fr_t gamma_inv, delta_inv;

        fr_inv(&gamma_inv, &tw->gamma);
        fr_inv(&delta_inv, &tw->delta);
#pragma omp parallel for schedule(static)
        for (size_t j = 0; j < c->n_vars; j++) {
                fr_t t;

                fr_mul(&t, &tw->beta, &u[j]);
                fr_add(&w[j], &w[j], &t);
                fr_mul(&t, &tw->alpha, &v[j]);
                fr_add(&w[j], &w[j], &t);
                fr_mul(&w[j], &w[j], j <= c->n_public ? &gamma_inv : &delta_inv);
        }
}

/* Bellperson's h_i = tau^i Z(tau) / delta, i < n - 1. */
static void h_scalars(fr_t *out, size_t n_h, unsigned log_n, const struct groth16_toxic_waste *tw,
                      unsigned threads) {
        const uint64_t n = UINT64_C(1) << log_n;
        fr_t z, one;

        fr_set_one(&one);
        fr_pow(&z, &tw->tau, &n, 1);
        fr_sub(&z, &z, &one);
        fr_inv(&one, &tw->delta);
        fr_mul(&z, &z, &one);

#pragma omp parallel num_threads(threads)
        {
                size_t first, end;
                uint64_t e;
                fr_t p;

                thread_range(n_h, &first, &end);
                e = first;
                fr_pow(&p, &tw->tau, &e, 1);
                fr_mul(&p, &p, &z);
                for (size_t i = first; i < end; i++) {
                        out[i] = p;
                        fr_mul(&p, &p, &tw->tau);
                }
        }
}

static size_t count_nonzero(const fr_t *x, size_t n) {
        size_t count = 0;

#pragma omp parallel for schedule(static) reduction(+ : count)
        for (size_t i = 0; i < n; i++)
                count += !fr_is_zero(&x[i]);
        return count;
}

/* The G1 table and alpha1, beta1, delta1. The table is sized for the
 * scalars that cost something: zeros (wires absent from A or B, most of
 * B in a PoRep-shaped circuit) are all-zero digits. */
static int setup_g1_table(struct g1_fixed_base **ret, struct groth16_keys *k,
                          const struct groth16_setup_circuit *c,
                          const struct groth16_toxic_waste *tw, const struct qap_vectors *q,
                          unsigned threads) {
        const size_t n_h = groth16_h_bases(k->pk.h_convention, c->log_domain_size);
        const fr_t secrets[3] = {tw->alpha, tw->beta, tw->delta};
        g1_affine_t secret_points[3];
        int r;

        const size_t n_scalars =
                count_nonzero(q->u, c->n_vars) + count_nonzero(q->v, c->n_vars) + c->n_vars + n_h;

        r = g1_fixed_base_new(ret, &G1_GENERATOR, n_scalars, threads);
        if (r < 0)
                return r;
        r = g1_fixed_base_mul(*ret, secret_points, secrets, 3, threads);
        if (r < 0)
                return r;
        k->pk.alpha1 = k->vk.alpha1 = secret_points[0];
        k->pk.beta1 = secret_points[1];
        k->pk.delta1 = secret_points[2];
        return 0;
}

/* a, b1, ic and l; q->w becomes the ic/l scalars. */
static int setup_g1_wires(const struct g1_fixed_base *g1, struct groth16_keys *k,
                          const struct groth16_setup_circuit *c,
                          const struct groth16_toxic_waste *tw, struct qap_vectors *q,
                          const struct groth16_setup_options *o, unsigned threads) {
        int r;

        groth16_setup_progress(o, "a");
        r = g1_fixed_base_mul(g1, k->a, q->u, c->n_vars, threads);
        if (r < 0)
                return r;
        groth16_setup_progress(o, "b_g1");
        r = g1_fixed_base_mul(g1, k->b1, q->v, c->n_vars, threads);
        if (r < 0)
                return r;
        groth16_setup_progress(o, "ic and l");
        ic_l_scalars(c, tw, q->u, q->v, q->w);
        r = g1_fixed_base_mul(g1, k->ic, q->w, c->n_public + 1, threads);
        if (r < 0)
                return r;
        return g1_fixed_base_mul(g1, k->l, q->w + c->n_public + 1, c->n_vars - c->n_public - 1,
                                 threads);
}

/*
 * snarkjs's h_i = L'_{2i+1}(tau) / delta, i < n: the Lagrange basis of the
 * 2n-domain at its odd points x_i = omega_2n omega_n^i, the coset on which
 * its prover evaluates a*b - c (groth16_h_coset()). -EINVAL when tau^2n = 1.
 */
static int snarkjs_h_scalars(fr_t *out, unsigned log_n, const struct groth16_toxic_waste *tw,
                             unsigned threads) {
        fr_t omega, shift, scale, delta_inv;
        int r;

        r = vanishing_scale(&scale, &tw->tau, log_n + 1);
        if (r < 0)
                return r;
        fr_inv(&delta_inv, &tw->delta);
        fr_mul(&scale, &scale, &delta_inv);
        ntt_root_of_unity(&omega, log_n, NTT_ROOTS_SNARKJS);
        ntt_snarkjs_h_shift(&shift, log_n);
        lagrange_points_at_tau(out, (size_t)1 << log_n, &omega, &shift, &scale, &tw->tau, threads);
        return 0;
}

static int setup_g1_h(const struct g1_fixed_base *g1, struct groth16_keys *k,
                      const struct groth16_setup_circuit *c, const struct groth16_toxic_waste *tw,
                      const struct groth16_setup_options *o, unsigned threads) {
        const size_t n_h = groth16_h_bases(k->pk.h_convention, c->log_domain_size);
        _cleanup_free_ fr_t *hs = malloc((n_h ? n_h : 1) * sizeof(fr_t));
        int r;

        if (!hs)
                return -ENOMEM;
        groth16_setup_progress(o, "h");
        if (k->pk.h_convention == GROTH16_H_SNARKJS) {
                r = snarkjs_h_scalars(hs, c->log_domain_size, tw, threads);
                if (r < 0)
                        return r;
        } else
                h_scalars(hs, n_h, c->log_domain_size, tw, threads);
        return g1_fixed_base_mul(g1, k->h, hs, n_h, threads);
}

/* The G2 points: b2 and beta2, gamma2, delta2. */
static int setup_g2(struct groth16_keys *k, const struct groth16_setup_circuit *c,
                    const struct groth16_toxic_waste *tw, const fr_t *v,
                    const struct groth16_setup_options *o, unsigned threads) {
        _cleanup_(g2_fixed_base_freep) struct g2_fixed_base *g2 = NULL;
        const fr_t secrets[3] = {tw->beta, tw->gamma, tw->delta};
        g2_affine_t secret_points[3];
        int r;

        groth16_setup_progress(o, "G2 table");
        r = g2_fixed_base_new(&g2, &G2_GENERATOR, count_nonzero(v, c->n_vars), threads);
        if (r < 0)
                return r;
        r = g2_fixed_base_mul(g2, secret_points, secrets, 3, threads);
        if (r < 0)
                return r;
        k->pk.beta2 = k->vk.beta2 = secret_points[0];
        k->vk.gamma2 = secret_points[1];
        k->pk.delta2 = k->vk.delta2 = secret_points[2];

        groth16_setup_progress(o, "b_g2");
        return g2_fixed_base_mul(g2, k->b2, v, c->n_vars, threads);
}

static int setup_keys(const struct groth16_setup_circuit *circuit,
                      const struct groth16_toxic_waste *toxic_waste, enum groth16_h_convention conv,
                      const struct groth16_setup_options *options, struct groth16_keys **ret) {
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        _cleanup_(g1_fixed_base_freep) struct g1_fixed_base *g1 = NULL;
        _cleanup_(qap_vectors_free) struct qap_vectors q = {0};
        const struct groth16_toxic_waste *tw = toxic_waste;
        unsigned threads;
        int r;

        assert(circuit);
        assert(toxic_waste);
        assert(ret);

        r = groth16_setup_check_circuit(circuit, true);
        if (r < 0)
                return r;
        if (fr_is_zero(&tw->alpha) || fr_is_zero(&tw->beta) || fr_is_zero(&tw->gamma) ||
            fr_is_zero(&tw->delta))
                return -EINVAL;
        threads = options && options->threads ? options->threads : zk_thread_count();

        r = keys_alloc(circuit, conv, &k);
        if (r < 0)
                return r;
        r = qap_vectors_alloc(&q, circuit->n_vars);
        if (r < 0)
                return r;
        r = qap_at_tau(circuit, conv, &tw->tau, &q, options, threads);
        if (r < 0)
                return r;

        r = setup_g2(k, circuit, tw, q.v, options, threads);
        if (r < 0)
                return r;
        groth16_setup_progress(options, "G1 table");
        r = setup_g1_table(&g1, k, circuit, tw, &q, threads);
        if (r < 0)
                return r;
        r = setup_g1_wires(g1, k, circuit, tw, &q, options, threads);
        if (r < 0)
                return r;
        /* u, v, w are used up: give their memory back before h. */
        qap_vectors_free(&q);
        r = setup_g1_h(g1, k, circuit, tw, options, threads);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(k);
        return 0;
}

int groth16_setup(const struct groth16_setup_circuit *circuit,
                  const struct groth16_toxic_waste *toxic_waste,
                  const struct groth16_setup_options *options, struct groth16_keys **ret) {
        return setup_keys(circuit, toxic_waste, GROTH16_H_BELLPERSON, options, ret);
}

int groth16_setup_snarkjs(const struct groth16_setup_circuit *circuit,
                          const struct groth16_toxic_waste *toxic_waste,
                          const struct groth16_setup_options *options, struct groth16_keys **ret) {
        return setup_keys(circuit, toxic_waste, GROTH16_H_SNARKJS, options, ret);
}
