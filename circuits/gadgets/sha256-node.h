/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tree D's node hash as a circuit (filecoin-hashers Sha256Function::
 * hash_multi_leaf_circuit for two children): each child through
 * to_bits_le and reverse_bit_numbering, SHA-256 of the 512 bits, the
 * digest's bits reversed per byte and the first 254 packed (Filecoin's
 * trim). 45,379 rows: 2 x 256 for the bit decompositions, 44,866 for
 * SHA-256 of the 512 bits, 1 for the packing (a PoR level adds 1 index bit
 * and 2 insert picks: 45,382, POREP.md's figure per tree-D level).
 */
#pragma once

#include "num.h"

struct cs_num cs_sha256_node(struct cs *cs, const struct cs_num *left, const struct cs_num *right);
