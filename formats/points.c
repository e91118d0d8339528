/* SPDX-License-Identifier: Apache-2.0 */
#include "points.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>

#include "common/log.h"
#include "zk/zk_error.h"

/* Below this many points a parallel region costs more than it saves. */
#define POINTS_PARALLEL_MIN 4096

typedef int (*point_decode_fn)(void *out, const uint8_t *in, unsigned flags);

static int g1_decode_snarkjs(void *out, const uint8_t *in, unsigned flags) {
        return g1_decode(out, in, G1_SNARKJS_BYTES, POINT_FORMAT_SNARKJS, flags);
}

static int g2_decode_snarkjs(void *out, const uint8_t *in, unsigned flags) {
        return g2_decode(out, in, G2_SNARKJS_BYTES, POINT_FORMAT_SNARKJS, flags);
}

static int read_points(struct bin_reader *r, const char *what, uint64_t n, bool check_subgroup,
                       uint8_t *out, size_t out_size, size_t in_size, point_decode_fn decode) {
        const unsigned flags = check_subgroup ? 0 : POINT_DECODE_SKIP_SUBGROUP_CHECK;
        const uint8_t *in;
        uint64_t first_bad = UINT64_MAX;
        int k;

        assert(r);
        assert(what);
        assert(out || n == 0);

        k = bin_read_array(r, what, n, in_size, &in);
        if (k < 0)
                return k;

#pragma omp parallel for reduction(min : first_bad) if (n >= POINTS_PARALLEL_MIN)
        for (uint64_t i = 0; i < n; i++)
                if (decode(out + i * out_size, in + i * in_size, flags) < 0 && i < first_bad)
                        first_bad = i;

        if (first_bad != UINT64_MAX) {
                k = decode(out + first_bad * out_size, in + first_bad * in_size, flags);
                return log_error_errno(EBADMSG,
                                       "%s: %s section: %s point %" PRIu64 " of %" PRIu64 ": %s",
                                       r->path, r->section, what, first_bad, n, zk_strerror(k));
        }
        return 0;
}

int bin_read_g1_points(struct bin_reader *r, const char *what, uint64_t n, bool check_subgroup,
                       g1_affine_t *out) {
        return read_points(r, what, n, check_subgroup, (uint8_t *)out, sizeof(*out),
                           G1_SNARKJS_BYTES, g1_decode_snarkjs);
}

int bin_read_g2_points(struct bin_reader *r, const char *what, uint64_t n, bool check_subgroup,
                       g2_affine_t *out) {
        return read_points(r, what, n, check_subgroup, (uint8_t *)out, sizeof(*out),
                           G2_SNARKJS_BYTES, g2_decode_snarkjs);
}
