/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Merkle paths as C1 output stores them (storage-proofs-core merkle/proof.rs):
 * each element holds the arity - 1 sibling hashes of one level and the index
 * of the proven node among its arity siblings. The root is recomputed from
 * the leaf, and the leaf's node number is the indexes read as digits, lowest
 * level first (base arity 8, then the sub tree's 8, then the top's 2).
 */
#pragma once

#include <stdint.h>

#include "filecoin/c1/c1.h"
#include "filecoin/porep/registered-proof.h"

/* Tree D: binary SHA-254. Returns 0, or -EINVAL when an element does not
 * hold exactly one hash or an index above 1. */
int merkle_path_root_sha254(const struct c1_merkle_proof *proof, uint8_t root[32], uint64_t *node);

/* Tree C or tree R: Poseidon of the shape cfg names. Returns 0, or -EINVAL
 * when the shape does not match cfg or a hash is not a canonical Fr. */
int merkle_path_root_poseidon(const struct porep_config *cfg, const struct c1_merkle_proof *proof,
                              uint8_t root[32], uint64_t *node);
