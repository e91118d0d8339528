/* SPDX-License-Identifier: Apache-2.0 */
/*
 * circuits/gadgets/num: to_bits_le (255 bits + the unpacking row = 256
 * rows), inputize, pack_bits, pack_into_inputs (bellperson's multipacking)
 * and reverse_bit_numbering, checked against the bits of the values.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/cs/cs.h"
#include "circuits/gadgets/num.h"
#include "circuits/test-rng.h"

/* A random element below r (the top two bits cleared, so < 2^254 < r). */
static void random_fr(fr_t *x, uint8_t le[32]) {
        test_rng_repr(le);
        assert_true(fr_from_le_bytes(x, le));
}

/* Shape and witness of cs; returns 0 or 1 from cs_pce_check, w kept for mutation. */
static int check(struct cs *cs, struct pce **ret_pce, fr_t **ret_w, size_t *ret_n) {
        uint64_t row;
        assert_int_equal(cs_to_pce(cs, ret_pce), 0);
        assert_int_equal(cs_witness_full(cs, ret_w, ret_n), 0);
        return cs_pce_check(*ret_pce, *ret_w, *ret_n, &row);
}

static void test_to_bits_le(void **state) {
        struct cs_bool bits[CS_FR_NUM_BITS];
        uint8_t le[32];
        struct pce *pce = NULL;
        struct cs *cs = NULL;
        fr_t x, *w = NULL;
        size_t n;
        uint64_t row;
        (void)state;

        random_fr(&x, le);
        assert_int_equal(cs_new(CS_CHECK, &cs), 0);
        struct cs_num num = cs_num_alloc(cs, &x);
        cs_num_to_bits_le(cs, &num, bits);
        assert_int_equal(cs_n_rows(cs), 256);
        assert_int_equal(cs_n_aux(cs), 256);
        for (unsigned i = 0; i < CS_FR_NUM_BITS; i++)
                assert_int_equal(bits[i].value, (le[i / 8] >> (i % 8)) & 1);
        assert_int_equal(bits[254].value, 0);

        assert_int_equal(check(cs, &pce, &w, &n), 0);
        /* the unpacking row: 0·0 = Σ 2^i b_i - x, 256 C terms */
        const struct pce_matrix *c = &pce->m[PCE_C];
        assert_int_equal(c->row_start[256] - c->row_start[255], 256);
        assert_int_equal(pce->m[PCE_A].row_start[256] - pce->m[PCE_A].row_start[255], 0);
        /* the compact witness: x is the one non-bit aux */
        const struct cs_witness *cw = cs_witness(cs);
        assert_int_equal(cw->n_nums, 1);
        assert_true(fr_equal(&cw->nums[0], &x));
        assert_false(pce_bit(cw->aux_is_bit, 0));
        assert_true(pce_bit(cw->aux_is_bit, 1));

        /* one bit flipped: the unpacking row fails */
        size_t k = 1 + 1 + 3; /* ONE, x, bits 0..2 */
        fr_is_zero(&w[k]) ? fr_set_one(&w[k]) : fr_set_zero(&w[k]);
        assert_int_equal(cs_pce_check(pce, w, n, &row), 1);
        assert_int_equal(row, 255);
        free(w);
        pce_free(pce);
        cs_free(cs);
}

/* proof.rs's start: replica_id allocated, inputized, decomposed. */
static void test_inputize_and_bits(void **state) {
        struct cs_bool bits[CS_FR_NUM_BITS], reversed[256];
        uint8_t le[32];
        struct pce *pce = NULL;
        struct cs *cs = NULL;
        fr_t x, *w = NULL;
        size_t n;
        (void)state;

        random_fr(&x, le);
        assert_int_equal(cs_new(CS_CHECK, &cs), 0);
        struct cs_num num = cs_num_alloc(cs, &x);
        cs_num_inputize(cs, &num);
        cs_num_to_bits_le(cs, &num, bits);
        assert_int_equal(cs_n_rows(cs), 257);
        assert_int_equal(cs_n_inputs(cs), 1);
        assert_int_equal(cs_n_aux(cs), 256);
        assert_int_equal(check(cs, &pce, &w, &n), 0);
        /* the input is column 1, x column 2: input·ONE = x */
        assert_true(fr_equal(&w[1], &x) && fr_equal(&w[2], &x));
        assert_int_equal(pce->m[PCE_A].col[pce->m[PCE_A].row_start[0]], 1);
        assert_int_equal(pce->m[PCE_C].col[pce->m[PCE_C].row_start[0]], 2);
        assert_int_equal(pce->n_rows, 257 + 2);

        /* reverse_bit_numbering: the bytes of x, most significant bit first */
        assert_int_equal(cs_reverse_bit_numbering(bits, CS_FR_NUM_BITS, reversed), 256);
        assert_true(cs_bool_is_constant(reversed[248]) && !reversed[248].value);
        for (unsigned i = 0; i < 256; i++)
                assert_int_equal(reversed[i].value, (le[i / 8] >> (7 - i % 8)) & 1);
        free(w);
        pce_free(pce);
        cs_free(cs);
}

static void test_pack_bits(void **state) {
        struct cs_bool bits[300];
        uint8_t le[32] = {0}, got[32];
        struct pce *pce = NULL;
        struct cs *cs = NULL;
        fr_t *w = NULL;
        size_t n;
        (void)state;

        assert_int_equal(cs_new(CS_CHECK, &cs), 0);
        for (unsigned i = 0; i < 300; i++) {
                bool v = test_rng_next() & 1;
                /* every kind: allocated, negated, constant */
                bits[i] = i % 3 == 0   ? cs_bit_alloc(cs, v)
                          : i % 3 == 1 ? cs_bool_not(cs_bit_alloc(cs, !v))
                                       : cs_bool_constant(v);
                if (i < 254)
                        le[i / 8] |= (uint8_t)(v << (i % 8));
        }
        uint64_t rows = cs_n_rows(cs);
        struct cs_num packed = cs_pack_bits(cs, bits, 300);
        assert_int_equal(cs_n_rows(cs), rows + 1);
        fr_to_le_bytes(got, &packed.value);
        assert_memory_equal(got, le, 32);
        assert_int_equal(check(cs, &pce, &w, &n), 0);
        free(w);
        pce_free(pce);

        /* 300 bits: two inputs, 254 + 46 bits */
        cs_pack_into_inputs(cs, bits, 300);
        assert_int_equal(cs_n_inputs(cs), 2);
        assert_int_equal(check(cs, &pce, &w, &n), 0);
        fr_to_le_bytes(got, &w[1]);
        assert_memory_equal(got, le, 32);
        memset(le, 0, sizeof(le));
        for (unsigned i = 254; i < 300; i++)
                le[(i - 254) / 8] |= (uint8_t)(bits[i].value << ((i - 254) % 8));
        fr_to_le_bytes(got, &w[2]);
        assert_memory_equal(got, le, 32);

        /* a wrong public input fails its packing row */
        uint64_t row;
        fr_add(&w[2], &w[2], &w[0]);
        assert_int_equal(cs_pce_check(pce, w, n, &row), 1);
        assert_int_equal(row, cs_n_rows(cs) - 1);
        free(w);
        pce_free(pce);
        cs_free(cs);
}

int main(void) {
        test_rng_seed(7);
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_to_bits_le),
                cmocka_unit_test(test_inputize_and_bits),
                cmocka_unit_test(test_pack_bits),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
