/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/lib/setup-circuit.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "tests/lib/ref.h"
#include "zk/groth16_setup.h"

/* Up to three terms per row of a matrix. */
struct triplets {
        uint32_t *row, *col;
        fr_t *coeff;
        size_t n;
};

static void add_term(struct triplets *t, uint32_t row, uint32_t col, const fr_t *coeff) {
        t->row[t->n] = row;
        t->col[t->n] = col;
        t->coeff[t->n] = *coeff;
        t->n++;
}

static void triplets_alloc(struct triplets *t, size_t max_terms) {
        t->row = malloc(max_terms * sizeof(uint32_t));
        t->col = malloc(max_terms * sizeof(uint32_t));
        t->coeff = malloc(max_terms * sizeof(fr_t));
        t->n = 0;
        assert_non_null(t->row);
        assert_non_null(t->col);
        assert_non_null(t->coeff);
}

static void triplets_to_matrix(struct triplets *t, struct sparse_matrix *m, uint32_t rows,
                               uint32_t cols) {
        assert_int_equal(sparse_from_triplets(m, rows, cols, t->row, t->col, t->coeff, t->n), 0);
        free(t->row);
        free(t->col);
        free(t->coeff);
}

void test_circuit_make(struct test_circuit *tc, unsigned log_domain_size, size_t n_public,
                       uint64_t seed) {
        const size_t n = (size_t)1 << log_domain_size;
        const size_t rows = n - n / 128;
        _cleanup_free_ uint32_t *bits = NULL; /* the wires known to be 0 or 1 */
        struct triplets a, b, c;
        fr_t one, minus_one;
        size_t row = 0, n_bits = 0;

        assert_true(rows > 2 * (n_public + 1));
        memset(tc, 0, sizeof(*tc));
        tc->log_domain_size = log_domain_size;
        tc->n_public = n_public;
        /* one new private wire per row that is not an input binding */
        tc->n_vars = rows;
        tc->w = malloc(tc->n_vars * sizeof(fr_t));
        assert_non_null(tc->w);
        triplets_alloc(&a, 2 * rows);
        triplets_alloc(&b, rows);
        triplets_alloc(&c, 2 * rows);

        test_rng_seed(seed);
        fr_set_one(&one);
        fr_neg(&minus_one, &one);

        bits = malloc(tc->n_vars * sizeof(uint32_t));
        assert_non_null(bits);
        bits[n_bits++] = 0; /* the constant 1 */
        fr_set_one(&tc->w[0]);
        for (size_t j = 1; j <= n_public; j++)
                test_rng_fr(&tc->w[j]);

        for (size_t z = n_public + 1; z < tc->n_vars; z++, row++) {
                uint32_t x = (uint32_t)(test_rng_u64() % z), y = (uint32_t)(test_rng_u64() % z);
                fr_t k, t;

                if (row % 4 == 0) {
                        /* (x + k * one) * y = z */
                        test_rng_fr(&k);
                        add_term(&a, (uint32_t)row, x, &one);
                        add_term(&a, (uint32_t)row, 0, &k);
                        add_term(&b, (uint32_t)row, y, &one);
                        add_term(&c, (uint32_t)row, (uint32_t)z, &one);
                        fr_add(&t, &tc->w[x], &k);
                        fr_mul(&tc->w[z], &t, &tc->w[y]);
                } else {
                        /* z * 1 = 1 - x for an earlier bit x: z = NOT x */
                        x = bits[test_rng_u64() % n_bits];
                        add_term(&a, (uint32_t)row, (uint32_t)z, &one);
                        add_term(&b, (uint32_t)row, 0, &one);
                        add_term(&c, (uint32_t)row, 0, &one);
                        add_term(&c, (uint32_t)row, x, &minus_one);
                        fr_sub(&tc->w[z], &one, &tc->w[x]);
                        bits[n_bits++] = (uint32_t)z;
                }
        }
        /* bellperson's input bindings: input_j * 0 = 0 */
        for (size_t j = 0; j <= n_public; j++, row++)
                add_term(&a, (uint32_t)row, (uint32_t)j, &one);
        assert_true(row <= n);

        triplets_to_matrix(&a, &tc->a, (uint32_t)row, (uint32_t)tc->n_vars);
        triplets_to_matrix(&b, &tc->b, (uint32_t)row, (uint32_t)tc->n_vars);
        triplets_to_matrix(&c, &tc->c, (uint32_t)row, (uint32_t)tc->n_vars);
}

void test_circuit_free(struct test_circuit *tc) {
        sparse_free(&tc->a);
        sparse_free(&tc->b);
        sparse_free(&tc->c);
        free(tc->w);
        memset(tc, 0, sizeof(*tc));
}

void test_circuit_keys(const struct test_circuit *tc, const uint8_t *seed, size_t seed_bytes,
                       struct groth16_keys **ret) {
        struct groth16_setup_circuit c = {
                .a = &tc->a,
                .b = &tc->b,
                .c = &tc->c,
                .n_vars = tc->n_vars,
                .n_public = tc->n_public,
                .log_domain_size = tc->log_domain_size,
        };
        struct groth16_toxic_waste tw;

        groth16_toxic_waste_from_seed(&tw, seed, seed_bytes);
        assert_int_equal(groth16_setup(&c, &tw, NULL, ret), 0);
}
