/* SPDX-License-Identifier: Apache-2.0 */
/*
 * circuits/pce.h in memory: compact coefficients round-trip (0, +1, -1, 2,
 * random values; 1-, 2- and 4-byte ids), the input rows, the evaluation
 * (fused, and matrix by matrix for mixed id widths) against a naive one on
 * 1 and 2 threads, density bitmaps, the 0/1 split
 * of a witness, a compact witness's 0s and 1s by density, and the refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/pce-compact.h"
#include "circuits/pce.h"
#include "common/cleanup.h"
#include "tests/lib/ref.h"
#include "zk/parallel.h"

enum coeff_kind { K_ZERO, K_ONE, K_MINUS_ONE, K_TWO, K_RANDOM, K_KINDS };

/* Coefficients: the small values, or one of n_random fixed random values. */
struct coeff_source {
        fr_t *random;
        uint32_t n_random;
};

static void pick_coeff(const struct coeff_source *src, fr_t *v) {
        switch (test_rng_u64() % K_KINDS) {
        case K_ZERO:
                fr_set_zero(v);
                break;
        case K_ONE:
                fr_set_one(v);
                break;
        case K_MINUS_ONE:
                fr_set_one(v);
                fr_neg(v, v);
                break;
        case K_TWO:
                fr_from_u64(v, 2);
                break;
        default:
                *v = src->random[test_rng_u64() % src->n_random];
                break;
        }
}

/* A random matrix with about terms_per_row terms per row (some rows empty). */
static void random_matrix(struct sparse_matrix *m, uint32_t n_rows, uint32_t n_cols,
                          unsigned terms_per_row, const struct coeff_source *src) {
        size_t n = (size_t)n_rows * terms_per_row;
        _cleanup_free_ uint32_t *rows = malloc(n * sizeof(uint32_t));
        _cleanup_free_ uint32_t *cols = malloc(n * sizeof(uint32_t));
        _cleanup_free_ fr_t *coeffs = malloc(n * sizeof(fr_t));

        assert_non_null(rows);
        assert_non_null(cols);
        assert_non_null(coeffs);
        for (size_t k = 0; k < n; k++) {
                /* Rows drawn at random: some get none, some many. */
                rows[k] = (uint32_t)(test_rng_u64() % n_rows);
                cols[k] = (uint32_t)(test_rng_u64() % n_cols);
                pick_coeff(src, &coeffs[k]);
        }
        assert_int_equal(sparse_from_triplets(m, n_rows, n_cols, rows, cols, coeffs, n), 0);
}

static void random_source(struct coeff_source *src, uint32_t n_random) {
        src->n_random = n_random;
        src->random = malloc(n_random * sizeof(fr_t));
        assert_non_null(src->random);
        for (uint32_t i = 0; i < n_random; i++)
                test_rng_fr(&src->random[i]);
}

static void random_witness(fr_t *w, size_t n) {
        fr_set_one(&w[0]);
        for (size_t i = 1; i < n; i++) {
                switch (test_rng_u64() % 4) {
                case 0:
                        fr_set_zero(&w[i]);
                        break;
                case 1:
                        fr_set_one(&w[i]);
                        break;
                default:
                        test_rng_fr(&w[i]);
                        break;
                }
        }
}

static void expect_same_sparse(const struct sparse_matrix *a, const struct sparse_matrix *b) {
        assert_int_equal(a->n_rows, b->n_rows);
        assert_int_equal(a->n_cols, b->n_cols);
        assert_memory_equal(a->row_start, b->row_start, ((size_t)a->n_rows + 1) * sizeof(uint64_t));
        assert_memory_equal(a->col, b->col, sparse_n_terms(a) * sizeof(uint32_t));
        assert_memory_equal(a->coeff, b->coeff, sparse_n_terms(a) * sizeof(fr_t));
}

/* Row by row with a multiplication for every term. */
static void naive_product(const struct sparse_matrix *m, const fr_t *w, fr_t *out) {
        for (uint32_t i = 0; i < m->n_rows; i++) {
                fr_set_zero(&out[i]);
                for (uint64_t k = m->row_start[i]; k < m->row_start[i + 1]; k++) {
                        fr_t t;
                        fr_mul(&t, &m->coeff[k], &w[m->col[k]]);
                        fr_add(&out[i], &out[i], &t);
                }
        }
}

