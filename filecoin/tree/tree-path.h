/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An inclusion path as rust-fil-proofs' InclusionPath stores it (and the C1
 * JSON with it): one element per level from the leaves up, each with the
 * arity - 1 sibling hashes of that level, in order with the proven node left
 * out, and the proven node's index among its arity siblings. Hashes are the
 * 32-byte little-endian reprs (Sha256Domain or PoseidonDomain). The leaf's
 * node number is the indexes read as digits, lowest level first.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#define TREE_PATH_MAX_ARITY 8u
#define TREE_PATH_MAX_LEVELS 64u

struct tree_path_element {
        unsigned n_hashes; /* arity - 1 */
        uint8_t hashes[TREE_PATH_MAX_ARITY - 1][32];
        uint64_t index; /* < arity */
};

struct tree_path {
        unsigned n_levels;
        struct tree_path_element levels[TREE_PATH_MAX_LEVELS];
};

/* Folds leaf through the path: root gets the recomputed root, *ret_node
 * (may be NULL) the leaf's node number. Returns 0, or -EINVAL when a level
 * is malformed (index >= arity, more levels than fit, for SHA-254 an arity
 * other than 2, for Poseidon an arity without constants or a hash not below
 * r). */
/*
 * One level: hash becomes the hash of the level's children, the n_hashes
 * siblings with hash inserted at index (Poseidon of arity n_hashes + 1, or
 * the SHA-256 pair of tree D). Returns 0 or -EINVAL (a shape the hash does
 * not have).
 */
int tree_path_hash_level(bool poseidon, unsigned n_hashes, const uint8_t (*hashes)[32],
                         uint64_t index, uint8_t hash[32]);

int tree_path_root_sha254(const uint8_t leaf[32], const struct tree_path *path, uint8_t root[32],
                          uint64_t *ret_node);
int tree_path_root_poseidon(const uint8_t leaf[32], const struct tree_path *path, uint8_t root[32],
                            uint64_t *ret_node);

/* 0 when leaf + path lead to root, -EBADMSG when they lead elsewhere,
 * -EINVAL for a malformed path. */
int merkle_sha254_verify(const uint8_t leaf[32], const struct tree_path *path,
                         const uint8_t root[32]);
int merkle_poseidon_verify(const uint8_t leaf[32], const struct tree_path *path,
                           const uint8_t root[32]);
