/* SPDX-License-Identifier: Apache-2.0 */
/* filecoin-hashers Sha256Function::hash_multi_leaf_circuit over two children. */
#include <assert.h>

#include "sha256-node.h"
#include "sha256.h"

/* SHA-256 of a 512-bit message: its block, then the constant padding block
 * (a 1 bit, zeros, the length 512), as cs_sha256 pads it. */
static void sha256_512(struct cs *cs, const struct cs_bool message[512], struct cs_bool out[256]) {
        struct cs_bool padding[512];
        struct cs_u32 iv[8], mid[8], h[8];

        for (unsigned i = 0; i < 512; i++)
                padding[i] = cs_bool_constant(i == 0 || i == 512 - 10);
        cs_sha256_iv(iv);
        cs_sha256_compression(cs, message, iv, mid);
        cs_sha256_compression(cs, padding, mid, h);
        for (unsigned i = 0; i < 8; i++)
                cs_u32_to_bits_be(&h[i], &out[32 * i]);
}

struct cs_num cs_sha256_node(struct cs *cs, const struct cs_num *left, const struct cs_num *right) {
        const struct cs_num *children[2] = {left, right};
        struct cs_bool bits[CS_FR_NUM_BITS], preimage[512], digest[256], le[256];

        assert(cs && left && right);

        /* Each child: 255 bits, bit 255 a constant false pad, bits reversed
         * inside each byte (the hashing order of its 32-byte repr). */
        for (unsigned k = 0; k < 2; k++) {
                cs_num_to_bits_le(cs, children[k], bits);
                cs_reverse_bit_numbering(bits, CS_FR_NUM_BITS, &preimage[256 * k]);
        }
        sha256_512(cs, preimage, digest);
        /* Back to little-endian bit order; the first 254 bits are the trimmed digest. */
        cs_reverse_bit_numbering(digest, 256, le);
        return cs_pack_bits(cs, le, CS_FR_CAPACITY);
}