/* pce_evaluate() on 1 and 2 threads equals the naive products of src. */
static void check_evaluation(const struct pce *pce, const struct sparse_matrix src[3],
                             const fr_t *w) {
        unsigned log = pce_log_domain_size(pce) + 1; /* some padding too */
        size_t n = (size_t)1 << log;
        _cleanup_free_ fr_t *out = malloc(3 * n * sizeof(fr_t));
        _cleanup_free_ fr_t *expect = malloc(n * sizeof(fr_t));

        assert_non_null(out);
        assert_non_null(expect);
        for (unsigned threads = 1; threads <= 2; threads++) {
                zk_set_thread_count(threads);
                memset(out, 0xa5, 3 * n * sizeof(fr_t));
                assert_int_equal(pce_evaluate(pce, w, pce->n_cols, log, out, out + n, out + 2 * n),
                                 0);
                for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                        memset(expect, 0, n * sizeof(fr_t));
                        naive_product(&src[k], w, expect);
                        assert_memory_equal(out + k * n, expect, n * sizeof(fr_t));
                }
        }
        zk_set_thread_count(0);
}

static void check_round_trip(uint32_t n_random, unsigned per_row, uint32_t want_id_bytes) {
        struct coeff_source src;
        struct sparse_matrix m[PCE_N_MATRICES], back[PCE_N_MATRICES];
        _cleanup_(pce_freep) struct pce *pce = NULL;
        uint32_t n_rows = 300, n_cols = 80;
        _cleanup_free_ fr_t *w = malloc(n_cols * sizeof(fr_t));

        assert_non_null(w);
        random_source(&src, n_random);
        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                random_matrix(&m[k], n_rows, n_cols, per_row, &src);
        assert_int_equal(pce_from_sparse(&m[0], &m[1], &m[2], 5, 0, &pce), 0);
        assert_int_equal(pce->n_rows, n_rows);
        assert_int_equal(pce->n_cols, n_cols);
        assert_int_equal(pce->n_public, 5);
        assert_int_equal(pce_n_constraints(pce), n_rows);

        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                const struct pce_matrix *pm = &pce->m[k];
                fr_t minus_one;
                fr_set_one(&minus_one);
                fr_neg(&minus_one, &minus_one);
                assert_int_equal(pm->id_bytes, want_id_bytes);
                assert_true(fr_is_one(&pm->values[PCE_COEFF_ID_ONE]));
                assert_true(fr_equal(&pm->values[PCE_COEFF_ID_MINUS_ONE], &minus_one));
                /* Distinct values only: 0, 1, -1, 2 and the random ones used. */
                assert_true(pm->n_values <= 4 + n_random);
                for (uint32_t i = 0; i < pm->n_values; i++)
                        for (uint32_t j = i + 1; j < pm->n_values && pm->n_values < 1000; j++)
                                assert_false(fr_equal(&pm->values[i], &pm->values[j]));
        }

        assert_int_equal(pce_to_sparse(pce, back), 0);
        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                expect_same_sparse(&m[k], &back[k]);

        random_witness(w, n_cols);
        check_evaluation(pce, m, w);

        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                sparse_free(&m[k]);
                sparse_free(&back[k]);
        }
        free(src.random);
}

static void test_round_trip_small_table(void **state) {
        (void)state;
        test_rng_seed(1);
        check_round_trip(10, 3, 1);
}

static void test_round_trip_two_byte_ids(void **state) {
        (void)state;
        test_rng_seed(2);
        check_round_trip(2000, 20, 2);
}

static void test_round_trip_four_byte_ids(void **state) {
        (void)state;
        test_rng_seed(3);
        /* 180000 random picks of 200000 values: ~118000 distinct */
        check_round_trip(200000, 3000, 4);
}

