/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/porep/registered-proof.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "filecoin/sha256/sha256.h"

/* Sector sizes: bytes, layers, tree R/C shape, tree D depth (constants.rs LAYERS). */
#define SIZE_2KiB                                                                        \
        .sector_bytes = 2048, .nodes = 64, .layers = 2, .base_arity = 8, .sub_arity = 0, \
        .top_arity = 0, .tree_d_depth = 6
#define SIZE_8MiB                                                                      \
        .sector_bytes = 8ull << 20, .nodes = 1ull << 18, .layers = 2, .base_arity = 8, \
        .sub_arity = 0, .top_arity = 0, .tree_d_depth = 18
#define SIZE_512MiB                                                                      \
        .sector_bytes = 512ull << 20, .nodes = 1ull << 24, .layers = 2, .base_arity = 8, \
        .sub_arity = 0, .top_arity = 0, .tree_d_depth = 24
#define SIZE_32GiB                                                                       \
        .sector_bytes = 32ull << 30, .nodes = 1ull << 30, .layers = 11, .base_arity = 8, \
        .sub_arity = 8, .top_arity = 0, .tree_d_depth = 30
#define SIZE_64GiB                                                                       \
        .sector_bytes = 64ull << 30, .nodes = 1ull << 31, .layers = 11, .base_arity = 8, \
        .sub_arity = 8, .top_arity = 2, .tree_d_depth = 31

/*
 * Partitions and challenges (constants.rs POREP_PARTITIONS and the
 * get_porep_*_minimum_challenges / _partitions functions; parameters.rs
 * select_challenges: cpp = ceil(min / partitions) <= 18). Interactive and
 * synthetic share one set; NI-PoRep keeps cpp at 2 or 18 so that it can use
 * the same parameter files.
 */
#define COUNTS_SMALL .partitions = 1, .challenges_per_partition = 2, .min_challenges = 2
#define COUNTS_LARGE .partitions = 10, .challenges_per_partition = 18, .min_challenges = 176
#define COUNTS_NI_SMALL .partitions = 13, .challenges_per_partition = 2, .min_challenges = 26
#define COUNTS_NI_LARGE .partitions = 126, .challenges_per_partition = 18, .min_challenges = 2253

#define SEAL_PROOF(id_, size_, suffix_, counts_, api_, kind_)                              \
        {                                                                                  \
                .id = (id_), .name = "StackedDrg" #size_ suffix_,                          \
                .v1_name = "StackedDrg" #size_ "V1", SIZE_##size_, counts_, .api = (api_), \
                .challenges = (kind_)                                                      \
        }

