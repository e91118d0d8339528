/* SPDX-License-Identifier: Apache-2.0 */
/* create_label_circuit: the label preimage, its SHA-256 and the packing. */
#include <assert.h>

#include "circuits/gadgets/sha256.h"
#include "circuits/gadgets/uint32.h"
#include "create-label.h"

/* replica_id ‖ layer ‖ node ‖ padding to 64 bytes ‖ 37 parents: 9,984 bits. */
#define LABEL_MESSAGE_BITS ((2u + POREP_LABEL_PARENTS) * 256u)
/* With SHA-256's padding (a 1, zeros, the 64-bit length): 20 blocks. */
#define LABEL_BLOCKS ((LABEL_MESSAGE_BITS + 1u + 64u + 511u) / 512u)

/* Appends SHA-256's padding of a LABEL_MESSAGE_BITS message as constants. */
static void pad_message(struct cs_bool padded[LABEL_BLOCKS * 512]) {
        size_t at = LABEL_MESSAGE_BITS;

        padded[at++] = cs_bool_constant(true);
        while (at < LABEL_BLOCKS * 512 - 64)
                padded[at++] = cs_bool_constant(false);
        for (int i = 63; i >= 0; i--)
                padded[at++] = cs_bool_constant(((uint64_t)LABEL_MESSAGE_BITS >> i) & 1);
}

/* The digest bits (big-endian within each word) of the padded message. */
static void hash_padded(struct cs *cs, const struct cs_bool padded[LABEL_BLOCKS * 512],
                        struct cs_bool digest[256]) {
        struct cs_u32 cur[8], next[8];

        cs_sha256_iv(cur);
        for (unsigned block = 0; block < LABEL_BLOCKS; block++) {
                cs_sha256_compression(cs, &padded[512 * block], cur, next);
                for (unsigned i = 0; i < 8; i++)
                        cur[i] = next[i];
        }
        for (unsigned i = 0; i < 8; i++)
                cs_u32_to_bits_be(&cur[i], &digest[32 * i]);
}

struct cs_num cs_create_label(struct cs *cs, const struct cs_bool replica_id[256],
                              const struct cs_bool (*parents)[256], uint32_t layer,
                              const struct cs_u64 *node) {
        /* 80 KiB on the stack rather than cs_sha256's heap copy: this gadget
         * returns a num and has no way to report a failed allocation. */
        struct cs_bool padded[LABEL_BLOCKS * 512], digest[256], digest_le[256];
        struct cs_u32 layer_word;
        size_t at = 0;

        assert(cs && replica_id && parents && node);

        for (unsigned i = 0; i < 256; i++)
                padded[at++] = replica_id[i];
        /* The layer is a constant: its bits fold away in the first block. */
        cs_u32_constant(&layer_word, layer);
        cs_u32_to_bits_be(&layer_word, &padded[at]);
        at += 32;
        cs_u64_to_bits_be(node, &padded[at]);
        at += 64;
        while (at < 512)
                padded[at++] = cs_bool_constant(false);
        for (unsigned p = 0; p < POREP_LABEL_PARENTS; p++)
                for (unsigned i = 0; i < 256; i++)
                        padded[at++] = parents[p][i];
        assert(at == LABEL_MESSAGE_BITS);
        pad_message(padded);

        hash_padded(cs, padded, digest);
        /* The digest as the little-endian Fr it is read as, trimmed to 254 bits. */
        cs_reverse_bit_numbering(digest, 256, digest_le);
        return cs_pack_bits(cs, digest_le, CS_FR_CAPACITY);
}
