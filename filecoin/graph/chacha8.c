/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/graph/chacha8.h"

#include <assert.h>
#include <string.h>

static inline uint32_t rotl32(uint32_t x, unsigned n) {
        return (x << n) | (x >> (32 - n));
}

#define QUARTER_ROUND(a, b, c, d)      \
        do {                           \
                a += b;                \
                d = rotl32(d ^ a, 16); \
                c += d;                \
                b = rotl32(b ^ c, 12); \
                a += b;                \
                d = rotl32(d ^ a, 8);  \
                c += d;                \
                b = rotl32(b ^ c, 7);  \
        } while (0)

void chacha_block(const uint32_t key[8], uint64_t counter, uint64_t stream, unsigned rounds,
                  uint32_t out[CHACHA_BLOCK_WORDS]) {
        /* "expand 32-byte k" */
        uint32_t s[CHACHA_BLOCK_WORDS] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
        uint32_t x[CHACHA_BLOCK_WORDS];

        assert(key);
        assert(out);
        assert(rounds % 2 == 0);

        memcpy(&s[4], key, 8 * sizeof(uint32_t));
        s[12] = (uint32_t)counter;
        s[13] = (uint32_t)(counter >> 32);
        s[14] = (uint32_t)stream;
        s[15] = (uint32_t)(stream >> 32);
        memcpy(x, s, sizeof(x));
        for (unsigned r = 0; r < rounds; r += 2) {
                QUARTER_ROUND(x[0], x[4], x[8], x[12]);
                QUARTER_ROUND(x[1], x[5], x[9], x[13]);
                QUARTER_ROUND(x[2], x[6], x[10], x[14]);
                QUARTER_ROUND(x[3], x[7], x[11], x[15]);
                QUARTER_ROUND(x[0], x[5], x[10], x[15]);
                QUARTER_ROUND(x[1], x[6], x[11], x[12]);
                QUARTER_ROUND(x[2], x[7], x[8], x[13]);
                QUARTER_ROUND(x[3], x[4], x[9], x[14]);
        }
        for (unsigned i = 0; i < CHACHA_BLOCK_WORDS; i++)
                out[i] = x[i] + s[i];
}

static uint32_t load_le32(const uint8_t *p) {
        return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void chacha8_rng_init(struct chacha8_rng *rng, const uint8_t seed[CHACHA_KEY_BYTES]) {
        assert(rng);
        assert(seed);

        for (unsigned i = 0; i < 8; i++)
                rng->key[i] = load_le32(seed + 4 * i);
        rng->counter = 0;
        rng->next_word = CHACHA_BLOCK_WORDS;
}

uint32_t chacha8_next_u32(struct chacha8_rng *rng) {
        assert(rng);

        if (rng->next_word == CHACHA_BLOCK_WORDS) {
                chacha_block(rng->key, rng->counter++, 0, 8, rng->block);
                rng->next_word = 0;
        }
        return rng->block[rng->next_word++];
}

uint64_t chacha8_next_u64(struct chacha8_rng *rng) {
        uint64_t low;

        assert(rng);

        /* rand_core's BlockRng straddles a buffer boundary the same way:
         * the last word of one block, then the first of the next. */
        low = chacha8_next_u32(rng);
        return low | (uint64_t)chacha8_next_u32(rng) << 32;
}
