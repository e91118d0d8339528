/* SPDX-License-Identifier: Apache-2.0 */
/*
 * circuits/gadgets/sha256: bellperson's published row counts (test_full_block
 * 25,840, test_full_hash 44,874, util.rs's hash_leaf_bits 45,387), the same
 * counts in shape and witness mode, digests against libcrypto, every row
 * satisfied by the witness, and a flipped witness bit caught.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/cs/cs.h"
#include "circuits/test-rng.h"
#include "circuits/gadgets/num.h"
#include "circuits/gadgets/sha256-node.h"
#include "circuits/gadgets/sha256.h"
#include "filecoin/sha256/sha256.h"

static void libcrypto_sha256(const uint8_t *data, size_t n, uint8_t out[32]) {
        unsigned len = 0;
        assert_int_equal(EVP_Digest(data, n, out, &len, EVP_sha256(), NULL), 1);
        assert_int_equal(len, 32);
}

/* libcrypto's compression of one block from the IV (its state words). */
static void libcrypto_compress_iv(const uint8_t block[64], uint8_t out[32]) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        SHA256_CTX ctx;
        SHA256_Init(&ctx);
        SHA256_Transform(&ctx, block);
#pragma GCC diagnostic pop
        for (unsigned i = 0; i < 8; i++)
                for (unsigned k = 0; k < 4; k++)
                        out[4 * i + k] = (uint8_t)(ctx.h[i] >> (24 - 8 * k));
}

/* Message bytes as allocated bits, most significant first in each byte. */
static void alloc_message_bits(struct cs *cs, const uint8_t *msg, size_t n, struct cs_bool *bits) {
        for (size_t i = 0; i < 8 * n; i++)
                bits[i] = cs_bit_alloc(cs, (msg[i / 8] >> (7 - i % 8)) & 1);
}

static void bits_to_bytes_be(const struct cs_bool *bits, size_t n_bytes, uint8_t *out) {
        memset(out, 0, n_bytes);
        for (size_t i = 0; i < 8 * n_bytes; i++)
                out[i / 8] |= (uint8_t)(bits[i].value << (7 - i % 8));
}

enum circuit {
        FULL_BLOCK,  /* bellperson test_full_block */
        FULL_HASH,   /* bellperson test_full_hash */
        LEAF_BITS,   /* storage-proofs-core hash_leaf_bits_circuit */
        TREE_D_NODE, /* filecoin-hashers hash_multi_leaf_circuit over two nums */
};

/* Synthesises one circuit over the 64-byte msg; digest gets its output bytes
 * (for LEAF_BITS: the packed Fr as 32 little-endian bytes). */
static void synthesize(struct cs *cs, enum circuit which, const uint8_t msg[64],
                       uint8_t digest[32]) {
        struct cs_bool in[512], out[256];

        if (which == TREE_D_NODE) {
                struct cs_num children[2], node;
                for (unsigned k = 0; k < 2; k++) {
                        fr_t x;
                        assert_true(fr_from_le_bytes(&x, msg + 32 * k));
                        children[k] = cs_num_alloc(cs, &x);
                }
                node = cs_sha256_node(cs, &children[0], &children[1]);
                fr_to_le_bytes(digest, &node.value);
                return;
        }
        if (which == LEAF_BITS) {
                struct cs_bool bits[512], preimage[512], le[256];
                struct cs_num packed;
                /* left and right as little-endian bits of their 32 bytes */
                for (size_t i = 0; i < 512; i++)
                        bits[i] = cs_bit_alloc(cs, (msg[i / 8] >> (i % 8)) & 1);
                assert_int_equal(cs_reverse_bit_numbering(bits, 256, preimage), 256);
                assert_int_equal(cs_reverse_bit_numbering(bits + 256, 256, preimage + 256), 256);
                assert_int_equal(cs_sha256(cs, preimage, 512, out), 0);
                cs_reverse_bit_numbering(out, 256, le);
                packed = cs_pack_bits(cs, le, CS_FR_CAPACITY);
                fr_to_le_bytes(digest, &packed.value);
                return;
        }
        alloc_message_bits(cs, msg, 64, in);
        if (which == FULL_BLOCK)
                cs_sha256_block_no_padding(cs, in, out);
        else
                assert_int_equal(cs_sha256(cs, in, 512, out), 0);
        bits_to_bytes_be(out, 32, digest);
}

