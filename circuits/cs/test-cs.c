/* SPDX-License-Identifier: Apache-2.0 */
/*
 * circuits/cs: bellpepper-core's merging (duplicates add up in place, a zero
 * sum stays a term), inputs before aux in every row and in the columns,
 * the PCE's input rows and fixed coefficient ids, the compact and full
 * witness, identical counts in both modes, sticky refusals.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "circuits/cs/cs.h"
#include "common/cleanup.h"

/* A small circuit: aux x (a num), an input y, a bit b, an input z and rows
 * with duplicate and cancelling terms; the same code for every mode. */
static void synthesize(struct cs *cs) {
        fr_t five, seven, three;
        fr_from_u64(&five, 5);
        fr_from_u64(&seven, 7);
        fr_from_u64(&three, 3);
        const fr_t *one = cs_fr_one(cs);

        cs_var x = cs_alloc_aux(cs, &five);
        cs_var y = cs_alloc_input(cs, &seven);
        cs_var b = cs_alloc_aux_bit(cs, true);
        cs_var z = cs_alloc_input(cs, &three);

        /* (x + x - x)·(ONE) = y - b - 1 + ... : x·1 = 5 = y - 2b, with b and
         * ONE added and taken away again (zero sums stay). */
        struct cs_row *row = cs_row_begin(cs);
        if (row) {
                cs_lc_add(cs, &row->a, x, one);
                cs_lc_add(cs, &row->a, x, one);
                cs_lc_sub(cs, &row->a, x, one);
                cs_lc_add(cs, &row->b, b, one);
                cs_lc_add(cs, &row->c, b, cs_fr_pow2(cs, 1));
                cs_lc_add(cs, &row->c, CS_ONE, one);
                cs_lc_sub(cs, &row->c, CS_ONE, one);
                cs_lc_sub(cs, &row->c, b, cs_fr_pow2(cs, 2));
                cs_lc_add(cs, &row->c, y, one);
        }
        cs_row_end(cs);

        /* z·ONE = 3, with the caller-owned form; then an empty row */
        struct cs_lc lz = {0}, lone = {0}, l3 = {0};
        cs_lc_add(cs, &lz, z, one);
        cs_lc_add(cs, &lone, CS_ONE, one);
        cs_lc_add(cs, &l3, CS_ONE, &three);
        cs_enforce(cs, &lz, &lone, &l3);
        cs_enforce(cs, NULL, NULL, NULL);
        cs_lc_done(&lz);
        cs_lc_done(&lone);
        cs_lc_done(&l3);
}

static void test_merge_and_columns(void **state) {
        struct cs *cs = NULL;
        struct pce *pce = NULL;
        (void)state;

        assert_int_equal(cs_new(CS_SHAPE, &cs), 0);
        synthesize(cs);
        assert_int_equal(cs_n_rows(cs), 3);
        assert_int_equal(cs_n_inputs(cs), 2);
        assert_int_equal(cs_n_aux(cs), 2);
        assert_int_equal(cs_to_pce(cs, &pce), 0);

        /* columns: ONE 0, y 1, z 2, x 3, b 4; 3 rows + 3 input rows */
        assert_int_equal(pce->n_cols, 5);
        assert_int_equal(pce->n_public, 2);
        assert_int_equal(pce->n_rows, 6);
        assert_int_equal(pce->flags, PCE_INPUT_ROWS | PCE_AUX_VALUES);
        assert_int_equal(pce->n_aux_values, 1); /* x; b is a bit */
        fr_t one, minus_one, zero, minus_two;
        fr_set_one(&one);
        fr_neg(&minus_one, &one);
        fr_set_zero(&zero);
        fr_add(&minus_two, &minus_one, &minus_one);
        assert_true(fr_equal(&pce->m[PCE_A].values[0], &one));
        assert_true(fr_equal(&pce->m[PCE_A].values[1], &minus_one));

        /* A row 0: x once with coefficient 1 */
        const struct pce_matrix *a = &pce->m[PCE_A], *c = &pce->m[PCE_C];
        assert_int_equal(a->row_start[1], 1);
        assert_int_equal(a->col[0], 3);
        assert_int_equal(pce_coeff_id(a, 0), PCE_COEFF_ID_ONE);
        /* C row 0: ONE (zero sum kept), y, b with 2 - 4 = -2; inputs first */
        assert_int_equal(c->row_start[1], 3);
        assert_int_equal(c->col[0], 0);
        assert_true(fr_equal(&c->values[pce_coeff_id(c, 0)], &zero));
        assert_int_equal(c->col[1], 1);
        assert_int_equal(c->col[2], 4);
        assert_true(fr_equal(&c->values[pce_coeff_id(c, 2)], &minus_two));
        /* the empty row, then the input rows w[0], w[1], w[2] in A only */
        assert_int_equal(a->row_start[3] - a->row_start[2], 0);
        for (uint32_t s = 0; s < 3; s++) {
                assert_int_equal(a->row_start[4 + s] - a->row_start[3 + s], 1);
                assert_int_equal(a->col[a->row_start[3 + s]], s);
                assert_int_equal(pce->m[PCE_B].row_start[4 + s], pce->m[PCE_B].row_start[3]);
        }
        /* the shape has no values */
        assert_null(cs_witness(cs));
        fr_t *w = NULL;
        size_t n;
        assert_int_equal(cs_witness_full(cs, &w, &n), -EINVAL);
        pce_free(pce);
        cs_free(cs);
}

