/* SPDX-License-Identifier: Apache-2.0 */
/* Timing-only keys: the shape of a real key, random points (see groth16_setup.h). */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/cleanup.h"
#include "fixed_base.h"
#include "groth16_setup_internal.h"
#include "parallel.h"

/* A section of G1 points: (start + i step) G1 with random start and step. */
static int random_g1_section(g1_affine_t *out, size_t n, unsigned threads) {
        fr_t start, step;
        int r;

        r = groth16_random_rs(&start, &step);
        if (r < 0)
                return r;
        return g1_arithmetic_progression(out, n, &G1_GENERATOR, &start, &step, threads);
}

static int random_g2_section(g2_affine_t *out, size_t n, unsigned threads) {
        fr_t start, step;
        int r;

        r = groth16_random_rs(&start, &step);
        if (r < 0)
                return r;
        return g2_arithmetic_progression(out, n, &G2_GENERATOR, &start, &step, threads);
}

/* A bitmap of the columns with a term in m. */
static int columns_present(const struct sparse_matrix *m, size_t n_vars, uint64_t **ret) {
        _cleanup_free_ uint64_t *present = calloc((n_vars + 63) / 64, sizeof(uint64_t));

        if (!present)
                return -ENOMEM;
#pragma omp parallel for schedule(static)
        for (uint64_t k = 0; k < sparse_n_terms(m); k++) {
                uint32_t col = m->col[k];
#pragma omp atomic
                present[col / 64] |= UINT64_C(1) << (col % 64);
        }
        *ret = TAKE_PTR(present);
        return 0;
}

static bool bit_set(const uint64_t *bitmap, size_t j) {
        return (bitmap[j / 64] >> (j % 64)) & 1;
}

/* Infinity wherever the real key has it: wires absent from A (a) or B (b1, b2). */
static int apply_densities(struct groth16_keys *k, const struct groth16_setup_circuit *c) {
        _cleanup_free_ uint64_t *a_owned = NULL, *b_owned = NULL;
        const uint64_t *in_a = c->a_columns, *in_b = c->b_columns;
        int r;

        if (!in_a && c->a) {
                r = columns_present(c->a, c->n_vars, &a_owned);
                if (r < 0)
                        return r;
                in_a = a_owned;
        }
        if (!in_b && c->b) {
                r = columns_present(c->b, c->n_vars, &b_owned);
                if (r < 0)
                        return r;
                in_b = b_owned;
        }
#pragma omp parallel for schedule(static)
        for (size_t j = 0; j < c->n_vars; j++) {
                if (in_a && !bit_set(in_a, j))
                        g1_affine_set_infinity(&k->a[j]);
                if (in_b && !bit_set(in_b, j)) {
                        g1_affine_set_infinity(&k->b1[j]);
                        g2_affine_set_infinity(&k->b2[j]);
                }
        }
        return 0;
}

int groth16_setup_timing_only(const struct groth16_setup_circuit *circuit,
                              const struct groth16_setup_options *options,
                              struct groth16_keys **ret) {
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        const struct groth16_setup_circuit *c = circuit;
        g1_affine_t g1_singles[3];
        g2_affine_t g2_singles[3];
        unsigned threads;
        int r;

        assert(circuit);
        assert(ret);

        r = groth16_setup_check_circuit(c, false);
        if (r < 0)
                return r;
        if ((c->a && (c->a->n_cols > c->n_vars)) || (c->b && (c->b->n_cols > c->n_vars)))
                return -EINVAL;
        threads = options && options->threads ? options->threads : zk_thread_count();

        r = groth16_keys_alloc(c, &k);
        if (r < 0)
                return r;
        k->timing_only = true;

        groth16_setup_progress(options, "random G1 points");
        r = random_g1_section(g1_singles, 3, 1);
        if (r < 0)
                return r;
        k->pk.alpha1 = k->vk.alpha1 = g1_singles[0];
        k->pk.beta1 = g1_singles[1];
        k->pk.delta1 = g1_singles[2];
        r = random_g1_section(k->a, c->n_vars, threads);
        if (r < 0)
                return r;
        r = random_g1_section(k->b1, c->n_vars, threads);
        if (r < 0)
                return r;
        r = random_g1_section(k->ic, c->n_public + 1, threads);
        if (r < 0)
                return r;
        r = random_g1_section(k->l, c->n_vars - c->n_public - 1, threads);
        if (r < 0)
                return r;
        r = random_g1_section(k->h, groth16_h_bases(GROTH16_H_BELLPERSON, c->log_domain_size),
                              threads);
        if (r < 0)
                return r;

        groth16_setup_progress(options, "random G2 points");
        r = random_g2_section(g2_singles, 3, 1);
        if (r < 0)
                return r;
        k->pk.beta2 = k->vk.beta2 = g2_singles[0];
        k->vk.gamma2 = g2_singles[1];
        k->pk.delta2 = k->vk.delta2 = g2_singles[2];
        r = random_g2_section(k->b2, c->n_vars, threads);
        if (r < 0)
                return r;

        r = apply_densities(k, c);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(k);
        return 0;
}