static void expected_digest(enum circuit which, const uint8_t msg[64], uint8_t digest[32]) {
        if (which == FULL_BLOCK) {
                libcrypto_compress_iv(msg, digest);
                return;
        }
        if (which == TREE_D_NODE) {
                sha254_pair(msg, msg + 32, digest); /* filecoin/sha256's tree-D node */
                return;
        }
        libcrypto_sha256(msg, 64, digest);
        if (which == LEAF_BITS)
                digest[31] &= 0x3f; /* Filecoin's trim to 254 bits */
}

/* Shape, witness and check runs agree; the witness satisfies every row and a
 * flipped bit does not. Returns the shape run's PCE. */
static struct pce *check_circuit(enum circuit which, uint64_t expected_rows, uint64_t seed) {
        struct cs *shape = NULL, *witness = NULL, *both = NULL;
        struct pce *pce = NULL;
        uint8_t msg[64], digest[32], expected[32], again[32];
        fr_t *w = NULL, *w2 = NULL;
        size_t n = 0, n2 = 0;
        uint64_t row = 0;

        test_rng_seed(seed);
        test_rng_bytes(msg, sizeof(msg));
        if (which == TREE_D_NODE) {
                /* two Fr reprs (Sha256Domain values are trimmed below 2^254) */
                msg[31] &= 0x3f;
                msg[63] &= 0x3f;
        }
        expected_digest(which, msg, expected);

        assert_int_equal(cs_new(CS_SHAPE, &shape), 0);
        assert_int_equal(cs_new(CS_WITNESS, &witness), 0);
        assert_int_equal(cs_new(CS_CHECK, &both), 0);
        synthesize(shape, which, msg, digest);
        synthesize(witness, which, msg, digest);
        assert_memory_equal(digest, expected, 32);
        synthesize(both, which, msg, again);
        assert_memory_equal(again, expected, 32);

        assert_int_equal(cs_n_rows(shape), expected_rows);
        assert_int_equal(cs_n_rows(witness), expected_rows);
        assert_int_equal(cs_n_aux(witness), cs_n_aux(shape));
        assert_int_equal(cs_n_inputs(witness), cs_n_inputs(shape));
        assert_int_equal(cs_error(shape), 0);
        assert_int_equal(cs_error(witness), 0);

        /* The witness-only run computes the same values as the check run. */
        assert_int_equal(cs_witness_full(witness, &w, &n), 0);
        assert_int_equal(cs_witness_full(both, &w2, &n2), 0);
        assert_int_equal(n, n2);
        assert_memory_equal(w, w2, n * sizeof(fr_t));
        assert_int_equal(cs_witness_full(shape, &w2, &n2), -EINVAL);

        assert_int_equal(cs_to_pce(shape, &pce), 0);
        assert_int_equal(pce->n_rows, expected_rows + 1);
        assert_int_equal(pce->n_cols, n);
        assert_int_equal(cs_pce_check(pce, w, n, &row), 0);

        /* Flip one result bit in the middle of the circuit. */
        size_t k = n / 2;
        fr_is_zero(&w[k]) ? fr_set_one(&w[k]) : fr_set_zero(&w[k]);
        assert_int_equal(cs_pce_check(pce, w, n, &row), 1);
        assert_true(row < expected_rows);

        /* A flipped message bit changes the digest the same way as libcrypto's. */
        msg[17] ^= 0x10;
        cs_free(witness);
        assert_int_equal(cs_new(CS_WITNESS, &witness), 0);
        synthesize(witness, which, msg, digest);
        expected_digest(which, msg, again);
        assert_memory_equal(digest, again, 32);
        assert_memory_not_equal(digest, expected, 32);

        free(w);
        free(w2);
        cs_free(shape);
        cs_free(witness);
        cs_free(both);
        return pce;
}

