/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filecoin/porep/challenges: the synthetic challenges against
 * challenges.rs test_synth_challenges_against_hardcoded (BLAKE2b keying and
 * ChaCha20 as blake2b_simd and RustCrypto's chacha20 do them); interactive
 * and NI challenges against SHA-256 and OpenSSL bignum mod done here; range,
 * partition and one-bit checks; the dispatch by challenge kind.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <string.h>

#include "filecoin/porep/challenges.h"

/* challenges.rs l.512: sector_nodes 2^10, replica_id Fr(55), comm_r Fr(101),
 * 21 synthetic challenges, 10 porep challenges with rand [1; 32]. */
#define ORACLE_NODES (1u << 10)
#define ORACLE_NUM_SYNTH 21u
#define ORACLE_NUM_POREP 10u
static const uint64_t ORACLE_SYNTH[ORACLE_NUM_SYNTH] = {
        178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
        801, 176, 692, 429, 691, 290, 204, 986, 210, 973,
};
static const uint64_t ORACLE_POREP[ORACLE_NUM_POREP] = {176, 781, 801, 986, 290,
                                                        211, 692, 856, 986, 332};

/* An Fr's 32-byte little-endian repr, for small values. */
static void fr_repr_u64(uint64_t v, uint8_t out[32]) {
        memset(out, 0, 32);
        for (unsigned i = 0; i < 8; i++)
                out[i] = (uint8_t)(v >> (8 * i));
}

static void oracle_inputs(uint8_t replica_id[32], uint8_t comm_r[32], uint8_t seed[32]) {
        fr_repr_u64(55, replica_id);
        fr_repr_u64(101, comm_r);
        memset(seed, 1, 32);
}

/* challenges.rs gen_porep_challenges: select from num_synth, then generate each. */
static void oracle_porep(const uint8_t replica_id[32], const uint8_t comm_r[32],
                         const uint8_t seed[32], uint64_t out[ORACLE_NUM_POREP]) {
        assert_int_equal(
                porep_synth_select(ORACLE_NUM_SYNTH, replica_id, seed, 0, ORACLE_NUM_POREP, out),
                0);
        for (unsigned i = 0; i < ORACLE_NUM_POREP; i++)
                assert_int_equal(
                        porep_synth_generate(ORACLE_NODES, replica_id, comm_r, out[i], 1, &out[i]),
                        0);
}

static void test_synth_against_hardcoded(void **state) {
        uint8_t replica_id[32], comm_r[32], seed[32];
        uint64_t synth[ORACLE_NUM_SYNTH], porep[ORACLE_NUM_POREP];
        (void)state;

        oracle_inputs(replica_id, comm_r, seed);
        assert_int_equal(
                porep_synth_generate(ORACLE_NODES, replica_id, comm_r, 0, ORACLE_NUM_SYNTH, synth),
                0);
        assert_memory_equal(synth, ORACLE_SYNTH, sizeof(synth));
        oracle_porep(replica_id, comm_r, seed, porep);
        assert_memory_equal(porep, ORACLE_POREP, sizeof(porep));
}

static void test_synth_one_bit(void **state) {
        uint8_t replica_id[32], comm_r[32], seed[32];
        uint64_t synth[ORACLE_NUM_SYNTH], porep[ORACLE_NUM_POREP];
        (void)state;

        oracle_inputs(replica_id, comm_r, seed);
        comm_r[0] ^= 1;
        assert_int_equal(
                porep_synth_generate(ORACLE_NODES, replica_id, comm_r, 0, ORACLE_NUM_SYNTH, synth),
                0);
        assert_memory_not_equal(synth, ORACLE_SYNTH, sizeof(synth));
        comm_r[0] ^= 1;
        seed[31] ^= 0x80;
        oracle_porep(replica_id, comm_r, seed, porep);
        assert_memory_not_equal(porep, ORACLE_POREP, sizeof(porep));
}

/* Reading either stream from an offset (mid-block too) gives the same words. */
static void test_synth_seek(void **state) {
        uint8_t replica_id[32], comm_r[32], seed[32];
        uint64_t all[300], part[300];
        (void)state;

        oracle_inputs(replica_id, comm_r, seed);
        assert_int_equal(porep_synth_generate(1ull << 30, replica_id, comm_r, 0, 300, all), 0);
        for (uint64_t first = 0; first < 300; first += 37) {
                size_t n = 300 - first < 71 ? 300 - first : 71;

                assert_int_equal(
                        porep_synth_generate(1ull << 30, replica_id, comm_r, first, n, part), 0);
                assert_memory_equal(part, all + first, n * sizeof(uint64_t));
        }
        assert_int_equal(porep_synth_select(1u << 18, replica_id, seed, 0, 300, all), 0);
        for (uint64_t first = 0; first < 300; first += 13) {
                size_t n = 300 - first < 29 ? 300 - first : 29;

                assert_int_equal(porep_synth_select(1u << 18, replica_id, seed, first, n, part), 0);
                assert_memory_equal(part, all + first, n * sizeof(uint64_t));
        }
        assert_int_equal(porep_synth_count(64), 64);
        assert_int_equal(porep_synth_count(1ull << 30), 1u << 18);
}

/* The challenge of SHA-256(pieces) by OpenSSL's bignums: LE value mod (nodes - 1) + 1. */
static uint64_t reference_challenge(const uint8_t *message, size_t len, uint64_t nodes) {
        uint8_t digest[32];
        BIGNUM *bn;
        BN_ULONG rem;

        assert_int_equal(EVP_Digest(message, len, digest, NULL, EVP_sha256(), NULL), 1);
        bn = BN_lebin2bn(digest, sizeof(digest), NULL);
        assert_non_null(bn);
        rem = BN_mod_word(bn, (BN_ULONG)(nodes - 1));
        BN_free(bn);
        return (uint64_t)rem + 1;
}

static void test_interactive_reference(void **state) {
        const struct porep_config *cfg = porep_config_by_id(8); /* 32 GiB V1_1 */
        uint8_t replica_id[32], seed[32], message[68];
        uint64_t got[18];
        (void)state;

        for (unsigned i = 0; i < 32; i++) {
                replica_id[i] = (uint8_t)(7 * i + 1);
                seed[i] = (uint8_t)(11 * i + 5);
        }
        replica_id[31] &= 0x3f;
        for (unsigned k = 0; k < cfg->partitions; k++) {
                assert_int_equal(porep_interactive_challenges(cfg, replica_id, seed, k, got), 0);
                for (unsigned i = 0; i < 18; i++) {
                        uint32_t j = 18 * k + i;

                        memcpy(message, replica_id, 32);
                        memcpy(message + 32, seed, 32);
                        for (unsigned b = 0; b < 4; b++)
                                message[64 + b] = (uint8_t)(j >> (8 * b));
                        assert_int_equal(got[i], reference_challenge(message, 68, cfg->nodes));
                        assert_true(got[i] >= 1 && got[i] <= cfg->nodes - 1);
                }
        }
        assert_int_equal(porep_interactive_challenges(cfg, replica_id, seed, 10, got), -EINVAL);
}

static void test_ni_reference(void **state) {
        static const char tag[] = "filecoin.io|PoRep|1|NonInteractive|1";
        const struct porep_config *cfg = porep_config_by_id(18); /* 32 GiB NI */
        uint8_t replica_id[32], comm_r[32], message[sizeof(tag) - 1 + 68];
        uint64_t got[18];
        (void)state;

        for (unsigned i = 0; i < 32; i++) {
                replica_id[i] = (uint8_t)(13 * i + 2);
                comm_r[i] = (uint8_t)(17 * i + 9);
        }
        for (unsigned k = 0; k < cfg->partitions; k += 25) {
                assert_int_equal(porep_ni_challenges(cfg, replica_id, comm_r, k, got), 0);
                for (unsigned i = 0; i < 18; i++) {
                        uint32_t j = 18 * k + i;

                        memcpy(message, tag, sizeof(tag) - 1);
                        memcpy(message + sizeof(tag) - 1, replica_id, 32);
                        memcpy(message + sizeof(tag) - 1 + 32, comm_r, 32);
                        for (unsigned b = 0; b < 4; b++)
                                message[sizeof(tag) - 1 + 64 + b] = (uint8_t)(j >> (8 * b));
                        assert_int_equal(got[i],
                                         reference_challenge(message, sizeof(message), cfg->nodes));
                }
        }
        assert_int_equal(porep_ni_challenges(cfg, replica_id, comm_r, 126, got), -EINVAL);
}

/* Small sectors: every challenge in [1, nodes - 1]; one bit of seed moves them. */
static void test_interactive_range_and_seed_bit(void **state) {
        const struct porep_config *cfg = porep_config_by_id(5); /* 2 KiB V1_1 */
        uint8_t replica_id[32] = {0}, seed[32] = {0};
        uint64_t a[2], b[2];
        unsigned changed = 0;
        (void)state;

        for (unsigned trial = 0; trial < 256; trial++) {
                replica_id[0] = (uint8_t)trial;
                assert_int_equal(porep_interactive_challenges(cfg, replica_id, seed, 0, a), 0);
                for (unsigned i = 0; i < 2; i++)
                        assert_true(a[i] >= 1 && a[i] <= 63);
        }
        /* With 63 possible nodes a change can collide: count over 32 seed bits. */
        assert_int_equal(porep_interactive_challenges(cfg, replica_id, seed, 0, a), 0);
        for (unsigned bit = 0; bit < 32; bit++) {
                seed[bit / 8 * 4] ^= (uint8_t)(1u << (bit % 8));
                assert_int_equal(porep_interactive_challenges(cfg, replica_id, seed, 0, b), 0);
                changed += memcmp(a, b, sizeof(a)) != 0;
                seed[bit / 8 * 4] ^= (uint8_t)(1u << (bit % 8));
        }
        assert_true(changed >= 30);
}

/* Partition k's challenges are j = cpp * k + i of one long list (challenges.rs
 * challenge_partition_equivalence). */
static void test_partition_equivalence(void **state) {
        struct porep_config one = *porep_config_by_id(8);
        const struct porep_config *cfg = porep_config_by_id(8);
        uint8_t replica_id[32] = {3}, seed[32] = {4};
        uint64_t all[180], part[18];
        (void)state;

        one.partitions = 1;
        one.challenges_per_partition = 180;
        assert_int_equal(porep_interactive_challenges(&one, replica_id, seed, 0, all), 0);
        for (unsigned k = 0; k < 10; k++) {
                assert_int_equal(porep_interactive_challenges(cfg, replica_id, seed, k, part), 0);
                assert_memory_equal(part, all + 18 * k, sizeof(part));
        }
}

static void test_dispatch(void **state) {
        uint8_t replica_id[32] = {9}, seed[32] = {8}, comm_r[32] = {7};
        uint64_t got[18], expected[18];
        (void)state;

        assert_int_equal(porep_challenges(porep_config_by_id(8), replica_id, seed, NULL, 3, got),
                         0);
        assert_int_equal(
                porep_interactive_challenges(porep_config_by_id(8), replica_id, seed, 3, expected),
                0);
        assert_memory_equal(got, expected, sizeof(got));

        assert_int_equal(
                porep_challenges(porep_config_by_id(18), replica_id, NULL, comm_r, 100, got), 0);
        assert_int_equal(
                porep_ni_challenges(porep_config_by_id(18), replica_id, comm_r, 100, expected), 0);
        assert_memory_equal(got, expected, sizeof(got));

        assert_int_equal(porep_challenges(porep_config_by_id(13), replica_id, seed, comm_r, 9, got),
                         0);
        assert_int_equal(porep_synth_select(1u << 18, replica_id, seed, 9 * 18, 18, expected), 0);
        for (unsigned i = 0; i < 18; i++) {
                assert_int_equal(porep_synth_generate(1ull << 30, replica_id, comm_r, expected[i],
                                                      1, &expected[i]),
                                 0);
                assert_true(got[i] >= 1 && got[i] < (1ull << 30));
        }
        assert_memory_equal(got, expected, sizeof(got));

        /* What a kind needs must be there. */
        assert_int_equal(porep_challenges(porep_config_by_id(8), replica_id, NULL, comm_r, 0, got),
                         -EINVAL);
        assert_int_equal(porep_challenges(porep_config_by_id(13), replica_id, seed, NULL, 0, got),
                         -EINVAL);
        assert_int_equal(porep_challenges(porep_config_by_id(18), replica_id, seed, NULL, 0, got),
                         -EINVAL);
        assert_int_equal(
                porep_challenges(porep_config_by_id(13), replica_id, seed, comm_r, 10, got),
                -EINVAL);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_synth_against_hardcoded),
                cmocka_unit_test(test_synth_one_bit),
                cmocka_unit_test(test_synth_seek),
                cmocka_unit_test(test_interactive_reference),
                cmocka_unit_test(test_ni_reference),
                cmocka_unit_test(test_interactive_range_and_seed_bit),
                cmocka_unit_test(test_partition_equivalence),
                cmocka_unit_test(test_dispatch),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
