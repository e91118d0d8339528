/* SPDX-License-Identifier: Apache-2.0 */
/* UInt64 words (storage-proofs-core gadgets/uint64.rs), row for row. */
#include <assert.h>

#include "num.h"
#include "uint64.h"

void cs_u64_alloc(struct cs *cs, struct cs_u64 *r, uint64_t value) {
        assert(cs && r);
        /* Least significant bit first: the reference allocates in that order. */
        for (unsigned i = 0; i < 64; i++)
                r->bits[i] = cs_bit_alloc(cs, (value >> i) & 1);
        r->value = value;
}

void cs_u64_pack_into_input(struct cs *cs, const struct cs_u64 *a) {
        assert(cs && a);
        /* 64 bits fit one 254-bit chunk: one input, one row. */
        cs_pack_into_inputs(cs, a->bits, 64);
}

void cs_u64_to_bits_be(const struct cs_u64 *a, struct cs_bool bits[64]) {
        assert(a && bits);
        for (unsigned i = 0; i < 64; i++)
                bits[i] = a->bits[63 - i];
}
