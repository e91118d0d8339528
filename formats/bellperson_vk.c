/* SPDX-License-Identifier: Apache-2.0 */
#include "bellperson_vk.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bellperson_io.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "zk/point_encoding.h"
#include "zk/zk_error.h"

#define G1_BYTES G1_UNCOMPRESSED_BYTES
#define G2_BYTES G2_UNCOMPRESSED_BYTES
/* Offsets of the fixed part, in file order. */
#define OFFSET_ALPHA_G1 0
#define OFFSET_BETA_G1 (OFFSET_ALPHA_G1 + G1_BYTES)
#define OFFSET_BETA_G2 (OFFSET_BETA_G1 + G1_BYTES)
#define OFFSET_GAMMA_G2 (OFFSET_BETA_G2 + G2_BYTES)
#define OFFSET_DELTA_G1 (OFFSET_GAMMA_G2 + G2_BYTES)
#define OFFSET_DELTA_G2 (OFFSET_DELTA_G1 + G1_BYTES)
#define OFFSET_IC_COUNT (OFFSET_DELTA_G2 + G2_BYTES)
#define OFFSET_IC (OFFSET_IC_COUNT + 4)

_Static_assert(OFFSET_IC == BELLPERSON_VK_FIXED_BYTES, "verifying key layout");

/* Fits in 64 bytes with its newline; the rest is zeros. */
const uint8_t BELLPERSON_TIMING_ONLY_MARKER[BELLPERSON_TIMING_ONLY_MARKER_BYTES] =
        "cuzk timing-only SRS: random points; its proofs are void\n";

size_t bellperson_timing_only_marker_bytes(const uint8_t *data, size_t size) {
        assert(data || size == 0);
        if (size < BELLPERSON_TIMING_ONLY_MARKER_BYTES ||
            memcmp(data, BELLPERSON_TIMING_ONLY_MARKER, BELLPERSON_TIMING_ONLY_MARKER_BYTES) != 0)
                return 0;
        return BELLPERSON_TIMING_ONLY_MARKER_BYTES;
}

uint64_t bellperson_vk_bytes(uint32_t n_public) {
        return BELLPERSON_VK_FIXED_BYTES + ((uint64_t)n_public + 1) * G1_BYTES;
}

int bellperson_vk_measure(const uint8_t *data, size_t size, const char *origin,
                          uint64_t *ret_bytes) {
        size_t marker;
        uint32_t n_ic;
        uint64_t need;

        assert(data || size == 0);
        assert(origin);
        assert(ret_bytes);

        /* The key's offsets count from after a timing-only marker. */
        marker = bellperson_timing_only_marker_bytes(data, size);
        data += marker;
        size -= marker;
        if (size < BELLPERSON_VK_FIXED_BYTES)
                return log_error_errno(
                        EBADMSG, "%s: truncated: %zu bytes, a verifying key needs at least %d",
                        origin, size, BELLPERSON_VK_FIXED_BYTES);
        n_ic = bellperson_be32(data + OFFSET_IC_COUNT);
        if (n_ic == 0)
                return log_error_errno(EBADMSG,
                                       "%s: verifying key: ic count is 0 (offset %d), expected at "
                                       "least 1 (the constant wire)",
                                       origin, OFFSET_IC_COUNT);
        need = BELLPERSON_VK_FIXED_BYTES + (uint64_t)n_ic * G1_BYTES;
        if (need > size)
                return log_error_errno(EBADMSG,
                                       "%s: verifying key: ic count %" PRIu32 " needs %" PRIu64
                                       " bytes, the file has %zu bytes",
                                       origin, n_ic, need, size);
        *ret_bytes = marker + need;
        return 0;
}

