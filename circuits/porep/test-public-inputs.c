/* SPDX-License-Identifier: Apache-2.0 */
/*
 * circuits/porep/public-inputs: the counts the .vk files fix (40 for the
 * small sizes, 328 for 32 GiB, ONE included: ../shared/POREP.md Part A §1),
 * a genuine 2 KiB C1 of our sealer (the lotus-bench sector, whose comm_r
 * POREP.md gives) read back input by input, interactive challenges
 * recomputed here with libcrypto from the formula of Part B §6, the
 * published parents of nodes 2 and 3 (Part B §3), a one-bit seed change,
 * and the refusals of get_seal_inputs.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/porep/public-inputs.h"
#include "common/cleanup.h"
#include "common/hex.h"
#include "common/log.h"
#include "filecoin/c1/c1.h"
#include "filecoin/porep/ids.h"
#include "filecoin/seal/seal.h"

static void assert_input(const fr_t *got, uint64_t expected) {
        fr_t want;

        fr_from_u64(&want, expected);
        assert_true(fr_equal(got, &want));
}

static void assert_input_bytes(const fr_t *got, const uint8_t expected[32]) {
        uint8_t bytes[32];

        fr_to_le_bytes(bytes, got);
        assert_memory_equal(bytes, expected, 32);
}

/* Interactive challenge j: SHA-256(replica_id ‖ seed ‖ j u32 LE) as a
 * little-endian integer, mod (nodes - 1), + 1, computed byte by byte. */
static uint64_t interactive_challenge(const uint8_t replica_id[32], const uint8_t seed[32],
                                      uint32_t j, uint64_t nodes) {
        uint8_t message[68], digest[32];
        unsigned len = 0;
        uint64_t rem = 0;

        memcpy(message, replica_id, 32);
        memcpy(message + 32, seed, 32);
        for (unsigned i = 0; i < 4; i++)
                message[64 + i] = (uint8_t)(j >> (8 * i));
        assert_int_equal(EVP_Digest(message, sizeof(message), digest, &len, EVP_sha256(), NULL), 1);
        for (int i = 31; i >= 0; i--)
                rem = (uint64_t)(((unsigned __int128)rem << 8 | digest[i]) % (nodes - 1));
        return rem + 1;
}

static void test_counts(void **state) {
        static const char *const small[] = {"StackedDrg2KiBV1", "StackedDrg2KiBV1_1",
                                            "StackedDrg8MiBV1_1", "StackedDrg512MiBV1_1",
                                            "StackedDrg2KiBV1_1_Feat_SyntheticPoRep"};
        static const char *const large[] = {"StackedDrg32GiBV1_1", "StackedDrg64GiBV1_1",
                                            "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep"};
        (void)state;

        /* bellperson prepends ONE: the .vk's IC has one more point. */
        for (size_t i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
                const struct porep_config *cfg = porep_config_by_name(small[i]);
                assert_non_null(cfg);
                assert_int_equal(1 + porep_public_input_count(cfg), 40);
        }
        for (size_t i = 0; i < sizeof(large) / sizeof(large[0]); i++) {
                const struct porep_config *cfg = porep_config_by_name(large[i]);
                assert_non_null(cfg);
                assert_int_equal(1 + porep_public_input_count(cfg), 328);
        }
}

/* lotus-bench simple.go's 2 KiB sector: V1_1, t01000, sector 1, zero ticket and data. */
static struct c1_output *seal_lotus_bench(void) {
        struct seal_inputs in = {.cfg = porep_config_by_name("StackedDrg2KiBV1_1"), .sector_id = 1};
        struct c1_output *c1 = NULL;
        uint8_t expected[32];

        assert_non_null(in.cfg);
        memset(in.seed, 7, 32);
        assert_true(porep_prover_id_from_miner(1000, in.prover_id) > 0);
        assert_int_equal(porep_seal(&in, &c1), 0);
        assert_int_equal(
                hex_decode("c647b998c78282296cfd1160714228d43f3b054dfbbb77172b68115ba3c3b762", 32,
                           expected, NULL),
                0);
        assert_memory_equal(c1->comm_r, expected, 32);
        return c1;
}

/* The node a binary tree-D path opens: its level positions, leaf level first. */
static uint64_t tree_d_node(const struct c1_merkle_proof *proof) {
        uint64_t node = 0;

        for (uint32_t l = 0; l < proof->base.n_elements; l++)
                node |= proof->base.elements[l].index << l;
        return node;
}

