/* SPDX-License-Identifier: Apache-2.0 */
/* The scalars of a Groth16 key: the QAP's polynomials and H's powers
 * evaluated at the toxic waste (see groth16_setup_internal.h). */
#include <assert.h>
#include <errno.h>
#include <omp.h>
#include <stdlib.h>

#include "common/cleanup.h"
#include "groth16_setup_internal.h"

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

void groth16_qap_vectors_free(struct groth16_qap_vectors *q) {
        free(q->u);
        free(q->v);
        free(q->w);
        *q = (struct groth16_qap_vectors){0};
}

int groth16_qap_vectors_alloc(struct groth16_qap_vectors *q, size_t n_vars) {
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
                              struct groth16_qap_vectors *q, unsigned threads) {
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
int groth16_qap_at_tau(const struct groth16_setup_circuit *c, enum groth16_h_convention conv,
                       const fr_t *tau, struct groth16_qap_vectors *q,
                       const struct groth16_setup_options *o, unsigned threads) {
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
void groth16_ic_l_scalars(const struct groth16_setup_circuit *c,
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
void groth16_h_scalars(fr_t *out, size_t n_h, unsigned log_n, const struct groth16_toxic_waste *tw,
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

/*
 * snarkjs's h_i = L'_{2i+1}(tau) / delta, i < n: the Lagrange basis of the
 * 2n-domain at its odd points x_i = omega_2n omega_n^i, the coset on which
 * its prover evaluates a*b - c (groth16_h_coset()). -EINVAL when tau^2n = 1.
 */
int groth16_snarkjs_h_scalars(fr_t *out, unsigned log_n, const struct groth16_toxic_waste *tw,
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
