/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filecoin/poseidon: the round numbers, Grain constants and hash values
 * published by neptune 11 and filecoin-hashers (POREP.md Part B §1), the
 * optimised form against the plain permutation, and the MDS inverse.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"
#include "filecoin/poseidon/poseidon.h"
#include "filecoin/poseidon/poseidon-vectors.h"

static const unsigned all_arities[] = {2, 4, 8, 11, 16, 24, 36};

static void fr_from_hex_be(fr_t *out, const char *hex) {
        uint8_t be[32];

        assert_int_equal(hex_decode(hex_skip_prefix(hex), 32, be, NULL), 0);
        assert_true(fr_from_be_bytes(out, be));
}

static void fr_from_limbs(fr_t *out, const uint64_t limbs[4]) {
        assert_true(fr_from_canonical(out, limbs));
}

/* neptune test_round_numbers_against_known_values, keyed by width. */
static void test_partial_rounds(void **state) {
        static const unsigned widths[] = {3, 5, 9, 12, 17, 25, 37};
        static const unsigned expected[] = {55, 56, 57, 57, 59, 59, 60};
        (void)state;

        for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
                const struct poseidon_constants *c = poseidon_constants(widths[i] - 1);
                assert_int_equal(poseidon_partial_rounds(widths[i]), expected[i]);
                assert_non_null(c);
                assert_int_equal(c->partial_rounds, expected[i]);
                assert_int_equal(c->full_rounds, 8);
                assert_int_equal(c->n_compressed, (size_t)c->width * 8 + expected[i]);
        }
        assert_null(poseidon_constants(3));
        assert_null(poseidon_constants(0));
        assert_null(poseidon_constants(37));
}

/* The reference sage script's round_constants-1-1-255-9-8-57-...txt. */
static void test_round_constants_t9(void **state) {
        const struct poseidon_constants *c = poseidon_constants(8);
        fr_t first, last;
        (void)state;

        assert_non_null(c);
        fr_from_hex_be(&first,
                       "0x6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9");
        fr_from_hex_be(&last, "0x3b3a75eb91b0f723bcc4ab7e449e4a011b8960063efe74670c05e545519d9a8c");
        assert_int_equal(c->n_round_constants, 585);
        assert_true(fr_equal(&c->round_constants[0], &first));
        assert_true(fr_equal(&c->round_constants[584], &last));
        assert_false(fr_equal(&c->round_constants[1], &first));
}

static void test_round_constants_t3(void **state) {
        const struct poseidon_constants *c = poseidon_constants(2);
        fr_t first;
        (void)state;

        assert_non_null(c);
        fr_from_hex_be(&first,
                       "0x669f064bfa3ae17a23bd51861dbb4a24501eac92a2758b36a7320a009d6ed3d8");
        assert_int_equal(c->n_round_constants, 3 * 63);
        assert_true(fr_equal(&c->round_constants[0], &first));
}

/* poseidon.rs::hash_values_aux: preimage [0, 1, ..., arity - 1]. */
static void test_hash_values(void **state) {
        const struct poseidon_vector *vectors = POSEIDON_NEPTUNE_VECTORS;
        (void)state;

        for (size_t v = 0;
             v < sizeof(POSEIDON_NEPTUNE_VECTORS) / sizeof(POSEIDON_NEPTUNE_VECTORS[0]); v++) {
                const struct poseidon_constants *c = poseidon_constants(vectors[v].arity);
                fr_t in[POSEIDON_MAX_ARITY], expected, got;

                assert_non_null(c);
                for (unsigned i = 0; i < c->arity; i++)
                        fr_from_u64(&in[i], i);
                fr_from_limbs(&expected, vectors[v].limbs);
                poseidon_hash(c, in, &got);
                assert_true(fr_equal(&got, &expected));
                poseidon_hash_reference(c, in, &got);
                assert_true(fr_equal(&got, &expected));

                /* One bit of one input changes the hash. */
                fr_from_u64(&in[c->arity - 1], (c->arity - 1) ^ 1);
                poseidon_hash(c, in, &got);
                assert_false(fr_equal(&got, &expected));
        }
}

