/* SPDX-License-Identifier: Apache-2.0 */
/*
 * circuits/gadgets/uint64: the 65 rows of a challenge's UInt64 in the
 * StackedCircuit (../shared/POREP.md Part B §8: 64 booleanity rows, then
 * pack_into_input), its public input equal to Fr::from(u64) as the
 * verifier's u64_into_fr computes it (§9), the bit orders, every row
 * satisfied, and a flipped bit caught.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "circuits/cs/cs.h"
#include "circuits/gadgets/uint64.h"

static const uint64_t values[] = {
        0,
        1,
        22,
        UINT64_C(0x3fffffff),
        UINT64_C(0x8000000000000001),
        UINT64_C(0xdeadbeefcafef00d),
        UINT64_MAX,
};

/* Allocates value, packs it into an input; checks counts and the input. */
static void check_value(uint64_t value) {
        struct cs *cs = NULL;
        struct pce *pce = NULL;
        struct cs_u64 word;
        struct cs_bool be[64];
        fr_t *w = NULL, expected;
        size_t n = 0;
        uint64_t row = 0;

        assert_int_equal(cs_new(CS_CHECK, &cs), 0);
        cs_u64_alloc(cs, &word, value);
        assert_int_equal(cs_n_rows(cs), 64);
        assert_int_equal(cs_n_aux(cs), 64);
        assert_true(word.value == value);
        for (unsigned i = 0; i < 64; i++) {
                assert_int_equal(word.bits[i].kind, CS_BOOL_IS);
                assert_int_equal(word.bits[i].var, i); /* least significant allocated first */
                assert_int_equal(word.bits[i].value, (value >> i) & 1);
        }
        cs_u64_to_bits_be(&word, be);
        for (unsigned i = 0; i < 64; i++)
                assert_int_equal(be[i].value, (value >> (63 - i)) & 1);

        cs_u64_pack_into_input(cs, &word);
        assert_int_equal(cs_n_rows(cs), 65);
        assert_int_equal(cs_n_inputs(cs), 1);
        assert_int_equal(cs_n_aux(cs), 64);
        assert_int_equal(cs_error(cs), 0);

        /* The prover's input is the verifier's Fr::from(value). */
        fr_from_u64(&expected, value);
        assert_true(fr_equal(&cs_witness(cs)->inputs[1], &expected));

        assert_int_equal(cs_to_pce(cs, &pce), 0);
        assert_int_equal(pce->n_rows, 65 + 2); /* + the input rows of ONE and the input */
        assert_int_equal(cs_witness_full(cs, &w, &n), 0);
        assert_int_equal(n, 1 + 1 + 64);
        assert_int_equal(cs_pce_check(pce, w, n, &row), 0);

        /* A flipped bit keeps its booleanity row but breaks the packing row. */
        fr_is_zero(&w[2 + 5]) ? fr_set_one(&w[2 + 5]) : fr_set_zero(&w[2 + 5]);
        assert_int_equal(cs_pce_check(pce, w, n, &row), 1);
        assert_int_equal(row, 64);

        free(w);
        pce_free(pce);
        cs_free(cs);
}

static void test_alloc_and_pack(void **state) {
        (void)state;
        for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
                check_value(values[i]);
}

/* A one-bit change of the value changes the input. */
static void test_input_follows_value(void **state) {
        struct cs *a = NULL, *b = NULL;
        struct cs_u64 wa, wb;
        (void)state;

        assert_int_equal(cs_new(CS_WITNESS, &a), 0);
        assert_int_equal(cs_new(CS_WITNESS, &b), 0);
        cs_u64_alloc(a, &wa, UINT64_C(0x123456789));
        cs_u64_alloc(b, &wb, UINT64_C(0x123456789) ^ (UINT64_C(1) << 40));
        cs_u64_pack_into_input(a, &wa);
        cs_u64_pack_into_input(b, &wb);
        assert_false(fr_equal(&cs_witness(a)->inputs[1], &cs_witness(b)->inputs[1]));
        cs_free(a);
        cs_free(b);
}

/* Shape mode records the same counts without values. */
static void test_shape_counts(void **state) {
        struct cs *cs = NULL;
        struct cs_u64 word;
        (void)state;

        assert_int_equal(cs_new(CS_SHAPE, &cs), 0);
        cs_u64_alloc(cs, &word, 0);
        cs_u64_pack_into_input(cs, &word);
        assert_int_equal(cs_n_rows(cs), 65);
        assert_int_equal(cs_n_inputs(cs), 1);
        assert_int_equal(cs_n_aux(cs), 64);
        assert_null(cs_witness(cs));
        cs_free(cs);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_alloc_and_pack),
                cmocka_unit_test(test_input_follows_value),
                cmocka_unit_test(test_shape_counts),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