static void test_witness_forms(void **state) {
        struct cs *cs = NULL, *shape = NULL;
        struct pce *pce = NULL;
        fr_t *w = NULL, v;
        size_t n;
        uint64_t row;
        (void)state;

        assert_int_equal(cs_new(CS_WITNESS, &cs), 0);
        assert_int_equal(cs_new(CS_SHAPE, &shape), 0);
        synthesize(cs);
        synthesize(shape);
        assert_int_equal(cs_n_rows(cs), cs_n_rows(shape));
        assert_int_equal(cs_n_aux(cs), cs_n_aux(shape));
        assert_int_equal(cs_to_pce(cs, &pce), -EINVAL);

        const struct cs_witness *cw = cs_witness(cs);
        assert_non_null(cw);
        assert_int_equal(cw->n_inputs, 2);
        assert_int_equal(cw->n_aux, 2);
        assert_int_equal(cw->n_nums, 1); /* x; b is a bit */
        assert_int_equal(cw->aux_is_bit[0], 2);
        assert_int_equal(cw->aux_bit_value[0], 2);

        assert_int_equal(cs_witness_full(cs, &w, &n), 0);
        assert_int_equal(n, 5);
        uint64_t expected[5] = {1, 7, 3, 5, 1};
        for (size_t i = 0; i < 5; i++) {
                fr_from_u64(&v, expected[i]);
                assert_true(fr_equal(&w[i], &v));
        }
        assert_int_equal(cs_to_pce(shape, &pce), 0);
        assert_int_equal(cs_pce_check(pce, w, n, &row), 0);
        fr_from_u64(&w[1], 8); /* y = 8 breaks row 0 */
        assert_int_equal(cs_pce_check(pce, w, n, &row), 1);
        assert_int_equal(row, 0);
        assert_int_equal(cs_pce_check(pce, w, 4, &row), -EINVAL);
        free(w);
        pce_free(pce);
        cs_free(shape);
        cs_free(cs);
}

/* Allocates n values: bits where (seed + i) % 3 != 0 (odd), nums otherwise,
 * an input every 50th, so pieces start at every bit offset. */
static void synthesize_run(struct cs *cs, uint64_t seed, uint64_t n) {
        for (uint64_t i = seed; i < seed + n; i++) {
                fr_t v;
                fr_from_u64(&v, i * 7919);
                if (i % 50 == 0)
                        cs_alloc_input(cs, &v);
                else if (i % 3)
                        cs_alloc_aux_bit(cs, i & 1);
                else
                        cs_alloc_aux(cs, &v);
        }
}