/* In RegisteredSealProof order (rust-filecoin-proofs-api registry.rs): index == id. */
static const struct porep_config porep_configs[POREP_N_REGISTERED] = {
        SEAL_PROOF(0, 2KiB, "V1", COUNTS_SMALL, POREP_API_V1_0_0, POREP_CHALLENGES_INTERACTIVE),
        SEAL_PROOF(1, 8MiB, "V1", COUNTS_SMALL, POREP_API_V1_0_0, POREP_CHALLENGES_INTERACTIVE),
        SEAL_PROOF(2, 512MiB, "V1", COUNTS_SMALL, POREP_API_V1_0_0, POREP_CHALLENGES_INTERACTIVE),
        SEAL_PROOF(3, 32GiB, "V1", COUNTS_LARGE, POREP_API_V1_0_0, POREP_CHALLENGES_INTERACTIVE),
        SEAL_PROOF(4, 64GiB, "V1", COUNTS_LARGE, POREP_API_V1_0_0, POREP_CHALLENGES_INTERACTIVE),

        SEAL_PROOF(5, 2KiB, "V1_1", COUNTS_SMALL, POREP_API_V1_1_0, POREP_CHALLENGES_INTERACTIVE),
        SEAL_PROOF(6, 8MiB, "V1_1", COUNTS_SMALL, POREP_API_V1_1_0, POREP_CHALLENGES_INTERACTIVE),
        SEAL_PROOF(7, 512MiB, "V1_1", COUNTS_SMALL, POREP_API_V1_1_0, POREP_CHALLENGES_INTERACTIVE),
        SEAL_PROOF(8, 32GiB, "V1_1", COUNTS_LARGE, POREP_API_V1_1_0, POREP_CHALLENGES_INTERACTIVE),
        SEAL_PROOF(9, 64GiB, "V1_1", COUNTS_LARGE, POREP_API_V1_1_0, POREP_CHALLENGES_INTERACTIVE),

        /* Synthetic PoRep came with API 1.2, but its published names say V1_1. */
        SEAL_PROOF(10, 2KiB, "V1_1_Feat_SyntheticPoRep", COUNTS_SMALL, POREP_API_V1_2_0,
                   POREP_CHALLENGES_SYNTHETIC),
        SEAL_PROOF(11, 8MiB, "V1_1_Feat_SyntheticPoRep", COUNTS_SMALL, POREP_API_V1_2_0,
                   POREP_CHALLENGES_SYNTHETIC),
        SEAL_PROOF(12, 512MiB, "V1_1_Feat_SyntheticPoRep", COUNTS_SMALL, POREP_API_V1_2_0,
                   POREP_CHALLENGES_SYNTHETIC),
        SEAL_PROOF(13, 32GiB, "V1_1_Feat_SyntheticPoRep", COUNTS_LARGE, POREP_API_V1_2_0,
                   POREP_CHALLENGES_SYNTHETIC),
        SEAL_PROOF(14, 64GiB, "V1_1_Feat_SyntheticPoRep", COUNTS_LARGE, POREP_API_V1_2_0,
                   POREP_CHALLENGES_SYNTHETIC),

        SEAL_PROOF(15, 2KiB, "V1_2_Feat_NonInteractivePoRep", COUNTS_NI_SMALL, POREP_API_V1_2_0,
                   POREP_CHALLENGES_NON_INTERACTIVE),
        SEAL_PROOF(16, 8MiB, "V1_2_Feat_NonInteractivePoRep", COUNTS_NI_SMALL, POREP_API_V1_2_0,
                   POREP_CHALLENGES_NON_INTERACTIVE),
        SEAL_PROOF(17, 512MiB, "V1_2_Feat_NonInteractivePoRep", COUNTS_NI_SMALL, POREP_API_V1_2_0,
                   POREP_CHALLENGES_NON_INTERACTIVE),
        SEAL_PROOF(18, 32GiB, "V1_2_Feat_NonInteractivePoRep", COUNTS_NI_LARGE, POREP_API_V1_2_0,
                   POREP_CHALLENGES_NON_INTERACTIVE),
        SEAL_PROOF(19, 64GiB, "V1_2_Feat_NonInteractivePoRep", COUNTS_NI_LARGE, POREP_API_V1_2_0,
                   POREP_CHALLENGES_NON_INTERACTIVE),
};

/* The interactive V1_1 proofs, which node software picks for new sectors. */
#define POREP_FIRST_V1_1_ID 5u
#define POREP_N_SECTOR_SIZES 5u

const struct porep_config *porep_config_by_id(unsigned id) {
        if (id >= POREP_N_REGISTERED)
                return NULL;
        return &porep_configs[id];
}

const struct porep_config *porep_config_by_name(const char *name) {
        assert(name);

        for (unsigned i = 0; i < POREP_N_REGISTERED; i++)
                if (strcmp(porep_configs[i].name, name) == 0)
                        return &porep_configs[i];
        return NULL;
}

const struct porep_config *porep_config_by_sector_bytes(uint64_t sector_bytes) {
        for (unsigned i = 0; i < POREP_N_SECTOR_SIZES; i++) {
                const struct porep_config *cfg = &porep_configs[POREP_FIRST_V1_1_ID + i];

                if (cfg->sector_bytes == sector_bytes)
                        return cfg;
        }
        return NULL;
}

void porep_id_bytes(const struct porep_config *cfg, uint8_t out[POREP_ID_BYTES]) {
        const uint64_t nonce = 0; /* registry.rs: every seal proof has nonce 0 */

        assert(cfg);
        assert(out);

        memset(out, 0, POREP_ID_BYTES);
        for (unsigned i = 0; i < 8; i++) {
                out[i] = (uint8_t)((uint64_t)cfg->id >> (8 * i));
                out[8 + i] = (uint8_t)(nonce >> (8 * i));
        }
}

