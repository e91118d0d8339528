/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/graph/feistel.h"

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "filecoin/sha256/sha256.h"

static const char FEISTEL_DST[] = "Filecoin_Feistel";

static const uint64_t BLAKE2B_IV[8] = {
        0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
        0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
};

static const uint8_t BLAKE2B_SIGMA[12][16] = {
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
        {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
        {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
        {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
        {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
        {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
        {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
        {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
        {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
        {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
        {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

static inline uint64_t rotr64(uint64_t x, unsigned n) {
        return (x >> n) | (x << (64 - n));
}

#define G(ROTR, a, b, c, d, x, y)    \
        do {                         \
                a = a + b + (x);     \
                d = ROTR(d ^ a, 32); \
                c = c + d;           \
                b = ROTR(b ^ c, 24); \
                a = a + b + (y);     \
                d = ROTR(d ^ a, 16); \
                c = c + d;           \
                b = ROTR(b ^ c, 63); \
        } while (0)

#define ROUND(ROTR, r)                                                 \
        do {                                                           \
                const uint8_t *s = BLAKE2B_SIGMA[r];                   \
                G(ROTR, v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);    \
                G(ROTR, v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);    \
                G(ROTR, v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);   \
                G(ROTR, v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);   \
                G(ROTR, v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);   \
                G(ROTR, v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]); \
                G(ROTR, v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);  \
                G(ROTR, v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);  \
        } while (0)

/* BLAKE2b's 12 rounds, written out so that the sigma indexes are constants
 * and the zero message words fold away. */
#define ALL_ROUNDS(ROTR)         \
        do {                     \
                ROUND(ROTR, 0);  \
                ROUND(ROTR, 1);  \
                ROUND(ROTR, 2);  \
                ROUND(ROTR, 3);  \
                ROUND(ROTR, 4);  \
                ROUND(ROTR, 5);  \
                ROUND(ROTR, 6);  \
                ROUND(ROTR, 7);  \
                ROUND(ROTR, 8);  \
                ROUND(ROTR, 9);  \
                ROUND(ROTR, 10); \
                ROUND(ROTR, 11); \
        } while (0)

/* Parameter block word 0: digest length 64, no key, fanout 1, depth 1. */
#define BLAKE2B512_PARAM0 0x01010040u
/* t0 (bytes hashed: one 16-byte message) and f0 (the last block). */
#define BLAKE2B_MESSAGE_BYTES 16u

/*
 * The first output word of unkeyed BLAKE2b-512 over one 16-byte message
 * whose LE words are m0, m1. This runs 24 times or more per node while
 * sealing, so it is one compression written out for exactly this case
 * (the 14 zero message words fold away), instead of a general BLAKE2b
 * behind libcrypto's EVP interface (test-graph prints both timings).
 */
static uint64_t blake2b512_16_bytes_word0(uint64_t m0, uint64_t m1) {
        const uint64_t m[16] = {m0, m1};
        const uint64_t h0 = BLAKE2B_IV[0] ^ BLAKE2B512_PARAM0;
        uint64_t v[16] = {
                h0,
                BLAKE2B_IV[1],
                BLAKE2B_IV[2],
                BLAKE2B_IV[3],
                BLAKE2B_IV[4],
                BLAKE2B_IV[5],
                BLAKE2B_IV[6],
                BLAKE2B_IV[7],
                BLAKE2B_IV[0],
                BLAKE2B_IV[1],
                BLAKE2B_IV[2],
                BLAKE2B_IV[3],
                BLAKE2B_IV[4] ^ BLAKE2B_MESSAGE_BYTES,
                BLAKE2B_IV[5],
                ~BLAKE2B_IV[6],
                BLAKE2B_IV[7],
        };

        ALL_ROUNDS(rotr64);
        return h0 ^ v[0] ^ v[8];
}

uint64_t feistel_round(uint64_t right, uint64_t key, uint64_t right_mask) {
        /* The message is right and key as BE bytes; BLAKE2b reads LE words.
         * The digest's first 8 bytes are read back as a BE u64. */
        uint64_t word0 =
                blake2b512_16_bytes_word0(__builtin_bswap64(right), __builtin_bswap64(key));

        return __builtin_bswap64(word0) & right_mask;
}

static uint64_t load_le64(const uint8_t *p) {
        uint64_t v = 0;

        for (unsigned i = 0; i < 8; i++)
                v |= (uint64_t)p[i] << (8 * i);
        return v;
}

void feistel_init(struct feistel *f, const uint8_t porep_id[32], uint64_t num_elements) {
        const struct sha256_piece pieces[] = {
                {FEISTEL_DST, sizeof(FEISTEL_DST) - 1},
                {porep_id, 32},
        };
        uint8_t seed[SHA256_DIGEST_BYTES];
        unsigned log4 = 1;

        assert(f);
        assert(porep_id);
        assert(num_elements >= 1 && num_elements <= (UINT64_C(1) << 62));

        sha256_digest_pieces(pieces, 2, seed);
        for (unsigned i = 0; i < FEISTEL_KEYS; i++)
                f->keys[i] = load_le64(seed + 8 * i);

        /* The smallest 4^h >= num_elements, starting from 4. */
        for (uint64_t pow4 = 4; pow4 < num_elements; pow4 *= 4)
                log4++;
        f->num_elements = num_elements;
        f->half_bits = log4;
        f->right_mask = (UINT64_C(1) << log4) - 1;
        f->left_mask = f->right_mask << log4;
}

static uint64_t feistel_encode(const struct feistel *f, uint64_t index) {
        uint64_t left = (index & f->left_mask) >> f->half_bits;
        uint64_t right = index & f->right_mask;

        for (unsigned i = 0; i < FEISTEL_ROUNDS; i++) {
                uint64_t next_right = left ^ feistel_round(right, f->keys[i], f->right_mask);

                left = right;
                right = next_right;
        }
        return (left << f->half_bits) | right;
}

uint64_t feistel_permute(const struct feistel *f, uint64_t index) {
        uint64_t u;

        assert(f);
        assert(index < f->num_elements);

        /* 4^h can exceed num_elements by up to 4x: walk the cycle until the
         * value lands back in range. */
        u = feistel_encode(f, index);
        while (u >= f->num_elements)
                u = feistel_encode(f, u);
        return u;
}

/*
 * The same permutation for many indexes at once, in LANES BLAKE2b
 * computations side by side (GCC vector extensions: one AVX-512 register,
 * two AVX2 ones or four SSE2 ones, the clone chosen at load time). A lane
 * whose value has landed in range takes the next index, so cycle walking
 * leaves no lane idle until the indexes run out. Measured on one AVX-512
 * core, domain 2^33 (thread CPU time): 685 ns a permutation one at a time,
 * 365 ns in runs of 8 (one node's expander parents), 175 ns in long runs.
 */
#define LANES 8u
typedef uint64_t u64xN __attribute__((vector_size(8 * LANES)));

/*
 * The lanes pay off with AVX2 (326 ns a permutation in long runs) and more
 * with AVX-512 (175 ns); with SSE2 alone they are slower (1,090 ns) than one
 * index at a time (685 ns), so the default clone is never run.
 */
#if defined(__x86_64__)
#define LANE_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
static bool lanes_are_fast(void) {
        return __builtin_cpu_supports("avx2");
}
#else
#define LANE_CLONES
static bool lanes_are_fast(void) {
        return false;
}
#endif

/* A macro, not a function: no vector crosses a call, whose ABI would
 * depend on the clone's instruction set. */
#define ROTR64_LANES(x, n) (((x) >> (n)) | ((x) << (64 - (n))))

/*
 * One encode (three rounds) of every lane of values, on byte-swapped halves:
 * BLAKE2b reads the BE bytes of right as the LE word bswap(right), and the
 * round's output is bswap(word 0) & mask. Byte order commutes with & and ^,
 * so a network run on swapped halves (with a swapped mask) needs no swaps
 * inside the rounds, only on the way in and out, done here per lane.
 */
LANE_CLONES static void encode_lanes(const struct feistel *f, uint64_t values[LANES]) {
        const uint64_t mask_swapped = __builtin_bswap64(f->right_mask);
        const uint64_t h0 = BLAKE2B_IV[0] ^ BLAKE2B512_PARAM0;
        const u64xN zero = {0};
        uint64_t left_lanes[LANES], right_lanes[LANES];
        u64xN left, right;

        for (unsigned l = 0; l < LANES; l++) {
                left_lanes[l] = __builtin_bswap64((values[l] & f->left_mask) >> f->half_bits);
                right_lanes[l] = __builtin_bswap64(values[l] & f->right_mask);
        }
        memcpy(&left, left_lanes, sizeof(left));
        memcpy(&right, right_lanes, sizeof(right));
        for (unsigned i = 0; i < FEISTEL_ROUNDS; i++) {
                const u64xN m[16] = {right, zero + __builtin_bswap64(f->keys[i])};
                u64xN v[16], next_right;

                for (unsigned j = 0; j < 8; j++) {
                        v[j] = zero + BLAKE2B_IV[j];
                        v[8 + j] = zero + BLAKE2B_IV[j];
                }
                v[0] = zero + h0;
                v[12] ^= BLAKE2B_MESSAGE_BYTES;
                v[14] = ~v[14];
                ALL_ROUNDS(ROTR64_LANES);
                next_right = left ^ ((h0 ^ v[0] ^ v[8]) & mask_swapped);
                left = right;
                right = next_right;
        }
        memcpy(left_lanes, &left, sizeof(left));
        memcpy(right_lanes, &right, sizeof(right));
        for (unsigned l = 0; l < LANES; l++)
                values[l] = __builtin_bswap64(left_lanes[l]) << f->half_bits |
                            __builtin_bswap64(right_lanes[l]);
}

void feistel_permute_range(const struct feistel *f, uint64_t first, size_t count, uint64_t *out) {
        uint64_t values[LANES] = {0};
        size_t job[LANES], next = 0, active = 0;

        assert(f);
        assert(out || count == 0);
        assert(first <= f->num_elements && count <= f->num_elements - first);

        if (!lanes_are_fast()) {
                for (size_t j = 0; j < count; j++)
                        out[j] = feistel_permute(f, first + j);
                return;
        }
        for (unsigned l = 0; l < LANES; l++) {
                job[l] = next < count ? next++ : SIZE_MAX;
                values[l] = job[l] == SIZE_MAX ? 0 : first + job[l];
                active += job[l] != SIZE_MAX;
        }
        while (active > 0) {
                /* Every lane is encoded at least once after taking its index. */
                encode_lanes(f, values);
                for (unsigned l = 0; l < LANES; l++) {
                        if (job[l] == SIZE_MAX || values[l] >= f->num_elements)
                                continue;
                        out[job[l]] = values[l];
                        if (next < count) {
                                job[l] = next++;
                                values[l] = first + job[l];
                        } else {
                                job[l] = SIZE_MAX;
                                active--;
                        }
                }
        }
}
