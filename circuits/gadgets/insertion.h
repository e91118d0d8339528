/* SPDX-License-Identifier: Apache-2.0 */
/*
 * storage-proofs-core gadgets/insertion.rs: places an element among the
 * arity - 1 siblings of a Merkle path level at the position its index bits
 * (least significant first) name, with the reference's pick rows (2 rows
 * for arity 2, 8 for arity 4, 22 for arity 8). Each output is a new aux
 * num. For arity 8 the first two bits must be allocated bits (Is), as the
 * reference requires of the bits it nors and ands.
 */
#pragma once

#include "num.h"

/* out[0 .. 2^n_bits) = siblings with element inserted at index (n_bits 1..3). */
void cs_insert(struct cs *cs, const struct cs_num *element, const struct cs_bool *index_bits,
               unsigned n_bits, const struct cs_num *siblings, struct cs_num *out);
