/* SPDX-License-Identifier: Apache-2.0 */
/* 64-bit words of Booleans (storage-proofs-core gadgets/uint64.rs). */
#pragma once

#include <stdint.h>

#include "boolean.h"

struct cs_u64 {
        struct cs_bool bits[64]; /* least significant first */
        uint64_t value;
};

/* UInt64::alloc: 64 allocated bits with their booleanity rows. */
void cs_u64_alloc(struct cs *cs, struct cs_u64 *r, uint64_t value);
/* UInt64::pack_into_input: one public input and its packing row. */
void cs_u64_pack_into_input(struct cs *cs, const struct cs_u64 *a);
/* bits[0] is the most significant (UInt64::into_bits_be). */
void cs_u64_to_bits_be(const struct cs_u64 *a, struct cs_bool bits[64]);