static int decode_key_g1(g1_affine_t *out, const uint8_t *in, const char *origin,
                         const char *name) {
        int r = g1_decode(out, in, G1_BYTES, POINT_FORMAT_UNCOMPRESSED, 0);

        if (r < 0)
                return log_error_errno(EBADMSG, "%s: verifying key: %s: %s", origin, name,
                                       zk_strerror(r));
        if (g1_affine_is_infinity(out))
                return log_error_errno(EBADMSG,
                                       "%s: verifying key: %s is the point at infinity, "
                                       "a degenerate key",
                                       origin, name);
        return 0;
}

static int decode_key_g2(g2_affine_t *out, const uint8_t *in, const char *origin,
                         const char *name) {
        int r = g2_decode(out, in, G2_BYTES, POINT_FORMAT_UNCOMPRESSED, 0);

        if (r < 0)
                return log_error_errno(EBADMSG, "%s: verifying key: %s: %s", origin, name,
                                       zk_strerror(r));
        if (g2_affine_is_infinity(out))
                return log_error_errno(EBADMSG,
                                       "%s: verifying key: %s is the point at infinity, "
                                       "a degenerate key",
                                       origin, name);
        return 0;
}

static int decode_ic(struct groth16_vk *vk, const uint8_t *in, const char *origin) {
        uint64_t n_ic = (uint64_t)vk->n_public + 1, bad = 0;
        int r;

        vk->ic = malloc(n_ic * sizeof(*vk->ic));
        if (!vk->ic)
                return log_error_errno(ENOMEM, "%s: out of memory for %" PRIu64 " ic points",
                                       origin, n_ic);
        r = bellperson_decode_g1_points(vk->ic, in, n_ic, 0, &bad);
        if (r < 0)
                return log_error_errno(EBADMSG,
                                       "%s: verifying key: ic point %" PRIu64 " of %" PRIu64 ": %s",
                                       origin, bad, n_ic, zk_strerror(r));
        /* Every public input has a constraint of its own, so bellperson refuses infinity. */
        for (uint64_t i = 0; i < n_ic; i++)
                if (g1_affine_is_infinity(&vk->ic[i]))
                        return log_error_errno(EBADMSG,
                                               "%s: verifying key: ic point %" PRIu64 " of %" PRIu64
                                               " is the point at infinity, which bellperson "
                                               "refuses",
                                               origin, i, n_ic);
        return 0;
}

int bellperson_vk_parse(const uint8_t *data, size_t size, const char *origin, uint64_t *ret_bytes,
                        struct bellperson_vk **ret) {
        _cleanup_(bellperson_vk_freep) struct bellperson_vk *vk = NULL;
        const uint8_t *key;
        uint64_t bytes;
        size_t marker;
        int r;

        assert(data || size == 0);
        assert(origin);
        assert(ret);

        r = bellperson_vk_measure(data, size, origin, &bytes);
        if (r < 0)
                return r;
        marker = bellperson_timing_only_marker_bytes(data, size);
        key = data + marker;
        if (!ret_bytes && bytes != size)
                return log_error_errno(EBADMSG,
                                       "%s: %" PRIu64
                                       " bytes after the verifying key, expected none "
                                       "(file has %zu bytes)",
                                       origin, size - bytes, size);

        vk = calloc(1, sizeof(*vk));
        if (!vk)
                return log_error_errno(ENOMEM, "%s: out of memory", origin);
        vk->timing_only = marker > 0;
        vk->vk.n_public = bellperson_be32(key + OFFSET_IC_COUNT) - 1;

        r = decode_key_g1(&vk->vk.alpha1, key + OFFSET_ALPHA_G1, origin, "alpha_g1");
        if (r < 0)
                return r;
        r = decode_key_g1(&vk->beta1, key + OFFSET_BETA_G1, origin, "beta_g1");
        if (r < 0)
                return r;
        r = decode_key_g2(&vk->vk.beta2, key + OFFSET_BETA_G2, origin, "beta_g2");
        if (r < 0)
                return r;
        r = decode_key_g2(&vk->vk.gamma2, key + OFFSET_GAMMA_G2, origin, "gamma_g2");
        if (r < 0)
                return r;
        r = decode_key_g1(&vk->delta1, key + OFFSET_DELTA_G1, origin, "delta_g1");
        if (r < 0)
                return r;
        r = decode_key_g2(&vk->vk.delta2, key + OFFSET_DELTA_G2, origin, "delta_g2");
        if (r < 0)
                return r;
        r = decode_ic(&vk->vk, key + OFFSET_IC, origin);
        if (r < 0)
                return r;

        if (ret_bytes)
                *ret_bytes = bytes;
        *ret = TAKE_PTR(vk);
        return 0;
}