unsigned porep_tree_base_count(const struct porep_config *cfg) {
        unsigned count = 1;

        assert(cfg);

        if (cfg->sub_arity)
                count *= cfg->sub_arity;
        if (cfg->top_arity)
                count *= cfg->top_arity;
        return count;
}

uint64_t porep_tree_base_leaves(const struct porep_config *cfg) {
        assert(cfg);

        return cfg->nodes / porep_tree_base_count(cfg);
}

unsigned porep_tree_base_levels(const struct porep_config *cfg) {
        uint64_t leaves = porep_tree_base_leaves(cfg);
        unsigned levels = 0;

        assert(cfg->base_arity >= 2);

        for (; leaves > 1; leaves /= cfg->base_arity)
                levels++;
        return levels;
}

unsigned porep_tree_arity8_levels(const struct porep_config *cfg) {
        uint64_t leaves = porep_tree_base_leaves(cfg);
        unsigned levels = 0;

        assert(cfg->base_arity == 8);

        for (; leaves > 1; leaves /= 8)
                levels++;
        return levels + (cfg->sub_arity == 8 ? 1 : 0);
}

/* Tree::display() of the tree R/C type: "merkletree-poseidon_hasher-8-8-0". */
static int tree_display(const struct porep_config *cfg, char *out, size_t out_size) {
        int n = snprintf(out, out_size, "merkletree-poseidon_hasher-%u-%u-%u", cfg->base_arity,
                         cfg->sub_arity, cfg->top_arity);

        return n < 0 || (size_t)n >= out_size ? -ENOSPC : 0;
}

int porep_params_identifier(const struct porep_config *cfg, char *out, size_t out_size) {
        char tree[64];
        int n, r;

        assert(cfg);
        assert(out);

        r = tree_display(cfg, tree, sizeof(tree));
        if (r < 0)
                return r;
        /* StackedGraph::identifier() around BucketGraph::identifier() (size = nodes),
         * inside PublicParams::identifier() (vanilla/params.rs). */
        n = snprintf(out, out_size,
                     "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{"
                     "expansion_degree: %u base_graph: drgraph::BucketGraph{size: %" PRIu64
                     "; degree: %u; hasher: poseidon_hasher} }, challenges: LayerChallenges "
                     "{ layers: %u, max_count: %u }, tree: %s }",
                     POREP_EXP_PARENTS, cfg->nodes, POREP_DRG_PARENTS, cfg->layers,
                     cfg->challenges_per_partition, tree);
        return n < 0 || (size_t)n >= out_size ? -ENOSPC : 0;
}

int porep_params_file_stem(const struct porep_config *cfg, char *out, size_t out_size) {
        char identifier[512], tree[64];
        uint8_t digest[SHA256_DIGEST_BYTES];
        char digest_hex[2 * SHA256_DIGEST_BYTES + 1];
        int n, r;

        assert(cfg);
        assert(out);

        r = porep_params_identifier(cfg, identifier, sizeof(identifier));
        if (r < 0)
                return r;
        r = tree_display(cfg, tree, sizeof(tree));
        if (r < 0)
                return r;
        sha256_digest(identifier, strlen(identifier), digest);
        for (unsigned i = 0; i < SHA256_DIGEST_BYTES; i++)
                snprintf(digest_hex + 2 * i, 3, "%02x", digest[i]);
        /* parameter_cache.rs: "v{VERSION}-{cache_prefix}-{hex}"; StackedCompound's
         * cache_prefix is "stacked-proof-of-replication-{tree}-{hasher of tree D}". */
        n = snprintf(out, out_size, "v%u-stacked-proof-of-replication-%s-sha256_hasher-%s",
                     POREP_PARAMS_VERSION, tree, digest_hex);
        return n < 0 || (size_t)n >= out_size ? -ENOSPC : 0;
}

int porep_params_file_path(const struct porep_config *cfg, const char *dir, const char *ext,
                           char *out, size_t out_size) {
        char stem[POREP_PARAMS_STEM_MAX];
        int n;

        assert(cfg && dir && ext && out);

        if (porep_params_file_stem(cfg, stem, sizeof(stem)) < 0)
                return -ENAMETOOLONG;
        n = snprintf(out, out_size, "%s/%s%s", dir, stem, ext);
        return n < 0 || (size_t)n >= out_size ? -ENAMETOOLONG : 0;
}
