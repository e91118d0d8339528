/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filecoin/sha256: the FIPS 180-4 vectors through libcrypto and through the
 * exposed compression function (padding done here), and Filecoin's 254-bit
 * forms against the 2 KiB comm_d of zeros (go-commp-utils) and of data[0] = 1
 * (curio).
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdint.h>
#include <string.h>

#include "common/hex.h"
#include "filecoin/sha256/compress.h"
#include "filecoin/sha256/sha256.h"

struct fips_vector {
        const char *message;
        const char *digest_hex;
};

/* FIPS 180-4 examples (NIST CSRC "SHA256.pdf", "SHA256_2.pdf") and the empty message. */
static const struct fips_vector FIPS_VECTORS[] = {
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
};

static void decode32(const char *hex, uint8_t out[32]) {
        assert_int_equal(hex_decode(hex, 32, out, NULL), 0);
}

/* SHA-256 of message (at most 119 bytes) by padding it here and compressing
 * block by block from SHA256_IV. */
static void digest_by_compression(const uint8_t *message, size_t len, uint8_t out[32]) {
        uint8_t padded[128] = {0};
        size_t blocks = (len + 9 + 63) / 64;
        uint64_t bits = (uint64_t)len * 8;
        uint32_t state[SHA256_STATE_WORDS];

        assert_true(blocks <= 2);
        memcpy(padded, message, len);
        padded[len] = 0x80;
        for (unsigned i = 0; i < 8; i++)
                padded[64 * blocks - 1 - i] = (uint8_t)(bits >> (8 * i));
        memcpy(state, SHA256_IV, sizeof(state));
        for (size_t b = 0; b < blocks; b++)
                sha256_compress(state, padded + 64 * b);
        sha256_state_to_digest(state, out);
}

static void test_fips_vectors_libcrypto(void **state) {
        (void)state;

        for (size_t v = 0; v < sizeof(FIPS_VECTORS) / sizeof(FIPS_VECTORS[0]); v++) {
                const char *m = FIPS_VECTORS[v].message;
                uint8_t expected[32], got[32];

                decode32(FIPS_VECTORS[v].digest_hex, expected);
                sha256_digest(m, strlen(m), got);
                assert_memory_equal(got, expected, 32);
        }
}

static void test_fips_vectors_compression(void **state) {
        (void)state;

        for (size_t v = 0; v < sizeof(FIPS_VECTORS) / sizeof(FIPS_VECTORS[0]); v++) {
                const char *m = FIPS_VECTORS[v].message;
                uint8_t expected[32], got[32];

                decode32(FIPS_VECTORS[v].digest_hex, expected);
                digest_by_compression((const uint8_t *)m, strlen(m), got);
                assert_memory_equal(got, expected, 32);
        }
}

static void test_one_bit_changes_digest(void **state) {
        uint8_t message[3] = {'a', 'b', 'c'}, expected[32], got[32];
        (void)state;

        decode32(FIPS_VECTORS[0].digest_hex, expected);
        message[1] ^= 0x01;
        digest_by_compression(message, sizeof(message), got);
        assert_memory_not_equal(got, expected, 32);
        sha256_digest(message, sizeof(message), got);
        assert_memory_not_equal(got, expected, 32);
}

/* The compression path and libcrypto agree on every length up to two blocks. */
static void test_compression_matches_libcrypto(void **state) {
        uint8_t message[119];
        (void)state;

        for (size_t i = 0; i < sizeof(message); i++)
                message[i] = (uint8_t)(i * 37 + 11);
        for (size_t len = 0; len <= sizeof(message); len++) {
                uint8_t a[32], b[32];

                digest_by_compression(message, len, a);
                sha256_digest(message, len, b);
                assert_memory_equal(a, b, 32);
        }
}

static void test_pieces(void **state) {
        const char *m = FIPS_VECTORS[1].message;
        const struct sha256_piece pieces[] = {{m, 5}, {m + 5, 0}, {m + 5, strlen(m) - 5}};
        uint8_t expected[32], got[32];
        (void)state;

        decode32(FIPS_VECTORS[1].digest_hex, expected);
        sha256_digest_pieces(pieces, 3, got);
        assert_memory_equal(got, expected, 32);
}

static void test_trim(void **state) {
        uint8_t d[32];
        (void)state;

        memset(d, 0xff, sizeof(d));
        sha254_trim(d);
        for (unsigned i = 0; i < 31; i++)
                assert_int_equal(d[i], 0xff);
        assert_int_equal(d[31], 0x3f);
}

/* go-commp-utils zerocomm: the comm_d of 2 KiB of zeros, a 6-level sha254 tree. */
static void test_pair_zero_comm_d_2kib(void **state) {
        uint8_t node[32] = {0}, expected[32];
        (void)state;

        decode32("fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833", expected);
        for (unsigned level = 0; level < 6; level++)
                sha254_pair(node, node, node);
        assert_memory_equal(node, expected, 32);
}

/* curio treed_build_test.go Test2K: 2 KiB with data[0] = 1, one bit from the zero tree. */
static void test_pair_one_byte_comm_d_2kib(void **state) {
        uint8_t left[32] = {1}, right[32] = {0}, expected[32];
        (void)state;

        decode32("ea995c54784720b449fc92b070adb6cf6635c2619a7a5e0054a24e88f252ec0d", expected);
        /* left: the subtree holding node 0; right: the zero subtree beside it. */
        for (unsigned level = 0; level < 6; level++) {
                sha254_pair(left, right, left);
                sha254_pair(right, right, right);
        }
        assert_memory_equal(left, expected, 32);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_fips_vectors_libcrypto),
                cmocka_unit_test(test_fips_vectors_compression),
                cmocka_unit_test(test_one_bit_changes_digest),
                cmocka_unit_test(test_compression_matches_libcrypto),
                cmocka_unit_test(test_pieces),
                cmocka_unit_test(test_trim),
                cmocka_unit_test(test_pair_zero_comm_d_2kib),
                cmocka_unit_test(test_pair_one_byte_comm_d_2kib),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
