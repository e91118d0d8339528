/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Proof of retrievability (storage-proofs-core gadgets/por.rs
 * PoRCircuit::synthesize): from a leaf, each level of the base, sub and
 * top paths allocates its index bits and siblings, inserts and hashes; the
 * index bits are packed into one public input, and the computed root must
 * equal root.
 *
 * The path's shape and, in witness modes, its values come from Filecoin's
 * MerkleProof as a C1 output holds it (filecoin/c1/c1.h); the shape of a
 * blank proof from c1_output_new() gives the same rows.
 */
#pragma once

#include <stdbool.h>

#include "filecoin/c1/c1.h"
#include "num.h"

enum cs_por_hash {
        CS_POR_SHA256,   /* binary, the tree-D node hash */
        CS_POR_POSEIDON, /* arity of each level = its siblings + 1 */
};

/*
 * Enforces that leaf opens proof's path to root (private: the root is an
 * allocated num; public_root also makes it an input, as the reference's
 * private = false does). leaf and root are allocated by the caller
 * (Root::Var); the rows are the reference's from the first index bit on:
 * per level its index bits, siblings, insert and hash; then one input
 * packing the index bits (it equals the leaf's node number), the row
 * computed·ONE = root, and with public_root root's input row.
 *
 * Returns 0, or -EINVAL (logged) before synthesising anything when a level's
 * arity is not one the hash has (2 for SHA-256; 2, 4 or 8 for Poseidon), an
 * index is not below its arity, a sibling is not below r, or the path has
 * more than 256 index bits.
 */
int cs_por(struct cs *cs, enum cs_por_hash hash, const struct cs_num *leaf,
           const struct c1_merkle_proof *proof, const struct cs_num *root, bool public_root);
