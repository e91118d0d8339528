/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Builds the vanilla proofs of a C1 output (rust-fil-proofs
 * prove_layers_generate): for every partition's challenges, the tree-D
 * opening of the data, the tree-C openings of the challenged column and its
 * 14 parents' columns, the tree-R opening of the replica, and the labeling
 * and encoding proofs, whose parents are the parents' column rows.
 *
 * The trees come from a source: the sealer's full trees (seal.c) or the
 * sparse trees of a synthetic 32 GiB C1 (synth-c1.c).
 */
#pragma once

#include <stdint.h>

#include "filecoin/c1/c1.h"
#include "filecoin/porep/registered-proof.h"
#include "filecoin/seal/sparse-tree.h"

/* One opened path: per level the sibling hashes and the position among them. */
struct c1_build_path {
        unsigned n_levels;
        unsigned arity[SPARSE_TREE_MAX_LEVELS];
        uint8_t siblings[SPARSE_TREE_MAX_LEVELS][SPARSE_TREE_MAX_ARITY - 1][32];
        unsigned index[SPARSE_TREE_MAX_LEVELS];
};

struct c1_build_source {
        void *userdata;
        /* rows[l] = the label of node in layer l + 1, for every layer. */
        void (*column)(void *userdata, uint64_t node, uint8_t (*rows)[32]);
        /* The leaf and path of node in tree D, tree C and tree R. Return 0 or a negative errno. */
        int (*open_d)(void *userdata, uint64_t node, uint8_t leaf[32], struct c1_build_path *path);
        int (*open_c)(void *userdata, uint64_t node, uint8_t leaf[32], struct c1_build_path *path);
        int (*open_r)(void *userdata, uint64_t node, uint8_t leaf[32], struct c1_build_path *path);
        uint8_t comm_d[32], comm_c[32], comm_r_last[32];
};

struct c1_build_inputs {
        const struct porep_config *cfg;
        uint8_t replica_id[32], seed[32], ticket[32];
};

/* Returns 0 with *ret the C1 output (comm_r = Poseidon2(comm_c, comm_r_last)),
 * or a negative errno from the source or -ENOMEM. */
int c1_build(const struct c1_build_inputs *in, const struct c1_build_source *src,
             struct c1_output **ret);
