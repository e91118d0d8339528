/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ChaCha with 8 rounds as the random number generator rand_chacha 0.3.1
 * calls ChaCha8Rng: a 32-byte seed is the key, the 64-bit block counter
 * starts at 0 (state words 12-13), the 64-bit stream is 0 (words 14-15), and
 * the keystream is consumed as little-endian u32 words in order; a u64 is
 * the next word (low half) followed by the one after it (high half). The
 * DRG samples its parents from one such generator per node (drg.h).
 */
#pragma once

#include <stdint.h>

#define CHACHA_KEY_BYTES 32u
#define CHACHA_BLOCK_WORDS 16u

/*
 * One keystream block of the original (DJB) ChaCha layout: 64-bit counter,
 * 64-bit stream (nonce), rounds = 8, 12 or 20. out[i] is the i-th LE word.
 */
void chacha_block(const uint32_t key[8], uint64_t counter, uint64_t stream, unsigned rounds,
                  uint32_t out[CHACHA_BLOCK_WORDS]);

struct chacha8_rng {
        uint32_t key[8];
        uint64_t counter; /* the next block to generate */
        uint32_t block[CHACHA_BLOCK_WORDS];
        unsigned next_word; /* CHACHA_BLOCK_WORDS when block is used up */
};

/* ChaCha8Rng::from_seed(seed). */
void chacha8_rng_init(struct chacha8_rng *rng, const uint8_t seed[CHACHA_KEY_BYTES]);
uint32_t chacha8_next_u32(struct chacha8_rng *rng);
/* rng.gen::<u64>(): low word first. */
uint64_t chacha8_next_u64(struct chacha8_rng *rng);
