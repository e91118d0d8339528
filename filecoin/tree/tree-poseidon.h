/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tree C and tree R_last: Poseidon trees of Filecoin's shapes (POREP.md
 * Part B §5). base_count base trees of arity 8 over base_leaves Fr leaves
 * each, then, when there are several, sub_arity (8) of their roots under one
 * sub node, then top_arity (2) sub nodes under the top: 8-0-0 for the small
 * sectors, 8-8-0 for 32 GiB, 8-8-2 for 64 GiB. Every node is the Poseidon
 * hash (MerkleTree tag 2^arity - 1) of its children.
 *
 * Laid side by side, the base trees' levels are the levels of one tree whose
 * arity is 8 up to the base roots, then sub_arity, then top_arity; all
 * levels live in one fr_t array, leaves first, root last. A path is that
 * tree's path, the C1 base, sub and top proofs one after the other.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "filecoin/porep/registered-proof.h"
#include "filecoin/tree/tree-path.h"
#include "zk/fr.h"

#define TREE_BASE_ARITY 8u

struct tree_shape {
        unsigned base_count;  /* 1, 8 or 16 */
        uint64_t base_leaves; /* a power of 8 (1 makes the base roots the leaves) */
        unsigned sub_arity;   /* 0, or the arity over base roots */
        unsigned top_arity;   /* 0, or the arity over sub nodes */
};

/* The shape of cfg's tree R and tree C. */
void tree_shape_from_config(const struct porep_config *cfg, struct tree_shape *shape);

/* The arity of each level from the leaves up (8 per base level, then
 * sub_arity, then top_arity); returns the level count, or -EINVAL for a
 * shape Filecoin's rules do not allow (base_leaves not a power of 8, a sub
 * arity other than 8, a top without a sub or other than 2, base_count not
 * their product). */
int tree_shape_levels(const struct tree_shape *shape, unsigned arity[TREE_PATH_MAX_LEVELS]);

struct poseidon_tree {
        struct tree_shape shape;
        unsigned n_levels;                    /* levels above the leaves */
        unsigned arity[TREE_PATH_MAX_LEVELS]; /* arity[j]: children of a level j + 1 node */
        uint64_t level_nodes[TREE_PATH_MAX_LEVELS + 1];
        uint64_t level_offset[TREE_PATH_MAX_LEVELS + 1]; /* into nodes[] */
        uint64_t n_nodes;
        fr_t *nodes;
        bool owns_nodes;
};

/* Lays out a tree of the shape. buffer holds the node count the layout
 * gives (poseidon_tree_node_count), or is NULL to allocate it (freed by
 * poseidon_tree_done). The caller writes the base_count * base_leaves leaves,
 * base tree after base tree, into t->nodes[0 ..) and calls
 * poseidon_tree_build. Returns 0, -EINVAL for a shape Filecoin's rules do
 * not allow, or -ENOMEM. */
int poseidon_tree_init(struct poseidon_tree *t, const struct tree_shape *shape, fr_t *buffer);
void poseidon_tree_done(struct poseidon_tree *t);
/* Nodes of the whole tree; 0 for an invalid shape. */
uint64_t poseidon_tree_node_count(const struct tree_shape *shape);

/* Hashes every level above the leaves; OpenMP threads on the wide levels. */
void poseidon_tree_build(struct poseidon_tree *t);

void poseidon_tree_root(const struct poseidon_tree *t, fr_t *root);
void poseidon_tree_root_bytes(const struct poseidon_tree *t, uint8_t root[32]);

/* The path of leaf (numbered across the base trees). Returns 0 or -ERANGE. */
int poseidon_tree_path(const struct poseidon_tree *t, uint64_t leaf, struct tree_path *path);

/* comm_r = Poseidon_2(comm_c, comm_r_last), tag 3; 32-byte LE reprs.
 * Returns 0 or -EINVAL when an input is not below r. */
int tree_comm_r(const uint8_t comm_c[32], const uint8_t comm_r_last[32], uint8_t comm_r[32]);
