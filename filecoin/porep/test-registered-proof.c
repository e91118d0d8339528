/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filecoin/porep/registered-proof: porep_id bytes against registry.rs
 * test_porep_id, the table against constants.rs, names both ways, and the
 * parameter file names against rust-fil-proofs' parameters.json.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "common/hex.h"
#include "filecoin/porep/registered-proof.h"

/* The names of RegisteredSealProof 0-19 (rust-filecoin-proofs-api registry.rs). */
static const char *const SEAL_PROOF_NAMES[POREP_N_REGISTERED] = {
        "StackedDrg2KiBV1",
        "StackedDrg8MiBV1",
        "StackedDrg512MiBV1",
        "StackedDrg32GiBV1",
        "StackedDrg64GiBV1",
        "StackedDrg2KiBV1_1",
        "StackedDrg8MiBV1_1",
        "StackedDrg512MiBV1_1",
        "StackedDrg32GiBV1_1",
        "StackedDrg64GiBV1_1",
        "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
        "StackedDrg8MiBV1_1_Feat_SyntheticPoRep",
        "StackedDrg512MiBV1_1_Feat_SyntheticPoRep",
        "StackedDrg32GiBV1_1_Feat_SyntheticPoRep",
        "StackedDrg64GiBV1_1_Feat_SyntheticPoRep",
        "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",
        "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep",
        "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep",
        "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep",
        "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep",
};

/* registry.rs test_porep_id: the expected hex of each id (all but byte 0 zero). */
static const char *const POREP_ID_HEX_5 =
        "0500000000000000000000000000000000000000000000000000000000000000";
static const char *const POREP_ID_HEX_19 =
        "1300000000000000000000000000000000000000000000000000000000000000";

/* parameters.json: the parameter file stems by sector size. */
static const struct {
        uint64_t sector_bytes;
        const char *stem;
} PARAMS_STEMS[] = {
        {2048, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
               "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f"},
        {8ull << 20,
         "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
         "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb"},
        {512ull << 20,
         "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
         "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472"},
        {32ull << 30,
         "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
         "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820"},
        {64ull << 30,
         "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
         "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2"},
};

/* vanilla/params.rs test_public_params_identifier, 32 GiB. */
static const char IDENTIFIER_32GIB[] =
        "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 "
        "base_graph: drgraph::BucketGraph{size: 1073741824; degree: 6; hasher: poseidon_hasher} }, "
        "challenges: LayerChallenges { layers: 11, max_count: 18 }, tree: "
        "merkletree-poseidon_hasher-8-8-0 }";

static void test_porep_id_bytes(void **state) {
        uint8_t expected[POREP_ID_BYTES], got[POREP_ID_BYTES];
        (void)state;

        assert_int_equal(hex_decode(POREP_ID_HEX_5, 32, expected, NULL), 0);
        porep_id_bytes(porep_config_by_id(5), got);
        assert_memory_equal(got, expected, 32);
        /* Another id gives other bytes. */
        porep_id_bytes(porep_config_by_id(4), got);
        assert_memory_not_equal(got, expected, 32);
        assert_int_equal(hex_decode(POREP_ID_HEX_19, 32, expected, NULL), 0);
        porep_id_bytes(porep_config_by_id(19), got);
        assert_memory_equal(got, expected, 32);

        for (unsigned id = 0; id < POREP_N_REGISTERED; id++) {
                porep_id_bytes(porep_config_by_id(id), got);
                assert_int_equal(got[0], id);
                for (unsigned i = 1; i < POREP_ID_BYTES; i++)
                        assert_int_equal(got[i], 0);
        }
}

static void test_names(void **state) {
        (void)state;

        for (unsigned id = 0; id < POREP_N_REGISTERED; id++) {
                const struct porep_config *cfg = porep_config_by_id(id);

                assert_non_null(cfg);
                assert_int_equal(cfg->id, id);
                assert_string_equal(cfg->name, SEAL_PROOF_NAMES[id]);
                assert_ptr_equal(porep_config_by_name(SEAL_PROOF_NAMES[id]), cfg);
                /* vanilla_proofs' variant: the V1 name of the same size. */
                assert_string_equal(cfg->v1_name, SEAL_PROOF_NAMES[id % 5]);
        }
        assert_null(porep_config_by_id(POREP_N_REGISTERED));
        assert_null(porep_config_by_name("StackedDrg2KiBV1_2"));
        assert_null(porep_config_by_name(""));
        assert_null(porep_config_by_name("stackeddrg2kibv1"));
}

