/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/sha256/sha256.h"

#include <assert.h>
#include <openssl/evp.h>
#include <stdlib.h>

void sha256_digest_pieces(const struct sha256_piece *pieces, size_t n,
                          uint8_t out[SHA256_DIGEST_BYTES]) {
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        unsigned len = 0;

        assert(pieces || n == 0);
        assert(out);

        /* The only failure libcrypto has here is allocation: nothing to recover. */
        if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1)
                abort();
        for (size_t i = 0; i < n; i++)
                if (EVP_DigestUpdate(ctx, pieces[i].data, pieces[i].len) != 1)
                        abort();
        if (EVP_DigestFinal_ex(ctx, out, &len) != 1 || len != SHA256_DIGEST_BYTES)
                abort();
        EVP_MD_CTX_free(ctx);
}

void sha256_digest(const void *data, size_t len, uint8_t out[SHA256_DIGEST_BYTES]) {
        assert(data || len == 0);
        assert(out);

        if (!EVP_Digest(data, len, out, NULL, EVP_sha256(), NULL))
                abort(); /* allocation inside libcrypto: nothing to recover */
}

void sha254_trim(uint8_t d[SHA256_DIGEST_BYTES]) {
        assert(d);
        d[31] &= 0x3f;
}

void sha254_pair(const uint8_t left[32], const uint8_t right[32],
                 uint8_t out[SHA256_DIGEST_BYTES]) {
        uint8_t buf[64];

        assert(left);
        assert(right);
        assert(out);

        for (unsigned i = 0; i < 32; i++) {
                buf[i] = left[i];
                buf[32 + i] = right[i];
        }
        sha256_digest(buf, sizeof(buf), out);
        sha254_trim(out);
}
