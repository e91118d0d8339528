/* SPDX-License-Identifier: Apache-2.0 */
/*
 * circuits/gadgets/poseidon: neptune's published row counts (circuit.rs
 * test_poseidon_hash: 311, 377, 505, 761, 1,009, 1,385; stacked/circuit/
 * hash.rs: 598 for arity 11), neptune's hash_values_aux vectors through the
 * circuit, random inputs against the native optimised and plain
 * permutations, shape/witness/check runs that agree, a shape that does not
 * depend on the values, every row satisfied and a changed value caught.
 * Prints each arity's nnz of A, B and C.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/cs/cs.h"
#include "circuits/test-rng.h"
#include "circuits/test-shape.h"
#include "circuits/gadgets/poseidon.h"
#include "filecoin/poseidon/poseidon-vectors.h"

/* A random Fr below 2^254 (hence below r). */
static void random_fr(fr_t *out) {
        uint8_t le[32];

        test_rng_repr(le);
        assert_true(fr_from_le_bytes(out, le));
}

/* The inputs allocated as aux nums (no rows), then the hash. */
static struct cs_num synthesize(struct cs *cs, const struct poseidon_constants *c, const fr_t *in) {
        struct cs_num nums[POSEIDON_MAX_ARITY];

        for (unsigned i = 0; i < c->arity; i++)
                nums[i] = cs_num_alloc(cs, &in[i]);
        return cs_poseidon_hash(cs, c, nums);
}

static struct pce *shape_of(const struct poseidon_constants *c, const fr_t *in) {
        struct cs *cs = NULL;
        struct pce *pce = NULL;

        assert_int_equal(cs_new(CS_SHAPE, &cs), 0);
        synthesize(cs, c, in);
        assert_int_equal(cs_to_pce(cs, &pce), 0);
        cs_free(cs);
        return pce;
}

static void print_shape(unsigned arity, const struct pce *pce) {
        unsigned zeros = 0;

        for (size_t m = 0; m < PCE_N_MATRICES; m++)
                for (uint32_t k = 0; k < pce->m[m].n_values; k++)
                        zeros += fr_is_zero(&pce->m[m].values[k]);
        printf("# arity %2u: rows %u, nnz A %llu B %llu C %llu (input rows included), "
               "zero coefficients %u\n",
               arity, pce->n_rows - 1, (unsigned long long)pce->m[PCE_A].n_terms,
               (unsigned long long)pce->m[PCE_B].n_terms, (unsigned long long)pce->m[PCE_C].n_terms,
               zeros);
}

static void check_arity(unsigned arity, uint64_t expected_rows) {
        const struct poseidon_constants *c = poseidon_constants(arity);
        struct cs *shape = NULL, *witness = NULL, *both = NULL;
        fr_t in[POSEIDON_MAX_ARITY], zeros[POSEIDON_MAX_ARITY] = {0}, native, plain, *w = NULL,
                                     *w2 = NULL;
        struct cs_num out, out_witness, out_both;
        struct pce *pce = NULL, *blank = NULL;
        size_t n = 0, n2 = 0;
        uint64_t row = 0;

        assert_non_null(c);
        test_rng_seed(arity);
        for (unsigned i = 0; i < arity; i++)
                random_fr(&in[i]);
        poseidon_hash(c, in, &native);
        poseidon_hash_reference(c, in, &plain);
        assert_true(fr_equal(&native, &plain));

        assert_int_equal(cs_new(CS_SHAPE, &shape), 0);
        assert_int_equal(cs_new(CS_WITNESS, &witness), 0);
        assert_int_equal(cs_new(CS_CHECK, &both), 0);
        out = synthesize(shape, c, in);
        out_witness = synthesize(witness, c, in);
        out_both = synthesize(both, c, in);
        assert_true(fr_equal(&out.value, &native));
        assert_true(fr_equal(&out_witness.value, &native));
        assert_true(fr_equal(&out_both.value, &native));

        /* neptune: every row allocates one variable. */
        assert_int_equal(cs_n_rows(shape), expected_rows);
        assert_int_equal(cs_n_aux(shape), arity + expected_rows);
        assert_int_equal(cs_n_rows(witness), expected_rows);
        assert_int_equal(cs_n_aux(witness), arity + expected_rows);
        assert_int_equal(cs_n_rows(both), expected_rows);
        assert_int_equal(cs_n_aux(both), arity + expected_rows);
        assert_int_equal(out.var, out_witness.var);

        assert_int_equal(cs_witness_full(witness, &w, &n), 0);
        assert_int_equal(cs_witness_full(both, &w2, &n2), 0);
        assert_int_equal(n, n2);
        assert_memory_equal(w, w2, n * sizeof(fr_t));

        assert_int_equal(cs_to_pce(shape, &pce), 0);
        assert_int_equal(pce->n_cols, n);
        assert_int_equal(cs_pce_check(pce, w, n, &row), 0);
        print_shape(arity, pce);

        /* The shape does not depend on the values. */
        blank = shape_of(c, zeros);
        assert_same_shape(pce, blank);

        /* One changed value (an S-box output in the middle) breaks a row. */
        fr_add(&w[n / 2], &w[n / 2], cs_fr_one(both));
        assert_int_equal(cs_pce_check(pce, w, n, &row), 1);
        assert_true(row < expected_rows);

        /* A changed input changes the hash as the native one does. */
        fr_add(&in[arity - 1], &in[arity - 1], cs_fr_one(both));
        cs_free(witness);
        assert_int_equal(cs_new(CS_WITNESS, &witness), 0);
        out_witness = synthesize(witness, c, in);
        poseidon_hash_reference(c, in, &plain);
        assert_true(fr_equal(&out_witness.value, &plain));
        assert_false(fr_equal(&out_witness.value, &native));

        free(w);
        free(w2);
        pce_free(pce);
        pce_free(blank);
        cs_free(shape);
        cs_free(witness);
        cs_free(both);
}