/* The id width switches exactly at 256 and 65536 values. */
static void test_id_width_boundaries(void **state) {
        static const struct {
                uint32_t n_random, id_bytes;
        } cases[] = {{254, 1}, {255, 2}, {65534, 2}, {65535, 4}};

        (void)state;
        for (size_t c = 0; c < ELEMENTSOF(cases); c++) {
                _cleanup_free_ uint32_t *rows = NULL, *cols = NULL;
                _cleanup_free_ fr_t *coeffs = NULL;
                _cleanup_(pce_freep) struct pce *pce = NULL;
                struct sparse_matrix m, empty;
                uint32_t n = cases[c].n_random;

                rows = calloc(n, sizeof(uint32_t));
                cols = calloc(n, sizeof(uint32_t));
                coeffs = malloc(n * sizeof(fr_t));
                assert_non_null(rows);
                assert_non_null(cols);
                assert_non_null(coeffs);
                /* n values besides +1 and -1: 2 + n in the table */
                for (uint32_t i = 0; i < n; i++)
                        fr_from_u64(&coeffs[i], 2 + (uint64_t)i);
                assert_int_equal(sparse_from_triplets(&m, 1, 1, rows, cols, coeffs, n), 0);
                assert_int_equal(sparse_from_triplets(&empty, 1, 1, NULL, NULL, NULL, 0), 0);
                assert_int_equal(pce_from_sparse(&m, &empty, &empty, 0, 0, &pce), 0);
                assert_int_equal(pce->m[PCE_A].n_values, 2 + n);
                assert_int_equal(pce->m[PCE_A].id_bytes, cases[c].id_bytes);
                assert_int_equal(pce->m[PCE_B].id_bytes, 1);
                assert_int_equal(pce_coeff_id(&pce->m[PCE_A], n - 1), n + 1);
                /* Ids of mixed widths are evaluated matrix by matrix. */
                {
                        const struct sparse_matrix src[PCE_N_MATRICES] = {m, empty, empty};
                        fr_t w;
                        test_rng_fr(&w);
                        check_evaluation(pce, src, &w);
                }
                sparse_free(&m);
                sparse_free(&empty);
        }
}

/* snarkjs's / bellperson's input rows: row n_constraints + s is A = w[s]. */
static void test_input_rows(void **state) {
        struct coeff_source src;
        struct sparse_matrix m[PCE_N_MATRICES], back[PCE_N_MATRICES], expect[PCE_N_MATRICES];
        _cleanup_(pce_freep) struct pce *pce = NULL;
        const uint32_t n_rows = 50, n_cols = 20, n_public = 4;
        fr_t w[20];

        (void)state;
        test_rng_seed(4);
        random_source(&src, 3);
        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                random_matrix(&m[k], n_rows, n_cols, 2, &src);
        assert_int_equal(pce_from_sparse(&m[0], &m[1], &m[2], n_public, PCE_INPUT_ROWS, &pce), 0);
        assert_int_equal(pce->n_rows, n_rows + n_public + 1);
        assert_int_equal(pce_n_constraints(pce), n_rows);
        assert_int_equal(pce->m[PCE_A].n_terms, sparse_n_terms(&m[0]) + n_public + 1);
        assert_int_equal(pce->m[PCE_B].n_terms, sparse_n_terms(&m[1]));

        /* The expected matrices, built independently from triplets. */
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                uint64_t n = sparse_n_terms(&m[k]) + (k == PCE_A ? n_public + 1 : 0);
                _cleanup_free_ uint32_t *rows = malloc(n * sizeof(uint32_t));
                _cleanup_free_ uint32_t *cols = malloc(n * sizeof(uint32_t));
                _cleanup_free_ fr_t *coeffs = malloc(n * sizeof(fr_t));
                uint64_t at = 0;
                assert_true(rows && cols && coeffs);
                for (uint32_t i = 0; i < n_rows; i++)
                        for (uint64_t t = m[k].row_start[i]; t < m[k].row_start[i + 1]; t++) {
                                rows[at] = i;
                                cols[at] = m[k].col[t];
                                coeffs[at++] = m[k].coeff[t];
                        }
                for (uint32_t s = 0; k == PCE_A && s <= n_public; s++) {
                        rows[at] = n_rows + s;
                        cols[at] = s;
                        fr_set_one(&coeffs[at++]);
                }
                assert_int_equal(sparse_from_triplets(&expect[k], n_rows + n_public + 1, n_cols,
                                                      rows, cols, coeffs, n),
                                 0);
        }
        assert_int_equal(pce_to_sparse(pce, back), 0);
        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                expect_same_sparse(&expect[k], &back[k]);

        random_witness(w, n_cols);
        check_evaluation(pce, expect, w);

        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                sparse_free(&m[k]);
                sparse_free(&back[k]);
                sparse_free(&expect[k]);
        }
        free(src.random);
}

