/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/sha256/compress.h"

#include <assert.h>

const uint32_t SHA256_IV[SHA256_STATE_WORDS] = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

/* K: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const uint32_t SHA256_ROUND_CONSTANTS[SHA256_ROUNDS] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
};

static inline uint32_t rotr(uint32_t x, unsigned n) {
        return (x >> n) | (x << (32 - n));
}

static inline uint32_t load_be32(const uint8_t *p) {
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The message schedule W0..W63 (FIPS 180-4 §6.2.2 step 1). */
static void message_schedule(const uint8_t block[64], uint32_t w[64]) {
        for (unsigned t = 0; t < 16; t++)
                w[t] = load_be32(block + 4 * t);
        for (unsigned t = 16; t < 64; t++) {
                uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
                uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);

                w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
}

void sha256_compress(uint32_t state[SHA256_STATE_WORDS], const uint8_t block[64]) {
        uint32_t w[64], v[SHA256_STATE_WORDS];

        assert(state);
        assert(block);

        message_schedule(block, w);
        for (unsigned i = 0; i < SHA256_STATE_WORDS; i++)
                v[i] = state[i];
        /* v = a, b, c, d, e, f, g, h */
        for (unsigned t = 0; t < 64; t++) {
                uint32_t big_s1 = rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25);
                uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
                uint32_t temp1 = v[7] + big_s1 + ch + SHA256_ROUND_CONSTANTS[t] + w[t];
                uint32_t big_s0 = rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22);
                uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);

                v[7] = v[6];
                v[6] = v[5];
                v[5] = v[4];
                v[4] = v[3] + temp1;
                v[3] = v[2];
                v[2] = v[1];
                v[1] = v[0];
                v[0] = temp1 + big_s0 + maj;
        }
        for (unsigned i = 0; i < SHA256_STATE_WORDS; i++)
                state[i] += v[i];
}

void sha256_state_to_digest(const uint32_t state[SHA256_STATE_WORDS], uint8_t out[32]) {
        assert(state);
        assert(out);

        for (unsigned i = 0; i < SHA256_STATE_WORDS; i++) {
                out[4 * i] = (uint8_t)(state[i] >> 24);
                out[4 * i + 1] = (uint8_t)(state[i] >> 16);
                out[4 * i + 2] = (uint8_t)(state[i] >> 8);
                out[4 * i + 3] = (uint8_t)state[i];
        }
}
