/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SHA-256 as Filecoin uses it. Whole messages go through OpenSSL's libcrypto
 * (SHA-NI where the CPU has it); the "sha254" forms clear the top two bits of
 * byte 31 of the digest (Sha256Domain::trim_to_fr32), so that the digest read
 * as a little-endian integer is below 2^254 and hence a canonical Fr.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_BYTES 32u
#define SHA256_BLOCK_BYTES 64u

/* out = SHA-256(data[0..len)). */
void sha256_digest(const void *data, size_t len, uint8_t out[SHA256_DIGEST_BYTES]);

/* out = SHA-256 over n pieces in order (no copy into one buffer). */
struct sha256_piece {
        const void *data;
        size_t len;
};
void sha256_digest_pieces(const struct sha256_piece *pieces, size_t n,
                          uint8_t out[SHA256_DIGEST_BYTES]);

/* d[31] &= 0x3f: Filecoin's 254-bit trim of a digest. */
void sha254_trim(uint8_t d[SHA256_DIGEST_BYTES]);

/* out = trim(SHA-256(left || right)): a tree-D node from its two children. */
void sha254_pair(const uint8_t left[32], const uint8_t right[32], uint8_t out[SHA256_DIGEST_BYTES]);