/* A witness appended piece by piece equals the one computed whole. */
static void test_witness_append(void **state) {
        struct cs *whole = NULL, *joined = NULL;
        fr_t *w1 = NULL, *w2 = NULL;
        size_t n1, n2;
        const uint64_t pieces[] = {37, 64, 1, 200, 129, 0, 63, 500};
        uint64_t at = 0;
        (void)state;

        assert_int_equal(cs_new(CS_WITNESS, &whole), 0);
        assert_int_equal(cs_new(CS_WITNESS, &joined), 0);
        for (size_t k = 0; k < ELEMENTSOF(pieces); k++) {
                struct cs *piece = NULL;
                assert_int_equal(cs_new(CS_WITNESS, &piece), 0);
                synthesize_run(whole, at, pieces[k]);
                synthesize_run(piece, at, pieces[k]);
                assert_int_equal(cs_witness_append(joined, piece), 0);
                at += pieces[k];
                cs_free(piece);
        }
        assert_int_equal(cs_n_aux(joined), cs_n_aux(whole));
        assert_int_equal(cs_n_inputs(joined), cs_n_inputs(whole));
        assert_int_equal(cs_witness_full(whole, &w1, &n1), 0);
        assert_int_equal(cs_witness_full(joined, &w2, &n2), 0);
        assert_int_equal(n1, n2);
        assert_memory_equal(w1, w2, n1 * sizeof(fr_t));
        free(w1);
        free(w2);

        /* shapes cannot be joined */
        struct cs *shape = NULL;
        assert_int_equal(cs_new(CS_CHECK, &shape), 0);
        assert_int_equal(cs_witness_append(joined, shape), -EINVAL);
        cs_free(shape);
        cs_free(whole);
        cs_free(joined);
}

/* CS_VERIFY: the rows hold or the first that does not is named; nothing is kept. */
static void test_verify_mode(void **state) {
        struct cs *cs = NULL;
        struct pce *pce = NULL;
        fr_t five, twenty_five, six;
        (void)state;

        assert_int_equal(cs_new(CS_VERIFY, &cs), 0);
        synthesize(cs);
        assert_int_equal(cs_first_unsatisfied(cs), UINT64_MAX);

        fr_from_u64(&five, 5);
        fr_from_u64(&twenty_five, 25);
        fr_from_u64(&six, 6);
        cs_var x = cs_alloc_aux(cs, &five);
        struct cs_row *row = cs_row_begin(cs);
        assert_non_null(row);
        cs_lc_add(cs, &row->a, x, cs_fr_one(cs));
        cs_lc_add(cs, &row->b, x, cs_fr_one(cs));
        cs_lc_add(cs, &row->c, CS_ONE, &twenty_five);
        cs_row_end(cs); /* row 3: 5·5 = 25 */
        assert_int_equal(cs_first_unsatisfied(cs), UINT64_MAX);
        row = cs_row_begin(cs);
        cs_lc_add(cs, &row->a, x, cs_fr_one(cs));
        cs_lc_add(cs, &row->b, CS_ONE, cs_fr_one(cs));
        cs_lc_add(cs, &row->c, CS_ONE, &six);
        cs_row_end(cs); /* row 4: 5·1 != 6 */
        row = cs_row_begin(cs);
        cs_row_end(cs);
        assert_int_equal(cs_first_unsatisfied(cs), 4);
        assert_int_equal(cs_n_rows(cs), 6);
        assert_int_equal(cs_to_pce(cs, &pce), -EINVAL);
        cs_free(cs);
}

static void test_refusals(void **state) {
        struct cs *cs = NULL;
        (void)state;

        assert_int_equal(cs_new(0, &cs), -EINVAL);
        assert_int_equal(cs_new(4, &cs), -EINVAL);
        assert_int_equal(cs_new(CS_VERIFY | 8, &cs), -EINVAL);
        assert_int_equal(cs_new(CS_CHECK, &cs), 0);
        assert_int_equal(cs_mode(cs), CS_CHECK);
        assert_int_equal(cs_error(cs), 0);
        assert_null(cs_free(cs));
        assert_null(cs_free(NULL));
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_merge_and_columns), cmocka_unit_test(test_witness_forms),
                cmocka_unit_test(test_witness_append),    cmocka_unit_test(test_verify_mode),
                cmocka_unit_test(test_refusals),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