static void test_refusals(void **state) {
        struct sparse_matrix a, b, wide, tall;
        _cleanup_(pce_freep) struct pce *pce = NULL;
        fr_t w[4], out[3][8];

        (void)state;
        assert_int_equal(sparse_from_triplets(&a, 3, 4, NULL, NULL, NULL, 0), 0);
        assert_int_equal(sparse_from_triplets(&b, 3, 4, NULL, NULL, NULL, 0), 0);
        assert_int_equal(sparse_from_triplets(&wide, 3, 5, NULL, NULL, NULL, 0), 0);
        assert_int_equal(sparse_from_triplets(&tall, 4, 4, NULL, NULL, NULL, 0), 0);

        assert_int_equal(pce_from_sparse(&a, &b, &wide, 0, 0, &pce), -EINVAL);
        assert_int_equal(pce_from_sparse(&a, &tall, &b, 0, 0, &pce), -EINVAL);
        assert_int_equal(pce_from_sparse(&a, &b, &b, 4, 0, &pce), -EINVAL); /* 5 > 4 columns */
        assert_int_equal(pce_from_sparse(&a, &b, &b, 0, 1u << 5, &pce), -EINVAL);
        assert_null(pce);

        assert_int_equal(pce_from_sparse(&a, &b, &b, 3, PCE_INPUT_ROWS, &pce), 0);
        assert_int_equal(pce->n_rows, 7);
        assert_int_equal(pce_log_domain_size(pce), 3);
        for (int i = 0; i < 4; i++)
                fr_from_u64(&w[i], 10 + (uint64_t)i);
        assert_int_equal(pce_evaluate(pce, w, 4, 2, out[0], out[1], out[2]), -EINVAL);
        assert_int_equal(pce_evaluate(pce, w, 3, 3, out[0], out[1], out[2]), -EINVAL);
        assert_int_equal(pce_evaluate(pce, w, 4, 3, out[0], out[1], out[2]), 0);
        for (int i = 0; i < 8; i++) {
                /* rows 0-2 empty, 3-6 the input rows w[0..3], 7 padding */
                fr_t expect;
                fr_set_zero(&expect);
                if (i >= 3 && i < 7)
                        expect = w[i - 3];
                assert_true(fr_equal(&out[0][i], &expect));
                assert_true(fr_is_zero(&out[1][i]) && fr_is_zero(&out[2][i]));
        }
        sparse_free(&a);
        sparse_free(&b);
        sparse_free(&wide);
        sparse_free(&tall);
}

/* The bitmaps say which columns appear in A and in B; nothing else. */
static void test_density(void **state) {
        struct coeff_source src;
        struct sparse_matrix m[PCE_N_MATRICES];
        _cleanup_(pce_freep) struct pce *pce = NULL;
        const uint32_t n_cols = 1000, n_public = 9;
        _cleanup_free_ uint8_t *seen = calloc(2 * n_cols, 1);
        uint64_t aux_in_b = 0, count[2] = {0, 0};

        (void)state;
        assert_non_null(seen);
        test_rng_seed(5);
        random_source(&src, 4);
        /* Few terms: many columns stay out. */
        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                random_matrix(&m[k], 300, n_cols, k == PCE_B ? 1 : 2, &src);
        assert_int_equal(pce_from_sparse(&m[0], &m[1], &m[2], n_public, PCE_INPUT_ROWS, &pce), 0);
        for (size_t k = 0; k < 2; k++)
                for (uint64_t t = 0; t < sparse_n_terms(&m[k]); t++)
                        seen[k * n_cols + m[k].col[t]] = 1;
        for (uint32_t c = 0; c <= n_public; c++)
                seen[c] = 1; /* the input rows */
        for (uint32_t c = 0; c < n_cols; c++) {
                assert_int_equal(pce_bit(pce->density[0], c), seen[c]);
                assert_int_equal(pce_bit(pce->density[1], c), seen[n_cols + c]);
                count[0] += seen[c];
                count[1] += seen[n_cols + c];
                aux_in_b += c > n_public && seen[n_cols + c];
        }
        assert_int_equal(pce->density_count[0], count[0]);
        assert_int_equal(pce->density_count[1], count[1]);
        assert_true(count[0] < n_cols && count[1] < n_cols / 2);
        assert_true(pce_a_density(pce) == (double)count[0] / n_cols);
        assert_true(pce_b_aux_density(pce) == (double)aux_in_b / (n_cols - n_public - 1));
        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                sparse_free(&m[k]);
        free(src.random);
}

