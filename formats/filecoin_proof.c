/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin_proof.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "zk/point_encoding.h"
#include "zk/zk_error.h"

#define OFFSET_A 0
#define OFFSET_B (OFFSET_A + G1_COMPRESSED_BYTES)
#define OFFSET_C (OFFSET_B + G2_COMPRESSED_BYTES)

_Static_assert(OFFSET_C + G1_COMPRESSED_BYTES == FILECOIN_PROOF_BYTES, "Filecoin proof layout");

void filecoin_proof_encode(uint8_t out[FILECOIN_PROOF_BYTES], const struct groth16_proof *proof) {
        assert(out);
        assert(proof);

        g1_encode(out + OFFSET_A, G1_COMPRESSED_BYTES, &proof->a, POINT_FORMAT_COMPRESSED);
        g2_encode(out + OFFSET_B, G2_COMPRESSED_BYTES, &proof->b, POINT_FORMAT_COMPRESSED);
        g1_encode(out + OFFSET_C, G1_COMPRESSED_BYTES, &proof->c, POINT_FORMAT_COMPRESSED);
}

void filecoin_proofs_encode(uint8_t *out, size_t out_bytes, const struct groth16_proof *proofs,
                            size_t n) {
        assert(out || n == 0);
        assert(proofs || n == 0);
        assert(out_bytes / FILECOIN_PROOF_BYTES == n && out_bytes % FILECOIN_PROOF_BYTES == 0);

        for (size_t i = 0; i < n; i++)
                filecoin_proof_encode(out + i * FILECOIN_PROOF_BYTES, &proofs[i]);
}

/* "origin" or "origin: partition i", for messages. */
static void proof_name(char *buf, size_t size, const char *origin, size_t partition,
                       size_t n_partitions) {
        if (n_partitions > 1)
                snprintf(buf, size, "%s: partition %zu of %zu", origin, partition, n_partitions);
        else
                snprintf(buf, size, "%s", origin);
}

static int check_decoded(int r, bool at_infinity, const char *name, const char *element) {
        if (r < 0)
                return log_error_errno(r, "%s: proof %s: %s", name, element, zk_strerror(r));
        if (at_infinity)
                return log_error_errno(EBADMSG,
                                       "%s: proof %s is the point at infinity, which bellperson "
                                       "refuses",
                                       name, element);
        return 0;
}

/* Decodes the 192 bytes at in; *ret is untouched on error. */
static int decode_one(const uint8_t *in, const char *name, struct groth16_proof *ret) {
        struct groth16_proof p;
        int r;

        r = g1_decode(&p.a, in + OFFSET_A, G1_COMPRESSED_BYTES, POINT_FORMAT_COMPRESSED, 0);
        r = check_decoded(r, r >= 0 && g1_affine_is_infinity(&p.a), name, "A");
        if (r < 0)
                return r;
        r = g2_decode(&p.b, in + OFFSET_B, G2_COMPRESSED_BYTES, POINT_FORMAT_COMPRESSED, 0);
        r = check_decoded(r, r >= 0 && g2_affine_is_infinity(&p.b), name, "B");
        if (r < 0)
                return r;
        r = g1_decode(&p.c, in + OFFSET_C, G1_COMPRESSED_BYTES, POINT_FORMAT_COMPRESSED, 0);
        r = check_decoded(r, r >= 0 && g1_affine_is_infinity(&p.c), name, "C");
        if (r < 0)
                return r;
        *ret = p;
        return 0;
}

int filecoin_proof_decode(const uint8_t *in, size_t in_bytes, const char *origin,
                          struct groth16_proof *ret) {
        assert(in || in_bytes == 0);
        assert(origin);
        assert(ret);

        if (in_bytes != FILECOIN_PROOF_BYTES)
                return log_error_errno(ZK_E_WRONG_LENGTH, "%s: proof is %zu bytes, expected %d",
                                       origin, in_bytes, FILECOIN_PROOF_BYTES);
        return decode_one(in, origin, ret);
}

int filecoin_proofs_decode(const uint8_t *in, size_t in_bytes, const char *origin,
                           struct groth16_proof **ret, size_t *ret_n) {
        _cleanup_free_ struct groth16_proof *proofs = NULL;
        size_t n;
        int r;

        assert(in || in_bytes == 0);
        assert(origin);
        assert(ret);
        assert(ret_n);

        if (in_bytes == 0 || in_bytes % FILECOIN_PROOF_BYTES != 0)
                return log_error_errno(ZK_E_WRONG_LENGTH,
                                       "%s: %zu bytes are not a whole, non-zero number of "
                                       "%d-byte proofs",
                                       origin, in_bytes, FILECOIN_PROOF_BYTES);
        n = in_bytes / FILECOIN_PROOF_BYTES;
        proofs = malloc(n * sizeof(*proofs));
        if (!proofs)
                return log_error_errno(ENOMEM, "%s: out of memory for %zu proofs", origin, n);

        for (size_t i = 0; i < n; i++) {
                char name[512];

                proof_name(name, sizeof(name), origin, i, n);
                r = decode_one(in + i * FILECOIN_PROOF_BYTES, name, &proofs[i]);
                if (r < 0)
                        return r;
        }
        *ret = TAKE_PTR(proofs);
        *ret_n = n;
        return 0;
}
