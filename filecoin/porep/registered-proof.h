/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Filecoin's registered seal proofs (RegisteredSealProof, 0-19) and what
 * each fixes: sector size, layers, tree shape, challenges, partitions, the
 * graph's API version and the challenge kind. The figures come from
 * rust-fil-proofs' constants.rs and parameters.rs and from
 * rust-filecoin-proofs-api's registry.rs (../shared/POREP.md §1, §6).
 *
 * Every other part of filecoin/ takes a `const struct porep_config *` from
 * here rather than a size or an id, so that the rules live in one table.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define POREP_NODE_BYTES 32u
#define POREP_ID_BYTES 32u
#define POREP_DRG_PARENTS 6u
#define POREP_EXP_PARENTS 8u
#define POREP_TOTAL_PARENTS (POREP_DRG_PARENTS + POREP_EXP_PARENTS)
/* Parent labels hashed into one label: 6 x 6 + 1 (layer 1), 14 + 14 + 9. */
#define POREP_LABEL_PARENTS 37u
#define POREP_N_REGISTERED 20u
/* parameter_cache.rs VERSION: the "v28-" of every parameter file name. */
#define POREP_PARAMS_VERSION 28u
/* Enough for any parameter file stem (144 characters) with an extension. */
#define POREP_PARAMS_STEM_MAX 160u

/* The graph's API version: parent order and the V1_0 u32 truncation. */
enum porep_api_version {
        POREP_API_V1_0_0,
        POREP_API_V1_1_0,
        POREP_API_V1_2_0,
};

enum porep_challenge_kind {
        POREP_CHALLENGES_INTERACTIVE,
        POREP_CHALLENGES_SYNTHETIC,
        POREP_CHALLENGES_NON_INTERACTIVE,
};

struct porep_config {
        unsigned id;         /* RegisteredSealProof number */
        const char *name;    /* e.g. "StackedDrg2KiBV1_1" */
        const char *v1_name; /* the vanilla_proofs variant: "StackedDrg2KiBV1" */
        uint64_t sector_bytes;
        uint64_t nodes; /* sector_bytes / 32 */
        unsigned layers;
        unsigned partitions;
        unsigned challenges_per_partition;
        unsigned min_challenges;
        /* Tree R and tree C: base arity 8 over base_leaves-leaf trees, then
         * sub_arity (0 or 8) of those, then top_arity (0 or 2). */
        unsigned base_arity, sub_arity, top_arity;
        unsigned tree_d_depth; /* log2(nodes): binary SHA-256 tree */
        enum porep_api_version api;
        enum porep_challenge_kind challenges;
};

/* NULL when id is not a registered seal proof. */
const struct porep_config *porep_config_by_id(unsigned id);
/* By RegisteredSealProof name ("StackedDrg32GiBV1_1"); NULL when unknown. */
const struct porep_config *porep_config_by_name(const char *name);
/* The interactive V1_1 proof of a sector size (what new sectors use); NULL when none. */
const struct porep_config *porep_config_by_sector_bytes(uint64_t sector_bytes);

/* porep_id: the id as u64 LE in bytes 0..8, nonce 0 in 8..16, zeros after. */
void porep_id_bytes(const struct porep_config *cfg, uint8_t out[POREP_ID_BYTES]);

/* Number of tree R / tree C base trees (1, 8 or 16) and leaves in each. */
unsigned porep_tree_base_count(const struct porep_config *cfg);
uint64_t porep_tree_base_leaves(const struct porep_config *cfg);
/* Levels of one base tree (log base_arity of its leaves); any arity, so
 * that the reference's test shapes (base 2, 8-4, 8-4-2) can be built. */
unsigned porep_tree_base_levels(const struct porep_config *cfg);
/* Levels of the arity-8 part of one tree R/C path (log8 of the base leaves,
 * plus one when sub_arity is 8). */
unsigned porep_tree_arity8_levels(const struct porep_config *cfg);

/*
 * The parameter set identifier whose SHA-256 names the Groth16 parameter
 * files (vanilla/params.rs PublicParams::identifier()):
 * "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{...},
 * challenges: LayerChallenges { layers: L, max_count: cpp }, tree: ... }".
 * Returns 0 or -ENOSPC when out_size is too small.
 */
int porep_params_identifier(const struct porep_config *cfg, char *out, size_t out_size);

/*
 * The parameter file name without its extension (callers append ".params",
 * ".vk" or ".meta"): "v28-stacked-proof-of-replication-merkletree-
 * poseidon_hasher-8-8-0-sha256_hasher-" + hex(SHA-256(identifier)), as in
 * rust-fil-proofs' parameters.json. Every proof of one sector size shares
 * it. Returns 0 or -ENOSPC when out_size is too small.
 */
int porep_params_file_stem(const struct porep_config *cfg, char *out, size_t out_size);

/* dir + "/" + the file stem + ext (".params", ".vk", ...): where a file of
 * cfg's parameter set lives in dir. Returns 0 or -ENAMETOOLONG. */
int porep_params_file_path(const struct porep_config *cfg, const char *dir, const char *ext,
                           char *out, size_t out_size);