static void test_witness_split(void **state) {
        static const uint64_t sizes[] = {0, 1, 63, 64, 65, 1000, 200000};

        (void)state;
        test_rng_seed(6);
        for (size_t s = 0; s < ELEMENTSOF(sizes); s++) {
                uint64_t n = sizes[s], zeros = 0, ones = 0;
                _cleanup_free_ fr_t *w = malloc((n ? n : 1) * sizeof(fr_t));
                struct pce_witness_split split;

                assert_non_null(w);
                for (uint64_t i = 0; i < n; i++) {
                        switch (test_rng_u64() % 3) {
                        case 0:
                                fr_set_zero(&w[i]);
                                break;
                        case 1:
                                fr_set_one(&w[i]);
                                break;
                        default:
                                /* 2 and -1: neither 0 nor 1 */
                                fr_from_u64(&w[i], 2);
                                if (i % 2)
                                        fr_neg(&w[i], &w[i]);
                                break;
                        }
                }
                assert_int_equal(pce_witness_split(w, n, &split), 0);
                assert_int_equal(split.n, n);
                for (uint64_t i = 0; i < n; i++) {
                        assert_int_equal(pce_bit(split.is_zero, i), fr_is_zero(&w[i]));
                        assert_int_equal(pce_bit(split.is_one, i), fr_is_one(&w[i]));
                        zeros += fr_is_zero(&w[i]);
                        ones += fr_is_one(&w[i]);
                }
                /* Bits past n stay clear. */
                if (n % 64) {
                        assert_int_equal(split.is_zero[n / 64] >> (n % 64), 0);
                        assert_int_equal(split.is_one[n / 64] >> (n % 64), 0);
                }
                assert_int_equal(split.n_zero, zeros);
                assert_int_equal(split.n_one, ones);
                pce_witness_split_free(&split);
                assert_null(split.is_zero);
        }
}

/* One aux value of a compact witness: a bit, or a num that is 0, 1 or another value. */
static void random_compact_aux(uint64_t *is_bit, uint64_t *bit_value, fr_t *nums, uint64_t *n_nums,
                               uint64_t j) {
        const uint64_t pick = test_rng_u64() % 5, mask = UINT64_C(1) << (j % 64);

        if (pick < 2) {
                is_bit[j / 64] |= mask;
                if (pick)
                        bit_value[j / 64] |= mask;
                return;
        }
        if (test_rng_u64() & 1)
                bit_value[j / 64] |= mask; /* ignored where the bit is clear */
        if (pick == 2)
                fr_set_zero(&nums[*n_nums]);
        else if (pick == 3)
                fr_set_one(&nums[*n_nums]);
        else
                test_rng_fr(&nums[*n_nums]);
        (*n_nums)++;
}

static size_t count_zero_aux(const struct pce_compact_witness *w) {
        size_t zero = 0;
        for (uint64_t j = 0; j < w->n_aux; j++)
                zero += fr_is_zero(pce_compact_aux(w, j));
        return zero;
}

/* pce_compact_count_aux against the aux one by one (pce_compact_aux, wire_density_has):
 * widths of inputs that put the aux at every offset in a density word, aux counts around
 * the word size, nums equal to 0 and 1, densities of every fill. */
