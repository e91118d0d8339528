/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SHA-256 compression function with its state in the open (FIPS 180-4
 * §6.2.2), for the witness generator: the SHA-256 gadget needs every
 * block's input and output state, which libcrypto's one-shot digests hide.
 * Portable C; the whole-message digests stay in sha256.h (SHA-NI there).
 */
#pragma once

#include <stdint.h>

#define SHA256_STATE_WORDS 8u
#define SHA256_ROUNDS 64u

/* H(0): the initial state of every message (FIPS 180-4 §5.3.3). */
extern const uint32_t SHA256_IV[SHA256_STATE_WORDS];

/* K: the round constants (FIPS 180-4 §4.2.2). */
extern const uint32_t SHA256_ROUND_CONSTANTS[SHA256_ROUNDS];

/* state = compress(state, block): one 64-byte block, big-endian words. */
void sha256_compress(uint32_t state[SHA256_STATE_WORDS], const uint8_t block[64]);

/* out = the state as the 32-byte digest (each word big-endian). */
void sha256_state_to_digest(const uint32_t state[SHA256_STATE_WORDS], uint8_t out[32]);