/* Each input of partition 0 against the C1's vanilla proofs. */
static void test_sealed_c1(void **state) {
        _cleanup_c1_output_ struct c1_output *c1 = seal_lotus_bench();
        const struct porep_config *cfg = c1->cfg;
        size_t n = porep_public_input_count(cfg);
        _cleanup_free_ fr_t *in = calloc(n, sizeof(fr_t));
        (void)state;

        assert_non_null(in);
        assert_int_equal(
                porep_public_inputs(cfg, c1->replica_id, c1->comm_d, c1->comm_r, c1->seed, 0, in),
                0);
        assert_input_bytes(&in[0], c1->replica_id);
        assert_input_bytes(&in[1], c1->comm_d);
        assert_input_bytes(&in[2], c1->comm_r);
        for (unsigned i = 0; i < cfg->challenges_per_partition; i++) {
                const struct c1_vanilla_proof *p = &c1->proofs[i];
                const fr_t *c = &in[3 + POREP_INPUTS_PER_CHALLENGE * i];
                uint64_t challenge = p->labeling[0].node;

                assert_int_equal(challenge,
                                 interactive_challenge(c1->replica_id, c1->seed, i, cfg->nodes));
                assert_int_equal(tree_d_node(&p->comm_d_proof), challenge);
                assert_int_equal(p->c_x.index, challenge);
                assert_input(&c[0], challenge);
                for (unsigned j = 0; j < POREP_DRG_PARENTS; j++)
                        assert_input(&c[1 + j], p->drg_parents[j].index);
                for (unsigned j = 0; j < POREP_EXP_PARENTS; j++)
                        assert_input(&c[1 + POREP_DRG_PARENTS + j], p->exp_parents[j].index);
                for (unsigned j = 0; j < 3; j++)
                        assert_input(&c[1 + POREP_TOTAL_PARENTS + j], challenge);
        }
}

/* POREP.md Part B §3's parents of nodes 2 and 3 (porep_id 5, 2 KiB),
 * reached through seeds whose challenges hit those nodes. */
static void test_published_parents(void **state) {
        static const uint32_t published[2][POREP_TOTAL_PARENTS] = {
                {1, 1, 1, 0, 1, 0, 30, 28, 55, 63, 63, 36, 37, 36},
                {2, 1, 1, 2, 2, 2, 10, 46, 59, 7, 43, 29, 9, 16},
        };
        const struct porep_config *cfg = porep_config_by_name("StackedDrg2KiBV1_1");
        uint8_t replica_id[32] = {1}, comm_d[32] = {2}, comm_r[32] = {3}, seed[32] = {0};
        fr_t in[39];
        unsigned found = 0;
        (void)state;

        assert_int_equal(porep_public_input_count(cfg), 39);
        for (unsigned s = 0; s < 4096 && found != 3; s++) {
                seed[0] = (uint8_t)s;
                seed[1] = (uint8_t)(s >> 8);
                for (unsigned i = 0; i < cfg->challenges_per_partition; i++) {
                        uint64_t c = interactive_challenge(replica_id, seed, i, cfg->nodes);
                        if (c != 2 && c != 3)
                                continue;
                        assert_int_equal(
                                porep_public_inputs(cfg, replica_id, comm_d, comm_r, seed, 0, in),
                                0);
                        assert_input(&in[3 + POREP_INPUTS_PER_CHALLENGE * i], c);
                        for (unsigned j = 0; j < POREP_TOTAL_PARENTS; j++)
                                assert_input(&in[3 + POREP_INPUTS_PER_CHALLENGE * i + 1 + j],
                                             published[c - 2][j]);
                        found |= 1u << (c - 2);
                }
        }
        assert_int_equal(found, 3);
}