static void test_compact_count_aux(void **state) {
        static const uint32_t inputs[] = {0, 1, 5, 62, 63, 64, 70};
        static const uint64_t auxes[] = {0, 1, 63, 64, 65, 127, 1000, 4097};
        (void)state;

        test_rng_seed(7);
        for (size_t a = 0; a < sizeof(inputs) / sizeof(inputs[0]); a++)
                for (size_t b = 0; b < sizeof(auxes) / sizeof(auxes[0]); b++) {
                        const uint32_t n_inputs = inputs[a];
                        const uint64_t n_aux = auxes[b], words = pce_bitmap_words(n_aux);
                        const size_t n_wires = 1 + n_inputs + n_aux;
                        _cleanup_free_ uint64_t *bits = calloc(2 * words + 2, sizeof(uint64_t));
                        _cleanup_free_ fr_t *nums = calloc(n_aux + 1, sizeof(fr_t));
                        _cleanup_free_ fr_t *in = calloc(n_inputs + 1, sizeof(fr_t));
                        _cleanup_free_ uint64_t *rank = NULL;
                        uint64_t n_nums = 0;

                        assert_non_null(bits);
                        assert_non_null(nums);
                        assert_non_null(in);
                        fr_set_one(&in[0]);
                        for (uint64_t j = 0; j < n_aux; j++)
                                random_compact_aux(bits, bits + words + 1, nums, &n_nums, j);
                        assert_int_equal(pce_compact_rank(bits, n_aux, &rank), 0);
                        const struct pce_compact_witness w = {.n_inputs = n_inputs,
                                                              .inputs = in,
                                                              .n_aux = n_aux,
                                                              .is_bit = bits,
                                                              .bit_value = bits + words + 1,
                                                              .nums = nums,
                                                              .rank = rank};
                        /* no density, then densities of 0, 1/8, 1/2, 7/8 and all wires */
                        for (unsigned fill = 0; fill <= 6; fill++) {
                                _cleanup_(wire_density_freep) struct wire_density *d = NULL;
                                uint64_t one = 0, big = 0, want_one = 0, want_big = 0;

                                if (fill > 0) {
                                        static const unsigned eighths[] = {0, 1, 4, 7, 8, 8};
                                        assert_int_equal(wire_density_new(&d, n_wires), 0);
                                        for (size_t k = 0; k < n_wires; k++)
                                                if (test_rng_u64() % 8 < eighths[fill - 1])
                                                        wire_density_set(d, k);
                                        wire_density_seal(d);
                                }
                                for (uint64_t j = 0; j < n_aux; j++) {
                                        const fr_t *x = pce_compact_aux(&w, j);
                                        if (d && !wire_density_has(d, 1 + n_inputs + j))
                                                continue;
                                        want_one += fr_is_one(x);
                                        want_big += !fr_is_one(x) && !fr_is_zero(x);
                                }
                                const struct wire_density *ds[] = {d, NULL};
                                uint64_t ones[2], bigs[2];
                                pce_compact_count_aux(&w, ds, 2, ones, bigs);
                                one = ones[0], big = bigs[0];
                                /* and with no density, every aux */
                                assert_int_equal(ones[1] + bigs[1],
                                                 n_aux - (uint64_t)count_zero_aux(&w));
                                assert_int_equal(one, want_one);
                                assert_int_equal(big, want_big);
                        }
                }
}

static void test_memory_bytes(void **state) {
        struct sparse_matrix a, b;
        _cleanup_(pce_freep) struct pce *pce = NULL;
        uint32_t rows[3] = {0, 1, 1}, cols[3] = {0, 2, 3};
        fr_t coeffs[3];
        uint64_t expect;

        (void)state;
        fr_set_one(&coeffs[0]);
        fr_from_u64(&coeffs[1], 7);
        fr_from_u64(&coeffs[2], 7);
        assert_int_equal(sparse_from_triplets(&a, 2, 70, rows, cols, coeffs, 3), 0);
        assert_int_equal(sparse_from_triplets(&b, 2, 70, NULL, NULL, NULL, 0), 0);
        assert_int_equal(pce_from_sparse(&a, &b, &b, 0, 0, &pce), 0);
        assert_int_equal(pce->m[PCE_A].n_values, 3); /* 1, -1, 7 */
        /* 2 bitmaps of 2 words; 3 row_start arrays of 3; A: 3 terms of 4 + 1
         * bytes and 3 values; B, C: 2 values each. */
        expect = 2 * 2 * 8 + 3 * 3 * 8 + 3 * 5 + 7 * 32;
        assert_int_equal(pce_memory_bytes(pce), expect);
        sparse_free(&a);
        sparse_free(&b);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_round_trip_small_table),
                cmocka_unit_test(test_round_trip_two_byte_ids),
                cmocka_unit_test(test_round_trip_four_byte_ids),
                cmocka_unit_test(test_id_width_boundaries),
                cmocka_unit_test(test_input_rows),
                cmocka_unit_test(test_refusals),
                cmocka_unit_test(test_density),
                cmocka_unit_test(test_witness_split),
                cmocka_unit_test(test_compact_count_aux),
                cmocka_unit_test(test_memory_bytes),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
