/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The keyed Feistel permutation behind the expander parents
 * (storage-proofs-core crypto/feistel.rs, ../shared/POREP.md Part B §3):
 * an index below num_elements is split into two halves of h bits, where 4^h
 * is the smallest power of four >= num_elements (h >= 1); three rounds
 * (L, R) <- (R, L ^ F(R, k_i)) with F(R, k) = the first 8 bytes of
 * BLAKE2b-512(R u64 BE || k u64 BE) read as a BE u64 and masked to h bits;
 * results >= num_elements are encoded again (cycle walking).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define FEISTEL_ROUNDS 3u
#define FEISTEL_KEYS 4u /* derived; only the first FEISTEL_ROUNDS are used */

struct feistel {
        uint64_t keys[FEISTEL_KEYS];
        uint64_t num_elements;
        uint64_t left_mask, right_mask;
        unsigned half_bits;
};

/* Keys: 4 u64 LE from SHA256("Filecoin_Feistel" || porep_id). num_elements >= 1. */
void feistel_init(struct feistel *f, const uint8_t porep_id[32], uint64_t num_elements);

/* The permutation of [0, num_elements): index < num_elements. */
uint64_t feistel_permute(const struct feistel *f, uint64_t index);

/* out[j] = feistel_permute(f, first + j) for j < count: the same values,
 * computed several at a time (the expander's 8 parents of a node, or the
 * parent cache's runs of nodes). */
void feistel_permute_range(const struct feistel *f, uint64_t first, size_t count, uint64_t *out);

/* The round function F(right, key) & right_mask (exposed for its test). */
uint64_t feistel_round(uint64_t right, uint64_t key, uint64_t right_mask);