/* Every partition of a 32 GiB proof: challenge j = 18k + i. */
static void test_32gib_partitions(void **state) {
        const struct porep_config *cfg = porep_config_by_name("StackedDrg32GiBV1_1");
        uint8_t replica_id[32], comm_d[32], comm_r[32], seed[32];
        fr_t in[327];
        (void)state;

        assert_int_equal(porep_public_input_count(cfg), 327);
        for (unsigned i = 0; i < 32; i++) {
                replica_id[i] = (uint8_t)(3 * i + 1);
                comm_d[i] = (uint8_t)(5 * i + 2);
                comm_r[i] = (uint8_t)(7 * i + 3);
                seed[i] = (uint8_t)(11 * i);
        }
        replica_id[31] = comm_d[31] = comm_r[31] = 0x1f;
        for (unsigned k = 0; k < cfg->partitions; k++) {
                assert_int_equal(porep_public_inputs(cfg, replica_id, comm_d, comm_r, seed, k, in),
                                 0);
                for (unsigned i = 0; i < cfg->challenges_per_partition; i++) {
                        const fr_t *c = &in[3 + POREP_INPUTS_PER_CHALLENGE * i];
                        uint64_t challenge =
                                interactive_challenge(replica_id, seed, 18 * k + i, cfg->nodes);
                        assert_input(&c[0], challenge);
                        assert_input(&c[POREP_TOTAL_PARENTS + 1], challenge);
                        /* V1_1: the first DRG parent is the node before. */
                        assert_input(&c[1], challenge - 1);
                }
        }
        log_set_max_level(LOG_CRIT);
        assert_int_equal(porep_public_inputs(cfg, replica_id, comm_d, comm_r, seed, 10, in),
                         -EINVAL);
        log_set_max_level(LOG_INFO);
}

/* A one-bit change of the seed changes the challenges, hence the inputs. */
static void test_seed_bit(void **state) {
        _cleanup_c1_output_ struct c1_output *c1 = seal_lotus_bench();
        fr_t a[39], b[39];
        uint8_t seed[32];
        (void)state;

        memcpy(seed, c1->seed, 32);
        assert_int_equal(
                porep_public_inputs(c1->cfg, c1->replica_id, c1->comm_d, c1->comm_r, seed, 0, a),
                0);
        seed[5] ^= 0x20;
        assert_int_equal(
                porep_public_inputs(c1->cfg, c1->replica_id, c1->comm_d, c1->comm_r, seed, 0, b),
                0);
        assert_memory_equal(a, b, 3 * sizeof(fr_t));
        assert_memory_not_equal(a + 3, b + 3, 36 * sizeof(fr_t));
}

/* get_seal_inputs' refusals, and values not below r. */
static void test_refusals(void **state) {
        /* r, little-endian */
        static const uint8_t modulus[32] = {
                0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe,
                0xff, 0x02, 0xa4, 0xbd, 0x53, 0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8,
                0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73,
        };
        const struct porep_config *cfg = porep_config_by_name("StackedDrg2KiBV1_1");
        const struct porep_config *ni =
                porep_config_by_name("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep");
        uint8_t ok[32] = {1}, zero[32] = {0}, seed[32] = {9};
        fr_t in[39];
        (void)state;

        assert_non_null(ni);
        log_set_max_level(LOG_CRIT); /* the refusals' lines are not the test */
        assert_int_equal(porep_public_inputs(cfg, ok, ok, zero, seed, 0, in), -EINVAL);
        assert_int_equal(porep_public_inputs(cfg, ok, zero, ok, seed, 0, in), -EINVAL);
        assert_int_equal(porep_public_inputs(cfg, ok, ok, modulus, seed, 0, in), -EINVAL);
        assert_int_equal(porep_public_inputs(cfg, modulus, ok, ok, seed, 0, in), -EINVAL);
        assert_int_equal(porep_public_inputs(cfg, ok, modulus, ok, seed, 0, in), -EINVAL);
        assert_int_equal(porep_public_inputs(cfg, ok, ok, ok, seed, 1, in), -EINVAL);
        assert_int_equal(porep_public_inputs(cfg, ok, ok, ok, NULL, 0, in), -EINVAL);
        log_set_max_level(LOG_INFO);
        /* A replica_id of zero is a valid Fr; r - 1 is below r. */
        assert_int_equal(porep_public_inputs(cfg, zero, ok, ok, seed, 0, in), 0);
        uint8_t below[32];
        memcpy(below, modulus, 32);
        below[0] = 0;
        assert_int_equal(porep_public_inputs(cfg, ok, ok, below, seed, 0, in), 0);
        /* NI challenges come from comm_r alone: no seed needed, 13 partitions. */
        assert_int_equal(porep_public_inputs(ni, ok, ok, ok, NULL, 12, in), 0);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_counts),
                cmocka_unit_test(test_sealed_c1),
                cmocka_unit_test(test_published_parents),
                cmocka_unit_test(test_32gib_partitions),
                cmocka_unit_test(test_seed_bit),
                cmocka_unit_test(test_refusals),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