static void print_shape(const char *name, const struct pce *pce) {
        /* The reference's combinations never cancel to a zero coefficient
         * here (POREP.md: nnz counts no zeros). */
        for (size_t m = 0; m < PCE_N_MATRICES; m++)
                for (uint32_t k = 0; k < pce->m[m].n_values; k++)
                        assert_false(fr_is_zero(&pce->m[m].values[k]));
        printf("# %s: rows %u (input rows included), columns %u, nnz A %llu B %llu C %llu, "
               "coefficients A %u B %u C %u\n",
               name, pce->n_rows, pce->n_cols, (unsigned long long)pce->m[PCE_A].n_terms,
               (unsigned long long)pce->m[PCE_B].n_terms, (unsigned long long)pce->m[PCE_C].n_terms,
               pce->m[PCE_A].n_values, pce->m[PCE_B].n_values, pce->m[PCE_C].n_values);
}

static void test_full_block(void **state) {
        (void)state;
        struct pce *pce = check_circuit(FULL_BLOCK, 512 + 25840, 1);
        print_shape("1 block", pce);
        pce_free(pce);
}

static void test_full_hash(void **state) {
        (void)state;
        struct pce *pce = check_circuit(FULL_HASH, 512 + 44874, 2);
        print_shape("2 blocks", pce);
        pce_free(pce);
}

static void test_hash_leaf_bits(void **state) {
        (void)state;
        struct pce *pce = check_circuit(LEAF_BITS, 45387, 3);
        print_shape("hash_leaf_bits", pce);
        pce_free(pce);
}

/* POREP.md: a tree-D node in the circuit (cs_sha256_node), 2 x 256 + 44,866 + 1. */
static void test_tree_d_node(void **state) {
        (void)state;
        struct pce *pce = check_circuit(TREE_D_NODE, 45379, 5);
        print_shape("tree-D node", pce);
        pce_free(pce);
}

/* bellperson test_blank_hash: constant input and IV cost nothing. */
static void test_blank_hash(void **state) {
        static const uint8_t empty[32] = {
                0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4,
                0xc8, 0x99, 0x6f, 0xb9, 0x24, 0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b,
                0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55,
        };
        struct cs_bool in[512], out[256];
        uint8_t digest[32];
        struct cs *cs = NULL;
        (void)state;

        for (size_t i = 0; i < 512; i++)
                in[i] = cs_bool_constant(i == 0);
        assert_int_equal(cs_new(CS_CHECK, &cs), 0);
        cs_sha256_block_no_padding(cs, in, out);
        assert_int_equal(cs_n_rows(cs), 0);
        assert_int_equal(cs_n_aux(cs), 0);
        for (size_t i = 0; i < 256; i++)
                assert_true(cs_bool_is_constant(out[i]));
        bits_to_bytes_be(out, 32, digest);
        assert_memory_equal(digest, empty, 32);
        cs_free(cs);
}

/* bellperson test_against_vectors: lengths 0..31 and multiples of 8 bytes. */
static void test_against_vectors(void **state) {
        uint8_t data[256], digest[32], expected[32];
        (void)state;

        test_rng_seed(4);
        for (size_t len = 0; len < 256; len += len < 32 ? 1 : 8) {
                struct cs_bool in[8 * 256], out[256];
                struct cs *cs = NULL;

                test_rng_bytes(data, len);
                assert_int_equal(cs_new(CS_WITNESS, &cs), 0);
                alloc_message_bits(cs, data, len, in);
                assert_int_equal(cs_sha256(cs, in, 8 * len, out), 0);
                bits_to_bytes_be(out, 32, digest);
                libcrypto_sha256(data, len, expected);
                assert_memory_equal(digest, expected, 32);
                cs_free(cs);
        }
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_full_block),     cmocka_unit_test(test_full_hash),
                cmocka_unit_test(test_hash_leaf_bits), cmocka_unit_test(test_tree_d_node),
                cmocka_unit_test(test_blank_hash),     cmocka_unit_test(test_against_vectors),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