static void test_arity_2(void **state) {
        (void)state;
        check_arity(2, 311);
}

static void test_arity_4(void **state) {
        (void)state;
        check_arity(4, 377);
}

static void test_arity_8(void **state) {
        (void)state;
        check_arity(8, 505);
}

static void test_arity_11(void **state) {
        (void)state;
        check_arity(11, 598);
}

static void test_arity_16(void **state) {
        (void)state;
        check_arity(16, 761);
}

static void test_arity_24(void **state) {
        (void)state;
        check_arity(24, 1009);
}

static void test_arity_36(void **state) {
        (void)state;
        check_arity(36, 1385);
}

/* neptune poseidon.rs hash_values_aux (Standard, MerkleTree, preimage
 * 0, 1, ..., arity - 1), POREP.md Part B §1, computed by the circuit. */
static void test_neptune_vectors(void **state) {
        const struct poseidon_vector *vectors = POSEIDON_NEPTUNE_VECTORS;
        (void)state;

        for (size_t v = 0;
             v < sizeof(POSEIDON_NEPTUNE_VECTORS) / sizeof(POSEIDON_NEPTUNE_VECTORS[0]); v++) {
                const struct poseidon_constants *c = poseidon_constants(vectors[v].arity);
                fr_t in[POSEIDON_MAX_ARITY], expected;
                struct cs *cs = NULL;
                struct cs_num out;

                assert_non_null(c);
                assert_true(fr_from_canonical(&expected, vectors[v].limbs));
                for (unsigned i = 0; i < c->arity; i++)
                        fr_from_u64(&in[i], i);
                assert_int_equal(cs_new(CS_WITNESS, &cs), 0);
                out = synthesize(cs, c, in);
                assert_true(fr_equal(&out.value, &expected));
                cs_free(cs);

                /* preimage 1, 1, 2, ...: another hash */
                fr_from_u64(&in[0], 1);
                assert_int_equal(cs_new(CS_WITNESS, &cs), 0);
                out = synthesize(cs, c, in);
                assert_false(fr_equal(&out.value, &expected));
                cs_free(cs);
        }
}

/* The same allocated num twice (its terms merge in every combination). */
static void test_repeated_input(void **state) {
        const struct poseidon_constants *c = poseidon_constants(2);
        struct cs *cs = NULL;
        struct pce *pce = NULL;
        struct cs_num x[2], out;
        fr_t v[2], native, *w = NULL;
        size_t n = 0;
        uint64_t row = 0;
        (void)state;

        test_rng_seed(99);
        random_fr(&v[0]);
        v[1] = v[0];
        poseidon_hash(c, v, &native);
        assert_int_equal(cs_new(CS_CHECK, &cs), 0);
        x[0] = cs_num_alloc(cs, &v[0]);
        x[1] = x[0];
        out = cs_poseidon_hash(cs, c, x);
        assert_true(fr_equal(&out.value, &native));
        assert_int_equal(cs_n_rows(cs), 311);
        assert_int_equal(cs_to_pce(cs, &pce), 0);
        assert_int_equal(cs_witness_full(cs, &w, &n), 0);
        assert_int_equal(cs_pce_check(pce, w, n, &row), 0);
        free(w);
        pce_free(pce);
        cs_free(cs);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_arity_2),        cmocka_unit_test(test_arity_4),
                cmocka_unit_test(test_arity_8),        cmocka_unit_test(test_arity_11),
                cmocka_unit_test(test_arity_16),       cmocka_unit_test(test_arity_24),
                cmocka_unit_test(test_arity_36),       cmocka_unit_test(test_neptune_vectors),
                cmocka_unit_test(test_repeated_input),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
