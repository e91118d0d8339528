/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Poseidon hash as a circuit, row for row as neptune 11's legacy
 * circuit.rs::poseidon_hash builds it (the one filecoin-hashers and
 * storage-proofs-porep use; ../shared/POREP.md Part B §1 "Circuit"): the
 * optimised schedule of filecoin/poseidon/poseidon.h with the MerkleTree
 * domain tag, its compressed constants and sparse matrices as the
 * coefficients. Rows: 31·t + 4·R_P - 2 (311, 377, 505, 598, 761, 1,009 and
 * 1,385 for arities 2, 4, 8, 11, 16, 24 and 36), each allocating one aux.
 * The inputs must be allocated nums; the same num may appear twice.
 */
#pragma once

#include "filecoin/poseidon/poseidon.h"
#include "num.h"

/* The hash of c->arity allocated nums, allocated; its value is
 * poseidon_hash() of theirs. */
struct cs_num cs_poseidon_hash(struct cs *cs, const struct poseidon_constants *c,
                               const struct cs_num *in);