/* A .vk file holds the key alone: nothing may follow it. */
static int parse_vk_file(const uint8_t *data, size_t size, const char *origin, void *ret) {
        return bellperson_vk_parse(data, size, origin, NULL, ret);
}

int bellperson_vk_load(const char *path, struct bellperson_vk **ret) {
        return bellperson_load_file(path, parse_vk_file, ret);
}

int bellperson_vk_write(struct bellperson_writer *w, const struct groth16_vk *vk,
                        const g1_affine_t *beta1, const g1_affine_t *delta1) {
        int r;

        assert(w);
        assert(vk);
        assert(vk->ic);
        assert(vk->n_public < UINT32_MAX); /* the IC count must fit its u32 */
        assert(beta1);
        assert(delta1);

        r = bellperson_write_g1_points(w, &vk->alpha1, 1);
        if (r < 0)
                return r;
        r = bellperson_write_g1_points(w, beta1, 1);
        if (r < 0)
                return r;
        r = bellperson_write_g2_points(w, &vk->beta2, 1);
        if (r < 0)
                return r;
        r = bellperson_write_g2_points(w, &vk->gamma2, 1);
        if (r < 0)
                return r;
        r = bellperson_write_g1_points(w, delta1, 1);
        if (r < 0)
                return r;
        r = bellperson_write_g2_points(w, &vk->delta2, 1);
        if (r < 0)
                return r;
        r = bellperson_write_u32(w, vk->n_public + 1);
        if (r < 0)
                return r;
        return bellperson_write_g1_points(w, vk->ic, (uint64_t)vk->n_public + 1);
}

int bellperson_write_timing_only_marker(struct bellperson_writer *w) {
        int r;

        assert(w);
        /* The writer takes points and big-endian words; the marker is 16 words. */
        for (size_t i = 0; i < BELLPERSON_TIMING_ONLY_MARKER_BYTES; i += 4) {
                r = bellperson_write_u32(w, bellperson_be32(BELLPERSON_TIMING_ONLY_MARKER + i));
                if (r < 0)
                        return r;
        }
        return 0;
}

static int vk_save(const char *path, const struct groth16_vk *vk, const g1_affine_t *beta1,
                   const g1_affine_t *delta1, bool timing_only) {
        _cleanup_(bellperson_writer_freep) struct bellperson_writer *w = NULL;
        int r;

        assert(path);

        r = bellperson_writer_open(path, &w);
        if (r < 0)
                return r;
        if (timing_only) {
                r = bellperson_write_timing_only_marker(w);
                if (r < 0)
                        return r;
        }
        r = bellperson_vk_write(w, vk, beta1, delta1);
        if (r < 0)
                return r;
        return bellperson_writer_finish(w);
}

int bellperson_vk_save(const char *path, const struct groth16_vk *vk, const g1_affine_t *beta1,
                       const g1_affine_t *delta1) {
        return vk_save(path, vk, beta1, delta1, false);
}

int bellperson_vk_save_timing_only(const char *path, const struct groth16_vk *vk,
                                   const g1_affine_t *beta1, const g1_affine_t *delta1) {
        return vk_save(path, vk, beta1, delta1, true);
}

struct bellperson_vk *bellperson_vk_free(struct bellperson_vk *vk) {
        if (!vk)
                return NULL;
        free(vk->vk.ic);
        free(vk);
        return NULL;
}