/* filecoin-hashers poseidon.rs::test_poseidon_hasher, through the bytes. */
static void test_filecoin_hasher(void **state) {
        static const uint64_t h2_limbs[4] = {0xb339ff6079800b5e, 0xec5907b3dc3094af,
                                             0x93c003cc74a24f26, 0x042f94ffbe786bc3};
        static const uint64_t root_limbs[4] = {0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2,
                                               0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb};
        uint8_t leaves[4][32] = {{1}, {0}, {0}, {1}};
        uint8_t level1[2][32], root[32], expected[32];
        fr_t x;
        (void)state;

        fr_from_limbs(&x, h2_limbs);
        fr_to_le_bytes(expected, &x);
        assert_int_equal(poseidon_hash_bytes(2, (const uint8_t(*)[32])leaves, level1[0]), 0);
        assert_memory_equal(level1[0], expected, 32);

        assert_int_equal(poseidon_hash_bytes(2, (const uint8_t(*)[32]) & leaves[2], level1[1]), 0);
        assert_int_equal(poseidon_hash_bytes(2, (const uint8_t(*)[32])level1, root), 0);
        fr_from_limbs(&x, root_limbs);
        fr_to_le_bytes(expected, &x);
        assert_memory_equal(root, expected, 32);

        leaves[3][0] ^= 2;
        assert_int_equal(poseidon_hash_bytes(2, (const uint8_t(*)[32]) & leaves[2], level1[1]), 0);
        assert_int_equal(poseidon_hash_bytes(2, (const uint8_t(*)[32])level1, root), 0);
        assert_memory_not_equal(root, expected, 32);
}

static void test_bytes_refusals(void **state) {
        uint8_t in[2][32] = {{0}}, out[32];
        (void)state;

        assert_int_equal(poseidon_hash_bytes(3, (const uint8_t(*)[32])in, out), -EOPNOTSUPP);
        /* r itself, little-endian, is not canonical. */
        for (unsigned i = 0; i < 4; i++)
                for (unsigned b = 0; b < 8; b++)
                        in[1][i * 8 + b] = (uint8_t)(BLS12_381_R[i] >> (8 * b));
        assert_int_equal(poseidon_hash_bytes(2, (const uint8_t(*)[32])in, out), -EINVAL);
        in[1][0] -= 1; /* r - 1 is */
        assert_int_equal(poseidon_hash_bytes(2, (const uint8_t(*)[32])in, out), 0);
}

static void random_fr(fr_t *out) {
        uint64_t limbs[4];

        for (;;) {
                for (unsigned i = 0; i < 4; i++)
                        limbs[i] = ((uint64_t)rand() << 33) ^ ((uint64_t)rand() << 11) ^ rand();
                limbs[3] &= UINT64_C(0x7fffffffffffffff);
                if (fr_from_canonical(out, limbs))
                        return;
        }
}

static void test_optimised_equals_reference(void **state) {
        (void)state;

        srand(1234);
        for (size_t a = 0; a < sizeof(all_arities) / sizeof(all_arities[0]); a++) {
                const struct poseidon_constants *c = poseidon_constants(all_arities[a]);
                assert_non_null(c);
                for (unsigned trial = 0; trial < 4; trial++) {
                        fr_t in[POSEIDON_MAX_ARITY], fast, slow;
                        for (unsigned i = 0; i < c->arity; i++)
                                random_fr(&in[i]);
                        poseidon_hash(c, in, &fast);
                        poseidon_hash_reference(c, in, &slow);
                        assert_true(fr_equal(&fast, &slow));
                }
                /* neptune relies on no sparse entry being zero. */
                for (unsigned p = 0; p < c->partial_rounds; p++)
                        for (unsigned i = 0; i < c->width; i++)
                                assert_false(fr_is_zero(&c->sparse[p].w_hat[i]));
        }
}

static void test_mds_inverse(void **state) {
        (void)state;

        for (size_t a = 0; a < sizeof(all_arities) / sizeof(all_arities[0]); a++) {
                const struct poseidon_constants *c = poseidon_constants(all_arities[a]);
                const unsigned t = c->width;
                fr_t expect_x, one;

                fr_set_one(&one);
                for (unsigned i = 0; i < t; i++)
                        for (unsigned j = 0; j < t; j++) {
                                fr_t sum, term;
                                fr_set_zero(&sum);
                                for (unsigned k = 0; k < t; k++) {
                                        fr_mul(&term, &c->mds[i * t + k], &c->mds_inv[k * t + j]);
                                        fr_add(&sum, &sum, &term);
                                }
                                assert_true(i == j ? fr_is_one(&sum) : fr_is_zero(&sum));
                        }
                /* M[i][j] = 1 / (i + j + t): M[1][2] * (t + 3) = 1. */
                fr_from_u64(&expect_x, t + 3);
                fr_mul(&expect_x, &expect_x, &c->mds[1 * t + 2]);
                assert_true(fr_equal(&expect_x, &one));
                /* The tag is 2^arity - 1. */
                fr_from_u64(&expect_x, (UINT64_C(1) << c->arity) - 1);
                assert_true(fr_equal(&expect_x, &c->domain_tag));
        }
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_partial_rounds),
                cmocka_unit_test(test_round_constants_t9),
                cmocka_unit_test(test_round_constants_t3),
                cmocka_unit_test(test_hash_values),
                cmocka_unit_test(test_filecoin_hasher),
                cmocka_unit_test(test_bytes_refusals),
                cmocka_unit_test(test_optimised_equals_reference),
                cmocka_unit_test(test_mds_inverse),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
