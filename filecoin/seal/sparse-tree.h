/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A Merkle tree of which only some leaves are known: the synthetic C1 of a
 * 32 GiB or 64 GiB sector opens a few thousand of 2^30 leaves. Every node
 * off the opened paths takes a filler value derived from a key, its level
 * and its index, so that the tree is one consistent tree: every opened path
 * leads to the same root, as a real sector's would.
 *
 * Levels are listed from the leaves up, each with its arity (2 for tree D;
 * 8, then 8 or 2 for trees C and R) and its hash.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define SPARSE_TREE_MAX_LEVELS 40u
#define SPARSE_TREE_MAX_ARITY 8u

enum sparse_tree_hash {
        SPARSE_TREE_SHA254,   /* binary tree D: trim(SHA-256(left ‖ right)) */
        SPARSE_TREE_POSEIDON, /* Poseidon of the level's arity (MerkleTree tag) */
};

struct sparse_tree_node {
        uint64_t index;
        uint8_t hash[32];
};

struct sparse_tree {
        enum sparse_tree_hash hash;
        unsigned n_levels;                      /* levels above the leaves */
        unsigned arity[SPARSE_TREE_MAX_LEVELS]; /* arity[j]: children of a level j + 1 node */
        uint8_t filler_key[32];
        /* nodes[0] the known leaves, nodes[j] the known nodes of level j, sorted by index. */
        struct sparse_tree_node *nodes[SPARSE_TREE_MAX_LEVELS + 1];
        size_t n_nodes[SPARSE_TREE_MAX_LEVELS + 1];
};

/* Builds the known nodes of every level from n leaves (indexes need not be
 * sorted; a repeated index must repeat its value). Returns 0, -EINVAL for
 * conflicting repeats or -ENOMEM. Free with sparse_tree_free. */
int sparse_tree_build(struct sparse_tree *t, const struct sparse_tree_node *leaves, size_t n);
void sparse_tree_free(struct sparse_tree *t);

void sparse_tree_root(const struct sparse_tree *t, uint8_t out[32]);

/* The path of a known leaf: for level j, siblings[j] gets the arity[j] - 1
 * sibling hashes (in order, the leaf's own position left out) and index[j]
 * the position among them. Returns 0 or -ENOENT for an unknown leaf. */
int sparse_tree_path(const struct sparse_tree *t, uint64_t leaf,
                     uint8_t (*siblings)[SPARSE_TREE_MAX_ARITY - 1][32], unsigned *index);

/* The value of node (level, index) whether known or filler. */
void sparse_tree_node_hash(const struct sparse_tree *t, unsigned level, uint64_t index,
                           uint8_t out[32]);
