/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tree D: the binary SHA-254 tree over a sector's raw 32-byte nodes (no leaf
 * hash), node = trim(SHA-256(left || right)) (POREP.md Part B §5). Its root
 * is comm_d.
 *
 * All levels live in one array of 2 * leaves - 1 nodes: the leaves first,
 * then each level above, the root last, so that paths are read from it.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "filecoin/tree/tree-path.h"

struct tree_d {
        uint64_t leaves; /* a power of two */
        unsigned depth;  /* log2(leaves) */
        uint8_t (*nodes)[32];
        bool owns_nodes;
};

/* Nodes of the whole tree over leaves leaves: 2 * leaves - 1. */
uint64_t tree_d_node_count(uint64_t leaves);

/* Lays out a tree over leaves leaves (a power of two, >= 1). buffer holds
 * tree_d_node_count(leaves) nodes, or is NULL to allocate them (freed by
 * tree_d_done). The caller writes the leaves into t->nodes[0 .. leaves) and
 * calls tree_d_build. Returns 0, -EINVAL or -ENOMEM. */
int tree_d_init(struct tree_d *t, uint64_t leaves, uint8_t (*buffer)[32]);
void tree_d_done(struct tree_d *t);

/* Hashes every level above the leaves; OpenMP threads on the wide levels. */
void tree_d_build(struct tree_d *t);

/* One call for a data buffer: bytes a power of two >= 32; the tree owns a
 * copy. Returns 0, -EINVAL or -ENOMEM. */
int tree_d_build_from_data(struct tree_d *t, const void *data, uint64_t bytes);

void tree_d_root(const struct tree_d *t, uint8_t root[32]);

/* The path of leaf: depth elements, each one sibling. Returns 0 or -ERANGE. */
int tree_d_path(const struct tree_d *t, uint64_t leaf, struct tree_path *path);

/* comm_d of an all-zero sector of sector_bytes (a power of two >= 32)
 * without building the tree: a zero node hashed with itself log2 times.
 * Returns 0 or -EINVAL. */
int tree_d_zero_comm_d(uint64_t sector_bytes, uint8_t comm_d[32]);
