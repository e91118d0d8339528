/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Emulation test of the device's .params G1 decoder (srs_decode.cuh
 * compiled for the host) against zk/'s g1_decode (uncompressed, subgroup
 * unchecked): the same verdict for every input and, where both accept, the
 * same bits. Inputs: subgroup points, points of the curve outside the
 * subgroup, infinity, and each way zk/ refuses a point (flags, a nonzero
 * byte under the infinity flag, coordinates at or above p, off the curve).
 * Needs no GPU. One PASS/FAIL line per case.
 */
#include <stdio.h>
#include <string.h>

#include "cuda/emu_check.h"
#include "cuda/srs_decode.cuh"

extern "C" {
#include "zk/g1.h"
#include "zk/point_encoding.h"
}

using namespace cuzk;

static emu_cases cases;
static emu_rng rng{0x6a09e667f3bcc909ull};

/* Whether both decoders agree on in: the verdict, and the point where accepted. */
static bool agree(const uint8_t in[G1_UNCOMPRESSED_BYTES], bool *ret_accepted) {
        static const srs_decode_consts k = srs_decode_consts_make();
        g1_affine_t host;
        g1_affine_dev dev;
        const bool host_ok = g1_decode(&host, in, G1_UNCOMPRESSED_BYTES, POINT_FORMAT_UNCOMPRESSED,
                                       POINT_DECODE_SKIP_SUBGROUP_CHECK) == 0;
        const bool dev_ok = srs_g1_decode(in, k, &dev);

        *ret_accepted = host_ok;
        if (host_ok != dev_ok)
                return false;
        return !host_ok || memcmp(&host, &dev, sizeof(host)) == 0;
}

static void check(const char *what, const uint8_t in[G1_UNCOMPRESSED_BYTES], bool want) {
        bool accepted;
        cases.report(agree(in, &accepted) && accepted == want, what);
}

/* Many inputs of one kind, one line. */
static void check_many(const char *what, int n, void (*make)(uint8_t *), bool want) {
        uint8_t in[G1_UNCOMPRESSED_BYTES];
        bool ok = true;

        for (int i = 0; i < n && ok; i++) {
                bool accepted;
                make(in);
                ok = agree(in, &accepted) && accepted == want;
        }
        char line[128];
        snprintf(line, sizeof(line), "%s (%d inputs)", what, n);
        cases.report(ok, line);
}

static void random_fr(fr_t *r) {
        uint64_t k[FR_LIMBS];
        do {
                for (int i = 0; i < FR_LIMBS; i++)
                        k[i] = rng.next();
                k[FR_LIMBS - 1] >>= 2;
        } while (!fr_from_canonical(r, k));
}

static void subgroup_point(uint8_t *out) {
        g1_jac_t g, p;
        g1_affine_t a;
        fr_t s;

        random_fr(&s);
        g1_jac_from_affine(&g, &G1_GENERATOR);
        g1_jac_mul_fr(&p, &g, &s);
        g1_jac_to_affine(&a, &p);
        g1_encode(out, G1_UNCOMPRESSED_BYTES, &a, POINT_FORMAT_UNCOMPRESSED);
}

/* x at random until x^3 + 4 is a square: on the curve, almost never in the subgroup. */
static void curve_point(uint8_t *out) {
        uint64_t limbs[FP_LIMBS];
        g1_affine_t a;
        fp_t x;

        do {
                for (int i = 0; i < FP_LIMBS; i++)
                        limbs[i] = rng.next();
                limbs[FP_LIMBS - 1] >>= 4;
        } while (!fp_from_canonical(&x, limbs) || !g1_affine_from_x(&a, &x, rng.next() & 1));
        g1_encode(out, G1_UNCOMPRESSED_BYTES, &a, POINT_FORMAT_UNCOMPRESSED);
}

/* A curve point with one random bit of y flipped: off the curve (or y >= p). */
static void off_curve_point(uint8_t *out) {
        const unsigned bit = (unsigned)(rng.next() % 381);

        curve_point(out);
        out[G1_UNCOMPRESSED_BYTES - 1 - bit / 8] ^= (uint8_t)(1u << (bit % 8));
}

/* p, big-endian. */
static const uint8_t P_BE[48] = {
        0x1a, 0x01, 0x11, 0xea, 0x39, 0x7f, 0xe6, 0x9a, 0x4b, 0x1b, 0xa7, 0xb6,
        0x43, 0x4b, 0xac, 0xd7, 0x64, 0x77, 0x4b, 0x84, 0xf3, 0x85, 0x12, 0xbf,
        0x67, 0x30, 0xd2, 0xa0, 0xf6, 0xb0, 0xf6, 0x24, 0x1e, 0xab, 0xff, 0xfe,
        0xb1, 0x53, 0xff, 0xff, 0xb9, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xaa, 0xab,
};

int main(void) {
        uint8_t in[G1_UNCOMPRESSED_BYTES], base[G1_UNCOMPRESSED_BYTES];

        check_many("points of the subgroup", 200, subgroup_point, true);
        check_many("points of the curve outside the subgroup", 200, curve_point, true);
        check_many("points off the curve", 200, off_curve_point, false);

        memset(in, 0, sizeof(in));
        in[0] = SRS_FLAG_INFINITY;
        check("infinity", in, true);
        in[G1_UNCOMPRESSED_BYTES - 1] = 1;
        check("infinity with a nonzero byte", in, false);
        in[G1_UNCOMPRESSED_BYTES - 1] = 0;
        in[0] = SRS_FLAG_INFINITY | 0x01;
        check("infinity with a nonzero value bit", in, false);
        memset(in, 0, sizeof(in));
        check("zero bytes without the infinity flag (off the curve)", in, false);

        subgroup_point(base);
        memcpy(in, base, sizeof(in));
        in[0] |= SRS_FLAG_COMPRESSED;
        check("the compression flag", in, false);
        memcpy(in, base, sizeof(in));
        in[0] |= SRS_FLAG_Y_LARGEST;
        check("the sign flag without compression", in, false);
        memcpy(in, base, sizeof(in));
        in[0] |= SRS_FLAG_INFINITY;
        check("the infinity flag on a point", in, false);

        memcpy(in, base, sizeof(in));
        memcpy(in, P_BE, 48);
        check("x = p", in, false);
        memcpy(in, base, sizeof(in));
        memcpy(in + 48, P_BE, 48);
        check("y = p", in, false);
        memcpy(in, base, sizeof(in));
        memset(in + 48, 0xff, 48);
        check("y = 2^384 - 1", in, false);
        /* y + p and y - p have the same residue: only the canonical one is the point. */
        memcpy(in, base, sizeof(in));
        {
                unsigned carry = 0;
                for (int i = 47; i >= 0; i--) {
                        const unsigned s = in[48 + i] + P_BE[i] + carry;
                        in[48 + i] = (uint8_t)s;
                        carry = s >> 8;
                }
        }
        check("y + p (the point's residue, not canonical)", in, false);

        return cases.finish();
}
