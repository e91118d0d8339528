/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Synthetic PoRep challenges (challenges.rs, mod synthetic): two ChaCha20
 * streams, each keyed by a BLAKE2b-256 MAC (blake2b_simd's keyed mode, which
 * is RFC 7693's and OpenSSL's BLAKE2BMAC). The generation stream, keyed by
 * replica_id ‖ comm_r, gives one 32-byte challenge per synthetic index; the
 * selection stream, keyed by replica_id ‖ seed, gives one u32 index per
 * porep challenge. Both are read at a byte offset (the Rust code seeks).
 */
#include "filecoin/porep/challenges.h"

#include <assert.h>
#include <errno.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <string.h>

#include "common/cleanup.h"

#define CHACHA20_KEY_BYTES 32u
#define CHACHA20_BLOCK_BYTES 64u
#define SYNTH_CHALLENGE_BYTES 32u
#define SYNTH_INDEX_BYTES 4u

static const char SYNTH_GENERATION_KEY[] = "filecoin.io|PoRep|1|Synthetic|1|Generation";
static const char SYNTH_SELECTION_KEY[] = "filecoin.io|PoRep|1|Synthetic|1|Selection";
static const uint8_t SYNTH_CHACHA20_NONCE[12] = "synth-porep"; /* with its NUL: 12 bytes */

static void evp_mac_freep(EVP_MAC **p) {
        EVP_MAC_free(*p);
}

static void evp_mac_ctx_freep(EVP_MAC_CTX **p) {
        EVP_MAC_CTX_free(*p);
}

static void evp_cipher_ctx_freep(EVP_CIPHER_CTX **p) {
        EVP_CIPHER_CTX_free(*p);
}

/* out = BLAKE2b-256 keyed by tag (a string) over a ‖ b. */
static int blake2b256_keyed(const char *tag, const uint8_t a[32], const uint8_t b[32],
                            uint8_t out[CHACHA20_KEY_BYTES]) {
        _cleanup_(evp_mac_freep) EVP_MAC *mac = NULL;
        _cleanup_(evp_mac_ctx_freep) EVP_MAC_CTX *ctx = NULL;
        size_t size = CHACHA20_KEY_BYTES, len = 0;
        OSSL_PARAM params[] = {
                OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
                OSSL_PARAM_construct_end(),
        };

        mac = EVP_MAC_fetch(NULL, "BLAKE2BMAC", NULL);
        if (!mac)
                return -EIO; /* the default provider lacks it */
        ctx = EVP_MAC_CTX_new(mac);
        if (!ctx)
                return -ENOMEM;
        if (EVP_MAC_init(ctx, (const unsigned char *)tag, strlen(tag), params) != 1 ||
            EVP_MAC_update(ctx, a, 32) != 1 || EVP_MAC_update(ctx, b, 32) != 1 ||
            EVP_MAC_final(ctx, out, &len, CHACHA20_KEY_BYTES) != 1 || len != CHACHA20_KEY_BYTES)
                return -EIO;
        return 0;
}

/* out[0..len) = the ChaCha20 keystream (IETF: 32-bit block counter from 0)
 * from byte offset on. */
static int chacha20_keystream(const uint8_t key[CHACHA20_KEY_BYTES], uint64_t offset, uint8_t *out,
                              size_t len) {
        _cleanup_(evp_cipher_ctx_freep) EVP_CIPHER_CTX *ctx = NULL;
        uint64_t block = offset / CHACHA20_BLOCK_BYTES;
        unsigned skip = (unsigned)(offset % CHACHA20_BLOCK_BYTES);
        uint8_t iv[16], scratch[CHACHA20_BLOCK_BYTES] = {0};
        int n;

        if (block + (len + skip + CHACHA20_BLOCK_BYTES - 1) / CHACHA20_BLOCK_BYTES > UINT32_MAX)
                return -EINVAL; /* past the end of the 2^32-block stream */
        /* OpenSSL's IV: the block counter as u32 LE, then the 12-byte nonce. */
        for (unsigned i = 0; i < 4; i++)
                iv[i] = (uint8_t)(block >> (8 * i));
        memcpy(iv + 4, SYNTH_CHACHA20_NONCE, sizeof(SYNTH_CHACHA20_NONCE));
        ctx = EVP_CIPHER_CTX_new();
        if (!ctx)
                return -ENOMEM;
        if (EVP_EncryptInit_ex(ctx, EVP_chacha20(), NULL, key, iv) != 1)
                return -EIO;
        if (skip && EVP_EncryptUpdate(ctx, scratch, &n, scratch, (int)skip) != 1)
                return -EIO;
        memset(out, 0, len);
        for (size_t done = 0; done < len;) {
                int chunk = (int)(len - done > (1u << 30) ? 1u << 30 : len - done);

                if (EVP_EncryptUpdate(ctx, out + done, &n, out + done, chunk) != 1 || n != chunk)
                        return -EIO;
                done += (size_t)chunk;
        }
        return 0;
}

uint64_t porep_synth_count(uint64_t nodes) {
        return nodes < POREP_SYNTH_CHALLENGES_MAX ? nodes : POREP_SYNTH_CHALLENGES_MAX;
}

int porep_synth_generate(uint64_t nodes, const uint8_t replica_id[32], const uint8_t comm_r[32],
                         uint64_t first, size_t n, uint64_t *out) {
        uint8_t key[CHACHA20_KEY_BYTES], stream[64 * SYNTH_CHALLENGE_BYTES];
        int r;

        assert(replica_id);
        assert(comm_r);
        assert(out || n == 0);

        r = blake2b256_keyed(SYNTH_GENERATION_KEY, replica_id, comm_r, key);
        if (r < 0)
                return r;
        /* In runs of 64 challenges: 2 KiB of keystream on the stack. */
        for (size_t done = 0; done < n;) {
                size_t run = n - done < 64 ? n - done : 64;

                r = chacha20_keystream(key, (first + done) * SYNTH_CHALLENGE_BYTES, stream,
                                       run * SYNTH_CHALLENGE_BYTES);
                if (r < 0)
                        return r;
                for (size_t i = 0; i < run; i++)
                        out[done + i] = porep_challenge_from_le(stream + i * SYNTH_CHALLENGE_BYTES,
                                                                SYNTH_CHALLENGE_BYTES, nodes);
                done += run;
        }
        return 0;
}

int porep_synth_select(uint64_t num_synth, const uint8_t replica_id[32], const uint8_t seed[32],
                       uint64_t first, size_t n, uint64_t *out) {
        uint8_t key[CHACHA20_KEY_BYTES], stream[64 * SYNTH_INDEX_BYTES];
        int r;

        assert(num_synth > 0);
        assert(replica_id);
        assert(seed);
        assert(out || n == 0);

        r = blake2b256_keyed(SYNTH_SELECTION_KEY, replica_id, seed, key);
        if (r < 0)
                return r;
        for (size_t done = 0; done < n;) {
                size_t run = n - done < 64 ? n - done : 64;

                r = chacha20_keystream(key, (first + done) * SYNTH_INDEX_BYTES, stream,
                                       run * SYNTH_INDEX_BYTES);
                if (r < 0)
                        return r;
                for (size_t i = 0; i < run; i++) {
                        const uint8_t *p = stream + i * SYNTH_INDEX_BYTES;
                        uint32_t index = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
                                         (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;

                        out[done + i] = index % num_synth;
                }
                done += run;
        }
        return 0;
}