static void test_table(void **state) {
        static const uint64_t sizes[5] = {2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
        static const enum porep_api_version apis[4] = {POREP_API_V1_0_0, POREP_API_V1_1_0,
                                                       POREP_API_V1_2_0, POREP_API_V1_2_0};
        static const enum porep_challenge_kind kinds[4] = {
                POREP_CHALLENGES_INTERACTIVE, POREP_CHALLENGES_INTERACTIVE,
                POREP_CHALLENGES_SYNTHETIC, POREP_CHALLENGES_NON_INTERACTIVE};
        (void)state;

        for (unsigned id = 0; id < POREP_N_REGISTERED; id++) {
                const struct porep_config *cfg = porep_config_by_id(id);
                bool large = id % 5 >= 3, ni = id >= 15;

                assert_int_equal(cfg->sector_bytes, sizes[id % 5]);
                assert_int_equal(cfg->nodes, cfg->sector_bytes / POREP_NODE_BYTES);
                assert_int_equal(1ull << cfg->tree_d_depth, cfg->nodes);
                assert_int_equal(cfg->layers, large ? 11 : 2);
                assert_int_equal(cfg->api, apis[id / 5]);
                assert_int_equal(cfg->challenges, kinds[id / 5]);
                assert_int_equal(cfg->partitions, ni ? (large ? 126 : 13) : (large ? 10 : 1));
                assert_int_equal(cfg->min_challenges, ni ? (large ? 2253 : 26) : (large ? 176 : 2));
                /* parameters.rs select_challenges: ceil(min / partitions), at most 18. */
                assert_int_equal(cfg->challenges_per_partition,
                                 (cfg->min_challenges + cfg->partitions - 1) / cfg->partitions);
                assert_int_equal(cfg->challenges_per_partition, large ? 18 : 2);
                assert_int_equal(cfg->base_arity, 8);
        }
        for (unsigned i = 0; i < 5; i++)
                assert_int_equal(porep_config_by_sector_bytes(sizes[i])->id, 5 + i);
        assert_null(porep_config_by_sector_bytes(4096));
}

static void test_tree_shape(void **state) {
        static const struct {
                unsigned id, base_count;
                uint64_t base_leaves;
                unsigned arity8_levels, sub, top;
        } shapes[] = {
                {5, 1, 64, 2, 0, 0},           {6, 1, 1ull << 18, 6, 0, 0},
                {7, 1, 1ull << 24, 8, 0, 0},   {8, 8, 1ull << 27, 10, 8, 0},
                {9, 16, 1ull << 27, 10, 8, 2},
        };
        (void)state;

        for (unsigned i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
                const struct porep_config *cfg = porep_config_by_id(shapes[i].id);

                assert_int_equal(cfg->sub_arity, shapes[i].sub);
                assert_int_equal(cfg->top_arity, shapes[i].top);
                assert_int_equal(porep_tree_base_count(cfg), shapes[i].base_count);
                assert_int_equal(porep_tree_base_leaves(cfg), shapes[i].base_leaves);
                assert_int_equal(porep_tree_arity8_levels(cfg), shapes[i].arity8_levels);
        }
}

static void test_params_identifier(void **state) {
        char identifier[512];
        (void)state;

        assert_int_equal(
                porep_params_identifier(porep_config_by_id(8), identifier, sizeof(identifier)), 0);
        assert_string_equal(identifier, IDENTIFIER_32GIB);
        assert_int_equal(porep_params_identifier(porep_config_by_id(8), identifier, 100), -ENOSPC);
}

static void test_params_file_stem(void **state) {
        char stem[POREP_PARAMS_STEM_MAX];
        (void)state;

        for (unsigned id = 0; id < POREP_N_REGISTERED; id++) {
                const struct porep_config *cfg = porep_config_by_id(id);

                assert_int_equal(porep_params_file_stem(cfg, stem, sizeof(stem)), 0);
                /* Every version, synthetic and NI included, uses its size's files. */
                assert_string_equal(stem, PARAMS_STEMS[id % 5].stem);
                assert_int_equal(cfg->sector_bytes, PARAMS_STEMS[id % 5].sector_bytes);
                assert_true(strlen(stem) + strlen(".params") < POREP_PARAMS_STEM_MAX);
        }
        assert_int_equal(porep_params_file_stem(porep_config_by_id(5), stem, strlen(stem)),
                         -ENOSPC);
}

/* One figure of the identifier changed changes the name. */
static void test_params_file_stem_mutation(void **state) {
        struct porep_config cfg = *porep_config_by_id(5);
        char stem[POREP_PARAMS_STEM_MAX];
        (void)state;

        cfg.challenges_per_partition = 3;
        assert_int_equal(porep_params_file_stem(&cfg, stem, sizeof(stem)), 0);
        assert_string_not_equal(stem, PARAMS_STEMS[0].stem);
        cfg = *porep_config_by_id(5);
        cfg.nodes ^= 1;
        assert_int_equal(porep_params_file_stem(&cfg, stem, sizeof(stem)), 0);
        assert_string_not_equal(stem, PARAMS_STEMS[0].stem);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_porep_id_bytes),
                cmocka_unit_test(test_names),
                cmocka_unit_test(test_table),
                cmocka_unit_test(test_tree_shape),
                cmocka_unit_test(test_params_identifier),
                cmocka_unit_test(test_params_file_stem),
                cmocka_unit_test(test_params_file_stem_mutation),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
